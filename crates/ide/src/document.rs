//! The one document every front end holds: a script's text, its
//! incremental compiler, what the text compiles to, and the options that
//! decide which checks run. `skelpad check` and `skelpad test`, the
//! language server and the editor each keep one [`Document`] per open
//! script, so they report the same diagnostics, in the same order.
//!
//! The diagnostics are, in this order: the compiler's (syntax and
//! semantics), the pose assertions' (`check::expect`), a warning at every
//! picture the script names that cannot be read (asked of the host through
//! [`Pictures`]: the language reads no files), and, when
//! [`Options::lint`] is on, the motion lints (`check::lint`, which keep the
//! list sorted by position). A text that is not a script's (a NUL byte: a
//! binary file opened by mistake) is one error at its start, nothing
//! compiled.
//!
//! [`Document::update`] applies [`TextEdit`]s and compiles again; the
//! compiler reuses what the edits did not touch (one section and one
//! animation for a keystroke in an animation).

use std::sync::Arc;

use skelpad_lang::check;
use skelpad_lang::compile::source::{SkinEntry, SlotDef};
use skelpad_lang::compile::{Compilation, Compiler};
use skelpad_lang::syntax::{Diagnostic, Role, Span};

use crate::text_edit::floor_char;

pub use crate::text_edit::TextEdit;
pub use skelpad_lang::io::Pictures;

/// Which checks a document runs besides compiling.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The motion lints (`skelpad check --lint`, the editor's View → Lint,
    /// the language server's `skelpad.lint` setting).
    pub lint: bool,
}

/// The hint under every picture warning: what the commands that draw do
/// about the picture.
const PICTURE_HINT: &str =
    "`render` leaves this picture out; `export` draws a placeholder in its place";

/// A script, compiled, with its checks (see the module documentation).
pub struct Document {
    text: String,
    compiler: Compiler,
    comp: Compilation,
    options: Options,
    pictures: Box<dyn Pictures + Send>,
    /// The picture warnings last made, kept while the lines that name
    /// pictures are.
    warned: Option<Warned>,
}

/// Picture warnings and the source map's picture lines they were made for.
/// The compiler keeps those lists (the same `Arc`s) while the rig's
/// sections and where they start do not change — a keystroke in an
/// animation after them — and then the names and spans are the same, so
/// the warnings are too; kept here, the lists cannot be freed and their
/// addresses reused.
struct Warned {
    slot_defs: Arc<[SlotDef]>,
    skin_entries: Arc<[SkinEntry]>,
    warnings: Vec<Diagnostic>,
}

impl Document {
    /// Compiles `text` for the first time; its pictures are asked of
    /// `pictures`.
    pub fn new(
        text: impl Into<String>,
        options: Options,
        pictures: Box<dyn Pictures + Send>,
    ) -> Self {
        let text = text.into();
        let mut compiler = Compiler::new();
        let mut pictures = pictures;
        let mut warned = None;
        let comp = compile(&mut compiler, &text, options, &mut *pictures, &mut warned);
        Document { text, compiler, comp, options, pictures, warned }
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// What the text compiles to, with every diagnostic of
    /// [`Document::diagnostics`] in its `diagnostics`.
    pub fn compilation(&self) -> &Compilation {
        &self.comp
    }

    /// The diagnostics, sorted by position (see the module documentation).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.comp.diagnostics
    }

    /// The options the diagnostics were made with.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Changes the options; the text is checked again when they change.
    pub fn set_options(&mut self, options: Options) {
        if self.options != options {
            self.options = options;
            self.recompile();
        }
    }

    /// Asks `pictures` about the script's pictures from now on (the script
    /// moved to another folder), and checks again.
    pub fn set_pictures(&mut self, pictures: Box<dyn Pictures + Send>) {
        self.pictures = pictures;
        self.warned = None;
        self.recompile();
    }

    /// Applies `edits` in order (each span in the text the ones before it
    /// left, its ends ordered, clamped to the text and moved back to the
    /// start of their characters, as the language server's positions are),
    /// then compiles once.
    pub fn update(&mut self, edits: impl IntoIterator<Item = TextEdit>) {
        for e in edits {
            let (a, b) = (e.span.start as usize, e.span.end as usize);
            let (a, b) = (floor_char(&self.text, a.min(b)), floor_char(&self.text, a.max(b)));
            self.text.replace_range(a..b, &e.insert);
        }
        self.recompile();
    }

    /// Applies a feature's answer — edits that all refer to the current
    /// text, as [`crate::text_edit`] says (a rename, a key moved, an
    /// animation duplicated) — then compiles once. [`Document::update`]
    /// is for a client's changes instead, each on the text the ones before
    /// it left.
    pub fn apply(&mut self, edits: &[TextEdit]) {
        if edits.is_empty() {
            return;
        }
        self.text = crate::text_edit::apply(&self.text, edits);
        self.recompile();
    }

    /// Makes the text `text` (one edit of the whole); returns whether it
    /// differed and was compiled.
    pub fn set_text(&mut self, text: &str) -> bool {
        if self.text == text {
            return false;
        }
        text.clone_into(&mut self.text);
        self.recompile();
        true
    }

    /// How many sections and compile units the last compile rebuilt.
    pub fn last_work(&self) -> (usize, usize) {
        (self.compiler.last_parsed_sections, self.compiler.last_compiled_units)
    }

    /// The text and its compilation, the document let go (a command that
    /// ends with them).
    pub fn into_parts(self) -> (String, Compilation) {
        (self.text, self.comp)
    }

    fn recompile(&mut self) {
        // The last compilation's section trees and source map are let go
        // first, so the compiler can edit the edited animation's tree in
        // place and reuse its key list.
        self.comp.sections = Vec::new();
        self.comp.sources = Default::default();
        self.comp = compile(
            &mut self.compiler,
            &self.text,
            self.options,
            &mut *self.pictures,
            &mut self.warned,
        );
    }
}

/// `text` compiled by `compiler`, with its checks (see the module
/// documentation).
fn compile(
    compiler: &mut Compiler,
    text: &str,
    options: Options,
    pictures: &mut dyn Pictures,
    warned: &mut Option<Warned>,
) -> Compilation {
    if let Some(why) = skelpad_lang::io::not_text(text.as_bytes()) {
        let mut comp = compiler.update("");
        comp.diagnostics = vec![Diagnostic::error(Span::new(0, 0), why)];
        return comp;
    }
    let mut comp = compiler.update(text);
    check::expect::check(&mut comp);
    let src = &comp.sources;
    let kept = warned.as_ref().is_some_and(|w| {
        Arc::ptr_eq(&w.slot_defs, &src.slot_defs) && Arc::ptr_eq(&w.skin_entries, &src.skin_entries)
    });
    if !kept {
        *warned = Some(Warned {
            slot_defs: src.slot_defs.clone(),
            skin_entries: src.skin_entries.clone(),
            warnings: picture_warnings(text, &comp, pictures),
        });
    }
    for d in warned.iter().flat_map(|w| w.warnings.iter().cloned()) {
        let at = comp.diagnostics.partition_point(|e| e.span.start <= d.span.start);
        comp.diagnostics.insert(at, d);
    }
    if options.lint {
        check::lint::lint(&mut comp);
    }
    comp
}

/// Every picture name of a script (a string on a slot line or a skin item;
/// an animation's or an expectation's header names no file), with its span
/// (the quotes included), in the text's order.
pub fn picture_names<'t>(text: &'t str, comp: &Compilation) -> Vec<(Span, &'t str)> {
    let mut lines: Vec<Span> = comp.sources.slot_defs.iter().map(|d| d.line).collect();
    lines.extend(comp.sources.skin_entries.iter().map(|e| e.region));
    lines.sort_unstable();
    let mut out = Vec::new();
    for line in lines {
        // The section the line is in, and its tokens on the line.
        let i = comp.sections.partition_point(|(start, _)| *start <= line.start);
        let Some((start, section)) = i.checked_sub(1).and_then(|i| comp.sections.get(i)) else {
            continue;
        };
        let from = section.roles.partition_point(|r| r.span.start + start < line.start);
        for r in &section.roles[from..] {
            let span = r.span.shifted(*start);
            if span.start > line.end {
                break;
            }
            if r.role != Role::String || span.end > line.end {
                continue;
            }
            if let Some(name) = text
                .get(span.range())
                .and_then(|t| t.strip_prefix('"'))
                .and_then(|t| t.strip_suffix('"'))
            {
                out.push((span, name));
            }
        }
    }
    out
}

/// A warning at every picture name whose picture `pictures` cannot read.
fn picture_warnings(
    text: &str,
    comp: &Compilation,
    pictures: &mut dyn Pictures,
) -> Vec<Diagnostic> {
    picture_names(text, comp)
        .into_iter()
        .filter_map(|(span, name)| pictures.read(name).err().map(|why| (span, why)))
        .map(|(span, why)| Diagnostic::warning(span, why).hint(PICTURE_HINT))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pictures that exist when their name starts with "ok".
    struct Named;

    impl Pictures for Named {
        fn read(&mut self, name: &str) -> Result<(), String> {
            if name.starts_with("ok") { Ok(()) } else { Err(format!("no picture {name}")) }
        }
    }

    const RIG: &str = "skeleton\n\tarm l40\n\t\t@face :sprite \"ok.png\"\n\t\t@eye :sprite \"gone.png\"\nskin \"s\"\n\t@face :sprite \"lost.png\"\nanim \"a\"\n\tarm\n\t\tr 0 -> 90\n";

    fn doc(text: &str, lint: bool) -> Document {
        Document::new(text, Options { lint }, Box::new(Named))
    }

    #[test]
    fn every_unreadable_picture_is_a_warning_at_its_name() {
        let d = doc(RIG, false);
        let got: Vec<(&str, &str)> =
            d.diagnostics().iter().map(|d| (&RIG[d.span.range()], d.message.as_str())).collect();
        assert_eq!(
            got,
            [("\"gone.png\"", "no picture gone.png"), ("\"lost.png\"", "no picture lost.png")]
        );
        assert!(d.diagnostics().iter().all(|d| d.hints == [PICTURE_HINT]));
        // Kept through an edit in the animation, made again after one in
        // the rig, gone with pictures that all read.
        let at = RIG.rfind("90").unwrap() as u32;
        let mut d = d;
        d.update([TextEdit::new(Span::new(at, at + 2), "45")]);
        assert_eq!(d.diagnostics().len(), 2);
        let at = RIG.find("lost").unwrap() as u32;
        d.update([TextEdit::new(Span::new(at, at + 4), "ok")]);
        assert_eq!(d.diagnostics().len(), 1);
        struct All;
        impl Pictures for All {
            fn read(&mut self, _: &str) -> Result<(), String> {
                Ok(())
            }
        }
        d.set_pictures(Box::new(All));
        assert!(d.diagnostics().is_empty());
    }

    /// The names as first found (every token of the script against every
    /// picture line): the reference the per-line search is checked against.
    fn picture_names_reference<'t>(text: &'t str, comp: &Compilation) -> Vec<(Span, &'t str)> {
        let mut lines: Vec<Span> = comp.sources.slot_defs.iter().map(|d| d.line).collect();
        lines.extend(comp.sources.skin_entries.iter().map(|e| e.region));
        lines.sort_unstable();
        comp.roles()
            .filter(|r| r.role == Role::String)
            .filter(|r| {
                let i = lines.partition_point(|l| l.start <= r.span.start);
                i > 0 && lines[i - 1].end >= r.span.end
            })
            .filter_map(|r| {
                let t = text.get(r.span.range())?.strip_prefix('"')?.strip_suffix('"')?;
                Some((r.span, t))
            })
            .collect()
    }

    #[test]
    fn picture_names_are_every_string_on_a_picture_line() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/");
        let mut texts: Vec<String> = [
            "conformance/04_slots.skel2d",
            "conformance/05_attachments.skel2d",
            "conformance/07_skins.skel2d",
            "lottie_rigs/baking.skel2d",
            "golden/cases/sprites.skel2d",
            "fixtures/diagnostics/unterminated_sprite_name.skel2d",
        ]
        .iter()
        .map(|f| std::fs::read_to_string(format!("{root}{f}")).unwrap())
        .collect();
        texts.push(RIG.to_string());
        texts.extend(
            skelpad_lang::generate::STYLES
                .iter()
                .map(|(_, style)| skelpad_lang::generate::styled(style, 60, 3)),
        );
        let mut named = 0;
        for text in &texts {
            let comp = skelpad_lang::compile::compile(text);
            let got = picture_names(text, &comp);
            assert_eq!(got, picture_names_reference(text, &comp), "{text}");
            named += got.len();
        }
        assert!(named > 10, "{named} names");
    }

    #[test]
    fn edits_apply_in_order_and_compile_like_the_whole_text() {
        let mut d = doc(RIG, false);
        let at = RIG.find("gone").unwrap() as u32;
        // Replace "gone" with "ok", then (in the new text) add a bone line.
        // (Two bytes earlier once "gone" is "ok".)
        let bone_at = RIG.find("skin").unwrap() as u32 - 2;
        d.update([
            TextEdit::new(Span::new(at, at + 4), "ok"),
            TextEdit::new(Span::new(bone_at, bone_at), "\tleg l9\n"),
        ]);
        let want = RIG.replace("gone", "ok").replacen("\nskin", "\n\tleg l9\nskin", 1);
        assert_eq!(d.text(), want);
        let fresh = doc(&want, false);
        assert_eq!(d.diagnostics(), fresh.diagnostics());
        assert_eq!(d.compilation().armature.skeleton.bones.len(), 2);
        assert_eq!(d.diagnostics().len(), 1, "{:?}", d.diagnostics());
    }

    #[test]
    fn spans_inside_a_character_are_widened_to_it_and_clamped_to_the_text() {
        let mut d = doc("# é\n", false);
        d.update([TextEdit::new(Span::new(3, 3), "x"), TextEdit::new(Span::new(90, 99), "!")]);
        assert_eq!(d.text(), "# xé\n!");
        d.update([TextEdit::new(Span::new(5, 3), "")]);
        assert_eq!(d.text(), "# x\n!");
    }

    #[test]
    fn a_features_edits_all_refer_to_the_text_they_were_made_for() {
        let text = "skeleton\n\tarm l10\nanim \"a\"\n\tarm\n\t\tr 0 -> 10\n";
        let mut d = doc(text, false);
        let at = text.find("arm l10").unwrap() as u32;
        let edits = crate::analysis::rename(text, d.compilation(), at, "limb").unwrap();
        assert_eq!(edits.len(), 2);
        d.apply(&edits);
        assert_eq!(d.text(), text.replace("arm", "limb"));
        assert!(d.diagnostics().is_empty(), "{:?}", d.diagnostics());
        assert!(d.compilation().armature.skeleton.bone_by_name("limb").is_some());
    }

    #[test]
    fn lints_come_and_go_with_the_option_and_binary_text_is_one_error() {
        let text = "skeleton\n\tarm l40\nanim \"a\" 10fps\n\tarm\n\t\tr 0 -> 0\n";
        let mut d = doc(text, false);
        assert!(d.diagnostics().is_empty(), "{:?}", d.diagnostics());
        d.set_options(Options { lint: true });
        assert!(!d.diagnostics().is_empty(), "a still timeline is linted");
        d.set_options(Options { lint: false });
        assert!(d.diagnostics().is_empty());
        assert!(d.set_text("a\0b"));
        assert_eq!(d.diagnostics().len(), 1);
        assert!(d.diagnostics()[0].is_error() && d.diagnostics()[0].span == Span::new(0, 0));
        assert!(!d.set_text("a\0b"));
    }
}
