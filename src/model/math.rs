//! Small geometry types shared by every stage.

#![allow(missing_docs, reason = "issue 9: public items here still need doc comments")]

use std::f64::consts::{PI, TAU};
use std::ops::Mul;

/// A 2×3 affine transform `[a b c d e f]` mapping `(x, y)` to
/// `(a·x + c·y + e, b·x + d·y + f)` (LANGUAGE.md §6). World space is y-up and
/// angles grow counterclockwise.
#[derive(Clone, Copy, Debug, PartialEq)]
#[must_use]
pub struct Affine {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub e: f64,
    pub f: f64,
}

impl Default for Affine {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Affine {
    pub const IDENTITY: Affine = Affine { a: 1.0, b: 0.0, c: 0.0, d: 1.0, e: 0.0, f: 0.0 };

    /// `T(x, y)`.
    pub const fn translate(x: f64, y: f64) -> Self {
        Affine { a: 1.0, b: 0.0, c: 0.0, d: 1.0, e: x, f: y }
    }

    /// `S(sx, sy)`.
    pub const fn scale(sx: f64, sy: f64) -> Self {
        Affine { a: sx, b: 0.0, c: 0.0, d: sy, e: 0.0, f: 0.0 }
    }

    /// `R(angle)`, counterclockwise.
    pub fn rotate(angle_rad: f64) -> Self {
        let (s, c) = angle_rad.sin_cos();
        Affine { a: c, b: s, c: -s, d: c, e: 0.0, f: 0.0 }
    }

    /// `T(x, y) · R(rot) · S(sx, sy)`: the transform of an attachment or a
    /// bone's local frame without inheritance.
    pub fn trs(x: f64, y: f64, rot_rad: f64, sx: f64, sy: f64) -> Self {
        let (s, c) = rot_rad.sin_cos();
        Affine { a: c * sx, b: s * sx, c: -s * sy, d: c * sy, e: x, f: y }
    }

    pub fn from_array(m: [f64; 6]) -> Self {
        Affine { a: m[0], b: m[1], c: m[2], d: m[3], e: m[4], f: m[5] }
    }

    pub fn to_array(self) -> [f64; 6] {
        [self.a, self.b, self.c, self.d, self.e, self.f]
    }

    /// `self · rhs`: apply `rhs` first, then `self`.
    pub fn then_inner(self, rhs: Affine) -> Affine {
        Affine {
            a: self.a * rhs.a + self.c * rhs.b,
            b: self.b * rhs.a + self.d * rhs.b,
            c: self.a * rhs.c + self.c * rhs.d,
            d: self.b * rhs.c + self.d * rhs.d,
            e: self.a * rhs.e + self.c * rhs.f + self.e,
            f: self.b * rhs.e + self.d * rhs.f + self.f,
        }
    }

    /// Maps a point.
    pub fn apply(self, x: f64, y: f64) -> (f64, f64) {
        (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)
    }

    /// Maps a direction (no translation).
    pub fn apply_vector(self, x: f64, y: f64) -> (f64, f64) {
        (self.a * x + self.c * y, self.b * x + self.d * y)
    }

    pub fn determinant(self) -> f64 {
        self.a * self.d - self.b * self.c
    }

    /// The inverse, or `None` when the transform collapses space.
    pub fn inverse(self) -> Option<Affine> {
        let det = self.determinant();
        if det.abs() < 1e-12 || !det.is_finite() {
            return None;
        }
        let inv = 1.0 / det;
        Some(Affine {
            a: self.d * inv,
            b: -self.b * inv,
            c: -self.c * inv,
            d: self.a * inv,
            e: (self.c * self.f - self.d * self.e) * inv,
            f: (self.b * self.e - self.a * self.f) * inv,
        })
    }

    pub fn is_finite(self) -> bool {
        self.to_array().iter().all(|v| v.is_finite())
    }
}

impl Mul for Affine {
    type Output = Affine;
    fn mul(self, rhs: Affine) -> Affine {
        self.then_inner(rhs)
    }
}

/// Wraps an angle into [-π, π] the way the original tool does (repeated
/// subtraction, so ±π stay as they are).
pub fn normalize_angle(mut angle_rad: f64) -> f64 {
    if !angle_rad.is_finite() {
        return 0.0;
    }
    if angle_rad.abs() > 64.0 * TAU {
        angle_rad %= TAU;
    }
    while angle_rad > PI {
        angle_rad -= TAU;
    }
    while angle_rad < -PI {
        angle_rad += TAU;
    }
    angle_rad
}

/// Interpolates between two angles the shorter way round (LANGUAGE.md §5.2).
pub fn lerp_angle(a: f64, b: f64, t: f64) -> f64 {
    let mut a = normalize_angle(a);
    let mut b = normalize_angle(b);
    if (a - b).abs() < PI {
        return a + (b - a) * t;
    }
    if a < b {
        a += TAU;
    } else {
        b += TAU;
    }
    normalize_angle(a + (b - a) * t)
}

pub fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// An RGBA color with channels in 0..1 (alpha may exceed 1 in timelines,
/// where colors are used as written).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Color {
    pub r: f64,
    pub g: f64,
    pub b: f64,
    pub a: f64,
}

impl Color {
    pub const WHITE: Color = Color { r: 1.0, g: 1.0, b: 1.0, a: 1.0 };
    pub const BLACK: Color = Color { r: 0.0, g: 0.0, b: 0.0, a: 1.0 };
    /// The default bone color (LANGUAGE.md §2).
    pub const DEFAULT_BONE: Color = Color { r: 1.0, g: 0.8, b: 0.0, a: 1.0 };

    pub const fn new(r: f64, g: f64, b: f64, a: f64) -> Self {
        Color { r, g, b, a }
    }

    /// Channel-wise product (used for slot tint × attachment color).
    pub fn tint(self, other: Color) -> Color {
        Color::new(self.r * other.r, self.g * other.g, self.b * other.b, self.a * other.a)
    }

    pub fn to_array(self) -> [f64; 4] {
        [self.r, self.g, self.b, self.a]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn inverse_undoes_transform() {
        let m = Affine::trs(3.0, -2.0, 0.7, 2.0, 0.5);
        let inv = m.inverse().expect("invertible");
        let (x, y) = m.apply(5.0, 7.0);
        let (bx, by) = inv.apply(x, y);
        assert!(close(bx, 5.0) && close(by, 7.0));
        assert!(Affine::scale(0.0, 1.0).inverse().is_none());
    }

    #[test]
    fn composition_order_applies_right_first() {
        let t = Affine::translate(10.0, 0.0);
        let r = Affine::rotate(PI / 2.0);
        let (x, y) = (t * r).apply(1.0, 0.0);
        assert!(close(x, 10.0) && close(y, 1.0));
    }

    #[test]
    fn angles_wrap_and_take_the_short_way() {
        assert!(close(normalize_angle(3.0 * PI / 2.0), -PI / 2.0));
        assert!(close(normalize_angle(PI), PI));
        // From 170° to -170° the short way passes through 180°.
        let mid = lerp_angle(170f64.to_radians(), -170f64.to_radians(), 0.5);
        assert!(close(mid.abs(), PI));
    }
}
