//! Armature + animation + skin + time → [`Pose`]. Pure: the time is an
//! argument, never read from a clock.
//!
//! This file holds the [`Pose`] and [`evaluate`]; `sampling` samples an
//! animation's channels into a pose, `world` composes the bones' world
//! transforms, `ik` and `skelform` do what their names say.
//!
//! `evaluate_into` reuses a pose's storage; `wrap_time` maps a playback time
//! onto the animation's duration. The animation's `draw_order` channel sets
//! `Pose::draw_order` (what the renderer walks), and its `time_warp` maps the
//! time before channels are sampled. Under `Composition::Spriter` the world
//! update follows Spriter's parent rule instead of matrix composition (scale
//! per axis, the angle negated under a mirrored parent, alpha multiplied down
//! the tree, parents from the `parents` channel).
//!
//! A reused `Pose` keeps caches that never change a result (the property test
//! `a_reused_pose_equals_a_fresh_one` in `tests/suite/props.rs` compares it
//! with a fresh pose bit for bit): each bone's last local rotation with its
//! sine and cosine (from `model::trig`); one key cursor per channel, where the
//! next search starts; and the slots' setup state of the skeleton last
//! evaluated, used only for that very skeleton (its `Arc` is held, so the
//! identity test is sound). Under the language's composition the reset of
//! bone locals to the setup is not a pass of its own: the animation stamps
//! the bones it sets and the world update resets the others. When a bone
//! inherits its parent's rotation and is flipped on both axes or neither, its
//! world transform is formed from its local turn, which keeps the parent's
//! rotation off the path from one bone of a chain to the next.
//!
//! Invariants: world matrices are finite (a zero accumulated scale inverts to
//! 0, where the original produced NaN); before a channel's first key the
//! setup value holds, after its last key the last value.

pub mod report;
mod sampling;
mod world;

pub use crate::model::{sample, sample_stepped};
use sampling::apply;

use crate::model::*;

pub(crate) mod ik;
pub mod skelform;
pub mod skelform_curve;

/// The evaluated state of every bone and slot at one time.
#[derive(Clone, Debug, Default)]
pub struct Pose {
    /// Per bone (by `BoneId`).
    pub bones: Vec<BonePose>,
    /// Per slot (by `SlotId`).
    pub slots: Vec<SlotPose>,
    /// The skin whose attachments are shown.
    pub skin: SkinId,
    /// Slots back to front (the skeleton's, or the animation's draw order at
    /// this time); slots not listed are hidden.
    pub draw_order: Vec<SlotId>,
    accum: Vec<Accum>,
    /// Per bone: alpha (only under `Composition::Spriter`).
    alpha: Vec<f64>,
    /// Per bone: the parent when an animation changes it (only under
    /// `Composition::Spriter`; empty: the skeleton's).
    parent: Vec<Option<BoneId>>,
    /// Per bone: the last local rotation seen and its sine and cosine, so
    /// bones whose rotation does not change between frames skip the
    /// trigonometry. A pure cache: results do not depend on it.
    trig: Vec<(f64, f64, f64)>,
    /// Per channel of the animation last evaluated: the key found last time,
    /// where the next search starts. A pure cache: results do not depend on it.
    cursors: Vec<u32>,
    /// Per bone: the evaluation ([`Pose::generation`]) that last set its
    /// local transform, while the reset of locals is deferred (see
    /// [`Pose::reset`]).
    stamp: Vec<u32>,
    /// The skeleton last evaluated and its slots' setup state (see
    /// [`Pose::cache_setup_slots`]).
    setup_slots: Option<(std::sync::Arc<Skeleton>, Vec<SlotPose>)>,
    /// Counts evaluations whose reset of locals is deferred.
    generation: u32,
    /// The locals of bones not stamped with `generation` still hold the
    /// previous pose's values and are set to the setup by the world update.
    deferred: bool,
    /// Skeletons with [`Composition::SkelForm`]: each bone's world position,
    /// rotation and per-axis scale as SkelForm computes them (empty otherwise).
    pub skf: Vec<skelform::SkfXform>,
    /// Where the physics simulation stands (skeletons with physics).
    pub(crate) physics: Option<skelform::PhysicsCache>,
}

/// Poses are equal when their bones, slots and skin are (caches aside).
impl PartialEq for Pose {
    fn eq(&self, other: &Self) -> bool {
        self.bones == other.bones
            && self.slots == other.slots
            && self.skin == other.skin
            && self.draw_order == other.draw_order
    }
}

/// One bone at one time: its local transform and where it is in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BonePose {
    /// The local transform after animation.
    pub local: BoneTransform,
    /// `world_from_bone`: maps bone space to world space (LANGUAGE.md §6).
    pub world: Affine,
}

/// One slot at one time: its color and the attachment it shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlotPose {
    /// The slot color after animation (multiplies the attachment's colors).
    pub color: Color,
    /// The attachment shown, if any.
    pub attachment: Option<AttachmentId>,
}

impl SlotPose {
    /// Sets one component of the slot color (a color channel's key value).
    fn set_color_component(&mut self, component: ColorComponent, v: f64) {
        match component {
            ColorComponent::R => self.color.r = v,
            ColorComponent::G => self.color.g = v,
            ColorComponent::B => self.color.b = v,
            ColorComponent::A => self.color.a = v,
        }
    }
}

/// Accumulated rotation and scale of a bone, with the rotation's sine and cosine.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Accum {
    rot: f64,
    sin: f64,
    cos: f64,
    sx: f64,
    sy: f64,
    /// 1 / sx and 1 / sy (0 for a zero scale), what children divide by.
    isx: f64,
    isy: f64,
}

/// A bone's rotation and scale accumulated down its chain (what its world
/// transform is made of besides its position and flips): under the
/// language's rule (LANGUAGE.md §6) a bone adds its parent's accumulated
/// rotation and multiplies its parent's scale unless it opts out
/// (`no-rot`, `no-scale`); under Spriter's and SkelForm's, as they compose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Accumulated {
    /// Radians, counterclockwise (not wrapped).
    pub rotation_rad: f64,
    /// Along the bone's own x axis.
    pub scale_x: f64,
    /// Along the bone's own y axis.
    pub scale_y: f64,
}

impl Pose {
    /// The accumulated rotation and scale of `bone` in this pose, or `None`
    /// for a bone the pose does not have.
    pub fn accumulated(&self, bone: BoneId) -> Option<Accumulated> {
        if let Some(x) = self.skf.get(bone.index()) {
            return Some(Accumulated {
                rotation_rad: f64::from(x.rot),
                scale_x: f64::from(x.sx),
                scale_y: f64::from(x.sy),
            });
        }
        let a = self.accum.get(bone.index())?;
        Some(Accumulated { rotation_rad: a.rot, scale_x: a.sx, scale_y: a.sy })
    }

    /// The setup pose.
    pub fn setup(skeleton: &Skeleton) -> Pose {
        let mut pose = Pose::default();
        pose.reset(skeleton, SkinId(0), false);
        if skeleton.composition == Composition::SkelForm {
            let armature = Armature {
                skeleton: std::sync::Arc::new(skeleton.clone()),
                animations: Vec::new(),
            };
            skelform::evaluate_into(&mut pose, &armature, None, 0.0);
            pose.physics = None;
            return pose;
        }
        pose.update_world(skeleton);
        if !skeleton.ik.is_empty() {
            ik::apply(&mut pose, skeleton);
        }
        pose
    }

    /// Back to the setup. With `defer_locals` (the language's composition,
    /// whose world update visits every bone anyway) bone locals are not
    /// copied here: the animation stamps the bones it sets (after setting
    /// them to the setup, see [`Pose::local_mut`]) and
    /// [`Pose::update_world`] sets the others, in the pass it makes anyway.
    fn reset(&mut self, skeleton: &Skeleton, skin: SkinId, defer_locals: bool) {
        self.skin = skin;
        self.deferred = false;
        if self.bones.len() == skeleton.bones.len() {
            if defer_locals && self.stamp.len() == self.bones.len() {
                if self.generation == u32::MAX {
                    self.stamp.fill(0);
                    self.generation = 0;
                }
                self.generation += 1;
                self.deferred = true;
            } else {
                // Storage of the previous pose: only the locals go back to
                // the setup; every composition computes every world again.
                for (bp, bone) in self.bones.iter_mut().zip(&skeleton.bones) {
                    bp.local = bone.setup;
                }
            }
        } else {
            self.bones.clear();
            self.bones.extend(
                skeleton.bones.iter().map(|b| BonePose { local: b.setup, world: Affine::IDENTITY }),
            );
        }
        // The setup slots kept for this very skeleton (see
        // `cache_setup_slots`), or gathered from it.
        let cached = self
            .setup_slots
            .as_ref()
            .filter(|(sk, _)| std::ptr::eq(std::sync::Arc::as_ptr(sk), skeleton));
        self.slots.clear();
        match cached {
            Some((_, setup)) => self.slots.extend_from_slice(setup),
            None => self.slots.extend(
                skeleton
                    .slots
                    .iter()
                    .map(|s| SlotPose { color: s.color, attachment: s.attachment }),
            ),
        }
        self.draw_order.clear();
        self.draw_order.extend_from_slice(&skeleton.draw_order);
        self.alpha.clear();
        self.parent.clear();
        // Filled again by whichever composition evaluates the pose (all of
        // `accum`, without clearing it first, by `update_world`).
        if skeleton.composition == Composition::SkelForm {
            self.accum.clear();
        }
        self.skf.clear();
        self.stamp.resize(self.bones.len(), 0);
    }

    /// Keeps the slots' setup state of `skeleton` in one array, so that a
    /// reset copies it whole instead of gathering it slot by slot. The
    /// skeleton is held, so the identity test cannot be fooled by another
    /// skeleton at the same address.
    fn cache_setup_slots(&mut self, skeleton: &std::sync::Arc<Skeleton>) {
        if self.setup_slots.as_ref().is_some_and(|(s, _)| std::sync::Arc::ptr_eq(s, skeleton)) {
            return;
        }
        let slots = skeleton
            .slots
            .iter()
            .map(|s| SlotPose { color: s.color, attachment: s.attachment })
            .collect();
        self.setup_slots = Some((std::sync::Arc::clone(skeleton), slots));
    }

    /// The local transform of bone `i` for an animation to change: first set
    /// to the setup when the reset of locals was deferred and this
    /// evaluation has not touched the bone yet. `None` for a bone the pose
    /// does not have.
    fn local_mut(&mut self, skeleton: &Skeleton, i: usize) -> Option<&mut BoneTransform> {
        let bp = self.bones.get_mut(i)?;
        if self.deferred {
            let (stamp, setup) = (self.stamp.get_mut(i)?, &skeleton.bones.get(i)?.setup);
            if *stamp != self.generation {
                *stamp = self.generation;
                bp.local = *setup;
            }
        }
        Some(&mut bp.local)
    }

    /// The attachment a slot shows, as the pose's skin defines it.
    pub fn attachment<'a>(
        &self,
        skeleton: &'a Skeleton,
        slot: SlotId,
    ) -> Option<(AttachmentId, &'a Attachment)> {
        let id = self.slots.get(slot.index())?.attachment?;
        skeleton.attachment(self.skin, id).map(|a| (id, a))
    }
}

/// Evaluates a pose. `anim` None gives the setup pose; the time is used as
/// given (no wrap-around, see [`wrap_time`]).
pub fn evaluate(armature: &Armature, anim: Option<AnimId>, skin: SkinId, time_secs: f64) -> Pose {
    let mut pose = Pose::default();
    evaluate_into(&mut pose, armature, anim.and_then(|a| armature.animation(a)), skin, time_secs);
    pose
}

/// Like [`evaluate`], reusing the pose's storage.
pub fn evaluate_into(
    pose: &mut Pose,
    armature: &Armature,
    anim: Option<&Animation>,
    skin: SkinId,
    time_secs: f64,
) {
    let skeleton = &*armature.skeleton;
    pose.cache_setup_slots(&armature.skeleton);
    pose.reset(skeleton, skin, skeleton.composition == Composition::Affine);
    if skeleton.composition == Composition::SkelForm {
        skelform::evaluate_into(pose, armature, anim, time_secs);
        return;
    }
    if let Some(anim) = anim {
        apply(pose, skeleton, anim, time_secs);
    }
    pose.update_world(skeleton);
    if !skeleton.ik.is_empty() {
        ik::apply(pose, skeleton);
    }
    if skeleton.composition == Composition::Spriter {
        pose.apply_bone_alpha(skeleton);
    }
}

/// Maps a playback time onto an animation's timeline: looping over
/// [0, duration) or clamped to [0, duration].
pub fn wrap_time(anim: &Animation, time_secs: f64, looping: bool) -> f64 {
    let d = anim.duration_secs;
    if d <= 0.0 || !time_secs.is_finite() {
        return 0.0;
    }
    if looping { time_secs.rem_euclid(d) } else { time_secs.clamp(0.0, d) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;
    use std::sync::Arc;

    /// Asserts two matrices agree within `tol` (absolute, relative above 1).
    pub(super) fn assert_affine_close(got: Affine, want: [f64; 6], tol: f64) {
        for (g, w) in got.to_array().iter().zip(want) {
            assert!((g - w).abs() <= tol * w.abs().max(1.0), "got {got:?}, want {want:?}");
        }
    }

    fn bone(name: &str, parent: Option<u32>, setup: BoneTransform) -> Bone {
        Bone {
            name: name.into(),
            parent: parent.map(BoneId),
            setup,
            length: 10.0,
            color: Color::DEFAULT_BONE,
            inherit_rotation: true,
            inherit_scale: true,
        }
    }

    fn two_bones(child_inherits_rot: bool) -> Skeleton {
        let root = bone(
            "root",
            None,
            BoneTransform { x: 5.0, rotation_rad: FRAC_PI_2, scale_x: 2.0, ..Default::default() },
        );
        let mut child =
            bone("root.child", Some(0), BoneTransform { x: 10.0, ..Default::default() });
        child.inherit_rotation = child_inherits_rot;
        Skeleton { bones: vec![root, child], ..Default::default() }
    }

    #[test]
    fn accumulated_rotation_and_scale_follow_the_inheritance_flags() {
        // LANGUAGE.md §6: accumulated rot = rot (+ the parent's unless
        // `no-rot`), scale × the parent's unless `no-scale`.
        let t = |rot: f64, s: f64| BoneTransform {
            rotation_rad: rot,
            scale_x: s,
            scale_y: 2.0 * s,
            ..BoneTransform::default()
        };
        let mut no_rot = bone("c", Some(1), t(0.25, 5.0));
        no_rot.inherit_rotation = false;
        let mut no_scale = bone("d", Some(1), t(0.5, 7.0));
        no_scale.inherit_scale = false;
        let skeleton = Skeleton {
            bones: vec![
                bone("a", None, t(1.0, 2.0)),
                bone("b", Some(0), t(0.5, 3.0)),
                no_rot,
                no_scale,
            ],
            ..Skeleton::default()
        };
        let pose = Pose::setup(&skeleton);
        let acc =
            |i: u32| pose.accumulated(BoneId(i)).map(|a| (a.rotation_rad, a.scale_x, a.scale_y));
        assert_eq!(acc(0), Some((1.0, 2.0, 4.0)));
        assert_eq!(acc(1), Some((1.5, 6.0, 24.0)));
        assert_eq!(acc(2), Some((0.25, 30.0, 240.0)));
        assert_eq!(acc(3), Some((2.0, 7.0, 14.0)));
        assert_eq!(acc(4), None);
    }

    #[test]
    fn children_inherit_rotation_and_scale() {
        let pose = Pose::setup(&two_bones(true));
        assert_affine_close(pose.bones[0].world, [0.0, 2.0, -1.0, 0.0, 5.0, 0.0], 1e-12);
        // The child's x offset is taken through the parent's full matrix.
        assert_affine_close(pose.bones[1].world, [0.0, 2.0, -1.0, 0.0, 5.0, 20.0], 1e-12);
    }

    #[test]
    fn no_rot_keeps_world_axes_but_follows_position() {
        let pose = Pose::setup(&two_bones(false));
        assert_affine_close(pose.bones[1].world, [2.0, 0.0, 0.0, 1.0, 5.0, 20.0], 1e-12);
    }

    #[test]
    fn zero_scale_parent_never_yields_nan() {
        let mut sk = two_bones(true);
        sk.bones[0].setup.scale_x = 0.0;
        let pose = Pose::setup(&sk);
        assert!(pose.bones[1].world.is_finite());
    }

    #[test]
    fn channels_hold_setup_before_first_key_and_last_value_after() {
        let keys = vec![
            Key { time_secs: 1.0, value: 10.0, curve: Curve::LINEAR },
            Key { time_secs: 2.0, value: 20.0, curve: Curve::LINEAR },
        ];
        assert_eq!(sample(&keys, 0.5, None), None);
        assert_eq!(sample(&keys, 1.5, None), Some(15.0));
        assert_eq!(sample(&keys, 9.0, None), Some(20.0));
        let rot = vec![
            Key { time_secs: 0.0, value: 170f64.to_radians(), curve: Curve::LINEAR },
            Key { time_secs: 1.0, value: -170f64.to_radians(), curve: Curve::LINEAR },
        ];
        let mid = sample(&rot, 0.5, Some(AngleInterpolation::Shortest)).unwrap();
        assert!((mid.abs() - std::f64::consts::PI).abs() < 1e-9, "shorter way passes 180°");
        let mid = sample(&rot, 0.5, Some(AngleInterpolation::Linear)).unwrap();
        assert!(mid.abs() < 1e-9, "plain lerp passes 0°");
    }

    #[test]
    fn absolute_and_relative_channels() {
        let sk = two_bones(true);
        let mut anim = Animation::empty("a", 20.0);
        let k = |v| vec![Key { time_secs: 0.0, value: v, curve: Curve::Stepped }];
        anim.bones.push(BoneChannel {
            bone: BoneId(0),
            property: BoneProperty::X,
            mode: ValueMode::RelativeToSetup,
            keys: k(1.0),
        });
        anim.bones.push(BoneChannel {
            bone: BoneId(0),
            property: BoneProperty::ScaleX,
            mode: ValueMode::Absolute,
            keys: k(3.0),
        });
        anim.update_duration();
        let arm = Armature { skeleton: Arc::new(sk), animations: vec![Arc::new(anim)] };
        let pose = evaluate(&arm, Some(AnimId(0)), SkinId(0), 0.0);
        assert_eq!(pose.bones[0].local.x, 6.0);
        assert_eq!(pose.bones[0].local.scale_x, 3.0);
    }

    #[test]
    fn wrap_time_loops_and_clamps() {
        let mut a = Animation::empty("a", 20.0);
        a.duration_secs = 2.0;
        assert!((wrap_time(&a, 5.0, true) - 1.0).abs() < 1e-12);
        assert_eq!(wrap_time(&a, 5.0, false), 2.0);
        assert_eq!(wrap_time(&a, -1.0, false), 0.0);
    }
}
