//! Diagnostics: what every stage reports about the text.
//!
//! A message quotes what the user wrote through `clip` (at most
//! `QUOTE_CHARS`, 60 characters, then `…`) and lists names through
//! `quote_list` (at most `LIST_NAMES`, 6, then "and N more"), so a message
//! stays short whatever the input (`tests/suite/bad_input.rs` makes every
//! token of every sample 3000 characters long).

use std::fmt;

/// A byte range. Inside a section tree it is relative to the section's first
/// byte; in a compilation (`compile::Compilation`) it is relative to the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// Offset of the first byte.
    pub start: u32,
    /// Offset just past the last byte.
    pub end: u32,
}

impl Span {
    /// The bytes `start..end`.
    pub const fn new(start: u32, end: u32) -> Self {
        Span { start, end }
    }

    /// The same span `by` bytes later (section offsets → document offsets).
    /// Wrapping: a span moved back by `n` bytes is shifted by `0u32 -
    /// n` (how an edit that shortened the text moves what follows it).
    pub fn shifted(self, by: u32) -> Span {
        Span { start: self.start.wrapping_add(by), end: self.end.wrapping_add(by) }
    }

    /// The smallest span holding both.
    pub fn cover(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    /// As a range for slicing the text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// Whether `offset` lies inside (an empty span contains its own position).
    pub fn contains(self, offset: u32) -> bool {
        self.start <= offset && offset <= self.end
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The line or token is ignored; the script has errors.
    Error,
    /// Accepted, but probably not what was meant.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One message about the text, with where it applies and how to fix it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The bytes it is about.
    pub span: Span,
    /// Says what is wrong and what was expected.
    pub message: String,
    /// Suggestions: "indent with tabs", "did you mean `arm.forearm`?", the
    /// candidates of an ambiguous reference, the valid properties, …
    pub hints: Vec<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, span, message: message.into(), hints: Vec::new() }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, span, message: message.into(), hints: Vec::new() }
    }

    /// Adds a suggestion.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hints.push(hint.into());
        self
    }

    /// The same diagnostic with its span `by` bytes later.
    pub fn shifted(mut self, by: u32) -> Self {
        self.span = self.span.shifted(by);
        self
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The most characters of a token or name a message quotes (see [`clip`]).
pub const QUOTE_CHARS: usize = 60;

/// Text quoted into a message, at most [`QUOTE_CHARS`] characters of it
/// followed by `…` when it is longer: a 200 KB "word" (a binary file opened
/// by mistake, a line without spaces) makes a message of one line, not of
/// 200 KB. Every message that quotes a token, a name or a reference the
/// user wrote goes through it: `format!("unknown bone `{}`", clip(name))`.
pub fn clip(text: &str) -> Clip<'_> {
    Clip(text)
}

/// The most names a message lists (see [`quote_list`]).
pub const LIST_NAMES: usize = 6;

/// Names listed in a message: each quoted in backticks and [`clip`]ped, at
/// most [`LIST_NAMES`] of them, then "and N more" (a slot with a thousand
/// attachments is listed in one short line). Empty for no names.
pub fn quote_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::new();
    let mut more = 0usize;
    for (i, name) in names.into_iter().enumerate() {
        if i >= LIST_NAMES {
            more += 1;
            continue;
        }
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&format!("`{}`", clip(name)));
    }
    if more > 0 {
        out.push_str(&format!(" and {more} more"));
    }
    out
}

/// What [`clip`] returns: displays the clipped text.
#[derive(Clone, Copy, Debug)]
pub struct Clip<'a>(&'a str);

impl fmt::Display for Clip<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.char_indices().nth(QUOTE_CHARS) {
            None => f.write_str(self.0),
            Some((cut, _)) => {
                f.write_str(&self.0[..cut])?;
                f.write_str("…")
            }
        }
    }
}

/// Maps byte offsets of a document to 1-based lines and columns (columns
/// count characters, so a tab is one column).
#[derive(Clone, Debug, Default)]
pub struct LineIndex {
    line_starts: Vec<u32>,
}

/// A 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LineCol {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub column: u32,
}

impl LineIndex {
    /// The line starts of `text`.
    pub fn new(text: &str) -> Self {
        let mut line_starts = Vec::with_capacity(text.len() / 32 + 1);
        line_starts.push(0u32);
        line_starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i as u32 + 1));
        LineIndex { line_starts }
    }

    /// The index of a text whose line starts are `line_starts` (0 first,
    /// then one past each `\n`, in order): what [`LineIndex::new`] would
    /// compute, when the caller worked them out another way (the compiler
    /// updates them from the previous text).
    pub fn from_line_starts(line_starts: Vec<u32>) -> Self {
        debug_assert!(line_starts.first() == Some(&0));
        LineIndex { line_starts }
    }

    /// Line starts: 0, then one past each `\n`.
    pub fn line_starts(&self) -> &[u32] {
        &self.line_starts
    }

    /// Offsets of the line breaks (`\n`), in order.
    pub fn line_breaks(&self) -> impl Iterator<Item = usize> + '_ {
        self.line_starts.get(1..).unwrap_or_default().iter().map(|&s| s as usize - 1)
    }

    /// 0-based line number of an offset.
    pub fn line_of(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        }
    }

    /// Offset of the first byte of 0-based `line` (`u32::MAX` past the end).
    pub fn line_start(&self, line: usize) -> u32 {
        self.line_starts.get(line).copied().unwrap_or(u32::MAX)
    }

    /// Number of lines (a text without a line break has one).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The 1-based line and column of `offset` in `text`.
    pub fn line_col(&self, text: &str, offset: u32) -> LineCol {
        let line = self.line_of(offset);
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(text.len());
        let column =
            text.get(start..end).map_or(end.saturating_sub(start), |s| s.chars().count()) + 1;
        LineCol { line: line as u32 + 1, column: column as u32 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_text_is_clipped_at_sixty_characters() {
        assert_eq!(clip("arm.forearm").to_string(), "arm.forearm");
        let exact = "é".repeat(QUOTE_CHARS);
        assert_eq!(clip(&exact).to_string(), exact, "exactly the limit is kept whole");
        let long = format!("{}xyz", "é".repeat(QUOTE_CHARS));
        assert_eq!(clip(&long).to_string(), format!("{exact}…"));
        assert_eq!(clip("").to_string(), "");
    }

    #[test]
    fn listed_names_are_few_and_clipped() {
        assert_eq!(quote_list([]), "");
        assert_eq!(quote_list(["a", "b"]), "`a`, `b`");
        let many: Vec<String> = (0..9).map(|i| format!("n{i}")).collect();
        assert_eq!(
            quote_list(many.iter().map(String::as_str)),
            "`n0`, `n1`, `n2`, `n3`, `n4`, `n5` and 3 more"
        );
        let long = "x".repeat(100);
        assert_eq!(quote_list([long.as_str()]), format!("`{}…`", "x".repeat(QUOTE_CHARS)));
    }

    #[test]
    fn line_columns_count_characters() {
        let text = "ab\n\tcé d\n";
        let idx = LineIndex::new(text);
        assert_eq!(idx.line_col(text, 0), LineCol { line: 1, column: 1 });
        assert_eq!(idx.line_col(text, 3), LineCol { line: 2, column: 1 });
        // 'd' comes after a tab, 'c' and the two-byte 'é' and a space.
        let d = text.find('d').unwrap() as u32;
        assert_eq!(idx.line_col(text, d), LineCol { line: 2, column: 5 });
    }
}
