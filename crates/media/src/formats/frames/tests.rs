use super::*;
use crate::render::frames::{Framing, Settings};
use skelpad_lang::model::{AnimId, Armature, SkinId};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A script whose frames all differ: paths whose points follow several
/// bones (tessellated again as they bend), strokes, fills, delays.
const SCRIPT: &str = include_str!("../../../../../examples/tentacle.skel2d");

fn armature() -> Armature {
    let comp = skelpad_lang::compile::compile(SCRIPT);
    assert!(!comp.has_errors(), "{:?}", comp.diagnostics);
    comp.armature
}

fn settings() -> Settings {
    Settings {
        anim: Some(AnimId(0)),
        skin: SkinId(0),
        width: 40,
        height: 32,
        framing: Framing::Fit,
        background: None,
        bones: true,
    }
}

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool")
}

/// Every file of a folder, by name, with its bytes.
fn files_in(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| {
            let p = e.expect("entry").path();
            (
                p.file_name().expect("name").to_string_lossy().into_owned(),
                std::fs::read(&p).expect("read"),
            )
        })
        .collect();
    v.sort();
    v
}

/// Writes a sequence, a sheet and a GIF with a pool of `threads` into a
/// new folder; returns the folder.
fn export_all(arm: &Armature, times: &[f64], threads: usize) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    pool(threads).install(|| {
        let mut cache = RenderCache::new(dir);
        let mut r = FrameRenderer::new(arm, settings(), &mut cache).expect("renderer");
        let p = Progress::new();
        write_sequence(&mut r, times, &dir.join("f.png"), &p).expect("sequence");
        write_sheet(&mut r, times, 20.0, &dir.join("sheet.png"), &p).expect("sheet");
        write_gif(&mut r, times, 20.0, &dir.join("a.gif"), &p).expect("gif");
        assert_eq!(p.stage(), Stage::Writing);
    });
    tmp
}

#[test]
fn frames_drawn_on_many_threads_are_the_one_thread_bytes_in_order() {
    let arm = armature();
    let times: Vec<f64> = arm.animations[0].frame_times();
    assert!(times.len() > 30, "more frames than a batch of a four-thread pool");
    let one = export_all(&arm, &times, 1);
    let four = export_all(&arm, &times, 4);
    let (a, b) = (files_in(one.path()), files_in(four.path()));
    assert_eq!(a.len(), times.len() + 3, "a PNG per frame, the sheet, its JSON, the GIF");
    assert_eq!(
        a.iter().map(|f| &f.0).collect::<Vec<_>>(),
        b.iter().map(|f| &f.0).collect::<Vec<_>>()
    );
    for (x, y) in a.iter().zip(&b) {
        assert!(x.1 == y.1, "{} differs between one thread and four", x.0);
    }
    // In order: frame i's file is what one renderer draws at times[i],
    // independently of the writer, and consecutive frames differ.
    let mut cache = RenderCache::new(one.path());
    let mut r = FrameRenderer::new(&arm, settings(), &mut cache).expect("renderer");
    let mut last = Vec::new();
    for (i, &t) in times.iter().enumerate() {
        let name = sequence_path(Path::new("f.png"), i, times.len());
        let file = std::fs::read(one.path().join(name)).expect("frame file");
        let decoded = image::load_from_memory(&file).expect("png").to_rgba8();
        let drawn = r.frame(t).expect("frame");
        assert!(decoded == drawn, "frame {i} is the picture at {t} s");
        assert!(drawn.as_raw() != &last, "frame {i} moved");
        last = drawn.into_raw();
    }
}

#[test]
fn a_cancelled_export_stops_and_writes_nothing() {
    let arm = armature();
    let times: Vec<f64> = (0..40).map(|i| f64::from(i) * 0.05).collect();
    for threads in [1, 4] {
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path();
        pool(threads).install(|| {
            let mut cache = RenderCache::new(dir);
            let mut r = FrameRenderer::new(&arm, settings(), &mut cache).expect("renderer");
            let drawn = Arc::new(AtomicUsize::new(0));
            let seen = drawn.clone();
            let stop_at_three = Progress::with_sink(move |stage, done, _| {
                if stage == Stage::Frames {
                    seen.fetch_max(done, Ordering::Relaxed);
                }
                done < 3
            });
            let gif = write_gif(&mut r, &times, 20.0, &dir.join("a.gif"), &stop_at_three);
            assert_eq!(gif, Err(ExportError::Cancelled));
            let n = drawn.load(Ordering::Relaxed);
            assert!(n >= 3 && n < 3 + threads * 2, "{threads} thread(s): {n} frames drawn");
            if threads == 1 {
                assert_eq!(n, 3, "no frame is drawn after the cancel");
            }
            let p = Progress::with_sink(|_, done, _| done < 5);
            let seq = write_sequence(&mut r, &times, &dir.join("f.png"), &p);
            assert_eq!(seq, Err(ExportError::Cancelled));
            let p = Progress::with_sink(|_, done, _| done < 7);
            let sheet = write_sheet(&mut r, &times, 20.0, &dir.join("s.png"), &p);
            assert_eq!(sheet, Err(ExportError::Cancelled));
            let p = Progress::with_sink(|_, done, _| done < 1);
            let png = write_png(&mut r, 0.1, &dir.join("one.png"), &p);
            assert_eq!(png, Err(ExportError::Cancelled), "cancelled after it is drawn");
            let p = Progress::new();
            p.cancel();
            let png = write_png(&mut r, 0.1, &dir.join("one.png"), &p);
            assert_eq!(png, Err(ExportError::Cancelled), "… and before");
            assert_eq!(p.get(), (0, 1), "nothing drawn");
        });
        assert_eq!(
            std::fs::read_dir(dir).expect("dir").count(),
            0,
            "a cancelled export leaves no file ({threads} threads)"
        );
    }
}

#[test]
fn warnings_of_every_thread_reach_the_renderer_once() {
    let comp = skelpad_lang::compile::compile(
        "skeleton\n\tb\n\t\t@ :sprite \"missing.png\"\nanim \"a\"\n\tb\n\t\tx 0 -> 10\n",
    );
    let tmp = tempfile::tempdir().expect("temp dir");
    let times: Vec<f64> = comp.armature.animations[0].frame_times();
    pool(4).install(|| {
        let mut cache = RenderCache::new(tmp.path());
        let mut r = FrameRenderer::new(&comp.armature, settings(), &mut cache).expect("renderer");
        write_sequence(&mut r, &times, &tmp.path().join("f.png"), &Progress::new()).expect("seq");
        assert_eq!(r.warnings().len(), 1, "{:?}", r.warnings());
        assert!(r.warnings()[0].message.contains("missing.png"), "{:?}", r.warnings());
    });
}

#[test]
fn a_failed_write_is_a_typed_io_error_naming_the_file() {
    let comp = skelpad_lang::compile::compile("skeleton\n\tb\n\t\t@ :rect w10 h10\n");
    let tmp = tempfile::tempdir().expect("temp dir");
    let settings = Settings { anim: None, width: 8, height: 8, bones: false, ..settings() };
    let mut cache = RenderCache::new(tmp.path());
    let mut renderer = FrameRenderer::new(&comp.armature, settings, &mut cache).expect("renderer");
    let out = tmp.path().join("missing/one.png");
    match write_png(&mut renderer, 0.0, &out, &Progress::new()) {
        Err(ExportError::Io(e)) => assert_eq!(e.path, out),
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read_dir(tmp.path()).expect("dir").count(), 0);
}

#[test]
fn sequence_names_are_numbered_with_enough_digits() {
    assert_eq!(sequence_path(Path::new("out/walk.png"), 7, 20), PathBuf::from("out/walk_0007.png"));
    assert_eq!(sequence_path(Path::new("walk.png"), 12345, 20000), PathBuf::from("walk_12345.png"));
}

#[test]
fn gif_delays_keep_the_animation_clock() {
    let d = gif_delays(30, 30.0);
    assert_eq!(d.iter().map(|&x| u32::from(x)).sum::<u32>(), 100, "30 frames at 30 fps: 1 s");
    assert!(d.iter().all(|&x| x == 3 || x == 4));
    assert_eq!(gif_delays(4, 20.0), vec![5, 5, 5, 5]);
}

#[test]
fn sheet_grid_is_nearly_square() {
    assert_eq!(sheet_grid(1), (1, 1));
    assert_eq!(sheet_grid(20), (5, 4));
    assert_eq!(sheet_grid(16), (4, 4));
}

#[test]
fn batches_keep_every_thread_busy_within_the_memory_budget() {
    assert_eq!(batch_size(4, 64, 64), 16, "small pictures: four per thread");
    assert_eq!(batch_size(4, 8192, 8192), 1, "256 MiB pictures: one at a time");
    assert_eq!(batch_size(8, 4096, 4096), 4, "64 MiB pictures: four fit");
    // Inside a pool (the files of a batch side by side) the budget is shared.
    assert_eq!(pool(4).install(|| batch_size(4, 4096, 4096)), 1);
    assert_eq!(pool(2).install(|| batch_size(2, 512, 512)), 8);
}
