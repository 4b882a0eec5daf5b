//! The language's quick reference: short entries, each with a one-line
//! example, that the editor's Help window lists and searches
//! (`app::help`). The data lives here, beside the parser, so that tests
//! and tools can check every example without the editor: each example,
//! put where it belongs in a small script, must compile with no diagnostic
//! (`tests/suite/examples.rs`, which also checks every `skel2d` block of
//! the guide in `docs/`). The Help window lists the vocabulary's words
//! ([`super::vocab`], the tables the parser reads them with) after these
//! entries, and a test checks that the entries name every one of them.

/// One entry of the quick reference.
pub struct RefEntry {
    /// Where it belongs: "Lines", "Skeleton", "Slots", "Shapes", "Paths",
    /// "Skins", "Order", "IK", "Animation", "Timelines", "Events",
    /// "Expect", "Easings".
    pub section: &'static str,
    /// The entry's heading.
    pub title: &'static str,
    /// What to know, in a sentence or three.
    pub text: &'static str,
    /// One line that can be inserted at the cursor (tabs included).
    pub example: &'static str,
}

/// The quick reference of the language (the Help window's entries; the
/// guide, `docs/reference.md`, says the same at length).
pub const REFERENCE: &[RefEntry] = &[
    RefEntry {
        section: "Lines",
        title: "Indentation and sections",
        text: "Tabs only, and their number matters. A line at column 0 starts a section: skeleton, skin, order or anim. Sections of a kind merge.",
        example: "skeleton",
    },
    RefEntry {
        section: "Lines",
        title: "Comments",
        text: "A token that is exactly # starts a comment to the end of the line (#F00 is a color, not a comment).",
        example: "# a comment",
    },
    RefEntry {
        section: "Lines",
        title: "Continued lines",
        text: "A line ending in \\ goes on with the next line.",
        example: "\tarm l40 \\",
    },
    RefEntry {
        section: "Skeleton",
        title: "skeleton [COLOR]",
        text: "Opens the bones. The color is given to every bone without its own (default #FC0).",
        example: "skeleton #FC0",
    },
    RefEntry {
        section: "Skeleton",
        title: "Bone line: path and properties",
        text: "One tab, the bone's dotted path (arm.hand is hand under arm), then properties. Writing a path again reopens the bone.",
        example: "\tarm.hand l20 r-30",
    },
    RefEntry {
        section: "Skeleton",
        title: "lNUM length, rNUM rotation",
        text: "Length along the bone's x axis; rotation in degrees, counterclockwise.",
        example: "\tarm l40 r45",
    },
    RefEntry {
        section: "Skeleton",
        title: "xNUM yNUM position, iNUM jNUM scale",
        text: "Position relative to the parent (y up) and scale along x and y (default 1).",
        example: "\tleg x10 y-20 i1.5 j0.5",
    },
    RefEntry {
        section: "Skeleton",
        title: "Flags: flip-x flip-y no-rot no-scale",
        text: "Mirror the bone; do not inherit the parent's rotation or scale.",
        example: "\thead flip-x no-rot",
    },
    RefEntry {
        section: "Skeleton",
        title: "Bone color",
        text: "A COLOR token (#RGB or #RRGGBB, optionally ,ALPHA) colors the bone's overlay.",
        example: "\tspine l30 #0AF",
    },
    RefEntry {
        section: "Slots",
        title: "@[SLOT][[ATT]] slot line",
        text: "Two tabs under a bone: a slot (named after the bone unless written) showing an attachment (named after the slot unless [ATT]). The first attachment of a slot is its setup one.",
        example: "\t\t@body[idle] :rect w20 h10",
    },
    RefEntry {
        section: "Slots",
        title: "Slot color",
        text: "A COLOR before :TYPE multiplies the colors of whatever the slot shows; it can be animated.",
        example: "\t\t@ #F80,0.5 :circle d10",
    },
    RefEntry {
        section: "Shapes",
        title: ":rect wNUM hNUM dNUM",
        text: "A rectangle centered on the attachment origin; d is the corner diameter.",
        example: "\t\t@ :rect w40 h10 d4",
    },
    RefEntry {
        section: "Shapes",
        title: ":circle dNUM, :ellipse wNUM hNUM",
        text: "A circle of diameter d, an ellipse of width w and height h, centered.",
        example: "\t\t@ :ellipse w30 h12",
    },
    RefEntry {
        section: "Shapes",
        title: "Fill, stroke, width: fCOLOR sCOLOR tNUM",
        text: "Fill and stroke colors (default black) and stroke width (default 1; t0: no stroke).",
        example: "\t\t@ :circle d12 f#FC0 s#000 t2",
    },
    RefEntry {
        section: "Shapes",
        title: "Joins, caps, miter limit",
        text: "miter-join | bevel-join | round-join, butt-cap | square-cap | round-cap, mNUM miter limit (default 10).",
        example: "\t\t@ :path t3 round-join round-cap",
    },
    RefEntry {
        section: "Shapes",
        title: "Attachment transform x y r i j",
        text: "After :TYPE, x y r i j move, turn and scale the attachment relative to its bone.",
        example: "\t\t@ :rect w20 h6 x10 r15",
    },
    RefEntry {
        section: "Shapes",
        title: ":sprite \"image\"",
        text: "An image file, looked up next to the script, centered on the attachment origin at its pixel size.",
        example: "\t\t@ :sprite \"hand.png\" i0.5 j0.5",
    },
    RefEntry {
        section: "Paths",
        title: ":path and its commands",
        text: "One command per line, three tabs under a :path slot line: M p move (first only), L p line, Q c p quadratic, B c1 c2 p cubic, C close. Points are X,Y or X,Y:BONE.",
        example: "\t\t\tQ 30,10 20,20",
    },
    RefEntry {
        section: "Paths",
        title: ": BONEREF",
        text: "On its own line: the points after it are in that bone's space (a path that bends with the skeleton).",
        example: "\t\t\t: arm.hand",
    },
    RefEntry {
        section: "Skins",
        title: "skin \"NAME\"",
        text: "Replaces existing attachments: @SLOT[ATT] followed by the whole new definition. Every skin starts as a copy of the default attachments.",
        example: "skin \"blue\"",
    },
    RefEntry {
        section: "Skins",
        title: "Skin item",
        text: "One tab: the slot (and attachment) replaced, then its new type and properties.",
        example: "\t@body[idle] :rect w20 h10 f#04F",
    },
    RefEntry {
        section: "Order",
        title: "order",
        text: "One @SLOT per line, back to front; unlisted slots follow in the order they were defined.",
        example: "\t@hand.path",
    },
    RefEntry {
        section: "Animation",
        title: "anim \"NAME\" [Nfps] [F:S:E]",
        text: "An animation: frames per second (default 20) and the default start frame, step and easing of its timelines (default 0:5:li).",
        example: "anim \"wave\" 24fps 0:6:sio",
    },
    RefEntry {
        section: "Animation",
        title: "Animated item",
        text: "One tab: a bone (or @slot) reference, optionally with its own F:S:E defaults.",
        example: "\tarm 0:4:li",
    },
    RefEntry {
        section: "Timelines",
        title: "Bone timelines: x y r i j s t",
        text: "Two tabs: a property and its keys. x y r are added to the setup pose, i j multiply it, s t set flip-x / flip-y (true|false).",
        example: "\t\tr 0 -> 45 -> 0",
    },
    RefEntry {
        section: "Timelines",
        title: "Slot timelines: @ c r g b a",
        text: "@ switches the attachment by name; c animates the slot color; r g b a its components (0..1).",
        example: "\t\tc #FFF -> #F00",
    },
    RefEntry {
        section: "Timelines",
        title: "V, +V, *V: keys",
        text: "V pushes a key at the current frame; +V and *V push the previous value plus or times V.",
        example: "\t\tx 0 -> +10 -> *2",
    },
    RefEntry {
        section: "Timelines",
        title: "-> --> --->: advance",
        text: "n hyphens then > advance n steps (> alone: 0). The step is 5 frames unless set.",
        example: "\t\ty 0 --> 20 -> 0",
    },
    RefEntry {
        section: "Timelines",
        title: "F:S:E> : set frame, step, easing",
        text: "Before an advance: F sets the frame (if later; +F advances F frames), S the step, E the easing of the last key and the next ones.",
        example: "\t\tr 0 12:4:so> 90",
    },
    RefEntry {
        section: "Timelines",
        title: "{ … }[n]: loops",
        text: "The body runs n times in all; }[0] drops its keys but keeps the frames it advanced.",
        example: "\t\tr 0 { -> 20 -> -20 }[3] -> 0",
    },
    RefEntry {
        section: "Timelines",
        title: "Longest animation",
        text: "Keys may fall on frame 1 000 000 at most; a later key is an error and is dropped (docs/reference.md, Limits).",
        example: "\t\tx 0 1000000:> 10",
    },
    RefEntry {
        section: "Events",
        title: "!NAME: an event item",
        text: "One tab, among the animated items: an event the animation fires, optionally with its own F:S:E defaults. Its lines place keys like a timeline's; playback flashes the event on the status line (see LANGUAGE-EXT.md).",
        example: "\t!footstep 0:10",
    },
    RefEntry {
        section: "Events",
        title: "Event lines: e i f s",
        text: "Two tabs: a payload kind and keys in the timeline notation. e fires with `!` (no payload), i a whole number, f a number, s a \"string\"; each value fires the event at the current frame.",
        example: "\t\ts \"foot-l\" -> \"foot-r\"",
    },
    RefEntry {
        section: "Events",
        title: "expect: !EVENT, !EVENT never F G",
        text: "In an expect section of an animation: the event fires at the section's frame (with a payload if written), or never fires from frame F to frame G.",
        example: "\t!footstep never 1 9",
    },
    RefEntry {
        section: "Animation",
        title: "delay N, chain N: play later",
        text: "On a bone item: delay N plays the bone's timelines N frames late; chain N plays every bone below it N frames per generation late. On a @slot item, delay N plays its color and attachment timelines late. Delays wrap around the loop (see LANGUAGE-EXT.md).",
        example: "\tarm chain 3",
    },
    RefEntry {
        section: "Animation",
        title: "from \"ANIM\" cycle mirror swap reverse pingpong",
        text: "On the header: from copies another animation; cycle ends every numeric timeline on its frame-0 value; mirror swaps -l/-r partners and negates what a mirror image needs; swap trades partners unchanged; reverse plays backwards; pingpong there and back.",
        example: "anim \"back\" from \"wave\" reverse",
    },
    RefEntry {
        section: "IK",
        title: "ik: inverse kinematics",
        text: "One family per line: the tip bone, `to` the target bone, `up N` parents (or `from` a bone above the tip), then fabrik|arc and cw|ccw. The tip's origin reaches for the target; the target must not hang below the chain (docs/reference.md, IK).",
        example: "\thand to target up 1 ccw",
    },
    RefEntry {
        section: "Expect",
        title: "expect [\"ANIM\"] [FRAME] [~TOL]",
        text: "Pose assertions: skelpad check reports every check that fails. The animation (none: the setup pose), the frame at its frame rate (default 0) and how far values may be off (default ~0.001).",
        example: "expect \"a\" 5 ~0.01",
    },
    RefEntry {
        section: "Expect",
        title: "Checks: BONE x y r i j, local, X,Y, @SLOT r g b a",
        text: "One tab: a bone and its world position, rotation (degrees) and scale; `local` for its own values; a point X,Y of the bone's space for x y; @SLOT for its color (0..1); ~NUM for this line's tolerance.",
        example: "\tarm.hand x0 y0 r0",
    },
    RefEntry {
        section: "Easings",
        title: "li linear",
        text: "Constant speed from a key to the next.",
        example: "\t\tx 0 :li-> 50",
    },
    RefEntry {
        section: "Easings",
        title: "si sine-in",
        text: "Starts slowly, ends fast.",
        example: "\t\tx 0 :si-> 50",
    },
    RefEntry {
        section: "Easings",
        title: "so sine-out",
        text: "Starts fast, ends slowly.",
        example: "\t\tx 0 :so-> 50",
    },
    RefEntry {
        section: "Easings",
        title: "sio sine-in-out",
        text: "Slow at both ends, fast in the middle.",
        example: "\t\tx 0 :sio-> 50 :sio-> 0",
    },
];
