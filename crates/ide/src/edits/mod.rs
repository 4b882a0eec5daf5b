//! The text edits an animator's tools make, as language features: pure
//! functions of a script's text and its [`Compilation`] that answer with
//! [`TextEdit`]s (all referring to the text given; apply them with
//! [`crate::text_edit::apply`] as one undo step) or with the reason the
//! text cannot say it exactly. The editor calls them and applies the
//! answer; the language server offers some as code actions
//! (`crate::lsp`); both get the same edits.
//!
//! - [`write_back`]: a canvas drag written into the text — the values of a
//!   bone at the setup pose or at a key ([`bone_edits`]), a slot's
//!   attachment transform ([`slot_edits`]), and what the text says a value
//!   is before a drag starts ([`written_bone_value`], [`written_slot_value`]).
//! - [`keys`]: the dopesheet's key edits, each proven by compiling the
//!   result (every other key of the animation stays where it was, with its
//!   value and easing): [`move_key`], [`delete_key`], [`insert_key`] (a
//!   given value token) and [`insert_key_for`] (a bone's or slot's
//!   property keyed with the value the animation has there, [`value_at`]:
//!   the dopesheet's K, "insert key"). Several keys at once
//!   ([`move_keys`], [`delete_keys`], [`paste_keys`], [`insert_keys`]) are edited in turn
//!   ([`edit_in_turn`], compiling between steps) and answer the new text.
//! - [`easing`]: the curve editor's edit, [`set_easing`]: the easing of
//!   the segment after a key written into the options token after it (and
//!   the next key's old easing written back after that key when the new
//!   one would run on), proven by compiling the result; handles are
//!   written with three decimals ([`format_handle`], [`bezier_text`]).
//! - [`anims`]: whole animations — [`new_animation`] (empty: the setup
//!   pose), [`duplicate_animation`] (also "new as a copy of"),
//!   [`rename_animation`] (the language server's rename, one
//!   implementation: `analysis::rename`), [`delete_animation`], and
//!   [`move_animation`] (up or down the list).
//!
//! Numbers are written as the scripts write them ([`format_number`]).

pub mod anims;
pub mod easing;
pub mod keys;
pub mod write_back;

pub use anims::{
    Direction, animation_header_at, delete_animation, duplicate_animation, move_animation,
    new_animation, rename_animation, unused_animation_name, valid_animation_name,
};
pub use easing::{as_bezier, bezier_text, format_handle, parse_easing, set_easing};
pub use keys::{
    delete_key, delete_keys, edit_in_turn, insert_key, insert_key_for, insert_keys, move_key,
    move_keys, paste_keys, value_at,
};
pub use write_back::{
    Place, bone_edits, slot_edits, timeline_prop, written_bone_value, written_slot_value,
};

pub use crate::text_edit::TextEdit;

use skelpad_lang::compile::{Compilation, KeySource, Target, TimelineSource};
use skelpad_lang::model::AnimId;

/// A number as the scripts write it: at most two decimals, no trailing
/// zeros (`12.5`, `-30`, `0.25`).
pub fn format_number(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    let r = if r == 0.0 { 0.0 } else { r };
    format!("{r}")
}

/// What a key's target is called: the bone's name or `@slot`.
pub fn target_name(comp: &Compilation, target: Option<Target>) -> String {
    let sk = &comp.armature.skeleton;
    match target {
        Some(Target::Bone(b)) => sk.bones.get(b.index()).map_or("?".into(), |b| b.name.clone()),
        Some(Target::Slot(s)) => {
            sk.slots.get(s.index()).map_or("@?".into(), |s| format!("@{}", s.name))
        }
        _ => "?".into(),
    }
}

/// A key copied from the dopesheet: its item and property, its frame after
/// the first copied key's, and its value token (what [`paste_keys`] puts
/// back).
#[derive(Clone, Debug, PartialEq)]
pub struct CopiedKey {
    /// The bone or slot.
    pub target: Option<Target>,
    /// The property.
    pub prop: skelpad_lang::syntax::tree::TimelineProp,
    /// Frames after the earliest copied key.
    pub offset: f64,
    /// The value as written.
    pub token: String,
}

/// The key of the compiled animation that a bone key of the text made
/// (matched by bone, property and time; `None` for slot keys, stepped
/// properties, replaced timelines, and keys an animation modifier such as
/// `delay` moved).
fn model_key<'c>(
    comp: &'c Compilation,
    anim: AnimId,
    tl: &TimelineSource,
    time_secs: f64,
) -> Option<&'c skelpad_lang::model::Key<f64>> {
    use skelpad_lang::model::BoneProperty;
    use skelpad_lang::syntax::tree::TimelineProp;
    let Some(Target::Bone(bone)) = tl.target.filter(|_| tl.effective) else { return None };
    let property = match tl.prop {
        TimelineProp::X => BoneProperty::X,
        TimelineProp::Y => BoneProperty::Y,
        TimelineProp::Rotation => BoneProperty::Rotation,
        TimelineProp::ScaleX => BoneProperty::ScaleX,
        TimelineProp::ScaleY => BoneProperty::ScaleY,
        _ => return None,
    };
    let a = comp.armature.animations.get(anim.index())?;
    let ch = a.bones.iter().find(|c| c.bone == bone && c.property == property)?;
    // The keys are in time order: found in log time (the value graph asks
    // for every key of a timeline each frame).
    let at = ch.keys.partition_point(|key| key.time_secs < time_secs - 1e-9);
    ch.keys.get(at).filter(|key| (key.time_secs - time_secs).abs() < 1e-9)
}

/// The curve after a bone key as the compiled animation has it (see
/// `model_key`; `None` for slot channels, which the text does not ease).
pub fn key_curve(
    comp: &Compilation,
    anim: AnimId,
    tl: &TimelineSource,
    k: &KeySource,
) -> Option<skelpad_lang::model::Curve> {
    model_key(comp, anim, tl, k.time_secs).map(|key| key.curve)
}

/// The easing of a bone key as the compiled animation has it (see
/// `model_key`; `None` where it has none).
pub fn key_easing(
    comp: &Compilation,
    anim: AnimId,
    tl: &TimelineSource,
    k: &KeySource,
) -> Option<skelpad_lang::model::Easing> {
    match model_key(comp, anim, tl, k.time_secs)?.curve {
        skelpad_lang::model::Curve::Eased(e) => Some(e),
        _ => None,
    }
}
