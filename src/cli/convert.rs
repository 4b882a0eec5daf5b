//! `skelpad convert FILE -o OUT.skel2d`: another tool's file → a script,
//! by the input's extension. Spriter (`.scml`, `.scon`): see
//! [`crate::formats::spriter::script`]. What the language cannot express
//! is printed; the script written always checks clean.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::formats::spriter;

/// Arguments of `skelpad convert`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct ConvertArgs {
    /// The file to convert: a Spriter file (.scml/.scon).
    pub file: PathBuf,
    /// The script to write (replaced atomically).
    #[arg(short = 'o', long = "output", value_name = "OUT.skel2d")]
    pub output: PathBuf,
    /// Spriter files: the entity (default: the first).
    #[arg(long, value_name = "NAME")]
    pub entity: Option<String>,
}

/// Runs a conversion; messages go to `err`. Exit codes: 0 written, 1 the
/// script made has errors (a bug; nothing written), 2 bad input or output.
pub fn run(args: &ConvertArgs, err: &mut dyn Write) -> i32 {
    if spriter::syntax_of(&args.file).is_none() {
        let _ = writeln!(err, "error: `{}`: convert reads Spriter files (.scml, .scon)", args.file.display());
        return EXIT_USAGE;
    }
    let file = match spriter::load(&args.file) {
        Ok(f) => f,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_USAGE;
        }
    };
    for w in &file.warnings {
        let _ = writeln!(err, "warning: {}: {w}", args.file.display());
    }
    let ent = match file.entity(args.entity.as_deref()) {
        Ok(e) => e,
        Err(msg) => {
            let _ = writeln!(err, "error: {msg}");
            return EXIT_USAGE;
        }
    };
    if file.entities.len() > 1 {
        let others: Vec<String> = file.entities.iter().filter(|e| e.name != ent.name).map(|e| format!("\"{}\"", e.name)).collect();
        let _ = writeln!(err, "note: converting entity \"{}\"; the file also has {} (--entity NAME)", ent.name, others.join(", "));
    }
    let dir = args.file.parent().map(Path::to_path_buf).unwrap_or_default();
    let sizes = |img: &str| image::image_dimensions(dir.join(img)).ok();
    let extras = not_played(ent);
    let conv = spriter::script::to_script(ent, &extras, &sizes);
    // The script must compile without errors (the converter's own check).
    let comp = crate::compile::compile(&conv.script);
    if comp.has_errors() {
        let _ = write!(err, "{}", super::report::render_plain(&args.output, &conv.script, &comp.diagnostics));
        let _ = writeln!(err, "error: the converted script has errors (a bug in skelpad); nothing was written");
        return EXIT_ERRORS;
    }
    if let Err(e) = crate::formats::atomic::write_atomic(&args.output, conv.script.as_bytes()) {
        let _ = writeln!(err, "error: cannot write `{}`: {e}", args.output.display());
        return EXIT_USAGE;
    }
    if !conv.lost.is_empty() {
        let _ = writeln!(err, "not converted (the language cannot express it):");
        for l in &conv.lost {
            let _ = writeln!(err, "  - {l}");
        }
    }
    let _ = writeln!(err, "wrote `{}`", args.output.display());
    EXIT_OK
}

/// What the entity holds that the script cannot: events, sounds, tags,
/// variables, boxes, points, sub-entities.
fn not_played(ent: &spriter::EntityModel) -> Vec<String> {
    let mut out = Vec::new();
    for (a, ex) in ent.armature.animations.iter().zip(&ent.extras) {
        let n = &a.name;
        if !ex.events.is_empty() {
            out.push(format!("animation \"{n}\": {} event key(s)", ex.events.len()));
        }
        if !ex.sounds.is_empty() {
            out.push(format!("animation \"{n}\": {} sound key(s)", ex.sounds.len()));
        }
        if !ex.tags.is_empty() {
            out.push(format!("animation \"{n}\": {} tag key(s)", ex.tags.len()));
        }
        if ex.variable_keys > 0 {
            out.push(format!("animation \"{n}\": {} variable key(s)", ex.variable_keys));
        }
        for (ty, name) in &ex.unplayed_objects {
            out.push(format!("animation \"{n}\": {ty} \"{name}\""));
        }
        if a.time_warp.iter().any(|k| k.curve != crate::model::Curve::LINEAR && k.curve != crate::model::Curve::Stepped) {
            out.push(format!("animation \"{n}\": mainline curves (became per-frame keys)"));
        }
        let spriter_curves = a.bones.iter().flat_map(|c| &c.keys).any(|k| matches!(k.curve, crate::model::Curve::Spriter(_)));
        if spriter_curves {
            out.push(format!("animation \"{n}\": Spriter curves (quadratic … bezier; became per-frame keys)"));
        }
    }
    out
}
