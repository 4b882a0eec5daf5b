//! From a [`Plan`] to the `.skf` file: pictures, atlas pages, PNGs, the zip,
//! and the atomic write.
//!
//! Pictures come from a `Pictures` source (the renderer), centred on their
//! origin, packed by `formats::atlas` (`PADDING` 2 px, square power-of-two
//! pages up to `MAX_ATLAS_SIDE`, 4096), then PNG pages, `thumbnail.png`,
//! `readme.md`, `editor.json` and the zip, written with `io::write_atomic`.
//! A sprite that cannot be loaded is drawn as a magenta and black placeholder
//! with a warning (`Pictures::take_warnings`). The progress can stop the
//! export between animations, between pictures and before writing
//! (`ExportError::Cancelled`, nothing written).

use std::io::Write;
use std::path::Path;

use super::export::{
    ExportError, ExportOptions, MeshUv, PictureJob, Pictures, Plan, Progress, Raster, Stage,
    TextureSource, Warning, plan_with_progress,
};
use super::*;
use crate::formats::atlas;
use skelpad_lang::model::{Armature, SkinId};

/// Largest atlas page side, in pixels.
pub const MAX_ATLAS_SIDE: u32 = 4096;
/// Transparent pixels around every texture in an atlas.
pub const PADDING: u32 = 2;
/// Side of `thumbnail.png`.
pub const THUMBNAIL_SIDE: u32 = 256;

/// A finished export, before it is zipped.
#[derive(Clone, Debug)]
pub struct Export {
    /// The document, textures and UVs placed.
    pub armature: SkfArmature,
    /// RGBA pages, in `armature.atlases` order.
    pub pages: Vec<(u32, u32, Vec<u8>)>,
    /// The picture of the setup pose for `thumbnail.png`.
    pub thumbnail: Raster,
    /// What could not be carried over exactly.
    pub warnings: Vec<Warning>,
}

/// Makes a picture centered on its origin by adding transparent margins, so
/// every texture a helper bone may show (its attachment in other styles)
/// is placed by the bone alone. A pivot off the half-pixel grid is rounded
/// (at most a quarter pixel off).
pub fn center(r: &Raster) -> Raster {
    let (w, h) = (r.width as i64, r.height as i64);
    let cx2 = (2.0 * r.pivot.0).round() as i64;
    let cy2 = (2.0 * r.pivot.1).round() as i64;
    // After padding by `l` on the left and `rt` on the right the center is
    // at (−l + w + rt)/2 = pivot, so rt = 2·pivot − w + l.
    let l = (w - cx2).max(0);
    let rt = cx2 - w + l;
    let t = (h - cy2).max(0);
    let b = cy2 - h + t;
    let (nw, nh) = ((l + w + rt).max(1) as u32, (t + h + b).max(1) as u32);
    let mut rgba = vec![0u8; nw as usize * nh as usize * 4];
    for y in 0..r.height as usize {
        let src = &r.rgba[y * r.width as usize * 4..(y + 1) * r.width as usize * 4];
        let dst = ((y + t as usize) * nw as usize + l as usize) * 4;
        rgba[dst..dst + src.len()].copy_from_slice(src);
    }
    Raster { width: nw, height: nh, rgba, pivot: (nw as f64 / 2.0, nh as f64 / 2.0) }
}

/// Widens a picture with transparent margins until it holds every point
/// (pixel coordinates of the picture as it is), plus one pixel.
pub fn cover(r: &Raster, points: impl Iterator<Item = (f64, f64)>) -> Raster {
    let (mut x0, mut y0, mut x1, mut y1) = (0.0f64, 0.0f64, r.width as f64, r.height as f64);
    for (x, y) in points {
        x0 = x0.min(x - 1.0);
        y0 = y0.min(y - 1.0);
        x1 = x1.max(x + 1.0);
        y1 = y1.max(y + 1.0);
    }
    let (l, t) = ((-x0).ceil().max(0.0) as u32, (-y0).ceil().max(0.0) as u32);
    let (rt, b) = (
        (x1 - r.width as f64).ceil().max(0.0) as u32,
        (y1 - r.height as f64).ceil().max(0.0) as u32,
    );
    let (nw, nh) = (l + r.width + rt, t + r.height + b);
    let mut rgba = vec![0u8; nw as usize * nh as usize * 4];
    for y in 0..r.height as usize {
        let src = &r.rgba[y * r.width as usize * 4..(y + 1) * r.width as usize * 4];
        let dst = ((y + t as usize) * nw as usize + l as usize) * 4;
        rgba[dst..dst + src.len()].copy_from_slice(src);
    }
    Raster { width: nw, height: nh, rgba, pivot: (r.pivot.0 + l as f64, r.pivot.1 + t as f64) }
}

/// Runs a whole export in memory.
pub fn build(
    arm: &Armature,
    opts: &ExportOptions,
    pictures: &mut dyn Pictures,
    progress: &Progress,
) -> Result<Export, ExportError> {
    let plan = plan_with_progress(arm, opts, progress)?;
    finish(arm, opts, plan, pictures, progress)
}

fn check_raster(r: &Raster, what: &str) -> Result<(), ExportError> {
    if r.rgba.len() != r.width as usize * r.height as usize * 4 {
        return Err(ExportError::Picture {
            texture: what.into(),
            reason: format!(
                "{} bytes of pixels for a {}×{} picture",
                r.rgba.len(),
                r.width,
                r.height
            ),
        });
    }
    Ok(())
}

/// Makes the pictures of a plan and packs them.
pub fn finish(
    arm: &Armature,
    opts: &ExportOptions,
    plan: Plan,
    pictures: &mut dyn Pictures,
    progress: &Progress,
) -> Result<Export, ExportError> {
    let Plan { mut armature, jobs, style_textures, mesh_uvs, mut warnings, skins } = plan;
    let k = opts.pixels_per_unit;
    let job_names = job_names(jobs.len(), &style_textures);
    let mut rasters: Vec<Raster> = Vec::with_capacity(jobs.len() + 1);
    progress.start(Stage::Pictures, jobs.len());
    for (job, name) in jobs.iter().zip(&job_names) {
        progress.check()?;
        rasters.push(picture(job, name, pictures, &mesh_uvs, k)?);
        progress.step()?;
    }
    warnings.extend(pictures.take_warnings());
    let empty = rasters.len();
    rasters.push(blank());
    let sizes: Vec<(u32, u32)> = rasters.iter().map(|r| (r.width, r.height)).collect();
    let layout =
        atlas::layout(&sizes, PADDING, MAX_ATLAS_SIDE).map_err(|e| ExportError::AtlasTooLarge {
            texture: job_names.get(e.index).cloned().unwrap_or_default(),
            width: sizes[e.index].0,
            height: sizes[e.index].1,
            max: MAX_ATLAS_SIDE - 2 * PADDING,
        })?;
    let pics: Vec<(u32, u32, &[u8])> =
        rasters.iter().map(|r| (r.width, r.height, r.rgba.as_slice())).collect();
    let page_pixels = atlas::compose(&layout, &pics);
    armature.atlases = layout
        .pages
        .iter()
        .enumerate()
        .map(|(i, &(w, h))| SkfAtlas {
            filename: format!("atlas{i}.png"),
            size: IVec2 { x: w, y: h },
        })
        .collect();
    for (style, entries) in armature.styles.iter_mut().zip(&style_textures) {
        style.textures = entries
            .iter()
            .map(|(name, src)| {
                let j = match src {
                    TextureSource::Job(j) => *j,
                    TextureSource::Empty => empty,
                };
                placed_texture(name, &layout, &rasters, j)
            })
            .collect();
    }
    set_uvs(&mut armature, &jobs, &rasters, &mesh_uvs, &style_textures, k, &mut warnings);
    let thumbnail = pictures
        .thumbnail(arm, skins.first().copied().unwrap_or(SkinId(0)), THUMBNAIL_SIDE)
        .map_err(|reason| ExportError::Picture { texture: "thumbnail.png".into(), reason })?;
    check_raster(&thumbnail, "thumbnail.png")?;
    let pages = layout.pages.iter().zip(page_pixels).map(|(&(w, h), px)| (w, h, px)).collect();
    Ok(Export { armature, pages, thumbnail, warnings })
}

/// The shared transparent texture for hidden attachments (and for
/// attachments that turn out to draw nothing).
fn blank() -> Raster {
    Raster { width: 1, height: 1, rgba: vec![0; 4], pivot: (0.5, 0.5) }
}

/// A readable name per picture job for messages: the first texture that
/// shows it.
fn job_names(jobs: usize, style_textures: &[Vec<(String, TextureSource)>]) -> Vec<String> {
    let mut job_names: Vec<String> = vec![String::new(); jobs];
    for entries in style_textures {
        for (name, src) in entries {
            if let TextureSource::Job(j) = src
                && job_names[*j].is_empty()
            {
                job_names[*j] = name.clone();
            }
        }
    }
    job_names
}

/// Makes the picture of one job (`name` for messages), centered on its
/// pivot, or widened to cover its mesh's vertices at `k` pixels per unit.
fn picture(
    job: &PictureJob,
    name: &str,
    pictures: &mut dyn Pictures,
    mesh_uvs: &[MeshUv],
    k: f64,
) -> Result<Raster, ExportError> {
    let fail = |reason: String| ExportError::Picture { texture: name.to_string(), reason };
    Ok(match job {
        PictureJob::Attachment { skin, slot, attachment, mesh } => {
            match pictures.attachment(*skin, *slot, *attachment, k).map_err(fail)? {
                None => blank(),
                Some(r) => {
                    check_raster(&r, name)?;
                    match mesh.and_then(|v| mesh_uvs.iter().find(|m| m.visual == v)) {
                        // The mesh's outer band reaches past the drawn
                        // pixels: widen the picture so every vertex maps
                        // inside it.
                        Some(m) => cover(
                            &r,
                            m.points.iter().map(|&(x, y)| (r.pivot.0 + x * k, r.pivot.1 - y * k)),
                        ),
                        None => center(&r),
                    }
                }
            }
        }
        PictureJob::Sprite(img) => {
            let r = pictures.sprite(img).map_err(fail)?;
            check_raster(&r, name)?;
            center(&r)
        }
    })
}

/// The texture `name` for picture `j` where the atlas layout put it.
fn placed_texture(name: &str, layout: &atlas::Layout, rasters: &[Raster], j: usize) -> SkfTexture {
    let p = layout.places[j];
    SkfTexture {
        name: name.to_string(),
        offset: IVec2 { x: p.x, y: p.y },
        size: IVec2 { x: rasters[j].width, y: rasters[j].height },
        atlas_idx: p.page as u32,
    }
}

/// Mesh UVs from the picture each mesh visual shows; warns when a style's
/// picture of the same mesh has another size (its UVs would not match).
fn set_uvs(
    armature: &mut SkfArmature,
    jobs: &[PictureJob],
    rasters: &[Raster],
    mesh_uvs: &[MeshUv],
    styles: &[Vec<(String, TextureSource)>],
    k: f64,
    warnings: &mut Vec<Warning>,
) {
    for m in mesh_uvs {
        let Some(job) = jobs.iter().position(
            |j| matches!(j, PictureJob::Attachment { mesh: Some(v), .. } if *v == m.visual),
        ) else {
            continue;
        };
        let r = &rasters[job];
        let vis = &mut armature.visuals[m.visual];
        for (v, &(x, y)) in vis.vertices.iter_mut().zip(&m.points) {
            let px = r.pivot.0 + x * k;
            let py = r.pivot.1 - y * k;
            v.uv = Vec2::new((px / r.width as f64) as f32, (py / r.height as f64) as f32);
        }
        let tex_name = vis.init_tex.clone();
        for entries in styles {
            for (name, src) in entries {
                if let TextureSource::Job(j) = src
                    && *j != job
                    && matches!(jobs[*j], PictureJob::Attachment { mesh: Some(v), .. } if v == m.visual)
                    && (rasters[*j].width != r.width
                        || rasters[*j].height != r.height
                        || rasters[*j].pivot != r.pivot)
                {
                    warnings.push(Warning {
                        subject: format!("attachment `{name}`"),
                        message: format!("its pictures differ in size between styles ({tex_name}); the mesh is mapped for the first"),
                    });
                }
            }
        }
    }
}

fn png(w: u32, h: u32, rgba: &[u8]) -> Result<Vec<u8>, ExportError> {
    crate::png::encode_png(w, h, rgba).map_err(ExportError::Encode)
}

const README: &str = "# Exported by skelpad

This `.skf` follows SkelForm's file structure (version 0.7.0). Notes for
runtime authors:

- Bones keep the full dotted names of the skelpad script. A bone that is
  mirrored in skelpad is written unmirrored (its y axis turned around), so
  no parent ever faces left: runtimes disagree on how children turn under a
  mirrored parent. The mirror is carried by the pictures' helpers.
- Bones named `@SLOT` (or `@SLOT[ATT]` when the slot has several pictures)
  are helpers that each carry one picture (their local transform is the
  attachment's transform times the texel size). `@SLOT[ATT]` also carry
  meshes, and `@SLOT[ATT]>BONE` / `@SLOT[ATT]~N` are frames its vertices
  are bound to.
- Attachment switches are stepped `ScaleX`/`ScaleY` keys on the helpers:
  scale 0 hides a picture (a mesh's frames also move onto one point). No
  `Texture` keys are written, so every runtime plays the switches alike.
- Every keyed element has a key at frame 0, so an animation played on
  (looping, after another one) shows the same frames as one reset first.
- Tints are 0..1. Keys are sparse where SkelForm's curves reproduce skelpad
  and per frame where they cannot.
";

/// The editor's own file: one entry per bone and per style, and a camera
/// that frames the setup pose.
fn editor_json(a: &SkfArmature) -> String {
    let bone = serde_json::json!({
        "folded": false, "ik_folded": false, "meshdef_folded": false, "effects_folded": false,
        "ik_disabled": false, "locked": false, "blacklist": [], "group_color": {"r": 0, "g": 0, "b": 0, "a": 0}
    });
    // Frame the setup bone positions (roots' positions are world positions;
    // children are near them at this zoom).
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    let mut world: Vec<(f64, f64)> = Vec::with_capacity(a.bones.len());
    for b in &a.bones {
        let p = match usize::try_from(b.parent_id).ok().and_then(|p| world.get(p)) {
            Some(&(px, py)) => (px + b.pos.x as f64, py + b.pos.y as f64),
            None => (b.pos.x as f64, b.pos.y as f64),
        };
        world.push(p);
        lo = (lo.0.min(p.0), lo.1.min(p.1));
        hi = (hi.0.max(p.0), hi.1.max(p.1));
    }
    let (cx, cy, half) = if a.bones.is_empty() {
        (0.0, 0.0, 500.0)
    } else {
        (
            (lo.0 + hi.0) / 2.0,
            (lo.1 + hi.1) / 2.0,
            ((hi.0 - lo.0).max(hi.1 - lo.1) / 2.0 + 100.0).max(200.0),
        )
    };
    let styles: Vec<serde_json::Value> =
        (0..a.styles.len()).map(|i| serde_json::json!({"active": i == 0})).collect();
    serde_json::json!({
        "camera": {"pos": {"x": cx, "y": cy}, "zoom": half * 1.25},
        "bones": vec![bone; a.bones.len()],
        "styles": styles,
    })
    .to_string()
}

/// The bytes of the `.skf` zip.
pub fn to_zip(e: &Export) -> Result<Vec<u8>, ExportError> {
    let io = |what: &str, err: &dyn std::fmt::Display| {
        ExportError::Encode(format!("cannot write {what} into the zip: {err}"))
    };
    let json = serde_json::to_string(&e.armature).map_err(|err| io("armature.json", &err))?;
    let mut buf = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut buf);
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    // PNGs are compressed already.
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut add = |name: &str, bytes: &[u8], opts| -> Result<(), ExportError> {
        zip.start_file(name, opts).map_err(|err| io(name, &err))?;
        zip.write_all(bytes).map_err(|err| io(name, &err))
    };
    add("armature.json", json.as_bytes(), deflated)?;
    for (atlas, (w, h, px)) in e.armature.atlases.iter().zip(&e.pages) {
        add(&atlas.filename, &png(*w, *h, px)?, stored)?;
    }
    add("thumbnail.png", &png(e.thumbnail.width, e.thumbnail.height, &e.thumbnail.rgba)?, stored)?;
    add("readme.md", README.as_bytes(), deflated)?;
    add("editor.json", editor_json(&e.armature).as_bytes(), deflated)?;
    zip.finish().map_err(|err| io("the directory", &err))?;
    Ok(buf.into_inner())
}

/// Exports to `path` atomically; returns the warnings.
pub fn export_file(
    arm: &Armature,
    opts: &ExportOptions,
    pictures: &mut dyn Pictures,
    path: &Path,
    progress: &Progress,
) -> Result<Vec<Warning>, ExportError> {
    let e = build(arm, opts, pictures, progress)?;
    progress.start(Stage::Writing, 1);
    progress.check()?;
    let bytes = to_zip(&e)?;
    // The last stop point: once the file is being written it is finished.
    progress.check()?;
    skelpad_lang::io::write_atomic(path, &bytes).map_err(ExportError::Io)?;
    progress.set(1, 1);
    Ok(e.warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covering_widens_a_picture_around_points_outside_it() {
        let r = Raster { width: 2, height: 2, rgba: vec![7; 16], pivot: (1.0, 1.0) };
        let c = cover(&r, [(-2.5, 0.5), (1.0, 3.2)].into_iter());
        // One pixel beyond the farthest points: 4 columns on the left, one
        // row above, 3 rows below.
        assert_eq!((c.width, c.height), (6, 6));
        assert_eq!(c.pivot, (5.0, 2.0));
        let at = (6 + 4) * 4;
        assert_eq!(&c.rgba[at..at + 4], &[7, 7, 7, 7]);
        assert_eq!(c.rgba.iter().filter(|&&b| b == 7).count(), 16);
        // No points, no change.
        assert_eq!(cover(&r, std::iter::empty()), r);
    }

    #[test]
    fn centering_puts_the_pivot_in_the_middle() {
        let r = Raster { width: 4, height: 2, rgba: (0..32).collect(), pivot: (1.0, 0.0) };
        let c = center(&r);
        assert_eq!((c.width, c.height), (6, 4));
        assert_eq!(c.pivot, (3.0, 2.0));
        // The original top-left pixel moved by the left/top margins (2, 2).
        let at = (2 * 6 + 2) * 4;
        assert_eq!(&c.rgba[at..at + 4], &[0, 1, 2, 3]);
        // A pivot already centered adds nothing.
        let r = Raster { width: 5, height: 3, rgba: vec![9; 60], pivot: (2.5, 1.5) };
        assert_eq!(center(&r).width, 5);
        assert_eq!(center(&r).height, 3);
    }
}
