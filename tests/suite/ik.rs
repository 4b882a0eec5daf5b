//! Inverse kinematics in the language (`ik` sections, LANGUAGE-EXT.md):
//! poses checked against geometry worked out independently (two-bone
//! reach by the law of cosines, a straight chain for a target out of reach),
//! the bend words, chains under a mirrored parent, and the language's errors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use skelpad::compile::{Compiler, Target, compile};
use skelpad::model::{AnimId, BoneId, IkConstraint, IkMode, SkinId};
use skelpad::runtime::{Pose, evaluate};
use skelpad::syntax::Role;

/// A shoulder at (0, 0) with an upper arm of 40 and a forearm of 30 (the
/// hand at the forearm's end) and a target bone at (tx, ty).
fn arm(tx: f64, ty: f64, ik_line: &str) -> String {
    format!(
        "skeleton\n\tbody\n\tbody.upper r-60 l40\n\tbody.upper.fore x40 r30 l30\n\tbody.upper.fore.hand x30\n\ttarget x{tx} y{ty}\nik\n\t{ik_line}\n"
    )
}

fn pos(p: &Pose, sk: &skelpad::model::Skeleton, name: &str) -> (f64, f64) {
    let b = sk.bones.iter().position(|b| b.name.ends_with(name)).unwrap();
    let o = p.bones[b].world.translation();
    (o.x, o.y)
}

fn setup(text: &str) -> (skelpad::compile::Compilation, Pose) {
    let comp = compile(text);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    let p = evaluate(&comp.armature, None, SkinId(0), 0.0);
    (comp, p)
}

/// The elbow of a two-bone chain (lengths a, b) from the root to a
/// reachable target, on the left (`left`) or right of the root→target line:
/// law of cosines.
fn elbow(a: f64, b: f64, t: (f64, f64), left: bool) -> (f64, f64) {
    let d = t.0.hypot(t.1);
    let base = t.1.atan2(t.0);
    let angle = ((a * a + d * d - b * b) / (2.0 * a * d)).acos();
    let r = if left { base + angle } else { base - angle };
    (a * r.cos(), a * r.sin())
}

fn close(got: (f64, f64), want: (f64, f64), tol: f64) -> bool {
    (got.0 - want.0).hypot(got.1 - want.1) <= tol
}

#[test]
fn a_reachable_target_is_reached_with_the_elbow_where_geometry_puts_it() {
    // cw: from the root to the tip the chain turns clockwise, so the elbow
    // is on the left of the root→target line; ccw: on the right.
    for (t, bend, left) in [
        ((50.0, 20.0), "cw", true),
        ((50.0, 20.0), "ccw", false),
        ((-20.0, -45.0), "cw", true),
        ((10.0, 60.0), "ccw", false),
    ] {
        let (comp, p) = setup(&arm(t.0, t.1, &format!("hand to target up 2 {bend}")));
        let sk = &comp.armature.skeleton;
        let hand = pos(&p, sk, "hand");
        assert!(close(hand, t, 0.01), "{t:?} {bend}: hand at {hand:?}");
        let e = pos(&p, sk, "fore");
        let want = elbow(40.0, 30.0, t, left);
        assert!(close(e, want, 0.02), "{t:?} {bend}: elbow at {e:?}, geometry says {want:?}");
    }
}

#[test]
fn a_target_out_of_reach_gets_a_straight_chain_pointing_at_it() {
    for t in [(100.0, 0.0), (-60.0, 80.0), (0.0, -150.0)] {
        let (comp, p) = setup(&arm(t.0, t.1, "hand to target from upper"));
        let sk = &comp.armature.skeleton;
        let d = t.0.hypot(t.1);
        let (ux, uy) = (t.0 / d, t.1 / d);
        assert!(
            close(pos(&p, sk, "hand"), (70.0 * ux, 70.0 * uy), 0.01),
            "{t:?}: {:?}",
            pos(&p, sk, "hand")
        );
        // FABRIK's ten rounds leave the middle joint a little off the line.
        assert!(
            close(pos(&p, sk, "fore"), (40.0 * ux, 40.0 * uy), 0.1),
            "{t:?}: {:?}",
            pos(&p, sk, "fore")
        );
    }
}

#[test]
fn arc_mode_and_the_family_fields_compile() {
    let comp = compile(&arm(30.0, 30.0, "hand to target up 2 arc ccw"));
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    let sk = &comp.armature.skeleton;
    assert_eq!(sk.ik.len(), 1);
    let f = &sk.ik[0];
    let names: Vec<&str> = f.bones.iter().map(|b| sk.bones[b.index()].name.as_str()).collect();
    assert_eq!(names, ["body.upper", "body.upper.fore", "body.upper.fore.hand"]);
    assert_eq!(sk.bones[f.target.index()].name, "target");
    assert_eq!((f.mode, f.constraint), (IkMode::Arc, IkConstraint::CounterClockwise));
    // Arc keeps the segment lengths and the root; where it puts the tip is
    // SkelForm's business (it need not reach).
    let p = evaluate(&comp.armature, None, SkinId(0), 0.0);
    let (u, e, h) = (pos(&p, sk, "upper"), pos(&p, sk, "fore"), pos(&p, sk, "hand"));
    assert!(close(u, (0.0, 0.0), 1e-9));
    assert!(((e.0 - u.0).hypot(e.1 - u.1) - 40.0).abs() < 1e-3);
    assert!(((h.0 - e.0).hypot(h.1 - e.1) - 30.0).abs() < 1e-3);
}

#[test]
fn chains_under_a_mirrored_or_scaled_parent_still_reach() {
    // Targets about three quarters of the chain's reach away (scales
    // stretch the chain: 40 and 30 units times the x scale).
    for (body, t) in [
        ("body flip-x", (20.0, 35.0)),
        ("body flip-y r30", (20.0, 35.0)),
        ("body i1.5 j0.5", (50.0, 60.0)),
        ("body flip-x i-1.5", (-50.0, 60.0)),
    ] {
        let text =
            arm(t.0, t.1, "hand to target up 2 cw").replace("\tbody\n", &format!("\t{body}\n"));
        let (comp, p) = setup(&text);
        let sk = &comp.armature.skeleton;
        assert!(close(pos(&p, sk, "hand"), t, 0.02), "{body}: hand at {:?}", pos(&p, sk, "hand"));
    }
}

#[test]
fn an_animated_target_is_followed_and_ik_changes_nothing_without_a_section() {
    let text = format!(
        "{}anim \"a\" 10fps 0:1\n\ttarget\n\t\tx 0 -> 10\n\t\ty 0 -> 20\n",
        arm(30.0, 10.0, "hand to target up 2")
    );
    let comp = compile(&text);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    let sk = &comp.armature.skeleton;
    let p = evaluate(&comp.armature, Some(AnimId(0)), SkinId(0), 0.1);
    assert!(close(pos(&p, sk, "hand"), (40.0, 30.0), 0.01), "{:?}", pos(&p, sk, "hand"));
    // Without the section the arm keeps its forward kinematics.
    let plain = compile(&text.replace("ik\n\thand to target up 2\n", ""));
    assert!(plain.armature.skeleton.ik.is_empty());
    let p = evaluate(&plain.armature, None, SkinId(0), 0.0);
    let (c, s) = ((-30f64).to_radians().cos(), (-30f64).to_radians().sin());
    let e = (40.0 * 0.5, -40.0 * 3f64.sqrt() / 2.0);
    assert!(close(
        pos(&p, &plain.armature.skeleton, "hand"),
        (e.0 + 30.0 * c, e.1 + 30.0 * s),
        1e-9
    ));
}

#[test]
fn every_token_of_an_ik_line_has_a_role_and_references_resolve() {
    let text = arm(30.0, 10.0, "hand to target from upper arc cw");
    let comp = compile(&text);
    let start = text.find("ik\n").unwrap();
    let roles: Vec<(&str, Role)> = comp
        .roles()
        .filter(|r| r.span.start as usize >= start)
        .map(|r| (&text[r.span.range()], r.role))
        .collect();
    assert_eq!(
        roles,
        [
            ("ik", Role::SectionKeyword),
            ("hand", Role::BoneRef),
            ("to", Role::BoneProperty),
            ("target", Role::BoneRef),
            ("from", Role::BoneProperty),
            ("upper", Role::BoneRef),
            ("arc", Role::BoneProperty),
            ("cw", Role::BoneProperty),
        ]
    );
    let sk = &comp.armature.skeleton;
    let at = |word: &str| {
        let o = (start + text[start..].find(word).unwrap()) as u32;
        comp.sources.references.iter().find(|r| r.span.start == o).unwrap().target
    };
    assert_eq!(at("hand"), Some(Target::Bone(sk.bone_by_name("body.upper.fore.hand").unwrap())));
    assert_eq!(at("target"), Some(Target::Bone(sk.bone_by_name("target").unwrap())));
    assert_eq!(comp.sources.ik.len(), 1);
    assert_eq!(comp.sources.ik[0].family, Some(0));
    assert_eq!(&text[comp.sources.ik[0].span.range()], "hand to target from upper arc cw");
    // The cursor on the line is on the chain's tip.
    let at_line = start + 5;
    assert_eq!(
        comp.sources.bone_at(&text, at_line, |_| None),
        sk.bone_by_name("body.upper.fore.hand")
    );
}

/// The messages of a script's errors, with the text each points at.
fn errors(text: &str) -> Vec<(String, String)> {
    let comp = compile(text);
    comp.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (text[d.span.range()].to_string(), d.message.clone()))
        .collect()
}

#[test]
fn mistakes_are_located_errors_and_drop_the_family() {
    let base = "skeleton\n\thip\n\thip.thigh r-90 l60\n\thip.thigh.shin x60 l55\n\thip.thigh.shin.ankle x55\n\thip.thigh.knee-target x30 y10\n\tfoot y-100\n\tleg2\n\tleg2.a l10\n\tleg2.a.b x10\nik\n";
    let cases: [(&str, &str, &str); 11] = [
        ("\tankle to fot up 2", "fot", "unknown bone `fot`"),
        ("\tankel to foot up 2", "ankel", "unknown bone `ankel`"),
        ("\tankle to foot up 4", "4", "has only 3 parents"),
        ("\tankle to foot from leg2", "leg2", "is not above"),
        ("\tankle to foot from ankle", "ankle", "at least two bones"),
        (
            "\tankle to knee-target up 2",
            "knee-target",
            "hangs below `hip.thigh`, the first bone of its own chain",
        ),
        ("\tankle to shin up 1", "shin", "first bone of its own chain"),
        ("\tankle up 2", "ankle up 2", "has no target"),
        ("\tankle to foot", "ankle to foot", "does not say where its chain starts"),
        ("\tankle to foot up 2 fabric", "fabric", "unexpected `fabric`"),
        ("\tankle to foot up 0", "0", "whole number from 1 to 64"),
    ];
    for (line, at, msg) in cases {
        let text = format!("{base}{line}\n");
        let errs = errors(&text);
        assert!(errs.iter().any(|(t, m)| t == at && m.contains(msg)), "{line}: {errs:?}");
        // An unknown word is ignored; every other mistake drops the family.
        assert_eq!(
            compile(&text).armature.skeleton.ik.is_empty(),
            !line.ends_with("fabric"),
            "{line}"
        );
    }
    // Hints: "did you mean".
    let comp = compile(&format!("{base}\tankle to foot up 2 fabric\n\tankel to foot up 2\n"));
    let hints: Vec<&String> = comp.diagnostics.iter().flat_map(|d| &d.hints).collect();
    assert!(hints.iter().any(|h| h.contains("did you mean `fabrik`?")), "{hints:?}");
    assert!(hints.iter().any(|h| h.contains("did you mean `hip.thigh.shin.ankle`?")), "{hints:?}");
}

#[test]
fn a_chain_start_given_twice_is_an_error_at_the_second() {
    let base = "skeleton\n\thip\n\thip.thigh r-90 l60\n\thip.thigh.shin x60 l55\n\thip.thigh.shin.ankle x55\n\tfoot y-100\nik\n";
    for (line, second) in [
        ("\tankle to foot up 2 from hip.thigh", 20),
        ("\tankle to foot from hip.thigh up 1", 30),
        ("\tankle to foot up 2 up 1", 20),
    ] {
        let text = format!("{base}{line}\n");
        let at = base.len() + second;
        let errs: Vec<_> = compile(&text)
            .diagnostics
            .into_iter()
            .filter(|d| d.is_error())
            .map(|d| (d.span.range().start, d.message, d.hints))
            .collect();
        assert_eq!(errs.len(), 1, "{line}: {errs:?}");
        let (start, msg, hints) = &errs[0];
        assert_eq!(*start, at, "{line}: {msg}");
        assert_eq!(msg, "the start of the chain is given twice; this one is ignored");
        assert_eq!(hints, &["give either `up N` or `from BONE`".to_string()]);
    }
}

#[test]
fn families_that_would_move_each_other_are_errors() {
    let base = "skeleton\n\troot\n\troot.a l10\n\troot.a.b x10 l10\n\troot.a.b.c x10 l10\n\troot.a.b.c.d x10 l10\n\troot.a.b.c.d.e x10\n\troot.a.side y5\n\tt1 x20\n\tt2 x30\n\tother\n\tother.o x5\nik\n";
    // A second chain below the first one's first bone; a target that another
    // family turns; a chain that turns the target of an earlier family.
    for (lines, bad, msg) in [
        (
            "\tc to t1 up 1\n\te to t2 up 1\n",
            "\te to t2 up 1",
            "hangs below `root.a.b`, the first bone of the IK family of `root.a.b.c`",
        ),
        (
            "\tc to t1 up 2\n\to to side up 1\n",
            "\to to side up 1",
            "`root.a.side` hangs below `root.a`",
        ),
        (
            "\te to side up 1\n\tc to t1 up 2\n",
            "\tc to t1 up 2",
            "this chain turns `root.a.b.c.d`, which the IK family of `root.a.b.c.d.e` uses (its chain)",
        ),
    ] {
        let text = format!("{base}{lines}");
        let comp = compile(&text);
        let line_start = text.find(bad).unwrap() + 1;
        let e = comp
            .diagnostics
            .iter()
            .find(|d| d.is_error())
            .unwrap_or_else(|| panic!("{lines}: no error"));
        assert_eq!(e.span.start as usize, line_start, "{lines}: {}", e.message);
        assert!(e.message.contains(msg), "{lines}: {}", e.message);
        assert_eq!(comp.armature.skeleton.ik.len(), 1, "{lines}: the first family stays");
    }
    // Two independent chains are fine.
    let comp = compile(&format!("{base}\tc to t1 up 1\n\tother.o to t2 up 1\n"));
    assert!(!comp.has_errors(), "{:?}", comp.diagnostics);
}

#[test]
fn the_section_header_and_indentation_are_checked() {
    let base = arm(30.0, 10.0, "hand to target up 2");
    let errs = errors(&base.replace("ik\n", "ik now\n"));
    assert!(errs.iter().any(|(t, m)| t == "now" && m.contains("after `ik`")), "{errs:?}");
    let errs = errors(&base.replace("\thand to target up 2", "\t\thand to target up 2"));
    assert!(errs.iter().any(|(_, m)| m.contains("indented with one tab")), "{errs:?}");
    let errs = errors(&base.replace("ik\n", "ikk\n"));
    assert!(errs.iter().any(|(_, m)| m.contains("starts no section")), "{errs:?}");
}

#[test]
fn incremental_compiles_keep_the_families_in_step() {
    let mut c = Compiler::new();
    let text =
        format!("{}anim \"a\"\n\ttarget\n\t\tx 0 -> 10\n", arm(30.0, 10.0, "hand to target up 2"));
    let first = c.update(&text);
    assert_eq!(first.armature.skeleton.ik.len(), 1);
    // An edit in the animation reuses the rig and the families.
    let second = c.update(&text.replace("x 0 -> 10", "x 0 -> 20"));
    assert!(std::sync::Arc::ptr_eq(&first.armature.skeleton, &second.armature.skeleton));
    // An edit of the IK line changes them; removing the section removes them.
    let third = c.update(&text.replace("up 2", "up 2 arc"));
    assert_eq!(third.armature.skeleton.ik[0].mode, IkMode::Arc);
    let fourth = c.update(&text.replace("ik\n\thand to target up 2\n", ""));
    assert!(fourth.armature.skeleton.ik.is_empty());
    assert_eq!(
        fourth.armature.skeleton.ik,
        compile(&text.replace("ik\n\thand to target up 2\n", "")).armature.skeleton.ik
    );
}

/// Script → `.skf` → import → `skelpad convert` → script: the converted
/// script has the same IK families (chains, targets, modes, bends; bones
/// matched through the names the converter gives the file's bones, which
/// keep the script's order) and poses like the original at every frame.
#[test]
fn ik_round_trips_through_skelform_files_and_convert() {
    use skelpad::formats::skf::convert::convert;
    use skelpad::formats::skf::export::ExportOptions;
    use skelpad::formats::skf::import::import_skf;
    use skelpad::formats::skf::pictures::RenderedPictures;
    use skelpad::formats::skf::write::{build, to_zip};
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for file in ["examples/ik_arm.skel2d", "examples/ik_walk.skel2d", "tests/skf_rigs/ik.skel2d"] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        let arm = compile(&text).armature;
        let mut pictures = RenderedPictures::new(&arm, &root.join("examples"));
        let export = build(
            &arm,
            &ExportOptions::default(),
            &mut pictures,
            &skelpad::formats::export::Progress::new(),
        )
        .unwrap();
        let imp = import_skf(&to_zip(&export).unwrap()).unwrap();
        let conv = convert(&imp, "sprites");
        assert!(
            !conv.not_carried.keys().any(|k| k.starts_with("IK families")),
            "{file}: {:?}",
            conv.not_carried
        );
        let back = compile(&conv.script);
        assert!(!back.has_errors(), "{file}: {:?}\n{}", back.diagnostics, conv.script);
        let (a, b) = (&arm.skeleton, &back.armature.skeleton);
        let paths = skelpad::formats::skf::convert::bone_paths(&imp.armature.skeleton);
        let map = |x: BoneId| b.bone_by_name(&paths[x.index()]).unwrap();
        // The exporter writes live families only (the rig's baked ones are in the keys).
        let live: Vec<_> =
            a.ik.iter()
                .filter(|f| {
                    export
                        .armature
                        .inverse_kinematics
                        .iter()
                        .any(|x| x.target_id as usize == f.target.index())
                })
                .collect();
        assert_eq!(live.len(), b.ik.len(), "{file}");
        for (x, y) in live.iter().zip(&b.ik) {
            let bones: Vec<BoneId> = x.bones.iter().map(|&z| map(z)).collect();
            assert_eq!(
                (bones, map(x.target), x.mode, x.constraint),
                (y.bones.clone(), y.target, y.mode, y.constraint),
                "{file}"
            );
        }
        let mut worst = 0.0f64;
        for (ai, anim) in arm.animations.iter().enumerate() {
            let bi = back.armature.animations.iter().position(|x| x.name == anim.name).unwrap();
            let frames = (anim.duration_secs * anim.fps).round() as u32;
            for f in 0..=frames {
                let t = f64::from(f) / anim.fps;
                let ours = evaluate(&arm, Some(AnimId(ai as u32)), SkinId(0), t);
                let theirs = evaluate(&back.armature, Some(AnimId(bi as u32)), SkinId(0), t);
                for i in 0..a.bones.len() {
                    let (w, o) = (
                        ours.bones[i].world,
                        theirs.bones[map(BoneId::from_index(i)).index()].world,
                    );
                    let d = w.translation() - o.translation();
                    worst = worst.max(d.x.hypot(d.y));
                }
            }
        }
        eprintln!(
            "{file}: converted script within {worst:.2e} units of the original at every frame"
        );
        assert!(worst <= 0.01, "{file}: {worst}");
    }
}
