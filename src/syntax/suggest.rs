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

/// The candidate closest to `word` within [`max_distance`] (the first of
/// equally close ones).
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .map(|c| (distance(word, c), c))
        .filter(|&(d, _)| d <= max_distance(word))
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
    }
}
