//! Definition, references and rename: where a name's item is defined, every
//! name written for it, and the edits that rename a bone or an animation
//! ([`rename`]: what the language server's rename and the editor's both
//! call).

use super::{bone_name, slot_name, target_at_text};
use crate::text_edit::TextEdit;
use skelpad_lang::compile::{Compilation, Target};
use skelpad_lang::model::{AnimId, BoneId};
use skelpad_lang::syntax::tree::SectionKind;
use skelpad_lang::syntax::{Span, token};

/// Where the item at `offset` is defined.
pub fn definition(text: &str, comp: &Compilation, offset: u32) -> Option<Span> {
    let (_, t) = target_at_text(text, comp, offset)?;
    comp.sources.definition(t)
}

/// Every name referring to the item at `offset`.
pub fn references(
    text: &str,
    comp: &Compilation,
    offset: u32,
    include_declaration: bool,
) -> Vec<Span> {
    let Some((_, t)) = target_at_text(text, comp, offset) else { return Vec::new() };
    comp.sources
        .references_to(t)
        .filter(|r| include_declaration || !r.definition)
        .map(|r| r.span)
        .collect()
}

/// Whether `name` can be a bone name segment: a name the language's own
/// token recognizer accepts, without a dot.
pub fn valid_segment(name: &str) -> bool {
    !name.contains('.') && token::is_name(name)
}

/// The edits that rename the bone named at `offset` to `new_name`: in every
/// name written for it, its descendants and their slots, the bone's
/// segment (when the written suffix reaches it). A slot written as `@`
/// takes its bone's last segment as its name, so its references change too.
pub fn rename_bone(
    text: &str,
    comp: &Compilation,
    offset: u32,
    new_name: &str,
) -> Result<Vec<TextEdit>, String> {
    let (_, t) = target_at_text(text, comp, offset).ok_or("there is no bone name here")?;
    let Target::Bone(bone) = t else { return Err("only bones can be renamed".into()) };
    if !valid_segment(new_name) {
        return Err(format!(
            "`{new_name}` is not a valid bone name (one segment: letters, digits, `_`, `-`, no dots)"
        ));
    }
    let sk = &*comp.armature.skeleton;
    let old = sk.bones[bone.index()].short_name().to_string();
    let implicit = implicit_slots(text, comp, bone);
    let mut under = Descendants::of(comp, bone);
    let depth = sk.bones[bone.index()].name.split('.').count() - 1;
    let mut edits = Vec::new();
    for r in &comp.sources.references {
        let Some(target) = r.target else { continue };
        let owner = match target {
            Target::Bone(b) => Some(b),
            Target::Slot(s) => sk.slots.get(s.index()).map(|x| x.bone),
            _ => None,
        };
        if !owner.is_some_and(|b| under.contains(b)) {
            continue;
        }
        let Some(written) = text.get(r.span.range()) else { continue };
        let full = match target {
            Target::Bone(b) => bone_name(comp, b),
            Target::Slot(s) => slot_name(comp, s),
            _ => continue,
        };
        let full_segs = full.split('.').count();
        let segs: Vec<&str> = written.split('.').collect();
        // `skeleton.` + the full name.
        let first = full_segs as isize - segs.len() as isize;
        let mut indices = vec![depth];
        if let Target::Slot(s) = target
            && implicit.get(s.index()).copied().unwrap_or(false)
        {
            indices.push(full_segs - 1);
        }
        let mut at = r.span.start as usize;
        for (i, seg) in segs.iter().enumerate() {
            let full_index = first + i as isize;
            if full_index >= 0 && indices.contains(&(full_index as usize)) && *seg == old {
                edits.push(TextEdit::new(Span::new(at as u32, (at + seg.len()) as u32), new_name));
            }
            at += seg.len() + 1;
        }
    }
    edits.sort_by_key(|e| e.span.start);
    edits.dedup();
    Ok(edits)
}

/// Which slots are named after `bone` (written `@`): their last segment is
/// the bone's too, by slot index.
fn implicit_slots(text: &str, comp: &Compilation, bone: BoneId) -> Vec<bool> {
    let sk = &*comp.armature.skeleton;
    let mut implicit = vec![false; sk.slots.len()];
    for r in &comp.sources.references {
        if let Some(Target::Slot(s)) = r.target
            && r.definition
            && sk.slots.get(s.index()).is_some_and(|x| x.bone == bone)
            && text.get(r.span.range()) == Some("@")
        {
            implicit[s.index()] = true;
        }
    }
    implicit
}

/// Whether bones are a bone or below it, each found once: a walk up the
/// parents remembers what it passed.
struct Descendants<'a> {
    comp: &'a Compilation,
    root: BoneId,
    known: Vec<Option<bool>>,
}

impl<'a> Descendants<'a> {
    fn of(comp: &'a Compilation, root: BoneId) -> Self {
        Descendants { comp, root, known: vec![None; comp.armature.skeleton.bones.len()] }
    }

    fn contains(&mut self, b: BoneId) -> bool {
        let bones = &self.comp.armature.skeleton.bones;
        let mut chain = Vec::new();
        let mut at = Some(b);
        let found = loop {
            let Some(x) = at else { break false };
            if x == self.root {
                break true;
            }
            match self.known.get(x.index()).copied().flatten() {
                Some(known) => break known,
                None => chain.push(x),
            }
            at = bones.get(x.index()).and_then(|y| y.parent);
            if chain.len() > bones.len() {
                break false; // a cycle cannot be built, but never loop
            }
        };
        for x in chain {
            if let Some(u) = self.known.get_mut(x.index()) {
                *u = Some(found);
            }
        }
        found
    }
}

/// The edits that rename the item named at `offset` to `new_name`: a bone
/// ([`rename_bone`]) or an animation ([`rename_animation`]). The language
/// server's rename answers with these.
pub fn rename(
    text: &str,
    comp: &Compilation,
    offset: u32,
    new_name: &str,
) -> Result<Vec<TextEdit>, String> {
    match target_at_text(text, comp, offset) {
        Some((_, Target::Animation(a))) => rename_animation(text, comp, a, new_name),
        _ => rename_bone(text, comp, offset, new_name),
    }
}

/// Whether `name` can be written as an animation's name: between quotes,
/// at least one character, no quote, blank or control character (the
/// header is split at blanks).
pub fn valid_animation_name(name: &str) -> bool {
    !name.is_empty()
        && !name
            .chars()
            .any(|c| c == '"' || c.is_control() || skelpad_lang::syntax::lines::is_js_space(c))
}

/// The edits that rename animation `anim` to `new_name`: every header of
/// its sections (a second section with the same name merges into the
/// first), every `expect` section that poses it, and every `from "NAME"`
/// that copies it. Refused when the name cannot be written or another
/// animation has it (the two would merge).
pub fn rename_animation(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    new_name: &str,
) -> Result<Vec<TextEdit>, String> {
    let old = &comp.armature.animations.get(anim.index()).ok_or("no such animation")?.name;
    if !valid_animation_name(new_name) {
        return Err(format!(
            "`{new_name}` cannot be an animation's name (at least one character; no quotes, blanks or control characters)"
        ));
    }
    if old == new_name {
        return Ok(Vec::new());
    }
    if comp.armature.animations.iter().any(|a| a.name == new_name) {
        return Err(format!("an animation is already named \"{new_name}\""));
    }
    let quoted = format!("\"{new_name}\"");
    let mut edits: Vec<TextEdit> = comp
        .sources
        .references_to(Target::Animation(anim))
        .map(|r| match text.get(r.span.range()) {
            Some(t) if t.starts_with('"') => TextEdit::new(r.span, quoted.as_str()),
            // The unnamed animation's header: the name goes after `anim`.
            _ => TextEdit::insert(r.span.end as usize, format!(" {quoted}")),
        })
        .collect();
    for (span, name) in animation_mentions(comp) {
        if name == old {
            edits.push(TextEdit::new(span, quoted.as_str()));
        }
    }
    edits.sort_by_key(|e| e.span.start);
    edits.dedup();
    Ok(edits)
}

/// Every animation name written in quotes outside `anim` and `expect`
/// headers, with its span in the document: `from "ANIM"`, `add "ANIM"`,
/// sequence parts and `mix` lines.
pub fn animation_mentions(comp: &Compilation) -> Vec<(Span, &str)> {
    let mut out = Vec::new();
    for (start, sec) in &comp.sections {
        let names: Vec<&skelpad_lang::syntax::tree::Spanned<String>> = match &sec.kind {
            SectionKind::Anim(a) => a
                .modifiers
                .from
                .iter()
                .chain(a.modifiers.add.iter().map(|l| &l.anim))
                .chain(a.parts.iter().map(|p| &p.anim))
                .collect(),
            SectionKind::Mix(m) => m.pairs.iter().flat_map(|p| [&p.from, &p.to]).collect(),
            _ => Vec::new(),
        };
        out.extend(names.into_iter().map(|n| (n.span.shifted(*start), n.node.as_str())));
    }
    out
}

/// The span of the bone's own segment in the name at `offset`, or of an
/// animation's name between its quotes (what a rename changes there).
pub fn prepare_rename(text: &str, comp: &Compilation, offset: u32) -> Result<Span, String> {
    let (span, t) = target_at_text(text, comp, offset).ok_or("there is no bone name here")?;
    if let Target::Animation(_) = t {
        return match text.get(span.range()) {
            Some(q) if q.len() >= 2 && q.starts_with('"') && q.ends_with('"') => {
                Ok(Span::new(span.start + 1, span.end - 1))
            }
            _ => Ok(span),
        };
    }
    let Target::Bone(bone) = t else {
        return Err("only bones and animations can be renamed".into());
    };
    let short = comp.armature.skeleton.bones[bone.index()].short_name();
    let written = text.get(span.range()).unwrap_or("");
    match written.rfind('.') {
        Some(dot) if &written[dot + 1..] == short => {
            Ok(Span::new(span.start + dot as u32 + 1, span.end))
        }
        _ => Ok(span),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use skelpad_lang::compile::compile;

    pub(crate) fn apply(text: &str, edits: Vec<TextEdit>) -> String {
        crate::text_edit::apply(text, &edits)
    }

    #[test]
    fn renaming_a_bone_renames_its_segment_everywhere_and_slots_named_after_it() {
        let text = "skeleton\n\tarm l10\n\t\t@ :rect w1 h1\n\tarm.hand x10\n\t\t@nail :circle d1\n\tleg\n\t\t@ :path\n\t\t\tM 0,0:arm\n\t\t\tL 1,1:hand\norder\n\t@arm\n\t@nail\nanim \"a\"\n\t@arm\n\t\ta 1\n\tarm.hand\n\t\tr 0 -> 5\n\tskeleton.arm\n\t\tx 1\n";
        let comp = compile(text);
        assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
        let at = text.find("arm l10").unwrap() as u32;
        let edits = rename_bone(text, &comp, at, "limb").unwrap();
        let renamed = apply(text, edits);
        assert_eq!(
            renamed,
            "skeleton\n\tlimb l10\n\t\t@ :rect w1 h1\n\tlimb.hand x10\n\t\t@nail :circle d1\n\tleg\n\t\t@ :path\n\t\t\tM 0,0:limb\n\t\t\tL 1,1:hand\norder\n\t@limb\n\t@nail\nanim \"a\"\n\t@limb\n\t\ta 1\n\tlimb.hand\n\t\tr 0 -> 5\n\tskeleton.limb\n\t\tx 1\n"
        );
        let after = compile(&renamed);
        assert!(after.diagnostics.is_empty(), "{:?}", after.diagnostics);
        let names: Vec<&str> =
            after.armature.skeleton.slots.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["limb.limb", "limb.hand.nail", "leg.leg"]);
        // Not a bone, not a name, not a valid new name.
        assert!(rename_bone(text, &comp, text.find("l10").unwrap() as u32 + 1, "x").is_err());
        assert!(rename_bone(text, &comp, at, "a b").is_err());
        assert!(rename_bone(text, &comp, text.find("\"a\"").unwrap() as u32, "b").is_err());
    }
}
