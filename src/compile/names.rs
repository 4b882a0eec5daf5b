//! Name references (LANGUAGE.md §2.4): any dotted suffix of a full name,
//! matched by whole segments, optionally prefixed by `skeleton.`.

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

/// A place a reference form starts: (name id, byte offset where the
/// suffix starts), and the next place with the same hash (`NONE`: none).
#[derive(Clone, Copy, Debug)]
struct Place {
    id: u32,
    start: u32,
    next: u32,
}

/// The end of a chain of [`Place`]s or of a group's names.
const NONE: u32 = u32::MAX;

/// The most names a group of one last segment walks on a lookup; a larger
/// group indexes every dotted suffix of its names instead.
const SMALL_GROUP: u32 = 8;

/// The names that end in one segment: a chain through [`NameIndex::next`].
#[derive(Clone, Copy, Debug)]
struct Group {
    head: u32,
    len: u32,
}

/// An index from every reference form to the items it names, so a lookup
/// costs one hash probe and a few comparisons whatever the number of items.
///
/// A reference names the items whose full name ends with it at a segment
/// boundary, so it can only name items with the same last segment. Names
/// are grouped by their last segment; a lookup walks the group of the
/// reference's last segment and compares. Most groups are small (a rig's
/// names rarely share a last segment more than a few times), and building
/// them costs one hash per name. A group larger than eight names (`SMALL_GROUP`; say
/// a hundred bones all named `….tip`) would make lookups slow: its names are indexed by
/// every dotted suffix instead, each suffix keyed by a hash built segment by
/// segment from the right (all the suffixes of a name cost one pass over
/// it), and a lookup checks each candidate against the name itself, so
/// hash collisions cannot mislead it.
#[derive(Clone, Debug)]
pub struct NameIndex<Id = u32> {
    /// Hash of a last segment → the group of names ending in it.
    groups: HashMap<u64, Group>,
    /// Per name: the next name of its group (`NONE`: the last).
    next: Vec<u32>,
    /// Names of large groups only: hash of a reference form → the first of
    /// its places.
    map: HashMap<u64, u32>,
    places: Vec<Place>,
    names: Vec<String>,
    id: std::marker::PhantomData<Id>,
}

impl<Id> Default for NameIndex<Id> {
    fn default() -> Self {
        NameIndex {
            groups: HashMap::default(),
            next: Vec::new(),
            map: HashMap::default(),
            places: Vec::new(),
            names: Vec::new(),
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

const EMPTY: u64 = 0x2545_F491_4F6C_DD1D;

/// The last segment of a dotted name (the whole name without a dot).
pub(super) fn last_segment(name: &str) -> &str {
    memchr::memrchr(b'.', name.as_bytes()).map_or(name, |i| &name[i + 1..])
}

/// Whether `reference` is `name` or a dotted suffix of it (whole segments).
fn is_suffix(name: &str, reference: &str) -> bool {
    name.ends_with(reference) && {
        let start = name.len() - reference.len();
        start == 0 || name.as_bytes()[start - 1] == b'.'
    }
}

/// The hash of a reference form (see [`NameIndex`]).
fn reference_hash(reference: &str) -> u64 {
    reference.rsplit('.').fold(EMPTY, |h, seg| combine(segment_hash(seg), h))
}

impl<Id: NameId> NameIndex<Id> {
    /// The index of `names` (full dotted names; an item's id is its position).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let names: Vec<&str> = names.into_iter().collect();
        let mut idx = NameIndex::default();
        idx.groups.reserve(names.len());
        idx.next = vec![NONE; names.len()];
        // Groups are chained from their last name to their first.
        for (i, name) in names.iter().enumerate() {
            let g = idx
                .groups
                .entry(segment_hash(last_segment(name)))
                .or_insert(Group { head: NONE, len: 0 });
            idx.next[i] = g.head;
            g.head = i as u32;
            g.len += 1;
        }
        // (Groups of different segments may share a hash: they are one
        // group then, which lookups tell apart by comparing names.)
        let large: Vec<u32> =
            idx.groups.values().filter(|g| g.len > SMALL_GROUP).map(|g| g.head).collect();
        for head in large {
            let mut at = head;
            while let Some(&name) = names.get(at as usize) {
                idx.add_suffixes(name, at);
                at = idx.next[at as usize];
            }
        }
        idx.names = names.into_iter().map(str::to_string).collect();
        idx
    }

    fn add(&mut self, hash: u64, id: u32, start: u32) {
        let at = self.places.len() as u32;
        let head = self.map.entry(hash).or_insert(NONE);
        self.places.push(Place { id, start, next: *head });
        *head = at;
    }

    /// Adds a place for every dotted suffix of `name`: segments from the
    /// right, each suffix's hash built from the one after it.
    fn add_suffixes(&mut self, name: &str, id: u32) {
        let mut h = EMPTY;
        let mut end = name.len();
        for i in memchr::memrchr_iter(b'.', name.as_bytes()) {
            h = combine(segment_hash(&name[i + 1..end]), h);
            self.add(h, id, (i + 1) as u32);
            end = i;
        }
        h = combine(segment_hash(&name[..end]), h);
        self.add(h, id, 0);
    }

    /// Calls `f` with the id of each name whose suffix (whole segments)
    /// or whole name, as `whole` says, is `reference`.
    fn matches(&self, reference: &str, whole: bool, mut f: impl FnMut(u32)) {
        let Some(group) = self.groups.get(&segment_hash(last_segment(reference))) else {
            return;
        };
        if group.len <= SMALL_GROUP {
            let mut at = group.head;
            while let Some(name) = self.names.get(at as usize) {
                if if whole { name == reference } else { is_suffix(name, reference) } {
                    f(at);
                }
                at = self.next[at as usize];
            }
            return;
        }
        let mut at = self.map.get(&reference_hash(reference)).copied().unwrap_or(NONE);
        while let Some(p) = self.places.get(at as usize) {
            if (!whole || p.start == 0)
                && self
                    .names
                    .get(p.id as usize)
                    .is_some_and(|n| &n[p.start as usize..] == reference)
            {
                f(p.id);
            }
            at = p.next;
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

    /// The full names, by id.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The full name of item `id` (empty for an id out of range).
    pub fn name(&self, id: Id) -> &str {
        self.names.get(id.to_u32() as usize).map_or("", |s| s.as_str())
    }

    /// Full names closest to an unknown reference (compared with the same
    /// number of trailing segments), best first.
    pub fn suggestions(&self, reference: &str) -> Vec<&str> {
        let reference = reference.strip_prefix("skeleton.").unwrap_or(reference);
        let segs = reference.split('.').count();
        let mut scored: Vec<(usize, &str)> = Vec::new();
        for name in &self.names {
            let parts: Vec<&str> = name.split('.').collect();
            let tail = parts[parts.len().saturating_sub(segs)..].join(".");
            let d = suggest::distance(reference, &tail);
            if d <= suggest::max_distance(reference) {
                scored.push((d, name));
            }
        }
        scored.sort();
        scored.dedup_by(|a, b| a.1 == b.1);
        scored.into_iter().take(3).map(|(_, n)| n).collect()
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
        Resolved::Ambiguous(ids) => {
            let names: Vec<String> =
                ids.iter().take(6).map(|&i| format!("`{}`", idx.name(i))).collect();
            let more =
                if ids.len() > 6 { format!(" and {} more", ids.len() - 6) } else { String::new() };
            Diagnostic::error(
                reference.span,
                format!("ambiguous {what} reference `{}`", reference.node),
            )
            .hint(format!("it matches {}{more}", names.join(", ")))
            .hint("write more of the dotted name, or prefix the full name with `skeleton.`")
        }
        Resolved::Unknown => {
            let mut d =
                Diagnostic::error(reference.span, format!("unknown {what} `{}`", reference.node));
            let sugg = idx.suggestions(&reference.node);
            if !sugg.is_empty() {
                let list: Vec<String> = sugg.iter().map(|s| format!("`{s}`")).collect();
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
            let mut names = names;
            names.sort();
            names.dedup();
            let idx: NameIndex = NameIndex::new(names.iter().map(String::as_str));
            let some_large = idx.groups.values().any(|g| g.len > SMALL_GROUP);
            for r in probes.iter().map(String::as_str).chain(names.iter().map(String::as_str)) {
                proptest::prop_assert_eq!(idx.resolve(r), brute_force(&names, r), "{} (large groups: {})", r, some_large);
            }
        }
    }

    #[test]
    fn a_crowded_last_segment_is_indexed_by_every_suffix() {
        let names: Vec<String> = (0..40).map(|i| format!("limb{i}.joint.tip")).collect();
        let idx: NameIndex = NameIndex::new(names.iter().map(String::as_str));
        assert!(idx.groups.values().any(|g| g.len > SMALL_GROUP));
        assert!(!idx.places.is_empty());
        assert_eq!(idx.resolve("limb7.joint.tip"), Resolved::Found(7));
        assert_eq!(idx.resolve("skeleton.limb7.joint.tip"), Resolved::Found(7));
        assert_eq!(idx.resolve("mb7.joint.tip"), Resolved::Unknown);
        assert_eq!(idx.resolve("joint.tip"), Resolved::Ambiguous((0..40).collect()));
        let few: NameIndex = NameIndex::new(["a.tip", "b.tip"]);
        assert!(few.places.is_empty());
        assert_eq!(few.resolve("tip"), Resolved::Ambiguous(vec![0, 1]));
    }
}
