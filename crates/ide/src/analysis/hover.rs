//! Hover: what the token at an offset is, in Markdown.

use std::fmt::Write as _;

use super::{bone_name, num, role_at, section_animation, slot_name, target_at_text, target_label};
use skelpad_lang::compile::{Compilation, PropKey, Target, TimelineSource};
use skelpad_lang::model::SkinId;
use skelpad_lang::runtime::Pose;
use skelpad_lang::syntax::tree::TimelineProp;
use skelpad_lang::syntax::{Role, Span, token};

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
            match target_at_text(text, comp, at) {
                Some((span, t)) => Some((target_hover(comp, t), span)),
                None if role == Role::String => Some((animation_hover(comp, tok)?, span)),
                None => None,
            }
        }
        Role::Event => Some((event_hover(comp, offset, tok.trim_start_matches('!'))?, span)),
        Role::Property if src.timelines.iter().any(|t| t.line.start == span.start) => {
            let t = src.timelines.iter().find(|t| t.line.start == span.start)?;
            Some((timeline_hover(comp, t), span))
        }
        Role::BoneProperty | Role::Property => {
            let p = src.props.iter().find(|p| p.span == span)?;
            let owner = owner_of_prop(comp, span)?;
            // The source map keeps the value of the transform properties
            // only; another property (a size, a colour, a flag) is named
            // without a value rather than with a wrong one.
            let text = match p.key {
                PropKey::Other => format!("`{tok}` sets a property of {owner}"),
                k => format!("`{tok}` sets {} of {owner} to {}", key_name(k), num(p.value)),
            };
            Some((text, span))
        }
        Role::Number => Some((number_hover(comp, tok, span)?, span)),
        Role::Color => Some((color_hover(tok)?, span)),
        Role::Option => Some((
            easing_hover(tok).or_else(|| modifier_hover(tok)).or_else(|| word_hover(tok))?,
            span,
        )),
        _ => None,
    }
}

/// Markdown for a number: the keys it sets in a timeline (none: no hover),
/// or the plain number outside timelines.
fn number_hover(comp: &Compilation, tok: &str, span: Span) -> Option<String> {
    let src = &comp.sources;
    let Some(t) = src.timelines.iter().find(|t| t.line.contains(span.start)) else {
        // A path's point is two numbers joined by a comma.
        if let Some((x, y)) = tok.split_once(',') {
            return Some(format!("point `{x}, {y}` (x, y in the bone's units)"));
        }
        return Some(format!("number `{tok}`"));
    };
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
    let head = format!("a key of {} of {}", prop_name(t.prop), target_label(comp, t.target));
    Some(format!("{head}\n\n{}", keys.join("  \n")))
}

/// Markdown for a quoted animation name (a sequence part, a mix line, `from`
/// or `add`): its length and frame rate.
fn animation_hover(comp: &Compilation, tok: &str) -> Option<String> {
    let name = tok.strip_prefix('"')?.strip_suffix('"')?;
    let a = comp.armature.animation(comp.armature.animation_by_name(name)?)?;
    let frames = a.duration_secs * a.fps;
    Some(format!(
        "animation \"{name}\": {} s at {} fps ({} frames)",
        num(a.duration_secs),
        num(a.fps),
        num(frames)
    ))
}

/// Markdown for a modifier word of an `anim` header or a sequence part.
fn word_hover(tok: &str) -> Option<String> {
    use skelpad_lang::syntax::vocab;
    let header = vocab::ANIM_MODIFIERS.iter().find(|w| w.text == tok).map(|w| w.detail);
    let part = vocab::PART_WORDS.iter().find(|w| w.text == tok).map(|w| w.detail);
    header.or(part).map(|d| format!("`{tok}`: {d}"))
}

/// Markdown for an options token that sets an easing: its name, its
/// numbers when it is a bezier curve, and a little drawing of it.
fn easing_hover(tok: &str) -> Option<String> {
    let o = token::options(tok, true).or_else(|| token::options(tok, false))?;
    let Some(token::EasingOpt::Known(e)) = o.easing else { return None };
    let what = skelpad_lang::syntax::vocab::EASINGS
        .iter()
        .find(|w| w.means == e)
        .map_or("a cubic-bezier curve", |w| w.detail.split(':').next().unwrap_or(w.detail));
    let numbers = match e {
        skelpad_lang::model::Easing::Bezier(b) if e.code().is_some() => {
            let [x1, y1, x2, y2] = b.to_array();
            format!(" = `bz({x1},{y1},{x2},{y2})`")
        }
        _ => String::new(),
    };
    Some(format!("easing `{e}`{numbers}: {what}\n\n`{}`", e.sparkline(16)))
}

/// Markdown for a timing modifier word (`delay`, `spring`, `mirror`, …):
/// what it does, and for the springs what their two numbers mean.
fn modifier_hover(tok: &str) -> Option<String> {
    use skelpad_lang::syntax::vocab::{ANIM_MODIFIERS, ITEM_MODIFIERS};
    let (detail, example) = ITEM_MODIFIERS
        .iter()
        .map(|w| (w.text, w.detail, w.example))
        .chain(ANIM_MODIFIERS.iter().map(|w| (w.text, w.detail, w.example)))
        .find(|w| w.0 == tok)
        .map(|w| (w.1, w.2))?;
    let mut md = format!(
        "`{tok}`: {detail}

e.g. `{example}`"
    );
    if tok.starts_with("spring") {
        md.push_str(
            "\n\nHZ: how many times a second the spring swings (undamped); \
             DAMPING: 1 settles without overshoot, less wobbles longer (0.01 to 100). \
             Simulated at the animation's frame rate over its settled loop and baked \
             into the rotation keys (LANGUAGE-EXT.md, Springs).",
        );
    }
    Some(md)
}

/// Markdown for a color literal (`#rgb`, or a shape's `f#…`/`s#…`): its
/// RGBA components.
fn color_hover(tok: &str) -> Option<String> {
    let lit = token::color(tok.trim_start_matches(['f', 's']))?;
    let c = lit.to_color_exact();
    let which = if tok.starts_with('f') {
        "fill color"
    } else if tok.starts_with('s') {
        "stroke color"
    } else {
        "color"
    };
    Some(format!(
        "{which} `{tok}`: RGBA {} {} {} {} (red {}, green {}, blue {})",
        num(c.r),
        num(c.g),
        num(c.b),
        num(c.a),
        lit.rgb[0],
        lit.rgb[1],
        lit.rgb[2]
    ))
}

/// Markdown for an event's name: the frames (and payloads) it fires at in
/// the animation of the section at `offset`.
fn event_hover(comp: &Compilation, offset: u32, name: &str) -> Option<String> {
    use skelpad_lang::model::EventPayload;
    let a = section_animation(comp, offset)?;
    let mut s = format!("**event** `{name}` in \"{}\"\n\n", a.name);
    let keys: Vec<&skelpad_lang::model::Event> =
        a.events.iter().filter(|e| e.name == name).collect();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_easing_hovers_with_its_numbers_and_its_curve() {
        let text =
            "skeleton\n\tb l10\nanim \"a\"\n\tb\n\t\tx 0 ::back-out-> 5 ::bz(0.2,0,0.4,1)-> 0\n";
        let comp = skelpad_lang::compile::compile(text);
        assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
        let at = text.find("back").unwrap() as u32;
        let (md, _) = hover(text, &comp, at).unwrap();
        assert!(md.starts_with("easing `back-out` = `bz(0.34,1.56,0.64,1)`: back out"), "{md}");
        assert_eq!(md.lines().last().map(|l| l.chars().count()), Some(18), "{md}");
        let at = text.find("bz(").unwrap() as u32;
        let (md, _) = hover(text, &comp, at).unwrap();
        assert!(md.starts_with("easing `bz(0.2,0,0.4,1)`: a cubic-bezier curve"), "{md}");
    }

    #[test]
    fn a_spring_hovers_with_what_its_numbers_mean() {
        let text = "skeleton\n\tb l10\n\tb.t x10 l10\nanim \"a\"\n\tb\n\t\tr 0 -> 30 -> 0\n\tt spring 2 0.4 delay 1\n";
        let comp = skelpad_lang::compile::compile(text);
        assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
        let at = text.find("spring").unwrap() as u32 + 2;
        let (md, _) = hover(text, &comp, at).unwrap();
        assert!(md.starts_with("`spring`: spring HZ DAMPING: the bone trails"), "{md}");
        assert!(md.contains("DAMPING: 1 settles without overshoot"), "{md}");
        let at = text.find("delay").unwrap() as u32;
        let (md, _) = hover(text, &comp, at).unwrap();
        assert!(md.starts_with("`delay`: delay N"), "{md}");
        assert!(!md.contains("HZ"), "{md}");
    }

    #[test]
    fn a_paths_point_hovers_as_a_point_and_a_plain_number_as_a_number() {
        let text = "skeleton\n\tb l10\n\t\t@ :path t2 s#000\n\t\t\tM -11.2,-6.3 L 4,5\n";
        let comp = skelpad_lang::compile::compile(text);
        let at = text.find("-11.2").unwrap() as u32 + 1;
        let (md, _) = hover(text, &comp, at).unwrap();
        assert_eq!(md, "point `-11.2, -6.3` (x, y in the bone's units)");
        let at = text.find("t2").unwrap() as u32 + 1;
        let md = hover(text, &comp, at).map(|(m, _)| m).unwrap_or_default();
        assert!(!md.starts_with("point"), "{md}");
    }
}
