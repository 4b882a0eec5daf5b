//! `skelpad render`: a pose or an animation to PNG, PNG sequence, sprite
//! sheet or GIF.
//!
//! Its messages go to a writer the caller passes, so tests read them.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, Parser};

use super::{EXIT_OK, EXIT_USAGE, find_animation, find_skin, read_script, report};
use crate::check::expect::compile_checked;
use crate::formats::export::{ExportError, Progress};
use crate::formats::frames;
use crate::model::{AnimId, SkinId};
use crate::render::frames::{FrameRenderer, Framing, Settings};
use crate::render::{RenderCache, Rgba};
use crate::runtime::wrap_time;
use crate::syntax::Diagnostic;

#[derive(Args, Clone, Debug)]
#[command(after_help = "\
Without --anim, a single picture shows the setup pose; --time, --frame, --frames, --sheet and --gif \
use the first animation unless --anim names one. Times wrap around the animation (it loops).

--frames writes OUT_0000.png, OUT_0001.png, … (one per frame at the animation's fps); --sheet writes \
OUT as a grid of frames and OUT with extension .json listing each frame's rectangle; --gif writes a \
GIF that loops forever at the animation's speed. Files appear only when complete.

With several files, OUT is a folder (made if missing) and each file's output is named after it: \
OUT/walk.png (--frames: OUT/walk_0000.png, …), OUT/walk.gif. Files and frames are drawn on every core; \
messages come in the order the files were given.

Exit codes: 0 success, 2 bad arguments, unknown animation or skin, unreadable script or unwritable output.")]
/// The arguments of `skelpad render`.
pub struct RenderArgs {
    /// The scripts, or Spriter files (.scml/.scon); with several, `-o`
    /// names a folder.
    #[arg(required = true, num_args = 1.., value_name = "FILE")]
    files: Vec<PathBuf>,
    /// The file being rendered (one of `files`).
    #[arg(skip)]
    file: PathBuf,
    /// Spriter files: the entity (default: the first).
    #[arg(long, value_name = "NAME")]
    entity: Option<String>,
    /// Animation to render.
    #[arg(long, value_name = "NAME")]
    anim: Option<String>,
    /// Skin whose attachments are shown.
    #[arg(long, value_name = "NAME")]
    skin: Option<String>,
    /// Time in seconds.
    #[arg(long, value_name = "SECS", conflicts_with = "frame", allow_negative_numbers = true)]
    time: Option<f64>,
    /// Frame number at the animation's fps.
    #[arg(long, value_name = "N")]
    frame: Option<u64>,
    /// Picture size in pixels (for --sheet: the size of each frame).
    #[arg(long, value_name = "WxH", default_value = "512x512", value_parser = super::lottie::parse_size)]
    size: (u32, u32),
    /// Scale and center so the whole animation fits (the default).
    #[arg(long, conflicts_with = "zoom")]
    fit: bool,
    /// Skeleton origin at the center, y up, Z pixels per unit (the editor's view at zoom Z).
    #[arg(long, value_name = "Z")]
    zoom: Option<f64>,
    /// Background: a color (#RGB, #RRGGBB, optionally ,ALPHA) or `transparent`
    /// [default: transparent; white for --gif].
    #[arg(long, value_name = "COLOR|transparent", value_parser = parse_background)]
    background: Option<Background>,
    /// Draw the bone overlay.
    #[arg(long)]
    bones: bool,
    /// Output file (a folder with several input files).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: PathBuf,
    /// Write every frame of the animation as a numbered PNG.
    #[arg(long, conflicts_with_all = ["time", "frame", "sheet", "gif"])]
    frames: bool,
    /// Write every frame of the animation into one sprite sheet PNG plus JSON.
    #[arg(long, conflicts_with_all = ["time", "frame", "gif"])]
    sheet: bool,
    /// Write the animation as a looping GIF.
    #[arg(long, conflicts_with_all = ["time", "frame"])]
    gif: bool,
    /// The most frames --frames, --sheet or --gif will write; a longer
    /// animation is refused.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_FRAMES)]
    max_frames: u64,
}

/// How many frames `render --frames/--sheet/--gif` writes without `--max-frames`.
pub const DEFAULT_MAX_FRAMES: u64 = 10_000;

/// The background of rendered pictures (`--background`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Background {
    /// No background: transparent pixels.
    Transparent,
    /// One color, straight RGBA in 0..1.
    Color(Rgba),
}

fn parse_background(s: &str) -> Result<Background, String> {
    if s.eq_ignore_ascii_case("transparent") || s.eq_ignore_ascii_case("none") {
        return Ok(Background::Transparent);
    }
    let c = crate::syntax::token::color(s)
        .ok_or_else(|| {
            format!("expected `transparent` or a color like #FFF, #1E1E2E or #000,0.5; got `{s}`")
        })?
        .to_color8();
    Ok(Background::Color([c.r, c.g, c.b, c.a].map(|v| v as f32)))
}

/// `skelpad render` alone, for parsing its arguments without the rest of
/// the command line (tests, tools).
#[derive(Parser, Debug)]
#[command(name = "skelpad render")]
pub struct RenderCommand {
    /// Its arguments.
    #[command(flatten)]
    pub args: RenderArgs,
}

/// Runs `skelpad render` with messages (warnings, progress, errors) on stderr.
pub fn run(args: RenderArgs) -> i32 {
    let stderr = std::io::stderr();
    let tty = stderr.is_terminal();
    // Not `stderr.lock()`: the progress bar is drawn from the threads that
    // draw frames, and would wait forever for a lock this thread held.
    execute(&args, &mut std::io::stderr(), tty)
}

/// Runs `skelpad render` writing its messages to `err` (`tty`: a progress
/// bar on stderr); returns the exit code. Frames are drawn on every thread
/// of the current rayon pool, and with several files the files too.
pub fn execute(args: &RenderArgs, err: &mut dyn Write, tty: bool) -> i32 {
    if let [file] = args.files.as_slice() {
        let one = RenderArgs { file: file.clone(), ..args.clone() };
        return execute_one(&one, err, tty, "");
    }
    let ext = if args.gif { "gif" } else { "png" };
    super::batch::run(&args.files, &args.output, ext, err, |file, output, messages| {
        let one =
            RenderArgs { file: file.to_path_buf(), output: output.to_path_buf(), ..args.clone() };
        let name = format!("{}: ", one.file.display());
        execute_one(&one, messages, false, &name)
    })
}

/// Renders `args.file`; an error is said after `prefix` (the file's name
/// when there are several).
fn execute_one(args: &RenderArgs, err: &mut dyn Write, tty: bool, prefix: &str) -> i32 {
    match render(args, err, tty) {
        Ok(()) => EXIT_OK,
        Err(msg) => {
            let _ = writeln!(err, "error: {prefix}{msg}");
            EXIT_USAGE
        }
    }
}

fn render(args: &RenderArgs, err: &mut dyn Write, tty: bool) -> Result<(), String> {
    check_numbers(args)?;
    let mut cache = RenderCache::new(crate::io::script_dir(Some(&args.file)));
    if args.entity.is_some() && crate::formats::spriter::syntax_of(&args.file).is_none() {
        return Err("--entity is for Spriter files (.scml, .scon)".into());
    }
    let (arm, script) = load(args, &mut cache, err)?;
    let arm = &arm;
    let sk = &*arm.skeleton;
    let skin = args.skin.as_deref().map_or(Ok(SkinId(0)), |name| find_skin(sk, name))?;
    let animated = args.frames || args.sheet || args.gif;
    let anim = pick_animation(args, arm, animated)?;
    if let Some((_, comp)) = &script
        && comp.has_errors()
    {
        let n = comp.diagnostics.iter().filter(|d| d.is_error()).count();
        let _ = writeln!(
            err,
            "warning: {} has {n} error(s); rendering what compiled (run `skelpad check` to see them)",
            args.file.display()
        );
    }
    let animation = anim.and_then(|a| arm.animation(a));
    let fps = animation.map_or(crate::model::DEFAULT_FPS, |a| a.fps);
    if let Some(a) = animation.filter(|_| animated) {
        check_frame_limit(args, a, fps)?;
    }
    let mut renderer = FrameRenderer::new(arm, settings(args, anim, skin), &mut cache)?;
    let written = write_output(args, &mut renderer, animation, fps, tty);
    report_warnings(args, arm, script.as_ref(), renderer.warnings(), err);
    let files = written.map_err(|e| e.to_string())?;
    let _ = match files.as_slice() {
        [one] => writeln!(err, "wrote {}", one.display()),
        [first, .., last] if args.frames => {
            writeln!(err, "wrote {} frames: {} … {}", files.len(), first.display(), last.display())
        }
        many => writeln!(
            err,
            "wrote {}",
            many.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
        ),
    };
    Ok(())
}

/// Rejects a time that is not finite and a zoom that is not positive.
fn check_numbers(args: &RenderArgs) -> Result<(), String> {
    if let Some(t) = args.time.filter(|t| !t.is_finite()) {
        return Err(format!("--time must be a number of seconds, not {t}"));
    }
    if let Some(z) = args.zoom.filter(|z| !(z.is_finite() && *z > 0.0)) {
        return Err(format!("--zoom must be a positive number of pixels per unit, not {z}"));
    }
    Ok(())
}

/// The armature of the input file; a script keeps its text and compilation
/// for messages at slot lines.
fn load(
    args: &RenderArgs,
    cache: &mut RenderCache,
    err: &mut dyn Write,
) -> Result<(crate::model::Armature, Option<(String, crate::compile::Compilation)>), String> {
    Ok(if super::is_skf(&args.file) {
        let imported = crate::formats::skf::import::import_path(&args.file)?;
        imported.load_sprites(&mut cache.images);
        (imported.armature, None)
    } else if crate::formats::spriter::syntax_of(&args.file).is_some() {
        let loaded = super::load_input(&args.file, args.entity.as_deref())?;
        for w in &loaded.warnings {
            let _ = writeln!(err, "warning: {w}");
        }
        (loaded.armature, None)
    } else {
        let text = read_script(&args.file)?;
        let comp = compile_checked(&text);
        (comp.armature.clone(), Some((text, comp)))
    })
}

/// The animation to render: the one named, else the first when a flag
/// needs one (an error when there is none), else none (the setup pose).
fn pick_animation(
    args: &RenderArgs,
    arm: &crate::model::Armature,
    animated: bool,
) -> Result<Option<AnimId>, String> {
    Ok(match &args.anim {
        Some(name) => Some(find_animation(arm, name)?),
        None if animated || args.time.is_some() || args.frame.is_some() => {
            if arm.animations.is_empty() {
                let flag = if args.frames {
                    "--frames"
                } else if args.sheet {
                    "--sheet"
                } else if args.gif {
                    "--gif"
                } else if args.time.is_some() {
                    "--time"
                } else {
                    "--frame"
                };
                return Err(format!(
                    "{flag} needs an animation, and {} has none",
                    args.file.display()
                ));
            }
            Some(AnimId(0))
        }
        None => None,
    })
}

/// Rejects an animation with more frames than `--max-frames`.
fn check_frame_limit(
    args: &RenderArgs,
    a: &crate::model::Animation,
    fps: f64,
) -> Result<(), String> {
    let frames = a.frame_count();
    if frames > args.max_frames {
        let flag = if args.frames {
            "--frames"
        } else if args.sheet {
            "--sheet"
        } else {
            "--gif"
        };
        return Err(format!(
            "animation `{}` has {frames} frames ({:.1} s at {fps} fps); {flag} writes at most {} (pass --max-frames {frames} to write them all)",
            a.name, a.duration_secs, args.max_frames
        ));
    }
    Ok(())
}

/// The renderer's settings from the arguments (a GIF gets a white background by default).
fn settings(args: &RenderArgs, anim: Option<AnimId>, skin: SkinId) -> Settings {
    let background = match args.background {
        Some(Background::Transparent) => None,
        Some(Background::Color(c)) => Some(c),
        None if args.gif => Some([1.0; 4]),
        None => None,
    };
    Settings {
        anim,
        skin,
        width: args.size.0,
        height: args.size.1,
        framing: args.zoom.map_or(Framing::Fit, Framing::Zoom),
        background,
        bones: args.bones,
    }
}

/// Writes the frames (`--frames`, `--sheet`, `--gif`) or the one picture.
fn write_output(
    args: &RenderArgs,
    renderer: &mut FrameRenderer,
    animation: Option<&crate::model::Animation>,
    fps: f64,
    tty: bool,
) -> Result<Vec<PathBuf>, ExportError> {
    let out = &args.output;
    if args.frames || args.sheet || args.gif {
        let times = animation.map_or_else(|| vec![0.0], crate::model::Animation::frame_times);
        let progress = super::progress::export_progress(tty);
        if args.frames {
            frames::write_sequence(renderer, &times, out, &progress)
        } else if args.sheet {
            frames::write_sheet(renderer, &times, fps, out, &progress)
        } else {
            frames::write_gif(renderer, &times, fps, out, &progress)
        }
    } else {
        let t = match (args.time, args.frame, animation) {
            (Some(t), _, Some(a)) => wrap_time(a, t, a.looping.unwrap_or(true)),
            (None, Some(n), Some(a)) => wrap_time(a, n as f64 / fps, a.looping.unwrap_or(true)),
            _ => 0.0,
        };
        frames::write_png(renderer, t, out, &Progress::new())
    }
}

/// Things that could not be drawn, at the slot that shows them.
fn report_warnings(
    args: &RenderArgs,
    arm: &crate::model::Armature,
    script: Option<&(String, crate::compile::Compilation)>,
    warnings: &[crate::render::RenderWarning],
    err: &mut dyn Write,
) {
    match script {
        Some((text, comp)) => {
            let diags: Vec<Diagnostic> = warnings
                .iter()
                .map(|w| {
                    let span = comp.sources.slots.get(w.slot.index()).copied().unwrap_or_default();
                    Diagnostic::warning(span, w.message.clone())
                })
                .collect();
            if !diags.is_empty() {
                let _ = write!(err, "{}", report::render_plain(&args.file, text, &diags));
            }
        }
        None => {
            for w in warnings {
                let slot = arm.skeleton.slots.get(w.slot.index()).map_or("?", |s| s.name.as_str());
                let _ =
                    writeln!(err, "warning: {}: slot {slot}: {}", args.file.display(), w.message);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_backgrounds_parse_or_explain() {
        use super::super::lottie::parse_size;
        assert_eq!(parse_size("320x200"), Ok((320, 200)));
        assert!(parse_size("320").unwrap_err().contains("WIDTHxHEIGHT"));
        assert!(parse_size("0x10").is_err());
        assert_eq!(parse_background("transparent"), Ok(Background::Transparent));
        assert_eq!(parse_background("#F00"), Ok(Background::Color([1.0, 0.0, 0.0, 1.0])));
        assert!(parse_background("red").unwrap_err().contains("color"));
    }
}
