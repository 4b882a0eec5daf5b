//! Helpers shared by the integration tests (the `suite` binary declares this
//! module once; its modules say `use crate::common;`).
//!
//! Test data that belongs to this project (the conformance scripts and
//! poses) is vendored under `tests/`. Third-party sample files are not ours
//! to copy: they are read from `../shared/samples` when that folder exists.
//! Without it such a test prints `skipped: samples not found` and passes,
//! unless `SKELPAD_REQUIRE_SAMPLES=1` (CI sets it), where it fails.

#![allow(dead_code, reason = "each test binary uses its own part of the shared helpers")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The vendored conformance cases (`tests/conformance`).
pub fn conformance_dir() -> PathBuf {
    manifest().join("tests/conformance")
}

/// The shared folder the vendored cases were copied from, when it is there.
pub fn shared_conformance_dir() -> Option<PathBuf> {
    let dir = manifest().join("../shared/conformance");
    dir.is_dir().then_some(dir)
}

/// Whether tests must fail instead of skipping when samples are missing.
pub fn samples_required() -> bool {
    std::env::var("SKELPAD_REQUIRE_SAMPLES").is_ok_and(|v| v == "1")
}

/// The folder `../shared/samples/SUB` with third-party sample files, or
/// `None` after printing `skipped: samples not found` (the caller returns).
/// Panics instead when `SKELPAD_REQUIRE_SAMPLES=1`.
pub fn samples_dir(test: &str, sub: &str) -> Option<PathBuf> {
    samples_dir_in(&manifest().join("../shared/samples"), test, sub, samples_required())
}

/// [`samples_dir`] with the samples root and the requirement given.
pub fn samples_dir_in(root: &Path, test: &str, sub: &str, required: bool) -> Option<PathBuf> {
    let dir = root.join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        !required,
        "{test}: samples not found at {} and SKELPAD_REQUIRE_SAMPLES=1",
        dir.display()
    );
    eprintln!("{test}: skipped: samples not found at {}", dir.display());
    None
}

/// Plays `anim` at `frame` on `arm` in rusty_skelform 0.8, as a game does
/// each frame: the keyframes (`animate`, no blending), then the world bones
/// (`construct`). On a fresh copy this is the frame alone; on one armature
/// played frame after frame it carries physics state along.
pub fn rusty_play(
    arm: &mut rusty_skelform::Armature,
    anim: &rusty_skelform::Animation,
    frame: u32,
) {
    rusty_skelform::animate(
        &mut arm.bones,
        &mut arm.inverse_kinematics,
        &mut arm.visuals,
        &vec![anim],
        &vec![frame],
        &vec![0],
    );
    rusty_skelform::construct(arm);
}

/// Runs the `skelpad` binary with `args` (no colors, backtraces on).
pub fn skelpad(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .env("NO_COLOR", "1")
        .output()
        .expect("run skelpad")
}

/// A temporary path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("temp paths are UTF-8")
}

/// A fenced code block of the Markdown documentation.
pub struct DocBlock {
    /// The Markdown file, relative to the repository root.
    pub file: String,
    /// The line of the opening fence (1-based).
    pub line: usize,
    /// The fence's language: `skel2d`, `skel2d-error`, `text`, …
    pub lang: String,
    /// The block's text (every line with its `\n`).
    pub text: String,
}

/// Every fenced block of `docs/*.md`, `README.md` and `LANGUAGE-EXT.md`, in
/// file order. A fence is a line starting with three backquotes; the
/// language is the rest of the opening line. A fence left open is a panic
/// (it would hide the blocks after it).
pub fn doc_blocks() -> Vec<DocBlock> {
    let root = manifest();
    let mut files = vec![root.join("README.md"), root.join("LANGUAGE-EXT.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let mut out = Vec::new();
    for path in files {
        let file = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
        let text = std::fs::read_to_string(&path).expect("readable Markdown");
        let mut open: Option<DocBlock> = None;
        for (i, line) in text.lines().enumerate() {
            match (&mut open, line.strip_prefix("```")) {
                (None, Some(lang)) => {
                    open = Some(DocBlock {
                        file: file.clone(),
                        line: i + 1,
                        lang: lang.trim().to_string(),
                        text: String::new(),
                    });
                }
                (Some(_), Some(_)) => out.extend(open.take()),
                (Some(b), None) => {
                    b.text.push_str(line);
                    b.text.push('\n');
                }
                (None, None) => {}
            }
        }
        assert!(open.is_none(), "{file}: a code fence is never closed");
    }
    out
}

/// A Help reference example (one line, tabs included) inside the smallest
/// script that gives it its meaning: a bone with slots and a path above it,
/// the section or item it belongs in, and what it needs after it.
pub fn help_context(e: &skelpad::syntax::reference::RefEntry) -> String {
    if let Some(place) = e.word {
        return place.context.replacen('…', e.example, 1);
    }
    let base = "skeleton\n\tarm l40\n\tarm.hand l20\n\t\t@body[idle] :rect w20 h10\n\t\t@path :path t1\n\t\t\tM 0,0\n\t\t\tL 5,0\n";
    let line = e.example;
    let depth = line.bytes().take_while(|b| *b == b'\t').count();
    match (e.section, depth) {
        (_, 0) if line.starts_with('#') || line.starts_with("skeleton") => {
            format!("{base}{line}\n")
        }
        (_, 0) if line.starts_with("skin") => format!("{base}{line}\n\t@body[idle] :rect w2 h2\n"),
        // At frame 5 of "a" (a step of 5 frames), `arm` has moved 1 along x.
        ("Expect", 0) => format!("{base}anim \"a\"\n\tarm\n\t\tx 0 -> 1\n{line}\n\tarm x1\n"),
        ("Expect", 1) => format!("{base}expect\n{line}\n"),
        (_, 0) if line.contains(" add ") => format!(
            "{base}anim \"walk\"\n\tarm\n\t\tx 0 -> 1\nanim \"breathe\"\n\tarm\n\t\tr 0 -> 2\n{line}\n"
        ),
        (_, 0) if line.starts_with("mix") => format!("{base}{line}\n"),
        ("Animation", 1) if line.starts_with("\t\"") => {
            format!("{base}anim \"walk\"\n\tarm\n\t\tx 0 -> 1\nanim \"s\"\n{line}\n")
        }
        (_, 0) if line.contains(" from ") => {
            format!("{base}anim \"wave\"\n\tarm\n\t\tx 0 -> 1\n{line}\n")
        }
        (_, 0) => format!("{base}{line}\n\tarm\n\t\tx 0 -> 1\n"),
        ("Skins", 1) => format!("{base}skin \"s\"\n{line}\n"),
        ("Order", 1) => format!("{base}order\n{line}\n"),
        ("IK", 1) => format!("{base}\ttarget x30\nik\n{line}\n"),
        ("Animation", 1) => format!("{base}anim \"a\"\n{line}\n\t\tx 0 -> 1\n"),
        ("Events", 1) if e.title.starts_with("expect") => {
            format!("{base}anim \"a\"\n\t!footstep\n\t\te ! 10:> !\nexpect \"a\"\n{line}\n")
        }
        ("Events", 1) => format!("{base}anim \"a\"\n{line}\n\t\te !\n"),
        ("Events", 2) => format!("{base}anim \"a\"\n\t!ev\n{line}\n"),
        ("Timelines", 2) if e.title.starts_with("Slot") => {
            format!("{base}anim \"a\"\n\t@body\n{line}\n")
        }
        ("Timelines" | "Easings", 2) => format!("{base}anim \"a\"\n\tarm.hand\n{line}\n"),
        (_, 3) => format!("{base}{line}\n"),
        // A :path slot line needs a command under it to draw anything.
        ("Slots" | "Shapes", 2) if line.contains(":path") => {
            format!("skeleton\n\tarm l40\n\tarm.hand\n{line}\n\t\t\tL 1,1\n")
        }
        ("Slots" | "Shapes", 2) => format!("skeleton\n\tarm l40\n\tarm.hand\n{line}\n"),
        (_, 1) if line.ends_with('\\') => format!("skeleton\n{line}\nr10\n"),
        _ => format!("skeleton\n{line}\n"),
    }
}
