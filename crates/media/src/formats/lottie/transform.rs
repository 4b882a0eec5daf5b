//! Bone layers: which parent each has in the file, and its transform keys.
//!
//! The layer of bone `b` must have the world matrix `L_b = view · W_b · C`
//! (`C = diag(1, −1)`). Relative to its parent's layer it needs
//! `L_p⁻¹ · L_b`; Lottie writes a layer's matrix as position · rotation ·
//! scale (skew is left out: the players read it differently), so that is
//! possible when `L_p⁻¹ · L_b` has perpendicular axes at every frame.

use super::LottieError;
use super::frames::{Framing, Plan, Samples};
use super::keys::{self, KeyOut, Series};
use crate::formats::skf::fit::Fitter;
use skelpad_lang::model::{Affine, Armature, BoneId, BoneProperty};

/// One bone's layer.
pub struct BoneLayer {
    /// The bone's full dotted name.
    pub name: String,
    /// The bone whose layer is this one's parent (`None`: a root layer).
    pub parent: Option<usize>,
    /// Why the bone is keyed at every frame, if it is.
    pub baked: Option<String>,
    /// Position keys (composition or parent layer pixels).
    pub position: Vec<KeyOut>,
    /// Rotation keys (degrees, clockwise on screen).
    pub rotation: Vec<KeyOut>,
    /// Scale keys (percent).
    pub scale: Vec<KeyOut>,
}

/// Position, rotation (degrees) and scale (factors) of a matrix without
/// skew.
#[derive(Clone, Copy, Debug)]
pub struct Trs {
    /// Position.
    pub p: [f64; 2],
    /// Rotation in degrees.
    pub r: f64,
    /// Scale factors.
    pub s: [f64; 2],
}

const C: Affine = Affine::scale(1.0, -1.0);

/// The matrix as position · rotation · scale, the rotation the one of the
/// two readings (`r`, or `r + 180°` with both scales negated) nearest to
/// `hint` and unwrapped towards it; `None` when its axes are not
/// perpendicular.
pub fn decompose(m: Affine, hint: f64) -> Option<Trs> {
    let [a, b, c, d, e, f] = m.to_array();
    let (n0, n1) = ((a * a + b * b).sqrt(), (c * c + d * d).sqrt());
    let dot = a * c + b * d;
    if dot.abs() > 1e-9 * (n0 * n1).max(1e-300) && dot.abs() > 1e-12 {
        return None;
    }
    let det = a * d - b * c;
    let (r, sx, sy) = if n0 > 1e-12 {
        (b.atan2(a).to_degrees(), n0, det / n0)
    } else if n1 > 1e-12 {
        // A zero x axis: the y axis gives the turn.
        ((-c).atan2(d).to_degrees(), 0.0, n1)
    } else {
        (hint, 0.0, 0.0)
    };
    let unwrap = |r: f64| r + 360.0 * ((hint - r) / 360.0).round();
    let (r1, r2) = (unwrap(r), unwrap(r + 180.0));
    let t = if (r1 - hint).abs() <= (r2 - hint).abs() {
        Trs { p: [e, f], r: r1, s: [sx, sy] }
    } else {
        Trs { p: [e, f], r: r2, s: [-sx, -sy] }
    };
    Some(t)
}

fn close(a: Affine, b: Affine) -> bool {
    let (x, y) = (a.to_array(), b.to_array());
    x.iter().zip(&y).all(|(p, q)| (p - q).abs() <= 1e-7 * q.abs().max(1.0))
}

/// Which player the keys are for: what curves it has besides straight
/// lines and holds, and what it does with a bone that needs a skew.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Lottie: cubic-bezier segments; a bone that needs a skew relative to
    /// its parent becomes a root layer (refused when its world is skewed).
    Lottie,
    /// Godot: straight lines and holds only; a bone that needs a skew
    /// relative to its parent comes back with `parent: None` and no keys
    /// (the caller keys its whole matrix).
    Godot,
}

/// The layers of every bone, in bone order.
pub fn bone_layers(
    arm: &Armature,
    plan: &Plan,
    s: &Samples,
    framing: &Framing,
) -> Result<Vec<BoneLayer>, LottieError> {
    bone_layers_for(arm, plan, s, framing, Target::Lottie)
}

/// [`bone_layers`] for `target`.
pub fn bone_layers_for(
    arm: &Armature,
    plan: &Plan,
    s: &Samples,
    framing: &Framing,
    target: Target,
) -> Result<Vec<BoneLayer>, LottieError> {
    let sk = &*arm.skeleton;
    let view = framing.matrix();
    let fitter = std::cell::RefCell::new(Fitter::default());
    let lottie_world = |b: usize, f: usize| view * s.world[f * s.bones + b] * C;
    let lottie_half = |b: usize, f: usize| view * s.half[f * s.bones + b] * C;
    let mut out = Vec::with_capacity(sk.bones.len());
    for (b, bone) in sk.bones.iter().enumerate() {
        let natural_at = |f: usize| -> Option<Trs> {
            let l = s.local[f * s.bones + b];
            let (fx, fy) = (if l.flip_x { -1.0 } else { 1.0 }, if l.flip_y { -1.0 } else { 1.0 });
            let local =
                C * Affine::trs(l.x, l.y, l.rotation_rad, l.scale_x * fx, l.scale_y * fy) * C;
            let parent = match bone.parent {
                Some(p) => lottie_world(p.index(), f),
                None => view * C,
            };
            if !close(parent * local, lottie_world(b, f)) {
                return None;
            }
            let trs = match bone.parent {
                Some(_) => local,
                None => view * C * local,
            };
            let [_, _, _, _, e, ff] = trs.to_array();
            let k = if bone.parent.is_some() { 1.0 } else { framing.view.pixels_per_unit };
            Some(Trs {
                p: [e, ff],
                r: -l.rotation_rad.to_degrees(),
                s: [k * l.scale_x * fx, k * l.scale_y * fy],
            })
        };
        // IK chains are keyed from the solved pose (the rule: IK is baked).
        let in_ik = sk.ik.iter().any(|fam| fam.bones.contains(&BoneId::from_index(b)));
        let natural: Option<Vec<Trs>> =
            if in_ik { None } else { (0..plan.total).map(natural_at).collect() };
        let (parent, trs, baked) = match natural {
            Some(v) => (bone.parent.map(|p| p.index()), v, None),
            None => {
                let parent = bone.parent.map(|p| p.index());
                let values = baked_values(b, parent, plan, &lottie_world);
                if target == Target::Godot && values.as_ref().is_none_or(|(p, _)| *p != parent) {
                    let baked = Some(reason(arm, s, b));
                    let name = bone.name.clone();
                    out.push(BoneLayer {
                        name,
                        parent: None,
                        baked,
                        position: Vec::new(),
                        rotation: Vec::new(),
                        scale: Vec::new(),
                    });
                    continue;
                }
                let (parent, v) = values
                    .ok_or_else(|| {
                        LottieError::Cannot(format!(
                            "bone `{}`: its world transform is skewed, which Lottie's players do not read alike",
                            bone.name
                        ))
                    })?;
                (parent, v, Some(reason(arm, s, b)))
            }
        };
        let halves = halves_of(plan.total, b, parent, &trs, &lottie_half);
        let approx = approximation(s, b, parent.is_none(), framing.view.pixels_per_unit);
        let layer = keyed(arm, plan, b, (parent, trs, halves, baked), approx, &fitter, target);
        out.push(layer);
    }
    Ok(out)
}

/// Bone `b`'s values half a frame after each frame, relative to the same
/// `parent` (`None` where they do not decompose).
fn halves_of(
    total: usize,
    b: usize,
    parent: Option<usize>,
    trs: &[Trs],
    half: &dyn Fn(usize, usize) -> Affine,
) -> Vec<Option<Trs>> {
    (0..total)
        .map(|f| {
            let m = match parent {
                Some(p) => half(p, f).inverse()? * half(b, f),
                None => half(b, f),
            };
            decompose(m, trs[f].r)
        })
        .collect()
}

/// How far a bezier standing in for a sine (or another easing no bezier
/// follows exactly) may be off in each of a layer's properties — position
/// (its parent's units or pixels), rotation (degrees), scale (percent) — so
/// that the bone and every bone under it stay within half of 0.01 units:
/// a turn or scale is measured at the bone's reach (the farthest of its
/// descendants' ends at the first frame), and the half is shared by the
/// layers of the longest chain through the bone.
const APPROX_UNITS: f64 = 0.005;

/// The share of a baked value's change over a frame that a straight
/// in-between may miss at the half frame before a key is added there
/// ([`keys::add_halves`]); a bone's miss adds to its parents'.
const IN_BETWEEN_SHARE: f64 = 0.1;

fn approximation(s: &Samples, b: usize, root: bool, ppu: f64) -> [f64; 3] {
    let origin = |i: usize| {
        let [_, _, _, _, e, f] = s.world[i].to_array();
        [e, f]
    };
    let end = |i: usize| {
        let (x, y) = s.world[i].apply(s.lengths[i], 0.0);
        [x, y]
    };
    let o = origin(b);
    let far = |p: [f64; 2]| (p[0] - o[0]).hypot(p[1] - o[1]);
    let reach = (0..s.bones)
        .filter(|&i| s.descends(i, b))
        .map(|i| far(origin(i)).max(far(end(i))))
        .fold(1.0, f64::max);
    // The misses of a chain's layers add up: each layer gets its share of
    // the longest chain through it.
    let depth =
        |i: usize| (0..=s.bones).take_while(|&d| d == 0 || s.ancestor(i, d).is_some()).count();
    let chain = (0..s.bones).filter(|&i| s.descends(i, b)).map(depth).max().unwrap_or(1).max(1);
    let units = APPROX_UNITS / chain as f64;
    let pos = if root { units * ppu } else { units };
    [pos, (units / reach).to_degrees(), units / reach * 100.0]
}

/// Values at every frame relative to the parent, or to the composition when
/// the parent relation needs a skew at some frame.
fn baked_values(
    b: usize,
    parent: Option<usize>,
    plan: &Plan,
    lottie_world: &dyn Fn(usize, usize) -> Affine,
) -> Option<(Option<usize>, Vec<Trs>)> {
    let run = |parent: Option<usize>| -> Option<Vec<Trs>> {
        let mut hint = 0.0;
        let mut v = Vec::with_capacity(plan.total);
        for f in 0..plan.total {
            let m = match parent {
                Some(p) => lottie_world(p, f).inverse()? * lottie_world(b, f),
                None => lottie_world(b, f),
            };
            let t = decompose(m, hint)?;
            hint = t.r;
            v.push(t);
        }
        Some(v)
    };
    if parent.is_some()
        && let Some(v) = run(parent)
    {
        return Some((parent, v));
    }
    run(None).map(|v| (None, v))
}

/// Why a bone's layer cannot use its own local values.
fn reason(arm: &Armature, s: &Samples, b: usize) -> String {
    let sk = &*arm.skeleton;
    let bone = &sk.bones[b];
    let id = BoneId::from_index(b);
    let mut why = Vec::new();
    if sk.ik.iter().any(|fam| fam.bones.contains(&id)) {
        why.push("it is turned by inverse kinematics");
    }
    if !bone.inherit_rotation {
        why.push("`no-rot`");
    }
    if !bone.inherit_scale {
        why.push("`no-scale`");
    }
    let flipped = |i: usize| {
        let l = &s.local[i];
        l.flip_x || l.flip_y
    };
    let mut chain = Some(id);
    let mut flips = false;
    let mut non_uniform = false;
    while let Some(c) = chain {
        let any_flip =
            (0..s.local.len() / s.bones.max(1)).any(|f| flipped(f * s.bones + c.index()));
        flips |= any_flip;
        if c != id {
            non_uniform |= s.non_uniform[c.index()];
        }
        chain = sk.bones[c.index()].parent;
    }
    if flips {
        why.push("a flip on it or above it");
    }
    if non_uniform {
        why.push("a parent's accumulated scale is not uniform");
    }
    if sk.composition != skelpad_lang::model::Composition::Affine {
        why.push("its file's parent rule is not Lottie's");
    }
    if why.is_empty() {
        why.push("its world transform is not its parent's times its local transform");
    }
    why.join(", ")
}

#[allow(
    clippy::too_many_arguments,
    reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
)]
fn keyed(
    arm: &Armature,
    plan: &Plan,
    b: usize,
    (parent, trs, halves, baked): (Option<usize>, Vec<Trs>, Vec<Option<Trs>>, Option<String>),
    approx: [f64; 3],
    fitter: &std::cell::RefCell<Fitter>,
    target: Target,
) -> BoneLayer {
    let sk = &*arm.skeleton;
    let pos = |t: &Trs| t.p.to_vec();
    let rot = |t: &Trs| vec![t.r];
    let sca = |t: &Trs| t.s.map(|v| v * 100.0).to_vec();
    let props = |which: &[BoneProperty]| {
        let which = which.to_vec();
        move |ai: usize| -> Vec<(usize, skelpad_lang::model::Curve)> {
            let Some(anim) = plan.anims[ai].id.and_then(|i| arm.animation(i)) else {
                return Vec::new();
            };
            let mut out = Vec::new();
            for c in
                anim.bones.iter().filter(|c| c.bone.index() == b && which.contains(&c.property))
            {
                for k in &c.keys {
                    let f = k.time_secs * plan.fps;
                    if (f - f.round()).abs() < 1e-6 && f >= 0.0 {
                        out.push((f.round() as usize, k.curve));
                    }
                }
            }
            out
        }
    };
    let make = |pick: &dyn Fn(&Trs) -> Vec<f64>, which: &[BoneProperty], approx: f64| {
        let data: Vec<f64> = trs.iter().flat_map(pick).collect();
        let series = Series { dims: data.len() / trs.len().max(1), data: &data, approx };
        let half = |f: usize| halves.get(f).copied().flatten().map(|t| pick(&t));
        if baked.is_some() {
            let all = |ai: usize| (0..plan.anims[ai].frames).collect();
            let mut keys = keys::fit(plan, &series, &all, &|_, _| Vec::new(), false);
            if !plan.stepped {
                keys::add_halves(plan, &mut keys, &series, &half, IN_BETWEEN_SHARE);
            }
            return keys;
        }
        let of = props(which);
        let breaks = |ai: usize| of(ai).into_iter().map(|(f, _)| f).collect();
        let curves: Vec<Vec<(usize, skelpad_lang::model::Curve)>> =
            (0..plan.anims.len()).map(&of).collect();
        let cands = |f0: usize, f1: usize| -> Vec<keys::Cand> {
            if target == Target::Godot {
                return Vec::new();
            }
            let Some((ai, a)) = plan
                .anims
                .iter()
                .enumerate()
                .find(|(_, a)| f0 >= a.offset && f0 < a.offset + a.frames)
            else {
                return Vec::new();
            };
            let rel = f0 - a.offset;
            let mut fit = fitter.borrow_mut();
            curves[ai]
                .iter()
                .filter(|(f, _)| *f == rel)
                .filter_map(|(_, c)| keys::ease_of(*c, f1 - f0, &mut fit))
                .collect()
        };
        let mut keys = keys::fit(plan, &series, &breaks, &cands, false);
        if !plan.stepped {
            keys::add_halves(plan, &mut keys, &series, &half, IN_BETWEEN_SHARE);
        }
        keys
    };
    let position = make(&pos, &[BoneProperty::X, BoneProperty::Y], approx[0]);
    let rotation = make(&rot, &[BoneProperty::Rotation], approx[1]);
    let scale = make(&sca, &[BoneProperty::ScaleX, BoneProperty::ScaleY], approx[2]);
    BoneLayer { name: sk.bones[b].name.clone(), parent, baked, position, rotation, scale }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lottie's layer matrix from position, rotation (degrees) and scale.
    fn compose(t: &Trs) -> Affine {
        Affine::translate(t.p[0], t.p[1])
            * Affine::rotate(t.r.to_radians())
            * Affine::scale(t.s[0], t.s[1])
    }

    #[test]
    fn matrices_without_skew_decompose_exactly_near_the_hint() {
        for (x, y, r, sx, sy) in [
            (3.0, -4.0, 0.3, 2.0, 0.5),
            (0.0, 1.0, -2.9, -1.0, 1.5),
            (5.0, 5.0, 3.0, 1.0, -1.0),
            (1.0, 2.0, 1.0, 0.0, 2.0),
        ] {
            let m = Affine::trs(x, y, r, sx, sy);
            for hint in [-400.0, 0.0, 170.0, 725.0] {
                let t = decompose(m, hint).expect("no skew");
                assert!(close(compose(&t), m), "{m:?} near {hint}: {t:?}");
                assert!((t.r - hint).abs() <= 180.0 + 1e-9, "{t:?} near {hint}");
            }
        }
        let skewed = Affine::from_array([1.0, 0.0, 0.5, 1.0, 0.0, 0.0]);
        assert!(decompose(skewed, 0.0).is_none());
    }
}
