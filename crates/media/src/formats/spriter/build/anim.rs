//! A Spriter animation → the model's [`Animation`]: timelines sorted, refs
//! checked, the mainline's draw order and time warp, parents that change,
//! and each timeline's channels (from `keys`); events and what is read
//! but not played.

use super::keys::*;
use super::*;

/// Every animation of the entity (names made unique, with a warning) and
/// what each holds but does not play.
pub(super) fn build_anims(
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

/// The object a ref's `parent` names (a bone_ref of the same mainline key), if any.
pub(super) fn ref_parent(
    a: &Anim,
    mk: &crate::formats::spriter::read::MainKey,
    r: &crate::formats::spriter::read::Ref,
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

pub(super) fn adjust_angle(a: f64, mut b: f64, spin: i32) -> f64 {
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
#[allow(
    clippy::too_many_arguments,
    reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
)]
pub(super) fn build_anim(
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
pub(super) fn events(a: &Anim, fps: f64) -> Vec<skelpad_lang::model::Event> {
    let mut out: Vec<skelpad_lang::model::Event> = a
        .events
        .iter()
        .flat_map(|(name, times)| {
            times.iter().map(move |&t| skelpad_lang::model::Event {
                name: name.clone(),
                frame: secs(t) * fps,
                time_secs: secs(t),
                payload: skelpad_lang::model::EventPayload::None,
            })
        })
        .collect();
    out.sort_by(|x, y| x.time_secs.total_cmp(&y.time_secs));
    out
}

/// Milliseconds → seconds.
pub(super) fn secs(ms: f64) -> f64 {
    ms / 1000.0
}

/// Each timeline's keys sorted by time, with `pos[i]` = sorted position of
/// key i (out-of-order keys are warned about); unplayed timelines are noted.
pub(super) fn sort_timelines<'a>(
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
pub(super) fn check_refs(
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
pub(super) fn mainline_channels(
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
pub(super) fn parent_channels(
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
#[allow(
    clippy::too_many_arguments,
    reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
)]
pub(super) fn timeline_channels(
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
pub(super) fn read_extras(a: &Anim, ex: &mut AnimExtras) {
    for (n, times) in &a.events {
        ex.events.extend(times.iter().map(|&t| (n.clone(), secs(t))));
    }
    for (n, times) in &a.sounds {
        ex.sounds.extend(times.iter().map(|&t| (n.clone(), secs(t))));
    }
    ex.tags = a.tags.iter().map(|(t, v)| (secs(*t), v.clone())).collect();
    ex.variable_keys = a.vars.iter().map(|v| v.1.len()).sum();
}
