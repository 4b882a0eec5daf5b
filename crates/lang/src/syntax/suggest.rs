//! "Did you mean …?": the closest of a few known words to a misspelt one,
//! by Damerau–Levenshtein distance. Used for section keywords, easings and
//! attachment types here, and for names by the compiler.

/// The largest edit distance at which `word` still suggests something: a
/// third of its length, at least 1 (`forarm` → `forearm`, but `x` → nothing
/// far).
pub fn max_distance(word: &str) -> usize {
    (word.chars().count() / 3).max(1)
}

/// The longest word, in characters, that is compared letter by letter
/// with others; a longer one suggests nothing.
pub const LONGEST_SUGGESTED: usize = 256;

/// The edit distance between two words (Damerau–Levenshtein: a swap of two
/// neighbouring letters counts once).
pub fn distance(a: &str, b: &str) -> usize {
    strsim::damerau_levenshtein(a, b)
}

/// A misspelt word, ready to be compared with many candidates: each
/// candidate whose length or letter counts put it beyond
/// [`max_distance`] of the word is rejected before any distance is
/// computed (the distance is at least the length difference, and at least
/// half the letter-count difference: a substitution takes one letter and
/// gives another, a swap changes none). Names of very different lengths or
/// letters cost a count each; similar ones still get a distance table.
pub struct Near<'a> {
    word: &'a str,
    max: usize,
    chars: usize,
    /// How often each ASCII byte occurs in the word (`None`: not ASCII).
    letters: Option<[i32; 128]>,
}

impl<'a> Near<'a> {
    /// `word`, to compare with candidates.
    pub fn new(word: &'a str) -> Near<'a> {
        let letters = word.is_ascii().then(|| {
            let mut counts = [0i32; 128];
            for b in word.bytes() {
                counts[b as usize] += 1;
            }
            counts
        });
        Near { word, max: max_distance(word), chars: word.chars().count(), letters }
    }

    /// The distance from the word to `candidate` when it is within
    /// [`max_distance`] of the word, else `None`.
    pub fn distance_to(&self, candidate: &str) -> Option<usize> {
        self.lower_bound(candidate)?;
        self.distance_at_most(candidate, self.max)
    }

    /// A lower bound of [`Near::distance_to`], from lengths and letter
    /// counts alone (`None`: beyond [`max_distance`]). Comparing candidates
    /// in the order of their bounds, one whose bound is past the distances
    /// already found cannot come closer.
    pub fn lower_bound(&self, candidate: &str) -> Option<usize> {
        let mut bound = self.chars.abs_diff(candidate.chars().count());
        if let Some(letters) = &self.letters
            && candidate.is_ascii()
        {
            let mut counts = *letters;
            for b in candidate.bytes() {
                counts[b as usize] -= 1;
            }
            let apart: u32 = counts.iter().map(|c| c.unsigned_abs()).sum();
            bound = bound.max((apart as usize).div_ceil(2));
        }
        (bound <= self.max).then_some(bound)
    }

    /// The distance from the word to `candidate` when it is at most
    /// `limit` (and within [`max_distance`]), else `None`: a caller that
    /// has found closer names already asks for no more than it can use.
    pub fn distance_at_most(&self, candidate: &str, limit: usize) -> Option<usize> {
        // A table is the product of the two lengths: past a few hundred
        // characters a name is no typo of another, and a script of such
        // names would make every "did you mean" quadratic in them.
        if self.chars > LONGEST_SUGGESTED {
            return None;
        }
        let limit = limit.min(self.max);
        if self.letters.is_some() && candidate.is_ascii() {
            return banded(self.word.as_bytes(), candidate.as_bytes(), limit);
        }
        let d = distance(self.word, candidate);
        (d <= limit).then_some(d)
    }
}

/// The Damerau–Levenshtein distance between the ASCII words `a` and `b`
/// when it is at most `k`, else `None` (what [`distance`] gives, computed
/// with less). The usual table (Lowrance and Wagner's, with the row of
/// each letter's last occurrence) is filled only within `k` of its
/// diagonal: a cell `(i, j)` is at least `|i − j|` from the start, so a
/// path of cost `k` or less never leaves that band, and the cells outside
/// it keep a value above `k`. The last occurrences are bytes indexed by
/// byte, not a hash map. strsim fills the whole table and hashes a letter
/// per cell; "did you mean" over thousands of long, similar names was
/// mostly that.
fn banded(a: &[u8], b: &[u8], k: usize) -> Option<usize> {
    let (n, m) = (a.len(), b.len());
    if n.abs_diff(m) > k {
        return None;
    }
    // `far` is more than any cost; row and column 0 of the table are
    // `far`, row and column 1 the distances from the empty word.
    let far = (n + m + 1) as u32;
    let w = m + 2;
    let mut d = vec![far; (n + 2) * w];
    for i in 0..=n {
        d[(i + 1) * w + 1] = i as u32;
    }
    for j in 0..=m {
        d[w + j + 1] = j as u32;
    }
    // The last row (1-based) in which each byte occurred in `a`.
    let mut last_row = [0usize; 128];
    for i in 1..=n {
        let ai = a[i - 1];
        let (lo, hi) = (i.saturating_sub(k).max(1), (i + k).min(m));
        // The last column of this row so far whose byte is `ai`, within
        // the band: a swap from a column left of it costs more than `k`
        // (its cell is at least as far from the diagonal as it is back).
        let mut last_col = 0;
        for j in lo..=hi {
            let bj = b[j - 1];
            let (k1, l1) = (last_row[bj as usize & 127], last_col);
            let cost = if ai == bj {
                last_col = j;
                0
            } else {
                1
            };
            let swap = d[k1 * w + l1] + (i - k1 - 1) as u32 + 1 + (j - l1 - 1) as u32;
            let best = (d[i * w + j] + cost)
                .min(d[(i + 1) * w + j] + 1)
                .min(d[i * w + j + 1] + 1)
                .min(swap);
            d[(i + 1) * w + j + 1] = best;
        }
        last_row[ai as usize & 127] = i;
    }
    let dist = d[(n + 1) * w + m + 1] as usize;
    (dist <= k).then_some(dist)
}

/// The candidate closest to `word` within [`max_distance`] (the first of
/// equally close ones).
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let near = Near::new(word);
    candidates
        .filter_map(|c| near.distance_to(c).map(|d| (d, c)))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn within(word: &str, candidate: &str) -> Option<usize> {
        Near::new(word).distance_to(candidate)
    }

    /// `a` with a few edits: (0 substitute, 1 insert, 2 delete, 3 swap
    /// with the next byte; at a place; the byte put in), none off its end.
    fn edited(a: &str, edits: &[(u8, usize, u8)]) -> String {
        let mut b = a.as_bytes().to_vec();
        for &(kind, at, byte) in edits {
            let at = at % (b.len() + 1);
            match kind {
                0 if at < b.len() => b[at] = byte,
                1 => b.insert(at, byte),
                2 if at < b.len() => {
                    b.remove(at);
                }
                3 if at + 1 < b.len() => b.swap(at, at + 1),
                _ => {}
            }
        }
        String::from_utf8(b).unwrap()
    }

    proptest! {
        /// The banded table agrees with strsim's whole one, at every
        /// limit, on words of few letters and on those words edited up to
        /// three times (so that swaps, repeats and near misses abound).
        #[test]
        fn the_band_gives_the_distance_within_its_limit(
            a in "[ab.1]{0,9}",
            other in "[ab.1]{0,9}",
            edits in prop::collection::vec(
                (0u8..4, 0usize..10, prop::sample::select(b"ab.1".to_vec())),
                0..4,
            ),
            k in 0usize..5,
        ) {
            for b in [other, edited(&a, &edits)] {
                let d = distance(&a, &b);
                prop_assert_eq!(banded(a.as_bytes(), b.as_bytes(), k), (d <= k).then_some(d), "{:?} {:?} {}", a, b, k);
            }
        }
    }

    #[test]
    fn close_words_are_suggested_and_far_ones_are_not() {
        let easings = ["li", "si", "so", "sio"];
        assert_eq!(closest("sii", easings.iter().copied()), Some("si"));
        assert_eq!(closest("skeletn", ["skeleton", "skin"].iter().copied()), Some("skeleton"));
        assert_eq!(
            closest("elipse", ["rect", "circle", "ellipse"].iter().copied()),
            Some("ellipse")
        );
        assert_eq!(closest("zzzzzz", easings.iter().copied()), None);
        assert_eq!(distance("forarm", "forearm"), 1);
        assert_eq!(distance("ab", "ba"), 1, "a swap counts once");
        assert_eq!((max_distance("x"), max_distance("forearm")), (1, 2));
        // Too long or too short to be within reach, whatever the letters;
        // characters, not bytes, count.
        assert_eq!(within("forearm", "forearm.hand"), None);
        assert_eq!(within("forearm", "forarm"), Some(1));
        assert_eq!(within("épaule", "epaule"), Some(1));
        assert_eq!(within("ab", "abcd"), None);
        // As long, but too many letters apart: `wxyzab` vs `abcdef` differ
        // in four letters each way (four edits at least; two are allowed).
        assert_eq!(within("wxyzab", "abcdef"), None);
        assert_eq!(within("abcdefghi", "badcfeghi"), Some(3));
        assert_eq!(within("b496", "b469"), Some(1), "a swap");
        assert_eq!(banded(b"ca", b"abc", 2), Some(2), "a swap with a letter between");
        assert_eq!(within("b496", "b4968"), Some(1));
        assert_eq!(within("b496", "b96"), Some(1));
        assert_eq!(within("b496", "b694"), None);
        // A word too long to be a typo suggests nothing (candidates within
        // reach of it are at most a third longer, so no table is large).
        let long = "a".repeat(LONGEST_SUGGESTED + 1);
        assert_eq!(within(&long, &format!("{long}b")), None);
        assert_eq!(within(&long[1..], &format!("{}b", &long[1..])), Some(1));
        // The bounds never reject what the distance accepts.
        for (a, b) in [("forearm", "forarm"), ("limb_3", "limb_13"), ("ab", "ba"), ("", "x")] {
            assert_eq!(within(a, b), Some(distance(a, b)).filter(|&d| d <= max_distance(a)));
        }
    }
}
