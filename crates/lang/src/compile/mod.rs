//! Syntax trees → [`Armature`], incrementally.
//!
//! The document is split into top-level sections. Each section's tree is
//! cached on its text; the rig (skeleton, skin and order sections) is rebuilt
//! only when one of those trees changes, and each animation only when its own
//! sections or the rig's names change (animations read nothing else of it). Editing inside one animation therefore
//! re-parses one section and recompiles one animation, and inside that
//! section's items only the edited items (`splice`): their lines are
//! parsed alone and spliced into the section's last tree, and the
//! animation is recompiled from its last output, the untouched items'
//! parts taken over. Editing inside the skeleton's bone lines likewise
//! re-parses only the edited bone lines, then rebuilds the rig.
//!
//! This file holds the one-shot [`compile`] and what a compile returns
//! ([`Compilation`]); the incremental [`Compiler`] is `incremental`, the
//! rig `rig`, the animations `anim`.
//!
//! The job: merge sections exactly as the original tool does (reopened
//! bones, merged attachments, implicit parents, skins as the default
//! attachments with some replaced, draw order, merged animations) and resolve
//! names (`names`). Besides the armature, a compile returns the source map
//! (`source`) and the token roles: together they are the one place the rest
//! of the program learns about the language. Diagnostics leave this stage in
//! document offsets, sorted by position.
//!
//! Threads ([`Threads`]): sections parse independently of each other, and
//! animations compile independently once the rig's names are known, so an
//! update shares those out on rayon's pool; ids, results and the order they
//! are stored in do not depend on which thread did what.

mod anim;
pub mod blend;
mod delta;
pub mod expect;
pub mod ik;
mod incremental;
pub mod modifiers;
pub mod names;
mod rig;
pub mod source;
mod splice;
pub mod springs;

pub use anim::KeyList;
pub use incremental::Compiler;
pub use source::{
    BoneDef, IkSource, ItemSource, KeyOrigin, KeySource, OrderEntry, PropKey, PropSource,
    Reference, SkinEntry, SlotDef, SourceMap, Target, TimelineSource,
};

use std::sync::Arc;

use crate::model::Armature;
use crate::syntax::tree::{Section, SectionKind};
use crate::syntax::{Diagnostic, LineIndex, TokenRole};

/// Position of a section inside the list a compile unit was built from.
pub type Ordinal = usize;
/// A diagnostic whose span is relative to the start of a section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalDiag {
    /// The section's position in the list the compile unit was built from.
    pub ord: Ordinal,
    /// The diagnostic, its span relative to the start of that section.
    pub diag: Diagnostic,
}

/// The result of compiling a document.
#[derive(Clone, Debug)]
pub struct Compilation {
    /// Everything valid in the document, compiled.
    pub armature: Armature,
    /// Every problem found, sorted by position; spans are document offsets.
    pub diagnostics: Vec<Diagnostic>,
    /// Where each bone, slot and attachment is defined in the document.
    pub sources: SourceMap,
    /// Line starts of the document, to turn offsets into lines and columns.
    pub lines: LineIndex,
    /// Each section's tree with the document offset it starts at (its
    /// spans, token roles included, are relative to that offset).
    pub sections: Vec<(u32, Arc<Section>)>,
    /// Roles of the comments before the first section (which belong to no
    /// section), in document offsets.
    pub leading_roles: Vec<TokenRole>,
    /// The pose assertions (`expect` sections), resolved, in document order
    /// and offsets; [`crate::check::expect::check`] evaluates them.
    pub pose_checks: Vec<expect::PoseCheck>,
    /// Every pose assertion (`expect` line) and whether it held, in
    /// document order, once [`crate::check::expect::check`] has run (empty
    /// before); its failures are then also errors in `diagnostics`.
    pub expectations: Vec<expect::ExpectResult>,
}

impl Compilation {
    /// Whether any diagnostic is an error (warnings do not count).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Errors outside `expect` sections: what can change the armature
    /// (a failing pose assertion does not).
    pub fn has_armature_errors(&self) -> bool {
        let expect_starts: Vec<(u32, u32)> = self
            .sections
            .iter()
            .enumerate()
            .filter(|(_, (_, s))| matches!(s.kind, SectionKind::Expect(_)))
            .map(|(i, (start, _))| (*start, self.sections.get(i + 1).map_or(u32::MAX, |n| n.0)))
            .collect();
        self.diagnostics.iter().any(|d| {
            d.is_error()
                && !expect_starts.iter().any(|&(a, b)| a <= d.span.start && d.span.start < b)
        })
    }

    /// The role of every token of the document, in document offsets and in
    /// order (see [`crate::syntax::Role`]).
    pub fn roles(&self) -> impl Iterator<Item = TokenRole> + '_ {
        let sections = self.sections.iter().flat_map(|(start, s)| {
            s.roles.iter().map(move |r| TokenRole { span: r.span.shifted(*start), role: r.role })
        });
        self.leading_roles.iter().copied().chain(sections)
    }
}

/// Compiles a document from scratch.
///
/// ```
/// let comp = skelpad_lang::compile::compile("skeleton\n\tarm l20\n\tarm.hand x20\n");
/// assert!(comp.diagnostics.is_empty());
/// let sk = &comp.armature.skeleton;
/// assert_eq!(sk.bones.len(), 2);
/// assert_eq!(sk.bones[1].name, "arm.hand");
/// ```
pub fn compile(text: &str) -> Compilation {
    Compiler::one_shot().update(text)
}

/// Whether a compile shares its work out among threads (rayon's pool).
///
/// The sections of a document are parsed independently of each other, and
/// its animations compiled independently once the rig's names are known: with enough
/// text, they are spread over the pool's threads. The result is the same
/// either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threads {
    /// Several threads when there are at least two pieces of work and
    /// [`Threads::MIN_SHARED_BYTES`] of text among them (below that, waking
    /// the pool costs more than it saves).
    #[default]
    Auto,
    /// The calling thread only.
    One,
    /// Several threads whenever there are two pieces of work, and a
    /// skeleton section parsed in two halves whatever its length (for
    /// tests: every path that shares work, on small scripts).
    Always,
}

impl Threads {
    /// The least text, in bytes, that [`Threads::Auto`] shares out.
    pub const MIN_SHARED_BYTES: usize = 64 * 1024;

    /// Whether `pieces` pieces of work over `bytes` of text are shared out.
    fn share(self, pieces: usize, bytes: usize) -> bool {
        match self {
            Threads::One => false,
            Threads::Auto => pieces >= 2 && bytes >= Self::MIN_SHARED_BYTES,
            Threads::Always => pieces >= 2,
        }
    }
}
