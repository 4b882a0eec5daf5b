//! Cubic-bezier timing curves, as CSS (`cubic-bezier()`) and After Effects
//! define them: a curve from (0, 0) to (1, 1) with two handles (x1, y1) and
//! (x2, y2), x in normalised time, y in progress. Scripts write one as
//! `bz(x1,y1,x2,y2)` or by a preset's name; imports (SkelForm handles,
//! Spriter's quadratic, cubic and bezier curves) and exports (Lottie `i`/`o`,
//! `.skf` handles) use the same type.
//!
//! [`CubicBezier::progress`] is the one solver of the project: x → s → y,
//! Newton steps from s = x, then bisection on [0, 1] when Newton leaves the
//! tolerance unmet. Both loops are bounded. With x1 and x2 in [0, 1], x(s) is
//! nondecreasing, so the bisection always brackets the answer; the result is
//! checked against the npm `bezier-easing` package in
//! `tests/suite/bezier_oracle.rs`.

/// A cubic-bezier timing curve. `x1` and `x2` lie in [0, 1] for every curve
/// the language or an import makes (the parser reports others); `y1` and `y2`
/// are free, so the progress may leave 0..1 (overshoot).
///
/// Equality and hashing compare the four numbers bit for bit (with −0 read
/// as 0), so an easing can key a map.
#[derive(Clone, Copy, Debug)]
pub struct CubicBezier {
    /// Time of the first handle, 0..1.
    pub x1: f64,
    /// Progress of the first handle.
    pub y1: f64,
    /// Time of the second handle, 0..1.
    pub x2: f64,
    /// Progress of the second handle.
    pub y2: f64,
}

impl PartialEq for CubicBezier {
    fn eq(&self, other: &Self) -> bool {
        self.bits() == other.bits()
    }
}

impl Eq for CubicBezier {}

impl std::hash::Hash for CubicBezier {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.bits().hash(state);
    }
}

/// Newton steps before bisection takes over.
const NEWTON_STEPS: usize = 8;
/// Bisection halvings at most: 2⁻⁶⁰ of [0, 1] is below any double step near 1.
const BISECTIONS: usize = 60;
/// How close x(s) must come to the asked time.
const X_TOLERANCE: f64 = 1e-12;

impl CubicBezier {
    /// The curve with these handles.
    pub const fn new(x1: f64, y1: f64, x2: f64, y2: f64) -> CubicBezier {
        CubicBezier { x1, y1, x2, y2 }
    }

    /// The handles as `[x1, y1, x2, y2]`.
    pub const fn to_array(self) -> [f64; 4] {
        [self.x1, self.y1, self.x2, self.y2]
    }

    fn bits(&self) -> [u64; 4] {
        // `+ 0.0` turns −0 into 0, so the two compare equal as `==` says.
        self.to_array().map(|v| (v + 0.0).to_bits())
    }

    /// Whether the handles keep x(s) increasing: x1 and x2 in [0, 1].
    pub fn is_valid(self) -> bool {
        (0.0..=1.0).contains(&self.x1)
            && (0.0..=1.0).contains(&self.x2)
            && self.y1.is_finite()
            && self.y2.is_finite()
    }

    /// Progress at time `x` (0..1; values outside are clamped): the y of
    /// the curve's point whose x is `x`.
    pub fn progress(self, x: f64) -> f64 {
        if x.is_nan() {
            return x;
        }
        let x = x.clamp(0.0, 1.0);
        coord(self.y1, self.y2, self.solve_s(x))
    }

    /// The curve parameter s with x(s) = `x` (`x` in 0..1).
    fn solve_s(self, x: f64) -> f64 {
        let (x1, x2) = (self.x1, self.x2);
        let mut s = x;
        for _ in 0..NEWTON_STEPS {
            let err = coord(x1, x2, s) - x;
            if err.abs() <= X_TOLERANCE {
                return s;
            }
            let d = slope(x1, x2, s);
            if d.abs() < 1e-9 {
                break;
            }
            let next = s - err / d;
            if !(0.0..=1.0).contains(&next) {
                break;
            }
            s = next;
        }
        let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
        let mut s = x;
        for _ in 0..BISECTIONS {
            let err = coord(x1, x2, s) - x;
            if err.abs() <= X_TOLERANCE {
                break;
            }
            if err < 0.0 {
                lo = s;
            } else {
                hi = s;
            }
            s = 0.5 * (lo + hi);
        }
        s
    }
}

/// One coordinate of the curve at parameter `s`, the end points being 0 and 1.
fn coord(p1: f64, p2: f64, s: f64) -> f64 {
    let u = 1.0 - s;
    3.0 * u * u * s * p1 + 3.0 * u * s * s * p2 + s * s * s
}

/// d coord / ds.
fn slope(p1: f64, p2: f64, s: f64) -> f64 {
    let u = 1.0 - s;
    3.0 * u * u * p1 + 6.0 * u * s * (p2 - p1) + 3.0 * s * s * (1.0 - p2)
}

/// The named curves scripts may write instead of `bz(…)`: CSS's `ease`,
/// `ease-in`, `ease-out`, `ease-in-out`, and the "back" curves that pull
/// back before leaving and/or run past the target before settling
/// (easings.net's `easeInBack`, `easeOutBack`, `easeInOutBack`).
pub const PRESETS: [(&str, CubicBezier); 7] = [
    ("ease", CubicBezier::new(0.25, 0.1, 0.25, 1.0)),
    ("ease-in", CubicBezier::new(0.42, 0.0, 1.0, 1.0)),
    ("ease-out", CubicBezier::new(0.0, 0.0, 0.58, 1.0)),
    ("ease-in-out", CubicBezier::new(0.42, 0.0, 0.58, 1.0)),
    ("back-in", CubicBezier::new(0.36, 0.0, 0.66, -0.56)),
    ("back-out", CubicBezier::new(0.34, 1.56, 0.64, 1.0)),
    ("back", CubicBezier::new(0.68, -0.6, 0.32, 1.6)),
];

/// The preset with these handles, if one has them.
pub fn preset_name(b: CubicBezier) -> Option<&'static str> {
    PRESETS.iter().find(|(_, p)| *p == b).map(|(n, _)| n).copied()
}

/// A few characters drawing a progress curve `f` over 0..1 from left to
/// right (▁…█ by progress, scaled to take in overshoots): what completion
/// and hover show beside an easing.
pub fn sparkline(f: &dyn Fn(f64) -> f64, width: usize) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let n = width.clamp(2, 64);
    let ys: Vec<f64> = (0..n).map(|i| f(i as f64 / (n - 1) as f64)).collect();
    let lo = ys.iter().copied().fold(0.0_f64, f64::min);
    let hi = ys.iter().copied().fold(1.0_f64, f64::max);
    ys.iter()
        .map(|y| {
            let k = ((y - lo) / (hi - lo) * 7.0).round().clamp(0.0, 7.0);
            BARS[k as usize]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_are_exact_and_linear_handles_are_the_identity() {
        for (_, p) in PRESETS {
            assert_eq!(p.progress(0.0), 0.0);
            assert_eq!(p.progress(1.0), 1.0);
            assert!(p.is_valid());
        }
        let lin = CubicBezier::new(1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0);
        for i in 0..=100 {
            let t = f64::from(i) / 100.0;
            assert!((lin.progress(t) - t).abs() < 1e-12);
        }
    }

    #[test]
    fn the_solved_point_lies_on_the_curve() {
        // x(s) = x to the tolerance, for flat and steep handles alike.
        for b in [
            CubicBezier::new(0.0, 0.0, 1.0, 1.0),
            CubicBezier::new(1.0, 0.0, 0.0, 1.0),
            CubicBezier::new(0.0, 1.0, 0.0, 1.0),
            CubicBezier::new(1.0, -2.0, 1.0, 3.0),
        ] {
            for i in 0..=1000 {
                let x = f64::from(i) / 1000.0;
                let s = b.solve_s(x);
                assert!((0.0..=1.0).contains(&s));
                assert!((coord(b.x1, b.x2, s) - x).abs() < 1e-9, "{b:?} at {x}");
            }
        }
    }

    #[test]
    fn equality_ignores_the_sign_of_zero() {
        assert_eq!(CubicBezier::new(-0.0, 0.0, 1.0, 1.0), CubicBezier::new(0.0, 0.0, 1.0, 1.0));
        assert_eq!(preset_name(PRESETS[1].1), Some("ease-in"));
        let line = |b: CubicBezier, n| sparkline(&|x| b.progress(x), n);
        assert_eq!(line(PRESETS[1].1, 6), "▁▁▃▄▆█");
        // back dips below 0 and overshoots 1: its ends are not the extremes.
        assert_eq!(line(PRESETS[6].1, 8), "▂▁▁▃▆██▇");
    }
}
