//! Transitions and layers (LANGUAGE-EXT.md, "Transitions and layers"):
//! sequences, `mix` times and `add` layers, checked on hand-worked
//! numbers, and their errors. Godot's `AnimationPlayer` checks the
//! crossfade in `godot_blend.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use skelpad::compile::compile;
use skelpad::model::SkinId;
use skelpad::runtime::evaluate;
use skelpad::syntax::Severity;

/// `a` at 10 fps: x 0 → 10 and r 0 → 90 over 1 s; `b`: x 20, r 60 held
/// for 1 s.
const RIG: &str = "skeleton\n\tarm l20\n\tarm.hand x20 l5\n\
anim \"a\" 10fps\n\tarm\n\t\tx 0 10:> 10\n\t\tr 0 10:> 90\n\
anim \"b\" 10fps\n\tarm\n\t\tx 20 10:> 20\n\t\tr 60 10:> 60\n";

/// The arm's local x and rotation (degrees) in animation `name` at `t`.
fn arm(text: &str, name: &str, t: f64) -> (f64, f64) {
    let comp = compile(text);
    let errors: Vec<_> = comp.diagnostics.iter().filter(|d| d.is_error()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let id = comp.armature.animation_by_name(name).unwrap();
    let p = evaluate(&comp.armature, Some(id), SkinId(0), t);
    (p.bones[0].local.x, p.bones[0].local.rotation_rad.to_degrees())
}

fn close(got: (f64, f64), want: (f64, f64)) {
    assert!(
        (got.0 - want.0).abs() < 1e-9 && (got.1 - want.1).abs() < 1e-9,
        "got {got:?}, want {want:?}"
    );
}

#[test]
fn a_sequence_crossfades_linearly_over_the_mix_time() {
    let text =
        format!("{RIG}mix 0.4s\n\t\"a\" \"b\" 0.5s\nanim \"ab\"\n\t\"a\" loops 2\n\t\"b\"\n");
    let comp = compile(&text);
    let ab = comp.armature.animation(comp.armature.animation_by_name("ab").unwrap()).unwrap();
    // a twice (2 s), b starts 0.5 s before that ends and plays 1 s.
    assert!((ab.duration_secs - 2.5).abs() < 1e-12);
    assert!((ab.fps - 10.0).abs() < 1e-12, "the first part's rate");
    // Before the crossfade: a, looping (1.2 s is a's 0.2 s).
    close(arm(&text, "ab", 1.2), (2.0, 18.0));
    // 1.5 s: weight 0, a at 0.5 s.
    close(arm(&text, "ab", 1.5), (5.0, 45.0));
    // 1.7 s (a frame): weight 0.4, a at 0.7 s (x 7, r 63), b (20, 60):
    // x 7 + 0.4 (20 − 7) = 12.2, r 63 + 0.4 (60 − 63) = 61.8.
    close(arm(&text, "ab", 1.7), (12.2, 61.8));
    // 1.8 s: weight 0.6, a (8, 72): x 15.2, r 64.8.
    close(arm(&text, "ab", 1.8), (15.2, 64.8));
    // From 2 s: b alone.
    close(arm(&text, "ab", 2.0), (20.0, 60.0));
    close(arm(&text, "ab", 2.5), (20.0, 60.0));
    // Between frames the keys are linear: 1.75 s is halfway 1.7 → 1.8.
    close(arm(&text, "ab", 1.75), (13.7, 63.3));
}

#[test]
fn the_default_mix_holds_for_pairs_without_a_line() {
    let text = format!("{RIG}mix 0.5s\nanim \"ba\"\n\t\"b\"\n\t\"a\"\n");
    // b (1 s), a starts at 0.5 s: at 0.7 s weight 0.4, a at 0.2 s (2, 18):
    // x 20 + 0.4 (2 − 20) = 12.8, r 60 + 0.4 (18 − 60) = 43.2.
    close(arm(&text, "ba", 0.7), (12.8, 43.2));
    // Without any mix: an instant switch at b's end.
    let cut = format!("{RIG}anim \"ba\"\n\t\"b\"\n\t\"a\"\n");
    close(arm(&cut, "ba", 0.9), (20.0, 60.0));
    close(arm(&cut, "ba", 1.2), (2.0, 18.0));
}

#[test]
fn rotations_blend_the_shorter_way() {
    // 170° into −170°: halfway is 180°, not 0°.
    let text = "skeleton\n\tarm l20\n\
anim \"p\" 10fps\n\tarm\n\t\tr 170 10:> 170\n\
anim \"q\" 10fps\n\tarm\n\t\tr -170 10:> -170\n\
mix 1s\nanim \"pq\"\n\t\"p\"\n\t\"q\"\n";
    let r = arm(text, "pq", 0.5).1.rem_euclid(360.0);
    assert!((r - 180.0).abs() < 1e-9, "{r}");
    let r = arm(text, "pq", 0.2).1.rem_euclid(360.0);
    // Weight 0.2 along the 20° between them: 174°.
    assert!((r - 174.0).abs() < 1e-9, "{r}");
}

#[test]
fn an_additive_layer_adds_its_offsets_times_the_weight() {
    let text = format!("{RIG}anim \"a+b\" from \"a\" add \"b\" 0.5\nanim \"b-alone\" add \"b\"\n");
    // a at 0.5 s (5, 45) + 0.5 × (20, 60).
    close(arm(&text, "a+b", 0.5), (15.0, 75.0));
    close(arm(&text, "a+b", 0.0), (10.0, 30.0));
    // Without keys of its own: the layer over the setup, as long as it.
    close(arm(&text, "b-alone", 0.3), (20.0, 60.0));
}

#[test]
fn events_of_each_part_fire_at_their_times() {
    let text = format!(
        "{RIG}anim \"e\" 10fps\n\tarm\n\t\tx 0 10:> 0\n\t!step\n\t\te 2:> !\n\
mix 0.5s\nanim \"seq\"\n\t\"e\" loops 2\n\t\"b\"\n"
    );
    let comp = compile(&text);
    let seq = comp.armature.animation(comp.armature.animation_by_name("seq").unwrap()).unwrap();
    let times: Vec<f64> = seq.events.iter().map(|e| e.time_secs).collect();
    assert_eq!(times.len(), 2, "{times:?}");
    assert!((times[0] - 0.2).abs() < 1e-12 && (times[1] - 1.2).abs() < 1e-12, "{times:?}");
}

fn errors(text: &str) -> Vec<String> {
    compile(text)
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| format!("{}@{}", d.message, &text[d.span.start as usize..d.span.end as usize]))
        .collect()
}

#[test]
fn mistakes_are_located_errors() {
    let e = errors(&format!("{RIG}anim \"s\"\n\t\"nope\"\n"));
    assert!(e.iter().any(|m| m.starts_with("unknown animation \"nope\"@\"nope\"")), "{e:?}");
    let e = errors(&format!(
        "{RIG}anim \"x\" 10fps\n\t\"y\"\nanim \"y\"\n\t\"z\"\nanim \"z\"\n\t\"x\"\n"
    ));
    assert_eq!(e.len(), 3, "{e:?}");
    assert!(
        e[0].contains("cycle: \"x\" → \"y\" → \"z\" → \"x\"@\"y\""),
        "the chain from the reference: {e:?}"
    );
    let e = errors(&format!("{RIG}anim \"s\"\n\t\"a\" loops 0\n"));
    assert!(e.iter().any(|m| m.contains("`loops` takes a whole number")), "{e:?}");
    let e = errors(&format!("{RIG}anim \"s\"\n\t\"a\" loops 1000\n\t\"b\" loops 1000\n"));
    assert!(e.iter().any(|m| m.contains("would last 20000 frames")), "{e:?}");
    let e = errors(&format!("{RIG}anim \"s\" reverse\n\t\"a\"\n\tarm\n\t\tx 0 -> 1\n"));
    assert!(e.iter().any(|m| m.contains("`reverse` does not apply")), "{e:?}");
    assert!(e.iter().any(|m| m.contains("plays its parts only")), "{e:?}");
    let e = errors(&format!("{RIG}mix 0.2\n\t\"a\" \"c\" 1s\n\t\"a\" 1s\n"));
    assert!(e.iter().any(|m| m.starts_with("unexpected `0.2` after `mix`")), "{e:?}");
    assert!(e.iter().any(|m| m.starts_with("unknown animation \"c\"@\"c\"")), "{e:?}");
    assert!(e.iter().any(|m| m.contains("two animation names")), "{e:?}");
    let e = errors(&format!("{RIG}anim \"s\"\n\t\"a\"\nanim \"t\" from \"s\"\n"));
    assert!(e.iter().any(|m| m.contains("is a sequence or has layers")), "{e:?}");
    let e = errors(&format!("{RIG}anim \"s\" add\n"));
    assert!(e.iter().any(|m| m.contains("`add` takes the name")), "{e:?}");
}

#[test]
fn a_sequence_of_sequences_is_built_after_its_parts() {
    let text = format!("{RIG}anim \"outer\"\n\t\"inner\"\n\t\"a\"\nanim \"inner\"\n\t\"b\"\n");
    close(arm(&text, "outer", 0.5), (20.0, 60.0));
    close(arm(&text, "outer", 1.5), (5.0, 45.0));
    let comp = compile(&text);
    let id = comp.armature.animation_by_name("outer").unwrap();
    assert!(comp.armature.animation(id).is_some_and(|a| (a.duration_secs - 2.0).abs() < 1e-12));
}

#[test]
fn locals_without_a_pose_equal_the_players() {
    // What the baking samples (`Animation::locals_at`, in the model, which
    // the compiler may use) is what the runtime's player sets: delays,
    // time warps, flips, colors and attachment switches included.
    let text = "skeleton\n\thip r90 l20\n\thip.arm x20 l10\n\t\t@skin :rect w4 h4\n\t\t@skin2 :rect w2 h2\n\
anim \"w\" 12fps 0:5:sio\n\thip chain 2\n\t\tx 0 -> 5 -> -3\n\t\tr 0 -> 30 -> -10\n\tarm delay 3\n\t\tr 0 -> 40 -> 0\n\t\ti 1 -> 1.5\n\t\ts false -> true\n\
\t@skin delay 2\n\t\ta 1 -> 0.2\n\t\t@ skin2 -> skin\n\
anim \"w2\" from \"w\" pingpong\n";
    let comp = compile(text);
    assert!(!comp.has_errors(), "{:?}", comp.diagnostics);
    let sk = &comp.armature.skeleton;
    for (i, a) in comp.armature.animations.iter().enumerate() {
        for k in 0..=40 {
            let t = a.duration_secs * f64::from(k) / 40.0;
            let p =
                evaluate(&comp.armature, Some(skelpad::model::AnimId::from_index(i)), SkinId(0), t);
            let l = a.locals_at(sk, t);
            for (b, bp) in l.bones.iter().zip(&p.bones) {
                assert_eq!(*b, bp.local, "{} at {t}", a.name);
            }
            for (s, sp) in l.slots.iter().zip(&p.slots) {
                assert_eq!(*s, (sp.color, sp.attachment), "{} at {t}", a.name);
            }
        }
    }
}

#[test]
fn hover_and_completion_know_parts_mixes_and_layers() {
    use skelpad_ide::analysis::{complete, hover};
    let text = format!(
        "{RIG}mix 0.2s\n\t\"a\" \"b\" 0.5s\nanim \"ab\" add \"b\" 0.5\n\t\"a\" loops 2\n\t\"b\"\n"
    );
    let comp = compile(&text);
    assert!(!comp.has_errors(), "{:?}", comp.diagnostics);
    let at = |needle: &str, k: usize| text.match_indices(needle).nth(k).unwrap().0 as u32 + 1;
    // The part `"a"` (its second mention after the rig's): 1 s at 10 fps.
    let (h, _) = hover(&text, &comp, at("\"a\" loops", 0)).unwrap();
    assert_eq!(h, "animation \"a\": 1 s at 10 fps (10 frames)");
    let (h, _) = hover(&text, &comp, at("loops", 0)).unwrap();
    assert!(h.starts_with("`loops`: loops N"), "{h}");
    let (h, _) = hover(&text, &comp, at(" add ", 0) + 1).unwrap();
    assert!(h.starts_with("`add`: add \"ANIM\""), "{h}");
    let labels = |t: &str| -> Vec<String> {
        let c = compile(t);
        complete(t, &c, t.len()).into_iter().map(|p| p.label).collect()
    };
    let l = labels(&format!("{RIG}mix\n\t\"a\" "));
    assert!(l.contains(&"\"b\"".to_string()), "{l:?}");
    let l = labels(&format!("{RIG}anim \"s\"\n\t\"a\" "));
    assert!(l.contains(&"loops".to_string()), "{l:?}");
    let l = labels(&format!("{RIG}anim \"s\" add "));
    assert!(l.contains(&"\"a\"".to_string()), "{l:?}");
}

#[test]
fn renaming_an_animation_renames_its_parts_layers_and_mix_lines() {
    use skelpad_ide::analysis::rename_animation;
    let text = format!(
        "{RIG}mix 0.2s\n\t\"a\" \"b\" 0.5s\nanim \"ab\" add \"a\" 0.5\n\t\"a\" loops 2\n\t\"b\"\n"
    );
    let comp = compile(&text);
    let a = comp.armature.animation_by_name("a").unwrap();
    let edits = rename_animation(&text, &comp, a, "walk").unwrap();
    let out = skelpad_ide::text_edit::apply(&text, &edits);
    assert!(!out.contains("\"a\""), "{out}");
    assert_eq!(out.matches("\"walk\"").count(), 4, "{out}");
    let comp = compile(&out);
    assert!(!comp.has_errors(), "{:?}", comp.diagnostics);
}

#[test]
fn an_incremental_compile_follows_edits_of_mix_lines_parts_and_layers() {
    use skelpad::compile::Compiler;
    let base = format!(
        "{RIG}mix 0.2s\n\t\"a\" \"b\" 0.5s\nanim \"ab\" add \"b\" 0.5\n\t\"a\" loops 2\n\t\"b\"\n"
    );
    let edits = [
        base.replace("0.5s", "0.25s"),
        base.replace("loops 2", "loops 3"),
        base.replace("add \"b\" 0.5", "add \"b\" 0.25"),
        base.replace("\t\"b\"\n", "\t\"b\" loops 2\n\tarm\n"),
        base.clone(),
    ];
    let mut c = Compiler::new();
    c.update(&base);
    for text in &edits {
        let inc = c.update(text);
        let fresh = compile(text);
        assert_eq!(inc.armature.animations, fresh.armature.animations, "{text}");
        assert_eq!(inc.diagnostics, fresh.diagnostics, "{text}");
    }
}
