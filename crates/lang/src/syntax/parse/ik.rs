//! `ik` sections (LANGUAGE-EXT.md, "Inverse kinematics"): one IK family per
//! line, `TIPREF to TARGETREF (up N | from ROOTREF) [fabrik|arc] [cw|ccw]`.
//!
//! A child module of the section parser (it uses the parser's helpers); the
//! parser's only hook is the `ik` header. Names are resolved by the
//! compiler (`compile::ik`).

use super::*;
use crate::model::{IkConstraint, IkMode};

const IK_LINE_HINT: &str = "write `TIP to TARGET up N` or `TIP to TARGET from ROOT`, then optionally `fabrik`|`arc` and `cw`|`ccw`";

/// The words an IK line may use after its tip.
/// The words of an IK line (what a misspelt one is compared to).
fn is_ik_word(s: &str) -> bool {
    crate::syntax::vocab::lookup(crate::syntax::vocab::IK_WORDS, s).is_some()
}

impl Parser {
    pub(super) fn ik_section(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        rest: &[Ln<'_>],
    ) -> IkSection {
        self.role(header, &toks[0], Role::SectionKeyword);
        for t in &toks[1..] {
            self.push(
                Diagnostic::error(
                    tok_span(header, t),
                    format!("unexpected `{}` after `ik`", clip(t.text)),
                )
                .hint("list the IK families on the lines below, one per line")
                .hint(IK_LINE_HINT),
            );
        }
        let mut s = IkSection::default();
        for &(line, toks) in rest {
            if line.is_blank() || self.skipped(line) {
                continue;
            }
            if line.depth() != 1 || toks.is_empty() {
                let mut d =
                    Diagnostic::error(line_span(line), "an IK line is indented with one tab")
                        .hint(IK_LINE_HINT);
                if line.text[1..].starts_with(is_js_space) {
                    d = d.hint("indent with tabs only");
                }
                self.invalid_block(line, d);
                continue;
            }
            if let Some(l) = self.ik_line(line, toks) {
                s.lines.push(l);
            }
        }
        s
    }

    /// One family line; `None` (with an error) when it names no tip, no
    /// target or no start of the chain.
    fn ik_line(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>]) -> Option<IkLine> {
        let head = toks[0];
        if !token::is_path(head.text) {
            let mut d = Diagnostic::error(
                tok_span(line, &head),
                format!("`{}` is not a bone reference", clip(head.text)),
            )
            .hint(IK_LINE_HINT);
            if is_ik_word(head.text) {
                d = d.hint("an IK line starts with the chain's tip bone");
            }
            self.invalid_block(line, d);
            return None;
        }
        self.role(line, &head, Role::BoneRef);
        let tip = Spanned::new(head.text.to_string(), tok_span(line, &head));
        let mut d = IkDraft::default();
        let mut i = 1;
        while i < toks.len() {
            let t = toks[i];
            let next = toks.get(i + 1).copied();
            i += 1;
            if self.ik_word(line, t, next, &mut d) {
                i += 1;
            }
        }
        let IkDraft { target, reach, mode, bend } = d;
        let Some(target) = target else {
            self.push(
                Diagnostic::error(line_span(line), "this IK line has no target: add `to BONE`")
                    .hint(IK_LINE_HINT),
            );
            return None;
        };
        let Some(reach) = reach else {
            self.push(
                Diagnostic::error(
                    line_span(line),
                    "this IK line does not say where its chain starts: add `up N` or `from BONE`",
                )
                .hint(IK_LINE_HINT),
            );
            return None;
        };
        Some(IkLine {
            span: line_span(line),
            tip,
            target,
            reach,
            mode: mode.unwrap_or_default(),
            bend: bend.unwrap_or_default(),
        })
    }

    /// One word of an IK line (`next`: the token after it) read into `d`;
    /// whether it took `next` as its value.
    fn ik_word(
        &mut self,
        line: &LogicalLine<'_>,
        t: Token<'_>,
        next: Option<Token<'_>>,
        d: &mut IkDraft,
    ) -> bool {
        match t.text {
            "to" | "from" => return self.ik_bone_word(line, t, next, d),
            "up" => return self.ik_up(line, t, next, d),
            "fabrik" | "arc" => {
                self.role(line, &t, Role::BoneProperty);
                if d.mode.is_some() {
                    self.push(Diagnostic::warning(
                        tok_span(line, &t),
                        "the mode is given twice; the last one counts",
                    ));
                }
                d.mode = Some(if t.text == "arc" { IkMode::Arc } else { IkMode::Fabrik });
            }
            "cw" | "ccw" => {
                self.role(line, &t, Role::BoneProperty);
                if d.bend.is_some() {
                    self.push(Diagnostic::warning(
                        tok_span(line, &t),
                        "the bend is given twice; the last one counts",
                    ));
                }
                d.bend = Some(if t.text == "cw" {
                    IkConstraint::Clockwise
                } else {
                    IkConstraint::CounterClockwise
                });
            }
            other => {
                let mut diag = Diagnostic::error(
                    tok_span(line, &t),
                    format!("unexpected `{}` in an IK line", clip(other)),
                )
                .hint(IK_LINE_HINT);
                if let Some(s) = crate::syntax::suggest::closest(
                    other,
                    crate::syntax::vocab::texts(crate::syntax::vocab::IK_WORDS),
                ) {
                    diag = diag.hint(format!("did you mean `{s}`?"));
                }
                self.push(diag);
            }
        }
        false
    }

    /// `to BONE` (the target) or `from BONE` (the chain's first bone);
    /// whether `next` was its bone.
    fn ik_bone_word(
        &mut self,
        line: &LogicalLine<'_>,
        t: Token<'_>,
        next: Option<Token<'_>>,
        d: &mut IkDraft,
    ) -> bool {
        self.role(line, &t, Role::BoneProperty);
        let what = if t.text == "to" { "the target bone" } else { "the chain's first bone" };
        let Some(n) = next.filter(|n| token::is_path(n.text) && !is_ik_word(n.text)) else {
            self.push(
                Diagnostic::error(
                    tok_span(line, &t),
                    format!("`{}` needs {what} after it", clip(t.text)),
                )
                .hint(IK_LINE_HINT),
            );
            return false;
        };
        self.role(line, &n, Role::BoneRef);
        let r = Spanned::new(n.text.to_string(), tok_span(line, &n));
        if t.text == "to" {
            if d.target.is_some() {
                self.push(Diagnostic::error(
                    tok_span(line, &t),
                    "the target is given twice; this one is ignored",
                ));
            } else {
                d.target = Some(r);
            }
        } else {
            self.set_reach(&mut d.reach, IkReach::From(r), tok_span(line, &t));
        }
        true
    }

    /// `up N`: the chain takes N parents above the tip; whether `next` was
    /// its number.
    fn ik_up(
        &mut self,
        line: &LogicalLine<'_>,
        t: Token<'_>,
        next: Option<Token<'_>>,
        d: &mut IkDraft,
    ) -> bool {
        self.role(line, &t, Role::BoneProperty);
        let parsed = next.and_then(|n| token::unsigned(n.text).map(|v| (n, v)));
        let Some((n, v)) = parsed else {
            self.push(
                Diagnostic::error(
                    tok_span(line, &t),
                    "`up` needs a number after it: how many parents above the tip the chain takes",
                )
                .hint(IK_LINE_HINT),
            );
            return false;
        };
        if v.fract() != 0.0 || v < 1.0 || v > f64::from(MAX_IK_UP) {
            self.push(Diagnostic::error(
                tok_span(line, &n),
                format!("`up` takes a whole number from 1 to {MAX_IK_UP} (the parents above the tip), not {}", n.text),
            ));
            // (The number is read, and refused.)
            return true;
        }
        self.role(line, &n, Role::Number);
        let up = IkReach::Up(Spanned::new(v as u32, tok_span(line, &n)));
        self.set_reach(&mut d.reach, up, tok_span(line, &t));
        true
    }

    /// Where the chain starts (`up N` or `from BONE`, written at `word`),
    /// unless the line gave it already: then an error, and the first stays.
    fn set_reach(&mut self, reach: &mut Option<IkReach>, new: IkReach, word: Span) {
        if reach.is_some() {
            self.push(
                Diagnostic::error(
                    word,
                    "the start of the chain is given twice; this one is ignored",
                )
                .hint("give either `up N` or `from BONE`"),
            );
        } else {
            *reach = Some(new);
        }
    }
}

/// What an IK line's words set, as they are read.
#[derive(Default)]
struct IkDraft {
    target: Option<Spanned<String>>,
    reach: Option<IkReach>,
    mode: Option<IkMode>,
    bend: Option<IkConstraint>,
}
