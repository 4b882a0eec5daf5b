//! Sampling an animation's channels at a time (a key cursor per channel
//! makes a player's next frame cheap) and applying them to a pose.

use super::Pose;
use crate::model::sample::{between, delayed_by, locate};
use crate::model::*;

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

/// [`sample`] with a key cursor (see [`locate_from`]).
fn sample_from(
    keys: &[Key<f64>],
    t: f64,
    angle: Option<AngleInterpolation>,
    cursor: &mut u32,
) -> Option<f64> {
    let i = locate_from(keys, t, cursor)?;
    Some(between(keys, i, t, angle))
}

/// [`sample_stepped`] with a key cursor (see [`locate_from`]).
fn sample_stepped_from<T: Copy>(keys: &[Key<T>], t: f64, cursor: &mut u32) -> Option<T> {
    locate_from(keys, t, cursor).map(|i| keys[i].value)
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

/// Sets on `pose` what `anim` animates at time `t`: the draw order, then
/// every channel at the warped time (and the bone's or slot's delay).
pub(super) fn apply(pose: &mut Pose, skeleton: &Skeleton, anim: &Animation, t: f64) {
    if let Some(order) = locate(&anim.draw_order, t).map(|i| &anim.draw_order[i].value) {
        pose.draw_order.clear();
        pose.draw_order.extend(order.iter().copied().filter(|s| s.index() < skeleton.slots.len()));
    }
    // Channels are sampled at the warped time (Spriter's mainline curves).
    let t = sample(&anim.time_warp, t, None).unwrap_or(t);
    if skeleton.composition == Composition::Spriter {
        apply_spriter(pose, skeleton, anim, t);
    }
    // One key cursor per channel, in the order bones, flips, colors, attachments.
    let channels =
        anim.bones.len() + anim.flips.len() + anim.slot_colors.len() + anim.attachments.len();
    let mut cursors = std::mem::take(&mut pose.cursors);
    cursors.resize(channels, 0);
    let (bone_cursors, rest) = cursors.split_at_mut(anim.bones.len());
    let (flip_cursors, rest) = rest.split_at_mut(anim.flips.len());
    let (color_cursors, attachment_cursors) = rest.split_at_mut(anim.slot_colors.len());
    apply_bones(pose, skeleton, anim, t, bone_cursors);
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

/// Spriter's bone parents and alphas at time `t`.
fn apply_spriter(pose: &mut Pose, skeleton: &Skeleton, anim: &Animation, t: f64) {
    if !anim.parents.is_empty() {
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
    if !anim.bone_alpha.is_empty() {
        pose.alpha.resize(skeleton.bones.len(), 1.0);
        for ch in &anim.bone_alpha {
            if let (Some(v), Some(a)) =
                (sample(&ch.keys, t, None), pose.alpha.get_mut(ch.bone.index()))
            {
                *a = v;
            }
        }
    }
}

/// The bone channels of `anim` at time `t` (each with its key cursor).
fn apply_bones(
    pose: &mut Pose,
    skeleton: &Skeleton,
    anim: &Animation,
    t: f64,
    bone_cursors: &mut [u32],
) {
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
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
