//! The Animation menu through the real UI: duplicate, new as a copy, new
//! from the setup pose, rename (everywhere, as the language server does),
//! delete (asked first) and reorder — each one undo step, the text checked
//! by compiling it.

use eframe::egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::{open_sized, write};
use skelpad::app::SkelpadApp;
use skelpad::compile::compile;

const RIG: &str = "skeleton\n\tarm l40\nanim \"swing\" 20fps\n\tarm\n\t\tr 0 --> 30 --> 0\nanim \"rest\"\n\tarm\n\t\tr 5\nanim \"both\" from \"swing\"\n";

fn names(text: &str) -> Vec<String> {
    let comp = compile(text);
    assert!(!comp.has_errors(), "{text}");
    comp.armature.animations.iter().map(|a| a.name.clone()).collect()
}

fn menu(h: &mut Harness<'_, SkelpadApp>, item: &str) {
    // (The menu bar's, before the timeline's picker of the same name.)
    h.get_all_by_label("Animation").next().unwrap().click();
    h.run_steps(2);
    h.get_by_label(item).click();
    // (A modal takes a frame to lay itself out before it shows.)
    h.run_steps(4);
}

fn undo(h: &mut Harness<'_, SkelpadApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
}

#[test]
fn the_animation_menu_writes_text_one_undo_step_each() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_sized(&write(dir.path(), "rig.skel2d", RIG), [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    h.run_steps(2);
    // Duplicate: a copy with a new name, playing the same keys.
    menu(&mut h, "Duplicate “swing”");
    let text = h.state().doc.text.clone();
    let n = names(&text);
    assert_eq!(n.len(), 4, "{text}");
    let comp = compile(&text);
    let copy = comp
        .armature
        .animations
        .iter()
        .find(|a| !["swing", "rest", "both"].contains(&a.name.as_str()))
        .unwrap();
    assert_eq!(copy.bones, comp.armature.animations[0].bones);
    undo(&mut h);
    assert_eq!(h.state().doc.text, RIG);
    assert!(h.state().status.clone().unwrap().0.starts_with("Undone: Duplicated"));

    // Rename: the header and the `from "swing"` that names it.
    menu(&mut h, "Rename “swing”…");
    h.get_by_label("Name").focus();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("Name").type_text("wave");
    h.run_steps(1);
    h.get_by_label("Rename").click();
    h.run_steps(2);
    let text = h.state().doc.text.clone();
    assert_eq!(names(&text), ["wave", "rest", "both"], "{text}");
    assert!(text.contains("from \"wave\"") && !text.contains("swing"), "{text}");
    undo(&mut h);
    assert_eq!(h.state().doc.text, RIG);

    // Delete asks first; "rest" is named by nothing else.
    h.state_mut().playback.select_anim(&compile(RIG).armature, skelpad::model::AnimId(1));
    h.run_steps(2);
    menu(&mut h, "Delete “rest”…");
    h.get_by_label("Delete “rest”?");
    h.get_by_label("Delete").click();
    h.run_steps(2);
    assert_eq!(names(&h.state().doc.text), ["swing", "both"]);
    undo(&mut h);
    assert_eq!(h.state().doc.text, RIG);

    // Move up: "rest" first, the keys of each unchanged. (The playback
    // followed "both" by its name through the delete and the undo.)
    h.state_mut().playback.select_anim(&compile(RIG).armature, skelpad::model::AnimId(1));
    h.run_steps(2);
    menu(&mut h, "Move up");
    let text = h.state().doc.text.clone();
    assert_eq!(names(&text), ["rest", "swing", "both"], "{text}");
    undo(&mut h);

    // New from the setup pose, named in the prompt.
    menu(&mut h, "New animation…");
    h.get_by_label("Name").focus();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("Name").type_text("idle");
    h.key_press(Key::Enter);
    h.run_steps(2);
    let text = h.state().doc.text.clone();
    assert_eq!(names(&text), ["swing", "rest", "both", "idle"], "{text} {:?}", h.state().status);
    // ... and it is the one shown now.
    let app = h.state();
    let shown = app.playback.clone().resolve(&app.doc.analysis.shown).0;
    assert_eq!(shown, Some(skelpad::model::AnimId(3)));
}
