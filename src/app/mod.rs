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
//!
//! A frame runs in named phases: `begin_frame` (file events and shortcuts)
//! → `editor_panel` → `stage` (timeline → pose → canvas, `stage.rs`) →
//! `end_frame`. `startup.rs` starts the app (with `SKELPAD_FRAME_LOG` set,
//! each frame's time goes to stderr). The other modules: `typing` (a frame's
//! keys applied in order), `assist` (hover and completion from
//! `skelpad_ide::analysis`), `help`, `drag` (drag on the canvas, the text
//! follows through `skelpad_ide::edits::write_back`), `dopesheet`, `export`, `spriter` (read-only
//! views of other tools' files).
//!
//! Promises the editor keeps:
//! - **An edit shows in the frame it was typed.** Typing is applied and
//!   compiled before any panel is drawn; edits the text field makes itself are
//!   compiled by its layouter (`Analysis::ensure` on the text it lays out), and
//!   the Problems panel reserves its place first but is filled after the
//!   editor. Highlighting, underlines, the Problems list and the canvas all see
//!   the same compilation.
//! - **Per-frame work does not grow with the animation's length**: scrub-bar
//!   ticks and labels are spaced by pixels, key ticks are cached and thinned to
//!   `timeline::MAX_TICKS`, fitting samples at most `canvas::FIT_BONE_POSES`
//!   poses, onion-skin ghosts stay within `ONION_GHOST_ITEMS`.
//! - **The canvas never goes blank while typing.** Everything valid in a text
//!   with errors compiles; when a broken line would still remove bones,
//!   slots, animations or channels, the canvas keeps the last error-free
//!   armature and says so.
//! - **Selections survive recompiles**: animation and skin are held by name
//!   (then by position, so renaming keeps them), the canvas selection by bone
//!   or slot name; playhead, play state, speed, zoom and pan are untouched by
//!   edits.
//! - **Time comes from outside.** The app reads egui's input time once per
//!   frame and hands the playhead to the pure runtime; tests set that time.
//! - **Single-key shortcuts** (Space, arrows, Home/End, F) act only while the
//!   canvas has focus, never while typing.
//! - **Work is never silently lost.** Opening, New and closing the window with
//!   unsaved changes ask first; saves are atomic and keep the file's line
//!   endings; an unsaved buffer reaches the recovery file within
//!   [`RECOVERY_INTERVAL_SECS`] and is offered back by the next run; an
//!   external change reloads a clean buffer and asks about a dirty one.
//! - **Slow things never block the UI**: file dialogs and exports run on their
//!   own threads; the frame only polls them.

mod anim_menu;
pub mod assist;
pub mod canvas;
mod chrome;
mod curve;
pub mod document;
pub mod dopesheet;
pub mod drag;
pub mod editor;
pub mod export;
pub mod files;
pub mod gltf_baking;
pub mod help;
pub mod highlight;
pub mod history;
pub mod keymap;
pub mod lazy_layout;
pub mod lottie_baking;
pub mod outline;
mod session;
pub mod settings;
mod sparkline;
pub mod spriter;
mod stage;
mod startup;
pub mod timeline;
pub mod transition;
pub mod typing;
mod value_graph;

pub use stage::key_ticks;
pub use startup::run;

use std::path::{Path, PathBuf};
use std::time::Duration;

use eframe::egui::{self, KeyboardShortcut, ViewportCommand};

use crate::model::BoneId;
use crate::runtime::Pose;

use canvas::{Canvas, Drawing, View};
use document::Document;
use editor::Editor;
use export::{ExportChoices, ExportError, ExportJob, ExportKind, ExportRequest};
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
    /// The transition preview (Animation menu): while open, the canvas
    /// plays the crossfade it builds.
    pub transition: transition::TransitionPreview,
    /// A dopesheet key drag that is editing the script.
    key_drag: Option<dopesheet::KeyDrag>,
    /// A curve editor handle drag that is editing the script.
    curve_drag: Option<curve::CurveDrag>,
    dialogs: Box<dyn FileDialogs>,
    /// The export whose options are being chosen.
    export_dialog: Option<ExportKind>,
    /// The Animation menu's open question (a name, or delete?).
    anim_prompt: Option<anim_menu::AnimPrompt>,
    /// The export dialog's choices (kept while the app runs).
    pub export_options: ExportChoices,
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
    fn shortcuts(&mut self, ctx: &egui::Context) {
        let pressed = |s: KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(&s));
        if pressed(keymap::SAVE_AS) {
            self.request(Action::SaveAs);
        } else if pressed(keymap::SAVE) {
            self.request(Action::Save);
        }
        if pressed(keymap::NEW) {
            self.request(Action::New);
        }
        if pressed(keymap::OPEN) {
            self.request(Action::Open(None));
        }
        if pressed(keymap::DEFINITION) {
            self.go_to_definition();
        }
        // Undo and redo act on the script wherever the focus is, except in
        // another text field (the find bar's query, a rename), which
        // handles them itself; the script's own field too is undone here,
        // through its history, so that the status bar says what was undone.
        let script_focused = ctx.memory(|m| m.has_focus(editor::editor_id()));
        if script_focused || !editor::text_field_focused(ctx) {
            if pressed(keymap::REDO) || pressed(keymap::REDO_Y) {
                self.undo_redo(ctx, false);
            } else if pressed(keymap::UNDO) {
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
        self.take_first_compilation(&ctx);
        self.doc.analysis.set_lint(self.settings.view.lint);
        self.begin_frame(&ctx);
        // Prompts first: an answer that replaces the document (Restore,
        // Don't save, Reload from disk) is then shown by the panels below
        // in this same frame. (Modals draw on top whatever the order.)
        self.prompt_ui(&ctx);
        self.anim_prompt_ui(&ctx);
        self.transition_ui(&ctx);
        self.builtin_dialog_ui(&ctx);
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        // In a small window the outline and the script take less than half
        // the width at first, leaving the stage room, and never so much
        // that the stage has less than 320 points (each keeps its minimum).
        let width = ui.available_width();
        if self.settings.view.show_outline {
            egui::Panel::left("outline")
                .resizable(true)
                .default_size((width * 0.2).clamp(120.0, 200.0))
                .size_range(120.0..=(width * 0.3).clamp(120.0, 600.0))
                .show(ui, |ui| self.outline_panel(ui));
        }
        let rest = ui.available_width();
        let editor_width = (rest * 0.45).clamp(200.0, 520.0);
        egui::Panel::left("editor")
            .resizable(true)
            .default_size(editor_width)
            .size_range(200.0..=(rest * 0.55).min(rest - 320.0).clamp(200.0, 1400.0))
            .show(ui, |ui| self.editor_panel(ui));
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| self.stage(ui, &ctx));
        self.end_frame(&ctx);
    }

    /// A big file's first compilation runs on another thread while the
    /// window shows its text: taken when ready, and waited for as soon as
    /// any input comes (a key, a click, the pointer moving), so that
    /// nothing the user does ever acts on the empty placeholder.
    fn take_first_compilation(&mut self, ctx: &egui::Context) {
        if self.doc.is_compiling() {
            let input = ctx.input(|i| !i.events.is_empty() || i.pointer.any_down());
            if !self.doc.poll(input) {
                ctx.request_repaint_after(std::time::Duration::from_millis(4));
            }
        }
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
        // The canvas and the Problems list read pictures from one folder.
        let dir = self.script_dir();
        self.drawing.set_image_dir(&dir);
        self.doc.set_picture_dir(&dir);
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
            a.comp(),
            a.generation,
            a.shown_is_stale,
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
            self.rename(ui.ctx(), span, &name);
        }
    }

    /// Renames the bone (to `new_name`, its last segment) or the animation
    /// whose name is written at `span` everywhere it is named, with the
    /// language server's rename (`skelpad_ide::analysis::rename`): one undo
    /// step, the cursor kept on its token. A name the language cannot take, or a
    /// bone that no longer resolves, changes nothing and says why.
    pub fn rename(&mut self, ctx: &egui::Context, span: std::ops::Range<usize>, new_name: &str) {
        let Some(at) = span.end.checked_sub(1) else { return };
        let comp = self.doc.analysis.comp();
        match skelpad_ide::analysis::rename(&self.doc.text, comp, at as u32, new_name) {
            Ok(edits) if edits.is_empty() => self.say("Nothing to rename", false),
            Ok(edits) => {
                let text = skelpad_ide::text_edit::apply(&self.doc.text, &edits);
                let label = format!("Renamed to `{new_name}` in {} places", edits.len());
                self.editor.history.mark(ctx, &self.doc.text, label);
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

    /// The help windows and the export dialog; settings that follow
    /// playback; the window title; a requested close.
    fn end_frame(&mut self, ctx: &egui::Context) {
        if let Some(e) = self.help.ui(ctx) {
            // Applied at the start of the next frame, like typing.
            let how = if e.word.is_some() { editor::Insert::Words } else { editor::Insert::Line };
            self.editor.insert_at_cursor(e.example, how);
            ctx.request_repaint();
        }
        self.export_dialog_ui(ctx);
        if self.editor.history.open
            && let Some(undo) = history::window(ctx, &mut self.editor.history, self.now)
        {
            self.undo_redo(ctx, undo);
        }

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

    /// Puts the editor cursor on the definition of the name under it (the
    /// bone line, slot line, attachment, skin or animation it resolved to;
    /// for a dotted bone name, the bone of the segment under the cursor; on
    /// a definition, the definition itself).
    /// The language server answers with the same function
    /// (`skelpad_ide::analysis::definition`).
    pub fn go_to_definition(&mut self) {
        let Some(cursor) = self.editor.cursor else { return };
        let comp = self.doc.analysis.comp();
        match skelpad_ide::analysis::definition(&self.doc.text, comp, cursor as u32) {
            Some(def) => self.editor.select(def.start as usize..def.end as usize),
            // A name that resolves to nothing; elsewhere there is no name.
            None if comp.sources.reference_at(cursor as u32).is_some() => {
                self.say("This name does not resolve to anything (see Problems)", true);
            }
            None => {}
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

/// The bone the line at byte `cursor` is about (see
/// [`crate::compile::SourceMap::bone_at`]), as a bone of the armature the
/// canvas shows (which is the last error-free one while the text is broken).
pub fn bone_at_cursor(doc: &Document, cursor: usize) -> Option<BoneId> {
    let comp = doc.analysis.comp();
    let sk = &comp.armature.skeleton;
    let b = comp.sources.bone_at(&doc.text, cursor, |s| sk.slots.get(s.index()).map(|s| s.bone))?;
    let shown = &doc.analysis.shown.skeleton;
    if std::sync::Arc::ptr_eq(shown, sk) {
        Some(b)
    } else {
        shown.bone_by_name(&sk.bones.get(b.index())?.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_line_names_a_bone() {
        let text = "skeleton\n\tarm l10\n\t\t@ :rect w1 h1\n\t\t\t# note\n\tarm.hand l5\nanim \"a\"\n\thand\n\t\tr 0 -> 9\n\t@arm\n\t\tc #F00\nskin \"s\"\n\t@arm :circle d4\norder\n\t@arm\n";
        let doc = Document::untitled("t", text);
        let sk = &doc.analysis.comp().armature.skeleton;
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
}
