//! Keys: each animation evaluated at every frame and turned into keyframes
//! that land on skelpad's pose within the tolerances.

use super::*;

/// Tolerances the keys are chosen to (well inside the proof's 0.01 units and
/// 1e-4 rad, leaving room for f32 and for errors carried down chains).
pub(super) const TOL_POS: f64 = 1e-4;
pub(super) const TOL_ROT: f64 = 2e-6;
pub(super) const TOL_SCALE: f64 = 1e-6;
pub(super) const TOL_TINT: f64 = 1e-4;
/// World errors past which a bone is re-keyed against its simulated parent.
pub(super) const WORLD_POS: f64 = 1e-3;
pub(super) const WORLD_ROT: f64 = 1e-5;

/// An anchor of an element: a skelpad key at a whole frame and its curve.
#[derive(Clone, Copy, Debug)]
pub(super) struct Anchor {
    pub(super) frame: u32,
    pub(super) curve: Curve,
}

pub(super) fn anchors_of<T>(keys: &[Key<T>], fps: f64, last: u32) -> Vec<Anchor> {
    let mut out: Vec<Anchor> = Vec::new();
    for k in keys {
        let f = k.time_secs * fps;
        let r = f.round();
        if (f - r).abs() > 1e-6 || r < 0.0 || r > last as f64 {
            continue;
        }
        let frame = r as u32;
        match out.last_mut() {
            Some(a) if a.frame == frame => a.curve = k.curve,
            Some(a) if a.frame > frame => {}
            _ => out.push(Anchor { frame, curve: k.curve }),
        }
    }
    out
}

/// Chooses keys for one element so that a runtime lands within `tol` of
/// `truth` at every frame. `truth` must already be unwrapped for angles.
pub(super) fn encode(
    truth: &[f64],
    init: f64,
    anchors: &[Anchor],
    tol: f64,
    angle: bool,
    fitter: &mut Fitter,
) -> Vec<PlannedKey> {
    let last = truth.len() as u32 - 1;
    let near_init = |v: f64| {
        if angle { sim::wrap_angle(v - init).abs() <= tol } else { (v - init).abs() <= tol }
    };
    let mut keys: Vec<PlannedKey> = Vec::new();
    let key = |frame: u32, h: (Handle, Handle)| PlannedKey {
        frame,
        value: truth[frame as usize],
        h1: h.0,
        h2: h.1,
    };
    // Frames before the first key take `init`.
    let first = anchors.first().map_or(last + 1, |a| a.frame);
    if let Some(n0) = (0..first.min(last + 1)).find(|&n| !near_init(truth[n as usize])) {
        keys.push(key(n0, sim::LINEAR));
        bake(truth, &mut keys, n0, first.min(last), tol);
    }
    for (i, a) in anchors.iter().enumerate() {
        if keys.last().is_none_or(|k| k.frame < a.frame) {
            keys.push(key(a.frame, sim::LINEAR));
        }
        let Some(b) = anchors.get(i + 1) else { break };
        let span = b.frame - a.frame;
        let handles = match a.curve {
            Curve::Stepped => Some(sim::STEP),
            Curve::Eased(Easing::Linear) => Some(sim::LINEAR),
            Curve::Eased(Easing::Bezier(b)) => {
                Some((Handle::new(b.x1, b.y1), Handle::new(b.x2, b.y2)))
            }
            Curve::Eased(e) => {
                let f = fitter.fit(e, span);
                Some((f.h1, f.h2))
            }
            Curve::Spriter(c) => {
                c.as_bezier().map(|(x1, y1, x2, y2)| (Handle::new(x1, y1), Handle::new(x2, y2)))
            }
        };
        let (va, vb) = (truth[a.frame as usize], truth[b.frame as usize]);
        let fits = handles.filter(|&(h1, h2)| {
            (a.frame + 1..b.frame).all(|n| {
                (sim::interpolate(n - a.frame, span, va, vb, h1, h2) - truth[n as usize]).abs()
                    <= tol
            })
        });
        match fits {
            Some((h1, h2)) => keys.push(PlannedKey { frame: b.frame, value: vb, h1, h2 }),
            None => bake(truth, &mut keys, a.frame, b.frame, tol),
        }
    }
    // After the last key its value holds.
    if let Some(lk) = keys.last().copied()
        && ((lk.frame + 1)..=last).any(|n| (truth[n as usize] - lk.value).abs() > tol)
    {
        bake(truth, &mut keys, lk.frame, last, tol);
    }
    // A keyed element starts with a key at frame 0. Runtimes take `init`
    // before the first key only on a freshly reset armature: played on
    // (looping, or after another animation), skelform-js and, for some
    // keys, rusty_skelform keep the value of the frame before.
    if let Some(first) = keys.first().map(|k| k.frame)
        && first > 0
    {
        let (h1, h2) = sim::STEP;
        let mut head = vec![PlannedKey { frame: 0, value: init, h1, h2 }];
        if first > 1 {
            head.push(PlannedKey { frame: first - 1, value: init, h1, h2 });
        }
        keys.splice(0..0, head);
    }
    keys
}

/// Appends keys from `from` (which must be the last key's frame) to `to`,
/// keeping only those a straight line between neighbours cannot replace.
pub(super) fn bake(truth: &[f64], keys: &mut Vec<PlannedKey>, from: u32, to: u32, tol: f64) {
    let (h1, h2) = sim::LINEAR;
    let line_ok = |s: u32, e: u32| {
        let (vs, ve) = (truth[s as usize], truth[e as usize]);
        (s + 1..e).all(|n| {
            (sim::interpolate(n - s, e - s, vs, ve, h1, h2) - truth[n as usize]).abs() <= tol
        })
    };
    let mut start = from;
    while start < to {
        let mut end = start + 1;
        while end < to && line_ok(start, end + 1) {
            end += 1;
        }
        keys.push(PlannedKey { frame: end, value: truth[end as usize], h1, h2 });
        start = end;
    }
}

/// Unwraps a sequence of angles so consecutive frames differ by at most π,
/// starting near `init`.
pub(super) fn unwrap_angles(v: &mut [f64], init: f64) {
    let mut prev = init;
    for x in v.iter_mut() {
        *x = prev + sim::wrap_angle(*x - prev);
        prev = *x;
    }
}

/// A key planned for an exported bone: (bone, element name, key).
type Planned = (u32, &'static str, PlannedKey);

/// Exports one animation: its frame count, skelpad's pose at every frame,
/// the bones' keys, the tints' keys, a key on the last frame, and the
/// keyframes in the order runtimes read them. `None` when there is nothing
/// to animate.
pub(super) fn export_animation(
    ctx: &mut Ctx,
    anim: &Animation,
    index: usize,
    out: &SkfArmature,
    fitter: &mut Fitter,
) -> Result<Option<SkfAnimation>, ExportError> {
    let Some((fps_r, last)) = frame_count(ctx, anim)? else { return Ok(None) };
    let frames = sample(ctx, anim, fps_r, last);
    let mut planned: Vec<Planned> = Vec::new();
    key_bones(ctx, anim, &frames, out, fitter, &mut planned);
    key_tints(ctx, anim, &frames, fitter, &mut planned);
    end_key(&mut planned, last, out);
    Ok(Some(SkfAnimation {
        id: index as u32,
        name: anim.name.clone(),
        fps: fps_r as u32,
        keyframes: keyframes(&planned),
    }))
}

/// The frame rate the animation is written at and its last frame; `None`
/// (with a warning) when the rig has no bones to animate.
fn frame_count(ctx: &mut Ctx, anim: &Animation) -> Result<Option<(f64, u32)>, ExportError> {
    let fps_r = whole_fps(anim.fps);
    if (anim.fps - fps_r).abs() > 1e-9 {
        ctx.warnings.push(Warning {
            subject: format!("animation `{}`", anim.name),
            message: format!("runs at {} frames per second; SkelForm counts whole frames, so it is written at {fps_r}", anim.fps),
        });
    }
    let frames_f = anim.duration_secs * fps_r;
    if !frames_f.is_finite() || frames_f > MAX_FRAMES as f64 {
        return Err(ExportError::TooLong {
            animation: anim.name.clone(),
            frames: frames_f.min(u64::MAX as f64) as u64,
        });
    }
    let last = (frames_f - 1e-6).ceil().max(0.0) as u32;
    if (frames_f - frames_f.round()).abs() > 1e-6 {
        ctx.warnings.push(Warning {
            subject: format!("animation `{}`", anim.name),
            message: format!("lasts {frames_f:.3} frames; SkelForm animations end on a whole frame, so it ends at frame {last}"),
        });
    }
    if ctx.bones.is_empty() {
        ctx.warnings.push(Warning {
            subject: format!("animation `{}`", anim.name),
            message: "the rig has no bones to animate, so the animation is left out".into(),
        });
        return Ok(None);
    }
    Ok(Some((fps_r, last)))
}

/// skelpad's pose at every frame, as the exporter needs it.
struct Frames {
    fps: f64,
    last: u32,
    /// Frames (`last + 1`).
    n: usize,
    /// The target of exported bone `j` at frame `n` is `targets[j * n + n]`.
    targets: Vec<Trs>,
    /// Per slot, per frame.
    colors: Vec<Vec<Color>>,
    /// Per slot, per frame: the attachment shown.
    shown: Vec<Vec<Option<AttachmentId>>>,
}

impl Frames {
    fn target(&self, j: usize, n: usize) -> Trs {
        self.targets[j * self.n + n]
    }
}

/// Evaluates skelpad at every frame (warning about skewed pictures).
fn sample(ctx: &mut Ctx, anim: &Animation, fps: f64, last: u32) -> Frames {
    let sk = ctx.sk;
    let nf = last as usize + 1;
    let nb = ctx.bones.len();
    let mut f = Frames {
        fps,
        last,
        n: nf,
        targets: vec![Trs::default(); nb * nf],
        colors: vec![Vec::with_capacity(nf); sk.slots.len()],
        shown: vec![Vec::with_capacity(nf); sk.slots.len()],
    };
    let mut pose = Pose::default();
    let mut t = ctx.new_targets();
    for n in 0..nf {
        evaluate_into(&mut pose, ctx.arm, Some(anim), SkinId(0), n as f64 / fps);
        ctx.targets(&pose, &mut t);
        for j in 0..nb {
            f.targets[j * nf + n] = t.trs[j];
        }
        for (s, sp) in pose.slots.iter().enumerate() {
            f.colors[s].push(sp.color);
            f.shown[s].push(sp.attachment);
        }
    }
    for (j, sheared) in t.sheared.iter().enumerate() {
        if *sheared
            && let Kind::Plain { slot, .. } | Kind::Mesh { slot, .. } | Kind::Conjugate { slot, .. } =
                &ctx.bones[j].kind
        {
            ctx.warnings.push(Warning {
                subject: format!("animation `{}`", anim.name),
                message: format!(
                    "slot `{}` shows a rotated attachment on an unevenly scaled bone; SkelForm draws it unskewed",
                    sk.slot(*slot).name
                ),
            });
        }
    }
    f
}

/// Keys of every exported bone, parents first: each bone is keyed against
/// its ideal parent and, when the simulated result drifts past the world
/// tolerances, again against its parent as a runtime shows it.
fn key_bones(
    ctx: &mut Ctx,
    anim: &Animation,
    f: &Frames,
    out: &SkfArmature,
    fitter: &mut Fitter,
    planned: &mut Vec<Planned>,
) {
    let channels = channels_by_element(anim);
    let nf = f.n;
    let mut sim_world = vec![Trs::default(); ctx.bones.len() * nf];
    let mut truth = vec![0.0; nf];
    for j in 0..ctx.bones.len() {
        let parent = ctx.bones[j].parent;
        let init_b = &out.bones[j];
        let pscale =
            |n: usize| parent.map_or(1.0, |p| f.target(p, n).sx.abs().max(f.target(p, n).sy.abs()));
        let keying = BoneKeying {
            f,
            init: Trs {
                x: init_b.pos.x as f64,
                y: init_b.pos.y as f64,
                rot: init_b.rot as f64,
                sx: init_b.scale.x as f64,
                sy: init_b.scale.y as f64,
            },
            real_bone: match ctx.bones[j].kind {
                Kind::Real(b) => Some(b),
                _ => None,
            },
            vis_anchors: visibility_anchors(ctx, j, f),
            moves_when_hidden: !matches!(ctx.bones[j].kind, Kind::Plain { .. }),
            max_pscale: (0..nf).map(pscale).fold(0.0, f64::max).max(1e-9),
            channels: &channels,
        };
        let mut chosen = Vec::new();
        for pass in 0..2 {
            // Pass 0: against the ideal parent; pass 1: against the simulated one.
            let parents = if pass == 0 { &f.targets } else { &sim_world };
            let locals: Vec<Trs> = (0..nf)
                .map(|n| {
                    let me = f.target(j, n);
                    parent.map_or(me, |p| sim::local_for(&parents[p * nf + n], &me))
                })
                .collect();
            chosen = keying.encode(&locals, &mut truth, fitter);
            let worst = simulate(f, j, parent, keying.init, &chosen, &mut sim_world);
            if worst.0 <= WORLD_POS && worst.1 <= WORLD_ROT {
                break;
            }
            if pass == 1 {
                ctx.warnings.push(Warning {
                    subject: format!("animation `{}`", anim.name),
                    message: format!(
                        "bone `{}` is off by up to {:.2e} units and {:.2e} rad in SkelForm (a collapsed scale above it)",
                        ctx.bones[j].name, worst.0, worst.1
                    ),
                });
            }
        }
        for (e, keys) in chosen {
            planned.extend(keys.into_iter().map(|k| (j as u32, e.name(), k)));
        }
    }
}

/// An animation's bone channels by (bone, element); the first of each.
fn channels_by_element(anim: &Animation) -> HashMap<(BoneId, Element), &BoneChannel> {
    let mut bone_channels: HashMap<(BoneId, Element), &BoneChannel> = HashMap::new();
    for ch in &anim.bones {
        let e = match ch.property {
            BoneProperty::X => Element::PositionX,
            BoneProperty::Y => Element::PositionY,
            BoneProperty::Rotation => Element::Rotation,
            BoneProperty::ScaleX => Element::ScaleX,
            BoneProperty::ScaleY => Element::ScaleY,
        };
        bone_channels.entry((ch.bone, e)).or_insert(ch);
    }
    bone_channels
}

/// What keying one exported bone's elements takes, the same in both passes.
struct BoneKeying<'a> {
    f: &'a Frames,
    /// The bone's setup transform in the file.
    init: Trs,
    /// The skeleton's bone it is, if it is one: its channels' keys anchor
    /// the exported keys.
    real_bone: Option<BoneId>,
    /// Frames where a helper's attachment comes or goes (its scale steps).
    vis_anchors: Vec<Anchor>,
    /// Whether its position steps with its attachment's visibility too.
    moves_when_hidden: bool,
    /// The largest scale of its parent over the animation: the position
    /// tolerance shrinks by it.
    max_pscale: f64,
    channels: &'a HashMap<(BoneId, Element), &'a BoneChannel>,
}

impl BoneKeying<'_> {
    /// The keys of each element that follow `locals` (the bone's local
    /// transform per frame) within the tolerances; `truth` is scratch.
    fn encode(
        &self,
        locals: &[Trs],
        truth: &mut [f64],
        fitter: &mut Fitter,
    ) -> Vec<(Element, Vec<PlannedKey>)> {
        let f = self.f;
        let mut chosen = Vec::new();
        for e in Element::ALL {
            for (n, v) in truth.iter_mut().enumerate() {
                *v = locals[n].get(e);
            }
            let angle = e == Element::Rotation;
            if angle {
                unwrap_angles(truth, self.init.rot);
            }
            let steps = match e {
                Element::ScaleX | Element::ScaleY => true,
                Element::PositionX | Element::PositionY => self.moves_when_hidden,
                Element::Rotation => false,
            };
            let anchors = if steps && !self.vis_anchors.is_empty() {
                self.vis_anchors.clone()
            } else {
                self.real_bone
                    .and_then(|b| self.channels.get(&(b, e)))
                    .map(|ch| anchors_of(&ch.keys, f.fps, f.last))
                    .unwrap_or_default()
            };
            let tol = match e {
                Element::PositionX | Element::PositionY => TOL_POS / self.max_pscale,
                Element::Rotation => TOL_ROT,
                _ => TOL_SCALE,
            };
            chosen.push((e, encode(truth, self.init.get(e), &anchors, tol, angle, fitter)));
        }
        chosen
    }
}

/// A helper whose attachment comes and goes: its scale (and a mesh frame's
/// position) steps at every change. Empty when nothing changes.
fn visibility_anchors(ctx: &Ctx, j: usize, f: &Frames) -> Vec<Anchor> {
    let Some((slot, att)) = ctx.helper_attachment(j) else { return Vec::new() };
    let vis: Vec<bool> = f.shown[slot.index()].iter().map(|a| *a == Some(att)).collect();
    let changes: Vec<u32> = (1..f.n).filter(|&n| vis[n] != vis[n - 1]).map(|n| n as u32).collect();
    if changes.is_empty() {
        return Vec::new();
    }
    std::iter::once(0).chain(changes).map(|frame| Anchor { frame, curve: Curve::Stepped }).collect()
}

/// Plays bone `j`'s chosen keys under its simulated parent as a runtime
/// does, records its world per frame in `sim_world`, and returns the worst
/// (position, rotation) error against the target.
fn simulate(
    f: &Frames,
    j: usize,
    parent: Option<usize>,
    init: Trs,
    chosen: &[(Element, Vec<PlannedKey>)],
    sim_world: &mut [Trs],
) -> (f64, f64) {
    let nf = f.n;
    let mut worst = (0.0f64, 0.0f64);
    for n in 0..nf {
        let mut local = init;
        for (e, keys) in chosen {
            local.set(*e, sim::element_value(keys, n as u32, init.get(*e)));
        }
        let w = match parent {
            Some(p) => sim::child_world(&sim_world[p * nf + n], &local),
            None => local,
        };
        sim_world[j * nf + n] = w;
        let want = f.target(j, n);
        worst.0 = worst.0.max((w.x - want.x).hypot(w.y - want.y));
        worst.1 = worst.1.max(sim::wrap_angle(w.rot - want.rot).abs());
    }
    worst
}

/// Visual keys: tints. Attachment switches are the helpers' scale keys: no
/// `Texture` keys are written (rusty_skelform resets the texture unless
/// "Texture" is keyed and only sets it on "Tex" keys; skelform-js ignores
/// both), so a helper always shows its own picture.
fn key_tints(
    ctx: &mut Ctx,
    anim: &Animation,
    f: &Frames,
    fitter: &mut Fitter,
    planned: &mut Vec<Planned>,
) {
    let sk = ctx.sk;
    let mut truth = vec![0.0; f.n];
    let mut tinted = false;
    for j in 0..ctx.bones.len() {
        let slot = match &ctx.bones[j].kind {
            Kind::Plain { slot, .. } | Kind::Mesh { slot, .. } => *slot,
            _ => continue,
        };
        let setup = sk.slot(slot).color;
        for (c, name) in element::TINT.iter().enumerate() {
            for (n, v) in truth.iter_mut().enumerate() {
                *v = f.colors[slot.index()][n].to_array()[c];
            }
            let component =
                [ColorComponent::R, ColorComponent::G, ColorComponent::B, ColorComponent::A][c];
            let anchors = anim
                .slot_colors
                .iter()
                .find(|ch| ch.slot == slot && ch.component == component)
                .map(|ch| anchors_of(&ch.keys, f.fps, f.last))
                .unwrap_or_default();
            for k in encode(&truth, f32r(setup.to_array()[c]), &anchors, TOL_TINT, false, fitter) {
                tinted = true;
                planned.push((j as u32, name, k));
            }
        }
    }
    if tinted {
        ctx.warnings.push(Warning {
            subject: format!("animation `{}`", anim.name),
            message: "animates slot colors with TintR…TintA keyframes: SkelForm's editor and rusty_skelform play them, skelform-js ignores them (its pictures keep their setup tint)".into(),
        });
    }
}

/// The runtime takes an animation's length from its last keyframe: makes
/// sure one sits on the last frame.
fn end_key(planned: &mut Vec<Planned>, last: u32, out: &SkfArmature) {
    if planned.iter().all(|(_, _, k)| k.frame < last) || planned.is_empty() {
        let (bone, elem) = (0u32, Element::PositionX);
        let existing: Vec<PlannedKey> = planned
            .iter()
            .filter(|(b, e, _)| *b == bone && *e == elem.name())
            .map(|p| p.2)
            .collect();
        let value = existing.last().map_or(out.bones[0].pos.x as f64, |k| k.value);
        let (h1, h2) = sim::LINEAR;
        planned.push((bone, elem.name(), PlannedKey { frame: last, value, h1, h2 }));
    }
}

/// The keyframes in the order runtimes read them (by frame, bone and
/// element), each linked to the next of its bone and element.
fn keyframes(planned: &[Planned]) -> Vec<SkfKeyframe> {
    let order = |e: &str| -> usize {
        [
            element::POSITION_X,
            element::POSITION_Y,
            element::ROTATION,
            element::SCALE_X,
            element::SCALE_Y,
            element::TEXTURE,
        ]
        .iter()
        .chain(element::TINT.iter())
        .position(|x| *x == e)
        .unwrap_or(99)
    };
    let mut planned = planned.to_vec();
    planned.sort_by_key(|a| (a.2.frame, a.0, order(a.1)));
    let mut keyframes: Vec<SkfKeyframe> = planned
        .iter()
        .map(|(bone, e, k)| SkfKeyframe {
            frame: k.frame,
            bone_id: *bone,
            element: (*e).to_string(),
            value: k.value as f32,
            value_str: String::new(),
            next_kf: -1,
            start_handle: k.h1.to_file(),
            end_handle: k.h2.to_file(),
        })
        .collect();
    let mut last_of: HashMap<(u32, &str), usize> = HashMap::new();
    for (i, p) in planned.iter().enumerate() {
        let key = (p.0, p.1);
        if let Some(&prev) = last_of.get(&key) {
            keyframes[prev].next_kf = i as i32;
        }
        last_of.insert(key, i);
    }
    keyframes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(truth: &[f64], init: f64, anchors: &[Anchor], angle: bool) -> Vec<PlannedKey> {
        let mut f = Fitter::default();
        encode(truth, init, anchors, 1e-6, angle, &mut f)
    }

    fn replay(keys: &[PlannedKey], init: f64, n: usize) -> Vec<f64> {
        (0..n as u32).map(|f| sim::element_value(keys, f, init)).collect()
    }

    #[test]
    fn linear_segments_stay_sparse() {
        let truth: Vec<f64> = (0..=10).map(|n| n as f64 * 2.0).collect();
        let anchors =
            [Anchor { frame: 0, curve: Curve::LINEAR }, Anchor { frame: 10, curve: Curve::LINEAR }];
        let keys = run(&truth, 0.0, &anchors, false);
        assert_eq!(keys.len(), 2);
        assert!(replay(&keys, 0.0, 11).iter().zip(&truth).all(|(a, b)| (a - b).abs() < 1e-9));
    }

    #[test]
    fn a_curve_the_keys_cannot_follow_is_baked_and_still_lands() {
        // Anchors claim linear, the truth is a parabola.
        let truth: Vec<f64> = (0..=10).map(|n| (n * n) as f64).collect();
        let anchors =
            [Anchor { frame: 0, curve: Curve::LINEAR }, Anchor { frame: 10, curve: Curve::LINEAR }];
        let keys = run(&truth, 0.0, &anchors, false);
        assert!(keys.len() > 2);
        let got = replay(&keys, 0.0, 11);
        for (g, w) in got.iter().zip(&truth) {
            assert!((g - w).abs() <= 1e-6);
        }
    }

    #[test]
    fn values_before_the_first_key_use_init_or_get_baked() {
        let mut truth = vec![5.0; 6];
        truth.extend([6.0, 7.0]);
        let anchors =
            [Anchor { frame: 6, curve: Curve::LINEAR }, Anchor { frame: 7, curve: Curve::LINEAR }];
        let keys = run(&truth, 5.0, &anchors, false);
        // Init covers frames 0..5, held by step keys at 0 and 5 so a runtime
        // that plays on (without resetting to init) shows it too.
        let head: Vec<(u32, f64)> = keys.iter().take(3).map(|k| (k.frame, k.value)).collect();
        assert_eq!(head, [(0, 5.0), (5, 5.0), (6, 6.0)]);
        assert!(sim::is_step(keys[1].h1, keys[1].h2));
        assert_eq!(replay(&keys, 5.0, 8), truth);
        // The same truth with another init needs keys from frame 0.
        let keys = run(&truth, 1.0, &anchors, false);
        assert_eq!(keys.first().map(|k| k.frame), Some(0));
        assert_eq!(replay(&keys, 1.0, 8), truth);
    }

    #[test]
    fn steps_use_999_handles() {
        let truth = [0.0, 0.0, 0.0, 4.0, 4.0];
        let anchors =
            [Anchor { frame: 0, curve: Curve::Stepped }, Anchor { frame: 3, curve: Curve::LINEAR }];
        let keys = run(&truth, 0.0, &anchors, false);
        assert_eq!(keys.len(), 2);
        assert!(sim::is_step(keys[1].h1, keys[1].h2));
        assert_eq!(replay(&keys, 0.0, 5), truth);
    }

    #[test]
    fn unwrapped_rotations_go_the_short_way() {
        let mut v = vec![3.0, -3.0, -2.9];
        unwrap_angles(&mut v, 3.0);
        assert!((v[1] - (std::f64::consts::TAU - 3.0)).abs() < 1e-12, "{v:?}");
        assert!(v[2] > v[1]);
    }
}
