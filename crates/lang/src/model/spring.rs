//! A damped torsional spring (LANGUAGE-EXT.md, "Springs"): the lag `y` of
//! a bone's rotation behind its parent's, driven by the parent's turning.
//!
//! The bone is a hinge with a spring and a damper between it and its
//! parent: with `θ` the parent's accumulated rotation (radians) and `y`
//! the angle the bone trails it by,
//!
//! ```text
//! y'' + 2ζω·y' + ω²·y = −θ''
//! ```
//!
//! `ω = 2π·hz` is the natural angular frequency (rad/s), `ζ` the damping
//! ratio (1: critically damped). The parent's rotation is known at the
//! animation's frames and taken as linear between them, so `θ''` is zero
//! inside a frame and an impulse at each frame: the bone's lag speed `y'`
//! drops by the change of the parent's turning speed there. Between frames
//! the state follows the homogeneous oscillator exactly
//! ([`Spring::propagator`], the closed form), so the simulation has no
//! integration error at any frame rate, and a step of any length is one
//! matrix.
//!
//! A loop's settled motion is the periodic solution: one loop maps the
//! state at its start `s` to `A·s + b` (A the propagator over the whole
//! loop, b the response from rest), so the state that comes back is
//! `(I − A)⁻¹·b` — solved directly, not by simulating loops until they
//! agree. With ζ > 0 both eigenvalues of A lie inside the unit circle, so
//! `I − A` is invertible, and loops simulated from rest converge to this
//! one (the property tests check both).

/// A spring's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    /// Natural angular frequency ω, radians per second (> 0).
    pub omega: f64,
    /// Damping ratio ζ (> 0; 1 is critical).
    pub zeta: f64,
}

/// Where a spring stands: the lag and its rate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpringState {
    /// The lag `y`, radians.
    pub lag: f64,
    /// Its rate `y'`, radians per second.
    pub speed: f64,
}

/// A 2×2 matrix acting on `(lag, speed)`, row major.
pub type Mat2 = [[f64; 2]; 2];

fn mul(a: &Mat2, b: &Mat2) -> Mat2 {
    [
        [a[0][0] * b[0][0] + a[0][1] * b[1][0], a[0][0] * b[0][1] + a[0][1] * b[1][1]],
        [a[1][0] * b[0][0] + a[1][1] * b[1][0], a[1][0] * b[0][1] + a[1][1] * b[1][1]],
    ]
}

fn apply(m: &Mat2, s: SpringState) -> SpringState {
    SpringState {
        lag: m[0][0] * s.lag + m[0][1] * s.speed,
        speed: m[1][0] * s.lag + m[1][1] * s.speed,
    }
}

impl Spring {
    /// A spring ringing at `hz` cycles per second (undamped) with damping
    /// ratio `zeta`.
    pub fn from_hz(hz: f64, zeta: f64) -> Spring {
        Spring { omega: std::f64::consts::TAU * hz, zeta }
    }

    /// The exact map of `(lag, speed)` over `h` seconds with no drive:
    /// `e^(−ζωh)·[[C + ζω·S, S], [−ω²·S, C − ζω·S]]`, where `C, S` are
    /// `cos(ω_d h), sin(ω_d h)/ω_d` (ζ < 1, `ω_d = ω√(1−ζ²)`), `1, h`
    /// (ζ = 1), or `cosh(γh), sinh(γh)/γ` (ζ > 1, `γ = ω√(ζ²−1)`); the
    /// overdamped case is computed from its two decaying exponentials so
    /// that neither factor overflows.
    pub fn propagator(&self, h: f64) -> Mat2 {
        let (w, z) = (self.omega, self.zeta);
        // (e·C, e·S) with e = e^(−ζωh).
        let (ec, es) = if z < 1.0 {
            let wd = w * (1.0 - z * z).sqrt();
            let e = (-z * w * h).exp();
            (e * (wd * h).cos(), e * (wd * h).sin() / wd)
        } else if z == 1.0 {
            let e = (-w * h).exp();
            (e, e * h)
        } else {
            let g = w * (z * z - 1.0).sqrt();
            // The slower exponent −ζω + γ, written without cancellation.
            let slow = (-w / (z + (z * z - 1.0).sqrt()) * h).exp();
            let m = (-2.0 * g * h).exp_m1();
            (slow * (2.0 + m) / 2.0, -slow * m / (2.0 * g))
        };
        let zw = z * w;
        [[ec + zw * es, es], [-w * w * es, ec - zw * es]]
    }

    /// `s` after `h` seconds with no drive (the closed form).
    pub fn step(&self, s: SpringState, h: f64) -> SpringState {
        apply(&self.propagator(h), s)
    }

    /// One loop driven by the parent rotation `drive[n]` at `times[n]`
    /// (`times` increasing, from the loop's start to its end; the drive is
    /// linear between samples and the loop repeats, so the turning speed
    /// before the first sample is the last interval's), starting from
    /// `start`: the lag at every sample and the state at the end.
    pub fn run_loop(
        &self,
        times: &[f64],
        drive: &[f64],
        start: SpringState,
    ) -> (Vec<f64>, SpringState) {
        let speeds = speeds(times, drive);
        let mut s = start;
        let mut lags = Vec::with_capacity(times.len());
        let mut before = speeds.last().copied().unwrap_or(0.0);
        for (i, &v) in speeds.iter().enumerate() {
            lags.push(s.lag);
            s.speed -= v - before;
            before = v;
            s = self.step(s, times[i + 1] - times[i]);
        }
        lags.push(s.lag);
        (lags, s)
    }

    /// The settled loop: the lag at every sample of the periodic motion
    /// (see the module's notes), which starts and ends in the same state.
    pub fn settled(&self, times: &[f64], drive: &[f64]) -> Vec<f64> {
        let (_, b) = self.run_loop(times, drive, SpringState::default());
        let mut a: Mat2 = [[1.0, 0.0], [0.0, 1.0]];
        for w in times.windows(2) {
            a = mul(&self.propagator(w[1] - w[0]), &a);
        }
        // (I − A)·s = b.
        let (p, q, r, t) = (1.0 - a[0][0], -a[0][1], -a[1][0], 1.0 - a[1][1]);
        let det = p * t - q * r;
        let start = if det.abs() > 0.0 && det.is_finite() {
            SpringState {
                lag: (t * b.lag - q * b.speed) / det,
                speed: (p * b.speed - r * b.lag) / det,
            }
        } else {
            SpringState::default()
        };
        self.run_loop(times, drive, start).0
    }
}

/// The drive's turning speed over each interval between samples (0 over
/// an interval of no length).
fn speeds(times: &[f64], drive: &[f64]) -> Vec<f64> {
    times
        .windows(2)
        .zip(drive.windows(2))
        .map(|(t, d)| {
            let h = t[1] - t[0];
            if h > 0.0 { (d[1] - d[0]) / h } else { 0.0 }
        })
        .collect()
}

/// `angles` with every step between neighbours brought into (−π, π]:
/// a rotation read back from poses, continuous across its wrap-around.
pub fn unwrapped(angles: &[f64]) -> Vec<f64> {
    let mut out = Vec::with_capacity(angles.len());
    let mut prev: Option<(f64, f64)> = None;
    for &a in angles {
        let v = match prev {
            None => a,
            Some((raw, acc)) => acc + crate::model::normalize_angle(a - raw),
        };
        out.push(v);
        prev = Some((a, v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undamped_free_swing_is_a_cosine() {
        // ζ → 0 limit checked on a tiny damping: y = cos(ωt) for y0 = 1.
        let s = Spring { omega: 3.0, zeta: 1e-12 };
        let y = s.step(SpringState { lag: 1.0, speed: 0.0 }, 0.5);
        assert!((y.lag - 1.5f64.cos()).abs() < 1e-9, "{y:?}");
        assert!((y.speed + 3.0 * 1.5f64.sin()).abs() < 1e-9, "{y:?}");
    }

    #[test]
    fn the_three_regimes_meet_at_critical_damping() {
        let s0 = SpringState { lag: 0.7, speed: -2.0 };
        let at = |z: f64| Spring { omega: 5.0, zeta: z }.step(s0, 0.3);
        let (below, crit, above) = (at(1.0 - 1e-9), at(1.0), at(1.0 + 1e-9));
        for x in [below, above] {
            assert!((x.lag - crit.lag).abs() < 1e-7 && (x.speed - crit.speed).abs() < 1e-6);
        }
        // Critical, by hand: y = e^(−ωt)·(y0 + (u0 + ω·y0)·t).
        let e = (-1.5f64).exp();
        assert!((crit.lag - e * (0.7 + (-2.0 + 3.5) * 0.3)).abs() < 1e-12);
    }

    #[test]
    fn a_very_stiff_overdamped_spring_does_not_overflow() {
        let s = Spring { omega: 1e4, zeta: 1e3 };
        let y = s.step(SpringState { lag: 1.0, speed: 0.0 }, 1.0);
        assert!(y.lag.is_finite() && y.speed.is_finite(), "{y:?}");
    }

    #[test]
    fn unwrapping_follows_a_turn_past_half_a_circle() {
        let u = unwrapped(&[3.0, -3.0, -2.9]);
        assert!((u[1] - (std::f64::consts::TAU - 3.0)).abs() < 1e-12, "{u:?}");
        assert!((u[2] - u[1] - 0.1).abs() < 1e-12, "{u:?}");
    }
}
