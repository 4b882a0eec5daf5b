//! Cubic-bezier easings end to end (#44 §1): a Spriter file with every
//! curve type (`tests/fixtures/spriter/curves.scml`: linear, quadratic,
//! cubic, bezier with overshoot, instant) converts to a script with one
//! eased key per Spriter key whose poses equal the importer's at frame
//! times and between them; that script's Lottie export keeps one keyframe
//! per key and plays within 1e-3 in lottie-web at whole and half frames.
//!
//! The importer plays Spriter's `bezier` curves as SpriterPlusPlus does
//! (solved to 1/200 in time); the script plays the exact curve the file
//! names. So the script is compared with the importer whose bezier keys
//! are solved exactly (every other key as it is), and the distance to the
//! importer as it is, for bezier spans, is reported.

use std::path::{Path, PathBuf};

use skelpad::formats::lottie::{FilePictures, LottieOptions, PictureSource, export};
use skelpad::formats::spriter;
use skelpad::model::{
    AnimId, Armature, CubicBezier, Curve, Easing, SkinId, SpriterCurve, SpriterCurveKind,
};
use skelpad::runtime::evaluate;

use crate::lottie_between::{Truth, lottie_web_play};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spriter/curves.scml")
}

/// The fixture's entity and the script `skelpad convert` writes for it.
fn converted() -> (Armature, String) {
    let file = spriter::load(&fixture()).unwrap();
    let ent = &file.entities[0];
    let conv = spriter::script::to_script(ent, &[], &|_| Some((20, 10)));
    (ent.armature.clone(), conv.script)
}

/// `arm` with its Spriter bezier keys played exactly.
fn exact_beziers(arm: &Armature) -> Armature {
    let mut arm = arm.clone();
    for a in &mut arm.animations {
        let a = std::sync::Arc::make_mut(a);
        for k in a.bones.iter_mut().flat_map(|c| c.keys.iter_mut()) {
            if let Curve::Spriter(SpriterCurve { kind: SpriterCurveKind::Bezier, c }) = k.curve {
                k.curve = Curve::Eased(Easing::Bezier(CubicBezier::new(c[0], c[1], c[2], c[3])));
            }
        }
    }
    arm
}

/// The largest difference of the bones' world matrices at time `t`.
fn world_gap(a: &Armature, b: &Armature, t: f64) -> f64 {
    let pa = evaluate(a, Some(AnimId::from_index(0)), SkinId(0), t);
    let pb = evaluate(b, Some(AnimId::from_index(0)), SkinId(0), t);
    let mut worst: f64 = 0.0;
    for (i, bone) in a.skeleton.bones.iter().enumerate() {
        let j = b.skeleton.bones.iter().position(|o| o.name == bone.name).expect("same bones");
        let (wa, wb) = (pa.bones[i].world.to_array(), pb.bones[j].world.to_array());
        worst = wa.iter().zip(&wb).map(|(x, y)| (x - y).abs()).fold(worst, f64::max);
    }
    worst
}

#[test]
fn every_spriter_curve_type_converts_to_eased_keys_that_pose_alike() {
    let (spriter_arm, script) = converted();
    let comp = skelpad::compile::compile(&script);
    assert!(!comp.has_errors(), "{:?}\n{script}", comp.diagnostics);
    // Quadratic, cubic and bezier spans are one key each: no timeline has
    // more keys than the file (6 keys, a hair-before key at the instant).
    for line in script.lines().filter(|l| l.starts_with("\t\t") && !l.contains('@')) {
        assert!(line.matches('>').count() <= 7, "per-frame keys: {line}");
    }
    for (curve, written) in [
        ("quadratic c1 0.8", "bz(0.3333333333333333,0.5333333333333333,"),
        ("cubic 1.4 -0.3", "bz(0.3333333333333333,1.4,0.6666666666666666,-0.3)"),
        ("bezier", "bz(0.4003,0.995261,0.8654,0.161137)"),
        ("bezier (back-out's numbers)", "::back-out>"),
        ("bezier (back's numbers)", "::back>"),
    ] {
        assert!(script.contains(written), "{curve}: {written} not in\n{script}");
    }
    let want = exact_beziers(&spriter_arm);
    let dur = spriter_arm.animations[0].duration_secs;
    let (mut worst, mut spp_gap) = (0.0_f64, 0.0_f64);
    let frames = (dur * 60.0).round() as usize;
    for k in 0..frames {
        for part in [0.0, 0.25, 0.5, 0.77] {
            let t = (k as f64 + part) / 60.0;
            let gap = world_gap(&want, &comp.armature, t);
            assert!(gap <= 1e-3, "at {t} s the script is {gap} from the file");
            worst = worst.max(gap);
            spp_gap = spp_gap.max(world_gap(&spriter_arm, &comp.armature, t));
        }
    }
    eprintln!(
        "converted Spriter curves: worst {worst:.2e} over {} times (frames and between); \
         SpriterPlusPlus's 1/200 bezier solve is up to {spp_gap:.3} units away",
        frames * 4
    );
}

#[test]
fn the_lottie_export_of_eased_keys_keeps_one_keyframe_per_key() {
    let (_, script) = converted();
    let comp = skelpad::compile::compile(&script);
    let arm = comp.armature;
    let dir = tempfile::tempdir().unwrap();
    let mut pics: Box<dyn PictureSource> = Box::new(FilePictures(dir.path().to_path_buf()));
    let lottie = export(&arm, &LottieOptions::default(), pics.as_mut()).unwrap();
    // Each bone layer's animated property: at most one keyframe per script
    // key (6, the hair-before key of the instant, the closing frame).
    let mut counted = 0;
    for layer in lottie.json["layers"].as_array().unwrap() {
        for prop in ["p", "r", "s"] {
            let p = &layer["ks"][prop];
            if p["a"] == 1 {
                let n = p["k"].as_array().unwrap().len();
                assert!(n <= 8, "layer {} {prop}: {n} keyframes", layer["nm"]);
                counted += 1;
            }
        }
    }
    assert!(counted >= 6, "animated bone properties: {counted}");
    let Some(web) = crate::lottie::lottie_web() else { return };
    let truth = Truth::new(&arm, &lottie, SkinId(0));
    let (mats, _) = lottie_web_play(&web, "curves", &truth, &lottie);
    let mut worst: f64 = 0.0;
    for (at, got) in truth.times().into_iter().zip(&mats) {
        for (g, w) in got.iter().zip(truth.bones(at)) {
            let e = truth.error(*g, w);
            assert!(e <= 1e-3, "lottie-web at frame {}: off by {e}", truth.frame(at));
            worst = worst.max(e);
        }
    }
    eprintln!("lottie-web, bezier-eased export: worst {worst:.2e} at whole and half frames");
}
