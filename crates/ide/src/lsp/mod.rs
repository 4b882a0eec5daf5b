//! `skelpad lsp`: a language server over stdio (`lsp-server`, synchronous).
//!
//! Every open document is a [`Document`] (the one the editor and `skelpad
//! check` hold too); each change is applied to it as [`TextEdit`]s and
//! compiled (one section and one unit for a keystroke), and the server
//! publishes its diagnostics: `skelpad check`'s, pictures that cannot be read
//! included (the host, `skelpad lsp`, says how pictures are read: a
//! [`PictureSource`]). The motion lints are a setting: `{"lint": true}` as
//! `initializationOptions`, or `skelpad.lint` in the settings a
//! `workspace/didChangeConfiguration` sends (`{"skelpad": {"lint": true}}`). The features are
//! [`crate::analysis`]'s, which answer in byte offsets and kinds of their
//! own; this module is their adapter: it converts positions (UTF-16 as LSP
//! requires; [`text::Text`] clamps whatever a client sends) and kinds at its
//! edge, and a request that fails answers an error instead of ending the
//! server.
//!
//! Diagnostics are `check`'s (hints as related information, and a "did you
//! mean" hint appended to the message, which some clients show alone);
//! semantic tokens are the token roles (`tokens`); code actions are the
//! animator's text edits of [`crate::edits`] (`actions`: move, delete or
//! insert a key, duplicate, delete or move an animation). Answers are serialized
//! once, to JSON text, and written as that text ([`transport`]).

mod actions;
pub mod text;
pub mod tokens;
pub mod transport;

use crate::analysis;

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeConfiguration, DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest,
    PrepareRenameRequest, RangeFormatting, References, Rename, Request as _,
    SemanticTokensFullDeltaRequest, SemanticTokensFullRequest,
};
use lsp_types::*;
use transport::{Out, Reply};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::document::{Document, Options, Pictures, TextEdit as Edit};
use skelpad_lang::compile::Compilation;
use skelpad_lang::syntax::tree::Section;
use skelpad_lang::syntax::{Severity, Span};
use text::Text;

/// How the server reads the pictures of a script in a folder (the host
/// gives it: the language server cannot decode pictures itself).
pub type PictureSource = Box<dyn Fn(&Path) -> Box<dyn Pictures + Send> + Send>;

/// One open document.
struct Doc {
    /// The text with its line starts, for LSP positions (the same text as
    /// `document`'s).
    text: Text,
    document: Document,
    /// The last semantic tokens sent, with their result id (for deltas).
    tokens: Option<(String, Vec<SemanticToken>)>,
    /// The semantic tokens of each section tree last seen, by the tree's
    /// address (the tree is kept, so the address stays its own): an edit
    /// makes a new tree for the sections it touches only.
    piece_tokens: HashMap<*const Section, (Arc<Section>, Arc<tokens::PieceTokens>)>,
}

impl Doc {
    fn new(text: String, options: Options, pictures: Box<dyn Pictures + Send>) -> Self {
        let document = Document::new(text.as_str(), options, pictures);
        Doc { text: Text::new(text), document, tokens: None, piece_tokens: HashMap::new() }
    }

    /// What the text compiles to.
    fn comp(&self) -> &Compilation {
        self.document.compilation()
    }

    /// Applies a client's changes to the text and compiles once.
    fn change(&mut self, changes: &[TextDocumentContentChangeEvent]) {
        let mut edits = Vec::with_capacity(changes.len());
        for c in changes {
            let span = match c.range {
                Some(r) => self.text.span(r),
                None => Span::new(0, self.text.text.len() as u32),
            };
            self.text.apply(c.range, &c.text);
            edits.push(Edit::new(span, c.text.as_str()));
        }
        self.document.update(edits);
        debug_assert_eq!(self.document.text(), self.text.text);
    }
}

/// The folder of the script at `uri`, where its pictures are: the file's
/// folder for a `file:` URI, the server's working folder otherwise.
fn script_dir(uri: &Uri) -> PathBuf {
    let path = (uri.scheme().map(|s| s.as_str()) == Some("file"))
        .then(|| uri.path().as_estr().decode().into_string().ok())
        .flatten()
        .map(|p| PathBuf::from(windows_drive(&p)));
    skelpad_lang::io::script_dir(path.as_deref())
}

/// A `file:` URI's path as the system names it: `/C:/x` is `C:/x` on
/// Windows; elsewhere the path is the path.
fn windows_drive(path: &str) -> &str {
    let b = path.as_bytes();
    if cfg!(windows) && b.len() >= 3 && b[0] == b'/' && b[2] == b':' { &path[1..] } else { path }
}

/// The motion lint setting in `settings` (`{"lint": …}` as initialization
/// options, `{"skelpad": {"lint": …}}` as configuration), if it is there.
fn lint_setting(settings: &serde_json::Value) -> Option<bool> {
    settings["skelpad"]["lint"].as_bool().or_else(|| settings["lint"].as_bool())
}

/// The server's state.
pub struct Server {
    docs: HashMap<Uri, Doc>,
    next_result: u64,
    options: Options,
    pictures: PictureSource,
}

/// The capabilities `skelpad lsp` announces.
pub fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(
            TextDocumentSyncKind::INCREMENTAL,
        )),
        position_encoding: Some(PositionEncodingKind::UTF16),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![
                "@".into(),
                ":".into(),
                ".".into(),
                " ".into(),
                "\t".into(),
            ]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: tokens::token_types(),
                    token_modifiers: tokens::TOKEN_MODIFIERS.to_vec(),
                },
                full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                range: None,
                work_done_progress_options: Default::default(),
            },
        )),
        ..ServerCapabilities::default()
    }
}

/// Runs the server on stdin/stdout until the client says `exit`; returns
/// the exit code. Pictures are read through `pictures`.
pub fn run(pictures: PictureSource) -> i32 {
    let (connection, out, io) = match transport::stdio() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("skelpad lsp: {e}");
            return 2;
        }
    };
    let caps = match serde_json::to_value(capabilities()) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("skelpad lsp: {e}");
            return 2;
        }
    };
    let init = serde_json::json!({
        "capabilities": caps,
        "serverInfo": { "name": "skelpad", "version": env!("CARGO_PKG_VERSION") },
    });
    let options = match initialize(&connection, init) {
        Ok(params) => Options {
            lint: params.get("initializationOptions").and_then(lint_setting).unwrap_or(false),
        },
        Err(e) => {
            eprintln!("skelpad lsp: {e}");
            return 1;
        }
    };
    let mut server = Server::new(pictures);
    server.options = options;
    let code = server.main_loop(&connection, &out);
    drop(connection);
    drop(out);
    let _ = io.join();
    code
}

/// The handshake; returns the client's `initialize` parameters.
fn initialize(
    connection: &Connection,
    init: serde_json::Value,
) -> Result<serde_json::Value, lsp_server::ProtocolError> {
    let (id, params) = connection.initialize_start()?;
    connection.initialize_finish(id, init)?;
    Ok(params)
}

impl Server {
    /// A server with no document open, the lints off, reading pictures
    /// through `pictures`.
    pub fn new(pictures: PictureSource) -> Self {
        Server { docs: HashMap::new(), next_result: 0, options: Options::default(), pictures }
    }

    /// Opens `uri` with `text`.
    fn open(&mut self, uri: Uri, text: String) {
        let pictures = (self.pictures)(&script_dir(&uri));
        self.docs.insert(uri, Doc::new(text, self.options, pictures));
    }

    /// Takes new settings (`workspace/didChangeConfiguration`); returns the
    /// diagnostics of every open document when the lints were turned on or
    /// off.
    fn configure(&mut self, settings: &serde_json::Value) -> Vec<Notification> {
        let Some(lint) = lint_setting(settings) else { return Vec::new() };
        let options = Options { lint };
        if options == self.options {
            return Vec::new();
        }
        self.options = options;
        let mut uris: Vec<Uri> = self.docs.keys().cloned().collect();
        uris.sort();
        for doc in self.docs.values_mut() {
            doc.document.set_options(options);
        }
        uris.iter().filter_map(|uri| self.publish(uri, None)).collect()
    }

    fn main_loop(&mut self, connection: &Connection, out: &crossbeam_channel::Sender<Out>) -> i32 {
        for msg in &connection.receiver {
            match msg {
                Message::Request(req) => {
                    match connection.handle_shutdown(&req) {
                        Ok(true) => return 0,
                        Ok(false) => {}
                        Err(_) => return 1,
                    }
                    let id = req.id.clone();
                    let reply =
                        catch_unwind(AssertUnwindSafe(|| self.answer(req))).unwrap_or_else(|_| {
                            let code = ErrorCode::InternalError as i32;
                            Reply { id, result: Err((code, "internal error".into())) }
                        });
                    if out.send(Out::Reply(reply)).is_err() {
                        return 1;
                    }
                }
                Message::Notification(n) => {
                    let sent =
                        catch_unwind(AssertUnwindSafe(|| self.notification(n))).unwrap_or_default();
                    for n in sent {
                        if out.send(Out::Message(Message::Notification(n))).is_err() {
                            return 1;
                        }
                    }
                }
                Message::Response(_) => {}
            }
        }
        0
    }

    /// Handles a notification; returns the notifications to send back.
    pub fn notification(&mut self, n: Notification) -> Vec<Notification> {
        match n.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                let uri = p.text_document.uri;
                self.open(uri.clone(), p.text_document.text);
                self.publish(&uri, Some(p.text_document.version)).into_iter().collect()
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                let uri = p.text_document.uri;
                let Some(doc) = self.docs.get_mut(&uri) else { return Vec::new() };
                doc.change(&p.content_changes);
                self.publish(&uri, Some(p.text_document.version)).into_iter().collect()
            }
            DidCloseTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                self.docs.remove(&p.text_document.uri);
                let clear = PublishDiagnosticsParams {
                    uri: p.text_document.uri,
                    diagnostics: Vec::new(),
                    version: None,
                };
                vec![Notification::new(PublishDiagnostics::METHOD.into(), clear)]
            }
            DidChangeConfiguration::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeConfigurationParams>(n.params) else {
                    return Vec::new();
                };
                self.configure(&p.settings)
            }
            _ => Vec::new(),
        }
    }

    fn publish(&self, uri: &Uri, version: Option<i32>) -> Option<Notification> {
        let doc = self.docs.get(uri)?;
        let params = PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics: diagnostics(uri, doc),
            version,
        };
        Some(Notification::new(PublishDiagnostics::METHOD.into(), params))
    }

    /// Answers a request with its result's JSON text (what the server
    /// writes).
    pub fn answer(&mut self, req: Request) -> Reply {
        let id = req.id.clone();
        Reply { id, result: self.dispatch(req).map_err(|(code, msg)| (code as i32, msg)) }
    }

    /// Answers a request as an `lsp-server` response (its result read back
    /// from [`Server::answer`]'s text): for callers in process.
    pub fn request(&mut self, req: Request) -> Response {
        let Reply { id, result } = self.answer(req);
        match result.and_then(|text| {
            serde_json::from_str(&text)
                .map_err(|e| (ErrorCode::InternalError as i32, e.to_string()))
        }) {
            Ok(v) => Response { id, response_result: Ok(v) },
            Err((code, msg)) => Response::new_err(id, code, msg),
        }
    }

    /// The open document at `uri`, or the error a request about an unknown one gets.
    fn doc(&self, uri: &Uri) -> Result<&Doc, (ErrorCode, String)> {
        self.docs.get(uri).ok_or_else(|| unknown_doc(uri))
    }

    /// The open document a position names, and the position as a byte offset in it.
    fn doc_at(
        &self,
        at: &TextDocumentPositionParams,
    ) -> Result<(&Doc, usize), (ErrorCode, String)> {
        let doc = self.doc(&at.text_document.uri)?;
        Ok((doc, doc.text.offset(at.position)))
    }

    fn dispatch(&mut self, req: Request) -> Answer {
        match req.method.as_str() {
            HoverRequest::METHOD
            | Completion::METHOD
            | GotoDefinition::METHOD
            | References::METHOD => self.position_request(&req),
            SemanticTokensFullRequest::METHOD | SemanticTokensFullDeltaRequest::METHOD => {
                self.tokens_request(&req)
            }
            _ => self.document_request(&req),
        }
    }

    /// Hover, completion, definition and references: a position's answers.
    fn position_request(&self, req: &Request) -> Answer {
        match req.method.as_str() {
            HoverRequest::METHOD => {
                let p: HoverParams = params(req)?;
                let (doc, at) = self.doc_at(&p.text_document_position_params)?;
                let at = at as u32;
                json(analysis::hover(&doc.text.text, doc.comp(), at).map(|(md, span)| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: md,
                    }),
                    range: Some(doc.text.range(span)),
                }))
            }
            Completion::METHOD => {
                let p: CompletionParams = params(req)?;
                let (doc, at) = self.doc_at(&p.text_document_position)?;
                let (proposals, incomplete) = analysis::complete_limited(
                    &doc.text.text,
                    doc.comp(),
                    at,
                    analysis::MAX_PROPOSALS,
                );
                let items: Vec<CompletionItem> = proposals
                    .into_iter()
                    .map(|p| CompletionItem {
                        label: p.label.clone(),
                        kind: Some(completion_kind(p.kind)),
                        detail: Some(p.detail),
                        text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                            range: doc.text.range(p.replace),
                            new_text: p.label,
                        })),
                        ..CompletionItem::default()
                    })
                    .collect();
                json(if incomplete {
                    CompletionResponse::List(CompletionList { is_incomplete: true, items })
                } else {
                    CompletionResponse::Array(items)
                })
            }
            GotoDefinition::METHOD => {
                let p: GotoDefinitionParams = params(req)?;
                let uri = &p.text_document_position_params.text_document.uri;
                let (doc, at) = self.doc_at(&p.text_document_position_params)?;
                let at = at as u32;
                json(analysis::definition(&doc.text.text, doc.comp(), at).map(|s| {
                    GotoDefinitionResponse::Scalar(Location {
                        uri: uri.clone(),
                        range: doc.text.range(s),
                    })
                }))
            }
            References::METHOD => {
                let p: ReferenceParams = params(req)?;
                let uri = &p.text_document_position.text_document.uri;
                let (doc, at) = self.doc_at(&p.text_document_position)?;
                let at = at as u32;
                let locs: Vec<Location> = analysis::references(
                    &doc.text.text,
                    doc.comp(),
                    at,
                    p.context.include_declaration,
                )
                .into_iter()
                .map(|s| Location { uri: uri.clone(), range: doc.text.range(s) })
                .collect();
                json(locs)
            }
            _ => Err((ErrorCode::MethodNotFound, format!("unsupported request {}", req.method))),
        }
    }

    /// Symbols, rename, formatting and code actions (and an unsupported
    /// request's error).
    fn document_request(&self, req: &Request) -> Answer {
        match req.method.as_str() {
            CodeActionRequest::METHOD => {
                let p: CodeActionParams = params(req)?;
                let doc = self.doc(&p.text_document.uri)?;
                let range = Span::new(
                    doc.text.offset(p.range.start) as u32,
                    doc.text.offset(p.range.end) as u32,
                );
                json(actions::code_actions(&p.text_document.uri, doc, range))
            }
            DocumentSymbolRequest::METHOD => {
                let p: DocumentSymbolParams = params(req)?;
                let doc = self.doc(&p.text_document.uri)?;
                let syms: Vec<DocumentSymbol> = analysis::symbols(&doc.text.text, doc.comp())
                    .into_iter()
                    .map(|s| document_symbol(&doc.text, s))
                    .collect();
                json(DocumentSymbolResponse::Nested(syms))
            }
            PrepareRenameRequest::METHOD => {
                let p: TextDocumentPositionParams = params(req)?;
                let (doc, at) = self.doc_at(&p)?;
                let at = at as u32;
                // No bone or animation named here: `null` (nothing to rename).
                json(
                    analysis::prepare_rename(&doc.text.text, doc.comp(), at)
                        .ok()
                        .map(|s| PrepareRenameResponse::Range(doc.text.range(s))),
                )
            }
            Rename::METHOD => {
                let p: RenameParams = params(req)?;
                let uri = &p.text_document_position.text_document.uri;
                let (doc, at) = self.doc_at(&p.text_document_position)?;
                let at = at as u32;
                let edits = analysis::rename(&doc.text.text, doc.comp(), at, &p.new_name)
                    .map_err(|m| (ErrorCode::InvalidRequest, m))?;
                let edits = text_edits(&doc.text, edits);
                json(WorkspaceEdit {
                    changes: Some([(uri.clone(), edits)].into_iter().collect()),
                    ..WorkspaceEdit::default()
                })
            }
            Formatting::METHOD => {
                let p: DocumentFormattingParams = params(req)?;
                let doc = self.doc(&p.text_document.uri)?;
                json(text_edits(&doc.text, analysis::format(&doc.text.text, p.options.tab_size)))
            }
            RangeFormatting::METHOD => {
                let p: DocumentRangeFormattingParams = params(req)?;
                let doc = self.doc(&p.text_document.uri)?;
                let range = Span::new(
                    doc.text.offset(p.range.start) as u32,
                    doc.text.offset(p.range.end) as u32,
                );
                let edits = analysis::format_range(&doc.text.text, p.options.tab_size, range);
                json(text_edits(&doc.text, edits))
            }
            _ => Err((ErrorCode::MethodNotFound, format!("unsupported request {}", req.method))),
        }
    }

    /// Semantic tokens, whole or as a delta from the last ones sent.
    fn tokens_request(&mut self, req: &Request) -> Answer {
        match req.method.as_str() {
            SemanticTokensFullRequest::METHOD => {
                let p: SemanticTokensParams = params(req)?;
                let id = self.result_id();
                let doc = self
                    .docs
                    .get_mut(&p.text_document.uri)
                    .ok_or_else(|| unknown_doc(&p.text_document.uri))?;
                let data = semantic_tokens(doc);
                doc.tokens = Some((id.clone(), data.clone()));
                json(SemanticTokensResult::Tokens(SemanticTokens { result_id: Some(id), data }))
            }
            SemanticTokensFullDeltaRequest::METHOD => {
                let p: SemanticTokensDeltaParams = params(req)?;
                let id = self.result_id();
                let doc = self
                    .docs
                    .get_mut(&p.text_document.uri)
                    .ok_or_else(|| unknown_doc(&p.text_document.uri))?;
                let data = semantic_tokens(doc);
                let result = match doc.tokens.take() {
                    Some((prev_id, prev)) if prev_id == p.previous_result_id => {
                        SemanticTokensFullDeltaResult::TokensDelta(SemanticTokensDelta {
                            result_id: Some(id.clone()),
                            edits: delta(&prev, &data),
                        })
                    }
                    _ => SemanticTokensFullDeltaResult::Tokens(SemanticTokens {
                        result_id: Some(id.clone()),
                        data: data.clone(),
                    }),
                };
                doc.tokens = Some((id, data));
                json(result)
            }
            _ => Err((ErrorCode::MethodNotFound, format!("unsupported request {}", req.method))),
        }
    }

    fn result_id(&mut self) -> String {
        self.next_result += 1;
        self.next_result.to_string()
    }
}

/// The document's diagnostics: `skelpad check`'s messages and ranges, each
/// hint as related information at the diagnostic's own range.
fn diagnostics(uri: &Uri, doc: &Doc) -> Vec<lsp_types::Diagnostic> {
    doc.document
        .diagnostics()
        .iter()
        .map(|d| {
            let range = doc.text.range(d.span);
            let related: Vec<DiagnosticRelatedInformation> = d
                .hints
                .iter()
                .map(|h| DiagnosticRelatedInformation {
                    location: Location { uri: uri.clone(), range },
                    message: format!("help: {h}"),
                })
                .collect();
            lsp_types::Diagnostic {
                range,
                severity: Some(match d.severity {
                    Severity::Error => DiagnosticSeverity::ERROR,
                    Severity::Warning => DiagnosticSeverity::WARNING,
                }),
                source: Some("skelpad".into()),
                message: message_with_suggestion(d),
                related_information: (!related.is_empty()).then_some(related),
                ..lsp_types::Diagnostic::default()
            }
        })
        .collect()
}

/// A diagnostic's message, with its "did you mean" hint added: many
/// clients (Neovim's float, for one) show only the message, not the
/// related information the hints are also sent as.
fn message_with_suggestion(d: &skelpad_lang::syntax::Diagnostic) -> String {
    match d.hints.iter().find(|h| h.starts_with("did you mean")) {
        Some(h) => format!("{}; {h}", d.message),
        None => d.message.clone(),
    }
}

/// The analysis' edits as LSP's (positions in UTF-16).
pub(crate) fn text_edits(text: &Text, edits: Vec<crate::text_edit::TextEdit>) -> Vec<TextEdit> {
    edits.into_iter().map(|e| TextEdit { range: text.range(e.span), new_text: e.insert }).collect()
}

/// The LSP kind of a completion proposal.
fn completion_kind(k: analysis::ProposalKind) -> CompletionItemKind {
    use analysis::ProposalKind as P;
    match k {
        P::Keyword => CompletionItemKind::KEYWORD,
        P::Property => CompletionItemKind::PROPERTY,
        P::Operator => CompletionItemKind::OPERATOR,
        P::Bone => CompletionItemKind::CLASS,
        P::Slot => CompletionItemKind::VARIABLE,
        P::Type => CompletionItemKind::TYPE_PARAMETER,
        P::Unit => CompletionItemKind::UNIT,
        P::Name => CompletionItemKind::VALUE,
        P::Attachment => CompletionItemKind::ENUM_MEMBER,
        P::Command | P::Event => CompletionItemKind::FUNCTION,
    }
}

/// The LSP kind of an outline symbol.
fn symbol_kind(k: analysis::SymbolKind) -> SymbolKind {
    use analysis::SymbolKind as S;
    match k {
        S::Section => SymbolKind::MODULE,
        S::Skin => SymbolKind::NAMESPACE,
        S::Animation => SymbolKind::FUNCTION,
        S::Expect => SymbolKind::EVENT,
        S::Bone => SymbolKind::CLASS,
        S::Item => SymbolKind::FIELD,
    }
}

#[allow(deprecated, reason = "`DocumentSymbol::deprecated` must still be written")]
fn document_symbol(text: &Text, s: analysis::Symbol) -> DocumentSymbol {
    DocumentSymbol {
        name: s.name,
        detail: s.detail,
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range: text.range(s.range),
        selection_range: text.range(s.selection),
        // A leaf has none (not an empty list: one value less per bone).
        children: (!s.children.is_empty())
            .then(|| s.children.into_iter().map(|c| document_symbol(text, c)).collect()),
    }
}

/// The token roles as LSP semantic tokens (relative positions, UTF-16
/// lengths, a token that crosses a line split at the line break): each
/// section's tokens are kept while its tree is, and joined.
fn semantic_tokens(doc: &mut Doc) -> Vec<SemanticToken> {
    let (text, comp) = (&doc.text, doc.document.compilation());
    let mut cache = std::mem::take(&mut doc.piece_tokens);
    let mut kept = HashMap::with_capacity(comp.sections.len());
    let first = comp.sections.first().map_or(text.text.len(), |s| s.0 as usize);
    let leading = tokens::piece_tokens(
        text.text.get(..first).unwrap_or(""),
        comp.leading_roles.iter().copied(),
    );
    let mut pieces: Vec<(u32, Arc<tokens::PieceTokens>)> = vec![(0, Arc::new(leading))];
    for (i, (start, sec)) in comp.sections.iter().enumerate() {
        let key = Arc::as_ptr(sec);
        let tokens = match cache.remove(&key) {
            Some((_, t)) => t,
            None => {
                let end = comp.sections.get(i + 1).map_or(text.text.len(), |s| s.0 as usize);
                let piece = text.text.get(*start as usize..end).unwrap_or("");
                Arc::new(tokens::piece_tokens(piece, sec.roles.iter().copied()))
            }
        };
        kept.insert(key, (sec.clone(), tokens.clone()));
        pieces.push((text.line_of(*start as usize) as u32, tokens));
    }
    doc.piece_tokens = kept;
    tokens::join_tokens(pieces.iter().map(|(line, t)| (*line, &**t)))
}

/// One edit turning `prev` into `next` (their common prefix and suffix kept).
fn delta(prev: &[SemanticToken], next: &[SemanticToken]) -> Vec<SemanticTokensEdit> {
    let prefix = prev.iter().zip(next).take_while(|(a, b)| a == b).count();
    let max_suffix = prev.len().min(next.len()) - prefix;
    let suffix = prev
        .iter()
        .rev()
        .zip(next.iter().rev())
        .take(max_suffix)
        .take_while(|(a, b)| a == b)
        .count();
    if prefix == prev.len() && prefix == next.len() {
        return Vec::new();
    }
    vec![SemanticTokensEdit {
        start: (prefix * 5) as u32,
        delete_count: ((prev.len() - prefix - suffix) * 5) as u32,
        data: Some(next[prefix..next.len() - suffix].to_vec()),
    }]
}

/// A request's answer: its result, or the error it gets.
type Answer = Result<String, (ErrorCode, String)>;

/// A request's parameters, or the error their absence gets.
fn params<P: serde::de::DeserializeOwned>(req: &Request) -> Result<P, (ErrorCode, String)> {
    serde_json::from_value(req.params.clone())
        .map_err(|e| (ErrorCode::InvalidParams, format!("invalid parameters: {e}")))
}

/// An answer as the JSON value it is sent as.
fn json(v: impl serde::Serialize) -> Answer {
    serde_json::to_string(&v).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

/// The error a request about a document that is not open gets.
fn unknown_doc(uri: &Uri) -> (ErrorCode, String) {
    (ErrorCode::InvalidParams, format!("unknown document {}", uri.as_str()))
}

/// A server for tests that do not look at pictures: every picture reads.
#[cfg(test)]
pub(crate) fn test_server() -> Server {
    struct Every;
    impl Pictures for Every {
        fn read(&mut self, _: &str) -> Result<(), String> {
            Ok(())
        }
    }
    Server::new(Box::new(|_| Box::new(Every)))
}

#[cfg(test)]
mod tests;
