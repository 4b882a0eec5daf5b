//! The transition preview (Animation ▸ Transition preview…): pick a "from"
//! and a "to" animation, and the canvas plays the crossfade between them —
//! each played once, the second starting the mix time before the first
//! ends — built by the very function that compiles a script's sequences
//! (`compile::blend::sequence`), so the preview is what a sequence of the
//! two would play. The mix time is the script's for the pair (its `mix`
//! sections), which the window may override. The preview has its own
//! playhead: scrubbed with the slider or played with the clock.

use std::sync::Arc;

use eframe::egui;

use crate::compile::blend::{self, Mixes, Part, Timing};
use crate::model::{Animation, Armature};
use crate::syntax::tree::SectionKind;

/// The crossfade built for some inputs.
struct Built {
    /// The document generation, the names and the mix it was built for.
    key: (u64, String, String, u64),
    /// The crossfade and its timing, or why there is none.
    result: Result<(Arc<Animation>, Timing), String>,
}

/// The preview's state.
#[derive(Default)]
pub struct TransitionPreview {
    /// Whether the window is open (and the canvas shows the crossfade).
    pub open: bool,
    /// The animation faded out.
    pub from: String,
    /// The animation faded in.
    pub to: String,
    /// A mix time that overrides the script's (seconds).
    pub mix: Option<f64>,
    /// The preview's playhead, in seconds from the start of "from".
    pub time_secs: f64,
    /// Whether the playhead advances with the clock (and loops).
    pub playing: bool,
    last_clock: Option<f64>,
    built: Option<Built>,
}

/// The crossfade times of the script's `mix` sections.
pub fn script_mixes(comp: &crate::compile::Compilation) -> Mixes {
    blend::mixes(comp.sections.iter().filter_map(|(_, s)| match &s.kind {
        SectionKind::Mix(m) => Some(m),
        _ => None,
    }))
}

impl TransitionPreview {
    /// Opens the window on `current` (into the animation after it).
    pub fn open_on(&mut self, arm: &Armature, current: Option<&str>) {
        self.open = true;
        let names: Vec<&str> = arm.animations.iter().map(|a| a.name.as_str()).collect();
        if !names.contains(&self.from.as_str()) {
            self.from = current.or(names.first().copied()).unwrap_or_default().to_string();
        }
        if !names.contains(&self.to.as_str()) || self.to == self.from {
            let at = names.iter().position(|n| *n == self.from).unwrap_or(0);
            let next = names.get(at + 1).or(names.first()).copied().unwrap_or_default();
            self.to = next.to_string();
        }
        self.time_secs = 0.0;
    }

    /// The mix time used: the override, else the script's for the pair.
    pub fn mix_secs(&self, mixes: &Mixes) -> f64 {
        self.mix.unwrap_or_else(|| mixes.between(&self.from, &self.to))
    }

    /// The crossfade for `arm` (document `generation`), rebuilt when the
    /// document, the names or the mix change.
    pub fn crossfade(
        &mut self,
        arm: &Armature,
        mixes: &Mixes,
        generation: u64,
    ) -> Result<(Arc<Animation>, Timing), String> {
        let mix = self.mix_secs(mixes);
        let key = (generation, self.from.clone(), self.to.clone(), mix.to_bits());
        if self.built.as_ref().is_none_or(|b| b.key != key) {
            let result = build(arm, &self.from, &self.to, mix);
            self.built = Some(Built { key, result });
        }
        self.built.as_ref().map_or_else(|| Err(String::new()), |b| b.result.clone())
    }

    /// Advances the playhead to the clock reading `now_secs`, looping over
    /// `length`.
    pub fn advance(&mut self, now_secs: f64, length: f64) {
        if !self.playing {
            self.last_clock = None;
            return;
        }
        let dt = self.last_clock.map_or(0.0, |c| (now_secs - c).clamp(0.0, 0.25));
        self.last_clock = Some(now_secs);
        self.time_secs = if length > 0.0 { (self.time_secs + dt).rem_euclid(length) } else { 0.0 };
    }

    /// The window: the two animations, the mix time, the playhead.
    pub fn window(&mut self, ctx: &egui::Context, arm: &Armature, mixes: &Mixes, generation: u64) {
        if !self.open {
            return;
        }
        let mut open = true;
        super::help::beside_the_script(egui::Window::new("Transition preview"), ctx)
            .open(&mut open)
            .resizable(false)
            .show(ctx, |ui| {
                self.pickers(ui, arm, mixes);
                ui.separator();
                match self.crossfade(arm, mixes, generation) {
                    Ok((anim, timing)) => self.transport(ui, &anim, &timing),
                    Err(why) => {
                        ui.weak(why);
                    }
                }
            });
        self.open = open;
    }

    fn pickers(&mut self, ui: &mut egui::Ui, arm: &Armature, mixes: &Mixes) {
        egui::Grid::new("transition-pickers").num_columns(2).show(ui, |ui| {
            for (label, value) in [("From", &mut self.from), ("To", &mut self.to)] {
                ui.label(label);
                egui::ComboBox::from_id_salt(label).selected_text(value.as_str()).show_ui(
                    ui,
                    |ui| {
                        for a in &arm.animations {
                            ui.selectable_value(value, a.name.clone(), &a.name);
                        }
                    },
                );
                ui.end_row();
            }
            ui.label("Mix (s)");
            ui.horizontal(|ui| {
                let mut m = self.mix_secs(mixes);
                let drag = egui::DragValue::new(&mut m).range(0.0..=10.0).speed(0.01);
                if ui.add(drag).changed() {
                    self.mix = Some(m);
                }
                if self.mix.is_some() {
                    if ui
                        .button("Script's")
                        .on_hover_text("The script's mix time for the pair")
                        .clicked()
                    {
                        self.mix = None;
                    }
                } else {
                    ui.weak("from the script");
                }
            });
            ui.end_row();
        });
    }

    fn transport(&mut self, ui: &mut egui::Ui, anim: &Animation, timing: &Timing) {
        let length = anim.duration_secs;
        ui.horizontal(|ui| {
            if ui.button(if self.playing { "Pause crossfade" } else { "Play crossfade" }).clicked()
            {
                self.playing = !self.playing;
            }
            if ui.button("Rewind").clicked() {
                self.time_secs = 0.0;
            }
            let slider =
                egui::Slider::new(&mut self.time_secs, 0.0..=length.max(0.0)).text("Time (s)");
            if ui.add(slider).dragged() {
                self.playing = false;
            }
        });
        let (start, mix) = (
            timing.starts.get(1).copied().unwrap_or(0.0),
            timing.mixes.first().copied().unwrap_or(0.0),
        );
        ui.label(format!(
            "“{}” from 0 s; crossfade {start:.2}–{:.2} s; “{}” until {length:.2} s",
            self.from,
            start + mix,
            self.to
        ));
        let (part, w) = timing.at(self.time_secs);
        let weight = if part == 0 { 0.0 } else { w };
        ui.label(format!("Weight of “{}”: {weight:.2}", self.to));
        if timing.clamped.contains(&0) {
            ui.weak("The mix time is longer than the animations allow: shortened to fit.");
        }
    }
}

/// The crossfade of `from` into `to` with `mix` seconds: a sequence of the
/// two, each once.
fn build(
    arm: &Armature,
    from: &str,
    to: &str,
    mix: f64,
) -> Result<(Arc<Animation>, Timing), String> {
    let find = |n: &str| {
        arm.animation_by_name(n)
            .and_then(|id| arm.animation(id))
            .ok_or_else(|| format!("No animation “{n}”"))
    };
    let (a, b) = (find(from)?, find(to)?);
    let parts = [Part { anim: a, loops: 1 }, Part { anim: b, loops: 1 }];
    let name = format!("{from} to {to}");
    match blend::sequence(&arm.skeleton, &name, a.fps, &parts, &[mix]) {
        Ok((anim, timing)) => Ok((Arc::new(anim), timing)),
        Err(frames) => Err(format!(
            "The crossfade would last {frames} frames, more than {}",
            blend::MAX_BAKED_FRAMES
        )),
    }
}
