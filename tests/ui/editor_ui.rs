//! The editor driven through its real UI with egui_kittest: no display, no
//! GPU. Time is mocked by setting the input's clock.

#![cfg(feature = "app")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    h.state().doc.analysis.comp.armature.skeleton.bones.iter().map(|b| b.name.clone()).collect()
}

#[test]
fn the_example_opens_and_every_widget_has_a_name() {
    let mut h = Setup::new(None).build();
    assert!(h.state().doc.text.starts_with("# walk_cycle.skel2d"));
    assert!(!h.state().doc.analysis.comp.has_errors());
    assert!(h.state().playback.playing);
    h.check_accessibility();
    h.get_by_label("Animation");
    h.get_by_label("Scrub bar");
    h.get_by_label("Problems");
    h.run_steps(1);
}

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
    assert!(h.state().doc.analysis.comp.diagnostics.is_empty());
    // The canvas poses the new bone in the same frame.
    assert_eq!(h.state().pose.bones.len(), 2);

    // A bad token: an error appears in the list, in the same frame.
    h.get_by_label("Script").type_text(" zz");
    h.step();
    let diags = &h.state().doc.analysis.comp.diagnostics;
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
    let diag = h.state().doc.analysis.comp.diagnostics.first().cloned().expect("an error");
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
fn scrubbing_changes_the_pose() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    let rect = h.get_by_label("Scrub bar").rect();
    // Halfway along the bar: frame 5 of 10, where the arm is at 90°.
    click_at(&mut h, Pos2::new(rect.center().x, rect.center().y));
    let app = h.state();
    assert!(!app.playback.playing, "scrubbing pauses");
    assert!((app.playback.time_secs - 0.5).abs() < 0.051, "{}", app.playback.time_secs);
    let arm = &app.doc.analysis.shown;
    let expected = evaluate(arm, Some(AnimId(0)), SkinId(0), app.playback.time_secs);
    assert_eq!(app.pose, expected);
    let setup = evaluate(arm, Some(AnimId(0)), SkinId(0), 0.0);
    assert_ne!(app.pose.bones[0].world, setup.bones[0].world);
}

#[test]
fn playing_advances_with_the_mocked_clock_and_loops() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    assert!(h.state().playback.playing);
    let t0 = 100.0;
    let mut times = Vec::new();
    for i in 0..=12 {
        h.input_mut().time = Some(t0 + 0.2 * f64::from(i));
        h.step();
        times.push(h.state().playback.time_secs);
    }
    // 12 × 0.2 s = 2.4 s of a 1 s animation: it wrapped to 0.4 s.
    assert!((times[12] - 0.4).abs() < 1e-6, "{times:?}");
    assert!(times.windows(2).any(|w| w[1] < w[0]), "looped: {times:?}");
    let app = h.state();
    let expected =
        evaluate(&app.doc.analysis.shown, Some(AnimId(0)), SkinId(0), app.playback.time_secs);
    assert_eq!(app.pose, expected);
    let setup = evaluate(&app.doc.analysis.shown, Some(AnimId(0)), SkinId(0), 0.0);
    assert_ne!(app.pose.bones[0].world, setup.bones[0].world);

    // Space on the focused canvas pauses; typing a space in the editor does not.
    let canvas = h.get_by_label("Canvas").rect();
    click_at(&mut h, canvas.center());
    h.key_press(Key::Space);
    h.run_steps(1);
    assert!(!h.state().playback.playing);
    h.key_press(Key::ArrowRight);
    h.run_steps(1);
    assert_eq!(h.state().playback.time_secs, 0.5);
    h.key_press(Key::Space);
    h.run_steps(1);
    assert!(h.state().playback.playing);
    focus_editor_at(&mut h, 0);
    h.key_press(Key::Space);
    h.get_by_label("Script").type_text(" ");
    h.run_steps(1);
    assert!(h.state().playback.playing);
    assert!(h.state().doc.text.starts_with(' '));
}

#[test]
fn save_as_open_and_the_unsaved_changes_prompt_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let setup = Setup::new(None);
    let mut h = setup.build();
    // Edit the example and save it: Ctrl+S asks where (it has no file yet).
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("# mine\n");
    h.run_steps(1);
    assert!(h.state().doc.is_dirty());
    let saved = dir.path().join("walk.skel2d");
    setup.dialogs.answer(Some(&saved));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert!(!h.state().doc.is_dirty());
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), h.state().doc.text);
    assert!(h.state().doc.text.starts_with("# mine\n"));
    assert_eq!(
        h.state().settings.recent_files.first(),
        Some(&std::fs::canonicalize(&saved).unwrap())
    );

    // Another edit, then Open: the prompt appears; Cancel keeps everything.
    h.get_by_label("Script").type_text("# more\n");
    h.run_steps(1);
    let other = write(dir.path(), "other.skel2d", RIG);
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    assert!(h.state().has_prompt());
    h.get_by_label("Unsaved changes");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(!h.state().has_prompt());
    assert!(h.state().doc.text.contains("# more"));
    assert_eq!(setup.dialogs.asked.lock().unwrap().as_slice(), ["Save script as"]);

    // Open again and choose "Don't save": the dialog opens the other file.
    setup.dialogs.answer(Some(&other));
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    h.get_by_label("Don't save").click();
    h.run_steps(3);
    assert_eq!(h.state().doc.text, RIG);
    assert_eq!(h.state().doc.path.as_deref(), Some(other.as_path()));
    assert!(!std::fs::read_to_string(&saved).unwrap().contains("# more"), "discarded, not saved");

    // Edit, then New with "Save": the file is saved before the new buffer.
    focus_editor_at(&mut h, RIG.len());
    h.get_by_label("Script").type_text("\tleg");
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), format!("{RIG}\tleg"));
    assert_eq!(h.state().doc.text, "");
    assert!(h.state().doc.path.is_none());
}

#[test]
fn closing_the_window_with_unsaved_changes_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("# x\n");
    h.run_steps(1);
    h.input_mut().viewports.entry(ViewportId::ROOT).or_default().events.push(ViewportEvent::Close);
    h.run_steps(2);
    assert!(h.state().has_prompt());
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(!h.state().has_prompt());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), RIG, "nothing saved or lost");
    assert!(h.state().doc.text.starts_with("# x\n"));
}

#[test]
fn crlf_files_are_saved_with_crlf() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "win.skel2d", &RIG.replace('\n', "\r\n"));
    let mut h = Setup::new(Some(&path)).build();
    assert_eq!(h.state().doc.text, RIG);
    focus_editor_at(&mut h, RIG.len());
    h.get_by_label("Script").type_text("\t\tx 0 -> 5\n");
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let on_disk = std::fs::read_to_string(&path).unwrap();
    assert_eq!(on_disk, format!("{RIG}\t\tx 0 -> 5\n").replace('\n', "\r\n"));
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

#[test]
fn external_changes_reload_a_clean_buffer_and_ask_for_a_dirty_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut setup = Setup::new(Some(&path));
    setup.watch = true;
    let mut h = setup.build();

    // Plain overwrite.
    let v2 = RIG.replace("l40", "l50");
    std::fs::write(&path, &v2).unwrap();
    assert!(step_until(&mut h, |app| app.doc.text == v2), "not reloaded");
    assert!(!h.state().doc.is_dirty());

    // Save by rename (write a temporary file, rename it over the original).
    let v3 = RIG.replace("l40", "l60");
    let tmp = write(dir.path(), ".rig.skel2d.tmp", &v3);
    std::fs::rename(&tmp, &path).unwrap();
    assert!(step_until(&mut h, |app| app.doc.text == v3), "not reloaded after a rename");

    // Delete and recreate.
    let v4 = RIG.replace("l40", "l70");
    std::fs::remove_file(&path).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    std::fs::write(&path, &v4).unwrap();
    assert!(step_until(&mut h, |app| app.doc.text == v4), "not reloaded after delete + recreate");

    // Our own save is not mistaken for an external change.
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("# mine\n");
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    assert!(
        !step_within(&mut h, Duration::from_millis(1500), |app| app.has_prompt()),
        "own save prompted"
    );

    // With unsaved changes, an external change asks.
    h.get_by_label("Script").type_text("# unsaved\n");
    h.run_steps(1);
    std::fs::write(&path, RIG).unwrap();
    assert!(step_until(&mut h, |app| app.has_prompt()), "no prompt");
    h.run_steps(1);
    h.get_by_label("Changed on disk");
    assert!(h.state().doc.text.contains("# unsaved"));
    h.get_by_label("Reload from disk").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG);
}

#[test]
fn unsaved_work_is_offered_back_after_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery");
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut setup = Setup::new(Some(&path));
    setup.recovery_dir = Some(recovery.clone());
    {
        let mut h = setup.build();
        focus_editor_at(&mut h, 0);
        h.get_by_label("Script").type_text("# precious\n");
        // A few seconds pass: the buffer reaches the recovery file.
        for t in [10.0, 12.0, 14.0] {
            h.input_mut().time = Some(t);
            h.step();
        }
        let files: Vec<_> = std::fs::read_dir(&recovery).unwrap().collect();
        assert_eq!(files.len(), 1);
        // The harness is dropped without closing: like a crash.
    }
    let mut h = setup.build();
    assert!(h.state().has_prompt());
    h.get_by_label("Recover unsaved changes?");
    h.get_by_label("Restore").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.text, format!("# precious\n{RIG}"));
    assert_eq!(h.state().doc.path.as_deref(), Some(path.as_path()));
    assert!(h.state().doc.is_dirty());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), RIG);
}

#[test]
fn clicking_a_bone_selects_it_and_moves_the_cursor_to_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = "skeleton\n\tbody l0\n\t\t@ :circle d30\n\tarm x100 l80\n";
    let path = write(dir.path(), "rig.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    let app = h.state();
    let rect = app.canvas.rect;
    // Halfway along the arm, in screen space.
    let p = app.view.screen_from_world(rect, 140.0, 0.0);
    click_at(&mut h, p);
    assert_eq!(h.state().selected, Some(skelpad::app::Selected::Bone("arm".into())));
    assert_eq!(h.state().editor.cursor, Some(text.find("arm").unwrap()));
    // The circle at the origin.
    let p = h.state().view.screen_from_world(rect, 3.0, 3.0);
    click_at(&mut h, p);
    assert_eq!(h.state().selected, Some(skelpad::app::Selected::Slot("body.body".into())));
    assert_eq!(h.state().editor.cursor, Some(text.find("@").unwrap()));
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

#[test]
fn theme_recent_files_view_settings_and_zoom_persist_between_runs() {
    use eframe::App as _;
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    // Choose through the menus as a user would.
    h.get_by_label("View").click();
    h.run_steps(3);
    h.get_by_label("Grid and axes").click();
    h.run_steps(1);
    h.get_by_label("Loop").click();
    h.run_steps(1);
    let mut storage = MemoryStorage::default();
    {
        let app = h.state_mut();
        app.settings.theme = skelpad::app::settings::Theme::Light;
        app.view.zoom = 7.5;
        app.save(&mut storage);
    }
    let before = h.state().settings.clone();
    assert!(!before.view.show_grid);
    assert!(!before.view.looping);

    let ctx = eframe::egui::Context::default();
    let mut cc = eframe::CreationContext::_new_kittest(ctx);
    cc.storage = Some(&storage);
    let services = Services {
        dialogs: Box::new(ScriptedDialogs::default()),
        recovery_dir: None,
        watch_files: false,
    };
    let app = SkelpadApp::new(&cc, Some(path.clone()), services);
    assert_eq!(app.settings, before);
    // The same file as last time: its view is kept, not fitted again.
    assert!(!app.canvas.fit_requested);
    assert_eq!(app.view.zoom, 7.5);
    assert!(!app.playback.looping);
    assert_eq!(app.settings.recent_files.first(), Some(&std::fs::canonicalize(&path).unwrap()));
}

#[test]
fn exports_run_in_the_background_and_write_their_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let setup = Setup::new(Some(&path));
    let mut h = setup.build();
    let out = dir.path().join("out").join("wave.gif");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    setup.dialogs.answer(Some(&out));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("Animated GIF…").click();
    h.run_steps(3);
    h.get_by_label("Export GIF");
    h.get_by_label("Choose file…").click();
    h.run_steps(1);
    assert_eq!(setup.dialogs.asked.lock().unwrap().as_slice(), ["Export GIF"]);
    // The UI keeps running frames while the worker writes the file.
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported GIF to wave.gif"))),
        "{:?}",
        h.state().status
    );
    assert_eq!(setup.dialogs.asked.lock().unwrap().as_slice(), ["Export GIF"]);
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"GIF89a"), "not a GIF");

    // A PNG sequence: one numbered file per frame (10 frames of the 1 s, 10 fps animation).
    let seq = dir.path().join("seq").join("frame.png");
    std::fs::create_dir_all(seq.parent().unwrap()).unwrap();
    setup.dialogs.answer(Some(&seq));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("PNG sequence…").click();
    h.run_steps(3);
    h.get_by_label("Choose file…").click();
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported PNG to frame.png"))),
        "{:?}",
        h.state().status
    );
    let pngs: Vec<_> = std::fs::read_dir(seq.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    assert!(pngs.len() >= 10, "{pngs:?}");
    assert!(pngs.iter().all(|p| std::fs::read(p).unwrap().starts_with(b"\x89PNG")));
}

#[test]
fn the_canvas_draws_the_shapes_through_the_render_pipeline() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    // The frame's shapes include the meshes of the rect and the bone overlay.
    let meshes = |h: &Harness<'_, SkelpadApp>| {
        h.output().shapes.iter().filter(|s| matches!(s.shape, eframe::egui::Shape::Mesh(_))).count()
    };
    assert!(meshes(&h) >= 1, "nothing drawn");
    assert!(h.state().drawing.warnings().is_empty());
    let vertices = |h: &Harness<'_, SkelpadApp>| {
        h.output()
            .shapes
            .iter()
            .map(|s| match &s.shape {
                eframe::egui::Shape::Mesh(m) => m.vertices.len(),
                _ => 0,
            })
            .sum::<usize>()
    };
    // Pause mid-animation so ghosts differ from the frame.
    h.state_mut().playback.playing = false;
    h.state_mut().playback.time_secs = 0.3;
    h.run_steps(2);
    let plain = vertices(&h);
    // Onion skin adds ghost frames; hiding the bones removes the overlay.
    h.get_by_label("Onion skin").click();
    h.run_steps(2);
    assert!(h.state().settings.view.onion_skin);
    assert!(vertices(&h) > plain, "onion skin drew no ghosts");
    h.get_by_label("Onion skin").click();
    h.get_by_label("Bones").click();
    h.run_steps(2);
    assert!(!h.state().settings.view.show_bones);
    assert!(vertices(&h) < plain, "the bone overlay is still drawn");
    // A missing sprite is reported on the canvas, not a crash.
    focus_editor_at(&mut h, RIG.find("anim").unwrap());
    h.get_by_label("Script").type_text("\t\t@pic :sprite \"missing.png\"\n");
    h.run_steps(2);
    assert!(
        h.state().drawing.warnings().iter().any(|w| w.message.contains("missing.png")),
        "{:?}",
        h.state().drawing.warnings()
    );
}

#[test]
fn playback_and_view_survive_edits_and_a_broken_line_keeps_the_picture() {
    let text = "skeleton\n\tarm l40\n\t\t@ :rect x20 w40 h10\n\tleg x50 l30\nanim \"one\"\n\tarm\n\t\tr 0 -> 90\nanim \"two\" 10fps\n\tleg\n\t\tr 0 --> 45\nskin \"blue\"\n\t@arm :rect x20 w40 h10 f#00F\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    // Choose animation "two" and skin "blue" in the timeline.
    h.get_by_label("Animation").click();
    h.run_steps(3);
    h.get_by_label("two").click();
    h.run_steps(2);
    h.get_by_label("Skin").click();
    h.run_steps(3);
    h.get_by_label("blue").click();
    h.run_steps(2);
    {
        let app = h.state_mut();
        app.playback.playing = false;
        app.playback.time_secs = 0.3;
        app.playback.speed = 2.0;
        app.view.zoom = 3.25;
        app.view.pan = [12.0, -7.0];
    }
    h.run_steps(1);
    let app = h.state();
    let before =
        (app.playback.clone().resolve(&app.doc.analysis.shown), app.playback.time_secs, app.view);
    assert_eq!(before.0.0, Some(AnimId(1)));
    assert_eq!(before.0.1, SkinId(1));

    // Edit the first animation, then break the `leg` line.
    focus_editor_at(&mut h, text.find("90").unwrap() + 2);
    h.get_by_label("Script").type_text("0");
    h.run_steps(1);
    assert!(h.state().doc.text.contains("r 0 -> 900"));
    let leg_line = text.find("\tleg x50").unwrap();
    focus_editor_at(&mut h, leg_line + 1);
    h.get_by_label("Script").type_text(" ");
    h.run_steps(2);
    let app = h.state();
    assert!(app.doc.analysis.comp.has_errors());
    assert_eq!(
        app.doc.analysis.comp.armature.skeleton.bones.len(),
        1,
        "the broken line lost `leg`"
    );
    // The canvas still shows both bones (the last error-free version).
    assert!(app.doc.analysis.shown_is_stale);
    assert_eq!(app.pose.bones.len(), 2);
    // Selection, playhead, play state, speed, zoom and pan are untouched.
    let mut playback = app.playback.clone();
    assert_eq!(playback.resolve(&app.doc.analysis.shown), before.0);
    assert_eq!(app.playback.time_secs, before.1);
    assert!(!app.playback.playing);
    assert_eq!(app.playback.speed, 2.0);
    assert_eq!(app.view, before.2);
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
    h.get_by_label_contains("2 matches");
}

#[test]
fn the_export_menu_writes_a_skelform_file_and_refuses_a_script_with_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let setup = Setup::new(Some(&path));
    let mut h = setup.build();
    let out = dir.path().join("rig.skf");
    setup.dialogs.answer(Some(&out));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("SkelForm (.skf)…").click();
    h.run_steps(3);
    h.get_by_label("Export SkelForm");
    h.get_by_label("Choose file…").click();
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported SKF to rig.skf"))),
        "{:?}",
        h.state().status
    );
    let skf =
        skelpad::formats::skf::read::read_skf(&std::fs::read(&out).unwrap()).expect("a valid .skf");
    assert!(skf.armature.bones.iter().any(|b| b.name == "arm"));
    assert!(skf.files.iter().any(|f| f == "armature.json"));

    // With an error in the script, nothing is written and the status says why.
    focus_editor_at(&mut h, RIG.find("l40").unwrap() + 3);
    h.get_by_label("Script").type_text(" q");
    h.run_steps(2);
    let out2 = dir.path().join("broken.skf");
    setup.dialogs.answer(Some(&out2));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("SkelForm (.skf)…").click();
    h.run_steps(3);
    h.get_by_label("Choose file…").click();
    assert!(
        step_until(&mut h, |app| app.status.as_ref().is_some_and(|s| s.1)),
        "{:?}",
        h.state().status
    );
    assert!(h.state().status.as_ref().unwrap().0.contains("has errors"));
    assert!(!out2.exists());
}

/// `skelpad FILE.skf`: the canvas plays the SkelForm file itself (its IK and
/// meshes), the text is its converted script, read-only under a banner, and
/// "Convert to script…" writes the script and its pictures beside the file
/// and opens it.
#[test]
fn a_skelform_file_opens_read_only_and_converts() {
    let sample =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/samples/skelform/_skellington.skf");
    if !sample.is_file() {
        assert!(std::env::var("SKELPAD_REQUIRE_SAMPLES").as_deref() != Ok("1"), "samples required");
        eprintln!("skipped: samples not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("skellington.skf");
    std::fs::copy(&sample, &path).unwrap();
    let setup = Setup::new(Some(&path));
    let mut h = setup.build();
    {
        let app = h.state();
        assert!(app.doc.imported.is_some());
        assert_eq!(
            app.doc.analysis.shown.skeleton.ik.len(),
            5,
            "the canvas shows the file, IK included"
        );
        assert!(app.doc.text.starts_with("# Converted by skelpad"));
        assert!(app.doc.path.is_none(), "saving must never write over the .skf");
    }
    h.get_by_label_contains("is a SkelForm file");
    // Typing changes nothing: the text is read-only.
    let before = h.state().doc.text.clone();
    focus_editor_at(&mut h, 0);
    h.event(Event::Text("zzz".into()));
    h.run_steps(2);
    assert_eq!(h.state().doc.text, before);
    h.get_by_label("Convert to script…").click();
    h.run_steps(3);
    let script = dir.path().join("skellington.skel2d");
    assert!(script.is_file(), "{:?}", h.state().status);
    assert!(dir.path().join("skellington_sprites").is_dir());
    let app = h.state();
    assert_eq!(app.doc.path.as_deref(), Some(script.as_path()));
    assert!(app.doc.imported.is_none());
    assert!(!app.doc.analysis.comp.has_errors());
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
        h.state().doc.analysis.comp.diagnostics.is_empty(),
        "{:?}",
        h.state().doc.analysis.comp.diagnostics
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

#[test]
fn the_worst_script_opens_plays_and_fits() {
    let dir = tempfile::tempdir().unwrap();
    let text = skelpad::generate::worst_script();
    let path = write(dir.path(), "worst.skel2d", &text);
    // It opens, plays the longest animation with onion skin on, fits it and
    // shows it, one frame after the other.
    let mut h = Setup::new(Some(&path)).build();
    assert!(h.state().doc.analysis.comp.diagnostics.is_empty());
    assert_eq!(h.state().doc.analysis.comp.armature.skeleton.bones.len(), 5000);
    let arm = h.state().doc.analysis.shown.clone();
    let long = arm.animation_by_name("longest").unwrap();
    {
        let app = h.state_mut();
        app.playback.select_anim(&arm, long);
        app.settings.view.onion_skin = true;
        app.canvas.fit_requested = true;
    }
    for _ in 0..3 {
        let t = h.state().now() + 1.0 / 60.0;
        h.input_mut().time = Some(t);
        h.step();
    }
    // Ghosts of 5000 shapes would cost five frames each: they are off.
    assert_eq!(skelpad::app::canvas::onion_ghosts(&arm), 0);
    assert_eq!(skelpad::app::canvas::onion_ghosts(&skelpad::compile::compile(RIG).armature), 2);
    let app = h.state_mut();
    assert_eq!(app.playback.resolve(&arm).0, Some(long));
    assert!(app.playback.playing && app.playback.time_secs > 0.0, "it plays");
    assert!(!app.canvas.fit_requested);
}

/// Timed as eframe runs a frame. Timings of an unoptimized build say
/// nothing: run it with `cargo test --release --test ui editor_ui::worst`.
#[test]
#[cfg_attr(debug_assertions, ignore = "a timing: run it in a release build")]
fn the_worst_script_keeps_each_frame_under_50_ms() {
    let dir = tempfile::tempdir().unwrap();
    let text = skelpad::generate::worst_script();
    let path = write(dir.path(), "worst.skel2d", &text);
    let services = || Services {
        dialogs: Box::new(ScriptedDialogs::default()),
        recovery_dir: None,
        watch_files: false,
    };
    let arm = skelpad::compile::compile(&text).armature;
    let long = arm.animation_by_name("longest").unwrap();
    let ctx = eframe::egui::Context::default();
    let cc = eframe::CreationContext::_new_kittest(ctx.clone());
    let mut app = SkelpadApp::new(&cc, Some(path.clone()), services());
    let mut clock = 0.0;
    let first = timed_frame(&ctx, &mut app, clock);
    app.playback.select_anim(&arm, long);
    app.playback.playing = true;
    app.settings.view.onion_skin = true;
    app.canvas.fit_requested = true;
    let mut times = Vec::new();
    for i in 0..10 {
        clock += 1.0 / 60.0;
        if i == 5 {
            // The cursor on a bone of the long animation: its keys on the scrub bar.
            ctx.memory_mut(|m| m.request_focus(skelpad::app::editor::editor_id()));
            app.editor.select(text.len() - 5..text.len() - 5);
        }
        times.push(timed_frame(&ctx, &mut app, clock));
    }
    let fit = times[0];
    times.sort();
    let (median, slowest) = (times[times.len() / 2], *times.last().unwrap());
    eprintln!(
        "worst script: first frame (lays out the text) {first:?}, fit frame {fit:?}, median {median:?}, slowest {slowest:?}"
    );
    // Every frame after the first, the fit included.
    assert!(slowest < Duration::from_millis(50), "a frame took {slowest:?} (median {median:?})");
}

// --- Examples and help ------------------------------------------------------

#[test]
fn the_embedded_examples_are_exactly_the_examples_folder() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut on_disk: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    on_disk.sort();
    let embedded: Vec<(String, String)> =
        EXAMPLES.iter().map(|e| (e.file.to_owned(), e.text.to_owned())).collect();
    assert_eq!(embedded, on_disk);
}

#[test]
fn file_examples_opens_an_untitled_copy() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Examples").click();
    h.run_steps(2);
    h.get_by_label("tentacle.skel2d").click();
    h.run_steps(2);
    let tentacle = EXAMPLES.iter().find(|e| e.file == "tentacle.skel2d").unwrap();
    let app = h.state();
    assert_eq!(app.doc.text, tentacle.text);
    assert_eq!(app.doc.path, None, "a copy: saving asks where");
    assert!(app.doc.title().contains("tentacle.skel2d (example)"), "{}", app.doc.title());
    assert!(!app.doc.analysis.comp.has_errors());
    // The file it replaced is untouched.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), RIG);
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
    h.get_by_label("Help").click();
    h.run_steps(2);
    h.get_by_label("Language reference").click();
    h.run_steps(2);
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
    let expected = format!("{}\t\tx 0 :sio-> 50 :sio-> 0\n{}", &RIG[..at], &RIG[at..]);
    assert_eq!(h.state().doc.text, expected);
    // It compiles, and the cursor is right after the inserted text.
    assert!(
        h.state().doc.analysis.comp.diagnostics.is_empty(),
        "{:?}",
        h.state().doc.analysis.comp.diagnostics
    );
    let ends_at = at + "\t\tx 0 :sio-> 50 :sio-> 0".len();
    assert_eq!(h.state().editor.cursor, Some(ends_at));

    // A word (from the vocabulary) goes among the words of the cursor's
    // line: the easing `sio` on the animated item `arm`.
    let item = expected.find("\tarm\n").unwrap() + "\tarm".len();
    focus_editor_at(&mut h, item);
    h.state_mut().help.query.clear();
    h.run_steps(1);
    h.get_by_label("Search").click();
    h.run_steps(1);
    h.get_by_label("Search").type_text("sine in and out");
    h.run_steps(2);
    h.get_by_label("sine in and out: slow at both ends");
    assert!(h.query_by_label("Easing a key").is_none(), "filtered out");
    h.get_by_label("Insert").click();
    h.run_steps(3);
    let expected = format!("{} ::sio{}", &expected[..item], &expected[item..]);
    assert_eq!(h.state().doc.text, expected);
    assert!(
        h.state().doc.analysis.comp.diagnostics.is_empty(),
        "{:?}",
        h.state().doc.analysis.comp.diagnostics
    );
    assert_eq!(h.state().editor.cursor, Some(item + " ::sio".len()));
}

/// A Spriter file opens read-only: its first entity on the canvas (with
/// sprites posed by Spriter's rules), the entity selector, looping as the
/// file says; typing changes nothing.
#[test]
fn a_spriter_file_opens_read_only() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spriter/rig.scml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut h = Setup::new(Some(&path)).build();
    assert!(h.state().doc.spriter.is_some());
    let arm = h.state().doc.analysis.shown.clone();
    assert_eq!(
        arm.skeleton.skins.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["default", "swap"]
    );
    h.get_by_label("Entity");
    h.get_by_label_contains("Spriter file, read-only");
    assert_eq!(h.state().pose.bones.len(), arm.skeleton.bones.len());
    // Typing into the text does nothing.
    focus_editor_at(&mut h, 10);
    h.get_by_label("Script").type_text("xyz");
    h.run_steps(2);
    assert_eq!(h.state().doc.text, text);
    assert!(!h.state().doc.is_dirty());
    // The second animation does not loop in the file.
    let once = arm.animation_by_name("once").unwrap();
    h.state_mut().playback.select_anim(&arm, once);
    h.run_steps(2);
    assert!(!h.state().playback.looping);
}

// --- Replacing the document: the pane shows the new text at once ------------

/// The text field drew exactly the document's text in the last frame.
fn assert_pane_shows_the_document(h: &Harness<'_, SkelpadApp>, what: &str) {
    let app = h.state();
    assert_eq!(app.editor.shown_text(), Some(app.doc.text.as_str()), "after {what}");
}

/// Every way a document is replaced shows the new text in the frame that
/// replaced it, and typing then edits the text shown. (The highlighted
/// layout was cached by a generation number every new document restarted
/// at 1: an unedited document replaced by another kept its layout on screen.)
#[test]
fn every_way_of_replacing_the_document_shows_the_new_text_in_the_same_frame() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery");
    let mut setup = Setup::new(None);
    setup.watch = true;
    setup.recovery_dir = Some(recovery.clone());
    let mut h = setup.build();
    assert_eq!(h.state().doc.text, skelpad::app::EXAMPLE);
    assert_pane_shows_the_document(&h, "start");

    // File ▸ Examples, nothing changed before: the reported case.
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Examples").click();
    h.run_steps(2);
    h.get_by_label("skins.skel2d").click();
    h.step();
    let skins = EXAMPLES.iter().find(|e| e.file == "skins.skel2d").unwrap();
    assert_eq!(h.state().doc.text, skins.text);
    assert_pane_shows_the_document(&h, "Examples");
    // Typing edits the text shown, where the cursor is shown.
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("zz");
    h.run_steps(1);
    assert_eq!(h.state().doc.text, format!("zz{}", skins.text));
    assert_pane_shows_the_document(&h, "typing");
    // Undo cannot bring back the previous document's text.
    for _ in 0..4 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run_steps(1);
    }
    assert_eq!(h.state().doc.text, skins.text, "undo stops at the opened text");
    assert_pane_shows_the_document(&h, "undo");

    // File ▸ Open Recent.
    let rig = write(dir.path(), "rig.skel2d", RIG);
    h.state_mut().settings.add_recent(&rig);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Open Recent").click();
    h.run_steps(2);
    let label = std::fs::canonicalize(&rig).unwrap().display().to_string();
    h.get_by_label(&label).click();
    h.step();
    assert_eq!(h.state().doc.text, RIG);
    assert_pane_shows_the_document(&h, "Open Recent");

    // Reloaded from disk (another program wrote the file), once the
    // watcher started on the next frame is running.
    h.run_steps(2);
    std::thread::sleep(Duration::from_millis(200));
    let v2 = RIG.replace("l40", "l55");
    std::fs::write(&rig, &v2).unwrap();
    assert!(step_until(&mut h, |app| app.doc.text == v2), "not reloaded");
    assert_pane_shows_the_document(&h, "reload from disk");

    // File ▸ Open… through the dialog.
    let other = write(dir.path(), "other.skel2d", &RIG.replace("arm", "leg"));
    setup.dialogs.answer(Some(&other));
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.step(); // asks; the answer is taken at the start of the next frame
    h.step();
    assert_eq!(h.state().doc.path.as_deref(), Some(other.as_path()));
    assert_pane_shows_the_document(&h, "Open");

    // File ▸ New.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.step();
    assert_eq!(h.state().doc.text, "");
    assert_pane_shows_the_document(&h, "New");

    // Recovery: an unsaved buffer offered back by the next run.
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("skeleton\n\tkept l5\n");
    for t in [100.0, 104.0, 108.0] {
        h.input_mut().time = Some(t);
        h.step();
    }
    drop(h);
    let mut h = setup.build();
    assert!(h.state().has_prompt());
    h.get_by_label("Restore").click();
    h.step();
    assert_eq!(h.state().doc.text, "skeleton\n\tkept l5\n");
    assert_pane_shows_the_document(&h, "recovery");
}

// --- No native file dialog: the built-in one --------------------------------

/// Without a native dialog (no desktop portal), Save of an untitled script,
/// Open and Export fall back to the dialog drawn in egui, say so once, and
/// a save over an existing file asks first.
#[test]
fn without_a_native_dialog_saving_opening_and_exporting_use_the_built_in_one() {
    let dir = tempfile::tempdir().unwrap();
    let setup = Setup::new(None);
    setup.dialogs.unavailable.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut h = setup.build();
    let rig = write(dir.path(), "rig.skel2d", RIG);
    // The dialog starts in the folder of the most recent file.
    h.state_mut().settings.add_recent(&rig);
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("# mine\n");
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert_eq!(setup.dialogs.asked.lock().unwrap().as_slice(), ["Save script as"]);
    let status = h.state().status.clone().unwrap();
    assert!(status.0.contains("No native file dialog"), "{status:?}");
    h.get_by_label_contains("Save script as");
    h.get_by_label("Save").click();
    h.run_steps(2);
    let saved = dir.path().join("walk_cycle.skel2d");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), h.state().doc.text);
    assert!(h.state().doc.text.starts_with("# mine\n"));
    assert!(!h.state().doc.is_dirty());
    assert_eq!(h.state().doc.path.as_deref(), Some(saved.as_path()));

    // Open: the native dialog is not asked again; the built-in one lists
    // the folder's files.
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    assert_eq!(setup.dialogs.asked.lock().unwrap().len(), 1);
    h.get_by_label_contains("rig.skel2d").click();
    h.run_steps(1);
    h.get_by_label("Open").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.path.as_deref(), Some(rig.as_path()));
    assert_eq!(h.state().doc.text, RIG);

    // Export ▸ PNG over an existing file: asked first; Cancel keeps it.
    let png = dir.path().join("rig.png");
    std::fs::write(&png, "old").unwrap();
    for replace in [false, true] {
        h.get_by_label("Export").click();
        h.run_steps(3);
        h.get_by_label("PNG of this frame…").click();
        h.run_steps(3);
        h.get_by_label("Choose file…").click();
        h.run_steps(20); // until the options dialog has faded out
        h.get_by_label("Save").click();
        h.run_steps(20);
        h.get_by_label("Replace the file?");
        h.get_by_label(if replace { "Replace" } else { "Cancel" }).click();
        h.run_steps(2);
    }
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported PNG"))),
        "{:?}",
        h.state().status
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    assert_eq!(setup.dialogs.asked.lock().unwrap().len(), 1, "native dialogs not asked again");
}

// --- A small window -----------------------------------------------------------

/// At 800×600 every control of the timeline toolbar is inside the window
/// (the toolbar wraps instead of running off the right edge), and so is the
/// scrub bar under it.
#[test]
fn every_timeline_control_is_on_screen_in_an_800_by_600_window() {
    for size in [[800.0, 600.0], [640.0, 400.0], [1280.0, 800.0]] {
        let services = Services {
            dialogs: Box::new(ScriptedDialogs::default()),
            recovery_dir: None,
            watch_files: false,
        };
        let mut h = Harness::builder()
            .with_size(size)
            .build_eframe(move |cc| SkelpadApp::new(cc, None, services));
        h.run_steps(3);
        let screen = eframe::egui::Rect::from_min_size(Pos2::ZERO, size.into());
        crate::assert_toolbar_on_screen(&h, screen, &[]);
        let readout = h.get_by_label_contains(" frame ").rect();
        assert!(screen.contains_rect(readout), "frame readout at {readout:?}, {size:?}");
        // The canvas keeps a usable area.
        let canvas = h.state().canvas.rect;
        assert!(canvas.height() >= size[1] * 0.25, "canvas {canvas:?} at {size:?}");
    }
}

#[test]
fn the_export_menu_writes_a_lottie_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let setup = Setup::new(Some(&path));
    let mut h = setup.build();
    let out = dir.path().join("rig.json");
    setup.dialogs.answer(Some(&out));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("Lottie…").click();
    h.run_steps(3);
    h.get_by_label("Export Lottie");
    h.get_by_label("Choose file…").click();
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported"))),
        "{:?}",
        h.state().status
    );
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert!(doc["layers"].as_array().unwrap().iter().any(|l| l["ty"] == 3 && l["nm"] == "arm"));
}

/// A file that is not there is reported as such: from the command line (in
/// a folder that exists, or not) and from Open Recent; never as a failure
/// to watch it.
#[test]
fn a_missing_file_says_file_not_found() {
    let dir = tempfile::tempdir().unwrap();
    for (path, error) in [
        (dir.path().join("new.skel2d"), false),
        (dir.path().join("no").join("such").join("dir.skel2d"), true),
    ] {
        let mut setup = Setup::new(Some(&path));
        setup.watch = true;
        let h = setup.build();
        let (msg, is_error) = h.state().status.clone().unwrap();
        assert!(msg.contains("file not found") && !msg.contains("watch"), "{msg}");
        assert_eq!(is_error, error, "{msg}");
    }
    let gone = write(dir.path(), "gone.skel2d", RIG);
    let mut h = Setup::new(None).build();
    h.state_mut().settings.add_recent(&gone);
    std::fs::remove_file(&gone).unwrap();
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Open Recent").click();
    h.run_steps(2);
    let label = std::fs::canonicalize(dir.path()).unwrap().join("gone.skel2d");
    h.get_by_label(&label.display().to_string()).click();
    h.run_steps(2);
    let (msg, is_error) = h.state().status.clone().unwrap();
    assert!(is_error && msg.contains("file not found"), "{msg}");
    assert_eq!(h.state().doc.text, skelpad::app::EXAMPLE, "nothing replaced");
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
    let message = h.state().doc.analysis.comp.diagnostics[0].message.clone();
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

/// View ▸ Outline shows the bone tree; clicking a bone puts the cursor on
/// its line and selects it on the canvas.
#[test]
fn the_outline_selects_a_bone_and_jumps_to_its_line() {
    let mut h = Setup::new(None).build();
    assert!(h.query_by_label("Outline").is_none());
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Outline").click();
    h.run_steps(3);
    h.get_by_label_contains("Skeleton (13 bones)");
    h.get_by_label("thigh-l").click();
    h.run_steps(2);
    let app = h.state();
    assert_eq!(app.selected, Some(skelpad::app::Selected::Bone("hip.thigh-l".into())));
    let line = app.doc.text.find("\thip.thigh-l ").unwrap() + 1;
    assert_eq!(app.editor.cursor, Some(line));
    // The animations' items are listed under them (further down: rows
    // off screen are not laid out).
    let app = h.state_mut();
    let generation = app.doc.analysis.generation;
    let rows = app.outline.rows(&app.doc.analysis.comp, generation);
    let labels: Vec<&str> = rows.iter().map(|r| r.label.as_str()).collect();
    let idle = labels.iter().position(|l| *l == "idle").unwrap();
    assert_eq!(labels[idle + 1..idle + 4], ["hip.torso", "hip.torso.head", "glance"]);
    assert!(h.query_by_label("hip.torso.head").is_none(), "not drawn while off screen");
}

/// Moving the editor cursor onto a bone far down a long skeleton scrolls
/// the outline to it (rows off screen are not drawn at all).
#[test]
fn the_outline_follows_the_bone_under_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("skeleton\n");
    for i in 0..300 {
        text.push_str(&format!("\tb{i} l5\n"));
    }
    let path = write(dir.path(), "many.skel2d", &text);
    let mut h = Setup::new(Some(&path)).build();
    h.state_mut().settings.view.show_outline = true;
    h.run_steps(2);
    h.get_by_label("b0");
    assert!(h.query_by_label("b250").is_none(), "off screen at first");
    focus_editor_at(&mut h, text.find("\tb250 ").unwrap() + 2);
    h.run_steps(2);
    h.get_by_label("b250");
    assert!(h.query_by_label("b0").is_none(), "scrolled away from the top");
}

/// "Rename…" on a bone of the outline renames it wherever it is named
/// (the language server's rename: its line, the bones and slots below it,
/// the animation's items), as one undo step; a name the language cannot
/// take changes nothing and says why.
#[test]
fn the_outline_renames_a_bone_everywhere_in_one_undo_step() {
    let text = "skeleton\n\tarm l40\n\tarm.hand l20\n\t\t@ :rect w4 h4\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 90\n\tarm.hand\n\t\tr 0 -> 45\n\t@hand\n\t\ta 1 -> 0.5\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "r.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    h.state_mut().settings.view.show_outline = true;
    h.run_steps(3);
    let open_rename = |h: &mut Harness<'_, SkelpadApp>| {
        let app = h.state_mut();
        let generation = app.doc.analysis.generation;
        let rows = app.outline.rows(&app.doc.analysis.comp, generation).to_vec();
        let row = rows.iter().find(|r| r.label == "arm").unwrap().clone();
        app.outline.begin_rename(&row);
        h.run_steps(3);
    };
    // A name with a dot is refused: nothing changes.
    open_rename(&mut h);
    h.get_by_label("Rename `arm` to").type_text(".x");
    h.get_by_label("Rename").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.text, text);
    assert!(h.state().status.as_ref().is_some_and(|s| s.1 && s.0.starts_with("Not renamed")));
    // A good name: every reference follows.
    open_rename(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("Rename `arm` to").type_text("limb");
    h.get_by_label("Rename").click();
    h.run_steps(2);
    let want = text.replace("\tarm", "\tlimb");
    assert_eq!(h.state().doc.text, want);
    assert!(!h.state().doc.analysis.comp.has_errors());
    // One undo brings the file back exactly.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, text);
}

/// View ▸ Motion lints adds the lints' warnings to the problems at once
/// (a loop whose end is not its start: a seam), and takes them away again.
#[test]
fn motion_lints_come_and_go_with_the_view_toggle() {
    let text = "skeleton\n\tb l10\nanim \"a\" 10fps\n\tb\n\t\tx 0 -> 10\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "seam.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    h.run_steps(2);
    let seams = |h: &Harness<'_, SkelpadApp>| {
        let d = &h.state().doc.analysis.comp.diagnostics;
        d.iter().filter(|d| d.message.contains("loops with a seam")).count()
    };
    assert_eq!(seams(&h), 0, "lints are opt-in");
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Motion lints").click();
    h.run_steps(2);
    assert_eq!(seams(&h), 1);
    h.get_by_label_contains("loops with a seam");
    h.state_mut().settings.view.lint = false;
    h.run_steps(2);
    assert_eq!(seams(&h), 0);
    assert_eq!(h.state().doc.text, text, "the text is not touched");
}

/// Hide and solo in the outline change what the canvas draws (and what a
/// click can pick), never the script.
#[test]
fn hidden_bones_are_not_drawn_and_the_text_is_untouched() {
    let text = "skeleton\n\tarm l40\n\t\t@ :rect x20 w40 h10\n\tarm.hand l10\n\t\t@ :circle d8\n\tleg l30\n\t\t@ :rect x15 w30 h8\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "h.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    h.run_steps(2);
    let drawn = |h: &Harness<'_, SkelpadApp>| -> Vec<String> {
        let app = h.state();
        let sk = &app.doc.analysis.shown.skeleton;
        let mut names: Vec<String> = app
            .drawing
            .list()
            .items
            .iter()
            .filter(|i| i.slot.is_some())
            .map(|i| sk.bones[i.bone.index()].name.clone())
            .collect();
        names.dedup();
        names
    };
    assert_eq!(drawn(&h), ["arm", "arm.hand", "leg"]);
    h.state_mut().outline.hidden.insert("arm".into());
    h.run_steps(2);
    assert_eq!(drawn(&h), ["leg"]);
    h.state_mut().outline.hidden.clear();
    h.state_mut().outline.solo = Some("arm".into());
    h.run_steps(2);
    assert_eq!(drawn(&h), ["arm", "arm.hand"]);
    assert_eq!(h.state().doc.text, text);
}
