//! The `skelpad` command line.
//!
//! No command opens the editor (`app::run`, whose `Result` becomes the exit
//! code). `check` renders diagnostics like rustc through codespan-reporting,
//! or as JSON (`report`); `test` runs pose assertions (`test`); `pose` prints
//! the conformance JSON format (`runtime::report`, re-exported here as
//! `pose_document` / `pose_json`; `--draw` adds the drawn attachments);
//! `convert` turns another tool's file into a script; `render` and `export`
//! write pictures and other tools' files (`render`, `export`, `lottie`), many
//! inputs at once through `batch`; `lsp` runs the language server.
//!
//! `check` and `test` over several files run them on rayon's pool (each
//! file's report rendered to bytes first) and print the reports in the files'
//! order; `check --timings` runs one file at a time. On a terminal an
//! `indicatif` bar counts the files on stderr (`progress_bar`; hidden when
//! piped, so logs and tests see only the reports).
//!
//! `check` and `test` hold each script as the editor and the language server
//! do, in a `skelpad_ide::document::Document` (compiled, assertions
//! checked, pictures asked of `render::ImageStore` in the script's folder,
//! lints when asked), so all three report the same diagnostics; `lsp` runs
//! the server with the same pictures (`language_server`).
//!
//! A sprite image that cannot be loaded never fails a command: `check` warns
//! at its name (the document's picture warning; the compiler reads no
//! files), `render` leaves the picture out with a warning, the `.skf` export
//! draws a placeholder and warns, the Lottie export leaves it out and warns.
//! Exit codes: 0 ok, 1 the scripts have errors, 2 usage or I/O errors. A file
//! that cannot be read or is not text is a clear message, never a panic.

mod batch;
pub mod convert;
pub mod export;
mod gltf;
mod godot;
mod lottie;
mod progress;
pub mod render;
pub mod report;
mod test;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Parser, Subcommand, ValueEnum};

use crate::check::expect::compile_checked;
use crate::compile::Compilation;
use crate::io::Pictures;
use crate::model::{AnimId, Armature, SkinId};
use crate::runtime::evaluate;
/// The pose JSON format lives beside the runtime; these paths keep working.
pub use crate::runtime::report::{draw_json, pose_document, pose_document_with, pose_json};
use skelpad_ide::document::{Document, Options as DocOptions};

/// Exit code: success, no errors.
pub const EXIT_OK: i32 = 0;
/// Exit code: the scripts have errors.
pub const EXIT_ERRORS: i32 = 1;
/// Exit code: bad usage or a file that cannot be read.
pub const EXIT_USAGE: i32 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "skelpad",
    version,
    about = "A text editor for 2D skeletal animation (Skel2D scripts, *.skel2d)",
    after_help = "Without a command, skelpad opens the editor (on FILE, or on a built-in example).",
    long_about = "skelpad compiles tab-indented Skel2D scripts (bones, slots, shapes, paths, skins, draw order, \
                  animations) into an armature, checks them, evaluates poses and renders them.\n\n\
                  Exit codes: 0 success, 1 the script has errors, 2 usage or I/O error."
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Script to open in the editor (without one, the editor opens a built-in example).
    file: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check scripts and print their diagnostics.
    Check {
        /// Scripts to check.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
        /// Print the time spent parsing, compiling and evaluating one pose.
        #[arg(long)]
        timings: bool,
        /// Also report motion lints (warnings: loop seams, pops, timelines
        /// that change nothing, attachments never shown, long animations).
        #[arg(long)]
        lint: bool,
    },
    /// Evaluate poses: the setup pose and poses of each animation.
    Pose {
        /// The script, a Spriter file (.scml/.scon), or a SkelForm `.skf`
        /// (its bones in the file's order under their own names; a time
        /// shows the frame `trunc(t·fps)`).
        file: PathBuf,
        /// Print JSON (the conformance format).
        #[arg(long)]
        json: bool,
        /// Only this animation.
        #[arg(long, value_name = "NAME")]
        anim: Option<String>,
        /// Skin whose attachments are reported.
        #[arg(long, value_name = "NAME")]
        skin: Option<String>,
        /// Times in seconds, comma separated (default: 0, every tenth of the duration, and the end).
        #[arg(long, value_name = "T1,T2,...", value_delimiter = ',')]
        times: Option<Vec<f64>>,
        /// Spriter files: the entity (default: the first).
        #[arg(long, value_name = "NAME")]
        entity: Option<String>,
        /// Add to each pose the list of drawn attachments in draw order
        /// (slot, attachment, image, world frame, alpha).
        #[arg(long)]
        draw: bool,
    },
    /// Render a pose or an animation to PNG, a PNG sequence, a sprite sheet or a GIF.
    Render(render::RenderArgs),
    /// Export to SkelForm (`.skf`), Lottie (`.json`, `.lottie`, `.tgs`), a
    /// Godot scene (`.tscn`) or glTF 2.0 (`.glb`, `.gltf`), by the output's
    /// extension (or `--format`).
    Export(export::ExportArgs),
    /// Run the pose assertions (`expect` sections) of scripts and print a summary.
    Test {
        /// Scripts, or directories searched for `*.skel2d`.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Human)]
        format: Format,
    },
    /// Run the language server over stdin/stdout (for any editor: see editors/README.md).
    Lsp,
    /// Convert another tool's file (SkelForm `.skf`, Spriter `.scml`/`.scon`)
    /// into an editable script, printing what the language cannot express.
    Convert(convert::ConvertArgs),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Human,
    Json,
}

/// Runs the CLI with the process arguments; returns the exit code.
pub fn main() -> i32 {
    run(std::env::args_os())
}

/// Runs the CLI with the given arguments (the first is the program name).
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        None => open_editor(cli.file),
        Some(Command::Check { files, format, timings, lint }) => {
            check(&files, format, timings, lint)
        }
        Some(Command::Pose { file, json, anim, skin, times, entity, draw }) => pose(
            &file,
            &PoseOptions {
                json,
                anim: anim.as_deref(),
                skin: skin.as_deref(),
                times,
                entity: entity.as_deref(),
                draw,
            },
        ),
        Some(Command::Render(args)) => render::run(args),
        Some(Command::Lsp) => crate::lsp::run(picture_source()),
        Some(Command::Test { paths, format }) => test::run(&paths, format),
        Some(Command::Convert(args)) => convert::run(&args, &mut std::io::stderr()),
        Some(Command::Export(args)) => export::run(
            &args,
            &|arm, dir| Box::new(crate::formats::skf::pictures::RenderedPictures::new(arm, dir)),
            &mut std::io::stderr(),
        ),
    }
}

/// Opens the editor. A file that exists but cannot be read is reported
/// here, before a window opens; a missing one becomes a new script there.
fn open_editor(file: Option<PathBuf>) -> i32 {
    if let Some(path) = file.as_deref().filter(|p| p.exists())
        && let Err(msg) = if is_skf(path) {
            crate::formats::skf::import::import_path(path).map(|_| String::new())
        } else {
            read_script(path).and_then(|text| match crate::formats::spriter::syntax_of(path) {
                // A Spriter file that cannot be read at all is reported here too.
                Some(syntax) => crate::formats::spriter::read_str(&text, syntax)
                    .map(|_| text)
                    .map_err(|e| format!("{}: {e}", path.display())),
                None => Ok(text),
            })
        }
    {
        eprintln!("error: {msg}");
        return EXIT_USAGE;
    }
    run_editor(file)
}

#[cfg(feature = "app")]
fn run_editor(file: Option<PathBuf>) -> i32 {
    match crate::app::run(file) {
        Ok(()) => EXIT_OK,
        Err(msg) => {
            eprintln!("error: {msg}");
            EXIT_USAGE
        }
    }
}

#[cfg(not(feature = "app"))]
fn run_editor(_file: Option<PathBuf>) -> i32 {
    eprintln!(
        "error: this skelpad was built without the editor (cargo feature `app`); the commands still work (skelpad --help)"
    );
    EXIT_USAGE
}

/// Reads a script, with a clear message when it cannot be read
/// ([`crate::io::read_script`] in words).
pub fn read_script(path: &Path) -> Result<String, String> {
    crate::io::read_script(path).map_err(|e| e.to_string())
}

/// The skin named `name`, or a message listing the skins there are.
pub fn find_skin(sk: &crate::model::Skeleton, name: &str) -> Result<SkinId, String> {
    sk.skin_by_name(name).ok_or_else(|| {
        let names: Vec<&str> = sk.skins.iter().map(|s| s.name.as_str()).collect();
        format!("no skin named `{name}` (skins: {})", names.join(", "))
    })
}

/// The animation named `name`, or a message listing the animations there are.
pub fn find_animation(arm: &Armature, name: &str) -> Result<AnimId, String> {
    arm.animation_by_name(name).ok_or_else(|| {
        let names: Vec<String> = arm.animations.iter().map(|a| format!("\"{}\"", a.name)).collect();
        format!(
            "no animation named \"{name}\" (animations: {})",
            if names.is_empty() { "none".into() } else { names.join(", ") }
        )
    })
}

/// A progress bar on stderr for work over `len` files: drawn only when
/// stderr is a terminal and there are several files (hidden otherwise, so
/// piped output and logs stay clean). Cleared before the reports print.
pub fn progress_bar(len: usize) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if len < 2 || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} files {elapsed}")
    {
        bar.set_style(style);
    }
    bar
}

/// What checking one file gave, to print in the files' order.
struct Checked {
    /// Exit code of this file alone.
    code: i32,
    /// Bytes for stderr (diagnostics, summary, timings, or the read error).
    human: Vec<u8>,
    /// The file's JSON report (`--format json`).
    json: Option<serde_json::Value>,
}

fn check(files: &[PathBuf], format: Format, timings: bool, lint: bool) -> i32 {
    use rayon::prelude::*;
    let color = format == Format::Human && report::stderr_in_color();
    // Files are checked on every core, unless timed (each then has the
    // machine to itself); the output keeps the files' order either way.
    let bar = progress_bar(files.len());
    let one = |(i, path): (usize, &PathBuf)| {
        let r = check_file(path, format, timings, lint, color, i + 1 == files.len());
        bar.inc(1);
        r
    };
    let results: Vec<Checked> = if timings || files.len() < 2 {
        files.iter().enumerate().map(one).collect()
    } else {
        files.par_iter().enumerate().map(one).collect()
    };
    bar.finish_and_clear();
    let mut code = EXIT_OK;
    let mut json_out = Vec::new();
    let mut err = std::io::stderr().lock();
    for r in results {
        let _ = err.write_all(&r.human);
        json_out.extend(r.json);
        code = match (code, r.code) {
            (EXIT_USAGE, _) | (_, EXIT_USAGE) => EXIT_USAGE,
            (EXIT_ERRORS, _) | (_, EXIT_ERRORS) => EXIT_ERRORS,
            _ => EXIT_OK,
        };
    }
    let _ = err.flush();
    if format == Format::Json {
        let out = serde_json::json!({ "files": json_out });
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    }
    code
}

/// The script at `path` (text `text`) as the one document of the front ends,
/// its pictures read from its folder.
pub fn document(path: &Path, text: String, lint: bool) -> Document {
    Document::new(text, DocOptions { lint }, pictures_in(&crate::io::script_dir(Some(path))))
}

/// A script's pictures, decoded from the files in its folder `dir`.
fn pictures_in(dir: &Path) -> Box<dyn Pictures + Send> {
    Box::new(crate::render::ImageStore::new(dir))
}

/// The language server's pictures: each script's from its folder.
fn picture_source() -> crate::lsp::PictureSource {
    Box::new(|dir: &Path| pictures_in(dir))
}

/// The language server as `skelpad lsp` runs it (pictures read from each
/// script's folder), for callers in process.
pub fn language_server() -> crate::lsp::Server {
    crate::lsp::Server::new(picture_source())
}

/// Checks one file (see [`check`]), with the motion lints when `lint`;
/// `last`: the process ends after it.
fn check_file(
    path: &Path,
    format: Format,
    timings: bool,
    lint: bool,
    color: bool,
    last: bool,
) -> Checked {
    let text = match read_script(path) {
        Ok(t) => t,
        Err(msg) => {
            return Checked {
                code: EXIT_USAGE,
                human: format!("error: {msg}\n").into_bytes(),
                json: None,
            };
        }
    };
    // Parsing alone is timed only when asked: it parses the text a second time.
    let t_parse = if timings {
        let t0 = Instant::now();
        std::hint::black_box(crate::syntax::parse_document(&text));
        t0.elapsed()
    } else {
        std::time::Duration::ZERO
    };
    let t1 = Instant::now();
    let comp = document(path, text, lint);
    let t_compile = t1.elapsed();
    let (text, comp) = comp.into_parts();
    let t2 = Instant::now();
    let anim = (!comp.armature.animations.is_empty()).then_some(AnimId(0));
    let pose = evaluate(&comp.armature, anim, SkinId(0), 0.0);
    let t_pose = t2.elapsed();
    std::hint::black_box(&pose);
    let code = if comp.has_errors() { EXIT_ERRORS } else { EXIT_OK };
    let (mut human, json) = match format {
        Format::Human => (report::render_human(path, &text, &comp.diagnostics, color), None),
        Format::Json => (Vec::new(), Some(report::json_file(path, &text, &comp))),
    };
    if timings {
        let sk = &comp.armature.skeleton;
        human.extend(
            format!(
                "{}: {} bones, {} slots, {} animations — parse {:.3} ms, parse + compile + checks {:.3} ms, one pose {:.1} µs\n",
                path.display(),
                sk.bones.len(),
                sk.slots.len(),
                comp.armature.animations.len(),
                t_parse.as_secs_f64() * 1e3,
                t_compile.as_secs_f64() * 1e3,
                t_pose.as_secs_f64() * 1e6,
            )
            .into_bytes(),
        );
    }
    // After the last file the process ends: returning the compilation's
    // many small blocks one by one would cost more than printing.
    if last {
        std::mem::forget(comp);
    }
    Checked { code, human, json }
}

pub use crate::formats::skf::is_skf;

/// What `skelpad pose` was asked for.
struct PoseOptions<'a> {
    json: bool,
    anim: Option<&'a str>,
    skin: Option<&'a str>,
    times: Option<Vec<f64>>,
    entity: Option<&'a str>,
    draw: bool,
}

/// An input file read into an armature: a script (compiled) or an imported
/// file, with its messages.
pub struct Loaded {
    /// What the file holds (a script: what compiled).
    pub armature: Armature,
    /// Warnings (imports) to print before the output.
    pub warnings: Vec<String>,
    /// Scripts: errors were found (`skelpad check` shows them).
    pub error_count: usize,
    /// Extra members for `pose --json` (an import's entity, looping).
    pub info: serde_json::Map<String, serde_json::Value>,
}

/// Reads FILE as the CLI's commands take it: a Spriter file (`.scml`,
/// `.scon`; `entity` picks one), a SkelForm `.skf` or a script.
pub fn load_input(path: &Path, entity: Option<&str>) -> Result<Loaded, String> {
    if entity.is_some() && crate::formats::spriter::syntax_of(path).is_none() {
        return Err("--entity is for Spriter files (.scml, .scon)".into());
    }
    if is_skf(path) {
        let imported = crate::formats::skf::import::import_path(path)?;
        return Ok(Loaded {
            armature: imported.armature,
            warnings: Vec::new(),
            error_count: 0,
            info: serde_json::Map::new(),
        });
    }
    if crate::formats::spriter::syntax_of(path).is_some() {
        let file = crate::formats::spriter::load(path)?;
        let ent = file.entity(entity)?;
        let mut info = serde_json::Map::new();
        info.insert("entity".into(), ent.name.clone().into());
        let entities: Vec<&str> = file.entities.iter().map(|e| e.name.as_str()).collect();
        info.insert("entities".into(), serde_json::json!(entities));
        let warnings = file.warnings.iter().map(|w| format!("{}: {w}", path.display())).collect();
        return Ok(Loaded { armature: ent.armature.clone(), warnings, error_count: 0, info });
    }
    let text = read_script(path)?;
    let comp: Compilation = compile_checked(&text);
    let error_count = comp.diagnostics.iter().filter(|d| d.is_error()).count();
    Ok(Loaded {
        armature: comp.armature,
        warnings: Vec::new(),
        error_count,
        info: serde_json::Map::new(),
    })
}

fn pose(path: &Path, o: &PoseOptions) -> i32 {
    let loaded = match load_input(path, o.entity) {
        Ok(l) => l,
        Err(msg) => {
            eprintln!("error: {msg}");
            return EXIT_USAGE;
        }
    };
    for w in &loaded.warnings {
        eprintln!("warning: {w}");
    }
    let (json, anim, skin, times) = (o.json, o.anim, o.skin, o.times.clone());
    let arm = &loaded.armature;
    let sk = &*arm.skeleton;
    let skin_id = match skin.map_or(Ok(SkinId(0)), |name| find_skin(sk, name)) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("error: {msg}");
            return EXIT_USAGE;
        }
    };
    let anims: Vec<AnimId> = match anim {
        None => (0..arm.animations.len()).map(AnimId::from_index).collect(),
        Some(name) => match find_animation(arm, name) {
            Ok(a) => vec![a],
            Err(msg) => {
                eprintln!("error: {msg}");
                return EXIT_USAGE;
            }
        },
    };
    if loaded.error_count > 0 {
        let n = loaded.error_count;
        eprintln!(
            "warning: {} has {n} error(s); posing what compiled (run `skelpad check` to see them)",
            path.display()
        );
    }
    let mut out = pose_document_with(arm, &anims, skin_id, times.as_deref(), o.draw);
    if let serde_json::Value::Object(m) = &mut out {
        m.extend(loaded.info.clone());
    }
    let mut stdout = std::io::stdout().lock();
    let written = if json {
        serde_json::to_writer_pretty(&mut stdout, &out)
            .map_err(|e| e.to_string())
            .and_then(|_| writeln!(stdout).map_err(|e| e.to_string()))
    } else {
        report::print_pose_table(&mut stdout, &out).map_err(|e| e.to_string())
    };
    match written {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("error: cannot write the output: {e}");
            EXIT_USAGE
        }
    }
}
