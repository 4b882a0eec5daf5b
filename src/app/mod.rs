//! The desktop editor: an eframe app that wires the panels together.
//!
//! - [`document`]: the open script and its compilation (one incremental
//!   compiler per document).
//! - [`editor`] + [`highlight`]: the text panel and the diagnostics list.
//! - [`canvas`]: the view of the pose; [`timeline`]: playback.
//! - [`outline`]: the bone tree, skins and animations (View ▸ Outline).
//! - [`files`]: atomic saves, recovery, watching, dialogs; [`settings`]: what
//!   persists between runs.
//! - `session` (the file session: open, save, convert, prompts before
//!   losing work, changes on disk, recovery) and `chrome` (menu bar, status
//!   bar, modal prompts, the export dialog): `SkelpadApp`'s methods by seam;
//!   this file holds the app's state and wires a frame together.
//!
//! Each frame: file events and shortcuts → editor (an edit recompiles inside
//! the text field's layout) → timeline → pose (runtime, at the playback
//! time) → canvas. So a keystroke shows on the canvas in the same frame.

pub mod canvas;
mod chrome;
pub mod document;
pub mod dopesheet;
pub mod drag;
pub mod editor;
pub mod export;
pub mod files;
pub mod help;
pub mod highlight;
pub mod lottie_baking;
pub mod outline;
mod session;
pub mod settings;
pub mod spriter;
pub mod timeline;
pub mod typing;
pub mod write_back;

use std::path::{Path, PathBuf};
use std::time::Duration;

use eframe::egui::{self, Key, KeyboardShortcut, Modifiers, ViewportCommand};

use crate::model::{BoneId, Skeleton};
use crate::runtime::{Pose, evaluate_into};

use canvas::{Canvas, Drawing, Pick, Scene, View};
use document::Document;
use editor::Editor;
use export::{ExportFailure, ExportJob, ExportKind, ExportOptions, ExportRequest};
use files::{
    DialogAnswer, DialogRequest, FileDialogs, FileWatcher, PendingDialog, Recovery, RecoveryRecord,
};
use session::{DialogPurpose, Prompt};
use settings::{Settings, Theme};
use timeline::Playback;

/// The script shown when the editor starts without a file.
pub const EXAMPLE: &str = include_str!("../../examples/walk_cycle.skel2d");
/// Name of the built-in example buffer.
pub const EXAMPLE_NAME: &str = "walk_cycle.skel2d (example)";
/// The app id: names the storage folder of settings and recovery files.
pub const APP_ID: &str = "skelpad";

/// How often an unsaved buffer is written to the recovery file.
pub const RECOVERY_INTERVAL_SECS: f64 = 3.0;

/// What the app uses from the outside world; tests pass their own.
pub struct Services {
    /// Open and save dialogs.
    pub dialogs: Box<dyn FileDialogs>,
    /// Where recovery files live (`None`: no recovery).
    pub recovery_dir: Option<PathBuf>,
    /// Watch the open file for external changes.
    pub watch_files: bool,
}

impl Services {
    /// Native dialogs, recovery in the app's data folder, watching on.
    pub fn native() -> Self {
        Services {
            dialogs: Box::new(files::NativeDialogs),
            recovery_dir: eframe::storage_dir(APP_ID).map(|d| d.join("recovery")),
            watch_files: true,
        }
    }
}

/// A file command that may need the user's say first.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// An empty untitled script.
    New,
    /// Open this file, or ask which.
    Open(Option<PathBuf>),
    /// Save to the file's path (or ask for one).
    Save,
    /// Ask for a path and save there.
    SaveAs,
    /// Close the window.
    Quit,
    /// An untitled copy of the example script `help::EXAMPLES[i]`.
    OpenExample(usize),
}

/// What the user selected, by name so it survives recompiles.
#[derive(Clone, Debug, PartialEq)]
pub enum Selected {
    /// A bone, by its full dotted name.
    Bone(String),
    /// A slot, by its full name.
    Slot(String),
}

/// The editor application.
pub struct SkelpadApp {
    /// The open script and its compilation.
    pub doc: Document,
    /// The text panel's state.
    pub editor: Editor,
    /// The canvas panel's state.
    pub canvas: Canvas,
    /// Which animation and skin play, at what time.
    pub playback: Playback,
    /// The canvas's pan and zoom (kept between runs).
    pub view: View,
    /// What persists between runs.
    pub settings: Settings,
    /// The pose shown on the canvas this frame.
    pub pose: Pose,
    /// The render pipeline's state for the canvas.
    pub drawing: Drawing,
    /// The bone or slot picked on the canvas.
    pub selected: Option<Selected>,
    /// The help windows (shortcuts, language reference).
    pub help: help::Help,
    /// The bone whose line holds the editor cursor.
    pub cursor_bone: Option<BoneId>,
    /// A canvas drag that is editing the script.
    pub drag: Option<drag::DragEdit>,
    /// The outline panel's state.
    pub outline: outline::Outline,
    /// The dopesheet's state (View ▸ Dopesheet).
    pub dopesheet: dopesheet::Dopesheet,
    /// A dopesheet key drag that is editing the script.
    key_drag: Option<KeyDrag>,
    dialogs: Box<dyn FileDialogs>,
    /// The export whose options are being chosen.
    export_dialog: Option<ExportKind>,
    /// The export dialog's choices (kept while the app runs).
    pub export_options: ExportOptions,
    /// The export running in the background.
    pub export_job: Option<ExportJob>,
    pending_dialog: Option<(DialogPurpose, DialogRequest, PendingDialog)>,
    /// The file dialog drawn in egui, open in place of a native one.
    builtin_dialog: Option<(DialogPurpose, DialogRequest, egui_file::FileDialog)>,
    /// A native dialog could not be shown: the built-in one is used from
    /// then on.
    native_dialogs_missing: bool,
    prompt: Option<Prompt>,
    recovery: Option<Recovery>,
    last_recovery_check: f64,
    watch_files: bool,
    watcher: Option<FileWatcher>,
    disk_check_at: Option<f64>,
    /// The last message for the status bar: (text, is_error).
    pub status: Option<(String, bool)>,
    /// Lines shown when hovering the status message (export warnings).
    pub status_details: Vec<String>,
    allow_close: bool,
    /// Close the window at the end of this frame.
    quit_requested: bool,
    /// (Re)start the watcher on the next frame (the path changed).
    want_watch: bool,
    title: String,
    now: f64,
    /// Set by `SKELPAD_STARTUP_PROBE`: when the process started; the first
    /// frame prints how long it took and closes the window.
    startup_probe: Option<std::time::Instant>,
}

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
        let mut status = None;
        let doc = match &file {
            None => Document::untitled(EXAMPLE_NAME, EXAMPLE),
            Some(p) if !p.exists() => {
                let mut d = Document::untitled("untitled", "");
                d.path = Some(p.clone());
                status = Some(match p.parent().filter(|d| !d.as_os_str().is_empty()) {
                    Some(dir) if !dir.is_dir() => (
                        format!(
                            "{}: file not found, nor its folder {}: Save As to save elsewhere",
                            p.display(),
                            dir.display()
                        ),
                        true,
                    ),
                    _ => (format!("{}: file not found: saving creates it", p.display()), false),
                });
                d
            }
            Some(p) => match Document::open(p) {
                Ok(d) => d,
                Err(e) => {
                    status = Some((e, true));
                    Document::untitled("untitled", "")
                }
            },
        };
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
            dialogs: services.dialogs,
            export_dialog: None,
            export_options: ExportOptions::default(),
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

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let pressed = |m: Modifiers, k: Key| {
            ctx.input_mut(|i| i.consume_shortcut(&KeyboardShortcut::new(m, k)))
        };
        if pressed(Modifiers::COMMAND | Modifiers::SHIFT, Key::S) {
            self.request(Action::SaveAs);
        } else if pressed(Modifiers::COMMAND, Key::S) {
            self.request(Action::Save);
        }
        if pressed(Modifiers::COMMAND, Key::N) {
            self.request(Action::New);
        }
        if pressed(Modifiers::COMMAND, Key::O) {
            self.request(Action::Open(None));
        }
        if pressed(Modifiers::NONE, Key::F12) {
            self.go_to_definition();
        }
        // Undo and redo act on the script wherever the focus is: a text
        // field with focus handles them itself (the script's own field, or
        // the find bar's query); anywhere else — the canvas after a drag, a
        // button, nothing — they are applied to the script's history here.
        if !editor::text_field_focused(ctx) {
            if pressed(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z)
                || pressed(Modifiers::COMMAND, Key::Y)
            {
                self.undo_redo(ctx, false);
            } else if pressed(Modifiers::COMMAND, Key::Z) {
                self.undo_redo(ctx, true);
            }
        }
    }

    // --- Frame ---------------------------------------------------------------

    /// Runs one frame of the whole UI: input and file events, the menu and
    /// status bars, the editor panel, the stage (timeline and canvas), then
    /// the windows on top and the window's title.
    pub fn frame(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.doc.analysis.set_lint(self.settings.view.lint);
        self.begin_frame(&ctx);
        // Prompts first: an answer that replaces the document (Restore,
        // Don't save, Reload from disk) is then shown by the panels below
        // in this same frame. (Modals draw on top whatever the order.)
        self.prompt_ui(&ctx);
        self.builtin_dialog_ui(&ctx);
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        // In a small window the script takes less than half the width at
        // first, leaving the stage room, and at most 55% of it when the
        // window shrinks later.
        let width = ui.available_width();
        let editor_width = (width * 0.45).clamp(200.0, 520.0);
        if self.settings.view.show_outline {
            egui::Panel::left("outline")
                .resizable(true)
                .default_size(200.0)
                .size_range(120.0..=600.0)
                .show(ui, |ui| self.outline_panel(ui));
        }
        egui::Panel::left("editor")
            .resizable(true)
            .default_size(editor_width)
            .size_range(200.0..=(width * 0.55).clamp(200.0, 1400.0))
            .show(ui, |ui| self.editor_panel(ui));
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| self.stage(ui, &ctx));
        self.end_frame(&ctx);
    }

    /// The frame's clock, a close request, typing and shortcuts, file and
    /// export events, and where pictures are looked up.
    fn begin_frame(&mut self, ctx: &egui::Context) {
        self.now = ctx.input(|i| i.time);
        if ctx.input(|i| i.viewport().close_requested()) && !self.allow_close && self.doc.is_dirty()
        {
            ctx.send_viewport_cmd(ViewportCommand::CancelClose);
            self.prompt = Some(Prompt::Unsaved { then: Action::Quit });
        }
        if self.prompt.is_none() {
            // The frame's typing first, in order, so that a shortcut (Ctrl+S)
            // sees every character typed before it.
            self.editor.take_input(ctx, &mut self.doc);
            self.shortcuts(ctx);
        }
        self.poll_files(ctx);
        self.poll_export();
        self.drawing.set_image_dir(&self.script_dir());
        if let Some(iv) = &self.doc.imported {
            self.drawing.use_imported_sprites(iv);
        }
    }

    /// The outline: a click puts the cursor on the row's line and selects
    /// its bone or slot on the canvas.
    fn outline_panel(&mut self, ui: &mut egui::Ui) {
        let shown = &self.doc.analysis.shown.skeleton;
        let cursor_bone =
            self.cursor_bone.and_then(|b| shown.bones.get(b.index())).map(|b| b.name.clone());
        let a = &self.doc.analysis;
        let out = self.outline.ui(
            ui,
            &a.comp,
            a.generation,
            self.selected.as_ref(),
            cursor_bone.as_deref(),
        );
        if let Some(span) = out.jump {
            self.editor.select(span.start..span.start);
        }
        if out.select.is_some() {
            self.selected = out.select;
        }
        if let Some((span, name)) = out.rename {
            self.rename_bone(ui.ctx(), span, &name);
        }
    }

    /// Renames the bone whose name is written at `span` to `new_name` (its
    /// last segment) everywhere it is named, as the language server's
    /// rename does (`lsp::analysis::rename_bone`): one undo step, the
    /// cursor kept on its token. A name the language cannot take, or a
    /// bone that no longer resolves, changes nothing and says why.
    fn rename_bone(&mut self, ctx: &egui::Context, span: std::ops::Range<usize>, new_name: &str) {
        let Some(at) = span.end.checked_sub(1) else { return };
        let comp = &self.doc.analysis.comp;
        match crate::lsp::analysis::rename_bone(&self.doc.text, comp, at as u32, new_name) {
            Ok(edits) if edits.is_empty() => self.say("Nothing to rename", false),
            Ok(edits) => {
                let edits: Vec<write_back::Edit> = edits
                    .into_iter()
                    .map(|(sp, text)| write_back::Edit { range: sp.range(), text })
                    .collect();
                let text = write_back::apply(&self.doc.text, &edits);
                drag::mark_undo_point(ctx, &self.doc.text);
                self.editor.follow_replacement(ctx, &self.doc.text, &text);
                self.doc.text = text;
                self.doc.sync();
                self.say(format!("Renamed to `{new_name}` in {} places", edits.len()), false);
            }
            Err(why) => self.say(format!("Not renamed: {why}"), true),
        }
    }

    /// The script editor with the Problems list below it.
    fn editor_panel(&mut self, ui: &mut egui::Ui) {
        // The Problems panel takes its place first and is filled after the
        // editor, so it lists the diagnostics of this frame's edit.
        let problems = egui::Panel::bottom("diagnostics")
            .resizable(true)
            .default_size(140.0)
            .size_range(60.0..=600.0)
            .show(ui, |ui| {
                let rect = ui.available_rect_before_wrap();
                ui.allocate_rect(rect, egui::Sense::hover());
                rect
            })
            .inner;
        egui::CentralPanel::default().show(ui, |ui| {
            if self.doc.spriter.is_some() {
                let shown = self.doc.analysis.shown.clone();
                let anim = self.playback.resolve(&shown).0.map(|a| a.index());
                spriter::banner(ui, &mut self.doc, anim);
            }
            let generation = self.doc.analysis.generation;
            let out = self.editor.ui(ui, &mut self.doc);
            if out.convert_requested {
                self.convert_imported();
            }
            if out.changed || generation != self.doc.analysis.generation {
                // Panels drawn before the editor (the diagnostics list)
                // catch up in the next frame, right away.
                ui.ctx().request_repaint();
            }
            self.cursor_bone = out.cursor.and_then(|c| bone_at_cursor(&self.doc, c));
        });
        let mut list =
            ui.new_child(egui::UiBuilder::new().id_salt("diagnostics.list").max_rect(problems));
        if let Some(span) = editor::diagnostics_ui(&mut list, &self.doc) {
            self.editor.select(span);
            list.memory_mut(|m| m.request_focus(editor::editor_id()));
        }
    }

    /// The timeline and the canvas: the pose at the playback time, drawn.
    fn stage(&mut self, ui: &mut egui::Ui, ctx: &egui::Context) {
        let arm = self.doc.analysis.shown.clone();
        egui::Panel::bottom("timeline")
            .resizable(false)
            .show(ui, |ui| self.timeline_panel(ui, &arm));
        let (anim_id, skin) = self.playback.resolve(&arm);
        let anim = anim_id.and_then(|a| arm.animation(a));
        if self.doc.spriter.is_some() {
            spriter::follow_file_looping(&mut self.playback, anim);
        }
        self.playback.advance(self.now, anim);
        evaluate_into(&mut self.pose, &arm, anim, skin, self.playback.sample_time(anim));
        let selected = self.selected.as_ref().and_then(|s| resolve_selected(&arm.skeleton, s));
        let visible = self.outline.visibility(&arm.skeleton);
        let scene = Scene {
            armature: &arm,
            pose: &self.pose,
            anim: anim_id,
            skin,
            time_secs: self.playback.sample_time(anim),
            looping: self.playback.looping,
            onion_skin: self.settings.view.onion_skin,
            cursor_bone: self.cursor_bone,
            selected,
            show_grid: self.settings.view.show_grid,
            show_bones: self.settings.view.show_bones,
            stale: self.doc.analysis.shown_is_stale,
            failing_bones: failing_bones(
                &self.doc.analysis.comp,
                anim_id,
                self.playback.sample_time(anim),
                self.doc.analysis.shown_is_stale,
            ),
            visible_bones: visible.as_deref(),
        };
        let out = self.canvas.ui(ui, &mut self.view, &scene, &mut self.drawing);
        if out.toggle_play {
            self.playback.toggle_play(anim);
        }
        if out.step_frames != 0 {
            self.playback.step_frames(anim, out.step_frames);
        }
        if out.home {
            self.playback.home();
        }
        if out.end {
            self.playback.end(anim);
        }
        if let Some(pick) = out.clicked {
            self.pick(pick);
        }
        if let Some(d) = out.drag {
            let time_secs = self.playback.sample_time(anim);
            let place = match (anim_id, anim) {
                (Some(a), Some(an)) => write_back::Place::Anim { anim: a, time_secs, fps: an.fps },
                _ => write_back::Place::Setup,
            };
            self.on_drag(ctx, d, place);
        }
        if self.playback.playing && anim.is_some() {
            ctx.request_repaint();
        }
    }

    /// The timeline of the shown armature, with the key ticks of the
    /// animation (of the bone under the cursor, if any).
    fn timeline_panel(&mut self, ui: &mut egui::Ui, arm: &crate::model::Armature) {
        ui.add_space(4.0);
        let anim_name =
            self.playback.resolve(arm).0.and_then(|a| arm.animation(a)).map(|a| a.name.clone());
        let focus = self
            .cursor_bone
            .and_then(|b| arm.skeleton.bones.get(b.index()))
            .map(|b| b.name.clone());
        let ticks =
            anim_name.and_then(|a| key_ticks(&self.doc.analysis.comp, &a, focus.as_deref()));
        let out = timeline::ui(
            ui,
            &mut self.playback,
            &mut self.settings.view,
            arm,
            self.cursor_bone,
            ticks,
        );
        if out.fit {
            self.canvas.fit_requested = true;
        }
        if let Some(span) = out.jump {
            self.editor.select(span.range());
        }
        if self.settings.view.show_dopesheet {
            self.dopesheet_rows(ui, arm);
        }
        ui.add_space(2.0);
    }

    /// The dopesheet under the timeline: the rows of the selected
    /// animation, from the source map; a key drag rewrites the frame tokens
    /// around the key ([`dopesheet::move_key`]), one undo step per drag.
    fn dopesheet_rows(&mut self, ui: &mut egui::Ui, arm: &crate::model::Armature) {
        let ctx = ui.ctx().clone();
        let Some(shown) = self.playback.resolve(arm).0.and_then(|a| arm.animation(a)) else {
            return;
        };
        let comp = &self.doc.analysis.comp;
        let Some(anim) = comp.armature.animations.iter().position(|a| a.name == shown.name) else {
            ui.weak("Fix the errors in this animation to see its keys.");
            return;
        };
        let anim = crate::model::AnimId::from_index(anim);
        let editable = !self.doc.analysis.shown_is_stale && self.doc.spriter.is_none();
        let playhead = self.playback.sample_time(Some(shown)) * shown.fps;
        let max_height = (ctx.content_rect().height() * 0.25).clamp(48.0, 240.0);
        ui.add_space(2.0);
        let out = self.dopesheet.ui(ui, &self.doc.text, comp, anim, playhead, max_height, editable);
        if let Some(span) = out.jump {
            self.editor.select(span.range());
        }
        if out.paste && editable {
            let at = playhead.round();
            let keys = self.dopesheet.clipboard.clone();
            match dopesheet::paste_keys(&self.doc.text, comp, anim, &keys, at) {
                Ok(text) => {
                    drag::mark_undo_point(&ctx, &self.doc.text);
                    self.editor.follow_replacement(&ctx, &self.doc.text, &text);
                    self.doc.text = text;
                    self.doc.sync();
                    self.say(
                        format!(
                            "Pasted {} key(s) at frame {}",
                            keys.len(),
                            write_back::format_number(at)
                        ),
                        false,
                    );
                    ctx.request_repaint();
                }
                Err(why) => self.say(format!("Not pasted: {why}"), true),
            }
            return;
        }
        if out.delete && editable {
            let keys = self.dopesheet.selected.clone();
            match dopesheet::delete_keys(&self.doc.text, comp, anim, &keys) {
                Ok(text) => {
                    drag::mark_undo_point(&ctx, &self.doc.text);
                    self.editor.follow_replacement(&ctx, &self.doc.text, &text);
                    self.doc.text = text;
                    self.doc.sync();
                    self.say(format!("Deleted {} key(s)", keys.len()), false);
                    ctx.request_repaint();
                }
                Err(why) => self.say(format!("Not deleted: {why}"), true),
            }
            return;
        }
        if let Some((tl, key)) = out.drag_start {
            let from = comp
                .sources
                .timelines
                .get(tl)
                .and_then(|t| comp.sources.keys_of(t).get(key).map(|k| k.frame));
            if let Some(from) = from {
                self.playback.playing = false;
                drag::mark_undo_point(&ctx, &self.doc.text);
                // A selected key drags the whole selection with it.
                let sel = &self.dopesheet.selected;
                let keys = if sel.len() > 1 && sel.contains(&(tl, key)) {
                    sel.clone()
                } else {
                    vec![(tl, key)]
                };
                self.key_drag = Some(KeyDrag {
                    keys,
                    base_text: self.doc.text.clone(),
                    base: Box::new(comp.clone()),
                    anim,
                    timeline: tl,
                    key,
                    from,
                    last: from,
                    changed: false,
                });
            }
        }
        if let (Some(df), Some(kd)) = (out.drag_to, self.key_drag.as_mut()) {
            let to = if df == 0.0 { kd.from } else { (kd.from + df).round() };
            if to != kd.last {
                kd.last = to;
                let moved = if kd.keys.len() > 1 {
                    dopesheet::move_keys(&kd.base_text, &kd.base, kd.anim, &kd.keys, df)
                } else {
                    dopesheet::move_key(&kd.base_text, &kd.base, kd.anim, kd.timeline, kd.key, to)
                        .map(|edits| write_back::apply(&kd.base_text, &edits))
                };
                match moved {
                    Ok(text) => {
                        if text != self.doc.text {
                            self.editor.follow_replacement(&ctx, &self.doc.text, &text);
                            self.doc.text = text;
                            self.doc.sync();
                            kd.changed = kd.base_text != self.doc.text;
                            ctx.request_repaint();
                        }
                        let n = kd.keys.len();
                        let what = if n > 1 { format!("{n} keys") } else { "Key".into() };
                        self.status = Some((
                            format!("{what} to frame {}", write_back::format_number(to)),
                            false,
                        ));
                    }
                    Err(why) => self.say(format!("Not moved: {why}"), true),
                }
            }
        }
        // The drag ends when its key says so, or when the button is up
        // (its row may have been collapsed or scrolled away).
        let released = !ctx.input(|i| i.pointer.primary_down());
        if (out.drag_end || released)
            && let Some(kd) = self.key_drag.take()
            && kd.changed
        {
            self.say(format!("Moved a key to frame {}", write_back::format_number(kd.last)), false);
        }
    }

    /// The help windows and the export dialog; settings that follow
    /// playback; the window title; a requested close.
    fn end_frame(&mut self, ctx: &egui::Context) {
        if let Some(line) = self.help.ui(ctx) {
            // Applied at the start of the next frame, like typing.
            self.editor.insert_at_cursor(line);
            ctx.request_repaint();
        }
        self.export_dialog_ui(ctx);

        self.settings.view.looping = self.playback.looping;
        self.settings.view.speed = self.playback.speed;
        let title = self.doc.title();
        if title != self.title {
            ctx.send_viewport_cmd(ViewportCommand::Title(title.clone()));
            self.title = title;
        }
        if self.quit_requested {
            self.quit_requested = false;
            ctx.send_viewport_cmd(ViewportCommand::Close);
        }
    }

    /// A canvas drag: starts, updates or ends an edit of the script. The
    /// preview follows (each update recompiles), playback pauses, and the
    /// whole drag is one step of the editor's undo history.
    fn on_drag(&mut self, ctx: &egui::Context, d: canvas::Drag, place: write_back::Place) {
        match d.phase {
            canvas::DragPhase::Start(pick, part) => {
                self.drag = None;
                if self.doc.analysis.shown_is_stale
                    || !std::sync::Arc::ptr_eq(
                        &self.doc.analysis.shown.skeleton,
                        &self.doc.analysis.comp.armature.skeleton,
                    )
                {
                    self.say(
                        "The script has errors that hide part of it: fix them before dragging",
                        true,
                    );
                    return;
                }
                self.playback.playing = false;
                let shapes = self.settings.view.drag_shapes;
                match drag::DragEdit::begin(
                    &self.doc, &self.pose, pick, part, d.shift, d.world, place, shapes,
                ) {
                    Ok(edit) => {
                        self.say(edit.describe(), false);
                        drag::mark_undo_point(ctx, edit.before());
                        self.drag = Some(edit);
                    }
                    Err(why) => self.say(format!("Not changed: {why}"), true),
                }
            }
            canvas::DragPhase::Move | canvas::DragPhase::End => {
                let snap = d.alt || self.settings.view.snap;
                let ended = d.phase == canvas::DragPhase::End;
                if let Some(edit) = self.drag.as_mut()
                    && d.world.0.is_finite()
                {
                    match edit.update(d.world, snap) {
                        Ok(text) => {
                            if text != self.doc.text {
                                self.editor.follow_replacement(ctx, &self.doc.text, &text);
                                self.doc.text = text;
                                self.doc.sync();
                                edit.changed = true;
                                ctx.request_repaint();
                            }
                        }
                        Err(why) => self.say(format!("Not changed: {why}"), true),
                    }
                }
                // (The text before the drag is the last undo point, so an
                // undo from here restores it: the drag is one step.)
                if ended
                    && let Some(edit) = self.drag.take()
                    && edit.changed
                {
                    self.say(
                        format!("Done {}", edit.describe().split(';').next().unwrap_or_default()),
                        false,
                    );
                }
            }
        }
    }

    /// Puts the editor cursor on the definition of the name under it (the
    /// bone line, slot line, attachment, skin or animation it resolved to;
    /// for a dotted bone name, the bone of the segment under the cursor).
    /// The language server answers with the same function
    /// (`lsp::analysis::definition`).
    pub fn go_to_definition(&mut self) {
        let Some(cursor) = self.editor.cursor else { return };
        let comp = &self.doc.analysis.comp;
        if comp.sources.reference_at(cursor as u32).is_none() {
            return;
        }
        match crate::lsp::analysis::definition(&self.doc.text, comp, cursor as u32) {
            Some(def) => self.editor.select(def.start as usize..def.end as usize),
            None => self.say("This name does not resolve to anything (see Problems)", true),
        }
    }

    /// Selects what was clicked and puts the editor cursor on its line.
    fn pick(&mut self, pick: Option<Pick>) {
        let shown = &self.doc.analysis.shown.skeleton;
        self.selected = match pick {
            Some(Pick::Bone(b)) => {
                shown.bones.get(b.index()).map(|b| Selected::Bone(b.name.clone()))
            }
            Some(Pick::Slot(s)) => {
                shown.slots.get(s.index()).map(|s| Selected::Slot(s.name.clone()))
            }
            None => None,
        };
        // Source spans belong to the current compilation, which may differ
        // from the armature shown: look the item up there by name.
        let comp = &self.doc.analysis.comp;
        let sk = &comp.armature.skeleton;
        let span = match &self.selected {
            Some(Selected::Bone(n)) => sk
                .bone_by_name(n)
                .and_then(|b| comp.sources.bones.get(b.index()).copied().flatten()),
            Some(Selected::Slot(n)) => {
                sk.slot_by_name(n).and_then(|s| comp.sources.slots.get(s.index()).copied())
            }
            None => None,
        };
        if let Some(span) = span {
            let r = span.range();
            self.editor.select(r.start..r.start);
        }
    }

    /// The clock reading of the current frame (egui's input time).
    pub fn now(&self) -> f64 {
        self.now
    }

    /// Whether a question is waiting for the user.
    pub fn has_prompt(&self) -> bool {
        self.prompt.is_some()
    }
}

impl eframe::App for SkelpadApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
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

fn resolve_selected(sk: &Skeleton, s: &Selected) -> Option<Pick> {
    match s {
        Selected::Bone(n) => sk.bone_by_name(n).map(Pick::Bone),
        Selected::Slot(n) => sk.slot_by_name(n).map(Pick::Slot),
    }
}

/// A dopesheet key drag: the text and compilation it started from (every
/// update rewrites that text, so the drag is one edit), and the key.
struct KeyDrag {
    /// Every key that moves (the dragged one, or the selection it is in).
    keys: Vec<(usize, usize)>,
    base_text: String,
    base: Box<crate::compile::Compilation>,
    anim: crate::model::AnimId,
    timeline: usize,
    key: usize,
    /// The key's frame when the drag began.
    from: f64,
    /// The frame last asked for.
    last: f64,
    /// The text differs from `base_text`.
    changed: bool,
}

/// The keyframe ticks of an animation (of one bone and its slots, or of
/// everything), from the source map: each key's time and its text. `None`
/// when the compilation has no such animation or bone.
pub fn key_ticks(
    comp: &crate::compile::Compilation,
    anim: &str,
    bone: Option<&str>,
) -> Option<Vec<timeline::Tick>> {
    use crate::compile::Target;
    let arm = &comp.armature;
    let anim =
        crate::model::AnimId::from_index(arm.animations.iter().position(|a| a.name == anim)?);
    let sk = &arm.skeleton;
    let bone = match bone {
        Some(b) => Some(sk.bone_by_name(b)?),
        None => None,
    };
    let wanted = |t: Option<Target>| match (t, bone) {
        (Some(_), None) => true,
        (Some(Target::Bone(b)), Some(x)) => b == x,
        (Some(Target::Slot(s)), Some(x)) => sk.slots.get(s.index()).is_some_and(|s| s.bone == x),
        _ => false,
    };
    let src = &comp.sources;
    let mut ticks: Vec<timeline::Tick> = src
        .timelines
        .iter()
        .filter(|t| t.anim == anim && t.effective && wanted(t.target))
        .flat_map(|t| src.keys_of(t).into_iter().map(|k| (k.time_secs, Some(k.span))))
        .collect();
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    ticks.dedup_by(|a, b| a.0 == b.0);
    Some(ticks)
}

/// The bone the line at byte `cursor` is about (see
/// [`crate::compile::SourceMap::bone_at`]), as a bone of the armature the
/// canvas shows (which is the last error-free one while the text is broken).
pub fn bone_at_cursor(doc: &Document, cursor: usize) -> Option<BoneId> {
    let comp = &doc.analysis.comp;
    let sk = &comp.armature.skeleton;
    let b = comp.sources.bone_at(&doc.text, cursor, |s| sk.slots.get(s.index()).map(|s| s.bone))?;
    let shown = &doc.analysis.shown.skeleton;
    if std::sync::Arc::ptr_eq(shown, sk) {
        Some(b)
    } else {
        shown.bone_by_name(&sk.bones.get(b.index())?.name)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_line_names_a_bone() {
        let text = "skeleton\n\tarm l10\n\t\t@ :rect w1 h1\n\t\t\t# note\n\tarm.hand l5\nanim \"a\"\n\thand\n\t\tr 0 -> 9\n\t@arm\n\t\tc #F00\nskin \"s\"\n\t@arm :circle d4\norder\n\t@arm\n";
        let doc = Document::untitled("t", text);
        let sk = &doc.analysis.comp.armature.skeleton;
        let at = |needle: &str| {
            bone_at_cursor(&doc, text.find(needle).unwrap()).map(|b| sk.bone(b).name.clone())
        };
        assert_eq!(at("arm l10").as_deref(), Some("arm"));
        assert_eq!(at("@ :rect").as_deref(), Some("arm"));
        assert_eq!(at("arm.hand").as_deref(), Some("arm.hand"));
        assert_eq!(at("r 0").as_deref(), Some("arm.hand"));
        assert_eq!(at("c #F00").as_deref(), Some("arm"));
        assert_eq!(at(":circle").as_deref(), Some("arm"));
        assert_eq!(at("order\n\t@arm").map(|_| ()), None);
        assert_eq!(
            bone_at_cursor(&doc, text.rfind("@arm").unwrap())
                .map(|b| sk.bone(b).name.clone())
                .as_deref(),
            Some("arm")
        );
        // Anywhere on the line, indentation included.
        assert_eq!(
            bone_at_cursor(&doc, text.find("\tarm.hand").unwrap())
                .map(|b| sk.bone(b).name.clone())
                .as_deref(),
            Some("arm.hand")
        );
        assert_eq!(at("skeleton"), None);
        assert_eq!(at("anim"), None);
    }

    #[test]
    fn key_ticks_from_the_source_map_match_the_model() {
        for text in [
            EXAMPLE,
            include_str!("../../examples/tentacle.skel2d"),
            include_str!("../../examples/bouncing_ball.skel2d"),
        ] {
            let comp = crate::compile::compile(text);
            let sk = &comp.armature.skeleton;
            // (An animation made `from` another has no keys of its own
            // written, so the source map gives it no ticks.)
            let derived =
                |a: &crate::model::Animation| text.contains(&format!("anim \"{}\" from", a.name));
            for a in comp.armature.animations.iter().filter(|a| !derived(a)) {
                let ticks: Vec<f64> =
                    key_ticks(&comp, &a.name, None).unwrap().into_iter().map(|t| t.0).collect();
                assert_eq!(ticks, a.key_times(sk, None), "{}", a.name);
                for (i, b) in sk.bones.iter().enumerate() {
                    let ticks = key_ticks(&comp, &a.name, Some(&b.name)).unwrap();
                    let times: Vec<f64> = ticks.iter().map(|t| t.0).collect();
                    assert_eq!(
                        times,
                        a.key_times(sk, Some(BoneId::from_index(i))),
                        "{} {}",
                        a.name,
                        b.name
                    );
                    // Each tick knows the token that made its key.
                    assert!(
                        ticks
                            .iter()
                            .all(|t| t.1.is_some_and(|s| !text[s.range()].trim().is_empty()))
                    );
                }
            }
        }
        assert!(key_ticks(&crate::compile::compile(EXAMPLE), "no such animation", None).is_none());
    }

    #[test]
    fn go_to_definition_follows_the_source_map() {
        let ctx = egui::Context::default();
        let cc = eframe::CreationContext::_new_kittest(ctx);
        let services = Services {
            dialogs: Box::new(files::NativeDialogs),
            recovery_dir: None,
            watch_files: false,
        };
        let mut app = SkelpadApp::new(&cc, None, services);
        let text = "skeleton\n\tarm l10\n\tarm.hand l5\nanim \"a\"\n\thand\n\t\tr 0 -> 9\n";
        app.doc = Document::untitled("t", text);
        app.editor.cursor = Some(text.find("\thand").unwrap() + 2);
        app.go_to_definition();
        let def = text.find("arm.hand").unwrap();
        assert_eq!(app.editor.pending_selection(), Some(def..def + "arm.hand".len()));
        // On a dotted name, the segment under the cursor decides: `arm` in
        // `arm.hand` is the arm's line.
        app.editor.cursor = Some(text.find("arm.hand").unwrap() + 1);
        app.go_to_definition();
        let arm = text.find("arm l10").unwrap();
        assert_eq!(app.editor.pending_selection(), Some(arm..arm + "arm".len()));
    }

    /// The editor and the language server answer "go to definition" alike
    /// at every offset of every example: the editor's selection is the
    /// definition the server's analysis gives, and nothing where it gives
    /// nothing.
    #[test]
    fn go_to_definition_agrees_with_the_language_server_everywhere() {
        let ctx = egui::Context::default();
        let cc = eframe::CreationContext::_new_kittest(ctx);
        let services = Services {
            dialogs: Box::new(files::NativeDialogs),
            recovery_dir: None,
            watch_files: false,
        };
        let mut app = SkelpadApp::new(&cc, None, services);
        let mut jumps = 0;
        for e in help::EXAMPLES {
            app.doc = Document::untitled(e.file, e.text);
            let comp = crate::compile::compile(e.text);
            for offset in 0..=e.text.len() {
                if !e.text.is_char_boundary(offset) {
                    continue;
                }
                app.editor.cursor = Some(offset);
                app.editor.select(0..0);
                app.go_to_definition();
                let server = crate::lsp::analysis::definition(e.text, &comp, offset as u32)
                    .filter(|_| comp.sources.reference_at(offset as u32).is_some())
                    .map(|d| d.start as usize..d.end as usize);
                let editor = app.editor.pending_selection().filter(|r| *r != (0..0));
                assert_eq!(editor, server, "{} at offset {offset}", e.file);
                jumps += usize::from(server.is_some());
            }
        }
        assert!(jumps > 500, "only {jumps} offsets jump");
    }
}

/// The bones of the pose assertions that fail at `time_secs` of `anim`
/// (within half a frame); none while the canvas shows an older version.
fn failing_bones(
    comp: &crate::compile::Compilation,
    anim: Option<crate::model::AnimId>,
    time_secs: f64,
    stale: bool,
) -> Vec<crate::model::BoneId> {
    if stale {
        return Vec::new();
    }
    let half_frame =
        anim.and_then(|a| comp.armature.animation(a)).map_or(1e-9, |a| 0.5 / a.fps.max(1e-9));
    comp.expectations
        .iter()
        .filter(|e| !e.passed() && e.anim == anim && (e.time_secs - time_secs).abs() <= half_frame)
        .filter_map(|e| e.bone(&comp.armature))
        .collect()
}

#[cfg(test)]
mod failing_bone_tests {
    use super::failing_bones;
    use crate::model::AnimId;

    #[test]
    fn a_failing_assertion_highlights_its_bone_at_its_time_only() {
        // `arm` turns 90° by frame 5 (0.5 s at 10 fps); the assertion says 80.
        let text = "skeleton\n\tarm l10\n\tleg l10\nanim \"a\" 10fps\n\tarm\n\t\tr 0 -> 90\nexpect \"a\" 5\n\tarm r80\n\tleg r0\n";
        let comp = crate::check::expect::compile_checked(text);
        let arm = comp.armature.skeleton.bone_by_name("arm").unwrap();
        assert!(comp.has_errors() && !comp.has_armature_errors());
        assert_eq!(failing_bones(&comp, Some(AnimId(0)), 0.5, false), [arm]);
        assert_eq!(failing_bones(&comp, Some(AnimId(0)), 0.53, false), [arm]);
        assert!(failing_bones(&comp, Some(AnimId(0)), 0.2, false).is_empty());
        assert!(failing_bones(&comp, None, 0.5, false).is_empty());
        assert!(failing_bones(&comp, Some(AnimId(0)), 0.5, true).is_empty());
    }
}
