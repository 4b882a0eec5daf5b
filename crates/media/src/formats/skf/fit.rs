//! Bezier handles that make SkelForm's timing curve follow skelpad's easings.
//!
//! A runtime only ever samples a segment at whole frames, so the handles are
//! fitted to the progress at those frames: for a segment of `n` frames the
//! `n - 1` inner samples (four numbers fit up to four samples almost
//! exactly). Fits are cached per easing and span, since a rig reuses a few
//! spans many times.

use super::sim::Handle;
use super::sim::bezier_progress;
use rustc_hash::FxHashMap;
use skelpad_lang::model::Easing;

/// Handles into a key and the largest progress error at the inner frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// The handle leaving the first key.
    pub h1: Handle,
    /// The handle entering the second key.
    pub h2: Handle,
    /// Largest |progress − easing| over the inner frames of the span.
    pub max_error: f64,
}

/// Cache of fits per (easing, span in frames).
#[derive(Default)]
pub struct Fitter {
    cache: FxHashMap<(Easing, u32), Fit>,
}

/// Published cubic-bezier approximations of the sine easings, the starting
/// points of the search.
fn start(e: Easing) -> [f64; 4] {
    match e {
        Easing::Linear => [1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0],
        Easing::SineIn => [0.12, 0.0, 0.39, 0.0],
        Easing::SineOut => [0.61, 1.0, 0.88, 1.0],
        Easing::SineInOut => [0.37, 0.0, 0.63, 1.0],
        // Its own handles (the exporters write them as they are).
        Easing::Bezier(b) => b.to_array(),
    }
}

impl Fitter {
    /// Handles for `easing` over a span of `frames` frames.
    pub fn fit(&mut self, easing: Easing, frames: u32) -> Fit {
        if easing == Easing::Linear {
            let (h1, h2) = super::sim::LINEAR;
            return Fit { h1, h2, max_error: 0.0 };
        }
        // Spans longer than this are fitted on this many samples; the
        // result is checked against the real frames by the caller anyway.
        let frames = frames.min(256);
        *self.cache.entry((easing, frames)).or_insert_with(|| fit_uncached(easing, frames))
    }
}

fn errors(p: &[f64; 4], easing: Easing, frames: u32) -> (f64, f64) {
    let (h1, h2) = (Handle::new(p[0], p[1]), Handle::new(p[2], p[3]));
    let mut max: f64 = 0.0;
    let mut sq = 0.0;
    for k in 1..frames {
        let t = k as f64 / frames as f64;
        let d = bezier_progress(t, h1, h2) - easing.apply(t);
        max = max.max(d.abs());
        sq += d * d;
    }
    // Time handles outside 0..1 make the time curve fold back; keep them in.
    let out =
        [p[0], p[2]].iter().map(|x| (x.min(0.0) - 0.0).abs() + (x.max(1.0) - 1.0)).sum::<f64>();
    (max + out * 10.0, sq + out * 10.0)
}

fn fit_uncached(easing: Easing, frames: u32) -> Fit {
    let mut p = start(easing);
    if frames >= 2 {
        // Least squares first (smooth, finds the basin), then the largest error.
        p = nelder_mead(p, 0.05, 600, |q| errors(q, easing, frames).1);
        p = nelder_mead(p, 0.01, 600, |q| errors(q, easing, frames).0);
    }
    p[0] = p[0].clamp(0.0, 1.0);
    p[2] = p[2].clamp(0.0, 1.0);
    let max_error = errors(&p, easing, frames).0;
    Fit { h1: Handle::new(p[0], p[1]), h2: Handle::new(p[2], p[3]), max_error }
}

/// A plain Nelder–Mead simplex search in four dimensions.
fn nelder_mead(
    start: [f64; 4],
    step: f64,
    iterations: usize,
    f: impl Fn(&[f64; 4]) -> f64,
) -> [f64; 4] {
    let mut pts: Vec<([f64; 4], f64)> = Vec::with_capacity(5);
    pts.push((start, f(&start)));
    for i in 0..4 {
        let mut p = start;
        p[i] += step;
        pts.push((p, f(&p)));
    }
    let lerp = |a: &[f64; 4], b: &[f64; 4], t: f64| -> [f64; 4] {
        std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t)
    };
    for _ in 0..iterations {
        pts.sort_by(|a, b| a.1.total_cmp(&b.1));
        if pts[4].1 - pts[0].1 < 1e-15 && pts[0].1 < 1e-12 {
            break;
        }
        let centroid: [f64; 4] =
            std::array::from_fn(|i| pts[..4].iter().map(|p| p.0[i]).sum::<f64>() / 4.0);
        let worst = pts[4];
        let reflected = lerp(&centroid, &worst.0, -1.0);
        let fr = f(&reflected);
        if fr < pts[0].1 {
            let expanded = lerp(&centroid, &worst.0, -2.0);
            let fe = f(&expanded);
            pts[4] = if fe < fr { (expanded, fe) } else { (reflected, fr) };
        } else if fr < pts[3].1 {
            pts[4] = (reflected, fr);
        } else {
            let contracted = lerp(&centroid, &worst.0, 0.5);
            let fc = f(&contracted);
            if fc < worst.1 {
                pts[4] = (contracted, fc);
            } else {
                let best = pts[0].0;
                for p in pts.iter_mut().skip(1) {
                    p.0 = lerp(&best, &p.0, 0.5);
                    p.1 = f(&p.0);
                }
            }
        }
    }
    pts.sort_by(|a, b| a.1.total_cmp(&b.1));
    pts[0].0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_spans_fit_the_sine_easings_almost_exactly() {
        let mut f = Fitter::default();
        for e in [Easing::SineIn, Easing::SineOut, Easing::SineInOut] {
            for frames in 2..=5 {
                let fit = f.fit(e, frames);
                assert!(fit.max_error < 1e-6, "{e:?} over {frames} frames: {fit:?}");
            }
        }
    }

    #[test]
    fn long_spans_fit_closely_but_not_exactly() {
        let mut f = Fitter::default();
        for e in [Easing::SineIn, Easing::SineOut, Easing::SineInOut] {
            let fit = f.fit(e, 60);
            assert!(fit.max_error < 5e-3, "{e:?}: {fit:?}");
            assert!(fit.max_error > 1e-7, "a cubic cannot be a sine: {fit:?}");
        }
        assert_eq!(f.fit(Easing::Linear, 60).max_error, 0.0);
    }
}
