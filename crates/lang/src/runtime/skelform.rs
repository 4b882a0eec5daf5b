//! Skeletons with [`Composition::SkelForm`]: evaluated the way SkelForm's
//! editor plays a file (its `src/renderer.rs`: `runtime_construction`,
//! `inheritance`, `inverse_kinematics`, `simulate_physics`,
//! `construct_verts`; its `src/shared.rs`: `animate`; `src/utils.rs`:
//! `interp`), in `f32` as SkelForm computes.
//!
//! One frame:
//! 1. local values at the integer frame `trunc(t · fps)`: for every animated
//!    element, the last key at or before the frame and the first after it,
//!    joined by the *later* key's timing curve (a step when both its handles'
//!    y are 999); before an element's first key its first value holds;
//! 2. forward kinematics (no IK, no physics);
//! 3. every IK family solved on copies of those world bones, giving world
//!    rotations for its bones but the last (the last takes the target's
//!    rotation when `mimic_target`);
//! 4. forward kinematics again with those rotations;
//! 5. physics advanced one step from the previous frame's state, reading 4.;
//! 6. forward kinematics a third time with IK rotations and physics.
//!
//! Physics makes a pose depend on the frames before it: evaluating frame `f`
//! runs steps 1–6 for frames `0..=f` from the state the file stores. A
//! [`Pose`] keeps the state it reached, so evaluating later frames with the
//! same pose continues from there (scrubbing forward is cheap); going back
//! starts over. Nothing reads a clock.

use std::sync::Arc;

use super::Pose;
use super::ik::Joint;
use crate::model::*;

/// A bone's world (or local) transform in SkelForm's model: position,
/// rotation and per-axis scale.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SkfXform {
    /// World x.
    pub x: f32,
    /// World y.
    pub y: f32,
    /// World rotation, radians counterclockwise.
    pub rot: f32,
    /// Scale along the bone's x axis.
    pub sx: f32,
    /// Scale along the bone's y axis.
    pub sy: f32,
}

impl SkfXform {
    /// As a transform: `T(x, y) · R(rot) · S(sx, sy)`.
    pub fn matrix(&self) -> Affine {
        Affine::trs(
            f64::from(self.x),
            f64::from(self.y),
            f64::from(self.rot),
            f64::from(self.sx),
            f64::from(self.sy),
        )
    }

    fn from_local(t: &BoneTransform) -> Self {
        SkfXform {
            x: t.x as f32,
            y: t.y as f32,
            rot: t.rotation_rad as f32,
            sx: t.scale_x as f32,
            sy: t.scale_y as f32,
        }
    }
}

/// Where the physics simulation of a pose stands.
#[derive(Clone, Debug, Default)]
pub(crate) struct PhysicsCache {
    key: CacheKey,
    /// The last frame simulated.
    frame: i64,
    state: Vec<PhysicsState>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct CacheKey {
    skeleton: usize,
    anim: usize,
    name: String,
    fps_bits: u64,
    channels: usize,
}

impl CacheKey {
    fn new(skeleton: &Arc<Skeleton>, anim: Option<&Animation>) -> Self {
        CacheKey {
            skeleton: Arc::as_ptr(skeleton) as usize,
            anim: anim.map_or(0, |a| a as *const Animation as usize),
            name: anim.map_or(String::new(), |a| a.name.clone()),
            fps_bits: anim.map_or(0, |a| a.fps.to_bits()),
            channels: anim.map_or(0, |a| a.bones.len() + a.slot_colors.len() + a.attachments.len()),
        }
    }
}

/// The most frames one evaluation simulates (an hour at 60 fps); later
/// frames hold the pose of this one.
pub const MAX_FRAME: i64 = 216_000;

/// The integer frame SkelForm's runtimes show at `time_secs`: `t · fps`
/// truncated (a hair of tolerance so that `frame / fps` maps back to
/// `frame`), at least 0.
pub fn frame_at(anim: &Animation, time_secs: f64) -> i64 {
    let f = time_secs * anim.fps;
    if !f.is_finite() || f <= 0.0 {
        return 0;
    }
    ((f + 1e-6).floor() as i64).min(MAX_FRAME)
}

/// The frame a key sits on.
fn key_frame<T>(k: &Key<T>, fps: f64) -> i64 {
    (k.time_secs * fps).round() as i64
}

pub use super::skelform_curve::interp;

/// The handles of a segment whose curve is stored on its first key (how
/// the model keeps SkelForm's curve of the later key).
fn handles(curve: Curve) -> ((f32, f32), (f32, f32)) {
    match curve {
        Curve::Stepped => ((999.0, 999.0), (999.0, 999.0)),
        Curve::Eased(Easing::Bezier(b)) => ((b.x1 as f32, b.y1 as f32), (b.x2 as f32, b.y2 as f32)),
        Curve::Eased(Easing::Linear) => ((1.0 / 3.0, 1.0 / 3.0), (2.0 / 3.0, 2.0 / 3.0)),
        // Not produced by imports; SkelForm's own presets for the sines.
        Curve::Eased(Easing::SineIn) => ((0.5, 0.0), (1.0, 1.0)),
        Curve::Eased(Easing::SineOut) => ((1.0 / 3.0, 1.0), (2.0 / 3.0, 1.0)),
        Curve::Eased(Easing::SineInOut) => ((0.5, 0.0), (0.5, 1.0)),
        // Spriter's curves never reach SkelForm skeletons; the nearest
        // cubic-bezier when there is one, else linear.
        Curve::Spriter(c) => c
            .as_bezier()
            .map_or(((1.0 / 3.0, 1.0 / 3.0), (2.0 / 3.0, 2.0 / 3.0)), |(x1, y1, x2, y2)| {
                ((x1 as f32, y1 as f32), (x2 as f32, y2 as f32))
            }),
    }
}

/// A channel's value at an integer frame, by the editor's rule (see the
/// module documentation); `None` only for a channel without keys.
pub fn sample_frame(keys: &[Key<f64>], frame: i64, fps: f64) -> Option<f32> {
    let after = keys.partition_point(|k| key_frame(k, fps) <= frame);
    let (prev, next) = match (after.checked_sub(1), (after < keys.len()).then_some(after)) {
        (None, None) => return None,
        (Some(p), None) => (p, p),
        (None, Some(n)) => (n, n),
        (Some(p), Some(n)) => (p, n),
    };
    let (a, b) = (&keys[prev], &keys[next]);
    let (h1, h2) = handles(a.curve);
    let (fa, fb) = (key_frame(a, fps), key_frame(b, fps));
    Some(interp(frame - fa, fb - fa, a.value as f32, b.value as f32, h1, h2))
}

/// Per bone: its physics entry, if any.
fn physics_of(skeleton: &Skeleton) -> Vec<Option<usize>> {
    let mut out = vec![None; skeleton.bones.len()];
    for (i, p) in skeleton.physics.iter().enumerate() {
        if let Some(slot) = out.get_mut(p.bone.index()) {
            *slot = Some(i);
        }
    }
    out
}

/// Local values of every bone at a frame (`None`: the setup pose).
fn locals_at(skeleton: &Skeleton, anim: Option<&Animation>, frame: i64, out: &mut Vec<SkfXform>) {
    out.clear();
    out.extend(skeleton.bones.iter().map(|b| SkfXform::from_local(&b.setup)));
    let Some(anim) = anim else { return };
    for ch in &anim.bones {
        let Some(l) = out.get_mut(ch.bone.index()) else { continue };
        let Some(v) = sample_frame(&ch.keys, frame, anim.fps) else { continue };
        let setup = SkfXform::from_local(&skeleton.bones[ch.bone.index()].setup);
        let relative = ch.mode == ValueMode::RelativeToSetup;
        match ch.property {
            BoneProperty::X => l.x = if relative { setup.x + v } else { v },
            BoneProperty::Y => l.y = if relative { setup.y + v } else { v },
            BoneProperty::Rotation => l.rot = if relative { setup.rot + v } else { v },
            BoneProperty::ScaleX => l.sx = if relative { setup.sx * v } else { v },
            BoneProperty::ScaleY => l.sy = if relative { setup.sy * v } else { v },
        }
    }
}

/// A physics damping split over the x and y axes by its ratio, as SkelForm's
/// editor does: a negative ratio weakens y, a positive one weakens x.
fn damping_per_axis(damping: f32, ratio: f32) -> (f32, f32) {
    let (mut dx, mut dy) = (damping, damping);
    if ratio < 0.0 {
        dy *= 1.0 - ratio.abs();
    } else if ratio > 0.0 {
        dx *= 1.0 - ratio;
    }
    (dx, dy)
}

fn rotate(x: f32, y: f32, rot: f32) -> (f32, f32) {
    (x * rot.cos() - y * rot.sin(), x * rot.sin() + y * rot.cos())
}

fn normalize(x: f32, y: f32) -> (f32, f32) {
    let mag = (x * x + y * y).sqrt();
    if mag == 0.0 { (0.0, 0.0) } else { (x / mag, y / mag) }
}

fn shortest_angle_delta(from: f32, to: f32) -> f32 {
    let pi = std::f32::consts::PI;
    let tau = pi * 2.0;
    let delta = to - from;
    if !delta.is_finite() {
        return 0.0;
    }
    // The editor subtracts τ in a loop; the remainder is the same number
    // without a loop as long as the input is huge.
    let mut delta = delta % tau;
    while delta > pi {
        delta -= tau;
    }
    while delta < -pi {
        delta += tau;
    }
    delta
}

/// The editor's `inheritance`: one pass in bone order.
fn inheritance(
    skeleton: &Skeleton,
    locals: &[SkfXform],
    ik_rot: &[Option<f32>],
    physics: Option<(&[Option<usize>], &[PhysicsState])>,
    out: &mut Vec<SkfXform>,
) {
    out.clear();
    for (i, bone) in skeleton.bones.iter().enumerate() {
        let mut b = locals[i];
        let phys = physics.and_then(|(of, st)| of[i].map(|p| (&skeleton.physics[p], &st[p])));
        if let Some(p) = bone.parent {
            let parent = out[p.index()];
            let mut orbit_rot = parent.rot;
            if let Some((params, state)) = phys
                && params.sway > 0.0
            {
                orbit_rot -= state.orbit_diff;
            }
            b.rot += orbit_rot;
            b.sx *= parent.sx;
            b.sy *= parent.sy;
            let (px, py) = rotate(b.x * parent.sx, b.y * parent.sy, orbit_rot);
            b.x = px + parent.x;
            b.y = py + parent.y;
        }
        if let Some(r) = ik_rot[i] {
            b.rot = r;
        }
        if let Some((params, state)) = phys {
            if params.rot_damping > 0.0 {
                b.rot = state.rot;
            }
            if params.pos_damping > 0.0 {
                (b.x, b.y) = state.pos;
            }
            if params.scale_damping > 0.0 {
                (b.sx, b.sy) = state.scale;
            }
        }
        out.push(b);
    }
}

/// The editor's `inverse_kinematics` on one family: world rotations for
/// the family's bones (`None` for a family that cannot be solved). With
/// `moved`, also writes the solved joints over those bones the way
/// `rusty_skelform` 0.8 leaves them before it simulates physics (positions
/// moved, rotations pointed; the last bone keeps its rotation unless the
/// constraint mirrors the chain).
fn solve_family(
    fam: &IkFamily,
    world: &[SkfXform],
    out: &mut [Option<f32>],
    moved: Option<&mut [SkfXform]>,
) {
    let Some(target) = world.get(fam.target.index()).copied() else { return };
    let mut joints: Vec<Joint> = Vec::with_capacity(fam.bones.len());
    for b in &fam.bones {
        let Some(w) = world.get(b.index()) else { return };
        joints.push(Joint { x: w.x, y: w.y, rot: w.rot });
    }
    let n = joints.len();
    if n == 0 {
        return;
    }
    // A one-bone family: its joint stays on the root, the editor skips the
    // bend constraint, and the bone keeps its rotation (or mimics).
    let mirrored = if n == 1 {
        false
    } else {
        // A degenerate chain (zero lengths, target on the root) gives NaN in
        // the editor too; skelpad leaves such a family unsolved instead.
        match super::ik::solve(fam.mode, fam.constraint, &mut joints, (target.x, target.y)) {
            Some(m) => m,
            None => return,
        }
    };
    if let Some(moved) = moved {
        for (k, b) in fam.bones.iter().enumerate() {
            let m = &mut moved[b.index()];
            (m.x, m.y) = (joints[k].x, joints[k].y);
            if k < n - 1 || mirrored {
                // rusty_skelform mirrors the last bone's (unpointed) rotation too.
                m.rot = joints[k].rot;
            }
        }
    }
    for (k, b) in fam.bones.iter().enumerate() {
        if k == n - 1 {
            if fam.mimic_target {
                out[b.index()] = Some(target.rot);
            }
            continue;
        }
        out[b.index()] = Some(joints[k].rot);
    }
}

/// The editor's `simulate_physics`: advances every bone's state one step
/// towards the world bones `world` (IK applied, no physics).
fn simulate_physics(skeleton: &Skeleton, world: &[SkfXform], state: &mut [PhysicsState]) {
    let (s, e) = ((0.3, 0.3), (0.6, 0.6));
    for (p, params) in skeleton.physics.iter().enumerate() {
        let Some(c) = world.get(params.bone.index()).copied() else { continue };
        let st = &mut state[p];
        let prev_pos = st.pos;
        let (pos_damping, pos_ratio) = (params.pos_damping as f32, params.pos_ratio as f32);
        if pos_damping > 0.0 || params.sway > 0.0 {
            let (dx, dy) = damping_per_axis(pos_damping, pos_ratio);
            st.pos.0 = interp(2, dx as i64, st.pos.0, c.x, s, e);
            st.pos.1 = interp(2, dy as i64, st.pos.1, c.y, s, e);
        }
        let (scale_damping, scale_ratio) = (params.scale_damping as f32, params.scale_ratio as f32);
        if scale_damping > 0.0 {
            let (dx, dy) = damping_per_axis(scale_damping, scale_ratio);
            st.scale.0 = interp(2, dx as i64, st.scale.0, c.sx, s, e);
            st.scale.1 = interp(2, dy as i64, st.scale.1, c.sy, s, e);
        }
        let rot_damping = params.rot_damping as f32;
        if rot_damping > 0.0 {
            st.rot += shortest_angle_delta(st.rot, c.rot) / rot_damping;
        }
        let parent = skeleton.bones[params.bone.index()].parent.and_then(|p| world.get(p.index()));
        let sway = params.sway as f32;
        if let Some(parent) = parent
            && sway > 0.0
        {
            let (nx, ny) = normalize(c.x - parent.x, c.y - parent.y);
            let diff_angle = ny.atan2(nx);
            let mut rest = shortest_angle_delta(st.orbit, diff_angle);
            let bounce = params.rot_bounce as f32;
            if bounce > 0.0 && bounce <= 1.0 {
                rest += st.orbit_vel / (2.0 - bounce);
                st.orbit_vel = rest;
            }
            st.orbit += rest / 10.0;
            let (vx, vy) = (st.pos.0 - prev_pos.0, st.pos.1 - prev_pos.1);
            let (ux, uy) = normalize(vx, vy);
            let angle = (-uy).atan2(-ux);
            let vel_rot = shortest_angle_delta(st.orbit, angle);
            let strength = (vx * vx + vy * vy).sqrt() / 1000.0;
            st.orbit += vel_rot * strength * sway;
            st.orbit_diff = diff_angle - st.orbit;
        }
        // Keep the state finite whatever the input (the editor would carry a
        // NaN on forever).
        for v in [
            &mut st.pos.0,
            &mut st.pos.1,
            &mut st.rot,
            &mut st.scale.0,
            &mut st.scale.1,
            &mut st.orbit,
            &mut st.orbit_diff,
            &mut st.orbit_vel,
        ] {
            if !v.is_finite() {
                *v = 0.0;
            }
        }
    }
}

/// Scratch space for one construction.
#[derive(Default)]
struct Scratch {
    locals: Vec<SkfXform>,
    world: Vec<SkfXform>,
    ik_rot: Vec<Option<f32>>,
}

/// Steps 2–6 for one frame whose locals are in `sc.locals`; the result is in `sc.world`.
fn construct(
    skeleton: &Skeleton,
    sc: &mut Scratch,
    phys_of: &[Option<usize>],
    state: Option<&mut Vec<PhysicsState>>,
) {
    let n = skeleton.bones.len();
    sc.ik_rot.clear();
    sc.ik_rot.resize(n, None);
    let rusty = skeleton.physics_reads == PhysicsReads::RustySkelform
        && state.is_some()
        && !skeleton.physics.is_empty();
    let mut moved = Vec::new();
    if !skeleton.ik.is_empty() {
        inheritance(skeleton, &sc.locals, &sc.ik_rot, None, &mut sc.world);
        if rusty {
            moved = sc.world.clone();
        }
        for fam in &skeleton.ik {
            solve_family(fam, &sc.world, &mut sc.ik_rot, rusty.then_some(&mut moved[..]));
        }
    }
    inheritance(skeleton, &sc.locals, &sc.ik_rot, None, &mut sc.world);
    if let Some(state) = state
        && !skeleton.physics.is_empty()
    {
        simulate_physics(
            skeleton,
            if rusty && !moved.is_empty() { &moved } else { &sc.world },
            state,
        );
        let mut out = Vec::with_capacity(sc.world.len());
        inheritance(skeleton, &sc.locals, &sc.ik_rot, Some((phys_of, state)), &mut out);
        sc.world = out;
    }
}

/// Evaluates a SkelForm-composed armature into `pose` (see the module
/// documentation); `pose.skin` and slots are set by the caller's reset.
pub(crate) fn evaluate_into(
    pose: &mut Pose,
    armature: &Armature,
    anim: Option<&Animation>,
    time_secs: f64,
) {
    let skeleton = &*armature.skeleton;
    let frame = anim.map_or(0, |a| frame_at(a, time_secs));
    let mut sc = Scratch::default();
    let phys_of = physics_of(skeleton);
    let mut state = None;
    if !skeleton.physics.is_empty() {
        let key = CacheKey::new(&armature.skeleton, anim);
        let mut cache = pose.physics.take().filter(|c| {
            c.key == key && c.frame <= frame && c.state.len() == skeleton.physics.len()
        });
        let mut c = cache.take().unwrap_or_else(|| PhysicsCache {
            key,
            frame: -1,
            state: skeleton.physics.iter().map(|p| p.initial).collect(),
        });
        // Frames before the one asked for, in order.
        while c.frame + 1 < frame {
            c.frame += 1;
            locals_at(skeleton, anim, c.frame, &mut sc.locals);
            construct(skeleton, &mut sc, &phys_of, Some(&mut c.state));
        }
        state = Some(c);
    }
    locals_at(skeleton, anim, frame, &mut sc.locals);
    match &mut state {
        Some(c) if c.frame < frame => {
            c.frame = frame;
            construct(skeleton, &mut sc, &phys_of, Some(&mut c.state));
        }
        Some(c) => {
            // The same frame again: its state is already advanced; rebuild
            // the world with it without stepping.
            construct(skeleton, &mut sc, &phys_of, None);
            let mut out = Vec::with_capacity(sc.world.len());
            inheritance(skeleton, &sc.locals, &sc.ik_rot, Some((&phys_of, &c.state)), &mut out);
            sc.world = out;
        }
        None => construct(skeleton, &mut sc, &phys_of, None),
    }
    pose.physics = state;
    pose.skf.clear();
    pose.skf.extend_from_slice(&sc.world);
    for (i, bp) in pose.bones.iter_mut().enumerate() {
        let l = sc.locals[i];
        bp.local.x = f64::from(l.x);
        bp.local.y = f64::from(l.y);
        bp.local.rotation_rad = f64::from(l.rot);
        bp.local.scale_x = f64::from(l.sx);
        bp.local.scale_y = f64::from(l.sy);
        let w = sc.world[i];
        let m = w.matrix();
        bp.world = if m.is_finite() { m } else { Affine::IDENTITY };
    }
    if let Some(anim) = anim {
        apply_slots(pose, anim, frame);
    }
}

/// Slot colors and attachment switches at an integer frame.
fn apply_slots(pose: &mut Pose, anim: &Animation, frame: i64) {
    for ch in &anim.slot_colors {
        let Some(v) = sample_frame(&ch.keys, frame, anim.fps) else { continue };
        let Some(sp) = pose.slots.get_mut(ch.slot.index()) else { continue };
        sp.set_color_component(ch.component, f64::from(v));
    }
    for ch in &anim.attachments {
        let i = ch.keys.partition_point(|k| key_frame(k, anim.fps) <= frame);
        let Some(k) = i.checked_sub(1).and_then(|i| ch.keys.get(i)).or(ch.keys.first()) else {
            continue;
        };
        if let Some(sp) = pose.slots.get_mut(ch.slot.index()) {
            sp.attachment = k.value;
        }
    }
}

/// World positions of a mesh's vertices (the editor's `construct_verts`),
/// for a mesh on `slot_bone` in a pose of a SkelForm-composed skeleton.
pub fn mesh_vertices(pose: &Pose, slot_bone: BoneId, mesh: &Mesh) -> Vec<(f64, f64)> {
    let world = |b: BoneId| pose.skf.get(b.index()).copied();
    let Some(bone) = world(slot_bone) else { return Vec::new() };
    let (prot, psx, psy) =
        (mesh.pivot_rot as f32, mesh.pivot_scale.0 as f32, mesh.pivot_scale.1 as f32);
    let inherit = |x: f32, y: f32, b: &SkfXform| {
        let (rx, ry) = rotate(x * b.sx * psx, y * b.sy * psy, b.rot + prot);
        (rx + b.x, ry + b.y)
    };
    let init: Vec<(f32, f32)> = mesh.vertices.iter().map(|v| (v.x as f32, v.y as f32)).collect();
    let mut out: Vec<(f32, f32)> = init.iter().map(|&(x, y)| inherit(x, y, &bone)).collect();
    for (bi, bind) in mesh.binds.iter().enumerate() {
        let Some(bb) = world(bind.bone) else { continue };
        if !bind.path {
            for &(v, w) in &bind.verts {
                let Some(&(ix, iy)) = init.get(v as usize) else { continue };
                let (ex, ey) = inherit(ix, iy, &bb);
                let p = &mut out[v as usize];
                p.0 += (ex - p.0) * w as f32;
                p.1 += (ey - p.1) * w as f32;
            }
            continue;
        }
        // Pathing: the binds' bones form a line; a vertex keeps its offset
        // from its bone, turned to the average normal of the line there.
        let prev = bi.saturating_sub(1);
        let next = (bi + 1).min(mesh.binds.len() - 1);
        let (Some(pb), Some(nb)) = (world(mesh.binds[prev].bone), world(mesh.binds[next].bone))
        else {
            continue;
        };
        let (pdx, pdy) = (bb.x - pb.x, bb.y - pb.y);
        let (ndx, ndy) = (nb.x - bb.x, nb.y - bb.y);
        let pn = normalize(-pdy, pdx);
        let nn = normalize(-ndy, ndx);
        let normal_angle = (pn.1 + nn.1).atan2(pn.0 + nn.0);
        for &(v, w) in &bind.verts {
            let Some(&(ix, iy)) = init.get(v as usize) else { continue };
            let (px, py) = (ix + bb.x, iy + bb.y);
            let (rx, ry) = rotate(px - bb.x, py - bb.y, normal_angle);
            out[v as usize] = (bb.x + rx * w as f32, bb.y + ry * w as f32);
        }
    }
    out.into_iter().map(|(x, y)| (f64::from(x), f64::from(y))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bone(name: &str, parent: Option<u32>, x: f64) -> Bone {
        Bone {
            name: name.into(),
            parent: parent.map(BoneId),
            setup: BoneTransform { x, ..Default::default() },
            length: 0.0,
            color: Color::DEFAULT_BONE,
            inherit_rotation: true,
            inherit_scale: true,
        }
    }

    /// A two-segment arm (root, elbow, tip) and a target at (10, 10).
    fn arm(constraint: IkConstraint) -> Armature {
        let mut target = bone("target", None, 10.0);
        target.setup.y = 10.0;
        let sk = Skeleton {
            bones: vec![
                bone("root", None, 0.0),
                bone("elbow", Some(0), 10.0),
                bone("tip", Some(1), 10.0),
                target,
            ],
            composition: Composition::SkelForm,
            ik: vec![IkFamily {
                bones: vec![BoneId(0), BoneId(1), BoneId(2)],
                target: BoneId(3),
                mode: IkMode::Fabrik,
                constraint,
                mimic_target: false,
            }],
            ..Default::default()
        };
        Armature { skeleton: std::sync::Arc::new(sk), animations: Vec::new() }
    }

    #[test]
    fn fabrik_puts_the_tip_on_a_reachable_target() {
        for c in [IkConstraint::None, IkConstraint::Clockwise, IkConstraint::CounterClockwise] {
            let p = crate::runtime::evaluate(&arm(c), None, SkinId(0), 0.0);
            let tip = p.skf[2];
            assert!((tip.x - 10.0).hypot(tip.y - 10.0) < 0.05, "{c:?}: tip at {tip:?}");
            // Segment lengths are kept.
            let (r, e) = (p.skf[0], p.skf[1]);
            assert!(((e.x - r.x).hypot(e.y - r.y) - 10.0).abs() < 1e-3);
        }
    }

    #[test]
    fn bend_constraints_choose_the_side_of_the_elbow() {
        // Which side of the root→target line the elbow lands on (cross product sign).
        let side = |c| {
            let p = crate::runtime::evaluate(&arm(c), None, SkinId(0), 0.0);
            let e = p.skf[1];
            (10.0 * e.y - 10.0 * e.x).signum()
        };
        assert_ne!(side(IkConstraint::Clockwise), side(IkConstraint::CounterClockwise));
    }

    #[test]
    fn frames_are_sampled_like_the_editor() {
        let k = |f: f64, v: f64, curve: Curve| Key { time_secs: f / 10.0, value: v, curve };
        let lin = Curve::bezier(1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0);
        let keys = vec![k(2.0, 10.0, lin), k(6.0, 20.0, Curve::Stepped), k(8.0, 30.0, lin)];
        // Before the first key its value holds; linear in between; a step holds.
        assert_eq!(sample_frame(&keys, 0, 10.0), Some(10.0));
        assert!((sample_frame(&keys, 4, 10.0).unwrap() - 15.0).abs() < 1e-4);
        assert_eq!(sample_frame(&keys, 7, 10.0), Some(20.0));
        assert_eq!(sample_frame(&keys, 8, 10.0), Some(30.0));
        assert_eq!(sample_frame(&keys, 99, 10.0), Some(30.0));
        let a = Animation::empty("a", 60.0);
        assert_eq!(frame_at(&a, 0.5), 30);
        assert_eq!(frame_at(&a, 0.0166), 0);
        assert_eq!(frame_at(&a, 1.0 / 60.0), 1);
    }
}
