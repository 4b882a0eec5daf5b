//! The scrub bar under the timeline's toolbar: frame numbers, key ticks,
//! event marks and the playhead.

use eframe::egui::{self, Color32, Pos2, Sense, Stroke, Vec2};

use super::{Playback, Tick};
use crate::model::Animation;
use crate::syntax::Span;

/// Frames between labels (a 1-2-5 series, labels ≥ 40 points apart) and
/// between ticks (every frame if they are ≥ 4 points apart, else the labels).
pub fn tick_spacing(frames: i64, width: f32) -> (i64, i64) {
    let px_per_frame = f64::from(width.max(1.0)) / frames.max(1) as f64;
    let mut label_every = i64::MAX;
    'find: for decade in 0..19 {
        for m in [1, 2, 5] {
            let n = m * 10i64.pow(decade);
            if n as f64 * px_per_frame >= 40.0 {
                label_every = n;
                break 'find;
            }
        }
    }
    (label_every, if px_per_frame >= 4.0 { 1 } else { label_every })
}

/// The scrub bar: frame numbers, keyframe ticks, the playhead. Clicking or
/// dragging moves the playhead (and pauses); clicking a key tick also
/// returns where that key is written. Above the dopesheet (`lane`) its
/// frames are where the dopesheet draws them.
pub(super) fn scrub_bar(
    ui: &mut egui::Ui,
    playback: &mut Playback,
    anim: &Animation,
    ticks: &[Tick],
    bone: Option<&str>,
    lane: bool,
) -> Option<Span> {
    let height = 38.0;
    let (rect, response) =
        ui.allocate_exact_size(Vec2::new(ui.available_width(), height), Sense::click_and_drag());
    let duration = anim.duration_secs.max(1e-9);
    let frames = anim.last_frame().max(1);
    let inner = if lane {
        let s =
            crate::app::dopesheet::FrameScale::new(rect.left(), rect.right(), duration * anim.fps);
        egui::Rect::from_x_y_ranges(s.x0..=s.x_of(duration * anim.fps), rect.y_range())
    } else {
        rect.shrink2(Vec2::new(10.0, 0.0))
    };
    let x_of = |t: f64| inner.left() + (t / duration).clamp(0.0, 1.0) as f32 * inner.width();
    response.widget_info(|| egui::WidgetInfo::slider(true, playback.time_secs, "Scrub bar"));
    if let Some(pos) = response
        .interact_pointer_pos()
        .filter(|_| response.is_pointer_button_down_on() || response.clicked())
    {
        let t = ((pos.x - inner.left()) / inner.width()).clamp(0.0, 1.0) as f64 * duration;
        // Snap to frames: poses between frames are never shown while playing either.
        let f = (t * anim.fps).round();
        let t = (f / anim.fps).min(duration);
        playback.time_secs = t;
        playback.playing = false;
    }
    let visuals = ui.visuals();
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 3.0, visuals.extreme_bg_color);
    let text_color = visuals.weak_text_color();
    frame_ruler(&painter, rect, (frames, anim.fps, inner.width()), &x_of, text_color);
    let key_color = if bone.is_some() {
        Color32::from_rgb(0x40, 0xA0, 0xFF)
    } else {
        Color32::from_rgb(0xE0, 0xA0, 0x20)
    };
    let jump = clicked_tick(&response, rect, ticks, &x_of);
    for &(t, _) in ticks {
        let c = Pos2::new(x_of(t), rect.bottom() - 7.0);
        crate::app::dopesheet::draw::diamond(&painter, c, 4.0, key_color, Stroke::NONE);
    }
    event_marks(&response, &painter, anim, rect, x_of);
    let x = x_of(playback.sample_time(Some(anim)));
    painter.line_segment(
        [Pos2::new(x, rect.top()), Pos2::new(x, rect.bottom())],
        Stroke::new(2.0, visuals.selection.stroke.color),
    );
    let hint = match bone {
        Some(b) => format!("keys of {b}"),
        None => "keys of all bones".to_owned(),
    };
    painter.text(
        rect.right_top() + Vec2::new(-4.0, 2.0),
        egui::Align2::RIGHT_TOP,
        hint,
        egui::FontId::proportional(10.0),
        text_color,
    );
    jump
}

/// The scrub bar's frame numbers and ticks along the top of `rect`, for
/// `frames` frames at `fps` over `width` points: every n-th frame labelled
/// so labels stay at least ~40 points apart, ticks at least 4 points apart
/// (at most a few hundred of each, however long the animation).
fn frame_ruler(
    painter: &egui::Painter,
    rect: egui::Rect,
    (frames, fps, width): (i64, f64, f32),
    x_of: &impl Fn(f64) -> f32,
    text_color: Color32,
) {
    let (label_every, tick_every) = tick_spacing(frames, width);
    for f in (0..=frames).step_by(tick_every as usize) {
        let x = x_of(f as f64 / fps);
        let major = f % label_every == 0;
        let h = if major { 10.0 } else { 5.0 };
        painter.line_segment(
            [Pos2::new(x, rect.top()), Pos2::new(x, rect.top() + h)],
            Stroke::new(1.0, text_color),
        );
        if major {
            painter.text(
                Pos2::new(x + 2.0, rect.top() + 9.0),
                egui::Align2::LEFT_TOP,
                f.to_string(),
                egui::FontId::proportional(10.0),
                text_color,
            );
        }
    }
}

/// Where the key of the tick clicked is written: a click in the bar's
/// bottom row within 5 points of a tick (the nearest).
fn clicked_tick(
    response: &egui::Response,
    rect: egui::Rect,
    ticks: &[Tick],
    x_of: &impl Fn(f64) -> f32,
) -> Option<Span> {
    let p = response.interact_pointer_pos().filter(|_| response.clicked())?;
    if p.y < rect.bottom() - 14.0 {
        return None;
    }
    ticks
        .iter()
        .filter(|(t, _)| (x_of(*t) - p.x).abs() <= 5.0)
        .min_by(|a, b| (x_of(a.0) - p.x).abs().total_cmp(&(x_of(b.0) - p.x).abs()))
        .and_then(|t| t.1)
}

/// The colour of event marks on the scrub bar.
const EVENT_COLOR: Color32 = Color32::from_rgb(0xD0, 0x40, 0xC0);

/// The positions of `anim`'s events on the scrub bar: one mark per pixel
/// column (events are sorted by time), each with the events it stands for
/// (a range of `anim.events`).
pub(super) fn event_columns(
    anim: &Animation,
    x_of: impl Fn(f64) -> f32,
) -> Vec<(f32, std::ops::Range<usize>)> {
    let mut out: Vec<(f32, std::ops::Range<usize>)> = Vec::new();
    for (i, e) in anim.events.iter().enumerate() {
        let x = x_of(e.time_secs).round();
        match out.last_mut() {
            Some((last, r)) if *last == x => r.end = i + 1,
            _ => out.push((x, i..i + 1)),
        }
    }
    out
}

/// Draws each event as a flag (a downward triangle on a stem) in the
/// upper half of the scrub bar, and names the events under the pointer.
fn event_marks(
    response: &egui::Response,
    painter: &egui::Painter,
    anim: &Animation,
    rect: egui::Rect,
    x_of: impl Fn(f64) -> f32,
) {
    if anim.events.is_empty() {
        return;
    }
    let columns = event_columns(anim, x_of);
    let top = rect.top() + 12.0;
    for (x, _) in &columns {
        let r = 4.0;
        painter.line_segment(
            [Pos2::new(*x, top), Pos2::new(*x, rect.bottom() - 14.0)],
            Stroke::new(1.0, EVENT_COLOR),
        );
        painter.add(egui::Shape::convex_polygon(
            vec![Pos2::new(*x - r, top), Pos2::new(*x + r, top), Pos2::new(*x, top + r * 1.5)],
            EVENT_COLOR,
            Stroke::NONE,
        ));
    }
    let Some(p) = response.hover_pos() else { return };
    if p.y > rect.bottom() - 14.0 {
        return;
    }
    let near = columns
        .iter()
        .filter(|(x, _)| (x - p.x).abs() <= 5.0)
        .min_by(|a, b| (a.0 - p.x).abs().total_cmp(&(b.0 - p.x).abs()));
    if let Some((_, range)) = near {
        let lines: Vec<String> = anim.events[range.clone()]
            .iter()
            .take(12)
            .map(|e| {
                use crate::model::EventPayload;
                let payload = match &e.payload {
                    EventPayload::None => String::new(),
                    EventPayload::Int(i) => format!(" {i}"),
                    EventPayload::Float(f) => format!(" {f}"),
                    EventPayload::Text(t) => format!(" \"{t}\""),
                };
                format!("!{}{payload} at frame {}", e.name, e.frame)
            })
            .collect();
        let extra = range.len().saturating_sub(12);
        let mut text = lines.join("\n");
        if extra > 0 {
            text.push_str(&format!("\n… {extra} more"));
        }
        response.clone().on_hover_text_at_pointer(text);
    }
}
