//! The section parser. It never fails: every line is either understood or
//! reported, and recovery follows LANGUAGE.md §1.6 so the compiled model is
//! the one the original tool builds.

use super::diag::{Diagnostic, Span};
use super::lines::{LogicalLine, LogicalLines, Token, Tokens, is_js_space, tokenize_into};
use super::role::{Role, TokenRole};
use super::token::{self, EasingOpt, OptionsTok};
use super::tree::*;
use crate::model::{LineCap, LineJoin};

#[path = "ik.rs"]
mod ik;

/// Parses one top-level section (text from [`super::split_sections`]).
/// Spans in the result are relative to the start of `src`.
pub fn parse_section(src: &str) -> Section {
    let mut p = Parser { diags: Vec::new(), skip: None, roles: Vec::new() };
    // Each logical line is tokenized once, into one buffer; blank lines (no
    // token before a comment) are left out, comments recorded on the way.
    let mut all: Vec<LogicalLine<'_>> = Vec::with_capacity(memchr::memchr_iter(b'\n', src.as_bytes()).count() + 1);
    all.extend(LogicalLines::new(src));
    // Timelines average about four bytes a token (with its space): room
    // for that, so the buffer rarely grows.
    let mut buf: Vec<Token<'_>> = Vec::with_capacity(src.len() / 3 + 4);
    let mut ranges: Vec<(usize, usize, usize)> = Vec::with_capacity(all.len());
    let mut comments: Vec<TokenRole> = Vec::new();
    for (i, line) in all.iter().enumerate() {
        let start = buf.len();
        if let Some(c) = tokenize_into(&line.text, &mut buf) {
            comments.push(TokenRole { span: Span::new(line.source_offset(c), line.end.max(line.source_offset(c))), role: Role::Comment });
        }
        if buf.len() > start {
            ranges.push((i, start, buf.len()));
        }
    }
    let lines: Vec<Ln<'_>> = ranges.iter().map(|&(i, a, b)| (&all[i], &buf[a..b])).collect();
    let Some((header, rest)) = lines.split_first() else {
        return Section { kind: SectionKind::Ignored, header: Span::default(), diagnostics: Vec::new(), roles: comments };
    };
    let header_span = Span::new(header.0.start, header.0.end);
    // Most tokens get one role; the path of a point may add a second.
    p.roles.reserve(buf.len() + comments.len() + 8);
    let kind = p.section(header.0, header.1, rest);
    p.finish_roles(&lines, comments);
    Section { kind, header: header_span, diagnostics: p.diags, roles: p.roles }
}

/// A logical line that is not blank, with its tokens.
type Ln<'a> = (&'a LogicalLine<'a>, &'a [Token<'a>]);

fn push_comment(roles: &mut Vec<TokenRole>, line: &LogicalLine<'_>) {
    if let Some(c) = Tokens::new(&line.text).comment() {
        roles.push(TokenRole { span: Span::new(line.source_offset(c), line.end.max(line.source_offset(c))), role: Role::Comment });
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

const SECTION_HINT: &str = "a section starts at column 0 with `skeleton`, `skin \"NAME\"`, `order` or `anim \"NAME\"`";

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

fn span_of(line: &LogicalLine<'_>, pos: usize, len: usize) -> Span {
    Span::new(line.source_offset(pos), line.source_offset(pos + len))
}

fn tok_span(line: &LogicalLine<'_>, tok: &Token<'_>) -> Span {
    span_of(line, tok.pos, tok.text.len())
}

fn line_span(line: &LogicalLine<'_>) -> Span {
    let first = line.text.len() - line.text.trim_start_matches('\t').len();
    Span::new(line.source_offset(first), line.end.max(line.source_offset(first)))
}

/// True when the text continues with whitespace or ends at `pos`.
fn boundary(text: &str, pos: usize) -> bool {
    text[pos..].chars().next().is_none_or(is_js_space)
}

fn keyword_header(text: &str, kw: &str) -> bool {
    text.strip_prefix(kw).is_some_and(|r| r.chars().next().is_none_or(is_js_space))
}

/// The text between the quotes of a `"…"` token. A lone `"` counts as a
/// quoted `"` (the original's substring call swaps its bounds there).
fn quoted(tok: &str) -> Option<&str> {
    if tok.starts_with('"') && tok.ends_with('"') { Some(if tok.len() >= 2 { &tok[1..tok.len() - 1] } else { tok }) } else { None }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

const BONE_TOKENS: &str = "bone properties are lNUM (length), rNUM (rotation, degrees), xNUM yNUM (position), iNUM jNUM (scale), a COLOR, flip-x, flip-y, no-rot and no-scale";

fn type_props_hint(ty: &TypeName) -> String {
    let transform = "xNUM yNUM rNUM iNUM jNUM (transform)";
    let style = "tNUM (stroke width), mNUM (miter limit), fCOLOR (fill), sCOLOR (stroke), miter-join|bevel-join|round-join, butt-cap|square-cap|round-cap";
    match ty {
        TypeName::Sprite => format!("sprite takes \"image-name\" and {transform}"),
        TypeName::Rect => format!("rect takes wNUM hNUM (size), dNUM (corner diameter), {transform}, {style}"),
        TypeName::Ellipse => format!("ellipse takes wNUM hNUM (size), {transform}, {style}"),
        TypeName::Circle => format!("circle takes dNUM (diameter), {transform}, {style}"),
        TypeName::Path => format!("path takes {transform}, {style}; its commands go on the lines below"),
        TypeName::Unknown(_) => transform.to_string(),
    }
}

fn type_name_str(ty: &TypeName) -> &str {
    match ty {
        TypeName::Sprite => "sprite",
        TypeName::Rect => "rect",
        TypeName::Circle => "circle",
        TypeName::Ellipse => "ellipse",
        TypeName::Path => "path",
        TypeName::Unknown(s) => s,
    }
}

impl Parser {
    fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Records the role of a whole token.
    fn role(&mut self, line: &LogicalLine<'_>, t: &Token<'_>, role: Role) {
        self.roles.push(TokenRole { span: tok_span(line, t), role });
    }

    /// Records the role of a span.
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
        let claimed = self.roles.len();
        // Tokens come in order too: one merge walk finds the unclaimed ones.
        let mut j = 0;
        for (line, toks) in lines {
            for t in *toks {
                let start = line.source_offset(t.pos);
                while j < claimed && self.roles[j].span.start < start {
                    j += 1;
                }
                if j >= claimed || self.roles[j].span.start != start {
                    self.roles.push(TokenRole { span: tok_span(line, t), role: Role::Invalid });
                }
            }
        }
        let sorted = self.roles.len() == claimed && comments.is_empty();
        self.roles.extend(comments);
        if !sorted {
            // Three sorted runs (claimed, invalid, comments): a merge.
            self.roles.sort_by_key(|r| r.span.start);
        }
    }

    /// Reports an invalid line; lines nested deeper are ignored with it and
    /// reported once, as a count on this diagnostic.
    fn invalid_block(&mut self, line: &LogicalLine<'_>, d: Diagnostic) {
        self.diags.push(d);
        self.skip = Some(Skip { depth: line.depth(), diag: self.diags.len() - 1, count: 0, following: false });
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
                (true, n) => format!("the {n} lines after it, up to the next item, are ignored too"),
            };
            self.diags[skip.diag].hints.push(hint);
        }
    }

    fn section(&mut self, header: &LogicalLine<'_>, toks: &[Token<'_>], rest: &[Ln<'_>]) -> SectionKind {
        let text: &str = &header.text;
        let first = text.chars().next().unwrap_or(' ');
        let ignored_lines = rest.len();
        let orphan_hint = |n: usize| match n {
            0 => None,
            1 => Some("the indented line after it is ignored".to_string()),
            _ => Some(format!("the {n} indented lines after it, up to the next section, are ignored")),
        };
        if first == '\t' {
            let mut d = Diagnostic::error(line_span(header), "indented line outside any section").hint(SECTION_HINT);
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
            self.role(header, &toks[0], Role::SectionKeyword);
            let mut sk = SkeletonSection::default();
            for t in &toks[1..] {
                match token::color(t.text) {
                    Some(c) => {
                        self.role(header, t, Role::Color);
                        sk.color = Some(c.to_color8());
                    }
                    None => self.push(
                        Diagnostic::error(tok_span(header, t), format!("unexpected `{}` after `skeleton`", t.text))
                            .hint("the skeleton header takes only a default bone COLOR, e.g. `skeleton #FC0`"),
                    ),
                }
            }
            self.skeleton(&mut sk, rest);
            SectionKind::Skeleton(sk)
        } else if keyword_header(text, "skin") {
            self.role(header, &toks[0], Role::SectionKeyword);
            let mut name: Option<Spanned<String>> = None;
            let mut strays = Vec::new();
            for t in &toks[1..] {
                match quoted(t.text) {
                    Some(n) => {
                        self.role(header, t, Role::String);
                        name = Some(Spanned::new(n.to_string(), tok_span(header, t)));
                    }
                    None => strays.push(*t),
                }
            }
            // Without any name, the header error below says it all.
            if name.is_some() {
                for t in strays {
                    self.push(
                        Diagnostic::error(tok_span(header, &t), format!("unexpected `{}` in skin header", t.text))
                            .hint("write the skin name in double quotes, without spaces: `skin \"red\"`"),
                    );
                }
            }
            match name {
                None => {
                    let mut d = Diagnostic::error(line_span(header), "skin section without a name in double quotes")
                        .hint("write `skin \"NAME\"`; names cannot contain spaces");
                    if let Some(h) = orphan_hint(ignored_lines) {
                        d = d.hint(h);
                    }
                    self.push(d);
                    SectionKind::Ignored
                }
                Some(n) if n.node == "default" => {
                    self.push(
                        Diagnostic::warning(n.span, "skin \"default\" is the skeleton itself; this section is ignored")
                            .hint("change the skeleton section, or give this skin another name"),
                    );
                    SectionKind::Ignored
                }
                Some(n) => {
                    let mut sk = SkinSection { name: n, items: Vec::new() };
                    self.skin(&mut sk, rest);
                    SectionKind::Skin(sk)
                }
            }
        } else if keyword_header(text, "order") {
            self.role(header, &toks[0], Role::SectionKeyword);
            for t in &toks[1..] {
                self.push(
                    Diagnostic::error(tok_span(header, t), format!("unexpected `{}` after `order`", t.text))
                        .hint("list the slots on the lines below, one `@slot` per line"),
                );
            }
            let mut o = OrderSection::default();
            self.order(&mut o, rest);
            SectionKind::Order(o)
        } else if keyword_header(text, "anim") {
            self.role(header, &toks[0], Role::SectionKeyword);
            let mut a = AnimSection {
                name: Spanned::new(String::new(), span_of(header, 0, 4)),
                fps: None,
                opts: Opts::default(),
                items: Vec::new(),
            };
            for t in &toks[1..] {
                if let Some(n) = quoted(t.text) {
                    self.role(header, t, Role::String);
                    a.name = Spanned::new(n.to_string(), tok_span(header, t));
                } else if let Some(f) = token::fps(t.text) {
                    self.role(header, t, Role::Number);
                    if f == 0.0 {
                        self.push(Diagnostic::warning(tok_span(header, t), "0fps is not a frame rate; 20fps is used"));
                    }
                    a.fps = Some(f);
                } else if let Some(o) = token::options(t.text, false) {
                    self.role(header, t, Role::Option);
                    self.apply_opts(&mut a.opts, &o, header, t);
                } else {
                    let mut d = Diagnostic::error(tok_span(header, t), format!("unexpected `{}` in animation header", t.text))
                        .hint("the header takes a \"name\", a frame rate like `24fps` and defaults `frame:step:easing` like `0:5:li`");
                    if t.text.starts_with('"') {
                        d = d.hint("names are written in double quotes and cannot contain spaces");
                    }
                    self.push(d);
                }
            }
            self.anim(&mut a, rest);
            SectionKind::Anim(a)
        } else if keyword_header(text, "expect") {
            SectionKind::Expect(self.expect_section(header, toks, rest))
        } else if keyword_header(text, "ik") {
            SectionKind::Ik(self.ik_section(header, toks, rest))
        } else {
            let word = toks.first().map_or("", |t| t.text);
            let mut d = Diagnostic::error(line_span(header), format!("`{word}` starts no section")).hint(SECTION_HINT);
            if word.starts_with('#') {
                d = d.hint("a comment needs a space after `#`");
            } else if let Some(s) = super::suggest::closest(word, ["skeleton", "skin", "order", "anim", "expect", "ik"].iter().copied()) {
                d = d.hint(format!("did you mean `{s}`?"));
            }
            if let Some(h) = orphan_hint(ignored_lines) {
                d = d.hint(h);
            }
            self.push(d);
            SectionKind::Ignored
        };
        self.finish_skip();
        kind
    }

    fn apply_opts(&mut self, opts: &mut Opts, o: &OptionsTok, line: &LogicalLine<'_>, t: &Token<'_>) {
        if let Some(f) = o.frame {
            opts.frame = Some(f.value);
        }
        if let Some(s) = o.step {
            opts.step = Some(s);
        }
        match &o.easing {
            Some(EasingOpt::Known(e)) => opts.easing = Some(*e),
            Some(EasingOpt::Unknown(name)) => self.unknown_easing(name, line, t, o.easing_pos),
            None => {}
        }
    }

    fn unknown_easing(&mut self, name: &str, line: &LogicalLine<'_>, t: &Token<'_>, pos: usize) {
        let mut d = Diagnostic::error(span_of(line, t.pos + pos, name.len()), format!("unknown easing `{name}`"))
            .hint("easings are li (linear), si (sine in), so (sine out) and sio (sine in-out)");
        if let Some(s) = super::suggest::closest(name, ["li", "si", "so", "sio"].iter().copied()) {
            d = d.hint(format!("did you mean `{s}`?"));
        }
        self.push(d);
    }

    // ---- skeleton ------------------------------------------------------

    fn skeleton(&mut self, sk: &mut SkeletonSection, lines: &[Ln<'_>]) {
        sk.bones.reserve(depth_one_lines(lines));
        // Index of the open bone line, and whether its last slot line takes
        // path commands.
        let mut bone: Option<usize> = None;
        let mut slot_open = false;
        for &(line, toks) in lines {
            if self.skipped(line) {
                continue;
            }
            let text: &str = &line.text;
            let b = text.as_bytes();
            let plen = token::path_prefix_len(&text[1..]);
            if b.len() > 1 && b[1] != b'\t' && plen > 0 && boundary(text, 1 + plen) {
                slot_open = false;
                bone = self.bone_line(sk, line, toks);
            } else if text.starts_with("\t\t@") && toks.first().is_some_and(|t| t.pos == 2 && token::slot_head(t.text).is_some()) {
                slot_open = false;
                let Some(bi) = bone else {
                    self.invalid_block(
                        line,
                        Diagnostic::error(line_span(line), "slot line outside a bone")
                            .hint("slots go one tab deeper than the bone line they belong to"),
                    );
                    continue;
                };
                slot_open = self.slot_line(&mut sk.bones[bi], line, toks);
            } else if is_command_line(text, 3) {
                if !slot_open {
                    self.invalid_block(
                        line,
                        Diagnostic::error(line_span(line), "path command outside a path attachment")
                            .hint("path commands go one tab deeper than a slot line with `:path`"),
                    );
                    continue;
                }
                if let (Some(bi), Some(cmd)) = (bone, self.path_command(line, toks))
                    && let Some(slot) = sk.bones[bi].slots.last_mut()
                {
                    slot.commands.push(cmd);
                }
            } else if b.len() > 1 && b[0] == b'\t' && b[1] != b'\t' {
                bone = None;
                slot_open = false;
                let mut d = Diagnostic::error(line_span(line), "expected a bone: a dotted name like `arm.hand`, then its properties");
                if is_js_space(text[1..].chars().next().unwrap_or('x')) {
                    d = d.hint("indent with tabs only");
                } else if let Some(t) = toks.first() {
                    d.message = format!("`{}` is not a bone name", t.text);
                    d = d.hint("bone names are made of letters, digits, `_` and `-`, separated by dots, and do not start with a digit");
                }
                self.invalid_block(line, d);
            } else if b.len() > 2 && b[0] == b'\t' && b[1] == b'\t' && b[2] != b'\t' {
                slot_open = false;
                let mut d =
                    Diagnostic::error(line_span(line), "expected a slot line: `@`, `@slot`, `@slot[attachment]` or `@[attachment]`");
                if is_js_space(text[2..].chars().next().unwrap_or('x')) {
                    d = d.hint("indent with tabs only");
                } else if is_command_line(&format!("\t{text}"), 3) {
                    d = d.hint("path commands go one tab deeper, under a `:path` slot line");
                }
                self.invalid_block(line, d);
            } else {
                let first = toks.first().map_or("", |t| t.text);
                let mut d = Diagnostic::error(line_span(line), "unexpected line");
                if line.depth() == 3 && text[3..].starts_with(is_js_space) {
                    d = d.hint("indent with tabs only");
                } else if line.depth() == 3 && matches!(first, "M" | "L" | "Q" | "B" | ":") {
                    d.message = format!("`{first}` needs {}", if first == ":" { "a bone reference" } else { "points" });
                    d = d.hint("write `M x,y`, `L x,y`, `Q cx,cy x,y`, `B c1x,c1y c2x,c2y x,y`, `C` or `: bone`, with a space after the command letter");
                } else if line.depth() >= 3 {
                    d = d.hint("only path commands (M, L, Q, B, C, `:`) go three tabs deep in a skeleton, and nothing deeper");
                }
                self.invalid_block(line, d);
            }
        }
    }

    fn bone_line(&mut self, sk: &mut SkeletonSection, line: &LogicalLine<'_>, toks: &[Token<'_>]) -> Option<usize> {
        let head = toks[0];
        if head.text.split('.').any(|s| s == "skeleton") {
            self.invalid_block(
                line,
                Diagnostic::error(tok_span(line, &head), format!("`{}`: no part of a bone name may be `skeleton`", head.text))
                    .hint("`skeleton` is reserved as the prefix that makes a reference unambiguous"),
            );
            return None;
        }
        self.role(line, &head, Role::BonePath);
        let mut props = Vec::with_capacity(toks.len() - 1);
        for t in &toks[1..] {
            let p = match t.text {
                "flip-x" => Some(BoneProp::FlipX),
                "flip-y" => Some(BoneProp::FlipY),
                "no-rot" => Some(BoneProp::NoRotation),
                "no-scale" => Some(BoneProp::NoScale),
                s => {
                    if let Some((c, v)) = token::letter_number(s, "lrxyij", true) {
                        Some(match c {
                            'l' => BoneProp::Length(v),
                            'r' => BoneProp::Rotation(v),
                            'x' => BoneProp::X(v),
                            'y' => BoneProp::Y(v),
                            'i' => BoneProp::ScaleX(v),
                            _ => BoneProp::ScaleY(v),
                        })
                    } else {
                        token::color(s).map(|c| BoneProp::Color(c.to_color8()))
                    }
                }
            };
            match p {
                Some(p) => {
                    self.role(line, t, if matches!(p, BoneProp::Color(_)) { Role::Color } else { Role::BoneProperty });
                    props.push(Spanned::new(p, tok_span(line, t)));
                }
                None => self.push(bad_token(line, t, "bone property").hint(BONE_TOKENS)),
            }
        }
        let span = line_span(line);
        sk.bones.push(BoneLine { path: Spanned::new(head.text.to_string(), tok_span(line, &head)), props, slots: Vec::new(), span });
        Some(sk.bones.len() - 1)
    }

    /// Parses a slot line into `bone`; returns whether path commands may follow.
    fn slot_line(&mut self, bone: &mut BoneLine, line: &LogicalLine<'_>, toks: &[Token<'_>]) -> bool {
        let head = toks[0];
        let Some((slot, att)) = token::slot_head(head.text) else { return false };
        let sp = |(s, off): (&str, usize)| Spanned::new(s.to_string(), span_of(line, head.pos + off, s.len()));
        let slot = slot.map(sp);
        let att = att.map(sp);
        if let Some(s) = slot.as_ref().filter(|s| s.node == "skeleton") {
            self.invalid_block(line, Diagnostic::error(s.span, "a slot cannot be named `skeleton`").hint("the line is ignored"));
            return false;
        }
        let attachment_valid = att.as_ref().is_none_or(|a| a.node != "skeleton");
        if let Some(a) = att.as_ref().filter(|a| a.node == "skeleton") {
            self.invalid_block(
                line,
                Diagnostic::error(a.span, "an attachment cannot be named `skeleton`")
                    .hint("the slot is still created, without this attachment"),
            );
        }
        self.role(line, &head, Role::SlotHead);
        let mut colors = Vec::new();
        let mut spec = AttachmentSpec::default();
        let mut i = 1;
        while i < toks.len() {
            let t = toks[i];
            if t.text.starts_with(':') {
                spec = self.attachment_spec(line, &toks[i..]);
                break;
            }
            match token::color(t.text) {
                Some(c) => {
                    self.role(line, &t, Role::Color);
                    colors.push(c.to_color8());
                }
                None => {
                    let mut d = bad_token(line, &t, "slot color");
                    d.message = format!("unexpected `{}`: expected a slot COLOR or `:TYPE`", t.text);
                    if t.text.starts_with('#') {
                        d = d.hint("colors are #RGB or #RRGGBB, optionally followed by `,ALPHA`");
                    } else {
                        d = d.hint("attachment properties go after the type, e.g. `@ :rect w10 h10`");
                    }
                    self.push(d);
                }
            }
            i += 1;
        }
        let takes_commands = attachment_valid;
        bone.slots.push(SlotLine { span: line_span(line), slot, attachment: att, attachment_valid, colors, spec, commands: Vec::new() });
        takes_commands
    }

    /// `:TYPE` and the attachment tokens after it. `toks[0]` starts with `:`.
    fn attachment_spec(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>]) -> AttachmentSpec {
        let t0 = toks[0];
        let ty = TypeName::parse(&t0.text[1..]);
        let ty_span = tok_span(line, &t0);
        if let TypeName::Unknown(name) = &ty {
            let mut d = if name.is_empty() {
                Diagnostic::error(ty_span, "missing attachment type after `:`")
            } else {
                Diagnostic::error(ty_span, format!("unknown attachment type `{name}`"))
            }
            .hint("types are sprite, rect, circle, ellipse and path");
            if let Some(s) = super::suggest::closest(name, ["sprite", "rect", "circle", "ellipse", "path"].iter().copied()) {
                d = d.hint(format!("did you mean `:{s}`?"));
            }
            self.push(d.hint("the attachment draws nothing"));
        } else {
            self.role(line, &t0, Role::AttachmentType);
        }
        let mut props = Vec::with_capacity(toks.len() - 1);
        let is_sprite = ty == TypeName::Sprite;
        let wh = matches!(ty, TypeName::Rect | TypeName::Ellipse);
        let d_ok = matches!(ty, TypeName::Rect | TypeName::Circle);
        let unknown = matches!(ty, TypeName::Unknown(_));
        let mut listed_props = false;
        for t in &toks[1..] {
            let s = t.text;
            let mut prop = None;
            let mut problem: Option<String> = None;
            if s.starts_with('"') {
                if let Some(name) = quoted(s).filter(|_| is_sprite) {
                    prop = Some(AttachmentProp::Image(name.to_string()));
                } else if is_sprite {
                    problem =
                        Some(format!("unterminated image name `{s}`: image names are written in double quotes and cannot contain spaces"));
                } else {
                    problem = Some(format!("`{s}`: only sprites take an image name"));
                }
            } else if let Some((c, v)) = token::letter_number(s, "wh", true) {
                if wh {
                    prop = Some(if c == 'w' { AttachmentProp::Width(v) } else { AttachmentProp::Height(v) });
                } else {
                    problem = Some(format!("`{s}`: {} has no {}", type_name_str(&ty), if c == 'w' { "width" } else { "height" }));
                }
            } else if let Some((c, v)) = token::letter_number(s, "xyrij", true) {
                prop = Some(match c {
                    'x' => AttachmentProp::X(v),
                    'y' => AttachmentProp::Y(v),
                    'r' => AttachmentProp::Rotation(v),
                    'i' => AttachmentProp::ScaleX(v),
                    _ => AttachmentProp::ScaleY(v),
                });
            } else if ty.is_shape() {
                prop = match s {
                    "miter-join" => Some(AttachmentProp::Join(LineJoin::Miter)),
                    "bevel-join" => Some(AttachmentProp::Join(LineJoin::Bevel)),
                    "round-join" => Some(AttachmentProp::Join(LineJoin::Round)),
                    "butt-cap" | "square-cap" | "round-cap" => {
                        if ty != TypeName::Path {
                            self.push(Diagnostic::warning(
                                tok_span(line, t),
                                format!("`{s}` has no effect on a {}: caps only end open paths", type_name_str(&ty)),
                            ));
                        }
                        Some(AttachmentProp::Cap(match s {
                            "butt-cap" => LineCap::Butt,
                            "square-cap" => LineCap::Square,
                            _ => LineCap::Round,
                        }))
                    }
                    _ => None,
                };
                if prop.is_none() {
                    if let Some(rest) = s.strip_prefix('f').or_else(|| s.strip_prefix('s')).filter(|r| r.starts_with('#')) {
                        match token::color(rest) {
                            Some(c) => {
                                prop = Some(if s.starts_with('f') {
                                    AttachmentProp::Fill(c.to_color8())
                                } else {
                                    AttachmentProp::Stroke(c.to_color8())
                                })
                            }
                            None => problem = Some(format!("`{s}`: `{rest}` is not a color (#RGB or #RRGGBB, optionally `,ALPHA`)")),
                        }
                    } else if let Some((c, v)) = token::letter_number(s, "tm", false) {
                        prop = Some(if c == 't' { AttachmentProp::StrokeWidth(v) } else { AttachmentProp::MiterLimit(v) });
                    } else if let Some((_, v)) = token::letter_number(s, "d", false) {
                        if d_ok {
                            prop = Some(AttachmentProp::Diameter(v));
                        } else {
                            problem = Some(format!("`{s}`: {} has no diameter", type_name_str(&ty)));
                        }
                    } else if token::letter_number(s, "tmd", true).is_some() {
                        problem = Some(format!("`{s}`: this value cannot be negative"));
                    }
                }
            }
            match prop {
                Some(p) => {
                    let role = match p {
                        AttachmentProp::Image(_) => Role::String,
                        AttachmentProp::Fill(_) | AttachmentProp::Stroke(_) => Role::Color,
                        _ => Role::Property,
                    };
                    self.role(line, t, role);
                    props.push(Spanned::new(p, tok_span(line, t)));
                }
                None if unknown => {
                    self.push(Diagnostic::warning(tok_span(line, t), format!("`{s}` is ignored: the attachment type is unknown")));
                }
                None => {
                    let msg = problem.unwrap_or_else(|| format!("`{s}` is not a property of {}", type_name_str(&ty)));
                    let mut d = Diagnostic::error(tok_span(line, t), msg);
                    // The list of valid properties is long: give it once per line.
                    if !listed_props {
                        d = d.hint(type_props_hint(&ty));
                        listed_props = true;
                    }
                    self.push(d);
                }
            }
        }
        AttachmentSpec { ty: Some(Spanned::new(ty, ty_span)), props }
    }

    fn path_command(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>]) -> Option<PathCommandLine> {
        let head = toks[0];
        if matches!(head.text, "M" | "L" | "Q" | "B" | "C" | ":") {
            self.role(line, &head, Role::PathCommand);
        }
        let span = line_span(line);
        let (count, usage) = match head.text {
            "M" => (1, "M x,y"),
            "L" => (1, "L x,y"),
            "Q" => (2, "Q cx,cy x,y"),
            "B" => (3, "B c1x,c1y c2x,c2y x,y"),
            "C" => (0, "C"),
            ":" => {
                let Some(t) = toks.get(1).filter(|t| token::is_path(t.text)) else {
                    self.push(
                        Diagnostic::error(span, "expected a bone reference after `:`")
                            .hint("write `: BONEREF` to bind the following points to that bone"),
                    );
                    return None;
                };
                self.role(line, t, Role::BoneRef);
                self.extra_tokens(line, &toks[2..], "`: BONEREF`");
                return Some(PathCommandLine { command: PathCommand::Switch(Spanned::new(t.text.to_string(), tok_span(line, t))), span });
            }
            _ => return None,
        };
        let mut pts = Vec::new();
        for i in 0..count {
            let Some(t) = toks.get(1 + i) else {
                self.push(
                    Diagnostic::error(span, format!("`{}` needs {}", head.text, plural(count, "point")))
                        .hint(format!("write `{usage}`; a point may name its bone: `x,y:bone`")),
                );
                return None;
            };
            match token::point(t.text) {
                Some((x, y, r)) => {
                    let num_len = r.map_or(t.text.len(), |(_, off)| off - 1);
                    self.role_at(span_of(line, t.pos, num_len), Role::Number);
                    if let Some((r, off)) = r {
                        self.role_at(span_of(line, t.pos + off, r.len()), Role::BoneRef);
                    }
                    pts.push(PointLit {
                        x,
                        y,
                        bone: r.map(|(r, off)| Spanned::new(r.to_string(), span_of(line, t.pos + off, r.len()))),
                        span: tok_span(line, t),
                    })
                }
                None => {
                    self.push(
                        Diagnostic::error(tok_span(line, t), format!("`{}` is not a point", t.text))
                            .hint(format!("points are `x,y` or `x,y:bone`, e.g. `{usage}`")),
                    );
                    return None;
                }
            }
        }
        self.extra_tokens(line, &toks[1 + count..], &format!("`{usage}`"));
        let mut it = pts.into_iter();
        let mut next = || it.next();
        let command = match (head.text, next(), next(), next()) {
            ("M", Some(p), ..) => PathCommand::Move(p),
            ("L", Some(p), ..) => PathCommand::Line(p),
            ("Q", Some(c), Some(p), _) => PathCommand::Quad(c, p),
            ("B", Some(a), Some(b), Some(p)) => PathCommand::Cubic(a, b, p),
            _ => PathCommand::Close,
        };
        Some(PathCommandLine { command, span })
    }

    fn extra_tokens(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>], what: &str) {
        if let (Some(first), Some(last)) = (toks.first(), toks.last()) {
            let sp = Span::new(line.source_offset(first.pos), line.source_offset(last.end()));
            self.push(
                Diagnostic::error(sp, format!("unexpected text after {what}")).hint("one command per line; the extra text is ignored"),
            );
        }
    }

    // ---- skin ------------------------------------------------------------

    fn skin(&mut self, sk: &mut SkinSection, lines: &[Ln<'_>]) {
        let mut path_open = false;
        for &(line, toks) in lines {
            if self.skipped(line) {
                continue;
            }
            let text: &str = &line.text;
            let b = text.as_bytes();
            if text.starts_with("\t@") && toks.first().is_some_and(|t| t.pos == 1 && token::skin_head(t.text).is_some()) {
                let head = toks[0];
                let Some((slot, att)) = token::skin_head(head.text) else { continue };
                self.role(line, &head, Role::SlotRef);
                let slot = Spanned::new(slot.to_string(), span_of(line, head.pos + 1, slot.len()));
                let att = att.map(|(a, off)| Spanned::new(a.to_string(), span_of(line, head.pos + off, a.len())));
                let mut spec = AttachmentSpec::default();
                for (i, t) in toks.iter().enumerate().skip(1) {
                    if t.text.starts_with(':') {
                        spec = self.attachment_spec(line, &toks[i..]);
                        break;
                    }
                    self.push(
                        Diagnostic::error(tok_span(line, t), format!("unexpected `{}`: expected `:TYPE`", t.text))
                            .hint("a skin item is `@slot[attachment] :TYPE properties…`; without a type it hides the attachment"),
                    );
                }
                path_open = spec.ty.as_ref().is_some_and(|t| t.node == TypeName::Path);
                sk.items.push(SkinItem { span: line_span(line), slot, attachment: att, spec, commands: Vec::new() });
            } else if is_command_line(text, 2) {
                if !path_open {
                    self.invalid_block(line, Diagnostic::error(line_span(line), "path command outside a `:path` skin item"));
                    continue;
                }
                if let Some(cmd) = self.path_command(line, toks)
                    && let Some(item) = sk.items.last_mut()
                {
                    item.commands.push(cmd);
                }
            } else if b.len() > 1 && b[0] == b'\t' && b[1] != b'\t' {
                path_open = false;
                self.invalid_item(line, "expected a skin item: `@slot`, `@slot[attachment]` or `@bone.slot[attachment]`");
            } else {
                let mut d = Diagnostic::error(line_span(line), "unexpected line in skin");
                if line.depth() >= 2 {
                    d = d.hint("only path commands go two tabs deep in a skin");
                }
                self.invalid_block(line, d);
            }
        }
    }

    // ---- order -----------------------------------------------------------

    fn order(&mut self, o: &mut OrderSection, lines: &[Ln<'_>]) {
        for &(line, toks) in lines {
            if self.skipped(line) {
                continue;
            }
            let text: &str = &line.text;
            let plen = text.strip_prefix("\t@").map_or(0, token::path_prefix_len);
            if plen > 0 && boundary(text, 2 + plen) {
                let name = &text[2..2 + plen];
                let sp = span_of(line, 2, plen);
                let followed_by_space = text[2 + plen..].starts_with(' ');
                let rest = &text[2 + plen..];
                let trailing_tab = toks.len() == 1 && !followed_by_space && !rest.is_empty() && rest.trim_matches(is_js_space).is_empty();
                if trailing_tab {
                    self.push(
                        Diagnostic::error(
                            span_of(line, 2 + plen, text.len() - 2 - plen),
                            "whitespace after the slot reference; the entry is ignored",
                        )
                        .hint("remove the trailing tab (the original tool drops such an entry; a `# comment` after it is fine)"),
                    );
                    continue;
                }
                if toks.len() > 1 {
                    let extra = Span::new(line.source_offset(toks[1].pos), line.source_offset(toks[toks.len() - 1].end()));
                    if followed_by_space {
                        self.push(
                            Diagnostic::error(extra, "unexpected text after the slot reference; it is ignored")
                                .hint("write one `@slot` per line"),
                        );
                    } else {
                        self.push(
                            Diagnostic::error(extra, "unexpected text after the slot reference; the entry is ignored")
                                .hint("write one `@slot` per line; a comment after it needs `#`"),
                        );
                        continue;
                    }
                }
                self.role_at(span_of(line, 1, plen + 1), Role::SlotRef);
                o.entries.push(Spanned::new(name.to_string(), sp));
            } else {
                let mut d = Diagnostic::error(line_span(line), "expected a draw order entry: `@slot`");
                if text.as_bytes().get(1).is_some_and(|&c| c == b' ') {
                    d = d.hint("indent with tabs only");
                } else if line.depth() > 1 {
                    d = d.hint("order entries are one tab deep and have nothing nested under them");
                }
                self.invalid_block(line, d);
            }
        }
    }

    // ---- anim ------------------------------------------------------------

    fn anim(&mut self, a: &mut AnimSection, lines: &[Ln<'_>]) {
        a.items.reserve(depth_one_lines(lines));
        let mut item_open = false;
        for &(line, toks) in lines {
            if self.skipped(line) {
                continue;
            }
            let text: &str = &line.text;
            let b = text.as_bytes();
            let after_at = if text.starts_with("\t@") { 2 } else { 1 };
            let plen =
                if text.starts_with('\t') && b.get(1).is_some_and(|&c| c != b'\t') { token::path_prefix_len(&text[after_at..]) } else { 0 };
            if plen > 0 && boundary(text, after_at + plen) {
                let is_slot = after_at == 2;
                let target = Spanned::new(text[after_at..after_at + plen].to_string(), span_of(line, after_at, plen));
                self.role_at(span_of(line, 1, after_at - 1 + plen), if is_slot { Role::SlotRef } else { Role::BoneRef });
                let mut opts = Opts::default();
                for t in &toks[1..] {
                    match token::options(t.text, false) {
                        Some(o) => {
                            self.role(line, t, Role::Option);
                            self.apply_opts(&mut opts, &o, line, t);
                        }
                        None => {
                            let mut d = bad_token(line, t, "item option")
                                .hint("an item may set its own defaults `frame:step:easing`, e.g. `10:5:sio`");
                            d.message = format!("unexpected `{}` after the animation item", t.text);
                            self.push(d);
                        }
                    }
                }
                a.items.push(AnimItem { target, is_slot, opts, timelines: Vec::new() });
                item_open = true;
            } else if b.len() > 1 && b[0] == b'\t' && b[1] != b'\t' {
                // Only a depth-1 line opens or closes an item; this one closes
                // it, so every deeper line up to the next item is ignored.
                item_open = false;
                self.invalid_item(line, "expected an animation item: a bone reference or `@slot`");
            } else if !item_open {
                // Before the first item of the section: the original ignores
                // every deeper line up to the next depth-1 line.
                let mut d = Diagnostic::error(
                    line_span(line),
                    if is_timeline_line(text) { "timeline outside an animation item" } else { "line outside an animation item" },
                )
                .hint("timelines go one tab deeper than a bone or `@slot` item");
                if b.get(2).is_some_and(|&c| c == b' ') {
                    d = d.hint("indent with tabs only");
                }
                self.push(d);
                self.skip = Some(Skip { depth: 1, diag: self.diags.len() - 1, count: 0, following: true });
            } else if is_timeline_line(text) {
                let Some(item) = a.items.last_mut() else { continue };
                if let Some(tl) = timeline(&mut self.diags, &mut self.roles, line, toks, item.is_slot) {
                    item.timelines.push(tl);
                }
            } else if line.depth() == 2 && toks.first().is_some_and(|h| h.pos == 2) {
                // `\t\tPROP` not followed by whitespace, or a property longer
                // than one letter: the original reads neither as a timeline.
                let is_slot = a.items.last().is_some_and(|i| i.is_slot);
                let head = &toks[0];
                let known = if is_slot { TimelineProp::for_slot(head.text) } else { TimelineProp::for_bone(head.text) };
                if toks.len() == 1 && known.is_some() {
                    self.push(Diagnostic::warning(line_span(line), format!("timeline `{}` has no commands; it is ignored", head.text)));
                } else {
                    self.push(prop_error(line, head, is_slot));
                }
            } else {
                // Inside an item only depth-1 lines open or close items, so
                // an invalid deeper line is skipped alone: the lines after it,
                // however deep, are still read as timelines of the open item.
                let mut d = Diagnostic::error(line_span(line), "expected a timeline: a property followed by values, e.g. `x 0 -> 10`");
                if b.get(2).is_some_and(|&c| c == b' ') {
                    d = d.hint("indent with tabs only");
                } else if line.depth() > 2 {
                    d = d.hint("timelines are two tabs deep");
                }
                self.push(d);
            }
        }
    }
}

/// How many lines are indented by exactly one tab (at most the number of
/// bone lines or items a section holds: room to reserve).
fn depth_one_lines(lines: &[Ln<'_>]) -> usize {
    lines.iter().filter(|(l, _)| l.text.as_bytes().get(1).is_some_and(|&b| b != b'\t')).count()
}

fn bad_token(line: &LogicalLine<'_>, t: &Token<'_>, what: &str) -> Diagnostic {
    Diagnostic::error(tok_span(line, t), format!("`{}` is not a valid {what}", t.text))
}

/// `^\t{tabs}(M|Q|:|B|L)\s+` or `^\t{tabs}C(\s+|$)`.
fn is_command_line(text: &str, tabs: usize) -> bool {
    let b = text.as_bytes();
    if b.len() <= tabs || !b[..tabs].iter().all(|&c| c == b'\t') {
        return false;
    }
    let rest = &text[tabs..];
    let mut chars = rest.chars();
    match chars.next() {
        Some('M' | 'Q' | ':' | 'B' | 'L') => chars.next().is_some_and(is_js_space),
        Some('C') => chars.next().is_none_or(is_js_space),
        _ => false,
    }
}

/// `^\t\t.\s`: two tabs, any character, whitespace.
fn is_timeline_line(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("\t\t") else { return false };
    let mut chars = rest.chars();
    match chars.next() {
        Some('\n' | '\r' | '\u{2028}' | '\u{2029}') | None => false,
        Some(_) => chars.next().is_some_and(is_js_space),
    }
}

/// A timeline whose property is not one of the letters of its item's kind.
fn prop_error(line: &LogicalLine<'_>, head: &Token<'_>, is_slot: bool) -> Diagnostic {
    let mut d =
        Diagnostic::error(tok_span(line, head), format!("`{}` is not a {} property", head.text, if is_slot { "slot" } else { "bone" }));
    d = d.hint(if is_slot {
        "slot timelines are @ (attachment), c (color), r g b a (color components)"
    } else {
        "bone timelines are x y (position), r (rotation), i j (scale), s t (flip x/y)"
    });
    if !is_slot && TimelineProp::for_slot(head.text).is_some() {
        d = d.hint("color and attachment timelines belong to a slot item: `@slot`");
    }
    if head.text.chars().count() > 1 && head.text.chars().all(|c| if is_slot { "@crgba" } else { "xyrijst" }.contains(c)) {
        d = d.hint("a timeline has one property: write one line per letter");
    }
    d
}

fn timeline(
    diags: &mut Vec<Diagnostic>,
    roles: &mut Vec<TokenRole>,
    line: &LogicalLine<'_>,
    toks: &[Token<'_>],
    is_slot: bool,
) -> Option<TimelineLine> {
    let head = toks.first()?;
    if head.pos != 2 {
        // The original reads `\t\t` + any character + whitespace as a
        // timeline whatever follows, so this line still counts; say so.
        let indent = span_of(line, 2, head.pos - 2);
        let mut d = Diagnostic::warning(indent, "timeline indented deeper than two tabs; it is still read as a timeline");
        if line.text[2..head.pos].contains(|c: char| c != '\t') {
            d = d.hint("indent with tabs only");
        }
        diags.push(d);
    }
    let prop = if is_slot { TimelineProp::for_slot(head.text) } else { TimelineProp::for_bone(head.text) };
    let Some(prop) = prop else {
        diags.push(prop_error(line, head, is_slot));
        return None;
    };
    roles.push(TokenRole { span: tok_span(line, head), role: Role::Property });
    let mut commands = Vec::with_capacity(toks.len());
    for t in &toks[1..] {
        let s = t.text;
        let sp = tok_span(line, t);
        let mut role = |role: Role| roles.push(TokenRole { span: sp, role });
        let mut push = |c: TimelineCommand| commands.push(Spanned::new(c, sp));
        if s == "{" {
            role(Role::Loop);
            push(TimelineCommand::BeginLoop);
            continue;
        }
        if let Some(n) = token::end_loop(s) {
            role(Role::Loop);
            push(TimelineCommand::EndLoop(n));
            continue;
        }
        if let Some(n) = token::advance(s) {
            role(Role::Advance);
            if n > 0 {
                push(TimelineCommand::AdvanceSteps(n));
            }
            continue;
        }
        let value = match prop {
            TimelineProp::Color => token::color(s).map(|c| TimelineCommand::Push(KeyValue::Color(c.to_color_exact()))),
            TimelineProp::Attachment => token::is_name(s).then(|| TimelineCommand::Push(KeyValue::Name(s.to_string()))),
            TimelineProp::FlipX | TimelineProp::FlipY => token::boolean(s).map(|b| TimelineCommand::Push(KeyValue::Bool(b))),
            _ => {
                if let Some(v) = s.strip_prefix('+').and_then(token::number) {
                    Some(TimelineCommand::PushAdd(v))
                } else if let Some(v) = s.strip_prefix('*').and_then(token::number) {
                    Some(TimelineCommand::PushMul(v))
                } else {
                    token::number(s).map(|v| TimelineCommand::Push(KeyValue::Number(v)))
                }
            }
        };
        if let Some(c) = value {
            role(match prop {
                TimelineProp::Color => Role::Color,
                TimelineProp::Attachment => Role::AttachmentRef,
                TimelineProp::FlipX | TimelineProp::FlipY => Role::Boolean,
                _ => Role::Number,
            });
            push(c);
            continue;
        }
        if let Some(o) = token::options(s, true) {
            role(Role::Option);
            if let Some(f) = o.frame {
                push(if f.relative { TimelineCommand::AdvanceFrames(f.value) } else { TimelineCommand::SetFrame(f.value) });
            }
            if let Some(st) = o.step {
                push(TimelineCommand::SetStep(st));
            }
            match &o.easing {
                Some(EasingOpt::Known(e)) => push(TimelineCommand::SetEasing(*e)),
                Some(EasingOpt::Unknown(name)) => {
                    let mut d = Diagnostic::error(span_of(line, t.pos + o.easing_pos, name.len()), format!("unknown easing `{name}`"))
                        .hint("easings are li (linear), si (sine in), so (sine out) and sio (sine in-out)");
                    if let Some(c) = super::suggest::closest(name, ["li", "si", "so", "sio"].iter().copied()) {
                        d = d.hint(format!("did you mean `{c}`?"));
                    }
                    diags.push(d);
                }
                None => {}
            }
            if o.advance > 0 {
                commands.push(Spanned::new(TimelineCommand::AdvanceSteps(o.advance), sp));
            }
            continue;
        }
        let expected = match prop {
            TimelineProp::Color => "a COLOR",
            TimelineProp::Attachment => "an attachment name",
            TimelineProp::FlipX | TimelineProp::FlipY => "`true` or `false`",
            _ => "a number (or `+N`, `*N`)",
        };
        let mut d = Diagnostic::error(
            sp,
            format!("unexpected `{s}` in timeline: expected {expected}, an advance `->`, options `F:S:E>`, `{{` or `}}`"),
        );
        if s.contains(':') && !s.ends_with('>') {
            d = d.hint("options inside a timeline end with `>` or `->`, e.g. `10:>` or `:si->`");
        } else if s.starts_with('-') && s.ends_with('>') {
            d = d.hint("an advance is hyphens followed by `>`, e.g. `->` or `--->`");
        }
        diags.push(d);
    }
    if commands.is_empty() {
        diags.push(Diagnostic::warning(line_span(line), format!("timeline `{}` has no commands; it is ignored", head.text)));
        return None;
    }
    Some(TimelineLine { prop: Spanned::new(prop, tok_span(line, head)), commands, span: line_span(line) })
}

// ---- expect (pose assertions, LANGUAGE-EXT.md) ----------------------------

const EXPECT_HEADER_HINT: &str =
    "the header takes an optional \"animation\" name (none: the setup pose), a frame number and a tolerance `~NUM`";
const EXPECT_LINE_HINT: &str = "write `BONE [local] [X,Y] xNUM yNUM rNUM iNUM jNUM [~TOL]` or `@SLOT rNUM gNUM bNUM aNUM [~TOL]`";

/// `~NUM`: a tolerance.
fn tolerance(tok: &str) -> Option<f64> {
    tok.strip_prefix('~').and_then(token::unsigned)
}

impl Parser {
    fn expect_section(&mut self, header: &LogicalLine<'_>, toks: &[Token<'_>], rest: &[Ln<'_>]) -> ExpectSection {
        self.role(header, &toks[0], Role::SectionKeyword);
        let mut e = ExpectSection { anim: None, frame: 0.0, tolerance: 0.001, lines: Vec::new() };
        let mut frame_seen = false;
        for t in &toks[1..] {
            if let Some(n) = quoted(t.text).filter(|_| e.anim.is_none() && !frame_seen) {
                self.role(header, t, Role::String);
                e.anim = Some(Spanned::new(n.to_string(), tok_span(header, t)));
            } else if let Some(f) = token::unsigned(t.text).filter(|_| !frame_seen) {
                self.role(header, t, Role::Number);
                e.frame = f;
                frame_seen = true;
            } else if let Some(tol) = tolerance(t.text) {
                self.role(header, t, Role::Option);
                e.tolerance = tol;
            } else {
                self.push(
                    Diagnostic::error(tok_span(header, t), format!("unexpected `{}` in expect header", t.text)).hint(EXPECT_HEADER_HINT),
                );
            }
        }
        for &(line, toks) in rest {
            if line.is_blank() || self.skipped(line) {
                continue;
            }
            if line.depth() != 1 || toks.is_empty() {
                self.invalid_block(
                    line,
                    Diagnostic::error(line_span(line), "an expectation line is indented with one tab").hint(EXPECT_LINE_HINT),
                );
                continue;
            }
            let head = toks[0];
            let (is_slot, name) = match head.text.strip_prefix('@') {
                Some(n) => (true, n),
                None => (false, head.text),
            };
            if !token::is_path(name) {
                self.invalid_block(
                    line,
                    Diagnostic::error(tok_span(line, &head), format!("`{}` is not a bone or `@slot` reference", head.text))
                        .hint(EXPECT_LINE_HINT),
                );
                continue;
            }
            let off = usize::from(is_slot);
            self.role(line, &head, if is_slot { Role::SlotRef } else { Role::BoneRef });
            let target_span = span_of(line, head.pos + off, name.len());
            let mut el = ExpectLine {
                span: line_span(line),
                target: Spanned::new(name.to_string(), target_span),
                is_slot,
                local: false,
                point: None,
                checks: Vec::new(),
                tolerance: None,
            };
            let letters = if is_slot { "rgba" } else { "xyrij" };
            for t in &toks[1..] {
                if !is_slot && (t.text == "local" || t.text == "world") {
                    self.role(line, t, Role::BoneProperty);
                    el.local = t.text == "local";
                } else if let Some((x, y, None)) = token::point(t.text).filter(|_| !is_slot) {
                    self.role(line, t, Role::Number);
                    el.point = Some((x, y));
                } else if let Some(tol) = tolerance(t.text) {
                    self.role(line, t, Role::Option);
                    el.tolerance = Some(tol);
                } else if let Some((c, v)) = token::letter_number(t.text, letters, true) {
                    self.role(line, t, Role::Property);
                    let prop = match (is_slot, c) {
                        (false, 'x') => ExpectProp::X,
                        (false, 'y') => ExpectProp::Y,
                        (false, 'r') => ExpectProp::Rotation,
                        (false, 'i') => ExpectProp::ScaleX,
                        (false, _) => ExpectProp::ScaleY,
                        (true, 'r') => ExpectProp::Red,
                        (true, 'g') => ExpectProp::Green,
                        (true, 'b') => ExpectProp::Blue,
                        (true, _) => ExpectProp::Alpha,
                    };
                    el.checks.push(Spanned::new((prop, v), tok_span(line, t)));
                } else {
                    let what = if is_slot { "a slot expectation takes rNUM gNUM bNUM aNUM (its color) and ~TOL" } else { EXPECT_LINE_HINT };
                    self.push(Diagnostic::error(tok_span(line, t), format!("unexpected `{}` in an expectation", t.text)).hint(what));
                }
            }
            if el.local && el.point.is_some() {
                self.push(Diagnostic::error(el.span, "a point is checked in world space: `local` and `X,Y` do not go together"));
                continue;
            }
            if el.checks.is_empty() {
                self.push(Diagnostic::error(el.span, "this expectation checks nothing").hint(EXPECT_LINE_HINT));
                continue;
            }
            e.lines.push(el);
        }
        e
    }
}
