//! Geometry of paths whose points follow several bones, exported as SkelForm
//! meshes.
//!
//! A point on a path segment is a fixed weighted sum of the segment's control
//! points (Bernstein weights), and each control point moves rigidly with its
//! bone. Grouping the weights by bone gives, for every sample of the outline,
//! `Σ β_B · F_B(c_B)`: a weighted sum of points fixed in the frames `F_B`.
//! SkelForm blends a vertex between its binds' bones, each applied to the same
//! `init_pos`, so a sample that mixes bones is bound to small static helper
//! bones offset inside each frame (see `export`), which makes the blend exact
//! at every vertex.
//!
//! The mesh is the flattened outline (its fill triangulated by ear clipping
//! when the path is closed) plus a band outside the outline that covers the
//! stroke and anti-aliasing, whose vertices follow the same blends.

use skelpad_lang::model::{Affine, BoneId, BoundPath, BoundPoint, PathSegment};

/// One sample of the outline: weights per frame bone and the point in that
/// bone's space.
#[derive(Clone, Debug, PartialEq)]
pub struct Blend {
    /// (bone, weight, x, y); weights sum to 1, largest first.
    pub parts: Vec<(BoneId, f64, f64, f64)>,
}

/// The mesh of one path at the setup pose, in world space.
#[derive(Clone, Debug)]
pub struct MeshGeometry {
    /// Every vertex: how it moves, and where it is at setup.
    pub vertices: Vec<(Blend, (f64, f64))>,
    /// Extra offset of a band vertex, in the space the blend's frames scale
    /// and rotate (solved so that it is right at setup); zero on the outline.
    pub band_offsets: Vec<(f64, f64)>,
    /// Triangles as indices into `vertices`, counterclockwise.
    pub triangles: Vec<[u32; 3]>,
}

fn bernstein(n: usize, s: f64) -> [f64; 4] {
    let u = 1.0 - s;
    match n {
        1 => [u, s, 0.0, 0.0],
        2 => [u * u, 2.0 * u * s, s * s, 0.0],
        _ => [u * u * u, 3.0 * u * u * s, 3.0 * u * s * s, s * s * s],
    }
}

fn blend(points: &[BoundPoint], weights: &[f64]) -> Blend {
    let mut parts: Vec<(BoneId, f64, f64, f64)> = Vec::new();
    for (p, &w) in points.iter().zip(weights) {
        if w == 0.0 {
            continue;
        }
        match parts.iter_mut().find(|q| q.0 == p.bone) {
            Some(q) => {
                q.1 += w;
                q.2 += w * p.x;
                q.3 += w * p.y;
            }
            None => parts.push((p.bone, w, w * p.x, w * p.y)),
        }
    }
    for q in &mut parts {
        q.2 /= q.1;
        q.3 /= q.1;
    }
    parts.sort_by(|a, b| b.1.total_cmp(&a.1));
    Blend { parts }
}

fn world_of(b: &Blend, frames: &dyn Fn(BoneId) -> Affine) -> (f64, f64) {
    let (mut x, mut y) = (0.0, 0.0);
    for &(bone, w, px, py) in &b.parts {
        let (wx, wy) = frames(bone).apply(px, py);
        x += w * wx;
        y += w * wy;
    }
    (x, y)
}

/// Samples the outline: every end point, and for curves enough inner samples
/// that the chords stay within `tolerance` (world units at setup).
pub fn outline(path: &BoundPath, frames: &dyn Fn(BoneId) -> Affine, tolerance: f64) -> Vec<Blend> {
    let mut out = vec![blend(&[path.start], &[1.0])];
    let mut prev = path.start;
    for seg in &path.segments {
        let ctrl: Vec<BoundPoint> = match *seg {
            PathSegment::LineTo(p) => vec![prev, p],
            PathSegment::QuadTo(c, p) => vec![prev, c, p],
            PathSegment::CubicTo(c1, c2, p) => vec![prev, c1, c2, p],
        };
        let degree = ctrl.len() - 1;
        // Control polygon deviation bounds the curve's deviation from a chord.
        let pts: Vec<(f64, f64)> = ctrl.iter().map(|p| frames(p.bone).apply(p.x, p.y)).collect();
        let mixed = ctrl.iter().any(|p| p.bone != ctrl[0].bone);
        let steps = if degree == 1 {
            // A straight line stays straight under any blend of two frames.
            1
        } else if mixed {
            // Control points on different bones: the curve bends as they
            // move, by up to about half its control polygon.
            let len: f64 = pts.windows(2).map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1)).sum();
            ((len / tolerance.max(1e-9)).sqrt().ceil() as usize).clamp(1, 64)
        } else {
            let (a, b) = (pts[0], pts[degree]);
            let dev = pts[1..degree]
                .iter()
                .map(|&(x, y)| {
                    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                    let len = dx.hypot(dy);
                    if len < 1e-12 {
                        (x - a.0).hypot(y - a.1)
                    } else {
                        ((x - a.0) * dy - (y - a.1) * dx).abs() / len
                    }
                })
                .fold(0.0, f64::max);
            // A chord of a curve with deviation d split in n deviates ≈ d/n².
            ((dev / tolerance.max(1e-9)).sqrt().ceil() as usize).clamp(1, 64)
        };
        for i in 1..=steps {
            let s = i as f64 / steps as f64;
            let w = bernstein(degree, s);
            out.push(blend(&ctrl, &w[..=degree]));
        }
        prev = ctrl[degree];
    }
    if path.closed && out.len() > 1 {
        // The closing segment is a line back to the start: no new sample, but
        // drop a last sample that coincides with the start.
        let (a, b) = (world_of(&out[0], frames), world_of(&out[out.len() - 1], frames));
        if (a.0 - b.0).hypot(a.1 - b.1) < 1e-9 {
            out.pop();
        }
    }
    out
}

/// Builds the mesh of a path at setup. `half_width` is how far the band
/// reaches outside the outline (half the stroke plus a margin).
pub fn build(
    path: &BoundPath,
    frames: &dyn Fn(BoneId) -> Affine,
    tolerance: f64,
    half_width: f64,
) -> Result<MeshGeometry, String> {
    let samples = outline(path, frames, tolerance);
    let pts: Vec<(f64, f64)> = samples.iter().map(|b| world_of(b, frames)).collect();
    let n = pts.len();
    if n < 2 {
        return Err("the path has fewer than two points".into());
    }
    let closed = path.closed && n >= 3;
    let ccw = signed_area(&pts) >= 0.0;
    let normals: Vec<(f64, f64)> = (0..n).map(|i| vertex_normal(&pts, i, closed, ccw)).collect();
    let mut mesh = Rings {
        geometry: MeshGeometry {
            vertices: samples.iter().cloned().zip(pts.iter().copied()).collect(),
            band_offsets: vec![(0.0, 0.0); n],
            triangles: Vec::new(),
        },
        samples: &samples,
        pts: &pts,
        closed,
    };
    if closed {
        // The outline is kept between two bands whose vertices follow the
        // same blends as it does, so its neighbourhood bends exactly; the
        // fill inside the inner band may then be cut into long triangles
        // without dragging the outline.
        match inner_band(&pts, &normals, tolerance, half_width) {
            Some(InnerBand { offsets, triangles: tris }) => {
                let base = mesh.ring(&offsets);
                let triangles = &mut mesh.geometry.triangles;
                triangles.extend(tris.iter().map(|t| [t[0] + base, t[1] + base, t[2] + base]));
            }
            None => {
                mesh.geometry.triangles.extend(
                    ear_clip(&pts)
                        .ok_or("its outline crosses itself, so it cannot be cut into triangles")?,
                );
            }
        }
        mesh.ring(&scaled(&normals, 1.0, half_width, false));
    } else {
        mesh.ring(&scaled(&normals, 1.0, half_width, false));
        mesh.ring(&scaled(&normals, -1.0, half_width, false));
    }
    Ok(mesh.geometry)
}

/// A mesh being built from an outline by adding rings of vertices around it.
struct Rings<'a> {
    geometry: MeshGeometry,
    /// The outline's vertices: how each moves, and where it is at setup.
    samples: &'a [Blend],
    pts: &'a [(f64, f64)],
    closed: bool,
}

impl Rings<'_> {
    /// Adds a ring of vertices at `offsets` from the outline (one per
    /// outline vertex), with quads joining it to the outline; returns the
    /// index of its first vertex.
    fn ring(&mut self, offsets: &[(f64, f64)]) -> u32 {
        let MeshGeometry { vertices, band_offsets, triangles } = &mut self.geometry;
        let n = self.pts.len();
        let base = vertices.len() as u32;
        for (i, &off) in offsets[..n].iter().enumerate() {
            let p = self.pts[i];
            vertices.push((self.samples[i].clone(), (p.0 + off.0, p.1 + off.1)));
            band_offsets.push(off);
        }
        let segs = if self.closed { n } else { n - 1 };
        for i in 0..segs {
            let j = (i + 1) % n;
            let (a, b, c, d) = (i as u32, j as u32, base + i as u32, base + j as u32);
            triangles.push([a, b, d]);
            triangles.push([a, d, c]);
        }
        base
    }
}

/// The offsets `side · w` along each normal (made unit length first if
/// `unit`; inward for a negative side).
fn scaled(normals: &[(f64, f64)], side: f64, w: f64, unit: bool) -> Vec<(f64, f64)> {
    normals
        .iter()
        .map(|&(x, y)| {
            let len = if unit { x.hypot(y).max(1e-12) } else { 1.0 };
            (x / len * w * side, y / len * w * side)
        })
        .collect()
}

/// The inner band of a closed outline.
struct InnerBand {
    /// Each outline vertex's offset to the band's inner ring.
    offsets: Vec<(f64, f64)>,
    /// The triangles that fill inside the ring (indices into it).
    triangles: Vec<[u32; 3]>,
}

/// The inner band of a closed outline, as wide as fits
/// (down to a few pixels); `None` for a shape too thin for any, which is
/// then cut along its outline itself.
fn inner_band(
    pts: &[(f64, f64)],
    normals: &[(f64, f64)],
    tolerance: f64,
    half_width: f64,
) -> Option<InnerBand> {
    let widths = [half_width, half_width / 2.0, 4.0 * tolerance, 2.0 * tolerance];
    widths.iter().find_map(|&w| {
        let offs = scaled(normals, -1.0, w, true);
        let ring_pts: Vec<(f64, f64)> =
            pts.iter().zip(&offs).map(|(p, o)| (p.0 + o.0, p.1 + o.1)).collect();
        let ok = signed_area(&ring_pts) * signed_area(pts) > 0.0
            && signed_area(&ring_pts).abs() < signed_area(pts).abs();
        ok.then(|| ear_clip(&ring_pts))
            .flatten()
            .map(|triangles| InnerBand { offsets: offs, triangles })
    })
}

fn signed_area(p: &[(f64, f64)]) -> f64 {
    let n = p.len();
    (0..n).map(|i| p[i].0 * p[(i + 1) % n].1 - p[(i + 1) % n].0 * p[i].1).sum::<f64>() / 2.0
}

/// Outward unit normal at vertex `i` (the bisector of its edges' normals,
/// lengthened at corners up to a limit so the band keeps its width).
fn vertex_normal(p: &[(f64, f64)], i: usize, closed: bool, ccw: bool) -> (f64, f64) {
    let n = p.len();
    let edge_normal = |a: (f64, f64), b: (f64, f64)| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = dx.hypot(dy);
        if len < 1e-12 {
            return None;
        }
        // Right-hand normal; outward for a counterclockwise outline.
        let s = if ccw { 1.0 } else { -1.0 };
        Some((s * dy / len, -s * dx / len))
    };
    let prev = if i > 0 {
        Some(i - 1)
    } else if closed {
        Some(n - 1)
    } else {
        None
    };
    let next = if i + 1 < n {
        Some(i + 1)
    } else if closed {
        Some(0)
    } else {
        None
    };
    let n1 = prev.and_then(|j| edge_normal(p[j], p[i]));
    let n2 = next.and_then(|j| edge_normal(p[i], p[j]));
    match (n1, n2) {
        (Some(a), Some(b)) => {
            let (sx, sy) = (a.0 + b.0, a.1 + b.1);
            let len = sx.hypot(sy);
            if len < 1e-9 {
                return a;
            }
            let (ux, uy) = (sx / len, sy / len);
            // Miter length 1/cos(θ/2), limited so spikes stay bounded.
            let cos = (ux * a.0 + uy * a.1).max(0.25);
            (ux / cos, uy / cos)
        }
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => (0.0, 1.0),
    }
}

/// Whether two edges that share no end point cross.
fn crosses(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let orient = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    o1 * o2 < 0.0 && o3 * o4 < 0.0
}

fn is_simple(p: &[(f64, f64)]) -> bool {
    let n = p.len();
    for i in 0..n {
        for j in i + 2..n {
            if i == 0 && j == n - 1 {
                continue;
            }
            if crosses(p[i], p[(i + 1) % n], p[j], p[(j + 1) % n]) {
                return false;
            }
        }
    }
    true
}

/// Ear clipping of a simple polygon; `None` when it is not simple.
fn ear_clip(p: &[(f64, f64)]) -> Option<Vec<[u32; 3]>> {
    if !is_simple(p) {
        return None;
    }
    let ccw = signed_area(p) >= 0.0;
    let mut idx: Vec<usize> = (0..p.len()).collect();
    if !ccw {
        idx.reverse();
    }
    let cross = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| {
        (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
    };
    // Points on an edge count as inside (with some slack for rounding): a
    // diagonal through a vertex would leave that vertex out of every triangle.
    let inside = |q: (f64, f64), a, b, c| {
        cross(a, b, q) >= -1e-9 && cross(b, c, q) >= -1e-9 && cross(c, a, q) >= -1e-9
    };
    let mut out = Vec::with_capacity(p.len());
    while idx.len() > 3 {
        let m = idx.len();
        let mut clipped = false;
        for k in 0..m {
            let (ia, ib, ic) = (idx[(k + m - 1) % m], idx[k], idx[(k + 1) % m]);
            let (a, b, c) = (p[ia], p[ib], p[ic]);
            // Only convex corners are ears: a point in the middle of a
            // straight run must stay a corner of some triangle, or the
            // triangle across it would drag it along with far points.
            if cross(a, b, c) <= 1e-12 {
                continue;
            }
            let blocked = idx.iter().any(|&j| {
                j != ia
                    && j != ib
                    && j != ic
                    && inside(p[j], a, b, c)
                    && p[j] != a
                    && p[j] != b
                    && p[j] != c
            });
            if blocked {
                continue;
            }
            out.push([ia as u32, ib as u32, ic as u32]);
            idx.remove(k);
            clipped = true;
            break;
        }
        if !clipped {
            // Only flat corners left: nothing with area remains.
            if idx.windows(3).all(|w| cross(p[w[0]], p[w[1]], p[w[2]]).abs() <= 1e-12) {
                return Some(out);
            }
            return None;
        }
    }
    if idx.len() == 3 {
        let (a, b, c) = (p[idx[0]], p[idx[1]], p[idx[2]]);
        if cross(a, b, c).abs() > 1e-12 {
            out.push([idx[0] as u32, idx[1] as u32, idx[2] as u32]);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(bone: u32, x: f64, y: f64) -> BoundPoint {
        BoundPoint { bone: BoneId(bone), x, y }
    }

    #[test]
    fn ear_clipping_covers_a_concave_polygon() {
        // An L shape: area 3.
        let p = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (1.0, 1.0), (1.0, 2.0), (0.0, 2.0)];
        let tris = ear_clip(&p).expect("simple polygon");
        let area: f64 = tris
            .iter()
            .map(|t| {
                let (a, b, c) = (p[t[0] as usize], p[t[1] as usize], p[t[2] as usize]);
                ((b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)).abs() / 2.0
            })
            .sum();
        assert!((area - 3.0).abs() < 1e-9, "{area}");
        // A bow tie crosses itself.
        assert!(ear_clip(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)]).is_none());
    }

    #[test]
    fn curve_samples_group_weights_by_bone() {
        // A quadratic from bone 0 to bone 1 whose control point is on bone 1.
        let path = BoundPath {
            start: pt(0, 0.0, 0.0),
            segments: vec![PathSegment::QuadTo(pt(1, 5.0, 5.0), pt(1, 10.0, 0.0))],
            closed: false,
        };
        let frames = |_b: BoneId| Affine::IDENTITY;
        let samples = outline(&path, &frames, 0.01);
        assert!(samples.len() > 3);
        let mid = &samples[samples.len() / 2];
        assert_eq!(mid.parts.len(), 2);
        let sum: f64 = mid.parts.iter().map(|p| p.1).sum();
        assert!((sum - 1.0).abs() < 1e-12);
        // Every sample lies on the curve when the frames are identities.
        for s in &samples {
            let (x, y) = world_of(s, &frames);
            let t = x / 10.0;
            let want_y = 2.0 * t * (1.0 - t) * 5.0;
            assert!((y - want_y).abs() < 1e-9, "{x},{y}");
        }
    }
}
