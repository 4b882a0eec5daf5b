//! One `Animation` per script animation: bone channels as value tracks
//! (`position`, the rotation, `scale`; or the whole `transform` of a bone
//! that needs a skew), slot colours as `modulate`, attachment switches as
//! discrete `visible` keys, the draw order as discrete `z_index` keys,
//! moving polygons keyed at every frame, and events as a method track on
//! the root.
//!
//! Keys: skelpad's pose is sampled at every frame of the animation's own
//! rate; a stretch between two of the bone's keys is one Godot segment
//! (straight, or held) when that lands on every frame inside it, else
//! every frame is a key and straight runs merge
//! (`formats::lottie::keys::fit`, the Lottie export's rule).

use super::Ctx;
use super::keys::{Ease, KeyOut, Series, fit};
use super::rig::{Geometry, Rig, polygons};
use super::text::{Sub, V};
use crate::formats::export::ExportError;
use crate::formats::lottie::frames::{Plan, Samples};
use crate::formats::lottie::transform::{BoneLayer, Target, bone_layers_for};
use crate::render::{DrawOptions, Part, RenderCache};
use skelpad_lang::model::{AnimId, Animation, EventPayload, SlotId};

/// Method the event track calls on the root (its script emits the signal).
pub const EVENT_METHOD: &str = "skelpad_event_fired";

/// Keys of a track: time, transition (1 straight, 0 held), value.
type Keys = Vec<(f64, f64, V)>;

/// One track.
struct Track {
    path: String,
    method: bool,
    discrete: bool,
    keys: Keys,
}

/// An animation sampled and keyed.
pub struct Built {
    /// The `Animation` sub-resource.
    pub sub: Sub,
    /// Bones keyed at every frame somewhere, and why.
    pub baked: Vec<(usize, String)>,
}

/// An animation's plan, samples and bone layers.
pub type Sampled = (Plan, Samples, Vec<BoneLayer>);

/// The sampled animation and its bone layers.
pub fn sampled(ctx: &Ctx<'_>, id: AnimId) -> Result<Sampled, ExportError> {
    let a = ctx.arm.animation(id).ok_or_else(|| ExportError::Cannot("no such animation".into()))?;
    let plan = Plan::new(ctx.arm, &[id], Some(a.fps))?;
    let s = crate::formats::lottie::frames::sample(ctx.arm, &plan, ctx.skin)?;
    let framing = super::framing();
    let layers = bone_layers_for(ctx.arm, &plan, &s, &framing, Target::Godot)?;
    Ok((plan, s, layers))
}

/// The animation `id` as a sub-resource.
pub fn build(
    ctx: &Ctx<'_>,
    rig: &Rig,
    id: AnimId,
    (plan, s, layers): Sampled,
) -> Result<Built, ExportError> {
    let a = ctx.arm.animation(id).ok_or_else(|| ExportError::Cannot("no such animation".into()))?;
    let mut tracks = Vec::new();
    let mut baked = Vec::new();
    for (b, layer) in layers.iter().enumerate() {
        if let Some(why) = bone_tracks(ctx, rig, a, &plan, &s, (b, layer), &mut tracks) {
            baked.push((b, why));
        }
    }
    slot_tracks(rig, &plan, &s, &mut tracks);
    moving_tracks(ctx, rig, id, &plan, &s, &mut tracks);
    tracks.extend(events(a));
    Ok(Built { sub: sub(ctx, a, &tracks), baked })
}

fn time(plan: &Plan, frame: f64) -> f64 {
    frame / plan.fps
}

fn transition(e: Ease) -> f64 {
    if e == Ease::Hold { 0.0 } else { 1.0 }
}

/// A bone's tracks; returns why it is keyed at every frame, if it is.
fn bone_tracks(
    ctx: &Ctx<'_>,
    rig: &Rig,
    a: &Animation,
    plan: &Plan,
    s: &Samples,
    (b, layer): (usize, &BoneLayer),
    out: &mut Vec<Track>,
) -> Option<String> {
    let t = ctx.version.table();
    let path = &rig.bones[b];
    let parent = ctx.arm.skeleton.bones[b].parent.map(|p| p.index());
    let holds = crate::formats::export::jumps(s, plan, b, parent);
    if let Some(helper) = &rig.helpers[b] {
        // Every bone whose matrix needs a skew has a helper (`skew`).
        let keys = super::skew::keys(ctx, plan, s, b);
        let held = |secs: f64| {
            plan.stepped || holds.iter().any(|&f| (secs - time(plan, f as f64)).abs() < 1e-9)
        };
        let inside =
            |secs: f64| holds.iter().any(|&f| (secs - time(plan, f as f64 + 0.5)).abs() < 1e-9);
        let keys: Vec<(f64, f64, super::skew::Svd)> = keys
            .into_iter()
            .filter(|(secs, _)| !inside(*secs))
            .map(|(secs, v)| (secs, if held(secs) { 0.0 } else { 1.0 }, v))
            .collect();
        let track = |path: &str, prop: &str, value: &dyn Fn(&super::skew::Svd) -> V| Track {
            path: format!("{path}:{prop}"),
            method: false,
            discrete: false,
            keys: keys.iter().map(|(secs, e, v)| (*secs, *e, value(v))).collect(),
        };
        out.push(track(helper, "position", &|v| V::Vec2(v.p)));
        out.push(track(helper, t.rotation.0, &|v| V::Num(t.angle(v.phi))));
        out.push(track(helper, "scale", &|v| V::Vec2(v.s)));
        out.push(track(path, t.rotation.0, &|v| V::Num(t.angle(v.theta))));
        return reason(ctx, a, plan, (b, layer));
    }
    let track = |prop: &str, keys: &[KeyOut], value: &dyn Fn(&[f64]) -> V| Track {
        path: format!("{path}:{prop}"),
        method: false,
        discrete: false,
        keys: held_over(&crate::formats::export::straightened(keys), &holds)
            .iter()
            .map(|k| (time(plan, k.frame), transition(k.ease), value(&k.value)))
            .collect(),
    };
    out.push(track("position", &layer.position, &|v| V::Vec2([v[0], v[1]])));
    out.push(track(t.rotation.0, &layer.rotation, &|v| V::Num(t.angle(v[0].to_radians()))));
    out.push(track("scale", &layer.scale, &|v| V::Vec2([v[0] / 100.0, v[1] / 100.0])));
    reason(ctx, a, plan, (b, layer))
}

/// The value of straight or held keys at frame `t`.
fn value_at(keys: &[KeyOut], t: f64) -> Option<Vec<f64>> {
    let i = keys.iter().rposition(|k| k.frame <= t)?;
    let k = &keys[i];
    let Some(next) = keys.get(i + 1) else { return Some(k.value.clone()) };
    let p = match k.ease {
        Ease::Hold => 0.0,
        Ease::Linear => (t - k.frame) / (next.frame - k.frame),
        Ease::Bezier(e) => {
            crate::formats::export::bezier_progress(e, (t - k.frame) / (next.frame - k.frame))
        }
    };
    Some(k.value.iter().zip(&next.value).map(|(a, b)| a + (b - a) * p).collect())
}

/// The keys held from each frame of `holds` to the next, where the value
/// jumps there (`formats::export::jumps`: skelpad switches it at once).
fn held_over(keys: &[KeyOut], holds: &[usize]) -> Vec<KeyOut> {
    let mut out = keys.to_vec();
    for &f in holds {
        let (frame, next) = (f as f64, f as f64 + 1.0);
        let (Some(from), Some(to)) = (value_at(&out, frame), value_at(&out, next)) else {
            continue;
        };
        if from == to {
            continue;
        }
        out.retain(|k| k.frame < frame || k.frame >= next);
        if !out.iter().any(|k| k.frame == next) {
            out.push(KeyOut { frame: next, value: to, ease: Ease::Linear });
        }
        out.push(KeyOut { frame, value: from, ease: Ease::Hold });
        out.sort_by(|a, b| a.frame.total_cmp(&b.frame));
    }
    out
}

/// Whether bone `b` is keyed with its whole matrix (its transform relative
/// to its parent needs a skew, which a `Node2D` has not): then it sits
/// under a helper node (`skew`).
pub fn needs_matrix(ctx: &Ctx<'_>, b: usize, layer: &BoneLayer) -> bool {
    let bone = &ctx.arm.skeleton.bones[b];
    layer.parent != bone.parent.map(|p| p.index()) || layer.position.is_empty()
}

/// Why bone `b` is keyed at every frame in this animation, if it is.
pub fn reason(
    ctx: &Ctx<'_>,
    a: &Animation,
    plan: &Plan,
    (b, layer): (usize, &BoneLayer),
) -> Option<String> {
    if needs_matrix(ctx, b, layer) {
        let skew = "its matrix relative to its parent needs a skew";
        return Some(layer.baked.as_ref().map_or_else(|| skew.into(), |w| format!("{w}; {skew}")));
    }
    if layer.baked.is_some() {
        return layer.baked.clone();
    }
    // Keys between the bone's own keys: a curve Godot has no transition for.
    let own: Vec<f64> = a
        .bones
        .iter()
        .filter(|c| c.bone.index() == b)
        .flat_map(|c| c.keys.iter().map(|k| (k.time_secs * plan.fps).round()))
        .collect();
    let extra = [&layer.position, &layer.rotation, &layer.scale]
        .iter()
        .flat_map(|k| k.iter())
        .any(|k| k.frame != 0.0 && k.frame + 1.0 != plan.total as f64 && !own.contains(&k.frame));
    extra.then(|| {
        "its curves (sine, bezier or delayed keys) are not Godot's straight lines or holds".into()
    })
}

/// Discrete keys where the value changes (and at frame 0).
fn changes<T: PartialEq + Copy>(plan: &Plan, at: impl Fn(usize) -> T, v: impl Fn(T) -> V) -> Keys {
    let mut keys = Vec::new();
    let mut last = None;
    for f in 0..plan.total {
        let x = at(f);
        if last != Some(x) {
            keys.push((time(plan, f as f64), 1.0, v(x)));
            last = Some(x);
        }
    }
    keys
}

fn slot_tracks(rig: &Rig, plan: &Plan, s: &Samples, out: &mut Vec<Track>) {
    let n = s.slots;
    for (slot, path) in rig.slots.iter().enumerate() {
        let data: Vec<f64> =
            (0..plan.total).flat_map(|f| s.color[f * n + slot].to_array()).collect();
        let keys = fit(
            plan,
            &Series { dims: 4, data: &data, approx: 0.0 },
            &|_| Vec::new(),
            &|_, _| Vec::new(),
            false,
        );
        let keys = keys
            .iter()
            .map(|k| {
                (
                    time(plan, k.frame),
                    transition(k.ease),
                    V::Color([k.value[0], k.value[1], k.value[2], k.value[3]]),
                )
            })
            .collect();
        out.push(Track { path: format!("{path}:modulate"), method: false, discrete: false, keys });
        if rig.order_moves {
            let keys =
                changes(plan, |f| s.rank[f * n + slot].min(super::MAX_Z), |z| V::Int(i64::from(z)));
            out.push(Track {
                path: format!("{path}:z_index"),
                method: false,
                discrete: true,
                keys,
            });
        }
    }
    for (slot, att, path) in &rig.attachments {
        let keys = changes(plan, |f| s.shown[f * n + slot] == Some(*att), V::Bool);
        out.push(Track { path: format!("{path}:visible"), method: false, discrete: true, keys });
    }
}

/// Polygons whose points move on their own, keyed at every frame in the
/// slot bone's node frame.
fn moving_tracks(
    ctx: &Ctx<'_>,
    rig: &Rig,
    id: AnimId,
    plan: &Plan,
    s: &Samples,
    out: &mut Vec<Track>,
) {
    if rig.moving.is_empty() {
        return;
    }
    let anim = ctx.arm.animation(id);
    let mut pose = skelpad_lang::runtime::Pose::default();
    let mut cache = RenderCache::new(".");
    let mut per: Vec<(Keys, Keys)> = rig.moving.iter().map(|_| Default::default()).collect();
    for f in 0..plan.total {
        skelpad_lang::runtime::evaluate_into(
            &mut pose,
            ctx.arm,
            anim,
            ctx.skin,
            time(plan, f as f64),
        );
        for (m, (pts, tris)) in rig.moving.iter().zip(&mut per) {
            let g = frame_geometry(ctx, m, s, f, (&pose, &mut cache));
            let t = time(plan, f as f64);
            pts.push((t, 1.0, V::Points(g.points)));
            if m.part != Part::Sprite {
                tris.push((t, 1.0, polygons(&g.tris)));
            }
        }
    }
    for (m, (pts, tris)) in rig.moving.iter().zip(per) {
        out.push(Track {
            path: format!("{}:polygon", m.path),
            method: false,
            discrete: false,
            keys: pts,
        });
        if !tris.is_empty() {
            out.push(Track {
                path: format!("{}:polygons", m.path),
                method: false,
                discrete: true,
                keys: tris,
            });
        }
    }
}

/// A moving polygon at frame `f`, in its bone node's frame: a mesh's
/// skinned points (`Samples::meshes`), or a path's fill or stroke as the
/// renderer draws it at that pose.
fn frame_geometry(
    ctx: &Ctx<'_>,
    m: &super::rig::Moving,
    s: &Samples,
    f: usize,
    (pose, cache): (&skelpad_lang::runtime::Pose, &mut RenderCache),
) -> Geometry {
    use skelpad_lang::model::Affine;
    let sk = &*ctx.arm.skeleton;
    let empty =
        || Geometry { points: Vec::new(), uv: Vec::new(), tris: Vec::new(), color: [1.0; 4] };
    if m.part == Part::Sprite {
        let bone = sk.slots[m.slot].bone.index();
        let to_local = super::rig::godot_world(s, bone, f).inverse().unwrap_or(Affine::IDENTITY)
            * super::rig::C;
        let Some((_, frames)) = s.meshes.iter().find(|(k, _)| *k == (m.slot, m.att)) else {
            return empty();
        };
        let points = frames[f]
            .iter()
            .map(|p| {
                let (x, y) = to_local.apply(p[0], p[1]);
                [x, y]
            })
            .collect();
        return Geometry { points, ..empty() };
    }
    let options = DrawOptions { bones: false, ..DrawOptions::default() };
    let slot = SlotId::from_index(m.slot);
    let list = crate::render::build_attachment(sk, pose, slot, m.att, &options, cache);
    let att = sk.attachment(ctx.skin, m.att).map_or(Affine::IDENTITY, |a| a.transform.matrix());
    Geometry::of(&list, m.part, super::rig::C * att).unwrap_or_else(empty)
}

fn payload(p: &EventPayload) -> V {
    match p {
        EventPayload::None => V::Str(String::new()),
        EventPayload::Int(i) => V::Int(i64::from(*i)),
        EventPayload::Float(x) => V::Num(*x),
        EventPayload::Text(s) => V::Str(s.clone()),
    }
}

/// The method tracks of the events: Godot keeps one key per time on a
/// track, so the n-th event at a time goes on the n-th track (tracks play
/// in order, so events at one time arrive in the order written).
fn events(a: &Animation) -> Vec<Track> {
    let mut tracks: Vec<Track> = Vec::new();
    let mut at = (f64::NAN, 0usize);
    for e in &a.events {
        at = if e.time_secs == at.0 { (at.0, at.1 + 1) } else { (e.time_secs, 0) };
        if tracks.len() <= at.1 {
            tracks.push(Track { path: ".".into(), method: true, discrete: true, keys: Vec::new() });
        }
        let call = V::Dict(vec![
            ("args".into(), V::Arr(vec![V::Str(e.name.clone()), payload(&e.payload)])),
            ("method".into(), V::Str(EVENT_METHOD.into())),
        ]);
        tracks[at.1].keys.push((e.time_secs, 1.0, call));
    }
    tracks
}

fn sub(ctx: &Ctx<'_>, a: &Animation, tracks: &[Track]) -> Sub {
    let t = ctx.version.table();
    let (loop_key, loop_value) = t.looping(a.looping != Some(false));
    let mut props = vec![
        ("resource_name".to_string(), V::Str(a.name.clone())),
        ("length".into(), V::Num(a.duration_secs.max(1.0 / a.fps))),
        (loop_key.into(), loop_value),
        ("step".into(), V::Num(1.0 / a.fps)),
    ];
    for (i, tr) in tracks.iter().enumerate() {
        let p = |k: &str| format!("tracks/{i}/{k}");
        props.push((p("type"), V::Str(if tr.method { "method" } else { "value" }.into())));
        props.push((p("path"), V::Path(tr.path.clone())));
        props.push((p("interp"), V::Int(1)));
        props.push((p("loop_wrap"), V::Bool(true)));
        props.push((p("imported"), V::Bool(false)));
        props.push((p("enabled"), V::Bool(true)));
        let mut keys = vec![
            ("times".to_string(), V::Reals(tr.keys.iter().map(|k| k.0).collect())),
            ("transitions".into(), V::Reals(tr.keys.iter().map(|k| k.1).collect())),
        ];
        if !tr.method {
            keys.push(("update".into(), V::Int(i64::from(tr.discrete))));
        }
        keys.push(("values".into(), V::Arr(tr.keys.iter().map(|k| k.2.clone()).collect())));
        props.push((p("keys"), V::Dict(keys)));
    }
    Sub { class: "Animation", props }
}
