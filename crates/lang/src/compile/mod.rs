//! Syntax trees → [`Armature`], incrementally.
//!
//! The document is split into top-level sections. Each section's tree is
//! cached on its text; the rig (skeleton, skin and order sections) is rebuilt
//! only when one of those trees changes, and each animation only when its own
//! sections or the rig's names change (animations read nothing else of it). Editing inside one animation therefore
//! re-parses one section and recompiles one animation, and inside that
//! section's items only the edited items (`splice`): their lines are
//! parsed alone and spliced into the section's last tree, and the
//! animation is recompiled from its last output, the untouched items'
//! parts taken over. Editing inside the skeleton's bone lines likewise
//! re-parses only the edited bone lines, then rebuilds the rig.

mod anim;
mod delta;
pub mod expect;
pub mod ik;
pub mod modifiers;
pub mod names;
mod rig;
pub mod source;
mod splice;

pub use anim::KeyList;
use source::Shift;
pub use source::{
    BoneDef, IkSource, ItemSource, KeyOrigin, KeySource, OrderEntry, PropKey, PropSource,
    Reference, SkinEntry, SlotDef, SourceMap, Target, TimelineSource,
};

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use crate::model::{AnimId, Armature};
use crate::syntax::tree::{Section, SectionKind};
use crate::syntax::{
    Diagnostic, LineIndex, TokenRole, comment_roles, parse_section, split_sections_at,
};

/// Position of a section inside the list a compile unit was built from.
pub type Ordinal = usize;
/// A diagnostic whose span is relative to the start of section `Ordinal`.
pub type LocalDiag = (Ordinal, Diagnostic);

/// The result of compiling a document.
#[derive(Clone, Debug)]
pub struct Compilation {
    /// Everything valid in the document, compiled.
    pub armature: Armature,
    /// Every problem found, sorted by position; spans are document offsets.
    pub diagnostics: Vec<Diagnostic>,
    /// Where each bone, slot and attachment is defined in the document.
    pub sources: SourceMap,
    /// Line starts of the document, to turn offsets into lines and columns.
    pub lines: LineIndex,
    /// Each section's tree with the document offset it starts at (its
    /// spans, token roles included, are relative to that offset).
    pub sections: Vec<(u32, Arc<Section>)>,
    /// Roles of the comments before the first section (which belong to no
    /// section), in document offsets.
    pub leading_roles: Vec<TokenRole>,
    /// The pose assertions (`expect` sections), resolved, in document order
    /// and offsets; [`crate::check::expect::check`] evaluates them.
    pub pose_checks: Vec<expect::PoseCheck>,
    /// Every pose assertion (`expect` line) and whether it held, in
    /// document order, once [`crate::check::expect::check`] has run (empty
    /// before); its failures are then also errors in `diagnostics`.
    pub expectations: Vec<expect::ExpectResult>,
}

impl Compilation {
    /// Whether any diagnostic is an error (warnings do not count).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Errors outside `expect` sections: what can change the armature
    /// (a failing pose assertion does not).
    pub fn has_armature_errors(&self) -> bool {
        let expect_starts: Vec<(u32, u32)> = self
            .sections
            .iter()
            .enumerate()
            .filter(|(_, (_, s))| matches!(s.kind, SectionKind::Expect(_)))
            .map(|(i, (start, _))| (*start, self.sections.get(i + 1).map_or(u32::MAX, |n| n.0)))
            .collect();
        self.diagnostics.iter().any(|d| {
            d.is_error()
                && !expect_starts.iter().any(|&(a, b)| a <= d.span.start && d.span.start < b)
        })
    }

    /// The role of every token of the document, in document offsets and in
    /// order (see [`crate::syntax::Role`]).
    pub fn roles(&self) -> impl Iterator<Item = TokenRole> + '_ {
        let sections = self.sections.iter().flat_map(|(start, s)| {
            s.roles.iter().map(move |r| TokenRole { span: r.span.shifted(*start), role: r.role })
        });
        self.leading_roles.iter().copied().chain(sections)
    }
}

/// Compiles a document from scratch.
///
/// ```
/// let comp = skelpad_lang::compile::compile("skeleton\n\tarm l20\n\tarm.hand x20\n");
/// assert!(comp.diagnostics.is_empty());
/// let sk = &comp.armature.skeleton;
/// assert_eq!(sk.bones.len(), 2);
/// assert_eq!(sk.bones[1].name, "arm.hand");
/// ```
pub fn compile(text: &str) -> Compilation {
    Compiler { one_shot: true, ..Compiler::default() }.update(text)
}

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

struct RigCache {
    /// The ids of its sections (see [`CachedSection::id`]): holding no
    /// tree, it lets an edit of the skeleton splice its tree in place.
    key: Vec<u64>,
    output: Arc<rig::RigOutput>,
    /// Changes when the rig's names change (what animations depend on).
    generation: u64,
}

struct IkCache {
    rig: Arc<rig::RigOutput>,
    key: Vec<Arc<Section>>,
    output: Arc<ik::IkOutput>,
    skeleton: Arc<crate::model::Skeleton>,
}

struct AnimCache {
    rig_generation: u64,
    /// The rig names it was compiled against (when they change, it is
    /// still valid if every name it looks up names the same thing).
    names: rig::RigNames,
    /// The ids of its sections.
    key: Vec<u64>,
    output: Arc<anim::AnimOutput>,
}

/// An animation to compile: its group, its sections, the cache entry it
/// replaces and how much of that can be reused, its cache key and a key
/// buffer to fill.
struct AnimJob<'a> {
    group: usize,
    input: Vec<(Ordinal, &'a crate::syntax::tree::AnimSection)>,
    earlier: Option<AnimCache>,
    reuse: Option<(Ordinal, splice::ItemEdit)>,
    key: Vec<u64>,
    spare: Vec<anim::RawKey>,
}

/// The rig's part of a source map in document offsets, for the rig output
/// and section starts it was placed with (its references sorted by position).
struct PlacedRig {
    rig: Arc<rig::RigOutput>,
    starts: Vec<u32>,
    /// Without references (they are in `references`).
    sources: SourceMap,
    references: Arc<Vec<Reference>>,
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
    /// Whether this compiler sees one text only ([`compile`]): it then keeps
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

/// Whether a compile shares its work out among threads (rayon's pool).
///
/// The sections of a document are parsed independently of each other, and
/// its animations compiled independently once the rig's names are known: with enough
/// text, they are spread over the pool's threads. The result is the same
/// either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threads {
    /// Several threads when there are at least two pieces of work and
    /// [`Threads::MIN_SHARED_BYTES`] of text among them (below that, waking
    /// the pool costs more than it saves).
    #[default]
    Auto,
    /// The calling thread only.
    One,
    /// Several threads whenever there are two pieces of work, and a
    /// skeleton section parsed in two halves whatever its length (for
    /// tests: every path that shares work, on small scripts).
    Always,
}

impl Threads {
    /// The least text, in bytes, that [`Threads::Auto`] shares out.
    pub const MIN_SHARED_BYTES: usize = 64 * 1024;

    /// Whether `pieces` pieces of work over `bytes` of text are shared out.
    fn share(self, pieces: usize, bytes: usize) -> bool {
        match self {
            Threads::One => false,
            Threads::Auto => pieces >= 2 && bytes >= Self::MIN_SHARED_BYTES,
            Threads::Always => pieces >= 2,
        }
    }
}

/// Parses each text as a section, on several threads when `threads` says so.
fn parse_all(srcs: &[&str], threads: Threads) -> Vec<Section> {
    let bytes = srcs.iter().map(|s| s.len()).sum();
    if threads.share(srcs.len(), bytes) {
        use rayon::prelude::*;
        srcs.par_iter().map(|s| parse_section(s)).collect()
    } else {
        srcs.iter().map(|s| parse_section(s)).collect()
    }
}

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

fn same(a: &[Arc<Section>], b: &[Arc<Section>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| Arc::ptr_eq(x, y))
}

impl Compiler {
    /// A compiler that has seen no text yet.
    pub fn new() -> Self {
        Self::default()
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
        let (plan, item_edit) = self.plan_sections(text, &slices, window);
        // A compile that shares its parse out runs on one of the pool's
        // threads from here on: its joins then start work beside it at once
        // instead of each waking the pool from outside and waiting for it,
        // and what it allocates stays with the threads that share the work.
        // (Measured: 200 compiles of the 740 KB `everything` script 1.32–1.39
        // → 1.08–1.17 s; BENCHMARKS.md, eighth pass.)
        let bytes = plan.to_parse.iter().map(|&(_, _, src)| src.len()).sum();
        let share = self.threads.share(plan.to_parse.len(), bytes);
        let plan = (plan, share, item_edit);
        if share && rayon::current_thread_index().is_none() {
            rayon::scope(|_| self.finish_update(text, line_index, &slices, plan))
        } else {
            self.finish_update(text, line_index, &slices, plan)
        }
    }

    /// The rest of [`Compiler::update`] once the plan is made (with whether
    /// its parse is shared out, and the spliced section's edit): parses
    /// what it left to parse, builds the rig and the animations, and puts
    /// the compilation together.
    fn finish_update(
        &mut self,
        text: &str,
        line_index: LineIndex,
        slices: &[crate::syntax::SectionSlice],
        (plan, share, item_edit): (SectionPlan<'_>, bool, Option<ItemEditAt>),
    ) -> Compilation {
        let starts: Vec<u32> = slices.iter().map(|s| s.start).collect();
        let (sections, (rig_idx, rig)) = self.parse_and_merge_rig(plan, share, slices);
        let (rig_out, (groups, anim_outputs)) =
            self.finish_rig_and_anims(&sections, item_edit, rig, share);
        let (ik_idx, ik_out) = self.update_ik(&sections, &rig_out);
        let units = Units { starts, rig_idx, rig_out, ik_idx, ik_out, groups, anim_outputs };
        let mut diagnostics = units.diagnostics(&sections);
        let rig_sources = self.placed_rig_sources(&units);
        let keep = (!self.one_shot).then_some(&mut self.placed_anims);
        let mut sources = units.sources(&sections, rig_sources, keep);
        let skeleton = units
            .ik_out
            .as_ref()
            .map_or_else(|| units.rig_out.skeleton.clone(), |(_, sk)| sk.clone());
        let mut animations: Vec<Arc<crate::model::Animation>> =
            units.anim_outputs.iter().map(|o| o.animation.clone()).collect();
        units.apply_modifiers(&sections, &skeleton, &mut animations, &mut diagnostics);
        let armature = Armature { skeleton, animations };
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

    /// Which sections of `slices` keep their trees from the last update,
    /// which are spliced from the last one's (only an `anim` section's
    /// edited items parsed; how, and the old tree's id) and which are left
    /// to parse: the texts not seen in the last update.
    fn plan_sections<'t>(
        &mut self,
        text: &'t str,
        slices: &[crate::syntax::SectionSlice],
        window: Option<EditWindow>,
    ) -> (SectionPlan<'t>, Option<ItemEditAt>) {
        let mut item_edit = None;
        let mut prev: Vec<Option<CachedSection>> =
            std::mem::take(&mut self.sections).into_iter().map(Some).collect();
        let (n_new, n_old) = (slices.len(), prev.len());
        // Each section is reused, spliced or left to parse; the ones to parse
        // are parsed afterwards, on several threads when there is enough text.
        let mut sections: Vec<Option<CachedSection>> = Vec::with_capacity(slices.len());
        let mut to_parse: Vec<(usize, u64, &str)> = Vec::new();
        for (i, sl) in slices.iter().enumerate() {
            let src = &text[sl.start as usize..sl.end as usize];
            let (start, end) = (sl.start as usize, sl.end as usize);
            let same_place = |j: usize, shift: isize| {
                prev.get(j).and_then(|p| p.as_ref()).is_some_and(|p| {
                    p.start as isize + shift == start as isize && p.len as usize == src.len()
                })
            };
            // Wholly inside the bytes the edit kept at either end, at the
            // same place (after the edit: moved by its length change) and
            // of the same length: the same text, without comparing it.
            let kept = window.and_then(|w| {
                let shift = text.len() as isize - w.old_len as isize;
                if end <= w.prefix && same_place(i, 0) {
                    Some(i)
                } else if start >= text.len() - w.suffix
                    && (i + n_old).checked_sub(n_new).is_some_and(|j| same_place(j, shift))
                {
                    Some(i + n_old - n_new)
                } else {
                    None
                }
            });
            let found = kept.or_else(|| {
                let hit = prev.get(i).and_then(|p| p.as_ref()).is_some_and(|p| &*p.text == src);
                if hit {
                    Some(i)
                } else {
                    prev.iter().position(|p| p.as_ref().is_some_and(|p| &*p.text == src))
                }
            });
            let cached = match found.and_then(|j| prev[j].take()) {
                Some(c) => Some(CachedSection { start: sl.start, ..c }),
                None => {
                    self.last_parsed_sections += 1;
                    self.last_id += 1;
                    let id = self.last_id;
                    let spliced = window.and_then(|w| {
                        let old = prev.get_mut(i)?;
                        let (tree, edit) = Self::splice_section(old.as_mut()?, text, w, sl)?;
                        // Its tree may now be the new one: never reused as the old.
                        let old_id = old.take()?.id;
                        Some((tree, edit, old_id))
                    });
                    match spliced {
                        Some((tree, edit, old_id)) => {
                            self.last_spliced_sections += 1;
                            // Animations take over their untouched items'
                            // results (a skeleton's edit reaches them only
                            // through the rig's names).
                            if matches!(tree.kind, SectionKind::Anim(_)) {
                                item_edit = Some((i, edit, old_id));
                            }
                            Some(CachedSection {
                                start: sl.start,
                                id,
                                text: self.kept_text(src),
                                len: src.len() as u32,
                                tree,
                            })
                        }
                        None => {
                            to_parse.push((i, id, src));
                            None
                        }
                    }
                }
            };
            sections.push(cached);
        }
        (SectionPlan { sections, to_parse }, item_edit)
    }

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
    fn parse_and_merge_rig(
        &mut self,
        plan: SectionPlan<'_>,
        share: bool,
        slices: &[crate::syntax::SectionSlice],
    ) -> (Vec<CachedSection>, RigAt) {
        let SectionPlan { mut sections, to_parse } = plan;
        let (rig_first, rest): (Vec<_>, Vec<_>) =
            to_parse.into_iter().partition(|&(_, _, src)| crate::syntax::opens_rig_section(src));
        let rest_bytes: usize = rest.iter().map(|&(_, _, src)| src.len()).sum();
        let threads = self.threads;
        // The rig's side costs about twice its skeleton's parse (merging the
        // rig costs about as much again), so a skeleton longer than half of
        // everything else left to parse makes it the longer side: its two
        // halves are parsed side by side first, then the rig is merged beside
        // the other sections' parse, whose work the rig's thread takes a
        // share of once the rig is merged. (Measured on `slots-skins`, a 167 KB
        // skeleton beside 244 KB of animations: 4.27–4.33 → 3.79–3.84 ms.)
        let wanted = |src: &str| {
            threads == Threads::Always
                || (src.len() >= SPLIT_SKELETON_BYTES && 2 * src.len() > rest_bytes)
        };
        let halves =
            rig_first.iter().enumerate().filter(|_| share).find_map(|(k, &(_, _, src))| {
                let at = wanted(src).then(|| crate::syntax::skeleton_cut(src, src.len() / 2))??;
                Some((k, at))
            });
        let parse_rig_sections = || -> Vec<Arc<Section>> {
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
        };
        // The rig's sections in document order, those reused and those just
        // parsed, and the rig merged from them.
        let merge_rig = |this: &mut Self, parsed: &[Arc<Section>]| {
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
            let ids = key.ids.clone();
            (ids, this.rig_for(key))
        };
        let parse_rest = || {
            let srcs: Vec<&str> = rest.iter().map(|&(_, _, src)| src).collect();
            parse_all(&srcs, if share { threads } else { Threads::One })
        };
        let rig_side = |this: &mut Self| {
            let parsed = parse_rig_sections();
            let merged = merge_rig(this, &parsed);
            (parsed, merged)
        };
        let ((rig_trees, (used_key, rig)), rest_trees) = if halves.is_some() {
            let parsed = parse_rig_sections();
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
        let rig_idx: Vec<usize> =
            (0..sections.len()).filter(|&i| is_rig_section(&sections[i].tree)).collect();
        let ids: Vec<u64> = rig_idx.iter().map(|&i| sections[i].id).collect();
        let rig = if ids == used_key {
            rig
        } else {
            let trees = rig_idx.iter().map(|&i| sections[i].tree.clone()).collect();
            self.rig_for(RigKey { ids, trees })
        };
        (sections, (rig_idx, rig))
    }

    /// The tree of section `sl` of `text` from the old tree of the section
    /// at the same place, when the edit lies inside that `anim` section's
    /// items or that `skeleton` section's bone lines: only the edited items
    /// (bone lines) are parsed.
    ///
    /// The old tree is edited in place when nothing else holds it (the
    /// caller dropped the last compilation), else copied.
    fn splice_section(
        old: &mut CachedSection,
        text: &str,
        w: EditWindow,
        sl: &crate::syntax::SectionSlice,
    ) -> Option<(Arc<Section>, splice::ItemEdit)> {
        let (start, end) = (sl.start as usize, sl.end as usize);
        let edit_end = text.len() - w.suffix;
        let old_len = (end - start).wrapping_sub(text.len()).wrapping_add(w.old_len);
        let (window, splice): (splice::FindWindow, splice::Splice) = match old.tree.kind {
            SectionKind::Anim(_) => (splice::item_window, splice::splice_items_in_place),
            SectionKind::Skeleton(_) => (splice::bone_window, splice::splice_bones_in_place),
            _ => return None,
        };
        if old.start as usize != start
            || w.prefix < start
            || edit_end > end
            || old.len as usize != old_len
        {
            return None;
        }
        let new = &text[start..end];
        let window =
            window(old.text.as_bytes(), new.as_bytes(), w.prefix - start, edit_end - start)?;
        if let Some(tree) = Arc::get_mut(&mut old.tree) {
            let edit = splice(tree, new, window)?;
            return Some((old.tree.clone(), edit));
        }
        // A copy, spliced in place: the copy of the edited lines is
        // wasted, and they are few.
        let mut tree = Section::clone(&old.tree);
        let edit = splice(&mut tree, new, window)?;
        Some((Arc::new(tree), edit))
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
    fn finish_rig_and_anims(
        &mut self,
        sections: &[CachedSection],
        item_edit: Option<ItemEditAt>,
        rig: RigState,
        share: bool,
    ) -> (Arc<rig::RigOutput>, Anims) {
        let pending = match rig {
            RigState::Built(output, generation) => {
                let anims = self.update_anims(sections, item_edit, &output.names, generation);
                return (output, anims);
            }
            RigState::Merged(p) => *p,
        };
        let PendingRig { key, merged, generation } = pending;
        let names = merged.names.clone();
        let finish = || Arc::new(rig::finish_rig(&rig_input(&key.trees), merged));
        let (output, anims) = if share {
            rayon::join(finish, || self.update_anims(sections, item_edit, &names, generation))
        } else {
            let output = finish();
            (output, self.update_anims(sections, item_edit, &names, generation))
        };
        self.rig = Some(RigCache { key: key.ids, output: output.clone(), generation });
        (output, anims)
    }

    /// IK families: built on the rig, cached on it and the `ik` sections.
    fn update_ik(
        &mut self,
        sections: &[CachedSection],
        rig_out: &Arc<rig::RigOutput>,
    ) -> (Vec<usize>, Option<IkPair>) {
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
        (ik_idx, self.ik.as_ref().map(|c| (c.output.clone(), c.skeleton.clone())))
    }

    /// Animations, grouped by name in order of first appearance; each group
    /// recompiled when its sections or the rig's names changed.
    fn update_anims(
        &mut self,
        sections: &[CachedSection],
        item_edit: Option<ItemEditAt>,
        rig_names: &rig::RigNames,
        rig_generation: u64,
    ) -> Anims {
        let mut groups: Vec<AnimGroup> = Vec::new();
        for (i, s) in sections.iter().enumerate() {
            if let SectionKind::Anim(a) = &s.tree.kind {
                match groups.iter_mut().find(|g| g.0 == a.name.node) {
                    Some(g) => g.1.push(i),
                    None => groups.push((a.name.node.clone(), vec![i])),
                }
            }
        }
        // Each animation is taken from the cache or left to compile; those
        // are compiled afterwards, on several threads when they are many.
        let mut done: Vec<Option<AnimCache>> = Vec::with_capacity(groups.len());
        let mut jobs: Vec<AnimJob<'_>> = Vec::new();
        for (g, (name, idx)) in groups.iter().enumerate() {
            let key: Vec<u64> = idx.iter().map(|&i| sections[i].id).collect();
            let mut earlier = self.anims.remove(name);
            if let Some(c) = earlier.take_if(|c| c.rig_generation == rig_generation && c.key == key)
            {
                done.push(Some(c));
                continue;
            }
            // Its sections are the same but the rig's names changed (a bone
            // renamed, added, removed): the animation stands when every
            // name it looks up finds what it found before, renumbered when
            // those moved (a bone inserted before them).
            let renumbering = earlier.as_ref().filter(|c| c.key == key).and_then(|c| {
                let secs = idx.iter().filter_map(|&i| match &sections[i].tree.kind {
                    SectionKind::Anim(a) => Some(a),
                    _ => None,
                });
                anim::lookup_map(secs, &c.names, rig_names)
            });
            if let Some((map, mut c)) = renumbering.and_then(|m| Some((m, earlier.take()?))) {
                if !map.is_identity() {
                    c.output = Arc::new(c.output.renumbered(&map));
                }
                c.rig_generation = rig_generation;
                c.names = rig_names.clone();
                done.push(Some(c));
                continue;
            }
            self.last_compiled_units += 1;
            let input: Vec<(Ordinal, &crate::syntax::tree::AnimSection)> = idx
                .iter()
                .enumerate()
                .filter_map(|(o, &i)| {
                    if let SectionKind::Anim(a) = &sections[i].tree.kind {
                        Some((o, a))
                    } else {
                        None
                    }
                })
                .collect();
            // Only the edited items of one of its sections changed: the
            // other items' results are taken from the last output.
            let reuse = earlier.as_ref().and_then(|c| {
                let (edited, edit, old_id) = item_edit.as_ref()?;
                let ord = idx.iter().position(|i| i == edited)?;
                let unchanged = c.rig_generation == rig_generation
                    && c.key.len() == key.len()
                    && c.key
                        .iter()
                        .zip(&key)
                        .enumerate()
                        .all(|(o, (a, b))| if o == ord { a == old_id } else { a == b });
                unchanged.then_some((ord, *edit))
            });
            // The source keys of the output this one replaces, when nothing
            // else holds them (the caller let the last compilation go), are
            // its buffer; unless it is read from, as the last output.
            let own = match (reuse, earlier.as_mut()) {
                (None, Some(c)) => Arc::get_mut(&mut c.output)
                    .and_then(|out| Arc::get_mut(&mut out.sources.keys))
                    .map(KeyList::take_buffer),
                _ => None,
            };
            let spare = own.unwrap_or_else(|| std::mem::take(&mut self.spare_keys));
            self.last_replayed_anims += usize::from(reuse.is_some());
            jobs.push(AnimJob { group: g, input, earlier, reuse, key, spare });
            done.push(None);
        }
        let compile_job = |job: AnimJob<'_>| {
            let prev = job.reuse.zip(job.earlier.as_ref()).map(|((ord, edit), c)| anim::Previous {
                output: &c.output,
                ord,
                edit,
            });
            let output = anim::compile_anim(rig_names, &job.input, prev, job.spare);
            let names = rig_names.clone();
            let output = Arc::new(output);
            let cache = AnimCache { rig_generation, names, output, key: job.key };
            (job.group, cache, job.earlier)
        };
        let bytes: usize =
            jobs.iter().flat_map(|j| &groups[j.group].1).map(|&i| sections[i].len as usize).sum();
        let compiled: Vec<_> = if self.threads.share(jobs.len(), bytes) {
            use rayon::prelude::*;
            jobs.into_par_iter().map(compile_job).collect()
        } else {
            jobs.into_iter().map(compile_job).collect()
        };
        for (g, cache, mut earlier) in compiled {
            // The replaced output of an edited animation, read while
            // compiling: its keys are the next update's buffer.
            if let Some(keys) = earlier
                .as_mut()
                .and_then(|c| Arc::get_mut(&mut c.output))
                .and_then(|out| Arc::get_mut(&mut out.sources.keys))
            {
                self.spare_keys = keys.take_buffer();
            }
            done[g] = Some(cache);
        }
        let mut anim_outputs = Vec::with_capacity(groups.len());
        let mut anims = HashMap::with_capacity_and_hasher(groups.len(), Default::default());
        // (Every group is in `done` by now: from the cache or compiled.)
        for ((name, _), cache) in groups.iter().zip(done).filter_map(|(g, c)| Some((g, c?))) {
            anim_outputs.push(cache.output.clone());
            anims.insert(name.clone(), cache);
        }
        self.anims = anims;
        (groups, anim_outputs)
    }

    /// The rig's part of the source map in document offsets: kept while
    /// the rig and where its sections start do not change (an edit in an
    /// animation after them), then copied rather than shifted again.
    fn placed_rig_sources(&mut self, units: &Units) -> (SourceMap, Arc<Vec<Reference>>) {
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

/// The section (by position) whose tree an update spliced from the last
/// one's, how, and the id of that last tree.
type ItemEditAt = (usize, splice::ItemEdit, u64);

/// What an update does with each section of the new text: `sections`
/// holds those reused or spliced (at their index), `to_parse` the index,
/// new id and text of the others.
struct SectionPlan<'t> {
    sections: Vec<Option<CachedSection>>,
    to_parse: Vec<(usize, u64, &'t str)>,
}

/// An update's animations: the groups of sections by name and the output
/// of each group.
type Anims = (Vec<AnimGroup>, Vec<Arc<anim::AnimOutput>>);

/// The rig of an update: the indices of its sections and the rig.
type RigAt = (Vec<usize>, RigState);

/// A rig as [`Compiler::rig_for`] leaves it.
enum RigState {
    /// Built before (its sections did not change), with the generation
    /// of its names.
    Built(Arc<rig::RigOutput>, u64),
    /// Merged, to be finished.
    Merged(Box<PendingRig>),
}

/// A rig merged from the sections `key`, whose names have `generation`.
struct PendingRig {
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

/// An animation's part of a source map in document offsets, for the
/// output, number and section starts it was placed with.
struct PlacedAnim {
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

/// How a text differs from the one before: the length of that one and the
/// bytes they share at the start and at the end (not overlapping).
#[derive(Clone, Copy, Debug)]
struct EditWindow {
    old_len: usize,
    prefix: usize,
    suffix: usize,
}

/// An animation's name and the indices of its sections.
type AnimGroup = (String, Vec<usize>);

/// An IK output and the rig's skeleton with its families.
type IkPair = (Arc<ik::IkOutput>, Arc<crate::model::Skeleton>);

/// The compile units of one update and where their sections start.
struct Units {
    /// The start of every section in the document.
    starts: Vec<u32>,
    rig_idx: Vec<usize>,
    rig_out: Arc<rig::RigOutput>,
    ik_idx: Vec<usize>,
    ik_out: Option<IkPair>,
    /// Animation names and the indices of their sections.
    groups: Vec<AnimGroup>,
    anim_outputs: Vec<Arc<anim::AnimOutput>>,
}

impl Units {
    /// The timing modifiers of every animation ([`modifiers::apply`]);
    /// their diagnostics are merged into `diagnostics` (kept sorted).
    fn apply_modifiers(
        &self,
        sections: &[CachedSection],
        skeleton: &crate::model::Skeleton,
        animations: &mut [Arc<crate::model::Animation>],
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let groups: Vec<modifiers::Sections<'_>> = self
            .groups
            .iter()
            .map(|(_, idx)| {
                idx.iter()
                    .filter_map(|&i| match &sections[i].tree.kind {
                        SectionKind::Anim(a) => Some((self.starts[i], a)),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut extra = Vec::new();
        modifiers::apply(&groups, &self.rig_out.names, skeleton, animations, &mut extra);
        if !extra.is_empty() {
            diagnostics.extend(extra);
            diagnostics
                .sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.severity.cmp(&b.severity)));
        }
    }

    /// Every section's and unit's diagnostics in document offsets, sorted.
    fn diagnostics(&self, sections: &[CachedSection]) -> Vec<Diagnostic> {
        let start_of = |i: usize| self.starts[i];
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        for (i, s) in sections.iter().enumerate() {
            diagnostics.extend(s.tree.diagnostics.iter().map(|d| d.clone().shifted(start_of(i))));
        }
        diagnostics.extend(
            self.rig_out
                .diagnostics
                .iter()
                .map(|(o, d)| d.clone().shifted(start_of(self.rig_idx[*o]))),
        );
        for ((_, idx), out) in self.groups.iter().zip(&self.anim_outputs) {
            diagnostics
                .extend(out.diagnostics.iter().map(|(o, d)| d.clone().shifted(start_of(idx[*o]))));
        }
        if let Some((out, _)) = &self.ik_out {
            diagnostics.extend(
                out.diagnostics.iter().map(|(o, d)| d.clone().shifted(start_of(self.ik_idx[*o]))),
            );
        }
        diagnostics
            .sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.severity.cmp(&b.severity)));
        diagnostics.dedup();
        diagnostics
    }

    /// The source map: the placed rig's part, then the animations' and IK's in document offsets.
    ///
    /// Each animation's part is kept in `placed_anims` for the next update, which
    /// copies it when the animation did not change (moved when text before
    /// it changed length) instead of placing it again.
    fn sources(
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
                .map(|(_, idx)| sections[idx[0]].tree.header.shifted(start_of(idx[0])))
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
        let ik_references = self.ik_out.as_ref().map_or(0, |(o, _)| o.references.len());
        sources.references =
            Vec::with_capacity(rig_references.len() + anim_references + ik_references);
        sources.references.extend_from_slice(&rig_references);
        let mut last: Vec<Option<PlacedAnim>> = match placed_anims.as_deref_mut() {
            Some(placed) => std::mem::take(placed).into_iter().map(Some).collect(),
            None => Vec::new(),
        };
        for (a, ((_, idx), out)) in self.groups.iter().zip(&self.anim_outputs).enumerate() {
            let anim = AnimId::from_index(a);
            let starts: Vec<u32> = idx.iter().map(|&i| start_of(i)).collect();
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
        if let Some((out, _)) = &self.ik_out {
            let start = |o: Ordinal| start_of(self.ik_idx[o]);
            sources.ik = placed(&out.lines, start);
            sources.references.extend(placed_iter(&out.references, start));
        }
        sources.references.sort_by_key(|r| r.span.start);
        sources
    }

    /// Pose assertions: resolved here, evaluated by `check::expect`; their
    /// diagnostics and references join the others.
    fn pose_checks(
        &self,
        sections: &[CachedSection],
        armature: &Armature,
        diagnostics: &mut Vec<Diagnostic>,
        sources: &mut SourceMap,
    ) -> Vec<expect::PoseCheck> {
        let mut pose_checks = Vec::new();
        for (i, s) in sections.iter().enumerate() {
            if let SectionKind::Expect(e) = &s.tree.kind {
                let at = self.starts[i];
                let out = expect::resolve_section(armature, &self.rig_out, e);
                diagnostics.extend(out.diagnostics.into_iter().map(|d| d.shifted(at)));
                sources.references.extend(
                    out.references.into_iter().map(|r| Reference { span: r.span.shifted(at), ..r }),
                );
                pose_checks.push(out.check.shifted(at));
            }
        }
        if pose_checks.iter().any(|c| !c.lines.is_empty()) {
            diagnostics
                .sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.severity.cmp(&b.severity)));
            sources.references.sort_by_key(|r| r.span.start);
        }
        pose_checks
    }
}
