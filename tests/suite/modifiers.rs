//! Timing modifiers (LANGUAGE-EXT.md, "Timing modifiers"): the laws they
//! obey, checked on generated animations by playing them (world matrices
//! of every bone at many times), and what each does in a script.
//!
//! - reverse ∘ reverse = identity;
//! - mirror ∘ mirror = identity on a symmetric rig, and mirror puts each
//!   bone where the world mirror image of its partner is; swap ∘ swap =
//!   identity;
//! - a delay (or a chain delay) of a whole loop = identity;
//! - ping-pong of a palindrome = the palindrome played twice;
//! - after `cycle` the pose at the end is the pose at 0, and cycle is
//!   idempotent.
//!
//! Case counts keep this file to a few seconds in a debug build; set
//! `PROPTEST_CASES=N` for a longer run.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use proptest::prelude::*;
use skelpad::compile::compile;
use skelpad::compile::modifiers::{cycled, mirrored, ping_ponged, reversed, swapped};
use skelpad::model::{AnimId, Animation, Armature, SkinId};
use skelpad::runtime::{Pose, evaluate};

fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    ProptestConfig { cases: n, ..ProptestConfig::default() }
}

/// A rig symmetric about the vertical axis: partners' setups are mirror
/// images (roots: x negated, rotation 180 − r; children: y and rotation
/// negated), and bones without a partner sit on the axis.
const RIG: &str = "skeleton\n\
\thip y10 r90 l20\n\
\thip.head x20 l10\n\
\thip.arm-l x15 y3 r70 l12\n\
\thip.arm-r x15 y-3 r-70 l12\n\
\thip.arm-l.hand-l x12 y1 r25 l5\n\
\thip.arm-r.hand-r x12 y-1 r-25 l5\n\
\teye-l x-4 y30 r200\n\
\teye-r x4 y30 r-20\n";

const BONES: [&str; 8] = ["hip", "head", "arm-l", "arm-r", "hand-l", "hand-r", "eye-l", "eye-r"];

/// A timeline line: property, values, a step and an easing.
fn timeline() -> impl Strategy<Value = String> {
    let prop = prop::sample::select(vec!["x", "y", "r", "i", "j"]);
    let easing = prop::sample::select(vec!["li", "si", "so", "sio"]);
    (prop, prop::collection::vec(-40i32..40, 1..5), 1u32..6, easing).prop_map(
        |(p, vals, step, e)| {
            let vals: Vec<String> = vals
                .iter()
                .map(|v| {
                    if p == "i" || p == "j" {
                        format!("{}", 1.0 + f64::from(*v) / 50.0)
                    } else {
                        v.to_string()
                    }
                })
                .collect();
            format!("\t\t{p} :{step}:{e}> {}\n", vals.join(" -> "))
        },
    )
}

/// An animation of some of [`BONES`], at 10 fps.
fn animation(name: &'static str) -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(BONES.to_vec()), 0u32..4, timeline()), 1..6)
        .prop_map(move |items| {
            let mut s = format!("anim \"{name}\" 10fps\n");
            for (b, start, tl) in items {
                s.push_str(&format!("\t{b} {start}:\n{tl}"));
            }
            s
        })
}

/// Every bone's world matrix at `t`.
fn pose(arm: &Armature, a: &Animation, t: f64) -> Pose {
    let one = Armature {
        skeleton: arm.skeleton.clone(),
        animations: vec![std::sync::Arc::new(a.clone())],
    };
    evaluate(&one, Some(AnimId(0)), SkinId(0), t)
}

fn same_poses(
    arm: &Armature,
    a: &Animation,
    b: &Animation,
    times: impl Iterator<Item = (f64, f64)>,
) -> Result<(), TestCaseError> {
    for (ta, tb) in times {
        let (pa, pb) = (pose(arm, a, ta), pose(arm, b, tb));
        for (i, (x, y)) in pa.bones.iter().zip(&pb.bones).enumerate() {
            let (x, y) = (x.world.to_array(), y.world.to_array());
            for k in 0..6 {
                prop_assert!(
                    (x[k] - y[k]).abs() < 1e-7,
                    "bone {} at {ta} / {tb}: {x:?} vs {y:?}",
                    arm.skeleton.bones[i].name
                );
            }
        }
    }
    Ok(())
}

/// 41 times over [0, d].
fn times(d: f64) -> impl Iterator<Item = f64> {
    (0..=40).map(move |i| d * f64::from(i) / 40.0)
}

proptest! {
    #![proptest_config(cases(64))]

    #[test]
    fn reverse_twice_is_the_identity(anim in animation("a")) {
        let comp = compile(&format!("{RIG}{anim}"));
        let a = &comp.armature.animations[0];
        let rr = reversed(&reversed(a));
        same_poses(&comp.armature, a, &rr, times(a.duration_secs).map(|t| (t, t)))?;
        // And once: the pose at t is the pose at d − t (off the frames: a
        // timeline that starts late jumps from the setup value at its first
        // key, and a jump reversed happens just before the time, not at it).
        let r = reversed(a);
        let d = a.duration_secs;
        let off = (0..40).map(|i| d * (f64::from(i) + 0.37) / 40.0);
        same_poses(&comp.armature, a, &r, off.map(|t| (t, d - t)))?;
    }

    #[test]
    fn mirror_twice_is_the_identity_and_mirror_is_the_world_mirror_image(anim in animation("a")) {
        let comp = compile(&format!("{RIG}{anim}"));
        let arm = &comp.armature;
        let a = &arm.animations[0];
        let mm = mirrored(&arm.skeleton, &mirrored(&arm.skeleton, a));
        same_poses(arm, a, &mm, times(a.duration_secs).map(|t| (t, t)))?;
        let ss = swapped(&arm.skeleton, &swapped(&arm.skeleton, a));
        same_poses(arm, a, &ss, times(a.duration_secs).map(|t| (t, t)))?;
        // Each bone of the mirrored animation is where the mirror image
        // (x → −x) of its partner is in the original, pointing the mirrored
        // way.
        let m = mirrored(&arm.skeleton, a);
        let sk = &arm.skeleton;
        let partner = |i: usize| {
            let n = &sk.bones[i].name;
            let p = n.replace("-l", "-R").replace("-r", "-l").replace("-R", "-r");
            sk.bones.iter().position(|b| b.name == p).unwrap_or(i)
        };
        for t in times(a.duration_secs) {
            let (pa, pm) = (pose(arm, a, t), pose(arm, &m, t));
            for i in 0..sk.bones.len() {
                let (ox, oy) = pa.bones[partner(i)].world.apply(0.0, 0.0);
                let (mx, my) = pm.bones[i].world.apply(0.0, 0.0);
                prop_assert!((mx + ox).abs() < 1e-7 && (my - oy).abs() < 1e-7, "{} at {t}: ({mx}, {my}) vs partner ({ox}, {oy})", sk.bones[i].name);
                let (ax, ay) = pa.bones[partner(i)].world.apply_vector(1.0, 0.0);
                let (bx, by) = pm.bones[i].world.apply_vector(1.0, 0.0);
                prop_assert!((bx + ax).abs() < 1e-7 && (by - ay).abs() < 1e-7, "{} at {t}: axis", sk.bones[i].name);
            }
        }
    }

    #[test]
    fn cycle_closes_the_loop_and_is_idempotent(anim in animation("a")) {
        let comp = compile(&format!("{RIG}{anim}"));
        let arm = &comp.armature;
        let a = &arm.animations[0];
        let c = cycled(&arm.skeleton, a);
        let d = a.duration_secs;
        prop_assert_eq!(c.duration_secs, d);
        same_poses(arm, &c, &c, std::iter::once((d, 0.0)))?;
        let cc = cycled(&arm.skeleton, &c);
        same_poses(arm, &c, &cc, times(d).map(|t| (t, t)))?;
        // Nothing changes before the last key of a timeline (the one before
        // it, for a timeline whose last key is at the end and is replaced).
        let last_key = a
            .bones
            .iter()
            .map(|ch| match ch.keys.as_slice() {
                [.., p, k] if k.time_secs >= d => p.time_secs,
                [k] if k.time_secs >= d => 0.0,
                [.., k] => k.time_secs,
                [] => d,
            })
            .fold(d, f64::min);
        same_poses(arm, a, &c, times(last_key).map(|t| (t, t)))?;
    }

    #[test]
    fn a_delay_of_a_whole_loop_is_the_identity(anim in animation("a"), item in 0usize..5, chain in any::<bool>(), loops in 1u32..3) {
        let plain = compile(&format!("{RIG}{anim}"));
        let a = &plain.armature.animations[0];
        let frames = (a.duration_secs * a.fps).round() as u32;
        // The same animation with `delay N` (or `chain N`) on one item, N
        // a whole number of loops.
        let word = if chain { "chain" } else { "delay" };
        let mut seen = 0;
        let delayed: String = anim
            .lines()
            .map(|l| {
                if l.starts_with('\t') && !l.starts_with("\t\t") {
                    seen += 1;
                    if seen == item + 1 {
                        return format!("{l} {word} {}\n", frames * loops);
                    }
                }
                format!("{l}\n")
            })
            .collect();
        let comp = compile(&format!("{RIG}{delayed}"));
        prop_assert!(comp.diagnostics.iter().all(|d| !d.is_error()), "{:?}", comp.diagnostics);
        let b = &comp.armature.animations[0];
        prop_assert!(b.bone_delays.is_empty(), "{:?}", b.bone_delays);
        same_poses(&plain.armature, a, b, times(a.duration_secs).map(|t| (t, t)))?;
    }

    #[test]
    fn ping_pong_of_a_palindrome_is_the_palindrome_twice(
        half in prop::collection::vec((prop::sample::select(BONES.to_vec()), prop::collection::vec(-40i32..40, 1..4)), 1..4),
        step in 1u32..5,
    ) {
        // Each timeline goes v0 … vk … v0 with a constant step and a
        // symmetric easing, all from frame 0: the animation is a palindrome.
        let mut s = format!("{RIG}anim \"a\" 10fps 0:{step}:sio\n");
        let longest = half.iter().map(|h| h.1.len()).max().unwrap_or(1);
        for (b, vals) in &half {
            // Pad to one length so every timeline ends at the same frame.
            let mut v = vals.clone();
            while v.len() < longest {
                v.push(*v.last().unwrap());
            }
            let mut all = v.clone();
            all.push(40);
            all.extend(v.iter().rev());
            let text: Vec<String> = all.iter().map(i32::to_string).collect();
            s.push_str(&format!("\t{b}\n\t\tr {}\n", text.join(" -> ")));
        }
        let comp = compile(&s);
        let a = &comp.armature.animations[0];
        let d = a.duration_secs;
        // It is a palindrome: the pose at t is the pose at d − t.
        same_poses(&comp.armature, a, a, times(d).map(|t| (t, d - t)))?;
        let pp = ping_ponged(a);
        prop_assert!((pp.duration_secs - 2.0 * d).abs() < 1e-12);
        same_poses(&comp.armature, &pp, a, times(2.0 * d).map(|u| (u, if u > d { u - d } else { u })))?;
    }
}

/// The modifiers written in a script play what the functions above give,
/// and their mistakes are reported.
#[test]
fn header_modifiers_in_a_script() {
    let text = format!(
        "{RIG}anim \"a\" 10fps\n\tarm-l\n\t\tr 0 -> 40 -> 10\n\t!hit\n\t\ts \"hand-l\" -> \"hand-r\"\n\
         anim \"m\" from \"a\" mirror\nanim \"r\" from \"a\" reverse\nanim \"p\" from \"a\" pingpong\n\
         anim \"mr\" from \"a\" mirror reverse\nanim \"x\" from \"nope\"\nanim \"y\" from \"m\"\n\
         anim \"s\" from \"a\" swap\n"
    );
    let comp = compile(&text);
    let msgs: Vec<&str> = comp.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert!(msgs.contains(&"unknown animation \"nope\""), "{msgs:?}");
    assert!(msgs.contains(&"\"m\" is itself made `from` another animation"), "{msgs:?}");
    let arm = &comp.armature;
    let by = |n: &str| arm.animations.iter().find(|a| a.name == n).unwrap().clone();
    let (a, m, r, p, mr, sw) = (by("a"), by("m"), by("r"), by("p"), by("mr"), by("s"));
    let d = a.duration_secs;
    assert_eq!(d, 1.0);
    let sk = &arm.skeleton;
    let cmp = |x: &Animation, y: &Animation| {
        same_poses(arm, x, y, times(d).map(|t| (t, t))).unwrap();
    };
    cmp(&m, &mirrored(sk, &a));
    cmp(&r, &reversed(&a));
    cmp(&mr, &reversed(&mirrored(sk, &a)));
    cmp(&sw, &swapped(sk, &a));
    // swap moves arm-l's rotation to arm-r unchanged: +40 at 0.5 s.
    let rot = |x: &Animation, bone: &str| {
        let i = sk.bones.iter().position(|b| b.name == bone).unwrap();
        let setup = sk.bones[i].setup.rotation_rad;
        (pose(arm, x, 0.5).bones[i].local.rotation_rad - setup).to_degrees()
    };
    assert!((rot(&sw, "hip.arm-r") - 40.0).abs() < 1e-9, "{}", rot(&sw, "hip.arm-r"));
    assert!((rot(&m, "hip.arm-r") + 40.0).abs() < 1e-9, "{}", rot(&m, "hip.arm-r"));
    assert_eq!(p.duration_secs, 2.0);
    // Events: mirrored payloads, reversed times, and there and back again.
    let ev = |x: &Animation| -> Vec<(f64, String)> {
        x.events
            .iter()
            .map(|e| {
                let p = match &e.payload {
                    skelpad::model::EventPayload::Text(t) => t.clone(),
                    _ => String::new(),
                };
                (e.time_secs, p)
            })
            .collect()
    };
    assert_eq!(ev(&a), [(0.0, "hand-l".into()), (0.5, "hand-r".into())]);
    assert_eq!(ev(&m), [(0.0, "hand-r".into()), (0.5, "hand-l".into())]);
    assert_eq!(ev(&sw), ev(&m));
    assert_eq!(ev(&r), [(0.5, "hand-r".into()), (1.0, "hand-l".into())]);
    assert_eq!(ev(&p), [(0.0, "hand-l".into()), (0.5, "hand-r".into()), (1.5, "hand-r".into())]);
}

/// `delay N` plays an item's bone N frames late, wrapping around the loop;
/// `chain N` delays each bone below the item's bone N frames per
/// generation.
#[test]
fn item_delays_in_a_script() {
    // x of arm-l: 0 at frame 0, 10 at frame 5, 0 at frame 10 (1 s).
    let text = format!(
        "{RIG}anim \"a\" 10fps\n\tarm-l\n\t\tx 0 -> 10 -> 0\n\thand-l\n\t\tx 0 -> 10 -> 0\n\
         anim \"d\" 10fps\n\tarm-l delay 3\n\t\tx 0 -> 10 -> 0\n\thand-l\n\t\tx 0 -> 10 -> 0\n\
         anim \"c\" 10fps\n\tarm-l chain 2\n\t\tx 0 -> 10 -> 0\n\thand-l\n\t\tx 0 -> 10 -> 0\n"
    );
    let comp = compile(&text);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    let arm = &comp.armature;
    let local_x = |name: &str, bone: usize, t: f64| {
        let id = arm.animation_by_name(name).unwrap();
        evaluate(arm, Some(id), SkinId(0), t).bones[bone].local.x
    };
    let index = |n: &str| arm.skeleton.bones.iter().position(|b| b.name == n).unwrap();
    let (arm_l, hand_l) = (index("hip.arm-l"), index("hip.arm-l.hand-l"));
    // Setup x of arm-l is 15, of hand-l 12.
    // delay 3: at 0.8 s arm-l plays 0.5 s (x +10); at 0.1 s it plays 0.8 s
    // (wrapped: +4); hand-l is not delayed.
    assert!((local_x("d", arm_l, 0.8) - 25.0).abs() < 1e-9);
    assert!((local_x("d", arm_l, 0.1) - 19.0).abs() < 1e-9);
    assert!((local_x("d", hand_l, 0.5) - 22.0).abs() < 1e-9);
    // chain 2: arm-l itself on time, hand-l (one below) 2 frames late.
    assert!((local_x("c", arm_l, 0.5) - 25.0).abs() < 1e-9);
    assert!((local_x("c", hand_l, 0.7) - 22.0).abs() < 1e-9);
    assert!((local_x("c", hand_l, 0.1) - (12.0 + 2.0)).abs() < 1e-9);
}

/// `delay N` on a slot item plays the slot's color and attachment
/// timelines N frames late, wrapping around the loop (values worked out by
/// hand from the keys); `chain` is for bones and is an error on a slot; a
/// delay of a whole loop changes nothing.
#[test]
fn slot_delays_in_a_script() {
    let rig = "skeleton\n\tb l10\n\t\t@[on] :rect w4 h4\n\t\t@[off] :circle d4\n";
    // Alpha: 1 at frame 0, 0 at frame 5, 1 at frame 10 (1 s at 10 fps);
    // the attachment switches to `off` at frame 5.
    let item = "\t\ta 1 -> 0 -> 1\n\t\t@ on 5:> off\n";
    let text = format!(
        "{rig}anim \"a\" 10fps\n\t@b\n{item}anim \"d\" 10fps\n\t@b delay 3\n{item}\
         anim \"w\" 10fps\n\t@b delay 10\n{item}"
    );
    let comp = compile(&text);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    let arm = &comp.armature;
    let slot = |name: &str, t: f64| {
        let id = arm.animation_by_name(name).unwrap();
        let p = evaluate(arm, Some(id), SkinId(0), t);
        let s = &p.slots[0];
        let att = s.attachment.map(|a| arm.skeleton.attachments[a.index()].name.clone());
        (s.color.to_array()[3], att.unwrap_or_default())
    };
    // delay 3: at 0.8 s the slot plays 0.5 s (alpha 0, `off`); at 0.1 s it
    // plays 0.8 s (wrapped: alpha 0.6, `off`); at 0.4 s it plays 0.1 s.
    let (a, att) = slot("d", 0.8);
    assert!(a.abs() < 1e-9 && att == "off", "{a} {att}");
    let (a, att) = slot("d", 0.1);
    assert!((a - 0.6).abs() < 1e-9 && att == "off", "{a} {att}");
    let (a, att) = slot("d", 0.4);
    assert!((a - 0.8).abs() < 1e-9 && att == "on", "{a} {att}");
    // A whole loop: the same as no delay, at every tenth of a second.
    for i in 0..10 {
        let t = f64::from(i) / 10.0;
        assert_eq!(slot("w", t), slot("a", t), "at {t}");
    }
    let bad = compile(&format!("{rig}anim \"c\"\n\t@b chain 2\n\t\ta 1 -> 0\n"));
    assert!(
        bad.diagnostics
            .iter()
            .any(|d| d.is_error() && d.message.contains("a slot item takes `delay`")),
        "{:?}",
        bad.diagnostics
    );
}
