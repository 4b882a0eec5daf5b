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
pub fn lookup<T>(table: &'static [Word<T>], text: &str) -> Option<&'static T> {
    table.iter().find(|w| w.text == text).map(|w| &w.means)
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
];

/// A bone line's letter properties (`lNUM`…).
pub static BONE_LETTER_PROPS: &[Word<char>] = &[
    w("l", 'l', "lNUM: length", "l10"),
    w("r", 'r', "rNUM: rotation (degrees, counterclockwise)", "r45"),
    w("x", 'x', "xNUM: x position", "x5"),
    w("y", 'y', "yNUM: y position", "y-5"),
    w("i", 'i', "iNUM: scale x", "i1.5"),
    w("j", 'j', "jNUM: scale y", "j0.5"),
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
    w("sprite", TypeName::Sprite, "an image", ":sprite \"body\""),
    w("rect", TypeName::Rect, "a rectangle", ":rect w10 h5"),
    w("circle", TypeName::Circle, "a circle", ":circle d10"),
    w("ellipse", TypeName::Ellipse, "an ellipse", ":ellipse w10 h5"),
    w("path", TypeName::Path, "an outline of path commands", ":path"),
];

/// The transform of every attachment.
pub static ATTACHMENT_LETTER_PROPS: &[Word<char>] = &[
    w("x", 'x', "xNUM: x offset", "x2"),
    w("y", 'y', "yNUM: y offset", "y2"),
    w("r", 'r', "rNUM: rotation", "r30"),
    w("i", 'i', "iNUM: scale x", "i2"),
    w("j", 'j', "jNUM: scale y", "j2"),
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
pub static STROKE_LETTER_PROPS: &[Word<char>] =
    &[w("t", 't', "tNUM: stroke width", "t2"), w("m", 'm', "mNUM: miter limit", "m4")];
/// The letters of [`STROKE_LETTER_PROPS`], as the parser reads them.
pub const STROKE_LETTERS: &str = "tm";

/// A shape's colors: a prefix and a COLOR.
pub static SHAPE_COLORS: &[Word<()>] =
    &[w("f#", (), "f#COLOR: fill", "f#F80"), w("s#", (), "s#COLOR: stroke", "s#000")];

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

/// The easings of keys (in an options token `F:S:E`, an arrow `:E->`).
pub static EASINGS: &[Word<Easing>] = &[
    w("li", Easing::Linear, "linear", "::li"),
    w("si", Easing::SineIn, "sine in", "::si"),
    w("so", Easing::SineOut, "sine out", "::so"),
    w("sio", Easing::SineInOut, "sine in and out", "::sio"),
];

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
];

/// Timing modifiers of an animation item (LANGUAGE-EXT.md); each takes a
/// number of frames.
pub static ITEM_MODIFIERS: &[Word<()>] = &[
    w("delay", (), "delay N: this bone plays N frames late, wrapping around the loop", "delay 2"),
    w("chain", (), "chain N: every bone below plays N frames per generation late", "chain 2"),
];

/// A bone's timelines.
pub static BONE_TIMELINES: &[Word<TimelineProp>] = &[
    w("x", TimelineProp::X, "x position", "x 0 -> 5"),
    w("y", TimelineProp::Y, "y position", "y 0 -> 5"),
    w("r", TimelineProp::Rotation, "rotation", "r 0 -> 30"),
    w("i", TimelineProp::ScaleX, "scale x", "i 1 -> 2"),
    w("j", TimelineProp::ScaleY, "scale y", "j 1 -> 2"),
    w("s", TimelineProp::FlipX, "flip x", "s false -> true"),
    w("t", TimelineProp::FlipY, "flip y", "t false -> true"),
];

/// A slot's timelines.
pub static SLOT_TIMELINES: &[Word<TimelineProp>] = &[
    w("@", TimelineProp::Attachment, "attachment", "@ _"),
    w("c", TimelineProp::Color, "color", "c #FFF -> #F00"),
    w("r", TimelineProp::R, "red", "r 1 -> 0"),
    w("g", TimelineProp::G, "green", "g 1 -> 0"),
    w("b", TimelineProp::B, "blue", "b 1 -> 0"),
    w("a", TimelineProp::A, "alpha", "a 1 -> 0"),
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
    w("to", (), "to BONE: the target the tip reaches for", "to leg"),
    w("up", (), "up N: the tip and N parents above it", "up 1"),
    w("from", (), "from BONE: the tip and its parents up to BONE", "from arm"),
    w("fabrik", (), "FABRIK solver (default)", "fabrik"),
    w("arc", (), "Arc solver", "arc"),
    w("cw", (), "bend clockwise", "cw"),
    w("ccw", (), "bend counterclockwise", "ccw"),
];

/// The letter checks of a bone line of an `expect` section.
pub static EXPECT_BONE_LETTERS: &[Word<char>] = &[
    w("x", 'x', "xNUM: x", "x0"),
    w("y", 'y', "yNUM: y", "y0"),
    w("r", 'r', "rNUM: rotation (degrees)", "r0"),
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
    w("r", 'r', "rNUM: red", "r1"),
    w("g", 'g', "gNUM: green", "g1"),
    w("b", 'b', "bNUM: blue", "b1"),
    w("a", 'a', "aNUM: alpha", "a1"),
];
/// The letters of [`EXPECT_SLOT_LETTERS`], as the parser reads them.
pub const EXPECT_SLOT_LETTER_SET: &str = "rgba";

/// What may follow an event check's name in an `expect` section.
pub static EVENT_CHECK_WORDS: &[Word<()>] =
    &[w("never", (), "never FROM TO: does not fire from frame FROM to TO", "never 0 1")];

/// One table as the Help window lists it.
pub struct Table {
    /// The Help section it belongs to.
    pub section: &'static str,
    /// What its words are.
    pub title: &'static str,
    /// Its words with what they do (letter tables: their letters).
    pub words: Vec<(&'static str, &'static str)>,
}

/// Every table with the Help section it belongs to (for the Help window's
/// word list and the tests).
pub fn tables() -> Vec<Table> {
    fn pairs<T>(t: &'static [Word<T>]) -> Vec<(&'static str, &'static str)> {
        t.iter().map(|w| (w.text, w.detail)).collect()
    }
    let table = |(section, title, words)| Table { section, title, words };
    [
        ("Lines", "Section keywords", pairs(SECTIONS)),
        ("Skeleton", "Bone properties", pairs(BONE_LETTER_PROPS)),
        ("Skeleton", "Bone flags", pairs(BONE_FLAGS)),
        ("Slots", "Attachment types (after :)", pairs(ATTACHMENT_TYPES)),
        ("Shapes", "Attachment transform", pairs(ATTACHMENT_LETTER_PROPS)),
        ("Shapes", "Sizes", pairs(SIZE_LETTER_PROPS)),
        ("Shapes", "Diameter", pairs(DIAMETER_PROP)),
        ("Shapes", "Stroke widths", pairs(STROKE_LETTER_PROPS)),
        ("Shapes", "Colors", pairs(SHAPE_COLORS)),
        ("Shapes", "Line joins", pairs(LINE_JOINS)),
        ("Shapes", "Line caps (paths)", pairs(LINE_CAPS)),
        ("Shapes", "Sprite image", pairs(SPRITE_IMAGE)),
        ("Easings", "Easings", pairs(EASINGS)),
        ("Animation", "Header modifiers", pairs(ANIM_MODIFIERS)),
        ("Animation", "Item modifiers", pairs(ITEM_MODIFIERS)),
        ("Timelines", "Bone timelines", pairs(BONE_TIMELINES)),
        ("Timelines", "Slot timelines", pairs(SLOT_TIMELINES)),
        ("Events", "Event kinds", pairs(EVENT_KINDS)),
        ("IK", "IK words", pairs(IK_WORDS)),
        ("Expect", "Bone checks", pairs(EXPECT_BONE_LETTERS)),
        ("Expect", "Check space", pairs(EXPECT_SPACES)),
        ("Expect", "Slot checks", pairs(EXPECT_SLOT_LETTERS)),
        ("Expect", "Event checks", pairs(EVENT_CHECK_WORDS)),
    ]
    .into_iter()
    .map(table)
    .collect()
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

    /// The quick reference names every word that is not a lone letter
    /// (letters are listed by their form, `lNUM`, in its titles).
    #[test]
    fn the_reference_names_every_word() {
        let hay: String = crate::syntax::reference::REFERENCE
            .iter()
            .map(|e| format!("{} {} {}\n", e.title, e.text, e.example))
            .collect();
        for t in tables() {
            for (word, _) in t.words.iter().filter(|(w, _)| w.len() > 1) {
                assert!(hay.contains(word), "`{word}` ({}) is not in the reference", t.title);
            }
        }
    }

    #[test]
    fn easings_and_types_are_the_models() {
        let names: Vec<&str> = Easing::ALL.iter().map(|e| e.code()).collect();
        assert_eq!(texts(EASINGS).collect::<Vec<_>>(), names);
        for e in EASINGS {
            assert_eq!(Easing::from_code(e.text), Some(e.means));
        }
        let known: Vec<&str> = TypeName::KNOWN.iter().map(|t| t.as_str()).collect();
        assert_eq!(texts(ATTACHMENT_TYPES).collect::<Vec<_>>(), known);
    }
}
