//! dotLottie files as LottieFiles' own reader sees them: every example with
//! several animations exported to `.lottie` passes the reader's schema
//! check, and each manifest entry loads by its id as the one animation it
//! names, looping exactly its own frames (`op − 1` is its closing frame).

use std::io::Write;
use std::path::Path;
use std::process::Command;

use crate::lottie::{lottie_web, manifest, skelpad_cli};
use skelpad::model::Armature;

/// What `tests/lottie-web/dotlottie.mjs` prints for `file`, or `None` when
/// @dotlottie/dotlottie-js is not installed beside lottie-web (a skip, or a
/// failure under `SKELPAD_REQUIRE_NODE=1`).
fn read(dir: &Path, file: &Path) -> serde_json::Value {
    let out = Command::new("node")
        .arg(manifest().join("tests/lottie-web/dotlottie.mjs"))
        .arg(file)
        .env("SKELPAD_LOTTIE_WEB_DIR", dir)
        .output()
        .expect("node runs");
    if !out.status.success() {
        return serde_json::json!({ "error": String::from_utf8_lossy(&out.stderr) });
    }
    serde_json::from_slice(&out.stdout).expect("the reader prints JSON")
}

fn reader_dir() -> Option<std::path::PathBuf> {
    let dir = lottie_web()?;
    if dir.join("node_modules/@dotlottie/dotlottie-js").is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("SKELPAD_REQUIRE_NODE").as_deref() != Ok("1"),
        "SKELPAD_REQUIRE_NODE=1 but @dotlottie/dotlottie-js is missing (.ci/run installs it beside lottie-web)"
    );
    eprintln!(
        "SKIPPED the dotLottie reader check: @dotlottie/dotlottie-js not found (see .ci/run)"
    );
    None
}

/// Checks one file's reading against the script's animations (`only`: the
/// one exported).
fn check(name: &str, arm: &Armature, only: Option<&str>, got: &serde_json::Value) {
    assert_eq!(got["valid"], true, "{name}: the reader refuses the file: {got}");
    assert_eq!(got["version"], "2", "{name}");
    let want: Vec<&str> = arm
        .animations
        .iter()
        .map(|a| a.name.as_str())
        .filter(|n| only.is_none_or(|o| o == *n))
        .collect();
    let entries = got["animations"].as_array().expect("entries");
    let ids: Vec<&str> = entries.iter().map(|e| e["id"].as_str().unwrap()).collect();
    assert_eq!(ids, want, "{name}: one manifest entry per animation, by name");
    for e in entries {
        let id = e["id"].as_str().unwrap();
        let a = arm.animations.iter().find(|a| a.name == id).unwrap();
        let fr = e["fr"].as_f64().expect("a frame rate");
        let frames = a.frame_count_at(fr) as f64;
        // The player plays ip ..= op − 1: the animation's frames and then
        // its closing frame, so a loop lasts exactly the animation.
        let (ip, op) = (e["ip"].as_f64().unwrap(), e["op"].as_f64().unwrap());
        assert_eq!((ip, op - 1.0), (0.0, frames), "{name} `{id}`: its frames and closing frame");
        assert!(((op - 1.0 - ip) / fr - a.duration_secs).abs() < 1e-9, "{name} `{id}`");
        let markers = e["markers"].as_array().unwrap();
        let first = (markers[0][0].as_str(), markers[0][1].as_f64(), markers[0][2].as_f64());
        assert_eq!(first, (Some(id), Some(0.0), Some(frames)), "{name} `{id}`: {markers:?}");
        assert!(
            markers.iter().skip(1).all(|m| m[0].as_str().unwrap().starts_with(&format!("{id}/"))),
            "{name} `{id}`: only its own markers (its events): {markers:?}"
        );
    }
}

#[test]
fn dotlottie_js_loads_every_animation_by_its_id() {
    let Some(dir) = reader_dir() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let mut seen = 0;
    for entry in std::fs::read_dir(manifest().join("examples")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "skel2d") {
            continue;
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let arm = crate::lottie::compile(&path);
        let out = tmp.path().join("x.lottie");
        let (ok, msg) =
            skelpad_cli(&["export", path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert!(ok, "{name}: {msg}");
        check(&name, &arm, None, &read(&dir, &out));
        if let Some(first) = arm.animations.first() {
            let one = tmp.path().join("one.lottie");
            let args = ["export", path.to_str().unwrap(), "--anim", &first.name, "-o"];
            let (ok, msg) = skelpad_cli(&[&args[..], &[one.to_str().unwrap()]].concat());
            assert!(ok, "{name}: {msg}");
            check(&name, &arm, Some(&first.name), &read(&dir, &one));
        }
        seen += usize::from(arm.animations.len() > 1);
    }
    assert!(seen >= 2, "examples with several animations: {seen}");

    // The check can fail: a manifest entry whose file is missing.
    let bad = tmp.path().join("bad.lottie");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&bad).unwrap());
    let opts = zip::write::SimpleFileOptions::default();
    zip.start_file("manifest.json", opts).unwrap();
    zip.write_all(br#"{"version":"2","animations":[{"id":"walk"}]}"#).unwrap();
    zip.finish().unwrap();
    let got = read(&dir, &bad);
    assert!(
        got.get("error").is_some() || got["valid"] != true || got["animations"][0]["op"].is_null(),
        "{got}"
    );
}
