//! Batch work on every core (issue 34 §3): 64 generated scripts rendered
//! (each animation as a PNG sequence, frames drawn on every thread) and
//! exported to `.skf`, in a rayon pool of one thread against the default
//! pool (every core), the files too shared out among the threads, as
//! `skelpad render --frames` and `skelpad export` do with many files. Run
//! with `cargo bench --bench batch`; figures in BENCHMARKS.md ("Batch").

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use divan::Bencher;
use rayon::prelude::*;
use skelpad::compile::compile;
use skelpad::formats::export::Progress;
use skelpad::formats::frames;
use skelpad::formats::skf::{export::ExportOptions, pictures::RenderedPictures, write};
use skelpad::generate;
use skelpad::model::{AnimId, Armature, SkinId};
use skelpad::render::RenderCache;
use skelpad::render::frames::{FrameRenderer, Framing, Settings};

skelpad::global_allocator!();

fn main() {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    divan::main();
}

const FILES: usize = 64;

/// 64 different rigs (12 to 75 bones, one animation each), compiled.
fn rigs() -> Vec<Armature> {
    (0..FILES).map(|i| compile(&generate::script(12 + i, 1)).armature).collect()
}

/// A pool of `threads` threads; 0: rayon's default (one per core).
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool")
}

/// `skelpad render FILE --frames --size 128x128` for every rig.
fn render_all(rigs: &[Armature], dir: &std::path::Path) -> usize {
    rigs.par_iter()
        .enumerate()
        .map(|(i, arm)| {
            let settings = Settings {
                anim: Some(AnimId(0)),
                skin: SkinId(0),
                width: 128,
                height: 128,
                framing: Framing::Fit,
                background: None,
                bones: false,
            };
            let mut cache = RenderCache::new(dir);
            let mut r = FrameRenderer::new(arm, settings, &mut cache).expect("renderer");
            let times = arm.animations[0].frame_times();
            let out = dir.join(format!("rig{i}.png"));
            frames::write_sequence(&mut r, &times, &out, &Progress::new()).expect("written").len()
        })
        .sum()
}

/// `skelpad export FILE -o FILE.skf` for every rig.
fn export_all(rigs: &[Armature], dir: &std::path::Path) -> usize {
    rigs.par_iter()
        .enumerate()
        .map(|(i, arm)| {
            let mut pictures = RenderedPictures::new(arm, dir);
            let out = dir.join(format!("rig{i}.skf"));
            let opts = ExportOptions::default();
            write::export_file(arm, &opts, &mut pictures, &out, &Progress::new())
                .expect("exported")
                .len()
        })
        .sum()
}

/// Render 64 files, one thread (1) against every core (0).
#[divan::bench(args = [1, 0], sample_count = 3, sample_size = 1)]
fn render_64_files(bencher: Bencher, threads: usize) {
    let rigs = rigs();
    let dir = tempfile::tempdir().expect("temp dir");
    let pool = pool(threads);
    bencher.bench_local(|| pool.install(|| render_all(&rigs, dir.path())));
}

/// Export 64 files to `.skf`, one thread (1) against every core (0).
#[divan::bench(args = [1, 0], sample_count = 3, sample_size = 1)]
fn export_64_files(bencher: Bencher, threads: usize) {
    let rigs = rigs();
    let dir = tempfile::tempdir().expect("temp dir");
    let pool = pool(threads);
    bencher.bench_local(|| pool.install(|| export_all(&rigs, dir.path())));
}
