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

use std::collections::HashMap;
use std::sync::Arc;

use super::Warning;
use super::read::{Anim, Doc, Entity, FileRef, KeyCurve, TKey};
use crate::model::*;
use crate::model::{SpriterCurve, SpriterCurveKind};

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
        armature: Armature { skeleton: Arc::new(skeleton), animations },
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

/// Every animation of the entity (names made unique, with a warning) and
/// what each holds but does not play.
fn build_anims(
    ent: &Entity,
    objs: &[Obj],
    obj_of: &dyn Fn(&Anim, i64) -> Option<usize>,
    slots: &[Slot],
    attachment_for: &mut AttachmentFor,
    warnings: &mut Vec<Warning>,
) -> (Vec<Arc<Animation>>, Vec<AnimExtras>) {
    let mut animations = Vec::new();
    let mut extras = Vec::new();
    let mut anim_names = std::collections::HashSet::new();
    for a in &ent.animations {
        let name = unique(a.name.clone(), &mut anim_names);
        if name != a.name {
            warn(
                warnings,
                &a.loc,
                format!("a second animation named \"{}\"; this one is called \"{name}\"", a.name),
            );
        }
        let (anim, ex) = build_anim(a, &name, objs, obj_of, slots, attachment_for, warnings);
        animations.push(Arc::new(anim));
        extras.push(ex);
    }
    (animations, extras)
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

/// The object a ref's `parent` names (a bone_ref of the same mainline key), if any.
fn ref_parent(
    a: &Anim,
    mk: &super::read::MainKey,
    r: &super::read::Ref,
    objs: &[Obj],
    obj_of: &dyn Fn(&Anim, i64) -> Option<usize>,
    warnings: &mut Vec<Warning>,
) -> Option<usize> {
    let p = r.parent?;
    match usize::try_from(p)
        .ok()
        .and_then(|i| mk.bone_refs.get(i))
        .and_then(|pr| obj_of(a, pr.timeline))
    {
        Some(po) if objs[po].kind == Kind::Bone => Some(po),
        _ => {
            warn(
                warnings,
                &r.loc,
                format!(
                    "parent {p} is not a bone_ref of this mainline key; the object hangs from the entity root"
                ),
            );
            None
        }
    }
}

fn adjust_angle(a: f64, mut b: f64, spin: i32) -> f64 {
    // SPP objectinfo/angleinfo.cpp, in native (counterclockwise) degrees.
    if spin == 1 && b < a {
        b += 360.0;
    } else if spin == -1 && b > a {
        b -= 360.0;
    }
    b
}

/// One animation as the model plays it (timelines sorted, refs checked,
/// mainline, parent and timeline channels) and what it holds but does not play.
#[allow(clippy::too_many_arguments)]
fn build_anim(
    a: &Anim,
    name: &str,
    objs: &[Obj],
    obj_of: &dyn Fn(&Anim, i64) -> Option<usize>,
    slots: &[Slot],
    attachment_for: &mut AttachmentFor,
    warnings: &mut Vec<Warning>,
) -> (Animation, AnimExtras) {
    let mut anim = Animation::empty(name, FPS);
    anim.angle_interpolation = AngleInterpolation::Linear;
    anim.looping = Some(a.looping);
    let mut ex = AnimExtras::default();
    let sorted = sort_timelines(a, &mut ex, warnings);
    let hidden_at = check_refs(a, &sorted, warnings);
    mainline_channels(a, objs, obj_of, &hidden_at, &mut anim, &mut ex);
    parent_channels(a, objs, obj_of, &mut anim);
    for (ti, (keys, pos)) in sorted.iter().enumerate() {
        let Some(o) = obj_of(a, ti as i64) else { continue };
        timeline_channels(
            a,
            ti,
            keys,
            pos,
            &hidden_at,
            &objs[o],
            &mut anim,
            attachment_for,
            warnings,
        );
    }
    let _ = slots;
    anim.duration_secs = secs(a.length_ms);
    read_extras(a, &mut ex);
    anim.events = events(a, anim.fps);
    (anim, ex)
}

/// The eventlines' keys as events (Spriter's events carry no payload
/// here), in time order (keys at one time in file order).
fn events(a: &Anim, fps: f64) -> Vec<crate::model::Event> {
    let mut out: Vec<crate::model::Event> = a
        .events
        .iter()
        .flat_map(|(name, times)| {
            times.iter().map(move |&t| crate::model::Event {
                name: name.clone(),
                frame: secs(t) * fps,
                time_secs: secs(t),
                payload: crate::model::EventPayload::None,
            })
        })
        .collect();
    out.sort_by(|x, y| x.time_secs.total_cmp(&y.time_secs));
    out
}

/// Milliseconds → seconds.
fn secs(ms: f64) -> f64 {
    ms / 1000.0
}

/// Each timeline's keys sorted by time, with `pos[i]` = sorted position of
/// key i (out-of-order keys are warned about); unplayed timelines are noted.
fn sort_timelines<'a>(
    a: &'a Anim,
    ex: &mut AnimExtras,
    warnings: &mut Vec<Warning>,
) -> Vec<(Vec<&'a TKey>, Vec<usize>)> {
    let mut sorted: Vec<(Vec<&TKey>, Vec<usize>)> = Vec::new();
    for t in &a.timelines {
        let mut idx: Vec<usize> = (0..t.keys.len()).collect();
        idx.sort_by(|&x, &y| t.keys[x].time.total_cmp(&t.keys[y].time));
        if idx.windows(2).any(|w| w[0] > w[1]) {
            warn(
                warnings,
                &t.loc,
                format!("keys of timeline \"{}\" are out of time order; sorted", t.name),
            );
        }
        let mut pos = vec![0; idx.len()];
        for (p, &i) in idx.iter().enumerate() {
            pos[i] = p;
        }
        sorted.push((idx.iter().map(|&i| &t.keys[i]).collect(), pos));
        if kind_of(&t.object_type).is_none() {
            ex.unplayed_objects.push((t.object_type.clone(), t.name.clone()));
        }
    }
    sorted
}

/// Range checks of the mainline refs: per mainline key, the refs (bone refs
/// then object refs) whose timeline or key does not exist (warned about).
fn check_refs(
    a: &Anim,
    sorted: &[(Vec<&TKey>, Vec<usize>)],
    warnings: &mut Vec<Warning>,
) -> Vec<Vec<usize>> {
    let mut hidden_at: Vec<Vec<usize>> = vec![Vec::new(); a.mainline.len()];
    for (mi, mk) in a.mainline.iter().enumerate() {
        for (ri, r) in mk.bone_refs.iter().chain(&mk.object_refs).enumerate() {
            let Some((_, pos)) = usize::try_from(r.timeline).ok().and_then(|t| sorted.get(t))
            else {
                warn(warnings, &r.loc, format!("timeline {} does not exist; ignored", r.timeline));
                hidden_at[mi].push(ri);
                continue;
            };
            if usize::try_from(r.key).ok().and_then(|k| pos.get(k)).is_none() {
                warn(
                    warnings,
                    &r.loc,
                    format!(
                        "key {} of timeline {} does not exist; the object is hidden here",
                        r.key, r.timeline
                    ),
                );
                hidden_at[mi].push(ri);
            }
        }
    }
    hidden_at
}

/// The time warp (mainline curves), the draw order (object ref order,
/// hidden refs left out) and the mainline key times.
fn mainline_channels(
    a: &Anim,
    objs: &[Obj],
    obj_of: &dyn Fn(&Anim, i64) -> Option<usize>,
    hidden_at: &[Vec<usize>],
    anim: &mut Animation,
    ex: &mut AnimExtras,
) {
    let n_main = a.mainline.len();
    for (mi, mk) in a.mainline.iter().enumerate() {
        let last = mi + 1 == n_main;
        let curve = if last && !a.looping { Curve::Stepped } else { model_curve(mk.curve) };
        anim.time_warp.push(Key { time_secs: secs(mk.time), value: secs(mk.time), curve });
        let order: Vec<SlotId> = mk
            .object_refs
            .iter()
            .enumerate()
            .filter(|(ri, _)| !hidden_at[mi].contains(&(ri + mk.bone_refs.len())))
            .filter_map(|(_, r)| obj_of(a, r.timeline).and_then(|o| objs[o].slot))
            .collect();
        anim.draw_order.push(Key {
            time_secs: secs(mk.time),
            value: order.into(),
            curve: Curve::Stepped,
        });
        ex.key_times.push(secs(mk.time));
    }
    if a.looping
        && let Some(first) = a.mainline.first()
    {
        let end = secs(first.time + a.length_ms);
        anim.time_warp.push(Key { time_secs: end, value: end, curve: Curve::Stepped });
    }
    if n_main == 0 {
        anim.draw_order.push(Key {
            time_secs: 0.0,
            value: Arc::from(Vec::new()),
            curve: Curve::Stepped,
        });
    }
}

/// Parent channels for the objects whose parent somewhere differs from the
/// skeleton's.
fn parent_channels(
    a: &Anim,
    objs: &[Obj],
    obj_of: &dyn Fn(&Anim, i64) -> Option<usize>,
    anim: &mut Animation,
) {
    let mut quiet = Vec::new();
    let mut parent_keys: HashMap<usize, Vec<Key<Option<BoneId>>>> = HashMap::new();
    let mut differs: std::collections::HashSet<usize> = Default::default();
    for mk in &a.mainline {
        for r in mk.bone_refs.iter().chain(&mk.object_refs) {
            let Some(o) = obj_of(a, r.timeline) else { continue };
            let p = ref_parent(a, mk, r, objs, obj_of, &mut quiet);
            if p != objs[o].parent {
                differs.insert(o);
            }
            let keys = parent_keys.entry(o).or_default();
            if keys.last().is_none_or(|k| k.time_secs < secs(mk.time)) {
                keys.push(Key {
                    time_secs: secs(mk.time),
                    value: p.map(|p| objs[p].bone),
                    curve: Curve::Stepped,
                });
            }
        }
    }
    let mut differs: Vec<usize> = differs.into_iter().collect();
    differs.sort_unstable();
    for o in differs {
        if let Some(keys) = parent_keys.remove(&o) {
            anim.parents.push(ParentChannel { bone: objs[o].bone, keys });
        }
    }
}

/// The channels of timeline `ti` (object `obj`): its bone's transform,
/// alpha, and its slot's attachments (hidden where the mainline leaves it out).
#[allow(clippy::too_many_arguments)]
fn timeline_channels(
    a: &Anim,
    ti: usize,
    keys: &[&TKey],
    pos: &[usize],
    hidden_at: &[Vec<usize>],
    obj: &Obj,
    anim: &mut Animation,
    attachment_for: &mut AttachmentFor,
    warnings: &mut Vec<Warning>,
) {
    if keys.is_empty() {
        return;
    }
    let spans = spans_of(a, ti, pos, keys, hidden_at);
    let chans = if spans.iter().all(|sp| sp.by_time) {
        by_time(a, keys)
    } else {
        by_span(a, &spans, keys, warnings)
    };
    let bone = obj.bone;
    for (property, ks) in [
        (BoneProperty::X, chans.x),
        (BoneProperty::Y, chans.y),
        (BoneProperty::ScaleX, chans.sx),
        (BoneProperty::ScaleY, chans.sy),
        (BoneProperty::Rotation, chans.rot),
    ] {
        anim.bones.push(BoneChannel { bone, property, mode: ValueMode::Absolute, keys: ks });
    }
    let has_alpha = chans.alpha.iter().any(|k| k.value != 1.0);
    match obj.slot {
        Some(slot) => {
            if has_alpha {
                anim.slot_colors.push(SlotColorChannel {
                    slot,
                    component: ColorComponent::A,
                    keys: chans.alpha,
                });
            }
            let atts: Vec<Key<Option<AttachmentId>>> = chans
                .att
                .iter()
                .map(|&(tm, k)| Key {
                    time_secs: secs(tm),
                    value: attachment_for(slot, k, warnings),
                    curve: Curve::Stepped,
                })
                .collect();
            let keys = hide_where_absent(
                atts,
                &anim.draw_order,
                slot,
                a.looping.then_some(secs(a.length_ms)),
            );
            anim.attachments.push(AttachmentChannel { slot, keys });
        }
        None if has_alpha => anim.bone_alpha.push(BoneAlphaChannel { bone, keys: chans.alpha }),
        None => {}
    }
}

/// What the animation holds but does not play: events, sounds, tags and
/// the number of variable keys.
fn read_extras(a: &Anim, ex: &mut AnimExtras) {
    for (n, times) in &a.events {
        ex.events.extend(times.iter().map(|&t| (n.clone(), secs(t))));
    }
    for (n, times) in &a.sounds {
        ex.sounds.extend(times.iter().map(|&t| (n.clone(), secs(t))));
    }
    ex.tags = a.tags.iter().map(|(t, v)| (secs(*t), v.clone())).collect();
    ex.variable_keys = a.vars.iter().map(|v| v.1.len()).sum();
}

/// The channels of one timeline.
struct Chans<'a> {
    x: Vec<Key<f64>>,
    y: Vec<Key<f64>>,
    sx: Vec<Key<f64>>,
    sy: Vec<Key<f64>>,
    /// Radians, unwrapped (interpolated plainly).
    rot: Vec<Key<f64>>,
    alpha: Vec<Key<f64>>,
    /// Times (ms) and the key whose image shows from then on.
    att: Vec<(f64, &'a TKey)>,
}

impl<'a> Chans<'a> {
    fn new() -> Self {
        Chans {
            x: Vec::new(),
            y: Vec::new(),
            sx: Vec::new(),
            sy: Vec::new(),
            rot: Vec::new(),
            alpha: Vec::new(),
            att: Vec::new(),
        }
    }
}

/// One mainline span in which a timeline is shown: [ts, te) in ms (te is
/// infinite after the last key of a non-looping animation), the key its ref
/// names (sorted position) and whether a time search over the keys gives
/// what SpriterPlusPlus's ref gives.
struct Span {
    ts: f64,
    te: f64,
    key: usize,
    by_time: bool,
}

/// The next key SpriterPlusPlus interpolates towards from sorted key `p`
/// and its time: the following key; after the last, the first one a length
/// later (looping) or the key itself (holds).
fn next_of<'a>(a: &Anim, keys: &[&'a TKey], p: usize) -> (&'a TKey, f64) {
    match keys.get(p + 1) {
        Some(k) => (k, k.time),
        None if a.looping && keys.len() > 1 => (keys[0], keys[0].time + a.length_ms),
        None => (keys[p], keys[p].time),
    }
}

fn spans_of(
    a: &Anim,
    ti: usize,
    pos: &[usize],
    keys: &[&TKey],
    hidden_at: &[Vec<usize>],
) -> Vec<Span> {
    let mut out = Vec::new();
    for (mi, mk) in a.mainline.iter().enumerate() {
        let te = match a.mainline.get(mi + 1) {
            Some(next) => next.time,
            None if a.looping => a.mainline[0].time + a.length_ms,
            None => f64::INFINITY,
        };
        let Some(r) = mk
            .bone_refs
            .iter()
            .chain(&mk.object_refs)
            .enumerate()
            .find(|(ri, r)| r.timeline == ti as i64 && !hidden_at[mi].contains(ri))
            .map(|(_, r)| r)
        else {
            continue;
        };
        let Some(&p) = usize::try_from(r.key).ok().and_then(|k| pos.get(k)) else { continue };
        let k = keys[p];
        let (next, next_time) = next_of(a, keys, p);
        // The last key with time <= ts must be k (or a key at the same time
        // with the same next), and no key may start inside the span.
        let found = keys.partition_point(|x| x.time <= mk.time).saturating_sub(1);
        let holds = std::ptr::eq(next, k);
        let by_time = k.time <= mk.time
            && found == p
            && if holds {
                p + 1 == keys.len()
            } else if te.is_finite() {
                next_time >= te
            } else {
                // After the last mainline key of a non-looping animation the
                // time stays at the key's: only the value there counts.
                true
            };
        out.push(Span { ts: mk.time, te, key: p, by_time });
    }
    out
}

/// The channels of a timeline whose refs all agree with a time search: its
/// keys, plus SpriterPlusPlus's proxy key before a late first key and the
/// looping span from the last key back to the first.
fn by_time<'a>(a: &Anim, keys: &[&'a TKey]) -> Chans<'a> {
    let len = a.length_ms;
    let n = keys.len();
    let mut ext: Vec<(f64, &TKey, Curve, i32)> = Vec::new();
    if keys[0].time > 0.0 {
        let last = keys[n - 1];
        if a.looping {
            ext.push((last.time - len, last, model_curve(last.curve), last.spin));
        } else {
            ext.push((last.time - len, keys[0], Curve::Stepped, 0));
        }
    }
    for k in keys {
        ext.push((k.time, k, model_curve(k.curve), k.spin));
    }
    if a.looping && n > 1 {
        ext.push((keys[0].time + len, keys[0], Curve::Stepped, 0));
    } else if let Some(l) = ext.last_mut() {
        l.2 = Curve::Stepped;
    }
    let mut c = Chans::new();
    let key = |tm: f64, value: f64, curve: Curve| Key { time_secs: tm / 1000.0, value, curve };
    let mut v = ext[0].1.angle;
    for (i, &(tm, k, curve, spin)) in ext.iter().enumerate() {
        c.x.push(key(tm, k.x, curve));
        c.y.push(key(tm, k.y, curve));
        c.sx.push(key(tm, k.scale_x, curve));
        c.sy.push(key(tm, k.scale_y, curve));
        c.alpha.push(key(tm, k.alpha, curve));
        c.att.push((tm, k));
        // Rotation: unwrapped by each key's spin; spin 0 holds.
        if i > 0 {
            let (pa, pspin) = (ext[i - 1].1.angle, ext[i - 1].3);
            v += adjust_angle(pa, k.angle, pspin) - pa;
        }
        c.rot.push(key(tm, v.to_radians(), if spin == 0 { Curve::Stepped } else { curve }));
    }
    c
}

/// Progress as SpriterPlusPlus computes it for any ratio (instant: 1 only
/// past the end).
fn spp_progress(curve: KeyCurve, r: f64) -> f64 {
    match curve {
        KeyCurve::Instant => {
            if r > 1.0 {
                1.0
            } else {
                0.0
            }
        }
        KeyCurve::Linear => r,
        KeyCurve::Other(c) => c.progress(r),
    }
}

/// Splits a 1-D Bézier (control values `p`) to the parameter range [r0, r1].
fn bezier_window(p: &[f64], r0: f64, r1: f64) -> Vec<f64> {
    // Left part [0, r1], then the right part of that from r0 / r1.
    let split = |p: &[f64], t: f64| -> (Vec<f64>, Vec<f64>) {
        let mut cur = p.to_vec();
        let (mut left, mut right) = (vec![cur[0]], vec![cur[cur.len() - 1]]);
        while cur.len() > 1 {
            cur = cur.windows(2).map(|w| w[0] + (w[1] - w[0]) * t).collect();
            left.push(cur[0]);
            right.push(cur[cur.len() - 1]);
        }
        right.reverse();
        (left, right)
    };
    let (left, _) = split(p, r1);
    let t = if r1 != 0.0 { r0 / r1 } else { 0.0 };
    split(&left, t).1
}

/// The same progress over a part [r0, r1] of a curve, rescaled to 0..1,
/// when it is a curve of the same kind (polynomials; linear).
fn window_curve(curve: KeyCurve, r0: f64, r1: f64) -> Option<Curve> {
    let KeyCurve::Other(c) = curve else {
        return (curve == KeyCurve::Linear).then_some(Curve::LINEAR);
    };
    let p: Vec<f64> = match c.kind {
        SpriterCurveKind::Quadratic => vec![0.0, c.c[0], 1.0],
        SpriterCurveKind::Cubic => vec![0.0, c.c[0], c.c[1], 1.0],
        SpriterCurveKind::Quartic => vec![0.0, c.c[0], c.c[1], c.c[2], 1.0],
        SpriterCurveKind::Quintic => vec![0.0, c.c[0], c.c[1], c.c[2], c.c[3], 1.0],
        SpriterCurveKind::Bezier => return None,
    };
    let w = bezier_window(&p, r0, r1);
    let (b0, bd) = (w[0], w[w.len() - 1]);
    if (bd - b0).abs() < 1e-9 {
        return None;
    }
    let mut cs = [0.0; 4];
    for (i, v) in w[1..w.len() - 1].iter().enumerate() {
        cs[i] = (v - b0) / (bd - b0);
    }
    Some(Curve::Spriter(SpriterCurve { kind: c.kind, c: cs }))
}

/// Most keys one span is baked into.
const MAX_BAKED_KEYS: usize = 2000;
/// Keys a timeline's baked spans may add in all (beyond, a span is one
/// straight key: bounded work for any file).
const MAX_BAKED_PER_TIMELINE: usize = 200_000;

/// The channels of a timeline some of whose refs name a key a time search
/// would not find (keys past the animation's end, refs to older keys):
/// each mainline span gets its own keys reproducing SpriterPlusPlus's
/// interpolation from the ref's key exactly (a part of a polynomial curve
/// is again one), or baked per millisecond where it is not (part of a
/// bezier curve).
fn by_span<'a>(
    a: &Anim,
    spans: &[Span],
    keys: &[&'a TKey],
    warnings: &mut Vec<Warning>,
) -> Chans<'a> {
    let mut c = Chans::new();
    let mut baked = 0usize;
    let mut baked_keys = 0usize;
    for sp in spans {
        let k = keys[sp.key];
        let (next, next_time) = next_of(a, keys, sp.key);
        let dur = next_time - k.time;
        let holds = std::ptr::eq(next, k) || dur == 0.0;
        let frozen = !sp.te.is_finite();
        c.att.push((sp.ts, k));
        let ratio = |t: f64| (t - k.time) / dur;
        // (value at k, value at next) for each channel; rotation adjusted by spin.
        let pairs: [(f64, f64, bool); 6] = [
            (k.x, next.x, false),
            (k.y, next.y, false),
            (k.scale_x, next.scale_x, false),
            (k.scale_y, next.scale_y, false),
            (k.angle, adjust_angle(k.angle, next.angle, k.spin), true),
            (k.alpha, next.alpha, false),
        ];
        for (ch, &(va, vb, is_rot)) in pairs.iter().enumerate() {
            let conv = |v: f64| if is_rot { v.to_radians() } else { v };
            let out = match ch {
                0 => &mut c.x,
                1 => &mut c.y,
                2 => &mut c.sx,
                3 => &mut c.sy,
                4 => &mut c.rot,
                _ => &mut c.alpha,
            };
            let key =
                |t: f64, v: f64, curve: Curve| Key { time_secs: t / 1000.0, value: conv(v), curve };
            let f = |t: f64| va + (vb - va) * spp_progress(k.curve, ratio(t));
            if holds || (is_rot && k.spin == 0) {
                out.push(key(sp.ts, va, Curve::Stepped));
                continue;
            }
            if frozen {
                out.push(key(sp.ts, f(sp.ts), Curve::Stepped));
                continue;
            }
            let (r0, r1) = (ratio(sp.ts), ratio(sp.te));
            let exact = match k.curve {
                KeyCurve::Instant if r1 <= 1.0 || r0 > 1.0 => Some(Curve::Stepped),
                _ if r0 == 0.0 && r1 == 1.0 => Some(model_curve(k.curve)),
                KeyCurve::Instant => None,
                _ => window_curve(k.curve, r0, r1),
            };
            match exact {
                Some(curve) => out.push(key(sp.ts, f(sp.ts), curve)),
                None => {
                    // Per millisecond, within a budget per timeline.
                    let left = MAX_BAKED_PER_TIMELINE.saturating_sub(baked_keys);
                    let steps =
                        ((sp.te - sp.ts).ceil() as usize).clamp(1, MAX_BAKED_KEYS.min(left.max(1)));
                    baked_keys += steps;
                    for i in 0..steps {
                        let t = sp.ts + (sp.te - sp.ts) * i as f64 / steps as f64;
                        out.push(key(t, f(t), Curve::LINEAR));
                    }
                    baked += 1;
                }
            }
            // The span's end value (the next span's keys follow at the same time).
            out.push(key(sp.te, f(sp.te), Curve::Stepped));
        }
    }
    if baked > 0 {
        warn(
            warnings,
            &a.loc,
            format!(
                "{baked} channel span(s) of \"{}\" are baked per millisecond (part of a bezier curve)",
                a.name
            ),
        );
    }
    c
}

/// The attachment keys with the slot hidden (`None`) over every mainline
/// span that does not show it, so that every reader of the model (exports,
/// conversion) hides it there too, not only the draw order.
fn hide_where_absent(
    keys: Vec<Key<Option<AttachmentId>>>,
    order: &[Key<Arc<[SlotId]>>],
    slot: SlotId,
    end: Option<f64>,
) -> Vec<Key<Option<AttachmentId>>> {
    let at = |t: f64| crate::runtime::sample_stepped(&keys, t).flatten();
    let mut out: Vec<Key<Option<AttachmentId>>> = Vec::new();
    let step = |time_secs: f64, value| Key { time_secs, value, curve: Curve::Stepped };
    for (i, m) in order.iter().enumerate() {
        let te = order.get(i + 1).map(|n| n.time_secs).or(end).unwrap_or(f64::INFINITY);
        if m.value.contains(&slot) {
            out.push(step(m.time_secs, at(m.time_secs)));
            out.extend(
                keys.iter().filter(|k| k.time_secs > m.time_secs && k.time_secs < te).copied(),
            );
        } else {
            out.push(step(m.time_secs, None));
        }
    }
    if order.is_empty() {
        return keys;
    }
    // Before the first mainline key and after the animation's end the keys hold as they were.
    let first = order[0].time_secs;
    let mut before: Vec<_> = keys.iter().filter(|k| k.time_secs < first).copied().collect();
    before.extend(out);
    before
}
