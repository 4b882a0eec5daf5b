//! The glTF exports in three.js between frames and at the loop's seam
//! (`tests/suite/gltf.rs` plays them): at every whole frame the full
//! comparison of `gltf::check_frame`; at every half frame, a twentieth of
//! a frame before each animation's end, and — for a looping animation,
//! played with three's `LoopRepeat` — half a frame past its end (the loop
//! started again), each bone's world matrix within 0.01 units plus 0.3 ×
//! its own movement over that frame (the Lottie between-frames rule,
//! `tests/suite/lottie_between.rs`), and the attachments three.js draws,
//! and their order in depth, are skelpad's at that time or those of one of
//! the two frames around it (a switch is whole: never a mix).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use serde_json::Value;
use skelpad::model::{AnimId, Armature, SkinId};
use skelpad::render::RenderCache;
use skelpad::runtime::{Pose, evaluate};

use crate::gltf::{Worst, check_frame, mesh_target};
use crate::godot::SEAM_GAP as GAP;

/// Largest error between frames beyond the bone's share of movement.
const HALF: f64 = 0.01;
/// The share of a bone's own movement over the frame a time between may miss.
const MOVE_SHARE: f64 = 0.3;

/// A time three.js is set to: `secs` on its mixer, `want` on skelpad's
/// timeline (they differ past a looping clip's end), and for a time
/// between frames, the whole frames around it (skelpad's times).
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub secs: f64,
    pub want: f64,
    pub between: Option<(f64, f64)>,
    /// `godot::SEAM_GAP` of a frame before the end.
    pub seam: bool,
}

/// Every whole and half frame of an animation of `duration` at `fps`, a
/// twentieth of a frame before its end, then its end (not looping) or a
/// twentieth and a half of a frame past it (looping: started again).
pub fn clip_times(fps: f64, duration: f64, looping: bool) -> Vec<At> {
    let end = duration.max(0.0);
    let frames = ((end * fps - 1e-9).ceil() as usize).max(1);
    let at = |secs: f64, between| At { secs, want: secs, between, seam: false };
    let mut out = Vec::new();
    for k in 0..frames {
        let t = k as f64 / fps;
        out.push(at(t, None));
        let next = if k + 1 < frames { (k + 1) as f64 / fps } else { end };
        let h = (k as f64 + 0.5) / fps;
        if h < next - 1e-9 {
            out.push(at(h, Some((t, next))));
        }
        if k + 1 == frames && end > t + 1e-9 {
            if end - GAP / fps > t + 1e-9 {
                out.push(At { seam: true, ..at(end - GAP / fps, Some((t, end))) });
            }
            // At a looping clip's end three.js shows its closing key or
            // (LoopRepeat) its start, as the 32-bit time of its last key
            // falls; a twentieth of a frame on it has started again.
            if looping {
                let (secs, want) = (end + GAP / fps, GAP / fps);
                out.push(At { secs, want, between: Some((0.0, 1.0 / fps)), seam: false });
            } else {
                out.push(at(end, None));
            }
        }
    }
    let h = 0.5 / fps;
    if looping && end > 1.0 / fps {
        out.push(At { secs: end + h, want: h, between: Some((0.0, 1.0 / fps)), seam: false });
    }
    if looping && end <= 1.0 / fps + 1e-9 {
        out.retain(|a| a.secs <= end);
    }
    out
}

/// One animation as played.
pub struct Clip<'a> {
    pub arm: &'a Armature,
    pub id: AnimId,
    pub times: &'a [At],
    pub doc: &'a Value,
    pub mesh_nodes: &'a [usize],
}

impl Clip<'_> {
    fn pose(&self, t: f64) -> Pose {
        evaluate(self.arm, Some(self.id), SkinId(0), t)
    }

    /// The meshes skelpad shows at a pose, with their places in the draw
    /// order (none where the slot's bone is squashed flat: a scale of 0).
    fn shown(&self, pose: &Pose) -> Vec<Option<usize>> {
        self.mesh_nodes
            .iter()
            .map(|&n| {
                let (slot, att) = mesh_target(self.arm, &self.doc["nodes"][n]);
                let rank = pose.draw_order.iter().position(|s| s.index() == slot);
                let [a, b, c, d, _, _] =
                    pose.bones[self.arm.skeleton.slots[slot].bone.index()].world.to_array();
                let flat = (a * d - b * c).abs() < 1e-9;
                rank.filter(|_| pose.slots[slot].attachment == Some(att) && !flat)
            })
            .collect()
    }
}

/// Compares every time of a clip (`frames`: play.mjs's, one per time).
pub fn check_clip(
    what: &str,
    clip: &Clip<'_>,
    frames: &[Value],
    cache: &mut RenderCache,
    (worst, misses): (&mut Worst, &mut Vec<String>),
) {
    assert_eq!(frames.len(), clip.times.len(), "{what}: one frame per time");
    for (at, frame) in clip.times.iter().zip(frames) {
        let pose = clip.pose(at.want);
        let Some((t0, t1)) = at.between else {
            let what = format!("{what} at {} s", at.secs);
            check_frame(&what, clip.arm, clip.doc, clip.mesh_nodes, frame, &pose, cache, worst);
            continue;
        };
        let seam = if at.seam { crate::godot::SEAM } else { "" };
        let what = format!("{seam}{what} at {} s (between frames)", at.secs);
        let (p0, p1) = (clip.pose(t0), clip.pose(t1));
        for (b, m) in frame["bones"].as_array().unwrap().iter().enumerate() {
            let m: Vec<f64> = m.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            let got = [m[0], m[1], m[4], m[5], m[12], m[13]];
            let apart = |a: [f64; 6], b: [f64; 6]| {
                a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
            };
            let w = |p: &Pose| p.bones[b].world.to_array();
            let (e, moved) = (apart(got, w(&pose)), apart(w(&p0), w(&p1)));
            let limit = HALF + MOVE_SHARE * moved;
            if e > limit {
                misses.push(format!(
                    "{what}: bone `{}`: three.js {got:?}, skelpad {:?}: off by {e:.4} (allowed {limit:.4}: it moves {moved:.4} over the frame)",
                    clip.arm.skeleton.bones[b].name,
                    w(&pose)
                ));
            }
            if !at.seam {
                worst.half = worst.half.max(e);
                worst.share = worst.share.max(e / limit);
            }
        }
        if let Some(miss) = check_switches(&what, clip, frame, [&pose, &p0, &p1]) {
            misses.push(miss);
        }
    }
}

/// The meshes three.js draws between frames, and their order in depth, are
/// skelpad's at that time or at one of the frames around it.
fn check_switches(what: &str, clip: &Clip<'_>, frame: &Value, poses: [&Pose; 3]) -> Option<String> {
    let drawn: Vec<Option<f64>> = frame["depths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_array().map(|d| d[0].as_f64().unwrap()))
        .collect();
    let fits = |want: &[Option<usize>]| {
        want.iter().zip(&drawn).all(|(w, d)| match (w, d) {
            (Some(rank), Some(z)) => (z - *rank as f64 * 0.01).abs() < 1e-5,
            (None, None) => true,
            _ => false,
        })
    };
    let wants: Vec<Vec<Option<usize>>> = poses.iter().map(|p| clip.shown(p)).collect();
    (!wants.iter().any(|w| fits(w))).then(|| format!(
        "{what}: three.js draws (depths) {drawn:?}; skelpad shows (draw-order places) {:?} then, {:?} at the frame before, {:?} after",
        wants[0],
        wants[1],
        wants[2]
    ))
}
