//! A drag on the canvas that edits the script: what is being dragged, the
//! values it started from, and the pointer → values mapping. The text edit
//! itself is `skelpad_ide::edits::write_back`'s.
//!
//! A left drag on a bone's origin mark moves it (`x`/`y`), on its diamond
//! rotates it (`r`; Shift: `i`, scale along the bone), on a shape moves its
//! bone (or, with the Shapes toggle, the shape's own `x`/`y`, Shift `r`, on its
//! slot line); Alt or the Snap toggle snaps. `DragEdit` keeps the text and
//! compilation from the drag's start, so the whole drag is one undo step.

use eframe::egui;

use crate::compile::{Compilation, PropKey};
use crate::model::{Affine, AttachmentId, BoneId, BoneTransform, SlotId, normalize_angle};
use crate::render::Part;
use crate::runtime::Pose;

use super::canvas::Pick;
use super::document::Document;
use skelpad_ide::edits::{self as write_back, Place};
use skelpad_ide::text_edit::apply;

/// What the pointer does to the values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gesture {
    /// `x`/`y`.
    Move,
    /// `r`, around the origin.
    Rotate,
    /// `i`: scale along the bone.
    Scale,
}

/// What is being edited.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Subject {
    /// A bone: its `x`/`y`, `r` or `i`, on its skeleton line or in the
    /// animation's key at the playhead.
    Bone(BoneId),
    /// The transform of the attachment a slot shows (its slot line).
    Shape(SlotId, Option<AttachmentId>),
}

/// A drag in progress.
pub struct DragEdit {
    /// The text when the drag started, and its compilation: every update
    /// edits that text, so one drag is one edit.
    before: String,
    comp: Compilation,
    /// What the drag edits.
    pub subject: Subject,
    /// How the pointer changes it.
    pub gesture: Gesture,
    place: Place,
    start: (f64, f64),
    origin: (f64, f64),
    /// World vectors → the space the written `x`/`y` live in.
    to_local: Affine,
    /// +1, or −1 where a mirrored transform turns rotations the other way.
    angle_sign: f64,
    last_angle: f64,
    turned: f64,
    /// The bone's direction in world space, and the pointer's distance
    /// along it at the start.
    dir: (f64, f64),
    start_along: f64,
    start_values: Vec<(PropKey, f64)>,
    /// The text was changed by this drag.
    pub changed: bool,
    /// The text before auto-key inserted keys for this drag (`before` is
    /// then the keyed text the drag edits).
    undo_to: Option<String>,
    /// Keys auto-key inserted.
    auto_keyed: usize,
}

fn keys(gesture: Gesture) -> &'static [PropKey] {
    match gesture {
        Gesture::Move => &[PropKey::X, PropKey::Y],
        Gesture::Rotate => &[PropKey::Rotation],
        Gesture::Scale => &[PropKey::ScaleX],
    }
}

fn angle_of(from: (f64, f64), to: (f64, f64)) -> f64 {
    (to.1 - from.1).atan2(to.0 - from.0)
}

/// What a pick on the canvas drags and how: a bone's origin moves it, the
/// rest of it turns it (scales it with Shift); a shape moves (turns with
/// Shift) with the shapes toggle on, else moves its bone. Fails on a shape
/// that comes from the skin shown.
fn subject_of(
    doc: &Document,
    pose: &Pose,
    (pick, part): (Pick, Part),
    shift: bool,
    shapes: bool,
) -> Result<(Subject, Gesture), String> {
    let comp = doc.analysis.comp();
    let sk = &comp.armature.skeleton;
    Ok(match (pick, part) {
        (Pick::Bone(b), Part::BoneOrigin) => (Subject::Bone(b), Gesture::Move),
        (Pick::Bone(b), _) => {
            (Subject::Bone(b), if shift { Gesture::Scale } else { Gesture::Rotate })
        }
        (Pick::Slot(s), _) => {
            let slot = sk.slots.get(s.index()).ok_or("the shape is gone")?;
            if !shapes {
                return Ok((Subject::Bone(slot.bone), Gesture::Move));
            }
            let att = pose.attachment(sk, s).map(|(id, _)| id);
            if let Some(e) = comp
                .sources
                .skin_entries
                .iter()
                .find(|e| e.skin == pose.skin && e.slot == Some(s) && e.attachment == att)
            {
                let line =
                    doc.text[..(e.region.start as usize).min(doc.text.len())].matches('\n').count()
                        + 1;
                return Err(format!(
                    "this shape comes from the skin shown (line {line}): edit it there, or show the default skin"
                ));
            }
            (Subject::Shape(s, att), if shift { Gesture::Rotate } else { Gesture::Move })
        }
    })
}

/// Where a drag starts from.
struct Start {
    /// The values written (or, between keys, the animation's now).
    values: Vec<(PropKey, f64)>,
    /// World vectors → the space the written `x`/`y` live in.
    to_local: Affine,
    /// The point it turns around.
    origin: (f64, f64),
    /// The sign of the turn (−1 where a mirror turns rotations around; 0
    /// reads as +1).
    angle_sign: f64,
    /// The world transform of the bone it moves (or whose shape).
    bone_world: Affine,
}

/// The start of a drag of `subject` by `gesture`; fails, with the reason,
/// when the values cannot be written back at `place`.
fn start_of(
    text: &str,
    comp: &Compilation,
    pose: &Pose,
    (subject, gesture): (Subject, Gesture),
    place: Place,
) -> Result<Start, String> {
    let sk = &comp.armature.skeleton;
    let bone = match subject {
        Subject::Bone(b) => b,
        Subject::Shape(s, _) => sk.slots[s.index()].bone,
    };
    let bone_pose = pose.bones.get(bone.index()).ok_or("the bone is gone")?;
    let setup = &sk.bones.get(bone.index()).ok_or("the bone is gone")?.setup;
    let parent_world = sk.bones[bone.index()]
        .parent
        .and_then(|p| pose.bones.get(p.index()))
        .map_or(Affine::IDENTITY, |p| p.world);
    let mut values = Vec::new();
    let bone_world = bone_pose.world;
    match subject {
        Subject::Bone(b) => {
            for &key in keys(gesture) {
                let written = write_back::written_bone_value(text, comp, b, key, place)?;
                // Between keys: the value the animation has there now.
                values.push((key, written.unwrap_or(relative_value(key, &bone_pose.local, setup))));
            }
            write_back::bone_edits(text, comp, b, &values, place)?;
            let scale_sign = (bone_pose.local.scale_x * bone_pose.local.scale_y).signum();
            Ok(Start {
                values,
                to_local: parent_world.inverse().unwrap_or(Affine::IDENTITY),
                origin: bone_world.apply(0.0, 0.0),
                angle_sign: bone_world.determinant().signum() * scale_sign,
                bone_world,
            })
        }
        Subject::Shape(s, att) => {
            for &key in keys(gesture) {
                values.push((key, write_back::written_slot_value(comp, s, att, key)));
            }
            write_back::slot_edits(text, comp, s, att, &values)?;
            let (ax, ay) =
                pose.attachment(sk, s).map_or((0.0, 0.0), |(_, a)| (a.transform.x, a.transform.y));
            Ok(Start {
                values,
                to_local: bone_world.inverse().unwrap_or(Affine::IDENTITY),
                origin: bone_world.apply(ax, ay),
                angle_sign: bone_world.determinant().signum(),
                bone_world,
            })
        }
    }
}

/// A bone's value of `key` relative to its setup, as a key writes it:
/// offsets for `x`/`y`/`r` (degrees), a ratio for the scale.
fn relative_value(key: PropKey, local: &BoneTransform, setup: &BoneTransform) -> f64 {
    match key {
        PropKey::X => local.x - setup.x,
        PropKey::Y => local.y - setup.y,
        PropKey::Rotation => normalize_angle(local.rotation_rad - setup.rotation_rad).to_degrees(),
        _ => {
            if setup.scale_x == 0.0 {
                1.0
            } else {
                local.scale_x / setup.scale_x
            }
        }
    }
}

impl DragEdit {
    /// Starts a drag of what was picked at world point `at`; `shapes`: the
    /// shapes toggle (a shape's own transform is edited, not its bone).
    /// Fails, with the reason for the status bar, when the value cannot be
    /// written back.
    #[allow(
        clippy::too_many_arguments,
        reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
    )]
    pub fn begin(
        doc: &Document,
        pose: &Pose,
        pick: Pick,
        part: Part,
        shift: bool,
        at: (f64, f64),
        place: Place,
        shapes: bool,
    ) -> Result<Self, String> {
        let comp = doc.analysis.comp().clone();
        let text = doc.text.clone();
        let (subject, gesture) = subject_of(doc, pose, (pick, part), shift, shapes)?;
        Self::begin_on(text, comp, pose, (subject, gesture), at, place)
    }

    /// [`DragEdit::begin`] with auto-key: where the drag is refused at a
    /// frame of an animation (no key there to write), the bone's properties
    /// the gesture changes are first keyed at that frame with the values
    /// the animation has there (`edits::insert_key_for`: the motion is
    /// unchanged, the text gains one key per property), then the drag
    /// writes into those keys. The whole — keys and drag — is one undo
    /// step. Where a key cannot be inserted exactly, the drag is refused
    /// with both reasons.
    #[allow(
        clippy::too_many_arguments,
        reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
    )]
    pub fn begin_auto_keyed(
        doc: &Document,
        pose: &Pose,
        pick: Pick,
        part: Part,
        shift: bool,
        at: (f64, f64),
        place: Place,
        shapes: bool,
    ) -> Result<Self, String> {
        let why = match Self::begin(doc, pose, pick, part, shift, at, place, shapes) {
            Ok(edit) => return Ok(edit),
            Err(why) => why,
        };
        let Place::Anim { anim, time_secs, fps } = place else { return Err(why) };
        let (subject, gesture) = subject_of(doc, pose, (pick, part), shift, shapes)?;
        let Subject::Bone(b) = subject else { return Err(why) };
        let frame = (time_secs * fps).round();
        let (mut text, mut comp) = (doc.text.clone(), doc.analysis.comp().clone());
        let mut keyed = 0;
        for &key in keys(gesture) {
            let Some(prop) = write_back::timeline_prop(key) else { continue };
            let target = crate::compile::Target::Bone(b);
            match write_back::insert_key_for(&text, &comp, anim, target, prop, frame) {
                Ok(edits) => {
                    text = apply(&text, &edits);
                    comp = crate::compile::compile(&text);
                    keyed += 1;
                }
                // (A property keyed there already is written as it is.)
                Err(e) if e.contains("already") => {}
                Err(e) => return Err(format!("{why}; auto-key cannot key it: {e}")),
            }
        }
        if keyed == 0 {
            return Err(why);
        }
        let mut edit = Self::begin_on(text, comp, pose, (subject, gesture), at, place)?;
        edit.undo_to = Some(doc.text.clone());
        edit.auto_keyed = keyed;
        Ok(edit)
    }

    /// A drag of `subject` by `gesture` that edits `text` (compiled as
    /// `comp`).
    fn begin_on(
        text: String,
        comp: Compilation,
        pose: &Pose,
        (subject, gesture): (Subject, Gesture),
        at: (f64, f64),
        place: Place,
    ) -> Result<Self, String> {
        let Start { values: start_values, to_local, origin, angle_sign, bone_world } =
            start_of(&text, &comp, pose, (subject, gesture), place)?;
        let (dx, dy) = bone_world.apply_vector(1.0, 0.0);
        let len = dx.hypot(dy);
        let dir = if len > 0.0 { (dx / len, dy / len) } else { (1.0, 0.0) };
        let start_along = (at.0 - origin.0) * dir.0 + (at.1 - origin.1) * dir.1;
        if gesture == Gesture::Scale && start_along.abs() < 1e-6 {
            return Err("grab the bone farther from its origin to scale it".into());
        }
        Ok(DragEdit {
            before: text,
            comp,
            subject,
            gesture,
            place,
            start: at,
            origin,
            to_local,
            angle_sign: if angle_sign == 0.0 { 1.0 } else { angle_sign },
            last_angle: angle_of(origin, at),
            turned: 0.0,
            dir,
            start_along,
            start_values,
            changed: false,
            undo_to: None,
            auto_keyed: 0,
        })
    }

    /// The text before the drag (what undo returns to: before the keys
    /// auto-key inserted, if any).
    pub fn before(&self) -> &str {
        self.undo_to.as_deref().unwrap_or(&self.before)
    }

    /// How many keys auto-key inserted for this drag.
    pub fn auto_keyed(&self) -> usize {
        self.auto_keyed
    }

    /// The values for the pointer at world point `at` (`snap`: whole units,
    /// 5° and tenths of scale).
    pub fn values(&mut self, at: (f64, f64), snap: bool) -> Vec<(PropKey, f64)> {
        let snapped = |v: f64, step: f64| if snap { (v / step).round() * step } else { v };
        let start = |k: PropKey| self.start_values.iter().find(|v| v.0 == k).map_or(0.0, |v| v.1);
        match self.gesture {
            Gesture::Move => {
                let (dx, dy) = self.to_local.apply_vector(at.0 - self.start.0, at.1 - self.start.1);
                vec![
                    (PropKey::X, snapped(start(PropKey::X) + dx, 1.0)),
                    (PropKey::Y, snapped(start(PropKey::Y) + dy, 1.0)),
                ]
            }
            Gesture::Rotate => {
                let a = angle_of(self.origin, at);
                self.turned += normalize_angle(a - self.last_angle);
                self.last_angle = a;
                vec![(
                    PropKey::Rotation,
                    snapped(
                        start(PropKey::Rotation) + self.angle_sign * self.turned.to_degrees(),
                        5.0,
                    ),
                )]
            }
            Gesture::Scale => {
                let along =
                    (at.0 - self.origin.0) * self.dir.0 + (at.1 - self.origin.1) * self.dir.1;
                vec![(
                    PropKey::ScaleX,
                    snapped(start(PropKey::ScaleX) * along / self.start_along, 0.1),
                )]
            }
        }
    }

    /// The text with the pointer at `at`.
    pub fn update(&mut self, at: (f64, f64), snap: bool) -> Result<String, String> {
        let values = self.values(at, snap);
        let edits = match self.subject {
            Subject::Bone(b) => {
                write_back::bone_edits(&self.before, &self.comp, b, &values, self.place)?
            }
            Subject::Shape(s, att) => {
                write_back::slot_edits(&self.before, &self.comp, s, att, &values)?
            }
        };
        Ok(apply(&self.before, &edits))
    }

    /// What is being dragged, for the status bar.
    pub fn describe(&self) -> String {
        let sk = &self.comp.armature.skeleton;
        let what = match self.subject {
            Subject::Bone(b) => {
                format!("bone `{}`", sk.bones.get(b.index()).map_or("?", |b| b.name.as_str()))
            }
            Subject::Shape(s, _) => format!(
                "the shape of slot `{}`",
                sk.slots.get(s.index()).map_or("?", |s| s.name.as_str())
            ),
        };
        let how = match self.gesture {
            Gesture::Move => "moving",
            Gesture::Rotate => "rotating",
            Gesture::Scale => "scaling",
        };
        let place = match self.place {
            Place::Setup => "setup pose".to_owned(),
            Place::Anim { time_secs, fps, .. } => {
                format!("key at frame {}", write_back::format_number((time_secs * fps).round()))
            }
        };
        format!("{how} {what} ({place}); Alt snaps")
    }
}

/// Makes `text` (the text before a drag) the last undo point of the
/// script's text field, so undoing right after the drag restores it: the
/// drag is one step of the editor's undo history. (The field records no
/// states while it does not have focus, so the drag's intermediate texts
/// never become undo points.)
pub fn mark_undo_point(ctx: &egui::Context, text: &str) {
    let id = super::editor::editor_id();
    let mut state = egui::text_edit::TextEditState::load(ctx, id).unwrap_or_default();
    let range = state.cursor.char_range().unwrap_or_default();
    let mut undoer = state.undoer();
    undoer.add_undo(&(range, text.to_owned()));
    state.set_undoer(undoer);
    state.store(ctx, id);
}
