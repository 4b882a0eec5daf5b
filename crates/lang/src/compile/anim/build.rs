//! Building the model's [`Animation`] from the keys the timelines made:
//! a channel per (target, property) from its last timeline, and the
//! events, run apart from the items.
//!
//! Event items (`!NAME`: `AnimItem::is_event`, their lines
//! `AnimItem::events`) are parsed with the animation's items, so a splice
//! re-parses them like any item; each keeps one memo entry without a target
//! so the replay of untouched items stays aligned. Every event item is
//! compiled on every compile of its animation, after its items
//! (`compile_events`: the timeline runner with its bounds, then sorted by
//! frame): events are few and read nothing but their own lines, so fresh and
//! incremental compiles agree by construction (`tests/suite/incremental.rs`
//! weaves event items into its scripts).

use rustc_hash::FxHashMap as HashMap;

use super::keys::{RawKey, RawValue, Side};
use super::run::{Commands, Scratch, fmt_frame, run_timeline};
use super::tracks::{Channel, Place, Target};
use crate::compile::{LocalDiag, Ordinal};
use crate::model::*;
use crate::syntax::Diagnostic;
use crate::syntax::tree::*;

/// The animation's channels from the keys of each (target, property).
pub(super) fn build_animation(
    name: &str,
    fps: f64,
    order: &[(Target, TimelineProp)],
    channels: &HashMap<(Target, TimelineProp), Channel>,
    all_keys: &[RawKey],
    colors: &[Color],
) -> Animation {
    let keys_of = |k: &(Target, TimelineProp)| {
        let (a, b) = channels[k].keys;
        &all_keys[a as usize..b as usize]
    };
    let mut anim = Animation::empty(name, fps);
    let color_tracks: Vec<(Target, TimelineProp)> = order
        .iter()
        .filter(|k| k.1 == TimelineProp::Color && !keys_of(k).is_empty())
        .copied()
        .collect();
    reserve_channels(&mut anim, order.iter().filter(|k| !keys_of(k).is_empty()));
    for key in order {
        let keys = keys_of(key);
        if keys.is_empty() {
            continue;
        }
        match *key {
            (Target::Bone(b), p) => push_bone_channel(&mut anim, BoneId(b), p, keys),
            (Target::Slot(s), p) => {
                // A `c` timeline replaces the slot's r g b a timelines.
                let by_c = color_tracks.iter().any(|t| t.0 == key.0);
                push_slot_channels(&mut anim, SlotId(s), p, keys, colors, by_c);
            }
        }
    }
    anim.update_duration();
    anim
}

/// Room for every channel of the (target, property) pairs `made` up front
/// (a channel per timeline of a bone property, of a flip or of an
/// attachment, four of a `c` timeline).
fn reserve_channels<'a>(
    anim: &mut Animation,
    made: impl Iterator<Item = &'a (Target, TimelineProp)>,
) {
    let (mut bones, mut flips, mut attachments, mut colors_n) = (0, 0, 0, 0);
    for key in made {
        match *key {
            (Target::Bone(_), TimelineProp::FlipX | TimelineProp::FlipY) => flips += 1,
            (Target::Bone(_), _) => bones += 1,
            (Target::Slot(_), TimelineProp::Attachment) => attachments += 1,
            (Target::Slot(_), TimelineProp::Color) => colors_n += 4,
            (Target::Slot(_), _) => colors_n += 1,
        }
    }
    anim.bones.reserve_exact(bones);
    anim.flips.reserve_exact(flips);
    anim.attachments.reserve_exact(attachments);
    anim.slot_colors.reserve_exact(colors_n);
}

/// The channel of `bone`'s property `p` from its keys (a flip, or a
/// numeric property; others make none).
fn push_bone_channel(anim: &mut Animation, bone: BoneId, p: TimelineProp, keys: &[RawKey]) {
    let fps = anim.fps;
    let time = |k: &RawKey| k.frame / fps;
    let property = match p {
        TimelineProp::X => BoneProperty::X,
        TimelineProp::Y => BoneProperty::Y,
        TimelineProp::Rotation => BoneProperty::Rotation,
        TimelineProp::ScaleX => BoneProperty::ScaleX,
        TimelineProp::ScaleY => BoneProperty::ScaleY,
        TimelineProp::FlipX | TimelineProp::FlipY => {
            let axis = if p == TimelineProp::FlipX { Axis::X } else { Axis::Y };
            let keys = keys
                .iter()
                .map(|k| Key {
                    time_secs: time(k),
                    value: matches!(k.value, RawValue::Bool(true)),
                    curve: Curve::Stepped,
                })
                .collect();
            anim.flips.push(FlipChannel { bone, axis, keys });
            return;
        }
        _ => return,
    };
    let keys = keys
        .iter()
        .map(|k| {
            let v = k.value.number().unwrap_or(0.0);
            let value = if property == BoneProperty::Rotation {
                normalize_angle(v.to_radians())
            } else {
                v
            };
            Key { time_secs: time(k), value, curve: Curve::Eased(k.easing) }
        })
        .collect();
    anim.bones.push(BoneChannel { bone, property, mode: ValueMode::RelativeToSetup, keys });
}

/// The channels of `slot`'s property `p` from its keys: an attachment
/// channel, four colour channels (`c`) or one (`r g b a`, none when
/// `by_c`: a `c` timeline of the slot replaces them).
fn push_slot_channels(
    anim: &mut Animation,
    slot: SlotId,
    p: TimelineProp,
    keys: &[RawKey],
    colors: &[Color],
    by_c: bool,
) {
    let fps = anim.fps;
    let time = |k: &RawKey| k.frame / fps;
    let component = match p {
        TimelineProp::R => ColorComponent::R,
        TimelineProp::G => ColorComponent::G,
        TimelineProp::B => ColorComponent::B,
        TimelineProp::A => ColorComponent::A,
        TimelineProp::Attachment => {
            let keys = keys
                .iter()
                .map(|k| {
                    let value = match k.value {
                        RawValue::Attachment(a) => a,
                        _ => None,
                    };
                    Key { time_secs: time(k), value, curve: Curve::Stepped }
                })
                .collect();
            anim.attachments.push(AttachmentChannel { slot, keys });
            return;
        }
        TimelineProp::Color => {
            let components =
                [ColorComponent::R, ColorComponent::G, ColorComponent::B, ColorComponent::A];
            for (i, component) in components.into_iter().enumerate() {
                let keys = keys
                    .iter()
                    .map(|k| {
                        let c = if let RawValue::Color(c) = k.value {
                            colors[c as usize].to_array()[i]
                        } else {
                            0.0
                        };
                        Key { time_secs: time(k), value: c, curve: Curve::Eased(k.easing) }
                    })
                    .collect();
                anim.slot_colors.push(SlotColorChannel { slot, component, keys });
            }
            return;
        }
        _ => return,
    };
    if by_c {
        return;
    }
    let keys = keys
        .iter()
        .map(|k| Key {
            time_secs: time(k),
            value: k.value.number().unwrap_or(0.0),
            curve: Curve::Eased(k.easing),
        })
        .collect();
    anim.slot_colors.push(SlotColorChannel { slot, component, keys });
}

/// The events of an animation's sections: every event item's lines run in
/// document order (with the timeline notation and its bounds), sorted by
/// frame (stably, so events at one frame keep the order written). A
/// payload out of range and a second key of one event at one frame (from
/// another line) are reported and left out.
pub(super) fn compile_events(
    sections: &[(Ordinal, &AnimSection)],
    fps: f64,
    opts: Opts,
    diags: &mut Vec<LocalDiag>,
) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    if !sections.iter().any(|s| s.1.items.iter().any(|i| i.is_event)) {
        return out;
    }
    let mut scratch = Scratch::default();
    let mut side = Side::default();
    let mut keys = Vec::new();
    // Per (event, frame): the event's index in `out`, for duplicates.
    let mut seen: HashMap<(&str, u64), usize> = HashMap::default();
    for (ord, sec) in sections {
        for item in sec.items.iter().filter(|i| i.is_event) {
            let start = Opts {
                frame: item.opts.frame.or(opts.frame),
                step: item.opts.step.or(opts.step),
                easing: item.opts.easing.or(opts.easing),
            };
            let name = item.target.node.as_str();
            for line in &item.events {
                keys.clear();
                side.texts.clear();
                let at = Place { ord: *ord, slot: None, event: true };
                let tl = Commands { list: &line.commands[..], line: line.span };
                run_timeline(tl, start, at, diags, &mut scratch, &mut side, &mut keys);
                for k in &keys {
                    let Some(payload) = event_payload(line.kind.node, k, &side, *ord, diags) else {
                        continue;
                    };
                    if !first_at_frame(&mut seen, name, k, out.len(), *ord, diags) {
                        continue;
                    }
                    out.push(Event {
                        name: name.to_string(),
                        frame: k.frame,
                        time_secs: k.frame / fps,
                        payload,
                    });
                }
            }
        }
    }
    out.sort_by(|a, b| a.frame.total_cmp(&b.frame));
    out
}

/// The payload of an event key `k` of a line of kind `kind`; `None` (and
/// reported) when it is out of range.
fn event_payload(
    kind: EventKind,
    k: &RawKey,
    side: &Side,
    ord: Ordinal,
    diags: &mut Vec<LocalDiag>,
) -> Option<EventPayload> {
    Some(match (kind, k.value) {
        (EventKind::Int, RawValue::Number(v)) => {
            if v.fract() != 0.0 || !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&v) {
                let diag = Diagnostic::error(
                    k.span,
                    format!("the payload this key computes, {v}, is not a 32-bit whole number; the event is left out"),
                )
                .hint("`i` payloads are whole numbers from -2147483648 to 2147483647; `f` takes any number");
                diags.push(LocalDiag { ord, diag });
                return None;
            }
            EventPayload::Int(v as i32)
        }
        (EventKind::Float, RawValue::Number(v)) => {
            if !v.is_finite() {
                let diag = Diagnostic::error(
                    k.span,
                    "the payload this key computes is not a finite number; the event is left out",
                );
                diags.push(LocalDiag { ord, diag });
                return None;
            }
            EventPayload::Float(v)
        }
        (EventKind::Text, RawValue::Text(i)) => {
            EventPayload::Text(side.texts.get(i as usize).cloned().unwrap_or_default())
        }
        _ => EventPayload::None,
    })
}

/// Whether key `k` is event `name`'s first at its frame (recorded in
/// `seen` as the event `index`); a second one is reported.
fn first_at_frame<'n>(
    seen: &mut HashMap<(&'n str, u64), usize>,
    name: &'n str,
    k: &RawKey,
    index: usize,
    ord: Ordinal,
    diags: &mut Vec<LocalDiag>,
) -> bool {
    match seen.entry((name, k.frame.to_bits())) {
        std::collections::hash_map::Entry::Occupied(_) => {
            let diag = Diagnostic::warning(
                k.span,
                format!(
                    "event `{name}` already fires at frame {}; this one is left out",
                    fmt_frame(k.frame)
                ),
            )
            .hint("an event fires at most once a frame: give the second one another name or frame");
            diags.push(LocalDiag { ord, diag });
            false
        }
        std::collections::hash_map::Entry::Vacant(e) => {
            e.insert(index);
            true
        }
    }
}
