//! The source map: where every item of the model was written and what
//! every name in the text resolved to. Together with the parser's token
//! roles it is the one place the app (and a language server) learns about
//! the language: cursor-to-bone, picking → line, jumps, the timeline's key
//! ticks and drag-to-edit all read it; nothing else resolves names.
//!
//! The compile stages build it with spans relative to their sections (so
//! cached results stay valid when text before them moves); the compiler
//! shifts it into document offsets.
//!
//! Entries: every bone line (`BoneDef`), slot line (`SlotDef`), skin and
//! order entry, animation item, timeline (`TimelineSource`) and key
//! (`KeySource`: frame, time, value token, written plainly, relatively or in
//! a loop, the option that placed it), each with its span and what it
//! resolved to; and every name written (`Reference`), sorted, with
//! `reference_at`, `definition` and `references_to` for hover, definition,
//! references and rename. Each animation's part is kept placed for the
//! next update.

use std::ops::Range;
use std::sync::Arc;

use crate::model::{AnimId, AttachmentId, BoneId, SkinId, SlotId};
use crate::syntax::Span;
use crate::syntax::tree::TimelineProp;

/// What a name in the text stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A bone.
    Bone(BoneId),
    /// A slot.
    Slot(SlotId),
    /// An attachment (of the default skin's list).
    Attachment(AttachmentId),
    /// A skin (never the default one: it has no name in the text).
    Skin(SkinId),
    /// An animation.
    Animation(AnimId),
}

/// A name written in the text and what it resolved to (`None`: unknown or
/// ambiguous, a diagnostic says which).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reference {
    /// The name as written (for `@slot`, without the `@`).
    pub span: Span,
    /// What it names; `None` when unknown or ambiguous.
    pub target: Option<Target>,
    /// The name defines the item (a bone line's path, a slot line's head,
    /// a skin's or an animation's name) rather than referring to it.
    pub definition: bool,
}

/// Which value a `letter+number` property sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PropKey {
    /// `l`: a bone's length.
    Length,
    /// `r`: rotation, degrees.
    Rotation,
    /// `x`.
    X,
    /// `y`.
    Y,
    /// `i`: scale along x.
    ScaleX,
    /// `j`: scale along y.
    ScaleY,
    /// Anything else (colors, flags, sizes, styles).
    Other,
}

/// A property token on a bone or slot line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PropSource {
    /// Which value it sets.
    pub key: PropKey,
    /// The whole token (`x12.5`); its number starts one byte in.
    pub span: Span,
    /// The number written (0 for tokens without one).
    pub value: f64,
}

/// One bone line (a bone written on several lines has several).
#[derive(Clone, Debug, PartialEq)]
pub struct BoneDef {
    /// The bone the line writes.
    pub bone: BoneId,
    /// The line, without its indentation.
    pub line: Span,
    /// The bone's path on it.
    pub path: Span,
    /// Its property tokens, in [`SourceMap::props`].
    pub props: Range<u32>,
    /// Just past the line's last valid token: where a new token goes.
    pub end: u32,
}

/// One slot line (with the path commands under it).
#[derive(Clone, Debug, PartialEq)]
pub struct SlotDef {
    /// The slot the line writes.
    pub slot: SlotId,
    /// The attachment it defines or changes (`None`: none, e.g. `@[skeleton]`).
    pub attachment: Option<AttachmentId>,
    /// The line, without its indentation.
    pub line: Span,
    /// The line and its path commands.
    pub region: Span,
    /// Its attachment property tokens, in [`SourceMap::props`].
    pub props: Range<u32>,
    /// Just past the line's last valid token: where a new token goes.
    pub end: u32,
}

/// One item of a skin section.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinEntry {
    /// The skin of the section it is in.
    pub skin: SkinId,
    /// The line and its path commands.
    pub region: Span,
    /// The slot it names (`None`: unresolved).
    pub slot: Option<SlotId>,
    /// The attachment it replaces (`None`: not one the skeleton defines).
    pub attachment: Option<AttachmentId>,
}

/// One line of an order section.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderEntry {
    /// The slot reference.
    pub span: Span,
    /// The slot it names (`None`: unresolved).
    pub slot: Option<SlotId>,
}

/// One line of an `ik` section.
#[derive(Clone, Debug, PartialEq)]
pub struct IkSource {
    /// The whole line.
    pub span: Span,
    /// The family it made (an index into `Skeleton::ik`); `None` when an
    /// error dropped it.
    pub family: Option<usize>,
    /// The tip bone, when it resolved.
    pub tip: Option<BoneId>,
    /// The target bone, when it resolved.
    pub target: Option<BoneId>,
}

/// Where a key's value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOrigin {
    /// A plain value token (`10`, `#F00`, `true`, `hand`).
    Plain,
    /// `+N` or `*N`: relative to the key before.
    Relative,
    /// Pushed inside a loop `{ … }`: one token makes several keys.
    Loop,
}

/// A key a timeline made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeySource {
    /// Its frame.
    pub frame: f64,
    /// Its time (frame / fps).
    pub time_secs: f64,
    /// Its value when it is a number (degrees for rotations, as written).
    pub value: Option<f64>,
    /// The value token that made it.
    pub span: Span,
    /// How its value was written.
    pub origin: KeyOrigin,
    /// The absolute frame option (`F:>`) that moved the timeline to this
    /// key's frame, with the frame before it, when that is how it got there.
    pub placed_by: Option<(Span, f64)>,
}

/// One timeline line of an animation.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineSource {
    /// The animation it belongs to.
    pub anim: AnimId,
    /// The item's bone or slot (`None`: the item did not resolve).
    pub target: Option<Target>,
    /// The property it animates.
    pub prop: TimelineProp,
    /// The line, without its indentation.
    pub line: Span,
    /// This line makes the animation's channel (a later line for the same
    /// target and property replaces it).
    pub effective: bool,
    /// Its keys, in its animation's list in [`SourceMap::keys`], in time
    /// order (read them with [`SourceMap::keys_of`]).
    pub keys: Range<u32>,
    /// The document offset its keys' spans are relative to (the start of
    /// its section), which [`SourceMap::keys_of`] adds.
    pub key_base: u32,
    /// Just past its last token.
    pub end: u32,
    /// The frame the timeline ends on, and whether a loop is still open there.
    pub end_frame: f64,
    /// A loop `{` is still open at its end.
    pub open_loop: bool,
}

/// One bone or `@slot` item of an animation, with its timelines.
#[derive(Clone, Debug, PartialEq)]
pub struct ItemSource {
    /// The animation it belongs to.
    pub anim: AnimId,
    /// The item line and its timelines.
    pub region: Span,
    /// Its bone or slot (`None`: unresolved).
    pub target: Option<Target>,
}

/// Where model items were written, in document offsets.
///
/// The rig's parts (`bones` to `props` but `animations`) are shared
/// (`Arc`) with the compiler's cache: an update whose rig and rig section
/// starts did not change (an edit in an animation after them) reuses them
/// instead of copying them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceMap {
    /// Per bone (by `BoneId`): the path of its first line; `None` for
    /// parents that were never written.
    pub bones: Arc<[Option<Span>]>,
    /// Per slot (by `SlotId`): its first slot line.
    pub slots: Arc<[Span]>,
    /// Per animation (by `AnimId`): the header of its first section.
    pub animations: Vec<Span>,
    /// Every bone line, in document order.
    pub bone_defs: Arc<[BoneDef]>,
    /// Every slot line, in document order.
    pub slot_defs: Arc<[SlotDef]>,
    /// Every skin item.
    pub skin_entries: Arc<[SkinEntry]>,
    /// Every order entry.
    pub order_entries: Arc<[OrderEntry]>,
    /// Every animation item.
    pub items: Vec<ItemSource>,
    /// Every timeline line.
    pub timelines: Vec<TimelineSource>,
    /// Property tokens of bone and slot lines (ranges in `BoneDef`, `SlotDef`).
    pub props: Arc<[PropSource]>,
    /// Keys of the timelines, per animation (by `AnimId`; ranges in
    /// `TimelineSource`), with spans relative to their timeline's section:
    /// shared with the compiler's cache, so an update does not copy the keys
    /// of animations that did not change. Read them with [`SourceMap::keys_of`].
    pub keys: Vec<Arc<super::KeyList>>,
    /// Every name written, sorted by position.
    pub references: Vec<Reference>,
    /// Every line of the `ik` sections, in document order.
    pub ik: Vec<IkSource>,
}

/// Whether `span` touches the line `[line_start, line_end]`.
fn on_line(span: Span, line_start: u32, line_end: u32) -> bool {
    span.start <= line_end && span.end >= line_start
}

impl SourceMap {
    /// The bone the line holding byte `offset` of `text` is about: a bone
    /// line, a slot line or its path commands (the slot's bone), an
    /// animation item or its timelines, a skin item, an order entry, an IK
    /// line (its tip).
    pub fn bone_at(
        &self,
        text: &str,
        offset: usize,
        bone_of_slot: impl Fn(SlotId) -> Option<BoneId>,
    ) -> Option<BoneId> {
        let offset = offset.min(text.len());
        let ls = text[..offset].rfind('\n').map_or(0, |i| i + 1) as u32;
        let le = text[offset..].find('\n').map_or(text.len(), |i| offset + i) as u32;
        let target_bone = |t: Option<Target>| match t? {
            Target::Bone(b) => Some(b),
            Target::Slot(s) => bone_of_slot(s),
            _ => None,
        };
        if let Some(d) = self.bone_defs.iter().find(|d| on_line(d.line, ls, le)) {
            return Some(d.bone);
        }
        if let Some(d) = self.slot_defs.iter().find(|d| on_line(d.region, ls, le)) {
            return bone_of_slot(d.slot);
        }
        if let Some(i) = self.items.iter().find(|i| on_line(i.region, ls, le)) {
            return target_bone(i.target);
        }
        if let Some(e) = self.skin_entries.iter().find(|e| on_line(e.region, ls, le)) {
            return e.slot.and_then(&bone_of_slot);
        }
        if let Some(l) = self.ik.iter().find(|l| on_line(l.span, ls, le)) {
            return l.tip;
        }
        self.order_entries
            .iter()
            .find(|e| on_line(e.span, ls, le))
            .and_then(|e| e.slot.and_then(&bone_of_slot))
    }

    /// The name written at byte `offset` and what it resolved to.
    pub fn reference_at(&self, offset: u32) -> Option<&Reference> {
        let i = self.references.partition_point(|r| r.span.end < offset);
        self.references[i..]
            .iter()
            .take_while(|r| r.span.start <= offset)
            .find(|r| r.span.contains(offset))
    }

    /// Where an item is defined: its first definition in the text.
    pub fn definition(&self, target: Target) -> Option<Span> {
        match target {
            Target::Bone(b) => self.bones.get(b.index()).copied().flatten(),
            Target::Slot(s) => self.slots.get(s.index()).copied(),
            Target::Animation(a) => self.animations.get(a.index()).copied(),
            _ => self
                .references
                .iter()
                .find(|r| r.definition && r.target == Some(target))
                .map(|r| r.span),
        }
    }

    /// Every place a name refers to `target` (definitions included).
    pub fn references_to(&self, target: Target) -> impl Iterator<Item = &Reference> + '_ {
        self.references.iter().filter(move |r| r.target == Some(target))
    }

    /// The lines that write a bone, in document order.
    pub fn bone_lines(&self, bone: BoneId) -> impl Iterator<Item = &BoneDef> + '_ {
        self.bone_defs.iter().filter(move |d| d.bone == bone)
    }

    /// The property tokens of a bone or slot line.
    pub fn props_of(&self, r: &Range<u32>) -> &[PropSource] {
        &self.props[r.start as usize..r.end as usize]
    }

    /// The keys of a timeline, in document offsets.
    pub fn keys_of(&self, t: &TimelineSource) -> Vec<KeySource> {
        let Some(list) = self.keys.get(t.anim.index()) else { return Vec::new() };
        (t.keys.start as usize..t.keys.end as usize)
            .map_while(|i| {
                let mut k = list.get(i)?;
                k.shift(t.key_base);
                Some(k)
            })
            .collect()
    }

    /// The timeline line that makes a bone's or slot's channel of `prop` in
    /// an animation.
    pub fn timeline(
        &self,
        anim: AnimId,
        target: Target,
        prop: TimelineProp,
    ) -> Option<&TimelineSource> {
        self.timelines
            .iter()
            .find(|t| t.anim == anim && t.target == Some(target) && t.prop == prop && t.effective)
    }
}

/// Moves spans by a section's document offset.
/// Moves every document position of a source-map entry by `by` bytes
/// (wrapping, as [`Span::shifted`]: a move back is a wrapped `u32`).
pub(crate) trait Shift {
    fn shift(&mut self, by: u32);
}

impl Shift for Span {
    fn shift(&mut self, by: u32) {
        *self = self.shifted(by);
    }
}

impl Shift for Reference {
    fn shift(&mut self, by: u32) {
        self.span.shift(by);
    }
}

impl Shift for IkSource {
    fn shift(&mut self, by: u32) {
        self.span.shift(by);
    }
}

impl Shift for PropSource {
    fn shift(&mut self, by: u32) {
        self.span.shift(by);
    }
}

impl Shift for KeySource {
    fn shift(&mut self, by: u32) {
        self.span.shift(by);
        if let Some((s, _)) = &mut self.placed_by {
            s.shift(by);
        }
    }
}

impl Shift for BoneDef {
    fn shift(&mut self, by: u32) {
        self.line.shift(by);
        self.path.shift(by);
        self.end = self.end.wrapping_add(by);
    }
}

impl Shift for SlotDef {
    fn shift(&mut self, by: u32) {
        self.line.shift(by);
        self.region.shift(by);
        self.end = self.end.wrapping_add(by);
    }
}

impl Shift for SkinEntry {
    fn shift(&mut self, by: u32) {
        self.region.shift(by);
    }
}

impl Shift for OrderEntry {
    fn shift(&mut self, by: u32) {
        self.span.shift(by);
    }
}

impl Shift for ItemSource {
    fn shift(&mut self, by: u32) {
        self.region.shift(by);
    }
}

impl Shift for TimelineSource {
    fn shift(&mut self, by: u32) {
        self.line.shift(by);
        self.end = self.end.wrapping_add(by);
        self.key_base = self.key_base.wrapping_add(by);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::{Compiler, compile};

    const TEXT: &str = "skeleton\n\tarm l40 x5\n\t\t@hand[open] :path\n\t\t\tM 0,0\n\t\t\tL 10,0:leg\n\t\t@hand[shut] :circle d4\n\tleg\n\tarm r30\nskin \"red\"\n\t@hand[open] :rect w2 h2\norder\n\t@hand\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 90 -> +10 -> { 5 -> }[2] 30:> 45\n\t\tx 1 -> 2\n\t@hand\n\t\t@ shut -> open\n\tarm\n\t\tx 3\n";

    fn span_of(needle: &str) -> Span {
        let at = TEXT.find(needle).unwrap() as u32;
        Span::new(at, at + needle.len() as u32)
    }

    #[test]
    fn every_definition_and_reference_records_what_it_resolved_to() {
        let comp = compile(TEXT);
        let sk = &comp.armature.skeleton;
        let (arm, leg) = (sk.bone_by_name("arm").unwrap(), sk.bone_by_name("leg").unwrap());
        let hand = sk.slot_by_name("arm.hand").unwrap();
        let src = &comp.sources;
        // The reopened bone has two lines; each keeps its property tokens.
        let lines: Vec<&BoneDef> = src.bone_lines(arm).collect();
        assert_eq!(lines.len(), 2);
        let props: Vec<&str> =
            src.props_of(&lines[0].props).iter().map(|p| &TEXT[p.span.range()]).collect();
        assert_eq!(props, ["l40", "x5"]);
        assert_eq!(src.props_of(&lines[1].props)[0].key, PropKey::Rotation);
        assert_eq!(lines[0].end, span_of("x5").end);
        // Names: the point's bone, the skin's and order's slot, the item.
        let at = |needle: &str, skip: usize| {
            src.reference_at(span_of(needle).start + skip as u32).map(|r| (r.target, r.definition))
        };
        assert_eq!(at(":leg", 1), Some((Some(Target::Bone(leg)), false)));
        assert_eq!(at("\tarm l40", 1), Some((Some(Target::Bone(arm)), true)));
        assert_eq!(at("@hand[open] :rect", 1), Some((Some(Target::Slot(hand)), false)));
        assert_eq!(at("\t@hand\nanim", 2), Some((Some(Target::Slot(hand)), false)));
        assert_eq!(at("\"wave\"", 0), Some((Some(Target::Animation(AnimId(0))), true)));
        assert_eq!(at("\"red\"", 0), Some((Some(Target::Skin(SkinId(1))), true)));
        let open =
            sk.attachments.iter().position(|a| a.name == "open").map(AttachmentId::from_index);
        assert_eq!(at("open\n", 0), Some((open.map(Target::Attachment), false)));
        assert_eq!(src.references_to(Target::Bone(arm)).count(), 4);
        assert_eq!(src.definition(Target::Bone(arm)), Some(span_of("arm")));
        // The skin entry and the order entry.
        assert_eq!(src.skin_entries.len(), 1);
        assert_eq!(src.skin_entries[0].attachment, open);
        assert_eq!(src.order_entries[0].slot, Some(hand));
        assert_eq!(src.slot_defs.len(), 2);
        assert_eq!(
            src.slot_defs[0].region,
            span_of("@hand[open] :path\n\t\t\tM 0,0\n\t\t\tL 10,0:leg")
        );
    }

    #[test]
    fn timelines_record_their_keys_and_where_each_came_from() {
        let comp = compile(TEXT);
        let sk = &comp.armature.skeleton;
        let arm = Target::Bone(sk.bone_by_name("arm").unwrap());
        let src = &comp.sources;
        let r = src.timeline(AnimId(0), arm, TimelineProp::Rotation).unwrap();
        let keys = src.keys_of(r);
        let frames: Vec<f64> = keys.iter().map(|k| k.frame).collect();
        assert_eq!(frames, [0.0, 5.0, 10.0, 15.0, 20.0, 30.0]);
        let origins: Vec<KeyOrigin> = keys.iter().map(|k| k.origin).collect();
        use KeyOrigin::*;
        assert_eq!(origins, [Plain, Plain, Relative, Loop, Loop, Plain]);
        assert_eq!(&TEXT[keys[1].span.range()], "90");
        assert_eq!(keys[2].value, Some(100.0));
        // Both loop keys come from the one token.
        assert_eq!(keys[3].span, keys[4].span);
        let last = keys.last().unwrap();
        assert_eq!(last.value, Some(45.0));
        assert_eq!(
            last.placed_by.map(|(s, before)| (&TEXT[s.range()], before)),
            Some(("30:>", 25.0))
        );
        assert!((last.time_secs - 3.0).abs() < 1e-12);
        assert_eq!((r.end_frame, r.open_loop, r.end), (30.0, false, span_of("45\n").start + 2));
        // The second `x` timeline of `arm` replaces the first.
        let xs: Vec<&TimelineSource> = src
            .timelines
            .iter()
            .filter(|t| t.target == Some(arm) && t.prop == TimelineProp::X)
            .collect();
        assert_eq!(xs.len(), 2);
        assert!(!xs[0].effective && xs[1].effective);
        assert_eq!(
            src.timeline(AnimId(0), arm, TimelineProp::X).map(|t| t.line),
            Some(span_of("x 3"))
        );
    }

    #[test]
    fn the_incremental_compiler_gives_the_same_map() {
        let mut c = Compiler::new();
        c.update(TEXT);
        let edited = format!("# a comment\n{}", TEXT.replace("x 1 -> 2", "x 1 -> 20"));
        assert_eq!(c.update(&edited).sources, compile(&edited).sources);
    }
}
