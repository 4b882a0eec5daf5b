//! The language features, answered from a [`Compilation`]: the parser's
//! token roles and the compiler's source map say what every token is and
//! what every name resolved to. Hover, definition, references, rename,
//! symbols and semantic tokens resolve no name and parse no line again.
//! Two features read the text themselves: formatting works line by line on
//! indentation and trailing blanks only, and completion reads the cursor's
//! line (its depth, the word under the cursor and the tokens before it),
//! since the line being typed is usually incomplete; it proposes words from
//! its own vocabulary lists, which no test yet checks against the parser's.
//! Positions are byte offsets here; `super` converts them to and from LSP
//! positions.

use std::fmt::Write as _;

use lsp_types::{CompletionItemKind, SemanticTokenModifier, SemanticTokenType, SymbolKind};

#[cfg(test)]
use crate::compile::names::{NameIndex, Resolved};
use crate::compile::{Compilation, PropKey, Target, TimelineSource};
use crate::model::{BoneId, SkinId, SlotId};
use crate::runtime::Pose;
use crate::syntax::tree::{SectionKind, TimelineProp, TypeName};
use crate::syntax::{Role, Span, token};

/// Semantic token types, indexed by [`role_token`].
pub const TOKEN_TYPES: [SemanticTokenType; 12] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::CLASS,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::TYPE,
    SemanticTokenType::NUMBER,
    SemanticTokenType::STRING,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::MACRO,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::COMMENT,
];
/// Semantic token modifiers (bit 0: a definition).
pub const TOKEN_MODIFIERS: [SemanticTokenModifier; 1] = [SemanticTokenModifier::DECLARATION];
/// Token type index of colors (`regexp` is not used by the language; a
/// color gets its own style in most themes that way).
const COLOR_TYPE: u32 = 12;

/// The semantic token type and modifiers of a role (`None`: not highlighted,
/// e.g. invalid tokens, which a diagnostic marks instead).
pub fn role_token(role: Role) -> Option<(u32, u32)> {
    Some(match role {
        Role::SectionKeyword => (0, 0),
        Role::BonePath => (1, 1),
        Role::BoneRef => (1, 0),
        Role::BoneProperty | Role::Property => (2, 0),
        Role::SlotHead => (3, 1),
        Role::SlotRef => (3, 0),
        Role::AttachmentType => (4, 0),
        Role::Number => (5, 0),
        Role::String => (6, 0),
        Role::Boolean | Role::AttachmentRef => (7, 0),
        Role::Loop | Role::Advance => (8, 0),
        Role::Option => (9, 0),
        Role::PathCommand | Role::Event => (10, 0),
        Role::Comment => (11, 0),
        Role::Color => (COLOR_TYPE, 0),
        Role::Invalid => return None,
    })
}

/// The full legend: [`TOKEN_TYPES`] and `regexp` for colors.
pub fn token_types() -> Vec<SemanticTokenType> {
    let mut v = TOKEN_TYPES.to_vec();
    v.push(SemanticTokenType::REGEXP);
    v
}

/// Semantic tokens of one piece of a document that starts at a line start
/// (a section, or the comments before the first), in LSP's relative
/// encoding from the piece's own start: `delta_line` of the first token
/// counts lines from the piece's first line. `roles` are sorted spans
/// relative to `text`; a token that crosses a line break is split there,
/// lengths are UTF-16 units without a line's `\r`. Pieces whose text did
/// not change keep their tokens, so a document's tokens are these joined
/// ([`join_tokens`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PieceTokens {
    /// The tokens, relative as LSP sends them.
    pub data: Vec<lsp_types::SemanticToken>,
    /// The line of the last token, counted from the piece's first line.
    pub last_line: u32,
}

/// [`PieceTokens`] of `text` with these roles, in one pass over the text.
pub fn piece_tokens(
    text: &str,
    roles: impl Iterator<Item = crate::syntax::TokenRole>,
) -> PieceTokens {
    let bytes = text.as_bytes();
    let utf16 = |a: usize, b: usize| -> u32 {
        let s = &bytes[a..b];
        if s.is_ascii() {
            s.len() as u32
        } else {
            text.get(a..b).map_or(0, |t| t.encode_utf16().count() as u32)
        }
    };
    let mut out = PieceTokens::default();
    // The scan's position: its line, the line's UTF-16 column, and byte.
    let (mut line, mut col, mut pos) = (0u32, 0u32, 0usize);
    let (mut prev_line, mut prev_col) = (0u32, 0u32);
    for r in roles {
        let Some((ty, mods)) = role_token(r.role) else { continue };
        let (mut start, end) =
            ((r.span.start as usize).min(text.len()), (r.span.end as usize).min(text.len()));
        if start < pos || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            continue; // overlapping or split: not a token of this text
        }
        while start < end {
            // Move the scan to `start`.
            match memchr::memrchr(b'\n', &bytes[pos..start]) {
                Some(i) => {
                    line += memchr::memchr_iter(b'\n', &bytes[pos..start]).count() as u32;
                    col = utf16(pos + i + 1, start);
                }
                None => col += utf16(pos, start),
            }
            pos = start;
            let next_break = memchr::memchr(b'\n', &bytes[start..end]).map(|i| start + i);
            let mut seg_end = next_break.unwrap_or(end);
            if next_break.is_some() && seg_end > start && bytes[seg_end - 1] == b'\r' {
                seg_end -= 1;
            }
            let len = utf16(start, seg_end);
            if len > 0 {
                let delta_line = line - prev_line;
                out.data.push(lsp_types::SemanticToken {
                    delta_line,
                    delta_start: if delta_line == 0 { col - prev_col } else { col },
                    length: len,
                    token_type: ty,
                    token_modifiers_bitset: mods,
                });
                (prev_line, prev_col) = (line, col);
            }
            match next_break {
                Some(b) => start = b + 1,
                None => break,
            }
        }
    }
    out.last_line = prev_line;
    out
}

/// A document's semantic tokens from its pieces' (`(first line, tokens)`
/// in document order).
pub fn join_tokens<'a>(
    pieces: impl IntoIterator<Item = (u32, &'a PieceTokens)>,
) -> Vec<lsp_types::SemanticToken> {
    let mut out = Vec::new();
    // The line of the last token written, if any.
    let mut last: Option<u32> = None;
    for (first_line, piece) in pieces {
        let Some(first) = piece.data.first() else { continue };
        let at = out.len();
        out.extend_from_slice(&piece.data);
        // Pieces start at line starts, after the last token's line: the
        // first token's column stays absolute, only its line moves.
        let line = first_line + first.delta_line;
        out[at].delta_line = line - last.unwrap_or(0).min(line);
        last = Some(first_line + piece.last_line);
    }
    out
}

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
fn section_at(comp: &Compilation, offset: usize) -> Option<usize> {
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

fn bone_name(comp: &Compilation, b: BoneId) -> &str {
    comp.armature.skeleton.bones.get(b.index()).map_or("?", |x| x.name.as_str())
}

fn slot_name(comp: &Compilation, s: SlotId) -> &str {
    comp.armature.skeleton.slots.get(s.index()).map_or("?", |x| x.name.as_str())
}

fn num(v: f64) -> String {
    let r = (v * 1e4).round() / 1e4;
    let r = if r == 0.0 { 0.0 } else { r };
    format!("{r}")
}

fn target_label(comp: &Compilation, t: Option<Target>) -> String {
    match t {
        Some(Target::Bone(b)) => format!("bone `{}`", bone_name(comp, b)),
        Some(Target::Slot(s)) => format!("slot `{}`", slot_name(comp, s)),
        _ => "an unresolved item".to_string(),
    }
}

fn prop_name(p: TimelineProp) -> &'static str {
    match p {
        TimelineProp::X => "x (position)",
        TimelineProp::Y => "y (position)",
        TimelineProp::Rotation => "r (rotation, degrees)",
        TimelineProp::ScaleX => "i (scale x)",
        TimelineProp::ScaleY => "j (scale y)",
        TimelineProp::FlipX => "s (flip x)",
        TimelineProp::FlipY => "t (flip y)",
        TimelineProp::Attachment => "@ (attachment)",
        TimelineProp::Color => "c (color)",
        TimelineProp::R => "r (red)",
        TimelineProp::G => "g (green)",
        TimelineProp::B => "b (blue)",
        TimelineProp::A => "a (alpha)",
    }
}

fn key_name(k: PropKey) -> &'static str {
    match k {
        PropKey::Length => "the length",
        PropKey::Rotation => "the rotation (degrees)",
        PropKey::X => "x",
        PropKey::Y => "y",
        PropKey::ScaleX => "the scale x",
        PropKey::ScaleY => "the scale y",
        PropKey::Other => "a property",
    }
}

/// Markdown for a hover at `offset`, and the span it is about.
pub fn hover(text: &str, comp: &Compilation, offset: u32) -> Option<(String, Span)> {
    let src = &comp.sources;
    let (span, role) = role_at(comp, offset)?;
    let tok = text.get(span.range())?;
    match role {
        Role::BonePath
        | Role::BoneRef
        | Role::SlotHead
        | Role::SlotRef
        | Role::AttachmentRef
        | Role::String => {
            let at = if src.reference_at(offset).is_some() { offset } else { span.start };
            let (span, t) = target_at_text(text, comp, at)?;
            Some((target_hover(comp, t), span))
        }
        Role::Event => Some((event_hover(comp, offset, tok.trim_start_matches('!'))?, span)),
        Role::Property if src.timelines.iter().any(|t| t.line.start == span.start) => {
            let t = src.timelines.iter().find(|t| t.line.start == span.start)?;
            Some((timeline_hover(comp, t), span))
        }
        Role::BoneProperty | Role::Property => {
            let p = src.props.iter().find(|p| p.span == span)?;
            let owner = owner_of_prop(comp, span)?;
            Some((format!("`{tok}` sets {} of {owner} to {}", key_name(p.key), num(p.value)), span))
        }
        Role::Number => {
            if let Some(t) = src.timelines.iter().find(|t| t.line.contains(span.start)) {
                let keys: Vec<String> = src
                    .keys_of(t)
                    .iter()
                    .filter(|k| k.span == span)
                    .map(|k| {
                        format!(
                            "frame {} ({} s): {}",
                            num(k.frame),
                            num(k.time_secs),
                            k.value.map_or_else(|| tok.to_string(), num)
                        )
                    })
                    .collect();
                if keys.is_empty() {
                    return None;
                }
                let head =
                    format!("a key of {} of {}", prop_name(t.prop), target_label(comp, t.target));
                return Some((format!("{head}\n\n{}", keys.join("  \n")), span));
            }
            Some((format!("number `{tok}`"), span))
        }
        Role::Color => {
            let lit = token::color(tok.trim_start_matches(['f', 's']))?;
            let c = lit.to_color_exact();
            let which = if tok.starts_with('f') {
                "fill color"
            } else if tok.starts_with('s') {
                "stroke color"
            } else {
                "color"
            };
            Some((
                format!(
                    "{which} `{tok}`: RGBA {} {} {} {} (red {}, green {}, blue {})",
                    num(c.r),
                    num(c.g),
                    num(c.b),
                    num(c.a),
                    lit.rgb[0],
                    lit.rgb[1],
                    lit.rgb[2]
                ),
                span,
            ))
        }
        _ => None,
    }
}

/// The animation of the section at `offset`: an `anim` section's, or the
/// one an `expect` section names.
fn section_animation(comp: &Compilation, offset: u32) -> Option<&crate::model::Animation> {
    let si = section_at(comp, offset as usize)?;
    let name = match &comp.sections[si].1.kind {
        SectionKind::Anim(a) => &a.name.node,
        SectionKind::Expect(e) => &e.anim.as_ref()?.node,
        _ => return None,
    };
    comp.armature.animations.iter().find(|a| &a.name == name).map(|a| &**a)
}

/// Markdown for an event's name: the frames (and payloads) it fires at in
/// the animation of the section at `offset`.
fn event_hover(comp: &Compilation, offset: u32, name: &str) -> Option<String> {
    use crate::model::EventPayload;
    let a = section_animation(comp, offset)?;
    let mut s = format!("**event** `{name}` in \"{}\"\n\n", a.name);
    let keys: Vec<&crate::model::Event> = a.events.iter().filter(|e| e.name == name).collect();
    if keys.is_empty() {
        s.push_str("never fires");
    }
    for e in keys.iter().take(200) {
        let payload = match &e.payload {
            EventPayload::None => String::new(),
            EventPayload::Int(i) => format!(": {i}"),
            EventPayload::Float(f) => format!(": {}", num(*f)),
            EventPayload::Text(t) => format!(": \"{t}\""),
        };
        let _ = writeln!(s, "frame {} ({} s){payload}  ", num(e.frame), num(e.time_secs));
    }
    if keys.len() > 200 {
        let _ = write!(s, "… {} more", keys.len() - 200);
    }
    Some(s)
}

fn owner_of_prop(comp: &Compilation, span: Span) -> Option<String> {
    let src = &comp.sources;
    let idx = src.props.iter().position(|p| p.span == span)? as u32;
    if let Some(d) = src.bone_defs.iter().find(|d| d.props.contains(&idx)) {
        return Some(format!("bone `{}`", bone_name(comp, d.bone)));
    }
    let d = src.slot_defs.iter().find(|d| d.props.contains(&idx))?;
    Some(match d.attachment {
        Some(a) => format!("attachment `{}`", comp.armature.skeleton.attachment_full_name(a)),
        None => format!("slot `{}`", slot_name(comp, d.slot)),
    })
}

fn target_hover(comp: &Compilation, t: Target) -> String {
    let sk = &*comp.armature.skeleton;
    let mut s = String::new();
    match t {
        Target::Bone(b) => {
            let Some(bone) = sk.bones.get(b.index()) else { return String::new() };
            let _ = writeln!(s, "**bone** `{}`\n", bone.name);
            let parent = bone
                .parent
                .map_or("none (a root bone)".to_string(), |p| format!("`{}`", bone_name(comp, p)));
            let _ = writeln!(s, "parent: {parent}  ");
            let st = bone.setup;
            let _ = writeln!(
                s,
                "setup: x {}, y {}, rotation {}°, scale {} × {}, length {}{}{}  ",
                num(st.x),
                num(st.y),
                num(st.rotation_rad.to_degrees()),
                num(st.scale_x),
                num(st.scale_y),
                num(bone.length),
                if st.flip_x { ", flip-x" } else { "" },
                if st.flip_y { ", flip-y" } else { "" },
            );
            let pose = Pose::setup(sk);
            if let Some(p) = pose.bones.get(b.index()) {
                let (x, y) = p.world.apply(0.0, 0.0);
                let _ = write!(s, "world position at setup: ({}, {})", num(x), num(y));
            }
        }
        Target::Slot(slot) => {
            let Some(sl) = sk.slots.get(slot.index()) else { return String::new() };
            let _ = writeln!(s, "**slot** `{}`\n", sl.name);
            let _ = writeln!(s, "bone: `{}`  ", bone_name(comp, sl.bone));
            let shows = sl
                .attachment
                .map_or("nothing".to_string(), |a| format!("`{}`", sk.attachments[a.index()].name));
            let _ = write!(
                s,
                "setup: shows {shows}, color RGBA {} {} {} {}",
                num(sl.color.r),
                num(sl.color.g),
                num(sl.color.b),
                num(sl.color.a)
            );
        }
        Target::Attachment(a) => {
            let ty = sk.attachment(SkinId(0), a).map_or("none", |x| x.kind.type_name());
            let _ = write!(s, "**attachment** `{}` ({ty})", sk.attachment_full_name(a));
        }
        Target::Skin(k) => {
            let _ = write!(
                s,
                "**skin** \"{}\"",
                sk.skins.get(k.index()).map_or("?", |x| x.name.as_str())
            );
        }
        Target::Animation(a) => {
            if let Some(an) = comp.armature.animation(a) {
                let _ = write!(
                    s,
                    "**animation** \"{}\": {} fps, {} s",
                    an.name,
                    num(an.fps),
                    num(an.duration_secs)
                );
            }
        }
    }
    s
}

fn timeline_hover(comp: &Compilation, t: &TimelineSource) -> String {
    let anim = comp.armature.animation(t.anim).map_or("?", |a| a.name.as_str());
    let mut s = format!(
        "**timeline** {} of {} in \"{anim}\"",
        prop_name(t.prop),
        target_label(comp, t.target)
    );
    if !t.effective {
        s.push_str(" (replaced by a later line)");
    }
    s.push_str("\n\n");
    let keys = comp.sources.keys_of(t);
    if keys.is_empty() {
        s.push_str("no keys");
    }
    for (i, k) in keys.iter().enumerate().take(200) {
        let v = k.value.map_or_else(|| "—".to_string(), num);
        let _ = writeln!(s, "{}. frame {} ({} s): {v}  ", i + 1, num(k.frame), num(k.time_secs));
    }
    if keys.len() > 200 {
        let _ = write!(s, "… {} more", keys.len() - 200);
    }
    s
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
) -> Result<Vec<(Span, String)>, String> {
    let (_, t) = target_at_text(text, comp, offset).ok_or("there is no bone name here")?;
    let Target::Bone(bone) = t else { return Err("only bones can be renamed".into()) };
    if !valid_segment(new_name) {
        return Err(format!(
            "`{new_name}` is not a valid bone name (one segment: letters, digits, `_`, `-`, no dots)"
        ));
    }
    let sk = &*comp.armature.skeleton;
    let old = sk.bones[bone.index()].short_name().to_string();
    let mut edits = Vec::new();
    // Slots named after `bone` (written `@`): their last segment is the bone's too.
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
    let implicit = |s: SlotId| implicit.get(s.index()).copied().unwrap_or(false);
    // Whether each bone is `bone` or below it: one pass, with a walk up
    // the parents only for a bone listed before its parent.
    let depth = sk.bones[bone.index()].name.split('.').count() - 1;
    let mut under: Vec<Option<bool>> = vec![None; sk.bones.len()];
    let mut is_under = |b: BoneId| -> bool {
        let mut chain = Vec::new();
        let mut at = Some(b);
        let found = loop {
            let Some(x) = at else { break false };
            if x == bone {
                break true;
            }
            match under.get(x.index()).copied().flatten() {
                Some(known) => break known,
                None => chain.push(x),
            }
            at = sk.bones.get(x.index()).and_then(|y| y.parent);
            if chain.len() > sk.bones.len() {
                break false; // a cycle cannot be built, but never loop
            }
        };
        for x in chain {
            if let Some(u) = under.get_mut(x.index()) {
                *u = Some(found);
            }
        }
        found
    };
    for r in &comp.sources.references {
        let Some(target) = r.target else { continue };
        let owner = match target {
            Target::Bone(b) => Some(b),
            Target::Slot(s) => sk.slots.get(s.index()).map(|x| x.bone),
            _ => None,
        };
        if !owner.is_some_and(&mut is_under) {
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
            && implicit(s)
        {
            indices.push(full_segs - 1);
        }
        let mut at = r.span.start as usize;
        for (i, seg) in segs.iter().enumerate() {
            let full_index = first + i as isize;
            if full_index >= 0 && indices.contains(&(full_index as usize)) && *seg == old {
                edits.push((Span::new(at as u32, (at + seg.len()) as u32), new_name.to_string()));
            }
            at += seg.len() + 1;
        }
    }
    edits.sort_by_key(|e| e.0.start);
    edits.dedup();
    Ok(edits)
}

/// The span of the bone's own segment in the name at `offset` (what a
/// rename changes there).
pub fn prepare_rename(text: &str, comp: &Compilation, offset: u32) -> Result<Span, String> {
    let (span, t) = target_at_text(text, comp, offset).ok_or("there is no bone name here")?;
    let Target::Bone(bone) = t else { return Err("only bones can be renamed".into()) };
    let short = comp.armature.skeleton.bones[bone.index()].short_name();
    let written = text.get(span.range()).unwrap_or("");
    match written.rfind('.') {
        Some(dot) if &written[dot + 1..] == short => {
            Ok(Span::new(span.start + dot as u32 + 1, span.end))
        }
        _ => Ok(span),
    }
}

/// One symbol of the document outline.
pub struct Symbol {
    /// What the outline shows.
    pub name: String,
    /// A second line (what the item is).
    pub detail: Option<String>,
    /// Its LSP kind.
    pub kind: SymbolKind,
    /// Everything it covers.
    pub range: Span,
    /// Its name (where a click goes).
    pub selection: Span,
    /// Nested symbols.
    pub children: Vec<Symbol>,
}

/// Sections, with the bone lines of skeleton sections and the items of
/// animations under them.
pub fn symbols(text: &str, comp: &Compilation) -> Vec<Symbol> {
    let extents = section_extents(comp, text.len());
    let mut out = Vec::new();
    for ((start, sec), ext) in comp.sections.iter().zip(&extents) {
        let header = sec.header.shifted(*start);
        let (name, kind) = match &sec.kind {
            SectionKind::Skeleton(_) => ("skeleton".to_string(), SymbolKind::MODULE),
            SectionKind::Skin(s) => (format!("skin \"{}\"", s.name.node), SymbolKind::NAMESPACE),
            SectionKind::Order(_) => ("order".to_string(), SymbolKind::MODULE),
            SectionKind::Anim(a) => (format!("anim \"{}\"", a.name.node), SymbolKind::FUNCTION),
            SectionKind::Expect(e) => match &e.anim {
                Some(a) => (format!("expect \"{}\" {}", a.node, num(e.frame)), SymbolKind::EVENT),
                None => ("expect (setup pose)".to_string(), SymbolKind::EVENT),
            },
            SectionKind::Ik(_) => ("ik".to_string(), SymbolKind::MODULE),
            SectionKind::Ignored => continue,
        };
        let trimmed_end =
            ext.start + text.get(ext.range()).map_or(0, |s| s.trim_end().len() as u32);
        let range = Span::new(ext.start, trimmed_end.max(header.end));
        let mut children = Vec::new();
        match &sec.kind {
            SectionKind::Skeleton(_) => {
                for d in comp.sources.bone_defs.iter().filter(|d| ext.contains(d.line.start)) {
                    children.push(Symbol {
                        name: bone_name(comp, d.bone).to_string(),
                        detail: Some("bone".into()),
                        kind: SymbolKind::CLASS,
                        range: d.line,
                        selection: d.path,
                        children: Vec::new(),
                    });
                }
            }
            SectionKind::Anim(_) => {
                for i in comp.sources.items.iter().filter(|i| ext.contains(i.region.start)) {
                    let line_end = text
                        .get(i.region.range())
                        .and_then(|s| s.find('\n'))
                        .map_or(i.region.end, |n| i.region.start + n as u32);
                    children.push(Symbol {
                        name: text
                            .get(i.region.start as usize..line_end as usize)
                            .unwrap_or("")
                            .trim()
                            .to_string(),
                        detail: Some(target_label(comp, i.target)),
                        kind: SymbolKind::FIELD,
                        range: i.region,
                        selection: Span::new(i.region.start, line_end),
                        children: Vec::new(),
                    });
                }
            }
            _ => {}
        }
        out.push(Symbol { name, detail: None, kind, range, selection: header, children });
    }
    out
}

/// Edits that indent with tabs (`tab_size` columns of spaces, rounded up,
/// make one tab) and remove trailing spaces and tabs; nothing else changes.
pub fn format(text: &str, tab_size: u32) -> Vec<(Span, String)> {
    let tab_size = tab_size.clamp(1, 64) as usize;
    let mut edits = Vec::new();
    let mut start = 0usize;
    for line in text.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let indent_len = body.len() - body.trim_start_matches([' ', '\t']).len();
        let indent = &body[..indent_len];
        let content = body[indent_len..].trim_end_matches([' ', '\t']);
        if content.is_empty() {
            if !body.is_empty() {
                edits.push((Span::new(start as u32, (start + body.len()) as u32), String::new()));
            }
        } else {
            if indent.contains(' ') {
                let mut cols = 0usize;
                for c in indent.chars() {
                    cols = if c == '\t' { (cols / tab_size + 1) * tab_size } else { cols + 1 };
                }
                edits.push((
                    Span::new(start as u32, (start + indent_len) as u32),
                    "\t".repeat(cols.div_ceil(tab_size)),
                ));
            }
            let trail = indent_len + content.len();
            if trail < body.len() {
                edits.push((
                    Span::new((start + trail) as u32, (start + body.len()) as u32),
                    String::new(),
                ));
            }
        }
        start += line.len();
    }
    edits
}

/// [`format()`] of the whole lines that `range` touches (what an editor's
/// "format selection", Neovim's `gq`, asks for); the edits are in document
/// offsets. The line the range ends in counts even when the range ends at
/// its start: Neovim 0.7's `gq` sends `start of the first line .. start of
/// the last line` for the lines it means.
pub fn format_range(text: &str, tab_size: u32, range: Span) -> Vec<(Span, String)> {
    let clamp = |o: u32| {
        let mut o = (o as usize).min(text.len());
        while !text.is_char_boundary(o) {
            o -= 1;
        }
        o
    };
    let (start, end) = (clamp(range.start), clamp(range.end.max(range.start)));
    let from = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let to = text[end..].find('\n').map_or(text.len(), |i| end + i + 1);
    format(&text[from..to], tab_size)
        .into_iter()
        .map(|(span, new)| (span.shifted(from as u32), new))
        .collect()
}

/// A completion proposal: the text replacing `replace` and what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    /// The text inserted (and shown).
    pub label: String,
    /// Its LSP kind.
    pub kind: CompletionItemKind,
    /// What it is.
    pub detail: String,
    /// The text it replaces (the word typed so far).
    pub replace: Span,
}

const BONE_PROPS: [(&str, &str); 11] = [
    ("l", "lNUM: length"),
    ("r", "rNUM: rotation (degrees, counterclockwise)"),
    ("x", "xNUM: x position"),
    ("y", "yNUM: y position"),
    ("i", "iNUM: scale x"),
    ("j", "jNUM: scale y"),
    ("#", "COLOR: the bone's color (#RGB or #RRGGBB)"),
    ("flip-x", "mirror the bone's x axis"),
    ("flip-y", "mirror the bone's y axis"),
    ("no-rot", "do not inherit the parent's rotation"),
    ("no-scale", "do not inherit the parent's scale"),
];
const TYPES: [&str; 5] = [":sprite", ":rect", ":circle", ":ellipse", ":path"];
const BONE_TIMELINES: [(&str, &str); 7] = [
    ("x", "x position"),
    ("y", "y position"),
    ("r", "rotation"),
    ("i", "scale x"),
    ("j", "scale y"),
    ("s", "flip x"),
    ("t", "flip y"),
];
const SLOT_TIMELINES: [(&str, &str); 6] = [
    ("@", "attachment"),
    ("c", "color"),
    ("r", "red"),
    ("g", "green"),
    ("b", "blue"),
    ("a", "alpha"),
];
/// Timing modifiers of an `anim` header (LANGUAGE-EXT.md).
const ANIM_MODIFIERS: [(&str, &str); 6] = [
    ("cycle", "every numeric timeline ends on its value at frame 0"),
    ("from", "from \"ANIM\": start as a copy of another animation"),
    ("reverse", "play backwards"),
    ("pingpong", "play forwards, then backwards"),
    ("mirror", "swap -l/-r partners and mirror their motion"),
    ("swap", "swap -l/-r partners' channels unchanged"),
];

/// Timing modifiers of a bone item (LANGUAGE-EXT.md).
const ITEM_MODIFIERS: [(&str, &str); 2] = [
    ("delay", "delay N: this bone plays N frames late, wrapping around the loop"),
    ("chain", "chain N: every bone below plays N frames per generation late"),
];

/// The payload kinds that start an event line.
const EVENT_KINDS: [(&str, &str); 4] = [
    ("e", "e ! -> !: fires without a payload"),
    ("i", "i 1 -> 2: a whole-number payload"),
    ("f", "f 0.5 -> 1: a number payload"),
    ("s", "s \"left\" -> \"right\": a string payload"),
];

const TIMELINE_TOKENS: [(&str, &str); 11] = [
    ("->", "advance one step"),
    ("-->", "advance two steps"),
    (":li->", "linear easing, advance one step"),
    (":si->", "sine-in easing, advance one step"),
    (":so->", "sine-out easing, advance one step"),
    (":sio->", "sine-in-out easing, advance one step"),
    ("0:>", "jump to frame F"),
    ("+1:>", "advance F frames"),
    ("::si>", "give the key before the sine-in easing"),
    ("{", "start a loop"),
    ("}[2]", "end a loop: run its body N times"),
];
const SECTION_OPTIONS: [(&str, &str); 6] = [
    ("0:1:li", "F:S:E: start frame, step, easing"),
    (":1:", "step: frames per `-` of an arrow"),
    ("::li", "easing: linear"),
    ("::si", "easing: sine in"),
    ("::so", "easing: sine out"),
    ("::sio", "easing: sine in and out"),
];

/// The properties of an attachment type.
fn attachment_props(ty: &TypeName) -> Vec<(&'static str, &'static str)> {
    let mut v = vec![
        ("x", "xNUM: x offset"),
        ("y", "yNUM: y offset"),
        ("r", "rNUM: rotation"),
        ("i", "iNUM: scale x"),
        ("j", "jNUM: scale y"),
    ];
    match ty {
        TypeName::Sprite => v.push(("\"", "\"IMAGE\": the picture")),
        TypeName::Rect | TypeName::Ellipse => {
            v.extend([("w", "wNUM: width"), ("h", "hNUM: height")])
        }
        _ => {}
    }
    if matches!(ty, TypeName::Rect | TypeName::Circle) {
        v.push(("d", "dNUM: diameter (a rect's corner rounding)"));
    }
    if ty.is_shape() {
        v.extend([
            ("f#", "f#COLOR: fill"),
            ("s#", "s#COLOR: stroke"),
            ("t", "tNUM: stroke width"),
            ("m", "mNUM: miter limit"),
            ("miter-join", "line join"),
            ("bevel-join", "line join"),
            ("round-join", "line join"),
        ]);
    }
    if *ty == TypeName::Path {
        v.extend([("butt-cap", "line cap"), ("square-cap", "line cap"), ("round-cap", "line cap")]);
    }
    v
}

/// Every reference form worth proposing for a set of names: the full name
/// and its shortest dotted suffix that no other name ends with (what the
/// compiler's name index resolves to that name alone).
///
/// Found level by level: the last segments of all names are counted, the
/// names whose last segment is theirs alone are done; only the others are
/// counted again with one more segment (a longer suffix of a done name
/// ends in a segment no other name has, so it cannot collide).
fn name_forms(names: &[&str]) -> Vec<(String, usize)> {
    // For each name still open: where its current suffix starts.
    let mut open: Vec<(usize, usize)> =
        names.iter().enumerate().map(|(i, n)| (i, n.len())).collect();
    let mut shortest: Vec<Option<usize>> = vec![None; names.len()];
    let mut counts: rustc_hash::FxHashMap<&str, u32> = Default::default();
    while !open.is_empty() {
        // Lengthen each open suffix by one segment (a name with none left
        // stays at its full name: it is done, as the full name).
        open.retain_mut(|(i, at)| {
            let name = names[*i];
            if *at == 0 {
                return false;
            }
            *at = name[..at.saturating_sub(1)].rfind('.').map_or(0, |d| d + 1);
            true
        });
        counts.clear();
        for &(i, at) in &open {
            *counts.entry(&names[i][at..]).or_default() += 1;
        }
        open.retain(|&(i, at)| {
            if counts.get(&names[i][at..]) == Some(&1) {
                shortest[i] = Some(at);
                false
            } else {
                true
            }
        });
    }
    let mut out = Vec::with_capacity(names.len() * 2);
    for (i, full) in names.iter().enumerate() {
        if let Some(c) = shortest[i].filter(|&c| c > 0) {
            out.push((full[c..].to_string(), i));
        }
        out.push((full.to_string(), i));
    }
    out
}

/// The most proposals one completion answer carries: a 1000-bone rig has
/// thousands of names, which a client can neither show nor receive in a
/// frame; it asks again as more of the word is typed.
pub const MAX_PROPOSALS: usize = 200;

/// [`complete`], at most `max` proposals: when there are more, those that
/// hold the typed word's characters in order (case-insensitively, as
/// clients filter) are kept, the ones that start with the word first, each
/// group in its own order. The flag says whether any were left out (an
/// LSP "incomplete" list, which clients ask for again as the word grows).
pub fn complete_limited(
    text: &str,
    comp: &Compilation,
    offset: usize,
    max: usize,
) -> (Vec<Proposal>, bool) {
    let all = complete(text, comp, offset);
    if all.len() <= max {
        return (all, false);
    }
    let lower = |c: char| {
        if c.is_ascii() { c.to_ascii_lowercase() } else { c.to_lowercase().next().unwrap_or(c) }
    };
    let word: Vec<char> = {
        let offset = offset.min(text.len());
        let offset = (0..=offset).rev().find(|&o| text.is_char_boundary(o)).unwrap_or(0);
        let line = &text[text[..offset].rfind('\n').map_or(0, |i| i + 1)..offset];
        let start = line.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        line[start..].chars().map(lower).collect()
    };
    // Stops at the last character of the word: names are long, words short.
    let holds = |label: &str| {
        let mut want = word.iter().peekable();
        for c in label.chars() {
            let Some(&&w) = want.peek() else { break };
            if lower(c) == w {
                want.next();
            }
        }
        want.peek().is_none()
    };
    let starts = |label: &str| {
        let mut l = label.chars().map(lower);
        word.iter().all(|c| l.next() == Some(*c))
    };
    let (mut first, mut rest): (Vec<Proposal>, Vec<Proposal>) =
        all.into_iter().filter(|p| holds(&p.label)).partition(|p| starts(&p.label));
    first.append(&mut rest);
    first.truncate(max);
    // More than `max` were made: some are left out, whether filtered or cut.
    (first, true)
}

/// Proposals at `offset`.
pub fn complete(text: &str, comp: &Compilation, offset: usize) -> Vec<Proposal> {
    let mut c = Completer::at(text, comp, offset);
    if c.depth == 0 && c.first_token {
        c.top_level_keywords();
        return c.out;
    }
    let Some(si) = section_at(comp, c.line_start) else { return c.out };
    let (sec_start, sec) = (comp.sections[si].0, &comp.sections[si].1);
    if c.depth == 0 {
        c.header_line(&sec.kind);
        return c.out;
    }
    match &sec.kind {
        SectionKind::Skeleton(_) | SectionKind::Skin(_) => c.skeleton_or_skin(sec_start, &sec.kind),
        SectionKind::Order(_) => c.order(),
        SectionKind::Anim(_) => c.anim(sec_start),
        SectionKind::Expect(_) => c.expect(),
        SectionKind::Ik(_) => c.ik(),
        SectionKind::Ignored => {}
    }
    c.out
}

/// The cursor's context for [`complete`] and the proposals gathered so far.
struct Completer<'a> {
    text: &'a str,
    comp: &'a Compilation,
    offset: usize,
    line_start: usize,
    /// The line up to the cursor.
    before: &'a str,
    /// Indentation depth (leading tabs).
    depth: usize,
    /// Start of the word under the cursor, relative to `line_start`.
    word_start: usize,
    word: &'a str,
    /// Whether the word is the line's first token.
    first_token: bool,
    /// The span a proposal replaces (the word under the cursor).
    replace: Span,
    bone_names: Vec<&'a str>,
    slot_names: Vec<&'a str>,
    out: Vec<Proposal>,
}

impl<'a> Completer<'a> {
    /// Reads the cursor's line, depth and word at `offset`.
    fn at(text: &'a str, comp: &'a Compilation, offset: usize) -> Self {
        let offset = offset.min(text.len());
        let offset = (0..=offset).rev().find(|&o| text.is_char_boundary(o)).unwrap_or(0);
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[line_start..offset];
        let depth = before.bytes().take_while(|&b| b == b'\t').count();
        let word_start = before
            .rfind(|c: char| c.is_whitespace())
            .map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8));
        let word = &before[word_start..];
        let first_token = before[..word_start].trim().is_empty();
        let replace = Span::new((line_start + word_start) as u32, offset as u32);
        let sk = &*comp.armature.skeleton;
        let bone_names = sk.bones.iter().map(|b| b.name.as_str()).collect();
        let slot_names = sk.slots.iter().map(|s| s.name.as_str()).collect();
        Completer {
            text,
            comp,
            offset,
            line_start,
            before,
            depth,
            word_start,
            word,
            first_token,
            replace,
            bone_names,
            slot_names,
            out: Vec::new(),
        }
    }

    /// Adds a proposal replacing the word under the cursor.
    fn push(&mut self, label: &str, kind: CompletionItemKind, detail: &str) {
        self.push_at(label, kind, detail, self.replace);
    }

    /// Adds a proposal replacing `replace`.
    fn push_at(&mut self, label: &str, kind: CompletionItemKind, detail: &str, replace: Span) {
        self.out.push(Proposal {
            label: label.to_string(),
            kind,
            detail: detail.to_string(),
            replace,
        });
    }

    /// Adds every `(label, detail)` of `list` with one kind.
    fn push_all(&mut self, list: &[(&str, &str)], kind: CompletionItemKind) {
        for (l, d) in list {
            self.push(l, kind, d);
        }
    }

    /// Adds every bone reference form, replacing `replace`.
    fn bone_refs(&mut self, replace: Span) {
        for (form, i) in name_forms(&self.bone_names) {
            let detail = format!("bone {}", self.bone_names[i]);
            self.out.push(Proposal {
                label: form,
                kind: CompletionItemKind::CLASS,
                detail,
                replace,
            });
        }
    }

    /// Adds every slot reference form (`@NAME`).
    fn slot_refs(&mut self) {
        for (form, i) in name_forms(&self.slot_names) {
            let detail = format!("slot {}", self.slot_names[i]);
            self.out.push(Proposal {
                label: format!("@{form}"),
                kind: CompletionItemKind::VARIABLE,
                detail,
                replace: self.replace,
            });
        }
    }

    /// The end of the cursor's line.
    fn line_end(&self) -> usize {
        self.text[self.offset..].find('\n').map_or(self.text.len(), |i| self.offset + i)
    }

    /// The token before the word under the cursor.
    fn prev_token(&self) -> Option<&'a str> {
        self.before[..self.word_start].split_whitespace().next_back()
    }

    /// The section keywords, at the start of an unindented line.
    fn top_level_keywords(&mut self) {
        self.push_all(
            &[
                ("skeleton", "bones and slots"),
                ("skin", "skin \"NAME\": other attachments"),
                ("order", "draw order"),
                ("anim", "anim \"NAME\" FPS OPTS"),
                ("expect", "expect \"ANIM\" FRAME ~TOL: pose assertions"),
                ("ik", "ik: inverse kinematics, one `TIP to TARGET up N` per line"),
            ],
            CompletionItemKind::KEYWORD,
        );
    }

    /// After a section keyword: names of the sections of that kind, then options.
    fn header_line(&mut self, kind: &SectionKind) {
        let sk = &*self.comp.armature.skeleton;
        let head_tokens =
            self.before.split_whitespace().count() - usize::from(!self.word.is_empty());
        let quoted: Vec<String> = match kind {
            SectionKind::Skin(_) if head_tokens == 1 => {
                sk.skins.iter().skip(1).map(|s| s.name.clone()).collect()
            }
            SectionKind::Anim(_) | SectionKind::Expect(_) if head_tokens == 1 => {
                self.comp.armature.animations.iter().map(|a| a.name.clone()).collect()
            }
            SectionKind::Anim(_) => {
                let fps = [
                    ("24fps", "frames per second"),
                    ("30fps", "frames per second"),
                    ("60fps", "frames per second"),
                ];
                self.push_all(&fps, CompletionItemKind::UNIT);
                self.push_all(&SECTION_OPTIONS, CompletionItemKind::OPERATOR);
                if self.prev_token() == Some("from") {
                    for a in &self.comp.armature.animations {
                        self.push(
                            &format!("\"{}\"", a.name),
                            CompletionItemKind::VALUE,
                            "animation",
                        );
                    }
                }
                self.push_all(&ANIM_MODIFIERS, CompletionItemKind::KEYWORD);
                return;
            }
            _ => return,
        };
        // The section being written names a skin or an animation of its own
        // (`""` while it has no name): only the names other sections made
        // are offered. A new skin or animation section with one of them
        // adds to it, so the offer says so.
        let own = match kind {
            SectionKind::Skin(k) => Some(&k.name.node),
            SectionKind::Anim(a) => Some(&a.name.node),
            _ => None,
        };
        let comp = self.comp;
        let by_others = |name: &str| {
            let sections = comp.sections.iter().filter(|(_, sec)| match &sec.kind {
                SectionKind::Skin(k) => matches!(kind, SectionKind::Skin(_)) && k.name.node == name,
                SectionKind::Anim(a) => matches!(kind, SectionKind::Anim(_)) && a.name.node == name,
                _ => false,
            });
            sections.count() > usize::from(own.is_some_and(|o| o == name))
        };
        let detail = match kind {
            SectionKind::Skin(_) => "skin already defined: this section adds to it",
            SectionKind::Anim(_) => "animation already defined: this section adds to it",
            _ => "animation",
        };
        for n in quoted {
            if n.is_empty() || (own.is_some() && !by_others(&n)) {
                continue;
            }
            self.push(&format!("\"{n}\""), CompletionItemKind::VALUE, detail);
        }
    }

    /// Bone, slot, attachment and path lines of a skeleton or skin section.
    fn skeleton_or_skin(&mut self, sec_start: u32, kind: &SectionKind) {
        let is_skin = matches!(kind, SectionKind::Skin(_));
        // Depth of slot lines and of path commands.
        let (slot_depth, path_depth) = if is_skin { (1, 2) } else { (2, 3) };
        // A point's bone (`x,y:bone`) or the bone of `: bone`.
        let point_bone = self.word.find(':').filter(|_| self.word.contains(','));
        if let Some(colon) = point_bone {
            self.bone_refs(Span::new(self.replace.start + colon as u32 + 1, self.replace.end));
        } else if !is_skin && self.depth == 1 {
            if self.first_token {
                for n in self.bone_names.clone() {
                    self.push(n, CompletionItemKind::CLASS, "bone");
                }
            } else {
                self.push_all(&BONE_PROPS, CompletionItemKind::PROPERTY);
            }
        } else if self.depth == slot_depth && self.first_token {
            if is_skin {
                self.slot_refs();
            } else {
                self.skeleton_slot_names();
            }
        } else if self.depth == slot_depth {
            self.attachment_line(sec_start, kind);
        } else if self.depth == path_depth {
            if self.prev_token() == Some(":") {
                self.bone_refs(self.replace);
            } else if self.first_token {
                self.push_all(
                    &[
                        ("M", "M x,y: move"),
                        ("L", "L x,y: line"),
                        ("Q", "Q cx,cy x,y: quadratic"),
                        ("B", "B c1 c2 p: cubic"),
                        ("C", "close"),
                        (":", ": BONE: bind the next points"),
                    ],
                    CompletionItemKind::FUNCTION,
                );
            }
        }
    }

    /// Slot names under a skeleton's bone: `@` and the bone's own slots.
    fn skeleton_slot_names(&mut self) {
        let sk = &*self.comp.armature.skeleton;
        let bone = self
            .comp
            .sources
            .bone_defs
            .iter()
            .rfind(|d| (d.line.start as usize) < self.line_start)
            .map(|d| d.bone);
        self.push("@", CompletionItemKind::VARIABLE, "a slot named after its bone");
        for s in sk.slots.iter().filter(|s| Some(s.bone) == bone) {
            let short = s.name.rsplit('.').next().unwrap_or(&s.name);
            self.push(
                &format!("@{short}"),
                CompletionItemKind::VARIABLE,
                &format!("slot {}", s.name),
            );
        }
    }

    /// After a slot's name: attachment types, or the properties of its type.
    fn attachment_line(&mut self, sec_start: u32, kind: &SectionKind) {
        let ty = slot_type_at(sec_start, kind, self.line_start, self.line_end());
        if self.word.starts_with(':') || ty.is_none() {
            for t in TYPES {
                self.push(t, CompletionItemKind::TYPE_PARAMETER, "attachment type");
            }
        }
        if let Some(ty) = ty.filter(|_| !self.word.starts_with(':')) {
            self.push_all(&attachment_props(&ty), CompletionItemKind::PROPERTY);
        }
    }

    /// Slot references at the start of a draw order line.
    fn order(&mut self) {
        if self.depth == 1 && self.first_token {
            self.slot_refs();
        }
    }

    /// Every event name the document's animations fire, each once.
    fn event_names(&self) -> Vec<String> {
        let mut names: Vec<String> = (self.comp.armature.animations.iter())
            .flat_map(|a| a.events.iter().map(|e| e.name.clone()))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Whether the item the cursor's line belongs to is an event item
    /// (`\t!NAME`): the last line above it indented by one tab.
    fn in_event_item(&self) -> bool {
        let above = &self.text[..self.line_start];
        above
            .split('\n')
            .rev()
            .find(|l| l.starts_with('\t') && !l.starts_with("\t\t"))
            .is_some_and(|l| l.starts_with("\t!"))
    }

    /// Targets, options and timeline lines of an animation.
    fn anim(&mut self, sec_start: u32) {
        if self.depth == 1 && self.first_token {
            self.bone_refs(self.replace);
            self.slot_refs();
            for n in self.event_names() {
                self.push(&format!("!{n}"), CompletionItemKind::FUNCTION, "event");
            }
            self.push("!", CompletionItemKind::FUNCTION, "!NAME: an event item");
        } else if self.depth == 1 {
            self.push_all(&SECTION_OPTIONS, CompletionItemKind::OPERATOR);
            let line = self.before.trim_start();
            if !line.starts_with('@') && !line.starts_with('!') {
                self.push_all(&ITEM_MODIFIERS, CompletionItemKind::KEYWORD);
            }
        } else if self.depth == 2 && self.in_event_item() {
            if self.first_token {
                self.push_all(&EVENT_KINDS, CompletionItemKind::PROPERTY);
            } else {
                if self.before.trim_start().starts_with("e ") {
                    self.push("!", CompletionItemKind::KEYWORD, "fire the event here");
                }
                self.push_all(&TIMELINE_TOKENS, CompletionItemKind::OPERATOR);
            }
        } else if self.depth == 2 {
            let item = self.comp.sources.items.iter().rfind(|i| {
                (i.region.start as usize) < self.line_start
                    && (i.region.start as usize) >= sec_start as usize
            });
            let target = item.and_then(|i| i.target);
            if self.first_token {
                let list: &[(&str, &str)] = match target {
                    Some(Target::Slot(_)) => &SLOT_TIMELINES,
                    Some(Target::Bone(_)) => &BONE_TIMELINES,
                    _ => &[],
                };
                self.push_all(list, CompletionItemKind::PROPERTY);
            } else {
                self.timeline_values(target);
            }
        }
    }

    /// Values after a timeline's property: attachment names, booleans, then tokens.
    fn timeline_values(&mut self, target: Option<Target>) {
        let sk = &*self.comp.armature.skeleton;
        let line_end = self.line_end() as u32;
        let tl = self
            .comp
            .sources
            .timelines
            .iter()
            .find(|t| t.line.start as usize >= self.line_start && t.line.start <= line_end);
        // A line without keys yet makes no timeline: its first
        // token says the property (the parser's own recognizer).
        let first = self.before.split_whitespace().next().unwrap_or("");
        let prop = tl.map(|t| t.prop).or_else(|| match target {
            Some(Target::Slot(_)) => TimelineProp::for_slot(first),
            _ => TimelineProp::for_bone(first),
        });
        match (prop, target) {
            (Some(TimelineProp::Attachment), Some(Target::Slot(s))) => {
                for a in sk.attachments.iter().filter(|a| a.slot == s) {
                    self.push(&a.name, CompletionItemKind::ENUM_MEMBER, "attachment");
                }
            }
            (Some(TimelineProp::FlipX | TimelineProp::FlipY), _) => {
                self.push("true", CompletionItemKind::KEYWORD, "flipped");
                self.push("false", CompletionItemKind::KEYWORD, "not flipped");
            }
            _ => {}
        }
        self.push_all(&TIMELINE_TOKENS, CompletionItemKind::OPERATOR);
    }

    /// Targets and their checked values in an expect section.
    fn expect(&mut self) {
        if self.depth == 1 && self.first_token {
            self.bone_refs(self.replace);
            self.slot_refs();
            let events: Vec<String> = match section_animation(self.comp, self.offset as u32) {
                Some(a) => {
                    let mut v: Vec<String> = a.events.iter().map(|e| e.name.clone()).collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                }
                None => Vec::new(),
            };
            for n in events {
                self.push(
                    &format!("!{n}"),
                    CompletionItemKind::FUNCTION,
                    "event: fires at this frame",
                );
            }
        } else if self.depth == 1 && self.before.trim_start().starts_with('!') {
            self.push_all(
                &[
                    ("never", "never FROM TO: does not fire from frame FROM to TO"),
                    ("~", "~NUM: tolerance of a number payload"),
                ],
                CompletionItemKind::KEYWORD,
            );
        } else if self.depth == 1 {
            let slot = self.before.trim_start().starts_with('@');
            let list: &[(&str, &str)] = if slot {
                &[
                    ("r", "rNUM: red"),
                    ("g", "gNUM: green"),
                    ("b", "bNUM: blue"),
                    ("a", "aNUM: alpha"),
                    ("~", "~NUM: tolerance"),
                ]
            } else {
                &[
                    ("x", "xNUM: x"),
                    ("y", "yNUM: y"),
                    ("r", "rNUM: rotation (degrees)"),
                    ("i", "iNUM: scale x"),
                    ("j", "jNUM: scale y"),
                    ("local", "check the local transform"),
                    ("world", "check world values (the default)"),
                    ("~", "~NUM: tolerance"),
                ]
            };
            self.push_all(list, CompletionItemKind::PROPERTY);
        }
    }

    /// Bones and keywords of an ik line.
    fn ik(&mut self) {
        if self.depth != 1 {
            return;
        }
        if self.first_token || matches!(self.prev_token(), Some("to" | "from")) {
            self.bone_refs(self.replace);
        } else {
            self.push_all(
                &[
                    ("to", "to BONE: the target the tip reaches for"),
                    ("up", "up N: the tip and N parents above it"),
                    ("from", "from BONE: the tip and its parents up to BONE"),
                    ("fabrik", "FABRIK solver (default)"),
                    ("arc", "Arc solver"),
                    ("cw", "bend clockwise"),
                    ("ccw", "bend counterclockwise"),
                ],
                CompletionItemKind::KEYWORD,
            );
        }
    }
}

/// The attachment type of the slot line (skeleton) or skin item on the
/// line `[line_start, line_end]`, from the section's tree.
fn slot_type_at(
    sec_start: u32,
    kind: &SectionKind,
    line_start: usize,
    line_end: usize,
) -> Option<TypeName> {
    let rel = (line_start as u32).checked_sub(sec_start)?;
    let rel_end = (line_end as u32).checked_sub(sec_start)?;
    let on = |span: Span| rel <= span.start && span.start <= rel_end;
    let ty = match kind {
        SectionKind::Skeleton(s) => s
            .bones
            .iter()
            .flat_map(|b| &b.slots)
            .find(|sl| on(sl.span))
            .and_then(|sl| sl.spec.ty.as_ref()),
        SectionKind::Skin(s) => {
            s.items.iter().find(|i| on(i.span)).and_then(|i| i.spec.ty.as_ref())
        }
        _ => None,
    };
    ty.map(|t| t.node.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;

    fn apply(text: &str, mut edits: Vec<(Span, String)>) -> String {
        let mut out = text.to_string();
        edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
        for (s, t) in edits {
            out.replace_range(s.range(), &t);
        }
        out
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

    #[test]
    fn formatting_only_touches_indentation_and_trailing_blanks() {
        let text = "skeleton \r\n  \tarm l1\t\n\n        x\n";
        let mut out = text.to_string();
        let mut edits = format(text, 4);
        edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
        for (s, t) in edits {
            out.replace_range(s.range(), &t);
        }
        assert_eq!(out, "skeleton\r\n\tarm l1\n\n\t\tx\n");
    }

    #[test]
    fn range_formatting_touches_the_whole_lines_of_the_range_only() {
        let text = "skeleton \n    arm l1 \n    leg\t\n    hip  \n";
        let line =
            |n: usize| text.split_inclusive('\n').take(n).map(str::len).sum::<usize>() as u32;
        // Lines 1 and 2 (0-based), the range from the middle of one to the
        // middle of the other: both whole lines, nothing else.
        let r = Span::new(line(1) + 6, line(2) + 2);
        assert_eq!(
            apply(text, format_range(text, 4, r)),
            "skeleton \n\tarm l1\n\tleg\n    hip  \n"
        );
        // A range ending at the start of a line takes that line too (what
        // Neovim 0.7's `gqj` sends for lines 1 and 2).
        let r = Span::new(line(1), line(2));
        assert_eq!(
            apply(text, format_range(text, 4, r)),
            "skeleton \n\tarm l1\n\tleg\n    hip  \n"
        );
        // An empty range formats its line; ranges past the end are clamped.
        assert_eq!(
            apply(text, format_range(text, 4, Span::new(line(3) + 1, line(3) + 1))),
            "skeleton \n    arm l1 \n    leg\t\n\thip\n"
        );
        assert_eq!(
            apply(text, format_range(text, 4, Span::new(0, u32::MAX))),
            apply(text, format(text, 4))
        );
        // Inside a multi-byte character: no panic, its line.
        let t = "é  \n";
        assert_eq!(apply(t, format_range(t, 4, Span::new(1, 1))), "é\n");
    }

    /// The forms as the compiler's name index resolves them (what
    /// `name_forms` made before it counted suffixes itself).
    fn name_forms_by_index(names: &[&str]) -> Vec<(String, usize)> {
        let idx = NameIndex::new(names.iter().copied());
        let mut out = Vec::new();
        for (i, full) in names.iter().enumerate() {
            let mut cuts: Vec<usize> = full.match_indices('.').map(|(d, _)| d + 1).collect();
            cuts.reverse();
            if let Some(c) =
                cuts.into_iter().find(|&c| idx.resolve(&full[c..]) == Resolved::Found(i as u32))
            {
                out.push((full[c..].to_string(), i));
            }
            out.push((full.to_string(), i));
        }
        out
    }

    #[test]
    fn name_forms_are_what_the_name_index_resolves_alone() {
        let mut sets: Vec<Vec<String>> = vec![
            ["a", "a.b", "c.b", "b", "x.y.z", "w.y.z", "q.z"].map(String::from).to_vec(),
            ["root", "root.arm", "root.arm.hand", "arm", "arm.hand"].map(String::from).to_vec(),
        ];
        for (_, style) in crate::generate::STYLES {
            let comp = crate::compile::compile(&crate::generate::styled(style, 300, 2));
            let sk = &*comp.armature.skeleton;
            sets.push(sk.bones.iter().map(|b| b.name.clone()).collect());
            sets.push(sk.slots.iter().map(|s| s.name.clone()).collect());
        }
        for set in &sets {
            let names: Vec<&str> = set.iter().map(String::as_str).collect();
            assert_eq!(name_forms(&names), name_forms_by_index(&names), "{names:?}");
        }
    }

    #[test]
    fn a_long_list_is_cut_to_the_names_that_hold_the_typed_word() {
        let mut text = String::from("skeleton\n");
        for i in 0..300 {
            text.push_str(&format!("\tbone{i}\n"));
        }
        text.push_str("\tLegacy\nanim \"a\"\n\t");
        let comp = crate::compile::compile(&text);
        let (all, cut) = complete_limited(&text, &comp, text.len(), 10_000);
        // The 301 bones, and `!` (an event item).
        assert!(!cut && all.len() == 302, "{}", all.len());
        assert!(all.iter().any(|p| p.label == "!"));
        let (some, cut) = complete_limited(&text, &comp, text.len(), 50);
        assert!(cut && some.len() == 50);
        assert_eq!(some[0].label, "bone0", "in order when nothing is typed");
        // `e2`: names holding an `e` then a `2`, those starting with it first
        // (none here); `bone2`, `bone12`, `bone20`…; not `Legacy`.
        let typed = format!("{text}e2");
        let comp = crate::compile::compile(&typed);
        let (some, cut) = complete_limited(&typed, &comp, typed.len(), 50);
        assert!(cut);
        assert_eq!(some[0].label, "bone2");
        assert!(
            some.iter().all(|p| p.label.contains('2')),
            "{:?}",
            some.iter().map(|p| &p.label).collect::<Vec<_>>()
        );
        // `leg`, case-insensitively and as a prefix first: `Legacy`.
        let typed = format!("{text}leg");
        let comp = crate::compile::compile(&typed);
        let (some, _) = complete_limited(&typed, &comp, typed.len(), 50);
        assert_eq!(some.iter().map(|p| p.label.as_str()).collect::<Vec<_>>(), ["Legacy"]);
    }

    #[test]
    fn a_section_header_offers_the_names_other_sections_made_not_its_own() {
        let labels = |text: &str| -> Vec<(String, String)> {
            let comp = crate::compile::compile(text);
            complete(text, &comp, text.len()).into_iter().map(|p| (p.label, p.detail)).collect()
        };
        // `anim ` alone: no `""` (its own name while it has none).
        assert_eq!(labels("skeleton\n\tarm\nanim "), []);
        // Other animations are offered, said to be added to.
        let got = labels("skeleton\n\tarm\nanim \"walk\"\n\tarm\n\t\tx 1\nanim ");
        assert_eq!(
            got,
            [(
                "\"walk\"".to_string(),
                "animation already defined: this section adds to it".to_string()
            )]
        );
        // Its own name, while typing it, is not offered; another section's
        // of the same name is.
        assert_eq!(labels("skeleton\n\tarm\nanim \"run"), []);
        assert_eq!(labels("skeleton\n\tarm\nanim \"run\"\nanim \"run").len(), 1);
        // Skins alike; `expect` names animations to check, all of them.
        assert_eq!(labels("skeleton\n\tarm\nskin "), []);
        let got = labels("skeleton\n\tarm\nanim \"walk\"\nexpect ");
        assert_eq!(got, [("\"walk\"".to_string(), "animation".to_string())]);
    }
}
