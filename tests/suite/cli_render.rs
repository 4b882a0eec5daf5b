//! `skelpad render` end to end: the files it writes, their contents, its
//! messages and exit codes. Runs the command in-process (the binary in a
//! shared target folder may belong to another checkout).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::{Path, PathBuf};

use clap::Parser;
use skelpad::cli::render::{RenderCommand, execute};

/// A fresh folder for one test, removed when the test ends.
struct Workdir(PathBuf);

impl std::ops::Deref for Workdir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Workdir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn workdir(tag: &str) -> Workdir {
    let dir = std::env::temp_dir().join(format!("skelpad-cli-render-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    Workdir(dir)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write script");
    p
}

/// Runs `skelpad render ARGS`; returns the exit code and what it printed.
fn render(args: &[&str]) -> (i32, String) {
    let argv = std::iter::once("skelpad render").chain(args.iter().copied());
    match RenderCommand::try_parse_from(argv) {
        Ok(cmd) => {
            let mut err = Vec::new();
            let code = execute(&cmd.args, &mut err, false);
            (code, String::from_utf8_lossy(&err).into_owned())
        }
        Err(e) => (if e.use_stderr() { 2 } else { 0 }, e.to_string()),
    }
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn load(p: &Path) -> image::RgbaImage {
    image::open(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())).into_rgba8()
}

/// Box of the pixels with some alpha: (min x, min y, max x, max y).
fn drawn_box(img: &image::RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let mut b: Option<(u32, u32, u32, u32)> = None;
    for (x, y, p) in img.enumerate_pixels() {
        if p[3] > 128 {
            b = Some(
                b.map_or((x, y, x, y), |(a, c, d, e)| (a.min(x), c.min(y), d.max(x), e.max(y))),
            );
        }
    }
    b
}

const MOVER: &str = "skeleton\n\tbox l0\n\t\t@ :rect w10 h10 t0 f#F00\nanim \"slide\" 10fps\n\tbox\n\t\tx 0 -> 100\n";

#[test]
fn zoom_puts_the_origin_at_the_center_with_y_up() {
    let dir = workdir("zoom");
    let script = write(
        &dir,
        "a.skel2d",
        "skeleton\n\ta\n\t\t@ :circle d10 t0 f#00F\n\t\t@up :rect y6 w2 h2 t0 f#F00\n",
    );
    let out = dir.join("a.png");
    let (code, msg) = render(&[s(&script), "--zoom", "4", "--size", "64x48", "-o", s(&out)]);
    assert_eq!(code, 0, "{msg}");
    let img = load(&out);
    assert_eq!(img.dimensions(), (64, 48));
    // The circle (radius 5 → 20 px) is centered on pixel (32, 24).
    assert_eq!(img.get_pixel(32, 24).0, [0, 0, 255, 255]);
    assert_eq!(img.get_pixel(32 + 18, 24).0[3], 255);
    assert_eq!(img.get_pixel(32 + 22, 24).0[3], 0);
    // The red square at y = 6 is 24 px ABOVE the center (row 0), not below.
    assert_eq!(img.get_pixel(32, 0).0, [255, 0, 0, 255]);
    assert_eq!(img.get_pixel(32, 47).0[3], 0);
    assert_eq!(img.get_pixel(0, 0).0[3], 0, "transparent by default");
    assert!(msg.contains("wrote"), "{msg}");
}

#[test]
fn fit_frames_the_whole_animation_so_frames_do_not_jitter() {
    let dir = workdir("fit");
    let script = write(&dir, "m.skel2d", MOVER);
    let out = dir.join("m.png");
    let (code, msg) = render(&[s(&script), "--frames", "--size", "100x40", "-o", s(&out)]);
    assert_eq!(code, 0, "{msg}");
    let first = load(&dir.join("m_0000.png"));
    let last = load(&dir.join("m_0004.png"));
    let (a, b) = (drawn_box(&first).expect("drawn"), drawn_box(&last).expect("drawn"));
    // Same size in every frame (one scale for the whole animation)...
    assert_eq!((a.2 - a.0, a.3 - a.1), (b.2 - b.0, b.3 - b.1));
    // ...and the first frame sits at the left, leaving room for the slide.
    assert!(a.0 < 10 && b.0 > 60, "{a:?} {b:?}");
    // A single frame with --fit frames the animation too, not just itself.
    let one = dir.join("one.png");
    assert_eq!(render(&[s(&script), "--anim", "slide", "--size", "100x40", "-o", s(&one)]).0, 0);
    assert_eq!(drawn_box(&load(&one)), Some(a));
}

#[test]
fn frames_writes_a_numbered_sequence_with_progress() {
    let dir = workdir("frames");
    let script = write(&dir, "m.skel2d", MOVER);
    let (code, msg) =
        render(&[s(&script), "--frames", "--size", "32x32", "-o", s(&dir.join("seq.png"))]);
    assert_eq!(code, 0, "{msg}");
    // Keys at frames 0 and 5 at 10 fps: one loop is 0.5 s, five frames.
    let mut names: Vec<String> = std::fs::read_dir(&*dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        vec![
            "m.skel2d",
            "seq_0000.png",
            "seq_0001.png",
            "seq_0002.png",
            "seq_0003.png",
            "seq_0004.png"
        ]
    );
    assert!(!msg.contains("frame 5/5"), "no progress when stderr is not a terminal: {msg}");
    assert!(msg.contains("wrote 5 frames"), "{msg}");
}

#[test]
fn sheet_is_a_grid_with_a_json_of_frame_rectangles() {
    let dir = workdir("sheet");
    let script = write(&dir, "m.skel2d", MOVER);
    let out = dir.join("sheet.png");
    let (code, msg) = render(&[s(&script), "--sheet", "--size", "40x30", "-o", s(&out)]);
    assert_eq!(code, 0, "{msg}");
    // Five frames: 3 columns, 2 rows.
    assert_eq!(load(&out).dimensions(), (120, 60));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("sheet.json")).expect("json"))
            .expect("valid JSON");
    assert_eq!(json["animation"], "slide");
    assert_eq!(json["fps"], 10.0);
    let frames = json["frames"].as_array().expect("frames");
    assert_eq!(frames.len(), 5);
    assert_eq!(
        (&frames[4]["x"], &frames[4]["y"], &frames[4]["w"], &frames[4]["h"]),
        (&40.into(), &30.into(), &40.into(), &30.into())
    );
    assert_eq!(frames[3]["time"], 0.3);
}

#[test]
fn gif_loops_forever_at_the_animation_speed() {
    let dir = workdir("gif");
    let script = write(&dir, "m.skel2d", MOVER);
    let out = dir.join("m.gif");
    let (code, msg) = render(&[s(&script), "--gif", "--size", "40x20", "-o", s(&out)]);
    assert_eq!(code, 0, "{msg}");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(std::fs::File::open(&out).expect("gif")).expect("decodes");
    let mut delays = Vec::new();
    let mut corners = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("frame") {
        delays.push(frame.delay);
        corners.push(frame.buffer[..4].to_vec());
    }
    assert_eq!(decoder.repeat(), gif::Repeat::Infinite);
    assert_eq!(delays, vec![10; 5], "10 fps: a tenth of a second per frame");
    assert!(
        corners.iter().all(|c| c == &[255, 255, 255, 255]),
        "white background by default: {corners:?}"
    );
}

#[test]
fn time_and_frame_pick_the_same_picture_and_times_wrap() {
    let dir = workdir("time");
    let script = write(&dir, "m.skel2d", MOVER);
    let shot = |args: &[&str], name: &str| {
        let out = dir.join(name);
        let mut all = vec![s(&script), "--size", "64x16"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-o", s(&out)]);
        let (code, msg) = render(&all);
        assert_eq!(code, 0, "{msg}");
        load(&out)
    };
    let by_time = shot(&["--time", "0.2"], "t.png");
    assert_eq!(by_time, shot(&["--frame", "2"], "f.png"));
    assert_eq!(by_time, shot(&["--time", "0.7"], "w.png"), "0.7 s wraps to 0.2 s in a 0.5 s loop");
    assert_ne!(by_time, shot(&["--time", "0.1"], "o.png"));
}

#[test]
fn bones_skin_and_background_change_the_picture() {
    let dir = workdir("options");
    let script = write(
        &dir,
        "s.skel2d",
        "skeleton\n\tarm l40\n\t\t@ :rect w10 h10 t0 f#F00\nskin \"green\"\n\t@arm :rect w10 h10 t0 f#0F0\n",
    );
    let shot = |args: &[&str], name: &str| {
        let out = dir.join(name);
        let mut all = vec![s(&script), "--zoom", "1", "--size", "100x20"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["-o", s(&out)]);
        let (code, msg) = render(&all);
        assert_eq!(code, 0, "{msg}");
        load(&out)
    };
    let plain = shot(&[], "plain.png");
    assert_eq!(plain.get_pixel(50, 10).0, [255, 0, 0, 255]);
    assert_eq!(plain.get_pixel(80, 10).0[3], 0);
    let bones = shot(&["--bones"], "bones.png");
    assert!(bones.get_pixel(80, 10).0[3] > 100, "the diamond reaches along the bone");
    assert_eq!(shot(&["--skin", "green"], "green.png").get_pixel(50, 10).0, [0, 255, 0, 255]);
    assert_eq!(
        shot(&["--background", "#123"], "bg.png").get_pixel(0, 0).0,
        [0x11, 0x22, 0x33, 255]
    );
}

#[test]
fn missing_sprites_are_reported_at_their_line_and_the_rest_is_drawn() {
    let dir = workdir("sprite");
    let script = write(
        &dir,
        "s.skel2d",
        "skeleton\n\ta\n\t\t@ :rect w4 h4 t0\n\tb\n\t\t@ :sprite \"nowhere.png\"\n",
    );
    let out = dir.join("s.png");
    let (code, msg) = render(&[s(&script), "--zoom", "1", "--size", "16x16", "-o", s(&out)]);
    assert_eq!(code, 0, "{msg}");
    assert!(
        msg.contains("warning") && msg.contains("nowhere.png") && msg.contains("no such file"),
        "{msg}"
    );
    assert!(msg.contains("s.skel2d:5:"), "points at the slot's line: {msg}");
    assert_eq!(load(&out).get_pixel(8, 8).0[3], 255);
}

#[test]
fn bad_arguments_and_missing_animations_exit_with_2_and_say_why() {
    let dir = workdir("errors");
    let script = write(&dir, "m.skel2d", MOVER);
    let still = write(&dir, "still.skel2d", "skeleton\n\ta\n\t\t@ :circle d4\n");
    let out = dir.join("x.png");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![s(&script), "--anim", "jump", "-o", s(&out)],
            "no animation named \"jump\" (animations: \"slide\")",
        ),
        (vec![s(&script), "--skin", "red", "-o", s(&out)], "no skin named `red`"),
        (vec![s(&still), "--gif", "-o", s(&out)], "--gif needs an animation"),
        (vec![s(&script), "--size", "0x10", "-o", s(&out)], "each side from 1 to 16384"),
        (vec![s(&script), "--size", "big", "-o", s(&out)], "WIDTHxHEIGHT"),
        (vec![s(&script), "--zoom", "0", "-o", s(&out)], "--zoom must be a positive number"),
        (vec![s(&script), "--time", "1", "--frames", "-o", s(&out)], "cannot be used with"),
        (vec![s(&script), "--zoom", "2", "--fit", "-o", s(&out)], "cannot be used with"),
        (
            vec![s(&script), "--background", "red", "-o", s(&out)],
            "expected `transparent` or a color",
        ),
        (vec![s(&script)], "--output"),
        (vec!["/no/such/script.skel2d", "-o", s(&out)], "file not found"),
        (vec![s(&script), "-o", "/no/such/folder/x.png"], "does not exist"),
    ];
    for (args, expect) in cases {
        let (code, msg) = render(&args);
        assert_eq!(code, 2, "{args:?}: {msg}");
        assert!(msg.contains(expect), "{args:?}: expected {expect:?} in {msg:?}");
    }
    assert!(!out.exists(), "no file after a failed render");
    // Through the real entry point too.
    assert_eq!(
        skelpad::cli::run(["skelpad", "render", s(&script), "--anim", "jump", "-o", s(&out)]),
        2
    );
    assert_eq!(
        skelpad::cli::run([
            "skelpad",
            "render",
            s(&script),
            "--frame",
            "1",
            "--time",
            "1",
            "-o",
            s(&out)
        ]),
        2
    );
}

#[test]
fn a_failed_export_leaves_no_partial_file_and_keeps_the_old_one() {
    let dir = workdir("atomic");
    let script = write(&dir, "m.skel2d", MOVER);
    // The output is a folder: writing it fails after the picture is made.
    let blocker = dir.join("taken.png");
    std::fs::create_dir_all(blocker.join("inside")).expect("dir");
    let (code, msg) = render(&[s(&script), "--size", "16x16", "-o", s(&blocker)]);
    assert_eq!(code, 2, "{msg}");
    assert!(blocker.is_dir());
    // A sheet whose JSON cannot be written (its name is taken by a folder):
    // the PNG must not appear either.
    std::fs::create_dir_all(dir.join("sheet.json").join("x")).expect("dir");
    let (code, msg) =
        render(&[s(&script), "--sheet", "--size", "16x16", "-o", s(&dir.join("sheet.png"))]);
    assert_eq!(code, 2, "{msg}");
    assert!(!dir.join("sheet.png").exists(), "{msg}");
    // An existing file survives a failed export untouched.
    let keep = dir.join("keep.png");
    std::fs::write(&keep, b"old").expect("write");
    let (code, _) = render(&[s(&script), "--anim", "nope", "-o", s(&keep)]);
    assert_eq!(code, 2);
    assert_eq!(std::fs::read(&keep).expect("read"), b"old");
    let leftovers: Vec<String> = std::fs::read_dir(&*dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn animations_longer_than_max_frames_are_refused_unless_raised() {
    let dir = workdir("max-frames");
    // 20 001 frames at 20 fps (the last key is at frame 20 001).
    let script = write(
        &dir,
        "long.skel2d",
        "skeleton\n\ta l10\n\t\t@ :rect w4 h4\nanim \"long\"\n\ta\n\t\tx 0 20001:> 5\n",
    );
    let out = dir.join("long.png");
    for flag in ["--frames", "--sheet", "--gif"] {
        let (code, msg) = render(&[s(&script), flag, "--size", "8x8", "-o", s(&out)]);
        assert_eq!(code, 2, "{flag}: {msg}");
        assert!(
            msg.contains("has 20001 frames")
                && msg.contains("at most 10000")
                && msg.contains("--max-frames 20001"),
            "{flag}: {msg}"
        );
    }
    assert!(std::fs::read_dir(&*dir).unwrap().count() == 1, "nothing written");
    // A lower limit refuses a short animation too; a higher one lets it through.
    let short = write(&dir, "m.skel2d", MOVER);
    let (code, msg) = render(&[
        s(&short),
        "--frames",
        "--max-frames",
        "2",
        "--size",
        "8x8",
        "-o",
        s(&dir.join("m.png")),
    ]);
    assert_eq!(code, 2, "{msg}");
    assert!(msg.contains("writes at most 2"), "{msg}");
    let (code, msg) = render(&[
        s(&short),
        "--gif",
        "--max-frames",
        "50",
        "--size",
        "8x8",
        "-o",
        s(&dir.join("m.gif")),
    ]);
    assert_eq!(code, 0, "{msg}");
}
