//! Drag on the canvas, the text follows: the minimal text edit that writes
//! new values for a bone (or a slot's attachment) into the script.
//!
//! Pure functions of the text, its compilation's source map and the values
//! wanted, so they are tested without a window. Only number tokens that
//! change are rewritten (or one token such as ` x12.5` is inserted); every
//! other byte — comments, spacing, tabs, line endings — is left alone.
//! Values that cannot be changed in one obvious place (a loop body, a
//! relative `+N`/`*N` key, a bone written on several lines) are refused with
//! a message that says why, and what to write instead when there is one.
//!
//! Where a value goes: at the setup pose (Timeline ▸ "(setup pose)") the
//! number of the token that wins on the bone's one line, or one inserted
//! token; in an animation the key under the playhead, or an inserted `F:> V`
//! where that alone is exact (before a key placed by an absolute frame option,
//! after the last key). Implicit parents and missing timelines are refused
//! too, in the status bar.

use super::format_number;
use crate::text_edit::TextEdit as Edit;
use skelpad_lang::compile::{Compilation, KeyOrigin, PropKey, PropSource, Target};
use skelpad_lang::model::{AnimId, BoneId, SlotId};
use skelpad_lang::syntax::tree::TimelineProp;

/// Where a drag writes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    /// The setup pose: the bone's line in the skeleton section.
    Setup,
    /// The key of an animation at a time (a playhead on a frame).
    Anim {
        /// The animation whose timelines are written.
        anim: AnimId,
        /// The playhead, seconds from the animation's start.
        time_secs: f64,
        /// The animation's frames per second: a key within half a frame of
        /// the playhead is the one edited.
        fps: f64,
    },
}

pub(super) fn letter(key: PropKey) -> char {
    match key {
        PropKey::Length => 'l',
        PropKey::Rotation => 'r',
        PropKey::X => 'x',
        PropKey::Y => 'y',
        PropKey::ScaleX => 'i',
        PropKey::ScaleY => 'j',
        PropKey::Other => '?',
    }
}

fn default_of(key: PropKey) -> f64 {
    if matches!(key, PropKey::ScaleX | PropKey::ScaleY) { 1.0 } else { 0.0 }
}

/// The timeline property a written property keys (`None`: not keyable).
pub fn timeline_prop(key: PropKey) -> Option<TimelineProp> {
    Some(match key {
        PropKey::X => TimelineProp::X,
        PropKey::Y => TimelineProp::Y,
        PropKey::Rotation => TimelineProp::Rotation,
        PropKey::ScaleX => TimelineProp::ScaleX,
        PropKey::ScaleY => TimelineProp::ScaleY,
        _ => return None,
    })
}

fn line_of(text: &str, offset: u32) -> usize {
    text.as_bytes()[..(offset as usize).min(text.len())].iter().filter(|b| **b == b'\n').count() + 1
}

fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Edits of the property tokens of one line: each value replaces the number
/// of the last token with its key (the one that wins), or is appended at
/// `end` when the line has none (and the value is not the default).
fn line_edits(props: &[PropSource], end: u32, values: &[(PropKey, f64)]) -> Vec<Edit> {
    let mut edits = Vec::new();
    for &(key, v) in values {
        let n = format_number(v);
        let rounded: f64 = n.parse().unwrap_or(v);
        match props.iter().rev().find(|p| p.key == key) {
            Some(p) => {
                if !same(p.value, rounded) {
                    edits.push(Edit::replace(p.span.start as usize + 1..p.span.end as usize, n));
                }
            }
            None => {
                if !same(default_of(key), rounded) {
                    edits.push(Edit::replace(
                        end as usize..end as usize,
                        format!(" {}{n}", letter(key)),
                    ));
                }
            }
        }
    }
    // Several insertions at one place keep the order of `values`.
    let mut merged: Vec<Edit> = Vec::new();
    for e in edits {
        match merged.iter_mut().find(|m| m.span.start == m.span.end && m.span == e.span) {
            Some(m) => m.insert.push_str(&e.insert),
            None => merged.push(e),
        }
    }
    merged
}

fn bone_name(comp: &Compilation, bone: BoneId) -> &str {
    comp.armature.skeleton.bones.get(bone.index()).map_or("?", |b| b.name.as_str())
}

/// What the text says a bone's property is at `place` (the value a drag
/// starts from): the token on its line or the default at setup; the key
/// under the playhead in an animation (`None` between keys).
pub fn written_bone_value(
    text: &str,
    comp: &Compilation,
    bone: BoneId,
    key: PropKey,
    place: Place,
) -> Result<Option<f64>, String> {
    match place {
        Place::Setup => {
            let def = single_bone_line(text, comp, bone)?;
            let props = comp.sources.props_of(&def.props);
            Ok(Some(props.iter().rev().find(|p| p.key == key).map_or(default_of(key), |p| p.value)))
        }
        Place::Anim { anim, time_secs, fps } => {
            let src = &comp.sources;
            let Some(prop) = timeline_prop(key) else {
                return Err("this property has no timeline".into());
            };
            let Some(tl) = src.timeline(anim, Target::Bone(bone), prop) else { return Ok(None) };
            Ok(src
                .keys_of(tl)
                .iter()
                .find(|k| ((k.time_secs - time_secs) * fps).abs() < 0.5)
                .and_then(|k| k.value))
        }
    }
}

fn single_bone_line<'a>(
    text: &str,
    comp: &'a Compilation,
    bone: BoneId,
) -> Result<&'a skelpad_lang::compile::BoneDef, String> {
    let name = bone_name(comp, bone);
    let lines: Vec<_> = comp.sources.bone_lines(bone).collect();
    match lines.as_slice() {
        [] => Err(format!(
            "`{name}` has no line of its own (it is the parent of bones written below it): write `\t{name}` in the skeleton to move it"
        )),
        [one] => Ok(one),
        many => {
            let at: Vec<String> =
                many.iter().map(|d| line_of(text, d.line.start).to_string()).collect();
            Err(format!(
                "`{name}` is written on {} lines ({}): the drag would not know which to change; merge them into one line",
                many.len(),
                at.join(", ")
            ))
        }
    }
}

/// The edits that give `bone` these values (in the script's units: degrees,
/// and in an animation the key's value relative to the setup pose).
pub fn bone_edits(
    text: &str,
    comp: &Compilation,
    bone: BoneId,
    values: &[(PropKey, f64)],
    place: Place,
) -> Result<Vec<Edit>, String> {
    match place {
        Place::Setup => {
            let def = single_bone_line(text, comp, bone)?;
            Ok(line_edits(comp.sources.props_of(&def.props), def.end, values))
        }
        Place::Anim { anim, time_secs, fps } => {
            let mut edits = Vec::new();
            for &(key, v) in values {
                edits.push(key_edit(text, comp, bone, key, v, anim, time_secs, fps)?);
            }
            Ok(edits.into_iter().flatten().collect())
        }
    }
}

#[allow(
    clippy::too_many_arguments,
    reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
)]
fn key_edit(
    text: &str,
    comp: &Compilation,
    bone: BoneId,
    key: PropKey,
    v: f64,
    anim: AnimId,
    time_secs: f64,
    fps: f64,
) -> Result<Option<Edit>, String> {
    let src = &comp.sources;
    let name = bone_name(comp, bone);
    let anim_name = comp.armature.animations.get(anim.index()).map_or("", |a| a.name.as_str());
    let Some(prop) = timeline_prop(key) else { return Err("this property has no timeline".into()) };
    let l = letter(key);
    let frame = (time_secs * fps).round();
    let (f, n) = (format_number(frame), format_number(v));
    let Some(tl) = src.timeline(anim, Target::Bone(bone), prop) else {
        return Err(format!(
            "`{name}` has no `{l}` timeline in \"{anim_name}\": to key it at frame {f}, write `{l} {f}:> {n}` under a `{name}` item"
        ));
    };
    let tl_line = line_of(text, tl.line.start);
    let keys = src.keys_of(tl);
    let write_it = || {
        format!(
            "to add a key at frame {f}, write `{f}:> {n}` in the `{l}` timeline of `{name}` (line {tl_line})"
        )
    };
    if let Some(k) = keys.iter().find(|k| ((k.time_secs - time_secs) * fps).abs() < 0.5) {
        return match k.origin {
            KeyOrigin::Loop => Err(format!(
                "the `{l}` key of `{name}` at frame {f} comes from a loop body (line {tl_line}): changing it would change every repeat; edit it by hand"
            )),
            KeyOrigin::Relative => Err(format!(
                "the `{l}` key of `{name}` at frame {f} is written relative to the key before (`+N`/`*N`, line {tl_line}): edit it by hand"
            )),
            KeyOrigin::Plain => {
                let rounded: f64 = n.parse().unwrap_or(v);
                if k.value.is_some_and(|x| same(x, rounded)) {
                    Ok(None)
                } else {
                    Ok(Some(Edit::replace(k.span.range(), n)))
                }
            }
        };
    }
    // Between keys: insert `F:> V` where that alone is enough.
    let next = keys.iter().find(|k| k.frame > frame);
    match next {
        Some(b) => match b.placed_by {
            // The next key is placed by an absolute frame option: a key
            // inserted right before that option leaves it where it is.
            Some((opt, before)) if before < frame && b.origin != KeyOrigin::Loop => Ok(Some(
                Edit::replace(opt.start as usize..opt.start as usize, format!("{f}:> {n} ")),
            )),
            _ => Err(write_it()),
        },
        // After the last key: append.
        None if !tl.open_loop && tl.end_frame < frame => {
            Ok(Some(Edit::replace(tl.end as usize..tl.end as usize, format!(" {f}:> {n}"))))
        }
        None => Err(write_it()),
    }
}

/// The edits that give the attachment a slot shows at setup these
/// transform values (`x`, `y`, `r`, `i`, `j` on its slot line).
pub fn slot_edits(
    text: &str,
    comp: &Compilation,
    slot: SlotId,
    attachment: Option<skelpad_lang::model::AttachmentId>,
    values: &[(PropKey, f64)],
) -> Result<Vec<Edit>, String> {
    let sk = &comp.armature.skeleton;
    let name = sk.slots.get(slot.index()).map_or("?", |s| s.name.as_str());
    let Some(att) = attachment else { return Err(format!("slot `{name}` shows nothing to move")) };
    let lines: Vec<_> = comp
        .sources
        .slot_defs
        .iter()
        .filter(|d| d.slot == slot && d.attachment == Some(att))
        .collect();
    match lines.as_slice() {
        [] => Err(format!("the attachment of slot `{name}` has no line to write to")),
        [one] => Ok(line_edits(comp.sources.props_of(&one.props), one.end, values)),
        many => {
            let at: Vec<String> =
                many.iter().map(|d| line_of(text, d.line.start).to_string()).collect();
            Err(format!(
                "the attachment of slot `{name}` is written on {} lines ({}): merge them into one line",
                many.len(),
                at.join(", ")
            ))
        }
    }
}

/// What the text says the transform of the attachment a slot shows is.
pub fn written_slot_value(
    comp: &Compilation,
    slot: SlotId,
    attachment: Option<skelpad_lang::model::AttachmentId>,
    key: PropKey,
) -> f64 {
    comp.sources
        .slot_defs
        .iter()
        .filter(|d| d.slot == slot && d.attachment == attachment)
        .flat_map(|d| comp.sources.props_of(&d.props).iter())
        .rev()
        .find(|p| p.key == key)
        .map_or(default_of(key), |p| p.value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text_edit::apply;
    use skelpad_lang::compile::compile;

    fn edit(
        text: &str,
        bone: &str,
        values: &[(PropKey, f64)],
        place: Place,
    ) -> Result<String, String> {
        let comp = compile(text);
        let b = comp.armature.skeleton.bone_by_name(bone).unwrap();
        bone_edits(text, &comp, b, values, place).map(|e| apply(text, &e))
    }

    #[test]
    fn numbers_have_at_most_two_decimals_and_no_trailing_zeros() {
        assert_eq!(format_number(12.5), "12.5");
        assert_eq!(format_number(-30.0), "-30");
        assert_eq!(format_number(0.1 + 0.2), "0.3");
        assert_eq!(format_number(1.23456), "1.23");
        assert_eq!(format_number(-0.001), "0");
        assert_eq!(format_number(2.999), "3");
    }

    #[test]
    fn setup_edits_touch_only_the_numbers_that_change() {
        let text = "skeleton # rig\r\n\tarm  l40\tx5 # the arm\r\n\tleg x1\r\n";
        let out =
            edit(text, "arm", &[(PropKey::X, 12.5), (PropKey::Y, 0.0)], Place::Setup).unwrap();
        assert_eq!(out, "skeleton # rig\r\n\tarm  l40\tx12.5 # the arm\r\n\tleg x1\r\n");
        // An absent property is one inserted token after the last one.
        let out = edit(text, "arm", &[(PropKey::Rotation, -30.0)], Place::Setup).unwrap();
        assert_eq!(out, "skeleton # rig\r\n\tarm  l40\tx5 r-30 # the arm\r\n\tleg x1\r\n");
        let out =
            edit(text, "leg", &[(PropKey::X, 1.0), (PropKey::Y, 2.25)], Place::Setup).unwrap();
        assert_eq!(out, "skeleton # rig\r\n\tarm  l40\tx5 # the arm\r\n\tleg x1 y2.25\r\n");
        // The token that wins is the last one.
        let out = edit("skeleton\n\ta x1 x2\n", "a", &[(PropKey::X, 3.0)], Place::Setup).unwrap();
        assert_eq!(out, "skeleton\n\ta x1 x3\n");
    }

    #[test]
    fn reopened_bones_and_implicit_parents_are_refused() {
        let e = edit(
            "skeleton\n\tarm x1\n\tleg\n\tarm r5\n",
            "arm",
            &[(PropKey::X, 2.0)],
            Place::Setup,
        )
        .unwrap_err();
        assert!(e.contains("2 lines (2, 4)"), "{e}");
        let e = edit("skeleton\n\tarm.hand x1\n", "arm", &[(PropKey::X, 2.0)], Place::Setup)
            .unwrap_err();
        assert!(e.contains("no line of its own"), "{e}");
    }

    const ANIM: &str = "skeleton\n\tarm\nanim \"a\" 10fps\n\tarm\n\t\tx 0 -> 10 20:> 5 # keys\n\t\tr 0 -> +10 -> { 5 -> }[2]\n";

    fn at(frame: f64) -> Place {
        Place::Anim { anim: AnimId(0), time_secs: frame / 10.0, fps: 10.0 }
    }

    #[test]
    fn animation_edits_change_the_key_under_the_playhead() {
        let out = edit(ANIM, "arm", &[(PropKey::X, 7.5)], at(5.0)).unwrap();
        assert_eq!(out, ANIM.replace("-> 10 20:>", "-> 7.5 20:>"));
        // Between keys, before a key placed by `20:>`: insert a key.
        let out = edit(ANIM, "arm", &[(PropKey::X, 3.0)], at(12.0)).unwrap();
        assert_eq!(out, ANIM.replace("10 20:> 5", "10 12:> 3 20:> 5"));
        let comp = compile(&out);
        let keys: Vec<(f64, f64)> = comp.armature.animations[0].bones[0]
            .keys
            .iter()
            .map(|k| (k.time_secs * 10.0, k.value))
            .collect();
        assert_eq!(keys, [(0.0, 0.0), (5.0, 10.0), (12.0, 3.0), (20.0, 5.0)]);
        // After the last key: append.
        let out = edit(ANIM, "arm", &[(PropKey::X, 1.0)], at(30.0)).unwrap();
        assert_eq!(out, ANIM.replace("20:> 5 # keys", "20:> 5 30:> 1 # keys"));
        // Between keys placed by arrows: say what to write.
        let e = edit(ANIM, "arm", &[(PropKey::X, 1.0)], at(2.0)).unwrap_err();
        assert!(e.contains("write `2:> 1` in the `x` timeline of `arm` (line 5)"), "{e}");
    }

    #[test]
    fn relative_and_loop_keys_and_missing_timelines_are_refused() {
        let e = edit(ANIM, "arm", &[(PropKey::Rotation, 1.0)], at(5.0)).unwrap_err();
        assert!(e.contains("relative"), "{e}");
        let e = edit(ANIM, "arm", &[(PropKey::Rotation, 1.0)], at(10.0)).unwrap_err();
        assert!(e.contains("loop body"), "{e}");
        let e = edit(ANIM, "arm", &[(PropKey::Y, 1.0)], at(10.0)).unwrap_err();
        assert!(e.contains("no `y` timeline") && e.contains("`y 10:> 1`"), "{e}");
    }

    #[test]
    fn shapes_write_their_slot_line() {
        let text = "skeleton\n\tarm\n\t\t@ :rect w10 h4 x2\n";
        let comp = compile(text);
        let slot = skelpad_lang::model::SlotId(0);
        let att = comp.armature.skeleton.slots[0].attachment;
        let e = slot_edits(text, &comp, slot, att, &[(PropKey::X, 4.0), (PropKey::Rotation, 45.0)])
            .unwrap();
        assert_eq!(apply(text, &e), "skeleton\n\tarm\n\t\t@ :rect w10 h4 x4 r45\n");
        assert_eq!(written_slot_value(&comp, slot, att, PropKey::X), 2.0);
    }
}
