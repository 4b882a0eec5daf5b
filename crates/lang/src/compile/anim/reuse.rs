//! Reuse of an earlier output: the items an edit did not touch taken
//! over as they were ([`Tracks::replay`]), and a whole output renumbered
//! when the rig's names moved but still find what they found
//! ([`lookup_map`], [`AnimOutput::renumbered`]).

use rustc_hash::FxHashMap as HashMap;

use super::keys::{KeyList, RawValue};
use super::tracks::{Target, Tracks};
use super::{AnimOutput, AnimSources, Memo};
use crate::compile::rig::RigNames;
use crate::compile::source::{ItemSource, Reference, Target as SrcTarget, TimelineSource};
use crate::compile::{LocalDiag, Ordinal};
use crate::model::*;
use crate::syntax::Span;
use crate::syntax::tree::*;

impl Tracks {
    /// Takes what item `k` of `out` produced (the same item, moved by `by`
    /// bytes in its section, modulo 2³²): its reference, source, diagnostics,
    /// timelines and keys, as if it were compiled again.
    pub(super) fn replay(
        &mut self,
        ord: Ordinal,
        item: &AnimItem,
        region: Span,
        out: &AnimOutput,
        k: usize,
        by: u32,
    ) {
        let this_anim = AnimId(0);
        let src_target = out.sources.items[k].1.target;
        if item.is_event {
            self.src.items.push((ord, ItemSource { anim: this_anim, region, target: None }));
            return;
        }
        self.src.references.push((
            ord,
            Reference { span: item.target.span, target: src_target, definition: false },
        ));
        self.src.items.push((ord, ItemSource { anim: this_anim, region, target: src_target }));
        let m = out.memo.items[k];
        self.diags.extend(
            out.diagnostics[m.diags.0 as usize..m.diags.1 as usize]
                .iter()
                .map(|x| LocalDiag { ord, diag: x.diag.clone().shifted(by) }),
        );
        let target = match src_target {
            Some(SrcTarget::Bone(b)) => Target::Bone(b.0),
            Some(SrcTarget::Slot(s)) => Target::Slot(s.0),
            _ => return,
        };
        for (_, old) in &out.sources.timelines[m.timelines.0 as usize..m.timelines.1 as usize] {
            let keys = old.keys.start as usize..old.keys.end as usize;
            let keys_from = self.keys.len();
            let (old_side, side) = (&out.sources.keys.side, &mut self.side);
            self.keys.extend(out.sources.keys.keys[keys].iter().map(|k| {
                let mut k = *k;
                k.span = k.span.shifted(by);
                if let Some((s, before)) = old_side.placed(k.placed_by) {
                    side.placed.push((s.shifted(by), before));
                    k.placed_by = side.placed.len() as u32 - 1;
                }
                if let RawValue::Color(c) = k.value {
                    side.colors.push(old_side.colors[c as usize]);
                    k.value = RawValue::Color(side.colors.len() as u32 - 1);
                }
                k
            }));
            self.src.timelines.push((
                ord,
                TimelineSource {
                    line: old.line.shifted(by),
                    end: old.end.wrapping_add(by),
                    effective: false,
                    keys: keys_from as u32..self.keys.len() as u32,
                    ..old.clone()
                },
            ));
            self.set_channel((target, old.prop), keys_from);
        }
    }
}

/// How the bones, slots and attachments an animation's lookups found in
/// one set of rig names are numbered in another: for each kind, old id →
/// new id, one to one.
#[derive(Debug, Default)]
pub(in crate::compile) struct IdMap {
    bones: HashMap<u32, u32>,
    slots: HashMap<u32, u32>,
    attachments: HashMap<u32, u32>,
    /// The new ids taken, per kind (bones, slots, attachments).
    taken: [rustc_hash::FxHashSet<u32>; 3],
}

impl IdMap {
    /// Records `old` → `new` for `kind` (0 bones, 1 slots, 2 attachments);
    /// `false` when either is already mapped otherwise (two names of one
    /// bone before would be two bones now, or the reverse: the animation
    /// is no longer the same).
    fn pair(&mut self, kind: usize, old: u32, new: u32) -> bool {
        let map = [&mut self.bones, &mut self.slots, &mut self.attachments][kind].entry(old);
        match map {
            std::collections::hash_map::Entry::Occupied(e) => *e.get() == new,
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(new);
                self.taken[kind].insert(new)
            }
        }
    }

    /// Whether every id keeps its number (the output stands as it is).
    pub(in crate::compile) fn is_identity(&self) -> bool {
        [&self.bones, &self.slots, &self.attachments].iter().all(|m| m.iter().all(|(o, n)| o == n))
    }

    fn bone(&self, b: BoneId) -> BoneId {
        BoneId(self.bones.get(&b.0).copied().unwrap_or(b.0))
    }

    fn slot(&self, s: SlotId) -> SlotId {
        SlotId(self.slots.get(&s.0).copied().unwrap_or(s.0))
    }

    fn attachment(&self, a: AttachmentId) -> AttachmentId {
        AttachmentId(self.attachments.get(&a.0).copied().unwrap_or(a.0))
    }

    fn target(&self, t: Option<SrcTarget>) -> Option<SrcTarget> {
        Some(match t? {
            SrcTarget::Bone(b) => SrcTarget::Bone(self.bone(b)),
            SrcTarget::Slot(s) => SrcTarget::Slot(self.slot(s)),
            SrcTarget::Attachment(a) => SrcTarget::Attachment(self.attachment(a)),
            other => other,
        })
    }
}

/// How an animation of the sections `sections`, compiled against the rig
/// names `old`, is numbered against `new`, when it compiles the same there
/// but for its ids: each item's target and each attachment name pushed on
/// a slot item's timelines find one bone, slot or attachment in both, and
/// different ones before stay different now. `None` otherwise: a name
/// that found nothing or was ambiguous in `old` counts as a change (its
/// message lists names, which may be others now). Nothing else of an
/// animation's compile reads the rig.
pub(in crate::compile) fn lookup_map<'a>(
    sections: impl IntoIterator<Item = &'a AnimSection>,
    old: &RigNames,
    new: &RigNames,
) -> Option<IdMap> {
    use crate::compile::names::Resolved::Found;
    let mut map = IdMap::default();
    for item in sections.into_iter().flat_map(|s| &s.items).filter(|i| !i.is_event) {
        let target = &item.target.node;
        if !item.is_slot {
            let (Found(o), Found(n)) =
                (old.bone_names.resolve(target), new.bone_names.resolve(target))
            else {
                return None;
            };
            if !map.pair(0, o.0, n.0) {
                return None;
            }
            continue;
        }
        let (Found(o), Found(n)) = (old.slot_names.resolve(target), new.slot_names.resolve(target))
        else {
            return None;
        };
        if !map.pair(1, o.0, n.0) {
            return None;
        }
        // (A name pushed on any timeline of a slot is looked up among its
        // attachments; only `@` timelines take it, the others report it.)
        for c in item.timelines.iter().flat_map(|t| &t.commands) {
            let TimelineCommand::Push(KeyValue::Name(name)) = &c.node else { continue };
            let (Some(a), Some(b)) =
                (old.attachment_ids.get(o.0, name), new.attachment_ids.get(n.0, name))
            else {
                return None;
            };
            if !map.pair(2, a.0, b.0) {
                return None;
            }
        }
    }
    Some(map)
}

impl AnimOutput {
    /// This output with its bones, slots and attachments numbered by `map`
    /// (every id in it came from a lookup `map` holds).
    pub(in crate::compile) fn renumbered(&self, map: &IdMap) -> AnimOutput {
        let mut animation = Animation::clone(&self.animation);
        for ch in &mut animation.bones {
            ch.bone = map.bone(ch.bone);
        }
        for ch in &mut animation.flips {
            ch.bone = map.bone(ch.bone);
        }
        for ch in &mut animation.slot_colors {
            ch.slot = map.slot(ch.slot);
        }
        for ch in &mut animation.attachments {
            ch.slot = map.slot(ch.slot);
            for k in &mut ch.keys {
                k.value = k.value.map(|a| map.attachment(a));
            }
        }
        let src = &self.sources;
        let mut keys = KeyList::clone(&src.keys);
        for k in &mut keys.keys {
            if let RawValue::Attachment(a) = &mut k.value {
                *a = a.map(|a| map.attachment(a));
            }
        }
        let reference = |r: &Reference| Reference { target: map.target(r.target), ..*r };
        let sources = AnimSources {
            items: (src.items.iter())
                .map(|(o, i)| (*o, ItemSource { target: map.target(i.target), ..i.clone() }))
                .collect(),
            timelines: (src.timelines.iter())
                .map(|(o, t)| (*o, TimelineSource { target: map.target(t.target), ..t.clone() }))
                .collect(),
            keys: std::sync::Arc::new(keys),
            references: src.references.iter().map(|(o, r)| (*o, reference(r))).collect(),
        };
        let memo = Memo {
            items: self.memo.items.clone(),
            checks: self.memo.checks.clone(),
            attachment_refs: self.memo.attachment_refs.iter().map(reference).collect(),
        };
        AnimOutput {
            animation: std::sync::Arc::new(animation),
            diagnostics: self.diagnostics.clone(),
            sources,
            memo,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::IdMap;

    /// Ids pair one to one: an old id keeps the new one it got, and a new
    /// id taken by one old id is refused to another.
    #[test]
    fn ids_pair_one_to_one() {
        let mut map = IdMap::default();
        assert!(map.pair(0, 1, 2));
        assert!(map.pair(0, 1, 2));
        assert!(!map.pair(0, 1, 3), "one old bone, two new ones");
        assert!(!map.pair(0, 5, 2), "two old bones, one new one");
        assert!(map.pair(1, 5, 2), "slots are numbered apart from bones");
        assert!(!map.is_identity());
        let mut same = IdMap::default();
        assert!(same.pair(2, 4, 4));
        assert!(same.is_identity());
    }
}
