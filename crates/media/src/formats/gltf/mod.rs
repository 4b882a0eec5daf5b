//! Armature → glTF 2.0 (`.glb`, or `.gltf` with its buffer as a data URI),
//! for game engines and 3D tools. `docs/gltf.md` has the mapping.
//!
//! **Plane.** skelpad's world is glTF's xy plane (x right, y up, one unit a
//! unit), seen from +z as skelpad's canvas shows it; draw order is a small
//! `z` step ([`Z_STEP`]) per place, later slots nearer the viewer.
//!
//! **Bones** are nodes named with their full dotted names, nested as the
//! bones nest under one root node `skelpad` (`bones`). **Attachments** are
//! meshes skinned to joint nodes (`attach`, `weights`), with unlit,
//! alpha-blended materials; sprites' pictures are embedded. **Animations**
//! (`anim`): one per script animation, each sampled at its own frame rate;
//! a straight line or a step between frames is one key, anything else a key
//! per frame (`keys`, the Lottie export's fitter).
//!
//! The JSON is written with `serde_json` (`doc`, `buffer`): `gltf-json`
//! (crates.io, 1.4) was the crate made for it, but its animation target is
//! a closed enum without the `pointer` path `KHR_animation_pointer` needs.
//!
//! Proof: `tests/suite/gltf.rs` (three.js plays every export: bone nodes'
//! world matrices and skinned vertices against skelpad's pose and draw
//! list; the Khronos validator finds nothing).

use serde_json::{Value, json};

use crate::formats::export::{Progress, Stage};
use crate::formats::lottie::frames::{Plan, Samples, sample};
use skelpad_lang::model::{AnimId, Armature, Color, SkinId};

pub use crate::formats::lottie::{FilePictures, MemoryPictures, Picture, PictureSource};

mod anim;
mod attach;
mod bones;
mod buffer;
mod doc;
mod keys;
mod weights;

/// The `z` between two places in the draw order.
pub const Z_STEP: f64 = 0.01;

/// The `z` of a slot at `rank` in the draw order.
pub fn z_of(rank: u32) -> f64 {
    f64::from(rank) * Z_STEP
}

/// Which file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Container {
    /// Binary glTF (`.glb`).
    Glb,
    /// JSON glTF (`.gltf`), the buffer embedded as a data URI.
    Gltf,
}

/// What to export.
#[derive(Clone, Debug, Default)]
pub struct GltfOptions {
    /// One animation by name; `None`: every animation.
    pub anim: Option<String>,
    /// The skin shown; `None`: the default skin.
    pub skin: Option<String>,
}

/// Why a glTF export was refused (nothing is written).
pub type GltfError = crate::formats::export::ExportError;

/// A finished export.
#[derive(Clone, Debug)]
pub struct Gltf {
    /// The glTF JSON document (its one buffer not yet given a URI).
    pub json: Value,
    /// The buffer's bytes.
    pub bin: Vec<u8>,
    /// Warnings, each naming what it is about.
    pub warnings: Vec<String>,
    /// The bones keyed from their world matrices, with the reason.
    pub baked: Vec<(String, String)>,
}

/// One animation (or the setup pose, clip 0) sampled at its own rate.
pub struct Clip {
    /// The animation (`None`: the setup pose).
    pub id: Option<AnimId>,
    /// Its name.
    pub name: String,
    /// Its frames.
    pub plan: Plan,
    /// skelpad's pose at every frame.
    pub samples: Samples,
    /// The skin shown.
    pub skin: SkinId,
}

/// What the animations' channels need.
pub struct Export<'a> {
    arm: &'a Armature,
    clips: &'a [Clip],
    bones: &'a [bones::BoneNode],
    meshes: &'a [attach::AttachmentMesh],
}

/// What building the animations found to warn about.
#[derive(Default)]
pub struct Notes {
    pointer: bool,
    eased: Vec<(String, String)>,
}

/// A colour for glTF's base colour factor: straight sRGB (times the slot
/// colour) to linear light, alpha as it is, clamped into 0..1.
pub fn base_color(color: [f64; 4], slot: Color) -> [f64; 4] {
    let lin = |c: f64| {
        let c = if c.is_finite() { c.clamp(0.0, 1.0) } else { 0.0 };
        if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
    };
    let t = [color[0] * slot.r, color[1] * slot.g, color[2] * slot.b, color[3] * slot.a];
    [lin(t[0]), lin(t[1]), lin(t[2]), if t[3].is_finite() { t[3].clamp(0.0, 1.0) } else { 0.0 }]
}

/// The skin and clips `opts` name, sampled (clip 0: the setup pose).
fn clips(arm: &Armature, opts: &GltfOptions) -> Result<Vec<Clip>, GltfError> {
    let skin = match &opts.skin {
        None => SkinId(0),
        Some(name) => arm.skeleton.skin_by_name(name).ok_or_else(|| GltfError::UnknownSkin {
            name: name.clone(),
            known: arm.skeleton.skins.iter().map(|s| s.name.clone()).collect(),
        })?,
    };
    let ids: Vec<AnimId> = match &opts.anim {
        Some(name) => {
            vec![arm.animation_by_name(name).ok_or_else(|| GltfError::UnknownAnimation {
                name: name.clone(),
                known: arm.animations.iter().map(|a| a.name.clone()).collect(),
            })?]
        }
        None => (0..arm.animations.len()).map(AnimId::from_index).collect(),
    };
    let setup = Plan::new(arm, &[], None)?;
    let mut out = vec![Clip {
        id: None,
        name: "setup".into(),
        samples: sample(arm, &setup, skin)?,
        plan: setup,
        skin,
    }];
    for id in ids {
        let Some(a) = arm.animation(id) else { continue };
        let plan = Plan::new(arm, &[id], Some(a.fps))?;
        out.push(Clip {
            id: Some(id),
            name: a.name.clone(),
            samples: sample(arm, &plan, skin)?,
            plan,
            skin,
        });
    }
    Ok(out)
}

/// The bones an export with `opts` keys from their world matrices, and why
/// (the editor lists them before exporting).
pub fn baking(arm: &Armature, opts: &GltfOptions) -> Result<Vec<(String, String)>, GltfError> {
    let clips = clips(arm, opts)?;
    Ok(baked(&bones::bone_nodes(arm, &clips)))
}

fn baked(bones: &[bones::BoneNode]) -> Vec<(String, String)> {
    bones.iter().filter_map(|b| b.baked.as_ref().map(|r| (b.name.clone(), r.clone()))).collect()
}

/// Builds the glTF document of `arm` (in memory; nothing is written). A
/// picture that cannot be read is left out with a warning.
pub fn export(
    arm: &Armature,
    opts: &GltfOptions,
    pictures: &mut dyn PictureSource,
) -> Result<Gltf, GltfError> {
    let clips = clips(arm, opts)?;
    let mut warnings = Vec::new();
    let bones = bones::bone_nodes(arm, &clips);
    let mut cache = crate::render::RenderCache::new(".");
    pictures.prepare(&mut cache);
    let meshes = attach::meshes(arm, &clips, clips[0].skin, &mut cache, &mut warnings);
    let mut pics = Vec::new();
    for name in attach::pictures(&meshes) {
        match pictures.picture(&name) {
            Ok(p) => pics.push((name, p)),
            Err(why) => warnings.push(format!("picture `{name}` left out: {why}")),
        }
    }
    let mut doc = doc::Doc::default();
    let mut lay = doc.skeleton(&bones, &meshes, &clips);
    let mesh_nodes = doc.attachment_meshes(&meshes, &mut lay, &clips, &pics, arm);
    let ex = Export { arm, clips: &clips, bones: &bones, meshes: &meshes };
    let mut notes = Notes::default();
    for ci in 1..clips.len() {
        anim::animation(&mut doc, &ex, ci, &lay, &mut notes);
    }
    let baked = baked(&bones);
    for (name, reason) in &baked {
        warnings.push(format!("bone `{name}`: keyed at every frame ({reason})"));
    }
    // Once per bone, naming its animations.
    let mut eased: Vec<(&str, Vec<&str>)> = Vec::new();
    for (anim, bone) in &notes.eased {
        match eased.iter_mut().find(|(b, _)| b == bone) {
            Some((_, anims)) => anims.push(anim),
            None => eased.push((bone, vec![anim])),
        }
    }
    for (bone, anims) in eased {
        let anims: Vec<String> = anims.iter().map(|a| format!("`{a}`")).collect();
        warnings.push(format!(
            "bone `{bone}`: eased keys in {} are keyed at every frame (glTF has straight lines and steps only)",
            anims.join(", ")
        ));
    }
    if notes.pointer {
        warnings.push("slot colours are keyed with KHR_animation_pointer, which some players ignore (three.js without a plugin, Unity's glTFast before 6.x, Bevy): there the colours stay as in the setup pose".into());
    }
    let json = assemble(doc, lay.root, &mesh_nodes, notes.pointer);
    let (json, bin) = json;
    Ok(Gltf { json, bin, warnings, baked })
}

/// The top-level document.
fn assemble(doc: doc::Doc, root: usize, mesh_nodes: &[usize], pointer: bool) -> (Value, Vec<u8>) {
    let mut used = vec!["KHR_materials_unlit"];
    if pointer {
        used.push("KHR_animation_pointer");
    }
    let mut scene_nodes = vec![root];
    scene_nodes.extend_from_slice(mesh_nodes);
    let mut j = json!({
        "asset": { "version": "2.0", "generator": concat!("skelpad ", env!("CARGO_PKG_VERSION")) },
        "extensionsUsed": used,
        "scene": 0,
        "scenes": [{ "name": "skelpad", "nodes": scene_nodes }],
        "nodes": doc.nodes,
    });
    let mut put = |k: &str, v: Vec<Value>| {
        if !v.is_empty() {
            j[k] = Value::Array(v);
        }
    };
    put("meshes", doc.meshes);
    put("skins", doc.skins);
    put("materials", doc.materials);
    put("images", doc.images.clone());
    put("textures", doc.textures);
    put("animations", doc.animations);
    put("accessors", doc.buffer.accessors);
    put("bufferViews", doc.buffer.views);
    if !doc.images.is_empty() {
        j["samplers"] =
            json!([{ "magFilter": 9729, "minFilter": 9987, "wrapS": 33071, "wrapT": 33071 }]);
    }
    if !doc.buffer.bytes.is_empty() {
        j["buffers"] = json!([{ "byteLength": doc.buffer.bytes.len() }]);
    }
    (j, doc.buffer.bytes)
}

/// The file's bytes in `container`.
pub fn encode(g: &Gltf, container: Container) -> Result<Vec<u8>, GltfError> {
    match container {
        Container::Glb => buffer::glb(&g.json, &g.bin).map_err(GltfError::Cannot),
        Container::Gltf => {
            let mut j = g.json.clone();
            if !g.bin.is_empty() {
                j["buffers"][0]["uri"] =
                    json!(buffer::data_uri("application/octet-stream", &g.bin));
            }
            serde_json::to_vec_pretty(&j).map_err(|e| GltfError::Cannot(e.to_string()))
        }
    }
}

/// Exports to `out` atomically: built ([`Stage::Animations`]), encoded and
/// written ([`Stage::Writing`]); cancelling stops it before it writes.
pub fn export_file(
    arm: &Armature,
    opts: &GltfOptions,
    pictures: &mut dyn PictureSource,
    container: Container,
    out: &std::path::Path,
    progress: &Progress,
) -> Result<Gltf, GltfError> {
    progress.start(Stage::Animations, 1);
    progress.check()?;
    let g = export(arm, opts, pictures)?;
    progress.start(Stage::Writing, 1);
    progress.check()?;
    let bytes = encode(&g, container)?;
    progress.check()?;
    skelpad_lang::io::write_atomic(out, &bytes)?;
    progress.set(1, 1);
    Ok(g)
}
