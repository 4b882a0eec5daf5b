//! Reading an animation's items: each target resolved, each timeline
//! run, its keys made the channel's (a later timeline of the same
//! channel replaces them), with the source map of every timeline.

use rustc_hash::FxHashMap as HashMap;

use super::keys::{RawKey, Side};
use super::run::{Commands, Scratch, run_timeline};
use super::{AnimOutput, AnimSources, ItemMemo};
use crate::compile::names::resolve_or_explain;
use crate::compile::rig::{ChildIds, RigNames};
use crate::compile::source::{ItemSource, Reference, Target as SrcTarget, TimelineSource};
use crate::compile::splice::ItemEdit;
use crate::compile::{LocalDiag, Ordinal};
use crate::model::*;
use crate::syntax::Span;
use crate::syntax::tree::*;

/// Where a timeline runs: its section, and for a slot's timeline the
/// slot and the attachment names its `@` keys resolve against.
#[derive(Clone, Copy)]
pub(super) struct Place<'r> {
    pub(super) ord: Ordinal,
    pub(super) slot: Option<(&'r ChildIds<AttachmentId>, u32)>,
    /// An event line: names pushed are string payloads.
    pub(super) event: bool,
}

/// What a timeline animates: a bone or a slot (by id).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Target {
    Bone(u32),
    Slot(u32),
}

/// Per target, per property: the keys of the last timeline written, with
/// the source map of every timeline read.
#[derive(Default)]
pub(super) struct Tracks {
    /// Channels in order of first appearance.
    pub(super) order: Vec<(Target, TimelineProp)>,
    /// Per channel: the keys of its last timeline (a range of `keys`) and
    /// that timeline's line (in `src.timelines`), which makes the channel.
    pub(super) channels: HashMap<(Target, TimelineProp), Channel>,
    /// The keys of every timeline run, one after the other.
    pub(super) keys: Vec<RawKey>,
    /// What `keys` (and keys runs discarded) point to.
    pub(super) side: Side,
    pub(super) src: AnimSources,
    pub(super) diags: Vec<LocalDiag>,
    pub(super) scratch: Scratch,
    pub(super) items: Vec<ItemMemo>,
    /// Per item: the same item in the earlier output and how far it moved,
    /// when it was taken from there.
    pub(super) earlier: Vec<Option<(usize, u32)>>,
    /// The resolved targets of one section's items (storage kept between
    /// sections; see [`Tracks::section`]).
    pub(super) targets: Vec<ResolvedTarget>,
}

/// An item's target, or why it has none.
pub(super) type ResolvedTarget = Result<(Target, SrcTarget), crate::syntax::Diagnostic>;

/// What an item's target names: a slot (`@…`) or a bone.
pub(super) fn resolve_target(rig: &RigNames, item: &AnimItem) -> ResolvedTarget {
    let fallback = "its timelines are ignored";
    if item.is_slot {
        resolve_or_explain(&rig.slot_names, "slot", &item.target, fallback)
            .map(|s| (Target::Slot(s.0), SrcTarget::Slot(s)))
    } else {
        resolve_or_explain(&rig.bone_names, "bone", &item.target, fallback)
            .map(|b| (Target::Bone(b.0), SrcTarget::Bone(b)))
    }
}

/// A channel's keys (a range of [`Tracks::keys`]) and the timeline that makes it.
#[derive(Clone, Copy)]
pub(super) struct Channel {
    pub(super) keys: (u32, u32),
    pub(super) timeline: usize,
}

impl Tracks {
    /// Room for everything up front: growing these vectors one push at a
    /// time copies them again and again (keys: about one per command).
    pub(super) fn with_room(sections: &[(Ordinal, &AnimSection)], mut keys: Vec<RawKey>) -> Tracks {
        keys.clear();
        let mut t = Tracks { keys, ..Tracks::default() };
        let items: usize = sections.iter().map(|s| s.1.items.len()).sum();
        let timelines: usize =
            sections.iter().flat_map(|s| &s.1.items).map(|i| i.timelines.len()).sum();
        let commands: usize = sections
            .iter()
            .flat_map(|s| &s.1.items)
            .flat_map(|i| &i.timelines)
            .map(|t| t.commands.len())
            .sum();
        t.src.items.reserve(items);
        t.src.timelines.reserve(timelines);
        t.keys.reserve(commands);
        t.src.references.reserve(items + sections.len());
        t.order.reserve(timelines);
        t.channels.reserve(timelines);
        t.items.reserve(items);
        t.earlier.reserve(items);
        t
    }

    /// Reads one section's items: resolves each target and runs its
    /// timelines, or takes what an item produced from an earlier output
    /// (`replay`: that output, the number of items before this section
    /// in both, and how this section's items changed, if they did).
    pub(super) fn section(
        &mut self,
        rig: &RigNames,
        ord: Ordinal,
        sec: &AnimSection,
        opts: Opts,
        replay: Option<(&AnimOutput, usize, Option<ItemEdit>)>,
    ) {
        let this_anim = AnimId(0);
        self.src.references.push((
            ord,
            Reference {
                span: sec.name.span,
                target: Some(SrcTarget::Animation(this_anim)),
                definition: true,
            },
        ));
        // The same item in the earlier output, and how far it moved.
        let earlier_of = |j: usize| {
            replay.and_then(|(out, before, edit)| match edit {
                None => Some((out, before + j, 0)),
                Some(e) if j < e.first => Some((out, before + j, 0)),
                Some(e) if j >= e.first + e.new_count => {
                    Some((out, before + j - e.new_count + e.old_count, e.delta()))
                }
                Some(_) => None,
            })
        };
        // The targets of the items compiled anew, looked up first in one
        // loop of their own: each lookup waits on memory (the index's table
        // and the name's bytes), and lookups one after the other overlap
        // those waits, which lookups between timelines' work do not.
        let mut targets = std::mem::take(&mut self.targets);
        targets.clear();
        targets.extend(
            sec.items
                .iter()
                .enumerate()
                .filter(|&(j, item)| earlier_of(j).is_none() && !item.is_event)
                .map(|(_, item)| resolve_target(rig, item)),
        );
        let mut targets_left = targets.drain(..);
        for (j, item) in sec.items.iter().enumerate() {
            let region = item.timelines.iter().fold(item.target.span, |r, t| r.cover(t.span));
            let region = item.events.iter().fold(region, |r, t| r.cover(t.span));
            let (tl0, d0) = (self.src.timelines.len() as u32, self.diags.len() as u32);
            let earlier = earlier_of(j);
            self.earlier.push(earlier.map(|(_, k, by)| (k, by)));
            match earlier {
                Some((out, k, by)) => self.replay(ord, item, region, out, k, by),
                // (Events are compiled apart, see `compile_events`.)
                None if item.is_event => {
                    self.src.items.push((ord, ItemSource { anim: AnimId(0), region, target: None }))
                }
                None => {
                    // (Looked up above, in the same order.)
                    let resolved = targets_left.next().unwrap_or_else(|| resolve_target(rig, item));
                    self.item(rig, ord, item, region, opts, resolved);
                }
            }
            self.items.push(ItemMemo {
                timelines: (tl0, self.src.timelines.len() as u32),
                diags: (d0, self.diags.len() as u32),
            });
        }
        drop(targets_left);
        self.targets = targets;
    }

    /// Runs one item's timelines on its target (`resolved`, from
    /// [`resolve_target`]).
    pub(super) fn item(
        &mut self,
        rig: &RigNames,
        ord: Ordinal,
        item: &AnimItem,
        region: Span,
        opts: Opts,
        resolved: ResolvedTarget,
    ) {
        let this_anim = AnimId(0);
        let src_target = resolved.as_ref().ok().map(|r| r.1);
        self.src.references.push((
            ord,
            Reference { span: item.target.span, target: src_target, definition: false },
        ));
        self.src.items.push((ord, ItemSource { anim: this_anim, region, target: src_target }));
        let target = match resolved {
            Ok((t, _)) => t,
            Err(d) => {
                self.diags.push(LocalDiag { ord, diag: d });
                return;
            }
        };
        for tl in &item.timelines {
            let start = Opts {
                frame: item.opts.frame.or(opts.frame),
                step: item.opts.step.or(opts.step),
                easing: item.opts.easing.or(opts.easing),
            };
            let at = Place {
                ord,
                slot: match target {
                    Target::Slot(s) => Some((&*rig.attachment_ids, s)),
                    Target::Bone(_) => None,
                },
                event: false,
            };
            self.timeline(at, tl, start, target, src_target);
        }
    }

    /// Runs one timeline; its keys replace those of the channel's timeline before.
    pub(super) fn timeline(
        &mut self,
        at: Place<'_>,
        tl: &TimelineLine,
        start: Opts,
        target: Target,
        src_target: Option<SrcTarget>,
    ) {
        let this_anim = AnimId(0);
        let keys_from = self.keys.len();
        let ord = at.ord;
        let run = run_timeline(
            Commands { list: &tl.commands, line: tl.span },
            start,
            at,
            &mut self.diags,
            &mut self.scratch,
            &mut self.side,
            &mut self.keys,
        );
        let end = tl.commands.last().map_or(tl.prop.span.end, |c| c.span.end);
        self.src.timelines.push((
            ord,
            TimelineSource {
                anim: this_anim,
                target: src_target,
                prop: tl.prop.node,
                line: tl.span,
                effective: false,
                keys: keys_from as u32..self.keys.len() as u32,
                key_base: 0,
                end,
                end_frame: run.end_frame,
                open_loop: run.open_loop,
            },
        ));
        self.set_channel((target, tl.prop.node), keys_from);
    }

    /// Makes the timeline just added (the last of `src.timelines`, its keys
    /// `keys[keys_from..]`) the one of channel `key`, replacing an earlier
    /// timeline of it.
    pub(super) fn set_channel(&mut self, key: (Target, TimelineProp), keys_from: usize) {
        let channel = Channel {
            keys: (keys_from as u32, self.keys.len() as u32),
            timeline: self.src.timelines.len() - 1,
        };
        if self.channels.insert(key, channel).is_none() {
            self.order.push(key);
        }
    }
}
