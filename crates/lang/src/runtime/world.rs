//! World transforms: each bone's local transform composed with its
//! parent's, parents first (LANGUAGE.md §6), and Spriter's parent rule.

use super::{Accum, Pose};
use crate::model::*;

impl Pose {
    /// Computes world matrices from the local transforms, parents first.
    pub fn update_world(&mut self, skeleton: &Skeleton) {
        if skeleton.composition == Composition::Spriter {
            self.update_world_spriter(skeleton);
            return;
        }
        let n = self.bones.len().min(skeleton.bones.len());
        self.accum.resize(self.bones.len(), Accum::default());
        self.trig.resize(self.bones.len(), (f64::NAN, 0.0, 1.0));
        let (bones, accum, trig) =
            (&mut self.bones[..n], &mut self.accum[..n], &mut self.trig[..n]);
        // A deferred reset (see `reset`) is completed here.
        let unset = |i: usize| self.deferred && self.stamp.get(i) != Some(&self.generation);
        for (i, bone) in skeleton.bones[..n].iter().enumerate() {
            // (Read from the setup, not back from the pose just written: a
            // load that spans two fresh stores stalls.)
            let local = if unset(i) {
                bones[i].local = bone.setup;
                bone.setup
            } else {
                bones[i].local
            };
            let mut acc = Accum {
                rot: local.rotation_rad,
                sin: 0.0,
                cos: 1.0,
                sx: local.scale_x,
                sy: local.scale_y,
                isx: 1.0,
                isy: 1.0,
            };
            // sin/cos of the local rotation, cached while it does not change.
            let cached = &mut trig[i];
            if cached.0.to_bits() != local.rotation_rad.to_bits() {
                let (s, c) = crate::model::trig::sin_cos(local.rotation_rad);
                *cached = (local.rotation_rad, s, c);
            }
            let (ls, lc) = (cached.1, cached.2);
            (acc.sin, acc.cos) = (ls, lc);
            // Inverse of the parent's rotation and scale (LANGUAGE.md §6).
            let (mut is, mut ic, mut isx, mut isy) = (0.0, 1.0, 1.0, 1.0);
            let mut parent_world = Affine::IDENTITY;
            if let Some(p) = bone.parent.map(|p| p.index()).filter(|&p| p < i) {
                let pa = accum[p];
                parent_world = bones[p].world;
                is = -pa.sin;
                ic = pa.cos;
                // A zero scale has no inverse: what hangs below collapses
                // (`isx`/`isy` of the parent are 0 then).
                isx = pa.isx;
                isy = pa.isy;
                if bone.inherit_rotation {
                    acc.rot += pa.rot;
                    // sin/cos of the accumulated rotation by angle addition.
                    acc.sin = ls * pa.cos + lc * pa.sin;
                    acc.cos = lc * pa.cos - ls * pa.sin;
                }
                if bone.inherit_scale {
                    acc.sx *= pa.sx;
                    acc.sy *= pa.sy;
                }
            }
            acc.isx = if acc.sx == 0.0 { 0.0 } else { 1.0 / acc.sx };
            acc.isy = if acc.sy == 0.0 { 0.0 } else { 1.0 / acc.sy };
            // The parent's inverse rotation and the accumulated rotation
            // cancel down to the local one when the bone inherits rotation
            // (or the parent is not turned, or there is none) and is
            // flipped on both axes or neither.
            let local_turn =
                (bone.inherit_rotation || (is == 0.0 && ic == 1.0)) && local.flip_x == local.flip_y;
            let world = if local_turn {
                world_turned_locally(parent_world, &local, (ls, lc), &acc, (isx, isy))
            } else {
                world_in_general(parent_world, &local, &acc, (is, ic), (isx, isy))
            };
            bones[i].world = world;
            accum[i] = acc;
        }
        self.deferred = false;
    }
}

/// `P · T(x, y) · S(isx, isy) · F · R(local) · S(acc.sx, acc.sy)`: the world
/// transform of LANGUAGE.md §6 when the parent's inverse rotation and the
/// accumulated rotation cancel to the local one (`R(−p) · F · R(l + p) =
/// F · R(l)` for `F = ±I`). Besides fewer products, the parent's rotation is
/// then not on the path from one bone of a chain to the next, which is what
/// the pose's time is made of.
fn world_turned_locally(
    parent: Affine,
    local: &BoneTransform,
    (ls, lc): (f64, f64),
    acc: &Accum,
    (isx, isy): (f64, f64),
) -> Affine {
    let f = if local.flip_x { -1.0 } else { 1.0 };
    let [a, b, c, d, e, g] = parent.to_array();
    // The columns of S(isx, isy) · F · R(local) · S(acc.sx, acc.sy).
    let (m00, m01) = (f * isx * lc * acc.sx, f * isy * ls * acc.sx);
    let (m10, m11) = (-f * isx * ls * acc.sy, f * isy * lc * acc.sy);
    Affine::from_array([
        a * m00 + c * m01,
        b * m00 + d * m01,
        a * m10 + c * m11,
        b * m10 + d * m11,
        c * local.y + a * local.x + e,
        d * local.y + b * local.x + g,
    ])
}

/// `P · T(x, y) · S(isx, isy) · R(irot) · F · R(acc.rot) · S(acc.sx, acc.sy)`
/// (LANGUAGE.md §6), expanded, with `(is, ic)` the sine and cosine of the
/// parent's inverse rotation `irot`.
fn world_in_general(
    parent: Affine,
    local: &BoneTransform,
    acc: &Accum,
    (is, ic): (f64, f64),
    (isx, isy): (f64, f64),
) -> Affine {
    let (ws, wc) = (acc.sin, acc.cos);
    let fx = if local.flip_x { -1.0 } else { 1.0 };
    let fy = if local.flip_y { -1.0 } else { 1.0 };
    let [a, b, c, d, e, f] = parent.to_array();
    let (ax, bx, cy, dy) = (a * isx, b * isx, c * isy, d * isy);
    let (fxx, fxy, fyx, fyy) = (fx * acc.sx, fx * acc.sy, fy * acc.sx, fy * acc.sy);
    let (cc, ss, cs, sc) = (ic * wc, is * ws, ic * ws, is * wc);
    Affine::from_array([
        ax * (fxx * cc - fyx * ss) + cy * (fyx * cs + fxx * sc),
        bx * (fxx * cc - fyx * ss) + dy * (fyx * cs + fxx * sc),
        cy * (fyy * cc - fxy * ss) - ax * (fxy * cs + fyy * sc),
        dy * (fyy * cc - fxy * ss) - bx * (fxy * cs + fyy * sc),
        c * local.y + a * local.x + e,
        d * local.y + b * local.x + f,
    ])
}

impl Pose {
    /// Spriter's parent rule (SpriterPlusPlus objectref/transformprocessor.cpp):
    /// scale multiplies component-wise, the angle is negated under a
    /// mirrored parent, the position is scaled by the parent's scale in the
    /// child's axes then rotated.
    fn update_world_spriter(&mut self, skeleton: &Skeleton) {
        self.accum.resize(self.bones.len(), Accum::default());
        let animated = self.parent.len() == skeleton.bones.len();
        for (i, bone) in skeleton.bones.iter().enumerate() {
            let local = self.bones[i].local;
            let (mut x, mut y, mut rot, mut sx, mut sy) =
                (local.x, local.y, local.rotation_rad, local.scale_x, local.scale_y);
            let parent = if animated { self.parent[i] } else { bone.parent };
            if let Some(p) = parent {
                let pa = self.accum[p.index()];
                let pw = self.bones[p.index()].world;
                sx *= pa.sx;
                sy *= pa.sy;
                if pa.sx * pa.sy < 0.0 {
                    rot = -rot;
                }
                rot += pa.rot;
                let (lx, ly) = (local.x * pa.sx, local.y * pa.sy);
                let origin = pw.translation();
                x = origin.x + pa.cos * lx - pa.sin * ly;
                y = origin.y + pa.sin * lx + pa.cos * ly;
            }
            let (sin, cos) = crate::model::trig::sin_cos(rot);
            let inverse = |s: f64| if s == 0.0 { 0.0 } else { 1.0 / s };
            self.accum[i] = Accum { rot, sin, cos, sx, sy, isx: inverse(sx), isy: inverse(sy) };
            self.bones[i].world =
                Affine::from_array([sx * cos, sx * sin, -sy * sin, sy * cos, x, y]);
        }
    }

    /// Multiplies each slot's alpha by the alpha of its bone and the bone's
    /// ancestors (Spriter), from the bone alphas the animation set.
    pub(super) fn apply_bone_alpha(&mut self, skeleton: &Skeleton) {
        if self.alpha.is_empty() {
            return;
        }
        self.alpha.resize(skeleton.bones.len(), 1.0);
        let animated = self.parent.len() == skeleton.bones.len();
        for (i, bone) in skeleton.bones.iter().enumerate() {
            let parent = if animated { self.parent[i] } else { bone.parent };
            if let Some(p) = parent {
                self.alpha[i] *= self.alpha[p.index()];
            }
        }
        for (slot, sp) in skeleton.slots.iter().zip(&mut self.slots) {
            if let Some(a) = self.alpha.get(slot.bone.index()) {
                sp.color.a *= a;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::tests::assert_affine_close;

    #[test]
    fn the_local_turn_shortcut_is_the_general_product() {
        // R(−p) · F · R(l + p) = F · R(l) for F = ±I: both ways of forming a
        // world transform agree on bones that inherit rotation.
        let parent = Affine::from_array([0.3, -1.7, 0.9, 0.4, 5.0, -2.0]);
        for (p, l, flip) in [(0.7, -2.1, false), (-3.0, 0.2, true), (0.0, 1.0, false)] {
            let local = BoneTransform {
                x: 2.5,
                y: -1.25,
                rotation_rad: l,
                scale_x: 1.5,
                scale_y: -0.75,
                flip_x: flip,
                flip_y: flip,
            };
            let (sx, sy): (f64, f64) = (2.0, 0.5);
            let acc = Accum {
                rot: l + p,
                sin: (l + p).sin(),
                cos: (l + p).cos(),
                sx: local.scale_x * sx,
                sy: local.scale_y * sy,
                isx: 0.0,
                isy: 0.0,
            };
            let inverse = (1.0 / sx, 1.0 / sy);
            let short = world_turned_locally(parent, &local, (l.sin(), l.cos()), &acc, inverse);
            let long = world_in_general(parent, &local, &acc, ((-p).sin(), (-p).cos()), inverse);
            assert_affine_close(short, long.to_array(), 1e-12);
        }
    }
}
