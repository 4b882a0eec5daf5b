//! One grammar: every token of every example and conformance script gets
//! its role from the parser, the roles agree with what the token says (checked
//! here with independent, plain-string tests), and the highlighter colours
//! each token by that role and nothing else.

#![cfg(feature = "app")]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::{Path, PathBuf};

use eframe::egui::FontId;
use skelpad::app::highlight::{Palette, layout_job};
use skelpad::compile::compile;
use skelpad::syntax::{Role, token};

fn scripts() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    for dir in [
        root.join("examples"),
        root.join("tests/conformance_extra"),
        root.join("tests/conformance"),
    ] {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        v.extend(
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "skel2d")),
        );
    }
    v.sort();
    v
}

/// Whitespace-separated tokens of a text with their byte offsets (a plain
/// splitter, independent of the parser's tokenizer).
fn words(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        if c.is_whitespace() || c == '\\' && text[i + 1..].starts_with(['\n', '\r']) {
            if let Some(s) = start.take() {
                out.push((s, &text[s..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    out
}

fn is_number(s: &str) -> bool {
    s.parse::<f64>().is_ok_and(f64::is_finite)
        || s.starts_with('.') && s[1..].parse::<f64>().is_ok()
}

/// What a token's text must look like for its role.
fn plausible(role: Role, s: &str) -> bool {
    let letter_number =
        |letters: &str| s.len() > 1 && letters.contains(&s[..1]) && is_number(&s[1..]);
    match role {
        Role::SectionKeyword => {
            ["skeleton", "skin", "order", "anim", "expect", "ik", "mix"].contains(&s)
        }
        Role::BonePath | Role::BoneRef => {
            s.split('.').all(|seg| !seg.is_empty() && !seg.contains(['@', ':', '#', ',']))
        }
        // `local`/`world`/`never` of expectation lines; the words of IK lines.
        Role::BoneProperty => {
            letter_number("lrxyij")
                || [
                    "flip-x", "flip-y", "no-rot", "no-scale", "local", "world", "to", "up", "from",
                    "fabrik", "arc", "cw", "ccw", "never",
                ]
                .contains(&s)
        }
        Role::SlotHead | Role::SlotRef => s.starts_with('@'),
        Role::AttachmentType => {
            ["sprite", "rect", "circle", "ellipse", "path"].contains(&s.trim_start_matches(':'))
        }
        // (`gNUM bNUM aNUM`: a slot's expected color.)
        Role::Property => {
            s.len() == 1
                || letter_number("whxyrijtmdgba")
                || s.ends_with("-join")
                || s.ends_with("-cap")
        }
        Role::Number => {
            // (`24fps`; `0.25s`, a mix time.)
            let s = s.trim_start_matches(['+', '*']).trim_end_matches("fps").trim_end_matches('s');
            s.split(',').all(is_number)
        }
        Role::Color => s.trim_start_matches(['f', 's']).starts_with('#'),
        Role::String => s.len() >= 2 && s.starts_with('"') && s.ends_with('"'),
        Role::Boolean => s == "true" || s == "false",
        Role::AttachmentRef => !s.is_empty(),
        // (`~NUM`: an expectation's tolerance.)
        // (Timing modifiers: header and item words.)
        Role::Option => {
            s.contains(':')
                || s.starts_with('~')
                || [
                    "from",
                    "reverse",
                    "pingpong",
                    "mirror",
                    "swap",
                    "cycle",
                    "delay",
                    "chain",
                    "spring",
                    "spring-chain",
                    "add",
                    "loops",
                ]
                .contains(&s)
        }
        Role::Loop => s == "{" || s.starts_with('}'),
        Role::Event => s.starts_with('!'),
        Role::Advance => s.ends_with('>') && s.trim_end_matches('>').chars().all(|c| c == '-'),
        Role::PathCommand => ["M", "L", "Q", "B", "C", ":"].contains(&s),
        Role::Comment => s.starts_with('#'),
        Role::Invalid => true,
    }
}

#[test]
fn every_token_of_every_script_has_its_role_from_the_parser() {
    let all = scripts();
    assert!(all.len() >= 20, "examples and conformance scripts: {all:?}");
    let palette = Palette::new(true);
    let mut counted = 0usize;
    for path in all {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let comp = compile(&text);
        let roles: Vec<_> = comp.roles().collect();
        assert!(
            roles.windows(2).all(|w| w[0].span.end <= w[1].span.start),
            "{name}: roles overlap or are out of order"
        );
        let in_comment =
            |b: usize| roles.iter().any(|r| r.role == Role::Comment && r.span.range().contains(&b));
        let job = layout_job(&text, &comp, "", true, FontId::monospace(12.0));
        let color_at = |b: usize| {
            job.sections
                .iter()
                .find(|s| (s.byte_range.start.0..s.byte_range.end.0).contains(&b))
                .unwrap()
                .format
                .color
        };
        for (pos, word) in words(&text) {
            if in_comment(pos) {
                continue;
            }
            // Exactly one role starts at each token and stays inside it.
            let starting: Vec<_> = roles.iter().filter(|r| r.span.start as usize == pos).collect();
            assert_eq!(starting.len(), 1, "{name}: token `{word}` at {pos} has roles {starting:?}");
            let r = starting[0];
            assert!(
                r.span.end as usize <= pos + word.len(),
                "{name}: role {r:?} runs past `{word}`"
            );
            let sub = &text[r.span.range()];
            assert!(plausible(r.role, sub), "{name}: `{sub}` read as {:?}", r.role);
            for b in r.span.range() {
                assert_eq!(color_at(b), palette.of(Some(r.role)), "{name}: colour of `{word}`");
            }
            counted += 1;
        }
        // Every role covers text that is a token or a comment.
        for r in &roles {
            let s = &text[r.span.range()];
            assert!(!s.trim().is_empty(), "{name}: empty role {r:?}");
        }
        if comp.diagnostics.is_empty() {
            assert!(
                roles.iter().all(|r| r.role != Role::Invalid),
                "{name}: clean script with invalid tokens"
            );
            // Every name the parser read is in the source map, resolved.
            for r in roles.iter().filter(|r| {
                matches!(
                    r.role,
                    Role::BonePath | Role::BoneRef | Role::SlotRef | Role::AttachmentRef
                )
            }) {
                let at = r.span.start + u32::from(text.as_bytes()[r.span.start as usize] == b'@');
                let reference = comp.sources.reference_at(at);
                assert!(
                    reference.is_some_and(|x| x.target.is_some()),
                    "{name}: `{}` at {} not resolved",
                    &text[r.span.range()],
                    r.span.start
                );
            }
        }
        // Bone definitions name exactly the bones that were written.
        let sk = &comp.armature.skeleton;
        for r in roles.iter().filter(|r| r.role == Role::BonePath) {
            assert!(
                sk.bone_by_name(&text[r.span.range()]).is_some(),
                "{name}: `{}` is not a bone",
                &text[r.span.range()]
            );
        }
        let keywords = roles.iter().filter(|r| r.role == Role::SectionKeyword).count();
        let headers = text
            .lines()
            .filter(|l| {
                ["skeleton", "skin", "order", "anim", "expect", "ik", "mix"]
                    .iter()
                    .any(|k| l.strip_prefix(k).is_some_and(|r| r.is_empty() || r.starts_with(' ')))
            })
            .count();
        assert_eq!(keywords, headers, "{name}: section keywords");
        // Colours of numbers really parse with the parser's own recognizer.
        for r in roles.iter().filter(|r| r.role == Role::Color) {
            let s = &text[r.span.range()];
            assert!(
                token::color(s.trim_start_matches(['f', 's'])).is_some(),
                "{name}: `{s}` is no color"
            );
        }
    }
    assert!(counted > 1000, "{counted} tokens checked");
}

#[test]
fn the_continued_line_case_reads_as_one_bone_line() {
    let text = "skeleton\n\tarm l40 \\\nr10\n\tleg l20\n";
    let comp = compile(text);
    assert_eq!(comp.armature.skeleton.bones.len(), 2);
    let role_of = |tok: &str| {
        comp.roles().find(|r| r.span.start as usize == text.find(tok).unwrap()).map(|r| r.role)
    };
    assert_eq!(role_of("arm"), Some(Role::BonePath));
    assert_eq!(role_of("r10"), Some(Role::BoneProperty));
    assert_eq!(role_of("leg"), Some(Role::BonePath));
    assert_eq!(role_of("l20"), Some(Role::BoneProperty));
    let rot = comp
        .armature
        .skeleton
        .bone_by_name("arm")
        .map(|b| comp.armature.skeleton.bone(b).setup.rotation_rad);
    assert!((rot.unwrap() - 10f64.to_radians()).abs() < 1e-9);
}
