//! An animation's keys as its timelines make them ([`RawKey`], 40 bytes,
//! no allocation; the few keys' colours, payloads and placing options in
//! a [`Side`] list) and the list the source map hands out ([`KeyList`]).

use crate::compile::source::{KeyOrigin, KeySource};
use crate::model::{AttachmentId, Color, Easing};
use crate::syntax::Span;

/// Every key an animation's timelines made (those of timelines a later
/// line replaced too), in the order they were made: what the source map
/// hands out as [`KeySource`]s and what a later compile takes over for the
/// items an edit did not touch. Kept as the timeline runs make them (40
/// bytes a key) rather than as [`KeySource`]s (72): a key's source is made
/// from its run key when it is asked for.
#[derive(Clone, Default)]
pub struct KeyList {
    pub(super) keys: Vec<RawKey>,
    /// What the keys' indices point to.
    pub(super) side: Side,
    /// The animation's frame rate, which makes a key's time.
    pub(super) fps: f64,
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
    pub(in crate::compile) fn take_buffer(&mut self) -> Vec<RawKey> {
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
pub(in crate::compile) struct RawKey {
    pub(super) frame: f64,
    pub(super) value: RawValue,
    /// The value token.
    pub(super) span: Span,
    /// The absolute frame option that placed the key, with the frame before
    /// it: an index in [`Side::placed`], or [`NONE`]. Only read to make the
    /// key's [`KeySource`].
    pub(super) placed_by: u32,
    pub(super) easing: Easing,
    /// How the value was written.
    pub(super) origin: KeyOrigin,
}

/// No entry of a [`Side`] list.
pub(super) const NONE: u32 = u32::MAX;

/// A key's value, as the animation uses it.
#[derive(Clone, Copy, Debug)]
pub(super) enum RawValue {
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
    pub(super) fn number(self) -> Option<f64> {
        if let RawValue::Number(v) = self { Some(v) } else { None }
    }
}

/// What the few keys that have it have, out of [`RawKey`].
#[derive(Clone, Debug, Default)]
pub(super) struct Side {
    pub(super) placed: Vec<(Span, f64)>,
    pub(super) colors: Vec<Color>,
    /// String payloads of event keys (only while events are compiled).
    pub(super) texts: Vec<String>,
}

impl Side {
    pub(super) fn placed(&self, i: u32) -> Option<(Span, f64)> {
        self.placed.get(i as usize).copied()
    }
}
