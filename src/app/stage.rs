//! The stage: the timeline (with the dopesheet under it) and the canvas
//! showing the pose at the playback time, and what they do to the script —
//! a canvas drag rewrites a value, a dopesheet drag moves keys, a click
//! selects a bone or slot and puts the editor cursor on its line.

use eframe::egui;

use crate::model::Skeleton;
use crate::runtime::evaluate_into;

use super::canvas::{self, Pick, Scene};
use super::{Selected, SkelpadApp, dopesheet, drag, spriter, timeline, write_back};

impl SkelpadApp {
    /// The timeline and the canvas: the pose at the playback time, drawn.
    pub(super) fn stage(&mut self, ui: &mut egui::Ui, ctx: &egui::Context) {
        let arm = self.doc.analysis.shown.clone();
        egui::Panel::bottom("timeline")
            .resizable(false)
            .show(ui, |ui| self.timeline_panel(ui, &arm));
        let (anim_id, skin) = self.playback.resolve(&arm);
        let anim = anim_id.and_then(|a| arm.animation(a));
        if self.doc.spriter.is_some() {
            spriter::follow_file_looping(&mut self.playback, anim);
        }
        self.playback.advance(self.now, anim);
        evaluate_into(&mut self.pose, &arm, anim, skin, self.playback.sample_time(anim));
        let selected = self.selected.as_ref().and_then(|s| resolve_selected(&arm.skeleton, s));
        let visible = self.outline.visibility(&arm.skeleton);
        let scene = Scene {
            armature: &arm,
            pose: &self.pose,
            anim: anim_id,
            skin,
            time_secs: self.playback.sample_time(anim),
            looping: self.playback.looping,
            onion_skin: self.settings.view.onion_skin,
            cursor_bone: self.cursor_bone,
            selected,
            show_grid: self.settings.view.show_grid,
            show_bones: self.settings.view.show_bones,
            stale: self.doc.analysis.shown_is_stale,
            failing_bones: failing_bones(
                &self.doc.analysis.comp,
                anim_id,
                self.playback.sample_time(anim),
                self.doc.analysis.shown_is_stale,
            ),
            visible_bones: visible.as_deref(),
        };
        let out = self.canvas.ui(ui, &mut self.view, &scene, &mut self.drawing);
        if out.toggle_play {
            self.playback.toggle_play(anim);
        }
        if out.step_frames != 0 {
            self.playback.step_frames(anim, out.step_frames);
        }
        if out.home {
            self.playback.home();
        }
        if out.end {
            self.playback.end(anim);
        }
        if let Some(pick) = out.clicked {
            self.pick(pick);
        }
        if let Some(d) = out.drag {
            let time_secs = self.playback.sample_time(anim);
            let place = match (anim_id, anim) {
                (Some(a), Some(an)) => write_back::Place::Anim { anim: a, time_secs, fps: an.fps },
                _ => write_back::Place::Setup,
            };
            self.on_drag(ctx, d, place);
        }
        if self.playback.playing && anim.is_some() {
            ctx.request_repaint();
        }
    }

    /// The timeline of the shown armature, with the key ticks of the
    /// animation (of the bone under the cursor, if any).
    fn timeline_panel(&mut self, ui: &mut egui::Ui, arm: &crate::model::Armature) {
        ui.add_space(4.0);
        let anim_name =
            self.playback.resolve(arm).0.and_then(|a| arm.animation(a)).map(|a| a.name.clone());
        let focus = self
            .cursor_bone
            .and_then(|b| arm.skeleton.bones.get(b.index()))
            .map(|b| b.name.clone());
        let ticks =
            anim_name.and_then(|a| key_ticks(&self.doc.analysis.comp, &a, focus.as_deref()));
        let out = timeline::ui(
            ui,
            &mut self.playback,
            &mut self.settings.view,
            arm,
            self.cursor_bone,
            ticks,
        );
        if out.fit {
            self.canvas.fit_requested = true;
        }
        if let Some(span) = out.jump {
            self.editor.select(span.range());
        }
        if self.settings.view.show_dopesheet {
            self.dopesheet_rows(ui, arm);
        }
        ui.add_space(2.0);
    }

    /// The dopesheet under the timeline: the rows of the selected
    /// animation, from the source map; a key drag rewrites the frame tokens
    /// around the key ([`dopesheet::move_key`]), one undo step per drag.
    fn dopesheet_rows(&mut self, ui: &mut egui::Ui, arm: &crate::model::Armature) {
        let ctx = ui.ctx().clone();
        let Some(shown) = self.playback.resolve(arm).0.and_then(|a| arm.animation(a)) else {
            return;
        };
        let comp = &self.doc.analysis.comp;
        let Some(anim) = comp.armature.animations.iter().position(|a| a.name == shown.name) else {
            ui.weak("Fix the errors in this animation to see its keys.");
            return;
        };
        let anim = crate::model::AnimId::from_index(anim);
        let editable = !self.doc.analysis.shown_is_stale && self.doc.spriter.is_none();
        let playhead = self.playback.sample_time(Some(shown)) * shown.fps;
        let max_height = (ctx.content_rect().height() * 0.25).clamp(48.0, 240.0);
        ui.add_space(2.0);
        let out = self.dopesheet.ui(ui, &self.doc.text, comp, anim, playhead, max_height, editable);
        if let Some(span) = out.jump {
            self.editor.select(span.range());
        }
        if out.paste && editable {
            let at = playhead.round();
            let keys = self.dopesheet.clipboard.clone();
            let pasted = dopesheet::paste_keys(&self.doc.text, comp, anim, &keys, at);
            let done =
                format!("Pasted {} key(s) at frame {}", keys.len(), write_back::format_number(at));
            self.apply_key_edit(&ctx, pasted, done, "Not pasted");
            return;
        }
        if out.delete && editable {
            let keys = self.dopesheet.selected.clone();
            let deleted = dopesheet::delete_keys(&self.doc.text, comp, anim, &keys);
            self.apply_key_edit(
                &ctx,
                deleted,
                format!("Deleted {} key(s)", keys.len()),
                "Not deleted",
            );
            return;
        }
        if let Some((tl, key)) = out.drag_start {
            self.start_key_drag(&ctx, anim, tl, key);
        }
        if let Some(df) = out.drag_to {
            self.follow_key_drag(&ctx, df);
        }
        // The drag ends when its key says so, or when the button is up
        // (its row may have been collapsed or scrolled away).
        let released = !ctx.input(|i| i.pointer.primary_down());
        if (out.drag_end || released)
            && let Some(kd) = self.key_drag.take()
            && kd.changed
        {
            self.say(format!("Moved a key to frame {}", write_back::format_number(kd.last)), false);
        }
    }

    /// A dopesheet paste or delete: its new text replaces the script as
    /// one undo step (and `done` is said), or `failed` says why not.
    fn apply_key_edit(
        &mut self,
        ctx: &egui::Context,
        edited: Result<String, String>,
        done: String,
        failed: &str,
    ) {
        match edited {
            Ok(text) => {
                drag::mark_undo_point(ctx, &self.doc.text);
                self.editor.follow_replacement(ctx, &self.doc.text, &text);
                self.doc.text = text;
                self.doc.sync();
                self.say(done, false);
                ctx.request_repaint();
            }
            Err(why) => self.say(format!("{failed}: {why}"), true),
        }
    }

    /// A drag begins on key `key` of timeline `tl` (with the selection,
    /// when the key is in it): playback pauses, the text before it is the
    /// undo point.
    fn start_key_drag(
        &mut self,
        ctx: &egui::Context,
        anim: crate::model::AnimId,
        tl: usize,
        key: usize,
    ) {
        let comp = &self.doc.analysis.comp;
        let from = comp
            .sources
            .timelines
            .get(tl)
            .and_then(|t| comp.sources.keys_of(t).get(key).map(|k| k.frame));
        let Some(from) = from else { return };
        self.playback.playing = false;
        drag::mark_undo_point(ctx, &self.doc.text);
        // A selected key drags the whole selection with it.
        let sel = &self.dopesheet.selected;
        let keys =
            if sel.len() > 1 && sel.contains(&(tl, key)) { sel.clone() } else { vec![(tl, key)] };
        self.key_drag = Some(KeyDrag {
            keys,
            base_text: self.doc.text.clone(),
            base: Box::new(comp.clone()),
            anim,
            timeline: tl,
            key,
            from,
            last: from,
            changed: false,
        });
    }

    /// The key drag moved `df` frames from where it began: the keys are
    /// rewritten from the text the drag started from.
    fn follow_key_drag(&mut self, ctx: &egui::Context, df: f64) {
        let Some(kd) = self.key_drag.as_mut() else { return };
        let to = if df == 0.0 { kd.from } else { (kd.from + df).round() };
        if to == kd.last {
            return;
        }
        kd.last = to;
        let moved = if kd.keys.len() > 1 {
            dopesheet::move_keys(&kd.base_text, &kd.base, kd.anim, &kd.keys, df)
        } else {
            dopesheet::move_key(&kd.base_text, &kd.base, kd.anim, kd.timeline, kd.key, to)
                .map(|edits| write_back::apply(&kd.base_text, &edits))
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
                let n = kd.keys.len();
                let what = if n > 1 { format!("{n} keys") } else { "Key".into() };
                self.status =
                    Some((format!("{what} to frame {}", write_back::format_number(to)), false));
            }
            Err(why) => self.say(format!("Not moved: {why}"), true),
        }
    }

    /// A canvas drag: starts, updates or ends an edit of the script. The
    /// preview follows (each update recompiles), playback pauses, and the
    /// whole drag is one step of the editor's undo history.
    fn on_drag(&mut self, ctx: &egui::Context, d: canvas::Drag, place: write_back::Place) {
        match d.phase {
            canvas::DragPhase::Start(pick, part) => {
                self.drag = None;
                if self.doc.analysis.shown_is_stale
                    || !std::sync::Arc::ptr_eq(
                        &self.doc.analysis.shown.skeleton,
                        &self.doc.analysis.comp.armature.skeleton,
                    )
                {
                    self.say(
                        "The script has errors that hide part of it: fix them before dragging",
                        true,
                    );
                    return;
                }
                self.playback.playing = false;
                let shapes = self.settings.view.drag_shapes;
                match drag::DragEdit::begin(
                    &self.doc, &self.pose, pick, part, d.shift, d.world, place, shapes,
                ) {
                    Ok(edit) => {
                        self.say(edit.describe(), false);
                        drag::mark_undo_point(ctx, edit.before());
                        self.drag = Some(edit);
                    }
                    Err(why) => self.say(format!("Not changed: {why}"), true),
                }
            }
            canvas::DragPhase::Move | canvas::DragPhase::End => {
                let snap = d.alt || self.settings.view.snap;
                let ended = d.phase == canvas::DragPhase::End;
                if let Some(edit) = self.drag.as_mut()
                    && d.world.0.is_finite()
                {
                    match edit.update(d.world, snap) {
                        Ok(text) => {
                            if text != self.doc.text {
                                self.editor.follow_replacement(ctx, &self.doc.text, &text);
                                self.doc.text = text;
                                self.doc.sync();
                                edit.changed = true;
                                ctx.request_repaint();
                            }
                        }
                        Err(why) => self.say(format!("Not changed: {why}"), true),
                    }
                }
                // (The text before the drag is the last undo point, so an
                // undo from here restores it: the drag is one step.)
                if ended
                    && let Some(edit) = self.drag.take()
                    && edit.changed
                {
                    self.say(
                        format!("Done {}", edit.describe().split(';').next().unwrap_or_default()),
                        false,
                    );
                }
            }
        }
    }

    /// Selects what was clicked and puts the editor cursor on its line.
    fn pick(&mut self, pick: Option<Pick>) {
        let shown = &self.doc.analysis.shown.skeleton;
        self.selected = match pick {
            Some(Pick::Bone(b)) => {
                shown.bones.get(b.index()).map(|b| Selected::Bone(b.name.clone()))
            }
            Some(Pick::Slot(s)) => {
                shown.slots.get(s.index()).map(|s| Selected::Slot(s.name.clone()))
            }
            None => None,
        };
        // Source spans belong to the current compilation, which may differ
        // from the armature shown: look the item up there by name.
        let comp = &self.doc.analysis.comp;
        let sk = &comp.armature.skeleton;
        let span = match &self.selected {
            Some(Selected::Bone(n)) => sk
                .bone_by_name(n)
                .and_then(|b| comp.sources.bones.get(b.index()).copied().flatten()),
            Some(Selected::Slot(n)) => {
                sk.slot_by_name(n).and_then(|s| comp.sources.slots.get(s.index()).copied())
            }
            None => None,
        };
        if let Some(span) = span {
            let r = span.range();
            self.editor.select(r.start..r.start);
        }
    }
}

fn resolve_selected(sk: &Skeleton, s: &Selected) -> Option<Pick> {
    match s {
        Selected::Bone(n) => sk.bone_by_name(n).map(Pick::Bone),
        Selected::Slot(n) => sk.slot_by_name(n).map(Pick::Slot),
    }
}

/// A dopesheet key drag: the text and compilation it started from (every
/// update rewrites that text, so the drag is one edit), and the key.
pub(super) struct KeyDrag {
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
    /// The text differs from `base_text`.
    changed: bool,
}

/// The keyframe ticks of an animation (of one bone and its slots, or of
/// everything), from the source map: each key's time and its text. `None`
/// when the compilation has no such animation or bone.
pub fn key_ticks(
    comp: &crate::compile::Compilation,
    anim: &str,
    bone: Option<&str>,
) -> Option<Vec<timeline::Tick>> {
    use crate::compile::Target;
    let arm = &comp.armature;
    let anim =
        crate::model::AnimId::from_index(arm.animations.iter().position(|a| a.name == anim)?);
    let sk = &arm.skeleton;
    let bone = match bone {
        Some(b) => Some(sk.bone_by_name(b)?),
        None => None,
    };
    let wanted = |t: Option<Target>| match (t, bone) {
        (Some(_), None) => true,
        (Some(Target::Bone(b)), Some(x)) => b == x,
        (Some(Target::Slot(s)), Some(x)) => sk.slots.get(s.index()).is_some_and(|s| s.bone == x),
        _ => false,
    };
    let src = &comp.sources;
    let mut ticks: Vec<timeline::Tick> = src
        .timelines
        .iter()
        .filter(|t| t.anim == anim && t.effective && wanted(t.target))
        .flat_map(|t| src.keys_of(t).into_iter().map(|k| (k.time_secs, Some(k.span))))
        .collect();
    ticks.sort_by(|a, b| a.0.total_cmp(&b.0));
    ticks.dedup_by(|a, b| a.0 == b.0);
    Some(ticks)
}

/// The bones of the pose assertions that fail at `time_secs` of `anim`
/// (within half a frame); none while the canvas shows an older version.
fn failing_bones(
    comp: &crate::compile::Compilation,
    anim: Option<crate::model::AnimId>,
    time_secs: f64,
    stale: bool,
) -> Vec<crate::model::BoneId> {
    if stale {
        return Vec::new();
    }
    let half_frame =
        anim.and_then(|a| comp.armature.animation(a)).map_or(1e-9, |a| 0.5 / a.fps.max(1e-9));
    comp.expectations
        .iter()
        .filter(|e| !e.passed() && e.anim == anim && (e.time_secs - time_secs).abs() <= half_frame)
        .filter_map(|e| e.bone(&comp.armature))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::EXAMPLE;
    use super::*;
    use crate::model::{AnimId, BoneId};

    #[test]
    fn key_ticks_from_the_source_map_match_the_model() {
        for text in [
            EXAMPLE,
            include_str!("../../examples/tentacle.skel2d"),
            include_str!("../../examples/bouncing_ball.skel2d"),
        ] {
            let comp = crate::compile::compile(text);
            let sk = &comp.armature.skeleton;
            // (An animation made `from` another has no keys of its own
            // written, so the source map gives it no ticks.)
            let derived =
                |a: &crate::model::Animation| text.contains(&format!("anim \"{}\" from", a.name));
            for a in comp.armature.animations.iter().filter(|a| !derived(a)) {
                let ticks: Vec<f64> =
                    key_ticks(&comp, &a.name, None).unwrap().into_iter().map(|t| t.0).collect();
                assert_eq!(ticks, a.key_times(sk, None), "{}", a.name);
                for (i, b) in sk.bones.iter().enumerate() {
                    let ticks = key_ticks(&comp, &a.name, Some(&b.name)).unwrap();
                    let times: Vec<f64> = ticks.iter().map(|t| t.0).collect();
                    assert_eq!(
                        times,
                        a.key_times(sk, Some(BoneId::from_index(i))),
                        "{} {}",
                        a.name,
                        b.name
                    );
                    // Each tick knows the token that made its key.
                    assert!(
                        ticks
                            .iter()
                            .all(|t| t.1.is_some_and(|s| !text[s.range()].trim().is_empty()))
                    );
                }
            }
        }
        assert!(key_ticks(&crate::compile::compile(EXAMPLE), "no such animation", None).is_none());
    }

    #[test]
    fn a_failing_assertion_highlights_its_bone_at_its_time_only() {
        // `arm` turns 90° by frame 5 (0.5 s at 10 fps); the assertion says 80.
        let text = "skeleton\n\tarm l10\n\tleg l10\nanim \"a\" 10fps\n\tarm\n\t\tr 0 -> 90\nexpect \"a\" 5\n\tarm r80\n\tleg r0\n";
        let comp = crate::check::expect::compile_checked(text);
        let arm = comp.armature.skeleton.bone_by_name("arm").unwrap();
        assert!(comp.has_errors() && !comp.has_armature_errors());
        assert_eq!(failing_bones(&comp, Some(AnimId(0)), 0.5, false), [arm]);
        assert_eq!(failing_bones(&comp, Some(AnimId(0)), 0.53, false), [arm]);
        assert!(failing_bones(&comp, Some(AnimId(0)), 0.2, false).is_empty());
        assert!(failing_bones(&comp, None, 0.5, false).is_empty());
        assert!(failing_bones(&comp, Some(AnimId(0)), 0.5, true).is_empty());
    }
}
