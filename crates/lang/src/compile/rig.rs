//! Skeleton, skin and order sections → [`Skeleton`] (LANGUAGE.md §2–4).

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use super::names::{NameId, NameIndex, NameList, last_segment, resolve_or_explain};
use super::source::{
    BoneDef, OrderEntry, PropKey, PropSource, Reference, SkinEntry, SlotDef, Target,
};
use super::{LocalDiag, Ordinal};
use crate::model::*;
use crate::syntax::tree::*;
use crate::syntax::{Diagnostic, Span, clip, quote_list};

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
const NONE: u32 = u32::MAX;

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
    fn push(&mut self, parent: u32, name: &str) -> Id {
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
    fn name(&self, id: usize) -> &str {
        self.names.get(id as u32)
    }

    /// Whether `other` has the same children (parents and short names) in
    /// the same order.
    fn same(&self, other: &ChildIds<Id>) -> bool {
        self.names == other.names
            && self.entries.len() == other.entries.len()
            && self.entries.iter().zip(&other.entries).all(|(a, b)| a.0 == b.0)
    }

    /// The short names of `parent`'s children, in the order they were added
    /// (its chain, not every child).
    pub(super) fn names_of(&self, parent: u32) -> Vec<&str> {
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
    fn reserve(&mut self, n: usize, bytes: usize) {
        self.parents.reserve(n);
        self.entries.reserve(n);
        self.same_hash.reserve(n);
        self.names.reserve(n, bytes);
    }
}

/// `a.b`, without the formatting machinery (this runs for every slot).
fn dotted(a: &str, b: &str) -> String {
    let mut s = String::with_capacity(a.len() + 1 + b.len());
    s.push_str(a);
    s.push('.');
    s.push_str(b);
    s
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

fn bone_prop_key(p: &BoneProp) -> (PropKey, f64) {
    match *p {
        BoneProp::Length(v) => (PropKey::Length, v),
        BoneProp::Rotation(v) => (PropKey::Rotation, v),
        BoneProp::X(v) => (PropKey::X, v),
        BoneProp::Y(v) => (PropKey::Y, v),
        BoneProp::ScaleX(v) => (PropKey::ScaleX, v),
        BoneProp::ScaleY(v) => (PropKey::ScaleY, v),
        _ => (PropKey::Other, 0.0),
    }
}

fn attachment_prop_key(p: &AttachmentProp) -> (PropKey, f64) {
    match *p {
        AttachmentProp::Rotation(v) => (PropKey::Rotation, v),
        AttachmentProp::X(v) => (PropKey::X, v),
        AttachmentProp::Y(v) => (PropKey::Y, v),
        AttachmentProp::ScaleX(v) => (PropKey::ScaleX, v),
        AttachmentProp::ScaleY(v) => (PropKey::ScaleY, v),
        _ => (PropKey::Other, 0.0),
    }
}

/// Records property tokens; returns their range in `props`.
fn record_props<T>(
    props: &mut Vec<(Ordinal, PropSource)>,
    ord: Ordinal,
    list: &[Spanned<T>],
    key: impl Fn(&T) -> (PropKey, f64),
) -> std::ops::Range<u32> {
    let start = props.len() as u32;
    for p in list {
        let (key, value) = key(&p.node);
        props.push((ord, PropSource { key, span: p.span, value }));
    }
    start..props.len() as u32
}

#[derive(Default)]
struct WBone {
    name: String,
    length: f64,
    rot_deg: f64,
    x: f64,
    y: f64,
    sx: f64,
    sy: f64,
    color: Option<Color>,
    flip_x: bool,
    flip_y: bool,
    inherit_rotation: bool,
    inherit_scale: bool,
    source: Option<(Ordinal, Span)>,
}

impl WBone {
    fn new(name: String, source: Option<(Ordinal, Span)>) -> Self {
        WBone {
            name,
            sx: 1.0,
            sy: 1.0,
            inherit_rotation: true,
            inherit_scale: true,
            source,
            ..WBone::default()
        }
    }
}

/// An attachment while sections are merged: the type is kept as written so
/// redefinitions compare the way the original does.
#[derive(Clone, Default)]
struct WAtt {
    /// `None`: no type (none written, or `:none`, which the original stores
    /// the same way).
    ty: Option<TypeName>,
    image: Option<String>,
    width: Option<f64>,
    height: Option<f64>,
    x: Option<f64>,
    y: Option<f64>,
    rot: Option<f64>,
    sx: Option<f64>,
    sy: Option<f64>,
    stroke_width: Option<f64>,
    miter: Option<f64>,
    fill: Option<Color>,
    stroke: Option<Color>,
    join: Option<LineJoin>,
    cap: Option<LineCap>,
    diameter: Option<f64>,
    commands: Vec<(Ordinal, PathCommandLine)>,
}

/// The type a line writes (`None`: none written), as [`WAtt::ty`] keeps it.
fn written_type(spec: &AttachmentSpec) -> Option<Option<TypeName>> {
    spec.ty.as_ref().map(|t| match &t.node {
        TypeName::Unknown(s) if s == "none" => None,
        ty => Some(ty.clone()),
    })
}

impl WAtt {
    fn apply(&mut self, props: &[Spanned<AttachmentProp>]) {
        for p in props {
            match &p.node {
                AttachmentProp::Image(s) => self.image = Some(s.clone()),
                AttachmentProp::Width(v) => self.width = Some(*v),
                AttachmentProp::Height(v) => self.height = Some(*v),
                AttachmentProp::X(v) => self.x = Some(*v),
                AttachmentProp::Y(v) => self.y = Some(*v),
                AttachmentProp::Rotation(v) => self.rot = Some(*v),
                AttachmentProp::ScaleX(v) => self.sx = Some(*v),
                AttachmentProp::ScaleY(v) => self.sy = Some(*v),
                AttachmentProp::StrokeWidth(v) => self.stroke_width = Some(*v),
                AttachmentProp::MiterLimit(v) => self.miter = Some(*v),
                AttachmentProp::Fill(c) => self.fill = Some(*c),
                AttachmentProp::Stroke(c) => self.stroke = Some(*c),
                AttachmentProp::Join(j) => self.join = Some(*j),
                AttachmentProp::Cap(c) => self.cap = Some(*c),
                AttachmentProp::Diameter(v) => self.diameter = Some(*v),
            }
        }
    }
}

#[derive(Default)]
struct Ctx {
    diags: Vec<LocalDiag>,
    refs: Vec<(Ordinal, Reference)>,
}

impl Ctx {
    fn push(&mut self, ord: Ordinal, d: Diagnostic) {
        self.diags.push((ord, d));
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

fn parent_name(s: &str) -> Option<&str> {
    s.rfind('.').map(|i| &s[..i])
}

/// A slot while sections are merged.
struct WSlot {
    /// `bone.slot`.
    name: String,
    /// Its bone (an index into [`Merge::bones`]).
    bone: usize,
    color: Color,
    source: (Ordinal, Span),
}

/// Full bone names → positions in a list of bones, without a copy of
/// the names: each bone is chained under the hash of its name, and a
/// lookup compares the chain's names in the list (the hash only picks it).
#[derive(Default)]
struct BoneNames {
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
    fn get(&self, bones: &[WBone], name: &str) -> Option<usize> {
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
    fn push(&mut self, bones: &mut Vec<WBone>, bone: WBone) -> usize {
        let i = bones.len();
        let head = self.heads.entry(Self::hash(&bone.name)).or_insert(u32::MAX);
        self.before.push(*head);
        *head = i as u32;
        bones.push(bone);
        i
    }

    fn reserve(&mut self, n: usize) {
        self.heads.reserve(n);
        self.before.reserve(n);
    }
}

/// The rig while its sections are merged (bone ids are positions before
/// sorting until [`Merge::sort_bones`]).
#[derive(Default)]
struct Merge {
    cx: Ctx,
    src: RigSources,
    bones: Vec<WBone>,
    /// Full name → bone (an index into `bones`), by the names in `bones`.
    bone_by_name: BoneNames,
    skeleton_color: Option<Color>,
    slots: Vec<WSlot>,
    /// (bone index, short name) → slot index.
    slot_ids: ChildIds<SlotId>,
    /// Attachments: (slot index, data); their names are in `att_ids`.
    atts: Vec<(usize, WAtt)>,
    att_ids: ChildIds<AttachmentId>,
}

/// The bones sorted by depth, parents first.
struct SortedBones {
    bones: Vec<Bone>,
    /// Position after sorting of each bone before.
    new_index: Vec<usize>,
    sources: Vec<Option<(Ordinal, Span)>>,
}

/// The skins other than the default one: name and (attachment, data) items.
type SkinItems = Vec<(String, Vec<(usize, WAtt)>)>;

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

impl Merge {
    /// Room for every bone line and its properties up front (growing long
    /// vectors one push at a time copies them again and again).
    fn with_room(sections: &[(Ordinal, RigSection<'_>)]) -> Merge {
        let mut m = Merge::default();
        let skeletons = || {
            sections
                .iter()
                .filter_map(|(_, s)| if let RigSection::Skeleton(sk) = s { Some(sk) } else { None })
        };
        // Counted from the bone lines alone: a pass over every slot line
        // too reads the whole tree once more, from memory the merge would
        // then read again (about 5% of merging a 5000-bone rig). The slot
        // lines' properties are guessed at two each; more only grows the
        // vector.
        let bone_lines: usize = skeletons().map(|sk| sk.bones.len()).sum();
        let (mut slot_lines, mut prop_count) = (0, 0);
        for b in skeletons().flat_map(|sk| &sk.bones) {
            slot_lines += b.slots.len();
            prop_count += b.props.len();
        }
        let prop_count = prop_count + 2 * slot_lines;
        m.bones.reserve(bone_lines);
        m.bone_by_name.reserve(bone_lines);
        m.slots.reserve(slot_lines);
        // (Short names are rarely longer than 8 bytes.)
        m.slot_ids.reserve(slot_lines, 8 * slot_lines);
        m.atts.reserve(slot_lines);
        m.att_ids.reserve(slot_lines, 8 * slot_lines);
        m.src.bone_defs.reserve(bone_lines);
        m.src.slot_defs.reserve(slot_lines);
        m.src.props.reserve(prop_count);
        m.cx.refs.reserve(bone_lines + 2 * slot_lines);
        m
    }

    /// Merges one skeleton section: its bone lines and their slot lines.
    fn skeleton_section(&mut self, ord: Ordinal, sk: &SkeletonSection) {
        if let Some(c) = sk.color {
            self.skeleton_color = Some(c);
        }
        for line in &sk.bones {
            let bi = self.bone_line(ord, line);
            for sl in &line.slots {
                self.slot_line(ord, bi, sl);
            }
        }
    }

    /// Merges a bone line's properties; returns the bone's index.
    fn bone_line(&mut self, ord: Ordinal, line: &BoneLine) -> usize {
        let bi = match self.bone_by_name.get(&self.bones, &line.path.node) {
            Some(bi) => bi,
            None => {
                let bone = WBone::new(line.path.node.clone(), Some((ord, line.path.span)));
                self.bone_by_name.push(&mut self.bones, bone)
            }
        };
        let props = record_props(&mut self.src.props, ord, &line.props, bone_prop_key);
        let end =
            line.props.last().map_or(line.path.span.end, |p| p.span.end.max(line.path.span.end));
        // (Bone ids are positions before sorting until the end.)
        let old = BoneId::from_index(bi);
        self.src
            .bone_defs
            .push((ord, BoneDef { bone: old, line: line.span, path: line.path.span, props, end }));
        self.cx.reference(ord, line.path.span, Some(Target::Bone(old)), true);
        let b = &mut self.bones[bi];
        for p in &line.props {
            match p.node {
                BoneProp::Length(v) => b.length = v,
                BoneProp::Rotation(v) => b.rot_deg = v,
                BoneProp::X(v) => b.x = v,
                BoneProp::Y(v) => b.y = v,
                BoneProp::ScaleX(v) => b.sx = v,
                BoneProp::ScaleY(v) => b.sy = v,
                BoneProp::Color(c) => b.color = Some(c),
                BoneProp::FlipX => b.flip_x = true,
                BoneProp::FlipY => b.flip_y = true,
                BoneProp::NoRotation => b.inherit_rotation = false,
                BoneProp::NoScale => b.inherit_scale = false,
            }
        }
        bi
    }

    /// Merges a slot line of bone `bone` (an index into `bones`): the slot
    /// and its attachment.
    fn slot_line(&mut self, ord: Ordinal, bone: usize, sl: &SlotLine) {
        let bone_name = self.bones[bone].name.as_str();
        let short = sl.slot.as_ref().map_or_else(|| last_segment(bone_name), |s| s.node.as_str());
        let si = match self.slot_ids.get(bone as u32, short) {
            Some(id) => id.index(),
            None => {
                self.slots.push(WSlot {
                    name: dotted(bone_name, short),
                    bone,
                    color: Color::WHITE,
                    source: (ord, sl.span),
                });
                self.slot_ids.push(bone as u32, short).index()
            }
        };
        if let Some(c) = sl.colors.last() {
            self.slots[si].color = *c;
        }
        let head = sl.slot.as_ref().map_or(Span::new(sl.span.start, sl.span.start + 1), |s| s.span);
        self.cx.reference(ord, head, Some(Target::Slot(SlotId::from_index(si))), true);
        let region = sl.commands.iter().fold(sl.span, |r, c| r.cover(c.span));
        let props = record_props(&mut self.src.props, ord, &sl.spec.props, attachment_prop_key);
        let end = sl
            .spec
            .props
            .last()
            .map(|p| p.span.end)
            .or(sl.spec.ty.as_ref().map(|t| t.span.end))
            .unwrap_or(head.end);
        let slot_def = SlotDef {
            slot: SlotId::from_index(si),
            attachment: None,
            line: sl.span,
            region,
            props,
            end,
        };
        if !sl.attachment_valid {
            self.src.slot_defs.push((ord, slot_def));
            return;
        }
        // (Slot and attachment names have no dots, so the slot and the short
        // name identify an attachment as its full `BONE.SLOT.ATT` does.)
        let att_short = sl.attachment.as_ref().map_or(short, |a| a.node.as_str());
        let line_type = written_type(&sl.spec);
        let atts = &mut self.atts;
        let ai = match self.att_ids.get(si as u32, att_short) {
            Some(id) => {
                let ai = id.index();
                if let Some(t) = &line_type
                    && *t != atts[ai].1.ty
                {
                    atts[ai].1 = WAtt { ty: t.clone(), ..WAtt::default() };
                }
                ai
            }
            None => {
                atts.push((si, WAtt { ty: line_type.flatten(), ..WAtt::default() }));
                self.att_ids.push(si as u32, att_short).index()
            }
        };
        self.src
            .slot_defs
            .push((ord, SlotDef { attachment: Some(AttachmentId::from_index(ai)), ..slot_def }));
        if let Some(a) = &sl.attachment {
            self.cx.reference(
                ord,
                a.span,
                Some(Target::Attachment(AttachmentId::from_index(ai))),
                true,
            );
        }
        let w = &mut self.atts[ai].1;
        w.apply(&sl.spec.props);
        if w.ty == Some(TypeName::Path) {
            w.commands.extend(sl.commands.iter().map(|c| (ord, c.clone())));
        } else if let Some(first) = sl.commands.first() {
            self.cx.push(
                ord,
                Diagnostic::error(
                    first.span,
                    "path commands under an attachment that is not a path are ignored",
                )
                .hint(match &w.ty {
                    None => "this attachment has no type".to_string(),
                    Some(t) => format!("this attachment is a {}", clip(t.as_str())),
                }),
            );
        }
    }

    /// Creates the parents that are never written, after all written bones,
    /// and gives bones without a color the skeleton's. Returns, for each
    /// written bone whose parent was written too, that parent's index
    /// (`NONE` for the others), found on the way.
    fn add_implicit_parents(&mut self) -> Vec<u32> {
        let bones = &mut self.bones;
        let bone_by_name = &mut self.bone_by_name;
        let written = bones.len();
        let mut parents = vec![NONE; written];
        // Bones whose every ancestor exists: the walk up a chain stops there.
        let mut complete = vec![false; written];
        for i in 0..written {
            let mut cur = bones[i].name.as_str();
            // (Allocates only for a bone whose parent was never written.)
            let mut missing: Vec<String> = Vec::new();
            let mut direct = true;
            while let Some(p) = parent_name(cur) {
                let found = bone_by_name.get(bones, p);
                if let (true, Some(j)) = (direct, found) {
                    parents[i] = j as u32;
                }
                direct = false;
                match found {
                    Some(j) if complete.get(j).copied().unwrap_or(false) => break,
                    Some(_) => {}
                    None if !missing.iter().any(|m| m == p) => missing.push(p.to_string()),
                    None => {}
                }
                cur = p;
            }
            // The original adds parents shallow to deep per bone name.
            for p in missing.into_iter().rev() {
                bone_by_name.push(bones, WBone::new(p, None));
                complete.push(true);
            }
            complete[i] = true;
        }
        if let Some(c) = self.skeleton_color {
            for b in bones {
                b.color.get_or_insert(c);
            }
        }
        parents
    }

    /// Sorts the bones by depth (stable), so parents come first, and
    /// renumbers the bone ids recorded so far. `known_parents` holds the
    /// parents [`Merge::add_implicit_parents`] found (`NONE`: to look up).
    fn sort_bones(&mut self, known_parents: &[u32]) -> SortedBones {
        let bones = &self.bones;
        let mut order: Vec<usize> = (0..bones.len()).collect();
        order.sort_by_cached_key(|&i| memchr::memchr_iter(b'.', bones[i].name.as_bytes()).count());
        let mut new_index = vec![0usize; bones.len()];
        for (new, &old) in order.iter().enumerate() {
            new_index[old] = new;
        }
        let bone_id = |name: &str| {
            self.bone_by_name.get(bones, name).map(|i| BoneId::from_index(new_index[i]))
        };
        let parents: Vec<Option<BoneId>> = order
            .iter()
            .map(|&i| match known_parents.get(i) {
                Some(&j) if j != NONE => Some(BoneId::from_index(new_index[j as usize])),
                _ => parent_name(&bones[i].name).and_then(bone_id),
            })
            .collect();
        // (Nothing looks a merged bone up by name after this: the names move.)
        let bones = &mut self.bones;
        let model_bones: Vec<Bone> = order
            .iter()
            .zip(parents)
            .map(|(&i, parent)| {
                let b = &mut bones[i];
                Bone {
                    name: std::mem::take(&mut b.name),
                    parent,
                    setup: BoneTransform {
                        x: b.x,
                        y: b.y,
                        rotation_rad: normalize_angle(b.rot_deg.to_radians()),
                        scale_x: b.sx,
                        scale_y: b.sy,
                        flip_x: b.flip_x,
                        flip_y: b.flip_y,
                    },
                    length: b.length,
                    color: b.color.unwrap_or(Color::DEFAULT_BONE),
                    inherit_rotation: b.inherit_rotation,
                    inherit_scale: b.inherit_scale,
                }
            })
            .collect();
        let sources: Vec<Option<(Ordinal, Span)>> =
            order.iter().map(|&i| bones[i].source).collect();
        let renumber = |b: BoneId| BoneId::from_index(new_index[b.index()]);
        for (_, d) in &mut self.src.bone_defs {
            d.bone = renumber(d.bone);
        }
        for (_, r) in &mut self.cx.refs {
            if let Some(Target::Bone(b)) = &mut r.target {
                *b = renumber(*b);
            }
        }
        SortedBones { bones: model_bones, new_index, sources }
    }

    /// Skins: resolves each item to an attachment of the skeleton.
    fn skins(
        &mut self,
        sections: &[(Ordinal, RigSection<'_>)],
        slot_names: &NameIndex<SlotId>,
        att_ids: &ChildIds<AttachmentId>,
        cx: &mut Ctx,
    ) -> SkinItems {
        let mut skins: SkinItems = Vec::new();
        for (ord, sec) in sections {
            let RigSection::Skin(sk) = sec else { continue };
            let ord = *ord;
            let si = match skins.iter().position(|(n, _)| *n == sk.name.node) {
                Some(i) => i,
                None => {
                    skins.push((sk.name.node.clone(), Vec::new()));
                    skins.len() - 1
                }
            };
            let skin = SkinId::from_index(si + 1);
            cx.reference(ord, sk.name.span, Some(Target::Skin(skin)), true);
            // (An item's data is large: growing the list would copy it.)
            skins[si].1.reserve(sk.items.len());
            for item in &sk.items {
                if let Some(found) = self.skin_item(ord, skin, item, slot_names, att_ids, cx) {
                    skins[si].1.push(found);
                }
            }
        }
        skins
    }

    /// One skin item: the attachment it replaces and its data.
    fn skin_item(
        &mut self,
        ord: Ordinal,
        skin: SkinId,
        item: &SkinItem,
        slot_names: &NameIndex<SlotId>,
        att_ids: &ChildIds<AttachmentId>,
        cx: &mut Ctx,
    ) -> Option<(usize, WAtt)> {
        let region = item.commands.iter().fold(item.span, |r, c| r.cover(c.span));
        let resolved = cx.resolve(slot_names, "slot", &item.slot, ord, "the skin item is ignored");
        cx.reference(ord, item.slot.span, resolved.map(Target::Slot), false);
        let mut entry = SkinEntry { skin, region, slot: resolved, attachment: None };
        let Some(slot) = resolved else {
            self.src.skin_entries.push((ord, entry));
            return None;
        };
        let slot = slot.index();
        let att_short = item
            .attachment
            .as_ref()
            .map_or_else(|| last_segment(&item.slot.node), |a| a.node.as_str());
        let found = att_ids.get(slot as u32, att_short).map(AttachmentId::index);
        entry.attachment = found.map(AttachmentId::from_index);
        self.src.skin_entries.push((ord, entry));
        if let Some(a) = &item.attachment {
            cx.reference(
                ord,
                a.span,
                found.map(|ai| Target::Attachment(AttachmentId::from_index(ai))),
                false,
            );
        }
        let Some(ai) = found else {
            let span = item.attachment.as_ref().map_or(item.slot.span, |a| a.span);
            let existing = quote_list(
                (self.atts.iter().enumerate())
                    .filter(|(_, a)| a.0 == slot)
                    .map(|(i, _)| att_ids.name(i)),
            );
            let mut d = Diagnostic::error(
                span,
                format!(
                    "slot `{}` has no attachment `{}` in the skeleton",
                    clip(&self.slots[slot].name),
                    clip(att_short)
                ),
            )
            .hint("a skin can only replace attachments the skeleton defines; the item is ignored");
            if !existing.is_empty() {
                d = d.hint(format!("its attachments: {existing}"));
            }
            cx.push(ord, d);
            return None;
        };
        let mut w = WAtt { ty: written_type(&item.spec).flatten(), ..WAtt::default() };
        w.apply(&item.spec.props);
        if w.ty == Some(TypeName::Path) {
            w.commands = item.commands.iter().map(|c| (ord, c.clone())).collect();
        }
        Some((ai, w))
    }

    /// The contents of every attachment in the default skin, and every
    /// skin (the default one first) with what it replaces.
    fn finish_skins(
        &self,
        skin_items: &SkinItems,
        bone_of_slot: &[BoneId],
        bone_names: &NameIndex<BoneId>,
        cx: &mut Ctx,
    ) -> (Vec<Attachment>, Vec<Skin>) {
        let finish = |w: &WAtt, slot: usize, cx: &mut Ctx| {
            finish_attachment(w, bone_of_slot[slot], bone_names, cx)
        };
        let contents: Vec<Attachment> =
            self.atts.iter().map(|(slot, w)| finish(w, *slot, cx)).collect();
        let mut skins = Vec::with_capacity(1 + skin_items.len());
        skins.push(Skin::named("default"));
        for (name, items) in skin_items {
            // In the order written (so are their diagnostics); the last
            // entry for an attachment wins, as when each overwrote a copy
            // of the default list.
            let mut replaced: Vec<(AttachmentId, Attachment)> = items
                .iter()
                .map(|(ai, w)| (AttachmentId::from_index(*ai), finish(w, self.atts[*ai].0, cx)))
                .collect();
            replaced.reverse();
            replaced.sort_by_key(|(a, _)| *a);
            replaced.dedup_by_key(|(a, _)| *a);
            skins.push(Skin { name: name.clone(), replaced });
        }
        (contents, skins)
    }

    /// The draw order: the slots the order sections list, then the others.
    fn draw_order(
        &mut self,
        sections: &[(Ordinal, RigSection<'_>)],
        slot_names: &NameIndex<SlotId>,
        cx: &mut Ctx,
    ) -> Vec<SlotId> {
        let mut listed: Vec<SlotId> = Vec::new();
        let mut is_listed = vec![false; self.slots.len()];
        for (ord, sec) in sections {
            let RigSection::Order(o) = sec else { continue };
            for e in &o.entries {
                let resolved = cx.resolve(slot_names, "slot", e, *ord, "the entry is ignored");
                cx.reference(*ord, e.span, resolved.map(Target::Slot), false);
                self.src.order_entries.push((*ord, OrderEntry { span: e.span, slot: resolved }));
                let Some(id) = resolved else { continue };
                if is_listed[id.index()] {
                    cx.push(
                        *ord,
                        Diagnostic::warning(
                            e.span,
                            format!(
                                "slot `{}` is already listed; this entry is ignored",
                                clip(&self.slots[id.index()].name)
                            ),
                        ),
                    );
                    continue;
                }
                is_listed[id.index()] = true;
                listed.push(id);
            }
        }
        let mut draw_order = listed;
        draw_order.extend((0..self.slots.len()).filter(|&i| !is_listed[i]).map(SlotId::from_index));
        draw_order
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

fn finish_attachment(
    w: &WAtt,
    slot_bone: BoneId,
    bones: &NameIndex<BoneId>,
    cx: &mut Ctx,
) -> Attachment {
    let transform = AttachmentTransform {
        x: w.x.unwrap_or(0.0),
        y: w.y.unwrap_or(0.0),
        rotation_rad: normalize_angle(w.rot.unwrap_or(0.0).to_radians()),
        scale_x: w.sx.unwrap_or(1.0),
        scale_y: w.sy.unwrap_or(1.0),
    };
    let style = ShapeStyle {
        stroke_width: w.stroke_width.unwrap_or(1.0),
        miter_limit: w.miter.unwrap_or(10.0),
        fill: w.fill.unwrap_or(Color::BLACK),
        stroke: w.stroke.unwrap_or(Color::BLACK),
        join: w.join.unwrap_or(LineJoin::Miter),
        cap: w.cap.unwrap_or(LineCap::Butt),
    };
    let kind = match &w.ty {
        Some(TypeName::Sprite) => {
            AttachmentKind::Sprite { image: w.image.clone(), pivot: [0.5, 0.5] }
        }
        Some(TypeName::Rect) => AttachmentKind::Rect {
            width: w.width.unwrap_or(0.0),
            height: w.height.unwrap_or(0.0),
            corner_radius: w.diameter.unwrap_or(0.0) / 2.0,
            style,
        },
        Some(TypeName::Ellipse) => AttachmentKind::Ellipse {
            radius_x: w.width.unwrap_or(0.0) / 2.0,
            radius_y: w.height.unwrap_or(0.0) / 2.0,
            style,
        },
        Some(TypeName::Circle) => {
            AttachmentKind::Circle { radius: w.diameter.unwrap_or(0.0) / 2.0, style }
        }
        Some(TypeName::Path) => {
            AttachmentKind::Path { path: build_path(&w.commands, slot_bone, bones, cx), style }
        }
        Some(TypeName::Unknown(_)) | None => AttachmentKind::None,
    };
    Attachment { transform, kind }
}

/// Resolves path commands into one bound subpath. A path that does not start
/// with `M` starts at the slot bone's origin; a later `M` starts the path
/// again (the original drops what came before); commands after `C` are
/// ignored.
fn build_path(
    cmds: &[(Ordinal, PathCommandLine)],
    slot_bone: BoneId,
    bones: &NameIndex<BoneId>,
    cx: &mut Ctx,
) -> BoundPath {
    let origin = BoundPoint { bone: slot_bone, x: 0.0, y: 0.0 };
    let mut path = BoundPath { start: origin, segments: Vec::new(), closed: false };
    let mut default_bone = slot_bone;
    let mut first = true;
    for (ord, line) in cmds {
        let ord = *ord;
        if path.closed {
            cx.push(
                ord,
                Diagnostic::warning(line.span, "commands after `C` are ignored")
                    .hint("`C` closes the path; it must be the last command"),
            );
            continue;
        }
        let pt = |p: &PointLit, default_bone: BoneId, cx: &mut Ctx| {
            let bone = match &p.bone {
                Some(r) => {
                    let found =
                        cx.resolve(bones, "bone", r, ord, "the point stays on the default bone");
                    cx.reference(ord, r.span, found.map(Target::Bone), false);
                    found.unwrap_or(default_bone)
                }
                None => default_bone,
            };
            BoundPoint { bone, x: p.x, y: p.y }
        };
        match &line.command {
            PathCommand::Switch(r) => {
                let found = cx.resolve(bones, "bone", r, ord, "the default bone does not change");
                cx.reference(ord, r.span, found.map(Target::Bone), false);
                if let Some(b) = found {
                    default_bone = b;
                }
                continue;
            }
            PathCommand::Move(p) => {
                if !first {
                    cx.push(
                        ord,
                        Diagnostic::warning(
                            line.span,
                            "`M` after the first command starts the path again; everything before it is dropped",
                        )
                        .hint("a path is one shape: use `M` only as its first command"),
                    );
                }
                path.start = pt(p, default_bone, cx);
                path.segments.clear();
            }
            PathCommand::Line(p) => {
                let p = pt(p, default_bone, cx);
                path.segments.push(PathSegment::LineTo(p));
            }
            PathCommand::Quad(c, p) => {
                let c = pt(c, default_bone, cx);
                let p = pt(p, default_bone, cx);
                path.segments.push(PathSegment::QuadTo(c, p));
            }
            PathCommand::Cubic(a, b, p) => {
                let a = pt(a, default_bone, cx);
                let b = pt(b, default_bone, cx);
                let p = pt(p, default_bone, cx);
                path.segments.push(PathSegment::CubicTo(a, b, p));
            }
            PathCommand::Close => path.closed = true,
        }
        first = false;
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

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
