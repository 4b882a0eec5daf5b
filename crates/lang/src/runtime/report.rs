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
pub fn pose_document(
    arm: &Armature,
    anims: &[AnimId],
    skin: SkinId,
    times: Option<&[f64]>,
) -> serde_json::Value {
    pose_document_with(arm, anims, skin, times, false)
}

/// [`pose_document`], with a `draw` list in each pose when `draw` is set
/// (see [`draw_json`]), and `looping` for animations whose file says.
pub fn pose_document_with(
    arm: &Armature,
    anims: &[AnimId],
    skin: SkinId,
    times: Option<&[f64]>,
    draw: bool,
) -> serde_json::Value {
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
                if draw {
                    v["draw"] = draw_json(arm, &p);
                }
                v
            })
            .collect();
        let mut entry = serde_json::json!({ "name": a.name, "duration": a.duration_secs, "fps": a.fps, "poses": poses, "events": events_json(a) });
        if let Some(l) = a.looping {
            entry["looping"] = l.into();
        }
        animations.push(entry);
    }
    let draw_order: Vec<&str> = sk.draw_order.iter().map(|s| sk.slot(*s).name.as_str()).collect();
    let mut setup_json = pose_json(arm, &setup);
    if draw {
        setup_json["draw"] = draw_json(arm, &setup);
    }
    serde_json::json!({ "draw_order": draw_order, "setup": setup_json, "animations": animations })
}

/// An animation's events, in time order: each with its `name`, `frame`,
/// `time` (seconds) and its payload as `int`, `float` or `string` (none for
/// a bare event).
pub fn events_json(a: &crate::model::Animation) -> serde_json::Value {
    serde_json::Value::Array(a.events.iter().map(event_json).collect())
}

/// One event as [`events_json`] lists it: `name`, `frame`, `time` and its
/// payload as `int`, `float` or `string`.
pub fn event_json(e: &crate::model::Event) -> serde_json::Value {
    use crate::model::EventPayload;
    let mut v = serde_json::json!({ "name": e.name, "frame": e.frame, "time": e.time_secs });
    match &e.payload {
        EventPayload::None => {}
        EventPayload::Int(i) => v["int"] = (*i).into(),
        EventPayload::Float(f) => v["float"] = (*f).into(),
        EventPayload::Text(s) => v["string"] = s.as_str().into(),
    }
    v
}

/// Everything a pose draws, in draw order: per shown attachment its `slot`,
/// `attachment` (full name), `kind`, `image` (pictures: the path as written,
/// relative to the input file), `pivot`, `world` — `[a,b,c,d,e,f]` mapping
/// the attachment's frame to the world (for pictures the pivot frame:
/// origin at the pivot, x and y in image pixels, y up) — and `alpha` (the
/// slot's, with Spriter's inherited alpha).
pub fn draw_json(arm: &Armature, pose: &Pose) -> serde_json::Value {
    let sk = &*arm.skeleton;
    let mut out = Vec::new();
    for &slot in &pose.draw_order {
        let Some((id, att)) = pose.attachment(sk, slot) else { continue };
        if matches!(att.kind, crate::model::AttachmentKind::None) {
            continue;
        }
        let Some(bone) = sk.slots.get(slot.index()).and_then(|s| pose.bones.get(s.bone.index()))
        else {
            continue;
        };
        let world = bone.world * att.transform.matrix();
        let mut item = serde_json::json!({
            "slot": sk.slot(slot).name,
            "attachment": sk.attachment_full_name(id),
            "kind": att.kind.type_name(),
            "world": world.to_array(),
            "alpha": pose.slots.get(slot.index()).map_or(1.0, |s| s.color.a),
        });
        if let crate::model::AttachmentKind::Sprite { image: Some(img), pivot } = &att.kind {
            item["image"] = img.clone().into();
            item["pivot"] = serde_json::json!(pivot);
        }
        out.push(item);
    }
    serde_json::Value::Array(out)
}

/// A pose in the conformance format.
pub fn pose_json(arm: &Armature, pose: &Pose) -> serde_json::Value {
    let sk = &*arm.skeleton;
    let bones: Vec<serde_json::Value> = sk
        .bones
        .iter()
        .zip(&pose.bones)
        .map(|(b, p)| serde_json::json!({ "name": b.name, "world": p.world.to_array() }))
        .collect();
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
