//! Spriter files: poses worked out by hand from Spriter's rules
//! (../shared/formats/SPRITER-NOTES.md), bad input, the CLI, and a property
//! test that no input makes the reader or the runtime panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::Path;
use std::process::Command;

use proptest::prelude::*;
use serde_json::Value;
use skelpad::cli::draw_json;
use skelpad::formats::spriter::{self, Syntax};
use skelpad::model::SkinId;
use skelpad::runtime::evaluate;

fn fixture() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spriter/rig.scml"),
    )
    .unwrap()
}

fn draw_at(text: &str, anim: &str, skin: &str, t: f64) -> Vec<Value> {
    let f = spriter::read_str(text, Syntax::Scml).unwrap();
    let arm = &f.entities[0].armature;
    let skin = arm.skeleton.skin_by_name(skin).unwrap_or(SkinId(0));
    let pose = evaluate(arm, arm.animation_by_name(anim), skin, t);
    draw_json(arm, &pose).as_array().unwrap().clone()
}

fn close(v: &Value, want: &[f64], tol: f64) {
    let got: Vec<f64> = v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tol, "got {got:?}, want {want:?}");
    }
}

/// At 0 s: the hand hangs from a bone mirrored in x (scale −2, 1) turned
/// 30°: its scale multiplies per axis (−2, 1), its 10° turns the other way
/// (−10° + 30° = 20°), its offset (5, 0) is scaled then turned:
/// (10, 20) + R(30°)·(−10, 0) = (1.3397, 15); alpha 0.8 × 0.5.
#[test]
fn a_child_of_a_mirrored_bone_follows_spriters_rule() {
    let d = draw_at(&fixture(), "walk", "default", 0.0);
    assert_eq!(d.len(), 2);
    assert_eq!(d[0]["image"], "a.png");
    let (c, s) = (20f64.to_radians().cos(), 20f64.to_radians().sin());
    close(
        &d[0]["world"],
        &[-2.0 * c, -2.0 * s, -s, c, 10.0 - 10.0 * 30f64.to_radians().cos(), 15.0],
        1e-9,
    );
    assert!((d[0]["alpha"].as_f64().unwrap() - 0.4).abs() < 1e-12);
    close(&d[0]["pivot"], &[0.5, 0.0], 0.0);
    assert_eq!(d[1]["image"], "b.png");
    close(&d[1]["world"], &[1.0, 0.0, 0.0, 1.0, -5.0, 3.0], 1e-12);
}

/// At 0.6 s (second mainline key at 0.5 s, linear, looping back to the
/// first key at 1 s: ratio 0.2): the bone turns 60° → 30° with spin +1, so
/// the long way (60 + 0.2·330 = 126°); the hand's own 350° → 10° (spin +1:
/// 354°) is negated under the mirrored bone: 126 − 354 = −228°; its pivot
/// comes from its key (0.25, missing y = 0). The free sprite's ref names a
/// key at 1.2 s, past the end: it is extrapolated from that key towards the
/// first key a length later (ratio (0.6 − 1.2)/(1.0 − 1.2) = 3), and it
/// is drawn first now.
#[test]
fn spin_key_pivots_and_keys_past_the_end() {
    let d = draw_at(&fixture(), "walk", "default", 0.6);
    assert_eq!(d.len(), 2);
    assert_eq!(d[0]["image"], "b.png");
    close(&d[0]["world"], &[1.0, 0.0, 0.0, 1.0, -25.0 + 20.0 * 3.0, 7.0 - 4.0 * 3.0], 1e-9);
    let (bone_x, bone_a) = (30.0 - 20.0 * 0.2, 126f64.to_radians());
    let (c, s) = (bone_a.cos(), bone_a.sin());
    let (lx, ly) = (5.0 * -2.0, (4.0 - 4.0 * 0.2) * 1.0);
    let hand = -228f64.to_radians();
    close(
        &d[1]["world"],
        &[
            -2.0 * hand.cos(),
            -2.0 * hand.sin(),
            -hand.sin(),
            hand.cos(),
            bone_x + c * lx - s * ly,
            20.0 + s * lx + c * ly,
        ],
        1e-9,
    );
    assert!((d[1]["alpha"].as_f64().unwrap() - 0.96 * 0.9).abs() < 1e-12);
    close(&d[1]["pivot"], &[0.25, 0.0], 0.0);
}

/// A character map swaps a.png for b.png, whose own pivot then applies.
#[test]
fn character_maps_are_skins() {
    let d = draw_at(&fixture(), "walk", "swap", 0.0);
    assert_eq!(d[0]["image"], "b.png");
    close(&d[0]["pivot"], &[0.0, 1.0], 0.0);
}

#[test]
fn what_is_not_played_is_kept_and_reported() {
    let f = spriter::read_str(&fixture(), Syntax::Scml).unwrap();
    let ex = &f.entities[0].extras[0];
    assert_eq!(ex.events, vec![("step".to_string(), 0.25)]);
    assert_eq!(ex.sounds, vec![("sound".to_string(), 0.1)]);
    assert_eq!(ex.key_times, vec![0.0, 0.5]);
    assert_eq!(f.entities[0].armature.animations[1].looping, Some(false));
}

#[test]
fn bad_input_is_a_clear_error_or_a_located_warning() {
    let err = |t: &str, s| spriter::read_str(t, s).unwrap_err();
    assert!(err("<spriter_data><entity>", Syntax::Scml).contains("not valid XML"));
    assert!(err("{\"entity\": [", Syntax::Scon).contains("not valid JSON"));
    assert!(err("<other/>", Syntax::Scml).contains("not a Spriter file"));
    assert!(err("<spriter_data/>", Syntax::Scml).contains("no <entity>"));
    let bad = fixture()
        .replace(r#"x="10" y="20""#, r#"x="NaN" y="1e999""#)
        .replace(r#"timeline="2" key="1""#, r#"timeline="7" key="1""#)
        .replace(r#"file="1" x="-5""#, r#"file="9" x="-5""#);
    let f = spriter::read_str(&bad, Syntax::Scml).unwrap();
    let msgs: Vec<String> = f.warnings.iter().map(ToString::to_string).collect();
    let has = |needle: &str| msgs.iter().any(|m| m.contains(needle));
    assert!(has("line 30:21: `x` of <bone> is \"NaN\", not a finite number"), "{msgs:#?}");
    assert!(has("`y` of <bone> is \"1e999\""), "{msgs:#?}");
    assert!(has("timeline 7 does not exist"), "{msgs:#?}");
    assert!(has("folder 0 file 9 does not exist"), "{msgs:#?}");
    // The rest still plays.
    let d = draw_at(&bad, "walk", "default", 0.0);
    assert_eq!(d.len(), 1, "the sprite with a missing image is hidden: {d:?}");
    assert!(d[0]["world"].as_array().unwrap().iter().all(|v| v.as_f64().unwrap().is_finite()));
}

#[test]
fn scon_reads_like_scml() {
    // SCON: mixed string/number values, "looping": "false", objects for keys.
    let scon = r#"{"entity":[{"name":"e","animation":[{"name":"a","length":100,"looping":"false",
        "mainline":{"key":[{"id":0,"object_ref":[{"id":0,"timeline":"0","key":0,"z_index":"0"}]}]},
        "timeline":[{"id":0,"name":"s","key":[{"id":0,"object":{"folder":0,"file":0,"x":3,"y":"4"}}]}]}]}],
        "folder":[{"id":0,"file":[{"id":0,"name":"p.png","width":2,"height":2,"pivot_x":0,"pivot_y":1}]}]}"#;
    let f = spriter::read_str(scon, Syntax::Scon).unwrap();
    assert!(f.warnings.is_empty(), "{:?}", f.warnings);
    let arm = &f.entities[0].armature;
    assert_eq!(arm.animations[0].looping, Some(false));
    let d = draw_json(arm, &evaluate(arm, Some(skelpad::model::AnimId(0)), SkinId(0), 0.05));
    close(&d[0]["world"], &[1.0, 0.0, 0.0, 1.0, 3.0, 4.0], 0.0);
}

#[test]
fn cli_poses_spriter_files_with_draw_lists() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spriter/rig.scml");
    let out = Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args([
            "pose",
            path.to_str().unwrap(),
            "--json",
            "--draw",
            "--entity",
            "rig",
            "--anim",
            "walk",
            "--times",
            "0,0.6",
            "--skin",
            "swap",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["entity"], "rig");
    assert_eq!(v["animations"][0]["looping"], true);
    let draw = &v["animations"][0]["poses"][1]["draw"];
    assert_eq!(draw[1]["image"], "b.png");
    assert_eq!(draw[1]["slot"], "root.hand.hand");
    let out = Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args(["pose", path.to_str().unwrap(), "--entity", "nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("no entity named \"nope\" (entities: \"rig\")")
    );
}

fn check_no_panic(text: &str) {
    for syntax in [Syntax::Scml, Syntax::Scon] {
        let Ok(f) = spriter::read_str(text, syntax) else { continue };
        for e in &f.entities {
            let arm = &e.armature;
            for skin in 0..arm.skeleton.skins.len() {
                for a in 0..arm.animations.len() {
                    let d = arm.animations[a].duration_secs;
                    for t in [0.0, d * 0.3, d * 0.999, d, -1.0, f64::NAN] {
                        let pose = evaluate(
                            arm,
                            Some(skelpad::model::AnimId::from_index(a)),
                            SkinId::from_index(skin),
                            t,
                        );
                        let _ = draw_json(arm, &pose);
                    }
                }
            }
        }
    }
}

fn mutate(text: &str, cuts: &[(usize, usize, u8)]) -> String {
    let mut b = text.as_bytes().to_vec();
    for &(at, len, byte) in cuts {
        if b.is_empty() {
            break;
        }
        let at = at % b.len();
        let end = (at + len % 8).min(b.len());
        match byte % 3 {
            0 => {
                b.drain(at..end);
            }
            1 => b.insert(at, b"0-9\"<>/.e"[usize::from(byte) % 9]),
            _ => {
                let src = (at * 7 + 13) % b.len();
                let chunk: Vec<u8> = b[src..(src + len % 64).min(b.len())].to_vec();
                b.splice(at..at, chunk);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

fn scon_of_fixture() -> String {
    // The same rig in SCON shape, written by hand.
    r#"{"entity":[{"name":"e","character_map":[{"name":"m","map":[{"folder":0,"file":0}]}],"animation":[{"name":"a","length":500,
      "mainline":{"key":[{"id":0,"curve_type":"cubic","c1":0.3,"c2":0.7,"bone_ref":[{"id":0,"timeline":1,"key":0}],
        "object_ref":[{"id":0,"parent":0,"timeline":"0","key":0,"z_index":"0"}]},{"id":1,"time":250,"bone_ref":[{"id":0,"timeline":1,"key":1}],
        "object_ref":[{"id":0,"parent":0,"timeline":"0","key":1,"z_index":"0"}]}]},
      "timeline":[{"id":0,"name":"s","key":[{"id":0,"spin":-1,"object":{"folder":0,"file":0,"x":3,"angle":350,"a":0.5}},
        {"id":1,"time":250,"object":{"folder":0,"file":0,"x":5,"scale_x":-1}}]},
        {"id":1,"name":"b","object_type":"bone","key":[{"id":0,"curve_type":"bezier","c1":0.1,"c2":0.5,"c3":0.5,"c4":1,"bone":{"angle":10}},
        {"id":1,"time":250,"bone":{"angle":20,"scale_y":-2}}]}]}]}],
      "folder":[{"id":0,"file":[{"id":0,"name":"p.png","width":2,"height":2,"pivot_x":0,"pivot_y":1}]}]}"#
        .to_string()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_no_panic(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn mutated_files_never_panic(cuts in proptest::collection::vec((any::<usize>(), any::<usize>(), any::<u8>()), 1..6), which in 0..2usize) {
        let base = if which == 0 { fixture() } else { scon_of_fixture() };
        check_no_panic(&mutate(&base, &cuts));
    }
}

/// Mutations of the real samples (../shared), when they are there.
#[test]
fn mutated_samples_never_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/samples/spriter");
    if !dir.is_dir() {
        assert!(
            std::env::var("SKELPAD_REQUIRE_SAMPLES").as_deref() != Ok("1"),
            "samples not found"
        );
        eprintln!("skipped: samples not found ({})", dir.display());
        return;
    }
    let mut texts = Vec::new();
    for sub in std::fs::read_dir(&dir).unwrap() {
        for f in std::fs::read_dir(sub.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            if spriter::syntax_of(&p).is_some() {
                texts.push(std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    assert!(!texts.is_empty());
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 64,
        ..ProptestConfig::default()
    });
    runner
        .run(
            &(
                0..texts.len(),
                proptest::collection::vec((any::<usize>(), any::<usize>(), any::<u8>()), 1..6),
            ),
            |(i, cuts)| {
                check_no_panic(&mutate(&texts[i], &cuts));
                Ok(())
            },
        )
        .unwrap();
}

/// `skelpad convert`: the script made from a Spriter file draws the same
/// pictures in the same order at the same places at every frame (the script's pictures are
/// centered, so Spriter's pivot frame is moved to the picture's center),
/// and it checks clean. Bezier curves are compared solved exactly (see
/// below); `tests/suite/curves.rs` checks every curve type between frames.
#[test]
fn converted_scripts_pose_like_the_spriter_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("tests/fixtures/spriter/rig.scml")];
    let samples = root.join("../shared/samples/spriter");
    if samples.is_dir() {
        for sub in std::fs::read_dir(&samples).unwrap() {
            for f in std::fs::read_dir(sub.unwrap().path()).unwrap() {
                let p = f.unwrap().path();
                if spriter::syntax_of(&p).is_some() {
                    files.push(p);
                }
            }
        }
    } else {
        assert!(
            std::env::var("SKELPAD_REQUIRE_SAMPLES").as_deref() != Ok("1"),
            "samples not found"
        );
        eprintln!("skipped the samples: samples not found");
    }
    files.sort();
    for path in files {
        let file = spriter::load(&path).unwrap();
        let dir = path.parent().unwrap().to_path_buf();
        // Sizes as the file says (the test rig ships no pictures).
        let doc_sizes: std::collections::HashMap<String, (u32, u32)> = file
            .doc
            .files
            .values()
            .filter_map(|f| Some((f.name.clone(), (f.width? as u32, f.height? as u32))))
            .collect();
        let sizes = |img: &str| {
            doc_sizes.get(img).copied().or_else(|| image::image_dimensions(dir.join(img)).ok())
        };
        for ent in &file.entities {
            let conv = spriter::script::to_script(ent, &[], &sizes);
            let comp = skelpad::compile::compile(&conv.script);
            assert!(
                !comp.has_errors(),
                "{}: {:?}\n{}",
                path.display(),
                comp.diagnostics,
                conv.script
            );
            // The script plays Spriter's bezier curves exactly (the
            // curve the file names; SpriterPlusPlus solves them to 1/200 in
            // time, LANGUAGE-EXT.md "Curves"), every other curve as it is.
            let exact = crate::curves::exact_beziers(&ent.armature);
            let (sarm, carm) = (&exact, &comp.armature);
            let mut worst = (0.0f64, 0.0f64, 0usize);
            for (ai, anim) in sarm.animations.iter().enumerate() {
                let cid = carm
                    .animations
                    .iter()
                    .position(|a| a.name == anim.name.replace(' ', "_"))
                    .expect("animation converted");
                assert!(
                    (carm.animations[cid].duration_secs - anim.duration_secs).abs() < 1e-9,
                    "{}: duration",
                    anim.name
                );
                let frames = (anim.duration_secs * 60.0).floor() as usize;
                for k in 0..=frames {
                    let t = k as f64 / 60.0;
                    let sp =
                        evaluate(sarm, Some(skelpad::model::AnimId::from_index(ai)), SkinId(0), t);
                    let cp =
                        evaluate(carm, Some(skelpad::model::AnimId::from_index(cid)), SkinId(0), t);
                    let want = draw_json(sarm, &sp);
                    let got = draw_json(carm, &cp);
                    let (want, got) = (want.as_array().unwrap(), got.as_array().unwrap());
                    assert_eq!(
                        want.len(),
                        got.len(),
                        "{} {} at {t}: {want:?} vs {got:?}",
                        path.display(),
                        anim.name
                    );
                    // In the same order: an animated draw order becomes slot
                    // copies named `SLOT_zN` (formats::draw_order).
                    for (w, g) in want.iter().zip(got) {
                        let name = g["slot"].as_str().unwrap();
                        let base = match name.rsplit_once("_z") {
                            Some((b, n))
                                if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) =>
                            {
                                b
                            }
                            _ => name,
                        };
                        assert_eq!(
                            base,
                            w["slot"].as_str().unwrap(),
                            "{} {} at {t}: draw order {want:?} vs {got:?}",
                            path.display(),
                            anim.name
                        );
                        assert_eq!(g["image"], w["image"]);
                        let wv: Vec<f64> = w["world"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.as_f64().unwrap())
                            .collect();
                        let gv: Vec<f64> = g["world"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.as_f64().unwrap())
                            .collect();
                        let (px, py) =
                            (w["pivot"][0].as_f64().unwrap(), w["pivot"][1].as_f64().unwrap());
                        let (iw, ih) = sizes(w["image"].as_str().unwrap()).unwrap();
                        let (dx, dy) = ((0.5 - px) * f64::from(iw), (0.5 - py) * f64::from(ih));
                        let center =
                            [wv[0] * dx + wv[2] * dy + wv[4], wv[1] * dx + wv[3] * dy + wv[5]];
                        let pos = (gv[4] - center[0]).hypot(gv[5] - center[1]);
                        let lin = (0..4).map(|i| (gv[i] - wv[i]).abs()).fold(0.0, f64::max);
                        assert!(
                            pos <= 0.01 && lin <= 1e-3,
                            "{} {} at {t}: {} center {center:?} vs {gv:?}",
                            path.display(),
                            anim.name,
                            w["slot"]
                        );
                        assert!(
                            (g["alpha"].as_f64().unwrap() - w["alpha"].as_f64().unwrap()).abs()
                                <= 1e-3
                        );
                        worst = (worst.0.max(pos), worst.1.max(lin), worst.2 + 1);
                    }
                }
            }
            eprintln!(
                "{} {}: worst {:.1e} px, 2x2 {:.1e} over {} pictures",
                path.display(),
                ent.name,
                worst.0,
                worst.1,
                worst.2
            );
        }
    }
}
