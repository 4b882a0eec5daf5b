//! The file session: opening, saving and converting files, asking before
//! unsaved work is lost, watching the open file for changes on disk, and
//! restoring what an earlier run left unsaved.

use super::*;

/// How long after a change event the file is read (editors write in steps).
pub(super) const DISK_SETTLE_SECS: f64 = 0.1;

/// A question the app is waiting on (shown as a modal).
pub(super) enum Prompt {
    /// The buffer has unsaved changes and `then` would discard them.
    Unsaved { then: Action },
    /// The file changed on disk while the buffer has unsaved changes.
    ChangedOnDisk { loaded: files::Loaded },
    /// Buffers left unsaved by an earlier run.
    Recover { file: PathBuf, record: RecoveryRecord },
    /// The built-in save dialog chose a file that exists.
    Overwrite { purpose: DialogPurpose, path: PathBuf },
}

/// What a file dialog was opened for.
pub(super) enum DialogPurpose {
    Open,
    SaveAs { then: Option<Action> },
    Export(ExportKind),
}

impl SkelpadApp {
    /// Starts a file command, asking first when it would lose unsaved work.
    pub fn request(&mut self, action: Action) {
        let discards =
            matches!(action, Action::New | Action::Open(_) | Action::Quit | Action::OpenExample(_));
        if discards && self.doc.is_dirty() {
            self.prompt = Some(Prompt::Unsaved { then: action });
            return;
        }
        self.perform(action);
    }

    pub(super) fn perform(&mut self, action: Action) {
        match action {
            Action::New => {
                self.replace_document(Document::untitled("untitled", ""));
                self.say("New script", false);
            }
            Action::Open(Some(path)) => self.open_path(&path),
            Action::OpenExample(i) => {
                if let Some(e) = help::EXAMPLES.get(i) {
                    self.replace_document(Document::untitled(&help::example_title(e.file), e.text));
                    self.say(
                        format!("A copy of the example {}: save it to keep your changes", e.file),
                        false,
                    );
                }
            }
            Action::Open(None) => {
                let request = DialogRequest {
                    save: false,
                    title: "Open script".into(),
                    start_dir: self.dialog_dir(),
                    suggested: String::new(),
                    extension: "skel2d".into(),
                };
                self.ask_file(DialogPurpose::Open, request);
            }
            Action::Save => match self.doc.path.clone() {
                Some(p) => {
                    self.save_to(&p);
                }
                None => self.ask_save_as(None),
            },
            Action::SaveAs => self.ask_save_as(None),
            Action::Quit => {
                self.allow_close = true;
                if let Some(r) = self.recovery.as_mut() {
                    r.clear();
                }
                self.quit_requested = true;
            }
        }
    }

    pub(super) fn ask_save_as(&mut self, then: Option<Action>) {
        let name = match &self.doc.path {
            Some(p) => p
                .file_name()
                .map_or_else(|| "script.skel2d".into(), |n| n.to_string_lossy().into_owned()),
            None => {
                help::example_file(&self.doc.untitled_name).unwrap_or("untitled.skel2d").to_owned()
            }
        };
        let request = DialogRequest {
            save: true,
            title: "Save script as".into(),
            start_dir: self.dialog_dir(),
            suggested: name,
            extension: "skel2d".into(),
        };
        self.ask_file(DialogPurpose::SaveAs { then }, request);
    }

    /// The folder file dialogs start in: the script's, else that of the
    /// most recent file, else the home folder.
    pub(super) fn dialog_dir(&self) -> Option<PathBuf> {
        let of_file = |p: &PathBuf| p.parent().map(Path::to_path_buf);
        self.doc
            .path
            .as_ref()
            .and_then(of_file)
            .or_else(|| self.settings.recent_files.first().and_then(of_file))
            .or_else(|| std::env::var_os("HOME").map(PathBuf::from))
    }

    /// Whether a file dialog (native or built-in) is waiting for an answer.
    pub(super) fn dialog_open(&self) -> bool {
        self.pending_dialog.is_some() || self.builtin_dialog.is_some()
    }

    /// Asks for a file: through the native dialog, or the built-in one when
    /// native dialogs are known not to work here. One dialog at a time.
    pub(super) fn ask_file(&mut self, purpose: DialogPurpose, request: DialogRequest) {
        if self.dialog_open() {
            self.say("A file dialog is already open: answer it first", true);
            return;
        }
        if self.native_dialogs_missing {
            self.open_builtin_dialog(purpose, request);
        } else {
            let pending = request.ask(self.dialogs.as_ref());
            self.pending_dialog = Some((purpose, request, pending));
        }
    }

    /// Opens the file dialog drawn in egui for `request`.
    pub(super) fn open_builtin_dialog(&mut self, purpose: DialogPurpose, request: DialogRequest) {
        let dialog = request.builtin();
        self.builtin_dialog = Some((purpose, request, dialog));
    }

    /// Draws the built-in file dialog, and carries out its answer (a save
    /// over an existing file asks first: the native dialogs do).
    pub(super) fn builtin_dialog_ui(&mut self, ctx: &egui::Context) {
        let Some((_, _, dialog)) = self.builtin_dialog.as_mut() else { return };
        let state = dialog.show(ctx).state();
        let picked = dialog.path().map(Path::to_path_buf);
        match state {
            egui_file::State::Open => {}
            egui_file::State::Selected => {
                let Some((purpose, request, _)) = self.builtin_dialog.take() else { return };
                let Some(path) = picked else { return };
                let path = request.with_extension(path);
                let own = self.doc.path.as_ref().is_some_and(|p| same_file(p, &path));
                if request.save && path.exists() && !own {
                    self.prompt = Some(Prompt::Overwrite { purpose, path });
                } else {
                    self.dialog_answered(purpose, path, ctx);
                }
            }
            egui_file::State::Cancelled | egui_file::State::Closed => self.builtin_dialog = None,
        }
    }

    /// Carries out what a file was asked for.
    pub(super) fn dialog_answered(
        &mut self,
        purpose: DialogPurpose,
        path: PathBuf,
        ctx: &egui::Context,
    ) {
        match purpose {
            DialogPurpose::Open => self.open_path(&path),
            DialogPurpose::SaveAs { then } => {
                if self.save_to(&path)
                    && let Some(a) = then
                {
                    self.perform(a);
                }
            }
            DialogPurpose::Export(kind) => self.start_export(kind, path, ctx),
        }
    }

    /// Saves the buffer to `path`; returns whether it worked.
    pub(super) fn save_to(&mut self, path: &Path) -> bool {
        match self.doc.save_to(path) {
            Ok(()) => {
                self.say(format!("Saved {}", path.display()), false);
                self.settings.add_recent(path);
                if let Some(r) = self.recovery.as_mut() {
                    r.clear();
                }
                if self.watcher.as_ref().is_none_or(|w| !same_file(w.path(), path)) {
                    self.watcher = None;
                    self.want_watch = true;
                }
                true
            }
            Err(e) => {
                self.say(e, true);
                false
            }
        }
    }

    pub(super) fn open_path(&mut self, path: &Path) {
        match Document::open(path) {
            Ok(doc) => {
                self.replace_document(doc);
                self.settings.add_recent(path);
                self.say(format!("Opened {}", path.display()), false);
            }
            Err(e) => self.say(e, true),
        }
    }

    /// "Convert to script…": writes the shown SkelForm file's script beside
    /// it (`NAME.skel2d`, or `NAME_2.skel2d`, … when taken) with its pictures
    /// in `NAME_sprites/`, and opens the script.
    pub(super) fn convert_imported(&mut self) {
        let Some(iv) = &self.doc.imported else { return };
        let dir = iv.source.parent().map(Path::to_path_buf).unwrap_or_default();
        let stem = iv
            .source
            .file_stem()
            .map_or_else(|| "converted".to_string(), |s| s.to_string_lossy().to_string());
        let mut target = dir.join(format!("{stem}.skel2d"));
        let mut k = 2;
        while target.exists() && k < 1000 {
            target = dir.join(format!("{stem}_{k}.skel2d"));
            k += 1;
        }
        let written = iv.converted.write(&target);
        match written {
            Ok(_) => {
                self.open_path(&target);
                self.say(format!("Converted to {}", target.display()), false);
            }
            Err(e) => self.say(format!("Cannot convert: {e}"), true),
        }
    }

    pub(super) fn replace_document(&mut self, doc: Document) {
        self.doc = doc;
        self.selected = None;
        self.drag = None;
        self.editor.forget_document();
        self.editor.select(0..0);
        self.canvas.fit_requested = true;
        self.playback.time_secs = 0.0;
        self.watcher = None;
        self.want_watch = true;
        if let Some(r) = self.recovery.as_mut() {
            r.clear();
        }
    }

    pub(super) fn watch(&mut self, ctx: &egui::Context) {
        self.want_watch = false;
        if !self.watch_files {
            return;
        }
        let Some(path) = self.doc.path.clone() else { return };
        // A file in a folder that does not exist (yet) has nothing to
        // watch; saving it starts the watch.
        if path.parent().is_some_and(|d| !d.as_os_str().is_empty() && !d.is_dir()) {
            return;
        }
        let ctx = ctx.clone();
        match FileWatcher::new(&path, move || ctx.request_repaint()) {
            Ok(w) => self.watcher = Some(w),
            Err(e) => self.say(e, true),
        }
    }

    /// Looks at the file after the watcher saw it change.
    pub(super) fn check_disk(&mut self) {
        let Some(path) = self.doc.path.clone() else { return };
        match files::load(&path) {
            Ok(loaded) => {
                if self.doc.disk_text.as_deref() == Some(loaded.text.as_str()) {
                    return; // Our own save, or a write that changed nothing.
                }
                if self.doc.is_dirty() {
                    self.doc.disk_text = Some(loaded.text.clone());
                    self.prompt = Some(Prompt::ChangedOnDisk { loaded });
                } else {
                    self.doc.reload(loaded);
                    self.say(format!("Reloaded {}: it changed on disk", path.display()), false);
                }
            }
            // Deleted or being replaced: a recreate will bring another event.
            Err(e) if path.exists() => self.say(e, true),
            Err(_) => self.say(format!("{} was moved or deleted on disk", path.display()), true),
        }
    }

    pub(super) fn poll_files(&mut self, ctx: &egui::Context) {
        if self.want_watch {
            self.watch(ctx);
        }
        if let Some((_, _, pending)) = &self.pending_dialog {
            if let Some(answer) = pending.poll_answer() {
                let Some((purpose, request, _)) = self.pending_dialog.take() else { return };
                match answer {
                    DialogAnswer::Picked(p) => self.dialog_answered(purpose, p, ctx),
                    DialogAnswer::Cancelled => {}
                    DialogAnswer::Unavailable => {
                        if !self.native_dialogs_missing {
                            self.native_dialogs_missing = true;
                            self.say(
                                "No native file dialog here (no desktop portal or zenity): \
                                 using skelpad's own",
                                false,
                            );
                        }
                        self.open_builtin_dialog(purpose, request);
                    }
                }
            } else {
                ctx.request_repaint_after(Duration::from_millis(50));
            }
        }
        if self.watcher.as_ref().is_some_and(FileWatcher::changed) {
            self.disk_check_at = Some(self.now + DISK_SETTLE_SECS);
        }
        if let Some(at) = self.disk_check_at {
            if self.now >= at {
                self.disk_check_at = None;
                self.check_disk();
            } else {
                ctx.request_repaint_after(Duration::from_secs_f64(at - self.now));
            }
        }
        // Recovery: an unsaved buffer reaches the disk within a few seconds.
        if self.now - self.last_recovery_check >= RECOVERY_INTERVAL_SECS {
            self.last_recovery_check = self.now;
            let dirty = self.doc.is_dirty();
            if let Some(r) = self.recovery.as_mut() {
                if dirty {
                    if let Err(e) = r.write(self.doc.path.as_deref(), &self.doc.text) {
                        self.say(format!("cannot write the recovery file: {e}"), true);
                    }
                } else {
                    r.clear();
                }
            }
        }
        if self.doc.is_dirty() {
            ctx.request_repaint_after(Duration::from_secs_f64(RECOVERY_INTERVAL_SECS));
        }
    }

    /// The folder sprites are looked up in: the script's, or the current one.
    pub(super) fn script_dir(&self) -> PathBuf {
        crate::io::script_dir(self.doc.path.as_deref())
    }

    pub(super) fn restore(&mut self, record: RecoveryRecord) {
        let doc = match &record.path {
            Some(p) if p.exists() => {
                Document::open(p).unwrap_or_else(|_| Document::untitled("recovered", ""))
            }
            Some(p) => {
                let mut d = Document::untitled("recovered", "");
                d.path = Some(p.clone());
                d
            }
            None => Document::untitled("recovered", ""),
        };
        self.replace_document(doc);
        self.doc.restore_unsaved(&record.text);
        self.say("Restored unsaved changes: save them to keep them", false);
    }
}

pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    canon(a) == canon(b)
}
