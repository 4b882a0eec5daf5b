//! `skelpad export FILE -o OUT.json|.lottie|.tgs`: Lottie export.

use std::io::{IsTerminal, Write};

use super::export::{ExportArgs, Format};
use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, report};
use crate::formats::lottie::{
    Container, FilePictures, LottieOptions, MemoryPictures, PictureSource, export_file,
};
use crate::model::Armature;

/// Parses `WxH` (each side 1..=16384).
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT such as 512x512, got `{s}`"))?;
    let side = |v: &str| v.trim().parse::<u32>().ok().filter(|n| (1..=16384).contains(n));
    match (side(w), side(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!("expected WIDTHxHEIGHT with each side from 1 to 16384, got `{s}`")),
    }
}

/// The armature of FILE (script, Spriter or `.skf`), or the exit code.
pub(super) fn load(args: &ExportArgs, err: &mut dyn Write) -> Result<Armature, i32> {
    let loaded = match super::load_input(&args.file, args.entity.as_deref()) {
        Ok(l) => l,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return Err(EXIT_USAGE);
        }
    };
    for w in &loaded.warnings {
        let _ = writeln!(err, "warning: {w}");
    }
    if loaded.error_count > 0 {
        if !args.allow_errors {
            if let Ok(text) = super::read_script(&args.file) {
                let comp = crate::check::expect::compile_checked(&text);
                let _ =
                    write!(err, "{}", report::render_plain(&args.file, &text, &comp.diagnostics));
            }
            let _ = writeln!(
                err,
                "error: `{}` has errors; nothing was exported (--allow-errors exports what compiled)",
                args.file.display()
            );
            return Err(EXIT_ERRORS);
        }
        let _ = writeln!(
            err,
            "warning: {} has {} error(s); exporting what compiled (run `skelpad check` to see them)",
            args.file.display(),
            loaded.error_count
        );
    }
    Ok(loaded.armature)
}

/// Runs a Lottie export. Exit codes as for `.skf`.
pub fn run(args: &ExportArgs, format: Format, err: &mut dyn Write) -> i32 {
    let container = match format {
        Format::Dotlottie => Container::DotLottie,
        Format::Tgs => Container::Tgs,
        _ => Container::Json,
    };
    if args.skins.len() > 1 {
        let _ = writeln!(err, "error: a Lottie file shows one skin; give one --skin");
        return EXIT_USAGE;
    }
    if args.scale != 1.0 {
        let _ =
            writeln!(err, "warning: --scale applies to .skf atlases; Lottie keeps vector shapes");
    }
    let arm = match load(args, err) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let mut opts = LottieOptions {
        anim: args.anim.clone(),
        skin: args.skins.first().cloned(),
        size: args.size,
        fit: args.fit,
        fps: None,
        decimals: args.decimals,
        no_metadata: args.no_metadata,
    };
    if container == Container::Tgs {
        // Telegram's sticker: 512×512 at 60 fps, the animation fitted.
        if args.size.is_some_and(|s| s != (512, 512)) {
            let _ = writeln!(err, "error: a .tgs sticker is 512x512; drop --size or give 512x512");
            return EXIT_USAGE;
        }
        opts.size = Some((512, 512));
        opts.fit = true;
        opts.fps = Some(60.0);
    }
    let mut pictures = pictures_of(&args.file);
    let progress =
        super::progress::export_progress(!args.no_bar && std::io::stderr().is_terminal());
    let written = export_file(&arm, &opts, pictures.as_mut(), container, &args.output, &progress);
    report_written(
        err,
        &args.output,
        written.as_ref().map(|l| (l.warnings.as_slice(), String::new())),
    )
}

/// The pictures an export of `file` draws with: a SkelForm file's sprites
/// are textures in its own atlases; anything else names files beside it.
pub fn pictures_of(file: &std::path::Path) -> Box<dyn PictureSource> {
    let dir = crate::io::script_dir(Some(file));
    match super::is_skf(file).then(|| crate::formats::skf::import::import_path(file)) {
        Some(Ok(imported)) => Box::new(MemoryPictures::from_skf(&imported, dir)),
        _ => Box::new(FilePictures(dir)),
    }
}

/// Says what an export did: each warning and `wrote OUTPUT` (with `beside`,
/// what else it wrote) and the warning count, or why nothing was written;
/// the exit code. Shared by the Lottie, Godot and glTF exports.
pub fn report_written(
    err: &mut dyn Write,
    output: &std::path::Path,
    written: Result<(&[String], String), &crate::formats::export::ExportError>,
) -> i32 {
    match written {
        Ok((warnings, beside)) => {
            for w in warnings {
                let _ = writeln!(err, "warning: {w}");
            }
            let _ = writeln!(
                err,
                "wrote `{}`{beside} ({} warning(s))",
                output.display(),
                warnings.len()
            );
            EXIT_OK
        }
        Err(crate::formats::export::ExportError::Io(e)) => {
            let _ = writeln!(err, "error: {e}");
            EXIT_USAGE
        }
        Err(e) => {
            let _ = writeln!(
                err,
                "error: cannot export `{}`: {e}; nothing was written",
                output.display()
            );
            EXIT_USAGE
        }
    }
}
