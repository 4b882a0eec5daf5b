//! `skelpad export FILE -o OUT.glb|.gltf`: glTF 2.0 export.

use std::io::{IsTerminal, Write};

use super::EXIT_USAGE;
use super::export::{ExportArgs, Format};
use crate::formats::gltf::{Container, GltfOptions, export_file};

/// Runs a glTF export. Exit codes as for `.skf`.
pub fn run(args: &ExportArgs, format: Format, err: &mut dyn Write) -> i32 {
    let container = if format == Format::Gltf { Container::Gltf } else { Container::Glb };
    if args.skins.len() > 1 {
        let _ = writeln!(err, "error: a glTF file shows one skin; give one --skin");
        return EXIT_USAGE;
    }
    if args.scale != 1.0 || args.size.is_some() || args.fit {
        let _ = writeln!(
            err,
            "warning: --scale, --size and --fit do not apply to glTF (one unit is one glTF unit)"
        );
    }
    let arm = match super::lottie::load(args, err) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let opts = GltfOptions { anim: args.anim.clone(), skin: args.skins.first().cloned() };
    let mut pictures = super::lottie::pictures_of(&args.file);
    let progress =
        super::progress::export_progress(!args.no_bar && std::io::stderr().is_terminal());
    let written = export_file(&arm, &opts, pictures.as_mut(), container, &args.output, &progress);
    let written = written.as_ref().map(|g| (g.warnings.as_slice(), String::new()));
    super::lottie::report_written(err, &args.output, written)
}
