//! The dopesheet: one row per animated item (bone or slot) of the selected
//! animation and one per property under it, with a diamond per key, all
//! read from the compiler's source map; and moving a key in time, written
//! back into the text.
//!
//! [`move_key`] is a pure function of the text, its compilation and the
//! key wanted where: it changes only the frame tokens around the key (the
//! advance before it and the one after it, so that the next key stays
//! where it was), then proves the result by compiling it — every key of the
//! animation must be where it was, but the moved one at its new frame with
//! its value unchanged — and refuses with a reason otherwise.
//!
//! Shown with View ▸ Dopesheet under the timeline: rows of one height, drawn
//! virtualised in a scroll area of at most a quarter of the window that the
//! pointer does not drag (drags are for keys), read from the source map
//! (`timelines`, `keys_of`). Keys are hovered (value, line, easing: eased keys
//! are dots, linear ones diamonds, from the compiled channel, `key_easing`),
//! double-clicked (cursor to the value token) and dragged in whole frames. A
//! move rewrites a relative `+N:` by the move, turns a plain advance into an
//! absolute `F:S:E>`, moves the `F` of the `F:>` that placed the key, or
//! inserts an `F:>`; loop and relative keys, replaced timelines and moves onto
//! a neighbour are refused first. A drag keeps the text and compilation it
//! started from (`KeyDrag`), so it is one undo step.
//!
//! Selection: click, Shift-click, a box drawn on empty space; Delete removes
//! the selected keys (`delete_keys`, each verified), dragging one moves them
//! all (`move_keys`, the one moving towards its neighbour first); Ctrl+C and
//! Ctrl+V copy plain keys and paste them at the playhead into the same items'
//! timelines (`paste_keys` → `insert_key`), onto the row under the pointer or
//! the row clicked last. An item's own row has a diamond per frame where any
//! of its properties has a key, so a folded item is still edited. K (or a
//! row's menu) keys the row's timelines at the playhead with the value the
//! animation has there (`value_at`), through `insert_key`. The rows and the
//! scrub bar share one `FrameScale` while the dopesheet is shown, so a frame
//! has one x in both. The text edits and their verification are language
//! features, `skelpad_ide::edits::keys` (tested there without a window);
//! here are `draw`, `select` and `app` (one undo step per edit).

mod app;
pub(in crate::app) mod draw;
mod select;

pub use app::KeyDrag;
pub use skelpad_ide::edits::{
    CopiedKey, delete_key, delete_keys, insert_key, key_easing, move_key, move_keys, paste_keys,
    target_name, value_at,
};

use crate::compile::{Compilation, Target};
use crate::model::AnimId;

/// The easing as the scripts write it.
fn easing_name(e: crate::model::Easing) -> String {
    e.to_string()
}

/// What the dopesheet is drawn from this frame.
pub struct DopeInput<'a> {
    /// The script.
    pub text: &'a str,
    /// Its compilation (the source map the rows come from).
    pub comp: &'a Compilation,
    /// The animation shown.
    pub anim: AnimId,
    /// The playhead, in frames.
    pub playhead: f64,
    /// The current frame: the frame the playhead is on, as the timeline's
    /// readout shows it ([`crate::app::timeline::Playback::frame`]); keys
    /// are inserted and pasted there.
    pub frame: f64,
    /// The rows' height at most (the rest scrolls).
    pub max_height: f32,
    /// Keys can be moved (the text compiles to what is shown).
    pub editable: bool,
    /// The bone or slot selected on the canvas or in the outline: K keys it
    /// when no row is under the pointer or chosen.
    pub selected_item: Option<Target>,
}

/// What the dopesheet asks of the app this frame.
#[derive(Debug, Default)]
pub struct DopeOutput {
    /// A key was double-clicked: where its value is written.
    pub jump: Option<crate::syntax::Span>,
    /// A key drag began: (timeline index, key index).
    pub drag_start: Option<(usize, usize)>,
    /// The drag in progress wants its key this many frames from where it
    /// started (whole frames).
    pub drag_to: Option<f64>,
    /// The drag ended.
    pub drag_end: bool,
    /// Delete was pressed with a key focused: delete the selected keys.
    pub delete: bool,
    /// Ctrl+V: paste these keys (the copied ones, put on the row under the
    /// pointer or chosen) at the playhead.
    pub paste: Option<Vec<CopiedKey>>,
    /// K or a row's menu: key these timelines (indices into
    /// `comp.sources.timelines`) at the playhead.
    pub insert: Vec<usize>,
}

/// A row of the dopesheet: an item (`prop` `None`) or one of its
/// properties. Named by what it shows, so that it outlives edits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowId {
    /// The bone or slot.
    pub target: Option<Target>,
    /// The property, on a property row.
    pub prop: Option<crate::syntax::tree::TimelineProp>,
}

/// The dopesheet's own state: collapsed items, the selection, the drag in
/// progress and the copied keys.
#[derive(Default)]
pub struct Dopesheet {
    /// Items (by name) whose property rows are hidden.
    pub collapsed: std::collections::HashSet<String>,
    /// The drag in progress: pointer x and points per frame where it began.
    drag: Option<(f32, f32)>,
    /// A box selection in progress: where it began and where the pointer is.
    boxing: Option<(egui::Pos2, egui::Pos2)>,
    /// The selected keys (timeline index, key index), valid for the text
    /// with this fingerprint (an edit clears them).
    pub selected: Vec<(usize, usize)>,
    selected_for: u64,
    /// The key clicked last (it has the keyboard focus for Delete).
    focus: Option<egui::Id>,
    /// The row clicked last (Ctrl+V and K act on it when the pointer is on
    /// no row).
    pub current: Option<RowId>,
    /// The row under the pointer this frame.
    hovered: Option<RowId>,
    /// The keys Ctrl+C copied.
    pub clipboard: Vec<CopiedKey>,
    /// A row's menu asked to collapse (`true`) or expand every item.
    collapse_all: Option<bool>,
}

/// The last segment of a dotted name, as items are written (`@` kept for
/// slots: `@hip.arm` → `@arm`).
fn short_name(name: &str) -> String {
    let last = name.rsplit('.').next().unwrap_or(name);
    if name.starts_with('@') && !last.starts_with('@') {
        format!("@{last}")
    } else {
        last.to_owned()
    }
}

/// A fingerprint of the text the selection indexes.
fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// The width of the rows' labels in a panel `width` wide: 130 points,
/// less in a narrow panel so that the lane keeps room (the scrub bar
/// leaves the same room when the dopesheet is shown, so that a frame has
/// one x in both).
pub fn label_width(width: f32) -> f32 {
    (width * 0.25).clamp(72.0, 130.0)
}

/// Where frames are drawn: the scrub bar (with the dopesheet shown) and
/// the dopesheet's rows share it, so that a frame has one x in both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameScale {
    /// The x of frame 0.
    pub x0: f32,
    /// Points per frame.
    pub per_frame: f32,
}

impl Dopesheet {
    /// After an edit that kept every key's index (a move), the selection
    /// stays on the same keys of the new text `text`.
    pub fn keep_selection(&mut self, text: &str) {
        self.selected_for = fingerprint(text);
    }
}

impl FrameScale {
    /// For a panel spanning `left..right` and an animation of `last`
    /// frames: the lane starts after the labels and leaves room past the
    /// last frame (a key can be dragged later) and for a scroll bar.
    pub fn new(left: f32, right: f32, last: f64) -> Self {
        let last = last.max(1.0);
        let shown = last + (last / 5.0).ceil().max(2.0);
        let x0 = left + label_width(right - left) + 6.0;
        let width = (right - 20.0 - x0).max(1.0);
        Self { x0, per_frame: width / shown as f32 }
    }

    /// The x of `frame`.
    pub fn x_of(&self, frame: f64) -> f32 {
        self.x0 + frame as f32 * self.per_frame
    }
}
