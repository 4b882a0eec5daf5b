//! Per-frame values → glTF samplers. The Lottie export's fitter
//! ([`crate::formats::lottie::keys::fit`]) finds where a straight line lands
//! on every frame; glTF has one interpolation per sampler, so a sampler is
//! STEP when every key holds, else LINEAR with each hold written as a key
//! just before the jump (a hundredth of a frame). Turns become quaternions
//! about z; a turn of half a circle or more between two keys is split, as
//! glTF's LINEAR rotation is the shorter way round (slerp).

use crate::formats::lottie::frames::Plan;
use crate::formats::lottie::keys::{self, Ease, KeyOut, Series};

/// Keys ready for the buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Sampler {
    /// Seconds, increasing.
    pub times: Vec<f32>,
    /// `dims` numbers per key.
    pub values: Vec<f32>,
    /// Numbers per key.
    pub dims: usize,
    /// STEP (else LINEAR).
    pub step: bool,
}

/// Fits per-frame values (`dims` each) of one clip: `breaks`, the frames
/// where the animation's own keys fall; `jumps_hold` makes a change between
/// two frames a hold (discrete values).
pub fn fit(
    plan: &Plan,
    data: &[f64],
    dims: usize,
    breaks: &[usize],
    jumps_hold: bool,
) -> Vec<KeyOut> {
    let series = Series { dims, data, approx: 0.0 };
    let b = breaks.to_vec();
    keys::fit(plan, &series, &|_| b.clone(), &|_, _| Vec::new(), jumps_hold)
}

/// Whether every key equals `rest` (then no channel is written).
pub fn at_rest(keys: &[KeyOut], rest: &[f64]) -> bool {
    keys.iter()
        .all(|k| k.value.iter().zip(rest).all(|(a, b)| (a - b).abs() <= 1e-9 * b.abs().max(1.0)))
}

/// Splits straight segments of a turn (one number, radians) that cover
/// more than `max` into equal parts.
pub fn split_turns(keys: &[KeyOut], max: f64) -> Vec<(f64, KeyOut)> {
    let mut out = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        out.push((k.frame, k.clone()));
        let Some(next) = keys.get(i + 1) else { continue };
        let d = next.value[0] - k.value[0];
        if k.ease == Ease::Hold || d.abs() < max {
            continue;
        }
        let parts = (d.abs() / max).ceil().min(1e6) as usize;
        for p in 1..parts {
            let t = p as f64 / parts as f64;
            let frame = k.frame + t * (next.frame - k.frame);
            let value = vec![k.value[0] + d * t];
            out.push((frame, KeyOut { frame: k.frame, value, ease: Ease::Linear }));
        }
    }
    out
}

/// A sampler from keys at (fractional) frames of a clip at `fps`, each
/// value mapped by `map` (e.g. a turn to a quaternion). Times are 32-bit
/// floats, which may round a frame's time up past the time a player is
/// asked for: so a jump (every key of a STEP sampler, a hold in a LINEAR
/// one) lands [`EARLY`] of a frame before its frame.
pub fn sampler(keys: &[(f64, KeyOut)], fps: f64, map: &dyn Fn(&[f64]) -> Vec<f64>) -> Sampler {
    // A straight line between equal values holds too.
    let all_hold =
        keys.windows(2).all(|w| w[0].1.ease == Ease::Hold || w[0].1.value == w[1].1.value);
    let dims = keys.first().map_or(1, |(_, k)| map(&k.value).len());
    let mut s = Sampler { times: Vec::new(), values: Vec::new(), dims, step: all_hold };
    let mut push = |frame: f64, v: &[f64]| {
        let t = (frame.max(0.0) / fps) as f32;
        let v: Vec<f32> = map(v).iter().map(|&x| x as f32).collect();
        // Late in a long animation two times may round to one 32-bit
        // float: the later key replaces the earlier (times must increase).
        if s.times.last().is_some_and(|&last| t <= last) {
            let n = s.values.len() - v.len();
            s.values.truncate(n);
        } else {
            s.times.push(t);
        }
        s.values.extend(v);
    };
    for (i, (frame, k)) in keys.iter().enumerate() {
        let jump_in = i > 0 && keys[i - 1].1.ease == Ease::Hold && keys[i - 1].1.value != k.value;
        if all_hold {
            push(if i == 0 { *frame } else { frame - EARLY }, &k.value);
            continue;
        }
        if jump_in {
            push(frame - 10.0 * EARLY, &keys[i - 1].1.value);
            push(frame - EARLY, &k.value);
        }
        push(*frame, &k.value);
    }
    s
}

/// How early a jump lands, in frames.
pub const EARLY: f64 = 0.002;

/// Plain keys at their frames.
pub fn at_frames(keys: Vec<KeyOut>) -> Vec<(f64, KeyOut)> {
    keys.into_iter().map(|k| (k.frame, k)).collect()
}

/// A turn about z as a quaternion `[x, y, z, w]`.
pub fn quaternion(r: &[f64]) -> Vec<f64> {
    let h = r[0] / 2.0;
    vec![0.0, 0.0, h.sin(), h.cos()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::lottie::frames::PlanAnim;

    /// `total` samples: the animation's frames and its closing frame.
    fn plan(total: usize) -> Plan {
        let a = PlanAnim { id: None, name: "a".into(), fps: 10.0, offset: 0, frames: total - 1 };
        Plan { fps: 10.0, anims: vec![a], total, stepped: false }
    }

    #[test]
    fn a_full_turn_is_split_and_holds_jump_just_before_the_next_key() {
        let data: Vec<f64> = (0..11).map(|f| f as f64 * std::f64::consts::TAU / 10.0).collect();
        let keys = fit(&plan(11), &data, 1, &[], false);
        assert_eq!(keys.len(), 2, "one straight segment: {keys:?}");
        let split = split_turns(&keys, 2.0);
        assert_eq!(split.len(), 5, "{split:?}");
        let s = sampler(&split, 10.0, &quaternion);
        assert!(!s.step && s.dims == 4 && s.times.len() == 5);
        let steps: Vec<f64> = vec![1.0, 1.0, 2.0, 2.0, 2.0];
        let keys = fit(&plan(5), &steps, 1, &[], true);
        let s = sampler(&at_frames(keys), 10.0, &|v| v.to_vec());
        assert!(s.step, "{s:?}");
        let mixed: Vec<f64> = vec![1.0, 1.0, 2.0, 3.0, 4.0];
        let keys = fit(&plan(5), &mixed, 1, &[], true);
        let s = sampler(&at_frames(keys), 10.0, &|v| v.to_vec());
        assert!(!s.step);
        assert!(s.times.windows(2).all(|w| w[0] < w[1]), "{s:?}");
        // Frames 100 000 apart at 120 fps: a jump's early key rounds onto
        // its frame's time and is dropped, the times still increase.
        let far = vec![
            (99_999.0, KeyOut { frame: 99_999.0, value: vec![1.0], ease: Ease::Hold }),
            (100_000.0, KeyOut { frame: 100_000.0, value: vec![2.0], ease: Ease::Linear }),
            (100_001.0, KeyOut { frame: 100_001.0, value: vec![3.0], ease: Ease::Hold }),
        ];
        let s = sampler(&far, 120.0, &|v| v.to_vec());
        assert!(s.times.windows(2).all(|w| w[0] < w[1]), "{s:?}");
        assert_eq!(s.values.len(), s.times.len());
    }
}
