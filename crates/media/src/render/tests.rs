//! Draw-list tests: what is drawn, in which order and color, and what the
//! cache keeps.

use super::*;
use skelpad_lang::compile::compile;
use skelpad_lang::model::{AnimId, BoneTransform, SkinId};
use skelpad_lang::runtime::{Pose, evaluate};

fn armature(text: &str) -> Armature {
    let comp = compile(text);
    assert!(!comp.has_errors(), "{:?}", comp.diagnostics);
    comp.armature
}

fn setup(arm: &Armature) -> Pose {
    evaluate(arm, None, SkinId(0), 0.0)
}

fn area(list: &DrawList, item: &DrawItem) -> f64 {
    list.triangles(item)
        .map(|[a, b, c]| {
            let (a, b, c) = (a.pos.map(f64::from), b.pos.map(f64::from), c.pos.map(f64::from));
            ((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])).abs() / 2.0
        })
        .sum()
}

fn item_bounds(list: &DrawList, item: &DrawItem) -> Bounds {
    let one = DrawList { items: vec![item.clone()], ..list.clone() };
    one.bounds().expect("item draws something")
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn fill_comes_before_stroke_and_slots_follow_draw_order() {
    let arm = armature(
        "skeleton\n\ta\n\t\t@ :rect w10 h10 t2 f#F00 s#00F\n\tb\n\t\t@ :circle d10 t0 f#0F0\norder\n\t@b\n",
    );
    let mut cache = RenderCache::new(".");
    let list = build_draw_list(&arm, &setup(&arm), &DrawOptions::default(), &mut cache);
    let parts: Vec<(Part, &str)> = list
        .items
        .iter()
        .map(|i| (i.part, arm.skeleton.slot(i.slot.expect("slot")).name.as_str()))
        .collect();
    assert_eq!(parts, vec![(Part::Fill, "b.b"), (Part::Fill, "a.a"), (Part::Stroke, "a.a")]);
    assert_eq!(list.items[1].color, [1.0, 0.0, 0.0, 1.0]);
    assert_eq!(list.items[2].color, [0.0, 0.0, 1.0, 1.0]);
    assert!(close(area(&list, &list.items[1]), 100.0, 1e-3));
    // A stroke of width 2 centered on a 10×10 square covers 12² − 8².
    assert!(
        close(area(&list, &list.items[2]), 144.0 - 64.0, 1e-2),
        "{}",
        area(&list, &list.items[2])
    );
}

#[test]
fn slot_color_multiplies_fill_and_stroke_alpha_included() {
    // Alphas 0.6 and 0.2 are exact in the 8 bits skeleton colors are kept in.
    let arm = armature("skeleton\n\ta\n\t\t@ #808080,0.6 :rect w10 h10 t1 f#FF0000,0.2 s#FFFFFF\n");
    let mut cache = RenderCache::new(".");
    let list = build_draw_list(&arm, &setup(&arm), &DrawOptions::default(), &mut cache);
    let g = 128.0f64 / 255.0;
    let (slot_a, fill_a) = (153.0f64 / 255.0, 51.0f64 / 255.0);
    assert_eq!(list.items[0].color, [g as f32, 0.0, 0.0, (slot_a * fill_a) as f32]);
    assert_eq!(list.items[1].color, [g as f32, g as f32, g as f32, slot_a as f32]);
}

#[test]
fn open_paths_are_only_stroked_and_zero_width_means_fill_only() {
    let arm = armature(
        "skeleton\n\ta\n\t\t@open :path t2\n\t\t\tM 0,0\n\t\t\tL 10,0\n\t\t\tL 10,10\n\t\t@closed :path t0\n\t\t\tM 0,0\n\t\t\tL 10,0\n\t\t\tL 10,10\n\t\t\tC\n",
    );
    let mut cache = RenderCache::new(".");
    let pose = setup(&arm);
    let list = build_draw_list(&arm, &pose, &DrawOptions::default(), &mut cache);
    let parts: Vec<Part> = list.items.iter().map(|i| i.part).collect();
    assert_eq!(parts, vec![Part::Stroke, Part::Fill]);
    assert!(close(area(&list, &list.items[1]), 50.0, 1e-3));
}

#[test]
fn active_skin_decides_the_shape() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/skins.skel2d"
    ))
    .expect("example");
    let arm = armature(&text);
    let blue = arm.skeleton.skin_by_name("blue").expect("skin");
    let head = arm.skeleton.slot_by_name("bot.head.head").expect("slot");
    let mut cache = RenderCache::new(".");
    let default = build_draw_list(
        &arm,
        &evaluate(&arm, None, SkinId(0), 0.0),
        &DrawOptions::default(),
        &mut cache,
    );
    let skinned = build_draw_list(
        &arm,
        &evaluate(&arm, None, blue, 0.0),
        &DrawOptions::default(),
        &mut cache,
    );
    let head_fill = |l: &DrawList| {
        l.items
            .iter()
            .find(|i| i.slot == Some(head) && i.part == Part::Fill)
            .map(|i| item_bounds(l, i))
    };
    let (d, s) = (head_fill(&default).expect("rect"), head_fill(&skinned).expect("circle"));
    assert!(close(d.width(), 100.0, 0.01) && close(d.height(), 70.0, 0.01), "{d:?}");
    assert!(close(s.width(), 84.0, 0.01) && close(s.height(), 84.0, 0.01), "{s:?}");
    // The blue skin hides the antenna (type none).
    let antenna = arm.skeleton.slot_by_name("bot.head.antenna.antenna").expect("slot");
    assert!(default.items.iter().any(|i| i.slot == Some(antenna)));
    assert!(!skinned.items.iter().any(|i| i.slot == Some(antenna)));
}

#[test]
fn strokes_keep_their_world_width_under_bone_scale() {
    // Uniform scale 3: the square grows to 30×30, the stroke stays 1 wide.
    let arm = armature("skeleton\n\ta i3 j3\n\t\t@ :rect w10 h10 t1 f#000,0\n");
    let mut cache = RenderCache::new(".");
    let list = build_draw_list(&arm, &setup(&arm), &DrawOptions::default(), &mut cache);
    assert_eq!(list.items.len(), 1, "transparent fill is skipped");
    assert!(
        close(area(&list, &list.items[0]), 31.0 * 31.0 - 29.0 * 29.0, 0.05),
        "{}",
        area(&list, &list.items[0])
    );
    // Non-uniform scale (not a similarity): still 1 wide in the world.
    let arm = armature("skeleton\n\ta i3 j1\n\t\t@ :rect w10 h10 t1 f#000,0\n");
    let list = build_draw_list(&arm, &setup(&arm), &DrawOptions::default(), &mut cache);
    assert!(
        close(area(&list, &list.items[0]), 31.0 * 11.0 - 29.0 * 9.0, 0.05),
        "{}",
        area(&list, &list.items[0])
    );
}

#[test]
fn attachment_transform_applies_on_top_of_the_bone() {
    // Bone at (100, 0) turned 90°; the rect moves 10 along the bone's x
    // (world +y) and turns another 90°.
    let arm = armature("skeleton\n\ta x100 r90\n\t\t@ :rect x10 r90 w20 h4 t0\n");
    let mut cache = RenderCache::new(".");
    let list = build_draw_list(&arm, &setup(&arm), &DrawOptions::default(), &mut cache);
    let b = item_bounds(&list, &list.items[0]);
    assert!(close(b.min[0], 90.0, 1e-3) && close(b.max[0], 110.0, 1e-3), "{b:?}");
    assert!(close(b.min[1], 8.0, 1e-3) && close(b.max[1], 12.0, 1e-3), "{b:?}");
}

#[test]
fn path_points_follow_their_bones_and_the_attachment_transform() {
    // A triangle whose tip is bound to bone b at (0, 50) in the world.
    let arm = armature(
        "skeleton\n\ta\n\t\t@ :path t0 x5\n\t\t\tM 0,0\n\t\t\tL 10,0\n\t\t\tL 0,0:b\n\t\t\tC\n\tb y50\n",
    );
    let mut cache = RenderCache::new(".");
    let list = build_draw_list(&arm, &setup(&arm), &DrawOptions::default(), &mut cache);
    let b = item_bounds(&list, &list.items[0]);
    // slot_world · att · inverse(slot_world) · bone_world · p: everything shifts by x5.
    assert!(
        close(b.min[0], 5.0, 1e-4) && close(b.max[0], 15.0, 1e-4) && close(b.max[1], 50.0, 1e-4),
        "{b:?}"
    );
}

#[test]
fn rigid_motion_reuses_tessellations_and_other_changes_do_not() {
    let arm = armature(
        "skeleton\n\ta\n\t\t@ :rect w10 h6 d4 t1\n\t\t@c :circle x20 d8 t2\n\t\t@p :path t1 f#F00\n\t\t\tM 0,0\n\t\t\tQ 5,5 10,0:b\n\t\t\tC\n\tb x30\n",
    );
    let mut cache = RenderCache::new(".");
    let mut pose = setup(&arm);
    let opts = DrawOptions::default();
    let first = build_draw_list(&arm, &pose, &opts, &mut cache);
    assert!(cache.stats().misses > 0);
    cache.reset_stats();
    // Turn and move the whole rig: every outline is the same in attachment space.
    let sk = &arm.skeleton;
    pose.bones[0].local =
        BoneTransform { x: 7.0, y: -3.0, rotation_rad: 1.1, ..pose.bones[0].local };
    pose.bones[1].local =
        BoneTransform { x: 7.0, y: -3.0, rotation_rad: 1.1, ..pose.bones[1].local };
    pose.bones[1].local.x += 30.0 * 1.1f64.cos();
    pose.bones[1].local.y += 30.0 * 1.1f64.sin();
    pose.update_world(sk);
    let moved = build_draw_list(&arm, &pose, &opts, &mut cache);
    assert_eq!(cache.stats().misses, 0, "{:?}", cache.stats());
    assert_eq!(first.items.len(), moved.items.len());
    for (a, b) in first.items.iter().zip(&moved.items) {
        assert!(close(area(&first, a), area(&moved, b), 1e-2), "same shapes, moved");
    }
    // Move only b: the path (points on two bones) is tessellated again, the rest is not.
    cache.reset_stats();
    pose.bones[1].local.y += 5.0;
    pose.update_world(sk);
    build_draw_list(&arm, &pose, &opts, &mut cache);
    assert_eq!(cache.stats().misses, 2, "the path's fill and stroke: {:?}", cache.stats());
    // Squash a: fills are kept (any affine map), strokes are stroked again.
    cache.reset_stats();
    pose.bones[0].local.scale_x = 1.5;
    pose.update_world(sk);
    build_draw_list(&arm, &pose, &opts, &mut cache);
    let s = cache.stats();
    assert_eq!(s.misses, 4, "two strokes, and the path (b moved relative to a): {s:?}");
}

#[test]
fn zooming_in_flattens_curves_finer() {
    let arm = armature("skeleton\n\ta\n\t\t@ :circle d20 t0\n");
    let mut cache = RenderCache::new(".");
    let pose = setup(&arm);
    let count = |ppu: f64, cache: &mut RenderCache| {
        let l = build_draw_list(
            &arm,
            &pose,
            &DrawOptions { pixels_per_unit: ppu, bones: false, ..DrawOptions::default() },
            cache,
        );
        l.vertices.len()
    };
    let (near, far) = (count(20.0, &mut cache), count(0.5, &mut cache));
    assert!(near > 2 * far, "{near} vertices at 20 px/unit, {far} at 0.5");
}

#[test]
fn bone_overlay_draws_diamonds_for_long_bones_and_marks_at_every_origin() {
    let arm = armature("skeleton #00F,0.6\n\tlong l40 x10\n\tshort l9\n");
    let mut cache = RenderCache::new(".");
    let off = build_draw_list(&arm, &setup(&arm), &DrawOptions::default(), &mut cache);
    assert!(off.items.is_empty());
    let list = build_draw_list(
        &arm,
        &setup(&arm),
        &DrawOptions { pixels_per_unit: 2.0, bones: true, ..DrawOptions::default() },
        &mut cache,
    );
    let diamonds: Vec<&DrawItem> =
        list.items.iter().filter(|i| i.part == Part::BoneDiamond).collect();
    assert_eq!(diamonds.len(), 1);
    assert_eq!(
        diamonds[0].color,
        [0.0, 0.0, 1.0, (153.0f64 / 255.0) as f32 * 0.7],
        "bone color at 70 % of its alpha"
    );
    let b = item_bounds(&list, diamonds[0]);
    assert_eq!((b.min, b.max), ([5.0, -5.0], [50.0, 5.0]));
    let marks: Vec<&DrawItem> = list.items.iter().filter(|i| i.part == Part::BoneOrigin).collect();
    assert_eq!(marks.len(), 2);
    // 3.5 px arms at 2 px per unit.
    let m = item_bounds(&list, marks[0]);
    assert!(close(m.width(), 3.5, 1e-6) && close(m.min[0], 10.0 - 1.75, 1e-6), "{m:?}");
}

#[test]
fn sprites_are_quads_of_their_pixel_size_and_missing_ones_are_reported() {
    let dir = std::env::temp_dir().join(format!("skelpad-sprite-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    image::RgbaImage::from_pixel(8, 4, image::Rgba([255, 0, 0, 255]))
        .save(dir.join("red.png"))
        .expect("png");
    let arm = armature(
        "skeleton\n\ta x3\n\t\t@ #FFF,0.6 :sprite \"red.png\" r90\n\t\t@gone :sprite \"gone.png\"\n",
    );
    let mut cache = RenderCache::new(&dir);
    let list = build_draw_list(&arm, &setup(&arm), &DrawOptions::default(), &mut cache);
    assert_eq!(list.items.len(), 1);
    let it = &list.items[0];
    assert_eq!((it.part, it.color), (Part::Sprite, [1.0, 1.0, 1.0, (153.0f64 / 255.0) as f32]));
    assert_eq!(it.texture.as_ref().map(|t| (t.width(), t.height())), Some((8, 4)));
    // Turned 90°: 4 wide, 8 high, centered on (3, 0).
    let b = item_bounds(&list, it);
    assert!(close(b.min[0], 1.0, 1e-5) && close(b.max[1], 4.0, 1e-5), "{b:?}");
    assert_eq!(list.warnings.len(), 1);
    assert!(list.warnings[0].message.contains("gone.png"), "{}", list.warnings[0].message);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn onion_skin_puts_tinted_faded_ghosts_behind_the_frame() {
    let arm = armature(
        "skeleton\n\ta l20\n\t\t@ :rect w10 h10 t0 f#00F\nanim \"m\" 10fps\n\ta\n\t\tx 0 -> 50\n",
    );
    let mut cache = RenderCache::new(".");
    let onion = OnionSkin {
        before: 2,
        after: 1,
        opacity: 0.5,
        before_tint: [1.0, 0.0, 0.0, 1.0],
        ..OnionSkin::default()
    };
    let opts = DrawOptions { pixels_per_unit: 1.0, bones: true, ..DrawOptions::default() };
    let list = build_with_onion_skin(&arm, AnimId(0), SkinId(0), 0.25, &onion, &opts, &mut cache);
    let fills: Vec<&DrawItem> = list.items.iter().filter(|i| i.part == Part::Fill).collect();
    assert_eq!(fills.len(), 4, "two before, one after, the frame");
    assert!(fills[..3].iter().all(|i| i.ghost) && !fills[3].ghost);
    // Farthest first, fully tinted red, fading with distance.
    assert_eq!(fills[0].color, [1.0, 0.0, 0.0, 0.25]);
    assert_eq!(fills[1].color, [1.0, 0.0, 0.0, 0.5]);
    assert_eq!(fills[3].color, [0.0, 0.0, 1.0, 1.0]);
    // Ghost positions: one frame (0.1 s = 10 units) apart.
    let x = |i: &DrawItem| (item_bounds(&list, i).min[0] + item_bounds(&list, i).max[0]) / 2.0;
    assert!(
        close(x(fills[0]), 5.0, 1e-4)
            && close(x(fills[1]), 15.0, 1e-4)
            && close(x(fills[3]), 25.0, 1e-4)
    );
    assert!(close(x(fills[2]), 35.0, 1e-4));
    // Only the current frame has an overlay.
    assert!(list.items.iter().filter(|i| i.part != Part::Fill).all(|i| !i.ghost));
}

#[test]
fn animation_bounds_cover_every_frame() {
    let arm = armature(
        "skeleton\n\ta\n\t\t@ :rect w10 h10 t0\nanim \"up\" 10fps\n\ta\n\t\ty 0 -> 100 -> 0\n",
    );
    let mut cache = RenderCache::new(".");
    let b = animation_bounds(&arm, Some(AnimId(0)), SkinId(0), &DrawOptions::default(), &mut cache)
        .expect("bounds");
    assert!(close(b.min[1], -5.0, 1e-4) && close(b.max[1], 105.0, 1e-4), "{b:?}");
    let setup_only = animation_bounds(&arm, None, SkinId(0), &DrawOptions::default(), &mut cache)
        .expect("bounds");
    assert!(close(setup_only.max[1], 5.0, 1e-4));
}

#[test]
fn frame_times_cover_one_loop() {
    let mut a = skelpad_lang::model::Animation::empty("a", 20.0);
    a.duration_secs = 1.0;
    let t = a.frame_times();
    assert_eq!(t.len(), 20);
    assert!(close(t[19], 0.95, 1e-12));
    a.duration_secs = 0.0;
    assert_eq!(a.frame_times(), vec![0.0]);
}

#[test]
fn view_fit_centers_and_scales_bounds() {
    let b = Bounds { min: [-10.0, 0.0], max: [30.0, 20.0] };
    let v = View::fit(b, 100, 100, 10.0);
    assert!(close(v.pixels_per_unit, 2.0, 1e-12));
    assert_eq!(v.to_px(-10.0, 10.0), [10.0, 50.0]);
    assert_eq!(v.to_px(30.0, 20.0), [90.0, 30.0]);
    assert_eq!(View::centered(100, 60, 3.0).to_px(1.0, 1.0), [53.0, 27.0]);
}

#[test]
fn one_attachment_alone_in_its_own_space() {
    // The attachment transform (x40 r30) and the bone are left out; the
    // stroke (t2) is included, so the picture is (20+2)×(10+2) units.
    let arm =
        armature("skeleton\n\ta x100 r45\n\t\t@ #F00,0.5 :rect x40 r30 w20 h10 t2 f#0F0 s#00F\n");
    let mut cache = RenderCache::new(".");
    let sk = &arm.skeleton;
    let slot = SlotId(0);
    let att = sk.slots[0].attachment.expect("attachment");
    let out = cpu::render_attachment(sk, &setup(&arm), slot, att, 4.0, 0, &mut cache)
        .expect("renders")
        .expect("draws");
    assert_eq!(out.image.dimensions(), (22 * 4 + 2, 12 * 4 + 2));
    assert_eq!(out.pivot, [45.0, 25.0]);
    // Center: the fill, not tinted by the slot color.
    assert_eq!(out.image.get_pixel(45, 25).0, [0, 255, 0, 255]);
    // On the outline: the stroke.
    assert_eq!(out.image.get_pixel(45, 1 + 4).0, [0, 0, 255, 255]);
    assert_eq!(out.image.get_pixel(0, 0).0[3], 0, "transparent margin");
    let none = armature("skeleton\n\ta\n\t\t@\n");
    let r = cpu::render_attachment(
        &none.skeleton,
        &setup(&none),
        SlotId(0),
        none.skeleton.slots[0].attachment.expect("att"),
        1.0,
        0,
        &mut cache,
    );
    assert!(matches!(r, Ok(None)));
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn num() -> impl Strategy<Value = String> {
        const VALUES: [&str; 12] = [
            "0",
            "0.001",
            "0.5",
            "1",
            "3",
            "7.5",
            "20",
            "45",
            "100",
            "100000",
            "1000000000000",
            "1e",
        ];
        (prop::sample::select(VALUES.to_vec()), any::<bool>()).prop_map(|(v, neg)| {
            // "1e" stands for a number too long for f64 (it parses as infinity).
            let v = if v == "1e" { "1".repeat(320) } else { v.to_string() };
            if neg { format!("-{v}") } else { v }
        })
    }

    fn attachment() -> impl Strategy<Value = String> {
        let style = (num(), num(), 0usize..3, 0usize..3).prop_map(|(t, m, j, c)| {
            let joins = ["miter-join", "bevel-join", "round-join"];
            let caps = ["butt-cap", "square-cap", "round-cap"];
            format!(
                "t{} m{} {} {}",
                t.trim_start_matches('-'),
                m.trim_start_matches('-'),
                joins[j],
                caps[c]
            )
        });
        let transform = (num(), num(), num(), num(), num())
            .prop_map(|(x, y, r, i, j)| format!("x{x} y{y} r{r} i{i} j{j}"));
        let point = || {
            (num(), num(), any::<bool>())
                .prop_map(|(x, y, other)| format!("{x},{y}{}", if other { ":b" } else { "" }))
        };
        let path =
            (prop::collection::vec((0usize..3, point(), point(), point()), 0..6), any::<bool>())
                .prop_map(|(cmds, close)| {
                    let mut s = String::new();
                    for (k, p1, p2, p3) in cmds {
                        match k {
                            0 => s.push_str(&format!("\n\t\t\tL {p1}")),
                            1 => s.push_str(&format!("\n\t\t\tQ {p1} {p2}")),
                            _ => s.push_str(&format!("\n\t\t\tB {p1} {p2} {p3}")),
                        }
                    }
                    if close {
                        s.push_str("\n\t\t\tC");
                    }
                    s
                });
        (0usize..4, num(), num(), num(), style, transform, path).prop_map(
            |(kind, a, b, d, style, tr, path)| match kind {
                0 => format!(":rect w{a} h{b} d{} {style} {tr}", d.trim_start_matches('-')),
                1 => format!(":circle d{} {style} {tr}", a.trim_start_matches('-')),
                2 => format!(":ellipse w{a} h{b} {style} {tr}"),
                _ => format!(":path {style} {tr}{path}"),
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        /// Whatever the numbers (zero, negative, huge, beyond f32), drawing
        /// never panics and the draw list keeps its invariants.
        #[test]
        fn any_shape_draws_without_panicking(
            atts in prop::collection::vec(attachment(), 1..4),
            bone in (num(), num(), num(), num(), num()),
            ppu in prop_oneof![Just(0.01), Just(1.0), Just(37.0), Just(5000.0)],
        ) {
            let (x, y, r, i, j) = bone;
            let mut text = format!("skeleton\n\ta x{x} y{y} r{r} i{i} j{j} l20\n");
            for (k, a) in atts.iter().enumerate() {
                text.push_str(&format!("\t\t@s{k} {a}\n"));
            }
            text.push_str("\ta.b x5 r30 i2\n");
            let arm = compile(&text).armature;
            let pose = setup(&arm);
            let mut cache = RenderCache::new(".");
            let list = build_draw_list(&arm, &pose, &DrawOptions { pixels_per_unit: ppu, bones: true, ..DrawOptions::default() }, &mut cache);
            for item in &list.items {
                prop_assert_eq!(item.indices.len() % 3, 0);
                for &ix in &list.indices[item.indices.start as usize..item.indices.end as usize] {
                    prop_assert!(item.vertices.contains(&ix));
                }
                for &ix in &list.contours[item.contours.start as usize..item.contours.end as usize] {
                    prop_assert!(ix == CONTOUR_END || item.vertices.contains(&ix));
                }
                for v in &list.vertices[item.vertices.start as usize..item.vertices.end as usize] {
                    prop_assert!(v.pos[0].is_finite() && v.pos[1].is_finite());
                }
            }
            let view = View::centered(24, 24, ppu);
            prop_assert!(cpu::render(&list, &view, 24, 24, None).is_ok());
            let _ = super::super::egui::to_epaint(&list, &view, &mut |_| epaint::TextureId::default());
            for slot in 0..arm.skeleton.slots.len() {
                let slot = SlotId::from_index(slot);
                if let Some(att) = pose.slots[slot.index()].attachment {
                    let _ = cpu::render_attachment(&arm.skeleton, &pose, slot, att, ppu.min(2.0), 1, &mut cache);
                }
            }
        }
    }
}

/// Found by the proptest below in CI: an outline 1e20 pixels long crosses
/// the picture, and clipping it in floating point put the crossing points
/// thousands of pixels off the clip box, which tiny-skia's edge walker
/// asserts against. Crossings now lie on the box exactly.
#[test]
fn an_outline_reaching_1e20_pixels_across_the_picture_draws() {
    let text = "skeleton\n\ta i7.5 j-1000000000000 l20\n\t\t@s0 :ellipse w1 h100 t0 m0 miter-join butt-cap y-100000 r0.001 i1000000000000 j1000000000000\n";
    let arm = compile(text).armature;
    let pose = setup(&arm);
    let mut cache = RenderCache::new(".");
    let options = DrawOptions { pixels_per_unit: 37.0, bones: true, ..DrawOptions::default() };
    let list = build_draw_list(&arm, &pose, &options, &mut cache);
    let view = View::centered(24, 24, 37.0);
    let picture = cpu::render(&list, &view, 24, 24, None).expect("a 24×24 picture");
    // The bone's diamond crosses the middle of the picture: something is drawn.
    assert!(picture.pixels().iter().any(|p| p.alpha() > 0));
}
