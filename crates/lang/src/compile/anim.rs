//! Animation sections → [`Animation`] (LANGUAGE.md §5).

use rustc_hash::FxHashMap as HashMap;

use super::names::resolve_or_explain;
use super::rig::{ChildIds, RigNames};
use super::source::Shift;
use super::source::{
    ItemSource, KeyOrigin, KeySource, Reference, Target as SrcTarget, TimelineSource,
};
use super::splice::ItemEdit;
use super::{LocalDiag, Ordinal};
use crate::model::*;
use crate::syntax::tree::*;
use crate::syntax::{Diagnostic, Span, clip, quote_list};

/// Stops a timeline whose loops would push more keys than this (the
/// original would hang).
const MAX_KEYS: usize = 100_000;
/// Stops a timeline after running this many commands (loops included).
const MAX_STEPS: usize = 2_000_000;
pub use crate::model::MAX_KEY_FRAME;

#[derive(Debug)]
pub struct AnimOutput {
    pub animation: std::sync::Arc<Animation>,
    pub diagnostics: Vec<LocalDiag>,
    /// The source map's part for this animation, in section-relative spans;
    /// its `AnimId`s are 0 until the compiler numbers the animation.
    pub sources: AnimSources,
    /// What each item produced, so a later compile can take it over for
    /// the items an edit did not touch ([`compile_anim`]).
    memo: Memo,
}

/// Per item of every section (in order), the part of an [`AnimOutput`] it
/// produced (its keys are those of `sources.keys`).
#[derive(Debug, Default)]
struct Memo {
    items: Vec<ItemMemo>,
    /// Per item, what checking its attachment names added: a range of
    /// `attachment_refs` and one of the diagnostics.
    checks: Vec<((u32, u32), (u32, u32))>,
    attachment_refs: Vec<Reference>,
}

/// The timelines (a range of `sources.timelines`) and the diagnostics (a
/// range of `diagnostics`) one item produced.
#[derive(Clone, Copy, Debug)]
struct ItemMemo {
    timelines: (u32, u32),
    diags: (u32, u32),
}

/// An earlier output of the same animation, and how one of its sections
/// changed since: the items that did not change are taken from it.
pub(super) struct Previous<'a> {
    pub output: &'a AnimOutput,
    /// The changed section's ordinal among the animation's sections.
    pub ord: Ordinal,
    pub edit: super::splice::ItemEdit,
}

/// An animation's part of the source map; each entry with the ordinal of
/// its section among the animation's sections.
#[derive(Debug, Default)]
pub struct AnimSources {
    pub items: Vec<(Ordinal, ItemSource)>,
    pub timelines: Vec<(Ordinal, TimelineSource)>,
    /// Keys, relative to the section of their timeline (which says which).
    pub keys: std::sync::Arc<KeyList>,
    pub references: Vec<(Ordinal, Reference)>,
}

/// Every key an animation's timelines made (those of timelines a later
/// line replaced too), in the order they were made: what the source map
/// hands out as [`KeySource`]s and what a later compile takes over for the
/// items an edit did not touch. Kept as the timeline runs make them (40
/// bytes a key) rather than as [`KeySource`]s (72): a key's source is made
/// from its run key when it is asked for.
#[derive(Clone, Default)]
pub struct KeyList {
    keys: Vec<RawKey>,
    /// What the keys' indices point to.
    side: Side,
    /// The animation's frame rate, which makes a key's time.
    fps: f64,
}

impl KeyList {
    /// How many keys there are.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Key `i`, with spans relative to the start of its timeline's section.
    pub fn get(&self, i: usize) -> Option<KeySource> {
        let k = self.keys.get(i)?;
        Some(KeySource {
            frame: k.frame,
            time_secs: k.frame / self.fps,
            value: k.value.number(),
            span: k.span,
            origin: k.origin,
            placed_by: self.side.placed(k.placed_by),
        })
    }

    /// The list of keys, emptied, for the next compile to fill.
    pub(super) fn take_buffer(&mut self) -> Vec<RawKey> {
        let mut keys = std::mem::take(&mut self.keys);
        keys.clear();
        keys
    }
}

impl std::fmt::Debug for KeyList {
    /// The keys as the source map hands them out (not the indices they
    /// are kept with, which depend on the order a compile made them in).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries((0..self.len()).filter_map(|i| self.get(i))).finish()
    }
}

impl PartialEq for KeyList {
    /// The same keys, as the source map hands them out.
    fn eq(&self, other: &KeyList) -> bool {
        self.len() == other.len() && (0..self.len()).all(|i| self.get(i) == other.get(i))
    }
}

/// A key as a timeline run makes it: 40 bytes, no allocation. What few
/// keys have (a colour, an absolute frame option that placed it) is in a
/// [`Side`] list, by index; an attachment name is resolved as it is pushed
/// (an animation is only reused with the same rig names).
#[derive(Clone, Copy, Debug)]
pub(super) struct RawKey {
    frame: f64,
    value: RawValue,
    /// The value token.
    span: Span,
    /// The absolute frame option that placed the key, with the frame before
    /// it: an index in [`Side::placed`], or [`NONE`]. Only read to make the
    /// key's [`KeySource`].
    placed_by: u32,
    easing: Easing,
    /// How the value was written.
    origin: KeyOrigin,
}

/// No entry of a [`Side`] list.
const NONE: u32 = u32::MAX;

/// A key's value, as the animation uses it.
#[derive(Clone, Copy, Debug)]
enum RawValue {
    Number(f64),
    Bool(bool),
    /// The slot's attachment an `@` key names (`None`: none of that name,
    /// or the item is a bone).
    Attachment(Option<AttachmentId>),
    /// An index in [`Side::colors`].
    Color(u32),
    /// An event's string payload: an index in [`Side::texts`].
    Text(u32),
}

impl RawValue {
    fn number(self) -> Option<f64> {
        if let RawValue::Number(v) = self { Some(v) } else { None }
    }
}

/// What the few keys that have it have, out of [`RawKey`].
#[derive(Clone, Debug, Default)]
struct Side {
    placed: Vec<(Span, f64)>,
    colors: Vec<Color>,
    /// String payloads of event keys (only while events are compiled).
    texts: Vec<String>,
}

impl Side {
    fn placed(&self, i: u32) -> Option<(Span, f64)> {
        self.placed.get(i as usize).copied()
    }
}

/// Where a timeline runs: its section, and for a slot's timeline the
/// slot and the attachment names its `@` keys resolve against.
#[derive(Clone, Copy)]
struct Place<'r> {
    ord: Ordinal,
    slot: Option<(&'r ChildIds<AttachmentId>, u32)>,
    /// An event line: names pushed are string payloads.
    event: bool,
}

/// What running a timeline gives (its keys are appended to a list the
/// caller gives).
struct TimelineRun {
    end_frame: f64,
    open_loop: bool,
}

/// Buffers a timeline run works in, kept from one timeline to the next so
/// a run allocates nothing but its loops' lists.
#[derive(Default)]
struct Scratch {
    timeline: Vec<usize>,
    stack: Vec<LoopState>,
    /// Emptied lists of loop bodies, for the next loop to fill (as many as
    /// loops were ever nested).
    spare: Vec<Vec<usize>>,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Target {
    Bone(u32),
    Slot(u32),
}

/// Per target, per property: the keys of the last timeline written, with
/// the source map of every timeline read.
#[derive(Default)]
struct Tracks {
    /// Channels in order of first appearance.
    order: Vec<(Target, TimelineProp)>,
    /// Per channel: the keys of its last timeline (a range of `keys`) and
    /// that timeline's line (in `src.timelines`), which makes the channel.
    channels: HashMap<(Target, TimelineProp), Channel>,
    /// The keys of every timeline run, one after the other.
    keys: Vec<RawKey>,
    /// What `keys` (and keys runs discarded) point to.
    side: Side,
    src: AnimSources,
    diags: Vec<LocalDiag>,
    scratch: Scratch,
    items: Vec<ItemMemo>,
    /// Per item: the same item in the earlier output and how far it moved,
    /// when it was taken from there.
    earlier: Vec<Option<(usize, u32)>>,
    /// The resolved targets of one section's items (storage kept between
    /// sections; see [`Tracks::section`]).
    targets: Vec<ResolvedTarget>,
}

/// An item's target, or why it has none.
type ResolvedTarget = Result<(Target, SrcTarget), crate::syntax::Diagnostic>;

/// What an item's target names: a slot (`@…`) or a bone.
fn resolve_target(rig: &RigNames, item: &AnimItem) -> ResolvedTarget {
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
struct Channel {
    keys: (u32, u32),
    timeline: usize,
}

/// Compiles every section of one animation name, in document order.
///
/// With `prev` (an output compiled from the same sections but one, with the
/// same rig names), what the items an edit did not touch produced is taken
/// from it, moved where the edit moved them: only the edited items' names
/// are resolved and their timelines run.
///
/// The keys are written into `spare` (emptied first), a buffer of an
/// output no longer used: a list this long would otherwise come in fresh
/// pages from the kernel on every edit.
pub(super) fn compile_anim(
    rig: &RigNames,
    sections: &[(Ordinal, &AnimSection)],
    prev: Option<Previous<'_>>,
    spare: Vec<RawKey>,
) -> AnimOutput {
    let name = sections.first().map_or(String::new(), |s| s.1.name.node.clone());
    let (fps, opts) = header_defaults(sections);
    let mut t = Tracks::with_room(sections, spare);
    // How many items come before this section in the earlier output.
    let mut before = 0;
    for (ord, sec) in sections {
        let replay = prev.as_ref().map(|p| {
            let edit = (p.ord == *ord).then_some(p.edit);
            (p.output, before, edit)
        });
        t.section(rig, *ord, sec, opts, replay);
        before += match replay {
            Some((_, _, Some(e))) => sec.items.len() - e.new_count + e.old_count,
            _ => sec.items.len(),
        };
    }
    for c in t.channels.values() {
        t.src.timelines[c.timeline].1.effective = true;
    }
    let mut anim = build_animation(&name, fps, &t.order, &t.channels, &t.keys, &t.side.colors);
    // Attachment names: checked per item after all of them (their
    // diagnostics come last), or taken from the earlier output.
    let mut checks = Vec::with_capacity(t.items.len());
    let mut attachment_refs = Vec::new();
    let mut g = 0;
    for (ord, sec) in sections {
        for item in &sec.items {
            let (r0, d0) = (attachment_refs.len() as u32, t.diags.len() as u32);
            match (t.earlier[g], prev.as_ref()) {
                (Some((k, by)), Some(p)) => {
                    let (r, d) = p.output.memo.checks[k];
                    attachment_refs.extend(
                        p.output.memo.attachment_refs[r.0 as usize..r.1 as usize].iter().map(|x| {
                            let mut x = *x;
                            x.shift(by);
                            x
                        }),
                    );
                    t.diags.extend(
                        p.output.diagnostics[d.0 as usize..d.1 as usize]
                            .iter()
                            .map(|(_, x)| (*ord, x.clone().shifted(by))),
                    );
                }
                _ => check_attachment_names(rig, *ord, item, &mut t.diags, &mut attachment_refs),
            }
            checks.push(((r0, attachment_refs.len() as u32), (d0, t.diags.len() as u32)));
            g += 1;
        }
        // (Each section's, in its items' order.)
        let from = checks.len() - sec.items.len();
        let r0 = checks.get(from).map_or(attachment_refs.len() as u32, |c| c.0.0) as usize;
        t.src.references.extend(attachment_refs[r0..].iter().map(|r| (*ord, *r)));
    }
    // Events: every compile runs all of them (they are few, and read
    // nothing but their own lines), after every item's diagnostics.
    anim.events = compile_events(sections, anim.fps, opts, &mut t.diags);
    if !anim.events.is_empty() {
        anim.update_duration();
    }
    // In document order once here (stably, as the compiler's list is), so
    // merging them into the document's sorted list is cheap on every update.
    t.src.references.sort_by_key(|(o, r)| (*o, r.span.start));
    t.src.keys = std::sync::Arc::new(KeyList { keys: t.keys, side: t.side, fps: anim.fps });
    AnimOutput {
        animation: std::sync::Arc::new(anim),
        diagnostics: t.diags,
        sources: t.src,
        memo: Memo { items: t.items, checks, attachment_refs },
    }
}

/// The frame rate and the defaults of the headers (later headers override
/// what they set).
fn header_defaults(sections: &[(Ordinal, &AnimSection)]) -> (f64, Opts) {
    let mut fps = None;
    let mut opts = Opts::default();
    for (_, s) in sections {
        fps = s.fps.or(fps);
        opts.frame = s.opts.frame.or(opts.frame);
        opts.step = s.opts.step.or(opts.step);
        opts.easing = s.opts.easing.or(opts.easing);
    }
    // `Animation::empty` cleans the frame rate (the one place that does).
    (fps.unwrap_or(crate::model::DEFAULT_FPS), opts)
}

impl Tracks {
    /// Room for everything up front: growing these vectors one push at a
    /// time copies them again and again (keys: about one per command).
    fn with_room(sections: &[(Ordinal, &AnimSection)], mut keys: Vec<RawKey>) -> Tracks {
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
    fn section(
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
    fn item(
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
                self.diags.push((ord, d));
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

    /// Takes what item `k` of `out` produced (the same item, moved by `by`
    /// bytes in its section, modulo 2³²): its reference, source, diagnostics,
    /// timelines and keys, as if it were compiled again.
    fn replay(
        &mut self,
        ord: Ordinal,
        item: &AnimItem,
        region: Span,
        out: &AnimOutput,
        k: usize,
        by: u32,
    ) {
        let this_anim = AnimId(0);
        let src_target = out.sources.items[k].1.target;
        if item.is_event {
            self.src.items.push((ord, ItemSource { anim: this_anim, region, target: None }));
            return;
        }
        self.src.references.push((
            ord,
            Reference { span: item.target.span, target: src_target, definition: false },
        ));
        self.src.items.push((ord, ItemSource { anim: this_anim, region, target: src_target }));
        let m = out.memo.items[k];
        self.diags.extend(
            out.diagnostics[m.diags.0 as usize..m.diags.1 as usize]
                .iter()
                .map(|(_, d)| (ord, d.clone().shifted(by))),
        );
        let target = match src_target {
            Some(SrcTarget::Bone(b)) => Target::Bone(b.0),
            Some(SrcTarget::Slot(s)) => Target::Slot(s.0),
            _ => return,
        };
        for (_, old) in &out.sources.timelines[m.timelines.0 as usize..m.timelines.1 as usize] {
            let keys = old.keys.start as usize..old.keys.end as usize;
            let keys_from = self.keys.len();
            let (old_side, side) = (&out.sources.keys.side, &mut self.side);
            self.keys.extend(out.sources.keys.keys[keys].iter().map(|k| {
                let mut k = *k;
                k.span = k.span.shifted(by);
                if let Some((s, before)) = old_side.placed(k.placed_by) {
                    side.placed.push((s.shifted(by), before));
                    k.placed_by = side.placed.len() as u32 - 1;
                }
                if let RawValue::Color(c) = k.value {
                    side.colors.push(old_side.colors[c as usize]);
                    k.value = RawValue::Color(side.colors.len() as u32 - 1);
                }
                k
            }));
            self.src.timelines.push((
                ord,
                TimelineSource {
                    line: old.line.shifted(by),
                    end: old.end.wrapping_add(by),
                    effective: false,
                    keys: keys_from as u32..self.keys.len() as u32,
                    ..old.clone()
                },
            ));
            self.set_channel((target, old.prop), keys_from);
        }
    }

    /// Runs one timeline; its keys replace those of the channel's timeline before.
    fn timeline(
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
            (&tl.commands, tl.span),
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
    fn set_channel(&mut self, key: (Target, TimelineProp), keys_from: usize) {
        let channel = Channel {
            keys: (keys_from as u32, self.keys.len() as u32),
            timeline: self.src.timelines.len() - 1,
        };
        if self.channels.insert(key, channel).is_none() {
            self.order.push(key);
        }
    }
}

/// The animation's channels from the keys of each (target, property).
fn build_animation(
    name: &str,
    fps: f64,
    order: &[(Target, TimelineProp)],
    channels: &HashMap<(Target, TimelineProp), Channel>,
    all_keys: &[RawKey],
    colors: &[Color],
) -> Animation {
    let keys_of = |k: &(Target, TimelineProp)| {
        let (a, b) = channels[k].keys;
        &all_keys[a as usize..b as usize]
    };
    let mut anim = Animation::empty(name, fps);
    let fps = anim.fps;
    let time = |k: &RawKey| k.frame / fps;
    let num = |v: &RawValue| v.number().unwrap_or(0.0);
    let color_tracks: Vec<(Target, TimelineProp)> = order
        .iter()
        .filter(|k| k.1 == TimelineProp::Color && !keys_of(k).is_empty())
        .copied()
        .collect();
    // Room for every channel up front (a channel per timeline of a bone
    // property, of a flip or of an attachment, four of a `c` timeline).
    let (mut bones, mut flips, mut attachments, mut colors_n) = (0, 0, 0, 0);
    for key in order.iter().filter(|k| !keys_of(k).is_empty()) {
        match *key {
            (Target::Bone(_), TimelineProp::FlipX | TimelineProp::FlipY) => flips += 1,
            (Target::Bone(_), _) => bones += 1,
            (Target::Slot(_), TimelineProp::Attachment) => attachments += 1,
            (Target::Slot(_), TimelineProp::Color) => colors_n += 4,
            (Target::Slot(_), _) => colors_n += 1,
        }
    }
    anim.bones.reserve_exact(bones);
    anim.flips.reserve_exact(flips);
    anim.attachments.reserve_exact(attachments);
    anim.slot_colors.reserve_exact(colors_n);
    for key in order {
        let keys = keys_of(key);
        if keys.is_empty() {
            continue;
        }
        let (target, prop) = *key;
        match (target, prop) {
            (Target::Bone(b), p) => {
                let bone = BoneId(b);
                let property = match p {
                    TimelineProp::X => BoneProperty::X,
                    TimelineProp::Y => BoneProperty::Y,
                    TimelineProp::Rotation => BoneProperty::Rotation,
                    TimelineProp::ScaleX => BoneProperty::ScaleX,
                    TimelineProp::ScaleY => BoneProperty::ScaleY,
                    TimelineProp::FlipX | TimelineProp::FlipY => {
                        let axis = if p == TimelineProp::FlipX { Axis::X } else { Axis::Y };
                        let keys = keys
                            .iter()
                            .map(|k| Key {
                                time_secs: time(k),
                                value: matches!(k.value, RawValue::Bool(true)),
                                curve: Curve::Stepped,
                            })
                            .collect();
                        anim.flips.push(FlipChannel { bone, axis, keys });
                        continue;
                    }
                    _ => continue,
                };
                let keys = keys
                    .iter()
                    .map(|k| {
                        let v = num(&k.value);
                        let value = if property == BoneProperty::Rotation {
                            normalize_angle(v.to_radians())
                        } else {
                            v
                        };
                        Key { time_secs: time(k), value, curve: Curve::Eased(k.easing) }
                    })
                    .collect();
                anim.bones.push(BoneChannel {
                    bone,
                    property,
                    mode: ValueMode::RelativeToSetup,
                    keys,
                });
            }
            (Target::Slot(s), p) => {
                let slot = SlotId(s);
                let component = match p {
                    TimelineProp::R => ColorComponent::R,
                    TimelineProp::G => ColorComponent::G,
                    TimelineProp::B => ColorComponent::B,
                    TimelineProp::A => ColorComponent::A,
                    TimelineProp::Attachment => {
                        let keys = keys
                            .iter()
                            .map(|k| {
                                let value = match k.value {
                                    RawValue::Attachment(a) => a,
                                    _ => None,
                                };
                                Key { time_secs: time(k), value, curve: Curve::Stepped }
                            })
                            .collect();
                        anim.attachments.push(AttachmentChannel { slot, keys });
                        continue;
                    }
                    TimelineProp::Color => {
                        for (i, component) in [
                            ColorComponent::R,
                            ColorComponent::G,
                            ColorComponent::B,
                            ColorComponent::A,
                        ]
                        .into_iter()
                        .enumerate()
                        {
                            let keys = keys
                                .iter()
                                .map(|k| {
                                    let c = if let RawValue::Color(c) = k.value {
                                        colors[c as usize].to_array()[i]
                                    } else {
                                        0.0
                                    };
                                    Key {
                                        time_secs: time(k),
                                        value: c,
                                        curve: Curve::Eased(k.easing),
                                    }
                                })
                                .collect();
                            anim.slot_colors.push(SlotColorChannel { slot, component, keys });
                        }
                        continue;
                    }
                    _ => continue,
                };
                // A `c` timeline replaces the slot's r g b a timelines.
                if color_tracks.iter().any(|t| t.0 == target) {
                    continue;
                }
                let keys = keys
                    .iter()
                    .map(|k| Key {
                        time_secs: time(k),
                        value: num(&k.value),
                        curve: Curve::Eased(k.easing),
                    })
                    .collect();
                anim.slot_colors.push(SlotColorChannel { slot, component, keys });
            }
        }
    }
    anim.update_duration();
    anim
}

/// The events of an animation's sections: every event item's lines run in
/// document order (with the timeline notation and its bounds), sorted by
/// frame (stably, so events at one frame keep the order written). A
/// payload out of range and a second key of one event at one frame (from
/// another line) are reported and left out.
fn compile_events(
    sections: &[(Ordinal, &AnimSection)],
    fps: f64,
    opts: Opts,
    diags: &mut Vec<LocalDiag>,
) -> Vec<Event> {
    let mut out: Vec<Event> = Vec::new();
    if !sections.iter().any(|s| s.1.items.iter().any(|i| i.is_event)) {
        return out;
    }
    let mut scratch = Scratch::default();
    let mut side = Side::default();
    let mut keys = Vec::new();
    // Per (event, frame): the event's index in `out`, for duplicates.
    let mut seen: HashMap<(&str, u64), usize> = HashMap::default();
    for (ord, sec) in sections {
        for item in sec.items.iter().filter(|i| i.is_event) {
            let start = Opts {
                frame: item.opts.frame.or(opts.frame),
                step: item.opts.step.or(opts.step),
                easing: item.opts.easing.or(opts.easing),
            };
            let name = item.target.node.as_str();
            for line in &item.events {
                keys.clear();
                side.texts.clear();
                let at = Place { ord: *ord, slot: None, event: true };
                let tl = (&line.commands[..], line.span);
                run_timeline(tl, start, at, diags, &mut scratch, &mut side, &mut keys);
                for k in &keys {
                    let payload = match (line.kind.node, k.value) {
                        (EventKind::Int, RawValue::Number(v)) => {
                            if v.fract() != 0.0
                                || !(f64::from(i32::MIN)..=f64::from(i32::MAX)).contains(&v)
                            {
                                diags.push((
                                    *ord,
                                    Diagnostic::error(
                                        k.span,
                                        format!("the payload this key computes, {v}, is not a 32-bit whole number; the event is left out"),
                                    )
                                    .hint("`i` payloads are whole numbers from -2147483648 to 2147483647; `f` takes any number"),
                                ));
                                continue;
                            }
                            EventPayload::Int(v as i32)
                        }
                        (EventKind::Float, RawValue::Number(v)) => {
                            if !v.is_finite() {
                                diags.push((
                                    *ord,
                                    Diagnostic::error(
                                        k.span,
                                        "the payload this key computes is not a finite number; the event is left out",
                                    ),
                                ));
                                continue;
                            }
                            EventPayload::Float(v)
                        }
                        (EventKind::Text, RawValue::Text(i)) => EventPayload::Text(
                            side.texts.get(i as usize).cloned().unwrap_or_default(),
                        ),
                        _ => EventPayload::None,
                    };
                    match seen.entry((name, k.frame.to_bits())) {
                        std::collections::hash_map::Entry::Occupied(_) => {
                            diags.push((
                                *ord,
                                Diagnostic::warning(
                                    k.span,
                                    format!(
                                        "event `{name}` already fires at frame {}; this one is left out",
                                        fmt_frame(k.frame)
                                    ),
                                )
                                .hint("an event fires at most once a frame: give the second one another name or frame"),
                            ));
                            continue;
                        }
                        std::collections::hash_map::Entry::Vacant(e) => {
                            e.insert(out.len());
                        }
                    }
                    out.push(Event {
                        name: name.to_string(),
                        frame: k.frame,
                        time_secs: k.frame / fps,
                        payload,
                    });
                }
            }
        }
    }
    out.sort_by(|a, b| a.frame.total_cmp(&b.frame));
    out
}

/// How the bones, slots and attachments an animation's lookups found in
/// one set of rig names are numbered in another: for each kind, old id →
/// new id, one to one.
#[derive(Debug, Default)]
pub(super) struct IdMap {
    bones: HashMap<u32, u32>,
    slots: HashMap<u32, u32>,
    attachments: HashMap<u32, u32>,
    /// The new ids taken, per kind (bones, slots, attachments).
    taken: [rustc_hash::FxHashSet<u32>; 3],
}

impl IdMap {
    /// Records `old` → `new` for `kind` (0 bones, 1 slots, 2 attachments);
    /// `false` when either is already mapped otherwise (two names of one
    /// bone before would be two bones now, or the reverse: the animation
    /// is no longer the same).
    fn pair(&mut self, kind: usize, old: u32, new: u32) -> bool {
        let map = [&mut self.bones, &mut self.slots, &mut self.attachments][kind].entry(old);
        match map {
            std::collections::hash_map::Entry::Occupied(e) => *e.get() == new,
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(new);
                self.taken[kind].insert(new)
            }
        }
    }

    /// Whether every id keeps its number (the output stands as it is).
    pub(super) fn is_identity(&self) -> bool {
        [&self.bones, &self.slots, &self.attachments].iter().all(|m| m.iter().all(|(o, n)| o == n))
    }

    fn bone(&self, b: BoneId) -> BoneId {
        BoneId(self.bones.get(&b.0).copied().unwrap_or(b.0))
    }

    fn slot(&self, s: SlotId) -> SlotId {
        SlotId(self.slots.get(&s.0).copied().unwrap_or(s.0))
    }

    fn attachment(&self, a: AttachmentId) -> AttachmentId {
        AttachmentId(self.attachments.get(&a.0).copied().unwrap_or(a.0))
    }

    fn target(&self, t: Option<SrcTarget>) -> Option<SrcTarget> {
        Some(match t? {
            SrcTarget::Bone(b) => SrcTarget::Bone(self.bone(b)),
            SrcTarget::Slot(s) => SrcTarget::Slot(self.slot(s)),
            SrcTarget::Attachment(a) => SrcTarget::Attachment(self.attachment(a)),
            other => other,
        })
    }
}

/// How an animation of the sections `sections`, compiled against the rig
/// names `old`, is numbered against `new`, when it compiles the same there
/// but for its ids: each item's target and each attachment name pushed on
/// a slot item's timelines find one bone, slot or attachment in both, and
/// different ones before stay different now. `None` otherwise: a name
/// that found nothing or was ambiguous in `old` counts as a change (its
/// message lists names, which may be others now). Nothing else of an
/// animation's compile reads the rig.
pub(super) fn lookup_map<'a>(
    sections: impl IntoIterator<Item = &'a AnimSection>,
    old: &RigNames,
    new: &RigNames,
) -> Option<IdMap> {
    use crate::compile::names::Resolved::Found;
    let mut map = IdMap::default();
    for item in sections.into_iter().flat_map(|s| &s.items).filter(|i| !i.is_event) {
        let target = &item.target.node;
        if !item.is_slot {
            let (Found(o), Found(n)) =
                (old.bone_names.resolve(target), new.bone_names.resolve(target))
            else {
                return None;
            };
            if !map.pair(0, o.0, n.0) {
                return None;
            }
            continue;
        }
        let (Found(o), Found(n)) = (old.slot_names.resolve(target), new.slot_names.resolve(target))
        else {
            return None;
        };
        if !map.pair(1, o.0, n.0) {
            return None;
        }
        // (A name pushed on any timeline of a slot is looked up among its
        // attachments; only `@` timelines take it, the others report it.)
        for c in item.timelines.iter().flat_map(|t| &t.commands) {
            let TimelineCommand::Push(KeyValue::Name(name)) = &c.node else { continue };
            let (Some(a), Some(b)) =
                (old.attachment_ids.get(o.0, name), new.attachment_ids.get(n.0, name))
            else {
                return None;
            };
            if !map.pair(2, a.0, b.0) {
                return None;
            }
        }
    }
    Some(map)
}

impl AnimOutput {
    /// This output with its bones, slots and attachments numbered by `map`
    /// (every id in it came from a lookup `map` holds).
    pub(super) fn renumbered(&self, map: &IdMap) -> AnimOutput {
        let mut animation = Animation::clone(&self.animation);
        for ch in &mut animation.bones {
            ch.bone = map.bone(ch.bone);
        }
        for ch in &mut animation.flips {
            ch.bone = map.bone(ch.bone);
        }
        for ch in &mut animation.slot_colors {
            ch.slot = map.slot(ch.slot);
        }
        for ch in &mut animation.attachments {
            ch.slot = map.slot(ch.slot);
            for k in &mut ch.keys {
                k.value = k.value.map(|a| map.attachment(a));
            }
        }
        let src = &self.sources;
        let mut keys = KeyList::clone(&src.keys);
        for k in &mut keys.keys {
            if let RawValue::Attachment(a) = &mut k.value {
                *a = a.map(|a| map.attachment(a));
            }
        }
        let reference = |r: &Reference| Reference { target: map.target(r.target), ..*r };
        let sources = AnimSources {
            items: (src.items.iter())
                .map(|(o, i)| (*o, ItemSource { target: map.target(i.target), ..i.clone() }))
                .collect(),
            timelines: (src.timelines.iter())
                .map(|(o, t)| (*o, TimelineSource { target: map.target(t.target), ..t.clone() }))
                .collect(),
            keys: std::sync::Arc::new(keys),
            references: src.references.iter().map(|(o, r)| (*o, reference(r))).collect(),
        };
        let memo = Memo {
            items: self.memo.items.clone(),
            checks: self.memo.checks.clone(),
            attachment_refs: self.memo.attachment_refs.iter().map(reference).collect(),
        };
        AnimOutput {
            animation: std::sync::Arc::new(animation),
            diagnostics: self.diagnostics.clone(),
            sources,
            memo,
        }
    }
}

/// Reports attachment names an `@` timeline of `item` switches to that
/// the slot lacks. Also records each such name and the attachment it names.
fn check_attachment_names(
    rig: &RigNames,
    ord: Ordinal,
    item: &AnimItem,
    diags: &mut Vec<LocalDiag>,
    refs: &mut Vec<Reference>,
) {
    if !item.is_slot {
        return;
    }
    let crate::compile::names::Resolved::Found(slot) = rig.slot_names.resolve(&item.target.node)
    else {
        return;
    };
    for tl in item.timelines.iter().filter(|t| t.prop.node == TimelineProp::Attachment) {
        for c in &tl.commands {
            let TimelineCommand::Push(KeyValue::Name(n)) = &c.node else { continue };
            let found = rig.attachment_ids.get(slot.0, n);
            refs.push(Reference {
                span: c.span,
                target: found.map(SrcTarget::Attachment),
                definition: false,
            });
            if found.is_none() {
                let slot_name = rig.slot_names.name(slot);
                let names = rig.attachment_ids.names_of(slot.0);
                let mut d = Diagnostic::warning(
                    c.span,
                    format!(
                        "slot `{}` has no attachment `{}`; nothing is shown from this key",
                        clip(slot_name),
                        clip(n)
                    ),
                );
                match crate::compile::names::closest(n, names.iter().copied()) {
                    Some(s) => d = d.hint(format!("did you mean `{}`?", clip(s))),
                    None if !names.is_empty() => {
                        d = d.hint(format!(
                            "its attachments: {}",
                            quote_list(names.iter().copied())
                        ));
                    }
                    None => {}
                }
                diags.push((ord, d));
            }
        }
    }
}

/// A frame number for a message: whole numbers without a fraction.
fn fmt_frame(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 { format!("{}", f as i64) } else { format!("{f}") }
}

struct LoopState {
    start: usize,
    prev: Vec<usize>,
    count: i64,
    span: Span,
}

/// A timeline's (or an event line's) commands and its line.
type Commands<'a> = (&'a [Spanned<TimelineCommand>], Span);

/// Runs a timeline's commands (LANGUAGE.md §5.1) and returns its keys.
fn run_timeline(
    tl: Commands<'_>,
    start: Opts,
    at: Place<'_>,
    diags: &mut Vec<LocalDiag>,
    scratch: &mut Scratch,
    side: &mut Side,
    out: &mut Vec<RawKey>,
) -> TimelineRun {
    let mut run = TimelineRunner::new(tl, start, at, diags, side, out, std::mem::take(scratch));
    let mut k = 0;
    let mut steps = 0usize;
    while k < tl.0.len() {
        steps += 1;
        if steps > MAX_STEPS || run.arena.len() - run.base > MAX_KEYS {
            run.stop_runaway();
            break;
        }
        k = run.command(k);
    }
    let (result, used) = run.finish();
    *scratch = used;
    result
}

/// The state of [`run_timeline`] between commands.
struct TimelineRunner<'a> {
    tl: Commands<'a>,
    diags: &'a mut Vec<LocalDiag>,
    ord: Ordinal,
    /// The slot whose attachments `@` keys name.
    slot: Option<(&'a ChildIds<AttachmentId>, u32)>,
    /// Names pushed are event payloads ([`Place::event`]).
    event: bool,
    /// Where keys put their colours and absolute frame options.
    side: &'a mut Side,
    frame: f64,
    step: f64,
    easing: Easing,
    /// Keys live in an arena, the caller's list from `base` on: loops that
    /// discard their keys leave them there, and a later push at the same
    /// frame still edits the discarded key, as in the original. The keys
    /// kept are moved down over the others at the end.
    arena: &'a mut Vec<RawKey>,
    base: usize,
    /// Indices into `arena` of the keys kept so far (of the innermost loop),
    /// in the order they were made.
    timeline: Vec<usize>,
    stack: Vec<LoopState>,
    /// See [`Scratch::spare`].
    spare: Vec<Vec<usize>>,
    last_push: f64,
    /// The last value pushed when a number, else 0 (what `+N` and `*N` use).
    last_number: f64,
    last_key: Option<usize>,
    /// The absolute frame option that set the current frame, if the last
    /// move was one.
    placed_by: Option<(Span, f64)>,
    /// `placed_by`'s index in [`Side::placed`], once a key used it.
    placed_at: Option<u32>,
    /// A key past [`MAX_KEY_FRAME`] was reported.
    too_late: bool,
}

impl<'a> TimelineRunner<'a> {
    /// A run at the options in effect where the timeline starts.
    fn new(
        tl: Commands<'a>,
        start: Opts,
        at: Place<'a>,
        diags: &'a mut Vec<LocalDiag>,
        side: &'a mut Side,
        arena: &'a mut Vec<RawKey>,
        mut scratch: Scratch,
    ) -> Self {
        scratch.timeline.clear();
        scratch.stack.clear();
        TimelineRunner {
            tl,
            diags,
            ord: at.ord,
            slot: at.slot,
            event: at.event,
            side,
            frame: start.frame.unwrap_or(0.0),
            step: start.step.unwrap_or(5.0),
            easing: start.easing.unwrap_or(Easing::Linear),
            base: arena.len(),
            arena,
            timeline: scratch.timeline,
            stack: scratch.stack,
            spare: scratch.spare,
            last_push: -1.0,
            last_number: 0.0,
            last_key: None,
            placed_by: None,
            placed_at: None,
            too_late: false,
        }
    }

    /// Too many steps or keys: keeps what was pushed so far, as if the open
    /// loops ended here, and reports it.
    fn stop_runaway(&mut self) {
        while let Some(s) = self.stack.pop() {
            let mut prev = s.prev;
            prev.append(&mut self.timeline);
            self.timeline = prev;
        }
        self.diags.push((
            self.ord,
            Diagnostic::error(
                self.tl.1,
                format!(
                    "this timeline's loops would push too many keys; only the first {} are kept",
                    self.timeline.len()
                ),
            )
            .hint("lower the loop counts `}[n]`"),
        ));
    }

    /// Runs command `k`; returns the index of the next one.
    fn command(&mut self, k: usize) -> usize {
        let cmd = &self.tl.0[k];
        match &cmd.node {
            TimelineCommand::SetFrame(v) => {
                if *v > self.frame {
                    self.placed_by = Some((cmd.span, self.frame));
                    self.placed_at = None;
                    self.frame = *v;
                }
            }
            TimelineCommand::SetStep(v) => self.step = *v,
            TimelineCommand::AdvanceSteps(n) => {
                self.frame += self.step * f64::from(*n);
                self.placed_by = None;
                self.placed_at = None;
            }
            TimelineCommand::AdvanceFrames(v) => {
                self.frame += v;
                self.placed_by = None;
                self.placed_at = None;
            }
            TimelineCommand::SetEasing(e) => {
                self.easing = *e;
                if let Some(lk) = self.last_key {
                    self.arena[lk].easing = *e;
                }
            }
            c @ (TimelineCommand::Push(_)
            | TimelineCommand::PushAdd(_)
            | TimelineCommand::PushMul(_)) => self.push(c, cmd.span),
            TimelineCommand::BeginLoop => {
                let body = self.spare.pop().unwrap_or_default();
                self.stack.push(LoopState {
                    start: k + 1,
                    prev: std::mem::replace(&mut self.timeline, body),
                    count: -1,
                    span: cmd.span,
                });
            }
            TimelineCommand::EndLoop(n) => return self.end_loop(k, *n),
        }
        k + 1
    }

    /// A push command (`=`, `+`, `*`): a new key at the current frame, or
    /// an edit of the last one when it is at the same frame.
    fn push(&mut self, cmd: &TimelineCommand, span: Span) {
        let prev = self.last_number;
        let value = match cmd {
            TimelineCommand::Push(KeyValue::Number(v)) => RawValue::Number(*v),
            TimelineCommand::Push(KeyValue::Bool(b)) => RawValue::Bool(*b),
            TimelineCommand::Push(KeyValue::Name(n)) if self.event => {
                self.side.texts.push(n.clone());
                RawValue::Text(self.side.texts.len() as u32 - 1)
            }
            TimelineCommand::Push(KeyValue::Name(n)) => {
                RawValue::Attachment(self.slot.and_then(|(ids, s)| ids.get(s, n)))
            }
            // (Pushed to the side list below, when the key is kept.)
            TimelineCommand::Push(KeyValue::Color(_)) => RawValue::Color(NONE),
            TimelineCommand::PushAdd(v) => RawValue::Number(prev + v),
            TimelineCommand::PushMul(v) => RawValue::Number(prev * v),
            _ => unreachable!("only called for pushes"),
        };
        let frame = self.frame;
        if frame.is_nan() || frame > MAX_KEY_FRAME {
            // Beyond the longest animation allowed: the key is dropped
            // (the keys before it stay), reported once per timeline.
            if !self.too_late {
                self.too_late = true;
                self.diags.push((
                    self.ord,
                    Diagnostic::error(
                        span,
                        format!(
                            "this key falls on frame {}, after the last frame an animation may use ({}); it is dropped, as is any other key of this timeline past that frame",
                            fmt_frame(frame),
                            fmt_frame(MAX_KEY_FRAME)
                        ),
                    )
                    .hint("animations are limited to 1 000 000 frames (see LANGUAGE-EXT.md); check the frame numbers and loop counts"),
                ));
            }
            return;
        }
        let value = match (value, cmd) {
            (RawValue::Color(_), TimelineCommand::Push(KeyValue::Color(c))) => {
                self.side.colors.push(**c);
                RawValue::Color(self.side.colors.len() as u32 - 1)
            }
            (v, _) => v,
        };
        let origin = if !self.stack.is_empty() {
            KeyOrigin::Loop
        } else if matches!(cmd, TimelineCommand::Push(_)) {
            KeyOrigin::Plain
        } else {
            KeyOrigin::Relative
        };
        let key = if frame == self.last_push
            && let Some(lk) = self.last_key
        {
            let k = &mut self.arena[lk];
            k.value = value;
            k.easing = Easing::Linear;
            k.span = span;
            k.origin = origin;
            lk
        } else {
            let placed_by = match (self.placed_by, self.placed_at) {
                (None, _) => NONE,
                (Some(_), Some(i)) => i,
                (Some(p), None) => {
                    self.side.placed.push(p);
                    let i = self.side.placed.len() as u32 - 1;
                    self.placed_at = Some(i);
                    i
                }
            };
            self.arena.push(RawKey {
                frame,
                value,
                easing: Easing::Linear,
                span,
                origin,
                placed_by,
            });
            self.timeline.push(self.arena.len() - 1);
            self.arena.len() - 1
        };
        if self.easing != Easing::Linear {
            self.arena[key].easing = self.easing;
        }
        self.last_push = frame;
        self.last_number = value.number().unwrap_or(0.0);
        self.last_key = Some(key);
    }

    /// `}[n]` at command `k`: repeats the loop or closes it; returns the
    /// index of the next command.
    fn end_loop(&mut self, k: usize, n: f64) -> usize {
        let Some(top) = self.stack.last_mut() else {
            self.diags.push((
                self.ord,
                Diagnostic::warning(self.tl.0[k].span, "`}` without a matching `{` is ignored"),
            ));
            return k + 1;
        };
        if top.count == -1 {
            if n == 0.0 {
                if let Some(s) = self.stack.pop() {
                    let mut body = std::mem::replace(&mut self.timeline, s.prev);
                    body.clear();
                    self.spare.push(body);
                }
                return k + 1;
            }
            top.count = n.min(1e12) as i64;
        }
        top.count -= 1;
        if top.count > 0 {
            return top.start;
        }
        if let Some(s) = self.stack.pop() {
            let mut prev = s.prev;
            prev.append(&mut self.timeline);
            let body = std::mem::replace(&mut self.timeline, prev);
            self.spare.push(body);
        }
        k + 1
    }

    /// Drops the keys of a loop left open (reported) and leaves the keys
    /// kept at the end of the caller's list; gives its buffers back.
    fn finish(mut self) -> (TimelineRun, Scratch) {
        let open_loop = !self.stack.is_empty();
        if let Some(first) = self.stack.first() {
            self.diags.push((
                self.ord,
                Diagnostic::error(
                    first.span,
                    "`{` is never closed; the keys pushed after it are dropped",
                )
                .hint("close the loop with `}` or `}[n]`"),
            ));
            let outer = self.stack.swap_remove(0).prev;
            self.timeline = outer;
        }
        // The keys kept are in the order they were made, so each moves down
        // (or stays): unless a loop discarded keys, all of them stay.
        let kept = self.timeline.len();
        if self.base + kept != self.arena.len() {
            for (j, &i) in self.timeline.iter().enumerate() {
                debug_assert!(i >= self.base + j);
                self.arena[self.base + j] = self.arena[i];
            }
            self.arena.truncate(self.base + kept);
        }
        let run = TimelineRun { end_frame: self.frame, open_loop };
        (run, Scratch { timeline: self.timeline, stack: self.stack, spare: self.spare })
    }
}

#[cfg(test)]
mod tests {
    use super::IdMap;

    /// Ids pair one to one: an old id keeps the new one it got, and a new
    /// id taken by one old id is refused to another.
    #[test]
    fn ids_pair_one_to_one() {
        let mut map = IdMap::default();
        assert!(map.pair(0, 1, 2));
        assert!(map.pair(0, 1, 2));
        assert!(!map.pair(0, 1, 3), "one old bone, two new ones");
        assert!(!map.pair(0, 5, 2), "two old bones, one new one");
        assert!(map.pair(1, 5, 2), "slots are numbered apart from bones");
        assert!(!map.is_identity());
        let mut same = IdMap::default();
        assert!(same.pair(2, 4, 4));
        assert!(same.is_identity());
    }
}
