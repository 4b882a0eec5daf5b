//! "Did you mean …?": the closest of a few known words to a misspelt one,
//! by Damerau–Levenshtein distance. Used for section keywords, easings and
//! attachment types here, and for names by the compiler.

/// The largest edit distance at which `word` still suggests something: a
/// third of its length, at least 1 (`forarm` → `forearm`, but `x` → nothing
/// far).
pub fn max_distance(word: &str) -> usize {
    (word.chars().count() / 3).max(1)
}

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
        self.distance_within(candidate)
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

    /// The distance from the word to `candidate` when it is within
    /// [`max_distance`] of the word (no bound checked first).
    pub fn distance_within(&self, candidate: &str) -> Option<usize> {
        if self.max == 1 && self.letters.is_some() && candidate.is_ascii() {
            return within_one(self.word.as_bytes(), candidate.as_bytes());
        }
        let d = distance(self.word, candidate);
        (d <= self.max).then_some(d)
    }
}

/// The Damerau–Levenshtein distance between `a` and `b` when it is at most
/// 1, else `None`, in one pass and without the distance table: past their
/// common prefix, one byte substituted, deleted, inserted or swapped with
/// the next must leave the same rest. (Most misspelt names are short, so
/// reach 1 only; a table per candidate name was most of a "did you mean"
/// over a thousand similar names.)
fn within_one(a: &[u8], b: &[u8]) -> Option<usize> {
    let p = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let (a, b) = (&a[p..], &b[p..]);
    let one = match a.len() as isize - b.len() as isize {
        0 if a.is_empty() => return Some(0),
        0 => a[1..] == b[1..] || (a.len() >= 2 && a[0] == b[1] && a[1] == b[0] && a[2..] == b[2..]),
        1 => a[1..] == *b,
        -1 => *a == b[1..],
        _ => false,
    };
    one.then_some(1)
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

    /// `a` with up to two edits: (0 substitute, 1 insert, 2 delete, 3 swap
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
        /// The one-pass check agrees with the distance table on short words
        /// of few letters and on those words edited once or twice (so that
        /// swaps, repeats and near misses abound).
        #[test]
        fn within_one_is_the_distance_up_to_one(
            a in "[ab.1]{0,6}",
            other in "[ab.1]{0,6}",
            edits in prop::collection::vec((0u8..4, 0usize..8, prop::sample::select(b"ab.1".to_vec())), 0..3),
        ) {
            for b in [other, edited(&a, &edits)] {
                let d = distance(&a, &b);
                prop_assert_eq!(within_one(a.as_bytes(), b.as_bytes()), (d <= 1).then_some(d), "{:?} {:?}", a, b);
            }
        }
    }

    fn within(word: &str, candidate: &str) -> Option<usize> {
        Near::new(word).distance_to(candidate)
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
        assert_eq!(within("b496", "b469"), Some(1), "a swap, by the one-pass check");
        assert_eq!(within("b496", "b4968"), Some(1));
        assert_eq!(within("b496", "b96"), Some(1));
        assert_eq!(within("b496", "b694"), None);
        // The bounds never reject what the distance accepts.
        for (a, b) in [("forearm", "forarm"), ("limb_3", "limb_13"), ("ab", "ba"), ("", "x")] {
            assert_eq!(within(a, b), Some(distance(a, b)).filter(|&d| d <= max_distance(a)));
        }
    }
}
