//! The canvas: a y-up view of the skeleton with its origin at the center,
//! pan and zoom, grid and axes, picking bones and shapes, and the keyboard
//! shortcuts that apply while the canvas has focus or the pointer is over it
//! (and no text field has focus).
//!
//! Painting the scene is in `paint`, finding what is under the pointer in
//! `pick`; this file holds the view, the canvas's state and its input.
//!
//! Picking goes through `render::pick::pick_at` on the draw list the canvas
//! painted (the topmost item whose triangles cover the point, so sprites and
//! shapes are picked exactly where drawn; overlay marks and strokes within a
//! few pixels). The pose is drawn by one function, `paint_pose`, through
//! `render` (draw list → `render::egui::to_epaint` meshes; onion-skin ghosts
//! from `render::build_with_onion_skin`; fit-to-view from
//! `render::animation_bounds`). `Drawing` keeps the render cache, the draw
//! list's storage and the sprite textures across frames.

use eframe::egui::{self, EventFilter, PointerButton, Pos2, Rect, Sense};
use serde::{Deserialize, Serialize};

use super::keymap;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::model::{AnimId, Animation, Armature, BoneId, Skeleton, SkinId};
use crate::render::{self, DrawList, DrawOptions, Part, RenderCache};
use crate::runtime::Pose;

mod kept;
mod paint;
mod pick;

pub use crate::render::pick::pick_at;
pub use paint::{ONION_GHOST_ITEMS, onion_ghosts};
pub use pick::ik_handle;

/// Zoom limits, in screen points per world unit.
pub const ZOOM_RANGE: std::ops::RangeInclusive<f32> = 0.02..=64.0;

/// How world space maps onto the canvas: the world origin sits `pan` points
/// from the canvas center, one world unit is `zoom` points, y points up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct View {
    /// Screen points per world unit, within [`ZOOM_RANGE`].
    pub zoom: f32,
    /// Offset in points of the world origin from the canvas center (x right,
    /// y down, as the screen counts).
    pub pan: [f32; 2],
}

impl Default for View {
    fn default() -> Self {
        View { zoom: 1.5, pan: [0.0, 0.0] }
    }
}

impl View {
    /// Where a world point lands on screen, for a canvas occupying `rect`.
    pub fn screen_from_world(&self, rect: Rect, x: f64, y: f64) -> Pos2 {
        let c = rect.center();
        Pos2::new(
            c.x + self.pan[0] + x as f32 * self.zoom,
            c.y + self.pan[1] - y as f32 * self.zoom,
        )
    }

    /// The world point under a screen position.
    pub fn world_from_screen(&self, rect: Rect, p: Pos2) -> (f64, f64) {
        let c = rect.center();
        (
            f64::from((p.x - c.x - self.pan[0]) / self.zoom),
            f64::from(-(p.y - c.y - self.pan[1]) / self.zoom),
        )
    }

    /// Zooms by `factor`, keeping the world point under `anchor` in place.
    pub fn zoom_around(&mut self, rect: Rect, anchor: Pos2, factor: f32) {
        let (wx, wy) = self.world_from_screen(rect, anchor);
        self.zoom = (self.zoom * factor).clamp(*ZOOM_RANGE.start(), *ZOOM_RANGE.end());
        let now = self.screen_from_world(rect, wx, wy);
        self.pan[0] += anchor.x - now.x;
        self.pan[1] += anchor.y - now.y;
    }

    /// Frames the world box `[min_x, min_y, max_x, max_y]` with a margin.
    pub fn fit(&mut self, rect: Rect, bounds: [f64; 4]) {
        let [x0, y0, x1, y1] = bounds;
        let (w, h) = ((x1 - x0).max(1.0) as f32, (y1 - y0).max(1.0) as f32);
        let margin = 0.85;
        self.zoom = ((rect.width() / w).min(rect.height() / h) * margin)
            .clamp(*ZOOM_RANGE.start(), *ZOOM_RANGE.end());
        let (cx, cy) = (((x0 + x1) / 2.0) as f32, ((y0 + y1) / 2.0) as f32);
        self.pan = [-cx * self.zoom, cy * self.zoom];
    }
}

pub use crate::render::pick::Pick;

/// Everything the canvas draws in one frame.
pub struct Scene<'a> {
    /// The armature shown (the script's, or an imported file's).
    pub armature: &'a Armature,
    /// The pose at `time_secs` of `anim`, in `skin`.
    pub pose: &'a Pose,
    /// The animation playing, `None` for the setup pose.
    pub anim: Option<AnimId>,
    /// The skin shown.
    pub skin: SkinId,
    /// The playhead, seconds from the animation's start.
    pub time_secs: f64,
    /// Whether playback loops (onion-skin ghosts then wrap around the ends).
    pub looping: bool,
    /// Whether to draw ghosts of the frames before and after.
    pub onion_skin: bool,
    /// The bone whose line holds the editor cursor.
    pub cursor_bone: Option<BoneId>,
    /// The bone or shape selected by a click, outlined.
    pub selected: Option<Pick>,
    /// Whether to draw the grid and the axes.
    pub show_grid: bool,
    /// Whether to draw the bone overlay (and let bones be picked).
    pub show_bones: bool,
    /// The canvas shows the last error-free version of the script.
    pub stale: bool,
    /// Bones of pose assertions (`expect`) that fail at this time.
    pub failing_bones: Vec<BoneId>,
    /// Which bones are drawn, by index (the outline's hide and solo);
    /// `None`: all of them. What is not drawn cannot be picked either.
    pub visible_bones: Option<&'a [bool]>,
}

/// What a fit framed: while it is the same, the figure stays framed.
///
/// The figure is the rig and the animation played, held as the armature
/// shares them: an edit elsewhere (another animation, a comment) leaves
/// them equal, so typing does not sample the animation's bounds again on
/// every key (about 10 ms at 5000 bones).
#[derive(Clone, Debug)]
pub(crate) struct Framed {
    size: egui::Vec2,
    skeleton: Arc<Skeleton>,
    animation: Option<Arc<Animation>>,
    anim: Option<AnimId>,
    skin: SkinId,
    bones: bool,
}

impl Framed {
    /// What a fit of `scene` in a canvas of `size` frames.
    fn of(size: egui::Vec2, scene: &Scene<'_>) -> Framed {
        let arm = scene.armature;
        Framed {
            size,
            skeleton: arm.skeleton.clone(),
            animation: scene.anim.and_then(|a| arm.animations.get(a.index())).cloned(),
            anim: scene.anim,
            skin: scene.skin,
            bones: scene.show_bones,
        }
    }

    /// Whether a fit of `self` frames what a fit of `other` framed: the
    /// same canvas size, choices, and an equal rig and animation (shared,
    /// or compiled again to the same values).
    fn same_as(&self, other: &Framed) -> bool {
        let same_anim = match (&self.animation, &other.animation) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
            (None, None) => true,
            _ => false,
        };
        self.size == other.size
            && (self.anim, self.skin, self.bones) == (other.anim, other.skin, other.bones)
            && (Arc::ptr_eq(&self.skeleton, &other.skeleton) || self.skeleton == other.skeleton)
            && same_anim
    }
}

/// Where a left-button drag on something drawn is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DragPhase {
    /// Pressed on this (the world point is where the button went down).
    Start(Pick, Part),
    /// The pointer moved while the button is held.
    Move,
    /// Released (or the drag was lost).
    End,
}

/// A left-button drag on the canvas, in world units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    /// Start, move or end.
    pub phase: DragPhase,
    /// The pointer in world units (NaN when it was lost at the end).
    pub world: (f64, f64),
    /// Shift is held: at the start it picks the other gesture (a bone scales
    /// instead of turning; a shape turns instead of moving).
    pub shift: bool,
    /// Alt is held: values snap while it is.
    pub alt: bool,
}

/// What the user asked for on the canvas this frame.
#[derive(Debug, Default, PartialEq)]
pub struct CanvasOutput {
    /// A drag with the left button that started on a bone mark or a shape.
    pub drag: Option<Drag>,
    /// A click: what was under it (`Some(None)`: empty space).
    pub clicked: Option<Option<Pick>>,
    /// Space was pressed and released without panning: play or pause.
    pub toggle_play: bool,
    /// Frames to step the playhead by (arrow keys; negative: back).
    pub step_frames: i64,
    /// Home was pressed: go to the animation's start.
    pub home: bool,
    /// End was pressed: go to the animation's last frame (the last one before
    /// it repeats, when looping).
    pub end: bool,
}

/// What drawing the pose keeps between frames: the render pipeline's
/// tessellation cache and sprite images (looked up next to the script), the
/// draw list's storage, and the sprites uploaded as egui textures.
pub struct Drawing {
    cache: RenderCache,
    /// The SkelForm file whose pictures were put into the cache.
    imported_sprites: Option<PathBuf>,
    image_dir: PathBuf,
    list: DrawList,
    textures: HashMap<u64, egui::TextureHandle>,
    /// The list and its meshes, kept between frames.
    kept: kept::Kept,
}

impl Drawing {
    /// What the canvas drew last (and picks from).
    pub fn list(&self) -> &DrawList {
        &self.list
    }

    /// Sprites are looked up in `image_dir` (the script's folder).
    pub fn new(image_dir: &Path) -> Self {
        Drawing {
            cache: RenderCache::new(image_dir),
            imported_sprites: None,
            image_dir: image_dir.to_path_buf(),
            list: DrawList::default(),
            textures: HashMap::new(),
            kept: kept::Kept::default(),
        }
    }

    /// Follows the script to another folder (Open, Save As).
    pub fn set_image_dir(&mut self, image_dir: &Path) {
        if self.image_dir != image_dir {
            *self = Drawing::new(image_dir);
        }
    }

    /// Puts the pictures of a SkelForm file shown in the editor into the cache (once).
    pub fn use_imported_sprites(&mut self, view: &super::document::ImportedView) {
        if self.imported_sprites.as_ref() != Some(&view.source) {
            view.imported.load_sprites(&mut self.cache.images);
            self.imported_sprites = Some(view.source.clone());
            self.kept.forget();
        }
    }

    /// The pose's meshes the canvas drew last (kept between frames).
    pub fn meshes(&self) -> &[std::sync::Arc<egui::Mesh>] {
        self.kept.kept_meshes()
    }

    /// How many draw lists and sets of meshes were made for the canvas
    /// (each is kept while what it is made of does not change).
    pub fn builds(&self) -> (u64, u64) {
        (self.kept.lists_built(), self.kept.meshes_made)
    }

    /// What the last frame could not draw (missing sprites, …).
    pub fn warnings(&self) -> &[render::RenderWarning] {
        &self.list.warnings
    }
}

/// Canvas state that is not persisted: focus and the Space+drag gesture.
pub struct Canvas {
    pub(crate) space_held: bool,
    /// Space was used to pan, so releasing it does not toggle playback.
    pub(crate) space_panned: bool,
    /// Fit the view on the next frame (set at start-up and by F / Ctrl+0).
    pub fit_requested: bool,
    /// The view follows the figure: after a fit it fits again whenever the
    /// canvas's size, the armature, the animation or the skin changes,
    /// until the user pans, zooms or drags on the canvas.
    pub framing: bool,
    /// What the last fit framed.
    pub(crate) framed: Option<Framed>,
    /// The canvas's rectangle in the last frame.
    pub rect: Rect,
    /// A left-button drag on something drawn is under way.
    pub(crate) dragging: bool,
}

impl Default for Canvas {
    fn default() -> Self {
        Canvas {
            space_held: false,
            space_panned: false,
            fit_requested: false,
            framing: false,
            framed: None,
            rect: Rect::NOTHING,
            dragging: false,
        }
    }
}

/// The id of the canvas widget (tests give it focus by clicking it).
pub fn canvas_id() -> egui::Id {
    egui::Id::unique("skelpad.canvas")
}

impl Canvas {
    /// Shows the canvas in the space `ui` has left: handles focus, keys,
    /// pan, zoom, fit, picks and drags (moving `view`), then paints the grid,
    /// `scene` and its highlights. What the user asked for is returned for
    /// the app to carry out.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        view: &mut View,
        scene: &Scene<'_>,
        drawing: &mut Drawing,
    ) -> CanvasOutput {
        let mut out = CanvasOutput::default();
        let rect = ui.available_rect_before_wrap();
        self.rect = rect;
        let response = ui.interact(rect, canvas_id(), Sense::click_and_drag());
        let focused = take_focus(ui, &response);
        self.keys(ui, &response, focused, &mut out);
        out.drag = self.drag(ui, &response, rect, view, scene, drawing);
        self.pan_and_zoom(ui, &response, rect, view);
        self.fit_if_requested(rect, view, scene, drawing);
        if response.clicked()
            && !self.space_held
            && let Some(p) = response.interact_pointer_pos()
        {
            let (wx, wy) = view.world_from_screen(rect, p);
            let tolerance = f64::from(6.0 / view.zoom);
            out.clicked = Some(pick_at(&drawing.list, wx, wy, tolerance).map(|(pick, _)| pick));
        }
        paint::paint_canvas(ui, rect, view, scene, drawing, focused);
        out
    }

    /// Keyboard: single keys while the canvas has focus, or while the
    /// pointer is over it and no text field has focus — never while typing
    /// in the editor, wherever the pointer rests.
    fn keys(
        &mut self,
        ui: &mut egui::Ui,
        response: &egui::Response,
        focused: bool,
        out: &mut CanvasOutput,
    ) {
        let ctrl_zero = (focused || response.hovered())
            && ui.input_mut(|i| i.consume_shortcut(&keymap::FIT_ZERO));
        let hovered_free = response.hovered() && !super::editor::text_field_focused(ui.ctx());
        if focused || hovered_free {
            ui.input_mut(|i| {
                if i.key_pressed(keymap::PLAY.logical_key) {
                    self.space_held = true;
                    self.space_panned = false;
                }
                if i.key_released(keymap::PLAY.logical_key) && self.space_held {
                    self.space_held = false;
                    if !self.space_panned {
                        out.toggle_play = true;
                    }
                }
                if i.consume_shortcut(&keymap::PREV_FRAME) {
                    out.step_frames -= 1;
                }
                if i.consume_shortcut(&keymap::NEXT_FRAME) {
                    out.step_frames += 1;
                }
                out.home = i.consume_shortcut(&keymap::FIRST_FRAME);
                out.end = i.consume_shortcut(&keymap::LAST_FRAME);
                if i.consume_shortcut(&keymap::FIT) {
                    self.fit_requested = true;
                }
            });
        } else {
            self.space_held = false;
        }
        if ctrl_zero {
            self.fit_requested = true;
        }
    }

    /// Left drag on a bone mark or a shape: editing (the app writes it
    /// back into the script): the drag's phase this frame.
    fn drag(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        rect: Rect,
        view: &View,
        scene: &Scene<'_>,
        drawing: &Drawing,
    ) -> Option<Drag> {
        let (shift, alt) = ui.input(|i| {
            (i.modifiers.contains(keymap::DRAG_ALTERNATE), i.modifiers.contains(keymap::DRAG_SNAP))
        });
        let mut drag = None;
        if !self.space_held
            && response.drag_started_by(PointerButton::Primary)
            && let Some(p) = ui.input(|i| i.pointer.press_origin())
        {
            let world = view.world_from_screen(rect, p);
            if let Some((pick, part)) =
                pick_at(&drawing.list, world.0, world.1, f64::from(6.0 / view.zoom))
            {
                let pick = ik_handle(&scene.armature.skeleton, pick);
                self.dragging = true;
                // The figure the user reaches into stays where it is.
                self.framing = false;
                drag = Some(Drag { phase: DragPhase::Start(pick, part), world, shift, alt });
            }
        } else if self.dragging {
            let pos =
                response.interact_pointer_pos().or_else(|| ui.input(|i| i.pointer.latest_pos()));
            let stopped = response.drag_stopped() || !response.dragged_by(PointerButton::Primary);
            if let Some(p) = pos {
                let phase = if stopped { DragPhase::End } else { DragPhase::Move };
                drag = Some(Drag { phase, world: view.world_from_screen(rect, p), shift, alt });
            } else if stopped {
                drag =
                    Some(Drag { phase: DragPhase::End, world: (f64::NAN, f64::NAN), shift, alt });
            }
            if stopped {
                self.dragging = false;
            }
        }
        drag
    }

    /// Pan: middle or right drag, or Space + left drag; zoom around the
    /// cursor: the wheel, or a pinch / Ctrl+wheel.
    fn pan_and_zoom(
        &mut self,
        ui: &egui::Ui,
        response: &egui::Response,
        rect: Rect,
        view: &mut View,
    ) {
        let pan_drag = response.dragged_by(PointerButton::Middle)
            || response.dragged_by(PointerButton::Secondary)
            || (self.space_held && response.dragged_by(PointerButton::Primary));
        if pan_drag {
            let d = response.drag_delta();
            view.pan[0] += d.x;
            view.pan[1] += d.y;
            self.framing &= d == egui::Vec2::ZERO;
            if self.space_held {
                self.space_panned = true;
            }
        }
        if let Some(hover) = response.hover_pos() {
            let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = (scroll * 0.002).exp() * pinch;
            if (factor - 1.0).abs() > 1e-4 {
                view.zoom_around(rect, hover, factor);
                self.framing = false;
            }
        }
    }

    /// Fits the view on the whole animation's bounds when asked to.
    fn fit_if_requested(
        &mut self,
        rect: Rect,
        view: &mut View,
        scene: &Scene<'_>,
        drawing: &mut Drawing,
    ) {
        let now = Framed::of(rect.size(), scene);
        let moved_on = self.framed.as_ref().is_none_or(|f| !f.same_as(&now));
        if self.framing && moved_on && !self.dragging {
            self.fit_requested = true;
        }
        if !(self.fit_requested && rect.width() > 1.0) {
            return;
        }
        self.fit_requested = false;
        self.framing = true;
        self.framed = Some(now);
        // The bounds of the whole animation, so playing it stays in view.
        let options = DrawOptions {
            pixels_per_unit: f64::from(view.zoom),
            bones: scene.show_bones,
            contours: false,
        };
        // Sampled: a bounded number of poses, whatever the animation's
        // length and the rig's size (`FIT_BONE_POSES`).
        let sk = &scene.armature.skeleton;
        let samples = FIT_BONE_POSES / (sk.bones.len() + sk.slots.len()).max(1);
        match render::animation_bounds_sampled(
            scene.armature,
            scene.anim,
            scene.skin,
            &options,
            &mut drawing.cache,
            samples.clamp(2, 600),
        ) {
            Some(b) => view.fit(rect, [b.min[0], b.min[1], b.max[0], b.max[1]]),
            None => *view = View::default(),
        }
    }
}

/// Focus: taken by a click or drag on the canvas, and kept from the arrow
/// keys (they step frames); whether the canvas has it.
fn take_focus(ui: &mut egui::Ui, response: &egui::Response) -> bool {
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Canvas, true, "Canvas"));
    if response.clicked() || response.drag_started() || response.secondary_clicked() {
        response.request_focus();
    }
    let focused = response.has_focus();
    if focused {
        // Keep arrow keys for frame stepping instead of moving focus.
        ui.memory_mut(|m| {
            m.set_focus_lock_filter(
                canvas_id(),
                EventFilter {
                    horizontal_arrows: true,
                    vertical_arrows: true,
                    tab: false,
                    escape: false,
                },
            )
        });
    }
    focused
}

/// Fitting the view poses at most about this many bones and slots (spread
/// over sampled frames: 400 frames of a small rig, a few of a huge one), so
/// a fit stays well inside a frame (about 35 ms for 5000 bones, release).
pub const FIT_BONE_POSES: usize = 40_000;

#[cfg(test)]
mod tests {
    use super::*;
    use eframe::egui::Vec2;

    #[test]
    fn a_fit_is_not_redone_for_an_edit_that_leaves_the_figure_as_it_was() {
        let rig = "skeleton\n\tarm l40\n\t\t@ :rect w10 h4\nanim \"a\"\n\tarm\n\t\tr 0 -> 90\nanim \"b\"\n\tarm\n\t\tr 0 -> 45\n";
        let framed = |text: &str, size: f32| {
            let arm = crate::compile::compile(text).armature;
            let scene = Scene {
                armature: &arm,
                pose: &Pose::default(),
                anim: Some(AnimId::from_index(0)),
                skin: SkinId::from_index(0),
                time_secs: 0.0,
                looping: true,
                onion_skin: false,
                cursor_bone: None,
                selected: None,
                show_grid: true,
                show_bones: true,
                stale: false,
                failing_bones: Vec::new(),
                visible_bones: None,
            };
            Framed::of(Vec2::splat(size), &scene)
        };
        let first = framed(rig, 400.0);
        // A comment, and an edit to the animation not played: the same figure.
        assert!(first.same_as(&framed(&rig.replace("l40", "l40 # long"), 400.0)));
        assert!(first.same_as(&framed(&rig.replace("r 0 -> 45", "r 0 -> 50"), 400.0)));
        // The rig, the animation played or the canvas changed: fitted again.
        assert!(!first.same_as(&framed(&rig.replace("l40", "l45"), 400.0)));
        assert!(!first.same_as(&framed(&rig.replace("r 0 -> 90", "r 0 -> 80"), 400.0)));
        assert!(!first.same_as(&framed(rig, 500.0)));
    }

    #[test]
    fn view_maps_world_y_up_around_the_center_and_zooms_about_the_cursor() {
        let rect = Rect::from_min_size(Pos2::ZERO, Vec2::new(200.0, 100.0));
        let mut v = View { zoom: 2.0, pan: [0.0, 0.0] };
        assert_eq!(v.screen_from_world(rect, 0.0, 0.0), Pos2::new(100.0, 50.0));
        assert_eq!(v.screen_from_world(rect, 10.0, 10.0), Pos2::new(120.0, 30.0));
        let anchor = Pos2::new(150.0, 20.0);
        let before = v.world_from_screen(rect, anchor);
        v.zoom_around(rect, anchor, 3.0);
        let after = v.world_from_screen(rect, anchor);
        assert!((before.0 - after.0).abs() < 1e-4 && (before.1 - after.1).abs() < 1e-4);
        assert_eq!(v.zoom, 6.0);
        v.fit(rect, [-10.0, 0.0, 30.0, 20.0]);
        let c = v.screen_from_world(rect, 10.0, 10.0);
        assert!((c.x - 100.0).abs() < 1e-3 && (c.y - 50.0).abs() < 1e-3);
    }
}
