//! Attachments as skinned triangles, drawn by skelpad's own draw list.
//!
//! Each (slot, attachment) the chosen skin ever shows becomes one mesh in
//! one of three ways:
//! - **rigid** (sprites, shapes, paths on one bone): the draw list's
//!   triangles at the setup pose, taken back into the bone's space, skinned
//!   to one joint node under the bone (its `z` is the draw order, its scale
//!   0 hides it);
//! - **weighted** (imported meshes whose vertices blend bones linearly, seen
//!   all the time at one place in the draw order): the mesh's own vertices
//!   and weights, the bones as joints, checked against skelpad's skinned
//!   vertices at every frame;
//! - **per frame** (paths with points on other bones, strokes on a bone
//!   whose scale changes — skelpad keeps stroke widths in world units —
//!   meshes that are not a linear blend): the draw list's triangles at
//!   every frame, each frame's copy skinned to a joint node of its own that
//!   only that frame shows (baked, with a warning).

use rustc_hash::FxHashMap;

use super::Clip;
use crate::render::{DrawOptions, Part, RenderCache, build_draw_list};
use skelpad_lang::model::{Affine, Armature, AttachmentId, AttachmentKind, Color, SkinId, SlotId};
use skelpad_lang::runtime::{Pose, evaluate_into};

/// Curves are flattened to within 0.005 units.
const PIXELS_PER_UNIT: f64 = 20.0;
/// Per-frame copies an export makes at most (all attachments together).
pub const MAX_FRAME_COPIES: usize = 20_000;

/// How an attachment's vertices follow the bones.
#[derive(Clone, Debug, PartialEq)]
pub enum Follow {
    /// One joint node under the slot's bone.
    Rigid,
    /// The bones (indices) as joints, with weights.
    Weighted(Vec<usize>),
    /// One joint node per (clip, frame) that shows it.
    PerFrame(Vec<(usize, usize)>),
}

/// Triangles of one colour and at most one picture.
#[derive(Clone, Debug, Default)]
pub struct Prim {
    /// Positions (the joint's space; `z` 0 but for weighted meshes).
    pub positions: Vec<[f32; 3]>,
    /// Picture coordinates (pictures only).
    pub uvs: Vec<[f32; 2]>,
    /// Joint numbers per vertex.
    pub joints: Vec<[u16; 4]>,
    /// Weights per vertex.
    pub weights: Vec<[f32; 4]>,
    /// Three indices per triangle.
    pub indices: Vec<u32>,
    /// The colour (straight sRGB), before the slot colour.
    pub color: [f64; 4],
    /// The picture's name.
    pub picture: Option<String>,
}

/// One attachment's mesh.
pub struct AttachmentMesh {
    /// The slot.
    pub slot: usize,
    /// The attachment.
    pub att: AttachmentId,
    /// `BONE/SLOT/ATTACHMENT`-style name for the mesh and its nodes.
    pub name: String,
    /// The slot's bone.
    pub bone: usize,
    /// How it follows the bones.
    pub follow: Follow,
    /// Its triangles.
    pub prims: Vec<Prim>,
    /// Why skelpad's draw list left something out (a missing picture).
    pub missing: Option<String>,
}

/// The pairs the skin shows at some frame, in setup draw order.
fn shown_pairs(arm: &Armature, clips: &[Clip]) -> Vec<(usize, AttachmentId)> {
    let mut seen: Vec<(usize, AttachmentId)> = Vec::new();
    for c in clips {
        for (i, s) in c.samples.shown.iter().enumerate() {
            if let Some(att) = s {
                let pair = (i % c.samples.slots.max(1), *att);
                if !seen.contains(&pair) {
                    seen.push(pair);
                }
            }
        }
    }
    let order: Vec<usize> = arm.skeleton.draw_order.iter().map(|s| s.index()).collect();
    let place = |slot: usize| order.iter().position(|&s| s == slot).unwrap_or(usize::MAX);
    seen.sort_by_key(|&(slot, att)| (place(slot), slot, att.index()));
    seen
}

/// Every attachment's mesh; what is left out is said in `warnings`.
pub fn meshes(
    arm: &Armature,
    clips: &[Clip],
    skin: SkinId,
    cache: &mut RenderCache,
    warnings: &mut Vec<String>,
) -> Vec<AttachmentMesh> {
    let sk = &*arm.skeleton;
    let mut copies = 0usize;
    let mut out = Vec::new();
    for (slot, att) in shown_pairs(arm, clips) {
        let Some(a) = sk.attachment(skin, att) else { continue };
        let bone = sk.slots[slot].bone.index();
        let name = format!("{}/{}", sk.bones[bone].name, sk.attachment_full_name(att));
        let mut m = AttachmentMesh {
            slot,
            att,
            name,
            bone,
            follow: Follow::Rigid,
            prims: Vec::new(),
            missing: None,
        };
        let per_frame = match &a.kind {
            AttachmentKind::Mesh(_) => match super::weights::weighted(arm, clips, slot, att) {
                Some((bones, prims)) => {
                    m.follow = Follow::Weighted(bones);
                    m.prims = prims;
                    None
                }
                None => Some(
                    "its vertices are not a linear blend of its bones, or it is hidden or reordered",
                ),
            },
            AttachmentKind::Path { path, .. } if path.bones().iter().any(|b| b.index() != bone) => {
                Some("its points follow other bones")
            }
            k if stroked(k) && !steady_scale(clips, bone) => {
                Some("its stroke keeps its width while its bone's scale changes")
            }
            _ => None,
        };
        if let Some(why) = per_frame {
            let frames: usize = clips.iter().map(|c| c.plan.total).sum();
            copies += frames;
            if copies > MAX_FRAME_COPIES {
                warnings.push(format!(
                    "attachment `{}`: left out ({why}, and drawing it at every frame would make more than {MAX_FRAME_COPIES} copies)",
                    m.name
                ));
                continue;
            }
            warnings.push(format!("attachment `{}`: drawn at every frame ({why})", m.name));
            per_frame_prims(arm, clips, skin, &mut m, cache);
        } else if m.follow == Follow::Rigid {
            rigid_prims(arm, clips, skin, &mut m, cache);
        }
        if m.prims.iter().all(|p| p.indices.is_empty()) {
            let why = m.missing.as_deref().unwrap_or("nothing to draw");
            warnings.push(format!("attachment `{}`: left out ({why})", m.name));
            continue;
        }
        out.push(m);
    }
    out
}

fn stroked(kind: &AttachmentKind) -> bool {
    kind.style().is_some_and(|s| s.stroke_width > 0.0 && s.stroke.a > 0.0)
}

/// Whether the bone's world matrix is, at every frame, a turn of its setup
/// matrix (its stroke, drawn in world units, then keeps its width).
fn steady_scale(clips: &[Clip], bone: usize) -> bool {
    let setup = clips[0].samples.world[bone].linear();
    let m = setup.to_array();
    let (n0, n1) = (m[0].hypot(m[1]), m[2].hypot(m[3]));
    let det = setup.determinant();
    clips.iter().all(|c| {
        (0..c.plan.total).all(|f| {
            let w = c.samples.world[f * c.samples.bones + bone].to_array();
            let near = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
            let dot = w[0] * w[2] + w[1] * w[3];
            near(w[0].hypot(w[1]), n0)
                && near(w[2].hypot(w[3]), n1)
                && dot.abs() <= 1e-9 * (n0 * n1).max(1.0)
                && (w[0] * w[3] - w[1] * w[2]).signum() == det.signum()
        })
    })
}

/// The pose with only `slot` drawn, showing `att` in white.
fn alone(pose: &Pose, slot: usize, att: AttachmentId) -> Pose {
    let mut p = pose.clone();
    p.draw_order = vec![SlotId::from_index(slot)];
    if let Some(s) = p.slots.get_mut(slot) {
        s.attachment = Some(att);
        s.color = Color::WHITE;
    }
    p
}

/// Adds the draw list's items for `slot` showing `att` at `pose`, taken
/// back into the space of the bone (world matrix `w`), skinned to `joint`.
fn add_drawn(
    arm: &Armature,
    pose: &Pose,
    m: &mut AttachmentMesh,
    w: Affine,
    joint: u16,
    cache: &mut RenderCache,
) {
    let Some(inv) = w.inverse() else { return };
    let options = DrawOptions { pixels_per_unit: PIXELS_PER_UNIT, bones: false, contours: false };
    let list = build_draw_list(arm, &alone(pose, m.slot, m.att), &options, cache);
    if let Some(w) = list.warnings.first()
        && m.missing.is_none()
    {
        m.missing = Some(w.message.clone());
    }
    let picture = match arm.skeleton.attachment(pose.skin, m.att).map(|a| &a.kind) {
        Some(AttachmentKind::Sprite { image, .. }) => image.clone(),
        Some(AttachmentKind::Mesh(mesh)) => mesh.image.clone(),
        _ => None,
    };
    for item in &list.items {
        let pic = (item.part == Part::Sprite).then(|| picture.clone()).flatten();
        if item.part == Part::Sprite && pic.is_none() {
            continue;
        }
        let color = item.color.map(f64::from);
        let at = match m.prims.iter().position(|p| p.color == color && p.picture == pic) {
            Some(i) => i,
            None => {
                m.prims.push(Prim { color, picture: pic.clone(), ..Prim::default() });
                m.prims.len() - 1
            }
        };
        let p = &mut m.prims[at];
        let base = p.positions.len() as u32;
        let (v0, v1) = (item.vertices.start as usize, item.vertices.end as usize);
        for v in &list.vertices[v0..v1] {
            let (x, y) = inv.apply(f64::from(v.pos[0]), f64::from(v.pos[1]));
            p.positions.push([x as f32, y as f32, 0.0]);
            if pic.is_some() {
                p.uvs.push(v.uv);
            }
            p.joints.push([joint, 0, 0, 0]);
            p.weights.push([1.0, 0.0, 0.0, 0.0]);
        }
        let idx = &list.indices[item.indices.start as usize..item.indices.end as usize];
        p.indices.extend(idx.iter().map(|&i| i - item.vertices.start + base));
    }
}

/// Draws a rigid attachment once, at the setup pose, or where its bone
/// can be inverted first (a bone that grows from a scale of 0).
fn rigid_prims(
    arm: &Armature,
    clips: &[Clip],
    skin: SkinId,
    m: &mut AttachmentMesh,
    cache: &mut RenderCache,
) {
    for c in clips {
        let anim = c.id.and_then(|i| arm.animation(i));
        let Some(f) = (0..c.plan.total).find(|&f| {
            let w = c.samples.world[f * c.samples.bones + m.bone];
            w.inverse().is_some_and(Affine::is_finite) && w.determinant().abs() > 1e-12
        }) else {
            continue;
        };
        let mut pose = Pose::default();
        for k in 0..=f {
            evaluate_into(&mut pose, arm, anim, skin, k as f64 / c.plan.fps);
        }
        let w = pose.bones.get(m.bone).map_or(Affine::IDENTITY, |b| b.world);
        add_drawn(arm, &pose, m, w, 0, cache);
        return;
    }
}

/// Draws the attachment at every frame that shows it, each a joint.
fn per_frame_prims(
    arm: &Armature,
    clips: &[Clip],
    skin: SkinId,
    m: &mut AttachmentMesh,
    cache: &mut RenderCache,
) {
    let mut joints = Vec::new();
    for (ci, c) in clips.iter().enumerate() {
        let anim = c.id.and_then(|i| arm.animation(i));
        // A fresh pose per clip, every frame in order, as the samples were made.
        let mut pose = Pose::default();
        for f in 0..c.plan.total {
            evaluate_into(&mut pose, arm, anim, skin, f as f64 / c.plan.fps);
            if c.samples.shown[f * c.samples.slots + m.slot] != Some(m.att) {
                continue;
            }
            let joint = u16::try_from(joints.len()).unwrap_or(u16::MAX);
            joints.push((ci, f));
            let w = c.samples.world[f * c.samples.bones + m.bone];
            add_drawn(arm, &pose, m, w, joint, cache);
        }
    }
    m.follow = Follow::PerFrame(joints);
}

/// The pictures the meshes show, each once, in the order first shown.
pub fn pictures(meshes: &[AttachmentMesh]) -> Vec<String> {
    let mut seen: FxHashMap<String, ()> = FxHashMap::default();
    let mut out = Vec::new();
    for p in meshes.iter().flat_map(|m| &m.prims) {
        if let Some(name) = &p.picture
            && seen.insert(name.clone(), ()).is_none()
        {
            out.push(name.clone());
        }
    }
    out
}
