//! The key edits' unit tests, each checked by compiling the result anew.

use super::*;
use super::{Change, verify};
use crate::edits::key_easing;
use crate::text_edit::{TextEdit as Edit, apply};
use skelpad_lang::compile::compile;
use skelpad_lang::model::AnimId;

/// The text after moving key `key` of the `n`-th timeline of the first
/// animation to `frame`.
fn moved(text: &str, n: usize, key: usize, frame: f64) -> Result<String, String> {
    let comp = compile(text);
    let anim = comp.sources.timelines[n].anim;
    let edits = move_key(text, &comp, anim, n, key, frame)?;
    Ok(apply(text, &edits))
}

/// The frames of every timeline, compiled anew
/// (an independent check of where the keys are).
fn frames(text: &str) -> Vec<Vec<f64>> {
    let comp = compile(text);
    let src = &comp.sources;
    src.timelines.iter().map(|t| src.keys_of(t).iter().map(|k| k.frame).collect()).collect()
}

const RIG: &str = "skeleton\n\ta l10\n\tb l10\nanim \"m\" 20fps 0:5:li\n";

#[test]
fn relative_advances_change_on_both_sides() {
    let text = format!("{RIG}\ta\n\t\tr 0 +4:> 10 +3:> 20 +5:> 30\n");
    let out = moved(&text, 0, 1, 6.0).unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 +6:> 10 +1:> 20 +5:> 30\n"));
    assert_eq!(frames(&out), vec![vec![0.0, 6.0, 7.0, 12.0]]);
}

#[test]
fn plain_advances_become_absolute_frames() {
    let text = format!("{RIG}\ta\n\t\tr 0 --> 10 --> 20 -> 30\n");
    let out = moved(&text, 0, 1, 14.0).unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 14:> 10 20:> 20 -> 30\n"));
    assert_eq!(frames(&out), vec![vec![0.0, 14.0, 20.0, 25.0]]);
    // Earlier works the same way.
    let out = moved(&text, 0, 1, 3.0).unwrap();
    assert_eq!(frames(&out), vec![vec![0.0, 3.0, 20.0, 25.0]]);
}

#[test]
fn a_key_placed_by_an_absolute_frame_changes_its_frame() {
    let text = format!("{RIG}\ta\n\t\tr 0 8:3:so> 10 -> 20\n");
    let out = moved(&text, 0, 1, 5.0).unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 5:3:so> 10 11:> 20\n"));
    assert_eq!(frames(&out), vec![vec![0.0, 5.0, 11.0]]);
}

#[test]
fn the_last_key_moves_and_the_animation_follows() {
    let text = format!("{RIG}\ta\n\t\tr 0 -> 10\n\tb\n\t\tr 0 -> 5\n");
    let out = moved(&text, 0, 1, 12.0).unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 12:> 10\n\tb\n\t\tr 0 -> 5\n"));
    let comp = compile(&out);
    assert!((comp.armature.animations[0].duration_secs - 12.0 / 20.0).abs() < 1e-9);
    assert_eq!(frames(&out), vec![vec![0.0, 12.0], vec![0.0, 5.0]]);
}

#[test]
fn the_first_key_can_move_later_but_not_before_the_start() {
    let text = format!("{RIG}\ta\n\t\tr 0 -> 10\n");
    let out = moved(&text, 0, 0, 2.0).unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 2:> 0 5:> 10\n"));
    assert_eq!(frames(&out), vec![vec![2.0, 5.0]]);
}

#[test]
fn refusals_say_why_and_change_nothing() {
    let on = |line: &str, key: usize, frame: f64| {
        moved(&format!("{RIG}\ta\n\t\t{line}\n"), 0, key, frame).unwrap_err()
    };
    assert!(on("r 0 { -> 5 }[2]", 1, 3.0).contains("loop"), "loop");
    assert!(on("r 0 -> +5 -> 1", 1, 3.0).contains("relative"), "relative");
    assert!(on("r 0 -> 5 -> 1", 1, 10.0).contains("past the key after"), "past next");
    assert!(on("r 0 -> 5 -> 1", 1, 0.0).contains("before the key before"), "onto prev");
    // A reopened item: the first line is replaced by the second.
    let text = format!("{RIG}\ta\n\t\tr 0 -> 5\n\t\tr 0 -> 5\n");
    assert!(moved(&text, 0, 1, 3.0).unwrap_err().contains("replaces"));
    assert!(moved(&text, 1, 1, 3.0).is_ok());
}

#[test]
fn the_check_refuses_edits_that_move_another_key_or_a_value() {
    let text = format!("{RIG}\ta\n\t\tr 0 -> 10 -> 20\n");
    let comp = compile(&text);
    let anim = AnimId::from_index(0);
    let at = |s: &str| text.find(s).unwrap();
    // Moving key 1 to 8 by shortening the first advance moves key 2 too.
    let shorter = Edit::replace(at("-> 10")..at("-> 10") + 2, "8:>");
    assert!(
        verify(&text, &comp, anim, 0, 1, Change::Move(8.0), std::slice::from_ref(&shorter))
            .is_err()
    );
    let keep = Edit::replace(at("-> 20")..at("-> 20") + 2, "10:>");
    assert!(
        verify(&text, &comp, anim, 0, 1, Change::Move(8.0), &[shorter.clone(), keep.clone()])
            .is_ok()
    );
    // A changed value is refused even where the frames hold.
    let value = Edit::replace(at("10 ")..at("10 ") + 2, "11");
    assert!(verify(&text, &comp, anim, 0, 1, Change::Move(8.0), &[shorter, keep, value]).is_err());
}

#[test]
fn deleting_a_key_joins_the_advances_around_it() {
    let del = |line: &str, key: usize| {
        let text = format!("{RIG}\ta\n\t\t{line}\n");
        let comp = compile(&text);
        delete_key(&text, &comp, AnimId::from_index(0), 0, key)
            .map(|e| apply(&text, &e).replace(RIG, "").replace("\ta\n\t\t", ""))
    };
    assert_eq!(del("r 0 +4:> 10 +3:> 20", 1).unwrap(), "r 0 +7:> 20\n");
    assert_eq!(del("r 0 -> 10 -> 20", 1).unwrap(), "r 0 10:> 20\n");
    assert_eq!(del("r 0 -> 10 -> 20", 2).unwrap(), "r 0 -> 10\n");
    assert_eq!(del("r 0 -> 10 -> 20", 0).unwrap(), "r 5:> 10 -> 20\n");
    assert_eq!(del("r 0 8:> 10 -> 20", 1).unwrap(), "r 0 13:> 20\n");
    assert_eq!(del("r 0 -> 10 12:> 20", 1).unwrap(), "r 0 -> 12:> 20\n");
    assert!(del("r 0", 0).unwrap_err().contains("only key"));
    assert!(del("r 0 -> 10 -> +5", 1).unwrap_err().contains("relative"));
    assert!(del("r 0 { -> 10 }", 1).unwrap_err().contains("loop"));
    // Checked independently: the other keys stay.
    let text = format!("{RIG}\ta\n\t\tr 0 -> 10 --> 20 -> 5\n");
    let comp = compile(&text);
    let out = apply(&text, &delete_key(&text, &comp, AnimId::from_index(0), 0, 1).unwrap());
    assert_eq!(frames(&out), vec![vec![0.0, 15.0, 20.0]]);
}

#[test]
fn several_keys_move_together() {
    let text = format!("{RIG}\ta\n\t\tr 0 -> 10 -> 20 -> 30\n\tb\n\t\tr 0 +4:> 10 +3:> 20\n");
    let comp = compile(&text);
    let anim = AnimId::from_index(0);
    // Two neighbours on a, one key on b, two frames later.
    let out = move_keys(&text, &comp, anim, &[(0, 1), (0, 2), (1, 1)], 2.0).unwrap();
    assert_eq!(frames(&out), vec![vec![0.0, 7.0, 12.0, 15.0], vec![0.0, 6.0, 7.0]]);
    // And back: the same keys, two frames earlier.
    let back = move_keys(&out, &compile(&out), anim, &[(0, 1), (0, 2), (1, 1)], -2.0).unwrap();
    assert_eq!(frames(&back), frames(&text));
    // One of them would pass its neighbour: refused.
    assert!(move_keys(&text, &comp, anim, &[(0, 1), (1, 1)], 3.0).is_err());
}

#[test]
fn slot_keys_move_too() {
    let text = "skeleton\n\ta l10\n\t\t@ :circle d10\nanim \"m\" 20fps\n\t@a\n\t\tc #F00 -> #0F0 -> #00F\n";
    let comp = compile(text);
    let name = target_name(&comp, comp.sources.timelines[0].target);
    assert_eq!(name, "@a.a");
    let out = moved(text, 0, 1, 7.0).unwrap();
    assert_eq!(out, text.replace("#F00 -> #0F0 -> #00F", "#F00 7:> #0F0 10:> #00F"));
    assert_eq!(frames(&out), vec![vec![0.0, 7.0, 10.0]]);
}

#[test]
fn a_key_is_inserted_between_others_which_stay() {
    let ins = |line: &str, frame: f64, value: &str| {
        let text = format!("{RIG}\ta\n\t\t{line}\n");
        let comp = compile(&text);
        insert_key(&text, &comp, AnimId::from_index(0), 0, frame, value)
            .map(|e| apply(&text, &e).replace(RIG, "").replace("\ta\n\t\t", ""))
    };
    assert_eq!(ins("r 0 -> 10", 3.0, "7").unwrap(), "r 0 3:> 7 5:> 10\n");
    assert_eq!(ins("r 0 +4:> 10", 3.0, "7").unwrap(), "r 0 3:> 7 +1:> 10\n");
    assert_eq!(ins("r 0 -> 10", 9.0, "7").unwrap(), "r 0 -> 10 9:> 7\n");
    assert!(ins("r 0 -> 10", 5.0, "7").unwrap_err().contains("already"));
    assert!(ins("r 5:> 0 -> 10", 2.0, "7").unwrap_err().contains("first key"));
    assert!(ins("r 0 -> +10", 3.0, "7").unwrap_err().contains("relative"));
    let text = format!("{RIG}\ta\n\t\tr 0 -> 10 -> 20\n");
    let comp = compile(&text);
    let out = apply(&text, &insert_key(&text, &comp, AnimId::from_index(0), 0, 7.0, "3").unwrap());
    assert_eq!(frames(&out), vec![vec![0.0, 5.0, 7.0, 10.0]]);
}

#[test]
fn keys_know_their_easing_from_the_compiled_animation() {
    let text = "skeleton\n\ta l10\nanim \"m\" 20fps 0:5:so\n\ta\n\t\tr 0 -> 10 :li-> 20\n";
    let comp = compile(text);
    let tl = &comp.sources.timelines[0];
    let easings: Vec<_> =
        comp.sources.keys_of(tl).iter().map(|k| key_easing(&comp, tl.anim, tl, k)).collect();
    use skelpad_lang::model::Easing;
    assert_eq!(easings, vec![Some(Easing::SineOut), Some(Easing::Linear), Some(Easing::Linear)]);
}

#[test]
fn the_walk_cycle_moves_a_key_and_keeps_the_others() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/walk_cycle.skel2d"
    ))
    .unwrap();
    let comp = compile(&text);
    let before = frames(&text);
    // thigh-l's `r 25 --> -25 --> 25`: the key at 10 goes to 14.
    let n = comp
        .sources
        .timelines
        .iter()
        .position(|t| target_name(&comp, t.target).ends_with("thigh-l"))
        .unwrap();
    assert_eq!(before[n], vec![0.0, 10.0, 20.0]);
    let out = moved(&text, n, 1, 14.0).unwrap();
    let mut want = before.clone();
    want[n][1] = 14.0;
    assert_eq!(frames(&out), want);
    // Only the two advances around the key changed.
    assert_eq!(out.replace("r 25 14:> -25 20:> 25", "r 25 --> -25 --> 25"), text);
}

#[test]
fn a_first_key_placed_by_a_frame_option_goes_back_to_the_start() {
    let text = format!("{RIG}\ta\n\t\tr 4:> 0 --> 30\n");
    // Onto frame 0: the option goes, the next key stays at 14.
    let out = moved(&text, 0, 0, 0.0).unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 14:> 30\n"));
    assert_eq!(frames(&out), vec![vec![0.0, 14.0]]);
    // Between: the option's frame changes.
    let out = moved(&text, 0, 0, 2.0).unwrap();
    assert_eq!(frames(&out), vec![vec![2.0, 14.0]]);
    // Its step and easing stay when its frame goes.
    let text = format!("{RIG}\ta\n\t\tr 4:3:so> 0 -> 30\n");
    let out = moved(&text, 0, 0, 0.0).unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr :3:so> 0 7:> 30\n"));
    assert_eq!(frames(&out), vec![vec![0.0, 7.0]]);
    // A relative start shrinks.
    let text = format!("{RIG}\ta\n\t\tr +4:> 0 -> 30\n");
    assert_eq!(frames(&moved(&text, 0, 0, 1.0).unwrap()), vec![vec![1.0, 9.0]]);
}

#[test]
fn a_first_key_where_its_timeline_starts_cannot_go_earlier() {
    let text = "skeleton\n\ta l10\nanim \"m\" 20fps\n\ta 4:\n\t\tr 0 -> 30\n";
    let err = moved(text, 0, 0, 1.0).unwrap_err();
    assert!(err.contains("starts at frame 4"), "{err}");
    assert!(moved(text, 0, 0, 6.0).is_ok());
}

#[test]
fn an_inserted_value_is_what_the_animation_has_there() {
    let at = |line: &str, frame: f64| {
        let text = format!("{RIG}\ta\n\t\t{line}\n");
        let comp = compile(&text);
        value_at(&text, &comp, AnimId::from_index(0), 0, frame)
    };
    assert_eq!(at("r 0 -> 30", 1.0).unwrap(), "6");
    // After the last key: its value.
    assert_eq!(at("r 0 -> 30", 9.0).unwrap(), "30");
    // Rotations turn the shorter way: 170 to -170 passes 180.
    assert_eq!(at("r 170 -> -170", 2.5).unwrap(), "180");
    // Eased (sine-out from the first key): sin(pi/4) of the way.
    let v: f64 = at("r 0 :so-> 100", 2.5).unwrap().parse().unwrap();
    assert!((v - 100.0 * (std::f64::consts::FRAC_PI_4).sin()).abs() < 0.01, "{v}");
    assert!(at("r 5:> 0 -> 30", 1.0).unwrap_err().contains("first key"));
}

#[test]
fn a_key_inserted_for_a_property_holds_the_pose_it_was_inserted_at() {
    use skelpad_lang::compile::Target;
    use skelpad_lang::model::{BoneId, SkinId};
    use skelpad_lang::syntax::tree::TimelineProp;
    let text = format!("{RIG}\ta\n\t\tr 0 :so-> 90 -> 30\n\t\tx 0 20:> 10\n");
    let comp = compile(&text);
    let anim = AnimId::from_index(0);
    let a = Target::Bone(BoneId::from_index(0));
    let pose = |t: &str, frame: f64| {
        let c = compile(t);
        skelpad_lang::runtime::evaluate(&c.armature, Some(anim), SkinId::default(), frame / 20.0)
            .bones[0]
            .local
    };
    for (prop, frame) in [(TimelineProp::Rotation, 7.0), (TimelineProp::X, 13.0)] {
        let edits = insert_key_for(&text, &comp, anim, a, prop, frame).unwrap();
        let out = apply(&text, &edits);
        // A new key at that frame, the others where they were.
        let tl = if prop == TimelineProp::X { 1 } else { 0 };
        assert!(frames(&out)[tl].contains(&frame), "{out}");
        assert_eq!(frames(&out)[tl].len(), frames(&text)[tl].len() + 1);
        // The pose at that frame is what it was (to the two decimals the
        // value is written with).
        let (before, after) = (pose(&text, frame), pose(&out, frame));
        assert!(
            (before.rotation_rad - after.rotation_rad).to_degrees().abs() < 0.01,
            "{before:?} {after:?}"
        );
        assert!((before.x - after.x).abs() < 0.01, "{before:?} {after:?}");
    }
    // Refused, saying what to write: no such timeline, a key already
    // there, on or before the first key, out of range.
    let e = insert_key_for(&text, &comp, anim, a, TimelineProp::Y, 12.0).unwrap_err();
    assert!(e.contains("`y 12:> VALUE` under a `a` item"), "{e}");
    let e = insert_key_for(&text, &comp, anim, a, TimelineProp::Rotation, 5.0).unwrap_err();
    assert!(e.contains("already at frame 5"), "{e}");
    let e = insert_key_for(&text, &comp, anim, a, TimelineProp::Rotation, 0.0).unwrap_err();
    assert!(e.contains("first key") || e.contains("already"), "{e}");
    assert!(insert_key_for(&text, &comp, anim, a, TimelineProp::X, -1.0).is_err());
    // A key inside a segment whose easing an option after it sets would
    // change the easing of the key before it: refused.
    let t = format!("{RIG}\ta\n\t\tr 0 -> 90 :so-> 30\n");
    let e = insert_key_for(&t, &compile(&t), anim, a, TimelineProp::Rotation, 7.0).unwrap_err();
    assert!(e.contains("easing would change"), "{e}");
    assert!(insert_key_for(&text, &comp, anim, a, TimelineProp::X, f64::NAN).is_err());
}

#[test]
fn an_options_token_made_absolute_keeps_its_step_and_easing() {
    for (tok, want) in [
        ("-->", "14:>"),
        ("10:->", "14:>"),
        (":3:so->", "14:3:so>"),
        (":so->", "14::so>"),
        ("3:so->", "14:3:so>"),
        (":2.5->", "14:2.5>"),
    ] {
        assert_eq!(absolute(tok, 14.0), want, "{tok}");
        // What the compiler reads: frame 14, the step and easing kept.
        let o = skelpad_lang::syntax::token::options(want, true).unwrap();
        let before = skelpad_lang::syntax::token::options(tok, true).unwrap_or_default();
        assert_eq!(o.frame.map(|f| f.value), Some(14.0), "{want}");
        assert_eq!((o.step, o.easing, o.advance), (before.step, before.easing, 0), "{want}");
    }
}

#[test]
fn keying_an_item_keys_each_property_once() {
    let text = format!("{RIG}\ta\n\t\tr 0 -> 30\n\t\tx 0 3:> 6 -> 10\n");
    let comp = compile(&text);
    let anim = AnimId::from_index(0);
    // Both timelines at frame 3: `x` has a key there and keeps it.
    let out = insert_keys(&text, &comp, anim, &[0, 1], 3.0).unwrap();
    assert_eq!(out, text.replace("r 0 -> 30", "r 0 3:> 18 5:> 30"));
    assert_eq!(frames(&out), vec![vec![0.0, 3.0, 5.0], vec![0.0, 3.0, 8.0]]);
    // Every one keyed there already: said, nothing changed.
    let e = insert_keys(&out, &compile(&out), anim, &[0, 1], 3.0).unwrap_err();
    assert!(e.contains("has a key at frame 3 already"), "{e}");
    // One timeline alone is keyed or refused with its name.
    let e = insert_keys(&text, &comp, anim, &[1], 3.0).unwrap_err();
    assert!(e.starts_with("a X: ") && e.contains("already"), "{e}");
}
