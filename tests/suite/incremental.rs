//! `Compiler::update` against a fresh `compile` on generated scripts of
//! every style (`generate::styled`), after sequences of small edits like an
//! editor's: typed and deleted characters and line breaks anywhere
//! (inside a bone or slot line, a timeline, a header, across a section
//! boundary, at the very start and end), pasted and cut lines. The update
//! reuses the line index, section trees, rig and animations of the text
//! before; everything it returns must equal what a compile from scratch
//! returns: armature, diagnostics, source map, line index and section
//! offsets.
//!
//! Case counts keep this file to a few seconds in a debug build; set
//! `PROPTEST_CASES=N` for a longer run.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use proptest::prelude::*;
use skelpad::compile::{Compilation, Compiler, Threads, compile};
use skelpad::generate;

fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    ProptestConfig { cases: n, max_shrink_iters: 500, ..ProptestConfig::default() }
}

/// One edit: at a position (wrapped to the text, moved back to a char
/// boundary), delete some bytes (up to the next char boundary) and insert
/// a string.
#[derive(Clone, Debug)]
struct Edit {
    at: usize,
    /// `Some(d)`: `at` picks a section start (a line break followed by a
    /// character other than a tab) and the edit is `d` bytes from it, where
    /// a wrong reuse of the sections on either side would show.
    near_section_start: Option<i8>,
    delete: usize,
    insert: String,
}

fn edit() -> impl Strategy<Value = Edit> {
    let insert = prop_oneof![
        4 => Just(String::new()),
        3 => "[0-9]{1,2}",
        2 => Just("\n".to_string()),
        2 => Just("\t".to_string()),
        1 => Just("\r\n".to_string()),
        1 => Just(" \\\n".to_string()),
        1 => Just("# c\n".to_string()),
        1 => Just("skeleton\n".to_string()),
        1 => Just("anim \"z\"\n\tb\n\t\tx 0 -> 5\n".to_string()),
        1 => Just("\tnew.bone l3\n".to_string()),
        1 => Just("\t!ev 2:\n\t\ts \"a\" -> \"b\"\n".to_string()),
        1 => Just(" delay 3".to_string()),
        1 => Just(" chain 2 reverse".to_string()),
        1 => Just("anim \"m\" from \"z\" mirror pingpong\n".to_string()),
        1 => "[a-z.@ :>{}!\"\\[\\]-]{1,4}",
    ];
    let near = prop_oneof![1 => Just(None), 1 => (-4i8..4).prop_map(Some)];
    let typed = (any::<usize>(), near.clone(), 0usize..4, insert).prop_map(
        |(at, near_section_start, delete, insert)| Edit { at, near_section_start, delete, insert },
    );
    // Characters typed over others: the text keeps its length, so only
    // the contents tell the old section from the new one.
    let overwritten =
        (any::<usize>(), near, "[0-9a-z]{1,3}").prop_map(|(at, near_section_start, insert)| Edit {
            at,
            near_section_start,
            delete: insert.len(),
            insert,
        });
    prop_oneof![2 => typed, 1 => overwritten]
}

fn apply(text: &str, e: &Edit) -> String {
    let starts: Vec<usize> = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .filter(|&i| text[i..].starts_with(|c: char| c != '\t'))
        .collect();
    let mut at = match e.near_section_start {
        Some(d) if !starts.is_empty() => {
            let s = starts[e.at % starts.len()] as isize + isize::from(d);
            s.clamp(0, text.len() as isize) as usize
        }
        _ => e.at % (text.len() + 1),
    };
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut end = (at + e.delete).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    format!("{}{}{}", &text[..at], e.insert, &text[end..])
}

/// `text` with an event item after every `anim` header: string payloads
/// in a loop, and a bare event at an absolute frame.
fn with_events(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    for line in text.split_inclusive('\n') {
        out.push_str(line);
        if line.starts_with("anim") {
            let nl = if line.ends_with("\r\n") { "\r\n" } else { "\n" };
            out.push_str(&format!(
                "\t!step 2:{nl}\t\ts \"l\" {{ -> \"r\" }}[3]{nl}\t!land{nl}\t\te ! 7:> !{nl}"
            ));
        }
    }
    out
}

/// Everything a compilation says, in a comparable form.
fn observe(c: &Compilation) -> String {
    // Offsets and whole trees: an update may splice a section's tree from
    // the last one's (only the edited items of an animation parsed).
    let sections: Vec<_> = c.sections.iter().map(|(start, tree)| (*start, &**tree)).collect();
    let roles: Vec<_> = c.roles().collect();
    format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
        c.armature, c.diagnostics, c.sources, c.lines, sections, roles
    )
}

proptest! {
    #![proptest_config(cases(48))]

    #[test]
    fn updates_after_edits_equal_fresh_compiles_on_generated_scripts(
        style in 0usize..generate::STYLES.len(),
        bones in 3usize..40,
        anims in 1usize..4,
        edits in prop::collection::vec(edit(), 1..8),
        revert_to_start in any::<bool>(),
    ) {
        let (name, style) = &generate::STYLES[style];
        let original = generate::styled(style, bones, anims);
        // Every other case with event items in each animation (the
        // generator writes none).
        let original = if edits.len() % 2 == 0 { with_events(&original) } else { original };
        // Its sections parsed and animations compiled on rayon's threads
        // (these scripts are too small for `Threads::Auto` to share them
        // out); the fresh compiles it is checked against use one thread.
        let mut compiler = Compiler::with_threads(Threads::Always);
        let first = compiler.update(&original);
        prop_assert_eq!(observe(&first), observe(&compile(&original)), "{}: first update", name);
        let mut text = original.clone();
        for (i, e) in edits.iter().enumerate() {
            text = apply(&text, e);
            let inc = compiler.update(&text);
            prop_assert!(
                observe(&inc) == observe(&compile(&text)),
                "{name}, {bones} bones, edit {i} ({e:?}): the update differs from a fresh compile"
            );
        }
        if revert_to_start {
            let inc = compiler.update(&original);
            prop_assert!(observe(&inc) == observe(&first), "{name}: back to the first text");
        }
    }
}

/// A one-character edit inside one animation of a generated script
/// re-parses one section and recompiles one animation, and gives what a
/// fresh compile gives (the edit the `styles` benchmark times).
#[test]
fn a_digit_typed_in_an_animation_reparses_one_section() {
    for (name, style) in generate::STYLES {
        let text = generate::styled(style, 60, 4);
        let anim_at = text.match_indices("anim \"").nth(2).map(|(i, _)| i).unwrap();
        let at = text[anim_at..].find(" -> ").map(|i| anim_at + i + 4).unwrap();
        let edited = format!("{}1{}", &text[..at], &text[at..]);
        let mut compiler = Compiler::new();
        compiler.update(&text);
        let inc = compiler.update(&edited);
        assert_eq!(compiler.last_parsed_sections, 1, "{name}");
        assert_eq!(compiler.last_spliced_sections, 1, "{name}: only the edited item is parsed");
        assert_eq!(compiler.last_compiled_units, 1, "{name}");
        assert_eq!(compiler.last_replayed_anims, 1, "{name}: its untouched items taken over");
        assert_eq!(observe(&inc), observe(&compile(&edited)), "{name}");
    }
}

/// A one-character edit of a bone's length half-way down the skeleton of a
/// generated script re-parses only that bone's lines (spliced into the
/// skeleton's last tree) and rebuilds only the rig (no name changed, so
/// no animation), and gives what a fresh compile gives (the edit the
/// `styles` benchmark times).
#[test]
fn a_digit_typed_in_the_skeleton_reparses_one_bone_line() {
    for (name, style) in generate::STYLES {
        let text = generate::styled(style, 60, 4);
        let end = text.find("\nanim ").unwrap();
        let at = text[end / 2..end]
            .match_indices(" l")
            .map(|(i, _)| end / 2 + i + 2)
            .find(|&at| text.as_bytes()[at].is_ascii_digit())
            .unwrap();
        let edited = format!("{}1{}", &text[..at], &text[at..]);
        let mut compiler = Compiler::new();
        let held = compiler.update(&text);
        let inc = compiler.update(&edited);
        assert_eq!(compiler.last_parsed_sections, 1, "{name}");
        assert_eq!(compiler.last_spliced_sections, 1, "{name}: only the edited bone is parsed");
        assert_eq!(compiler.last_compiled_units, 1, "{name}: the rig only");
        assert_eq!(observe(&inc), observe(&compile(&edited)), "{name}");
        drop((held, inc));
        // Back, with no compilation held.
        let back = compiler.update(&text);
        assert_eq!(compiler.last_spliced_sections, 1, "{name}");
        assert_eq!(observe(&back), observe(&compile(&text)), "{name}");
    }
}

/// Renaming a bone changes the rig's names, yet an animation whose every
/// lookup finds what it found before (or the same things renumbered) is
/// not compiled again; one that names the renamed bone is, and each update
/// equals a fresh compile.
#[test]
fn a_renamed_bone_recompiles_only_the_animations_that_name_it() {
    let text = "skeleton\n\tarm l20\n\tarm.hand x20\n\t\t@grip[open] :rect w2 h2\n\t\t@grip[shut] :circle d2\n\tleg l5\nanim \"a\"\n\tarm\n\t\tr 0 -> 90\n\t@grip\n\t\t@ open -> shut\nanim \"b\"\n\tleg\n\t\tx 0 -> 5\n";
    let mut compiler = Compiler::new();
    compiler.update(text);
    let cases = [
        // (edit, units compiled: the rig and the animations naming it)
        (("\tleg l5", "\tlegs l5"), 2),
        (("\tarm.hand x20", "\tarm.hands x20"), 1),
        (("[shut]", "[shot]"), 2),
        (("\tleg l5", "\tleg l5\n\tlegs"), 1),
        // Every bone after `back` moves: both animations are renumbered.
        (("skeleton\n", "skeleton\n\tback\n"), 1),
        // So do the slots and attachments after `first`'s.
        (("skeleton\n", "skeleton\n\tfirst\n\t\t@[x] :rect w1 h1\n\t\t@[y] :rect w1 h1\n"), 1),
        // `leg.arm` makes `arm` ambiguous: animation `a` names it.
        (("\tleg l5", "\tleg l5\n\tleg.arm"), 2),
    ];
    for ((from, to), units) in cases {
        let edited = text.replace(from, to);
        let inc = compiler.update(&edited);
        assert_eq!(compiler.last_compiled_units, units, "{to:?}");
        assert_eq!(observe(&inc), observe(&compile(&edited)), "{to:?}");
        // Then a digit typed in an item of `a`: its other items are taken
        // over from the output kept (renumbered, maybe) through the rename.
        let typed = edited.replace("r 0 -> 90", "r 0 -> 910");
        drop(inc);
        let inc = compiler.update(&typed);
        assert_eq!(compiler.last_replayed_anims, 1, "{to:?}, then a digit");
        assert_eq!(observe(&inc), observe(&compile(&typed)), "{to:?}, then a digit");
        let back = compiler.update(text);
        assert_eq!(observe(&back), observe(&compile(text)), "back from {to:?}");
    }
}

/// A hand-written script with what generated ones lack: two timelines for
/// the same property of one bone in different items (the later replaces
/// the earlier), a `c` timeline after `r g b a` ones, an animation in two
/// sections of the same name, nested loops with counts, options on items
/// and inside timelines, relative values, a continued line, comments and
/// blank lines between items, an unknown and an ambiguous target, and a
/// pose assertion that reads the animation.
const TRICKY: &str = "skeleton\n\
\tarm l20\n\
\tarm.hand x20 l10\n\
\t\t@[a] :rect w4 h4\n\
\t\t@[b] :circle r3\n\
\tleg.hand x5\n\
anim \"walk\" 24fps 0:4:sio\n\
\tarm 2:\n\
\t\tr 0 -> 30 --> -10 { +5 -> }[2]\n\
\t\tx 1 -> *2 -> +3\n\
\t# between items\n\
\n\
\tarm.hand\n\
\t\ty 0 :2:so-> 4 { 1 { 2 -> }[2] -> }[0] 9\n\
\t@hand 5::li\n\
\t\t@ a --> b -> a\n\
\t\tr 0.5 -> 1\n\
\t\tc #ff0000 -> #00ff00\n\
\tarm\n\
\t\tr 90 -> \\\n\
\t\t\t45\n\
\thand\n\
\t\tx 1 -> 2\n\
\tnope\n\
\t\tx 1\n\
\t!step 3:\n\
\t\ts \"l\" -> \"r\" { -> }[2]\n\
\t\ti 1 -> +1\n\
anim \"walk\"\n\
\tleg.hand\n\
\t\ti 1 -> 2 +2:-> 3\n\
\t!step\n\
\t\te ! 4:> !\n\
expect \"walk\" 4 ~0.5\n\
\tarm r45 ~1\n";

/// Every one-character edit of the animation sections of [`TRICKY`] (a
/// character typed at each position, each character deleted), compiled
/// incrementally from the script before it and also after dropping the
/// last compilation (which lets the compiler edit its cached trees in
/// place), equals a fresh compile.
#[test]
fn every_one_character_edit_of_an_animation_equals_a_fresh_compile() {
    let from = TRICKY.find("anim \"walk\" 24fps").unwrap();
    let to = TRICKY.find("expect").unwrap();
    assert!(every_one_character_edit_equals_a_fresh_compile(from, to) > 4000);
}

/// [`every_one_character_edit_of_an_animation_equals_a_fresh_compile`] for
/// the skeleton section of [`TRICKY`], whose edited bone lines are parsed
/// alone and spliced into its last tree.
#[test]
fn every_one_character_edit_of_the_skeleton_equals_a_fresh_compile() {
    let to = TRICKY.find("anim \"walk\" 24fps").unwrap();
    assert!(every_one_character_edit_equals_a_fresh_compile(0, to) > 1000);
}

/// Checks each one-character edit of `TRICKY[from..to]` as
/// [`every_one_character_edit_of_an_animation_equals_a_fresh_compile`]
/// says; gives how many it checked.
fn every_one_character_edit_equals_a_fresh_compile(from: usize, to: usize) -> usize {
    let mut compiler = Compiler::new();
    let mut held = compiler.update(TRICKY);
    assert_eq!(observe(&held), observe(&compile(TRICKY)));
    let mut checked = 0;
    for at in from..=to {
        let mut edits: Vec<String> =
            ["1", "-", "\n", "\t", " ", "x", "#", "{", "}", ">", "@", ":", "!"]
                .iter()
                .map(|c| format!("{}{c}{}", &TRICKY[..at], &TRICKY[at..]))
                .collect();
        if at < to {
            edits.push(format!("{}{}", &TRICKY[..at], &TRICKY[at + 1..]));
        }
        for (k, edited) in edits.iter().enumerate() {
            // Alternately keep the last compilation alive (trees shared, so
            // copied) and drop it first (trees edited in place).
            if (at + k) % 2 == 0 {
                drop(held);
            }
            let inc = compiler.update(edited);
            let fresh = compile(edited);
            assert!(
                observe(&inc) == observe(&fresh),
                "edit {k} at byte {at}: the update differs from a fresh compile\n{edited}"
            );
            drop(inc);
            held = compiler.update(TRICKY);
            checked += 1;
        }
    }
    checked
}

/// A script with what generated ones lack: attachment switches (to names
/// the slot has and lacks), items naming unknown and ambiguous bones, an
/// animation written in two sections, an item before any other line, a
/// continued line, and colour keys and absolute frame options in two items
/// (kept out of the keys, in lists an edit before them renumbers).
const HAND: &str = "skeleton\n\tarm l20\n\t\t@hand[open] :rect w2 h2\n\t\t@hand[shut] :circle d3\n\tleg.arm l5\n\tleg\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 90 -> { +5 -> }[2]\n\t\tx 1 -> 2\n\t@hand\n\t\t@ shut -> open -> lost\n\t\ta 1 -> 0.5\n\t\tc #ff0000 -> 8:> #00ff00\n\tnobody\n\t\tx 1\n\tleg\n\t\ty 3 -> \\\n\t\t4\n\t@hand :2:si\n\t\t@ open -> gone\n\t\tc #0000ff -> 6:> #ffffff\nanim \"other\"\n\tleg.arm\n\t\tr 5 -> 10\nanim \"wave\" 0:2:so\n\tarm\n\t\tx 9 -> 8\n\t!hit 2:\n\t\tf 0.5 -> 1\n\t@hand\n\t\t@ open\n\t!hit\n\t\te ! 4:> !\n";

/// Every one-byte insertion (of characters that change items: digits,
/// names, tabs, line breaks, `@`, `\`) and deletion at every position of
/// [`HAND`], each from the unedited text and back: the update equals a
/// fresh compile, whichever of its trees and animations it splices.
#[test]
fn every_one_byte_edit_of_a_hand_written_script() {
    let messages: Vec<String> = compile(HAND).diagnostics.into_iter().map(|d| d.message).collect();
    for what in ["ambiguous bone reference `arm`", "unknown bone `nobody`", "no attachment `lost`"]
    {
        assert!(messages.iter().any(|m| m.contains(what)), "{what} not in {messages:?}");
    }
    let mut compiler = Compiler::with_threads(Threads::Always);
    let base = observe(&compiler.update(HAND));
    assert_eq!(base, observe(&compile(HAND)));
    let mut spliced = 0;
    for at in 0..=HAND.len() {
        let mut edits: Vec<String> = ["1", "a", "\n", "\t", "@", "\\", " ", ".", "!"]
            .iter()
            .map(|ins| format!("{}{ins}{}", &HAND[..at], &HAND[at..]))
            .collect();
        if at < HAND.len() {
            edits.push(format!("{}{}", &HAND[..at], &HAND[at + 1..]));
        }
        for text in edits {
            let inc = observe(&compiler.update(&text));
            spliced += compiler.last_spliced_sections;
            let fresh = observe(&compile(&text));
            assert!(
                inc == fresh,
                "{text:?}: the update differs ({})",
                first_difference(&inc, &fresh)
            );
            assert!(observe(&compiler.update(HAND)) == base, "{text:?}: back to the start");
        }
    }
    assert!(spliced > 500, "only {spliced} updates spliced an animation's items");
}

/// On scripts large enough for `Threads::Auto` to share sections and
/// animations among threads, the compile equals one made on one thread, in
/// every generated style, and so do an update after a bone is added to
/// the skeleton (every animation renumbered) and one after every animation
/// is renamed (all recompiled at once).
#[test]
fn work_shared_among_threads_gives_what_one_thread_gives() {
    for (name, style) in generate::STYLES {
        let text = generate::styled(style, 400, 6);
        assert!(text.len() >= Threads::MIN_SHARED_BYTES, "{name}: {} bytes", text.len());
        let one = observe(&Compiler::with_threads(Threads::One).update(&text));
        let mut shared = Compiler::new();
        assert!(observe(&shared.update(&text)) == one, "{name}: a compile from scratch differs");
        // A bone added before the others renumbers them: the animations
        // are kept, renumbered.
        let added = text.replacen("\n\t", "\n\tadded_bone\n\t", 1);
        assert_ne!(added, text);
        let inc = observe(&shared.update(&added));
        assert_eq!(shared.last_compiled_units, 1, "{name}: the rig only");
        let one = observe(&Compiler::with_threads(Threads::One).update(&added));
        assert!(inc == one, "{name}: the update differs ({})", first_difference(&inc, &one));
        // Every animation renamed as well: all of them compiled again.
        let renamed = added.replace("anim \"", "anim \"re");
        let inc = observe(&shared.update(&renamed));
        assert!(shared.last_compiled_units > 2, "{name}: {}", shared.last_compiled_units);
        let one = observe(&Compiler::with_threads(Threads::One).update(&renamed));
        assert!(inc == one, "{name}: the update differs ({})", first_difference(&inc, &one));
    }
}

/// Where two observations part (a few fields around the first difference).
fn first_difference(a: &str, b: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split(", ").collect(), b.split(", ").collect());
    let i = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let around = |v: &[&str]| v[i.saturating_sub(2)..(i + 3).min(v.len())].join(", ");
    format!("update: …{}…; fresh: …{}…", around(&a), around(&b))
}

/// The rig is started before the other sections are parsed, on the
/// strength of each section's first physical line; a header continued onto
/// the next line (`skeleton\` + `#FC0`) is a rig section only once parsed, and
/// the compile still equals one made on one thread, from scratch and after
/// edits that move sections into and out of the rig.
#[test]
fn a_rig_header_seen_only_by_the_parse_still_builds_the_rig() {
    let body = generate::styled(&generate::STYLES[0].1, 30, 3);
    let split = body.replacen("skeleton ", "skeleton\\\n", 1);
    assert_ne!(split, body);
    assert!(!skelpad::syntax::opens_rig_section(&split[split.find("skeleton").unwrap()..]));
    let renamed = split.replacen("skeleton\\\n", "skeletons\\\n", 1);
    for text in [&split, &renamed, &body, &split] {
        let one = observe(&Compiler::with_threads(Threads::One).update(text));
        let shared = observe(&Compiler::with_threads(Threads::Always).update(text));
        assert!(shared == one, "{}", first_difference(&shared, &one));
    }
    let mut compiler = Compiler::with_threads(Threads::Always);
    for text in [&split, &renamed, &body, &split, &body] {
        let inc = observe(&compiler.update(text));
        let one = observe(&Compiler::with_threads(Threads::One).update(text));
        assert!(inc == one, "{}", first_difference(&inc, &one));
    }
    // And the split header is a skeleton: the armature is the one of the
    // unsplit script, on any number of threads (a rig built only from the
    // foreseen sections would have no bones, on one thread too).
    let whole = format!("{:?}", compile(&body).armature);
    for threads in [Threads::One, Threads::Always] {
        let comp = Compiler::with_threads(threads).update(&split);
        assert_eq!(comp.armature.skeleton.bones.len(), 30);
        assert!(format!("{:?}", comp.armature) == whole, "{threads:?}");
    }
}

/// A skeleton section parsed in two halves (`skeleton_cut`,
/// `parse_skeleton_from`, `join_skeleton`) is the section parsed whole, at
/// every place it can be cut, in every generated style, every example,
/// conformance and diagnostics fixture, and a hand-written skeleton full of
/// what recovery has to handle (invalid bones, slots outside bones, path
/// commands in the wrong place, nested lines skipped, comments, continued
/// lines, CRLF, non-ASCII text).
#[test]
fn a_skeleton_parsed_in_two_halves_is_the_skeleton_parsed_whole() {
    use skelpad::syntax::{join_skeleton, parse_section, parse_skeleton_from, skeleton_cut};
    const HAND: &str = "skeleton #FC0\n\
        \tarm l20 x5\n\t\t@ :rect w4 h2\n\t\t\tM 0,0\n\
        \t9bad l3\n\t\tnested under it\n\t\t\tand deeper\n\
        \tleg\n\t\tfoo bar\n\t\t\tL 1,1\n\
        # a comment\n\t# an indented comment\n\tleg.foot r10 \\\n\t\tx4\n\
        \t\t@s[a] :path\n\t\t\tM 0,0\n\t\t\tL 5,5\n\t\t\tX 1\n\
        \t\t\t\tfour deep\n\
        \tcaf\u{e9}.x l2\n\t\t@ :circle d3\n\
        \thead  \u{2003} r5\r\n\t\t@ :ellipse w2 h3\r\n\
        \t\t\tM 1,1\n\t tail\n\t\t@ :rect w1 h1\n\
        \tz l1 unknownprop\n\t\t@[b] :circle d1\n\tq l1 \\\n\tr5\n\t\t@ :circle d2\n";
    let mut texts: Vec<(String, String)> = vec![("hand".into(), HAND.into())];
    for (name, style) in generate::STYLES {
        texts.push((name.to_string(), generate::styled(style, 40, 2)));
    }
    for dir in
        ["examples", "tests/conformance", "tests/conformance_extra", "tests/fixtures/diagnostics"]
    {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        for entry in std::fs::read_dir(&root).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "skel2d") {
                texts.push((path.display().to_string(), std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut cuts = 0;
    for (name, text) in &texts {
        for sl in skelpad::syntax::split_sections(text) {
            let src = &text[sl.start as usize..sl.end as usize];
            if !src.starts_with("skeleton") {
                continue;
            }
            let whole = parse_section(src);
            let mut at = 0;
            while let Some(cut) = skeleton_cut(src, at) {
                let joined =
                    join_skeleton(parse_section(&src[..cut]), parse_skeleton_from(src, cut))
                        .unwrap_or_else(|| panic!("{name}: the head at {cut} is no skeleton"));
                assert!(joined == whole, "{name}: cut at {cut}:\n{joined:?}\n{whole:?}");
                cuts += 1;
                at = cut;
            }
        }
    }
    assert!(cuts > 300, "only {cuts} cuts tried");
    // The hand-written skeleton's recovery is there to be tested: it has
    // errors, and a cut lands after each kind.
    assert!(parse_section(HAND).diagnostics.len() >= 6);
}
