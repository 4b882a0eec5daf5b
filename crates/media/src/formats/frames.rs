//! Frames to files: one PNG, a numbered PNG sequence, a sprite sheet with
//! its JSON, a looping GIF. The pictures come from
//! [`crate::render::frames`]; this module only encodes and writes them.
//!
//! Frames are drawn (and encoded: PNG compression, GIF quantization) on
//! every thread of the current rayon pool, each thread with a renderer and
//! cache of its own over the same [`FrameSpec`], a few frames per thread at
//! a time (at most 256 MiB of pictures), so memory stays bounded;
//! they are written in order, so the files are the same bytes whatever the
//! number of threads.
//!
//! Every file is written atomically (a temporary file in the same folder,
//! renamed when complete), and a failed or cancelled export leaves none of
//! its files behind.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use image::RgbaImage;
use rayon::prelude::*;

use super::export::{ExportError, Progress, Stage};
use crate::render::frames::{FrameRenderer, FrameSpec};
use crate::render::{RenderCache, RenderWarning};
use skelpad_lang::io::AtomicFiles;

/// PNG bytes of an image (see [`crate::png::encode_png`]).
pub fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, ExportError> {
    crate::png::encode_png(img.width(), img.height(), img.as_raw()).map_err(ExportError::Encode)
}

/// The file of frame `index` of a sequence written to `out`:
/// `walk.png` → `walk_0007.png` (at least four digits, more if needed).
pub fn sequence_path(out: &Path, index: usize, count: usize) -> PathBuf {
    let digits = count.saturating_sub(1).to_string().len().max(4);
    let stem = out.file_stem().map_or_else(|| "frame".into(), |s| s.to_string_lossy().into_owned());
    let ext = out.extension().map_or_else(|| "png".into(), |e| e.to_string_lossy().into_owned());
    out.with_file_name(format!("{stem}_{index:0digits$}.{ext}"))
}

/// Frames drawn at once per thread: enough to keep every thread busy
/// between the in-order writes.
const FRAMES_PER_THREAD: usize = 4;

/// At most this many bytes of pictures wait to be written, per export (or,
/// for exports running side by side on the pool's threads, in all).
const PENDING_BYTES: usize = 256 << 20;

/// How many frames to draw between in-order writes: a few per thread,
/// fewer for large pictures, at least one.
fn batch_size(threads: usize, width: u32, height: u32) -> usize {
    let frame_bytes = (width as usize).saturating_mul(height as usize).saturating_mul(4).max(1);
    // Called from a pool thread: other exports (the other files of a batch)
    // may hold as many frames each.
    let sharing = if rayon::current_thread_index().is_some() { threads } else { 1 };
    (threads * FRAMES_PER_THREAD).min(PENDING_BYTES / frame_bytes / sharing).max(1)
}

/// Draws the frame at each of `times` with `renderer`'s spec on every
/// thread of the current pool, turns each into a `T` with `make` (on the
/// same thread), and hands them to `take` in order. Reports a
/// [`Stage::Frames`] step per frame; stops at the next frame once
/// cancelled. The renderer collects every frame's warnings.
pub fn each_frame<T: Send>(
    renderer: &mut FrameRenderer,
    times: &[f64],
    progress: &Progress,
    make: impl Fn(usize, RgbaImage) -> Result<T, ExportError> + Sync,
    mut take: impl FnMut(usize, T) -> Result<(), ExportError>,
) -> Result<(), ExportError> {
    progress.start(Stage::Frames, times.len());
    let threads = rayon::current_num_threads().max(1);
    let spec: FrameSpec = renderer.spec().clone();
    // One cache per thread of the pool, kept across batches so each keeps
    // its tessellations; a thread only ever locks its own.
    let caches: Vec<Mutex<RenderCache>> =
        (0..threads).map(|_| Mutex::new(renderer.fork_cache())).collect();
    let batch = batch_size(threads, spec.settings().width, spec.settings().height);
    for (b, chunk) in times.chunks(batch).enumerate() {
        progress.check()?;
        let first = b * batch;
        let drawn: Vec<Result<(T, Vec<RenderWarning>), ExportError>> = chunk
            .par_iter()
            .enumerate()
            .map(|(j, &t)| {
                progress.check()?;
                let slot = rayon::current_thread_index().unwrap_or(0) % threads;
                let mut cache = caches[slot]
                    .lock()
                    .map_err(|_| ExportError::Render("a drawing thread failed".into()))?;
                let mut r = spec.renderer(&mut cache);
                let img = r.frame(t).map_err(ExportError::Render)?;
                let warnings = r.take_warnings();
                drop(cache);
                let made = make(first + j, img)?;
                progress.step()?;
                Ok((made, warnings))
            })
            .collect();
        for (j, d) in drawn.into_iter().enumerate() {
            let (made, warnings) = d?;
            renderer.add_warnings(warnings);
            take(first + j, made)?;
        }
    }
    progress.check()
}

/// One PNG of the frame at `time_secs`. Cancelling is checked before the
/// frame is drawn and after (the last chance).
pub fn write_png(
    renderer: &mut FrameRenderer,
    time_secs: f64,
    out: &Path,
    progress: &Progress,
) -> Result<Vec<PathBuf>, ExportError> {
    progress.start(Stage::Frames, 1);
    progress.check()?;
    let img = renderer.frame(time_secs).map_err(ExportError::Render)?;
    let png = encode_png(&img)?;
    progress.step()?;
    progress.start(Stage::Writing, 1);
    let mut files = AtomicFiles::new();
    files.write(out, &png)?;
    Ok(files.commit()?)
}

/// A numbered PNG per time (see [`sequence_path`]).
pub fn write_sequence(
    renderer: &mut FrameRenderer,
    times: &[f64],
    out: &Path,
    progress: &Progress,
) -> Result<Vec<PathBuf>, ExportError> {
    let mut files = AtomicFiles::new();
    each_frame(
        renderer,
        times,
        progress,
        |_, img| encode_png(&img),
        |i, png| Ok(files.write(&sequence_path(out, i, times.len()), &png)?),
    )?;
    progress.start(Stage::Writing, 1);
    Ok(files.commit()?)
}

/// Columns and rows of a sprite sheet of `n` frames: as square as possible.
pub fn sheet_grid(n: usize) -> (u32, u32) {
    let n = n.max(1);
    let cols = (n as f64).sqrt().ceil() as usize;
    let rows = n.div_ceil(cols);
    (cols as u32, rows as u32)
}

/// A sprite sheet: the frames in a grid, left to right then top to bottom,
/// in one PNG at `out`, and a JSON file next to it (`out` with extension
/// `.json`) giving each frame's rectangle and time.
pub fn write_sheet(
    renderer: &mut FrameRenderer,
    times: &[f64],
    fps: f64,
    out: &Path,
    progress: &Progress,
) -> Result<Vec<PathBuf>, ExportError> {
    let (fw, fh) = (renderer.settings().width, renderer.settings().height);
    let (cols, rows) = sheet_grid(times.len());
    let (sw, sh) = (u64::from(cols) * u64::from(fw), u64::from(rows) * u64::from(fh));
    if sw > 32768 || sh > 32768 {
        return Err(ExportError::Settings(format!(
            "the sheet would be {sw}×{sh} pixels ({} frames of {fw}×{fh}); use a smaller --size or --frames",
            times.len()
        )));
    }
    let mut sheet = RgbaImage::new(sw as u32, sh as u32);
    let mut frames = Vec::new();
    each_frame(
        renderer,
        times,
        progress,
        |_, img| Ok(img),
        |i, img| {
            let (x, y) = ((i as u32 % cols) * fw, (i as u32 / cols) * fh);
            image::imageops::replace(&mut sheet, &img, i64::from(x), i64::from(y));
            frames.push(
                serde_json::json!({ "index": i, "time": times[i], "x": x, "y": y, "w": fw, "h": fh }),
            );
            Ok(())
        },
    )?;
    progress.start(Stage::Writing, 1);
    let spec = renderer.spec();
    let anim_name =
        spec.settings().anim.and_then(|a| spec.armature().animation(a)).map(|a| a.name.clone());
    let doc = serde_json::json!({
        "image": out.file_name().map(|n| n.to_string_lossy().into_owned()),
        "animation": anim_name,
        "fps": fps,
        "frame_width": fw,
        "frame_height": fh,
        "columns": cols,
        "rows": rows,
        "frames": frames,
    });
    let json = serde_json::to_vec_pretty(&doc)
        .map_err(|e| ExportError::Encode(format!("cannot encode JSON: {e}")))?;
    let mut files = AtomicFiles::new();
    files.write(out, &encode_png(&sheet)?)?;
    progress.check()?;
    files.write(&out.with_extension("json"), &json)?;
    Ok(files.commit()?)
}

/// Frame delays in hundredths of a second (GIF's unit) for `n` frames at
/// `fps` (an animation's, so a positive number), rounded so that the total
/// stays on the animation's clock.
pub fn gif_delays(n: usize, fps: f64) -> Vec<u16> {
    let at = |k: usize| (k as f64 * 100.0 / fps).round();
    (0..n).map(|k| (at(k + 1) - at(k)).clamp(1.0, f64::from(u16::MAX)) as u16).collect()
}

/// A GIF that loops forever at the animation's speed.
pub fn write_gif(
    renderer: &mut FrameRenderer,
    times: &[f64],
    fps: f64,
    out: &Path,
    progress: &Progress,
) -> Result<Vec<PathBuf>, ExportError> {
    let (w, h) = (renderer.settings().width, renderer.settings().height);
    let too_large =
        |side: &str| ExportError::Settings(format!("GIF pictures are at most 65535 pixels {side}"));
    let (gw, gh) = (
        u16::try_from(w).map_err(|_| too_large("wide"))?,
        u16::try_from(h).map_err(|_| too_large("high"))?,
    );
    let gif_error = |e: gif::EncodingError| ExportError::Encode(format!("cannot encode GIF: {e}"));
    let delays = gif_delays(times.len(), fps);
    let mut bytes = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut bytes, gw, gh, &[]).map_err(gif_error)?;
        enc.set_repeat(gif::Repeat::Infinite).map_err(gif_error)?;
        each_frame(
            renderer,
            times,
            progress,
            |i, mut img| {
                // GIF transparency is all or nothing.
                for px in img.pixels_mut() {
                    if px[3] < 128 {
                        *px = image::Rgba([0, 0, 0, 0]);
                    }
                }
                // Quantizing is the slow part: done here, on the frame's thread.
                let mut frame = gif::Frame::from_rgba_speed(gw, gh, img.as_mut(), 10);
                frame.delay = delays[i];
                // Each frame replaces the last (matters with a transparent background).
                frame.dispose = gif::DisposalMethod::Background;
                Ok(frame)
            },
            |_, frame| enc.write_frame(&frame).map_err(gif_error),
        )?;
    }
    progress.start(Stage::Writing, 1);
    let mut files = AtomicFiles::new();
    files.write(out, &bytes)?;
    Ok(files.commit()?)
}

#[cfg(test)]
mod tests;
