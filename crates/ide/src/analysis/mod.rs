//! The language features, answered from a [`Compilation`]: the parser's
//! token roles and the compiler's source map say what every token is and
//! what every name resolved to. Hover ([`hover()`]), definition, references
//! and rename ([`definition`], [`references`], [`rename`] of a bone or an
//! animation), and
//! symbols ([`symbols()`]) resolve no name and
//! parse no line again. Two features read the text themselves: formatting
//! ([`format()`]) works line by line on indentation and trailing blanks
//! only, and completion ([`complete()`]) reads the cursor's line (its depth,
//! the word under the cursor and the tokens before it), since the line being
//! typed is usually incomplete; the words it proposes come from the
//! language's vocabulary ([`skelpad_lang::syntax::vocab`]), the table the parser
//! reads them with.
//!
//! Everything here is in the language's own terms: byte offsets and
//! [`Span`]s, plain strings, and kinds of this module's own. The language
//! server (`crate::lsp`) converts them to LSP's positions and kinds at its
//! edge; the editor (`skelpad::app`) uses them as they are.
//!
//! The features live in a folder each: `hover`, `names` (definition,
//! references, rename: a cursor on a middle segment of a dotted name means
//! that ancestor bone), `symbols`, `format` (indentation and trailing blanks,
//! of the document or of the whole lines a range touches, `format_range`) and
//! `complete` (its context from the section trees and the source map, the
//! shortest unambiguous names from the compiler's `NameIndex`; a section
//! header offers the names other sections made, never its own; at most 200
//! proposals, `complete_limited`: those holding the typed word, as an
//! incomplete list the client asks for again). A test in `complete` puts
//! every proposal in its context and compiles the result clean.

mod complete;
mod format;
mod hover;
mod names;
mod symbols;

pub use complete::{MAX_PROPOSALS, Proposal, ProposalKind, complete, complete_limited};
pub use format::{format, format_range};
pub use hover::hover;
pub use names::{
    animation_mentions, definition, prepare_rename, references, rename, rename_animation,
    rename_bone, valid_animation_name, valid_segment,
};
pub use symbols::{Symbol, SymbolKind, symbols};

use skelpad_lang::compile::{Compilation, Target};
use skelpad_lang::model::{BoneId, SlotId};
use skelpad_lang::syntax::tree::SectionKind;
use skelpad_lang::syntax::{Role, Span};

/// A section's extent in the document: from its first byte to the next
/// section (or the end).
pub fn section_extents(comp: &Compilation, text_len: usize) -> Vec<Span> {
    let starts: Vec<u32> = comp.sections.iter().map(|(s, _)| *s).collect();
    starts
        .iter()
        .enumerate()
        .map(|(i, &s)| Span::new(s, starts.get(i + 1).copied().unwrap_or(text_len as u32)))
        .collect()
}

/// The index of the section holding `offset` (the last one past its end).
pub(crate) fn section_at(comp: &Compilation, offset: usize) -> Option<usize> {
    let n = comp.sections.partition_point(|(start, _)| (*start as usize) <= offset);
    n.checked_sub(1)
}

/// The token (role and span) at `offset`, the one ending there if none
/// covers it.
pub fn role_at(comp: &Compilation, offset: u32) -> Option<(Span, Role)> {
    let mut best = None;
    for r in comp.roles() {
        if r.span.start > offset {
            break;
        }
        if r.span.contains(offset) {
            return Some((r.span, r.role));
        }
        if r.span.end == offset {
            best = Some((r.span, r.role));
        }
    }
    best
}

pub(crate) fn bone_name(comp: &Compilation, b: BoneId) -> &str {
    comp.armature.skeleton.bones.get(b.index()).map_or("?", |x| x.name.as_str())
}

pub(crate) fn slot_name(comp: &Compilation, s: SlotId) -> &str {
    comp.armature.skeleton.slots.get(s.index()).map_or("?", |x| x.name.as_str())
}

pub(crate) fn num(v: f64) -> String {
    let r = (v * 1e4).round() / 1e4;
    let r = if r == 0.0 { 0.0 } else { r };
    format!("{r}")
}

pub(crate) fn target_label(comp: &Compilation, t: Option<Target>) -> String {
    match t {
        Some(Target::Bone(b)) => format!("bone `{}`", bone_name(comp, b)),
        Some(Target::Slot(s)) => format!("slot `{}`", slot_name(comp, s)),
        _ => "an unresolved item".to_string(),
    }
}

/// The animation of the section at `offset`: an `anim` section's, or the
/// one an `expect` section names.
pub(crate) fn section_animation(
    comp: &Compilation,
    offset: u32,
) -> Option<&skelpad_lang::model::Animation> {
    let si = section_at(comp, offset as usize)?;
    let name = match &comp.sections[si].1.kind {
        SectionKind::Anim(a) => &a.name.node,
        SectionKind::Expect(e) => &e.anim.as_ref()?.node,
        _ => return None,
    };
    comp.armature.animations.iter().find(|a| &a.name == name).map(|a| &**a)
}

/// The item a name at `offset` resolves to, segment by segment: in
/// `hip.leg.foot` (which names `foot`), the cursor on `leg` means the bone
/// `hip.leg`. The span is the segments up to the cursor's.
pub fn target_at_text(text: &str, comp: &Compilation, offset: u32) -> Option<(Span, Target)> {
    let r = comp.sources.reference_at(offset)?;
    let target = r.target?;
    let sk = &*comp.armature.skeleton;
    let (full, mut bone) = match target {
        Target::Bone(b) => (bone_name(comp, b), Some(b)),
        Target::Slot(s) => (slot_name(comp, s), None),
        _ => return Some((r.span, target)),
    };
    let written = text.get(r.span.range())?;
    let segs: Vec<&str> = written.split('.').collect();
    let n = full.split('.').count() as isize;
    let first = n - segs.len() as isize;
    // The segment under the cursor.
    let mut at = r.span.start;
    let mut index = segs.len() - 1;
    for (i, seg) in segs.iter().enumerate() {
        if offset <= at + seg.len() as u32 {
            index = i;
            break;
        }
        at += seg.len() as u32 + 1;
    }
    if index == segs.len() - 1 {
        return Some((r.span, target));
    }
    let want = first + index as isize;
    if want < 0 {
        return Some((r.span, target));
    }
    if let Target::Slot(s) = target {
        bone = sk.slots.get(s.index()).map(|x| x.bone);
    }
    // Walk up to the ancestor of depth `want`.
    while let Some(b) = bone {
        let depth = bone_name(comp, b).split('.').count() as isize - 1;
        if depth == want {
            return Some((Span::new(r.span.start, at + segs[index].len() as u32), Target::Bone(b)));
        }
        bone = sk.bones.get(b.index()).and_then(|x| x.parent);
    }
    Some((r.span, target))
}
