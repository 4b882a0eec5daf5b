//! The dopesheet in the app: what its output asks (drag, delete, paste,
//! insert) applied to the document, one undo step each.

use crate::compile::Target;
use crate::model::AnimId;

use super::{DopeInput, DopeOutput};
use crate::app::{Selected, SkelpadApp, dopesheet, drag};
use skelpad_ide::{edits, text_edit};

impl SkelpadApp {
    /// The dopesheet under the timeline: the rows of the selected
    /// animation, from the source map; a key drag rewrites the frame tokens
    /// around the key ([`dopesheet::move_key`]), one undo step per drag.
    pub(in crate::app) fn dopesheet_rows(
        &mut self,
        ui: &mut egui::Ui,
        arm: &crate::model::Armature,
    ) {
        let ctx = ui.ctx().clone();
        let Some(shown) = self.playback.resolve(arm).0.and_then(|a| arm.animation(a)) else {
            return;
        };
        let comp = self.doc.analysis.comp();
        let Some(anim) = comp.armature.animations.iter().position(|a| a.name == shown.name) else {
            ui.weak("Fix the errors in this animation to see its keys.");
            return;
        };
        let anim = AnimId::from_index(anim);
        let editable = !self.doc.analysis.shown_is_stale && self.doc.spriter.is_none();
        let playhead = self.playback.sample_time(Some(shown)) * shown.fps;
        let frame = self.playback.frame(shown) as f64;
        ui.add_space(2.0);
        let sk = &comp.armature.skeleton;
        let selected_item = match &self.selected {
            Some(Selected::Bone(n)) => sk.bone_by_name(n).map(Target::Bone),
            Some(Selected::Slot(n)) => sk.slot_by_name(n).map(Target::Slot),
            None => self.cursor_bone.map(Target::Bone),
        };
        let input = DopeInput {
            text: &self.doc.text,
            comp,
            anim,
            playhead,
            frame,
            max_height: self.dopesheet_height(ui),
            editable,
            selected_item,
        };
        let out = self.dopesheet.ui(ui, &input);
        if let Some(span) = out.jump {
            self.editor.select(span.range());
            // The script pane, drawn before the stage, applies it next frame.
            ctx.request_repaint();
        }
        if !(editable && self.dopesheet_edit(&ctx, anim, frame, &out)) {
            self.dopesheet_drag(&ctx, anim, &out);
        }
        self.curve_editor(ui, anim);
    }

    /// The rows' height at most: 30% of the window, less when the window
    /// is short, so that the canvas keeps 200 points (besides the menu and
    /// status bars, about 65 points, what the timeline panel drew above
    /// the rows and the curve editor's strip below them).
    fn dopesheet_height(&self, ui: &egui::Ui) -> f32 {
        let window = ui.ctx().content_rect().height();
        let strip = if self.curve_strip_shown() {
            crate::app::curve::strip_height(window) + 8.0
        } else {
            0.0
        };
        let room = window - 65.0 - ui.min_rect().height() - 200.0 - strip;
        (window * 0.3).min(room).clamp(48.0, 300.0)
    }

    /// The text `text` replaces the script, one undo step, and the status
    /// says `done`.
    pub(in crate::app) fn replace_script(
        &mut self,
        ctx: &egui::Context,
        text: String,
        done: String,
    ) {
        self.editor.history.mark(ctx, &self.doc.text, done.clone());
        self.editor.follow_replacement(ctx, &self.doc.text, &text);
        self.doc.text = text;
        self.doc.sync();
        self.say(done, false);
        ctx.request_repaint();
    }

    /// Paste, delete or insert, as the dopesheet asked: whether it did.
    fn dopesheet_edit(
        &mut self,
        ctx: &egui::Context,
        anim: AnimId,
        at: f64,
        out: &DopeOutput,
    ) -> bool {
        let comp = self.doc.analysis.comp();
        let frame = edits::format_number(at);
        let (result, done, not) = if let Some(keys) = &out.paste {
            let r = dopesheet::paste_keys(&self.doc.text, comp, anim, keys, at);
            (r, format!("Pasted {} key(s) at frame {frame}", keys.len()), "Not pasted")
        } else if out.delete {
            let keys = &self.dopesheet.selected;
            let r = dopesheet::delete_keys(&self.doc.text, comp, anim, keys);
            (r, format!("Deleted {} key(s)", keys.len()), "Not deleted")
        } else if !out.insert.is_empty() {
            let r = edits::insert_keys(&self.doc.text, comp, anim, &out.insert, at);
            (r, format!("Inserted key(s) at frame {frame}"), "No key inserted")
        } else {
            return false;
        };
        match result {
            Ok(text) => self.replace_script(ctx, text, done),
            Err(why) => self.say(format!("{not}: {why}"), true),
        }
        true
    }

    /// A key drag: starts, follows or ends the move of its keys.
    fn dopesheet_drag(&mut self, ctx: &egui::Context, anim: AnimId, out: &DopeOutput) {
        if let Some(key) = out.drag_start {
            self.start_key_drag(ctx, anim, key);
        }
        if let Some(df) = out.drag_to {
            self.follow_key_drag(ctx, df);
        }
        // The drag ends when its key says so, or when the button is up
        // (its row may have been collapsed or scrolled away).
        let released = !ctx.input(|i| i.pointer.primary_down());
        if (out.drag_end || released)
            && let Some(kd) = self.key_drag.take()
            && kd.changed
        {
            // The moved keys keep their indices: they stay selected.
            self.dopesheet.selected = kd.keys.clone();
            self.dopesheet.keep_selection(&self.doc.text);
            let n = kd.keys.len();
            let done = if n > 1 {
                format!("Moved {n} keys by {} frame(s)", edits::format_number(kd.landed - kd.from))
            } else {
                format!("Moved a key to frame {}", edits::format_number(kd.landed))
            };
            let now = ctx.input(|i| i.time);
            self.editor.history.record(&kd.base_text, done.clone(), now);
            self.say(done, false);
        }
    }

    /// Starts the drag of key `key` of timeline `tl` (with the selection, if
    /// the key is in it).
    fn start_key_drag(&mut self, ctx: &egui::Context, anim: AnimId, (tl, key): (usize, usize)) {
        let comp = self.doc.analysis.comp();
        let from = comp
            .sources
            .timelines
            .get(tl)
            .and_then(|t| comp.sources.keys_of(t).get(key).map(|k| k.frame));
        if let Some(from) = from {
            self.playback.playing = false;
            drag::mark_undo_point(ctx, &self.doc.text);
            // A selected key drags the whole selection with it.
            let sel = &self.dopesheet.selected;
            let keys = if sel.len() > 1 && sel.contains(&(tl, key)) {
                sel.clone()
            } else {
                vec![(tl, key)]
            };
            self.key_drag = Some(KeyDrag {
                keys,
                base_text: self.doc.text.clone(),
                base: Box::new(comp.clone()),
                anim,
                timeline: tl,
                key,
                from,
                last: from,
                landed: from,
                changed: false,
            });
        }
    }

    /// Moves the dragged keys `df` frames from where they started (whole
    /// frames), rewriting the text the drag started from.
    fn follow_key_drag(&mut self, ctx: &egui::Context, df: f64) {
        let Some(kd) = self.key_drag.as_mut() else { return };
        let to = if df == 0.0 { kd.from } else { (kd.from + df).round() };
        if to != kd.last {
            kd.last = to;
            let moved = if kd.keys.len() > 1 {
                dopesheet::move_keys(&kd.base_text, &kd.base, kd.anim, &kd.keys, df)
            } else {
                dopesheet::move_key(&kd.base_text, &kd.base, kd.anim, kd.timeline, kd.key, to)
                    .map(|edits| text_edit::apply(&kd.base_text, &edits))
            };
            match moved {
                Ok(text) => {
                    if text != self.doc.text {
                        self.editor.follow_replacement(ctx, &self.doc.text, &text);
                        self.doc.text = text;
                        self.doc.sync();
                        kd.changed = kd.base_text != self.doc.text;
                        ctx.request_repaint();
                    }
                    // Where the key is now: a key is stopped by its
                    // neighbours, so not always where it was asked to go.
                    let src = &self.doc.analysis.comp().sources;
                    let now = src.timelines.get(kd.timeline).filter(|tl| tl.anim == kd.anim);
                    let now = now.and_then(|tl| src.keys_of(tl).get(kd.key).map(|k| k.frame));
                    kd.landed = now.unwrap_or(to);
                    let n = kd.keys.len();
                    let what = if n > 1 { format!("{n} keys") } else { "Key".into() };
                    let at = edits::format_number(kd.landed);
                    self.status = Some((format!("{what} at frame {at}"), false));
                }
                Err(why) => self.say(format!("Not moved: {why}"), true),
            }
        }
    }
}

/// A dopesheet key drag: the text and compilation it started from (every
/// update rewrites that text, so the drag is one edit), and the key.
pub struct KeyDrag {
    /// Every key that moves (the dragged one, or the selection it is in).
    keys: Vec<(usize, usize)>,
    base_text: String,
    base: Box<crate::compile::Compilation>,
    anim: crate::model::AnimId,
    timeline: usize,
    key: usize,
    /// The key's frame when the drag began.
    from: f64,
    /// The frame last asked for.
    last: f64,
    /// Where the dragged key is after the last move (a neighbour may have
    /// stopped it short of `last`).
    landed: f64,
    /// The text differs from `base_text`.
    changed: bool,
}
