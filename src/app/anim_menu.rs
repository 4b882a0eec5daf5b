//! The Animation menu: new (from the setup pose, or a copy of the one
//! shown), duplicate, rename, delete (asked first) and reorder — each a
//! text edit from `skelpad_ide::edits` (the same ones the language server
//! offers as code actions, rename the very same as its rename), applied as
//! one undo step with a label in the history.

use eframe::egui;

use super::SkelpadApp;
use crate::model::AnimId;
use skelpad_ide::edits::{self, Direction, TextEdit};

/// A question the Animation menu asks before it edits.
#[derive(Clone, Debug, PartialEq)]
pub enum AnimPrompt {
    /// The name of a new animation: empty (setup pose) or a copy of `copy_of`.
    New { name: String, copy_of: Option<AnimId> },
    /// The new name of `anim`.
    Rename { anim: AnimId, name: String },
    /// Delete `anim`?
    Delete { anim: AnimId },
}

/// Marks, in egui's memory, a prompt whose field has had the keyboard.
fn opened_id() -> egui::Id {
    egui::Id::unique("skelpad.anim_prompt.opened")
}

impl SkelpadApp {
    /// The animation the menu acts on: the one shown, in the compilation
    /// (`None` while the script has errors, or in the setup pose).
    fn menu_animation(&mut self) -> Option<(AnimId, String)> {
        if self.doc.analysis.shown_is_stale {
            return None;
        }
        let id = self.playback.resolve(&self.doc.analysis.shown).0?;
        let a = self.doc.analysis.comp().armature.animation(id)?;
        Some((id, a.name.clone()))
    }

    /// The Animation menu.
    pub(super) fn animation_menu(&mut self, ui: &mut egui::Ui) {
        if ui
            .button("Transition preview…")
            .on_hover_text("Play the crossfade from one animation into another")
            .clicked()
        {
            let current = self.menu_animation().map(|(_, n)| n);
            self.transition.open_on(&self.doc.analysis.shown, current.as_deref());
            ui.close();
        }
        ui.separator();
        let editable = self.doc.imported.is_none()
            && self.doc.spriter.is_none()
            && !self.doc.analysis.shown_is_stale;
        if !editable {
            ui.weak("Fix the script's errors to edit its animations (an imported file: convert it first).");
            return;
        }
        let comp = self.doc.analysis.comp();
        if ui.button("New animation…").on_hover_text("An empty animation: the setup pose").clicked()
        {
            let name = edits::unused_animation_name(comp, "anim");
            self.anim_prompt = Some(AnimPrompt::New { name, copy_of: None });
        }
        let shown = self.menu_animation();
        let Some((id, name)) = shown else {
            ui.weak("Pick an animation to copy, rename, delete or move it.");
            return;
        };
        let count = self.doc.analysis.comp().armature.animations.len();
        if ui.button(format!("New as a copy of “{name}”…")).clicked() {
            let comp = self.doc.analysis.comp();
            let copy = edits::unused_animation_name(comp, &format!("{name}-copy"));
            self.anim_prompt = Some(AnimPrompt::New { name: copy, copy_of: Some(id) });
        }
        if ui.button(format!("Duplicate “{name}”")).clicked() {
            let comp = self.doc.analysis.comp();
            let r = edits::duplicate_animation(&self.doc.text, comp, id, None);
            self.apply_anim_edit(ui.ctx(), r, format!("Duplicated “{name}”"), None);
        }
        if ui.button(format!("Rename “{name}”…")).clicked() {
            self.anim_prompt = Some(AnimPrompt::Rename { anim: id, name: name.clone() });
        }
        if ui.button(format!("Delete “{name}”…")).clicked() {
            self.anim_prompt = Some(AnimPrompt::Delete { anim: id });
        }
        ui.separator();
        for (label, dir, enabled) in [
            ("Move up", Direction::Up, id.index() > 0),
            ("Move down", Direction::Down, id.index() + 1 < count),
        ] {
            if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                let comp = self.doc.analysis.comp();
                let r = edits::move_animation(&self.doc.text, comp, id, dir);
                let done =
                    format!("Moved “{name}” {}", if dir == Direction::Up { "up" } else { "down" });
                self.apply_anim_edit(ui.ctx(), r, done, Some(name.clone()));
            }
        }
    }

    /// Applies an Animation menu edit as one undo step, or says why not;
    /// then shows animation `select` (by name), if given.
    fn apply_anim_edit(
        &mut self,
        ctx: &egui::Context,
        result: Result<Vec<TextEdit>, String>,
        done: String,
        select: Option<String>,
    ) {
        let edits = match result {
            Ok(e) => e,
            Err(why) => return self.say(format!("Not changed: {why}"), true),
        };
        let text = skelpad_ide::text_edit::apply(&self.doc.text, &edits);
        self.editor.history.mark(ctx, &self.doc.text, done.clone());
        self.editor.follow_replacement(ctx, &self.doc.text, &text);
        self.doc.text = text;
        self.doc.sync();
        if let Some(name) = select {
            let arm = &self.doc.analysis.shown;
            if let Some(i) = arm.animations.iter().position(|a| a.name == name) {
                self.playback.select_anim(arm, AnimId::from_index(i));
            }
        }
        self.say(done, false);
        ctx.request_repaint();
    }

    /// The Animation menu's question, as a modal; applies the answer.
    pub(super) fn anim_prompt_ui(&mut self, ctx: &egui::Context) {
        let Some(mut prompt) = self.anim_prompt.take() else { return };
        let names = |app: &Self, id: AnimId| {
            app.doc
                .analysis
                .comp()
                .armature
                .animation(id)
                .map(|a| a.name.clone())
                .unwrap_or_default()
        };
        let mut answer = None;
        egui::Modal::new(egui::Id::unique("skelpad.anim_prompt")).show(ctx, |ui| {
            ui.set_max_width(380.0);
            let (title, ok) = match &prompt {
                AnimPrompt::New { copy_of: None, .. } => ("New animation".to_owned(), "Create"),
                AnimPrompt::New { copy_of: Some(id), .. } => {
                    (format!("New copy of “{}”", names(self, *id)), "Create")
                }
                AnimPrompt::Rename { anim, .. } => {
                    (format!("Rename “{}”", names(self, *anim)), "Rename")
                }
                AnimPrompt::Delete { anim } => {
                    (format!("Delete “{}”?", names(self, *anim)), "Delete")
                }
            };
            ui.heading(title);
            let mut enter = false;
            match &mut prompt {
                AnimPrompt::New { name, .. } | AnimPrompt::Rename { name, .. } => {
                    let l = ui.label("Name");
                    let field = ui.text_edit_singleline(name).labelled_by(l.id);
                    enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    // The field takes the keyboard when the prompt opens.
                    if ui.data(|d| d.get_temp::<bool>(opened_id()).is_none()) {
                        field.request_focus();
                        ui.data_mut(|d| d.insert_temp(opened_id(), true));
                    }
                }
                AnimPrompt::Delete { .. } => {
                    ui.label("Its sections are removed from the script (Ctrl+Z brings them back).");
                }
            }
            ui.horizontal(|ui| {
                if ui.button(ok).clicked() || enter {
                    answer = Some(true);
                }
                if ui.button("Cancel").clicked() || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                    answer = Some(false);
                }
            });
        });
        if answer.is_some() {
            ctx.data_mut(|d| d.remove::<bool>(opened_id()));
        }
        match answer {
            None => self.anim_prompt = Some(prompt),
            Some(false) => {}
            Some(true) => self.answer_anim_prompt(ctx, prompt),
        }
    }

    fn answer_anim_prompt(&mut self, ctx: &egui::Context, prompt: AnimPrompt) {
        let (text, comp) = (&self.doc.text, self.doc.analysis.comp());
        let (result, done, select) = match prompt {
            AnimPrompt::New { name, copy_of: None } => {
                let r = edits::new_animation(text, comp, &name, None);
                (r, format!("New animation “{name}”"), Some(name))
            }
            AnimPrompt::New { name, copy_of: Some(id) } => {
                let r = edits::duplicate_animation(text, comp, id, Some(&name));
                (r, format!("New animation “{name}”, a copy"), Some(name))
            }
            AnimPrompt::Rename { anim, name } => {
                let r = edits::rename_animation(text, comp, anim, &name);
                (r, format!("Renamed the animation to “{name}”"), Some(name))
            }
            AnimPrompt::Delete { anim } => {
                let old = comp.armature.animation(anim).map(|a| a.name.clone()).unwrap_or_default();
                (edits::delete_animation(text, comp, anim), format!("Deleted “{old}”"), None)
            }
        };
        self.apply_anim_edit(ctx, result, done, select);
    }
}
