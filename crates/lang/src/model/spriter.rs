//! Model types that exist for Spriter files (`.scml`/`.scon`): its easing
//! curves and bone alpha. How they are played is in `runtime` (the
//! [`Composition::Spriter`](super::Composition) branch).
//!
//! How Spriter files map onto the model (`formats::spriter` builds it):
//! `Skeleton::composition` is `Composition::Spriter`; instant and linear
//! curves are stepped and linear, the others `Curve::Spriter` (computed as
//! SpriterPlusPlus does, its bezier solver's 1/200 tolerance included);
//! mainline keys are the animation's `draw_order` channel (slots not listed
//! are hidden) and its `time_warp` (mainline curves); bone alpha is
//! `Animation::bone_alpha`; a parent that changes between mainline keys or
//! animations is a `parents` channel; sprites carry their pivot; character
//! maps are skins.

use super::{BoneId, Key};

/// Spriter's curve types other than instant and linear, computed exactly as
/// SpriterPlusPlus does (global/global.h, timeinfo/*.cpp): the polynomial
/// ones are 1-D Bézier curves from 0 to 1 through the control values `c`;
/// `Bezier` is a CSS cubic-bezier(c1, c2, c3, c4) timing curve solved for x
/// by 8 Newton steps, then bisection, both stopping within 1/200.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpriterCurve {
    /// Which curve; says how many of `c` are used.
    pub kind: SpriterCurveKind,
    /// c1..c4 (unused ones are 0).
    pub c: [f64; 4],
}

/// Spriter's `curve_type` values that need control values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpriterCurveKind {
    /// Bézier of degree 2 through 0, `c1`, 1.
    Quadratic,
    /// Bézier of degree 3 through 0, `c1`, `c2`, 1.
    Cubic,
    /// Bézier of degree 4 through 0, `c1`, `c2`, `c3`, 1.
    Quartic,
    /// Bézier of degree 5 through 0, `c1` … `c4`, 1.
    Quintic,
    /// CSS timing curve with handles (`c1`, `c2`) and (`c3`, `c4`).
    Bezier,
}

impl SpriterCurveKind {
    /// The name the files use (`curve_type`).
    pub fn name(self) -> &'static str {
        match self {
            SpriterCurveKind::Quadratic => "quadratic",
            SpriterCurveKind::Cubic => "cubic",
            SpriterCurveKind::Quartic => "quartic",
            SpriterCurveKind::Quintic => "quintic",
            SpriterCurveKind::Bezier => "bezier",
        }
    }
}

fn lin(a: f64, b: f64, t: f64) -> f64 {
    (b - a) * t + a
}
fn quadratic(a: f64, b: f64, c: f64, t: f64) -> f64 {
    lin(lin(a, b, t), lin(b, c, t), t)
}
fn cubic(a: f64, b: f64, c: f64, d: f64, t: f64) -> f64 {
    lin(quadratic(a, b, c, t), quadratic(b, c, d, t), t)
}
fn quartic(a: f64, b: f64, c: f64, d: f64, e: f64, t: f64) -> f64 {
    lin(cubic(a, b, c, d, t), cubic(b, c, d, e, t), t)
}
fn quintic(a: f64, b: f64, c: f64, d: f64, e: f64, f: f64, t: f64) -> f64 {
    lin(quartic(a, b, c, d, e, t), quartic(b, c, d, e, f, t), t)
}

impl SpriterCurve {
    /// Progress at ratio `t` (0..1 within the key's span).
    pub fn progress(self, t: f64) -> f64 {
        let [c1, c2, c3, c4] = self.c;
        match self.kind {
            SpriterCurveKind::Quadratic => quadratic(0.0, c1, 1.0, t),
            SpriterCurveKind::Cubic => cubic(0.0, c1, c2, 1.0, t),
            SpriterCurveKind::Quartic => quartic(0.0, c1, c2, c3, 1.0, t),
            SpriterCurveKind::Quintic => quintic(0.0, c1, c2, c3, c4, 1.0, t),
            SpriterCurveKind::Bezier => css_bezier(c1, c2, c3, c4, t),
        }
    }

    /// The same curve as a cubic-bezier timing curve when there is an exact
    /// one: quadratic and cubic (x handles at 1/3 and 2/3).
    pub fn as_bezier(self) -> Option<(f64, f64, f64, f64)> {
        let [c1, c2, ..] = self.c;
        match self.kind {
            SpriterCurveKind::Quadratic => {
                Some((1.0 / 3.0, 2.0 * c1 / 3.0, 2.0 / 3.0, (2.0 * c1 + 1.0) / 3.0))
            }
            SpriterCurveKind::Cubic => Some((1.0 / 3.0, c1, 2.0 / 3.0, c2)),
            _ => None,
        }
    }
}

/// SpriterPlusPlus's cubic-bezier solver (timeinfo/beziereasingcurve.cpp),
/// step for step, including its tolerance of 1/200 in x; the bisection is
/// bounded.
fn css_bezier(x1: f64, y1: f64, x2: f64, y2: f64, x: f64) -> f64 {
    let cx = 3.0 * x1;
    let bx = 3.0 * (x2 - x1) - cx;
    let ax = 1.0 - cx - bx;
    let cy = 3.0 * y1;
    let by = 3.0 * (y2 - y1) - cy;
    let ay = 1.0 - cy - by;
    let sample = |a: f64, b: f64, c: f64, t: f64| ((a * t + b) * t + c) * t;
    let deriv = |t: f64| (3.0 * ax * t + 2.0 * bx) * t + cx;
    let eps = 1.0 / 200.0;
    let solve_x = || {
        let mut t2 = x;
        for _ in 0..8 {
            let x2 = sample(ax, bx, cx, t2) - x;
            if x2.abs() < eps {
                return t2;
            }
            let d2 = deriv(t2);
            if d2.abs() < 1e-6 {
                break;
            }
            t2 -= x2 / d2;
        }
        let (mut t0, mut t1) = (0.0, 1.0);
        t2 = x;
        if t2 < t0 {
            return t0;
        }
        if t2 > t1 {
            return t1;
        }
        for _ in 0..200 {
            if t0 >= t1 {
                break;
            }
            let x2 = sample(ax, bx, cx, t2);
            if (x2 - x).abs() < eps {
                return t2;
            }
            if x > x2 {
                t0 = t2;
            } else {
                t1 = t2;
            }
            t2 = (t1 - t0) * 0.5 + t0;
        }
        t2
    };
    sample(ay, by, cy, solve_x())
}

/// Absolute bone alpha (Spriter's `a` on bone keys). Under
/// `Composition::Spriter` a bone's alpha multiplies its children's and the
/// alpha of the slots on it.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneAlphaChannel {
    /// The bone whose alpha is keyed.
    pub bone: BoneId,
    /// Alpha 0..1 over time, sorted by time.
    pub keys: Vec<Key<f64>>,
}

/// A bone's parent changing during an animation (Spriter's mainline keys
/// may hang an object from another bone), stepped. Only played under
/// `Composition::Spriter`; a parent must come before the bone in
/// [`Skeleton::bones`](super::Skeleton::bones), else the bone hangs from
/// the root.
#[derive(Clone, Debug, PartialEq)]
pub struct ParentChannel {
    /// The bone whose parent changes.
    pub bone: BoneId,
    /// The parent from each key's time on (`None`: the root), sorted by time.
    pub keys: Vec<Key<Option<BoneId>>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polynomial_curves_end_at_zero_and_one() {
        for kind in [
            SpriterCurveKind::Quadratic,
            SpriterCurveKind::Cubic,
            SpriterCurveKind::Quartic,
            SpriterCurveKind::Quintic,
        ] {
            let c = SpriterCurve { kind, c: [0.3, 0.9, 0.1, 0.7] };
            assert!(
                c.progress(0.0).abs() < 1e-12 && (c.progress(1.0) - 1.0).abs() < 1e-12,
                "{kind:?}"
            );
        }
        // Quadratic with c1 = 0.5 is the identity; c1 = 0 is t².
        let q = |c1| SpriterCurve { kind: SpriterCurveKind::Quadratic, c: [c1, 0.0, 0.0, 0.0] };
        assert!((q(0.5).progress(0.3) - 0.3).abs() < 1e-12);
        assert!((q(0.0).progress(0.3) - 0.09).abs() < 1e-12);
    }

    #[test]
    fn quadratic_and_cubic_are_exact_timing_beziers() {
        for (kind, c) in [
            (SpriterCurveKind::Quadratic, [0.8, 0.0, 0.0, 0.0]),
            (SpriterCurveKind::Cubic, [0.995, 0.1, 0.0, 0.0]),
        ] {
            let sc = SpriterCurve { kind, c };
            let (x1, y1, x2, y2) = sc.as_bezier().unwrap();
            let b = super::super::Curve::bezier(x1, y1, x2, y2);
            for i in 0..=20 {
                let t = f64::from(i) / 20.0;
                assert!((b.progress(t) - sc.progress(t)).abs() < 1e-9, "{kind:?} at {t}");
            }
        }
    }

    #[test]
    fn bezier_stops_within_spriters_tolerance() {
        let b = SpriterCurve {
            kind: SpriterCurveKind::Bezier,
            c: [0.4003, 0.995261, 0.8654, 0.161137],
        };
        // Linear handles give the identity within 1/200.
        let lin = SpriterCurve { kind: SpriterCurveKind::Bezier, c: [0.25, 0.25, 0.75, 0.75] };
        for i in 0..=10 {
            let t = f64::from(i) / 10.0;
            assert!((lin.progress(t) - t).abs() < 0.006);
            assert!(b.progress(t).is_finite());
        }
        assert!(b.progress(f64::NAN).is_nan() || b.progress(f64::NAN).is_finite());
    }
}
