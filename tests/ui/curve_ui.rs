//! The curve editor through the real UI: a key selected in the dopesheet
//! shows its segment; dragging a handle rewrites only the easing's numbers
//! (one undo step), a linear segment becomes a bezier, and the picker
//! writes a preset's name. Each result is compiled anew and its curves read
//! from the model.

use eframe::egui::{Event, Key, Modifiers, PointerButton, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::dopesheet_ui::{RIG, drag, key_at, open};
use crate::write;
use skelpad::app::SkelpadApp;
use skelpad::compile::compile;
use skelpad::model::{Curve, Easing};

/// The editor on `text`, the arm's key at frame 0 selected.
fn selected(dir: &tempfile::TempDir, text: &str) -> Harness<'static, SkelpadApp> {
    let path = write(dir.path(), "swing.skel2d", text);
    let mut h = open(&path, [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    h.run_steps(2);
    let pos = key_at(&h, "Key arm Rotation 0").center();
    h.event(Event::PointerMoved(pos));
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
    }
    h.run_steps(3);
    assert_eq!(h.state().dopesheet.selected, vec![(0, 0)]);
    h
}

/// Every key of the arm's rotation, compiled anew: (time, value, curve).
fn arm_keys(text: &str) -> Vec<(f64, f64, Curve)> {
    let comp = compile(text);
    comp.armature.animations[0].bones[0].keys.iter().map(|k| (k.time_secs, k.value, k.curve)).collect()
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
    assert!(out.ends_with(&format!(",0.7,1)--> 30 ::li--> 0  # a comment\n\tleg{}", rest.split_once("\tleg").unwrap().1)));
    let (old, new) = (arm_keys(&text), arm_keys(&out));
    assert_eq!(old.iter().map(|k| (k.0, k.1)).collect::<Vec<_>>(), new.iter().map(|k| (k.0, k.1)).collect::<Vec<_>>());
    let Curve::Eased(Easing::Bezier(b)) = new[0].2 else { panic!("{:?}", new[0].2) };
    assert!(b.x1 > 0.3 && b.y1 > 0.0 && (b.x2, b.y2) == (0.7, 1.0), "{b:?}");
    assert_eq!(new[1].2, old[1].2, "the next segment keeps its easing");
    undo(&mut h);
    assert_eq!(h.state().doc.text, text);
}

#[test]
fn a_linear_segment_becomes_a_bezier_from_its_own_handles() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = selected(&dir, RIG);
    let handle = h.get_by_label("Curve handle 2").rect().center();
    drag(&mut h, handle, handle + Vec2::new(0.0, 25.0));
    let out = h.state().doc.text.clone();
    let tail = out.split_once("r 0 ::bz(0.667,").unwrap().1;
    let (y2, rest) = tail.split_once(")--> 30 ::li--> 0  # a comment\n").unwrap();
    assert!(y2.parse::<f64>().unwrap() < 0.667, "{out}");
    assert_eq!(out.split_once("bz(").unwrap().0, RIG.split_once("-->").unwrap().0.to_owned() + "::");
    assert_eq!(rest, RIG.split_once("# a comment\n").unwrap().1);
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
