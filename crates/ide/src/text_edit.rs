//! The one shape of a change to a script's text: [`TextEdit`], a byte span
//! and what replaces it. Every feature that changes text answers with
//! these — rename and formatting ([`crate::analysis`]), the canvas
//! write-back, the dopesheet's key edits and the animation operations
//! ([`crate::edits`]) — and every front end applies them: the language
//! server sends them as LSP `TextEdit`s, the editor applies a list as one
//! undo step ([`apply`]), a [`crate::document::Document`] takes them in
//! `apply` (its `update` takes a client's changes, each on the text the
//! ones before it left, as LSP's `didChange` sends them).
//!
//! A feature's answer is a list of edits that all refer to the text it was
//! given (not to the text the edits before them left), that do not
//! overlap, and whose insertions at one offset appear in the list's order:
//! LSP's rules for the edits of one document in a `WorkspaceEdit`.

use skelpad_lang::syntax::Span;

/// One change of a text: the bytes of `span` replaced by `insert`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextEdit {
    /// The bytes replaced (empty: an insertion at `span.start`).
    pub span: Span,
    /// The text put in their place (empty: a deletion).
    pub insert: String,
}

impl TextEdit {
    /// Replaces `span` with `insert`.
    pub fn new(span: Span, insert: impl Into<String>) -> Self {
        TextEdit { span, insert: insert.into() }
    }

    /// Inserts `insert` at byte `at`.
    pub fn insert(at: usize, insert: impl Into<String>) -> Self {
        TextEdit::new(Span::new(at as u32, at as u32), insert)
    }

    /// Replaces the bytes `range` with `insert`.
    pub fn replace(range: std::ops::Range<usize>, insert: impl Into<String>) -> Self {
        TextEdit::new(Span::new(range.start as u32, range.end as u32), insert)
    }

    /// The bytes replaced, as a range.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.span.range()
    }
}

/// `text` with `edits` applied: every span refers to `text`; edits are taken
/// in the order of their starts (insertions at one offset in the list's
/// order). Spans are clamped to the text and to character boundaries; an
/// edit that overlaps the one before it is a caller's mistake and is left
/// out (the features here never make one).
pub fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut order: Vec<&TextEdit> = edits.iter().collect();
    order.sort_by_key(|e| e.span.start.min(e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut done = 0usize;
    for e in order {
        let (a, b) = (e.span.start.min(e.span.end) as usize, e.span.start.max(e.span.end) as usize);
        let (a, b) = (floor_char(text, a), floor_char(text, b));
        debug_assert!(a >= done, "overlapping text edits: {edits:?}");
        if a < done {
            continue;
        }
        out.push_str(&text[done..a]);
        out.push_str(&e.insert);
        done = b;
    }
    out.push_str(&text[done..]);
    out
}

/// `at` clamped to `text` and moved back to the start of its character.
pub(crate) fn floor_char(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_refer_to_the_original_text_in_any_order() {
        let text = "abc def ghi";
        let edits = [
            TextEdit::replace(8..11, "G"),
            TextEdit::replace(0..3, "alpha"),
            TextEdit::insert(4, "<"),
            TextEdit::insert(4, ">"),
            TextEdit::replace(4..7, "D"),
        ];
        // Insertions at one offset in the list's order, before the
        // replacement that starts there (LSP's rule).
        assert_eq!(apply(text, &edits), "alpha <>D G");
        // Clamped: past the end, inside a character.
        assert_eq!(apply("é", &[TextEdit::new(Span::new(1, 9), "e")]), "e");
        assert_eq!(apply("ab", &[]), "ab");
    }
}
