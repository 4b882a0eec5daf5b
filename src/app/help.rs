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
        "Ctrl+Space",
        "Complete the word at the cursor (Up/Down choose, Enter or Tab insert, Escape closes)",
    ),
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

pub use crate::syntax::reference::{REFERENCE, RefEntry};

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

/// One word of the language's vocabulary as the Help window lists it:
/// `(section, table, word, what it does)`.
pub type WordRow = (&'static str, &'static str, &'static str, &'static str);

/// The vocabulary's words (`syntax::vocab`, the tables the parser reads
/// them with) whose section, table, word or description contain every word
/// of `query` (case-insensitive), in table order.
pub fn search_words(query: &str) -> Vec<WordRow> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    let mut out = Vec::new();
    for t in crate::syntax::vocab::tables() {
        for (word, detail) in t.words {
            let hay = format!("{} {} {word} {detail}", t.section, t.title).to_lowercase();
            if words.iter().all(|w| hay.contains(w.as_str())) {
                out.push((t.section, t.title, word, detail));
            }
        }
    }
    out
}

/// The matching words of the vocabulary, one row each, under a heading.
fn words_ui(ui: &mut egui::Ui, query: &str) {
    let rows = search_words(query);
    if rows.is_empty() {
        return;
    }
    ui.add_space(6.0);
    ui.heading("Words");
    egui::Grid::new("help.words").striped(true).show(ui, |ui| {
        for (section, table, word, detail) in rows {
            ui.code(word);
            ui.label(detail);
            ui.weak(format!("{section}: {table}"));
            ui.end_row();
        }
    });
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
                        if found.is_empty() && search_words(&self.query).is_empty() {
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
                            words_ui(ui, &self.query);
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
    fn the_word_list_is_the_vocabulary() {
        let all: usize = crate::syntax::vocab::tables().iter().map(|t| t.words.len()).sum();
        assert_eq!(search_words("").len(), all);
        let joins: Vec<&str> = search_words("line join").iter().map(|r| r.2).collect();
        assert_eq!(joins, ["miter-join", "bevel-join", "round-join"]);
        assert!(search_words("pingpong").iter().any(|r| r.1 == "Header modifiers"));
    }
}
