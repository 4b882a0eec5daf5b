//! The renderer of `skelpad render` as the exporter's source of pictures:
//! shapes are rasterized by the same code that draws the canvas and PNGs,
//! sprites are copied from their image files.

use std::path::Path;
use std::sync::Arc;

use super::export::{Pictures, Raster, Warning};
use crate::render::{self, DrawOptions, RenderCache, View};
use skelpad_lang::model::{Armature, AttachmentId, AttachmentKind, Skeleton, SkinId, SlotId};
use skelpad_lang::runtime::Pose;

/// Pictures drawn by [`crate::render`], sprites looked up in one folder.
pub struct RenderedPictures {
    skeleton: Arc<Skeleton>,
    setup: Pose,
    cache: RenderCache,
    /// Images drawn as placeholders (each said once).
    warnings: Vec<Warning>,
}

impl RenderedPictures {
    /// Pictures of `armature`'s attachments; sprite images are read from
    /// `image_dir` (the script's folder).
    pub fn new(armature: &Armature, image_dir: &Path) -> Self {
        let dir = if image_dir.as_os_str().is_empty() { Path::new(".") } else { image_dir };
        RenderedPictures {
            skeleton: armature.skeleton.clone(),
            setup: Pose::setup(&armature.skeleton),
            cache: RenderCache::new(dir),
            warnings: Vec::new(),
        }
    }

    /// The placeholder drawn for an image that cannot be loaded (`why`),
    /// centered on the attachment's origin; the warning is kept once.
    fn placeholder(&mut self, why: String) -> Raster {
        let warning = Warning {
            subject: "missing picture".into(),
            message: format!("{why}; a magenta and black placeholder is drawn in its place"),
        };
        if !self.warnings.contains(&warning) {
            self.warnings.push(warning);
        }
        let side = render::images::PLACEHOLDER_SIDE;
        Raster {
            width: side,
            height: side,
            rgba: render::images::placeholder_rgba(),
            pivot: (f64::from(side) / 2.0, f64::from(side) / 2.0),
        }
    }

    fn setup_with(&self, skin: SkinId) -> Pose {
        let mut pose = self.setup.clone();
        pose.skin = skin;
        pose
    }
}

impl Pictures for RenderedPictures {
    fn attachment(
        &mut self,
        skin: SkinId,
        slot: SlotId,
        attachment: AttachmentId,
        pixels_per_unit: f64,
    ) -> Result<Option<Raster>, String> {
        // A sprite or mesh whose image cannot be loaded: a placeholder.
        let image_name = match self.skeleton.attachment(skin, attachment).map(|a| &a.kind) {
            Some(AttachmentKind::Sprite { image: Some(name), .. }) => Some(name.clone()),
            Some(AttachmentKind::Mesh(mesh)) => mesh.image.clone(),
            _ => None,
        };
        if let Some(name) = image_name
            && let Err(why) = self.cache.images.get(&name)
        {
            return Ok(Some(self.placeholder(why)));
        }
        let pose = self.setup_with(skin);
        let image = render::cpu::render_attachment(
            &self.skeleton,
            &pose,
            slot,
            attachment,
            pixels_per_unit,
            0,
            &mut self.cache,
        )?;
        Ok(image.map(|a| Raster {
            width: a.image.width(),
            height: a.image.height(),
            rgba: a.image.into_raw(),
            pivot: (a.pivot[0], a.pivot[1]),
        }))
    }

    fn sprite(&mut self, image: &str) -> Result<Raster, String> {
        let img = match self.cache.images.get(image) {
            Ok(img) => img,
            Err(why) => return Ok(self.placeholder(why)),
        };
        // The store keeps premultiplied pixels; atlases hold straight alpha.
        let rgba = img
            .rgba_premultiplied()
            .chunks_exact(4)
            .flat_map(|p| {
                let a = u16::from(p[3]);
                let un = |c: u8| {
                    (u16::from(c) * 255 + a / 2).checked_div(a).map_or(0, |v| v.min(255) as u8)
                };
                [un(p[0]), un(p[1]), un(p[2]), p[3]]
            })
            .collect();
        let (w, h) = (img.width(), img.height());
        Ok(Raster { width: w, height: h, rgba, pivot: (f64::from(w) / 2.0, f64::from(h) / 2.0) })
    }

    fn thumbnail(
        &mut self,
        armature: &Armature,
        skin: SkinId,
        size: u32,
    ) -> Result<Raster, String> {
        let pose = self.setup_with(skin);
        let rough =
            render::build_draw_list(armature, &pose, &DrawOptions::default(), &mut self.cache);
        let view = match rough.bounds() {
            Some(b) => View::fit(b, size, size, f64::from(size) / 16.0),
            None => View::centered(size, size, 1.0),
        };
        let list = render::build_draw_list(
            armature,
            &pose,
            &DrawOptions { pixels_per_unit: view.pixels_per_unit, bones: false, contours: true },
            &mut self.cache,
        );
        let image = render::cpu::render_rgba(&list, &view, size, size, None)?;
        Ok(Raster { width: size, height: size, rgba: image.into_raw(), pivot: (0.0, 0.0) })
    }

    fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }
}
