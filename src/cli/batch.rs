//! Many inputs to one command (`render`, `export`): each file's output in
//! the folder `-o` names, the files shared out among every core (their
//! frames too: rayon nests the work), each file's messages printed whole
//! and in the order the files were given, and a bar of files on a terminal.

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};

/// The output of each input in `dir`: `dir/STEM.EXT`. Two inputs with the
/// same stem would write the same file: refused, naming them.
pub fn outputs(files: &[PathBuf], dir: &Path, ext: &str) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let stem = f.file_stem().map_or_else(|| "out".into(), |s| s.to_string_lossy());
        let path = dir.join(format!("{stem}.{ext}"));
        if let Some(j) = out.iter().position(|o| *o == path) {
            return Err(format!(
                "`{}` and `{}` would both write `{}`; render or export them separately",
                files[j].display(),
                files[i].display(),
                path.display()
            ));
        }
        out.push(path);
    }
    Ok(out)
}

/// Makes the output folder `dir` (and its parents) if it is missing.
pub fn make_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| {
        format!("cannot make the folder `{}`: {}", dir.display(), crate::io::reason(&e))
    })
}

/// Runs `one(file, output, messages)` for every file of `files`, each
/// written to its [`outputs`] place in `dir` (made first), on every thread
/// of the current rayon pool, then writes each file's messages to `err` in
/// input order. Returns the worst exit code (2 over 1 over 0); when the
/// outputs are refused (or `dir` cannot be made), the error is written to
/// `err` and nothing runs.
pub fn run(
    files: &[PathBuf],
    dir: &Path,
    ext: &str,
    err: &mut dyn Write,
    one: impl Fn(&Path, &Path, &mut Vec<u8>) -> i32 + Sync,
) -> i32 {
    let outs = match outputs(files, dir, ext).and_then(|o| make_dir(dir).map(|()| o)) {
        Ok(o) => o,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_USAGE;
        }
    };
    let n = files.len();
    let bar = super::progress_bar(n);
    let results: Vec<(i32, Vec<u8>)> = (0..n)
        .into_par_iter()
        .map(|i| {
            let mut messages = Vec::new();
            let code = one(&files[i], &outs[i], &mut messages);
            bar.inc(1);
            (code, messages)
        })
        .collect();
    bar.finish_and_clear();
    let mut worst = EXIT_OK;
    for (code, messages) in results {
        let _ = err.write_all(&messages);
        worst = match (worst, code) {
            (EXIT_USAGE, _) | (_, EXIT_USAGE) => EXIT_USAGE,
            (EXIT_ERRORS, _) | (_, EXIT_ERRORS) => EXIT_ERRORS,
            _ => EXIT_OK,
        };
    }
    let _ = err.flush();
    worst
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_are_named_by_stem_and_collisions_refused() {
        let files = [PathBuf::from("a/walk.skel2d"), PathBuf::from("b/run.scml")];
        assert_eq!(
            outputs(&files, Path::new("out"), "gif"),
            Ok(vec![PathBuf::from("out/walk.gif"), PathBuf::from("out/run.gif")])
        );
        let same = [PathBuf::from("a/walk.skel2d"), PathBuf::from("b/walk.skel2d")];
        let e = outputs(&same, Path::new("out"), "png").unwrap_err();
        assert!(e.contains("a/walk.skel2d") && e.contains("b/walk.skel2d"), "{e}");
    }

    #[test]
    fn messages_keep_the_input_order_and_the_worst_code_wins() {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(4).build().unwrap();
        let mut err = Vec::new();
        let dir = tempfile::tempdir().unwrap();
        let files: Vec<PathBuf> =
            (0..40).map(|i| PathBuf::from(format!("in/{i}.skel2d"))).collect();
        let code = pool.install(|| {
            run(&files, dir.path(), "skf", &mut err, |file, output, m| {
                let i: usize = file.file_stem().unwrap().to_str().unwrap().parse().unwrap();
                assert_eq!(output, dir.path().join(format!("{i}.skf")));
                // Later files finish first.
                std::thread::sleep(std::time::Duration::from_micros(((40 - i) * 50) as u64));
                let _ = writeln!(m, "file {i}");
                if i == 7 { EXIT_ERRORS } else { EXIT_OK }
            })
        });
        assert_eq!(code, EXIT_ERRORS);
        let want: String = (0..40).map(|i| format!("file {i}\n")).collect();
        assert_eq!(String::from_utf8(err).unwrap(), want);
    }
}
