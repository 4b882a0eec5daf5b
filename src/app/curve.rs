//! The curve editor: with exactly one key selected in the dopesheet, a
//! small graph of its segment (the value from that key to the next over
//! time, the easing's curve sampled from the model's `Curve::progress`)
//! with the two handles of a cubic bezier to drag, and a picker of the
//! named easings. Both write only the easing of that segment into the
//! text, through `skelpad_ide::edits::set_easing` (which proves the edit by
//! compiling it and refuses what the text cannot say for that segment
//! alone; the reason goes to the status bar). A handle drag rewrites the
//! text it started from on every move, so it is one undo step; a linear or
//! sine segment starts from the bezier that draws it (`as_bezier`).

use egui::{Color32, Pos2, Rect, Sense, Stroke, vec2};

use crate::app::{SkelpadApp, drag};
use crate::compile::Compilation;
use crate::model::{AnimId, CubicBezier, Curve, Easing};
use skelpad_ide::{edits, text_edit};

/// The easings the picker offers, by name.
const NAMES: [&str; 11] = [
    "li",
    "si",
    "so",
    "sio",
    "ease",
    "ease-in",
    "ease-out",
    "ease-in-out",
    "back-in",
    "back-out",
    "back",
];

/// The selected key's segment, as the graph shows it.
struct Segment {
    /// Timeline index and key index.
    at: (usize, usize),
    /// The key's frame and the next key's.
    frames: (f64, f64),
    /// Their values, where they are numbers.
    values: (Option<f64>, Option<f64>),
    /// The key's easing.
    easing: Easing,
}

/// The segment after key `at` of `anim`, or why the graph has none.
fn segment(comp: &Compilation, anim: AnimId, at: (usize, usize)) -> Result<Segment, String> {
    let tl = comp.sources.timelines.get(at.0).filter(|t| t.anim == anim).ok_or("no key")?;
    let keys = comp.sources.keys_of(tl);
    let k = keys.get(at.1).ok_or("no key")?;
    let next = keys.get(at.1 + 1).ok_or("the last key of its row: no segment follows it")?;
    let easing = edits::key_easing(comp, anim, tl, k)
        .ok_or("this property is not eased (slot colours run linearly, the rest is stepped)")?;
    Ok(Segment { at, frames: (k.frame, next.frame), values: (k.value, next.value), easing })
}

/// Where the graph draws progress: `lo..hi` bottom to top in `rect`.
#[derive(Clone, Copy)]
struct Scale {
    rect: Rect,
    lo: f64,
    hi: f64,
}

impl Scale {
    /// Room for the curve of `b` and its handles (and always 0..1).
    fn fitting(rect: Rect, b: CubicBezier) -> Scale {
        let ys = (0..=32).map(|i| b.progress(f64::from(i) / 32.0)).chain([b.y1, b.y2]);
        let (lo, hi) = ys.fold((0.0_f64, 1.0_f64), |(lo, hi), y| (lo.min(y), hi.max(y)));
        let pad = (hi - lo) * 0.08;
        Scale { rect: rect.shrink(6.0), lo: lo - pad, hi: hi + pad }
    }

    fn to_screen(self, x: f64, y: f64) -> Pos2 {
        let r = self.rect;
        let fy = ((y - self.lo) / (self.hi - self.lo)) as f32;
        Pos2::new(r.left() + x as f32 * r.width(), r.bottom() - fy * r.height())
    }

    fn progress_at(self, p: Pos2) -> (f64, f64) {
        let r = self.rect;
        let x = f64::from((p.x - r.left()) / r.width());
        let fy = f64::from((r.bottom() - p.y) / r.height());
        (x, self.lo + fy * (self.hi - self.lo))
    }
}

/// A handle drag: the text and compilation it started from (every move
/// rewrites that text, so the drag is one edit), which handle, and the
/// scale it started with (the graph keeps it while the drag lasts).
pub struct CurveDrag {
    base_text: String,
    base: Box<Compilation>,
    anim: AnimId,
    at: (usize, usize),
    handle: usize,
    start: CubicBezier,
    scale: Scale,
    /// The text differs from `base_text`.
    changed: bool,
    /// The easing written last.
    last: String,
}

/// The height of the curve editor's strip in a window `height` tall:
/// less in a short window, so that the canvas keeps its room.
pub(in crate::app) fn strip_height(height: f32) -> f32 {
    if height < 700.0 { 100.0 } else { 140.0 }
}

impl SkelpadApp {
    /// Whether the curve editor's strip shows under the dopesheet's rows
    /// (View ▸ Curve editor; it keeps its height whatever is selected).
    pub(in crate::app) fn curve_strip_shown(&self) -> bool {
        self.settings.view.show_curves
    }

    /// The curve editor under the dopesheet's rows: the segment graph of
    /// the one selected key, beside the value graph of its property (or of
    /// the property row chosen last).
    pub(in crate::app) fn curve_editor(&mut self, ui: &mut egui::Ui, anim: AnimId) {
        let at = match (self.dopesheet.selected.as_slice(), &self.curve_drag) {
            (_, Some(d)) => Some(d.at),
            ([one], None) => Some(*one),
            _ => None,
        };
        let tl = at.map(|a| a.0).or_else(|| self.graph_timeline(anim));
        if !self.curve_strip_shown() {
            return;
        }
        let h = strip_height(ui.ctx().content_rect().height());
        ui.horizontal(|ui| {
            // Always this high, so that selecting a key moves nothing.
            ui.set_height(h);
            if at.is_none() && tl.is_none() {
                ui.weak("Select a key to see its curve, or a property's row for its values.");
            }
            if let Some(at) = at {
                self.segment_ui(ui, anim, at, h);
            }
            if let Some(tl) = tl {
                let w = ui.available_width().max(60.0);
                self.value_graph(ui, anim, tl, vec2(w, h), at);
            }
        });
        if self.curve_drag.is_some() && !ui.ctx().input(|i| i.pointer.primary_down()) {
            self.end_curve_drag(ui.ctx());
        }
    }

    /// The timeline the value graph shows without a key selected: the one
    /// every selected key is in, else the property row chosen last.
    fn graph_timeline(&self, anim: AnimId) -> Option<usize> {
        let sel = &self.dopesheet.selected;
        if let Some(first) = sel.first()
            && sel.iter().all(|k| k.0 == first.0)
        {
            return Some(first.0);
        }
        let row = self.dopesheet.current?;
        let prop = row.prop?;
        let tls = &self.doc.analysis.comp().sources.timelines;
        tls.iter()
            .position(|t| t.anim == anim && t.effective && t.target == row.target && t.prop == prop)
    }

    /// The segment after key `at`: its graph with the two handles, `h`
    /// high, and beside it its numbers and the easing picker.
    fn segment_ui(&mut self, ui: &mut egui::Ui, anim: AnimId, at: (usize, usize), h: f32) {
        let seg = match segment(self.doc.analysis.comp(), anim, at) {
            Ok(s) => s,
            Err(why) => {
                ui.weak(format!("Curve: {why}"));
                return;
            }
        };
        // In a narrow stage the graph and the column beside it give the
        // value graph room (a third of the width each at most).
        let avail = ui.available_width();
        let (graph_w, side_w) =
            ((avail * 0.27).clamp(h * 0.9, h * 1.4), (avail * 0.3).clamp(130.0, 150.0));
        let (rect, resp) = ui.allocate_exact_size(vec2(graph_w, h), Sense::hover());
        resp.widget_info(|| {
            let what = format!("Segment graph {}", easing_text(seg.easing));
            egui::WidgetInfo::labeled(egui::Role::Image, true, what)
        });
        let b = edits::as_bezier(seg.easing);
        let scale = self.curve_drag.as_ref().map_or(Scale::fitting(rect, b), |d| d.scale);
        draw_graph(ui, scale, &seg);
        for handle in 0..2 {
            self.handle_ui(ui, anim, &seg, scale, b, handle);
        }
        ui.vertical(|ui| {
            // A fixed width: the graph beside does not move while a drag
            // lengthens the easing's text.
            ui.set_width(side_w);
            self.curve_side(ui, anim, &seg, side_w);
        });
    }

    /// The segment's numbers and the easing picker.
    fn curve_side(&mut self, ui: &mut egui::Ui, anim: AnimId, seg: &Segment, width: f32) {
        let f = edits::format_number;
        let v = |v: Option<f64>| v.map_or("?".into(), f);
        ui.label(format!("Frames {} to {}", f(seg.frames.0), f(seg.frames.1)));
        ui.label(format!("Value {} to {}", v(seg.values.0), v(seg.values.1)));
        let current = easing_text(seg.easing);
        let named = NAMES.iter().find(|n| **n == current).copied();
        let mut chosen = None;
        egui::ComboBox::from_label("Easing")
            .width(width - 62.0)
            .height(320.0)
            .selected_text(named.unwrap_or("bezier"))
            .show_ui(ui, |ui| {
                for name in NAMES {
                    if ui.selectable_label(current == name, name).clicked() {
                        chosen = Some(name);
                    }
                }
            });
        if named.is_none() {
            // A bezier's numbers, as the text has them.
            ui.label(egui::RichText::new(&current).monospace().small());
        }
        if let Some(name) = chosen {
            self.write_easing(ui.ctx(), anim, seg.at, name);
        }
    }

    /// The picker's choice written into the text, one undo step.
    fn write_easing(&mut self, ctx: &egui::Context, anim: AnimId, at: (usize, usize), e: &str) {
        if !self.curve_editable() {
            return;
        }
        let comp = self.doc.analysis.comp();
        match edits::set_easing(&self.doc.text, comp, anim, at.0, at.1, e) {
            Ok(ed) if ed.is_empty() => {}
            Ok(ed) => {
                let text = text_edit::apply(&self.doc.text, &ed);
                self.replace_script(ctx, text, format!("Eased a segment: {e}"));
                self.dopesheet.keep_selection(&self.doc.text);
            }
            Err(why) => self.say(format!("Easing not changed: {why}"), true),
        }
    }

    /// Whether the text may be edited from here (else the status says why).
    fn curve_editable(&mut self) -> bool {
        let ok = !self.doc.analysis.shown_is_stale && self.doc.spriter.is_none();
        if !ok {
            self.say(
                "The script has errors (or is a Spriter file): the easing cannot be written",
                true,
            );
        }
        ok
    }

    /// Handle `handle` (0: the first, 1: the second) of the curve `b`:
    /// drawn, and dragged.
    fn handle_ui(
        &mut self,
        ui: &mut egui::Ui,
        anim: AnimId,
        seg: &Segment,
        scale: Scale,
        b: CubicBezier,
        handle: usize,
    ) {
        let (x, y, anchor) =
            if handle == 0 { (b.x1, b.y1, (0.0, 0.0)) } else { (b.x2, b.y2, (1.0, 1.0)) };
        let p = scale.to_screen(x, y);
        let painter = ui.painter().with_clip_rect(scale.rect.expand(6.0));
        let colour = Color32::from_rgb(240, 170, 60);
        painter.line_segment([scale.to_screen(anchor.0, anchor.1), p], Stroke::new(1.0, colour));
        painter.circle_filled(p, 4.5, colour);
        let id = egui::Id::unique(("skelpad.curve-handle", handle));
        let resp = ui.interact(Rect::from_center_size(p, vec2(12.0, 12.0)), id, Sense::drag());
        resp.widget_info(|| {
            egui::WidgetInfo::labeled(
                egui::Role::Button,
                true,
                format!("Curve handle {}", handle + 1),
            )
        });
        if resp.drag_started() && self.curve_editable() {
            drag::mark_undo_point(ui.ctx(), &self.doc.text);
            self.playback.playing = false;
            self.curve_drag = Some(CurveDrag {
                base_text: self.doc.text.clone(),
                base: Box::new(self.doc.analysis.comp().clone()),
                anim,
                at: seg.at,
                handle,
                start: b,
                scale,
                changed: false,
                last: String::new(),
            });
        }
        if resp.dragged()
            && let Some(pos) = resp.interact_pointer_pos()
        {
            self.follow_curve_drag(ui.ctx(), pos);
        }
    }

    /// The dragged handle to the pointer at `pos` (time clamped to 0..1):
    /// the easing's numbers rewritten in the text the drag started from.
    fn follow_curve_drag(&mut self, ctx: &egui::Context, pos: Pos2) {
        let Some(d) = self.curve_drag.as_mut() else { return };
        let (x, y) = d.scale.progress_at(pos);
        let (x, y) = (x.clamp(0.0, 1.0), y.clamp(-10.0, 10.0));
        let s = d.start;
        let b = if d.handle == 0 {
            CubicBezier::new(x, y, s.x2, s.y2)
        } else {
            CubicBezier::new(s.x1, s.y1, x, y)
        };
        let easing = edits::bezier_text(b);
        let r = edits::set_easing(&d.base_text, &d.base, d.anim, d.at.0, d.at.1, &easing);
        match r {
            Ok(ed) => {
                let text = text_edit::apply(&d.base_text, &ed);
                if text != self.doc.text {
                    d.changed = text != d.base_text;
                    self.editor.follow_replacement(ctx, &self.doc.text, &text);
                    self.doc.text = text;
                    self.doc.sync();
                    self.dopesheet.keep_selection(&self.doc.text);
                    ctx.request_repaint();
                }
                self.status = Some((format!("Easing {easing}"), false));
                d.last = easing;
            }
            // The text stays as the last move left it (the base text,
            // if no move could be written).
            Err(why) => self.say(format!("Easing not changed: {why}"), true),
        }
    }

    /// The handle drag ends: one step of the undo history, if it changed
    /// the text.
    fn end_curve_drag(&mut self, ctx: &egui::Context) {
        let Some(d) = self.curve_drag.take() else { return };
        if d.changed {
            self.dopesheet.keep_selection(&self.doc.text);
            let done = format!("Eased a segment by its handles: {}", d.last);
            let now = ctx.input(|i| i.time);
            self.editor.history.record(&d.base_text, done.clone(), now);
            self.say(done, false);
        }
    }
}

/// The easing as the text writes it: a name, or `bz(…)`.
fn easing_text(e: Easing) -> String {
    e.to_string()
}

/// The graph's frame, the lines of the two keys' values, the curve and its
/// frame and value labels.
fn draw_graph(ui: &egui::Ui, scale: Scale, seg: &Segment) {
    let painter = ui.painter().with_clip_rect(scale.rect.expand(6.0));
    let visuals = ui.visuals();
    let outer = scale.rect.expand(6.0);
    painter.rect_filled(outer, 3.0, visuals.extreme_bg_color);
    let weak = Stroke::new(1.0, visuals.weak_text_color().gamma_multiply(0.5));
    for y in [0.0, 1.0] {
        painter.line_segment([scale.to_screen(0.0, y), scale.to_screen(1.0, y)], weak);
    }
    let curve = Curve::Eased(seg.easing);
    let points: Vec<Pos2> = (0..=64)
        .map(|i| {
            let t = f64::from(i) / 64.0;
            scale.to_screen(t, curve.progress(t))
        })
        .collect();
    painter.add(egui::Shape::line(points, Stroke::new(2.0, visuals.strong_text_color())));
    let font = egui::FontId::proportional(10.0);
    let colour = visuals.weak_text_color();
    let f = edits::format_number;
    let v = |v: Option<f64>| v.map_or("?".into(), f);
    let (r, a) = (scale.rect, egui::Align2::LEFT_BOTTOM);
    painter.text(
        scale.to_screen(0.0, 0.0) + vec2(2.0, -2.0),
        a,
        v(seg.values.0),
        font.clone(),
        colour,
    );
    let top = egui::Align2::RIGHT_TOP;
    painter.text(
        scale.to_screen(1.0, 1.0) + vec2(-2.0, 2.0),
        top,
        v(seg.values.1),
        font.clone(),
        colour,
    );
    painter.text(r.left_bottom(), a, f(seg.frames.0), font.clone(), colour);
    painter.text(r.right_bottom(), egui::Align2::RIGHT_BOTTOM, f(seg.frames.1), font, colour);
}
