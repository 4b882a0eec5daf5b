//! The rig and IK units of an update: the sections left to parse parsed
//! (the rig's first, beside the others), the rig merged (its names, all
//! the animations need) and then finished beside the animations' compile,
//! the IK families built on it; each cached on its sections' ids.

use std::sync::Arc;

use super::anims::{Anims, RigNamesAt};
use super::sections::{ItemEditAt, SectionPlan};
use super::{CachedSection, Compiler, IkCache, RigCache, same};
use crate::compile::{Ordinal, Threads, ik, rig};
use crate::syntax::tree::{Section, SectionKind};
use crate::syntax::{SectionSlice, parse_section};

/// Parses each text as a section, on several threads when `threads` says so.
pub(super) fn parse_all(srcs: &[&str], threads: Threads) -> Vec<Section> {
    let bytes = srcs.iter().map(|s| s.len()).sum();
    if threads.share(srcs.len(), bytes) {
        use rayon::prelude::*;
        srcs.par_iter().map(|s| parse_section(s)).collect()
    } else {
        srcs.iter().map(|s| parse_section(s)).collect()
    }
}

impl Compiler {
    /// Parses the sections `plan` left to parse and merges the rig (its
    /// names; [`Compiler::finish_rig_and_anims`] does the rest). When
    /// `share` (enough text to share out), the rig's sections are parsed and the rig
    /// merged on one thread while the other sections (the animations, most
    /// of the text) are parsed on the rest of the pool: the rig is the one
    /// piece of a compile from scratch that cannot be split, so it starts
    /// first. A `skeleton` section longer than half of all the other
    /// sections to parse (`SPLIT_SKELETON_BYTES` at least) is instead parsed
    /// in two halves side by side first (`syntax::skeleton_cut`), then the
    /// rig is merged beside the others' parse. Which sections are the rig's is
    /// foreseen from their header line ([`crate::syntax::opens_rig_section`]);
    /// the rig is merged again from the parsed trees should that have been
    /// wrong, so the result does not depend on it.
    pub(super) fn parse_and_merge_rig(
        &mut self,
        plan: SectionPlan<'_>,
        share: bool,
        slices: &[SectionSlice],
    ) -> (Vec<CachedSection>, RigAt) {
        let SectionPlan { mut sections, to_parse, .. } = plan;
        let (rig_first, rest): (Vec<_>, Vec<_>) =
            to_parse.into_iter().partition(|&(_, _, src)| crate::syntax::opens_rig_section(src));
        let rest_bytes: usize = rest.iter().map(|&(_, _, src)| src.len()).sum();
        let threads = self.threads;
        let halves = skeleton_halves(&rig_first, rest_bytes, threads, share);
        let parse_rig = || parse_rig_sections(&rig_first, halves);
        // The rig's sections in document order, those reused and those just
        // parsed, and the rig merged from them.
        let merge_rig = |this: &mut Self, parsed: &[Arc<Section>]| {
            let key = foreseen_rig_key(&sections, &rig_first, parsed);
            let ids = key.ids.clone();
            (ids, this.rig_for(key))
        };
        let parse_rest = || {
            let srcs: Vec<&str> = rest.iter().map(|&(_, _, src)| src).collect();
            parse_all(&srcs, if share { threads } else { Threads::One })
        };
        let rig_side = |this: &mut Self| {
            let parsed = parse_rig();
            let merged = merge_rig(this, &parsed);
            (parsed, merged)
        };
        let ((rig_trees, (used_key, rig)), rest_trees) = if halves.is_some() {
            let parsed = parse_rig();
            let (merged, rest_trees) = rayon::join(|| merge_rig(self, &parsed), parse_rest);
            ((parsed, merged), rest_trees)
        } else if share {
            rayon::join(|| rig_side(self), parse_rest)
        } else {
            (rig_side(self), parse_rest())
        };
        let parsed = rig_first.into_iter().zip(rig_trees);
        let rest = rest.into_iter().zip(rest_trees.into_iter().map(Arc::new));
        for ((i, id, src), tree) in parsed.chain(rest) {
            let start = slices[i].start;
            let (text, len) = (self.kept_text(src), src.len() as u32);
            sections[i] = Some(CachedSection { start, id, text, len, tree });
        }
        let sections: Vec<CachedSection> = sections.into_iter().flatten().collect();
        let rig = self.rig_of_parsed(&sections, &used_key, rig);
        (sections, rig)
    }

    /// The rig of the parsed `sections`: `rig`, merged from the sections
    /// `used_key` foresaw, when they are the rig's; else merged again.
    fn rig_of_parsed(
        &mut self,
        sections: &[CachedSection],
        used_key: &[u64],
        rig: RigState,
    ) -> RigAt {
        let idx: Vec<usize> =
            (0..sections.len()).filter(|&i| is_rig_section(&sections[i].tree)).collect();
        let ids: Vec<u64> = idx.iter().map(|&i| sections[i].id).collect();
        let state = if ids == used_key {
            rig
        } else {
            let trees = idx.iter().map(|&i| sections[i].tree.clone()).collect();
            self.rig_for(RigKey { ids, trees })
        };
        RigAt { idx, state }
    }

    /// The rig of the sections `rig_key`: the one built before when they
    /// did not change, else merged (its names known, the rest to finish in
    /// [`Compiler::finish_rig_and_anims`]).
    fn rig_for(&mut self, rig_key: RigKey) -> RigState {
        if let Some(r) = self.rig.as_ref().filter(|r| r.key == rig_key.ids) {
            return RigState::Built(r.output.clone(), r.generation);
        }
        self.last_compiled_units += 1;
        self.generation += 1;
        let input = rig_input(&rig_key.trees);
        let merged = rig::merge_rig(&input, self.rig.as_ref().map(|r| &*r.output));
        // Animations only read the rig's names: when those did not
        // change (an edited length, position or shape), they stay valid.
        let generation = match &self.rig {
            Some(old) if old.output.names.same(&merged.names) => old.generation,
            _ => self.generation,
        };
        RigState::Merged(Box::new(PendingRig { key: rig_key, merged, generation }))
    }

    /// Finishes a merged rig (skins, draw order, the model) and compiles
    /// the animations, which need only its names: side by side when the
    /// update shares its work out.
    pub(super) fn finish_rig_and_anims(
        &mut self,
        sections: &[CachedSection],
        item_edit: Option<ItemEditAt>,
        rig: RigState,
        share: bool,
    ) -> (Arc<rig::RigOutput>, Anims) {
        let pending = match rig {
            RigState::Built(output, generation) => {
                let at = RigNamesAt { names: &output.names, generation };
                let anims = self.update_anims(sections, item_edit, at);
                return (output, anims);
            }
            RigState::Merged(p) => *p,
        };
        let PendingRig { key, merged, generation } = pending;
        let names = merged.names.clone();
        let at = RigNamesAt { names: &names, generation };
        let finish = || Arc::new(rig::finish_rig(&rig_input(&key.trees), merged));
        let (output, anims) = if share {
            rayon::join(finish, || self.update_anims(sections, item_edit, at))
        } else {
            let output = finish();
            (output, self.update_anims(sections, item_edit, at))
        };
        self.rig = Some(RigCache { key: key.ids, output: output.clone(), generation });
        (output, anims)
    }

    /// IK families: built on the rig, cached on it and the `ik` sections.
    pub(super) fn update_ik(
        &mut self,
        sections: &[CachedSection],
        rig_out: &Arc<rig::RigOutput>,
    ) -> (Vec<usize>, Option<IkUnit>) {
        let ik_idx: Vec<usize> = sections
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.tree.kind, SectionKind::Ik(_)))
            .map(|(i, _)| i)
            .collect();
        let ik_key: Vec<Arc<Section>> = ik_idx.iter().map(|&i| sections[i].tree.clone()).collect();
        if !ik_key.is_empty()
            && !self
                .ik
                .as_ref()
                .is_some_and(|c| Arc::ptr_eq(&c.rig, rig_out) && same(&c.key, &ik_key))
        {
            self.last_compiled_units += 1;
            let input: Vec<(Ordinal, &crate::syntax::tree::IkSection)> = ik_key
                .iter()
                .enumerate()
                .filter_map(
                    |(o, s)| if let SectionKind::Ik(x) = &s.kind { Some((o, x)) } else { None },
                )
                .collect();
            let output = ik::compile_ik(rig_out, &input);
            let mut sk = (*rig_out.skeleton).clone();
            sk.ik = output.families.clone();
            self.ik = Some(IkCache {
                rig: rig_out.clone(),
                key: ik_key.clone(),
                output: Arc::new(output),
                skeleton: Arc::new(sk),
            });
        }
        if ik_key.is_empty() {
            self.ik = None;
        }
        let unit = self
            .ik
            .as_ref()
            .map(|c| IkUnit { output: c.output.clone(), skeleton: c.skeleton.clone() });
        (ik_idx, unit)
    }
}

/// The rig of an update: the indices of its sections and the rig.
pub(super) struct RigAt {
    pub(super) idx: Vec<usize>,
    pub(super) state: RigState,
}

/// A rig as [`Compiler::rig_for`] leaves it.
pub(super) enum RigState {
    /// Built before (its sections did not change), with the generation
    /// of its names.
    Built(Arc<rig::RigOutput>, u64),
    /// Merged, to be finished.
    Merged(Box<PendingRig>),
}

/// A rig merged from the sections `key`, whose names have `generation`.
pub(super) struct PendingRig {
    key: RigKey,
    merged: rig::MergedRig,
    generation: u64,
}

/// The rig's sections of an update, in document order: their ids and
/// trees.
#[derive(Default)]
struct RigKey {
    ids: Vec<u64>,
    trees: Vec<Arc<Section>>,
}

/// The rig's sections among `key` (the trees the rig is built from), each
/// with its ordinal.
fn rig_input(key: &[Arc<Section>]) -> Vec<(Ordinal, rig::RigSection<'_>)> {
    key.iter()
        .enumerate()
        .filter_map(|(o, s)| {
            let r = match &s.kind {
                SectionKind::Skeleton(x) => rig::RigSection::Skeleton(x),
                SectionKind::Skin(x) => rig::RigSection::Skin(x),
                SectionKind::Order(x) => rig::RigSection::Order(x),
                _ => return None,
            };
            Some((o, r))
        })
        .collect()
}

/// The least text of a `skeleton` section that a compile sharing its work
/// parses in two halves side by side (when it is also longer than half of
/// the other sections left to parse).
const SPLIT_SKELETON_BYTES: usize = 128 * 1024;

/// Whether a section is one the rig is built from.
fn is_rig_section(tree: &Section) -> bool {
    matches!(tree.kind, SectionKind::Skeleton(_) | SectionKind::Skin(_) | SectionKind::Order(_))
}

/// An IK output and the rig's skeleton with its families.
pub(super) struct IkUnit {
    pub(super) output: Arc<ik::IkOutput>,
    pub(super) skeleton: Arc<crate::model::Skeleton>,
}

/// Which of the rig's sections to parse (`rig_first`: index, id, text) is
/// a `skeleton` section to parse in two halves side by side, and where it
/// is cut: only when the update shares its work (`share`).
///
/// The rig's side costs about twice its skeleton's parse (merging the rig
/// costs about as much again), so a skeleton longer than half of
/// everything else left to parse (`rest_bytes`) makes it the longer side:
/// its two halves are parsed side by side first, then the rig is merged
/// beside the other sections' parse, whose work the rig's thread takes a
/// share of once the rig is merged. (Measured on `slots-skins`, a 167 KB
/// skeleton beside 244 KB of animations: 4.27–4.33 → 3.79–3.84 ms.)
fn skeleton_halves(
    rig_first: &[(usize, u64, &str)],
    rest_bytes: usize,
    threads: Threads,
    share: bool,
) -> Option<(usize, usize)> {
    let wanted = |src: &str| {
        threads == Threads::Always
            || (src.len() >= SPLIT_SKELETON_BYTES && 2 * src.len() > rest_bytes)
    };
    rig_first.iter().enumerate().filter(|_| share).find_map(|(k, &(_, _, src))| {
        let at = wanted(src).then(|| crate::syntax::skeleton_cut(src, src.len() / 2))??;
        Some((k, at))
    })
}

/// Parses the rig's sections left to parse, the one `halves` names in two
/// halves side by side.
fn parse_rig_sections(
    rig_first: &[(usize, u64, &str)],
    halves: Option<(usize, usize)>,
) -> Vec<Arc<Section>> {
    let parse = |k: usize, src: &str| match halves {
        Some((h, at)) if h == k => {
            let (head, tail) = rayon::join(
                || parse_section(&src[..at]),
                || crate::syntax::parse_skeleton_from(src, at),
            );
            crate::syntax::join_skeleton(head, tail).unwrap_or_else(|| parse_section(src))
        }
        _ => parse_section(src),
    };
    rig_first.iter().enumerate().map(|(k, &(_, _, src))| Arc::new(parse(k, src))).collect()
}

/// The rig's sections in document order: those `sections` reused and
/// those of `rig_first` just parsed (`parsed`), as foreseen.
fn foreseen_rig_key(
    sections: &[Option<CachedSection>],
    rig_first: &[(usize, u64, &str)],
    parsed: &[Arc<Section>],
) -> RigKey {
    let mut fresh = rig_first.iter().map(|&(i, id, _)| (i, id)).zip(parsed).peekable();
    let mut key = RigKey::default();
    for (i, cached) in sections.iter().enumerate() {
        let (id, tree) = match cached {
            Some(c) => (c.id, &c.tree),
            None => match fresh.next_if(|&((j, _), _)| j == i) {
                Some(((_, id), t)) => (id, t),
                None => continue,
            },
        };
        if is_rig_section(tree) {
            key.ids.push(id);
            key.trees.push(tree.clone());
        }
    }
    key
}
