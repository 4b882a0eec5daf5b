//! The `skelpad` binary as a user runs it: exit codes, messages and output
//! formats.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{s, skelpad};
use serde_json::Value;

const CLEAN: &str = "skeleton\n\thip l10\n\t\t@ :rect w4 h4\n\tarm x10\n\t\t@ :circle d4\norder\n\t@arm\nanim \"walk\" 20fps\n\thip\n\t\tx 0 -> 10 -> 0\nanim \"wave\"\n\tarm\n\t\tr 0 -> 90\n";

/// Line 3 column 6 holds an invalid bone property.
const WITH_ERROR: &str = "skeleton\n\thip l10\n\tarm q5 x1\n";

/// A fresh folder under the system temp dir, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir()
            .join(format!("skelpad-cli-test-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        TempDir(dir)
    }

    fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, contents).expect("write temp file");
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally, not by a signal")
}

/// Exit code 2 with a one-line `error:` message and no panic.
fn assert_usage_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(code(o), 2, "stderr: {err}");
    assert!(err.contains(needle), "stderr should mention {needle:?}: {err}");
    assert!(err.starts_with("error:"), "stderr: {err}");
    assert!(!err.contains("panicked") && !err.contains("stack backtrace"), "stderr: {err}");
}

#[test]
fn check_clean_file_exits_0() {
    let dir = TempDir::new();
    let f = dir.file("clean.skel2d", CLEAN);
    let o = skelpad(&["check", s(&f)]);
    assert_eq!(code(&o), 0, "stderr: {}", stderr(&o));
    assert!(stderr(&o).contains("ok"), "stderr: {}", stderr(&o));
}

#[test]
fn check_file_with_errors_exits_1_and_shows_where() {
    let dir = TempDir::new();
    let f = dir.file("bad.skel2d", WITH_ERROR);
    let o = skelpad(&["check", s(&f)]);
    let err = stderr(&o);
    assert_eq!(code(&o), 1, "stderr: {err}");
    assert!(err.contains(&format!("{}:3:6", f.display())), "file:line:col missing: {err}");
    assert!(err.contains("`q5` is not a valid bone property"), "{err}");
    assert!(err.contains("^^"), "underline missing: {err}");
    assert!(err.contains("arm q5 x1"), "source line missing: {err}");
    assert!(err.contains("1 error(s), 0 warning(s)"), "summary missing: {err}");
}

#[test]
fn check_warnings_only_exits_0() {
    let dir = TempDir::new();
    let f = dir.file("warn.skel2d", "skeleton\n\thip\nanim \"a\" 0fps\n\thip\n\t\tx 0 -> 1\n");
    let o = skelpad(&["check", s(&f)]);
    assert_eq!(code(&o), 0, "stderr: {}", stderr(&o));
    assert!(stderr(&o).contains("warning"), "{}", stderr(&o));
}

#[test]
fn check_missing_file_exits_2() {
    let dir = TempDir::new();
    let missing = dir.0.join("does-not-exist.skel2d");
    let o = skelpad(&["check", s(&missing)]);
    assert_usage_error(&o, "does-not-exist.skel2d");
    assert!(stderr(&o).contains("file not found"), "{}", stderr(&o));
}

#[test]
fn check_non_utf8_file_exits_2() {
    let dir = TempDir::new();
    let f = dir.file("latin1.skel2d", b"skeleton\n\tb\xe9b\xff\n");
    let o = skelpad(&["check", s(&f)]);
    assert_usage_error(&o, "latin1.skel2d");
    assert!(stderr(&o).contains("UTF-8"), "{}", stderr(&o));
}

#[test]
fn check_directory_exits_2() {
    let dir = TempDir::new();
    let o = skelpad(&["check", s(&dir.0)]);
    assert_usage_error(&o, "directory");
}

#[test]
fn check_several_files_reports_the_worst() {
    let dir = TempDir::new();
    let clean = dir.file("clean.skel2d", CLEAN);
    let bad = dir.file("bad.skel2d", WITH_ERROR);
    let o = skelpad(&["check", s(&clean), s(&bad)]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let missing = dir.0.join("nope.skel2d");
    let o = skelpad(&["check", s(&bad), s(&missing), s(&clean)]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    // The other files are still checked.
    assert!(stderr(&o).contains("q5"), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("{}: ok", clean.display())), "{}", stderr(&o));
}

#[test]
fn check_json_format() {
    let dir = TempDir::new();
    let f = dir.file("bad.skel2d", WITH_ERROR);
    let o = skelpad(&["check", "--format", "json", s(&f)]);
    assert_eq!(code(&o), 1);
    let v: Value = serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("invalid JSON ({e}): {}", stdout(&o)));
    let files = v["files"].as_array().expect("files array");
    assert_eq!(files.len(), 1);
    assert_eq!(files[0]["errors"], 1);
    assert_eq!(files[0]["warnings"], 0);
    let d = &files[0]["diagnostics"][0];
    assert_eq!(d["severity"], "error");
    assert!(d["message"].as_str().is_some_and(|m| m.contains("q5")), "{d}");
    assert_eq!(d["start"]["line"], 3);
    assert_eq!(d["start"]["column"], 6);
    assert_eq!(d["end"]["line"], 3);
    assert_eq!(d["end"]["column"], 8);
    assert!(d["hints"].is_array());

    let clean = dir.file("clean.skel2d", CLEAN);
    let o = skelpad(&["check", "--format", "json", s(&clean)]);
    assert_eq!(code(&o), 0);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["files"][0]["diagnostics"].as_array().map(Vec::len), Some(0));
}

#[test]
fn check_json_columns_count_characters() {
    let dir = TempDir::new();
    // `zz` follows a two-byte character on its line: column 8, byte 9.
    let f = dir.file("u.skel2d", "skeleton\n\thip é zz\n");
    let o = skelpad(&["check", "--format", "json", s(&f)]);
    let v: Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    let d = v["files"][0]["diagnostics"].as_array().expect("diagnostics");
    let last = d.last().expect("at least one diagnostic");
    assert_eq!(
        (last["start"]["line"].as_u64(), last["start"]["column"].as_u64()),
        (Some(2), Some(8))
    );
}

#[test]
fn check_timings() {
    let dir = TempDir::new();
    let f = dir.file("clean.skel2d", CLEAN);
    let o = skelpad(&["check", "--timings", s(&f)]);
    assert_eq!(code(&o), 0);
    let err = stderr(&o);
    let line = err
        .lines()
        .find(|l| l.contains("parse"))
        .unwrap_or_else(|| panic!("no timings line: {err}"));
    for word in ["parse", "compile", "pose", "2 bones", "2 slots", "2 animations"] {
        assert!(line.contains(word), "{word:?} missing from {line:?}");
    }
    assert!(line.chars().any(|c| c.is_ascii_digit()), "{line}");
}

fn pose_json(args: &[&str]) -> Value {
    let o = skelpad(args);
    assert_eq!(code(&o), 0, "stderr: {}", stderr(&o));
    serde_json::from_str(&stdout(&o))
        .unwrap_or_else(|e| panic!("invalid JSON ({e}): {}", stdout(&o)))
}

#[test]
fn pose_json_has_the_conformance_shape() {
    let dir = TempDir::new();
    let f = dir.file("clean.skel2d", CLEAN);
    let v = pose_json(&["pose", s(&f), "--json"]);
    assert_eq!(v["draw_order"], serde_json::json!(["arm.arm", "hip.hip"]));
    let bones = v["setup"]["bones"].as_array().expect("setup bones");
    assert_eq!(bones.len(), 2);
    assert_eq!(bones[1]["name"], "arm");
    assert_eq!(bones[1]["world"], serde_json::json!([1.0, 0.0, 0.0, 1.0, 10.0, 0.0]));
    let slots = v["setup"]["slots"].as_array().expect("setup slots");
    assert_eq!(slots[0]["attachment"], "hip.hip.hip");
    assert_eq!(slots[0]["color"], serde_json::json!([1.0, 1.0, 1.0, 1.0]));
    let anims = v["animations"].as_array().expect("animations");
    assert_eq!(anims.len(), 2);
    assert_eq!(anims[0]["name"], "walk");
    assert_eq!(anims[0]["fps"], 20.0);
    assert_eq!(anims[0]["duration"], 0.5);
    let poses = anims[0]["poses"].as_array().expect("poses");
    // 0, every tenth of the duration, and the end.
    assert_eq!(poses.len(), 11);
    assert_eq!(poses[10]["time"], 0.5);
    assert!(poses[5]["bones"].is_array() && poses[5]["slots"].is_array());
}

#[test]
fn pose_times_and_anim_selection() {
    let dir = TempDir::new();
    let f = dir.file("clean.skel2d", CLEAN);
    let v = pose_json(&["pose", s(&f), "--json", "--anim", "wave", "--times", "0,0.5"]);
    let anims = v["animations"].as_array().expect("animations");
    assert_eq!(anims.len(), 1);
    assert_eq!(anims[0]["name"], "wave");
    let times: Vec<f64> = anims[0]["poses"]
        .as_array()
        .expect("poses")
        .iter()
        .map(|p| p["time"].as_f64().expect("time"))
        .collect();
    assert_eq!(times, [0.0, 0.5]);
}

#[test]
fn pose_unknown_animation_lists_the_animations() {
    let dir = TempDir::new();
    let f = dir.file("clean.skel2d", CLEAN);
    let o = skelpad(&["pose", s(&f), "--json", "--anim", "NOPE"]);
    assert_usage_error(&o, "NOPE");
    let err = stderr(&o);
    assert!(err.contains("\"walk\"") && err.contains("\"wave\""), "{err}");
    assert!(stdout(&o).is_empty(), "nothing on stdout: {}", stdout(&o));
}

#[test]
fn pose_unknown_skin_lists_the_skins() {
    let dir = TempDir::new();
    let f = dir.file("clean.skel2d", CLEAN);
    let o = skelpad(&["pose", s(&f), "--skin", "NOPE"]);
    assert_usage_error(&o, "NOPE");
    assert!(stderr(&o).contains("default"), "{}", stderr(&o));
}

#[test]
fn pose_missing_file_exits_2() {
    let dir = TempDir::new();
    let o = skelpad(&["pose", s(&dir.0.join("gone.skel2d")), "--json"]);
    assert_usage_error(&o, "gone.skel2d");
}

#[test]
fn pose_bad_times_is_a_usage_error() {
    let dir = TempDir::new();
    let f = dir.file("clean.skel2d", CLEAN);
    let o = skelpad(&["pose", s(&f), "--times", "0,abc"]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn pose_of_a_script_with_errors_still_prints_json() {
    let dir = TempDir::new();
    let f = dir.file("bad.skel2d", WITH_ERROR);
    let o = skelpad(&["pose", s(&f), "--json"]);
    assert_eq!(code(&o), 0);
    assert!(stderr(&o).contains("1 error"), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).expect("valid JSON");
    assert_eq!(v["setup"]["bones"].as_array().map(Vec::len), Some(2));
}

#[test]
fn pose_table_output() {
    let dir = TempDir::new();
    let f = dir.file("clean.skel2d", CLEAN);
    let o = skelpad(&["pose", s(&f)]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.contains("draw order (back to front): arm.arm, hip.hip"), "{out}");
    assert!(out.contains("animation \"walk\""), "{out}");
}

#[test]
fn help_texts() {
    let o = skelpad(&["--help"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    assert!(out.contains("check") && out.contains("pose") && out.contains("Exit codes"), "{out}");

    let o = skelpad(&["check", "--help"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    for opt in ["--format", "--timings", "json", "human"] {
        assert!(out.contains(opt), "check --help lacks {opt}: {out}");
    }

    let o = skelpad(&["pose", "--help"]);
    assert_eq!(code(&o), 0);
    let out = stdout(&o);
    for opt in ["--json", "--anim", "--skin", "--times"] {
        assert!(out.contains(opt), "pose --help lacks {opt}: {out}");
    }
}

/// Runs skelpad where no window can open (no X11 or Wayland display).
fn skelpad_without_display(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        .env("NO_COLOR", "1")
        .output()
        .expect("run skelpad")
}

#[test]
fn help_says_that_no_command_opens_the_editor() {
    let o = skelpad(&["--help"]);
    assert_eq!(code(&o), 0, "stderr: {}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Usage:")
            && out.contains("check")
            && out.contains("pose")
            && out.contains("[FILE]"),
        "{out}"
    );
    assert!(out.contains("opens the editor"), "{out}");
}

#[test]
fn without_a_display_the_editor_fails_with_a_clear_message() {
    let o = skelpad_without_display(&[]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("cannot open the editor window"), "{}", stderr(&o));
}

#[test]
fn an_unreadable_file_is_reported_before_any_window_opens() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.skel2d");
    std::fs::write(&bad, [0xff, 0xfe, 0x00]).unwrap();
    let o = skelpad_without_display(&[s(&bad)]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("is not a text file"), "{}", stderr(&o));
}

#[test]
fn usage_errors_exit_2() {
    let o = skelpad(&["check"]);
    assert_eq!(code(&o), 2, "missing FILE: {}", stderr(&o));
    let o = skelpad(&["frobnicate"]);
    assert_eq!(code(&o), 2, "unknown command: {}", stderr(&o));
    let o = skelpad(&["check", "--format", "xml", "x.skel2d"]);
    assert_eq!(code(&o), 2, "bad format: {}", stderr(&o));
}

#[test]
fn version_exits_0() {
    let o = skelpad(&["--version"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains(env!("CARGO_PKG_VERSION")), "{}", stdout(&o));
}

/// `convert` of a Spriter file into another folder writes the picture
/// paths relative to the script's new folder, so it renders there; `check`
/// warns at the sprite's line about a picture it cannot read.
#[test]
fn converted_sprite_paths_follow_the_output_and_check_warns_about_missing_pictures() {
    let dir = TempDir::new();
    let input = dir.0.join("in");
    let out_dir = dir.0.join("other").join("dir");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::create_dir_all(&out_dir).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spriter/rig.scml");
    std::fs::copy(&fixture, input.join("rig.scml")).unwrap();
    for name in ["a.png", "b.png"] {
        image::RgbaImage::from_pixel(20, 10, image::Rgba([200, 10, 10, 255]))
            .save(input.join(name))
            .unwrap();
    }
    let out = out_dir.join("out.skel2d");
    let o = skelpad(&["convert", s(&input.join("rig.scml")), "-o", s(&out)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let script = std::fs::read_to_string(&out).unwrap();
    assert!(script.contains(":sprite \"../../in/a.png\""), "{script}");
    assert!(script.contains(":sprite \"../../in/b.png\""), "{script}");
    let o = skelpad(&["check", s(&out)]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));

    // The same script one folder up: its pictures are not where it says.
    let moved = dir.file("moved.skel2d", &script);
    let o = skelpad(&["check", s(&moved)]);
    let err = stderr(&o);
    assert_eq!(code(&o), 0, "warnings only: {err}");
    let line = script.lines().position(|l| l.contains("a.png")).unwrap() + 1;
    assert!(err.contains("warning: cannot read sprite image \"../../in/a.png\""), "{err}");
    assert!(err.contains(&format!("moved.skel2d:{line}:")), "line {line}: {err}");
}
