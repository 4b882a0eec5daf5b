//! Syntax trees → [`Armature`], incrementally.
//!
//! The document is split into top-level sections. Each section's tree is
//! cached on its text; the rig (skeleton, skin and order sections) is rebuilt
//! only when one of those trees changes, and each animation only when its own
//! sections or the rig change. Editing inside one animation therefore
//! re-parses one section and recompiles one animation.

mod anim;
pub mod names;
mod rig;

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use crate::model::Armature;
use crate::syntax::tree::{Section, SectionKind};
use crate::syntax::{Diagnostic, LineIndex, Span, parse_section, split_sections};

/// Position of a section inside the list a compile unit was built from.
pub type Ordinal = usize;
/// A diagnostic whose span is relative to the start of section `Ordinal`.
pub type LocalDiag = (Ordinal, Diagnostic);

/// Where model items were written, in document offsets.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// Per bone (by `BoneId`); `None` for parents that were never written.
    pub bones: Vec<Option<Span>>,
    /// Per slot (by `SlotId`): its first slot line.
    pub slots: Vec<Span>,
    /// Per animation (by `AnimId`): the header of its first section.
    pub animations: Vec<Span>,
}

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
}

impl Compilation {
    /// Whether any diagnostic is an error (warnings do not count).
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// Compiles a document from scratch.
///
/// ```
/// let comp = skelpad::compile::compile("skeleton\n\tarm l20\n\tarm.hand x20\n");
/// assert!(comp.diagnostics.is_empty());
/// let sk = &comp.armature.skeleton;
/// assert_eq!(sk.bones.len(), 2);
/// assert_eq!(sk.bones[1].name, "arm.hand");
/// ```
pub fn compile(text: &str) -> Compilation {
    Compiler::default().update(text)
}

struct CachedSection {
    text: Box<str>,
    tree: Arc<Section>,
}

struct RigCache {
    key: Vec<Arc<Section>>,
    output: Arc<rig::RigOutput>,
    generation: u64,
}

struct AnimCache {
    rig_generation: u64,
    key: Vec<Arc<Section>>,
    output: Arc<anim::AnimOutput>,
}

/// An incremental compiler: call [`Compiler::update`] with each new version
/// of the text.
///
/// ```
/// let mut c = skelpad::compile::Compiler::new();
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
    anims: HashMap<String, AnimCache>,
    generation: u64,
    /// How many sections the last update parsed (the rest came from the cache).
    pub last_parsed_sections: usize,
    /// How many compile units (rig, animations) the last update rebuilt.
    pub last_compiled_units: usize,
}

fn same(a: &[Arc<Section>], b: &[Arc<Section>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| Arc::ptr_eq(x, y))
}

impl Compiler {
    /// A compiler that has seen no text yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Compiles `text`, reusing every section tree, rig and animation whose
    /// input did not change since the last call; the result equals `compile(text)`.
    pub fn update(&mut self, text: &str) -> Compilation {
        self.last_parsed_sections = 0;
        self.last_compiled_units = 0;
        let slices = split_sections(text);
        let mut prev: Vec<Option<CachedSection>> = std::mem::take(&mut self.sections).into_iter().map(Some).collect();
        let mut sections: Vec<CachedSection> = Vec::with_capacity(slices.len());
        for (i, sl) in slices.iter().enumerate() {
            let src = &text[sl.start as usize..sl.end as usize];
            let hit = prev.get(i).and_then(|p| p.as_ref()).is_some_and(|p| &*p.text == src);
            let found = if hit { Some(i) } else { prev.iter().position(|p| p.as_ref().is_some_and(|p| &*p.text == src)) };
            let cached = match found.and_then(|j| prev[j].take()) {
                Some(c) => c,
                None => {
                    self.last_parsed_sections += 1;
                    CachedSection { text: src.into(), tree: Arc::new(parse_section(src)) }
                }
            };
            sections.push(cached);
        }

        // The rig.
        let rig_idx: Vec<usize> = sections
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.tree.kind, SectionKind::Skeleton(_) | SectionKind::Skin(_) | SectionKind::Order(_)))
            .map(|(i, _)| i)
            .collect();
        let rig_key: Vec<Arc<Section>> = rig_idx.iter().map(|&i| sections[i].tree.clone()).collect();
        let rig_hit = self.rig.as_ref().is_some_and(|r| same(&r.key, &rig_key));
        if !rig_hit {
            self.last_compiled_units += 1;
            self.generation += 1;
            let input: Vec<(Ordinal, rig::RigSection<'_>)> = rig_key
                .iter()
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
                .collect();
            let output = Arc::new(rig::compile_rig(&input));
            self.rig = Some(RigCache { key: rig_key, output, generation: self.generation });
        }
        let Some(rig) = self.rig.as_ref() else { unreachable!("the rig was just built") };
        let rig_out = rig.output.clone();
        let rig_generation = rig.generation;

        // Animations, grouped by name in order of first appearance.
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        for (i, s) in sections.iter().enumerate() {
            if let SectionKind::Anim(a) = &s.tree.kind {
                match groups.iter_mut().find(|g| g.0 == a.name.node) {
                    Some(g) => g.1.push(i),
                    None => groups.push((a.name.node.clone(), vec![i])),
                }
            }
        }
        let mut anim_outputs = Vec::with_capacity(groups.len());
        let mut anims = HashMap::with_capacity_and_hasher(groups.len(), Default::default());
        for (name, idx) in &groups {
            let key: Vec<Arc<Section>> = idx.iter().map(|&i| sections[i].tree.clone()).collect();
            let cached = self.anims.remove(name).filter(|c| c.rig_generation == rig_generation && same(&c.key, &key));
            let cache = match cached {
                Some(c) => c,
                None => {
                    self.last_compiled_units += 1;
                    let input: Vec<(Ordinal, &crate::syntax::tree::AnimSection)> = key
                        .iter()
                        .enumerate()
                        .filter_map(|(o, s)| if let SectionKind::Anim(a) = &s.kind { Some((o, a)) } else { None })
                        .collect();
                    AnimCache { rig_generation, output: Arc::new(anim::compile_anim(&rig_out, &input)), key }
                }
            };
            anim_outputs.push(cache.output.clone());
            anims.insert(name.clone(), cache);
        }
        self.anims = anims;

        // Diagnostics in document offsets.
        let start_of = |i: usize| slices[i].start;
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        for (i, s) in sections.iter().enumerate() {
            diagnostics.extend(s.tree.diagnostics.iter().map(|d| d.clone().shifted(start_of(i))));
        }
        diagnostics.extend(rig_out.diagnostics.iter().map(|(o, d)| d.clone().shifted(start_of(rig_idx[*o]))));
        for ((_, idx), out) in groups.iter().zip(&anim_outputs) {
            diagnostics.extend(out.diagnostics.iter().map(|(o, d)| d.clone().shifted(start_of(idx[*o]))));
        }
        diagnostics.sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.severity.cmp(&b.severity)));
        diagnostics.dedup();

        let sources = SourceMap {
            bones: rig_out.bone_sources.iter().map(|s| s.map(|(o, sp)| sp.shifted(start_of(rig_idx[o])))).collect(),
            slots: rig_out.slot_sources.iter().map(|(o, sp)| sp.shifted(start_of(rig_idx[*o]))).collect(),
            animations: groups.iter().map(|(_, idx)| sections[idx[0]].tree.header.shifted(start_of(idx[0]))).collect(),
        };
        let armature =
            Armature { skeleton: rig_out.skeleton.clone(), animations: anim_outputs.iter().map(|o| o.animation.clone()).collect() };
        self.sections = sections;
        Compilation { armature, diagnostics, sources, lines: LineIndex::new(text) }
    }
}
