//! The editor driven through its real UI with egui_kittest: no display, no
//! GPU. Time is mocked by setting the input's clock.

#![cfg(feature = "app")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod completion_typing;
mod files;
mod typing;
mod view;

use crate::write;
use eframe::egui::{Event, Key, Modifiers, PointerButton, Pos2, ViewportEvent, ViewportId};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use skelpad::app::files::{FileDialogs, PendingDialog};
use skelpad::app::help::EXAMPLES;
use skelpad::app::{Services, SkelpadApp};
use skelpad::model::{AnimId, SkinId};
use skelpad::runtime::evaluate;

/// File dialogs that answer from a queue, and remember what was asked.
#[derive(Clone, Default)]
struct ScriptedDialogs {
    answers: Arc<Mutex<VecDeque<Option<PathBuf>>>>,
    asked: Arc<Mutex<Vec<String>>>,
    /// Like a desktop without a portal: no dialog can be shown.
    unavailable: Arc<std::sync::atomic::AtomicBool>,
}

impl ScriptedDialogs {
    fn answer(&self, path: Option<&Path>) {
        self.answers.lock().unwrap().push_back(path.map(Path::to_path_buf));
    }

    fn next(&self, what: &str) -> PendingDialog {
        self.asked.lock().unwrap().push(what.to_owned());
        if self.unavailable.load(std::sync::atomic::Ordering::Relaxed) {
            return PendingDialog::unavailable();
        }
        PendingDialog::ready(self.answers.lock().unwrap().pop_front().flatten())
    }
}

impl FileDialogs for ScriptedDialogs {
    fn pick_open(&self, _start_dir: Option<&Path>) -> PendingDialog {
        self.next("open")
    }

    fn pick_save(
        &self,
        purpose: &str,
        _start_dir: Option<&Path>,
        _suggested: &str,
        _extension: &str,
    ) -> PendingDialog {
        self.next(purpose)
    }
}

struct Setup {
    file: Option<PathBuf>,
    dialogs: ScriptedDialogs,
    recovery_dir: Option<PathBuf>,
    watch: bool,
}

impl Setup {
    fn new(file: Option<&Path>) -> Self {
        Setup {
            file: file.map(Path::to_path_buf),
            dialogs: ScriptedDialogs::default(),
            recovery_dir: None,
            watch: false,
        }
    }

    fn build(&self) -> Harness<'static, SkelpadApp> {
        let services = Services {
            dialogs: Box::new(self.dialogs.clone()),
            recovery_dir: self.recovery_dir.clone(),
            watch_files: self.watch,
        };
        let file = self.file.clone();
        let mut h = Harness::builder()
            .with_size([1280.0, 800.0])
            .build_eframe(move |cc| SkelpadApp::new(cc, file, services));
        h.run_steps(2);
        h
    }
}

const RIG: &str = "skeleton\n\tarm l40\n\t\t@ :rect x20 w40 h10\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 90 -> 0\n";

/// Puts the editor cursor at byte `at` and gives the editor focus.
fn focus_editor_at(h: &mut Harness<'_, SkelpadApp>, at: usize) {
    // Not by clicking the middle of the text field: with a long script that
    // point is under the Problems panel.
    h.ctx.memory_mut(|m| m.request_focus(skelpad::app::editor::editor_id()));
    h.run_steps(1);
    h.state_mut().editor.select(at..at);
    h.run_steps(2);
}

fn click_at(h: &mut Harness<'_, SkelpadApp>, pos: Pos2) {
    h.event(Event::PointerMoved(pos));
    h.event(Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.event(Event::PointerButton {
        pos,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(2);
}

fn bone_names(h: &Harness<'_, SkelpadApp>) -> Vec<String> {
    h.state().doc.analysis.comp().armature.skeleton.bones.iter().map(|b| b.name.clone()).collect()
}

/// Steps the app until `done` holds, for at most a few seconds of real time
/// (file events arrive from the watcher's thread).
fn step_until(h: &mut Harness<'_, SkelpadApp>, done: impl FnMut(&SkelpadApp) -> bool) -> bool {
    step_within(h, Duration::from_secs(60), done)
}

fn step_within(
    h: &mut Harness<'_, SkelpadApp>,
    limit: Duration,
    mut done: impl FnMut(&SkelpadApp) -> bool,
) -> bool {
    let start = Instant::now();
    let mut clock = h.state().now();
    while start.elapsed() < limit {
        clock += 0.05;
        h.input_mut().time = Some(clock);
        h.step();
        if done(h.state()) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// eframe storage in memory.
#[derive(Default)]
struct MemoryStorage(std::collections::HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

// --- Typing: every keystroke kept, in order ---------------------------------

fn key_event(key: Key, modifiers: Modifiers, pressed: bool) -> Event {
    Event::Key { key, physical_key: None, pressed, repeat: false, modifiers }
}

/// A key press and its release, as a keyboard sends them.
fn press(h: &mut Harness<'_, SkelpadApp>, key: Key, modifiers: Modifiers) {
    h.event(key_event(key, modifiers, true));
    h.event(key_event(key, modifiers, false));
}

/// Opens an empty script (a path that does not exist yet) with the cursor in it.
fn empty_script(dir: &Path) -> (Harness<'static, SkelpadApp>, PathBuf) {
    let path = dir.join("typed.skel2d");
    let mut h = Setup::new(Some(&path)).build();
    focus_editor_at(&mut h, 0);
    (h, path)
}

// --- Nothing the compiler accepts freezes the editor --------------------------

/// One frame the way eframe runs it (the app, then egui's tessellation),
/// in a plain context: no accessibility tree unless a screen reader asks.
fn timed_frame(ctx: &eframe::egui::Context, app: &mut SkelpadApp, clock: f64) -> Duration {
    use eframe::egui::{RawInput, Rect, Vec2};
    let input = RawInput {
        screen_rect: Some(Rect::from_min_size(Pos2::ZERO, Vec2::new(1400.0, 860.0))),
        time: Some(clock),
        ..Default::default()
    };
    let start = Instant::now();
    let mut output = ctx.run_ui(input, |ui| app.frame(ui));
    output.textures_delta.clear();
    let _ = ctx.tessellate(output.shapes, output.pixels_per_point);
    start.elapsed()
}

// --- Replacing the document: the pane shows the new text at once ------------

/// The text field drew exactly the document's text in the last frame.
fn assert_pane_shows_the_document(h: &Harness<'_, SkelpadApp>, what: &str) {
    let app = h.state();
    assert_eq!(app.editor.shown_text(), Some(app.doc.text.as_str()), "after {what}");
}
