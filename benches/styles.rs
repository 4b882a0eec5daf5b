//! The language pipeline on generated scripts of every style in
//! `skelpad::generate::STYLES` (deep chains, wide fans, long names, comments,
//! several slots, skins, nested loops, relative values, CRLF), at 1000 and
//! 5000 bones. Poses are asked at a new time on every iteration, as a player
//! does. Run with `cargo bench --bench styles`; figures in BENCHMARKS.md.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use divan::Bencher;
use divan::counter::BytesCount;
use skelpad::compile::{Compiler, Threads, compile};
use skelpad::generate;
use skelpad::model::SkinId;
use skelpad::runtime::{Pose, evaluate_into};

// Measured with the allocator the skelpad binary uses.
skelpad::global_allocator!();

#[path = "support/reference.rs"]
mod reference;

fn main() {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    divan::main();
}

/// The names of `generate::STYLES` (divan needs them as a constant; `text`
/// fails on a name the generator does not know).
const NAMES: [&str; 6] =
    ["plain", "deep-long", "wide-fans", "commented-crlf", "slots-skins", "everything"];

fn text(style: &str, bones: usize) -> String {
    let style = generate::style(style).unwrap_or_else(|| panic!("unknown style {style}"));
    generate::styled(&style, bones, 10)
}

/// Parsing alone: throughput in bytes per second.
#[divan::bench(args = NAMES, consts = [1000, 5000], sample_count = 20)]
fn parse<const BONES: usize>(bencher: Bencher, style: &str) {
    let text = text(style, BONES);
    bencher
        .counter(BytesCount::of_str(&text))
        .bench(|| skelpad::syntax::parse_document(divan::black_box(&text)));
}

/// Parse + compile from scratch.
#[divan::bench(args = NAMES, consts = [1000, 5000], sample_count = 20)]
fn parse_and_compile<const BONES: usize>(bencher: Bencher, style: &str) {
    let text = text(style, BONES);
    bencher.counter(BytesCount::of_str(&text)).bench(|| compile(divan::black_box(&text)));
}

/// `text` with mistakes a person makes, spread through it: an unknown
/// token on every 30th timeline line and a misspelt bone on every 100th
/// animation item (each then asks for "did you mean" among every bone).
fn with_mistakes(text: &str) -> String {
    let (mut timelines, mut items, mut in_anim) = (0, 0, false);
    let mut out = String::with_capacity(text.len() + text.len() / 50);
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let end = &line[body.len()..];
        let depth = body.bytes().take_while(|&b| b == b'\t').count();
        if depth == 0 && !body.is_empty() && !body.starts_with('#') {
            in_anim = body.starts_with("anim");
        }
        // (Comments and `@slot` items are left as they are.)
        let in_anim = in_anim && depth > 0 && !body[depth..].starts_with(['#', '@']);
        if depth == 2 && in_anim {
            timelines += 1;
            if timelines % 30 == 0 {
                out.push_str(body);
                out.push_str(" zz9");
                out.push_str(end);
                continue;
            }
        } else if depth == 1 && in_anim {
            items += 1;
            if items % 100 == 0 {
                out.push_str("\tnosuch_");
                out.push_str(&body[1..]);
                out.push_str(end);
                continue;
            }
        }
        out.push_str(line);
    }
    out
}

/// Parse + compile of scripts with a few hundred mistakes: their
/// diagnostics, hints and name suggestions included.
#[divan::bench(args = ["plain", "everything"], consts = [1000], sample_count = 20)]
fn parse_and_compile_with_mistakes<const BONES: usize>(bencher: Bencher, style: &str) {
    let text = with_mistakes(&text(style, BONES));
    let found = compile(&text).diagnostics.len();
    assert!(found > 100, "{style}: only {found} diagnostics");
    bencher.counter(BytesCount::of_str(&text)).bench(|| compile(divan::black_box(&text)));
}

/// Parse + compile from scratch on the calling thread only (the default
/// shares sections and animations among rayon's threads; see `Threads`).
#[divan::bench(args = NAMES, consts = [1000, 5000], sample_count = 20)]
fn parse_and_compile_one_thread<const BONES: usize>(bencher: Bencher, style: &str) {
    let text = text(style, BONES);
    bencher
        .counter(BytesCount::of_str(&text))
        .bench(|| Compiler::with_threads(Threads::One).update(divan::black_box(&text)));
}

/// One pose of every bone, each iteration at a new time: the playhead walks
/// through the animation by an irrational step, so no two calls share a time.
#[divan::bench(args = NAMES, consts = [1000, 5000])]
fn pose_at_new_time<const BONES: usize>(bencher: Bencher, style: &str) {
    let arm = compile(&text(style, BONES)).armature;
    let anim = arm.animations.first().cloned();
    let duration = anim.as_ref().map_or(1.0, |a| a.duration_secs.max(1e-3));
    let mut pose = Pose::default();
    let mut t = 0.0f64;
    bencher.bench_local(|| {
        t = (t + std::f64::consts::FRAC_1_SQRT_2 / 7.0) % duration;
        evaluate_into(&mut pose, &arm, anim.as_deref(), SkinId(0), divan::black_box(t));
        divan::black_box(&pose);
    });
}

/// Two versions of `text` that differ by one digit inserted after the first
/// match of `needle` at or after `from` that a digit follows.
fn one_char_variants(text: &str, from: usize, needle: &str) -> [String; 2] {
    let at = text[from..]
        .match_indices(needle)
        .map(|(i, _)| from + i + needle.len())
        .find(|&at| text[at..].starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("{needle:?} + digit not found"));
    [text.to_string(), format!("{}1{}", &text[..at], &text[at..])]
}

fn bench_edit(bencher: Bencher, variants: [String; 2], anim: usize) {
    let mut compiler = Compiler::new();
    compiler.update(&variants[0]);
    let mut pose = Pose::default();
    let mut flip = 0usize;
    let mut t = 0.0f64;
    bencher.bench_local(|| {
        flip ^= 1;
        t = (t + 0.0173) % 2.0;
        let comp = compiler.update(&variants[flip]);
        evaluate_into(
            &mut pose,
            &comp.armature,
            comp.armature.animations.get(anim).map(|a| &**a),
            SkinId(0),
            t,
        );
        divan::black_box(&pose);
    });
}

/// One character typed inside one animation (a key value in the fifth
/// animation), then update + pose.
#[divan::bench(args = NAMES, consts = [1000], sample_count = 100)]
fn edit_in_animation<const BONES: usize>(bencher: Bencher, style: &str) {
    let text = text(style, BONES);
    let anim_at = text.match_indices("anim \"").nth(4).map_or(0, |(i, _)| i);
    bench_edit(bencher, one_char_variants(&text, anim_at, " -> "), 4);
}

/// Where the skeleton section of a generated script ends: where the first
/// other section starts.
fn skeleton_end(text: &str) -> usize {
    ["\nskin ", "\norder", "\nanim "]
        .iter()
        .filter_map(|s| text.find(s))
        .min()
        .unwrap_or(text.len())
}

/// One character typed in the skeleton section (a bone's length, half-way
/// down the rig), then update + pose.
#[divan::bench(args = NAMES, consts = [1000], sample_count = 50)]
fn edit_in_skeleton<const BONES: usize>(bencher: Bencher, style: &str) {
    let text = text(style, BONES);
    bench_edit(bencher, one_char_variants(&text, skeleton_end(&text) / 2, " l"), 4);
}

/// One letter typed at the end of a bone line's path half-way down the
/// skeleton, then update + pose: the rig's names change, so the
/// animations that name that bone are compiled again (the others are kept,
/// renumbered when the bones after it moved).
#[divan::bench(args = NAMES, consts = [1000], sample_count = 50)]
fn rename_in_skeleton<const BONES: usize>(bencher: Bencher, style: &str) {
    let text = text(style, BONES);
    let from = skeleton_end(&text) / 2;
    let line = text[from..]
        .match_indices("\n\t")
        .map(|(i, _)| from + i + 2)
        .find(|&at| text.as_bytes()[at].is_ascii_alphabetic())
        .expect("a bone line");
    let at = line + text[line..].find([' ', '\r', '\n']).expect("the end of its path");
    bench_edit(bencher, [text.clone(), format!("{}q{}", &text[..at], &text[at..])], 4);
}

/// How fast the machine is right now, from work that owes nothing to
/// skelpad: [`reference::reference_work`] on one thread, or on each of two threads at
/// once (the same time as one when both cores are free). The machines this
/// is measured on change speed by up to 2.5 times within minutes, so
/// `scripts/bench-rounds.py` runs this between the other benches and
/// BENCHMARKS.md reports each figure beside it. Never change the workload:
/// figures compare across passes only while it stays the same.
#[divan::bench(args = [1, 2], sample_count = 20)]
fn machine_reference(bencher: Bencher, threads: usize) {
    let text = reference::reference_text();
    bencher.bench(|| reference::reference_round(divan::black_box(&text), threads));
}
