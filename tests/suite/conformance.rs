//! Conformance with the original Skel2D tool: every script in
//! `tests/conformance` (vendored from `../shared/conformance`) must produce
//! the poses in `expected/NAME.json`
//! (tolerances of conformance/README.md: 1e-6, relative above 1, for
//! matrices; 1/255 for colors; "NaN" there must be a finite number here).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use crate::common;

use std::path::{Path, PathBuf};

use serde_json::Value;
use skelpad::compile::compile;
use skelpad::model::{AnimId, SkinId};
use skelpad::runtime::report::pose_document;

use common::conformance_dir;

fn num(v: &Value) -> f64 {
    match v {
        Value::String(s) if s == "NaN" => f64::NAN,
        other => other.as_f64().unwrap_or(f64::INFINITY),
    }
}

/// Expected `e`, actual `a`: within `tol` (relative above 1); NaN expected
/// means the actual value must merely be finite.
fn close(e: &Value, a: &Value, tol: f64) -> bool {
    let (e, a) = (num(e), num(a));
    if e.is_nan() {
        return a.is_finite();
    }
    (e - a).abs() <= tol * e.abs().max(1.0)
}

fn compare_pose(tag: &str, exp: &Value, act: &Value, fails: &mut Vec<String>, checks: &mut usize) {
    let find = |list: &Value, name: &str| {
        list.as_array().and_then(|l| l.iter().find(|x| x["name"] == name)).cloned()
    };
    for b in exp["bones"].as_array().into_iter().flatten() {
        *checks += 1;
        let name = b["name"].as_str().unwrap_or("");
        match find(&act["bones"], name) {
            None => fails.push(format!("{tag}: bone {name} missing")),
            Some(got) => {
                let ok = b["world"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .zip(got["world"].as_array().into_iter().flatten())
                    .all(|(e, a)| close(e, a, 1e-6));
                if !ok {
                    fails.push(format!(
                        "{tag}: bone {name} world {} != {}",
                        got["world"], b["world"]
                    ));
                }
            }
        }
    }
    let exp_bones = exp["bones"].as_array().map_or(0, Vec::len);
    let act_bones = act["bones"].as_array().map_or(0, Vec::len);
    if exp_bones != act_bones {
        fails.push(format!("{tag}: {act_bones} bones, expected {exp_bones}"));
    }
    for s in exp["slots"].as_array().into_iter().flatten() {
        *checks += 1;
        let name = s["name"].as_str().unwrap_or("");
        match find(&act["slots"], name) {
            None => fails.push(format!("{tag}: slot {name} missing")),
            Some(got) => {
                if got["attachment"] != s["attachment"] {
                    fails.push(format!(
                        "{tag}: slot {name} attachment {} != {}",
                        got["attachment"], s["attachment"]
                    ));
                }
                let ok = s["color"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .zip(got["color"].as_array().into_iter().flatten())
                    .all(|(e, a)| close(e, a, 1.0 / 255.0 + 1e-9));
                if !ok {
                    fails.push(format!(
                        "{tag}: slot {name} color {} != {}",
                        got["color"], s["color"]
                    ));
                }
            }
        }
    }
}

fn check_case(script: &Path) -> (usize, Vec<String>) {
    let name = script.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let text = std::fs::read_to_string(script).expect("conformance script is readable");
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(script.with_file_name(format!("expected/{name}.json")))
            .expect("expected poses are readable"),
    )
    .expect("expected poses are JSON");
    let comp = compile(&text);
    let arm = &comp.armature;
    let anims: Vec<AnimId> = (0..arm.animations.len()).map(AnimId::from_index).collect();
    let mut fails = Vec::new();
    let mut checks = 0;
    // The default times are used, as `skelpad pose --json` prints them.
    let actual = pose_document(arm, &anims, SkinId(0), None);
    if actual["draw_order"] != expected["draw_order"] {
        fails.push(format!("draw order {} != {}", actual["draw_order"], expected["draw_order"]));
    }
    compare_pose("setup", &expected["setup"], &actual["setup"], &mut fails, &mut checks);
    for ea in expected["animations"].as_array().into_iter().flatten() {
        let aname = ea["name"].as_str().unwrap_or("");
        let Some(aa) =
            actual["animations"].as_array().and_then(|l| l.iter().find(|a| a["name"] == aname))
        else {
            fails.push(format!("animation {aname:?} missing"));
            continue;
        };
        if !close(&ea["duration"], &aa["duration"], 1e-9) {
            fails.push(format!(
                "animation {aname:?} duration {} != {}",
                aa["duration"], ea["duration"]
            ));
        }
        if ea["fps"].as_f64() != aa["fps"].as_f64() {
            fails.push(format!("animation {aname:?} fps {} != {}", aa["fps"], ea["fps"]));
        }
        // Evaluate at exactly the expected times.
        let times: Vec<f64> =
            ea["poses"].as_array().into_iter().flatten().map(|p| num(&p["time"])).collect();
        let id = arm.animation_by_name(aname).expect("animation exists");
        let at = pose_document(arm, &[id], SkinId(0), Some(&times));
        for (ep, ap) in ea["poses"]
            .as_array()
            .into_iter()
            .flatten()
            .zip(at["animations"][0]["poses"].as_array().into_iter().flatten())
        {
            compare_pose(&format!("{aname:?}@{}", ep["time"]), ep, ap, &mut fails, &mut checks);
        }
    }
    (checks, fails)
}

/// Checks every `*.skel2d` in `dir` against `dir/expected/NAME.json`.
fn check_dir(dir: &Path, at_least: usize) {
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= at_least, "scripts found in {}: {}", dir.display(), scripts.len());
    let mut report = Vec::new();
    let mut total_fails = 0;
    for s in &scripts {
        let (checks, fails) = check_case(s);
        report.push(format!(
            "{}: {} passed, {} failed",
            s.display(),
            checks.saturating_sub(fails.len()),
            fails.len()
        ));
        for f in fails.iter().take(20) {
            report.push(format!("  {f}"));
        }
        total_fails += fails.len();
    }
    assert_eq!(total_fails, 0, "\n{}", report.join("\n"));
}

#[test]
fn every_conformance_case_matches_the_original_tool() {
    check_dir(&conformance_dir(), 9);
}

/// More cases of the same kind, written here (inheritance flags, draw order,
/// slot timelines, loops, merged sections, references, fractional timing,
/// line continuations and CRLF, attachment switches, recovery inside
/// animations); their expected poses
/// were computed by running the original tool's own parser and runtime.
#[test]
fn extra_cases_match_the_original_tool() {
    check_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance_extra"), 11);
}

/// The comparison itself must be able to fail: a moved bone is caught.
#[test]
fn a_wrong_pose_is_detected() {
    let script = conformance_dir().join("01_hierarchy.skel2d");
    let text =
        std::fs::read_to_string(&script).expect("readable").replace("\tbone2 x10", "\tbone2 x11");
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("expected")).expect("temp dir");
    std::fs::copy(
        conformance_dir().join("expected/01_hierarchy.json"),
        dir.join("expected/01_hierarchy.json"),
    )
    .expect("copy");
    let moved = dir.join("01_hierarchy.skel2d");
    std::fs::write(&moved, text).expect("write");
    let (_, fails) = check_case(&moved);
    assert!(fails.iter().any(|f| f.contains("bone bone2 world")), "{fails:?}");
}

/// Every file of a folder (recursively), by path relative to it.
fn files_under(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.expect("directory entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("under dir").to_path_buf();
                out.insert(rel, std::fs::read(&p).expect("readable"));
            }
        }
    }
    out
}

/// The vendored cases are the shared ones: every script, every expected
/// pose file and the README are byte for byte those of
/// `../shared/conformance` (whose `compare.py` is not vendored), and nothing
/// else is in the vendored folder. Without `../shared` there is nothing to
/// compare with.
#[test]
fn the_vendored_cases_equal_the_shared_ones() {
    let Some(shared) = common::shared_conformance_dir() else {
        eprintln!("skipped: ../shared/conformance not found; the vendored copy is used alone");
        return;
    };
    let mut theirs = files_under(&shared);
    theirs.remove(Path::new("compare.py"));
    let ours = files_under(&conformance_dir());
    let names =
        |m: &std::collections::BTreeMap<PathBuf, Vec<u8>>| m.keys().cloned().collect::<Vec<_>>();
    assert_eq!(
        names(&ours),
        names(&theirs),
        "the vendored file list differs from {}",
        shared.display()
    );
    for (name, bytes) in &theirs {
        assert!(
            ours[name] == *bytes,
            "tests/conformance/{} differs from {}; copy it again",
            name.display(),
            shared.display()
        );
    }
}
