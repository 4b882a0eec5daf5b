//! `skelpad export FILE -o OUT [--format skf|lottie|dotlottie|tgs|godot|glb|gltf]
//! [--anim NAME] [--skin NAME ...] [--size WxH] [--fit] [--scale K]
//! [--godot 3|4] [--allow-errors]`: the output's extension picks the format
//! (`.skf`, `.json` Lottie, `.lottie`, `.tgs`, `.tscn` Godot scene, `.glb`
//! and `.gltf` glTF 2.0) unless `--format` names one; any other extension
//! is refused.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE, read_script, report};
use crate::check::expect::compile_checked;
use crate::formats::skf::export::{ExportOptions, Pictures};
use crate::formats::skf::write::export_file;
use crate::model::Armature;

/// Arguments of `skelpad export`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct ExportArgs {
    /// The scripts, or Spriter files (.scml/.scon); with several, `-o`
    /// names a folder and `--format` the format (default: skf).
    #[arg(required = true, num_args = 1.., value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The file being exported (one of `files`).
    #[arg(skip)]
    pub file: PathBuf,
    /// No progress bar of its own (a file of a batch, whose bar counts files).
    #[arg(skip)]
    pub no_bar: bool,
    /// Spriter files: the entity (default: the first).
    #[arg(long, value_name = "NAME")]
    pub entity: Option<String>,
    /// The file to write (replaced atomically): `.skf` SkelForm, `.json`
    /// Lottie, `.lottie` dotLottie, `.tgs` Telegram sticker, `.tscn` Godot
    /// scene (its pictures and event script beside it), `.glb`/`.gltf` glTF
    /// 2.0. With several
    /// files, a folder (made if missing) where each is written as
    /// `STEM.EXT`.
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: PathBuf,
    /// The format, whatever the output's extension.
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub format: Option<Format>,
    /// Skins to write as SkelForm styles, in order (default: every skin,
    /// the default skin first). Lottie and glTF show one skin (default: the default).
    #[arg(long = "skin", value_name = "NAME", num_args = 1..)]
    pub skins: Vec<String>,
    /// Lottie and glTF: export this animation only (default: every animation, one
    /// after another, each a marker).
    #[arg(long, value_name = "NAME")]
    pub anim: Option<String>,
    /// Lottie: the composition's size (default: the animations' bounds).
    #[arg(long, value_name = "WxH", value_parser = super::lottie::parse_size)]
    pub size: Option<(u32, u32)>,
    /// Lottie: scale the animations to fit --size.
    #[arg(long, requires = "size")]
    pub fit: bool,
    /// Lottie: decimals its numbers are written with, 0 to 9 (default:
    /// 0.0001 units at the file's scale; docs/lottie.md).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=9))]
    pub decimals: Option<u32>,
    /// Lottie: leave out `metadata.skelpad` (python-lottie cannot write
    /// any `metadata` back).
    #[arg(long)]
    pub no_metadata: bool,
    /// Godot scene: the Godot version it is for, 4 (text format 3) or 3
    /// (format 2).
    #[arg(long, value_name = "3|4", default_value_t = 4, value_parser = clap::value_parser!(u32).range(3..=4))]
    pub godot: u32,
    /// Texture pixels per unit: higher gives crisper atlases.
    #[arg(long, value_name = "K", default_value_t = 1.0)]
    pub scale: f64,
    /// Export what compiled from a script with errors (as `render` does)
    /// instead of refusing it.
    #[arg(long)]
    pub allow_errors: bool,
}

/// The formats `export` writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// SkelForm (`.skf`).
    Skf,
    /// Lottie JSON (`.json`).
    Lottie,
    /// dotLottie (`.lottie`).
    Dotlottie,
    /// Telegram sticker (`.tgs`).
    Tgs,
    /// Godot scene (`.tscn`).
    Godot,
    /// Binary glTF 2.0 (`.glb`).
    Glb,
    /// JSON glTF 2.0 (`.gltf`, buffers embedded).
    Gltf,
}

impl Format {
    /// The extension of its files, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Skf => "skf",
            Format::Lottie => "json",
            Format::Dotlottie => "lottie",
            Format::Tgs => "tgs",
            Format::Godot => "tscn",
            Format::Glb => "glb",
            Format::Gltf => "gltf",
        }
    }

    /// `--format`, else the output's extension; any other extension is
    /// refused with the known ones listed.
    pub fn of(args: &ExportArgs) -> Result<Format, String> {
        if let Some(f) = args.format {
            return Ok(f);
        }
        let ext = args.output.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        Ok(match ext.as_deref() {
            Some("skf") => Format::Skf,
            Some("json") => Format::Lottie,
            Some("lottie") => Format::Dotlottie,
            Some("tgs") => Format::Tgs,
            Some("tscn") => Format::Godot,
            Some("glb") => Format::Glb,
            Some("gltf") => Format::Gltf,
            other => {
                let what = other.map_or_else(|| "no extension".to_string(), |e| format!("`.{e}`"));
                return Err(format!(
                    "`{}` has {what}; the formats are .skf, .json (Lottie), .lottie, .tgs, .tscn (Godot scene), .glb and .gltf (glTF), or name one with --format",
                    args.output.display()
                ));
            }
        })
    }
}

/// `skelpad export FILE.skf -o OUT.skf`: the file checked and written again
/// (see [`crate::formats::skf::import::repack`]).
fn repack(args: &ExportArgs, err: &mut dyn Write) -> i32 {
    let path = &args.file;
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            let _ =
                writeln!(err, "error: cannot read `{}`: {}", path.display(), crate::io::reason(&e));
            return EXIT_USAGE;
        }
    };
    let out = match crate::formats::skf::import::repack(&bytes) {
        Ok(out) => out,
        Err(e) => {
            for p in &e.problems {
                let _ = writeln!(err, "error: {}: {p}", path.display());
            }
            return EXIT_USAGE;
        }
    };
    if !args.skins.is_empty() || args.scale != 1.0 {
        let _ = writeln!(
            err,
            "warning: --skin and --scale apply to scripts; a .skf is written as it is"
        );
    }
    match crate::io::write_atomic(&args.output, &out) {
        Ok(()) => {
            let _ = writeln!(err, "wrote `{}`", args.output.display());
            EXIT_OK
        }
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            EXIT_USAGE
        }
    }
}

/// Runs an export with pictures from `make_pictures` (given the armature
/// and the script's folder, where sprite images are looked up). Diagnostics,
/// warnings and progress go to `err`. Exit codes: 0 written, 1 the script has
/// errors and `--allow-errors` was not given (nothing written), 2 the export
/// failed (nothing written). A progress bar is drawn on stderr when it is a
/// terminal.
pub fn run(args: &ExportArgs, make_pictures: &MakePictures, err: &mut dyn Write) -> i32 {
    if let [file] = args.files.as_slice() {
        return run_one(&ExportArgs { file: file.clone(), ..args.clone() }, make_pictures, err);
    }
    let format = args.format.unwrap_or(Format::Skf);
    super::batch::run(
        &args.files,
        &args.output,
        format.extension(),
        err,
        |file, output, messages| {
            let one = ExportArgs {
                file: file.to_path_buf(),
                output: output.to_path_buf(),
                format: Some(format),
                no_bar: true,
                ..args.clone()
            };
            run_one(&one, make_pictures, messages)
        },
    )
}

/// Where an export's pictures come from, given the armature and the
/// script's folder (shared by the threads of a batch).
pub type MakePictures = dyn Fn(&Armature, &Path) -> Box<dyn Pictures> + Sync;

/// Exports `args.file` to `args.output` (see [`run`]).
fn run_one(args: &ExportArgs, make_pictures: &MakePictures, err: &mut dyn Write) -> i32 {
    let format = match Format::of(args) {
        Ok(f) => f,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_USAGE;
        }
    };
    if format == Format::Godot {
        return super::godot::run(args, err);
    }
    if matches!(format, Format::Glb | Format::Gltf) {
        return super::gltf::run(args, format, err);
    }
    if format != Format::Skf {
        return super::lottie::run(args, format, err);
    }
    if args.anim.is_some() || args.size.is_some() {
        let _ =
            writeln!(err, "warning: --anim and --size apply to Lottie; a .skf has every animation");
    }
    if super::is_skf(&args.file) {
        return repack(args, err);
    }
    let dir = crate::io::script_dir(Some(&args.file));
    let loaded = if crate::formats::spriter::syntax_of(&args.file).is_some() {
        spriter_armature(args, &dir, err)
    } else {
        script_armature(args, err)
    };
    let arm = match loaded {
        Ok(arm) => arm,
        Err(code) => return code,
    };
    let arm = &arm;
    let mut pictures = make_pictures(arm, &dir);
    let opts = ExportOptions { skins: args.skins.clone(), pixels_per_unit: args.scale };
    let progress =
        super::progress::export_progress(!args.no_bar && std::io::stderr().is_terminal());
    match export_file(arm, &opts, pictures.as_mut(), &args.output, &progress) {
        Ok(warnings) => {
            for w in &warnings {
                let _ = writeln!(err, "warning: {w}");
            }
            let _ =
                writeln!(err, "wrote `{}` ({} warning(s))", args.output.display(), warnings.len());
            EXIT_OK
        }
        Err(e) => {
            let _ = writeln!(err, "error: cannot export `{}`: {e}", args.output.display());
            EXIT_USAGE
        }
    }
}

/// The armature of a Spriter file, its pictures centered as SkelForm's are;
/// warnings go to `err`, an error returns the exit code.
fn spriter_armature(args: &ExportArgs, dir: &Path, err: &mut dyn Write) -> Result<Armature, i32> {
    match super::load_input(&args.file, args.entity.as_deref()) {
        Ok(loaded) => {
            for w in &loaded.warnings {
                let _ = writeln!(err, "warning: {w}");
            }
            // SkelForm pictures are centered: Spriter's pivots move into the attachments.
            let (arm, problems) = crate::formats::spriter::center_pictures(&loaded.armature, dir);
            for p in problems {
                let _ = writeln!(err, "warning: {}: {p}", args.file.display());
            }
            // An animated draw order is carried as slot copies by the
            // exporter (formats::draw_order); it warns if it cannot.
            Ok(arm)
        }
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            Err(EXIT_USAGE)
        }
    }
}

/// The armature of a script (what compiled, with `--allow-errors`);
/// diagnostics go to `err`, an error returns the exit code.
fn script_armature(args: &ExportArgs, err: &mut dyn Write) -> Result<Armature, i32> {
    if args.entity.is_some() {
        let _ = writeln!(err, "error: --entity is for Spriter files (.scml, .scon)");
        return Err(EXIT_USAGE);
    }
    let text = match read_script(&args.file) {
        Ok(t) => t,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return Err(EXIT_USAGE);
        }
    };
    let comp = compile_checked(&text);
    if comp.has_errors() {
        if !args.allow_errors {
            let _ = write!(err, "{}", report::render_plain(&args.file, &text, &comp.diagnostics));
            let _ = writeln!(
                err,
                "error: `{}` has errors; nothing was exported (--allow-errors exports what compiled)",
                args.file.display()
            );
            return Err(EXIT_ERRORS);
        }
        let n = comp.diagnostics.iter().filter(|d| d.is_error()).count();
        let _ = writeln!(
            err,
            "warning: {} has {n} error(s); exporting what compiled (run `skelpad check` to see them)",
            args.file.display()
        );
    }
    Ok(comp.armature)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::skf::export::Raster;
    use crate::model::{AttachmentId, SkinId, SlotId};
    use clap::Parser;

    #[derive(Parser)]
    struct Wrap {
        #[command(flatten)]
        args: ExportArgs,
    }

    /// Pictures that cannot be made: every export fails at the pictures.
    struct NoImages;
    impl Pictures for NoImages {
        fn attachment(
            &mut self,
            _: SkinId,
            _: SlotId,
            _: AttachmentId,
            _: f64,
        ) -> Result<Option<Raster>, String> {
            Err("image `face.png` not found".into())
        }
        fn sprite(&mut self, image: &str) -> Result<Raster, String> {
            Err(format!("image `{image}` not found"))
        }
        fn thumbnail(&mut self, _: &Armature, _: SkinId, _: u32) -> Result<Raster, String> {
            Err("no picture".into())
        }
    }

    fn run_with(argv: &[&str]) -> (i32, String) {
        let w =
            Wrap::try_parse_from(std::iter::once("export").chain(argv.iter().copied())).unwrap();
        let mut out = Vec::new();
        let code = run(&w.args, &|_, _| Box::new(NoImages), &mut out);
        (code, String::from_utf8(out).unwrap())
    }

    #[test]
    fn arguments_parse_with_several_skins() {
        let w = Wrap::try_parse_from([
            "export", "a.skel2d", "-o", "a.skf", "--skin", "red", "blue", "--scale", "2",
        ])
        .unwrap();
        assert_eq!(w.args.skins, ["red", "blue"]);
        assert_eq!(w.args.scale, 2.0);
        assert!(Wrap::try_parse_from(["export", "a.skel2d"]).is_err(), "-o is required");
    }

    #[test]
    fn script_errors_exit_1_and_export_errors_exit_2_without_a_file() {
        let dir = std::env::temp_dir().join(format!("skelpad-cli-export-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("bad.skel2d");
        std::fs::write(&bad, "skeleton\n\tarm l10\n\t\t@ :blob\n").unwrap();
        let out = dir.join("bad.skf");
        let (code, msg) = run_with(&[bad.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(code, EXIT_ERRORS, "{msg}");
        assert!(msg.contains("bad.skel2d:3:") && msg.contains("nothing was exported"), "{msg}");
        assert!(!out.exists());

        let good = dir.join("good.skel2d");
        std::fs::write(&good, "skeleton\n\tarm l10\n\t\t@ :rect w4 h2\n").unwrap();
        let out = dir.join("good.skf");
        let (code, msg) = run_with(&[good.to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(code, EXIT_USAGE);
        assert!(
            msg.contains("cannot make the picture of `arm.arm.arm`: image `face.png` not found"),
            "{msg}"
        );
        assert!(!out.exists());

        let (code, msg) =
            run_with(&[good.to_str().unwrap(), "-o", out.to_str().unwrap(), "--skin", "nope"]);
        assert_eq!(code, EXIT_USAGE);
        assert!(msg.contains("there is no skin `nope`"), "{msg}");
        let (code, msg) =
            run_with(&[dir.join("missing.skel2d").to_str().unwrap(), "-o", out.to_str().unwrap()]);
        assert_eq!(code, EXIT_USAGE);
        assert!(msg.contains("file not found"), "{msg}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
