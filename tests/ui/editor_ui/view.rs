//! The canvas, timeline and outline: what they show and what clicking
//! them does.

use super::*;

#[test]
fn the_example_opens_and_every_widget_has_a_name() {
    let mut h = Setup::new(None).build();
    assert!(h.state().doc.text.starts_with("# walk_cycle.skel2d"));
    assert!(!h.state().doc.analysis.comp().has_errors());
    assert!(h.state().playback.playing);
    h.check_accessibility();
    // The menu bar's Animation menu and the timeline's picker.
    assert_eq!(h.get_all_by_label("Animation").count(), 2);
    h.get_by_label("Scrub bar");
    h.get_by_label("Problems");
    h.run_steps(1);
}

#[test]
fn scrubbing_changes_the_pose() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    let rect = h.get_by_label("Scrub bar").rect();
    // Halfway along the bar: frame 5 of 10, where the arm is at 90°.
    click_at(&mut h, Pos2::new(rect.center().x, rect.center().y));
    let app = h.state();
    assert!(!app.playback.playing, "scrubbing pauses");
    assert!((app.playback.time_secs - 0.5).abs() < 0.051, "{}", app.playback.time_secs);
    let arm = &app.doc.analysis.shown;
    let expected = evaluate(arm, Some(AnimId(0)), SkinId(0), app.playback.time_secs);
    assert_eq!(app.pose, expected);
    let setup = evaluate(arm, Some(AnimId(0)), SkinId(0), 0.0);
    assert_ne!(app.pose.bones[0].world, setup.bones[0].world);
}

#[test]
fn playing_advances_with_the_mocked_clock_and_loops() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    assert!(h.state().playback.playing);
    let t0 = 100.0;
    let mut times = Vec::new();
    for i in 0..=12 {
        h.input_mut().time = Some(t0 + 0.2 * f64::from(i));
        h.step();
        times.push(h.state().playback.time_secs);
    }
    // 12 × 0.2 s = 2.4 s of a 1 s animation: it wrapped to 0.4 s.
    assert!((times[12] - 0.4).abs() < 1e-6, "{times:?}");
    assert!(times.windows(2).any(|w| w[1] < w[0]), "looped: {times:?}");
    let app = h.state();
    let expected =
        evaluate(&app.doc.analysis.shown, Some(AnimId(0)), SkinId(0), app.playback.time_secs);
    assert_eq!(app.pose, expected);
    let setup = evaluate(&app.doc.analysis.shown, Some(AnimId(0)), SkinId(0), 0.0);
    assert_ne!(app.pose.bones[0].world, setup.bones[0].world);

    // Space on the focused canvas pauses; typing a space in the editor does not.
    let canvas = h.get_by_label("Canvas").rect();
    click_at(&mut h, canvas.center());
    h.key_press(Key::Space);
    h.run_steps(1);
    assert!(!h.state().playback.playing);
    h.key_press(Key::ArrowRight);
    h.run_steps(1);
    assert_eq!(h.state().playback.time_secs, 0.5);
    h.key_press(Key::Space);
    h.run_steps(1);
    assert!(h.state().playback.playing);
    focus_editor_at(&mut h, 0);
    h.key_press(Key::Space);
    h.get_by_label("Script").type_text(" ");
    h.run_steps(1);
    assert!(h.state().playback.playing);
    assert!(h.state().doc.text.starts_with(' '));
}

#[test]
fn clicking_a_bone_selects_it_and_moves_the_cursor_to_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let text = "skeleton\n\tbody l0\n\t\t@ :circle d30\n\tarm x100 l80\n";
    let path = write(dir.path(), "rig.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    let app = h.state();
    let rect = app.canvas.rect;
    // Halfway along the arm, in screen space.
    let p = app.view.screen_from_world(rect, 140.0, 0.0);
    click_at(&mut h, p);
    assert_eq!(h.state().selected, Some(skelpad::app::Selected::Bone("arm".into())));
    assert_eq!(h.state().editor.cursor, Some(text.find("arm").unwrap()));
    // The circle at the origin.
    let p = h.state().view.screen_from_world(rect, 3.0, 3.0);
    click_at(&mut h, p);
    assert_eq!(h.state().selected, Some(skelpad::app::Selected::Slot("body.body".into())));
    assert_eq!(h.state().editor.cursor, Some(text.find("@").unwrap()));
}

#[test]
fn the_canvas_draws_the_shapes_through_the_render_pipeline() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    // The frame's shapes include the meshes of the rect and the bone overlay.
    let meshes = |h: &Harness<'_, SkelpadApp>| {
        h.output().shapes.iter().filter(|s| matches!(s.shape, eframe::egui::Shape::Mesh(_))).count()
    };
    assert!(meshes(&h) >= 1, "nothing drawn");
    assert!(h.state().drawing.warnings().is_empty());
    let vertices = |h: &Harness<'_, SkelpadApp>| {
        h.output()
            .shapes
            .iter()
            .map(|s| match &s.shape {
                eframe::egui::Shape::Mesh(m) => m.vertices.len(),
                _ => 0,
            })
            .sum::<usize>()
    };
    // Pause mid-animation so ghosts differ from the frame.
    h.state_mut().playback.playing = false;
    h.state_mut().playback.time_secs = 0.3;
    h.run_steps(2);
    let plain = vertices(&h);
    // Onion skin adds ghost frames; hiding the bones removes the overlay.
    h.get_by_label("Onion skin").click();
    h.run_steps(2);
    assert!(h.state().settings.view.onion_skin);
    assert!(vertices(&h) > plain, "onion skin drew no ghosts");
    h.get_by_label("Onion skin").click();
    h.get_by_label("Bones").click();
    h.run_steps(2);
    assert!(!h.state().settings.view.show_bones);
    assert!(vertices(&h) < plain, "the bone overlay is still drawn");
    // A missing sprite is reported on the canvas, not a crash.
    focus_editor_at(&mut h, RIG.find("anim").unwrap());
    h.get_by_label("Script").type_text("\t\t@pic :sprite \"missing.png\"\n");
    h.run_steps(2);
    assert!(
        h.state().drawing.warnings().iter().any(|w| w.message.contains("missing.png")),
        "{:?}",
        h.state().drawing.warnings()
    );
}

#[test]
fn playback_and_view_survive_edits_and_a_broken_line_keeps_the_picture() {
    let text = "skeleton\n\tarm l40\n\t\t@ :rect x20 w40 h10\n\tleg x50 l30\nanim \"one\"\n\tarm\n\t\tr 0 -> 90\nanim \"two\" 10fps\n\tleg\n\t\tr 0 --> 45\nskin \"blue\"\n\t@arm :rect x20 w40 h10 f#00F\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    // Choose animation "two" and skin "blue" in the timeline (its picker
    // comes after the menu bar's Animation menu).
    h.get_all_by_label("Animation").last().unwrap().click();
    h.run_steps(3);
    h.get_by_label("two").click();
    h.run_steps(2);
    h.get_by_label("Skin").click();
    h.run_steps(3);
    h.get_by_label("blue").click();
    h.run_steps(2);
    {
        let app = h.state_mut();
        app.playback.playing = false;
        app.playback.time_secs = 0.3;
        app.playback.speed = 2.0;
        // As a user's zoom and pan would leave it: the view is theirs.
        app.view.zoom = 3.25;
        app.view.pan = [12.0, -7.0];
        app.canvas.framing = false;
    }
    h.run_steps(1);
    let app = h.state();
    let before =
        (app.playback.clone().resolve(&app.doc.analysis.shown), app.playback.time_secs, app.view);
    assert_eq!(before.0.0, Some(AnimId(1)));
    assert_eq!(before.0.1, SkinId(1));

    // Edit the first animation, then break the `leg` line.
    focus_editor_at(&mut h, text.find("90").unwrap() + 2);
    h.get_by_label("Script").type_text("0");
    h.run_steps(1);
    assert!(h.state().doc.text.contains("r 0 -> 900"));
    let leg_line = text.find("\tleg x50").unwrap();
    focus_editor_at(&mut h, leg_line + 1);
    h.get_by_label("Script").type_text(" ");
    h.run_steps(2);
    let app = h.state();
    assert!(app.doc.analysis.comp().has_errors());
    assert_eq!(
        app.doc.analysis.comp().armature.skeleton.bones.len(),
        1,
        "the broken line lost `leg`"
    );
    // The canvas still shows both bones (the last error-free version).
    assert!(app.doc.analysis.shown_is_stale);
    assert_eq!(app.pose.bones.len(), 2);
    // Selection, playhead, play state, speed, zoom and pan are untouched.
    let mut playback = app.playback.clone();
    assert_eq!(playback.resolve(&app.doc.analysis.shown), before.0);
    assert_eq!(app.playback.time_secs, before.1);
    assert!(!app.playback.playing);
    assert_eq!(app.playback.speed, 2.0);
    assert_eq!(app.view, before.2);
}

#[test]
fn the_worst_script_opens_plays_and_fits() {
    let dir = tempfile::tempdir().unwrap();
    let text = skelpad::generate::worst_script();
    let path = write(dir.path(), "worst.skel2d", &text);
    // It opens, plays the longest animation with onion skin on, fits it and
    // shows it, one frame after the other.
    let mut h = Setup::new(Some(&path)).build();
    assert!(h.state().doc.analysis.comp().diagnostics.is_empty());
    assert_eq!(h.state().doc.analysis.comp().armature.skeleton.bones.len(), 5000);
    let arm = h.state().doc.analysis.shown.clone();
    let long = arm.animation_by_name("longest").unwrap();
    {
        let app = h.state_mut();
        app.playback.select_anim(&arm, long);
        app.settings.view.onion_skin = true;
        app.canvas.fit_requested = true;
    }
    for _ in 0..3 {
        let t = h.state().now() + 1.0 / 60.0;
        h.input_mut().time = Some(t);
        h.step();
    }
    // Ghosts of 5000 shapes would cost five frames each: they are off.
    assert_eq!(skelpad::app::canvas::onion_ghosts(&arm), 0);
    assert_eq!(skelpad::app::canvas::onion_ghosts(&skelpad::compile::compile(RIG).armature), 2);
    let app = h.state_mut();
    assert_eq!(app.playback.resolve(&arm).0, Some(long));
    assert!(app.playback.playing && app.playback.time_secs > 0.0, "it plays");
    assert!(!app.canvas.fit_requested);
}

/// Timed as eframe runs a frame. Timings of an unoptimized build say
/// nothing: run it with `cargo test --release --test ui editor_ui::worst`.
#[test]
#[cfg_attr(debug_assertions, ignore = "a timing: run it in a release build")]
fn the_worst_script_keeps_each_frame_under_50_ms() {
    let dir = tempfile::tempdir().unwrap();
    let text = skelpad::generate::worst_script();
    let path = write(dir.path(), "worst.skel2d", &text);
    let services = || Services {
        dialogs: Box::new(ScriptedDialogs::default()),
        recovery_dir: None,
        watch_files: false,
    };
    let arm = skelpad::compile::compile(&text).armature;
    let long = arm.animation_by_name("longest").unwrap();
    let ctx = eframe::egui::Context::default();
    let cc = eframe::CreationContext::_new_kittest(ctx.clone());
    let mut app = SkelpadApp::new(&cc, Some(path.clone()), services());
    let mut clock = 0.0;
    let first = timed_frame(&ctx, &mut app, clock);
    app.playback.select_anim(&arm, long);
    app.playback.playing = true;
    app.settings.view.onion_skin = true;
    app.canvas.fit_requested = true;
    let mut times = Vec::new();
    for i in 0..10 {
        clock += 1.0 / 60.0;
        if i == 5 {
            // The cursor on a bone of the long animation: its keys on the scrub bar.
            ctx.memory_mut(|m| m.request_focus(skelpad::app::editor::editor_id()));
            app.editor.select(text.len() - 5..text.len() - 5);
        }
        times.push(timed_frame(&ctx, &mut app, clock));
    }
    let fit = times[0];
    times.sort();
    let (median, slowest) = (times[times.len() / 2], *times.last().unwrap());
    eprintln!(
        "worst script: first frame (lays out the text) {first:?}, fit frame {fit:?}, median {median:?}, slowest {slowest:?}"
    );
    // Every frame after the first, the fit included.
    assert!(slowest < Duration::from_millis(50), "a frame took {slowest:?} (median {median:?})");
}

// --- A small window -----------------------------------------------------------

/// At 800×600 every control of the timeline toolbar is inside the window
/// (the toolbar wraps instead of running off the right edge), and so is the
/// scrub bar under it.
#[test]
fn every_timeline_control_is_on_screen_in_an_800_by_600_window() {
    for size in [[800.0, 600.0], [640.0, 400.0], [1280.0, 800.0]] {
        let services = Services {
            dialogs: Box::new(ScriptedDialogs::default()),
            recovery_dir: None,
            watch_files: false,
        };
        let mut h = Harness::builder()
            .with_size(size)
            .build_eframe(move |cc| SkelpadApp::new(cc, None, services));
        h.run_steps(3);
        let screen = eframe::egui::Rect::from_min_size(Pos2::ZERO, size.into());
        crate::assert_toolbar_on_screen(&h, screen, &[]);
        let readout = h.get_by_label_contains(" frame ").rect();
        assert!(screen.contains_rect(readout), "frame readout at {readout:?}, {size:?}");
        // The canvas keeps a usable area.
        let canvas = h.state().canvas.rect;
        assert!(canvas.height() >= size[1] * 0.25, "canvas {canvas:?} at {size:?}");
    }
}

/// View ▸ Outline shows the bone tree; clicking a bone puts the cursor on
/// its line and selects it on the canvas.
#[test]
fn the_outline_selects_a_bone_and_jumps_to_its_line() {
    let mut h = Setup::new(None).build();
    assert!(h.query_by_label("Outline").is_none());
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Outline").click();
    h.run_steps(3);
    h.get_by_label_contains("Skeleton (13 bones)");
    h.get_by_label("thigh-l").click();
    h.run_steps(2);
    let app = h.state();
    assert_eq!(app.selected, Some(skelpad::app::Selected::Bone("hip.thigh-l".into())));
    let line = app.doc.text.find("\thip.thigh-l ").unwrap() + 1;
    assert_eq!(app.editor.cursor, Some(line));
    // The animations' items are listed under them (further down: rows
    // off screen are not laid out).
    let app = h.state_mut();
    let generation = app.doc.analysis.generation;
    let rows = app.outline.rows(app.doc.analysis.comp(), generation);
    let labels: Vec<&str> = rows.iter().map(|r| r.label.as_str()).collect();
    let idle = labels.iter().position(|l| *l == "idle").unwrap();
    assert_eq!(labels[idle + 1..idle + 4], ["hip.torso", "hip.torso.head", "glance"]);
    assert!(h.query_by_label("hip.torso.head").is_none(), "not drawn while off screen");
}

/// Moving the editor cursor onto a bone far down a long skeleton scrolls
/// the outline to it (rows off screen are not drawn at all).
#[test]
fn the_outline_follows_the_bone_under_the_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("skeleton\n");
    for i in 0..300 {
        text.push_str(&format!("\tb{i} l5\n"));
    }
    let path = write(dir.path(), "many.skel2d", &text);
    let mut h = Setup::new(Some(&path)).build();
    h.state_mut().settings.view.show_outline = true;
    h.run_steps(2);
    h.get_by_label("b0");
    assert!(h.query_by_label("b250").is_none(), "off screen at first");
    focus_editor_at(&mut h, text.find("\tb250 ").unwrap() + 2);
    h.run_steps(2);
    h.get_by_label("b250");
    assert!(h.query_by_label("b0").is_none(), "scrolled away from the top");
}

/// "Rename…" on a bone of the outline renames it wherever it is named
/// (the language server's rename: its line, the bones and slots below it,
/// the animation's items), as one undo step; a name the language cannot
/// take changes nothing and says why.
#[test]
fn the_outline_renames_a_bone_everywhere_in_one_undo_step() {
    let text = "skeleton\n\tarm l40\n\tarm.hand l20\n\t\t@ :rect w4 h4\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 90\n\tarm.hand\n\t\tr 0 -> 45\n\t@hand\n\t\ta 1 -> 0.5\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "r.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    h.state_mut().settings.view.show_outline = true;
    h.run_steps(3);
    let open_rename = |h: &mut Harness<'_, SkelpadApp>| {
        let app = h.state_mut();
        let generation = app.doc.analysis.generation;
        let rows = app.outline.rows(app.doc.analysis.comp(), generation).to_vec();
        let row = rows.iter().find(|r| r.label == "arm").unwrap().clone();
        app.outline.begin_rename(&row);
        h.run_steps(3);
    };
    // A name with a dot is refused: nothing changes.
    open_rename(&mut h);
    h.get_by_label("Rename `arm` to").type_text(".x");
    h.get_by_label("Rename").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.text, text);
    assert!(h.state().status.as_ref().is_some_and(|s| s.1 && s.0.starts_with("Not renamed")));
    // A good name: every reference follows.
    open_rename(&mut h);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_label("Rename `arm` to").type_text("limb");
    h.get_by_label("Rename").click();
    h.run_steps(2);
    let want = text.replace("\tarm", "\tlimb");
    assert_eq!(h.state().doc.text, want);
    assert!(!h.state().doc.analysis.comp().has_errors());
    // One undo brings the file back exactly.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(2);
    assert_eq!(h.state().doc.text, text);
}

/// View ▸ Motion lints adds the lints' warnings to the problems at once
/// (a loop whose end is not its start: a seam), and takes them away again.
#[test]
fn motion_lints_come_and_go_with_the_view_toggle() {
    let text = "skeleton\n\tb l10\nanim \"a\" 10fps\n\tb\n\t\tx 0 -> 10\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "seam.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    h.run_steps(2);
    let seams = |h: &Harness<'_, SkelpadApp>| {
        let d = &h.state().doc.analysis.comp().diagnostics;
        d.iter().filter(|d| d.message.contains("loops with a seam")).count()
    };
    assert_eq!(seams(&h), 0, "lints are opt-in");
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Motion lints").click();
    h.run_steps(2);
    assert_eq!(seams(&h), 1);
    h.get_by_label_contains("loops with a seam");
    h.state_mut().settings.view.lint = false;
    h.run_steps(2);
    assert_eq!(seams(&h), 0);
    assert_eq!(h.state().doc.text, text, "the text is not touched");
}

/// Hide and solo in the outline change what the canvas draws (and what a
/// click can pick), never the script.
#[test]
fn hidden_bones_are_not_drawn_and_the_text_is_untouched() {
    let text = "skeleton\n\tarm l40\n\t\t@ :rect x20 w40 h10\n\tarm.hand l10\n\t\t@ :circle d8\n\tleg l30\n\t\t@ :rect x15 w30 h8\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "h.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    h.run_steps(2);
    let drawn = |h: &Harness<'_, SkelpadApp>| -> Vec<String> {
        let app = h.state();
        let sk = &app.doc.analysis.shown.skeleton;
        let mut names: Vec<String> = app
            .drawing
            .list()
            .items
            .iter()
            .filter(|i| i.slot.is_some())
            .map(|i| sk.bones[i.bone.index()].name.clone())
            .collect();
        names.dedup();
        names
    };
    assert_eq!(drawn(&h), ["arm", "arm.hand", "leg"]);
    h.state_mut().outline.hidden.insert("arm".into());
    h.run_steps(2);
    assert_eq!(drawn(&h), ["leg"]);
    h.state_mut().outline.hidden.clear();
    h.state_mut().outline.solo = Some("arm".into());
    h.run_steps(2);
    assert_eq!(drawn(&h), ["arm", "arm.hand"]);
    assert_eq!(h.state().doc.text, text);
}

/// While a broken line takes bones away and the canvas keeps the last
/// error-free picture, the outline keeps the rows it showed then (saying
/// so) and its clicks select without jumping to lines that may have moved;
/// fixing the line brings back the live outline.
#[test]
fn the_outline_keeps_the_last_error_free_rows_while_the_canvas_does() {
    let text = "skeleton\n\tarm l40\n\t\t@ :rect x20 w40 h10\n\tleg x50 l30\n";
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", text);
    let mut h = Setup::new(Some(&path)).build();
    h.get_by_label("View").click();
    h.run_steps(2);
    h.get_by_label("Outline").click();
    h.run_steps(3);
    h.get_by_label_contains("Skeleton (2 bones)");
    let leg_line = text.find("\tleg x50").unwrap();
    focus_editor_at(&mut h, leg_line + 1);
    h.get_by_label("Script").type_text(" ");
    h.run_steps(2);
    assert!(h.state().doc.analysis.shown_is_stale, "the broken line lost `leg`");
    h.get_by_label_contains("Skeleton (2 bones)");
    h.get_by_label_contains("last error-free outline");
    let cursor = h.state().editor.cursor;
    h.get_by_label("leg").click();
    h.run_steps(2);
    assert_eq!(h.state().selected, Some(skelpad::app::Selected::Bone("leg".into())));
    assert_eq!(h.state().editor.cursor, cursor, "no jump while the rows are old");
    // Backspace mends the line: the outline is live again.
    focus_editor_at(&mut h, leg_line + 2);
    h.key_press(Key::Backspace);
    h.run_steps(2);
    assert!(!h.state().doc.analysis.shown_is_stale);
    assert!(h.query_by_label_contains("last error-free outline").is_none());
    h.get_by_label("leg").click();
    h.run_steps(2);
    assert_eq!(h.state().editor.cursor, Some(leg_line + 1));
}
