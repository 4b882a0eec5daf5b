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
//!
//! Files, one per seam: `bones` (the plan and the setup bones), `targets`
//! (the world each exported bone must have at one pose, from the pose's own
//! accumulated rotation and scale, `Pose::accumulated`), `meshes` (visuals
//! and meshes), `styles` (skins), `keys` (`export_animation`: frame count →
//! samples → bone keys → tint keys → end key → keyframes); this file runs the
//! plan. Draw order becomes z-index (an animated one first becomes slot
//! copies, `formats::draw_order`), skins styles, slot colour a tint and
//! `TintR..A` keys.
//!
//! Promise, checked by `tests/suite/skf_export.rs`: for every frame of every
//! animation, fresh and played on, both `rusty_skelform` and skelform-js
//! (under node) put every exported bone within 0.01 units and 1e-4 rad of
//! skelpad's runtime, and show the same pictures, mirroring, tints and mesh
//! outlines. What cannot be carried over exactly (skew, styles that move
//! pictures, mesh or picture changes between skins, fractional fps, tints in
//! skelform-js) is a warning naming the bone, slot, skin or animation.

use std::collections::HashMap;

use super::fit::Fitter;
use super::mesh::{self, MeshGeometry};
use super::sim::{self, Element, Handle, PlannedKey, Trs};
use super::*;
use skelpad_lang::model::*;
use skelpad_lang::runtime::{Pose, evaluate_into};

mod bones;
mod keys;
mod meshes;
mod styles;
mod targets;

use bones::*;
use keys::export_animation;
use meshes::*;
use styles::write_styles;
use targets::*;

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
    /// What happened to it, as a sentence.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.subject, self.message)
    }
}

pub use crate::formats::export::{ExportError, Progress, Stage};

/// The longest animation (in frames) the exporter bakes.
pub const MAX_FRAMES: u64 = crate::formats::export::MAX_SKF_FRAMES;

/// An RGBA picture with straight (not premultiplied) alpha, top row first.
#[derive(Clone, Debug, PartialEq)]
pub struct Raster {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height` pixels, 4 bytes each, rows top to bottom.
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
    fn attachment(
        &mut self,
        skin: SkinId,
        slot: SlotId,
        attachment: AttachmentId,
        pixels_per_unit: f64,
    ) -> Result<Option<Raster>, String>;
    /// The pixels of a sprite image, as named in the script, at their own
    /// size (one pixel per unit), with the pivot at the image's center.
    fn sprite(&mut self, image: &str) -> Result<Raster, String>;
    /// The setup pose with `skin`, fitted into a `size`×`size` picture.
    fn thumbnail(&mut self, armature: &Armature, skin: SkinId, size: u32)
    -> Result<Raster, String>;
    /// What the source drew in place of what it could not make (a
    /// placeholder for a missing sprite image), said once each; the export
    /// adds them to its warnings. None by default.
    fn take_warnings(&mut self) -> Vec<Warning> {
        Vec::new()
    }
}

/// A picture to make for a style entry.
#[derive(Clone, Debug, PartialEq)]
pub enum PictureJob {
    /// A shape attachment as `skin` defines it, rasterized at the export
    /// scale. Centered on its origin, unless it is the picture of the mesh
    /// visual `mesh` (whose UVs follow its pivot).
    Attachment {
        /// The skin whose version of the attachment is drawn.
        skin: SkinId,
        /// The attachment's slot.
        slot: SlotId,
        /// The attachment.
        attachment: AttachmentId,
        /// The mesh visual (index in the armature's visuals) it is the
        /// picture of, if any.
        mesh: Option<usize>,
    },
    /// A sprite image copied at its own pixel size, centered on its origin.
    Sprite(String),
}

/// What a style's texture shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextureSource {
    /// The picture made by this job (index in [`Plan::jobs`]).
    Job(usize),
    /// A 1×1 transparent texture: the skin hides this attachment.
    Empty,
}

/// A mesh visual's vertices at setup in its attachment's space, for UVs.
#[derive(Clone, Debug)]
pub struct MeshUv {
    /// The visual (index in the armature's visuals).
    pub visual: usize,
    /// Per vertex, in order: its position in the attachment's space.
    pub points: Vec<(f64, f64)>,
}

/// The armature side of an export, before any picture is made.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Complete except the styles' texture rectangles, the atlases and the
    /// meshes' UVs.
    pub armature: SkfArmature,
    /// The pictures to make, each once (styles share identical ones).
    pub jobs: Vec<PictureJob>,
    /// Per style: (texture name, source), in the order written.
    pub style_textures: Vec<Vec<(String, TextureSource)>>,
    /// The mesh visuals' vertices, for their UVs once pictures are placed.
    pub mesh_uvs: Vec<MeshUv>,
    /// What could not be carried over exactly, sorted, each once.
    pub warnings: Vec<Warning>,
    /// The skins written, in style order.
    pub skins: Vec<SkinId>,
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
                return Err(ExportError::UnknownSkin {
                    name: n.clone(),
                    known: sk.skins.iter().map(|s| s.name.clone()).collect(),
                });
            }
        }
    }
    Ok(out)
}

/// Plans an export: everything but the pictures.
pub fn plan(arm: &Armature, opts: &ExportOptions) -> Result<Plan, ExportError> {
    plan_with_progress(arm, opts, &Progress::new())
}

/// [`plan`], reporting the animations keyed as [`Stage::Animations`]; stops
/// with [`ExportError::Cancelled`] at the next animation once cancelled.
pub fn plan_with_progress(
    arm: &Armature,
    opts: &ExportOptions,
    progress: &Progress,
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
    let before_ik = without_live_ik(arm, &live);
    let arm = before_ik.as_ref().unwrap_or(arm);
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
    let meshes = build_meshes(&mut ctx, &setup_pose);
    let mut setup_t = ctx.new_targets();
    ctx.targets(&setup_pose, &mut setup_t);
    let mut out = SkfArmature { version: VERSION.into(), ..SkfArmature::default() };
    write_bones(&ctx, &setup_t, &mut out);
    super::ik::write_families(&with_ik.skeleton, &live, &ctx.real, &mut out);
    let mut jobs = Vec::new();
    let mut mesh_uvs = Vec::new();
    let mesh_jobs = write_visuals(&ctx, meshes, &mut out, &mut jobs, &mut mesh_uvs);
    let style_textures = write_styles(&mut ctx, &mut out, &mut jobs, mesh_jobs);
    progress.start(Stage::Animations, arm.animations.len());
    progress.check()?;
    let mut fitter = Fitter::default();
    for (i, anim) in arm.animations.iter().enumerate() {
        if let Some(a) = export_animation(&mut ctx, anim, i, &out, &mut fitter)? {
            out.animations.push(a);
        }
        progress.step()?;
    }
    let sheared = shear_warnings(&ctx, &setup_t);
    ctx.warnings.extend(sheared);
    ctx.warnings.extend(dropped_events(arm));
    ctx.warnings.sort();
    ctx.warnings.dedup();
    Ok(Plan { armature: out, jobs, style_textures, mesh_uvs, warnings: ctx.warnings, skins })
}

/// The armature without its IK families that are `live` (written as
/// families, so the keys carry the pose before them); `None` if none is.
fn without_live_ik(arm: &Armature, live: &[bool]) -> Option<Armature> {
    if !live.iter().any(|l| *l) {
        return None;
    }
    let mut sk = (*arm.skeleton).clone();
    sk.ik = sk.ik.iter().zip(live).filter(|(_, l)| !**l).map(|(f, _)| f.clone()).collect();
    Some(Armature { skeleton: std::sync::Arc::new(sk), animations: arm.animations.clone() })
}

/// The meshes of the planned mesh bones, by bone index (those that could
/// be built).
fn build_meshes(ctx: &mut Ctx, setup_pose: &Pose) -> HashMap<usize, MeshData> {
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
        if let Some(m) = build_mesh(ctx, j, slot, att, setup_pose) {
            meshes.insert(j, m);
        }
    }
    meshes
}

/// A warning for each bone whose attachment is skewed at setup (SkelForm
/// draws it unskewed).
fn shear_warnings(ctx: &Ctx, setup_t: &Targets) -> Vec<Warning> {
    let mut warnings = Vec::new();
    for (j, b) in ctx.bones.iter().enumerate() {
        if setup_t.sheared[j] {
            let subject = match &b.kind {
                Kind::Plain { slot, .. }
                | Kind::Mesh { slot, .. }
                | Kind::Conjugate { slot, .. } => {
                    format!("slot `{}`", ctx.sk.slot(*slot).name)
                }
                _ => format!("bone `{}`", b.name),
            };
            warnings.push(Warning {
                subject,
                message: "a rotated attachment on a bone scaled unevenly is skewed in skelpad; SkelForm cannot skew, so its picture is drawn unskewed".into(),
            });
        }
    }
    warnings
}

/// One warning naming every event the export leaves out (SkelForm files
/// have no events): per animation, its event names.
fn dropped_events(arm: &Armature) -> Option<Warning> {
    let mut parts = Vec::new();
    let mut keys = 0;
    for a in arm.animations.iter().filter(|a| !a.events.is_empty()) {
        let mut names: Vec<&str> = a.events.iter().map(|e| e.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        keys += a.events.len();
        let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        parts.push(format!("\"{}\" ({})", a.name, list.join(", ")));
    }
    (!parts.is_empty()).then(|| Warning {
        subject: "events".into(),
        message: format!(
            "SkelForm files have no events; {keys} event key(s) are left out: {}",
            parts.join("; ")
        ),
    })
}

/// `|a| + |b| + |c| + |d|`: the size of a transform's linear part, which
/// scales the tolerances of comparisons between matrices.
pub(super) fn linear_size(m: Affine) -> f64 {
    let [a, b, c, d, _, _] = m.to_array();
    a.abs() + b.abs() + c.abs() + d.abs()
}

pub(super) fn vec2(x: f64, y: f64) -> Vec2 {
    // Values are stored as runtimes read them (f32), so what the exporter
    // checks is what a runtime sees.
    Vec2::new(x as f32, y as f32)
}

pub(super) fn f32r(v: f64) -> f64 {
    v as f32 as f64
}
