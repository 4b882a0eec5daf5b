//! Armature → SkelForm armature: bones, helper bones for pictures, meshes,
//! styles and keyframes. What SkelForm's runtimes disagree on, and how the
//! files avoid it, is in `docs/skf.md`.
//!
//! **Bones.** Every skelpad bone is a SkelForm bone with its full dotted
//! name, in the same order (parents first). A bone that mirrors is written
//! as its unmirrored frame (y axis turned around, x axis kept), so no parent
//! ever faces left and the runtimes' rules for children under a mirrored
//! parent never come into play; the pictures' helpers carry the mirror.
//! Each picture of a slot gets a helper bone under the slot's bone — `@SLOT`
//! when the slot has one picture, `@SLOT[ATT]` each when it has several —
//! whose local transform is the attachment's transform times the texel size
//! (1/scale for shapes, 1 for sprites); its visual names the attachment,
//! which styles map to pictures. A path with points on other bones gets its
//! own helper `@SLOT[ATT]` with a mesh whose vertices are bound to frames
//! `@SLOT[ATT]>BONE` that follow the bones (and to small static offset
//! bones `@SLOT[ATT]~N` where a vertex blends several bones). Helpers come
//! after all real bones, so parents always precede children.
//!
//! **Switches.** A helper whose attachment is not shown has scale 0 (a
//! mesh's frames also move onto the slot's bone, collapsing the mesh), keyed
//! with steps: bone transforms are the only keys every runtime plays.
//!
//! **Keys.** For each animation, skelpad's pose is evaluated at every frame
//! (`frame / fps`) and turned into the world transform each exported bone
//! must have. The local values that give it under the parent (see [`sim`])
//! are the truth every key is checked against:
//! - between two skelpad keys at whole frames the segment is written as one
//!   SkelForm segment (linear, step, bezier, or an easing fitted as bezier
//!   handles) when SkelForm's curve lands on the truth at every frame in it;
//! - anything else (flips, `no-rot`, `no-scale`, keys between frames, curves
//!   a bezier cannot follow) is baked: a key per frame, merged where a
//!   straight line between kept keys still lands on every frame.
//!
//! Every keyed element gets a key at frame 0 (runtimes playing on without a
//! reset keep the previous frame's value until the first key).
//!
//! After a bone's keys are chosen its world transform is simulated under its
//! parent's *simulated* transform; if errors have built up past the
//! tolerance, the bone is re-keyed against the simulated parent, so errors
//! never accumulate down a chain.

#![allow(missing_docs, reason = "issue 9: public items here still need doc comments")]

use std::collections::HashMap;

use super::fit::Fitter;
use super::mesh::{self, MeshGeometry};
use super::sim::{self, Element, Handle, PlannedKey, Trs};
use super::*;
use crate::model::*;
use crate::runtime::{Pose, evaluate_into};

/// What to export.
#[derive(Clone, Debug)]
pub struct ExportOptions {
    /// Skins to write as styles, in order (the first is the one whose
    /// attachment transforms the helper bones carry). Empty: every skin,
    /// the default skin first.
    pub skins: Vec<String>,
    /// Texture pixels per unit for rasterized shapes.
    pub pixels_per_unit: f64,
}

impl Default for ExportOptions {
    fn default() -> Self {
        ExportOptions { skins: Vec::new(), pixels_per_unit: 1.0 }
    }
}

/// Something that could not be carried over exactly.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Warning {
    /// What it is about: `bone \`arm\``, `slot \`arm.hand\``, `animation \`walk\`` …
    pub subject: String,
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.subject, self.message)
    }
}

/// Why an export failed.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportError {
    /// A `--skin` name that is not a skin of the armature.
    UnknownSkin { name: String, known: Vec<String> },
    /// The scale is not a positive finite number.
    BadScale(f64),
    /// A picture could not be made (a missing sprite image, …).
    Picture { texture: String, reason: String },
    /// A texture is larger than an atlas page may be.
    AtlasTooLarge { texture: String, width: u32, height: u32, max: u32 },
    /// An animation too long to bake.
    TooLong { animation: String, frames: u64 },
    /// Encoding a picture or the zip failed.
    Encode(String),
    /// Writing the file failed.
    Io(crate::io::IoError),
    /// The progress callback asked to stop; nothing was written.
    Cancelled,
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::UnknownSkin { name, known } => {
                write!(f, "there is no skin `{name}`; skins: {}", known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", "))
            }
            ExportError::BadScale(k) => write!(f, "the scale must be a positive number of pixels per unit, not {k}"),
            ExportError::Picture { texture, reason } => write!(f, "cannot make the picture of `{texture}`: {reason}"),
            ExportError::AtlasTooLarge { texture, width, height, max } => write!(
                f,
                "atlas too large: the texture of `{texture}` is {width}×{height} pixels, more than the {max}×{max} an atlas page may hold; use a smaller --scale"
            ),
            ExportError::TooLong { animation, frames } => {
                write!(f, "animation `{animation}` is {frames} frames long, more than the {MAX_FRAMES} that can be exported")
            }
            ExportError::Encode(reason) => f.write_str(reason),
            ExportError::Io(e) => e.fmt(f),
            ExportError::Cancelled => f.write_str("the export was cancelled; nothing was written"),
        }
    }
}

impl std::error::Error for ExportError {}

/// The longest animation (in frames) the exporter bakes.
pub const MAX_FRAMES: u64 = 100_000;

/// An RGBA picture with straight (not premultiplied) alpha, top row first.
#[derive(Clone, Debug, PartialEq)]
pub struct Raster {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// Where the attachment's origin is, in pixels from the top-left corner
    /// (x right, y down).
    pub pivot: (f64, f64),
}

/// Where pictures come from: the renderer of `skelpad render`.
pub trait Pictures {
    /// Rasterizes attachment `attachment` of `slot` as skin `skin` defines
    /// it, alone, in its own attachment space (its transform, bone and slot
    /// color left out), with path points on other bones placed as in the
    /// setup pose, at `pixels_per_unit`. `Ok(None)` when it draws nothing.
    fn attachment(&mut self, skin: SkinId, slot: SlotId, attachment: AttachmentId, pixels_per_unit: f64) -> Result<Option<Raster>, String>;
    /// The pixels of a sprite image, as named in the script, at their own
    /// size (one pixel per unit), with the pivot at the image's center.
    fn sprite(&mut self, image: &str) -> Result<Raster, String>;
    /// The setup pose with `skin`, fitted into a `size`×`size` picture.
    fn thumbnail(&mut self, armature: &Armature, skin: SkinId, size: u32) -> Result<Raster, String>;
}

/// A picture to make for a style entry.
#[derive(Clone, Debug, PartialEq)]
pub enum PictureJob {
    /// A shape attachment as `skin` defines it, rasterized at the export
    /// scale. Centered on its origin, unless it is the picture of the mesh
    /// visual `mesh` (whose UVs follow its pivot).
    Attachment { skin: SkinId, slot: SlotId, attachment: AttachmentId, mesh: Option<usize> },
    /// A sprite image copied at its own pixel size, centered on its origin.
    Sprite(String),
}

/// What a style's texture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureSource {
    Job(usize),
    /// A 1×1 transparent texture: the skin hides this attachment.
    Empty,
}

/// A mesh visual's vertices at setup in its attachment's space, for UVs.
#[derive(Clone, Debug)]
pub struct MeshUv {
    pub visual: usize,
    pub points: Vec<(f64, f64)>,
}

/// The armature side of an export, before any picture is made.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Complete except the styles' texture rectangles, the atlases and the
    /// meshes' UVs.
    pub armature: SkfArmature,
    pub jobs: Vec<PictureJob>,
    /// Per style: (texture name, source), in the order written.
    pub style_textures: Vec<Vec<(String, TextureSource)>>,
    pub mesh_uvs: Vec<MeshUv>,
    pub warnings: Vec<Warning>,
    /// The skins written, in style order.
    pub skins: Vec<SkinId>,
}

// ---------------------------------------------------------------------------
// Bone plan

#[derive(Clone, Debug)]
enum Kind {
    Real(BoneId),
    /// The helper of one plain picture of a slot: scale 0 while the slot
    /// shows something else.
    Plain {
        slot: SlotId,
        att: AttachmentId,
    },
    /// The helper owning a mesh.
    Mesh {
        slot: SlotId,
        att: AttachmentId,
    },
    /// A frame that moves a mesh point bound to `bone` the way skelpad moves
    /// it: slot · A · slot⁻¹ · bone (A: the attachment transform).
    Conjugate {
        slot: SlotId,
        att: AttachmentId,
        bone: BoneId,
    },
    /// A static child of `of` offset by (dx, dy).
    Offset {
        of: usize,
        dx: f64,
        dy: f64,
    },
}

#[derive(Clone, Debug)]
struct PlannedBone {
    name: String,
    parent: Option<usize>,
    kind: Kind,
}

/// Per attachment: which exported skin's version decides its helper
/// transform and whether it is a mesh.
#[derive(Clone, Debug)]
struct Owner {
    skin: SkinId,
    mesh: bool,
}

struct Ctx<'a> {
    arm: &'a Armature,
    sk: &'a Skeleton,
    skins: Vec<SkinId>,
    owners: Vec<Option<Owner>>,
    texel: f64,
    bones: Vec<PlannedBone>,
    /// Export index of each real bone.
    real: Vec<usize>,
    /// Export index of a mesh attachment's helper.
    mesh_helper: HashMap<AttachmentId, usize>,
    warnings: Vec<Warning>,
    /// Per skelpad bone: a live IK family points it, so its frame keeps a
    /// positive x scale (see `super::ik`).
    pointed: Vec<bool>,
}

fn draws(a: &Attachment) -> bool {
    match &a.kind {
        AttachmentKind::None => false,
        AttachmentKind::Sprite { image, .. } => image.is_some(),
        _ => true,
    }
}

/// A path is a mesh when a point is bound to a bone other than its slot's.
fn is_mesh(a: &Attachment, slot_bone: BoneId) -> bool {
    matches!(&a.kind, AttachmentKind::Path { path, .. } if path.points().iter().any(|p| p.bone != slot_bone))
}

fn is_identity(t: &AttachmentTransform) -> bool {
    *t == AttachmentTransform::default()
}

impl<'a> Ctx<'a> {
    fn att_name(&self, a: AttachmentId) -> String {
        self.sk.attachment_full_name(a)
    }

    fn owner_att(&self, a: AttachmentId) -> Option<&'a Attachment> {
        let o = self.owners[a.index()].as_ref()?;
        self.sk.attachment(o.skin, a)
    }

    /// Texel size of an attachment's texture (world units per pixel).
    fn texel_of(&self, a: &Attachment) -> f64 {
        if matches!(a.kind, AttachmentKind::Sprite { .. }) { 1.0 } else { self.texel }
    }

    fn push(&mut self, name: String, parent: Option<usize>, kind: Kind) -> usize {
        self.bones.push(PlannedBone { name, parent, kind });
        self.bones.len() - 1
    }
}

/// Skin ids from names (`default` is skin 0).
fn resolve_skins(sk: &Skeleton, names: &[String]) -> Result<Vec<SkinId>, ExportError> {
    if names.is_empty() {
        return Ok((0..sk.skins.len().max(1)).map(SkinId::from_index).collect());
    }
    let mut out = Vec::new();
    for n in names {
        let id = sk.skin_by_name(n).or_else(|| (n == "default").then_some(SkinId(0)));
        match id {
            Some(id) if !out.contains(&id) => out.push(id),
            Some(_) => {}
            None => {
                return Err(ExportError::UnknownSkin { name: n.clone(), known: sk.skins.iter().map(|s| s.name.clone()).collect() });
            }
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Targets: the SkelForm world transform each exported bone must have.

/// Per frame state and results of target computation.
struct Targets {
    /// Current SkelForm-model world of every exported bone.
    trs: Vec<Trs>,
    /// Sheared targets seen (export index), reported once.
    sheared: Vec<bool>,
    /// Place every helper as if its attachment were shown (for building
    /// meshes).
    show_all: bool,
}

impl Ctx<'_> {
    fn new_targets(&self) -> Targets {
        Targets { trs: vec![Trs::default(); self.bones.len()], sheared: vec![false; self.bones.len()], show_all: false }
    }

    /// The attachment a helper shows (or, for mesh frames, moves), if any.
    fn helper_attachment(&self, j: usize) -> Option<(SlotId, AttachmentId)> {
        match self.bones[j].kind {
            Kind::Plain { slot, att } | Kind::Mesh { slot, att } | Kind::Conjugate { slot, att, .. } => Some((slot, att)),
            Kind::Real(_) | Kind::Offset { .. } => None,
        }
    }

    /// Fills `t.trs` from a skelpad pose. Real bones get the decomposition
    /// that follows skelpad's own accumulation (F · R(acc) · S(acc)), so
    /// rotations and scale signs stay continuous across frames; helpers get
    /// their world under the real bones' skelpad worlds. Then a mirrored real
    /// bone is turned into its unmirrored frame (y axis turned around, x axis
    /// kept): children's rotations are read differently under a mirrored
    /// parent by SkelForm's runtimes, so no parent may face left. The mirror
    /// stays in the helpers, which carry the pictures and meshes. A helper
    /// whose attachment is not shown gets scale 0 (a mesh's frames also move
    /// onto the slot's bone, so the whole mesh collapses to a point).
    fn targets(&self, pose: &Pose, t: &mut Targets) {
        // Accumulated rotation, scale and flip signs per real bone.
        let nb = self.sk.bones.len();
        let mut acc: Vec<(f64, f64, f64, f64, f64)> = Vec::with_capacity(nb);
        for (i, bone) in self.sk.bones.iter().enumerate() {
            let l = pose.bones[i].local;
            let (mut rot, mut sx, mut sy) = (l.rotation_rad, l.scale_x, l.scale_y);
            let mut fx = if l.flip_x { -1.0 } else { 1.0 };
            let mut fy = if l.flip_y { -1.0 } else { 1.0 };
            if let Some(p) = bone.parent.filter(|p| p.index() < i) {
                let pa = acc[p.index()];
                if bone.inherit_rotation {
                    rot += pa.0;
                }
                if bone.inherit_scale {
                    sx *= pa.1;
                    sy *= pa.2;
                }
                fx *= pa.3;
                fy *= pa.4;
            }
            acc.push((rot, sx, sy, fx, fy));
            let w = pose.bones[i].world;
            // F·R(θ)·S(s): a mirror on one axis turns the rotation around
            // and moves the sign into the scale; on both it is a half turn.
            let mut trs = match (fx < 0.0, fy < 0.0) {
                // Spriter's world has no shear but its own accumulation (and
                // parents that change): split the matrix, staying near the
                // previous frame's rotation.
                _ if self.sk.composition == crate::model::Composition::Spriter => {
                    nearest_branch(Trs::from_matrix(w).0, t.trs[self.real[i]].rot)
                }
                (false, false) => Trs { x: w.e, y: w.f, rot, sx, sy },
                (true, false) => Trs { x: w.e, y: w.f, rot: -rot, sx: -sx, sy },
                (false, true) => Trs { x: w.e, y: w.f, rot: -rot, sx, sy: -sy },
                (true, true) => Trs { x: w.e, y: w.f, rot: rot + std::f64::consts::PI, sx, sy },
            };
            // Under a collapsed scale skelpad's world is not F·R·S of the
            // accumulated values (it projects onto a line): take the matrix
            // itself, its x axis exact (a projection's skew is dropped; the
            // bone is flat either way, and its children are placed exactly).
            let got = trs.matrix();
            let tol = 1e-9 * (w.a.abs() + w.b.abs() + w.c.abs() + w.d.abs()).max(1.0);
            if (0..4).any(|k| (w.to_array()[k] - got.to_array()[k]).abs() > tol) {
                trs = nearest_branch(Trs::from_matrix(w).0, trs.rot);
            }
            if self.pointed.get(i).copied().unwrap_or(false) && trs.sx < 0.0 {
                trs = Trs { rot: trs.rot + std::f64::consts::PI, sx: -trs.sx, sy: -trs.sy, ..trs };
            }
            t.trs[self.real[i]] = trs;
        }
        for j in 0..self.bones.len() {
            let mut trs = match &self.bones[j].kind {
                Kind::Real(_) => continue,
                Kind::Plain { slot, att } => {
                    let slot_bone = self.real[self.sk.slot(*slot).bone.index()];
                    let (local, matrix_local) = match self.owner_att(*att) {
                        Some(a) => {
                            let k = self.texel_of(a);
                            let tr = a.transform;
                            (
                                Trs { x: tr.x, y: tr.y, rot: tr.rotation_rad, sx: tr.scale_x * k, sy: tr.scale_y * k },
                                tr.matrix() * Affine::scale(k, k),
                            )
                        }
                        None => (Trs::default(), Affine::IDENTITY),
                    };
                    let parent = t.trs[slot_bone];
                    let mut trs = sim::compose(&parent, &local);
                    let shown = pose.slots[slot.index()].attachment == Some(*att);
                    if shown && matrix_local.b.abs() + matrix_local.c.abs() > 0.0 {
                        let want = pose.bones[self.sk.slot(*slot).bone.index()].world * matrix_local;
                        let got = trs.matrix();
                        let tol = 1e-6 * (want.a.abs() + want.b.abs() + want.c.abs() + want.d.abs()).max(1e-9);
                        if (0..4).any(|k| (want.to_array()[k] - got.to_array()[k]).abs() > tol) {
                            // A skewed picture: keep its x axis (direction and
                            // length) and its area exact, drop the skew.
                            t.sheared[j] = true;
                            trs = nearest_branch(Trs::from_matrix(want).0, trs.rot);
                        }
                    }
                    trs
                }
                Kind::Mesh { slot, att } => {
                    let parent = t.trs[self.real[self.sk.slot(*slot).bone.index()]];
                    let tr = self.owner_att(*att).map(|a| a.transform).unwrap_or_default();
                    sim::compose(&parent, &Trs { x: tr.x, y: tr.y, rot: tr.rotation_rad, sx: tr.scale_x, sy: tr.scale_y })
                }
                Kind::Conjugate { slot, att, bone } => {
                    let s = pose.bones[self.sk.slot(*slot).bone.index()].world;
                    let a = self.owner_att(*att).map(|a| a.transform.matrix()).unwrap_or_default();
                    let b = pose.bones[bone.index()].world;
                    let m = s * a * s.inverse().unwrap_or(Affine::IDENTITY) * b;
                    let (trs, shear) = Trs::from_matrix(m);
                    if shear.abs() > 1e-6 {
                        t.sheared[j] = true;
                    }
                    nearest_branch(trs, t.trs[j].rot)
                }
                Kind::Offset { of, dx, dy } => sim::compose(&t.trs[*of], &Trs { x: *dx, y: *dy, ..Trs::default() }),
            };
            if let Some((slot, att)) = self.helper_attachment(j)
                && !t.show_all
                && pose.slots[slot.index()].attachment != Some(att)
            {
                trs.sx = 0.0;
                trs.sy = 0.0;
                if !matches!(self.bones[j].kind, Kind::Plain { .. }) {
                    let w = pose.bones[self.sk.slot(slot).bone.index()].world;
                    (trs.x, trs.y) = (w.e, w.f);
                }
            }
            t.trs[j] = trs;
        }
        for &j in &self.real {
            let trs = &mut t.trs[j];
            if sim::facing_left(trs.sx, trs.sy) {
                trs.sy = -trs.sy;
            }
        }
    }
}

/// Of the two ways to write the same matrix, (rot, s) and (rot + π, −s), the
/// one whose rotation is nearest `rot`, so values stay continuous.
fn nearest_branch(trs: Trs, rot: f64) -> Trs {
    let alt = Trs { rot: trs.rot + std::f64::consts::PI, sx: -trs.sx, sy: -trs.sy, ..trs };
    if sim::wrap_angle(alt.rot - rot).abs() < sim::wrap_angle(trs.rot - rot).abs() { alt } else { trs }
}

// ---------------------------------------------------------------------------
// Planning

/// Plans an export: everything but the pictures.
pub fn plan(arm: &Armature, opts: &ExportOptions) -> Result<Plan, ExportError> {
    plan_with_progress(arm, opts, &mut |_, _| true)
}

/// [`plan`], reporting (animations done, animations) as it goes; the
/// callback returns `false` to stop ([`ExportError::Cancelled`]).
pub fn plan_with_progress(
    arm: &Armature,
    opts: &ExportOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Plan, ExportError> {
    let k = opts.pixels_per_unit;
    if !(k.is_finite() && k > 0.0) {
        return Err(ExportError::BadScale(k));
    }
    // SkelForm keys no z-index: animated draw orders become slot copies.
    let (baked, order_warning) = match crate::formats::draw_order::bake(arm) {
        Ok(b) => (b, None),
        Err(why) => (None, Some(Warning { subject: "draw order".into(), message: why })),
    };
    let arm = baked.as_ref().unwrap_or(arm);
    // IK families that play alike in SkelForm's runtimes are written as
    // families, and the keys carry the pose before them; the others are
    // baked into the keys.
    let mut ik_warnings = Vec::new();
    let live = super::ik::live_families(arm, &mut ik_warnings);
    let pointed = super::ik::pointed_bones(&arm.skeleton, &live);
    let with_ik = arm;
    let before_ik;
    let arm = if live.iter().any(|l| *l) {
        let mut sk = (*arm.skeleton).clone();
        sk.ik = sk.ik.iter().zip(&live).filter(|(_, l)| !**l).map(|(f, _)| f.clone()).collect();
        before_ik = Armature { skeleton: std::sync::Arc::new(sk), animations: arm.animations.clone() };
        &before_ik
    } else {
        arm
    };
    let sk = &*arm.skeleton;
    let skins = resolve_skins(sk, &opts.skins)?;
    let mut ctx = Ctx {
        arm,
        sk,
        skins: skins.clone(),
        owners: Vec::new(),
        texel: 1.0 / k,
        bones: Vec::new(),
        real: Vec::new(),
        mesh_helper: HashMap::new(),
        warnings: ik_warnings,
        pointed,
    };
    ctx.warnings.extend(order_warning);
    choose_owners(&mut ctx);
    plan_bones(&mut ctx);
    let setup_pose = Pose::setup(sk);
    // Meshes add bones (conjugate frames, offsets): build them before the
    // bones are written.
    let mut meshes: HashMap<usize, MeshData> = HashMap::new();
    let mesh_helpers: Vec<(usize, SlotId, AttachmentId)> = ctx
        .bones
        .iter()
        .enumerate()
        .filter_map(|(j, b)| match b.kind {
            Kind::Mesh { slot, att } => Some((j, slot, att)),
            _ => None,
        })
        .collect();
    for (j, slot, att) in mesh_helpers {
        if let Some(m) = build_mesh(&mut ctx, j, slot, att, &setup_pose) {
            meshes.insert(j, m);
        }
    }
    let mut setup_t = ctx.new_targets();
    ctx.targets(&setup_pose, &mut setup_t);
    let mut out = SkfArmature { version: VERSION.into(), ..SkfArmature::default() };
    write_bones(&ctx, &setup_t, &mut out);
    super::ik::write_families(&with_ik.skeleton, &live, &ctx.real, &mut out);
    let mut jobs = Vec::new();
    let mut mesh_uvs = Vec::new();
    let mesh_jobs = write_visuals(&ctx, meshes, &mut out, &mut jobs, &mut mesh_uvs);
    let style_textures = write_styles(&mut ctx, &mut out, &mut jobs, mesh_jobs);
    let total = arm.animations.len();
    let mut fitter = Fitter::default();
    for (i, anim) in arm.animations.iter().enumerate() {
        if !progress(i, total) {
            return Err(ExportError::Cancelled);
        }
        if let Some(a) = export_animation(&mut ctx, anim, i, &out, &mut fitter)? {
            out.animations.push(a);
        }
    }
    if !progress(total, total) {
        return Err(ExportError::Cancelled);
    }
    for (j, b) in ctx.bones.iter().enumerate() {
        if setup_t.sheared[j] {
            let subject = match &b.kind {
                Kind::Plain { slot, .. } | Kind::Mesh { slot, .. } | Kind::Conjugate { slot, .. } => {
                    format!("slot `{}`", sk.slot(*slot).name)
                }
                _ => format!("bone `{}`", b.name),
            };
            ctx.warnings.push(Warning {
                subject,
                message: "a rotated attachment on a bone scaled unevenly is skewed in skelpad; SkelForm cannot skew, so its picture is drawn unskewed".into(),
            });
        }
    }
    ctx.warnings.sort();
    ctx.warnings.dedup();
    Ok(Plan { armature: out, jobs, style_textures, mesh_uvs, warnings: ctx.warnings, skins })
}

fn choose_owners(ctx: &mut Ctx) {
    let sk = ctx.sk;
    ctx.owners = (0..sk.attachments.len())
        .map(|i| {
            let id = AttachmentId::from_index(i);
            let slot_bone = sk.slot(sk.attachments[i].slot).bone;
            ctx.skins.iter().find_map(|&s| {
                let a = sk.attachment(s, id)?;
                draws(a).then(|| Owner { skin: s, mesh: is_mesh(a, slot_bone) })
            })
        })
        .collect();
}

fn plan_bones(ctx: &mut Ctx) {
    let sk = ctx.sk;
    for (i, b) in sk.bones.iter().enumerate() {
        let parent = b.parent.filter(|p| p.index() < i).map(|p| ctx.real[p.index()]);
        let idx = ctx.push(b.name.clone(), parent, Kind::Real(BoneId::from_index(i)));
        ctx.real.push(idx);
    }
    for (si, slot) in sk.slots.iter().enumerate() {
        let slot_id = SlotId::from_index(si);
        let bone = ctx.real[slot.bone.index()];
        let atts: Vec<AttachmentId> = (0..sk.attachments.len())
            .map(AttachmentId::from_index)
            .filter(|a| sk.attachments[a.index()].slot == slot_id)
            .filter(|a| ctx.owners[a.index()].as_ref().is_some_and(|o| !o.mesh))
            .collect();
        // One helper per picture: `@SLOT` when the slot has one, else
        // `@SLOT[ATTACHMENT]` each.
        for &att in &atts {
            let name =
                if atts.len() == 1 { format!("@{}", slot.name) } else { format!("@{}[{}]", slot.name, sk.attachments[att.index()].name) };
            ctx.push(name, Some(bone), Kind::Plain { slot: slot_id, att });
        }
        for a in 0..sk.attachments.len() {
            let att = AttachmentId::from_index(a);
            if sk.attachments[a].slot != slot_id || !ctx.owners[a].as_ref().is_some_and(|o| o.mesh) {
                continue;
            }
            let name = format!("@{}[{}]", slot.name, sk.attachments[a].name);
            let idx = ctx.push(name, Some(bone), Kind::Mesh { slot: slot_id, att });
            ctx.mesh_helper.insert(att, idx);
        }
    }
}

fn vec2(x: f64, y: f64) -> Vec2 {
    // Values are stored as runtimes read them (f32), so what the exporter
    // checks is what a runtime sees.
    Vec2::new(x as f32, y as f32)
}

fn f32r(v: f64) -> f64 {
    v as f32 as f64
}

fn write_bones(ctx: &Ctx, setup: &Targets, out: &mut SkfArmature) {
    for (j, b) in ctx.bones.iter().enumerate() {
        let local = match b.parent {
            Some(p) => sim::local_for(&setup.trs[p], &setup.trs[j]),
            None => setup.trs[j],
        };
        let pos = vec2(local.x, local.y);
        let scale = vec2(local.sx, local.sy);
        let rot = local.rot as f32;
        out.bones.push(SkfBone {
            id: j as u32,
            name: b.name.clone(),
            pos,
            rot,
            scale,
            parent_id: b.parent.map_or(-1, |p| p as i32),
            init_pos: pos,
            init_rot: rot,
            init_scale: scale,
            ..SkfBone::default()
        });
    }
}

fn color_tint(c: Color) -> Tint {
    Tint { r: c.r as f32, g: c.g as f32, b: c.b as f32, a: c.a as f32 }
}

/// The z-index of each slot: its place in the draw order.
fn zindex_of(sk: &Skeleton, slot: SlotId) -> i32 {
    sk.draw_order.iter().position(|&s| s == slot).unwrap_or(sk.draw_order.len()) as i32
}

/// A mesh planned for a helper bone.
struct MeshData {
    att: AttachmentId,
    vertices: Vec<SkfVertex>,
    indices: Vec<u32>,
    binds: Vec<SkfBind>,
    /// Vertices at setup in the attachment's space (for UVs).
    uv_points: Vec<(f64, f64)>,
    /// The skin whose version of the path the mesh is made of.
    skin: SkinId,
    slot: SlotId,
    bends: bool,
}

/// Writes the visuals; returns the picture job of each mesh attachment.
fn write_visuals(
    ctx: &Ctx,
    mut meshes: HashMap<usize, MeshData>,
    out: &mut SkfArmature,
    jobs: &mut Vec<PictureJob>,
    mesh_uvs: &mut Vec<MeshUv>,
) -> HashMap<AttachmentId, usize> {
    let sk = ctx.sk;
    let mut mesh_jobs = HashMap::new();
    for j in 0..ctx.bones.len() {
        // A helper always names its own picture; it is hidden with scale 0.
        let (slot, tex) = match &ctx.bones[j].kind {
            Kind::Plain { slot, att } | Kind::Mesh { slot, att } => (*slot, ctx.att_name(*att)),
            _ => continue,
        };
        let tint = color_tint(sk.slot(slot).color);
        let z = zindex_of(sk, slot);
        let mut vis =
            SkfVisual { tex: tex.clone(), zindex: z, tint, init_tex: tex.clone(), init_tint: tint, init_zindex: z, ..SkfVisual::default() };
        let v = out.visuals.len();
        if let Some(m) = meshes.remove(&j) {
            if m.bends {
                vis.vertices = m.vertices;
                vis.indices = m.indices;
                vis.binds = m.binds;
                mesh_uvs.push(MeshUv { visual: v, points: m.uv_points });
            }
            jobs.push(PictureJob::Attachment { skin: m.skin, slot: m.slot, attachment: m.att, mesh: m.bends.then_some(v) });
            mesh_jobs.insert(m.att, jobs.len() - 1);
        }
        out.visuals.push(vis);
        let bone = &mut out.bones[j];
        bone.visuals_id = v as i32;
        bone.tex = tex;
        bone.zindex = z;
        bone.tint = tint;
    }
    mesh_jobs
}

/// Plans the mesh of a path attachment owned by helper `j`, adding the
/// bones its vertices are bound to.
fn build_mesh(ctx: &mut Ctx, j: usize, slot: SlotId, att: AttachmentId, setup_pose: &Pose) -> Option<MeshData> {
    let sk = ctx.sk;
    let a = ctx.owner_att(att)?;
    let AttachmentKind::Path { path, style } = &a.kind else { return None };
    let slot_bone = sk.slot(slot).bone;
    let identity = is_identity(&a.transform);
    // The frame each bone's points move in (see `Kind::Conjugate`).
    let mut frame_of: HashMap<BoneId, usize> = HashMap::new();
    frame_of.insert(slot_bone, j);
    for b in path.bones() {
        if b == slot_bone {
            continue;
        }
        // Always a frame of its own, never the real bone: a real bone's
        // exported frame drops its mirror (see `Ctx::targets`), and the
        // frame collapses while the mesh is not shown.
        let name = format!("{}>{}", ctx.bones[j].name, sk.bone(b).name);
        let idx = ctx.push(name, Some(ctx.real[b.index()]), Kind::Conjugate { slot, att, bone: b });
        frame_of.insert(b, idx);
    }
    let mut setup = Targets { show_all: true, ..ctx.new_targets() };
    ctx.targets(setup_pose, &mut setup);
    // Setup matrices of the frames, in skelpad's terms.
    let slot_world = setup_pose.bones[slot_bone.index()].world;
    let a_m = a.transform.matrix();
    let frame_matrix = |b: BoneId| -> Affine {
        let bw = setup_pose.bones[b.index()].world;
        if b == slot_bone {
            slot_world * a_m
        } else if identity {
            bw
        } else {
            slot_world * a_m * slot_world.inverse().unwrap_or_default() * bw
        }
    };
    let skin = ctx.owners[att.index()].as_ref().map_or(SkinId(0), |o| o.skin);
    let k = 1.0 / ctx.texel;
    let half = style.stroke_width / 2.0 * if style.join == LineJoin::Miter { style.miter_limit.min(4.0) } else { 1.0 } + 2.0 / k;
    let geo: MeshGeometry = match mesh::build(path, &frame_matrix, 0.25 / k, half) {
        Ok(g) => g,
        Err(reason) => {
            ctx.warnings.push(Warning {
                subject: format!("attachment `{}`", ctx.att_name(att)),
                message: format!("cannot be made a mesh ({reason}); it is drawn as a picture that does not bend"),
            });
            return Some(MeshData { att, vertices: vec![], indices: vec![], binds: vec![], uv_points: vec![], skin, slot, bends: false });
        }
    };
    // Vertices: bind each to the frames of its blend, through offset bones
    // where a vertex blends several frames.
    let mut binds: Vec<(i32, Vec<(u32, f64)>)> = Vec::new();
    let mut offset_bones: HashMap<(usize, u64, u64), usize> = HashMap::new();
    let mut vertices = Vec::with_capacity(geo.vertices.len());
    let att_from_world = (slot_world * a_m).inverse().unwrap_or_default();
    let mut uv_points = Vec::with_capacity(geo.vertices.len());
    for (vi, ((blend, setup_world), band)) in geo.vertices.iter().zip(&geo.band_offsets).enumerate() {
        let v = (blend.parts[0].2, blend.parts[0].3);
        // The band offset, solved in the blended frame so it is right at setup.
        let mut lin = [0.0; 4];
        for &(b, w, _, _) in &blend.parts {
            let m = setup.trs[frame_of[&b]].matrix();
            for (l, x) in lin.iter_mut().zip([m.a, m.b, m.c, m.d]) {
                *l += w * x;
            }
        }
        let m = Affine { a: lin[0], b: lin[1], c: lin[2], d: lin[3], e: 0.0, f: 0.0 };
        let delta = m.inverse().map(|inv| inv.apply_vector(band.0, band.1)).unwrap_or((0.0, 0.0));
        let init = vec2(v.0 + delta.0, v.1 + delta.1);
        vertices.push(SkfVertex { id: vi as u32, pos: init, uv: Vec2::default(), init_pos: init });
        uv_points.push(att_from_world.apply(setup_world.0, setup_world.1));
        for &(b, w, px, py) in &blend.parts {
            let frame = frame_of[&b];
            let (dx, dy) = (px - v.0, py - v.1);
            let bone = if dx.abs() < 1e-9 && dy.abs() < 1e-9 {
                frame
            } else {
                let key = (frame, dx.to_bits(), dy.to_bits());
                match offset_bones.get(&key) {
                    Some(&i) => i,
                    None => {
                        let name = format!("{}~{}", ctx.bones[j].name, offset_bones.len());
                        let i = ctx.push(name, Some(frame), Kind::Offset { of: frame, dx, dy });
                        offset_bones.insert(key, i);
                        i
                    }
                }
            };
            match binds.iter_mut().find(|(id, _)| *id == bone as i32) {
                Some((_, verts)) => verts.push((vi as u32, w)),
                None => binds.push((bone as i32, vec![(vi as u32, w)])),
            }
        }
    }
    // SkelForm blends a vertex's binds one after another in array order
    // (pos += (bone(v) − pos)·w), so the planned weights β become
    // w_k = β_k / Σ_{i≤k} β_i in that order: the first is 1, which also
    // discards the mesh bone's own placement.
    let mut sum = vec![0.0; geo.vertices.len()];
    for (_, verts) in &mut binds {
        for (v, w) in verts.iter_mut() {
            sum[*v as usize] += *w;
            *w /= sum[*v as usize];
        }
    }
    Some(MeshData {
        att,
        vertices,
        indices: geo.triangles.iter().flatten().copied().collect(),
        binds: binds
            .into_iter()
            .map(|(id, verts)| SkfBind {
                id,
                bone_id: id,
                is_path: false,
                verts: verts.into_iter().map(|(id, weight)| SkfBindVert { id, weight: weight as f32 }).collect(),
            })
            .collect(),
        uv_points,
        skin,
        slot,
        bends: true,
    })
}

fn write_styles(
    ctx: &mut Ctx,
    out: &mut SkfArmature,
    jobs: &mut Vec<PictureJob>,
    mesh_jobs: HashMap<AttachmentId, usize>,
) -> Vec<Vec<(String, TextureSource)>> {
    let sk = ctx.sk;
    let mut styles = Vec::new();
    // Jobs already made per attachment, to share identical pictures.
    let mut made: HashMap<AttachmentId, Vec<(Attachment, usize)>> = HashMap::new();
    for (att, job) in mesh_jobs {
        if let Some(a) = ctx.owner_att(att) {
            made.entry(att).or_default().push((a.clone(), job));
        }
    }
    for (si, &skin) in ctx.skins.clone().iter().enumerate() {
        let name = sk.skins.get(skin.index()).map(|s| s.name.clone()).unwrap_or_else(|| "default".into());
        let mut entries = Vec::new();
        for a in 0..sk.attachments.len() {
            let id = AttachmentId::from_index(a);
            let Some(owner) = ctx.owners[a].clone() else { continue };
            let tex_name = ctx.att_name(id);
            let Some(version) = sk.attachment(skin, id) else { continue };
            let slot_bone = sk.slot(sk.attachments[a].slot).bone;
            let source = if !draws(version) {
                TextureSource::Empty
            } else if is_mesh(version, slot_bone) != owner.mesh {
                ctx.warnings.push(Warning {
                    subject: format!("skin `{name}`"),
                    message: format!(
                        "attachment `{tex_name}` is {} here but {} in skin `{}`; a SkelForm style cannot turn a mesh into a picture or back, so this style hides it",
                        if owner.mesh { "a plain picture" } else { "a path bent by several bones" },
                        if owner.mesh { "a path bent by several bones" } else { "a plain picture" },
                        sk.skins.get(owner.skin.index()).map_or("default", |s| s.name.as_str())
                    ),
                });
                TextureSource::Empty
            } else {
                let owner_version = sk.attachment(owner.skin, id);
                if let Some(ov) = owner_version
                    && ov.transform != version.transform
                {
                    ctx.warnings.push(Warning {
                        subject: format!("skin `{name}`"),
                        message: format!(
                            "attachment `{tex_name}` is placed differently than in skin `{}`; a SkelForm style only swaps pictures, so it is drawn where that skin places it",
                            sk.skins.get(owner.skin.index()).map_or("default", |s| s.name.as_str())
                        ),
                    });
                }
                if owner.mesh
                    && owner_version.is_some_and(|ov| match (&ov.kind, &version.kind) {
                        (AttachmentKind::Path { path: p1, .. }, AttachmentKind::Path { path: p2, .. }) => p1 != p2,
                        _ => false,
                    })
                {
                    ctx.warnings.push(Warning {
                        subject: format!("skin `{name}`"),
                        message: format!("attachment `{tex_name}` has a different outline than the mesh made from its first skin; the picture is stretched onto that mesh"),
                    });
                }
                let list = made.entry(id).or_default();
                match list.iter().find(|(v, _)| v.kind == version.kind) {
                    Some(&(_, job)) => TextureSource::Job(job),
                    None => {
                        let mesh = match list.first().map(|&(_, j)| &jobs[j]) {
                            Some(PictureJob::Attachment { mesh, .. }) if owner.mesh => *mesh,
                            _ => None,
                        };
                        let job = match &version.kind {
                            AttachmentKind::Sprite { image: Some(img), .. } => PictureJob::Sprite(img.clone()),
                            _ => PictureJob::Attachment { skin, slot: sk.attachments[a].slot, attachment: id, mesh },
                        };
                        jobs.push(job);
                        list.push((version.clone(), jobs.len() - 1));
                        TextureSource::Job(jobs.len() - 1)
                    }
                }
            };
            entries.push((tex_name, source));
        }
        out.styles.push(SkfStyle { id: si as u32, name, textures: Vec::new() });
        styles.push(entries);
    }
    styles
}

// ---------------------------------------------------------------------------
// Animations

/// Tolerances the keys are chosen to (well inside the proof's 0.01 units and
/// 1e-4 rad, leaving room for f32 and for errors carried down chains).
const TOL_POS: f64 = 1e-4;
const TOL_ROT: f64 = 2e-6;
const TOL_SCALE: f64 = 1e-6;
const TOL_TINT: f64 = 1e-4;
/// World errors past which a bone is re-keyed against its simulated parent.
const WORLD_POS: f64 = 1e-3;
const WORLD_ROT: f64 = 1e-5;

/// An anchor of an element: a skelpad key at a whole frame and its curve.
#[derive(Clone, Copy, Debug)]
struct Anchor {
    frame: u32,
    curve: Curve,
}

fn anchors_of<T>(keys: &[Key<T>], fps: f64, last: u32) -> Vec<Anchor> {
    let mut out: Vec<Anchor> = Vec::new();
    for k in keys {
        let f = k.time_secs * fps;
        let r = f.round();
        if (f - r).abs() > 1e-6 || r < 0.0 || r > last as f64 {
            continue;
        }
        let frame = r as u32;
        match out.last_mut() {
            Some(a) if a.frame == frame => a.curve = k.curve,
            Some(a) if a.frame > frame => {}
            _ => out.push(Anchor { frame, curve: k.curve }),
        }
    }
    out
}

/// Chooses keys for one element so that a runtime lands within `tol` of
/// `truth` at every frame. `truth` must already be unwrapped for angles.
fn encode(truth: &[f64], init: f64, anchors: &[Anchor], tol: f64, angle: bool, fitter: &mut Fitter) -> Vec<PlannedKey> {
    let last = truth.len() as u32 - 1;
    let near_init = |v: f64| if angle { sim::wrap_angle(v - init).abs() <= tol } else { (v - init).abs() <= tol };
    let mut keys: Vec<PlannedKey> = Vec::new();
    let key = |frame: u32, h: (Handle, Handle)| PlannedKey { frame, value: truth[frame as usize], h1: h.0, h2: h.1 };
    // Frames before the first key take `init`.
    let first = anchors.first().map_or(last + 1, |a| a.frame);
    if let Some(n0) = (0..first.min(last + 1)).find(|&n| !near_init(truth[n as usize])) {
        keys.push(key(n0, sim::LINEAR));
        bake(truth, &mut keys, n0, first.min(last), tol);
    }
    for (i, a) in anchors.iter().enumerate() {
        if keys.last().is_none_or(|k| k.frame < a.frame) {
            keys.push(key(a.frame, sim::LINEAR));
        }
        let Some(b) = anchors.get(i + 1) else { break };
        let span = b.frame - a.frame;
        let handles = match a.curve {
            Curve::Stepped => Some(sim::STEP),
            Curve::Eased(Easing::Linear) => Some(sim::LINEAR),
            Curve::Eased(e) => {
                let f = fitter.fit(e, span);
                Some((f.h1, f.h2))
            }
            Curve::Bezier { x1, y1, x2, y2 } => Some((Handle::new(x1, y1), Handle::new(x2, y2))),
            Curve::Spriter(c) => c.as_bezier().map(|(x1, y1, x2, y2)| (Handle::new(x1, y1), Handle::new(x2, y2))),
        };
        let (va, vb) = (truth[a.frame as usize], truth[b.frame as usize]);
        let fits = handles.filter(|&(h1, h2)| {
            (a.frame + 1..b.frame).all(|n| (sim::interpolate(n - a.frame, span, va, vb, h1, h2) - truth[n as usize]).abs() <= tol)
        });
        match fits {
            Some((h1, h2)) => keys.push(PlannedKey { frame: b.frame, value: vb, h1, h2 }),
            None => bake(truth, &mut keys, a.frame, b.frame, tol),
        }
    }
    // After the last key its value holds.
    if let Some(lk) = keys.last().copied()
        && ((lk.frame + 1)..=last).any(|n| (truth[n as usize] - lk.value).abs() > tol)
    {
        bake(truth, &mut keys, lk.frame, last, tol);
    }
    // A keyed element starts with a key at frame 0. Runtimes take `init`
    // before the first key only on a freshly reset armature: played on
    // (looping, or after another animation), skelform-js and, for some
    // keys, rusty_skelform keep the value of the frame before.
    if let Some(first) = keys.first().map(|k| k.frame)
        && first > 0
    {
        let (h1, h2) = sim::STEP;
        let mut head = vec![PlannedKey { frame: 0, value: init, h1, h2 }];
        if first > 1 {
            head.push(PlannedKey { frame: first - 1, value: init, h1, h2 });
        }
        keys.splice(0..0, head);
    }
    keys
}

/// Appends keys from `from` (which must be the last key's frame) to `to`,
/// keeping only those a straight line between neighbours cannot replace.
fn bake(truth: &[f64], keys: &mut Vec<PlannedKey>, from: u32, to: u32, tol: f64) {
    let (h1, h2) = sim::LINEAR;
    let line_ok = |s: u32, e: u32| {
        let (vs, ve) = (truth[s as usize], truth[e as usize]);
        (s + 1..e).all(|n| (sim::interpolate(n - s, e - s, vs, ve, h1, h2) - truth[n as usize]).abs() <= tol)
    };
    let mut start = from;
    while start < to {
        let mut end = start + 1;
        while end < to && line_ok(start, end + 1) {
            end += 1;
        }
        keys.push(PlannedKey { frame: end, value: truth[end as usize], h1, h2 });
        start = end;
    }
}

/// Unwraps a sequence of angles so consecutive frames differ by at most π,
/// starting near `init`.
fn unwrap_angles(v: &mut [f64], init: f64) {
    let mut prev = init;
    for x in v.iter_mut() {
        *x = prev + sim::wrap_angle(*x - prev);
        prev = *x;
    }
}

/// Keys of one element of one exported bone, and the values a runtime shows.
struct Encoded {
    keys: Vec<PlannedKey>,
}

fn export_animation(
    ctx: &mut Ctx,
    anim: &Animation,
    index: usize,
    out: &SkfArmature,
    fitter: &mut Fitter,
) -> Result<Option<SkfAnimation>, ExportError> {
    let sk = ctx.sk;
    let fps_r = anim.fps.round().max(1.0);
    if (anim.fps - fps_r).abs() > 1e-9 {
        ctx.warnings.push(Warning {
            subject: format!("animation `{}`", anim.name),
            message: format!("runs at {} frames per second; SkelForm counts whole frames, so it is written at {fps_r}", anim.fps),
        });
    }
    let frames_f = anim.duration_secs * fps_r;
    if !frames_f.is_finite() || frames_f > MAX_FRAMES as f64 {
        return Err(ExportError::TooLong { animation: anim.name.clone(), frames: frames_f.min(u64::MAX as f64) as u64 });
    }
    let last = (frames_f - 1e-6).ceil().max(0.0) as u32;
    if (frames_f - frames_f.round()).abs() > 1e-6 {
        ctx.warnings.push(Warning {
            subject: format!("animation `{}`", anim.name),
            message: format!("lasts {frames_f:.3} frames; SkelForm animations end on a whole frame, so it ends at frame {last}"),
        });
    }
    if ctx.bones.is_empty() {
        ctx.warnings.push(Warning {
            subject: format!("animation `{}`", anim.name),
            message: "the rig has no bones to animate, so the animation is left out".into(),
        });
        return Ok(None);
    }
    let nf = last as usize + 1;
    let nb = ctx.bones.len();
    // Evaluate skelpad at every frame.
    let mut targets = vec![Trs::default(); nb * nf];
    let mut colors: Vec<Vec<Color>> = vec![Vec::with_capacity(nf); sk.slots.len()];
    let mut shown: Vec<Vec<Option<AttachmentId>>> = vec![Vec::with_capacity(nf); sk.slots.len()];
    let mut pose = Pose::default();
    let mut t = ctx.new_targets();
    let arm = ctx.arm;
    for n in 0..nf {
        evaluate_into(&mut pose, arm, Some(anim), SkinId(0), n as f64 / fps_r);
        ctx.targets(&pose, &mut t);
        for j in 0..nb {
            targets[j * nf + n] = t.trs[j];
        }
        for (s, sp) in pose.slots.iter().enumerate() {
            colors[s].push(sp.color);
            shown[s].push(sp.attachment);
        }
    }
    for (j, sheared) in t.sheared.iter().enumerate() {
        if *sheared && let Kind::Plain { slot, .. } | Kind::Mesh { slot, .. } | Kind::Conjugate { slot, .. } = &ctx.bones[j].kind {
            ctx.warnings.push(Warning {
                subject: format!("animation `{}`", anim.name),
                message: format!(
                    "slot `{}` shows a rotated attachment on an unevenly scaled bone; SkelForm draws it unskewed",
                    sk.slot(*slot).name
                ),
            });
        }
    }
    // Channels by (bone, property) and (slot, component).
    let mut bone_channels: HashMap<(BoneId, Element), &BoneChannel> = HashMap::new();
    for ch in &anim.bones {
        let e = match ch.property {
            BoneProperty::X => Element::PositionX,
            BoneProperty::Y => Element::PositionY,
            BoneProperty::Rotation => Element::Rotation,
            BoneProperty::ScaleX => Element::ScaleX,
            BoneProperty::ScaleY => Element::ScaleY,
        };
        bone_channels.entry((ch.bone, e)).or_insert(ch);
    }
    let mut sim_world = vec![Trs::default(); nb * nf];
    let mut planned: Vec<(u32, &'static str, PlannedKey, String)> = Vec::new();
    let mut truth = vec![0.0; nf];
    for j in 0..nb {
        let parent = ctx.bones[j].parent;
        let init_b = &out.bones[j];
        let init = Trs {
            x: init_b.pos.x as f64,
            y: init_b.pos.y as f64,
            rot: init_b.rot as f64,
            sx: init_b.scale.x as f64,
            sy: init_b.scale.y as f64,
        };
        let real_bone = match ctx.bones[j].kind {
            Kind::Real(b) => Some(b),
            _ => None,
        };
        // A helper whose attachment comes and goes: its scale (and a mesh
        // frame's position) steps at every change.
        let vis_anchors: Vec<Anchor> = match ctx.helper_attachment(j) {
            Some((slot, att)) => {
                let vis: Vec<bool> = shown[slot.index()].iter().map(|a| *a == Some(att)).collect();
                let changes: Vec<u32> = (1..nf).filter(|&n| vis[n] != vis[n - 1]).map(|n| n as u32).collect();
                if changes.is_empty() {
                    Vec::new()
                } else {
                    std::iter::once(0).chain(changes).map(|frame| Anchor { frame, curve: Curve::Stepped }).collect()
                }
            }
            None => Vec::new(),
        };
        let moves_when_hidden = !matches!(ctx.bones[j].kind, Kind::Plain { .. });
        let mut chosen: Vec<(Element, Encoded)> = Vec::new();
        for pass in 0..2 {
            chosen.clear();
            // Pass 0: against the ideal parent; pass 1: against the simulated one.
            let locals: Vec<Trs> = (0..nf)
                .map(|n| {
                    let me = targets[j * nf + n];
                    match parent {
                        Some(p) => sim::local_for(if pass == 0 { &targets[p * nf + n] } else { &sim_world[p * nf + n] }, &me),
                        None => me,
                    }
                })
                .collect();
            let pscale = |n: usize| parent.map_or(1.0, |p| targets[p * nf + n].sx.abs().max(targets[p * nf + n].sy.abs()));
            let max_pscale = (0..nf).map(pscale).fold(0.0, f64::max).max(1e-9);
            for e in Element::ALL {
                for (n, v) in truth.iter_mut().enumerate() {
                    *v = locals[n].get(e);
                }
                let angle = e == Element::Rotation;
                if angle {
                    unwrap_angles(&mut truth, init.rot);
                }
                let steps = match e {
                    Element::ScaleX | Element::ScaleY => true,
                    Element::PositionX | Element::PositionY => moves_when_hidden,
                    Element::Rotation => false,
                };
                let anchors = if steps && !vis_anchors.is_empty() {
                    vis_anchors.clone()
                } else {
                    real_bone.and_then(|b| bone_channels.get(&(b, e))).map(|ch| anchors_of(&ch.keys, fps_r, last)).unwrap_or_default()
                };
                let tol = match e {
                    Element::PositionX | Element::PositionY => TOL_POS / max_pscale,
                    Element::Rotation => TOL_ROT,
                    _ => TOL_SCALE,
                };
                let keys = encode(&truth, init.get(e), &anchors, tol, angle, fitter);
                chosen.push((e, Encoded { keys }));
            }
            // Simulate what a runtime shows and compare with the target.
            let mut worst = (0.0f64, 0.0f64);
            for n in 0..nf {
                let mut local = init;
                for (e, enc) in &chosen {
                    local.set(*e, sim::element_value(&enc.keys, n as u32, init.get(*e)));
                }
                let w = match parent {
                    Some(p) => sim::child_world(&sim_world[p * nf + n], &local),
                    None => local,
                };
                sim_world[j * nf + n] = w;
                let want = targets[j * nf + n];
                worst.0 = worst.0.max((w.x - want.x).hypot(w.y - want.y));
                worst.1 = worst.1.max(sim::wrap_angle(w.rot - want.rot).abs());
            }
            if worst.0 <= WORLD_POS && worst.1 <= WORLD_ROT {
                break;
            }
            if pass == 1 {
                ctx.warnings.push(Warning {
                    subject: format!("animation `{}`", anim.name),
                    message: format!(
                        "bone `{}` is off by up to {:.2e} units and {:.2e} rad in SkelForm (a collapsed scale above it)",
                        ctx.bones[j].name, worst.0, worst.1
                    ),
                });
            }
        }
        for (e, enc) in chosen {
            for k in enc.keys {
                planned.push((j as u32, e.name(), k, String::new()));
            }
        }
    }
    // Visual keys: tints. Attachment switches are the helpers' scale keys
    // above: no `Texture` keys are written (rusty_skelform resets the
    // texture unless "Texture" is keyed and only sets it on "Tex" keys;
    // skelform-js ignores both), so a helper always shows its own picture.
    let mut tinted = false;
    for j in 0..nb {
        let slot = match &ctx.bones[j].kind {
            Kind::Plain { slot, .. } | Kind::Mesh { slot, .. } => *slot,
            _ => continue,
        };
        let setup = sk.slot(slot).color;
        for (c, name) in element::TINT.iter().enumerate() {
            for (n, v) in truth.iter_mut().enumerate() {
                *v = colors[slot.index()][n].to_array()[c];
            }
            let component = [ColorComponent::R, ColorComponent::G, ColorComponent::B, ColorComponent::A][c];
            let anchors = anim
                .slot_colors
                .iter()
                .find(|ch| ch.slot == slot && ch.component == component)
                .map(|ch| anchors_of(&ch.keys, fps_r, last))
                .unwrap_or_default();
            for k in encode(&truth, f32r(setup.to_array()[c]), &anchors, TOL_TINT, false, fitter) {
                tinted = true;
                planned.push((j as u32, name, k, String::new()));
            }
        }
    }
    if tinted {
        ctx.warnings.push(Warning {
            subject: format!("animation `{}`", anim.name),
            message: "animates slot colors with TintR…TintA keyframes: SkelForm's editor and rusty_skelform play them, skelform-js ignores them (its pictures keep their setup tint)".into(),
        });
    }
    // The runtime takes an animation's length from its last keyframe: make
    // sure one sits on the last frame.
    if planned.iter().all(|(_, _, k, _)| k.frame < last) || planned.is_empty() {
        let (bone, elem) = (0u32, Element::PositionX);
        let existing: Vec<PlannedKey> = planned.iter().filter(|(b, e, _, _)| *b == bone && *e == elem.name()).map(|p| p.2).collect();
        let value = existing.last().map_or(out.bones[0].pos.x as f64, |k| k.value);
        let (h1, h2) = sim::LINEAR;
        planned.push((bone, elem.name(), PlannedKey { frame: last, value, h1, h2 }, String::new()));
    }
    let order = |e: &str| -> usize {
        [element::POSITION_X, element::POSITION_Y, element::ROTATION, element::SCALE_X, element::SCALE_Y, element::TEXTURE]
            .iter()
            .chain(element::TINT.iter())
            .position(|x| *x == e)
            .unwrap_or(99)
    };
    planned.sort_by_key(|a| (a.2.frame, a.0, order(a.1)));
    let mut keyframes: Vec<SkfKeyframe> = planned
        .iter()
        .map(|(bone, e, k, s)| SkfKeyframe {
            frame: k.frame,
            bone_id: *bone,
            element: (*e).to_string(),
            value: k.value as f32,
            value_str: s.clone(),
            next_kf: -1,
            start_handle: k.h1.to_file(),
            end_handle: k.h2.to_file(),
        })
        .collect();
    let mut last_of: HashMap<(u32, &str), usize> = HashMap::new();
    for (i, p) in planned.iter().enumerate() {
        let key = (p.0, p.1);
        if let Some(&prev) = last_of.get(&key) {
            keyframes[prev].next_kf = i as i32;
        }
        last_of.insert(key, i);
    }
    Ok(Some(SkfAnimation { id: index as u32, name: anim.name.clone(), fps: fps_r as u32, keyframes }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(truth: &[f64], init: f64, anchors: &[Anchor], angle: bool) -> Vec<PlannedKey> {
        let mut f = Fitter::default();
        encode(truth, init, anchors, 1e-6, angle, &mut f)
    }

    fn replay(keys: &[PlannedKey], init: f64, n: usize) -> Vec<f64> {
        (0..n as u32).map(|f| sim::element_value(keys, f, init)).collect()
    }

    #[test]
    fn linear_segments_stay_sparse() {
        let truth: Vec<f64> = (0..=10).map(|n| n as f64 * 2.0).collect();
        let anchors = [Anchor { frame: 0, curve: Curve::LINEAR }, Anchor { frame: 10, curve: Curve::LINEAR }];
        let keys = run(&truth, 0.0, &anchors, false);
        assert_eq!(keys.len(), 2);
        assert!(replay(&keys, 0.0, 11).iter().zip(&truth).all(|(a, b)| (a - b).abs() < 1e-9));
    }

    #[test]
    fn a_curve_the_keys_cannot_follow_is_baked_and_still_lands() {
        // Anchors claim linear, the truth is a parabola.
        let truth: Vec<f64> = (0..=10).map(|n| (n * n) as f64).collect();
        let anchors = [Anchor { frame: 0, curve: Curve::LINEAR }, Anchor { frame: 10, curve: Curve::LINEAR }];
        let keys = run(&truth, 0.0, &anchors, false);
        assert!(keys.len() > 2);
        let got = replay(&keys, 0.0, 11);
        for (g, w) in got.iter().zip(&truth) {
            assert!((g - w).abs() <= 1e-6);
        }
    }

    #[test]
    fn values_before_the_first_key_use_init_or_get_baked() {
        let mut truth = vec![5.0; 6];
        truth.extend([6.0, 7.0]);
        let anchors = [Anchor { frame: 6, curve: Curve::LINEAR }, Anchor { frame: 7, curve: Curve::LINEAR }];
        let keys = run(&truth, 5.0, &anchors, false);
        // Init covers frames 0..5, held by step keys at 0 and 5 so a runtime
        // that plays on (without resetting to init) shows it too.
        let head: Vec<(u32, f64)> = keys.iter().take(3).map(|k| (k.frame, k.value)).collect();
        assert_eq!(head, [(0, 5.0), (5, 5.0), (6, 6.0)]);
        assert!(sim::is_step(keys[1].h1, keys[1].h2));
        assert_eq!(replay(&keys, 5.0, 8), truth);
        // The same truth with another init needs keys from frame 0.
        let keys = run(&truth, 1.0, &anchors, false);
        assert_eq!(keys.first().map(|k| k.frame), Some(0));
        assert_eq!(replay(&keys, 1.0, 8), truth);
    }

    #[test]
    fn steps_use_999_handles() {
        let truth = [0.0, 0.0, 0.0, 4.0, 4.0];
        let anchors = [Anchor { frame: 0, curve: Curve::Stepped }, Anchor { frame: 3, curve: Curve::LINEAR }];
        let keys = run(&truth, 0.0, &anchors, false);
        assert_eq!(keys.len(), 2);
        assert!(sim::is_step(keys[1].h1, keys[1].h2));
        assert_eq!(replay(&keys, 0.0, 5), truth);
    }

    #[test]
    fn unwrapped_rotations_go_the_short_way() {
        let mut v = vec![3.0, -3.0, -2.9];
        unwrap_angles(&mut v, 3.0);
        assert!((v[1] - (std::f64::consts::TAU - 3.0)).abs() < 1e-12, "{v:?}");
        assert!(v[2] > v[1]);
    }
}
