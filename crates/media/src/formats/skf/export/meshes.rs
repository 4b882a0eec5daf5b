//! Visuals and meshes: each helper's visual (its picture, tint and
//! z-index), and the mesh of a path bent by several bones with the frames
//! its vertices are bound to.

use super::*;

pub(super) fn color_tint(c: Color) -> Tint {
    Tint { r: c.r as f32, g: c.g as f32, b: c.b as f32, a: c.a as f32 }
}

/// The z-index of each slot: its place in the draw order.
pub(super) fn zindex_of(sk: &Skeleton, slot: SlotId) -> i32 {
    sk.draw_order.iter().position(|&s| s == slot).unwrap_or(sk.draw_order.len()) as i32
}

/// A mesh planned for a helper bone.
pub(super) struct MeshData {
    pub(super) att: AttachmentId,
    pub(super) vertices: Vec<SkfVertex>,
    pub(super) indices: Vec<u32>,
    pub(super) binds: Vec<SkfBind>,
    /// Vertices at setup in the attachment's space (for UVs).
    pub(super) uv_points: Vec<(f64, f64)>,
    /// The skin whose version of the path the mesh is made of.
    pub(super) skin: SkinId,
    pub(super) slot: SlotId,
    pub(super) bends: bool,
}

/// Writes the visuals; returns the picture job of each mesh attachment.
pub(super) fn write_visuals(
    ctx: &Ctx,
    mut meshes: HashMap<usize, MeshData>,
    out: &mut SkfArmature,
    jobs: &mut Vec<PictureJob>,
    mesh_uvs: &mut Vec<MeshUv>,
) -> HashMap<AttachmentId, usize> {
    let sk = ctx.sk;
    let mut mesh_jobs = HashMap::new();
    for j in 0..ctx.bones.len() {
        // A helper always names its own picture; it is hidden with scale 0.
        let (slot, tex) = match &ctx.bones[j].kind {
            Kind::Plain { slot, att } | Kind::Mesh { slot, att } => (*slot, ctx.att_name(*att)),
            _ => continue,
        };
        let tint = color_tint(sk.slot(slot).color);
        let z = zindex_of(sk, slot);
        let mut vis = SkfVisual {
            tex: tex.clone(),
            zindex: z,
            tint,
            init_tex: tex.clone(),
            init_tint: tint,
            init_zindex: z,
            ..SkfVisual::default()
        };
        let v = out.visuals.len();
        if let Some(m) = meshes.remove(&j) {
            if m.bends {
                vis.vertices = m.vertices;
                vis.indices = m.indices;
                vis.binds = m.binds;
                mesh_uvs.push(MeshUv { visual: v, points: m.uv_points });
            }
            jobs.push(PictureJob::Attachment {
                skin: m.skin,
                slot: m.slot,
                attachment: m.att,
                mesh: m.bends.then_some(v),
            });
            mesh_jobs.insert(m.att, jobs.len() - 1);
        }
        out.visuals.push(vis);
        let bone = &mut out.bones[j];
        bone.visuals_id = v as i32;
        bone.tex = tex;
        bone.zindex = z;
        bone.tint = tint;
    }
    mesh_jobs
}

/// Plans the mesh of a path attachment owned by helper `j`, adding the
/// bones its vertices are bound to.
pub(super) fn build_mesh(
    ctx: &mut Ctx,
    j: usize,
    slot: SlotId,
    att: AttachmentId,
    setup_pose: &Pose,
) -> Option<MeshData> {
    let sk = ctx.sk;
    let a = ctx.owner_att(att)?;
    let AttachmentKind::Path { path, style } = &a.kind else { return None };
    let slot_bone = sk.slot(slot).bone;
    let frame_of = mesh_frames(ctx, j, slot, att, path);
    let mut setup = Targets { show_all: true, ..ctx.new_targets() };
    ctx.targets(setup_pose, &mut setup);
    let skin = ctx.owners[att.index()].as_ref().map_or(SkinId(0), |o| o.skin);
    let geo = match mesh_geometry(ctx.texel, a, path, style, slot_bone, setup_pose) {
        Ok(g) => g,
        Err(reason) => {
            ctx.warnings.push(Warning {
                subject: format!("attachment `{}`", ctx.att_name(att)),
                message: format!(
                    "cannot be made a mesh ({reason}); it is drawn as a picture that does not bend"
                ),
            });
            return Some(MeshData {
                att,
                vertices: vec![],
                indices: vec![],
                binds: vec![],
                uv_points: vec![],
                skin,
                slot,
                bends: false,
            });
        }
    };
    let att_from_world = (setup_pose.bones[slot_bone.index()].world * a.transform.matrix())
        .inverse()
        .unwrap_or_default();
    let (vertices, uv_points, mut binds) =
        bind_vertices(ctx, j, &geo, &frame_of, &setup, att_from_world);
    chain_weights(&mut binds, geo.vertices.len());
    Some(MeshData {
        att,
        vertices,
        indices: geo.triangles.iter().flatten().copied().collect(),
        binds: binds
            .into_iter()
            .map(|(id, verts)| SkfBind {
                id,
                bone_id: id,
                is_path: false,
                verts: verts
                    .into_iter()
                    .map(|(id, weight)| SkfBindVert { id, weight: weight as f32 })
                    .collect(),
            })
            .collect(),
        uv_points,
        skin,
        slot,
        bends: true,
    })
}

/// A mesh's binds: (exported bone, [(vertex, weight)]) in array order.
type Binds = Vec<(i32, Vec<(u32, f64)>)>;

/// The frame each bone's points move in (see `Kind::Conjugate`): helper `j`
/// for the slot's bone, a new conjugate frame for every other bone of the path.
fn mesh_frames(
    ctx: &mut Ctx,
    j: usize,
    slot: SlotId,
    att: AttachmentId,
    path: &BoundPath,
) -> HashMap<BoneId, usize> {
    let sk = ctx.sk;
    let slot_bone = sk.slot(slot).bone;
    let mut frame_of: HashMap<BoneId, usize> = HashMap::new();
    frame_of.insert(slot_bone, j);
    for b in path.bones() {
        if b == slot_bone {
            continue;
        }
        // Always a frame of its own, never the real bone: a real bone's
        // exported frame drops its mirror (see `Ctx::targets`), and the
        // frame collapses while the mesh is not shown.
        let name = format!("{}>{}", ctx.bones[j].name, sk.bone(b).name);
        let idx = ctx.push(name, Some(ctx.real[b.index()]), Kind::Conjugate { slot, att, bone: b });
        frame_of.insert(b, idx);
    }
    frame_of
}

/// The path's triangulated outline and stroke band, with the frames' setup
/// matrices in skelpad's terms (`texel`: export units per texel).
fn mesh_geometry(
    texel: f64,
    a: &Attachment,
    path: &BoundPath,
    style: &ShapeStyle,
    slot_bone: BoneId,
    setup_pose: &Pose,
) -> Result<MeshGeometry, String> {
    let identity = is_identity(&a.transform);
    let slot_world = setup_pose.bones[slot_bone.index()].world;
    let a_m = a.transform.matrix();
    let frame_matrix = |b: BoneId| -> Affine {
        let bw = setup_pose.bones[b.index()].world;
        if b == slot_bone {
            slot_world * a_m
        } else if identity {
            bw
        } else {
            slot_world * a_m * slot_world.inverse().unwrap_or_default() * bw
        }
    };
    let k = 1.0 / texel;
    let half = style.stroke_width / 2.0
        * if style.join == LineJoin::Miter { style.miter_limit.min(4.0) } else { 1.0 }
        + 2.0 / k;
    mesh::build(path, &frame_matrix, 0.25 / k, half)
}

/// Vertices, their setup points in the attachment's space (for UVs) and
/// binds: each vertex bound to the frames of its blend, through offset
/// bones where a vertex blends several frames.
fn bind_vertices(
    ctx: &mut Ctx,
    j: usize,
    geo: &MeshGeometry,
    frame_of: &HashMap<BoneId, usize>,
    setup: &Targets,
    att_from_world: Affine,
) -> (Vec<SkfVertex>, Vec<(f64, f64)>, Binds) {
    let mut binds: Binds = Vec::new();
    let mut offset_bones: HashMap<(usize, u64, u64), usize> = HashMap::new();
    let mut vertices = Vec::with_capacity(geo.vertices.len());
    let mut uv_points = Vec::with_capacity(geo.vertices.len());
    for (vi, ((blend, setup_world), band)) in geo.vertices.iter().zip(&geo.band_offsets).enumerate()
    {
        let v = (blend.parts[0].2, blend.parts[0].3);
        // The band offset, solved in the blended frame so it is right at setup.
        let mut lin = [0.0; 4];
        for &(b, w, _, _) in &blend.parts {
            let m = setup.trs[frame_of[&b]].matrix();
            for (l, x) in lin.iter_mut().zip(m.to_array()) {
                *l += w * x;
            }
        }
        let m = Affine::from_array([lin[0], lin[1], lin[2], lin[3], 0.0, 0.0]);
        let delta = m.inverse().map(|inv| inv.apply_vector(band.0, band.1)).unwrap_or((0.0, 0.0));
        let init = vec2(v.0 + delta.0, v.1 + delta.1);
        vertices.push(SkfVertex { id: vi as u32, pos: init, uv: Vec2::default(), init_pos: init });
        uv_points.push(att_from_world.apply(setup_world.0, setup_world.1));
        for &(b, w, px, py) in &blend.parts {
            let frame = frame_of[&b];
            let (dx, dy) = (px - v.0, py - v.1);
            let bone = if dx.abs() < 1e-9 && dy.abs() < 1e-9 {
                frame
            } else {
                let key = (frame, dx.to_bits(), dy.to_bits());
                match offset_bones.get(&key) {
                    Some(&i) => i,
                    None => {
                        let name = format!("{}~{}", ctx.bones[j].name, offset_bones.len());
                        let i = ctx.push(name, Some(frame), Kind::Offset { of: frame, dx, dy });
                        offset_bones.insert(key, i);
                        i
                    }
                }
            };
            match binds.iter_mut().find(|(id, _)| *id == bone as i32) {
                Some((_, verts)) => verts.push((vi as u32, w)),
                None => binds.push((bone as i32, vec![(vi as u32, w)])),
            }
        }
    }
    (vertices, uv_points, binds)
}

/// SkelForm blends a vertex's binds one after another in array order
/// (pos += (bone(v) − pos)·w), so the planned weights β become
/// w_k = β_k / Σ_{i≤k} β_i in that order: the first is 1, which also
/// discards the mesh bone's own placement.
fn chain_weights(binds: &mut Binds, n_vertices: usize) {
    let mut sum = vec![0.0; n_vertices];
    for (_, verts) in binds {
        for (v, w) in verts.iter_mut() {
            sum[*v as usize] += *w;
            *w /= sum[*v as usize];
        }
    }
}
