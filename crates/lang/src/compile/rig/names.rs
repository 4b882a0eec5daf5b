//! The rig's name lookups while it is merged: slots and attachments by
//! (parent, short name) ([`ChildIds`]), bones by full name (`BoneNames`).
//!
//! Parents are numbered densely and merged in order, so a walk along a
//! parent's children reads memory just written; a parent of more than 16
//! children (`CROWDED`) has them hashed as well. Bones are found through a
//! hashed chain over the merged bones themselves, without copies of their
//! names as keys; the merged names then move into the model.

use rustc_hash::FxHashMap as HashMap;

use super::merge::WBone;
use crate::compile::names::{NameId, NameList};

/// (parent, short name) → child: a slot of a bone, an attachment of a
/// slot. Slot and attachment names have no dots, so a parent and a short
/// name identify a child as its full dotted name does, without building
/// that name.
///
/// Each parent's children are chained from its last one, and a lookup
/// compares the names along its parent's chain: parents are numbered
/// densely and a rig's are merged in order, so these reads walk memory
/// just written rather than a hash table's random buckets (which cost a
/// cache miss per child: a third of merging a 5000-bone rig's names).
/// A parent with more than [`CROWDED`] children (a flipbook slot with a
/// hundred frames) has its children put in a hash table as well, so a
/// lookup stays a few comparisons however many children there are.
#[derive(Debug)]
pub struct ChildIds<Id> {
    /// Per parent: its last child and how many it has (`NONE`, 0: none).
    parents: Vec<(u32, u32)>,
    /// Per child, by id: its parent and its parent's child before it.
    entries: Vec<(u32, u32)>,
    /// The children of crowded parents: hash of (parent, short name) →
    /// the last such child with that hash…
    crowded: HashMap<u64, u32>,
    /// …and per child, the one before it with the same hash (`NONE`:
    /// none; children of parents that are not crowded are in no chain).
    same_hash: Vec<u32>,
    /// The children's short names, by id.
    names: NameList,
    id: std::marker::PhantomData<Id>,
}

/// No child, in a [`ChildIds`] chain.
pub(super) const NONE: u32 = u32::MAX;

/// The most children a parent has before a [`ChildIds`] lookup among
/// them goes through a hash table.
const CROWDED: u32 = 16;

impl<Id> Default for ChildIds<Id> {
    fn default() -> Self {
        ChildIds {
            parents: Vec::new(),
            entries: Vec::new(),
            crowded: HashMap::default(),
            same_hash: Vec::new(),
            names: NameList::default(),
            id: std::marker::PhantomData,
        }
    }
}

impl<Id: NameId> ChildIds<Id> {
    fn key(parent: u32, name: &str) -> u64 {
        use std::hash::BuildHasher;
        rustc_hash::FxBuildHasher.hash_one((parent, name))
    }

    /// The child `name` of `parent`.
    pub fn get(&self, parent: u32, name: &str) -> Option<Id> {
        let &(last, count) = self.parents.get(parent as usize)?;
        let (mut at, crowded) = if count > CROWDED {
            (self.crowded.get(&Self::key(parent, name)).copied().unwrap_or(NONE), true)
        } else {
            (last, false)
        };
        while let Some(&(p, before)) = self.entries.get(at as usize) {
            if p == parent && self.names.get(at) == name {
                return Some(Id::from_u32(at));
            }
            at = if crowded { self.same_hash[at as usize] } else { before };
        }
        None
    }

    /// Adds child `name` of `parent` (not there yet); returns its id.
    pub(super) fn push(&mut self, parent: u32, name: &str) -> Id {
        let id = self.entries.len() as u32;
        let p = parent as usize;
        if self.parents.len() <= p {
            self.parents.resize(p + 1, (NONE, 0));
        }
        let (last, count) = self.parents[p];
        self.names.push(name);
        self.entries.push((parent, last));
        self.same_hash.push(NONE);
        self.parents[p] = (id, count + 1);
        if count + 1 > CROWDED {
            if count == CROWDED {
                // Just crowded: the children before this one join the table.
                let mut at = last;
                while let Some(&(_, before)) = self.entries.get(at as usize) {
                    self.chain_by_hash(parent, at);
                    at = before;
                }
            }
            self.chain_by_hash(parent, id);
        }
        Id::from_u32(id)
    }

    /// Puts child `id` of crowded `parent` in the hash table.
    fn chain_by_hash(&mut self, parent: u32, id: u32) {
        let head = self.crowded.entry(Self::key(parent, self.names.get(id))).or_insert(NONE);
        self.same_hash[id as usize] = *head;
        *head = id;
    }

    /// The short name of child `id`.
    pub(super) fn name(&self, id: usize) -> &str {
        self.names.get(id as u32)
    }

    /// Whether `other` has the same children (parents and short names) in
    /// the same order.
    pub(super) fn same(&self, other: &ChildIds<Id>) -> bool {
        self.names == other.names
            && self.entries.len() == other.entries.len()
            && self.entries.iter().zip(&other.entries).all(|(a, b)| a.0 == b.0)
    }

    /// The short names of `parent`'s children, in the order they were added
    /// (its chain, not every child).
    pub(in crate::compile) fn names_of(&self, parent: u32) -> Vec<&str> {
        let (mut at, count) = self.parents.get(parent as usize).copied().unwrap_or((NONE, 0));
        let mut names = Vec::with_capacity(count as usize);
        while let Some(&(_, before)) = self.entries.get(at as usize) {
            names.push(self.names.get(at));
            at = before;
        }
        names.reverse();
        names
    }

    /// Each child's parent and short name, by id.
    pub(super) fn children(&self) -> impl Iterator<Item = (u32, &str)> + '_ {
        self.entries.iter().zip(self.names.iter()).map(|(e, name)| (e.0, name))
    }

    /// Room for `n` more children, whose names take about `bytes` bytes.
    pub(super) fn reserve(&mut self, n: usize, bytes: usize) {
        self.parents.reserve(n);
        self.entries.reserve(n);
        self.same_hash.reserve(n);
        self.names.reserve(n, bytes);
    }
}

/// `a.b`, without the formatting machinery (this runs for every slot).
pub(super) fn dotted(a: &str, b: &str) -> String {
    let mut s = String::with_capacity(a.len() + 1 + b.len());
    s.push_str(a);
    s.push('.');
    s.push_str(b);
    s
}

/// The name of a bone's parent: its name without the last segment.
pub(super) fn parent_name(s: &str) -> Option<&str> {
    s.rfind('.').map(|i| &s[..i])
}

/// Full bone names → positions in a list of bones, without a copy of
/// the names: each bone is chained under the hash of its name, and a
/// lookup compares the chain's names in the list (the hash only picks it).
#[derive(Default)]
pub(super) struct BoneNames {
    /// Hash of a name → the last bone with that hash.
    heads: HashMap<u64, u32>,
    /// Per bone: the bone before it with the same hash (`u32::MAX`: none).
    before: Vec<u32>,
}

impl BoneNames {
    fn hash(name: &str) -> u64 {
        use std::hash::BuildHasher;
        rustc_hash::FxBuildHasher.hash_one(name)
    }

    /// The bone of `bones` named `name`.
    pub(super) fn get(&self, bones: &[WBone], name: &str) -> Option<usize> {
        let mut at = self.heads.get(&Self::hash(name)).copied().unwrap_or(u32::MAX);
        while let Some(b) = bones.get(at as usize) {
            if b.name == name {
                return Some(at as usize);
            }
            at = self.before[at as usize];
        }
        None
    }

    /// Adds `bone` (not there yet) at the end of `bones`; returns its index.
    pub(super) fn push(&mut self, bones: &mut Vec<WBone>, bone: WBone) -> usize {
        let i = bones.len();
        let head = self.heads.entry(Self::hash(&bone.name)).or_insert(u32::MAX);
        self.before.push(*head);
        *head = i as u32;
        bones.push(bone);
        i
    }

    /// Room for `n` more bones.
    pub(super) fn reserve(&mut self, n: usize) {
        self.heads.reserve(n);
        self.before.reserve(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{AttachmentId, SkinId};

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Children added in any order, some parents with far more than
        /// `CROWDED` children (their lookups go through the hash table,
        /// which they join part way): each lookup answers as a search of
        /// every child added before it.
        #[test]
        fn child_ids_answer_as_a_search_of_every_child(
            adds in proptest::collection::vec((0u32..4, 0u32..60), 0..300),
            probes in proptest::collection::vec((0u32..6, 0u32..70), 1..60),
        ) {
            let mut ids = ChildIds::<AttachmentId>::default();
            let mut all: Vec<(u32, String)> = Vec::new();
            let find = |all: &[(u32, String)], p: u32, n: &str| {
                all.iter().position(|(q, m)| *q == p && m == n).map(|i| AttachmentId(i as u32))
            };
            for (parent, k) in adds {
                let name = format!("c{k}");
                proptest::prop_assert_eq!(ids.get(parent, &name), find(&all, parent, &name));
                if find(&all, parent, &name).is_none() {
                    proptest::prop_assert_eq!(ids.push(parent, &name), AttachmentId(all.len() as u32));
                    all.push((parent, name));
                }
            }
            for (parent, k) in probes {
                let name = format!("c{k}");
                proptest::prop_assert_eq!(ids.get(parent, &name), find(&all, parent, &name));
            }
            let children: Vec<(u32, &str)> = ids.children().collect();
            let expected: Vec<(u32, &str)> = all.iter().map(|(p, n)| (*p, n.as_str())).collect();
            proptest::prop_assert_eq!(children, expected);
            for parent in 0..6 {
                let of: Vec<&str> =
                    all.iter().filter(|(p, _)| *p == parent).map(|(_, n)| n.as_str()).collect();
                proptest::prop_assert_eq!(ids.names_of(parent), of);
            }
        }
    }

    #[test]
    fn child_ids_tell_parents_and_names_apart() {
        let mut ids = ChildIds::<AttachmentId>::default();
        assert_eq!(ids.push(0, "a"), AttachmentId(0));
        assert_eq!(ids.push(1, "a"), AttachmentId(1));
        assert_eq!(ids.push(0, "b"), AttachmentId(2));
        assert_eq!(ids.get(0, "a"), Some(AttachmentId(0)));
        assert_eq!(ids.get(1, "a"), Some(AttachmentId(1)));
        assert_eq!(ids.get(0, "b"), Some(AttachmentId(2)));
        assert_eq!(ids.get(1, "b"), None);
        assert_eq!(ids.get(2, "a"), None);
        assert_eq!(ids.name(2), "b");
        // Through the compiler: the same short name under two slots, and a
        // skin that replaces one of them.
        let comp = crate::compile::compile(
            "skeleton\n\tarm\n\t\t@s[x] :rect\n\t\t@t[x] :circle\nskin \"k\"\n\t@arm.t[x] :rect\n",
        );
        assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
        let sk = &comp.armature.skeleton;
        assert_eq!(sk.attachments.len(), 2);
        let shown = |skin: usize, a: u32| {
            &sk.attachment(SkinId(skin as u32), AttachmentId(a)).unwrap().kind
        };
        assert!(matches!(shown(1, 1), crate::model::AttachmentKind::Rect { .. }));
        assert!(matches!(shown(1, 0), crate::model::AttachmentKind::Rect { .. }));
        assert!(matches!(shown(0, 1), crate::model::AttachmentKind::Circle { .. }));
        // The skin holds only what it replaces.
        assert_eq!(sk.skins[1].replaced.len(), 1);
        assert_eq!(sk.skins[1].replaced[0].0, AttachmentId(1));
        // Slots by bone and short name: bone `a.b`'s slot `c` is not bone
        // `a`'s slot `b`, and a slot written twice is one slot.
        let comp = crate::compile::compile("skeleton\n\ta\n\t\t@b\n\ta.b\n\t\t@c\n\t\t@c\n");
        let names: Vec<&str> =
            comp.armature.skeleton.slots.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["a.b", "a.b.c"]);
    }
}
