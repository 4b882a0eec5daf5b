//! The find bar: its query (whose matches the highlighting marks), the
//! match count, and Enter / Shift+Enter / Next / Prev moving the cursor to
//! the next or previous match, wrapping around.

use std::ops::Range;

use eframe::egui::{self, Key};

use super::Editor;

/// The find bar.
#[derive(Default)]
pub struct Find {
    /// The bar is shown.
    pub open: bool,
    /// The text searched for (highlighted in the editor).
    pub query: String,
    pub(super) focus_query: bool,
}

impl Editor {
    /// The bar for one frame: the query field (focused when just opened),
    /// Prev / Next / Close and the match count; Enter jumps to the next
    /// match, Shift+Enter to the previous one, Escape closes it.
    pub(super) fn find_bar(&mut self, ui: &mut egui::Ui, text: &str) {
        let mut jump: Option<bool> = None;
        ui.horizontal(|ui| {
            let label = ui.label("Find");
            let r = ui
                .add(egui::TextEdit::singleline(&mut self.find.query).desired_width(180.0))
                .labelled_by(label.id);
            if self.find.focus_query {
                r.request_focus();
                self.find.focus_query = false;
            }
            if r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                jump = Some(!ui.input(|i| i.modifiers.shift));
                r.request_focus();
            }
            let count = match_count(text, &self.find.query, self.cursor);
            if ui.button("Prev").on_hover_text("Previous match (Shift+Enter)").clicked() {
                jump = Some(false);
            }
            if ui.button("Next").on_hover_text("Next match (Enter)").clicked() {
                jump = Some(true);
            }
            ui.weak(count);
            if ui.button("Close").on_hover_text("Close (Escape)").clicked()
                || ui.input(|i| i.key_pressed(Key::Escape))
            {
                self.find.open = false;
            }
        });
        if let Some(forward) = jump
            && let Some(r) = find_next(text, &self.find.query, self.cursor.unwrap_or(0), forward)
        {
            self.select(r);
        }
    }
}

/// The match count the bar shows: "2 of 7" when the cursor is on the
/// second of seven matches (at its start or inside it), else "7 matches".
pub fn match_count(text: &str, query: &str, cursor: Option<usize>) -> String {
    if query.is_empty() {
        return "0 matches".into();
    }
    let mut n = 0;
    let mut current = None;
    for (i, _) in text.match_indices(query) {
        n += 1;
        if cursor.is_some_and(|c| (i..i + query.len()).contains(&c)) && current.is_none() {
            current = Some(n);
        }
    }
    match current {
        Some(k) => format!("{k} of {n}"),
        None => format!("{n} match{}", if n == 1 { "" } else { "es" }),
    }
}

/// The next (or previous) match of `query` after (before) byte `from`, wrapping.
pub fn find_next(text: &str, query: &str, from: usize, forward: bool) -> Option<Range<usize>> {
    if query.is_empty() {
        return None;
    }
    let matches: Vec<usize> = text.match_indices(query).map(|(i, _)| i).collect();
    let pick = if forward {
        matches.iter().find(|&&i| i > from).or(matches.first())
    } else {
        matches.iter().rev().find(|&&i| i < from).or(matches.last())
    };
    pick.map(|&i| i..i + query.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_wraps_around() {
        let t = "arm leg arm";
        assert_eq!(find_next(t, "arm", 0, true), Some(8..11));
        assert_eq!(find_next(t, "arm", 8, true), Some(0..3));
        assert_eq!(find_next(t, "arm", 0, false), Some(8..11));
        assert_eq!(find_next(t, "x", 0, true), None);
    }

    #[test]
    fn the_count_says_which_match_the_cursor_is_on() {
        let t = "arm leg arm arm";
        assert_eq!(match_count(t, "arm", Some(8)), "2 of 3");
        assert_eq!(match_count(t, "arm", Some(13)), "3 of 3");
        assert_eq!(match_count(t, "arm", Some(5)), "3 matches");
        assert_eq!(match_count(t, "leg", None), "1 match");
        assert_eq!(match_count(t, "", Some(0)), "0 matches");
    }
}
