//! What the undo history holds, in words: every edit made other than by
//! typing (a canvas drag, a dopesheet edit, a rename, a completion) leaves
//! an undo point with a label; typing leaves the text field's own undo
//! points, described by the lines they changed. Undo and redo say in the
//! status bar what they took back or put back, and Edit ▸ History lists
//! the labelled edits of the session, newest first, marking those undone.

use std::hash::{Hash, Hasher};

use eframe::egui;

/// At most this many labelled edits are kept (the oldest go first).
const MAX_ENTRIES: usize = 500;

/// One labelled edit.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// What it did ("Moved a key to frame 14").
    pub label: String,
    /// The hash of the text before it (the undo point it left).
    before: u64,
    /// It has been undone (and not redone since).
    pub undone: bool,
    /// When it was made, in the UI's clock (seconds).
    pub at_secs: f64,
}

/// The session's labelled edits.
#[derive(Clone, Debug, Default)]
pub struct History {
    entries: Vec<Entry>,
    /// Edit ▸ History is open.
    pub open: bool,
}

fn hash(text: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    text.hash(&mut h);
    h.finish()
}

impl History {
    /// An edit labelled `label` starts from `before` (its undo point).
    pub fn record(&mut self, before: &str, label: impl Into<String>, at_secs: f64) {
        if self.entries.len() >= MAX_ENTRIES {
            self.entries.remove(0);
        }
        let entry = Entry { label: label.into(), before: hash(before), undone: false, at_secs };
        self.entries.push(entry);
    }

    /// Names the edit that started from `before` anew (a drag says what it
    /// did when it ends).
    pub fn relabel(&mut self, before: &str, label: impl Into<String>) {
        let h = hash(before);
        if let Some(e) = self.entries.iter_mut().rev().find(|e| e.before == h) {
            e.label = label.into();
        }
    }

    /// Makes `before` the script's last undo point (the edit that follows
    /// is one undo step, [`super::drag::mark_undo_point`]) and records the
    /// edit as `label`.
    pub fn mark(&mut self, ctx: &egui::Context, before: &str, label: impl Into<String>) {
        super::drag::mark_undo_point(ctx, before);
        self.record(before, label, ctx.input(|i| i.time));
    }

    /// Forgets every edit (another document is shown); the window stays
    /// as it was.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The labelled edits, oldest first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Undo went from `from` back to `to`: what the status bar says (and
    /// the edit taken back is marked undone).
    pub fn undone(&mut self, from: &str, to: &str) -> String {
        let h = hash(to);
        match self.entries.iter_mut().rev().find(|e| e.before == h && !e.undone) {
            Some(e) => {
                e.undone = true;
                format!("Undone: {}", e.label)
            }
            // (The lines as they were: what the undo took away.)
            None => format!("Undone: {}", describe_change(to, from)),
        }
    }

    /// Redo went from `from` forward to `to`: what the status bar says.
    pub fn redone(&mut self, from: &str, to: &str) -> String {
        let h = hash(from);
        match self.entries.iter_mut().rev().find(|e| e.before == h && e.undone) {
            Some(e) => {
                e.undone = false;
                format!("Redone: {}", e.label)
            }
            None => format!("Redone: {}", describe_change(from, to)),
        }
    }
}

/// Edit ▸ History: the labelled edits, newest first (undone ones struck
/// through), with Undo and Redo; returns `Some(true)` for Undo,
/// `Some(false)` for Redo.
pub fn window(ctx: &egui::Context, history: &mut History, now: f64) -> Option<bool> {
    let mut open = history.open;
    let mut asked = None;
    super::help::beside_the_script(egui::Window::new("History"), ctx)
        .open(&mut open).default_width(320.0).show(ctx, |ui| {
        ui.horizontal(|ui| {
            if ui.button("Undo").clicked() {
                asked = Some(true);
            }
            if ui.button("Redo").clicked() {
                asked = Some(false);
            }
        });
        ui.weak("Drags, dopesheet edits, renames and completions, newest first; typing is undone in the bursts it was typed in.");
        ui.separator();
        if history.entries.is_empty() {
            ui.weak("No edits yet.");
        }
        egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| {
            for e in history.entries.iter().rev() {
                let ago = (now - e.at_secs).max(0.0);
                let when = if ago < 60.0 {
                    format!("{ago:.0} s ago")
                } else {
                    format!("{:.0} min ago", ago / 60.0)
                };
                let text = egui::RichText::new(&e.label);
                let text = if e.undone { text.strikethrough().weak() } else { text };
                ui.horizontal(|ui| {
                    ui.label(text);
                    ui.weak(if e.undone { format!("undone · {when}") } else { when });
                });
            }
        });
    });
    history.open = open;
    asked
}

/// An unlabelled change from `from` to `to` in words: the lines of `to`
/// it touched, and how the first of them begins.
pub fn describe_change(from: &str, to: &str) -> String {
    let mut prefix = from.bytes().zip(to.bytes()).take_while(|(a, b)| a == b).count();
    while !to.is_char_boundary(prefix) {
        prefix -= 1;
    }
    let rest = from.len().min(to.len()) - prefix;
    let mut suffix =
        from.bytes().rev().zip(to.bytes().rev()).take(rest).take_while(|(a, b)| a == b).count();
    while !to.is_char_boundary(to.len() - suffix) {
        suffix -= 1;
    }
    let line_of = |at: usize| to[..at.min(to.len())].bytes().filter(|&b| b == b'\n').count() + 1;
    // A change that ends with a line break ends on the line it breaks.
    let mut end = to.len() - suffix;
    if end > prefix && to[..end].ends_with('\n') {
        end -= 1;
    }
    let (first, last) = (line_of(prefix), line_of(end).max(line_of(prefix)));
    let start = to[..prefix.min(to.len())].rfind('\n').map_or(0, |i| i + 1);
    let line = to[start..].lines().next().unwrap_or("").trim();
    let shown: String = line.chars().take(32).collect();
    let more = if line.chars().count() > 32 { "…" } else { "" };
    let lines =
        if last > first { format!("lines {first}–{last}") } else { format!("line {first}") };
    if shown.is_empty() {
        format!("typing on {lines}")
    } else {
        format!("typing on {lines} (`{shown}{more}`)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_told_by_the_lines_they_touch() {
        let a = "skeleton\n\tarm l40\n\tleg l30\n";
        assert_eq!(
            describe_change(a, "skeleton\n\tarm l45\n\tleg l30\n"),
            "typing on line 2 (`arm l45`)"
        );
        assert_eq!(
            describe_change(a, "skeleton\n\tarm l4\n\tlegs l3\n"),
            "typing on lines 2–3 (`arm l4`)"
        );
        assert_eq!(describe_change(a, &format!("{a}\n")), "typing on line 4");
        let long = format!("skeleton\n\t{}\n", "x".repeat(60));
        assert!(describe_change("skeleton\n", &long).ends_with("…`)"));
        // Multi-byte characters: no slice inside one.
        assert_eq!(describe_change("a é\n", "a è\n"), "typing on line 1 (`a è`)");
        assert_eq!(describe_change("ééé", "éé"), "typing on line 1 (`éé`)");
    }

    #[test]
    fn labelled_edits_are_named_on_undo_and_redo_and_marked() {
        let mut h = History::default();
        let (a, b, c) = ("one\n", "two\n", "three\n");
        h.record(a, "Moved a key to frame 4", 1.0);
        h.record(b, "Renamed to `arm` in 3 places", 2.0);
        assert_eq!(h.undone(c, b), "Undone: Renamed to `arm` in 3 places");
        assert!(h.entries()[1].undone && !h.entries()[0].undone);
        assert_eq!(h.undone(b, a), "Undone: Moved a key to frame 4");
        assert_eq!(h.redone(a, b), "Redone: Moved a key to frame 4");
        assert!(!h.entries()[0].undone);
        // Typing's own undo points are told by their lines.
        assert_eq!(h.undone("x\ny2\n", "x\ny\n"), "Undone: typing on line 2 (`y2`)");
        assert_eq!(h.redone("x\ny\n", "x\ny2\n"), "Redone: typing on line 2 (`y2`)");
        h.relabel(a, "Moved a key to frame 5");
        assert_eq!(h.entries()[0].label, "Moved a key to frame 5");
    }
}
