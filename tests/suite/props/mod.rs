//! Property tests of the whole pipeline (text → compile → evaluate):
//!
//! (a) arbitrary text never panics and every diagnostic span is a valid
//!     range of the text on char boundaries;
//! (b) random mutations of the conformance scripts never panic;
//! (c) incremental compilation gives what compiling from scratch gives;
//! (d) every pose matrix is finite;
//! (e) the byte-level section split agrees with the definition over
//!     logical lines.
//!
//! Case counts keep this file to a few seconds in a debug build; set
//! `PROPTEST_CASES=N` for a longer run (it overrides every count here).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::sample::select;
use skelpad::compile::{Compilation, Compiler, compile};
use skelpad::model::{AnimId, Armature, SkinId};
use skelpad::runtime::evaluate;

mod properties;

fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    ProptestConfig { cases: n, max_shrink_iters: 2_000, ..ProptestConfig::default() }
}

// ---- shared checks ---------------------------------------------------------

/// Every diagnostic span lies inside the text, on char boundaries.
fn check_spans(text: &str, c: &Compilation) -> Result<(), TestCaseError> {
    for d in &c.diagnostics {
        let (s, e) = (d.span.start as usize, d.span.end as usize);
        prop_assert!(
            s <= e && e <= text.len(),
            "span {s}..{e} outside a text of {} bytes: {d:?}",
            text.len()
        );
        prop_assert!(
            text.is_char_boundary(s) && text.is_char_boundary(e),
            "span {s}..{e} splits a character: {d:?}"
        );
        prop_assert!(!d.message.is_empty());
    }
    Ok(())
}

/// Poses of the setup and of every animation in every skin at a few times
/// (including times outside the animation and non-finite ones).
fn for_each_pose(
    arm: &Armature,
    mut f: impl FnMut(&str, &skelpad::runtime::Pose) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    for skin in 0..arm.skeleton.skins.len() {
        let skin = SkinId::from_index(skin);
        f("setup", &evaluate(arm, None, skin, 0.0))?;
        for (i, a) in arm.animations.iter().enumerate() {
            let d = a.duration_secs;
            for t in [0.0, d * 0.37, d, d * 1.5 + 0.1, -1.0] {
                f(&a.name, &evaluate(arm, Some(AnimId::from_index(i)), skin, t))?;
            }
        }
    }
    Ok(())
}

fn check_finite(arm: &Armature) -> Result<(), TestCaseError> {
    for_each_pose(arm, |anim, pose| {
        for (b, bp) in arm.skeleton.bones.iter().zip(&pose.bones) {
            prop_assert!(
                bp.world.is_finite(),
                "bone `{}` has a non-finite matrix in `{anim}`: {:?}",
                b.name,
                bp.world
            );
        }
        for (s, sp) in arm.skeleton.slots.iter().zip(&pose.slots) {
            prop_assert!(
                sp.color.to_array().iter().all(|c| c.is_finite()),
                "slot `{}` color in `{anim}`: {:?}",
                s.name,
                sp.color
            );
        }
        Ok(())
    })
}

/// Compiles and poses a text: nothing may panic, spans must be valid.
fn exercise(text: &str) -> Result<Compilation, TestCaseError> {
    let c = compile(text);
    check_spans(text, &c)?;
    for_each_pose(&c.armature, |_, _| Ok(()))?;
    // Odd times must not panic either.
    for i in 0..c.armature.animations.len() {
        for t in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300] {
            let _ = evaluate(&c.armature, Some(AnimId::from_index(i)), SkinId(0), t);
        }
    }
    Ok(c)
}

// ---- inputs ------------------------------------------------------------------

/// Fragments that make random text look like a script often enough to
/// reach deep into the parser and compiler.
const ATOMS: &[&str] = &[
    "\t",
    "\t",
    "\t\t",
    "\n",
    "\n",
    "\n\t",
    "\n\t\t",
    "\n\t\t\t",
    "\r",
    "\r\n",
    "\\",
    "\\\n",
    " ",
    "  ",
    "#",
    "# ",
    "@",
    ":",
    "{",
    "}",
    "}[",
    "]",
    ">",
    "->",
    "-->",
    "-",
    "+",
    "*",
    ",",
    ".",
    "\"",
    "[",
    "é",
    "𝄞",
    "\u{a0}",
    "\u{2028}",
    "\u{feff}",
    "skeleton",
    "skin",
    "order",
    "anim",
    "\"a\"",
    "\"default\"",
    ":path",
    ":rect",
    ":circle",
    ":ellipse",
    ":sprite",
    ":none",
    "M",
    "L",
    "Q",
    "B",
    "C",
    "x",
    "y",
    "r",
    "i",
    "j",
    "s",
    "t",
    "c",
    "a",
    "d",
    "w",
    "h",
    "l",
    "f",
    "0",
    "1",
    "5",
    "-3.5",
    "#F00",
    "#ABC,0.5",
    "fps",
    "20fps",
    "0fps",
    "0:5:li",
    "::sio",
    ":2",
    "+1::>",
    "true",
    "false",
    "hip",
    "arm.hand",
    "skeleton.",
    "flip-x",
    "no-rot",
    "no-scale",
    "}[0]",
    "}[3]",
    "i0",
    "j0",
    "r90",
    "x10",
    "ik",
    "to",
    "up",
    "from",
    "arc",
    "cw",
];

/// Whole lines that are valid in some section, so that random text often
/// builds bones, slots and animations for the random lines to disturb.
const LINES: &[&str] = &[
    "skeleton",
    "skeleton #F00",
    "anim \"a\"",
    "anim \"b\" 10fps 0:2:si",
    "anim",
    "skin \"s\"",
    "order",
    "\thip x5",
    "\thip.arm r45 l10 i0",
    "\tarm.hip no-rot flip-x",
    "\t\t@ :rect w4 h4",
    "\t\t@s[a] :path",
    "\t\t@[b] :circle d3",
    "\t\t\tL 1,1:hip",
    "\t\t\t: arm",
    "\t\t\tC",
    "\t\t\tQ 1,1 2,2",
    "\t@hip",
    "\t@hip.hip[hip] :circle d3",
    "\t@s[a] :path",
    "\t\tM 0,0",
    "\thip",
    "\tarm 2:",
    "\t@arm",
    "\t@s",
    "\t\tx 0 -> 10",
    "\t\tr 0 { -> +10 }[3]",
    "\t\t@ hip -> a -> b",
    "\t\tc #F00 -> #00F",
    "\t\ti 1 -> 0 -> *2",
    "\t\ts false -> true",
    // Whole blocks.
    "skeleton\n\thip l10\n\t\t@ :rect w4 h4\n\t\t@[a] :circle d2\n\thip.arm x10\n\t\t@s[a] :path\n\t\t\tL 1,1:hip",
    "anim \"a\"\n\thip\n\t\tx 0 -> 10 -> 0\n\t@hip\n\t\t@ a -> hip",
    "anim \"b\" 0:2:so\n\tarm\n\t\tr 0 { -> +90 }[4]\n\t@s\n\t\tc #FFF -> #F00,0.5",
    "skin \"s\"\n\t@hip :rect w9 h9\n\t@s[a] :path\n\t\tL 2,2",
    // IK (LANGUAGE-EXT.md).
    "ik",
    "\tarm to hip up 1 cw",
    "\thip.arm to arm from hip arc",
    "\tarm to up 64 ccw fabrik",
    "ik\n\tarm to hip up 1\n\thip to arm from hip",
    "skeleton\n\thip l10\n\thip.arm x10 l5\n\thip.arm.hand x5\n\tgoal x8 y3\nik\n\thand to goal up 2 ccw",
];

/// One line: some tabs, then atoms and random characters.
fn random_line() -> impl Strategy<Value = String> {
    let indent =
        prop_oneof![2 => Just(0usize), 3 => Just(1), 3 => Just(2), 2 => Just(3), 1 => Just(4)];
    let piece = prop_oneof![
        4 => select(ATOMS).prop_map(str::to_string),
        1 => any::<char>().prop_map(String::from),
    ];
    let sep = prop_oneof![6 => Just(" "), 2 => Just(""), 1 => Just("\t")];
    (indent, prop::collection::vec((piece, sep), 0..7)).prop_map(|(n, pieces)| {
        let mut line = "\t".repeat(n);
        for (p, sep) in pieces {
            line.push_str(&p);
            line.push_str(sep);
        }
        line
    })
}

/// Text made of script lines, random lines and line endings of every kind.
fn atom_text() -> impl Strategy<Value = String> {
    let line = prop_oneof![3 => select(LINES).prop_map(str::to_string), 2 => random_line()];
    let end = prop_oneof![8 => Just("\n"), 1 => Just("\r\n"), 1 => Just("\\\n")];
    prop::collection::vec((line, end), 0..30)
        .prop_map(|v| v.into_iter().map(|(l, e)| format!("{l}{e}")).collect())
}

fn conformance_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance")
}

/// The conformance scripts (or, where that folder is absent, the examples).
fn scripts() -> &'static [(String, String)] {
    static SCRIPTS: OnceLock<Vec<(String, String)>> = OnceLock::new();
    SCRIPTS.get_or_init(|| {
        let read = |dir: &Path| -> Vec<(String, String)> {
            let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
                .into_iter()
                .flatten()
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
                .filter_map(|p| {
                    Some((
                        p.file_name()?.to_string_lossy().into_owned(),
                        std::fs::read_to_string(&p).ok()?,
                    ))
                })
                .collect();
            v.sort();
            v
        };
        let mut v = read(&conformance_dir());
        if v.is_empty() {
            eprintln!(
                "note: {} has no scripts; mutating the examples instead",
                conformance_dir().display()
            );
            v = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"));
        }
        assert!(!v.is_empty(), "no scripts to mutate");
        v
    })
}

/// One random edit. Positions are reduced modulo the text length when applied.
#[derive(Clone, Debug)]
enum Edit {
    InsertAtom(usize, &'static str),
    InsertByte(usize, u8),
    DeleteBytes(usize, usize),
    DeleteChars(usize, usize),
    DuplicateLine(usize),
    DeleteLine(usize),
    SwapLines(usize, usize),
    TabToSpace(usize),
    SpaceToTab(usize),
    Indent(usize),
    Dedent(usize),
    /// Copies the section (column-0 line and what follows) to the end.
    DuplicateSection(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    let n = any::<usize>();
    prop_oneof![
        3 => (n, select(ATOMS)).prop_map(|(p, a)| Edit::InsertAtom(p, a)),
        2 => (n, any::<u8>()).prop_map(|(p, b)| Edit::InsertByte(p, b)),
        2 => (n, 1..6usize).prop_map(|(p, l)| Edit::DeleteBytes(p, l)),
        2 => (n, 1..6usize).prop_map(|(p, l)| Edit::DeleteChars(p, l)),
        2 => n.prop_map(Edit::DuplicateLine),
        2 => n.prop_map(Edit::DeleteLine),
        1 => (n, n).prop_map(|(a, b)| Edit::SwapLines(a, b)),
        2 => n.prop_map(Edit::TabToSpace),
        1 => n.prop_map(Edit::SpaceToTab),
        1 => n.prop_map(Edit::Indent),
        1 => n.prop_map(Edit::Dedent),
        1 => n.prop_map(Edit::DuplicateSection),
    ]
}

/// The nth char boundary of `s`, wrapping (the end of the text included).
fn char_pos(s: &str, n: usize) -> usize {
    let count = s.chars().count() + 1;
    s.char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(s.len()))
        .nth(n % count)
        .unwrap_or(s.len())
}

/// Byte offset of the nth occurrence of `c`, wrapping.
fn nth_of(s: &str, c: char, n: usize) -> Option<usize> {
    let hits: Vec<usize> = s.match_indices(c).map(|(i, _)| i).collect();
    (!hits.is_empty()).then(|| hits[n % hits.len()])
}

fn apply(text: &str, e: &Edit) -> String {
    let mut lines: Vec<&str> = text.split_inclusive('\n').collect();
    let line = |n: usize| if lines.is_empty() { None } else { Some(n % lines.len()) };
    match *e {
        Edit::InsertAtom(p, a) => {
            let at = char_pos(text, p);
            format!("{}{a}{}", &text[..at], &text[at..])
        }
        Edit::InsertByte(p, b) => {
            let mut bytes = text.as_bytes().to_vec();
            let at = p % (bytes.len() + 1);
            bytes.insert(at, b);
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Edit::DeleteBytes(p, l) => {
            let mut bytes = text.as_bytes().to_vec();
            let at = p % (bytes.len() + 1);
            bytes.drain(at..(at + l).min(bytes.len()));
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Edit::DeleteChars(p, l) => {
            let start = char_pos(text, p);
            let end = text[start..].char_indices().nth(l).map_or(text.len(), |(i, _)| start + i);
            format!("{}{}", &text[..start], &text[end..])
        }
        Edit::DuplicateLine(n) => {
            if let Some(i) = line(n) {
                let l = lines[i];
                lines.insert(i, l);
                if !l.ends_with('\n') {
                    return format!("{}\n{}", lines[..=i].concat(), lines[i + 1..].concat());
                }
            }
            lines.concat()
        }
        Edit::DeleteLine(n) => {
            if let Some(i) = line(n) {
                lines.remove(i);
            }
            lines.concat()
        }
        Edit::SwapLines(a, b) => {
            if let (Some(a), Some(b)) = (line(a), line(b)) {
                lines.swap(a, b);
            }
            // A last line without `\n` may now sit in the middle.
            lines
                .iter()
                .map(|l| if l.ends_with('\n') { l.to_string() } else { format!("{l}\n") })
                .collect()
        }
        Edit::TabToSpace(n) => match nth_of(text, '\t', n) {
            Some(i) => format!("{} {}", &text[..i], &text[i + 1..]),
            None => text.to_string(),
        },
        Edit::SpaceToTab(n) => match nth_of(text, ' ', n) {
            Some(i) => format!("{}\t{}", &text[..i], &text[i + 1..]),
            None => text.to_string(),
        },
        Edit::Indent(n) => {
            let Some(i) = line(n) else { return text.to_string() };
            let mut out: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            out[i].insert(0, '\t');
            out.concat()
        }
        Edit::Dedent(n) => {
            let Some(i) = line(n) else { return text.to_string() };
            let mut out: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            if out[i].starts_with('\t') {
                out[i].remove(0);
            }
            out.concat()
        }
        Edit::DuplicateSection(n) => {
            let starts: Vec<usize> = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| !l.starts_with('\t') && !l.trim().is_empty())
                .map(|(i, _)| i)
                .collect();
            if starts.is_empty() {
                return text.to_string();
            }
            let k = n % starts.len();
            let end = starts.get(k + 1).copied().unwrap_or(lines.len());
            let section = lines[starts[k]..end].concat();
            let mut out = text.to_string();
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&section);
            out
        }
    }
}
