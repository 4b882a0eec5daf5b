//! Poses as JSON: the format of `skelpad pose --json` and of the
//! conformance cases (`tests/conformance/README.md`): the draw order, the
//! setup pose and, per animation, its poses at given times, each bone with
//! its world matrix and each slot with its color and attachment.

use crate::model::{AnimId, Armature, SkinId};
use crate::runtime::{Pose, evaluate};

/// The default pose times of an animation: 0, every tenth of the duration,
/// and the end (just 0 for an animation without length).
pub fn default_times(duration: f64) -> Vec<f64> {
    if duration <= 0.0 {
        return vec![0.0];
    }
    (0..=10).map(|k| if k == 10 { duration } else { f64::from(k) * duration / 10.0 }).collect()
}

/// The poses of `skelpad pose --json` (the conformance format): draw order,
/// setup pose, and for each animation its poses at `times` (default: 0,
/// every tenth of the duration, and the end).
pub fn pose_document(arm: &Armature, anims: &[AnimId], skin: SkinId, times: Option<&[f64]>) -> serde_json::Value {
    let sk = &*arm.skeleton;
    let setup = evaluate(arm, None, skin, 0.0);
    let mut animations = Vec::new();
    for &id in anims {
        let Some(a) = arm.animation(id) else { continue };
        let ts = times.map_or_else(|| default_times(a.duration_secs), <[f64]>::to_vec);
        let poses: Vec<serde_json::Value> = ts
            .iter()
            .map(|&t| {
                let p = evaluate(arm, Some(id), skin, t);
                let mut v = pose_json(arm, &p);
                v["time"] = serde_json::json!(t);
                v
            })
            .collect();
        animations.push(serde_json::json!({ "name": a.name, "duration": a.duration_secs, "fps": a.fps, "poses": poses }));
    }
    let draw_order: Vec<&str> = sk.draw_order.iter().map(|s| sk.slot(*s).name.as_str()).collect();
    serde_json::json!({ "draw_order": draw_order, "setup": pose_json(arm, &setup), "animations": animations })
}

/// A pose in the conformance format.
pub fn pose_json(arm: &Armature, pose: &Pose) -> serde_json::Value {
    let sk = &*arm.skeleton;
    let bones: Vec<serde_json::Value> =
        sk.bones.iter().zip(&pose.bones).map(|(b, p)| serde_json::json!({ "name": b.name, "world": p.world.to_array() })).collect();
    let slots: Vec<serde_json::Value> = sk
        .slots
        .iter()
        .zip(&pose.slots)
        .map(|(s, p)| {
            let att = p.attachment.map(|a| sk.attachment_full_name(a));
            serde_json::json!({ "name": s.name, "color": p.color.to_array(), "attachment": att })
        })
        .collect();
    serde_json::json!({ "bones": bones, "slots": slots })
}
