//! What a slot shows: attachments (sprites, shapes, paths bound to bones,
//! meshes) with their transform and style.

use super::*;

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
