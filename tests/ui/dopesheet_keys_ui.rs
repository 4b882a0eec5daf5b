//! The dopesheet's second round, through the real UI: box selection,
//! pasting onto another item, inserting a key at the playhead (K and a
//! row's menu), folding, moving a first key earlier, the frame scale shared
//! with the scrub bar, the layout at 800×600 with the outline, and a key's
//! tooltip and double-click. Every edit is checked on the text (only the
//! expected tokens change) and by compiling it anew (keys where expected).

use std::path::Path;

use eframe::egui::{Event, Key, Modifiers, PointerButton, Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::dopesheet_ui::{RIG, drag, frames, key_at, open, x_of_frame};
use crate::write;
use skelpad::app::SkelpadApp;
use skelpad::compile::compile;

/// The editor on `RIG` (in a temporary folder kept alive by the caller).
fn rig(dir: &tempfile::TempDir) -> Harness<'static, SkelpadApp> {
    let path = write(dir.path(), "swing.skel2d", RIG);
    let mut h = open(&path, [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    h.run_steps(2);
    h
}

/// Puts the playhead on `frame` (of the 20 fps animations here).
fn playhead(h: &mut Harness<'_, SkelpadApp>, frame: f64) {
    h.state_mut().playback.playing = false;
    h.state_mut().playback.time_secs = frame / 20.0;
    h.run_steps(2);
}

/// The x of `frame` on the arm row (keys at 0, 10, 20).
fn arm_x(h: &Harness<'_, SkelpadApp>, frame: f64) -> f32 {
    let k0 = key_at(h, "Key arm Rotation 0").center();
    let k10 = key_at(h, "Key arm Rotation 10").center();
    x_of_frame((0.0, k0.x), (10.0, k10.x), frame)
}

/// The first animation's rotation of bone `bone` sampled at every frame
/// from 0 to 20 (what the animation plays, from the compiled model).
fn rotation_samples(text: &str, bone: &str) -> Vec<f64> {
    let comp = compile(text);
    let arm = &comp.armature;
    let b = arm.skeleton.bone_by_name(bone).unwrap();
    let a = &arm.animations[0];
    let ch = a
        .bones
        .iter()
        .find(|c| c.bone == b && c.property == skelpad::model::BoneProperty::Rotation)
        .unwrap();
    (0..=20).map(|f| skelpad::runtime::sample(&ch.keys, f as f64 / a.fps, None).unwrap()).collect()
}

/// A click of the primary button at `pos`.
pub(crate) fn click_at(h: &mut Harness<'_, SkelpadApp>, pos: Pos2) {
    h.event(Event::PointerMoved(pos));
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run_steps(1);
}

/// Drags on empty space from `a` to `b` (holding `modifiers`).
fn box_drag(h: &mut Harness<'_, SkelpadApp>, a: Pos2, b: Pos2, modifiers: Modifiers) {
    crate::pointer_drag(h, a, b, modifiers, 8);
    h.event(Event::ModifiersChanged(Modifiers::NONE));
    h.run_steps(1);
}

/// A box dragged on empty space selects the keys inside it (Shift adds
/// more); dragging one of them moves them all; one undo step.
#[test]
fn a_box_selects_the_keys_inside_it_and_they_move_together() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = rig(&dir);
    let arm_row = h.get_by_label("Dopesheet row arm Rotation").rect();
    let leg_row = h.get_by_label("Dopesheet row leg Rotation").rect();
    // Frames 2.5 to 12 on both rows: arm's 10, leg's 4 and 7.
    let a = Pos2::new(arm_x(&h, 2.5), arm_row.top() + 2.0);
    let b = Pos2::new(arm_x(&h, 12.0), leg_row.bottom() - 2.0);
    box_drag(&mut h, a, b, Modifiers::NONE);
    assert_eq!(h.state().dopesheet.selected.len(), 3, "{:?}", h.state().dopesheet.selected);
    assert_eq!(h.state().doc.text, RIG, "selecting changes nothing");
    // Shift and a box around arm's 20 adds it; a box without Shift replaces.
    let c = Pos2::new(arm_x(&h, 18.0), arm_row.top() + 2.0);
    let d = Pos2::new(arm_x(&h, 21.0), arm_row.bottom() - 2.0);
    box_drag(&mut h, c, d, Modifiers::SHIFT);
    assert_eq!(h.state().dopesheet.selected.len(), 4);
    box_drag(&mut h, a, b, Modifiers::NONE);
    assert_eq!(h.state().dopesheet.selected.len(), 3);
    // Drag arm's 10 one frame later: the three move.
    let k10 = key_at(&h, "Key arm Rotation 10").center();
    let to = Pos2::new(arm_x(&h, 11.0), k10.y);
    drag(&mut h, k10, to);
    let text = h.state().doc.text.clone();
    assert_eq!(
        text,
        RIG.replace("r 0 --> 30 --> 0", "r 0 11:> 30 20:> 0")
            .replace("r 0 +4:> 10 +3:> 20", "r 0 +5:> 10 +3:> 20")
    );
    assert_eq!(frames(&text), vec![vec![0.0, 11.0, 20.0], vec![0.0, 5.0, 8.0]]);
    // The moved keys stay selected.
    let mut sel = h.state().dopesheet.selected.clone();
    sel.sort_unstable();
    assert_eq!(sel, vec![(0, 1), (1, 1), (1, 2)]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG);
}

/// Ctrl+V with the pointer on another item's row pastes the copied key
/// there, at the playhead; the keys after it stay where they were.
#[test]
fn copied_keys_are_pasted_onto_the_row_under_the_pointer() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = rig(&dir);
    h.get_by_label("Key arm Rotation 10").click();
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::C);
    h.run_steps(1);
    // Between frames 2 and 3 the readout says frame 2: the keys go there
    // (one notion of the current frame, not the rounded 3).
    playhead(&mut h, 2.6);
    let anim = &h.state().doc.analysis.shown.animations[0];
    assert_eq!(h.state().playback.frame(anim), 2);
    h.get_by_label("Dopesheet item leg").hover();
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run_steps(2);
    let text = h.state().doc.text.clone();
    assert_eq!(text, RIG.replace("r 0 +4:> 10 +3:> 20", "r 0 2:> 30 +2:> 10 +3:> 20"));
    assert_eq!(frames(&text), vec![vec![0.0, 10.0, 20.0], vec![0.0, 2.0, 4.0, 7.0]]);
    // With the pointer on no row, the row chosen last (arm's, by the
    // click) takes it.
    playhead(&mut h, 15.0);
    h.event(Event::PointerMoved(Pos2::new(900.0, 200.0)));
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::V);
    h.run_steps(2);
    let text2 = h.state().doc.text.clone();
    assert_eq!(text2, text.replace("r 0 --> 30 --> 0", "r 0 --> 30 15:> 30 20:> 0"));
    assert_eq!(frames(&text2)[0], vec![0.0, 10.0, 15.0, 20.0]);
}

/// K over a property row keys it at the playhead with the value the
/// animation has there: the text gains that key, the next key's advance
/// becomes its frame, and the animation plays as before (linear keys).
#[test]
fn k_inserts_a_key_at_the_playhead_that_keeps_the_motion() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = rig(&dir);
    playhead(&mut h, 5.7);
    h.get_by_label("Dopesheet row arm Rotation").hover();
    h.run_steps(1);
    h.key_press(Key::K);
    h.run_steps(2);
    let text = h.state().doc.text.clone();
    assert_eq!(text, RIG.replace("r 0 --> 30 --> 0", "r 0 5:> 15 10:> 30 --> 0"));
    assert_eq!(frames(&text), vec![vec![0.0, 5.0, 10.0, 20.0], vec![0.0, 4.0, 7.0]]);
    assert_eq!(rotation_samples(&text, "arm"), rotation_samples(RIG, "arm"));
    // Again at the same frame: refused, nothing changes, the status says why.
    h.key_press(Key::K);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, text);
    let (msg, is_error) = h.state().status.clone().unwrap();
    assert!(is_error && msg.contains("already"), "{msg}");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG);
}

/// A row's menu (right click) inserts a key at the playhead too.
#[test]
fn a_rows_menu_inserts_a_key_at_the_playhead() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = rig(&dir);
    playhead(&mut h, 2.0);
    h.get_by_label("Dopesheet row leg Rotation")
        .click_button_modifiers(PointerButton::Secondary, Modifiers::NONE);
    h.run_steps(2);
    h.get_by_label("Insert key at frame 2").click();
    h.run_steps(2);
    let text = h.state().doc.text.clone();
    assert_eq!(text, RIG.replace("r 0 +4:> 10 +3:> 20", "r 0 2:> 5 +2:> 10 +3:> 20"));
    assert_eq!(frames(&text), vec![vec![0.0, 10.0, 20.0], vec![0.0, 2.0, 4.0, 7.0]]);
    assert_eq!(rotation_samples(&text, "leg"), rotation_samples(RIG, "leg"));
}

/// Each item folds into its row (its keys drawn there) and unfolds into a
/// row per property, each with its keys; the menu folds them all.
#[test]
fn items_fold_and_unfold_into_their_property_rows() {
    let dir = tempfile::tempdir().unwrap();
    let text = "skeleton\n\tarm l40\n\tleg l40\nanim \"a\" 20fps\n\tarm\n\t\tr 0 -> 10\n\t\tx 0 --> 5\n\tleg\n\t\tr 0 -> 1\n";
    let path = write(dir.path(), "fold.skel2d", text);
    let mut h = open(&path, [1280.0, 800.0]);
    h.get_by_label("Key arm Rotation 5");
    h.get_by_label("Key arm X 10");
    // A click on the item's name folds it: its property rows go.
    let item = h.get_by_label("Dopesheet item arm").rect();
    click_at(&mut h, Pos2::new(item.left() + 8.0, item.center().y));
    h.run_steps(2);
    assert!(h.query_by_label("Dopesheet row arm Rotation").is_none());
    assert!(h.query_by_label("Key arm X 10").is_none());
    h.get_by_label("Key leg Rotation 5");
    let item = h.get_by_label("Dopesheet item arm").rect();
    click_at(&mut h, Pos2::new(item.left() + 8.0, item.center().y));
    h.run_steps(2);
    h.get_by_label("Dopesheet row arm X");
    h.get_by_label("Key arm X 10");
    // Collapse all, from a row's menu.
    h.get_by_label("Dopesheet item leg")
        .click_button_modifiers(PointerButton::Secondary, Modifiers::NONE);
    h.run_steps(2);
    h.get_by_label("Collapse all").click();
    h.run_steps(3);
    assert_eq!(h.query_all_by_label_contains("Dopesheet row").count(), 0);
    assert_eq!(h.query_all_by_label_contains("Dopesheet item").count(), 2);
    assert_eq!(h.state().doc.text, text);
}

/// A first key placed by `F:>` goes back to frame 0 (the option goes, the
/// next key keeps its frame); one whose timeline starts later (the item's
/// `F:`) is refused with the reason.
#[test]
fn a_first_key_moves_earlier_where_the_text_can_say_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = "skeleton\n\tarm l40\n\tleg l40\nanim \"a\" 20fps\n\tarm\n\t\tr 4:> 0 --> 30\n\tleg 4:\n\t\tr 0 --> 30\n";
    let path = write(dir.path(), "first.skel2d", text);
    let mut h = open(&path, [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    let k4 = key_at(&h, "Key arm Rotation 4").center();
    let k14 = key_at(&h, "Key arm Rotation 14").center();
    let to = Pos2::new(x_of_frame((4.0, k4.x), (14.0, k14.x), 0.0), k4.y);
    drag(&mut h, k4, to);
    let moved = h.state().doc.text.clone();
    assert_eq!(moved, text.replace("r 4:> 0 --> 30", "r 0 14:> 30"));
    assert_eq!(frames(&moved), vec![vec![0.0, 14.0], vec![4.0, 14.0]]);
    // leg starts at frame 4 (its item's `4:`): its first key cannot go earlier.
    let l4 = key_at(&h, "Key leg Rotation 4").center();
    let l14 = key_at(&h, "Key leg Rotation 14").center();
    let to = Pos2::new(x_of_frame((4.0, l4.x), (14.0, l14.x), 1.0), l4.y);
    drag(&mut h, l4, to);
    assert_eq!(h.state().doc.text, moved);
    let (msg, is_error) = h.state().status.clone().unwrap();
    assert!(is_error && msg.contains("starts at frame 4"), "{msg}");
}

/// A key's x on the dopesheet is its frame's x on the scrub bar: clicking
/// the scrub bar there puts the playhead on that frame.
#[test]
fn the_dopesheet_and_the_scrub_bar_share_their_frame_scale() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/walk_cycle.skel2d");
    for size in [[1280.0, 800.0], [800.0, 600.0]] {
        let mut h = open(&path, size);
        h.state_mut().playback.playing = false;
        h.run_steps(2);
        let bar = h.get_by_label("Scrub bar").rect();
        let fps = h.state().doc.analysis.comp().armature.animations[0].fps;
        for frame in [0, 10, 20] {
            let k = key_at(&h, &format!("Key hip.thigh-l Rotation {frame}")).center();
            click_at(&mut h, Pos2::new(k.x, bar.center().y));
            h.run_steps(2);
            let at = h.state().playback.time_secs * fps;
            assert!((at - f64::from(frame)).abs() < 1e-6, "{size:?}: frame {frame} → {at}");
        }
    }
}

/// At 800×600 with the outline and the dopesheet open, every timeline
/// control, the outline, the script, the dopesheet's rows and a usable
/// canvas are on screen.
#[test]
fn the_outline_and_the_dopesheet_leave_every_panel_room_at_800_by_600() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/walk_cycle.skel2d");
    let mut h = open(&path, [800.0, 600.0]);
    h.state_mut().settings.view.show_outline = true;
    h.run_steps(4);
    let screen = Rect::from_min_size(Pos2::ZERO, [800.0, 600.0].into());
    crate::assert_toolbar_on_screen(&h, screen, &["Dopesheet item hip.thigh-l"]);
    let canvas = h.state().canvas.rect;
    assert!(screen.contains_rect(canvas), "canvas {canvas:?}");
    assert!(canvas.width() >= 300.0 && canvas.height() >= 150.0, "canvas {canvas:?}");
    // The outline and the script each keep a usable width.
    let outline = h.get_by_label_contains("Skeleton (").rect();
    assert!(screen.contains_rect(outline) && outline.right() < 200.0, "outline {outline:?}");
    eprintln!("canvas at 800×600 with the outline and the dopesheet: {canvas:?}");
    assert!(canvas.left() >= 120.0 + 200.0 - 1.0, "canvas {canvas:?}");
}

/// A key's tooltip gives its value, frame, line and easing; a double
/// click puts the cursor on its token.
#[test]
fn a_key_tells_its_value_and_line_and_double_click_jumps_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = "skeleton\n\tarm l40\nanim \"a\" 20fps\n\tarm\n\t\tr 0 -> 45 :so-> 0\n";
    let path = write(dir.path(), "ease.skel2d", text);
    let mut h = open(&path, [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    let key = h.get_by_label("Key arm Rotation 5");
    key.hover();
    let mut clock = h.state().now();
    for _ in 0..20 {
        clock += 0.1;
        h.input_mut().time = Some(clock);
        h.step();
    }
    h.get_by_label("arm Rotation: 45 at frame 5 (line 5), easing so");
    let k = key_at(&h, "Key arm Rotation 5").center();
    for _ in 0..2 {
        for pressed in [true, false] {
            h.event(Event::PointerButton {
                pos: k,
                button: PointerButton::Primary,
                pressed,
                modifiers: Modifiers::NONE,
            });
        }
        h.run_steps(1);
    }
    h.run_steps(3);
    let at = text.find("45").unwrap();
    let cursor = h.state().editor.cursor.unwrap();
    assert!((at..=at + 2).contains(&cursor), "cursor at {cursor}, token at {at}");
    assert_eq!(h.state().doc.text, text);
}

/// K with the pointer on no row and no row chosen keys the bone selected
/// on the canvas (or in the outline): each of its timelines at the playhead.
#[test]
fn k_keys_the_selected_bone_when_no_row_is_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = rig(&dir);
    playhead(&mut h, 2.0);
    h.state_mut().selected = Some(skelpad::app::Selected::Bone("leg".into()));
    h.event(Event::PointerMoved(Pos2::new(900.0, 200.0)));
    h.run_steps(2);
    assert_eq!(h.state().dopesheet.current, None);
    h.key_press(Key::K);
    h.run_steps(2);
    let text = h.state().doc.text.clone();
    assert_eq!(text, RIG.replace("r 0 +4:> 10 +3:> 20", "r 0 2:> 5 +2:> 10 +3:> 20"));
    assert_eq!(rotation_samples(&text, "leg"), rotation_samples(RIG, "leg"));
}

/// Delete removes the keys a box selected (nothing else has the keyboard).
#[test]
fn boxed_keys_are_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = rig(&dir);
    let arm_row = h.get_by_label("Dopesheet row arm Rotation").rect();
    let leg_row = h.get_by_label("Dopesheet row leg Rotation").rect();
    let a = Pos2::new(arm_x(&h, 8.0), arm_row.top() + 2.0);
    let b = Pos2::new(arm_x(&h, 12.0), leg_row.bottom() - 2.0);
    box_drag(&mut h, a, b, Modifiers::NONE);
    assert_eq!(h.state().dopesheet.selected, vec![(0, 1)]);
    h.key_press(Key::Delete);
    h.run_steps(2);
    let text = h.state().doc.text.clone();
    assert_eq!(text, RIG.replace("r 0 --> 30 --> 0", "r 0 20:> 0"));
    assert_eq!(frames(&text), vec![vec![0.0, 20.0], vec![0.0, 4.0, 7.0]]);
}

/// On a folded item the keys of all its properties at one frame are one
/// diamond: dragging it moves them together.
#[test]
fn a_folded_items_keys_at_one_frame_move_together() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        "skeleton\n\tarm l40\nanim \"a\" 20fps\n\tarm\n\t\tr 0 --> 30 --> 0\n\t\tx 0 --> 5\n";
    let path = write(dir.path(), "fold.skel2d", text);
    let mut h = open(&path, [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    let item = h.get_by_label("Dopesheet item arm").rect();
    click_at(&mut h, Pos2::new(item.left() + 8.0, item.center().y));
    h.run_steps(2);
    assert!(h.query_by_label("Key arm X 10").is_none(), "folded");
    let k0 = h.get_by_label("Keys arm 0").rect().center();
    let k10 = h.get_by_label("Keys arm 10").rect().center();
    let to = Pos2::new(x_of_frame((0.0, k0.x), (10.0, k10.x), 12.0), k10.y);
    drag(&mut h, k10, to);
    let moved = h.state().doc.text.clone();
    assert_eq!(
        moved,
        text.replace("r 0 --> 30 --> 0", "r 0 12:> 30 20:> 0").replace("x 0 --> 5", "x 0 12:> 5")
    );
    assert_eq!(frames(&moved), vec![vec![0.0, 12.0, 20.0], vec![0.0, 12.0]]);
    h.get_by_label("Keys arm 12");
}
