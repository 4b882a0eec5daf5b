//! What is under the pointer on the canvas: the topmost drawn item at a
//! point (from the draw list the canvas painted), what a drag on it moves,
//! and the outline of a slot's attachment (for picking and the selection).

use crate::model::{Affine, AttachmentKind, BoneId, SlotId};
use crate::runtime::Pose;

use super::Pick;

/// The matrix of a slot's attachment: its bone's world matrix times the
/// attachment's own transform.
fn attachment_matrix(pose: &Pose, bone: BoneId, kind_transform: Affine) -> Option<Affine> {
    pose.bones.get(bone.index()).map(|b| b.world.then_inner(kind_transform))
}

/// An outline of what a slot shows, in world space: the box of a rect, a
/// polygon around a circle or ellipse, a path's points. Used for picking and
/// for the selection outline, not for drawing.
pub(super) fn slot_outline(
    sk: &crate::model::Skeleton,
    pose: &Pose,
    slot: SlotId,
) -> Option<Vec<(f64, f64)>> {
    let s = sk.slots.get(slot.index())?;
    let (_, att) = pose.attachment(sk, slot)?;
    let m = attachment_matrix(pose, s.bone, att.transform.matrix())?;
    let ellipse = |rx: f64, ry: f64| {
        (0..24)
            .map(|i| f64::from(i) * std::f64::consts::TAU / 24.0)
            .map(|a| m.apply(rx * a.cos(), ry * a.sin()))
            .collect::<Vec<_>>()
    };
    let pad = |st: &crate::model::ShapeStyle| st.stroke_width.max(0.0) / 2.0;
    match &att.kind {
        AttachmentKind::None | AttachmentKind::Sprite { .. } | AttachmentKind::Mesh(_) => None,
        AttachmentKind::Rect { width, height, style, .. } => {
            let (hw, hh) = (width / 2.0 + pad(style), height / 2.0 + pad(style));
            Some(vec![m.apply(-hw, -hh), m.apply(hw, -hh), m.apply(hw, hh), m.apply(-hw, hh)])
        }
        AttachmentKind::Ellipse { radius_x, radius_y, style } => {
            Some(ellipse(radius_x + pad(style), radius_y + pad(style)))
        }
        AttachmentKind::Circle { radius, style } => {
            Some(ellipse(radius + pad(style), radius + pad(style)))
        }
        AttachmentKind::Path { path, .. } => {
            // Points bound to another bone go through that bone's world
            // matrix; the attachment transform applies in the slot bone's space.
            let slot_world = pose.bones.get(s.bone.index())?.world;
            let into_slot = slot_world.inverse();
            let pts = path
                .points()
                .iter()
                .filter_map(|p| {
                    if p.bone == s.bone {
                        return Some(m.apply(p.x, p.y));
                    }
                    let (wx, wy) = pose.bones.get(p.bone.index())?.world.apply(p.x, p.y);
                    match into_slot {
                        Some(inv) => {
                            let (lx, ly) = inv.apply(wx, wy);
                            Some(m.apply(lx, ly))
                        }
                        None => Some((wx, wy)),
                    }
                })
                .collect();
            Some(pts)
        }
    }
}

/// What a drag on `pick` moves: the tip of an IK chain is placed by IK, so
/// a drag on it moves the family's target (on which the tip sits while it
/// can reach it); anything else moves itself.
pub fn ik_handle(sk: &crate::model::Skeleton, pick: Pick) -> Pick {
    match pick {
        Pick::Bone(b) => {
            sk.ik.iter().find(|f| f.bones.last() == Some(&b)).map_or(pick, |f| Pick::Bone(f.target))
        }
        Pick::Slot(_) => pick,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;

    #[test]
    fn a_drag_on_an_ik_tip_moves_its_target() {
        let comp = compile(
            "skeleton\n\tarm l10\n\tarm.hand x10 l3\n\tgoal x12 y4\nik\n\thand to goal up 1\n",
        );
        let sk = &comp.armature.skeleton;
        let (hand, goal, arm) = (
            sk.bone_by_name("arm.hand").unwrap(),
            sk.bone_by_name("goal").unwrap(),
            sk.bone_by_name("arm").unwrap(),
        );
        assert_eq!(ik_handle(sk, Pick::Bone(hand)), Pick::Bone(goal));
        assert_eq!(ik_handle(sk, Pick::Bone(arm)), Pick::Bone(arm));
        assert_eq!(ik_handle(sk, Pick::Bone(goal)), Pick::Bone(goal));
    }
}
