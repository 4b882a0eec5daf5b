//! PNG encoding: the one encoder for previews, frames, sheets and atlases.

/// PNG bytes of an 8-bit RGBA picture (`rgba` is `width × height × 4` bytes).
/// Fast compression: these are previews, frames and atlases, written often.
pub fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let expected = u64::from(width) * u64::from(height) * 4;
    if rgba.len() as u64 != expected {
        return Err(format!(
            "cannot encode a PNG: {} bytes of pixels for a {width}×{height} picture",
            rgba.len()
        ));
    }
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Adaptive)
        .write_image(rgba, width, height, image::ExtendedColorType::Rgba8)
        .map_err(|e| format!("cannot encode a PNG: {e}"))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trips() {
        let rgba: Vec<u8> = (0..4 * 3 * 2).map(|i| (i * 10) as u8).collect();
        let png = encode_png(3, 2, &rgba).unwrap();
        let back =
            image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap().to_rgba8();
        assert_eq!((back.width(), back.height()), (3, 2));
        assert_eq!(back.into_raw(), rgba);
        assert!(encode_png(3, 2, &rgba[..5]).is_err(), "too few bytes is an error, not a panic");
    }
}
