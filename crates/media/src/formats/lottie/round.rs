//! The numbers of a finished document rounded to a fixed number of decimals
//! (`docs/lottie.md`, "Precision"): positions, anchors, paths, stroke widths,
//! opacities and colours to `decimals`; rotations, skews and scales (degrees
//! and percent, which a bone's reach multiplies) to two more; a key's bezier
//! handles (progress from 0 to 1, which a whole move multiplies) to six at
//! least. `metadata` is left as it is (its `view` must stay exact).

use serde_json::{Map, Value};

/// The most decimals a document is written with.
pub const MAX_DECIMALS: u32 = 9;

/// The default for a file drawn at `pixels_per_unit`: a position is off by
/// at most 0.00005 units (a hundredth of the 0.001 units a player's pose must
/// match at whole frames, leaving room for a chain of bones each rounded).
pub fn default_decimals(pixels_per_unit: f64) -> u32 {
    let ppu =
        if pixels_per_unit.is_finite() && pixels_per_unit > 0.0 { pixels_per_unit } else { 1.0 };
    let extra = (-ppu.log10()).ceil().max(0.0);
    (4.0 + extra).min(f64::from(MAX_DECIMALS)) as u32
}

#[derive(Clone, Copy)]
enum Kind {
    /// Positions, paths, colours, opacities.
    Plain,
    /// Rotations and scales.
    Fine,
    /// A key's bezier handles.
    Handle,
}

/// Rounds every number of `doc` but its `metadata`.
pub fn document(doc: &mut Value, decimals: u32) {
    let decimals = decimals.min(MAX_DECIMALS);
    if let Value::Object(map) = doc {
        for (k, v) in map.iter_mut() {
            if k != "metadata" {
                walk(v, Kind::Plain, decimals);
            }
        }
    }
}

fn walk(v: &mut Value, kind: Kind, decimals: u32) {
    match v {
        Value::Number(n) => {
            if let Some(x) = n.as_f64().filter(|_| !n.is_i64() && !n.is_u64()) {
                let d = match kind {
                    Kind::Plain => decimals,
                    Kind::Fine => decimals + 2,
                    Kind::Handle => (decimals + 2).max(6),
                };
                *v = rounded(x, d.min(MAX_DECIMALS + 2));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| walk(i, kind, decimals)),
        Value::Object(map) => object(map, kind, decimals),
        _ => {}
    }
}

fn object(map: &mut Map<String, Value>, kind: Kind, decimals: u32) {
    // A transform: a layer's `ks` or a group's `tr` (a property has `k`).
    let keyframe = map.contains_key("t") && map.contains_key("s");
    let transform = !keyframe
        && !map.contains_key("k")
        && (map.contains_key("r") || map.contains_key("s"))
        && (map.contains_key("p") || map.contains_key("a") || map.contains_key("o"));
    for (k, v) in map.iter_mut() {
        let inner = match k.as_str() {
            "r" | "s" | "sk" | "sa" if transform => Kind::Fine,
            "i" | "o" if keyframe && v.is_object() => Kind::Handle,
            _ => kind,
        };
        walk(v, inner, decimals);
    }
}

fn rounded(x: f64, decimals: u32) -> Value {
    let k = 10f64.powi(decimals as i32);
    let r = (x * k).round() / k;
    if r == 0.0 {
        return Value::from(0);
    }
    if r == r.trunc() && r.abs() < 9.0e15 {
        return Value::from(r as i64);
    }
    serde_json::Number::from_f64(r).map_or(Value::Null, Value::Number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn transforms_keep_more_decimals_for_turns_and_handles() {
        let mut doc = json!({
            "layers": [{ "ty": 3, "ks": {
                "p": { "a": 1, "k": [
                    { "t": 0, "s": [1.234567, 2.0000001], "o": { "x": 0.1234567, "y": 0.0 }, "i": { "x": 0.9, "y": 1.0 } },
                    { "t": 5, "s": [3.0, 4.0] }
                ] },
                "r": { "a": 0, "k": 12.3456789 },
                "s": { "a": 0, "k": [100.0000004, 99.1234567] },
                "a": { "a": 0, "k": [0, 0] }
            } }],
            "metadata": { "skelpad": { "view": [1.23456789123, 0.0] } }
        });
        document(&mut doc, 3);
        let ks = &doc["layers"][0]["ks"];
        assert_eq!(ks["p"]["k"][0]["s"], json!([1.235, 2]));
        assert_eq!(ks["p"]["k"][0]["o"]["x"], json!(0.123457));
        assert_eq!(ks["r"]["k"], json!(12.34568));
        assert_eq!(ks["s"]["k"], json!([100, 99.12346]));
        assert_eq!(doc["metadata"]["skelpad"]["view"][0], json!(1.23456789123));
    }

    #[test]
    fn the_default_follows_the_scale() {
        assert_eq!(default_decimals(1.0), 4);
        assert_eq!(default_decimals(3.5), 4);
        assert_eq!(default_decimals(0.2), 5);
        assert_eq!(default_decimals(f64::NAN), 4);
    }
}
