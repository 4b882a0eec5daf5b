//! `spring HZ DAMPING` and `spring-chain HZ DAMPING` on bone items
//! (LANGUAGE-EXT.md, "Springs"): each sprung bone trails its parent's
//! turning as a damped spring ([`crate::model::spring`]), simulated here at
//! the animation's frames over its settled loop and baked into the bone's
//! rotation timeline, one key per frame. Everything that plays the
//! animation (the runtime, `skelpad pose`, every export, the editor) plays
//! those keys: nothing is simulated at play time.
//!
//! Bones are simulated parents first, one generation at a time (a
//! generation's parents already carry their own springs). The parent's
//! rotation is read from the keys as the runtime adds them up (the
//! compiler sits below the runtime, so it samples the channels itself with
//! the same `model::sample::sample`). A bone's `delay` is honoured: its baked
//! keys are the lag the bone should show at the time the delayed keys are
//! played.

use super::modifiers::Sections;
use super::names::resolve_or_explain;
use super::rig::RigNames;
use crate::model::sample::sample as value_at;
use crate::model::spring::{Spring, unwrapped};
use crate::model::{
    Animation, BoneChannel, BoneId, BoneProperty, Curve, Key, Skeleton, ValueMode, normalize_angle,
};
use crate::syntax::Diagnostic;
use crate::syntax::Span;
use crate::syntax::tree::SpringSpec;

/// The most frames a sprung animation may have (one key per frame and bone).
pub const MAX_SPRING_FRAMES: usize = 100_000;
/// The most bone rotations read for one animation's springs (frames times
/// generations of sprung bones times bones).
pub const MAX_SPRING_READS: usize = 50_000_000;
/// The most generations looked up from a bone for a `spring-chain`.
const MAX_DEPTH: usize = 10_000;

/// The spring each bone has (its own `spring`, else the nearest
/// `spring-chain` above it), with where it was written.
type Assigned = Vec<Option<(SpringSpec, Span)>>;

/// Bakes the springs of `secs`' bone items into `anim`.
pub(super) fn apply(
    secs: &Sections<'_>,
    rig: &RigNames,
    sk: &Skeleton,
    anim: &mut Animation,
    diags: &mut Vec<Diagnostic>,
) {
    let assigned = assign(secs, rig, sk, diags);
    let Some(first) = assigned.iter().flatten().map(|(_, at)| *at).next() else { return };
    let fps = anim.fps;
    for (spec, at) in assigned.iter().flatten() {
        if spec.hz > fps / 2.0 {
            diags.push(
                Diagnostic::warning(
                    *at,
                    format!(
                        "this spring rings {} times a second, faster than {fps} frames a second can show: its wobble is sampled unevenly",
                        spec.hz
                    ),
                )
                .hint(format!("at {fps} fps a spring shows well up to about {} Hz", fps / 4.0)),
            );
        }
    }
    let times = sample_times(anim);
    if times.len() < 2 {
        return;
    }
    let depth = depths(sk);
    let mut gens: Vec<usize> =
        assigned.iter().enumerate().filter(|(_, a)| a.is_some()).map(|(j, _)| depth[j]).collect();
    gens.sort_unstable();
    gens.dedup();
    let reads = times.len().saturating_mul(gens.len()).saturating_mul(sk.bones.len());
    if times.len() > MAX_SPRING_FRAMES || reads > MAX_SPRING_READS {
        diags.push(Diagnostic::error(
            first,
            format!(
                "springs are simulated over at most {MAX_SPRING_FRAMES} frames and {MAX_SPRING_READS} bone rotations; this animation needs {} frames, {} generations of sprung bones and {} bones",
                times.len(),
                gens.len(),
                sk.bones.len()
            ),
        ).hint("the springs of this animation are left out"));
        return;
    }
    for g in gens {
        let bones: Vec<(BoneId, BoneId, Spring)> = assigned
            .iter()
            .enumerate()
            .filter(|(j, _)| depth[*j] == g)
            .filter_map(|(j, a)| {
                let (spec, _) = a.as_ref()?;
                let parent = sk.bones[j].parent?;
                Some((BoneId::from_index(j), parent, Spring::from_hz(spec.hz, spec.damping)))
            })
            .collect();
        // The parents' accumulated rotation at every sample.
        let mut drives: Vec<Vec<f64>> = vec![Vec::with_capacity(times.len()); bones.len()];
        for &t in &times {
            let acc = accumulated_rotations(sk, anim, t);
            for ((_, p, _), d) in bones.iter().zip(&mut drives) {
                d.push(acc.get(p.index()).copied().unwrap_or(0.0));
            }
        }
        for ((b, _, spring), d) in bones.iter().zip(&drives) {
            let lags = spring.settled(&times, &unwrapped(d));
            // A parent that does not turn moves nothing: the keys stay.
            if lags.iter().all(|l| l.abs() < 1e-12) {
                continue;
            }
            bake(anim, sk, *b, &times, &lags);
        }
    }
}

/// Every bone's accumulated rotation at `t` (LANGUAGE.md §6): its local
/// rotation (the setup's, or its rotation timeline's at its delayed time)
/// plus its parent's when it turns with its parent — what the runtime's
/// world update adds up, before IK (which turns bones after the keys and is
/// not seen by springs).
fn accumulated_rotations(sk: &Skeleton, anim: &Animation, t: f64) -> Vec<f64> {
    let d = anim.duration_secs;
    let mut local: Vec<f64> = sk.bones.iter().map(|b| b.setup.rotation_rad).collect();
    for ch in anim.bones.iter().filter(|c| c.property == BoneProperty::Rotation) {
        let Some(setup) = sk.bones.get(ch.bone.index()).map(|b| b.setup.rotation_rad) else {
            continue;
        };
        let delay = anim.bone_delays.iter().find(|x| x.0 == ch.bone).map_or(0.0, |x| x.1);
        let at = if delay > 0.0 && d > 0.0 { (t - delay).rem_euclid(d) } else { t };
        if let Some(v) = value_at(&ch.keys, at, Some(anim.angle_interpolation)) {
            local[ch.bone.index()] =
                if ch.mode == ValueMode::RelativeToSetup { setup + v } else { v };
        }
    }
    let mut acc = local.clone();
    for (j, b) in sk.bones.iter().enumerate() {
        if let Some(p) = b.parent.map(BoneId::index).filter(|&p| p < j)
            && b.inherit_rotation
        {
            acc[j] += acc[p];
        }
    }
    acc
}

/// Each bone's spring: its own `spring`, else that of the nearest bone
/// above it with `spring-chain` (the last one written wins on one bone).
/// Warnings for springs that turn nothing.
fn assign(
    secs: &Sections<'_>,
    rig: &RigNames,
    sk: &Skeleton,
    diags: &mut Vec<Diagnostic>,
) -> Assigned {
    let n = sk.bones.len();
    let (mut own, mut below): (Assigned, Assigned) = (vec![None; n], vec![None; n]);
    for (at, s) in secs {
        for item in s.items.iter().filter(|i| !i.is_slot && !i.is_event) {
            if item.spring.is_none() && item.spring_chain.is_none() {
                continue;
            }
            // (An unknown bone is reported by the animation's compile.)
            let Ok(b) = resolve_or_explain(&rig.bone_names, "bone", &item.target, "") else {
                continue;
            };
            let bone = &sk.bones[b.index()];
            let name = &item.target.node;
            if let Some(sp) = &item.spring {
                let span = sp.span.shifted(*at);
                own[b.index()] = Some((sp.node, span));
                if bone.parent.is_none() {
                    diags.push(
                        Diagnostic::warning(
                            span,
                            format!(
                                "bone `{name}` has no parent: its spring has nothing to follow"
                            ),
                        )
                        .hint("`spring-chain` on it makes the bones below it trail it"),
                    );
                } else if !bone.inherit_rotation {
                    diags.push(Diagnostic::warning(
                        span,
                        format!("bone `{name}` does not turn with its parent: its spring has nothing to follow"),
                    ));
                }
            }
            if let Some(sp) = &item.spring_chain {
                let span = sp.span.shifted(*at);
                below[b.index()] = Some((sp.node, span));
                if !sk.bones.iter().any(|x| x.parent == Some(b)) {
                    diags.push(Diagnostic::warning(
                        span,
                        format!(
                            "bone `{name}` has no bones below it: `spring-chain` turns nothing"
                        ),
                    ));
                }
            }
        }
    }
    (0..n)
        .map(|j| {
            own[j].or_else(|| {
                let mut p = sk.bones[j].parent;
                for _ in 0..MAX_DEPTH {
                    let q = p?;
                    if let Some(s) = below.get(q.index()).copied().flatten() {
                        return Some(s);
                    }
                    p = sk.bones.get(q.index())?.parent;
                }
                None
            })
        })
        .enumerate()
        .map(|(j, a)| a.filter(|_| sk.bones[j].parent.is_some() && sk.bones[j].inherit_rotation))
        .collect()
}

/// Each bone's number of parents (parents come before their children;
/// a parent listed after its child counts as none).
fn depths(sk: &Skeleton) -> Vec<usize> {
    let mut d = vec![0; sk.bones.len()];
    for (j, b) in sk.bones.iter().enumerate() {
        if let Some(p) = b.parent.map(BoneId::index).filter(|&p| p < j) {
            d[j] = (d[p] + 1).min(MAX_DEPTH);
        }
    }
    d
}

/// The times of the animation's frames, from 0 to its end (which ends the
/// list even when it falls between two frames).
pub fn sample_times(anim: &Animation) -> Vec<f64> {
    let (d, fps) = (anim.duration_secs, anim.fps);
    if !(d > 0.0 && d.is_finite()) {
        return Vec::new();
    }
    let whole = (d * fps + 1e-9).floor();
    // (Past the bound the caller reports the animation as too long.)
    let n =
        if whole > (MAX_SPRING_FRAMES + 1) as f64 { MAX_SPRING_FRAMES + 1 } else { whole as usize };
    let mut t: Vec<f64> = (0..=n).map(|i| i as f64 / fps).collect();
    match t.last_mut() {
        Some(last) if d - *last <= 1e-9 => *last = d,
        _ => t.push(d),
    }
    t
}

/// The lag of bone `b` (`lags` at `times`, one loop) added to its rotation
/// timeline, one linear key per sample. With a delay the bone's keys are
/// played late, so the key at `τ` carries the lag at `τ + delay`.
fn bake(anim: &mut Animation, sk: &Skeleton, b: BoneId, times: &[f64], lags: &[f64]) {
    let d = anim.duration_secs;
    let delay = anim.bone_delays.iter().find(|x| x.0 == b).map_or(0.0, |x| x.1);
    let interp = anim.angle_interpolation;
    let idx = anim.bones.iter().position(|c| c.bone == b && c.property == BoneProperty::Rotation);
    let own = idx.map(|i| anim.bones[i].clone());
    let keys: Vec<Key<f64>> = times
        .iter()
        .zip(lags)
        .map(|(&t, &lag)| {
            let base = own.as_ref().map_or(0.0, |c| {
                // (Before its first key the bone holds its setup.)
                let setup = match c.mode {
                    ValueMode::Absolute => {
                        sk.bones.get(b.index()).map_or(0.0, |x| x.setup.rotation_rad)
                    }
                    ValueMode::RelativeToSetup => 0.0,
                };
                value_at(&c.keys, t, Some(interp)).unwrap_or(setup)
            });
            let lag =
                if delay > 0.0 { lag_at(times, lags, (t + delay).rem_euclid(d)) } else { lag };
            Key { time_secs: t, value: normalize_angle(base + lag), curve: Curve::LINEAR }
        })
        .collect();
    match idx {
        Some(i) => anim.bones[i].keys = keys,
        None => anim.bones.push(BoneChannel {
            bone: b,
            property: BoneProperty::Rotation,
            mode: ValueMode::RelativeToSetup,
            keys,
        }),
    }
}

/// The lag at `t` in `[0, duration]`: linear between the samples.
fn lag_at(times: &[f64], lags: &[f64], t: f64) -> f64 {
    let i = times.partition_point(|&x| x <= t).clamp(1, times.len() - 1);
    let (t0, t1) = (times[i - 1], times[i]);
    let f = if t1 > t0 { ((t - t0) / (t1 - t0)).clamp(0.0, 1.0) } else { 0.0 };
    lags[i - 1] + (lags[i] - lags[i - 1]) * f
}
