//! The armature model: one shape of data for the language, the importers and
//! the exporters.
//!
//! Everything is addressed by typed indices (`BoneId`, `SlotId`, …) into the
//! vectors of [`Skeleton`]; names exist for people and file formats, never for
//! lookups at run time. Bones are stored parents first, so one pass in index
//! order can accumulate transforms.

mod ik;
mod math;
mod mesh;
mod physics;
pub mod spriter;
mod timing;
pub mod trig;

use std::sync::Arc;

pub use ik::{IkConstraint, IkFamily, IkMode};
pub use math::{Affine, Color, DAffine2, DVec2, lerp, lerp_angle, normalize_angle};
pub use mesh::{Mesh, MeshBind, MeshVertex};
pub use physics::{BonePhysics, PhysicsReads, PhysicsState};
pub use spriter::{BoneAlphaChannel, ParentChannel, SpriterCurve, SpriterCurveKind};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// The position in the vector this id indexes.
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// The id of the item at `index`; an index beyond `u32` becomes
            /// `u32::MAX`, which indexes nothing (lookups fail, never wrap).
            pub fn from_index(index: usize) -> Self {
                Self(u32::try_from(index).unwrap_or(u32::MAX))
            }
        }
    };
}

id_type!(
    /// Index into [`Skeleton::bones`].
    BoneId
);
id_type!(
    /// Index into [`Skeleton::slots`].
    SlotId
);
id_type!(
    /// Index into [`Skeleton::attachments`] and into every skin's attachment list.
    AttachmentId
);
id_type!(
    /// Index into [`Skeleton::skins`]; skin 0 is the default skin.
    SkinId
);
impl Default for SkinId {
    /// The default skin.
    fn default() -> Self {
        SkinId(0)
    }
}

id_type!(
    /// Index into [`Armature::animations`].
    AnimId
);

/// A rig and its animations.
#[derive(Clone, Debug, Default)]
pub struct Armature {
    /// Bones, slots, attachments, skins and draw order. Shared so that
    /// recompiling an animation does not copy the rig.
    pub skeleton: Arc<Skeleton>,
    /// Animations in order of first definition.
    pub animations: Vec<Arc<Animation>>,
}

impl Armature {
    /// The first animation whose name is exactly `name`.
    pub fn animation_by_name(&self, name: &str) -> Option<AnimId> {
        self.animations.iter().position(|a| a.name == name).map(AnimId::from_index)
    }

    /// The animation `id`, or `None` when no animation has that index.
    pub fn animation(&self, id: AnimId) -> Option<&Animation> {
        self.animations.get(id.index()).map(|a| &**a)
    }
}

/// Everything about a rig except its animations.
#[derive(Clone, Debug, Default)]
pub struct Skeleton {
    /// Parents always come before their children.
    pub bones: Vec<Bone>,
    /// In definition order.
    pub slots: Vec<Slot>,
    /// Names of attachments (which slot, which short name); their contents
    /// are in `contents` and the skins.
    pub attachments: Vec<AttachmentSlotName>,
    /// What every attachment shows in the default skin, in
    /// [`Skeleton::attachments`] order.
    pub contents: Vec<Attachment>,
    /// Skin 0 is the default skin (the skeleton section itself, which
    /// replaces nothing); each other skin holds what it shows instead of
    /// `contents` for some attachments ([`Skeleton::attachment`] looks it up).
    pub skins: Vec<Skin>,
    /// Slots back to front.
    pub draw_order: Vec<SlotId>,
    /// How children follow their parents.
    pub composition: Composition,
    /// Inverse kinematics, applied after the local transforms (imports).
    pub ik: Vec<IkFamily>,
    /// Bone physics (imports); a pose then depends on the frames before it.
    pub physics: Vec<BonePhysics>,
    /// Which bones a physics step reads (SkelForm's programs differ).
    pub physics_reads: PhysicsReads,
}

/// How a child's world transform follows its parent's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Composition {
    /// The language's full affine inheritance (LANGUAGE.md §6).
    #[default]
    Affine,
    /// SkelForm's editor (`inheritance` in its `src/renderer.rs`): world =
    /// position, rotation and per-axis scale, no shear; a child's rotation
    /// adds the parent's, its scale multiplies the parent's, its position is
    /// scaled by the parent's scale, turned by the parent's rotation and
    /// added to the parent's position. Evaluated by `runtime::skelform`.
    SkelForm,
    /// Spriter's rule (SpriterPlusPlus objectref/transformprocessor.cpp):
    /// as SkelForm's, except that the angle turns the other way under a
    /// mirrored parent and alpha multiplies down the tree; parents may
    /// change during an animation (`Animation::parents`).
    Spriter,
}

impl Skeleton {
    /// The bone `id`.
    ///
    /// # Panics
    /// When `id` is not an index into [`Skeleton::bones`].
    pub fn bone(&self, id: BoneId) -> &Bone {
        &self.bones[id.index()]
    }

    /// The slot `id`.
    ///
    /// # Panics
    /// When `id` is not an index into [`Skeleton::slots`].
    pub fn slot(&self, id: SlotId) -> &Slot {
        &self.slots[id.index()]
    }

    /// The bone whose full dotted name is exactly `name` (the language's
    /// suffix references are resolved by the compiler, not here).
    pub fn bone_by_name(&self, name: &str) -> Option<BoneId> {
        self.bones.iter().position(|b| b.name == name).map(BoneId::from_index)
    }

    /// The slot whose full name `BONE.SLOT` is exactly `name`.
    pub fn slot_by_name(&self, name: &str) -> Option<SlotId> {
        self.slots.iter().position(|s| s.name == name).map(SlotId::from_index)
    }

    /// The skin named `name`; the compiler and the importers name skin 0
    /// `default`.
    pub fn skin_by_name(&self, name: &str) -> Option<SkinId> {
        self.skins.iter().position(|s| s.name == name).map(SkinId::from_index)
    }

    /// The full name `BONE.SLOT.ATT` of an attachment.
    ///
    /// # Panics
    /// When `id` (or its slot) is out of range.
    pub fn attachment_full_name(&self, id: AttachmentId) -> String {
        let a = &self.attachments[id.index()];
        format!("{}.{}", self.slots[a.slot.index()].name, a.name)
    }

    /// The attachment of `slot` with short name `name`, if any.
    pub fn find_attachment(&self, slot: SlotId, name: &str) -> Option<AttachmentId> {
        self.attachments
            .iter()
            .position(|a| a.slot == slot && a.name == name)
            .map(AttachmentId::from_index)
    }

    /// The contents of an attachment as the given skin shows it (`None` for
    /// a skin or an attachment that does not exist).
    pub fn attachment(&self, skin: SkinId, id: AttachmentId) -> Option<&Attachment> {
        let s = self.skins.get(skin.index())?;
        s.replacement(id).or_else(|| self.contents.get(id.index()))
    }

    /// What `skin` shows differently from the default skin, by attachment
    /// (its replacements that equal the default contents left out): what a
    /// `skin` section written for it lists.
    pub fn skin_changes<'a>(
        &'a self,
        skin: &'a Skin,
    ) -> impl Iterator<Item = (AttachmentId, &'a Attachment)> + 'a {
        skin.replaced
            .iter()
            .filter(|(id, shown)| self.contents.get(id.index()) != Some(shown))
            .map(|(id, shown)| (*id, shown))
    }
}

/// A bone's local transform: what the setup pose holds and animations change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneTransform {
    /// Position of the bone's origin along its parent's x axis, in the
    /// parent's units (world units for a root; one unit is one pixel of a
    /// sprite drawn at scale 1).
    pub x: f64,
    /// Position of the bone's origin along its parent's y axis (y up).
    pub y: f64,
    /// Radians, counterclockwise, relative to the parent's accumulated
    /// rotation (unless the bone does not inherit it). The language and the
    /// Spriter importer normalize it into [-π, π]; SkelForm's values are kept
    /// as the file has them.
    pub rotation_rad: f64,
    /// Scale factor along the bone's own x axis (its length direction).
    pub scale_x: f64,
    /// Scale factor along the bone's own y axis.
    pub scale_y: f64,
    /// `flip-x`: the bone's frame is mirrored in x (F = diag(−1, 1) in
    /// LANGUAGE.md §6). Only [`Composition::Affine`] reads it.
    pub flip_x: bool,
    /// `flip-y`: the bone's frame is mirrored in y (F = diag(1, −1) in
    /// LANGUAGE.md §6). Only [`Composition::Affine`] reads it.
    pub flip_y: bool,
}

impl Default for BoneTransform {
    fn default() -> Self {
        BoneTransform {
            x: 0.0,
            y: 0.0,
            rotation_rad: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            flip_x: false,
            flip_y: false,
        }
    }
}

/// One bone of the rig: a coordinate frame that slots hang on and that
/// animations move.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Full dotted name, e.g. `arm.hand`.
    pub name: String,
    /// The bone this one's transform is relative to (`None` for a root).
    /// Always an earlier index than the bone itself.
    pub parent: Option<BoneId>,
    /// The local transform of the setup pose; channels start from it.
    pub setup: BoneTransform,
    /// Length along the bone's x axis, in its own units. Only drawn (the
    /// render overlay skips bones shorter than 10, LANGUAGE.md §7; the
    /// editor outlines it); it moves nothing. SkelForm bones have none (0).
    pub length: f64,
    /// Color of the bone in the overlay (drawn at 70 % alpha).
    pub color: Color,
    /// Accumulate the parent's rotation (`no-rot` clears it). Only
    /// [`Composition::Affine`] reads it; the other rules always inherit.
    pub inherit_rotation: bool,
    /// Accumulate the parent's scale (`no-scale` clears it). Only
    /// [`Composition::Affine`] reads it; the other rules always inherit.
    pub inherit_scale: bool,
}

impl Bone {
    /// The last segment of the dotted name.
    pub fn short_name(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(&self.name)
    }
}

/// A place on a bone that shows one attachment at a time, drawn at its
/// position in the draw order.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// Full name `BONE.SLOT`.
    pub name: String,
    /// The bone whose world frame the slot's attachments are placed in.
    pub bone: BoneId,
    /// Multiplies everything the slot shows.
    pub color: Color,
    /// The attachment shown in the setup pose (the first one defined).
    pub attachment: Option<AttachmentId>,
}

/// Which slot an attachment belongs to and its short name.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachmentSlotName {
    /// The slot the attachment belongs to; only that slot can show it.
    pub slot: SlotId,
    /// Short name, unique within its slot (`ATT` of `BONE.SLOT.ATT`); what
    /// attachment timelines and skins refer to.
    pub name: String,
}

/// One set of attachment contents: what each attachment looks like when
/// this skin is active. A skin holds only what it replaces; every other
/// attachment shows the default contents ([`Skeleton::contents`]), so a skin
/// costs what it changes, not a copy of every attachment.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Skin {
    /// Name from `skin "NAME"` (or the imported file); skin 0 is `default`.
    pub name: String,
    /// The attachments this skin shows differently, with their contents:
    /// sorted by attachment, each at most once (empty for the default skin).
    pub replaced: Vec<(AttachmentId, Attachment)>,
}

impl Skin {
    /// A skin named `name` that replaces nothing.
    pub fn named(name: impl Into<String>) -> Skin {
        Skin { name: name.into(), replaced: Vec::new() }
    }

    /// A skin named `name` from the contents it gives every attachment:
    /// those that differ from `default` are kept (one list per skin, as
    /// importers read them).
    pub fn from_full(
        name: impl Into<String>,
        full: Vec<Attachment>,
        default: &[Attachment],
    ) -> Skin {
        let replaced = full
            .into_iter()
            .enumerate()
            .filter(|(i, a)| default.get(*i) != Some(a))
            .map(|(i, a)| (AttachmentId::from_index(i), a))
            .collect();
        Skin { name: name.into(), replaced }
    }

    /// What this skin shows instead of the default contents of `id`, if it
    /// replaces them.
    pub fn replacement(&self, id: AttachmentId) -> Option<&Attachment> {
        self.replaced.binary_search_by_key(&id, |(a, _)| *a).ok().map(|i| &self.replaced[i].1)
    }
}

/// An attachment's transform relative to its slot's bone: `T(x,y)·R(r)·S(i,j)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttachmentTransform {
    /// Offset along the bone's x axis, in the bone's units.
    pub x: f64,
    /// Offset along the bone's y axis (y up).
    pub y: f64,
    /// Radians, counterclockwise, relative to the bone.
    pub rotation_rad: f64,
    /// Scale factor along the attachment's own x axis.
    pub scale_x: f64,
    /// Scale factor along the attachment's own y axis.
    pub scale_y: f64,
}

impl Default for AttachmentTransform {
    fn default() -> Self {
        AttachmentTransform { x: 0.0, y: 0.0, rotation_rad: 0.0, scale_x: 1.0, scale_y: 1.0 }
    }
}

impl AttachmentTransform {
    /// The matrix `T(x,y)·R(r)·S(i,j)` that takes attachment space into the
    /// bone's space; the attachment's world matrix is the bone's world
    /// matrix times this.
    pub fn matrix(&self) -> Affine {
        Affine::trs(self.x, self.y, self.rotation_rad, self.scale_x, self.scale_y)
    }
}

/// What an attachment looks like in one skin.
#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    /// Placement relative to the slot's bone.
    pub transform: AttachmentTransform,
    /// What is drawn, in attachment space.
    pub kind: AttachmentKind,
}

impl Attachment {
    /// An attachment that draws nothing, at the identity transform (what an
    /// importer puts in a skin that has no picture for an attachment).
    pub fn none() -> Self {
        Attachment { transform: AttachmentTransform::default(), kind: AttachmentKind::None }
    }
}

/// The kind of an attachment and its geometry. Sizes are in attachment
/// space (scaled with the bone and the attachment transform).
#[derive(Clone, Debug, PartialEq)]
pub enum AttachmentKind {
    /// Draws nothing (also what a skin uses to hide an attachment).
    None,
    /// An image at its pixel size with its pivot on the attachment origin.
    Sprite {
        /// The picture's name: for scripts a path relative to the script's
        /// folder; for imports the name the importer gave the picture
        /// (Spriter's file path, a SkelForm texture). `None` when the script
        /// named none: nothing is drawn and the renderer warns.
        image: Option<String>,
        /// The point of the image at the attachment origin, in fractions of
        /// its width and height from its bottom-left corner: `[0.5, 0.5]`
        /// (centered) in the language, Spriter's pivot for its files.
        pivot: [f64; 2],
    },
    /// Centered on the origin; corner radius is clamped to half of each side when drawn.
    Rect {
        /// Full width along x (`w`).
        width: f64,
        /// Full height along y (`h`).
        height: f64,
        /// Radius of the rounded corners: half the written diameter `d`.
        corner_radius: f64,
        /// Fill and stroke.
        style: ShapeStyle,
    },
    /// An ellipse centered on the origin, axes along x and y.
    Ellipse {
        /// Half the written width `w`.
        radius_x: f64,
        /// Half the written height `h`.
        radius_y: f64,
        /// Fill and stroke.
        style: ShapeStyle,
    },
    /// A circle centered on the origin.
    Circle {
        /// Half the written diameter `d`.
        radius: f64,
        /// Fill and stroke.
        style: ShapeStyle,
    },
    /// A path whose points may follow several bones (LANGUAGE.md §2.3).
    Path {
        /// The subpath and the bones its points are bound to.
        path: BoundPath,
        /// Fill (closed paths only) and stroke.
        style: ShapeStyle,
    },
    /// A textured triangle mesh whose vertices may follow other bones.
    Mesh(Box<Mesh>),
}

impl AttachmentKind {
    /// The language's `:TYPE` word for this kind (`none`, `sprite`, `rect`,
    /// `ellipse`, `circle`, `path`), or `mesh` for imported meshes; shown in
    /// reports and by the language server.
    pub fn type_name(&self) -> &'static str {
        match self {
            AttachmentKind::None => "none",
            AttachmentKind::Sprite { .. } => "sprite",
            AttachmentKind::Rect { .. } => "rect",
            AttachmentKind::Ellipse { .. } => "ellipse",
            AttachmentKind::Circle { .. } => "circle",
            AttachmentKind::Path { .. } => "path",
            AttachmentKind::Mesh(_) => "mesh",
        }
    }

    /// Fill and stroke of a shape; `None` for the kinds that draw an image
    /// or nothing.
    pub fn style(&self) -> Option<&ShapeStyle> {
        match self {
            AttachmentKind::Rect { style, .. }
            | AttachmentKind::Ellipse { style, .. }
            | AttachmentKind::Circle { style, .. }
            | AttachmentKind::Path { style, .. } => Some(style),
            AttachmentKind::None | AttachmentKind::Sprite { .. } | AttachmentKind::Mesh(_) => None,
        }
    }
}

/// How a stroke turns a corner (as in SVG and the HTML canvas).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineJoin {
    /// The outer edges are extended to a point, cut to a bevel when longer
    /// than [`ShapeStyle::miter_limit`] (`miter-join`, the default).
    Miter,
    /// The outer corners are joined by a straight edge (`bevel-join`).
    Bevel,
    /// The corner is rounded with half the stroke width (`round-join`).
    Round,
}

/// How a stroke ends at the two ends of an open path (closed outlines have no
/// ends, so only paths use it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineCap {
    /// Ends exactly at the end point (`butt-cap`, the default).
    Butt,
    /// Goes on past the end point by half the stroke width, square (`square-cap`).
    Square,
    /// A half disc around the end point (`round-cap`).
    Round,
}

/// Fill and stroke of a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeStyle {
    /// Width of the stroke, centered on the outline, in world units (the
    /// renderer keeps the pen's width whatever the bones' scale); 0 means
    /// fill only. Default 1.
    pub stroke_width: f64,
    /// A miter join longer than this many stroke widths becomes a bevel
    /// (SVG's `stroke-miterlimit`; values below 1 count as 1). Default 10.
    pub miter_limit: f64,
    /// Fill color, multiplied by the slot color; only closed outlines are
    /// filled. Default opaque black.
    pub fill: Color,
    /// Stroke color, multiplied by the slot color. Default opaque black.
    pub stroke: Color,
    /// Corner style of the stroke.
    pub join: LineJoin,
    /// End style of the stroke on open paths.
    pub cap: LineCap,
}

impl Default for ShapeStyle {
    fn default() -> Self {
        ShapeStyle {
            stroke_width: 1.0,
            miter_limit: 10.0,
            fill: Color::BLACK,
            stroke: Color::BLACK,
            join: LineJoin::Miter,
            cap: LineCap::Butt,
        }
    }
}

/// A point in the space of a bone.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoundPoint {
    /// The bone whose world frame the point follows (the attachment's own
    /// bone unless the script names another).
    pub bone: BoneId,
    /// x in the bone's space, before the attachment transform applies.
    pub x: f64,
    /// y in the bone's space (y up).
    pub y: f64,
}

/// One drawing command of a path, from the end of the previous one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathSegment {
    /// `L p`: a straight line to the point.
    LineTo(BoundPoint),
    /// `Q c p`: a quadratic bezier with control point `c`, ending at `p`.
    QuadTo(BoundPoint, BoundPoint),
    /// `B c1 c2 p`: a cubic bezier with control points `c1`, `c2`, ending at `p`.
    CubicTo(BoundPoint, BoundPoint, BoundPoint),
}

/// One subpath whose points may be bound to different bones. The attachment
/// transform applies on top, in the space of the slot's bone.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundPath {
    /// Where the path begins: its `M` point, else `0,0` on the slot's bone.
    pub start: BoundPoint,
    /// The commands after the start, in order.
    pub segments: Vec<PathSegment>,
    /// Closed paths are filled; open ones are only stroked.
    pub closed: bool,
}

impl BoundPath {
    /// Every point of the path in order, start point first.
    pub fn points(&self) -> Vec<BoundPoint> {
        let mut out = vec![self.start];
        for seg in &self.segments {
            match *seg {
                PathSegment::LineTo(p) => out.push(p),
                PathSegment::QuadTo(c, p) => out.extend([c, p]),
                PathSegment::CubicTo(c1, c2, p) => out.extend([c1, c2, p]),
            }
        }
        out
    }

    /// Every bone a point of the path is bound to, without repeats.
    pub fn bones(&self) -> Vec<BoneId> {
        let mut out: Vec<BoneId> = Vec::new();
        for p in self.points() {
            if !out.contains(&p.bone) {
                out.push(p.bone);
            }
        }
        out
    }
}

/// Easing functions of the language (LANGUAGE.md §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Easing {
    /// `li`: `t`.
    Linear,
    /// `si`: `1 − sin(π/2 + t·π/2)`, slow start.
    SineIn,
    /// `so`: `sin(t·π/2)`, slow end.
    SineOut,
    /// `sio`: `0.5 + sin(t·π − π/2)/2`, slow start and end.
    SineInOut,
}

impl Easing {
    /// Progress at `t` (0..1 between two keys): 0 at `t = 0`, 1 at `t = 1`.
    pub fn apply(self, t: f64) -> f64 {
        use std::f64::consts::{FRAC_PI_2, PI};
        match self {
            Easing::Linear => t,
            Easing::SineIn => 1.0 - trig::sin(FRAC_PI_2 + t * FRAC_PI_2),
            Easing::SineOut => trig::sin(t * FRAC_PI_2),
            Easing::SineInOut => 0.5 + 0.5 * trig::sin(t * PI - FRAC_PI_2),
        }
    }

    /// The short name used in scripts.
    pub fn code(self) -> &'static str {
        match self {
            Easing::Linear => "li",
            Easing::SineIn => "si",
            Easing::SineOut => "so",
            Easing::SineInOut => "sio",
        }
    }

    /// The easing for its script code (`li`, `si`, `so`, `sio`); `None` for
    /// any other text.
    pub fn from_code(code: &str) -> Option<Easing> {
        Some(match code {
            "li" => Easing::Linear,
            "si" => Easing::SineIn,
            "so" => Easing::SineOut,
            "sio" => Easing::SineInOut,
            _ => return None,
        })
    }

    /// Every easing, in declaration order.
    pub const ALL: [Easing; 4] =
        [Easing::Linear, Easing::SineIn, Easing::SineOut, Easing::SineInOut];
}

/// How a key's value changes on the way to the next key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Curve {
    /// Shaped by an easing function.
    Eased(Easing),
    /// Holds the value until the next key.
    Stepped,
    /// A cubic bezier timing curve from (0,0) to (1,1) with these two control
    /// points (x in time, y in progress), as SkelForm and Spriter write them.
    Bezier {
        /// Time of the first control point, normally 0..1.
        x1: f64,
        /// Progress of the first control point; may leave 0..1 to overshoot.
        y1: f64,
        /// Time of the second control point, normally 0..1.
        x2: f64,
        /// Progress of the second control point.
        y2: f64,
    },
    /// Spriter's polynomial and bezier curves, as SpriterPlusPlus computes them.
    Spriter(SpriterCurve),
}

impl Curve {
    /// Straight from one key's value to the next's.
    pub const LINEAR: Curve = Curve::Eased(Easing::Linear);

    /// Progress (0..1, possibly beyond for overshooting beziers) at `t` in 0..1.
    pub fn progress(self, t: f64) -> f64 {
        match self {
            Curve::Eased(e) => e.apply(t),
            Curve::Stepped => 0.0,
            Curve::Bezier { x1, y1, x2, y2 } => bezier_progress(x1, y1, x2, y2, t),
            Curve::Spriter(c) => c.progress(t),
        }
    }
}

/// Solves x(s) = t on the timing bezier by Newton steps with a bisection
/// fallback, then returns y(s).
fn bezier_progress(x1: f64, y1: f64, x2: f64, y2: f64, t: f64) -> f64 {
    let coord = |p1: f64, p2: f64, s: f64| {
        let u = 1.0 - s;
        3.0 * u * u * s * p1 + 3.0 * u * s * s * p2 + s * s * s
    };
    let deriv = |p1: f64, p2: f64, s: f64| {
        let u = 1.0 - s;
        3.0 * u * u * p1 + 6.0 * u * s * (p2 - p1) + 3.0 * s * s * (1.0 - p2)
    };
    let t = t.clamp(0.0, 1.0);
    let mut s = t;
    for _ in 0..8 {
        let err = coord(x1, x2, s) - t;
        if err.abs() < 1e-9 {
            return coord(y1, y2, s);
        }
        let d = deriv(x1, x2, s);
        if d.abs() < 1e-9 {
            break;
        }
        s = (s - err / d).clamp(0.0, 1.0);
    }
    let (mut lo, mut hi) = (0.0, 1.0);
    s = t;
    for _ in 0..60 {
        let x = coord(x1, x2, s);
        if (x - t).abs() < 1e-12 {
            break;
        }
        if x < t {
            lo = s;
        } else {
            hi = s;
        }
        s = 0.5 * (lo + hi);
    }
    coord(y1, y2, s)
}

/// One key of a channel. Its curve shapes the way to the *next* key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key<T> {
    /// Seconds from the start of the animation (the language's frame / fps).
    /// A channel's keys are in increasing time order; sampling relies on it.
    pub time_secs: f64,
    /// The value the channel has at this time.
    pub value: T,
    /// How the value moves from this key to the next (unused on the last key
    /// and on stepped channels).
    pub curve: Curve,
}

/// Numeric bone properties an animation can drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoneProperty {
    /// [`BoneTransform::x`], in the parent's units.
    X,
    /// [`BoneTransform::y`], in the parent's units.
    Y,
    /// [`BoneTransform::rotation_rad`], radians counterclockwise.
    Rotation,
    /// [`BoneTransform::scale_x`], a factor.
    ScaleX,
    /// [`BoneTransform::scale_y`], a factor.
    ScaleY,
}

/// How a channel's values combine with the setup pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueMode {
    /// The language's rule: positions and rotation are added to the setup
    /// value, scales multiply it.
    RelativeToSetup,
    /// The value replaces the setup value (SkelForm and Spriter keys).
    Absolute,
}

/// How rotation keys are interpolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AngleInterpolation {
    /// Keys are wrapped into [-π, π] and each segment takes the shorter way round.
    Shortest,
    /// Plain linear interpolation of the numbers (SkelForm).
    Linear,
}

/// A numeric timeline of one property of one bone. Before its first key the
/// setup value holds; after its last key the last value does.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneChannel {
    /// The bone it moves.
    pub bone: BoneId,
    /// Which of the bone's local values it drives.
    pub property: BoneProperty,
    /// Whether the keys replace the setup value or are applied to it.
    pub mode: ValueMode,
    /// The keys, in the property's unit (an offset or a factor under
    /// [`ValueMode::RelativeToSetup`]).
    pub keys: Vec<Key<f64>>,
}

/// Which axis a flip mirrors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// [`BoneTransform::flip_x`] (script property `s`).
    X,
    /// [`BoneTransform::flip_y`] (script property `t`).
    Y,
}

/// A stepped flip timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct FlipChannel {
    /// The bone it flips.
    pub bone: BoneId,
    /// Which flag it sets.
    pub axis: Axis,
    /// The flag from each key's time on; it replaces the setup flag.
    pub keys: Vec<Key<bool>>,
}

/// One channel of a slot color (script properties `r g b a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColorComponent {
    /// [`Color::r`].
    R,
    /// [`Color::g`].
    G,
    /// [`Color::b`].
    B,
    /// [`Color::a`].
    A,
}

/// An absolute slot color component.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotColorChannel {
    /// The slot whose color it sets.
    pub slot: SlotId,
    /// Which channel of the color.
    pub component: ColorComponent,
    /// Values, normally 0..1, replacing that channel of the slot's color.
    pub keys: Vec<Key<f64>>,
}

/// A stepped attachment switch; `None` shows nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachmentChannel {
    /// The slot whose attachment it switches.
    pub slot: SlotId,
    /// The attachment shown from each key's time on (an attachment of this
    /// slot; the active skin gives its contents).
    pub keys: Vec<Key<Option<AttachmentId>>>,
}

/// The frame rate of an animation that does not give one (or gives one that
/// is not a positive number).
pub const DEFAULT_FPS: f64 = 20.0;

/// The latest frame a key may fall on (LANGUAGE-EXT.md): longer animations
/// are an error, so nothing that compiles asks for more frames than this.
pub const MAX_KEY_FRAME: f64 = 1_000_000.0;

/// `fps` if it is a positive number, else [`DEFAULT_FPS`].
pub fn clean_fps(fps: f64) -> f64 {
    if fps.is_finite() && fps > 0.0 { fps } else { DEFAULT_FPS }
}

/// What an event carries besides its name (LANGUAGE-EXT.md, "Events").
#[derive(Clone, Debug, PartialEq)]
pub enum EventPayload {
    /// Nothing.
    None,
    /// A whole number (32-bit, as in Spine and Spriter).
    Int(i32),
    /// A number.
    Float(f64),
    /// A string.
    Text(String),
}

/// A named event an animation fires at a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The event's name (`!NAME` in a script).
    pub name: String,
    /// The frame it fires at (the time is `frame / fps`).
    pub frame: f64,
    /// Seconds from the start of the animation.
    pub time_secs: f64,
    /// What it carries.
    pub payload: EventPayload,
}

/// One animation: timelines over the skeleton's bones and slots.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// Name from `anim "NAME"` (the empty string when none is written) or
    /// from the imported file.
    pub name: String,
    /// Frames per second: always a positive number ([`Animation::empty`]
    /// cleans it, so readers never check it again).
    pub fps: f64,
    /// The latest key time; playback loops over [0, duration).
    pub duration_secs: f64,
    /// How the rotation channels interpolate: the shorter way round for
    /// scripts, plainly for SkelForm and Spriter imports.
    pub angle_interpolation: AngleInterpolation,
    /// Numeric bone timelines (position, rotation, scale).
    pub bones: Vec<BoneChannel>,
    /// Stepped flip timelines.
    pub flips: Vec<FlipChannel>,
    /// Slot color timelines, one per slot and channel.
    pub slot_colors: Vec<SlotColorChannel>,
    /// Stepped attachment switches.
    pub attachments: Vec<AttachmentChannel>,
    /// Animated draw order (Spriter's mainline keys), stepped: the slots
    /// listed are drawn back to front and the others are hidden. Empty: the
    /// skeleton's draw order.
    pub draw_order: Vec<Key<Arc<[SlotId]>>>,
    /// Maps the playback time to the time the channels are sampled at
    /// (Spriter's mainline curves). Empty: the identity.
    pub time_warp: Vec<Key<f64>>,
    /// Bone alpha (Spriter), applied under [`Composition::Spriter`].
    pub bone_alpha: Vec<BoneAlphaChannel>,
    /// Parents that change (Spriter), applied under [`Composition::Spriter`].
    pub parents: Vec<ParentChannel>,
    /// Whether the file says the animation loops (`None`: the player decides).
    pub looping: Option<bool>,
    /// The events it fires, in time order (events at the same time in the
    /// order they were written).
    pub events: Vec<Event>,
    /// Per bone, seconds its bone and flip channels play late, wrapping
    /// around `[0, duration)` (`delay`/`chain` in a script), sorted by
    /// bone; each delay in `(0, duration)`.
    pub bone_delays: Vec<(BoneId, f64)>,
    /// Per slot, seconds its color and attachment channels play late, as
    /// [`Animation::bone_delays`] (`delay` on a slot item), sorted by slot.
    pub slot_delays: Vec<(SlotId, f64)>,
}

impl Animation {
    /// An animation without channels; a frame rate that is zero, negative or
    /// not a number becomes [`DEFAULT_FPS`].
    pub fn empty(name: &str, fps: f64) -> Self {
        Animation {
            name: name.to_string(),
            fps: clean_fps(fps),
            duration_secs: 0.0,
            angle_interpolation: AngleInterpolation::Shortest,
            bones: Vec::new(),
            flips: Vec::new(),
            slot_colors: Vec::new(),
            attachments: Vec::new(),
            draw_order: Vec::new(),
            time_warp: Vec::new(),
            bone_alpha: Vec::new(),
            parents: Vec::new(),
            looping: None,
            events: Vec::new(),
            bone_delays: Vec::new(),
            slot_delays: Vec::new(),
        }
    }

    /// Recomputes `duration_secs` as the latest key of the bone, flip, slot
    /// color and attachment channels and the latest event (0 without keys). The Spriter-only
    /// lists are not counted: its importer sets the duration from the file.
    pub fn update_duration(&mut self) {
        let mut d: f64 = 0.0;
        let last = |t: Option<f64>, d: &mut f64| {
            if let Some(t) = t {
                *d = d.max(t);
            }
        };
        for c in &self.bones {
            last(c.keys.last().map(|k| k.time_secs), &mut d);
        }
        for c in &self.flips {
            last(c.keys.last().map(|k| k.time_secs), &mut d);
        }
        for c in &self.slot_colors {
            last(c.keys.last().map(|k| k.time_secs), &mut d);
        }
        for c in &self.attachments {
            last(c.keys.last().map(|k| k.time_secs), &mut d);
        }
        last(self.events.last().map(|e| e.time_secs), &mut d);
        self.duration_secs = d;
    }

    /// Times of every key of every channel, sorted and without repeats.
    /// With `bone`, only keys of channels of that bone and its slots.
    pub fn key_times(&self, skeleton: &Skeleton, bone: Option<BoneId>) -> Vec<f64> {
        let bone_ok = |b: BoneId| bone.is_none_or(|x| x == b);
        let slot_ok = |s: SlotId| {
            bone.is_none_or(|x| skeleton.slots.get(s.index()).is_some_and(|sl| sl.bone == x))
        };
        let mut out: Vec<f64> = Vec::new();
        for c in self.bones.iter().filter(|c| bone_ok(c.bone)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        for c in self.flips.iter().filter(|c| bone_ok(c.bone)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        for c in self.slot_colors.iter().filter(|c| slot_ok(c.slot)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        for c in self.attachments.iter().filter(|c| slot_ok(c.slot)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        for c in self.bone_alpha.iter().filter(|c| bone_ok(c.bone)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        if bone.is_none() {
            out.extend(self.draw_order.iter().map(|k| k.time_secs));
        }
        out.sort_by(f64::total_cmp);
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn easings_start_at_zero_and_end_at_one() {
        for e in Easing::ALL {
            assert!(e.apply(0.0).abs() < 1e-12, "{e:?}");
            assert!((e.apply(1.0) - 1.0).abs() < 1e-12, "{e:?}");
            assert_eq!(Easing::from_code(e.code()), Some(e));
        }
        assert!((Easing::SineOut.apply(0.5) - (std::f64::consts::FRAC_PI_4).sin()).abs() < 1e-12);
    }

    #[test]
    fn easings_follow_their_formulas() {
        // LANGUAGE.md §5 with the standard library's sine, inside the key
        // span and beyond it (overshoot).
        use std::f64::consts::{FRAC_PI_2, PI};
        for i in -200..=1200 {
            let t = f64::from(i) / 1000.0;
            let spec = [
                t,
                1.0 - (FRAC_PI_2 + t * FRAC_PI_2).sin(),
                (t * FRAC_PI_2).sin(),
                0.5 + 0.5 * (t * PI - FRAC_PI_2).sin(),
            ];
            for (e, want) in Easing::ALL.into_iter().zip(spec) {
                assert!((e.apply(t) - want).abs() <= 2.0 * f64::EPSILON, "{e:?} at {t}");
            }
        }
    }

    #[test]
    fn linear_bezier_is_identity() {
        let c = Curve::Bezier { x1: 1.0 / 3.0, y1: 1.0 / 3.0, x2: 2.0 / 3.0, y2: 2.0 / 3.0 };
        for i in 0..=10 {
            let t = i as f64 / 10.0;
            assert!((c.progress(t) - t).abs() < 1e-9);
        }
        // An ease-in bezier stays below the diagonal.
        let ease_in = Curve::Bezier { x1: 0.42, y1: 0.0, x2: 1.0, y2: 1.0 };
        assert!(ease_in.progress(0.5) < 0.4);
    }
}
