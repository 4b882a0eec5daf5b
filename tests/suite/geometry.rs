//! Rendered coverage against an independent computation from LANGUAGE.md.
//!
//! For every rect, circle and ellipse shown in the conformance scripts
//! (`tests/conformance`), at the setup pose and at every pose the
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

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use crate::common;

use std::path::PathBuf;

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
    /// A stroke: the union of its pieces, with its area worked out by hand.
    Stroke {
        pieces: Vec<Piece>,
        area: f64,
    },
}

/// Part of a stroke's outline.
enum Piece {
    /// A convex polygon (a segment's band, a miter or bevel corner, a square cap).
    Convex(Vec<(f64, f64)>),
    /// A disk (round joins and caps).
    Disk { cx: f64, cy: f64, r: f64 },
}

/// Nonzero winding number of `pts` around (x, y) is not zero.
fn polygon_contains(pts: &[(f64, f64)], x: f64, y: f64) -> bool {
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

#[derive(Clone, Copy, Debug, PartialEq)]
enum Join {
    Miter,
    Bevel,
    Round,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cap {
    Butt,
    Square,
    Round,
}

/// The stroke of a polyline of half width `h`, from SVG's definitions of
/// joins and caps (a miter longer than `miter_limit` × the width becomes a
/// bevel). Its area: every segment's band (length × width), minus the
/// overlap of neighbouring bands inside each corner (h² tan(θ/2) for a turn
/// of θ), plus what the join adds outside it (miter h² tan(θ/2), bevel
/// h² sin(θ)/2, round h² θ/2), plus each cap (square 2h², round πh²/2).
/// Valid while the inside overlaps stay within their segments and
/// segments that do not meet do not overlap (true of the cases below).
fn stroke_shape(
    pts: &[(f64, f64)],
    closed: bool,
    h: f64,
    join: Join,
    cap: Cap,
    miter_limit: f64,
) -> Shape {
    let unit = |a: (f64, f64), b: (f64, f64)| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let l = dx.hypot(dy);
        ((dx / l, dy / l), l)
    };
    let n = pts.len();
    let segs: Vec<((f64, f64), (f64, f64))> =
        (0..if closed { n } else { n - 1 }).map(|i| (pts[i], pts[(i + 1) % n])).collect();
    let mut pieces = Vec::new();
    let mut area = 0.0;
    for &(a, b) in &segs {
        let ((dx, dy), l) = unit(a, b);
        let (nx, ny) = (-dy * h, dx * h);
        pieces.push(Piece::Convex(vec![
            (a.0 + nx, a.1 + ny),
            (b.0 + nx, b.1 + ny),
            (b.0 - nx, b.1 - ny),
            (a.0 - nx, a.1 - ny),
        ]));
        area += l * 2.0 * h;
    }
    // Joins between segment i-1 and segment i.
    let first = if closed { 0 } else { 1 };
    for i in first..segs.len() {
        let prev = segs[(i + segs.len() - 1) % segs.len()];
        let next = segs[i];
        let v = next.0;
        let ((d1x, d1y), _) = unit(prev.0, prev.1);
        let ((d2x, d2y), _) = unit(next.0, next.1);
        let cross = d1x * d2y - d1y * d2x;
        let theta = cross.atan2(d1x * d2x + d1y * d2y).abs();
        if theta < 1e-9 {
            continue;
        }
        // The outer side is to the right of a left turn.
        let s = if cross > 0.0 { -1.0 } else { 1.0 };
        let (n1, n2) = ((-d1y, d1x), (-d2y, d2x));
        let p1 = (v.0 + s * h * n1.0, v.1 + s * h * n1.1);
        let p2 = (v.0 + s * h * n2.0, v.1 + s * h * n2.1);
        area -= h * h * (theta / 2.0).tan();
        let ratio = 1.0 / (theta / 2.0).cos();
        let join = if join == Join::Miter && ratio > miter_limit { Join::Bevel } else { join };
        match join {
            Join::Miter => {
                let k = s * h / (1.0 + n1.0 * n2.0 + n1.1 * n2.1);
                let m = (v.0 + k * (n1.0 + n2.0), v.1 + k * (n1.1 + n2.1));
                pieces.push(Piece::Convex(vec![v, p1, m, p2]));
                area += h * h * (theta / 2.0).tan();
            }
            Join::Bevel => {
                pieces.push(Piece::Convex(vec![v, p1, p2]));
                area += h * h * theta.sin() / 2.0;
            }
            Join::Round => {
                pieces.push(Piece::Disk { cx: v.0, cy: v.1, r: h });
                area += h * h * theta / 2.0;
            }
        }
    }
    if !closed {
        for (end, away) in [(pts[0], pts[1]), (pts[n - 1], pts[n - 2])] {
            let ((dx, dy), _) = unit(away, end);
            let (nx, ny) = (-dy * h, dx * h);
            match cap {
                Cap::Butt => {}
                Cap::Square => {
                    let far = (end.0 + dx * h, end.1 + dy * h);
                    pieces.push(Piece::Convex(vec![
                        (end.0 + nx, end.1 + ny),
                        (far.0 + nx, far.1 + ny),
                        (far.0 - nx, far.1 - ny),
                        (end.0 - nx, end.1 - ny),
                    ]));
                    area += 2.0 * h * h;
                }
                Cap::Round => {
                    pieces.push(Piece::Disk { cx: end.0, cy: end.1, r: h });
                    area += std::f64::consts::PI * h * h / 2.0;
                }
            }
        }
    }
    Shape::Stroke { pieces, area }
}

impl Shape {
    fn from_kind(kind: &AttachmentKind) -> Option<Shape> {
        match *kind {
            AttachmentKind::Rect { width, height, corner_radius, .. } => {
                let (hw, hh) = (width.abs() / 2.0, height.abs() / 2.0);
                let r = corner_radius.max(0.0);
                Some(Shape::RoundedRect { hw, hh, rx: r.min(hw), ry: r.min(hh) })
            }
            AttachmentKind::Ellipse { radius_x, radius_y, .. } => {
                Some(Shape::Ellipse { rx: radius_x.abs(), ry: radius_y.abs() })
            }
            AttachmentKind::Circle { radius, .. } => {
                Some(Shape::Ellipse { rx: radius.abs(), ry: radius.abs() })
            }
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
            Shape::Polygon(pts) => polygon_contains(pts, x, y),
            Shape::Stroke { pieces, .. } => pieces.iter().any(|p| match p {
                Piece::Convex(pts) => polygon_contains(pts, x, y),
                Piece::Disk { cx, cy, r } => (x - cx).powi(2) + (y - cy).powi(2) <= r * r,
            }),
        }
    }

    fn area(&self) -> f64 {
        match self {
            Shape::RoundedRect { hw, hh, rx, ry } => {
                4.0 * hw * hh - (4.0 - std::f64::consts::PI) * rx * ry
            }
            Shape::Ellipse { rx, ry } => std::f64::consts::PI * rx * ry,
            // Not needed: polygons are checked pixel by pixel only.
            Shape::Polygon(_) => f64::NAN,
            Shape::Stroke { area, .. } => *area,
        }
    }

    fn local_bounds(&self) -> Bounds {
        match self {
            Shape::RoundedRect { hw, hh, .. } => Bounds { min: [-hw, -hh], max: [*hw, *hh] },
            Shape::Ellipse { rx, ry } => Bounds { min: [-rx, -ry], max: [*rx, *ry] },
            Shape::Stroke { pieces, .. } => {
                let mut pts = Vec::new();
                for p in pieces {
                    match p {
                        Piece::Convex(v) => pts.extend_from_slice(v),
                        Piece::Disk { cx, cy, r } => {
                            pts.extend([(cx - r, cy - r), (cx + r, cy + r)])
                        }
                    }
                }
                Shape::Polygon(pts).local_bounds()
            }
            Shape::Polygon(pts) => {
                let xs = pts.iter().map(|p| p.0);
                let ys = pts.iter().map(|p| p.1);
                Bounds {
                    min: [
                        xs.clone().fold(f64::INFINITY, f64::min),
                        ys.clone().fold(f64::INFINITY, f64::min),
                    ],
                    max: [
                        xs.fold(f64::NEG_INFINITY, f64::max),
                        ys.fold(f64::NEG_INFINITY, f64::max),
                    ],
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
fn check_coverage(
    tag: &str,
    coverage: &mut dyn FnMut(&View) -> Vec<f32>,
    shape: &Shape,
    m: Affine,
    tally: &mut Tally,
) {
    check_coverage_at(tag, coverage, shape, m, tally, SIZE, (0.02, 2.0));
}

/// [`check_coverage`] on a `size` × `size` picture, the covered area within
/// `tol.0` of the shape's (relative) plus `tol.1` pixels. Returns the
/// covered and the analytic areas in pixels.
fn check_coverage_at(
    tag: &str,
    coverage: &mut dyn FnMut(&View) -> Vec<f32>,
    shape: &Shape,
    m: Affine,
    tally: &mut Tally,
    size: u32,
    tol: (f64, f64),
) -> Option<(f64, f64)> {
    let inv = m.inverse()?;
    if m.determinant().abs() < 1e-6 {
        return None;
    }
    // World box of the shape, from its local box's corners.
    let lb = shape.local_bounds();
    let mut wb: Option<Bounds> = None;
    for (x, y) in [
        (lb.min[0], lb.min[1]),
        (lb.max[0], lb.min[1]),
        (lb.max[0], lb.max[1]),
        (lb.min[0], lb.max[1]),
    ] {
        let (wx, wy) = m.apply(x, y);
        let b = Bounds { min: [wx, wy], max: [wx, wy] };
        wb = Some(wb.map_or(b, |a| a.union(b)));
    }
    let wb = wb?;
    if wb.width() <= 0.0 && wb.height() <= 0.0 {
        return None;
    }
    let view = View::fit(wb, size, size, 6.0);
    let alpha = coverage(&view);
    let ppu = view.pixels_per_unit;
    let inside = |px: f64, py: f64| {
        let (wx, wy) = ((px - view.origin_px[0]) / ppu, (view.origin_px[1] - py) / ppu);
        let (lx, ly) = inv.apply(wx, wy);
        shape.contains(lx, ly)
    };
    let (mut bad_in, mut bad_out, mut covered) = (0, 0, 0.0f64);
    for y in 0..size {
        for x in 0..size {
            let (cx, cy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            // Points every quarter pixel over the pixel and half a pixel
            // around it (fine enough for shapes a quarter pixel thin).
            let mut n_in = 0;
            for j in -4..=4 {
                for i in -4..=4 {
                    n_in += usize::from(inside(cx + f64::from(i) * 0.25, cy + f64::from(j) * 0.25));
                }
            }
            let a = alpha[(y * size + x) as usize];
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
        tally.failures.push(format!(
            "{tag}: {bad_in} pixels inside not covered, {bad_out} pixels outside covered"
        ));
    }
    let area = shape.area() * m.determinant().abs() * ppu * ppu;
    if area.is_finite() && (covered - area).abs() > tol.0 * area + tol.1 {
        tally.failures.push(format!("{tag}: covers {covered:.1} px², the shape has {area:.1} px²"));
    }
    Some((covered, area))
}

use common::conformance_dir;

fn matrix(v: &Value) -> Option<Affine> {
    let a: Vec<f64> = v.as_array()?.iter().map(|x| x.as_f64().unwrap_or(f64::NAN)).collect();
    let m = Affine::from_array(a.try_into().ok()?);
    m.is_finite().then_some(m)
}

/// Checks every shape slot of one recorded pose.
fn check_pose(
    tag: &str,
    text: &str,
    expected: &Value,
    anim: Option<&str>,
    time: f64,
    tally: &mut Tally,
) {
    let comp = compile(text);
    let arm = &comp.armature;
    let sk = &*arm.skeleton;
    let anim_id = anim.and_then(|n| arm.animation_by_name(n));
    let pose = evaluate(arm, anim_id, SkinId(0), time);
    let mut cache = RenderCache::new(".");
    for slot_json in expected["slots"].as_array().into_iter().flatten() {
        let Some(slot) = slot_json["name"].as_str().and_then(|n| sk.slot_by_name(n)) else {
            continue;
        };
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
            let opts = DrawOptions {
                pixels_per_unit: view.pixels_per_unit,
                bones: false,
                ..DrawOptions::default()
            };
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
        let Ok(exp) =
            std::fs::read_to_string(script.with_file_name(format!("expected/{name}.json")))
        else {
            continue;
        };
        let expected: Value = serde_json::from_str(&exp).expect("expected JSON");
        check_pose(&format!("{name} setup"), &text, &expected["setup"], None, 0.0, &mut tally);
        for a in expected["animations"].as_array().into_iter().flatten() {
            let anim = a["name"].as_str().unwrap_or("");
            for p in a["poses"].as_array().into_iter().flatten() {
                let t = p["time"].as_f64().unwrap_or(0.0);
                check_pose(
                    &format!("{name} \"{anim}\" t={t:.3}"),
                    &text,
                    p,
                    Some(anim),
                    t,
                    &mut tally,
                );
            }
        }
    }
    eprintln!("{} shapes checked", tally.shapes);
    assert!(tally.shapes >= 50, "only {} shapes checked", tally.shapes);
    assert!(
        tally.failures.is_empty(),
        "{} of {} shapes wrong:\n{}",
        tally.failures.len(),
        tally.shapes,
        tally.failures.join("\n")
    );
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
    let img = render::cpu::render_rgba(&list, &View::centered(100, 100, 2.0), 100, 100, None)
        .expect("render");
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
            vec![
                (20.0, 20.0),
                (-20.0, 20.0),
                (-20.0, -20.0),
                (20.0, -20.0),
                (20.0, -10.0),
                (-10.0, -10.0),
                (-10.0, 10.0),
                (20.0, 10.0),
            ],
        ),
        ("star", vec![(0.0, 28.0), (16.5, -22.7), (-26.6, 8.7), (26.6, 8.7), (-16.5, -22.7)]),
        // A loop drawn twice round the same square: winding 2 inside, still filled.
        (
            "double",
            vec![
                (-10.0, -10.0),
                (10.0, -10.0),
                (10.0, 10.0),
                (-10.0, 10.0),
                (-10.0, -10.0),
                (10.0, -10.0),
                (10.0, 10.0),
                (-10.0, 10.0),
            ],
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
            let opts = DrawOptions {
                pixels_per_unit: view.pixels_per_unit,
                bones: false,
                ..DrawOptions::default()
            };
            let list = render::build_draw_list(arm, &pose, &opts, &mut cache);
            let pm = render::cpu::render(&list, view, SIZE, SIZE, None).expect("render");
            pm.data().chunks_exact(4).map(|p| f32::from(p[3]) / 255.0).collect::<Vec<f32>>()
        };
        check_coverage(name, &mut coverage, &Shape::Polygon(pts), m, &mut tally);
    }
    assert_eq!(tally.shapes, 3);
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
}

/// Strokes against the definitions of joins and caps: an open zig-zag with
/// every join and cap, a closed triangle with every join, a sharp corner
/// beyond the miter limit (drawn as a bevel) and a single segment with
/// every cap. The outline of each is worked out by hand (`stroke_shape`):
/// every pixel surely inside is covered, every pixel surely outside is empty,
/// and the covered area matches the exact one within 0.5 % + 2 px (the
/// joins and caps differ from each other by more than 1 %, checked too).
#[test]
fn joins_and_caps_cover_exactly_their_outline() {
    const BIG: u32 = 160;
    let joins =
        [(Join::Miter, "miter-join"), (Join::Bevel, "bevel-join"), (Join::Round, "round-join")];
    let caps = [(Cap::Butt, "butt-cap"), (Cap::Square, "square-cap"), (Cap::Round, "round-cap")];
    let zigzag = vec![(-30.0, -10.0), (-15.0, 10.0), (0.0, -10.0), (15.0, 10.0), (30.0, -10.0)];
    let triangle = vec![(-25.0, -15.0), (25.0, -15.0), (0.0, 20.0)];
    let sharp = vec![(-25.0, -12.0), (25.0, 0.0), (-25.0, 12.0)];
    let line = vec![(-25.0, 5.0), (25.0, -5.0)];
    // (name, points, closed, join, cap, stroke width, miter limit)
    let mut cases = Vec::new();
    for &(j, jn) in &joins {
        for &(c, cn) in &caps {
            cases.push((
                format!("zig-zag {jn} {cn}"),
                zigzag.clone(),
                false,
                (j, jn),
                (c, cn),
                8.0,
                10.0,
            ));
        }
        cases.push((format!("triangle {jn}"), triangle.clone(), true, (j, jn), caps[0], 6.0, 10.0));
    }
    for &c in &caps {
        cases.push((format!("segment {}", c.1), line.clone(), false, joins[0], c, 10.0, 10.0));
    }
    // A turn of about 150°: the miter would be 4.1 widths long.
    cases.push((
        "sharp miter within its limit".into(),
        sharp.clone(),
        false,
        joins[0],
        caps[0],
        4.0,
        5.0,
    ));
    cases.push((
        "sharp miter beyond its limit".into(),
        sharp.clone(),
        false,
        joins[0],
        caps[0],
        4.0,
        3.0,
    ));
    let mut tally = Tally::default();
    let mut areas = std::collections::BTreeMap::new();
    for (name, pts, closed, (join, jn), (cap, cn), width, limit) in cases {
        // A bone turned and scaled alike in x and y: the stroke keeps its
        // world width, so in attachment space its half width is w / 2 / 1.5.
        let mut text = format!(
            "skeleton\n\tb x3 y-2 r25 i1.5 j1.5\n\t\t@ :path t{width} m{limit} f#000 s#000 {jn} {cn}\n"
        );
        for (i, (x, y)) in pts.iter().enumerate() {
            text.push_str(&format!("\t\t\t{} {x},{y}\n", if i == 0 { "M" } else { "L" }));
        }
        if closed {
            text.push_str("\t\t\tC\n");
        }
        let comp = compile(&text);
        assert!(!comp.has_errors(), "{name}: {:?}", comp.diagnostics);
        let arm = &comp.armature;
        let pose = evaluate(arm, None, SkinId(0), 0.0);
        let m = pose.bones[0].world;
        let mut cache = RenderCache::new(".");
        let mut coverage = |view: &View| {
            let opts = DrawOptions {
                pixels_per_unit: view.pixels_per_unit,
                bones: false,
                ..DrawOptions::default()
            };
            let mut list = render::build_draw_list(arm, &pose, &opts, &mut cache);
            list.items.retain(|i| i.part == Part::Stroke);
            for i in &mut list.items {
                i.color = [0.0, 0.0, 0.0, 1.0];
            }
            let pm = render::cpu::render(&list, view, BIG, BIG, None).expect("render");
            pm.data().chunks_exact(4).map(|p| f32::from(p[3]) / 255.0).collect::<Vec<f32>>()
        };
        let shape = stroke_shape(&pts, closed, width / 2.0 / 1.5, join, cap, limit);
        areas.insert(name.clone(), shape.area());
        let got = check_coverage_at(&name, &mut coverage, &shape, m, &mut tally, BIG, (0.005, 2.0));
        let (covered, area) = got.expect("the stroke is drawn");
        eprintln!(
            "{name}: covers {covered:.1} px², exact {area:.1} px² ({:+.2} %)",
            100.0 * (covered - area) / area
        );
    }
    assert_eq!(tally.shapes, 17);
    // The check tells the joins and caps apart: each differs from the next
    // by more than the tolerance.
    for (a, b) in [
        ("zig-zag miter-join butt-cap", "zig-zag round-join butt-cap"),
        ("zig-zag round-join butt-cap", "zig-zag bevel-join butt-cap"),
        ("zig-zag miter-join butt-cap", "zig-zag miter-join round-cap"),
        ("zig-zag miter-join round-cap", "zig-zag miter-join square-cap"),
        ("sharp miter beyond its limit", "sharp miter within its limit"),
    ] {
        assert!(
            (areas[a] - areas[b]).abs() > 0.01 * areas[a],
            "{a} and {b} are too close to tell apart"
        );
    }
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
}
