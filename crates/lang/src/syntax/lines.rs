//! Physical lines → logical lines (LANGUAGE.md §1.1–1.3), tokens, and the
//! split of a document into top-level sections.
//!
//! A logical line drops one trailing `\r`, and a line ending in `\` joins
//! the next; it keeps a map back to source offsets, so a diagnostic on a
//! continued line points at the original position. Tokens are runs of
//! non-whitespace up to a token that is exactly `#` (a comment). Each logical
//! line is tokenized once per parse into one token buffer per section (an
//! ASCII byte loop; only non-ASCII bytes are decoded, for JavaScript's
//! Unicode spaces), and blank lines and comments come out of the same pass.
//! `split_sections` cuts a document at every non-blank logical line that
//! does not start with a tab.

use std::borrow::Cow;

/// Whitespace as the original tool's regular expressions understand it (`\s`
/// of JavaScript).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// One logical line: a physical line, or several joined by a trailing `\`.
#[derive(Clone, Debug)]
pub struct LogicalLine<'a> {
    /// The line's text, continuations joined (borrowed when there are none).
    pub text: Cow<'a, str>,
    /// Byte offset of the line's first character in the source.
    pub start: u32,
    /// Byte offset just past the last character of its last physical line
    /// (before `\r\n`).
    pub end: u32,
    /// For joined lines: `(offset in text, offset in source)` of each piece.
    pieces: Vec<(u32, u32)>,
}

impl LogicalLine<'_> {
    /// Maps an offset in `text` to an offset in the source.
    #[inline]
    pub fn source_offset(&self, pos: usize) -> u32 {
        let pos = pos as u32;
        if self.pieces.is_empty() {
            return self.start + pos;
        }
        let i = self.pieces.partition_point(|&(p, _)| p <= pos).saturating_sub(1);
        let (p, s) = self.pieces[i];
        s + (pos - p)
    }

    /// Whether the line was joined from several physical lines (its text
    /// is then not a slice of the source, and offsets need mapping).
    #[inline]
    pub fn is_joined(&self) -> bool {
        !self.pieces.is_empty()
    }

    /// Number of leading tab characters.
    pub fn depth(&self) -> usize {
        self.text.bytes().take_while(|&b| b == b'\t').count()
    }

    /// Empty, only whitespace, or a comment line (first token exactly `#`).
    pub fn is_blank(&self) -> bool {
        let t = self.text.trim_start_matches(is_js_space);
        t.is_empty() || (t.starts_with('#') && t[1..].chars().next().is_none_or(is_js_space))
    }

    /// Tokens (maximal runs of non-whitespace) up to a comment token `#`,
    /// with their byte offsets in `text`.
    pub fn tokens(&self) -> Vec<Token<'_>> {
        tokenize(&self.text)
    }
}

/// A token and its position in its logical line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Token<'a> {
    /// The token's text.
    pub text: &'a str,
    /// Byte offset of its first character in the logical line.
    pub pos: usize,
}

impl Token<'_> {
    /// Byte offset just past the token in the logical line.
    pub fn end(&self) -> usize {
        self.pos + self.text.len()
    }
}

/// Appends the tokens of a line to `buf` (as [`Tokens`] yields them) and
/// returns where its comment starts, if it has one. An ASCII line (nearly
/// every line) is cut in one tight loop.
pub fn tokenize_into<'a>(line: &'a str, buf: &mut Vec<Token<'a>>) -> Option<usize> {
    if !line.is_ascii() {
        let mut toks = Tokens::new(line);
        buf.extend(toks.by_ref());
        return toks.comment_start();
    }
    let bytes = line.as_bytes();
    let len = bytes.len();
    let mut i = 0;
    loop {
        while i < len && BYTE_CLASS[bytes[i] as usize] == SPACE {
            i += 1;
        }
        if i >= len {
            return None;
        }
        let s = i;
        while i < len && BYTE_CLASS[bytes[i] as usize] == WORD {
            i += 1;
        }
        if i - s == 1 && bytes[s] == b'#' {
            return Some(s);
        }
        buf.push(Token { text: &line[s..i], pos: s });
    }
}

/// Splits a line into tokens, stopping at a token that is exactly `#`.
pub fn tokenize(line: &str) -> Vec<Token<'_>> {
    Tokens::new(line).collect()
}

/// The tokens of a line without allocating: maximal runs of
/// non-whitespace, up to a token that is exactly `#` (see [`Tokens::comment`]).
pub struct Tokens<'a> {
    line: &'a str,
    pos: usize,
    /// Where the comment starts, once the iterator has reached it.
    comment: Option<usize>,
}

impl<'a> Tokens<'a> {
    /// The tokens of one logical line, first to last.
    pub fn new(line: &'a str) -> Self {
        Tokens { line, pos: 0, comment: None }
    }

    /// Where the comment (`#` token) starts, once the iterator has reached it.
    pub fn comment_start(&self) -> Option<usize> {
        self.comment
    }

    /// Byte offset of the comment (`#` token) in the line, if any.
    pub fn comment(mut self) -> Option<usize> {
        for _ in self.by_ref() {}
        self.comment
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let line = self.line;
        let bytes = line.as_bytes();
        let len = bytes.len();
        let mut i = self.pos;
        // Skip whitespace. Bytes below 0x80 are whole characters; only a
        // non-ASCII byte needs its character decoded (JavaScript's `\s`
        // has non-ASCII spaces).
        while i < len {
            let b = bytes[i];
            let class = BYTE_CLASS[b as usize];
            if class != NON_ASCII {
                if class == WORD {
                    break;
                }
                i += 1;
            } else {
                let c = line[i..].chars().next().unwrap_or(' ');
                if !is_js_space(c) {
                    break;
                }
                i += c.len_utf8();
            }
        }
        if i >= len {
            self.pos = len;
            return None;
        }
        let s = i;
        // The token: a run of word bytes (the common case, one table
        // look-up per byte), decoding only non-ASCII characters.
        while i < len {
            let class = BYTE_CLASS[bytes[i] as usize];
            if class == WORD {
                i += 1;
            } else if class == SPACE {
                break;
            } else {
                let c = line[i..].chars().next().unwrap_or(' ');
                if is_js_space(c) {
                    break;
                }
                i += c.len_utf8();
            }
        }
        self.pos = i;
        if i - s == 1 && bytes[s] == b'#' {
            self.comment = Some(s);
            self.pos = len;
            return None;
        }
        Some(Token { text: &line[s..i], pos: s })
    }
}

/// [`BYTE_CLASS`]: a byte that is not whitespace, an ASCII whitespace byte,
/// or a byte of a non-ASCII character (decoded to tell); [`SCAN_CLASS`] also
/// tells the line break apart.
const WORD: u8 = 0;
const SPACE: u8 = 1;
const NON_ASCII: u8 = 2;
const NEWLINE: u8 = 3;

/// The class of each byte value, for the tokenizer's inner loops.
static BYTE_CLASS: [u8; 256] = byte_classes(SPACE);

/// The class of each byte value: [`BYTE_CLASS`] with `\n` as `newline`.
const fn byte_classes(newline: u8) -> [u8; 256] {
    let mut t = [WORD; 256];
    let mut b = 0;
    while b < 256 {
        if b >= 0x80 {
            t[b] = NON_ASCII;
        } else if is_ascii_js_space(b as u8) {
            t[b] = SPACE;
        }
        b += 1;
    }
    t[b'\n' as usize] = newline;
    t
}

/// [`BYTE_CLASS`] with `\n` as [`NEWLINE`], for [`scan_lines`].
static SCAN_CLASS: [u8; 256] = byte_classes(NEWLINE);

/// The logical lines of a text that hold tokens, and their tokens, read in
/// one pass over the bytes (LANGUAGE.md §1.1–1.3).
///
/// Appends each non-blank line to `lines`, its tokens to `toks` (their range
/// in `ranges`, one per line) and the span of each comment (from the `#`
/// token to the end of its logical line) to `comments`, in order. A line
/// that continues on the next one (`\` at its end) is joined into an owned
/// text, which the tokens cannot borrow while `lines` grows: such lines get an
/// empty range and are returned, for the caller to tokenize with
/// [`tokenize_into`] once `lines` is complete.
///
/// An ASCII physical line (nearly every line) is cut into tokens in the same
/// loop that finds its end; a line with a non-ASCII byte or a continuation
/// is read by [`LogicalLines`] and [`Tokens`] instead, which agree with it.
pub fn scan_lines<'a>(
    src: &'a str,
    lines: &mut Vec<LogicalLine<'a>>,
    toks: &mut Vec<Token<'a>>,
    ranges: &mut Vec<(u32, u32)>,
    comments: &mut Vec<(u32, u32)>,
) -> Vec<usize> {
    scan_lines_from(src, 0, lines, toks, ranges, comments)
}

/// [`scan_lines`] from byte `from` of `src` on (the start of a logical
/// line), offsets still relative to the start of `src`.
pub fn scan_lines_from<'a>(
    src: &'a str,
    from: usize,
    lines: &mut Vec<LogicalLine<'a>>,
    toks: &mut Vec<Token<'a>>,
    ranges: &mut Vec<(u32, u32)>,
    comments: &mut Vec<(u32, u32)>,
) -> Vec<usize> {
    let bytes = src.as_bytes();
    let len = bytes.len();
    let mut deferred = Vec::new();
    let mut pos = from.min(len);
    // Like `LogicalLines`, a text ending with `\n` ends with an empty line,
    // which holds nothing.
    while pos < len {
        let start = pos;
        let first_tok = toks.len();
        let mut i = pos;
        let mut comment = None;
        let mut slow = false;
        loop {
            while i < len && SCAN_CLASS[bytes[i] as usize] == SPACE {
                i += 1;
            }
            if i >= len {
                break;
            }
            match SCAN_CLASS[bytes[i] as usize] {
                NEWLINE => break,
                NON_ASCII => {
                    slow = true;
                    break;
                }
                _ => {}
            }
            let s = i;
            i = word_end(bytes, i + 1);
            // A token followed by a non-ASCII byte may go on (the byte
            // starts a character that is not a space): the next turn sends
            // the line to the general reader, which reads it again.
            if i - s == 1 && bytes[s] == b'#' && bytes.get(i).is_none_or(|&b| b < 0x80) {
                comment = Some(s);
                i = memchr::memchr(b'\n', &bytes[i..]).map_or(len, |k| i + k);
                break;
            }
            toks.push(Token { text: &src[s..i], pos: s - start });
        }
        // `i` is at the line break (or the end of the text), unless `slow`.
        let mut end = i;
        if !slow && end > start && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        if slow || (i < len && end > start && bytes[end - 1] == b'\\') {
            // Read by the general iterator: non-ASCII or joined.
            toks.truncate(first_tok);
            let out = ScanOut { lines: &mut *lines, toks: &mut *toks, ranges: &mut *ranges };
            let Some(next) = general_line(src, start, out, comments, &mut deferred) else {
                break;
            };
            pos = next;
            continue;
        }
        if let Some(c) = comment {
            comments.push((c as u32, (end as u32).max(c as u32)));
        }
        if toks.len() > first_tok {
            ranges.push((first_tok as u32, toks.len() as u32));
            lines.push(LogicalLine {
                text: Cow::Borrowed(&src[start..end]),
                start: start as u32,
                end: end as u32,
                pieces: Vec::new(),
            });
        }
        pos = i + 1;
    }
    deferred
}

/// Where [`scan_lines_from`] puts the lines it reads and their tokens.
struct ScanOut<'o, 'a> {
    lines: &'o mut Vec<LogicalLine<'a>>,
    toks: &'o mut Vec<Token<'a>>,
    ranges: &'o mut Vec<(u32, u32)>,
}

/// The logical line at byte `start` of `src`, read by [`LogicalLines`]
/// and [`Tokens`] (a line with a non-ASCII byte, or one continued by `\`):
/// pushed to `out` (a line whose text is owned is tokenized later: its
/// index goes to `deferred`), its comment to `comments`. Returns where the
/// next line starts, `None` at the end of the text.
fn general_line<'a>(
    src: &'a str,
    start: usize,
    out: ScanOut<'_, 'a>,
    comments: &mut Vec<(u32, u32)>,
    deferred: &mut Vec<usize>,
) -> Option<usize> {
    let ScanOut { lines, toks, ranges } = out;
    let first_tok = toks.len();
    let mut it = LogicalLines { src, pos: start, done: false };
    let line = it.next()?;
    let next = if it.done { src.len() } else { it.pos };
    match line.text {
        Cow::Borrowed(text) => {
            let mut tokens = Tokens::new(text);
            toks.extend(tokens.by_ref());
            if let Some(c) = tokens.comment_start() {
                let c = line.start + c as u32;
                comments.push((c, line.end.max(c)));
            }
            if toks.len() > first_tok {
                ranges.push((first_tok as u32, toks.len() as u32));
                lines.push(line);
            }
        }
        Cow::Owned(_) => {
            deferred.push(lines.len());
            ranges.push((0, 0));
            lines.push(line);
        }
    }
    Some(next)
}

/// The first index at or after `i` whose byte is not a [`WORD`] byte (or
/// the length of `bytes`).
///
/// Eight bytes at a time: a byte below `0x21` or from `0x80` up is the only
/// kind that can end a token, and the lowest such byte of a word is found
/// exactly (the subtraction borrows only upward from it); one that is still
/// a word byte (a control character) is stepped over.
#[inline(always)]
fn word_end(bytes: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    while let Some(chunk) = bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
        let x = u64::from_le_bytes(*chunk);
        let m = (x | x.wrapping_sub(ONES * 0x21)) & HIGH;
        if m == 0 {
            i += 8;
            continue;
        }
        let k = i + (m.trailing_zeros() / 8) as usize;
        if SCAN_CLASS[bytes[k] as usize] != WORD {
            return k;
        }
        i = k + 1;
    }
    while i < bytes.len() && SCAN_CLASS[bytes[i] as usize] == WORD {
        i += 1;
    }
    i
}

/// An ASCII byte that JavaScript's `\s` matches.
#[inline]
const fn is_ascii_js_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}

/// Iterates over the logical lines of a text.
pub struct LogicalLines<'a> {
    src: &'a str,
    pos: usize,
    done: bool,
}

impl<'a> LogicalLines<'a> {
    /// The logical lines of `src`, first to last.
    pub fn new(src: &'a str) -> Self {
        LogicalLines { src, pos: 0, done: false }
    }

    /// Reads one physical line at `self.pos`: (text without `\r`, start, end without `\r`).
    fn physical(&mut self) -> (&'a str, usize, usize, bool) {
        let start = self.pos;
        let rest = &self.src[start..];
        let (mut end, has_next) = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => (start + i, true),
            None => (self.src.len(), false),
        };
        self.pos = end + 1;
        if !has_next {
            self.done = true;
        }
        if end > start && self.src.as_bytes()[end - 1] == b'\r' {
            end -= 1;
        }
        (&self.src[start..end], start, end, has_next)
    }
}

impl<'a> Iterator for LogicalLines<'a> {
    type Item = LogicalLine<'a>;

    fn next(&mut self) -> Option<LogicalLine<'a>> {
        if self.done {
            return None;
        }
        let (text, start, mut end, mut has_next) = self.physical();
        if !(text.ends_with('\\') && has_next) {
            return Some(LogicalLine {
                text: Cow::Borrowed(text),
                start: start as u32,
                end: end as u32,
                pieces: Vec::new(),
            });
        }
        let mut joined = String::from(text);
        let mut pieces = vec![(0u32, start as u32)];
        while joined.ends_with('\\') && has_next {
            joined.pop();
            joined.push(' ');
            let (next, nstart, nend, nnext) = self.physical();
            pieces.push((joined.len() as u32, nstart as u32));
            joined.push_str(next);
            end = nend;
            has_next = nnext;
        }
        Some(LogicalLine { text: Cow::Owned(joined), start: start as u32, end: end as u32, pieces })
    }
}

/// Where a top-level section lies in a document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SectionSlice {
    /// Byte offset of the section's first line (its header, or for a
    /// leading block of indented lines, the first of them).
    pub start: u32,
    /// Byte offset where the next section starts (or the end of the text).
    pub end: u32,
}

/// Splits a document into sections: each starts at a non-blank logical line
/// that does not begin with a tab (LANGUAGE.md §1.5). Blank and comment lines
/// belong to the section before them. Indented lines before the first
/// section form a section of their own (which starts no valid section).
///
/// This runs on every keystroke over the whole text, so it looks at bytes:
/// one vectorized scan for line breaks, and only a line that does not start
/// with a tab (once a section is open) is looked at further. A physical line
/// continues the one before it when that one ends with `\\` (before an
/// optional `\r`), which is all [`LogicalLines`] joins on.
pub fn split_sections(text: &str) -> Vec<SectionSlice> {
    split_sections_at(text, memchr::memchr_iter(b'\n', text.as_bytes()))
}

/// [`split_sections`] given the offsets of the text's line breaks, in order
/// (the compiler has them already, in its [`super::LineIndex`]).
pub fn split_sections_at(
    text: &str,
    line_breaks: impl IntoIterator<Item = usize>,
) -> Vec<SectionSlice> {
    let bytes = text.as_bytes();
    let mut out: Vec<SectionSlice> = Vec::new();
    let mut current: Option<u32> = None;
    let mut consider = |start: usize, current: &mut Option<u32>| {
        if start >= bytes.len() || (bytes[start] == b'\t' && current.is_some()) {
            return;
        }
        if LogicalLines::new(&text[start..]).next().is_none_or(|l| l.is_blank()) {
            return;
        }
        if let Some(s) = *current {
            out.push(SectionSlice { start: s, end: start as u32 });
        }
        *current = Some(start as u32);
    };
    consider(0, &mut current);
    for nl in line_breaks {
        let start = nl + 1;
        if start >= bytes.len() || (bytes[start] == b'\t' && current.is_some()) {
            continue;
        }
        // Skip a physical line that continues the one before it.
        let mut content_end = nl;
        if content_end > 0 && bytes[content_end - 1] == b'\r' {
            content_end -= 1;
        }
        if content_end > 0 && bytes[content_end - 1] == b'\\' {
            continue;
        }
        consider(start, &mut current);
    }
    if let Some(s) = current {
        out.push(SectionSlice { start: s, end: text.len() as u32 });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continuation_joins_lines_and_maps_offsets() {
        let src = "a \\\r\nb c\nd";
        let lines: Vec<_> = LogicalLines::new(src).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].text, "a  b c");
        // 'b' is at index 3 in the joined text and at byte 5 in the source.
        assert_eq!(lines[0].source_offset(3), 5);
        assert_eq!(lines[1].text, "d");
        assert_eq!(lines[1].start, 9);
    }

    /// The one-loop ASCII tokenizer agrees with the iterator.
    #[test]
    fn tokenize_into_matches_tokens() {
        for line in [
            "",
            " ",
            "\t\tx 0 -> 10 # c",
            "#",
            "# x",
            "a#b #",
            "\u{a0}x\u{2003}y",
            "é z\t#\t",
            "a\x0bb\x0cc\rd",
        ] {
            let mut buf = Vec::new();
            let comment = tokenize_into(line, &mut buf);
            let mut it = Tokens::new(line);
            let want: Vec<Token<'_>> = it.by_ref().collect();
            assert_eq!(buf, want, "{line:?}");
            assert_eq!(comment, it.comment_start(), "{line:?}");
        }
    }

    /// The one-pass scanner agrees with `LogicalLines` and `Tokens`: the same
    /// non-blank lines (text, start, end, offsets), tokens and comments.
    /// A line as read: text, start, end, source offsets, tokens.
    type Seen<'a> = (String, u32, u32, Vec<u32>, Vec<Token<'a>>);

    #[test]
    fn scan_lines_matches_logical_lines_and_tokens() {
        for text in [
            "",
            "\n",
            "skeleton #FC0\n\tb0 l35 x-10\n\t\t@ :rect w10\n",
            "anim \"a\"\r\n\tb0 :4:li\r\n\t\tx 0 -> 1 # c\r\n\r\n# top\r\n",
            "a \\\r\nb c\nd",
            "a \\\nb \\\n\\\n c # x \\\n y\nz\\",
            "\t# only a comment\n\t\t#\n#x y\n",
            "é z\t#\t\n\u{a0}x\u{2003}y\nq\u{3000}",
            "a\x0bb\x0cc\rd\r",
            "\\",
            "x\\\n",
            "# c \\\nstill comment\nnext",
            "t é # ü\nok\n",
        ] {
            let (mut lines, mut toks, mut ranges, mut comments) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let deferred = scan_lines(text, &mut lines, &mut toks, &mut ranges, &mut comments);
            let mut toks: Vec<Token<'_>> = toks;
            for &i in &deferred {
                let start = toks.len();
                if let Some(c) = tokenize_into(&lines[i].text, &mut toks) {
                    let c = lines[i].source_offset(c);
                    comments.push((c, lines[i].end.max(c)));
                }
                ranges[i] = (start as u32, toks.len() as u32);
            }
            comments.sort_unstable();
            let got: Vec<Seen<'_>> = lines
                .iter()
                .zip(&ranges)
                .filter(|(_, r)| r.1 > r.0)
                .map(|(l, &(a, b))| {
                    let offsets = (0..=l.text.len()).map(|p| l.source_offset(p)).collect();
                    (
                        l.text.to_string(),
                        l.start,
                        l.end,
                        offsets,
                        toks[a as usize..b as usize].to_vec(),
                    )
                })
                .collect();
            let all: Vec<LogicalLine<'_>> = LogicalLines::new(text).collect();
            let mut want_comments = Vec::new();
            let want: Vec<Seen<'_>> = all
                .iter()
                .filter_map(|l| {
                    let mut it = Tokens::new(&l.text);
                    let t: Vec<Token<'_>> = it.by_ref().collect();
                    if let Some(c) = it.comment_start() {
                        let c = l.source_offset(c);
                        want_comments.push((c, l.end.max(c)));
                    }
                    let offsets = (0..=l.text.len()).map(|p| l.source_offset(p)).collect();
                    (!t.is_empty()).then(|| (l.text.to_string(), l.start, l.end, offsets, t))
                })
                .collect();
            assert_eq!(got, want, "{text:?}");
            assert_eq!(comments, want_comments, "{text:?}");
        }
    }

    /// The eight-bytes-at-a-time token end agrees with a byte-by-byte scan,
    /// on every start in texts mixing word bytes, spaces, control
    /// characters and non-ASCII bytes.
    #[test]
    fn word_end_matches_a_byte_loop() {
        let alphabet = b"ab#.-09:>{}\t\n\r \x0b\x0c\x01\x1f\x7f\xc3\xa9\x80\xff";
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for len in 0..40 {
            for _ in 0..50 {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        alphabet[(x % alphabet.len() as u64) as usize]
                    })
                    .collect();
                for start in 0..=len {
                    let want = (start..len)
                        .find(|&k| SCAN_CLASS[bytes[k] as usize] != WORD)
                        .unwrap_or(len);
                    assert_eq!(word_end(&bytes, start), want, "{bytes:?} from {start}");
                }
            }
        }
    }

    #[test]
    fn comment_token_ends_the_line_but_colors_do_not() {
        let toks: Vec<_> =
            tokenize("\tbone #F00 # a comment").into_iter().map(|t| t.text).collect();
        assert_eq!(toks, vec!["bone", "#F00"]);
        assert!(LogicalLines::new("\t# note").next().unwrap().is_blank());
        assert!(!LogicalLines::new("#note").next().unwrap().is_blank());
    }

    /// `split_sections` against its definition over logical lines: a
    /// section starts at each non-blank logical line that does not start with
    /// a tab (or, before the first section, at any non-blank line).
    #[test]
    fn split_sections_matches_logical_lines() {
        fn reference(text: &str) -> Vec<SectionSlice> {
            let mut starts: Vec<u32> = Vec::new();
            for l in LogicalLines::new(text) {
                if !l.is_blank() && (!l.text.starts_with('\t') || starts.is_empty()) {
                    starts.push(l.start);
                }
            }
            let ends = starts.iter().skip(1).copied().chain([text.len() as u32]);
            starts.iter().zip(ends).map(|(&start, end)| SectionSlice { start, end }).collect()
        }
        let cases = [
            "",
            "\n",
            "skeleton",
            "\tbone\nskeleton\n\tb\n",
            "skeleton\n\ta \\\nanim \"x\"\nanim \"y\"\n",
            "skeleton\r\n\ta\r\nanim \\\r\n\"x\"\r\n\tb\r\n",
            "\\\nskeleton\n\\\n\\\nanim\n",
            "# c\n\n  \nskeleton\n# note\n\t# x\nanim \"a\"\n\r\n\r",
            "a\\\r\n\r\nb\n\tc\\\nd\ne\\",
            "\t\\\nx\ny\n",
        ];
        for text in cases {
            assert_eq!(split_sections(text), reference(text), "{text:?}");
        }
    }

    #[test]
    fn sections_start_at_column_zero() {
        let src = "# c\nskeleton\n\tbone\n\nanim \"a\"\n\tbone\n";
        let s = split_sections(src);
        assert_eq!(s.len(), 2);
        assert_eq!(&src[s[0].start as usize..s[0].end as usize], "skeleton\n\tbone\n\n");
        assert_eq!(&src[s[1].start as usize..s[1].end as usize], "anim \"a\"\n\tbone\n");
    }
}
