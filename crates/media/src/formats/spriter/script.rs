//! A Spriter entity (read into the model) → a Skel2D script.
//!
//! The language composes bones as Spriter does when each bone's local
//! values are taken relative to its parent's *world* rotation and scale:
//! world = P·T(x,y)·S(1/psx,1/psy)·R(−prot)·R(rot+prot)·S(sx·psx, sy·psy)
//! = T(P·(x,y))·R(θp + rot)·S(Sxp·sx, Syp·sy). So every bone's keys are
//! worked out from the world transforms skelpad's Spriter runtime gives
//! (which SpriterPlusPlus agrees with): rot = θ − θp, sx = Sx/Sxp,
//! (x, y) = P⁻¹·origin. That carries mirrored parents, parents that change
//! and inherited alpha over exactly at every sampled time.
//!
//! Times: every frame at the animation's fps plus every Spriter key time
//! (and a hair before it, so jumps stay jumps); a bone's span that follows
//! its quadratic, cubic or bezier curve (its own or the mainline's) becomes
//! one key with a `bz(…)` easing (see `formats::curves`); elsewhere keys that lie on
//! the straight line between their neighbours are dropped, so linear
//! stretches become single keys and curves the language lacks (quartic,
//! quintic) become per-frame keys.

use std::fmt::Write as _;

use super::build::EntityModel;
use crate::formats::curves::{EasedKey, bone_spans, keys_with_curves};
use skelpad_lang::model::{
    Affine, AnimId, Animation, Armature, AttachmentKind, BoneId, BoneProperty, Easing, Skeleton,
    SkinId,
};
use skelpad_lang::runtime::evaluate;

/// Result of a conversion: the script and what it could not carry.
pub struct Converted {
    /// The Skel2D script's text, ready to save as a `.skel2d` file.
    pub script: String,
    /// What the language cannot express (printed by `skelpad convert`).
    pub lost: Vec<String>,
}

/// Samples per animation at most (longer animations are sampled sparser).
const MAX_SAMPLES: usize = 20_000;
/// A hair before a key time, in frames.
const EPS_FRAMES: f64 = 1e-4;

/// A number as the language writes it: `-?[0-9]+(\.[0-9]+)?`.
fn num(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    let mut s = format!("{v:.6}");
    if s.contains('.') {
        while s.ends_with('0') {
            s.pop();
        }
        if s.ends_with('.') {
            s.pop();
        }
    }
    if s == "-0" { "0".into() } else { s }
}

/// A name the language can quote (no spaces or quotes); renames are noted.
fn quoted(kind: &str, name: &str, lost: &mut Vec<String>) -> String {
    let q: String = name
        .chars()
        .map(|c| if c.is_whitespace() || c == '"' || c == '#' { '_' } else { c })
        .collect();
    if q != name {
        lost.push(format!(
            "{kind} \"{name}\" is called \"{q}\" (names cannot hold spaces or quotes)"
        ));
    }
    q
}

/// World matrix → (θ degrees, sx, sy), choosing the branch nearest `prev`.
fn split(m: &Affine, prev: Option<f64>) -> (f64, f64, f64) {
    let [a, b, c, d, _, _] = m.to_array();
    let sx = a.hypot(b);
    let (theta, sx) =
        if sx < 1e-12 { ((-c).atan2(d).to_degrees(), 0.0) } else { (b.atan2(a).to_degrees(), sx) };
    let sy = if sx == 0.0 { c.hypot(d) } else { m.determinant() / sx };
    let Some(p) = prev else { return (theta, sx, sy) };
    // Unwrap near the previous angle; the other branch (θ + 180°, −s) when nearer.
    let near = |a: f64| a + 360.0 * ((p - a) / 360.0).round();
    let (a1, a2) = (near(theta), near(theta + 180.0));
    if (a2 - p).abs() < (a1 - p).abs() { (a2, -sx, -sy) } else { (a1, sx, sy) }
}

/// Drops samples that lie within `tol` of the line through the kept
/// neighbours; spans are kept under `max_span` in value (angles < 180°).
/// Greedy, in one pass: from each kept sample the slopes that keep every
/// sample in between within `tol` form an interval that only narrows.
fn compress(samples: &[(f64, f64)], tol: f64, max_span: f64) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    let Some(&first) = samples.first() else { return out };
    out.push(first);
    let mut anchor = 0;
    while anchor + 1 < samples.len() {
        let (t0, v0) = samples[anchor];
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        let mut best = anchor + 1;
        for (j, &(t, v)) in samples.iter().enumerate().skip(anchor + 1) {
            let dt = t - t0;
            if dt <= 0.0 || (v - v0).abs() >= max_span {
                break;
            }
            let slope = (v - v0) / dt;
            if slope < lo || slope > hi {
                break;
            }
            best = j;
            lo = lo.max((v - tol - v0) / dt);
            hi = hi.min((v + tol - v0) / dt);
        }
        out.push(samples[best]);
        anchor = best;
    }
    out
}

/// Writes one timeline (`PROP F:> V F::E> V …`) if it ever differs from
/// `rest`. A key's easing is set by the token that reaches the next key
/// (`F::E>` eases the key before it and the keys after).
fn timeline(out: &mut String, prop: &str, keys: &[EasedKey], rest: f64, force: bool) {
    if !force && keys.iter().all(|&(_, v, _)| (v - rest).abs() < 1e-9) {
        return;
    }
    let _ = write!(out, "\t\t{prop}");
    let mut current = Easing::Linear;
    let mut before = Easing::Linear;
    for &(f, v, e) in keys {
        if before == current {
            let _ = write!(out, " {}:> {}", num(f), num(v));
        } else {
            let _ = write!(out, " {}::{before}> {}", num(f), num(v));
            current = before;
        }
        before = e.unwrap_or(Easing::Linear);
    }
    out.push('\n');
}

/// Converts one entity. `sizes` gives an image's pixel size (for pivots).
pub fn to_script(
    ent: &EntityModel,
    file_extras: &[String],
    sizes: &dyn Fn(&str) -> Option<(u32, u32)>,
) -> Converted {
    let mut lost: Vec<String> = file_extras.to_vec();
    // The language keeps one draw order: animated orders become slot copies.
    // Bezier curves as the exact curves the file names (formats::curves).
    let exact = crate::formats::curves::exact_spriter_beziers(&ent.armature);
    let baked = crate::formats::draw_order::bake(&exact).unwrap_or_else(|why| {
        lost.push(why);
        None
    });
    let arm: &Armature = baked.as_ref().unwrap_or(&exact);
    let sk = &*arm.skeleton;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Converted by skelpad from Spriter entity \"{}\".",
        ent.name.replace(['\n', '\r'], " ")
    );
    write_skeleton(&mut s, sk, sizes, &mut lost);
    write_skins(&mut s, sk, sizes, &mut lost);
    s.push_str("order\n");
    for &slot in &sk.draw_order {
        let _ = writeln!(s, "\t@skeleton.{}", sk.slot(slot).name);
    }
    for ai in 0..arm.animations.len() {
        write_animation(&mut s, arm, AnimId::from_index(ai), &mut lost);
    }
    lost.sort();
    lost.dedup();
    Converted { script: s, lost }
}

/// An attachment line's body: a sprite with its pivot moved into x/y.
fn sprite_line(
    image: &str,
    pivot: [f64; 2],
    sizes: &dyn Fn(&str) -> Option<(u32, u32)>,
    lost: &mut Vec<String>,
) -> String {
    let (dx, dy) = match sizes(image) {
        Some((w, h)) => ((0.5 - pivot[0]) * f64::from(w), (0.5 - pivot[1]) * f64::from(h)),
        None => {
            lost.push(format!(
                "the size of `{image}` is unknown: its pivot is lost (the picture is centered)"
            ));
            (0.0, 0.0)
        }
    };
    let image = image.replace(['"', ' ', '\t'], "_");
    format!(":sprite \"{image}\" x{} y{}", num(dx), num(dy))
}

/// The `skeleton` section: every bone, and its slots with their default
/// skin's attachments and a hidden one.
fn write_skeleton(
    s: &mut String,
    sk: &Skeleton,
    sizes: &dyn Fn(&str) -> Option<(u32, u32)>,
    lost: &mut Vec<String>,
) {
    s.push_str("skeleton\n");
    for (bi, bone) in sk.bones.iter().enumerate() {
        let _ = write!(s, "\t{}", bone.name);
        if bone.length > 0.0 {
            let _ = write!(s, " l{}", num(bone.length));
        }
        s.push('\n');
        for (si, slot) in sk.slots.iter().enumerate().filter(|(_, sl)| sl.bone.index() == bi) {
            let short = slot.name.rsplit('.').next().unwrap_or(&slot.name);
            for (ai, a) in sk.attachments.iter().enumerate().filter(|(_, a)| a.slot.index() == si) {
                let line = match sk.contents.get(ai).map(|x| &x.kind) {
                    Some(AttachmentKind::Sprite { image: Some(img), pivot }) => {
                        sprite_line(img, *pivot, sizes, lost)
                    }
                    _ => String::new(),
                };
                let _ = writeln!(s, "\t\t@{short}[{}] {line}", a.name);
            }
            let _ = writeln!(s, "\t\t@{short}[hidden_]");
        }
    }
}

/// Character maps → `skin` sections with the attachments that differ from
/// the default skin's.
fn write_skins(
    s: &mut String,
    sk: &Skeleton,
    sizes: &dyn Fn(&str) -> Option<(u32, u32)>,
    lost: &mut Vec<String>,
) {
    for skin in sk.skins.iter().skip(1) {
        let _ = writeln!(s, "skin \"{}\"", quoted("character map", &skin.name, lost));
        for (id, shown) in sk.skin_changes(skin) {
            let Some(a) = sk.attachments.get(id.index()) else { continue };
            let line = match &shown.kind {
                AttachmentKind::Sprite { image: Some(img), pivot } => {
                    sprite_line(img, *pivot, sizes, lost)
                }
                _ => String::new(),
            };
            let _ = writeln!(s, "\t@skeleton.{}[{}] {line}", sk.slot(a.slot).name, a.name);
        }
    }
}

/// One animation, sampled and written as compressed key lines.
fn write_animation(s: &mut String, arm: &Armature, id: AnimId, lost: &mut Vec<String>) {
    let sk = &*arm.skeleton;
    let anim = &arm.animations[id.index()];
    let fps = anim.fps.clamp(1.0, 1000.0).round();
    let times = sample_times(anim, sk, fps, lost);
    let samples = Samples::take(arm, id, &times, fps);
    if samples.order_changes {
        lost.push(format!(
            "animation \"{}\" changes the draw order: the script keeps one order",
            anim.name
        ));
    }
    let _ = writeln!(s, "anim \"{}\" {}fps", quoted("animation", &anim.name, lost), num(fps));
    samples.write_bones(s, sk, anim, fps);
    samples.write_slots(s, sk);
    write_events(s, anim, fps, lost);
}

/// An animation's events as `!NAME` items, one per name (in the order
/// names first fire), each key an absolute frame `F:>` and a `!`. Frames
/// are written in full (`frame / fps` gives the key's time back to the
/// last bits of a double).
fn write_events(s: &mut String, anim: &Animation, fps: f64, lost: &mut Vec<String>) {
    let mut names: Vec<&str> = Vec::new();
    for e in &anim.events {
        if !names.contains(&e.name.as_str()) {
            names.push(&e.name);
        }
    }
    for name in names {
        let _ = write!(s, "\t!{}\n\t\te", event_name(name, lost));
        for e in anim.events.iter().filter(|e| e.name == name) {
            let _ = write!(s, " {}:> !", frame_num(e.time_secs * fps));
        }
        s.push('\n');
    }
}

/// A frame as the language writes it, with every digit a double has
/// (Rust prints doubles without exponents).
fn frame_num(f: f64) -> String {
    if f.is_finite() && f > 0.0 { format!("{f}") } else { "0".into() }
}

/// An event name the language reads (`NAME(.NAME)*`): other characters
/// become `_`, a segment that would start with a digit (or be empty) gets
/// a `_` before it; renames are noted.
fn event_name(name: &str, lost: &mut Vec<String>) -> String {
    let q: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') { c } else { '_' })
        .collect();
    // Each segment starts with a letter, `_` or `-`.
    let q = q
        .split('.')
        .map(|p| {
            if p.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '-') {
                p.to_string()
            } else {
                format!("_{p}")
            }
        })
        .collect::<Vec<_>>()
        .join(".");
    if q != name {
        lost.push(format!("event \"{name}\" is called \"{q}\" (event names are NAME(.NAME)*)"));
    }
    q
}

/// Sample times (seconds): frames, key times and a hair before them
/// (long animations sampled sparser, noted in `lost`).
fn sample_times(anim: &Animation, sk: &Skeleton, fps: f64, lost: &mut Vec<String>) -> Vec<f64> {
    let dur = anim.duration_secs;
    let mut times: Vec<f64> = Vec::new();
    let frames = (dur * fps).floor() as usize;
    let stride = frames / MAX_SAMPLES + 1;
    times.extend((0..=frames).step_by(stride).map(|f| f as f64 / fps));
    let mut key_times = anim.key_times(sk, None);
    key_times.extend(anim.time_warp.iter().map(|k| k.time_secs));
    for t in key_times.into_iter().filter(|t| *t >= 0.0 && *t <= dur) {
        times.push(t);
        times.push((t - EPS_FRAMES / fps).max(0.0));
    }
    times.push(dur);
    times.sort_by(f64::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() < 1e-12);
    if stride > 1 {
        lost.push(format!("animation \"{}\" is long: sampled every {stride} frames", anim.name));
    }
    times
}

/// An animation's poses at its sample times, as script values.
struct Samples {
    /// Per bone: (frame, x, y, rot°, sx, sy) locals.
    bones: Vec<Vec<[f64; 6]>>,
    /// Per slot: (frame, alpha).
    slot_alpha: Vec<Vec<(f64, f64)>>,
    /// Per slot: (frame, attachment shown).
    slot_att: Vec<Vec<(f64, Option<String>)>>,
    /// Whether the draw order changes between samples.
    order_changes: bool,
}

impl Samples {
    /// Plays animation `id` at every time of `times`.
    fn take(arm: &Armature, id: AnimId, times: &[f64], fps: f64) -> Samples {
        let sk = &*arm.skeleton;
        let nb = sk.bones.len();
        let mut bone_samples: Vec<Vec<[f64; 6]>> = vec![Vec::with_capacity(times.len()); nb];
        let mut slot_alpha: Vec<Vec<(f64, f64)>> = vec![Vec::new(); sk.slots.len()];
        let mut slot_att: Vec<Vec<(f64, Option<String>)>> = vec![Vec::new(); sk.slots.len()];
        let mut prev_world: Vec<Option<(f64, f64, f64)>> = vec![None; nb];
        let mut order_changes = false;
        let mut last_order: Option<Vec<usize>> = None;
        for &t in times {
            let frame = t * fps;
            let pose = evaluate(arm, Some(id), SkinId(0), t);
            let mut world = Vec::with_capacity(nb);
            for (prev, bp) in prev_world.iter_mut().zip(&pose.bones) {
                let w = split(&bp.world, prev.map(|p| p.0));
                *prev = Some(w);
                world.push(w);
            }
            for (i, bone) in sk.bones.iter().enumerate() {
                let m = pose.bones[i].world;
                let (th, sx, sy) = world[i];
                let (x, y, r, i_, j_) = match bone.parent {
                    None => (m.translation().x, m.translation().y, th, sx, sy),
                    Some(p) => {
                        let (pth, psx, psy) = world[p.index()];
                        let inv = pose.bones[p.index()].world.inverse().unwrap_or(Affine::IDENTITY);
                        let (lx, ly) = inv.apply(m.translation().x, m.translation().y);
                        let div = |a: f64, b: f64| if b.abs() < 1e-12 { 0.0 } else { a / b };
                        (lx, ly, th - pth, div(sx, psx), div(sy, psy))
                    }
                };
                bone_samples[i].push([frame, x, y, r, i_, j_]);
            }
            let order: Vec<usize> = pose.draw_order.iter().map(|s| s.index()).collect();
            for (si, sp) in pose.slots.iter().enumerate() {
                slot_alpha[si].push((frame, sp.color.a));
                let shown = order
                    .contains(&si)
                    .then(|| sp.attachment.map(|a| sk.attachments[a.index()].name.clone()))
                    .flatten();
                slot_att[si].push((frame, shown));
            }
            if let Some(prev) = &last_order {
                let common = |a: &[usize], b: &[usize]| {
                    a.iter().filter(|x| b.contains(x)).copied().collect::<Vec<_>>()
                };
                if common(prev, &order) != common(&order, prev) {
                    order_changes = true;
                }
            }
            last_order = Some(order);
        }
        Samples { bones: bone_samples, slot_alpha, slot_att, order_changes }
    }

    /// Each bone's compressed x, y, r, i, j key lines.
    fn write_bones(&self, s: &mut String, sk: &Skeleton, anim: &Animation, fps: f64) {
        for (i, bone) in sk.bones.iter().enumerate() {
            let mut body = String::new();
            for (k, (prop, property, rest, tol, span)) in [
                ("x", BoneProperty::X, 0.0, 1e-4, f64::INFINITY),
                ("y", BoneProperty::Y, 0.0, 1e-4, f64::INFINITY),
                ("r", BoneProperty::Rotation, 0.0, 1e-5, 170.0),
                ("i", BoneProperty::ScaleX, 1.0, 1e-6, f64::INFINITY),
                ("j", BoneProperty::ScaleY, 1.0, 1e-6, f64::INFINITY),
            ]
            .into_iter()
            .enumerate()
            {
                let samples: Vec<(f64, f64)> =
                    self.bones[i].iter().map(|v| (v[0], v[k + 1])).collect();
                let spans = bone_spans(anim, BoneId::from_index(i), property, fps);
                let keys =
                    keys_with_curves(&samples, &spans, tol, span, &|p| compress(p, tol, span));
                // The first bone's x always runs to the end, so the animation is as long as Spriter's.
                timeline(&mut body, prop, &keys, rest, i == 0 && k == 0);
            }
            if !body.is_empty() {
                let _ = writeln!(s, "\tskeleton.{}", bone.name);
                s.push_str(&body);
            }
        }
    }

    /// Each slot's compressed alpha line and its attachment switches.
    fn write_slots(&self, s: &mut String, sk: &Skeleton) {
        for (si, slot) in sk.slots.iter().enumerate() {
            let mut body = String::new();
            let alpha: Vec<EasedKey> = compress(&self.slot_alpha[si], 1e-6, f64::INFINITY)
                .into_iter()
                .map(|(f, v)| (f, v, None))
                .collect();
            timeline(&mut body, "a", &alpha, 1.0, false);
            // Attachment switches (stepped): only where the shown one changes.
            let mut line = String::new();
            let mut last: Option<&Option<String>> = None;
            for (f, shown) in &self.slot_att[si] {
                if last != Some(shown) {
                    let _ =
                        write!(line, " {}:> {}", num(*f), shown.as_deref().unwrap_or("hidden_"));
                    last = Some(shown);
                }
            }
            if !line.is_empty() {
                let _ = writeln!(body, "\t\t@{line}");
            }
            if !body.is_empty() {
                let _ = writeln!(s, "\t@skeleton.{}", slot.name);
                s.push_str(&body);
            }
        }
    }
}
