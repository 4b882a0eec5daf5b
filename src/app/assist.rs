//! Hover and completion in the script pane, answered by the language
//! features the language server answers with (`skelpad_ide::analysis`):
//! the tooltip shows the server's hover text, the list the server's
//! proposals.
//!
//! - Hover: when the pointer rests on the text for [`HOVER_REST_SECS`], a
//!   tooltip shows [`hover_text`] at the character under it.
//! - Completion: Ctrl+Space, or typing a word character, opens a list of
//!   the proposals at the cursor that hold the word typed so far. Which
//!   keys the list takes, and when, is [`super::typing::list`]'s rule,
//!   applied in order with the typing; a click on a row inserts it too.
//!
//! The editor calls [`Assist::clicked_row`] before it applies the frame's
//! typing, [`Assist::after_typing`] after, and [`Assist::ui`] once the text
//! field is drawn.

use eframe::egui::text::{CCursor, CCursorRange, LayoutJob};
use eframe::egui::text_edit::{TextEditOutput, TextEditState};
use eframe::egui::{self, TextFormat};

use super::document::Document;
use super::editor::{byte_of_char, char_of_byte, editor_id, floor_boundary};
use super::typing::list::{List, Open, Propose};
use crate::compile::Compilation;
use skelpad_ide::analysis::{self, Proposal};

/// How long the pointer rests before the hover tooltip shows (seconds).
pub const HOVER_REST_SECS: f64 = 0.5;

/// The most rows the completion list shows at once.
const ROWS: usize = 12;

/// The hover text at byte `offset` of the document: the Markdown the
/// language server answers a hover there with (`None`: nothing to say).
pub fn hover_text(doc: &Document, offset: usize) -> Option<String> {
    let offset = floor_boundary(&doc.text, offset);
    analysis::hover(&doc.text, doc.analysis.comp(), offset as u32).map(|(md, _)| md)
}

/// The proposals the list shows at byte `cursor` of `text` (compiled as
/// `comp`): the server's, those holding the typed word's characters in
/// order (case-insensitively); one equal to the word first, then the ones
/// starting with it. None when the only one is the word itself.
pub fn proposals_in(text: &str, comp: &Compilation, cursor: usize) -> Vec<Proposal> {
    let cursor = floor_boundary(text, cursor);
    let (all, _) = analysis::complete_limited(text, comp, cursor, analysis::MAX_PROPOSALS);
    let Some(first) = all.first() else { return all };
    let start = (first.replace.start as usize).min(cursor);
    let typed = text.get(start..cursor).unwrap_or("");
    let word = typed.to_lowercase();
    let holds = |label: &str| {
        let mut want = word.chars().peekable();
        for c in label.to_lowercase().chars() {
            if want.peek() == Some(&c) {
                want.next();
            }
        }
        want.peek().is_none()
    };
    let (mut first, rest): (Vec<Proposal>, Vec<Proposal>) = all
        .into_iter()
        .filter(|p| holds(&p.label))
        .partition(|p| p.label.to_lowercase().starts_with(&word));
    first.sort_by_key(|p| p.label != typed);
    first.extend(rest);
    if first.len() == 1 && first[0].label.to_lowercase() == word {
        first.clear();
    }
    first
}

/// Proposals for the text as the typing leaves it, key by key: the
/// analysis compiles that text first (incrementally; only a key the list
/// may take asks).
pub struct Proposer<'a>(pub &'a mut super::document::Analysis);

impl Propose for Proposer<'_> {
    fn propose(&mut self, text: &str, cursor: usize) -> Vec<Proposal> {
        self.0.ensure(text);
        proposals_in(text, self.0.comp(), cursor)
    }
}

/// Hover and completion state of the script pane.
#[derive(Default)]
pub struct Assist {
    /// The completion list (the typing carries it: [`super::typing::list`]).
    pub list: List,
    /// Where the pointer rests over the text, and since when.
    rest: Option<(egui::Pos2, f64)>,
    /// A row clicked in the list (inserted next frame).
    clicked: Option<usize>,
    /// The text laid out last and where it was drawn.
    shown: Option<(std::sync::Arc<egui::Galley>, egui::Pos2)>,
    /// Where the list was drawn last (a click on it takes the editor's
    /// focus away, but not the list).
    list_rect: Option<egui::Rect>,
}

impl Assist {
    /// Whether the completion list is open.
    pub fn list_open(&self) -> bool {
        self.list.open().is_some()
    }

    /// The labels the completion list shows, in order (empty when closed).
    pub fn list_labels(&self) -> Vec<&str> {
        let open = self.list.open().and_then(|o| o.asked.as_ref());
        open.iter().flat_map(|(_, p)| p.iter().map(|p| p.label.as_str())).collect()
    }

    /// Lets go of the galley drawn last (the text field is about to ask
    /// for the next one).
    pub fn let_go(&mut self) {
        self.shown = None;
    }

    /// Where the character at byte `offset` of the text drawn last was
    /// drawn on the screen (its middle).
    pub fn screen_pos(&self, offset: usize) -> Option<egui::Pos2> {
        let (galley, at) = self.shown.as_ref()?;
        let text = galley.text();
        let c = char_of_byte(text, floor_boundary(text, offset));
        let r = galley.pos_from_cursor(CCursor::new(c));
        let w = galley.pos_from_cursor(CCursor::new(c + 1)).left() - r.left();
        Some(*at + egui::vec2(r.left() + w.max(1.0) / 2.0, r.center().y))
    }

    /// Inserts a row of the list clicked last frame, before the editor
    /// applies this frame's typing: the cursor after it.
    pub fn clicked_row(
        &mut self,
        ctx: &egui::Context,
        doc: &mut Document,
        history: &mut super::history::History,
    ) -> Option<usize> {
        let i = self.clicked.take()?;
        ctx.memory_mut(|m| m.request_focus(editor_id()));
        self.accept(ctx, doc, i, history)
    }

    /// The editor does not have the focus this frame: the list closes,
    /// unless the pointer is on it (a click on a row takes the focus away
    /// for a moment).
    pub fn unfocused(&mut self, ctx: &egui::Context) {
        let on_list = ctx
            .input(|i| i.pointer.interact_pos())
            .is_some_and(|p| self.list_rect.is_some_and(|r| r.contains(p)));
        if !on_list {
            self.list.close();
        }
    }

    /// Asks for the proposals of a list the frame's typing opened or
    /// changed, at the cursor where the typing left it (the document is
    /// compiled for its text).
    pub fn after_typing(&mut self, doc: &mut Document, cursor: Option<usize>) {
        let Some(cursor) = cursor else { return };
        self.list.ensure(&doc.text, cursor, &mut Proposer(&mut doc.analysis));
    }

    /// Inserts proposal `i` of the list in place of the word it completes,
    /// as one undo step; returns the cursor after it.
    fn accept(
        &mut self,
        ctx: &egui::Context,
        doc: &mut Document,
        i: usize,
        history: &mut super::history::History,
    ) -> Option<usize> {
        let open = self.list.open_mut()?.asked.take();
        self.list.close();
        let (_, proposals) = open?;
        let p = proposals.get(i)?;
        let (start, end) = (p.replace.start as usize, p.replace.end as usize);
        if end > doc.text.len() || !doc.text.is_char_boundary(start) || start > end {
            return None;
        }
        history.mark(ctx, &doc.text, format!("Inserted `{}`", p.label));
        doc.text.replace_range(start..end, &p.label);
        let cursor = start + p.label.len();
        let id = editor_id();
        let mut state = TextEditState::load(ctx, id).unwrap_or_default();
        let c = CCursor::new(char_of_byte(&doc.text, cursor));
        state.cursor.set_char_range(Some(CCursorRange::one(c)));
        state.store(ctx, id);
        doc.sync();
        Some(cursor)
    }

    /// Draws the completion list under the cursor and the hover tooltip at
    /// a resting pointer, once the text field is drawn.
    pub fn ui(&mut self, ui: &egui::Ui, doc: &mut Document, output: &TextEditOutput) {
        self.shown = Some((output.galley.clone(), output.galley_pos));
        let cursor = output.cursor_range.map(|r| byte_of_char(&doc.text, r.primary.index.0));
        // The cursor moved (a click, an arrow key, the text field's typing):
        // the list follows it while it stays in the word, else it closes.
        if let (Some(open), Some(c)) = (self.list.open(), cursor)
            && open.asked.as_ref().is_none_or(|(at, _)| *at != c)
        {
            let start = match &open.asked {
                Some((at, p)) => p.first().map_or(*at, |p| p.replace.start as usize),
                None => c,
            };
            if c < start || doc.text.get(start..c).is_none_or(|w| w.contains(char::is_whitespace)) {
                self.list.close();
            } else {
                self.list.ensure(&doc.text, c, &mut Proposer(&mut doc.analysis));
            }
        }
        // Without a cursor (the field let go of the focus as the list was
        // clicked) the list stays where it was made.
        if let Some(Open { asked: Some((at, proposals)), selected, .. }) = self.list.open() {
            let c = cursor.unwrap_or(*at);
            let pos = output.galley.pos_from_cursor(CCursor::new(char_of_byte(&doc.text, c)));
            let row = pos.translate(output.galley_pos.to_vec2());
            let (clicked, rect) = list_ui(ui.ctx(), proposals, *selected, row);
            (self.clicked, self.list_rect) = (clicked, Some(rect));
        } else {
            self.list_rect = None;
        }
        self.hover_ui(ui, doc, output);
    }

    /// The hover tooltip, once the pointer has rested on a character.
    fn hover_ui(&mut self, ui: &egui::Ui, doc: &Document, output: &TextEditOutput) {
        let Some(pos) = output.response.response.hover_pos() else {
            self.rest = None;
            return;
        };
        let now = ui.input(|i| i.time);
        let since = match self.rest {
            Some((p, t)) if p.distance(pos) < 3.0 => t,
            _ => {
                self.rest = Some((pos, now));
                now
            }
        };
        if now - since < HOVER_REST_SECS {
            ui.ctx().request_repaint_after_secs((HOVER_REST_SECS - (now - since)) as f32);
            return;
        }
        let local = pos - output.galley_pos;
        let Some((b, left)) = char_under(&output.galley, &doc.text, local) else { return };
        let width = ui.fonts_mut(|f| f.glyph_width(&egui::FontId::monospace(13.0), '0'));
        if local.x < left - 1.0 || local.x > left + width * 1.5 {
            return; // past the end of the line
        }
        // A diagnostic there has its own tooltip (the editor's), which wins.
        if doc.analysis.comp().diagnostics.iter().any(|d| d.span.range().contains(&b)) {
            return;
        }
        let Some(md) = hover_text(doc, b) else { return };
        super::editor::pointer_tooltip(ui, "skelpad.hover-tooltip", 480.0, |ui| {
            for line in md.lines() {
                if super::sparkline::has_bars(line) {
                    super::sparkline::label(ui, &line.replace(['`', '*'], ""), false);
                } else {
                    ui.label(markdown_line(ui, line));
                }
            }
        });
    }
}

/// The character of `text` under `local` (a point in `galley`'s
/// coordinates): its byte offset and the left edge of its glyph.
fn char_under(galley: &egui::Galley, text: &str, local: egui::Vec2) -> Option<(usize, f32)> {
    if galley.job.wrap.max_width.is_infinite() {
        char_under_unwrapped(galley, text, local)
    } else {
        // Wrapped (the read-only Spriter view): egui's walk over every row.
        let mut cc = galley.cursor_from_pos(local);
        let x = galley.pos_from_cursor(cc).center().x;
        // The character under the pointer is the one before the nearest
        // boundary when the pointer is left of it.
        if x > local.x && cc.index.0 > 0 {
            cc = CCursor::new(cc.index.0 - 1);
        }
        Some((byte_of_char(text, cc.index.0), galley.pos_from_cursor(cc).left()))
    }
}

/// [`char_under`] for a galley with one row per line of `text` (the
/// script pane's): the row found by its height, the line's start by
/// counting newlines, the character within the line — never a walk over
/// every row and glyph of a 50,000-line script, which `Galley::cursor_from_pos`
/// is (milliseconds a frame while the pointer rests on the text).
fn char_under_unwrapped(
    galley: &egui::Galley,
    text: &str,
    local: egui::Vec2,
) -> Option<(usize, f32)> {
    let rows = &galley.rows;
    let r = rows.partition_point(|row| row.max_y() < local.y);
    let row = rows.get(r).filter(|row| row.min_y() <= local.y)?;
    let start = match r {
        0 => 0,
        _ => memchr::memchr_iter(b'\n', text.as_bytes()).nth(r - 1)? + 1,
    };
    let x = local.x - row.pos.x;
    let col = row.glyphs.partition_point(|g| g.pos.x <= x).checked_sub(1)?;
    let glyph = row.glyphs.get(col)?;
    let line = &text[start..];
    let line = &line[..line.find('\n').unwrap_or(line.len())];
    let b = start + line.char_indices().nth(col).map_or(line.len(), |(b, _)| b);
    Some((b, row.pos.x + glyph.pos.x))
}

/// The list's rows under the cursor's row (`row`, on the screen), or above
/// it when there is no room below; returns the row clicked and where the
/// list is.
fn list_ui(
    ctx: &egui::Context,
    proposals: &[Proposal],
    selected: usize,
    row: egui::Rect,
) -> (Option<usize>, egui::Rect) {
    let mut clicked = None;
    let first = selected.saturating_sub(ROWS - 1);
    // About one line of body text per row, and one for the count.
    let height = (proposals.len().min(ROWS) + 1) as f32 * 23.0 + 12.0;
    let below = row.bottom() + height <= ctx.content_rect().bottom();
    let (at, pivot) = if below {
        (row.left_bottom(), egui::Align2::LEFT_TOP)
    } else {
        (row.left_top(), egui::Align2::LEFT_BOTTOM)
    };
    let area = egui::Area::new(egui::Id::unique("skelpad.completion"))
        .order(egui::Order::Foreground)
        .pivot(pivot)
        .fixed_pos(at)
        .show(ctx, |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| {
                ui.set_min_width(220.0);
                for (i, p) in proposals.iter().enumerate().skip(first).take(ROWS) {
                    let row = ui.horizontal(|ui| {
                        let r = ui.selectable_label(
                            i == selected,
                            egui::RichText::new(&p.label).monospace(),
                        );
                        super::sparkline::label(ui, &p.detail, true);
                        r
                    });
                    if row.inner.clicked() {
                        clicked = Some(i);
                    }
                }
                if proposals.len() > ROWS {
                    ui.weak(format!("{} in all: type more to narrow", proposals.len()));
                }
            });
        });
    (clicked, area.response.rect)
}

/// One line of the hover's Markdown as egui text: `**strong**` and
/// `` `code` `` styled, the markers and a line's trailing break removed.
fn markdown_line(ui: &egui::Ui, line: &str) -> LayoutJob {
    let style = ui.style();
    let body = egui::TextStyle::Body.resolve(style);
    let mono = egui::TextStyle::Monospace.resolve(style);
    let color = ui.visuals().text_color();
    let strong = ui.visuals().strong_text_color();
    let mut job = LayoutJob::default();
    let (mut bold, mut code) = (false, false);
    let line = line.trim_end_matches(' ');
    let mut rest = line;
    while !rest.is_empty() {
        let next = [rest.find("**"), rest.find('`')].into_iter().flatten().min();
        let cut = next.unwrap_or(rest.len());
        let format = TextFormat {
            font_id: if code { mono.clone() } else { body.clone() },
            color: if bold { strong } else { color },
            ..TextFormat::default()
        };
        job.append(&rest[..cut], 0.0, format);
        rest = &rest[cut..];
        if let Some(r) = rest.strip_prefix("**") {
            bold = !bold;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('`') {
            code = !code;
            rest = r;
        }
    }
    job
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The character found from the row's height and the line's newlines
    /// is the one egui's walk over the whole galley finds, wherever the
    /// pointer is on the text (tabs, wide characters, empty lines).
    #[test]
    fn the_character_under_the_pointer_is_found_without_walking_the_galley() {
        let text = "skeleton\n\tarm l40 # é\n\n\t\tx 1 -> 2\nend é ü\n\tlast";
        let ctx = egui::Context::default();
        let mut galley = None;
        let mut out = ctx.run_ui(Default::default(), |ui| {
            let mut job = LayoutJob::simple(
                text.into(),
                egui::FontId::monospace(13.0),
                egui::Color32::WHITE,
                f32::INFINITY,
            );
            job.wrap.max_width = f32::INFINITY;
            galley = Some(ui.fonts_mut(|f| f.layout_job(job)));
        });
        out.textures_delta.clear();
        let galley = galley.unwrap();
        let mut wrapped = (*galley).clone();
        let mut job = (*galley.job).clone();
        job.wrap.max_width = 10_000.0;
        wrapped.job = std::sync::Arc::new(job);
        let mut checked = 0;
        for row in &galley.rows {
            let mut x = 0.5;
            while x < row.size.x {
                let p = egui::vec2(x, row.pos.y + row.size.y / 2.0);
                let fast = char_under(&galley, text, p);
                let slow = char_under(&wrapped, text, p);
                assert_eq!(fast, slow, "at {p:?}");
                checked += 1;
                x += 2.5;
            }
        }
        assert!(checked > 50);
        // Between lines nothing is under the pointer; below the text neither.
        assert_eq!(char_under(&galley, text, egui::vec2(5.0, galley.rect.bottom() + 20.0)), None);
    }
}
