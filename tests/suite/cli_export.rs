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

/// A sprite whose picture is missing, one whose picture is not an image,
/// and a rectangle.
const MISSING_PICTURE: &str = "skeleton\n\tb l10\n\t\t@spr :sprite \"missing.png\" x1\n\t\t@txt :sprite \"notes.png\"\n\t\t@box :rect w4 h2 f#00FF00\n";

/// The pixels of the export's first atlas that are the placeholder's magenta.
fn magenta_pixels(skf: &Path) -> usize {
    let file = std::fs::File::open(skf).expect("the export exists");
    let mut zip = zip::ZipArchive::new(file).expect("a zip");
    let mut bytes = Vec::new();
    zip.by_name("atlas0.png").expect("an atlas").read_to_end(&mut bytes).unwrap();
    let img = image::load_from_memory(&bytes).unwrap().to_rgba8();
    img.pixels().filter(|p| p.0 == [255, 0, 255, 255]).count()
}

#[test]
fn a_missing_picture_is_a_warning_and_a_placeholder_not_a_failed_export() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("pics.skel2d");
    std::fs::write(&script, MISSING_PICTURE).unwrap();
    std::fs::write(dir.path().join("notes.png"), "not a picture").unwrap();

    // `check`: a warning at each image name, exit 0.
    let o = skelpad(&["check", s(&script)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("pics.skel2d:3:16") && err.contains("\"missing.png\""), "{err}");
    assert!(err.contains("no such file"), "{err}");
    assert!(err.contains("pics.skel2d:4:16") && err.contains("is not a PNG or JPEG"), "{err}");
    assert!(err.contains("0 error(s), 2 warning(s)"), "{err}");

    // `export`, with and without --allow-errors: written, with a warning
    // each, and the placeholders are in the atlas (two 32×32 checkerboards,
    // half magenta each).
    // The second script also has an error (a bad bone property).
    let with_error = dir.path().join("pics-err.skel2d");
    std::fs::write(&with_error, format!("{MISSING_PICTURE}\tarm q5\n")).unwrap();
    for (name, file, extra) in
        [("plain", &script, None), ("allow", &with_error, Some("--allow-errors"))]
    {
        let out = dir.path().join(format!("{name}.skf"));
        let mut args = vec!["export", s(file), "-o", s(&out)];
        args.extend(extra);
        let o = skelpad(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert_eq!(err.matches("placeholder is drawn in its place").count(), 2, "{err}");
        assert!(err.contains("wrote `") && !err.contains("cannot make the picture"), "{err}");
        assert_eq!(magenta_pixels(&out), 2 * 32 * 32 / 2, "{name}");
    }

    // `render`: the pictures are left out with a warning; the rest is drawn.
    let png = dir.path().join("pics.png");
    let o = skelpad(&["render", s(&script), "-o", s(&png)]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("missing.png") && err.contains("notes.png"), "{err}");
    let img = image::open(&png).unwrap().to_rgba8();
    assert!(img.pixels().any(|p| p.0[1] > 200 && p.0[0] < 50), "the green box is drawn");
}
