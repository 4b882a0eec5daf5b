//! Bones whose matrix relative to their parent needs a skew (a parent's
//! uneven scale, inheritance flags): a `Node2D` has position, rotation and
//! scale but no skew (Godot 3; Godot 4's `skew` does not interpolate
//! through every such matrix either), so such a bone's node sits under a
//! helper node `NAME#skew`. Any 2 × 2 matrix is `R(φ) · S(sx, sy) · R(θ)`
//! (its singular value decomposition): the helper carries the position,
//! `φ` and the scale, the bone's node the turn `θ`. All four are keyed at
//! every frame and every half frame, so Godot's straight in-betweens follow
//! the bone between frames as its value tracks do elsewhere.

use std::f64::consts::PI;

use super::Ctx;
use super::rig::{C, relative};
use crate::formats::lottie::frames::{Plan, Samples};
use skelpad_lang::model::Affine;

/// A matrix as a helper node's position, turn `phi` and scale, then the
/// bone node's turn `theta` (radians, Godot's frame).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Svd {
    /// The helper's position.
    pub p: [f64; 2],
    /// The helper's turn.
    pub phi: f64,
    /// The helper's scale.
    pub s: [f64; 2],
    /// The bone node's turn.
    pub theta: f64,
}

/// `m` as [`Svd`], its turns as near `near`'s as whole (half) turns allow.
pub fn svd(m: Affine, near: Option<Svd>) -> Svd {
    let [a, b, c, d, e, f] = m.to_array();
    // Columns (a, b) and (c, d): m00 = a, m01 = c, m10 = b, m11 = d.
    let (ee, ff, gg, hh) = ((a + d) / 2.0, (a - d) / 2.0, (b + c) / 2.0, (b - c) / 2.0);
    let (q, r) = (ee.hypot(hh), ff.hypot(gg));
    let a2 = hh.atan2(ee);
    // Uneven scale: the turns are fixed; even: only their sum is, and the
    // split follows the nearest.
    let a1 = match near {
        Some(n) if r <= 1e-9 * q.max(1e-12) => n.phi - n.theta,
        _ => gg.atan2(ff),
    };
    let mut out =
        Svd { p: [e, f], phi: (a2 + a1) / 2.0, s: [q + r, q - r], theta: (a2 - a1) / 2.0 };
    if let Some(n) = near {
        let wrap = |v: f64, to: f64| v - (2.0 * PI) * ((v - to) / (2.0 * PI)).round();
        // Both turns by half a turn at once is the same matrix.
        let pick = |k: f64| {
            let (p, t) = (wrap(out.phi + k * PI, n.phi), wrap(out.theta + k * PI, n.theta));
            (p, t, (p - n.phi).abs() + (t - n.theta).abs())
        };
        let (x, y) = (pick(0.0), pick(1.0));
        let best = if y.2 < x.2 { y } else { x };
        (out.phi, out.theta) = (best.0, best.1);
    }
    out
}

/// Bone `b`'s matrix relative to its parent half a frame after frame `f`
/// (`Samples::half`), in the scene's frame.
fn relative_half(ctx: &Ctx<'_>, s: &Samples, b: usize, f: usize) -> Affine {
    let world = |i: usize| C * s.half[f * s.bones + i] * C;
    match ctx.arm.skeleton.bones[b].parent {
        Some(p) => world(p.index()).inverse().unwrap_or(Affine::IDENTITY) * world(b),
        None => world(b),
    }
}

/// Bone `b` at every frame and half frame of `plan` (seconds, values):
/// the half frames where the parent's matrix is singular (a scale of 0,
/// kept from the frame before) and the closing frame's are left out, and
/// all of them when poses change only at whole frames (`Plan::stepped`:
/// then the keys hold).
pub fn keys(ctx: &Ctx<'_>, plan: &Plan, s: &Samples, b: usize) -> Vec<(f64, Svd)> {
    let mut out: Vec<(f64, Svd)> = Vec::with_capacity(2 * plan.total);
    let closing: Vec<usize> = plan.anims.iter().map(|a| a.offset + a.frames).collect();
    for f in 0..plan.total {
        let near = out.last().map(|k| k.1);
        let v = svd(relative(ctx, s, b, f), near);
        out.push((f as f64 / plan.fps, v));
        let parent_ok = ctx.arm.skeleton.bones[b].parent.is_none_or(|p| {
            let [a, bb, c, d, _, _] = s.half[f * s.bones + p.index()].to_array();
            (a * d - bb * c).abs() > 1e-12
        });
        if !plan.stepped && !closing.contains(&f) && parent_ok {
            let h = svd(relative_half(ctx, s, b, f), Some(v));
            out.push(((f as f64 + 0.5) / plan.fps, h));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The matrix of an [`Svd`].
    fn matrix(v: &Svd) -> Affine {
        Affine::translate(v.p[0], v.p[1])
            * Affine::rotate(v.phi)
            * Affine::scale(v.s[0], v.s[1])
            * Affine::rotate(v.theta)
    }

    fn close(a: Affine, b: Affine) -> bool {
        a.to_array().iter().zip(b.to_array()).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn every_matrix_is_a_turn_a_scale_and_a_turn() {
        for m in [
            [1.0, 0.0, 0.5, 1.0, 3.0, -2.0],
            [0.0, 2.0, -1.0, 0.3, 0.0, 0.0],
            [-1.0, 0.2, 0.1, 1.0, 1.0, 1.0],
            [2.0, 0.0, 0.0, 2.0, 0.0, 0.0],
            [0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        ] {
            let m = Affine::from_array(m);
            assert!(close(matrix(&svd(m, None)), m), "{m:?}: {:?}", svd(m, None));
            let near = Svd { p: [0.0; 2], phi: 7.0, s: [1.0; 2], theta: -5.0 };
            let v = svd(m, Some(near));
            assert!(close(matrix(&v), m), "{m:?} near: {v:?}");
            assert!((v.phi - 7.0).abs() <= PI + 1e-9, "{v:?}");
        }
    }
}
