//! Spriter's data ([`Doc`]) → one [`Armature`] per entity, played by the
//! runtime's [`Composition::Spriter`] branch exactly as SpriterPlusPlus
//! plays the file (the rules, with their sources, are in
//! `../shared/formats/SPRITER-NOTES.md`):
//!
//! - every bone timeline name is a bone; every sprite timeline name is a
//!   bone (the sprite's own transform) with one slot; its parent is the
//!   bone its mainline refs name;
//! - every (image, pivot) a sprite shows is one attachment; character maps
//!   are further skins;
//! - timeline keys become absolute channels (seconds, degrees → radians
//!   unwrapped by spin, so rotation interpolates plainly); the looping span
//!   from the last key back to the first and SpriterPlusPlus's proxy key
//!   before a late first key become keys too;
//! - mainline keys become the draw-order channel (object_ref order; absent
//!   sprites are hidden) and the time warp (mainline curves).
//!
//! This file builds an entity's skeleton (objects, bones, slots,
//! attachments, skins); `anim` its animations, `keys` their channels.

mod anim;
mod keys;

use anim::{build_anims, ref_parent};

use std::collections::HashMap;
use std::sync::Arc;

use super::Warning;
use super::read::{Anim, Doc, Entity, FileRef, KeyCurve, TKey};
use skelpad_lang::model::*;
use skelpad_lang::model::{SpriterCurve, SpriterCurveKind};

/// Frames per second given to imported animations (Spriter has none; used
/// by exports that work in frames).
pub const FPS: f64 = 60.0;

/// One entity read into the model, with what is read but not played.
#[derive(Clone, Debug)]
pub struct EntityModel {
    /// The entity's name as the file gives it (`entity N` without one).
    pub name: String,
    /// The entity as skelpad's model: one bone per bone or sprite timeline
    /// name, one slot per sprite, skins for character maps, and the
    /// animations (played with `Composition::Spriter`).
    pub armature: Armature,
    /// Per animation (same order as `armature.animations`).
    pub extras: Vec<AnimExtras>,
    /// Character map names, in skin order (skin i + 1 is map i).
    pub character_maps: Vec<String>,
}

/// What an animation holds that skelpad reads and shows but does not play.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnimExtras {
    /// Event and sound keys: name and time in seconds.
    pub events: Vec<(String, f64)>,
    /// Sound line keys: the line's name and the key's time in seconds.
    pub sounds: Vec<(String, f64)>,
    /// Tag keys: time in seconds and the tag ids (as written) from then on.
    pub tags: Vec<(f64, Vec<String>)>,
    /// Number of variable keys.
    pub variable_keys: usize,
    /// Timelines of objects that are not played (boxes, points,
    /// sub-entities, …): type and name.
    pub unplayed_objects: Vec<(String, String)>,
    /// Mainline key times in seconds (Spriter's keys, for the timeline's ticks).
    pub key_times: Vec<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Bone,
    Sprite,
}

struct Obj {
    kind: Kind,
    name: String,
    parent: Option<usize>,
    parent_loc: Option<String>,
    bone: BoneId,
    slot: Option<SlotId>,
    setup: Option<BoneTransform>,
    length: f64,
}

/// The attachment a sprite key shows in a slot (made on first use).
type AttachmentFor<'a> = dyn FnMut(SlotId, &TKey, &mut Vec<Warning>) -> Option<AttachmentId> + 'a;

/// (folder, file, key pivot bits) → attachment, per slot.
type AttKey = (i64, i64, Option<[u64; 2]>);

/// One model per entity of `doc`, in file order. What cannot be played as
/// written (missing files, refs to nothing, unplayed object types) is
/// pushed to `warnings` with its place; nothing here fails.
pub fn build(doc: &Doc, warnings: &mut Vec<Warning>) -> Vec<EntityModel> {
    doc.entities.iter().map(|e| build_entity(doc, e, warnings)).collect()
}

fn warn(warnings: &mut Vec<Warning>, at: impl ToString, message: String) {
    warnings.push(Warning { at: at.to_string(), message });
}

fn kind_of(object_type: &str) -> Option<Kind> {
    match object_type {
        "bone" => Some(Kind::Bone),
        "sprite" => Some(Kind::Sprite),
        _ => None,
    }
}

/// A language NAME from any text: `[A-Za-z_-][A-Za-z0-9_-]*`.
pub fn sanitize(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    out
}

fn unique(name: String, taken: &mut std::collections::HashSet<String>) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    for i in 2.. {
        let n = format!("{name}_{i}");
        if taken.insert(n.clone()) {
            return n;
        }
    }
    unreachable!()
}

fn model_curve(c: KeyCurve) -> Curve {
    match c {
        KeyCurve::Instant => Curve::Stepped,
        KeyCurve::Linear => Curve::LINEAR,
        KeyCurve::Other(s) => Curve::Spriter(s),
    }
}

/// Objects by (kind, timeline name) → index into the objects.
type ByName<'d> = HashMap<(Kind, &'d str), usize>;

/// One entity as a model: objects, their parents and order, bones, slots,
/// animations (making attachments), setup pose and skins.
fn build_entity(doc: &Doc, ent: &Entity, warnings: &mut Vec<Warning>) -> EntityModel {
    let (mut objs, by_name) = collect_objects(ent, warnings);
    // The object of a timeline index in an animation.
    let obj_of = |a: &Anim, tl: i64| -> Option<usize> {
        let t = a.timelines.get(usize::try_from(tl).ok()?)?;
        by_name.get(&(kind_of(&t.object_type)?, t.name.as_str())).copied()
    };
    let mut edges = parent_edges(ent, &mut objs, &obj_of, warnings);
    let order = parents_first(&mut objs, &mut edges, warnings);
    let mut bones = make_bones(&mut objs, &order);
    let slots = make_slots(&mut objs, &order, &bones);
    let mut atts = Attachments {
        doc,
        names: Vec::new(),
        defs: Vec::new(),
        index: HashMap::new(),
        missing_warned: Default::default(),
    };
    let (animations, extras) =
        build_anims(ent, &objs, &obj_of, &slots, &mut |s, k, w| atts.for_key(s, k, w), warnings);
    set_setup_pose(ent, &by_name, &mut objs, &mut bones);
    let (contents, skins, map_names) = make_skins(doc, ent, &atts.defs, warnings);
    let draw_order = slots.iter().enumerate().map(|(i, _)| SlotId::from_index(i)).collect();
    let skeleton = Skeleton {
        bones,
        slots,
        attachments: atts.names,
        contents,
        skins,
        draw_order,
        composition: Composition::Spriter,
        ..Default::default()
    };
    EntityModel {
        name: ent.name.clone(),
        armature: {
            let arm = Armature { skeleton: Arc::new(skeleton), animations };
            debug_assert!(arm.parents_first(), "objects are placed in Kahn's order");
            arm
        },
        extras,
        character_maps: map_names,
    }
}

/// Phase 1: one object per (kind, timeline name) over all animations;
/// timelines of unplayed types are warned about once.
fn collect_objects<'d>(ent: &'d Entity, warnings: &mut Vec<Warning>) -> (Vec<Obj>, ByName<'d>) {
    let mut objs: Vec<Obj> = Vec::new();
    let mut by_name: ByName = HashMap::new();
    let mut unplayed_warned: std::collections::HashSet<(String, String)> = Default::default();
    for a in &ent.animations {
        for t in &a.timelines {
            let Some(kind) = kind_of(&t.object_type) else {
                let what = if t.object_type == "entity" {
                    "sub-entity (not played: skelpad does not nest entities)"
                } else {
                    "not played"
                };
                if unplayed_warned.insert((t.object_type.clone(), t.name.clone())) {
                    warn(
                        warnings,
                        &t.loc,
                        format!(
                            "{} timeline \"{}\" is read and kept, {what}",
                            t.object_type, t.name
                        ),
                    );
                }
                continue;
            };
            by_name.entry((kind, t.name.as_str())).or_insert_with(|| {
                let length = ent
                    .obj_info
                    .iter()
                    .find(|o| o.0 == t.name && o.1 == "bone")
                    .map_or(0.0, |o| o.2);
                objs.push(Obj {
                    kind,
                    name: t.name.clone(),
                    parent: None,
                    parent_loc: None,
                    bone: BoneId(0),
                    slot: None,
                    setup: None,
                    length,
                });
                objs.len() - 1
            });
        }
    }
    (objs, by_name)
}

/// Phase 2: parents from the mainline refs. The first one seen is the
/// bone's parent in the skeleton; others (reparenting, also between
/// animations) become parent channels. Returns every parent seen per object
/// (each must come before its child, so bones are ordered over all of them).
fn parent_edges(
    ent: &Entity,
    objs: &mut [Obj],
    obj_of: &dyn Fn(&Anim, i64) -> Option<usize>,
    warnings: &mut Vec<Warning>,
) -> Vec<Vec<usize>> {
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); objs.len()];
    for a in &ent.animations {
        for mk in &a.mainline {
            for r in mk.bone_refs.iter().chain(&mk.object_refs) {
                let Some(o) = obj_of(a, r.timeline) else { continue };
                let parent = ref_parent(a, mk, r, objs, obj_of, warnings);
                if objs[o].parent_loc.is_none() {
                    objs[o].parent = parent;
                    objs[o].parent_loc = Some(r.loc.to_string());
                }
                if let Some(p) = parent
                    && !edges[o].contains(&p)
                {
                    edges[o].push(p);
                }
            }
        }
    }
    edges
}

/// Phase 3: the objects ordered parents first (Kahn's algorithm; a cycle is
/// broken with a warning and its object hangs from the root).
fn parents_first(
    objs: &mut [Obj],
    edges: &mut [Vec<usize>],
    warnings: &mut Vec<Warning>,
) -> Vec<usize> {
    let mut pending: Vec<usize> = edges.iter().map(Vec::len).collect();
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); objs.len()];
    for (c, ps) in edges.iter().enumerate() {
        for &p in ps {
            kids[p].push(c);
        }
    }
    let mut order: Vec<usize> = Vec::new();
    let mut placed = vec![false; objs.len()];
    let mut ready: std::collections::VecDeque<usize> =
        (0..objs.len()).filter(|&o| pending[o] == 0).collect();
    while order.len() < objs.len() {
        let Some(o) = ready.pop_front().or_else(|| {
            let o = (0..objs.len()).find(|&o| !placed[o] && pending[o] > 0)?;
            let name = objs[o].name.clone();
            warn(
                warnings,
                objs[o].parent_loc.clone().unwrap_or_default(),
                format!("\"{name}\" is its own ancestor; it hangs from the entity root"),
            );
            edges[o].retain(|&p| placed[p]);
            if objs[o].parent.is_some_and(|p| !placed[p]) {
                objs[o].parent = None;
            }
            pending[o] = 0;
            Some(o)
        }) else {
            break;
        };
        if placed[o] {
            continue;
        }
        placed[o] = true;
        order.push(o);
        for &c in &kids[o] {
            if edges[c].contains(&o) {
                pending[c] = pending[c].saturating_sub(1);
                if pending[c] == 0 && !placed[c] {
                    ready.push_back(c);
                }
            }
        }
    }
    order
}

/// One bone per object in `order`, named by its path (made unique); sets
/// each object's bone.
fn make_bones(objs: &mut [Obj], order: &[usize]) -> Vec<Bone> {
    let mut bones: Vec<Bone> = Vec::new();
    let mut taken = std::collections::HashSet::new();
    for &o in order {
        let seg = sanitize(&objs[o].name);
        let parent_bone = objs[o].parent.map(|p| objs[p].bone);
        let full = match parent_bone {
            Some(p) => format!("{}.{seg}", bones[p.index()].name),
            None => seg,
        };
        let full = unique(full, &mut taken);
        objs[o].bone = BoneId::from_index(bones.len());
        bones.push(Bone {
            name: full,
            parent: parent_bone,
            setup: BoneTransform::default(),
            length: objs[o].length,
            color: Color::DEFAULT_BONE,
            inherit_rotation: true,
            inherit_scale: true,
        });
    }
    bones
}

/// One slot per sprite object in `order`, on its bone; sets each sprite's slot.
fn make_slots(objs: &mut [Obj], order: &[usize], bones: &[Bone]) -> Vec<Slot> {
    let mut slots: Vec<Slot> = Vec::new();
    for &o in order {
        if objs[o].kind == Kind::Sprite {
            objs[o].slot = Some(SlotId::from_index(slots.len()));
            let bone = &bones[objs[o].bone.index()];
            slots.push(Slot {
                name: format!("{}.{}", bone.name, bone.short_name()),
                bone: objs[o].bone,
                color: Color::WHITE,
                attachment: None,
            });
        }
    }
    slots
}

/// The attachments sprite keys show, made on first use.
struct Attachments<'d> {
    /// The document whose files the keys name.
    doc: &'d Doc,
    /// Each attachment's slot and name.
    names: Vec<AttachmentSlotName>,
    /// Each attachment's file and key pivot.
    defs: Vec<(FileRef, Option<[f64; 2]>)>,
    /// (slot, file and pivot) → attachment.
    index: HashMap<(SlotId, AttKey), AttachmentId>,
    /// Missing files already warned about.
    missing_warned: std::collections::HashSet<FileRef>,
}

impl Attachments<'_> {
    /// The attachment key `k` shows in `slot` (none, with a warning, for a
    /// missing file or a sound).
    fn for_key(
        &mut self,
        slot: SlotId,
        k: &TKey,
        warnings: &mut Vec<Warning>,
    ) -> Option<AttachmentId> {
        let doc = self.doc;
        let file = k.file?;
        match doc.files.get(&file) {
            None => {
                if self.missing_warned.insert(file) {
                    warn(
                        warnings,
                        &k.loc,
                        format!(
                            "folder {} file {} does not exist; the sprite is hidden",
                            file.0, file.1
                        ),
                    );
                }
                return None;
            }
            Some(f) if f.sound => {
                warn(
                    warnings,
                    &k.loc,
                    format!(
                        "folder {} file {} is a sound, not an image; the sprite is hidden",
                        file.0, file.1
                    ),
                );
                return None;
            }
            Some(_) => {}
        }
        let key: AttKey = (file.0, file.1, k.pivot.map(|p| [p[0].to_bits(), p[1].to_bits()]));
        let (names, defs) = (&mut self.names, &mut self.defs);
        Some(*self.index.entry((slot, key)).or_insert_with(|| {
            let base = doc.files.get(&file).map_or_else(String::new, |f| {
                let stem = std::path::Path::new(&f.name)
                    .file_stem()
                    .map_or_else(|| f.name.clone(), |s| s.to_string_lossy().into_owned());
                sanitize(&stem)
            });
            let mut name = base.clone();
            let mut n = 2;
            while names.iter().any(|a| a.slot == slot && a.name == name) {
                name = format!("{base}_{n}");
                n += 1;
            }
            names.push(AttachmentSlotName { slot, name });
            defs.push((file, k.pivot));
            AttachmentId::from_index(names.len() - 1)
        }))
    }
}

/// The setup pose: each object's first key in the first animation that has it.
fn set_setup_pose(ent: &Entity, by_name: &ByName, objs: &mut [Obj], bones: &mut [Bone]) {
    for a in &ent.animations {
        for t in &a.timelines {
            let Some(o) =
                kind_of(&t.object_type).and_then(|k| by_name.get(&(k, t.name.as_str())).copied())
            else {
                continue;
            };
            if objs[o].setup.is_none()
                && let Some(k) = t.keys.iter().min_by(|x, y| x.time.total_cmp(&y.time))
            {
                objs[o].setup = Some(BoneTransform {
                    x: k.x,
                    y: k.y,
                    rotation_rad: normalize_angle(k.angle.to_radians()),
                    scale_x: k.scale_x,
                    scale_y: k.scale_y,
                    flip_x: false,
                    flip_y: false,
                });
            }
        }
    }
    for o in objs.iter() {
        if let Some(s) = o.setup {
            bones[o.bone.index()].setup = s;
        }
    }
}

/// The skins: the default one, then one per character map (with the
/// maps' unique names).
fn make_skins(
    doc: &Doc,
    ent: &Entity,
    att_defs: &[(FileRef, Option<[f64; 2]>)],
    warnings: &mut Vec<Warning>,
) -> (Vec<Attachment>, Vec<Skin>, Vec<String>) {
    let sprite = |file: (i64, i64), key_pivot: Option<[f64; 2]>| -> Attachment {
        match doc.files.get(&file) {
            Some(f) if !f.sound => Attachment {
                transform: AttachmentTransform::default(),
                kind: AttachmentKind::Sprite {
                    image: Some(f.name.clone()),
                    pivot: key_pivot.unwrap_or(f.pivot),
                },
            },
            _ => Attachment::none(),
        }
    };
    let contents: Vec<Attachment> = att_defs.iter().map(|&(f, p)| sprite(f, p)).collect();
    let mut skins = vec![Skin::named("default")];
    let mut map_names = Vec::new();
    let mut skin_names = std::collections::HashSet::from(["default".to_string()]);
    for cm in &ent.character_maps {
        let name = unique(cm.name.clone(), &mut skin_names);
        map_names.push(name.clone());
        let attachments = att_defs
            .iter()
            .map(|&(f, p)| match cm.maps.iter().rev().find(|m| m.0 == f) {
                None => sprite(f, p),
                Some((_, None)) => Attachment::none(),
                Some((_, Some(t))) => {
                    if !doc.files.contains_key(t) {
                        warn(
                            warnings,
                            ent.loc.as_ref().map_or(String::new(), ToString::to_string),
                            format!("character map \"{}\" targets folder {} file {}, which does not exist; hidden", cm.name, t.0, t.1),
                        );
                    }
                    sprite(*t, p)
                }
            })
            .collect();
        skins.push(Skin::from_full(name, attachments, &contents));
    }
    (contents, skins, map_names)
}
