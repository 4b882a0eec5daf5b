//! Drawing benchmarks on the generated 1000-bone rig (one shape per bone):
//! building and tessellating a frame's draw list, cold and cached, and
//! rasterizing a 512×512 PNG. Run with `cargo bench --bench render`;
//! figures are recorded in BENCHMARKS.md ("Drawing").

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use divan::Bencher;
use skelpad::compile::compile;
use skelpad::formats::frames;
use skelpad::generate;
use skelpad::model::{AnimId, Armature, SkinId};
use skelpad::render::{self, DrawOptions, RenderCache, View};
use skelpad::runtime::{Pose, evaluate_into, wrap_time};

// Measured with the allocator the skelpad binary uses.
skelpad::global_allocator!();

fn main() {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    divan::main();
}

const SIZE: u32 = 512;

/// The rig, a pose inside its first animation, and the view a 512×512
/// picture of the whole animation uses.
fn setup() -> (Armature, Pose, View) {
    let arm = compile(&generate::script(1000, 10)).armature;
    let mut pose = Pose::default();
    evaluate_into(&mut pose, &arm, arm.animation(AnimId(0)), SkinId(0), 0.37);
    let mut cache = RenderCache::new(".");
    let bounds = render::animation_bounds(
        &arm,
        Some(AnimId(0)),
        SkinId(0),
        &DrawOptions::default(),
        &mut cache,
    )
    .expect("draws");
    let view = View::fit(bounds, SIZE, SIZE, 20.0);
    (arm, pose, view)
}

/// Build + tessellate one frame with nothing cached (the canvas's options:
/// no outline loops).
#[divan::bench(sample_count = 50)]
fn draw_list_cold_1000(bencher: Bencher) {
    let (arm, pose, view) = setup();
    let options = DrawOptions {
        pixels_per_unit: view.pixels_per_unit,
        bones: false,
        ..DrawOptions::default()
    };
    bencher
        .with_inputs(|| RenderCache::new("."))
        .bench_local_refs(|cache| render::build_draw_list(&arm, &pose, &options, cache));
}

/// The same, with outline loops for the CPU back end.
#[divan::bench(sample_count = 50)]
fn draw_list_cold_with_contours_1000(bencher: Bencher) {
    let (arm, pose, view) = setup();
    let options =
        DrawOptions { pixels_per_unit: view.pixels_per_unit, bones: false, contours: true };
    bencher
        .with_inputs(|| RenderCache::new("."))
        .bench_local_refs(|cache| render::build_draw_list(&arm, &pose, &options, cache));
}

/// Playback: each iteration is a new frame of the animation (bones moved;
/// attachments unchanged), evaluated and built with a warm cache into a
/// reused list, as the editor's canvas does. Shapes on bones whose
/// transform is not a similarity (non-uniform scale inherited from animated
/// `i`/`j`) have their strokes stroked again.
#[divan::bench(sample_count = 200)]
fn draw_list_next_frame_1000(bencher: Bencher) {
    let (arm, mut pose, view) = setup();
    let options = DrawOptions {
        pixels_per_unit: view.pixels_per_unit,
        bones: false,
        ..DrawOptions::default()
    };
    let anim = arm.animation(AnimId(0)).cloned();
    let mut cache = RenderCache::new(".");
    let mut list = render::DrawList::default();
    let mut t = 0.0;
    // Warm up over one loop of the animation.
    for _ in 0..100 {
        t += 0.0137;
        let a = anim.as_ref().expect("animation");
        evaluate_into(&mut pose, &arm, Some(a), SkinId(0), wrap_time(a, t, true));
        render::build_draw_list_into(&mut list, &arm, &pose, &options, &mut cache);
    }
    bencher.bench_local(|| {
        // A step that never lands on an earlier time: every frame is new.
        t += 0.0137;
        let a = anim.as_ref().expect("animation");
        evaluate_into(&mut pose, &arm, Some(a), SkinId(0), wrap_time(a, t, true));
        render::build_draw_list_into(&mut list, &arm, &pose, &options, &mut cache);
        list.items.len()
    });
}

/// The same frame again (nothing moved): the floor of a cached build.
#[divan::bench(sample_count = 200)]
fn draw_list_same_frame_1000(bencher: Bencher) {
    let (arm, pose, view) = setup();
    let options = DrawOptions {
        pixels_per_unit: view.pixels_per_unit,
        bones: false,
        ..DrawOptions::default()
    };
    let mut cache = RenderCache::new(".");
    let mut list = render::DrawList::default();
    render::build_draw_list_into(&mut list, &arm, &pose, &options, &mut cache);
    bencher.bench_local(|| {
        render::build_draw_list_into(&mut list, &arm, &pose, &options, &mut cache);
        list.items.len()
    });
}

/// Rasterizing the frame's draw list (with outline loops, as exports build
/// it) into a 512×512 picture.
#[divan::bench(sample_count = 50)]
fn rasterize_512_1000(bencher: Bencher) {
    let (arm, pose, view) = setup();
    let options =
        DrawOptions { pixels_per_unit: view.pixels_per_unit, bones: false, contours: true };
    let list = render::build_draw_list(&arm, &pose, &options, &mut RenderCache::new("."));
    bencher.bench_local(|| render::cpu::render(&list, &view, SIZE, SIZE, None));
}

/// A whole 512×512 PNG frame as `skelpad render` makes it: build the draw
/// list with outline loops (warm cache), rasterize, encode the PNG.
#[divan::bench(sample_count = 50)]
fn png_frame_512_1000(bencher: Bencher) {
    let (arm, pose, view) = setup();
    let options =
        DrawOptions { pixels_per_unit: view.pixels_per_unit, bones: false, contours: true };
    let mut cache = RenderCache::new(".");
    let mut list = render::DrawList::default();
    render::build_draw_list_into(&mut list, &arm, &pose, &options, &mut cache);
    bencher.bench_local(|| {
        render::build_draw_list_into(&mut list, &arm, &pose, &options, &mut cache);
        let img = render::cpu::render_rgba(&list, &view, SIZE, SIZE, None).expect("renders");
        frames::encode_png(&img).expect("encodes")
    });
}

/// The editor's path: the frame's draw list as epaint meshes.
#[divan::bench(sample_count = 100)]
fn to_epaint_1000(bencher: Bencher) {
    let (arm, pose, view) = setup();
    let options = DrawOptions {
        pixels_per_unit: view.pixels_per_unit,
        bones: true,
        ..DrawOptions::default()
    };
    let list = render::build_draw_list(&arm, &pose, &options, &mut RenderCache::new("."));
    bencher.bench_local(|| {
        render::egui::to_epaint(&list, &view, &mut |_| epaint::TextureId::default())
    });
}
