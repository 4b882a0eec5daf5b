//! Opening SkelForm's own files: both real samples (third-party, read from
//! `../shared/samples/skelform/` at test time) play in skelpad's runtime as
//! in `rusty_skelform` 0.8 — every frame of every animation, every bone.
//! Bones that physics moves (and the bones below them) depend on the frames
//! played before; they are compared with `rusty_skelform` playing the
//! frames in order on one armature.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::needless_range_loop,
    reason = "test code"
)]

use crate::common;

use std::path::PathBuf;

use rusty_skelform as rs;
use skelpad::formats::skf::import::{Imported, import_skf};
use skelpad::model::{AnimId, SkinId};
use skelpad::runtime::{Pose, evaluate, evaluate_into};

/// The sample folder, or `None` (with a message) when it is not there;
/// `SKELPAD_REQUIRE_SAMPLES=1` turns a missing folder into a failure.
fn samples() -> Option<PathBuf> {
    common::samples_dir("skf_import", "skelform")
}

const SAMPLES: [&str; 2] = ["_skellina.skf", "_skellington.skf"];

fn load(dir: &std::path::Path, name: &str) -> (Imported, rs::Armature) {
    let bytes = std::fs::read(dir.join(name)).unwrap();
    let imported = import_skf(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let theirs: rs::Armature = serde_json::from_str(&imported.file.json).unwrap();
    (imported, theirs)
}

/// Bones whose pose depends on physics: those with physics and every bone below one.
fn physics_driven(imp: &Imported) -> Vec<bool> {
    let sk = &imp.armature.skeleton;
    let mut out = vec![false; sk.bones.len()];
    for p in &sk.physics {
        if p.is_active() {
            out[p.bone.index()] = true;
        }
    }
    for i in 0..sk.bones.len() {
        if let Some(p) = sk.bones[i].parent
            && out[p.index()]
        {
            out[i] = true;
        }
    }
    out
}

fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(std::f64::consts::TAU);
    d.min(std::f64::consts::TAU - d)
}

#[derive(Default, Debug)]
struct Worst {
    pos: f64,
    rot: f64,
    at: String,
    checks: usize,
}

impl Worst {
    fn add(&mut self, label: impl Fn() -> String, ours: &Pose, theirs: &[rs::Bone], bone: usize) {
        let o = ours.skf[bone];
        let t = &theirs[bone];
        let d = (f64::from(o.x - t.pos.x)).hypot(f64::from(o.y - t.pos.y));
        let r = angle_diff(f64::from(o.rot), f64::from(t.rot));
        if d > self.pos {
            self.pos = d;
            self.at = label();
        }
        self.rot = self.rot.max(r);
        self.checks += 1;
    }
}

#[test]
fn samples_play_like_rusty_skelform_frame_by_frame() {
    let Some(dir) = samples() else { return };
    for name in SAMPLES {
        let (imp, theirs) = load(&dir, name);
        let arm = &imp.armature;
        let driven = physics_driven(&imp);
        let mut w = Worst::default();
        let mut frames = 0;
        for (ai, anim) in theirs.animations.iter().enumerate() {
            let last = anim.keyframes.iter().map(|k| k.frame).max().unwrap();
            assert_eq!(arm.animations[ai].name, anim.name);
            for frame in 0..=last {
                let mut a = theirs.clone();
                common::rusty_play(&mut a, anim, frame);
                let pose = evaluate(
                    arm,
                    Some(AnimId(ai as u32)),
                    SkinId(0),
                    f64::from(frame) / f64::from(anim.fps),
                );
                for b in 0..a.constructed_bones.len() {
                    if !driven[b] {
                        w.add(
                            || {
                                format!(
                                    "{} frame {frame} bone {b} ({})",
                                    anim.name, a.bones[b].name
                                )
                            },
                            &pose,
                            &a.constructed_bones,
                            b,
                        );
                    }
                }
                frames += 1;
            }
        }
        eprintln!(
            "{name}: {frames} frames, {} bone checks, worst {:.2e} units at {}, {:.2e} rad",
            w.checks, w.pos, w.at, w.rot
        );
        assert!(w.pos <= 0.01, "{name}: {:.4} units off at {}", w.pos, w.at);
        assert!(w.checks > 1000);
    }
}

/// Whether a bone hangs below (or is part of) an IK chain.
fn under_ik(imp: &Imported, bone: usize) -> bool {
    let sk = &imp.armature.skeleton;
    let in_chain = |b: usize| sk.ik.iter().any(|f| f.bones.iter().any(|x| x.index() == b));
    let mut b = Some(bone);
    while let Some(i) = b {
        if in_chain(i) {
            return true;
        }
        b = sk.bones[i].parent.map(|p| p.index());
    }
    false
}

/// Plays every animation in order in both runtimes; the worst distance of
/// each physics-driven bone.
fn physics_worst(
    name: &str,
    imp: &Imported,
    theirs: &rs::Armature,
    arm: &skelpad::model::Armature,
) -> Vec<(usize, String, f64)> {
    let driven = physics_driven(imp);
    let mut out = Vec::new();
    for (ai, anim) in theirs.animations.iter().enumerate() {
        let last = anim.keyframes.iter().map(|k| k.frame).max().unwrap();
        let mut a = theirs.clone();
        let mut pose = Pose::default();
        let mut per_bone = vec![0.0f64; driven.len()];
        for frame in 0..=last {
            common::rusty_play(&mut a, anim, frame);
            let t = f64::from(frame) / f64::from(anim.fps);
            evaluate_into(&mut pose, arm, arm.animations.get(ai).map(|a| &**a), SkinId(0), t);
            // A fresh evaluation (simulating from frame 0) agrees with the cached one.
            if frame % 17 == 0 {
                let fresh = evaluate(arm, Some(AnimId(ai as u32)), SkinId(0), t);
                assert_eq!(
                    fresh.skf, pose.skf,
                    "{name}/{} frame {frame}: the cache changes the result",
                    anim.name
                );
            }
            for b in 0..driven.len() {
                if driven[b] {
                    let o = pose.skf[b];
                    let t = &a.constructed_bones[b];
                    per_bone[b] =
                        per_bone[b].max(f64::from(o.x - t.pos.x).hypot(f64::from(o.y - t.pos.y)));
                }
            }
        }
        for b in 0..driven.len() {
            if driven[b] {
                out.push((
                    b,
                    format!("{name}/{} bone {b} ({})", anim.name, a.bones[b].name),
                    per_bone[b],
                ));
            }
        }
    }
    out
}

/// Physics under the editor's rule (the default) matches `rusty_skelform`
/// exactly for bones outside IK chains; below an IK chain the two programs
/// feed the simulation different bones (docs/skf.md), and with
/// `PhysicsReads::RustySkelform` skelpad plays those like `rusty_skelform` too.
#[test]
fn samples_physics_plays_like_rusty_skelform_in_order() {
    let Some(dir) = samples() else { return };
    for name in SAMPLES {
        let (imp, theirs) = load(&dir, name);
        assert!(physics_driven(&imp).iter().any(|&d| d), "{name} has physics");
        for (b, label, worst) in physics_worst(name, &imp, &theirs, &imp.armature) {
            eprintln!(
                "editor rule: {label}: worst {worst:.3e} units{}",
                if under_ik(&imp, b) { " (below an IK chain)" } else { "" }
            );
            if !under_ik(&imp, b) {
                assert!(worst <= 0.01, "{label}: {worst} units off");
            }
        }
        let mut sk = (*imp.armature.skeleton).clone();
        sk.physics_reads = skelpad::model::PhysicsReads::RustySkelform;
        let arm = skelpad::model::Armature {
            skeleton: std::sync::Arc::new(sk),
            animations: imp.armature.animations.clone(),
        };
        for (_, label, worst) in physics_worst(name, &imp, &theirs, &arm) {
            eprintln!("rusty_skelform rule: {label}: worst {worst:.3e} units");
            assert!(worst <= 0.01, "{label}: {worst} units off");
        }
    }
}

/// `skelpad pose FILE.skf --json` lists the file's bones in its order under
/// their names, at the frame `trunc(t · fps)`, where `rusty_skelform` puts them.
#[test]
fn cli_pose_of_a_sample_lists_file_bones_at_truncated_frames() {
    let Some(dir) = samples() else { return };
    let path = dir.join("_skellington.skf");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args([
            "pose",
            path.to_str().unwrap(),
            "--json",
            "--anim",
            "Jump",
            "--times",
            "0.2599,0.25",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (imp, theirs) = load(&dir, "_skellington.skf");
    let driven = physics_driven(&imp);
    let anim = theirs.animations.iter().find(|a| a.name == "Jump").unwrap();
    let poses = doc["animations"][0]["poses"].as_array().unwrap();
    // 0.2599 s × 60 fps = 15.59: frame 15, like 0.25 s.
    assert_eq!(poses[0]["bones"], poses[1]["bones"]);
    let mut a = theirs.clone();
    common::rusty_play(&mut a, anim, 15);
    let bones = poses[0]["bones"].as_array().unwrap();
    assert_eq!(bones.len(), a.bones.len());
    let mut worst = 0.0f64;
    for (b, (ours, t)) in bones.iter().zip(&a.constructed_bones).enumerate() {
        assert_eq!(ours["name"], a.bones[b].name, "bone {b}");
        if driven[b] {
            continue; // depends on the frames before (see the physics test)
        }
        let w = ours["world"].as_array().unwrap();
        let (x, y) = (w[4].as_f64().unwrap(), w[5].as_f64().unwrap());
        worst = worst.max((x - f64::from(t.pos.x)).hypot(y - f64::from(t.pos.y)));
    }
    assert!(worst <= 0.01, "{worst}");
    // Names repeat in real files, and each keeps its place.
    assert!(bones.iter().filter(|b| b["name"] == "Left").count() >= 2);
}

/// `skelpad export FILE.skf -o OUT.skf` writes a file that poses exactly
/// like the original.
#[test]
fn cli_export_of_a_sample_round_trips() {
    let Some(dir) = samples() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("again.skf");
    let src = dir.join("_skellina.skf");
    let st = std::process::Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args(["export", src.to_str().unwrap(), "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    let a = import_skf(&std::fs::read(&src).unwrap()).unwrap();
    let b = import_skf(&std::fs::read(&out).unwrap()).unwrap();
    assert_eq!(a.file.armature, b.file.armature);
    assert_eq!(a.file.atlas_png, b.file.atlas_png);
    for (i, anim) in a.armature.animations.iter().enumerate() {
        let t = anim.duration_secs / 2.0;
        let pa = evaluate(&a.armature, Some(AnimId(i as u32)), SkinId(0), t);
        let pb = evaluate(&b.armature, Some(AnimId(i as u32)), SkinId(0), t);
        assert_eq!(pa.skf, pb.skf);
    }
}

/// `skelpad render FILE.skf` draws the sample's pictures.
#[test]
fn cli_render_of_a_sample_draws_its_textures() {
    let Some(dir) = samples() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("s.png");
    let src = dir.join("_skellington.skf");
    let st = std::process::Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args([
            "render",
            src.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--size",
            "128x128",
            "--background",
            "#FFF",
        ])
        .output()
        .unwrap();
    assert!(st.status.success(), "{}", String::from_utf8_lossy(&st.stderr));
    assert!(
        !String::from_utf8_lossy(&st.stderr).contains("warning"),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let img = image::open(&out).unwrap().to_rgba8();
    // The suit's purple covers a good part of the picture.
    let purple = img.pixels().filter(|p| p[2] > 80 && p[0] < 120 && p[1] < 80).count();
    assert!(purple > 300, "{purple} purple pixels");
}

// ---- untrusted input -------------------------------------------------------

fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        z.start_file(*name, opts).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap().into_inner()
}

fn png(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    image::RgbaImage::new(w, h)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

const BASE: &str = r#"{"version":"0.7.0","bones":[{"id":0,"name":"root","parent_id":-1,"pos":{"x":0,"y":0}}],
"animations":[{"name":"a","fps":10,"keyframes":[{"frame":3,"bone_id":0,"element":"PositionX","value":2}]}],
"atlases":[{"filename":"atlas0.png","size":{"x":4,"y":4}}]}"#;

fn import_err(bytes: &[u8]) -> String {
    match import_skf(bytes) {
        Ok(_) => panic!("accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_files_get_clear_errors() {
    let atlas = png(4, 4);
    assert!(
        import_skf(&zip_of(&[("armature.json", BASE.as_bytes()), ("atlas0.png", &atlas)])).is_ok()
    );
    // Corrupt zip: a good file cut short, and bytes flipped in the middle.
    let good = zip_of(&[("armature.json", BASE.as_bytes()), ("atlas0.png", &atlas)]);
    assert!(import_err(&good[..good.len() / 2]).contains("not a zip"));
    let mut flipped = good.clone();
    for b in &mut flipped[40..80] {
        *b ^= 0x5A;
    }
    let _ = import_skf(&flipped); // an error or a file, never a panic
    // Malformed JSON, with its place.
    let e = import_err(&zip_of(&[("armature.json", b"{\"bones\": [}"), ("atlas0.png", &atlas)]));
    assert!(e.starts_with("armature.json:1:"), "{e}");
    // Ids out of range and parent cycles.
    let cyc = BASE.replace(r#""parent_id":-1"#, r#""parent_id":0"#);
    assert!(
        import_err(&zip_of(&[("armature.json", cyc.as_bytes()), ("atlas0.png", &atlas)]))
            .contains("is not an earlier bone")
    );
    let oob = BASE.replace(r#""bone_id":0"#, r#""bone_id":7"#);
    assert!(
        import_err(&zip_of(&[("armature.json", oob.as_bytes()), ("atlas0.png", &atlas)]))
            .contains("bone_id 7 is not a bone")
    );
    let ik = BASE.replace(
        r#""atlases""#,
        r#""inverse_kinematics":[{"target_id":9,"bone_ids":[0,5]}],"atlases""#,
    );
    let e = import_err(&zip_of(&[("armature.json", ik.as_bytes()), ("atlas0.png", &atlas)]));
    assert!(e.contains("target_id 9 is not a bone") && e.contains("bone_ids holds 5"), "{e}");
    // Huge numbers (1e39 is an infinite f32) and far frames.
    let huge = BASE.replace(r#""value":2"#, r#""value":1e39"#);
    assert!(
        import_err(&zip_of(&[("armature.json", huge.as_bytes()), ("atlas0.png", &atlas)]))
            .contains("not a finite number")
    );
    let far = BASE.replace(r#""frame":3"#, r#""frame":4000000000"#);
    assert!(
        import_err(&zip_of(&[("armature.json", far.as_bytes()), ("atlas0.png", &atlas)]))
            .contains("past the last frame")
    );
    // Entry names that leave the zip.
    for bad in ["../evil.png", "/etc/passwd", "a/../../b.png"] {
        let j = BASE.replace("atlas0.png", bad);
        let e = import_err(&zip_of(&[("armature.json", j.as_bytes()), (bad, &atlas)]));
        assert!(e.contains("absolute path") || e.contains("outside the zip"), "{bad}: {e}");
    }
    // A malformed atlas and one whose header claims a huge size.
    assert!(
        import_err(&zip_of(&[("armature.json", BASE.as_bytes()), ("atlas0.png", b"\x89PNG nope")]))
            .contains("not a PNG")
    );
    let mut big = png(4, 4);
    big[16..20].copy_from_slice(&100_000u32.to_be_bytes()); // IHDR width
    let e = import_err(&zip_of(&[("armature.json", BASE.as_bytes()), ("atlas0.png", &big)]));
    assert!(e.contains("atlases[0]"), "{e}");
}

/// A zip bomb: an entry that unpacks to far more than allowed is refused
/// from its header, quickly, without unpacking it.
#[test]
fn zip_bombs_are_refused() {
    let zeros = vec![0u8; 80 << 20];
    let bomb = zip_of(&[("armature.json", &zeros)]);
    assert!(bomb.len() < 1 << 20, "deflate packs zeros tightly: {}", bomb.len());
    let start = std::time::Instant::now();
    let e = import_err(&bomb);
    assert!(e.contains("more than the") && e.contains("armature.json"), "{e}");
    assert!(start.elapsed().as_secs() < 5);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Any change to a valid armature.json either imports (and then
        /// evaluates to finite poses at any time) or is refused with a message.
        #[test]
        fn mutated_files_import_or_explain(cut in 0usize..400, byte in any::<u8>(), t in -5.0f64..50.0) {
            let mut json = BASE.as_bytes().to_vec();
            let i = cut % json.len();
            json[i] = byte;
            let bytes = zip_of(&[("armature.json", &json), ("atlas0.png", &png(4, 4))]);
            match import_skf(&bytes) {
                Err(e) => prop_assert!(!e.to_string().is_empty()),
                Ok(imp) => {
                    for a in 0..imp.armature.animations.len() {
                        let p = evaluate(&imp.armature, Some(AnimId(a as u32)), SkinId(0), t);
                        prop_assert!(p.bones.iter().all(|b| b.world.is_finite()));
                    }
                }
            }
        }

        /// Random bytes are never a panic.
        #[test]
        fn random_bytes_are_refused(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let _ = import_skf(&bytes);
        }
    }
}

/// `skelpad convert` writes a script that checks clean and, frame by frame,
/// puts every bone where the SkelForm file does (physics baked; IK families
/// in an `ik` section where the language plays them alike, else baked).
#[test]
fn converted_samples_check_clean_and_pose_like_the_file() {
    let Some(dir) = samples() else { return };
    let tmp = tempfile::tempdir().unwrap();
    for name in SAMPLES {
        let out = tmp.path().join(name.replace(".skf", ".skel2d"));
        let st = std::process::Command::new(env!("CARGO_BIN_EXE_skelpad"))
            .args(["convert", dir.join(name).to_str().unwrap(), "-o", out.to_str().unwrap()])
            .output()
            .unwrap();
        let msg = String::from_utf8_lossy(&st.stderr).to_string();
        assert!(st.status.success(), "{msg}");
        assert!(msg.contains("could not carry over exactly"), "{msg}");
        let text = std::fs::read_to_string(&out).unwrap();
        let carried = text
            .lines()
            .skip_while(|l| *l != "ik")
            .skip(1)
            .take_while(|l| l.starts_with('\t'))
            .count();
        let (imp, _) = load(&dir, name);
        let baked = msg
            .lines()
            .find(|l| l.contains("IK families"))
            .map_or(0, |l| l.trim().split(' ').next().unwrap().parse::<usize>().unwrap());
        assert_eq!(carried + baked, imp.armature.skeleton.ik.len(), "{name}: {msg}");
        eprintln!("{name}: {carried} IK families carried, {baked} baked");
        let comp = skelpad::compile::compile(&text);
        assert!(comp.diagnostics.is_empty(), "{name}: {:?}", comp.diagnostics.first());
        let arm = &imp.armature;
        let sk = &comp.armature.skeleton;
        assert_eq!(sk.bones.len(), arm.skeleton.bones.len());
        let paths = skelpad::formats::skf::convert::bone_paths(&arm.skeleton);
        let index: Vec<usize> = paths
            .iter()
            .map(|p| sk.bone_by_name(p).unwrap_or_else(|| panic!("{p}")).index())
            .collect();
        // Sprites were written beside the script, inside its folder.
        let sprites = tmp.path().join(name.replace(".skf", "_sprites"));
        assert!(std::fs::read_dir(&sprites).unwrap().count() > 0);
        let mut worst = 0.0f64;
        let mut at = String::new();
        for (ai, anim) in arm.animations.iter().enumerate() {
            let id = comp
                .armature
                .animations
                .iter()
                .position(|a| a.name == skelpad::formats::skf::convert::script_name(&anim.name))
                .unwrap();
            let last = (anim.duration_secs * anim.fps).round() as u32;
            let mut ours = Pose::default();
            for f in 0..=last {
                let t = f64::from(f) / anim.fps;
                evaluate_into(&mut ours, arm, Some(anim), SkinId(0), t);
                let script = evaluate(&comp.armature, Some(AnimId(id as u32)), SkinId(0), t);
                for b in 0..sk.bones.len() {
                    let w = script.bones[index[b]].world;
                    let o = ours.skf[b];
                    let d = (w.translation().x - f64::from(o.x))
                        .hypot(w.translation().y - f64::from(o.y));
                    if d > worst {
                        worst = d;
                        at = format!("{} frame {f} bone {}", anim.name, paths[b]);
                    }
                }
            }
            let _ = ai;
        }
        eprintln!(
            "{name}: converted script within {worst:.2e} units of the file at every frame (worst at {at})"
        );
        assert!(worst <= 0.01, "{name}: {worst} at {at}");
    }
}

/// skelpad's own exports, opened again, pose like their scripts: every
/// example, every frame of every animation, every bone of the script (by
/// name) within 0.01 units. Examples with mirrored (`flip`) bones are
/// reported: the exporter writes them for `rusty_skelform`'s rule, the
/// importer plays SkelForm's editor's (docs/skf.md).
#[test]
fn own_exports_import_back_like_their_scripts() {
    use skelpad::formats::skf::export::ExportOptions;
    use skelpad::formats::skf::pictures::RenderedPictures;
    use skelpad::formats::skf::write::{build, to_zip};
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let mut entries: Vec<_> =
        std::fs::read_dir(root.join("examples")).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for path in entries.into_iter().filter(|p| p.extension().is_some_and(|e| e == "skel2d")) {
        let text = std::fs::read_to_string(&path).unwrap();
        let comp = skelpad::compile::compile(&text);
        let arm = &comp.armature;
        let mut pictures = RenderedPictures::new(arm, &root.join("examples"));
        let export = build(
            arm,
            &ExportOptions::default(),
            &mut pictures,
            &skelpad::formats::export::Progress::new(),
        )
        .unwrap();
        let imp = import_skf(&to_zip(&export).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let back = &imp.armature;
        let mirrored = arm.skeleton.bones.iter().any(|b| {
            b.setup.flip_x || b.setup.flip_y || b.setup.scale_x < 0.0 || b.setup.scale_y < 0.0
        }) || arm.animations.iter().any(|a| !a.flips.is_empty());
        let mut worst = 0.0f64;
        let mut at = String::new();
        for (ai, anim) in arm.animations.iter().enumerate() {
            let bi = back
                .animation_by_name(&anim.name)
                .unwrap_or_else(|| panic!("{}: animation {}", path.display(), anim.name));
            let frames = (anim.duration_secs * anim.fps).round() as u32;
            for f in 0..=frames {
                let t = f64::from(f) / anim.fps;
                let ours = evaluate(arm, Some(AnimId(ai as u32)), SkinId(0), t);
                let theirs = evaluate(back, Some(bi), SkinId(0), t);
                for (b, bone) in arm.skeleton.bones.iter().enumerate() {
                    let Some(j) = back.skeleton.bone_by_name(&bone.name) else {
                        panic!("{}: bone {} not exported", path.display(), bone.name)
                    };
                    let (w, o) = (ours.bones[b].world, theirs.skf[j.index()]);
                    let d = (w.translation().x - f64::from(o.x))
                        .hypot(w.translation().y - f64::from(o.y));
                    if d > worst {
                        worst = d;
                        at = format!("{} frame {f} bone {}", anim.name, bone.name);
                    }
                }
            }
        }
        eprintln!(
            "{}: imported export within {worst:.2e} units of the script{}",
            path.display(),
            if mirrored { " (mirrored bones)" } else { "" }
        );
        if !mirrored {
            assert!(worst <= 0.01, "{}: {worst} at {at}", path.display());
        }
        checked += 1;
    }
    assert!(checked >= 5);
}

/// skelform-js (SkelForm's JavaScript runtime, vendored in
/// `tests/skelform-js/`, run under node) follows SkelForm's editor where
/// `rusty_skelform` does not (physics below IK chains): both samples play
/// there like in skelpad, every bone, every frame (physics-driven bones with
/// the frames played in order). Skipped without node (a failure with
/// `SKELPAD_REQUIRE_NODE=1`).
#[test]
fn samples_play_like_skelform_js_including_physics_below_ik() {
    let Some(dir) = samples() else { return };
    if !std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        assert!(
            std::env::var("SKELPAD_REQUIRE_NODE").as_deref() != Ok("1"),
            "SKELPAD_REQUIRE_NODE=1 but node does not run"
        );
        eprintln!("skipped: node not found (the skelform-js comparison needs it)");
        return;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/skelform-js/play_frames.js");
    let tmp = tempfile::tempdir().unwrap();
    for name in SAMPLES {
        let (imp, _) = load(&dir, name);
        let json_path = tmp.path().join("armature.json");
        std::fs::write(&json_path, &imp.file.json).unwrap();
        let out = std::process::Command::new("node").arg(&script).arg(&json_path).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let js: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let driven = physics_driven(&imp);
        let arm = &imp.armature;
        let (mut fresh_worst, mut phys_worst) = (0.0f64, 0.0f64);
        for (ai, anim) in arm.animations.iter().enumerate() {
            let mut pose = Pose::default();
            let frames = js["fresh"][ai].as_array().unwrap();
            for f in 0..frames.len() {
                evaluate_into(&mut pose, arm, Some(anim), SkinId(0), f as f64 / anim.fps);
                for b in 0..driven.len() {
                    let which = if driven[b] { "inorder" } else { "fresh" };
                    let j = &js[which][ai][f][b];
                    let (x, y) = (j[0].as_f64().unwrap(), j[1].as_f64().unwrap());
                    let d = (f64::from(pose.skf[b].x) - x).hypot(f64::from(pose.skf[b].y) - y);
                    if driven[b] {
                        phys_worst = phys_worst.max(d);
                    } else {
                        fresh_worst = fresh_worst.max(d);
                    }
                }
            }
        }
        eprintln!(
            "{name}: skelform-js within {fresh_worst:.2e} units (physics-driven bones, in order: {phys_worst:.2e})"
        );
        assert!(fresh_worst <= 0.01 && phys_worst <= 0.01, "{name}: {fresh_worst} / {phys_worst}");
    }
}
