//! Animated draw order as static slots: for formats and the language, which
//! keep one draw order for the whole file.
//!
//! Spriter files reorder their sprites as they play (the mainline's
//! `object_ref` order, [`Animation::draw_order`]). SkelForm's runtimes key
//! no z-index and the language has one `order` section, so an exporter or
//! converter that writes the skeleton's order alone draws some frames in the
//! wrong order. [`bake`] rewrites the armature so that one static order
//! draws every frame as the animated one does:
//!
//! - every place `p` (0 = back) a slot `s` takes in any draw order the
//!   armature uses (the skeleton's, each animation's keys) becomes a slot of
//!   its own, the *copy* (s, p) — the first copy is the slot itself, under
//!   its own name; the others are `NAME_zP`, on the same bone, with the same
//!   colour and copies of the slot's attachments in every skin;
//! - the static order lists the copies by place (ties, which are never
//!   shown together, by the skeleton's order);
//! - in every animation, copy (s, p) shows what `s` shows while the current
//!   order has `s` at place `p`, and nothing otherwise: stepped attachment
//!   keys at each order change and each of `s`'s own attachment keys;
//!   colour channels are copied to every copy.
//!
//! So at any time the copies shown, taken in static order, are exactly the
//! slots of the current order in that order. Order keys are stepped and read
//! at the playback time while attachment keys are read at the warped time
//! (`Animation::time_warp`); the keys are placed at the warped times of the
//! order changes, which is exact wherever the warp is strictly increasing.
//!
//! Used by the `.skf` exporter, the Lottie exporter and the Spriter → script
//! converter; `tests/suite/skf_export.rs` checks the pictures rusty_skelform
//! shows, by z-index, against skelpad's animated order.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use skelpad_lang::model::{
    Animation, Armature, AttachmentChannel, AttachmentId, AttachmentSlotName, Key, Skeleton, Slot,
    SlotColorChannel, SlotId,
};
use skelpad_lang::runtime::{sample, sample_stepped};

/// Copies [`bake`] makes at most beyond the slots there are.
pub const MAX_EXTRA_SLOTS: usize = 20_000;
/// Attachment keys [`bake`] writes at most, over all animations.
pub const MAX_KEYS: usize = 2_000_000;

/// Does any animation change the draw order?
pub fn is_animated(arm: &Armature) -> bool {
    arm.animations.iter().any(|a| !a.draw_order.is_empty())
}

/// The armature with its animated draw orders turned into static slots (see
/// the module's documentation); `Ok(None)` when no animation changes the
/// order. An error (the armature would grow past [`MAX_EXTRA_SLOTS`] or
/// [`MAX_KEYS`]) says why, for a warning; the caller keeps the original.
pub fn bake(arm: &Armature) -> Result<Option<Armature>, String> {
    if !is_animated(arm) {
        return Ok(None);
    }
    let sk = &*arm.skeleton;
    let n = sk.slots.len();
    let setup_order = in_range(&sk.draw_order, n);
    let places = slot_places(arm, &setup_order)?;
    let setup_place = |s: usize| setup_order.iter().position(|x| x.index() == s);
    let mut out = sk.clone();
    let copies = copy_slots(sk, &places, &mut out);
    let att_of = copy_attachments(sk, &copies, &mut out);
    let map_att =
        |a: Option<AttachmentId>, c: SlotId| a.and_then(|a| att_of.get(&(a.index(), c)).copied());
    // Setup: a copy shows the slot's attachment only at the slot's setup place.
    for (s, list) in copies.iter().enumerate() {
        let setup_att = sk.slots[s].attachment;
        for &(p, c) in list {
            let shown = setup_place(s) == Some(p);
            out.slots[c.index()].attachment = if shown { map_att(setup_att, c) } else { None };
        }
    }
    // The static order: by place, ties by the skeleton's order, then by slot.
    let rank = |s: usize| setup_place(s).unwrap_or(usize::MAX);
    let mut all: Vec<(usize, usize, usize, SlotId)> = copies
        .iter()
        .enumerate()
        .flat_map(|(s, v)| v.iter().map(move |&(p, c)| (p, rank(s), s, c)))
        .collect();
    all.sort_unstable();
    out.draw_order = all.into_iter().map(|x| x.3).collect();

    let mut budget = MAX_KEYS;
    let mut animations = Vec::with_capacity(arm.animations.len());
    for anim in &arm.animations {
        animations.push(Arc::new(bake_animation(
            anim,
            sk,
            &setup_order,
            &copies,
            &map_att,
            &mut budget,
        )?));
    }
    Ok(Some(Armature { skeleton: Arc::new(out), animations }))
}

/// The slots of an order that exist (of `n`).
fn in_range(order: &[SlotId], n: usize) -> Vec<SlotId> {
    order.iter().copied().filter(|s| s.index() < n).collect()
}

/// The places each slot takes in any draw order the armature uses, sorted,
/// its setup place (where the slot itself stands) first; an error if the
/// copies would be too many.
fn slot_places(arm: &Armature, setup_order: &[SlotId]) -> Result<Vec<Vec<usize>>, String> {
    let n = arm.skeleton.slots.len();
    let mut places: Vec<Vec<usize>> = vec![Vec::new(); n];
    let note = |order: &[SlotId], places: &mut Vec<Vec<usize>>| {
        for (p, s) in order.iter().enumerate() {
            if let Some(list) = places.get_mut(s.index())
                && !list.contains(&p)
            {
                list.push(p);
            }
        }
    };
    note(setup_order, &mut places);
    for anim in &arm.animations {
        for k in &anim.draw_order {
            note(&in_range(&k.value, n), &mut places);
        }
    }
    let extra: usize = places.iter().map(|p| p.len().saturating_sub(1)).sum();
    if extra > MAX_EXTRA_SLOTS {
        return Err(format!(
            "the animated draw order would need {extra} more slots (at most {MAX_EXTRA_SLOTS}); the skeleton's order is kept"
        ));
    }
    let setup_place = |s: usize| setup_order.iter().position(|x| x.index() == s);
    for (s, list) in places.iter_mut().enumerate() {
        list.sort_unstable();
        // The slot itself stands at its setup place (or its first one).
        if let Some(p0) = setup_place(s)
            && let Some(i) = list.iter().position(|&p| p == p0)
        {
            list.swap(0, i);
        }
    }
    Ok(places)
}

/// Adds to `out` a slot per place of each slot but its first (copy 0 is
/// the slot itself); returns each slot's copies as (place, slot).
fn copy_slots(
    sk: &Skeleton,
    places: &[Vec<usize>],
    out: &mut Skeleton,
) -> Vec<Vec<(usize, SlotId)>> {
    let mut taken: HashSet<String> = sk.slots.iter().map(|s| s.name.clone()).collect();
    let mut copies: Vec<Vec<(usize, SlotId)>> = vec![Vec::new(); places.len()];
    for (s, list) in places.iter().enumerate() {
        for (i, &p) in list.iter().enumerate() {
            let id = if i == 0 {
                SlotId::from_index(s)
            } else {
                let base = format!("{}_z{p}", sk.slots[s].name);
                let name = unique(base, &mut taken);
                out.slots.push(Slot { name, ..sk.slots[s].clone() });
                SlotId::from_index(out.slots.len() - 1)
            };
            copies[s].push((p, id));
        }
    }
    copies
}

/// Adds to `out` the copies' attachments, in every skin; returns
/// (attachment, copy) → the copy's attachment.
fn copy_attachments(
    sk: &Skeleton,
    copies: &[Vec<(usize, SlotId)>],
    out: &mut Skeleton,
) -> HashMap<(usize, SlotId), AttachmentId> {
    let mut att_of: HashMap<(usize, SlotId), AttachmentId> = HashMap::new();
    for (a, name) in sk.attachments.iter().enumerate() {
        let s = name.slot.index();
        for &(_, c) in copies.get(s).map_or(&[][..], |v| &v[..]) {
            let id = if c.index() == s {
                AttachmentId::from_index(a)
            } else {
                out.attachments.push(AttachmentSlotName { slot: c, name: name.name.clone() });
                let new = AttachmentId::from_index(out.attachments.len() - 1);
                let entry = out.contents.get(a).cloned();
                out.contents.push(entry.unwrap_or_else(skelpad_lang::model::Attachment::none));
                // (The new id is past every other: each list stays sorted.)
                let old = AttachmentId::from_index(a);
                for skin in &mut out.skins {
                    if let Some(r) = skin.replacement(old).cloned() {
                        skin.replaced.push((new, r));
                    }
                }
                new
            };
            att_of.insert((a, c), id);
        }
    }
    att_of
}

fn bake_animation(
    anim: &Animation,
    sk: &Skeleton,
    setup_order: &[SlotId],
    copies: &[Vec<(usize, SlotId)>],
    map_att: &dyn Fn(Option<AttachmentId>, SlotId) -> Option<AttachmentId>,
    budget: &mut usize,
) -> Result<Animation, String> {
    let n = sk.slots.len();
    let mut out = anim.clone();
    out.draw_order.clear();
    // The orders on the warped time line: (time, order), sorted.
    let warp = |t: f64| sample(&anim.time_warp, t, None).unwrap_or(t);
    let orders: Vec<(f64, Vec<SlotId>)> = anim
        .draw_order
        .iter()
        .map(|k| (warp(k.time_secs), k.value.iter().copied().filter(|s| s.index() < n).collect()))
        .collect();
    let order_at = |w: f64| -> &[SlotId] {
        let i = orders.partition_point(|(t, _)| *t <= w);
        if i == 0 { setup_order } else { &orders[i - 1].1 }
    };
    let own: HashMap<usize, &AttachmentChannel> =
        anim.attachments.iter().map(|c| (c.slot.index(), c)).collect();
    out.attachments.clear();
    for (s, list) in copies.iter().enumerate() {
        let channel = own.get(&s).copied();
        let mut times: Vec<f64> = vec![0.0];
        times.extend(orders.iter().map(|(t, _)| *t));
        if let Some(ch) = channel {
            times.extend(ch.keys.iter().map(|k| k.time_secs));
        }
        times.retain(|t| t.is_finite());
        times.sort_by(f64::total_cmp);
        times.dedup();
        for &(p, c) in list {
            let cost = times.len();
            if cost > *budget {
                return Err(format!(
                    "the animated draw order would need more than {MAX_KEYS} attachment keys; the skeleton's order is kept"
                ));
            }
            *budget -= cost;
            let keys: Vec<Key<Option<AttachmentId>>> = times
                .iter()
                .map(|&w| {
                    let here = order_at(w).iter().position(|x| x.index() == s) == Some(p);
                    let att = channel
                        .and_then(|ch| sample_stepped(&ch.keys, w))
                        .unwrap_or(sk.slots[s].attachment);
                    let value = if here { map_att(att, c) } else { None };
                    Key { time_secs: w, value, curve: skelpad_lang::model::Curve::Stepped }
                })
                .collect();
            out.attachments.push(AttachmentChannel { slot: c, keys });
        }
    }
    let colors: Vec<SlotColorChannel> = anim
        .slot_colors
        .iter()
        .flat_map(|ch| {
            let list = copies.get(ch.slot.index()).map_or(&[][..], |v| &v[..]);
            list.iter().map(move |&(_, c)| SlotColorChannel { slot: c, ..ch.clone() })
        })
        .collect();
    out.slot_colors = colors;
    Ok(out)
}

/// `name`, or `name_2`, `name_3`… if taken (at most as many tries as names taken).
fn unique(name: String, taken: &mut HashSet<String>) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    let mut i = 2;
    loop {
        let n = format!("{name}_{i}");
        if taken.insert(n.clone()) {
            return n;
        }
        i += 1;
    }
}
