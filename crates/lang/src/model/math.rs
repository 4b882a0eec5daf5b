//! Small geometry types shared by every stage.

use std::f64::consts::{PI, TAU};
use std::ops::Mul;

pub use glam::{DAffine2, DVec2};

/// A 2×3 affine transform `[a b c d e f]` mapping `(x, y)` to
/// `(a·x + c·y + e, b·x + d·y + f)` (LANGUAGE.md §6): glam's [`DAffine2`]
/// (columns `x_axis = (a, b)`, `y_axis = (c, d)`, `translation = (e, f)`)
/// with the few rules this project adds. World space is y-up and angles
/// grow counterclockwise; an inverse of a transform that collapses space is
/// `None` (or [`Affine::ZERO`] through [`Affine::inverse_or_zero`]), never NaN.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[must_use]
pub struct Affine(pub DAffine2);

impl Affine {
    /// The transform that changes nothing.
    pub const IDENTITY: Affine = Affine(DAffine2::IDENTITY);
    /// The transform that maps everything to the origin (the inverse taken
    /// for a transform that has none).
    pub const ZERO: Affine = Affine(DAffine2::ZERO);

    /// `T(x, y)`.
    pub const fn translate(x: f64, y: f64) -> Self {
        Affine::from_cols(DVec2::X, DVec2::Y, DVec2::new(x, y))
    }

    /// `S(sx, sy)`.
    pub const fn scale(sx: f64, sy: f64) -> Self {
        Affine::from_cols(DVec2::new(sx, 0.0), DVec2::new(0.0, sy), DVec2::ZERO)
    }

    /// `R(angle)`, counterclockwise.
    pub fn rotate(angle_rad: f64) -> Self {
        Affine(DAffine2::from_angle(angle_rad))
    }

    /// `T(x, y) · R(rot) · S(sx, sy)`: the transform of an attachment or a
    /// bone's local frame without inheritance.
    pub fn trs(x: f64, y: f64, rot_rad: f64, sx: f64, sy: f64) -> Self {
        Affine(DAffine2::from_scale_angle_translation(
            DVec2::new(sx, sy),
            rot_rad,
            DVec2::new(x, y),
        ))
    }

    /// The transform with these columns: where `(1, 0)` and `(0, 1)` point,
    /// and where the origin goes.
    pub const fn from_cols(x_axis: DVec2, y_axis: DVec2, translation: DVec2) -> Self {
        Affine(DAffine2::from_cols(x_axis, y_axis, translation))
    }

    /// From `[a, b, c, d, e, f]`.
    pub const fn from_array(m: [f64; 6]) -> Self {
        Affine::from_cols(DVec2::new(m[0], m[1]), DVec2::new(m[2], m[3]), DVec2::new(m[4], m[5]))
    }

    /// As `[a, b, c, d, e, f]`.
    pub const fn to_array(self) -> [f64; 6] {
        let ([a, b], [c, d], [e, f]) =
            (self.x_axis().to_array(), self.y_axis().to_array(), self.translation().to_array());
        [a, b, c, d, e, f]
    }

    /// Where `(1, 0)` points: `(a, b)`.
    pub const fn x_axis(self) -> DVec2 {
        self.0.matrix2.x_axis
    }

    /// Where `(0, 1)` points: `(c, d)`.
    pub const fn y_axis(self) -> DVec2 {
        self.0.matrix2.y_axis
    }

    /// Where the origin goes: `(e, f)`.
    pub const fn translation(self) -> DVec2 {
        self.0.translation
    }

    /// The same transform without its translation.
    pub const fn linear(self) -> Self {
        Affine::from_cols(self.x_axis(), self.y_axis(), DVec2::ZERO)
    }

    /// `self · rhs`: apply `rhs` first, then `self`.
    pub fn then_inner(self, rhs: Affine) -> Affine {
        Affine(self.0 * rhs.0)
    }

    /// Maps a point.
    pub fn apply(self, x: f64, y: f64) -> (f64, f64) {
        self.0.transform_point2(DVec2::new(x, y)).into()
    }

    /// Maps a direction (no translation).
    pub fn apply_vector(self, x: f64, y: f64) -> (f64, f64) {
        self.0.transform_vector2(DVec2::new(x, y)).into()
    }

    /// `a·d − b·c`: the signed area scale (negative when mirrored).
    pub fn determinant(self) -> f64 {
        self.0.matrix2.determinant()
    }

    /// The inverse, or `None` when the transform collapses space (glam
    /// would return NaN or infinities there).
    pub fn inverse(self) -> Option<Affine> {
        let det = self.determinant();
        if det.abs() < 1e-12 || !det.is_finite() {
            return None;
        }
        Some(Affine(self.0.inverse()))
    }

    /// The inverse, or [`Affine::ZERO`] when the transform collapses space,
    /// so that what depends on it collapses too (LANGUAGE.md §6 **\[differs\]**).
    pub fn inverse_or_zero(self) -> Affine {
        self.inverse().unwrap_or(Affine::ZERO)
    }

    /// Whether every entry is finite.
    pub fn is_finite(self) -> bool {
        self.0.is_finite()
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

/// Linear interpolation: `a` at `t = 0`, `b` at `t = 1`, extrapolating
/// outside 0..1 (overshooting curves rely on that). Used for every numeric
/// channel that is not an angle taken the shorter way round.
pub fn lerp(a: f64, b: f64, t: f64) -> f64 {
    a + (b - a) * t
}

/// An RGBA color with channels in 0..1, not premultiplied (alpha may exceed
/// 1 in timelines, where colors are used as written; the renderer clamps
/// every channel into 0..1 only when it draws).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Color {
    /// Red, 0..1.
    pub r: f64,
    /// Green, 0..1.
    pub g: f64,
    /// Blue, 0..1.
    pub b: f64,
    /// Opacity, 0 (invisible) to 1 (opaque); the other channels are not
    /// multiplied by it.
    pub a: f64,
}

impl Color {
    /// Opaque white: the default slot color, which leaves what it tints unchanged.
    pub const WHITE: Color = Color { r: 1.0, g: 1.0, b: 1.0, a: 1.0 };
    /// Opaque black: the default fill and stroke of shapes (LANGUAGE.md §2.2).
    pub const BLACK: Color = Color { r: 0.0, g: 0.0, b: 0.0, a: 1.0 };
    /// The default bone color (LANGUAGE.md §2).
    pub const DEFAULT_BONE: Color = Color { r: 1.0, g: 0.8, b: 0.0, a: 1.0 };

    /// A color from its channels, taken as given (no clamping).
    pub const fn new(r: f64, g: f64, b: f64, a: f64) -> Self {
        Color { r, g, b, a }
    }

    /// Channel-wise product (used for slot tint × attachment color).
    pub fn tint(self, other: Color) -> Color {
        Color::new(self.r * other.r, self.g * other.g, self.b * other.b, self.a * other.a)
    }

    /// As `[r, g, b, a]`.
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
    fn array_layout_is_a_b_c_d_e_f() {
        // (x, y) ↦ (a·x + c·y + e, b·x + d·y + f), worked by hand.
        let m = Affine::from_array([2.0, 3.0, 5.0, 7.0, 11.0, 13.0]);
        assert_eq!(m.apply(1.0, 10.0), (2.0 + 50.0 + 11.0, 3.0 + 70.0 + 13.0));
        assert_eq!(m.apply_vector(1.0, 10.0), (52.0, 73.0));
        assert_eq!(m.to_array(), [2.0, 3.0, 5.0, 7.0, 11.0, 13.0]);
        assert_eq!(
            (m.x_axis(), m.y_axis(), m.translation()),
            (DVec2::new(2.0, 3.0), DVec2::new(5.0, 7.0), DVec2::new(11.0, 13.0))
        );
        assert_eq!(m.linear().to_array(), [2.0, 3.0, 5.0, 7.0, 0.0, 0.0]);
        assert_eq!(m.determinant(), 2.0 * 7.0 - 3.0 * 5.0);
        assert_eq!(Affine::translate(4.0, -1.0).apply(1.0, 2.0), (5.0, 1.0));
        assert_eq!(Affine::scale(2.0, -3.0).apply(1.0, 2.0), (2.0, -6.0));
    }

    #[test]
    fn trs_is_translate_rotate_scale_and_counterclockwise() {
        let (x, y) = Affine::rotate(PI / 2.0).apply(1.0, 0.0);
        assert!(close(x, 0.0) && close(y, 1.0), "a quarter turn takes +x to +y (y up)");
        let m = Affine::trs(3.0, -2.0, 0.7, 2.0, 0.5);
        let composed = Affine::translate(3.0, -2.0) * Affine::rotate(0.7) * Affine::scale(2.0, 0.5);
        assert!(m.to_array().iter().zip(composed.to_array()).all(|(a, b)| close(*a, b)));
    }

    #[test]
    fn a_collapsed_transform_has_no_inverse_and_zero_stands_in() {
        for m in [
            Affine::scale(0.0, 1.0),
            Affine::scale(1e-7, 1e-7),
            Affine::from_array([f64::NAN, 0.0, 0.0, 1.0, 0.0, 0.0]),
        ] {
            assert!(m.inverse().is_none(), "{m:?}");
            assert_eq!(m.inverse_or_zero(), Affine::ZERO);
        }
        assert_eq!(Affine::ZERO.apply(5.0, -3.0), (0.0, 0.0));
        let m = Affine::trs(1.0, 2.0, -0.3, -1.5, 4.0);
        let round = m * m.inverse_or_zero();
        assert!(
            round.to_array().iter().zip(Affine::IDENTITY.to_array()).all(|(a, b)| close(*a, b))
        );
        assert_eq!(Affine::default(), Affine::IDENTITY);
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
