//! Syntax highlighting from the parser's own tokenizer and token
//! recognizers, with diagnostics underlined, indentation made visible and
//! find matches marked. The layout job is memoized: it is rebuilt only when
//! the text, the diagnostics, the theme or the find query change.

#![allow(missing_docs, reason = "issue 9: public items here still need doc comments")]

use std::ops::Range;

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use eframe::egui::epaint::text::FontsView;
use eframe::egui::text::LayoutJob;
use eframe::egui::{Color32, FontId, Galley, Stroke, TextFormat};
use rustc_hash::{FxHashMap, FxHasher};

use crate::syntax::lines::{is_js_space, tokenize};
use crate::syntax::{Diagnostic, Severity, token};

/// What a piece of text is, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Plain,
    /// `skeleton`, `skin`, `order`, `anim`, path commands, `true`/`false`.
    Keyword,
    /// Bone paths and references.
    Name,
    /// `@slot` heads and references.
    Slot,
    /// `:rect`, `:path`, …
    Type,
    /// Letter + number properties (`l40`, `w10`) and timeline properties.
    Property,
    Number,
    Color,
    String,
    /// Arrows, options, loops.
    Operator,
    /// Flags and styles (`flip-x`, `round-join`).
    Flag,
    Comment,
}

/// The kind of section a line belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Section {
    None,
    Skeleton,
    Skin,
    Order,
    Anim,
}

const FLAGS: [&str; 10] =
    ["flip-x", "flip-y", "no-rot", "no-scale", "miter-join", "bevel-join", "round-join", "butt-cap", "square-cap", "round-cap"];

fn is_string(tok: &str) -> bool {
    tok.len() >= 2 && tok.starts_with('"') && tok.ends_with('"')
}

fn is_color_token(tok: &str) -> bool {
    token::color(tok).is_some() || ((tok.starts_with('f') || tok.starts_with('s')) && token::color(&tok[1..]).is_some())
}

fn is_numeric(tok: &str) -> bool {
    let body = tok.strip_prefix(['+', '*']).unwrap_or(tok);
    token::number(body).is_some()
}

fn is_operator(tok: &str) -> bool {
    tok == "{"
        || token::end_loop(tok).is_some()
        || token::advance(tok).is_some()
        || token::options(tok, true).is_some()
        || token::options(tok, false).is_some()
}

/// Classifies one physical line (without its line break). Returns the
/// coloured ranges and, if the line has a comment, where it starts.
pub fn classify_line(line: &str, section: &mut SectionState) -> (Vec<(Range<usize>, TokenKind)>, Option<usize>) {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let depth = line.bytes().take_while(|&b| b == b'\t').count();
    let tokens = tokenize(line);
    let rest = tokens.last().map_or(0, |t| t.end());
    // `tokenize` stops at a token that is exactly `#`: what follows the last
    // token, if anything, is the comment.
    let comment = line[rest..].find(|c: char| !is_js_space(c)).map(|i| rest + i).filter(|&i| line[i..].starts_with('#'));
    let mut out = Vec::with_capacity(tokens.len());
    let Some(first) = tokens.first() else { return (out, comment) };
    if first.pos == 0 {
        section.0 = match first.text {
            "skeleton" => Section::Skeleton,
            "skin" => Section::Skin,
            "order" => Section::Order,
            "anim" => Section::Anim,
            _ => Section::None,
        };
    } else if !line.starts_with('\t') {
        // A line starting with a space ends the section (LANGUAGE.md §1.6).
        section.0 = Section::None;
    }
    for (i, tok) in tokens.iter().enumerate() {
        let t = tok.text;
        let kind = match (depth, section.0) {
            (0, _) if i == 0 => {
                if section.0 == Section::None {
                    TokenKind::Plain
                } else {
                    TokenKind::Keyword
                }
            }
            (0, _) => {
                if is_string(t) {
                    TokenKind::String
                } else if is_color_token(t) {
                    TokenKind::Color
                } else if token::fps(t).is_some() {
                    TokenKind::Number
                } else if is_operator(t) {
                    TokenKind::Operator
                } else {
                    TokenKind::Plain
                }
            }
            (_, Section::None) => TokenKind::Plain,
            (1, Section::Skeleton) if i == 0 => TokenKind::Name,
            (2, Section::Skeleton) | (1, Section::Skin) | (1, Section::Order) if i == 0 && t.starts_with('@') => TokenKind::Slot,
            (1, Section::Anim) if i == 0 => {
                if t.starts_with('@') {
                    TokenKind::Slot
                } else {
                    TokenKind::Name
                }
            }
            (2, Section::Anim) if i == 0 => TokenKind::Property,
            (2, Section::Anim) | (1, Section::Anim) => {
                if is_numeric(t) {
                    TokenKind::Number
                } else if is_color_token(t) {
                    TokenKind::Color
                } else if is_operator(t) {
                    TokenKind::Operator
                } else if token::boolean(t).is_some() {
                    TokenKind::Keyword
                } else {
                    TokenKind::Plain
                }
            }
            // Path commands under a path attachment.
            (3, Section::Skeleton) | (2, Section::Skin) => {
                if matches!(t, "M" | "L" | "Q" | "B" | "C") {
                    TokenKind::Keyword
                } else if t == ":" {
                    TokenKind::Operator
                } else if token::point(t).is_some() {
                    TokenKind::Number
                } else {
                    TokenKind::Name
                }
            }
            _ => {
                if t.starts_with(':') && t.len() > 1 {
                    TokenKind::Type
                } else if is_string(t) {
                    TokenKind::String
                } else if is_color_token(t) {
                    TokenKind::Color
                } else if FLAGS.contains(&t) {
                    TokenKind::Flag
                } else if t.len() > 1 && t.as_bytes()[0].is_ascii_alphabetic() && token::number(&t[1..]).is_some() {
                    TokenKind::Property
                } else {
                    TokenKind::Plain
                }
            }
        };
        out.push((tok.pos..tok.end(), kind));
    }
    (out, comment)
}

/// The section the highlighter is in while it walks down the lines.
#[derive(Clone, Copy, Debug)]
pub struct SectionState(Section);

impl Default for SectionState {
    fn default() -> Self {
        SectionState(Section::None)
    }
}

/// Colours for one theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    pub plain: Color32,
    pub keyword: Color32,
    pub name: Color32,
    pub slot: Color32,
    pub kind: Color32,
    pub property: Color32,
    pub number: Color32,
    pub color: Color32,
    pub string: Color32,
    pub operator: Color32,
    pub flag: Color32,
    pub comment: Color32,
    pub tab: [Color32; 2],
    pub stray_space: Color32,
    pub find: Color32,
    pub error: Color32,
    pub warning: Color32,
}

impl Palette {
    pub fn new(dark: bool) -> Palette {
        if dark {
            Palette {
                plain: Color32::from_rgb(0xD4, 0xD4, 0xD4),
                keyword: Color32::from_rgb(0xC5, 0x86, 0xC0),
                name: Color32::from_rgb(0x9C, 0xDC, 0xFE),
                slot: Color32::from_rgb(0x4E, 0xC9, 0xB0),
                kind: Color32::from_rgb(0x56, 0x9C, 0xD6),
                property: Color32::from_rgb(0xDC, 0xDC, 0xAA),
                number: Color32::from_rgb(0xB5, 0xCE, 0xA8),
                color: Color32::from_rgb(0xF4, 0x8F, 0xB1),
                string: Color32::from_rgb(0xCE, 0x91, 0x78),
                operator: Color32::from_rgb(0xD7, 0xBA, 0x7D),
                flag: Color32::from_rgb(0x56, 0x9C, 0xD6),
                comment: Color32::from_rgb(0x6A, 0x99, 0x55),
                tab: [Color32::from_rgba_unmultiplied(255, 255, 255, 10), Color32::from_rgba_unmultiplied(255, 255, 255, 20)],
                stray_space: Color32::from_rgba_unmultiplied(255, 120, 0, 90),
                find: Color32::from_rgba_unmultiplied(255, 210, 0, 80),
                error: Color32::from_rgb(0xF4, 0x47, 0x47),
                warning: Color32::from_rgb(0xE0, 0xB0, 0x30),
            }
        } else {
            Palette {
                plain: Color32::from_rgb(0x20, 0x20, 0x20),
                keyword: Color32::from_rgb(0xAF, 0x00, 0xDB),
                name: Color32::from_rgb(0x00, 0x10, 0x80),
                slot: Color32::from_rgb(0x26, 0x7F, 0x99),
                kind: Color32::from_rgb(0x00, 0x00, 0xFF),
                property: Color32::from_rgb(0x79, 0x5E, 0x26),
                number: Color32::from_rgb(0x09, 0x86, 0x58),
                color: Color32::from_rgb(0xC0, 0x20, 0x70),
                string: Color32::from_rgb(0xA3, 0x15, 0x15),
                operator: Color32::from_rgb(0x80, 0x50, 0x00),
                flag: Color32::from_rgb(0x00, 0x00, 0xFF),
                comment: Color32::from_rgb(0x00, 0x80, 0x00),
                tab: [Color32::from_rgba_unmultiplied(0, 0, 0, 8), Color32::from_rgba_unmultiplied(0, 0, 0, 18)],
                stray_space: Color32::from_rgba_unmultiplied(255, 120, 0, 110),
                find: Color32::from_rgba_unmultiplied(255, 200, 0, 120),
                error: Color32::from_rgb(0xE0, 0x10, 0x10),
                warning: Color32::from_rgb(0xC0, 0x80, 0x00),
            }
        }
    }

    fn of(&self, kind: TokenKind) -> Color32 {
        match kind {
            TokenKind::Plain => self.plain,
            TokenKind::Keyword => self.keyword,
            TokenKind::Name => self.name,
            TokenKind::Slot => self.slot,
            TokenKind::Type => self.kind,
            TokenKind::Property => self.property,
            TokenKind::Number => self.number,
            TokenKind::Color => self.color,
            TokenKind::String => self.string,
            TokenKind::Operator => self.operator,
            TokenKind::Flag => self.flag,
            TokenKind::Comment => self.comment,
        }
    }
}

/// How one byte is drawn; adjacent bytes with the same look form one section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Look {
    kind: TokenKind,
    /// 0 none, 1/2 a tab of even/odd depth, 3 a space inside indentation.
    indent: u8,
    /// 0 none, 1 warning, 2 error.
    underline: u8,
    find: bool,
}

/// How every byte of `text` is drawn.
fn looks(text: &str, diagnostics: &[Diagnostic], find: &str) -> Vec<Look> {
    let plain = Look { kind: TokenKind::Plain, indent: 0, underline: 0, find: false };
    let mut looks = vec![plain; text.len()];
    let mut section = SectionState::default();
    let mut line_start = 0usize;
    for line in text.split('\n') {
        let (ranges, comment) = classify_line(line, &mut section);
        for (r, kind) in ranges {
            for l in &mut looks[line_start + r.start..line_start + r.end] {
                l.kind = kind;
            }
        }
        if let Some(c) = comment {
            let end = line.strip_suffix('\r').map_or(line.len(), str::len);
            for l in &mut looks[line_start + c..line_start + end] {
                l.kind = TokenKind::Comment;
            }
        }
        // Indentation: tabs shaded by depth, spaces inside it flagged.
        let indent_len = line.bytes().take_while(|b| *b == b'\t' || *b == b' ').count();
        let has_text = line.len() > indent_len;
        for (i, b) in line.bytes().take(indent_len).enumerate() {
            looks[line_start + i].indent = match b {
                b'\t' => 1 + (i % 2) as u8,
                // Spaces in the indentation of a line with content are
                // meaningful to the parser (and almost always a mistake).
                _ if has_text => 3,
                _ => 0,
            };
        }
        line_start += line.len() + 1;
    }
    for d in diagnostics {
        let level = if d.severity == Severity::Error { 2 } else { 1 };
        let mut r = d.span.range();
        r.end = r.end.min(text.len());
        r.start = r.start.min(r.end);
        if r.is_empty() {
            // An empty span marks a place: underline the character there,
            // or the one before it at the end of a line.
            if r.start < text.len() && text.as_bytes()[r.start] != b'\n' {
                r.end = r.start + 1;
            } else if r.start > 0 {
                r.start -= 1;
            }
        }
        for l in &mut looks[r] {
            l.underline = l.underline.max(level);
        }
    }
    if !find.is_empty() {
        for (i, m) in text.match_indices(find) {
            for l in &mut looks[i..i + m.len()] {
                l.find = true;
            }
        }
    }
    looks
}

fn text_format(look: Look, palette: &Palette, font: &FontId) -> TextFormat {
    let mut f = TextFormat::simple(font.clone(), palette.of(look.kind));
    f.background = match (look.find, look.indent) {
        (true, _) => palette.find,
        (false, 1) => palette.tab[0],
        (false, 2) => palette.tab[1],
        (false, 3) => palette.stray_space,
        _ => Color32::TRANSPARENT,
    };
    f.underline = match look.underline {
        2 => Stroke::new(1.5, palette.error),
        1 => Stroke::new(1.5, palette.warning),
        _ => Stroke::NONE,
    };
    f
}

/// The job of `text` whose bytes look like `looks` (same length).
fn job_of(text: &str, looks: &[Look], palette: &Palette, font: &FontId) -> LayoutJob {
    let mut job = LayoutJob { text: text.to_owned(), ..Default::default() };
    job.wrap.max_width = f32::INFINITY;
    let mut start = 0usize;
    for i in 1..=text.len() {
        // Sections may only split at character boundaries.
        if i == text.len() || (looks[i] != looks[start] && text.is_char_boundary(i)) {
            job.sections.push(eframe::egui::text::LayoutSection {
                leading_space: 0.0,
                byte_range: eframe::egui::text::ByteIndex(start)..eframe::egui::text::ByteIndex(i),
                format: text_format(looks[start], palette, font),
            });
            start = i;
        }
    }
    if text.is_empty() {
        job.sections.push(eframe::egui::text::LayoutSection {
            leading_space: 0.0,
            byte_range: eframe::egui::text::ByteIndex(0)..eframe::egui::text::ByteIndex(0),
            format: TextFormat::simple(font.clone(), palette.plain),
        });
    }
    job
}

/// Builds the layout job of the whole text.
pub fn layout_job(text: &str, diagnostics: &[Diagnostic], find: &str, dark: bool, font: FontId) -> LayoutJob {
    job_of(text, &looks(text, diagnostics, find), &Palette::new(dark), &font)
}

/// Lays out the highlighted text, memoized twice over: a frame without an
/// edit returns the last galley as it is, and an edit lays out only the
/// lines whose text or look changed and joins the rest from a per-line
/// cache. (Handing egui the whole job each frame would cost milliseconds on
/// a large script just to hash it.)
#[derive(Default)]
pub struct Highlighter {
    key: Option<(u64, bool, String, u32, u32)>,
    galley: Option<Arc<Galley>>,
    /// Galleys of single lines, keyed on their text and looks.
    lines: FxHashMap<u64, Arc<Galley>>,
    /// A tiny galley egui lays out each frame: when egui hands back a
    /// different one, its fonts were rebuilt and every cached galley points
    /// into an old glyph atlas.
    sentinel: Option<Arc<Galley>>,
    /// How many times the text was highlighted again (edits, theme, find).
    pub builds: u64,
    /// How many single lines were laid out (cache misses).
    pub lines_laid_out: u64,
}

impl Highlighter {
    /// The galley of `text`, compiled as generation `generation` with
    /// these diagnostics.
    #[allow(clippy::too_many_arguments)]
    pub fn galley(
        &mut self,
        fonts: &mut FontsView<'_>,
        pixels_per_point: f32,
        generation: u64,
        text: &str,
        diagnostics: &[Diagnostic],
        find: &str,
        dark: bool,
        font: &FontId,
    ) -> Arc<Galley> {
        let sentinel = fonts.layout_job(LayoutJob::simple_singleline("0".into(), font.clone(), Color32::WHITE));
        if !self.sentinel.as_ref().is_some_and(|s| Arc::ptr_eq(s, &sentinel)) {
            self.lines.clear();
            self.galley = None;
        }
        self.sentinel = Some(sentinel);
        let key = (generation, dark, find.to_owned(), font.size.to_bits(), pixels_per_point.to_bits());
        if let (Some(g), true) = (&self.galley, self.key.as_ref() == Some(&key)) {
            return g.clone();
        }
        self.builds += 1;
        let palette = Palette::new(dark);
        let looks = looks(text, diagnostics, find);
        let galley = if text.is_empty() {
            fonts.layout_job(job_of(text, &looks, &palette, font))
        } else {
            let mut lines = FxHashMap::default();
            let mut parts = Vec::new();
            let mut start = 0;
            // Split exactly as egui splits paragraphs: a final newline stays
            // with the last line (and gives it an empty row below).
            while start < text.len() {
                let mut end = text[start..].find('\n').map_or(text.len(), |i| start + i);
                if end + 1 == text.len() && text.ends_with('\n') {
                    end += 1;
                }
                let (line, line_looks) = (&text[start..end], &looks[start..end]);
                let mut h = FxHasher::default();
                line.hash(&mut h);
                line_looks.hash(&mut h);
                let k = h.finish();
                let g = match self.lines.get(&k).or_else(|| lines.get(&k)) {
                    Some(g) => g.clone(),
                    None => {
                        self.lines_laid_out += 1;
                        fonts.layout_job(job_of(line, line_looks, &palette, font))
                    }
                };
                lines.insert(k, g.clone());
                parts.push(g);
                start = end + 1;
            }
            self.lines = lines;
            // The joined galley keeps the whole text; one section suffices
            // since the rows are already laid out.
            let mut job = LayoutJob::single_section(text.to_owned(), TextFormat::simple(font.clone(), palette.plain));
            job.wrap.max_width = f32::INFINITY;
            Arc::new(Galley::concat(Arc::new(job), &parts, pixels_per_point))
        };
        self.key = Some(key);
        self.galley = Some(galley.clone());
        galley
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(String, TokenKind)> {
        let mut state = SectionState::default();
        let mut out = Vec::new();
        for line in text.lines() {
            let (ranges, comment) = classify_line(line, &mut state);
            out.extend(ranges.into_iter().map(|(r, k)| (line[r].to_owned(), k)));
            if let Some(c) = comment {
                out.push((line[c..].to_owned(), TokenKind::Comment));
            }
        }
        out
    }

    #[test]
    fn tokens_are_classified_by_section_and_depth() {
        let k =
            kinds("skeleton #FC0\n\tarm l40 r10 flip-x # note\n\t\t@ :rect w10 f#F00\nanim \"a\" 24fps 0:5:li\n\tarm\n\t\tr 0 --> 90 {\n");
        let find = |t: &str| k.iter().find(|(s, _)| s == t).map(|(_, k)| *k);
        assert_eq!(find("skeleton"), Some(TokenKind::Keyword));
        assert_eq!(find("#FC0"), Some(TokenKind::Color));
        assert_eq!(find("l40"), Some(TokenKind::Property));
        assert_eq!(find("flip-x"), Some(TokenKind::Flag));
        assert_eq!(find("# note"), Some(TokenKind::Comment));
        assert_eq!(find("@"), Some(TokenKind::Slot));
        assert_eq!(find(":rect"), Some(TokenKind::Type));
        assert_eq!(find("f#F00"), Some(TokenKind::Color));
        assert_eq!(find("\"a\""), Some(TokenKind::String));
        assert_eq!(find("24fps"), Some(TokenKind::Number));
        assert_eq!(find("0:5:li"), Some(TokenKind::Operator));
        assert_eq!(find("-->"), Some(TokenKind::Operator));
        assert_eq!(find("90"), Some(TokenKind::Number));
        assert_eq!(find("r"), Some(TokenKind::Property));
        assert_eq!(find("{"), Some(TokenKind::Operator));
    }

    #[test]
    fn job_covers_the_text_and_marks_errors_and_stray_spaces() {
        let text = "skeleton\n\t arm lx\n\tleg é\n";
        let comp = crate::compile::compile(text);
        assert!(comp.has_errors());
        let job = layout_job(text, &comp.diagnostics, "leg", true, FontId::monospace(12.0));
        assert_eq!(job.sections.first().map(|s| s.byte_range.start.0), Some(0));
        assert_eq!(job.sections.last().map(|s| s.byte_range.end.0), Some(text.len()));
        assert!(job.sections.windows(2).all(|w| w[0].byte_range.end == w[1].byte_range.start));
        let at = |b: usize| {
            job.sections.iter().find(|s| (s.byte_range.start.0..s.byte_range.end.0).contains(&b)).map(|s| s.format.clone()).unwrap()
        };
        let palette = Palette::new(true);
        // The space after the tab is flagged.
        assert_eq!(at(10).background, palette.stray_space);
        // The diagnostic of the bad line is underlined.
        let first = &comp.diagnostics[0];
        assert_ne!(at(first.span.start as usize).underline, Stroke::NONE);
        // Find matches are marked.
        assert_eq!(at(text.find("leg").unwrap()).background, palette.find);
    }

    #[test]
    fn galleys_are_reused_and_edits_lay_out_only_the_changed_line() {
        let ctx = eframe::egui::Context::default();
        let font = FontId::monospace(12.0);
        let mut h = Highlighter::default();
        let text = "skeleton\n\tarm l10\n\tleg l20\n";
        let edited = "skeleton\n\tarm l10\n\tleg l25\n";
        let mut galleys = Vec::new();
        for (generation, t) in [(1, text), (1, text), (2, edited)] {
            let mut out = ctx.run_ui(Default::default(), |ui| {
                galleys.push(ui.fonts_mut(|f| h.galley(f, 1.0, generation, t, &[], "", true, &font)));
            });
            out.textures_delta.clear();
        }
        assert!(Arc::ptr_eq(&galleys[0], &galleys[1]));
        assert_eq!(h.builds, 2);
        // Three lines (the last with its newline), then only the edited one.
        assert_eq!(h.lines_laid_out, 4);
        assert_eq!(galleys[2].text(), edited);
        assert_eq!(galleys[2].rows.len(), 4);
        // Same rows as egui's own layout of the whole job.
        let whole = ctx.fonts_mut(|f| f.layout_job(layout_job(edited, &[], "", true, font.clone())));
        assert_eq!(whole.rows.len(), galleys[2].rows.len());
        assert!((whole.size().y - galleys[2].size().y).abs() < 0.5);
    }
}
