//! The editor back end: a draw list as `epaint` meshes.
//!
//! Use in an egui canvas (keep `cache` and `list` alive across frames):
//!
//! ```ignore
//! // World origin at the canvas center plus the pan; `zoom` points per unit.
//! let view = View { origin_px: [center.x as f64 + pan.x, center.y as f64 + pan.y], pixels_per_unit: zoom };
//! let options = DrawOptions { pixels_per_unit: zoom * ctx.pixels_per_point() as f64, bones: true, ..DrawOptions::default() };
//! render::build_draw_list_into(&mut list, &armature, &pose, &options, &mut cache);
//! // or, with ghosts: list = render::build_with_onion_skin(&armature, anim, skin, t, &OnionSkin::default(), &options, &mut cache);
//! for mesh in render::egui::to_epaint(&list, &view, &mut |img| textures.id_for(img)) {
//!     painter.add(egui::Shape::mesh(mesh));
//! }
//! // list.warnings: sprites that could not be loaded (slot + message).
//! ```
//!
//! `View` is in points here (egui's logical pixels); `DrawOptions` wants
//! device pixels per unit (it sets the curve tolerance). Meshes carry no
//! anti-aliasing of their own: enable multisampling in the native options
//! (`multisampling: 4`) for smooth edges. Sprite textures are the caller's
//! to upload (see [`color_image`]); key them on [`SpriteImage::id`], which
//! changes when an image is reloaded. Items know their slot and bone
//! ([`super::DrawItem`]), for picking.

use epaint::{Color32, ColorImage, Mesh, Pos2, TextureId, WHITE_UV};

use super::{DrawList, Rgba, SpriteImage, View};

/// Converts a draw list into meshes, back to front. Consecutive items with
/// the same texture share a mesh; untextured items use egui's font texture
/// (`TextureId::default()`) at its white texel. `texture_id` gives the id
/// of the uploaded texture of a sprite image.
pub fn to_epaint(
    list: &DrawList,
    view: &View,
    texture_id: &mut dyn FnMut(&SpriteImage) -> TextureId,
) -> Vec<Mesh> {
    let mut meshes: Vec<Mesh> = Vec::new();
    let drawn = |item: &super::DrawItem| !item.indices.is_empty() && item.color[3] > 0.0;
    for (k, item) in list.items.iter().enumerate() {
        if !drawn(item) {
            continue;
        }
        let tex = item.texture.as_deref().map_or(TextureId::default(), &mut *texture_id);
        if meshes.last().is_none_or(|m| m.texture_id != tex) {
            // Sized once for the run of items with this image (a mesh of a
            // large rig grown step by step is copied many times over).
            let image = item.texture.as_ref().map(|t| t.id);
            let (mut vertices, mut indices) = (0, 0);
            for i in list.items[k..].iter().filter(|&i| drawn(i)) {
                if i.texture.as_ref().map(|t| t.id) != image {
                    break;
                }
                vertices += i.vertices.len();
                indices += i.indices.len();
            }
            let mut mesh = Mesh::with_texture(tex);
            mesh.vertices.reserve_exact(vertices);
            mesh.indices.reserve_exact(indices);
            meshes.push(mesh);
        }
        let Some(mesh) = meshes.last_mut() else { continue };
        let color = color32(item.color);
        let textured = item.texture.is_some();
        let (v0, v1) = (item.vertices.start as usize, item.vertices.end as usize);
        let base = mesh.vertices.len() as u32;
        for v in list.vertices.get(v0..v1).unwrap_or(&[]) {
            let p = view.to_px(f64::from(v.pos[0]), f64::from(v.pos[1]));
            let uv = if textured { Pos2::new(v.uv[0], v.uv[1]) } else { WHITE_UV };
            mesh.vertices.push(epaint::Vertex {
                pos: Pos2::new(p[0] as f32, p[1] as f32),
                uv,
                color,
            });
        }
        let idx =
            list.indices.get(item.indices.start as usize..item.indices.end as usize).unwrap_or(&[]);
        // Indices are global in the list; in the mesh they count from the
        // item's first vertex.
        mesh.indices.extend(idx.iter().map(|&i| i - item.vertices.start + base));
    }
    meshes
}

/// An item color as egui's premultiplied sRGBA.
pub fn color32(c: Rgba) -> Color32 {
    let [r, g, b, a] = c.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u8);
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

/// A sprite image as an egui image, ready for `ctx.load_texture`.
pub fn color_image(image: &SpriteImage) -> ColorImage {
    ColorImage::from_rgba_premultiplied(
        [image.width() as usize, image.height() as usize],
        image.rgba_premultiplied(),
    )
}
