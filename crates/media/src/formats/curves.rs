//! Imported curves as script easings, for `skelpad convert` (Spriter and
//! SkelForm files).
//!
//! A span between two keys of a bone's timeline (for Spriter also two
//! mainline keys, whose curve warps time for every timeline) is written as
//! one eased key when the sampled script values over the span follow the
//! file's curve: the first and last samples, and every sample between within
//! the timeline's tolerance of `v0 + (v1 − v0)·curve(u)`. A candidate a
//! parent, a warp or IK bends is thus never written. Which curves a script
//! can write:
//!
//! - SkelForm's keyframe handles: `bz(x1,y1,x2,y2)` with the handles;
//! - Spriter's `linear`: `li` (straight stretches are merged anyway);
//!   `instant`: the sampler's hair-before key keeps the jump;
//! - Spriter's `quadratic` (c1): exactly `bz(1/3, 2c1/3, 2/3, (2c1+1)/3)` — a
//!   1-D Bézier in time through 0, c1, 1 is, raised to degree three, the one
//!   through 0, 2c1/3, (2c1+1)/3, 1, and x handles at 1/3 and 2/3 make
//!   x(s) = s;
//! - Spriter's `cubic` (c1, c2): exactly `bz(1/3, c1, 2/3, c2)`, likewise;
//! - Spriter's `bezier` (c1..c4): `bz(c1, c2, c3, c4)`, the curve the file
//!   names. Spriter's runtimes solve it only to 1/200 in time, which puts
//!   them up to a few percent of a key's change off that curve; the
//!   converter samples the exact curve ([`exact_spriter_beziers`]), so the
//!   script's keys, sampled or eased, are the exact curve's;
//! - Spriter's `quartic`, `quintic`: no cubic-bezier equals them; they stay
//!   sampled.

use skelpad_lang::model::{
    Animation, Armature, BoneId, BoneProperty, CubicBezier, Curve, Easing, Key, SpriterCurveKind,
};

/// The model's property of each script bone property `x y r i j`.
pub const BONE_PROPS: [BoneProperty; 5] = [
    BoneProperty::X,
    BoneProperty::Y,
    BoneProperty::Rotation,
    BoneProperty::ScaleX,
    BoneProperty::ScaleY,
];

/// A span of one timeline with the curve the file plays over it and the
/// easing a script writes for it.
#[derive(Clone, Copy, Debug)]
pub struct CurveSpan {
    /// First frame.
    pub f0: f64,
    /// Last frame.
    pub f1: f64,
    /// The curve as the importer plays it (what the samples follow).
    pub played: Curve,
    /// The easing written for it.
    pub written: Easing,
}

/// `arm` with Spriter's bezier curves (timeline and mainline keys) as the
/// exact cubic-bezier curves the file names, the form a script plays:
/// what `skelpad convert` samples, so its keys and the spans it writes as
/// `bz(…)` agree everywhere. (The importer itself plays them as
/// SpriterPlusPlus does, solved to 1/200 in time.)
pub fn exact_spriter_beziers(arm: &Armature) -> Armature {
    let mut arm = arm.clone();
    for a in &mut arm.animations {
        let a = std::sync::Arc::make_mut(a);
        let warp = a.time_warp.iter_mut();
        for k in a.bones.iter_mut().flat_map(|c| c.keys.iter_mut()).chain(warp) {
            if let Curve::Spriter(c) = k.curve
                && c.kind == SpriterCurveKind::Bezier
            {
                let b = CubicBezier::new(c.c[0], c.c[1], c.c[2], c.c[3]);
                if b.is_valid() {
                    k.curve = Curve::Eased(Easing::Bezier(b));
                }
            }
        }
    }
    arm
}

/// The easing a script writes for a curve the file plays, `None` where a
/// script has none (linear and stepped ones need no easing).
pub fn written(curve: Curve) -> Option<Easing> {
    match curve {
        Curve::Eased(Easing::Linear) | Curve::Stepped => None,
        // Handles on the diagonal are a straight line (y(s) = x(s)).
        Curve::Eased(Easing::Bezier(b)) if b.x1 == b.y1 && b.x2 == b.y2 => None,
        // A handle's time outside 0..1 (a file may hold one) has no script form.
        Curve::Eased(Easing::Bezier(b)) if !b.is_valid() => None,
        Curve::Eased(e) => Some(e),
        Curve::Spriter(c) => match c.kind {
            SpriterCurveKind::Bezier => {
                let [x1, y1, x2, y2] = c.c;
                let b = skelpad_lang::model::CubicBezier::new(x1, y1, x2, y2);
                b.is_valid().then_some(Easing::Bezier(b))
            }
            _ => c.as_bezier().map(|(x1, y1, x2, y2)| {
                Easing::Bezier(skelpad_lang::model::CubicBezier::new(x1, y1, x2, y2))
            }),
        },
    }
}

/// The spans of `keys` (times in seconds) with a curve a script can write.
fn spans_of<T>(keys: &[Key<T>], fps: f64, out: &mut Vec<CurveSpan>) {
    for w in keys.windows(2) {
        if let Some(e) = written(w[0].curve) {
            out.push(CurveSpan {
                f0: w[0].time_secs * fps,
                f1: w[1].time_secs * fps,
                played: w[0].curve,
                written: e,
            });
        }
    }
}

/// The candidate spans for one property of one bone: its own keys' curves
/// and the mainline's (which warp time). A candidate is only written where
/// the samples follow it, so one that a warp or a parent bends is not.
pub fn bone_spans(anim: &Animation, bone: BoneId, prop: BoneProperty, fps: f64) -> Vec<CurveSpan> {
    let mut out = Vec::new();
    for c in anim.bones.iter().filter(|c| c.bone == bone && c.property == prop) {
        spans_of(&c.keys, fps, &mut out);
    }
    spans_of(&anim.time_warp, fps, &mut out);
    out.sort_by(|a, b| a.f0.total_cmp(&b.f0));
    out
}

/// The index of the sample at frame `f`, if there is one.
fn sample_at(samples: &[(f64, f64)], f: f64) -> Option<usize> {
    let i = samples.partition_point(|s| s.0 < f - 1e-9);
    ((samples.get(i)?.0 - f).abs() <= 1e-9 * f.abs().max(1.0)).then_some(i)
}

/// Where a span's samples run (first and last index) when they follow its
/// curve within `tol` and its change stays under `max_span`.
fn follows(
    samples: &[(f64, f64)],
    sp: &CurveSpan,
    tol: f64,
    max_span: f64,
) -> Option<(usize, usize)> {
    let (i0, i1) = (sample_at(samples, sp.f0)?, sample_at(samples, sp.f1)?);
    if i1 <= i0 + 1 || sp.f1 <= sp.f0 {
        return None;
    }
    let (v0, v1) = (samples[i0].1, samples[i1].1);
    if (v1 - v0).abs() >= max_span {
        return None;
    }
    samples[i0 + 1..i1]
        .iter()
        .all(|&(f, v)| {
            let u = (f - sp.f0) / (sp.f1 - sp.f0);
            (v0 + (v1 - v0) * sp.played.progress(u) - v).abs() <= tol
        })
        .then_some((i0, i1))
}

/// Merges a slice of (frame, value) samples into the keys that stand for
/// it, the slice's first and last samples kept.
pub type Compress<'a> = &'a dyn Fn(&[(f64, f64)]) -> Vec<(f64, f64)>;

/// One key a timeline writes: frame, value, and the easing of the way to
/// the next key (`None`: linear).
pub type EasedKey = (f64, f64, Option<Easing>);

/// The keys of a sampled timeline: spans that follow one of `spans`
/// become one eased key; the rest is compressed by `compress` (which keeps
/// a slice's first and last samples).
pub fn keys_with_curves(
    samples: &[(f64, f64)],
    spans: &[CurveSpan],
    tol: f64,
    max_span: f64,
    compress: Compress<'_>,
) -> Vec<EasedKey> {
    let mut out: Vec<EasedKey> = Vec::new();
    // Samples before `start` are written; `samples[start]` too once `out`
    // has keys.
    let mut start = 0;
    let plain = |out: &mut Vec<EasedKey>, part: &[(f64, f64)]| {
        let skip = usize::from(!out.is_empty());
        out.extend(compress(part).into_iter().skip(skip).map(|(f, v)| (f, v, None)));
    };
    for sp in spans {
        let Some((i0, i1)) = follows(samples, sp, tol, max_span) else { continue };
        if i0 < start {
            continue;
        }
        plain(&mut out, &samples[start..=i0]);
        if let Some(last) = out.last_mut() {
            last.2 = Some(sp.written);
        }
        out.push((samples[i1].0, samples[i1].1, None));
        start = i1;
    }
    if start + 1 < samples.len() || out.is_empty() {
        plain(&mut out, &samples[start..]);
    }
    out
}

/// A timeline line in steps of one frame (`PROP V -…-> V ::E-…-> V`, the
/// animation's defaults being `0:1:li`): `keys` at whole frames, each value
/// written by `value`. A key's easing is set by the advance that leaves it
/// (`::E-->` eases the key before it and the keys after).
pub fn stepped_line(prop: &str, keys: &[EasedKey], value: &dyn Fn(f64) -> String) -> String {
    use std::fmt::Write as _;
    let mut line = format!("\t\t{prop}");
    let (mut current, mut prev) = (Easing::Linear, None::<(f64, Easing)>);
    for &(f, v, e) in keys {
        if let Some((pf, before)) = prev {
            let dashes = "-".repeat((f - pf).round().max(0.0) as usize);
            if before == current {
                let _ = write!(line, " {dashes}>");
            } else {
                let _ = write!(line, " ::{before}{dashes}>");
                current = before;
            }
        }
        let _ = write!(line, " {}", value(v));
        prev = Some((f, e.unwrap_or(Easing::Linear)));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelpad_lang::model::SpriterCurve;

    fn spriter(kind: SpriterCurveKind, c: [f64; 4]) -> Curve {
        Curve::Spriter(SpriterCurve { kind, c })
    }

    #[test]
    fn quadratic_and_cubic_are_written_exactly_quartic_is_not() {
        for curve in [
            spriter(SpriterCurveKind::Quadratic, [0.8, 0.0, 0.0, 0.0]),
            spriter(SpriterCurveKind::Cubic, [0.995261, 0.8578, 0.0, 0.0]),
            spriter(SpriterCurveKind::Quadratic, [-0.7, 0.0, 0.0, 0.0]),
        ] {
            let e = written(curve).unwrap();
            for i in 0..=1000 {
                let u = f64::from(i) / 1000.0;
                assert!((e.apply(u) - curve.progress(u)).abs() < 1e-12, "{curve:?} at {u}");
            }
        }
        assert!(written(spriter(SpriterCurveKind::Quartic, [0.9, 0.1, 0.2, 0.0])).is_none());
        assert!(written(spriter(SpriterCurveKind::Bezier, [1.4, 0.0, 0.5, 1.0])).is_none());
        assert!(written(Curve::Stepped).is_none());
        assert!(written(Curve::bezier(0.2, 0.0, 1.5, 1.0)).is_none());
        assert!(written(Curve::bezier(0.2, 0.2, 0.8, 0.8)).is_none(), "straight");
    }

    #[test]
    fn a_span_that_follows_its_curve_becomes_one_key() {
        let curve = spriter(SpriterCurveKind::Cubic, [0.9, 0.2, 0.0, 0.0]);
        let samples: Vec<(f64, f64)> = (0..=30)
            .map(|f| {
                let f = f64::from(f);
                let v = if f <= 10.0 { f } else { 10.0 + 40.0 * curve.progress((f - 10.0) / 20.0) };
                (f, v)
            })
            .collect();
        let sp = CurveSpan { f0: 10.0, f1: 30.0, played: curve, written: written(curve).unwrap() };
        let plain = |s: &[(f64, f64)]| vec![s[0], s[s.len() - 1]];
        let keys = keys_with_curves(&samples, &[sp], 1e-6, f64::INFINITY, &plain);
        assert_eq!(
            keys,
            vec![(0.0, 0.0, None), (10.0, 10.0, Some(sp.written)), (30.0, 50.0, None)]
        );
        // A span the samples do not follow stays sampled.
        let other = CurveSpan { played: Curve::LINEAR, ..sp };
        let keys = keys_with_curves(&samples, &[other], 1e-6, f64::INFINITY, &plain);
        assert!(keys.iter().all(|k| k.2.is_none()));
    }
}
