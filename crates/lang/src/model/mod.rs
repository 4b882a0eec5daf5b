//! The armature model: one shape of data for the language, the importers and
//! the exporters.
//!
//! Everything is addressed by typed indices (`BoneId`, `SlotId`, …) into the
//! vectors of [`Skeleton`]; names exist for people and file formats, never for
//! lookups at run time. Bones are stored parents first, so one pass in index
//! order can accumulate transforms.
//!
//! This file holds the ids, the armature and its skeleton (bones, slots,
//! skins); `attachment` what slots show, `channels` the animations (keys,
//! curves, channels, events).
//!
//! `Skeleton` is behind an `Arc`, so an armature shares it across recompiled
//! animations. `Skeleton::contents` holds every attachment's default contents;
//! a skin holds only what it replaces (`Skin::replaced`, sorted by
//! attachment), and `Skeleton::attachment(skin, id)` is the lookup. Skin 0 is
//! the default skin and replaces nothing. (A copy of every attachment per
//! skin cost 2.0–2.3 ms of a 5000-bone `slots-skins` compile; BENCHMARKS.md.)
//!
//! Animations are typed channels (bone numeric, flip, slot colour, attachment)
//! of keys whose curve shapes the way to the next key: eased, stepped, a
//! cubic-bezier timing curve or Spriter's curves. Channels say whether values
//! are relative to the setup pose (the language) or absolute (imports), and
//! the animation says how rotations interpolate (the shorter way, or plainly).
//!
//! Imported files fit the same shape: SkelForm styles are skins, its keyframe
//! handles an `Easing::Bezier` curve on the previous key, its values
//! `ValueMode::Absolute` with `AngleInterpolation::Linear`, its meshes
//! `AttachmentKind::Mesh`, its IK families `Skeleton::ik` (applied by the
//! runtime after local transforms), its skeletons `Composition::SkelForm`.
//! Spriter's are described in `spriter`.

mod attachment;
mod bezier;
mod channels;
mod ik;
mod math;
mod mesh;
mod physics;
pub mod sample;
pub mod spring;
pub mod spriter;
mod timing;
pub mod trig;

use std::sync::Arc;

pub use attachment::*;
pub use bezier::{CubicBezier, PRESETS, preset_name, sparkline};
pub use channels::*;
pub use ik::{IkConstraint, IkFamily, IkMode};
pub use math::{Affine, Color, DAffine2, DVec2, lerp, lerp_angle, normalize_angle};
pub use mesh::{Mesh, MeshBind, MeshVertex};
pub use physics::{BonePhysics, PhysicsReads, PhysicsState};
pub use sample::{sample, sample_stepped};
pub use spriter::{BoneAlphaChannel, ParentChannel, SpriterCurve, SpriterCurveKind};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// The position in the vector this id indexes.
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// The id of the item at `index`; an index beyond `u32` becomes
            /// `u32::MAX`, which indexes nothing (lookups fail, never wrap).
            pub fn from_index(index: usize) -> Self {
                Self(u32::try_from(index).unwrap_or(u32::MAX))
            }
        }
    };
}

id_type!(
    /// Index into [`Skeleton::bones`].
    BoneId
);
id_type!(
    /// Index into [`Skeleton::slots`].
    SlotId
);
id_type!(
    /// Index into [`Skeleton::attachments`] and into every skin's attachment list.
    AttachmentId
);
id_type!(
    /// Index into [`Skeleton::skins`]; skin 0 is the default skin.
    SkinId
);
impl Default for SkinId {
    /// The default skin.
    fn default() -> Self {
        SkinId(0)
    }
}

id_type!(
    /// Index into [`Armature::animations`].
    AnimId
);

/// A rig and its animations.
#[derive(Clone, Debug, Default)]
pub struct Armature {
    /// Bones, slots, attachments, skins and draw order. Shared so that
    /// recompiling an animation does not copy the rig.
    pub skeleton: Arc<Skeleton>,
    /// Animations in order of first definition.
    pub animations: Vec<Arc<Animation>>,
}

impl Armature {
    /// The first animation whose name is exactly `name`.
    pub fn animation_by_name(&self, name: &str) -> Option<AnimId> {
        self.animations.iter().position(|a| a.name == name).map(AnimId::from_index)
    }

    /// The animation `id`, or `None` when no animation has that index.
    pub fn animation(&self, id: AnimId) -> Option<&Animation> {
        self.animations.get(id.index()).map(|a| &**a)
    }

    /// Whether every bone's parent comes before it, in the setup and in
    /// every parent an animation gives it (Spriter's changing parents):
    /// the order the runtime, IK and the exporters rely on to walk the
    /// bones in one pass and up a chain without looping. The compiler
    /// (sorted by depth), the `.skf` reader (refuses a later parent) and the
    /// Spriter import (Kahn's order over every parent any key names) make
    /// only such armatures; each asserts it in debug builds.
    pub fn parents_first(&self) -> bool {
        let bones = &self.skeleton.bones;
        let setup = bones.iter().enumerate().all(|(i, b)| b.parent.is_none_or(|p| p.index() < i));
        setup
            && self.animations.iter().all(|a| {
                a.parents.iter().all(|c| {
                    c.keys.iter().all(|k| k.value.is_none_or(|p| p.index() < c.bone.index()))
                })
            })
    }
}

/// Everything about a rig except its animations.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Skeleton {
    /// Parents always come before their children.
    pub bones: Vec<Bone>,
    /// In definition order.
    pub slots: Vec<Slot>,
    /// Names of attachments (which slot, which short name); their contents
    /// are in `contents` and the skins.
    pub attachments: Vec<AttachmentSlotName>,
    /// What every attachment shows in the default skin, in
    /// [`Skeleton::attachments`] order.
    pub contents: Vec<Attachment>,
    /// Skin 0 is the default skin (the skeleton section itself, which
    /// replaces nothing); each other skin holds what it shows instead of
    /// `contents` for some attachments ([`Skeleton::attachment`] looks it up).
    pub skins: Vec<Skin>,
    /// Slots back to front.
    pub draw_order: Vec<SlotId>,
    /// How children follow their parents.
    pub composition: Composition,
    /// Inverse kinematics, applied after the local transforms (imports).
    pub ik: Vec<IkFamily>,
    /// Bone physics (imports); a pose then depends on the frames before it.
    pub physics: Vec<BonePhysics>,
    /// Which bones a physics step reads (SkelForm's programs differ).
    pub physics_reads: PhysicsReads,
}

/// How a child's world transform follows its parent's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Composition {
    /// The language's full affine inheritance (LANGUAGE.md §6).
    #[default]
    Affine,
    /// SkelForm's editor (`inheritance` in its `src/renderer.rs`): world =
    /// position, rotation and per-axis scale, no shear; a child's rotation
    /// adds the parent's, its scale multiplies the parent's, its position is
    /// scaled by the parent's scale, turned by the parent's rotation and
    /// added to the parent's position. Evaluated by `runtime::skelform`.
    SkelForm,
    /// Spriter's rule (SpriterPlusPlus objectref/transformprocessor.cpp):
    /// as SkelForm's, except that the angle turns the other way under a
    /// mirrored parent and alpha multiplies down the tree; parents may
    /// change during an animation (`Animation::parents`).
    Spriter,
}

impl Skeleton {
    /// The bone `id`.
    ///
    /// # Panics
    /// When `id` is not an index into [`Skeleton::bones`].
    pub fn bone(&self, id: BoneId) -> &Bone {
        &self.bones[id.index()]
    }

    /// The slot `id`.
    ///
    /// # Panics
    /// When `id` is not an index into [`Skeleton::slots`].
    pub fn slot(&self, id: SlotId) -> &Slot {
        &self.slots[id.index()]
    }

    /// The bone whose full dotted name is exactly `name` (the language's
    /// suffix references are resolved by the compiler, not here).
    pub fn bone_by_name(&self, name: &str) -> Option<BoneId> {
        self.bones.iter().position(|b| b.name == name).map(BoneId::from_index)
    }

    /// The slot whose full name `BONE.SLOT` is exactly `name`.
    pub fn slot_by_name(&self, name: &str) -> Option<SlotId> {
        self.slots.iter().position(|s| s.name == name).map(SlotId::from_index)
    }

    /// The skin named `name`; the compiler and the importers name skin 0
    /// `default`.
    pub fn skin_by_name(&self, name: &str) -> Option<SkinId> {
        self.skins.iter().position(|s| s.name == name).map(SkinId::from_index)
    }

    /// The full name `BONE.SLOT.ATT` of an attachment.
    ///
    /// # Panics
    /// When `id` (or its slot) is out of range.
    pub fn attachment_full_name(&self, id: AttachmentId) -> String {
        let a = &self.attachments[id.index()];
        format!("{}.{}", self.slots[a.slot.index()].name, a.name)
    }

    /// The attachment of `slot` with short name `name`, if any.
    pub fn find_attachment(&self, slot: SlotId, name: &str) -> Option<AttachmentId> {
        self.attachments
            .iter()
            .position(|a| a.slot == slot && a.name == name)
            .map(AttachmentId::from_index)
    }

    /// The contents of an attachment as the given skin shows it (`None` for
    /// a skin or an attachment that does not exist).
    pub fn attachment(&self, skin: SkinId, id: AttachmentId) -> Option<&Attachment> {
        let s = self.skins.get(skin.index())?;
        s.replacement(id).or_else(|| self.contents.get(id.index()))
    }

    /// What `skin` shows differently from the default skin, by attachment
    /// (its replacements that equal the default contents left out): what a
    /// `skin` section written for it lists.
    pub fn skin_changes<'a>(
        &'a self,
        skin: &'a Skin,
    ) -> impl Iterator<Item = (AttachmentId, &'a Attachment)> + 'a {
        skin.replaced
            .iter()
            .filter(|(id, shown)| self.contents.get(id.index()) != Some(shown))
            .map(|(id, shown)| (*id, shown))
    }
}

/// A bone's local transform: what the setup pose holds and animations change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneTransform {
    /// Position of the bone's origin along its parent's x axis, in the
    /// parent's units (world units for a root; one unit is one pixel of a
    /// sprite drawn at scale 1).
    pub x: f64,
    /// Position of the bone's origin along its parent's y axis (y up).
    pub y: f64,
    /// Radians, counterclockwise, relative to the parent's accumulated
    /// rotation (unless the bone does not inherit it). The language and the
    /// Spriter importer normalize it into [-π, π]; SkelForm's values are kept
    /// as the file has them.
    pub rotation_rad: f64,
    /// Scale factor along the bone's own x axis (its length direction).
    pub scale_x: f64,
    /// Scale factor along the bone's own y axis.
    pub scale_y: f64,
    /// `flip-x`: the bone's frame is mirrored in x (F = diag(−1, 1) in
    /// LANGUAGE.md §6). Only [`Composition::Affine`] reads it.
    pub flip_x: bool,
    /// `flip-y`: the bone's frame is mirrored in y (F = diag(1, −1) in
    /// LANGUAGE.md §6). Only [`Composition::Affine`] reads it.
    pub flip_y: bool,
}

impl Default for BoneTransform {
    fn default() -> Self {
        BoneTransform {
            x: 0.0,
            y: 0.0,
            rotation_rad: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            flip_x: false,
            flip_y: false,
        }
    }
}

/// One bone of the rig: a coordinate frame that slots hang on and that
/// animations move.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Full dotted name, e.g. `arm.hand`.
    pub name: String,
    /// The bone this one's transform is relative to (`None` for a root).
    /// Always an earlier index than the bone itself.
    pub parent: Option<BoneId>,
    /// The local transform of the setup pose; channels start from it.
    pub setup: BoneTransform,
    /// Length along the bone's x axis, in its own units. Only drawn (the
    /// render overlay skips bones shorter than 10, LANGUAGE.md §7; the
    /// editor outlines it); it moves nothing. SkelForm bones have none (0).
    pub length: f64,
    /// Color of the bone in the overlay (drawn at 70 % alpha).
    pub color: Color,
    /// Accumulate the parent's rotation (`no-rot` clears it). Only
    /// [`Composition::Affine`] reads it; the other rules always inherit.
    pub inherit_rotation: bool,
    /// Accumulate the parent's scale (`no-scale` clears it). Only
    /// [`Composition::Affine`] reads it; the other rules always inherit.
    pub inherit_scale: bool,
}

impl Bone {
    /// The last segment of the dotted name.
    pub fn short_name(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(&self.name)
    }
}

/// A place on a bone that shows one attachment at a time, drawn at its
/// position in the draw order.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// Full name `BONE.SLOT`.
    pub name: String,
    /// The bone whose world frame the slot's attachments are placed in.
    pub bone: BoneId,
    /// Multiplies everything the slot shows.
    pub color: Color,
    /// The attachment shown in the setup pose (the first one defined).
    pub attachment: Option<AttachmentId>,
}

/// Which slot an attachment belongs to and its short name.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachmentSlotName {
    /// The slot the attachment belongs to; only that slot can show it.
    pub slot: SlotId,
    /// Short name, unique within its slot (`ATT` of `BONE.SLOT.ATT`); what
    /// attachment timelines and skins refer to.
    pub name: String,
}

/// One set of attachment contents: what each attachment looks like when
/// this skin is active. A skin holds only what it replaces; every other
/// attachment shows the default contents ([`Skeleton::contents`]), so a skin
/// costs what it changes, not a copy of every attachment.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Skin {
    /// Name from `skin "NAME"` (or the imported file); skin 0 is `default`.
    pub name: String,
    /// The attachments this skin shows differently, with their contents:
    /// sorted by attachment, each at most once (empty for the default skin).
    pub replaced: Vec<(AttachmentId, Attachment)>,
}

impl Skin {
    /// A skin named `name` that replaces nothing.
    pub fn named(name: impl Into<String>) -> Skin {
        Skin { name: name.into(), replaced: Vec::new() }
    }

    /// A skin named `name` from the contents it gives every attachment:
    /// those that differ from `default` are kept (one list per skin, as
    /// importers read them).
    pub fn from_full(
        name: impl Into<String>,
        full: Vec<Attachment>,
        default: &[Attachment],
    ) -> Skin {
        let replaced = full
            .into_iter()
            .enumerate()
            .filter(|(i, a)| default.get(*i) != Some(a))
            .map(|(i, a)| (AttachmentId::from_index(i), a))
            .collect();
        Skin { name: name.into(), replaced }
    }

    /// What this skin shows instead of the default contents of `id`, if it
    /// replaces them.
    pub fn replacement(&self, id: AttachmentId) -> Option<&Attachment> {
        self.replaced.binary_search_by_key(&id, |(a, _)| *a).ok().map(|i| &self.replaced[i].1)
    }
}
