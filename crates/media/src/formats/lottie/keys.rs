//! Per-frame values → Lottie keyframes. A segment between two frames is one
//! Lottie segment (linear, hold, or bezier handles) when that curve lands on
//! the value at every frame inside it; otherwise every frame is a key, and
//! runs of frames a straight line still lands on are merged. An easing that
//! no bezier follows exactly (the sines) is written as handles when they stay
//! within the series' `approx` tolerance at every frame and half frame.
//! A discrete series (visibility, colour copies) and a stepped key change
//! only through hold keys, however close the next key is: players draw
//! between frames, and a linear segment one frame wide would cross-fade.

use serde_json::{Value, json};

use super::frames::Plan;
use crate::formats::skf::fit::Fitter;
use skelpad_lang::model::{Curve, Easing};

/// How a key's value moves to the next key's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Ease {
    /// Straight.
    Linear,
    /// Holds until the next key.
    Hold,
    /// A timing curve with these handles `[x1, y1, x2, y2]`.
    Bezier([f64; 4]),
}

impl Ease {
    /// Progress at `t` in 0..1.
    fn progress(self, t: f64) -> f64 {
        match self {
            Ease::Linear => t,
            Ease::Hold => 0.0,
            Ease::Bezier([x1, y1, x2, y2]) => Curve::bezier(x1, y1, x2, y2).progress(t),
        }
    }
}

/// One key: its frame, its value, how it moves on.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyOut {
    /// Frame on the composition's timeline (a half frame for a baked
    /// value's in-between, [`add_halves`]).
    pub frame: f64,
    /// The value (one number per dimension).
    pub value: Vec<f64>,
    /// The way to the next key.
    pub ease: Ease,
}

/// Values per frame: `data[f * dims + d]`.
pub struct Series<'a> {
    /// Numbers per frame.
    pub dims: usize,
    /// Frame-major values.
    pub data: &'a [f64],
    /// How far (in the series' own units) a bezier standing in for an
    /// easing it cannot follow exactly may be off, at every frame and half
    /// frame; 0: such easings are keyed at every frame.
    pub approx: f64,
}

impl Series<'_> {
    fn at(&self, f: usize) -> &[f64] {
        &self.data[f * self.dims..(f + 1) * self.dims]
    }
}

/// A curve the fitter may try on a segment: Lottie's form, and the easing
/// it only approximates (`None`: the curve is exact).
pub type Cand = (Ease, Option<Easing>);

/// What the fitter may try on the segment starting at a frame.
pub type Candidates<'a> = &'a dyn Fn(usize, usize) -> Vec<Cand>;

/// Keys for a series over the whole plan: each animation's frames and its
/// closing frame (see [`Plan`]). `breaks(anim)`
/// gives the frames (relative to the animation) where its own keys fall;
/// `cands(f0, f1)` the curves to try between two of them; `hold_jumps`
/// makes a jump between two frames a hold (discrete values).
pub fn fit(
    plan: &Plan,
    series: &Series<'_>,
    breaks: &dyn Fn(usize) -> Vec<usize>,
    cands: Candidates<'_>,
    hold_jumps: bool,
) -> Vec<KeyOut> {
    let mut out = Vec::new();
    let hold_jumps = hold_jumps || plan.stepped;
    for (ai, a) in plan.anims.iter().enumerate() {
        let (start, end) = (a.offset, a.offset + a.frames);
        let mut b: Vec<usize> = if plan.stepped { (0..a.frames).collect() } else { breaks(ai) };
        let mut b: Vec<usize> = b.drain(..).map(|f| f + start).collect();
        b.push(start);
        b.push(end);
        b.retain(|&f| f >= start && f <= end);
        b.sort_unstable();
        b.dedup();
        for w in b.windows(2) {
            segment(series, w[0], w[1], cands, hold_jumps, &mut out);
        }
        out.push(KeyOut { frame: end as f64, value: series.at(end).to_vec(), ease: Ease::Hold });
        // Equal frames (a one-frame animation) keep the last key only.
        dedup_frames(&mut out);
    }
    simplify(&mut out);
    out
}

fn dedup_frames(out: &mut Vec<KeyOut>) {
    let mut i = 1;
    while i < out.len() {
        if out[i].frame == out[i - 1].frame {
            out.remove(i - 1);
        } else {
            i += 1;
        }
    }
}

/// Largest allowed difference from the value at a frame.
fn tol(v: f64) -> f64 {
    1e-7 * v.abs().max(1.0)
}

/// Whether `ease` (bezier handles standing in for `easing`) is within the
/// series' `approx` tolerance of the values at every frame inside the
/// segment and of the easing itself at every half frame.
fn lands_near(series: &Series<'_>, f0: usize, f1: usize, ease: Ease, easing: Easing) -> bool {
    let (v0, v1) = (series.at(f0), series.at(f1));
    let n = (f1 - f0) as f64;
    let tol = series.approx;
    tol > 0.0
        && (f0 + 1..f1).all(|f| {
            let p = ease.progress((f - f0) as f64 / n);
            let v = series.at(f);
            (0..series.dims).all(|d| (v0[d] + (v1[d] - v0[d]) * p - v[d]).abs() <= tol)
        })
        && (0..f1 - f0).all(|k| {
            let t = (k as f64 + 0.5) / n;
            let miss = (ease.progress(t) - easing.apply(t)).abs();
            (0..series.dims).all(|d| (v1[d] - v0[d]).abs() * miss <= tol)
        })
}

fn lands(series: &Series<'_>, f0: usize, f1: usize, ease: Ease) -> bool {
    let (v0, v1) = (series.at(f0), series.at(f1));
    (f0 + 1..f1).all(|f| {
        let p = ease.progress((f - f0) as f64 / (f1 - f0) as f64);
        let v = series.at(f);
        (0..series.dims).all(|d| (v0[d] + (v1[d] - v0[d]) * p - v[d]).abs() <= tol(v[d]))
    })
}

fn segment(
    series: &Series<'_>,
    f0: usize,
    f1: usize,
    cands: Candidates<'_>,
    hold_jumps: bool,
    out: &mut Vec<KeyOut>,
) {
    let same = |a: usize, b: usize| {
        series.at(a).iter().zip(series.at(b)).all(|(x, y)| (x - y).abs() <= tol(*y))
    };
    let cands = cands(f0, f1);
    let stepped = cands.iter().any(|(e, _)| *e == Ease::Hold);
    // Discrete values and stepped keys hold, however near the next key is.
    if (hold_jumps || stepped) && (f0..f1).all(|f| same(f, f0)) {
        out.push(KeyOut { frame: f0 as f64, value: series.at(f0).to_vec(), ease: Ease::Hold });
        return;
    }
    if !hold_jumps {
        let exact = std::iter::once(Ease::Linear).chain(cands.iter().map(|(e, _)| *e));
        let found =
            exact.filter(|&e| e != Ease::Hold).find(|&e| lands(series, f0, f1, e)).or_else(|| {
                cands.iter().find_map(|&(e, near)| {
                    near.filter(|&n| lands_near(series, f0, f1, e, n)).map(|_| e)
                })
            });
        if let Some(ease) = found {
            out.push(KeyOut { frame: f0 as f64, value: series.at(f0).to_vec(), ease });
            return;
        }
    }
    // Every frame, runs a line still lands on merged.
    let mut a = f0;
    while a < f1 {
        let mut b = a + 1;
        while b < f1 && b - a < 512 && lands(series, a, b + 1, Ease::Linear) {
            b += 1;
        }
        let ease = if hold_jumps && b == a + 1 && !same(a, b) { Ease::Hold } else { Ease::Linear };
        out.push(KeyOut { frame: a as f64, value: series.at(a).to_vec(), ease });
        a = b;
    }
}

/// The keys' value at a time, as a player plays them.
fn value_at(keys: &[KeyOut], t: f64) -> Option<Vec<f64>> {
    let i = keys.iter().rposition(|k| k.frame <= t)?;
    let k = &keys[i];
    let Some(next) = keys.get(i + 1) else { return Some(k.value.clone()) };
    let p = k.ease.progress((t - k.frame) / (next.frame - k.frame));
    Some(k.value.iter().zip(&next.value).map(|(a, b)| a + (b - a) * p).collect())
}

/// Adds a key at the half frame after `f` wherever the keys of a series
/// sampled at every frame miss its value there (`half(f)`) by more than
/// its `approx` plus `share` of its change over that frame: a player's
/// straight in-between of two frames misses a fast, curving motion (an IK
/// chain straightening). The frames on either side become keys too, so
/// the rest of a merged straight run is kept.
pub fn add_halves(
    plan: &Plan,
    keys: &mut Vec<KeyOut>,
    series: &Series<'_>,
    half: &dyn Fn(usize) -> Option<Vec<f64>>,
    share: f64,
) {
    let mut extra = Vec::new();
    for a in &plan.anims {
        for f in a.offset..a.offset + a.frames {
            let (Some(want), Some(got)) = (half(f), value_at(keys, f as f64 + 0.5)) else {
                continue;
            };
            let (v0, v1) = (series.at(f), series.at(f + 1));
            if (0..series.dims).any(|d| (got[d] - want[d]).abs() > series.approx)
                && bend(keys, f, v0, v1, &want, series.approx)
            {
                continue;
            }
            let got = value_at(keys, f as f64 + 0.5).unwrap_or(got);
            let miss = (0..series.dims).any(|d| {
                let change = (v1[d] - v0[d]).abs();
                (got[d] - want[d]).abs() > series.approx + share * change
            });
            if miss {
                for (t, value) in
                    [(f as f64, v0.to_vec()), (f as f64 + 0.5, want), (f as f64 + 1.0, v1.to_vec())]
                {
                    extra.push(KeyOut { frame: t, value, ease: Ease::Linear });
                }
            }
        }
    }
    if extra.is_empty() {
        return;
    }
    for k in extra {
        if !keys.iter().any(|o| o.frame == k.frame) {
            keys.push(k);
        }
    }
    keys.sort_by(|a, b| a.frame.total_cmp(&b.frame));
}

/// Bends a one-frame straight segment from `f` (keys at `f` and `f + 1`)
/// through the value at its half frame: handles at x 1/3 and 2/3 (so
/// time runs straight) lifted alike, which keeps both ends and lands on
/// the half frame. Only when one lift serves every dimension.
fn bend(keys: &mut [KeyOut], f: usize, v0: &[f64], v1: &[f64], want: &[f64], tol: f64) -> bool {
    let Some(i) = keys.iter().position(|k| k.frame == f as f64) else { return false };
    if keys[i].ease != Ease::Linear || keys.get(i + 1).is_none_or(|k| k.frame != f as f64 + 1.0) {
        return false;
    }
    let Some(d) =
        (0..v0.len()).max_by(|&a, &b| (v1[a] - v0[a]).abs().total_cmp(&(v1[b] - v0[b]).abs()))
    else {
        return false;
    };
    let delta = v1[d] - v0[d];
    if delta.abs() < 1e-9 {
        return false;
    }
    // y(1/2) = 3/8 (y1 + y2) + 1/8 with y1 = 1/3 + c, y2 = 2/3 + c.
    let p = (want[d] - v0[d]) / delta;
    let c = (4.0 * p - 2.0) / 3.0;
    let ease = Ease::Bezier([1.0 / 3.0, 1.0 / 3.0 + c, 2.0 / 3.0, 2.0 / 3.0 + c]);
    let q = ease.progress(0.5);
    if (0..v0.len()).any(|k| (v0[k] + (v1[k] - v0[k]) * q - want[k]).abs() > tol.max(1e-9)) {
        return false;
    }
    keys[i].ease = ease;
    true
}

/// Drops keys that repeat the value of both neighbours (the value between
/// them is constant whatever the curves).
fn simplify(out: &mut Vec<KeyOut>) {
    let mut i = 1;
    while i + 1 < out.len() {
        if out[i - 1].value == out[i].value && out[i].value == out[i + 1].value {
            out.remove(i);
        } else {
            i += 1;
        }
    }
}

/// Bezier handles that follow a skelpad curve over a span of `frames`.
/// with the easing it only approximates (fitted at every frame and half
/// frame of the span).
pub fn ease_of(curve: Curve, frames: usize, fitter: &mut Fitter) -> Option<Cand> {
    Some(match curve {
        Curve::Eased(Easing::Linear) => (Ease::Linear, None),
        Curve::Stepped => (Ease::Hold, None),
        // A timing bezier is Lottie's own curve: the handles carry over exactly.
        Curve::Eased(Easing::Bezier(b)) => (Ease::Bezier(b.to_array()), None),
        Curve::Eased(e) => {
            let halves = u32::try_from(frames.saturating_mul(2)).unwrap_or(u32::MAX);
            let fit = fitter.fit(e, halves);
            (Ease::Bezier([fit.h1.x, fit.h1.y, fit.h2.x, fit.h2.y]), Some(e))
        }
        Curve::Spriter(_) => return None,
    })
}

/// Rounds for the file: 1e-9 is far below any player's precision.
fn num(v: f64) -> Value {
    let r = (v * 1e9).round() / 1e9;
    json!(if r == 0.0 { 0.0 } else { r })
}

fn value(v: &[f64], scalar: bool) -> Value {
    if scalar && v.len() == 1 {
        num(v[0])
    } else {
        Value::Array(v.iter().map(|&x| num(x)).collect())
    }
}

/// A Lottie animated property (`{"a":1,"k":[…]}`), or a static one when
/// the value never changes. `scalar`: one number, written bare when static.
pub fn property(keys: &[KeyOut], scalar: bool) -> Value {
    if keys.len() <= 1 || keys.iter().all(|k| k.value == keys[0].value) {
        let v = keys.first().map_or_else(|| vec![0.0], |k| k.value.clone());
        return json!({ "a": 0, "k": value(&v, scalar) });
    }
    let n = keys.len();
    let k: Vec<Value> = keys
        .iter()
        .enumerate()
        .map(|(i, key)| {
            let mut o = serde_json::Map::new();
            o.insert("t".into(), json!(key.frame));
            o.insert("s".into(), value(&key.value, false));
            if i + 1 < n {
                match key.ease {
                    Ease::Hold => {
                        o.insert("h".into(), json!(1));
                    }
                    Ease::Linear => handles(&mut o, [0.0, 0.0, 1.0, 1.0]),
                    Ease::Bezier(h) => handles(&mut o, h),
                }
            }
            Value::Object(o)
        })
        .collect();
    json!({ "a": 1, "k": k })
}

fn handles(o: &mut serde_json::Map<String, Value>, [x1, y1, x2, y2]: [f64; 4]) {
    o.insert("o".into(), json!({ "x": num(x1), "y": num(y1) }));
    o.insert("i".into(), json!({ "x": num(x2), "y": num(y2) }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::lottie::frames::PlanAnim;

    fn plan(frames: usize) -> Plan {
        // `frames` values: the animation's frames and its closing frame.
        let a = PlanAnim { id: None, name: "a".into(), fps: 10.0, offset: 0, frames: frames - 1 };
        Plan { fps: 10.0, anims: vec![a], total: frames, stepped: false }
    }

    fn series(data: &[f64], approx: f64) -> Series<'_> {
        Series { dims: 1, data, approx }
    }

    /// Plays keys as a player does (Lottie's handles, times between keys).
    fn play_at(keys: &[KeyOut], f: f64) -> f64 {
        let i = keys.iter().rposition(|k| k.frame <= f).unwrap();
        let Some(next) = keys.get(i + 1) else { return keys[i].value[0] };
        let t = (f - keys[i].frame) / (next.frame - keys[i].frame);
        let p = keys[i].ease.progress(t);
        keys[i].value[0] + (next.value[0] - keys[i].value[0]) * p
    }

    fn play(keys: &[KeyOut], f: usize) -> f64 {
        play_at(keys, f as f64)
    }

    #[test]
    fn lines_merge_curves_are_kept_and_jumps_hold() {
        // 0..=10 a line, 10..=20 an ease-in bezier, then a stepped key's
        // jump at 21.
        let bez = Curve::bezier(0.42, 0.0, 1.0, 1.0);
        let data: Vec<f64> = (0..30)
            .map(|f| match f {
                0..=10 => f as f64 * 2.0,
                11..=20 => 20.0 + 30.0 * bez.progress((f - 10) as f64 / 10.0),
                _ => -5.0,
            })
            .collect();
        let series = series(&data, 0.0);
        let breaks = |_: usize| vec![10, 20, 21];
        let cands = |f0: usize, _: usize| match f0 {
            10 => vec![(Ease::Bezier([0.42, 0.0, 1.0, 1.0]), None)],
            20 => vec![(Ease::Hold, None)],
            _ => Vec::new(),
        };
        let keys = fit(&plan(30), &series, &breaks, &cands, false);
        let frames: Vec<f64> = keys.iter().map(|k| k.frame).collect();
        assert_eq!(frames, [0.0, 10.0, 20.0, 21.0, 29.0], "{keys:?}");
        assert_eq!(keys[0].ease, Ease::Linear);
        assert_eq!(keys[1].ease, Ease::Bezier([0.42, 0.0, 1.0, 1.0]));
        assert_eq!(keys[2].ease, Ease::Hold, "the stepped key holds one frame before its jump");
        for (f, want) in data.iter().enumerate() {
            assert!((play(&keys, f) - want).abs() < 1e-6, "frame {f}");
        }
    }

    #[test]
    fn discrete_jumps_hold_even_one_frame_apart() {
        // Visibility: shown at 0..=3, hidden at 4, shown again at 5..
        let data: Vec<f64> = (0..10).map(|f| if f == 4 { 0.0 } else { 100.0 }).collect();
        let every = |_: usize| (0..9).collect();
        let keys = fit(&plan(10), &series(&data, 0.0), &every, &|_, _| Vec::new(), true);
        for (k, &want) in data.iter().enumerate().take(9) {
            let half = play_at(&keys, k as f64 + 0.5);
            assert_eq!(half, want, "half frame {k}.5 is the value of frame {k}: {keys:?}");
        }
    }

    #[test]
    fn a_sine_is_one_bezier_where_it_stays_near_at_frames_and_half_frames() {
        let sine = |f: f64| 10.0 * Easing::SineInOut.apply(f / 12.0);
        let data: Vec<f64> = (0..=12).map(|f| sine(f as f64)).collect();
        let mut fitter = Fitter::default();
        let cand = ease_of(Curve::Eased(Easing::SineInOut), 12, &mut fitter).unwrap();
        assert!(cand.1.is_some(), "a sine is only approximated");
        let cands = |_: usize, _: usize| vec![cand];
        let keys = fit(&plan(13), &series(&data, 0.01), &|_| vec![12], &cands, false);
        assert_eq!(keys.len(), 2, "{keys:?}");
        for h in 0..24 {
            let t = h as f64 / 2.0;
            assert!((play_at(&keys, t) - sine(t)).abs() <= 0.01, "frame {t}");
        }
        // Too tight a tolerance: sampled (straight runs merged).
        let keys = fit(&plan(13), &series(&data, 1e-6), &|_| vec![12], &cands, false);
        assert!(keys.len() > 10, "{keys:?}");
    }

    #[test]
    fn a_sine_without_a_matching_curve_is_keyed_at_every_frame() {
        let data: Vec<f64> =
            (0..=12).map(|f| 10.0 * Easing::SineIn.apply(f as f64 / 12.0)).collect();
        let keys = fit(&plan(13), &series(&data, 0.01), &|_| vec![12], &|_, _| Vec::new(), false);
        assert_eq!(keys.len(), 13);
        for (f, want) in data.iter().enumerate() {
            assert!((play(&keys, f) - want).abs() < 1e-9, "frame {f}");
        }
    }

    #[test]
    fn a_static_property_is_written_bare() {
        let keys = vec![
            KeyOut { frame: 0.0, value: vec![3.0], ease: Ease::Linear },
            KeyOut { frame: 5.0, value: vec![3.0], ease: Ease::Hold },
        ];
        assert_eq!(property(&keys, true), json!({ "a": 0, "k": 3.0 }));
        let moving = vec![
            KeyOut { frame: 0.0, value: vec![1.0, 2.0], ease: Ease::Hold },
            KeyOut { frame: 5.0, value: vec![3.0, 4.0], ease: Ease::Linear },
        ];
        let p = property(&moving, false);
        assert_eq!(p["a"], 1);
        assert_eq!(p["k"][0]["h"], 1);
        assert!(p["k"][1].get("o").is_none(), "the last key has no handles");
    }
}
