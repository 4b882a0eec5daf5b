//! Bone nodes: each bone's translation, rotation and scale relative to its
//! parent's node at every frame, and whether they are the bone's own local
//! values (keyed where its keys are) or worked out from skelpad's world
//! matrices (baked).
//!
//! glTF multiplies whole matrices down the tree (as skelpad's affine rule
//! does), so a parent's uneven scale under a child's turn needs nothing
//! special: a bone keeps its own values whenever
//! `world = parent_world · T · R · S` at every frame. Otherwise (IK, `no-rot`
//! and `no-scale`, the SkelForm and Spriter parent rules) the node holds
//! `parent_world⁻¹ · world`; when that has a skew at some frame (a node's
//! own transform cannot), the bone gets a helper node `NAME#skew` between it
//! and its parent holding `T · R(φ) · S` while the bone node turns by `θ`
//! (`R(φ) · S · R(θ)`, the singular value decomposition).

use super::Clip;
use crate::formats::export::jumps;
use crate::formats::lottie::mesh::svd;
use skelpad_lang::model::{Affine, Armature, BoneId, Curve, Easing};

/// A node's own transform in the plane: translation, turn (radians,
/// counter-clockwise) and scale; `turn` is the bone node's extra turn under
/// a skew helper.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    /// Translation.
    pub t: [f64; 2],
    /// Turn, radians.
    pub r: f64,
    /// Scale per axis.
    pub s: [f64; 2],
    /// The bone node's own turn under a skew helper (0 without one).
    pub turn: f64,
}

/// One bone's node(s) and values.
pub struct BoneNode {
    /// The bone's full dotted name.
    pub name: String,
    /// The parent bone.
    pub parent: Option<usize>,
    /// Whether a `NAME#skew` helper node sits above the bone node.
    pub skew: bool,
    /// Why the bone is worked out from world matrices at every frame.
    pub baked: Option<String>,
    /// The setup pose's values (the nodes' own transforms in the file).
    pub rest: Trs,
    /// Values at every frame of every clip (`per_clip[c][frame]`).
    pub per_clip: Vec<Vec<Trs>>,
    /// Values half a frame after every frame of every clip, where they
    /// follow on from the frame's (`None` at a closing frame, in a file
    /// whose poses change only at whole frames, or where the parent has
    /// no inverse or the values flip).
    pub halves: Vec<Vec<Option<Trs>>>,
    /// Per clip, the frames after which the node holds its value and jumps
    /// at the next frame (a flip: skelpad switches it at once).
    pub holds: Vec<Vec<usize>>,
    /// Per clip, the frames where the values jump between two frames.
    pub splits: Vec<Vec<Split>>,
}

fn close(a: Affine, b: Affine) -> bool {
    let (x, y) = (a.to_array(), b.to_array());
    x.iter().zip(&y).all(|(p, q)| (p - q).abs() <= 1e-7 * q.abs().max(1.0))
}

/// The angle `r` moved by whole turns to within half a turn of `near`.
pub fn unwrap(r: f64, near: f64) -> f64 {
    let tau = std::f64::consts::TAU;
    r + tau * ((near - r) / tau).round()
}

/// Whether the matrix's axes are perpendicular (no skew).
fn square(m: Affine) -> bool {
    let [a, b, c, d, _, _] = m.to_array();
    let dot = a * c + b * d;
    dot.abs() <= 1e-9 * (a.hypot(b) * c.hypot(d)).max(1e-300) || dot.abs() <= 1e-12
}

/// `m` as translation · turn · scale (no skew), the turn near `hint`.
fn decompose(m: Affine, hint: f64) -> Trs {
    let [a, b, c, d, e, f] = m.to_array();
    let (n0, n1) = (a.hypot(b), c.hypot(d));
    let det = a * d - b * c;
    let (r, sx, sy) = if n0 > 1e-12 {
        (b.atan2(a), n0, det / n0)
    } else if n1 > 1e-12 {
        ((-c).atan2(d), 0.0, n1)
    } else {
        (hint, 0.0, 0.0)
    };
    Trs { t: [e, f], r: unwrap(r, hint), s: [sx, sy], turn: 0.0 }
}

/// `m` as translation · R(φ) · S · R(θ); where the scale is even only
/// φ + θ is fixed, and θ stays the hint's (so the turns do not leap
/// between frames where a straight in-between would go astray).
fn decompose_skewed(m: Affine, hint: &Trs) -> Trs {
    let [.., e, f] = m.to_array();
    let (phi, s, theta) = svd(m);
    if (s[0] - s[1]).abs() <= 1e-9 * s[0].abs().max(s[1].abs()).max(1e-12) {
        let turn = hint.turn;
        return Trs { t: [e, f], r: unwrap(phi + theta - turn, hint.r), s, turn };
    }
    Trs { t: [e, f], r: unwrap(phi, hint.r), s, turn: unwrap(theta, hint.turn) }
}

/// The transform `L` with `parent · L = child`: through the inverse, or
/// where the parent has no inverse (a scale of 0 on its way) through the
/// pseudo-inverse, which finds `L` whenever the child's axes lie in the
/// parent's squashed plane (as they do when the child inherits the scale).
fn relative_to(parent: Affine, child: Affine) -> Affine {
    if let Some(inv) = parent.inverse().filter(|i| i.is_finite()) {
        return inv * child;
    }
    let (phi, [s1, s2], theta) = svd(parent);
    let inv = |s: f64| if s.abs() > 1e-12 { 1.0 / s } else { 0.0 };
    let pinv = Affine::rotate(-theta) * Affine::scale(inv(s1), inv(s2)) * Affine::rotate(-phi);
    let shift = child.translation() - parent.translation();
    let lin = pinv * child.linear();
    let (x, y) = pinv.apply(shift.x, shift.y);
    Affine::translate(x, y) * lin
}

/// Every bone's nodes over the clips (clip 0 is the setup pose).
pub fn bone_nodes(arm: &Armature, clips: &[Clip]) -> Vec<BoneNode> {
    let sk = &*arm.skeleton;
    let mut out = Vec::with_capacity(sk.bones.len());
    for (b, bone) in sk.bones.iter().enumerate() {
        let parent = bone.parent.map(|p| p.index());
        let in_ik = sk.ik.iter().any(|fam| fam.bones.contains(&BoneId::from_index(b)));
        let world = |c: &Clip, f: usize| c.samples.world[f * c.samples.bones + b];
        let parent_world = |c: &Clip, f: usize| match parent {
            Some(p) => c.samples.world[f * c.samples.bones + p],
            None => Affine::IDENTITY,
        };
        let local = |c: &Clip, f: usize| {
            let l = c.samples.local[f * c.samples.bones + b];
            let (fx, fy) = (if l.flip_x { -1.0 } else { 1.0 }, if l.flip_y { -1.0 } else { 1.0 });
            // A flip F comes before the turn (LANGUAGE.md §6: F · R(r) · S):
            // F · R(r) = R(±r) · F, the turn reversed by a single flip.
            (l.x, l.y, l.rotation_rad * fx * fy, l.scale_x * fx, l.scale_y * fy)
        };
        let natural = !in_ik
            && clips.iter().all(|c| {
                (0..c.plan.total).all(|f| {
                    let (x, y, r, sx, sy) = local(c, f);
                    close(parent_world(c, f) * Affine::trs(x, y, r, sx, sy), world(c, f))
                })
            });
        let relative = |c: &Clip, f: usize| relative_to(parent_world(c, f), world(c, f));
        let skew =
            !natural && clips.iter().any(|c| (0..c.plan.total).any(|f| !square(relative(c, f))));
        let per_clip: Vec<Vec<Trs>> = clips
            .iter()
            .map(|c| {
                let mut hint = Trs { t: [0.0; 2], r: 0.0, s: [1.0; 2], turn: 0.0 };
                (0..c.plan.total)
                    .map(|f| {
                        let v = if natural {
                            let (x, y, r, sx, sy) = local(c, f);
                            Trs { t: [x, y], r: unwrap(r, hint.r), s: [sx, sy], turn: 0.0 }
                        } else if skew {
                            decompose_skewed(relative(c, f), &hint)
                        } else {
                            decompose(relative(c, f), hint.r)
                        };
                        hint = v;
                        v
                    })
                    .collect()
            })
            .collect();
        let rest = per_clip.first().and_then(|v| v.first()).copied().unwrap_or(Trs {
            t: [0.0; 2],
            r: 0.0,
            s: [1.0; 2],
            turn: 0.0,
        });
        let baked = (!natural).then(|| reason(arm, clips, b));
        let (halves, splits) =
            clips.iter().zip(&per_clip).map(|(c, v)| half_values(c, b, parent, skew, v)).unzip();
        let holds = clips.iter().map(|c| jumps(&c.samples, &c.plan, b, parent)).collect();
        let name = bone.name.clone();
        out.push(BoneNode { name, parent, skew, baked, rest, per_clip, halves, holds, splits });
    }
    out
}

/// A split frame: skelpad's values jump between two frames (a flip, a
/// sudden turn), and half a frame on they follow on from the frame before
/// (`late`: the jump comes after the half frame) or the frame after.
#[derive(Clone, Copy, Debug)]
pub struct Split {
    /// The frame before the jump.
    pub frame: usize,
    /// The values half a frame on.
    pub half: Trs,
    /// Whether the jump comes after the half frame.
    pub late: bool,
}

/// The ways to write one matrix as [`Trs`] near `to`: turns by half a turn
/// (the scale's signs turned with an odd number of them).
fn near(h: &Trs, to: &Trs, skew: bool) -> Option<Trs> {
    let pi = std::f64::consts::PI;
    let mut best: Option<(f64, Trs)> = None;
    for (k1, k2) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
        if !skew && k2 != 0.0 {
            continue;
        }
        let odd = (k1 + k2) % 2.0 == 1.0;
        let s = if odd { [-h.s[0], -h.s[1]] } else { h.s };
        let c = Trs {
            t: h.t,
            r: unwrap(h.r + k1 * pi, to.r),
            s,
            turn: if skew { unwrap(h.turn + k2 * pi, to.turn) } else { 0.0 },
        };
        let signs = (0..2).all(|d| c.s[d].signum() == to.s[d].signum() || to.s[d] == 0.0);
        let far = (c.r - to.r).abs() + (c.turn - to.turn).abs();
        if signs && far < 1.5 && best.as_ref().is_none_or(|(f, _)| far < *f) {
            best = Some((far, c));
        }
    }
    best.map(|(_, c)| c)
}

/// Bone `b`'s node values half a frame after each frame of clip `c`
/// (`Samples::half`), where they follow on from both frames around, and
/// the frames where they follow on from one only ([`Split`]); neither at a
/// closing frame, in a file whose poses change only at whole frames, or
/// where the parent has no inverse.
fn half_values(
    c: &Clip,
    b: usize,
    parent: Option<usize>,
    skew: bool,
    v: &[Trs],
) -> (Vec<Option<Trs>>, Vec<Split>) {
    let s = &c.samples;
    let closing: Vec<usize> = c.plan.anims.iter().map(|a| a.offset + a.frames).collect();
    let mut splits = Vec::new();
    let halves = (0..c.plan.total)
        .map(|f| {
            if c.plan.stepped || closing.contains(&f) || f + 1 >= v.len() {
                return None;
            }
            let world = s.half[f * s.bones + b];
            let m = match parent {
                Some(p) => s.half[f * s.bones + p].inverse().filter(|i| i.is_finite())? * world,
                None => world,
            };
            let (a, z) = (&v[f], &v[f + 1]);
            let h = if skew { decompose_skewed(m, a) } else { decompose(m, a.r) };
            match (near(&h, a, skew), near(&h, z, skew)) {
                (Some(x), Some(y))
                    if (x.r - y.r).abs() < 1e-9 && (x.turn - y.turn).abs() < 1e-9 =>
                {
                    Some(x)
                }
                (Some(x), _) => {
                    splits.push(Split { frame: f, half: x, late: true });
                    None
                }
                (None, Some(y)) => {
                    splits.push(Split { frame: f, half: y, late: false });
                    None
                }
                (None, None) => None,
            }
        })
        .collect();
    (halves, splits)
}

/// Why a bone's node cannot hold its own local values.
fn reason(arm: &Armature, clips: &[Clip], b: usize) -> String {
    let sk = &*arm.skeleton;
    let bone = &sk.bones[b];
    let id = BoneId::from_index(b);
    let mut why = Vec::new();
    if sk.ik.iter().any(|fam| fam.bones.contains(&id)) {
        why.push("it is turned by inverse kinematics");
    }
    if !bone.inherit_rotation {
        why.push("`no-rot`");
    }
    if !bone.inherit_scale {
        why.push("`no-scale`");
    }
    let mut above = sk.bones[b].parent;
    let (mut flips, mut uneven) = (false, false);
    while let Some(p) = above {
        for c in clips {
            let n = c.samples.bones;
            flips |= c
                .samples
                .local
                .iter()
                .skip(p.index())
                .step_by(n.max(1))
                .any(|l| l.flip_x || l.flip_y);
            uneven |= c.samples.non_uniform.get(p.index()).copied().unwrap_or(false);
        }
        above = sk.bones[p.index()].parent;
    }
    let n = clips.first().map_or(1, |c| c.samples.bones.max(1));
    if clips.iter().any(|c| c.samples.local.iter().skip(b).step_by(n).any(|l| l.flip_x || l.flip_y))
    {
        why.push("a flip on it under a turned parent");
    }
    if flips {
        why.push("a flip above it");
    }
    if uneven {
        why.push("a parent's accumulated scale is not uniform (skelpad's bones never skew)");
    }
    if sk.composition != skelpad_lang::model::Composition::Affine {
        why.push("its file's parent rule is not glTF's");
    }
    if why.is_empty() {
        why.push("its world transform is not its parent's times its local transform");
    }
    why.join(", ")
}

/// Whether an animation moves bone `b` with a curve glTF has no
/// interpolation for (anything but straight lines and steps): those keys
/// are sampled at every frame.
pub fn eased(arm: &Armature, clip: &Clip, b: usize) -> bool {
    let Some(anim) = clip.id.and_then(|i| arm.animation(i)) else { return false };
    anim.bones.iter().filter(|c| c.bone.index() == b).any(|c| {
        c.keys.iter().any(|k| !matches!(k.curve, Curve::Stepped | Curve::Eased(Easing::Linear)))
    })
}

/// The frames (of the clip) where the animation keys bone `b`.
pub fn key_frames(arm: &Armature, clip: &Clip, b: usize) -> Vec<usize> {
    let Some(anim) = clip.id.and_then(|i| arm.animation(i)) else { return Vec::new() };
    let mut out = Vec::new();
    for c in anim.bones.iter().filter(|c| c.bone.index() == b) {
        for k in &c.keys {
            let f = k.time_secs * clip.plan.fps;
            if (f - f.round()).abs() < 1e-6 && f >= 0.0 {
                out.push(f.round() as usize);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skewed_and_square_matrices_decompose_back() {
        let m = Affine::trs(3.0, -4.0, 0.3, 2.0, -0.5);
        assert!(square(m));
        let t = decompose(m, 7.0);
        let back = Affine::trs(t.t[0], t.t[1], t.r, t.s[0], t.s[1]);
        assert!(close(back, m) && (t.r - 7.0).abs() <= std::f64::consts::PI);
        let skewed = Affine::scale(2.0, 0.5) * Affine::rotate(0.7);
        assert!(!square(skewed));
        let hint = Trs { t: [0.0; 2], r: 0.0, s: [1.0; 2], turn: 0.0 };
        let t = decompose_skewed(skewed, &hint);
        let back = Affine::trs(t.t[0], t.t[1], t.r, t.s[0], t.s[1]) * Affine::rotate(t.turn);
        assert!(close(back, skewed), "{t:?}");
    }
}
