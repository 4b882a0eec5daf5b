//! Typing as a fast typist (or `xdotool`) does: each character a key
//! press, its text and a key release, many of them in one frame, behind a
//! key the text field handles (End). Every character lands, in order.

use eframe::egui::{Event, Key, Modifiers};
use egui_kittest::Harness;
use skelpad::app::SkelpadApp;
use skelpad::app::editor::editor_id;

use crate::{open_sized, write};

fn key_event(key: Key, pressed: bool, modifiers: Modifiers) -> Event {
    Event::Key { key, physical_key: None, pressed, repeat: false, modifiers }
}

/// The key a character is typed with, as a keyboard sends it.
fn key_of(c: char) -> (Key, Modifiers) {
    match c {
        ' ' => (Key::Space, Modifiers::NONE),
        '#' => (Key::Num3, Modifiers::SHIFT),
        '-' => (Key::Minus, Modifiers::NONE),
        c if c.is_ascii_digit() => (Key::from_name(&c.to_string()).unwrap(), Modifiers::NONE),
        c => (Key::from_name(&c.to_ascii_uppercase().to_string()).unwrap(), Modifiers::NONE),
    }
}

/// End, then `text` typed: all the events in one frame.
fn burst(h: &mut Harness<'_, SkelpadApp>, text: &str) {
    h.event(key_event(Key::End, true, Modifiers::NONE));
    h.event(key_event(Key::End, false, Modifiers::NONE));
    for c in text.chars() {
        let (k, m) = key_of(c);
        h.event(key_event(k, true, m));
        h.event(Event::Text(c.to_string()));
        h.event(key_event(k, false, m));
    }
}

#[test]
fn a_burst_of_keystrokes_behind_end_lands_whole_and_in_order() {
    let text = "skeleton\n\tarm l40\n\t\t@ :rect w10 h4\n\tleg l30\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "b.skel2d", text);
    let mut h = open_sized(&path, [1000.0, 700.0]);
    h.ctx.memory_mut(|m| m.request_focus(editor_id()));
    h.run_steps(1);
    h.state_mut().editor.select(12..12);
    h.run_steps(3);
    let comment = " # typed fast into a 50000-line script";
    burst(&mut h, comment);
    // The frames that follow take the rest: the app asks for them (`run`
    // goes on while a repaint is asked for).
    h.run();
    let want = text.replacen("\tarm l40\n", &format!("\tarm l40{comment}\n"), 1);
    assert_eq!(h.state().doc.text, want);
}
