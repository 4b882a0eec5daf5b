//! The incremental [`Compiler`]: its caches and one update from start
//! to end.
//!
//! An update first decides, then acts: `sections` plans which section
//! trees are reused, spliced or parsed; `rig` parses what is left and
//! merges, finishes and caches the rig and the IK families; `anims` plans
//! each animation (reused, renumbered or compiled) and then compiles those
//! that need it; `units` gathers the diagnostics, timing modifiers and
//! pose assertions; `place` moves the source map into document offsets.
//!
//! Caching: each section's tree is kept on its text, the rig on the ids of its
//! section trees, and each animation on its sections and the rig's *names*
//! generation. An animation reads only the rig's bone, slot and attachment
//! names and ids (`rig::RigNames`; `RigNames::same`), so a rig edit that keeps
//! them (a length, a position, a shape) reuses every animation. When the names
//! change, an animation is still reused if each name it looks up finds one
//! item in both the new names and the old, distinct ones staying distinct
//! (`anim::lookup_map`; a name that found nothing or was ambiguous counts as
//! changed, since its message lists other names); when only their ids moved,
//! the kept output is renumbered (`AnimOutput::renumbered`) rather than
//! compiled again. Renaming a bone thus recompiles only the animations that
//! name it. Per update, the text is compared with the previous one once
//! (`compile::delta`), and sections wholly inside the kept ends are reused
//! without comparing their texts.
//!
//! Scheduling: `update` first sorts every section into reused, spliced or to
//! parse, then parses the latter on the pool; likewise it sorts animations
//! into cached or to compile. The rig's first part (skeleton parse, then
//! `merge_rig`) is the critical path of a compile from scratch, so it starts
//! first, on one side of a `rayon::join`, from the sections whose header
//! names `skeleton`, `skin` or `order` (`syntax::opens_rig_section`); after
//! the join the rig is merged again if those were not the rig's sections (a
//! header continued onto a second line), so the result never depends on the
//! guess. A `skeleton` section longer than half of the rest (128 KiB at
//! least) is parsed in two halves side by side (`syntax::skeleton_cut`,
//! `parse_skeleton_from`, `join_skeleton`). An update whose parse is shared
//! out runs everything after its plan inside one `rayon::scope`, so the joins
//! in it start their other side at once. `tests/suite/incremental.rs`
//! compares shared and one-thread compiles, a continued `skeleton\` header,
//! and the halves against the whole parse at every cut.

mod anims;
mod place;
mod rig;
mod sections;
mod units;

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use super::{Compilation, Threads, anim, delta, ik};
use crate::model::Armature;
use crate::syntax::tree::Section;
use crate::syntax::{LineIndex, comment_roles, split_sections_at};
use place::{PlacedAnim, PlacedRig};
use sections::SectionPlan;
use units::Units;

/// A section's tree as the compiler keeps it between updates.
struct CachedSection {
    /// Where it started in the text it was last seen in.
    start: u32,
    /// Names this tree: a new one for every parse (or splice), kept while
    /// the section is reused. Animations are cached on their sections' ids,
    /// so they hold no reference to the trees, which an edit can then
    /// splice in place.
    id: u64,
    /// Its text, to compare the next update's with (empty in a one-shot
    /// compiler, which sees no next update).
    text: Box<str>,
    /// The length of its text, in bytes (kept or not).
    len: u32,
    tree: Arc<Section>,
}

/// The rig of the last update, and the sections it was built from.
struct RigCache {
    /// The ids of its sections (see [`CachedSection::id`]): holding no
    /// tree, it lets an edit of the skeleton splice its tree in place.
    key: Vec<u64>,
    output: Arc<super::rig::RigOutput>,
    /// Changes when the rig's names change (what animations depend on).
    generation: u64,
}

/// The IK families of the last update, and what they were built from.
struct IkCache {
    rig: Arc<super::rig::RigOutput>,
    key: Vec<Arc<Section>>,
    output: Arc<ik::IkOutput>,
    skeleton: Arc<crate::model::Skeleton>,
}

/// An animation of the last update, and what it was compiled from.
struct AnimCache {
    rig_generation: u64,
    /// The rig names it was compiled against (when they change, it is
    /// still valid if every name it looks up names the same thing).
    names: super::rig::RigNames,
    /// The ids of its sections.
    key: Vec<u64>,
    output: Arc<anim::AnimOutput>,
}

/// An incremental compiler: call [`Compiler::update`] with each new version
/// of the text.
///
/// ```
/// let mut c = skelpad_lang::compile::Compiler::new();
/// c.update("skeleton\n\tb\nanim \"a\"\n\tb\n\t\tx 0 -> 10\n");
/// // An edit inside the animation re-parses only that section.
/// let comp = c.update("skeleton\n\tb\nanim \"a\"\n\tb\n\t\tx 0 -> 20\n");
/// assert_eq!(c.last_parsed_sections, 1);
/// assert_eq!(comp.armature.animations[0].bones[0].keys[1].value, 20.0);
/// ```
#[derive(Default)]
pub struct Compiler {
    sections: Vec<CachedSection>,
    rig: Option<RigCache>,
    ik: Option<IkCache>,
    anims: HashMap<String, AnimCache>,
    generation: u64,
    placed_rig: Option<PlacedRig>,
    /// Each animation's part of the last source map (by `AnimId`).
    placed_anims: Vec<PlacedAnim>,
    /// The text before the first section in the last update (the rest of
    /// that text is the cached sections' texts, in order).
    leading: String,
    /// The line starts of the last text (empty before the first update).
    line_starts: Vec<u32>,
    /// The id of the last section tree made.
    last_id: u64,
    /// The source-key list of an animation output no longer used, emptied
    /// and filled by the next animation compiled.
    spare_keys: Vec<anim::RawKey>,
    /// Whether sections are parsed and animations compiled on several threads.
    threads: Threads,
    /// Whether this compiler sees one text only ([`super::compile`]): it then keeps
    /// no copy of the sections' texts nor of the line starts, which only
    /// the next update would compare with (a 1.7 MB script's copy is
    /// about 1% of its compile).
    one_shot: bool,
    /// How many sections the last update parsed (the rest came from the cache).
    pub last_parsed_sections: usize,
    /// How many of those it parsed only in part: the edited items of an
    /// `anim` section, spliced into the section's last tree.
    pub last_spliced_sections: usize,
    /// How many compile units (rig, animations) the last update rebuilt.
    pub last_compiled_units: usize,
    /// How many of the animations it rebuilt took the items an edit did
    /// not touch over from their last output.
    pub last_replayed_anims: usize,
}

/// Whether two lists hold the same trees (not equal ones: the same).
fn same(a: &[Arc<Section>], b: &[Arc<Section>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| Arc::ptr_eq(x, y))
}

impl Compiler {
    /// A compiler that has seen no text yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// A compiler for one text only (see `one_shot`).
    pub(super) fn one_shot() -> Self {
        Compiler { one_shot: true, ..Self::default() }
    }

    /// A compiler that shares its work among threads as `threads` says
    /// (see [`Threads`]; [`Compiler::new`] uses [`Threads::Auto`]).
    pub fn with_threads(threads: Threads) -> Self {
        Compiler { threads, ..Self::default() }
    }

    /// Compiles `text`, reusing every section tree, rig and animation whose
    /// input did not change since the last call; the result equals `compile(text)`.
    pub fn update(&mut self, text: &str) -> Compilation {
        self.last_parsed_sections = 0;
        self.last_compiled_units = 0;
        self.last_replayed_anims = 0;
        self.last_spliced_sections = 0;
        // What changed since the last text: the line index is rebuilt
        // from the last one, scanning only the edited bytes, and sections
        // wholly in the unchanged ends are reused without comparing texts.
        let window = self.edit_window(text);
        let line_index = match window {
            Some(w) => {
                let (old_len, p, s) = (w.old_len, w.prefix, w.suffix);
                delta::update_line_starts(&mut self.line_starts, old_len, text.as_bytes(), p, s);
                LineIndex::from_line_starts(self.line_starts.clone())
            }
            None => {
                let index = LineIndex::new(text);
                self.line_starts.clear();
                if !self.one_shot {
                    self.line_starts.extend_from_slice(index.line_starts());
                }
                index
            }
        };
        let slices = split_sections_at(text, line_index.line_breaks());
        let plan = self.plan_sections(text, &slices, window);
        // A compile that shares its parse out runs on one of the pool's
        // threads from here on: its joins then start work beside it at once
        // instead of each waking the pool from outside and waiting for it,
        // and what it allocates stays with the threads that share the work.
        // (Measured: 200 compiles of the 740 KB `everything` script 1.32–1.39
        // → 1.08–1.17 s; BENCHMARKS.md, eighth pass.)
        let bytes = plan.to_parse.iter().map(|&(_, _, src)| src.len()).sum();
        let share = self.threads.share(plan.to_parse.len(), bytes);
        if share && rayon::current_thread_index().is_none() {
            rayon::scope(|_| self.finish_update(text, line_index, &slices, plan, share))
        } else {
            self.finish_update(text, line_index, &slices, plan, share)
        }
    }

    /// The rest of [`Compiler::update`] once the plan is made (with whether
    /// its parse is shared out): parses
    /// what it left to parse, builds the rig and the animations, and puts
    /// the compilation together.
    fn finish_update(
        &mut self,
        text: &str,
        line_index: LineIndex,
        slices: &[crate::syntax::SectionSlice],
        mut plan: SectionPlan<'_>,
        share: bool,
    ) -> Compilation {
        let starts: Vec<u32> = slices.iter().map(|s| s.start).collect();
        let item_edit = plan.item_edit.take();
        let (sections, rig) = self.parse_and_merge_rig(plan, share, slices);
        let (rig_out, anims) = self.finish_rig_and_anims(&sections, item_edit, rig.state, share);
        let (ik_idx, ik_out) = self.update_ik(&sections, &rig_out);
        let units = Units {
            starts,
            rig_idx: rig.idx,
            rig_out,
            ik_idx,
            ik_out,
            groups: anims.groups,
            anim_outputs: anims.outputs,
        };
        let mut diagnostics = units.diagnostics(&sections);
        let rig_sources = self.placed_rig_sources(&units);
        let keep = (!self.one_shot).then_some(&mut self.placed_anims);
        let mut sources = units.sources(&sections, rig_sources, keep);
        let skeleton = units
            .ik_out
            .as_ref()
            .map_or_else(|| units.rig_out.skeleton.clone(), |ik| ik.skeleton.clone());
        let mut animations: Vec<Arc<crate::model::Animation>> =
            units.anim_outputs.iter().map(|o| o.animation.clone()).collect();
        units.apply_modifiers(&sections, &skeleton, &mut animations, &mut diagnostics);
        let armature = Armature { skeleton, animations };
        debug_assert!(armature.parents_first(), "the compiler sorts bones parents first");
        let pose_checks = units.pose_checks(&sections, &armature, &mut diagnostics, &mut sources);
        let trees = sections.iter().zip(slices).map(|(s, sl)| (sl.start, s.tree.clone())).collect();
        self.sections = sections;
        let leading_end = slices.first().map_or(text.len(), |s| s.start as usize);
        let leading_roles = comment_roles(&text[..leading_end]);
        self.leading.clear();
        self.leading.push_str(&text[..leading_end]);
        Compilation {
            armature,
            diagnostics,
            sources,
            lines: line_index,
            sections: trees,
            leading_roles,
            pose_checks,
            expectations: Vec::new(),
        }
    }

    /// What a cached section keeps of its text `src` (see `one_shot`).
    fn kept_text(&self, src: &str) -> Box<str> {
        if self.one_shot { Box::default() } else { src.into() }
    }

    /// How `text` differs from the last one (`None` before the first update).
    fn edit_window(&self, text: &str) -> Option<EditWindow> {
        if self.line_starts.is_empty() {
            return None;
        }
        let pieces: Vec<&[u8]> = std::iter::once(self.leading.as_bytes())
            .chain(self.sections.iter().map(|s| s.text.as_bytes()))
            .collect();
        let old_len = pieces.iter().map(|p| p.len()).sum();
        let (prefix, suffix) = delta::edit_window(&pieces, text.as_bytes());
        Some(EditWindow { old_len, prefix, suffix })
    }
}

/// How a text differs from the one before: the length of that one and the
/// bytes they share at the start and at the end (not overlapping).
#[derive(Clone, Copy, Debug)]
struct EditWindow {
    old_len: usize,
    prefix: usize,
    suffix: usize,
}
