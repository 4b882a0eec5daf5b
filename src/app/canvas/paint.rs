//! Painting the canvas: background, grid and axes, the pose through the
//! render pipeline (with onion-skin ghosts), IK chains, and the outlines of
//! the bone under the cursor, of failing bones and of the selection.

use eframe::egui::{self, Color32, Pos2, Rect, Stroke, Vec2};

use super::kept::{Ghosts, ListWant};
use super::pick::slot_outline;
use super::{Drawing, Pick, Scene, View};
use crate::model::BoneId;
use crate::render::{self, DrawOptions, OnionSkin};

/// Paints the background, grid, pose, highlights, notes and focus frame.
pub(super) fn paint_canvas(
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
/// — through the render pipeline's draw list and its epaint back end (both
/// kept while what they are made of does not change: see `kept`).
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
    let onion = scene.anim.filter(|_| scene.onion_skin && ghosts > 0).and_then(|anim| {
        Some(Ghosts {
            anim,
            animation: scene.armature.animations.get(anim.index())?.clone(),
            skin: scene.skin,
            time_secs: scene.time_secs,
            onion: OnionSkin {
                looping: scene.looping,
                before: ghosts,
                after: ghosts,
                ..OnionSkin::default()
            },
        })
    });
    let want = ListWant { options, onion, visible: scene.visible_bones };
    let Drawing { list, textures, cache, kept, .. } = drawing;
    kept.update_list(list, scene.armature, scene.pose, &want, cache);
    let c = rect.center();
    let to_screen = render::View {
        origin_px: [f64::from(c.x + view.pan[0]), f64::from(c.y + view.pan[1])],
        pixels_per_unit: f64::from(view.zoom),
    };
    let ctx = painter.ctx().clone();
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
    // The pose's meshes get a primitive of their own (see `separator`).
    painter.add(separator());
    for mesh in kept.meshes(list, &to_screen, &mut texture_of) {
        painter.add(egui::Shape::Mesh(mesh.clone()));
    }
    painter.add(separator());
    if scene.show_bones {
        paint_ik(painter, rect, view, scene);
    }
}

/// An empty mesh on a texture nothing uses. egui's tessellator puts the
/// shapes that follow one another on one texture into one mesh, growing it
/// shape by shape: the pose's meshes (megabytes for a large rig) would be
/// copied into whatever came before them, and copied again each time a
/// later outline or note grew that mesh. This shape, put before and after
/// them, starts a new mesh there; it draws nothing and its own (empty)
/// mesh is dropped by the tessellator, so the triangles drawn and their
/// order stay the same.
fn separator() -> egui::Shape {
    egui::Shape::Mesh(std::sync::Arc::new(egui::Mesh::with_texture(egui::TextureId::User(
        u64::MAX,
    ))))
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
