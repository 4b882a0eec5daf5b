//! Files: the one place that reads scripts, writes files atomically and
//! words I/O errors for people. The CLI, the editor, the renderer's exports
//! and the file formats all go through it (PNG encoding lives in
//! `skelpad-media`, beside the pictures it encodes).
//!
//! Writes are atomic: each file is written to a temporary file in the
//! target's folder (from `tempfile`), flushed to disk, then renamed over the
//! target, so a crash or an error leaves either the old file or the complete
//! new one. A target that is a symbolic link is written through (the file it
//! points to is replaced, the link stays), and an existing target keeps its
//! permissions (a new file gets the usual ones, the umask applied). A failure
//! removes every temporary file.
//!
//! Reading: `read_script` gives a clear message for a missing or unreadable
//! file, and one "not a text file" error (`not_text`) for a NUL byte or
//! bytes that are not UTF-8; the language server applies `not_text` to the
//! text a client sends. `reason` words an I/O error for people, and errors
//! are typed (`IoError`: the operation, the path, the reason).
//! `script_dir` is the script's folder, where its sprites are found.
//!
//! Pictures: the language reads no picture, but a script names them, and
//! every front end says the same about one that cannot be read. The
//! [`Pictures`] trait is how they ask (typst's `World` idea: the document
//! asks, the host answers): `skelpad-media`'s `ImageStore` answers from
//! the script's folder, the editor's for an imported file from the file's
//! own atlas; `skelpad-ide`'s `Document` turns each refusal into a warning
//! at the name.
//!
//! Writing: `AtomicFiles` writes one or several files and renames them all on
//! `commit`; `write_atomic` is the one-file case. A full or read-only disk, a
//! target replaced by a folder, a link into a missing folder: the old file
//! stays, no temporary file is left and the error says why; the editor then
//! keeps its buffer unsaved (`tests/suite/save_faults.rs`, on real tmpfs
//! mounts where the test may mount them, and a writer that fails on purpose in
//! this file's tests).

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file that could not be read or written: which one, and why, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IoError {
    /// Whether the file was being read or written.
    pub op: IoOp,
    /// The file as the user named it.
    pub path: PathBuf,
    /// Why, for people ("file not found", "permission denied", …).
    pub reason: String,
}

/// What was being done with a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IoOp {
    /// Reading it.
    Read,
    /// Writing it.
    Write,
}

impl IoError {
    /// A failed read of `path`.
    pub fn read(path: &Path, reason: impl Into<String>) -> IoError {
        IoError { op: IoOp::Read, path: path.to_path_buf(), reason: reason.into() }
    }

    /// A failed write of `path`.
    pub fn write(path: &Path, reason: impl Into<String>) -> IoError {
        IoError { op: IoOp::Write, path: path.to_path_buf(), reason: reason.into() }
    }
}

impl fmt::Display for IoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = match self.op {
            IoOp::Read => "read",
            IoOp::Write => "write",
        };
        write!(f, "cannot {verb} `{}`: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for IoError {}

/// An I/O error in words for people: the common cases short, the rest as
/// the system says them.
pub fn reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "file not found".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::IsADirectory => "it is a directory".into(),
        std::io::ErrorKind::StorageFull => "the disk is full".into(),
        std::io::ErrorKind::QuotaExceeded => "the disk quota is used up".into(),
        std::io::ErrorKind::ReadOnlyFilesystem => "the disk is read-only".into(),
        _ => e.to_string(),
    }
}

/// Why `bytes` are not a script's text, or `None` when they are: a NUL
/// byte (no text file has one; binary files nearly always do) or bytes
/// that are not UTF-8, each with the offset of the first. One reason for
/// the whole file: a picture or an archive opened by mistake is one clear
/// error, not a diagnostic for every "word" of it.
pub fn not_text(bytes: &[u8]) -> Option<String> {
    let utf8_end = match std::str::from_utf8(bytes) {
        Ok(_) => bytes.len(),
        Err(e) => e.valid_up_to(),
    };
    match memchr::memchr(0, &bytes[..utf8_end]) {
        Some(at) => Some(format!("it is not a text file (a NUL byte at offset {at})")),
        None if utf8_end < bytes.len() => {
            Some(format!("it is not a text file (not UTF-8: invalid byte at offset {utf8_end})"))
        }
        None => None,
    }
}

/// Reads a script: its text, or a clear message (unreadable, or not a text
/// file: see [`not_text`]).
pub fn read_script(path: &Path) -> Result<String, IoError> {
    let bytes = std::fs::read(path).map_err(|e| IoError::read(path, reason(&e)))?;
    if let Some(why) = not_text(&bytes) {
        return Err(IoError::read(path, why));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        IoError::read(
            path,
            format!("it is not a text file (not UTF-8: invalid byte at offset {at})"),
        )
    })
}

/// The folder of a script, where its sprite images are looked up: the
/// script's parent folder, or the current folder for a bare file name or an
/// untitled script.
pub fn script_dir(script: Option<&Path>) -> PathBuf {
    match script.and_then(Path::parent) {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Where a script's pictures come from, as the front ends' one document
/// (`skelpad-ide`'s `Document`) asks about them: whether the picture a
/// script names (`"face.png"`, a path relative to the script's folder) can
/// be read and decoded.
pub trait Pictures {
    /// `Ok` when the picture named `name` can be read; otherwise why not,
    /// in words for people (the file, and "no such file", "not a PNG or JPEG
    /// image", …). An implementation may keep what it learnt: a document
    /// asks again after every edit.
    fn read(&mut self, name: &str) -> Result<(), String>;
}

/// The most symbolic links followed from one target (the kernel's limit).
const MAX_LINKS: usize = 40;

/// The file a write of `path` lands in: `path` itself, or, when `path` is
/// a symbolic link, the file at the end of its chain (which may not exist
/// yet: writing through a dangling link creates its target).
fn resolve(path: &Path) -> Result<PathBuf, IoError> {
    let mut at = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let next = std::fs::read_link(&at).map_err(|e| IoError::write(path, reason(&e)))?;
                at = if next.is_absolute() { next } else { script_dir(Some(&at)).join(next) };
            }
            _ => return Ok(at),
        }
    }
    Err(IoError::write(path, "too many levels of symbolic links"))
}

/// Files written to temporary names first; [`AtomicFiles::commit`] renames
/// them all into place. Dropped without `commit` (an error or a cancel on
/// the way), it removes what it wrote and the targets are untouched.
#[derive(Debug, Default)]
pub struct AtomicFiles {
    /// (temporary file, where it goes, the path as the caller named it).
    pending: Vec<(tempfile::NamedTempFile, PathBuf, PathBuf)>,
}

impl AtomicFiles {
    /// No files yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes `bytes` to a temporary file beside `path` (beside the file a
    /// symbolic link points to), flushed to disk, with the permissions the
    /// target has now.
    pub fn write(&mut self, path: &Path, bytes: &[u8]) -> Result<(), IoError> {
        self.write_with(path, &mut |w| w.write_all(bytes))
    }

    /// [`AtomicFiles::write`] with the bytes written by `fill` (tests pass
    /// writers that fail on purpose: a full disk after so many bytes).
    fn write_with(
        &mut self,
        path: &Path,
        fill: &mut dyn FnMut(&mut dyn Write) -> std::io::Result<()>,
    ) -> Result<(), IoError> {
        let target = resolve(path)?;
        let name =
            target.file_name().ok_or_else(|| IoError::write(path, "it is not a file name"))?;
        let dir = script_dir(Some(&target));
        if !dir.is_dir() {
            return Err(IoError::write(path, format!("folder `{}` does not exist", dir.display())));
        }
        if target.is_dir() {
            return Err(IoError::write(path, "it is a directory"));
        }
        let mut builder = tempfile::Builder::new();
        let prefix = format!(".{}.", name.to_string_lossy());
        builder.prefix(&prefix).suffix(".tmp");
        // tempfile creates files readable by their owner only; a new target
        // gets what any new file gets (0666 less the umask) instead.
        #[cfg(unix)]
        let new_file = {
            use std::os::unix::fs::PermissionsExt;
            std::fs::Permissions::from_mode(0o666)
        };
        #[cfg(unix)]
        builder.permissions(new_file);
        let mut tmp = builder.tempfile_in(&dir).map_err(|e| {
            IoError::write(
                path,
                format!("cannot create a temporary file beside it: {}", reason(&e)),
            )
        })?;
        fill(&mut tmp).map_err(|e| IoError::write(path, reason(&e)))?;
        if let Ok(meta) = std::fs::metadata(&target) {
            // Best effort: a file system without permissions still gets the data.
            let _ = tmp.as_file().set_permissions(meta.permissions());
        }
        tmp.as_file().sync_all().map_err(|e| {
            IoError::write(path, format!("cannot flush it to disk: {}", reason(&e)))
        })?;
        self.pending.push((tmp, target, path.to_path_buf()));
        Ok(())
    }

    /// Moves every file into place and returns the paths as they were named.
    /// Should a rename fail, the files this commit already moved are removed,
    /// so no partial set stays (the temporary files go too).
    pub fn commit(mut self) -> Result<Vec<PathBuf>, IoError> {
        let mut placed: Vec<PathBuf> = Vec::new();
        let mut named = Vec::new();
        for (tmp, target, path) in std::mem::take(&mut self.pending) {
            if let Err(e) = tmp.persist(&target) {
                // `e.file` is dropped here, which removes the temporary file.
                for p in &placed {
                    let _ = std::fs::remove_file(p);
                }
                return Err(IoError::write(&path, reason(&e.error)));
            }
            placed.push(target);
            named.push(path);
        }
        Ok(named)
    }
}

/// Writes `bytes` to `path` atomically (see the module's documentation).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), IoError> {
    let mut files = AtomicFiles::new();
    files.write(path, bytes)?;
    files.commit().map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn replaces_the_target_and_leaves_no_temporary_file() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("out.bin");
        fs::write(&target, b"old").unwrap();
        write_atomic(&target, b"new contents").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new contents");
        assert_eq!(names_in(tmp.path()), ["out.bin"]);
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_the_file_and_writes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("no-such-dir").join("out.skf");
        let err = write_atomic(&target, b"x").unwrap_err();
        assert_eq!(err.op, IoOp::Write);
        assert_eq!(err.path, target);
        assert!(
            err.to_string().starts_with("cannot write `") && err.to_string().contains("out.skf"),
            "{err}"
        );
        assert!(!target.exists());
        assert!(names_in(tmp.path()).is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_is_written_through_and_stays_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir(tmp.path().join("real")).unwrap();
        let real = tmp.path().join("real/script.skel2d");
        fs::write(&real, "old").unwrap();
        let link = tmp.path().join("link.skel2d");
        std::os::unix::fs::symlink("real/script.skel2d", &link).unwrap();
        write_atomic(&link, b"new").unwrap();
        assert!(
            fs::symlink_metadata(&link).unwrap().file_type().is_symlink(),
            "the link was replaced by a file"
        );
        assert_eq!(fs::read(&real).unwrap(), b"new");
        assert_eq!(
            names_in(&tmp.path().join("real")),
            ["script.skel2d"],
            "no temporary file beside the target"
        );
        // A link to a link, and a dangling link (its target is created).
        let link2 = tmp.path().join("link2");
        std::os::unix::fs::symlink(&link, &link2).unwrap();
        write_atomic(&link2, b"newer").unwrap();
        assert_eq!(fs::read(&real).unwrap(), b"newer");
        let dangling = tmp.path().join("dangling");
        std::os::unix::fs::symlink("real/new.skel2d", &dangling).unwrap();
        write_atomic(&dangling, b"fresh").unwrap();
        assert!(fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(tmp.path().join("real/new.skel2d")).unwrap(), b"fresh");
        // A loop of links is an error, not a hang.
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        assert!(write_atomic(&a, b"x").unwrap_err().reason.contains("symbolic links"));
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_file_keeps_its_permissions_and_a_new_one_gets_the_usual_ones() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("run.sh");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o751)).unwrap();
        write_atomic(&target, b"new").unwrap();
        assert_eq!(fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o751);
        // A new file: what `File::create` gives (0666 less the umask), not
        // tempfile's owner-only 0600.
        let plain = tmp.path().join("plain");
        fs::File::create(&plain).unwrap();
        let expected = fs::metadata(&plain).unwrap().permissions().mode() & 0o777;
        let fresh = tmp.path().join("fresh");
        write_atomic(&fresh, b"x").unwrap();
        assert_eq!(fs::metadata(&fresh).unwrap().permissions().mode() & 0o777, expected);
    }

    #[test]
    fn several_files_appear_together_or_not_at_all() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        {
            let mut files = AtomicFiles::new();
            files.write(&dir.join("a.png"), b"one").unwrap();
            assert!(files.write(&dir.join("missing/b.png"), b"two").is_err());
            // Dropped without commit: the export failed.
        }
        assert!(names_in(dir).is_empty(), "no partial or temporary file is left");
        let mut files = AtomicFiles::new();
        files.write(&dir.join("a.png"), b"one").unwrap();
        files.write(&dir.join("b.png"), b"two").unwrap();
        assert!(!dir.join("a.png").exists(), "nothing appears before commit");
        assert_eq!(files.commit().unwrap(), [dir.join("a.png"), dir.join("b.png")]);
        assert_eq!(fs::read(dir.join("b.png")).unwrap(), b"two");
        assert_eq!(names_in(dir), ["a.png", "b.png"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_rename_failing_mid_commit_removes_the_files_already_placed() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let (d1, d2) = (tmp.path().join("one"), tmp.path().join("two"));
        fs::create_dir(&d1).unwrap();
        fs::create_dir(&d2).unwrap();
        let mut files = AtomicFiles::new();
        files.write(&d1.join("a"), b"1").unwrap();
        files.write(&d2.join("b"), b"2").unwrap();
        // Folder `two` becomes read-only: its rename fails (unless we are
        // root, who may write anyway; then there is nothing to test).
        fs::set_permissions(&d2, fs::Permissions::from_mode(0o555)).unwrap();
        let probe = fs::File::create(d2.join("probe")).is_ok();
        let result = files.commit();
        fs::set_permissions(&d2, fs::Permissions::from_mode(0o755)).unwrap();
        if probe {
            eprintln!("skipped: running as root, a read-only folder is still writable");
            return;
        }
        assert!(result.is_err());
        assert!(names_in(&d1).is_empty(), "the file already placed is removed again");
    }

    /// Passes `budget` bytes on, then fails as a full disk does.
    struct FullAfter<'a> {
        inner: &'a mut dyn Write,
        budget: usize,
    }

    impl Write for FullAfter<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.budget == 0 {
                return Err(std::io::ErrorKind::StorageFull.into());
            }
            let n = buf.len().min(self.budget);
            self.budget -= n;
            self.inner.write(&buf[..n])
        }

        fn flush(&mut self) -> std::io::Result<()> {
            self.inner.flush()
        }
    }

    #[test]
    fn a_disk_that_fills_up_mid_write_leaves_the_original_and_no_temporary_file() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("walk.skel2d");
        fs::write(&target, "skeleton\n\thip\n").unwrap();
        let new = "skeleton\n\thip l10\n".repeat(100);
        for budget in [0, 7, new.len() - 1] {
            let mut files = AtomicFiles::new();
            let err = files
                .write_with(&target, &mut |w| {
                    FullAfter { inner: w, budget }.write_all(new.as_bytes())
                })
                .unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("cannot write `{}`: the disk is full", target.display())
            );
            assert_eq!(files.commit().unwrap(), Vec::<PathBuf>::new(), "nothing pending");
            assert_eq!(
                fs::read_to_string(&target).unwrap(),
                "skeleton\n\thip\n",
                "budget {budget}"
            );
            assert_eq!(names_in(tmp.path()), ["walk.skel2d"], "the partial temporary file is gone");
        }
        // The same writer with room enough writes the whole file.
        let mut files = AtomicFiles::new();
        files
            .write_with(&target, &mut |w| {
                FullAfter { inner: w, budget: new.len() }.write_all(new.as_bytes())
            })
            .unwrap();
        files.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), new);
    }

    #[test]
    fn a_directory_target_fails_before_anything_is_written() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir(tmp.path().join("out.png")).unwrap();
        let err = write_atomic(&tmp.path().join("out.png"), b"x").unwrap_err();
        assert_eq!(err.reason, "it is a directory");
        assert_eq!(names_in(tmp.path()), ["out.png"]);
    }

    #[test]
    fn scripts_are_read_with_clear_messages() {
        let tmp = tempfile::tempdir().unwrap();
        let missing = tmp.path().join("missing.skel2d");
        assert_eq!(
            read_script(&missing).unwrap_err().to_string(),
            format!("cannot read `{}`: file not found", missing.display())
        );
        let latin1 = tmp.path().join("latin1.skel2d");
        fs::write(&latin1, b"skeleton\n\tb\xe9\n").unwrap();
        assert!(
            read_script(&latin1)
                .unwrap_err()
                .reason
                .contains("not a text file (not UTF-8: invalid byte at offset 11)")
        );
        // A binary file that happens to be valid UTF-8: its first NUL.
        let binary = tmp.path().join("picture.png");
        fs::write(&binary, b"\x7fELF\x02\x01\x01\x00\x00rest").unwrap();
        assert_eq!(
            read_script(&binary).unwrap_err().reason,
            "it is not a text file (a NUL byte at offset 7)"
        );
        // A NUL after the first invalid byte: the earlier problem is named.
        assert!(not_text(b"ab\xffc\x00").unwrap().contains("invalid byte at offset 2"));
        assert!(not_text("tab\there, é".as_bytes()).is_none());
        assert_eq!(script_dir(Some(Path::new("walk.skel2d"))), PathBuf::from("."));
        assert_eq!(script_dir(Some(Path::new("art/walk.skel2d"))), PathBuf::from("art"));
        assert_eq!(script_dir(None), PathBuf::from("."));
    }
}
