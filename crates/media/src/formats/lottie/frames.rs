//! The composition's timeline (which animation lies at which frames), its
//! framing, and skelpad's pose sampled at every frame.

use super::LottieError;
use super::LottieOptions;
use crate::render::{AttachmentOutline, Bounds, DrawOptions, RenderCache, View};
use skelpad_lang::model::{Affine, AnimId, Armature, AttachmentId, Color, SkinId};
use skelpad_lang::runtime::{Pose, evaluate_into};

/// Frames a file may have at most (all animations together).
pub const MAX_FRAMES: usize = 100_000;
/// Bone-frames (bones × frames) an export samples at most.
pub const MAX_SAMPLES: usize = 20_000_000;

/// One animation on the timeline.
#[derive(Clone, Debug)]
pub struct PlanAnim {
    /// The animation (`None`: the setup pose, for a file without animations).
    pub id: Option<AnimId>,
    /// Its name (the marker's).
    pub name: String,
    /// Its own frame rate.
    pub fps: f64,
    /// Its first frame on the composition's timeline.
    pub offset: usize,
    /// Its frames: `offset .. offset + frames`; frame `offset + frames` is
    /// its closing frame (the pose at its end, which a loop reaches just
    /// before it starts again), before the next animation's first.
    pub frames: usize,
}

/// The composition's timeline: each animation's frames, then its closing
/// frame, so a player reaches the loop's start pose between the last frame
/// and the loop as skelpad does, and a player that treats a marker's end as
/// a frame it draws (dotlottie-web) draws this closing pose there, not the
/// next animation's first.
#[derive(Clone, Debug)]
pub struct Plan {
    /// Frames per second of the file.
    pub fps: f64,
    /// The animations, one after another.
    pub anims: Vec<PlanAnim>,
    /// All frames, closing frames included.
    pub total: usize,
    /// Poses change only at whole frames (a SkelForm file: its runtimes,
    /// and skelpad's, show each frame's pose until the next), so every
    /// value is written with hold keys.
    pub stepped: bool,
}

impl Plan {
    /// Lays `ids` one after another at `fps` (default: [`file_fps`] of
    /// their rates).
    pub fn new(arm: &Armature, ids: &[AnimId], fps: Option<f64>) -> Result<Plan, LottieError> {
        let rates: Vec<f64> = ids.iter().filter_map(|&i| arm.animation(i)).map(|a| a.fps).collect();
        let fps = fps.unwrap_or_else(|| file_fps(&rates));
        let mut anims = Vec::new();
        let mut offset = 0usize;
        for &id in ids {
            let Some(a) = arm.animation(id) else { continue };
            let n = a.frame_count_at(fps);
            if n > MAX_FRAMES as u64 {
                return Err(LottieError::Cannot(format!(
                    "animation `{}` is too long: {n} frames (at most {MAX_FRAMES})",
                    a.name
                )));
            }
            let frames = n as usize;
            anims.push(PlanAnim { id: Some(id), name: a.name.clone(), fps: a.fps, offset, frames });
            offset += frames + 1;
        }
        if anims.is_empty() {
            anims.push(PlanAnim { id: None, name: "setup".into(), fps, offset: 0, frames: 1 });
            offset = 2;
        }
        if offset > MAX_FRAMES {
            return Err(LottieError::Cannot(format!(
                "the animations are too long together: {offset} frames (at most {MAX_FRAMES}); export one with --anim"
            )));
        }
        let stepped = arm.skeleton.composition == skelpad_lang::model::Composition::SkelForm;
        Ok(Plan { fps, anims, total: offset, stepped })
    }

    /// The composition's out point: the last animation's closing frame
    /// (Lottie's `op` is not drawn; the keys at it are reached just before).
    pub fn out_point(&self) -> usize {
        self.anims.last().map_or(1, |a| a.offset + a.frames)
    }
}

/// A mesh's world vertices at every frame.
pub type MeshFrames = Vec<Vec<[f64; 2]>>;

/// A file's frame rate at most (when the animations' rates have a larger
/// least common multiple, the highest rate is taken).
pub const MAX_FPS: f64 = 120.0;

/// The file's frame rate for animations of these rates: their least common
/// multiple when they are whole numbers and it is at most `MAX_FPS` (120), so
/// every animation's own frames are frames of the file; else the highest
/// rate (30 without animations).
pub fn file_fps(rates: &[f64]) -> f64 {
    let highest = rates.iter().copied().filter(|r| r.is_finite() && *r > 0.0).fold(0.0, f64::max);
    if highest <= 0.0 {
        return 30.0;
    }
    let whole = |r: f64| (r - r.round()).abs() < 1e-9 && r >= 1.0;
    if !rates.iter().all(|&r| whole(r)) {
        return highest;
    }
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    let mut lcm: u64 = 1;
    for &r in rates {
        let r = r.round() as u64;
        lcm = lcm / gcd(lcm, r) * r;
        if lcm as f64 > MAX_FPS {
            return highest;
        }
    }
    lcm as f64
}

/// Whether an animation of rate `own` has every one of its frames on a
/// frame of a file at `file` fps.
pub fn on_file_frames(own: f64, file: f64) -> bool {
    let k = file / own;
    own > 0.0 && (k - k.round()).abs() < 1e-9 && k.round() >= 1.0
}

/// Everything the layers need from skelpad at every frame.
pub struct Samples {
    /// Bones per frame.
    pub bones: usize,
    /// Slots per frame.
    pub slots: usize,
    /// `world[f * bones + b]`: skelpad's world matrix of bone `b` at frame `f`.
    pub world: Vec<Affine>,
    /// `half[f * bones + b]`: the same half a frame later (at a closing
    /// frame: the closing pose again).
    pub half: Vec<Affine>,
    /// `local[f * bones + b]`: the bone's local values (as the runtime left them).
    pub local: Vec<skelpad_lang::model::BoneTransform>,
    /// `shown[f * slots + s]`: the attachment slot `s` shows (`None` when
    /// hidden by the draw order too).
    pub shown: Vec<Option<AttachmentId>>,
    /// `color[f * slots + s]`: the slot's colour.
    pub color: Vec<Color>,
    /// `rank[f * slots + s]`: the slot's place in the draw order (0 drawn
    /// first; the number of slots when the draw order leaves it out).
    pub rank: Vec<u32>,
    /// Outlines of paths with points on other bones, per (slot, attachment):
    /// one per frame.
    pub moving_paths: Vec<((usize, AttachmentId), Vec<AttachmentOutline>)>,
    /// Per bone: its length.
    pub lengths: Vec<f64>,
    /// Per bone: its parent.
    pub parents: Vec<Option<usize>>,
    /// Per bone: some frame has a non-uniform accumulated scale.
    pub non_uniform: Vec<bool>,
    /// World vertices of the meshes per (slot, attachment): one list per frame.
    pub meshes: Vec<((usize, AttachmentId), MeshFrames)>,
}

impl Samples {
    /// The `d`-th parent up from bone `i` (0: the bone itself).
    pub fn ancestor(&self, i: usize, d: usize) -> Option<usize> {
        let mut at = Some(i);
        for _ in 0..d.min(self.bones + 1) {
            at = at.and_then(|c| self.parents.get(c).copied().flatten());
        }
        at
    }

    /// Whether bone `i` is bone `b` or under it.
    pub fn descends(&self, i: usize, b: usize) -> bool {
        let mut at = Some(i);
        for _ in 0..=self.bones {
            match at {
                Some(c) if c == b => return true,
                Some(c) => at = self.parents.get(c).copied().flatten(),
                None => return false,
            }
        }
        false
    }
}

/// The file-wide map from skelpad's world to the composition, and its size.
pub struct Framing {
    /// World (y up) → composition pixels (y down).
    pub view: View,
    /// Composition width.
    pub width: u32,
    /// Composition height.
    pub height: u32,
}

impl Framing {
    /// The view as an affine map.
    pub fn matrix(&self) -> Affine {
        let v = &self.view;
        Affine::from_array([
            v.pixels_per_unit,
            0.0,
            0.0,
            -v.pixels_per_unit,
            v.origin_px[0],
            v.origin_px[1],
        ])
    }

    /// `[a, b, c, d, e, f]` of [`Framing::matrix`].
    pub fn to_array(&self) -> [f64; 6] {
        self.matrix().to_array()
    }
}

/// Frames the animations: their bounds at one pixel per unit (with a
/// margin), or `opts.size` (scaled to fit with `opts.fit`).
pub fn framing(
    arm: &Armature,
    plan: &Plan,
    skin: SkinId,
    opts: &LottieOptions,
    pictures: &dyn super::PictureSource,
) -> Result<Framing, LottieError> {
    const MARGIN: f64 = 8.0;
    let options = DrawOptions { bones: false, ..DrawOptions::default() };
    let mut cache = RenderCache::new(".");
    pictures.prepare(&mut cache);
    let mut bounds: Option<Bounds> = None;
    for a in &plan.anims {
        if let Some(b) = crate::render::animation_bounds(arm, a.id, skin, &options, &mut cache) {
            bounds = Some(bounds.map_or(b, |x| x.union(b)));
        }
    }
    let bounds = bounds.unwrap_or(Bounds { min: [-50.0, -50.0], max: [50.0, 50.0] });
    let center = [(bounds.min[0] + bounds.max[0]) / 2.0, (bounds.min[1] + bounds.max[1]) / 2.0];
    let (width, height) = match opts.size {
        Some(s) => s,
        None => {
            let side = |v: f64| (v + 2.0 * MARGIN).ceil().clamp(1.0, 16384.0) as u32;
            (side(bounds.width()), side(bounds.height()))
        }
    };
    let view = if opts.fit && opts.size.is_some() {
        // The margin `skelpad render --fit` keeps, so both frame alike.
        let margin = (f64::from(width.min(height)) * 0.04).max(2.0);
        View::fit(bounds, width, height, margin)
    } else {
        let (w, h) = (f64::from(width), f64::from(height));
        View { origin_px: [w / 2.0 - center[0], h / 2.0 + center[1]], pixels_per_unit: 1.0 }
    };
    if !view.origin_px.iter().all(|v| v.is_finite()) {
        return Err(LottieError::Cannot("the animation's bounds are not finite".into()));
    }
    Ok(Framing { view, width, height })
}

/// Samples skelpad's pose at every frame of the plan.
pub fn sample(arm: &Armature, plan: &Plan, skin: SkinId) -> Result<Samples, LottieError> {
    let sk = &*arm.skeleton;
    let (nb, ns) = (sk.bones.len(), sk.slots.len());
    if nb.max(ns).saturating_mul(plan.total) > MAX_SAMPLES {
        return Err(LottieError::Cannot(format!(
            "{} bones and {} slots over {} frames are too many to sample (at most {MAX_SAMPLES} per kind); export one animation with --anim",
            nb, ns, plan.total
        )));
    }
    let moving = moving_path_attachments(arm, skin);
    let mut s = Samples {
        bones: nb,
        slots: ns,
        world: Vec::with_capacity(nb * plan.total),
        half: Vec::with_capacity(nb * plan.total),
        local: Vec::with_capacity(nb * plan.total),
        shown: Vec::with_capacity(ns * plan.total),
        color: Vec::with_capacity(ns * plan.total),
        rank: Vec::with_capacity(ns * plan.total),
        moving_paths: moving.iter().map(|&k| (k, Vec::new())).collect(),
        lengths: sk.bones.iter().map(|b| b.length).collect(),
        parents: sk.bones.iter().map(|b| b.parent.map(|p| p.index())).collect(),
        non_uniform: vec![false; nb],
        meshes: super::mesh::mesh_attachments(arm, skin)
            .into_iter()
            .map(|k| (k, Vec::new()))
            .collect(),
    };
    let mesh_vertices: usize = s
        .meshes
        .iter()
        .filter_map(|((_, att), _)| match sk.attachment(skin, *att).map(|a| &a.kind) {
            Some(skelpad_lang::model::AttachmentKind::Mesh(m)) => Some(m.vertices.len()),
            _ => None,
        })
        .sum();
    if mesh_vertices.saturating_mul(plan.total) > MAX_SAMPLES {
        return Err(LottieError::Cannot(format!(
            "meshes of {mesh_vertices} vertices over {} frames are too many to sample (at most {MAX_SAMPLES}); export one animation with --anim",
            plan.total
        )));
    }
    let (mut pose, mut between) = (Pose::default(), Pose::default());
    for a in &plan.anims {
        let anim = a.id.and_then(|i| arm.animation(i));
        // A fresh pose per animation: physics state starts over with it.
        (pose, between) = (Pose::default(), Pose::default());
        let end = anim.map_or(0.0, |an| an.duration_secs.max(0.0));
        for k in 0..=a.frames {
            // The closing frame: the pose at the animation's end.
            let t = if k == a.frames { end } else { k as f64 / plan.fps };
            evaluate_into(&mut pose, arm, anim, skin, t);
            record(&mut s, arm, &pose);
            if k < a.frames {
                let t = ((k as f64 + 0.5) / plan.fps).min(end.max(t));
                evaluate_into(&mut between, arm, anim, skin, t);
                s.half.extend(between.bones.iter().map(|bp| bp.world));
            } else {
                s.half.extend(pose.bones.iter().map(|bp| bp.world));
            }
        }
    }
    drop((pose, between));
    Ok(s)
}

fn record(s: &mut Samples, arm: &Armature, pose: &Pose) {
    let sk = &*arm.skeleton;
    for (b, bp) in pose.bones.iter().enumerate() {
        s.world.push(bp.world);
        s.local.push(bp.local);
        if let Some(acc) = pose.accumulated(skelpad_lang::model::BoneId::from_index(b)) {
            let uniform = (acc.scale_x.abs() - acc.scale_y.abs()).abs()
                <= 1e-9 * acc.scale_x.abs().max(acc.scale_y.abs()).max(1.0);
            if !uniform {
                s.non_uniform[b] = true;
            }
        }
    }
    let start = s.shown.len();
    s.shown.extend(std::iter::repeat_n(None, s.slots));
    s.rank.extend(std::iter::repeat_n(u32::try_from(s.slots).unwrap_or(u32::MAX), s.slots));
    for (i, &slot) in pose.draw_order.iter().enumerate() {
        if let (Some(sp), Some(cell)) =
            (pose.slots.get(slot.index()), s.shown.get_mut(start + slot.index()))
        {
            *cell = sp.attachment;
        }
        if let Some(cell) = s.rank.get_mut(start + slot.index()) {
            *cell = u32::try_from(i).unwrap_or(u32::MAX);
        }
    }
    s.color.extend(pose.slots.iter().map(|sp| sp.color));
    for ((slot, att), frames) in &mut s.meshes {
        frames.push(super::mesh::world_vertices(pose, arm, *slot, *att));
    }
    for ((slot, att), outlines) in &mut s.moving_paths {
        let bone = sk.slots[*slot].bone;
        let kind = sk.attachment(pose.skin, *att).map(|a| &a.kind);
        let o = kind.and_then(|k| crate::render::attachment_outline(k, bone, pose));
        outlines.push(o.unwrap_or(AttachmentOutline {
            start: [0.0, 0.0],
            segments: Vec::new(),
            closed: false,
        }));
    }
}

/// The (slot, attachment) pairs whose path has points on other bones.
fn moving_path_attachments(arm: &Armature, skin: SkinId) -> Vec<(usize, AttachmentId)> {
    let sk = &*arm.skeleton;
    let mut out = Vec::new();
    for (i, a) in sk.attachments.iter().enumerate() {
        let id = AttachmentId::from_index(i);
        let Some(slot) = sk.slots.get(a.slot.index()) else { continue };
        if let Some(skelpad_lang::model::Attachment {
            kind: skelpad_lang::model::AttachmentKind::Path { path, .. },
            ..
        }) = sk.attachment(skin, id)
            && path.bones().iter().any(|&b| b != slot.bone)
        {
            out.push((a.slot.index(), id));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_rate_holds_every_animations_frames_when_it_can() {
        assert_eq!(file_fps(&[12.0, 24.0]), 24.0);
        assert_eq!(file_fps(&[24.0, 30.0]), 120.0);
        assert_eq!(file_fps(&[10.0, 24.0]), 120.0);
        assert_eq!(file_fps(&[20.0, 25.0, 30.0]), 30.0, "300 is too many");
        assert_eq!(file_fps(&[12.5, 24.0]), 24.0, "not whole: the highest");
        assert_eq!(file_fps(&[]), 30.0);
        assert!(on_file_frames(12.0, 24.0) && !on_file_frames(25.0, 30.0));
    }
}
