//! `order` sections: the draw order (LANGUAGE.md §4).

use super::*;

impl Parser {
    /// `order` and its entries.
    pub(super) fn order_section(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        rest: &[Ln<'_>],
    ) -> OrderSection {
        self.role(header, &toks[0], Role::SectionKeyword);
        for t in &toks[1..] {
            self.push(
                Diagnostic::error(
                    tok_span(header, t),
                    format!("unexpected `{}` after `order`", clip(t.text)),
                )
                .hint("list the slots on the lines below, one `@slot` per line"),
            );
        }
        let mut o = OrderSection::default();
        self.order(&mut o, rest);
        o
    }

    pub(super) fn order(&mut self, o: &mut OrderSection, lines: &[Ln<'_>]) {
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
                let trailing_tab = toks.len() == 1
                    && !followed_by_space
                    && !rest.is_empty()
                    && rest.trim_matches(is_js_space).is_empty();
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
                    let extra = Span::new(
                        line.source_offset(toks[1].pos),
                        line.source_offset(toks[toks.len() - 1].end()),
                    );
                    if followed_by_space {
                        self.push(
                            Diagnostic::error(
                                extra,
                                "unexpected text after the slot reference; it is ignored",
                            )
                            .hint("write one `@slot` per line"),
                        );
                    } else {
                        self.push(
                            Diagnostic::error(
                                extra,
                                "unexpected text after the slot reference; the entry is ignored",
                            )
                            .hint("write one `@slot` per line; a comment after it needs `#`"),
                        );
                        continue;
                    }
                }
                self.role_at(span_of(line, 1, plen + 1), Role::SlotRef);
                o.entries.push(Spanned::new(name.to_string(), sp));
            } else {
                let mut d =
                    Diagnostic::error(line_span(line), "expected a draw order entry: `@slot`");
                if text.as_bytes().get(1).is_some_and(|&c| c == b' ') {
                    d = d.hint("indent with tabs only");
                } else if line.depth() > 1 {
                    d = d.hint("order entries are one tab deep and have nothing nested under them");
                }
                self.invalid_block(line, d);
            }
        }
    }
}
