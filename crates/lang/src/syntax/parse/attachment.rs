//! What skeleton slot lines and skin items share: `:TYPE` with its
//! attachment tokens, and path command lines (LANGUAGE.md §2–3).

use super::*;
use crate::syntax::vocab;

/// `^\t{tabs}(M|Q|:|B|L)\s+` or `^\t{tabs}C(\s+|$)`.
pub(super) fn is_command_line(text: &str, tabs: usize) -> bool {
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

impl Parser {
    /// `:TYPE` and the attachment tokens after it. `toks[0]` starts with `:`.
    pub(super) fn attachment_spec(
        &mut self,
        line: &LogicalLine<'_>,
        toks: &[Token<'_>],
    ) -> AttachmentSpec {
        let (ty, ty_span) = self.attachment_type(line, &toks[0]);
        let mut props = Vec::with_capacity(toks.len() - 1);
        let unknown = matches!(ty, TypeName::Unknown(_));
        let mut listed_props = false;
        for t in &toks[1..] {
            let s = t.text;
            let (prop, problem) = self.attachment_prop(line, t, &ty);
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
                    self.push(Diagnostic::warning(
                        tok_span(line, t),
                        format!("`{}` is ignored: the attachment type is unknown", clip(s)),
                    ));
                }
                None => {
                    let msg = problem.unwrap_or_else(|| {
                        format!("`{}` is not a property of {}", clip(s), ty.as_str())
                    });
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

    /// The type of `:TYPE` and its span; an unknown type is reported.
    fn attachment_type(&mut self, line: &LogicalLine<'_>, t0: &Token<'_>) -> (TypeName, Span) {
        let ty = TypeName::parse(&t0.text[1..]);
        let ty_span = tok_span(line, t0);
        if let TypeName::Unknown(name) = &ty {
            let mut d = if name.is_empty() {
                Diagnostic::error(ty_span, "missing attachment type after `:`")
            } else {
                Diagnostic::error(ty_span, format!("unknown attachment type `{}`", clip(name)))
            }
            .hint(known_types_hint());
            if let Some(s) =
                crate::syntax::suggest::closest(name, TypeName::KNOWN.iter().map(TypeName::as_str))
            {
                d = d.hint(format!("did you mean `:{s}`?"));
            }
            self.push(d.hint("the attachment draws nothing"));
        } else {
            self.role(line, t0, Role::AttachmentType);
        }
        (ty, ty_span)
    }

    /// The property token `t` of an attachment of type `ty`, or what is wrong with it
    /// (`(None, None)`: not a property of the type).
    fn attachment_prop(
        &mut self,
        line: &LogicalLine<'_>,
        t: &Token<'_>,
        ty: &TypeName,
    ) -> (Option<AttachmentProp>, Option<String>) {
        let s = t.text;
        let is_sprite = *ty == TypeName::Sprite;
        let wh = matches!(ty, TypeName::Rect | TypeName::Ellipse);
        if s.starts_with('"') {
            if let Some(name) = quoted(s).filter(|_| is_sprite) {
                (Some(AttachmentProp::Image(name.to_string())), None)
            } else if is_sprite {
                (
                    None,
                    Some(format!(
                        "unterminated image name `{}`: image names are written in double quotes and cannot contain spaces",
                        clip(s)
                    )),
                )
            } else {
                (None, Some(format!("`{}`: only sprites take an image name", clip(s))))
            }
        } else if let Some((c, v)) = token::letter_number(s, vocab::SIZE_LETTERS, true) {
            if wh {
                (
                    Some(if c == 'w' {
                        AttachmentProp::Width(v)
                    } else {
                        AttachmentProp::Height(v)
                    }),
                    None,
                )
            } else {
                (
                    None,
                    Some(format!(
                        "`{}`: {} has no {}",
                        clip(s),
                        ty.as_str(),
                        if c == 'w' { "width" } else { "height" }
                    )),
                )
            }
        } else if let Some((c, v)) = token::letter_number(s, vocab::ATTACHMENT_LETTERS, true) {
            let prop = match c {
                'x' => AttachmentProp::X(v),
                'y' => AttachmentProp::Y(v),
                'r' => AttachmentProp::Rotation(v),
                'i' => AttachmentProp::ScaleX(v),
                _ => AttachmentProp::ScaleY(v),
            };
            (Some(prop), None)
        } else if ty.is_shape() {
            self.shape_prop(line, t, ty)
        } else {
            (None, None)
        }
    }

    /// A shape's style token (join, cap, fill, stroke, widths, diameter), or
    /// what is wrong with it.
    fn shape_prop(
        &mut self,
        line: &LogicalLine<'_>,
        t: &Token<'_>,
        ty: &TypeName,
    ) -> (Option<AttachmentProp>, Option<String>) {
        let s = t.text;
        let d_ok = matches!(ty, TypeName::Rect | TypeName::Circle);
        let join = vocab::lookup(vocab::LINE_JOINS, s).map(|j| AttachmentProp::Join(*j));
        let prop = match vocab::lookup(vocab::LINE_CAPS, s) {
            None => join,
            Some(cap) => {
                if *ty != TypeName::Path {
                    self.push(Diagnostic::warning(
                        tok_span(line, t),
                        format!(
                            "`{}` has no effect on {} {}: caps only end open paths",
                            clip(s),
                            if ty.as_str().starts_with(['a', 'e', 'i', 'o', 'u']) {
                                "an"
                            } else {
                                "a"
                            },
                            ty.as_str()
                        ),
                    ));
                }
                Some(AttachmentProp::Cap(*cap))
            }
        };
        if prop.is_some() {
            return (prop, None);
        }
        if let Some(rest) =
            s.strip_prefix('f').or_else(|| s.strip_prefix('s')).filter(|r| r.starts_with('#'))
        {
            match token::color(rest) {
                Some(c) => {
                    let c = c.to_color8();
                    (
                        Some(if s.starts_with('f') {
                            AttachmentProp::Fill(c)
                        } else {
                            AttachmentProp::Stroke(c)
                        }),
                        None,
                    )
                }
                None => (
                    None,
                    Some(format!(
                        "`{}`: `{}` is not a color (#RGB or #RRGGBB, optionally `,ALPHA`)",
                        clip(s),
                        clip(rest)
                    )),
                ),
            }
        } else if let Some((c, v)) = token::letter_number(s, vocab::STROKE_LETTERS, false) {
            (
                Some(if c == 't' {
                    AttachmentProp::StrokeWidth(v)
                } else {
                    AttachmentProp::MiterLimit(v)
                }),
                None,
            )
        } else if let Some((_, v)) = token::letter_number(s, "d", false) {
            if d_ok {
                (Some(AttachmentProp::Diameter(v)), None)
            } else {
                (None, Some(format!("`{}`: {} has no diameter", clip(s), ty.as_str())))
            }
        } else if token::letter_number(s, "tmd", true).is_some() {
            (None, Some(format!("`{}`: this value cannot be negative", clip(s))))
        } else {
            (None, None)
        }
    }

    pub(super) fn path_command(
        &mut self,
        line: &LogicalLine<'_>,
        toks: &[Token<'_>],
    ) -> Option<PathCommandLine> {
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
            ":" => return self.bone_switch(line, toks),
            _ => return None,
        };
        let mut pts = Vec::new();
        for i in 0..count {
            let Some(t) = toks.get(1 + i) else {
                self.push(
                    Diagnostic::error(
                        span,
                        format!("`{}` needs {}", clip(head.text), plural(count, "point")),
                    )
                    .hint(format!("write `{usage}`; a point may name its bone: `x,y:bone`")),
                );
                return None;
            };
            pts.push(self.path_point(line, t, usage)?);
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

    /// `: BONEREF`: the points after it are bound to that bone.
    fn bone_switch(
        &mut self,
        line: &LogicalLine<'_>,
        toks: &[Token<'_>],
    ) -> Option<PathCommandLine> {
        let span = line_span(line);
        let Some(t) = toks.get(1).filter(|t| token::is_path(t.text)) else {
            self.push(
                Diagnostic::error(span, "expected a bone reference after `:`")
                    .hint("write `: BONEREF` to bind the following points to that bone"),
            );
            return None;
        };
        self.role(line, t, Role::BoneRef);
        self.extra_tokens(line, &toks[2..], "`: BONEREF`");
        Some(PathCommandLine {
            command: PathCommand::Switch(Spanned::new(t.text.to_string(), tok_span(line, t))),
            span,
        })
    }

    /// A path command's point `x,y` or `x,y:bone` (`usage`: how the
    /// command is written, for the hint).
    fn path_point(
        &mut self,
        line: &LogicalLine<'_>,
        t: &Token<'_>,
        usage: &str,
    ) -> Option<PointLit> {
        match token::point(t.text) {
            Some((x, y, r)) => {
                let num_len = r.map_or(t.text.len(), |(_, off)| off - 1);
                self.role_at(span_of(line, t.pos, num_len), Role::Number);
                if let Some((r, off)) = r {
                    self.role_at(span_of(line, t.pos + off, r.len()), Role::BoneRef);
                }
                Some(PointLit {
                    x,
                    y,
                    bone: r.map(|(r, off)| {
                        Spanned::new(r.to_string(), span_of(line, t.pos + off, r.len()))
                    }),
                    span: tok_span(line, t),
                })
            }
            None => {
                self.push(
                    Diagnostic::error(
                        tok_span(line, t),
                        format!("`{}` is not a point", clip(t.text)),
                    )
                    .hint(format!("points are `x,y` or `x,y:bone`, e.g. `{usage}`")),
                );
                None
            }
        }
    }

    pub(super) fn extra_tokens(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>], what: &str) {
        if let (Some(first), Some(last)) = (toks.first(), toks.last()) {
            let sp = Span::new(line.source_offset(first.pos), line.source_offset(last.end()));
            self.push(
                Diagnostic::error(sp, format!("unexpected text after {what}"))
                    .hint("one command per line; the extra text is ignored"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_cap_on_a_closed_shape_is_named_with_the_right_article() {
        let text =
            "skeleton\n\tb l10\n\t\t@ :ellipse w4 h2 round-cap\n\t\t@a :rect w4 h2 round-cap\n";
        let comp = crate::compile::compile(text);
        let messages: Vec<&str> = comp.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert!(
            messages.contains(&"`round-cap` has no effect on an ellipse: caps only end open paths"),
            "{messages:?}"
        );
        assert!(
            messages.contains(&"`round-cap` has no effect on a rect: caps only end open paths"),
            "{messages:?}"
        );
    }
}
