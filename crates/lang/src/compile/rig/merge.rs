//! Merging a rig's skeleton sections as the original does: reopened
//! bones, merged attachments, implicit parents, then the bones sorted
//! parents first.

use super::names::{BoneNames, ChildIds, NONE, dotted, parent_name};
use super::{Ctx, RigSection, RigSources};
use crate::compile::Ordinal;
use crate::compile::names::last_segment;
use crate::compile::source::{BoneDef, PropKey, PropSource, SlotDef, Target};
use crate::model::*;
use crate::syntax::tree::*;
use crate::syntax::{Diagnostic, Span, clip};

/// What the source map records of a bone property.
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

/// What the source map records of an attachment property.
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

/// A bone while sections are merged.
#[derive(Default)]
pub(super) struct WBone {
    pub(super) name: String,
    pub(super) length: f64,
    pub(super) rot_deg: f64,
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) sx: f64,
    pub(super) sy: f64,
    pub(super) color: Option<Color>,
    pub(super) flip_x: bool,
    pub(super) flip_y: bool,
    pub(super) inherit_rotation: bool,
    pub(super) inherit_scale: bool,
    pub(super) source: Option<(Ordinal, Span)>,
}

impl WBone {
    /// A bone of the setup values a bone line starts from.
    pub(super) fn new(name: String, source: Option<(Ordinal, Span)>) -> Self {
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
pub(super) struct WAtt {
    /// `None`: no type (none written, or `:none`, which the original stores
    /// the same way).
    pub(super) ty: Option<TypeName>,
    pub(super) image: Option<String>,
    pub(super) width: Option<f64>,
    pub(super) height: Option<f64>,
    pub(super) x: Option<f64>,
    pub(super) y: Option<f64>,
    pub(super) rot: Option<f64>,
    pub(super) sx: Option<f64>,
    pub(super) sy: Option<f64>,
    pub(super) stroke_width: Option<f64>,
    pub(super) miter: Option<f64>,
    pub(super) fill: Option<Color>,
    pub(super) stroke: Option<Color>,
    pub(super) join: Option<LineJoin>,
    pub(super) cap: Option<LineCap>,
    pub(super) diameter: Option<f64>,
    pub(super) commands: Vec<(Ordinal, PathCommandLine)>,
}

/// The type a line writes (`None`: none written), as [`WAtt::ty`] keeps it.
pub(super) fn written_type(spec: &AttachmentSpec) -> Option<Option<TypeName>> {
    spec.ty.as_ref().map(|t| match &t.node {
        TypeName::Unknown(s) if s == "none" => None,
        ty => Some(ty.clone()),
    })
}

impl WAtt {
    /// Sets what `props` write.
    pub(super) fn apply(&mut self, props: &[Spanned<AttachmentProp>]) {
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

/// A slot while sections are merged.
pub(super) struct WSlot {
    /// `bone.slot`.
    pub(super) name: String,
    /// Its bone (an index into [`Merge::bones`]).
    pub(super) bone: usize,
    pub(super) color: Color,
    pub(super) source: (Ordinal, Span),
}

/// The rig while its sections are merged (bone ids are positions before
/// sorting until [`Merge::sort_bones`]).
#[derive(Default)]
pub(super) struct Merge {
    pub(super) cx: Ctx,
    pub(super) src: RigSources,
    pub(super) bones: Vec<WBone>,
    /// Full name → bone (an index into `bones`), by the names in `bones`.
    pub(super) bone_by_name: BoneNames,
    pub(super) skeleton_color: Option<Color>,
    pub(super) slots: Vec<WSlot>,
    /// (bone index, short name) → slot index.
    pub(super) slot_ids: ChildIds<SlotId>,
    /// Attachments: (slot index, data); their names are in `att_ids`.
    pub(super) atts: Vec<(usize, WAtt)>,
    pub(super) att_ids: ChildIds<AttachmentId>,
}

/// The bones sorted by depth, parents first.
pub(super) struct SortedBones {
    pub(super) bones: Vec<Bone>,
    /// Position after sorting of each bone before.
    pub(super) new_index: Vec<usize>,
    pub(super) sources: Vec<Option<(Ordinal, Span)>>,
}

impl Merge {
    /// Room for every bone line and its properties up front (growing long
    /// vectors one push at a time copies them again and again).
    pub(super) fn with_room(sections: &[(Ordinal, RigSection<'_>)]) -> Merge {
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
    pub(super) fn skeleton_section(&mut self, ord: Ordinal, sk: &SkeletonSection) {
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
        let si = self.slot_index(ord, bone, sl);
        let bone_name = self.bones[bone].name.as_str();
        let short = sl.slot.as_ref().map_or_else(|| last_segment(bone_name), |s| s.node.as_str());
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
        self.attachment_line(ord, ai, sl);
    }

    /// The slot a slot line of bone `bone` names (an index into `slots`),
    /// made when it is new.
    fn slot_index(&mut self, ord: Ordinal, bone: usize, sl: &SlotLine) -> usize {
        let bone_name = self.bones[bone].name.as_str();
        let short = sl.slot.as_ref().map_or_else(|| last_segment(bone_name), |s| s.node.as_str());
        match self.slot_ids.get(bone as u32, short) {
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
        }
    }

    /// What slot line `sl` writes of attachment `ai` (an index into
    /// `atts`): its properties and path commands.
    fn attachment_line(&mut self, ord: Ordinal, ai: usize, sl: &SlotLine) {
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
    pub(super) fn add_implicit_parents(&mut self) -> Vec<u32> {
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
    pub(super) fn sort_bones(&mut self, known_parents: &[u32]) -> SortedBones {
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
}
