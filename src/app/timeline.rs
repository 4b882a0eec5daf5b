//! Playback state and the timeline panel: animation and skin selectors,
//! transport buttons, loop and speed, and the scrub bar with frame numbers
//! and keyframe ticks.
//!
//! The clock is whatever time the app is handed (egui's input time, which
//! tests set); this module only turns time differences into a playhead.

use crate::syntax::Span;
use eframe::egui::{self, Color32, Vec2};

use crate::model::{AnimId, Animation, Armature, BoneId, SkinId};
use crate::runtime::wrap_time;

mod scrub;
use scrub::scrub_bar;
#[cfg(test)]
use scrub::{event_columns, tick_spacing};

/// Speed range of the speed control.
pub const SPEED_RANGE: std::ops::RangeInclusive<f64> = 0.1..=4.0;

/// What plays. Animation and skin are remembered by name, so they survive
/// edits that renumber them, and by position, so renaming the selected
/// animation keeps it selected.
#[derive(Clone, Debug)]
pub struct Playback {
    anim_name: Option<String>,
    anim_index: usize,
    skin_name: String,
    skin_index: usize,
    /// The playhead, in seconds from the start of the animation.
    pub time_secs: f64,
    /// Whether the playhead advances with the clock.
    pub playing: bool,
    /// Whether the playhead wraps at the animation's end; if not, playback
    /// stops there.
    pub looping: bool,
    /// Playback rate, 1 for real time (within [`SPEED_RANGE`]).
    pub speed: f64,
    /// Show the setup pose (no animation): canvas drags edit the skeleton.
    pub setup_pose: bool,
    /// The clock reading of the previous frame while playing.
    last_clock: Option<f64>,
    /// Imported files: the animation whose own looping set `looping`.
    pub looping_set_for: Option<String>,
    /// The events the playhead last passed while playing, as the status
    /// line shows them, and the clock reading then ([`Playback::flash`]).
    flash: Option<(String, f64)>,
}

/// The most key ticks the scrub bar draws: more than it has pixels.
pub const MAX_TICKS: usize = 4000;

/// Key ticks sorted by time with at most one per 1/[`MAX_TICKS`] of the
/// duration (the first of each).
pub fn thin_ticks(mut ticks: Vec<Tick>, duration: f64) -> Vec<Tick> {
    let cell = duration.max(1e-9) / MAX_TICKS as f64;
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<Tick> = Vec::with_capacity(ticks.len().min(MAX_TICKS + 1));
    for t in ticks {
        if out.last().is_none_or(|last| t.0 - last.0 >= cell) {
            out.push(t);
        }
    }
    out
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            anim_name: None,
            anim_index: 0,
            skin_name: "default".into(),
            skin_index: 0,
            time_secs: 0.0,
            playing: true,
            looping: true,
            speed: 1.0,
            setup_pose: false,
            last_clock: None,
            looping_set_for: None,
            flash: None,
        }
    }
}

/// The longest step one frame may advance the playhead: after the app was
/// stalled (a dialog, a suspended laptop) playback resumes instead of jumping.
const MAX_STEP_SECS: f64 = 0.25;

/// How long the status line shows an event the playhead passed.
pub const FLASH_SECS: f64 = 0.8;

/// The most event names one flash lists.
const FLASH_NAMES: usize = 3;

/// The events of `anim` whose time lies in `(from, to]` (`from` included
/// when `from_included`), as the status line lists them: `name` or
/// `name "payload"`, at most [`FLASH_NAMES`] and a count of the others.
fn events_between(
    anim: &Animation,
    from: f64,
    to: f64,
    from_included: bool,
    out: &mut Vec<String>,
    more: &mut usize,
) {
    use crate::model::EventPayload;
    // Events are sorted by time: the first one at or after `from`.
    let start = anim.events.partition_point(|e| e.time_secs < from);
    for e in anim.events[start..].iter().take_while(|e| e.time_secs <= to) {
        if e.time_secs == from && !from_included {
            continue;
        }
        if out.len() >= FLASH_NAMES {
            *more += 1;
            continue;
        }
        out.push(match &e.payload {
            EventPayload::None => e.name.clone(),
            EventPayload::Int(i) => format!("{} {i}", e.name),
            EventPayload::Float(f) => format!("{} {f}", e.name),
            EventPayload::Text(t) => format!("{} \"{t}\"", e.name),
        });
    }
}

impl Playback {
    /// Finds the selected animation and skin in `arm`, following renames.
    pub fn resolve(&mut self, arm: &Armature) -> (Option<AnimId>, SkinId) {
        let anims = &arm.animations;
        let anim = if anims.is_empty() || self.setup_pose {
            None
        } else {
            let by_name =
                self.anim_name.as_ref().and_then(|n| anims.iter().position(|a| &a.name == n));
            let i = by_name.unwrap_or(self.anim_index.min(anims.len() - 1));
            self.anim_index = i;
            self.anim_name = Some(anims[i].name.clone());
            Some(AnimId::from_index(i))
        };
        let skins = &arm.skeleton.skins;
        let skin = match skins.iter().position(|s| s.name == self.skin_name) {
            Some(i) => i,
            None => self.skin_index.min(skins.len().saturating_sub(1)),
        };
        self.skin_index = skin;
        if let Some(s) = skins.get(skin) {
            self.skin_name.clone_from(&s.name);
        }
        (anim, SkinId(skin as u32))
    }

    /// Selects animation `id` of `arm` and rewinds to its start; leaves the
    /// setup pose. An id `arm` does not have changes nothing.
    pub fn select_anim(&mut self, arm: &Armature, id: AnimId) {
        if let Some(a) = arm.animation(id) {
            self.setup_pose = false;
            self.anim_index = id.index();
            self.anim_name = Some(a.name.clone());
            self.time_secs = 0.0;
        }
    }

    /// Selects skin `id` of `arm` (an id it does not have changes nothing).
    pub fn select_skin(&mut self, arm: &Armature, id: SkinId) {
        if let Some(s) = arm.skeleton.skins.get(id.index()) {
            self.skin_index = id.index();
            self.skin_name.clone_from(&s.name);
        }
    }

    /// Advances the playhead to the clock reading `now_secs`.
    pub fn advance(&mut self, now_secs: f64, anim: Option<&Animation>) {
        let Some(anim) = anim.filter(|_| self.playing) else {
            self.last_clock = None;
            return;
        };
        let starting = self.last_clock.is_none();
        let dt = self.last_clock.map_or(0.0, |last| (now_secs - last).clamp(0.0, MAX_STEP_SECS));
        self.last_clock = Some(now_secs);
        let d = anim.duration_secs;
        if d <= 0.0 {
            self.time_secs = 0.0;
            return;
        }
        let before = self.time_secs;
        let t = self.time_secs + dt * self.speed;
        if self.looping {
            self.time_secs = t.rem_euclid(d);
        } else if t >= d {
            self.time_secs = d;
            self.playing = false;
            self.last_clock = None;
        } else {
            self.time_secs = t;
        }
        // The events passed: from the time before (included when playback
        // just started there) to the time now, across the loop's end.
        let (mut names, mut more) = (Vec::new(), 0);
        if self.looping && t >= d {
            events_between(anim, before, d, starting, &mut names, &mut more);
            events_between(anim, 0.0, self.time_secs, true, &mut names, &mut more);
        } else {
            events_between(anim, before, self.time_secs, starting, &mut names, &mut more);
        }
        if !names.is_empty() {
            let mut text = names.join(", ");
            if more > 0 {
                text.push_str(&format!(" and {more} more"));
            }
            self.flash = Some((text, now_secs));
        }
    }

    /// The events the playhead passed less than [`FLASH_SECS`] before the
    /// clock reading `now_secs`, for the status line.
    pub fn flash(&self, now_secs: f64) -> Option<&str> {
        self.flash
            .as_ref()
            .filter(|(_, at)| now_secs - at < FLASH_SECS && now_secs >= *at)
            .map(|(t, _)| t.as_str())
    }

    /// The time handed to the runtime.
    pub fn sample_time(&self, anim: Option<&Animation>) -> f64 {
        anim.map_or(0.0, |a| wrap_time(a, self.time_secs, self.looping))
    }

    /// Plays or pauses; playing a finished one-shot animation starts it over.
    pub fn toggle_play(&mut self, anim: Option<&Animation>) {
        self.playing = !self.playing;
        self.last_clock = None;
        // Playing a finished one-shot animation starts it again.
        if self.playing && !self.looping && anim.is_some_and(|a| self.time_secs >= a.duration_secs)
        {
            self.time_secs = 0.0;
        }
    }

    /// The frame the playhead is on.
    pub fn frame(&self, anim: &Animation) -> i64 {
        (self.sample_time(Some(anim)) * anim.fps + 1e-6).floor() as i64
    }

    /// Moves `n` frames (negative: back), wrapping when looping; pauses.
    pub fn step_frames(&mut self, anim: Option<&Animation>, n: i64) {
        let Some(anim) = anim else { return };
        self.playing = false;
        let frames = anim.last_frame();
        let mut f = self.frame(anim) + n;
        if self.looping && frames > 0 {
            f = f.rem_euclid(frames);
        } else {
            f = f.clamp(0, frames);
        }
        self.time_secs = f as f64 / anim.fps;
    }

    /// Moves the playhead to the animation's start (playing or not).
    pub fn home(&mut self) {
        self.time_secs = 0.0;
        self.last_clock = None;
    }

    /// Pauses on the animation's last frame; when looping, on the frame
    /// before the end, since the end shows the same pose as the start.
    pub fn end(&mut self, anim: Option<&Animation>) {
        let Some(anim) = anim else { return };
        self.playing = false;
        // When looping the end is the same pose as the start: stop on the
        // last distinct frame instead.
        let last = anim.last_frame();
        let f = if self.looping { (last - 1).max(0) } else { last };
        self.time_secs = f as f64 / anim.fps;
    }
}

/// What the timeline panel asked for this frame.
#[derive(Default)]
pub struct TimelineOutput {
    /// The "Fit" button was pressed.
    pub fit: bool,
    /// A key tick was clicked: the text of the key that made it.
    pub jump: Option<Span>,
}

/// A keyframe tick on the scrub bar: its time and the value token that made
/// the key (from the source map).
pub type Tick = (f64, Option<Span>);

/// Draws the timeline panel.
pub fn ui(
    ui: &mut egui::Ui,
    playback: &mut Playback,
    view: &mut super::settings::ViewSettings,
    arm: &Armature,
    focus_bone: Option<BoneId>,
    source_ticks: Option<Vec<Tick>>,
) -> TimelineOutput {
    let mut out = TimelineOutput::default();
    let (anim_id, skin_id) = playback.resolve(arm);
    let anim = anim_id.and_then(|a| arm.animation(a));
    // The toolbar wraps onto more rows in a narrow window; each group
    // (transport buttons, frame readout, view toggles) moves as one.
    ui.horizontal_wrapped(|ui| {
        group(ui, "pickers", |ui| pickers(ui, playback, arm, (anim_id, skin_id)));
        group(ui, "transport", |ui| transport(ui, playback, anim));
        if let Some(a) = anim {
            // Padded to its widest, so that it keeps its width (and the
            // toolbar its rows) while playing.
            let last = a.last_frame();
            let digits = last.to_string().len();
            let readout = format!(
                "{:>7.3} s  frame {:>digits$} / {last}",
                playback.sample_time(Some(a)),
                playback.frame(a),
            );
            ui.add(
                egui::Label::new(egui::RichText::new(readout).monospace())
                    .wrap_mode(egui::TextWrapMode::Extend),
            );
        }
        group(ui, "speed", |ui| {
            ui.checkbox(&mut playback.looping, "Loop");
            let label = ui.label("Speed");
            let size = Vec2::new(ui.spacing().slider_width, ui.spacing().interact_size.y);
            ui.add_sized(
                size,
                egui::Slider::new(&mut playback.speed, SPEED_RANGE)
                    .logarithmic(true)
                    .show_value(false),
            )
            .labelled_by(label.id);
            ui.monospace(format!("{:.1}×", playback.speed));
        });
        // The canvas's view toggles, at hand (also in the View menu).
        out.fit = group(ui, "view", |ui| view_toggles(ui, view));
    });
    if let Some(a) = anim {
        // Without a source map for it (the canvas shows the last error-free
        // version), the keys come from the model, without their text.
        let ticks = source_ticks.unwrap_or_else(|| {
            a.key_times(&arm.skeleton, focus_bone).into_iter().map(|t| (t, None)).collect()
        });
        // At most `MAX_TICKS` diamonds, however many keys.
        let ticks = thin_ticks(ticks, a.duration_secs);
        let bone = focus_bone.map(|b| arm.skeleton.bone(b).name.as_str());
        out.jump = scrub_bar(ui, playback, a, &ticks, bone, view.show_dopesheet);
    } else {
        if arm.animations.is_empty() {
            ui.weak(
                "This script has no animation: write an `anim \"name\"` section to animate it.",
            );
        } else {
            ui.weak("The setup pose: dragging on the canvas edits the skeleton section. Pick an animation to play it.");
        }
    }
    out
}

/// One group of the wrapping toolbar, kept on one row: when the group was
/// wider last frame than the room left on this row, it starts the next row
/// (a row of widgets inside a wrapping one does not wrap by itself).
fn group<R>(ui: &mut egui::Ui, name: &str, add: impl FnOnce(&mut egui::Ui) -> R) -> R {
    let key = egui::Id::unique(("skelpad.toolbar.group", name));
    let width: Option<f32> = ui.data(|d| d.get_temp(key));
    // (In a wrapping row, `available_width` is the whole row's.)
    let left = ui.max_rect().max.x - ui.cursor().min.x;
    let at_row_start = ui.cursor().min.x <= ui.max_rect().min.x + 1.0;
    if width.is_some_and(|w| w > ui.max_rect().width()) {
        // Wider than a whole row: its widgets wrap one by one (its width,
        // measured on a wider window, stays known for when it grows).
        return add(ui);
    }
    if width.is_some_and(|w| w > left) && !at_row_start {
        ui.end_row();
    }
    let r = ui.horizontal(add);
    let w = r.response.rect.width();
    if width != Some(w) {
        ui.data_mut(|d| d.insert_temp(key, w));
        // Laid out again with the width known (the next frame).
        ui.ctx().request_repaint();
    }
    r.inner
}

/// The animation and skin pickers (showing those `playback` resolved to).
fn pickers(
    ui: &mut egui::Ui,
    playback: &mut Playback,
    arm: &Armature,
    (anim_id, skin_id): (Option<AnimId>, SkinId),
) {
    let anim = anim_id.and_then(|a| arm.animation(a));
    let none = if arm.animations.is_empty() { "(no animation)" } else { "(setup pose)" };
    let anim_label = anim.map_or_else(|| none.to_owned(), anim_title);
    egui::ComboBox::from_label("Animation").selected_text(anim_label).show_ui(ui, |ui| {
        if !arm.animations.is_empty()
            && ui.selectable_label(playback.setup_pose, "(setup pose)").clicked()
        {
            playback.setup_pose = true;
            playback.playing = false;
        }
        for (i, a) in arm.animations.iter().enumerate() {
            let id = AnimId::from_index(i);
            if ui.selectable_label(Some(id) == anim_id, anim_title(a)).clicked() {
                playback.select_anim(arm, id);
            }
        }
    });
    let skins = &arm.skeleton.skins;
    let skin_label = skins.get(skin_id.index()).map_or("default", |s| s.name.as_str()).to_owned();
    egui::ComboBox::from_label("Skin").selected_text(skin_label).show_ui(ui, |ui| {
        for (i, s) in skins.iter().enumerate() {
            if ui.selectable_label(i == skin_id.index(), &s.name).clicked() {
                playback.select_skin(arm, SkinId(i as u32));
            }
        }
    });
}

/// The canvas's view toggles and the "Fit" button (whether it was pressed).
fn view_toggles(ui: &mut egui::Ui, view: &mut super::settings::ViewSettings) -> bool {
    ui.checkbox(&mut view.show_bones, "Bones");
    ui.checkbox(&mut view.onion_skin, "Onion skin")
        .on_hover_text("Ghosts of the frames before (red) and after (green)");
    ui.checkbox(&mut view.show_grid, "Grid");
    // Distinct names: "Bones" is the overlay toggle above.
    ui.selectable_value(&mut view.drag_shapes, false, "Drag bones")
        .on_hover_text("Dragging a shape moves its bone");
    ui.selectable_value(&mut view.drag_shapes, true, "Drag shapes")
        .on_hover_text("Dragging a shape moves the shape on its slot line");
    ui.checkbox(&mut view.auto_key, "Auto-key").on_hover_text(
        "A drag at a frame with no key first keys what it changes there (one undo step)",
    );
    ui.checkbox(&mut view.snap, "Snap")
        .on_hover_text("Whole units, 5° and tenths of scale (or hold Alt while dragging)");
    ui.button("Fit")
        .on_hover_text("Fit the animation in view (F or Ctrl+0 on the canvas)")
        .clicked()
}

/// First, previous, play/pause, next and last frame (one toolbar group).
fn transport(ui: &mut egui::Ui, playback: &mut Playback, anim: Option<&Animation>) {
    let on = anim.is_some();
    let button = |ui: &mut egui::Ui, label: &str, hint: &str| {
        ui.add_enabled(on, egui::Button::new(label)).on_hover_text(hint).clicked()
    };
    if button(ui, "|<", "First frame (Home)") {
        playback.home();
    }
    if button(ui, "<", "Previous frame (Left)") {
        playback.step_frames(anim, -1);
    }
    // As wide as "Pause" either way: a toolbar that wraps would otherwise
    // reflow (and move the canvas) each time playback starts or stops.
    let pause_w = ui.fonts_mut(|f| {
        f.layout_no_wrap(
            "Pause".into(),
            egui::TextStyle::Button.resolve(ui.style()),
            Color32::WHITE,
        )
        .size()
        .x
    });
    let play_label = if playback.playing { "Pause" } else { "Play" };
    let min = Vec2::new(pause_w + 2.0 * ui.spacing().button_padding.x, 0.0);
    if ui
        .add_enabled(on, egui::Button::new(play_label).min_size(min))
        .on_hover_text("Play or pause (Space on the canvas)")
        .clicked()
    {
        playback.toggle_play(anim);
    }
    if button(ui, ">", "Next frame (Right)") {
        playback.step_frames(anim, 1);
    }
    if button(ui, ">|", "Last frame (End)") {
        playback.end(anim);
    }
}

fn anim_title(a: &Animation) -> String {
    if a.name.is_empty() { "(unnamed)".to_owned() } else { a.name.clone() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;

    fn arm() -> Armature {
        compile("skeleton\n\ta l10\nanim \"one\" 10fps\n\ta\n\t\tr 0 -> 90 -> 0\nanim \"two\"\n\ta\n\t\tx 0 --> 5\nskin \"blue\"\n")
            .armature
    }

    #[test]
    fn playing_advances_with_the_clock_and_loops() {
        let arm = arm();
        let mut p = Playback::default();
        let (a, _) = p.resolve(&arm);
        let anim = a.and_then(|a| arm.animation(a));
        assert_eq!(anim.map(|a| a.duration_secs), Some(1.0));
        p.advance(10.0, anim);
        p.advance(10.2, anim);
        assert!((p.time_secs - 0.2).abs() < 1e-9);
        p.speed = 2.0;
        for i in 1..=5 {
            p.advance(10.2 + 0.1 * f64::from(i), anim);
        }
        // 0.2 + 5 × 0.1 × 2 = 1.2 → wraps to 0.2.
        assert!((p.time_secs - 0.2).abs() < 1e-9, "{}", p.time_secs);
        p.looping = false;
        for i in 1..=10 {
            p.advance(10.7 + 0.1 * f64::from(i), anim);
        }
        assert_eq!(p.time_secs, 1.0);
        assert!(!p.playing);
    }

    #[test]
    fn playing_through_events_flashes_them() {
        // 10 fps: `hit` at frames 0 and 3 (0.3 s), `end` at 10 (1 s, the
        // last frame); the rotation also ends at 1 s.
        let arm = compile("skeleton\n\ta l10\nanim \"one\" 10fps\n\ta\n\t\tr 0 -> 90 -> 0\n\t!hit\n\t\ti 1 3:> 2\n\t!end\n\t\te 10:> !\n").armature;
        let anim = arm.animation(AnimId(0));
        let mut p = Playback::default();
        p.resolve(&arm);
        // Starting at 0 flashes what fires there.
        p.advance(100.0, anim);
        assert_eq!(p.flash(100.0), Some("hit 1"));
        p.advance(100.2, anim);
        // Nothing between 0 and 0.2: the old flash fades on its own.
        assert_eq!(p.flash(100.2), Some("hit 1"));
        assert_eq!(p.flash(100.0 + FLASH_SECS + 0.01), None);
        p.advance(100.4, anim);
        assert_eq!(p.flash(100.4), Some("hit 2"));
        // 0.4 → 1.05 wraps to 0.05: `end` at 1 and `hit` at 0 both pass.
        p.speed = 0.65 / 0.25;
        p.advance(100.65, anim);
        assert!((p.time_secs - 0.05).abs() < 1e-9, "{}", p.time_secs);
        assert_eq!(p.flash(100.65), Some("end, hit 1"));
        // Paused: nothing new.
        p.playing = false;
        p.advance(101.0, anim);
        assert_eq!(p.flash(101.0 + FLASH_SECS), None);
    }

    #[test]
    fn event_marks_are_one_per_pixel_column() {
        let text = "skeleton\n\ta\nanim \"one\" 1000fps\n\t!tick\n\t\te { ! -> }[400]\n";
        let arm = compile(text).armature;
        let a = arm.animation(AnimId(0)).unwrap();
        assert_eq!(a.events.len(), 400);
        // 400 events over 100 pixels: 100 columns (one every 4 events).
        let d = a.duration_secs;
        let cols = event_columns(a, |t| (t / d * 100.0) as f32);
        assert!(cols.len() <= 101, "{}", cols.len());
        assert_eq!(cols.iter().map(|c| c.1.len()).sum::<usize>(), 400);
    }

    #[test]
    fn selection_follows_names_and_survives_renames() {
        let arm = arm();
        let mut p = Playback::default();
        p.select_anim(&arm, AnimId(1));
        p.select_skin(&arm, SkinId(1));
        // "two" moves to the front: still selected.
        let swapped =
            compile("skeleton\n\ta l10\nanim \"two\"\n\ta\n\t\tx 0 --> 5\nanim \"one\" 10fps\n\ta\n\t\tr 0 -> 90\nskin \"blue\"\n")
                .armature;
        assert_eq!(p.resolve(&swapped), (Some(AnimId(0)), SkinId(1)));
        // Renamed in place: the position is kept.
        let renamed = compile("skeleton\n\ta l10\nanim \"twox\"\n\ta\n\t\tx 0 --> 5\nanim \"one\" 10fps\nskin \"blue\"\n").armature;
        assert_eq!(p.resolve(&renamed).0, Some(AnimId(0)));
    }

    #[test]
    fn frame_steps_wrap_when_looping() {
        let arm = arm();
        let anim = arm.animation(AnimId(0));
        let mut p = Playback::default();
        p.step_frames(anim, -1);
        assert!(!p.playing);
        assert_eq!(p.frame(anim.unwrap()), 9);
        p.step_frames(anim, 2);
        assert_eq!(p.frame(anim.unwrap()), 1);
        p.end(anim);
        assert_eq!(p.frame(anim.unwrap()), 9);
        p.looping = false;
        p.end(anim);
        assert_eq!(p.frame(anim.unwrap()), 10);
    }

    #[test]
    fn ticks_and_labels_stay_few_however_long_the_animation() {
        for frames in [1, 7, 100, 10_000, 1_000_000, 50_000_000_000_000, i64::MAX / 2] {
            for width in [50.0f32, 600.0, 3000.0] {
                let (label, tick) = tick_spacing(frames, width);
                let labels = frames / label + 1;
                let ticks = frames / tick + 1;
                assert!(
                    labels as f32 <= width / 40.0 + 2.0,
                    "{frames} frames, {width} px: {labels} labels"
                );
                assert!(
                    ticks as f32 <= width / 4.0 + 2.0,
                    "{frames} frames, {width} px: {ticks} ticks"
                );
                assert!(label % tick == 0, "labels fall on ticks");
            }
        }
        // A short animation on a wide bar: every frame ticked, labels 1-2-5.
        assert_eq!(tick_spacing(10, 600.0), (1, 1));
        assert_eq!(tick_spacing(100, 600.0), (10, 1));
        assert_eq!(tick_spacing(1000, 600.0), (100, 100));
    }

    #[test]
    fn key_ticks_are_thinned_to_a_bounded_count() {
        let times: Vec<Tick> = (0..1_000_000).rev().map(|k| (f64::from(k) * 0.001, None)).collect();
        let thin = thin_ticks(times, 1000.0);
        assert!(thin.len() <= MAX_TICKS + 1, "{}", thin.len());
        assert_eq!(thin.first(), Some(&(0.0, None)));
        assert!(thin.last().unwrap().0 > 999.0);
        assert_eq!(
            thin_ticks(vec![(1.0, None), (0.0, None), (0.5, None)], 1.0),
            vec![(0.0, None), (0.5, None), (1.0, None)]
        );
    }
}
