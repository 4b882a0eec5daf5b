//! Typing into the script, in the order the keys arrived.
//!
//! egui hands a frame's input over as one list of events. A fast typist, a
//! paste-like burst or a slow frame puts several keystrokes in one list:
//! `Text("n")`, `Key(Enter)`, `Text("\tarm")`, `Key(Enter)`, `Key(Enter)`…
//! The text field applies its events in order, but the script's own keys
//! (Enter with auto-indent, Tab and Shift+Tab over lines) are not the text
//! field's: handled around it, they acted before (or after) every character
//! of the frame, and `consume_key` took all the Enters of a frame for one.
//!
//! So the editor applies the frame's typing itself, at the start of the
//! frame, strictly in order ([`apply_in_order`]): text, paste, Enter,
//! Tab, Shift+Tab, Backspace and Delete. At the first event it does not
//! apply itself (arrows, undo, a shortcut, a click…), it stops; that event and
//! the following ones that the text field handles in its own order stay in
//! this frame; from the next event that needs the editor or the app again
//! (Enter, Tab, Escape, an app shortcut), the rest is kept for the next frame
//! (see [`Editor::take_input`](super::editor::Editor::take_input)). Whatever
//! the split, every event is applied once, in the order it arrived.
//!
//! The completion list is carried through the same loop ([`list`]): each
//! key it may take (Enter, Tab, Up, Down, Escape, Ctrl+Space) is decided
//! against the text the keys before it left, so the list never sees a
//! stale text and never changes what a key sequence types with its speed.
//!
//! `tests/ui/editor_ui/typing.rs` checks it: `any_split_into_frames_types_the_same_text`
//! (a property test: a burst in one frame types what one key per frame
//! types), `words_and_keys_type_the_same_text_at_any_speed_with_completion_on`
//! and the `a_burst_…` tests.

pub mod list;

use std::ops::Range;

use eframe::egui::{Event, Key, Modifiers};

use super::editor::{line_start, shift_lines};
use list::{List, ListKey, Propose, Taken};

/// An edit the editor applies itself.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Replace the selection with this text.
    Insert(String),
    /// Enter: a new line with the indentation of the current one.
    Newline,
    /// Tab: a tab character, or one more tab on every selected line.
    Tab,
    /// Shift+Tab: one tab (or up to four spaces) less on every touched line.
    Outdent,
    /// Backspace: the selection, or the character before the cursor.
    Backspace,
    /// Delete: the selection, or the character after the cursor.
    Delete,
}

/// What an input event is to the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    /// The editor applies it.
    Edit(Edit),
    /// Changes nothing in the text (key releases, pointer motion): it stays
    /// in the frame and does not stop the in-order application.
    Neutral,
    /// The text field applies it in its own event loop (cursor keys, undo,
    /// word deletion, copy, cut, IME…), in order with other such events.
    TextField,
    /// Handled outside the text field's loop (by the editor or the app):
    /// must be the first keyboard event of a frame to keep its place.
    Barrier,
}

/// Ctrl+S, N, O, F, and undo and redo (the app applies them to the
/// field's history, so the status bar can say what was undone).
fn is_app_shortcut(key: Key, m: Modifiers) -> bool {
    use super::keymap::{FIND, NEW, OPEN, REDO_Y, SAVE, UNDO};
    m.command && [SAVE, NEW, OPEN, FIND, UNDO, REDO_Y].iter().any(|s| s.logical_key == key)
}

/// The role of `event` for the editor.
pub fn role(event: &Event) -> Role {
    match event {
        Event::Text(t) => Role::Edit(Edit::Insert(t.clone())),
        Event::Paste(t) => Role::Edit(Edit::Insert(t.replace("\r\n", "\n").replace('\r', "\n"))),
        Event::Key { pressed: false, .. } => Role::Neutral,
        Event::Key { key, modifiers: m, .. } => {
            let plain = !m.command && !m.ctrl && !m.alt && !m.mac_cmd;
            match key {
                Key::Enter if plain => Role::Edit(Edit::Newline),
                Key::Tab if plain && m.shift => Role::Edit(Edit::Outdent),
                Key::Tab if plain => Role::Edit(Edit::Tab),
                Key::Backspace if plain && !m.shift => Role::Edit(Edit::Backspace),
                Key::Delete if plain && !m.shift => Role::Edit(Edit::Delete),
                Key::Enter | Key::Tab | Key::Escape => Role::Barrier,
                k if is_app_shortcut(*k, *m) => Role::Barrier,
                _ => Role::TextField,
            }
        }
        Event::Copy | Event::Cut | Event::Ime(_) | Event::AccessKitActionRequest(_) => {
            Role::TextField
        }
        // A click moves the cursor: what follows must land where it is.
        Event::PointerButton { .. } => Role::TextField,
        _ => Role::Neutral,
    }
}

/// Whether `event` comes from the keyboard (only those are ever held back).
pub fn is_keyboard(event: &Event) -> bool {
    matches!(
        event,
        Event::Text(_)
            | Event::Paste(_)
            | Event::Key { .. }
            | Event::Copy
            | Event::Cut
            | Event::Ime(_)
    )
}

fn prev_char(text: &str, at: usize) -> usize {
    text[..at].char_indices().next_back().map_or(0, |(i, _)| i)
}

fn next_char(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(at, |c| at + c.len_utf8())
}

/// Applies one edit to `text` with the selection `sel` (anchor..cursor, in
/// bytes, either order); returns the new selection (anchor..cursor).
pub fn apply(text: &mut String, sel: Range<usize>, edit: &Edit) -> Range<usize> {
    let (lo, hi) = (sel.start.min(sel.end), sel.start.max(sel.end));
    let replace = |text: &mut String, with: &str| {
        text.replace_range(lo..hi, with);
        let at = lo + with.len();
        at..at
    };
    match edit {
        Edit::Insert(t) => {
            // The text field ignores bare line breaks (Enter makes them).
            if t.is_empty() || t == "\n" || t == "\r" { sel } else { replace(text, t) }
        }
        Edit::Newline => {
            let ls = line_start(text, lo);
            let indent: String =
                text[ls..lo].chars().take_while(|c| *c == '\t' || *c == ' ').collect();
            replace(text, &format!("\n{indent}"))
        }
        Edit::Tab => {
            if text[lo..hi].contains('\n') {
                shift_lines(text, lo..hi, true)
            } else {
                replace(text, "\t")
            }
        }
        Edit::Outdent => {
            let multi_line = text[lo..hi].contains('\n');
            let before = text.len();
            let lines = shift_lines(text, lo..hi, false);
            if multi_line {
                lines
            } else {
                // A single cursor stays where it was on its line.
                let at = lo.saturating_sub(before - text.len()).max(lines.start);
                at..at
            }
        }
        Edit::Backspace if lo == hi => {
            let p = prev_char(text, lo);
            text.replace_range(p..lo, "");
            p..p
        }
        Edit::Delete if lo == hi => {
            let n = next_char(text, lo);
            text.replace_range(lo..n, "");
            lo..lo
        }
        Edit::Backspace | Edit::Delete => replace(text, ""),
    }
}

/// What [`apply_in_order`] did with a frame's events.
#[derive(Debug, Default, PartialEq)]
pub struct Split {
    /// Events left for this frame (the text field and the app), in order.
    pub now: Vec<Event>,
    /// Keyboard events to hand in at the start of the next frame, in order.
    pub later: Vec<Event>,
    /// The text was changed.
    pub changed: bool,
    /// The completion list inserted a proposal: the text before the last
    /// such insertion (to become an undo point).
    pub inserted_from: Option<String>,
    /// The completion list took an Escape (egui let go of the focus as the
    /// key came in: the editor takes it back).
    pub escaped: bool,
}

/// Applies the leading run of edits of `events` to `text` in order (the
/// selection `sel` is updated), with the completion `list` taking its keys
/// in their place in the order (`propose` asked for proposals of the text
/// as it is at that key), and splits the rest into what this frame can
/// still handle in order and what must wait for the next frame.
pub fn apply_in_order(
    text: &mut String,
    sel: &mut Range<usize>,
    events: Vec<Event>,
    list: &mut List,
    propose: &mut dyn Propose,
) -> Split {
    let mut split = Split::default();
    // 0: applying edits; 1: the text field's events; 2: holding back.
    let mut phase = 0;
    for event in events {
        if phase == 2 {
            if is_keyboard(&event) {
                split.later.push(event);
            } else {
                split.now.push(event);
            }
            continue;
        }
        if let Some(key) = ListKey::of(&event) {
            let for_list = key == ListKey::Invoke || list.open().is_some();
            if for_list && phase == 1 {
                // The text field moves the cursor first; the list follows it
                // when the frame is drawn, and takes this key next frame.
                split.later.push(event);
                phase = 2;
                continue;
            }
            if for_list {
                match list.key(key, text, sel, propose) {
                    Taken::No => {}
                    Taken::Yes => {
                        split.escaped |= key == ListKey::Escape;
                        continue;
                    }
                    Taken::Inserted { before } => {
                        split.inserted_from = Some(before);
                        split.changed = true;
                        continue;
                    }
                }
            }
        }
        match role(&event) {
            Role::Neutral => split.now.push(event),
            Role::Edit(edit) if phase == 0 => {
                let before = text.len();
                let old = sel.clone();
                *sel = apply(text, sel.clone(), &edit);
                list.typed(inserted(&edit));
                split.changed |= text.len() != before
                    || *sel != old
                    || matches!(edit, Edit::Tab | Edit::Outdent);
            }
            // The first event the editor does not apply itself stays in this
            // frame (an app shortcut runs before the text field).
            Role::TextField | Role::Barrier if phase == 0 => {
                split.now.push(event);
                phase = 1;
            }
            Role::TextField => split.now.push(event),
            Role::Edit(edit @ (Edit::Insert(_) | Edit::Backspace | Edit::Delete)) => {
                // The text field types it, after the cursor keys before it.
                list.typed(inserted(&edit));
                split.now.push(event);
            }
            Role::Edit(_) | Role::Barrier => {
                split.later.push(event);
                phase = 2;
            }
        }
    }
    split
}

/// The text `edit` inserts, for the completion list (`None`: it deletes or
/// breaks lines).
fn inserted(edit: &Edit) -> Option<&str> {
    match edit {
        Edit::Insert(t) => Some(t),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Proposes nothing anywhere.
    struct Nothing;

    impl Propose for Nothing {
        fn propose(&mut self, _: &str, _: usize) -> Vec<skelpad_ide::analysis::Proposal> {
            Vec::new()
        }
    }

    fn key(key: Key) -> Event {
        Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: Modifiers::NONE,
        }
    }

    fn text(t: &str) -> Event {
        Event::Text(t.to_owned())
    }

    #[test]
    fn a_burst_is_applied_in_order_with_auto_indent() {
        let mut t = String::new();
        let mut sel = 0..0;
        let events = vec![
            text("skeleton"),
            key(Key::Enter),
            text("\tarm x10"),
            key(Key::Enter),
            key(Key::Enter),
            text("leg"),
        ];
        let split = apply_in_order(&mut t, &mut sel, events, &mut List::default(), &mut Nothing);
        assert_eq!(t, "skeleton\n\tarm x10\n\t\n\tleg");
        assert_eq!(sel, t.len()..t.len());
        assert!(split.changed && split.now.is_empty() && split.later.is_empty());
    }

    #[test]
    fn the_rest_waits_behind_a_key_the_text_field_handles() {
        let mut t = String::from("ab");
        let mut sel = 2..2;
        let events = vec![text("c"), key(Key::ArrowLeft), text("d"), key(Key::Enter), text("e")];
        let split = apply_in_order(&mut t, &mut sel, events, &mut List::default(), &mut Nothing);
        assert_eq!(t, "abc");
        assert_eq!(split.now, vec![key(Key::ArrowLeft), text("d")]);
        assert_eq!(split.later, vec![key(Key::Enter), text("e")]);
    }

    #[test]
    fn backspace_delete_and_tabs_edit_the_buffer() {
        let mut t = String::from("é\tx\ny");
        // Backspace after `é` removes the whole character.
        assert_eq!(apply(&mut t, 2..2, &Edit::Backspace), 0..0);
        assert_eq!(t, "\tx\ny");
        assert_eq!(apply(&mut t, 0..0, &Edit::Delete), 0..0);
        assert_eq!(t, "x\ny");
        // Tab over two lines indents both and selects them.
        assert_eq!(apply(&mut t, 0..3, &Edit::Tab), 0..5);
        assert_eq!(t, "\tx\n\ty");
        // Shift+Tab with a cursor keeps it on its line.
        assert_eq!(apply(&mut t, 5..5, &Edit::Outdent), 4..4);
        assert_eq!(t, "\tx\ny");
        // Enter copies spaces and tabs before the cursor.
        let mut t = String::from("\t  ab");
        assert_eq!(apply(&mut t, 4..4, &Edit::Newline), 8..8);
        assert_eq!(t, "\t  a\n\t  b");
        // Bare line breaks as text are ignored (Enter makes them).
        assert_eq!(apply(&mut t, 0..0, &Edit::Insert("\r".into())), 0..0);
    }
}
