//! The outline: the skeleton as a tree (bones with their slots and
//! attachments), the skins and the animations with their items, built from
//! the compilation (its armature and source map), never by reading text.
//!
//! The tree is flattened into rows (collapsed bones hide their subtree) once
//! per compilation and drawn virtualised: only the rows on screen are laid
//! out, so thousands of bones scroll smoothly.
//!
//! A click puts the cursor on the row's line and selects the bone or slot on
//! the canvas; the canvas selection and the cursor's bone are highlighted. A
//! bone row's context menu renames the bone with `analysis::rename` (the
//! language server's rename; one undo step) and hides or solos its subtree
//! (`Outline::visibility`: the canvas drops those bones' items from its draw
//! list, so they are neither drawn nor picked; the text is untouched).

use std::collections::HashSet;
use std::ops::Range;

use eframe::egui;

use crate::compile::{Compilation, Target};
use crate::model::{AnimId, BoneId};

use super::Selected;

/// What a row of the outline stands for.
#[derive(Clone, Debug, PartialEq)]
pub enum RowKind {
    /// A section heading ("Skeleton", "Skins", "Animations").
    Heading,
    /// A bone (by full name).
    Bone(String),
    /// A slot (by full name).
    Slot(String),
    /// An attachment of a slot.
    Attachment,
    /// A skin.
    Skin,
    /// An animation.
    Animation,
    /// An animated item of an animation (its bone or slot).
    Item,
}

/// One line of the outline.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Nesting depth (0: a heading).
    pub depth: usize,
    /// The text shown.
    pub label: String,
    /// What it is.
    pub kind: RowKind,
    /// Where it is written (bytes of the text), when known.
    pub span: Option<Range<usize>>,
    /// Whether it has rows under it (a bone with children or slots).
    pub has_children: bool,
    /// Whether those rows are hidden.
    pub collapsed: bool,
}

/// The outline panel's state.
#[derive(Default)]
pub struct Outline {
    /// Bones (full names) whose subtree is folded.
    pub collapsed: HashSet<String>,
    rows: Vec<Row>,
    /// The compilation generation (and fold count) the rows were built for.
    built_for: Option<(u64, usize)>,
    /// The bone or slot last highlighted: when another one is, the tree
    /// scrolls to it.
    followed: Option<String>,
    /// The rename being typed, if any (a bone row's context menu opens it).
    renaming: Option<Renaming>,
    /// Bones (full names) whose subtree the canvas does not draw (view
    /// only: the script is not touched).
    pub hidden: HashSet<String>,
    /// The bone whose subtree alone the canvas draws, if any.
    pub solo: Option<String>,
}

/// What a click in the outline asked for.
pub struct OutlineOutput {
    /// Put the editor cursor here.
    pub jump: Option<Range<usize>>,
    /// Select this on the canvas.
    pub select: Option<Selected>,
    /// Rename a bone: where its name is written (the row's span) and the
    /// new last segment of its name.
    pub rename: Option<(Range<usize>, String)>,
}

/// A rename being typed in the outline: which bone (full name), where its
/// name is written, and the text field's content.
struct Renaming {
    bone: String,
    span: Range<usize>,
    name: String,
    /// Whether the field was focused once (it takes the focus when it opens).
    focused: bool,
}

impl Renaming {
    /// A rename of bone `bone` written at `span`, the field holding its
    /// last segment.
    fn of(bone: &str, span: Range<usize>) -> Self {
        let short = bone.rsplit('.').next().unwrap_or(bone).to_owned();
        Renaming { bone: bone.to_owned(), span, name: short, focused: false }
    }
}

impl Row {
    /// A section heading.
    fn heading(label: String, has_children: bool) -> Row {
        Row { depth: 0, label, kind: RowKind::Heading, span: None, has_children, collapsed: false }
    }

    /// A row with no rows under it.
    fn leaf(depth: usize, label: String, kind: RowKind, span: Option<Range<usize>>) -> Row {
        Row { depth, label, kind, span, has_children: false, collapsed: false }
    }
}

/// The outline's rows for `comp`, bones under their parents, with the
/// subtrees of `collapsed` bones left out.
pub fn rows(comp: &Compilation, collapsed: &HashSet<String>) -> Vec<Row> {
    let mut out = Vec::new();
    skeleton_rows(comp, collapsed, &mut out);
    skin_rows(comp, &mut out);
    animation_rows(comp, &mut out);
    out
}

/// The skeleton as a tree, by index: each bone's children and slots, each
/// slot's attachments.
struct Tree {
    roots: Vec<usize>,
    children: Vec<Vec<usize>>,
    slots_of: Vec<Vec<usize>>,
    attachments_of: Vec<Vec<usize>>,
}

impl Tree {
    fn of(sk: &crate::model::Skeleton) -> Tree {
        let n = sk.bones.len();
        // Children lists (bones come after their parents in the model).
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut roots = Vec::new();
        for (i, b) in sk.bones.iter().enumerate() {
            match b.parent.map(BoneId::index).filter(|&p| p < n) {
                Some(p) => children[p].push(i),
                None => roots.push(i),
            }
        }
        let mut slots_of: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, s) in sk.slots.iter().enumerate() {
            if let Some(v) = slots_of.get_mut(s.bone.index()) {
                v.push(i);
            }
        }
        let mut attachments_of: Vec<Vec<usize>> = vec![Vec::new(); sk.slots.len()];
        for (i, a) in sk.attachments.iter().enumerate() {
            if let Some(v) = attachments_of.get_mut(a.slot.index()) {
                v.push(i);
            }
        }
        Tree { roots, children, slots_of, attachments_of }
    }
}

/// The skeleton's heading and its bones, depth first, each followed by its
/// slots and their attachments, then its children.
fn skeleton_rows(comp: &Compilation, collapsed: &HashSet<String>, out: &mut Vec<Row>) {
    let sk = &comp.armature.skeleton;
    let src = &comp.sources;
    let n = sk.bones.len();
    let tree = Tree::of(sk);
    let s = super::editor::problems::plural(n);
    out.push(Row::heading(format!("Skeleton ({n} bone{s})"), n > 0));
    // Depth-first, with an explicit stack (no recursion on user-sized trees).
    let mut stack: Vec<(usize, usize)> = tree.roots.iter().rev().map(|&r| (r, 1)).collect();
    while let Some((b, depth)) = stack.pop() {
        let bone = &sk.bones[b];
        let short = bone.name.rsplit('.').next().unwrap_or(&bone.name).to_owned();
        let has_children = !tree.children[b].is_empty() || !tree.slots_of[b].is_empty();
        let folded = collapsed.contains(&bone.name);
        out.push(Row {
            depth,
            label: short,
            kind: RowKind::Bone(bone.name.clone()),
            span: src.bones.get(b).copied().flatten().map(|s| s.range()),
            has_children,
            collapsed: folded && has_children,
        });
        if folded {
            continue;
        }
        for &s in &tree.slots_of[b] {
            slot_rows(comp, s, &tree.attachments_of[s], depth + 1, out);
        }
        for &c in tree.children[b].iter().rev() {
            stack.push((c, depth + 1));
        }
    }
}

/// Slot `s` at `depth` and its `attachments` under it.
fn slot_rows(
    comp: &Compilation,
    s: usize,
    attachments: &[usize],
    depth: usize,
    out: &mut Vec<Row>,
) {
    let sk = &comp.armature.skeleton;
    let src = &comp.sources;
    let slot = &sk.slots[s];
    out.push(Row::leaf(
        depth,
        format!("@{}", slot.name.rsplit('.').next().unwrap_or(&slot.name)),
        RowKind::Slot(slot.name.clone()),
        src.slots.get(s).map(|s| s.range()),
    ));
    for &a in attachments {
        let def = src.slot_defs.iter().find(|d| d.attachment.map(|x| x.index()) == Some(a));
        let name = &sk.attachments[a].name;
        let label = if name.is_empty() { "(attachment)".into() } else { format!("[{name}]") };
        out.push(Row::leaf(depth + 1, label, RowKind::Attachment, def.map(|d| d.line.range())));
    }
}

/// The skins but the default, under their heading, if there are any.
fn skin_rows(comp: &Compilation, out: &mut Vec<Row>) {
    let sk = &comp.armature.skeleton;
    if sk.skins.len() <= 1 {
        return;
    }
    out.push(Row::heading("Skins".into(), true));
    for (i, skin) in sk.skins.iter().enumerate().skip(1) {
        let first = comp.sources.skin_entries.iter().find(|e| e.skin.index() == i);
        out.push(Row::leaf(1, skin.name.clone(), RowKind::Skin, first.map(|e| e.region.range())));
    }
}

/// The animations, each with the bones and slots it animates, under their
/// heading, if there are any.
fn animation_rows(comp: &Compilation, out: &mut Vec<Row>) {
    let arm = &comp.armature;
    let (sk, src) = (&arm.skeleton, &comp.sources);
    if arm.animations.is_empty() {
        return;
    }
    out.push(Row::heading("Animations".into(), true));
    for (i, a) in arm.animations.iter().enumerate() {
        out.push(Row {
            has_children: true,
            ..Row::leaf(
                1,
                if a.name.is_empty() { "(unnamed)".into() } else { a.name.clone() },
                RowKind::Animation,
                src.animations.get(i).map(|s| s.range()),
            )
        });
        let id = AnimId::from_index(i);
        for item in src.items.iter().filter(|it| it.anim == id) {
            let label = match item.target {
                Some(Target::Bone(b)) => sk.bones.get(b.index()).map(|b| b.name.clone()),
                Some(Target::Slot(s)) => sk.slots.get(s.index()).map(|s| format!("@{}", s.name)),
                _ => None,
            };
            out.push(Row::leaf(
                2,
                label.unwrap_or_else(|| "(unresolved)".into()),
                RowKind::Item,
                Some(item.region.range()),
            ));
        }
    }
}

impl Outline {
    /// The rows for `comp` (rebuilt only when the compilation or the folds
    /// changed).
    pub fn rows(&mut self, comp: &Compilation, generation: u64) -> &[Row] {
        let key = (generation, self.collapsed.len());
        if self.built_for != Some(key) {
            self.rows = rows(comp, &self.collapsed);
            self.built_for = Some(key);
        }
        &self.rows
    }

    /// Draws the outline; `selected` (from the canvas) and `cursor_bone`
    /// (the bone of the editor cursor's line) are highlighted. While
    /// `stale` (the canvas shows the last error-free armature because the
    /// broken text lost parts of it) the outline keeps the rows it showed
    /// then, like the canvas, and neither jumps nor renames: their places
    /// in the text may have moved.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        comp: &Compilation,
        generation: u64,
        stale: bool,
        selected: Option<&Selected>,
        cursor_bone: Option<&str>,
    ) -> OutlineOutput {
        let mut out = OutlineOutput { jump: None, select: None, rename: None };
        ui.strong("Outline");
        let keep = stale && self.built_for.is_some();
        if keep {
            ui.label(
                egui::RichText::new("The script has errors: this is the last error-free outline")
                    .small()
                    .color(ui.visuals().warn_fg_color),
            )
            .on_hover_text("Fix the errors to jump to lines or rename from here again");
        } else {
            self.rename_field(ui, &mut out);
        }
        let rows = if keep { self.rows.clone() } else { self.rows(comp, generation).to_vec() };
        let row_h = ui.spacing().interact_size.y;
        let mut toggle: Option<String> = None;
        // Selected on the canvas or under the editor cursor: scrolled to
        // when it changes.
        let focus = match selected {
            Some(Selected::Bone(n) | Selected::Slot(n)) => Some(n.as_str()),
            None => cursor_bone,
        };
        let mut area =
            egui::ScrollArea::both().id_salt("outline.scroll").auto_shrink([false, false]);
        if focus != self.followed.as_deref() {
            self.followed = focus.map(str::to_owned);
            if let Some(y) = scroll_to(ui, &rows, focus, row_h) {
                area = area.vertical_scroll_offset(y);
            }
        }
        let mut row_ui = RowUi {
            selected,
            cursor_bone,
            toggle: &mut toggle,
            out: &mut out,
            followed: &mut self.followed,
            renaming: &mut self.renaming,
            hidden: &mut self.hidden,
            solo: &mut self.solo,
        };
        area.show_rows(ui, row_h, rows.len(), |ui, range| {
            for row in &rows[range] {
                ui.horizontal(|ui| row_ui.show(ui, row));
            }
        });
        if let Some(name) = toggle
            && !self.collapsed.remove(&name)
        {
            self.collapsed.insert(name);
        }
        if keep {
            out.jump = None;
            out.rename = None;
        }
        out
    }

    /// Which bones of `sk` the canvas draws, by index: a bone is hidden when
    /// it or a bone above it is in [`Outline::hidden`], or when a solo bone
    /// is set and it is neither that bone nor below it. `None` when every
    /// bone is drawn.
    pub fn visibility(&self, sk: &crate::model::Skeleton) -> Option<Vec<bool>> {
        if self.hidden.is_empty() && self.solo.is_none() {
            return None;
        }
        let n = sk.bones.len();
        let mut out = Vec::with_capacity(n);
        for b in &sk.bones {
            let (mut hidden, mut in_solo) = (false, self.solo.is_none());
            let mut at = Some(b);
            // Up the parent chain: at most one step per bone.
            for _ in 0..=n {
                let Some(x) = at else { break };
                hidden |= self.hidden.contains(&x.name);
                in_solo |= self.solo.as_deref() == Some(x.name.as_str());
                at = x.parent.and_then(|p| sk.bones.get(p.index()));
            }
            out.push(in_solo && !hidden);
        }
        Some(out)
    }

    /// Opens the rename field for the bone of `row` (what its context
    /// menu's "Rename…" does); other rows are left alone.
    pub fn begin_rename(&mut self, row: &Row) {
        if let (RowKind::Bone(n), Some(span)) = (&row.kind, &row.span) {
            self.renaming = Some(Renaming::of(n, span.clone()));
        }
    }

    /// The field where a bone's new name is typed (under the heading while
    /// a rename is open): Enter or "Rename" asks for it, Escape or "Cancel"
    /// drops it.
    fn rename_field(&mut self, ui: &mut egui::Ui, out: &mut OutlineOutput) {
        let Some(rn) = self.renaming.as_mut() else { return };
        let mut done = false;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(format!("Rename `{}` to", rn.bone));
            let field = ui.add(
                egui::TextEdit::singleline(&mut rn.name)
                    .desired_width(120.0)
                    .id_salt("outline.rename"),
            );
            let field = field.labelled_by(label.id);
            if !rn.focused {
                field.request_focus();
                rn.focused = true;
            }
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if enter || ui.button("Rename").clicked() {
                out.rename = Some((rn.span.clone(), rn.name.trim().to_owned()));
                done = true;
            }
            if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                done = true;
            }
        });
        if done {
            self.renaming = None;
        }
    }
}

/// The scroll offset that puts the row of bone or slot `focus` in the
/// middle of the view, if it has a row.
fn scroll_to(ui: &egui::Ui, rows: &[Row], focus: Option<&str>, row_h: f32) -> Option<f32> {
    let f = focus?;
    let i = rows.iter().position(|r| match &r.kind {
        RowKind::Bone(n) | RowKind::Slot(n) => n == f,
        _ => false,
    })?;
    let step = row_h + ui.spacing().item_spacing.y;
    let view = ui.available_height();
    Some((i as f32 * step - view / 2.0).max(0.0))
}

/// What drawing the outline's rows reads and changes.
struct RowUi<'a> {
    /// Selected on the canvas.
    selected: Option<&'a Selected>,
    /// The bone of the editor cursor's line.
    cursor_bone: Option<&'a str>,
    /// The bone whose fold button was clicked.
    toggle: &'a mut Option<String>,
    out: &'a mut OutlineOutput,
    followed: &'a mut Option<String>,
    renaming: &'a mut Option<Renaming>,
    hidden: &'a mut HashSet<String>,
    solo: &'a mut Option<String>,
}

impl RowUi<'_> {
    /// One row: its fold button, its name (highlighted when selected,
    /// greyed when hidden on the canvas), a bone's context menu.
    fn show(&mut self, ui: &mut egui::Ui, row: &Row) {
        ui.add_space(row.depth as f32 * 12.0);
        let fold_w = 18.0;
        if row.has_children && matches!(row.kind, RowKind::Bone(_)) {
            let arrow = if row.collapsed { "+" } else { "-" };
            let b = egui::Button::new(arrow).small().min_size([fold_w, 0.0].into());
            if ui.add(b).on_hover_text("Fold or unfold").clicked()
                && let RowKind::Bone(name) = &row.kind
            {
                *self.toggle = Some(name.clone());
            }
        } else if row.depth > 0 {
            // Leaves line up with the names of their siblings.
            ui.add_space(fold_w + ui.spacing().item_spacing.x);
        }
        let on = match (&row.kind, self.selected) {
            (RowKind::Bone(n), Some(Selected::Bone(s))) => n == s,
            (RowKind::Slot(n), Some(Selected::Slot(s))) => n == s,
            (RowKind::Bone(n), None) => Some(n.as_str()) == self.cursor_bone,
            _ => false,
        };
        let r = ui.add(egui::Button::selectable(on, self.label(row)));
        if let (RowKind::Bone(n), Some(span)) = (&row.kind, &row.span) {
            r.context_menu(|ui| self.bone_menu(ui, n, span));
        }
        if r.clicked() {
            self.out.jump = row.span.clone();
            self.out.select = match &row.kind {
                RowKind::Bone(n) => Some(Selected::Bone(n.clone())),
                RowKind::Slot(n) => Some(Selected::Slot(n.clone())),
                _ => None,
            };
            // Selected here, so already in view: no scroll.
            if let RowKind::Bone(n) | RowKind::Slot(n) = &row.kind {
                *self.followed = Some(n.clone());
            }
        }
    }

    /// A row's name: strong for a heading, weak for a bone hidden on the
    /// canvas (or left out by a solo).
    fn label(&self, row: &Row) -> egui::RichText {
        let text = if row.depth == 0 {
            egui::RichText::new(&row.label).strong()
        } else {
            egui::RichText::new(&row.label)
        };
        match &row.kind {
            RowKind::Bone(n)
                if self.hidden.contains(n)
                    || self
                        .solo
                        .as_ref()
                        .is_some_and(|s| n != s && !n.starts_with(&format!("{s}."))) =>
            {
                text.weak().italics()
            }
            _ => text,
        }
    }

    /// A bone row's context menu: rename, hide or show, solo or unsolo.
    fn bone_menu(&mut self, ui: &mut egui::Ui, n: &str, span: &Range<usize>) {
        if ui.button("Rename…").clicked() {
            *self.renaming = Some(Renaming::of(n, span.clone()));
            ui.close();
        }
        let is_hidden = self.hidden.contains(n);
        if ui.button(if is_hidden { "Show" } else { "Hide" }).clicked() {
            if !self.hidden.remove(n) {
                self.hidden.insert(n.to_owned());
            }
            ui.close();
        }
        let is_solo = self.solo.as_deref() == Some(n);
        if ui.button(if is_solo { "Unsolo" } else { "Solo" }).clicked() {
            *self.solo = (!is_solo).then(|| n.to_owned());
            ui.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_nests_bones_slots_and_attachments_and_lists_skins_and_animations() {
        let text = "skeleton\n\thip l10\n\thip.arm l5\n\t\t@ :rect w1 h1\n\thip.leg l5\nskin \"red\"\n\t@arm :circle d2\nanim \"wave\"\n\tarm\n\t\tr 0 -> 9\n";
        let comp = crate::compile::compile(text);
        let rows = rows(&comp, &HashSet::new());
        let shown: Vec<(usize, &str)> = rows.iter().map(|r| (r.depth, r.label.as_str())).collect();
        assert_eq!(
            shown,
            [
                (0, "Skeleton (3 bones)"),
                (1, "hip"),
                (2, "arm"),
                (3, "@arm"),
                (4, "[arm]"),
                (2, "leg"),
                (0, "Skins"),
                (1, "red"),
                (0, "Animations"),
                (1, "wave"),
                (2, "hip.arm"),
            ]
        );
        // Each row points at its own text.
        let at =
            |label: &str| rows.iter().find(|r| r.label == label).unwrap().span.clone().unwrap();
        assert_eq!(&text[at("arm")], "hip.arm");
        assert!(text[at("wave")].contains("wave"));
        assert!(text[at("[arm]")].starts_with("@ :rect"));
        // Folding `hip` hides its subtree.
        let folded = super::rows(&comp, &HashSet::from(["hip".to_string()]));
        assert!(folded.iter().all(|r| r.label != "arm" && r.label != "leg"));
        assert!(folded.iter().any(|r| r.label == "hip" && r.collapsed));
    }

    #[test]
    fn hide_takes_a_subtree_away_and_solo_keeps_one() {
        let text =
            "skeleton\n\thip l10\n\thip.torso l5\n\thip.torso.head l5\n\thip.leg l5\n\tprop l3\n";
        let comp = crate::compile::compile(text);
        let sk = &*comp.armature.skeleton;
        let shown = |o: &Outline| -> Vec<&str> {
            let v = o.visibility(sk).unwrap_or_else(|| vec![true; sk.bones.len()]);
            let mut names: Vec<&str> =
                sk.bones.iter().zip(v).filter(|(_, v)| *v).map(|(b, _)| b.name.as_str()).collect();
            names.sort_unstable();
            names
        };
        let mut o = Outline::default();
        assert!(o.visibility(sk).is_none(), "everything drawn");
        o.hidden.insert("hip.torso".into());
        assert_eq!(shown(&o), ["hip", "hip.leg", "prop"]);
        o.solo = Some("hip".into());
        assert_eq!(shown(&o), ["hip", "hip.leg"]);
        o.hidden.clear();
        assert_eq!(shown(&o), ["hip", "hip.leg", "hip.torso", "hip.torso.head"]);
        o.solo = Some("hip.torso.head".into());
        assert_eq!(shown(&o), ["hip.torso.head"]);
    }

    #[test]
    fn five_thousand_bones_build_without_recursion() {
        let mut text = String::from("skeleton\n\tb0 l1\n");
        let mut path = String::from("b0");
        for i in 1..5000 {
            path.push_str(&format!(".b{i}"));
            if i % 50 == 0 {
                path = format!("b{i}");
            }
            text.push_str(&format!("\t{path} l1\n"));
        }
        let comp = crate::compile::compile(&text);
        let n = comp.armature.skeleton.bones.len();
        let rows = rows(&comp, &HashSet::new());
        assert_eq!(rows.iter().filter(|r| matches!(r.kind, RowKind::Bone(_))).count(), n);
    }
}
