//! Drawing over an animation's time: the bounds of everything it draws
//! (so a fitted framing does not jitter) and onion-skin ghosts.

use super::Bounds;
use super::{DrawList, DrawOptions, RenderCache, Rgba, build_draw_list, build_draw_list_into};
use skelpad_lang::model::{AnimId, Armature, SkinId};
use skelpad_lang::runtime::{Pose, evaluate_into, wrap_time};

/// At most about `max` times of an animation that stand for all its frames:
/// every frame when there are no more than `max`, else its key times (where
/// poses turn) thinned to half the budget plus evenly spaced frames.
pub fn sample_times(
    anim: &skelpad_lang::model::Animation,
    skeleton: &skelpad_lang::model::Skeleton,
    max: usize,
) -> Vec<f64> {
    let max = max.max(2);
    let frames = anim.frame_count();
    if frames <= max as u64 {
        return anim.frame_times();
    }
    let keys = anim.key_times(skeleton, None);
    let half = max / 2;
    let mut t: Vec<f64> = if keys.len() <= half {
        keys
    } else {
        (0..half).map(|i| keys[i * keys.len() / half]).collect()
    };
    let even = (max - t.len()) as u64;
    t.extend((0..even).map(|i| (i * frames / even) as f64 / anim.fps));
    t.sort_by(f64::total_cmp);
    t.dedup();
    t
}

/// How many poses [`animation_bounds`] looks at, at most: as many frames as
/// `skelpad render` writes without `--max-frames`, so what it renders is
/// framed exactly.
pub const BOUNDS_SAMPLES: usize = 10_000;

/// The box around everything an animation draws at each of its frames (or
/// the setup pose when `anim` is `None`), so a framing that fits it does not
/// jitter from frame to frame. Longer animations are sampled (see
/// [`animation_bounds_sampled`] with [`BOUNDS_SAMPLES`]).
pub fn animation_bounds(
    armature: &Armature,
    anim: Option<AnimId>,
    skin: SkinId,
    options: &DrawOptions,
    cache: &mut RenderCache,
) -> Option<Bounds> {
    animation_bounds_sampled(armature, anim, skin, options, cache, BOUNDS_SAMPLES)
}

/// [`animation_bounds`] over at most about `max_samples` poses ([`sample_times`]).
pub fn animation_bounds_sampled(
    armature: &Armature,
    anim: Option<AnimId>,
    skin: SkinId,
    options: &DrawOptions,
    cache: &mut RenderCache,
    max_samples: usize,
) -> Option<Bounds> {
    let animation = anim.and_then(|a| armature.animation(a));
    let times =
        animation.map_or_else(|| vec![0.0], |a| sample_times(a, &armature.skeleton, max_samples));
    let mut pose = Pose::default();
    let mut list = DrawList::default();
    let mut acc: Option<Bounds> = None;
    for t in times {
        evaluate_into(&mut pose, armature, animation, skin, t);
        build_draw_list_into(&mut list, armature, &pose, options, cache);
        if let Some(b) = list.bounds() {
            acc = Some(acc.map_or(b, |a| a.union(b)));
        }
    }
    acc
}

/// Onion skin: ghost frames before and after the current time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnionSkin {
    /// Ghost frames before the current time.
    pub before: u32,
    /// Ghost frames after it.
    pub after: u32,
    /// Time between ghosts; `None` means one frame of the animation.
    pub step_secs: Option<f64>,
    /// Alpha of the nearest ghost; farther ones fade linearly.
    pub opacity: f32,
    /// Tint of earlier ghosts (its alpha is how strongly it replaces the colors).
    pub before_tint: Rgba,
    /// Tint of later ghosts.
    pub after_tint: Rgba,
    /// Ghost times wrap around the animation (else they are clamped to it).
    pub looping: bool,
}

impl Default for OnionSkin {
    fn default() -> Self {
        OnionSkin {
            before: 2,
            after: 2,
            step_secs: None,
            opacity: 0.35,
            before_tint: [1.0, 0.2, 0.2, 0.5],
            after_tint: [0.2, 0.8, 0.2, 0.5],
            looping: true,
        }
    }
}

/// The draw list of `anim` at `time_secs` with onion-skin ghosts behind it:
/// the farthest ghosts first, then the nearer ones, then the frame itself
/// (with its overlay if `options.bones`). Ghosts never show the overlay.
pub fn build_with_onion_skin(
    armature: &Armature,
    anim: AnimId,
    skin: SkinId,
    time_secs: f64,
    onion: &OnionSkin,
    options: &DrawOptions,
    cache: &mut RenderCache,
) -> DrawList {
    let animation = armature.animation(anim);
    let mut pose = Pose::default();
    let mut list = DrawList::default();
    if let Some(a) = animation {
        let step = onion.step_secs.filter(|s| s.is_finite() && *s > 0.0).unwrap_or(1.0 / a.fps);
        let ghost_options = DrawOptions { bones: false, ..*options };
        let ghosts = |n: u32, sign: f64, tint: Rgba| {
            (1..=n).rev().map(move |k| (time_secs + sign * f64::from(k) * step, k, n, tint))
        };
        let order = ghosts(onion.before, -1.0, onion.before_tint).chain(ghosts(
            onion.after,
            1.0,
            onion.after_tint,
        ));
        for (t, k, n, tint) in order {
            evaluate_into(&mut pose, armature, Some(a), skin, wrap_time(a, t, onion.looping));
            let ghost = build_draw_list(armature, &pose, &ghost_options, cache);
            let fade = 1.0 - (k - 1) as f32 / n as f32;
            list.append_ghost(&ghost, tint, onion.opacity * fade);
        }
    }
    let t = animation.map_or(time_secs, |a| wrap_time(a, time_secs, onion.looping));
    evaluate_into(&mut pose, armature, animation, skin, t);
    list.append(&build_draw_list(armature, &pose, options, cache));
    list
}
