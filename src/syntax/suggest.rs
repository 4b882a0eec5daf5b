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

/// The distance from `word` to `candidate` when it is within
/// [`max_distance`] of `word`, else `None`. Words whose lengths differ by
/// more than that are not compared (their distance is at least the
/// difference), so a misspelt name checked against a thousand long names
/// costs a thousand length checks and a few comparisons, not a thousand
/// distance tables.
pub fn within(word: &str, candidate: &str) -> Option<usize> {
    let max = max_distance(word);
    if word.chars().count().abs_diff(candidate.chars().count()) > max {
        return None;
    }
    // Each edit changes the two words' letter counts by at most two (a
    // substitution takes one letter and gives another; a swap changes
    // none), so half their difference is a lower bound too.
    if word.is_ascii() && candidate.is_ascii() {
        let mut counts = [0i32; 128];
        for b in word.bytes() {
            counts[b as usize] += 1;
        }
        for b in candidate.bytes() {
            counts[b as usize] -= 1;
        }
        let apart: u32 = counts.iter().map(|c| c.unsigned_abs()).sum();
        if (apart as usize).div_ceil(2) > max {
            return None;
        }
    }
    let d = distance(word, candidate);
    (d <= max).then_some(d)
}

/// The candidate closest to `word` within [`max_distance`] (the first of
/// equally close ones).
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .filter_map(|c| within(word, c).map(|d| (d, c)))
        .min_by_key(|&(d, _)| d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

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
