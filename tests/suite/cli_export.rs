//! `skelpad export` as a user runs it: scripts with errors are refused unless
//! `--allow-errors` is given, which exports what compiled (as `render` does).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use crate::common;
use std::io::Read;

use std::path::Path;

use common::{s, skelpad};

/// Line 4 holds an invalid bone property; `hip`, its rectangle and the
/// animation compile.
const WITH_ERROR: &str = "skeleton\n\thip l10\n\t\t@ :rect w4 h4\n\tarm q5 x1\nanim \"walk\" 10fps\n\thip\n\t\tx 0 -> 10\n";

fn armature_json(skf: &Path) -> serde_json::Value {
    let file = std::fs::File::open(skf).expect("the export exists");
    let mut zip = zip::ZipArchive::new(file).expect("a zip");
    let mut text = String::new();
    zip.by_name("armature.json")
        .expect("armature.json in the zip")
        .read_to_string(&mut text)
        .unwrap();
    serde_json::from_str(&text).expect("JSON")
}

#[test]
fn a_script_with_errors_is_refused_without_allow_errors() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bad.skel2d");
    std::fs::write(&script, WITH_ERROR).unwrap();
    let out = dir.path().join("bad.skf");
    let o = skelpad(&["export", s(&script), "-o", s(&out)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("bad.skel2d:4:"), "the error is shown with its place: {err}");
    assert!(err.contains("nothing was exported") && err.contains("--allow-errors"), "{err}");
    assert!(!out.exists(), "nothing written");
}

#[test]
fn allow_errors_exports_what_compiled_with_renders_warning() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bad.skel2d");
    std::fs::write(&script, WITH_ERROR).unwrap();
    let out = dir.path().join("bad.skf");
    let o = skelpad(&["export", s(&script), "-o", s(&out), "--allow-errors"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("has 1 error(s); exporting what compiled (run `skelpad check` to see them)"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // The same warning `render` gives, with its verb.
    let png = dir.path().join("bad.png");
    let r = skelpad(&["render", s(&script), "-o", s(&png)]);
    let rerr = String::from_utf8_lossy(&r.stderr);
    assert!(
        rerr.contains("has 1 error(s); rendering what compiled (run `skelpad check` to see them)"),
        "{rerr}"
    );

    let json = armature_json(&out);
    let names: Vec<&str> =
        json["bones"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert!(names.contains(&"hip"), "{names:?}");
    assert!(names.contains(&"arm"), "the bone with a bad property still compiles: {names:?}");
    let anims = json["animations"].as_array().unwrap();
    assert_eq!(anims.len(), 1);
    assert_eq!(anims[0]["name"], "walk");
}
