//! Atomic file writes: write a temporary file beside the target, then rename
//! it over the target. A failure at any point removes the temporary file, so
//! the target is either the old file or the complete new one.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically. The error message names the file
/// and the reason.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let file_name =
        path.file_name().ok_or_else(|| format!("cannot write `{}`: not a file name", path.display()))?.to_string_lossy().into_owned();
    // A name no other process uses at the same moment: our pid plus a counter.
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{file_name}.{}.{n}.tmp", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    match result {
        Ok(()) => Ok(()),
        Err(e) => {
            // The temporary file may or may not exist; either way it must go.
            let _ = fs::remove_file(&tmp);
            Err(format!("cannot write `{}`: {}", path.display(), crate::cli::io_reason(&e)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_target_and_leaves_no_temporary_file() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let target = dir.join("out.bin");
        fs::write(&target, b"old").unwrap();
        write_atomic(&target, b"new contents").unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new contents");
        let leftovers: Vec<_> = fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).filter(|e| e.file_name() != "out.bin").collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn a_missing_folder_is_an_error_naming_the_file() {
        let tmp = tempfile::tempdir().unwrap();
        let target = tmp.path().join("no-such-dir").join("out.skf");
        let err = write_atomic(&target, b"x").unwrap_err();
        assert!(err.contains("out.skf"), "{err}");
        assert!(!target.exists());
    }
}
