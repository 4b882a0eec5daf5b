//! The text editor panel (line numbers, highlighting, indentation keys,
//! find, diagnostics on hover) and the diagnostics list under it.

#![allow(missing_docs, reason = "issue 9: public items here still need doc comments")]

use std::ops::Range;

use eframe::egui::text::{CCursor, CCursorRange};
use eframe::egui::text_edit::TextEditState;
use eframe::egui::{self, Align, FontId, Key, Modifiers, Pos2, Vec2};

use crate::syntax::{Diagnostic, Severity};

use super::document::Document;
use super::highlight::Highlighter;

/// The id of the script's text field.
pub fn editor_id() -> egui::Id {
    egui::Id::unique("skelpad.editor")
}

/// Byte offset of the character at `char_index` (the end for an index past it).
pub fn byte_of_char(text: &str, char_index: usize) -> usize {
    if text.is_ascii() {
        return char_index.min(text.len());
    }
    text.char_indices().nth(char_index).map_or(text.len(), |(b, _)| b)
}

/// `byte` clamped to the text and moved back to a character boundary.
pub fn floor_boundary(text: &str, byte: usize) -> usize {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    b
}

/// Character index of the byte offset `byte` (rounded down to a character).
pub fn char_of_byte(text: &str, byte: usize) -> usize {
    text[..floor_boundary(text, byte)].chars().count()
}

fn line_start(text: &str, byte: usize) -> usize {
    text[..byte].rfind('\n').map_or(0, |i| i + 1)
}

/// Indents (one tab) or outdents (one tab, or up to four spaces) every line
/// touched by the byte range `sel`; returns the byte range of those lines.
pub fn shift_lines(text: &mut String, sel: Range<usize>, indent: bool) -> Range<usize> {
    let first = line_start(text, sel.start);
    // A selection that ends at the start of a line does not include it.
    let last_byte = if sel.end > sel.start && text[..sel.end].ends_with('\n') { sel.end - 1 } else { sel.end };
    let last = line_start(text, last_byte.max(first));
    let mut starts: Vec<usize> = vec![first];
    starts.extend(text[first..last].match_indices('\n').map(|(i, _)| first + i + 1));
    let mut delta: isize = 0;
    let mut last_start = first;
    for s in starts {
        let s = (s as isize + delta) as usize;
        last_start = s;
        if indent {
            text.insert(s, '\t');
            delta += 1;
        } else {
            let n = if text[s..].starts_with('\t') { 1 } else { text[s..].bytes().take(4).take_while(|b| *b == b' ').count() };
            text.replace_range(s..s + n, "");
            delta -= n as isize;
        }
    }
    let end = text[last_start..].find('\n').map_or(text.len(), |i| last_start + i);
    first..end
}

/// The find bar.
#[derive(Default)]
pub struct Find {
    pub open: bool,
    pub query: String,
    focus_query: bool,
}

/// What the editor reports after a frame.
#[derive(Default)]
pub struct EditorOutput {
    /// Byte offset of the text cursor, when the editor has one.
    pub cursor: Option<usize>,
    /// The text was edited this frame.
    pub changed: bool,
    /// "Convert to script…" was clicked (a SkelForm file is shown).
    pub convert_requested: bool,
}

/// Editor state that lives between frames (not persisted).
#[derive(Default)]
pub struct Editor {
    pub highlighter: Highlighter,
    pub find: Find,
    /// A selection to apply and scroll to on the next frame (byte range).
    pending_select: Option<Range<usize>>,
    /// The last cursor position (byte offset).
    pub cursor: Option<usize>,
}

impl Editor {
    /// Puts the cursor at `range` (bytes) and scrolls to it on the next frame.
    pub fn select(&mut self, range: Range<usize>) {
        self.pending_select = Some(range);
    }

    pub fn open_find(&mut self) {
        self.find.open = true;
        self.find.focus_query = true;
    }

    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> EditorOutput {
        let mut out = EditorOutput::default();
        let ctx = ui.ctx().clone();
        let id = editor_id();
        if ui.input_mut(|i| i.consume_key(Modifiers::COMMAND, Key::F)) {
            self.open_find();
        }
        let label = ui.horizontal(|ui| {
            let label = ui.strong("Script");
            ui.weak(doc.display_name());
            label
        });
        if let Some(iv) = &doc.imported {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.label(format!(
                    "{} is a SkelForm file: the canvas plays it as SkelForm does (IK, meshes, physics). \
                     The text below is the script it converts to (read-only; IK and physics baked into keys).",
                    iv.source.display()
                ));
                if !iv.converted.not_carried.is_empty() {
                    let list: Vec<String> = iv.converted.not_carried.iter().map(|(w, n)| format!("{n} × {w}")).collect();
                    ui.weak(format!("Not carried into the script: {}", list.join("; ")));
                }
                if ui.button("Convert to script…").clicked() {
                    out.convert_requested = true;
                }
            });
        }
        let read_only = doc.imported.is_some();
        if self.find.open {
            self.find_bar(ui, &doc.text);
        }

        // Keys the plain text field does not handle the way a script needs.
        let focused = ctx.memory(|m| m.has_focus(id));
        if focused
            && let Some(mut state) = TextEditState::load(&ctx, id)
            && let Some(range) = state.cursor.char_range()
        {
            let [a, b] = range.sorted_cursors();
            let sel = byte_of_char(&doc.text, a.index.0)..byte_of_char(&doc.text, b.index.0);
            let multi_line = doc.text[sel.clone()].contains('\n');
            let mut new_sel: Option<Range<usize>> = None;
            if ui.input_mut(|i| i.consume_key(Modifiers::SHIFT, Key::Tab)) {
                let before = doc.text.len();
                let lines = shift_lines(&mut doc.text, sel.clone(), false);
                new_sel = Some(if multi_line {
                    lines
                } else {
                    // A single cursor stays where it was on its line.
                    let at = sel.start.saturating_sub(before - doc.text.len()).max(lines.start);
                    at..at
                });
            } else if multi_line && ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Tab)) {
                new_sel = Some(shift_lines(&mut doc.text, sel.clone(), true));
            } else if ui.input_mut(|i| i.consume_key(Modifiers::NONE, Key::Enter)) {
                // Enter keeps the indentation of the current line.
                let ls = line_start(&doc.text, sel.start);
                let indent: String = doc.text[ls..sel.start].chars().take_while(|c| *c == '\t' || *c == ' ').collect();
                let insert = format!("\n{indent}");
                doc.text.replace_range(sel.clone(), &insert);
                let at = sel.start + insert.len();
                new_sel = Some(at..at);
            }
            if let Some(r) = new_sel {
                let (ca, cb) = (char_of_byte(&doc.text, r.start), char_of_byte(&doc.text, r.end));
                state.cursor.set_char_range(Some(CCursorRange::two(CCursor::new(ca), CCursor::new(cb))));
                state.store(&ctx, id);
                out.changed = true;
            }
        }
        if let Some(r) = self.pending_select.as_mut() {
            *r = floor_boundary(&doc.text, r.start)..floor_boundary(&doc.text, r.end.max(r.start));
            let mut state = TextEditState::load(&ctx, id).unwrap_or_default();
            let (ca, cb) = (char_of_byte(&doc.text, r.start), char_of_byte(&doc.text, r.end));
            state.cursor.set_char_range(Some(CCursorRange::two(CCursor::new(ca), CCursor::new(cb))));
            state.store(&ctx, id);
        }

        let font = FontId::monospace(13.0);
        let row_height = ui.fonts_mut(|f| f.row_height(&font));
        let dark = ui.visuals().dark_mode;
        let line_count = doc.text.bytes().filter(|b| *b == b'\n').count() + 1;
        let digits = line_count.to_string().len().max(3);
        let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
        let gutter_w = digits as f32 * char_w + 12.0;
        let find_query = if self.find.open { self.find.query.clone() } else { String::new() };

        let scroll = egui::ScrollArea::both().id_salt("editor.scroll").auto_shrink([false, false]).show(ui, |ui| {
            ui.horizontal_top(|ui| {
                let (gutter, _) = ui.allocate_exact_size(Vec2::new(gutter_w, row_height * line_count as f32), egui::Sense::hover());
                let Document { text, analysis, .. } = doc;
                let highlighter = &mut self.highlighter;
                let ppp = ui.ctx().pixels_per_point();
                let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
                    // Compile here, inside the text field's frame, so the
                    // underlines match the text being laid out.
                    analysis.ensure(buf.as_str());
                    let (generation, comp) = (analysis.generation, &analysis.comp);
                    ui.fonts_mut(|f| highlighter.galley(f, ppp, generation, buf.as_str(), comp, &find_query, dark, &font))
                };
                let output = egui::TextEdit::multiline(text)
                    .id(id)
                    .code_editor()
                    .font(font.clone())
                    .desired_width(f32::INFINITY)
                    .desired_rows(30)
                    .return_key(None)
                    .interactive(!read_only)
                    .frame(egui::Frame::NONE)
                    .layouter(&mut layouter)
                    .show(ui);
                (gutter, output)
            })
            .inner
        });
        let (gutter, output) = scroll.inner;
        let response = &output.response;
        // Named for screen readers (and tests) by the "Script" heading.
        let _ = response.response.clone().labelled_by(label.inner.id);
        if response.changed() {
            out.changed = true;
        }
        doc.sync();

        // The cursor and where it goes next.
        let cursor_char = output.cursor_range.map(|r| r.primary.index.0);
        if let Some(r) = self.pending_select.take() {
            let c = CCursor::new(char_of_byte(&doc.text, r.start));
            let rect = output.galley.pos_from_cursor(c).translate(output.galley_pos.to_vec2());
            ui.scroll_to_rect(rect.expand2(Vec2::new(40.0, row_height * 3.0)), Some(Align::Center));
            self.cursor = Some(r.start);
        } else if let Some(c) = cursor_char {
            self.cursor = Some(byte_of_char(&doc.text, c));
        }
        // The text may have changed under a remembered cursor (a reload).
        self.cursor = self.cursor.map(|c| floor_boundary(&doc.text, c));
        out.cursor = self.cursor;

        // Line numbers, for the visible rows only.
        let painter = ui.painter_at(scroll.inner_rect);
        let weak = ui.visuals().weak_text_color();
        let strong = ui.visuals().strong_text_color();
        let cursor_line = self.cursor.map(|c| doc.text[..c].bytes().filter(|b| *b == b'\n').count());
        let clip = scroll.inner_rect;
        for (i, row) in output.galley.rows.iter().enumerate() {
            let y = output.galley_pos.y + row.pos.y;
            if y + row_height < clip.top() || y > clip.bottom() {
                continue;
            }
            let color = if Some(i) == cursor_line { strong } else { weak };
            painter.text(Pos2::new(gutter.right() - 8.0, y), egui::Align2::RIGHT_TOP, (i + 1).to_string(), font.clone(), color);
        }

        // The message of a diagnostic under the mouse.
        if let Some(pos) = response.hover_pos() {
            let local = pos - output.galley_pos;
            let cc = output.galley.cursor_from_pos(local);
            let at = output.galley.pos_from_cursor(cc);
            // Only when the pointer is on the text, not past the line end.
            if (at.center().x - local.x).abs() <= char_w * 1.5 {
                let b = byte_of_char(&doc.text, cc.index.0);
                let under: Vec<&Diagnostic> = doc
                    .analysis
                    .comp
                    .diagnostics
                    .iter()
                    .filter(|d| {
                        let r = d.span.range();
                        r.contains(&b) || (r.is_empty() && (b == r.start || b + 1 == r.start))
                    })
                    .collect();
                if !under.is_empty() {
                    egui::Tooltip::always_open(
                        ctx.clone(),
                        ui.layer_id(),
                        egui::Id::unique("skelpad.diag-tooltip"),
                        egui::PopupAnchor::Pointer,
                    )
                    .show(|ui| {
                        ui.set_max_width(420.0);
                        for d in under {
                            diagnostic_text(ui, d, true);
                        }
                    });
                }
            }
        }
        out
    }

    fn find_bar(&mut self, ui: &mut egui::Ui, text: &str) {
        let mut jump: Option<bool> = None;
        ui.horizontal(|ui| {
            let label = ui.label("Find");
            let r = ui.add(egui::TextEdit::singleline(&mut self.find.query).desired_width(180.0)).labelled_by(label.id);
            if self.find.focus_query {
                r.request_focus();
                self.find.focus_query = false;
            }
            if r.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter)) {
                jump = Some(!ui.input(|i| i.modifiers.shift));
                r.request_focus();
            }
            let count = if self.find.query.is_empty() { 0 } else { text.matches(self.find.query.as_str()).count() };
            if ui.button("Prev").on_hover_text("Previous match (Shift+Enter)").clicked() {
                jump = Some(false);
            }
            if ui.button("Next").on_hover_text("Next match (Enter)").clicked() {
                jump = Some(true);
            }
            ui.weak(format!("{count} match{}", if count == 1 { "" } else { "es" }));
            if ui.button("Close").on_hover_text("Close (Escape)").clicked() || ui.input(|i| i.key_pressed(Key::Escape)) {
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
    let comp = &doc.analysis.comp;
    let errors = comp.diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = comp.diagnostics.len() - errors;
    let mut clicked = None;
    ui.horizontal(|ui| {
        ui.strong("Problems");
        ui.weak(format!("{errors} error{}, {warnings} warning{}", plural(errors), plural(warnings)));
    });
    if comp.diagnostics.is_empty() {
        ui.weak("No problems: the script compiles cleanly.");
        return None;
    }
    let row_h = ui.spacing().interact_size.y;
    egui::ScrollArea::vertical().id_salt("diagnostics.scroll").auto_shrink([false, false]).show_rows(
        ui,
        row_h,
        comp.diagnostics.len(),
        |ui, rows| {
            for d in &comp.diagnostics[rows] {
                let lc = comp.lines.line_col(&doc.text, d.span.start);
                let color = match d.severity {
                    Severity::Error => ui.visuals().error_fg_color,
                    Severity::Warning => ui.visuals().warn_fg_color,
                };
                let label = format!("{}:{}  {}: {}", lc.line, lc.column, d.severity, d.message);
                let r = ui.add(egui::Button::selectable(false, egui::RichText::new(label).color(color)).truncate());
                let r = if d.hints.is_empty() { r } else { r.on_hover_text(d.hints.join("\n")) };
                if r.clicked() {
                    clicked = Some(d.span.range());
                }
            }
        },
    );
    clicked
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifting_lines_indents_and_outdents_whole_lines() {
        let mut t = String::from("a\n\tb\n    c\nd");
        let r = shift_lines(&mut t, 0..4, true);
        assert_eq!(t, "\ta\n\t\tb\n    c\nd");
        assert_eq!(&t[r], "\ta\n\t\tb");
        let r = shift_lines(&mut t, 4..9, false);
        assert_eq!(t, "\ta\n\tb\nc\nd");
        assert_eq!(&t[r], "\tb\nc");
        // Nothing to remove: unchanged.
        let end = t.len();
        let r = shift_lines(&mut t, end..end, false);
        assert_eq!(t, "\ta\n\tb\nc\nd");
        assert_eq!(&t[r], "d");
    }

    #[test]
    fn find_wraps_around() {
        let t = "arm leg arm";
        assert_eq!(find_next(t, "arm", 0, true), Some(8..11));
        assert_eq!(find_next(t, "arm", 8, true), Some(0..3));
        assert_eq!(find_next(t, "arm", 0, false), Some(8..11));
        assert_eq!(find_next(t, "x", 0, true), None);
    }

    #[test]
    fn char_and_byte_offsets_convert_both_ways() {
        let t = "é\tx";
        assert_eq!(byte_of_char(t, 1), 2);
        assert_eq!(char_of_byte(t, 2), 1);
        assert_eq!(char_of_byte(t, 1), 0);
        assert_eq!(byte_of_char(t, 10), t.len());
        assert_eq!(floor_boundary(t, 1), 0);
        assert_eq!(floor_boundary(t, 99), t.len());
    }
}
