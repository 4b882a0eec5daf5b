//! Every key and modifier the editor answers to, named once. The handlers
//! match these constants, and Help ▸ Keyboard shortcuts is drawn from
//! [`TABLE`], which is built from the same constants — a key added to a
//! handler through this module cannot be missing from Help.

use egui::{Key, KeyboardShortcut, Modifiers};

const fn sc(modifiers: Modifiers, key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(modifiers, key)
}

const CMD: Modifiers = Modifiers::COMMAND;
const NONE: Modifiers = Modifiers::NONE;
const CMD_SHIFT: Modifiers = Modifiers { shift: true, ..Modifiers::COMMAND };

// --- Anywhere in the window ---------------------------------------------------
/// New script.
pub const NEW: KeyboardShortcut = sc(CMD, Key::N);
/// Open a script.
pub const OPEN: KeyboardShortcut = sc(CMD, Key::O);
/// Save.
pub const SAVE: KeyboardShortcut = sc(CMD, Key::S);
/// Save as.
pub const SAVE_AS: KeyboardShortcut = sc(CMD_SHIFT, Key::S);
/// Undo.
pub const UNDO: KeyboardShortcut = sc(CMD, Key::Z);
/// Redo (and [`REDO_Y`]).
pub const REDO: KeyboardShortcut = sc(CMD_SHIFT, Key::Z);
/// Redo.
pub const REDO_Y: KeyboardShortcut = sc(CMD, Key::Y);
/// Go to the definition of the name at the cursor.
pub const DEFINITION: KeyboardShortcut = sc(NONE, Key::F12);

// --- The script -------------------------------------------------------------
/// Open the find bar.
pub const FIND: KeyboardShortcut = sc(CMD, Key::F);
/// Open the completion list.
pub const COMPLETE: KeyboardShortcut = sc(Modifiers::CTRL, Key::Space);

// --- The canvas -------------------------------------------------------------
/// Play or pause (on release, unless Space was held to pan).
pub const PLAY: KeyboardShortcut = sc(NONE, Key::Space);
/// Previous frame.
pub const PREV_FRAME: KeyboardShortcut = sc(NONE, Key::ArrowLeft);
/// Next frame.
pub const NEXT_FRAME: KeyboardShortcut = sc(NONE, Key::ArrowRight);
/// First frame.
pub const FIRST_FRAME: KeyboardShortcut = sc(NONE, Key::Home);
/// Last frame.
pub const LAST_FRAME: KeyboardShortcut = sc(NONE, Key::End);
/// Fit the animation in view (and [`FIT_ZERO`]).
pub const FIT: KeyboardShortcut = sc(NONE, Key::F);
/// Fit the animation in view.
pub const FIT_ZERO: KeyboardShortcut = sc(CMD, Key::Num0);
/// Held while dragging: a bone scales instead of turning, a shape turns
/// instead of moving.
pub const DRAG_ALTERNATE: Modifiers = Modifiers::SHIFT;
/// Held while dragging: values snap (as View ▸ Snap does).
pub const DRAG_SNAP: Modifiers = Modifiers::ALT;

// --- The dopesheet ------------------------------------------------------------
/// Key the selected row's properties at the current frame.
pub const INSERT_KEY: KeyboardShortcut = sc(NONE, Key::K);
/// Delete the selected keys (and [`DELETE_KEYS_BACK`]).
pub const DELETE_KEYS: KeyboardShortcut = sc(NONE, Key::Delete);
/// Delete the selected keys.
pub const DELETE_KEYS_BACK: KeyboardShortcut = sc(NONE, Key::Backspace);
/// Copy the selected keys.
pub const COPY_KEYS: KeyboardShortcut = sc(CMD, Key::C);
/// Paste keys at the frame under the pointer (else the current frame).
pub const PASTE_KEYS: KeyboardShortcut = sc(CMD, Key::V);
/// Held while clicking keys: add to (or take from) the selection.
pub const EXTEND_SELECTION: Modifiers = Modifiers::SHIFT;

/// What starts an action in Help's table.
#[derive(Clone, Copy, Debug)]
pub enum Trigger {
    /// Keys (any of them).
    Keys(&'static [KeyboardShortcut]),
    /// A modifier held during a pointer gesture (`gesture`: "drag", …).
    Held(Modifiers, &'static str),
    /// A key the text field handles itself, or a pointer gesture alone.
    Other(&'static str),
}

/// One row of Help ▸ Keyboard shortcuts.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// Where it applies.
    pub place: &'static str,
    /// What starts it.
    pub trigger: Trigger,
    /// What it does.
    pub what: &'static str,
}

const fn keys(place: &'static str, k: &'static [KeyboardShortcut], what: &'static str) -> Entry {
    Entry { place, trigger: Trigger::Keys(k), what }
}

const fn other(place: &'static str, how: &'static str, what: &'static str) -> Entry {
    Entry { place, trigger: Trigger::Other(how), what }
}

/// Every row of Help ▸ Keyboard shortcuts, by place.
pub const TABLE: &[Entry] = &[
    keys("Anywhere", &[NEW], "New script"),
    keys("Anywhere", &[OPEN], "Open a script"),
    keys("Anywhere", &[SAVE], "Save"),
    keys("Anywhere", &[SAVE_AS], "Save as"),
    keys("Anywhere", &[UNDO], "Undo (the status bar says what was undone)"),
    keys("Anywhere", &[REDO, REDO_Y], "Redo"),
    keys("Script", &[DEFINITION], "Go to the definition of the name at the cursor"),
    keys("Script", &[FIND], "Find (Enter: next, Shift+Enter: previous, Escape: close)"),
    other("Script", "Enter", "New line with the indentation of the current one"),
    keys(
        "Script",
        &[COMPLETE],
        "Complete the word at the cursor (Up/Down choose, Enter or Tab insert, Escape closes)",
    ),
    other(
        "Script",
        "Tab (list open)",
        "Insert the chosen completion; a list that opened by itself takes Enter only after Up/Down",
    ),
    other("Script", "Tab / Shift+Tab", "Indent / outdent the selected lines"),
    keys("Canvas", &[PLAY], "Play or pause (canvas focused or under the pointer)"),
    keys("Canvas", &[PREV_FRAME, NEXT_FRAME], "Previous / next frame"),
    keys("Canvas", &[FIRST_FRAME, LAST_FRAME], "First / last frame"),
    keys("Canvas", &[FIT, FIT_ZERO], "Fit the animation in view"),
    other("Canvas", "Mouse wheel, pinch", "Zoom around the pointer"),
    other("Canvas", "Middle or right drag, Space+drag", "Pan"),
    other("Canvas", "Click", "Select a bone or shape and put the cursor on its line"),
    other("Canvas", "Drag", "Turn a bone (its origin: move it); move a shape"),
    Entry {
        place: "Canvas",
        trigger: Trigger::Held(DRAG_ALTERNATE, "drag"),
        what: "Scale a bone; turn a shape",
    },
    Entry {
        place: "Canvas",
        trigger: Trigger::Held(DRAG_SNAP, "drag"),
        what: "Snap while dragging (as the View menu's Snap)",
    },
    keys("Dopesheet", &[INSERT_KEY], "Key the selected row at the current frame"),
    keys("Dopesheet", &[DELETE_KEYS, DELETE_KEYS_BACK], "Delete the selected keys"),
    keys("Dopesheet", &[COPY_KEYS], "Copy the selected keys"),
    keys(
        "Dopesheet",
        &[PASTE_KEYS],
        "Paste keys at the frame under the pointer, else the current frame",
    ),
    Entry {
        place: "Dopesheet",
        trigger: Trigger::Held(EXTEND_SELECTION, "click"),
        what: "Add a key to the selection, or take it out",
    },
    other("Dopesheet", "Drag keys", "Move them (the text's advances change, nothing else)"),
    other(
        "Curve editor",
        "Select one key",
        "Show its segment's curve beside the property's value graph",
    ),
    other(
        "Curve editor",
        "Drag a handle",
        "Reshape the segment (only its bz numbers change; one undo step)",
    ),
    other("Curve editor", "Easing", "Write a named easing or preset for the segment"),
    other("Curve editor", "Click a graph point", "Select that key in the dopesheet"),
];

/// A modifier set as Help writes it ("Ctrl+Shift"; Cmd on a Mac).
fn modifiers_text(m: Modifiers) -> String {
    let names = egui::ModifierNames::NAMES;
    names.format(&m, cfg!(target_os = "macos"))
}

/// A shortcut as Help writes it: "Ctrl+S", "F12", "Left".
pub fn shortcut_text(s: &KeyboardShortcut) -> String {
    let key = match s.logical_key {
        Key::ArrowLeft => "Left",
        Key::ArrowRight => "Right",
        Key::ArrowUp => "Up",
        Key::ArrowDown => "Down",
        k => k.name(),
    };
    let m = modifiers_text(s.modifiers);
    if m.is_empty() { key.to_owned() } else { format!("{m}+{key}") }
}

/// What starts an entry, as Help writes it.
pub fn trigger_text(t: &Trigger) -> String {
    match t {
        Trigger::Keys(k) => k.iter().map(shortcut_text).collect::<Vec<_>>().join(", "),
        Trigger::Held(m, gesture) => format!("{}+{gesture}", modifiers_text(*m)),
        Trigger::Other(s) => (*s).to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_writes_keys_as_people_say_them() {
        let texts: Vec<String> = TABLE.iter().map(|e| trigger_text(&e.trigger)).collect();
        let has = |s: &str| texts.iter().any(|t| t == s);
        if !cfg!(target_os = "macos") {
            assert!(has("Ctrl+Shift+S"), "{texts:?}");
            assert!(has("Ctrl+F, Ctrl+0") || has("F, Ctrl+0"), "{texts:?}");
            assert!(has("Ctrl+Space"), "{texts:?}");
            assert!(has("Alt+drag") && has("Shift+drag") && has("Shift+click"), "{texts:?}");
        }
        assert!(has("F12") && has("K") && has("Left, Right") && has("Delete, Backspace"));
        assert!(TABLE.iter().all(|e| !e.what.is_empty()));
    }
}
