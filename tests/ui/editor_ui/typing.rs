//! Typing in the script pane: bursts of keys, undo, find, Help and
//! the Problems list.

use super::*;

#[test]
fn typing_recompiles_the_model_and_the_diagnostics_in_the_same_frame() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    assert_eq!(bone_names(&h), ["arm"]);
    let end_of_rect = RIG.find("h10").unwrap() + 3;
    focus_editor_at(&mut h, end_of_rect);
    // Enter keeps the two tabs of the slot line; Shift+Tab outdents one.
    h.key_press(Key::Enter);
    h.key_press_modifiers(Modifiers::SHIFT, Key::Tab);
    h.get_by_label("Script").type_text("arm.hand l20");
    h.run_steps(1);
    assert!(h.state().doc.text.contains("h10\n\tarm.hand l20\n"), "{:?}", h.state().doc.text);
    assert_eq!(bone_names(&h), ["arm", "arm.hand"]);
    assert!(h.state().doc.analysis.comp().diagnostics.is_empty());
    // The canvas poses the new bone in the same frame.
    assert_eq!(h.state().pose.bones.len(), 2);

    // A bad token: an error appears in the list, in the same frame.
    h.get_by_label("Script").type_text(" zz");
    h.step();
    let diags = &h.state().doc.analysis.comp().diagnostics;
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert!(diags[0].is_error());
    let message = diags[0].message.clone();
    h.get_by_label_contains(&message);
    // An edit the text field makes itself (deleting a word) too.
    h.key_press_modifiers(Modifiers::CTRL, Key::Backspace);
    h.step();
    assert!(h.state().doc.text.contains("arm.hand l20 \nanim"), "{:?}", h.state().doc.text);
    h.get_by_label_contains("No problems");
    h.get_by_label("Script").type_text("zz");
    h.step();
    h.get_by_label_contains(&message);
    // The buffer is dirty, and the title says so.
    assert!(h.state().doc.is_dirty());
    assert!(h.state().doc.title().starts_with('●'));
}

#[test]
fn tab_inserts_a_tab_character_and_keeps_focus() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", "skeleton\n");
    let mut h = Setup::new(Some(&path)).build();
    focus_editor_at(&mut h, "skeleton\n".len());
    h.key_press(Key::Tab);
    h.run_steps(1);
    h.get_by_label("Script").type_text("leg l5");
    h.run_steps(1);
    assert_eq!(h.state().doc.text, "skeleton\n\tleg l5");
    assert!(h.get_by_label("Script").is_focused());
    assert_eq!(bone_names(&h), ["leg"]);
    // Undo takes the edit back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert_ne!(h.state().doc.text, "skeleton\n\tleg l5");
}

#[test]
fn clicking_a_diagnostic_moves_the_cursor_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = "skeleton\n\tarm l40\n\tleg l10 q7\n";
    let path = write(dir.path(), "bad.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    let diag = h.state().doc.analysis.comp().diagnostics.first().cloned().expect("an error");
    assert_eq!(&text[diag.span.range()], "q7");
    assert_ne!(h.state().editor.cursor, Some(diag.span.start as usize));
    h.get_by_label_contains(&format!("3:10  error: {}", diag.message)).click();
    h.run_steps(2);
    assert_eq!(h.state().editor.cursor, Some(diag.span.start as usize));
    // The cursor is on the `leg` line: that bone is highlighted.
    let leg = h.state().doc.analysis.shown.skeleton.bone_by_name("leg");
    assert_eq!(h.state().cursor_bone, leg);
}

#[test]
fn find_moves_the_cursor_to_the_next_match() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    focus_editor_at(&mut h, 0);
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    h.run_steps(2);
    h.get_by_label("Find").type_text("arm");
    h.run_steps(1);
    h.get_by_label("Next").click();
    h.run_steps(2);
    let first = RIG.find("arm").unwrap();
    assert_eq!(h.state().editor.cursor, Some(first));
    h.get_by_label("Next").click();
    h.run_steps(2);
    assert_eq!(h.state().editor.cursor, Some(RIG[first + 1..].find("arm").unwrap() + first + 1));
    h.get_by_label_contains("2 of 2");
}

#[test]
fn a_burst_of_keys_in_one_frame_is_applied_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = empty_script(dir.path());
    h.event(Event::Text("skeleton".into()));
    press(&mut h, Key::Enter, Modifiers::NONE);
    h.event(Event::Text("\tarm x10".into()));
    press(&mut h, Key::Enter, Modifiers::NONE);
    press(&mut h, Key::Enter, Modifiers::NONE);
    h.event(Event::Text("leg".into()));
    h.run_steps(1);
    // All of it, in this one frame: Enter keeps the line's indentation.
    assert_eq!(h.state().doc.text, "skeleton\n\tarm x10\n\t\n\tleg");
    assert_eq!(bone_names(&h), ["arm", "leg"]);
    // The Problems list was drawn from the same compilation in that frame.
    h.get_by_label_contains("No problems");

    // The cases measured through a real X server: the last character before
    // Enter, then a tab and a slot line.
    press(&mut h, Key::Enter, Modifiers::SHIFT);
    h.event(Event::Text("big x6".into()));
    h.event(Event::Text("0".into()));
    press(&mut h, Key::Enter, Modifiers::NONE);
    press(&mut h, Key::Tab, Modifiers::NONE);
    press(&mut h, Key::Tab, Modifiers::NONE);
    press(&mut h, Key::Tab, Modifiers::SHIFT);
    h.event(Event::Text("@ :rect w4 h4".into()));
    press(&mut h, Key::Backspace, Modifiers::NONE);
    h.event(Event::Text("5".into()));
    h.run_steps(1);
    assert_eq!(h.state().doc.text, "skeleton\n\tarm x10\n\t\n\tleg\n\tbig x60\n\t\t@ :rect w4 h5");
    assert_eq!(bone_names(&h), ["arm", "leg", "big"]);
    assert!(
        h.state().doc.analysis.comp().diagnostics.is_empty(),
        "{:?}",
        h.state().doc.analysis.comp().diagnostics
    );
}

#[test]
fn keys_the_text_field_handles_keep_their_place_in_a_burst() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = empty_script(dir.path());
    // An arrow key in the middle: what follows it waits for the next frame
    // where needed, and still lands in order.
    h.event(Event::Text("\tab".into()));
    press(&mut h, Key::ArrowLeft, Modifiers::NONE);
    h.event(Event::Text("x".into()));
    press(&mut h, Key::Enter, Modifiers::NONE);
    h.event(Event::Text("c".into()));
    press(&mut h, Key::End, Modifiers::NONE);
    press(&mut h, Key::Enter, Modifiers::NONE);
    h.event(Event::Paste("d\r\ne".into()));
    h.run_steps(4);
    assert_eq!(h.state().doc.text, "\tax\n\tcb\n\td\ne");
}

#[test]
fn a_save_in_a_burst_saves_what_was_typed_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, path) = empty_script(dir.path());
    h.event(Event::Text("skeleton".into()));
    press(&mut h, Key::Enter, Modifiers::NONE);
    h.event(Event::Text("\tarm".into()));
    press(&mut h, Key::S, Modifiers::COMMAND);
    h.event(Event::Text(" l5".into()));
    h.run_steps(3);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "skeleton\n\tarm");
    assert_eq!(h.state().doc.text, "skeleton\n\tarm l5");
    assert!(h.state().doc.is_dirty());
}

#[test]
fn a_burst_is_undone_and_redone_as_one_step() {
    let dir = tempfile::tempdir().unwrap();
    let (mut h, _) = empty_script(dir.path());
    h.event(Event::Text("skeleton".into()));
    press(&mut h, Key::Enter, Modifiers::NONE);
    h.event(Event::Text("\tarm".into()));
    h.run_steps(1);
    // The text field's undo keeps a state once it has been still for a second.
    for _ in 0..30 {
        let t = h.state().now() + 0.1;
        h.input_mut().time = Some(t);
        h.step();
    }
    press(&mut h, Key::Enter, Modifiers::NONE);
    h.event(Event::Text("leg".into()));
    h.run_steps(1);
    assert_eq!(h.state().doc.text, "skeleton\n\tarm\n\tleg");
    press(&mut h, Key::Z, Modifiers::COMMAND);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, "skeleton\n\tarm");
    press(&mut h, Key::Z, Modifiers::COMMAND);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, "");
    press(&mut h, Key::Z, Modifiers::COMMAND | Modifiers::SHIFT);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, "skeleton\n\tarm");
    // Typing after an undo in the same frame lands after the undone text.
    press(&mut h, Key::Z, Modifiers::COMMAND);
    h.event(Event::Text("x".into()));
    h.run_steps(2);
    assert_eq!(h.state().doc.text, "x");
}

mod typing_props {
    use super::*;
    use proptest::prelude::*;

    #[derive(Clone, Debug)]
    enum Op {
        Text(String),
        Enter,
        Tab,
        ShiftTab,
        Backspace,
        Delete,
        Left,
        Right,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            4 => "[a-z0-9 @:.\\t]{1,4}".prop_map(Op::Text),
            3 => Just(Op::Enter),
            2 => Just(Op::Tab),
            2 => Just(Op::ShiftTab),
            2 => Just(Op::Backspace),
            1 => Just(Op::Delete),
            1 => Just(Op::Left),
            1 => Just(Op::Right),
        ]
    }

    fn send(h: &mut Harness<'_, SkelpadApp>, op: &Op) {
        match op {
            Op::Text(t) => h.event(Event::Text(t.clone())),
            Op::Enter => press(h, Key::Enter, Modifiers::NONE),
            Op::Tab => press(h, Key::Tab, Modifiers::NONE),
            Op::ShiftTab => press(h, Key::Tab, Modifiers::SHIFT),
            Op::Backspace => press(h, Key::Backspace, Modifiers::NONE),
            Op::Delete => press(h, Key::Delete, Modifiers::NONE),
            Op::Left => press(h, Key::ArrowLeft, Modifiers::NONE),
            Op::Right => press(h, Key::ArrowRight, Modifiers::NONE),
        }
    }

    const START: &str = "skeleton\n\tarm l10\n\t\t@ :rect w2 h2";

    /// Types `ops` into a fresh editor, a new frame after each op whose
    /// `breaks` entry is true; returns the buffer.
    fn typed(ops: &[Op], breaks: &[bool]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "p.skel2d", START);
        let mut h = Setup::new(Some(&path)).build();
        focus_editor_at(&mut h, START.len());
        for (op, brk) in ops.iter().zip(breaks) {
            send(&mut h, op);
            if *brk {
                h.step();
            }
        }
        // Enough frames for every held-back event.
        h.run_steps(ops.len() + 2);
        h.state().doc.text.clone()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]
        #[test]
        fn any_split_into_frames_types_the_same_text(
            ops in proptest::collection::vec(op(), 1..24),
            breaks in proptest::collection::vec(any::<bool>(), 24),
        ) {
            let one_per_frame = typed(&ops, &vec![true; ops.len()]);
            let burst = typed(&ops, &breaks);
            let all_at_once = typed(&ops, &vec![false; ops.len()]);
            prop_assert_eq!(&burst, &one_per_frame);
            prop_assert_eq!(&all_at_once, &one_per_frame);
        }
    }
}

#[test]
fn the_language_reference_is_searchable_and_inserts_its_example_at_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    let at = RIG.find("\t\tr 0").unwrap();
    focus_editor_at(&mut h, at);
    h.get_by_label("Help").click();
    h.run_steps(2);
    h.get_by_label("Keyboard shortcuts").click();
    h.run_steps(2);
    h.get_by_label_contains("Indent / outdent the selected lines");
    // Generated from the keymap the handlers use: F12, the dopesheet's
    // keys and the drag modifiers are there.
    h.get_by_label("F12");
    h.get_by_label("Key the selected row at the current frame");
    h.get_by_label("Scale a bone; turn a shape");
    h.get_by_label("Delete, Backspace");
    h.get_by_label("Help").click();
    h.run_steps(2);
    h.get_by_label("Language reference").click();
    // The window settles its width over its first frames (it grows to the
    // left from the stage's corner); click its field after that.
    h.run_steps(6);
    h.get_by_label("Search").click();
    h.run_steps(1);
    h.get_by_label("Search").type_text("shapes the motion");
    h.run_steps(2);
    h.get_by_label("Easing a key");
    assert!(h.query_by_label("sine out: starts fast, ends slowly").is_none(), "filtered out");
    h.get_by_label("Insert").click();
    h.run_steps(3);
    // A topic's line goes on a line of its own, before the line the cursor
    // starts.
    let expected = format!("{}\t\tx 0 :sio-> 50 ::back-out-> 0\n{}", &RIG[..at], &RIG[at..]);
    assert_eq!(h.state().doc.text, expected);
    // It compiles, and the cursor is right after the inserted text.
    assert!(
        h.state().doc.analysis.comp().diagnostics.is_empty(),
        "{:?}",
        h.state().doc.analysis.comp().diagnostics
    );
    let ends_at = at + "\t\tx 0 :sio-> 50 ::back-out-> 0".len();
    assert_eq!(h.state().editor.cursor, Some(ends_at));

    // A word (from the vocabulary) goes at the end of the cursor's line:
    // the easing `sio` on the animated item `arm`.
    let item = expected.find("\tarm\n").unwrap() + "\tarm".len();
    focus_editor_at(&mut h, item - 2);
    h.state_mut().help.query.clear();
    h.run_steps(6);
    h.get_by_label("Search").click();
    h.run_steps(1);
    h.get_by_label("Search").type_text("slow at both ends");
    h.run_steps(2);
    h.get_by_label("sine in and out: slow at both ends");
    assert!(h.query_by_label("Easing a key").is_none(), "filtered out");
    h.get_by_label("Insert").click();
    h.run_steps(3);
    let expected = format!("{} ::sio{}", &expected[..item], &expected[item..]);
    assert_eq!(h.state().doc.text, expected);
    assert!(
        h.state().doc.analysis.comp().diagnostics.is_empty(),
        "{:?}",
        h.state().doc.analysis.comp().diagnostics
    );
    assert_eq!(h.state().editor.cursor, Some(item + " ::sio".len()));
}

/// A message too long for the Problems list is cut there and shown whole,
/// with its hints, when the pointer rests on it.
#[test]
fn a_long_problem_is_shown_whole_on_hover() {
    let dir = tempfile::tempdir().unwrap();
    let long = "q".repeat(120);
    let path = write(dir.path(), "long.skel2d", &format!("skeleton\n\tarm l40 {long}\n"));
    let mut h = Setup::new(Some(&path)).build();
    // The message as the compiler words it (the token quoted in part).
    let message = h.state().doc.analysis.comp().diagnostics[0].message.clone();
    assert!(message.ends_with("` is not a valid bone property"), "{message}");
    assert!(h.query_by_label(&message).is_none(), "not shown whole before hovering");
    let row = h.get_by_label_contains("is not a valid bone property");
    let row_rect = row.rect();
    row.hover();
    // The pointer rests there past the tooltip delay.
    let mut clock = h.state().now();
    for _ in 0..20 {
        clock += 0.1;
        h.input_mut().time = Some(clock);
        h.step();
    }
    let whole = h.get_by_label(&message).rect();
    let screen = eframe::egui::Rect::from_min_size(Pos2::ZERO, [1280.0, 800.0].into());
    assert!(screen.contains_rect(whole) && whole.width() > 0.0, "{whole:?}");
    assert_ne!(whole, row_rect);
    h.get_by_label_contains("bone properties are lNUM");
}
