//! The animation operations, each checked by compiling the result anew:
//! the animations the compiler makes from the new text are the old ones
//! (renamed, copied, left out or reordered as asked), key for key.

use super::*;
use crate::text_edit::apply;
use skelpad_lang::compile::compile;
use skelpad_lang::model::Animation;

/// Every example script, with its file name.
fn examples() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 5, "examples missing: {out:?}");
    out
}

/// The compiled animations, each as it is (names included).
fn anims(text: &str) -> Vec<Animation> {
    compile(text).armature.animations.iter().map(|a| (**a).clone()).collect()
}

fn named(a: &Animation, name: &str) -> Animation {
    Animation { name: name.to_owned(), ..a.clone() }
}

fn errors(text: &str) -> usize {
    compile(text).diagnostics.iter().filter(|d| d.is_error()).count()
}

const TWO: &str = "skeleton\n\tarm l10\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 30 -> 0\nanim \"rest\"\n\tarm\n\t\tx 0 -> 5\n";

#[test]
fn a_new_animation_is_empty_and_goes_at_the_end() {
    let comp = compile(TWO);
    let out = apply(TWO, &new_animation(TWO, &comp, "jump", Some(24)).unwrap());
    assert_eq!(out, format!("{TWO}anim \"jump\" 24fps\n"));
    let after = anims(&out);
    assert_eq!(after.len(), 3);
    assert_eq!(&after[..2], &anims(TWO)[..]);
    let jump = &after[2];
    assert_eq!((jump.name.as_str(), jump.fps), ("jump", 24.0));
    assert!(jump.bones.is_empty() && jump.slot_colors.is_empty() && jump.attachments.is_empty());
    // A text without a last line break gets one first.
    let t = TWO.trim_end();
    let out = apply(t, &new_animation(t, &compile(t), "jump", None).unwrap());
    assert!(out.ends_with("x 0 -> 5\nanim \"jump\"\n"), "{out}");
    assert_eq!(errors(&out), 0);
    // Taken and unwritable names are refused.
    assert!(new_animation(TWO, &comp, "wave", None).unwrap_err().contains("already named"));
    for bad in ["", "a b", "say\"hi\"", "tab\there"] {
        assert!(new_animation(TWO, &comp, bad, None).is_err(), "{bad:?}");
    }
}

#[test]
fn a_duplicate_plays_as_its_original_in_every_example() {
    for (file, text) in examples() {
        let comp = compile(&text);
        let before = anims(&text);
        for (i, a) in before.iter().enumerate() {
            let id = AnimId::from_index(i);
            let edits = duplicate_animation(&text, &comp, id, None).unwrap();
            let out = apply(&text, &edits);
            assert_eq!(errors(&out), errors(&text), "{file}: {}\n{out}", a.name);
            let after = anims(&out);
            assert_eq!(after.len(), before.len() + 1, "{file}");
            let copy = after.iter().find(|x| x.name == format!("{}-copy", a.name)).unwrap();
            assert_eq!(copy, &named(a, &copy.name), "{file}: {}", a.name);
            for b in &before {
                assert!(after.contains(b), "{file}: {} changed", b.name);
            }
        }
    }
}

#[test]
fn a_duplicate_copies_every_section_and_takes_a_free_name() {
    // Two sections of one animation merge; the copy has both.
    let text = "skeleton\n\tarm\n\tleg\nanim \"a\"\n\tarm\n\t\tr 0 -> 10\nanim \"b\"\n\tleg\n\t\tx 1\nanim \"a\" :3\n\tleg\n\t\ty 0 -> 2";
    let comp = compile(text);
    let edits = duplicate_animation(text, &comp, AnimId::from_index(0), Some("c")).unwrap();
    let out = apply(text, &edits);
    assert!(
        out.ends_with(
            "y 0 -> 2\nanim \"c\"\n\tarm\n\t\tr 0 -> 10\nanim \"c\" :3\n\tleg\n\t\ty 0 -> 2\n"
        ),
        "{out}"
    );
    let after = anims(&out);
    assert_eq!(after[2], named(&anims(text)[0], "c"));
    // Free names: `-copy`, then `-copy-2`, …
    assert_eq!(unused_animation_name(&comp, "a"), "a-copy");
    assert_eq!(unused_animation_name(&comp, "new"), "new");
    let twice = apply(&out, &duplicate_animation(&out, &compile(&out), AnimId(0), None).unwrap());
    let t = compile(&twice);
    assert_eq!(unused_animation_name(&t, "a"), "a-copy-2");
    assert!(duplicate_animation(text, &comp, AnimId(0), Some("b")).is_err());
    // The unnamed animation gets its name after `anim`.
    let text = "skeleton\n\tarm\nanim 10fps\n\tarm\n\t\tr 0 -> 10\n";
    let comp = compile(text);
    let out = apply(text, &duplicate_animation(text, &comp, AnimId(0), Some("named")).unwrap());
    assert!(out.ends_with("anim \"named\" 10fps\n\tarm\n\t\tr 0 -> 10\n"), "{out}");
    assert_eq!(anims(&out)[1], named(&anims(text)[0], "named"));
}

#[test]
fn renaming_an_animation_renames_its_headers_expectations_and_copies() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/walk_cycle.skel2d");
    let text = std::fs::read_to_string(path).unwrap();
    let comp = compile(&text);
    let walk = comp.armature.animations.iter().position(|a| a.name == "walk").unwrap();
    let edits = rename_animation(&text, &comp, AnimId::from_index(walk), "stride").unwrap();
    // The header, the two `from "walk"`, the `mix` line, the sequence's
    // part and the two `expect "walk"` sections.
    assert_eq!(edits.len(), 7, "{edits:?}");
    let out = apply(&text, &edits);
    assert!(!out.contains("\"walk\""));
    let new = compile(&out);
    assert_eq!(new.diagnostics.len(), comp.diagnostics.len());
    assert_eq!(errors(&out), errors(&text));
    let before = anims(&text);
    let after = anims(&out);
    for (b, a) in before.iter().zip(&after) {
        let want = if b.name == "walk" { "stride" } else { b.name.as_str() };
        assert_eq!(a, &named(b, want));
    }
    // The language server's rename is the same function: on the header.
    let at = text.find("\"walk\" 20fps").unwrap() as u32 + 2;
    assert_eq!(crate::analysis::rename(&text, &comp, at, "stride").unwrap(), edits);
    assert_eq!(
        crate::analysis::prepare_rename(&text, &comp, at).unwrap(),
        Span::new(at - 1, at + 3)
    );
    // A name another animation has, or one that cannot be written.
    let e = rename_animation(&text, &comp, AnimId::from_index(walk), "idle").unwrap_err();
    assert!(e.contains("already named \"idle\""), "{e}");
    assert!(rename_animation(&text, &comp, AnimId::from_index(walk), "a b").is_err());
}

#[test]
fn deleting_an_animation_removes_every_section_of_it() {
    let text = "skeleton\n\tarm\nanim \"a\"\n\tarm\n\t\tr 0 -> 10\nanim \"b\"\n\tarm\n\t\tx 1\nanim \"a\"\n\tarm\n\t\ty 2\n";
    let comp = compile(text);
    let out = apply(text, &delete_animation(text, &comp, AnimId(0)).unwrap());
    assert_eq!(out, "skeleton\n\tarm\nanim \"b\"\n\tarm\n\t\tx 1\n");
    assert_eq!(anims(&out), anims(text)[1..]);
    // Named by an expectation or a `from`: refused, with the lines.
    let e = delete_animation(TWO, &compile(TWO), AnimId(0)).map(|_| ());
    assert!(e.is_ok());
    let t = format!("{TWO}expect \"wave\" 5\n\tarm r15\nanim \"back\" from \"wave\" reverse\n");
    let e = delete_animation(&t, &compile(&t), AnimId(0)).unwrap_err();
    assert!(e.contains("line 9, 11"), "{e}");
}

#[test]
fn moving_an_animation_changes_the_order_only() {
    for (file, text) in examples() {
        let comp = compile(&text);
        let before = anims(&text);
        for i in 0..before.len() {
            let id = AnimId::from_index(i);
            for (dir, other) in [(Direction::Up, i.checked_sub(1)), (Direction::Down, Some(i + 1))]
            {
                let other = other.filter(|&o| o < before.len());
                let result = move_animation(&text, &comp, id, dir);
                let Some(o) = other else {
                    assert!(result.is_err(), "{file}: {i} {dir:?}");
                    continue;
                };
                let out = apply(&text, &result.unwrap());
                let mut want = before.clone();
                want.swap(i, o);
                assert_eq!(anims(&out), want, "{file}: {i} {dir:?}\n{out}");
                assert_eq!(errors(&out), errors(&text), "{file}");
            }
        }
    }
    // Every section of a merged animation moves, in its order.
    let text = "skeleton\n\tarm\nanim \"a\"\n\tarm\n\t\tx 1\nanim \"b\"\n\tarm\n\t\tr 0 -> 10\nanim \"b\" :2\n\tarm\n\t\ty 0 -> 3";
    let out = apply(text, &move_animation(text, &compile(text), AnimId(1), Direction::Up).unwrap());
    assert_eq!(
        out,
        "skeleton\n\tarm\nanim \"b\"\n\tarm\n\t\tr 0 -> 10\nanim \"b\" :2\n\tarm\n\t\ty 0 -> 3\nanim \"a\"\n\tarm\n\t\tx 1\n"
    );
    let before = anims(text);
    assert_eq!(anims(&out), [before[1].clone(), before[0].clone()]);
}

#[test]
fn the_header_line_names_its_animation() {
    let comp = compile(TWO);
    let at = |needle: &str| TWO.find(needle).unwrap() as u32;
    assert_eq!(animation_header_at(TWO, &comp, at("anim \"wave\"")), Some(AnimId(0)));
    assert_eq!(animation_header_at(TWO, &comp, at("10fps") + 5), Some(AnimId(0)));
    assert_eq!(animation_header_at(TWO, &comp, at("\"rest\"")), Some(AnimId(1)));
    assert_eq!(animation_header_at(TWO, &comp, at("r 0 ->")), None);
    assert_eq!(animation_header_at(TWO, &comp, at("arm l10")), None);
}
