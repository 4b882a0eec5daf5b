//! Feeds arbitrary bytes (decoded lossily as UTF-8) through the whole
//! pipeline: parse and compile (pose assertions evaluated), then pose every
//! animation in every skin.
//! Besides panics it checks the invariants the editor relies on: diagnostic
//! spans lie inside the text on char boundaries, pose matrices of scripts
//! without errors are finite, and incremental compilation agrees with
//! compiling from scratch.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skelpad::compile::Compiler;
use skelpad::model::{AnimId, SkinId};
use skelpad::runtime::evaluate;
use skelpad::check::expect::{check, compile_checked};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let comp = compile_checked(&text);

    for d in &comp.diagnostics {
        let (s, e) = (d.span.start as usize, d.span.end as usize);
        assert!(s <= e && e <= text.len(), "span {s}..{e} outside the text: {d:?}");
        assert!(
            text.is_char_boundary(s) && text.is_char_boundary(e),
            "span {s}..{e} splits a character: {d:?}"
        );
    }

    let arm = &comp.armature;
    for skin in 0..arm.skeleton.skins.len() {
        let skin = SkinId::from_index(skin);
        let setup = evaluate(arm, None, skin, 0.0);
        if !comp.has_errors() {
            assert!(setup.bones.iter().all(|b| b.world.is_finite()), "non-finite setup pose");
        }
        for (i, anim) in arm.animations.iter().enumerate() {
            let d = anim.duration_secs;
            for t in [0.0, d * 0.5, d, d + 1.0] {
                let pose = evaluate(arm, Some(AnimId::from_index(i)), skin, t);
                std::hint::black_box(&pose);
            }
        }
    }

    // Incremental compilation: compile the first half, then the whole text.
    let mut cut = text.len() / 2;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let mut compiler = Compiler::new();
    compiler.update(&text[..cut]);
    let mut incremental = compiler.update(&text);
    check(&mut incremental);
    assert_eq!(incremental.diagnostics, comp.diagnostics, "incremental diagnostics differ");
});
