//! Meshes (SkelForm's textured triangles, whose vertices follow several
//! bones) as image layers.
//!
//! Lottie has no textured meshes and no picture fill, and a picture clipped
//! by a moving outline would not stretch with it. On one triangle, though,
//! skelpad maps the picture affinely (its renderer draws a mesh triangle by
//! triangle), and an affine map is what two layers say without skew:
//! `A = T · R(φ) · S · R(θ)` (the singular value decomposition). So every
//! triangle is an image layer clipped by a mask — the triangle in the
//! picture's pixels, which never moves — turned by `θ` about the triangle's
//! centre (its anchor), under a null layer placed where that centre lands,
//! turned by `φ` and scaled by `S`; both keyed at every frame
//! (merged where a straight line lands), so at every frame the triangle's
//! corners land on skelpad's skinned vertices.

use serde_json::{Value, json};

use super::layers::{Builder, layer_head};
use super::{Picture, PictureSource};
use skelpad_lang::model::{Affine, Armature, AttachmentId, AttachmentKind, Mesh, SkinId};
use skelpad_lang::runtime::Pose;

/// Mask triangles grow by this much (picture pixels) about their incentre,
/// so neighbouring triangles overlap instead of leaving anti-aliased seams.
const SEAM_PX: f64 = 0.5;

/// The picture's layer shrinks it by this factor and the null layer's scale
/// makes it up: lottie-web skips a property's change under 1e-5 (its
/// `setVValue`), so a scale creeping slowly would lag by up to 1e-5 of the
/// triangle's size; shrunk first, the lag is `SHRINK` times smaller.
const SHRINK: f64 = 100.0;

/// The meshes a skin shows, as (slot, attachment).
pub fn mesh_attachments(arm: &Armature, skin: SkinId) -> Vec<(usize, AttachmentId)> {
    let sk = &*arm.skeleton;
    let mut out = Vec::new();
    for (i, a) in sk.attachments.iter().enumerate() {
        let id = AttachmentId::from_index(i);
        if let Some(skelpad_lang::model::Attachment { kind: AttachmentKind::Mesh(_), .. }) =
            sk.attachment(skin, id)
        {
            out.push((a.slot.index(), id));
        }
    }
    out
}

/// A mesh's vertices in skelpad's world at a pose, as `skelpad render`
/// places them: a SkelForm skeleton's meshes follow their binds, others
/// the slot's bone and the attachment transform.
pub fn world_vertices(
    pose: &Pose,
    arm: &Armature,
    slot: usize,
    att: AttachmentId,
) -> Vec<[f64; 2]> {
    let sk = &*arm.skeleton;
    let Some(sl) = sk.slots.get(slot) else { return Vec::new() };
    let Some(a) = sk.attachment(pose.skin, att) else { return Vec::new() };
    let AttachmentKind::Mesh(mesh) = &a.kind else { return Vec::new() };
    if pose.skf.is_empty() {
        let Some(bp) = pose.bones.get(sl.bone.index()) else { return Vec::new() };
        let m = bp.world * a.transform.matrix();
        return mesh
            .vertices
            .iter()
            .map(|v| {
                let (x, y) = m.apply(v.x, v.y);
                [x, y]
            })
            .collect();
    }
    skelpad_lang::runtime::skelform::mesh_vertices(pose, sl.bone, mesh)
        .into_iter()
        .map(|(x, y)| [x, y])
        .collect()
}

/// The affine map taking the three points `p` to the three points `q`, or
/// `None` when `p` has no area.
pub fn triangle_map(p: [[f64; 2]; 3], q: [[f64; 2]; 3]) -> Option<Affine> {
    let (p1, p2) = ([p[1][0] - p[0][0], p[1][1] - p[0][1]], [p[2][0] - p[0][0], p[2][1] - p[0][1]]);
    let (q1, q2) = ([q[1][0] - q[0][0], q[1][1] - q[0][1]], [q[2][0] - q[0][0], q[2][1] - q[0][1]]);
    let det = p1[0] * p2[1] - p2[0] * p1[1];
    let size = (p1[0].abs() + p1[1].abs()).max(p2[0].abs() + p2[1].abs());
    if det.abs() <= 1e-9 * size * size || !det.is_finite() {
        return None;
    }
    let m00 = (q1[0] * p2[1] - q2[0] * p1[1]) / det;
    let m01 = (q2[0] * p1[0] - q1[0] * p2[0]) / det;
    let m10 = (q1[1] * p2[1] - q2[1] * p1[1]) / det;
    let m11 = (q2[1] * p1[0] - q1[1] * p2[0]) / det;
    let e = q[0][0] - (m00 * p[0][0] + m01 * p[0][1]);
    let f = q[0][1] - (m10 * p[0][0] + m11 * p[0][1]);
    Some(Affine::from_array([m00, m10, m01, m11, e, f]))
}

/// `m`'s linear part as `R(φ) · diag(sx, sy) · R(θ)`: `(φ, [sx, sy], θ)`,
/// angles in radians (a reflection is a negative `sy`).
pub fn svd(m: Affine) -> (f64, [f64; 2], f64) {
    let [m00, m10, m01, m11, _, _] = m.to_array();
    let (e, f) = ((m00 + m11) / 2.0, (m00 - m11) / 2.0);
    let (g, h) = ((m10 + m01) / 2.0, (m10 - m01) / 2.0);
    let (q, r) = (e.hypot(h), f.hypot(g));
    let (a1, a2) = (g.atan2(f), h.atan2(e));
    ((a2 + a1) / 2.0, [q + r, q - r], (a2 - a1) / 2.0)
}

/// Per frame: the null layer's position (where `anchor`, a point of the
/// picture, lands), rotation (degrees), scale (%) and the image layer's
/// rotation (degrees), angles unwrapped frame to frame.
fn triangle_keys(maps: &[Affine], anchor: [f64; 2]) -> (Vec<f64>, Vec<f64>, Vec<f64>, Vec<f64>) {
    let (mut pos, mut rot, mut sca, mut turn) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut last: Option<(f64, f64)> = None;
    for m in maps {
        let (phi, s, theta) = svd(*m);
        let (mut phi, mut theta) = (phi.to_degrees(), theta.to_degrees());
        if let Some((p0, t0)) = last {
            // `R(φ+180°)·S·R(θ+180°)` is the same map: take the reading
            // nearest the last frame's, each angle unwrapped to it.
            let near = |a: f64, to: f64| a + 360.0 * ((to - a) / 360.0).round();
            let one = (near(phi, p0), near(theta, t0));
            let two = (near(phi + 180.0, p0), near(theta + 180.0, t0));
            let cost = |(p, t): (f64, f64)| (p - p0).abs() + (t - t0).abs();
            (phi, theta) = if cost(two) < cost(one) { two } else { one };
        }
        last = Some((phi, theta));
        let (e, f) = m.apply(anchor[0], anchor[1]);
        pos.extend([e, f]);
        rot.push(phi);
        sca.extend([s[0] * 100.0 * SHRINK, s[1] * 100.0 * SHRINK]);
        turn.push(theta);
    }
    (pos, rot, sca, turn)
}

/// The triangle grown by [`SEAM_PX`] about its incentre.
fn grown(p: [[f64; 2]; 3]) -> [[f64; 2]; 3] {
    let side = |a: [f64; 2], b: [f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]);
    let (a, b, c) = (side(p[1], p[2]), side(p[0], p[2]), side(p[0], p[1]));
    let perimeter = a + b + c;
    let area2 = ((p[1][0] - p[0][0]) * (p[2][1] - p[0][1])
        - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]))
        .abs();
    if perimeter <= 0.0 || area2 <= 0.0 {
        return p;
    }
    let centre = [
        (a * p[0][0] + b * p[1][0] + c * p[2][0]) / perimeter,
        (a * p[0][1] + b * p[1][1] + c * p[2][1]) / perimeter,
    ];
    let k = 1.0 + SEAM_PX / (area2 / perimeter);
    p.map(|v| [centre[0] + k * (v[0] - centre[0]), centre[1] + k * (v[1] - centre[1])])
}

/// A fixed mask of one closed polygon (layer space).
fn mask(points: &[[f64; 2]]) -> Value {
    let zero: Vec<[f64; 2]> = vec![[0.0, 0.0]; points.len()];
    json!([{
        "inv": false, "mode": "a", "nm": "triangle",
        "pt": { "a": 0, "k": { "c": true, "v": points, "i": zero, "o": zero } },
        "o": { "a": 0, "k": 100 }, "x": { "a": 0, "k": 0 },
    }])
}

impl Builder<'_> {
    /// The layers of a mesh, top first: per triangle (the last one on top)
    /// a null layer carrying the triangle's affine map and the picture's
    /// layer(s) under it (one per slot tint, see `tints`). `at` is where
    /// the first of them will stand among the picture layers (the layers'
    /// `ind` follow from it). Nothing when the picture cannot be read.
    #[allow(
        clippy::too_many_arguments,
        reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
    )]
    pub fn mesh_layers(
        &mut self,
        slot: usize,
        att: AttachmentId,
        name: &str,
        mesh: &Mesh,
        vis: &[f64],
        at: usize,
        pictures: &mut dyn PictureSource,
        warnings: &mut Vec<String>,
    ) -> Vec<Value> {
        let Some(image) = &mesh.image else {
            warnings.push(format!("mesh `{name}` names no picture; left out"));
            return Vec::new();
        };
        let pic: Picture = match self.picture(image, pictures) {
            Ok(p) => p,
            Err(why) => {
                warnings.push(format!("mesh `{name}`: {why}; left out"));
                return Vec::new();
            }
        };
        let copies = self.tinted_copies(slot, name, image, vis, pictures, warnings);
        let (w, h) = (f64::from(pic.width), f64::from(pic.height));
        let view = self.framing.matrix();
        let frames = self.mesh_frames(slot, att);
        let mut out = Vec::new();
        let (mut flat, mut lost) = (0, 0);
        for (t, tri) in mesh.indices.chunks_exact(3).enumerate().rev() {
            let idx = [tri[0] as usize, tri[1] as usize, tri[2] as usize];
            if idx.iter().any(|&i| i >= mesh.vertices.len()) {
                continue;
            }
            let tex = idx.map(|i| [mesh.vertices[i].u * w, mesh.vertices[i].v * h]);
            if triangle_map(tex, tex).is_none() {
                flat += 1;
                continue;
            }
            let mut maps = Vec::with_capacity(frames.len());
            for verts in frames {
                let q = idx.map(|i| {
                    let [x, y] = verts.get(i).copied().unwrap_or([f64::NAN; 2]);
                    let (x, y) = view.apply(x, y);
                    [x, y]
                });
                match triangle_map(tex, q).filter(|m| m.to_array().iter().all(|v| v.is_finite())) {
                    Some(m) => maps.push(m),
                    None => break,
                }
            }
            if maps.len() != frames.len() {
                lost += 1;
                continue;
            }
            let null_ind = self.bones.len() + 1 + at + out.len();
            let triangle = format!("{name} (triangle {t})");
            out.extend(self.triangle_layers(&triangle, name, tex, &maps, &copies, null_ind));
        }
        if lost > 0 {
            warnings.push(format!(
                "mesh `{name}`: {lost} triangle(s) have vertices skelpad cannot place at some frame (not finite); left out"
            ));
        }
        if flat > 0 {
            warnings.push(format!(
                "mesh `{name}`: {flat} triangle(s) cover no area of the picture (no affine map stretches a line of it over a triangle; skelpad draws nothing there either); left out"
            ));
        }
        out
    }

    /// One triangle's null layer (named `triangle`, its `ind` `null_ind`)
    /// and the picture's layers under it, top first.
    fn triangle_layers(
        &self,
        triangle: &str,
        name: &str,
        tex: [[f64; 2]; 3],
        maps: &[Affine],
        copies: &[(String, Value)],
        null_ind: usize,
    ) -> Vec<Value> {
        // Turning about the triangle's centre keeps the numbers small
        // (lottie-web keeps each layer's matrix in 32-bit floats).
        let centre =
            [(tex[0][0] + tex[1][0] + tex[2][0]) / 3.0, (tex[0][1] + tex[1][1] + tex[2][1]) / 3.0];
        let (pos, rot, sca, turn) = triangle_keys(maps, centre);
        let mut null = layer_head(triangle, 3, self.plan.total);
        null["ks"] = json!({
            "a": { "a": 0, "k": [0, 0] },
            "p": super::keys::property(&self.fit(&pos, 2, false), false),
            "r": super::keys::property(&self.fit(&rot, 1, false), true),
            "s": super::keys::property(&self.fit(&sca, 2, false), false),
            "o": { "a": 0, "k": 100 },
        });
        let mut out = vec![null];
        let turn = super::keys::property(&self.fit(&turn, 1, false), true);
        for (id, opacity) in copies {
            let mut l = layer_head(name, 2, self.plan.total);
            l["refId"] = json!(id);
            l["parent"] = json!(null_ind);
            l["hasMask"] = json!(true);
            l["masksProperties"] = mask(&grown(tex));
            l["ks"] = json!({
                "a": { "a": 0, "k": centre }, "p": { "a": 0, "k": [0, 0] },
                "r": turn, "s": { "a": 0, "k": [100.0 / SHRINK, 100.0 / SHRINK] },
                "o": opacity,
            });
            out.push(l);
        }
        out
    }

    /// The mesh's world vertices at every frame.
    fn mesh_frames(&self, slot: usize, att: AttachmentId) -> &[Vec<[f64; 2]>] {
        self.s
            .meshes
            .iter()
            .find(|((s, a), _)| *s == slot && *a == att)
            .map_or(&[], |(_, v)| v.as_slice())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rot(a: f64) -> Affine {
        Affine::from_array([a.cos(), a.sin(), -a.sin(), a.cos(), 0.0, 0.0])
    }

    #[test]
    fn every_affine_map_is_two_turns_and_a_scale() {
        for m in [
            Affine::from_array([2.0, 0.5, -0.3, 0.7, 5.0, -3.0]),
            Affine::from_array([-1.0, 0.2, 0.4, 3.0, 0.0, 0.0]),
            Affine::from_array([0.0, 0.0, 0.0, 0.0, 1.0, 1.0]),
            Affine::from_array([1.0, 0.0, 0.0, -1.0, 0.0, 0.0]),
        ] {
            let (phi, s, theta) = svd(m);
            let lin = rot(phi) * Affine::scale(s[0], s[1]) * rot(theta);
            let (a, b) = (lin.to_array(), m.to_array());
            for i in 0..4 {
                assert!((a[i] - b[i]).abs() < 1e-12, "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn a_triangle_map_takes_the_corners_to_the_corners() {
        let p = [[0.0, 0.0], [10.0, 0.0], [0.0, 5.0]];
        let q = [[3.0, 4.0], [1.0, 9.0], [-2.0, 2.0]];
        let m = triangle_map(p, q).expect("a triangle");
        for (a, b) in p.iter().zip(&q) {
            let (x, y) = m.apply(a[0], a[1]);
            assert!((x - b[0]).abs() < 1e-12 && (y - b[1]).abs() < 1e-12);
        }
        assert!(triangle_map([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], q).is_none());
    }
}
