//! The easing edit's unit tests, each checked by compiling the result anew
//! and reading the compiled channel's curves.

use super::*;
use skelpad_lang::compile::compile;
use skelpad_lang::model::{Curve, PRESETS};

const RIG: &str = "skeleton\n\ta l10\n\tb l10\nanim \"m\" 20fps 0:5:li\n";

/// The text after setting the easing after key `key` of the `n`-th
/// timeline to `easing`.
fn eased(text: &str, n: usize, key: usize, easing: &str) -> Result<String, String> {
    let comp = compile(text);
    let anim = comp.sources.timelines[n].anim;
    let edits = set_easing(text, &comp, anim, n, key, easing)?;
    Ok(apply(text, &edits))
}

/// Every key of the first bone channel of the compiled text: (time, value,
/// curve), read from the model (not the source map the edit reads).
fn channel(text: &str) -> Vec<(f64, f64, Curve)> {
    let comp = compile(text);
    let a = &comp.armature.animations[0];
    a.bones[0].keys.iter().map(|k| (k.time_secs, k.value, k.curve)).collect()
}

/// `channel` of `after` equals `channel` of `before` but for key `key`,
/// which has `curve` (the last key's curve shapes nothing: not compared).
fn only_changed(before: &str, after: &str, key: usize, curve: Curve) {
    let (a, b) = (channel(before), channel(after));
    assert_eq!(a.len(), b.len());
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!((x.0, x.1), (y.0, y.1), "key {i} moved or changed value");
        if i + 1 < a.len() {
            let want = if i == key { curve } else { x.2 };
            assert_eq!(y.2, want, "key {i}'s easing");
        }
    }
}

#[test]
fn a_preset_goes_into_a_plain_advance() {
    let text = format!("{RIG}\ta\n\t\tr 0 --> 10 --> 20 -> 30\n");
    let out = eased(&text, 0, 0, "ease-out").unwrap();
    // The key after gets its old easing back, so the rest stay linear.
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 ::ease-out--> 10 ::li--> 20 -> 30\n"));
    only_changed(&text, &out, 0, Curve::Eased(Easing::Bezier(PRESETS[2].1)));
}

#[test]
fn an_existing_easing_is_replaced_and_nothing_else() {
    let text = format!("{RIG}\ta\n\t\tr 0 :3:so-> 10 ::sio-> 20 -> 30\n");
    let out = eased(&text, 0, 0, "bz(0.2,-0.5,0.8,1.25)").unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 :3:bz(0.2,-0.5,0.8,1.25)-> 10 ::sio-> 20 -> 30\n"));
    only_changed(&text, &out, 0, Curve::bezier(0.2, -0.5, 0.8, 1.25));
    // And a bezier's numbers are replaced in place.
    let again = eased(&out, 0, 0, "bz(0.3,0,0.7,1)").unwrap();
    assert_eq!(again, format!("{RIG}\ta\n\t\tr 0 :3:bz(0.3,0,0.7,1)-> 10 ::sio-> 20 -> 30\n"));
}

#[test]
fn an_options_token_without_easing_gains_one() {
    let text = format!("{RIG}\ta\n\t\tx 0 14:> 5 :2:-> 9 --> 12\n");
    let out = eased(&text, 0, 0, "back").unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tx 0 14::back> 5 :2:li-> 9 --> 12\n"));
    only_changed(&text, &out, 0, Curve::Eased(Easing::Bezier(PRESETS[6].1)));
    let out = eased(&text, 0, 1, "si").unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tx 0 14:> 5 :2:si-> 9 ::li--> 12\n"));
    only_changed(&text, &out, 1, Curve::Eased(Easing::SineIn));
    let text = format!("{RIG}\ta\n\t\tx 0 +4:> 5 -> 9\n");
    let out = eased(&text, 0, 0, "so").unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tx 0 +4::so> 5 ::li-> 9\n"));
}

#[test]
fn the_next_keys_easing_is_kept_only_where_needed() {
    // The key after has its own easing written: nothing more to write.
    let text = format!("{RIG}\ta\n\t\tr 0 --> 10 ::so-> 20 -> 30\n");
    let out = eased(&text, 0, 0, "si").unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 ::si--> 10 ::so-> 20 -> 30\n"));
    // The segment before the last: the last key's easing shapes nothing.
    let out = eased(&text, 0, 2, "ease").unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 --> 10 ::so-> 20 ::ease-> 30\n"));
    only_changed(&text, &out, 2, Curve::Eased(Easing::Bezier(PRESETS[0].1)));
    // An item's easing is the one kept on the next key.
    let text = format!("{RIG}\ta ::sio\n\t\tr 0 --> 10 --> 20 -> 30\n");
    let out = eased(&text, 0, 1, "li").unwrap();
    assert_eq!(out, format!("{RIG}\ta ::sio\n\t\tr 0 --> 10 ::li--> 20 ::sio-> 30\n"));
    only_changed(&text, &out, 1, Curve::LINEAR);
}

#[test]
fn a_kept_bezier_is_written_back_exactly() {
    let text = format!("{RIG}\ta\n\t\tr 0 ::bz(0.1234,0.5,0.75,1)-> 10 -> 20 -> 30\n");
    let out = eased(&text, 0, 0, "li").unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 ::li-> 10 ::bz(0.1234,0.5,0.75,1)-> 20 -> 30\n"));
    only_changed(&text, &out, 0, Curve::LINEAR);
}

#[test]
fn relative_values_keep_their_values() {
    let text = format!("{RIG}\ta\n\t\tx 0 --> +10 --> +10\n");
    let out = eased(&text, 0, 1, "ease-in").unwrap();
    assert_eq!(out, format!("{RIG}\ta\n\t\tx 0 --> +10 ::ease-in--> +10\n"));
    only_changed(&text, &out, 1, Curve::Eased(Easing::Bezier(PRESETS[1].1)));
}

#[test]
fn refusals_say_why_and_change_nothing() {
    let loop_text = format!("{RIG}\ta\n\t\tr 0 {{ -> 10 -> 0 }}[2]\n");
    let e = eased(&loop_text, 0, 1, "so").unwrap_err();
    assert!(e.contains("loop"), "{e}");
    let text = format!("{RIG}\ta\n\t\tr 0 --> 10\n");
    assert!(eased(&text, 0, 1, "so").unwrap_err().contains("last key"));
    assert!(eased(&text, 0, 0, "wobble").unwrap_err().contains("not an easing"));
    let e = eased(&text, 0, 0, "bz(1.5,0,0.5,1)").unwrap_err();
    assert!(e.contains("0..1"), "{e}");
    let slot = "skeleton\n\ta l10\n\t\t@ :circle d10\nanim \"m\" 20fps\n\t@a\n\t\tc #F00 -> #0F0 -> #00F\n";
    let e = eased(slot, 0, 0, "so").unwrap_err();
    assert!(e.contains("not eased"), "{e}");
    let replaced = format!("{RIG}\ta\n\t\tr 0 --> 10\n\t\tr 0 --> 20\n");
    assert!(eased(&replaced, 0, 0, "so").unwrap_err().contains("replaces"));
    // The same easing again: no edit at all.
    assert_eq!(eased(&text, 0, 0, "li").unwrap(), text);
}

#[test]
fn handles_are_written_with_three_decimals() {
    assert_eq!(
        bezier_text(CubicBezier::new(1.0 / 3.0, -0.0, 0.66666, 1.5)),
        "bz(0.333,0,0.667,1.5)"
    );
    assert_eq!(format_handle(-0.0004), "0");
    // Every starting curve reads back as the bezier it is.
    for e in [Easing::Linear, Easing::SineIn, Easing::SineOut, Easing::SineInOut] {
        let b = as_bezier(e);
        assert_eq!(parse_easing(&bezier_text(b)), Ok(Easing::Bezier(b)));
        // Close to the curve it stands for.
        for i in 0..=20 {
            let t = i as f64 / 20.0;
            assert!((b.progress(t) - e.apply(t)).abs() < 0.02, "{e:?} at {t}");
        }
    }
}
