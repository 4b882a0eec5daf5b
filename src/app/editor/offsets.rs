//! Byte and character offsets in the script (egui's text field counts
//! characters, the compiler bytes), offsets that follow a replacement, and
//! the whole-line edits the editor makes (indent, outdent, insert a line).

use std::ops::Range;

/// Byte offset of the character at `char_index` (the end for an index past it).
pub fn byte_of_char(text: &str, char_index: usize) -> usize {
    if text.is_ascii() {
        return char_index.min(text.len());
    }
    text.char_indices().nth(char_index).map_or(text.len(), |(b, _)| b)
}

/// Where byte `at` of `old` is in `new`, `new` being `old` with one range
/// replaced (found as the common prefix and suffix): before the change it
/// stays, after it it moves with the text, inside it it goes to the end of
/// the new text there.
pub fn map_offset(old: &str, new: &str, at: usize) -> usize {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    let prefix = o.iter().zip(n).take_while(|(a, b)| a == b).count();
    let room = o.len().min(n.len()) - prefix;
    let suffix = o.iter().rev().zip(n.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let mapped = if at <= prefix {
        at
    } else if at >= o.len() - suffix {
        at + n.len() - o.len()
    } else {
        n.len() - suffix
    };
    floor_boundary(new, mapped)
}

/// `byte` clamped to the text and moved back to a character boundary.
pub fn floor_boundary(text: &str, byte: usize) -> usize {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    b
}

/// Character index of the byte offset `byte` (rounded down to a character).
pub fn char_of_byte(text: &str, byte: usize) -> usize {
    text[..floor_boundary(text, byte)].chars().count()
}

/// Byte offset of the start of the line holding `byte`.
pub fn line_start(text: &str, byte: usize) -> usize {
    text[..byte].rfind('\n').map_or(0, |i| i + 1)
}

/// Indents (one tab) or outdents (one tab, or up to four spaces) every line
/// touched by the byte range `sel`; returns the byte range of those lines.
pub fn shift_lines(text: &mut String, sel: Range<usize>, indent: bool) -> Range<usize> {
    let first = line_start(text, sel.start);
    // A selection that ends at the start of a line does not include it.
    let last_byte =
        if sel.end > sel.start && text[..sel.end].ends_with('\n') { sel.end - 1 } else { sel.end };
    let last = line_start(text, last_byte.max(first));
    let mut starts: Vec<usize> = vec![first];
    starts.extend(text[first..last].match_indices('\n').map(|(i, _)| first + i + 1));
    let mut delta: isize = 0;
    let mut last_start = first;
    for s in starts {
        let s = (s as isize + delta) as usize;
        last_start = s;
        if indent {
            text.insert(s, '\t');
            delta += 1;
        } else {
            let n = if text[s..].starts_with('\t') {
                1
            } else {
                text[s..].bytes().take(4).take_while(|b| *b == b' ').count()
            };
            text.replace_range(s..s + n, "");
            delta -= n as isize;
        }
    }
    let end = text[last_start..].find('\n').map_or(text.len(), |i| last_start + i);
    first..end
}

/// Inserts `line` as a line of its own at byte `at`: before the cursor's
/// line when `at` is at its start, in place of it when it is blank, else
/// after it. Returns the byte offset just after the inserted text.
pub fn insert_line(text: &mut String, at: usize, line: &str) -> usize {
    let start = line_start(text, at);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    if text[start..end].trim().is_empty() {
        text.replace_range(start..end, line);
        start + line.len()
    } else if at == start {
        text.insert_str(start, &format!("{line}\n"));
        start + line.len()
    } else {
        text.insert_str(end, &format!("\n{line}"));
        end + 1 + line.len()
    }
}

/// Inserts `words` at byte `at` (a char boundary), with a space before
/// them unless the line or a space is already there, and one after them
/// unless the line ends or a space follows; returns the offset after the
/// words.
pub fn insert_words(text: &mut String, at: usize, words: &str) -> usize {
    let spaced = |c: Option<char>| c.is_none_or(|c| c == '\n' || c.is_whitespace());
    let before = if spaced(text[..at].chars().next_back()) { "" } else { " " };
    let after = if spaced(text[at..].chars().next()) { "" } else { " " };
    text.insert_str(at, &format!("{before}{words}{after}"));
    at + before.len() + words.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_go_between_the_lines_words_with_one_space() {
        let mut t = String::from("\tarm l10\n");
        assert_eq!(insert_words(&mut t, 8, "r45"), 12);
        assert_eq!(t, "\tarm l10 r45\n");
        assert_eq!(insert_words(&mut t, 5, "x2"), 7);
        assert_eq!(t, "\tarm x2 l10 r45\n");
        let mut t = String::from("\tarm \n");
        assert_eq!(insert_words(&mut t, 5, "l1"), 7);
        assert_eq!(t, "\tarm l1\n");
        let mut t = String::new();
        assert_eq!(insert_words(&mut t, 0, "order"), 5);
        assert_eq!(t, "order");
    }

    #[test]
    fn shifting_lines_indents_and_outdents_whole_lines() {
        let mut t = String::from("a\n\tb\n    c\nd");
        let r = shift_lines(&mut t, 0..4, true);
        assert_eq!(t, "\ta\n\t\tb\n    c\nd");
        assert_eq!(&t[r], "\ta\n\t\tb");
        let r = shift_lines(&mut t, 4..9, false);
        assert_eq!(t, "\ta\n\tb\nc\nd");
        assert_eq!(&t[r], "\tb\nc");
        // Nothing to remove: unchanged.
        let end = t.len();
        let r = shift_lines(&mut t, end..end, false);
        assert_eq!(t, "\ta\n\tb\nc\nd");
        assert_eq!(&t[r], "d");
    }

    #[test]
    fn inserted_lines_go_before_into_or_after_the_cursor_line() {
        let mut t = String::from("a\n\t\nbc");
        assert_eq!(insert_line(&mut t, 0, "X"), 1);
        assert_eq!(t, "X\na\n\t\nbc");
        // A blank line is replaced.
        assert_eq!(insert_line(&mut t, 5, "Y"), 5);
        assert_eq!(t, "X\na\nY\nbc");
        // In the middle of a line: after it.
        assert_eq!(insert_line(&mut t, 7, "Z"), 10);
        assert_eq!(t, "X\na\nY\nbc\nZ");
        let mut e = String::new();
        assert_eq!(insert_line(&mut e, 0, "skeleton"), 8);
        assert_eq!(e, "skeleton");
    }

    #[test]
    fn offsets_follow_a_replacement() {
        let old = "a x5 b\nleg\n";
        let new = "a x12.5 b\nleg\n";
        assert_eq!(map_offset(old, new, 0), 0);
        assert_eq!(map_offset(old, new, old.find("leg").unwrap()), new.find("leg").unwrap());
        assert_eq!(map_offset(old, new, old.len()), new.len());
        // Inside the replaced digits: the end of the new ones.
        assert_eq!(map_offset(old, new, 4), new.find(" b").unwrap());
        // A shorter text.
        assert_eq!(map_offset(new, old, new.find("leg").unwrap()), old.find("leg").unwrap());
        assert_eq!(map_offset("abc", "abc", 2), 2);
        assert_eq!(map_offset("é\nx", "éé\nx", 3), 5);
    }

    #[test]
    fn char_and_byte_offsets_convert_both_ways() {
        let t = "é\tx";
        assert_eq!(byte_of_char(t, 1), 2);
        assert_eq!(char_of_byte(t, 2), 1);
        assert_eq!(char_of_byte(t, 1), 0);
        assert_eq!(byte_of_char(t, 10), t.len());
        assert_eq!(floor_boundary(t, 1), 0);
        assert_eq!(floor_boundary(t, 99), t.len());
    }
}
