//! `skelpad export FILE -o OUT.tscn [--godot 3|4] [--skin NAME] [--anim
//! NAME]`: a Godot scene, its pictures in `OUT_pictures/` and the event
//! script `skelpad_events.gd` beside it (`docs/godot.md`).

use std::io::{IsTerminal, Write};

use super::EXIT_USAGE;
use super::export::ExportArgs;
use crate::formats::godot::{GodotOptions, Version, export_file};

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
    let mut pictures = super::lottie::pictures_of(&args.file);
    let progress =
        super::progress::export_progress(!args.no_bar && std::io::stderr().is_terminal());
    let written = export_file(&arm, &opts, pictures.as_mut(), &args.output, &progress);
    let written = written
        .as_ref()
        .map(|g| (g.warnings.as_slice(), format!(" and {} file(s) beside it", g.files.len())));
    super::lottie::report_written(err, &args.output, written)
}
