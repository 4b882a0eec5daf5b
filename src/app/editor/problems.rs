//! Diagnostics in the script pane: the message of the one under the mouse
//! (a tooltip on the text), and the Problems list under the editor, whose
//! entries put the cursor on their span.

use std::ops::Range;

use eframe::egui::{self, text_edit::TextEditOutput};

use super::byte_of_char;
use crate::app::document::Document;
use crate::syntax::{Diagnostic, Severity};

/// The message of a diagnostic under the mouse, when the pointer is on the
/// text (not past a line's end).
pub(super) fn diagnostic_tooltip(
    ui: &egui::Ui,
    doc: &Document,
    output: &TextEditOutput,
    char_w: f32,
) {
    // (Finding the character under the pointer walks the galley's rows:
    // not worth it on a large script with nothing to show.)
    if doc.analysis.comp().diagnostics.is_empty() {
        return;
    }
    let Some(pos) = output.response.response.hover_pos() else { return };
    let local = pos - output.galley_pos;
    let cc = output.galley.cursor_from_pos(local);
    let at = output.galley.pos_from_cursor(cc);
    if (at.center().x - local.x).abs() > char_w * 1.5 {
        return;
    }
    let b = byte_of_char(&doc.text, cc.index.0);
    let under: Vec<&Diagnostic> = doc
        .analysis
        .comp()
        .diagnostics
        .iter()
        .filter(|d| {
            let r = d.span.range();
            r.contains(&b) || (r.is_empty() && (b == r.start || b + 1 == r.start))
        })
        .collect();
    if under.is_empty() {
        return;
    }
    pointer_tooltip(ui, "skelpad.diag-tooltip", 420.0, |ui| {
        for d in under {
            diagnostic_text(ui, d, true);
        }
    });
}

fn diagnostic_text(ui: &mut egui::Ui, d: &Diagnostic, with_hints: bool) {
    let color = match d.severity {
        Severity::Error => ui.visuals().error_fg_color,
        Severity::Warning => ui.visuals().warn_fg_color,
    };
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(color, d.severity.to_string());
        ui.label(&d.message);
    });
    if with_hints {
        for h in &d.hints {
            ui.weak(format!("hint: {h}"));
        }
    }
}

/// The diagnostics list; returns the span of the entry clicked.
pub fn diagnostics_ui(ui: &mut egui::Ui, doc: &Document) -> Option<Range<usize>> {
    let comp = doc.analysis.comp();
    let errors = comp.diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = comp.diagnostics.len() - errors;
    let mut clicked = None;
    ui.horizontal(|ui| {
        ui.strong("Problems");
        ui.weak(format!(
            "{errors} error{}, {warnings} warning{}",
            plural(errors),
            plural(warnings)
        ));
    });
    if doc.spriter.is_some() {
        ui.weak(spriter_view_note(doc.path.as_deref()));
        return None;
    }
    if comp.diagnostics.is_empty() {
        ui.weak("No problems: the script compiles cleanly.");
        return None;
    }
    let row_h = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical()
        .id_salt("diagnostics.scroll")
        .auto_shrink([false, false])
        .show_rows(ui, row_h, comp.diagnostics.len(), |ui, rows| {
            for d in &comp.diagnostics[rows] {
                let lc = comp.lines.line_col(&doc.text, d.span.start);
                let color = match d.severity {
                    Severity::Error => ui.visuals().error_fg_color,
                    Severity::Warning => ui.visuals().warn_fg_color,
                };
                let label = format!("{}:{}  {}: {}", lc.line, lc.column, d.severity, d.message);
                let r = ui.add(
                    egui::Button::selectable(false, egui::RichText::new(label).color(color))
                        .truncate(),
                );
                // Cut to one row in the list; whole (with its hints) on hover.
                let r = r.on_hover_ui(|ui| {
                    ui.set_max_width(480.0);
                    diagnostic_text(ui, d, true);
                });
                if r.clicked() {
                    clicked = Some(d.span.range());
                }
            }
        });
    clicked
}

/// The plural ending of a count's noun: "" for 1, "s" otherwise.
pub(in crate::app) fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// A tooltip at the pointer, at most `max_width` wide, with what `add`
/// puts in it (the script pane's diagnostics and hover texts).
pub(in crate::app) fn pointer_tooltip(
    ui: &egui::Ui,
    id: &str,
    max_width: f32,
    add: impl FnOnce(&mut egui::Ui),
) {
    egui::Tooltip::always_open(
        ui.ctx().clone(),
        ui.layer_id(),
        egui::Id::unique(id),
        egui::PopupAnchor::Pointer,
    )
    .show(|ui| {
        ui.set_max_width(max_width);
        add(ui);
    });
}

/// What Problems says for a Spriter file shown as it is: the view is the
/// file's own text, not a script, so there is nothing to check in it.
pub fn spriter_view_note(path: Option<&std::path::Path>) -> String {
    let ext = path.and_then(|p| p.extension()).and_then(|e| e.to_str());
    let what = match ext.map(str::to_ascii_lowercase).as_deref() {
        Some("scon") => "a Spriter file (JSON)",
        _ => "a Spriter file (XML)",
    };
    format!(
        "This is {what}, shown as it is and read-only: it is not a script, so there is nothing to check here. `skelpad convert` writes it as a script."
    )
}
