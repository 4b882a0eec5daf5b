//! Transitions and additive layers (LANGUAGE-EXT.md, "Transitions and
//! layers"): an `anim` section of `"ANIM" [loops N]` lines is a sequence
//! that plays those animations one after another, each crossfading into
//! the next over the `mix` time of the pair; `add "LAYER" [WEIGHT]` on a
//! header adds another animation's motion on top. Both are baked into
//! ordinary animations (`bake`), after the timing modifiers, so that the
//! canvas, `pose`, `render`, `expect` and every export play them as any
//! other animation.
//!
//! The rule (checked against Godot 3's `AnimationPlayer` in
//! `tests/suite/godot_blend.rs`): part i+1 starts `m` seconds before part i
//! ends, and over those `m` seconds the pose goes from part i's to part
//! i+1's at weight (t − start) / m: every bone's local position and scale
//! and every slot color linearly, rotations the shorter way round; flips,
//! attachments and the draw order switch at weight ½. Both parts keep
//! playing their own time during the crossfade.

mod bake;
mod resolve;

pub use bake::{MAX_BAKED_FRAMES, added, crossfade};
pub(super) use resolve::apply;
pub use resolve::{Mixes, mixes};

use crate::model::sample::Locals;
use crate::model::{Animation, Event, Skeleton};
use bake::{ChannelSet, bake, key_times};

/// One part of a sequence: an animation and how many times it plays.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    /// The animation played.
    pub anim: &'a Animation,
    /// How many times in a row (at least 1).
    pub loops: u32,
}

/// Where the parts of a sequence fall, in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct Timing {
    /// When each part starts.
    pub starts: Vec<f64>,
    /// How long each part plays (its loops × its duration).
    pub lengths: Vec<f64>,
    /// The crossfade from part i into part i+1 (after clamping).
    pub mixes: Vec<f64>,
    /// The parts whose crossfade into the next was shortened to fit
    /// (the index of the part faded out).
    pub clamped: Vec<usize>,
    /// The sequence's length.
    pub total: f64,
}

impl Timing {
    /// The parts' timing for crossfades `mixes` (`mixes[i]`: from part i
    /// into part i+1): each is shortened to fit in both parts, after the
    /// crossfade into part i.
    pub fn new(parts: &[Part<'_>], mixes: &[f64]) -> Timing {
        let lengths: Vec<f64> = parts
            .iter()
            .map(|p| f64::from(p.loops.max(1)) * p.anim.duration_secs.max(0.0))
            .collect();
        let mut t = Timing {
            starts: Vec::new(),
            lengths,
            mixes: Vec::new(),
            clamped: Vec::new(),
            total: 0.0,
        };
        let mut start = 0.0;
        let mut into = 0.0;
        for i in 0..parts.len() {
            t.starts.push(start);
            let Some(&next) = t.lengths.get(i + 1) else {
                t.total = start + t.lengths[i];
                break;
            };
            let want = mixes.get(i).copied().unwrap_or(0.0).max(0.0);
            let m = want.min((t.lengths[i] - into).max(0.0)).min(next);
            if m < want {
                t.clamped.push(i);
            }
            t.mixes.push(m);
            start += t.lengths[i] - m;
            into = m;
        }
        t
    }

    /// The part playing at `t` (the later one during a crossfade) and the
    /// weight of that part (1 outside crossfades).
    pub fn at(&self, t: f64) -> (usize, f64) {
        let j = self.starts.partition_point(|s| *s <= t).saturating_sub(1);
        let into = if j > 0 { self.mixes[j - 1] } else { 0.0 };
        let u = t - self.starts.get(j).copied().unwrap_or(0.0);
        if into > 0.0 && u < into { (j, (u / into).max(0.0)) } else { (j, 1.0) }
    }
}

/// The time of `part`'s own animation `u` seconds after the part started:
/// looping while the part plays, its last pose at (and after) its end.
fn part_time(part: &Part<'_>, u: f64) -> f64 {
    let d = part.anim.duration_secs;
    if d <= 0.0 {
        0.0
    } else if u >= f64::from(part.loops.max(1)) * d {
        d
    } else {
        u.max(0.0).rem_euclid(d)
    }
}

/// The pose of a sequence at `t`.
pub fn sequence_locals(sk: &Skeleton, parts: &[Part<'_>], timing: &Timing, t: f64) -> Locals {
    let (j, w) = timing.at(t);
    let Some(p) = parts.get(j) else { return Locals::setup(sk) };
    let now = p.anim.locals_at(sk, part_time(p, t - timing.starts[j]));
    if w >= 1.0 || j == 0 {
        return now;
    }
    let before = &parts[j - 1];
    let was = before.anim.locals_at(sk, part_time(before, t - timing.starts[j - 1]));
    crossfade(&was, &now, w)
}

/// The sequence of `parts` as an ordinary animation named `name` at `fps`
/// (see the module's rule), with its timing; `Err` with the number of
/// frames when it would last more than [`MAX_BAKED_FRAMES`].
pub fn sequence(
    sk: &Skeleton,
    name: &str,
    fps: f64,
    parts: &[Part<'_>],
    mixes: &[f64],
) -> Result<(Animation, Timing), f64> {
    let timing = Timing::new(parts, mixes);
    let fps = crate::model::clean_fps(fps);
    let times = key_times(timing.total, fps)?;
    let mut set = ChannelSet::default();
    for p in parts {
        set.add(p.anim, true);
    }
    let mut a = bake(sk, name, fps, &set, &times, |t| sequence_locals(sk, parts, &timing, t));
    for (j, p) in parts.iter().enumerate() {
        let d = p.anim.duration_secs.max(0.0);
        for k in 0..p.loops.max(1) {
            let at = timing.starts[j] + f64::from(k) * d;
            a.events.extend(p.anim.events.iter().filter_map(|e| shifted(e, at, timing.total, fps)));
        }
    }
    a.events.sort_by(|x, y| x.time_secs.total_cmp(&y.time_secs));
    Ok((a, timing))
}

/// `e` fired `at` seconds later, if that is within `total`.
fn shifted(e: &Event, at: f64, total: f64, fps: f64) -> Option<Event> {
    let t = at + e.time_secs;
    (t <= total + 1e-9).then(|| Event { time_secs: t, frame: t * fps, ..e.clone() })
}

/// `base` with `layers` added (each an animation and its weight), as an
/// ordinary animation: as long as `base` (or, when `base` has no length,
/// its longest layer), each layer looping under it; the layers' events
/// fire as they loop. `Err` with the number of frames when it would last
/// more than [`MAX_BAKED_FRAMES`].
pub fn layered(
    sk: &Skeleton,
    base: &Animation,
    layers: &[(&Animation, f64)],
) -> Result<Animation, f64> {
    let length = if base.duration_secs > 0.0 {
        base.duration_secs
    } else {
        layers.iter().map(|l| l.0.duration_secs).fold(0.0, f64::max)
    };
    let times = key_times(length, base.fps)?;
    let mut set = ChannelSet::default();
    set.add(base, true);
    for (l, _) in layers {
        set.add(l, false);
    }
    let looped = |l: &Animation, t: f64| {
        if l.duration_secs > 0.0 && t < length {
            t.rem_euclid(l.duration_secs)
        } else {
            t.min(l.duration_secs.max(0.0))
        }
    };
    let mut a = bake(sk, &base.name, base.fps, &set, &times, |t| {
        let mut pose = base.locals_at(sk, t.min(base.duration_secs.max(0.0)));
        for (l, w) in layers {
            pose = added(sk, &pose, &l.locals_at(sk, looped(l, t)), *w);
        }
        pose
    });
    a.events.clone_from(&base.events);
    for (l, _) in layers {
        let d = l.duration_secs;
        // Every loop of the layer under the base (at most one per frame).
        let loops =
            if d > 0.0 { ((length / d).floor() + 1.0).min(times.len() as f64) } else { 1.0 };
        for k in 0..loops as u32 {
            let at = f64::from(k) * d.max(0.0);
            a.events.extend(l.events.iter().filter_map(|e| shifted(e, at, length, base.fps)));
        }
    }
    a.events.sort_by(|x, y| x.time_secs.total_cmp(&y.time_secs));
    a.duration_secs = length;
    Ok(a)
}
