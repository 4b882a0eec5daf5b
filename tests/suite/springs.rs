//! Springs baked to keys (LANGUAGE-EXT.md, "Springs"): the laws of the
//! model, checked on the oscillator itself and on generated animations
//! played frame by frame, and what the words do in a script.
//!
//! - a parent that does not turn moves nothing;
//! - with any damping > 0 the energy `½(y'² + ω²y²)` never grows while the
//!   parent is still, and falls;
//! - one step is the textbook closed form of the damped oscillator (written
//!   out here for each regime, not taken from the code);
//! - the baked loop closes (the lag at the end is the lag at 0), it is the
//!   loop that simulating from rest settles into, and `check --lint` finds
//!   no seam on a sprung animation that it did not find without springs.
//!
//! Case counts keep this file to a few seconds in a debug build; set
//! `PROPTEST_CASES=N` for a longer run.

use proptest::prelude::*;
use skelpad::check::expect::compile_checked;
use skelpad::check::lint::lint;
use skelpad::compile::compile;
use skelpad::model::spring::{Spring, SpringState};
use skelpad::model::{AnimId, Armature, SkinId};
use skelpad::runtime::evaluate;

fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    ProptestConfig { cases: n, ..ProptestConfig::default() }
}

/// A chain of four bones hanging from `base`.
const RIG: &str =
    "skeleton\n\tbase y-50 r90 l20\n\tbase.a x20 l20\n\tbase.a.b x20 l20\n\tbase.a.b.c x20 l20\n";
const BONES: [&str; 4] = ["base", "a", "b", "c"];

/// `r` (or `prop`) keys: values, a step and an easing.
fn timeline(prop: &'static str) -> impl Strategy<Value = String> {
    let easing = prop::sample::select(vec!["li", "si", "so", "sio", "ease-out", "back-out"]);
    (prop::collection::vec(-60i32..60, 1..5), 1u32..8, easing).prop_map(move |(vals, step, e)| {
        let vals: Vec<String> = vals
            .iter()
            .map(|v| {
                if prop == "i" || prop == "j" {
                    format!("{}", 1.0 + f64::from(*v) / 100.0)
                } else {
                    v.to_string()
                }
            })
            .collect();
        format!("\t\t{prop} :{step}:{e}> {}\n", vals.join(" -> "))
    })
}

/// A spring: cycles per second and damping ratio.
fn spring() -> impl Strategy<Value = (f64, f64)> {
    (1u32..40, 1u32..300).prop_map(|(hz, z)| (f64::from(hz) / 10.0, f64::from(z) / 100.0))
}

/// World angle (radians) of every bone at `t`.
fn angles(arm: &Armature, anim: u32, t: f64) -> Vec<f64> {
    let p = evaluate(arm, Some(AnimId(anim)), SkinId(0), t);
    p.bones
        .iter()
        .map(|b| {
            let (x, y) = b.world.apply_vector(1.0, 0.0);
            y.atan2(x)
        })
        .collect()
}

/// `a − b` brought into (−π, π].
fn turn(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(std::f64::consts::TAU);
    if d > std::f64::consts::PI { d - std::f64::consts::TAU } else { d }
}

fn energy(s: &Spring, x: SpringState) -> f64 {
    0.5 * (x.speed * x.speed + s.omega * s.omega * x.lag * x.lag)
}

/// The damped oscillator's solution from `(y0, u0)` after `t`, by the
/// textbook form of each regime: `e^(−ζωt)(A cos ω_d t + B sin ω_d t)`,
/// `(A + Bt)e^(−ωt)`, `c1·e^(r1 t) + c2·e^(r2 t)`.
fn closed_form(w: f64, z: f64, y0: f64, u0: f64, t: f64) -> (f64, f64) {
    if z < 1.0 {
        let wd = w * (1.0 - z * z).sqrt();
        let (a, b) = (y0, (u0 + z * w * y0) / wd);
        let e = (-z * w * t).exp();
        let (c, s) = ((wd * t).cos(), (wd * t).sin());
        let y = e * (a * c + b * s);
        let u = -z * w * y + e * wd * (b * c - a * s);
        (y, u)
    } else if z == 1.0 {
        let (a, b) = (y0, u0 + w * y0);
        let e = (-w * t).exp();
        (e * (a + b * t), e * (b - w * (a + b * t)))
    } else {
        let q = (z * z - 1.0).sqrt();
        let (r1, r2) = (-w * (z - q), -w * (z + q));
        let c1 = (u0 - r2 * y0) / (r1 - r2);
        let c2 = (r1 * y0 - u0) / (r1 - r2);
        let (e1, e2) = ((r1 * t).exp(), (r2 * t).exp());
        (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
    }
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn one_step_is_the_closed_form(
        w in 0.5f64..60.0,
        z in prop_oneof![0.01f64..0.99, Just(1.0), 1.01f64..6.0],
        y0 in -2.0f64..2.0,
        u0 in -20.0f64..20.0,
        fps in 1u32..121,
    ) {
        let h = 1.0 / f64::from(fps);
        let s = Spring { omega: w, zeta: z };
        let got = s.step(SpringState { lag: y0, speed: u0 }, h);
        let (y, u) = closed_form(w, z, y0, u0, h);
        let scale = 1.0 + y0.abs() + u0.abs() / w;
        prop_assert!((got.lag - y).abs() < 1e-10 * scale, "lag {} vs {y}", got.lag);
        prop_assert!((got.speed - u).abs() < 1e-10 * scale * w, "speed {} vs {u}", got.speed);
    }

    #[test]
    fn energy_decays_for_any_damping(
        w in 0.5f64..60.0,
        z in 0.01f64..6.0,
        y0 in -2.0f64..2.0,
        u0 in -20.0f64..20.0,
        fps in 1u32..121,
    ) {
        prop_assume!(y0.abs() + u0.abs() > 1e-6);
        let s = Spring { omega: w, zeta: z };
        let h = 1.0 / f64::from(fps);
        let mut x = SpringState { lag: y0, speed: u0 };
        let e0 = energy(&s, x);
        let mut e = e0;
        for _ in 0..200 {
            x = s.step(x, h);
            let next = energy(&s, x);
            prop_assert!(next <= e * (1.0 + 1e-12), "energy grew: {e} -> {next}");
            e = next;
        }
        prop_assert!(e < e0, "no decay: {e0} -> {e}");
    }

    #[test]
    fn a_still_parent_moves_nothing(
        base in prop::collection::vec(prop::sample::select(vec!["x", "y", "i", "j"]).prop_flat_map(timeline), 1..3),
        own in timeline("r"),
        (hz, z) in spring(),
        fps in 5u32..30,
    ) {
        // `base` moves and scales but never turns; `a` has keys of its own.
        let body = format!("anim \"s\" {fps}fps\n\tbase\n{}\ta\n{own}", base.concat());
        let plain = compile(&format!("{RIG}{body}"));
        let sprung = compile(&format!("{RIG}{}", body.replace("\ta\n", &format!("\ta spring {hz} {z}\n"))));
        prop_assert!(sprung.diagnostics.iter().all(|d| !d.is_error()), "{:?}", sprung.diagnostics);
        let (pa, sa) = (&plain.armature.animations[0], &sprung.armature.animations[0]);
        prop_assert_eq!(&pa.bones, &sa.bones, "the keys stay as written");
        for i in 0..=40 {
            let t = pa.duration_secs * f64::from(i) / 40.0;
            let (p, s) = (angles(&plain.armature, 0, t), angles(&sprung.armature, 0, t));
            for (x, y) in p.iter().zip(&s) {
                prop_assert!(turn(*x, *y).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn a_sprung_loop_closes_and_lint_finds_no_new_seam(
        items in prop::collection::vec((0usize..4, timeline("r")), 1..4),
        (hz, z) in spring(),
        chain_from in 0usize..3,
        cycle in any::<bool>(),
        fps in 5u32..30,
    ) {
        let mut body = format!("anim \"s\" {fps}fps{}\n", if cycle { " cycle" } else { "" });
        for (b, tl) in &items {
            body.push_str(&format!("\t{}\n{tl}", BONES[*b]));
        }
        // Every bone below `chain_from` trails its parent.
        body.push_str(&format!("\t{} spring-chain {hz} {z}\n", BONES[chain_from]));
        let sprung = compile_checked(&format!("{RIG}{body}"));
        prop_assert!(sprung.diagnostics.iter().all(|d| !d.is_error()), "{:?}", sprung.diagnostics);
        let plain_text = format!("{RIG}{}", body.replace(&format!(" spring-chain {hz} {z}"), ""));
        let plain = compile_checked(&plain_text);
        let d = sprung.armature.animations[0].duration_secs;
        // What the springs add to each bone's angle is the same at the end
        // as at the start.
        let (p0, s0) = (angles(&plain.armature, 0, 0.0), angles(&sprung.armature, 0, 0.0));
        let (p1, s1) = (angles(&plain.armature, 0, d), angles(&sprung.armature, 0, d));
        for i in 0..BONES.len() {
            let (lag0, lag1) = (turn(s0[i], p0[i]), turn(s1[i], p1[i]));
            prop_assert!(turn(lag0, lag1).abs() < 1e-7, "bone {}: lag {lag0} at 0, {lag1} at the end", BONES[i]);
        }
        let seams = |mut comp: skelpad::compile::Compilation| {
            lint(&mut comp);
            comp.diagnostics.iter().any(|x| x.message.contains("loops with a seam"))
        };
        let (with, without) = (seams(sprung), seams(plain));
        prop_assert!(!with || without, "a seam only with springs");
    }

    #[test]
    fn the_settled_loop_is_where_loops_from_rest_go(
        drive in prop::collection::vec(-0.5f64..0.5, 2..40),
        (hz, z) in spring(),
        fps in 5u32..60,
    ) {
        let s = Spring::from_hz(hz, z);
        let times: Vec<f64> = (0..drive.len()).map(|i| i as f64 / f64::from(fps)).collect();
        // (Loops from rest shrink their distance to the settled one by
        // e^(−ζωD) a loop: keep this test to a few thousand loops.)
        prop_assume!((-s.zeta * s.omega * times[drive.len() - 1]).exp() < 0.99);
        let settled = s.settled(&times, &drive);
        let scale = 1.0 + settled.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        prop_assert!((settled[0] - settled[drive.len() - 1]).abs() < 1e-9 * scale, "{settled:?}");
        // Loops from rest, until the start differs by less than 1e-13 from
        // the previous loop's (at most 100 000 loops).
        let mut state = SpringState::default();
        let mut lags = Vec::new();
        for _ in 0..100_000 {
            let (l, end) = s.run_loop(&times, &drive, state);
            let done = (end.lag - state.lag).abs() < 1e-13 && (end.speed - state.speed).abs() < 1e-13;
            (lags, state) = (l, end);
            if done {
                break;
            }
        }
        for (a, b) in lags.iter().zip(&settled) {
            prop_assert!((a - b).abs() < 1e-8 * scale, "from rest {a}, settled {b}");
        }
    }
}

/// The one-bone case worked by hand: the parent turns 18° in one frame
/// (frame 1 to 2 at 10 fps) and holds for 20 s, so the loop starts at rest
/// (e^(−2π·20) ≈ 0). At frame 1 the lag's speed drops by the parent's
/// new speed, π rad/s; a critically damped spring at 1 Hz then lags
/// `y = −π·0.1·e^(−0.2π)` = −9.603° at frame 2, and at frame 3 (the
/// parent stopped: the speed gains π back) follows the closed form again.
#[test]
fn a_kick_by_hand() {
    let text = "skeleton\n\tbase l10\n\tbase.tail x10 l10\nanim \"k\" 10fps\n\tbase\n\t\tr 0 1:> 0 2:> 18 200:> 18\n\ttail spring 1 1\n";
    let comp = compile(text);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    let arm = &comp.armature;
    let lag = |t: f64| {
        let a = angles(arm, 0, t);
        turn(a[1], a[0])
    };
    let w = std::f64::consts::TAU;
    let pi = std::f64::consts::PI;
    let y2 = -pi * 0.1 * (-0.1 * w).exp();
    assert!(lag(0.1).abs() < 1e-9, "{}", lag(0.1));
    assert!((lag(0.2) - y2).abs() < 1e-9, "{} vs {y2}", lag(0.2));
    assert!((y2.to_degrees() + 9.603).abs() < 1e-3);
    // Frame 3: from (y2, −π·e^(−0.2π)·(1 − 0.2π)) plus π, by the textbook form.
    let e = (-0.1 * w).exp();
    let u2 = -pi * e * (1.0 - 0.1 * w) + pi;
    let (y3, _) = closed_form(w, 1.0, y2, u2, 0.1);
    assert!((lag(0.3) - y3).abs() < 1e-9, "{} vs {y3}", lag(0.3));
}

/// A bone's own `delay` plays its keys late but not its spring: the lag
/// it shows at each frame is the one it shows without the delay.
#[test]
fn a_delay_does_not_delay_the_spring() {
    let anim = |tail: &str| {
        format!(
            "{RIG}anim \"w\" 20fps :10:sio\n\tbase\n\t\tr 0 -> 30 -> -20 -> 0\n\ta{tail}\n\t\tr 0 -> 15 -> 0\n"
        )
    };
    let [sd, d, s, none] =
        [" spring 2 0.3 delay 3", " delay 3", " spring 2 0.3", ""].map(|t| compile(&anim(t)));
    for c in [&sd, &d, &s, &none] {
        assert!(c.diagnostics.is_empty(), "{:?}", c.diagnostics);
    }
    let dur = none.armature.animations[0].duration_secs;
    let mut biggest: f64 = 0.0;
    for f in 0..=(dur * 20.0).round() as u32 {
        let t = f64::from(f) / 20.0;
        let i = 1;
        let with_delay = turn(angles(&sd.armature, 0, t)[i], angles(&d.armature, 0, t)[i]);
        let without = turn(angles(&s.armature, 0, t)[i], angles(&none.armature, 0, t)[i]);
        assert!((with_delay - without).abs() < 1e-9, "frame {f}: {with_delay} vs {without}");
        biggest = biggest.max(without.abs());
    }
    assert!(biggest.to_degrees() > 1.0, "the spring shows: {biggest}");
}

/// Mistakes are located on the number or word at fault.
#[test]
fn spring_mistakes_are_located() {
    let rig = "skeleton\n\tbase l10\n\tbase.tail x10 l10\n\t\t@s :rect w1 h1\n";
    let on = |item: &str, snippet: &str, message: &str| {
        let text = format!("{rig}anim \"a\" 10fps\n\tbase\n\t\tr 0 -> 10 -> 0\n\t{item}\n");
        let comp = compile(&text);
        let found = comp
            .diagnostics
            .iter()
            .any(|d| &text[d.span.range()] == snippet && d.message.contains(message));
        assert!(found, "{item}: {:?}", comp.diagnostics);
    };
    on("tail spring -2 0.5", "-2", "frequency must be more than 0");
    on("tail spring 0 0.5", "0", "frequency must be more than 0");
    on("tail spring 2 0", "0", "damping must be from 0.01");
    on("tail spring 2 -0.5", "-0.5", "damping must be from 0.01");
    on("tail spring 2 200", "200", "damping must be from 0.01 to 100");
    on("tail spring 2", "spring", "takes two numbers");
    on("tail spring x 1", "spring", "takes two numbers");
    on("@s spring 2 0.5", "spring", "a slot item has none");
    on("base spring 2 0.5", "spring 2 0.5", "has no parent");
    on("tail spring-chain 2 0.5", "spring-chain 2 0.5", "no bones below it");
    on("tail spring 8 0.5", "spring 8 0.5", "faster than 10 frames a second can show");
    let long = format!("{rig}anim \"a\" 10fps\n\tbase\n\t\tr 0 200000:> 10\n\ttail spring 1 0.5\n");
    let comp = compile(&long);
    assert!(
        comp.diagnostics.iter().any(|d| d.is_error()
            && &long[d.span.range()] == "spring 1 0.5"
            && d.message.contains("at most 100000 frames")),
        "{:?}",
        comp.diagnostics
    );
}

/// The baked keys are the armature's: a compile twice gives the same
/// animation bit for bit, and the editor's incremental compile, after the
/// spring's numbers are edited (and back), gives what a fresh compile
/// gives.
#[test]
fn springs_bake_the_same_every_time_and_incrementally() {
    use skelpad::compile::Compiler;
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tentacle.skel2d"),
    )
    .unwrap();
    assert!(text.contains("spring-chain 2 0.5"));
    let fresh = compile(&text);
    assert_eq!(format!("{:?}", fresh.armature), format!("{:?}", compile(&text).armature));
    let mut compiler = Compiler::new();
    compiler.update(&text);
    // (The spring's numbers, then the keys that drive it, then back.)
    let keys = "\t\tr 0 -> 20 -> -20 -> 0\n";
    assert!(text.ends_with(keys));
    for t in [
        text.replace("spring-chain 2 0.5", "spring-chain 3 0.7"),
        text.clone(),
        text.replace(keys, "\t\tr 0 -> 25 -> -20 -> 0\n"),
        text.clone(),
    ] {
        let inc = compiler.update(&t);
        let again = compile(&t);
        assert_eq!(format!("{:?}", inc.armature), format!("{:?}", again.armature));
        assert_eq!(format!("{:?}", inc.diagnostics), format!("{:?}", again.diagnostics));
    }
    let edited = compile(&text.replace("spring-chain 2 0.5", "spring-chain 3 0.7"));
    assert_ne!(format!("{:?}", edited.armature), format!("{:?}", fresh.armature));
}

/// `skelpad pose` plays the baked keys: its world matrices are the
/// runtime's on the compiled armature, and a segment below the keyed root
/// is turned by its spring (it would otherwise turn with the root).
#[test]
fn skelpad_pose_plays_the_baked_springs() {
    let out = crate::common::skelpad(&[
        "pose",
        "--json",
        "--anim",
        "sway",
        "--times",
        "0.3",
        "examples/tentacle.skel2d",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let bones = doc["animations"][0]["poses"][0]["bones"].as_array().unwrap().clone();
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/tentacle.skel2d"),
    )
    .unwrap();
    let comp = compile(&text);
    let id = comp.armature.animation_by_name("sway").unwrap();
    let pose = evaluate(&comp.armature, Some(id), SkinId(0), 0.3);
    for (b, p) in bones.iter().zip(&pose.bones) {
        let got: Vec<f64> =
            b["world"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
        // (serde_json reads a float back to within an ulp or so.)
        for (g, w) in got.iter().zip(p.world.to_array()) {
            assert!((g - w).abs() < 1e-12, "{}: {got:?} vs {:?}", b["name"], p.world);
        }
    }
    let angle = |i: usize| {
        let w = pose.bones[i].world.to_array();
        w[1].atan2(w[0])
    };
    assert!(turn(angle(1), angle(0)).abs().to_degrees() > 1.0, "s1 trails the root");
}
