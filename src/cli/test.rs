//! `skelpad test [FILES|DIRS…]`: runs the pose assertions (`expect`
//! sections) of many scripts and prints a summary like `cargo test`.

use std::path::{Path, PathBuf};

use crate::compile::{Compilation, Target};
use crate::syntax::Diagnostic;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, Format, read_script, report};

/// The scripts of the arguments: files as given, directories searched for
/// `*.skel2d` (recursively, sorted, at most 100 000 entries visited).
fn collect(args: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = Vec::new();
    let mut budget = 100_000usize;
    for a in args {
        if a.is_dir() {
            let mut stack = vec![a.clone()];
            let mut found = Vec::new();
            while let Some(dir) = stack.pop() {
                let rd = std::fs::read_dir(&dir).map_err(|e| {
                    format!("cannot read `{}`: {}", dir.display(), crate::io::reason(&e))
                })?;
                for e in rd.flatten() {
                    budget = budget
                        .checked_sub(1)
                        .ok_or("too many files (more than 100 000 visited)")?;
                    let p = e.path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "skel2d") {
                        found.push(p);
                    }
                }
            }
            found.sort();
            out.extend(found);
        } else {
            out.push(a.clone());
        }
    }
    Ok(out)
}

fn target_name(comp: &Compilation, t: Option<Target>) -> String {
    let sk = &comp.armature.skeleton;
    match t {
        Some(Target::Bone(b)) => sk.bones.get(b.index()).map_or("?".into(), |x| x.name.clone()),
        Some(Target::Slot(s)) => {
            sk.slots.get(s.index()).map_or("?".into(), |x| format!("@{}", x.name))
        }
        _ => "(unresolved)".into(),
    }
}

/// What an expectation line is about: its bone or slot, or `!EVENT`.
fn line_name(comp: &Compilation, e: &crate::compile::expect::ExpectResult) -> String {
    match &e.event {
        Some(name) => format!("!{name}"),
        None => target_name(comp, e.target),
    }
}

pub(super) fn run(args: &[PathBuf], format: Format) -> i32 {
    let files = match collect(args) {
        Ok(f) => f,
        Err(msg) => {
            eprintln!("error: {msg}");
            return EXIT_USAGE;
        }
    };
    // Files run on every core; their reports are printed in order.
    use rayon::prelude::*;
    let bar = super::progress_bar(files.len());
    let results: Vec<Tested> = files
        .par_iter()
        .map(|path| {
            let r = test_file(path, format);
            bar.inc(1);
            r
        })
        .collect();
    bar.finish_and_clear();
    let mut code = EXIT_OK;
    let (mut total_passed, mut total_failed) = (0usize, 0usize);
    let mut json_files = Vec::new();
    for r in results {
        match r {
            Tested::Unreadable(msg) => {
                eprintln!("error: {msg}");
                code = EXIT_USAGE;
            }
            Tested::Done { passed, failed, failing, human, json } => {
                total_passed += passed;
                total_failed += failed;
                if failing && code == EXIT_OK {
                    code = EXIT_ERRORS;
                }
                print!("{human}");
                json_files.extend(json);
            }
        }
    }
    let ok = code == EXIT_OK;
    match format {
        Format::Human => println!(
            "\ntest result: {}. {total_passed} passed; {total_failed} failed; {} file(s)",
            if ok { "ok" } else { "FAILED" },
            files.len()
        ),
        Format::Json => {
            let out = serde_json::json!({ "ok": ok, "passed": total_passed, "failed": total_failed, "files": json_files });
            println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        }
    }
    code
}

/// What testing one file gave, printed in the files' order by [`run`].
enum Tested {
    /// The file could not be read (the message).
    Unreadable(String),
    /// Its counts, whether it fails, its human report and its JSON.
    Done {
        passed: usize,
        failed: usize,
        failing: bool,
        human: String,
        json: Option<serde_json::Value>,
    },
}

/// What running one file's expectations found, for its report.
struct FileRun<'a> {
    path: &'a Path,
    text: &'a str,
    comp: &'a Compilation,
    passed: usize,
    failed: usize,
    /// Each expectation's line name and whether it passed.
    entries: Vec<(String, bool)>,
    /// The diagnostics of the failed expectations.
    failures: Vec<Diagnostic>,
    /// Errors outside the expectations (they make the file fail too).
    other_errors: Vec<&'a Diagnostic>,
}

fn test_file(path: &Path, format: Format) -> Tested {
    let text = match read_script(path) {
        Ok(t) => t,
        Err(msg) => return Tested::Unreadable(msg),
    };
    // The document `check` holds (its picture warnings are not errors, so
    // they change no result here).
    let (text, comp) = super::document(path, text, false).into_parts();
    let (passed, failed, entries, failures) = file_report(path, &text, &comp);
    // Errors outside the expectations make the file fail too.
    let other_errors: Vec<&Diagnostic> = comp
        .diagnostics
        .iter()
        .filter(|d| {
            d.is_error() && !comp.expectations.iter().any(|e| e.line.cover(d.span) == e.line)
        })
        .collect();
    let failing = failed > 0 || !other_errors.is_empty();
    let run =
        FileRun { path, text: &text, comp: &comp, passed, failed, entries, failures, other_errors };
    let (human, json) = match format {
        Format::Human => (human_report(&run, failing), None),
        Format::Json => (String::new(), Some(json_report(&run))),
    };
    Tested::Done { passed, failed, failing, human, json }
}

/// The human-readable report of one file: each expectation's result, the
/// failures, and the file's result line.
fn human_report(run: &FileRun, failing: bool) -> String {
    use std::fmt::Write as _;
    let FileRun { path, text, comp, passed, failed, .. } = run;
    let mut human = String::new();
    let _ = writeln!(
        human,
        "\nrunning {} expectation(s) in {}",
        comp.expectations.len(),
        path.display()
    );
    for (line, ok) in &run.entries {
        let _ = writeln!(human, "expect {line} ... {}", if *ok { "ok" } else { "FAILED" });
    }
    if !run.failures.is_empty() || !run.other_errors.is_empty() {
        let mut shown: Vec<Diagnostic> = run.failures.clone();
        shown.extend(run.other_errors.iter().map(|d| (*d).clone()));
        shown.sort_by_key(|d| d.span.start);
        let _ = write!(human, "\nfailures:\n{}", report::render_plain(path, text, &shown));
    }
    let status = if failing { "FAILED" } else { "ok" };
    let errs = if run.other_errors.is_empty() {
        String::new()
    } else {
        format!("; {} other error(s) in the script", run.other_errors.len())
    };
    let _ = writeln!(human, "file result: {status}. {passed} passed; {failed} failed{errs}");
    human
}

/// The JSON report of one file: each expectation with its failures, and the
/// script's other errors.
fn json_report(run: &FileRun) -> serde_json::Value {
    let FileRun { path, text, comp, passed, failed, .. } = run;
    let exps: Vec<serde_json::Value> = comp
        .expectations
        .iter()
        .map(|e| {
            let msgs: Vec<serde_json::Value> = comp
                .diagnostics
                .iter()
                .filter(|d| e.line.cover(d.span) == e.line)
                .map(|d| report::diagnostic_json(d, text, &comp.lines))
                .collect();
            serde_json::json!({
                "line": comp.lines.line_col(text, e.line.start).line,
                "target": line_name(comp, e),
                "animation": e.anim.and_then(|a| comp.armature.animation(a)).map(|a| a.name.clone()),
                "time": e.time_secs,
                "passed": e.passed(),
                "failures": msgs,
            })
        })
        .collect();
    let errors: Vec<serde_json::Value> =
        run.other_errors.iter().map(|d| report::diagnostic_json(d, text, &comp.lines)).collect();
    serde_json::json!({
        "file": path.display().to_string(),
        "passed": passed,
        "failed": failed,
        "expectations": exps,
        "errors": errors,
    })
}

/// Counts and per-line results (`file:line target at …`) of a file's
/// expectations, and the diagnostics of the failed ones.
fn file_report(
    path: &Path,
    text: &str,
    comp: &Compilation,
) -> (usize, usize, Vec<(String, bool)>, Vec<Diagnostic>) {
    let (mut passed, mut failed) = (0, 0);
    let mut entries = Vec::new();
    let mut failures = Vec::new();
    for e in &comp.expectations {
        let line = comp.lines.line_col(text, e.line.start).line;
        let when = match e.anim.and_then(|a| comp.armature.animation(a)) {
            Some(a) => format!("\"{}\" at {} s", a.name, (e.time_secs * 1e4).round() / 1e4),
            None => "setup pose".to_string(),
        };
        entries.push((
            format!("{}:{line} {} ({when})", path.display(), line_name(comp, e)),
            e.passed(),
        ));
        if e.passed() {
            passed += 1;
        } else {
            failed += 1;
            failures.extend(
                comp.diagnostics.iter().filter(|d| e.line.cover(d.span) == e.line).cloned(),
            );
        }
    }
    (passed, failed, entries, failures)
}
