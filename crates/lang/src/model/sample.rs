//! Sampling an animation's channels at a time, without a pose: what the
//! runtime's player uses (with its key cursors) and what the compiler uses
//! to bake sequences and additive layers (`compile::blend`), which may not
//! use the runtime.

use super::*;

/// Where `t` falls in a channel: before the first key (`None`), or the index
/// of the last key at or before `t`.
pub(crate) fn locate<T>(keys: &[Key<T>], t: f64) -> Option<usize> {
    let first = keys.first()?;
    if t < first.time_secs || t.is_nan() {
        return None;
    }
    Some(keys.partition_point(|k| k.time_secs <= t).saturating_sub(1))
}

/// The value of a numeric channel at `t` (`None` before its first key).
pub fn sample(keys: &[Key<f64>], t: f64, angle: Option<AngleInterpolation>) -> Option<f64> {
    let i = locate(keys, t)?;
    Some(between(keys, i, t, angle))
}

/// The value at `t` of a numeric channel whose last key at or before `t`
/// is `keys[i]`.
pub(crate) fn between(
    keys: &[Key<f64>],
    i: usize,
    t: f64,
    angle: Option<AngleInterpolation>,
) -> f64 {
    let a = &keys[i];
    let Some(b) = keys.get(i + 1) else { return a.value };
    let span = b.time_secs - a.time_secs;
    let p = if span > 0.0 { a.curve.progress((t - a.time_secs) / span) } else { 1.0 };
    match angle {
        Some(AngleInterpolation::Shortest) => lerp_angle(a.value, b.value, p),
        _ => lerp(a.value, b.value, p),
    }
}

/// The value of a stepped channel at `t` (`None` before its first key).
pub fn sample_stepped<T: Copy>(keys: &[Key<T>], t: f64) -> Option<T> {
    locate(keys, t).map(|i| keys[i].value)
}

/// `t` less the delay of `id` in `delays` (sorted by id), wrapped into
/// `[0, duration)`; `t` itself for an id without one.
pub(crate) fn delayed_by<Id: Ord + Copy>(
    delays: &[(Id, f64)],
    duration: f64,
    id: Id,
    t: f64,
) -> f64 {
    if delays.is_empty() {
        return t;
    }
    match delays.binary_search_by_key(&id, |d| d.0) {
        Ok(i) if duration > 0.0 => (t - delays[i].1).rem_euclid(duration),
        _ => t,
    }
}

/// What an animation sets at one time, before world transforms and IK:
/// every bone's local transform, every slot's color and attachment, and
/// the draw order (`None`: the skeleton's).
#[derive(Clone, Debug, PartialEq)]
pub struct Locals {
    /// Per bone (by `BoneId`).
    pub bones: Vec<BoneTransform>,
    /// Per slot (by `SlotId`): color and attachment.
    pub slots: Vec<(Color, Option<AttachmentId>)>,
    /// The animated draw order at this time, if the animation has one.
    pub draw_order: Option<Arc<[SlotId]>>,
}

impl Locals {
    /// The setup pose's locals of `sk`.
    pub fn setup(sk: &Skeleton) -> Locals {
        Locals {
            bones: sk.bones.iter().map(|b| b.setup).collect(),
            slots: sk.slots.iter().map(|s| (s.color, s.attachment)).collect(),
            draw_order: None,
        }
    }
}

impl Animation {
    /// The locals this animation gives `sk` at `t` (the time warp, then
    /// each bone's and slot's delay, as the runtime's player applies them
    /// under the language's composition; Spriter's parents and alphas
    /// aside).
    pub fn locals_at(&self, sk: &Skeleton, t: f64) -> Locals {
        let mut out = Locals::setup(sk);
        out.draw_order = locate(&self.draw_order, t).map(|i| self.draw_order[i].value.clone());
        let t = sample(&self.time_warp, t, None).unwrap_or(t);
        let d = self.duration_secs;
        for ch in &self.bones {
            let (Some(bone), Some(local)) =
                (sk.bones.get(ch.bone.index()), out.bones.get_mut(ch.bone.index()))
            else {
                continue;
            };
            let angle = (ch.property == BoneProperty::Rotation).then_some(self.angle_interpolation);
            let tb = delayed_by(&self.bone_delays, d, ch.bone, t);
            let Some(v) = sample(&ch.keys, tb, angle) else { continue };
            let s = &bone.setup;
            let rel = ch.mode == ValueMode::RelativeToSetup;
            match ch.property {
                BoneProperty::X => local.x = if rel { s.x + v } else { v },
                BoneProperty::Y => local.y = if rel { s.y + v } else { v },
                BoneProperty::Rotation => {
                    local.rotation_rad = if rel { s.rotation_rad + v } else { v }
                }
                BoneProperty::ScaleX => local.scale_x = if rel { s.scale_x * v } else { v },
                BoneProperty::ScaleY => local.scale_y = if rel { s.scale_y * v } else { v },
            }
        }
        for ch in &self.flips {
            let tb = delayed_by(&self.bone_delays, d, ch.bone, t);
            if let (Some(v), Some(local)) =
                (sample_stepped(&ch.keys, tb), out.bones.get_mut(ch.bone.index()))
            {
                match ch.axis {
                    Axis::X => local.flip_x = v,
                    Axis::Y => local.flip_y = v,
                }
            }
        }
        for ch in &self.slot_colors {
            let ts = delayed_by(&self.slot_delays, d, ch.slot, t);
            if let (Some(v), Some(slot)) =
                (sample(&ch.keys, ts, None), out.slots.get_mut(ch.slot.index()))
            {
                match ch.component {
                    ColorComponent::R => slot.0.r = v,
                    ColorComponent::G => slot.0.g = v,
                    ColorComponent::B => slot.0.b = v,
                    ColorComponent::A => slot.0.a = v,
                }
            }
        }
        for ch in &self.attachments {
            let ts = delayed_by(&self.slot_delays, d, ch.slot, t);
            if let (Some(v), Some(slot)) =
                (sample_stepped(&ch.keys, ts), out.slots.get_mut(ch.slot.index()))
            {
                slot.1 = v;
            }
        }
        out
    }
}
