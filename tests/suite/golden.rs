//! Golden images: every example and the edge-case scripts of
//! `tests/golden/cases` are rendered on the CPU and compared with the
//! reference PNGs in `tests/golden/`.
//!
//! Tolerance: pixels are compared premultiplied; a pixel differs when any
//! channel is off by more than 8/255, and at most 0.2 % of a picture's
//! pixels may differ (room for floating-point differences between machines,
//! far too little for a moved, missing or recolored shape).
//!
//! Refresh all references after an intended change with
//! `UPDATE_GOLDEN=1 cargo test --test suite golden::`. On a mismatch the test
//! writes `NAME.new.png` and `NAME.diff.png` next to the reference.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::{Path, PathBuf};

use skelpad::compile::compile;
use skelpad::render::RenderCache;
use skelpad::render::frames::{FrameRenderer, Framing, Settings};

const CHANNEL_TOLERANCE: u8 = 8;
const MAX_DIFFERING: f64 = 0.002;

struct Case {
    name: &'static str,
    script: &'static str,
    anim: Option<&'static str>,
    /// Frame number at the animation's fps.
    frame: usize,
    skin: Option<&'static str>,
    size: (u32, u32),
    framing: Framing,
    bones: bool,
    background: Option<[f32; 4]>,
}

const fn case(name: &'static str, script: &'static str) -> Case {
    Case {
        name,
        script,
        anim: None,
        frame: 0,
        skin: None,
        size: (128, 128),
        framing: Framing::Fit,
        bones: false,
        background: None,
    }
}

fn cases() -> Vec<Case> {
    let white = Some([1.0, 1.0, 1.0, 1.0]);
    vec![
        Case {
            anim: Some("walk"),
            frame: 5,
            bones: true,
            ..case("example_walk_cycle", "examples/walk_cycle.skel2d")
        },
        Case {
            anim: Some("wave"),
            frame: 10,
            ..case("example_tentacle", "examples/tentacle.skel2d")
        },
        Case {
            anim: Some("sway"),
            frame: 12,
            ..case("example_tentacle_sway", "examples/tentacle.skel2d")
        },
        Case {
            anim: Some("bounce"),
            frame: 14,
            background: white,
            ..case("example_bouncing_ball", "examples/bouncing_ball.skel2d")
        },
        Case {
            anim: Some("colors"),
            frame: 10,
            ..case("example_draw_order", "examples/draw_order.skel2d")
        },
        Case { skin: Some("blue"), ..case("example_skins_blue", "examples/skins.skel2d") },
        Case {
            anim: Some("reach"),
            frame: 20,
            bones: true,
            ..case("example_ik_arm", "examples/ik_arm.skel2d")
        },
        Case {
            anim: Some("walk"),
            frame: 5,
            bones: true,
            ..case("example_ik_walk", "examples/ik_walk.skel2d")
        },
        Case {
            anim: Some("pop"),
            frame: 17,
            background: white,
            ..case("example_curves", "examples/curves.skel2d")
        },
        Case {
            skin: Some("happy"),
            anim: Some("blink-and-talk"),
            frame: 31,
            ..case("example_skins_happy", "examples/skins.skel2d")
        },
        Case {
            size: (220, 160),
            framing: Framing::Zoom(1.0),
            background: white,
            ..case("shapes", "tests/golden/cases/shapes.skel2d")
        },
        Case {
            size: (220, 160),
            framing: Framing::Zoom(1.0),
            ..case("joins", "tests/golden/cases/joins.skel2d")
        },
        Case {
            size: (160, 100),
            framing: Framing::Zoom(1.0),
            background: white,
            ..case("caps", "tests/golden/cases/caps.skel2d")
        },
        Case {
            size: (220, 160),
            framing: Framing::Zoom(1.0),
            ..case("paths", "tests/golden/cases/paths.skel2d")
        },
        Case {
            size: (200, 140),
            framing: Framing::Zoom(1.0),
            background: white,
            ..case("sprites", "tests/golden/cases/sprites.skel2d")
        },
        Case {
            size: (96, 96),
            framing: Framing::Zoom(0.75),
            bones: true,
            ..case("bones_zoomed", "examples/walk_cycle.skel2d")
        },
    ]
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn render(case: &Case) -> image::RgbaImage {
    let path = root().join(case.script);
    let text = std::fs::read_to_string(&path).expect("script is readable");
    let comp = compile(&text);
    assert!(!comp.has_errors(), "{}: {:?}", case.script, comp.diagnostics);
    let arm = &comp.armature;
    let anim = case.anim.map(|n| arm.animation_by_name(n).expect("animation exists"));
    let skin = case
        .skin
        .map_or(Default::default(), |n| arm.skeleton.skin_by_name(n).expect("skin exists"));
    let time = anim.and_then(|a| arm.animation(a)).map_or(0.0, |a| a.frame_times()[case.frame]);
    let settings = Settings {
        anim,
        skin,
        width: case.size.0,
        height: case.size.1,
        framing: case.framing,
        background: case.background,
        bones: case.bones,
    };
    let mut cache = RenderCache::new(path.parent().expect("folder"));
    let mut r = FrameRenderer::new(arm, settings, &mut cache).expect("renderer");
    r.frame(time).expect("frame renders")
}

fn premultiplied(p: &image::Rgba<u8>) -> [u8; 4] {
    let a = u16::from(p[3]);
    let m = |c: u8| ((u16::from(c) * a + 127) / 255) as u8;
    [m(p[0]), m(p[1]), m(p[2]), p[3]]
}

/// The share of pixels that differ, and a picture of where (red).
fn compare(got: &image::RgbaImage, want: &image::RgbaImage) -> (f64, image::RgbaImage) {
    let mut diff = image::RgbaImage::new(got.width(), got.height());
    let mut differing = 0usize;
    for (x, y, g) in got.enumerate_pixels() {
        let (a, b) = (premultiplied(g), premultiplied(want.get_pixel(x, y)));
        let off = a.iter().zip(b).any(|(p, q)| p.abs_diff(q) > CHANNEL_TOLERANCE);
        if off {
            differing += 1;
        }
        let gray = (u16::from(a[3]) / 4) as u8;
        diff.put_pixel(
            x,
            y,
            if off { image::Rgba([255, 0, 0, 255]) } else { image::Rgba([gray, gray, gray, 255]) },
        );
    }
    (differing as f64 / f64::from(got.width() * got.height()), diff)
}

fn golden_path(name: &str) -> PathBuf {
    root().join("tests/golden").join(format!("{name}.png"))
}

#[test]
fn renders_match_golden_images() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    for case in cases() {
        let got = render(&case);
        let path = golden_path(case.name);
        if update {
            got.save(&path).expect("write golden");
            continue;
        }
        let want = match image::open(&path) {
            Ok(img) => img.into_rgba8(),
            Err(e) => {
                failures.push(format!(
                    "{}: no reference ({e}); run UPDATE_GOLDEN=1 cargo test --test suite golden::",
                    path.display()
                ));
                continue;
            }
        };
        if got.dimensions() != want.dimensions() {
            failures.push(format!(
                "{}: size {:?}, reference {:?}",
                case.name,
                got.dimensions(),
                want.dimensions()
            ));
            continue;
        }
        let (share, diff) = compare(&got, &want);
        if share > MAX_DIFFERING {
            let _ = got.save(path.with_extension("new.png"));
            let _ = diff.save(path.with_extension("diff.png"));
            failures.push(format!(
                "{}: {:.2} % of pixels differ (allowed {:.2} %); see {}",
                case.name,
                share * 100.0,
                MAX_DIFFERING * 100.0,
                path.with_extension("diff.png").display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The comparison itself must notice what a person would: a shape moved by
/// two pixels, or a color changed.
#[test]
fn comparison_catches_small_visible_changes() {
    let case = Case {
        size: (220, 160),
        framing: Framing::Zoom(1.0),
        ..case("shapes", "tests/golden/cases/shapes.skel2d")
    };
    let base = render(&case);
    let shifted = image::imageops::crop_imm(&base, 2, 0, 218, 160).to_image();
    let mut moved = image::RgbaImage::new(220, 160);
    image::imageops::replace(&mut moved, &shifted, 0, 0);
    assert!(compare(&moved, &base).0 > MAX_DIFFERING, "a 2-pixel shift is caught");
    let mut recolored = base.clone();
    for p in recolored.pixels_mut().filter(|p| p[3] > 0 && p[0] > 200) {
        p[0] -= 40;
    }
    assert!(compare(&recolored, &base).0 > MAX_DIFFERING, "a color change is caught");
    assert_eq!(compare(&base, &base).0, 0.0);
}

#[test]
fn every_example_has_a_golden_image() {
    let names: Vec<String> = cases().iter().map(|c| c.script.to_string()).collect();
    for entry in std::fs::read_dir(root().join("examples")).expect("examples") {
        let p = entry.expect("entry").path();
        if p.extension().is_some_and(|e| e == "skel2d") {
            let rel = Path::new("examples").join(p.file_name().expect("name"));
            assert!(
                names.contains(&rel.display().to_string()),
                "{} has no golden case",
                rel.display()
            );
        }
    }
}
