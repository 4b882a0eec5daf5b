//! Slot colours on pictures. Lottie has no tint that every player reads:
//! velato and lottie-web's canvas renderer ignore every colour effect
//! (Tint `ty` 20, Fill `ty` 21), lottie-web's SVG renderer reads them. So
//! the picture itself is tinted as `skelpad render` tints it (each channel
//! times the slot colour's, in bytes, rounded) and embedded once per colour
//! the slot shows it in; each copy's opacity shows it at the frames of its
//! colour (hold keys) times the slot's alpha. More than [`MAX_TINTS`]
//! colours on one picture keep only the alpha, with a warning.

use base64::Engine;
use serde_json::{Value, json};

use super::layers::Builder;
use super::{Picture, PictureSource};

/// Colours one picture is embedded in at most.
pub const MAX_TINTS: usize = 8;

/// A colour channel as `skelpad render` rounds it.
fn byte(v: f64) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// The picture with its colour channels multiplied by `rgb` (straight
/// alpha), as PNG.
pub fn tinted(pic: &Picture, rgb: [u8; 3]) -> Result<Vec<u8>, String> {
    let img = image::load_from_memory(&pic.bytes).map_err(|e| format!("cannot decode it: {e}"))?;
    let mut rgba = img.to_rgba8();
    for px in rgba.pixels_mut() {
        for (c, t) in px.0.iter_mut().zip(rgb) {
            *c = ((u16::from(*c) * u16::from(t) + 127) / 255) as u8;
        }
    }
    crate::png::encode_png(rgba.width(), rgba.height(), rgba.as_raw())
}

impl Builder<'_> {
    /// A picture by name, read once.
    pub fn picture(
        &mut self,
        image: &str,
        pictures: &mut dyn PictureSource,
    ) -> Result<Picture, String> {
        if let Some(p) = self.pictures.get(image) {
            return p.clone();
        }
        let p = pictures.picture(image);
        self.pictures.insert(image.to_string(), p.clone());
        p
    }

    /// The id of the asset of `image` tinted by `rgb` (embedded once).
    fn asset(&mut self, image: &str, rgb: [u8; 3], pic: &Picture) -> Result<String, String> {
        let key = (image.to_string(), rgb);
        if let Some(id) = self.asset_ids.get(&key) {
            return Ok(id.clone());
        }
        let (bytes, mime) = if rgb == [255; 3] {
            (pic.bytes.clone(), pic.mime)
        } else {
            (tinted(pic, rgb)?, "image/png")
        };
        let id = format!("image_{}", self.assets.len());
        let data = base64::engine::general_purpose::STANDARD.encode(&bytes);
        self.assets.push(json!({
            "id": id, "w": pic.width, "h": pic.height, "u": "",
            "p": format!("data:{mime};base64,{data}"), "e": 1,
        }));
        self.asset_ids.insert(key, id.clone());
        Ok(id)
    }

    /// The (asset id, opacity) of each copy of a slot's picture: one per
    /// colour the slot shows it in, its opacity the visibility times the
    /// slot's alpha at the frames of that colour. Empty when the picture
    /// cannot be read (the caller warns).
    pub fn tinted_copies(
        &mut self,
        slot: usize,
        name: &str,
        image: &str,
        vis: &[f64],
        pictures: &mut dyn PictureSource,
        warnings: &mut Vec<String>,
    ) -> Vec<(String, Value)> {
        let Ok(pic) = self.picture(image, pictures) else { return Vec::new() };
        let s = self.s;
        let total = self.plan.total;
        let mut rgb: Vec<[u8; 3]> = (0..total)
            .map(|f| {
                let c = s.color[f * s.slots + slot];
                [byte(c.r), byte(c.g), byte(c.b)]
            })
            .collect();
        // A closing frame keeps its last frame's tint (no copy for it alone).
        for a in self.plan.anims.iter().filter(|a| a.frames > 0) {
            let end = a.offset + a.frames;
            if end < rgb.len() {
                rgb[end] = rgb[end - 1];
            }
        }
        let alpha: Vec<f64> =
            (0..total).map(|f| vis[f] * s.color[f * s.slots + slot].a * 100.0).collect();
        let mut colours: Vec<[u8; 3]> = Vec::new();
        for f in (0..total).filter(|&f| vis[f] > 0.0) {
            if !colours.contains(&rgb[f]) {
                colours.push(rgb[f]);
            }
        }
        let plain = |b: &mut Self, why: String, warnings: &mut Vec<String>| {
            warnings.push(format!("picture `{name}`: {why}; the slot colour's alpha is kept"));
            let o = super::keys::property(&b.fit(&alpha, 1, true), true);
            b.asset(image, [255; 3], &pic).map(|id| vec![(id, o)]).unwrap_or_default()
        };
        if colours.len() > MAX_TINTS {
            let why = format!(
                "the slot colour takes {} colours (at most {MAX_TINTS} are embedded), its red, green and blue are not carried over",
                colours.len()
            );
            return plain(self, why, warnings);
        }
        if colours.is_empty() {
            colours.push([255; 3]);
        }
        let mut out = Vec::new();
        for c in colours {
            let id = match self.asset(image, c, &pic) {
                Ok(id) => id,
                Err(why) => return plain(self, format!("cannot be tinted ({why})"), warnings),
            };
            let o: Vec<f64> =
                (0..total).map(|f| if rgb[f] == c { alpha[f] } else { 0.0 }).collect();
            out.push((id, super::keys::property(&self.fit(&o, 1, true), true)));
        }
        out
    }
}
