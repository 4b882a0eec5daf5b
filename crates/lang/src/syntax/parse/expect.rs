//! `expect` sections: pose assertions (LANGUAGE-EXT.md).

use super::*;
use crate::syntax::vocab;

pub(super) const EXPECT_HEADER_HINT: &str = "the header takes an optional \"animation\" name (none: the setup pose), a frame number and a tolerance `~NUM`";

pub(super) const EXPECT_LINE_HINT: &str = "write `BONE [local] [X,Y] xNUM yNUM rNUM iNUM jNUM [~TOL]`, `@SLOT rNUM gNUM bNUM aNUM [~TOL]`, `!EVENT [PAYLOAD]` or `!EVENT never FROM TO`";

const EVENT_LINE_HINT: &str = "an event expectation is `!EVENT` (fires at the section's frame), `!EVENT PAYLOAD` (with a number or \"string\") or `!EVENT never FROM TO` (no key from frame FROM to frame TO)";

/// `~NUM`: a tolerance.
pub(super) fn tolerance(tok: &str) -> Option<f64> {
    tok.strip_prefix('~').and_then(token::unsigned)
}

impl Parser {
    pub(super) fn expect_section(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        rest: &[Ln<'_>],
    ) -> ExpectSection {
        self.role(header, &toks[0], Role::SectionKeyword);
        let mut e = ExpectSection { anim: None, frame: 0.0, tolerance: 0.001, lines: Vec::new() };
        self.expect_header(header, toks, &mut e);
        for &(line, toks) in rest {
            if line.is_blank() || self.skipped(line) {
                continue;
            }
            if line.depth() != 1 || toks.is_empty() {
                self.invalid_block(
                    line,
                    Diagnostic::error(
                        line_span(line),
                        "an expectation line is indented with one tab",
                    )
                    .hint(EXPECT_LINE_HINT),
                );
                continue;
            }
            let head = toks[0];
            if let Some(name) = head.text.strip_prefix('!') {
                if let Some(el) = self.event_expectation(line, toks, name) {
                    e.lines.push(el);
                }
                continue;
            }
            if let Some(el) = self.pose_expectation(line, toks) {
                e.lines.push(el);
            }
        }
        e
    }
    /// The header's animation name, frame and tolerance, into `e`.
    fn expect_header(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        e: &mut ExpectSection,
    ) {
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
                    Diagnostic::error(
                        tok_span(header, t),
                        format!("unexpected `{}` in expect header", clip(t.text)),
                    )
                    .hint(EXPECT_HEADER_HINT),
                );
            }
        }
    }

    /// A bone's or `@slot`'s expectation line; `None` (reported) when it
    /// names no bone or slot, or checks nothing.
    fn pose_expectation(
        &mut self,
        line: &LogicalLine<'_>,
        toks: &[Token<'_>],
    ) -> Option<ExpectLine> {
        let head = toks[0];
        let (is_slot, name) = match head.text.strip_prefix('@') {
            Some(n) => (true, n),
            None => (false, head.text),
        };
        if !token::is_path(name) {
            self.invalid_block(
                line,
                Diagnostic::error(
                    tok_span(line, &head),
                    format!("`{}` is not a bone or `@slot` reference", clip(head.text)),
                )
                .hint(EXPECT_LINE_HINT),
            );
            return None;
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
            event: None,
        };
        for t in &toks[1..] {
            self.expectation_token(line, t, &mut el);
        }
        if el.local && el.point.is_some() {
            self.push(Diagnostic::error(
                el.span,
                "a point is checked in world space: `local` and `X,Y` do not go together",
            ));
            return None;
        }
        if el.checks.is_empty() {
            self.push(
                Diagnostic::error(el.span, "this expectation checks nothing")
                    .hint(EXPECT_LINE_HINT),
            );
            return None;
        }
        Some(el)
    }

    /// One token after an expectation line's bone or slot, into `el`.
    fn expectation_token(&mut self, line: &LogicalLine<'_>, t: &Token<'_>, el: &mut ExpectLine) {
        let is_slot = el.is_slot;
        let letters =
            if is_slot { vocab::EXPECT_SLOT_LETTER_SET } else { vocab::EXPECT_BONE_LETTER_SET };
        if let Some(&local) = vocab::lookup(vocab::EXPECT_SPACES, t.text).filter(|_| !is_slot) {
            self.role(line, t, Role::BoneProperty);
            el.local = local;
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
            let what = if is_slot {
                "a slot expectation takes rNUM gNUM bNUM aNUM (its color) and ~TOL"
            } else {
                EXPECT_LINE_HINT
            };
            self.push(
                Diagnostic::error(
                    tok_span(line, t),
                    format!("unexpected `{}` in an expectation", clip(t.text)),
                )
                .hint(what),
            );
        }
    }
}

impl Parser {
    /// `!EVENT [PAYLOAD | never FROM TO] [~TOL]` in an `expect` section.
    fn event_expectation(
        &mut self,
        line: &LogicalLine<'_>,
        toks: &[Token<'_>],
        name: &str,
    ) -> Option<ExpectLine> {
        let head = toks[0];
        if !token::is_path(name) {
            self.push(
                Diagnostic::error(
                    tok_span(line, &head),
                    format!("`{}` is not an event name", clip(head.text)),
                )
                .hint(EVENT_LINE_HINT),
            );
            return None;
        }
        self.role(line, &head, Role::Event);
        let mut el = ExpectLine {
            span: line_span(line),
            target: Spanned::new(name.to_string(), span_of(line, head.pos + 1, name.len())),
            is_slot: false,
            local: false,
            point: None,
            checks: Vec::new(),
            tolerance: None,
            event: Some(EventExpect::Fires(None)),
        };
        let mut rest = &toks[1..];
        if let Some(t) =
            rest.first().filter(|t| vocab::lookup(vocab::EVENT_CHECK_WORDS, t.text).is_some())
        {
            el.event = Some(EventExpect::Never(self.event_never(line, t, rest)?));
            rest = &rest[3..];
        } else if let Some(t) = rest.first().filter(|t| !t.text.starts_with('~')) {
            let value = if let Some(v) = token::number(t.text) {
                self.role(line, t, Role::Number);
                Some(KeyValue::Number(v))
            } else if let Some(q) = quoted(t.text).filter(|_| t.text.len() >= 2) {
                self.role(line, t, Role::String);
                Some(KeyValue::Name(q.to_string()))
            } else {
                None
            };
            if let Some(v) = value {
                el.event = Some(EventExpect::Fires(Some(Spanned::new(v, tok_span(line, t)))));
                rest = &rest[1..];
            }
        }
        for t in rest {
            if let Some(tol) = tolerance(t.text) {
                self.role(line, t, Role::Option);
                el.tolerance = Some(tol);
            } else {
                self.push(
                    Diagnostic::error(
                        tok_span(line, t),
                        format!("unexpected `{}` in an event expectation", clip(t.text)),
                    )
                    .hint(EVENT_LINE_HINT),
                );
            }
        }
        Some(el)
    }
    /// `never FROM TO` (`t` is `never`, the first of `rest`): the frames
    /// no key of the event may fall on; `None` (reported) when they are
    /// missing or out of order.
    fn event_never(
        &mut self,
        line: &LogicalLine<'_>,
        t: &Token<'_>,
        rest: &[Token<'_>],
    ) -> Option<Spanned<(f64, f64)>> {
        self.role(line, t, Role::BoneProperty);
        let frames: Vec<Option<f64>> =
            rest[1..].iter().take(2).map(|t| token::unsigned(t.text)).collect();
        let (Some(Some(a)), Some(Some(b))) = (frames.first(), frames.get(1)) else {
            self.push(
                Diagnostic::error(tok_span(line, t), "`never` takes two frames: `never FROM TO`")
                    .hint(EVENT_LINE_HINT),
            );
            return None;
        };
        for t in &rest[1..3] {
            self.role(line, t, Role::Number);
        }
        if a > b {
            self.push(Diagnostic::error(
                tok_span(line, &rest[1]).cover(tok_span(line, &rest[2])),
                format!("the first frame of `never` comes after the second ({a} > {b})"),
            ));
            return None;
        }
        let span = tok_span(line, t).cover(tok_span(line, &rest[2]));
        Some(Spanned::new((*a, *b), span))
    }
}
