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

/// `arm` with its Spriter bezier keys (timelines and mainline) played
/// exactly: the curve the file names, which `skelpad convert` writes.
pub(crate) fn exact_beziers(arm: &Armature) -> Armature {
    let mut arm = arm.clone();
    for a in &mut arm.animations {
        let a = std::sync::Arc::make_mut(a);
        let warp = a.time_warp.iter_mut();
        for k in a.bones.iter_mut().flat_map(|c| c.keys.iter_mut()).chain(warp) {
            if let Curve::Spriter(SpriterCurve { kind: SpriterCurveKind::Bezier, c }) = k.curve {
                k.curve = Curve::Eased(Easing::Bezier(CubicBezier::new(c[0], c[1], c[2], c[3])));
            }
        }
    }
    arm
}

/// The largest difference of the bones' world matrices at time `t`, bone
/// `i` of `a` being bone `map(i)` of `b`.
fn world_gap_by(a: &Armature, b: &Armature, t: f64, map: &dyn Fn(usize) -> usize) -> f64 {
    let pa = evaluate(a, Some(AnimId::from_index(0)), SkinId(0), t);
    let pb = evaluate(b, Some(AnimId::from_index(0)), SkinId(0), t);
    let mut worst: f64 = 0.0;
    for i in 0..a.skeleton.bones.len() {
        let (wa, wb) = (pa.bones[i].world.to_array(), pb.bones[map(i)].world.to_array());
        worst = wa.iter().zip(&wb).map(|(x, y)| (x - y).abs()).fold(worst, f64::max);
    }
    worst
}

/// [`world_gap_by`] for bones of the same names.
fn world_gap(a: &Armature, b: &Armature, t: f64) -> f64 {
    let by_name =
        |i: usize| b.skeleton.bone_by_name(&a.skeleton.bones[i].name).expect("same bones").index();
    world_gap_by(a, b, t, &by_name)
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

/// `examples/curves.skel2d` through a `.skf` file and back: the export
/// writes each bezier easing as the keyframe's handles, and `convert`
/// writes those handles back as `bz(…)` keys whose poses equal the
/// script's at every frame (SkelForm plays whole frames).
#[test]
fn skelform_handles_round_trip_as_bezier_easings() {
    use skelpad::formats::skf::convert::convert;
    use skelpad::formats::skf::export::ExportOptions;
    use skelpad::formats::skf::import::import_skf;
    use skelpad::formats::skf::pictures::RenderedPictures;
    use skelpad::formats::skf::write::{build, to_zip};
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("examples/curves.skel2d")).unwrap();
    let arm = skelpad::compile::compile(&text).armature;
    let mut pictures = RenderedPictures::new(&arm, &root.join("examples"));
    let progress = skelpad::formats::export::Progress::new();
    let export = build(&arm, &ExportOptions::default(), &mut pictures, &progress).unwrap();
    let imp = import_skf(&to_zip(&export).unwrap()).unwrap();
    let handles: Vec<CubicBezier> = imp.armature.animations[0]
        .bones
        .iter()
        .flat_map(|c| &c.keys)
        .filter_map(|k| match k.curve {
            Curve::Eased(Easing::Bezier(b)) if b.x1 != b.y1 || b.x2 != b.y2 => Some(b),
            _ => None,
        })
        .collect();
    // The script's curves, as the file's f32 handles hold them.
    for b in [
        CubicBezier::new(0.0, 0.0, 0.58, 1.0),
        CubicBezier::new(0.34, 1.56, 0.64, 1.0),
        CubicBezier::new(0.6, -0.3, 0.7, 1.0),
        CubicBezier::new(0.3, 0.0, 0.2, 1.0),
    ] {
        let f32s = |c: CubicBezier| c.to_array().map(|v| v as f32);
        assert!(handles.iter().any(|h| f32s(*h) == f32s(b)), "{b:?} not in {handles:?}");
    }
    let conv = convert(&imp, "sprites");
    assert!(conv.script.matches("bz(").count() >= 4, "{}", conv.script);
    let comp = skelpad::compile::compile(&conv.script);
    assert!(!comp.has_errors(), "{:?}\n{}", comp.diagnostics, conv.script);
    // Bone i of the script is bone i of the file, written under paths[i].
    let paths = skelpad::formats::skf::convert::bone_paths(&imp.armature.skeleton);
    let b = &comp.armature;
    let map = |i: usize| b.skeleton.bone_by_name(&paths[i]).expect("converted bone").index();
    let fps = arm.animations[0].fps;
    let frames = (arm.animations[0].duration_secs * fps).round() as usize;
    let mut worst: f64 = 0.0;
    for f in 0..=frames {
        let gap = world_gap_by(&arm, b, f as f64 / fps, &map);
        assert!(gap <= 1e-3, "frame {f}: the round trip is {gap} from the script");
        worst = worst.max(gap);
    }
    eprintln!("skf handles → bz: worst {worst:.2e} over {} frames", frames + 1);
}
