//! Drag on the canvas, the text follows: driven through the real UI with
//! egui_kittest (pointer events in screen space, the app's own canvas).

#![cfg(feature = "app")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::Path;

use eframe::egui::{Event, Key, Modifiers, Pos2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::write;
use skelpad::app::SkelpadApp;
use skelpad::compile::compile;

fn open(path: &Path) -> Harness<'static, SkelpadApp> {
    crate::open_sized(path, [1280.0, 800.0])
}

fn screen(h: &Harness<'_, SkelpadApp>, x: f64, y: f64) -> Pos2 {
    let app = h.state();
    app.view.screen_from_world(app.canvas.rect, x, y)
}

/// Presses at world point `from`, moves in steps to `to`, releases.
fn drag(h: &mut Harness<'_, SkelpadApp>, from: (f64, f64), to: (f64, f64), modifiers: Modifiers) {
    let (a, b) = (screen(h, from.0, from.1), screen(h, to.0, to.1));
    crate::pointer_drag(h, a, b, modifiers, 8);
}

/// The one byte range of `old` that differs from `new`, and what replaced it.
fn difference<'a>(old: &'a str, new: &'a str) -> (&'a str, &'a str) {
    let pre = old.bytes().zip(new.bytes()).take_while(|(a, b)| a == b).count();
    let suf =
        old[pre..].bytes().rev().zip(new[pre..].bytes().rev()).take_while(|(a, b)| a == b).count();
    (&old[pre..old.len() - suf], &new[pre..new.len() - suf])
}

fn setup_of(text: &str, bone: &str) -> skelpad::model::BoneTransform {
    let comp = compile(text);
    let sk = &comp.armature.skeleton;
    sk.bone(sk.bone_by_name(bone).unwrap()).setup
}

const RIG: &str =
    "skeleton # a rig\n\tarm x5 l40 # the arm\n\t\t@ :rect x20 w40 h6\n\tleg x-60 l30\n";

#[test]
fn dragging_a_bone_origin_writes_only_its_x_token() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&write(dir.path(), "rig.skel2d", RIG));
    let zoom = f64::from(h.state().view.zoom);
    // 70 screen points to the right of the origin mark of `arm` (at x 5).
    drag(&mut h, (5.0, 0.0), (5.0 + 70.0 / zoom, 0.0), Modifiers::NONE);
    let text = h.state().doc.text.clone();
    // Only the number of `x5` changed.
    let now = text.split("\tarm x").nth(1).and_then(|r| r.split(' ').next()).unwrap();
    assert_eq!(text, RIG.replace("\tarm x5 l40", &format!("\tarm x{now} l40")));
    let written: f64 = now.parse().unwrap();
    let setup = setup_of(&text, "arm");
    assert!((setup.x - (5.0 + 70.0 / zoom)).abs() < 0.01, "{} vs {}", setup.x, 5.0 + 70.0 / zoom);
    assert!((setup.x - written).abs() < 1e-9 && setup.y == 0.0);
    // Two decimals at most.
    assert!(now.split('.').nth(1).is_none_or(|d| d.len() <= 2), "{now}");
    // The canvas shows it: the compilation and the pose follow.
    let shown = &h.state().doc.analysis.shown.skeleton;
    assert!((shown.bone(shown.bone_by_name("arm").unwrap()).setup.x - written).abs() < 1e-9);
    assert!(!h.state().playback.playing);
}

#[test]
fn dragging_the_tip_rotates_and_shift_scales_along_the_bone() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&write(dir.path(), "rig.skel2d", RIG));
    // From the diamond, halfway along the arm, round to 30° above it.
    let a = 30f64.to_radians();
    drag(&mut h, (25.0, 0.0), (5.0 + 30.0 * a.cos(), 30.0 * a.sin()), Modifiers::NONE);
    let text = h.state().doc.text.clone();
    assert_eq!(text, RIG.replace("l40 # the arm", "l40 r30 # the arm"));
    assert!((setup_of(&text, "arm").rotation_rad - a).abs() < 0.01f64.to_radians());

    // Shift: scale along the bone, 20 → 30 units from its origin.
    let before = text;
    drag(
        &mut h,
        (5.0 + 20.0 * a.cos(), 20.0 * a.sin()),
        (5.0 + 30.0 * a.cos(), 30.0 * a.sin()),
        Modifiers::SHIFT,
    );
    let text = h.state().doc.text.clone();
    assert_eq!(text, before.replace("r30 # the arm", "r30 i1.5 # the arm"));
    assert!((setup_of(&text, "arm").scale_x - 1.5).abs() < 0.01);
}

#[test]
fn a_crlf_file_stays_crlf_and_undo_restores_the_exact_text() {
    let dir = tempfile::tempdir().unwrap();
    let crlf = RIG.replace('\n', "\r\n");
    let path = write(dir.path(), "rig.skel2d", &crlf);
    let mut h = open(&path);
    let zoom = f64::from(h.state().view.zoom);
    drag(&mut h, (-60.0, 0.0), (-60.0, 40.0 / zoom), Modifiers::NONE);
    let text = h.state().doc.text.clone();
    assert_ne!(text, RIG);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let saved = std::fs::read_to_string(&path).unwrap();
    assert_eq!(saved, text.replace('\n', "\r\n"));
    assert_eq!(saved.matches("\r\n").count(), saved.matches('\n').count());
    let (was, now) = difference(&crlf, &saved);
    assert_eq!(was, "", "only a token is inserted: {saved:?}");
    assert!(saved.contains(&format!("\tleg x-60 l30{now}\r\n")), "{saved:?}");
    assert!(
        now.starts_with(" y") && (now[2..].parse::<f64>().unwrap() - 40.0 / zoom).abs() < 0.01,
        "{now}"
    );
    // Undo (Ctrl+Z in the editor) restores the text before the drag.
    h.get_by_label("Script").click();
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG);
}

#[test]
fn dragging_in_an_animation_edits_the_key_under_the_playhead() {
    let dir = tempfile::tempdir().unwrap();
    let text = "skeleton\n\tarm l40\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 45 -> 0\n";
    let mut h = open(&write(dir.path(), "anim.skel2d", text));
    // Playhead on frame 5, the key of 45°.
    h.state_mut().playback.playing = false;
    h.state_mut().playback.time_secs = 0.5;
    h.run_steps(2);
    let tip = |deg: f64, r: f64| (r * deg.to_radians().cos(), r * deg.to_radians().sin());
    drag(&mut h, tip(45.0, 20.0), tip(60.0, 20.0), Modifiers::NONE);
    let now = h.state().doc.text.clone();
    assert_eq!(difference(text, &now), ("45", "60"), "{now}");
    let comp = compile(&now);
    let keys: Vec<f64> =
        comp.armature.animations[0].bones[0].keys.iter().map(|k| k.value.to_degrees()).collect();
    assert!((keys[1] - 60.0).abs() < 0.01, "{keys:?}");
    // A playhead between keys placed by arrows changes nothing and says why.
    h.state_mut().playback.time_secs = 0.2;
    h.run_steps(2);
    // (At frame 2 the arm is 18° round, a fifth of the way to 45°.)
    drag(&mut h, tip(18.0, 20.0), tip(30.0, 20.0), Modifiers::NONE);
    assert_eq!(h.state().doc.text, now);
    let status = h.state().status.clone().unwrap();
    assert!(status.1 && status.0.contains("write `2:>"), "{status:?}");

    // With auto-key on, the same drag first keys the arm at frame 2 (with
    // the 24° it has there now, two fifths of the way to 60°) and then
    // turns that key by the pointer's 12°: one key more, the other keys as
    // they were, one undo step back to the text before.
    h.state_mut().settings.view.auto_key = true;
    h.run_steps(1);
    drag(&mut h, tip(18.0, 20.0), tip(30.0, 20.0), Modifiers::NONE);
    let keyed = h.state().doc.text.clone();
    let comp = compile(&keyed);
    let keys: Vec<(f64, f64)> = comp.armature.animations[0].bones[0]
        .keys
        .iter()
        .map(|k| ((k.time_secs * 10.0).round(), (k.value.to_degrees() * 1e6).round() / 1e6))
        .collect();
    assert_eq!(keys.len(), 4, "{keyed}");
    assert_eq!((keys[0], keys[2], keys[3]), ((0.0, 0.0), (5.0, 60.0), (10.0, 0.0)), "{keyed}");
    assert_eq!(keys[1].0, 2.0, "{keyed}");
    assert!((keys[1].1 - 36.0).abs() < 1.0, "turned to about 36°: {keys:?}");
    let status = h.state().status.clone().unwrap();
    assert!(!status.1 && status.0.contains("a key inserted"), "{status:?}");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, now, "one undo step");
}

#[test]
fn shapes_mode_moves_the_shape_on_its_slot_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&write(dir.path(), "rig.skel2d", RIG));
    h.state_mut().settings.view.drag_shapes = true;
    h.state_mut().settings.view.show_bones = false;
    h.run_steps(2);
    let zoom = f64::from(h.state().view.zoom);
    drag(&mut h, (25.0, 2.0), (25.0 + 50.0 / zoom, 2.0), Modifiers::ALT);
    let text = h.state().doc.text.clone();
    // Alt snaps to whole units.
    assert_eq!(
        text,
        RIG.replace("@ :rect x20", &format!("@ :rect x{}", 20.0 + (50.0 / zoom).round()))
    );
}

#[test]
fn the_setup_pose_of_an_animated_script_edits_the_skeleton() {
    let dir = tempfile::tempdir().unwrap();
    let text = "skeleton\n\tarm l40\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 45 -> 0\n";
    let mut h = open(&write(dir.path(), "anim.skel2d", text));
    h.state_mut().playback.setup_pose = true;
    h.run_steps(2);
    let zoom = f64::from(h.state().view.zoom);
    drag(&mut h, (0.0, 0.0), (0.0, -30.0 / zoom), Modifiers::NONE);
    let now = h.state().doc.text.clone();
    let y = now.split("\tarm l40 y").nth(1).and_then(|r| r.split('\n').next()).unwrap();
    assert_eq!(now, text.replace("\tarm l40\n", &format!("\tarm l40 y{y}\n")));
    assert!((y.parse::<f64>().unwrap() + 30.0 / zoom).abs() < 0.01, "{y} {}", 30.0 / zoom);
}

/// Ctrl+Z right after a drag (the canvas has keyboard focus) undoes the
/// drag, restoring the file exactly; Ctrl+Shift+Z and Ctrl+Y redo it; and
/// Ctrl+S saves from there.
#[test]
fn undo_and_redo_work_right_after_a_drag_with_the_canvas_focused() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = open(&path);
    let zoom = f64::from(h.state().view.zoom);
    drag(&mut h, (5.0, 0.0), (5.0 + 70.0 / zoom, 0.0), Modifiers::NONE);
    let dragged = h.state().doc.text.clone();
    assert_ne!(dragged, RIG);
    assert!(h.ctx.memory(|m| m.has_focus(skelpad::app::canvas::canvas_id())), "canvas focused");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, RIG, "Ctrl+Z restores the text before the drag");
    assert_eq!(setup_of(&h.state().doc.text, "arm").x, 5.0);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, dragged, "Ctrl+Shift+Z redoes");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, RIG);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Y);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, dragged, "Ctrl+Y redoes");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), RIG, "saved exactly as before the drag");
    assert!(!h.state().doc.is_dirty());
}

/// Space, arrows and F act on the canvas under the pointer without a click
/// first; while the editor has focus they are typed, wherever the pointer is.
#[test]
fn canvas_keys_work_under_the_pointer_but_never_steal_typing() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{RIG}anim \"a\" 10fps\n\tarm\n\t\tr 0 -> 90 -> 0\n");
    let mut h = open(&write(dir.path(), "rig.skel2d", &text));
    h.ctx.memory_mut(|m| {
        if let Some(id) = m.focused() {
            m.surrender_focus(id);
        }
    });
    let over = h.state().canvas.rect.center();
    h.event(Event::PointerMoved(over));
    h.run_steps(1);
    assert!(h.ctx.memory(|m| m.focused()).is_none());
    h.state_mut().playback.playing = false;
    h.state_mut().playback.time_secs = 0.0;
    h.key_press(Key::ArrowRight);
    h.run_steps(1);
    h.key_press(Key::ArrowRight);
    h.run_steps(1);
    assert!((h.state().playback.time_secs - 0.2).abs() < 1e-9, "{}", h.state().playback.time_secs);
    h.key_press(Key::Space);
    h.run_steps(1);
    assert!(h.state().playback.playing, "Space plays");
    h.key_press(Key::Space);
    h.run_steps(1);
    assert!(!h.state().playback.playing, "Space pauses");
    let zoom = h.state().view.zoom;
    h.state_mut().view.zoom = zoom * 3.0;
    h.key_press(Key::F);
    h.run_steps(2);
    assert!((h.state().view.zoom - zoom).abs() < zoom * 0.01, "F fits again");

    // The editor has focus, the pointer rests on the canvas: keys type.
    h.ctx.memory_mut(|m| m.request_focus(skelpad::app::editor::editor_id()));
    h.run_steps(1);
    h.state_mut().editor.select(0..0);
    h.run_steps(1);
    h.event(Event::PointerMoved(over));
    let time = h.state().playback.time_secs;
    h.event(Event::Text("f".into()));
    h.key_press(Key::F);
    h.event(Event::Text(" ".into()));
    h.key_press(Key::Space);
    h.run_steps(2);
    assert!(h.state().doc.text.starts_with("f "), "{:?}", &h.state().doc.text[..12]);
    assert!(!h.state().playback.playing);
    assert_eq!(h.state().playback.time_secs, time);
}

/// A drag that lengthens a line above the caret keeps the caret on its
/// token (the same character of `leg`), not on its old byte offset.
#[test]
fn the_caret_stays_on_its_token_when_a_drag_writes_above_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open(&write(dir.path(), "rig.skel2d", RIG));
    let at = RIG.find("leg x-60").unwrap() + 1; // between `l` and `eg`
    h.ctx.memory_mut(|m| m.request_focus(skelpad::app::editor::editor_id()));
    h.run_steps(1);
    h.state_mut().editor.select(at..at);
    h.run_steps(2);
    assert_eq!(h.state().editor.cursor, Some(at));
    let zoom = f64::from(h.state().view.zoom);
    drag(&mut h, (5.0, 0.0), (5.0 + 73.0 / zoom, 0.0), Modifiers::NONE);
    let text = h.state().doc.text.clone();
    assert!(text.len() > RIG.len(), "the drag wrote a longer number: {text}");
    let want = text.find("leg x-60").unwrap() + 1;
    assert_eq!(h.state().editor.cursor, Some(want));
    // Typing goes there too.
    h.ctx.memory_mut(|m| m.request_focus(skelpad::app::editor::editor_id()));
    h.run_steps(1);
    h.event(Event::Text("Z".into()));
    h.run_steps(2);
    assert!(h.state().doc.text.contains("\tlZeg x-60"), "{}", h.state().doc.text);
}
