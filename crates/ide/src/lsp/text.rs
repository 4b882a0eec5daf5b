//! LSP positions (0-based line, UTF-16 code unit) ↔ byte offsets, and
//! incremental edits. Every conversion clamps: a line past the end is the
//! end of the document, a character past the end of its line is the end of
//! the line, and an offset inside a surrogate pair (the middle of a
//! character outside the BMP) rounds down to the character's start. Nothing
//! here panics on any position a client sends.

use lsp_types::{Position, Range};

use skelpad_lang::syntax::{LineIndex, Span};

/// A document's text with its line starts.
pub struct Text {
    /// The text itself.
    pub text: String,
    lines: LineIndex,
}

impl Text {
    /// A document with this text.
    pub fn new(text: String) -> Self {
        let lines = LineIndex::new(&text);
        Text { text, lines }
    }

    /// The byte range of line `line` without its `\n` (and without a `\r`
    /// before it, as LSP counts).
    fn line_bounds(&self, line: usize) -> (usize, usize) {
        let start = (self.lines.line_start(line) as usize).min(self.text.len());
        let next = self.lines.line_start(line + 1) as usize;
        let mut end = if next > self.text.len() { self.text.len() } else { next - 1 };
        if end > start && self.text.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        (start, end.max(start))
    }

    /// The byte offset of an LSP position (clamped, see the module docs).
    pub fn offset(&self, pos: Position) -> usize {
        let line = pos.line as usize;
        if line >= self.lines.line_count() {
            return self.text.len();
        }
        let (start, end) = self.line_bounds(line);
        let mut units = 0u32;
        for (i, c) in self.text[start..end].char_indices() {
            let w = c.len_utf16() as u32;
            if units + w > pos.character {
                return start + i;
            }
            units += w;
        }
        end
    }

    /// The LSP position of a byte offset (clamped to the text and rounded
    /// down to a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.lines.line_of(offset as u32);
        let start = (self.lines.line_start(line) as usize).min(offset);
        let character = self.text[start..offset].encode_utf16().count() as u32;
        Position { line: line as u32, character }
    }

    /// The LSP range of a byte span (clamped).
    pub fn range(&self, span: Span) -> Range {
        Range {
            start: self.position(span.start as usize),
            end: self.position(span.end.max(span.start) as usize),
        }
    }

    /// The byte span of an LSP range (ordered, clamped).
    pub fn span(&self, range: Range) -> Span {
        let (a, b) = (self.offset(range.start), self.offset(range.end));
        Span::new(a.min(b) as u32, a.max(b) as u32)
    }

    /// Replaces a range (or everything) with new text.
    pub fn apply(&mut self, range: Option<Range>, new_text: &str) {
        match range {
            None => self.text = new_text.to_string(),
            Some(r) => {
                let s = self.span(r);
                self.text.replace_range(s.start as usize..s.end as usize, new_text);
            }
        }
        self.lines = LineIndex::new(&self.text);
    }

    /// The number of lines (one more than the number of `\n`).
    pub fn line_count(&self) -> usize {
        self.lines.line_count()
    }

    /// Line `line`'s text without its line break.
    pub fn line(&self, line: usize) -> &str {
        if line >= self.line_count() {
            return "";
        }
        let (s, e) = self.line_bounds(line);
        &self.text[s..e]
    }

    /// The byte offset where line `line` starts.
    pub fn line_start(&self, line: usize) -> usize {
        (self.lines.line_start(line) as usize).min(self.text.len())
    }

    /// The 0-based line of a byte offset.
    pub fn line_of(&self, offset: usize) -> usize {
        self.lines.line_of(offset.min(self.text.len()) as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn positions_count_utf16_units_and_clamp() {
        // `é` is one UTF-16 unit (two bytes), `𝄞` two units (four bytes).
        let t = Text::new("ab\n\té𝄞x\r\nlast".to_string());
        assert_eq!(t.offset(pos(1, 0)), 3);
        assert_eq!(t.offset(pos(1, 2)), 6); // after the tab and é
        assert_eq!(t.offset(pos(1, 4)), 10); // after 𝄞
        assert_eq!(t.offset(pos(1, 3)), 6); // inside the surrogate pair: rounds down
        assert_eq!(t.offset(pos(1, 99)), 11); // past the end of the line: before \r\n
        assert_eq!(t.offset(pos(9, 0)), t.text.len());
        assert_eq!(t.position(10), pos(1, 4));
        assert_eq!(t.position(8), pos(1, 2)); // inside 𝄞's bytes: rounds down
        assert_eq!(t.position(999), pos(2, 4));
        assert_eq!(t.line(1), "\té𝄞x");
    }

    #[test]
    fn edits_apply_to_clamped_ordered_ranges() {
        let mut t = Text::new("abc\ndef".to_string());
        t.apply(Some(Range { start: pos(1, 1), end: pos(0, 1) }), "X");
        assert_eq!(t.text, "aXef");
        t.apply(Some(Range { start: pos(7, 7), end: pos(8, 0) }), "!");
        assert_eq!(t.text, "aXef!");
        assert_eq!(t.line_count(), 1);
    }
}
