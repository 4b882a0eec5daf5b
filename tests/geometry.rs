//! Rendered coverage against an independent computation from LANGUAGE.md.
//!
//! For every rect, circle and ellipse shown in the conformance scripts
//! (`../shared/conformance`), at the setup pose and at every pose the
//! original tool recorded, the shape is placed with the ORIGINAL tool's
//! world matrix (`expected/NAME.json`) times the attachment transform, and
//! each pixel is classified analytically: surely inside (the pixel and half
//! a pixel around it are inside the shape, probed every quarter pixel),
//! surely outside (no probe inside), or on the edge. Our
//! renderer (our runtime, our tessellation, tiny-skia) must cover every
//! surely-inside pixel (alpha ≥ 0.9), leave every surely-outside pixel empty
//! (alpha ≤ 0.1), and its total coverage must match the analytic area
//! within 2 % (plus 2 pixels).
//!
//! Closed paths (concave, self-intersecting) are checked the same way
//! against the nonzero winding number of their polygon.

use std::path::{Path, PathBuf};

use serde_json::Value;
use skelpad::compile::compile;
use skelpad::model::{Affine, AttachmentKind, SkinId};
use skelpad::render::{self, Bounds, DrawOptions, Part, RenderCache, View};
use skelpad::runtime::evaluate;

const SIZE: u32 = 64;

/// An analytic shape in its attachment space.
enum Shape {
    /// Half sizes and corner radii (already clamped).
    RoundedRect {
        hw: f64,
        hh: f64,
        rx: f64,
        ry: f64,
    },
    Ellipse {
        rx: f64,
        ry: f64,
    },
    /// Nonzero winding of a closed polygon.
    Polygon(Vec<(f64, f64)>),
}

impl Shape {
    fn from_kind(kind: &AttachmentKind) -> Option<Shape> {
        match *kind {
            AttachmentKind::Rect { width, height, corner_radius, .. } => {
                let (hw, hh) = (width.abs() / 2.0, height.abs() / 2.0);
                let r = corner_radius.max(0.0);
                Some(Shape::RoundedRect { hw, hh, rx: r.min(hw), ry: r.min(hh) })
            }
            AttachmentKind::Ellipse { radius_x, radius_y, .. } => Some(Shape::Ellipse { rx: radius_x.abs(), ry: radius_y.abs() }),
            AttachmentKind::Circle { radius, .. } => Some(Shape::Ellipse { rx: radius.abs(), ry: radius.abs() }),
            _ => None,
        }
    }

    fn contains(&self, x: f64, y: f64) -> bool {
        match self {
            Shape::RoundedRect { hw, hh, rx, ry } => {
                let (ax, ay) = (x.abs(), y.abs());
                if ax > *hw || ay > *hh {
                    return false;
                }
                let (cx, cy) = (hw - rx, hh - ry);
                if ax > cx && ay > cy && *rx > 0.0 && *ry > 0.0 {
                    let (u, v) = ((ax - cx) / rx, (ay - cy) / ry);
                    return u * u + v * v <= 1.0;
                }
                true
            }
            Shape::Ellipse { rx, ry } => {
                let (u, v) = (x / rx, y / ry);
                u * u + v * v <= 1.0
            }
            Shape::Polygon(pts) => {
                let mut winding = 0i32;
                for (i, &(x0, y0)) in pts.iter().enumerate() {
                    let (x1, y1) = pts[(i + 1) % pts.len()];
                    let side = (x1 - x0) * (y - y0) - (x - x0) * (y1 - y0);
                    if y0 <= y && y1 > y && side > 0.0 {
                        winding += 1;
                    } else if y0 > y && y1 <= y && side < 0.0 {
                        winding -= 1;
                    }
                }
                winding != 0
            }
        }
    }

    fn area(&self) -> f64 {
        match self {
            Shape::RoundedRect { hw, hh, rx, ry } => 4.0 * hw * hh - (4.0 - std::f64::consts::PI) * rx * ry,
            Shape::Ellipse { rx, ry } => std::f64::consts::PI * rx * ry,
            // Not needed: polygons are checked pixel by pixel only.
            Shape::Polygon(_) => f64::NAN,
        }
    }

    fn local_bounds(&self) -> Bounds {
        match self {
            Shape::RoundedRect { hw, hh, .. } => Bounds { min: [-hw, -hh], max: [*hw, *hh] },
            Shape::Ellipse { rx, ry } => Bounds { min: [-rx, -ry], max: [*rx, *ry] },
            Shape::Polygon(pts) => {
                let xs = pts.iter().map(|p| p.0);
                let ys = pts.iter().map(|p| p.1);
                Bounds {
                    min: [xs.clone().fold(f64::INFINITY, f64::min), ys.clone().fold(f64::INFINITY, f64::min)],
                    max: [xs.fold(f64::NEG_INFINITY, f64::max), ys.fold(f64::NEG_INFINITY, f64::max)],
                }
            }
        }
    }
}

#[derive(Default)]
struct Tally {
    shapes: usize,
    failures: Vec<String>,
}

/// Compares the coverage of one slot's fill with `shape` mapped by `m`.
fn check_coverage(tag: &str, coverage: &mut dyn FnMut(&View) -> Vec<f32>, shape: &Shape, m: Affine, tally: &mut Tally) {
    let Some(inv) = m.inverse() else { return };
    if m.determinant().abs() < 1e-6 {
        return;
    }
    // World box of the shape, from its local box's corners.
    let lb = shape.local_bounds();
    let mut wb: Option<Bounds> = None;
    for (x, y) in [(lb.min[0], lb.min[1]), (lb.max[0], lb.min[1]), (lb.max[0], lb.max[1]), (lb.min[0], lb.max[1])] {
        let (wx, wy) = m.apply(x, y);
        let b = Bounds { min: [wx, wy], max: [wx, wy] };
        wb = Some(wb.map_or(b, |a| a.union(b)));
    }
    let Some(wb) = wb else { return };
    if wb.width() <= 0.0 && wb.height() <= 0.0 {
        return;
    }
    let view = View::fit(wb, SIZE, SIZE, 6.0);
    let alpha = coverage(&view);
    let ppu = view.pixels_per_unit;
    let inside = |px: f64, py: f64| {
        let (wx, wy) = ((px - view.origin_px[0]) / ppu, (view.origin_px[1] - py) / ppu);
        let (lx, ly) = inv.apply(wx, wy);
        shape.contains(lx, ly)
    };
    let (mut bad_in, mut bad_out, mut covered) = (0, 0, 0.0f64);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            // Points every quarter pixel over the pixel and half a pixel
            // around it (fine enough for shapes a quarter pixel thin).
            let mut n_in = 0;
            for j in -4..=4 {
                for i in -4..=4 {
                    n_in += usize::from(inside(cx + f64::from(i) * 0.25, cy + f64::from(j) * 0.25));
                }
            }
            let a = alpha[(y * SIZE + x) as usize];
            covered += f64::from(a);
            if n_in == 81 && a < 0.9 {
                bad_in += 1;
            }
            if n_in == 0 && a > 0.1 {
                bad_out += 1;
            }
        }
    }
    tally.shapes += 1;
    if bad_in + bad_out > 0 {
        tally.failures.push(format!("{tag}: {bad_in} pixels inside not covered, {bad_out} pixels outside covered"));
    }
    let area = shape.area() * m.determinant().abs() * ppu * ppu;
    if area.is_finite() && (covered - area).abs() > 0.02 * area + 2.0 {
        tally.failures.push(format!("{tag}: covers {covered:.1} px², the shape has {area:.1} px²"));
    }
}

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance")
}

fn matrix(v: &Value) -> Option<Affine> {
    let a: Vec<f64> = v.as_array()?.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect();
    let m = Affine::from_array(a.try_into().ok()?);
    m.is_finite().then_some(m)
}

/// Checks every shape slot of one recorded pose.
fn check_pose(tag: &str, text: &str, expected: &Value, anim: Option<&str>, time: f64, tally: &mut Tally) {
    let comp = compile(text);
    let arm = &comp.armature;
    let sk = &*arm.skeleton;
    let anim_id = anim.and_then(|n| arm.animation_by_name(n));
    let pose = evaluate(arm, anim_id, SkinId(0), time);
    let mut cache = RenderCache::new(".");
    for slot_json in expected["slots"].as_array().into_iter().flatten() {
        let Some(slot) = slot_json["name"].as_str().and_then(|n| sk.slot_by_name(n)) else { continue };
        let Some((_, att)) = pose.attachment(sk, slot) else { continue };
        let Some(shape) = Shape::from_kind(&att.kind) else { continue };
        let bone = sk.slot(slot).bone;
        let world = expected["bones"]
            .as_array()
            .and_then(|bs| bs.iter().find(|b| b["name"] == sk.bone(bone).name.as_str()))
            .and_then(|b| matrix(&b["world"]));
        let Some(world) = world else { continue };
        let m = world * att.transform.matrix();
        let mut coverage = |view: &View| {
            let opts = DrawOptions { pixels_per_unit: view.pixels_per_unit, bones: false, ..DrawOptions::default() };
            let mut list = render::build_draw_list(arm, &pose, &opts, &mut cache);
            list.items.retain(|i| i.slot == Some(slot) && i.part == Part::Fill);
            for i in &mut list.items {
                i.color = [0.0, 0.0, 0.0, 1.0];
            }
            let pm = render::cpu::render(&list, view, SIZE, SIZE, None).expect("render");
            pm.data().chunks_exact(4).map(|p| f32::from(p[3]) / 255.0).collect::<Vec<f32>>()
        };
        let tag = format!("{tag} slot {}", sk.slot(slot).name);
        check_coverage(&tag, &mut coverage, &shape, m, tally);
    }
}

#[test]
fn shapes_cover_the_pixels_the_original_geometry_gives() {
    let mut tally = Tally::default();
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(conformance_dir())
        .expect("conformance folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "skel2d"))
        .collect();
    scripts.sort();
    for script in scripts {
        let name = script.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        let text = std::fs::read_to_string(&script).expect("script");
        let Ok(exp) = std::fs::read_to_string(script.with_file_name(format!("expected/{name}.json"))) else { continue };
        let expected: Value = serde_json::from_str(&exp).expect("expected JSON");
        check_pose(&format!("{name} setup"), &text, &expected["setup"], None, 0.0, &mut tally);
        for a in expected["animations"].as_array().into_iter().flatten() {
            let anim = a["name"].as_str().unwrap_or("");
            for p in a["poses"].as_array().into_iter().flatten() {
                let t = p["time"].as_f64().unwrap_or(0.0);
                check_pose(&format!("{name} \"{anim}\" t={t:.3}"), &text, p, Some(anim), t, &mut tally);
            }
        }
    }
    eprintln!("{} shapes checked", tally.shapes);
    assert!(tally.shapes >= 50, "only {} shapes checked", tally.shapes);
    assert!(tally.failures.is_empty(), "{} of {} shapes wrong:\n{}", tally.failures.len(), tally.shapes, tally.failures.join("\n"));
}

/// The example from the issue, spelled out: a rect w20 h10 on a bone turned
/// 90° covers a 10 × 20 box (x across, y up) at the bone's position.
#[test]
fn rect_turned_90_degrees_covers_a_10_by_20_box() {
    let comp = compile("skeleton\n\tb x15 y-10 r90\n\t\t@ :rect w20 h10 t0 f#000\n");
    let pose = evaluate(&comp.armature, None, SkinId(0), 0.0);
    let mut cache = RenderCache::new(".");
    let list = render::build_draw_list(
        &comp.armature,
        &pose,
        &DrawOptions { pixels_per_unit: 2.0, bones: false, ..DrawOptions::default() },
        &mut cache,
    );
    // 2 px per unit, world origin at the center of 100×100.
    let img = render::cpu::render_rgba(&list, &View::centered(100, 100, 2.0), 100, 100, None).expect("render");
    // The box: x in [10, 20], y in [-20, 0] → pixels x 70..90, rows 50..90.
    let (mut inside, mut outside) = (0, 0);
    for (x, y, p) in img.enumerate_pixels() {
        let in_box = (70..90).contains(&x) && (50..90).contains(&y);
        if in_box {
            assert_eq!(p[3], 255, "pixel ({x}, {y}) inside the box");
            inside += 1;
        } else {
            assert_eq!(p[3], 0, "pixel ({x}, {y}) outside the box");
            outside += 1;
        }
    }
    assert_eq!(inside, 20 * 40);
    assert_eq!(outside, 100 * 100 - 20 * 40);
}

/// Concave and self-intersecting closed paths fill by the nonzero rule.
#[test]
fn closed_paths_fill_by_the_nonzero_winding_rule() {
    let polygons: [(&str, Vec<(f64, f64)>); 3] = [
        (
            "concave",
            vec![(20.0, 20.0), (-20.0, 20.0), (-20.0, -20.0), (20.0, -20.0), (20.0, -10.0), (-10.0, -10.0), (-10.0, 10.0), (20.0, 10.0)],
        ),
        ("star", vec![(0.0, 28.0), (16.5, -22.7), (-26.6, 8.7), (26.6, 8.7), (-16.5, -22.7)]),
        // A loop drawn twice round the same square: winding 2 inside, still filled.
        (
            "double",
            vec![(-10.0, -10.0), (10.0, -10.0), (10.0, 10.0), (-10.0, 10.0), (-10.0, -10.0), (10.0, -10.0), (10.0, 10.0), (-10.0, 10.0)],
        ),
    ];
    let mut tally = Tally::default();
    for (name, pts) in polygons {
        let mut text = String::from("skeleton\n\tb x3 y-2 r25 i1.5 j0.8\n\t\t@ :path t0 f#000\n");
        for (i, (x, y)) in pts.iter().enumerate() {
            text.push_str(&format!("\t\t\t{} {x},{y}\n", if i == 0 { "M" } else { "L" }));
        }
        text.push_str("\t\t\tC\n");
        let comp = compile(&text);
        assert!(!comp.has_errors(), "{:?}", comp.diagnostics);
        let arm = &comp.armature;
        let pose = evaluate(arm, None, SkinId(0), 0.0);
        let m = pose.bones[0].world;
        let mut cache = RenderCache::new(".");
        let mut coverage = |view: &View| {
            let opts = DrawOptions { pixels_per_unit: view.pixels_per_unit, bones: false, ..DrawOptions::default() };
            let list = render::build_draw_list(arm, &pose, &opts, &mut cache);
            let pm = render::cpu::render(&list, view, SIZE, SIZE, None).expect("render");
            pm.data().chunks_exact(4).map(|p| f32::from(p[3]) / 255.0).collect::<Vec<f32>>()
        };
        check_coverage(name, &mut coverage, &Shape::Polygon(pts), m, &mut tally);
    }
    assert_eq!(tally.shapes, 3);
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
}
