//! Spriter files play as SpriterPlusPlus plays them.
//!
//! `tests/spriter_reference/*.json` were printed by SpriterPlusPlus itself
//! (built from source by `scripts/spriter-reference.sh`, see the README
//! there): for every entity, animation and character map of the sample
//! files in `../shared/samples/spriter`, at 0, every tenth of the length,
//! 0.37 tenths past each and just before the end, every sprite it draws in
//! order with its image, pivot frame, pivot and alpha. skelpad must draw the
//! same sprites in the same order, each pivot within 0.01 px, the 2×2 part
//! within 1e-3 and alpha within 1e-3.
//!
//! The samples are third-party files read from `../shared`; without them
//! the test says "skipped: samples not found" (and fails with
//! `SKELPAD_REQUIRE_SAMPLES=1`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::{Path, PathBuf};

use serde_json::Value;
use skelpad::cli::draw_json;
use skelpad::formats::spriter;
use skelpad::model::{AnimId, SkinId};
use skelpad::runtime::evaluate;

fn samples_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/samples/spriter");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("SKELPAD_REQUIRE_SAMPLES").as_deref() != Ok("1"),
        "samples not found at {} (SKELPAD_REQUIRE_SAMPLES=1)",
        dir.display()
    );
    eprintln!("skipped: samples not found ({})", dir.display());
    None
}

#[derive(Default, Debug)]
struct Worst {
    pos: f64,
    linear: f64,
    alpha: f64,
    sprites: usize,
    poses: usize,
    runs: usize,
}

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// Compares one expectation file; returns the worst differences or the first mismatch.
fn check_file(sample: &Path, expected: &Value) -> Result<Worst, String> {
    let file = spriter::load(sample)?;
    let mut worst = Worst::default();
    for ent in expected["entities"].as_array().ok_or("no entities")? {
        let name = ent["name"].as_str().unwrap_or_default();
        let model = file.entity(Some(name))?;
        let arm = &model.armature;
        for run in ent["runs"].as_array().ok_or("no runs")? {
            let anim_name = run["animation"].as_str().unwrap_or_default();
            let anim = arm
                .animation_by_name(anim_name)
                .ok_or_else(|| format!("{name}: no animation {anim_name}"))?;
            let skin = match run["character_map"].as_str() {
                None => SkinId(0),
                Some(m) => arm
                    .skeleton
                    .skin_by_name(m)
                    .ok_or_else(|| format!("{name}: no skin for character map {m}"))?,
            };
            let length = num(&run["length_ms"]) / 1000.0;
            let got_len = arm.animation(anim).map_or(0.0, |a| a.duration_secs);
            if (got_len - length).abs() > 1e-9 {
                return Err(format!(
                    "{name}/{anim_name}: length {got_len} s, SpriterPlusPlus {length} s"
                ));
            }
            worst.runs += 1;
            if std::env::var("SKELPAD_SPRITER_SKIP")
                .is_ok_and(|v| v.split(',').any(|x| x == anim_name))
            {
                continue;
            }
            for pose in run["poses"].as_array().ok_or("no poses")? {
                let t = num(&pose["time_ms"]) / 1000.0;
                let p = evaluate(arm, Some(AnimId(anim.0)), skin, t);
                let got = draw_json(arm, &p);
                let got = got.as_array().unwrap();
                let want = pose["draw"].as_array().ok_or("no draw list")?;
                let at = format!(
                    "{name}/{anim_name} (map {:?}) at {} ms",
                    run["character_map"].as_str(),
                    t * 1000.0
                );
                let got_images: Vec<&str> =
                    got.iter().map(|d| d["image"].as_str().unwrap_or("?")).collect();
                let want_images: Vec<&str> =
                    want.iter().map(|d| d["image"].as_str().unwrap_or("?")).collect();
                if got_images != want_images {
                    return Err(format!(
                        "{at}: skelpad draws {got_images:?}, SpriterPlusPlus {want_images:?}"
                    ));
                }
                for (g, w) in got.iter().zip(want) {
                    let (gw, ww) = (g["world"].as_array().unwrap(), w["world"].as_array().unwrap());
                    let lin = (0..4).map(|i| (num(&gw[i]) - num(&ww[i])).abs()).fold(0.0, f64::max);
                    let pos = (num(&gw[4]) - num(&ww[4])).hypot(num(&gw[5]) - num(&ww[5]));
                    let alpha = (num(&g["alpha"]) - num(&w["alpha"])).abs();
                    let piv = (0..2)
                        .map(|i| (num(&g["pivot"][i]) - num(&w["pivot"][i])).abs())
                        .fold(0.0, f64::max);
                    if !(pos <= 0.01 && lin <= 1e-3 && alpha <= 1e-3 && piv <= 1e-6) {
                        return Err(format!(
                            "{at}: {}: skelpad world {gw:?} alpha {} pivot {}, SpriterPlusPlus world {ww:?} alpha {} pivot {}",
                            w["image"], g["alpha"], g["pivot"], w["alpha"], w["pivot"]
                        ));
                    }
                    worst.pos = worst.pos.max(pos);
                    worst.linear = worst.linear.max(lin);
                    worst.alpha = worst.alpha.max(alpha);
                    worst.sprites += 1;
                }
                worst.poses += 1;
            }
        }
    }
    Ok(worst)
}

#[test]
fn samples_play_as_spriterplusplus_plays_them() {
    let Some(samples) = samples_dir() else { return };
    let refs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spriter_reference");
    check_dir(&samples, &refs, 4);
}

/// skelpad's own test file (tests/fixtures/spriter): alpha, a mirrored
/// parent, spin both ways, every curve type, a character map, keys past the
/// end, a non-looping animation. Needs nothing from `../shared`.
#[test]
fn own_fixtures_play_as_spriterplusplus_plays_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    check_dir(
        &root.join("tests/fixtures/spriter"),
        &root.join("tests/spriter_reference/fixtures"),
        1,
    );
}

/// Other Spriter files, with expectations made by
/// `scripts/spriter-reference.sh SPP BUILD SAMPLES OUT`:
/// `SKELPAD_SPRITER_SAMPLES=SAMPLES SKELPAD_SPRITER_REFS=OUT`.
#[test]
fn other_files_play_as_spriterplusplus_plays_them() {
    let (Ok(samples), Ok(refs)) =
        (std::env::var("SKELPAD_SPRITER_SAMPLES"), std::env::var("SKELPAD_SPRITER_REFS"))
    else {
        eprintln!("skipped: SKELPAD_SPRITER_SAMPLES and SKELPAD_SPRITER_REFS not set");
        return;
    };
    check_dir(Path::new(&samples), Path::new(&refs), 1);
}

fn check_dir(samples: &Path, refs: &Path, at_least: usize) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(refs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= at_least, "expectation files missing in {}", refs.display());
    let mut failures = Vec::new();
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy();
        let rel = name.trim_end_matches(".json").replace("__", "/");
        let sample = samples.join(&rel);
        let expected: Value = serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap();
        match check_file(&sample, &expected) {
            Ok(w) => {
                assert!(w.sprites > 0 && w.poses > 0, "{rel}: nothing compared");
                eprintln!(
                    "{rel}: {} runs, {} poses, {} sprites; worst pivot {:.2e} px, 2x2 {:.2e}, alpha {:.2e}",
                    w.runs, w.poses, w.sprites, w.pos, w.linear, w.alpha
                );
            }
            Err(e) => failures.push(format!("{rel}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
