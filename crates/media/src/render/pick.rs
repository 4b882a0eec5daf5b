//! Picking: what a draw list shows at a world point (the canvas's clicks,
//! and any tool that asks what is under a point of a picture).

use super::{DrawList, Part};
use skelpad_lang::model::{BoneId, SlotId};

/// Something drawn that can be selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// A bone, by its overlay mark (diamond or origin cross).
    Bone(BoneId),
    /// The shape or picture a slot shows.
    Slot(SlotId),
}

/// What is drawn at the world point `(x, y)` of `list`: the topmost item
/// (onion-skin ghosts aside) whose triangles cover the point, with the part
/// hit. The bone overlay (drawn last) and strokes also count within
/// `tolerance` (world units); fills and sprites count exactly where they
/// are drawn.
pub fn pick_at(list: &DrawList, x: f64, y: f64, tolerance: f64) -> Option<(Pick, Part)> {
    let v =
        |i: u32| list.vertices.get(i as usize).map(|v| (f64::from(v.pos[0]), f64::from(v.pos[1])));
    for item in list.items.iter().rev().filter(|i| !i.ghost) {
        let tol = match item.part {
            Part::BoneOrigin | Part::BoneDiamond | Part::Stroke => tolerance,
            Part::Fill | Part::Sprite => 0.0,
        };
        let Some(tris) = list.indices.get(item.indices.start as usize..item.indices.end as usize)
        else {
            continue;
        };
        let hit = tris.chunks_exact(3).any(|t| match (v(t[0]), v(t[1]), v(t[2])) {
            (Some(a), Some(b), Some(c)) => distance_to_triangle((x, y), [a, b, c]) <= tol,
            _ => false,
        });
        if hit {
            let pick = match (item.part, item.slot) {
                (Part::BoneOrigin | Part::BoneDiamond, _) | (_, None) => Pick::Bone(item.bone),
                (_, Some(s)) => Pick::Slot(s),
            };
            return Some((pick, item.part));
        }
    }
    None
}

/// Distance from `p` to the segment `a`–`b`.
pub fn distance_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (cx, cy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
}

/// Distance from `p` to a triangle (0 inside it).
pub fn distance_to_triangle(p: (f64, f64), t: [(f64, f64); 3]) -> f64 {
    let cross =
        |a: (f64, f64), b: (f64, f64)| (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
    let (d0, d1, d2) = (cross(t[0], t[1]), cross(t[1], t[2]), cross(t[2], t[0]));
    let neg = d0 < 0.0 || d1 < 0.0 || d2 < 0.0;
    let pos = d0 > 0.0 || d1 > 0.0 || d2 > 0.0;
    if !(neg && pos) {
        return 0.0;
    }
    distance_to_segment(p, t[0], t[1])
        .min(distance_to_segment(p, t[1], t[2]))
        .min(distance_to_segment(p, t[2], t[0]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{DrawOptions, RenderCache, build_draw_list};
    use skelpad_lang::compile::compile;
    use skelpad_lang::model::SkinId;
    use skelpad_lang::runtime::evaluate;

    #[test]
    fn points_pick_what_is_drawn_there() {
        let comp = compile(
            "skeleton\n\tarm l40 r90\n\t\t@ :rect x20 w10 h40\n\tbody x100\n\t\t@ :circle d20\n\tfoot x-100 l4\n",
        );
        let arm = comp.armature;
        let pose = evaluate(&arm, None, SkinId(0), 0.0);
        let list = |bones: bool| {
            let mut cache = RenderCache::new(".");
            let options = DrawOptions { pixels_per_unit: 1.0, bones, contours: false };
            build_draw_list(&arm, &pose, &options, &mut cache)
        };
        let (with, without) = (list(true), list(false));
        // On the arm's diamond (it points up), and the rect under it when
        // the overlay is hidden (40 wide across the bone, 10 along it,
        // centered 20 up the bone).
        assert_eq!(
            pick_at(&with, 0.5, 20.0, 1.0),
            Some((Pick::Bone(BoneId(0)), Part::BoneDiamond))
        );
        assert_eq!(pick_at(&without, 0.5, 20.0, 1.0).map(|p| p.0), Some(Pick::Slot(SlotId(0))));
        assert_eq!(pick_at(&without, 18.0, 24.0, 1.0).map(|p| p.0), Some(Pick::Slot(SlotId(0))));
        assert_eq!(pick_at(&without, 0.5, 30.0, 1.0), None);
        // The circle (radius 10) exactly where it is drawn, under the
        // overlay too away from its bone's marks.
        assert_eq!(pick_at(&with, 105.0, 5.0, 1.0).map(|p| p.0), Some(Pick::Slot(SlotId(1))));
        assert_eq!(pick_at(&without, 109.0, 0.0, 1.0).map(|p| p.0), Some(Pick::Slot(SlotId(1))));
        assert_eq!(pick_at(&without, 112.5, 0.0, 1.0), None);
        // A short bone has only its origin mark, picked within the tolerance.
        assert_eq!(
            pick_at(&with, -100.0, 0.0, 1.0),
            Some((Pick::Bone(BoneId(2)), Part::BoneOrigin))
        );
        assert_eq!(pick_at(&with, 50.0, -50.0, 1.0), None);
    }

    #[test]
    fn distances_are_zero_inside_and_euclidean_outside() {
        let tri = [(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)];
        assert_eq!(distance_to_triangle((1.0, 1.0), tri), 0.0);
        assert_eq!(distance_to_triangle((1.0, -3.0), tri), 3.0);
        assert_eq!(distance_to_segment((5.0, 4.0), (0.0, 0.0), (2.0, 0.0)), 5.0);
    }
}
