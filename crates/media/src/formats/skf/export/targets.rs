//! Targets: the SkelForm world transform each exported bone must have at
//! one skelpad pose.

use super::*;

/// Per frame state and results of target computation.
pub(super) struct Targets {
    /// Current SkelForm-model world of every exported bone.
    pub(super) trs: Vec<Trs>,
    /// Sheared targets seen (export index), reported once.
    pub(super) sheared: Vec<bool>,
    /// Place every helper as if its attachment were shown (for building
    /// meshes).
    pub(super) show_all: bool,
}

impl Ctx<'_> {
    pub(super) fn new_targets(&self) -> Targets {
        Targets {
            trs: vec![Trs::default(); self.bones.len()],
            sheared: vec![false; self.bones.len()],
            show_all: false,
        }
    }

    /// The attachment a helper shows (or, for mesh frames, moves), if any.
    pub(super) fn helper_attachment(&self, j: usize) -> Option<(SlotId, AttachmentId)> {
        match self.bones[j].kind {
            Kind::Plain { slot, att }
            | Kind::Mesh { slot, att }
            | Kind::Conjugate { slot, att, .. } => Some((slot, att)),
            Kind::Real(_) | Kind::Offset { .. } => None,
        }
    }

    /// Fills `t.trs` from a skelpad pose. Real bones get the decomposition
    /// that follows skelpad's own accumulation (F · R(acc) · S(acc)), so
    /// rotations and scale signs stay continuous across frames; helpers get
    /// their world under the real bones' skelpad worlds. Then a mirrored real
    /// bone is turned into its unmirrored frame (y axis turned around, x axis
    /// kept): children's rotations are read differently under a mirrored
    /// parent by SkelForm's runtimes, so no parent may face left. The mirror
    /// stays in the helpers, which carry the pictures and meshes. A helper
    /// whose attachment is not shown gets scale 0 (a mesh's frames also move
    /// onto the slot's bone, so the whole mesh collapses to a point).
    pub(super) fn targets(&self, pose: &Pose, t: &mut Targets) {
        self.real_targets(pose, t);
        self.helper_targets(pose, t);
        for &j in &self.real {
            let trs = &mut t.trs[j];
            if sim::facing_left(trs.sx, trs.sy) {
                trs.sy = -trs.sy;
            }
        }
    }

    /// The targets of the real bones (see [`Ctx::targets`]).
    fn real_targets(&self, pose: &Pose, t: &mut Targets) {
        // Flip signs accumulated down each chain (every bone inherits its
        // parent's flips); rotation and scale come accumulated with the pose.
        let nb = self.sk.bones.len();
        let mut flips: Vec<(f64, f64)> = Vec::with_capacity(nb);
        for (i, bone) in self.sk.bones.iter().enumerate() {
            let l = pose.bones[i].local;
            let mut fx = if l.flip_x { -1.0 } else { 1.0 };
            let mut fy = if l.flip_y { -1.0 } else { 1.0 };
            if let Some(p) = bone.parent {
                let (pfx, pfy) = flips[p.index()];
                fx *= pfx;
                fy *= pfy;
            }
            flips.push((fx, fy));
            let w = pose.bones[i].world;
            let DVec2 { x, y } = w.translation();
            // F·R(θ)·S(s): a mirror on one axis turns the rotation around
            // and moves the sign into the scale; on both it is a half turn.
            let acc = pose.accumulated(BoneId::from_index(i));
            let (rot, sx, sy) =
                acc.map_or((0.0, 1.0, 1.0), |a| (a.rotation_rad, a.scale_x, a.scale_y));
            let mut trs = match (fx < 0.0, fy < 0.0) {
                // Spriter's world has no shear but its own accumulation (and
                // parents that change): split the matrix, staying near the
                // previous frame's rotation.
                _ if self.sk.composition == skelpad_lang::model::Composition::Spriter
                    || acc.is_none() =>
                {
                    nearest_branch(Trs::from_matrix(w).0, t.trs[self.real[i]].rot)
                }
                (false, false) => Trs { x, y, rot, sx, sy },
                (true, false) => Trs { x, y, rot: -rot, sx: -sx, sy },
                (false, true) => Trs { x, y, rot: -rot, sx, sy: -sy },
                (true, true) => Trs { x, y, rot: rot + std::f64::consts::PI, sx, sy },
            };
            // Under a collapsed scale skelpad's world is not F·R·S of the
            // accumulated values (it projects onto a line): take the matrix
            // itself, its x axis exact (a projection's skew is dropped; the
            // bone is flat either way, and its children are placed exactly).
            let got = trs.matrix();
            let tol = 1e-9 * linear_size(w).max(1.0);
            if (0..4).any(|k| (w.to_array()[k] - got.to_array()[k]).abs() > tol) {
                trs = nearest_branch(Trs::from_matrix(w).0, trs.rot);
            }
            if self.pointed.get(i).copied().unwrap_or(false) && trs.sx < 0.0 {
                trs = Trs { rot: trs.rot + std::f64::consts::PI, sx: -trs.sx, sy: -trs.sy, ..trs };
            }
            t.trs[self.real[i]] = trs;
        }
    }

    /// The targets of the helpers, under the real bones' (see
    /// [`Ctx::targets`]).
    fn helper_targets(&self, pose: &Pose, t: &mut Targets) {
        for j in 0..self.bones.len() {
            let mut trs = match &self.bones[j].kind {
                Kind::Real(_) => continue,
                Kind::Plain { slot, att } => self.plain_target(pose, t, j, (*slot, *att)),
                Kind::Mesh { slot, att } => {
                    let parent = t.trs[self.real[self.sk.slot(*slot).bone.index()]];
                    let tr = self.owner_att(*att).map(|a| a.transform).unwrap_or_default();
                    sim::compose(
                        &parent,
                        &Trs {
                            x: tr.x,
                            y: tr.y,
                            rot: tr.rotation_rad,
                            sx: tr.scale_x,
                            sy: tr.scale_y,
                        },
                    )
                }
                Kind::Conjugate { slot, att, bone } => {
                    let s = pose.bones[self.sk.slot(*slot).bone.index()].world;
                    let a = self.owner_att(*att).map(|a| a.transform.matrix()).unwrap_or_default();
                    let b = pose.bones[bone.index()].world;
                    let m = s * a * s.inverse().unwrap_or(Affine::IDENTITY) * b;
                    let (trs, shear) = Trs::from_matrix(m);
                    if shear.abs() > 1e-6 {
                        t.sheared[j] = true;
                    }
                    nearest_branch(trs, t.trs[j].rot)
                }
                Kind::Offset { of, dx, dy } => {
                    sim::compose(&t.trs[*of], &Trs { x: *dx, y: *dy, ..Trs::default() })
                }
            };
            if let Some((slot, att)) = self.helper_attachment(j)
                && !t.show_all
                && pose.slots[slot.index()].attachment != Some(att)
            {
                trs.sx = 0.0;
                trs.sy = 0.0;
                if !matches!(self.bones[j].kind, Kind::Plain { .. }) {
                    let w = pose.bones[self.sk.slot(slot).bone.index()].world;
                    (trs.x, trs.y) = w.translation().into();
                }
            }
            t.trs[j] = trs;
        }
    }

    /// The target of a plain helper `j` (attachment `att` of `slot`): the
    /// attachment's transform under its slot's bone, a skewed one made
    /// unskewed (and reported in `t.sheared`).
    fn plain_target(
        &self,
        pose: &Pose,
        t: &mut Targets,
        j: usize,
        (slot, att): (SlotId, AttachmentId),
    ) -> Trs {
        let slot_bone = self.real[self.sk.slot(slot).bone.index()];
        let (local, matrix_local) = match self.owner_att(att) {
            Some(a) => {
                let k = self.texel_of(a);
                let tr = a.transform;
                (
                    Trs {
                        x: tr.x,
                        y: tr.y,
                        rot: tr.rotation_rad,
                        sx: tr.scale_x * k,
                        sy: tr.scale_y * k,
                    },
                    tr.matrix() * Affine::scale(k, k),
                )
            }
            None => (Trs::default(), Affine::IDENTITY),
        };
        let parent = t.trs[slot_bone];
        let mut trs = sim::compose(&parent, &local);
        let shown = pose.slots[slot.index()].attachment == Some(att);
        if shown && matrix_local.x_axis().y.abs() + matrix_local.y_axis().x.abs() > 0.0 {
            let want = pose.bones[self.sk.slot(slot).bone.index()].world * matrix_local;
            let got = trs.matrix();
            let tol = 1e-6 * linear_size(want).max(1e-9);
            if (0..4).any(|k| (want.to_array()[k] - got.to_array()[k]).abs() > tol) {
                // A skewed picture: keep its x axis (direction and
                // length) and its area exact, drop the skew.
                t.sheared[j] = true;
                trs = nearest_branch(Trs::from_matrix(want).0, trs.rot);
            }
        }
        trs
    }
}

/// Of the two ways to write the same matrix, (rot, s) and (rot + π, −s), the
/// one whose rotation is nearest `rot`, so values stay continuous.
pub(super) fn nearest_branch(trs: Trs, rot: f64) -> Trs {
    let alt = Trs { rot: trs.rot + std::f64::consts::PI, sx: -trs.sx, sy: -trs.sy, ..trs };
    if sim::wrap_angle(alt.rot - rot).abs() < sim::wrap_angle(trs.rot - rot).abs() {
        alt
    } else {
        trs
    }
}
