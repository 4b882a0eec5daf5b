//! The first step of an update: which section trees are reused, which
//! are spliced from the last tree (only an edit's items or bone lines
//! parsed, `compile::splice`) and which are left to parse.

use std::sync::Arc;

use super::{CachedSection, Compiler, EditWindow};
use crate::compile::splice;
use crate::syntax::SectionSlice;
use crate::syntax::tree::{Section, SectionKind};

/// What an update does with each section of the new text: `sections`
/// holds those reused or spliced (at their index), `to_parse` the index,
/// new id and text of the others.
pub(super) struct SectionPlan<'t> {
    pub(super) sections: Vec<Option<CachedSection>>,
    pub(super) to_parse: Vec<(usize, u64, &'t str)>,
    /// The `anim` section spliced from its last tree, if one was.
    pub(super) item_edit: Option<ItemEditAt>,
}

/// An `anim` section whose tree an update spliced from the last one's.
#[derive(Clone, Copy)]
pub(super) struct ItemEditAt {
    /// Its position among the sections.
    pub(super) section: usize,
    /// How its items changed.
    pub(super) edit: splice::ItemEdit,
    /// The id of its last tree.
    pub(super) old_id: u64,
}

impl Compiler {
    /// Which sections of `slices` keep their trees from the last update,
    /// which are spliced from the last one's (only an `anim` section's
    /// edited items parsed; how, and the old tree's id) and which are left
    /// to parse: the texts not seen in the last update.
    pub(super) fn plan_sections<'t>(
        &mut self,
        text: &'t str,
        slices: &[SectionSlice],
        window: Option<EditWindow>,
    ) -> SectionPlan<'t> {
        let mut prev: Vec<Option<CachedSection>> =
            std::mem::take(&mut self.sections).into_iter().map(Some).collect();
        // Each section is reused, spliced or left to parse; the ones to parse
        // are parsed afterwards, on several threads when there is enough text.
        let mut plan = SectionPlan {
            sections: Vec::with_capacity(slices.len()),
            to_parse: Vec::new(),
            item_edit: None,
        };
        for (i, sl) in slices.iter().enumerate() {
            let found = unchanged_index(&prev, i, slices.len(), text, sl, window);
            let cached = match found.and_then(|j| prev[j].take()) {
                Some(c) => Some(CachedSection { start: sl.start, ..c }),
                None => self.splice_or_parse(&mut prev, i, text, sl, window, &mut plan),
            };
            plan.sections.push(cached);
        }
        plan
    }

    /// Section `i` (`sl` of `text`), not seen in the last update: spliced
    /// from the last tree at its place when the edit allows it, else left
    /// to parse in `plan` (`None`).
    fn splice_or_parse<'t>(
        &mut self,
        prev: &mut [Option<CachedSection>],
        i: usize,
        text: &'t str,
        sl: &SectionSlice,
        window: Option<EditWindow>,
        plan: &mut SectionPlan<'t>,
    ) -> Option<CachedSection> {
        let src = &text[sl.start as usize..sl.end as usize];
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
        let Some((tree, edit, old_id)) = spliced else {
            plan.to_parse.push((i, id, src));
            return None;
        };
        self.last_spliced_sections += 1;
        // Animations take over their untouched items' results (a
        // skeleton's edit reaches them only through the rig's names).
        if matches!(tree.kind, SectionKind::Anim(_)) {
            plan.item_edit = Some(ItemEditAt { section: i, edit, old_id });
        }
        let (text, len) = (self.kept_text(src), src.len() as u32);
        Some(CachedSection { start: sl.start, id, text, len, tree })
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
        sl: &SectionSlice,
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
}

/// The index among the last update's sections `prev` of one with the text
/// of section `i` (`sl` of `text`, one of `n_new`), if there is one.
fn unchanged_index(
    prev: &[Option<CachedSection>],
    i: usize,
    n_new: usize,
    text: &str,
    sl: &SectionSlice,
    window: Option<EditWindow>,
) -> Option<usize> {
    let src = &text[sl.start as usize..sl.end as usize];
    let (start, end) = (sl.start as usize, sl.end as usize);
    let n_old = prev.len();
    let same_place = |j: usize, shift: isize| {
        prev.get(j).and_then(|p| p.as_ref()).is_some_and(|p| {
            p.start as isize + shift == start as isize && p.len as usize == src.len()
        })
    };
    // Wholly inside the bytes the edit kept at either end, at the same
    // place (after the edit: moved by its length change) and of the same
    // length: the same text, without comparing it.
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
    kept.or_else(|| {
        let hit = prev.get(i).and_then(|p| p.as_ref()).is_some_and(|p| &*p.text == src);
        if hit {
            Some(i)
        } else {
            prev.iter().position(|p| p.as_ref().is_some_and(|p| &*p.text == src))
        }
    })
}
