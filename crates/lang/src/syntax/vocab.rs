//! The language's vocabulary: every fixed word the parser recognizes, what
//! it means to the parser, a short description, and an example of a whole
//! token. The parser looks its words up here ([`lookup`]), its "did you
//! mean" hints compare against these tables, completion (skelpad-ide)
//! proposes them and the Help window lists them, so none of them can name a
//! word the others do not know.
//!
//! Letter properties (`l10`, `x-5`) are read by [`super::token::letter_number`]
//! from a string of letters; their tables here carry the same letters, and
//! the `*_LETTERS` strings the parser passes are made from them (a test
//! checks the two agree letter for letter).

use super::tree::{BoneProp, EventKind, TimelineProp, TypeName};
use crate::model::{Easing, LineCap, LineJoin};

/// One word of the language.
#[derive(Debug)]
pub struct Word<T: 'static> {
    /// The word as written (for a letter property, its letter).
    pub text: &'static str,
    /// What it means to the parser.
    pub means: T,
    /// What it does, in a few words (with its form when it takes a value,
    /// e.g. `lNUM: length`).
    pub detail: &'static str,
    /// A whole token (or tokens) using it, as written in a script.
    pub example: &'static str,
}

/// The meaning of the word `text` in `table`.
#[inline]
pub fn lookup<T>(table: &'static [Word<T>], text: &str) -> Option<&'static T> {
    table.iter().find(|w| same_word(w.text, text)).map(|w| &w.means)
}

/// `a == b` for the short words of the tables, compared in place: the
/// parser asks for every token, and `==` calls `memcmp` for each entry.
#[inline]
fn same_word(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// The words of a table, in order.
pub fn texts<T>(table: &'static [Word<T>]) -> impl Iterator<Item = &'static str> + Clone {
    table.iter().map(|w| w.text)
}

const fn w<T>(
    text: &'static str,
    means: T,
    detail: &'static str,
    example: &'static str,
) -> Word<T> {
    Word { text, means, detail, example }
}

/// The words that start a section (at column 0).
pub static SECTIONS: &[Word<()>] = &[
    w("skeleton", (), "bones and slots", "skeleton"),
    w("skin", (), "skin \"NAME\": other attachments", "skin \"other\""),
    w("order", (), "draw order", "order"),
    w("anim", (), "anim \"NAME\" FPS OPTS", "anim \"walk\""),
    w("expect", (), "expect \"ANIM\" FRAME ~TOL: pose assertions", "expect"),
    w("ik", (), "ik: inverse kinematics, one `TIP to TARGET up N` per line", "ik"),
    w(
        "mix",
        (),
        "mix SECONDS: crossfade times of sequences, one `\"FROM\" \"TO\" SECONDS` per line",
        "mix 0.2s",
    ),
];

/// A bone line's letter properties (`lNUM`…).
pub static BONE_LETTER_PROPS: &[Word<char>] = &[
    w("l", 'l', "lNUM: length along the bone's x axis", "l10"),
    w("r", 'r', "rNUM: rotation in degrees, counterclockwise", "r45"),
    w("x", 'x', "xNUM: x position relative to the parent", "x5"),
    w("y", 'y', "yNUM: y position relative to the parent (y up)", "y-5"),
    w("i", 'i', "iNUM: scale along x (default 1)", "i1.5"),
    w("j", 'j', "jNUM: scale along y (default 1)", "j0.5"),
];
/// The letters of [`BONE_LETTER_PROPS`], as the parser reads them.
pub const BONE_LETTERS: &str = "lrxyij";

/// A bone line's flags.
pub static BONE_FLAGS: &[Word<BoneProp>] = &[
    w("flip-x", BoneProp::FlipX, "mirror the bone's x axis", "flip-x"),
    w("flip-y", BoneProp::FlipY, "mirror the bone's y axis", "flip-y"),
    w("no-rot", BoneProp::NoRotation, "do not inherit the parent's rotation", "no-rot"),
    w("no-scale", BoneProp::NoScale, "do not inherit the parent's scale", "no-scale"),
];

/// The attachment types, written after `:`.
pub static ATTACHMENT_TYPES: &[Word<TypeName>] = &[
    w(
        "sprite",
        TypeName::Sprite,
        "an image file, found beside the script, centered at its pixel size",
        ":sprite \"body\"",
    ),
    w("rect", TypeName::Rect, "a rectangle centered on the attachment's origin", ":rect w10 h5"),
    w("circle", TypeName::Circle, "a circle of diameter d, centered", ":circle d10"),
    w(
        "ellipse",
        TypeName::Ellipse,
        "an ellipse of width w and height h, centered",
        ":ellipse w10 h5",
    ),
    w("path", TypeName::Path, "an outline: one command per line below it (M L Q B C)", ":path"),
];

/// The transform of every attachment.
pub static ATTACHMENT_LETTER_PROPS: &[Word<char>] = &[
    w("x", 'x', "xNUM: x offset from the bone", "x2"),
    w("y", 'y', "yNUM: y offset from the bone", "y2"),
    w("r", 'r', "rNUM: rotation relative to the bone", "r30"),
    w("i", 'i', "iNUM: scale along x", "i2"),
    w("j", 'j', "jNUM: scale along y", "j2"),
];
/// The letters of [`ATTACHMENT_LETTER_PROPS`], as the parser reads them.
pub const ATTACHMENT_LETTERS: &str = "xyrij";

/// The size of a rect or an ellipse.
pub static SIZE_LETTER_PROPS: &[Word<char>] =
    &[w("w", 'w', "wNUM: width", "w8"), w("h", 'h', "hNUM: height", "h4")];
/// The letters of [`SIZE_LETTER_PROPS`], as the parser reads them.
pub const SIZE_LETTERS: &str = "wh";

/// The diameter of a circle (a rect's corner rounding).
pub static DIAMETER_PROP: &[Word<char>] =
    &[w("d", 'd', "dNUM: diameter (a rect's corner rounding)", "d3")];

/// A shape's stroke widths (not negative).
pub static STROKE_LETTER_PROPS: &[Word<char>] = &[
    w("t", 't', "tNUM: stroke width (default 1; t0: no stroke)", "t2"),
    w("m", 'm', "mNUM: miter limit (default 10)", "m4"),
];
/// The letters of [`STROKE_LETTER_PROPS`], as the parser reads them.
pub const STROKE_LETTERS: &str = "tm";

/// A shape's colors: a prefix and a COLOR.
pub static SHAPE_COLORS: &[Word<()>] = &[
    w("f#", (), "f#COLOR: fill color (default black)", "f#F80"),
    w("s#", (), "s#COLOR: stroke color (default black)", "s#000"),
];

/// How a shape's stroke turns corners.
pub static LINE_JOINS: &[Word<LineJoin>] = &[
    w("miter-join", LineJoin::Miter, "line join: pointed (the default)", "miter-join"),
    w("bevel-join", LineJoin::Bevel, "line join: cut off", "bevel-join"),
    w("round-join", LineJoin::Round, "line join: rounded", "round-join"),
];

/// How an open path's stroke ends.
pub static LINE_CAPS: &[Word<LineCap>] = &[
    w("butt-cap", LineCap::Butt, "line cap: at the end point (the default)", "butt-cap"),
    w("square-cap", LineCap::Square, "line cap: square, past the end point", "square-cap"),
    w("round-cap", LineCap::Round, "line cap: a half disc", "round-cap"),
];

/// A sprite's image.
pub static SPRITE_IMAGE: &[Word<()>] = &[w("\"", (), "\"IMAGE\": the picture", "\"body\"")];

/// A word of any table, without its meaning: `(text, detail, example)`.
pub type Entry = (&'static str, &'static str, &'static str);

/// The entries of a table.
pub fn entries<T>(table: &'static [Word<T>]) -> impl Iterator<Item = Entry> {
    table.iter().map(|w| (w.text, w.detail, w.example))
}

/// The properties an attachment of type `ty` takes, in the order a
/// completion list shows them.
pub fn attachment_props(ty: &TypeName) -> Vec<Entry> {
    let mut v: Vec<Entry> = entries(ATTACHMENT_LETTER_PROPS).collect();
    match ty {
        TypeName::Sprite => v.extend(entries(SPRITE_IMAGE)),
        TypeName::Rect | TypeName::Ellipse => v.extend(entries(SIZE_LETTER_PROPS)),
        _ => {}
    }
    if matches!(ty, TypeName::Rect | TypeName::Circle) {
        v.extend(entries(DIAMETER_PROP));
    }
    if ty.is_shape() {
        v.extend(entries(SHAPE_COLORS));
        v.extend(entries(STROKE_LETTER_PROPS));
        v.extend(entries(LINE_JOINS));
    }
    if *ty == TypeName::Path {
        v.extend(entries(LINE_CAPS));
    }
    v
}

/// The easings of keys (in an options token `F:S:E`, an arrow `:E->`);
/// each detail starts with the easing's name, up to a `:`.
pub static EASINGS: &[Word<Easing>] = &[
    w("li", Easing::Linear, "linear: constant speed from a key to the next", "::li"),
    w("si", Easing::SineIn, "sine in: starts slowly, ends fast", "::si"),
    w("so", Easing::SineOut, "sine out: starts fast, ends slowly", "::so"),
    w("sio", Easing::SineInOut, "sine in and out: slow at both ends", "::sio"),
    w("ease", preset(0), "ease: bz(0.25,0.1,0.25,1), CSS's default", "::ease"),
    w("ease-in", preset(1), "ease in: bz(0.42,0,1,1), slow start", "::ease-in"),
    w("ease-out", preset(2), "ease out: bz(0,0,0.58,1), slow end", "::ease-out"),
    w("ease-in-out", preset(3), "ease in and out: bz(0.42,0,0.58,1)", "::ease-in-out"),
    w("back-in", preset(4), "back in: bz(0.36,0,0.66,-0.56), pulls back first", "::back-in"),
    w("back-out", preset(5), "back out: bz(0.34,1.56,0.64,1), overshoots", "::back-out"),
    w("back", preset(6), "back: bz(0.68,-0.6,0.32,1.6), pulls back and overshoots", "::back"),
];

/// The bezier preset `i` of [`crate::model::PRESETS`].
const fn preset(i: usize) -> Easing {
    Easing::Bezier(crate::model::PRESETS[i].1)
}

/// The word of a cubic-bezier easing written with its numbers,
/// `bz(x1,y1,x2,y2)` (read by [`super::token::bezier`], not looked up).
pub static BEZIER_EASING: &[Word<()>] = &[w(
    "bz",
    (),
    "bz(X1,Y1,X2,Y2): cubic-bezier curve, handles (X1,Y1) (X2,Y2), X in 0..1",
    "::bz(0.42,0,0.58,1)",
)];

/// What a word of an `anim` header sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnimWord {
    /// `from "ANIM"`.
    From,
    /// `reverse`.
    Reverse,
    /// `pingpong`.
    Pingpong,
    /// `mirror`.
    Mirror,
    /// `swap`.
    Swap,
    /// `cycle`.
    Cycle,
    /// `add "LAYER" [WEIGHT]`.
    Add,
}

/// Timing modifiers of an `anim` header (LANGUAGE-EXT.md).
pub static ANIM_MODIFIERS: &[Word<AnimWord>] = &[
    w("cycle", AnimWord::Cycle, "every numeric timeline ends on its value at frame 0", "cycle"),
    w(
        "from",
        AnimWord::From,
        "from \"ANIM\": start as a copy of another animation",
        "from \"walk\"",
    ),
    w("reverse", AnimWord::Reverse, "play backwards", "reverse"),
    w("pingpong", AnimWord::Pingpong, "play forwards, then backwards", "pingpong"),
    w("mirror", AnimWord::Mirror, "swap -l/-r partners and mirror their motion", "mirror"),
    w("swap", AnimWord::Swap, "swap -l/-r partners' channels unchanged", "swap"),
    w(
        "add",
        AnimWord::Add,
        "add \"ANIM\" [WEIGHT]: another animation's motion added on top (an additive layer)",
        "add \"walk\" 0.5",
    ),
];

/// The word of a sequence part line (`"ANIM" loops N`).
pub static PART_WORDS: &[Word<()>] =
    &[w("loops", (), "loops N: the part plays N times (1 to 1000) before the next one", "loops 2")];

/// Timing modifiers of an animation item (LANGUAGE-EXT.md): `delay` and
/// `chain` take a number of frames, `spring` and `spring-chain` a
/// frequency and a damping ratio.
pub static ITEM_MODIFIERS: &[Word<()>] = &[
    w(
        "delay",
        (),
        "delay N: the item's timelines play N frames late, wrapping around the loop",
        "delay 2",
    ),
    w("chain", (), "chain N: every bone below plays N frames per generation late", "chain 2"),
    w(
        "spring",
        (),
        "spring HZ DAMPING: the bone trails its parent's turning as a damped spring",
        "spring 2 0.4",
    ),
    w(
        "spring-chain",
        (),
        "spring-chain HZ DAMPING: every bone below trails its parent as a damped spring",
        "spring-chain 2 0.4",
    ),
];

/// A bone's timelines.
pub static BONE_TIMELINES: &[Word<TimelineProp>] = &[
    w("x", TimelineProp::X, "x position, added to the setup pose", "x 0 -> 5"),
    w("y", TimelineProp::Y, "y position, added to the setup pose", "y 0 -> 5"),
    w("r", TimelineProp::Rotation, "rotation, added to the setup pose", "r 0 -> 30"),
    w("i", TimelineProp::ScaleX, "scale x, multiplying the setup pose", "i 1 -> 2"),
    w("j", TimelineProp::ScaleY, "scale y, multiplying the setup pose", "j 1 -> 2"),
    w("s", TimelineProp::FlipX, "flip x (true or false)", "s false -> true"),
    w("t", TimelineProp::FlipY, "flip y (true or false)", "t false -> true"),
];

/// A slot's timelines.
pub static SLOT_TIMELINES: &[Word<TimelineProp>] = &[
    w("@", TimelineProp::Attachment, "attachment, switched to the one named", "@ body"),
    w("c", TimelineProp::Color, "color, multiplying what the slot shows", "c #FFF -> #F00"),
    w("r", TimelineProp::R, "red (0..1)", "r 1 -> 0"),
    w("g", TimelineProp::G, "green (0..1)", "g 1 -> 0"),
    w("b", TimelineProp::B, "blue (0..1)", "b 1 -> 0"),
    w("a", TimelineProp::A, "alpha (0..1)", "a 1 -> 0"),
];

/// The payload kinds that start an event line.
pub static EVENT_KINDS: &[Word<EventKind>] = &[
    w("e", EventKind::Bare, "e ! -> !: fires without a payload", "e ! -> !"),
    w("i", EventKind::Int, "i 1 -> 2: a whole-number payload", "i 1 -> 2"),
    w("f", EventKind::Float, "f 0.5 -> 1: a number payload", "f 0.5 -> 1"),
    w("s", EventKind::Text, "s \"left\" -> \"right\": a string payload", "s \"l\" -> \"r\""),
];

/// The words of an `ik` line.
pub static IK_WORDS: &[Word<()>] = &[
    w("to", (), "to BONE: the target the tip reaches for", "to leg up 1"),
    w("up", (), "up N: the tip and N parents above it", "to leg up 1"),
    w("from", (), "from BONE: the tip and its parents up to BONE", "to leg from arm"),
    w("fabrik", (), "FABRIK solver (default)", "to leg up 1 fabrik"),
    w("arc", (), "Arc solver", "to leg up 1 arc"),
    w("cw", (), "bend clockwise", "to leg up 1 cw"),
    w("ccw", (), "bend counterclockwise", "to leg up 1 ccw"),
];

/// The letter checks of a bone line of an `expect` section.
pub static EXPECT_BONE_LETTERS: &[Word<char>] = &[
    w("x", 'x', "xNUM: world x (local: the bone's own)", "x0"),
    w("y", 'y', "yNUM: world y (local: the bone's own)", "y0"),
    w("r", 'r', "rNUM: rotation in degrees", "r0"),
    w("i", 'i', "iNUM: scale x", "i1"),
    w("j", 'j', "jNUM: scale y", "j1"),
];
/// The letters of [`EXPECT_BONE_LETTERS`], as the parser reads them.
pub const EXPECT_BONE_LETTER_SET: &str = "xyrij";

/// Which transform a bone check compares (`true`: the local one).
pub static EXPECT_SPACES: &[Word<bool>] = &[
    w("local", true, "check the local transform", "local"),
    w("world", false, "check world values (the default)", "world"),
];

/// The letter checks of a slot line of an `expect` section.
pub static EXPECT_SLOT_LETTERS: &[Word<char>] = &[
    w("r", 'r', "rNUM: red (0..1)", "r1"),
    w("g", 'g', "gNUM: green (0..1)", "g1"),
    w("b", 'b', "bNUM: blue (0..1)", "b1"),
    w("a", 'a', "aNUM: alpha (0..1)", "a1"),
];
/// The letters of [`EXPECT_SLOT_LETTERS`], as the parser reads them.
pub const EXPECT_SLOT_LETTER_SET: &str = "rgba";

/// What may follow an event check's name in an `expect` section.
pub static EVENT_CHECK_WORDS: &[Word<()>] =
    &[w("never", (), "never FROM TO: does not fire from frame FROM to TO", "never 1 9")];

/// One table as the Help window lists it.
pub struct Table {
    /// The Help section it belongs to.
    pub section: &'static str,
    /// What its words are.
    pub title: &'static str,
    /// Its words: `(text, detail, example)` (letter tables: their letters).
    pub words: Vec<Entry>,
    /// A whole script in which each word's example, put in place of `…`,
    /// checks clean (a test puts every example there).
    pub context: &'static str,
}

/// A skeleton with a bone `arm`, a slot `body` under it and an animation
/// `a` moving it: the start of most [`Table::context`]s.
macro_rules! rig {
    ($rest:literal) => {
        concat!("skeleton\n\tarm l40\n\t\t@body :rect w2 h2\n", $rest)
    };
}

/// Every table with the Help section it belongs to and where its words go,
/// in the order Help lists them (for the Help window and the tests).
pub fn tables() -> Vec<Table> {
    fn table<T>(
        section: &'static str,
        title: &'static str,
        words: &'static [Word<T>],
        context: &'static str,
    ) -> Table {
        Table { section, title, words: entries(words).collect(), context }
    }
    let anim = rig!("anim \"a\"\n\tarm\n\t\t…\n");
    let shape = rig!("\t\t@s :rect w2 h2 …\n");
    vec![
        table("Lines", "Section keywords", SECTIONS, rig!("anim \"a\"\n\tarm\n\t\tx 0 -> 1\n…\n")),
        table("Skeleton", "Bone properties", BONE_LETTER_PROPS, "skeleton\n\tarm …\n"),
        table("Skeleton", "Bone flags", BONE_FLAGS, "skeleton\n\tarm …\n"),
        table("Slots", "Attachment types (after :)", ATTACHMENT_TYPES, rig!("\t\t@s …\n")),
        table("Shapes", "Attachment transform", ATTACHMENT_LETTER_PROPS, shape),
        table("Shapes", "Sizes", SIZE_LETTER_PROPS, rig!("\t\t@s :ellipse …\n")),
        table("Shapes", "Diameter", DIAMETER_PROP, rig!("\t\t@s :circle …\n")),
        table("Shapes", "Stroke widths", STROKE_LETTER_PROPS, shape),
        table("Shapes", "Colors", SHAPE_COLORS, shape),
        table("Shapes", "Line joins", LINE_JOINS, shape),
        table("Shapes", "Line caps (paths)", LINE_CAPS, rig!("\t\t@s :path …\n\t\t\tL 1,1\n")),
        table("Shapes", "Sprite image", SPRITE_IMAGE, rig!("\t\t@s :sprite …\n")),
        table("Easings", "Easings", EASINGS, rig!("anim \"a\"\n\tarm …\n\t\tx 0 -> 1\n")),
        table(
            "Easings",
            "Bezier curve",
            BEZIER_EASING,
            rig!("anim \"a\"\n\tarm …\n\t\tx 0 -> 1\n"),
        ),
        table(
            "Animation",
            "Header modifiers",
            ANIM_MODIFIERS,
            rig!("anim \"walk\"\n\tarm\n\t\tx 0 -> 1\nanim \"b\" …\n\tarm\n\t\tr 0 -> 1\n"),
        ),
        table(
            "Animation",
            "Sequence part words",
            PART_WORDS,
            rig!("anim \"walk\"\n\tarm\n\t\tx 0 -> 1\nanim \"s\"\n\t\"walk\" …\n"),
        ),
        table(
            "Animation",
            "Item modifiers",
            ITEM_MODIFIERS,
            rig!("\tarm.hand l10\n\tarm.hand.tip l5\nanim \"a\"\n\thand …\n\t\tx 0 -> 1\n"),
        ),
        table("Timelines", "Bone timelines", BONE_TIMELINES, anim),
        table("Timelines", "Slot timelines", SLOT_TIMELINES, rig!("anim \"a\"\n\t@body\n\t\t…\n")),
        table("Events", "Event kinds", EVENT_KINDS, rig!("anim \"a\"\n\t!step\n\t\t…\n")),
        table(
            "IK",
            "IK words",
            IK_WORDS,
            "skeleton\n\tarm l40\n\tarm.hand l20\n\tleg x30\nik\n\tarm.hand …\n",
        ),
        table("Expect", "Bone checks", EXPECT_BONE_LETTERS, rig!("expect\n\tarm …\n")),
        table("Expect", "Check space", EXPECT_SPACES, rig!("expect\n\tarm … x0\n")),
        table("Expect", "Slot checks", EXPECT_SLOT_LETTERS, rig!("expect\n\t@body …\n")),
        table(
            "Expect",
            "Event checks",
            EVENT_CHECK_WORDS,
            rig!("anim \"a\"\n\t!step\n\t\te ! 10:> !\nexpect \"a\"\n\t!step …\n"),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letter_strings_are_the_tables_letters() {
        let letters = |t: &'static [Word<char>]| -> String {
            t.iter()
                .map(|w| {
                    assert_eq!(w.text.chars().collect::<Vec<_>>(), [w.means], "{}", w.text);
                    w.means
                })
                .collect()
        };
        assert_eq!(letters(BONE_LETTER_PROPS), BONE_LETTERS);
        assert_eq!(letters(ATTACHMENT_LETTER_PROPS), ATTACHMENT_LETTERS);
        assert_eq!(letters(SIZE_LETTER_PROPS), SIZE_LETTERS);
        assert_eq!(letters(STROKE_LETTER_PROPS), STROKE_LETTERS);
        assert_eq!(letters(EXPECT_BONE_LETTERS), EXPECT_BONE_LETTER_SET);
        assert_eq!(letters(EXPECT_SLOT_LETTERS), EXPECT_SLOT_LETTER_SET);
    }

    /// Help lists every table under a section that also has topics, so
    /// every word is in the quick reference exactly once, beside the lines
    /// that explain where it goes.
    #[test]
    fn every_word_is_in_the_reference_under_its_section() {
        use crate::syntax::reference::{REFERENCE, SECTIONS, TOPICS};
        let mut words = 0;
        for t in tables() {
            assert!(SECTIONS.contains(&t.section), "{}: unknown section", t.title);
            assert!(TOPICS.iter().any(|p| p.section == t.section), "{}: no topic", t.section);
            assert_eq!(t.context.matches('…').count(), 1, "{}: one place for words", t.title);
            for (word, detail, _) in &t.words {
                let found = REFERENCE
                    .iter()
                    .filter(|e| e.word.is_some_and(|p| p.table == t.title) && e.title == *word);
                assert_eq!(found.map(|e| e.text).collect::<Vec<_>>(), [*detail], "{word}");
                words += 1;
            }
        }
        assert_eq!(REFERENCE.len(), TOPICS.len() + words);
    }

    #[test]
    fn easings_and_types_are_the_models() {
        let presets = crate::model::PRESETS.iter().map(|(n, _)| *n);
        let names: Vec<&str> = Easing::ALL.iter().filter_map(|e| e.code()).chain(presets).collect();
        assert_eq!(texts(EASINGS).collect::<Vec<_>>(), names);
        for e in EASINGS {
            assert_eq!(Easing::from_code(e.text), Some(e.means));
        }
        let known: Vec<&str> = TypeName::KNOWN.iter().map(|t| t.as_str()).collect();
        assert_eq!(texts(ATTACHMENT_TYPES).collect::<Vec<_>>(), known);
    }
}
