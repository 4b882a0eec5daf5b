//! The file side of the editor: loading with line-ending detection, atomic
//! saves, the recovery file for unsaved buffers, the watcher that notices
//! external changes, and the file dialogs (behind a trait so tests can
//! answer them).
//!
//! A native dialog that answers "cancelled" sooner than a person could (no
//! desktop portal, no zenity: rfd only logs it) counts as unavailable: the app
//! says so once in the status bar and uses `egui_file`'s dialog from then on
//! (a save over an existing file asks first); while a native dialog is
//! pending, the status bar offers the built-in one. The watcher watches the
//! folder, so rename and delete-and-recreate saves are seen; our own saves are
//! recognized by content.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// How the lines of a file end. The buffer always holds `\n`; saving writes
/// the file's own convention back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineEnding {
    /// `\n` (Unix).
    #[default]
    Lf,
    /// `\r\n` (Windows).
    CrLf,
}

impl LineEnding {
    /// The convention of the first line break of `text` (`\n` when there is none).
    pub fn detect(text: &str) -> LineEnding {
        match text.find('\n') {
            Some(i) if i > 0 && text.as_bytes()[i - 1] == b'\r' => LineEnding::CrLf,
            _ => LineEnding::Lf,
        }
    }

    /// `text` (with `\n` line breaks) in this convention.
    pub fn apply(self, text: &str) -> String {
        match self {
            LineEnding::Lf => text.to_owned(),
            LineEnding::CrLf => text.replace('\n', "\r\n"),
        }
    }
}

/// A script read from disk: its text with `\n` line breaks and the line
/// ending it was written with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The text, with `\n` line breaks.
    pub text: String,
    /// How the file's lines ended.
    pub line_ending: LineEnding,
}

/// Reads a script. Errors are sentences for the user.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let raw = crate::io::read_script(path).map_err(|e| e.to_string())?;
    let line_ending = LineEnding::detect(&raw);
    // Only `\r\n` pairs are folded, so a lone `\r` survives a round trip.
    let text = if line_ending == LineEnding::CrLf { raw.replace("\r\n", "\n") } else { raw };
    Ok(Loaded { text, line_ending })
}

/// Saves a buffer (with `\n` line breaks) in the given convention,
/// atomically ([`crate::io::write_atomic`]: a crash leaves the old file or
/// the new one; a symbolic link is written through; permissions are kept).
pub fn save(path: &Path, text: &str, line_ending: LineEnding) -> Result<(), String> {
    crate::io::write_atomic(path, line_ending.apply(text).as_bytes())
        .map_err(|e| format!("cannot save `{}`: {}", path.display(), e.reason))
}

// ---------------------------------------------------------------------------
// Recovery

/// What the recovery file holds: enough to give an unsaved buffer back.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RecoveryRecord {
    /// The file the buffer belongs to (`None` for an untitled buffer).
    pub path: Option<PathBuf>,
    /// The unsaved buffer.
    pub text: String,
    /// Seconds since the Unix epoch when the record was written.
    pub saved_at_unix_secs: u64,
    /// The process that wrote it: a record of a process still running is
    /// not offered to another instance.
    pub pid: u32,
}

/// The recovery file of this editor process, in a folder shared by all runs.
pub struct Recovery {
    dir: PathBuf,
    file: PathBuf,
    /// The text last written, so an unchanged buffer is not written again.
    last_written: Option<String>,
}

impl Recovery {
    /// Recovery files live in `dir` (created on first write).
    pub fn new(dir: PathBuf) -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let file = dir.join(format!("recovery-{}-{nanos}.json", std::process::id()));
        Recovery { dir, file, last_written: None }
    }

    /// The file this process writes its record to.
    pub fn path(&self) -> &Path {
        &self.file
    }

    /// Writes the buffer's recovery record unless it is already written.
    pub fn write(&mut self, path: Option<&Path>, text: &str) -> Result<(), String> {
        if self.last_written.as_deref() == Some(text) {
            return Ok(());
        }
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create `{}`: {e}", self.dir.display()))?;
        let record = RecoveryRecord {
            path: path.map(Path::to_path_buf),
            text: text.to_owned(),
            saved_at_unix_secs: unix_now(),
            pid: std::process::id(),
        };
        let json = serde_json::to_vec(&record).map_err(|e| e.to_string())?;
        crate::io::write_atomic(&self.file, &json).map_err(|e| e.to_string())?;
        self.last_written = Some(text.to_owned());
        Ok(())
    }

    /// Removes this process's record (the buffer was saved or discarded).
    pub fn clear(&mut self) {
        self.last_written = None;
        let _ = std::fs::remove_file(&self.file);
    }

    /// Records left by earlier runs that did not end cleanly, newest first.
    pub fn orphans(&self) -> Vec<(PathBuf, RecoveryRecord)> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return Vec::new() };
        let mut out: Vec<(PathBuf, RecoveryRecord)> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p != &self.file && p.extension().is_some_and(|x| x == "json"))
            .filter_map(|p| {
                let record: RecoveryRecord =
                    serde_json::from_slice(&std::fs::read(&p).ok()?).ok()?;
                (!process_alive(record.pid)).then_some((p, record))
            })
            .collect();
        out.sort_by_key(|r| std::cmp::Reverse(r.1.saved_at_unix_secs));
        out
    }
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs())
}

/// Whether another process with this id is running (Linux: `/proc`; other
/// systems cannot tell cheaply, so every record is offered there).
fn process_alive(pid: u32) -> bool {
    pid != std::process::id()
        && cfg!(target_os = "linux")
        && Path::new(&format!("/proc/{pid}")).exists()
}

// ---------------------------------------------------------------------------
// Watching

/// Watches one file for changes made by other programs.
///
/// The *folder* is watched, not the file: editors that save by writing a new
/// file and renaming it over the old one, or by deleting and recreating it,
/// replace the inode a file watch would follow.
pub struct FileWatcher {
    _watcher: notify::RecommendedWatcher,
    events: Receiver<()>,
    path: PathBuf,
}

impl FileWatcher {
    /// Starts watching `path`; `wake` is called from the watcher's thread on
    /// every relevant event (the app uses it to request a repaint).
    pub fn new(path: &Path, wake: impl Fn() + Send + 'static) -> Result<Self, String> {
        use notify::Watcher;
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        let name = path.file_name().map(|n| n.to_os_string());
        let (tx, events) = channel();
        let mut watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            let Ok(event) = res else { return };
            if event.kind.is_access() {
                return;
            }
            if event.paths.iter().any(|p| p.file_name().map(|n| n.to_os_string()) == name)
                && tx.send(()).is_ok()
            {
                wake();
            }
        })
        .map_err(|e| format!("cannot watch `{}`: {e}", path.display()))?;
        watcher
            .watch(&dir, notify::RecursiveMode::NonRecursive)
            .map_err(|e| format!("cannot watch `{}`: {e}", dir.display()))?;
        Ok(FileWatcher { _watcher: watcher, events, path })
    }

    /// The watched file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file changed since the last call.
    pub fn changed(&self) -> bool {
        let mut any = false;
        loop {
            match self.events.try_recv() {
                Ok(()) => any = true,
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return any,
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Dialogs

/// How a file dialog ended.
#[derive(Clone, Debug, PartialEq)]
pub enum DialogAnswer {
    /// The user chose this file.
    Picked(PathBuf),
    /// The user closed the dialog without choosing.
    Cancelled,
    /// No dialog could be shown (no desktop portal and no zenity, a dialog
    /// thread that could not start or died): the app falls back to its own.
    Unavailable,
}

/// A native dialog that comes back empty sooner than this after it was
/// asked for was never on screen: no person opens a file dialog, reads it
/// and cancels it in half a second. (rfd reports a missing desktop portal
/// and a missing zenity only in its log, and answers "cancelled".)
pub const NATIVE_DIALOG_MIN_SECS: f64 = 0.5;

/// A file dialog's answer, delivered later so the UI keeps running while the
/// dialog is open.
pub struct PendingDialog(Receiver<DialogAnswer>);

impl PendingDialog {
    /// A dialog already answered (`None`: cancelled).
    pub fn ready(answer: Option<PathBuf>) -> Self {
        Self::answered(answer.map_or(DialogAnswer::Cancelled, DialogAnswer::Picked))
    }

    /// A dialog that could not be shown.
    pub fn unavailable() -> Self {
        Self::answered(DialogAnswer::Unavailable)
    }

    fn answered(answer: DialogAnswer) -> Self {
        let (tx, rx) = channel();
        let _ = tx.send(answer);
        PendingDialog(rx)
    }

    /// `None` while the dialog is open; `Some(None)` when it was cancelled
    /// or could not be shown.
    pub fn poll(&self) -> Option<Option<PathBuf>> {
        match self.poll_answer()? {
            DialogAnswer::Picked(p) => Some(Some(p)),
            DialogAnswer::Cancelled | DialogAnswer::Unavailable => Some(None),
        }
    }

    /// `None` while the dialog is open, else how it ended (a dialog thread
    /// that died counts as unavailable).
    pub fn poll_answer(&self) -> Option<DialogAnswer> {
        match self.0.try_recv() {
            Ok(answer) => Some(answer),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(DialogAnswer::Unavailable),
        }
    }
}

/// What a file dialog asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct DialogRequest {
    /// A save dialog (else an open dialog).
    pub save: bool,
    /// The dialog's title ("Save script as", "Export PNG").
    pub title: String,
    /// The folder it starts in.
    pub start_dir: Option<PathBuf>,
    /// The file name offered (save dialogs).
    pub suggested: String,
    /// The extension of the files asked for, without the dot ("" for any).
    pub extension: String,
}

impl DialogRequest {
    /// Asks `dialogs` (the native dialogs, or a test's).
    pub fn ask(&self, dialogs: &dyn FileDialogs) -> PendingDialog {
        if self.save {
            dialogs.pick_save(
                &self.title,
                self.start_dir.as_deref(),
                &self.suggested,
                &self.extension,
            )
        } else {
            dialogs.pick_open(self.start_dir.as_deref())
        }
    }

    /// The built-in dialog (drawn in egui) for this request, opened.
    pub fn builtin(&self) -> egui_file::FileDialog {
        let mut d = if self.save {
            egui_file::FileDialog::save_file().default_filename(self.suggested.clone())
        } else {
            egui_file::FileDialog::open_file()
        };
        d = d.title(&self.title).id(eframe::egui::Id::unique("skelpad.file-dialog"));
        if let Some(dir) = self.start_dir.as_ref().filter(|d| d.is_dir()) {
            d = d.initial_path(dir.clone());
        }
        d.open();
        d
    }

    /// The path chosen in a save dialog with the requested extension added
    /// when the name typed has none.
    pub fn with_extension(&self, path: PathBuf) -> PathBuf {
        if self.save && !self.extension.is_empty() && path.extension().is_none() {
            path.with_extension(&self.extension)
        } else {
            path
        }
    }
}

/// Asks the user for file names.
pub trait FileDialogs {
    /// Which script to open.
    fn pick_open(&self, start_dir: Option<&Path>) -> PendingDialog;
    /// Where to save (`suggested` is the current name, if any). `purpose`
    /// is the dialog title, e.g. "Save script as" or "Export PNG".
    fn pick_save(
        &self,
        purpose: &str,
        start_dir: Option<&Path>,
        suggested: &str,
        extension: &str,
    ) -> PendingDialog;
}

/// Native dialogs through rfd, each run on its own thread.
pub struct NativeDialogs;

impl FileDialogs for NativeDialogs {
    fn pick_open(&self, start_dir: Option<&Path>) -> PendingDialog {
        let start_dir = start_dir.map(Path::to_path_buf);
        spawn_dialog(move || {
            let mut d = rfd::FileDialog::new()
                .set_title("Open script")
                .add_filter("Skel2D script", &["skel2d"])
                .add_filter("All files", &["*"]);
            if let Some(dir) = start_dir {
                d = d.set_directory(dir);
            }
            d.pick_file()
        })
    }

    fn pick_save(
        &self,
        purpose: &str,
        start_dir: Option<&Path>,
        suggested: &str,
        extension: &str,
    ) -> PendingDialog {
        let (purpose, suggested, extension) =
            (purpose.to_owned(), suggested.to_owned(), extension.to_owned());
        let start_dir = start_dir.map(Path::to_path_buf);
        spawn_dialog(move || {
            let mut d = rfd::FileDialog::new().set_title(purpose).set_file_name(suggested);
            if !extension.is_empty() {
                d = d.add_filter(extension.to_uppercase(), &[extension.as_str()]);
            }
            if let Some(dir) = start_dir {
                d = d.set_directory(dir);
            }
            d.save_file()
        })
    }
}

/// Runs a native dialog on its own thread; an empty answer that comes too
/// soon to be a person's (see [`NATIVE_DIALOG_MIN_SECS`]) means the dialog
/// was never shown.
fn spawn_dialog(f: impl FnOnce() -> Option<PathBuf> + Send + 'static) -> PendingDialog {
    let (tx, rx) = channel();
    let spawned = std::thread::Builder::new().name("file dialog".into()).spawn(move || {
        let asked = std::time::Instant::now();
        let answer = match f() {
            Some(p) => DialogAnswer::Picked(p),
            None if asked.elapsed().as_secs_f64() < NATIVE_DIALOG_MIN_SECS => {
                DialogAnswer::Unavailable
            }
            None => DialogAnswer::Cancelled,
        };
        let _ = tx.send(answer);
    });
    match spawned {
        Ok(_) => PendingDialog(rx),
        Err(_) => PendingDialog::unavailable(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait(p: &PendingDialog) -> DialogAnswer {
        for _ in 0..500 {
            if let Some(a) = p.poll_answer() {
                return a;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("no answer");
    }

    #[test]
    fn an_empty_answer_too_soon_to_be_a_person_means_no_dialog() {
        assert_eq!(wait(&spawn_dialog(|| None)), DialogAnswer::Unavailable);
        let slow = || {
            std::thread::sleep(std::time::Duration::from_secs_f64(NATIVE_DIALOG_MIN_SECS + 0.1));
            None
        };
        assert_eq!(wait(&spawn_dialog(slow)), DialogAnswer::Cancelled);
        let p = PathBuf::from("/x/y.skel2d");
        let q = p.clone();
        assert_eq!(wait(&spawn_dialog(move || Some(q))), DialogAnswer::Picked(p));
        let saved = DialogRequest {
            save: true,
            title: "t".into(),
            start_dir: None,
            suggested: String::new(),
            extension: "png".into(),
        };
        assert_eq!(saved.with_extension("a/b".into()), PathBuf::from("a/b.png"));
        assert_eq!(saved.with_extension("a/b.gif".into()), PathBuf::from("a/b.gif"));
    }

    #[test]
    fn crlf_files_keep_their_line_endings() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.skel2d");
        std::fs::write(&path, "skeleton\r\n\tarm l10\r\n").unwrap();
        let loaded = load(&path).unwrap();
        assert_eq!(loaded.text, "skeleton\n\tarm l10\n");
        assert_eq!(loaded.line_ending, LineEnding::CrLf);
        save(&path, &format!("{}\tleg\n", loaded.text), loaded.line_ending).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "skeleton\r\n\tarm l10\r\n\tleg\r\n");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn saving_into_a_missing_folder_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let err = save(&dir.path().join("no/such/dir/a.skel2d"), "x", LineEnding::Lf).unwrap_err();
        assert!(err.contains("cannot save"), "{err}");
    }

    #[test]
    fn recovery_records_are_offered_to_the_next_run_only() {
        let dir = tempfile::tempdir().unwrap();
        let mut rec = Recovery::new(dir.path().to_path_buf());
        rec.write(Some(Path::new("/x/a.skel2d")), "skeleton\n").unwrap();
        // The writer does not offer its own record.
        assert!(rec.orphans().is_empty());
        // A record from a process that is gone is offered.
        let mut record: RecoveryRecord =
            serde_json::from_slice(&std::fs::read(rec.path()).unwrap()).unwrap();
        record.pid = u32::MAX;
        std::fs::write(dir.path().join("recovery-old.json"), serde_json::to_vec(&record).unwrap())
            .unwrap();
        let found = rec.orphans();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].1.text, "skeleton\n");
        rec.clear();
        assert!(!rec.path().exists());
    }
}
