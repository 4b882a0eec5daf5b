//! `skelpad export FILE -o OUT.tscn [--godot 3|4] [--skin NAME] [--anim
//! NAME]`: a Godot scene, its pictures in `OUT_pictures/` and the event
//! script `skelpad_events.gd` beside it (`docs/godot.md`).

use std::io::{IsTerminal, Write};

use super::export::ExportArgs;
use super::{EXIT_OK, EXIT_USAGE};
use crate::formats::godot::{GodotOptions, Version, export_file};
use crate::formats::lottie::{FilePictures, MemoryPictures, PictureSource};

/// Runs a Godot export. Exit codes as for `.skf`.
pub fn run(args: &ExportArgs, err: &mut dyn Write) -> i32 {
    if args.skins.len() > 1 {
        let _ = writeln!(err, "error: a Godot scene shows one skin; give one --skin");
        return EXIT_USAGE;
    }
    if args.scale != 1.0 || args.size.is_some() {
        let _ = writeln!(
            err,
            "warning: --scale and --size do not apply to a Godot scene (one unit is one pixel)"
        );
    }
    let arm = match super::lottie::load(args, err) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let opts = GodotOptions {
        version: if args.godot == 3 { Version::Godot3 } else { Version::Godot4 },
        skin: args.skins.first().cloned(),
        anim: args.anim.clone(),
    };
    let dir = crate::io::script_dir(Some(&args.file));
    // A SkelForm file's sprites are textures in its atlases.
    let mut pictures: Box<dyn PictureSource> = match super::is_skf(&args.file)
        .then(|| crate::formats::skf::import::import_path(&args.file))
    {
        Some(Ok(imported)) => Box::new(MemoryPictures::from_skf(&imported, dir)),
        _ => Box::new(FilePictures(dir)),
    };
    let progress =
        super::progress::export_progress(!args.no_bar && std::io::stderr().is_terminal());
    match export_file(&arm, &opts, pictures.as_mut(), &args.output, &progress) {
        Ok(godot) => {
            for w in &godot.warnings {
                let _ = writeln!(err, "warning: {w}");
            }
            let _ = writeln!(
                err,
                "wrote `{}` and {} file(s) beside it ({} warning(s))",
                args.output.display(),
                godot.files.len(),
                godot.warnings.len()
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
                args.output.display()
            );
            EXIT_USAGE
        }
    }
}
