//! Placement: a compile unit's part of the source map is section-relative;
//! here it is moved into document offsets, and kept placed for the next
//! update, which copies (or moves) it while its unit and sections stay.

use std::sync::Arc;

use super::units::Units;
use super::{CachedSection, Compiler};
use crate::compile::source::Shift;
use crate::compile::{ItemSource, Ordinal, Reference, SourceMap, Target, TimelineSource};
use crate::compile::{anim, rig};
use crate::model::AnimId;

/// Section-relative source entries in document offsets.
fn placed<T: Clone + Shift>(items: &[(Ordinal, T)], start: impl Fn(Ordinal) -> u32) -> Vec<T> {
    placed_iter(items, start).collect()
}

/// [`placed`] without collecting.
fn placed_iter<'a, T: Clone + Shift, F: Fn(Ordinal) -> u32 + 'a>(
    items: &'a [(Ordinal, T)],
    start: F,
) -> impl Iterator<Item = T> + 'a {
    items.iter().map(move |(o, t)| {
        let mut t = t.clone();
        t.shift(start(*o));
        t
    })
}

/// The rig's part of a source map in document offsets, for the rig output
/// and section starts it was placed with (its references sorted by position).
pub(super) struct PlacedRig {
    rig: Arc<rig::RigOutput>,
    starts: Vec<u32>,
    /// Without references (they are in `references`).
    sources: SourceMap,
    references: Arc<Vec<Reference>>,
}

impl Compiler {
    /// The rig's part of the source map in document offsets: kept while
    /// the rig and where its sections start do not change (an edit in an
    /// animation after them), then copied rather than shifted again.
    pub(super) fn placed_rig_sources(&mut self, units: &Units) -> (SourceMap, Arc<Vec<Reference>>) {
        let rig_out = &units.rig_out;
        let rig_starts: Vec<u32> = units.rig_idx.iter().map(|&i| units.starts[i]).collect();
        match &self.placed_rig {
            Some(p) if Arc::ptr_eq(&p.rig, rig_out) && p.starts == rig_starts => {
                (p.sources.clone(), p.references.clone())
            }
            _ => {
                let rig_start = |o: Ordinal| rig_starts[o];
                let rs = &rig_out.sources;
                let sources = SourceMap {
                    bones: rig_out
                        .bone_sources
                        .iter()
                        .map(|s| s.map(|(o, sp)| sp.shifted(rig_start(o))))
                        .collect(),
                    slots: rig_out
                        .slot_sources
                        .iter()
                        .map(|(o, sp)| sp.shifted(rig_start(*o)))
                        .collect(),
                    bone_defs: placed_iter(&rs.bone_defs, rig_start).collect(),
                    slot_defs: placed_iter(&rs.slot_defs, rig_start).collect(),
                    skin_entries: placed_iter(&rs.skin_entries, rig_start).collect(),
                    order_entries: placed_iter(&rs.order_entries, rig_start).collect(),
                    props: placed_iter(&rs.props, rig_start).collect(),
                    ..SourceMap::default()
                };
                // Sorted once here (stably, as the whole list is later):
                // the final sort then merges long runs.
                let mut references = placed(&rs.references, rig_start);
                references.sort_by_key(|r| r.span.start);
                let references = Arc::new(references);
                // (A one-shot compiler has no next update to keep it for.)
                if !self.one_shot {
                    self.placed_rig = Some(PlacedRig {
                        rig: rig_out.clone(),
                        starts: rig_starts,
                        sources: sources.clone(),
                        references: references.clone(),
                    });
                }
                (sources, references)
            }
        }
    }
}

/// An animation's part of a source map in document offsets, for the
/// output, number and section starts it was placed with.
pub(super) struct PlacedAnim {
    output: Arc<anim::AnimOutput>,
    anim: AnimId,
    starts: Vec<u32>,
    items: Vec<ItemSource>,
    timelines: Vec<TimelineSource>,
    references: Vec<Reference>,
}

impl PlacedAnim {
    /// `out`, numbered `anim`, with its sections at `starts`.
    fn new(out: &Arc<anim::AnimOutput>, anim: AnimId, starts: Vec<u32>) -> PlacedAnim {
        let mut map = SourceMap::default();
        PlacedAnim::place(out, anim, &starts, &mut map);
        let SourceMap { items, timelines, references, .. } = map;
        PlacedAnim { output: out.clone(), anim, starts, items, timelines, references }
    }

    /// Appends the entries of `out`, numbered `anim`, with its sections at
    /// `starts`, to `map`'s items, timelines and references.
    fn place(out: &anim::AnimOutput, anim: AnimId, starts: &[u32], map: &mut SourceMap) {
        let start = |o: Ordinal| starts[o];
        let src = &out.sources;
        map.items.extend(placed_iter(&src.items, start).map(|i| ItemSource { anim, ..i }));
        map.timelines
            .extend(placed_iter(&src.timelines, start).map(|t| TimelineSource { anim, ..t }));
        map.references.extend(placed_iter(&src.references, start).map(|r| match r.target {
            Some(Target::Animation(_)) => Reference { target: Some(Target::Animation(anim)), ..r },
            _ => r,
        }));
    }

    /// This placement moved to `starts` when every section of it moved by
    /// the same length (an edit before them), else `None`.
    fn moved_to(mut self, starts: &[u32]) -> Option<PlacedAnim> {
        let by = starts.first()?.wrapping_sub(*self.starts.first()?);
        if self.starts.len() != starts.len()
            || !self.starts.iter().zip(starts).all(|(a, b)| a.wrapping_add(by) == *b)
        {
            return None;
        }
        if by != 0 {
            self.items.iter_mut().for_each(|i| i.shift(by));
            self.timelines.iter_mut().for_each(|t| t.shift(by));
            self.references.iter_mut().for_each(|r| r.shift(by));
            self.starts.copy_from_slice(starts);
        }
        Some(self)
    }
}

impl Units {
    /// The source map: the placed rig's part, then the animations' and IK's in document offsets.
    ///
    /// Each animation's part is kept in `placed_anims` for the next update, which
    /// copies it when the animation did not change (moved when text before
    /// it changed length) instead of placing it again.
    pub(super) fn sources(
        &self,
        sections: &[CachedSection],
        (placed_rig, rig_references): (SourceMap, Arc<Vec<Reference>>),
        mut placed_anims: Option<&mut Vec<PlacedAnim>>,
    ) -> SourceMap {
        let start_of = |i: usize| self.starts[i];
        let mut sources = SourceMap {
            animations: self
                .groups
                .iter()
                .map(|g| sections[g.sections[0]].tree.header.shifted(start_of(g.sections[0])))
                .collect(),
            ..placed_rig
        };
        // Room for every animation's entries up front: growing these long
        // vectors one animation at a time copies them again and again.
        sources.items.reserve(self.anim_outputs.iter().map(|o| o.sources.items.len()).sum());
        sources
            .timelines
            .reserve(self.anim_outputs.iter().map(|o| o.sources.timelines.len()).sum());
        let anim_references: usize =
            self.anim_outputs.iter().map(|o| o.sources.references.len()).sum();
        let ik_references = self.ik_out.as_ref().map_or(0, |ik| ik.output.references.len());
        sources.references =
            Vec::with_capacity(rig_references.len() + anim_references + ik_references);
        sources.references.extend_from_slice(&rig_references);
        let mut last: Vec<Option<PlacedAnim>> = match placed_anims.as_deref_mut() {
            Some(placed) => std::mem::take(placed).into_iter().map(Some).collect(),
            None => Vec::new(),
        };
        for (a, (group, out)) in self.groups.iter().zip(&self.anim_outputs).enumerate() {
            let anim = AnimId::from_index(a);
            let starts: Vec<u32> = group.sections.iter().map(|&i| start_of(i)).collect();
            sources.keys.push(out.sources.keys.clone());
            let Some(placed) = placed_anims.as_deref_mut() else {
                // Nothing kept for a next update: placed straight into the map.
                PlacedAnim::place(out, anim, &starts, &mut sources);
                continue;
            };
            let kept = last
                .get_mut(a)
                .and_then(Option::take)
                .filter(|p| p.anim == anim && Arc::ptr_eq(&p.output, out))
                .and_then(|p| p.moved_to(&starts));
            let p = kept.unwrap_or_else(|| PlacedAnim::new(out, anim, starts));
            sources.items.extend_from_slice(&p.items);
            sources.timelines.extend_from_slice(&p.timelines);
            sources.references.extend_from_slice(&p.references);
            placed.push(p);
        }
        if let Some(out) = self.ik_out.as_ref().map(|ik| &ik.output) {
            let start = |o: Ordinal| start_of(self.ik_idx[o]);
            sources.ik = placed(&out.lines, start);
            sources.references.extend(placed_iter(&out.references, start));
        }
        sources.references.sort_by_key(|r| r.span.start);
        sources
    }
}
