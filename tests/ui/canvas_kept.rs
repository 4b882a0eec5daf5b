//! The canvas keeps the pose's draw list and meshes between frames: after
//! every change that moves what is drawn (a playhead step, an edit to the
//! script, zoom, pan, the overlay, hidden bones) it shows the new state —
//! the meshes it draws are the ones made fresh from the app's pose — and
//! while nothing changes it makes nothing again.

use eframe::egui::{Mesh, TextureId};
use egui_kittest::Harness;
use skelpad::app::SkelpadApp;
use skelpad::render::{self, DrawOptions, RenderCache};

use crate::{open_sized, write};

/// The meshes of the app's pose made from nothing, as the canvas would
/// draw them this frame.
fn fresh_meshes(app: &SkelpadApp, ppp: f32) -> Vec<Mesh> {
    let options = DrawOptions {
        pixels_per_unit: f64::from(app.view.zoom * ppp),
        bones: app.settings.view.show_bones,
        contours: false,
    };
    let arm = &app.doc.analysis.shown;
    let mut list = render::build_draw_list(arm, &app.pose, &options, &mut RenderCache::new("."));
    if let Some(visible) = app.outline.visibility(&arm.skeleton) {
        list.items.retain(|i| visible.get(i.bone.index()).copied().unwrap_or(true));
    }
    let c = app.canvas.rect.center();
    let view = render::View {
        origin_px: [f64::from(c.x + app.view.pan[0]), f64::from(c.y + app.view.pan[1])],
        pixels_per_unit: f64::from(app.view.zoom),
    };
    render::egui::to_epaint(&list, &view, &mut |_| TextureId::default())
}

/// Checks the canvas drew what a fresh build gives, and whether the list
/// and the meshes were made again since `before`; returns the counts.
fn check(
    h: &Harness<'_, SkelpadApp>,
    before: (u64, u64),
    list_again: bool,
    meshes_again: bool,
    what: &str,
) -> (u64, u64) {
    let app = h.state();
    let now = app.drawing.builds();
    assert_eq!(now.0 > before.0, list_again, "{what}: list built again ({before:?} → {now:?})");
    assert_eq!(now.1 > before.1, meshes_again, "{what}: meshes made again");
    let kept: Vec<Mesh> = app.drawing.meshes().iter().map(|m| (**m).clone()).collect();
    let fresh = fresh_meshes(app, h.ctx.pixels_per_point());
    assert!(!fresh.is_empty(), "{what}: something is drawn");
    assert!(kept == fresh, "{what}: the canvas drew other meshes than a fresh build of the pose");
    now
}

#[test]
fn the_kept_canvas_shows_every_change_and_makes_nothing_while_nothing_changes() {
    let text = "skeleton\n\tarm l40 r10\n\t\t@ :rect x20 w40 h10 f#C44\n\tarm.hand l10\n\t\t@ :circle d8\n\tleg l30 r-60\n\t\t@ :rect x15 w30 h8\n\nanim \"wave\" 24fps 0:1:li\n\tarm\n\t\tr 0 -> 40\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "k.skel2d", text);
    let mut h = open_sized(&path, [1000.0, 700.0]);
    h.state_mut().playback.playing = false;
    h.run_steps(2);
    let b = h.state().drawing.builds();
    h.run_steps(3);
    let b = check(&h, b, false, false, "nothing changed");
    // The playhead moves: another pose.
    h.state_mut().playback.time_secs = 0.5;
    h.run_steps(1);
    let b = check(&h, b, true, true, "playhead");
    // An edit to the rig: the leg is longer.
    {
        let app = h.state_mut();
        app.doc.text = app.doc.text.replace("leg l30", "leg l55");
        app.doc.sync();
    }
    h.run_steps(2);
    assert!(h.state().doc.analysis.shown.skeleton.bones.iter().any(|b| b.length == 55.0));
    let b = check(&h, b, true, true, "edit");
    // Zoom: curves are flattened for it, so the list is built again.
    h.state_mut().view.zoom *= 1.5;
    h.run_steps(1);
    let b = check(&h, b, true, true, "zoom");
    // Pan: only the meshes move.
    h.state_mut().view.pan[0] += 37.0;
    h.run_steps(1);
    let b = check(&h, b, false, true, "pan");
    // The overlay off, then a bone hidden in the outline.
    h.state_mut().settings.view.show_bones = false;
    h.run_steps(1);
    let b = check(&h, b, true, true, "overlay");
    h.state_mut().outline.hidden.insert("leg".into());
    h.run_steps(1);
    let b = check(&h, b, true, true, "hidden");
    // A selection is outlined over the pose, which is not made again.
    h.state_mut().outline.hidden.clear();
    h.run_steps(1);
    let b = check(&h, b, true, true, "shown again");
    h.state_mut().selected = Some(skelpad::app::Selected::Bone("arm".into()));
    h.run_steps(2);
    check(&h, b, false, false, "selection");
}
