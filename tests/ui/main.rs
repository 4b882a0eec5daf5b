//! The editor's tests (feature `app`), driven through egui_kittest with no
//! display: typing, menus, drags, and the highlighter's roles.

#![cfg(feature = "app")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

mod agreement;
mod anim_menu_ui;
mod assist_ui;
mod big_file;
mod burst_ui;
mod canvas_kept;
mod curve_ui;
mod dopesheet_keys_ui;
mod dopesheet_ui;
mod drag_ui;
mod editor_ui;
mod framing;
mod lottie_ui;
mod props_ui;
mod roles;
mod transition_ui;

use std::path::{Path, PathBuf};

use eframe::egui::{Event, Modifiers, PointerButton, Pos2, Rect};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use skelpad::app::files::{FileDialogs, PendingDialog};
use skelpad::app::{Services, SkelpadApp};

/// File dialogs that answer "cancelled" at once (the drag and dopesheet
/// tests open files from the command line only).
struct NoDialogs;

impl FileDialogs for NoDialogs {
    fn pick_open(&self, _start_dir: Option<&Path>) -> PendingDialog {
        PendingDialog::ready(None)
    }

    fn pick_save(
        &self,
        _purpose: &str,
        _start_dir: Option<&Path>,
        _suggested: &str,
        _extension: &str,
    ) -> PendingDialog {
        PendingDialog::ready(None)
    }
}

/// The editor on `path` in a window of `size`, after its first frames.
fn open_sized(path: &Path, size: [f32; 2]) -> Harness<'static, SkelpadApp> {
    let file = Some(path.to_path_buf());
    let mut h = Harness::builder().with_size(size).build_eframe(move |cc| {
        SkelpadApp::new(
            cc,
            file,
            Services { dialogs: Box::new(NoDialogs), recovery_dir: None, watch_files: false },
        )
    });
    h.run_steps(3);
    h
}

/// Writes `text` to `dir/name` and returns its path.
fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Presses the primary button at `a` (holding `modifiers`), moves to `b`
/// in `steps` even steps (a frame each), releases, and lets two frames run.
pub(crate) fn pointer_drag(
    h: &mut Harness<'_, SkelpadApp>,
    a: Pos2,
    b: Pos2,
    modifiers: Modifiers,
    steps: u32,
) {
    h.event(Event::ModifiersChanged(modifiers));
    h.event(Event::PointerMoved(a));
    h.run_steps(1);
    h.event(Event::PointerButton {
        pos: a,
        button: PointerButton::Primary,
        pressed: true,
        modifiers,
    });
    h.run_steps(1);
    for i in 1..=steps {
        h.event(Event::PointerMoved(a + (b - a) * (i as f32 / steps as f32)));
        h.run_steps(1);
    }
    h.event(Event::PointerButton {
        pos: b,
        button: PointerButton::Primary,
        pressed: false,
        modifiers,
    });
    h.run_steps(2);
}

/// Asserts that every control of the timeline toolbar, the scrub bar and
/// each of `more` is found and lies inside `screen`.
pub(crate) fn assert_toolbar_on_screen(h: &Harness<'_, SkelpadApp>, screen: Rect, more: &[&str]) {
    let playing = if h.state().playback.playing { "Pause" } else { "Play" };
    let toolbar = [
        "Animation",
        "Skin",
        "|<",
        "<",
        playing,
        ">",
        ">|",
        "Loop",
        "Speed",
        "Bones",
        "Onion skin",
        "Grid",
        "Drag bones",
        "Drag shapes",
        "Snap",
        "Fit",
        "Scrub bar",
    ];
    for label in toolbar.iter().chain(more) {
        let nodes: Vec<_> = h.get_all_by_label(label).collect();
        assert!(!nodes.is_empty(), "no {label}");
        for n in nodes {
            let r = n.rect();
            assert!(
                screen.contains_rect(r) && r.width() > 0.0,
                "{label} at {r:?} is not inside the window {screen:?}"
            );
        }
    }
}
