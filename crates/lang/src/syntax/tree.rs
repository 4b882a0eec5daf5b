//! The syntax tree of one top-level section. It holds what the text says
//! (valid items only, with spans relative to the section start); what was
//! malformed is in the section's diagnostics instead.
//!
//! [`super::parse_section`] builds it; `compile` turns the trees of
//! all sections into the model. Every [`Span`] in here is a byte range
//! relative to the first byte of the section's text, not of the file.

use super::diag::{Diagnostic, Span};
use super::role::TokenRole;
use crate::model::{Color, Easing, LineCap, LineJoin};

/// A value and where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Spanned<T> {
    /// The value as parsed.
    pub node: T,
    /// The bytes it was read from, relative to the section start (for a
    /// name inside a token, only the name's bytes; for a quoted name, the
    /// token with its quotes).
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Pairs `node` with the section-relative `span` it was read from.
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// One parsed top-level section.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// What the header starts, with the section's parsed lines.
    pub kind: SectionKind,
    /// The header line (the whole first line).
    pub header: Span,
    /// Problems found while parsing, relative to the section start.
    pub diagnostics: Vec<Diagnostic>,
    /// The role of every token of the section (comments included), sorted
    /// by position, relative to the section start.
    pub roles: Vec<TokenRole>,
}

/// The kind of a section, chosen by its header's first word, and its parsed
/// content.
#[derive(Clone, Debug, PartialEq)]
pub enum SectionKind {
    /// `skeleton [COLOR]`: bones, slots and attachments (LANGUAGE.md §2).
    Skeleton(SkeletonSection),
    /// `skin "NAME"`: replacement attachments (LANGUAGE.md §3).
    Skin(SkinSection),
    /// `order`: the draw order of slots (LANGUAGE.md §4).
    Order(OrderSection),
    /// `anim ["NAME"] [Nfps] [OPTS]`: an animation's timelines (LANGUAGE.md §5).
    Anim(AnimSection),
    /// `expect "ANIM" FRAME ~TOL`: pose assertions (LANGUAGE-EXT.md).
    Expect(ExpectSection),
    /// `ik`: inverse kinematics families (LANGUAGE-EXT.md).
    Ik(IkSection),
    /// `mix [SECONDS]`: crossfade times between animations (LANGUAGE-EXT.md).
    Mix(MixSection),
    /// Starts no section (bad header, leading spaces, or indented lines at
    /// the top): everything in it is ignored.
    Ignored,
}

/// A `skeleton` section: its header color and its bone lines.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SkeletonSection {
    /// Default color of bones that have none.
    pub color: Option<Color>,
    /// The valid bone lines in the order written, each with the slot lines
    /// under it. A path written twice appears twice (compile merges them).
    pub bones: Vec<BoneLine>,
}

/// `<path> <bone-token>*` at depth 1 of a `skeleton` section (LANGUAGE.md §2.1).
#[derive(Clone, Debug, PartialEq)]
pub struct BoneLine {
    /// Full dotted path.
    pub path: Spanned<String>,
    /// In the order written; later ones overwrite earlier ones.
    pub props: Vec<Spanned<BoneProp>>,
    /// The slot lines nested under this bone line, in the order written.
    pub slots: Vec<SlotLine>,
    /// The whole line (without its indentation).
    pub span: Span,
}

/// One bone token; it applies to the child-most bone of the line's path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BoneProp {
    /// `lNUM`: the bone's length along its x axis (drawn by the bone overlay).
    Length(f64),
    /// `rNUM`: setup rotation in degrees, counterclockwise.
    Rotation(f64),
    /// `xNUM`: setup position x in the parent's space.
    X(f64),
    /// `yNUM`: setup position y in the parent's space (y up).
    Y(f64),
    /// `iNUM`: setup scale along x.
    ScaleX(f64),
    /// `jNUM`: setup scale along y.
    ScaleY(f64),
    /// A COLOR token: the bone's color (stored with 8-bit channels).
    Color(Color),
    /// `flip-x`: negates the bone's x axis (a mirror image).
    FlipX,
    /// `flip-y`: negates the bone's y axis (a mirror image).
    FlipY,
    /// `no-rot`: the bone does not inherit its parent's rotation.
    NoRotation,
    /// `no-scale`: the bone does not inherit its parent's scale.
    NoScale,
}

/// `@[SLOT][\[ATT\]] <slot-token>* [:TYPE <attachment-token>*]` under a bone.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotLine {
    /// The whole line (without its indentation).
    pub span: Span,
    /// `None`: the bone's last segment.
    pub slot: Option<Spanned<String>>,
    /// `None`: the slot name.
    pub attachment: Option<Spanned<String>>,
    /// `false` when the attachment name is `skeleton` (the slot is still made).
    pub attachment_valid: bool,
    /// Slot colors in the order written (the last wins).
    pub colors: Vec<Color>,
    /// The `:TYPE` and attachment tokens (empty without `:TYPE`).
    pub spec: AttachmentSpec,
    /// Path command lines under this slot line.
    pub commands: Vec<PathCommandLine>,
}

/// The attachment type written after `:`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypeName {
    /// `:sprite`: an image drawn centered on the attachment origin.
    Sprite,
    /// `:rect`: a rectangle centered on the attachment origin.
    Rect,
    /// `:circle`: a circle centered on the attachment origin.
    Circle,
    /// `:ellipse`: an ellipse centered on the attachment origin.
    Ellipse,
    /// `:path`: an outline made of the path command lines below the line.
    Path,
    /// Not a type of the language (kept so redefinitions compare like the
    /// original, which stored whatever followed `:`).
    Unknown(String),
}

impl TypeName {
    /// The types of the language, in the order messages list them.
    pub const KNOWN: [TypeName; 5] =
        [TypeName::Sprite, TypeName::Rect, TypeName::Circle, TypeName::Ellipse, TypeName::Path];

    /// The type named by the text after `:` (`""` for a lone `:` gives
    /// `Unknown("")`); never fails.
    pub fn parse(s: &str) -> TypeName {
        match super::vocab::lookup(super::vocab::ATTACHMENT_TYPES, s) {
            Some(k) => k.clone(),
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

    /// Whether the type is a shape (`rect`, `circle`, `ellipse`, `path`),
    /// the types that take the stroke and fill tokens.
    pub fn is_shape(&self) -> bool {
        matches!(self, TypeName::Rect | TypeName::Circle | TypeName::Ellipse | TypeName::Path)
    }
}

/// `:TYPE` and the attachment tokens after it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct AttachmentSpec {
    /// The `:TYPE` token; `None` when the line has none (type `none`, which
    /// draws nothing).
    pub ty: Option<Spanned<TypeName>>,
    /// Valid for the type, in the order written.
    pub props: Vec<Spanned<AttachmentProp>>,
}

/// One attachment token (LANGUAGE.md §2.2). Transform values are relative
/// to the slot's bone; colors are stored with 8-bit channels.
#[derive(Clone, Debug, PartialEq)]
pub enum AttachmentProp {
    /// `"image-name"` of a sprite, without the quotes, looked up relative to
    /// the script's folder.
    Image(String),
    /// `wNUM`: width of a rect, or the ellipse's diameter along x.
    Width(f64),
    /// `hNUM`: height of a rect, or the ellipse's diameter along y.
    Height(f64),
    /// `xNUM`: the attachment origin's x in the bone's space.
    X(f64),
    /// `yNUM`: the attachment origin's y in the bone's space (y up).
    Y(f64),
    /// Degrees.
    Rotation(f64),
    /// `iNUM`: the attachment's own scale along x.
    ScaleX(f64),
    /// `jNUM`: the attachment's own scale along y.
    ScaleY(f64),
    /// `tNUM`: stroke width of a shape (default 1; 0 draws no stroke).
    StrokeWidth(f64),
    /// `mNUM`: miter limit of a shape's stroke (default 10).
    MiterLimit(f64),
    /// `fCOLOR`: fill color of a shape (default opaque black).
    Fill(Color),
    /// `sCOLOR`: stroke color of a shape (default opaque black).
    Stroke(Color),
    /// `miter-join`, `bevel-join` or `round-join`.
    Join(LineJoin),
    /// `butt-cap`, `square-cap` or `round-cap` (used by paths).
    Cap(LineCap),
    /// `d`: circle diameter or rect corner diameter.
    Diameter(f64),
}

/// A path point and the bone reference written with it.
#[derive(Clone, Debug, PartialEq)]
pub struct PointLit {
    /// x in the space of the point's bone.
    pub x: f64,
    /// y in the space of the point's bone (y up).
    pub y: f64,
    /// The `:BONEREF` after the numbers (only the reference's bytes);
    /// `None`: the default bone at this point of the path.
    pub bone: Option<Spanned<String>>,
    /// The whole `NUM,NUM[:BONEREF]` token.
    pub span: Span,
}

/// One path command line under a `:path` attachment (LANGUAGE.md §2.3).
#[derive(Clone, Debug, PartialEq)]
pub enum PathCommand {
    /// `M p`: start the outline at p.
    Move(PointLit),
    /// `L p`: straight line to p.
    Line(PointLit),
    /// `Q c p`: quadratic curve with control point c, ending at p.
    Quad(PointLit, PointLit),
    /// `B c1 c2 p`: cubic curve with control points c1 and c2, ending at p.
    Cubic(PointLit, PointLit, PointLit),
    /// `C`: closes the outline (a path is filled only when closed).
    Close,
    /// `: BONEREF` switches the default bone of the following points.
    Switch(Spanned<String>),
}

/// A parsed path command and its line.
#[derive(Clone, Debug, PartialEq)]
pub struct PathCommandLine {
    /// What the line says.
    pub command: PathCommand,
    /// The whole line (without its indentation).
    pub span: Span,
}

/// A `skin "NAME"` section (LANGUAGE.md §3).
#[derive(Clone, Debug, PartialEq)]
pub struct SkinSection {
    /// The skin's name without quotes; the span is the quoted token.
    pub name: Spanned<String>,
    /// The valid items in the order written.
    pub items: Vec<SkinItem>,
}

/// `@SLOTREF[\[ATT\]] [:TYPE <attachment-token>*]` in a skin.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinItem {
    /// The whole line (without its indentation).
    pub span: Span,
    /// The slot reference (any unambiguous dotted suffix), without `@`.
    pub slot: Spanned<String>,
    /// `None`: the last segment of the slot reference.
    pub attachment: Option<Spanned<String>>,
    /// The replacement attachment; without `:TYPE` it hides the attachment.
    pub spec: AttachmentSpec,
    /// Path command lines under the item (for a `:path` replacement).
    pub commands: Vec<PathCommandLine>,
}

/// An `order` section (LANGUAGE.md §4).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct OrderSection {
    /// Slot references without `@`, in the order written: first drawn
    /// first (at the back).
    pub entries: Vec<Spanned<String>>,
}

/// Frame, step and easing defaults.
///
/// Written `F:S:E` (LANGUAGE.md §5); `None` where the form leaves a part
/// out, so the enclosing default (item, then animation, then `0:5:li`) holds.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Opts {
    /// The frame timelines start at.
    pub frame: Option<f64>,
    /// The frames one `->` advances.
    pub step: Option<f64>,
    /// The easing of the keys pushed.
    pub easing: Option<Easing>,
}

/// An `anim ["NAME"] [Nfps] [OPTS]` section (LANGUAGE.md §5).
#[derive(Clone, Debug, PartialEq)]
pub struct AnimSection {
    /// `""` when the header has no name.
    ///
    /// The span is the quoted token, or the `anim` keyword without a name.
    pub name: Spanned<String>,
    /// `Nfps`, a whole number (`None`: not written; compile uses 20).
    /// May be 0, which the parser warns about and compile replaces by 20.
    pub fps: Option<f64>,
    /// The header's defaults for every item.
    pub opts: Opts,
    /// The animated bones and slots in the order written.
    pub items: Vec<AnimItem>,
    /// Timing modifiers on the header (LANGUAGE-EXT.md, "Timing modifiers").
    pub modifiers: AnimModifiers,
    /// `"ANIM" [loops N]` lines: the animation is a sequence of these
    /// (LANGUAGE-EXT.md, "Transitions and layers"). (A boxed slice: the
    /// section stays small.)
    pub parts: Box<[SequencePart]>,
}

/// `"ANIM" [loops N]`: one part of a sequence.
#[derive(Clone, Debug, PartialEq)]
pub struct SequencePart {
    /// The animation played (the quoted token's span).
    pub anim: Spanned<String>,
    /// `loops N` (1 to [`MAX_LOOPS`]); `None`: once.
    pub loops: Option<Spanned<u32>>,
    /// The whole line.
    pub span: Span,
}

/// The most loops a sequence part may play.
pub const MAX_LOOPS: u32 = 1000;

/// `add "LAYER" [WEIGHT]` on an `anim` header: an additive layer.
#[derive(Clone, Debug, PartialEq)]
pub struct AddLayer {
    /// The layer's animation (the quoted token's span).
    pub anim: Spanned<String>,
    /// The weight (default 1).
    pub weight: Option<Spanned<f64>>,
}

/// A `mix` section: crossfade times in seconds.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MixSection {
    /// `mix SECONDS`: between any two animations without a line of their own.
    pub default: Option<Spanned<f64>>,
    /// `"FROM" "TO" SECONDS` lines, in the order written.
    pub pairs: Vec<MixPair>,
}

/// `"FROM" "TO" SECONDS`: the crossfade from one animation into another.
#[derive(Clone, Debug, PartialEq)]
pub struct MixPair {
    /// The animation faded out.
    pub from: Spanned<String>,
    /// The animation faded in.
    pub to: Spanned<String>,
    /// Seconds (the token's span).
    pub secs: Spanned<f64>,
}

/// `from "SOURCE"`, `reverse`, `pingpong`, `mirror`, `swap` on an `anim` header;
/// each with the span of its word(s).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct AnimModifiers {
    /// `from "SOURCE"`: the animation starts as a copy of SOURCE's.
    pub from: Option<Spanned<String>>,
    /// `reverse`: plays backwards.
    pub reverse: Option<Span>,
    /// `pingpong`: plays forwards, then backwards (twice as long).
    pub pingpong: Option<Span>,
    /// `mirror`: left and right swapped and mirrored (see LANGUAGE-EXT.md).
    pub mirror: Option<Span>,
    /// `swap`: left and right partners trade their channels, unmirrored.
    pub swap: Option<Span>,
    /// `cycle`: every numeric timeline ends on its value at frame 0.
    pub cycle: Option<Span>,
    /// `add "LAYER" [WEIGHT]`: additive layers, in the order written.
    pub add: Box<[AddLayer]>,
}

impl AnimModifiers {
    /// Whether the header sets any modifier.
    pub fn any(&self) -> bool {
        self.from.is_some()
            || self.reverse.is_some()
            || self.pingpong.is_some()
            || self.mirror.is_some()
            || self.swap.is_some()
            || self.cycle.is_some()
            || !self.add.is_empty()
    }
}

/// `BONEREF [OPTS]` or `@SLOTREF [OPTS]`.
#[derive(Clone, Debug, PartialEq)]
pub struct AnimItem {
    /// The bone or slot reference (without `@`).
    pub target: Spanned<String>,
    /// `true` for `@SLOTREF`, whose timelines take slot properties.
    pub is_slot: bool,
    /// Defaults overriding the animation's for this item's timelines.
    pub opts: Opts,
    /// The timeline lines under the item, in the order written (none for
    /// an event item).
    pub timelines: Vec<TimelineLine>,
    /// `true` for `!EVENT`: `target` is the event's name and `events` its
    /// lines.
    pub is_event: bool,
    /// The lines under an event item, in the order written (none for a
    /// bone or slot item).
    pub events: Vec<EventLine>,
    /// `delay N`: the item's bone (or slot) plays its timelines N frames
    /// later, wrapping around the animation's loop.
    pub delay: Option<Spanned<f64>>,
    /// `chain N`: every bone below the item's bone plays its timelines N
    /// frames after its parent (bone items only).
    pub chain: Option<Spanned<f64>>,
    /// `spring HZ DAMPING`: the item's bone trails its parent's turning as
    /// a damped spring (bone items only; LANGUAGE-EXT.md, "Springs").
    pub spring: Option<Spanned<SpringSpec>>,
    /// `spring-chain HZ DAMPING`: every bone below the item's bone does
    /// (bone items only).
    pub spring_chain: Option<Spanned<SpringSpec>>,
}

/// The numbers of a `spring` or `spring-chain` modifier, checked by the
/// parser: `hz` in (0, [`SPRING_MAX_HZ`]], `damping` in
/// [[`SPRING_MIN_DAMPING`], [`SPRING_MAX_DAMPING`]].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringSpec {
    /// How fast the spring rings, undamped: cycles per second.
    pub hz: f64,
    /// The damping ratio: 1 settles without overshoot, less wobbles.
    pub damping: f64,
}

/// The fastest spring, in cycles per second.
pub const SPRING_MAX_HZ: f64 = 1000.0;
/// The least damping ratio: below it a loop takes hundreds of cycles to
/// settle and a spring in tune with the loop rings without bound.
pub const SPRING_MIN_DAMPING: f64 = 0.01;
/// The greatest damping ratio.
pub const SPRING_MAX_DAMPING: f64 = 100.0;

/// The payload the keys of an event line carry: its first token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// `e`: no payload; each `!` token fires the event.
    Bare,
    /// `i`: a whole number (-2147483648 to 2147483647).
    Int,
    /// `f`: a number.
    Float,
    /// `s`: a `"string"` (no whitespace inside, like every token).
    Text,
}

impl EventKind {
    /// The kind named by an event line's first token.
    pub fn parse(s: &str) -> Option<EventKind> {
        super::vocab::lookup(super::vocab::EVENT_KINDS, s).copied()
    }
}

/// `KIND COMMAND+` under an event item: the timeline notation, each value
/// fires the event at the current frame. Values are `!` (`e`), numbers
/// (`i`, `f`, also `+N` and `*N`) or `"strings"` (`s`), pushed as
/// [`KeyValue::Bool`], [`KeyValue::Number`] and [`KeyValue::Name`].
#[derive(Clone, Debug, PartialEq)]
pub struct EventLine {
    /// The payload kind and its token.
    pub kind: Spanned<EventKind>,
    /// The valid commands in the order written (never empty).
    pub commands: Vec<Spanned<TimelineCommand>>,
    /// The whole line (without its indentation).
    pub span: Span,
}

/// The property a timeline animates: its one-letter name at the start of
/// the line (LANGUAGE.md §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimelineProp {
    /// Bone `x`: added to the setup x.
    X,
    /// Bone `y`: added to the setup y.
    Y,
    /// Bone `r`: degrees added to the setup rotation.
    Rotation,
    /// Bone `i`: multiplied with the setup scale x.
    ScaleX,
    /// Bone `j`: multiplied with the setup scale y.
    ScaleY,
    /// Bone `s`: replaces the setup flip x (stepped).
    FlipX,
    /// Bone `t`: replaces the setup flip y (stepped).
    FlipY,
    /// Slot `@`: switches the shown attachment by short name (stepped).
    Attachment,
    /// Slot `c`: the slot color as a COLOR; replaces the slot's `r g b a`
    /// timelines.
    Color,
    /// Slot `r`: the red component of the slot color, normally 0..1.
    R,
    /// Slot `g`: the green component of the slot color, normally 0..1.
    G,
    /// Slot `b`: the blue component of the slot color, normally 0..1.
    B,
    /// Slot `a`: the alpha of the slot color, normally 0..1.
    A,
}

impl TimelineProp {
    /// The bone property named by a timeline's first token (`x y r i j s t`),
    /// or `None` when it is not exactly one of those letters.
    pub fn for_bone(c: &str) -> Option<TimelineProp> {
        super::vocab::lookup(super::vocab::BONE_TIMELINES, c).copied()
    }

    /// The slot property named by a timeline's first token (`@ c r g b a`),
    /// or `None` when it is not exactly one of those.
    pub fn for_slot(c: &str) -> Option<TimelineProp> {
        super::vocab::lookup(super::vocab::SLOT_TIMELINES, c).copied()
    }
}

/// `PROP COMMAND+` under an animation item (a line with no valid command
/// is dropped with a warning, so `commands` is never empty).
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineLine {
    /// The property letter and its token.
    pub prop: Spanned<TimelineProp>,
    /// The valid commands in the order written, each spanning its token
    /// (one options token may yield several commands sharing its span).
    pub commands: Vec<Spanned<TimelineCommand>>,
    /// The whole line (without its indentation).
    pub span: Span,
}

/// A value pushed by a timeline.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyValue {
    /// A numeric key (`x y r i j` and `r g b a`).
    Number(f64),
    /// `true` or `false` (`s t`).
    Bool(bool),
    /// An attachment's short name (`@`).
    Name(String),
    /// A COLOR (`c`), as written (not rounded to 8 bits). Boxed: color
    /// keys are rare, and without the four numbers inline a command is a
    /// third smaller.
    Color(Box<Color>),
}

/// One command of a timeline (LANGUAGE.md §5.1).
#[derive(Clone, Debug, PartialEq)]
pub enum TimelineCommand {
    /// Sets the frame if later than the current one.
    SetFrame(f64),
    /// `+F` in an options token: advances the frame by F frames.
    AdvanceFrames(f64),
    /// `S` in an options token: the step from now on, in frames.
    SetStep(f64),
    /// `E` in an options token: the easing of the last pushed key and of
    /// all later keys.
    SetEasing(Easing),
    /// `-…->` (or an options token ending in one): advances this many steps.
    /// Never 0 (a bare `>` adds no command).
    AdvanceSteps(u32),
    /// `V`: a key with this value at the current frame.
    Push(KeyValue),
    /// `+V`: a key with the previous pushed number plus V (0 before any).
    PushAdd(f64),
    /// `*V`: a key with the previous pushed number times V (0 before any).
    PushMul(f64),
    /// `{`: starts a loop body.
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
    /// The frame to pose (default 0); the animation's frame rate turns it
    /// into seconds.
    pub frame: f64,
    /// Default tolerance of the section's checks (`~NUM`, default 0.001).
    pub tolerance: f64,
    /// The valid expectation lines in the order written.
    pub lines: Vec<ExpectLine>,
}

/// `BONEREF [local] [X,Y] xNUM yNUM rNUM iNUM jNUM [~TOL]` or
/// `@SLOTREF rNUM gNUM bNUM aNUM [~TOL]`.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectLine {
    /// The whole line (without its indentation).
    pub span: Span,
    /// The bone or slot reference (without `@`).
    pub target: Spanned<String>,
    /// `true` for `@SLOTREF`: the checks are the slot color's components.
    pub is_slot: bool,
    /// Compare the local transform instead of world values.
    pub local: bool,
    /// A point in the bone's space whose world position `x`/`y` check.
    pub point: Option<(f64, f64)>,
    /// The expected values in the order written, each with its token.
    pub checks: Vec<Spanned<(ExpectProp, f64)>>,
    /// The line's `~TOL`, overriding the section's tolerance.
    pub tolerance: Option<f64>,
    /// `!EVENT …`: an event check (then `target` is the event's name and
    /// `checks` is empty).
    pub event: Option<EventExpect>,
}

/// What an `expect` line says about an event (LANGUAGE-EXT.md, "Events").
#[derive(Clone, Debug, PartialEq)]
pub enum EventExpect {
    /// `!EVENT [PAYLOAD]`: the event fires at the section's frame (with
    /// this payload: a number for `i`/`f` events, a [`KeyValue::Name`]
    /// string for `s` events).
    Fires(Option<Spanned<KeyValue>>),
    /// `!EVENT never FROM TO`: no key of the event falls on a frame from
    /// FROM to TO (both included); the span covers the three tokens.
    Never(Spanned<(f64, f64)>),
}

/// A value an expectation checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpectProp {
    /// `x`: the bone origin's (or point's) x, world or local.
    X,
    /// `y`: the bone origin's (or point's) y, world or local (y up).
    Y,
    /// Degrees.
    Rotation,
    /// `i`: world, the length of the bone's x axis (the accumulated scale);
    /// local, the scale x after animation.
    ScaleX,
    /// `j`: world, the length of the bone's y axis (the accumulated scale);
    /// local, the scale y after animation.
    ScaleY,
    /// Slot `r`: red component of the slot color (0..1).
    Red,
    /// Slot `g`: green component of the slot color (0..1).
    Green,
    /// Slot `b`: blue component of the slot color (0..1).
    Blue,
    /// Slot `a`: alpha of the slot color (0..1).
    Alpha,
}

/// The most parents `up N` may climb.
pub const MAX_IK_UP: u32 = 64;
/// The most bones one IK chain may hold.
pub const MAX_IK_CHAIN: usize = MAX_IK_UP as usize + 1;

/// `ik` and its lines: inverse kinematics families (LANGUAGE-EXT.md).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct IkSection {
    /// The valid family lines in the order written.
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
    /// The bone reference after `to`: the bone whose origin the tip reaches for.
    pub target: Spanned<String>,
    /// The chain's extent from `up N` or `from ROOTREF`.
    pub reach: IkReach,
    /// `fabrik` (also when not written) or `arc`.
    pub mode: crate::model::IkMode,
    /// `cw`, `ccw`, or `IkConstraint::None` when neither is written.
    pub bend: crate::model::IkConstraint,
}
