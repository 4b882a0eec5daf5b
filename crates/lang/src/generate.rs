//! Deterministic synthetic scripts for benchmarks and tests.
//!
//! [`script`] is the original benchmark rig (chains of eight, one shape per
//! bone). [`styled`] writes the same kind of rig in one of several [`Style`]s
//! — deep chains or wide fans, short or long names, comments, several slots
//! per bone, skins, nested loops, relative values, CRLF — so that benchmarks
//! run on scripts whose shape the code was not tuned for. [`STYLES`] names the
//! set the benchmarks use.

use std::fmt::Write;

/// A small deterministic generator (xorshift), so scripts are the same on
/// every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// A signed whole number in `-half..half`.
    fn signed(&mut self, half: u64) -> i64 {
        self.below(2 * half) as i64 - half as i64
    }
}

/// Name of bone `i` of a generated rig: bones hang in chains of up to eight,
/// so names are dotted paths like `b0.b1.b2`.
fn bone_path(i: usize, chain: usize) -> String {
    let start = i - i % chain;
    (start..=i).map(|k| format!("b{k}")).collect::<Vec<_>>().join(".")
}

/// A script with `bones` bones (chains of eight), one shape per bone, and
/// `anims` animations each animating about 30% of the bones with loops,
/// steps and easings.
pub fn script(bones: usize, anims: usize) -> String {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let chain = 8;
    let mut s = String::with_capacity(bones * 120);
    s.push_str("# generated rig\nskeleton #FC0\n");
    for i in 0..bones {
        let path = bone_path(i, chain);
        let (x, y, r) =
            (rng.below(40) as i64 - 20, rng.below(40) as i64 - 20, rng.below(90) as i64 - 45);
        let _ = writeln!(s, "\t{path} l{} x{x} y{y} r{r}", 10 + rng.below(30));
        let shape = match i % 4 {
            0 => format!(
                ":rect w{} h{} d4 t1 f#{:03X} s#000",
                8 + rng.below(20),
                4 + rng.below(10),
                rng.below(0xFFF)
            ),
            1 => format!(":circle d{} t2 f#{:03X}", 6 + rng.below(20), rng.below(0xFFF)),
            2 => format!(
                ":ellipse w{} h{} t0 f#{:03X},0.8",
                8 + rng.below(20),
                4 + rng.below(10),
                rng.below(0xFFF)
            ),
            _ => format!(
                ":rect w{} h{} t0 f#{:03X} x5",
                8 + rng.below(20),
                4 + rng.below(10),
                rng.below(0xFFF)
            ),
        };
        let _ = writeln!(s, "\t\t@ {shape}");
    }
    let easings = ["li", "si", "so", "sio"];
    for a in 0..anims {
        let _ = writeln!(s, "\nanim \"anim{a}\" 24fps 0:6:li");
        for i in (0..bones).filter(|i| (i * 7 + a * 3) % 10 < 3) {
            let name = format!("b{i}");
            let e = easings[(i + a) % 4];
            match (i + a) % 3 {
                0 => {
                    let _ = writeln!(s, "\t{name} :4:{e}");
                    let _ = writeln!(s, "\t\tr 0 {{ -> {} -> 0 }}[3]", rng.below(60) as i64 - 30);
                }
                1 => {
                    let _ = writeln!(s, "\t{name}");
                    let _ = writeln!(s, "\t\tx 0 :{e}-> {} --> +-5 ->", rng.below(20));
                    let _ = writeln!(s, "\t\ti 1 :8:> 1.2 -> *0.9");
                }
                _ => {
                    let _ = writeln!(s, "\t{name} 2::{e}");
                    let _ = writeln!(s, "\t\ty 0 -> {} -> 0", rng.below(10));
                    let _ = writeln!(s, "\t\tj 1 +6:> 0.8 +6:> 1");
                }
            }
        }
    }
    s
}

/// The worst script the compiler accepts without an error that we could
/// think of for the editor: 5000 bones with a shape each, two generated
/// animations, and an animation as long as the language allows (a key on
/// frame `MAX_KEY_FRAME`, at 1 fps: eleven days) that moves every bone.
pub fn worst_script() -> String {
    let bones = 5000;
    let mut s = script(bones, 2);
    let last = crate::model::MAX_KEY_FRAME as u64;
    let _ = writeln!(s, "\nanim \"longest\" 1fps");
    for i in (0..bones).step_by(8) {
        let _ = writeln!(s, "\tb{i}");
        let _ = writeln!(s, "\t\tr 0 -> 30 {last}:> -30");
    }
    s
}

/// How bones hang together in a [`styled`] script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hierarchy {
    /// Chains of the given length: `a.b.c…` (long dotted paths, deep
    /// accumulation of transforms).
    Chains(usize),
    /// A few roots, each with many direct children (short paths, wide
    /// levels).
    Fans(usize),
}

/// The shape of a [`styled`] script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Chains or fans.
    pub hierarchy: Hierarchy,
    /// Long, word-like bone names (`upper_limb_segment_17`) instead of `b17`.
    pub long_names: bool,
    /// Comment lines, trailing comments and blank lines throughout.
    pub comments: bool,
    /// At most this many slots per bone (1 to 4), each with one or two
    /// attachments.
    pub max_slots: usize,
    /// A few `skin` sections and an `order` section.
    pub skins: bool,
    /// Timelines with nested loops, per-command options and relative values.
    pub rich_timelines: bool,
    /// Lines end in `\r\n`.
    pub crlf: bool,
}

impl Style {
    /// A plain style: chains of eight, short names, one slot, no extras.
    pub const PLAIN: Style = Style {
        hierarchy: Hierarchy::Chains(8),
        long_names: false,
        comments: false,
        max_slots: 1,
        skins: false,
        rich_timelines: false,
        crlf: false,
    };
}

/// The named styles the benchmarks run, each at several sizes.
pub const STYLES: &[(&str, Style)] = &[
    ("plain", Style::PLAIN),
    ("deep-long", Style { hierarchy: Hierarchy::Chains(40), long_names: true, ..Style::PLAIN }),
    ("wide-fans", Style { hierarchy: Hierarchy::Fans(4), rich_timelines: true, ..Style::PLAIN }),
    ("commented-crlf", Style { comments: true, crlf: true, rich_timelines: true, ..Style::PLAIN }),
    (
        "slots-skins",
        Style {
            hierarchy: Hierarchy::Chains(12),
            max_slots: 4,
            skins: true,
            rich_timelines: true,
            ..Style::PLAIN
        },
    ),
    (
        "everything",
        Style {
            hierarchy: Hierarchy::Chains(24),
            long_names: true,
            comments: true,
            max_slots: 3,
            skins: true,
            rich_timelines: true,
            crlf: true,
        },
    ),
];

/// The style named `name` in [`STYLES`].
pub fn style(name: &str) -> Option<Style> {
    STYLES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

const WORDS: [&str; 12] = [
    "upper", "lower", "limb", "segment", "tail", "wing", "spine", "finger", "joint", "tip", "root",
    "blade",
];

/// The last segment of bone `i`'s name; unique in the rig, so it is a valid
/// reference on its own.
fn leaf_name(i: usize, long: bool) -> String {
    if long {
        format!("{}_{}_{}_{i}", WORDS[i % 12], WORDS[(i / 12) % 12], WORDS[(i / 7 + 3) % 12])
    } else {
        format!("b{i}")
    }
}

/// The index of bone `i`'s parent, if any.
fn parent_of(i: usize, hierarchy: Hierarchy) -> Option<usize> {
    match hierarchy {
        Hierarchy::Chains(len) => (!i.is_multiple_of(len.max(1))).then(|| i - 1),
        Hierarchy::Fans(roots) => (i >= roots.max(1)).then(|| i % roots.max(1)),
    }
}

/// A script of `bones` bones and `anims` animations in the given style. It
/// checks without diagnostics (tested for every style in [`STYLES`]).
pub fn styled(style: &Style, bones: usize, anims: usize) -> String {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D ^ (bones as u64).wrapping_mul(0x9E37_79B9));
    let mut s = String::with_capacity(bones * 200);
    // Full dotted names, built parents first.
    let mut paths: Vec<String> = Vec::with_capacity(bones);
    let mut slot_names: Vec<Vec<String>> = Vec::with_capacity(bones);
    // The first attachment of each bone's first slot (for skins).
    let mut first_att: Vec<String> = Vec::with_capacity(bones);
    if style.comments {
        s.push_str("# a generated rig in a commented style\n\n");
    }
    s.push_str("skeleton #FC0\n");
    for i in 0..bones {
        let leaf = leaf_name(i, style.long_names);
        let path = match parent_of(i, style.hierarchy) {
            Some(p) => format!("{}.{leaf}", paths[p]),
            None => leaf.clone(),
        };
        if style.comments && i % 9 == 0 {
            let _ = writeln!(s, "\t# bone {i} of {bones}: {leaf}");
        }
        let (x, y, r) = (rng.signed(20), rng.signed(20), rng.signed(45));
        let _ = write!(s, "\t{path} l{} x{x} y{y} r{r}", 10 + rng.below(30));
        if i % 5 == 0 {
            let _ = write!(s, " i{}.{} j1", 1 + rng.below(2), rng.below(10));
        }
        if style.comments && i % 4 == 1 {
            s.push_str(" # tuned by hand");
        }
        s.push('\n');
        let count = 1 + rng.below(style.max_slots.clamp(1, 4) as u64) as usize;
        let mut names = Vec::with_capacity(count);
        for k in 0..count {
            let slot = if k == 0 { String::new() } else { format!("s{k}") };
            let att2 = rng.below(3) == 0;
            let shape = shape_tokens(&mut rng, i + k);
            if k == 0 {
                first_att.push(if att2 { "a".to_string() } else { leaf.clone() });
            }
            if att2 {
                let _ = writeln!(s, "\t\t@{slot}[a] {shape}");
                let _ = writeln!(s, "\t\t@{slot}[b] {}", shape_tokens(&mut rng, i + k + 1));
            } else {
                let _ = writeln!(s, "\t\t@{slot} {shape}");
            }
            names.push(if k == 0 { format!("{leaf}.{leaf}") } else { format!("{leaf}.{slot}") });
            if style.comments && k == 0 && i % 13 == 0 {
                s.push('\n');
            }
        }
        paths.push(path);
        slot_names.push(names);
    }
    if style.skins {
        for k in 0..3 {
            let _ = writeln!(s, "\nskin \"look{k}\"");
            for i in (0..bones).filter(|i| (i + k) % 7 == 0) {
                let slot = &slot_names[i][0];
                let att = &first_att[i];
                let _ = writeln!(
                    s,
                    "\t@{slot}[{att}] :circle d{} t1 f#{:03X}",
                    4 + rng.below(10),
                    rng.below(0xFFF)
                );
            }
        }
        s.push_str("\norder\n");
        for i in (0..bones).rev().filter(|i| i % 11 == 0) {
            let _ = writeln!(s, "\t@{}", slot_names[i][0]);
        }
    }
    for a in 0..anims {
        write_animation(&mut s, &mut rng, style, a, bones, &slot_names);
    }
    if style.crlf { s.replace('\n', "\r\n") } else { s }
}

fn shape_tokens(rng: &mut Rng, k: usize) -> String {
    match k % 4 {
        0 => format!(
            ":rect w{} h{} d4 t1 f#{:03X} s#000",
            8 + rng.below(20),
            4 + rng.below(10),
            rng.below(0xFFF)
        ),
        1 => format!(":circle d{} t2 f#{:03X}", 6 + rng.below(20), rng.below(0xFFF)),
        2 => format!(
            ":ellipse w{} h{} t0 f#{:03X},0.8 r{}",
            8 + rng.below(20),
            4 + rng.below(10),
            rng.below(0xFFF),
            rng.signed(30)
        ),
        _ => format!(
            ":rect w{} h{} t0 f#{:03X} x5 y-{}",
            8 + rng.below(20),
            4 + rng.below(10),
            rng.below(0xFFF),
            rng.below(5)
        ),
    }
}

fn write_animation(
    s: &mut String,
    rng: &mut Rng,
    style: &Style,
    a: usize,
    bones: usize,
    slots: &[Vec<String>],
) {
    let easings = ["li", "si", "so", "sio"];
    if style.comments {
        let _ = writeln!(s, "\n# animation {a}\n");
    } else {
        s.push('\n');
    }
    let _ = writeln!(s, "anim \"anim{a}\" {}fps 0:{}:li", [24, 30, 12, 60][a % 4], 3 + a % 5);
    for i in (0..bones).filter(|i| (i * 7 + a * 3) % 10 < 3) {
        let name = leaf_name(i, style.long_names);
        let e = easings[(i + a) % 4];
        if style.comments && i % 17 == 0 {
            let _ = writeln!(s, "\t# {name} moves here");
        }
        if !style.rich_timelines {
            let _ = writeln!(s, "\t{name} :4:{e}");
            let _ = writeln!(s, "\t\tr 0 {{ -> {} -> 0 }}[3]", rng.signed(30));
            let _ = writeln!(s, "\t\tx 0 -> {} -> 0", rng.below(20));
            continue;
        }
        match (i + a) % 4 {
            0 => {
                let _ = writeln!(s, "\t{name} :4:{e}");
                let _ = writeln!(
                    s,
                    "\t\tr 0 {{ -> {} {{ :2:so-> +5 -> *0.5 }}[2] -> 0 }}[3]",
                    rng.signed(30)
                );
                let _ = writeln!(s, "\t\tx 0 +3::sio--> +{} -> *1.5 ->", rng.below(9));
            }
            1 => {
                let _ = writeln!(s, "\t{name} 2:3");
                let _ = writeln!(
                    s,
                    "\t\ty 0 {{ -> +{} -> +-{} }}[4] :{e}-> 0",
                    rng.below(8),
                    rng.below(8)
                );
                let _ = writeln!(s, "\t\ti 1 :8:> 1.2 -> *0.9 {{ -> *1.1 }}[2]");
            }
            2 => {
                let _ = writeln!(s, "\t{name} ::{e}");
                let _ = writeln!(s, "\t\tj 1 +6:> 0.8 +6:> 1 {{ --> }}[0] -> 1.1");
                let _ = writeln!(s, "\t\ts false --> true --> false");
            }
            _ => {
                let slot = &slots[i][slots[i].len() - 1];
                let _ = writeln!(s, "\t@{slot} :2:{e}");
                let _ = writeln!(s, "\t\ta 1 -> 0.{} -> 1", 1 + rng.below(8));
                let _ = writeln!(s, "\t\tc #FFF -> #{:03X} -> #FFF", rng.below(0xFFF));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn generated_scripts_are_clean_and_have_the_asked_size() {
        let comp = crate::compile::compile(&super::script(100, 10));
        assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics.first());
        let arm = &comp.armature;
        assert_eq!(arm.skeleton.bones.len(), 100);
        assert_eq!(arm.skeleton.slots.len(), 100);
        assert_eq!(arm.animations.len(), 10);
        // About 30% of the bones are animated in each animation.
        let animated = arm.animations[0]
            .bones
            .iter()
            .map(|c| c.bone)
            .collect::<std::collections::HashSet<_>>()
            .len();
        assert!((25..=35).contains(&animated), "{animated}");
        assert!(arm.animations.iter().all(|a| a.duration_secs > 0.0));
    }

    #[test]
    fn the_worst_script_compiles_cleanly_to_the_longest_animation() {
        let comp = crate::compile::compile(&super::worst_script());
        assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics.first());
        let arm = &comp.armature;
        assert_eq!(arm.skeleton.bones.len(), 5000);
        let a = &arm.animations[arm.animation_by_name("longest").expect("the long one").index()];
        assert_eq!(a.duration_secs * a.fps, crate::model::MAX_KEY_FRAME);
    }

    #[test]
    fn every_style_is_clean_and_has_its_shape() {
        for (name, style) in super::STYLES {
            let text = super::styled(style, 300, 10);
            let comp = crate::compile::compile(&text);
            let first = comp
                .diagnostics
                .first()
                .map(|d| (d.message.clone(), &text[d.span.start as usize..d.span.end as usize]));
            assert!(
                comp.diagnostics.is_empty(),
                "{name}: {} diagnostics, first {first:?}",
                comp.diagnostics.len()
            );
            let arm = &comp.armature;
            assert_eq!(arm.skeleton.bones.len(), 300, "{name}");
            assert_eq!(arm.animations.len(), 10, "{name}");
            assert!(arm.animations.iter().all(|a| a.duration_secs > 0.0), "{name}");
            assert!(arm.skeleton.slots.len() >= 300, "{name}");
            if style.max_slots > 1 {
                assert!(
                    arm.skeleton.slots.len() > 450,
                    "{name}: {} slots",
                    arm.skeleton.slots.len()
                );
            }
            if style.skins {
                assert_eq!(arm.skeleton.skins.len(), 4, "{name}");
            }
            assert_eq!(text.contains("\r\n"), style.crlf, "{name}");
            assert_eq!(text.contains('#') && text.contains("# "), style.comments, "{name}");
            let depth =
                arm.skeleton.bones.iter().map(|b| b.name.matches('.').count()).max().unwrap_or(0);
            match style.hierarchy {
                super::Hierarchy::Chains(n) => assert_eq!(depth, n - 1, "{name}"),
                super::Hierarchy::Fans(_) => assert_eq!(depth, 1, "{name}"),
            }
        }
    }
}
