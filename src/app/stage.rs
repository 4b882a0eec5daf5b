//! The stage: the timeline (with the dopesheet under it) and the canvas
//! showing the pose at the playback time, and what they do to the script —
//! a canvas drag rewrites a value, a dopesheet drag moves keys, a click
//! selects a bone or slot and puts the editor cursor on its line.

use eframe::egui;

use crate::model::Skeleton;
use crate::runtime::evaluate_into;

use super::canvas::{self, Pick, Scene};
use super::{Selected, SkelpadApp, drag, spriter, timeline};
use skelpad_ide::edits as write_back;

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
        let preview = self.transition_pose(&arm, skin);
        let (anim_id, anim) = if preview { (None, None) } else { (anim_id, anim) };
        let selected = self.selected.as_ref().and_then(|s| resolve_selected(&arm.skeleton, s));
        let visible = self.outline.visibility(&arm.skeleton);
        let scene = Scene {
            armature: &arm,
            pose: &self.pose,
            anim: anim_id,
            skin,
            time_secs: if preview {
                self.transition.time_secs
            } else {
                self.playback.sample_time(anim)
            },
            looping: self.playback.looping,
            onion_skin: self.settings.view.onion_skin,
            cursor_bone: self.cursor_bone,
            selected,
            show_grid: self.settings.view.show_grid,
            show_bones: self.settings.view.show_bones,
            stale: self.doc.analysis.shown_is_stale,
            failing_bones: failing_bones(
                self.doc.analysis.comp(),
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
        if let Some(d) = out.drag.filter(|_| !preview) {
            let time_secs = self.playback.sample_time(anim);
            let place = match (anim_id, anim) {
                (Some(a), Some(an)) => write_back::Place::Anim { anim: a, time_secs, fps: an.fps },
                _ => write_back::Place::Setup,
            };
            self.on_drag(ctx, d, place);
        }
        if (self.playback.playing && anim.is_some()) || (preview && self.transition.playing) {
            ctx.request_repaint();
        }
    }

    /// While the transition preview is open: the pose of its crossfade at
    /// its playhead, in place of the animation's (`true` when shown).
    fn transition_pose(
        &mut self,
        arm: &crate::model::Armature,
        skin: crate::model::SkinId,
    ) -> bool {
        if !self.transition.open {
            return false;
        }
        let mixes = super::transition::script_mixes(self.doc.analysis.comp());
        let generation = self.doc.analysis.generation;
        let Ok((anim, _)) = self.transition.crossfade(arm, &mixes, generation) else {
            return false;
        };
        self.transition.advance(self.now, anim.duration_secs);
        evaluate_into(&mut self.pose, arm, Some(&anim), skin, self.transition.time_secs);
        true
    }

    /// The transition preview's window.
    pub(super) fn transition_ui(&mut self, ctx: &egui::Context) {
        let arm = self.doc.analysis.shown.clone();
        let mixes = super::transition::script_mixes(self.doc.analysis.comp());
        let generation = self.doc.analysis.generation;
        self.transition.window(ctx, &arm, &mixes, generation);
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
            anim_name.and_then(|a| key_ticks(self.doc.analysis.comp(), &a, focus.as_deref()));
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
            // The script pane, drawn before the stage, applies it next frame.
            ui.ctx().request_repaint();
        }
        if self.settings.view.show_dopesheet {
            self.dopesheet_rows(ui, arm);
        }
        ui.add_space(2.0);
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
                        &self.doc.analysis.comp().armature.skeleton,
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
                let begin = if self.settings.view.auto_key {
                    drag::DragEdit::begin_auto_keyed
                } else {
                    drag::DragEdit::begin
                };
                match begin(&self.doc, &self.pose, pick, part, d.shift, d.world, place, shapes) {
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
                    let what = edit.describe();
                    let mut what = what.split(';').next().unwrap_or_default().to_owned();
                    match edit.auto_keyed() {
                        0 => {}
                        1 => what.push_str(", a key inserted"),
                        n => what.push_str(&format!(", {n} keys inserted")),
                    }
                    let now = ctx.input(|i| i.time);
                    self.editor.history.record(edit.before(), format!("Drag: {what}"), now);
                    self.say(format!("Done {what}"), false);
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
        let comp = self.doc.analysis.comp();
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
            // (An animation made `from` another or played as a sequence has
            // no keys of its own written, so the source map gives it no
            // ticks; one with springs has keys baked at every frame.)
            let derived = |a: &crate::model::Animation| {
                let header = format!("anim \"{}\"", a.name);
                let Some(at) =
                    text.find(&format!("{header} ")).or_else(|| text.find(&format!("{header}\n")))
                else {
                    return true;
                };
                let section = &text[at..];
                let end = section[1..].find("\nanim ").map_or(section.len(), |e| e + 1);
                let section = &section[..end];
                let first_line = section.lines().next().unwrap_or("");
                first_line.contains(" from ")
                    || first_line.contains(" add ")
                    || section.lines().nth(1).is_some_and(|l| l.starts_with("\t\""))
                    || section.contains(" spring")
            };
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
