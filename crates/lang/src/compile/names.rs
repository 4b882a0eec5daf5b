//! Name references (LANGUAGE.md §2.4): any dotted suffix of a full name,
//! matched by whole segments, optionally prefixed by `skeleton.`.
//!
//! A `NameIndex` finds the items a reference form names with one hash probe
//! and a few comparisons: names are kept in one buffer and grouped by their
//! last segment; a group of more than 8 names (`SMALL_GROUP`) is grouped again
//! by one more segment to the left, level by level while it stays crowded, so
//! a lookup walks at most 8 names unless the reference itself is that crowded
//! (a bare `s1`, ambiguous anyway). Matching is by whole segments, where the
//! original compared raw character suffixes (`docs/reference.md`). Unknown
//! and ambiguous references report the closest names (`syntax::suggest`) or
//! the candidates, and fall back as the original did. A rebuilt rig whose
//! bone or slot names did not change reuses the previous index (an `Arc`).

use rustc_hash::FxHashMap as HashMap;

use crate::syntax::suggest;

/// The id of an item a [`NameIndex`] names: its position in the list of names.
pub trait NameId: Copy + Eq + Ord + std::fmt::Debug {
    /// The id of the item at position `i`.
    fn from_u32(i: u32) -> Self;
    /// The item's position.
    fn to_u32(self) -> u32;
}

impl NameId for u32 {
    fn from_u32(i: u32) -> Self {
        i
    }
    fn to_u32(self) -> u32 {
        self
    }
}

macro_rules! name_id {
    ($($t:ty),*) => {$(
        impl NameId for $t {
            fn from_u32(i: u32) -> Self {
                Self(i)
            }
            fn to_u32(self) -> u32 {
                self.0
            }
        }
    )*};
}
name_id!(crate::model::BoneId, crate::model::SlotId, crate::model::AttachmentId);

/// What a reference resolves to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved<Id = u32> {
    /// Exactly one item: its id.
    Found(Id),
    /// Every item the reference matches (at least two).
    Ambiguous(Vec<Id>),
    /// No item has this name or suffix.
    Unknown,
}

/// A name in a group of names sharing a suffix: the name's id, the byte
/// offset in the name where that suffix starts, where the name lies in the
/// [`NameList`]'s text (so a lookup compares bytes there without finding
/// the name first), and the next name of the group (`NONE`: none).
#[derive(Clone, Copy, Debug)]
struct Place {
    id: u32,
    start: u32,
    lo: u32,
    hi: u32,
    next: u32,
}

/// The end of a chain of [`Place`]s.
const NONE: u32 = u32::MAX;

/// The most names a lookup walks in one group; the names of a larger group
/// are grouped again by one more segment to the left.
const SMALL_GROUP: u32 = 8;

/// The names that end in one suffix: a chain of [`Place`]s, whose first
/// place is kept here too (a copy of the last one added), so a lookup in a
/// group of one reads the hash table and the name's bytes and nothing else.
#[derive(Clone, Copy, Debug)]
struct Group {
    first: Place,
    /// Where `first` is in the index's places.
    head: u32,
    len: u32,
}

/// An index from every reference form to the items it names, so a lookup
/// costs a few hash probes and a few comparisons whatever the number of
/// items.
///
/// A reference names the items whose full name ends with it at a segment
/// boundary, so it can only name items whose last segments are its own.
/// Names are grouped by their last segment (level 0); a lookup finds the
/// group of the reference's last segment and compares its names. Most
/// groups are small (a rig's names rarely share a last segment more than a
/// few times). The names of a group larger than eight (`SMALL_GROUP`; say a
/// thousand slots all named `….s1`) are grouped again by their last two
/// segments (level 1), and so on to the left while a group stays large: a
/// lookup descends one level per segment of the reference until its group
/// is small or the reference has no more segments. Building costs one hash
/// per name plus one per name and level of a large group (not one per
/// segment of every name), and a lookup checks each candidate against the
/// name itself, so hash collisions cannot mislead it.
#[derive(Clone, Debug)]
pub struct NameIndex<Id = u32> {
    /// Per level k, the hash of a suffix of k + 1 segments → its group.
    levels: Vec<HashMap<u64, Group>>,
    places: Vec<Place>,
    /// Every full name, by id.
    names: NameList,
    id: std::marker::PhantomData<Id>,
}

impl<Id> Default for NameIndex<Id> {
    fn default() -> Self {
        NameIndex {
            levels: Vec::new(),
            places: Vec::new(),
            names: NameList::default(),
            id: std::marker::PhantomData,
        }
    }
}

fn segment_hash(seg: &str) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(seg)
}

/// The hash of segment `seg` followed by `.` and a suffix whose hash is `rest`.
fn combine(seg: u64, rest: u64) -> u64 {
    (seg ^ rest.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The hash of the empty suffix, that a name's last segment is combined with.
const EMPTY: u64 = 0x2545_F491_4F6C_DD1D;

/// The last segment of a dotted name (the whole name without a dot).
pub(super) fn last_segment(name: &str) -> &str {
    &name[segment_start(name, name.len())..]
}

/// Where the segment of `name` that ends at byte `end` starts.
fn segment_start(name: &str, end: usize) -> usize {
    memchr::memrchr(b'.', &name.as_bytes()[..end]).map_or(0, |i| i + 1)
}

/// Adds `place` (its `next` aside) to the group of `hash` in `level`, as
/// the group's first.
fn add(level: &mut HashMap<u64, Group>, places: &mut Vec<Place>, hash: u64, place: Place) {
    let at = places.len() as u32;
    let g = level.entry(hash).or_insert(Group { first: place, head: NONE, len: 0 });
    let place = Place { next: g.head, ..place };
    places.push(place);
    *g = Group { first: place, head: at, len: g.len + 1 };
}

/// Names laid one after the other in one buffer, by position: one
/// allocation for them all instead of a `String` each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct NameList {
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<u32>,
}

impl NameList {
    /// Room for `n` more names of `bytes` bytes in all.
    pub(super) fn reserve(&mut self, n: usize, bytes: usize) {
        self.text.reserve(bytes);
        self.ends.reserve(n);
    }

    /// Adds `name` at the end.
    pub(super) fn push(&mut self, name: &str) {
        self.text.push_str(name);
        self.ends.push(self.text.len() as u32);
    }

    /// How many names there are.
    pub(super) fn len(&self) -> usize {
        self.ends.len()
    }

    /// Where name `i` lies in the text, as byte offsets (empty out of range).
    fn range(&self, i: u32) -> (u32, u32) {
        let i = i as usize;
        let Some(&end) = self.ends.get(i) else { return (0, 0) };
        (if i == 0 { 0 } else { self.ends[i - 1] }, end)
    }

    /// Name `i` (empty out of range).
    pub(super) fn get(&self, i: u32) -> &str {
        let (lo, hi) = self.range(i);
        &self.text[lo as usize..hi as usize]
    }

    /// The names in order.
    pub(super) fn iter(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        (0..self.ends.len() as u32).map(|i| self.get(i))
    }
}

impl<Id: NameId> NameIndex<Id> {
    /// The index of `names` (full dotted names; an item's id is its position).
    pub fn new<'a, I>(names: I) -> Self
    where
        I: IntoIterator<Item = &'a str>,
        I::IntoIter: Clone,
    {
        let names = names.into_iter();
        let mut idx = NameIndex::default();
        idx.names.reserve(names.size_hint().0, names.clone().map(str::len).sum());
        for name in names {
            idx.names.push(name);
        }
        let count = idx.names.len();
        let mut level = HashMap::with_capacity_and_hasher(count, Default::default());
        idx.places.reserve(count);
        for i in 0..count {
            let (lo, hi) = idx.names.range(i as u32);
            let name = idx.names.get(i as u32);
            let start = segment_start(name, name.len());
            let h = combine(segment_hash(&name[start..]), EMPTY);
            let place = Place { id: i as u32, start: start as u32, lo, hi, next: NONE };
            add(&mut level, &mut idx.places, h, place);
        }
        // The names of each large group, grouped again by one more segment;
        // each level starts every place further left, so there are at most
        // as many levels as a name has segments.
        loop {
            let large: Vec<(u64, u32)> = level
                .iter()
                .filter(|(_, g)| g.len > SMALL_GROUP)
                .map(|(&h, g)| (h, g.head))
                .collect();
            let mut deeper = HashMap::default();
            for (h, head) in large {
                let mut at = head;
                while let Some(&p) = idx.places.get(at as usize) {
                    at = p.next;
                    if p.start == 0 {
                        continue;
                    }
                    let name = idx.names.get(p.id);
                    let end = p.start as usize - 1;
                    let start = segment_start(name, end);
                    let h = combine(segment_hash(&name[start..end]), h);
                    add(&mut deeper, &mut idx.places, h, Place { start: start as u32, ..p });
                }
            }
            idx.levels.push(level);
            if deeper.is_empty() {
                break;
            }
            level = deeper;
        }
        idx
    }

    /// Calls `f` with the id of each name whose suffix (whole segments)
    /// or whole name, as `whole` says, is `reference`.
    fn matches(&self, reference: &str, whole: bool, mut f: impl FnMut(u32)) {
        let mut h = EMPTY;
        let mut end = reference.len();
        for level in &self.levels {
            let start = segment_start(reference, end);
            h = combine(segment_hash(&reference[start..end]), h);
            let Some(group) = level.get(&h) else { return };
            if group.len > SMALL_GROUP && start > 0 {
                end = start - 1;
                continue;
            }
            // Compared as bytes where each name lies: only the part of the
            // name the reference covers (and the byte before it) is read.
            let text = self.names.text.as_bytes();
            let r = reference.as_bytes();
            let mut p = &group.first;
            loop {
                let (lo, hi) = (p.lo as usize, p.hi as usize);
                let hit = if whole {
                    text.get(lo..hi) == Some(r)
                } else {
                    hi - lo >= r.len() && {
                        let at = hi - r.len();
                        text.get(at..hi) == Some(r) && (at == lo || text[at - 1] == b'.')
                    }
                };
                if hit {
                    f(p.id);
                }
                match self.places.get(p.next as usize) {
                    Some(next) => p = next,
                    None => return,
                }
            }
        }
    }

    /// What `reference` (any dotted suffix of a full name, or `skeleton.` + a full
    /// name) names.
    pub fn resolve(&self, reference: &str) -> Resolved<Id> {
        self.resolve_u32(reference).map(Id::from_u32)
    }

    fn resolve_u32(&self, reference: &str) -> Resolved {
        let mut ids: Vec<u32> = Vec::new();
        let mut first: Option<u32> = None;
        let mut found = |id: u32| match first {
            None => first = Some(id),
            Some(f) if f == id => {}
            Some(f) => {
                if ids.is_empty() {
                    ids.push(f);
                }
                ids.push(id);
            }
        };
        // A dotted suffix of a name, whole segments only.
        self.matches(reference, false, &mut found);
        // `skeleton.` + a full name.
        if let Some(full) = reference.strip_prefix("skeleton.") {
            self.matches(full, true, &mut found);
        }
        if !ids.is_empty() {
            ids.sort_unstable();
            ids.dedup();
            if ids.len() > 1 {
                return Resolved::Ambiguous(ids);
            }
            return Resolved::Found(ids[0]);
        }
        first.map_or(Resolved::Unknown, Resolved::Found)
    }

    /// How many names there are.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.len() == 0
    }

    /// The full names, by id.
    pub fn names(&self) -> impl ExactSizeIterator<Item = &str> + Clone + '_ {
        self.names.iter()
    }

    /// Whether `other` indexes the same names in the same order.
    pub fn same_names(&self, other: &NameIndex<Id>) -> bool {
        self.names == other.names
    }

    /// The full name of item `id` (empty for an id out of range).
    pub fn name(&self, id: Id) -> &str {
        self.names.get(id.to_u32())
    }

    /// Full names closest to an unknown reference (compared with the same
    /// number of trailing segments), best first.
    pub fn suggestions(&self, reference: &str) -> Vec<&str> {
        let reference = reference.strip_prefix("skeleton.").unwrap_or(reference);
        let segs = memchr::memchr_iter(b'.', reference.as_bytes()).count() + 1;
        let near = suggest::Near::new(reference);
        // Every name within reach by its lengths and letters, with that
        // bound; distances are then computed in the order of the bounds,
        // and stop once the bound passes the third closest name found:
        // among a thousand similar names, most are never compared letter
        // by letter. (The result is the three closest, ties by name.)
        let mut reach: Vec<(usize, &str, &str)> = self
            .names()
            .filter_map(|name| {
                // The name's last `segs` segments (all of it if it has fewer).
                let tail = memchr::memrchr_iter(b'.', name.as_bytes())
                    .nth(segs - 1)
                    .map_or(name, |dot| &name[dot + 1..]);
                Some((near.lower_bound(tail)?, tail, name))
            })
            .collect();
        reach.sort_by_key(|r| r.0);
        let mut best: Vec<(usize, &str)> = Vec::with_capacity(4);
        for (bound, tail, name) in reach {
            if best.len() == 3 && bound > best[2].0 {
                break;
            }
            // (A name farther than the third found cannot place.)
            let limit = best.get(2).map_or(usize::MAX, |b| b.0);
            let Some(d) = near.distance_at_most(tail, limit) else { continue };
            if let Err(at) = best.binary_search(&(d, name)) {
                best.insert(at, (d, name));
                best.truncate(3);
            }
        }
        best.into_iter().map(|(_, n)| n).collect()
    }
}

/// Resolves a reference, or explains why it does not resolve: the
/// candidates of an ambiguous one, the closest names for an unknown one, and
/// `fallback` (what happens instead).
pub fn resolve_or_explain<Id: NameId>(
    idx: &NameIndex<Id>,
    what: &str,
    reference: &crate::syntax::tree::Spanned<String>,
    fallback: &str,
) -> Result<Id, crate::syntax::Diagnostic> {
    use crate::syntax::Diagnostic;
    let mut d = match idx.resolve(&reference.node) {
        Resolved::Found(id) => return Ok(id),
        Resolved::Ambiguous(ids) => Diagnostic::error(
            reference.span,
            format!("ambiguous {what} reference `{}`", crate::syntax::clip(&reference.node)),
        )
        .hint(format!("it matches {}", crate::syntax::quote_list(ids.iter().map(|&i| idx.name(i)))))
        .hint("write more of the dotted name, or prefix the full name with `skeleton.`"),
        Resolved::Unknown => {
            let mut d = Diagnostic::error(
                reference.span,
                format!("unknown {what} `{}`", crate::syntax::clip(&reference.node)),
            );
            let sugg = idx.suggestions(&reference.node);
            if !sugg.is_empty() {
                let list: Vec<String> =
                    sugg.iter().map(|s| format!("`{}`", crate::syntax::clip(s))).collect();
                d = d.hint(format!("did you mean {}?", list.join(" or ")));
            }
            d
        }
    };
    if !fallback.is_empty() {
        d = d.hint(fallback.to_string());
    }
    Err(d)
}

impl<Id> Resolved<Id> {
    /// The same result with each id mapped.
    pub fn map<T>(self, f: impl Fn(Id) -> T) -> Resolved<T> {
        match self {
            Resolved::Found(i) => Resolved::Found(f(i)),
            Resolved::Ambiguous(v) => Resolved::Ambiguous(v.into_iter().map(f).collect()),
            Resolved::Unknown => Resolved::Unknown,
        }
    }
}

/// The candidate closest to `word` within a small edit distance (moved to
/// the syntax stage, which needs it too; re-exported here).
pub use crate::syntax::suggest::closest;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_match_whole_segments() {
        let idx = NameIndex::new(["bone", "arm.forearm", "arm.forearm.hand", "leg.bone"]);
        assert_eq!(idx.resolve("forearm"), Resolved::Found(1));
        assert_eq!(idx.resolve("arm.forearm.hand"), Resolved::Found(2));
        assert_eq!(idx.resolve("bone"), Resolved::Ambiguous(vec![0, 3]));
        assert_eq!(idx.resolve("skeleton.bone"), Resolved::Found(0));
        // Raw string suffixes do not count.
        assert_eq!(idx.resolve("one"), Resolved::Unknown);
        assert_eq!(idx.resolve("rm.forearm"), Resolved::Unknown);
        assert_eq!(idx.suggestions("forarm"), vec!["arm.forearm"]);
    }

    /// What a reference names, by trying every name (the definition of
    /// LANGUAGE.md §2.4, without an index).
    fn brute_force(names: &[String], reference: &str) -> Resolved {
        let mut ids: Vec<u32> = (0..names.len() as u32)
            .filter(|&i| {
                let n = names[i as usize].as_str();
                let suffix = n.len() >= reference.len()
                    && n.ends_with(reference)
                    && (n.len() == reference.len()
                        || n.as_bytes()[n.len() - reference.len() - 1] == b'.');
                suffix || reference.strip_prefix("skeleton.") == Some(n)
            })
            .collect();
        ids.dedup();
        match ids.len() {
            0 => Resolved::Unknown,
            1 => Resolved::Found(ids[0]),
            _ => Resolved::Ambiguous(ids),
        }
    }

    /// The names sorted, without repeats, and their index.
    fn indexed(mut names: Vec<String>) -> (Vec<String>, NameIndex) {
        names.sort();
        names.dedup();
        let idx = NameIndex::new(names.iter().map(String::as_str));
        (names, idx)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

        /// Groups small and large (the last segments come from a few
        /// letters, so some are shared by many names), references that are
        /// suffixes, whole names, `skeleton.` names, parts of segments and
        /// names that exist nowhere: the index answers as trying every name.
        #[test]
        fn the_index_answers_as_trying_every_name(
            names in proptest::collection::vec("[a-c]{1,2}(\\.[a-d]{1,2}){0,3}", 0..60),
            probes in proptest::collection::vec("(skeleton\\.)?[a-d]{0,2}(\\.[a-d]{1,2}){0,3}", 1..40),
        ) {
            let (names, idx) = indexed(names);
            let some_large = idx.levels.len() > 1;
            for r in probes.iter().map(String::as_str).chain(names.iter().map(String::as_str)) {
                proptest::prop_assert_eq!(idx.resolve(r), brute_force(&names, r), "{} (large groups: {})", r, some_large);
            }
        }

        /// "Did you mean" gives the three names closest to the reference
        /// (by the distance of as many last segments as it has, within a
        /// third of its length), ties by name: what scoring every name
        /// gives.
        #[test]
        fn suggestions_are_the_closest_names(
            names in proptest::collection::vec("[a-c1]{1,4}(\\.[a-d1]{1,3}){0,2}", 0..80),
            probes in proptest::collection::vec("[a-d1]{1,6}(\\.[a-d1]{1,3}){0,1}", 1..20),
        ) {
            let (names, idx) = indexed(names);
            for r in &probes {
                let segs = r.split('.').count();
                let max = crate::syntax::suggest::max_distance(r);
                let mut all: Vec<(usize, &str)> = names
                    .iter()
                    .map(|n| {
                        let parts: Vec<&str> = n.split('.').collect();
                        let tail = parts[parts.len().saturating_sub(segs)..].join(".");
                        (crate::syntax::suggest::distance(r, &tail), n.as_str())
                    })
                    .filter(|&(d, _)| d <= max)
                    .collect();
                all.sort();
                let want: Vec<&str> = all.into_iter().take(3).map(|(_, n)| n).collect();
                proptest::prop_assert_eq!(idx.suggestions(r), want, "{}", r);
            }
        }
    }

    #[test]
    fn a_crowded_suffix_is_grouped_again_by_one_more_segment() {
        let names: Vec<String> = (0..40).map(|i| format!("limb{i}.joint.tip")).collect();
        let idx: NameIndex = NameIndex::new(names.iter().map(String::as_str));
        // `tip`, then `joint.tip`, are shared by all 40; `limbN.joint.tip` by one.
        assert_eq!(idx.levels.len(), 3);
        assert_eq!(idx.places.len(), 3 * 40);
        assert_eq!(idx.resolve("limb7.joint.tip"), Resolved::Found(7));
        assert_eq!(idx.resolve("skeleton.limb7.joint.tip"), Resolved::Found(7));
        assert_eq!(idx.resolve("mb7.joint.tip"), Resolved::Unknown);
        assert_eq!(idx.resolve("joint.tip"), Resolved::Ambiguous((0..40).collect()));
        let few: NameIndex = NameIndex::new(["a.tip", "b.tip"]);
        assert_eq!(few.levels.len(), 1);
        assert_eq!(few.resolve("tip"), Resolved::Ambiguous(vec![0, 1]));
    }
}
