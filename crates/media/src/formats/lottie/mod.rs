//! Armature → Lottie (the JSON animation format of lottie-web, the mobile
//! players and Telegram stickers). `docs/lottie.md` has the mapping.
//!
//! **Bones.** Every bone is a null layer (`ty` 3) named with its full dotted
//! name. Every bone layer's world matrix is `view · world · C` at every
//! frame, where `world` is skelpad's pose of the bone, `view` the one
//! file-wide map from skelpad's world (y up) to the composition (pixels, y
//! down) written in the file's `meta`, and `C = diag(1, −1)` turns a bone's
//! own axes y down too (a layer's point `(x, y)` is the bone's `(x, −y)`).
//! A bone is parented to its skeleton parent when its transform relative
//! to it is a rotation and a scale (Lottie multiplies whole matrices, and
//! the players do not read skew alike); its keys are then the bone's own
//! local values wherever those give its world, and sampled per frame
//! elsewhere (baked, with a warning naming the bone and the reason). A bone
//! whose transform relative to its parent would need a skew is a root layer
//! keyed with its world transform.
//!
//! **Pictures.** Each attachment a slot shows is a layer under the slot's
//! bone: shapes and paths are shape layers (fill, stroke), sprites image
//! layers with their pictures as data URIs (tinted copies for slot colours,
//! `tint`), meshes one image layer per triangle (`mesh`). Layers stack in
//! the draw order
//! (an animated draw order first becomes slot copies,
//! [`super::draw_order::bake`]); an attachment switch keys the layers'
//! opacity with hold keys; slot colours key the fill and stroke colours.
//!
//! **Time.** The file's frame rate is the least common multiple of the
//! animations' rates (at most 120, else the highest), so each animation's
//! own frames are frames of the file; every animation is sampled at every
//! file frame and they lie one after another on the composition's
//! timeline, each a marker.
//!
//! The parts: `frames` (the timeline, the framing view, skelpad's world
//! matrices, shown attachments and slot colours at every frame), `transform`
//! (which bones keep their parent and local values, which are baked), `keys`
//! (one Lottie segment — linear, hold, bezier — where it lands on every
//! frame, else a key per frame with straight runs merged), `layers` and
//! `shapes` (picture layers from `render::attachment_outline`, image layers,
//! opacity hold keys), `tint`, `mesh` (per triangle an image layer clipped
//! by a fixed mask under a null layer, keyed with the affine map onto the
//! skinned vertices) and `container` (JSON with every object's `ty` first, as
//! rlottie needs; the dotLottie zip; `.tgs` with Telegram's limits refused
//! with the reason). `baking` lists the baked bones without building the
//! document (the editor's export dialog shows them).
//!
//! Proof: `tests/suite/lottie.rs` and `tests/suite/lottie_pictures.rs`
//! (velato and lottie-web match skelpad's pose within 1e-3 at every frame,
//! mesh triangles land on skelpad's skinned vertices, the official schema,
//! rlottie and ThorVG pictures against `skelpad render`).

use crate::formats::export::{Progress, Stage};
use skelpad_lang::model::{AnimId, Armature, SkinId};

mod container;
pub(crate) mod frames;
pub(crate) mod keys;
mod layers;
pub(crate) mod mesh;
mod round;
mod shapes;
mod tint;
pub(crate) mod transform;

pub use container::{Container, encode, to_bytes};
pub use frames::file_fps;
pub use round::{MAX_DECIMALS, default_decimals};

/// What to export.
#[derive(Clone, Debug, Default)]
pub struct LottieOptions {
    /// One animation by name; `None`: every animation, one after another.
    pub anim: Option<String>,
    /// The skin shown; `None`: the default skin.
    pub skin: Option<String>,
    /// Composition size in pixels; `None`: the animations' bounds.
    pub size: Option<(u32, u32)>,
    /// Scale the animations' bounds to fill `size` (else one unit is one pixel).
    pub fit: bool,
    /// Frame rate of the file; `None`: the least common multiple of the
    /// animations' rates, at most 120, else the highest
    /// ([`file_fps`]).
    pub fps: Option<f64>,
    /// Decimals the numbers are written with; `None`: [`default_decimals`]
    /// for the file's scale.
    pub decimals: Option<u32>,
    /// Leave out `metadata.skelpad` (python-lottie's converter, among
    /// others, cannot write a file back with any `metadata` object).
    pub no_metadata: bool,
}

/// Why a Lottie export was refused (nothing is written): the exporters'
/// one error, under the name this module has always used.
pub type LottieError = crate::formats::export::ExportError;

/// A picture's bytes for a sprite: the encoded file and its size in pixels.
#[derive(Clone, Debug)]
pub struct Picture {
    /// PNG or JPEG bytes.
    pub bytes: Vec<u8>,
    /// `image/png` or `image/jpeg`.
    pub mime: &'static str,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// Where sprites' pictures come from (the CLI reads them beside the script).
pub trait PictureSource {
    /// The picture named `image`, or why it cannot be read.
    fn picture(&mut self, image: &str) -> Result<Picture, String>;
    /// Makes the renderer find the same pictures (the framing measures the
    /// animations' bounds with it, as `skelpad render --fit` does).
    fn prepare(&self, cache: &mut crate::render::RenderCache);
}

/// Reads pictures from files relative to a folder.
pub struct FilePictures(pub std::path::PathBuf);

impl PictureSource for FilePictures {
    fn picture(&mut self, image: &str) -> Result<Picture, String> {
        let path = self.0.join(image);
        let bytes = std::fs::read(&path).map_err(|e| {
            format!("cannot read `{}`: {}", path.display(), skelpad_lang::io::reason(&e))
        })?;
        let format = image::guess_format(&bytes)
            .map_err(|e| format!("`{}` is not a picture: {e}", path.display()))?;
        let mime = match format {
            image::ImageFormat::Png => "image/png",
            image::ImageFormat::Jpeg => "image/jpeg",
            _ => return Err(format!("`{}` is neither PNG nor JPEG", path.display())),
        };
        let (width, height) = image::ImageReader::with_format(std::io::Cursor::new(&bytes), format)
            .into_dimensions()
            .map_err(|e| format!("cannot decode `{}`: {e}", path.display()))?;
        Ok(Picture { bytes, mime, width, height })
    }

    fn prepare(&self, cache: &mut crate::render::RenderCache) {
        cache.images.set_dir(&self.0);
    }
}

/// Pictures held in memory by name (a SkelForm file's textures, cut from
/// its atlases), others read from a folder.
pub struct MemoryPictures {
    /// Pictures by sprite name.
    pub pictures: std::collections::HashMap<String, Result<Picture, String>>,
    /// Where other pictures are read.
    pub fallback: FilePictures,
    /// The same pictures for the renderer: name, width, height, straight RGBA.
    pub pixels: Vec<(String, u32, u32, Vec<u8>)>,
}

impl MemoryPictures {
    /// The textures of an imported `.skf` as PNG pictures.
    pub fn from_skf(imported: &super::skf::import::Imported, dir: std::path::PathBuf) -> Self {
        let mut pixels_kept = Vec::new();
        let pictures = imported
            .sprite_pixels()
            .into_iter()
            .map(|(sprite, pixels)| {
                let pic = pixels.and_then(|(width, height, rgba)| {
                    let bytes = crate::png::encode_png(width, height, &rgba)?;
                    pixels_kept.push((sprite.name.clone(), width, height, rgba));
                    Ok(Picture { bytes, mime: "image/png", width, height })
                });
                (sprite.name.clone(), pic)
            })
            .collect();
        MemoryPictures { pictures, fallback: FilePictures(dir), pixels: pixels_kept }
    }
}

impl PictureSource for MemoryPictures {
    fn picture(&mut self, image: &str) -> Result<Picture, String> {
        match self.pictures.get(image) {
            Some(p) => p.clone(),
            None => self.fallback.picture(image),
        }
    }

    fn prepare(&self, cache: &mut crate::render::RenderCache) {
        self.fallback.prepare(cache);
        for (name, w, h, rgba) in &self.pixels {
            let path = std::path::Path::new(name);
            if let Some(img) = crate::render::SpriteImage::from_rgba(name, path, *w, *h, rgba) {
                cache.images.insert(name, img);
            }
        }
    }
}

/// A finished export: the Lottie document and what could not be carried
/// over exactly.
#[derive(Clone, Debug)]
pub struct Lottie {
    /// The Lottie JSON document.
    pub json: serde_json::Value,
    /// Warnings, each naming what it is about.
    pub warnings: Vec<String>,
    /// The bones keyed per frame (baked), with the reason.
    pub baked: Vec<(String, String)>,
    /// Whether any image layer was written.
    pub has_images: bool,
    /// The file-wide map from skelpad's world to the composition:
    /// `[a, b, c, d, e, f]` with `x' = a·x + c·y + e`, `y' = b·x + d·y + f`.
    pub view: [f64; 6],
    /// Per animation, its own document (for a dotLottie's entries, made by
    /// [`export_entries`]; empty otherwise): the animation's name and a file
    /// of just it, framed as the whole file is, whose out point is its
    /// closing frame (dotlottie-web draws a file's last frame).
    pub entries: Vec<(String, serde_json::Value)>,
}

/// The skin and the animations `opts` name.
pub(crate) fn chosen(
    arm: &Armature,
    opts: &LottieOptions,
) -> Result<(SkinId, Vec<AnimId>), LottieError> {
    let skin = match &opts.skin {
        None => SkinId(0),
        Some(name) => arm.skeleton.skin_by_name(name).ok_or_else(|| LottieError::UnknownSkin {
            name: name.clone(),
            known: arm.skeleton.skins.iter().map(|s| s.name.clone()).collect(),
        })?,
    };
    let anims: Vec<AnimId> = match &opts.anim {
        Some(name) => {
            vec![arm.animation_by_name(name).ok_or_else(|| LottieError::UnknownAnimation {
                name: name.clone(),
                known: arm.animations.iter().map(|a| a.name.clone()).collect(),
            })?]
        }
        None => (0..arm.animations.len()).map(AnimId::from_index).collect(),
    };
    Ok((skin, anims))
}

/// An animated draw order as static slot copies with attachment keys
/// (`None`: the armature is exported as it is).
fn draw_order_baked(arm: &Armature) -> Result<Option<Armature>, LottieError> {
    super::draw_order::bake(arm)
        .map_err(|why| LottieError::Cannot(format!("the animated draw order: {why}")))
}

/// The bones an export with `opts` keys at every frame, and why (as
/// [`Lottie::baked`]), worked out as [`export`] does but without building
/// the document or reading any picture but for the framing: the editor
/// lists them before exporting.
pub fn baking(
    arm: &Armature,
    opts: &LottieOptions,
    pictures: &dyn PictureSource,
) -> Result<Vec<(String, String)>, LottieError> {
    let (skin, anims) = chosen(arm, opts)?;
    let baked_order = draw_order_baked(arm)?;
    let arm: &Armature = baked_order.as_ref().unwrap_or(arm);
    let plan = frames::Plan::new(arm, &anims, opts.fps)?;
    let view = frames::framing(arm, &plan, skin, opts, pictures)?;
    let samples = frames::sample(arm, &plan, skin)?;
    let bones = transform::bone_layers(arm, &plan, &samples, &view)?;
    Ok(baked_bones(&bones))
}

fn baked_bones(bones: &[transform::BoneLayer]) -> Vec<(String, String)> {
    bones.iter().filter_map(|b| b.baked.as_ref().map(|r| (b.name.clone(), r.clone()))).collect()
}

/// Builds the Lottie document of `arm` (in memory; nothing is written).
pub fn export(
    arm: &Armature,
    opts: &LottieOptions,
    pictures: &mut dyn PictureSource,
) -> Result<Lottie, LottieError> {
    build(arm, opts, pictures, false)
}

/// Like [`export`], with each animation's own document in
/// [`Lottie::entries`] too (a dotLottie holds one per animation).
pub fn export_entries(
    arm: &Armature,
    opts: &LottieOptions,
    pictures: &mut dyn PictureSource,
) -> Result<Lottie, LottieError> {
    build(arm, opts, pictures, true)
}

fn build(
    arm: &Armature,
    opts: &LottieOptions,
    pictures: &mut dyn PictureSource,
    entries: bool,
) -> Result<Lottie, LottieError> {
    let (skin, anims) = chosen(arm, opts)?;
    let mut warnings = Vec::new();
    let baked_order = draw_order_baked(arm)?;
    let arm: &Armature = baked_order.as_ref().unwrap_or(arm);
    let plan = frames::Plan::new(arm, &anims, opts.fps)?;
    for a in
        plan.anims.iter().filter(|a| a.id.is_some() && !frames::on_file_frames(a.fps, plan.fps))
    {
        warnings.push(format!(
            "animation `{}` ({} fps) is sampled at the file's {} fps (not all of its frames are frames of the file)",
            a.name, a.fps, plan.fps
        ));
    }
    let view = frames::framing(arm, &plan, skin, opts, &*pictures)?;
    let part = Part { arm, view: &view, skin, opts };
    let (json, baked, has_images) = part.document(&plan, pictures, &mut warnings)?;
    for (name, reason) in &baked {
        warnings.push(format!("bone `{name}`: keyed at every frame ({reason})"));
    }
    let mut out = Vec::new();
    if entries {
        for a in &plan.anims {
            let one = match a.id {
                Some(id) if plan.anims.len() > 1 => frames::Plan::new(arm, &[id], Some(plan.fps))?,
                _ => frames::Plan { anims: vec![a.clone()], ..plan.clone() },
            };
            let mut doc = match a.id {
                Some(_) if plan.anims.len() > 1 => {
                    part.document(&one, pictures, &mut Vec::new())?.0
                }
                _ => json.clone(),
            };
            doc["op"] = serde_json::json!(one.total);
            out.push((a.name.clone(), doc));
        }
    }
    Ok(Lottie { json, warnings, baked, has_images, view: view.to_array(), entries: out })
}

/// A built document, its baked bones, and whether it has image layers.
type Document = (serde_json::Value, Vec<(String, String)>, bool);

/// What every document of one export shares.
struct Part<'a> {
    arm: &'a Armature,
    view: &'a frames::Framing,
    skin: SkinId,
    opts: &'a LottieOptions,
}

impl Part<'_> {
    /// The document of the animations of `plan`, its baked bones, and
    /// whether it has image layers.
    fn document(
        &self,
        plan: &frames::Plan,
        pictures: &mut dyn PictureSource,
        warnings: &mut Vec<String>,
    ) -> Result<Document, LottieError> {
        let samples = frames::sample(self.arm, plan, self.skin)?;
        let bones = transform::bone_layers(self.arm, plan, &samples, self.view)?;
        let mut out = layers::Builder::new(self.arm, plan, &samples, self.view, self.skin, &bones);
        let picture_layers = out.attachment_layers(pictures, warnings)?;
        let baked = baked_bones(&bones);
        let has_images = out.has_images();
        let mut json = out.document(&bones, picture_layers, &baked);
        let decimals =
            self.opts.decimals.unwrap_or_else(|| default_decimals(self.view.view.pixels_per_unit));
        round::document(&mut json, decimals);
        if self.opts.no_metadata {
            if let Some(map) = json.as_object_mut() {
                map.remove("metadata");
            }
        } else {
            json["metadata"]["skelpad"]["decimals"] = serde_json::json!(decimals);
        }
        Ok((json, baked, has_images))
    }
}

/// Exports to `out` atomically, in the container its caller chose (a
/// dotLottie holds one entry per animation, named by it): the document is built
/// ([`Stage::Animations`]), encoded and written ([`Stage::Writing`]).
/// Cancelling stops it before it writes; it never leaves a part file.
pub fn export_file(
    arm: &Armature,
    opts: &LottieOptions,
    pictures: &mut dyn PictureSource,
    container: Container,
    out: &std::path::Path,
    progress: &Progress,
) -> Result<Lottie, LottieError> {
    progress.start(Stage::Animations, 1);
    progress.check()?;
    let lottie = build(arm, opts, pictures, container == Container::DotLottie)?;
    progress.start(Stage::Writing, 1);
    progress.check()?;
    let id = out.file_stem().and_then(|s| s.to_str()).unwrap_or("animation");
    let bytes = encode(&lottie, container, id)?;
    progress.check()?;
    skelpad_lang::io::write_atomic(out, &bytes)?;
    progress.set(1, 1);
    Ok(lottie)
}

/// The animations' names in the order they lie on the timeline (for the
/// markers), shared with the tests through the document itself.
pub fn marker_names(doc: &serde_json::Value) -> Vec<String> {
    doc.get("markers")
        .and_then(|m| m.as_array())
        .map(|m| {
            m.iter()
                .filter_map(|k| k.get("cm").and_then(|c| c.as_str()).map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}
