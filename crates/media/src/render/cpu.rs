//! The headless back end: a draw list rasterized with tiny-skia.
//!
//! Each draw item is filled as ONE path with the nonzero rule: its contour
//! loops (the boundary of its triangles, see [`DrawItem::contours`]) when
//! the list has them, else its triangles all wound the same way (clipped to
//! the picture for an item reaching very far outside it). Either way the union of the
//! triangles is exactly the item's shape and its anti-aliased edge is
//! computed once, so there are no seams where triangles meet and no double
//! blending where stroke triangles overlap.
//!
//! Sprites are drawn through a pattern shader. A picture of 128 rows or more
//! with 32 items or more is drawn as two bands on two threads; the band count
//! depends on the picture, never on the machine.

use std::collections::HashMap;

use tiny_skia::{
    FillRule, FilterQuality, Paint, PathBuilder, Pattern, Pixmap, Shader, SpreadMode, Transform,
};

use super::{CONTOUR_END, DrawItem, DrawList, Rgba, SpriteImage, View};

/// Rasterizes `list` seen through `view` into a new `width × height`
/// picture (premultiplied RGBA), on `background` (transparent if `None`).
pub fn render(
    list: &DrawList,
    view: &View,
    width: u32,
    height: u32,
    background: Option<Rgba>,
) -> Result<Pixmap, String> {
    let mut pixmap = Pixmap::new(width, height)
        .ok_or_else(|| format!("cannot make a {width}×{height} picture"))?;
    if let Some(bg) = background.and_then(color) {
        pixmap.fill(bg);
    }
    draw(&mut pixmap, list, view);
    Ok(pixmap)
}

/// Like [`render`], as straight-alpha RGBA8 (what PNG files hold).
pub fn render_rgba(
    list: &DrawList,
    view: &View,
    width: u32,
    height: u32,
    background: Option<Rgba>,
) -> Result<image::RgbaImage, String> {
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

/// Draws `list` onto an existing pixmap (source-over). A large picture is
/// cut into two horizontal bands drawn on two threads. A band is a picture
/// of its own rows; the only difference from drawing in one piece is the
/// anti-aliasing of edges that cross the cut, which tiny-skia starts afresh
/// there (a few levels out of 255 on a few pixels). The number of bands
/// depends on the picture only, never on the machine, so the same input
/// gives the same pixels everywhere.
pub fn draw(pixmap: &mut Pixmap, list: &DrawList, view: &View) {
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    let bands = if list.items.len() >= 32 && h >= 128 { 2 } else { 1 };
    if bands <= 1 {
        draw_band(pixmap.as_mut(), list, view);
        return;
    }
    let rows = h.div_ceil(bands);
    let stride = w * 4;
    let band = |k: usize, chunk: &mut [u8]| {
        let shifted =
            View { origin_px: [view.origin_px[0], view.origin_px[1] - (k * rows) as f64], ..*view };
        if let Some(part) =
            tiny_skia::PixmapMut::from_bytes(chunk, w as u32, (chunk.len() / stride) as u32)
        {
            draw_band(part, list, &shifted);
        }
    };
    let band = &band;
    std::thread::scope(|scope| {
        let mut chunks = pixmap.data_mut().chunks_mut(rows * stride).enumerate();
        let first = chunks.next();
        for (k, chunk) in chunks {
            scope.spawn(move || band(k, chunk));
        }
        if let Some((k, chunk)) = first {
            band(k, chunk);
        }
    });
}

fn draw_band(mut pixmap: tiny_skia::PixmapMut<'_>, list: &DrawList, view: &View) {
    let mut builder = PathBuilder::new();
    // The rasterizer's fixed-point coordinates cannot take a vertex a
    // billion pixels away: an item reaching beyond `safe` has its triangles
    // clipped to `clip`, the picture plus a margin wider than the
    // anti-aliased edge. Everything else is left to tiny-skia's own
    // clipping, so a band of a picture draws exactly as the whole would.
    const SAFE_PX: f32 = 16384.0;
    let (w, h) = (pixmap.width() as f32, pixmap.height() as f32);
    let clip = [-2.0, -2.0, w + 2.0, h + 2.0];
    let safe = [-SAFE_PX, -SAFE_PX, w + SAFE_PX, h + SAFE_PX];
    // Tinted copies of sprite images, made once per render.
    let mut tinted: HashMap<(u64, [u8; 3]), Pixmap> = HashMap::new();
    let mut pixels = Vec::new();
    for item in &list.items {
        if item.color[3] <= 0.0 {
            continue;
        }
        // Pixel positions of the item's vertices.
        let range = item.vertices.start as usize..item.vertices.end as usize;
        pixels.clear();
        pixels.extend(list.vertices.get(range).unwrap_or(&[]).iter().map(|v| {
            let q = view.to_px(f64::from(v.pos[0]), f64::from(v.pos[1]));
            [q[0] as f32, q[1] as f32]
        }));
        let at = |i: u32| pixels.get(i.wrapping_sub(item.vertices.start) as usize).copied();
        let is_safe = pixels
            .iter()
            .all(|p| p[0] >= safe[0] && p[0] <= safe[2] && p[1] >= safe[1] && p[1] <= safe[3]);
        let loops = list
            .contours
            .get(item.contours.start as usize..item.contours.end as usize)
            .unwrap_or(&[]);
        if is_safe && !loops.is_empty() {
            // The item's outline loops: same coverage, far fewer edges.
            trace_loops(&mut builder, loops, at);
        } else {
            let tris = list
                .indices
                .get(item.indices.start as usize..item.indices.end as usize)
                .unwrap_or(&[]);
            let clip = if is_safe { None } else { Some(&clip) };
            trace_triangles(&mut builder, tris, at, clip);
        }
        let Some(path) = std::mem::take(&mut builder).finish() else { continue };
        fill_item(&mut pixmap, &path, list, item, view, &mut tinted);
        builder = path.clear();
    }
}

/// Adds the loops of an outline (vertex indices, each loop ended by
/// [`CONTOUR_END`]) to the path; `at` gives a vertex's pixel position.
fn trace_loops(builder: &mut PathBuilder, loops: &[u32], at: impl Fn(u32) -> Option<[f32; 2]>) {
    let mut open = false;
    for &i in loops {
        match (i, at(i)) {
            (CONTOUR_END, _) => {
                if open {
                    builder.close();
                }
                open = false;
            }
            (_, Some(p)) if !open => {
                builder.move_to(p[0], p[1]);
                open = true;
            }
            (_, Some(p)) => builder.line_to(p[0], p[1]),
            (_, None) => {}
        }
    }
}

/// Adds triangles (vertex indices, three by three) to the path, every one
/// wound the same way so that they add up, each clipped to `clip` if given;
/// `at` gives a vertex's pixel position.
fn trace_triangles(
    builder: &mut PathBuilder,
    indices: &[u32],
    at: impl Fn(u32) -> Option<[f32; 2]>,
    clip: Option<&[f32; 4]>,
) {
    for t in indices.chunks_exact(3) {
        let (Some(a), Some(b), Some(c)) = (at(t[0]), at(t[1]), at(t[2])) else { continue };
        let cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        if cross.is_nan() || cross.abs() <= 1e-9 {
            continue;
        }
        let tri = if cross < 0.0 { [a, c, b] } else { [a, b, c] };
        match clip {
            None => {
                builder.move_to(tri[0][0], tri[0][1]);
                builder.line_to(tri[1][0], tri[1][1]);
                builder.line_to(tri[2][0], tri[2][1]);
                builder.close();
            }
            Some(clip) => push_triangle(builder, tri, clip),
        }
    }
}

/// Fills an item's path with its color, or with its texture tinted
/// (tinted copies are kept in `tinted`, made once per render).
fn fill_item(
    pixmap: &mut tiny_skia::PixmapMut<'_>,
    path: &tiny_skia::Path,
    list: &DrawList,
    item: &DrawItem,
    view: &View,
    tinted: &mut HashMap<(u64, [u8; 3]), Pixmap>,
) {
    match &item.texture {
        None => {
            if let Some(c) = color(item.color) {
                let paint =
                    Paint { shader: Shader::SolidColor(c), anti_alias: true, ..Paint::default() };
                pixmap.fill_path(path, &paint, FillRule::Winding, Transform::identity(), None);
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
                let shader = Pattern::new(
                    source.as_ref(),
                    SpreadMode::Pad,
                    FilterQuality::Bilinear,
                    item.color[3],
                    transform,
                );
                let paint = Paint { shader, anti_alias: true, ..Paint::default() };
                pixmap.fill_path(path, &paint, FillRule::Winding, Transform::identity(), None);
            }
        }
    }
}

/// Adds one triangle to the path, clipped to `clip` (`[x0, y0, x1, y1]`)
/// when it reaches outside it (Sutherland–Hodgman; a convex polygon stays
/// convex and keeps its winding).
fn push_triangle(builder: &mut PathBuilder, tri: [[f32; 2]; 3], clip: &[f32; 4]) {
    let (lo_x, hi_x) =
        (tri[0][0].min(tri[1][0]).min(tri[2][0]), tri[0][0].max(tri[1][0]).max(tri[2][0]));
    let (lo_y, hi_y) =
        (tri[0][1].min(tri[1][1]).min(tri[2][1]), tri[0][1].max(tri[1][1]).max(tri[2][1]));
    if hi_x < clip[0] || lo_x > clip[2] || hi_y < clip[1] || lo_y > clip[3] {
        return;
    }
    let polygon: Vec<[f32; 2]> =
        if lo_x >= clip[0] && hi_x <= clip[2] && lo_y >= clip[1] && hi_y <= clip[3] {
            tri.to_vec()
        } else {
            let mut poly: Vec<[f64; 2]> =
                tri.iter().map(|p| [f64::from(p[0]), f64::from(p[1])]).collect();
            // (axis, bound, keep the side below the bound?)
            for (axis, bound, below) in
                [(0, clip[0], false), (0, clip[2], true), (1, clip[1], false), (1, clip[3], true)]
            {
                let bound = f64::from(bound);
                let inside = |p: &[f64; 2]| if below { p[axis] <= bound } else { p[axis] >= bound };
                let mut out = Vec::with_capacity(poly.len() + 2);
                for i in 0..poly.len() {
                    let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
                    if inside(&p) {
                        out.push(p);
                    }
                    if inside(&p) != inside(&q) {
                        // The crossing lies on the bound exactly; its other
                        // coordinate is kept between p's and q's, which
                        // rounding would break when they are 1e20 apart.
                        let t = (bound - p[axis]) / (q[axis] - p[axis]);
                        let other = 1 - axis;
                        let v = p[other] + (q[other] - p[other]) * t;
                        let v = v.clamp(p[other].min(q[other]), p[other].max(q[other]));
                        if v.is_finite() {
                            let mut crossing = [0.0; 2];
                            crossing[axis] = bound;
                            crossing[other] = v;
                            out.push(crossing);
                        }
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
fn texture_transform(
    list: &DrawList,
    item: &DrawItem,
    img: &SpriteImage,
    view: &View,
) -> Option<Transform> {
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    for [a, b, c] in list.triangles(item) {
        // Source: texel coordinates; destination: picture pixels.
        let s = [a, b, c].map(|v| [f64::from(v.uv[0]) * w, f64::from(v.uv[1]) * h]);
        let d = [a, b, c].map(|v| view.to_px(f64::from(v.pos[0]), f64::from(v.pos[1])));
        let (s1, s2) =
            ([s[1][0] - s[0][0], s[1][1] - s[0][1]], [s[2][0] - s[0][0], s[2][1] - s[0][1]]);
        let det = s1[0] * s2[1] - s1[1] * s2[0];
        if det.abs() < 1e-12 {
            continue;
        }
        let (d1, d2) =
            ([d[1][0] - d[0][0], d[1][1] - d[0][1]], [d[2][0] - d[0][0], d[2][1] - d[0][1]]);
        // Linear part L with L·s1 = d1, L·s2 = d2: L = D · S⁻¹.
        let inv = [s2[1] / det, -s1[1] / det, -s2[0] / det, s1[0] / det]; // column-major S⁻¹ (a b c d)
        let la = d1[0] * inv[0] + d2[0] * inv[1];
        let lb = d1[1] * inv[0] + d2[1] * inv[1];
        let lc = d1[0] * inv[2] + d2[0] * inv[3];
        let ld = d1[1] * inv[2] + d2[1] * inv[3];
        let tx = d[0][0] - la * s[0][0] - lc * s[0][1];
        let ty = d[0][1] - lb * s[0][0] - ld * s[0][1];
        let t =
            Transform::from_row(la as f32, lb as f32, lc as f32, ld as f32, tx as f32, ty as f32);
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
    skeleton: &skelpad_lang::model::Skeleton,
    pose: &skelpad_lang::runtime::Pose,
    slot: skelpad_lang::model::SlotId,
    attachment: skelpad_lang::model::AttachmentId,
    pixels_per_unit: f64,
    padding_px: u32,
    cache: &mut super::RenderCache,
) -> Result<Option<AttachmentImage>, String> {
    if !(pixels_per_unit.is_finite() && pixels_per_unit > 0.0) {
        return Err(format!(
            "scale must be a positive number of pixels per unit, not {pixels_per_unit}"
        ));
    }
    let options = super::DrawOptions { pixels_per_unit, bones: false, contours: true };
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
        return Err(format!(
            "attachment would be {w}×{h} pixels at this scale (at most {MAX_SIDE} per side)"
        ));
    }
    let view = View { origin_px: [-x0, -y0], pixels_per_unit };
    let image = render_rgba(&list, &view, w as u32, h as u32, None)?;
    Ok(Some(AttachmentImage { image, pivot: view.origin_px }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{DrawOptions, RenderCache, build_draw_list};

    /// The largest premultiplied channel difference and how many pixels differ at all.
    fn difference(a: &Pixmap, b: &Pixmap) -> (u8, usize) {
        let mut worst = 0;
        let mut count = 0;
        for (p, q) in a.data().chunks_exact(4).zip(b.data().chunks_exact(4)) {
            let d = p.iter().zip(q).map(|(x, y)| x.abs_diff(*y)).max().unwrap_or(0);
            worst = worst.max(d);
            count += usize::from(d > 0);
        }
        (worst, count)
    }

    fn generated_list(contours: bool) -> (DrawList, View) {
        let arm = skelpad_lang::compile::compile(&skelpad_lang::generate::script(200, 1)).armature;
        let pose = skelpad_lang::runtime::evaluate(&arm, None, skelpad_lang::model::SkinId(0), 0.0);
        let view = View::centered(256, 256, 1.5);
        let options = DrawOptions { pixels_per_unit: 1.5, bones: true, contours };
        (build_draw_list(&arm, &pose, &options, &mut RenderCache::new(".")), view)
    }

    #[test]
    fn contours_and_triangles_fill_the_same_pixels() {
        let (with, view) = generated_list(true);
        let (without, _) = generated_list(false);
        // Only the overlay's quads have loops without the option.
        assert!(with.contours.len() > 2 * without.contours.len());
        let a = render(&with, &view, 256, 256, None).expect("render");
        let b = render(&without, &view, 256, 256, None).expect("render");
        let (worst, count) = difference(&a, &b);
        // Same coverage; only rounding of the anti-aliased edge may differ.
        assert!(worst <= 8 && count < 256 * 256 / 50, "worst {worst}, {count} pixels differ");
    }

    #[test]
    fn bands_drawn_apart_match_one_piece() {
        let (list, view) = generated_list(true);
        let banded = render(&list, &view, 256, 256, None).expect("render");
        let mut whole = Pixmap::new(256, 256).expect("pixmap");
        draw_band(whole.as_mut(), &list, &view);
        // Edges cut at the border between the bands start their
        // anti-aliasing afresh there: a few pixels on such edges may round
        // differently, slightly.
        let (worst, count) = difference(&banded, &whole);
        assert!(worst <= 16 && count <= 64, "worst {worst}, {count} pixels differ");
    }
}
