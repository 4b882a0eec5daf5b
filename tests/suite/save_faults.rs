//! Saving under faults: a full disk, a read-only folder, the file deleted
//! or replaced by a folder while it is open, a path through a symbolic link.
//! Each time the file on disk is the old one or the new one, never a part,
//! no temporary file stays, the user is told, and the editor keeps its
//! buffer.
//!
//! A full and a read-only disk are real small file systems (tmpfs) where
//! the machine lets the test mount one (root, or CAP_SYS_ADMIN); elsewhere
//! those tests print `skipped:` and pass. `src/io.rs` also fills a disk on
//! purpose through a writer that fails, which runs everywhere.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A tmpfs mounted on a temporary folder for one test, unmounted when
/// dropped (before the folder is removed).
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    /// A tmpfs of `kib` KiB, or `None` (with a `skipped:` line) where the
    /// test may not mount one.
    fn mount(kib: u32, test: &str) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().unwrap();
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={kib}k"), "skelpad-test"])
            .arg(dir.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            assert!(
                std::env::var("SKELPAD_REQUIRE_ROOT").as_deref() != Ok("1"),
                "{test}: SKELPAD_REQUIRE_ROOT=1 but a small file system cannot be mounted here"
            );
            eprintln!("skipped: {test}: cannot mount a small file system here (needs root)");
            return None;
        }
        Some(SmallDisk { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Makes the file system read-only.
    fn read_only(&self) {
        let ok = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(self.path())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "remounting read-only");
    }

    /// Writes a file until the disk is full; returns its path.
    fn fill(&self) -> PathBuf {
        let filler = self.path().join("filler");
        let mut f = std::fs::File::create(&filler).unwrap();
        let chunk = [b'x'; 1024];
        loop {
            match f.write(&chunk) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    assert_eq!(e.kind(), std::io::ErrorKind::StorageFull, "{e}");
                    break;
                }
            }
        }
        filler
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).stderr(Stdio::null()).status();
    }
}

fn names_in(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

const OLD: &str = "skeleton\n\thip l10\n";

#[test]
fn a_full_disk_keeps_the_old_file_and_says_so() {
    let Some(disk) = SmallDisk::mount(64, "full disk") else { return };
    let target = disk.path().join("rig.skel2d");
    std::fs::write(&target, OLD).unwrap();
    let filler = disk.fill();
    let new = "skeleton\n\thip l20\n".repeat(2000);
    let err = skelpad::io::write_atomic(&target, new.as_bytes()).unwrap_err();
    assert_eq!(err.reason, "the disk is full", "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), OLD);
    assert_eq!(names_in(disk.path()), ["filler", "rig.skel2d"], "no temporary file stays");
    // With room again, the same save works.
    std::fs::remove_file(filler).unwrap();
    skelpad::io::write_atomic(&target, new.as_bytes()).unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), new);
}

#[test]
fn a_read_only_disk_keeps_the_old_file_and_says_so() {
    let Some(disk) = SmallDisk::mount(64, "read-only disk") else { return };
    let target = disk.path().join("rig.skel2d");
    std::fs::write(&target, OLD).unwrap();
    disk.read_only();
    let err = skelpad::io::write_atomic(&target, b"new").unwrap_err();
    assert!(err.reason.contains("the disk is read-only"), "{err}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), OLD);
    assert_eq!(names_in(disk.path()), ["rig.skel2d"]);
}

#[cfg(feature = "app")]
mod editor {
    use super::*;
    use eframe::egui::{Key, Modifiers};
    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use skelpad::app::files::{FileDialogs, PendingDialog};
    use skelpad::app::{Services, SkelpadApp};

    /// No dialog is expected: every save here goes to the open file.
    struct NoDialogs;

    impl FileDialogs for NoDialogs {
        fn pick_open(&self, _: Option<&Path>) -> PendingDialog {
            panic!("no dialog expected")
        }

        fn pick_save(&self, _: &str, _: Option<&Path>, _: &str, _: &str) -> PendingDialog {
            panic!("no dialog expected")
        }
    }

    /// The editor on `file`, with `typed` typed at its start (unsaved).
    fn editor_with_edit(file: &Path, typed: &str) -> Harness<'static, SkelpadApp> {
        let services =
            Services { dialogs: Box::new(NoDialogs), recovery_dir: None, watch_files: false };
        let file = file.to_path_buf();
        let mut h = Harness::builder()
            .with_size([1280.0, 800.0])
            .build_eframe(move |cc| SkelpadApp::new(cc, Some(file), services));
        h.run_steps(2);
        h.ctx.memory_mut(|m| m.request_focus(skelpad::app::editor::editor_id()));
        h.run_steps(1);
        h.state_mut().editor.select(0..0);
        h.run_steps(2);
        h.get_by_label("Script").type_text(typed);
        h.run_steps(1);
        assert!(h.state().doc.is_dirty());
        h
    }

    fn save(h: &mut Harness<'static, SkelpadApp>) {
        h.key_press_modifiers(Modifiers::COMMAND, Key::S);
        h.run_steps(2);
    }

    /// The save failed: an error in the status bar containing `why`, the
    /// buffer still edited and unsaved.
    fn assert_failed_and_kept(h: &Harness<'static, SkelpadApp>, why: &str, typed: &str) {
        let status = h.state().status.clone();
        assert!(
            status.as_ref().is_some_and(|(msg, error)| *error && msg.contains(why)),
            "{status:?}"
        );
        assert!(h.state().doc.is_dirty(), "the buffer still counts as unsaved");
        assert_eq!(h.state().doc.text, format!("{typed}{OLD}"), "the buffer is kept");
    }

    #[test]
    fn a_full_disk_in_the_editor() {
        let Some(disk) = SmallDisk::mount(64, "editor, full disk") else { return };
        let path = disk.path().join("rig.skel2d");
        std::fs::write(&path, OLD).unwrap();
        let typed = format!("# {}\n", "long comment ".repeat(500));
        let mut h = editor_with_edit(&path, &typed);
        let filler = disk.fill();
        save(&mut h);
        assert_failed_and_kept(&h, "the disk is full", &typed);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), OLD);
        assert_eq!(names_in(disk.path()), ["filler", "rig.skel2d"]);
        // Space freed, the next save works.
        std::fs::remove_file(filler).unwrap();
        save(&mut h);
        assert!(!h.state().doc.is_dirty(), "{:?}", h.state().status);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("{typed}{OLD}"));
    }

    #[test]
    fn a_read_only_folder_in_the_editor() {
        let Some(disk) = SmallDisk::mount(64, "editor, read-only disk") else { return };
        let path = disk.path().join("rig.skel2d");
        std::fs::write(&path, OLD).unwrap();
        let mut h = editor_with_edit(&path, "# mine\n");
        disk.read_only();
        save(&mut h);
        assert_failed_and_kept(&h, "the disk is read-only", "# mine\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), OLD);
        assert_eq!(names_in(disk.path()), ["rig.skel2d"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_folder_without_write_permission_in_the_editor() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = dir.path().join("locked");
        std::fs::create_dir(&folder).unwrap();
        let path = folder.join("rig.skel2d");
        std::fs::write(&path, OLD).unwrap();
        let mut h = editor_with_edit(&path, "# mine\n");
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o555)).unwrap();
        let root = std::fs::File::create(folder.join("probe")).is_ok();
        if !root {
            save(&mut h);
        }
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o755)).unwrap();
        if root {
            eprintln!("skipped: running as root, a read-only folder is still writable");
            return;
        }
        assert_failed_and_kept(&h, "permission denied", "# mine\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), OLD);
        assert_eq!(names_in(&folder), ["rig.skel2d"]);
    }

    #[test]
    fn the_file_replaced_by_a_folder_while_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rig.skel2d");
        std::fs::write(&path, OLD).unwrap();
        let mut h = editor_with_edit(&path, "# mine\n");
        std::fs::remove_file(&path).unwrap();
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("inside.txt"), "keep").unwrap();
        save(&mut h);
        assert_failed_and_kept(&h, "it is a directory", "# mine\n");
        assert!(path.is_dir(), "the folder is left alone");
        assert_eq!(names_in(&path), ["inside.txt"]);
        assert_eq!(names_in(dir.path()), ["rig.skel2d"], "no temporary file stays");
    }

    #[test]
    fn the_file_deleted_while_open_is_written_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rig.skel2d");
        std::fs::write(&path, OLD).unwrap();
        let mut h = editor_with_edit(&path, "# mine\n");
        std::fs::remove_file(&path).unwrap();
        save(&mut h);
        let status = h.state().status.clone();
        assert!(status.as_ref().is_some_and(|(m, e)| !e && m.starts_with("Saved")), "{status:?}");
        assert!(!h.state().doc.is_dirty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), format!("# mine\n{OLD}"));
    }

    #[cfg(unix)]
    #[test]
    fn a_file_opened_through_a_symbolic_link_is_saved_through_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        let real = dir.path().join("real/rig.skel2d");
        std::fs::write(&real, OLD).unwrap();
        let link = dir.path().join("link.skel2d");
        std::os::unix::fs::symlink("real/rig.skel2d", &link).unwrap();
        let mut h = editor_with_edit(&link, "# mine\n");
        save(&mut h);
        assert!(!h.state().doc.is_dirty(), "{:?}", h.state().status);
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), format!("# mine\n{OLD}"));
        assert_eq!(names_in(&dir.path().join("real")), ["rig.skel2d"]);
        // A link into a folder that is gone: the save fails and says so,
        // the buffer stays. (A dangling link into an existing folder is
        // written through, creating its target, as a shell's `>` does.)
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink("gone/rig.skel2d", &link).unwrap();
        h.get_by_label("Script").type_text("# more\n");
        h.run_steps(1);
        save(&mut h);
        let text = h.state().doc.text.clone();
        assert!(
            text.contains("# mine\n") && text.contains("# more\n"),
            "the buffer is kept: {text}"
        );
        let status = h.state().status.clone();
        assert!(
            status.as_ref().is_some_and(|(m, e)| *e && m.contains("does not exist")),
            "{status:?}"
        );
        assert!(h.state().doc.is_dirty());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), format!("# mine\n{OLD}"));
    }
}
