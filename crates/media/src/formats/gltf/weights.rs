//! Imported meshes as glTF skins: a vertex of a SkelForm mesh starts on the
//! slot's bone and each bind moves it part of the way (its weight) to where
//! the bind's bone would carry it, so it ends as a blend of the bones with
//! weights that add up to one — linear blend skinning, glTF's own rule —
//! when every bone carries the vertex's one bind position `v` by its world
//! matrix. That holds for unturned pivots and is checked, not assumed:
//! the blend is compared with skelpad's skinned vertices at every frame.

use super::Clip;
use super::attach::Prim;
use skelpad_lang::model::{Affine, Armature, AttachmentId, AttachmentKind, Mesh};

/// Largest distance (world units) between the blend and skelpad's vertex.
const EXACT: f64 = 1e-3;

/// The mesh's bones (slot bone first) and one primitive with weights, when
/// the blend lands on skelpad's vertices at every frame of every clip and
/// the mesh is always shown at one place in the draw order.
pub fn weighted(
    arm: &Armature,
    clips: &[Clip],
    slot: usize,
    att: AttachmentId,
) -> Option<(Vec<usize>, Vec<Prim>)> {
    let sk = &*arm.skeleton;
    let a = sk.attachment(clips[0].skin, att)?;
    let AttachmentKind::Mesh(mesh) = &a.kind else { return None };
    let bone = sk.slots.get(slot)?.bone.index();
    let rank0 = clips[0].samples.rank[slot];
    let steady = clips.iter().all(|c| {
        (0..c.plan.total).all(|f| {
            c.samples.shown[f * c.samples.slots + slot] == Some(att)
                && c.samples.rank[f * c.samples.slots + slot] == rank0
        })
    });
    if !steady || mesh.binds.iter().any(|b| b.path) {
        return None;
    }
    let skf = sk.composition == skelpad_lang::model::Composition::SkelForm;
    let (bones, coef) = coefficients(mesh, bone);
    let place = if skf {
        Affine::rotate(mesh.pivot_rot) * Affine::scale(mesh.pivot_scale.0, mesh.pivot_scale.1)
    } else {
        a.transform.matrix()
    };
    let bind: Vec<(f64, f64)> = mesh.vertices.iter().map(|v| place.apply(v.x, v.y)).collect();
    for c in clips {
        let frames = &c.samples.meshes.iter().find(|(k, _)| *k == (slot, att))?.1;
        for (f, want) in frames.iter().enumerate() {
            for (i, w) in want.iter().enumerate() {
                let (mut x, mut y) = (0.0, 0.0);
                for (j, k) in coef[i].iter().enumerate().filter(|(_, k)| **k != 0.0) {
                    let (px, py) =
                        c.samples.world[f * c.samples.bones + bones[j]].apply(bind[i].0, bind[i].1);
                    (x, y) = (x + k * px, y + k * py);
                }
                if (x - w[0]).hypot(y - w[1]) > EXACT {
                    return None;
                }
            }
        }
    }
    let prim = primitive(mesh, &bind, &coef, rank0)?;
    Some((bones, vec![prim]))
}

/// The bones a mesh's vertices follow and each vertex's weight per bone.
fn coefficients(mesh: &Mesh, bone: usize) -> (Vec<usize>, Vec<Vec<f64>>) {
    let mut bones = vec![bone];
    for b in &mesh.binds {
        if !bones.contains(&b.bone.index()) {
            bones.push(b.bone.index());
        }
    }
    let mut coef = vec![vec![0.0; bones.len()]; mesh.vertices.len()];
    for c in &mut coef {
        c[0] = 1.0;
    }
    for b in &mesh.binds {
        let Some(j) = bones.iter().position(|&x| x == b.bone.index()) else { continue };
        for &(v, w) in &b.verts {
            let Some(c) = coef.get_mut(v as usize) else { continue };
            for k in c.iter_mut() {
                *k *= 1.0 - w;
            }
            c[j] += w;
        }
    }
    (bones, coef)
}

/// The primitive: positions (z the draw order's), joints and weights (at
/// most four per vertex, each at least 0, adding up to one in f32).
fn primitive(mesh: &Mesh, bind: &[(f64, f64)], coef: &[Vec<f64>], rank: u32) -> Option<Prim> {
    let mut p = Prim {
        color: [1.0; 4],
        picture: Some(mesh.image.clone()?),
        indices: mesh.indices.clone(),
        ..Prim::default()
    };
    let z = super::z_of(rank) as f32;
    for (i, v) in mesh.vertices.iter().enumerate() {
        let mut used: Vec<(usize, f64)> =
            coef[i].iter().copied().enumerate().filter(|(_, k)| *k > 1e-9).collect();
        if used.len() > 4 || coef[i].iter().any(|k| *k < -1e-9) {
            return None;
        }
        used.sort_by_key(|(j, _)| *j);
        let mut joints = [0u16; 4];
        let mut weights = [0f32; 4];
        for (n, (j, k)) in used.iter().enumerate() {
            joints[n] = u16::try_from(*j).ok()?;
            weights[n] = *k as f32;
        }
        let n = used.len().max(1) - 1;
        weights[n] = 1.0 - weights[..n].iter().sum::<f32>();
        p.positions.push([bind[i].0 as f32, bind[i].1 as f32, z]);
        p.uvs.push([v.u as f32, v.v as f32]);
        p.joints.push(joints);
        p.weights.push(weights);
    }
    let n = p.positions.len() as u32;
    if p.indices.iter().any(|&i| i >= n) {
        return None;
    }
    Some(p)
}
