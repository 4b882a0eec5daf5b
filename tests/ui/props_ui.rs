//! The editor under random use (issue 34 §5): proptest drives the real UI
//! through egui_kittest with random sequences of typed text, Enter, Tab,
//! Backspace, pastes, cursor moves, undo and redo, drags on the canvas,
//! key moves in the dopesheet and replacing the document by an example.
//!
//! After every step: nothing panicked, the text the editor drew is the
//! buffer, and the document's compilation (armature and diagnostics) is the
//! one a fresh compile of the buffer gives (the check does not use the
//! app's incremental compiler). At the end, undoing everything gives back
//! the text the document started from (the file opened, or the example
//! that replaced it) exactly.
//!
//! Each case runs hundreds of frames in a debug build, so the default case
//! count keeps this to a few seconds; set `PROPTEST_CASES=N` for a longer
//! run (see fuzz/README.md for the last one).

use std::path::Path;

use eframe::egui::{Event, Key, Modifiers, Pos2, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use crate::{NoDialogs, write};
use skelpad::app::help::EXAMPLES;
use skelpad::app::{Action, Services, SkelpadApp};
use skelpad::check::expect::compile_checked;

/// Steps per case (undo history holds 100 points; a step adds at most two).
const MAX_STEPS: usize = 24;

/// One user action.
#[derive(Clone, Debug)]
enum Step {
    /// Give the editor focus and select `from..to` (fractions of the text).
    Select(f64, f64),
    /// Type this text.
    Type(String),
    /// Press Enter, Tab, Shift+Tab or Backspace.
    Press(Key, Modifiers),
    /// Paste this text.
    Paste(String),
    Undo,
    Redo,
    /// Drag on the canvas: from a bone's origin (`Some(i)`, wrapped to the
    /// bone count) or from a point (fractions of the canvas), by a screen
    /// offset, with Shift or not.
    CanvasDrag {
        bone: Option<usize>,
        at: (f32, f32),
        by: (f32, f32),
        shift: bool,
    },
    /// Drag the dopesheet key `key` (wrapped to the keys shown) by `dx` points.
    MoveKey {
        key: usize,
        dx: f32,
    },
    /// Show the setup pose (canvas drags edit the skeleton) or the
    /// animation (they key its timelines), paused.
    SetupPose(bool),
    /// Open an untitled copy of the example `i` (wrapped), answering
    /// "Don't save" when asked about unsaved changes.
    OpenExample(usize),
}

fn typed() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => "[a-z0-9 .:@>\"-]{1,6}",
        1 => Just("skeleton\n".to_string()),
        1 => Just("\tb l10\n".to_string()),
        1 => Just(" r 0 -> 45 -> 0".to_string()),
        1 => Just("anim \"t\" 10fps\n\tb\n\t\tr 0 -> 9\n".to_string()),
        1 => Just("é→".to_string()),
        1 => Just("#".to_string()),
    ]
}

fn step() -> impl Strategy<Value = Step> {
    let frac = 0.0f64..=1.0;
    let key = prop_oneof![
        Just((Key::Enter, Modifiers::NONE)),
        Just((Key::Tab, Modifiers::NONE)),
        Just((Key::Tab, Modifiers::SHIFT)),
        Just((Key::Backspace, Modifiers::NONE)),
    ];
    prop_oneof![
        3 => (frac.clone(), frac).prop_map(|(a, b)| Step::Select(a, b)),
        4 => typed().prop_map(Step::Type),
        4 => key.prop_map(|(k, m)| Step::Press(k, m)),
        1 => prop_oneof![typed(), Just("\r\n\tx 1\r\n".to_string())].prop_map(Step::Paste),
        2 => Just(Step::Undo),
        1 => Just(Step::Redo),
        2 => (
            prop::option::of(0usize..64),
            (0.0f32..1.0, 0.0f32..1.0),
            (-80.0f32..80.0, -80.0f32..80.0),
            any::<bool>()
        )
            .prop_map(|(bone, at, by, shift)| Step::CanvasDrag { bone, at, by, shift }),
        2 => (0usize..256, -120.0f32..120.0).prop_map(|(key, dx)| Step::MoveKey { key, dx }),
        1 => any::<bool>().prop_map(Step::SetupPose),
        1 => (0usize..64).prop_map(Step::OpenExample),
    ]
}

fn canvas_drag(
    h: &mut Harness<'_, SkelpadApp>,
    bone: Option<usize>,
    at: (f32, f32),
    by: Vec2,
    shift: bool,
) {
    let app = h.state();
    let rect = app.canvas.rect;
    let start = match bone {
        Some(i) if !app.pose.bones.is_empty() => {
            let t = app.pose.bones[i % app.pose.bones.len()].world.0.translation;
            app.view.screen_from_world(rect, t.x, t.y)
        }
        _ => rect.min + Vec2::new(rect.width() * at.0, rect.height() * at.1),
    };
    if !rect.contains(start) {
        return;
    }
    let end = rect.clamp(start + by);
    let modifiers = if shift { Modifiers::SHIFT } else { Modifiers::NONE };
    crate::pointer_drag(h, start, end, modifiers, 4);
}

fn move_key(h: &mut Harness<'_, SkelpadApp>, key: usize, dx: f32) {
    let keys: Vec<Pos2> = h
        .query_all_by(|n| n.label().is_some_and(|l| l.starts_with("Key ")))
        .map(|n| n.rect().center())
        .collect();
    if keys.is_empty() {
        return;
    }
    let a = keys[key % keys.len()];
    crate::pointer_drag(h, a, a + Vec2::new(dx, 0.0), Modifiers::NONE, 4);
}

/// The editor on `path`. Typed text may hold characters the UI font lacks:
/// the app draws them as boxes (egui's default), where kittest would panic.
fn open(path: &Path) -> Harness<'static, SkelpadApp> {
    let file = Some(path.to_path_buf());
    let mut h = Harness::builder().with_size([1280.0, 800.0]).allow_missing_glyphs().build_eframe(
        move |cc| {
            let services =
                Services { dialogs: Box::new(NoDialogs), recovery_dir: None, watch_files: false };
            SkelpadApp::new(cc, file, services)
        },
    );
    h.run_steps(3);
    h
}

fn open_example(h: &mut Harness<'_, SkelpadApp>, i: usize) {
    h.state_mut().request(Action::OpenExample(i % EXAMPLES.len()));
    h.run_steps(2);
    if let Some(b) = h.query_by_label("Don't save") {
        b.click();
        h.run_steps(2);
    }
}

fn focus_editor(h: &mut Harness<'_, SkelpadApp>) {
    h.ctx.memory_mut(|m| m.request_focus(skelpad::app::editor::editor_id()));
    h.run_steps(1);
}

/// The byte offset at fraction `f` of `text`, on a char boundary.
fn offset(text: &str, f: f64) -> usize {
    let mut at = ((text.len() as f64) * f) as usize;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(h: &mut Harness<'_, SkelpadApp>, step: &Step) {
    match step {
        Step::Select(a, b) => {
            focus_editor(h);
            let text = &h.state().doc.text;
            let (a, b) = (offset(text, *a), offset(text, *b));
            h.state_mut().editor.select(a..b);
        }
        // Text goes to the editor (after a click on the canvas or the
        // dopesheet, the user clicks back into the text first).
        Step::Type(s) => {
            focus_editor(h);
            h.event(Event::Text(s.clone()));
        }
        Step::Press(k, m) => {
            focus_editor(h);
            h.key_press_modifiers(*m, *k);
        }
        Step::Paste(s) => {
            focus_editor(h);
            h.event(Event::Paste(s.clone()));
        }
        Step::SetupPose(on) => {
            let p = &mut h.state_mut().playback;
            p.setup_pose = *on;
            p.playing = false;
        }
        Step::Undo => h.key_press_modifiers(Modifiers::COMMAND, Key::Z),
        Step::Redo => h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z),
        Step::CanvasDrag { bone, at, by, shift } => {
            canvas_drag(h, *bone, *at, Vec2::new(by.0, by.1), *shift);
        }
        Step::MoveKey { key, dx } => move_key(h, *key, *dx),
        Step::OpenExample(i) => open_example(h, *i),
    }
    // Typing is applied in order over a frame or two; let it settle.
    h.run_steps(3);
}

/// The invariants that hold after every step.
fn check_state(h: &Harness<'_, SkelpadApp>, after: &Step) -> Result<(), TestCaseError> {
    let app = h.state();
    let text = &app.doc.text;
    prop_assert_eq!(app.editor.shown_text(), Some(text.as_str()), "shown text after {:?}", after);
    let fresh = compile_checked(text);
    let ours = app.doc.analysis.comp();
    prop_assert!(
        format!("{:?}", ours.armature) == format!("{:?}", fresh.armature),
        "the document's armature is not a fresh compile's after {:?}",
        after
    );
    prop_assert_eq!(&ours.diagnostics, &fresh.diagnostics, "diagnostics after {:?}", after);
    Ok(())
}

thread_local! {
    /// Per kind of step: how many ran, and how many changed the text.
    static TALLY: std::cell::RefCell<std::collections::BTreeMap<&'static str, (u32, u32)>> =
        Default::default();
}

fn tally(step: &Step, changed: bool) {
    let kind = match step {
        Step::Select(..) => "select",
        Step::Type(_) => "type",
        Step::Press(..) => "key",
        Step::Paste(_) => "paste",
        Step::Undo => "undo",
        Step::Redo => "redo",
        Step::CanvasDrag { .. } => "canvas drag",
        Step::MoveKey { .. } => "key move",
        Step::SetupPose(_) => "setup pose",
        Step::OpenExample(_) => "open example",
    };
    TALLY.with(|t| {
        let mut t = t.borrow_mut();
        let e = t.entry(kind).or_default();
        e.0 += 1;
        e.1 += u32::from(changed);
    });
}

/// Presses Ctrl+Z until the text stops changing (bounded).
fn undo_all(h: &mut Harness<'_, SkelpadApp>) {
    focus_editor(h);
    let mut same = 0;
    for _ in 0..300 {
        let before = h.state().doc.text.clone();
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run_steps(2);
        if h.state().doc.text == before {
            same += 1;
            if same == 3 {
                break;
            }
        } else {
            same = 0;
        }
    }
}

fn run_case(dir: &Path, start: usize, crlf: bool, steps: &[Step]) -> Result<(), TestCaseError> {
    let example = EXAMPLES[start % EXAMPLES.len()].text;
    let text = if crlf { example.replace('\n', "\r\n") } else { example.to_owned() };
    let path = write(dir, "start.skel2d", &text);
    let mut h = open(&path);
    h.state_mut().settings.view.show_dopesheet = true;
    h.run_steps(2);
    let mut original = h.state().doc.text.clone();
    // A CRLF file is edited with LF line breaks (and saved back with CRLF).
    prop_assert_eq!(&original, &example, "the file opened as it is");
    check_state(&h, &Step::Select(0.0, 0.0))?;
    for step in steps {
        let before = h.state().doc.text.clone();
        apply(&mut h, step);
        tally(step, h.state().doc.text != before);
        check_state(&h, step)?;
        if matches!(step, Step::OpenExample(_)) {
            original = h.state().doc.text.clone();
        }
    }
    undo_all(&mut h);
    prop_assert!(h.state().doc.text == original, "undoing everything gives back the original");
    check_state(&h, &Step::Undo)?;
    Ok(())
}

#[test]
fn random_editing_keeps_text_compilation_and_undo_consistent() {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(3);
    let config =
        Config { cases, max_shrink_iters: 64, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new(config);
    let dir = tempfile::tempdir().unwrap();
    let strategy = (0usize..64, any::<bool>(), prop::collection::vec(step(), 1..=MAX_STEPS));
    let started = std::time::Instant::now();
    let result =
        runner.run(&strategy, |(start, crlf, steps)| run_case(dir.path(), start, crlf, &steps));
    if let Err(e) = result {
        panic!("{e}");
    }
    eprintln!("{cases} editing sequences in {:.1} s", started.elapsed().as_secs_f64());
    // What ran (steps, of which changed the text): a step kind that never
    // changes anything over a long run would mean the driver misses its target.
    TALLY.with(|t| eprintln!("steps (run, changed the text): {:?}", t.borrow()));
}
