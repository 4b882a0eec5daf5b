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

/// The frame rate an animation is written at: SkelForm counts whole frames
/// (at least one per second). `fps` is a cleaned rate ([`skelpad_lang::model::clean_fps`]).
pub(crate) fn whole_fps(fps: f64) -> f64 {
    fps.round().max(1.0)
}

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
    /// Horizontal component (positions: +x right; 0 when missing).
    #[serde(default)]
    pub x: f32,
    /// Vertical component (positions: +y up in SkelForm's world; 0 when missing).
    #[serde(default)]
    pub y: f32,
}

impl Vec2 {
    /// The vector `(x, y)`.
    pub const fn new(x: f32, y: f32) -> Self {
        Vec2 { x, y }
    }
    /// `(1, 1)`: the identity scale, what a missing bone or pivot scale means.
    pub const ONE: Vec2 = Vec2 { x: 1.0, y: 1.0 };
}

/// A 2D vector of integer pixels (texture rectangles, atlas sizes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct IVec2 {
    /// Pixels to the right (a column, or a width).
    #[serde(default)]
    pub x: u32,
    /// Pixels down from the top (a row, or a height).
    #[serde(default)]
    pub y: u32,
}

/// A tint with channels 0..1 (SkelForm's code; its document says 0–255).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Tint {
    /// Red multiplier, 0..1.
    pub r: f32,
    /// Green multiplier, 0..1.
    pub g: f32,
    /// Blue multiplier, 0..1.
    pub b: f32,
    /// Opacity multiplier, 0 (invisible) ..1 (opaque).
    pub a: f32,
}

impl Default for Tint {
    fn default() -> Self {
        Tint::WHITE
    }
}

impl Tint {
    /// No tint: every channel 1, the default when a tint is missing.
    pub const WHITE: Tint = Tint { r: 1.0, g: 1.0, b: 1.0, a: 1.0 };
}

/// An 8-bit color (`clear_color`; the editor stores it as bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Rgba8 {
    /// Red, 0..=255.
    pub r: u8,
    /// Green, 0..=255.
    pub g: u8,
    /// Blue, 0..=255.
    pub b: u8,
    /// Opacity, 0 (transparent) ..=255.
    pub a: u8,
}

/// `armature.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfArmature {
    /// The version of the editor that wrote the file; skelpad writes
    /// [`VERSION`]. SkelForm's editor fails on a file without one.
    pub version: String,
    /// Whether IK was already applied into the keyframes; runtimes then skip
    /// their own IK pass. skelpad writes `false` (it writes no IK families).
    pub baked_ik: bool,
    /// Image format of the atlases (`"PNG"`, the default; skelpad writes PNG).
    pub img_format: String,
    /// The color the atlases' unused pixels were cleared to (default
    /// transparent).
    pub clear_color: Rgba8,
    /// Parents before children; `id` is the array position.
    pub bones: Vec<SkfBone>,
    /// The animations (skelpad writes each one's `id` as its position).
    pub animations: Vec<SkfAnimation>,
    /// The atlas images in the zip; a texture's `atlas_idx` indexes this.
    pub atlases: Vec<SkfAtlas>,
    /// Texture sets; a bone's texture name is looked up through them.
    pub styles: Vec<SkfStyle>,
    /// IK families; a bone's `ik_family_id` indexes this.
    pub inverse_kinematics: Vec<SkfInverseKinematics>,
    /// What bones draw; a bone's `visuals_id` indexes this.
    pub visuals: Vec<SkfVisual>,
    /// Bone physics parameters and state; a bone's `physics_id` indexes this.
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
    /// The bone's index in [`SkfArmature::bones`]; runtimes index by it.
    pub id: u32,
    /// The bone's name as the editor shows it; names may repeat.
    pub name: String,
    /// Position relative to the parent, in the parent's scaled units (world
    /// units, +y up, for a root bone).
    pub pos: Vec2,
    /// Rotation relative to the parent, radians counterclockwise.
    pub rot: f32,
    /// Scale per axis relative to the parent (default `(1, 1)`; one negative
    /// axis mirrors the bone).
    pub scale: Vec2,
    /// Index of the parent bone, -1 for a root; must be lower than `id`
    /// (runtimes compose bones in one pass in array order).
    pub parent_id: i32,
    /// The texture of the bone's visual, "" without one (document field; the
    /// editor and runtimes read the visual's).
    pub tex: String,
    /// Drawing order of the bone's visual (document field; the editor and
    /// runtimes read the visual's): higher is drawn over lower.
    pub zindex: i32,
    /// Whether the bone draws nothing; SkelForm's editor and `rusty_skelform`
    /// 0.8 also hide every bone below a hidden one.
    pub hidden: bool,
    /// The bone's color tint (document field; the editor and runtimes read
    /// the visual's).
    pub tint: Tint,
    /// The IK family the bone belongs to, -1 for none (the document's name
    /// of `ik_family_id`, written with the same value).
    pub inverse_kinematics_id: i32,
    /// Index into [`SkfArmature::inverse_kinematics`] of the family the bone
    /// belongs to, -1 for none (the name the editor and runtimes read).
    pub ik_family_id: i32,
    /// Index into [`SkfArmature::visuals`] of what the bone draws, -1 for
    /// nothing.
    pub visuals_id: i32,
    /// Index into [`SkfArmature::physics`] of the bone's physics, -1 for none.
    pub physics_id: i32,
    /// `pos` before any animation; runtimes reset an un-keyed position to it.
    pub init_pos: Vec2,
    /// `rot` before any animation (radians).
    pub init_rot: f32,
    /// `scale` before any animation (default `(1, 1)`).
    pub init_scale: Vec2,
    /// `hidden` before any animation.
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
    /// Name of the texture to draw, looked up through the active styles;
    /// "" draws nothing. `Texture` keys change it.
    pub tex: String,
    /// Drawing order: higher is drawn over lower.
    pub zindex: i32,
    /// Color multiplied into the texture's pixels; `Tint*` keys animate it.
    pub tint: Tint,
    /// The mesh's vertices, indexed by their `id`; empty for a plain texture.
    pub vertices: Vec<SkfVertex>,
    /// Three vertex ids per triangle.
    pub indices: Vec<u32>,
    /// Bones that move the mesh's vertices, besides the owning bone.
    pub binds: Vec<SkfBind>,
    /// Offset of the texture's center from the bone, in texture sizes.
    pub pivot_pos: Vec2,
    /// Scale of the texture (or the mesh's vertices) on top of the bone's,
    /// default `(1, 1)` (the document says `(0, 0)`, which would collapse it).
    pub pivot_scale: Vec2,
    /// Rotation of the texture (or the mesh's vertices) on top of the bone's,
    /// radians counterclockwise.
    pub pivot_rot: f32,
    /// `tex` before any animation; runtimes reset an un-keyed texture to it.
    pub init_tex: String,
    /// `tint` before any animation.
    pub init_tint: Tint,
    /// `zindex` before any animation.
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
    /// The vertex's index in [`SkfVisual::vertices`]; triangles and binds
    /// name vertices by it.
    pub id: u32,
    /// Where the vertex is relative to its bone, before the bone's scale,
    /// the pivot's scale and rotation and the bone's rotation apply (+y up).
    pub pos: Vec2,
    /// 0..1 across the texture, y down.
    pub uv: Vec2,
    /// `pos` before any deformation; runtimes rebuild the posed vertex from it
    /// each frame.
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
    /// Whether the binds of the visual form one line that the vertices
    /// follow (each vertex keeps its distance to the line, turned with the
    /// line's normal), instead of weighted skinning.
    pub is_path: bool,
    /// The vertices this bone moves, with their weights.
    pub verts: Vec<SkfBindVert>,
}

impl Default for SkfBind {
    fn default() -> Self {
        SkfBind { id: -1, bone_id: -1, is_path: false, verts: Vec::new() }
    }
}

/// One vertex of a [`SkfBind`] and how strongly the bound bone moves it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfBindVert {
    /// The vertex's `id` in the visual.
    pub id: u32,
    /// Share of the bound bone's movement the vertex takes, default 1: a
    /// runtime adds `weight × (where this bone puts the vertex − where it is)`
    /// bind after bind.
    pub weight: f32,
}

impl Default for SkfBindVert {
    fn default() -> Self {
        SkfBindVert { id: 0, weight: 1.0 }
    }
}

/// One animation: keyframes on a timeline counted in whole frames.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfAnimation {
    /// The animation's id (skelpad writes its index in
    /// [`SkfArmature::animations`]).
    pub id: u32,
    /// The animation's name as the editor lists it.
    pub name: String,
    /// Frames per second; the animation lasts until its last keyframe's frame.
    pub fps: u32,
    /// Sorted by frame: runtimes stop reading at the first keyframe past the
    /// current frame.
    pub keyframes: Vec<SkfKeyframe>,
}

/// One animated number (or string, for `Texture`) of one bone at one frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfKeyframe {
    /// The frame the key sits on (frame 0 is the animation's start).
    pub frame: u32,
    /// Index of the animated bone in [`SkfArmature::bones`].
    pub bone_id: u32,
    /// What is animated, one of the names in [`element`] (or another
    /// element SkelForm knows, such as `Hidden` or `IkConstraint`).
    pub element: String,
    /// The element's value at this frame (radians for `Rotation`, 0..1 for
    /// tints, 1 for true in boolean elements).
    pub value: f32,
    /// The value of a text element (`Texture`: a texture name); "" otherwise.
    pub value_str: String,
    /// Index of the next keyframe of the same bone and element, -1 to hold.
    pub next_kf: i32,
    /// The timing curve *into* this keyframe: cubic bezier control points on
    /// 0..1 (x time, y progress); both y = 999 is a step.
    pub start_handle: Vec2,
    /// The second control point of that curve (default `(0.666, 0.666)`;
    /// with the default first one, a straight line).
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

/// One atlas image of the zip.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfAtlas {
    /// The image's name inside the zip (skelpad writes `atlas0.png`, …).
    pub filename: String,
    /// The image's width and height in pixels.
    pub size: IVec2,
}

/// A named set of textures; runtimes look a texture up through the active
/// styles in order, first match wins.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfStyle {
    /// The style's id (skelpad writes its index in [`SkfArmature::styles`]).
    pub id: u32,
    /// The style's name as the editor shows it.
    pub name: String,
    /// The textures this style provides, by name.
    pub textures: Vec<SkfTexture>,
}

/// A rectangle of an atlas, in pixels from its top-left corner.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfTexture {
    /// The name visuals and `Texture` keys use.
    pub name: String,
    /// The rectangle's top-left corner in the atlas.
    pub offset: IVec2,
    /// The rectangle's width and height; also the texture's size in world
    /// units when drawn at scale 1.
    pub size: IVec2,
    /// Index into [`SkfArmature::atlases`] of the image holding the pixels.
    pub atlas_idx: u32,
}

/// Inverse kinematics of one family (skelpad writes the families of `ik`
/// sections that play alike, see `ik.rs`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkfInverseKinematics {
    /// The family's own id, -1 by default (runtimes look families up by
    /// the bones' `ik_family_id`, not by this).
    pub family_id: i32,
    /// Which way the chain may bend: `"None"`, `"Clockwise"` or
    /// `"CounterClockwise"`; `IkConstraint` keys change it.
    pub constraint: String,
    /// The solver: `"FABRIK"` (iterative, any chain length) or `"Arc"`.
    pub mode: String,
    /// Index of the bone the chain's tip reaches for, -1 for none (the family
    /// is then skipped).
    pub target_id: i32,
    /// The chain's bones from its root to its tip.
    pub bone_ids: Vec<u32>,
    /// Whether the chain's last bone takes the target's rotation.
    pub mimic_target: bool,
    /// `constraint` before any animation.
    pub init_constraint: String,
    /// `mode` before any animation.
    pub init_mode: String,
    /// `mimic_target` before any animation.
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
    /// Simulation state: the world position the bone has lagged to, which
    /// replaces its animated one.
    pub global_pos: Vec2,
    /// Simulation state: the world scale the bone has lagged to.
    pub global_scale: Vec2,
    /// Simulation state: the world rotation the bone has lagged to (radians).
    pub global_rot: f32,
    /// How slowly the position follows the animation: larger lags more, 0
    /// turns position physics off.
    pub pos_damping: f32,
    /// How slowly the scale follows the animation, 0 for off.
    pub scale_damping: f32,
    /// How slowly the rotation follows: each frame it closes 1/`rot_damping`
    /// of the gap, 0 for off.
    pub rot_damping: f32,
    /// -1..1: below 0 the y damping is weakened by `|ratio|`, above 0 the x
    /// damping by `ratio`.
    pub pos_ratio: f32,
    /// -1..1, as `pos_ratio` for the scale damping.
    pub scale_ratio: f32,
    /// Simulation state: the angle (radians) the bone has swung to around its
    /// parent.
    pub global_orbit: f32,
    /// Simulation state: how far the actual angle to the parent is from
    /// `global_orbit`; the orbit is offset by it while swaying.
    pub global_orbit_diff: f32,
    /// Simulation state: the orbit's last step, carried into the next when
    /// `rot_bounce` is above 0.
    pub global_orbit_vel: f32,
    /// How much the bone swings around its parent when the parent moves, 0
    /// for off.
    pub sway: f32,
    /// 0..1: how much a swing overshoots and wobbles (0: none).
    pub rot_bounce: f32,
}

/// The animatable elements skelpad writes, as `armature.json` names them.
pub mod element {
    /// The bone's local x position.
    pub const POSITION_X: &str = "PositionX";
    /// The bone's local y position (+y up).
    pub const POSITION_Y: &str = "PositionY";
    /// The bone's local rotation, radians counterclockwise.
    pub const ROTATION: &str = "Rotation";
    /// The bone's local x scale.
    pub const SCALE_X: &str = "ScaleX";
    /// The bone's local y scale.
    pub const SCALE_Y: &str = "ScaleY";
    /// The editor's and document's name; `rusty_skelform` 0.8 matches "Tex".
    pub const TEXTURE: &str = "Texture";
    /// The visual's tint channels red, green, blue, alpha (values 0..1).
    pub const TINT: [&str; 4] = ["TintR", "TintG", "TintB", "TintA"];
}
