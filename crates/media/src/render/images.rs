//! Sprite images: loaded relative to the script's folder, decoded once and
//! kept, with a clear message when a file is missing or is not an image.
//! `ImageStore` is also the host's answer to `io::Pictures`, the question a
//! document asks about the pictures its script names (where they are named
//! is the document's business, not the renderer's).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rustc_hash::FxHashMap as HashMap;

/// A decoded sprite image.
#[derive(Debug)]
pub struct SpriteImage {
    /// Unique for each decode, so a back end can key its textures on it
    /// (a reloaded file gets a new id).
    pub id: u64,
    /// The name written in the script.
    pub name: String,
    /// Where it was read from.
    pub path: PathBuf,
    pixmap: tiny_skia::Pixmap,
}

impl SpriteImage {
    /// Wraps decoded straight-alpha RGBA8 pixels (`width × height × 4` bytes).
    pub fn from_rgba(
        name: &str,
        path: &Path,
        width: u32,
        height: u32,
        rgba: &[u8],
    ) -> Option<SpriteImage> {
        if rgba.len() != width as usize * height as usize * 4 {
            return None;
        }
        let mut pixmap = tiny_skia::Pixmap::new(width, height)?;
        for (dst, src) in pixmap.pixels_mut().iter_mut().zip(rgba.chunks_exact(4)) {
            *dst = tiny_skia::ColorU8::from_rgba(src[0], src[1], src[2], src[3]).premultiply();
        }
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        Some(SpriteImage {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            name: name.to_string(),
            path: path.to_path_buf(),
            pixmap,
        })
    }

    /// Width in pixels (one pixel is one unit in attachment space).
    pub fn width(&self) -> u32 {
        self.pixmap.width()
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.pixmap.height()
    }

    /// Pixels as premultiplied RGBA8, rows top to bottom.
    pub fn rgba_premultiplied(&self) -> &[u8] {
        self.pixmap.data()
    }

    pub(crate) fn pixmap(&self) -> &tiny_skia::Pixmap {
        &self.pixmap
    }
}

/// Loads sprite images by the name a script gives them, relative to one
/// folder, and keeps every result (failures too, so a missing file is
/// reported once per load, not retried each frame).
#[derive(Clone, Debug, Default)]
pub struct ImageStore {
    dir: PathBuf,
    loaded: HashMap<String, Result<Arc<SpriteImage>, String>>,
}

impl ImageStore {
    /// Images are looked up relative to `dir` (the script's folder).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        ImageStore { dir: dir.into(), loaded: HashMap::default() }
    }

    /// The folder sprite names are looked up in (the script's).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Looks images up in another folder from now on (forgets what was loaded).
    pub fn set_dir(&mut self, dir: impl Into<PathBuf>) {
        let dir = dir.into();
        if dir != self.dir {
            self.dir = dir;
            self.loaded.clear();
        }
    }

    /// Forgets every loaded image, so the next use reads the files again
    /// (for an editor that noticed a file change).
    pub fn reload(&mut self) {
        self.loaded.clear();
    }

    /// Makes `name` show these pixels instead of a file's (pictures that
    /// come from elsewhere, e.g. cut from a SkelForm atlas).
    pub fn insert(&mut self, name: &str, image: SpriteImage) {
        self.loaded.insert(name.to_string(), Ok(Arc::new(image)));
    }

    /// The image named `name` in a script, decoded on first use.
    pub fn get(&mut self, name: &str) -> Result<Arc<SpriteImage>, String> {
        if let Some(r) = self.loaded.get(name) {
            return r.clone();
        }
        let r = load(&self.dir, name).map(Arc::new);
        self.loaded.insert(name.to_string(), r.clone());
        r
    }
}

fn load(dir: &Path, name: &str) -> Result<SpriteImage, String> {
    let path = dir.join(name);
    let bytes = std::fs::read(&path).map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ if path.is_dir() => "it is a folder".to_string(),
            _ => e.to_string(),
        };
        format!(
            "cannot read sprite image \"{}\" ({}): {why}",
            skelpad_lang::syntax::clip(name),
            path.display()
        )
    })?;
    let format = image::guess_format(&bytes)
        .ok()
        .filter(|f| matches!(f, image::ImageFormat::Png | image::ImageFormat::Jpeg))
        .ok_or_else(|| {
            format!("sprite image \"{name}\" ({}) is not a PNG or JPEG image", path.display())
        })?;
    let decoded = image::load_from_memory_with_format(&bytes, format)
        .map_err(|e| {
            format!("sprite image \"{name}\" ({}) cannot be decoded: {e}", path.display())
        })?
        .into_rgba8();
    let (w, h) = decoded.dimensions();
    SpriteImage::from_rgba(name, &path, w, h, decoded.as_raw()).ok_or_else(|| {
        format!("sprite image \"{name}\" ({}) is empty ({w}×{h} pixels)", path.display())
    })
}

/// The store answers the documents' question about pictures: whether one
/// can be read and decoded (and keeps it decoded for drawing).
impl skelpad_lang::io::Pictures for ImageStore {
    fn read(&mut self, name: &str) -> Result<(), String> {
        self.get(name).map(|_| ())
    }
}

/// The side, in pixels, of the picture drawn in place of a sprite image
/// that cannot be loaded (see [`placeholder_rgba`]).
pub const PLACEHOLDER_SIDE: u32 = 32;

/// A picture that says "missing": a magenta and black checkerboard of
/// [`PLACEHOLDER_SIDE`] pixels a side in squares of 8, opaque, straight
/// RGBA. Exports draw it where a sprite's image cannot be loaded, so the
/// attachment stays visible and its place obvious.
pub fn placeholder_rgba() -> Vec<u8> {
    let n = PLACEHOLDER_SIDE;
    let mut out = Vec::with_capacity((n * n * 4) as usize);
    for y in 0..n {
        for x in 0..n {
            let magenta = ((x / 8) + (y / 8)) % 2 == 0;
            out.extend(if magenta { [255, 0, 255, 255] } else { [0, 0, 0, 255] });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("skelpad-images-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn images_are_decoded_once_and_failures_are_explained() {
        let dir = temp_dir("once");
        let img = image::RgbaImage::from_fn(3, 2, |x, y| {
            image::Rgba([x as u8 * 100, y as u8 * 100, 7, 128])
        });
        img.save(dir.join("a.png")).expect("write png");
        std::fs::write(dir.join("text.png"), "hello").expect("write");
        let mut store = ImageStore::new(&dir);
        let a = store.get("a.png").expect("loads");
        assert_eq!((a.width(), a.height()), (3, 2));
        // Premultiplied: 200 × 128/255 ≈ 100.
        assert_eq!(&a.rgba_premultiplied()[8..12], &[100, 0, 4, 128]);
        let again = store.get("a.png").expect("loads");
        assert!(Arc::ptr_eq(&a, &again), "decoded once");
        let missing = store.get("nope.png").unwrap_err();
        assert!(missing.contains("nope.png") && missing.contains("no such file"), "{missing}");
        let bad = store.get("text.png").unwrap_err();
        assert!(bad.contains("not a PNG or JPEG"), "{bad}");
        store.reload();
        assert_ne!(store.get("a.png").expect("loads").id, a.id, "a reload decodes again");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn fixture_jpeg_decodes_and_a_text_file_named_png_is_refused() {
        let mut store =
            ImageStore::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/golden/assets"));
        let jpg = store.get("gradient.jpg").expect("JPEG decodes");
        assert_eq!((jpg.width(), jpg.height()), (24, 16));
        // Opaque, and the dark bar at x 10..14 survives compression.
        let px =
            |x: usize, y: usize| &jpg.rgba_premultiplied()[(y * 24 + x) * 4..(y * 24 + x) * 4 + 4];
        assert_eq!(px(0, 0)[3], 255);
        assert!(px(12, 8)[0] < 60 && px(20, 8)[0] > 150, "{:?} {:?}", px(12, 8), px(20, 8));
        let png = store.get("quadrants.png").expect("PNG decodes");
        assert_eq!(&png.rgba_premultiplied()[..4], &[0, 0, 0, 0], "transparent corner");
        let err = store.get("not-an-image.png").unwrap_err();
        assert!(
            err.contains("not-an-image.png") && err.contains("is not a PNG or JPEG image"),
            "{err}"
        );
    }
}
