//! What an edit changed: the bytes a new text shares with the previous one
//! at both ends, found with block comparisons (no per-line work), and the
//! line starts of the new text rebuilt from the previous ones, so an update
//! scans only the edited part of the document for line breaks.

/// Bytes compared at once while looking for the first difference.
const BLOCK: usize = 256;

/// The length of the longest common prefix of `a` and `b`.
pub(super) fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    if a[..n] == b[..n] {
        return n;
    }
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The length of the longest common suffix of `a` and `b`.
pub(super) fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    if a == b {
        return n;
    }
    let mut i = 0;
    while i + BLOCK <= n && a[n - i - BLOCK..n - i] == b[n - i - BLOCK..n - i] {
        i += BLOCK;
    }
    while i < n && a[n - 1 - i] == b[n - 1 - i] {
        i += 1;
    }
    i
}

/// The common prefix and suffix lengths `(p, s)` of the previous text,
/// given as consecutive `pieces`, and `new`; they do not overlap in either
/// text (`p + s` is at most the length of each).
pub(super) fn edit_window(pieces: &[&[u8]], new: &[u8]) -> (usize, usize) {
    let old_len: usize = pieces.iter().map(|p| p.len()).sum();
    let mut p = 0;
    for piece in pieces {
        let n = common_prefix(piece, &new[p..]);
        p += n;
        if n < piece.len() {
            break;
        }
    }
    let mut s = 0;
    let mut old_end = old_len;
    for piece in pieces.iter().rev() {
        let piece_start = old_end - piece.len();
        // Only the part after the prefix, on both sides.
        let lo = piece_start.max(p);
        let old_part = &piece[lo - piece_start..];
        let n = common_suffix(old_part, &new[p..new.len() - s]);
        s += n;
        if n < old_part.len() || lo > piece_start {
            break;
        }
        old_end = piece_start;
    }
    (p, s)
}

/// Turns the line starts (0, then one past each `\n`) of the previous
/// text (`starts`, of a text of length `old_len`) into those of `new` when
/// the two share `p` bytes at the start and `s` at the end: only
/// `new[p..len − s]` is scanned, the starts after it are moved in place.
pub(super) fn update_line_starts(
    starts: &mut Vec<u32>,
    old_len: usize,
    new: &[u8],
    p: usize,
    s: usize,
) {
    // A line start x ≥ 1 is one past a `\n` at x − 1.
    let keep = starts.partition_point(|&x| x as usize <= p);
    let tail = starts.partition_point(|&x| x as usize <= old_len - s);
    // Moved by the change in length (modulo 2³², which the result fits).
    let moved = (new.len() as u32).wrapping_sub(old_len as u32);
    for x in &mut starts[tail..] {
        *x = x.wrapping_add(moved);
    }
    let inserted = memchr::memchr_iter(b'\n', &new[p..new.len() - s]).map(|j| (p + j + 1) as u32);
    starts.splice(keep..tail, inserted);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::LineIndex;
    use proptest::prelude::*;

    fn pieces_of<'a>(text: &'a str, cuts: &[usize]) -> Vec<&'a [u8]> {
        let mut cuts: Vec<usize> = cuts.iter().map(|&c| c % (text.len() + 1)).collect();
        cuts.push(0);
        cuts.push(text.len());
        cuts.sort_unstable();
        cuts.dedup();
        cuts.windows(2).map(|w| &text.as_bytes()[w[0]..w[1]]).collect()
    }

    proptest! {
        /// The window is the longest common prefix and, after it, the
        /// longest common suffix, whatever the pieces; the line starts
        /// rebuilt from it equal a fresh scan.
        #[test]
        fn window_and_line_starts_match_a_fresh_scan(
            old in "[ab\\n]{0,700}",
            new in "[ab\\n]{0,700}",
            cuts in proptest::collection::vec(0usize..800, 0..6),
        ) {
            let pieces = pieces_of(&old, &cuts);
            let (p, s) = edit_window(&pieces, new.as_bytes());
            let (o, n) = (old.as_bytes(), new.as_bytes());
            let naive_p = o.iter().zip(n).take_while(|(a, b)| a == b).count();
            prop_assert_eq!(p, naive_p);
            let naive_s = o[p..].iter().rev().zip(n[p..].iter().rev()).take_while(|(a, b)| a == b).count();
            prop_assert_eq!(s, naive_s);
            let mut starts = LineIndex::new(&old).line_starts().to_vec();
            update_line_starts(&mut starts, old.len(), n, p, s);
            let fresh = LineIndex::new(&new);
            prop_assert_eq!(starts.as_slice(), fresh.line_starts());
        }

        /// Near-identical long texts (one edit), as in the editor.
        #[test]
        fn one_edit_in_a_long_text(
            base in "[ab\\n]{300,2000}",
            at in 0usize..2000,
            del in 0usize..5,
            ins in "[ab\\n]{0,4}",
            cuts in proptest::collection::vec(0usize..2000, 0..8),
        ) {
            let at = at % (base.len() + 1);
            let end = (at + del).min(base.len());
            let new = format!("{}{}{}", &base[..at], ins, &base[end..]);
            let pieces = pieces_of(&base, &cuts);
            let (p, s) = edit_window(&pieces, new.as_bytes());
            prop_assert!(p + s <= base.len().min(new.len()));
            prop_assert_eq!(&base.as_bytes()[..p], &new.as_bytes()[..p]);
            prop_assert_eq!(&base.as_bytes()[base.len() - s..], &new.as_bytes()[new.len() - s..]);
            let mut starts = LineIndex::new(&base).line_starts().to_vec();
            update_line_starts(&mut starts, base.len(), new.as_bytes(), p, s);
            let fresh = LineIndex::new(&new);
            prop_assert_eq!(starts.as_slice(), fresh.line_starts());
        }
    }
}
