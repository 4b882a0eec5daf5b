//! Per-frame CPU cost of the editor: the app's update (every panel, the
//! edit, the incremental recompile, highlighting, the pose, the canvas) plus
//! egui's tessellation of the frame — what eframe runs before handing
//! triangles to the GPU. Driven through a real `egui::Context`, with no
//! window and no GPU. Run with `cargo bench --bench editor`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::PathBuf;

use divan::Bencher;
use eframe::egui::{self, Event, Key, Modifiers, RawInput, Rect, Vec2};
use skelpad::app::files::{FileDialogs, PendingDialog};
use skelpad::app::{Services, SkelpadApp, editor::editor_id};
use skelpad::generate;

// Measured with the allocator the skelpad binary uses.
skelpad::global_allocator!();

fn main() {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    divan::main();
}

struct NoDialogs;

impl FileDialogs for NoDialogs {
    fn pick_open(&self, _: Option<&std::path::Path>) -> PendingDialog {
        PendingDialog::ready(None)
    }
    fn pick_save(&self, _: &str, _: Option<&std::path::Path>, _: &str, _: &str) -> PendingDialog {
        PendingDialog::ready(None)
    }
}

/// The app on a 1600×1000 screen, with egui's context, a clock and the
/// folder holding the script.
struct Session {
    ctx: egui::Context,
    app: SkelpadApp,
    clock: f64,
    _dir: tempfile::TempDir,
}

impl Session {
    fn new(text: &str) -> Session {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path: PathBuf = dir.path().join("rig.skel2d");
        std::fs::write(&path, text).expect("writable temporary folder");
        let ctx = egui::Context::default();
        let cc = eframe::CreationContext::_new_kittest(ctx.clone());
        let services =
            Services { dialogs: Box::new(NoDialogs), recovery_dir: None, watch_files: false };
        let app = SkelpadApp::new(&cc, Some(path), services);
        let mut s = Session { ctx, app, clock: 0.0, _dir: dir };
        for _ in 0..3 {
            s.frame(Vec::new());
        }
        s
    }

    /// One frame: update + tessellation. Returns the number of triangles.
    fn frame(&mut self, events: Vec<Event>) -> usize {
        self.clock += 1.0 / 60.0;
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(1600.0, 1000.0))),
            time: Some(self.clock),
            events,
            ..Default::default()
        };
        let app = &mut self.app;
        let mut output = self.ctx.run_ui(input, |ui| app.frame(ui));
        // No GPU here to take the font texture updates.
        output.textures_delta.clear();
        let primitives = self.ctx.tessellate(output.shapes, output.pixels_per_point);
        primitives
            .iter()
            .map(|p| match &p.primitive {
                egui::epaint::Primitive::Mesh(m) => m.indices.len() / 3,
                egui::epaint::Primitive::Callback(_) => 0,
            })
            .sum()
    }

    /// Focuses the editor with the cursor at byte `at`.
    fn focus_editor_at(&mut self, at: usize) {
        self.ctx.memory_mut(|m| m.request_focus(editor_id()));
        self.app.editor.select(at..at);
        for _ in 0..3 {
            self.frame(Vec::new());
        }
    }
}

fn key(key: Key) -> Event {
    Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers: Modifiers::NONE }
}

/// The generated 1000-bone script, playing its first animation, with one
/// character typed (and deleted, alternately) inside the fifth animation.
#[divan::bench(sample_count = 200)]
fn type_in_animation_1000_bones(bencher: Bencher) {
    type_in_fifth_animation(bencher, 1000, true);
}

/// One character typed (and deleted, alternately) inside the fifth
/// animation of the generated script of `bones` bones, its first animation
/// playing or paused.
fn type_in_fifth_animation(bencher: Bencher, bones: usize, playing: bool) {
    let text = generate::script(bones, 10);
    let anim_at = text.match_indices("anim \"").nth(4).map_or(0, |(i, _)| i);
    let at = anim_at + text[anim_at..].find("\t\tr 0").unwrap_or(0) + 4;
    let mut s = Session::new(&text);
    assert!(s.app.playback.playing);
    s.app.playback.playing = playing;
    s.focus_editor_at(at);
    let mut typed = false;
    bencher.bench_local(|| {
        typed = !typed;
        let ev = if typed { Event::Text("1".into()) } else { key(Key::Backspace) };
        divan::black_box(s.frame(vec![ev]));
    });
    assert_eq!(s.app.doc.text.len(), text.len() + usize::from(typed));
}

/// The generated 5000-bone script (50,000 lines) in an app that was
/// showing the built-in example: the file opened (read, compiled) and the
/// first frame that shows it.
#[divan::bench(sample_count = 10)]
fn open_5000_bones(bencher: Bencher) {
    let text = generate::script(5000, 10);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("big.skel2d");
    std::fs::write(&path, &text).expect("writable temporary folder");
    bencher.with_inputs(|| Session::new(skelpad::app::help::EXAMPLES[0].text)).bench_local_refs(
        |s| {
            s.app.request(skelpad::app::Action::Open(Some(path.clone())));
            divan::black_box(s.frame(Vec::new()));
        },
    );
}

/// One character typed (and deleted, alternately) inside the fifth
/// animation of the 5000-bone script, the first animation playing (the
/// pose changes every frame) or paused.
#[divan::bench(args = ["playing", "paused"], sample_count = 100)]
fn type_in_animation_5000_bones(bencher: Bencher, playback: &str) {
    type_in_fifth_animation(bencher, 5000, playback == "playing");
}

/// A comment typed at the end of a skeleton line near the top of the
/// 5000-bone script (one character a frame, the next one each time; back
/// to the line as it was every 8 characters): a change to the rig, not to
/// an animation.
#[divan::bench(sample_count = 100)]
fn type_in_skeleton_5000_bones(bencher: Bencher) {
    let text = generate::script(5000, 10);
    let at = text.match_indices('\n').nth(11).map_or(0, |(i, _)| i);
    let mut s = Session::new(&text);
    s.focus_editor_at(at);
    let comment = " # typed";
    let mut n = 0;
    bencher.bench_local(|| {
        let ev = if n < comment.len() {
            Event::Text(comment[n..n + 1].into())
        } else {
            key(Key::Backspace)
        };
        n = (n + 1) % (2 * comment.len());
        divan::black_box(s.frame(vec![ev]));
    });
    assert!(s.app.doc.text.len() >= text.len());
}

/// Fast typing behind a key the text field handles, as `xdotool` types
/// into the real window: End and a 38-character comment arriving in one
/// frame at the end of a skeleton line of the 5000-bone script (paused),
/// then End and 38 Backspaces; each sample is that frame and the next one.
#[divan::bench(sample_count = 40)]
fn burst_in_skeleton_5000_bones(bencher: Bencher) {
    let text = generate::script(5000, 10);
    let at = text.match_indices('\n').nth(11).map_or(0, |(i, _)| i);
    let mut s = Session::new(&text);
    s.app.playback.playing = false;
    s.focus_editor_at(at - 3);
    let comment = " # typed fast into a 50000-line script";
    let mut typed = false;
    bencher.bench_local(|| {
        typed = !typed;
        let mut events = vec![key(Key::End)];
        if typed {
            events.extend(comment.chars().map(|c| Event::Text(c.to_string())));
        } else {
            events.extend(comment.chars().map(|_| key(Key::Backspace)));
        }
        divan::black_box(s.frame(events));
        divan::black_box(s.frame(Vec::new()));
    });
    let expected = if typed { text.len() + comment.len() } else { text.len() };
    assert_eq!(s.app.doc.text.len(), expected);
}

/// Scrolling the 5000-bone script down with the mouse wheel, `lines` lines
/// a frame (a page: 40), from the top: each frame shows rows the last one
/// did not.
#[divan::bench(args = [3, 40], sample_count = 200)]
fn scroll_5000_bones(bencher: Bencher, lines: usize) {
    let mut s = Session::new(&generate::script(5000, 10));
    let over = s.ctx.read_response(editor_id()).expect("the editor was drawn").interact_rect;
    s.frame(vec![Event::PointerMoved(over.center())]);
    let wheel = Event::MouseWheel {
        unit: egui::MouseWheelUnit::Line,
        delta: Vec2::new(0.0, -(lines as f32)),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
        modifiers: Modifiers::NONE,
    };
    let top = |s: &Session| s.ctx.read_response(editor_id()).map(|r| r.rect.top());
    let before = top(&s);
    bencher.bench_local(|| divan::black_box(s.frame(vec![wheel.clone()])));
    // egui scrolls smoothly: a single frame (`cargo test --benches` runs
    // each bench once) has not moved yet.
    for _ in 0..10 {
        s.frame(Vec::new());
    }
    assert!(top(&s) < before, "the text scrolled: {:?} → {:?}", before, top(&s));
}

/// The same script playing with nothing typed: the steady cost of a frame.
#[divan::bench(sample_count = 200)]
fn playing_frame_1000_bones(bencher: Bencher) {
    let mut s = Session::new(&generate::script(1000, 10));
    bencher.bench_local(|| divan::black_box(s.frame(Vec::new())));
}

/// The worst script (`generate::worst_script`: 5000 bones, an animation of
/// a million frames) playing that animation with onion skin asked for.
#[divan::bench(sample_count = 50)]
fn playing_frame_worst_script(bencher: Bencher) {
    let mut s = Session::new(&generate::worst_script());
    let arm = s.app.doc.analysis.shown.clone();
    let long = arm.animation_by_name("longest").expect("the long animation");
    s.app.playback.select_anim(&arm, long);
    s.app.settings.view.onion_skin = true;
    s.frame(Vec::new());
    bencher.bench_local(|| divan::black_box(s.frame(Vec::new())));
}

/// Start-up inside the process: create the app on the built-in example and
/// run its first frame (window and GL context creation not included).
#[divan::bench(sample_count = 20)]
fn first_frame_of_the_example(bencher: Bencher) {
    bencher.bench_local(|| {
        let ctx = egui::Context::default();
        let cc = eframe::CreationContext::_new_kittest(ctx.clone());
        let services =
            Services { dialogs: Box::new(NoDialogs), recovery_dir: None, watch_files: false };
        let mut app = SkelpadApp::new(&cc, None, services);
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(1280.0, 800.0))),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| app.frame(ui));
        output.textures_delta.clear();
        divan::black_box(ctx.tessellate(output.shapes, output.pixels_per_point));
    });
}

/// Start-up on the generated 5000-bone script given on the command line:
/// create the app (the file read, its compilation started on another
/// thread) and run its first frame, which shows the text (window and GL
/// context creation not included). Issue 40's target: ≤ 100 ms.
#[divan::bench(sample_count = 10)]
fn first_frame_5000_bones_from_the_command_line(bencher: Bencher) {
    let text = generate::script(5000, 10);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("big.skel2d");
    std::fs::write(&path, &text).expect("writable temporary folder");
    bencher.bench_local(|| {
        let ctx = egui::Context::default();
        let cc = eframe::CreationContext::_new_kittest(ctx.clone());
        let services =
            Services { dialogs: Box::new(NoDialogs), recovery_dir: None, watch_files: false };
        let mut app = SkelpadApp::new(&cc, Some(path.clone()), services);
        let input = RawInput {
            screen_rect: Some(Rect::from_min_size(egui::Pos2::ZERO, Vec2::new(1280.0, 800.0))),
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, |ui| app.frame(ui));
        output.textures_delta.clear();
        divan::black_box(ctx.tessellate(output.shapes, output.pixels_per_point));
        // Returned: divan drops it after timing, which waits for the
        // compilation thread, so no sample runs beside the last one's.
        WaitsForItsCompile(app)
    });
}

/// An app that, when dropped, waits for its document's first compilation.
struct WaitsForItsCompile(SkelpadApp);

impl Drop for WaitsForItsCompile {
    fn drop(&mut self) {
        self.0.doc.poll(true);
    }
}

/// Building the highlighted layout job of the 1000-bone script (what an
/// edit costs the highlighter).
#[divan::bench(sample_count = 50)]
fn highlight_job_1000_bones(bencher: Bencher) {
    let text = generate::script(1000, 10);
    let comp = skelpad::compile::compile(&text);
    bencher.bench(|| {
        skelpad::app::highlight::layout_job(&text, &comp, "", true, egui::FontId::monospace(13.0))
    });
}

/// egui laying out that job when one line changed (its galley cache holds
/// the other paragraphs), and when nothing changed.
#[divan::bench(args = [true, false], sample_count = 50)]
fn galley_1000_bones(bencher: Bencher, edited: bool) {
    let text = generate::script(1000, 10);
    let ctx = egui::Context::default();
    let font = egui::FontId::monospace(13.0);
    let edited_text = text.replacen("\t\tr 0", "\t\tr 01", 1);
    let (comp, edited_comp) =
        (skelpad::compile::compile(&text), skelpad::compile::compile(&edited_text));
    let jobs = [
        skelpad::app::highlight::layout_job(&text, &comp, "", true, font.clone()),
        skelpad::app::highlight::layout_job(&edited_text, &edited_comp, "", true, font),
    ];
    let mut flip = 0;
    let mut time = 0.0;
    bencher.bench_local(|| {
        if edited {
            flip ^= 1;
        }
        time += 0.1;
        let mut job = Some(jobs[flip].clone());
        let input = RawInput { time: Some(time), ..Default::default() };
        let mut out = None;
        let mut output = ctx.run_ui(input, |ui| {
            if let Some(job) = job.take() {
                out = Some(ui.fonts_mut(|f| f.layout_job(job)));
            }
        });
        output.textures_delta.clear();
        divan::black_box(out);
    });
}
