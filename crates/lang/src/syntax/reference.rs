//! The language's quick reference, as the editor's Help window lists and
//! searches it (`app::help`): a few topics on how lines fit together, each
//! with a line to insert, then every fixed word of the language, generated
//! from the vocabulary ([`super::vocab`], the tables the parser reads them
//! with), so that no word is described twice. The data lives here, beside
//! the parser, so that tests and tools can check every example without the
//! editor: a topic's line, put where it belongs in a small script, and each
//! word's example, put in its table's [`super::vocab::Table::context`],
//! must compile with no diagnostic (`tests/suite/examples.rs`).

use std::sync::LazyLock;

/// A topic of the quick reference: how a kind of line is written.
pub struct Topic {
    /// Where it belongs: "Lines", "Skeleton", "Slots", "Shapes", "Paths",
    /// "Skins", "Order", "Animation", "Timelines", "Events", "IK",
    /// "Expect", "Easings".
    pub section: &'static str,
    /// The topic's heading.
    pub title: &'static str,
    /// What to know, in a sentence or three.
    pub text: &'static str,
    /// One line that can be inserted at the cursor (tabs included).
    pub example: &'static str,
}

/// One entry of the quick reference: a topic, or a word of the vocabulary.
#[derive(Debug)]
pub struct RefEntry {
    /// The Help section it is listed under.
    pub section: &'static str,
    /// The topic's heading, or the word.
    pub title: &'static str,
    /// What to know (for a word: its detail from the vocabulary).
    pub text: &'static str,
    /// What Help inserts at the cursor: a topic's whole line, or a word's
    /// example tokens.
    pub example: &'static str,
    /// For a word: its table's title and the script its example checks in.
    pub word: Option<WordPlace>,
}

/// Where a word of the reference comes from.
#[derive(Debug, Clone, Copy)]
pub struct WordPlace {
    /// The vocabulary table's title.
    pub table: &'static str,
    /// A script in which the example, in place of `…`, checks clean.
    pub context: &'static str,
}

/// The order of the Help window's sections.
pub const SECTIONS: &[&str] = &[
    "Lines",
    "Skeleton",
    "Slots",
    "Shapes",
    "Paths",
    "Skins",
    "Order",
    "Animation",
    "Timelines",
    "Events",
    "IK",
    "Expect",
    "Easings",
];

/// The quick reference: per section (in [`SECTIONS`] order) its topics,
/// then the words of its vocabulary tables.
pub static REFERENCE: LazyLock<Vec<RefEntry>> = LazyLock::new(build);

fn build() -> Vec<RefEntry> {
    let tables = super::vocab::tables();
    let mut out = Vec::new();
    for &section in SECTIONS {
        out.extend(TOPICS.iter().filter(|t| t.section == section).map(|t| RefEntry {
            section,
            title: t.title,
            text: t.text,
            example: t.example,
            word: None,
        }));
        for t in tables.iter().filter(|t| t.section == section) {
            out.extend(t.words.iter().map(|&(word, detail, example)| RefEntry {
                section,
                title: word,
                text: detail,
                example,
                word: Some(WordPlace { table: t.title, context: t.context }),
            }));
        }
    }
    out
}

/// The topics of the quick reference (the words follow from the
/// vocabulary); the guide, `docs/reference.md`, says the same at length.
pub const TOPICS: &[Topic] = &[
    Topic {
        section: "Lines",
        title: "Indentation and sections",
        text: "Tabs only, and their number matters. A line at column 0 starts a section: skeleton, skin, order or anim. Sections of a kind merge.",
        example: "skeleton",
    },
    Topic {
        section: "Lines",
        title: "Comments",
        text: "A token that is exactly # starts a comment to the end of the line (#F00 is a color, not a comment).",
        example: "# a comment",
    },
    Topic {
        section: "Lines",
        title: "Continued lines",
        text: "A line ending in \\ goes on with the next line.",
        example: "\tarm l40 \\",
    },
    Topic {
        section: "Skeleton",
        title: "skeleton [COLOR]",
        text: "Opens the bones. The color is given to every bone without its own (default #FC0).",
        example: "skeleton #FC0",
    },
    Topic {
        section: "Skeleton",
        title: "Bone line: path and properties",
        text: "One tab, the bone's dotted path (arm.hand is hand under arm), then properties. Writing a path again reopens the bone.",
        example: "\tarm.hand l20 r-30",
    },
    Topic {
        section: "Skeleton",
        title: "Bone color",
        text: "A COLOR token (#RGB or #RRGGBB, optionally ,ALPHA) colors the bone's overlay.",
        example: "\tspine l30 #0AF",
    },
    Topic {
        section: "Slots",
        title: "@[SLOT][[ATT]] slot line",
        text: "Two tabs under a bone: a slot (named after the bone unless written) showing an attachment (named after the slot unless [ATT]). The first attachment of a slot is its setup one.",
        example: "\t\t@body[idle] :rect w20 h10",
    },
    Topic {
        section: "Slots",
        title: "Slot color",
        text: "A COLOR before :TYPE multiplies the colors of whatever the slot shows; it can be animated.",
        example: "\t\t@ #F80,0.5 :circle d10",
    },
    Topic {
        section: "Shapes",
        title: "Shape line",
        text: "After :TYPE come the shape's size, colors and stroke (below), then x y r i j placing it relative to its bone.",
        example: "\t\t@ :circle d12 f#FC0 s#000 t2 x10",
    },
    Topic {
        section: "Paths",
        title: ":path and its commands",
        text: "One command per line, three tabs under a :path slot line: M p move (first only), L p line, Q c p quadratic, B c1 c2 p cubic, C close. Points are X,Y or X,Y:BONE.",
        example: "\t\t\tQ 30,10 20,20",
    },
    Topic {
        section: "Paths",
        title: ": BONEREF",
        text: "On its own line: the points after it are in that bone's space (a path that bends with the skeleton).",
        example: "\t\t\t: arm.hand",
    },
    Topic {
        section: "Skins",
        title: "skin \"NAME\"",
        text: "Replaces existing attachments: @SLOT[ATT] followed by the whole new definition. Every skin starts as a copy of the default attachments.",
        example: "skin \"blue\"",
    },
    Topic {
        section: "Skins",
        title: "Skin item",
        text: "One tab: the slot (and attachment) replaced, then its new type and properties.",
        example: "\t@body[idle] :rect w20 h10 f#04F",
    },
    Topic {
        section: "Order",
        title: "order",
        text: "One @SLOT per line, back to front; unlisted slots follow in the order they were defined.",
        example: "\t@hand.path",
    },
    Topic {
        section: "Animation",
        title: "anim \"NAME\" [Nfps] [F:S:E]",
        text: "An animation: frames per second (default 20) and the default start frame, step and easing of its timelines (default 0:5:li).",
        example: "anim \"wave\" 24fps 0:6:sio",
    },
    Topic {
        section: "Animation",
        title: "Animated item",
        text: "One tab: a bone (or @slot) reference, optionally with its own F:S:E defaults.",
        example: "\tarm 0:4:li",
    },
    Topic {
        section: "Animation",
        title: "Modifiers",
        text: "Words on the header change how the whole animation plays; words on an item delay its timelines or hang it on a spring (below). See LANGUAGE-EXT.md.",
        example: "anim \"back\" from \"wave\" reverse",
    },
    Topic {
        section: "Animation",
        title: "Springs: spring HZ DAMPING",
        text: "On a bone item, `spring HZ DAMPING` makes the bone trail its parent's turning like a damped spring (a tail, an antenna); `spring-chain HZ DAMPING` does it for every bone below, each trailing its own parent. HZ: swings a second; DAMPING: 1 settles without overshoot, 0.2 wobbles. Simulated at the frame rate over the settled loop and baked into the rotation keys, so every export plays the same.",
        example: "\thand spring 2 0.4",
    },
    Topic {
        section: "Timelines",
        title: "Timeline line",
        text: "Two tabs under an animated item: a property (below) and its keys. On a bone, x y r are added to the setup pose and i j multiply it.",
        example: "\t\tr 0 -> 45 -> 0",
    },
    Topic {
        section: "Timelines",
        title: "V, +V, *V: keys",
        text: "V pushes a key at the current frame; +V and *V push the previous value plus or times V.",
        example: "\t\tx 0 -> +10 -> *2",
    },
    Topic {
        section: "Timelines",
        title: "-> --> --->: advance",
        text: "n hyphens then > advance n steps (> alone: 0). The step is 5 frames unless set.",
        example: "\t\ty 0 --> 20 -> 0",
    },
    Topic {
        section: "Timelines",
        title: "F:S:E> : set frame, step, easing",
        text: "Before an advance: F sets the frame (if later; +F advances F frames), S the step, E the easing of the last key and the next ones.",
        example: "\t\tr 0 12:4:so> 90",
    },
    Topic {
        section: "Timelines",
        title: "{ … }[n]: loops",
        text: "The body runs n times in all; }[0] drops its keys but keeps the frames it advanced.",
        example: "\t\tr 0 { -> 20 -> -20 }[3] -> 0",
    },
    Topic {
        section: "Timelines",
        title: "Longest animation",
        text: "Keys may fall on frame 1 000 000 at most; a later key is an error and is dropped (docs/reference.md, Limits).",
        example: "\t\tx 0 1000000:> 10",
    },
    Topic {
        section: "Events",
        title: "!NAME: an event item",
        text: "One tab, among the animated items: an event the animation fires, optionally with its own F:S:E defaults. Its lines place keys like a timeline's; playback flashes the event on the status line (see LANGUAGE-EXT.md).",
        example: "\t!footstep 0:10",
    },
    Topic {
        section: "Events",
        title: "Event lines",
        text: "Two tabs under an event item: a payload kind (below) and keys in the timeline notation; each value fires the event at the current frame.",
        example: "\t\ts \"foot-l\" -> \"foot-r\"",
    },
    Topic {
        section: "Events",
        title: "expect: !EVENT, !EVENT never F G",
        text: "In an expect section of an animation: the event fires at the section's frame (with a payload if written), or never fires from frame F to frame G.",
        example: "\t!footstep never 1 9",
    },
    Topic {
        section: "Animation",
        title: "Sequences: \"ANIM\" loops N",
        text: "An anim section of lines `\"ANIM\" [loops N]` plays those animations one after another, each crossfading into the next over the mix time of the pair. It compiles to an ordinary animation (sampled at every frame), at its own frame rate or the first part's (docs/reference.md, Transitions and layers).",
        example: "\t\"walk\" loops 2",
    },
    Topic {
        section: "Animation",
        title: "mix [SECONDS]: crossfade times",
        text: "The header's seconds are the crossfade between any two animations; a line `\"FROM\" \"TO\" SECONDS` sets one pair. Over the crossfade every bone's local values blend linearly (rotations the shorter way); flips and attachments switch halfway.",
        example: "mix 0.2s",
    },
    Topic {
        section: "Animation",
        title: "add \"ANIM\" WEIGHT: additive layers",
        text: "On an anim header: the other animation's motion (each bone's change from the setup) is added on top at the weight (default 1), looping under the animation. Breathing over a walk: `anim \"walk-breathing\" from \"walk\" add \"breathe\" 0.5`.",
        example: "anim \"walk-breathing\" from \"walk\" add \"breathe\" 0.5",
    },
    Topic {
        section: "IK",
        title: "ik: inverse kinematics",
        text: "One family per line: the tip bone, `to` the target bone, `up N` parents (or `from` a bone above the tip), then fabrik|arc and cw|ccw. The tip's origin reaches for the target; the target must not hang below the chain (docs/reference.md, IK).",
        example: "\thand to target up 1 ccw",
    },
    Topic {
        section: "Expect",
        title: "expect [\"ANIM\"] [FRAME] [~TOL]",
        text: "Pose assertions: skelpad check reports every check that fails. The animation (none: the setup pose), the frame at its frame rate (default 0) and how far values may be off (default ~0.001).",
        example: "expect \"a\" 5 ~0.01",
    },
    Topic {
        section: "Expect",
        title: "Check lines",
        text: "One tab: a bone and the values it must have (below); a point X,Y of the bone's space for x y; @SLOT for a slot's color; ~NUM for this line's tolerance.",
        example: "\tarm.hand x0 y0 r0",
    },
    Topic {
        section: "Easings",
        title: "Easing a key",
        text: "An easing (below) shapes the motion from a key to the next: set it in F:S:E> or on an arrow, :E->. Besides the sines, the named curves and bz(X1,Y1,X2,Y2) are cubic-bezier curves as CSS draws them: X1, X2 in 0..1, Y1, Y2 free (to overshoot). In the editor, select a key in the dopesheet to drag its curve's handles or pick a name.",
        example: "\t\tx 0 :sio-> 50 ::back-out-> 0",
    },
];
