//! The headless back end: a draw list rasterized with tiny-skia.
//!
//! Each draw item is filled as ONE path made of all its triangles, every
//! triangle wound the same way, with the nonzero rule: the union of the
//! triangles is then exactly the item's shape and its anti-aliased edge is
//! computed once, so there are no seams where triangles meet and no double
//! blending where stroke triangles overlap.

use std::collections::HashMap;

use tiny_skia::{FillRule, FilterQuality, Paint, PathBuilder, Pattern, Pixmap, Shader, SpreadMode, Transform};

use super::{DrawItem, DrawList, Rgba, SpriteImage, View};

/// Rasterizes `list` seen through `view` into a new `width × height`
/// picture (premultiplied RGBA), on `background` (transparent if `None`).
pub fn render(list: &DrawList, view: &View, width: u32, height: u32, background: Option<Rgba>) -> Result<Pixmap, String> {
    let mut pixmap = Pixmap::new(width, height).ok_or_else(|| format!("cannot make a {width}×{height} picture"))?;
    if let Some(bg) = background.and_then(color) {
        pixmap.fill(bg);
    }
    draw(&mut pixmap, list, view);
    Ok(pixmap)
}

/// Like [`render`], as straight-alpha RGBA8 (what PNG files hold).
pub fn render_rgba(list: &DrawList, view: &View, width: u32, height: u32, background: Option<Rgba>) -> Result<image::RgbaImage, String> {
    render(list, view, width, height, background).map(to_rgba_image)
}

/// Premultiplied pixmap → straight-alpha image.
pub fn to_rgba_image(pixmap: Pixmap) -> image::RgbaImage {
    let (w, h) = (pixmap.width(), pixmap.height());
    let data = pixmap.take_demultiplied();
    image::RgbaImage::from_raw(w, h, data).unwrap_or_else(|| image::RgbaImage::new(w, h))
}

fn color(c: Rgba) -> Option<tiny_skia::Color> {
    let [r, g, b, a] = c.map(|v| if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.0 });
    tiny_skia::Color::from_rgba(r, g, b, a)
}

/// Draws `list` onto an existing pixmap (source-over).
pub fn draw(pixmap: &mut Pixmap, list: &DrawList, view: &View) {
    let mut builder = PathBuilder::new();
    // Triangles are clipped to the picture (with a margin wider than the
    // anti-aliased edge): the rasterizer's fixed-point coordinates cannot
    // take a vertex a billion pixels away.
    let clip = [-2.0, -2.0, pixmap.width() as f32 + 2.0, pixmap.height() as f32 + 2.0];
    // Tinted copies of sprite images, made once per render.
    let mut tinted: HashMap<(u64, [u8; 3]), Pixmap> = HashMap::new();
    for item in &list.items {
        if item.color[3] <= 0.0 {
            continue;
        }
        let px = |p: [f32; 2]| {
            let q = view.to_px(f64::from(p[0]), f64::from(p[1]));
            [q[0] as f32, q[1] as f32]
        };
        for [a, b, c] in list.triangles(item) {
            let (a, mut b, mut c) = (px(a.pos), px(b.pos), px(c.pos));
            let cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
            if !(cross.abs() > 1e-9) {
                continue;
            }
            if cross < 0.0 {
                std::mem::swap(&mut b, &mut c);
            }
            push_triangle(&mut builder, [a, b, c], &clip);
        }
        let Some(path) = std::mem::take(&mut builder).finish() else { continue };
        match &item.texture {
            None => {
                if let Some(c) = color(item.color) {
                    let paint = Paint { shader: Shader::SolidColor(c), anti_alias: true, ..Paint::default() };
                    pixmap.fill_path(&path, &paint, FillRule::Winding, Transform::identity(), None);
                }
            }
            Some(img) => {
                if let Some(transform) = texture_transform(list, item, img, view) {
                    let rgb = [0, 1, 2].map(|i| (item.color[i].clamp(0.0, 1.0) * 255.0).round() as u8);
                    let source = if rgb == [255; 3] {
                        img.pixmap()
                    } else {
                        tinted.entry((img.id, rgb)).or_insert_with(|| tint(img.pixmap(), rgb))
                    };
                    let shader = Pattern::new(source.as_ref(), SpreadMode::Pad, FilterQuality::Bilinear, item.color[3], transform);
                    let paint = Paint { shader, anti_alias: true, ..Paint::default() };
                    pixmap.fill_path(&path, &paint, FillRule::Winding, Transform::identity(), None);
                }
            }
        }
        builder = path.clear();
    }
}

/// Adds one triangle to the path, clipped to `clip` (`[x0, y0, x1, y1]`)
/// when it reaches outside it (Sutherland–Hodgman; a convex polygon stays
/// convex and keeps its winding).
fn push_triangle(builder: &mut PathBuilder, tri: [[f32; 2]; 3], clip: &[f32; 4]) {
    let (lo_x, hi_x) = (tri[0][0].min(tri[1][0]).min(tri[2][0]), tri[0][0].max(tri[1][0]).max(tri[2][0]));
    let (lo_y, hi_y) = (tri[0][1].min(tri[1][1]).min(tri[2][1]), tri[0][1].max(tri[1][1]).max(tri[2][1]));
    if hi_x < clip[0] || lo_x > clip[2] || hi_y < clip[1] || lo_y > clip[3] {
        return;
    }
    let polygon: Vec<[f32; 2]> = if lo_x >= clip[0] && hi_x <= clip[2] && lo_y >= clip[1] && hi_y <= clip[3] {
        tri.to_vec()
    } else {
        let mut poly: Vec<[f64; 2]> = tri.iter().map(|p| [f64::from(p[0]), f64::from(p[1])]).collect();
        // (axis, bound, keep the side below the bound?)
        for (axis, bound, below) in [(0, clip[0], false), (0, clip[2], true), (1, clip[1], false), (1, clip[3], true)] {
            let bound = f64::from(bound);
            let inside = |p: &[f64; 2]| if below { p[axis] <= bound } else { p[axis] >= bound };
            let mut out = Vec::with_capacity(poly.len() + 2);
            for i in 0..poly.len() {
                let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
                if inside(&p) {
                    out.push(p);
                }
                if inside(&p) != inside(&q) {
                    let t = (bound - p[axis]) / (q[axis] - p[axis]);
                    out.push([p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t]);
                }
            }
            poly = out;
            if poly.len() < 3 {
                return;
            }
        }
        poly.iter().map(|p| [p[0] as f32, p[1] as f32]).collect()
    };
    let Some((first, rest)) = polygon.split_first() else { return };
    builder.move_to(first[0], first[1]);
    for p in rest {
        builder.line_to(p[0], p[1]);
    }
    builder.close();
}

/// The map from image pixels to picture pixels, solved from the first
/// triangle of the item whose texture coordinates span an area.
fn texture_transform(list: &DrawList, item: &DrawItem, img: &SpriteImage, view: &View) -> Option<Transform> {
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    for [a, b, c] in list.triangles(item) {
        // Source: texel coordinates; destination: picture pixels.
        let s = [a, b, c].map(|v| [f64::from(v.uv[0]) * w, f64::from(v.uv[1]) * h]);
        let d = [a, b, c].map(|v| view.to_px(f64::from(v.pos[0]), f64::from(v.pos[1])));
        let (s1, s2) = ([s[1][0] - s[0][0], s[1][1] - s[0][1]], [s[2][0] - s[0][0], s[2][1] - s[0][1]]);
        let det = s1[0] * s2[1] - s1[1] * s2[0];
        if det.abs() < 1e-12 {
            continue;
        }
        let (d1, d2) = ([d[1][0] - d[0][0], d[1][1] - d[0][1]], [d[2][0] - d[0][0], d[2][1] - d[0][1]]);
        // Linear part L with L·s1 = d1, L·s2 = d2: L = D · S⁻¹.
        let inv = [s2[1] / det, -s1[1] / det, -s2[0] / det, s1[0] / det]; // column-major S⁻¹ (a b c d)
        let la = d1[0] * inv[0] + d2[0] * inv[1];
        let lb = d1[1] * inv[0] + d2[1] * inv[1];
        let lc = d1[0] * inv[2] + d2[0] * inv[3];
        let ld = d1[1] * inv[2] + d2[1] * inv[3];
        let tx = d[0][0] - la * s[0][0] - lc * s[0][1];
        let ty = d[0][1] - lb * s[0][0] - ld * s[0][1];
        let t = Transform::from_row(la as f32, lb as f32, lc as f32, ld as f32, tx as f32, ty as f32);
        return (t.is_finite() && t.invert().is_some()).then_some(t);
    }
    None
}

/// A copy of a premultiplied image with its color channels multiplied by `rgb`.
fn tint(src: &Pixmap, rgb: [u8; 3]) -> Pixmap {
    let mut out = src.clone();
    for px in out.data_mut().chunks_exact_mut(4) {
        for i in 0..3 {
            px[i] = ((u16::from(px[i]) * u16::from(rgb[i]) + 127) / 255) as u8;
        }
    }
    out
}

/// One attachment drawn alone, for a texture atlas.
#[derive(Clone, Debug)]
pub struct AttachmentImage {
    /// Straight-alpha RGBA8; row 0 is the top (attachment +y is up).
    pub image: image::RgbaImage,
    /// Where the attachment origin falls, in pixels from the top-left corner.
    pub pivot: [f64; 2],
}

/// Rasterizes one attachment alone at `pixels_per_unit`, in its own
/// attachment space: the attachment transform, the bone and the slot color
/// are left out (a runtime applies them), stroke widths are taken as they
/// are written, and path points bound to other bones are placed as `pose`
/// has them. The picture is just large enough for what is drawn, plus
/// `padding_px` transparent pixels on every side. `Ok(None)` when the
/// attachment draws nothing (type none, empty shape); an error when a
/// sprite cannot be loaded or the picture would exceed 4096 pixels a side.
pub fn render_attachment(
    skeleton: &crate::model::Skeleton,
    pose: &crate::runtime::Pose,
    slot: crate::model::SlotId,
    attachment: crate::model::AttachmentId,
    pixels_per_unit: f64,
    padding_px: u32,
    cache: &mut super::RenderCache,
) -> Result<Option<AttachmentImage>, String> {
    if !(pixels_per_unit.is_finite() && pixels_per_unit > 0.0) {
        return Err(format!("scale must be a positive number of pixels per unit, not {pixels_per_unit}"));
    }
    let options = super::DrawOptions { pixels_per_unit, bones: false };
    let list = super::build_attachment(skeleton, pose, slot, attachment, &options, cache);
    if let Some(w) = list.warnings.first() {
        return Err(w.message.clone());
    }
    let Some(b) = list.bounds() else { return Ok(None) };
    // Whole pixels around the shape, plus one for the anti-aliased edge.
    let pad = f64::from(padding_px) + 1.0;
    let x0 = (b.min[0] * pixels_per_unit).floor() - pad;
    let x1 = (b.max[0] * pixels_per_unit).ceil() + pad;
    let y0 = (-b.max[1] * pixels_per_unit).floor() - pad;
    let y1 = (-b.min[1] * pixels_per_unit).ceil() + pad;
    let (w, h) = (x1 - x0, y1 - y0);
    const MAX_SIDE: f64 = 4096.0;
    if !(w <= MAX_SIDE && h <= MAX_SIDE) {
        return Err(format!("attachment would be {w}×{h} pixels at this scale (at most {MAX_SIDE} per side)"));
    }
    let view = View { origin_px: [-x0, -y0], pixels_per_unit };
    let image = render_rgba(&list, &view, w as u32, h as u32, None)?;
    Ok(Some(AttachmentImage { image, pivot: view.origin_px }))
}
