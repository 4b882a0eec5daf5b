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
        if self.chars.abs_diff(candidate.chars().count()) > self.max {
            return None;
        }
        if let Some(letters) = &self.letters
            && candidate.is_ascii()
        {
            let mut counts = *letters;
            for b in candidate.bytes() {
                counts[b as usize] -= 1;
            }
            let apart: u32 = counts.iter().map(|c| c.unsigned_abs()).sum();
            if (apart as usize).div_ceil(2) > self.max {
                return None;
            }
        }
        let d = distance(self.word, candidate);
        (d <= self.max).then_some(d)
    }
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
        // The bounds never reject what the distance accepts.
        for (a, b) in [("forearm", "forarm"), ("limb_3", "limb_13"), ("ab", "ba"), ("", "x")] {
            assert_eq!(within(a, b), Some(distance(a, b)).filter(|&d| d <= max_distance(a)));
        }
    }
}
