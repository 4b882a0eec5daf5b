//! The compile units of one update put together: their diagnostics in
//! document offsets, the animations' timing modifiers and the pose
//! assertions.

use std::sync::Arc;

use super::CachedSection;
use super::anims::AnimGroup;
use super::rig::IkUnit;
use crate::compile::Reference;
use crate::compile::{SourceMap, anim, blend, expect, modifiers, rig};
use crate::model::Armature;
use crate::syntax::Diagnostic;
use crate::syntax::tree::SectionKind;

/// The compile units of one update and where their sections start.
pub(super) struct Units {
    /// The start of every section in the document.
    pub(super) starts: Vec<u32>,
    pub(super) rig_idx: Vec<usize>,
    pub(super) rig_out: Arc<rig::RigOutput>,
    pub(super) ik_idx: Vec<usize>,
    pub(super) ik_out: Option<IkUnit>,
    /// Animation names and the indices of their sections.
    pub(super) groups: Vec<AnimGroup>,
    pub(super) anim_outputs: Vec<Arc<anim::AnimOutput>>,
}

impl Units {
    /// The timing modifiers of every animation ([`modifiers::apply`]);
    /// their diagnostics are merged into `diagnostics` (kept sorted).
    pub(super) fn apply_modifiers(
        &self,
        sections: &[CachedSection],
        skeleton: &crate::model::Skeleton,
        animations: &mut [Arc<crate::model::Animation>],
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let groups: Vec<modifiers::Sections<'_>> = self
            .groups
            .iter()
            .map(|g| {
                g.sections
                    .iter()
                    .filter_map(|&i| match &sections[i].tree.kind {
                        SectionKind::Anim(a) => Some((self.starts[i], a)),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let mut extra = Vec::new();
        modifiers::apply(&groups, &self.rig_out.names, skeleton, animations, &mut extra);
        let mixes: Vec<(u32, &crate::syntax::tree::MixSection)> = sections
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match &s.tree.kind {
                SectionKind::Mix(m) => Some((self.starts[i], m)),
                _ => None,
            })
            .collect();
        blend::apply(&groups, &mixes, skeleton, animations, &mut extra);
        if !extra.is_empty() {
            diagnostics.extend(extra);
            diagnostics
                .sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.severity.cmp(&b.severity)));
        }
    }

    /// Every section's and unit's diagnostics in document offsets, sorted.
    pub(super) fn diagnostics(&self, sections: &[CachedSection]) -> Vec<Diagnostic> {
        let start_of = |i: usize| self.starts[i];
        let mut diagnostics: Vec<Diagnostic> = Vec::new();
        for (i, s) in sections.iter().enumerate() {
            diagnostics.extend(s.tree.diagnostics.iter().map(|d| d.clone().shifted(start_of(i))));
        }
        diagnostics.extend(
            self.rig_out
                .diagnostics
                .iter()
                .map(|d| d.diag.clone().shifted(start_of(self.rig_idx[d.ord]))),
        );
        for (g, out) in self.groups.iter().zip(&self.anim_outputs) {
            let idx = &g.sections;
            diagnostics.extend(
                out.diagnostics.iter().map(|d| d.diag.clone().shifted(start_of(idx[d.ord]))),
            );
        }
        if let Some(out) = self.ik_out.as_ref().map(|ik| &ik.output) {
            diagnostics.extend(
                out.diagnostics
                    .iter()
                    .map(|d| d.diag.clone().shifted(start_of(self.ik_idx[d.ord]))),
            );
        }
        diagnostics
            .sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.severity.cmp(&b.severity)));
        diagnostics.dedup();
        diagnostics
    }

    /// Pose assertions: resolved here, evaluated by `check::expect`; their
    /// diagnostics and references join the others.
    pub(super) fn pose_checks(
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
