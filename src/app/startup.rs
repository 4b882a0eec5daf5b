//! Starting the app: [`SkelpadApp::new`] (settings from eframe's storage,
//! the first document, the recovery prompt), the native window ([`run`])
//! and eframe's hooks (a frame, saving settings, exit).

use std::path::{Path, PathBuf};

use eframe::egui::{self, ViewportCommand};

use crate::runtime::Pose;

use super::canvas::{Canvas, Drawing, View};
use super::document::Document;
use super::editor::Editor;
use super::export::ExportChoices;
use super::files::Recovery;
use super::session::Prompt;
use super::settings::Settings;
use super::timeline::{self, Playback};
use super::{APP_ID, EXAMPLE, EXAMPLE_NAME, Services, SkelpadApp, dopesheet, help, outline};

impl SkelpadApp {
    /// Creates the app from eframe's creation context: settings come from
    /// its storage; `file` is opened (a missing file starts an empty buffer
    /// that saves there); without a file the built-in example is shown.
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        file: Option<PathBuf>,
        services: Services,
    ) -> Self {
        let settings = Settings::load(cc.storage);
        let saved_view: Option<View> =
            cc.storage.and_then(|s| eframe::get_value(s, "skelpad.view"));
        // Reopening the file of the last run keeps its zoom and pan; any
        // other start frames the new skeleton.
        let reopened = file
            .as_ref()
            .and_then(|f| std::fs::canonicalize(f).ok())
            .is_some_and(|f| settings.recent_files.first() == Some(&f));
        let fit_on_start = !(reopened && saved_view.is_some());
        let view = saved_view.unwrap_or_default();
        let (doc, status) = first_document(file.as_deref());
        let mut app = SkelpadApp {
            doc,
            editor: Editor::default(),
            canvas: Canvas { fit_requested: fit_on_start, ..Canvas::default() },
            playback: Playback::default(),
            view,
            pose: Pose::default(),
            drawing: Drawing::new(Path::new(".")),
            selected: None,
            help: help::Help::default(),
            cursor_bone: None,
            drag: None,
            outline: outline::Outline::default(),
            dopesheet: dopesheet::Dopesheet::default(),
            key_drag: None,
            curve_drag: None,
            dialogs: services.dialogs,
            export_dialog: None,
            anim_prompt: None,
            transition: Default::default(),
            export_options: ExportChoices::default(),
            export_job: None,
            pending_dialog: None,
            builtin_dialog: None,
            native_dialogs_missing: false,
            prompt: None,
            recovery: services.recovery_dir.map(Recovery::new),
            last_recovery_check: 0.0,
            watch_files: services.watch_files,
            watcher: None,
            disk_check_at: None,
            status,
            status_details: Vec::new(),
            allow_close: false,
            quit_requested: false,
            want_watch: false,
            title: String::new(),
            now: 0.0,
            startup_probe: None,
            settings,
        };
        app.playback.looping = app.settings.view.looping;
        app.playback.speed = app
            .settings
            .view
            .speed
            .clamp(*timeline::SPEED_RANGE.start(), *timeline::SPEED_RANGE.end());
        cc.egui_ctx.set_theme(app.settings.theme.preference());
        // Ctrl+0 fits the canvas; it must not reset the UI zoom.
        cc.egui_ctx.options_mut(|o| o.zoom_with_keyboard = false);
        if let Some(p) = app.doc.path.clone().filter(|p| p.exists()) {
            app.settings.add_recent(&p);
        }
        app.watch(&cc.egui_ctx);
        if let Some((file, record)) =
            app.recovery.as_ref().and_then(|r| r.orphans().into_iter().next())
        {
            app.prompt = Some(Prompt::Recover { file, record });
        }
        app
    }
}

/// The document the app starts on: `file` when it opens; an empty buffer
/// that saves to `file` when there is no such file yet; the built-in
/// example without a file. With the status-bar message to show first
/// (text, is an error).
fn first_document(file: Option<&Path>) -> (Document, Option<(String, bool)>) {
    let Some(p) = file else { return (Document::untitled(EXAMPLE_NAME, EXAMPLE), None) };
    if p.exists() {
        return match Document::open(p) {
            Ok(d) => (d, None),
            Err(e) => (Document::untitled("untitled", ""), Some((e, true))),
        };
    }
    let mut d = Document::untitled("untitled", "");
    d.path = Some(p.to_path_buf());
    let status = match p.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) if !dir.is_dir() => (
            format!(
                "{}: file not found, nor its folder {}: Save As to save elsewhere",
                p.display(),
                dir.display()
            ),
            true,
        ),
        _ => (format!("{}: file not found: saving creates it", p.display()), false),
    };
    (d, Some(status))
}

/// Whether each frame's time is logged to stderr (the environment
/// variable `SKELPAD_FRAME_LOG` is set): how the window's frame times are
/// measured (`scripts/xvfb-big-file.sh`).
fn frame_log() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("SKELPAD_FRAME_LOG").is_some())
}

impl eframe::App for SkelpadApp {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let started = std::time::Instant::now();
        let events = ui.input(|i| i.events.len());
        self.frame(ui);
        if frame_log() {
            // eframe's figure is the whole previous frame: this update,
            // tessellation and painting (software GL under Xvfb).
            let previous = frame.info().cpu_usage.map_or(0.0, |s| f64::from(s) * 1e3);
            eprintln!(
                "skelpad frame {}: update {:.2} ms, {events} events; previous frame {previous:.2} ms",
                ui.ctx().cumulative_frame_nr(),
                started.elapsed().as_secs_f64() * 1e3,
            );
        }
        if let Some(started) = self.startup_probe.take() {
            eprintln!(
                "skelpad: first frame built {:.0} ms after start",
                started.elapsed().as_secs_f64() * 1e3
            );
            ui.ctx().send_viewport_cmd(ViewportCommand::Close);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.settings.store(storage);
        eframe::set_value(storage, "skelpad.view", &self.view);
    }

    fn on_exit(&mut self, _gl: Option<&eframe::glow::Context>) {
        // A clean exit keeps no recovery file; an exit with unsaved changes
        // (only possible after "Don't save") was cleared by the prompt.
        if !self.doc.is_dirty()
            && let Some(r) = self.recovery.as_mut()
        {
            r.clear();
        }
    }
}

/// Opens the editor window and returns when it closes; the error says why
/// the window could not open (the CLI turns it into an exit code).
///
/// With the environment variable `SKELPAD_STARTUP_PROBE` set, the first
/// frame prints how long start-up took and closes the window (this is how
/// the start-up time is measured).
pub fn run(file: Option<PathBuf>) -> Result<(), String> {
    let started = std::time::Instant::now();
    let probe = std::env::var_os("SKELPAD_STARTUP_PROBE").is_some();
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("skelpad")
            .with_app_id(APP_ID)
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([640.0, 400.0]),
        // The render pipeline's meshes have no anti-aliasing of their own.
        multisampling: 4,
        ..Default::default()
    };
    let result = eframe::run_native(
        APP_ID,
        options,
        Box::new(move |cc| {
            let mut app = SkelpadApp::new(cc, file, Services::native());
            app.startup_probe = probe.then_some(started);
            Ok(Box::new(app))
        }),
    );
    result.map_err(|e| format!("cannot open the editor window: {e}"))
}
