//! Spriter files (`.scml`/`.scon`) in the editor: the banner over
//! the read-only text (entity selector, what is read but not played,
//! warnings) and looping as the file says.
//!
//! `Document::open` reads such a file into a `SpriterView` (the analysis
//! frozen on the entity's armature); `.skf` files open read-only the same way
//! (`Document::open_skf`).

use eframe::egui;

use super::document::Document;
use super::timeline::Playback;
use crate::model::Animation;

/// The banner above an imported file's text. `anim`: the animation shown.
pub fn banner(ui: &mut egui::Ui, doc: &mut Document, anim: Option<usize>) {
    let Some(imp) = &doc.spriter else { return };
    let mut pick = None;
    egui::Frame::group(ui.style()).fill(ui.visuals().faint_bg_color).show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            ui.strong("Spriter file, read-only");
            ui.weak("(skelpad convert writes it as a script)");
        });
        ui.horizontal(|ui| {
            let current = imp.entity().map_or("", |e| e.name.as_str());
            egui::ComboBox::from_label("Entity").selected_text(current).show_ui(ui, |ui| {
                for (i, e) in imp.file.entities.iter().enumerate() {
                    if ui.selectable_label(i == imp.entity, &e.name).clicked() {
                        pick = Some(i);
                    }
                }
            });
        });
        if let Some(ex) = imp.entity().and_then(|e| anim.and_then(|a| e.extras.get(a))) {
            let mut notes = Vec::new();
            let list = |v: &[(String, f64)]| {
                v.iter().map(|(n, t)| format!("{n} @ {t:.3}s")).collect::<Vec<_>>().join(", ")
            };
            if !ex.events.is_empty() {
                notes.push(format!("events: {}", list(&ex.events)));
            }
            if !ex.sounds.is_empty() {
                notes.push(format!("sounds: {}", list(&ex.sounds)));
            }
            if !ex.tags.is_empty() {
                let tags: Vec<String> =
                    ex.tags.iter().map(|(t, v)| format!("{t:.3}s: {}", v.join(" "))).collect();
                notes.push(format!("tags: {}", tags.join(", ")));
            }
            if ex.variable_keys > 0 {
                notes.push(format!("{} variable keys", ex.variable_keys));
            }
            for (ty, name) in &ex.unplayed_objects {
                notes.push(format!("{ty} \"{name}\""));
            }
            if !notes.is_empty() {
                ui.label(format!("Read, not played: {}", notes.join("; ")));
            }
        }
        let warnings = &imp.file.warnings;
        if !warnings.is_empty() {
            egui::CollapsingHeader::new(format!("{} warning(s)", warnings.len()))
                .id_salt("spriter-warnings")
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().max_height(120.0).show(ui, |ui| {
                        for w in warnings {
                            ui.label(w.to_string());
                        }
                    });
                });
        }
    });
    if let Some(i) = pick {
        doc.set_entity(i);
    }
}

/// Sets the loop switch from the file when another animation is shown.
pub fn follow_file_looping(playback: &mut Playback, anim: Option<&Animation>) {
    let Some(a) = anim else { return };
    if playback.looping_set_for.as_deref() != Some(a.name.as_str()) {
        playback.looping_set_for = Some(a.name.clone());
        if let Some(l) = a.looping {
            playback.looping = l;
        }
    }
}
