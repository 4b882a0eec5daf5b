//! The window's chrome: the menu bar, the status bar, the modal prompts and
//! the export dialog with the export it starts and follows.

use super::*;

impl SkelpadApp {
    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.file_menu(ui));
            ui.menu_button("Edit", |ui| self.edit_menu(ui));
            ui.menu_button("Animation", |ui| self.animation_menu(ui));
            ui.menu_button("Export", |ui| self.export_menu(ui));
            ui.menu_button("View", |ui| self.view_menu(ui));
            ui.menu_button("Help", |ui| self.help_menu(ui));
        });
    }

    /// The File menu: new, open (an example, a recent file), save, quit.
    fn file_menu(&mut self, ui: &mut egui::Ui) {
        if ui.button("New            Ctrl+N").clicked() {
            self.request(Action::New);
        }
        if ui.button("Open…          Ctrl+O").clicked() {
            self.request(Action::Open(None));
        }
        ui.menu_button("Examples", |ui| {
            for (i, e) in help::EXAMPLES.iter().enumerate() {
                if ui.button(e.file).on_hover_text("Open an untitled copy").clicked() {
                    self.request(Action::OpenExample(i));
                }
            }
        });
        ui.menu_button("Open Recent", |ui| {
            if self.settings.recent_files.is_empty() {
                ui.weak("No recent files");
            }
            for p in self.settings.recent_files.clone() {
                if ui.button(p.display().to_string()).clicked() {
                    self.request(Action::Open(Some(p)));
                }
            }
        });
        if ui.button("Save           Ctrl+S").clicked() {
            self.request(Action::Save);
        }
        if ui.button("Save As…  Ctrl+Shift+S").clicked() {
            self.request(Action::SaveAs);
        }
        ui.separator();
        if ui.button("Quit").clicked() {
            ui.ctx().send_viewport_cmd(ViewportCommand::Close);
        }
    }

    /// The Edit menu: undo, redo, find, go to definition.
    fn edit_menu(&mut self, ui: &mut egui::Ui) {
        if ui.button("Undo     Ctrl+Z").clicked() {
            self.undo_redo(ui.ctx(), true);
        }
        if ui.button("Redo     Ctrl+Shift+Z").clicked() {
            self.undo_redo(ui.ctx(), false);
        }
        if ui.button("History…").clicked() {
            self.editor.history.open = true;
        }
        ui.separator();
        if ui.button("Find…    Ctrl+F").clicked() {
            self.editor.open_find();
        }
        if ui.button("Go to definition   F12").clicked() {
            self.go_to_definition();
        }
    }

    /// The Export menu: one entry per export (those that need an animation only
    /// when there is one; none while an export runs or a dialog is open).
    fn export_menu(&mut self, ui: &mut egui::Ui) {
        let has_anim = !self.doc.analysis.shown.animations.is_empty();
        let idle = self.export_job.is_none() && !self.dialog_open();
        for kind in ExportKind::ALL {
            let enabled = idle && (has_anim || !kind.needs_animation());
            if ui.add_enabled(enabled, egui::Button::new(kind.menu_label())).clicked() {
                self.export_dialog = Some(kind);
            }
        }
    }

    /// The View menu: the canvas's overlays, the panels, fit, the theme.
    fn view_menu(&mut self, ui: &mut egui::Ui) {
        ui.checkbox(&mut self.settings.view.show_grid, "Grid and axes");
        ui.checkbox(&mut self.settings.view.show_bones, "Bone overlay");
        ui.checkbox(&mut self.settings.view.onion_skin, "Onion skin");
        ui.checkbox(&mut self.settings.view.show_outline, "Outline");
        ui.checkbox(&mut self.settings.view.show_dopesheet, "Dopesheet").on_hover_text(
            "A row of keys per item under the timeline: drag a key to move it in time",
        );
        let curves = egui::Checkbox::new(&mut self.settings.view.show_curves, "Curve editor");
        ui.add_enabled(self.settings.view.show_dopesheet, curves).on_hover_text(
            "Under the dopesheet: the selected key's curve, its handles and easing, and the property's values over the animation",
        );
        ui.checkbox(&mut self.settings.view.lint, "Motion lints")
            .on_hover_text("Warn about loop seams, pops, keys that change nothing, attachments never shown and very long animations");
        if ui.button("Fit to view   F / Ctrl+0").clicked() {
            self.canvas.fit_requested = true;
        }
        ui.separator();
        ui.menu_button("Theme", |ui| {
            for t in Theme::ALL {
                if ui.radio(self.settings.theme == t, t.label()).clicked() {
                    self.settings.theme = t;
                    ui.ctx().set_theme(t.preference());
                }
            }
        });
    }

    /// The Help menu: the shortcuts and the language reference.
    fn help_menu(&mut self, ui: &mut egui::Ui) {
        if ui.button("Keyboard shortcuts").clicked() {
            self.help.open = Some(help::HelpPage::Shortcuts);
        }
        if ui.button("Language reference").clicked() {
            self.help.open = Some(help::HelpPage::Reference);
        }
    }

    /// Undo or redo through the text field's own history.
    pub(super) fn undo_redo(&mut self, ctx: &egui::Context, undo: bool) {
        let id = editor::editor_id();
        let Some(mut state) = egui::text_edit::TextEditState::load(ctx, id) else { return };
        let range = state.cursor.char_range().unwrap_or_default();
        let mut undoer = state.undoer();
        let current = (range, self.doc.text.clone());
        let target = if undo { undoer.undo(&current) } else { undoer.redo(&current) }.cloned();
        if let Some((range, text)) = target {
            let note = if undo {
                self.editor.history.undone(&self.doc.text, &text)
            } else {
                self.editor.history.redone(&self.doc.text, &text)
            };
            self.doc.text = text;
            state.cursor.set_char_range(Some(range));
            state.set_undoer(undoer);
            state.store(ctx, id);
            self.doc.sync();
            self.say(note, false);
        }
    }

    pub(super) fn status_bar(&mut self, ui: &mut egui::Ui) {
        // The readouts first, from the right edge; the messages then take
        // the room left of them.
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            self.status_readouts(ui);
            ui.with_layout(egui::Layout::left_to_right(egui::Align::Center), |ui| {
                if let Some(job) = &self.export_job {
                    let (done, total) = job.progress.get();
                    let stage = job.progress.stage().label();
                    let bar = egui::ProgressBar::new(job.fraction().unwrap_or(0.0))
                        .desired_width(260.0)
                        .text(format!("Exporting {}: {stage} {done}/{total}", job.label));
                    ui.add(bar);
                    if job.cancellable
                        && !job.progress.is_cancelled()
                        && ui.small_button("Cancel export").clicked()
                    {
                        job.progress.cancel();
                    }
                }
                if self.doc.is_compiling() {
                    ui.spinner();
                    ui.label("Compiling…");
                }
                if self.pending_dialog.is_some() {
                    ui.spinner();
                    ui.label("Waiting for the file dialog…");
                    if ui
                        .small_button("Use the built-in dialog")
                        .on_hover_text("If no dialog appeared, choose the file in skelpad itself")
                        .clicked()
                        && let Some((purpose, request, _)) = self.pending_dialog.take()
                    {
                        self.open_builtin_dialog(purpose, request);
                    }
                }
                // An event the playhead just passed flashes here.
                if let Some(ev) = self.playback.flash(self.now) {
                    ui.colored_label(
                        egui::Color32::from_rgb(0xD0, 0x40, 0xC0),
                        format!("event: {ev}"),
                    )
                    .on_hover_text(
                        "an event of the animation fired (the timeline marks its events)",
                    );
                    ui.separator();
                }
                if let Some((msg, is_error)) = &self.status {
                    // Cut to the room the readouts on the right leave (the
                    // whole message shows on hover).
                    let text = if *is_error {
                        egui::RichText::new(msg).color(ui.visuals().error_fg_color)
                    } else {
                        egui::RichText::new(msg)
                    };
                    let r = ui.add(egui::Label::new(text).truncate());
                    if !self.status_details.is_empty() {
                        r.on_hover_text(self.status_details.join("\n"));
                    }
                }
            });
        });
    }

    /// The status bar's right end: what the document holds and where the
    /// cursor is.
    fn status_readouts(&self, ui: &mut egui::Ui) {
        // An imported file is not compiled: count what the canvas shows.
        let a = &self.doc.analysis;
        let arm = if self.doc.spriter.is_some() { &a.shown } else { &a.comp().armature };
        let sk = &arm.skeleton;
        let (bones, slots, anims) = (sk.bones.len(), sk.slots.len(), arm.animations.len());
        let s = super::editor::problems::plural;
        ui.weak(format!(
            "{bones} bone{} · {slots} slot{} · {anims} animation{}",
            s(bones),
            s(slots),
            s(anims)
        ));
        if let Some(c) = self.editor.cursor {
            let mut lc = self.doc.analysis.comp().lines.line_col(&self.doc.text, c as u32);
            if self.doc.spriter.is_some()
                && let Some(before) = self.doc.text.get(..c)
            {
                // Not compiled: count lines here.
                let line_start = before.rfind('\n').map_or(0, |i| i + 1);
                lc.line = before.matches('\n').count() as u32 + 1;
                lc.column = before[line_start..].chars().count() as u32 + 1;
            }
            ui.weak(format!("Ln {}, Col {}", lc.line, lc.column));
        }
    }

    pub(super) fn prompt_ui(&mut self, ctx: &egui::Context) {
        let Some(prompt) = self.prompt.take() else { return };
        let mut answer = PromptAnswer { keep: true, replace: false, then: None };
        egui::Modal::new(egui::Id::unique("skelpad.prompt")).show(ctx, |ui| {
            ui.set_max_width(460.0);
            match &prompt {
                Prompt::Unsaved { then: action } => self.unsaved_prompt(ui, action, &mut answer),
                Prompt::ChangedOnDisk { loaded } => {
                    self.changed_on_disk_prompt(ui, loaded, &mut answer)
                }
                Prompt::Overwrite { path, .. } => {
                    ui.heading("Replace the file?");
                    ui.label(format!("{} already exists. Replace it?", path.display()));
                    ui.horizontal(|ui| {
                        if ui.button("Replace").clicked() {
                            answer.keep = false;
                            answer.replace = true;
                        }
                        if ui.button("Cancel").clicked() {
                            answer.keep = false;
                        }
                    });
                }
                Prompt::Recover { file, record } => {
                    self.recover_prompt(ui, (file, record), &mut answer)
                }
            }
        });
        if answer.replace
            && let Prompt::Overwrite { purpose, path } = prompt
        {
            self.dialog_answered(purpose, path, ctx);
        } else if answer.keep && self.prompt.is_none() {
            self.prompt = Some(prompt);
        }
        if let Some(a) = answer.then {
            self.perform(a);
        }
    }

    /// Unsaved changes before `action`: save them (then go on), go on
    /// without, or cancel.
    fn unsaved_prompt(&mut self, ui: &mut egui::Ui, action: &Action, answer: &mut PromptAnswer) {
        ui.heading("Unsaved changes");
        ui.label(format!(
            "{} has changes that are not saved. Save them first?",
            self.doc.display_name()
        ));
        ui.horizontal(|ui| {
            if ui.button("Save").clicked() {
                answer.keep = false;
                match self.doc.path.clone() {
                    Some(p) => {
                        if self.save_to(&p) {
                            answer.then = Some(action.clone());
                        }
                    }
                    None => self.ask_save_as(Some(action.clone())),
                }
            }
            if ui.button("Don't save").clicked() {
                answer.keep = false;
                answer.then = Some(action.clone());
            }
            if ui.button("Cancel").clicked() {
                answer.keep = false;
            }
        });
    }

    /// The file changed on disk under unsaved changes: reload it or keep
    /// the buffer.
    fn changed_on_disk_prompt(
        &mut self,
        ui: &mut egui::Ui,
        loaded: &files::Loaded,
        answer: &mut PromptAnswer,
    ) {
        ui.heading("Changed on disk");
        ui.label(format!(
            "{} was changed by another program, and it has unsaved changes here.",
            self.doc.display_name()
        ));
        ui.horizontal(|ui| {
            if ui.button("Reload from disk").clicked() {
                self.doc.reload(loaded.clone());
                answer.keep = false;
            }
            if ui.button("Keep my version").clicked() {
                answer.keep = false;
            }
        });
    }

    /// Changes an earlier run left unsaved (kept in `file`): restore or
    /// discard them.
    fn recover_prompt(
        &mut self,
        ui: &mut egui::Ui,
        (file, record): (&PathBuf, &RecoveryRecord),
        answer: &mut PromptAnswer,
    ) {
        ui.heading("Recover unsaved changes?");
        let what = record
            .path
            .as_ref()
            .map_or_else(|| "an untitled script".to_owned(), |p| p.display().to_string());
        ui.label(format!("skelpad did not close cleanly and kept unsaved changes to {what}."));
        ui.horizontal(|ui| {
            if ui.button("Restore").clicked() {
                answer.keep = false;
                self.restore(record.clone());
                let _ = std::fs::remove_file(file);
            }
            if ui.button("Discard").clicked() {
                answer.keep = false;
                let _ = std::fs::remove_file(file);
            }
        });
    }

    /// The export options dialog; "Choose file…" asks where to write.
    pub(super) fn export_dialog_ui(&mut self, ctx: &egui::Context) {
        let Some(kind) = self.export_dialog else { return };
        let mut answer = None;
        let (anim, skin) = self.playback.resolve(&self.doc.analysis.shown);
        let (shown, dir) = (&self.doc.analysis.shown, self.script_dir());
        egui::Modal::new(egui::Id::unique("skelpad.export")).show(ctx, |ui| {
            ui.set_max_width(420.0);
            answer = self.export_options.ui(ui, kind, |ui, opts| {
                if kind == ExportKind::Lottie {
                    super::lottie_baking::list(ui, shown, anim, skin, opts.lottie_one, &dir);
                }
                if kind == ExportKind::Godot {
                    super::lottie_baking::list_godot(ui, shown, skin, opts.godot3);
                }
                if kind == ExportKind::Gltf {
                    super::gltf_baking::list(ui, shown, anim, skin, opts.lottie_one);
                }
            });
        });
        match answer {
            Some(true) => {
                self.export_dialog = None;
                let stem = self.doc.path.as_ref().and_then(|p| p.file_stem());
                let stem = stem.map(|s| s.to_string_lossy().into_owned());
                let anim = self
                    .playback
                    .resolve(&self.doc.analysis.shown)
                    .0
                    .and_then(|a| self.doc.analysis.shown.animation(a));
                let anim = anim.map(|a| a.name.as_str());
                let one = self.export_options.lottie_one;
                let name = super::export::suggested_name(stem.as_deref(), kind, anim, one);
                let request = DialogRequest {
                    save: true,
                    title: kind.title().to_owned(),
                    start_dir: self.dialog_dir(),
                    suggested: name,
                    extension: kind.extension().to_owned(),
                };
                self.ask_file(DialogPurpose::Export(kind), request);
            }
            Some(false) => self.export_dialog = None,
            None => {}
        }
    }

    /// Starts an export of what the canvas shows to `out`, on a worker thread.
    pub(super) fn start_export(&mut self, kind: ExportKind, out: PathBuf, ctx: &egui::Context) {
        let armature = self.doc.analysis.shown.clone();
        let (anim, skin) = self.playback.resolve(&armature);
        let time_secs = self.playback.sample_time(anim.and_then(|a| armature.animation(a)));
        let label = format!(
            "{} to {}",
            kind.extension().to_uppercase(),
            out.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
        );
        let request = ExportRequest {
            kind,
            armature,
            anim,
            skin,
            time_secs,
            zoom: f64::from(self.view.zoom),
            options: self.export_options.clone(),
            image_dir: self.script_dir(),
            out,
            script_has_errors: self.doc.analysis.comp().has_errors(),
        };
        let ctx = ctx.clone();
        let mut job =
            ExportJob::spawn(label, move |p| request.run(p), move || ctx.request_repaint());
        job.cancellable = kind.can_cancel();
        self.export_job = Some(job);
    }

    pub(super) fn poll_export(&mut self) {
        let Some(result) = self.export_job.as_ref().and_then(ExportJob::poll) else { return };
        let label = self.export_job.take().map(|j| j.label).unwrap_or_default();
        match result {
            Ok(done) => {
                let files = &done.files;
                let where_ = files
                    .first()
                    .and_then(|f| f.parent())
                    .map_or_else(String::new, |d| format!(" in {}", d.display()));
                let warned = match done.warnings.len() {
                    0 => String::new(),
                    n => format!(" ({n} warning{}: hover to read)", if n == 1 { "" } else { "s" }),
                };
                self.say(
                    format!(
                        "Exported {label}: {} file{}{where_}{warned}",
                        files.len(),
                        if files.len() == 1 { "" } else { "s" }
                    ),
                    false,
                );
                self.status_details = done.warnings;
            }
            Err(ExportError::Cancelled) => {
                self.say(format!("Export of {label} cancelled; nothing was written"), false)
            }
            Err(e) => self.say(format!("Export failed: {e}"), true),
        }
    }

    /// Puts a message in the status bar.
    pub(super) fn say(&mut self, message: impl Into<String>, is_error: bool) {
        self.status = Some((message.into(), is_error));
        self.status_details.clear();
    }
}

/// What the user answered a prompt this frame.
struct PromptAnswer {
    /// The prompt stays open.
    keep: bool,
    /// Replace the file (an overwrite prompt).
    replace: bool,
    /// The action to perform next.
    then: Option<Action>,
}
