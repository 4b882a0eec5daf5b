//! `skin "NAME"` sections (LANGUAGE.md §3).

use super::attachment::is_command_line;
use super::*;

impl Parser {
    /// `skin "NAME"` and its items (ignored without a name, or named `default`).
    pub(super) fn skin_section(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        rest: &[Ln<'_>],
    ) -> SectionKind {
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
                    Diagnostic::error(
                        tok_span(header, &t),
                        format!("unexpected `{}` in skin header", clip(t.text)),
                    )
                    .hint("write the skin name in double quotes, without spaces: `skin \"red\"`"),
                );
            }
        }
        match name {
            None => {
                let mut d = Diagnostic::error(
                    line_span(header),
                    "skin section without a name in double quotes",
                )
                .hint("write `skin \"NAME\"`; names cannot contain spaces");
                if let Some(h) = orphan_hint(rest.len()) {
                    d = d.hint(h);
                }
                self.push(d);
                SectionKind::Ignored
            }
            Some(n) if n.node == "default" => {
                self.push(
                    Diagnostic::warning(
                        n.span,
                        "skin \"default\" is the skeleton itself; this section is ignored",
                    )
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
    }

    pub(super) fn skin(&mut self, sk: &mut SkinSection, lines: &[Ln<'_>]) {
        sk.items.reserve(depth_one_lines(lines));
        let mut path_open = false;
        for &(line, toks) in lines {
            if self.skipped(line) {
                continue;
            }
            let text: &str = &line.text;
            let b = text.as_bytes();
            if text.starts_with("\t@")
                && toks.first().is_some_and(|t| t.pos == 1 && token::skin_head(t.text).is_some())
            {
                let head = toks[0];
                let Some((slot, att)) = token::skin_head(head.text) else { continue };
                self.role(line, &head, Role::SlotRef);
                let slot = Spanned::new(slot.to_string(), span_of(line, head.pos + 1, slot.len()));
                let att = att.map(|(a, off)| {
                    Spanned::new(a.to_string(), span_of(line, head.pos + off, a.len()))
                });
                let mut spec = AttachmentSpec::default();
                for (i, t) in toks.iter().enumerate().skip(1) {
                    if t.text.starts_with(':') {
                        spec = self.attachment_spec(line, &toks[i..]);
                        break;
                    }
                    self.push(
                        Diagnostic::error(tok_span(line, t), format!("unexpected `{}`: expected `:TYPE`", clip(t.text)))
                            .hint("a skin item is `@slot[attachment] :TYPE properties…`; without a type it hides the attachment"),
                    );
                }
                path_open = spec.ty.as_ref().is_some_and(|t| t.node == TypeName::Path);
                sk.items.push(SkinItem {
                    span: line_span(line),
                    slot,
                    attachment: att,
                    spec,
                    commands: Vec::new(),
                });
            } else if is_command_line(text, 2) {
                if !path_open {
                    self.invalid_block(
                        line,
                        Diagnostic::error(
                            line_span(line),
                            "path command outside a `:path` skin item",
                        ),
                    );
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
}
