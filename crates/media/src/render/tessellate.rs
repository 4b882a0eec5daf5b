//! Outlines → triangles, with lyon.
//!
//! Fills use the nonzero rule (concave and self-intersecting paths fill
//! whole); strokes have joins, caps and a miter limit. The curve tolerance is
//! `TOLERANCE_PX` (0.1 device pixel), from `DrawOptions::pixels_per_unit`.

use lyon_tessellation::{
    BuffersBuilder, FillOptions, FillRule, FillTessellator, FillVertex, StrokeOptions,
    StrokeTessellator, StrokeVertex, VertexBuffers,
};

use super::geometry::Outline;
use skelpad_lang::model::{LineCap, LineJoin};

/// Triangles: positions and indices (three per triangle).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Mesh {
    pub positions: Vec<[f32; 2]>,
    pub indices: Vec<u32>,
}

/// What a stroke looks like, in the space it is tessellated in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Stroke {
    pub width: f32,
    pub join: LineJoin,
    pub cap: LineCap,
    pub miter_limit: f32,
}

impl Stroke {
    fn options(&self, tolerance: f32) -> StrokeOptions {
        let join = match self.join {
            LineJoin::Miter => lyon_tessellation::LineJoin::Miter,
            LineJoin::Bevel => lyon_tessellation::LineJoin::Bevel,
            LineJoin::Round => lyon_tessellation::LineJoin::Round,
        };
        let cap = match self.cap {
            LineCap::Butt => lyon_tessellation::LineCap::Butt,
            LineCap::Square => lyon_tessellation::LineCap::Square,
            LineCap::Round => lyon_tessellation::LineCap::Round,
        };
        // The language's limit is canvas's and SVG's: a miter longer than
        // `limit` × the stroke width becomes a bevel (the miter's ratio is
        // 1 / cos(turn / 2)). lyon compares that ratio with twice its own
        // limit, so it is given half; lyon's minimum of 1 leaves limits
        // below 2 acting as 2 (SVG: below 1 means 1).
        let limit = if self.miter_limit.is_finite() { self.miter_limit.max(1.0) } else { 10.0 };
        let limit = (limit / 2.0).max(StrokeOptions::MINIMUM_MITER_LIMIT);
        StrokeOptions::tolerance(tolerance)
            .with_line_width(self.width)
            .with_line_join(join)
            .with_line_cap(cap)
            .with_miter_limit(limit)
    }
}

/// Reusable lyon tessellators and scratch buffers.
#[derive(Default)]
pub(crate) struct Tessellator {
    fill: FillTessellator,
    stroke: StrokeTessellator,
    buffers: VertexBuffers<[f32; 2], u32>,
    edges: Vec<u64>,
}

impl Tessellator {
    /// Fills a closed outline with the nonzero rule. `simple` says the
    /// outline cannot cross itself (rects, ellipses), which lets lyon skip
    /// its intersection search.
    pub fn fill(&mut self, outline: &Outline, tolerance: f32, simple: bool) -> Mesh {
        self.buffers.clear();
        if !outline.is_finite() || outline.points.len() < 3 {
            return Mesh::default();
        }
        let options = FillOptions::tolerance(tolerance)
            .with_fill_rule(FillRule::NonZero)
            .with_intersections(!simple);
        let mut out =
            BuffersBuilder::new(&mut self.buffers, |v: FillVertex| v.position().to_array());
        // A failed tessellation (degenerate input lyon cannot handle) draws
        // nothing rather than something wrong.
        if self.fill.tessellate(outline.events(), &options, &mut out).is_err() {
            return Mesh::default();
        }
        self.take()
    }

    pub fn stroke(&mut self, outline: &Outline, stroke: &Stroke, tolerance: f32) -> Mesh {
        self.buffers.clear();
        if !outline.is_finite()
            || outline.points.is_empty()
            || !stroke.width.is_finite()
            || stroke.width <= 0.0
        {
            return Mesh::default();
        }
        let options = stroke.options(tolerance);
        let mut out =
            BuffersBuilder::new(&mut self.buffers, |v: StrokeVertex| v.position().to_array());
        if self.stroke.tessellate(outline.events(), &options, &mut out).is_err() {
            return Mesh::default();
        }
        self.take()
    }

    fn take(&mut self) -> Mesh {
        Mesh { positions: self.buffers.vertices.clone(), indices: self.buffers.indices.clone() }
    }

    /// The outline loops of a mesh (see [`boundary_loops`]).
    pub fn contours(&mut self, mesh: &Mesh) -> Vec<u32> {
        let mut out = Vec::new();
        boundary_loops(&mesh.positions, &mesh.indices, &mut self.edges, &mut out);
        out
    }
}

/// Ends a loop in a contour list.
pub const CONTOUR_END: u32 = u32::MAX;

/// The closed loops around a set of triangles, with the same nonzero
/// winding numbers: every triangle is wound the same way, an edge and its
/// reverse (shared by two neighbouring triangles) cancel, and what remains
/// is chained from vertex to vertex into loops, each ended by
/// [`CONTOUR_END`]. For a fill only its outline remains, so a scanline
/// rasterizer walks a few edges instead of three per triangle. The edges
/// left after cancelling enter and leave each vertex equally often (closed
/// triangles minus closed two-edge loops), so every walk closes. An affine
/// map flips either all loops or none, so they stay valid in any space.
pub(crate) fn boundary_loops(
    positions: &[[f32; 2]],
    indices: &[u32],
    edges: &mut Vec<u64>,
    out: &mut Vec<u32>,
) {
    // Each edge packed for a fast integer sort: the undirected pair
    // (low, high) in the upper bits, its direction in bit 0.
    edges.clear();
    let mut push = |a: u32, b: u32| {
        let (lo, hi) = (a.min(b), a.max(b));
        edges.push(u64::from(lo) << 33 | u64::from(hi) << 1 | u64::from(a > b));
    };
    for t in indices.chunks_exact(3) {
        let [a, b, c] =
            [t[0], t[1], t[2]].map(|i| positions.get(i as usize).copied().unwrap_or([f32::NAN; 2]));
        let cross = (f64::from(b[0]) - f64::from(a[0])) * (f64::from(c[1]) - f64::from(a[1]))
            - (f64::from(b[1]) - f64::from(a[1])) * (f64::from(c[0]) - f64::from(a[0]));
        if cross.is_nan() || cross == 0.0 || t.iter().any(|&i| i >= 1 << 31) {
            continue;
        }
        let (i1, i2) = if cross < 0.0 { (t[2], t[1]) } else { (t[1], t[2]) };
        push(t[0], i1);
        push(i1, i2);
        push(i2, t[0]);
    }
    edges.sort_unstable();
    // What is left of each pair after forward and backward copies cancel,
    // re-packed as (from, to) so that a sort groups edges by their start.
    let mut kept = 0;
    let mut i = 0;
    while i < edges.len() {
        let pair = edges[i] >> 1;
        let mut net = 0i64;
        while i < edges.len() && edges[i] >> 1 == pair {
            net += if edges[i] & 1 == 0 { 1 } else { -1 };
            i += 1;
        }
        let (lo, hi) = (pair >> 32, pair & 0xFFFF_FFFF);
        let directed = if net > 0 { lo << 32 | hi } else { hi << 32 | lo };
        for _ in 0..net.unsigned_abs() {
            edges[kept] = directed;
            kept += 1;
        }
    }
    edges.truncate(kept);
    edges.sort_unstable();
    let from = |e: u64| (e >> 32) as u32;
    let to = |e: u64| (e & 0xFFFF_FFFF) as u32;
    let mut used = vec![false; edges.len()];
    for start in 0..edges.len() {
        if used[start] {
            continue;
        }
        used[start] = true;
        let first = from(edges[start]);
        out.push(first);
        let mut at = to(edges[start]);
        while at != first {
            out.push(at);
            // An unused edge leaving `at` (edges are sorted by their start).
            let lo = edges.partition_point(|&e| from(e) < at);
            let Some(k) =
                (lo..edges.len()).take_while(|&k| from(edges[k]) == at).find(|&k| !used[k])
            else {
                break;
            };
            used[k] = true;
            at = to(edges[k]);
        }
        out.push(CONTOUR_END);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::geometry;

    fn area(m: &Mesh) -> f64 {
        m.indices
            .chunks_exact(3)
            .map(|t| {
                let [a, b, c] = [t[0], t[1], t[2]].map(|i| m.positions[i as usize]);
                let cross = (f64::from(b[0]) - f64::from(a[0]))
                    * (f64::from(c[1]) - f64::from(a[1]))
                    - (f64::from(b[1]) - f64::from(a[1])) * (f64::from(c[0]) - f64::from(a[0]));
                cross.abs() / 2.0
            })
            .sum()
    }

    #[test]
    fn filled_shapes_have_their_area() {
        let mut t = Tessellator::default();
        let mut o = Outline::default();
        geometry::rect(&mut o, 20.0, 10.0, 0.0);
        assert!((area(&t.fill(&o, 0.01, true)) - 200.0).abs() < 1e-3);
        geometry::ellipse(&mut o, 10.0, 5.0);
        let a = area(&t.fill(&o, 0.001, true));
        assert!((a - std::f64::consts::PI * 50.0).abs() < 0.2, "{a}");
    }

    #[test]
    fn self_intersecting_outline_is_filled_by_the_nonzero_rule() {
        // A pentagram drawn in one stroke: its center pentagon is wound twice
        // and is filled by the nonzero rule (even-odd would leave it empty).
        let mut o = Outline::default();
        let pts: Vec<(f64, f64)> = (0..5)
            .map(|k| {
                let a =
                    std::f64::consts::FRAC_PI_2 + f64::from(k * 2) * std::f64::consts::TAU / 5.0;
                (10.0 * a.cos(), 10.0 * a.sin())
            })
            .collect();
        o.points = pts.iter().map(|p| [p.0 as f32, p.1 as f32]).collect();
        o.verbs = vec![geometry::Verb::Line; 4];
        o.closed = true;
        let star_area = area(&Tessellator::default().fill(&o, 0.01, false));
        // Circumradius R = 10, inner radius r = R·cos 72°/cos 36°. Filled
        // (nonzero) the star is ten triangles (center, outer, inner point);
        // even-odd would miss the inner pentagon (≈ 34.7).
        let (big_r, deg) = (10.0f64, std::f64::consts::PI / 180.0);
        let r = big_r * (72.0 * deg).cos() / (36.0 * deg).cos();
        let nonzero = 10.0 * 0.5 * big_r * r * (36.0 * deg).sin();
        assert!((star_area - nonzero).abs() < 0.5, "{star_area} vs {nonzero}");
    }

    fn loops(positions: &[[f32; 2]], indices: &[u32]) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        boundary_loops(positions, indices, &mut Vec::new(), &mut out);
        out.split(|&i| i == CONTOUR_END).filter(|l| !l.is_empty()).map(<[u32]>::to_vec).collect()
    }

    #[test]
    fn shared_edges_cancel_and_the_outline_remains() {
        let square = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]];
        // Two triangles, one of them wound the other way: the diagonal cancels.
        assert_eq!(loops(&square, &[0, 1, 2, 0, 3, 2]), vec![vec![0, 1, 2, 3]]);
        // The same triangle twice (an overlap) keeps both: winding 2 there.
        let l = loops(&square, &[0, 1, 2, 0, 1, 2]);
        assert_eq!(l.iter().map(Vec::len).sum::<usize>(), 6);
        // A degenerate triangle adds nothing.
        assert!(loops(&[[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], &[0, 1, 2]).is_empty());
    }

    #[test]
    fn stroke_of_an_open_line_is_its_width_times_its_length() {
        let o = Outline {
            points: vec![[0.0, 0.0], [10.0, 0.0]],
            verbs: vec![geometry::Verb::Line],
            closed: false,
        };
        let mut t = Tessellator::default();
        let s = Stroke { width: 2.0, join: LineJoin::Miter, cap: LineCap::Butt, miter_limit: 10.0 };
        assert!((area(&t.stroke(&o, &s, 0.01)) - 20.0).abs() < 1e-3);
        let square = Stroke { cap: LineCap::Square, ..s };
        assert!(
            (area(&t.stroke(&o, &square, 0.01)) - 24.0).abs() < 1e-3,
            "square caps add width/2 at both ends"
        );
        let zero = Stroke { width: 0.0, ..s };
        assert!(t.stroke(&o, &zero, 0.01).indices.is_empty());
    }
}
