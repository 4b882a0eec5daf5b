//! Formatting: tabs for indentation, no trailing blanks.

use crate::text_edit::TextEdit;
use skelpad_lang::syntax::Span;

/// Edits that indent with tabs (`tab_size` columns of spaces, rounded up,
/// make one tab) and remove trailing spaces and tabs; nothing else changes.
pub fn format(text: &str, tab_size: u32) -> Vec<TextEdit> {
    let tab_size = tab_size.clamp(1, 64) as usize;
    let mut edits = Vec::new();
    let mut start = 0usize;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let indent_len = body.len() - body.trim_start_matches([' ', '\t']).len();
        let indent = &body[..indent_len];
        let content = body[indent_len..].trim_end_matches([' ', '\t']);
        if content.is_empty() {
            if !body.is_empty() {
                edits.push(TextEdit::new(Span::new(start as u32, (start + body.len()) as u32), ""));
            }
        } else {
            if indent.contains(' ') {
                let mut cols = 0usize;
                for c in indent.chars() {
                    cols = if c == '\t' { (cols / tab_size + 1) * tab_size } else { cols + 1 };
                }
                edits.push(TextEdit::new(
                    Span::new(start as u32, (start + indent_len) as u32),
                    "\t".repeat(cols.div_ceil(tab_size)),
                ));
            }
            let trail = indent_len + content.len();
            if trail < body.len() {
                edits.push(TextEdit::new(
                    Span::new((start + trail) as u32, (start + body.len()) as u32),
                    "",
                ));
            }
        }
        start += line.len();
    }
    edits
}

/// [`format()`] of the whole lines that `range` touches (what an editor's
/// "format selection", Neovim's `gq`, asks for); the edits are in document
/// offsets. The line the range ends in counts even when the range ends at
/// its start: Neovim 0.7's `gq` sends `start of the first line .. start of
/// the last line` for the lines it means.
pub fn format_range(text: &str, tab_size: u32, range: Span) -> Vec<TextEdit> {
    let clamp = |o: u32| {
        let mut o = (o as usize).min(text.len());
        while !text.is_char_boundary(o) {
            o -= 1;
        }
        o
    };
    let (start, end) = (clamp(range.start), clamp(range.end.max(range.start)));
    let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let to = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    format(&text[from..to], tab_size)
        .into_iter()
        .map(|e| TextEdit::new(e.span.shifted(from as u32), e.insert))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::names::tests::apply;

    #[test]
    fn formatting_only_touches_indentation_and_trailing_blanks() {
        let text = "skeleton \r\n  \tarm l1\t\n\n        x\n";
        let out = apply(text, format(text, 4));
        assert_eq!(out, "skeleton\r\n\tarm l1\n\n\t\tx\n");
    }

    #[test]
    fn range_formatting_touches_the_whole_lines_of_the_range_only() {
        let text = "skeleton \n    arm l1 \n    leg\t\n    hip  \n";
        let line =
            |n: usize| text.split_inclusive('\n').take(n).map(str::len).sum::<usize>() as u32;
        // Lines 1 and 2 (0-based), the range from the middle of one to the
        // middle of the other: both whole lines, nothing else.
        let r = Span::new(line(1) + 6, line(2) + 2);
        assert_eq!(
            apply(text, format_range(text, 4, r)),
            "skeleton \n\tarm l1\n\tleg\n    hip  \n"
        );
        // A range ending at the start of a line takes that line too (what
        // Neovim 0.7's `gqj` sends for lines 1 and 2).
        let r = Span::new(line(1), line(2));
        assert_eq!(
            apply(text, format_range(text, 4, r)),
            "skeleton \n\tarm l1\n\tleg\n    hip  \n"
        );
        // An empty range formats its line; ranges past the end are clamped.
        assert_eq!(
            apply(text, format_range(text, 4, Span::new(line(3) + 1, line(3) + 1))),
            "skeleton \n    arm l1 \n    leg\t\n\thip\n"
        );
        assert_eq!(
            apply(text, format_range(text, 4, Span::new(0, u32::MAX))),
            apply(text, format(text, 4))
        );
        // Inside a multi-byte character: no panic, its line.
        let t = "é  \n";
        assert_eq!(apply(t, format_range(t, 4, Span::new(1, 1))), "é\n");
    }
}
