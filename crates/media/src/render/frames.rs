//! Pictures to files: one PNG, a numbered PNG sequence, a sprite sheet with
//! its JSON, a looping GIF. Every file is written atomically (a temporary
//! file in the same folder, renamed when complete), and a failed export
//! leaves none of its files behind.

use std::path::{Path, PathBuf};

use image::RgbaImage;

use super::{
    Bounds, DrawList, DrawOptions, ORIGIN_MARK_PX, RenderCache, RenderWarning, Rgba, View,
    animation_bounds, build_draw_list_into, cpu,
};
use crate::io::{AtomicFiles, IoError};
use crate::model::{AnimId, Armature, SkinId};
use crate::runtime::{Pose, evaluate_into};

/// How the skeleton is placed in the picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Framing {
    /// Scale and center so that everything the animation draws at any of
    /// its frames fits (the setup pose without an animation).
    Fit,
    /// The skeleton origin at the center, y up, `Z` pixels per unit: the
    /// editor's canvas at zoom `Z`.
    Zoom(f64),
}

/// What to render.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// `None`: the setup pose.
    pub anim: Option<AnimId>,
    /// The skin shown.
    pub skin: SkinId,
    /// Picture width in pixels (1 to 16384).
    pub width: u32,
    /// Picture height in pixels (1 to 16384).
    pub height: u32,
    /// How the skeleton is placed in the picture.
    pub framing: Framing,
    /// `None`: transparent.
    pub background: Option<Rgba>,
    /// Draw the bone overlay.
    pub bones: bool,
}

/// Renders frames of one armature with fixed settings; the view is decided
/// once (for `Fit`, from the bounds of the whole animation).
pub struct FrameRenderer<'a> {
    armature: &'a Armature,
    settings: Settings,
    view: View,
    options: DrawOptions,
    cache: &'a mut RenderCache,
    pose: Pose,
    list: DrawList,
    warnings: Vec<RenderWarning>,
}

/// Margin kept around fitted content, in pixels.
fn fit_margin(width: u32, height: u32) -> f64 {
    (f64::from(width.min(height)) * 0.04).max(2.0)
}

impl<'a> FrameRenderer<'a> {
    /// A renderer for `settings`, or why the settings cannot make a picture
    /// (size out of range, zoom not a positive number).
    pub fn new(
        armature: &'a Armature,
        settings: Settings,
        cache: &'a mut RenderCache,
    ) -> Result<FrameRenderer<'a>, String> {
        let (w, h) = (settings.width, settings.height);
        if w == 0 || h == 0 || w > 16384 || h > 16384 {
            return Err(format!(
                "picture size {w}×{h} is out of range (1 to 16384 pixels per side)"
            ));
        }
        let view = match settings.framing {
            Framing::Zoom(z) if z.is_finite() && z > 0.0 => View::centered(w, h, z),
            Framing::Zoom(z) => return Err(format!("zoom must be a positive number, not {z}")),
            Framing::Fit => {
                let fit = |b: Option<Bounds>, margin: f64| {
                    b.map_or(View::centered(w, h, 1.0), |b| View::fit(b, w, h, margin))
                };
                let shapes =
                    DrawOptions { pixels_per_unit: 1.0, bones: false, ..DrawOptions::default() };
                let rough = fit(
                    animation_bounds(armature, settings.anim, settings.skin, &shapes, cache),
                    fit_margin(w, h),
                );
                if settings.bones {
                    // Origin marks have a size in pixels: measure again at
                    // the scale found, with the overlay.
                    let with_bones = DrawOptions {
                        pixels_per_unit: rough.pixels_per_unit,
                        bones: true,
                        ..DrawOptions::default()
                    };
                    let b = animation_bounds(
                        armature,
                        settings.anim,
                        settings.skin,
                        &with_bones,
                        cache,
                    );
                    fit(b, fit_margin(w, h) + ORIGIN_MARK_PX)
                } else {
                    rough
                }
            }
        };
        let options = DrawOptions {
            pixels_per_unit: view.pixels_per_unit,
            bones: settings.bones,
            contours: true,
        };
        Ok(FrameRenderer {
            armature,
            settings,
            view,
            options,
            cache,
            pose: Pose::default(),
            list: DrawList::default(),
            warnings: Vec::new(),
        })
    }

    /// The view every frame is drawn with.
    pub fn view(&self) -> View {
        self.view
    }

    /// The settings it was made with.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Everything that could not be drawn so far, once each.
    pub fn warnings(&self) -> &[RenderWarning] {
        &self.warnings
    }

    /// The picture at `time_secs` (used as given; wrap it for loops).
    pub fn frame(&mut self, time_secs: f64) -> Result<RgbaImage, String> {
        let anim = self.settings.anim.and_then(|a| self.armature.animation(a));
        evaluate_into(&mut self.pose, self.armature, anim, self.settings.skin, time_secs);
        build_draw_list_into(&mut self.list, self.armature, &self.pose, &self.options, self.cache);
        for w in self.list.warnings.drain(..) {
            if !self.warnings.contains(&w) {
                self.warnings.push(w);
            }
        }
        cpu::render_rgba(
            &self.list,
            &self.view,
            self.settings.width,
            self.settings.height,
            self.settings.background,
        )
    }
}

/// Why an export wrote nothing.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportError {
    /// The settings cannot make a picture (size out of range, bad zoom, a
    /// sheet or GIF too large).
    Settings(String),
    /// A frame could not be drawn.
    Render(String),
    /// A picture or file could not be encoded (PNG, GIF, JSON).
    Encode(String),
    /// A file could not be written.
    Io(IoError),
    /// The progress callback asked to stop.
    Cancelled,
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Settings(m) | ExportError::Render(m) | ExportError::Encode(m) => {
                f.write_str(m)
            }
            ExportError::Io(e) => e.fmt(f),
            ExportError::Cancelled => f.write_str("the export was cancelled; nothing was written"),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<IoError> for ExportError {
    fn from(e: IoError) -> Self {
        ExportError::Io(e)
    }
}

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

/// Reports progress: `(steps done, steps in all)`, a step being a frame.
/// Returning `false` cancels the export: nothing is written and the writer
/// returns [`ExportError::Cancelled`].
pub type Progress<'p> = &'p mut dyn FnMut(usize, usize) -> bool;

fn report(
    progress: &mut dyn FnMut(usize, usize) -> bool,
    done: usize,
    total: usize,
) -> Result<(), ExportError> {
    if progress(done, total) { Ok(()) } else { Err(ExportError::Cancelled) }
}

/// One PNG of the frame at `time_secs`. Progress is one step: reported
/// before the frame is drawn and after (the last chance to cancel).
pub fn write_png(
    renderer: &mut FrameRenderer,
    time_secs: f64,
    out: &Path,
    progress: Progress,
) -> Result<Vec<PathBuf>, ExportError> {
    report(progress, 0, 1)?;
    let img = renderer.frame(time_secs).map_err(ExportError::Render)?;
    let png = encode_png(&img)?;
    report(progress, 1, 1)?;
    let mut files = AtomicFiles::new();
    files.write(out, &png)?;
    Ok(files.commit()?)
}

/// A numbered PNG per time (see [`sequence_path`]).
pub fn write_sequence(
    renderer: &mut FrameRenderer,
    times: &[f64],
    out: &Path,
    progress: Progress,
) -> Result<Vec<PathBuf>, ExportError> {
    let mut files = AtomicFiles::new();
    for (i, &t) in times.iter().enumerate() {
        let img = renderer.frame(t).map_err(ExportError::Render)?;
        files.write(&sequence_path(out, i, times.len()), &encode_png(&img)?)?;
        report(progress, i + 1, times.len())?;
    }
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
    progress: Progress,
) -> Result<Vec<PathBuf>, ExportError> {
    let (fw, fh) = (renderer.settings.width, renderer.settings.height);
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
    for (i, &t) in times.iter().enumerate() {
        let img = renderer.frame(t).map_err(ExportError::Render)?;
        let (x, y) = ((i as u32 % cols) * fw, (i as u32 / cols) * fh);
        image::imageops::replace(&mut sheet, &img, i64::from(x), i64::from(y));
        frames.push(serde_json::json!({ "index": i, "time": t, "x": x, "y": y, "w": fw, "h": fh }));
        report(progress, i + 1, times.len())?;
    }
    let json_path = out.with_extension("json");
    let anim_name =
        renderer.settings.anim.and_then(|a| renderer.armature.animation(a)).map(|a| a.name.clone());
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
    files.write(&json_path, &json)?;
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
    progress: Progress,
) -> Result<Vec<PathBuf>, ExportError> {
    let (w, h) = (renderer.settings.width, renderer.settings.height);
    let too_large =
        |side: &str| ExportError::Settings(format!("GIF pictures are at most 65535 pixels {side}"));
    let (gw, gh) = (
        u16::try_from(w).map_err(|_| too_large("wide"))?,
        u16::try_from(h).map_err(|_| too_large("high"))?,
    );
    let gif_error = |e: gif::EncodingError| ExportError::Encode(format!("cannot encode GIF: {e}"));
    let mut bytes = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut bytes, gw, gh, &[]).map_err(gif_error)?;
        enc.set_repeat(gif::Repeat::Infinite).map_err(gif_error)?;
        let delays = gif_delays(times.len(), fps);
        for (i, &t) in times.iter().enumerate() {
            let mut img = renderer.frame(t).map_err(ExportError::Render)?;
            // GIF transparency is all or nothing.
            for px in img.pixels_mut() {
                if px[3] < 128 {
                    *px = image::Rgba([0, 0, 0, 0]);
                }
            }
            let mut frame = gif::Frame::from_rgba_speed(gw, gh, img.as_mut(), 10);
            frame.delay = delays[i];
            // Each frame replaces the last (matters with a transparent background).
            frame.dispose = gif::DisposalMethod::Background;
            enc.write_frame(&frame).map_err(gif_error)?;
            report(progress, i + 1, times.len())?;
        }
    }
    let mut files = AtomicFiles::new();
    files.write(out, &bytes)?;
    Ok(files.commit()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_names_are_numbered_with_enough_digits() {
        assert_eq!(
            sequence_path(Path::new("out/walk.png"), 7, 20),
            PathBuf::from("out/walk_0007.png")
        );
        assert_eq!(
            sequence_path(Path::new("walk.png"), 12345, 20000),
            PathBuf::from("walk_12345.png")
        );
    }

    #[test]
    fn gif_delays_keep_the_animation_clock() {
        let d = gif_delays(30, 30.0);
        assert_eq!(
            d.iter().map(|&x| u32::from(x)).sum::<u32>(),
            100,
            "30 frames at 30 fps last one second"
        );
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
    fn a_cancelled_export_stops_and_writes_nothing() {
        let comp = crate::compile::compile(
            "skeleton\n\tb\n\t\t@ :rect w10 h10\nanim \"a\"\n\tb\n\t\tx 0 -> 10 -> 0\n",
        );
        let arm = comp.armature;
        let tmp = tempfile::tempdir().expect("temp dir");
        let dir = tmp.path();
        let settings = Settings {
            anim: Some(AnimId(0)),
            skin: SkinId(0),
            width: 32,
            height: 32,
            framing: Framing::Fit,
            background: None,
            bones: false,
        };
        let mut cache = RenderCache::new(dir);
        let mut renderer = FrameRenderer::new(&arm, settings, &mut cache).expect("renderer");
        let times: Vec<f64> = (0..10).map(|i| f64::from(i) * 0.05).collect();
        let mut seen = 0;
        let mut stop_after_three = |done: usize, _total: usize| {
            seen = done;
            done < 3
        };
        let gif = write_gif(&mut renderer, &times, 20.0, &dir.join("a.gif"), &mut stop_after_three);
        assert_eq!(gif, Err(ExportError::Cancelled));
        assert_eq!(seen, 3, "no frame is rendered after the cancel");
        let seq =
            write_sequence(&mut renderer, &times, &dir.join("f.png"), &mut |done, _| done < 5);
        assert_eq!(seq, Err(ExportError::Cancelled));
        let png = write_png(&mut renderer, 0.1, &dir.join("one.png"), &mut |done, _| done < 1);
        assert_eq!(
            png,
            Err(ExportError::Cancelled),
            "a single frame can be cancelled after it is drawn"
        );
        let png = write_png(&mut renderer, 0.1, &dir.join("one.png"), &mut |_, _| false);
        assert_eq!(png, Err(ExportError::Cancelled), "… and before");
        assert_eq!(
            std::fs::read_dir(dir).expect("dir").count(),
            0,
            "a cancelled export leaves no file"
        );
    }

    #[test]
    fn a_failed_write_is_a_typed_io_error_naming_the_file() {
        let comp = crate::compile::compile("skeleton\n\tb\n\t\t@ :rect w10 h10\n");
        let tmp = tempfile::tempdir().expect("temp dir");
        let settings = Settings {
            anim: None,
            skin: SkinId(0),
            width: 8,
            height: 8,
            framing: Framing::Fit,
            background: None,
            bones: false,
        };
        let mut cache = RenderCache::new(tmp.path());
        let mut renderer =
            FrameRenderer::new(&comp.armature, settings, &mut cache).expect("renderer");
        let out = tmp.path().join("missing/one.png");
        match write_png(&mut renderer, 0.0, &out, &mut |_, _| true) {
            Err(ExportError::Io(e)) => assert_eq!(e.path, out),
            other => panic!("{other:?}"),
        }
        assert_eq!(std::fs::read_dir(tmp.path()).expect("dir").count(), 0);
    }
}
