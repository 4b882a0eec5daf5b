//! Crossfades checked against an independent player: Godot 3's
//! `AnimationPlayer` (`godot3-server`, as in `godot.rs`).
//!
//! `tests/godot_blend/crossfade.skel2d` has two animations and two
//! sequences of them. The two source animations are exported with
//! `--godot 3`; `tests/godot/blend_probe.gd` plays the first from 0 for
//! as long as skelpad's sequence plays it before the crossfade starts,
//! then calls `play(TO)` with `set_blend_time(FROM, TO, MIX)`, and writes
//! every bone's `global_transform` at each frame of the crossfade and
//! after it. skelpad's compiled sequence, posed at the same times, must
//! agree: origins within 0.01 units, axes within 1e-3 rad and 1e-3 of
//! their length, the tolerances `godot.rs` uses for whole frames (the
//! export writes six decimals; the scene's numbers are `f32`).
//!
//! Godot 3 blends a value track (`position`, `rotation_degrees`, `scale`)
//! as `to + (from − to)·w`, w = time left / blend time: per property,
//! linearly, as skelpad does. Its rotations are plain numbers, skelpad's
//! take the shorter way round: the poses these crossfades meet stay
//! within 180° of each other, where the two rules are the same (the
//! shorter way is checked with hand-worked numbers in `blend.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::collections::HashMap;

use crate::common::manifest;
use crate::godot::{export, godot3, numbers, pose_json, run_godot, temp};

/// One crossfade: the sequence, its two parts, when the second starts in
/// the sequence, the mix time and the first part's time then.
struct Case {
    sequence: &'static str,
    from: &'static str,
    to: &'static str,
    /// When `to` starts in the sequence (seconds).
    start: f64,
    /// Where `from` is then, from its start (Godot plays it that long).
    from_played: f64,
    mix: f64,
    /// How long `to` plays.
    to_length: f64,
}

/// The crossfades of the rig, worked out from its keys: "swing" lasts 20
/// frames at 20 fps (1 s), "reach" 8 frames (0.4 s).
const CASES: [Case; 2] = [
    // swing ×2 (2 s), reach starts 0.3 s before that ends.
    Case {
        sequence: "swing-reach",
        from: "swing",
        to: "reach",
        start: 1.7,
        from_played: 1.7,
        mix: 0.3,
        to_length: 0.4,
    },
    // reach (0.4 s), swing starts 0.35 s before it ends.
    Case {
        sequence: "reach-swing",
        from: "reach",
        to: "swing",
        start: 0.05,
        from_played: 0.05,
        mix: 0.35,
        to_length: 1.0,
    },
];

type Frame = HashMap<String, [f64; 6]>;

fn read(text: &str) -> Vec<Vec<Frame>> {
    let mut cases: Vec<Vec<Frame>> = Vec::new();
    for line in text.lines() {
        let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
        match head {
            "case" => cases.push(Vec::new()),
            "f" => cases.last_mut().unwrap().push(HashMap::new()),
            "b" => {
                let mut parts = rest.split(' ');
                let name = parts.next().unwrap().to_string();
                let v: Vec<f64> = parts.map(|p| p.parse().unwrap()).collect();
                let m = [v[0], v[1], v[2], v[3], v[4], v[5]];
                cases.last_mut().unwrap().last_mut().unwrap().insert(name, m);
            }
            _ => {}
        }
    }
    cases
}

/// The largest origin distance and axis angle and length differences of
/// skelpad's world matrix `want` (y up) and Godot's `got` (y down).
fn apart(want: [f64; 6], got: [f64; 6]) -> (f64, f64, f64) {
    let x = [want[0], -want[1]];
    let y = [-want[2], want[3]];
    let pos = (got[4] - want[4]).hypot(got[5] + want[5]);
    let (mut angle, mut length) = (0.0_f64, 0.0_f64);
    for (a, g) in [(x, [got[0], got[1]]), (y, [got[2], got[3]])] {
        let (la, lg) = (a[0].hypot(a[1]), g[0].hypot(g[1]));
        length = length.max((la - lg).abs() / la.max(1.0));
        angle = angle.max((a[0] * g[1] - a[1] * g[0]).atan2(a[0] * g[0] + a[1] * g[1]).abs());
    }
    (pos, angle, length)
}

#[test]
fn godot3_crossfades_as_skelpad_compiles_a_sequence() {
    let Some(godot) = godot3() else { return };
    let rig = manifest().join("tests/godot_blend/crossfade.skel2d");
    let project = temp("blend");
    for f in ["project.godot", "blend_probe.tscn", "blend_probe.gd"] {
        std::fs::copy(manifest().join("tests/godot").join(f), project.join(f)).unwrap();
    }
    export(&rig, &project.join("rig.tscn"), "3");
    let fps = 20.0;
    let mut plan = String::new();
    let mut times = Vec::new();
    for c in &CASES {
        let frames = (c.to_length * fps).round() as usize;
        let t: Vec<f64> = (0..=frames).map(|k| k as f64 / fps).collect();
        let list: Vec<String> = t.iter().map(|x| format!("{x}")).collect();
        plan.push_str(&format!(
            "res://rig.tscn\t{}\t{}\t{}\t{}\t{}\n",
            c.from,
            c.to,
            c.from_played,
            c.mix,
            list.join(",")
        ));
        times.push(t);
    }
    std::fs::write(project.join("blend_plan.txt"), plan).unwrap();
    let log = run_godot(&godot, &project, &["res://blend_probe.tscn"], 1);
    assert!(log.contains("PROBE done"), "{log}");
    let played = read(&std::fs::read_to_string(project.join("blend_out.txt")).unwrap());
    assert_eq!(played.len(), CASES.len(), "{log}");
    let (mut pos, mut angle, mut length, mut n) = (0.0_f64, 0.0_f64, 0.0_f64, 0);
    let mut moved = 0.0_f64;
    for ((c, t), got) in CASES.iter().zip(&times).zip(&played) {
        let at: Vec<String> = t.iter().map(|x| format!("{}", c.start + x)).collect();
        let doc = pose_json(&rig, &["--anim", c.sequence, "--times", &at.join(",")]);
        let poses = doc["animations"][0]["poses"].as_array().unwrap();
        assert_eq!(poses.len(), t.len());
        assert_eq!(got.len(), t.len(), "{}", c.sequence);
        for (k, (p, g)) in poses.iter().zip(got).enumerate() {
            for b in p["bones"].as_array().unwrap() {
                let name = b["name"].as_str().unwrap();
                let w = numbers(&b["world"]);
                let want = [w[0], w[1], w[2], w[3], w[4], w[5]];
                let Some(&gm) = g.get(name) else {
                    panic!("{}: no bone {name} at {k}", c.sequence)
                };
                let (dp, da, dl) = apart(want, gm);
                assert!(
                    dp <= 0.01 && da <= 1e-3 && dl <= 1e-3,
                    "{} at {} s, bone {name}: skelpad {want:?}, godot {gm:?}",
                    c.sequence,
                    c.start + t[k]
                );
                (pos, angle, length) = (pos.max(dp), angle.max(da), length.max(dl));
                n += 1;
                // How far the crossfade moves the bone from where the first
                // part alone would be: a check that it is a real blend.
                if k == 0 {
                    continue;
                }
                let first =
                    poses[0]["bones"].as_array().unwrap().iter().find(|x| x["name"] == name);
                let f = numbers(&first.unwrap()["world"]);
                moved = moved.max((f[4] - w[4]).hypot(f[5] - w[5]));
            }
        }
    }
    assert!(moved > 5.0, "the crossfades should move the bones, moved {moved}");
    eprintln!(
        "godot blend: {n} bone poses, worst origin {pos:.2e}, angle {angle:.2e} rad, length {length:.2e}"
    );
}
