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
    Example { file: "curves.skel2d", text: include_str!("../../examples/curves.skel2d") },
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

pub use crate::syntax::reference::{REFERENCE, RefEntry};

/// The entries (topics and words) whose section, title, text, example or
/// word table contain every word of `query` (case-insensitive), in
/// reference order.
pub fn search(query: &str) -> Vec<&'static RefEntry> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    REFERENCE
        .iter()
        .filter(|e| {
            let table = e.word.map_or("", |w| w.table);
            let hay = format!("{} {} {} {} {table}", e.section, e.title, e.text, e.example)
                .to_lowercase();
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect()
}

/// Draws the matching entries under their section headings: each topic
/// with its line, each word table as a grid; returns the entry whose
/// Insert button was clicked.
fn entries_ui(ui: &mut egui::Ui, found: &[&'static RefEntry]) -> Option<&'static RefEntry> {
    let mut insert = None;
    let mut insert_button = |ui: &mut egui::Ui, e: &'static RefEntry| {
        let tip = if e.word.is_some() {
            "Add this at the end of the cursor's line"
        } else {
            "Insert this line at the cursor"
        };
        if ui.small_button("Insert").on_hover_text(tip).clicked() {
            insert = Some(e);
        }
    };
    let mut section = "";
    let mut i = 0;
    while let Some(&e) = found.get(i) {
        if e.section != section {
            section = e.section;
            ui.add_space(4.0);
            ui.heading(section);
        }
        let Some(place) = e.word else {
            ui.strong(e.title);
            ui.label(e.text);
            ui.horizontal(|ui| {
                ui.code(e.example.replace('\t', "⇥"));
                insert_button(ui, e);
            });
            i += 1;
            continue;
        };
        // The run of words of one table, as one grid.
        let run = found[i..].iter().take_while(|w| w.word.is_some_and(|p| p.table == place.table));
        let run: Vec<&'static RefEntry> = run.copied().collect();
        ui.add_space(2.0);
        ui.weak(place.table);
        egui::Grid::new(("help.words", place.table)).striped(true).show(ui, |ui| {
            for &w in &run {
                ui.code(w.title);
                ui.label(w.text);
                // The example, where it says more than the word.
                if w.example == w.title {
                    ui.label("");
                } else {
                    ui.code(w.example);
                }
                insert_button(ui, w);
                ui.end_row();
            }
        });
        i += run.len();
    }
    insert
}

/// Which help window is open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpPage {
    /// The keyboard shortcuts ([`super::keymap::TABLE`]).
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
    /// Draws the open help window; returns the entry whose example is to
    /// be inserted at the cursor.
    pub fn ui(&mut self, ctx: &egui::Context) -> Option<&'static RefEntry> {
        let page = self.open?;
        let mut open = true;
        let mut insert = None;
        match page {
            HelpPage::Shortcuts => {
                beside_the_script(egui::Window::new("Keyboard shortcuts"), ctx)
                    .open(&mut open)
                    .resizable(false)
                    .show(ctx, shortcuts_ui);
            }
            HelpPage::Reference => {
                beside_the_script(egui::Window::new("Language reference"), ctx)
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
                            insert = entries_ui(ui, &found);
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

/// Places a help window over the stage's top right corner, below the menu
/// bar: it covers neither the menus nor the script being typed (the user
/// may move it; egui keeps it where it was moved).
pub(super) fn beside_the_script<'a>(w: egui::Window<'a>, ctx: &egui::Context) -> egui::Window<'a> {
    // The stage is on the right; the menu bar is one row high.
    let top = ctx.global_style().spacing.interact_size.y + 16.0;
    let corner = ctx.content_rect().right_top() + egui::vec2(-8.0, top);
    w.pivot(egui::Align2::RIGHT_TOP).default_pos(corner)
}

/// Help ▸ Keyboard shortcuts: [`super::keymap::TABLE`] by place.
fn shortcuts_ui(ui: &mut egui::Ui) {
    use super::keymap::{TABLE, trigger_text};
    // Narrow enough to leave the script in view beside it.
    let width = (ui.ctx().content_rect().width() * 0.4).clamp(300.0, 460.0);
    ui.set_max_width(width);
    egui::ScrollArea::vertical().max_height(ui.ctx().content_rect().height() * 0.7).show(
        ui,
        |ui| {
            let grid = egui::Grid::new("help.shortcuts").striped(true);
            grid.max_col_width(width * 0.62).show(ui, |ui| {
                let mut place = "";
                for e in TABLE {
                    if e.place != place {
                        place = e.place;
                        ui.heading(place);
                        ui.end_row();
                    }
                    ui.strong(trigger_text(&e.trigger));
                    ui.add(egui::Label::new(e.what).wrap());
                    ui.end_row();
                }
            });
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_matches_every_word_anywhere_in_an_entry() {
        let titles = |q: &str| search(q).iter().map(|e| e.title).collect::<Vec<_>>();
        assert_eq!(search("").len(), REFERENCE.len());
        // Words match by their detail; topics by their text.
        // (The easing topic names the sines and the `*-out` curves.)
        assert_eq!(titles("SINE out"), ["Easing a key", "so", "sio"]);
        assert_eq!(titles("overshoots"), ["back-out", "back"]);
        assert!(titles("loop").contains(&"{ … }[n]: loops"));
        assert_eq!(titles("line join"), ["miter-join", "bevel-join", "round-join"]);
        assert!(titles("zzz").is_empty());
    }

    #[test]
    fn words_are_listed_with_their_table() {
        let all: usize = crate::syntax::vocab::tables().iter().map(|t| t.words.len()).sum();
        assert_eq!(search("").iter().filter(|e| e.word.is_some()).count(), all);
        let pingpong = search("pingpong");
        assert!(pingpong.iter().any(|e| e.word.is_some_and(|w| w.table == "Header modifiers")));
    }
}
