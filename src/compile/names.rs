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

/// The end of a chain of [`Place`]s.
const NONE: u32 = u32::MAX;

/// An index from every reference form to the items it names, so lookups
/// cost one hash probe whatever the number of items.
///
/// Reference forms are not stored as strings: the index keys each dotted
/// suffix by a hash built segment by segment from the right (so all the
/// suffixes of a name cost one pass over it), and a lookup checks each
/// candidate against the name itself, so hash collisions cannot mislead it.
///
/// Every place is one entry of a flat list, chained per hash (no list per
/// hash), and the map is sized up front: building the index of a thousand
/// deep names allocates a handful of times.
#[derive(Clone, Debug)]
pub struct NameIndex<Id = u32> {
    /// Hash of a reference form → the first of its places.
    map: HashMap<u64, u32>,
    places: Vec<Place>,
    names: Vec<String>,
    id: std::marker::PhantomData<Id>,
}

impl<Id> Default for NameIndex<Id> {
    fn default() -> Self {
        NameIndex {
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

/// The positions of the dots of a dotted name.
fn dots(name: &str) -> memchr::Memchr<'_> {
    memchr::memchr_iter(b'.', name.as_bytes())
}

/// The hash of a reference form (see [`NameIndex`]).
fn reference_hash(reference: &str) -> u64 {
    reference.rsplit('.').fold(EMPTY, |h, seg| combine(segment_hash(seg), h))
}

impl<Id: NameId> NameIndex<Id> {
    /// The index of `names` (full dotted names; an item's id is its position).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let names: Vec<&str> = names.into_iter().collect();
        // One place per dotted suffix: room for all of them up front.
        let suffixes: usize = names.iter().map(|n| 1 + dots(n).count()).sum();
        let mut idx = NameIndex::default();
        idx.map.reserve(suffixes);
        idx.places.reserve(suffixes);
        for (i, name) in names.iter().enumerate() {
            idx.add_suffixes(name, i as u32);
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
    /// right, each suffix's hash built from the one after it (names can be
    /// long dotted paths, so the dots are found with `memchr`).
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

    /// Calls `f` with each place whose reference form hashes to `hash` (in
    /// no particular order).
    fn candidates(&self, hash: u64, mut f: impl FnMut(u32, u32)) {
        let mut at = self.map.get(&hash).copied().unwrap_or(NONE);
        while let Some(p) = self.places.get(at as usize) {
            f(p.id, p.start);
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
        self.candidates(reference_hash(reference), |id, start| {
            if self.names.get(id as usize).is_some_and(|n| &n[start as usize..] == reference) {
                found(id);
            }
        });
        // `skeleton.` + a full name.
        if let Some(full) = reference.strip_prefix("skeleton.") {
            self.candidates(reference_hash(full), |id, start| {
                if start == 0 && self.names.get(id as usize).is_some_and(|n| n == full) {
                    found(id);
                }
            });
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
}
