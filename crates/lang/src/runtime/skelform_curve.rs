//! SkelForm's timing curve (its `src/utils.rs`: `interp`), written once for
//! both widths skelpad needs: `f32`, as SkelForm's editor and runtimes
//! compute it (the SkelForm composition in [`super::skelform`]), and `f64`,
//! where the `.skf` exporter predicts what those runtimes will show before it
//! chooses keys.
//!
//! The curve is a cubic bezier from (0, 0) to (1, 1) with two handles; the
//! progress at time `x` is found by five Newton steps from `t = x` (stopping
//! early where the slope is under 1e-5), each clamped to 0..1. Both handles'
//! y = 999 mark a step: the start value holds until the next key.

use std::ops::{Add, Div, Mul, Sub};

/// The two float widths the curve is computed in. Written here rather than
/// taken from `num-traits`: the curve needs five constants and three
/// operations, and `num-traits`' casts return `Option`s.
pub trait CurveFloat:
    Copy
    + PartialEq
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
{
    /// 0.
    const ZERO: Self;
    /// 1.
    const ONE: Self;
    /// The handles' y that marks a step.
    const STEP_Y: Self;
    /// The slope under which Newton's steps stop.
    const FLAT: Self;
    /// `v` in this width.
    fn from_i64(v: i64) -> Self;
    /// `|self|`.
    fn abs(self) -> Self;
}

macro_rules! curve_float {
    ($t:ty) => {
        impl CurveFloat for $t {
            const ZERO: $t = 0.0;
            const ONE: $t = 1.0;
            const STEP_Y: $t = 999.0;
            const FLAT: $t = 1e-5;
            fn from_i64(v: i64) -> $t {
                v as $t
            }
            fn abs(self) -> $t {
                <$t>::abs(self)
            }
        }
    };
}
curve_float!(f32);
curve_float!(f64);

/// Whether handles `(x, y)` mark a step (both y = 999).
pub fn is_step<F: CurveFloat>(h1: (F, F), h2: (F, F)) -> bool {
    h1.1 == F::STEP_Y && h2.1 == F::STEP_Y
}

/// The bezier's coordinate at parameter `t` for handle coordinates `p1`, `p2`.
fn cubic<F: CurveFloat>(t: F, p1: F, p2: F) -> F {
    let three = F::ONE + F::ONE + F::ONE;
    let u = F::ONE - t;
    three * u * u * t * p1 + three * u * t * t * p2 + t * t * t
}

/// Its derivative in `t`.
fn cubic_slope<F: CurveFloat>(t: F, p1: F, p2: F) -> F {
    let three = F::ONE + F::ONE + F::ONE;
    let u = F::ONE - t;
    three * u * u * p1 + (three + three) * u * t * (p2 - p1) + three * t * t * (F::ONE - p2)
}

/// The progress (0 at the start, 1 at the end; may overshoot) at time `x`
/// in 0..1, solved as SkelForm's runtimes solve it.
pub fn progress<F: CurveFloat>(x: F, h1: (F, F), h2: (F, F)) -> F {
    let mut t = x;
    for _ in 0..5 {
        let dx = cubic_slope(t, h1.0, h2.0);
        if dx.abs() < F::FLAT {
            break;
        }
        t = t - (cubic(t, h1.0, h2.0) - x) / dx;
        t = if t < F::ZERO {
            F::ZERO
        } else if t > F::ONE {
            F::ONE
        } else {
            t
        };
    }
    cubic(t, h1.1, h2.1)
}

/// SkelForm's `interp`: the value `current` frames into a segment of `max`
/// frames from `start` to `end`, through the curve with these handles.
pub fn interp<F: CurveFloat>(
    current: i64,
    max: i64,
    start: F,
    end: F,
    h1: (F, F),
    h2: (F, F),
) -> F {
    if is_step(h1, h2) {
        return start;
    }
    if max == 0 || current >= max {
        return end;
    }
    start + (end - start) * progress(F::from_i64(current) / F::from_i64(max), h1, h2)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The straight handles (1/3, 1/3), (2/3, 2/3) give x(t) = t, so the
    /// progress is the time itself, in both widths.
    #[test]
    fn straight_handles_are_linear() {
        for i in 0..=10 {
            let x = f64::from(i) / 10.0;
            let p = progress(x, (1.0 / 3.0, 1.0 / 3.0), (2.0 / 3.0, 2.0 / 3.0));
            assert!((p - x).abs() < 1e-12, "{x}: {p}");
            let p32 = progress(x as f32, (1.0 / 3.0, 1.0 / 3.0), (2.0 / 3.0, 2.0 / 3.0));
            assert!((p32 - x as f32).abs() < 1e-6, "{x}: {p32}");
        }
    }

    /// A step holds the start; the segment's end and an empty segment give
    /// the end value.
    #[test]
    fn steps_and_ends() {
        assert_eq!(interp(3, 10, 1.0, 5.0, (0.3, 999.0), (0.6, 999.0)), 1.0);
        assert_eq!(interp(10, 10, 1.0, 5.0, (0.3, 0.1), (0.6, 0.9)), 5.0);
        assert_eq!(interp(0, 0, 1.0_f32, 5.0, (0.3, 0.1), (0.6, 0.9)), 5.0);
    }

    /// An ease-in-out curve (0.42, 0), (0.58, 1): by symmetry the midpoint is
    /// 0.5, and progress at 0.25 matches the CSS curve's known value
    /// 0.1291 (to the four digits the five Newton steps reach).
    #[test]
    fn ease_in_out_values() {
        let (h1, h2) = ((0.42, 0.0), (0.58, 1.0));
        assert!((progress(0.5_f64, h1, h2) - 0.5).abs() < 1e-9);
        assert!((progress(0.25_f64, h1, h2) - 0.1291).abs() < 1e-3);
    }
}
