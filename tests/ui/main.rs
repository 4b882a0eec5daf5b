//! The editor's tests (feature `app`), driven through egui_kittest with no
//! display: typing, menus, drags, and the highlighter's roles.

#![cfg(feature = "app")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

mod assist_ui;
mod big_file;
mod dopesheet_keys_ui;
mod dopesheet_ui;
mod drag_ui;
mod editor_ui;
mod lottie_ui;
mod props_ui;
mod roles;

use std::path::{Path, PathBuf};

use egui_kittest::Harness;
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
