//! `skeleton` sections: bone lines and their slot lines (LANGUAGE.md §2).

use super::attachment::is_command_line;
use super::*;

/// The slot and attachment names of a slot line's head token, from
/// [`token::slot_head`].
type SlotHead<'a> = (Option<token::NameAt<'a>>, Option<token::NameAt<'a>>);

impl Parser {
    /// `skeleton [COLOR]` and its bone lines.
    pub(super) fn skeleton_section(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        rest: &[Ln<'_>],
    ) -> SkeletonSection {
        self.role(header, &toks[0], Role::SectionKeyword);
        let mut sk = SkeletonSection::default();
        for t in &toks[1..] {
            match token::color(t.text) {
                Some(c) => {
                    self.role(header, t, Role::Color);
                    sk.color = Some(c.to_color8());
                }
                None => self.push(
                    Diagnostic::error(
                        tok_span(header, t),
                        format!("unexpected `{}` after `skeleton`", clip(t.text)),
                    )
                    .hint(
                        "the skeleton header takes only a default bone COLOR, e.g. `skeleton #FC0`",
                    ),
                ),
            }
        }
        self.skeleton(&mut sk, rest);
        sk
    }

    pub(super) fn skeleton(&mut self, sk: &mut SkeletonSection, lines: &[Ln<'_>]) {
        sk.bones.reserve(depth_one_lines(lines));
        // Index of the open bone line, and whether its last slot line takes
        // path commands.
        let mut bone: Option<usize> = None;
        let mut slot_open = false;
        for (k, &(line, toks)) in lines.iter().enumerate() {
            if self.skipped(line) {
                continue;
            }
            let text: &str = &line.text;
            let b = text.as_bytes();
            let plen = token::path_prefix_len(&text[1..]);
            if b.len() > 1 && b[1] != b'\t' && plen > 0 && boundary(text, 1 + plen) {
                slot_open = false;
                // Room for the slot lines nested under it (a vector that
                // grew from empty would hold four).
                let slots = lines[k + 1..]
                    .iter()
                    .take_while(|(l, _)| l.text.starts_with("\t\t"))
                    .filter(|(l, _)| l.text.as_bytes().get(2) == Some(&b'@'))
                    .count();
                bone = self.bone_line(sk, line, toks, slots);
            } else if text.starts_with("\t\t@")
                && let Some(head) =
                    toks.first().filter(|t| t.pos == 2).and_then(|t| token::slot_head(t.text))
            {
                slot_open = false;
                let Some(bi) = bone else {
                    self.invalid_block(
                        line,
                        Diagnostic::error(line_span(line), "slot line outside a bone")
                            .hint("slots go one tab deeper than the bone line they belong to"),
                    );
                    continue;
                };
                slot_open = self.slot_line(&mut sk.bones[bi], line, toks, head);
            } else if is_command_line(text, 3) {
                if !slot_open {
                    self.invalid_block(
                        line,
                        Diagnostic::error(
                            line_span(line),
                            "path command outside a path attachment",
                        )
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
                self.not_a_bone_line(line, toks);
            } else if b.len() > 2 && b[0] == b'\t' && b[1] == b'\t' && b[2] != b'\t' {
                slot_open = false;
                self.not_a_slot_line(line);
            } else {
                self.unexpected_skeleton_line(line, toks);
            }
        }
    }

    /// A depth-1 line of a skeleton that is not a bone line.
    fn not_a_bone_line(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>]) {
        let text: &str = &line.text;
        let mut d = Diagnostic::error(
            line_span(line),
            "expected a bone: a dotted name like `arm.hand`, then its properties",
        );
        if is_js_space(text[1..].chars().next().unwrap_or('x')) {
            d = d.hint("indent with tabs only");
        } else if let Some(t) = toks.first() {
            d.message = format!("`{}` is not a bone name", clip(t.text));
            d = d.hint("bone names are made of letters, digits, `_` and `-`, separated by dots, and do not start with a digit");
        }
        self.invalid_block(line, d);
    }

    /// A depth-2 line of a skeleton that is not a slot line.
    fn not_a_slot_line(&mut self, line: &LogicalLine<'_>) {
        let text: &str = &line.text;
        let mut d = Diagnostic::error(
            line_span(line),
            "expected a slot line: `@`, `@slot`, `@slot[attachment]` or `@[attachment]`",
        );
        if is_js_space(text[2..].chars().next().unwrap_or('x')) {
            d = d.hint("indent with tabs only");
        } else if is_command_line(&format!("\t{text}"), 3) {
            d = d.hint("path commands go one tab deeper, under a `:path` slot line");
        }
        self.invalid_block(line, d);
    }

    /// A skeleton line that is neither a bone, a slot nor a path command.
    fn unexpected_skeleton_line(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>]) {
        let text: &str = &line.text;
        let first = toks.first().map_or("", |t| t.text);
        let mut d = Diagnostic::error(line_span(line), "unexpected line");
        if line.depth() == 3 && text[3..].starts_with(is_js_space) {
            d = d.hint("indent with tabs only");
        } else if line.depth() == 3 && matches!(first, "M" | "L" | "Q" | "B" | ":") {
            d.message = format!(
                "`{first}` needs {}",
                if first == ":" { "a bone reference" } else { "points" }
            );
            d = d.hint("write `M x,y`, `L x,y`, `Q cx,cy x,y`, `B c1x,c1y c2x,c2y x,y`, `C` or `: bone`, with a space after the command letter");
        } else if line.depth() >= 3 {
            d = d.hint("only path commands (M, L, Q, B, C, `:`) go three tabs deep in a skeleton, and nothing deeper");
        }
        self.invalid_block(line, d);
    }

    pub(super) fn bone_line(
        &mut self,
        sk: &mut SkeletonSection,
        line: &LogicalLine<'_>,
        toks: &[Token<'_>],
        slots: usize,
    ) -> Option<usize> {
        let head = toks[0];
        if head.text.as_bytes().split(|&b| b == b'.').any(|s| s == b"skeleton") {
            self.invalid_block(
                line,
                Diagnostic::error(
                    tok_span(line, &head),
                    format!("`{}`: no part of a bone name may be `skeleton`", clip(head.text)),
                )
                .hint("`skeleton` is reserved as the prefix that makes a reference unambiguous"),
            );
            return None;
        }
        self.role(line, &head, Role::BonePath);
        let mut props = Vec::with_capacity(toks.len() - 1);
        for t in &toks[1..] {
            let p = match crate::syntax::vocab::lookup(crate::syntax::vocab::BONE_FLAGS, t.text) {
                Some(flag) => Some(*flag),
                None => {
                    let s = t.text;
                    if let Some((c, v)) =
                        token::letter_number(s, crate::syntax::vocab::BONE_LETTERS, true)
                    {
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
                    self.role(
                        line,
                        t,
                        if matches!(p, BoneProp::Color(_)) {
                            Role::Color
                        } else {
                            Role::BoneProperty
                        },
                    );
                    props.push(Spanned::new(p, tok_span(line, t)));
                }
                None => match missing_value(t.text) {
                    // A property letter with its number not typed (yet).
                    Some(what) => self.push(
                        Diagnostic::error(
                            tok_span(line, t),
                            format!("`{}` has no value: the {what} is missing", clip(t.text)),
                        )
                        .hint(format!(
                            "write the number right after the letter, e.g. `{}10`",
                            t.text
                        )),
                    ),
                    None => self.push(bad_token(line, t, "bone property").hint(BONE_TOKENS)),
                },
            }
        }
        let span = line_span(line);
        sk.bones.push(BoneLine {
            path: Spanned::new(head.text.to_string(), tok_span(line, &head)),
            props,
            slots: Vec::with_capacity(slots),
            span,
        });
        Some(sk.bones.len() - 1)
    }

    /// Parses a slot line into `bone`; returns whether path commands may follow.
    pub(super) fn slot_line<'a>(
        &mut self,
        bone: &mut BoneLine,
        line: &LogicalLine<'_>,
        toks: &[Token<'a>],
        (slot, att): SlotHead<'a>,
    ) -> bool {
        let head = toks[0];
        let sp = |(s, off): (&str, usize)| {
            Spanned::new(s.to_string(), span_of(line, head.pos + off, s.len()))
        };
        let slot = slot.map(sp);
        let att = att.map(sp);
        if let Some(s) = slot.as_ref().filter(|s| s.node == "skeleton") {
            self.invalid_block(
                line,
                Diagnostic::error(s.span, "a slot cannot be named `skeleton`")
                    .hint("the line is ignored"),
            );
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
                    d.message =
                        format!("unexpected `{}`: expected a slot COLOR or `:TYPE`", clip(t.text));
                    if t.text.starts_with('#') {
                        d = d.hint("colors are #RGB or #RRGGBB, optionally followed by `,ALPHA`");
                    } else {
                        d = d.hint(
                            "attachment properties go after the type, e.g. `@ :rect w10 h10`",
                        );
                    }
                    self.push(d);
                }
            }
            i += 1;
        }
        let takes_commands = attachment_valid;
        bone.slots.push(SlotLine {
            span: line_span(line),
            slot,
            attachment: att,
            attachment_valid,
            colors,
            spec,
            commands: Vec::new(),
        });
        takes_commands
    }
}

/// What a bone property letter written alone (`l`, `r`, …) is missing.
fn missing_value(token: &str) -> Option<&'static str> {
    Some(match token {
        "l" => "length",
        "r" => "rotation",
        "x" => "x position",
        "y" => "y position",
        "i" => "x scale",
        "j" => "y scale",
        _ => return None,
    })
}
