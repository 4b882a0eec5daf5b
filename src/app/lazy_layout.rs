//! The script's galley, laid out only where it is seen.
//!
//! egui's text field wants one galley for the whole text: its cursor,
//! selection, clicks and arrow keys all walk the galley's rows. Laying out
//! every line of a 50,000-line script (shaping, glyphs, the highlighted
//! mesh) took ~390 ms. So the galley is made of one small galley per line,
//! joined with [`Galley::concat`] (which shares the lines' rows, it does not
//! copy them):
//!
//! - a line in view (or within three screens of it) is laid out for real, with
//!   its highlighting ([`super::highlight`]), and kept between frames under
//!   a hash of its text and looks;
//! - any other line is a *placeholder*: a row with one glyph per character
//!   at the monospace font's advance (a tab's at its own), so the text
//!   field counts characters and places the cursor as it would, but with no
//!   mesh: nothing is drawn for it, and it costs no shaping.
//!
//! An edit replaces only the lines it touched (found from the common
//! prefix and suffix of the old and new text); the lines in view are
//! checked again against their looks (diagnostics or roles may change
//! elsewhere than the edit). Scrolling lays out the lines coming into view.
//! Where no line was added or removed, last frame's galley is patched in
//! place (`Highlighter::patch`) rather than joined again; the text
//! field's layouts after its own edits within a frame follow the text
//! without a compilation of it ([`Highlighter::follow`]).

use std::hash::{Hash, Hasher};
use std::ops::Range;
use std::sync::Arc;

use eframe::egui::emath::GuiRounding as _;
use eframe::egui::epaint::text::{FontsView, Glyph, PlacedRow, Row, RowVisuals};
use eframe::egui::text::LayoutJob;
use eframe::egui::{Color32, FontId, Galley, Pos2, Rangef, Rect, TextFormat, Vec2};
use rustc_hash::{FxHashMap, FxHasher};

use super::highlight::{Look, Palette, job_of, looks_into, roles_in};
use crate::compile::Compilation;

/// What the joined galley was made for: a change in any of them rebuilds it.
#[derive(Clone, PartialEq)]
struct BuildKey {
    generation: u64,
    dark: bool,
    find: String,
    font_size: u32,
    pixels_per_point: u32,
}

/// The lines of the text, in two lists so that the galleys can be handed
/// to [`Galley::concat`] as they are (no list of 50,000 galleys made again
/// for each join).
#[derive(Default)]
struct Lines {
    galleys: Vec<Arc<Galley>>,
    /// Per line: see [`Line::laid_out`].
    laid_out: Vec<Option<u64>>,
    /// The lines replaced since the galley was last joined, each with what
    /// its old galley counted (see [`Replaced`]); `None` when lines were
    /// added or removed (the galley is joined again).
    replaced: Option<Vec<Replaced>>,
}

/// A line replaced since the last join: its index, and its old galley's
/// intrinsic size and vertex and index counts.
struct Replaced {
    line: usize,
    intrinsic: Vec2,
    vertices: usize,
    indices: usize,
}

impl Lines {
    fn clear(&mut self) {
        self.galleys.clear();
        self.laid_out.clear();
        self.replaced = None;
    }

    /// Notes line `i`'s galley before it is replaced (the first time
    /// since the last join only: that is the one the joined galley holds).
    fn note(&mut self, i: usize) {
        if let (Some(r), Some(old)) = (&mut self.replaced, self.galleys.get(i))
            && !r.iter().any(|r| r.line == i)
        {
            r.push(Replaced {
                line: i,
                intrinsic: old.intrinsic_size(),
                vertices: old.num_vertices,
                indices: old.num_indices,
            });
        }
    }

    fn len(&self) -> usize {
        self.galleys.len()
    }

    fn is_empty(&self) -> bool {
        self.galleys.is_empty()
    }

    fn set(&mut self, i: usize, line: Line) {
        self.note(i);
        self.galleys[i] = line.galley;
        self.laid_out[i] = line.laid_out;
    }

    fn splice(&mut self, range: std::ops::RangeInclusive<usize>, fresh: Vec<Line>) {
        if range.clone().count() == fresh.len() {
            range.clone().for_each(|i| self.note(i));
        } else {
            self.replaced = None;
        }
        let laid: Vec<Option<u64>> = fresh.iter().map(|l| l.laid_out).collect();
        self.laid_out.splice(range.clone(), laid);
        self.galleys.splice(range, fresh.into_iter().map(|l| l.galley));
    }
}

impl FromIterator<Line> for Lines {
    fn from_iter<I: IntoIterator<Item = Line>>(iter: I) -> Self {
        let (galleys, laid_out) = iter.into_iter().map(|l| (l.galley, l.laid_out)).unzip();
        Lines { galleys, laid_out, replaced: None }
    }
}

/// What [`Line::laid_out`] holds for a line laid out plainly by
/// [`Highlighter::follow`]: not a hash of its looks, so the next build
/// highlights it (a hash equal to it is as likely as any other collision).
const PLAIN: u64 = 0;

/// One line of the text in the joined galley.
struct Line {
    galley: Arc<Galley>,
    /// The hash of the line's text and looks when laid out for real;
    /// `None` for a placeholder.
    laid_out: Option<u64>,
}

/// The parts placeholders are made of, from a real layout of `"\tx"`.
struct Template {
    /// The galley of `"\tx"` (its job and row stand in for a line's).
    galley: Arc<Galley>,
    /// A tab's glyph and any other character's, each with how far the pen
    /// moves after it.
    glyphs: Option<((Glyph, f32), (Glyph, f32))>,
    /// The galley of an empty line (shared by every empty line).
    empty: Arc<Galley>,
    /// The galley of `"\tx"` without its row, and its row without glyphs
    /// or mesh: what a placeholder is cloned from (no allocation).
    bare: Option<(Galley, Row)>,
    font: FontId,
    pixels_per_point: f32,
}

/// Lays out the highlighted text of the script, line by line and only
/// where it is seen (see the module's documentation).
#[derive(Default)]
pub struct Highlighter {
    key: Option<BuildKey>,
    /// The joined galley last handed out.
    galley: Option<Arc<Galley>>,
    /// Byte offset of the start of every line of the galley's text.
    starts: Vec<usize>,
    lines: Lines,
    /// The lines checked against their looks since the key last changed.
    window: Range<usize>,
    template: Option<Template>,
    /// A tiny galley egui lays out each frame: when egui hands back a
    /// different one, its fonts were rebuilt and every kept galley points
    /// into an old glyph atlas.
    sentinel: Option<Arc<Galley>>,
    /// Scratch space for one line's looks.
    looks: Vec<Look>,
    /// How many times the joined galley was made again (edits, theme,
    /// find, lines coming into view).
    pub builds: u64,
    /// How many single lines were laid out for real.
    pub lines_laid_out: u64,
    /// How many of the builds patched the last galley in place.
    pub patches: u64,
}

/// What the text field is asked to show this frame.
pub struct Request<'a> {
    /// The text and its compilation (of generation `generation`).
    pub text: &'a str,
    /// Its compilation: token roles and diagnostics.
    pub comp: &'a Compilation,
    /// Identifies `comp` (and so `text`).
    pub generation: u64,
    /// The find bar's query (its matches are marked; empty: none).
    pub find: &'a str,
    /// The theme.
    pub dark: bool,
    /// The editor's font.
    pub font: &'a FontId,
    /// The screen's scale.
    pub pixels_per_point: f32,
    /// The part of the galley in view (y, in the galley's coordinates).
    pub view: Rangef,
}

impl Highlighter {
    /// Drops every layout (another document is shown).
    pub fn forget(&mut self) {
        self.key = None;
        self.galley = None;
        self.starts.clear();
        self.lines.clear();
        self.window = 0..0;
    }

    /// The galley of `req.text`: real layouts for the lines within three
    /// screens of `req.view`, placeholders elsewhere (see the module's
    /// documentation).
    pub fn galley(&mut self, fonts: &mut FontsView<'_>, req: &Request<'_>) -> Arc<Galley> {
        self.check_atlas(fonts, req.font);
        let key = BuildKey {
            generation: req.generation,
            dark: req.dark,
            find: req.find.to_owned(),
            font_size: req.font.size.to_bits(),
            pixels_per_point: req.pixels_per_point.to_bits(),
        };
        if self.key.as_ref() != Some(&key) || self.galley.is_none() {
            if self.key.as_ref().is_none_or(|k| {
                (k.font_size, k.pixels_per_point) != (key.font_size, key.pixels_per_point)
            }) {
                // Another font: no kept line fits.
                self.lines.clear();
                self.template = None;
            }
            self.follow_text(fonts, req);
            self.key = Some(key);
            self.window = 0..0;
        }
        let seen = self.lines_in(req.view, 0.0);
        if let Some(g) = &self.galley
            && self.window.start <= seen.start
            && seen.end <= self.window.end
        {
            return g.clone();
        }
        // Three screens above and below too, so that scrolling, even a page
        // a frame, joins the galley again only every few frames.
        let margin = 3.0 * (req.view.max - req.view.min).max(0.0);
        self.window = self.lines_in(req.view, margin);
        self.lay_out_window(fonts, req);
        self.join(req)
    }

    /// The galley of `req.text` when `req.comp` does not describe it yet:
    /// the text field applied several edits in one frame and asks for a
    /// galley after each (compiling the script for each cost a 5000-bone
    /// script ~6 ms an edit: a 38-key burst, 220 ms). The lines the edits
    /// touched are laid out plainly, without highlighting; the next frame,
    /// with the compilation of the final text, highlights them (see
    /// `PLAIN`). Without a galley to follow, as [`Highlighter::galley`].
    pub fn follow(&mut self, fonts: &mut FontsView<'_>, req: &Request<'_>) -> Arc<Galley> {
        self.check_atlas(fonts, req.font);
        let Some(g) = self.galley.clone().filter(|_| self.key.is_some() && !self.lines.is_empty())
        else {
            return self.galley(fonts, req);
        };
        if g.text() == req.text {
            return g;
        }
        drop(g);
        self.follow_text(fonts, req);
        let plain = Palette::new(req.dark).plain;
        let window = self.window.start.min(self.lines.len())..self.window.end.min(self.lines.len());
        for i in window {
            if self.lines.laid_out[i].is_none() {
                let line = line_text(req.text, &self.starts, i);
                let mut job = plain_job(line, req.font);
                if let Some(s) = job.sections.first_mut() {
                    s.format.color = plain;
                }
                let galley = fonts.layout_job(job);
                self.lines.set(i, Line { galley, laid_out: Some(PLAIN) });
            }
        }
        self.join(req)
    }

    /// Joins the lines into the galley handed out (patching the last one
    /// where it can).
    fn join(&mut self, req: &Request<'_>) -> Arc<Galley> {
        self.builds += 1;
        let mut job = LayoutJob::single_section(
            req.text.to_owned(),
            TextFormat::simple(req.font.clone(), Palette::new(req.dark).plain),
        );
        job.wrap.max_width = f32::INFINITY;
        let job = Arc::new(job);
        if !self.patch(&job) {
            let galley = Galley::concat(job, &self.lines.galleys, req.pixels_per_point);
            self.galley = Some(Arc::new(galley));
        }
        self.lines.replaced = Some(Vec::new());
        self.galley.clone().unwrap_or_else(|| Arc::new(Galley::concat(Arc::default(), &[], 1.0)))
    }

    /// Puts the replaced lines' rows into the galley last joined, in place,
    /// when that gives what [`Galley::concat`] would: no line added or
    /// removed, every replaced line as high as before and neither before
    /// nor after the widest, and nobody else holding the galley (the
    /// editor lets go of last frame's before the text field asks). Joining
    /// 50,000 rows again costs milliseconds; this, a pass over the rows'
    /// bounds. Returns whether it did.
    fn patch(&mut self, job: &Arc<LayoutJob>) -> bool {
        let (Some(replaced), Some(arc)) = (&self.lines.replaced, &mut self.galley) else {
            return false;
        };
        let galleys = &self.lines.galleys;
        let Some(g) = Arc::get_mut(arc).filter(|g| g.rows.len() == galleys.len()) else {
            return false;
        };
        let (whole, width) = (g.intrinsic_size(), g.rect.width());
        let fits = |r: &Replaced| {
            let new = &galleys[r.line];
            let (Some(old_row), [placed]) = (g.rows.get(r.line), new.rows.as_slice()) else {
                return false;
            };
            let size = new.intrinsic_size();
            size.y == r.intrinsic.y
                && size.x.max(r.intrinsic.x) < whole.x
                && placed.size.y == old_row.size.y
                && placed.size.x.max(old_row.size.x) < width
                && placed.pos == Pos2::new(old_row.pos.x, 0.0)
                && !placed.ends_with_newline
        };
        if !replaced.iter().all(fits) {
            return false;
        }
        for r in replaced {
            let new = &galleys[r.line];
            let row = &mut g.rows[r.line];
            row.row = new.rows[0].row.clone();
            g.num_vertices = g.num_vertices + new.num_vertices - r.vertices;
            g.num_indices = g.num_indices + new.num_indices - r.indices;
        }
        g.mesh_bounds = g
            .rows
            .iter()
            .fold(Rect::NOTHING, |b, row| b | row.visuals.mesh_bounds.translate(row.pos.to_vec2()));
        g.job = job.clone();
        self.patches += 1;
        true
    }

    /// Whether line `i` of the galley last handed out was laid out for
    /// real (not a placeholder).
    pub fn is_laid_out(&self, line: usize) -> bool {
        self.lines.laid_out.get(line).is_some_and(Option::is_some)
    }

    /// Forgets every kept layout when egui rebuilt its fonts.
    fn check_atlas(&mut self, fonts: &mut FontsView<'_>, font: &FontId) {
        let sentinel = fonts.layout_job(LayoutJob::simple_singleline(
            "0".into(),
            font.clone(),
            Color32::WHITE,
        ));
        if !self.sentinel.as_ref().is_some_and(|s| Arc::ptr_eq(s, &sentinel)) {
            self.lines.clear();
            self.template = None;
            self.galley = None;
        }
        self.sentinel = Some(sentinel);
    }

    /// Brings the line list to `req.text`: only the lines an edit touched
    /// are replaced (by placeholders); all of them when there is no list.
    fn follow_text(&mut self, fonts: &mut FontsView<'_>, req: &Request<'_>) {
        let template = match self.template.take() {
            Some(t) => t,
            None => Template::new(fonts, req.font, req.pixels_per_point),
        };
        self.follow_text_with(fonts, req, &template);
        self.template = Some(template);
    }

    fn follow_text_with(
        &mut self,
        fonts: &mut FontsView<'_>,
        req: &Request<'_>,
        template: &Template,
    ) {
        let text = req.text;
        let old = self.galley.as_ref().map(|g| g.text()).filter(|_| !self.lines.is_empty());
        let new_starts = line_starts(text);
        let Some(old) = old else {
            // Lines of the same text share one placeholder (closing keys,
            // repeated channels: a third of a large script's lines).
            let mut seen: FxHashMap<&str, Arc<Galley>> = FxHashMap::default();
            self.lines = (0..new_starts.len())
                .map(|i| {
                    let line = line_text(text, &new_starts, i);
                    let galley = seen
                        .entry(line)
                        .or_insert_with(|| template.placeholder(fonts, line).galley)
                        .clone();
                    Line { galley, laid_out: None }
                })
                .collect();
            self.starts = new_starts;
            return;
        };
        if old == text {
            return;
        }
        let (a, old_end, new_end) = changed_range(old, text);
        let line_of = |starts: &[usize], b: usize| starts.partition_point(|&s| s <= b) - 1;
        let first = line_of(&self.starts, a);
        let (old_last, new_last) = (line_of(&self.starts, old_end), line_of(&new_starts, new_end));
        let fresh: Vec<Line> = (first..=new_last)
            .map(|i| template.placeholder(fonts, line_text(text, &new_starts, i)))
            .collect();
        self.lines.splice(first..=old_last.min(self.lines.len() - 1), fresh);
        self.starts = new_starts;
    }

    /// The lines whose rows meet the y range `view` widened by `margin`.
    fn lines_in(&self, view: Rangef, margin: f32) -> Range<usize> {
        let n = self.lines.len();
        let (top, bottom) = (view.min - margin, view.max + margin);
        match &self.galley {
            // The last galley's rows, one per line, when it has them all.
            Some(g) if g.rows.len() == n => {
                let first = g.rows.partition_point(|r| r.pos.y + r.size.y < top);
                let end = g.rows.partition_point(|r| r.pos.y <= bottom);
                first.min(n)..end.max(first).min(n)
            }
            _ => {
                let h = self.template.as_ref().map_or(16.0, |t| t.galley.size().y).max(1.0);
                let first = ((top / h).floor().max(0.0) as usize).min(n);
                let end = ((bottom / h).ceil().max(0.0) as usize + 1).clamp(first, n);
                first..end
            }
        }
    }

    /// Lays out for real the lines of the window whose text or looks
    /// changed (or that were placeholders).
    fn lay_out_window(&mut self, fonts: &mut FontsView<'_>, req: &Request<'_>) {
        let palette = Palette::new(req.dark);
        let text = req.text;
        let start = self.starts.get(self.window.start).copied().unwrap_or(0);
        let end = self.starts.get(self.window.end).map_or(text.len(), |&s| s);
        // The diagnostics that can touch the window (spans are sorted by
        // start; a long one may start far above).
        let diags: Vec<_> = req
            .comp
            .diagnostics
            .iter()
            .filter(|d| (d.span.start as usize) <= end && (d.span.end as usize) + 1 >= start)
            .cloned()
            .collect();
        for i in self.window.clone() {
            let base = self.starts[i];
            let line = line_text(text, &self.starts, i);
            let roles = roles_in(req.comp, base..base + line.len());
            looks_into(&mut self.looks, line, base, roles, &diags, req.find);
            let mut h = FxHasher::default();
            line.hash(&mut h);
            self.looks.hash(&mut h);
            let k = h.finish();
            if self.lines.laid_out[i] != Some(k) {
                self.lines_laid_out += 1;
                let galley = fonts.layout_job(job_of(line, &self.looks, &palette, req.font));
                self.lines.set(i, Line { galley, laid_out: Some(k) });
            }
        }
    }
}

/// The start of every line of `text` (a final newline starts an empty
/// last line, as egui lays it out).
fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0).chain(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1)).collect()
}

/// Line `i` of `text` without its newline.
fn line_text<'t>(text: &'t str, starts: &[usize], i: usize) -> &'t str {
    let end = starts.get(i + 1).map_or(text.len(), |&s| s - 1);
    &text[starts[i]..end]
}

/// Where `new` differs from `old`: the byte the change starts at, and where
/// it ends in `old` and in `new` (the common prefix and suffix kept).
fn changed_range(old: &str, new: &str) -> (usize, usize, usize) {
    let (o, n) = (old.as_bytes(), new.as_bytes());
    let prefix = common_prefix(o.iter(), n.iter(), o.chunks(CHUNK).zip(n.chunks(CHUNK)));
    let room = o.len().min(n.len()) - prefix;
    let (or, nr) = (&o[o.len() - room..], &n[n.len() - room..]);
    let suffix = common_prefix(or.iter().rev(), nr.iter().rev(), {
        or.rchunks(CHUNK).zip(nr.rchunks(CHUNK))
    });
    (prefix, o.len() - suffix, n.len() - suffix)
}

/// Bytes compared at once by [`common_prefix`] (slice equality is a
/// `memcmp`, many times faster than a byte loop over a megabyte).
const CHUNK: usize = 256;

/// How many bytes `a` and `b` have in common from their start: whole
/// equal chunks first, then byte by byte.
fn common_prefix<'a>(
    a: impl Iterator<Item = &'a u8>,
    b: impl Iterator<Item = &'a u8>,
    chunks: impl Iterator<Item = (&'a [u8], &'a [u8])>,
) -> usize {
    let mut skip = 0;
    for (x, y) in chunks {
        if x != y || x.len() != CHUNK {
            break;
        }
        skip += CHUNK;
    }
    skip + a.skip(skip).zip(b.skip(skip)).take_while(|(x, y)| x == y).count()
}

/// A job of `text` in `font`, one colour, not wrapped.
fn plain_job(text: &str, font: &FontId) -> LayoutJob {
    let mut job =
        LayoutJob::single_section(text.into(), TextFormat::simple(font.clone(), Color32::WHITE));
    job.wrap.max_width = f32::INFINITY;
    job
}

impl Template {
    fn new(fonts: &mut FontsView<'_>, font: &FontId, pixels_per_point: f32) -> Template {
        let galley = fonts.layout_job(plain_job("\tx", font));
        let empty = fonts.layout_job(plain_job("", font));
        // How far the pen really moves per character: the shaper's advance,
        // which differs slightly from a glyph's `advance_width`; measured
        // over long runs so the error stays below a pixel on any line.
        let pen = |fonts: &mut FontsView<'_>, text: String, n: usize| {
            let g = fonts.layout_job(plain_job(&text, font));
            g.rows.first().and_then(|r| r.glyphs.get(n)).map(|g| g.pos.x / n as f32)
        };
        let other = pen(fonts, "x".repeat(1025), 1024);
        let tab = pen(fonts, format!("{}x", "\t".repeat(64)), 64);
        let glyphs = match galley.rows.first().map(|r| r.glyphs.as_slice()) {
            Some([t, o, ..]) => {
                Some(((*t, tab.unwrap_or(t.advance_width)), (*o, other.unwrap_or(o.advance_width))))
            }
            _ => None,
        };
        let bare = galley.rows.first().map(|placed| {
            let mut row: Row = (*placed.row).clone();
            row.glyphs = Vec::new();
            row.visuals = RowVisuals::default();
            let mut g: Galley = (*galley).clone();
            g.rows = Vec::new();
            (g, row)
        });
        Template { galley, glyphs, empty, bare, font: font.clone(), pixels_per_point }
    }

    /// A line of `text` that takes its place without being drawn: one
    /// glyph per character at the font's advance, and no mesh.
    fn placeholder(&self, fonts: &mut FontsView<'_>, text: &str) -> Line {
        if text.is_empty() {
            return Line { galley: self.empty.clone(), laid_out: None };
        }
        let (Some(placed), Some((tab, other)), Some((bare_galley, bare_row))) =
            (self.galley.rows.first(), self.glyphs, &self.bare)
        else {
            // A font that gave no glyphs for "\tx" (never seen): the line
            // is laid out, plainly.
            return Line { galley: fonts.layout_job(plain_job(text, &self.font)), laid_out: None };
        };
        // As egui places glyphs: the pen moves by unrounded advances, each
        // glyph sits at the pen rounded to a physical pixel (`pen` in points).
        let ppp = self.pixels_per_point;
        let mut pen = 0.0f32;
        // Sized once: a line has no more characters than bytes.
        let mut glyphs = Vec::with_capacity(text.len());
        glyphs.extend(text.chars().map(|c| {
            let (mut g, advance) = if c == '\t' { tab } else { other };
            g.chr = c;
            g.pos.x = (pen * ppp).round() / ppp;
            pen += advance;
            g
        }));
        let x = pen;
        let mut row: Row = bare_row.clone();
        row.glyphs = glyphs;
        // Rounded as egui rounds a laid-out row (`Galley::concat` would
        // copy every row whose size is not).
        row.size = Vec2::new(x, placed.row.size.y).round_ui();
        let size = row.size;
        let mut galley: Galley = bare_galley.clone();
        galley.rows =
            vec![PlacedRow { pos: placed.pos, row: Arc::new(row), ends_with_newline: false }];
        galley.rect = Rect::from_min_size(placed.pos, size);
        galley.mesh_bounds = Rect::NOTHING;
        galley.num_vertices = 0;
        galley.num_indices = 0;
        Line { galley: Arc::new(galley), laid_out: None }
    }
}

#[cfg(test)]
mod tests;
