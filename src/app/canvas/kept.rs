//! What the canvas keeps of the pose between frames, so that a frame where
//! the pose did not change (playback paused, or between two of the
//! animation's frames; typing, hovering, selecting) neither builds the
//! draw list again nor converts it to meshes again.
//!
//! Two levels, each behind a key compared every frame:
//!
//! - the draw list ([`ListKey`]): the skeleton (by pointer), the pose's
//!   bones, slots, skin and draw order (compared by value), the drawing
//!   options (zoom, bone overlay), the onion skin's animation and time and
//!   the bones hidden by the outline. Anything else the list is made from
//!   (sprite images) is forgotten with [`Kept::forget`];
//! - the meshes ([`MeshKey`]): the list (a count of lists built) and where
//!   it lands on screen (pan, zoom, the canvas's center), so panning only
//!   converts the kept list again.
//!
//! What depends on the pointer, the editor cursor or the selection (the
//! outlines drawn over the pose) is not kept: it is drawn fresh each frame.

use std::sync::Arc;

use eframe::egui::Mesh;

use crate::model::{AnimId, Animation, Skeleton, SkinId, SlotId};
use crate::render::{self, DrawList, DrawOptions, OnionSkin, RenderCache};
use crate::runtime::{BonePose, Pose, SlotPose};

/// What a draw list was built from.
#[derive(Default)]
struct ListKey {
    skeleton: Option<Arc<Skeleton>>,
    bones: Vec<BonePose>,
    slots: Vec<SlotPose>,
    skin: SkinId,
    draw_order: Vec<SlotId>,
    skf: Vec<crate::runtime::skelform::SkfXform>,
    /// `pixels_per_unit`'s bits, the bone overlay and contours.
    options: (u64, bool, bool),
    /// The animation (by id and pointer), skin, time (bits) and ghosts,
    /// when onion-skin ghosts are drawn.
    onion: Option<(AnimId, Arc<Animation>, SkinId, u64, OnionSkin)>,
    visible: Option<Vec<bool>>,
}

impl ListKey {
    fn matches(&self, skeleton: &Arc<Skeleton>, pose: &Pose, want: &ListWant<'_>) -> bool {
        self.skeleton.as_ref().is_some_and(|s| Arc::ptr_eq(s, skeleton))
            && self.options == want.options_key()
            && match (&self.onion, &want.onion) {
                (None, None) => true,
                (Some((id, a, skin, t, onion)), Some(o)) => {
                    *id == o.anim
                        && Arc::ptr_eq(a, &o.animation)
                        && *skin == o.skin
                        && *t == o.time_secs.to_bits()
                        && *onion == o.onion
                }
                _ => false,
            }
            && self.visible.as_deref() == want.visible
            && self.skin == pose.skin
            && self.bones == pose.bones
            && self.slots == pose.slots
            && self.draw_order == pose.draw_order
            && self.skf == pose.skf
    }

    fn set(&mut self, skeleton: &Arc<Skeleton>, pose: &Pose, want: &ListWant<'_>) {
        self.skeleton = Some(skeleton.clone());
        self.bones.clone_from(&pose.bones);
        self.slots.clone_from(&pose.slots);
        self.skin = pose.skin;
        self.draw_order.clone_from(&pose.draw_order);
        self.skf.clone_from(&pose.skf);
        self.options = want.options_key();
        self.onion = want
            .onion
            .as_ref()
            .map(|o| (o.anim, o.animation.clone(), o.skin, o.time_secs.to_bits(), o.onion));
        self.visible = want.visible.map(<[bool]>::to_vec);
    }
}

/// Onion-skin ghosts: of animation `anim` (`animation`) in `skin`,
/// around `time_secs`.
pub(super) struct Ghosts {
    pub anim: AnimId,
    pub animation: Arc<Animation>,
    pub skin: SkinId,
    pub time_secs: f64,
    /// How many ghosts, looping or not.
    pub onion: OnionSkin,
}

/// What the canvas wants drawn this frame, besides the armature and pose.
pub(super) struct ListWant<'a> {
    pub options: DrawOptions,
    /// Ghosts of the frames around, drawn instead of `pose` alone.
    pub onion: Option<Ghosts>,
    /// Which bones are drawn (the outline's hide and solo); `None`: all.
    pub visible: Option<&'a [bool]>,
}

impl ListWant<'_> {
    fn options_key(&self) -> (u64, bool, bool) {
        let o = &self.options;
        (o.pixels_per_unit.to_bits(), o.bones, o.contours)
    }
}

/// Where the meshes were made for: the list (by count) and the view's
/// origin and scale (bits).
#[derive(Clone, Copy, Default, PartialEq)]
struct MeshKey {
    list: u64,
    view: [u64; 3],
}

/// The kept draw list and meshes (see the module's documentation).
#[derive(Default)]
pub struct Kept {
    list_key: ListKey,
    /// How many lists were built (0: none yet).
    lists_built: u64,
    mesh_key: Option<MeshKey>,
    meshes: Vec<Arc<Mesh>>,
    /// How many times the meshes were made again (for tests).
    pub meshes_made: u64,
}

impl Kept {
    /// Forgets the list and meshes (the sprite images changed).
    pub fn forget(&mut self) {
        self.list_key = ListKey::default();
        self.mesh_key = None;
    }

    /// The meshes made last.
    pub fn kept_meshes(&self) -> &[Arc<Mesh>] {
        &self.meshes
    }

    /// How many draw lists were built (for tests).
    pub fn lists_built(&self) -> u64 {
        self.lists_built
    }

    /// Brings `list` up to `armature` in `pose` as `want` asks: built
    /// again only when something it is made of changed. The skeleton and
    /// animations of `armature` are compared by pointer.
    pub(super) fn update_list(
        &mut self,
        list: &mut DrawList,
        armature: &crate::model::Armature,
        pose: &Pose,
        want: &ListWant<'_>,
        cache: &mut RenderCache,
    ) {
        if self.lists_built > 0 && self.list_key.matches(&armature.skeleton, pose, want) {
            return;
        }
        build_list(list, armature, pose, want, cache);
        self.list_key.set(&armature.skeleton, pose, want);
        self.lists_built += 1;
    }

    /// The meshes of `list` seen through `view`: made again only when the
    /// list or the view changed since the last call.
    pub(super) fn meshes(
        &mut self,
        list: &DrawList,
        view: &render::View,
        texture_of: &mut dyn FnMut(&render::SpriteImage) -> eframe::egui::TextureId,
    ) -> &[Arc<Mesh>] {
        let key = MeshKey {
            list: self.lists_built,
            view: [view.origin_px[0].to_bits(), view.origin_px[1].to_bits(), {
                view.pixels_per_unit.to_bits()
            }],
        };
        if self.mesh_key != Some(key) {
            self.meshes =
                render::egui::to_epaint(list, view, texture_of).into_iter().map(Arc::new).collect();
            self.mesh_key = Some(key);
            self.meshes_made += 1;
        }
        &self.meshes
    }
}

/// Builds the draw list of `armature` in `pose` (with ghosts when asked)
/// and drops the items of hidden bones: what the canvas draws, uncached.
pub(super) fn build_list(
    list: &mut DrawList,
    armature: &crate::model::Armature,
    pose: &Pose,
    want: &ListWant<'_>,
    cache: &mut RenderCache,
) {
    match &want.onion {
        Some(g) => {
            *list = render::build_with_onion_skin(
                armature,
                g.anim,
                g.skin,
                g.time_secs,
                &g.onion,
                &want.options,
                cache,
            );
        }
        None => render::build_draw_list_into(list, armature, pose, &want.options, cache),
    }
    if let Some(visible) = want.visible {
        list.items.retain(|i| visible.get(i.bone.index()).copied().unwrap_or(true));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::evaluate_into;
    use eframe::egui::TextureId;

    fn texture_of(img: &render::SpriteImage) -> TextureId {
        TextureId::User(img.id)
    }

    fn want(zoom: f64, bones: bool, visible: Option<&[bool]>) -> ListWant<'_> {
        let options = DrawOptions { pixels_per_unit: zoom, bones, contours: false };
        ListWant { options, onion: None, visible }
    }

    /// What the canvas would draw without anything kept: a fresh cache,
    /// list and meshes.
    fn fresh(
        arm: &crate::model::Armature,
        pose: &Pose,
        want: &ListWant<'_>,
        view: &render::View,
    ) -> Vec<Mesh> {
        let mut list = DrawList::default();
        build_list(&mut list, arm, pose, want, &mut RenderCache::new("."));
        render::egui::to_epaint(&list, view, &mut texture_of)
    }

    /// The kept meshes equal freshly made ones after every kind of change
    /// (pose, zoom, pan, overlay, hidden bones, ghosts, an edit to the
    /// rig), and nothing is made again while nothing changed.
    #[test]
    fn kept_meshes_are_the_fresh_ones_and_follow_every_change() {
        let text = crate::generate::script(40, 2);
        let arm = crate::compile::compile(&text).armature;
        let edited = text.replacen(" l", " l7", 3);
        let arm2 = crate::compile::compile(&edited).armature;
        assert!(!Arc::ptr_eq(&arm.skeleton, &arm2.skeleton));
        let anim = arm.animation(AnimId::from_index(0));
        let pose_at = |arm: &crate::model::Armature, t: f64| {
            let mut p = Pose::default();
            evaluate_into(&mut p, arm, arm.animation(AnimId::from_index(0)), SkinId::default(), t);
            p
        };
        assert!(anim.is_some());
        let (p0, p1, p2) = (pose_at(&arm, 0.0), pose_at(&arm, 0.5), pose_at(&arm2, 0.5));
        assert!(p0 != p1, "the animation moves something");
        let hidden: Vec<bool> = (0..40).map(|i| i % 3 != 0).collect();
        let v0 = render::View { origin_px: [400.0, 300.0], pixels_per_unit: 2.0 };
        let v1 = render::View { origin_px: [420.0, 290.0], pixels_per_unit: 2.0 };
        let v2 = render::View { origin_px: [420.0, 290.0], pixels_per_unit: 3.0 };
        let ghosts = |t: f64| {
            Some(Ghosts {
                anim: AnimId::from_index(0),
                animation: arm.animations[0].clone(),
                skin: SkinId::default(),
                time_secs: t,
                onion: OnionSkin { before: 2, after: 2, ..OnionSkin::default() },
            })
        };
        let with_ghosts = |t: f64| ListWant { onion: ghosts(t), ..want(2.0, true, None) };
        // (armature, pose, what is wanted, view, whether the list and the
        // meshes must be made again).
        let steps: Vec<(&crate::model::Armature, &Pose, ListWant<'_>, render::View, bool, bool)> = vec![
            (&arm, &p0, want(2.0, true, None), v0, true, true),
            (&arm, &p0, want(2.0, true, None), v0, false, false),
            (&arm, &p1, want(2.0, true, None), v0, true, true),
            (&arm, &p1, want(2.0, true, None), v1, false, true),
            (&arm, &p1, want(3.0, true, None), v2, true, true),
            (&arm, &p1, want(3.0, false, None), v2, true, true),
            (&arm, &p1, want(3.0, false, Some(&hidden)), v2, true, true),
            (&arm, &p1, want(3.0, false, Some(&hidden)), v2, false, false),
            (&arm, &p1, with_ghosts(0.5), v2, true, true),
            (&arm, &p1, with_ghosts(0.5), v2, false, false),
            (&arm, &p1, with_ghosts(0.75), v2, true, true),
            (&arm2, &p2, want(2.0, true, None), v2, true, true),
            (&arm2, &p2, want(2.0, true, None), v2, false, false),
        ];
        let mut kept = Kept::default();
        let mut list = DrawList::default();
        let mut cache = RenderCache::new(".");
        for (i, (a, pose, w, view, list_again, meshes_again)) in steps.iter().enumerate() {
            let before = (kept.lists_built(), kept.meshes_made);
            kept.update_list(&mut list, a, pose, w, &mut cache);
            let meshes: Vec<Mesh> =
                kept.meshes(&list, view, &mut texture_of).iter().map(|m| (**m).clone()).collect();
            assert_eq!(kept.lists_built() > before.0, *list_again, "step {i}: list built");
            assert_eq!(kept.meshes_made > before.1, *meshes_again, "step {i}: meshes made");
            let expected = fresh(a, pose, w, view);
            assert!(!expected.is_empty(), "step {i}: something is drawn");
            assert!(meshes == expected, "step {i}: the kept meshes differ from fresh ones");
        }
    }
}
