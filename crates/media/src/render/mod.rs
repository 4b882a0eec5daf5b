//! Pose → draw list → pixels (LANGUAGE.md §7).
//!
//! [`build_draw_list`] turns a [`Pose`] into a [`DrawList`]: triangles in
//! world units (y up), grouped into [`DrawItem`]s that each have one color
//! and at most one texture, back to front. Both back ends consume that same
//! list: [`egui::to_epaint`] makes `epaint` meshes for the editor's canvas,
//! [`cpu::render`] rasterizes it with tiny-skia for files.
//!
//! Shapes are tessellated with lyon in attachment space and kept in a
//! [`RenderCache`]; a frame where only bones moved transforms the kept
//! triangles instead of tessellating again (see [`build_draw_list`]).
//!
//! The draw list walks the draw order: each slot's current attachment (from
//! the pose's skin) becomes items — fill, then stroke, colours times the slot
//! colour — then the bone overlay (diamonds for bones of length 10 or more,
//! origin crosses of fixed pixel size). Items know their slot, bone and part,
//! for `pick`. Extras for other stages: `attachment_outline` (a shape as drawn,
//! for vector exports), `animation_bounds` and `build_with_onion_skin`
//! (`animation`), `cpu::render_attachment` (one attachment alone, for atlases).
//! Render writes no files (that is `formats::frames`).
//!
//! Invariants: the same input gives the same pixels on every machine (see
//! `cpu`'s bands); a frame's pixels do not depend on what the cache held, so frames drawn on
//! many threads, each with a forked cache, are the one-thread bytes; stroke
//! widths are world units whatever the bone scale, fills use the nonzero rule;
//! a missing or undecodable sprite is a `RenderWarning` naming the slot, never
//! a panic.
//!
//! ```no_run
//! use skelpad_media::render::{self, DrawOptions, RenderCache, View};
//! # let text = "";
//! let comp = skelpad_lang::compile::compile(text);
//! let pose = skelpad_lang::runtime::evaluate(&comp.armature, None, Default::default(), 0.0);
//! let mut cache = RenderCache::new("path/to/script/folder");
//! let view = View::centered(256, 256, 2.0);
//! let options = DrawOptions { pixels_per_unit: view.pixels_per_unit, bones: true, ..DrawOptions::default() };
//! let list = render::build_draw_list(&comp.armature, &pose, &options, &mut cache);
//! let image = render::cpu::render_rgba(&list, &view, 256, 256, None);
//! ```

mod animation;
mod cache;
pub mod cpu;
pub mod egui;
pub mod frames;
mod geometry;
pub mod images;
pub mod pick;
mod tessellate;
mod view;

use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

pub use animation::{
    BOUNDS_SAMPLES, OnionSkin, animation_bounds, animation_bounds_sampled, build_with_onion_skin,
    sample_times,
};
pub use cache::CacheStats;
pub use geometry::{AttachmentOutline, OutlineSegment, attachment_outline};
pub use images::{ImageStore, SpriteImage};
pub use view::{Bounds, View};

use cache::{Op, TessCache};
use geometry::Outline;
use skelpad_lang::model::{
    Affine, Armature, AttachmentId, AttachmentKind, BoneId, Color, ShapeStyle, Skeleton, SlotId,
};
use skelpad_lang::runtime::Pose;
use tessellate::{Mesh, Stroke};

pub use tessellate::CONTOUR_END;

/// Straight (not premultiplied) sRGB color with alpha, each in 0..1.
pub type Rgba = [f32; 4];

/// Largest distance, in pixels, between a curve and the straight segments
/// that approximate it.
pub const TOLERANCE_PX: f64 = 0.1;

/// Size of the origin mark of a bone, in pixels (half the length of each
/// arm of the cross).
pub const ORIGIN_MARK_PX: f64 = 3.5;

/// A corner of a triangle: its world position (y up) and, for textured
/// items, where it samples the texture (0..1, row 0 at the top).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vertex {
    /// World position `[x, y]`, y up.
    pub pos: [f32; 2],
    /// Texture coordinates `[u, v]` in 0..1, v = 0 at the top row; unused
    /// (zero) in untextured items.
    pub uv: [f32; 2],
}

/// What a draw item shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Part {
    /// The inside of a closed shape.
    Fill,
    /// The outline of a shape, centered on it.
    Stroke,
    /// A textured quad, or one textured triangle of a mesh.
    Sprite,
    /// The diamond of a bone in the overlay.
    BoneDiamond,
    /// The cross at a bone's origin in the overlay.
    BoneOrigin,
}

/// A run of triangles with one color and at most one texture. The color
/// multiplies the texture (sprites) or is the color (everything else).
#[derive(Clone, Debug)]
pub struct DrawItem {
    /// What the triangles show (a fill, a stroke, a picture, the overlay).
    pub part: Part,
    /// The slot whose attachment this is (`None` for the bone overlay).
    pub slot: Option<SlotId>,
    /// The slot's bone, or the bone the overlay item belongs to.
    pub bone: BoneId,
    /// Its vertices in [`DrawList::vertices`].
    pub vertices: Range<u32>,
    /// Its triangles: three entries per triangle in [`DrawList::indices`],
    /// each an index into [`DrawList::vertices`].
    pub indices: Range<u32>,
    /// Its outline in [`DrawList::contours`]: closed loops of vertex
    /// indices, each ended by [`CONTOUR_END`], that cover the same points
    /// as the triangles under the nonzero rule (what a path rasterizer
    /// fills; GPU back ends ignore it).
    pub contours: Range<u32>,
    /// The item's color: the fill or pen color, or the slot's tint that
    /// multiplies a texture's pixels.
    pub color: Rgba,
    /// The picture sampled at the vertices' `uv`, for [`Part::Sprite`] items;
    /// `None` for everything else.
    pub texture: Option<Arc<SpriteImage>>,
    /// Part of an onion-skin ghost frame.
    pub ghost: bool,
}

/// Something that could not be drawn, e.g. a sprite whose file is missing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderWarning {
    /// The slot whose attachment was not drawn.
    pub slot: SlotId,
    /// The attachment that was not drawn.
    pub attachment: AttachmentId,
    /// Why, for people (e.g. the image file's problem).
    pub message: String,
}

/// Triangles to draw, back to front, in world units (y up).
///
/// Invariants: every item's `indices` range is a multiple of three long;
/// its indices and contours refer only to vertices inside its own
/// `vertices` range; every vertex of an item is finite; items are in
/// drawing order.
#[derive(Clone, Debug, Default)]
pub struct DrawList {
    /// Every item's vertices, item after item.
    pub vertices: Vec<Vertex>,
    /// Every item's triangles, three indices into `vertices` each.
    pub indices: Vec<u32>,
    /// Outline loops of the items (see [`DrawItem::contours`]).
    pub contours: Vec<u32>,
    /// The items, back to front.
    pub items: Vec<DrawItem>,
    /// What could not be drawn, once per slot.
    pub warnings: Vec<RenderWarning>,
}

impl DrawList {
    /// Empties the list, keeping its storage.
    pub fn clear(&mut self) {
        self.vertices.clear();
        self.indices.clear();
        self.contours.clear();
        self.items.clear();
        self.warnings.clear();
    }

    /// The triangles of one item, as vertex triples.
    pub fn triangles<'a>(&'a self, item: &DrawItem) -> impl Iterator<Item = [Vertex; 3]> + 'a {
        let idx =
            self.indices.get(item.indices.start as usize..item.indices.end as usize).unwrap_or(&[]);
        idx.chunks_exact(3).map(|t| {
            [t[0], t[1], t[2]].map(|i| self.vertices.get(i as usize).copied().unwrap_or_default())
        })
    }

    /// The box around everything drawn (`None` when nothing is).
    pub fn bounds(&self) -> Option<Bounds> {
        let mut acc = None;
        for item in &self.items {
            for v in &self.vertices[item.vertices.start as usize..item.vertices.end as usize] {
                Bounds::include(&mut acc, f64::from(v.pos[0]), f64::from(v.pos[1]));
            }
        }
        acc
    }

    /// Appends another list's items on top of this one's.
    pub fn append(&mut self, other: &DrawList) {
        self.append_mapped(other, |item| item);
    }

    /// Appends another list as an onion-skin ghost: its colors mixed toward
    /// `tint` by `tint[3]` (0 keeps them, 1 replaces them), and its alpha
    /// multiplied by `opacity`. The overlay of the other list is left out.
    pub fn append_ghost(&mut self, other: &DrawList, tint: Rgba, opacity: f32) {
        let k = tint[3].clamp(0.0, 1.0);
        self.append_mapped(other, |mut item| {
            if matches!(item.part, Part::BoneDiamond | Part::BoneOrigin) {
                return DrawItem { indices: 0..0, ..item };
            }
            for (c, t) in item.color.iter_mut().zip(tint).take(3) {
                *c = *c * (1.0 - k) + t * k;
            }
            item.color[3] *= opacity.clamp(0.0, 1.0);
            item.ghost = true;
            item
        });
        self.items.retain(|i| !i.indices.is_empty());
    }

    fn append_mapped(&mut self, other: &DrawList, mut map: impl FnMut(DrawItem) -> DrawItem) {
        let vbase = self.vertices.len() as u32;
        let ibase = self.indices.len() as u32;
        let cbase = self.contours.len() as u32;
        self.vertices.extend_from_slice(&other.vertices);
        self.indices.extend(other.indices.iter().map(|i| i + vbase));
        self.contours
            .extend(other.contours.iter().map(|&i| if i == CONTOUR_END { i } else { i + vbase }));
        for item in &other.items {
            let mut item = item.clone();
            item.vertices = item.vertices.start + vbase..item.vertices.end + vbase;
            item.indices = item.indices.start + ibase..item.indices.end + ibase;
            item.contours = item.contours.start + cbase..item.contours.end + cbase;
            self.items.push(map(item));
        }
        for w in &other.warnings {
            if !self.warnings.contains(w) {
                self.warnings.push(w.clone());
            }
        }
    }

    /// Adds the triangles of `mesh` mapped by `m`.
    fn push_mesh(&mut self, (mesh, contours): (&Mesh, Option<&[u32]>), m: &Affine, head: ItemHead) {
        if mesh.indices.is_empty() {
            return;
        }
        let (vbase, ibase, cbase) = self.lengths();
        let [a, b, c, d, e, f] = m.to_array().map(|v| v as f32);
        self.vertices.extend(mesh.positions.iter().map(|p| Vertex {
            pos: [a * p[0] + c * p[1] + e, b * p[0] + d * p[1] + f],
            uv: [0.0, 0.0],
        }));
        self.indices.extend(mesh.indices.iter().map(|i| i + vbase));
        self.contours.extend(
            contours.unwrap_or(&[]).iter().map(|&i| if i == CONTOUR_END { i } else { i + vbase }),
        );
        self.push_item(head, (vbase, ibase, cbase), None);
    }

    /// Where the next item starts: (vertices, indices, contours).
    fn lengths(&self) -> (u32, u32, u32) {
        (self.vertices.len() as u32, self.indices.len() as u32, self.contours.len() as u32)
    }

    /// Adds a quad (vertices `vbase..vbase + 4`, in order around it).
    fn push_quad_indices(&mut self, vbase: u32) {
        self.indices.extend([0, 1, 2, 0, 2, 3].map(|i| i + vbase));
        self.contours.extend([vbase, vbase + 1, vbase + 2, vbase + 3, CONTOUR_END]);
    }

    fn push_item(
        &mut self,
        head: ItemHead,
        (vbase, ibase, cbase): (u32, u32, u32),
        texture: Option<Arc<SpriteImage>>,
    ) {
        // Coordinates beyond f32 (a bone placed at 1e300) cannot be drawn:
        // drop the item rather than hand infinities to a back end.
        if !self.vertices[vbase as usize..]
            .iter()
            .all(|v| v.pos[0].is_finite() && v.pos[1].is_finite())
        {
            self.vertices.truncate(vbase as usize);
            self.indices.truncate(ibase as usize);
            self.contours.truncate(cbase as usize);
            return;
        }
        self.items.push(DrawItem {
            part: head.part,
            slot: head.slot,
            bone: head.bone,
            vertices: vbase..self.vertices.len() as u32,
            indices: ibase..self.indices.len() as u32,
            contours: cbase..self.contours.len() as u32,
            color: head.color,
            texture,
            ghost: false,
        });
    }

    fn warn(&mut self, slot: SlotId, attachment: AttachmentId, message: String) {
        let w = RenderWarning { slot, attachment, message };
        if !self.warnings.contains(&w) {
            self.warnings.push(w);
        }
    }
}

#[derive(Clone, Copy)]
struct ItemHead {
    part: Part,
    slot: Option<SlotId>,
    bone: BoneId,
    color: Rgba,
}

/// How to build a draw list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawOptions {
    /// Device pixels per world unit of the view the list will be shown in
    /// (for egui: zoom × pixels per point). Curves are flattened to within
    /// [`TOLERANCE_PX`] of a pixel and origin marks are sized from it.
    pub pixels_per_unit: f64,
    /// Draw the bone overlay (diamonds and origin marks).
    pub bones: bool,
    /// Also give each item its outline loops ([`DrawItem::contours`]),
    /// which the tiny-skia back end fills several times faster than
    /// triangles. The epaint back end does not use them: leave this off
    /// for the canvas.
    pub contours: bool,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions { pixels_per_unit: 1.0, bones: false, contours: false }
    }
}

impl DrawOptions {
    /// The scale, 1 when it is not a positive number.
    fn ppu(&self) -> f64 {
        if self.pixels_per_unit.is_finite() && self.pixels_per_unit > 0.0 {
            self.pixels_per_unit
        } else {
            1.0
        }
    }

    /// Curve tolerance in world units.
    fn tolerance(&self) -> f64 {
        TOLERANCE_PX / self.ppu()
    }
}

/// What a renderer keeps between frames: tessellations (keyed on their
/// outline and style, so they cannot go stale) and decoded sprite images.
/// One per document; keep it alive across frames.
pub struct RenderCache {
    tess: TessCache,
    /// Sprite images, looked up relative to the script's folder.
    pub images: ImageStore,
    outline: Outline,
    world_outline: Outline,
    rel: Vec<(BoneId, Affine)>,
    /// Vertex, index and item counts of the last list built, to size the next.
    last_sizes: (usize, usize, usize),
}

impl RenderCache {
    /// A cache whose sprite images are looked up in `image_dir`.
    pub fn new(image_dir: impl Into<PathBuf>) -> Self {
        RenderCache {
            tess: TessCache::default(),
            images: ImageStore::new(image_dir),
            outline: Outline::default(),
            world_outline: Outline::default(),
            rel: Vec::new(),
            last_sizes: (0, 0, 0),
        }
    }

    /// Tessellation counters: a frame where only bones moved rigidly should
    /// add hits and no misses.
    pub fn stats(&self) -> CacheStats {
        self.tess.stats()
    }

    /// A new cache with the same sprite images (decoded ones shared) and no
    /// tessellations: for another thread drawing the same armature.
    pub fn fork(&self) -> RenderCache {
        RenderCache { images: self.images.clone(), ..RenderCache::new(self.images.dir()) }
    }

    /// Zeroes the counters of [`RenderCache::stats`] (the cache itself is kept).
    pub fn reset_stats(&mut self) {
        self.tess.reset_stats();
    }
}

/// The tolerance to tessellate `outline` with: `t` rounded down to a power
/// of two, so that zooming reuses tessellations over a range of scales
/// (never coarser than asked), but never finer than a millionth of the
/// size of the outline or its pen: a huge shape seen up close would
/// otherwise be cut into millions of segments, of which the picture shows
/// a few.
fn tolerance_for(outline: &Outline, stroke_width: f64, t: f64) -> f32 {
    let t = t.max(outline.extent().max(stroke_width) * 1e-6);
    let t = (t as f32).clamp(1e-6, 1e30);
    f32::from_bits(t.to_bits() & 0xFF80_0000)
}

/// Rounds a scale to 11 significant bits, so rotation-only changes (which
/// disturb the computed scale in its last bits) keep their cache key. The
/// stroke width error this allows is below 0.05 %.
fn quantize_scale(s: f64) -> f64 {
    let bits = (s as f32).to_bits();
    f64::from(f32::from_bits(bits.wrapping_add(1 << 11) & !((1u32 << 12) - 1)))
}

fn rgba(c: Color) -> Rgba {
    [c.r, c.g, c.b, c.a].map(|v| if v.is_finite() { v.clamp(0.0, 1.0) as f32 } else { 0.0 })
}

/// Builds the draw list of a pose (LANGUAGE.md §7): each slot in draw order
/// shows its current attachment from the pose's skin — fill, then stroke
/// centered on the outline, every color multiplied by the slot color — and
/// the bone overlay on top when asked.
///
/// Shapes are tessellated in attachment space and the triangles mapped by
/// `slot_world · attachment_transform`. Fills are kept for any transform
/// (tessellation commutes with affine maps; only the curve tolerance
/// depends on the scale). Strokes are kept when that transform is a
/// similarity (the width is tessellated as `width / scale`, since stroke
/// widths are world units); otherwise they are stroked in world space,
/// keyed on the transform's linear part. A path with points on other bones
/// is keyed on those points' positions in the slot bone's space, so it is
/// tessellated again only when those bones moved relative to the slot's.
pub fn build_draw_list(
    armature: &Armature,
    pose: &Pose,
    options: &DrawOptions,
    cache: &mut RenderCache,
) -> DrawList {
    let (v, i, n) = cache.last_sizes;
    let mut list = DrawList {
        vertices: Vec::with_capacity(v),
        indices: Vec::with_capacity(i),
        contours: Vec::with_capacity(i / 3),
        items: Vec::with_capacity(n),
        warnings: Vec::new(),
    };
    build_draw_list_into(&mut list, armature, pose, options, cache);
    list
}

/// [`build_draw_list`] into an existing list, reusing its storage: what a
/// canvas that redraws every frame should call (no large allocations per
/// frame).
pub fn build_draw_list_into(
    list: &mut DrawList,
    armature: &Armature,
    pose: &Pose,
    options: &DrawOptions,
    cache: &mut RenderCache,
) {
    list.clear();
    let sk = &*armature.skeleton;
    cache.tess.begin_build();
    for &slot_id in &pose.draw_order {
        let Some((att_id, att)) = pose.attachment(sk, slot_id) else { continue };
        let Some(slot) = sk.slots.get(slot_id.index()) else { continue };
        let Some(bone_pose) = pose.bones.get(slot.bone.index()) else { continue };
        let tint = pose.slots.get(slot_id.index()).map_or(Color::WHITE, |s| s.color);
        let m = bone_pose.world * att.transform.matrix();
        let at = Placed { slot: slot_id, bone: slot.bone, att_id, m, tint };
        add_attachment(list, cache, pose, &at, &att.kind, options);
    }
    if options.bones {
        add_overlay(list, sk, pose, options);
    }
    cache.tess.end_build();
    cache.last_sizes = (list.vertices.len(), list.indices.len(), list.items.len());
}

/// Draws one attachment alone, in its own attachment space (the attachment
/// transform and the bone are left out, the slot color too), with path
/// points on other bones placed as `pose` has them. For texture atlases.
pub fn build_attachment(
    skeleton: &Skeleton,
    pose: &Pose,
    slot: SlotId,
    attachment: AttachmentId,
    options: &DrawOptions,
    cache: &mut RenderCache,
) -> DrawList {
    let mut list = DrawList::default();
    let Some(bone) = skeleton.slots.get(slot.index()).map(|s| s.bone) else { return list };
    let Some(att) = skeleton.attachment(pose.skin, attachment) else { return list };
    cache.tess.begin_build();
    let at = Placed { slot, bone, att_id: attachment, m: Affine::IDENTITY, tint: Color::WHITE };
    add_attachment(&mut list, cache, pose, &at, &att.kind, options);
    cache.tess.end_build();
    list
}

/// Where an attachment is drawn: its slot, bone and id, its transform to
/// the world and the slot's tint.
struct Placed {
    slot: SlotId,
    bone: BoneId,
    att_id: AttachmentId,
    m: Affine,
    tint: Color,
}

impl Placed {
    /// The head of the items it draws as `part` in `color`.
    fn head(&self, part: Part, color: [f32; 4]) -> ItemHead {
        ItemHead { part, slot: Some(self.slot), bone: self.bone, color }
    }
}

fn add_attachment(
    list: &mut DrawList,
    cache: &mut RenderCache,
    pose: &Pose,
    at: &Placed,
    kind: &AttachmentKind,
    options: &DrawOptions,
) {
    let (slot, att_id) = (at.slot, at.att_id);
    match kind {
        AttachmentKind::None => {}
        AttachmentKind::Sprite { image, pivot } => {
            let Some(name) = image else {
                list.warn(
                    slot,
                    att_id,
                    "sprite attachment names no image file; nothing drawn".into(),
                );
                return;
            };
            match cache.images.get(name) {
                Ok(img) => {
                    add_sprite(list, img, *pivot, &at.m, at.head(Part::Sprite, rgba(at.tint)))
                }
                Err(msg) => list.warn(slot, att_id, msg),
            }
        }
        AttachmentKind::Mesh(mesh) => add_mesh(list, cache, pose, at, mesh),
        _ => add_shape(list, cache, pose, at, kind, options),
    }
}

/// A mesh attachment: one textured triangle per triangle of the mesh.
fn add_mesh(
    list: &mut DrawList,
    cache: &mut RenderCache,
    pose: &Pose,
    at: &Placed,
    mesh: &skelpad_lang::model::Mesh,
) {
    let Some(name) = &mesh.image else {
        list.warn(at.slot, at.att_id, "mesh attachment names no image; nothing drawn".into());
        return;
    };
    let img = match cache.images.get(name) {
        Ok(img) => img,
        Err(msg) => return list.warn(at.slot, at.att_id, msg),
    };
    // SkelForm meshes follow their binds; others the slot's bone.
    let pts: Vec<(f64, f64)> = if pose.skf.is_empty() {
        mesh.vertices.iter().map(|v| at.m.apply(v.x, v.y)).collect()
    } else {
        skelpad_lang::runtime::skelform::mesh_vertices(pose, at.bone, mesh)
    };
    let head = at.head(Part::Sprite, rgba(at.tint));
    if head.color[3] <= 0.0 {
        return;
    }
    // One item per triangle: each maps its texture affinely.
    for tri in mesh.indices.chunks_exact(3) {
        if tri.iter().any(|&i| i as usize >= pts.len() || i as usize >= mesh.vertices.len()) {
            continue;
        }
        let bases = list.lengths();
        for &i in tri {
            let (x, y) = pts[i as usize];
            let v = &mesh.vertices[i as usize];
            list.vertices.push(Vertex { pos: [x as f32, y as f32], uv: [v.u as f32, v.v as f32] });
        }
        let b = bases.0;
        list.indices.extend([b, b + 1, b + 2]);
        list.contours.extend([b, b + 1, b + 2, CONTOUR_END]);
        list.push_item(head, bases, Some(img.clone()));
    }
}

/// A shape or path attachment: its fill, then its stroke.
fn add_shape(
    list: &mut DrawList,
    cache: &mut RenderCache,
    pose: &Pose,
    at: &Placed,
    kind: &AttachmentKind,
    options: &DrawOptions,
) {
    let Some(style) = kind.style() else { return };
    if !geometry::outline(&mut cache.outline, kind, at.bone, pose, &mut cache.rel)
        || !cache.outline.is_finite()
    {
        return;
    }
    let m = &at.m;
    let simple = !matches!(kind, AttachmentKind::Path { .. });
    let dist = geometry::distortion(m);
    let tol = options.tolerance();
    let fill = rgba(style.fill.tint(at.tint));
    if cache.outline.closed && fill[3] > 0.0 && dist.max_scale > 0.0 && m.determinant() != 0.0 {
        let op = Op::fill(tolerance_for(&cache.outline, 0.0, tol / dist.max_scale), simple);
        let mesh = cache.tess.get(&cache.outline, op, options.contours);
        list.push_mesh(mesh, m, at.head(Part::Fill, fill));
    }
    let stroke_color = rgba(style.stroke.tint(at.tint));
    let width = style.stroke_width;
    if width > 0.0 && width.is_finite() && stroke_color[3] > 0.0 {
        add_stroke(list, cache, at.head(Part::Stroke, stroke_color), style, m, options);
    }
}

/// The stroke of the outline in `cache` in `style`, its pen round in the
/// world under `m`.
fn add_stroke(
    list: &mut DrawList,
    cache: &mut RenderCache,
    head: ItemHead,
    style: &ShapeStyle,
    m: &Affine,
    options: &DrawOptions,
) {
    let width = style.stroke_width;
    let mut stroke = Stroke {
        width: width as f32,
        join: style.join,
        cap: style.cap,
        miter_limit: style.miter_limit as f32,
    };
    let tol = options.tolerance();
    match geometry::distortion(m).similarity {
        Some(s) => {
            let s = quantize_scale(s);
            stroke.width = (width / s) as f32;
            let op = Op::stroke(
                &stroke,
                tolerance_for(&cache.outline, f64::from(stroke.width), tol / s),
            );
            let mesh = cache.tess.get(&cache.outline, op, options.contours);
            list.push_mesh(mesh, m, head);
        }
        None => {
            // Non-uniform scale or shear: the pen must stay round in the
            // world, so stroke the mapped outline.
            let linear = m.linear();
            cache.outline.transformed_into(&linear, &mut cache.world_outline);
            let op = Op::stroke(&stroke, tolerance_for(&cache.world_outline, width, tol));
            let mesh = cache.tess.get(&cache.world_outline, op, options.contours);
            list.push_mesh(mesh, &Affine::translate(m.translation().x, m.translation().y), head);
        }
    }
}

/// A sprite: the image with its pivot (fractions from the bottom-left) on
/// the attachment origin, one unit per pixel, its top row toward attachment +y.
fn add_sprite(
    list: &mut DrawList,
    img: Arc<SpriteImage>,
    pivot: [f64; 2],
    m: &Affine,
    head: ItemHead,
) {
    if head.color[3] <= 0.0 {
        return;
    }
    let (w, h) = (f64::from(img.width()), f64::from(img.height()));
    let (x0, y0) = (-pivot[0] * w, -pivot[1] * h);
    let (x1, y1) = (x0 + w, y0 + h);
    let bases = list.lengths();
    for (x, y, u, v) in
        [(x0, y1, 0.0, 0.0), (x1, y1, 1.0, 0.0), (x1, y0, 1.0, 1.0), (x0, y0, 0.0, 1.0)]
    {
        let (wx, wy) = m.apply(x, y);
        list.vertices.push(Vertex { pos: [wx as f32, wy as f32], uv: [u, v] });
    }
    list.push_quad_indices(bases.0);
    list.push_item(head, bases, Some(img));
}

/// The bone overlay: a diamond through bone-space points (−5, 0), (0, 5),
/// (length, 0), (0, −5) for each bone of length ≥ 10, in its color at 70 %
/// of its alpha; then a cross of fixed pixel size at every bone origin.
fn add_overlay(list: &mut DrawList, sk: &Skeleton, pose: &Pose, options: &DrawOptions) {
    for (i, (bone, bp)) in sk.bones.iter().zip(&pose.bones).enumerate() {
        if bone.length < 10.0 {
            continue;
        }
        let mut color = rgba(bone.color);
        color[3] *= 0.7;
        if color[3] <= 0.0 {
            continue;
        }
        let bases = list.lengths();
        for (x, y) in [(-5.0, 0.0), (0.0, 5.0), (bone.length, 0.0), (0.0, -5.0)] {
            let (wx, wy) = bp.world.apply(x, y);
            list.vertices.push(Vertex { pos: [wx as f32, wy as f32], uv: [0.0, 0.0] });
        }
        list.push_quad_indices(bases.0);
        list.push_item(
            ItemHead { part: Part::BoneDiamond, slot: None, bone: BoneId::from_index(i), color },
            bases,
            None,
        );
    }
    let ppu = options.ppu();
    let (arm, half) = (ORIGIN_MARK_PX / ppu, 0.5 / ppu);
    for (i, bp) in pose.bones.iter().enumerate() {
        let (x, y) = bp.world.apply(0.0, 0.0);
        let bases = list.lengths();
        // Two bars, screen-aligned (views never rotate): horizontal, vertical.
        for (hx, hy) in [(arm, half), (half, arm)] {
            let base = list.vertices.len() as u32;
            for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                list.vertices.push(Vertex {
                    pos: [(x + sx * hx) as f32, (y + sy * hy) as f32],
                    uv: [0.0, 0.0],
                });
            }
            list.push_quad_indices(base);
        }
        let head = ItemHead {
            part: Part::BoneOrigin,
            slot: None,
            bone: BoneId::from_index(i),
            color: [0.0, 0.0, 0.0, 1.0],
        };
        list.push_item(head, bases, None);
    }
}

#[cfg(test)]
mod tests;
