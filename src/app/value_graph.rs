//! The value graph: one property's value over the whole animation, read
//! from the compiler's source map (the keys, their frames and values as
//! written) and the compiled channel (each segment's curve), so that an
//! overshoot of `back-out` or a seam where two segments meet shows at a
//! glance. The keys are points (clicking one selects it in the dopesheet,
//! which opens its segment in the curve editor beside); between them the
//! eased segments; after the last key the held value up to the end.

use egui::{Color32, Pos2, Rect, Sense, Stroke, vec2};

use crate::app::SkelpadApp;
use crate::compile::Compilation;
use crate::model::{AngleInterpolation, AnimId, Curve};
use crate::syntax::tree::TimelineProp;
use skelpad_ide::edits;

/// At most this many samples are drawn over all the segments (a timeline
/// of thousands of keys, from a loop, stays cheap).
const MAX_SAMPLES: usize = 2048;

/// Keys are points to hover and click up to this many (more are dots).
const MAX_POINTS: usize = 400;

/// One timeline's keys as numbers, with the curve after each.
pub(super) struct Track {
    /// The item and property ("arm Rotation").
    pub name: String,
    /// Frame, value and the curve of the segment after the key (`None`:
    /// linear, as slot channels run).
    pub keys: Vec<(f64, f64, Option<Curve>)>,
    /// Rotations turn the shorter way round.
    pub shortest: bool,
    /// The animation's last frame.
    pub end: f64,
}

/// The track of timeline `tl` of `anim`, or why it has none.
pub(super) fn track(comp: &Compilation, anim: AnimId, tl: usize) -> Result<Track, String> {
    let src = comp.sources.timelines.get(tl).filter(|t| t.anim == anim).ok_or("no timeline")?;
    let a = comp.armature.animations.get(anim.index()).ok_or("no animation")?;
    let mut keys = Vec::new();
    for k in comp.sources.keys_of(src) {
        let v = k.value.ok_or("its values are not numbers")?;
        keys.push((k.frame, v, edits::key_curve(comp, anim, src, &k)));
    }
    if keys.is_empty() {
        return Err("no keys".into());
    }
    let name = format!("{} {:?}", edits::target_name(comp, src.target), src.prop);
    let shortest =
        src.prop == TimelineProp::Rotation && a.angle_interpolation == AngleInterpolation::Shortest;
    let last = keys.last().map_or(0.0, |k| k.0);
    Ok(Track { name, keys, shortest, end: (a.duration_secs * a.fps).max(last) })
}

impl Track {
    /// The value of segment `i` (from key `i` to key `i + 1`) at `t` in
    /// 0..1 of it.
    fn segment_value(&self, i: usize, t: f64) -> f64 {
        let (_, va, curve) = self.keys[i];
        let Some(&(_, vb, _)) = self.keys.get(i + 1) else { return va };
        let mut span = vb - va;
        if self.shortest {
            span = (span + 180.0).rem_euclid(360.0) - 180.0;
        }
        va + span * curve.map_or(t, |c| c.progress(t))
    }

    /// The curve as points (frame, value): each segment sampled, then the
    /// held value to the end.
    pub(super) fn samples(&self) -> Vec<(f64, f64)> {
        let n = self.keys.len();
        let per = (MAX_SAMPLES / n).clamp(1, 64);
        let mut out = Vec::with_capacity(n * (per + 1) + 1);
        for i in 0..n - 1 {
            let (fa, fb) = (self.keys[i].0, self.keys[i + 1].0);
            for s in 0..per {
                let t = s as f64 / per as f64;
                out.push((fa + (fb - fa) * t, self.segment_value(i, t)));
            }
        }
        let (f, v, _) = self.keys[n - 1];
        out.push((f, v));
        out.push((self.end.max(f), v));
        out
    }
}

/// The values' range lo..hi of `samples`, as drawn.
fn range(samples: &[(f64, f64)]) -> (f64, f64) {
    let lo = samples.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
    let hi = samples.iter().map(|s| s.1).fold(f64::NEG_INFINITY, f64::max);
    (lo, hi)
}

/// Frames left to right and values bottom to top in `rect`.
#[derive(Clone, Copy)]
struct Plot {
    rect: Rect,
    end: f64,
    lo: f64,
    hi: f64,
}

impl Plot {
    fn at(self, frame: f64, value: f64) -> Pos2 {
        let r = self.rect;
        let fx = (frame / self.end.max(1e-9)) as f32;
        let fy = ((value - self.lo) / (self.hi - self.lo)) as f32;
        Pos2::new(r.left() + fx * r.width(), r.bottom() - fy * r.height())
    }
}

impl SkelpadApp {
    /// The value graph of timeline `tl`, `size` big; `selected` is the key
    /// whose segment the curve editor shows (drawn ringed).
    pub(super) fn value_graph(
        &mut self,
        ui: &mut egui::Ui,
        anim: AnimId,
        tl: usize,
        size: egui::Vec2,
        selected: Option<(usize, usize)>,
    ) {
        let tr = match track(self.doc.analysis.comp(), anim, tl) {
            Ok(t) => t,
            Err(why) => {
                ui.weak(format!("No value graph: {why}"));
                return;
            }
        };
        let (outer, resp) = ui.allocate_exact_size(size, Sense::hover());
        let samples = tr.samples();
        let (lo, hi) = range(&samples);
        let f = edits::format_number;
        resp.widget_info(|| {
            let what = format!("Value graph {}: {} to {}", tr.name, f(lo), f(hi));
            egui::WidgetInfo::labeled(egui::Role::Image, true, what)
        });
        let pad = ((hi - lo) * 0.1).max(0.5);
        let rect = outer.shrink2(vec2(8.0, 14.0));
        let plot = Plot { rect, end: tr.end, lo: lo - pad, hi: hi + pad };
        draw_frame(ui, outer, plot, &tr, (lo, hi));
        let a = self.doc.analysis.comp().armature.animations.get(anim.index());
        let playhead = a.map_or(0.0, |a| self.playback.sample_time(Some(a)) * a.fps);
        let painter = ui.painter().with_clip_rect(outer);
        let head = Stroke::new(1.0, ui.visuals().selection.bg_fill);
        painter.vline(plot.at(playhead, 0.0).x, rect.y_range(), head);
        let line: Vec<Pos2> = samples.iter().map(|&(fr, v)| plot.at(fr, v)).collect();
        painter.add(egui::Shape::line(line, Stroke::new(1.5, ui.visuals().strong_text_color())));
        let colour = Color32::from_rgb(240, 170, 60);
        for (j, &(fr, v, _)) in tr.keys.iter().enumerate() {
            let p = plot.at(fr, v);
            if selected == Some((tl, j)) {
                painter.circle_stroke(p, 6.0, Stroke::new(1.5, colour));
            }
            if tr.keys.len() <= MAX_POINTS {
                self.graph_key(ui, &painter, (tl, j), p, (fr, v), &tr.name);
            } else {
                painter.circle_filled(p, 1.5, colour);
            }
        }
    }

    /// Key `at` drawn at `p` as a point: hovered it tells its frame and
    /// value, clicked it is selected in the dopesheet.
    fn graph_key(
        &mut self,
        ui: &mut egui::Ui,
        painter: &egui::Painter,
        at: (usize, usize),
        p: Pos2,
        (frame, value): (f64, f64),
        name: &str,
    ) {
        painter.circle_filled(p, 3.5, Color32::from_rgb(240, 170, 60));
        let id = egui::Id::unique(("skelpad.graph-key", at));
        let resp = ui.interact(Rect::from_center_size(p, vec2(10.0, 10.0)), id, Sense::click());
        let f = edits::format_number;
        let label = format!("Graph key {name} {} = {}", f(frame), f(value));
        resp.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
        if resp.on_hover_text(format!("{name}: {} at frame {}", f(value), f(frame))).clicked() {
            self.dopesheet.selected = vec![at];
            self.dopesheet.keep_selection(&self.doc.text);
        }
    }
}

/// The graph's background, its name, the lines at the lowest and highest
/// values with their numbers, and zero where it is in view.
fn draw_frame(ui: &egui::Ui, outer: Rect, plot: Plot, tr: &Track, (lo, hi): (f64, f64)) {
    let painter = ui.painter().with_clip_rect(outer);
    let visuals = ui.visuals();
    painter.rect_filled(outer, 3.0, visuals.extreme_bg_color);
    let weak = Stroke::new(1.0, visuals.weak_text_color().gamma_multiply(0.4));
    let x = plot.rect.x_range();
    for v in [lo, hi] {
        painter.hline(x, plot.at(0.0, v).y, weak);
    }
    if lo < 0.0 && hi > 0.0 {
        painter.hline(x, plot.at(0.0, 0.0).y, Stroke::new(1.0, weak.color.gamma_multiply(0.5)));
    }
    let font = egui::FontId::proportional(10.0);
    let colour = visuals.weak_text_color();
    let f = edits::format_number;
    let left = outer.left() + 3.0;
    let top = egui::Align2::LEFT_TOP;
    painter.text(Pos2::new(left, outer.top() + 1.0), top, &tr.name, font.clone(), colour);
    let right = egui::Align2::RIGHT_BOTTOM;
    let hi_y = plot.at(0.0, hi).y;
    painter.text(Pos2::new(outer.right() - 3.0, hi_y - 1.0), right, f(hi), font.clone(), colour);
    let lo_at = Pos2::new(outer.right() - 3.0, plot.at(0.0, lo).y + 1.0);
    painter.text(lo_at, egui::Align2::RIGHT_TOP, f(lo), font.clone(), colour);
    let bottom = egui::Align2::RIGHT_BOTTOM;
    let end = format!("frame {}", f(tr.end));
    painter.text(outer.right_bottom() + vec2(-3.0, -1.0), bottom, end, font, colour);
}
