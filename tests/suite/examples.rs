//! What newcomers learn from: the scripts in `examples/` must check clean
//! (no errors, no warnings, assertions included) and show what their names
//! promise; the `skel2d` blocks of the guide (`docs/`), README.md and
//! LANGUAGE-EXT.md check clean or give the diagnostic written after them;
//! the Help window's reference examples check clean in a small script.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::{Path, PathBuf};

use skelpad::check::expect::compile_checked;
use skelpad::compile::{Compilation, compile};

use crate::common;

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
        .collect();
    v.sort();
    v
}

fn load(name: &str) -> Compilation {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name);
    compile(&std::fs::read_to_string(&path).expect("example is readable"))
}

#[test]
fn every_example_checks_clean() {
    let all = examples();
    assert!(all.len() >= 5, "at least five examples: {all:?}");
    for path in all {
        let text = std::fs::read_to_string(&path).expect("readable");
        let comp = compile_checked(&text);
        let rendered = skelpad::cli::report::render_plain(&path, &text, &comp.diagnostics);
        assert!(comp.diagnostics.is_empty(), "{} is not clean:\n{rendered}", path.display());
        assert!(!comp.armature.animations.is_empty(), "{} has an animation", path.display());
    }
}

#[test]
fn examples_show_their_topics() {
    let walk = load("walk_cycle.skel2d");
    assert!(walk.armature.animation_by_name("walk").is_some());
    assert!(walk.armature.skeleton.bones.len() >= 10, "a whole figure");

    let ball = load("bouncing_ball.skel2d");
    let bounce = &ball.armature.animations[0];
    assert!(
        bounce.bones.iter().any(|c| matches!(c.property, skelpad::model::BoneProperty::ScaleY)),
        "squash and stretch"
    );

    let tentacle = load("tentacle.skel2d");
    let sk = &tentacle.armature.skeleton;
    let multi_bone_path = sk.contents.iter().any(|a| match &a.kind {
        skelpad::model::AttachmentKind::Path { path, .. } => path.bones().len() >= 3 && path.closed,
        _ => false,
    });
    assert!(multi_bone_path, "a closed path bound to several bones");
    // "sway" keys only the root; its springs give every segment below a
    // baked rotation timeline, one key per frame (30 frames: 31 keys).
    let sway = tentacle.armature.animation_by_name("sway").expect("a sprung animation");
    let sway = &tentacle.armature.animations[sway.0 as usize];
    let segments = ["s1", "s2", "s3", "s4", "s5"];
    for s in segments {
        let id = sk.bones.iter().position(|b| b.name.ends_with(s)).unwrap();
        let ch = sway
            .bones
            .iter()
            .find(|c| c.bone.index() == id && c.property == skelpad::model::BoneProperty::Rotation);
        assert_eq!(ch.map(|c| c.keys.len()), Some(31), "{s}: a sprung rotation");
    }

    let skins = load("skins.skel2d");
    assert!(skins.armature.skeleton.skins.len() >= 3, "default plus at least two skins");
    assert!(
        skins.armature.animations.iter().any(|a| !a.attachments.is_empty()),
        "an attachment switch"
    );

    let order = load("draw_order.skel2d");
    let sk = &order.armature.skeleton;
    let definition: Vec<_> = (0..sk.slots.len()).map(skelpad::model::SlotId::from_index).collect();
    assert_ne!(sk.draw_order, definition, "the order section changes the draw order");
    assert!(
        order.armature.animations.iter().any(|a| !a.slot_colors.is_empty()),
        "animated slot colors"
    );
}

/// The blocks of the documentation fenced as `skel2d` compile with no
/// diagnostic at all; a block fenced as `skel2d-error` is followed by a
/// `text` block whose first line, `error: MESSAGE` or `warning: MESSAGE`,
/// is one of the diagnostics it produces (docs/language.md states the
/// convention).
#[test]
fn every_skel2d_block_of_the_docs_checks_as_it_says() {
    let blocks = common::doc_blocks();
    let (mut clean, mut mistakes, mut in_docs) = (0, 0, 0);
    for (i, b) in blocks.iter().enumerate() {
        let place = format!("{}:{}", b.file, b.line);
        if !b.lang.starts_with("skel2d") {
            continue;
        }
        // (with the `expect` assertions evaluated, as `skelpad check` does)
        let comp = compile_checked(&b.text);
        let found: Vec<String> = comp
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}", if d.is_error() { "error" } else { "warning" }, d.message))
            .collect();
        match b.lang.as_str() {
            "skel2d" => {
                let shown = skelpad::cli::report::render_plain(
                    std::path::Path::new(&place),
                    &b.text,
                    &comp.diagnostics,
                );
                assert!(comp.diagnostics.is_empty(), "{place}: the block is not clean:\n{shown}");
                clean += 1;
                in_docs += usize::from(b.file.starts_with("docs/"));
            }
            "skel2d-error" => {
                let expected = blocks
                    .get(i + 1)
                    .filter(|n| n.lang == "text")
                    .and_then(|n| n.text.lines().next())
                    .unwrap_or_else(|| {
                        panic!("{place}: a skel2d-error block must be followed by a text block")
                    });
                assert!(
                    found.iter().any(|f| f == expected),
                    "{place}: expected the diagnostic\n  {expected}\nbut the block gives {found:#?}"
                );
                mistakes += 1;
            }
            other => panic!("{place}: unknown fence `{other}` (skel2d or skel2d-error)"),
        }
    }
    assert!(in_docs >= 20, "the guide has {in_docs} checked skel2d blocks, fewer than 20");
    assert!(mistakes >= 5, "{mistakes} skel2d-error blocks");
    assert!(blocks.iter().any(|b| b.file == "README.md" && b.lang == "skel2d"), "README's script");
    eprintln!("{clean} clean blocks ({in_docs} in docs/), {mistakes} mistakes as stated");
}

/// Every example of the Help window's language reference, in its place,
/// compiles with no diagnostic, and the example line itself is read without
/// an invalid token.
#[test]
fn every_help_reference_example_checks_clean() {
    use skelpad::syntax::Role;
    use skelpad::syntax::reference::REFERENCE;
    assert!(REFERENCE.len() >= 100, "{} entries", REFERENCE.len());
    for e in REFERENCE.iter() {
        let text = common::help_context(e);
        let comp = compile_checked(&text);
        let shown = skelpad::cli::report::render_plain(
            std::path::Path::new("help"),
            &text,
            &comp.diagnostics,
        );
        assert!(comp.diagnostics.is_empty(), "{}: {:?} in\n{text}\n{shown}", e.title, e.example);
        // A word's example goes where its context has `…`.
        let at = match e.word {
            Some(place) => place.context.find('…'),
            None => text.find(e.example),
        };
        let at = at.expect("the example is in its script");
        let overlaps = |r: &&skelpad::syntax::TokenRole| {
            (r.span.end as usize) > at && (r.span.start as usize) < at + e.example.len()
        };
        let roles: Vec<_> = comp.roles().collect();
        assert!(
            roles.iter().any(|r| overlaps(&r)),
            "{}: the example's tokens have no roles",
            e.title
        );
        assert!(roles.iter().all(|r| r.role != Role::Invalid), "{}: an invalid token", e.title);
    }
}
