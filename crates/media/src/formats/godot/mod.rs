//! Armature → Godot scene (`.tscn`, text format 3 for Godot 4, format 2 for
//! Godot 3). `docs/godot.md` has the mapping and the version table.
//!
//! **Nodes.** A `Node2D` per bone, nested as the bones nest and named by the
//! bone's own name (escaped, `names`), with its full dotted name as
//! metadata `skelpad_bone`; a plain node tree rather than `Skeleton2D` and
//! `Bone2D`, because a `Node2D`'s own position, rotation and scale are
//! exactly a bone's local values, nothing else moves them (a `Bone2D`'s
//! rest pose and its modification stack do), and every tool of Godot's
//! animation editor keys them. Slots and attachments are nodes under their
//! bone (`rig`); the root carries `skelpad_events.gd`, which turns the
//! event track's calls into the signal `skelpad_event(name, payload)`.
//!
//! **Frames.** Godot's y points down: a point `(x, y)` of skelpad's world is
//! `(x, −y)` in the scene and every bone's own axes turn y down too (a bone
//! node's global transform is `V · W · C`, `V = C = diag(1, −1)`), so the
//! scene looks as skelpad's canvas does, one unit a pixel, the skeleton's
//! origin at the root's.
//!
//! **Keys.** Each animation is sampled at its own frame rate and keyed as
//! the Lottie export keys (`formats::lottie::{frames, transform, keys}`,
//! shared): a bone keeps its own local values where they give its world
//! pose and its curves are straight or held; elsewhere it is keyed at every
//! frame, and the export names the bone and the reason (`anim`).
//!
//! The parts: `version` (the table of what differs), `text` (the file
//! format), `names`, `rig` (the nodes), `anim` (the animations).

use std::path::Path;

use crate::formats::export::{ExportError, Progress, Stage};
use crate::formats::lottie::frames::{Framing, Plan, sample};
use crate::formats::lottie::transform::{Target, bone_layers_for};
use crate::formats::lottie::{PictureSource, keys};
use crate::render::View;
use skelpad_lang::model::{AnimId, Armature, SkinId};

mod anim;
pub mod names;
mod rig;
mod skew;
pub mod text;
mod version;

pub use anim::EVENT_METHOD;
pub use version::{Table, Version};

/// The highest `z_index` Godot takes.
pub const MAX_Z: u32 = 4096;

/// The script the root carries: it turns the event track's calls into a
/// signal (the same text works in Godot 3 and 4).
pub const EVENTS_SCRIPT: &str = "extends Node2D\n\n\
# Written by skelpad: the animations' event tracks call skelpad_event_fired;\n\
# connect to the signal to receive each event with its payload.\n\
signal skelpad_event(name, payload)\n\n\
func skelpad_event_fired(name, payload):\n\
\temit_signal(\"skelpad_event\", name, payload)\n";

/// The script's file name, beside the scene.
pub const EVENTS_SCRIPT_NAME: &str = "skelpad_events.gd";

/// What to export.
#[derive(Clone, Debug, Default)]
pub struct GodotOptions {
    /// Godot 4 (format 3) or Godot 3 (format 2).
    pub version: Version,
    /// The skin shown; `None`: the default skin.
    pub skin: Option<String>,
    /// One animation by name; `None`: every animation.
    pub anim: Option<String>,
}

/// A finished export: the scene and the files beside it.
#[derive(Clone, Debug)]
pub struct Godot {
    /// The scene's text.
    pub scene: String,
    /// Files to write beside the scene: path relative to its folder, bytes.
    pub files: Vec<(String, Vec<u8>)>,
    /// Warnings, each naming what it is about.
    pub warnings: Vec<String>,
    /// The bones keyed at every frame, with the reason.
    pub baked: Vec<(String, String)>,
}

/// What the builders share.
pub struct Ctx<'a> {
    /// The armature.
    pub arm: &'a Armature,
    /// The skin shown.
    pub skin: SkinId,
    /// The version written.
    pub version: Version,
}

/// Pictures, and the files and resources the scene refers to.
pub struct Files<'p> {
    /// Where pictures come from.
    pub pictures: &'p mut dyn PictureSource,
    /// The pictures' folder beside the scene.
    pub folder: String,
    /// Files to write: relative path, bytes.
    pub out: Vec<(String, Vec<u8>)>,
    /// The scene's external resources: class, relative path.
    pub ext: Vec<(&'static str, String)>,
    /// Warnings.
    pub warnings: Vec<String>,
    by_image: std::collections::HashMap<String, Option<(usize, u32, u32)>>,
}

impl Files<'_> {
    /// The texture resource of picture `image` (resource number, width,
    /// height), copied into the pictures' folder; `None`, with a warning
    /// naming `user`, when it cannot be read.
    pub fn texture(&mut self, image: &str, user: &str) -> Option<(usize, u32, u32)> {
        if let Some(t) = self.by_image.get(image) {
            if t.is_none() {
                self.warnings.push(format!("`{user}`: its picture `{image}` is left out"));
            }
            return *t;
        }
        let t = match self.pictures.picture(image) {
            Ok(p) => {
                let ext = if p.mime == "image/jpeg" { "jpg" } else { "png" };
                let stem =
                    Path::new(image).file_stem().and_then(|s| s.to_str()).unwrap_or("picture");
                let mut path = format!(
                    "{}/{}.{ext}",
                    self.folder,
                    names::escape(stem).replace(['\\', '*', '?', '<', '>', '|', ' '], "_")
                );
                let mut n = 2;
                while self.out.iter().any(|(p, _)| *p == path) {
                    path = format!("{}/{}_{n}.{ext}", self.folder, names::escape(stem));
                    n += 1;
                }
                self.out.push((path.clone(), p.bytes));
                self.ext.push(("Texture2D", path));
                Some((self.ext.len(), p.width, p.height))
            }
            Err(why) => {
                self.warnings.push(format!("`{user}`: its picture is left out: {why}"));
                None
            }
        };
        self.by_image.insert(image.to_string(), t);
        t
    }
}

/// The one frame of the scene: one unit a pixel, y down, the origin at the
/// root node's.
fn framing() -> Framing {
    Framing { view: View { origin_px: [0.0, 0.0], pixels_per_unit: 1.0 }, width: 1, height: 1 }
}

fn chosen(arm: &Armature, opts: &GodotOptions) -> Result<(SkinId, Vec<AnimId>), ExportError> {
    let lottie = crate::formats::lottie::LottieOptions {
        anim: opts.anim.clone(),
        skin: opts.skin.clone(),
        ..Default::default()
    };
    crate::formats::lottie::chosen(arm, &lottie)
}

/// The bones an export keys at every frame and why (as [`Godot::baked`]),
/// without building the scene or reading pictures: the editor lists them
/// before exporting.
pub fn baking(arm: &Armature, opts: &GodotOptions) -> Result<Vec<(String, String)>, ExportError> {
    let (skin, anims) = chosen(arm, opts)?;
    let ctx = Ctx { arm, skin, version: opts.version };
    let mut baked: Vec<(usize, String)> = Vec::new();
    for id in anims {
        let (plan, _, layers) = anim::sampled(&ctx, id)?;
        let Some(a) = arm.animation(id) else { continue };
        for (b, l) in layers.iter().enumerate() {
            if let Some(why) = anim::reason(&ctx, a, &plan, (b, l))
                && !baked.iter().any(|(x, _)| *x == b)
            {
                baked.push((b, why));
            }
        }
    }
    baked.sort_by_key(|(b, _)| *b);
    Ok(baked.into_iter().map(|(b, why)| (arm.skeleton.bones[b].name.clone(), why)).collect())
}

/// Builds the scene of `arm` named `stem` (the root node's name and the
/// pictures' folder `STEM_pictures`); nothing is written.
pub fn export(
    arm: &Armature,
    opts: &GodotOptions,
    pictures: &mut dyn PictureSource,
    stem: &str,
) -> Result<Godot, ExportError> {
    let (skin, anims) = chosen(arm, opts)?;
    if arm.skeleton.slots.len() > MAX_Z as usize {
        return Err(ExportError::Cannot(format!(
            "{} slots are more draw-order places than Godot's z_index has ({MAX_Z})",
            arm.skeleton.slots.len()
        )));
    }
    let ctx = Ctx { arm, skin, version: opts.version };
    let setup_plan = Plan::new(arm, &[], None)?;
    let setup = sample(arm, &setup_plan, skin)?;
    let setup_layers = bone_layers_for(arm, &setup_plan, &setup, &framing(), Target::Godot)?;
    let mut files = Files {
        pictures,
        folder: format!("{}_pictures", names::escape(stem)),
        out: vec![(EVENTS_SCRIPT_NAME.into(), EVENTS_SCRIPT.as_bytes().to_vec())],
        ext: vec![("Script", EVENTS_SCRIPT_NAME.into())],
        warnings: Vec::new(),
        by_image: Default::default(),
    };
    let mut scene = text::Scene::default();
    let mut taken = names::Taken::default();
    let mut rig = rig::Rig {
        order_moves: anims
            .iter()
            .any(|&a| arm.animation(a).is_some_and(|a| !a.draw_order.is_empty())),
        ..Default::default()
    };
    let root = text::Node {
        name: names::escape(stem),
        class: "Node2D",
        parent: None,
        props: vec![("script".into(), text::V::Ext(1))],
        meta: Vec::new(),
    };
    scene.nodes.push(root);
    let (sampled, skewed) = sample_all(&ctx, &anims, &setup_layers)?;
    let nodes = rig::bones(&ctx, &setup, (&setup_layers, &skewed), &mut taken, &mut rig);
    scene.nodes.extend(nodes);
    let mut b = rig::Builder::new(&ctx, &mut files, &mut taken, &mut rig);
    b.slots(&setup);
    let slot_nodes = std::mem::take(&mut b.nodes);
    scene.nodes.extend(slot_nodes);
    let mut baked: Vec<(usize, String)> = Vec::new();
    for (&id, one) in anims.iter().zip(sampled) {
        let built = anim::build(&ctx, &rig, id, one)?;
        for (bone, why) in built.baked {
            if !baked.iter().any(|(x, _)| *x == bone) {
                baked.push((bone, why));
            }
        }
        scene.subs.push(built.sub);
    }
    player(&ctx, &anims, &mut scene, &mut taken);
    let mut warnings = std::mem::take(&mut files.warnings);
    for m in &rig.moving {
        let (s, a) = (&arm.skeleton.slots[m.slot], &arm.skeleton.attachments[m.att.index()]);
        let w = format!(
            "`{}.{}`: its points are keyed at every frame (they follow several bones)",
            s.name, a.name
        );
        if !warnings.contains(&w) {
            warnings.push(w);
        }
    }
    baked.sort_by_key(|(b, _)| *b);
    let baked: Vec<(String, String)> =
        baked.into_iter().map(|(b, why)| (arm.skeleton.bones[b].name.clone(), why)).collect();
    for (name, why) in &baked {
        warnings.push(format!("bone `{name}`: keyed at every frame ({why})"));
    }
    scene.ext = files.ext;
    Ok(Godot { scene: scene.text(opts.version), files: files.out, warnings, baked })
}

/// Every animation sampled, and the bones whose matrix needs a skew in the
/// setup pose or some animation (they sit under a helper node, `skew`).
fn sample_all(
    ctx: &Ctx<'_>,
    anims: &[AnimId],
    setup_layers: &[crate::formats::lottie::transform::BoneLayer],
) -> Result<(Vec<anim::Sampled>, Vec<bool>), ExportError> {
    let mut sampled = Vec::with_capacity(anims.len());
    let mut skewed: Vec<bool> = (0..ctx.arm.skeleton.bones.len())
        .map(|b| anim::needs_matrix(ctx, b, &setup_layers[b]))
        .collect();
    for &id in anims {
        let one = anim::sampled(ctx, id)?;
        for (b, l) in one.2.iter().enumerate() {
            skewed[b] |= anim::needs_matrix(ctx, b, l);
        }
        sampled.push(one);
    }
    Ok((sampled, skewed))
}

/// The `AnimationPlayer` (and, for Godot 4, its library).
fn player(ctx: &Ctx<'_>, anims: &[AnimId], scene: &mut text::Scene, taken: &mut names::Taken) {
    use text::V;
    let t = ctx.version.table();
    let name = taken.claim(".", "AnimationPlayer");
    // Events are calls: made at once, while the animation is at their frame.
    let mut props = vec![(t.method_call.to_string(), V::Int(1))];
    let subs: Vec<(String, usize)> = anims
        .iter()
        .enumerate()
        .filter_map(|(i, &a)| ctx.arm.animation(a).map(|a| (a.name.clone(), i + 1)))
        .collect();
    if t.library {
        let data = subs.iter().map(|(n, i)| (n.clone(), V::Sub(*i))).collect();
        scene.subs.push(text::Sub {
            class: "AnimationLibrary",
            props: vec![("_data".into(), V::Dict(data))],
        });
        props.push(("libraries".into(), V::Dict(vec![(String::new(), V::Sub(scene.subs.len()))])));
    } else {
        for (n, i) in &subs {
            props.push((anim_key(n), V::Sub(*i)));
        }
    }
    scene.nodes.push(text::Node {
        name,
        class: "AnimationPlayer",
        parent: Some(".".into()),
        props,
        meta: Vec::new(),
    });
}

/// An animation's Godot 3 property key `anims/NAME`: the whole key quoted
/// when the name holds more than letters, digits and `_` (Godot reads
/// quoted keys; its own writer quotes fewer).
fn anim_key(name: &str) -> String {
    let key = format!("anims/{name}");
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        key
    } else {
        text::quote(&key)
    }
}

/// Exports to `out` (the scene) and the files beside it, all atomically:
/// built ([`Stage::Animations`]), then written ([`Stage::Writing`]).
pub fn export_file(
    arm: &Armature,
    opts: &GodotOptions,
    pictures: &mut dyn PictureSource,
    out: &Path,
    progress: &Progress,
) -> Result<Godot, ExportError> {
    progress.start(Stage::Animations, 1);
    progress.check()?;
    let stem = out.file_stem().and_then(|s| s.to_str()).unwrap_or("skeleton");
    let godot = export(arm, opts, pictures, stem)?;
    progress.start(Stage::Writing, 1);
    progress.check()?;
    let dir = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut atomic = skelpad_lang::io::AtomicFiles::new();
    for (rel, bytes) in &godot.files {
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| {
                ExportError::Cannot(format!(
                    "cannot make `{}`: {}",
                    parent.display(),
                    skelpad_lang::io::reason(&e)
                ))
            })?;
        }
        atomic.write(&path, bytes)?;
    }
    atomic.write(out, godot.scene.as_bytes())?;
    progress.check()?;
    atomic.commit()?;
    progress.set(1, 1);
    Ok(godot)
}
