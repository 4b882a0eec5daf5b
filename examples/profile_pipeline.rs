//! A driver for profilers (callgrind, perf): runs one stage of the language
//! pipeline on a generated script many times, so its instruction count can be
//! compared before and after a change while the machine is busy.
//!
//! `cargo run --release --example profile_pipeline -- STAGE STYLE BONES ITERS`
//! with STAGE one of parse, compile, compile-one (one thread), pose, edit-anim, edit-skel
//! (a bone's length), rename (a letter at the end of a bone line's path; the benches'
//! `rename_in_skeleton`), write (print the script) or script (print
//! `generate::script(BONES, 10)`, the editor benches' script, STYLE unused);
//! STYLE a name from `generate::STYLES`.

use skelpad::compile::{Compiler, Threads, compile};
use skelpad::generate;
use skelpad::model::SkinId;
use skelpad::runtime::{Pose, evaluate_into};

// Measured with the allocator the skelpad binary uses.
skelpad::global_allocator!();

fn variants(text: &str, from: usize, needle: &str) -> Option<[String; 2]> {
    let at = text[from..]
        .match_indices(needle)
        .map(|(i, _)| from + i + needle.len())
        .find(|&at| text[at..].starts_with(|c: char| c.is_ascii_digit()))?;
    Some([text.to_string(), format!("{}1{}", &text[..at], &text[at..])])
}

fn main() -> std::process::ExitCode {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    let args: Vec<String> = std::env::args().collect();
    let stage = args.get(1).map_or("compile", |s| s.as_str());
    let Some(style) = generate::style(args.get(2).map_or("everything", |s| s.as_str())) else {
        eprintln!(
            "unknown style; the styles are {:?}",
            generate::STYLES.iter().map(|s| s.0).collect::<Vec<_>>()
        );
        return std::process::ExitCode::from(2);
    };
    let bones: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let iters: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    let text = generate::styled(&style, bones, 10);
    eprintln!("{} bytes", text.len());
    match stage {
        "write" => print!("{text}"),
        "script" => print!("{}", generate::script(bones, 10)),
        "parse" => {
            for _ in 0..iters {
                std::hint::black_box(skelpad::syntax::parse_document(std::hint::black_box(&text)));
            }
        }
        "compile" => {
            for _ in 0..iters {
                std::hint::black_box(compile(std::hint::black_box(&text)));
            }
        }
        // One thread (a compile's work is otherwise shared out; see `Threads`).
        "compile-one" => {
            for _ in 0..iters {
                let mut c = Compiler::with_threads(Threads::One);
                std::hint::black_box(c.update(std::hint::black_box(&text)));
            }
        }
        "pose" => pose(&text, iters),
        "edit-anim" | "edit-skel" | "rename" => {
            let Some(v) = edit_variants(&text, stage) else {
                eprintln!("no place to edit in this script");
                return std::process::ExitCode::from(2);
            };
            edit(&v, iters);
        }
        other => {
            eprintln!("unknown stage {other}: parse, compile, pose, edit-anim, edit-skel or write");
            return std::process::ExitCode::from(2);
        }
    }
    std::process::ExitCode::SUCCESS
}

/// Poses the first animation `iters` times, at times spread over it.
fn pose(text: &str, iters: usize) {
    let arm = compile(text).armature;
    let anim = arm.animations.first().cloned();
    let duration = anim.as_ref().map_or(1.0, |a| a.duration_secs.max(1e-3));
    let mut pose = Pose::default();
    let mut t = 0.0f64;
    for _ in 0..iters {
        t = (t + std::f64::consts::FRAC_1_SQRT_2 / 7.0) % duration;
        evaluate_into(&mut pose, &arm, anim.as_deref(), SkinId(0), std::hint::black_box(t));
        std::hint::black_box(&pose);
    }
}

/// The script and the script with the edit of `stage` (`edit-anim`: a key
/// of the fifth animation, `edit-skel`: a bone's length, `rename`: a letter
/// at the end of a bone's path); `None` if the script has no place for it.
fn edit_variants(text: &str, stage: &str) -> Option<[String; 2]> {
    let end = ["\nskin ", "\norder", "\nanim "]
        .iter()
        .filter_map(|s| text.find(s))
        .min()
        .unwrap_or(text.len());
    match stage {
        "edit-anim" => {
            let anim_at = text.match_indices("anim \"").nth(4).map_or(0, |(i, _)| i);
            variants(text, anim_at, " -> ")
        }
        "edit-skel" => variants(text, end / 2, " l"),
        _ => text[end / 2..]
            .match_indices("\n\t")
            .map(|(i, _)| end / 2 + i + 2)
            .find(|&at| text.as_bytes()[at].is_ascii_alphabetic())
            .and_then(|line| {
                let at = line + text[line..].find([' ', '\r', '\n'])?;
                Some([text.to_string(), format!("{}q{}", &text[..at], &text[at..])])
            }),
    }
}

/// Compiles the two variants in turn `iters` times with one incremental
/// compiler, posing the fifth animation after each.
fn edit(v: &[String; 2], iters: usize) {
    let mut compiler = Compiler::new();
    compiler.update(&v[0]);
    let mut pose = Pose::default();
    for i in 0..iters {
        let comp = compiler.update(&v[(i + 1) % 2]);
        evaluate_into(
            &mut pose,
            &comp.armature,
            comp.armature.animations.get(4).map(|a| &**a),
            SkinId(0),
            0.3 + i as f64 * 0.0173,
        );
        std::hint::black_box(&pose);
    }
}
