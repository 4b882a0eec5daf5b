//! SkelForm's animation model, as its runtimes compute it, so the exporter can
//! check what a runtime will show before writing a key.
//!
//! - A bone's world transform is position, rotation and a per-axis scale
//!   (no shear): `T(pos) · R(rot) · S(scale)`.
//! - A child's world ([`child_world`], the rule of SkelForm's editor,
//!   skelform-js and the format's documentation):
//!   `rot = local.rot + parent.rot`, `scale = local.scale ⊙ parent.scale`,
//!   `pos = parent.pos + R(parent.rot)·(local.pos ⊙ parent.scale)`.
//!   `rusty_skelform` 0.8 alone negates `local.rot` when the parent faces
//!   left (exactly one of its scales negative). The exporter never writes a
//!   file where that matters: a bone that faces left only ever has children
//!   whose local rotation is 0 (see `docs/skf.md`), so both rules give the
//!   same world and the simulation follows the editor.
//! - [`compose`] is the plain matrix product written as position, rotation
//!   and scale (what skelpad's own runtime does): the exporter uses it for
//!   the world a bone *must* have, [`child_world`] for what runtimes show.
//! - A keyframe's value is reached through the cubic timing bezier stored on
//!   that keyframe, solved with five Newton steps from `x = t`; both handles'
//!   y = 999 holds the previous value.
//!
//! These are facts read from SkelForm's runtime documentation and the
//! `rusty_skelform` crate; the code is this project's own.

use skelpad_lang::model::Affine;
use skelpad_lang::runtime::skelform_curve;
use std::f64::consts::{PI, TAU};

/// A bezier handle: x in time, y in progress, both 0..1 (y may overshoot).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handle {
    /// Share of the segment's time, 0..1.
    pub x: f64,
    /// Share of the way from the first value to the second (999 marks a step).
    pub y: f64,
}

impl Handle {
    /// The handle at time share `x`, progress `y`.
    pub const fn new(x: f64, y: f64) -> Self {
        Handle { x, y }
    }

    /// As written into the file.
    pub fn to_file(self) -> super::Vec2 {
        super::Vec2::new(self.x as f32, self.y as f32)
    }
}

/// A transform in SkelForm's model: `T(x, y) · R(rot) · S(sx, sy)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trs {
    /// Position x.
    pub x: f64,
    /// Position y (+y up).
    pub y: f64,
    /// Rotation, radians counterclockwise.
    pub rot: f64,
    /// Scale along the bone's own x axis (negative mirrors).
    pub sx: f64,
    /// Scale along the bone's own y axis (negative mirrors).
    pub sy: f64,
}

impl Default for Trs {
    fn default() -> Self {
        Trs { x: 0.0, y: 0.0, rot: 0.0, sx: 1.0, sy: 1.0 }
    }
}

impl Trs {
    /// The same transform as skelpad's matrix, `T · R · S`.
    pub fn matrix(&self) -> Affine {
        Affine::trs(self.x, self.y, self.rot, self.sx, self.sy)
    }

    /// Splits a matrix into position, rotation and scale. The second value is
    /// the shear (cosine of the angle between the axes, 0 for none), which
    /// SkelForm cannot show.
    pub fn from_matrix(m: Affine) -> (Trs, f64) {
        let [a, b, c, d, x, y] = m.to_array();
        let len_x = a.hypot(b);
        let len_y = c.hypot(d);
        if len_x < 1e-12 {
            // Collapsed x axis: take the rotation from the y axis.
            let rot = (-c).atan2(d);
            return (Trs { x, y, rot, sx: 0.0, sy: len_y }, 0.0);
        }
        let rot = b.atan2(a);
        let sy = m.determinant() / len_x;
        let shear = if len_y < 1e-12 { 0.0 } else { (a * c + b * d) / (len_x * len_y) };
        (Trs { x, y, rot, sx: len_x, sy }, shear)
    }

    /// The element of this transform a keyframe drives.
    pub fn get(&self, e: Element) -> f64 {
        match e {
            Element::PositionX => self.x,
            Element::PositionY => self.y,
            Element::Rotation => self.rot,
            Element::ScaleX => self.sx,
            Element::ScaleY => self.sy,
        }
    }

    /// Sets the element of this transform a keyframe drives.
    pub fn set(&mut self, e: Element, v: f64) {
        match e {
            Element::PositionX => self.x = v,
            Element::PositionY => self.y = v,
            Element::Rotation => self.rot = v,
            Element::ScaleX => self.sx = v,
            Element::ScaleY => self.sy = v,
        }
    }
}

/// The numeric bone elements of a SkelForm keyframe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Element {
    /// Local position x (`PositionX`).
    PositionX,
    /// Local position y (`PositionY`).
    PositionY,
    /// Local rotation in radians (`Rotation`).
    Rotation,
    /// Local scale x (`ScaleX`).
    ScaleX,
    /// Local scale y (`ScaleY`).
    ScaleY,
}

impl Element {
    /// All five elements; the exporter plans keys for each of them per bone.
    pub const ALL: [Element; 5] = [
        Element::PositionX,
        Element::PositionY,
        Element::Rotation,
        Element::ScaleX,
        Element::ScaleY,
    ];

    /// The element's name in `armature.json` (a constant of [`super::element`]).
    pub fn name(self) -> &'static str {
        use super::element::*;
        match self {
            Element::PositionX => POSITION_X,
            Element::PositionY => POSITION_Y,
            Element::Rotation => ROTATION,
            Element::ScaleX => SCALE_X,
            Element::ScaleY => SCALE_Y,
        }
    }
}

/// Whether a scale mirrors (exactly one axis negative): "facing left" in
/// SkelForm's runtimes.
pub fn facing_left(sx: f64, sy: f64) -> bool {
    (sx < 0.0) != (sy < 0.0)
}

/// A child's world transform from its parent's world and its local values,
/// as SkelForm's editor and skelform-js compute it.
pub fn child_world(parent: &Trs, local: &Trs) -> Trs {
    let (px, py) = (local.x * parent.sx, local.y * parent.sy);
    let (s, c) = parent.rot.sin_cos();
    Trs {
        x: parent.x + px * c - py * s,
        y: parent.y + px * s + py * c,
        rot: local.rot + parent.rot,
        sx: local.sx * parent.sx,
        sy: local.sy * parent.sy,
    }
}

/// The local values that put a child at `world` under `parent` (the inverse
/// of [`child_world`]). A collapsed parent axis takes a zero.
pub fn local_for(parent: &Trs, world: &Trs) -> Trs {
    let div = |a: f64, b: f64| if b == 0.0 { 0.0 } else { a / b };
    let (dx, dy) = (world.x - parent.x, world.y - parent.y);
    let (s, c) = parent.rot.sin_cos();
    let (ux, uy) = (dx * c + dy * s, -dx * s + dy * c);
    Trs {
        x: div(ux, parent.sx),
        y: div(uy, parent.sy),
        rot: world.rot - parent.rot,
        sx: div(world.sx, parent.sx),
        sy: div(world.sy, parent.sy),
    }
}

/// `parent.matrix() · local.matrix()` as position, rotation and scale, for a
/// parent whose scale is uniform in size or mirrors (what skelpad computes):
/// a mirror turns the child's rotation around.
pub fn compose(parent: &Trs, local: &Trs) -> Trs {
    let dir = if facing_left(parent.sx, parent.sy) { -1.0 } else { 1.0 };
    Trs { rot: dir * local.rot + parent.rot, ..child_world(parent, local) }
}

/// Wraps an angle difference into (-π, π].
pub fn wrap_angle(a: f64) -> f64 {
    let r = a.rem_euclid(TAU);
    if r > PI { r - TAU } else { r }
}

/// Handles of a straight line.
pub const LINEAR: (Handle, Handle) =
    (Handle { x: 1.0 / 3.0, y: 1.0 / 3.0 }, Handle { x: 2.0 / 3.0, y: 2.0 / 3.0 });
/// Handles of a step (hold the previous value).
pub const STEP: (Handle, Handle) =
    (Handle { x: 1.0 / 3.0, y: 999.0 }, Handle { x: 2.0 / 3.0, y: 999.0 });

/// Whether a key's handles mark a step (both y = 999): runtimes hold the
/// previous value until the key's frame.
pub fn is_step(h1: Handle, h2: Handle) -> bool {
    skelform_curve::is_step((h1.x, h1.y), (h2.x, h2.y))
}

/// Progress (0 at the start, 1 at the end) of a timing bezier at `x` in 0..1,
/// solved the way SkelForm's runtimes solve it (the runtime's own curve, in
/// `f64`).
pub fn bezier_progress(x: f64, h1: Handle, h2: Handle) -> f64 {
    skelform_curve::progress(x, (h1.x, h1.y), (h2.x, h2.y))
}

/// The value between two keyframes `current` frames after the first of a
/// span of `max` frames, with the second keyframe's handles.
pub fn interpolate(current: u32, max: u32, start: f64, end: f64, h1: Handle, h2: Handle) -> f64 {
    skelform_curve::interp(
        i64::from(current),
        i64::from(max),
        start,
        end,
        (h1.x, h1.y),
        (h2.x, h2.y),
    )
}

/// One keyframe of one element, as the exporter plans it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannedKey {
    /// The frame the key sits on.
    pub frame: u32,
    /// The element's value at that frame (radians for rotation).
    pub value: f64,
    /// The curve into this key.
    pub h1: Handle,
    /// The curve's second handle (see [`PlannedKey::h1`]).
    pub h2: Handle,
}

/// The value an element takes at `frame` in a runtime: `init` before the
/// first keyframe, the last value after the last one.
pub fn element_value(keys: &[PlannedKey], frame: u32, init: f64) -> f64 {
    let n = keys.partition_point(|k| k.frame <= frame);
    if n == 0 {
        return init;
    }
    let a = &keys[n - 1];
    match keys.get(n) {
        None => a.value,
        Some(b) => interpolate(frame - a.frame, b.frame - a.frame, a.value, b.value, b.h1, b.h2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn local_for_inverts_child_world() {
        let parents = [
            Trs { x: 3.0, y: -2.0, rot: 0.7, sx: 2.0, sy: 0.5 },
            Trs { x: 0.0, y: 1.0, rot: -2.0, sx: -1.5, sy: 1.0 },
            Trs { x: 5.0, y: 5.0, rot: 3.0, sx: -1.0, sy: -2.0 },
        ];
        let local = Trs { x: 10.0, y: -4.0, rot: 0.3, sx: 1.2, sy: -0.8 };
        for p in parents {
            let w = child_world(&p, &local);
            let back = local_for(&p, &w);
            for e in Element::ALL {
                assert!(close(back.get(e), local.get(e)), "{p:?} {e:?}: {back:?}");
            }
        }
    }

    #[test]
    fn compose_is_the_matrix_product_and_child_world_the_editors_rule() {
        // Uniform parent scale: both equal the plain product.
        let p = Trs { x: 3.0, y: -2.0, rot: 0.7, sx: 2.0, sy: 2.0 };
        let l = Trs { x: 10.0, y: -4.0, rot: 0.3, sx: 1.2, sy: 0.8 };
        let want = p.matrix() * l.matrix();
        for got in [compose(&p, &l).matrix(), child_world(&p, &l).matrix()] {
            for (g, w) in got.to_array().iter().zip(want.to_array()) {
                assert!((g - w).abs() < 1e-9);
            }
        }
        // A mirrored parent: the product turns the child's rotation around;
        // SkelForm's editor adds it, so the two differ unless it is 0.
        let p = Trs { x: 0.0, y: 0.0, rot: 0.4, sx: -1.0, sy: 1.0 };
        let want = p.matrix() * l.matrix();
        let got = compose(&p, &l).matrix();
        for (g, w) in got.to_array().iter().zip(want.to_array()) {
            assert!((g - w).abs() < 1e-9, "{got:?} {want:?}");
        }
        assert!((child_world(&p, &l).rot - (0.4 + 0.3)).abs() < 1e-12);
        let flat = Trs { rot: 0.0, ..l };
        assert_eq!(compose(&p, &flat), child_world(&p, &flat), "rotation 0: the rules agree");
    }

    #[test]
    fn from_matrix_round_trips_and_reports_shear() {
        let t = Trs { x: 1.0, y: 2.0, rot: -2.5, sx: 3.0, sy: -0.5 };
        let (back, shear) = Trs::from_matrix(t.matrix());
        assert!(shear.abs() < 1e-12);
        let (g, w) = (back.matrix().to_array(), t.matrix().to_array());
        assert!(g.iter().zip(w).all(|(a, b)| (a - b).abs() < 1e-12));
        let sheared = Affine::from_array([1.0, 0.0, 0.5, 1.0, 0.0, 0.0]);
        assert!(Trs::from_matrix(sheared).1.abs() > 0.1);
    }

    #[test]
    fn keyframes_hold_step_and_interpolate_like_the_runtime() {
        let (l1, l2) = LINEAR;
        let (s1, s2) = STEP;
        let keys = [
            PlannedKey { frame: 2, value: 10.0, h1: l1, h2: l2 },
            PlannedKey { frame: 6, value: 20.0, h1: l1, h2: l2 },
            PlannedKey { frame: 8, value: 0.0, h1: s1, h2: s2 },
        ];
        assert_eq!(element_value(&keys, 0, 5.0), 5.0, "init before the first key");
        assert_eq!(element_value(&keys, 2, 5.0), 10.0);
        assert!(close(element_value(&keys, 4, 5.0), 15.0));
        assert_eq!(element_value(&keys, 7, 5.0), 20.0, "a step holds");
        assert_eq!(element_value(&keys, 8, 5.0), 0.0, "and lands on its key");
        assert_eq!(element_value(&keys, 50, 5.0), 0.0, "the last value holds");
    }
}
