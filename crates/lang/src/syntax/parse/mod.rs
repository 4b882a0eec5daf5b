//! The section parser. It never fails: every line is either understood or
//! reported, and recovery follows LANGUAGE.md §1.6 so the compiled model is
//! the one the original tool builds.
//!
//! This file holds the parser's state (skipped blocks, roles) and the
//! dispatch on the section header; one child file per section kind
//! (`skeleton`, `skin`, `order`, `anim`, `expect`, `ik`, `mix`), `attachment` for what
//! slot lines and skin items share (`:TYPE` tokens, path commands) and `hints`
//! for shared message texts. Attachment type names are one list,
//! `tree::TypeName::KNOWN`.
//!
//! An invalid line is reported once, with the number of nested lines ignored
//! with it. Inside `anim` sections only a depth-1 line opens or closes an item
//! (as in the original), so an invalid line at depth 2 or more is reported and
//! skipped alone: the lines after it that the original's timeline pattern
//! reads are still timelines of the open item.

use super::diag::{Diagnostic, Span, clip};
use super::lines::{
    LogicalLine, LogicalLines, Token, Tokens, is_js_space, scan_lines_from, tokenize_into,
};
use super::role::{Role, TokenRole};
use super::token::{self, EasingOpt, OptionsTok};
use super::tree::*;

mod anim;
mod attachment;
mod expect;
mod hints;
mod ik;
mod mix;
mod order;
mod skeleton;
mod skin;
mod spring;
mod timeline;

use hints::*;

/// Parses one top-level section (text from [`super::split_sections`]).
/// Spans in the result are relative to the start of `src`.
pub fn parse_section(src: &str) -> Section {
    with_lines(src, |lines, comments, tokens| {
        let mut p = Parser { diags: Vec::new(), skip: None, roles: Vec::new() };
        let Some((header, rest)) = lines.split_first() else {
            return Section {
                kind: SectionKind::Ignored,
                header: Span::default(),
                diagnostics: Vec::new(),
                roles: comments,
            };
        };
        let header_span = Span::new(header.0.start, header.0.end);
        // Most tokens get one role; the path of a point may add a second.
        p.roles.reserve(tokens + comments.len() + 8);
        let kind = p.section(header.0, header.1, rest);
        p.finish_roles(lines, comments);
        Section { kind, header: header_span, diagnostics: p.diags, roles: p.roles }
    })
}

/// The items of an `anim` section's body: `src` is whole logical lines of
/// such a section, starting at an item line (one tab, then not a tab) and
/// ending where the next item line starts or the section ends. Gives what
/// [`parse_section`] gives for those lines (items, diagnostics in reading
/// order, sorted roles), spans relative to the start of `src`; the lines
/// before and after them do not change how they parse, so the compiler
/// re-parses only the edited items of an animation.
pub fn parse_anim_items(src: &str) -> AnimItems {
    with_lines(src, |lines, comments, tokens| {
        let mut p = Parser { diags: Vec::new(), skip: None, roles: Vec::new() };
        p.roles.reserve(tokens + comments.len() + 8);
        let mut a = AnimSection {
            name: Spanned::new(String::new(), Span::default()),
            fps: None,
            opts: Opts::default(),
            items: Vec::new(),
            modifiers: AnimModifiers::default(),
            parts: Box::default(),
        };
        p.anim(&mut a, lines);
        p.finish_skip();
        p.finish_roles(lines, comments);
        AnimItems { items: a.items, diagnostics: p.diags, roles: p.roles }
    })
}

/// Where the text `src` of a `skeleton` section can be cut in two for its
/// halves to be parsed apart (on two threads): the start of the first line
/// at or after byte `near` that is indented by one tab and starts a name,
/// and does not continue the line before it; `None` when there is none or
/// when the first line is not a `skeleton` header.
///
/// Such a line ends any run of skipped lines and sets which bone the lines
/// under it belong to, whatever came before it, so [`parse_section`] of
/// `src[..at]` (the header and the bone lines before `at`) joined by
/// [`join_skeleton`] with [`parse_skeleton_from`]`(src, at)` is
/// [`parse_section`]`(src)`.
pub fn skeleton_cut(src: &str, near: usize) -> Option<usize> {
    if !keyword_header(first_line(src), "skeleton") {
        return None;
    }
    let b = src.as_bytes();
    let mut from = near.min(b.len());
    while let Some(k) = memchr::memchr(b'\n', b.get(from..)?) {
        let at = from + k + 1;
        if bone_cut_at(b, at) {
            return Some(at);
        }
        from = at;
    }
    None
}

/// Whether byte `at` of a `skeleton` section's text `b` is a place
/// [`skeleton_cut`] may cut at: the start of a line that is indented by one
/// tab, starts a name and does not continue the line before it.
pub fn bone_cut_at(b: &[u8], at: usize) -> bool {
    if at == 0 || b.get(at - 1) != Some(&b'\n') {
        return false;
    }
    let before = &b[..at - 1];
    let continued = before.strip_suffix(b"\r").unwrap_or(before).ends_with(b"\\");
    let starts_name =
        b.get(at) == Some(&b'\t') && b.get(at + 1).is_some_and(|&c| token::name_start(c));
    starts_name && !continued
}

/// The bone lines of a `skeleton` section's text `src` from byte `at` on
/// (a place [`skeleton_cut`] gave), parsed as [`parse_section`] parses
/// them, spans relative to the start of `src`.
pub fn parse_skeleton_from(src: &str, at: usize) -> SkeletonLines {
    with_lines_from(src, at, |lines, comments, tokens| {
        let mut p = Parser { diags: Vec::new(), skip: None, roles: Vec::new() };
        p.roles.reserve(tokens + comments.len() + 8);
        let mut sk = SkeletonSection::default();
        p.skeleton(&mut sk, lines);
        p.finish_skip();
        p.finish_roles(lines, comments);
        SkeletonLines { bones: sk.bones, diagnostics: p.diags, roles: p.roles }
    })
}

/// What [`parse_skeleton_from`] reads from the second part of a skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct SkeletonLines {
    /// The bone lines, in the order written.
    pub bones: Vec<BoneLine>,
    /// Problems found, in reading order.
    pub diagnostics: Vec<Diagnostic>,
    /// Every token's role, sorted by position.
    pub roles: Vec<TokenRole>,
}

/// A skeleton section parsed in two parts: `head`, the section up to a
/// cut, and `tail`, its lines from the cut on. `None` when `head` is not a
/// `skeleton` section (its header did not open one).
pub fn join_skeleton(mut head: Section, tail: SkeletonLines) -> Option<Section> {
    let SectionKind::Skeleton(sk) = &mut head.kind else { return None };
    sk.bones.extend(tail.bones);
    head.diagnostics.extend(tail.diagnostics);
    head.roles.extend(tail.roles);
    Some(head)
}

/// What [`parse_anim_items`] reads from a run of animation items.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimItems {
    /// The items, in the order written.
    pub items: Vec<AnimItem>,
    /// Problems found, in reading order.
    pub diagnostics: Vec<Diagnostic>,
    /// Every token's role, sorted by position.
    pub roles: Vec<TokenRole>,
}

/// Cuts `src` into its non-blank logical lines, each tokenized once into
/// one buffer, and gives them to `f` with the comments' roles (sorted) and
/// the number of tokens.
fn with_lines<R>(src: &str, f: impl FnOnce(&[Ln<'_>], Vec<TokenRole>, usize) -> R) -> R {
    with_lines_from(src, 0, f)
}

/// [`with_lines`] for the lines of `src` from byte `from` on (the start of
/// a logical line), offsets relative to the start of `src`.
fn with_lines_from<R>(
    src: &str,
    from: usize,
    f: impl FnOnce(&[Ln<'_>], Vec<TokenRole>, usize) -> R,
) -> R {
    // Each logical line is tokenized once, into one buffer, as it is
    // found; blank lines (no token before a comment) are left out, comments
    // recorded on the way.
    let src_from = src.get(from..).unwrap_or("");
    let newlines = memchr::memchr_iter(b'\n', src_from.as_bytes()).count();
    let mut all: Vec<LogicalLine<'_>> = Vec::with_capacity(newlines + 1);
    let mut ranges: Vec<(u32, u32)> = Vec::with_capacity(newlines + 1);
    // Timelines average about four bytes a token (with its space): room
    // for that, so the buffer rarely grows.
    let mut buf: Vec<Token<'_>> = Vec::with_capacity(src_from.len() / 3 + 4);
    let mut comment_spans: Vec<(u32, u32)> = Vec::new();
    let deferred = scan_lines_from(src, from, &mut all, &mut buf, &mut ranges, &mut comment_spans);
    // Joined lines are tokenized now that their texts stay put.
    let mut buf: Vec<Token<'_>> = buf;
    for &i in &deferred {
        let line = &all[i];
        let start = buf.len();
        if let Some(c) = tokenize_into(&line.text, &mut buf) {
            let c = line.source_offset(c);
            comment_spans.push((c, line.end.max(c)));
        }
        ranges[i] = (start as u32, buf.len() as u32);
    }
    if !deferred.is_empty() {
        comment_spans.sort_unstable_by_key(|c| c.0);
    }
    let comments: Vec<TokenRole> = comment_spans
        .into_iter()
        .map(|(s, e)| TokenRole { span: Span::new(s, e), role: Role::Comment })
        .collect();
    let mut lines: Vec<Ln<'_>> = Vec::with_capacity(all.len());
    lines.extend(
        all.iter()
            .zip(&ranges)
            .filter(|(_, r)| r.1 > r.0)
            .map(|(l, &(a, b))| (l, &buf[a as usize..b as usize])),
    );
    f(&lines, comments, buf.len())
}

/// Merges `extra` into `roles` (both sorted by start) so that `roles` is
/// sorted by start, an element of `roles` before an element of `extra` that
/// starts at the same place (as a stable sort of the two, one after the
/// other, orders them). From the back, in place: each element moves once.
fn merge_sorted(roles: &mut Vec<TokenRole>, extra: &[TokenRole]) {
    if extra.is_empty() {
        return;
    }
    let mut i = roles.len();
    roles.extend_from_slice(extra);
    let mut j = extra.len();
    let mut k = roles.len();
    while j > 0 {
        k -= 1;
        if i > 0 && roles[i - 1].span.start > extra[j - 1].span.start {
            i -= 1;
            roles[k] = roles[i];
        } else {
            j -= 1;
            roles[k] = extra[j];
        }
    }
}

/// A logical line that is not blank, with its tokens.
type Ln<'a> = (&'a LogicalLine<'a>, &'a [Token<'a>]);

fn push_comment(roles: &mut Vec<TokenRole>, line: &LogicalLine<'_>) {
    if let Some(c) = Tokens::new(&line.text).comment() {
        roles.push(TokenRole {
            span: Span::new(line.source_offset(c), line.end.max(line.source_offset(c))),
            role: Role::Comment,
        });
    }
}

/// The comments of text outside any section (blank and comment lines before
/// the first one), which belong to no section tree.
pub fn comment_roles(src: &str) -> Vec<TokenRole> {
    let mut roles = Vec::new();
    for line in LogicalLines::new(src) {
        push_comment(&mut roles, &line);
    }
    roles
}

/// An invalid line whose nested lines are being skipped.
struct Skip {
    depth: usize,
    diag: usize,
    count: usize,
    /// The skipped lines follow the invalid one rather than nest under it
    /// (deeper lines before the first item of an `anim` section).
    following: bool,
}

struct Parser {
    diags: Vec<Diagnostic>,
    skip: Option<Skip>,
    /// A role for each token read, in no particular order until
    /// [`Parser::finish_roles`] sorts them.
    roles: Vec<TokenRole>,
}

#[inline]
fn span_of(line: &LogicalLine<'_>, pos: usize, len: usize) -> Span {
    Span::new(line.source_offset(pos), line.source_offset(pos + len))
}

#[inline]
fn tok_span(line: &LogicalLine<'_>, tok: &Token<'_>) -> Span {
    span_of(line, tok.pos, tok.text.len())
}

#[inline]
fn line_span(line: &LogicalLine<'_>) -> Span {
    let first = line.source_offset(line.depth());
    Span::new(first, line.end.max(first))
}

/// True when the text continues with whitespace or ends at `pos`.
fn boundary(text: &str, pos: usize) -> bool {
    text[pos..].chars().next().is_none_or(is_js_space)
}

/// Whether `src`, a section's text, opens with the header of a section the
/// rig is built from (`skeleton`, `skin` or `order`), read from its first
/// physical line as [`parse_section`] reads the header: a scheduling hint
/// for the compiler, which starts the rig first (a header continued onto a
/// second line is not recognised here, only by the parse).
pub fn opens_rig_section(src: &str) -> bool {
    ["skeleton", "skin", "order"].iter().any(|kw| keyword_header(first_line(src), kw))
}

/// The first physical line of `src`, without its line break.
fn first_line(src: &str) -> &str {
    src.split(['\n', '\r']).next().unwrap_or("")
}

fn keyword_header(text: &str, kw: &str) -> bool {
    text.strip_prefix(kw).is_some_and(|r| r.chars().next().is_none_or(is_js_space))
}

/// The text between the quotes of a `"…"` token. A lone `"` counts as a
/// quoted `"` (the original's substring call swaps its bounds there).
fn quoted(tok: &str) -> Option<&str> {
    if tok.starts_with('"') && tok.ends_with('"') {
        Some(if tok.len() >= 2 { &tok[1..tok.len() - 1] } else { tok })
    } else {
        None
    }
}

/// How many lines are indented by exactly one tab (at most the number of
/// bone lines or items a section holds: room to reserve).
fn depth_one_lines(lines: &[Ln<'_>]) -> usize {
    lines.iter().filter(|(l, _)| l.text.as_bytes().get(1).is_some_and(|&b| b != b'\t')).count()
}

impl Parser {
    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Records the role of a whole token.
    #[inline(always)]
    fn role(&mut self, line: &LogicalLine<'_>, t: &Token<'_>, role: Role) {
        self.roles.push(TokenRole { span: tok_span(line, t), role });
    }

    /// Records the role of a span.
    #[inline(always)]
    fn role_at(&mut self, span: Span, role: Role) {
        self.roles.push(TokenRole { span, role });
    }

    /// Sorts the roles and gives every token no recognizer claimed (lines
    /// ignored with an invalid one, rejected tokens) the role `Invalid`.
    fn finish_roles(&mut self, lines: &[Ln<'_>], comments: Vec<TokenRole>) {
        // Recognizers record roles in reading order, so this is usually
        // sorted already.
        if !self.roles.is_sorted_by_key(|r| r.span.start) {
            self.roles.sort_by_key(|r| r.span.start);
        }
        // Tokens come in order too: one merge walk finds the unclaimed ones.
        // Nearly always the next role is the next token's (one role a
        // token), which is tried first.
        let roles = &self.roles[..];
        let mut j = 0;
        let mut invalid = Vec::new();
        let mut check = |start: u32, line: &LogicalLine<'_>, t: &Token<'_>| {
            if roles.get(j).is_some_and(|r| r.span.start == start) {
                j += 1;
                return;
            }
            while roles.get(j).is_some_and(|r| r.span.start < start) {
                j += 1;
            }
            if roles.get(j).is_some_and(|r| r.span.start == start) {
                j += 1;
            } else {
                invalid.push(TokenRole { span: tok_span(line, t), role: Role::Invalid });
            }
        };
        for (line, toks) in lines {
            if line.is_joined() {
                for t in *toks {
                    check(line.source_offset(t.pos), line, t);
                }
            } else {
                for t in *toks {
                    check(line.start + t.pos as u32, line, t);
                }
            }
        }
        // The unclaimed tokens and the comments are sorted runs of their
        // own: each is merged in, in one pass (a sort would look for runs).
        merge_sorted(&mut self.roles, &invalid);
        merge_sorted(&mut self.roles, &comments);
    }

    /// Reports an invalid line; lines nested deeper are ignored with it and
    /// reported once, as a count on this diagnostic.
    fn invalid_block(&mut self, line: &LogicalLine<'_>, d: Diagnostic) {
        self.diags.push(d);
        self.skip = Some(Skip {
            depth: line.depth(),
            diag: self.diags.len() - 1,
            count: 0,
            following: false,
        });
    }

    /// Reports an invalid depth-1 line (and the lines nested under it).
    fn invalid_item(&mut self, line: &LogicalLine<'_>, message: &str) {
        let mut d = Diagnostic::error(line_span(line), message);
        if line.text[1..].starts_with(is_js_space) {
            d = d.hint("indent with tabs only");
        }
        self.invalid_block(line, d);
    }

    /// Returns true when `line` is nested under an invalid line.
    fn skipped(&mut self, line: &LogicalLine<'_>) -> bool {
        if let Some(skip) = &mut self.skip {
            if line.depth() > skip.depth {
                skip.count += 1;
                return true;
            }
            self.finish_skip();
        }
        false
    }

    fn finish_skip(&mut self) {
        if let Some(skip) = self.skip.take()
            && skip.count > 0
        {
            let hint = match (skip.following, skip.count) {
                (false, 1) => "the line nested under it is ignored too".to_string(),
                (false, n) => format!("the {n} lines nested under it are ignored too"),
                (true, 1) => "the line after it, up to the next item, is ignored too".to_string(),
                (true, n) => {
                    format!("the {n} lines after it, up to the next item, are ignored too")
                }
            };
            self.diags[skip.diag].hints.push(hint);
        }
    }

    fn section(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        rest: &[Ln<'_>],
    ) -> SectionKind {
        let text: &str = &header.text;
        let first = text.chars().next().unwrap_or(' ');
        let ignored_lines = rest.len();
        if first == '\t' {
            let mut d = Diagnostic::error(line_span(header), "indented line outside any section")
                .hint(SECTION_HINT);
            if let Some(h) = orphan_hint(ignored_lines) {
                d = d.hint(h);
            }
            self.push(d);
            return SectionKind::Ignored;
        }
        if is_js_space(first) {
            let mut d = Diagnostic::error(
                span_of(header, 0, text.len() - text.trim_start_matches(is_js_space).len()),
                "line starts with a space, which ends the section before it",
            )
            .hint("indent with tabs");
            if let Some(h) = orphan_hint(ignored_lines) {
                d = d.hint(h);
            }
            self.push(d);
            return SectionKind::Ignored;
        }
        let kind = if keyword_header(text, "skeleton") {
            SectionKind::Skeleton(self.skeleton_section(header, toks, rest))
        } else if keyword_header(text, "skin") {
            self.skin_section(header, toks, rest)
        } else if keyword_header(text, "order") {
            SectionKind::Order(self.order_section(header, toks, rest))
        } else if keyword_header(text, "anim") {
            SectionKind::Anim(self.anim_section(header, toks, rest))
        } else if keyword_header(text, "expect") {
            SectionKind::Expect(self.expect_section(header, toks, rest))
        } else if keyword_header(text, "ik") {
            SectionKind::Ik(self.ik_section(header, toks, rest))
        } else if keyword_header(text, "mix") {
            SectionKind::Mix(self.mix_section(header, toks, rest))
        } else {
            self.no_section(header, toks, ignored_lines)
        };
        self.finish_skip();
        kind
    }

    /// A header that starts no section: everything up to the next one is ignored.
    fn no_section(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        ignored_lines: usize,
    ) -> SectionKind {
        let word = toks.first().map_or("", |t| t.text);
        let mut d =
            Diagnostic::error(line_span(header), format!("`{}` starts no section", clip(word)))
                .hint(SECTION_HINT);
        if word.starts_with('#') {
            d = d.hint("a comment needs a space after `#`");
        } else if let Some(s) = crate::syntax::suggest::closest(
            word,
            crate::syntax::vocab::texts(crate::syntax::vocab::SECTIONS),
        ) {
            d = d.hint(format!("did you mean `{s}`?"));
        }
        if let Some(h) = orphan_hint(ignored_lines) {
            d = d.hint(h);
        }
        self.push(d);
        SectionKind::Ignored
    }
}
