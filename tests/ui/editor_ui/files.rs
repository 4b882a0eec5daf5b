//! Opening, saving, replacing and exporting documents; what survives a
//! crash or an outside change.

use super::*;

#[test]
fn save_as_open_and_the_unsaved_changes_prompt_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let setup = Setup::new(None);
    let mut h = setup.build();
    // Edit the example and save it: Ctrl+S asks where (it has no file yet).
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("# mine\n");
    h.run_steps(1);
    assert!(h.state().doc.is_dirty());
    let saved = dir.path().join("walk.skel2d");
    setup.dialogs.answer(Some(&saved));
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert!(!h.state().doc.is_dirty());
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), h.state().doc.text);
    assert!(h.state().doc.text.starts_with("# mine\n"));
    assert_eq!(
        h.state().settings.recent_files.first(),
        Some(&std::fs::canonicalize(&saved).unwrap())
    );

    // Another edit, then Open: the prompt appears; Cancel keeps everything.
    h.get_by_label("Script").type_text("# more\n");
    h.run_steps(1);
    let other = write(dir.path(), "other.skel2d", RIG);
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    assert!(h.state().has_prompt());
    h.get_by_label("Unsaved changes");
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(!h.state().has_prompt());
    assert!(h.state().doc.text.contains("# more"));
    assert_eq!(setup.dialogs.asked.lock().unwrap().as_slice(), ["Save script as"]);

    // Open again and choose "Don't save": the dialog opens the other file.
    setup.dialogs.answer(Some(&other));
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    h.get_by_label("Don't save").click();
    h.run_steps(3);
    assert_eq!(h.state().doc.text, RIG);
    assert_eq!(h.state().doc.path.as_deref(), Some(other.as_path()));
    assert!(!std::fs::read_to_string(&saved).unwrap().contains("# more"), "discarded, not saved");

    // Edit, then New with "Save": the file is saved before the new buffer.
    focus_editor_at(&mut h, RIG.len());
    h.get_by_label("Script").type_text("\tleg");
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.run_steps(2);
    h.get_by_label("Save").click();
    h.run_steps(2);
    assert_eq!(std::fs::read_to_string(&other).unwrap(), format!("{RIG}\tleg"));
    assert_eq!(h.state().doc.text, "");
    assert!(h.state().doc.path.is_none());
}

#[test]
fn closing_the_window_with_unsaved_changes_asks_first() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("# x\n");
    h.run_steps(1);
    h.input_mut().viewports.entry(ViewportId::ROOT).or_default().events.push(ViewportEvent::Close);
    h.run_steps(2);
    assert!(h.state().has_prompt());
    h.get_by_label("Cancel").click();
    h.run_steps(2);
    assert!(!h.state().has_prompt());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), RIG, "nothing saved or lost");
    assert!(h.state().doc.text.starts_with("# x\n"));
}

#[test]
fn crlf_files_are_saved_with_crlf() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "win.skel2d", &RIG.replace('\n', "\r\n"));
    let mut h = Setup::new(Some(&path)).build();
    assert_eq!(h.state().doc.text, RIG);
    focus_editor_at(&mut h, RIG.len());
    h.get_by_label("Script").type_text("\t\tx 0 -> 5\n");
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    let on_disk = std::fs::read_to_string(&path).unwrap();
    assert_eq!(on_disk, format!("{RIG}\t\tx 0 -> 5\n").replace('\n', "\r\n"));
}

#[test]
fn external_changes_reload_a_clean_buffer_and_ask_for_a_dirty_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut setup = Setup::new(Some(&path));
    setup.watch = true;
    let mut h = setup.build();

    // Plain overwrite.
    let v2 = RIG.replace("l40", "l50");
    std::fs::write(&path, &v2).unwrap();
    assert!(step_until(&mut h, |app| app.doc.text == v2), "not reloaded");
    assert!(!h.state().doc.is_dirty());

    // Save by rename (write a temporary file, rename it over the original).
    let v3 = RIG.replace("l40", "l60");
    let tmp = write(dir.path(), ".rig.skel2d.tmp", &v3);
    std::fs::rename(&tmp, &path).unwrap();
    assert!(step_until(&mut h, |app| app.doc.text == v3), "not reloaded after a rename");

    // Delete and recreate.
    let v4 = RIG.replace("l40", "l70");
    std::fs::remove_file(&path).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    std::fs::write(&path, &v4).unwrap();
    assert!(step_until(&mut h, |app| app.doc.text == v4), "not reloaded after delete + recreate");

    // Our own save is not mistaken for an external change.
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("# mine\n");
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    assert!(
        !step_within(&mut h, Duration::from_millis(1500), |app| app.has_prompt()),
        "own save prompted"
    );

    // With unsaved changes, an external change asks.
    h.get_by_label("Script").type_text("# unsaved\n");
    h.run_steps(1);
    std::fs::write(&path, RIG).unwrap();
    assert!(step_until(&mut h, |app| app.has_prompt()), "no prompt");
    h.run_steps(1);
    h.get_by_label("Changed on disk");
    assert!(h.state().doc.text.contains("# unsaved"));
    h.get_by_label("Reload from disk").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.text, RIG);
}

#[test]
fn unsaved_work_is_offered_back_after_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery");
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut setup = Setup::new(Some(&path));
    setup.recovery_dir = Some(recovery.clone());
    {
        let mut h = setup.build();
        focus_editor_at(&mut h, 0);
        h.get_by_label("Script").type_text("# precious\n");
        // A few seconds pass: the buffer reaches the recovery file.
        for t in [10.0, 12.0, 14.0] {
            h.input_mut().time = Some(t);
            h.step();
        }
        let files: Vec<_> = std::fs::read_dir(&recovery).unwrap().collect();
        assert_eq!(files.len(), 1);
        // The harness is dropped without closing: like a crash.
    }
    let mut h = setup.build();
    assert!(h.state().has_prompt());
    h.get_by_label("Recover unsaved changes?");
    h.get_by_label("Restore").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.text, format!("# precious\n{RIG}"));
    assert_eq!(h.state().doc.path.as_deref(), Some(path.as_path()));
    assert!(h.state().doc.is_dirty());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), RIG);
}

#[test]
fn theme_recent_files_view_settings_and_zoom_persist_between_runs() {
    use eframe::App as _;
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    // Choose through the menus as a user would.
    h.get_by_label("View").click();
    h.run_steps(3);
    h.get_by_label("Grid and axes").click();
    h.run_steps(1);
    h.get_by_label("Loop").click();
    h.run_steps(1);
    let mut storage = MemoryStorage::default();
    {
        let app = h.state_mut();
        app.settings.theme = skelpad::app::settings::Theme::Light;
        app.view.zoom = 7.5;
        app.save(&mut storage);
    }
    let before = h.state().settings.clone();
    assert!(!before.view.show_grid);
    assert!(!before.view.looping);

    let ctx = eframe::egui::Context::default();
    let mut cc = eframe::CreationContext::_new_kittest(ctx);
    cc.storage = Some(&storage);
    let services = Services {
        dialogs: Box::new(ScriptedDialogs::default()),
        recovery_dir: None,
        watch_files: false,
    };
    let app = SkelpadApp::new(&cc, Some(path.clone()), services);
    assert_eq!(app.settings, before);
    // The same file as last time: its view is kept, not fitted again.
    assert!(!app.canvas.fit_requested);
    assert_eq!(app.view.zoom, 7.5);
    assert!(!app.playback.looping);
    assert_eq!(app.settings.recent_files.first(), Some(&std::fs::canonicalize(&path).unwrap()));
}

#[test]
fn exports_run_in_the_background_and_write_their_files() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let setup = Setup::new(Some(&path));
    let mut h = setup.build();
    let out = dir.path().join("out").join("wave.gif");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    setup.dialogs.answer(Some(&out));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("Animated GIF…").click();
    h.run_steps(3);
    h.get_by_label("Export GIF");
    h.get_by_label("Choose file…").click();
    h.run_steps(1);
    assert_eq!(setup.dialogs.asked.lock().unwrap().as_slice(), ["Export GIF"]);
    // The UI keeps running frames while the worker writes the file.
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported GIF to wave.gif"))),
        "{:?}",
        h.state().status
    );
    assert_eq!(setup.dialogs.asked.lock().unwrap().as_slice(), ["Export GIF"]);
    let bytes = std::fs::read(&out).unwrap();
    assert!(bytes.starts_with(b"GIF89a"), "not a GIF");

    // A PNG sequence: one numbered file per frame (10 frames of the 1 s, 10 fps animation).
    let seq = dir.path().join("seq").join("frame.png");
    std::fs::create_dir_all(seq.parent().unwrap()).unwrap();
    setup.dialogs.answer(Some(&seq));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("PNG sequence…").click();
    h.run_steps(3);
    h.get_by_label("Choose file…").click();
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported PNG to frame.png"))),
        "{:?}",
        h.state().status
    );
    let pngs: Vec<_> = std::fs::read_dir(seq.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    assert!(pngs.len() >= 10, "{pngs:?}");
    assert!(pngs.iter().all(|p| std::fs::read(p).unwrap().starts_with(b"\x89PNG")));
}

#[test]
fn the_export_menu_writes_a_skelform_file_and_refuses_a_script_with_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let setup = Setup::new(Some(&path));
    let mut h = setup.build();
    let out = dir.path().join("rig.skf");
    setup.dialogs.answer(Some(&out));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("SkelForm (.skf)…").click();
    h.run_steps(3);
    h.get_by_label("Export SkelForm");
    h.get_by_label("Choose file…").click();
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported SKF to rig.skf"))),
        "{:?}",
        h.state().status
    );
    let skf =
        skelpad::formats::skf::read::read_skf(&std::fs::read(&out).unwrap()).expect("a valid .skf");
    assert!(skf.armature.bones.iter().any(|b| b.name == "arm"));
    assert!(skf.files.iter().any(|f| f == "armature.json"));

    // With an error in the script, nothing is written and the status says why.
    focus_editor_at(&mut h, RIG.find("l40").unwrap() + 3);
    h.get_by_label("Script").type_text(" q");
    h.run_steps(2);
    let out2 = dir.path().join("broken.skf");
    setup.dialogs.answer(Some(&out2));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("SkelForm (.skf)…").click();
    h.run_steps(3);
    h.get_by_label("Choose file…").click();
    assert!(
        step_until(&mut h, |app| app.status.as_ref().is_some_and(|s| s.1)),
        "{:?}",
        h.state().status
    );
    assert!(h.state().status.as_ref().unwrap().0.contains("has errors"));
    assert!(!out2.exists());
}

/// `skelpad FILE.skf`: the canvas plays the SkelForm file itself (its IK and
/// meshes), the text is its converted script, read-only under a banner, and
/// "Convert to script…" writes the script and its pictures beside the file
/// and opens it.
#[test]
fn a_skelform_file_opens_read_only_and_converts() {
    let sample =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/samples/skelform/_skellington.skf");
    if !sample.is_file() {
        assert!(std::env::var("SKELPAD_REQUIRE_SAMPLES").as_deref() != Ok("1"), "samples required");
        eprintln!("skipped: samples not found");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("skellington.skf");
    std::fs::copy(&sample, &path).unwrap();
    let setup = Setup::new(Some(&path));
    let mut h = setup.build();
    {
        let app = h.state();
        assert!(app.doc.imported.is_some());
        assert_eq!(
            app.doc.analysis.shown.skeleton.ik.len(),
            5,
            "the canvas shows the file, IK included"
        );
        assert!(app.doc.text.starts_with("# Converted by skelpad"));
        assert!(app.doc.path.is_none(), "saving must never write over the .skf");
    }
    h.get_by_label_contains("is a SkelForm file");
    // Typing changes nothing: the text is read-only.
    let before = h.state().doc.text.clone();
    focus_editor_at(&mut h, 0);
    h.event(Event::Text("zzz".into()));
    h.run_steps(2);
    assert_eq!(h.state().doc.text, before);
    h.get_by_label("Convert to script…").click();
    h.run_steps(3);
    let script = dir.path().join("skellington.skel2d");
    assert!(script.is_file(), "{:?}", h.state().status);
    assert!(dir.path().join("skellington_sprites").is_dir());
    let app = h.state();
    assert_eq!(app.doc.path.as_deref(), Some(script.as_path()));
    assert!(app.doc.imported.is_none());
    assert!(!app.doc.analysis.comp().has_errors());
}

// --- Examples and help ------------------------------------------------------

#[test]
fn the_embedded_examples_are_exactly_the_examples_folder() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut on_disk: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    on_disk.sort();
    let embedded: Vec<(String, String)> =
        EXAMPLES.iter().map(|e| (e.file.to_owned(), e.text.to_owned())).collect();
    assert_eq!(embedded, on_disk);
}

#[test]
fn file_examples_opens_an_untitled_copy() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = Setup::new(Some(&path)).build();
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Examples").click();
    h.run_steps(2);
    h.get_by_label("tentacle.skel2d").click();
    h.run_steps(2);
    let tentacle = EXAMPLES.iter().find(|e| e.file == "tentacle.skel2d").unwrap();
    let app = h.state();
    assert_eq!(app.doc.text, tentacle.text);
    assert_eq!(app.doc.path, None, "a copy: saving asks where");
    assert!(app.doc.title().contains("tentacle.skel2d (example)"), "{}", app.doc.title());
    assert!(!app.doc.analysis.comp().has_errors());
    // The file it replaced is untouched.
    assert_eq!(std::fs::read_to_string(&path).unwrap(), RIG);
}

/// A Spriter file opens read-only: its first entity on the canvas (with
/// sprites posed by Spriter's rules), the entity selector, looping as the
/// file says; typing changes nothing.
#[test]
fn a_spriter_file_opens_read_only() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spriter/rig.scml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut h = Setup::new(Some(&path)).build();
    assert!(h.state().doc.spriter.is_some());
    let arm = h.state().doc.analysis.shown.clone();
    assert_eq!(
        arm.skeleton.skins.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        ["default", "swap"]
    );
    h.get_by_label("Entity");
    h.get_by_label_contains("Spriter file, read-only");
    // Problems says what the view is instead of "compiles cleanly".
    h.get_by_label_contains("a Spriter file (XML), shown as it is and read-only");
    assert!(h.query_by_label_contains("compiles cleanly").is_none());
    assert_eq!(h.state().pose.bones.len(), arm.skeleton.bones.len());
    // Typing into the text does nothing.
    focus_editor_at(&mut h, 10);
    h.get_by_label("Script").type_text("xyz");
    h.run_steps(2);
    assert_eq!(h.state().doc.text, text);
    assert!(!h.state().doc.is_dirty());
    // The second animation does not loop in the file.
    let once = arm.animation_by_name("once").unwrap();
    h.state_mut().playback.select_anim(&arm, once);
    h.run_steps(2);
    assert!(!h.state().playback.looping);
}

/// Every way a document is replaced shows the new text in the frame that
/// replaced it, and typing then edits the text shown. (The highlighted
/// layout was cached by a generation number every new document restarted
/// at 1: an unedited document replaced by another kept its layout on screen.)
#[test]
fn every_way_of_replacing_the_document_shows_the_new_text_in_the_same_frame() {
    let dir = tempfile::tempdir().unwrap();
    let recovery = dir.path().join("recovery");
    let mut setup = Setup::new(None);
    setup.watch = true;
    setup.recovery_dir = Some(recovery.clone());
    let mut h = setup.build();
    assert_eq!(h.state().doc.text, skelpad::app::EXAMPLE);
    assert_pane_shows_the_document(&h, "start");

    // File ▸ Examples, nothing changed before: the reported case.
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Examples").click();
    h.run_steps(2);
    h.get_by_label("skins.skel2d").click();
    h.step();
    let skins = EXAMPLES.iter().find(|e| e.file == "skins.skel2d").unwrap();
    assert_eq!(h.state().doc.text, skins.text);
    assert_pane_shows_the_document(&h, "Examples");
    // Typing edits the text shown, where the cursor is shown.
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("zz");
    h.run_steps(1);
    assert_eq!(h.state().doc.text, format!("zz{}", skins.text));
    assert_pane_shows_the_document(&h, "typing");
    // Undo cannot bring back the previous document's text.
    for _ in 0..4 {
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run_steps(1);
    }
    assert_eq!(h.state().doc.text, skins.text, "undo stops at the opened text");
    assert_pane_shows_the_document(&h, "undo");

    // File ▸ Open Recent.
    let rig = write(dir.path(), "rig.skel2d", RIG);
    h.state_mut().settings.add_recent(&rig);
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Open Recent").click();
    h.run_steps(2);
    let label = std::fs::canonicalize(&rig).unwrap().display().to_string();
    h.get_by_label(&label).click();
    h.step();
    assert_eq!(h.state().doc.text, RIG);
    assert_pane_shows_the_document(&h, "Open Recent");

    // Reloaded from disk (another program wrote the file), once the
    // watcher started on the next frame is running.
    h.run_steps(2);
    std::thread::sleep(Duration::from_millis(200));
    let v2 = RIG.replace("l40", "l55");
    std::fs::write(&rig, &v2).unwrap();
    assert!(step_until(&mut h, |app| app.doc.text == v2), "not reloaded");
    assert_pane_shows_the_document(&h, "reload from disk");

    // File ▸ Open… through the dialog.
    let other = write(dir.path(), "other.skel2d", &RIG.replace("arm", "leg"));
    setup.dialogs.answer(Some(&other));
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.step(); // asks; the answer is taken at the start of the next frame
    h.step();
    assert_eq!(h.state().doc.path.as_deref(), Some(other.as_path()));
    assert_pane_shows_the_document(&h, "Open");

    // File ▸ New.
    h.key_press_modifiers(Modifiers::COMMAND, Key::N);
    h.step();
    assert_eq!(h.state().doc.text, "");
    assert_pane_shows_the_document(&h, "New");

    // Recovery: an unsaved buffer offered back by the next run.
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("skeleton\n\tkept l5\n");
    for t in [100.0, 104.0, 108.0] {
        h.input_mut().time = Some(t);
        h.step();
    }
    drop(h);
    let mut h = setup.build();
    assert!(h.state().has_prompt());
    h.get_by_label("Restore").click();
    h.step();
    assert_eq!(h.state().doc.text, "skeleton\n\tkept l5\n");
    assert_pane_shows_the_document(&h, "recovery");
}

// --- No native file dialog: the built-in one --------------------------------

/// Without a native dialog (no desktop portal), Save of an untitled script,
/// Open and Export fall back to the dialog drawn in egui, say so once, and
/// a save over an existing file asks first.
#[test]
fn without_a_native_dialog_saving_opening_and_exporting_use_the_built_in_one() {
    let dir = tempfile::tempdir().unwrap();
    let setup = Setup::new(None);
    setup.dialogs.unavailable.store(true, std::sync::atomic::Ordering::Relaxed);
    let mut h = setup.build();
    let rig = write(dir.path(), "rig.skel2d", RIG);
    // The dialog starts in the folder of the most recent file.
    h.state_mut().settings.add_recent(&rig);
    focus_editor_at(&mut h, 0);
    h.get_by_label("Script").type_text("# mine\n");
    h.run_steps(1);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run_steps(2);
    assert_eq!(setup.dialogs.asked.lock().unwrap().as_slice(), ["Save script as"]);
    let status = h.state().status.clone().unwrap();
    assert!(status.0.contains("No native file dialog"), "{status:?}");
    h.get_by_label_contains("Save script as");
    h.get_by_label("Save").click();
    h.run_steps(2);
    let saved = dir.path().join("walk_cycle.skel2d");
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), h.state().doc.text);
    assert!(h.state().doc.text.starts_with("# mine\n"));
    assert!(!h.state().doc.is_dirty());
    assert_eq!(h.state().doc.path.as_deref(), Some(saved.as_path()));

    // Open: the native dialog is not asked again; the built-in one lists
    // the folder's files.
    h.key_press_modifiers(Modifiers::COMMAND, Key::O);
    h.run_steps(2);
    assert_eq!(setup.dialogs.asked.lock().unwrap().len(), 1);
    h.get_by_label_contains("rig.skel2d").click();
    h.run_steps(1);
    h.get_by_label("Open").click();
    h.run_steps(2);
    assert_eq!(h.state().doc.path.as_deref(), Some(rig.as_path()));
    assert_eq!(h.state().doc.text, RIG);

    // Export ▸ PNG over an existing file: asked first; Cancel keeps it.
    let png = dir.path().join("rig.png");
    std::fs::write(&png, "old").unwrap();
    for replace in [false, true] {
        h.get_by_label("Export").click();
        h.run_steps(3);
        h.get_by_label("PNG of this frame…").click();
        h.run_steps(3);
        h.get_by_label("Choose file…").click();
        h.run_steps(20); // until the options dialog has faded out
        h.get_by_label("Save").click();
        h.run_steps(20);
        h.get_by_label("Replace the file?");
        h.get_by_label(if replace { "Replace" } else { "Cancel" }).click();
        h.run_steps(2);
    }
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported PNG"))),
        "{:?}",
        h.state().status
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    assert_eq!(setup.dialogs.asked.lock().unwrap().len(), 1, "native dialogs not asked again");
}

#[test]
fn the_export_menu_writes_a_lottie_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let setup = Setup::new(Some(&path));
    let mut h = setup.build();
    let out = dir.path().join("rig.json");
    setup.dialogs.answer(Some(&out));
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("Lottie…").click();
    h.run_steps(3);
    h.get_by_label("Export Lottie");
    h.get_by_label("Choose file…").click();
    assert!(
        step_until(&mut h, |app| app.export_job.is_none()
            && app.status.as_ref().is_some_and(|s| s.0.starts_with("Exported"))),
        "{:?}",
        h.state().status
    );
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert!(doc["layers"].as_array().unwrap().iter().any(|l| l["ty"] == 3 && l["nm"] == "arm"));
}

/// A file that is not there is reported as such: from the command line (in
/// a folder that exists, or not) and from Open Recent; never as a failure
/// to watch it.
#[test]
fn a_missing_file_says_file_not_found() {
    let dir = tempfile::tempdir().unwrap();
    for (path, error) in [
        (dir.path().join("new.skel2d"), false),
        (dir.path().join("no").join("such").join("dir.skel2d"), true),
    ] {
        let mut setup = Setup::new(Some(&path));
        setup.watch = true;
        let h = setup.build();
        let (msg, is_error) = h.state().status.clone().unwrap();
        assert!(msg.contains("file not found") && !msg.contains("watch"), "{msg}");
        assert_eq!(is_error, error, "{msg}");
    }
    let gone = write(dir.path(), "gone.skel2d", RIG);
    let mut h = Setup::new(None).build();
    h.state_mut().settings.add_recent(&gone);
    std::fs::remove_file(&gone).unwrap();
    h.get_by_label("File").click();
    h.run_steps(2);
    h.get_by_label("Open Recent").click();
    h.run_steps(2);
    let label = std::fs::canonicalize(dir.path()).unwrap().join("gone.skel2d");
    h.get_by_label(&label.display().to_string()).click();
    h.run_steps(2);
    let (msg, is_error) = h.state().status.clone().unwrap();
    assert!(is_error && msg.contains("file not found"), "{msg}");
    assert_eq!(h.state().doc.text, skelpad::app::EXAMPLE, "nothing replaced");
}
