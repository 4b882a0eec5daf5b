//! The dopesheet (View ▸ Dopesheet): its rows come from the source map and
//! dragging a key rewrites only the frame tokens around it, as one undo
//! step. Driven through the real UI with egui_kittest.

use std::path::Path;

use eframe::egui::{Key, Modifiers, Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::write;
use skelpad::app::SkelpadApp;
use skelpad::compile::compile;

pub(crate) const RIG: &str = "skeleton\n\tarm l40\n\tleg l40\nanim \"swing\" 20fps\n\tarm\n\t\tr 0 --> 30 --> 0  # a comment\n\tleg\n\t\tr 0 +4:> 10 +3:> 20\n";

pub(crate) fn open(path: &Path, size: [f32; 2]) -> Harness<'static, SkelpadApp> {
    let mut h = crate::open_sized(path, size);
    h.state_mut().settings.view.show_dopesheet = true;
    h.run_steps(3);
    h
}

/// Where the diamond with this label is drawn.
pub(crate) fn key_at(h: &Harness<'_, SkelpadApp>, label: &str) -> Rect {
    h.get_by_label(label).rect()
}

/// Presses at `a`, moves in steps to `b`, releases.
pub(crate) fn drag(h: &mut Harness<'_, SkelpadApp>, a: Pos2, b: Pos2) {
    crate::pointer_drag(h, a, b, Modifiers::NONE, 8);
}

/// Every key's frame, per timeline, compiled from `text` (the check does
/// not use the dopesheet's code).
pub(crate) fn frames(text: &str) -> Vec<Vec<f64>> {
    let comp = compile(text);
    let src = &comp.sources;
    src.timelines.iter().map(|t| src.keys_of(t).iter().map(|k| k.frame).collect()).collect()
}

/// The pointer x of frame `f` on the row of the key at frame `at` whose
/// neighbour at frame `other` is drawn at `other_x`.
pub(crate) fn x_of_frame(at: (f64, f32), other: (f64, f32), f: f64) -> f32 {
    let per_frame = (other.1 - at.1) / (other.0 - at.0) as f32;
    at.1 + (f - at.0) as f32 * per_frame
}

#[test]
fn dragging_a_key_from_10_to_14_changes_only_its_advances_and_undo_restores() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "swing.skel2d", RIG);
    let mut h = open(&path, [1280.0, 800.0]);
    let k10 = key_at(&h, "Key arm Rotation 10").center();
    let k20 = key_at(&h, "Key arm Rotation 20").center();
    let to = Pos2::new(x_of_frame((10.0, k10.x), (20.0, k20.x), 14.0), k10.y);
    drag(&mut h, k10, to);
    let text = h.state().doc.text.clone();
    assert_eq!(
        text,
        RIG.replace("r 0 --> 30 --> 0", "r 0 14:> 30 20:> 0"),
        "only the two advances around the key changed"
    );
    assert_eq!(frames(&text), vec![vec![0.0, 14.0, 20.0], vec![0.0, 4.0, 7.0]]);
    // The dopesheet shows the key where it went.
    h.get_by_label("Key arm Rotation 14");
    // One drag is one undo step: Ctrl+Z restores the text exactly, and
    // the status bar says what was undone (and redone).
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG);
    let said = |h: &Harness<'_, SkelpadApp>| h.state().status.clone().unwrap().0;
    assert_eq!(said(&h), "Undone: Moved a key to frame 14");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, text);
    assert_eq!(said(&h), "Redone: Moved a key to frame 14");
    // Edit ▸ History lists it.
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.get_by_label("History…").click();
    h.run_steps(2);
    h.get_by_label("Moved a key to frame 14");
}

#[test]
fn relative_advances_change_by_the_move_and_refusals_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "swing.skel2d", RIG);
    let mut h = open(&path, [1280.0, 800.0]);
    let k4 = key_at(&h, "Key leg Rotation 4").center();
    let k7 = key_at(&h, "Key leg Rotation 7").center();
    let to = Pos2::new(x_of_frame((4.0, k4.x), (7.0, k7.x), 6.0), k4.y);
    drag(&mut h, k4, to);
    assert_eq!(h.state().doc.text, RIG.replace("+4:> 10 +3:>", "+6:> 10 +1:>"));
    // Onto the next key: refused, the text stays, the status says why.
    let k6 = key_at(&h, "Key leg Rotation 6").center();
    let before = h.state().doc.text.clone();
    let past = Pos2::new(x_of_frame((6.0, k6.x), (7.0, k7.x), 9.0), k6.y);
    drag(&mut h, k6, past);
    assert_eq!(h.state().doc.text, before, "refused: nothing changed");
    let (msg, is_error) = h.state().status.clone().unwrap();
    assert!(is_error && msg.contains("past the key after"), "{msg}");
}

/// A drag carried past the next key stops where the last allowed move
/// put it, and the status names that frame (not the one asked for last).
#[test]
fn a_drag_stopped_by_the_next_key_reports_where_the_key_landed() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "swing.skel2d", RIG);
    let mut h = open(&path, [1280.0, 800.0]);
    let k10 = key_at(&h, "Key arm Rotation 10").center();
    let k20 = key_at(&h, "Key arm Rotation 20").center();
    let past = Pos2::new(x_of_frame((10.0, k10.x), (20.0, k20.x), 26.0), k10.y);
    drag(&mut h, k10, past);
    let landed = frames(&h.state().doc.text)[0][1];
    assert!(landed > 10.0 && landed < 20.0, "moved, short of the next key: {landed}");
    let (msg, is_error) = h.state().status.clone().unwrap();
    assert!(!is_error && msg == format!("Moved a key to frame {landed}"), "{msg}");
}

#[test]
fn a_key_inside_a_loop_is_not_moved() {
    let dir = tempfile::tempdir().unwrap();
    let text = "skeleton\n\tarm l40\nanim \"a\" 20fps\n\tarm\n\t\tr 0 { -> 10 }[2]\n";
    let path = write(dir.path(), "loop.skel2d", text);
    let mut h = open(&path, [1280.0, 800.0]);
    let k5 = key_at(&h, "Key arm Rotation 5").center();
    let k10 = key_at(&h, "Key arm Rotation 10").center();
    drag(&mut h, k5, Pos2::new((k5.x + k10.x) / 2.0, k5.y));
    assert_eq!(h.state().doc.text, text);
    let (msg, is_error) = h.state().status.clone().unwrap();
    assert!(is_error && msg.contains("loop"), "{msg}");
}

/// With the dopesheet shown, every timeline control stays inside an
/// 800×600 window (the rows scroll in a bounded height).
#[test]
fn the_dopesheet_keeps_the_timeline_controls_on_screen_at_800_by_600() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/walk_cycle.skel2d");
    let h = open(&path, [800.0, 600.0]);
    let playing = if h.state().playback.playing { "Pause" } else { "Play" };
    let screen = Rect::from_min_size(Pos2::ZERO, [800.0, 600.0].into());
    h.get_by_label("Dopesheet item hip.thigh-l");
    for label in ["Animation", "|<", playing, ">|", "Loop", "Snap", "Fit", "Scrub bar"] {
        let nodes: Vec<_> = h.get_all_by_label(label).collect();
        assert!(!nodes.is_empty(), "no {label}");
        for n in nodes {
            let r = n.rect();
            assert!(screen.contains_rect(r), "{label} at {r:?} is off screen");
        }
    }
}

/// However narrow the window, the toolbar wraps by groups: the transport
/// buttons stay on one row together, as do Loop and the speed, and the
/// view toggles where a row can hold them.
#[test]
fn the_toolbar_wraps_by_groups_not_inside_them() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/walk_cycle.skel2d");
    for width in [640.0, 800.0, 900.0, 1000.0, 1100.0, 1280.0] {
        let mut h = open(&path, [width, 700.0]);
        h.state_mut().playback.playing = false;
        h.run_steps(3);
        let row = |labels: &[&str]| -> Vec<f32> {
            labels.iter().map(|l| h.get_by_label(l).rect().center().y).collect()
        };
        let transport = row(&["|<", "<", "Play", ">", ">|"]);
        assert!(transport.iter().all(|y| (y - transport[0]).abs() < 1.0), "{width}: {transport:?}");
        let speed = row(&["Loop", "Speed"]);
        assert!((speed[0] - speed[1]).abs() < 1.0, "{width}: {speed:?}");
        // The view toggles are one group where a row can hold them all;
        // in a narrower stage they wrap one by one, all on screen.
        let view = row(&["Bones", "Fit"]);
        if width >= 1100.0 {
            assert!((view[0] - view[1]).abs() < 1.0, "{width}: {view:?}");
        }
        let screen = Rect::from_min_size(Pos2::ZERO, [width, 700.0].into());
        assert!(screen.contains_rect(h.get_by_label("Fit").rect()), "{width}");
    }
}

/// In the walk cycle (more rows than fit: the rows scroll, and a drag on a
/// key must move the key, not scroll), thigh-l's key at frame 10 dragged to
/// 14 rewrites only the two advances around it.
#[test]
fn a_key_of_the_walk_cycle_moves_inside_the_scrolling_rows() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/walk_cycle.skel2d"),
    )
    .unwrap();
    let path = write(dir.path(), "walk.skel2d", &text);
    let mut h = open(&path, [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    h.run_steps(2);
    let k10 = key_at(&h, "Key hip.thigh-l Rotation 10").center();
    let k20 = key_at(&h, "Key hip.thigh-l Rotation 20").center();
    let to = Pos2::new(x_of_frame((10.0, k10.x), (20.0, k20.x), 14.0), k10.y);
    drag(&mut h, k10, to);
    let moved = h.state().doc.text.clone();
    assert_eq!(moved, text.replace("\t\tr 25 --> -25 --> 25", "\t\tr 25 14:> -25 20:> 25"));
    // The row shows the key at its new frame.
    key_at(&h, "Key hip.thigh-l Rotation 14");
}

/// Click selects a key, Shift-click adds one on another item, Delete
/// removes both (the next keys stay where they were), Ctrl+Z brings them
/// back exactly.
#[test]
fn selected_keys_are_deleted_and_undo_brings_them_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "swing.skel2d", RIG);
    let mut h = open(&path, [1280.0, 800.0]);
    h.get_by_label("Key arm Rotation 10").click();
    h.run_steps(1);
    h.get_by_label("Key leg Rotation 4").click_modifiers(Modifiers::SHIFT);
    h.run_steps(1);
    assert_eq!(h.state().dopesheet.selected.len(), 2);
    h.key_press(Key::Delete);
    h.run_steps(2);
    let text = h.state().doc.text.clone();
    assert_eq!(
        text,
        RIG.replace("r 0 --> 30 --> 0", "r 0 20:> 0").replace("r 0 +4:> 10 +3:> 20", "r 0 +7:> 20")
    );
    assert_eq!(frames(&text), vec![vec![0.0, 20.0], vec![0.0, 7.0]]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG);
}

/// Dragging one of several selected keys moves them all by the same whole
/// number of frames.
#[test]
fn selected_keys_move_together() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "swing.skel2d", RIG);
    let mut h = open(&path, [1280.0, 800.0]);
    h.get_by_label("Key arm Rotation 10").click();
    h.run_steps(1);
    h.get_by_label("Key leg Rotation 4").click_modifiers(Modifiers::SHIFT);
    h.run_steps(1);
    let k10 = key_at(&h, "Key arm Rotation 10").center();
    let k20 = key_at(&h, "Key arm Rotation 20").center();
    let to = Pos2::new(x_of_frame((10.0, k10.x), (20.0, k20.x), 12.0), k10.y);
    drag(&mut h, k10, to);
    let text = h.state().doc.text.clone();
    assert_eq!(frames(&text), vec![vec![0.0, 12.0, 20.0], vec![0.0, 6.0, 7.0]]);
    assert_eq!(
        text,
        RIG.replace("r 0 --> 30 --> 0", "r 0 12:> 30 20:> 0")
            .replace("+4:> 10 +3:>", "+6:> 10 +1:>")
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG, "one drag, one undo step");
}

/// A long animation: only the rows in view are drawn (300 items, a few
/// dozen keys in the tree), and the timeline stays usable.
#[test]
fn only_the_rows_in_view_are_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("skeleton\n");
    for i in 0..300 {
        text.push_str(&format!("\tb{i} l10\n"));
    }
    text.push_str("anim \"a\" 20fps\n");
    for i in 0..300 {
        text.push_str(&format!("\tb{i}\n\t\tr 0 -> 10\n"));
    }
    let path = write(dir.path(), "many.skel2d", &text);
    let h = open(&path, [1280.0, 800.0]);
    h.get_by_label("Key b0 Rotation 0");
    let keys = h.query_all_by_label_contains("Key b").count();
    assert!(keys > 0 && keys < 60, "{keys} keys in the tree");
    assert!(h.query_by_label("Key b299 Rotation 0").is_none());
}

/// Ctrl+C copies the selected keys, Ctrl+V pastes them at the playhead
/// (the keys after them stay where they were); one undo step.
#[test]
fn copied_keys_are_pasted_at_the_playhead() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "swing.skel2d", RIG);
    let mut h = open(&path, [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    h.get_by_label("Key arm Rotation 10").click();
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run_steps(1);
    assert_eq!(h.state().dopesheet.clipboard.len(), 1);
    h.state_mut().playback.time_secs = 16.0 / 20.0;
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run_steps(2);
    let text = h.state().doc.text.clone();
    assert_eq!(text, RIG.replace("r 0 --> 30 --> 0", "r 0 --> 30 16:> 30 20:> 0"));
    assert_eq!(frames(&text), vec![vec![0.0, 10.0, 16.0, 20.0], vec![0.0, 4.0, 7.0]]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG);
}
