//! The curve editor through the real UI: a key selected in the dopesheet
//! shows its segment; dragging a handle rewrites only the easing's numbers
//! (one undo step), a linear segment becomes a bezier, and the picker
//! writes a preset's name; what the text cannot say is refused with a
//! reason. The value graph beside shows the keys where they are and an
//! overshoot's height. Each result is compiled anew and its curves read
//! from the model; the overshoot is computed from the bezier's formula.

use eframe::egui::{Key, Modifiers, Pos2, Rect, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

use crate::dopesheet_ui::{RIG, drag, key_at, open};
use crate::write;
use skelpad::app::SkelpadApp;
use skelpad::compile::compile;
use skelpad::model::{Curve, Easing};

/// The editor on `text`, the arm's key at frame 0 selected.
fn selected(dir: &tempfile::TempDir, text: &str) -> Harness<'static, SkelpadApp> {
    selected_in(dir, text, [1280.0, 800.0])
}

/// `selected` in a window of `size`.
fn selected_in(
    dir: &tempfile::TempDir,
    text: &str,
    size: [f32; 2],
) -> Harness<'static, SkelpadApp> {
    let path = write(dir.path(), "swing.skel2d", text);
    let mut h = open(&path, size);
    h.state_mut().playback.playing = false;
    h.run_steps(2);
    let pos = key_at(&h, "Key arm Rotation 0").center();
    crate::dopesheet_keys_ui::click_at(&mut h, pos);
    h.run_steps(1);
    assert_eq!(h.state().dopesheet.selected, vec![(0, 0)]);
    h
}

/// Every key of the arm's rotation, compiled anew: (time, value, curve).
fn arm_keys(text: &str) -> Vec<(f64, f64, Curve)> {
    let comp = compile(text);
    comp.armature.animations[0].bones[0]
        .keys
        .iter()
        .map(|k| (k.time_secs, k.value, k.curve))
        .collect()
}

fn undo(h: &mut Harness<'_, SkelpadApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
}

#[test]
fn dragging_a_handle_rewrites_only_its_numbers_and_one_undo_restores() {
    let dir = tempfile::tempdir().unwrap();
    let text = RIG.replace("r 0 --> 30 --> 0", "r 0 ::bz(0.3,0,0.7,1)--> 30 ::li--> 0");
    let mut h = selected(&dir, &text);
    let handle = h.get_by_label("Curve handle 1").rect().center();
    // Up and to the right: more progress early on.
    drag(&mut h, handle, handle + Vec2::new(20.0, -30.0));
    let out = h.state().doc.text.clone();
    let (before, rest) = text.split_once("bz(0.3,0,").unwrap();
    assert!(out.starts_with(&format!("{before}bz(")), "{out}");
    assert!(out.ends_with(&format!(
        ",0.7,1)--> 30 ::li--> 0  # a comment\n\tleg{}",
        rest.split_once("\tleg").unwrap().1
    )));
    let (old, new) = (arm_keys(&text), arm_keys(&out));
    assert_eq!(
        old.iter().map(|k| (k.0, k.1)).collect::<Vec<_>>(),
        new.iter().map(|k| (k.0, k.1)).collect::<Vec<_>>()
    );
    let Curve::Eased(Easing::Bezier(b)) = new[0].2 else { panic!("{:?}", new[0].2) };
    assert!(b.x1 > 0.3 && b.y1 > 0.0 && (b.x2, b.y2) == (0.7, 1.0), "{b:?}");
    assert_eq!(new[1].2, old[1].2, "the next segment keeps its easing");
    undo(&mut h);
    assert_eq!(h.state().doc.text, text);
    let said = h.state().status.clone().unwrap().0;
    assert!(said.starts_with("Undone: Eased a segment by its handles: bz("), "{said}");
}

#[test]
fn a_linear_segment_becomes_a_bezier_from_its_own_handles() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = selected(&dir, RIG);
    let handle = h.get_by_label("Curve handle 2").rect().center();
    drag(&mut h, handle, handle + Vec2::new(0.0, 25.0));
    let out = h.state().doc.text.clone();
    // Linear is bz(0.333,0.333,0.667,0.667): the second handle went down.
    let (before, tail) = out.split_once("bz(0.333,0.333,0.667,").unwrap();
    let (y2, rest) = tail.split_once(")--> 30 ::li--> 0  # a comment\n").unwrap();
    assert!(y2.parse::<f64>().unwrap() < 0.6, "{out}");
    assert_eq!(before, RIG.split_once("-->").unwrap().0.to_owned() + "::");
    assert_eq!(rest, RIG.split_once("# a comment\n").unwrap().1);
    let keys = arm_keys(&out);
    let Curve::Eased(Easing::Bezier(b)) = keys[0].2 else { panic!("{:?}", keys[0].2) };
    assert_eq!((b.x1, b.y1, b.x2), (0.333, 0.333, 0.667));
    assert_eq!(keys[1].2, Curve::LINEAR);
    undo(&mut h);
    assert_eq!(h.state().doc.text, RIG);
}

#[test]
fn the_picker_writes_a_presets_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = selected(&dir, RIG);
    h.get_by_label("Easing").click();
    h.run_steps(2);
    h.get_by_label("ease-out").click();
    h.run_steps(2);
    let out = h.state().doc.text.clone();
    assert_eq!(out, RIG.replace("r 0 --> 30 --> 0", "r 0 ::ease-out--> 30 ::li--> 0"));
    let keys = arm_keys(&out);
    assert_eq!(keys[0].2, Curve::bezier(0.0, 0.0, 0.58, 1.0));
    assert_eq!(keys[1].2, Curve::LINEAR);
    undo(&mut h);
    assert_eq!(h.state().doc.text, RIG);
}

#[test]
fn a_refusal_goes_to_the_status_bar_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let text = RIG.replace("r 0 --> 30 --> 0", "r 0 { --> 30 --> 0 }");
    let mut h = selected(&dir, &text);
    h.get_by_label("Easing").click();
    h.run_steps(2);
    h.get_by_label("so").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.text, text);
    let (msg, error) = h.state().status.clone().unwrap();
    assert!(error && msg.contains("loop"), "{msg}");
}

#[test]
fn a_handle_drag_on_a_loop_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let text = RIG.replace("r 0 --> 30 --> 0", "r 0 { --> 30 --> 0 }");
    let mut h = selected(&dir, &text);
    let handle = h.get_by_label("Curve handle 1").rect().center();
    drag(&mut h, handle, handle + Vec2::new(20.0, -30.0));
    assert_eq!(h.state().doc.text, text);
    let (msg, error) = h.state().status.clone().unwrap();
    assert!(error && msg.starts_with("Easing not changed") && msg.contains("loop"), "{msg}");
    // Nothing was recorded: undo has nothing of the curve editor's.
    undo(&mut h);
    assert_eq!(h.state().doc.text, text);
}

/// The highest point of a cubic bezier timing curve with handles
/// (x1, y1), (x2, y2), by its parametric formula (the x solver plays no
/// part: the curve's highest point is its highest y over the parameter).
fn bezier_max_y(y1: f64, y2: f64) -> f64 {
    (0..=100_000)
        .map(|i| {
            let s = f64::from(i) / 100_000.0;
            3.0 * (1.0 - s) * (1.0 - s) * s * y1 + 3.0 * (1.0 - s) * s * s * y2 + s * s * s
        })
        .fold(f64::MIN, f64::max)
}

/// The two numbers of "… : LO to HI".
fn range_of(label: &str) -> (f64, f64) {
    let (_, r) = label.rsplit_once(": ").unwrap();
    let (lo, hi) = r.split_once(" to ").unwrap();
    (lo.parse().unwrap(), hi.parse().unwrap())
}

#[test]
fn the_value_graph_puts_a_point_at_every_key_and_shows_an_overshoot() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = selected(&dir, RIG);
    // r 0 --> 30 --> 0: keys at frames 0, 10, 20 (as the dopesheet says).
    let graph = h.get_by_label_contains("Value graph arm Rotation").rect();
    let p: Vec<Pos2> = ["0 = 0", "10 = 30", "20 = 0"]
        .iter()
        .map(|k| h.get_by_label(&format!("Graph key arm Rotation {k}")).rect().center())
        .collect();
    for q in &p {
        assert!(graph.contains(*q), "{q:?} outside {graph:?}");
    }
    // Frames evenly apart, left to right; 0 and 0 level, 30 above.
    assert!(p[0].x < p[1].x && ((p[1].x - p[0].x) - (p[2].x - p[1].x)).abs() < 0.5, "{p:?}");
    assert!((p[0].y - p[2].y).abs() < 0.5 && p[1].y < p[0].y - 20.0, "{p:?}");
    assert_eq!(
        range_of(&h.get_by_label_contains("Value graph").accesskit_node().label().unwrap()),
        (0.0, 30.0)
    );
    // back-out overshoots 30 by as much as its curve rises over 1.
    h.get_by_label("Easing").click();
    h.run_steps(2);
    h.get_by_label("back-out").click();
    h.run_steps(3);
    let label = h.get_by_label_contains("Value graph").accesskit_node().label().unwrap();
    let (lo, hi) = range_of(&label);
    let want = 30.0 * bezier_max_y(1.56, 1.0);
    assert!(want > 32.5, "{want}");
    assert!(lo == 0.0 && (hi - want).abs() < 0.05, "{label}: want {want}");
    // Clicking a point selects its key: the segment graph shows it.
    h.get_by_label("Graph key arm Rotation 10 = 30").click();
    h.run_steps(3);
    assert_eq!(h.state().dopesheet.selected, vec![(0, 1)]);
    h.get_by_label("Frames 10 to 20");
}

/// The strip at `size`: every timeline control on screen, both graphs
/// under the rows, on screen, side by side and big enough to use, and the
/// canvas above them keeps its room.
fn assert_fits(size: [f32; 2]) -> Harness<'static, SkelpadApp> {
    let dir = tempfile::tempdir().unwrap();
    let mut h = selected_in(&dir, RIG, size);
    h.run_steps(3);
    let screen = Rect::from_min_size(Pos2::ZERO, size.into());
    crate::assert_toolbar_on_screen(&h, screen, &["Key arm Rotation 0", "Easing"]);
    // The selected key's row stays in view above the strip.
    let rows_bottom = h.get_by_label("Key arm Rotation 0").rect().bottom();
    let segment = h.get_by_label_contains("Segment graph").rect();
    let graph = h.get_by_label_contains("Value graph").rect();
    for (what, r) in [("segment", segment), ("value", graph)] {
        assert!(screen.contains_rect(r), "{size:?}: {what} graph {r:?}");
        assert!(
            r.top() >= rows_bottom,
            "{size:?}: {what} graph {r:?} over the rows ({rows_bottom})"
        );
        assert!(r.width() >= 90.0 && r.height() >= 90.0, "{size:?}: {what} graph {r:?}");
    }
    assert!(segment.right() <= graph.left(), "{segment:?} {graph:?}");
    let easing = h.get_by_label("Easing").rect();
    assert!(segment.right() <= easing.left() && easing.right() <= graph.left(), "{easing:?}");
    for handle in ["Curve handle 1", "Curve handle 2"] {
        assert!(segment.contains(h.get_by_label(handle).rect().center()), "{handle}");
    }
    let canvas = h.state().canvas.rect;
    assert!(canvas.height() >= 150.0 && canvas.bottom() <= segment.top(), "canvas {canvas:?}");
    eprintln!("at {size:?}: canvas {canvas:?}, segment graph {segment:?}, value graph {graph:?}");
    h
}

#[test]
fn the_curve_editor_fits_an_800_by_600_window_without_covering_controls() {
    assert_fits([640.0, 600.0]);
    let mut h = assert_fits([800.0, 600.0]);
    // The picker's last preset is reachable low in a short window.
    let screen = Rect::from_min_size(Pos2::ZERO, [800.0, 600.0].into());
    h.get_by_label("Easing").click();
    h.run_steps(2);
    let back = h.get_by_label("back").rect();
    assert!(screen.contains_rect(back), "back at {back:?}");
    h.get_by_label("back").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG.replace("r 0 --> 30 --> 0", "r 0 ::back--> 30 ::li--> 0"));
}

/// A loop of 4000 keys: the graph stays a bounded drawing (its points are
/// dots, not 4000 widgets) with the right range.
#[test]
fn a_timeline_of_thousands_of_keys_draws_a_bounded_value_graph() {
    let dir = tempfile::tempdir().unwrap();
    let text = RIG.replace("r 0 --> 30 --> 0", "r 0 { -> 10 -> 0 }[2000]");
    let path = write(dir.path(), "swing.skel2d", &text);
    let mut h = open(&path, [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    // The first key (a click on a diamond among 4000 is too fine).
    h.state_mut().dopesheet.selected = vec![(0, 0)];
    h.run_steps(2);
    let label =
        h.get_by_label_contains("Value graph arm Rotation").accesskit_node().label().unwrap();
    assert_eq!(range_of(&label), (0.0, 10.0));
    assert!(h.query_by_label_contains("Graph key").is_none());
    // Measured, not asserted (the machine is shared): a frame with the
    // graph and one without it, the dopesheet's 4000 diamonds in both.
    let frame = |h: &mut Harness<'_, SkelpadApp>| {
        let t = std::time::Instant::now();
        h.run_steps(5);
        t.elapsed() / 5
    };
    let with = frame(&mut h);
    h.state_mut().dopesheet.selected.clear();
    h.state_mut().dopesheet.current = None;
    h.run_steps(1);
    assert!(h.query_by_label_contains("Value graph").is_none());
    let without = frame(&mut h);
    eprintln!("a frame with 4000 keys: {with:?} with the graphs, {without:?} without");
}

/// The strip keeps its height whatever is selected, so a click on a key
/// moves no row under the pointer; View ▸ Curve editor hides it.
#[test]
fn selecting_a_key_moves_no_row_and_the_view_menu_hides_the_strip() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "swing.skel2d", RIG);
    let mut h = open(&path, [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    h.run_steps(2);
    h.get_by_label_contains("Select a key to see its curve");
    let before = key_at(&h, "Key leg Rotation 4");
    h.get_by_label("Key arm Rotation 10").click();
    h.run_steps(2);
    h.get_by_label_contains("Segment graph");
    assert_eq!(key_at(&h, "Key leg Rotation 4"), before);
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Curve editor").click();
    h.run_steps(3);
    assert!(!h.state().settings.view.show_curves);
    assert!(h.query_by_label_contains("Segment graph").is_none());
    assert!(h.query_by_label_contains("Value graph").is_none());
}
