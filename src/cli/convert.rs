//! `skelpad convert FILE -o OUT.skel2d`: another tool's file → an editable
//! script. One subcommand for every format, chosen by the input's extension:
//! SkelForm `.skf` ([`crate::formats::skf::convert`]), Spriter `.scml`/`.scon`
//! ([`crate::formats::spriter::script`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;

use super::{EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::formats::spriter;

/// Arguments of `skelpad convert`.
#[derive(Args, Debug, Clone, PartialEq)]
pub struct ConvertArgs {
    /// The file to convert (SkelForm `.skf`, Spriter `.scml`/`.scon`).
    pub file: PathBuf,
    /// The script to write; pictures of a `.skf` go into the folder
    /// `OUT_sprites` beside it (a Spriter file's pictures are named where
    /// they are: write the script beside the Spriter file).
    #[arg(short = 'o', long = "output", value_name = "OUT.skel2d")]
    pub output: PathBuf,
    /// Spriter files: the entity (default: the first).
    #[arg(long, value_name = "NAME")]
    pub entity: Option<String>,
}

/// Runs `skelpad convert`, messages on `err`.
pub fn run(args: &ConvertArgs, err: &mut dyn Write) -> i32 {
    if spriter::syntax_of(&args.file).is_some() {
        return run_spriter(args, err);
    }
    if args.entity.is_some() {
        let _ = writeln!(err, "error: --entity is for Spriter files (.scml, .scon)");
        return EXIT_USAGE;
    }
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
        return Err(format!(
            "`{}`: convert reads SkelForm (.skf) and Spriter (.scml, .scon) files",
            args.file.display()
        ));
    }
    let imported = crate::formats::skf::import::import_path(&args.file)?;
    let stem = args
        .output
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "converted".into());
    let sprite_dir = format!("{}_sprites", crate::formats::skf::convert::script_name(&stem));
    let converted = crate::formats::skf::convert::convert(&imported, &sprite_dir);
    // Every sprite path was built from sanitized single components under `sprite_dir`.
    debug_assert!(converted.sprites.iter().all(|(rel, ..)| {
        Path::new(rel).components().all(|c| matches!(c, std::path::Component::Normal(_)))
    }));
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
        let _ =
            writeln!(err, "warning: the script has {errors} error(s); run `skelpad check` on it");
    }
    if !converted.not_carried.is_empty() {
        let _ = writeln!(err, "could not carry over exactly:");
        for (what, n) in &converted.not_carried {
            let _ = writeln!(err, "  {n:>5} × {what}");
        }
    }
    Ok(())
}

/// A Spriter file → a script. Exit codes: 0 written, 1 the script made
/// has errors (a bug; nothing written), 2 bad input or output.
fn run_spriter(args: &ConvertArgs, err: &mut dyn Write) -> i32 {
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
        let others: Vec<String> = file
            .entities
            .iter()
            .filter(|e| e.name != ent.name)
            .map(|e| format!("\"{}\"", e.name))
            .collect();
        let _ = writeln!(
            err,
            "note: converting entity \"{}\"; the file also has {} (--entity NAME)",
            ent.name,
            others.join(", ")
        );
    }
    // The script looks its pictures up in its own folder: every path the
    // Spriter file names (relative to the file) is rewritten relative to
    // the output's folder, so the script finds them wherever it is written.
    let from = crate::io::script_dir(Some(&args.file));
    let to = crate::io::script_dir(Some(&args.output));
    let ent = &rebase_images(ent, &from, &to);
    let sizes = |img: &str| image::image_dimensions(to.join(img)).ok();
    let extras = not_played(ent);
    let conv = spriter::script::to_script(ent, &extras, &sizes);
    // The script must compile without errors (the converter's own check).
    let comp = crate::compile::compile(&conv.script);
    if comp.has_errors() {
        let _ = write!(
            err,
            "{}",
            super::report::render_plain(&args.output, &conv.script, &comp.diagnostics)
        );
        let _ = writeln!(
            err,
            "error: the converted script has errors (a bug in skelpad); nothing was written"
        );
        return EXIT_ERRORS;
    }
    if let Err(e) = crate::io::write_atomic(&args.output, conv.script.as_bytes()) {
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

/// `ent` with every sprite picture's path (relative to the folder `from`)
/// made relative to the folder `to`.
fn rebase_images(ent: &spriter::EntityModel, from: &Path, to: &Path) -> spriter::EntityModel {
    use crate::model::AttachmentKind;
    let mut ent = ent.clone();
    let sk = std::sync::Arc::make_mut(&mut ent.armature.skeleton);
    let rebase = |kind: &mut AttachmentKind| {
        if let AttachmentKind::Sprite { image: Some(img), .. } = kind {
            *img = relative_path(&from.join(&*img), to);
        }
    };
    for a in &mut sk.contents {
        rebase(&mut a.kind);
    }
    for skin in &mut sk.skins {
        for (_, a) in &mut skin.replaced {
            rebase(&mut a.kind);
        }
    }
    ent
}

/// `target` as a path relative to the folder `base`, with `/` between its
/// parts (both made absolute and `..` resolved by name first; the absolute
/// path when they share no root, e.g. two Windows drives).
pub fn relative_path(target: &Path, base: &Path) -> String {
    let (Ok(t), Ok(b)) = (std::path::absolute(target), std::path::absolute(base)) else {
        return target.to_string_lossy().into_owned();
    };
    let (t, b) = (normal_parts(&t), normal_parts(&b));
    let common = t.iter().zip(&b).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return target.to_string_lossy().into_owned();
    }
    let mut parts: Vec<String> = vec!["..".to_owned(); b.len() - common];
    parts.extend(t[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    parts.join("/")
}

/// The parts of an absolute path with `.` dropped and `..` applied by name.
fn normal_parts(p: &Path) -> Vec<std::path::Component<'_>> {
    use std::path::Component;
    let mut out: Vec<Component<'_>> = Vec::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

/// What the entity holds that the script cannot: sounds, tags,
/// variables, boxes, points, sub-entities.
fn not_played(ent: &spriter::EntityModel) -> Vec<String> {
    use crate::model::SpriterCurveKind::{Bezier, Quartic, Quintic};
    let mut out = Vec::new();
    for (a, ex) in ent.armature.animations.iter().zip(&ent.extras) {
        let n = &a.name;
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
        let kind_of = |k: &crate::model::Key<f64>| match k.curve {
            crate::model::Curve::Spriter(c) => Some(c.kind),
            _ => None,
        };
        let all = || a.time_warp.iter().chain(a.bones.iter().flat_map(|c| &c.keys));
        if all().any(|k| matches!(kind_of(k), Some(Quartic | Quintic))) {
            out.push(format!(
                "animation \"{n}\": quartic and quintic curves (no cubic-bezier easing equals \
                 them; became per-frame keys)"
            ));
        }
        if all().any(|k| kind_of(k) == Some(Bezier)) {
            out.push(format!(
                "animation \"{n}\": bezier curves are taken exactly (as `bz(…)` easings); \
                 Spriter's runtimes solve them only to 1/200 of a key's span in time"
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::relative_path;
    use std::path::Path;

    #[test]
    fn relative_paths_between_folders() {
        let r = |t: &str, b: &str| relative_path(Path::new(t), Path::new(b));
        assert_eq!(r("/a/in/x.png", "/a/other/dir"), "../../in/x.png");
        assert_eq!(r("/a/in/x.png", "/a/in"), "x.png");
        assert_eq!(r("/a/in/../in/sub/x.png", "/a/in/."), "sub/x.png");
        assert_eq!(r("/a/x.png", "/a/b/c/d"), "../../../x.png");
    }
}
