//! The scripts in `examples/` are what newcomers learn from: each must check
//! clean (no errors, no warnings) and show what its name promises.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::{Path, PathBuf};

use skelpad::compile::{Compilation, compile};

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
        let comp = compile(&text);
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
