//! Per-frame values → Lottie keyframes. A segment between two frames is one
//! Lottie segment (linear, hold, or bezier handles) when that curve lands on
//! the value at every frame inside it; otherwise every frame is a key, and
//! runs of frames a straight line still lands on are merged.

use serde_json::{Value, json};

use super::frames::Plan;
use crate::formats::skf::fit::Fitter;
use crate::model::{Curve, Easing};

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
            Ease::Bezier([x1, y1, x2, y2]) => Curve::Bezier { x1, y1, x2, y2 }.progress(t),
        }
    }
}

/// One key: its frame, its value, how it moves on.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyOut {
    /// Frame on the composition's timeline.
    pub frame: usize,
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
}

impl Series<'_> {
    fn at(&self, f: usize) -> &[f64] {
        &self.data[f * self.dims..(f + 1) * self.dims]
    }
}

/// What the fitter may try on the segment starting at a frame.
pub type Candidates<'a> = &'a dyn Fn(usize, usize) -> Vec<Ease>;

/// Keys for a series over the whole plan. `breaks(anim_offset, frames)`
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
    for (ai, a) in plan.anims.iter().enumerate() {
        let (start, end) = (a.offset, a.offset + a.frames - 1);
        let mut b: Vec<usize> = breaks(ai).into_iter().map(|f| f + start).collect();
        b.push(start);
        b.push(end);
        b.retain(|&f| f >= start && f <= end);
        b.sort_unstable();
        b.dedup();
        for w in b.windows(2) {
            segment(series, w[0], w[1], cands, hold_jumps, &mut out);
        }
        out.push(KeyOut { frame: end, value: series.at(end).to_vec(), ease: Ease::Hold });
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
    let mut tries = vec![Ease::Linear];
    tries.extend(cands(f0, f1));
    if let Some(&ease) = tries.iter().find(|&&e| e != Ease::Hold && lands(series, f0, f1, e)) {
        out.push(KeyOut { frame: f0, value: series.at(f0).to_vec(), ease });
        return;
    }
    if (f0..f1).all(|f| same(f, f0)) {
        out.push(KeyOut { frame: f0, value: series.at(f0).to_vec(), ease: Ease::Hold });
        return;
    }
    // Every frame, runs a line still lands on merged.
    let mut a = f0;
    while a < f1 {
        let mut b = a + 1;
        while b < f1 && b - a < 512 && lands(series, a, b + 1, Ease::Linear) {
            b += 1;
        }
        let ease = if hold_jumps && b == a + 1 && !same(a, b) { Ease::Hold } else { Ease::Linear };
        out.push(KeyOut { frame: a, value: series.at(a).to_vec(), ease });
        a = b;
    }
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
pub fn ease_of(curve: Curve, frames: usize, fitter: &mut Fitter) -> Option<Ease> {
    Some(match curve {
        Curve::Eased(Easing::Linear) => Ease::Linear,
        Curve::Stepped => Ease::Hold,
        Curve::Bezier { x1, y1, x2, y2 } => Ease::Bezier([x1, y1, x2, y2]),
        Curve::Eased(e) => {
            let fit = fitter.fit(e, u32::try_from(frames).unwrap_or(u32::MAX));
            Ease::Bezier([fit.h1.x, fit.h1.y, fit.h2.x, fit.h2.y])
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
        let a = PlanAnim { id: None, name: "a".into(), fps: 10.0, offset: 0, frames };
        Plan { fps: 10.0, anims: vec![a], total: frames }
    }

    /// Plays keys as a player does (Lottie's handles, frames between keys).
    fn play(keys: &[KeyOut], f: usize) -> f64 {
        let i = keys.iter().rposition(|k| k.frame <= f).unwrap();
        let Some(next) = keys.get(i + 1) else { return keys[i].value[0] };
        let t = (f - keys[i].frame) as f64 / (next.frame - keys[i].frame) as f64;
        let p = keys[i].ease.progress(t);
        keys[i].value[0] + (next.value[0] - keys[i].value[0]) * p
    }

    #[test]
    fn lines_merge_curves_are_kept_and_jumps_hold() {
        // 0..=10 a line, 10..=20 an ease-in bezier, then a jump at 21.
        let bez = Curve::Bezier { x1: 0.42, y1: 0.0, x2: 1.0, y2: 1.0 };
        let data: Vec<f64> = (0..30)
            .map(|f| match f {
                0..=10 => f as f64 * 2.0,
                11..=20 => 20.0 + 30.0 * bez.progress((f - 10) as f64 / 10.0),
                _ => -5.0,
            })
            .collect();
        let series = Series { dims: 1, data: &data };
        let breaks = |_: usize| vec![10, 20];
        let cands = |f0: usize, _: usize| {
            if f0 == 10 { vec![Ease::Bezier([0.42, 0.0, 1.0, 1.0])] } else { Vec::new() }
        };
        let keys = fit(&plan(30), &series, &breaks, &cands, true);
        let frames: Vec<usize> = keys.iter().map(|k| k.frame).collect();
        assert_eq!(frames, [0, 10, 20, 21, 29], "{keys:?}");
        assert_eq!(keys[0].ease, Ease::Linear);
        assert_eq!(keys[1].ease, Ease::Bezier([0.42, 0.0, 1.0, 1.0]));
        assert_eq!(keys[2].ease, Ease::Hold, "the jump holds");
        for (f, want) in data.iter().enumerate() {
            assert!((play(&keys, f) - want).abs() < 1e-6, "frame {f}");
        }
    }

    #[test]
    fn a_sine_without_a_matching_curve_is_keyed_at_every_frame() {
        let data: Vec<f64> =
            (0..=12).map(|f| 10.0 * Easing::SineIn.apply(f as f64 / 12.0)).collect();
        let series = Series { dims: 1, data: &data };
        let keys = fit(&plan(13), &series, &|_| vec![12], &|_, _| Vec::new(), false);
        assert_eq!(keys.len(), 13);
        for (f, want) in data.iter().enumerate() {
            assert!((play(&keys, f) - want).abs() < 1e-9, "frame {f}");
        }
    }

    #[test]
    fn a_static_property_is_written_bare() {
        let keys = vec![
            KeyOut { frame: 0, value: vec![3.0], ease: Ease::Linear },
            KeyOut { frame: 5, value: vec![3.0], ease: Ease::Hold },
        ];
        assert_eq!(property(&keys, true), json!({ "a": 0, "k": 3.0 }));
        let moving = vec![
            KeyOut { frame: 0, value: vec![1.0, 2.0], ease: Ease::Hold },
            KeyOut { frame: 5, value: vec![3.0, 4.0], ease: Ease::Linear },
        ];
        let p = property(&moving, false);
        assert_eq!(p["a"], 1);
        assert_eq!(p["k"][0]["h"], 1);
        assert!(p["k"][1].get("o").is_none(), "the last key has no handles");
    }
}
