//! Timing modifiers (LANGUAGE-EXT.md, "Timing modifiers"): `delay N` and
//! `chain N` on bone items, `from "SOURCE"`, `cycle`, `mirror`, `swap`,
//! `reverse` and `pingpong` on `anim` headers. They leave the keys as written and are
//! applied to the compiled animations, after every animation is compiled
//! and on every compile (they read only the section trees, the rig and the
//! animations), so a fresh compile and an incremental one agree and every
//! consumer of the armature (pose, render, exports, editor) plays them.
//!
//! Order: `from` copies the source (the section's own channels replace the
//! source's of the same bone and property, its events are added), then
//! `cycle`, then delays, then springs (`springs`), then `mirror`, then `swap`, then `reverse`, then
//! `pingpong`.
//!
//! They become plain model data the runtime plays: `Animation::bone_delays`
//! and `Animation::slot_delays` (wrapped modulo the duration when sampled),
//! `Animation::time_warp` (reverse and ping-pong; the same warp Spriter's
//! mainline curves use) and moved or negated channels (mirror, swap, cycle).
//! The cached outputs are never changed, only the armature's copy. Exports
//! sample poses, so they bake all of it.

use std::sync::Arc;

use super::names::resolve_or_explain;
use super::rig::RigNames;
use crate::model::{
    Animation, AttachmentId, BoneId, BoneProperty, Event, EventPayload, Key, Skeleton, SlotId,
    ValueMode,
};
use crate::syntax::Diagnostic;
use crate::syntax::tree::{AnimModifiers, AnimSection};

/// One animation's sections, each with its start in the document.
pub(super) type Sections<'a> = Vec<(u32, &'a AnimSection)>;

/// Applies the modifiers of every animation (`groups[i]` are the sections
/// of `animations[i]`); diagnostics in document offsets go to `diags`.
pub(super) fn apply(
    groups: &[Sections<'_>],
    rig: &RigNames,
    sk: &Skeleton,
    animations: &mut [Arc<Animation>],
    diags: &mut Vec<Diagnostic>,
) {
    if !groups.iter().flatten().any(|(_, s)| uses_modifiers(s)) {
        return;
    }
    let compiled: Vec<Arc<Animation>> = animations.to_vec();
    for (i, secs) in groups.iter().enumerate() {
        if !secs.iter().any(|(_, s)| uses_modifiers(s)) {
            continue;
        }
        let Some(own) = compiled.get(i) else { continue };
        let m = merged(secs);
        let mut anim = match &m.from {
            Some((at, from)) => match source(groups, &compiled, i, from, *at, diags) {
                Some(src) => derive(src, own),
                None => Animation::clone(own),
            },
            None => Animation::clone(own),
        };
        if m.cycle {
            anim = cycled(sk, &anim);
        }
        delays(secs, rig, sk, &mut anim, diags);
        super::springs::apply(secs, rig, sk, &mut anim, diags);
        if m.mirror {
            anim = mirrored(sk, &anim);
        }
        if m.swap {
            anim = swapped(sk, &anim);
        }
        if m.reverse {
            anim = reversed(&anim);
        }
        if m.pingpong {
            anim = ping_ponged(&anim);
        }
        animations[i] = Arc::new(anim);
    }
}

fn uses_modifiers(s: &AnimSection) -> bool {
    s.modifiers.any()
        || s.items.iter().any(|i| {
            i.delay.is_some() || i.chain.is_some() || i.spring.is_some() || i.spring_chain.is_some()
        })
}

/// The header modifiers of all of an animation's sections (`from`: the
/// last one written, with its section's start).
struct Merged {
    from: Option<(u32, crate::syntax::tree::Spanned<String>)>,
    cycle: bool,
    mirror: bool,
    swap: bool,
    reverse: bool,
    pingpong: bool,
}

fn merged(secs: &Sections<'_>) -> Merged {
    let mut m = Merged {
        from: None,
        cycle: false,
        mirror: false,
        swap: false,
        reverse: false,
        pingpong: false,
    };
    for (at, s) in secs {
        let AnimModifiers { from, reverse, pingpong, mirror, swap, cycle, add: _ } = &s.modifiers;
        if let Some(f) = from {
            m.from = Some((*at, f.clone()));
        }
        m.mirror |= mirror.is_some();
        m.swap |= swap.is_some();
        m.cycle |= cycle.is_some();
        m.reverse |= reverse.is_some();
        m.pingpong |= pingpong.is_some();
    }
    m
}

/// The compiled animation `from` names, when it is another one that is
/// not itself made `from` another (else an error at the name).
fn source<'a>(
    groups: &[Sections<'_>],
    compiled: &'a [Arc<Animation>],
    me: usize,
    from: &crate::syntax::tree::Spanned<String>,
    at: u32,
    diags: &mut Vec<Diagnostic>,
) -> Option<&'a Animation> {
    let span = from.span.shifted(at);
    let Some(k) = compiled.iter().position(|a| a.name == from.node) else {
        let names: Vec<String> = compiled.iter().map(|a| format!("\"{}\"", a.name)).collect();
        diags.push(
            Diagnostic::error(span, format!("unknown animation \"{}\"", from.node))
                .hint(format!("animations: {}", names.join(", ")))
                .hint("the animation plays its own keys only"),
        );
        return None;
    };
    if k == me {
        diags.push(Diagnostic::error(span, "an animation cannot be made from itself"));
        return None;
    }
    if groups.get(k).is_some_and(|g| g.iter().any(|(_, s)| s.modifiers.from.is_some())) {
        diags.push(
            Diagnostic::error(
                span,
                format!("\"{}\" is itself made `from` another animation", from.node),
            )
            .hint("name the animation it is made from, and repeat its modifiers here"),
        );
        return None;
    }
    if groups
        .get(k)
        .is_some_and(|g| g.iter().any(|(_, s)| !s.parts.is_empty() || !s.modifiers.add.is_empty()))
    {
        diags.push(
            Diagnostic::error(
                span,
                format!(
                    "\"{}\" is a sequence or has layers, which are built after `from`",
                    from.node
                ),
            )
            .hint("name the animation it plays, or add the layer here: `add \"ANIM\"`"),
        );
        return None;
    }
    Some(&compiled[k])
}

/// `src` with `own`'s channels replacing those of the same bone (slot) and
/// property, `own`'s events added, at `src`'s frame rate.
fn derive(src: &Animation, own: &Animation) -> Animation {
    let mut a = src.clone();
    a.name.clone_from(&own.name);
    for ch in &own.bones {
        a.bones.retain(|c| !(c.bone == ch.bone && c.property == ch.property));
        a.bones.push(ch.clone());
    }
    for ch in &own.flips {
        a.flips.retain(|c| !(c.bone == ch.bone && c.axis == ch.axis));
        a.flips.push(ch.clone());
    }
    for ch in &own.slot_colors {
        a.slot_colors.retain(|c| !(c.slot == ch.slot && c.component == ch.component));
        a.slot_colors.push(ch.clone());
    }
    for ch in &own.attachments {
        a.attachments.retain(|c| c.slot != ch.slot);
        a.attachments.push(ch.clone());
    }
    a.events.extend(own.events.iter().map(|e| Event { frame: e.time_secs * a.fps, ..e.clone() }));
    a.events.sort_by(|x, y| x.time_secs.total_cmp(&y.time_secs));
    a.duration_secs = a.duration_secs.max(own.duration_secs);
    a
}

/// `a` with every numeric channel (bone position, rotation, scale; slot
/// color components) ending on the value it has at time 0 (`cycle`): a key
/// with that value at the animation's end, replacing a key already there
/// (the curve into it is the previous key's). The value at time 0 is the
/// first key's when it is at 0, else the setup value (no offset, scale 1,
/// the slot's setup color). Flips, attachment switches and events are
/// left alone (a stepped value at the very end shows for no time).
pub fn cycled(sk: &Skeleton, a: &Animation) -> Animation {
    let mut a = a.clone();
    let d = a.duration_secs;
    if d <= 0.0 {
        return a;
    }
    let close = |keys: &mut Vec<Key<f64>>, setup: f64| {
        let Some(first) = keys.first() else { return };
        let start = if first.time_secs <= 0.0 { first.value } else { setup };
        match keys.last_mut() {
            Some(k) if k.time_secs >= d => k.value = start,
            _ => keys.push(Key { time_secs: d, value: start, curve: crate::model::Curve::LINEAR }),
        }
    };
    for ch in &mut a.bones {
        let setup = match (ch.mode, ch.property) {
            (ValueMode::RelativeToSetup, BoneProperty::ScaleX | BoneProperty::ScaleY) => 1.0,
            (ValueMode::RelativeToSetup, _) => 0.0,
            // (Absolute channels, from imports: the setup value itself.)
            (ValueMode::Absolute, p) => {
                let s = sk.bones.get(ch.bone.index()).map(|b| b.setup);
                s.map_or(0.0, |s| match p {
                    BoneProperty::X => s.x,
                    BoneProperty::Y => s.y,
                    BoneProperty::Rotation => s.rotation_rad,
                    BoneProperty::ScaleX => s.scale_x,
                    BoneProperty::ScaleY => s.scale_y,
                })
            }
        };
        close(&mut ch.keys, setup);
    }
    for ch in &mut a.slot_colors {
        let c = sk.slots.get(ch.slot.index()).map_or([1.0; 4], |s| s.color.to_array());
        let i = match ch.component {
            crate::model::ColorComponent::R => 0,
            crate::model::ColorComponent::G => 1,
            crate::model::ColorComponent::B => 2,
            crate::model::ColorComponent::A => 3,
        };
        close(&mut ch.keys, c[i]);
    }
    a
}

/// The most generations `chain` walks down (the deepest rig is far less).
const MAX_CHAIN_DEPTH: usize = 10_000;

/// `delay N` and `chain N` of the bone items, and `delay N` of the slot
/// items: each bone's (slot's) total delay in frames (delays add up), kept
/// modulo the animation's length.
fn delays(
    secs: &Sections<'_>,
    rig: &RigNames,
    sk: &Skeleton,
    anim: &mut Animation,
    diags: &mut Vec<Diagnostic>,
) {
    let mut frames: Vec<f64> = vec![0.0; sk.bones.len()];
    let mut slot_frames: Vec<f64> = vec![0.0; sk.slots.len()];
    let mut any = false;
    for (at, s) in secs {
        for item in s.items.iter().filter(|i| i.delay.is_some() || i.chain.is_some()) {
            if item.is_slot {
                // (An unknown slot is reported by the animation's compile;
                // `chain` on a slot item by the parser.)
                let Ok(sl) = resolve_or_explain(&rig.slot_names, "slot", &item.target, "") else {
                    continue;
                };
                if let (Some(d), Some(f)) = (&item.delay, slot_frames.get_mut(sl.index())) {
                    *f += d.node;
                    any = true;
                }
                continue;
            }
            // (An unknown bone is reported by the animation's compile.)
            let Ok(b) = resolve_or_explain(&rig.bone_names, "bone", &item.target, "") else {
                continue;
            };
            any = true;
            if let Some(d) = &item.delay {
                frames[b.index()] += d.node;
            }
            let Some(c) = &item.chain else { continue };
            add_chain(sk, b, c.node, &mut frames);
            if !sk.bones.iter().any(|x| x.parent == Some(b)) {
                diags.push(Diagnostic::warning(
                    c.span.shifted(*at),
                    format!(
                        "bone `{}` has no bones below it: `chain` delays nothing",
                        item.target.node
                    ),
                ));
            }
        }
    }
    if !any {
        return;
    }
    // Whole loops (to a billionth of a frame) delay nothing.
    let loop_frames = anim.duration_secs * anim.fps;
    if loop_frames <= 0.0 {
        return;
    }
    let fps = anim.fps;
    let seconds = |f: f64| {
        let r = f.rem_euclid(loop_frames);
        (r > 1e-9 && loop_frames - r > 1e-9).then_some(r / fps)
    };
    anim.bone_delays = frames
        .iter()
        .enumerate()
        .filter_map(|(j, f)| seconds(*f).map(|s| (BoneId::from_index(j), s)))
        .collect();
    anim.slot_delays = slot_frames
        .iter()
        .enumerate()
        .filter_map(|(j, f)| seconds(*f).map(|s| (SlotId::from_index(j), s)))
        .collect();
}

/// `chain N` on bone `b`: each bone below it is delayed `N` frames per
/// generation (added to its `frames`).
fn add_chain(sk: &Skeleton, b: BoneId, n: f64, frames: &mut [f64]) {
    // Depth below `b` of every bone (parents come before children).
    let mut depth: Vec<Option<usize>> = vec![None; sk.bones.len()];
    depth[b.index()] = Some(0);
    for (j, bone) in sk.bones.iter().enumerate() {
        if let Some(p) = bone.parent
            && let Some(dp) = depth[p.index()]
            && dp < MAX_CHAIN_DEPTH
        {
            depth[j] = Some(dp + 1);
            frames[j] += (dp + 1) as f64 * n;
        }
    }
}

/// The name of a bone or slot's left/right partner by the naming rule
/// (every dotted segment: suffixes `-l`/`-r`, `_l`/`_r`, `-L`/`-R`,
/// `_L`/`_R`, `-left`/`-right`, `_left`/`_right`, and prefixes `left-`/
/// `right-`, `left_`/`right_` swapped), `None` when no segment has one.
pub fn partner_name(name: &str) -> Option<String> {
    const SUFFIXES: [(&str, &str); 6] = [
        ("-l", "-r"),
        ("_l", "_r"),
        ("-L", "-R"),
        ("_L", "_R"),
        ("-left", "-right"),
        ("_left", "_right"),
    ];
    const PREFIXES: [(&str, &str); 2] = [("left-", "right-"), ("left_", "right_")];
    let mut changed = false;
    let segs: Vec<String> = name
        .split('.')
        .map(|seg| {
            for (a, b) in SUFFIXES {
                for (from, to) in [(a, b), (b, a)] {
                    if let Some(stem) = seg.strip_suffix(from).filter(|s| !s.is_empty()) {
                        changed = true;
                        return format!("{stem}{to}");
                    }
                }
            }
            for (a, b) in PREFIXES {
                for (from, to) in [(a, b), (b, a)] {
                    if let Some(rest) = seg.strip_prefix(from).filter(|s| !s.is_empty()) {
                        changed = true;
                        return format!("{to}{rest}");
                    }
                }
            }
            seg.to_string()
        })
        .collect();
    changed.then(|| segs.join("."))
}

/// Left and right swapped: every channel moves to its bone's (slot's)
/// partner; rotations are negated, and x of a root bone (mirrored in the
/// world) or y of a child bone (its parent's frame is mirrored across the
/// parent's axis); scales and flips are kept. String payloads of events
/// are renamed by the same rule.
/// `a` with left and right swapped (the `mirror` header word).
pub fn mirrored(sk: &Skeleton, a: &Animation) -> Animation {
    let mut a = a.clone();
    mirror(sk, &mut a);
    a
}

/// `a` with left and right partners trading their channels, values
/// unchanged (`swap`: for rigs whose partners share a setup, like a side
/// view's near and far legs).
pub fn swapped(sk: &Skeleton, a: &Animation) -> Animation {
    let mut a = a.clone();
    mirror_or_swap(sk, &mut a, false);
    a
}

fn mirror(sk: &Skeleton, a: &mut Animation) {
    mirror_or_swap(sk, a, true);
}

/// [`mirror`] (`negate`) or [`swapped`].
fn mirror_or_swap(sk: &Skeleton, a: &mut Animation, negate: bool) {
    let bone_partner = |b: BoneId| -> BoneId {
        let name = &sk.bones[b.index()].name;
        partner_name(name)
            .and_then(|p| sk.bones.iter().position(|x| x.name == p))
            .map_or(b, BoneId::from_index)
    };
    let slot_partner = |s: SlotId| -> SlotId {
        let name = &sk.slots[s.index()].name;
        partner_name(name)
            .and_then(|p| sk.slots.iter().position(|x| x.name == p))
            .map_or(s, SlotId::from_index)
    };
    for ch in &mut a.bones {
        let is_root = sk.bones[ch.bone.index()].parent.is_none();
        let negate = negate
            && ch.mode == ValueMode::RelativeToSetup
            && match ch.property {
                BoneProperty::Rotation => true,
                BoneProperty::X => is_root,
                BoneProperty::Y => !is_root,
                BoneProperty::ScaleX | BoneProperty::ScaleY => false,
            };
        if negate {
            for k in &mut ch.keys {
                k.value = -k.value;
            }
        }
        ch.bone = bone_partner(ch.bone);
    }
    for ch in &mut a.flips {
        ch.bone = bone_partner(ch.bone);
    }
    for ch in &mut a.slot_colors {
        ch.slot = slot_partner(ch.slot);
    }
    for ch in &mut a.attachments {
        let to = slot_partner(ch.slot);
        if to != ch.slot {
            for k in &mut ch.keys {
                k.value = k.value.map(|att| partner_attachment(sk, att, to));
            }
        }
        ch.slot = to;
    }
    for d in &mut a.bone_delays {
        d.0 = bone_partner(d.0);
    }
    a.bone_delays.sort_by_key(|d| d.0);
    for d in &mut a.slot_delays {
        d.0 = slot_partner(d.0);
    }
    a.slot_delays.sort_by_key(|d| d.0);
    for e in &mut a.events {
        if let EventPayload::Text(t) = &mut e.payload
            && let Some(p) = partner_name(t)
        {
            *t = p;
        }
    }
}

/// The attachment of slot `to` named like `att` (by the naming rule, or
/// as it is), else `att`.
fn partner_attachment(sk: &Skeleton, att: AttachmentId, to: SlotId) -> AttachmentId {
    let Some(a) = sk.attachments.get(att.index()) else { return att };
    let wanted = [partner_name(&a.name), Some(a.name.clone())];
    wanted
        .iter()
        .flatten()
        .find_map(|n| sk.attachments.iter().position(|x| x.slot == to && &x.name == n))
        .map_or(att, AttachmentId::from_index)
}

/// Plays backwards: the channels are sampled at `duration - t` (a time
/// warp), events fire at `duration - t`.
/// `a` played backwards (the `reverse` header word).
pub fn reversed(a: &Animation) -> Animation {
    let mut a = a.clone();
    reverse(&mut a);
    a
}

fn reverse(a: &mut Animation) {
    let d = a.duration_secs;
    let warp = if a.time_warp.is_empty() {
        vec![lin(0.0, 0.0), lin(d, d)]
    } else {
        std::mem::take(&mut a.time_warp)
    };
    a.time_warp = warp.iter().rev().map(|k| lin(d - k.time_secs, k.value)).collect();
    for e in &mut a.events {
        e.time_secs = d - e.time_secs;
        e.frame = e.time_secs * a.fps;
    }
    a.events.reverse();
    a.events.sort_by(|x, y| x.time_secs.total_cmp(&y.time_secs));
}

/// Forwards, then backwards: twice as long; the channels are sampled at
/// `t` and then `2·duration - t`; events fire on the way there and back
/// (once at the turn, and not again at the end, where the loop starts).
/// `a` forwards then backwards (the `pingpong` header word).
pub fn ping_ponged(a: &Animation) -> Animation {
    let mut a = a.clone();
    pingpong(&mut a);
    a
}

fn pingpong(a: &mut Animation) {
    let d = a.duration_secs;
    if d <= 0.0 {
        return;
    }
    let warp = if a.time_warp.is_empty() {
        vec![lin(0.0, 0.0), lin(d, d)]
    } else {
        std::mem::take(&mut a.time_warp)
    };
    let mut out = warp.clone();
    out.extend(
        warp.iter().rev().filter(|k| k.time_secs < d).map(|k| lin(2.0 * d - k.time_secs, k.value)),
    );
    a.time_warp = out;
    let back: Vec<Event> = a
        .events
        .iter()
        .rev()
        .filter(|e| e.time_secs > 0.0 && e.time_secs < d)
        .map(|e| {
            let t = 2.0 * d - e.time_secs;
            Event { time_secs: t, frame: t * a.fps, ..e.clone() }
        })
        .collect();
    a.events.extend(back);
    a.duration_secs = 2.0 * d;
}

fn lin(t: f64, v: f64) -> Key<f64> {
    Key { time_secs: t, value: v, curve: crate::model::Curve::LINEAR }
}

#[cfg(test)]
mod tests {
    use super::partner_name;

    #[test]
    fn partners_swap_every_segment_by_the_rule() {
        assert_eq!(partner_name("hip.thigh-l.shin-l").as_deref(), Some("hip.thigh-r.shin-r"));
        assert_eq!(partner_name("arm_R").as_deref(), Some("arm_L"));
        assert_eq!(partner_name("left-eye").as_deref(), Some("right-eye"));
        assert_eq!(partner_name("hand-left").as_deref(), Some("hand-right"));
        assert_eq!(partner_name("torso"), None);
        assert_eq!(partner_name("-l"), None, "a bare suffix is not a name with a side");
    }
}
