//! One glTF animation per script animation: bone nodes' translation,
//! rotation and scale; attachments' joint nodes' `z` (the draw order) and
//! scale (0 hides them, STEP); slot colours as the materials' base colour
//! through `KHR_animation_pointer`; events in the animation's `extras`.

use serde_json::{Value, json};

use super::attach::{AttachmentMesh, Follow};
use super::bones::{BoneNode, Trs, eased, key_frames};
use super::doc::{Doc, Layout};
use super::keys::{Sampler, at_frames, at_rest, fit, quaternion, sampler, split_turns};
use super::{Clip, Export};
use crate::formats::lottie::keys::{Ease, KeyOut, Series, add_halves};
use skelpad_lang::model::Armature;

/// Largest turn between two rotation keys (radians): well under half a turn.
const MAX_TURN: f64 = 2.0;

/// A node's translation, turn and scale in the plane.
type Frame = ([f64; 2], f64, [f64; 2]);

struct Channels<'a> {
    doc: &'a mut Doc,
    channels: Vec<Value>,
    samplers: Vec<Value>,
}

impl Channels<'_> {
    fn push(&mut self, s: &Sampler, target: Value) {
        let input = self.doc.buffer.floats(&s.times, 1, false, true);
        let output = self.doc.buffer.floats(&s.values, s.dims, false, false);
        let interpolation = if s.step { "STEP" } else { "LINEAR" };
        self.samplers
            .push(json!({ "input": input, "output": output, "interpolation": interpolation }));
        self.channels.push(json!({ "sampler": self.samplers.len() - 1, "target": target }));
    }

    fn node(&mut self, s: &Sampler, node: usize, path: &str) {
        self.push(s, json!({ "node": node, "path": path }));
    }
}

/// The share of a value's change over a frame a straight in-between may
/// miss at the half frame before a key is added there (the Lottie export's).
const IN_BETWEEN_SHARE: f64 = 0.1;

/// How far a straight in-between may miss at a half frame whatever the
/// change: units, radians, scale.
const IN_BETWEEN: [f64; 3] = [1e-3, 1e-4, 1e-4];

/// Values at a split frame ([`super::bones::Split`]): the frame, the
/// values half a frame on, and whether the jump comes after them.
type SplitAt = (usize, Vec<f64>, bool);

/// Between frames: the values half a frame on (per frame), the split
/// frames, the frames held.
type Between<'a> = (&'a [Option<Vec<f64>>], &'a [SplitAt], &'a [usize]);

/// A node's values per frame, half a frame on, at split frames (frame,
/// values, late) and the frames held.
type NodeFrames<'a> = (&'a [Frame], &'a [Option<Frame>], &'a [(usize, Frame, bool)], &'a [usize]);

/// Keys of per-frame values with keys added at the half frames where a
/// straight in-between misses the value there (`half`, per frame): a fast,
/// curving motion (an IK chain, a sine on a long chain). Where the values
/// jump between two frames (`splits`), the half frame is keyed and the
/// jump comes before or after it; where they hold and jump at the next
/// frame (`holds`), the key at that frame holds.
fn fit_halves(
    plan: &crate::formats::lottie::frames::Plan,
    (data, dims, breaks): (&[f64], usize, &[usize]),
    (half, splits, holds): Between<'_>,
    tolerance: f64,
) -> Vec<KeyOut> {
    let mut keys = fit(plan, data, dims, breaks, false);
    if !half.iter().all(Option::is_none) {
        let series = Series { dims, data, approx: tolerance };
        let at = |f: usize| half.get(f).cloned().flatten();
        add_halves(plan, &mut keys, &series, &at, IN_BETWEEN_SHARE);
        keys = crate::formats::export::straightened(&keys);
    }
    let value = |f: usize| data[f * dims..(f + 1) * dims].to_vec();
    for (f, h, late) in splits {
        if value(*f) == value(f + 1) {
            continue;
        }
        let (before, after) =
            if *late { (Ease::Linear, Ease::Hold) } else { (Ease::Hold, Ease::Linear) };
        key_segment(&mut keys, (*f, value(*f), value(f + 1)), &[(0.5, h.clone(), after)], before);
    }
    for &f in holds {
        if value(f) != value(f + 1) {
            key_segment(&mut keys, (f, value(f), value(f + 1)), &[], Ease::Hold);
        }
    }
    keys
}

/// Replaces the keys between frame `f` and `f + 1` by `inner` (offsets
/// from `f`), with keys at both frames (`from` eased by `ease`).
fn key_segment(
    keys: &mut Vec<KeyOut>,
    (f, from, to): (usize, Vec<f64>, Vec<f64>),
    inner: &[(f64, Vec<f64>, Ease)],
    ease: Ease,
) {
    let (frame, next) = (f as f64, f as f64 + 1.0);
    keys.retain(|k| k.frame < frame || k.frame >= next);
    if !keys.iter().any(|k| k.frame == next) {
        keys.push(KeyOut { frame: next, value: to, ease: Ease::Linear });
    }
    keys.push(KeyOut { frame, value: from, ease });
    for (d, v, e) in inner {
        keys.push(KeyOut { frame: frame + d, value: v.clone(), ease: *e });
    }
    keys.sort_by(|a, b| a.frame.total_cmp(&b.frame));
}

/// Translation, turn and scale channels of one node from per-frame values
/// (and their values half a frame on, where known).
fn trs_channels(
    ch: &mut Channels<'_>,
    clip: &Clip,
    node: usize,
    (values, halves, splits, holds): NodeFrames<'_>,
    rest: Frame,
    breaks: &[usize],
) {
    let st: Vec<SplitAt> =
        splits.iter().map(|(f, (t, _, _), l)| (*f, vec![t[0], t[1], 0.0], *l)).collect();
    let sr: Vec<SplitAt> = splits.iter().map(|(f, (_, r, _), l)| (*f, vec![*r], *l)).collect();
    let ss: Vec<SplitAt> =
        splits.iter().map(|(f, (_, _, s), l)| (*f, vec![s[0], s[1], 1.0], *l)).collect();
    let t: Vec<f64> = values.iter().flat_map(|(t, _, _)| [t[0], t[1], 0.0]).collect();
    let r: Vec<f64> = values.iter().map(|(_, r, _)| *r).collect();
    let s: Vec<f64> = values.iter().flat_map(|(_, _, s)| [s[0], s[1], 1.0]).collect();
    let ht: Vec<Option<Vec<f64>>> =
        halves.iter().map(|h| h.map(|(t, _, _)| vec![t[0], t[1], 0.0])).collect();
    let hr: Vec<Option<Vec<f64>>> = halves.iter().map(|h| h.map(|(_, r, _)| vec![r])).collect();
    let hs: Vec<Option<Vec<f64>>> =
        halves.iter().map(|h| h.map(|(_, _, s)| vec![s[0], s[1], 1.0])).collect();
    let plain = |v: &[f64]| v.to_vec();
    let keys = fit_halves(&clip.plan, (&t, 3, breaks), (&ht, &st, holds), IN_BETWEEN[0]);
    if !at_rest(&keys, &[rest.0[0], rest.0[1], 0.0]) {
        ch.node(&sampler(&at_frames(keys), clip.plan.fps, &plain), node, "translation");
    }
    let keys = fit_halves(&clip.plan, (&r, 1, breaks), (&hr, &sr, holds), IN_BETWEEN[1]);
    if !at_rest(&keys, &[rest.1]) {
        ch.node(
            &sampler(&split_turns(&keys, MAX_TURN), clip.plan.fps, &quaternion),
            node,
            "rotation",
        );
    }
    let keys = fit_halves(&clip.plan, (&s, 3, breaks), (&hs, &ss, holds), IN_BETWEEN[2]);
    if !at_rest(&keys, &[rest.2[0], rest.2[1], 1.0]) {
        ch.node(&sampler(&at_frames(keys), clip.plan.fps, &plain), node, "scale");
    }
}

fn bone_channels(
    ch: &mut Channels<'_>,
    arm: &Armature,
    clip: (usize, &Clip),
    bones: &[BoneNode],
    lay: &Layout,
) {
    let (ci, c) = clip;
    for (b, bone) in bones.iter().enumerate() {
        let v = &bone.per_clip[ci];
        let breaks = if bone.baked.is_some() { Vec::new() } else { key_frames(arm, c, b) };
        let (helper, node) = lay.bones[b];
        let own: Vec<Frame> = v.iter().map(|t: &Trs| (t.t, t.r, t.s)).collect();
        let halves = &bone.halves[ci];
        let holds = &bone.holds[ci];
        let own_s: Vec<(usize, Frame, bool)> = bone.splits[ci]
            .iter()
            .map(|x| (x.frame, (x.half.t, x.half.r, x.half.s), x.late))
            .collect();
        let turn_s: Vec<(usize, Frame, bool)> = bone.splits[ci]
            .iter()
            .map(|x| (x.frame, ([0.0; 2], x.half.turn, [1.0; 2]), x.late))
            .collect();
        let own_h: Vec<Option<Frame>> = halves.iter().map(|h| h.map(|t| (t.t, t.r, t.s))).collect();
        let rest = (bone.rest.t, bone.rest.r, bone.rest.s);
        match helper {
            None => trs_channels(ch, c, node, (&own, &own_h, &own_s, holds), rest, &breaks),
            Some(h) => {
                trs_channels(ch, c, h, (&own, &own_h, &own_s, holds), rest, &breaks);
                let turn: Vec<Frame> = v.iter().map(|t| ([0.0; 2], t.turn, [1.0; 2])).collect();
                let turn_h: Vec<Option<Frame>> =
                    halves.iter().map(|h| h.map(|t| ([0.0; 2], t.turn, [1.0; 2]))).collect();
                let rest = ([0.0; 2], bone.rest.turn, [1.0; 2]);
                trs_channels(ch, c, node, (&turn, &turn_h, &turn_s, holds), rest, &breaks);
            }
        }
    }
}

fn attachment_channels(
    ch: &mut Channels<'_>,
    clip: (usize, &Clip),
    meshes: &[AttachmentMesh],
    lay: &Layout,
) {
    let (ci, c) = clip;
    let s = &c.samples;
    for (mi, m) in meshes.iter().enumerate() {
        match &m.follow {
            Follow::Rigid => {
                let Some(&node) = lay.joints[mi].first() else { continue };
                let rest_z = lay.rest.get(mi).copied().unwrap_or((0.0, 1.0));
                let values: Vec<_> = (0..c.plan.total)
                    .map(|f| {
                        let shown = s.shown[f * s.slots + m.slot] == Some(m.att);
                        let k = if shown { 1.0 } else { 0.0 };
                        let z = super::z_of(s.rank[f * s.slots + m.slot]);
                        (z, k)
                    })
                    .collect();
                trs_z_scale(ch, c, node, &values, rest_z);
            }
            Follow::PerFrame(frames) => {
                for (j, &(fc, ff)) in frames.iter().enumerate() {
                    let node = lay.joints[mi][j];
                    let rest = if fc == 0 { 1.0 } else { 0.0 };
                    let data: Vec<f64> = (0..c.plan.total)
                        .flat_map(|f| {
                            let k = if fc == ci && ff == f { 1.0 } else { 0.0 };
                            [k, k, k]
                        })
                        .collect();
                    let keys = fit(&c.plan, &data, 3, &[], true);
                    if !at_rest(&keys, &[rest; 3]) {
                        ch.node(
                            &sampler(&at_frames(keys), c.plan.fps, &|v| v.to_vec()),
                            node,
                            "scale",
                        );
                    }
                }
            }
            Follow::Weighted(_) => {}
        }
    }
}

/// The `z` translation and the uniform scale of a rigid joint node.
fn trs_z_scale(
    ch: &mut Channels<'_>,
    c: &Clip,
    node: usize,
    values: &[(f64, f64)],
    rest: (f64, f64),
) {
    let t: Vec<f64> = values.iter().flat_map(|(z, _)| [0.0, 0.0, *z]).collect();
    let s: Vec<f64> = values.iter().flat_map(|(_, k)| [*k; 3]).collect();
    let keys = fit(&c.plan, &t, 3, &[], true);
    if !at_rest(&keys, &[0.0, 0.0, rest.0]) {
        ch.node(&sampler(&at_frames(keys), c.plan.fps, &|v| v.to_vec()), node, "translation");
    }
    let keys = fit(&c.plan, &s, 3, &[], true);
    if !at_rest(&keys, &[rest.1; 3]) {
        ch.node(&sampler(&at_frames(keys), c.plan.fps, &|v| v.to_vec()), node, "scale");
    }
}

/// Slot colours that move: every material of the slot's attachments keyed
/// through `KHR_animation_pointer`. Returns whether any was.
fn color_channels(
    ch: &mut Channels<'_>,
    c: &Clip,
    setup: &Clip,
    meshes: &[AttachmentMesh],
    lay: &Layout,
) -> bool {
    let s = &c.samples;
    let mut any = false;
    for (mi, m) in meshes.iter().enumerate() {
        let rest = setup.samples.color[m.slot];
        let moves = (0..c.plan.total).any(|f| s.color[f * s.slots + m.slot] != rest);
        if !moves {
            continue;
        }
        let prims = m.prims.iter().filter(|p| !p.indices.is_empty());
        for (p, &mat) in prims.zip(&lay.materials[mi]) {
            let data: Vec<f64> = (0..c.plan.total)
                .flat_map(|f| super::base_color(p.color, s.color[f * s.slots + m.slot]))
                .collect();
            let keys = fit(&c.plan, &data, 4, &[], false);
            let pointer = format!("/materials/{mat}/pbrMetallicRoughness/baseColorFactor");
            let target = json!({ "path": "pointer", "extensions": { "KHR_animation_pointer": { "pointer": pointer } } });
            ch.push(&sampler(&at_frames(keys), c.plan.fps, &|v| v.to_vec()), target);
            any = true;
        }
    }
    any
}

/// Adds the animation of clip `ci` (not the setup pose) to the document.
pub fn animation(doc: &mut Doc, ex: &Export<'_>, ci: usize, lay: &Layout, out: &mut super::Notes) {
    let c = &ex.clips[ci];
    let mut ch = Channels { doc, channels: Vec::new(), samplers: Vec::new() };
    // The root, still, from the first to the last frame: every animation
    // has a channel and lasts as long as its frames.
    let last = (c.plan.total.max(1) - 1) as f32 / c.plan.fps as f32;
    let times = if last > 0.0 { vec![0.0, last] } else { vec![0.0] };
    let values = vec![0.0f32; 3 * times.len()];
    ch.node(&Sampler { times, values, dims: 3, step: false }, lay.root, "translation");
    bone_channels(&mut ch, ex.arm, (ci, c), ex.bones, lay);
    attachment_channels(&mut ch, (ci, c), ex.meshes, lay);
    if color_channels(&mut ch, c, &ex.clips[0], ex.meshes, lay) {
        out.pointer = true;
    }
    for (b, bone) in ex.bones.iter().enumerate() {
        if bone.baked.is_none() && eased(ex.arm, c, b) {
            out.eased.push((c.name.clone(), bone.name.clone()));
        }
    }
    let anim = c.id.and_then(|i| ex.arm.animation(i));
    let extras = json!({ "skelpad": {
        "fps": c.plan.fps,
        "frames": c.plan.total,
        "duration": anim.map_or(0.0, |a| a.duration_secs),
        "loop": anim.and_then(|a| a.looping),
        "events": anim.map_or(json!([]), skelpad_lang::runtime::report::events_json),
    }});
    let (channels, samplers) = (ch.channels, ch.samplers);
    doc.animations.push(
        json!({ "name": c.name, "channels": channels, "samplers": samplers, "extras": extras }),
    );
}
