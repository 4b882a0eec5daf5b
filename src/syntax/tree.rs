//! The syntax tree of one top-level section. It holds what the text says
//! (valid items only, with spans relative to the section start); what was
//! malformed is in the section's diagnostics instead.

#![allow(missing_docs, reason = "issue 9: public items here still need doc comments")]

use super::diag::{Diagnostic, Span};
use super::role::TokenRole;
use crate::model::{Color, Easing, LineCap, LineJoin};

/// A value and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// One parsed top-level section.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    pub kind: SectionKind,
    /// The header line (the whole first line).
    pub header: Span,
    /// Problems found while parsing, relative to the section start.
    pub diagnostics: Vec<Diagnostic>,
    /// The role of every token of the section (comments included), sorted
    /// by position, relative to the section start.
    pub roles: Vec<TokenRole>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SectionKind {
    Skeleton(SkeletonSection),
    Skin(SkinSection),
    Order(OrderSection),
    Anim(AnimSection),
    /// `expect "ANIM" FRAME ~TOL`: pose assertions (LANGUAGE-EXT.md).
    Expect(ExpectSection),
    /// `ik`: inverse kinematics families (LANGUAGE-EXT.md).
    Ik(IkSection),
    /// Starts no section (bad header, leading spaces, or indented lines at
    /// the top): everything in it is ignored.
    Ignored,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct SkeletonSection {
    /// Default color of bones that have none.
    pub color: Option<Color>,
    pub bones: Vec<BoneLine>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BoneLine {
    /// Full dotted path.
    pub path: Spanned<String>,
    /// In the order written; later ones overwrite earlier ones.
    pub props: Vec<Spanned<BoneProp>>,
    pub slots: Vec<SlotLine>,
    /// The whole line (without its indentation).
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BoneProp {
    Length(f64),
    /// Degrees.
    Rotation(f64),
    X(f64),
    Y(f64),
    ScaleX(f64),
    ScaleY(f64),
    Color(Color),
    FlipX,
    FlipY,
    NoRotation,
    NoScale,
}

/// `@[SLOT][\[ATT\]] <slot-token>* [:TYPE <attachment-token>*]` under a bone.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotLine {
    pub span: Span,
    /// `None`: the bone's last segment.
    pub slot: Option<Spanned<String>>,
    /// `None`: the slot name.
    pub attachment: Option<Spanned<String>>,
    /// `false` when the attachment name is `skeleton` (the slot is still made).
    pub attachment_valid: bool,
    /// Slot colors in the order written (the last wins).
    pub colors: Vec<Color>,
    pub spec: AttachmentSpec,
    /// Path command lines under this slot line.
    pub commands: Vec<PathCommandLine>,
}

/// The attachment type written after `:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeName {
    Sprite,
    Rect,
    Circle,
    Ellipse,
    Path,
    /// Not a type of the language (kept so redefinitions compare like the
    /// original, which stored whatever followed `:`).
    Unknown(String),
}

impl TypeName {
    /// The types of the language, in the order messages list them.
    pub const KNOWN: [TypeName; 5] = [TypeName::Sprite, TypeName::Rect, TypeName::Circle, TypeName::Ellipse, TypeName::Path];

    pub fn parse(s: &str) -> TypeName {
        match TypeName::KNOWN.into_iter().find(|k| k.as_str() == s) {
            Some(k) => k,
            None => TypeName::Unknown(s.to_string()),
        }
    }

    /// The name as written after `:`.
    pub fn as_str(&self) -> &str {
        match self {
            TypeName::Sprite => "sprite",
            TypeName::Rect => "rect",
            TypeName::Circle => "circle",
            TypeName::Ellipse => "ellipse",
            TypeName::Path => "path",
            TypeName::Unknown(s) => s,
        }
    }

    pub fn is_shape(&self) -> bool {
        matches!(self, TypeName::Rect | TypeName::Circle | TypeName::Ellipse | TypeName::Path)
    }
}

/// `:TYPE` and the attachment tokens after it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct AttachmentSpec {
    pub ty: Option<Spanned<TypeName>>,
    /// Valid for the type, in the order written.
    pub props: Vec<Spanned<AttachmentProp>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AttachmentProp {
    Image(String),
    Width(f64),
    Height(f64),
    X(f64),
    Y(f64),
    /// Degrees.
    Rotation(f64),
    ScaleX(f64),
    ScaleY(f64),
    StrokeWidth(f64),
    MiterLimit(f64),
    Fill(Color),
    Stroke(Color),
    Join(LineJoin),
    Cap(LineCap),
    /// `d`: circle diameter or rect corner diameter.
    Diameter(f64),
}

/// A path point and the bone reference written with it.
#[derive(Clone, Debug, PartialEq)]
pub struct PointLit {
    pub x: f64,
    pub y: f64,
    pub bone: Option<Spanned<String>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PathCommand {
    Move(PointLit),
    Line(PointLit),
    Quad(PointLit, PointLit),
    Cubic(PointLit, PointLit, PointLit),
    Close,
    /// `: BONEREF` switches the default bone of the following points.
    Switch(Spanned<String>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct PathCommandLine {
    pub command: PathCommand,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SkinSection {
    pub name: Spanned<String>,
    pub items: Vec<SkinItem>,
}

/// `@SLOTREF[\[ATT\]] [:TYPE <attachment-token>*]` in a skin.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinItem {
    pub span: Span,
    pub slot: Spanned<String>,
    /// `None`: the last segment of the slot reference.
    pub attachment: Option<Spanned<String>>,
    pub spec: AttachmentSpec,
    pub commands: Vec<PathCommandLine>,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct OrderSection {
    pub entries: Vec<Spanned<String>>,
}

/// Frame, step and easing defaults.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Opts {
    pub frame: Option<f64>,
    pub step: Option<f64>,
    pub easing: Option<Easing>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AnimSection {
    /// `""` when the header has no name.
    pub name: Spanned<String>,
    pub fps: Option<f64>,
    pub opts: Opts,
    pub items: Vec<AnimItem>,
}

/// `BONEREF [OPTS]` or `@SLOTREF [OPTS]`.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimItem {
    pub target: Spanned<String>,
    pub is_slot: bool,
    pub opts: Opts,
    pub timelines: Vec<TimelineLine>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimelineProp {
    X,
    Y,
    Rotation,
    ScaleX,
    ScaleY,
    FlipX,
    FlipY,
    Attachment,
    Color,
    R,
    G,
    B,
    A,
}

impl TimelineProp {
    pub fn for_bone(c: &str) -> Option<TimelineProp> {
        Some(match c {
            "x" => TimelineProp::X,
            "y" => TimelineProp::Y,
            "r" => TimelineProp::Rotation,
            "i" => TimelineProp::ScaleX,
            "j" => TimelineProp::ScaleY,
            "s" => TimelineProp::FlipX,
            "t" => TimelineProp::FlipY,
            _ => return None,
        })
    }

    pub fn for_slot(c: &str) -> Option<TimelineProp> {
        Some(match c {
            "@" => TimelineProp::Attachment,
            "c" => TimelineProp::Color,
            "r" => TimelineProp::R,
            "g" => TimelineProp::G,
            "b" => TimelineProp::B,
            "a" => TimelineProp::A,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct TimelineLine {
    pub prop: Spanned<TimelineProp>,
    pub commands: Vec<Spanned<TimelineCommand>>,
    pub span: Span,
}

/// A value pushed by a timeline.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyValue {
    Number(f64),
    Bool(bool),
    Name(String),
    Color(Color),
}

/// One command of a timeline (LANGUAGE.md §5.1).
#[derive(Clone, Debug, PartialEq)]
pub enum TimelineCommand {
    /// Sets the frame if later than the current one.
    SetFrame(f64),
    AdvanceFrames(f64),
    SetStep(f64),
    SetEasing(Easing),
    AdvanceSteps(u32),
    Push(KeyValue),
    PushAdd(f64),
    PushMul(f64),
    BeginLoop,
    /// Total iterations (0 discards the body's keys).
    EndLoop(f64),
}

/// `expect ["ANIM"] [FRAME] [~TOL]` and its lines: what the pose of an
/// animation (or the setup pose, without a name) must be at a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectSection {
    /// `None`: the setup pose.
    pub anim: Option<Spanned<String>>,
    pub frame: f64,
    /// Default tolerance of the section's checks.
    pub tolerance: f64,
    pub lines: Vec<ExpectLine>,
}

/// `BONEREF [local] [X,Y] xNUM yNUM rNUM iNUM jNUM [~TOL]` or
/// `@SLOTREF rNUM gNUM bNUM aNUM [~TOL]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectLine {
    pub span: Span,
    pub target: Spanned<String>,
    pub is_slot: bool,
    /// Compare the local transform instead of world values.
    pub local: bool,
    /// A point in the bone's space whose world position `x`/`y` check.
    pub point: Option<(f64, f64)>,
    pub checks: Vec<Spanned<(ExpectProp, f64)>>,
    pub tolerance: Option<f64>,
}

/// A value an expectation checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpectProp {
    X,
    Y,
    /// Degrees.
    Rotation,
    ScaleX,
    ScaleY,
    Red,
    Green,
    Blue,
    Alpha,
}

/// The most parents `up N` may climb.
pub const MAX_IK_UP: u32 = 64;
/// The most bones one IK chain may hold.
pub const MAX_IK_CHAIN: usize = MAX_IK_UP as usize + 1;

/// `ik` and its lines: inverse kinematics families (LANGUAGE-EXT.md).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct IkSection {
    pub lines: Vec<IkLine>,
}

/// How far up from the tip an IK chain goes.
#[derive(Clone, Debug, PartialEq)]
pub enum IkReach {
    /// `up N`: the tip and N parents above it.
    Up(Spanned<u32>),
    /// `from BONEREF`: the tip and its parents up to this bone.
    From(Spanned<String>),
}

/// `TIPREF to TARGETREF (up N | from ROOTREF) [fabrik|arc] [cw|ccw]`.
#[derive(Clone, Debug, PartialEq)]
pub struct IkLine {
    /// The whole line.
    pub span: Span,
    /// The chain's last bone: its origin reaches for the target.
    pub tip: Spanned<String>,
    pub target: Spanned<String>,
    pub reach: IkReach,
    pub mode: crate::model::IkMode,
    pub bend: crate::model::IkConstraint,
}
