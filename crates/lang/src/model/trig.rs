//! Sine and cosine for the pose loop.
//!
//! Evaluating a pose calls sine and cosine once per bone whose rotation
//! changed and once per eased key segment, at a new time every frame, so
//! their cost is a large part of a pose (`benches/styles.rs`). These
//! versions reduce the angle to a quarter turn around zero (Cody–Waite, with
//! π/2 split in two parts) and evaluate the Taylor series of both functions
//! there, without tables. Over the range they
//! accept they differ from the standard library by at most 2⁻⁵² (the
//! tests measure it); outside it (|x| > 10⁵ rad, or not finite)
//! they call the standard library.
//!
//! There is no stable-Rust crate for this: `libm` ports the same algorithms
//! as the platform library (no faster), and `sleef` needs a nightly compiler.
//! Multiply and add are written out: without a target feature, `mul_add`
//! is a library call.

/// Beyond this magnitude the two-part reduction loses accuracy; such angles
/// go to the standard library.
const REDUCE_LIMIT: f64 = 1.0e5;

/// 1.5 · 2⁵²: adding it leaves no fraction bits.
const ROUNDER: f64 = 6_755_399_441_055_744.0;
/// 2/π.
const TWO_OVER_PI: f64 = std::f64::consts::FRAC_2_PI;
/// The first 33 bits of π/2 (a multiple of it by a quadrant count below
/// 2²⁰ is exact in a double).
const PIO2_HI: f64 = 1.570_796_326_734_125_6;
/// π/2 − [`PIO2_HI`], to double precision.
const PIO2_LO: f64 = 6.077_100_506_506_192e-11;

/// Taylor coefficients of sin r / r in r²: (−1)ᵏ / (2k + 1)!, k = 1..7.
const SIN: [f64; 7] = [
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362_880.0,
    -1.0 / 39_916_800.0,
    1.0 / 6_227_020_800.0,
    -1.0 / 1_307_674_368_000.0,
];

/// Taylor coefficients of cos r in r²: (−1)ᵏ / (2k)!, k = 1..8.
const COS: [f64; 8] = [
    -1.0 / 2.0,
    1.0 / 24.0,
    -1.0 / 720.0,
    1.0 / 40_320.0,
    -1.0 / 3_628_800.0,
    1.0 / 479_001_600.0,
    -1.0 / 87_178_291_200.0,
    1.0 / 20_922_789_888_000.0,
];

/// Sine of `r` for |r| ≤ π/4 (truncation error below 5 · 10⁻¹⁷). The
/// polynomial in `z = r²` is evaluated in pairs of terms (Estrin's scheme)
/// rather than one term after another: the same products, a shorter chain
/// of dependent operations.
fn kernel_sin(r: f64) -> f64 {
    let z = r * r;
    let (z2, s) = (z * z, &SIN);
    let z4 = z2 * z2;
    let p = (s[0] + s[1] * z) + z2 * (s[2] + s[3] * z) + z4 * ((s[4] + s[5] * z) + z2 * s[6]);
    r + (r * z) * p
}

/// Cosine of `r` for |r| ≤ π/4 (truncation error below 3 · 10⁻¹⁸), by
/// Estrin's scheme as [`kernel_sin`].
fn kernel_cos(r: f64) -> f64 {
    let z = r * r;
    let (z2, c) = (z * z, &COS);
    let z4 = z2 * z2;
    let p = (c[0] + c[1] * z)
        + z2 * (c[2] + c[3] * z)
        + z4 * ((c[4] + c[5] * z) + z2 * (c[6] + c[7] * z));
    1.0 + z * p
}

/// `x` as `r + q·π/2` with |r| ≤ π/4 (and a little), or `None` when `x` is
/// too large or not finite.
fn reduce(x: f64) -> Option<(f64, i64)> {
    if x.abs() > REDUCE_LIMIT || !x.is_finite() {
        return None;
    }
    // Rounds to the nearest integer by adding and removing 1.5 · 2⁵² (exact
    // for |x · 2/π| < 2⁵¹; `f64::round` is a library call on baseline x86-64).
    let k = (x * TWO_OVER_PI + ROUNDER) - ROUNDER;
    let r = (x - k * PIO2_HI) - k * PIO2_LO;
    // |k| ≤ 10⁵ · 2/π, so the cast is exact.
    #[allow(clippy::cast_possible_truncation, reason = "|k| < 65 000")]
    Some((r, k as i64))
}

/// `(sin x, cos x)`.
pub fn sin_cos(x: f64) -> (f64, f64) {
    let Some((r, q)) = reduce(x) else { return x.sin_cos() };
    let (s, c) = (kernel_sin(r), kernel_cos(r));
    match q & 3 {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// `sin x`.
pub fn sin(x: f64) -> f64 {
    let Some((r, q)) = reduce(x) else { return x.sin() };
    match q & 3 {
        0 => kernel_sin(r),
        1 => kernel_cos(r),
        2 => -kernel_sin(r),
        _ => -kernel_cos(r),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The largest difference from the standard library over `xs`, in units
    /// of 2⁻⁵² (absolute).
    fn worst(xs: impl Iterator<Item = f64>) -> f64 {
        let mut worst: f64 = 0.0;
        for x in xs {
            let (s, c) = sin_cos(x);
            let scale = f64::EPSILON;
            worst = worst.max((s - x.sin()).abs() / scale);
            worst = worst.max((c - x.cos()).abs() / scale);
            worst = worst.max((sin(x) - x.sin()).abs() / scale);
        }
        worst
    }

    #[test]
    fn agrees_with_the_standard_library_on_angles_a_rig_uses() {
        // Every 1/1000 of a degree within ±4 turns, and quarter-turn edges.
        let fine = (-1_440_000..=1_440_000).map(|i| f64::from(i) * 1e-3_f64.to_radians());
        let fine = worst(fine);
        assert!(fine <= 1.0, "{fine} units");
        let edges = (-16..=16).flat_map(|q| {
            let e = f64::from(q) * std::f64::consts::FRAC_PI_2;
            [e, e.next_up(), e.next_down(), e + 1e-9, e - 1e-9]
        });
        let edges = worst(edges);
        assert!(edges <= 1.0, "{edges} units");
    }

    #[test]
    fn stays_close_up_to_the_reduction_limit_and_hands_over_beyond() {
        // A scattered sweep up to 10⁵ rad: the reduction's error grows with
        // the quadrant count, still within one unit of 2⁻⁵² absolute.
        let far = worst((0..200_000).map(|i| f64::from(i) * 0.499_999_7 + 0.1));
        assert!(far <= 1.0, "{far} units");
        for x in [1e5 + 1.0, -3e7, 1e300, f64::INFINITY, f64::NAN] {
            let (s, c) = sin_cos(x);
            assert_eq!(s.to_bits(), x.sin().to_bits(), "{x}");
            assert_eq!(c.to_bits(), x.cos().to_bits(), "{x}");
            assert_eq!(sin(x).to_bits(), x.sin().to_bits(), "{x}");
        }
    }

    #[test]
    fn tiny_angles_keep_their_relative_precision() {
        for x in [1e-300, -1e-200, 1e-20, 1e-8, 0.0, -0.0] {
            assert_eq!(sin(x), x, "{x}");
            assert_eq!(sin_cos(x), (x, 1.0), "{x}");
        }
    }
}
