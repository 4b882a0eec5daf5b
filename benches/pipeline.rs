//! Parse, compile, evaluate and live-edit benchmarks on generated rigs.
//! Run with `cargo bench`; figures are recorded in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use divan::Bencher;
use skelpad::compile::{Compiler, compile};
use skelpad::generate;
use skelpad::model::{AnimId, Armature, SkinId};
use skelpad::runtime::{Pose, evaluate_into};

// Measured with the allocator the skelpad binary uses.
skelpad::global_allocator!();

fn main() {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    divan::main();
}

/// Full parse + compile of a generated script (10 animations).
#[divan::bench(args = [10, 100, 1000, 5000], sample_count = 20)]
fn parse_and_compile(bencher: Bencher, bones: usize) {
    let text = generate::script(bones, 10);
    bencher.bench(|| compile(divan::black_box(&text)));
}

/// One pose of every bone, at a new time on every call (the playhead walks
/// through the animation at 1/60 s, as playback does).
#[divan::bench(args = [10, 100, 1000, 5000])]
fn evaluate_pose(bencher: Bencher, bones: usize) {
    let text = generate::script(bones, 10);
    let comp = compile(&text);
    walk_first_animation(bencher, &comp.armature);
}

/// Poses the first animation at a new time each iteration (1/60 s apart, looping).
fn walk_first_animation(bencher: Bencher, arm: &Armature) {
    let anim = arm.animation(AnimId(0)).cloned();
    let duration = anim.as_ref().map_or(1.0, |a| a.duration_secs.max(1e-3));
    let mut pose = Pose::default();
    let mut t = 0.0f64;
    bencher.bench_local(|| {
        t = (t + 1.0 / 60.0) % duration;
        evaluate_into(&mut pose, arm, anim.as_ref(), SkinId(0), divan::black_box(t));
        divan::black_box(&pose);
    });
}

/// The same pose asked again and again at one time: the floor that the
/// sine/cosine cache reaches when nothing moves (a paused playhead).
#[divan::bench(args = [1000])]
fn evaluate_pose_same_time(bencher: Bencher, bones: usize) {
    let arm = compile(&generate::script(bones, 10)).armature;
    let anim = arm.animation(AnimId(0)).cloned();
    let mut pose = Pose::default();
    bencher.bench_local(|| {
        evaluate_into(&mut pose, &arm, anim.as_ref(), SkinId(0), divan::black_box(0.37));
        divan::black_box(&pose);
    });
}

/// Live editing: one character typed inside one animation section of the
/// 1000-bone script, then re-parse, recompile (incrementally) and evaluate.
#[divan::bench(sample_count = 200)]
fn edit_one_char_in_animation(bencher: Bencher) {
    let base = generate::script(1000, 10);
    // A numeric literal inside the fifth animation.
    let anim_at = base.match_indices("anim \"").nth(4).map(|(i, _)| i).unwrap_or(0);
    let edit_at = anim_at + base[anim_at..].find("\t\tr 0").unwrap_or(0) + 4;
    let variants = [base.clone(), format!("{}1{}", &base[..edit_at], &base[edit_at..])];
    let mut compiler = Compiler::new();
    compiler.update(&variants[0]);
    let mut pose = Pose::default();
    let mut flip = 0usize;
    bencher.bench_local(|| {
        flip ^= 1;
        let comp = compiler.update(&variants[flip]);
        evaluate_into(
            &mut pose,
            &comp.armature,
            comp.armature.animations.get(4).map(|a| &**a),
            SkinId(0),
            0.5,
        );
        divan::black_box(&pose);
    });
}

/// The pieces of an incremental update of the 1000-bone script that run
/// whatever changed: splitting into sections and indexing lines.
#[divan::bench]
fn split_sections_1000(bencher: Bencher) {
    let text = generate::script(1000, 10);
    bencher.bench(|| skelpad::syntax::split_sections(divan::black_box(&text)));
}

#[divan::bench]
fn line_index_1000(bencher: Bencher) {
    let text = generate::script(1000, 10);
    bencher.bench(|| skelpad::syntax::LineIndex::new(divan::black_box(&text)));
}

/// Parsing alone (no compile) of the 1000-bone script.
#[divan::bench]
fn parse_only_1000(bencher: Bencher) {
    let text = generate::script(1000, 10);
    bencher.bench(|| skelpad::syntax::parse_document(divan::black_box(&text)));
}

/// SkelForm export of the generated 1000-bone rig (one shape per bone, 10
/// animations): bones, helper bones, styles and every keyframe, fitted or
/// baked and checked against skelpad's runtime frame by frame; no pictures
/// (the next benchmark includes them).
#[divan::bench(sample_count = 10)]
fn skf_export_plan_1000_bones(bencher: Bencher) {
    use skelpad::formats::skf::export::{ExportOptions, plan};
    let arm = compile(&generate::script(1000, 10)).armature;
    let opts = ExportOptions::default();
    bencher.bench(|| plan(divan::black_box(&arm), &opts));
}

/// The whole SkelForm export of the generated 1000-bone rig (one shape per
/// bone, 10 animations): planning, every shape rasterized by the renderer,
/// atlas packing, PNG encoding and the zip, in memory.
#[divan::bench(sample_count = 10)]
fn skf_export_1000_bones(bencher: Bencher) {
    use skelpad::formats::skf::export::ExportOptions;
    use skelpad::formats::skf::pictures::RenderedPictures;
    use skelpad::formats::skf::write::{build, to_zip};
    let arm = compile(&generate::script(1000, 10)).armature;
    let opts = ExportOptions::default();
    bencher.bench(|| {
        let mut pictures = RenderedPictures::new(&arm, std::path::Path::new("."));
        let export = build(
            divan::black_box(&arm),
            &opts,
            &mut pictures,
            &skelpad::formats::export::Progress::new(),
        )
        .expect("export");
        to_zip(&export).expect("zip")
    });
}

/// One pose of `examples/ik_walk.skel2d` (2 two-segment leg chains, 16
/// bones) with its `ik` section and without it: the cost of solving and
/// applying IK in the language's composition.
#[divan::bench(args = ["with ik", "without ik"])]
fn evaluate_pose_ik_walk(bencher: Bencher, which: &str) {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ik_walk.skel2d"))
            .unwrap();
    let text = if which == "with ik" {
        text
    } else {
        text.replace("ik\n\tankle-l to foot-l up 2 cw\n\tankle-r to foot-r up 2 cw\n", "")
    };
    let arm = compile(&text).armature;
    assert_eq!(arm.skeleton.ik.len(), if which == "with ik" { 2 } else { 0 });
    walk_first_animation(bencher, &arm);
}
