//! The text editor panel (line numbers, highlighting, indentation keys,
//! find, diagnostics on hover) and the diagnostics list under it.

use std::ops::Range;

use eframe::egui::containers::scroll_area::ScrollAreaOutput;
use eframe::egui::text::{CCursor, CCursorRange};
use eframe::egui::text_edit::{TextEditOutput, TextEditState};
use eframe::egui::{self, Align, FontId, Key, Modifiers, Pos2, Vec2};

use crate::syntax::{Diagnostic, Severity};

use super::document::Document;
use super::highlight::Highlighter;
use super::typing;

/// The id of the script's text field.
pub fn editor_id() -> egui::Id {
    egui::Id::unique("skelpad.editor")
}

/// Whether a text field (the script's, the find bar's, a number being typed)
/// has keyboard focus: keys then belong to it. (Every text field keeps its
/// state in egui's memory under its id.)
pub fn text_field_focused(ctx: &egui::Context) -> bool {
    ctx.memory(|m| m.focused()).is_some_and(|id| TextEditState::load(ctx, id).is_some())
}

/// Byte offset of the character at `char_index` (the end for an index past it).
pub fn byte_of_char(text: &str, char_index: usize) -> usize {
    if text.is_ascii() {
        return char_index.min(text.len());
    }
    text.char_indices().nth(char_index).map_or(text.len(), |(b, _)| b)
}

/// Where byte `at` of `old` is in `new`, `new` being `old` with one range
/// replaced (found as the common prefix and suffix): before the change it
/// stays, after it it moves with the text, inside it it goes to the end of
/// the new text there.
pub fn map_offset(old: &str, new: &str, at: usize) -> usize {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    let prefix = o.iter().zip(n).take_while(|(a, b)| a == b).count();
    let room = o.len().min(n.len()) - prefix;
    let suffix = o.iter().rev().zip(n.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let mapped = if at <= prefix {
        at
    } else if at >= o.len() - suffix {
        at + n.len() - o.len()
    } else {
        n.len() - suffix
    };
    floor_boundary(new, mapped)
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

/// Byte offset of the start of the line holding `byte`.
pub fn line_start(text: &str, byte: usize) -> usize {
    text[..byte].rfind('\n').map_or(0, |i| i + 1)
}

/// Indents (one tab) or outdents (one tab, or up to four spaces) every line
/// touched by the byte range `sel`; returns the byte range of those lines.
pub fn shift_lines(text: &mut String, sel: Range<usize>, indent: bool) -> Range<usize> {
    let first = line_start(text, sel.start);
    // A selection that ends at the start of a line does not include it.
    let last_byte =
        if sel.end > sel.start && text[..sel.end].ends_with('\n') { sel.end - 1 } else { sel.end };
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
            let n = if text[s..].starts_with('\t') {
                1
            } else {
                text[s..].bytes().take(4).take_while(|b| *b == b' ').count()
            };
            text.replace_range(s..s + n, "");
            delta -= n as isize;
        }
    }
    let end = text[last_start..].find('\n').map_or(text.len(), |i| last_start + i);
    first..end
}

/// Inserts `line` as a line of its own at byte `at`: before the cursor's
/// line when `at` is at its start, in place of it when it is blank, else
/// after it. Returns the byte offset just after the inserted text.
pub fn insert_line(text: &mut String, at: usize, line: &str) -> usize {
    let start = line_start(text, at);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    if text[start..end].trim().is_empty() {
        text.replace_range(start..end, line);
        start + line.len()
    } else if at == start {
        text.insert_str(start, &format!("{line}\n"));
        start + line.len()
    } else {
        text.insert_str(end, &format!("\n{line}"));
        end + 1 + line.len()
    }
}

/// The find bar.
#[derive(Default)]
pub struct Find {
    /// The bar is shown.
    pub open: bool,
    /// The text searched for (highlighted in the editor).
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
    /// Highlighted layouts of the text, cached by compilation.
    pub highlighter: Highlighter,
    /// The find bar.
    pub find: Find,
    /// A selection to apply and scroll to on the next frame (byte range).
    pending_select: Option<Range<usize>>,
    /// The last cursor position (byte offset).
    pub cursor: Option<usize>,
    /// Keyboard events held back for the next frame, to keep their order
    /// (see [`super::typing`]).
    deferred: Vec<egui::Event>,
    /// The text was edited by [`Editor::take_input`] this frame.
    edited: bool,
    /// Text to insert at the cursor at the start of the next frame.
    pending_insert: Option<String>,
    /// Another document replaced the shown one: the text field's own
    /// memory (cursor, undo history) is cleared before it is drawn next.
    forget_field: bool,
    /// The galley the text field drew last (what the pane shows).
    shown: Option<std::sync::Arc<egui::Galley>>,
    /// Hover and completion (see [`super::assist`]).
    pub assist: super::assist::Assist,
}

impl Editor {
    /// Puts the cursor at `range` (bytes) and scrolls to it on the next frame.
    pub fn select(&mut self, range: Range<usize>) {
        self.pending_select = Some(range);
    }

    /// Another document replaces the one shown (opened, an example, new,
    /// converted, recovered): forgets the cursor, keystrokes held back, a
    /// pending insert and the text field's memory of the old text (its
    /// cursor and undo history, cleared before the field is drawn next, so
    /// an undo cannot bring the old file's text into the new one).
    pub fn forget_document(&mut self) {
        self.cursor = None;
        self.deferred.clear();
        self.pending_insert = None;
        self.pending_select = None;
        self.edited = false;
        self.forget_field = true;
        self.highlighter.forget();
        self.assist = Default::default();
    }

    /// The text the field laid out and drew in the last frame (`None`
    /// before the first frame).
    pub fn shown_text(&self) -> Option<&str> {
        self.shown.as_ref().map(|g| g.text())
    }

    /// The selection [`Editor::select`] will apply on the next frame.
    pub fn pending_selection(&self) -> Option<Range<usize>> {
        self.pending_select.clone()
    }

    /// The text was changed from `old` to `new` outside the text field (a
    /// canvas drag writing a value): the cursor and selection move with the
    /// text around them, so they stay on their token rather than on their
    /// byte offset.
    pub fn follow_replacement(&mut self, ctx: &egui::Context, old: &str, new: &str) {
        let id = editor_id();
        if let Some(mut state) = TextEditState::load(ctx, id)
            && let Some(r) = state.cursor.char_range()
        {
            let map = |c: CCursor| {
                let b = map_offset(old, new, byte_of_char(old, c.index.0));
                CCursor::new(char_of_byte(new, b))
            };
            let (a, b) = (map(r.secondary), map(r.primary));
            state.cursor.set_char_range(Some(CCursorRange::two(a, b)));
            state.store(ctx, id);
        }
        self.cursor = self.cursor.map(|c| map_offset(old, new, c));
    }

    /// Applies this frame's typing to the script in the order it arrived,
    /// before anything else reads the input (see [`super::typing`]); the
    /// compilation catches up at once, so every panel shows the edit in this
    /// frame. Call first thing in the frame.
    pub fn take_input(&mut self, ctx: &egui::Context, doc: &mut Document) {
        // An imported file (SkelForm, Spriter) is shown, not edited: its
        // typing is left to the read-only text field, which ignores it.
        if doc.imported.is_some() || doc.spriter.is_some() {
            self.pending_insert = None;
            return;
        }
        let id = editor_id();
        if let Some(insert) = self.pending_insert.take() {
            let at = floor_boundary(&doc.text, self.cursor.unwrap_or(doc.text.len()));
            let end = insert_line(&mut doc.text, at, &insert);
            let mut state = TextEditState::load(ctx, id).unwrap_or_default();
            let c = char_of_byte(&doc.text, end);
            state.cursor.set_char_range(Some(CCursorRange::one(CCursor::new(c))));
            state.store(ctx, id);
            self.cursor = Some(end);
            self.edited = true;
            doc.sync();
            ctx.memory_mut(|m| m.request_focus(id));
        }
        self.assist.keys(ctx, doc, &mut self.cursor, &mut self.edited);
        let mut events = ctx.input_mut(|i| std::mem::take(&mut i.events));
        if !self.deferred.is_empty() {
            events.splice(0..0, self.deferred.drain(..));
        }
        let state = TextEditState::load(ctx, id);
        let focused = ctx.memory(|m| m.has_focus(id));
        let (Some(mut state), true) = (state, focused) else {
            ctx.input_mut(|i| i.events = events);
            return;
        };
        let mut sel = match state.cursor.char_range() {
            Some(r) => {
                byte_of_char(&doc.text, r.secondary.index.0)
                    ..byte_of_char(&doc.text, r.primary.index.0)
            }
            // The text field puts a new cursor at the end.
            None => doc.text.len()..doc.text.len(),
        };
        let old_sel = sel.clone();
        let split = typing::apply_in_order(&mut doc.text, &mut sel, events);
        if split.changed || sel != old_sel {
            let (a, b) = (char_of_byte(&doc.text, sel.start), char_of_byte(&doc.text, sel.end));
            state.cursor.set_char_range(Some(CCursorRange::two(CCursor::new(a), CCursor::new(b))));
            state.store(ctx, id);
            self.cursor = Some(sel.end);
        }
        if split.changed {
            self.edited = true;
            doc.sync();
        }
        if !split.later.is_empty() {
            ctx.request_repaint();
        }
        self.deferred = split.later;
        ctx.input_mut(|i| i.events = split.now);
        self.assist.after_typing(doc, self.cursor);
    }

    /// Inserts the line `text` at the cursor (see [`insert_line`]; at the
    /// end without a cursor) at the start of the next frame, and gives the
    /// editor focus.
    pub fn insert_at_cursor(&mut self, text: &str) {
        self.pending_insert = Some(text.to_owned());
    }

    /// Shows the find bar with its query field focused.
    pub fn open_find(&mut self) {
        self.find.open = true;
        self.find.focus_query = true;
    }

    /// The editor panel for one frame: the heading (and an imported file's
    /// notice), the find bar, the text field with its highlighting, then the
    /// cursor, the line numbers and the message of a diagnostic under the
    /// mouse.
    pub fn ui(&mut self, ui: &mut egui::Ui, doc: &mut Document) -> EditorOutput {
        let mut out = EditorOutput::default();
        let label = self.heading(ui, doc, &mut out);
        // Imported files are shown, not edited (.skf: its converted script).
        let (skf, spriter) = (doc.imported.is_some(), doc.spriter.is_some());
        if self.find.open {
            self.find_bar(ui, &doc.text);
        }
        if std::mem::take(&mut self.edited) {
            out.changed = true;
        }
        if std::mem::take(&mut self.forget_field) {
            TextEditState::default().store(ui.ctx(), editor_id());
        }
        self.apply_pending_selection(ui.ctx(), doc);
        let look =
            Look::of(ui, doc, if self.find.open { self.find.query.clone() } else { String::new() });
        let scroll = self.text_field(ui, doc, &look, skf, spriter);
        let (gutter, output) = &scroll.inner;
        self.shown = Some(output.galley.clone());
        let response = &output.response;
        // Named for screen readers (and tests) by the "Script" heading.
        let _ = response.response.clone().labelled_by(label.id);
        if response.changed() {
            out.changed = true;
        }
        doc.sync();
        out.cursor = self.follow_cursor(ui, doc, output, look.row_height);
        self.line_numbers(ui, doc, scroll.inner_rect, *gutter, output, &look);
        diagnostic_tooltip(ui, doc, output, look.char_w);
        self.assist.ui(ui, doc, output);
        out
    }

    /// The "Script" heading with the file's name, and the notice of an
    /// imported SkelForm file (with its "Convert to script…" button).
    /// Ctrl+F opens the find bar.
    fn heading(
        &mut self,
        ui: &mut egui::Ui,
        doc: &Document,
        out: &mut EditorOutput,
    ) -> egui::Response {
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
        label.inner
    }

    /// Puts a selection asked for (by [`Editor::select`]) into the text
    /// field's state before it is drawn.
    fn apply_pending_selection(&mut self, ctx: &egui::Context, doc: &Document) {
        if let Some(r) = self.pending_select.as_mut() {
            let id = editor_id();
            *r = floor_boundary(&doc.text, r.start)..floor_boundary(&doc.text, r.end.max(r.start));
            let mut state = TextEditState::load(ctx, id).unwrap_or_default();
            let (ca, cb) = (char_of_byte(&doc.text, r.start), char_of_byte(&doc.text, r.end));
            state
                .cursor
                .set_char_range(Some(CCursorRange::two(CCursor::new(ca), CCursor::new(cb))));
            state.store(ctx, id);
        }
    }

    /// The gutter and the text field in their scroll area. The text is
    /// compiled inside the field's layout, so underlines match the text laid
    /// out; an imported file is shown read-only (a Spriter file without
    /// highlighting: it is not the language).
    fn text_field(
        &mut self,
        ui: &mut egui::Ui,
        doc: &mut Document,
        look: &Look,
        skf: bool,
        spriter: bool,
    ) -> ScrollAreaOutput<(egui::Rect, TextEditOutput)> {
        let read_only = skf || spriter;
        egui::ScrollArea::both().id_salt("editor.scroll").auto_shrink([false, false]).show(
            ui,
            |ui| {
                ui.horizontal_top(|ui| {
                    // The gutter takes its width only: the text field sets
                    // the height. (Sized as line count × the font's row
                    // height, it came out taller than the laid-out text,
                    // whose rows are whole pixels: 1.7k pixels more at
                    // 13.6k lines, where a jump to the end showed nothing.)
                    let (gutter, _) = ui.allocate_exact_size(
                        Vec2::new(look.gutter_w, look.row_height),
                        egui::Sense::hover(),
                    );
                    let Document { text, analysis, .. } = doc;
                    let highlighter = &mut self.highlighter;
                    let ppp = ui.ctx().pixels_per_point();
                    let (find_query, dark, font) = (&look.find_query, look.dark, &look.font);
                    let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
                        analysis.ensure(buf.as_str());
                        let (generation, comp) = (analysis.generation, &analysis.comp);
                        ui.fonts_mut(|f| {
                            highlighter.galley(
                                f,
                                ppp,
                                generation,
                                buf.as_str(),
                                comp,
                                find_query,
                                dark,
                                font,
                            )
                        })
                    };
                    let mut shown: &str;
                    let buf: &mut dyn egui::TextBuffer = if read_only {
                        shown = text.as_str();
                        &mut shown
                    } else {
                        text
                    };
                    let edit = egui::TextEdit::multiline(buf)
                        .id(editor_id())
                        .code_editor()
                        .font(look.font.clone())
                        .desired_width(f32::INFINITY)
                        .desired_rows(30)
                        .return_key(None)
                        .interactive(!skf)
                        .frame(egui::Frame::NONE);
                    let output =
                        if spriter { edit.show(ui) } else { edit.layouter(&mut layouter).show(ui) };
                    (gutter, output)
                })
                .inner
            },
        )
    }

    /// The cursor and where it goes next: a pending selection is scrolled
    /// to; otherwise the field's cursor is remembered (as a byte offset).
    fn follow_cursor(
        &mut self,
        ui: &egui::Ui,
        doc: &Document,
        output: &TextEditOutput,
        row_height: f32,
    ) -> Option<usize> {
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
        self.cursor
    }

    /// Line numbers in the gutter, for the visible rows only (the cursor's
    /// line stronger). The gutter stays at the left edge when the text is
    /// scrolled sideways (a long line, the cursor at its end): the numbers
    /// are drawn there over the panel's own color, with the text passing
    /// under them, instead of scrolling out of view with it.
    fn line_numbers(
        &self,
        ui: &egui::Ui,
        doc: &Document,
        clip: egui::Rect,
        gutter: egui::Rect,
        output: &TextEditOutput,
        look: &Look,
    ) {
        let painter = ui.painter_at(clip);
        let left = gutter.left().max(clip.left());
        if left > gutter.left() {
            let rect = egui::Rect::from_min_size(
                Pos2::new(left, clip.top()),
                Vec2::new(look.gutter_w, clip.height()),
            );
            painter.rect_filled(rect, 0.0, ui.visuals().panel_fill);
        }
        let right = left + look.gutter_w - 8.0;
        let weak = ui.visuals().weak_text_color();
        let strong = ui.visuals().strong_text_color();
        let cursor_line =
            self.cursor.map(|c| memchr::memchr_iter(b'\n', &doc.text.as_bytes()[..c]).count());
        // Rows are sorted by height: skip straight to the first visible one.
        let rows = &output.galley.rows;
        let first = rows
            .partition_point(|row| output.galley_pos.y + row.pos.y + look.row_height < clip.top());
        // Lines of the file, not rows on screen: a line wrapped into
        // several rows (the read-only Spriter view wraps) has one number,
        // on its first row.
        for (row, line) in numbered_rows(rows, first) {
            let y = output.galley_pos.y + row.pos.y;
            if y > clip.bottom() {
                break;
            }
            if let Some(line) = line {
                let color = if Some(line) == cursor_line { strong } else { weak };
                painter.text(
                    Pos2::new(right, y),
                    egui::Align2::RIGHT_TOP,
                    (line + 1).to_string(),
                    look.font.clone(),
                    color,
                );
            }
        }
    }

    fn find_bar(&mut self, ui: &mut egui::Ui, text: &str) {
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
            let count = if self.find.query.is_empty() {
                0
            } else {
                text.matches(self.find.query.as_str()).count()
            };
            if ui.button("Prev").on_hover_text("Previous match (Shift+Enter)").clicked() {
                jump = Some(false);
            }
            if ui.button("Next").on_hover_text("Next match (Enter)").clicked() {
                jump = Some(true);
            }
            ui.weak(format!("{count} match{}", if count == 1 { "" } else { "es" }));
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

/// The rows of a galley from row `first` on, each with the index of the
/// file line it starts (`None` for the further rows of a wrapped line).
fn numbered_rows(
    rows: &[egui::epaint::text::PlacedRow],
    first: usize,
) -> impl Iterator<Item = (&egui::epaint::text::PlacedRow, Option<usize>)> {
    let first = first.min(rows.len());
    let mut line = rows[..first].iter().filter(|r| r.ends_with_newline).count();
    let mut starts_line = first == 0 || rows[first - 1].ends_with_newline;
    rows[first..].iter().map(move |row| {
        let number = starts_line.then_some(line);
        starts_line = row.ends_with_newline;
        line += usize::from(row.ends_with_newline);
        (row, number)
    })
}

/// How the editor's text is laid out this frame.
struct Look {
    font: FontId,
    row_height: f32,
    /// Width of a digit.
    char_w: f32,
    dark: bool,
    gutter_w: f32,
    /// Highlighted matches of the find bar (empty: none).
    find_query: String,
}

impl Look {
    fn of(ui: &egui::Ui, doc: &Document, find_query: String) -> Look {
        let font = FontId::monospace(13.0);
        let row_height = ui.fonts_mut(|f| f.row_height(&font));
        let line_count = memchr::memchr_iter(b'\n', doc.text.as_bytes()).count() + 1;
        let digits = line_count.to_string().len().max(3);
        let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
        Look {
            row_height,
            char_w,
            dark: ui.visuals().dark_mode,
            gutter_w: digits as f32 * char_w + 12.0,
            find_query,
            font,
        }
    }
}

/// The message of a diagnostic under the mouse, when the pointer is on the
/// text (not past a line's end).
fn diagnostic_tooltip(ui: &egui::Ui, doc: &Document, output: &TextEditOutput, char_w: f32) {
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
        .comp
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
    egui::Tooltip::always_open(
        ui.ctx().clone(),
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
        ui.weak(format!(
            "{errors} error{}, {warnings} warning{}",
            plural(errors),
            plural(warnings)
        ));
    });
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
    fn inserted_lines_go_before_into_or_after_the_cursor_line() {
        let mut t = String::from("a\n\t\nbc");
        assert_eq!(insert_line(&mut t, 0, "X"), 1);
        assert_eq!(t, "X\na\n\t\nbc");
        // A blank line is replaced.
        assert_eq!(insert_line(&mut t, 5, "Y"), 5);
        assert_eq!(t, "X\na\nY\nbc");
        // In the middle of a line: after it.
        assert_eq!(insert_line(&mut t, 7, "Z"), 10);
        assert_eq!(t, "X\na\nY\nbc\nZ");
        let mut e = String::new();
        assert_eq!(insert_line(&mut e, 0, "skeleton"), 8);
        assert_eq!(e, "skeleton");
    }

    #[test]
    fn wrapped_rows_share_their_line_number() {
        let ctx = egui::Context::default();
        let mut galley = None;
        let mut out = ctx.run_ui(egui::RawInput::default(), |ui| {
            let mut job = egui::text::LayoutJob::simple(
                "short\na line long enough to wrap into several rows\nend".into(),
                FontId::monospace(13.0),
                egui::Color32::WHITE,
                60.0,
            );
            job.wrap.max_width = 60.0;
            galley = Some(ui.fonts_mut(|f| f.layout_job(job)));
        });
        out.textures_delta.clear();
        let galley = galley.unwrap();
        assert!(galley.rows.len() > 4, "the long line wraps");
        let lines: Vec<Option<usize>> =
            numbered_rows(&galley.rows, 0).map(|(_, line)| line).collect();
        let n = lines.len();
        assert_eq!(lines[..2], [Some(0), Some(1)]);
        assert!(lines[2..n - 1].iter().all(Option::is_none), "{lines:?}");
        assert_eq!(lines[n - 1], Some(2));
        // From the middle of the wrapped line on.
        let tail: Vec<Option<usize>> =
            numbered_rows(&galley.rows, 3).map(|(_, line)| line).collect();
        assert_eq!(tail.last(), Some(&Some(2)));
        assert!(tail[..tail.len() - 1].iter().all(Option::is_none));
    }

    #[test]
    fn offsets_follow_a_replacement() {
        let old = "a x5 b\nleg\n";
        let new = "a x12.5 b\nleg\n";
        assert_eq!(map_offset(old, new, 0), 0);
        assert_eq!(map_offset(old, new, old.find("leg").unwrap()), new.find("leg").unwrap());
        assert_eq!(map_offset(old, new, old.len()), new.len());
        // Inside the replaced digits: the end of the new ones.
        assert_eq!(map_offset(old, new, 4), new.find(" b").unwrap());
        // A shorter text.
        assert_eq!(map_offset(new, old, new.find("leg").unwrap()), old.find("leg").unwrap());
        assert_eq!(map_offset("abc", "abc", 2), 2);
        assert_eq!(map_offset("é\nx", "éé\nx", 3), 5);
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
