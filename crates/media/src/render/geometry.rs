//! Outlines of attachments in attachment space, and facts about the
//! transforms that place them in the world.
//!
//! "Attachment space" is the space an attachment's shape is written in: the
//! world sees it through `slot_world · attachment_transform`. Shapes (rect,
//! ellipse, circle) are centered on its origin; a path's points live in the
//! space of their bones and are brought into the slot bone's space first
//! (LANGUAGE.md §2.3, §6).

use std::hash::{Hash, Hasher};

use skelpad_lang::model::{Affine, AttachmentKind, BoneId, BoundPath, PathSegment};
use skelpad_lang::runtime::Pose;

/// The control-point distance of a cubic quarter circle (the original tool's
/// constant), relative to the radius.
pub const KAPPA: f64 = 0.5522847493;

/// One segment kind of an [`Outline`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Verb {
    Line,
    Quad,
    Cubic,
}

impl Verb {
    fn points(self) -> usize {
        match self {
            Verb::Line => 1,
            Verb::Quad => 2,
            Verb::Cubic => 3,
        }
    }
}

/// One subpath: a start point and segments, in f32 (what the tessellator
/// works in). Outlines are compared and hashed by their exact bits, so the
/// tessellation cache can use them as keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Outline {
    pub points: Vec<[f32; 2]>,
    pub verbs: Vec<Verb>,
    pub closed: bool,
}

impl Hash for Outline {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for p in &self.points {
            state.write_u64(u64::from(p[0].to_bits()) << 32 | u64::from(p[1].to_bits()));
        }
        self.verbs.hash(state);
        self.closed.hash(state);
    }
}

impl Outline {
    pub fn clear(&mut self) {
        self.points.clear();
        self.verbs.clear();
        self.closed = false;
    }

    fn start(&mut self, x: f64, y: f64) {
        self.clear();
        self.points.push([x as f32, y as f32]);
    }

    fn line(&mut self, x: f64, y: f64) {
        self.verbs.push(Verb::Line);
        self.points.push([x as f32, y as f32]);
    }

    fn quad(&mut self, c: (f64, f64), p: (f64, f64)) {
        self.verbs.push(Verb::Quad);
        self.points.extend([[c.0 as f32, c.1 as f32], [p.0 as f32, p.1 as f32]]);
    }

    fn cubic(&mut self, c1: (f64, f64), c2: (f64, f64), p: (f64, f64)) {
        self.verbs.push(Verb::Cubic);
        self.points.extend([
            [c1.0 as f32, c1.1 as f32],
            [c2.0 as f32, c2.1 as f32],
            [p.0 as f32, p.1 as f32],
        ]);
    }

    /// The largest coordinate magnitude.
    pub fn extent(&self) -> f64 {
        self.points.iter().fold(0.0f32, |m, p| m.max(p[0].abs()).max(p[1].abs())).into()
    }

    /// All coordinates are finite numbers (the tessellator needs them to be).
    pub fn is_finite(&self) -> bool {
        self.points.iter().all(|p| p[0].is_finite() && p[1].is_finite())
    }

    /// The same outline with every point mapped by `m` (a bezier's image
    /// under an affine map is the bezier of the mapped control points).
    pub fn transformed_into(&self, m: &Affine, out: &mut Outline) {
        out.clear();
        out.verbs.extend_from_slice(&self.verbs);
        out.closed = self.closed;
        out.points.extend(self.points.iter().map(|p| {
            let (x, y) = m.apply(f64::from(p[0]), f64::from(p[1]));
            [x as f32, y as f32]
        }));
    }

    /// The outline as lyon path events.
    pub fn events(&self) -> impl Iterator<Item = lyon_tessellation::path::PathEvent> + '_ {
        use lyon_tessellation::math::point;
        use lyon_tessellation::path::PathEvent;
        let pt = |p: [f32; 2]| point(p[0], p[1]);
        let first = self.points.first().copied().unwrap_or([0.0, 0.0]);
        let mut at = 1usize;
        let mut from = first;
        let begin = (!self.points.is_empty()).then(|| PathEvent::Begin { at: pt(first) });
        let segments = self.verbs.iter().filter_map(move |verb| {
            let n = verb.points();
            let ps = self.points.get(at..at + n)?;
            at += n;
            let start = from;
            from = ps[n - 1];
            Some(match verb {
                Verb::Line => PathEvent::Line { from: pt(start), to: pt(ps[0]) },
                Verb::Quad => {
                    PathEvent::Quadratic { from: pt(start), ctrl: pt(ps[0]), to: pt(ps[1]) }
                }
                Verb::Cubic => PathEvent::Cubic {
                    from: pt(start),
                    ctrl1: pt(ps[0]),
                    ctrl2: pt(ps[1]),
                    to: pt(ps[2]),
                },
            })
        });
        let last = self.points.last().copied().unwrap_or(first);
        let end = (!self.points.is_empty()).then(|| PathEvent::End {
            last: pt(last),
            first: pt(first),
            close: self.closed,
        });
        begin.into_iter().chain(segments).chain(end)
    }
}

/// A rect `width × height` centered on the origin, with corners of radius
/// `corner_radius` clamped to half of each side. Negative sizes mirror the
/// shape, as in the original tool.
pub(crate) fn rect(out: &mut Outline, w: f64, h: f64, r: f64) {
    let (cx, cy) = (w / 2.0, h / 2.0);
    if r > 0.0 {
        // Quarter arcs: each corner is a cubic whose handles sit (1 − κ) of
        // the radius from the corner point.
        let rx = r.min(w.abs() * 0.5) * w.signum();
        let ry = r.min(h.abs() * 0.5) * h.signum();
        let k = 1.0 - KAPPA;
        let p = |x: f64, y: f64| (x - cx, y - cy);
        out.start(-cx, ry - cy);
        out.line(-cx, h - ry - cy);
        out.cubic(p(0.0, h - ry * k), p(rx * k, h), p(rx, h));
        out.line(w - rx - cx, h - cy);
        out.cubic(p(w - rx * k, h), p(w, h - ry * k), p(w, h - ry));
        out.line(w - cx, ry - cy);
        out.cubic(p(w, ry * k), p(w - rx * k, 0.0), p(w - rx, 0.0));
        out.line(rx - cx, -cy);
        out.cubic(p(rx * k, 0.0), p(0.0, ry * k), p(0.0, ry));
    } else {
        out.start(-cx, -cy);
        out.line(w - cx, -cy);
        out.line(w - cx, h - cy);
        out.line(-cx, h - cy);
    }
    out.closed = true;
}

/// An ellipse centered on the origin, as four cubic quarter arcs.
pub(crate) fn ellipse(out: &mut Outline, rx: f64, ry: f64) {
    let k = KAPPA;
    out.start(-rx, 0.0);
    out.cubic((-rx, ry * k), (-rx * k, ry), (0.0, ry));
    out.cubic((rx * k, ry), (rx, ry * k), (rx, 0.0));
    out.cubic((rx, -ry * k), (rx * k, -ry), (0.0, -ry));
    out.cubic((-rx * k, -ry), (-rx, -ry * k), (-rx, 0.0));
    out.closed = true;
}

/// A path's points in the slot bone's space: points on the slot's own bone
/// are used as written; a point on another bone goes through that bone's
/// world matrix and back through the inverse of the slot bone's
/// (`inverse(slot_world) · bone_world · p`). When the slot bone collapses
/// space (zero scale) its inverse is taken as zero, so what depends on it
/// collapses too (LANGUAGE.md §6 **[differs]**).
pub(crate) fn path(
    out: &mut Outline,
    path: &BoundPath,
    slot_bone: BoneId,
    pose: &Pose,
    rel: &mut Vec<(BoneId, Affine)>,
) {
    rel.clear();
    let slot_world = pose.bones.get(slot_bone.index()).map_or(Affine::IDENTITY, |b| b.world);
    let inv = slot_world.inverse_or_zero();
    let mut map = |bone: BoneId, x: f64, y: f64| -> (f64, f64) {
        if bone == slot_bone {
            return (x, y);
        }
        let m = match rel.iter().find(|(b, _)| *b == bone) {
            Some((_, m)) => *m,
            None => {
                let world = pose.bones.get(bone.index()).map_or(slot_world, |b| b.world);
                let m = inv * world;
                rel.push((bone, m));
                m
            }
        };
        // Snap to a 2⁻¹⁶-unit grid: a rig that moved rigidly gives the same
        // points up to rounding noise, and the snapped points then hash the
        // same, so the tessellation is reused. The grid is far below a pixel
        // at any useful zoom.
        let (x, y) = m.apply(x, y);
        (snap(x), snap(y))
    };
    let s = map(path.start.bone, path.start.x, path.start.y);
    out.start(s.0, s.1);
    for seg in &path.segments {
        match *seg {
            PathSegment::LineTo(p) => {
                let p = map(p.bone, p.x, p.y);
                out.line(p.0, p.1);
            }
            PathSegment::QuadTo(c, p) => {
                let c = map(c.bone, c.x, c.y);
                let p = map(p.bone, p.x, p.y);
                out.quad(c, p);
            }
            PathSegment::CubicTo(c1, c2, p) => {
                let c1 = map(c1.bone, c1.x, c1.y);
                let c2 = map(c2.bone, c2.x, c2.y);
                let p = map(p.bone, p.x, p.y);
                out.cubic(c1, c2, p);
            }
        }
    }
    out.closed = path.closed;
}

fn snap(v: f64) -> f64 {
    const GRID: f64 = 65536.0;
    (v * GRID).round() / GRID
}

/// The outline of a shape attachment in attachment space; `false` for kinds
/// that have no outline (none, sprite).
pub(crate) fn outline(
    out: &mut Outline,
    kind: &AttachmentKind,
    slot_bone: BoneId,
    pose: &Pose,
    rel: &mut Vec<(BoneId, Affine)>,
) -> bool {
    match kind {
        AttachmentKind::Rect { width, height, corner_radius, .. } => {
            rect(out, *width, *height, *corner_radius)
        }
        AttachmentKind::Ellipse { radius_x, radius_y, .. } => ellipse(out, *radius_x, *radius_y),
        AttachmentKind::Circle { radius, .. } => ellipse(out, *radius, *radius),
        AttachmentKind::Path { path: p, .. } => path(out, p, slot_bone, pose, rel),
        AttachmentKind::None | AttachmentKind::Sprite { .. } | AttachmentKind::Mesh(_) => {
            out.clear();
            return false;
        }
    }
    true
}

/// How a transform distorts lengths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Distortion {
    /// The largest factor a length can grow by (largest singular value).
    pub max_scale: f64,
    /// `Some(s)` when the transform is a similarity (rotation, uniform scale
    /// `s`, maybe a mirror): strokes can then be tessellated in attachment
    /// space with width `w / s` and mapped exactly.
    pub similarity: Option<f64>,
}

pub(crate) fn distortion(m: &Affine) -> Distortion {
    let [a, b, c, d, _, _] = m.to_array();
    let frob2 = a * a + b * b + c * c + d * d;
    let det = m.determinant();
    let disc = (frob2 * frob2 - 4.0 * det * det).max(0.0).sqrt();
    let max_scale = ((frob2 + disc) * 0.5).sqrt();
    // Rotation·scale has a = d, b = −c; with a mirror a = −d, b = c.
    let tol = 1e-9 * max_scale.max(1e-300);
    let rotation_like = (a - d).abs() <= tol && (b + c).abs() <= tol;
    let mirror_like = (a + d).abs() <= tol && (b - c).abs() <= tol;
    let s = det.abs().sqrt();
    let similarity = ((rotation_like || mirror_like) && s > 0.0 && s.is_finite()).then_some(s);
    Distortion { max_scale, similarity }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_rect_corner_radius_is_clamped_to_half_of_each_side() {
        let mut o = Outline::default();
        rect(&mut o, 20.0, 10.0, 100.0);
        // The flat part of the left side vanishes: it starts and ends at y = 0.
        assert_eq!(o.points[0], [-10.0, 0.0]);
        assert_eq!(o.points[1], [-10.0, 0.0]);
        // The top edge runs from x = 0 to x = 0 (radius 10 = w/2).
        let xs: Vec<f32> = o.points.iter().filter(|p| p[1] == 5.0).map(|p| p[0]).collect();
        assert!(xs.contains(&0.0));
        assert!(o.points.iter().all(|p| p[0].abs() <= 10.0 && p[1].abs() <= 5.0));
    }

    #[test]
    fn similarity_is_detected_with_its_scale() {
        let d = distortion(&Affine::trs(3.0, 4.0, 0.7, 2.0, 2.0));
        assert!((d.similarity.unwrap() - 2.0).abs() < 1e-12);
        assert!((d.max_scale - 2.0).abs() < 1e-12);
        let d = distortion(&Affine::trs(0.0, 0.0, 0.3, -2.0, 2.0));
        assert!((d.similarity.unwrap() - 2.0).abs() < 1e-12, "a mirror is a similarity");
        let d = distortion(&Affine::trs(0.0, 0.0, 0.3, 3.0, 1.0));
        assert_eq!(d.similarity, None);
        assert!((d.max_scale - 3.0).abs() < 1e-12);
        assert_eq!(distortion(&Affine::scale(0.0, 0.0)).similarity, None);
    }

    #[test]
    fn events_follow_the_outline() {
        let mut o = Outline::default();
        ellipse(&mut o, 2.0, 1.0);
        let events: Vec<_> = o.events().collect();
        assert_eq!(events.len(), 6, "begin, four cubics, end");
        match events[5] {
            lyon_tessellation::path::PathEvent::End { close, last, first } => {
                assert!(close);
                assert_eq!(last, first);
            }
            ref e => panic!("{e:?}"),
        }
    }
}

/// One segment of an [`AttachmentOutline`]: its control points and end
/// point, in attachment space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OutlineSegment {
    /// A straight line to the point.
    Line([f64; 2]),
    /// A quadratic bezier: control point, end point.
    Quad([f64; 2], [f64; 2]),
    /// A cubic bezier: two control points, end point.
    Cubic([f64; 2], [f64; 2], [f64; 2]),
}

/// The outline the renderer fills and strokes for a shape attachment, in
/// attachment space (for exporters that write vector shapes).
#[derive(Clone, Debug, PartialEq)]
pub struct AttachmentOutline {
    /// Where the outline starts.
    pub start: [f64; 2],
    /// The segments after the start.
    pub segments: Vec<OutlineSegment>,
    /// Closed outlines are filled.
    pub closed: bool,
}

/// The outline of a shape attachment as the renderer draws it (paths with
/// points on other bones placed as `pose` has them); `None` for kinds
/// without one (none, sprite, mesh).
pub fn attachment_outline(
    kind: &AttachmentKind,
    slot_bone: BoneId,
    pose: &Pose,
) -> Option<AttachmentOutline> {
    let mut o = Outline::default();
    if !outline(&mut o, kind, slot_bone, pose, &mut Vec::new()) {
        return None;
    }
    let p = |i: usize| o.points.get(i).map(|p| [f64::from(p[0]), f64::from(p[1])]);
    let start = p(0)?;
    let mut at = 1;
    let mut segments = Vec::with_capacity(o.verbs.len());
    for verb in &o.verbs {
        segments.push(match verb {
            Verb::Line => OutlineSegment::Line(p(at)?),
            Verb::Quad => OutlineSegment::Quad(p(at)?, p(at + 1)?),
            Verb::Cubic => OutlineSegment::Cubic(p(at)?, p(at + 1)?, p(at + 2)?),
        });
        at += verb.points();
    }
    Some(AttachmentOutline { start, segments, closed: o.closed })
}
