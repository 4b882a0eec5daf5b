//! Motion lints (`skelpad check --lint`, LANGUAGE-EXT.md "Motion lints"):
//! warnings about animations that play but probably not as meant, each on
//! a place in the text and each with a stated threshold. They need poses,
//! so they live here, above the compiler; nothing runs them unless asked.
//!
//! Each animation is sampled frame by frame (at most `MAX_LINT_FRAMES`,
//! 10 000 frames): seams and jolts where a loop wraps, pops, timelines that
//! change nothing, attachments never shown, very long animations. The editor
//! shows them under View ▸ Motion lints.

use crate::compile::{Compilation, Target};
use crate::model::{AnimId, Animation, SkinId};
use crate::runtime::{Pose, evaluate};
use crate::syntax::Diagnostic;
use crate::syntax::tree::TimelineProp;

/// A bone whose origin is this many units away (or whose rotation is this
/// many degrees off) at the loop's end from where it is at frame 0 makes a
/// visible seam.
pub const SEAM_UNITS: f64 = 0.5;
/// [`SEAM_UNITS`] for rotations, in degrees.
pub const SEAM_DEGREES: f64 = 1.0;
/// A bone whose speed over the last frame differs from its speed over the
/// first by more than this many units (degrees) per frame: a jolt at the seam.
pub const SEAM_SPEED: f64 = 2.0;
/// ... and by more than this many times the sharpest change of speed
/// between two frames inside the loop (a turn the animation makes anyway).
pub const SEAM_SPEED_FACTOR: f64 = 1.5;
/// A bone that moves more than this many units in one frame pops.
pub const POP_UNITS: f64 = 40.0;
/// A bone that turns more than this many degrees in one frame pops.
pub const POP_DEGREES: f64 = 60.0;
/// Animations longer than this many frames are reported.
pub const LONG_FRAMES: f64 = 1200.0;
/// The most frames the frame-by-frame lints look at in one animation.
const MAX_LINT_FRAMES: usize = 10_000;

/// Adds the lint warnings of `comp` to its diagnostics (kept sorted by
/// position).
pub fn lint(comp: &mut Compilation) {
    let mut out = Vec::new();
    for (i, a) in comp.armature.animations.iter().enumerate() {
        let Some(&header) = comp.sources.animations.get(i) else { continue };
        animation_lints(comp, AnimId::from_index(i), a, header, &mut out);
    }
    still_timelines(comp, &mut out);
    unseen_attachments(comp, &mut out);
    if !out.is_empty() {
        comp.diagnostics.extend(out);
        comp.diagnostics
            .sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.severity.cmp(&b.severity)));
    }
}

/// Every bone's world origin and rotation (degrees).
fn frame(p: &Pose) -> Vec<(f64, f64, f64)> {
    p.bones
        .iter()
        .map(|b| {
            let (x, y) = b.world.apply(0.0, 0.0);
            let (ax, ay) = b.world.apply_vector(1.0, 0.0);
            (x, y, ay.atan2(ax).to_degrees())
        })
        .collect()
}

/// Degrees from `a` to `b`, the shorter way round.
fn turn(a: f64, b: f64) -> f64 {
    (b - a + 180.0).rem_euclid(360.0) - 180.0
}

/// Seams, pops and length of one animation.
fn animation_lints(
    comp: &Compilation,
    id: AnimId,
    a: &Animation,
    header: crate::syntax::Span,
    out: &mut Vec<Diagnostic>,
) {
    let arm = &comp.armature;
    let names: Vec<&str> = arm.skeleton.bones.iter().map(|b| b.name.as_str()).collect();
    let frames = a.duration_secs * a.fps;
    if frames > LONG_FRAMES {
        out.push(Diagnostic::warning(
            header,
            format!(
                "animation \"{}\" is {} frames long (over {LONG_FRAMES}: lint threshold)",
                a.name,
                frames.round()
            ),
        ));
    }
    if a.duration_secs <= 0.0 || names.is_empty() {
        return;
    }
    let at = |t: f64| frame(&evaluate(arm, Some(id), SkinId(0), t));
    let step = 1.0 / a.fps;
    // Every frame (at most MAX_LINT_FRAMES), the last one at the end.
    let n = (frames.ceil() as usize).clamp(1, MAX_LINT_FRAMES);
    let poses: Vec<Vec<(f64, f64, f64)>> =
        (0..=n).map(|f| at((f as f64 * step).min(a.duration_secs))).collect();
    let fr = Frames { poses, names, n };
    if a.looping != Some(false) {
        seam_lints(a, header, &fr, out);
    }
    pop_lint(a, header, &fr, out);
}

/// An animation's pose at every frame (`n + 1` of them, the last one at its
/// end) as the lints read it: per bone its world position and angle.
struct Frames<'a> {
    poses: Vec<Vec<(f64, f64, f64)>>,
    names: Vec<&'a str>,
    n: usize,
}

impl Frames<'_> {
    /// Bone `i`'s motion over the frame before frame `f`.
    fn motion(&self, f: usize, i: usize) -> (f64, f64, f64) {
        let (p, c) = (self.poses[f - 1][i], self.poses[f][i]);
        (c.0 - p.0, c.1 - p.1, turn(p.2, c.2))
    }

    /// The largest change of speed from one frame to the next inside the
    /// loop: how sharply the animation itself turns.
    fn sharpest_turn(&self) -> f64 {
        let mut inner = 0.0f64;
        for f in 2..=self.n {
            for i in 0..self.names.len() {
                let (a0, a1) = (self.motion(f - 1, i), self.motion(f, i));
                inner = inner.max((a1.0 - a0.0).hypot(a1.1 - a0.1)).max((a1.2 - a0.2).abs());
            }
        }
        inner
    }
}

/// A looping animation that ends away from where it starts (a seam), or
/// changes speed sharply across the loop (a jolt).
fn seam_lints(
    a: &Animation,
    header: crate::syntax::Span,
    fr: &Frames<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let (n, names, bones) = (fr.n, &fr.names, fr.names.len());
    let (start, end) = (&fr.poses[0], &fr.poses[n]);
    let motion = |f: usize, i: usize| fr.motion(f, i);
    let worst = start
        .iter()
        .zip(end)
        .enumerate()
        .map(|(i, (s, e))| (i, (e.0 - s.0).hypot(e.1 - s.1), turn(s.2, e.2).abs()))
        .find(|(_, d, r)| *d > SEAM_UNITS || *r > SEAM_DEGREES);
    if let Some((i, d, r)) = worst {
        out.push(
            Diagnostic::warning(
                header,
                format!(
                    "animation \"{}\" loops with a seam: bone `{}` ends {:.2} units and {:.1}° away from where it starts",
                    a.name, names[i], d, r
                ),
            )
            .hint(format!("lint threshold: {SEAM_UNITS} units or {SEAM_DEGREES}°; the `cycle` header word closes every timeline")),
        );
    } else if n >= 2 {
        // The change of speed across the seam (the last frame's motion
        // then the first one's), against the sharpest turn inside.
        let inner = fr.sharpest_turn();
        let limit = SEAM_SPEED.max(SEAM_SPEED_FACTOR * inner);
        let jolt = (0..bones).find_map(|i| {
            let (v1, v0) = (motion(n, i), motion(1, i));
            let dv = (v0.0 - v1.0).hypot(v0.1 - v1.1);
            let dr = (v0.2 - v1.2).abs();
            (dv > limit || dr > limit).then_some((i, dv, dr))
        });
        if let Some((i, dv, dr)) = jolt {
            out.push(
                Diagnostic::warning(
                    header,
                    format!(
                        "animation \"{}\" loops with a jolt: bone `{}` changes speed by {:.2} units ({:.1}°) per frame at the seam",
                        a.name, names[i], dv, dr
                    ),
                )
                .hint(format!("lint threshold: {SEAM_SPEED} units (degrees) per frame, and {SEAM_SPEED_FACTOR}× the sharpest change of speed inside the loop ({inner:.2})")),
            );
        }
    }
}

/// The first frame in which a bone moves or turns too far (a pop).
fn pop_lint(
    a: &Animation,
    header: crate::syntax::Span,
    fr: &Frames<'_>,
    out: &mut Vec<Diagnostic>,
) {
    let (n, names, bones) = (fr.n, &fr.names, fr.names.len());
    let motion = |f: usize, i: usize| fr.motion(f, i);
    for f in 1..=n {
        let pop = (0..bones).find_map(|i| {
            let m = motion(f, i);
            let d = m.0.hypot(m.1);
            (d > POP_UNITS || m.2.abs() > POP_DEGREES).then_some((i, d, m.2.abs()))
        });
        if let Some((i, d, r)) = pop {
            out.push(
                Diagnostic::warning(
                    header,
                    format!(
                        "animation \"{}\" pops at frame {f}: bone `{}` moves {:.1} units and turns {:.1}° in one frame",
                        a.name, names[i], d, r
                    ),
                )
                .hint(format!("lint threshold: {POP_UNITS} units or {POP_DEGREES}° in one frame")),
            );
            break;
        }
    }
}

/// Timelines whose keys all hold the setup value (offset 0, scale 1):
/// they change nothing.
fn still_timelines(comp: &Compilation, out: &mut Vec<Diagnostic>) {
    let src = &comp.sources;
    for t in src.timelines.iter().filter(|t| t.effective) {
        let rest = match (t.prop, t.target) {
            (TimelineProp::X | TimelineProp::Y | TimelineProp::Rotation, Some(Target::Bone(_))) => {
                0.0
            }
            (TimelineProp::ScaleX | TimelineProp::ScaleY, Some(Target::Bone(_))) => 1.0,
            _ => continue,
        };
        let keys = src.keys_of(t);
        if !keys.is_empty() && keys.iter().all(|k| k.value.is_some_and(|v| (v - rest).abs() < 1e-9))
        {
            out.push(
                Diagnostic::warning(
                    t.line,
                    "this timeline's keys all hold the setup value: it changes nothing",
                )
                .hint("lint: delete it, or give it the values it should move through"),
            );
        }
    }
}

/// Attachments no skin shows in the setup pose and no animation switches to.
fn unseen_attachments(comp: &Compilation, out: &mut Vec<Diagnostic>) {
    let sk = &comp.armature.skeleton;
    let mut seen = vec![false; sk.attachments.len()];
    for s in sk.slots.iter() {
        if let Some(a) = s.attachment
            && let Some(x) = seen.get_mut(a.index())
        {
            *x = true;
        }
    }
    for a in &comp.armature.animations {
        for k in a.attachments.iter().flat_map(|c| &c.keys) {
            if let Some(x) = k.value.and_then(|v| seen.get_mut(v.index())) {
                *x = true;
            }
        }
    }
    for d in comp.sources.slot_defs.iter() {
        let Some(att) = d.attachment else { continue };
        if seen.get(att.index()) == Some(&false) {
            out.push(
                Diagnostic::warning(
                    d.line,
                    format!(
                        "attachment `{}` is never shown: not its slot's setup attachment, and no animation switches to it",
                        sk.attachment_full_name(att)
                    ),
                )
                .hint("lint: switch to it in an animation (`@ NAME`) or delete it"),
            );
            // One warning per attachment, on its first line.
            seen[att.index()] = true;
        }
    }
}
