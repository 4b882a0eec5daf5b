//! Armature + animation + skin + time → [`Pose`]. Pure: the time is an
//! argument, never read from a clock.

pub mod report;

use crate::model::*;

pub(crate) mod ik;
pub mod skelform;

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

    /// Computes world matrices from the local transforms, parents first.
    pub fn update_world(&mut self, skeleton: &Skeleton) {
        if skeleton.composition == Composition::Spriter {
            self.update_world_spriter(skeleton);
            return;
        }
        let n = self.bones.len().min(skeleton.bones.len());
        self.accum.resize(self.bones.len(), Accum::default());
        self.trig.resize(self.bones.len(), (f64::NAN, 0.0, 1.0));
        let (bones, accum, trig) =
            (&mut self.bones[..n], &mut self.accum[..n], &mut self.trig[..n]);
        // A deferred reset (see `reset`) is completed here.
        let unset = |i: usize| self.deferred && self.stamp.get(i) != Some(&self.generation);
        for (i, bone) in skeleton.bones[..n].iter().enumerate() {
            // (Read from the setup, not back from the pose just written: a
            // load that spans two fresh stores stalls.)
            let local = if unset(i) {
                bones[i].local = bone.setup;
                bone.setup
            } else {
                bones[i].local
            };
            let mut acc = Accum {
                rot: local.rotation_rad,
                sin: 0.0,
                cos: 1.0,
                sx: local.scale_x,
                sy: local.scale_y,
                isx: 1.0,
                isy: 1.0,
            };
            // sin/cos of the local rotation, cached while it does not change.
            let cached = &mut trig[i];
            if cached.0.to_bits() != local.rotation_rad.to_bits() {
                let (s, c) = crate::model::trig::sin_cos(local.rotation_rad);
                *cached = (local.rotation_rad, s, c);
            }
            let (ls, lc) = (cached.1, cached.2);
            (acc.sin, acc.cos) = (ls, lc);
            // Inverse of the parent's rotation and scale (LANGUAGE.md §6).
            let (mut is, mut ic, mut isx, mut isy) = (0.0, 1.0, 1.0, 1.0);
            let mut parent_world = Affine::IDENTITY;
            if let Some(p) = bone.parent.map(|p| p.index()).filter(|&p| p < i) {
                let pa = accum[p];
                parent_world = bones[p].world;
                is = -pa.sin;
                ic = pa.cos;
                // A zero scale has no inverse: what hangs below collapses
                // (`isx`/`isy` of the parent are 0 then).
                isx = pa.isx;
                isy = pa.isy;
                if bone.inherit_rotation {
                    acc.rot += pa.rot;
                    // sin/cos of the accumulated rotation by angle addition.
                    acc.sin = ls * pa.cos + lc * pa.sin;
                    acc.cos = lc * pa.cos - ls * pa.sin;
                }
                if bone.inherit_scale {
                    acc.sx *= pa.sx;
                    acc.sy *= pa.sy;
                }
            }
            acc.isx = if acc.sx == 0.0 { 0.0 } else { 1.0 / acc.sx };
            acc.isy = if acc.sy == 0.0 { 0.0 } else { 1.0 / acc.sy };
            // The parent's inverse rotation and the accumulated rotation
            // cancel down to the local one when the bone inherits rotation
            // (or the parent is not turned, or there is none) and is
            // flipped on both axes or neither.
            let local_turn =
                (bone.inherit_rotation || (is == 0.0 && ic == 1.0)) && local.flip_x == local.flip_y;
            let world = if local_turn {
                world_turned_locally(parent_world, &local, (ls, lc), &acc, (isx, isy))
            } else {
                world_in_general(parent_world, &local, &acc, (is, ic), (isx, isy))
            };
            bones[i].world = world;
            accum[i] = acc;
        }
        self.deferred = false;
    }
}

/// `P · T(x, y) · S(isx, isy) · F · R(local) · S(acc.sx, acc.sy)`: the world
/// transform of LANGUAGE.md §6 when the parent's inverse rotation and the
/// accumulated rotation cancel to the local one (`R(−p) · F · R(l + p) =
/// F · R(l)` for `F = ±I`). Besides fewer products, the parent's rotation is
/// then not on the path from one bone of a chain to the next, which is what
/// the pose's time is made of.
fn world_turned_locally(
    parent: Affine,
    local: &BoneTransform,
    (ls, lc): (f64, f64),
    acc: &Accum,
    (isx, isy): (f64, f64),
) -> Affine {
    let f = if local.flip_x { -1.0 } else { 1.0 };
    let [a, b, c, d, e, g] = parent.to_array();
    // The columns of S(isx, isy) · F · R(local) · S(acc.sx, acc.sy).
    let (m00, m01) = (f * isx * lc * acc.sx, f * isy * ls * acc.sx);
    let (m10, m11) = (-f * isx * ls * acc.sy, f * isy * lc * acc.sy);
    Affine::from_array([
        a * m00 + c * m01,
        b * m00 + d * m01,
        a * m10 + c * m11,
        b * m10 + d * m11,
        c * local.y + a * local.x + e,
        d * local.y + b * local.x + g,
    ])
}

/// `P · T(x, y) · S(isx, isy) · R(irot) · F · R(acc.rot) · S(acc.sx, acc.sy)`
/// (LANGUAGE.md §6), expanded, with `(is, ic)` the sine and cosine of the
/// parent's inverse rotation `irot`.
fn world_in_general(
    parent: Affine,
    local: &BoneTransform,
    acc: &Accum,
    (is, ic): (f64, f64),
    (isx, isy): (f64, f64),
) -> Affine {
    let (ws, wc) = (acc.sin, acc.cos);
    let fx = if local.flip_x { -1.0 } else { 1.0 };
    let fy = if local.flip_y { -1.0 } else { 1.0 };
    let [a, b, c, d, e, f] = parent.to_array();
    let (ax, bx, cy, dy) = (a * isx, b * isx, c * isy, d * isy);
    let (fxx, fxy, fyx, fyy) = (fx * acc.sx, fx * acc.sy, fy * acc.sx, fy * acc.sy);
    let (cc, ss, cs, sc) = (ic * wc, is * ws, ic * ws, is * wc);
    Affine::from_array([
        ax * (fxx * cc - fyx * ss) + cy * (fyx * cs + fxx * sc),
        bx * (fxx * cc - fyx * ss) + dy * (fyx * cs + fxx * sc),
        cy * (fyy * cc - fxy * ss) - ax * (fxy * cs + fyy * sc),
        dy * (fyy * cc - fxy * ss) - bx * (fxy * cs + fyy * sc),
        c * local.y + a * local.x + e,
        d * local.y + b * local.x + f,
    ])
}

impl Pose {
    /// Spriter's parent rule (SpriterPlusPlus objectref/transformprocessor.cpp):
    /// scale multiplies component-wise, the angle is negated under a
    /// mirrored parent, the position is scaled by the parent's scale in the
    /// child's axes then rotated.
    fn update_world_spriter(&mut self, skeleton: &Skeleton) {
        self.accum.resize(self.bones.len(), Accum::default());
        let animated = self.parent.len() == skeleton.bones.len();
        for (i, bone) in skeleton.bones.iter().enumerate() {
            let local = self.bones[i].local;
            let (mut x, mut y, mut rot, mut sx, mut sy) =
                (local.x, local.y, local.rotation_rad, local.scale_x, local.scale_y);
            let parent = if animated { self.parent[i] } else { bone.parent };
            if let Some(p) = parent.filter(|p| p.index() < i) {
                let pa = self.accum[p.index()];
                let pw = self.bones[p.index()].world;
                sx *= pa.sx;
                sy *= pa.sy;
                if pa.sx * pa.sy < 0.0 {
                    rot = -rot;
                }
                rot += pa.rot;
                let (lx, ly) = (local.x * pa.sx, local.y * pa.sy);
                let origin = pw.translation();
                x = origin.x + pa.cos * lx - pa.sin * ly;
                y = origin.y + pa.sin * lx + pa.cos * ly;
            }
            let (sin, cos) = crate::model::trig::sin_cos(rot);
            let inverse = |s: f64| if s == 0.0 { 0.0 } else { 1.0 / s };
            self.accum[i] = Accum { rot, sin, cos, sx, sy, isx: inverse(sx), isy: inverse(sy) };
            self.bones[i].world =
                Affine::from_array([sx * cos, sx * sin, -sy * sin, sy * cos, x, y]);
        }
    }

    /// Multiplies each slot's alpha by the alpha of its bone and the bone's
    /// ancestors (Spriter), from the bone alphas the animation set.
    fn apply_bone_alpha(&mut self, skeleton: &Skeleton) {
        if self.alpha.is_empty() {
            return;
        }
        self.alpha.resize(skeleton.bones.len(), 1.0);
        let animated = self.parent.len() == skeleton.bones.len();
        for (i, bone) in skeleton.bones.iter().enumerate() {
            let parent = if animated { self.parent[i] } else { bone.parent };
            if let Some(p) = parent.filter(|p| p.index() < i) {
                self.alpha[i] *= self.alpha[p.index()];
            }
        }
        for (slot, sp) in skeleton.slots.iter().zip(&mut self.slots) {
            if let Some(a) = self.alpha.get(slot.bone.index()) {
                sp.color.a *= a;
            }
        }
    }
}

/// Where `t` falls in a channel: before the first key (`None`), or the index
/// of the last key at or before `t`.
fn locate<T>(keys: &[Key<T>], t: f64) -> Option<usize> {
    let first = keys.first()?;
    if t < first.time_secs || t.is_nan() {
        return None;
    }
    Some(keys.partition_point(|k| k.time_secs <= t).saturating_sub(1))
}

/// [`locate`] starting from a guess: a player asks for times close to the
/// previous one, so the key found last time (`cursor`), or the one after it,
/// is usually the answer and the binary search is skipped. The cursor is
/// only a hint: any value gives the same result, and it is updated to the
/// key found.
fn locate_from<T>(keys: &[Key<T>], t: f64, cursor: &mut u32) -> Option<usize> {
    let c = *cursor as usize;
    if let Some(k) = keys.get(c)
        && k.time_secs <= t
    {
        match keys.get(c + 1) {
            None => return Some(c),
            Some(next) if t < next.time_secs => return Some(c),
            Some(next) if keys.get(c + 2).is_none_or(|after| t < after.time_secs) => {
                // `next.time_secs <= t` here (t is not NaN: it passed the first test).
                debug_assert!(next.time_secs <= t);
                *cursor = (c + 1) as u32;
                return Some(c + 1);
            }
            Some(_) => {}
        }
    }
    let i = locate(keys, t)?;
    *cursor = u32::try_from(i).unwrap_or(0);
    Some(i)
}

/// The value of a numeric channel at `t` (`None` before its first key).
pub fn sample(keys: &[Key<f64>], t: f64, angle: Option<AngleInterpolation>) -> Option<f64> {
    sample_from(keys, t, angle, &mut 0)
}

/// [`sample`] with a key cursor (see [`locate_from`]).
fn sample_from(
    keys: &[Key<f64>],
    t: f64,
    angle: Option<AngleInterpolation>,
    cursor: &mut u32,
) -> Option<f64> {
    let i = locate_from(keys, t, cursor)?;
    let a = &keys[i];
    let Some(b) = keys.get(i + 1) else { return Some(a.value) };
    let span = b.time_secs - a.time_secs;
    let p = if span > 0.0 { a.curve.progress((t - a.time_secs) / span) } else { 1.0 };
    Some(match angle {
        Some(AngleInterpolation::Shortest) => lerp_angle(a.value, b.value, p),
        _ => lerp(a.value, b.value, p),
    })
}

/// The value of a stepped channel at `t` (`None` before its first key).
pub fn sample_stepped<T: Copy>(keys: &[Key<T>], t: f64) -> Option<T> {
    locate(keys, t).map(|i| keys[i].value)
}

/// [`sample_stepped`] with a key cursor (see [`locate_from`]).
fn sample_stepped_from<T: Copy>(keys: &[Key<T>], t: f64, cursor: &mut u32) -> Option<T> {
    locate_from(keys, t, cursor).map(|i| keys[i].value)
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

/// The time `bone`'s channels are sampled at when the animation is at
/// `t`: `t` less the bone's delay, wrapped into `[0, duration)`.
fn delayed(anim: &Animation, bone: BoneId, t: f64) -> f64 {
    delayed_by(&anim.bone_delays, anim.duration_secs, bone, t)
}

/// The time `slot`'s color and attachment channels are sampled at (see
/// [`delayed`]).
fn slot_delayed(anim: &Animation, slot: SlotId, t: f64) -> f64 {
    delayed_by(&anim.slot_delays, anim.duration_secs, slot, t)
}

/// `t` less the delay of `id` in `delays` (sorted by id), wrapped into
/// `[0, duration)`; `t` itself for an id without one.
fn delayed_by<Id: Ord + Copy>(delays: &[(Id, f64)], duration: f64, id: Id, t: f64) -> f64 {
    if delays.is_empty() {
        return t;
    }
    match delays.binary_search_by_key(&id, |d| d.0) {
        Ok(i) if duration > 0.0 => (t - delays[i].1).rem_euclid(duration),
        _ => t,
    }
}

fn apply(pose: &mut Pose, skeleton: &Skeleton, anim: &Animation, t: f64) {
    if let Some(order) = locate(&anim.draw_order, t).map(|i| &anim.draw_order[i].value) {
        pose.draw_order.clear();
        pose.draw_order.extend(order.iter().copied().filter(|s| s.index() < skeleton.slots.len()));
    }
    // Channels are sampled at the warped time (Spriter's mainline curves).
    let t = sample(&anim.time_warp, t, None).unwrap_or(t);
    if skeleton.composition == Composition::Spriter && !anim.parents.is_empty() {
        pose.parent.clear();
        pose.parent.extend(skeleton.bones.iter().map(|b| b.parent));
        for ch in &anim.parents {
            if let (Some(v), Some(p)) =
                (sample_stepped(&ch.keys, t), pose.parent.get_mut(ch.bone.index()))
            {
                *p = v;
            }
        }
    }
    if skeleton.composition == Composition::Spriter && !anim.bone_alpha.is_empty() {
        pose.alpha.resize(skeleton.bones.len(), 1.0);
        for ch in &anim.bone_alpha {
            if let (Some(v), Some(a)) =
                (sample(&ch.keys, t, None), pose.alpha.get_mut(ch.bone.index()))
            {
                *a = v;
            }
        }
    }
    // One key cursor per channel, in the order bones, flips, colors, attachments.
    let channels =
        anim.bones.len() + anim.flips.len() + anim.slot_colors.len() + anim.attachments.len();
    let mut cursors = std::mem::take(&mut pose.cursors);
    cursors.resize(channels, 0);
    let (bone_cursors, rest) = cursors.split_at_mut(anim.bones.len());
    let (flip_cursors, rest) = rest.split_at_mut(anim.flips.len());
    let (color_cursors, attachment_cursors) = rest.split_at_mut(anim.slot_colors.len());
    for (ch, cursor) in anim.bones.iter().zip(bone_cursors) {
        let Some(bone) = skeleton.bones.get(ch.bone.index()) else { continue };
        let angle = (ch.property == BoneProperty::Rotation).then_some(anim.angle_interpolation);
        let t = delayed(anim, ch.bone, t);
        let Some(v) = sample_from(&ch.keys, t, angle, cursor) else { continue };
        let setup = &bone.setup;
        let Some(local) = pose.local_mut(skeleton, ch.bone.index()) else { continue };
        let relative = ch.mode == ValueMode::RelativeToSetup;
        match ch.property {
            BoneProperty::X => local.x = if relative { setup.x + v } else { v },
            BoneProperty::Y => local.y = if relative { setup.y + v } else { v },
            BoneProperty::Rotation => {
                local.rotation_rad = if relative { setup.rotation_rad + v } else { v }
            }
            BoneProperty::ScaleX => local.scale_x = if relative { setup.scale_x * v } else { v },
            BoneProperty::ScaleY => local.scale_y = if relative { setup.scale_y * v } else { v },
        }
    }
    for (ch, cursor) in anim.flips.iter().zip(flip_cursors) {
        let Some(v) = sample_stepped_from(&ch.keys, delayed(anim, ch.bone, t), cursor) else {
            continue;
        };
        let Some(local) = pose.local_mut(skeleton, ch.bone.index()) else { continue };
        match ch.axis {
            Axis::X => local.flip_x = v,
            Axis::Y => local.flip_y = v,
        }
    }
    for (ch, cursor) in anim.slot_colors.iter().zip(color_cursors) {
        let Some(v) = sample_from(&ch.keys, slot_delayed(anim, ch.slot, t), None, cursor) else {
            continue;
        };
        let Some(sp) = pose.slots.get_mut(ch.slot.index()) else { continue };
        sp.set_color_component(ch.component, v);
    }
    for (ch, cursor) in anim.attachments.iter().zip(attachment_cursors) {
        let Some(v) = sample_stepped_from(&ch.keys, slot_delayed(anim, ch.slot, t), cursor) else {
            continue;
        };
        if let Some(sp) = pose.slots.get_mut(ch.slot.index()) {
            sp.attachment = v;
        }
    }
    pose.cursors = cursors;
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
    fn assert_affine_close(got: Affine, want: [f64; 6], tol: f64) {
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
    fn a_key_cursor_never_changes_where_a_time_falls() {
        // Keys with repeated times, every cursor (in range or not), times
        // before, between, on and after the keys, and NaN.
        let times = [0.0, 0.5, 0.5, 1.0, 2.0, 2.0, 2.0, 3.5];
        let keys: Vec<Key<f64>> =
            times.iter().map(|&t| Key { time_secs: t, value: t, curve: Curve::LINEAR }).collect();
        let asks = [-1.0, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 3.5, 9.0, f64::NAN];
        for n in 0..=keys.len() {
            for t in asks {
                for start in 0..n as u32 + 3 {
                    let mut cursor = start;
                    assert_eq!(locate_from(&keys[..n], t, &mut cursor), locate(&keys[..n], t));
                    // Asked again from where it stopped.
                    assert_eq!(locate_from(&keys[..n], t, &mut cursor), locate(&keys[..n], t));
                }
            }
        }
    }

    #[test]
    fn the_local_turn_shortcut_is_the_general_product() {
        // R(−p) · F · R(l + p) = F · R(l) for F = ±I: both ways of forming a
        // world transform agree on bones that inherit rotation.
        let parent = Affine::from_array([0.3, -1.7, 0.9, 0.4, 5.0, -2.0]);
        for (p, l, flip) in [(0.7, -2.1, false), (-3.0, 0.2, true), (0.0, 1.0, false)] {
            let local = BoneTransform {
                x: 2.5,
                y: -1.25,
                rotation_rad: l,
                scale_x: 1.5,
                scale_y: -0.75,
                flip_x: flip,
                flip_y: flip,
            };
            let (sx, sy): (f64, f64) = (2.0, 0.5);
            let acc = Accum {
                rot: l + p,
                sin: (l + p).sin(),
                cos: (l + p).cos(),
                sx: local.scale_x * sx,
                sy: local.scale_y * sy,
                isx: 0.0,
                isy: 0.0,
            };
            let inverse = (1.0 / sx, 1.0 / sy);
            let short = world_turned_locally(parent, &local, (l.sin(), l.cos()), &acc, inverse);
            let long = world_in_general(parent, &local, &acc, ((-p).sin(), (-p).cos()), inverse);
            assert_affine_close(short, long.to_array(), 1e-12);
        }
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
