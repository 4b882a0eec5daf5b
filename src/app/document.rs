//! The open script: its text, where it lives, whether it is saved, and what
//! it compiles to.
//!
//! The buffer is always `\n`-separated; the file's line ending is kept
//! beside it and restored on save. Dirty means the text differs from the saved
//! text. The `Analysis` holds the one `skelpad_ide::document::Document`
//! that `skelpad check` and the language server hold too (so the Problems
//! list is theirs), for the document's life, and picks what the canvas
//! shows.

use std::path::{Path, PathBuf};

use crate::compile::Compilation;
use crate::io::Pictures;
use crate::model::Armature;
use skelpad_ide::document as ide;

use super::files::{self, LineEnding};

/// A number no compilation in this process had before.
///
/// The generation names what the text panel shows: its highlighted layout is
/// cached by it. Counted per document, a freshly opened document started
/// again at 1 — the number of the document it replaced when that one had
/// not been edited — and the panel kept showing the old text's layout while
/// edits went to the new text. One counter for all documents rules that out.
pub fn next_generation() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The compiled form of the text: the one [`ide::Document`] every front
/// end holds (compiler, assertions, picture warnings, lints), and what the
/// canvas shows of it.
pub struct Analysis {
    doc: ide::Document,
    /// Names this compilation: a new number with every compilation, drawn
    /// from one counter for the whole process (see [`next_generation`]), so
    /// no two documents ever share one. Caches key on it.
    pub generation: u64,
    last_clean: Option<Armature>,
    /// What the canvas shows: see [`Analysis::recompile`].
    pub shown: Armature,
    /// Whether [`Analysis::shown`] is the last error-free version rather than
    /// the current one.
    pub shown_is_stale: bool,
    /// An imported file: the text is not compiled, `shown` is set from outside.
    frozen: bool,
    /// The folder the script's pictures are read from.
    picture_dir: PathBuf,
}

/// The pictures of a script in `dir` as the canvas draws them: the files
/// there, or, for a SkelForm file shown in the editor, the pictures cut
/// from its atlas.
fn pictures(dir: &Path, imported: Option<&ImportedView>) -> Box<dyn Pictures + Send> {
    let mut store = crate::render::ImageStore::new(dir);
    if let Some(view) = imported {
        view.imported.load_sprites(&mut store);
    }
    Box::new(store)
}

impl Analysis {
    /// Compiles `text` for the first time, its pictures read from `pictures`
    /// (in folder `dir`).
    fn with_pictures(text: &str, dir: &Path, pictures: Box<dyn Pictures + Send>) -> Self {
        let doc = ide::Document::new(text, ide::Options::default(), pictures);
        let shown = doc.compilation().armature.clone();
        let last_clean = (!doc.compilation().has_armature_errors()).then(|| shown.clone());
        Analysis {
            doc,
            generation: next_generation(),
            last_clean,
            shown,
            shown_is_stale: false,
            frozen: false,
            picture_dir: dir.to_path_buf(),
        }
    }

    /// Compiles `text` for the first time, its pictures read from `dir`.
    pub fn new(text: &str, dir: &Path) -> Self {
        Analysis::with_pictures(text, dir, pictures(dir, None))
    }

    /// The compilation of the current text (diagnostics, source map, lines):
    /// the document's, every front end's diagnostics in it.
    pub fn comp(&self) -> &Compilation {
        self.doc.compilation()
    }

    /// Turns the motion lints (`skelpad check --lint`) on or off; the text
    /// is checked again when that changes, so the warnings come or go at
    /// once.
    pub fn set_lint(&mut self, on: bool) {
        if !self.frozen && self.doc.options().lint != on {
            self.doc.set_options(ide::Options { lint: on });
            self.compiled();
        }
    }

    /// Reads the script's pictures from `dir` from now on (the script was
    /// saved to another folder) and checks them again; nothing when `dir`
    /// is the folder already.
    fn set_picture_dir(&mut self, dir: &Path, imported: Option<&ImportedView>) {
        if !self.frozen && self.picture_dir != dir {
            dir.clone_into(&mut self.picture_dir);
            self.doc.set_pictures(pictures(dir, imported));
            self.compiled();
        }
    }

    /// An analysis that shows `armature` and never compiles (imported files).
    pub fn frozen(armature: Armature) -> Self {
        let mut a = Analysis::new("", Path::new("."));
        a.shown = armature;
        a.frozen = true;
        a
    }

    /// Shows another armature (an imported file's other entity).
    pub fn show(&mut self, armature: Armature) {
        self.shown = armature;
        self.generation = next_generation();
    }

    /// Whether the compilation describes `text` (or is frozen).
    pub fn is_current(&self, text: &str) -> bool {
        self.frozen || self.doc.text() == text
    }

    /// Recompiles if `text` is not the text compiled last; returns whether it did.
    pub fn ensure(&mut self, text: &str) -> bool {
        if self.frozen || self.doc.text() == text {
            return false;
        }
        self.recompile(text);
        true
    }

    /// Compiles `text` (incrementally) and picks what the canvas shows.
    ///
    /// Everything valid in a text with errors still compiles, so normally the
    /// canvas shows the current armature. But a half-typed line can take
    /// things away — a bone whose line is broken, a timeline cut in half —
    /// and showing that would make the picture jump on every keystroke. So
    /// while the text has errors and its armature has lost bones, slots,
    /// animations or channels compared with the last error-free version, the
    /// canvas keeps showing that version.
    pub fn recompile(&mut self, text: &str) {
        self.doc.set_text(text);
        self.compiled();
    }

    /// After the document compiled: a new generation, and what the canvas
    /// shows (see [`Analysis::recompile`]).
    fn compiled(&mut self) {
        self.generation = next_generation();
        let current = &self.doc.compilation().armature;
        // (Failing pose assertions do not make the armature doubtful.)
        if !self.doc.compilation().has_armature_errors() {
            self.last_clean = Some(current.clone());
            self.shown = current.clone();
            self.shown_is_stale = false;
        } else {
            match &self.last_clean {
                Some(clean) if !covers(current, clean) => {
                    self.shown = clean.clone();
                    self.shown_is_stale = true;
                }
                _ => {
                    self.shown = current.clone();
                    self.shown_is_stale = false;
                }
            }
        }
    }

    /// How many sections and compile units the last update rebuilt.
    pub fn last_work(&self) -> (usize, usize) {
        self.doc.last_work()
    }
}

/// Whether `new` has at least everything `old` has: as many bones and slots,
/// and every animation of `old` with at least as many channels.
fn covers(new: &Armature, old: &Armature) -> bool {
    let (ns, os) = (&new.skeleton, &old.skeleton);
    if ns.bones.len() < os.bones.len() || ns.slots.len() < os.slots.len() {
        return false;
    }
    let channels = |a: &crate::model::Animation| {
        a.bones.len() + a.flips.len() + a.slot_colors.len() + a.attachments.len()
    };
    old.animations
        .iter()
        .all(|o| new.animations.iter().any(|n| n.name == o.name && channels(n) >= channels(o)))
}

/// The open script.
pub struct Document {
    /// The buffer, always with `\n` line breaks.
    pub text: String,
    /// Where it is saved; `None` for a new or example buffer.
    pub path: Option<PathBuf>,
    /// A name for a buffer without a path ("untitled", "walk_cycle example").
    pub untitled_name: String,
    /// The line ending the file is saved with (its own, or `\n` for new files).
    pub line_ending: LineEnding,
    /// The text as last loaded or saved: the buffer is dirty when it differs.
    saved_text: String,
    /// What the file on disk is believed to hold, to tell an external change
    /// from the echo of our own save.
    pub disk_text: Option<String>,
    /// The compilation of the buffer, kept up to date as it is edited.
    pub analysis: Analysis,
    /// A SkelForm file shown read-only: the canvas plays the file itself, the
    /// text is its converted script.
    pub imported: Option<Box<ImportedView>>,
    /// A Spriter file opened read-only: its entities and which is shown.
    pub spriter: Option<SpriterView>,
    /// The first compilation of a big file, running on another thread so
    /// the window shows the text at once (see [`Document::poll`]); until it
    /// is taken, `analysis` is an empty placeholder that never compiles.
    pending: Option<std::thread::JoinHandle<Analysis>>,
}

/// A script at least this long (bytes) is first compiled on another
/// thread when it is opened: about 1000 bones, 5–10 ms of compiling. A
/// shorter one compiles before its first frame, so it never shows
/// uncoloured text.
pub const BACKGROUND_COMPILE_BYTES: usize = 128 * 1024;

/// A `.skf` opened in the editor.
pub struct ImportedView {
    /// The file it came from.
    pub source: PathBuf,
    /// The file read into the model; the canvas plays this armature.
    pub imported: crate::formats::skf::import::Imported,
    /// The converted script (the buffer) and its pictures.
    pub converted: crate::formats::skf::convert::Converted,
    /// The pictures' folder named in the script.
    pub sprite_dir: String,
}

/// A Spriter file opened in the editor (read-only).
pub struct SpriterView {
    /// The file as read, every entity built.
    pub file: crate::formats::spriter::SpriterFile,
    /// Index of the entity shown in `file.entities`.
    pub entity: usize,
}

impl SpriterView {
    /// The entity shown (`None` only if the index is out of range).
    pub fn entity(&self) -> Option<&crate::formats::spriter::EntityModel> {
        self.file.entities.get(self.entity)
    }
}

impl Document {
    /// A buffer that is not a file yet.
    pub fn untitled(name: &str, text: &str) -> Self {
        Document::with_analysis(name, text, Analysis::new(text, &crate::io::script_dir(None)))
    }

    /// A buffer that is not a file yet, compiled as `analysis`.
    fn with_analysis(name: &str, text: &str, analysis: Analysis) -> Self {
        Document {
            text: text.to_owned(),
            path: None,
            untitled_name: name.to_owned(),
            line_ending: LineEnding::Lf,
            saved_text: text.to_owned(),
            disk_text: None,
            analysis,
            imported: None,
            spriter: None,
            pending: None,
        }
    }

    /// Reads the pictures from `dir` from now on (the canvas's folder, see
    /// `Drawing::set_image_dir`), an imported file's own pictures kept.
    pub fn set_picture_dir(&mut self, dir: &Path) {
        self.analysis.set_picture_dir(dir, self.imported.as_deref());
    }

    /// Opens a SkelForm file read-only: the canvas shows the file as
    /// SkelForm plays it (IK, meshes, physics); the text is the script
    /// `skelpad convert` would write.
    pub fn open_skf(path: &Path) -> Result<Self, String> {
        use crate::formats::skf::{convert, import};
        let imported = import::import_path(path)?;
        let stem = path
            .file_stem()
            .map_or_else(|| "converted".to_string(), |s| s.to_string_lossy().to_string());
        let sprite_dir = format!("{}_sprites", convert::script_name(&stem));
        let converted = convert::convert(&imported, &sprite_dir);
        let name = path
            .file_name()
            .map_or_else(|| "file.skf".to_string(), |n| n.to_string_lossy().to_string());
        let view =
            Box::new(ImportedView { source: path.to_path_buf(), imported, converted, sprite_dir });
        // The script's pictures are the file's own, as on the canvas.
        let dir = crate::io::script_dir(None);
        let analysis =
            Analysis::with_pictures(&view.converted.script, &dir, pictures(&dir, Some(&view)));
        let mut doc = Document::with_analysis(&name, &view.converted.script, analysis);
        doc.analysis.shown = view.imported.armature.clone();
        doc.imported = Some(view);
        Ok(doc)
    }

    /// Opens a file.
    pub fn open(path: &Path) -> Result<Self, String> {
        if crate::formats::skf::is_skf(path) {
            return Self::open_skf(path);
        }
        let loaded = files::load(path)?;
        if let Some(syntax) = crate::formats::spriter::syntax_of(path) {
            let file = crate::formats::spriter::read_str(&loaded.text, syntax)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let arm = file.entities.first().map(|e| e.armature.clone()).unwrap_or_default();
            let mut doc = Document::untitled("untitled", &loaded.text);
            doc.analysis = Analysis::frozen(arm);
            doc.spriter = Some(SpriterView { file, entity: 0 });
            doc.path = Some(path.to_path_buf());
            doc.line_ending = loaded.line_ending;
            doc.disk_text = Some(loaded.text);
            return Ok(doc);
        }
        let dir = crate::io::script_dir(Some(path));
        let (analysis, pending) = compile_first(&loaded.text, &dir);
        let mut doc = Document::with_analysis("untitled", &loaded.text, analysis);
        doc.pending = pending;
        doc.path = Some(path.to_path_buf());
        doc.line_ending = loaded.line_ending;
        doc.disk_text = Some(loaded.text);
        Ok(doc)
    }

    /// Whether the buffer differs from what was last loaded or saved.
    pub fn is_dirty(&self) -> bool {
        self.text != self.saved_text
    }

    /// The file name, or the untitled name.
    pub fn display_name(&self) -> String {
        match &self.path {
            Some(p) => p
                .file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()),
            None => self.untitled_name.clone(),
        }
    }

    /// The window title: a dot marks unsaved changes.
    pub fn title(&self) -> String {
        let dirty = if self.is_dirty() { "● " } else { "" };
        let folder = self
            .path
            .as_ref()
            .and_then(|p| p.parent())
            .map(|d| format!(" ({})", d.display()))
            .unwrap_or_default();
        format!("{dirty}{}{folder} — skelpad", self.display_name())
    }

    /// Saves to `path` (atomically, in the file's line endings) and makes it
    /// the document's path.
    pub fn save_to(&mut self, path: &Path) -> Result<(), String> {
        files::save(path, &self.text, self.line_ending)?;
        self.path = Some(path.to_path_buf());
        self.saved_text.clone_from(&self.text);
        self.disk_text = Some(self.text.clone());
        Ok(())
    }

    /// Replaces the buffer with the file's new contents (an external change).
    /// Shows entity `i` of an imported file.
    pub fn set_entity(&mut self, i: usize) {
        if let Some(imp) = &mut self.spriter
            && let Some(e) = imp.file.entities.get(i)
        {
            imp.entity = i;
            self.analysis.show(e.armature.clone());
        }
    }

    /// Takes the file's text as read from disk again (changed by another
    /// program): the buffer becomes it and counts as saved; a Spriter file is
    /// read again and shows the entity at the same index (the last one if
    /// there are fewer now).
    pub fn reload(&mut self, loaded: files::Loaded) {
        if let (Some(imp), Some(path)) = (&self.spriter, &self.path)
            && let Some(syntax) = crate::formats::spriter::syntax_of(path)
            && let Ok(file) = crate::formats::spriter::read_str(&loaded.text, syntax)
        {
            let entity = imp.entity.min(file.entities.len().saturating_sub(1));
            self.spriter = Some(SpriterView { file, entity });
            self.set_entity(entity);
        }
        self.text.clone_from(&loaded.text);
        self.saved_text.clone_from(&loaded.text);
        self.line_ending = loaded.line_ending;
        self.disk_text = Some(loaded.text);
        self.analysis.ensure(&self.text);
    }

    /// Replaces the buffer with text that is not saved anywhere yet (a
    /// recovered buffer): the document is dirty afterwards.
    pub fn restore_unsaved(&mut self, text: &str) {
        self.text = text.to_owned();
        self.analysis.ensure(&self.text);
    }

    /// Keeps the compilation in step with the buffer; returns whether it
    /// recompiled.
    pub fn sync(&mut self) -> bool {
        self.analysis.ensure(&self.text)
    }

    /// Whether the first compilation still runs on another thread.
    pub fn is_compiling(&self) -> bool {
        self.pending.is_some()
    }

    /// Takes the first compilation when it has finished (or, with `wait`,
    /// waits for it) and brings it up to the buffer (edits made meanwhile
    /// are compiled incrementally). Returns whether it took one.
    pub fn poll(&mut self, wait: bool) -> bool {
        if self.pending.as_ref().is_none_or(|h| !wait && !h.is_finished()) {
            return false;
        }
        let Some(handle) = self.pending.take() else { return false };
        let dir = self.analysis.picture_dir.clone();
        self.analysis = match handle.join() {
            Ok(analysis) => analysis,
            // The compiler never panics on any input (fuzzed); should it,
            // the text is compiled here instead, and the panic shows.
            Err(_) => Analysis::new(&self.text, &dir),
        };
        self.analysis.ensure(&self.text);
        true
    }
}

/// The first compilation of `text`: done here for a short script; for a
/// long one, an empty placeholder and the compilation running on another
/// thread (done here if no thread can be started).
fn compile_first(text: &str, dir: &Path) -> (Analysis, Option<std::thread::JoinHandle<Analysis>>) {
    if text.len() >= BACKGROUND_COMPILE_BYTES {
        let (owned, folder) = (text.to_owned(), dir.to_path_buf());
        let spawned = std::thread::Builder::new()
            .name("first compile".into())
            .spawn(move || Analysis::new(&owned, &folder));
        if let Ok(handle) = spawned {
            let mut placeholder = Analysis::new("", dir);
            placeholder.frozen = true;
            return (placeholder, Some(handle));
        }
    }
    (Analysis::new(text, dir), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RIG: &str =
        "skeleton\n\tarm l40\n\t\t@ :rect w10 h4\n\tleg l30\nanim \"a\"\n\tarm\n\t\tr 0 -> 90\n";

    #[test]
    fn a_broken_line_keeps_the_last_clean_version_on_the_canvas() {
        let mut a = Analysis::new(RIG, Path::new("."));
        assert_eq!(a.shown.skeleton.bones.len(), 2);
        // Break the `leg` line: the bone disappears from the current armature.
        a.ensure(&RIG.replace("\tleg l30", "\t leg l30"));
        assert!(a.comp().has_errors());
        assert_eq!(a.comp().armature.skeleton.bones.len(), 1);
        assert_eq!(a.shown.skeleton.bones.len(), 2);
        assert!(a.shown_is_stale);
        // An error that loses nothing shows the current armature.
        a.ensure(&RIG.replace("l30", "l30 zz"));
        assert!(a.comp().has_errors());
        assert!(!a.shown_is_stale);
        assert_eq!(a.shown.skeleton.bones.len(), 2);
    }

    #[test]
    fn dirty_follows_the_saved_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.skel2d");
        let mut doc = Document::untitled("untitled", RIG);
        assert!(!doc.is_dirty());
        doc.text.push('\n');
        assert!(doc.is_dirty());
        assert!(doc.title().starts_with('●'));
        doc.save_to(&path).unwrap();
        assert!(!doc.is_dirty());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), doc.text);
        assert!(doc.title().starts_with("a.skel2d"));
    }

    #[test]
    fn a_big_file_compiles_on_another_thread_and_edits_made_meanwhile_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.skel2d");
        let text = crate::generate::script(2000, 2);
        assert!(text.len() >= BACKGROUND_COMPILE_BYTES, "{} bytes", text.len());
        std::fs::write(&path, &text).unwrap();
        let mut doc = Document::open(&path).unwrap();
        // Until it is taken, the placeholder shows nothing and never compiles.
        assert!(doc.is_compiling());
        assert!(doc.analysis.shown.skeleton.bones.is_empty());
        // An edit before it is taken (whether or not the thread is done:
        // it is taken only by `poll`), which removes the first bone line.
        let first_bone = text.find("\n\tb0 ").unwrap() + 1;
        let line_end = first_bone + text[first_bone..].find('\n').unwrap() + 1;
        doc.text.replace_range(first_bone..line_end, "");
        assert!(!doc.sync(), "the placeholder does not compile");
        assert!(doc.poll(true));
        assert!(!doc.is_compiling());
        let fresh = crate::compile::compile(&doc.text);
        assert_eq!(doc.analysis.comp().armature.skeleton.bones, fresh.armature.skeleton.bones);
        assert_eq!(doc.analysis.comp().diagnostics, fresh.diagnostics);
        assert!(doc.analysis.is_current(&doc.text));
        // A short file compiles at once.
        std::fs::write(&path, RIG).unwrap();
        let small = Document::open(&path).unwrap();
        assert!(!small.is_compiling());
        assert_eq!(small.analysis.shown.skeleton.bones.len(), 2);
    }
}
