//! Drawing the dopesheet: an item row per animated bone or slot, a row per
//! property under an open item, a diamond per key (eased keys are dots),
//! all on the [`FrameScale`] the scrub bar above uses.

use crate::app::keymap;
use crate::compile::{Compilation, KeyOrigin, KeySource, Target};
use skelpad_ide::edits::format_number;

use super::{
    DopeInput, DopeOutput, Dopesheet, FrameScale, RowId, easing_name, fingerprint, key_easing,
    short_name, target_name,
};

/// The rows' height.
const ROW: f32 = 16.0;

/// An animated item: its name, its bone or slot and its timelines (indices
/// into `comp.sources.timelines`), in the order they are written.
pub(super) struct Item {
    pub name: String,
    pub target: Option<Target>,
    pub timelines: Vec<usize>,
}

/// The items of animation `anim`, in the order they are written.
pub(super) fn items_of(comp: &Compilation, anim: crate::model::AnimId) -> Vec<Item> {
    let mut items: Vec<Item> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = Default::default();
    for (i, t) in comp.sources.timelines.iter().enumerate().filter(|(_, t)| t.anim == anim) {
        let name = target_name(comp, t.target);
        match index.get(&name) {
            Some(&at) => items[at].timelines.push(i),
            None => {
                index.insert(name.clone(), items.len());
                items.push(Item { name, target: t.target, timelines: vec![i] });
            }
        }
    }
    items
}

/// What every row of one frame shares.
struct Frame<'a> {
    input: &'a DopeInput<'a>,
    scale: FrameScale,
    visuals: egui::Visuals,
    /// Where the pointer is, and where the button went down (a drag is
    /// measured from there: egui starts it a few points later).
    pointer_x: Option<f32>,
    press_x: Option<f32>,
    /// Every key drawn this frame, with its centre (for box selection).
    drawn: Vec<((usize, usize), egui::Pos2)>,
}

const KEY_COLOR: egui::Color32 = egui::Color32::from_rgb(0x40, 0xA0, 0xFF);
const SUMMARY_COLOR: egui::Color32 = egui::Color32::from_rgb(0xE0, 0xA0, 0x20);

/// A key's diamond of half-diagonal `r` centred at `c` (the dopesheet's
/// keys and the scrub bar's ticks).
pub(in crate::app) fn diamond(
    painter: &egui::Painter,
    c: egui::Pos2,
    r: f32,
    fill: egui::Color32,
    stroke: egui::Stroke,
) {
    painter.add(egui::Shape::convex_polygon(
        vec![
            c + egui::vec2(0.0, -r),
            c + egui::vec2(r, 0.0),
            c + egui::vec2(0.0, r),
            c + egui::vec2(-r, 0.0),
        ],
        fill,
        stroke,
    ));
}

/// The lane of a row (right of its label) and its background and playhead.
fn lane(f: &Frame<'_>, painter: &egui::Painter, rect: egui::Rect, fill: egui::Color32) {
    let lane = egui::Rect::from_x_y_ranges(f.scale.x0 - 6.0..=rect.right(), rect.y_range());
    painter.rect_filled(lane, 0.0, fill);
    let px = f.scale.x_of(f.input.playhead);
    painter.line_segment(
        [egui::pos2(px, rect.top()), egui::pos2(px, rect.bottom())],
        egui::Stroke::new(1.0, f.visuals.selection.stroke.color),
    );
}

impl Dopesheet {
    /// Draws the rows of the input's animation (one per item, one per
    /// property under it unless collapsed), the playhead, within the
    /// input's height (the rest scrolls); then box selection and the keys
    /// (Delete, Ctrl+C, Ctrl+V, K).
    pub fn ui(&mut self, ui: &mut egui::Ui, input: &DopeInput<'_>) -> DopeOutput {
        let mut out = DopeOutput::default();
        let print = fingerprint(input.text);
        if print != self.selected_for {
            self.selected.clear();
            self.selected_for = print;
        }
        let comp = input.comp;
        let Some(a) = comp.armature.animations.get(input.anim.index()) else { return out };
        let items = items_of(comp, input.anim);
        if items.is_empty() {
            ui.weak("This animation has no timelines.");
            return out;
        }
        if let Some(all) = self.collapse_all.take() {
            self.collapsed.clear();
            if all {
                self.collapsed.extend(items.iter().map(|i| i.name.clone()));
            }
        }
        // One row per item and one per property of an open item, all ROW
        // high: only the rows in view are drawn (long animations scroll).
        let rows: Vec<(usize, Option<usize>)> = items
            .iter()
            .enumerate()
            .flat_map(|(it, item)| {
                let open = !self.collapsed.contains(&item.name);
                std::iter::once((it, None))
                    .chain(item.timelines.iter().filter(move |_| open).map(move |&i| (it, Some(i))))
            })
            .collect();
        let full = ui.available_rect_before_wrap();
        let mut f = Frame {
            input,
            scale: FrameScale::new(full.left(), full.right(), a.duration_secs * a.fps),
            visuals: ui.visuals().clone(),
            pointer_x: ui.ctx().input(|i| i.pointer.interact_pos()).map(|p| p.x),
            press_x: ui.ctx().input(|i| i.pointer.press_origin()).map(|p| p.x),
            drawn: Vec::new(),
        };
        self.hovered = None;
        // (Rows touch: show_rows places them by the spacing it is called with.)
        let spacing = ui.spacing().item_spacing.y;
        ui.spacing_mut().item_spacing.y = 0.0;
        let area = egui::ScrollArea::vertical()
            .id_salt("dopesheet")
            .max_height(input.max_height)
            // (The panel grows to hold it: without this a scrolling area
            // keeps egui's 64-point minimum.)
            .min_scrolled_height(input.max_height)
            .auto_shrink([false, true])
            // Dragging is for keys and boxes; the wheel and the bar scroll.
            .scroll_source(egui::scroll_area::ScrollSource {
                drag: egui::scroll_area::DragScroll::Never,
                ..egui::scroll_area::ScrollSource::ALL
            })
            .show_rows(ui, ROW, rows.len(), |ui, range| {
                ui.spacing_mut().item_spacing.y = 0.0;
                for &(it, row) in &rows[range] {
                    match row {
                        Some(i) => self.property_row(ui, &mut f, &items[it], i, &mut out),
                        None => self.item_row(ui, &mut f, &items, it, &mut out),
                    }
                }
            });
        ui.spacing_mut().item_spacing.y = spacing;
        self.box_select(ui, area.inner_rect, &f.drawn);
        self.keyboard(ui, input, &items, &mut out);
        out
    }

    /// A row's background: clicking it chooses the row (and clears the
    /// selection, unless Shift is held), dragging on it draws a box, its
    /// menu inserts keys.
    fn row_response(
        &mut self,
        ui: &mut egui::Ui,
        f: &Frame<'_>,
        id: RowId,
        timelines: &[usize],
        out: &mut DopeOutput,
    ) -> (egui::Rect, egui::Response) {
        let (rect, resp) = ui.allocate_exact_size(
            egui::vec2(ui.available_width(), ROW),
            egui::Sense::click_and_drag(),
        );
        if resp.hovered() || resp.contains_pointer() {
            self.hovered = Some(id);
        }
        let in_lane = |p: Option<egui::Pos2>| p.is_some_and(|p| p.x >= f.scale.x0 - 6.0);
        if resp.clicked() && in_lane(resp.interact_pointer_pos()) {
            self.current = Some(id);
            if !ui.input(|i| i.modifiers.contains(keymap::EXTEND_SELECTION)) {
                self.selected.clear();
            }
        }
        if resp.drag_started()
            && let Some(p) = ui.ctx().input(|i| i.pointer.press_origin())
        {
            self.boxing = Some((p, p));
        }
        let frame = format_number(f.input.frame);
        resp.context_menu(|ui| {
            let enabled = f.input.editable;
            if ui
                .add_enabled(enabled, egui::Button::new(format!("Insert key at frame {frame}")))
                .clicked()
            {
                out.insert = timelines.to_vec();
                self.current = Some(id);
                ui.close();
            }
            if ui.button("Collapse all").clicked() {
                self.collapse_all = Some(true);
                ui.close();
            }
            if ui.button("Expand all").clicked() {
                self.collapse_all = Some(false);
                ui.close();
            }
        });
        (rect, resp)
    }

    /// A property row: its name and its keys.
    fn property_row(
        &mut self,
        ui: &mut egui::Ui,
        f: &mut Frame<'_>,
        item: &Item,
        i: usize,
        out: &mut DopeOutput,
    ) {
        let src = &f.input.comp.sources;
        let tl = &src.timelines[i];
        let id = RowId { target: item.target, prop: Some(tl.prop) };
        let (rect, resp) = self.row_response(ui, f, id, &[i], out);
        resp.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Row,
                true,
                format!("Dopesheet row {} {:?}", item.name, tl.prop),
            )
        });
        let painter = ui.painter_at(rect);
        let chosen = self.current == Some(id);
        let bg = if chosen { f.visuals.faint_bg_color } else { f.visuals.extreme_bg_color };
        lane(f, &painter, rect, bg);
        let prop = format!("{:?}", tl.prop);
        let label = if tl.effective { prop } else { format!("{prop} (replaced)") };
        let color = if tl.effective { f.visuals.text_color() } else { f.visuals.weak_text_color() };
        painter.text(
            rect.left_center() + egui::vec2(18.0, 0.0),
            egui::Align2::LEFT_CENTER,
            label,
            egui::FontId::proportional(11.0),
            if chosen { f.visuals.strong_text_color() } else { color },
        );
        for (j, k) in src.keys_of(tl).iter().enumerate() {
            self.key(ui, f, &painter, rect, item, (i, j), k, out);
        }
    }

    /// One key: a diamond (a dot when eased), its tooltip, and clicks
    /// (select, Shift adds, double-click jumps to its token) and drags.
    #[allow(
        clippy::too_many_arguments,
        reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
    )]
    fn key(
        &mut self,
        ui: &mut egui::Ui,
        f: &mut Frame<'_>,
        painter: &egui::Painter,
        rect: egui::Rect,
        item: &Item,
        (i, j): (usize, usize),
        k: &KeySource,
        out: &mut DopeOutput,
    ) {
        let (comp, anim) = (f.input.comp, f.input.anim);
        let tl = &comp.sources.timelines[i];
        let c = egui::pos2(f.scale.x_of(k.frame), rect.center().y);
        f.drawn.push(((i, j), c));
        let hit = egui::Rect::from_center_size(c, egui::vec2(10.0, ROW));
        let id = egui::Id::unique("skelpad.dopesheet-key").with((i, j));
        let resp = ui.interact(hit, id, egui::Sense::click_and_drag());
        let name = &item.name;
        resp.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Button,
                true,
                format!("Key {name} {:?} {}", tl.prop, format_number(k.frame)),
            )
        });
        let value = f.input.text.get(k.span.range()).unwrap_or("?");
        let line = comp.lines.line_of(k.span.start) + 1;
        let easing = key_easing(comp, anim, tl, k);
        let resp = resp.on_hover_text(format!(
            "{name} {:?}: {value} at frame {} (line {line}){}{}",
            tl.prop,
            format_number(k.frame),
            easing.map_or(String::new(), |e| format!(", easing {}", easing_name(e))),
            match k.origin {
                KeyOrigin::Plain => "",
                KeyOrigin::Relative => " — relative value",
                KeyOrigin::Loop => " — made by a loop",
            }
        ));
        if resp.hovered() {
            self.hovered = Some(RowId { target: item.target, prop: Some(tl.prop) });
        }
        if resp.clicked() {
            self.click_key(ui, (i, j), id, RowId { target: item.target, prop: Some(tl.prop) });
            resp.request_focus();
        }
        let is_selected = self.selected.contains(&(i, j));
        let hot = resp.hovered() || resp.dragged() || is_selected;
        let fill = if !tl.effective || k.origin != KeyOrigin::Plain {
            f.visuals.weak_text_color()
        } else {
            KEY_COLOR
        };
        let stroke = if is_selected {
            egui::Stroke::new(2.0, egui::Color32::WHITE)
        } else if hot {
            egui::Stroke::new(1.5, f.visuals.text_color())
        } else {
            egui::Stroke::NONE
        };
        let r = if hot { 5.5 } else { 4.5 };
        // Linear keys are diamonds, eased ones dots (the tooltip names the
        // easing).
        match easing {
            Some(e) if e != crate::model::Easing::Linear => {
                painter.circle(c, r - 0.5, fill, stroke);
            }
            _ => diamond(painter, c, r, fill, stroke),
        }
        if resp.double_clicked() {
            out.jump = Some(k.span);
        }
        if f.input.editable {
            self.key_drag(f, &resp, (i, j), out);
        }
    }

    /// A key's drag: where it began, how many whole frames it has gone,
    /// its end.
    fn key_drag(
        &mut self,
        f: &Frame<'_>,
        resp: &egui::Response,
        key: (usize, usize),
        out: &mut DopeOutput,
    ) {
        if resp.drag_started() {
            self.drag = f.press_x.or(f.pointer_x).map(|x| (x, f.scale.per_frame.max(1e-3)));
            out.drag_start = Some(key);
        } else if resp.dragged()
            && let (Some((x0, ppf)), Some(x)) = (self.drag, f.pointer_x)
        {
            out.drag_to = Some(((x - x0) / ppf).round() as f64);
        }
        if resp.drag_stopped() {
            self.drag = None;
            out.drag_end = true;
        }
    }

    /// An item row: its open/closed arrow and name, and every key of its
    /// timelines (a click left of the lane opens or closes it).
    fn item_row(
        &mut self,
        ui: &mut egui::Ui,
        f: &mut Frame<'_>,
        items: &[Item],
        it: usize,
        out: &mut DopeOutput,
    ) {
        let item = &items[it];
        let open = !self.collapsed.contains(&item.name);
        let id = RowId { target: item.target, prop: None };
        let (rect, resp) = self.row_response(ui, f, id, &item.timelines, out);
        let painter = ui.painter_at(rect);
        let chosen = self.current == Some(id);
        lane(f, &painter, rect, f.visuals.faint_bg_color);
        // The open/closed arrow, drawn (the fonts may lack ▸ ▾).
        let a = rect.left_center() + egui::vec2(7.0, 0.0);
        let tri = if open {
            vec![a + egui::vec2(-4.0, -2.5), a + egui::vec2(4.0, -2.5), a + egui::vec2(0.0, 3.5)]
        } else {
            vec![a + egui::vec2(-2.5, -4.0), a + egui::vec2(3.5, 0.0), a + egui::vec2(-2.5, 4.0)]
        };
        let text = f.visuals.text_color();
        painter.add(egui::Shape::convex_polygon(tri, text, egui::Stroke::NONE));
        painter.text(
            rect.left_center() + egui::vec2(14.0, 0.0),
            egui::Align2::LEFT_CENTER,
            // The last segment of a dotted bone path, as items are written.
            short_name(&item.name),
            egui::FontId::proportional(12.0),
            if chosen { f.visuals.strong_text_color() } else { text },
        );
        if resp.clicked() && resp.interact_pointer_pos().is_some_and(|p| p.x < f.scale.x0 - 6.0) {
            if open {
                self.collapsed.insert(item.name.clone());
            } else {
                self.collapsed.remove(&item.name);
            }
        }
        resp.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Button,
                true,
                format!("Dopesheet item {}", item.name),
            )
        });
        self.summary_keys(ui, f, &painter, rect, item, out);
    }

    /// The item row's keys: one diamond per frame where any of its
    /// timelines has a key. Clicking one selects all of them (Shift adds);
    /// dragging one moves them together.
    fn summary_keys(
        &mut self,
        ui: &mut egui::Ui,
        f: &Frame<'_>,
        painter: &egui::Painter,
        rect: egui::Rect,
        item: &Item,
        out: &mut DopeOutput,
    ) {
        let src = &f.input.comp.sources;
        let mut at: Vec<(f64, Vec<(usize, usize)>)> = Vec::new();
        for &i in &item.timelines {
            for (j, k) in src.keys_of(&src.timelines[i]).iter().enumerate() {
                match at.iter_mut().find(|(fr, _)| (fr - k.frame).abs() < 1e-9) {
                    Some((_, keys)) => keys.push((i, j)),
                    None => at.push((k.frame, vec![(i, j)])),
                }
            }
        }
        for (frame, keys) in at {
            let c = egui::pos2(f.scale.x_of(frame), rect.center().y);
            let id = egui::Id::unique("skelpad.dopesheet-summary").with((&item.name, keys[0]));
            let hit = egui::Rect::from_center_size(c, egui::vec2(10.0, ROW));
            let resp = ui.interact(hit, id, egui::Sense::click_and_drag());
            resp.widget_info(|| {
                let label = format!("Keys {} {}", item.name, format_number(frame));
                egui::WidgetInfo::labeled(egui::Role::Button, true, label)
            });
            let shift = ui.input(|i| i.modifiers.contains(keymap::EXTEND_SELECTION));
            if resp.clicked() || resp.drag_started() {
                // (A drag of keys already selected keeps the selection.)
                let keep = resp.drag_started() && keys.iter().all(|k| self.selected.contains(k));
                if !(shift || keep) {
                    self.selected.clear();
                }
                for k in &keys {
                    if !self.selected.contains(k) {
                        self.selected.push(*k);
                    }
                }
                self.focus = Some(id);
                self.current = Some(RowId { target: item.target, prop: None });
                resp.request_focus();
            }
            let selected = keys.iter().all(|k| self.selected.contains(k));
            let hot = resp.hovered() || resp.dragged();
            let stroke = match (selected, hot) {
                (true, _) => egui::Stroke::new(1.5, egui::Color32::WHITE),
                (false, true) => egui::Stroke::new(1.5, f.visuals.text_color()),
                _ => egui::Stroke::NONE,
            };
            diamond(painter, c, if hot || selected { 4.5 } else { 3.5 }, SUMMARY_COLOR, stroke);
            if f.input.editable {
                self.key_drag(f, &resp, keys[0], out);
            }
        }
    }
}
