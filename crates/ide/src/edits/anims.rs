//! Whole animations as text: new, duplicate, rename, delete, move up or
//! down. An animation is every `anim "NAME"` section with its name (a
//! second section with the same name merges into the first, LANGUAGE.md
//! §5), in the order of its first section; a section's text runs from its
//! header to the next section's (comment lines just above a header go
//! with the section before them).

use crate::analysis::section_extents;
use crate::text_edit::TextEdit;
use skelpad_lang::compile::{Compilation, Target};
use skelpad_lang::model::AnimId;
use skelpad_lang::syntax::Span;
use skelpad_lang::syntax::tree::{AnimSection, SectionKind};

pub use crate::analysis::{rename_animation, valid_animation_name};

/// Which way [`move_animation`] moves an animation in the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// One place earlier.
    Up,
    /// One place later.
    Down,
}

/// One section of an animation: its extent in the text and its tree
/// (spans relative to the extent's start).
struct Piece<'c> {
    extent: Span,
    tree: &'c AnimSection,
}

/// The sections of animation `anim`, in the text's order.
fn pieces<'c>(text: &str, comp: &'c Compilation, anim: AnimId) -> Result<Vec<Piece<'c>>, String> {
    let name = &comp.armature.animations.get(anim.index()).ok_or("no such animation")?.name;
    let extents = section_extents(comp, text.len());
    let found: Vec<Piece<'c>> = comp
        .sections
        .iter()
        .zip(extents)
        .filter_map(|((_, sec), extent)| match &sec.kind {
            SectionKind::Anim(a) if &a.name.node == name => Some(Piece { extent, tree: a }),
            _ => None,
        })
        .collect();
    if found.is_empty() {
        return Err(format!("animation \"{name}\" has no section in the text"));
    }
    Ok(found)
}

/// The section's text, whole lines, ending with a line break.
fn piece_text<'t>(text: &'t str, p: &Piece<'_>) -> std::borrow::Cow<'t, str> {
    let t = text.get(p.extent.range()).unwrap_or("");
    if t.ends_with('\n') { t.into() } else { format!("{t}\n").into() }
}

/// The animation whose `anim` header line holds `offset` (what the
/// language server's animation actions are offered on).
pub fn animation_header_at(text: &str, comp: &Compilation, offset: u32) -> Option<AnimId> {
    let i = crate::analysis::section_at(comp, offset as usize)?;
    let (start, sec) = comp.sections.get(i)?;
    let SectionKind::Anim(a) = &sec.kind else { return None };
    let line_end =
        text.get(*start as usize..)?.find('\n').map_or(text.len(), |e| e + *start as usize);
    if offset as usize > line_end {
        return None;
    }
    comp.armature.animations.iter().position(|x| x.name == a.name.node).map(AnimId::from_index)
}

/// A name no animation has: `base` itself, else `base-copy`, `base-copy-2`, …
pub fn unused_animation_name(comp: &Compilation, base: &str) -> String {
    let taken = |n: &str| comp.armature.animations.iter().any(|a| a.name == n);
    let base = if valid_animation_name(base) { base } else { "anim" };
    if !taken(base) {
        return base.to_owned();
    }
    let mut name = format!("{base}-copy");
    // One more candidate than there are animations always finds a free name.
    for n in 2..comp.armature.animations.len() + 3 {
        if !taken(&name) {
            break;
        }
        name = format!("{base}-copy-{n}");
    }
    name
}

/// Refuses a name that cannot be written or that an animation has already.
fn check_new_name(comp: &Compilation, name: &str) -> Result<(), String> {
    if !valid_animation_name(name) {
        return Err(format!(
            "`{name}` cannot be an animation's name (at least one character; no quotes, blanks or control characters)"
        ));
    }
    if comp.armature.animations.iter().any(|a| a.name == name) {
        return Err(format!("an animation is already named \"{name}\""));
    }
    Ok(())
}

/// The edits that add an empty animation `name` at the end of the script
/// (`anim "NAME"`, with `Nfps` when `fps` is given): it holds the setup
/// pose until keys are added.
pub fn new_animation(
    text: &str,
    comp: &Compilation,
    name: &str,
    fps: Option<u32>,
) -> Result<Vec<TextEdit>, String> {
    check_new_name(comp, name)?;
    let mut header = String::new();
    if !text.is_empty() && !text.ends_with('\n') {
        header.push('\n');
    }
    header.push_str(&format!("anim \"{name}\""));
    if let Some(f) = fps {
        header.push_str(&format!(" {f}fps"));
    }
    header.push('\n');
    Ok(vec![TextEdit::insert(text.len(), header)])
}

/// The edits that copy animation `anim` as a new animation named
/// `new_name` (or an unused name made from its own, [`unused_animation_name`])
/// right after its last section: every section of it, header renamed,
/// items and comments as written. "New animation as a copy of" is this
/// with the name chosen.
pub fn duplicate_animation(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    new_name: Option<&str>,
) -> Result<Vec<TextEdit>, String> {
    let pieces = pieces(text, comp, anim)?;
    let old = &comp.armature.animations[anim.index()].name;
    let name = match new_name {
        Some(n) => n.to_owned(),
        None => unused_animation_name(comp, if old.is_empty() { "anim" } else { old }),
    };
    check_new_name(comp, &name)?;
    let quoted = format!("\"{name}\"");
    let mut copy = String::new();
    let last_end = pieces.last().map_or(text.len(), |p| p.extent.end as usize);
    if !text[..last_end].ends_with('\n') {
        copy.push('\n');
    }
    for p in &pieces {
        let own = piece_text(text, p);
        let header = p.tree.name.span;
        let (a, b) = (header.start as usize, header.end as usize);
        let (a, b) = (a.min(own.len()), b.min(own.len()));
        if p.tree.name.node.is_empty() && !own[a..b].starts_with('"') {
            // `anim` without a name: the name goes after the keyword.
            copy.push_str(&format!("{} {quoted}{}", &own[..b], &own[b..]));
        } else {
            copy.push_str(&format!("{}{quoted}{}", &own[..a], &own[b..]));
        }
    }
    Ok(vec![TextEdit::insert(last_end, copy)])
}

/// Where animation `anim` is named outside its own headers (`expect`
/// sections, `from "NAME"`), as line numbers.
fn named_elsewhere(text: &str, comp: &Compilation, anim: AnimId) -> Vec<usize> {
    let line = |o: u32| {
        text.as_bytes()[..(o as usize).min(text.len())].iter().filter(|b| **b == b'\n').count() + 1
    };
    let name = &comp.armature.animations[anim.index()].name;
    let mut lines: Vec<usize> = comp
        .sources
        .references_to(Target::Animation(anim))
        .filter(|r| !r.definition)
        .map(|r| line(r.span.start))
        .collect();
    for (span, n) in crate::analysis::animation_mentions(comp) {
        if n == name {
            lines.push(line(span.start));
        }
    }
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// The edits that delete animation `anim`: every section of it. Refused
/// while an `expect` section or a `from "NAME"` names it (the line
/// numbers are in the reason): they would become errors.
pub fn delete_animation(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
) -> Result<Vec<TextEdit>, String> {
    let pieces = pieces(text, comp, anim)?;
    let elsewhere = named_elsewhere(text, comp, anim);
    if !elsewhere.is_empty() {
        let at: Vec<String> = elsewhere.iter().map(usize::to_string).collect();
        return Err(format!(
            "\"{}\" is named on line {}: delete or change that first",
            comp.armature.animations[anim.index()].name,
            at.join(", ")
        ));
    }
    Ok(pieces.iter().map(|p| TextEdit::new(p.extent, "")).collect())
}

/// The edits that move animation `anim` one place up or down the list of
/// animations (the order of their first sections: the Timeline's list and
/// the exports'). Up puts all of its sections, in their order, right
/// before the first section of the animation before it; down moves the
/// animation after it up. Refused at either end of the list.
pub fn move_animation(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    direction: Direction,
) -> Result<Vec<TextEdit>, String> {
    let count = comp.armature.animations.len();
    let (moved, before) = match direction {
        Direction::Up if anim.index() == 0 => return Err("it is the first animation".into()),
        Direction::Up => (anim, AnimId::from_index(anim.index() - 1)),
        Direction::Down if anim.index() + 1 >= count => {
            return Err("it is the last animation".into());
        }
        Direction::Down => (AnimId::from_index(anim.index() + 1), anim),
    };
    let moving = pieces(text, comp, moved)?;
    let target = pieces(text, comp, before)?[0].extent.start as usize;
    let mut block = String::new();
    let mut edits = Vec::new();
    for p in &moving {
        block.push_str(&piece_text(text, p));
        edits.push(TextEdit::new(p.extent, ""));
    }
    edits.push(TextEdit::insert(target, block));
    edits.sort_by_key(|e| e.span.start);
    Ok(edits)
}

#[cfg(test)]
mod tests;
