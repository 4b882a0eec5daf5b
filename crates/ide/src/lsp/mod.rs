//! `skelpad lsp`: a language server over stdio (`lsp-server`, synchronous).
//!
//! Every open document keeps an incremental [`Compiler`]; each change
//! recompiles (one section and one unit for a keystroke) and publishes the
//! same diagnostics `skelpad check` prints. The features are
//! [`crate::analysis`]'s, which answer in byte offsets and kinds of their
//! own; this module is their adapter: it converts positions (UTF-16 as LSP
//! requires; [`text::Text`] clamps whatever a client sends) and kinds at its
//! edge, and a request that fails answers an error instead of ending the
//! server.
//!
//! Diagnostics are `check`'s (hints as related information, and a "did you
//! mean" hint appended to the message, which some clients show alone);
//! semantic tokens are the token roles (`tokens`). Answers are serialized
//! once, to JSON text, and written as that text ([`transport`]).

pub mod text;
pub mod tokens;
pub mod transport;

/// The language features (kept at their old path: `lsp::analysis`).
pub use crate::analysis;

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, Notification as _,
    PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, Formatting, GotoDefinition, HoverRequest,
    PrepareRenameRequest, RangeFormatting, References, Rename, Request as _,
    SemanticTokensFullDeltaRequest, SemanticTokensFullRequest,
};
use lsp_types::*;
use transport::{Out, Reply};

use std::sync::Arc;

use crate::compile::{Compilation, Compiler};
use crate::syntax::tree::Section;
use crate::syntax::{Severity, Span};
use text::Text;

/// One open document.
struct Doc {
    text: Text,
    compiler: Compiler,
    comp: Compilation,
    /// The last semantic tokens sent, with their result id (for deltas).
    tokens: Option<(String, Vec<SemanticToken>)>,
    /// The semantic tokens of each section tree last seen, by the tree's
    /// address (the tree is kept, so the address stays its own): an edit
    /// makes a new tree for the sections it touches only.
    piece_tokens: HashMap<*const Section, (Arc<Section>, Arc<tokens::PieceTokens>)>,
}

impl Doc {
    fn new(text: String) -> Self {
        let mut compiler = Compiler::new();
        let comp = compile_text(&mut compiler, &text);
        Doc { text: Text::new(text), compiler, comp, tokens: None, piece_tokens: HashMap::new() }
    }

    fn recompile(&mut self) {
        // The last compilation's section trees and source map are let go
        // first, so the compiler can edit the edited animation's tree in
        // place and reuse its key list.
        self.comp.sections = Vec::new();
        self.comp.sources = Default::default();
        self.comp = compile_text(&mut self.compiler, &self.text.text);
    }
}

/// The compilation of a document's text, its pose assertions checked; a
/// text that is not a script's (a NUL byte: a binary file opened by
/// mistake) is one error at its start, with nothing compiled.
fn compile_text(compiler: &mut Compiler, text: &str) -> Compilation {
    if let Some(why) = crate::io::not_text(text.as_bytes()) {
        let mut comp = compiler.update("");
        comp.diagnostics = vec![crate::syntax::Diagnostic::error(Span::new(0, 0), why)];
        return comp;
    }
    let mut comp = compiler.update(text);
    crate::check::expect::check(&mut comp);
    comp
}

/// The server's state.
#[derive(Default)]
pub struct Server {
    docs: HashMap<Uri, Doc>,
    next_result: u64,
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
/// the exit code.
pub fn run() -> i32 {
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
    if let Err(e) = initialize(&connection, init) {
        eprintln!("skelpad lsp: {e}");
        return 1;
    }
    let mut server = Server::default();
    let code = server.main_loop(&connection, &out);
    drop(connection);
    drop(out);
    let _ = io.join();
    code
}

fn initialize(
    connection: &Connection,
    init: serde_json::Value,
) -> Result<(), lsp_server::ProtocolError> {
    let (id, _params) = connection.initialize_start()?;
    connection.initialize_finish(id, init)
}

impl Server {
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
                self.docs.insert(uri.clone(), Doc::new(p.text_document.text));
                self.publish(&uri, Some(p.text_document.version)).into_iter().collect()
            }
            DidChangeTextDocument::METHOD => {
                let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(n.params) else {
                    return Vec::new();
                };
                let uri = p.text_document.uri;
                let Some(doc) = self.docs.get_mut(&uri) else { return Vec::new() };
                for c in &p.content_changes {
                    doc.text.apply(c.range, &c.text);
                }
                doc.recompile();
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
                json(analysis::hover(&doc.text.text, &doc.comp, at).map(|(md, span)| Hover {
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
                    &doc.comp,
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
                json(analysis::definition(&doc.text.text, &doc.comp, at).map(|s| {
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
                    &doc.comp,
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

    /// Symbols, rename and formatting (and an unsupported request's error).
    fn document_request(&self, req: &Request) -> Answer {
        match req.method.as_str() {
            DocumentSymbolRequest::METHOD => {
                let p: DocumentSymbolParams = params(req)?;
                let doc = self.doc(&p.text_document.uri)?;
                let syms: Vec<DocumentSymbol> = analysis::symbols(&doc.text.text, &doc.comp)
                    .into_iter()
                    .map(|s| document_symbol(&doc.text, s))
                    .collect();
                json(DocumentSymbolResponse::Nested(syms))
            }
            PrepareRenameRequest::METHOD => {
                let p: TextDocumentPositionParams = params(req)?;
                let (doc, at) = self.doc_at(&p)?;
                let at = at as u32;
                // No bone named here: `null` (nothing to rename).
                json(
                    analysis::prepare_rename(&doc.text.text, &doc.comp, at)
                        .ok()
                        .map(|s| PrepareRenameResponse::Range(doc.text.range(s))),
                )
            }
            Rename::METHOD => {
                let p: RenameParams = params(req)?;
                let uri = &p.text_document_position.text_document.uri;
                let (doc, at) = self.doc_at(&p.text_document_position)?;
                let at = at as u32;
                let edits = analysis::rename_bone(&doc.text.text, &doc.comp, at, &p.new_name)
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
    doc.comp
        .diagnostics
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
fn message_with_suggestion(d: &crate::syntax::Diagnostic) -> String {
    match d.hints.iter().find(|h| h.starts_with("did you mean")) {
        Some(h) => format!("{}; {h}", d.message),
        None => d.message.clone(),
    }
}

fn text_edits(text: &Text, edits: Vec<(Span, String)>) -> Vec<TextEdit> {
    edits.into_iter().map(|(s, new_text)| TextEdit { range: text.range(s), new_text }).collect()
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

#[allow(deprecated)] // `DocumentSymbol::deprecated` must still be written.
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
    let (text, comp) = (&doc.text, &doc.comp);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The tokens as the server made them before they were kept per section
    /// (every token's position looked up on its own): the reference the kept
    /// ones are checked against.
    /// The token roles as LSP semantic tokens (relative positions, UTF-16
    /// lengths, a token that crosses a line split at the line break).
    pub(super) fn semantic_tokens_reference(doc: &Doc) -> Vec<SemanticToken> {
        let t = &doc.text;
        let mut out = Vec::new();
        let (mut prev_line, mut prev_char) = (0u32, 0u32);
        for r in doc.comp.roles() {
            let Some((ty, mods)) = tokens::role_token(r.role) else { continue };
            let mut start = r.span.start as usize;
            let end = (r.span.end as usize).min(t.text.len());
            while start < end {
                let line = t.line_of(start);
                let line_end = (t.line_start(line) + t.line(line).len()).min(end);
                let p = t.position(start);
                let len =
                    t.text.get(start..line_end).map_or(0, |s| s.encode_utf16().count()) as u32;
                if len > 0 {
                    let delta_line = p.line - prev_line;
                    let delta_start =
                        if delta_line == 0 { p.character - prev_char } else { p.character };
                    out.push(SemanticToken {
                        delta_line,
                        delta_start,
                        length: len,
                        token_type: ty,
                        token_modifiers_bitset: mods,
                    });
                    (prev_line, prev_char) = (p.line, p.character);
                }
                let next = t.line_start(line + 1);
                if next <= start {
                    break;
                }
                start = next;
            }
        }
        out
    }

    fn change(server: &mut Server, uri: &str, version: i32, at: usize, text: &str, del: usize) {
        let doc = &server.docs[&uri.parse::<Uri>().unwrap()];
        let range = doc.text.range(Span::new(at as u32, (at + del) as u32));
        let params = serde_json::json!({
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [{ "range": range, "text": text }],
        });
        server.notification(Notification::new("textDocument/didChange".into(), params));
    }

    /// Tokens kept per section equal the tokens made whole, for generated
    /// scripts of every style, the examples, text with multi-byte
    /// characters, comments before the first section, continued lines and
    /// CRLF, and after edits that change one section, add one, remove one.
    #[test]
    fn kept_semantic_tokens_equal_tokens_made_whole() {
        let mut texts: Vec<String> = crate::generate::STYLES
            .iter()
            .map(|(_, style)| crate::generate::styled(style, 120, 3))
            .collect();
        for e in ["walk_cycle", "skins", "tentacle", "ik_walk"] {
            let path = format!("{}/../../examples/{e}.skel2d", env!("CARGO_MANIFEST_DIR"));
            texts.push(std::fs::read_to_string(path).unwrap());
        }
        texts.push("# lead é𝄞\r\n\n# two\nskeleton\r\n\tarm l1 \\\n\t\tx2 # ü\nanim \"gänge𝄞\" 10fps\n\tarm\n\t\tx 0 -> 1\n".into());
        for (n, text) in texts.iter().enumerate() {
            let uri = format!("file:///t{n}.skel2d");
            let mut server = Server::default();
            let open = serde_json::json!({ "textDocument": {
                "uri": uri, "languageId": "skel2d", "version": 1, "text": text } });
            server.notification(Notification::new("textDocument/didOpen".into(), open));
            let key: Uri = uri.parse().unwrap();
            let check = |server: &mut Server, what: &str| {
                let doc = server.docs.get_mut(&key).unwrap();
                let want = semantic_tokens_reference(doc);
                assert_eq!(semantic_tokens(doc), want, "text {n}, {what}");
                assert_eq!(semantic_tokens(doc), want, "text {n}, {what}, again (kept)");
            };
            check(&mut server, "opened");
            // A digit typed into the last line, a section added at the end,
            // then the first section's first line removed.
            let len = server.docs[&key].text.text.len();
            let at = server.docs[&key].text.text[..len.saturating_sub(1)]
                .rfind(' ')
                .map_or(0, |i| i + 1);
            change(&mut server, &uri, 2, at, "7", 0);
            check(&mut server, "a digit typed");
            let len = server.docs[&key].text.text.len();
            change(&mut server, &uri, 3, len, "\nanim \"new\"\n\tx\n\t\tr 0 -> 9\n", 0);
            check(&mut server, "a section added");
            let first_line = server.docs[&key].text.text.find('\n').map_or(0, |i| i + 1);
            change(&mut server, &uri, 4, 0, "", first_line);
            check(&mut server, "the first line removed");
        }
    }
}
