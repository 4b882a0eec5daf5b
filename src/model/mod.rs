//! The armature model: one shape of data for the language, the importers and
//! the exporters.
//!
//! Everything is addressed by typed indices (`BoneId`, `SlotId`, …) into the
//! vectors of [`Skeleton`]; names exist for people and file formats, never for
//! lookups at run time. Bones are stored parents first, so one pass in index
//! order can accumulate transforms.

#[allow(missing_docs, reason = "issue 9: the IK types still need doc comments (the `ik` helper is changing them)")]
mod ik;
mod math;
mod mesh;
mod physics;
pub mod spriter;

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
            /// The index as a `usize`, for indexing vectors.
            pub fn index(self) -> usize {
                self.0 as usize
            }
            /// The id of an index (saturating at `u32::MAX`, which no vector reaches).
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
    /// The animation called `name`, if any.
    pub fn animation_by_name(&self, name: &str) -> Option<AnimId> {
        self.animations.iter().position(|a| a.name == name).map(AnimId::from_index)
    }

    /// The animation with this id, if any.
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
    /// live in the skins.
    pub attachments: Vec<AttachmentSlotName>,
    /// Skin 0 is the default skin (the skeleton section itself). Every skin
    /// holds one entry per attachment, in [`Skeleton::attachments`] order.
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
    /// The bone with this id (panics on an id of another skeleton).
    pub fn bone(&self, id: BoneId) -> &Bone {
        &self.bones[id.index()]
    }

    /// The slot with this id (panics on an id of another skeleton).
    pub fn slot(&self, id: SlotId) -> &Slot {
        &self.slots[id.index()]
    }

    /// The bone with this full dotted name, if any.
    pub fn bone_by_name(&self, name: &str) -> Option<BoneId> {
        self.bones.iter().position(|b| b.name == name).map(BoneId::from_index)
    }

    /// The slot with this full name, if any.
    pub fn slot_by_name(&self, name: &str) -> Option<SlotId> {
        self.slots.iter().position(|s| s.name == name).map(SlotId::from_index)
    }

    /// The skin called `name`, if any.
    pub fn skin_by_name(&self, name: &str) -> Option<SkinId> {
        self.skins.iter().position(|s| s.name == name).map(SkinId::from_index)
    }

    /// The full name `BONE.SLOT.ATT` of an attachment.
    pub fn attachment_full_name(&self, id: AttachmentId) -> String {
        let a = &self.attachments[id.index()];
        format!("{}.{}", self.slots[a.slot.index()].name, a.name)
    }

    /// The attachment of `slot` with short name `name`, if any.
    pub fn find_attachment(&self, slot: SlotId, name: &str) -> Option<AttachmentId> {
        self.attachments.iter().position(|a| a.slot == slot && a.name == name).map(AttachmentId::from_index)
    }

    /// The contents of an attachment as the given skin shows it.
    pub fn attachment(&self, skin: SkinId, id: AttachmentId) -> Option<&Attachment> {
        self.skins.get(skin.index()).and_then(|s| s.attachments.get(id.index()))
    }
}

/// A bone's local transform: what the setup pose holds and animations change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoneTransform {
    /// Position along the parent's x axis.
    pub x: f64,
    /// Position along the parent's y axis (y up).
    pub y: f64,
    /// Counterclockwise, normalized into [-π, π].
    pub rotation_rad: f64,
    /// Scale along the bone's own x axis.
    pub scale_x: f64,
    /// Scale along the bone's own y axis.
    pub scale_y: f64,
    /// Mirrored along x (`flip-x`).
    pub flip_x: bool,
    /// Mirrored along y (`flip-y`).
    pub flip_y: bool,
}

impl Default for BoneTransform {
    fn default() -> Self {
        BoneTransform { x: 0.0, y: 0.0, rotation_rad: 0.0, scale_x: 1.0, scale_y: 1.0, flip_x: false, flip_y: false }
    }
}

/// A bone of the skeleton: a frame that children, slots and path points follow.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// Full dotted name, e.g. `arm.hand`.
    pub name: String,
    /// `None` for a root bone; otherwise a bone stored before this one.
    pub parent: Option<BoneId>,
    /// The local transform of the setup pose.
    pub setup: BoneTransform,
    /// How long the bone is drawn (along its x axis).
    pub length: f64,
    /// The color the bone is drawn in.
    pub color: Color,
    /// Accumulate the parent's rotation (`no-rot` clears it).
    pub inherit_rotation: bool,
    /// Accumulate the parent's scale (`no-scale` clears it).
    pub inherit_scale: bool,
}

impl Bone {
    /// The last segment of the dotted name.
    pub fn short_name(&self) -> &str {
        self.name.rsplit('.').next().unwrap_or(&self.name)
    }
}

/// A place on a bone that shows one attachment at a time.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// Full name `BONE.SLOT`.
    pub name: String,
    /// The bone the slot hangs on.
    pub bone: BoneId,
    /// Multiplies everything the slot shows.
    pub color: Color,
    /// The attachment shown in the setup pose (the first one defined).
    pub attachment: Option<AttachmentId>,
}

/// Which slot an attachment belongs to and its short name.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachmentSlotName {
    /// The slot the attachment belongs to.
    pub slot: SlotId,
    /// Its short name (unique within the slot).
    pub name: String,
}

/// A set of attachment contents (skin 0 is the default skin).
#[derive(Clone, Debug, PartialEq)]
pub struct Skin {
    /// The skin's name.
    pub name: String,
    /// One entry per attachment, in [`Skeleton::attachments`] order.
    pub attachments: Vec<Attachment>,
}

/// An attachment's transform relative to its slot's bone: `T(x,y)·R(r)·S(i,j)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttachmentTransform {
    /// Position along the slot bone's x axis.
    pub x: f64,
    /// Position along the slot bone's y axis.
    pub y: f64,
    /// Counterclockwise rotation.
    pub rotation_rad: f64,
    /// Scale along x (`i`).
    pub scale_x: f64,
    /// Scale along y (`j`).
    pub scale_y: f64,
}

impl Default for AttachmentTransform {
    fn default() -> Self {
        AttachmentTransform { x: 0.0, y: 0.0, rotation_rad: 0.0, scale_x: 1.0, scale_y: 1.0 }
    }
}

impl AttachmentTransform {
    /// `T(x, y) · R(rotation) · S(scale_x, scale_y)`.
    pub fn matrix(&self) -> Affine {
        Affine::trs(self.x, self.y, self.rotation_rad, self.scale_x, self.scale_y)
    }
}

/// What a slot can show, as one skin defines it.
#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    /// Where it sits on the slot's bone.
    pub transform: AttachmentTransform,
    /// What it draws.
    pub kind: AttachmentKind,
}

impl Attachment {
    /// An attachment that draws nothing, untransformed.
    pub fn none() -> Self {
        Attachment { transform: AttachmentTransform::default(), kind: AttachmentKind::None }
    }
}

/// What an attachment draws.
#[derive(Clone, Debug, PartialEq)]
pub enum AttachmentKind {
    /// Draws nothing (also what a skin uses to hide an attachment).
    None,
    /// An image at its pixel size with its pivot on the attachment origin.
    Sprite {
        /// The image's name as written (`None`: no image given, nothing drawn).
        image: Option<String>,
        /// The point of the image at the attachment origin, in fractions of
        /// its width and height from its bottom-left corner: `[0.5, 0.5]`
        /// (centered) in the language, Spriter's pivot for its files.
        pivot: [f64; 2],
    },
    /// Centered on the origin; corner radius is clamped to half of each side when drawn.
    Rect {
        /// Width.
        width: f64,
        /// Height.
        height: f64,
        /// Radius of rounded corners (0: square).
        corner_radius: f64,
        /// Fill and stroke.
        style: ShapeStyle,
    },
    /// Centered on the origin.
    Ellipse {
        /// Radius along x.
        radius_x: f64,
        /// Radius along y.
        radius_y: f64,
        /// Fill and stroke.
        style: ShapeStyle,
    },
    /// Centered on the origin.
    Circle {
        /// Radius.
        radius: f64,
        /// Fill and stroke.
        style: ShapeStyle,
    },
    /// A path whose points may follow other bones.
    Path {
        /// Its points and segments.
        path: BoundPath,
        /// Fill and stroke.
        style: ShapeStyle,
    },
    /// A textured triangle mesh whose vertices may follow other bones.
    Mesh(Box<Mesh>),
}

impl AttachmentKind {
    /// The type's name as scripts write it after `:` (`mesh` and `none` have none there).
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

    /// The fill and stroke of a shape (`None` for sprites, meshes and nothing).
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

/// How a stroke turns a corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineJoin {
    /// A sharp corner, beveled past the miter limit.
    Miter,
    /// The corner cut off straight.
    Bevel,
    /// A round corner.
    Round,
}

/// How an open stroke ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineCap {
    /// Flat, at the end point.
    Butt,
    /// Flat, half the width past the end point.
    Square,
    /// A half circle around the end point.
    Round,
}

/// Fill and stroke of a shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeStyle {
    /// 0 means fill only.
    pub stroke_width: f64,
    /// Miter joins longer than this many half widths are beveled.
    pub miter_limit: f64,
    /// Fill color (closed outlines).
    pub fill: Color,
    /// Stroke color.
    pub stroke: Color,
    /// How the stroke turns corners.
    pub join: LineJoin,
    /// How open strokes end.
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
    /// The bone whose space the point is in.
    pub bone: BoneId,
    /// x in that space.
    pub x: f64,
    /// y in that space.
    pub y: f64,
}

/// A segment of a path, from the previous point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathSegment {
    /// A straight line to the point.
    LineTo(BoundPoint),
    /// A quadratic curve: control point, end point.
    QuadTo(BoundPoint, BoundPoint),
    /// A cubic curve: two control points, end point.
    CubicTo(BoundPoint, BoundPoint, BoundPoint),
}

/// One subpath whose points may be bound to different bones. The attachment
/// transform applies on top, in the space of the slot's bone.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundPath {
    /// The first point.
    pub start: BoundPoint,
    /// The segments after it, in order.
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
    /// Constant speed (`li`).
    Linear,
    /// Starts slow (`si`).
    SineIn,
    /// Ends slow (`so`).
    SineOut,
    /// Starts and ends slow (`sio`).
    SineInOut,
}

impl Easing {
    /// Progress (0..1) at `t` in 0..1.
    pub fn apply(self, t: f64) -> f64 {
        use std::f64::consts::{FRAC_PI_2, PI};
        match self {
            Easing::Linear => t,
            Easing::SineIn => 1.0 - (FRAC_PI_2 + t * FRAC_PI_2).sin(),
            Easing::SineOut => (t * FRAC_PI_2).sin(),
            Easing::SineInOut => 0.5 + 0.5 * (t * PI - FRAC_PI_2).sin(),
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

    /// The easing a script's short name stands for.
    pub fn from_code(code: &str) -> Option<Easing> {
        Some(match code {
            "li" => Easing::Linear,
            "si" => Easing::SineIn,
            "so" => Easing::SineOut,
            "sio" => Easing::SineInOut,
            _ => return None,
        })
    }

    /// Every easing, in the order of [`Easing::code`]'s table.
    pub const ALL: [Easing; 4] = [Easing::Linear, Easing::SineIn, Easing::SineOut, Easing::SineInOut];
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
        /// x of the first control point (time).
        x1: f64,
        /// y of the first control point (progress).
        y1: f64,
        /// x of the second control point (time).
        x2: f64,
        /// y of the second control point (progress).
        y2: f64,
    },
    /// Spriter's polynomial and bezier curves, as SpriterPlusPlus computes them.
    Spriter(SpriterCurve),
}

impl Curve {
    /// Straight to the next key.
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
    /// When, in seconds from the animation's start.
    pub time_secs: f64,
    /// The value at that time.
    pub value: T,
    /// The way to the next key.
    pub curve: Curve,
}

/// Numeric bone properties an animation can drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoneProperty {
    /// Local x.
    X,
    /// Local y.
    Y,
    /// Radians.
    Rotation,
    /// Scale along x.
    ScaleX,
    /// Scale along y.
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

/// The keys of one numeric property of one bone.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneChannel {
    /// The bone.
    pub bone: BoneId,
    /// The property.
    pub property: BoneProperty,
    /// How values combine with the setup value.
    pub mode: ValueMode,
    /// Keys by time.
    pub keys: Vec<Key<f64>>,
}

/// An axis of a bone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// The x axis.
    X,
    /// The y axis.
    Y,
}

/// A stepped flip timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct FlipChannel {
    /// The bone.
    pub bone: BoneId,
    /// Which flip.
    pub axis: Axis,
    /// Keys by time (`true`: flipped).
    pub keys: Vec<Key<bool>>,
}

/// A channel of a color.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColorComponent {
    /// Red.
    R,
    /// Green.
    G,
    /// Blue.
    B,
    /// Alpha.
    A,
}

/// An absolute slot color component.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotColorChannel {
    /// The slot.
    pub slot: SlotId,
    /// Which channel of its color.
    pub component: ColorComponent,
    /// Keys by time (0..1).
    pub keys: Vec<Key<f64>>,
}

/// A stepped attachment switch; `None` shows nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachmentChannel {
    /// The slot.
    pub slot: SlotId,
    /// Keys by time.
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

/// An animation: channels of keys over a skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// Its name (unique in the armature).
    pub name: String,
    /// Frames per second: always a positive number ([`Animation::empty`]
    /// cleans it, so readers never check it again).
    pub fps: f64,
    /// The latest key time; playback loops over [0, duration).
    pub duration_secs: f64,
    /// How rotation keys are interpolated.
    pub angle_interpolation: AngleInterpolation,
    /// Numeric bone channels.
    pub bones: Vec<BoneChannel>,
    /// Flip channels.
    pub flips: Vec<FlipChannel>,
    /// Slot color channels.
    pub slot_colors: Vec<SlotColorChannel>,
    /// Attachment switches.
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
        }
    }

    /// Recomputes `duration_secs` from the keys.
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
        self.duration_secs = d;
    }

    /// Times of every key of every channel, sorted and without repeats.
    /// With `bone`, only keys of channels of that bone and its slots.
    pub fn key_times(&self, skeleton: &Skeleton, bone: Option<BoneId>) -> Vec<f64> {
        let bone_ok = |b: BoneId| bone.is_none_or(|x| x == b);
        let slot_ok = |s: SlotId| bone.is_none_or(|x| skeleton.slots.get(s.index()).is_some_and(|sl| sl.bone == x));
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
