//! Choosing keys and rows — click, Shift-click, a box dragged on empty
//! space — and the keys that act on the choice: Delete, Ctrl+C, Ctrl+V
//! (onto the row under the pointer or chosen last) and K (a key at the
//! playhead).

use crate::app::keymap;
use crate::compile::KeyOrigin;

use super::draw::Item;
use super::{CopiedKey, DopeInput, DopeOutput, Dopesheet, RowId};

impl Dopesheet {
    /// A click on key `key` (its widget `id`, on row `row`): it alone is
    /// selected, or with Shift it joins (or leaves) the selection.
    pub(super) fn click_key(
        &mut self,
        ui: &egui::Ui,
        key: (usize, usize),
        id: egui::Id,
        row: RowId,
    ) {
        let shift = ui.input(|i| i.modifiers.contains(keymap::EXTEND_SELECTION));
        match self.selected.iter().position(|s| *s == key) {
            Some(at) if shift => {
                self.selected.remove(at);
            }
            None if shift => self.selected.push(key),
            _ => self.selected = vec![key],
        }
        self.focus = Some(id);
        self.current = Some(row);
    }

    /// The box being dragged (drawn within `area`); when the button is up,
    /// every key `drawn` inside it is selected (with Shift, added).
    pub(super) fn box_select(
        &mut self,
        ui: &egui::Ui,
        area: egui::Rect,
        drawn: &[((usize, usize), egui::Pos2)],
    ) {
        let Some((from, last)) = self.boxing else { return };
        let (pos, down, shift) =
            ui.input(|i| (i.pointer.interact_pos(), i.pointer.primary_down(), i.modifiers.shift));
        let to = pos.unwrap_or(last);
        let rect = egui::Rect::from_two_pos(from, to);
        if down {
            self.boxing = Some((from, to));
            ui.ctx().request_repaint();
            let color = ui.visuals().selection.stroke.color;
            let painter = ui.painter_at(area);
            painter.rect_filled(rect, 0.0, color.gamma_multiply(0.15));
            painter.rect_stroke(rect, 0.0, egui::Stroke::new(1.0, color), egui::StrokeKind::Inside);
            return;
        }
        self.boxing = None;
        if !shift {
            self.selected.clear();
        }
        for (key, _) in drawn.iter().filter(|(_, c)| rect.expand(2.0).contains(*c)) {
            if !self.selected.contains(key) {
                self.selected.push(*key);
            }
        }
        // Delete acts on the boxed keys while no widget has the keyboard.
        self.focus = None;
        ui.ctx().request_repaint();
    }

    /// Delete, Ctrl+C, Ctrl+V and K, while no text field has the keyboard.
    pub(super) fn keyboard(
        &mut self,
        ui: &egui::Ui,
        input: &DopeInput<'_>,
        items: &[Item],
        out: &mut DopeOutput,
    ) {
        let ctx = ui.ctx();
        if crate::app::editor::text_field_focused(ctx) {
            return;
        }
        let focused = match self.focus {
            Some(id) => ctx.memory(|m| m.has_focus(id)),
            None => ctx.memory(|m| m.focused().is_none()),
        };
        if focused
            && !self.selected.is_empty()
            && ui.input(|i| {
                i.key_pressed(keymap::DELETE_KEYS.logical_key)
                    || i.key_pressed(keymap::DELETE_KEYS_BACK.logical_key)
            })
        {
            out.delete = true;
        }
        // (egui turns Ctrl+C/Ctrl+V into events, or keys in tests.)
        let (copy, paste, key) = ui.input(|i| {
            let key = |s: egui::KeyboardShortcut| {
                i.modifiers.matches_logically(s.modifiers) && i.key_pressed(s.logical_key)
            };
            (
                i.events.iter().any(|e| matches!(e, egui::Event::Copy)) || key(keymap::COPY_KEYS),
                i.events.iter().any(|e| matches!(e, egui::Event::Paste(_)))
                    || key(keymap::PASTE_KEYS),
                i.modifiers.is_none() && key(keymap::INSERT_KEY),
            )
        });
        if copy && !self.selected.is_empty() {
            self.copy(ui, input);
        }
        if paste && !self.clipboard.is_empty() {
            out.paste = Some(self.paste_onto(self.hovered.or(self.current)));
        }
        if key && input.editable {
            out.insert = self.to_key(input, items);
        }
    }

    /// Ctrl+C: the selected keys (plain ones) go to the dopesheet's
    /// clipboard, their values to the system's.
    fn copy(&mut self, ui: &egui::Ui, input: &DopeInput<'_>) {
        let src = &input.comp.sources;
        let mut keys: Vec<(CopiedKey, f64)> = Vec::new();
        for &(i, j) in &self.selected {
            let Some(tl) = src.timelines.get(i) else { continue };
            let Some(k) = src.keys_of(tl).get(j).copied() else { continue };
            if k.origin != KeyOrigin::Plain {
                continue;
            }
            let token = input.text.get(k.span.range()).unwrap_or_default().to_owned();
            let c = CopiedKey { target: tl.target, prop: tl.prop, offset: 0.0, token };
            keys.push((c, k.frame));
        }
        let first = keys.iter().map(|(_, f)| *f).fold(f64::INFINITY, f64::min);
        self.clipboard = keys
            .into_iter()
            .map(|(mut c, f)| {
                c.offset = f - first;
                c
            })
            .collect();
        // The system clipboard gets the values too: egui only reports a
        // Ctrl+V (as a paste) when the clipboard holds text.
        let values: Vec<&str> = self.clipboard.iter().map(|c| c.token.as_str()).collect();
        ui.ctx().copy_text(values.join(" "));
    }

    /// The copied keys as they are pasted onto `row`: keys of one item go
    /// to the row's item (and to the row's property, on a property row,
    /// when they are all of one property); keys of several items go back
    /// to their own.
    pub fn paste_onto(&self, row: Option<RowId>) -> Vec<CopiedKey> {
        let mut keys = self.clipboard.clone();
        let Some(row) = row else { return keys };
        let Some(first) = keys.first().cloned() else { return keys };
        if keys.iter().any(|k| k.target != first.target) {
            return keys;
        }
        let one_prop = keys.iter().all(|k| k.prop == first.prop);
        for k in &mut keys {
            k.target = row.target;
            if let Some(p) = row.prop.filter(|_| one_prop) {
                k.prop = p;
            }
        }
        keys
    }

    /// K: the timelines to key at the playhead — the row's under the
    /// pointer, else the row's chosen last, else the selected item's.
    fn to_key(&self, input: &DopeInput<'_>, items: &[Item]) -> Vec<usize> {
        let row = self
            .hovered
            .or(self.current)
            .or(input.selected_item.map(|t| RowId { target: Some(t), prop: None }));
        let Some(row) = row else { return Vec::new() };
        let src = &input.comp.sources;
        items
            .iter()
            .filter(|it| it.target == row.target)
            .flat_map(|it| it.timelines.iter().copied())
            .filter(|&i| {
                let tl = &src.timelines[i];
                tl.effective && row.prop.is_none_or(|p| p == tl.prop)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CopiedKey, Dopesheet, RowId, paste_keys};
    use crate::compile::compile;
    use crate::model::AnimId;

    const RIG: &str = "skeleton\n\ta l10\n\tb l10\nanim \"m\" 20fps 0:5:li\n";

    #[test]
    fn a_slot_row_is_labelled_by_its_last_segment() {
        let text =
            "skeleton\n\ta l10\n\t\t@ :circle d10\nanim \"m\" 20fps\n\t@a\n\t\tc #F00 -> #0F0\n";
        let comp = compile(text);
        let name = super::super::target_name(&comp, comp.sources.timelines[0].target);
        assert_eq!((name.as_str(), super::super::short_name(&name).as_str()), ("@a.a", "@a"));
    }

    /// The frames of every timeline, compiled anew.
    fn frames(text: &str) -> Vec<Vec<f64>> {
        let comp = compile(text);
        let src = &comp.sources;
        src.timelines.iter().map(|t| src.keys_of(t).iter().map(|k| k.frame).collect()).collect()
    }

    #[test]
    fn copied_keys_go_to_the_row_they_are_pasted_on() {
        use crate::syntax::tree::TimelineProp;
        let text = format!("{RIG}\ta\n\t\tr 0 -> 10\n\t\tx 0 -> 10\n\tb\n\t\tr 0 -> 10\n");
        let comp = compile(&text);
        let (a, b) = (comp.sources.timelines[0].target, comp.sources.timelines[2].target);
        let key = |target, prop, offset: f64| CopiedKey { target, prop, offset, token: "7".into() };
        let sheet = Dopesheet {
            clipboard: vec![
                key(a, TimelineProp::Rotation, 0.0),
                key(a, TimelineProp::Rotation, 2.0),
            ],
            ..Dopesheet::default()
        };
        // Onto b's item row: b's rotation, offsets kept.
        let onto = sheet.paste_onto(Some(RowId { target: b, prop: None }));
        assert_eq!(
            onto,
            vec![key(b, TimelineProp::Rotation, 0.0), key(b, TimelineProp::Rotation, 2.0)]
        );
        // Onto a property row: that property.
        let onto = sheet.paste_onto(Some(RowId { target: a, prop: Some(TimelineProp::X) }));
        assert!(onto.iter().all(|k| k.target == a && k.prop == TimelineProp::X));
        // Keys of two items go back to their own, wherever they are pasted.
        let mixed = Dopesheet {
            clipboard: vec![
                key(a, TimelineProp::Rotation, 0.0),
                key(b, TimelineProp::Rotation, 0.0),
            ],
            ..Dopesheet::default()
        };
        let row = Some(RowId { target: b, prop: None });
        assert_eq!(mixed.paste_onto(row), mixed.clipboard);
        // And pasted at frame 6 onto b, the keys land at 6 and 8 (compiled anew).
        let keys = sheet.paste_onto(Some(RowId { target: b, prop: None }));
        let out = paste_keys(&text, &comp, AnimId::from_index(0), &keys, 6.0).unwrap();
        assert_eq!(frames(&out)[2], vec![0.0, 5.0, 6.0, 8.0]);
    }
}
