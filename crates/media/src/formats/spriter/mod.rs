//! Spriter files (`.scml` XML, `.scon` JSON) → the shared model.
//!
//! [`tree`] reads either syntax into one element tree, [`read`] turns it
//! into Spriter's own data with every check, [`build`] makes one
//! [`Armature`](skelpad_lang::model::Armature) per entity that the runtime plays
//! as SpriterPlusPlus does (`Composition::Spriter`). Bad input is an
//! `Err` message (the file cannot be read as Spriter at all) or a located
//! [`Warning`] (the rest still plays); nothing panics.
//!
//! `read` reports bad numbers, missing ids, keys out of order and lengths,
//! each as a located warning. `build` (with `build/anim.rs` and
//! `build/keys.rs`) makes a bone per bone timeline name, a bone and slot per
//! sprite and an attachment per image and pivot; timeline keys become
//! absolute channels with spin unwrapped and SpriterPlusPlus's proxy and wrap
//! keys, and a timeline whose mainline refs name keys a time search would not
//! find is keyed per mainline span from the ref's key. `script` writes an
//! entity as a script for `skelpad convert` (keys from world transforms, so
//! Spriter's parent rule, reparenting and inherited alpha carry over;
//! [`super::curves`] writes a bone's quadratic, cubic and bezier spans as `bz(…)`
//! easings, and curves the language lacks become per-frame keys). Proof:
//! `tests/suite/spriter_reference.rs`, against SpriterPlusPlus's own output
//! (`scripts/spriter-reference.sh`).

pub mod build;
pub mod read;
pub mod script;
pub mod tree;

use std::fmt;
use std::path::Path;

pub use build::{AnimExtras, EntityModel};

/// A problem that does not stop the file from playing, with where it is
/// (`line L:C` in SCML, a JSON path in SCON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// Where: `line L:C` (SCML) or a JSON path (SCON); empty when the
    /// problem belongs to no one place.
    pub at: String,
    /// What is wrong and what was done instead, for people.
    pub message: String,
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.at.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.at, self.message)
        }
    }
}

/// A Spriter file read into the model.
#[derive(Clone, Debug)]
pub struct SpriterFile {
    /// One model per entity, in file order (at least one).
    pub entities: Vec<EntityModel>,
    /// Everything read with a problem, in the order found.
    pub warnings: Vec<Warning>,
    /// The file's data as Spriter holds it, before it became models.
    pub doc: read::Doc,
}

impl SpriterFile {
    /// The entity named `name`, or a message listing the names there are.
    pub fn entity(&self, name: Option<&str>) -> Result<&EntityModel, String> {
        match name {
            None => self.entities.first().ok_or_else(|| "the file has no entity".to_string()),
            Some(n) => self.entities.iter().find(|e| e.name == n).ok_or_else(|| {
                let names: Vec<String> =
                    self.entities.iter().map(|e| format!("\"{}\"", e.name)).collect();
                format!("no entity named \"{n}\" (entities: {})", names.join(", "))
            }),
        }
    }
}

/// Which syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// SCML: XML, every value an attribute string.
    Scml,
    /// SCON: JSON with the same tree (some numbers written as strings).
    Scon,
}

/// `Some` for paths ending in `.scml` or `.scon` (any case).
pub fn syntax_of(path: &Path) -> Option<Syntax> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    match ext.as_str() {
        "scml" => Some(Syntax::Scml),
        "scon" => Some(Syntax::Scon),
        _ => None,
    }
}

/// Files larger than this are refused (the largest real files are a few MB).
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Reads Spriter text.
pub fn read_str(text: &str, syntax: Syntax) -> Result<SpriterFile, String> {
    let root = match syntax {
        Syntax::Scml => tree::from_xml(text)?,
        Syntax::Scon => tree::from_json(text)?,
    };
    let mut warnings = Vec::new();
    let doc = read::read_doc(&root, &mut warnings)?;
    let entities = build::build(&doc, &mut warnings);
    Ok(SpriterFile { entities, warnings, doc })
}

/// Reads a `.scml`/`.scon` file (images are not loaded here; they are
/// named relative to the file's folder).
pub fn load(path: &Path) -> Result<SpriterFile, String> {
    let syntax = syntax_of(path)
        .ok_or_else(|| format!("`{}` is not a .scml or .scon file", path.display()))?;
    let meta = std::fs::metadata(path).map_err(|e| {
        format!("cannot read `{}`: {}", path.display(), skelpad_lang::io::reason(&e))
    })?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "`{}` is {} bytes; Spriter files over {MAX_FILE_BYTES} bytes are refused",
            path.display(),
            meta.len()
        ));
    }
    let text = skelpad_lang::io::read_script(path).map_err(|e| e.to_string())?;
    read_str(&text, syntax).map_err(|e| format!("{}: {e}", path.display()))
}

/// The same armature with every picture centered on its attachment origin
/// (pivot `[0.5, 0.5]`) and the pivot moved into the attachment transform,
/// for writers whose pictures are centered (SkelForm). Image sizes are read
/// from the files' headers in `dir`; a picture whose size cannot be read
/// keeps its pivot and is named in the returned messages.
pub fn center_pictures(
    arm: &skelpad_lang::model::Armature,
    dir: &Path,
) -> (skelpad_lang::model::Armature, Vec<String>) {
    use skelpad_lang::model::{AttachmentKind, AttachmentTransform};
    let mut sk = (*arm.skeleton).clone();
    let mut sizes: std::collections::HashMap<String, Option<(u32, u32)>> =
        std::collections::HashMap::new();
    let mut problems = Vec::new();
    let replaced = sk.skins.iter_mut().flat_map(|skin| skin.replaced.iter_mut().map(|(_, a)| a));
    for att in sk.contents.iter_mut().chain(replaced) {
        let AttachmentKind::Sprite { image: Some(img), pivot } = &mut att.kind else {
            continue;
        };
        if *pivot == [0.5, 0.5] {
            continue;
        }
        let size = *sizes
            .entry(img.clone())
            .or_insert_with(|| image::image_dimensions(dir.join(&*img)).ok());
        let Some((w, h)) = size else {
            problems.push(format!("cannot read the size of `{img}`; its pivot is lost"));
            continue;
        };
        let (dx, dy) = ((0.5 - pivot[0]) * f64::from(w), (0.5 - pivot[1]) * f64::from(h));
        let m = att.transform.matrix() * skelpad_lang::model::Affine::translate(dx, dy);
        let t = att.transform;
        att.transform = AttachmentTransform { x: m.translation().x, y: m.translation().y, ..t };
        *pivot = [0.5, 0.5];
    }
    problems.sort();
    problems.dedup();
    (
        skelpad_lang::model::Armature {
            skeleton: std::sync::Arc::new(sk),
            animations: arm.animations.clone(),
        },
        problems,
    )
}
