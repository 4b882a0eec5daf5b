//! What a newcomer finds from inside the app: the example scripts (File ▸
//! Examples), the keyboard shortcuts and a searchable quick reference of the
//! language (Help), each entry with a one-line example to insert at the
//! cursor.

use eframe::egui;

/// An example script shipped inside the binary.
pub struct Example {
    /// File name in `examples/`.
    pub file: &'static str,
    /// The script itself, opened as an untitled copy.
    pub text: &'static str,
}

/// Every script in `examples/` (a test checks the list against the folder).
pub const EXAMPLES: &[Example] = &[
    Example {
        file: "bouncing_ball.skel2d",
        text: include_str!("../../examples/bouncing_ball.skel2d"),
    },
    Example { file: "draw_order.skel2d", text: include_str!("../../examples/draw_order.skel2d") },
    Example { file: "ik_arm.skel2d", text: include_str!("../../examples/ik_arm.skel2d") },
    Example { file: "ik_walk.skel2d", text: include_str!("../../examples/ik_walk.skel2d") },
    Example { file: "skins.skel2d", text: include_str!("../../examples/skins.skel2d") },
    Example { file: "tentacle.skel2d", text: include_str!("../../examples/tentacle.skel2d") },
    Example { file: "walk_cycle.skel2d", text: include_str!("../../examples/walk_cycle.skel2d") },
];

/// The untitled name of a copy of an example.
pub fn example_title(file: &str) -> String {
    format!("{file} (example)")
}

/// The file name a copy of an example suggests when saved.
pub fn example_file(untitled_name: &str) -> Option<&str> {
    untitled_name.strip_suffix(" (example)")
}

/// Keyboard shortcuts: (keys, what they do).
pub const SHORTCUTS: &[(&str, &str)] = &[
    ("Ctrl+N", "New script"),
    ("Ctrl+O", "Open a script"),
    ("Ctrl+S", "Save"),
    ("Ctrl+Shift+S", "Save as"),
    ("Ctrl+Z", "Undo"),
    ("Ctrl+Shift+Z, Ctrl+Y", "Redo"),
    ("Ctrl+F", "Find in the script (Enter: next, Shift+Enter: previous, Escape: close)"),
    ("Enter", "New line with the indentation of the current one"),
    (
        "Tab / Shift+Tab",
        "Indent / outdent the selected lines (a tab, or outdent the cursor's line)",
    ),
    ("Space", "Play or pause (canvas focused)"),
    ("Left / Right", "Previous / next frame (canvas focused)"),
    ("Home / End", "First / last frame (canvas focused)"),
    ("F, Ctrl+0", "Fit the animation in view"),
    ("Mouse wheel, pinch", "Zoom the canvas around the pointer"),
    ("Middle or right drag, Space+drag", "Pan the canvas"),
    ("Click on the canvas", "Select a bone or shape and put the cursor on its line"),
];

/// One entry of the quick reference.
pub struct RefEntry {
    /// Where it belongs: "Lines", "Skeleton", "Slots", "Shapes", "Paths",
    /// "Skins", "Order", "IK", "Animation", "Timelines", "Events", "Easings".
    pub section: &'static str,
    /// The entry's heading.
    pub title: &'static str,
    /// What to know, in a sentence or three.
    pub text: &'static str,
    /// One line that can be inserted at the cursor (tabs included).
    pub example: &'static str,
}

/// The quick reference of the language (facts from LANGUAGE.md).
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
        text: "Keys may fall on frame 1 000 000 at most; a later key is an error and is dropped (see LANGUAGE-EXT.md).",
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
        text: "On a bone item: delay N plays the bone's timelines N frames late; chain N plays every bone below it N frames per generation late. Delays wrap around the loop (see LANGUAGE-EXT.md).",
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
        text: "One family per line: the tip bone, `to` the target bone, `up N` parents (or `from` a bone above the tip), then fabrik|arc and cw|ccw. The tip's origin reaches for the target; the target must not hang below the chain (see LANGUAGE-EXT.md).",
        example: "\thand to target up 1 ccw",
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

/// The entries whose section, title, text or example contain every word
/// of `query` (case-insensitive), in reference order.
pub fn search(query: &str) -> Vec<&'static RefEntry> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    REFERENCE
        .iter()
        .filter(|e| {
            let hay = format!("{} {} {} {}", e.section, e.title, e.text, e.example).to_lowercase();
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect()
}

/// Which help window is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpPage {
    /// The keyboard shortcuts ([`SHORTCUTS`]).
    Shortcuts,
    /// The searchable quick reference ([`REFERENCE`]).
    Reference,
}

/// The help windows' state.
#[derive(Default)]
pub struct Help {
    /// The window shown, `None` when both are closed.
    pub open: Option<HelpPage>,
    /// The quick reference's search text: entries containing every word
    /// (any case) are listed.
    pub query: String,
}

impl Help {
    /// Draws the open help window; returns an example to insert at the cursor.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<&'static str> {
        let page = self.open?;
        let mut open = true;
        let mut insert = None;
        match page {
            HelpPage::Shortcuts => {
                egui::Window::new("Keyboard shortcuts").open(&mut open).resizable(false).show(
                    ctx,
                    |ui| {
                        egui::Grid::new("help.shortcuts").striped(true).show(ui, |ui| {
                            for (keys, what) in SHORTCUTS {
                                ui.strong(*keys);
                                ui.label(*what);
                                ui.end_row();
                            }
                        });
                    },
                );
            }
            HelpPage::Reference => {
                egui::Window::new("Language reference")
                    .open(&mut open)
                    .default_size([520.0, 480.0])
                    .show(ctx, |ui| {
                        ui.horizontal(|ui| {
                            let label = ui.label("Search");
                            ui.add(
                                egui::TextEdit::singleline(&mut self.query)
                                    .hint_text("e.g. easing, loop, rect")
                                    .desired_width(260.0),
                            )
                            .labelled_by(label.id);
                        });
                        ui.separator();
                        let found = search(&self.query);
                        if found.is_empty() {
                            ui.weak("Nothing matches.");
                        }
                        egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
                            let mut section = "";
                            for e in found {
                                if e.section != section {
                                    section = e.section;
                                    ui.add_space(4.0);
                                    ui.heading(section);
                                }
                                ui.strong(e.title);
                                ui.label(e.text);
                                ui.horizontal(|ui| {
                                    ui.code(e.example.replace('\t', "⇥"));
                                    if ui
                                        .small_button("Insert")
                                        .on_hover_text("Insert this line at the cursor")
                                        .clicked()
                                    {
                                        insert = Some(e.example);
                                    }
                                });
                            }
                        });
                    });
            }
        }
        if !open {
            self.open = None;
        }
        insert
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_matches_every_word_anywhere_in_an_entry() {
        let titles = |q: &str| search(q).iter().map(|e| e.title).collect::<Vec<_>>();
        assert_eq!(search("").len(), REFERENCE.len());
        assert_eq!(titles("SINE out"), ["so sine-out", "sio sine-in-out"]);
        assert!(titles("loop").contains(&"{ … }[n]: loops"));
        assert!(titles("zzz").is_empty());
    }

    #[test]
    fn every_example_line_compiles_in_its_place() {
        // Each example, put where it belongs in a small script, adds no error.
        let base = "skeleton\n\tarm l40\n\tarm.hand l20\n\t\t@body[idle] :rect w20 h10\n\t\t@path :path t1\n\t\t\tM 0,0\n\t\t\tL 5,0\n";
        for e in REFERENCE {
            let line = e.example;
            let depth = line.bytes().take_while(|b| *b == b'\t').count();
            let text = match (e.section, depth) {
                (_, 0) if line.starts_with('#') || line.starts_with("skeleton") => {
                    format!("{base}{line}\n")
                }
                (_, 0) if line.starts_with("skin") => {
                    format!("{base}{line}\n\t@body[idle] :rect w2 h2\n")
                }
                (_, 0) if line.contains(" from ") => {
                    format!("{base}anim \"wave\"\n\tarm\n\t\tx 0 -> 1\n{line}\n")
                }
                (_, 0) => format!("{base}{line}\n\tarm\n\t\tx 0 -> 1\n"),
                ("Skins", 1) => format!("{base}skin \"s\"\n{line}\n"),
                ("Order", 1) => format!("{base}order\n{line}\n"),
                ("IK", 1) => format!("{base}\ttarget x30\nik\n{line}\n"),
                ("Animation", 1) => format!("{base}anim \"a\"\n{line}\n\t\tx 0 -> 1\n"),
                ("Events", 1) if e.title.starts_with("expect") => {
                    format!("{base}anim \"a\"\n\t!footstep\n\t\te ! 10:> !\nexpect \"a\"\n{line}\n")
                }
                ("Events", 1) => format!("{base}anim \"a\"\n{line}\n\t\te !\n"),
                ("Events", 2) => format!("{base}anim \"a\"\n\t!ev\n{line}\n"),
                ("Timelines", 2) if e.title.starts_with("Slot") => {
                    format!("{base}anim \"a\"\n\t@body\n{line}\n")
                }
                ("Timelines" | "Easings", 2) => format!("{base}anim \"a\"\n\tarm.hand\n{line}\n"),
                (_, 3) => format!("{base}{line}\n"),
                ("Slots" | "Shapes", 2) => format!("skeleton\n\tarm l40\n\tarm.hand\n{line}\n"),
                (_, 1) if line.ends_with('\\') => format!("skeleton\n{line}\nr10\n"),
                _ => format!("skeleton\n{line}\n"),
            };
            let text = text.replace(
                ":path t3 round-join round-cap",
                ":path t3 round-join round-cap\n\t\t\tL 1,1",
            );
            let comp = crate::compile::compile(&text);
            let errors: Vec<_> =
                comp.diagnostics.iter().filter(|d| d.is_error()).map(|d| &d.message).collect();
            assert!(errors.is_empty(), "{}: {line:?} in\n{text}\n{errors:?}", e.title);
        }
    }
}
