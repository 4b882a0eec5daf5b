//! The script pane: the text field with its line numbers and highlighting
//! (laid out only where it is seen: [`super::lazy_layout`]), the script's
//! own typing applied in order ([`super::typing`]), selections asked for by
//! other panels, and a diagnostic's message on hover.
//!
//! Beside it: `find` (the find bar), `problems` (the diagnostics list
//! under the editor, and the hover message), `offsets` (byte and
//! character offsets, whole-line edits).

use std::ops::Range;

use eframe::egui::containers::scroll_area::ScrollAreaOutput;
use eframe::egui::text::{CCursor, CCursorRange};
use eframe::egui::text_edit::{TextEditOutput, TextEditState};
use eframe::egui::{self, Align, FontId, Key, Pos2, Vec2};

use super::document::Document;

mod find;
mod offsets;
pub(in crate::app) mod problems;

use super::highlight::Highlighter;
use super::lazy_layout::Request;
use super::typing;
pub use find::{Find, find_next};
pub use offsets::{
    byte_of_char, char_of_byte, floor_boundary, insert_line, insert_words, line_start, map_offset,
    shift_lines,
};
use problems::diagnostic_tooltip;
pub use problems::diagnostics_ui;
pub(in crate::app) use problems::pointer_tooltip;

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

/// How [`Editor::insert_at_cursor`] places its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Insert {
    /// A whole line (a Help topic's example): see [`insert_line`].
    Line,
    /// Words at the end of the cursor's line (a Help word's example): see
    /// [`insert_words`].
    Words,
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

/// A line of the script as the editor showed it (see
/// [`Editor::lines_in_view`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ShownLine {
    /// Its index in the text (0 for the first line).
    pub line: usize,
    /// Its characters, as the galley holds them.
    pub text: String,
    /// Its glyphs were drawn: the row's mesh has a quad for every
    /// character that is not blank (a line laid out only to take its
    /// place has no mesh).
    pub drawn: bool,
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
    pending_insert: Option<(String, Insert)>,
    /// Another document replaced the shown one: the text field's own
    /// memory (cursor, undo history) is cleared before it is drawn next.
    forget_field: bool,
    /// The galley the text field drew last (what the pane shows).
    shown: Option<std::sync::Arc<egui::Galley>>,
    /// Hover and completion (see [`super::assist`]).
    pub assist: super::assist::Assist,
    /// The part of that galley in view (y, in its coordinates).
    view: Option<egui::Rangef>,
    /// The text field had the focus at the end of the last frame.
    had_focus: bool,
    /// The labelled edits of this document (see [`super::history`]).
    pub history: super::history::History,
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
        self.history.clear();
    }

    /// The text the field laid out and drew in the last frame (`None`
    /// before the first frame).
    pub fn shown_text(&self) -> Option<&str> {
        self.shown.as_ref().map(|g| g.text())
    }

    /// The lines of the text in view in the last frame, top to bottom: the
    /// text each row holds and whether it was drawn (see [`ShownLine`]).
    pub fn lines_in_view(&self) -> Vec<ShownLine> {
        let (Some(galley), Some(view)) = (&self.shown, self.view) else { return Vec::new() };
        let rows = &galley.rows;
        let first = rows.partition_point(|r| r.pos.y + r.size.y <= view.min);
        numbered_rows(rows, first)
            .take_while(|(r, _)| r.pos.y < view.max)
            .filter_map(|(row, line)| {
                let text: String = row.glyphs.iter().map(|g| g.chr).collect();
                let inked = text.chars().filter(|c| !c.is_whitespace()).count();
                let drawn = row.visuals.mesh.vertices.len() >= 4 * inked;
                Some(ShownLine { line: line?, text, drawn })
            })
            .collect()
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
        self.apply_pending_insert(ctx, doc);
        if let Some(c) = self.assist.clicked_row(ctx, doc, &mut self.history) {
            (self.cursor, self.edited) = (Some(c), true);
        }
        let mut events = ctx.input_mut(|i| std::mem::take(&mut i.events));
        if !self.deferred.is_empty() {
            events.splice(0..0, self.deferred.drain(..));
        }
        let state = TextEditState::load(ctx, id);
        // egui lets go of the focus when a frame holds Escape, before any
        // widget runs: the keys before it were still typed into the editor,
        // and the Escape may be the completion list's.
        let escape = events.iter().any(is_escape);
        let focused = ctx.memory(|m| m.has_focus(id)) || (self.had_focus && escape);
        if focused {
            ctx.memory_mut(|m| m.request_focus(id));
        }
        let (Some(mut state), true) = (state, focused) else {
            if !focused {
                self.assist.unfocused(ctx);
            }
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
        let list = &mut self.assist.list;
        let mut propose = super::assist::Proposer(&mut doc.analysis);
        let split = typing::apply_in_order(&mut doc.text, &mut sel, events, list, &mut propose);
        if let Some(before) = &split.inserted_from {
            self.history.mark(ctx, before, "Inserted a completion");
        }
        if split.now.iter().any(is_escape) {
            // An Escape the list did not take leaves the editor, as egui
            // meant (the keys before it were typed; those after it are not).
            ctx.memory_mut(|m| m.surrender_focus(id));
        }
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

    /// Inserts the text asked for by [`Editor::insert_at_cursor`] and
    /// gives the editor focus.
    fn apply_pending_insert(&mut self, ctx: &egui::Context, doc: &mut Document) {
        let id = editor_id();
        let Some((insert, how)) = self.pending_insert.take() else { return };
        let at = floor_boundary(&doc.text, self.cursor.unwrap_or(doc.text.len()));
        let end = match how {
            Insert::Line => insert_line(&mut doc.text, at, &insert),
            Insert::Words => {
                // At the end of the cursor's line (before a CR of CRLF).
                let nl = doc.text[at..].find('\n').map_or(doc.text.len(), |i| at + i);
                let end = if doc.text[..nl].ends_with('\r') { nl - 1 } else { nl };
                insert_words(&mut doc.text, end, &insert)
            }
        };
        let mut state = TextEditState::load(ctx, id).unwrap_or_default();
        let c = char_of_byte(&doc.text, end);
        state.cursor.set_char_range(Some(CCursorRange::one(CCursor::new(c))));
        state.store(ctx, id);
        self.cursor = Some(end);
        self.edited = true;
        doc.sync();
        ctx.memory_mut(|m| m.request_focus(id));
    }

    /// Inserts `text` at the cursor (at the end without one) at the start
    /// of the next frame, as a line of its own ([`insert_line`]) or as
    /// words at the end of the cursor's line ([`insert_words`]), and gives
    /// the editor focus.
    pub fn insert_at_cursor(&mut self, text: &str, how: Insert) {
        self.pending_insert = Some((text.to_owned(), how));
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
        // Last frame's galley is let go of, so that the highlighter can
        // patch it in place (`lazy_layout::Highlighter::patch`).
        self.shown = None;
        self.assist.let_go();
        let scroll = self.text_field(ui, doc, &look, skf, spriter);
        let (gutter, output) = &scroll.inner;
        self.shown = Some(output.galley.clone());
        let response = &output.response;
        self.had_focus = response.response.has_focus();
        // Named for screen readers (and tests) by the "Script" heading.
        let _ = response.response.clone().labelled_by(label.id);
        if response.changed() {
            out.changed = true;
        }
        doc.sync();
        out.cursor = self.follow_cursor(doc, output);
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
        if ui.input_mut(|i| i.consume_shortcut(&super::keymap::FIND)) {
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
        let pending = self.pending_select.clone();
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
                    // The part of the text in view, in the galley's
                    // coordinates (the field starts at the top of the
                    // scrolled content): only those lines are laid out.
                    let top = ui.max_rect().top();
                    let view = egui::Rangef::new(
                        ui.clip_rect().top() - top,
                        ui.clip_rect().bottom() - top,
                    );
                    self.view = Some(view);
                    let output =
                        show_field(ui, doc, &mut self.highlighter, look, view, skf, spriter);
                    if let Some(r) = &pending {
                        scroll_to_selection(ui, &output, r.start, look.row_height);
                    }
                    (gutter, output)
                })
                .inner
            },
        )
    }

    /// The cursor: a pending selection's start (the text field scrolled to
    /// it); otherwise the field's cursor, remembered as a byte offset.
    fn follow_cursor(&mut self, doc: &Document, output: &TextEditOutput) -> Option<usize> {
        let cursor_char = output.cursor_range.map(|r| r.primary.index.0);
        if let Some(r) = self.pending_select.take() {
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
}

/// Scrolls the text field's area to byte `at` of the text shown, centered.
/// Called inside the scroll area: a scroll target set after the area has
/// ended would be dropped with the frame.
/// Whether `e` is a press of Escape.
fn is_escape(e: &egui::Event) -> bool {
    matches!(e, egui::Event::Key { key: Key::Escape, pressed: true, .. })
}

fn scroll_to_selection(ui: &egui::Ui, output: &TextEditOutput, at: usize, row_height: f32) {
    let g = &output.galley;
    let c = CCursor::new(char_of_byte(g.text(), at));
    let rect = g.pos_from_cursor(c).translate(output.galley_pos.to_vec2());
    // Centered vertically; sideways only as far as the caret needs (a
    // target centered on the view's own middle when the caret is in view).
    let view = ui.clip_rect();
    let margin = (view.width() / 2.0 - 40.0).max(0.0);
    let x = view.center().x.clamp(rect.center().x - margin, rect.center().x + margin);
    let target = egui::Rect::from_x_y_ranges(x - 1.0..=x + 1.0, rect.y_range())
        .expand2(Vec2::new(0.0, row_height * 3.0));
    ui.scroll_to_rect(target, Some(Align::Center));
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

/// The text field itself, laid out by `highlighter` (only the lines in
/// `view`, the visible part in the galley's coordinates); an imported file
/// is shown read-only, a Spriter file without highlighting.
fn show_field(
    ui: &mut egui::Ui,
    doc: &mut Document,
    highlighter: &mut Highlighter,
    look: &Look,
    view: egui::Rangef,
    skf: bool,
    spriter: bool,
) -> TextEditOutput {
    let read_only = skf || spriter;
    let Document { text, analysis, .. } = doc;
    let pixels_per_point = ui.ctx().pixels_per_point();
    let (find, dark, font) = (look.find_query.as_str(), look.dark, &look.font);
    // The first layout of the frame compiles the text; the field asks again
    // after each edit it applies itself (several in a burst of keys), and
    // those follow the text without compiling it (`Highlighter::follow`):
    // the editor compiles the final text once, after the field.
    let mut first = true;
    let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
        if std::mem::take(&mut first) {
            analysis.ensure(buf.as_str());
        }
        let req = Request {
            text: buf.as_str(),
            comp: analysis.comp(),
            generation: analysis.generation,
            find,
            dark,
            font,
            pixels_per_point,
            view,
        };
        if analysis.is_current(buf.as_str()) {
            ui.fonts_mut(|f| highlighter.galley(f, &req))
        } else {
            ui.fonts_mut(|f| highlighter.follow(f, &req))
        }
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
    if spriter {
        // The file's own lines, unwrapped (the view scrolls sideways).
        let mut plain = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _wrap: f32| {
            let color = ui.visuals().text_color();
            let job = egui::text::LayoutJob::simple(
                buf.as_str().to_owned(),
                look.font.clone(),
                color,
                f32::INFINITY,
            );
            ui.fonts_mut(|f| f.layout_job(job))
        };
        edit.layouter(&mut plain).show(ui)
    } else {
        edit.layouter(&mut layouter).show(ui)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
