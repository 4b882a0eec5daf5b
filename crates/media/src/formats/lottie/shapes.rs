//! Outlines → Lottie bezier shapes, and the fill and stroke items.

use serde_json::{Value, json};

use crate::render::{AttachmentOutline, OutlineSegment};
use skelpad_lang::model::{LineCap, LineJoin};

/// A Lottie bezier (`{"c","v","i","o"}`) of an outline in attachment space
/// (y up), written in layer space (y down). Tangents are relative to their
/// vertex, as Lottie has them; quadratics are raised to cubics.
pub fn bezier(o: &AttachmentOutline) -> Value {
    bezier_mapped(o, &|p| [p[0], -p[1]])
}

/// A Lottie bezier of an outline with every point mapped by `map` (an
/// affine map: tangents are mapped points minus mapped vertices).
pub fn bezier_mapped(o: &AttachmentOutline, map: &dyn Fn([f64; 2]) -> [f64; 2]) -> Value {
    let flip = map;
    let mut v: Vec<[f64; 2]> = vec![flip(o.start)];
    let mut tin: Vec<[f64; 2]> = vec![[0.0, 0.0]];
    let mut tout: Vec<[f64; 2]> = vec![[0.0, 0.0]];
    let mut last = o.start;
    for seg in &o.segments {
        let (c1, c2, p) = match *seg {
            OutlineSegment::Line(p) => (last, p, p),
            OutlineSegment::Quad(c, p) => {
                let c1 = [
                    last[0] + 2.0 / 3.0 * (c[0] - last[0]),
                    last[1] + 2.0 / 3.0 * (c[1] - last[1]),
                ];
                let c2 = [p[0] + 2.0 / 3.0 * (c[0] - p[0]), p[1] + 2.0 / 3.0 * (c[1] - p[1])];
                (c1, c2, p)
            }
            OutlineSegment::Cubic(c1, c2, p) => (c1, c2, p),
        };
        let (ml, mc1, mc2, mp) = (flip(last), flip(c1), flip(c2), flip(p));
        if let Some(t) = tout.last_mut() {
            *t = [mc1[0] - ml[0], mc1[1] - ml[1]];
        }
        v.push(mp);
        tin.push([mc2[0] - mp[0], mc2[1] - mp[1]]);
        tout.push([0.0, 0.0]);
        last = p;
    }
    // A closed outline that ends on its start: the last vertex is the first.
    if o.closed && v.len() > 1 && v.last() == v.first() {
        v.pop();
        tout.pop();
        if let Some(t) = tin.pop() {
            tin[0] = t;
        }
    }
    let r = |p: &[f64; 2]| json!([round(p[0]), round(p[1])]);
    json!({
        "c": o.closed,
        "v": v.iter().map(r).collect::<Vec<_>>(),
        "i": tin.iter().map(r).collect::<Vec<_>>(),
        "o": tout.iter().map(r).collect::<Vec<_>>(),
    })
}

fn round(v: f64) -> f64 {
    let r = (v * 1e6).round() / 1e6;
    if r == 0.0 { 0.0 } else { r }
}

/// Lottie's line cap number.
pub fn cap(c: LineCap) -> u8 {
    match c {
        LineCap::Butt => 1,
        LineCap::Round => 2,
        LineCap::Square => 3,
    }
}

/// Lottie's line join number.
pub fn join(j: LineJoin) -> u8 {
    match j {
        LineJoin::Miter => 1,
        LineJoin::Round => 2,
        LineJoin::Bevel => 3,
    }
}

/// The group transform every shape group carries (identity).
pub fn group_transform() -> Value {
    json!({
        "ty": "tr",
        "p": { "a": 0, "k": [0, 0] },
        "a": { "a": 0, "k": [0, 0] },
        "s": { "a": 0, "k": [100, 100] },
        "r": { "a": 0, "k": 0 },
        "o": { "a": 0, "k": 100 },
        "sk": { "a": 0, "k": 0 },
        "sa": { "a": 0, "k": 0 },
    })
}
