//! `skelpad export FILE -o OUT.glb|.gltf`: glTF 2.0 export.

use std::io::{IsTerminal, Write};

use super::export::{ExportArgs, Format};
use super::{EXIT_OK, EXIT_USAGE};
use crate::formats::gltf::{
    Container, FilePictures, GltfOptions, MemoryPictures, PictureSource, export_file,
};

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
    let dir = crate::io::script_dir(Some(&args.file));
    let mut pictures: Box<dyn PictureSource> = match super::is_skf(&args.file)
        .then(|| crate::formats::skf::import::import_path(&args.file))
    {
        Some(Ok(imported)) => Box::new(MemoryPictures::from_skf(&imported, dir)),
        _ => Box::new(FilePictures(dir)),
    };
    let progress =
        super::progress::export_progress(!args.no_bar && std::io::stderr().is_terminal());
    match export_file(&arm, &opts, pictures.as_mut(), container, &args.output, &progress) {
        Ok(g) => {
            for w in &g.warnings {
                let _ = writeln!(err, "warning: {w}");
            }
            let _ = writeln!(
                err,
                "wrote `{}` ({} warning(s))",
                args.output.display(),
                g.warnings.len()
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
