//! A Spriter timeline's keys → the model's channels: by time where a time
//! search finds the key each mainline ref names, else span by span from
//! the ref's key (exact curve windows, or baked per millisecond), and the
//! attachment keys hidden where the mainline does not show the slot.

use super::anim::adjust_angle;
use super::*;

/// The channels of one timeline.
pub(super) struct Chans<'a> {
    pub(super) x: Vec<Key<f64>>,
    pub(super) y: Vec<Key<f64>>,
    pub(super) sx: Vec<Key<f64>>,
    pub(super) sy: Vec<Key<f64>>,
    /// Radians, unwrapped (interpolated plainly).
    pub(super) rot: Vec<Key<f64>>,
    pub(super) alpha: Vec<Key<f64>>,
    /// Times (ms) and the key whose image shows from then on.
    pub(super) att: Vec<(f64, &'a TKey)>,
}

impl<'a> Chans<'a> {
    pub(super) fn new() -> Self {
        Chans {
            x: Vec::new(),
            y: Vec::new(),
            sx: Vec::new(),
            sy: Vec::new(),
            rot: Vec::new(),
            alpha: Vec::new(),
            att: Vec::new(),
        }
    }
}

/// One mainline span in which a timeline is shown: [ts, te) in ms (te is
/// infinite after the last key of a non-looping animation), the key its ref
/// names (sorted position) and whether a time search over the keys gives
/// what SpriterPlusPlus's ref gives.
pub(super) struct Span {
    pub(super) ts: f64,
    pub(super) te: f64,
    pub(super) key: usize,
    pub(super) by_time: bool,
}

/// The next key SpriterPlusPlus interpolates towards from sorted key `p`
/// and its time: the following key; after the last, the first one a length
/// later (looping) or the key itself (holds).
pub(super) fn next_of<'a>(a: &Anim, keys: &[&'a TKey], p: usize) -> (&'a TKey, f64) {
    match keys.get(p + 1) {
        Some(k) => (k, k.time),
        None if a.looping && keys.len() > 1 => (keys[0], keys[0].time + a.length_ms),
        None => (keys[p], keys[p].time),
    }
}

pub(super) fn spans_of(
    a: &Anim,
    ti: usize,
    pos: &[usize],
    keys: &[&TKey],
    hidden_at: &[Vec<usize>],
) -> Vec<Span> {
    let mut out = Vec::new();
    for (mi, mk) in a.mainline.iter().enumerate() {
        let te = match a.mainline.get(mi + 1) {
            Some(next) => next.time,
            None if a.looping => a.mainline[0].time + a.length_ms,
            None => f64::INFINITY,
        };
        let Some(r) = mk
            .bone_refs
            .iter()
            .chain(&mk.object_refs)
            .enumerate()
            .find(|(ri, r)| r.timeline == ti as i64 && !hidden_at[mi].contains(ri))
            .map(|(_, r)| r)
        else {
            continue;
        };
        let Some(&p) = usize::try_from(r.key).ok().and_then(|k| pos.get(k)) else { continue };
        let k = keys[p];
        let (next, next_time) = next_of(a, keys, p);
        // The last key with time <= ts must be k (or a key at the same time
        // with the same next), and no key may start inside the span.
        let found = keys.partition_point(|x| x.time <= mk.time).saturating_sub(1);
        let holds = std::ptr::eq(next, k);
        let by_time = k.time <= mk.time
            && found == p
            && if holds {
                p + 1 == keys.len()
            } else if te.is_finite() {
                next_time >= te
            } else {
                // After the last mainline key of a non-looping animation the
                // time stays at the key's: only the value there counts.
                true
            };
        out.push(Span { ts: mk.time, te, key: p, by_time });
    }
    out
}

/// The channels of a timeline whose refs all agree with a time search: its
/// keys, plus SpriterPlusPlus's proxy key before a late first key and the
/// looping span from the last key back to the first.
pub(super) fn by_time<'a>(a: &Anim, keys: &[&'a TKey]) -> Chans<'a> {
    let len = a.length_ms;
    let n = keys.len();
    let mut ext: Vec<(f64, &TKey, Curve, i32)> = Vec::new();
    if keys[0].time > 0.0 {
        let last = keys[n - 1];
        if a.looping {
            ext.push((last.time - len, last, model_curve(last.curve), last.spin));
        } else {
            ext.push((last.time - len, keys[0], Curve::Stepped, 0));
        }
    }
    for k in keys {
        ext.push((k.time, k, model_curve(k.curve), k.spin));
    }
    if a.looping && n > 1 {
        ext.push((keys[0].time + len, keys[0], Curve::Stepped, 0));
    } else if let Some(l) = ext.last_mut() {
        l.2 = Curve::Stepped;
    }
    let mut c = Chans::new();
    let key = |tm: f64, value: f64, curve: Curve| Key { time_secs: tm / 1000.0, value, curve };
    let mut v = ext[0].1.angle;
    for (i, &(tm, k, curve, spin)) in ext.iter().enumerate() {
        c.x.push(key(tm, k.x, curve));
        c.y.push(key(tm, k.y, curve));
        c.sx.push(key(tm, k.scale_x, curve));
        c.sy.push(key(tm, k.scale_y, curve));
        c.alpha.push(key(tm, k.alpha, curve));
        c.att.push((tm, k));
        // Rotation: unwrapped by each key's spin; spin 0 holds.
        if i > 0 {
            let (pa, pspin) = (ext[i - 1].1.angle, ext[i - 1].3);
            v += adjust_angle(pa, k.angle, pspin) - pa;
        }
        c.rot.push(key(tm, v.to_radians(), if spin == 0 { Curve::Stepped } else { curve }));
    }
    c
}

/// Progress as SpriterPlusPlus computes it for any ratio (instant: 1 only
/// past the end).
pub(super) fn spp_progress(curve: KeyCurve, r: f64) -> f64 {
    match curve {
        KeyCurve::Instant => {
            if r > 1.0 {
                1.0
            } else {
                0.0
            }
        }
        KeyCurve::Linear => r,
        KeyCurve::Other(c) => c.progress(r),
    }
}

/// Splits a 1-D Bézier (control values `p`) to the parameter range [r0, r1].
pub(super) fn bezier_window(p: &[f64], r0: f64, r1: f64) -> Vec<f64> {
    // Left part [0, r1], then the right part of that from r0 / r1.
    let split = |p: &[f64], t: f64| -> (Vec<f64>, Vec<f64>) {
        let mut cur = p.to_vec();
        let (mut left, mut right) = (vec![cur[0]], vec![cur[cur.len() - 1]]);
        while cur.len() > 1 {
            cur = cur.windows(2).map(|w| w[0] + (w[1] - w[0]) * t).collect();
            left.push(cur[0]);
            right.push(cur[cur.len() - 1]);
        }
        right.reverse();
        (left, right)
    };
    let (left, _) = split(p, r1);
    let t = if r1 != 0.0 { r0 / r1 } else { 0.0 };
    split(&left, t).1
}

/// The same progress over a part [r0, r1] of a curve, rescaled to 0..1,
/// when it is a curve of the same kind (polynomials; linear).
pub(super) fn window_curve(curve: KeyCurve, r0: f64, r1: f64) -> Option<Curve> {
    let KeyCurve::Other(c) = curve else {
        return (curve == KeyCurve::Linear).then_some(Curve::LINEAR);
    };
    let p: Vec<f64> = match c.kind {
        SpriterCurveKind::Quadratic => vec![0.0, c.c[0], 1.0],
        SpriterCurveKind::Cubic => vec![0.0, c.c[0], c.c[1], 1.0],
        SpriterCurveKind::Quartic => vec![0.0, c.c[0], c.c[1], c.c[2], 1.0],
        SpriterCurveKind::Quintic => vec![0.0, c.c[0], c.c[1], c.c[2], c.c[3], 1.0],
        SpriterCurveKind::Bezier => return None,
    };
    let w = bezier_window(&p, r0, r1);
    let (b0, bd) = (w[0], w[w.len() - 1]);
    if (bd - b0).abs() < 1e-9 {
        return None;
    }
    let mut cs = [0.0; 4];
    for (i, v) in w[1..w.len() - 1].iter().enumerate() {
        cs[i] = (v - b0) / (bd - b0);
    }
    Some(Curve::Spriter(SpriterCurve { kind: c.kind, c: cs }))
}

/// Most keys one span is baked into.
pub(super) const MAX_BAKED_KEYS: usize = 2000;
/// Keys a timeline's baked spans may add in all (beyond, a span is one
/// straight key: bounded work for any file).
pub(super) const MAX_BAKED_PER_TIMELINE: usize = 200_000;

/// The channels of a timeline some of whose refs name a key a time search
/// would not find (keys past the animation's end, refs to older keys):
/// each mainline span gets its own keys reproducing SpriterPlusPlus's
/// interpolation from the ref's key exactly (a part of a polynomial curve
/// is again one), or baked per millisecond where it is not (part of a
/// bezier curve).
pub(super) fn by_span<'a>(
    a: &Anim,
    spans: &[Span],
    keys: &[&'a TKey],
    warnings: &mut Vec<Warning>,
) -> Chans<'a> {
    let mut c = Chans::new();
    let mut baked = 0usize;
    let mut baked_keys = 0usize;
    for sp in spans {
        let k = keys[sp.key];
        let (next, next_time) = next_of(a, keys, sp.key);
        let dur = next_time - k.time;
        let holds = std::ptr::eq(next, k) || dur == 0.0;
        c.att.push((sp.ts, k));
        let at = SpanKey { sp, k, dur, holds };
        // (value at k, value at next) for each channel; rotation adjusted by spin.
        let pairs: [(f64, f64, bool); 6] = [
            (k.x, next.x, false),
            (k.y, next.y, false),
            (k.scale_x, next.scale_x, false),
            (k.scale_y, next.scale_y, false),
            (k.angle, adjust_angle(k.angle, next.angle, k.spin), true),
            (k.alpha, next.alpha, false),
        ];
        for (ch, &pair) in pairs.iter().enumerate() {
            let out = match ch {
                0 => &mut c.x,
                1 => &mut c.y,
                2 => &mut c.sx,
                3 => &mut c.sy,
                4 => &mut c.rot,
                _ => &mut c.alpha,
            };
            baked += usize::from(span_channel(out, &at, pair, &mut baked_keys));
        }
    }
    if baked > 0 {
        warn(
            warnings,
            &a.loc,
            format!(
                "{baked} channel span(s) of \"{}\" are baked per millisecond (part of a bezier curve)",
                a.name
            ),
        );
    }
    c
}

/// A mainline span and the key its ref names, with the time to the key
/// after it and whether the value holds over the span.
pub(super) struct SpanKey<'a> {
    pub(super) sp: &'a Span,
    pub(super) k: &'a TKey,
    pub(super) dur: f64,
    pub(super) holds: bool,
}

/// One channel's keys over a span (`at`), from `va` at its key to `vb` at
/// the next (`is_rot`: degrees, made radians); whether they were baked per
/// millisecond (counted in `baked_keys`).
pub(super) fn span_channel(
    out: &mut Vec<Key<f64>>,
    at: &SpanKey<'_>,
    (va, vb, is_rot): (f64, f64, bool),
    baked_keys: &mut usize,
) -> bool {
    let SpanKey { sp, k, dur, holds } = *at;
    let frozen = !sp.te.is_finite();
    let ratio = |t: f64| (t - k.time) / dur;
    let conv = |v: f64| if is_rot { v.to_radians() } else { v };
    let key = |t: f64, v: f64, curve: Curve| Key { time_secs: t / 1000.0, value: conv(v), curve };
    let f = |t: f64| va + (vb - va) * spp_progress(k.curve, ratio(t));
    if holds || (is_rot && k.spin == 0) {
        out.push(key(sp.ts, va, Curve::Stepped));
        return false;
    }
    if frozen {
        out.push(key(sp.ts, f(sp.ts), Curve::Stepped));
        return false;
    }
    let (r0, r1) = (ratio(sp.ts), ratio(sp.te));
    let exact = match k.curve {
        KeyCurve::Instant if r1 <= 1.0 || r0 > 1.0 => Some(Curve::Stepped),
        _ if r0 == 0.0 && r1 == 1.0 => Some(model_curve(k.curve)),
        KeyCurve::Instant => None,
        _ => window_curve(k.curve, r0, r1),
    };
    let mut baked = false;
    match exact {
        Some(curve) => out.push(key(sp.ts, f(sp.ts), curve)),
        None => {
            // Per millisecond, within a budget per timeline.
            let left = MAX_BAKED_PER_TIMELINE.saturating_sub(*baked_keys);
            let steps = ((sp.te - sp.ts).ceil() as usize).clamp(1, MAX_BAKED_KEYS.min(left.max(1)));
            *baked_keys += steps;
            for i in 0..steps {
                let t = sp.ts + (sp.te - sp.ts) * i as f64 / steps as f64;
                out.push(key(t, f(t), Curve::LINEAR));
            }
            baked = true;
        }
    }
    // The span's end value (the next span's keys follow at the same time).
    out.push(key(sp.te, f(sp.te), Curve::Stepped));
    baked
}

/// The attachment keys with the slot hidden (`None`) over every mainline
/// span that does not show it, so that every reader of the model (exports,
/// conversion) hides it there too, not only the draw order.
pub(super) fn hide_where_absent(
    keys: Vec<Key<Option<AttachmentId>>>,
    order: &[Key<Arc<[SlotId]>>],
    slot: SlotId,
    end: Option<f64>,
) -> Vec<Key<Option<AttachmentId>>> {
    let at = |t: f64| skelpad_lang::runtime::sample_stepped(&keys, t).flatten();
    let mut out: Vec<Key<Option<AttachmentId>>> = Vec::new();
    let step = |time_secs: f64, value| Key { time_secs, value, curve: Curve::Stepped };
    for (i, m) in order.iter().enumerate() {
        let te = order.get(i + 1).map(|n| n.time_secs).or(end).unwrap_or(f64::INFINITY);
        if m.value.contains(&slot) {
            out.push(step(m.time_secs, at(m.time_secs)));
            out.extend(
                keys.iter().filter(|k| k.time_secs > m.time_secs && k.time_secs < te).copied(),
            );
        } else {
            out.push(step(m.time_secs, None));
        }
    }
    if order.is_empty() {
        return keys;
    }
    // Before the first mainline key and after the animation's end the keys hold as they were.
    let first = order[0].time_secs;
    let mut before: Vec<_> = keys.iter().filter(|k| k.time_secs < first).copied().collect();
    before.extend(out);
    before
}
