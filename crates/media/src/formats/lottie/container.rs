//! The files a Lottie document goes into: plain JSON, a dotLottie zip
//! (manifest + animation), a Telegram sticker (gzipped, with its limits).

use std::io::Write;

use super::{Lottie, LottieError};

/// Which file to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// Lottie JSON (`.json`).
    Json,
    /// dotLottie (`.lottie`): a zip with `manifest.json` (version 2) and
    /// `animations/ID.json`, one per animation (its name as the id).
    DotLottie,
    /// A Telegram sticker (`.tgs`): gzipped Lottie, 512×512, 60 fps, at most
    /// 3 s, no images, at most 64 KiB.
    Tgs,
}

/// The largest `.tgs` file Telegram takes.
pub const TGS_MAX_BYTES: usize = 64 * 1024;

/// The bytes of the file; a `.tgs` that misses one of Telegram's limits is
/// refused with the reason.
pub fn encode(lottie: &Lottie, container: Container, id: &str) -> Result<Vec<u8>, LottieError> {
    let io = |e: std::io::Error| LottieError::Encode(format!("cannot encode: {e}"));
    match container {
        Container::Json => to_bytes(&lottie.json),
        Container::DotLottie => {
            let named: Vec<(String, &serde_json::Value)> = if lottie.entries.is_empty() {
                vec![(id.to_string(), &lottie.json)]
            } else {
                lottie.entries.iter().map(|(n, d)| (n.clone(), d)).collect()
            };
            let ids = entry_ids(named.iter().map(|(n, _)| n.as_str()));
            let manifest = serde_json::json!({
                "version": "2",
                "generator": concat!("skelpad ", env!("CARGO_PKG_VERSION")),
                "animations": ids.iter().map(|id| serde_json::json!({ "id": id })).collect::<Vec<_>>(),
                "initial": { "animation": ids[0] },
            });
            let mut buf = std::io::Cursor::new(Vec::new());
            let mut zip = zip::ZipWriter::new(&mut buf);
            let opts = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            let zerr = |e: zip::result::ZipError| {
                LottieError::Encode(format!("cannot write the zip: {e}"))
            };
            zip.start_file("manifest.json", opts).map_err(zerr)?;
            zip.write_all(manifest.to_string().as_bytes()).map_err(io)?;
            for (id, (_, doc)) in ids.iter().zip(&named) {
                zip.start_file(format!("animations/{id}.json"), opts).map_err(zerr)?;
                zip.write_all(&to_bytes(doc)?).map_err(io)?;
            }
            zip.finish().map_err(zerr)?;
            Ok(buf.into_inner())
        }
        Container::Tgs => {
            tgs_limits(lottie)?;
            let mut doc = lottie.json.clone();
            doc["tgs"] = serde_json::json!(1);
            let json = to_bytes(&doc)?;
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            gz.write_all(&json).map_err(io)?;
            let bytes = gz.finish().map_err(io)?;
            if bytes.len() > TGS_MAX_BYTES {
                return Err(LottieError::Limit(format!(
                    "a .tgs sticker may have at most {TGS_MAX_BYTES} bytes gzipped; this one has {}",
                    bytes.len()
                )));
            }
            Ok(bytes)
        }
    }
}

/// A dotLottie id per name: letters, digits, `-` and `_` kept, anything
/// else `_` (an id names the entry's file), made unique with `-2`, `-3`…
/// (never empty: `animation`).
pub fn entry_ids<'a>(names: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in names {
        let base: String = name
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
            .collect();
        let base = if base.is_empty() { "animation".to_string() } else { base };
        let mut id = base.clone();
        let mut n = 2;
        while out.contains(&id) {
            id = format!("{base}-{n}");
            n += 1;
        }
        out.push(id);
    }
    if out.is_empty() {
        out.push("animation".into());
    }
    out
}

/// The document as JSON text with every object's `ty` first: rlottie (and
/// so Telegram's players) reads an object's type from its first keys and
/// draws nothing when `ty` comes after the others.
pub fn to_bytes(doc: &serde_json::Value) -> Result<Vec<u8>, LottieError> {
    let mut out = Vec::new();
    write_value(&mut out, doc).map_err(|e| LottieError::Encode(format!("cannot encode: {e}")))?;
    Ok(out)
}

fn write_value(out: &mut Vec<u8>, v: &serde_json::Value) -> serde_json::Result<()> {
    match v {
        serde_json::Value::Object(map) => {
            out.push(b'{');
            let first = map.get_key_value("ty").into_iter();
            let rest = map.iter().filter(|(k, _)| k.as_str() != "ty");
            for (i, (k, val)) in first.chain(rest).enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                serde_json::to_writer(&mut *out, k)?;
                out.push(b':');
                write_value(out, val)?;
            }
            out.push(b'}');
        }
        serde_json::Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value(out, item)?;
            }
            out.push(b']');
        }
        scalar => serde_json::to_writer(&mut *out, scalar)?,
    }
    Ok(())
}

fn tgs_limits(lottie: &Lottie) -> Result<(), LottieError> {
    let d = &lottie.json;
    let num = |k: &str| d.get(k).and_then(serde_json::Value::as_f64).unwrap_or(0.0);
    let (w, h, fr, op) = (num("w"), num("h"), num("fr"), num("op"));
    let refuse = |m: String| Err(LottieError::Limit(m));
    if (w, h) != (512.0, 512.0) {
        return refuse(format!("a .tgs sticker is 512x512; this one is {w}x{h}"));
    }
    if (fr - 60.0).abs() > 1e-9 {
        return refuse(format!("a .tgs sticker plays at 60 fps; this one at {fr}"));
    }
    if op / fr > 3.0 + 1e-9 {
        return refuse(format!(
            "a .tgs sticker lasts at most 3 s; this one lasts {:.3} s (export one animation with --anim)",
            op / fr
        ));
    }
    if lottie.has_images {
        return refuse("a .tgs sticker may not contain images; this one has sprites".into());
    }
    Ok(())
}
