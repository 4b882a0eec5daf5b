//! Inverse kinematics: the solver SkelForm's editor and runtimes use (one
//! implementation, shared by both compositions), and its application to
//! skeletons in the language's composition.
//!
//! **The solver** ([`solve`]), in `f32` as SkelForm computes: the chain's
//! joints are the world positions of its bones' origins (root first); FABRIK
//! runs 10 rounds of a forward pass from the target and a backward pass from
//! the root, Arc spreads the joints on an arc from the root towards the
//! target; each bone but the last is then pointed at the next joint; a bend
//! constraint mirrors every rotation about the root→target line when the
//! first joint is on the wrong side of it. The last bone's origin is the
//! chain's tip.
//!
//! **The language's composition** ([`apply`]): every family is solved on the
//! pose after forward kinematics (all families on the same pose, as SkelForm
//! does), then each chain bone but the last is turned about its origin so
//! that the next chain bone's origin lies in the solved direction; bones
//! below turn with it. A bone's world frame turns with its local rotation
//! (mirrored when an odd number of flips lie on the bone's path from the
//! root), so the local rotation changes by the world turn times that sign.
//! Skeletons without IK never reach this module.

use super::Pose;
use crate::model::*;

/// One joint of a chain: world position and rotation.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Joint {
    pub x: f32,
    pub y: f32,
    pub rot: f32,
}

fn rotate(x: f32, y: f32, rot: f32) -> (f32, f32) {
    (x * rot.cos() - y * rot.sin(), x * rot.sin() + y * rot.cos())
}

fn normalize(x: f32, y: f32) -> (f32, f32) {
    let mag = (x * x + y * y).sqrt();
    if mag == 0.0 { (0.0, 0.0) } else { (x / mag, y / mag) }
}

fn arc_ik(j: &mut [Joint], root: (f32, f32), target: (f32, f32)) {
    let n = j.len();
    let last = j[n - 1];
    let max_length = ((last.x - root.0).powi(2) + (last.y - root.1).powi(2)).sqrt();
    let mut dist = vec![0.0f32];
    let mut curr = 0.0f32;
    for b in 1..n {
        curr += ((j[b].x - j[b - 1].x).powi(2) + (j[b].y - j[b - 1].y).powi(2)).sqrt();
        dist.push(curr / max_length);
    }
    let (bx, by) = (target.0 - root.0, target.1 - root.1);
    let base_angle = by.atan2(bx);
    let base_mag = (bx * bx + by * by).sqrt().min(max_length);
    let peak = max_length / base_mag;
    let valley = base_mag / max_length;
    for b in 1..n {
        let px = j[b].x * valley;
        // SkelForm's Arc solver multiplies by 3.14, not π; kept to play alike.
        #[allow(
            clippy::approx_constant,
            reason = "SkelForm's solver multiplies by 3.14, and skelpad plays its files alike"
        )]
        let py = root.1 + (1.0 - peak) * (dist[b] * 3.14).sin() * base_mag;
        let (rx, ry) = rotate(px - root.0, py - root.1, base_angle);
        j[b].x = rx + root.0;
        j[b].y = ry + root.1;
    }
}

/// FABRIK as the editor writes it: a forward pass from the target, then a
/// backward pass from the root.
fn fabrik(j: &mut [Joint], root: (f32, f32), target: (f32, f32)) {
    let n = j.len();
    let mut next = target;
    let mut next_len = 0.0f32;
    for b in (0..n).rev() {
        let (dx, dy) = normalize(next.0 - j[b].x, next.1 - j[b].y);
        let l = next_len;
        if b != 0 {
            next_len = ((j[b].x - j[b - 1].x).powi(2) + (j[b].y - j[b - 1].y).powi(2)).sqrt();
        }
        j[b].x = next.0 - dx * l;
        j[b].y = next.1 - dy * l;
        next = (j[b].x, j[b].y);
    }
    let mut prev = root;
    let mut prev_len = 0.0f32;
    for b in 0..n {
        let (dx, dy) = normalize(prev.0 - j[b].x, prev.1 - j[b].y);
        let l = prev_len;
        if b != n - 1 {
            prev_len = ((j[b].x - j[b + 1].x).powi(2) + (j[b].y - j[b + 1].y).powi(2)).sqrt();
        }
        j[b].x = prev.0 - dx * l;
        j[b].y = prev.1 - dy * l;
        prev = (j[b].x, j[b].y);
    }
}

/// Solves one chain in place: `joints` hold the bones' world positions and
/// rotations (root first) and receive the solved positions and rotations
/// (each bone but the last pointed at the next joint; the last keeps its
/// rotation, mirrored with the others when the bend constraint applies).
/// Returns whether the constraint mirrored the chain, or `None` for a
/// chain that cannot be solved (fewer than two joints, or non-finite
/// results: zero lengths, a target on the root), which SkelForm turns into
/// NaN and skelpad leaves unsolved.
pub(crate) fn solve(
    mode: IkMode,
    constraint: IkConstraint,
    joints: &mut [Joint],
    target: (f32, f32),
) -> Option<bool> {
    let n = joints.len();
    if n < 2 {
        return None;
    }
    let root = (joints[0].x, joints[0].y);
    let last_rot = joints[n - 1].rot;
    match mode {
        IkMode::Fabrik => {
            for _ in 0..10 {
                fabrik(joints, root, target);
            }
        }
        IkMode::Arc => arc_ik(joints, root, target),
    }
    let mut tip = (joints[n - 1].x, joints[n - 1].y);
    for b in (0..n - 1).rev() {
        let (dx, dy) = (tip.0 - joints[b].x, tip.1 - joints[b].y);
        joints[b].rot = dy.atan2(dx);
        tip = (joints[b].x, joints[b].y);
    }
    joints[n - 1].rot = last_rot;
    let (jx, jy) = normalize(joints[1].x - joints[0].x, joints[1].y - joints[0].y);
    let (bx, by) = normalize(target.0 - root.0, target.1 - root.1);
    let dir = jx * by - bx * jy;
    let base_angle = by.atan2(bx);
    let cw = constraint == IkConstraint::Clockwise && dir > 0.0;
    let ccw = constraint == IkConstraint::CounterClockwise && dir < 0.0;
    let mirrored = cw || ccw;
    if mirrored {
        for j in joints.iter_mut() {
            j.rot = -j.rot + base_angle * 2.0;
        }
    }
    if joints.iter().any(|j| !j.x.is_finite() || !j.y.is_finite() || !j.rot.is_finite()) {
        return None;
    }
    Some(mirrored)
}

/// −1 when an odd number of flips lie on the bone's path from the root
/// (its world frame then turns against its local rotation), else 1.
fn turn_sign(pose: &Pose, skeleton: &Skeleton, mut b: usize) -> f64 {
    let mut sign = 1.0;
    loop {
        let l = &pose.bones[b].local;
        if l.flip_x != l.flip_y {
            sign = -sign;
        }
        match skeleton.bones[b].parent.map(|p| p.index()).filter(|&p| p < b) {
            Some(p) => b = p,
            None => return sign,
        }
    }
}

/// Applies every IK family of a skeleton in the language's composition to
/// a pose whose world matrices are up to date (see the module
/// documentation); leaves them up to date.
pub(crate) fn apply(pose: &mut Pose, skeleton: &Skeleton) {
    let n = pose.bones.len().min(skeleton.bones.len());
    // Per family: the solved world direction of each chain bone but the last.
    let mut solved: Vec<(usize, Vec<f32>)> = Vec::with_capacity(skeleton.ik.len());
    let mut levels = 0;
    let mut joints: Vec<Joint> = Vec::new();
    for (f, fam) in skeleton.ik.iter().enumerate() {
        if fam.bones.len() < 2 || fam.bones.iter().chain([&fam.target]).any(|b| b.index() >= n) {
            continue;
        }
        joints.clear();
        joints.extend(fam.bones.iter().map(|b| {
            let (o, x) =
                (pose.bones[b.index()].world.translation(), pose.bones[b.index()].world.x_axis());
            Joint { x: o.x as f32, y: o.y as f32, rot: x.y.atan2(x.x) as f32 }
        }));
        let t = pose.bones[fam.target.index()].world.translation();
        if solve(fam.mode, fam.constraint, &mut joints, (t.x as f32, t.y as f32)).is_none() {
            continue;
        }
        levels = levels.max(fam.bones.len() - 1);
        solved.push((f, joints[..joints.len() - 1].iter().map(|j| j.rot).collect()));
    }
    // Level by level (the k-th bone of every chain), so each bone turns
    // after the bones above it have.
    for level in 0..levels {
        for (f, rots) in &solved {
            let Some(&rot) = rots.get(level) else { continue };
            let fam = &skeleton.ik[*f];
            let (b, next) = (fam.bones[level].index(), fam.bones[level + 1].index());
            let d = pose.bones[next].world.translation() - pose.bones[b].world.translation();
            let (dx, dy) = (d.x, d.y);
            if dx == 0.0 && dy == 0.0 {
                continue;
            }
            let turn = normalize_angle(f64::from(rot) - dy.atan2(dx));
            let sign = turn_sign(pose, skeleton, b);
            pose.bones[b].local.rotation_rad += sign * turn;
        }
        pose.update_world(skeleton);
    }
}
