//! `skelpad convert FILE -o OUT.skel2d`: another tool's file → an editable
//! script. One subcommand for every format, chosen by the input's extension.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{EXIT_OK, EXIT_USAGE};

/// Arguments of `skelpad convert`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct ConvertArgs {
    /// The file to convert (SkelForm `.skf`).
    pub file: PathBuf,
    /// The script to write; pictures go into the folder `OUT_sprites` beside it.
    #[arg(short = 'o', long = "output", value_name = "OUT.skel2d")]
    pub output: PathBuf,
}

/// Runs `skelpad convert`, messages on `err`.
pub fn run(args: &ConvertArgs, err: &mut dyn Write) -> i32 {
    match convert(args, err) {
        Ok(()) => EXIT_OK,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            EXIT_USAGE
        }
    }
}

fn convert(args: &ConvertArgs, err: &mut dyn Write) -> Result<(), String> {
    if !super::is_skf(&args.file) {
        return Err(format!("`{}`: convert reads SkelForm files (.skf)", args.file.display()));
    }
    let imported = crate::formats::skf::import::import_path(&args.file)?;
    let stem = args.output.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "converted".into());
    let sprite_dir = format!("{}_sprites", crate::formats::skf::convert::script_name(&stem));
    let converted = crate::formats::skf::convert::convert(&imported, &sprite_dir);
    // Every sprite path was built from sanitized single components under `sprite_dir`.
    debug_assert!(
        converted.sprites.iter().all(|(rel, ..)| Path::new(rel).components().all(|c| matches!(c, std::path::Component::Normal(_))))
    );
    converted.write(&args.output)?;
    let comp = crate::compile::compile(&converted.script);
    let errors = comp.diagnostics.iter().filter(|d| d.is_error()).count();
    let _ = writeln!(
        err,
        "wrote `{}` and {} picture(s) in `{}`",
        args.output.display(),
        converted.sprites.len(),
        crate::io::script_dir(Some(&args.output)).join(&sprite_dir).display()
    );
    if errors > 0 {
        let _ = writeln!(err, "warning: the script has {errors} error(s); run `skelpad check` on it");
    }
    if !converted.not_carried.is_empty() {
        let _ = writeln!(err, "could not carry over exactly:");
        for (what, n) in &converted.not_carried {
            let _ = writeln!(err, "  {n:>5} × {what}");
        }
    }
    Ok(())
}
