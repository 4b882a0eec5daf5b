//! The canvas: a y-up view of the skeleton with its origin at the center,
//! pan and zoom, grid and axes, picking bones and shapes, and the keyboard
//! shortcuts that apply while the canvas has focus or the pointer is over it
//! (and no text field has focus).

use eframe::egui::{
    self, Color32, EventFilter, Key, Modifiers, PointerButton, Pos2, Rect, Sense, Stroke, Vec2,
};
use serde::{Deserialize, Serialize};

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::model::{Affine, AnimId, Armature, AttachmentKind, BoneId, SkinId, SlotId};
use crate::render::{self, DrawList, DrawOptions, OnionSkin, Part, RenderCache};
use crate::runtime::Pose;

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

/// Something on the canvas that can be selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// A bone, by its overlay mark (diamond or origin cross).
    Bone(BoneId),
    /// The shape or picture a slot shows.
    Slot(SlotId),
}

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
        }
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
        paint_canvas(ui, rect, view, scene, drawing, focused);
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
            && ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::Num0));
        let hovered_free = response.hovered() && !super::editor::text_field_focused(ui.ctx());
        if focused || hovered_free {
            ui.input_mut(|i| {
                if i.key_pressed(Key::Space) {
                    self.space_held = true;
                    self.space_panned = false;
                }
                if i.key_released(Key::Space) && self.space_held {
                    self.space_held = false;
                    if !self.space_panned {
                        out.toggle_play = true;
                    }
                }
                if i.consume_key(Modifiers::NONE, Key::ArrowLeft) {
                    out.step_frames -= 1;
                }
                if i.consume_key(Modifiers::NONE, Key::ArrowRight) {
                    out.step_frames += 1;
                }
                out.home = i.consume_key(Modifiers::NONE, Key::Home);
                out.end = i.consume_key(Modifiers::NONE, Key::End);
                if i.consume_key(Modifiers::NONE, Key::F) {
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
        let (shift, alt) = ui.input(|i| (i.modifiers.shift, i.modifiers.alt));
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
            if self.space_held {
                self.space_panned = true;
            }
        }
        if let Some(hover) = response.hover_pos() {
            let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
            let factor = (scroll * 0.002).exp() * pinch;
            if (factor - 1.0).abs() > 1e-4 {
                view.zoom_around(rect, hover, factor);
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
        if !(self.fit_requested && rect.width() > 1.0) {
            return;
        }
        self.fit_requested = false;
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

/// Paints the background, grid, pose, highlights, notes and focus frame.
fn paint_canvas(
    ui: &egui::Ui,
    rect: Rect,
    view: &View,
    scene: &Scene<'_>,
    drawing: &mut Drawing,
    focused: bool,
) {
    let painter = ui.painter_at(rect);
    let visuals = ui.visuals();
    painter.rect_filled(rect, 0.0, visuals.extreme_bg_color);
    if scene.show_grid {
        paint_grid(&painter, rect, view, visuals.dark_mode);
    }
    paint_pose(&painter, rect, view, scene, drawing);
    paint_highlights(&painter, rect, view, scene, visuals.selection.stroke.color);
    let mut notes: Vec<String> = Vec::new();
    if scene.stale {
        notes.push("The script has errors: showing its last error-free version".into());
    }
    if scene.onion_skin && scene.anim.is_some() && onion_ghosts(scene.armature) == 0 {
        notes.push("Onion skin is off: this rig is too large to draw ghosts every frame".into());
    }
    notes.extend(drawing.warnings().iter().take(3).map(|w| w.message.clone()));
    for (i, note) in notes.iter().enumerate() {
        painter.text(
            rect.left_top() + Vec2::new(8.0, 8.0 + 16.0 * i as f32),
            egui::Align2::LEFT_TOP,
            note,
            egui::FontId::proportional(12.0),
            visuals.warn_fg_color,
        );
    }
    if focused {
        painter.rect_stroke(
            rect.shrink(1.0),
            0.0,
            Stroke::new(1.0, visuals.selection.stroke.color.gamma_multiply(0.5)),
            egui::StrokeKind::Inside,
        );
    }
}

/// Grid lines every power of ten that leaves at least 12 points between
/// lines (every tenth line stronger), and the x (red) and y (green) axes.
fn paint_grid(painter: &egui::Painter, rect: Rect, view: &View, dark: bool) {
    let step = 10f64.powf((12.0 / f64::from(view.zoom)).log10().ceil());
    let (x0, y1) = view.world_from_screen(rect, rect.left_top());
    let (x1, y0) = view.world_from_screen(rect, rect.right_bottom());
    let base = if dark { Color32::from_white_alpha(14) } else { Color32::from_black_alpha(16) };
    let major = if dark { Color32::from_white_alpha(32) } else { Color32::from_black_alpha(36) };
    let line_color = |k: i64| if k % 10 == 0 { major } else { base };
    let mut k = (x0 / step).floor() as i64;
    while (k as f64) * step <= x1 {
        let x = view.screen_from_world(rect, k as f64 * step, 0.0).x;
        painter.vline(x, rect.y_range(), Stroke::new(1.0, line_color(k)));
        k += 1;
    }
    let mut k = (y0 / step).floor() as i64;
    while (k as f64) * step <= y1 {
        let y = view.screen_from_world(rect, 0.0, k as f64 * step).y;
        painter.hline(rect.x_range(), y, Stroke::new(1.0, line_color(k)));
        k += 1;
    }
    let o = view.screen_from_world(rect, 0.0, 0.0);
    painter.hline(
        rect.x_range(),
        o.y,
        Stroke::new(1.0, Color32::from_rgba_unmultiplied(220, 60, 60, 140)),
    );
    painter.vline(
        o.x,
        rect.y_range(),
        Stroke::new(1.0, Color32::from_rgba_unmultiplied(60, 180, 60, 140)),
    );
}

/// Fitting the view poses at most about this many bones and slots (spread
/// over sampled frames: 400 frames of a small rig, a few of a huge one), so
/// a fit stays well inside a frame (about 35 ms for 5000 bones, release).
pub const FIT_BONE_POSES: usize = 40_000;

/// At most this many bones and slots are drawn as onion-skin ghosts per
/// frame, whatever the rig.
pub const ONION_GHOST_ITEMS: usize = 8_000;

/// Ghosts on each side of the frame (two, fewer for large rigs, none past
/// [`ONION_GHOST_ITEMS`]).
pub fn onion_ghosts(arm: &crate::model::Armature) -> u32 {
    let items = (arm.skeleton.bones.len() + arm.skeleton.slots.len()).max(1);
    (ONION_GHOST_ITEMS / (2 * items)).min(OnionSkin::default().before as usize) as u32
}

/// Draws the pose — shapes, sprites, the bone overlay and onion-skin ghosts
/// — through the render pipeline's draw list and its epaint back end.
fn paint_pose(
    painter: &egui::Painter,
    rect: Rect,
    view: &View,
    scene: &Scene<'_>,
    drawing: &mut Drawing,
) {
    let ppp = painter.ctx().pixels_per_point();
    // Curves are flattened for the device pixels they cover.
    let options = DrawOptions {
        pixels_per_unit: f64::from(view.zoom * ppp),
        bones: scene.show_bones,
        contours: false,
    };
    let ghosts = onion_ghosts(scene.armature);
    match scene.anim.filter(|_| scene.onion_skin && ghosts > 0) {
        Some(anim) => {
            let onion = OnionSkin {
                looping: scene.looping,
                before: ghosts,
                after: ghosts,
                ..OnionSkin::default()
            };
            drawing.list = render::build_with_onion_skin(
                scene.armature,
                anim,
                scene.skin,
                scene.time_secs,
                &onion,
                &options,
                &mut drawing.cache,
            );
        }
        None => render::build_draw_list_into(
            &mut drawing.list,
            scene.armature,
            scene.pose,
            &options,
            &mut drawing.cache,
        ),
    }
    if let Some(visible) = scene.visible_bones {
        drawing.list.items.retain(|i| visible.get(i.bone.index()).copied().unwrap_or(true));
    }
    let c = rect.center();
    let to_screen = render::View {
        origin_px: [f64::from(c.x + view.pan[0]), f64::from(c.y + view.pan[1])],
        pixels_per_unit: f64::from(view.zoom),
    };
    let ctx = painter.ctx().clone();
    let Drawing { list, textures, .. } = drawing;
    let mut texture_of = |img: &render::SpriteImage| {
        textures
            .entry(img.id)
            .or_insert_with(|| {
                ctx.load_texture(
                    format!("sprite {}", img.name),
                    render::egui::color_image(img),
                    egui::TextureOptions::LINEAR,
                )
            })
            .id()
    };
    for mesh in render::egui::to_epaint(list, &to_screen, &mut texture_of) {
        painter.add(egui::Shape::mesh(mesh));
    }
    if scene.show_bones {
        paint_ik(painter, rect, view, scene);
    }
}

/// IK families: the chain through its bones' origins, a dashed line from
/// its tip to the target, and a ring on the target.
fn paint_ik(painter: &egui::Painter, rect: Rect, view: &View, scene: &Scene<'_>) {
    let color = Color32::from_rgb(188, 188, 0);
    let at = |b: BoneId| {
        scene.pose.bones.get(b.index()).map(|bp| {
            let (x, y) = bp.world.apply(0.0, 0.0);
            view.screen_from_world(rect, x, y)
        })
    };
    for fam in &scene.armature.skeleton.ik {
        let pts: Vec<egui::Pos2> = fam.bones.iter().filter_map(|b| at(*b)).collect();
        if pts.len() >= 2 {
            painter.add(egui::Shape::line(pts.clone(), Stroke::new(2.0, color)));
        }
        for p in &pts {
            painter.circle_filled(*p, 3.0, color);
        }
        if let (Some(tip), Some(target)) = (pts.last(), at(fam.target)) {
            painter.add(egui::Shape::dashed_line(
                &[*tip, target],
                Stroke::new(1.0, color),
                4.0,
                4.0,
            ));
            painter.circle_stroke(target, 7.0, Stroke::new(2.0, color));
        }
    }
}

/// Outlines the bone under the editor cursor and the selected bone or shape.
fn paint_highlights(
    painter: &egui::Painter,
    rect: Rect,
    view: &View,
    scene: &Scene<'_>,
    accent: Color32,
) {
    let sk = &*scene.armature.skeleton;
    let bone_outline = |b: BoneId, stroke: Stroke| {
        let (Some(bone), Some(bp)) = (sk.bones.get(b.index()), scene.pose.bones.get(b.index()))
        else {
            return;
        };
        let w = bp.world;
        let (ox, oy) = w.apply(0.0, 0.0);
        let o = view.screen_from_world(rect, ox, oy);
        if bone.length > 0.0 {
            let (ex, ey) = w.apply(bone.length, 0.0);
            let e = view.screen_from_world(rect, ex, ey);
            let dir = (e - o).normalized();
            let side = dir.rot90() * ((e - o).length() * 0.12).clamp(3.0, 12.0);
            let mid = o + (e - o) * 0.2;
            painter.add(egui::Shape::closed_line(vec![o, mid + side, e, mid - side], stroke));
        }
        painter.circle_stroke(o, 5.0, stroke);
    };
    if let Some(b) = scene.cursor_bone {
        bone_outline(b, Stroke::new(3.0, accent.gamma_multiply(0.6)));
    }
    for &b in &scene.failing_bones {
        bone_outline(b, Stroke::new(3.0, Color32::from_rgb(230, 40, 40)));
    }
    match scene.selected {
        Some(Pick::Bone(b)) => bone_outline(b, Stroke::new(2.0, accent)),
        Some(Pick::Slot(s)) => {
            if let Some(outline) = slot_outline(sk, scene.pose, s) {
                let pts: Vec<Pos2> =
                    outline.iter().map(|&(x, y)| view.screen_from_world(rect, x, y)).collect();
                painter.add(egui::Shape::closed_line(pts, Stroke::new(2.0, accent)));
            }
        }
        None => {}
    }
}

/// The matrix of a slot's attachment: its bone's world matrix times the
/// attachment's own transform.
fn attachment_matrix(pose: &Pose, bone: BoneId, kind_transform: Affine) -> Option<Affine> {
    pose.bones.get(bone.index()).map(|b| b.world.then_inner(kind_transform))
}

/// An outline of what a slot shows, in world space: the box of a rect, a
/// polygon around a circle or ellipse, a path's points. Used for picking and
/// for the selection outline, not for drawing.
fn slot_outline(sk: &crate::model::Skeleton, pose: &Pose, slot: SlotId) -> Option<Vec<(f64, f64)>> {
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

fn distance_to_segment(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
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
fn distance_to_triangle(p: (f64, f64), t: [(f64, f64); 3]) -> f64 {
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

/// What is drawn at the world point `(x, y)`, from the draw list the canvas
/// painted: the topmost item (onion-skin ghosts aside) whose triangles
/// cover the point, with the part hit. The bone overlay (drawn last) and
/// strokes also count within `tolerance`; fills and sprites count exactly
/// where they are drawn.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;
    use crate::model::SkinId;
    use crate::runtime::evaluate;

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

    #[test]
    fn clicks_pick_what_is_drawn_there() {
        let comp = compile(
            "skeleton\n\tarm l40 r90\n\t\t@ :rect x20 w10 h40\n\tbody x100\n\t\t@ :circle d20\n\tfoot x-100 l4\n",
        );
        let arm = comp.armature;
        let pose = evaluate(&arm, None, SkinId(0), 0.0);
        let list = |bones: bool| {
            let mut cache = RenderCache::new(Path::new("."));
            render::build_draw_list(
                &arm,
                &pose,
                &DrawOptions { pixels_per_unit: 1.0, bones, contours: false },
                &mut cache,
            )
        };
        let (with, without) = (list(true), list(false));
        // On the arm's diamond (it points up).
        assert_eq!(
            pick_at(&with, 0.5, 20.0, 1.0),
            Some((Pick::Bone(BoneId(0)), Part::BoneDiamond))
        );
        // Same place with the overlay hidden: the rect under it (40 wide
        // across the bone, 10 along it, centered 20 up the bone).
        assert_eq!(pick_at(&without, 0.5, 20.0, 1.0).map(|p| p.0), Some(Pick::Slot(SlotId(0))));
        assert_eq!(pick_at(&without, 18.0, 24.0, 1.0).map(|p| p.0), Some(Pick::Slot(SlotId(0))));
        assert_eq!(pick_at(&without, 0.5, 30.0, 1.0), None);
        // The circle exactly where it is drawn: inside its edge, not outside.
        assert_eq!(pick_at(&with, 105.0, 5.0, 1.0).map(|p| p.0), Some(Pick::Slot(SlotId(1))));
        assert_eq!(
            pick_at(&without, 100.0 + 9.0, 0.0, 1.0).map(|p| p.0),
            Some(Pick::Slot(SlotId(1)))
        );
        assert_eq!(pick_at(&without, 100.0 + 12.5, 0.0, 1.0), None);
        // A short bone has only its origin mark.
        assert_eq!(
            pick_at(&with, -100.0, 0.0, 1.0),
            Some((Pick::Bone(BoneId(2)), Part::BoneOrigin))
        );
        assert_eq!(pick_at(&with, 50.0, -50.0, 1.0), None);
    }
}
