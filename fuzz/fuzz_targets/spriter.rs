//! Feeds arbitrary bytes (decoded lossily as UTF-8) to the Spriter reader
//! as SCML and as SCON, then poses every animation of every entity in every
//! skin (character map) at a few times and builds its draw list. Bad input
//! must be an error or warnings, never a panic or a hang.

#![no_main]

use libfuzzer_sys::fuzz_target;
use skelpad::cli::draw_json;
use skelpad::formats::spriter::{Syntax, read_str};
use skelpad::model::{AnimId, SkinId};
use skelpad::runtime::evaluate;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for syntax in [Syntax::Scml, Syntax::Scon] {
        let Ok(file) = read_str(&text, syntax) else { continue };
        for w in &file.warnings {
            assert!(!w.message.is_empty());
        }
        for e in &file.entities {
            let arm = &e.armature;
            for skin in 0..arm.skeleton.skins.len() {
                for a in 0..arm.animations.len() {
                    let d = arm.animations[a].duration_secs;
                    for t in [0.0, d * 0.37, d] {
                        let pose =
                            evaluate(arm, Some(AnimId::from_index(a)), SkinId::from_index(skin), t);
                        let _ = draw_json(arm, &pose);
                    }
                }
            }
        }
    }
});
