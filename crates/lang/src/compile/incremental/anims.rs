//! The animations of an update: first a plan per animation (reused as it
//! was, renumbered against the rig's new names, or compiled: in full or
//! from its last output, the items an edit did not touch taken over),
//! then the plan carried out, the compiles shared among threads.

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use super::sections::ItemEditAt;
use super::{AnimCache, CachedSection, Compiler};
use crate::compile::{KeyList, Ordinal, anim, rig, splice};
use crate::syntax::tree::{AnimSection, SectionKind};

/// An animation's name and the indices of its sections.
pub(super) struct AnimGroup {
    pub(super) name: String,
    pub(super) sections: Vec<usize>,
}

/// An update's animations: the groups of sections by name and the output
/// of each group.
pub(super) struct Anims {
    pub(super) groups: Vec<AnimGroup>,
    pub(super) outputs: Vec<Arc<anim::AnimOutput>>,
}

/// What an update does with one animation, decided before anything is
/// done.
enum AnimPlan<'a> {
    /// Its sections and the rig's names are those it was compiled with.
    Reuse(AnimCache),
    /// Its sections are the same and each name it looks up finds what it
    /// found before in the rig's new names: its output stands, numbered by
    /// the map.
    Renumber(AnimCache, anim::IdMap),
    /// Compiled again.
    Compile(AnimJob<'a>),
}

/// An animation to compile: its group, its sections, the cache entry it
/// replaces and how much of that can be reused, and its cache key.
struct AnimJob<'a> {
    group: usize,
    input: Vec<(Ordinal, &'a AnimSection)>,
    earlier: Option<AnimCache>,
    /// The section of it an edit changed only some items of (its ordinal
    /// among the animation's sections, and how), when `earlier` was
    /// compiled from the same sections but that one.
    reuse: Option<(Ordinal, splice::ItemEdit)>,
    key: Vec<u64>,
}

/// The rig's names the animations of an update compile against, and the
/// generation of those names.
#[derive(Clone, Copy)]
pub(super) struct RigNamesAt<'r> {
    pub(super) names: &'r rig::RigNames,
    pub(super) generation: u64,
}

impl Compiler {
    /// Animations, grouped by name in order of first appearance; each group
    /// recompiled when its sections or the rig's names changed.
    pub(super) fn update_anims(
        &mut self,
        sections: &[CachedSection],
        item_edit: Option<ItemEditAt>,
        rig: RigNamesAt<'_>,
    ) -> Anims {
        let groups = anim_groups(sections);
        let cached = std::mem::take(&mut self.anims);
        let plans = plan_anims(&groups, cached, sections, item_edit, rig);
        let done = self.carry_out(&groups, plans, sections, rig);
        let mut outputs = Vec::with_capacity(groups.len());
        let mut anims = HashMap::with_capacity_and_hasher(groups.len(), Default::default());
        for (group, cache) in groups.iter().zip(done) {
            outputs.push(cache.output.clone());
            anims.insert(group.name.clone(), cache);
        }
        self.anims = anims;
        Anims { groups, outputs }
    }

    /// Carries out the plan of every animation (`plans`, one per group):
    /// the cache entry of each, in the order of `groups`.
    fn carry_out(
        &mut self,
        groups: &[AnimGroup],
        plans: Vec<AnimPlan<'_>>,
        sections: &[CachedSection],
        rig: RigNamesAt<'_>,
    ) -> Vec<AnimCache> {
        // Those taken from the cache are in place at once; those to compile
        // are compiled afterwards, on several threads when they are many.
        let mut done: Vec<Option<AnimCache>> = Vec::with_capacity(plans.len());
        let mut jobs: Vec<(AnimJob<'_>, Vec<anim::RawKey>)> = Vec::new();
        for plan in plans {
            match plan {
                AnimPlan::Reuse(c) => done.push(Some(c)),
                AnimPlan::Renumber(mut c, map) => {
                    if !map.is_identity() {
                        c.output = Arc::new(c.output.renumbered(&map));
                    }
                    c.rig_generation = rig.generation;
                    c.names = rig.names.clone();
                    done.push(Some(c));
                }
                AnimPlan::Compile(mut job) => {
                    self.last_compiled_units += 1;
                    self.last_replayed_anims += usize::from(job.reuse.is_some());
                    let spare = self.key_buffer(&mut job);
                    jobs.push((job, spare));
                    done.push(None);
                }
            }
        }
        let bytes: usize = jobs
            .iter()
            .flat_map(|(j, _)| &groups[j.group].sections)
            .map(|&i| sections[i].len as usize)
            .sum();
        for (g, cache) in self.compile_jobs(jobs, bytes, rig) {
            done[g] = Some(cache);
        }
        // (Every group is in `done` by now: from the cache or compiled.)
        done.into_iter().flatten().collect()
    }

    /// The buffer `job` writes its keys into: the source keys of the output
    /// it replaces, when nothing else holds them (the caller let the last
    /// compilation go) and it is not read from (as the last output); else
    /// the compiler's spare one.
    fn key_buffer(&mut self, job: &mut AnimJob<'_>) -> Vec<anim::RawKey> {
        let own = match (job.reuse, job.earlier.as_mut()) {
            (None, Some(c)) => Arc::get_mut(&mut c.output)
                .and_then(|out| Arc::get_mut(&mut out.sources.keys))
                .map(KeyList::take_buffer),
            _ => None,
        };
        own.unwrap_or_else(|| std::mem::take(&mut self.spare_keys))
    }

    /// Compiles `jobs` (each with its key buffer; `bytes` of sections among
    /// them), on several threads when the compiler shares that out: the
    /// group and cache entry of each.
    fn compile_jobs(
        &mut self,
        jobs: Vec<(AnimJob<'_>, Vec<anim::RawKey>)>,
        bytes: usize,
        rig: RigNamesAt<'_>,
    ) -> Vec<(usize, AnimCache)> {
        let compile_job = |(job, spare): (AnimJob<'_>, Vec<anim::RawKey>)| {
            let prev = job.reuse.zip(job.earlier.as_ref()).map(|((ord, edit), c)| anim::Previous {
                output: &c.output,
                ord,
                edit,
            });
            let output = Arc::new(anim::compile_anim(rig.names, &job.input, prev, spare));
            let names = rig.names.clone();
            let cache = AnimCache { rig_generation: rig.generation, names, output, key: job.key };
            (job.group, cache, job.earlier)
        };
        let compiled: Vec<_> = if self.threads.share(jobs.len(), bytes) {
            use rayon::prelude::*;
            jobs.into_par_iter().map(compile_job).collect()
        } else {
            jobs.into_iter().map(compile_job).collect()
        };
        let mut out = Vec::with_capacity(compiled.len());
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
            out.push((g, cache));
        }
        out
    }
}

/// The `anim` sections grouped by name, in order of first appearance.
fn anim_groups(sections: &[CachedSection]) -> Vec<AnimGroup> {
    let mut groups: Vec<AnimGroup> = Vec::new();
    for (i, s) in sections.iter().enumerate() {
        if let SectionKind::Anim(a) = &s.tree.kind {
            match groups.iter_mut().find(|g| g.name == a.name.node) {
                Some(g) => g.sections.push(i),
                None => groups.push(AnimGroup { name: a.name.node.clone(), sections: vec![i] }),
            }
        }
    }
    groups
}

/// The `anim` sections among `sections` at `idx`, with their ordinals.
fn anim_sections<'a>(
    idx: &[usize],
    sections: &'a [CachedSection],
) -> Vec<(Ordinal, &'a AnimSection)> {
    idx.iter()
        .enumerate()
        .filter_map(|(o, &i)| match &sections[i].tree.kind {
            SectionKind::Anim(a) => Some((o, a)),
            _ => None,
        })
        .collect()
}

/// What to do with each animation of `groups`, given the last update's
/// (`cached`, by name; the entries planned are taken out of it).
fn plan_anims<'a>(
    groups: &[AnimGroup],
    mut cached: HashMap<String, AnimCache>,
    sections: &'a [CachedSection],
    item_edit: Option<ItemEditAt>,
    rig: RigNamesAt<'_>,
) -> Vec<AnimPlan<'a>> {
    let mut plans = Vec::with_capacity(groups.len());
    for (g, group) in groups.iter().enumerate() {
        let idx = &group.sections;
        let key: Vec<u64> = idx.iter().map(|&i| sections[i].id).collect();
        let mut earlier = cached.remove(&group.name);
        if let Some(c) = earlier.take_if(|c| c.rig_generation == rig.generation && c.key == key) {
            plans.push(AnimPlan::Reuse(c));
            continue;
        }
        // Its sections are the same but the rig's names changed (a bone
        // renamed, added, removed): the animation stands when every name
        // it looks up finds what it found before, renumbered when those
        // moved (a bone inserted before them).
        let renumbering = earlier.as_ref().filter(|c| c.key == key).and_then(|c| {
            let secs = anim_sections(idx, sections).into_iter().map(|(_, a)| a);
            anim::lookup_map(secs, &c.names, rig.names)
        });
        if let Some((map, c)) = renumbering.and_then(|m| Some((m, earlier.take()?))) {
            plans.push(AnimPlan::Renumber(c, map));
            continue;
        }
        // Only the edited items of one of its sections changed: the other
        // items' results are taken from the last output.
        let reuse = earlier.as_ref().and_then(|c| {
            let ItemEditAt { section: edited, edit, old_id } = item_edit?;
            let ord = idx.iter().position(|&i| i == edited)?;
            let unchanged = c.rig_generation == rig.generation
                && c.key.len() == key.len()
                && c.key
                    .iter()
                    .zip(&key)
                    .enumerate()
                    .all(|(o, (a, b))| if o == ord { *a == old_id } else { a == b });
            unchanged.then_some((ord, edit))
        });
        let input = anim_sections(idx, sections);
        plans.push(AnimPlan::Compile(AnimJob { group: g, input, earlier, reuse, key }));
    }
    plans
}
