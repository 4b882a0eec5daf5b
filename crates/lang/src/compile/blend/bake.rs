//! Baking blended poses into an ordinary animation: the pose is sampled at
//! every frame (and at the very end) and each channel any source animates
//! gets a key there; numeric keys are linear, stepped ones (flips,
//! attachments, draw order) are keyed where they change.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::model::sample::Locals;
use crate::model::{
    Animation, AttachmentChannel, AttachmentId, Axis, BoneChannel, BoneId, BoneProperty, Color,
    ColorComponent, Curve, FlipChannel, Key, Skeleton, SlotColorChannel, SlotId, ValueMode, lerp,
    lerp_angle, normalize_angle,
};

/// The most frames a sequence or a layered animation may last: each is
/// sampled at every frame on every compile (LANGUAGE-EXT.md, "Limits").
pub const MAX_BAKED_FRAMES: f64 = 10_000.0;

/// The channels a baked animation keys: those any of its sources animates.
#[derive(Default)]
pub(super) struct ChannelSet {
    bones: BTreeSet<(u32, u8)>,
    flips: BTreeSet<(u32, u8)>,
    colors: BTreeSet<(u32, u8)>,
    attachments: BTreeSet<u32>,
    draw_order: bool,
}

const PROPS: [BoneProperty; 5] = [
    BoneProperty::X,
    BoneProperty::Y,
    BoneProperty::Rotation,
    BoneProperty::ScaleX,
    BoneProperty::ScaleY,
];
const COMPONENTS: [ColorComponent; 4] =
    [ColorComponent::R, ColorComponent::G, ColorComponent::B, ColorComponent::A];

impl ChannelSet {
    /// Adds the bone channels of `a` (with `all`, its flips, slot colors,
    /// attachments and draw order too).
    pub(super) fn add(&mut self, a: &Animation, all: bool) {
        let prop = |p: BoneProperty| PROPS.iter().position(|x| *x == p).unwrap_or(0) as u8;
        self.bones.extend(a.bones.iter().map(|c| (c.bone.0, prop(c.property))));
        if !all {
            return;
        }
        self.flips.extend(a.flips.iter().map(|c| (c.bone.0, u8::from(c.axis == Axis::Y))));
        let comp = |c: ColorComponent| COMPONENTS.iter().position(|x| *x == c).unwrap_or(0) as u8;
        self.colors.extend(a.slot_colors.iter().map(|c| (c.slot.0, comp(c.component))));
        self.attachments.extend(a.attachments.iter().map(|c| c.slot.0));
        self.draw_order |= !a.draw_order.is_empty();
    }
}

/// The times a baked animation of `length` seconds at `fps` is keyed at:
/// every frame, and the end. `Err` with the number of frames when it
/// would last more than [`MAX_BAKED_FRAMES`].
pub(super) fn key_times(length: f64, fps: f64) -> Result<Vec<f64>, f64> {
    let frames = (length * fps - 1e-9).ceil().max(0.0);
    if !frames.is_finite() || frames > MAX_BAKED_FRAMES {
        return Err(frames);
    }
    let mut times: Vec<f64> = (0..frames as u32).map(|f| f64::from(f) / fps).collect();
    times.push(length.max(0.0));
    Ok(times)
}

/// An animation named `name` at `fps` whose channels in `set` take, at
/// each of `times`, the values of `pose(t)`.
pub(super) fn bake(
    sk: &Skeleton,
    name: &str,
    fps: f64,
    set: &ChannelSet,
    times: &[f64],
    mut pose: impl FnMut(f64) -> Locals,
) -> Animation {
    let mut a = Animation::empty(name, fps);
    let mut bones: Vec<BoneChannel> = set
        .bones
        .iter()
        .map(|&(b, p)| BoneChannel {
            bone: BoneId(b),
            property: PROPS[usize::from(p)],
            mode: ValueMode::RelativeToSetup,
            keys: Vec::with_capacity(times.len()),
        })
        .collect();
    let mut flips: Vec<FlipChannel> = set
        .flips
        .iter()
        .map(|&(b, x)| FlipChannel {
            bone: BoneId(b),
            axis: if x == 1 { Axis::Y } else { Axis::X },
            keys: Vec::new(),
        })
        .collect();
    let mut colors: Vec<SlotColorChannel> = set
        .colors
        .iter()
        .map(|&(s, c)| SlotColorChannel {
            slot: SlotId(s),
            component: COMPONENTS[usize::from(c)],
            keys: Vec::with_capacity(times.len()),
        })
        .collect();
    let mut atts: Vec<AttachmentChannel> = set
        .attachments
        .iter()
        .map(|&s| AttachmentChannel { slot: SlotId(s), keys: Vec::new() })
        .collect();
    for &t in times {
        let l = pose(t);
        for ch in &mut bones {
            if let Some(v) = offset(sk, &l, ch.bone, ch.property) {
                ch.keys.push(Key { time_secs: t, value: v, curve: Curve::LINEAR });
            }
        }
        for ch in &mut flips {
            let Some(b) = l.bones.get(ch.bone.index()) else { continue };
            let v = if ch.axis == Axis::X { b.flip_x } else { b.flip_y };
            push_change(&mut ch.keys, t, v);
        }
        for ch in &mut colors {
            let Some((c, _)) = l.slots.get(ch.slot.index()) else { continue };
            let v = component(c, ch.component);
            ch.keys.push(Key { time_secs: t, value: v, curve: Curve::LINEAR });
        }
        for ch in &mut atts {
            let Some(&(_, v)) = l.slots.get(ch.slot.index()) else { continue };
            push_change::<Option<AttachmentId>>(&mut ch.keys, t, v);
        }
        if set.draw_order {
            let order: Arc<[SlotId]> = l.draw_order.unwrap_or_else(|| sk.draw_order.clone().into());
            push_change(&mut a.draw_order, t, order);
        }
    }
    (a.bones, a.flips, a.slot_colors, a.attachments) = (bones, flips, colors, atts);
    a.duration_secs = times.last().copied().unwrap_or(0.0);
    a
}

/// Pushes a stepped key at `t` when the value differs from the last one.
fn push_change<T: PartialEq + Clone>(keys: &mut Vec<Key<T>>, t: f64, v: T) {
    if keys.last().is_none_or(|k| k.value != v) {
        keys.push(Key { time_secs: t, value: v, curve: Curve::Stepped });
    }
}

fn component(c: &Color, k: ColorComponent) -> f64 {
    match k {
        ColorComponent::R => c.r,
        ColorComponent::G => c.g,
        ColorComponent::B => c.b,
        ColorComponent::A => c.a,
    }
}

/// The channel value (relative to the setup) of `bone`'s `p` in `l`.
fn offset(sk: &Skeleton, l: &Locals, bone: BoneId, p: BoneProperty) -> Option<f64> {
    let s = sk.bones.get(bone.index())?.setup;
    let v = l.bones.get(bone.index())?;
    let ratio = |a: f64, b: f64| if b == 0.0 { 1.0 } else { a / b };
    Some(match p {
        BoneProperty::X => v.x - s.x,
        BoneProperty::Y => v.y - s.y,
        BoneProperty::Rotation => normalize_angle(v.rotation_rad - s.rotation_rad),
        BoneProperty::ScaleX => ratio(v.scale_x, s.scale_x),
        BoneProperty::ScaleY => ratio(v.scale_y, s.scale_y),
    })
}

/// The crossfade of `a` into `b` at weight `w` (0: `a`, 1: `b`): every
/// bone's position, scale and slot color linearly, rotations the shorter
/// way round; flips, attachments and the draw order switch at `w` = 0.5.
pub fn crossfade(a: &Locals, b: &Locals, w: f64) -> Locals {
    let late = w >= 0.5;
    let bones = a
        .bones
        .iter()
        .zip(&b.bones)
        .map(|(x, y)| {
            let mut o = if late { *y } else { *x };
            o.x = lerp(x.x, y.x, w);
            o.y = lerp(x.y, y.y, w);
            o.rotation_rad = lerp_angle(x.rotation_rad, y.rotation_rad, w);
            o.scale_x = lerp(x.scale_x, y.scale_x, w);
            o.scale_y = lerp(x.scale_y, y.scale_y, w);
            o
        })
        .collect();
    let slots = a
        .slots
        .iter()
        .zip(&b.slots)
        .map(|((ca, aa), (cb, ab))| {
            let c = Color {
                r: lerp(ca.r, cb.r, w),
                g: lerp(ca.g, cb.g, w),
                b: lerp(ca.b, cb.b, w),
                a: lerp(ca.a, cb.a, w),
            };
            (c, if late { *ab } else { *aa })
        })
        .collect();
    let draw_order = if late { b.draw_order.clone() } else { a.draw_order.clone() };
    Locals { bones, slots, draw_order }
}

/// `base` with the motion of `layer` (its bones' change from the setup)
/// added at weight `w`: positions and rotations add `w` × the layer's
/// offset, scales are multiplied by 1 + `w` × (the layer's factor − 1).
/// Slots, flips and the draw order are the base's.
pub fn added(sk: &Skeleton, base: &Locals, layer: &Locals, w: f64) -> Locals {
    let mut out = base.clone();
    for ((o, l), bone) in out.bones.iter_mut().zip(&layer.bones).zip(&sk.bones) {
        let s = bone.setup;
        let factor = |v: f64, s: f64| if s == 0.0 { 1.0 } else { 1.0 + w * (v / s - 1.0) };
        o.x += w * (l.x - s.x);
        o.y += w * (l.y - s.y);
        o.rotation_rad += w * normalize_angle(l.rotation_rad - s.rotation_rad);
        o.scale_x *= factor(l.scale_x, s.scale_x);
        o.scale_y *= factor(l.scale_y, s.scale_y);
    }
    out
}
