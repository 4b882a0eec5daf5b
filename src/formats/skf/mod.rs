//! SkelForm's `.skf` format: a zip holding `armature.json`, atlas PNGs,
//! `thumbnail.png`, `readme.md` and optionally `editor.json`.
//!
//! The types here mirror `armature.json` field for field. They serialize
//! every field (SkelForm's Rust runtime fills a missing field with zero, so a
//! missing scale would collapse a bone) and deserialize leniently with the
//! defaults of SkelForm's file-structure document, because SkelForm's own
//! editor leaves out fields that hold their default.
//!
//! Where SkelForm's document and its programs disagree on a name, both names
//! are written: bones carry `inverse_kinematics_id` (document) and
//! `ik_family_id` (editor and runtime); binds carry `id` (document) and
//! `bone_id` (editor and runtime).

#![allow(missing_docs, reason = "issue 9: public items here still need doc comments")]

pub mod convert;
pub mod export;
pub mod fit;
mod ik;
pub mod import;
pub mod mesh;
pub mod pictures;
pub mod read;
pub mod sim;
pub mod write;

/// Whether a path names a SkelForm file (by its extension).
pub fn is_skf(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("skf"))
}

use serde::{Deserialize, Serialize};

/// The version string written into `armature.json`. SkelForm's editor runs
/// old-format migrations when the string contains "0.2" … "0.5".
pub const VERSION: &str = "0.7.0";

/// A 2D vector of floats. Every number in the file is an `f32`, as in
/// SkelForm's programs, so what the exporter checks is what a runtime reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Vec2 {
    #[serde(default)]
    pub x: f32,
    #[serde(default)]
    pub y: f32,
}

impl Vec2 {
    pub const fn new(x: f32, y: f32) -> Self {
        Vec2 { x, y }
    }
    pub const ONE: Vec2 = Vec2 { x: 1.0, y: 1.0 };
}

/// A 2D vector of integer pixels (texture rectangles, atlas sizes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IVec2 {
    #[serde(default)]
    pub x: u32,
    #[serde(default)]
    pub y: u32,
}

/// A tint with channels 0..1 (SkelForm's code; its document says 0–255).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Tint {
    pub r: f32,
    pub g: f32,
    pub b: f32,
    pub a: f32,
}

impl Default for Tint {
    fn default() -> Self {
        Tint::WHITE
    }
}

impl Tint {
    pub const WHITE: Tint = Tint { r: 1.0, g: 1.0, b: 1.0, a: 1.0 };
}

/// An 8-bit color (`clear_color`; the editor stores it as bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Rgba8 {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

/// `armature.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfArmature {
    pub version: String,
    pub baked_ik: bool,
    pub img_format: String,
    pub clear_color: Rgba8,
    /// Parents before children; `id` is the array position.
    pub bones: Vec<SkfBone>,
    pub animations: Vec<SkfAnimation>,
    pub atlases: Vec<SkfAtlas>,
    pub styles: Vec<SkfStyle>,
    pub inverse_kinematics: Vec<SkfInverseKinematics>,
    pub visuals: Vec<SkfVisual>,
    pub physics: Vec<SkfPhysics>,
}

impl Default for SkfArmature {
    fn default() -> Self {
        SkfArmature {
            version: String::new(),
            baked_ik: false,
            img_format: "PNG".into(),
            clear_color: Rgba8::default(),
            bones: Vec::new(),
            animations: Vec::new(),
            atlases: Vec::new(),
            styles: Vec::new(),
            inverse_kinematics: Vec::new(),
            visuals: Vec::new(),
            physics: Vec::new(),
        }
    }
}

/// A bone. `pos`, `rot` (radians, counterclockwise) and `scale` are local to
/// the parent in SkelForm's model (see [`sim`]); the `init_*` fields hold the
/// same values and are what runtimes reset un-animated fields to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfBone {
    pub id: u32,
    pub name: String,
    pub pos: Vec2,
    pub rot: f32,
    pub scale: Vec2,
    pub parent_id: i32,
    /// The texture of the bone's visual, "" without one (document field; the
    /// editor and runtimes read the visual's).
    pub tex: String,
    pub zindex: i32,
    pub hidden: bool,
    pub tint: Tint,
    pub inverse_kinematics_id: i32,
    pub ik_family_id: i32,
    pub visuals_id: i32,
    pub physics_id: i32,
    pub init_pos: Vec2,
    pub init_rot: f32,
    pub init_scale: Vec2,
    pub init_hidden: bool,
}

impl Default for SkfBone {
    fn default() -> Self {
        SkfBone {
            id: 0,
            name: String::new(),
            pos: Vec2::default(),
            rot: 0.0,
            scale: Vec2::ONE,
            parent_id: -1,
            tex: String::new(),
            zindex: 0,
            hidden: false,
            tint: Tint::WHITE,
            inverse_kinematics_id: -1,
            ik_family_id: -1,
            visuals_id: -1,
            physics_id: -1,
            init_pos: Vec2::default(),
            init_rot: 0.0,
            init_scale: Vec2::ONE,
            init_hidden: false,
        }
    }
}

/// What a bone draws: a texture, or a mesh when `vertices` is not empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfVisual {
    pub tex: String,
    pub zindex: i32,
    pub tint: Tint,
    pub vertices: Vec<SkfVertex>,
    /// Three vertex ids per triangle.
    pub indices: Vec<u32>,
    pub binds: Vec<SkfBind>,
    /// Offset of the texture's center from the bone, in texture sizes.
    pub pivot_pos: Vec2,
    pub pivot_scale: Vec2,
    pub pivot_rot: f32,
    pub init_tex: String,
    pub init_tint: Tint,
    pub init_zindex: i32,
}

impl Default for SkfVisual {
    fn default() -> Self {
        SkfVisual {
            tex: String::new(),
            zindex: 0,
            tint: Tint::WHITE,
            vertices: Vec::new(),
            indices: Vec::new(),
            binds: Vec::new(),
            pivot_pos: Vec2::default(),
            pivot_scale: Vec2::ONE,
            pivot_rot: 0.0,
            init_tex: String::new(),
            init_tint: Tint::WHITE,
            init_zindex: 0,
        }
    }
}

/// A mesh vertex; `pos` is in the space of the bones it is bound to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfVertex {
    pub id: u32,
    pub pos: Vec2,
    /// 0..1 across the texture, y down.
    pub uv: Vec2,
    pub init_pos: Vec2,
}

/// Vertices bound to one bone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfBind {
    /// The bound bone (document name).
    pub id: i32,
    /// The bound bone (the name the editor and runtimes read).
    pub bone_id: i32,
    pub is_path: bool,
    pub verts: Vec<SkfBindVert>,
}

impl Default for SkfBind {
    fn default() -> Self {
        SkfBind { id: -1, bone_id: -1, is_path: false, verts: Vec::new() }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfBindVert {
    pub id: u32,
    pub weight: f32,
}

impl Default for SkfBindVert {
    fn default() -> Self {
        SkfBindVert { id: 0, weight: 1.0 }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfAnimation {
    pub id: u32,
    pub name: String,
    pub fps: u32,
    /// Sorted by frame: runtimes stop reading at the first keyframe past the
    /// current frame.
    pub keyframes: Vec<SkfKeyframe>,
}

/// One animated number (or string, for `Texture`) of one bone at one frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfKeyframe {
    pub frame: u32,
    pub bone_id: u32,
    pub element: String,
    pub value: f32,
    pub value_str: String,
    /// Index of the next keyframe of the same bone and element, -1 to hold.
    pub next_kf: i32,
    /// The timing curve *into* this keyframe: cubic bezier control points on
    /// 0..1 (x time, y progress); both y = 999 is a step.
    pub start_handle: Vec2,
    pub end_handle: Vec2,
}

impl Default for SkfKeyframe {
    fn default() -> Self {
        SkfKeyframe {
            frame: 0,
            bone_id: 0,
            element: String::new(),
            value: 0.0,
            value_str: String::new(),
            next_kf: -1,
            start_handle: Vec2::new(0.333, 0.333),
            end_handle: Vec2::new(0.666, 0.666),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfAtlas {
    pub filename: String,
    pub size: IVec2,
}

/// A named set of textures; runtimes look a texture up through the active
/// styles in order, first match wins.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfStyle {
    pub id: u32,
    pub name: String,
    pub textures: Vec<SkfTexture>,
}

/// A rectangle of an atlas, in pixels from its top-left corner.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfTexture {
    pub name: String,
    pub offset: IVec2,
    pub size: IVec2,
    pub atlas_idx: u32,
}

/// Inverse kinematics of one family (skelpad writes the families of `ik`
/// sections that play alike, see `ik.rs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfInverseKinematics {
    pub family_id: i32,
    pub constraint: String,
    pub mode: String,
    pub target_id: i32,
    pub bone_ids: Vec<u32>,
    pub mimic_target: bool,
    pub init_constraint: String,
    pub init_mode: String,
    pub init_mimic_target: bool,
}

impl Default for SkfInverseKinematics {
    fn default() -> Self {
        SkfInverseKinematics {
            family_id: -1,
            constraint: "None".into(),
            mode: "FABRIK".into(),
            target_id: -1,
            bone_ids: Vec::new(),
            mimic_target: false,
            init_constraint: "None".into(),
            init_mode: "FABRIK".into(),
            init_mimic_target: false,
        }
    }
}

/// Physics of one bone (skelpad writes one unused entry when it writes IK
/// families, see `ik.rs`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfPhysics {
    pub global_pos: Vec2,
    pub global_scale: Vec2,
    pub global_rot: f32,
    pub pos_damping: f32,
    pub scale_damping: f32,
    pub rot_damping: f32,
    pub pos_ratio: f32,
    pub scale_ratio: f32,
    pub global_orbit: f32,
    pub global_orbit_diff: f32,
    pub global_orbit_vel: f32,
    pub sway: f32,
    pub rot_bounce: f32,
}

/// The animatable elements skelpad writes, as `armature.json` names them.
pub mod element {
    pub const POSITION_X: &str = "PositionX";
    pub const POSITION_Y: &str = "PositionY";
    pub const ROTATION: &str = "Rotation";
    pub const SCALE_X: &str = "ScaleX";
    pub const SCALE_Y: &str = "ScaleY";
    /// The editor's and document's name; `rusty_skelform` 0.8 matches "Tex".
    pub const TEXTURE: &str = "Texture";
    pub const TINT: [&str; 4] = ["TintR", "TintG", "TintB", "TintA"];
}
