//! Skeleton, skin and order sections → [`Skeleton`] (LANGUAGE.md §2–4).
//!
//! A rig is built in two parts: [`merge_rig`] merges the skeleton sections
//! (`merge`) and indexes the names (`names`), which is all the animations
//! need; [`finish_rig`] then makes the skins, the draw order and the model
//! (`finish`). This file holds what they hand over.

mod finish;
mod merge;
mod names;

use std::sync::Arc;

pub use names::ChildIds;

use super::names::{NameId, NameIndex, resolve_or_explain};
use super::source::{BoneDef, OrderEntry, PropSource, Reference, SkinEntry, SlotDef, Target};
use super::{LocalDiag, Ordinal};
use crate::model::*;
use crate::syntax::tree::*;
use crate::syntax::{Diagnostic, Span};
use merge::{Merge, SortedBones};

/// The sections a rig is built from, in document order.
pub enum RigSection<'a> {
    Skeleton(&'a SkeletonSection),
    Skin(&'a SkinSection),
    Order(&'a OrderSection),
}

/// What animations need of a rig to resolve names: everything
/// `anim::compile_anim` reads. It is known before the rest of the rig
/// (skins, draw order, the model), which can then be finished beside the
/// animations ([`merge_rig`], [`finish_rig`]).
#[derive(Clone, Debug, Default)]
pub struct RigNames {
    /// Shared with the rig before when the names are the same (a skeleton
    /// edit that changes a value): building the index hashes every name.
    pub bone_names: Arc<NameIndex<BoneId>>,
    pub slot_names: Arc<NameIndex<SlotId>>,
    /// (slot, short name) → attachment.
    pub attachment_ids: Arc<ChildIds<AttachmentId>>,
}

impl RigNames {
    /// Whether an animation compiled against `self` compiles the same
    /// against `other`: the bone, slot and attachment names and ids are
    /// equal. Setup values, shapes, skins and the source map do not matter
    /// to an animation.
    pub fn same(&self, other: &RigNames) -> bool {
        self.bone_names.same_names(&other.bone_names)
            && self.slot_names.same_names(&other.slot_names)
            && self.attachment_ids.same(&other.attachment_ids)
    }
}

/// A compiled rig with what the animations need to resolve names.
#[derive(Debug, Default)]
pub struct RigOutput {
    pub skeleton: Arc<Skeleton>,
    pub names: RigNames,
    pub diagnostics: Vec<LocalDiag>,
    /// Where each bone was first written (implicit parents: nowhere).
    pub bone_sources: Vec<Option<(Ordinal, Span)>>,
    /// Where each slot was first written.
    pub slot_sources: Vec<(Ordinal, Span)>,
    /// The source map's rig part, in section-relative spans.
    pub sources: RigSources,
}

/// The rig's part of the source map; each entry with the ordinal of its section.
#[derive(Debug, Default)]
pub struct RigSources {
    pub bone_defs: Vec<(Ordinal, BoneDef)>,
    pub slot_defs: Vec<(Ordinal, SlotDef)>,
    pub skin_entries: Vec<(Ordinal, SkinEntry)>,
    pub order_entries: Vec<(Ordinal, OrderEntry)>,
    pub props: Vec<(Ordinal, PropSource)>,
    pub references: Vec<(Ordinal, Reference)>,
}

/// Diagnostics and references, as the rig's parts are merged.
#[derive(Default)]
struct Ctx {
    diags: Vec<LocalDiag>,
    refs: Vec<(Ordinal, Reference)>,
}

impl Ctx {
    /// Reports `d` in section `ord`.
    fn push(&mut self, ord: Ordinal, d: Diagnostic) {
        self.diags.push(LocalDiag { ord, diag: d });
    }

    /// Resolves a reference, reporting unknown and ambiguous ones.
    fn resolve<Id: NameId>(
        &mut self,
        idx: &NameIndex<Id>,
        what: &str,
        reference: &Spanned<String>,
        ord: Ordinal,
        fallback: &str,
    ) -> Option<Id> {
        resolve_or_explain(idx, what, reference, fallback).map_err(|d| self.push(ord, d)).ok()
    }

    /// Records a name and what it resolved to.
    fn reference(&mut self, ord: Ordinal, span: Span, target: Option<Target>, definition: bool) {
        self.refs.push((ord, Reference { span, target, definition }));
    }
}

/// A rig whose skeleton sections are merged and whose names are known
/// ([`merge_rig`]), to be finished ([`finish_rig`]).
pub struct MergedRig {
    m: Merge,
    sorted: SortedBones,
    /// What animations need; [`finish_rig`] puts it in the output.
    pub names: RigNames,
}

/// The first part of building a rig: merges the skeleton sections (bones,
/// implicit parents, slots, attachments) and indexes the names, which is
/// all the animations need. `previous` is the rig compiled before, if any:
/// its name indexes are reused when the bone or slot names are the same.
pub fn merge_rig(
    sections: &[(Ordinal, RigSection<'_>)],
    previous: Option<&RigOutput>,
) -> MergedRig {
    let mut m = Merge::with_room(sections);
    for (ord, sec) in sections {
        if let RigSection::Skeleton(sk) = sec {
            m.skeleton_section(*ord, sk);
        }
    }
    let parents = m.add_implicit_parents();
    let sorted = m.sort_bones(&parents);
    let bone_names = reuse_or_index(
        previous.map(|p| &p.names.bone_names),
        sorted.bones.iter().map(|b| b.name.as_str()),
    );
    let slot_names = reuse_or_index(
        previous.map(|p| &p.names.slot_names),
        m.slots.iter().map(|s| s.name.as_str()),
    );
    let attachment_ids = Arc::new(std::mem::take(&mut m.att_ids));
    MergedRig { m, sorted, names: RigNames { bone_names, slot_names, attachment_ids } }
}

/// The rest of building a rig from `sections` (the same as
/// [`merge_rig`]'s): skins, the draw order and the model.
pub fn finish_rig(sections: &[(Ordinal, RigSection<'_>)], merged: MergedRig) -> RigOutput {
    let MergedRig { mut m, sorted, names } = merged;
    let (bone_names, slot_names) = (&names.bone_names, &names.slot_names);
    let bone_of_slot: Vec<BoneId> =
        m.slots.iter().map(|s| BoneId::from_index(sorted.new_index[s.bone])).collect();

    let mut cx = std::mem::take(&mut m.cx);
    let skin_items = m.skins(sections, slot_names, &names.attachment_ids, &mut cx);
    let (contents, skins) = m.finish_skins(&skin_items, &bone_of_slot, bone_names, &mut cx);
    let draw_order = m.draw_order(sections, slot_names, &mut cx);

    // A slot's setup attachment is the first one defined for it.
    let mut first_attachment: Vec<Option<AttachmentId>> = vec![None; m.slots.len()];
    for (i, (slot, _)) in m.atts.iter().enumerate().rev() {
        first_attachment[*slot] = Some(AttachmentId::from_index(i));
    }
    // (Nothing reads the merged slots' names after this: they move.)
    let model_slots: Vec<Slot> = m
        .slots
        .iter_mut()
        .enumerate()
        .map(|(i, s)| Slot {
            name: std::mem::take(&mut s.name),
            bone: bone_of_slot[i],
            color: s.color,
            attachment: first_attachment[i],
        })
        .collect();
    let attachments = names
        .attachment_ids
        .children()
        .map(|(s, n)| AttachmentSlotName { slot: SlotId(s), name: n.to_string() })
        .collect();
    let mut src = m.src;
    src.references = cx.refs;
    RigOutput {
        sources: src,
        skeleton: Arc::new(Skeleton {
            bones: sorted.bones,
            slots: model_slots,
            attachments,
            contents,
            skins,
            draw_order,
            ..Default::default()
        }),
        names,
        diagnostics: cx.diags,
        bone_sources: sorted.sources,
        slot_sources: m.slots.iter().map(|s| s.source).collect(),
    }
}

/// The index of `names`: `previous` itself when it indexes the same names
/// in the same order.
fn reuse_or_index<'a, Id: NameId>(
    previous: Option<&std::sync::Arc<NameIndex<Id>>>,
    names: impl ExactSizeIterator<Item = &'a str> + Clone,
) -> std::sync::Arc<NameIndex<Id>> {
    match previous {
        Some(p) if p.len() == names.len() && p.names().eq(names.clone()) => p.clone(),
        _ => std::sync::Arc::new(NameIndex::new(names)),
    }
}
