//! Syntax highlighting: a mapping from the parser's token roles
//! ([`crate::syntax::Role`], read from the compilation of the text) to
//! colours, with diagnostics underlined, indentation made visible and find
//! matches marked, for any run of whole lines (the editor lays out only
//! the lines in view: see [`super::lazy_layout`]).

use eframe::egui::text::LayoutJob;
use eframe::egui::{Color32, FontId, Stroke, TextFormat};

use crate::compile::Compilation;

pub use super::lazy_layout::Highlighter;
use crate::syntax::{Diagnostic, Role, Severity, TokenRole};

/// Colours for one theme.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Text no token covers, and invalid tokens (their underline marks them).
    pub plain: Color32,
    /// Section keywords, booleans and path commands.
    pub keyword: Color32,
    /// Bone paths, bone references and attachment references.
    pub name: Color32,
    /// Slot heads and slot references.
    pub slot: Color32,
    /// Attachment types (`:rect`, `:sprite`, …).
    pub kind: Color32,
    /// Bone and attachment properties, timeline property letters.
    pub property: Color32,
    /// Numbers.
    pub number: Color32,
    /// Colour literals (`#FC0`, `f#F00`).
    pub color: Color32,
    /// Quoted strings.
    pub string: Color32,
    /// Option tokens (`0:5:li`), loop ends and advances (`-->`).
    pub operator: Color32,
    /// Comments.
    pub comment: Color32,
    /// Background of indentation tabs, alternating by depth (even, odd).
    pub tab: [Color32; 2],
    /// Background of a space inside the indentation of a line with text
    /// (the parser reads it, and it is almost always a mistake).
    pub stray_space: Color32,
    /// Background of find matches.
    pub find: Color32,
    /// Underline of text an error points at.
    pub error: Color32,
    /// Underline of text a warning points at.
    pub warning: Color32,
}

impl Palette {
    /// The colours for a dark (`true`) or light editor theme.
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
                comment: Color32::from_rgb(0x6A, 0x99, 0x55),
                tab: [
                    Color32::from_rgba_unmultiplied(255, 255, 255, 10),
                    Color32::from_rgba_unmultiplied(255, 255, 255, 20),
                ],
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
                comment: Color32::from_rgb(0x00, 0x80, 0x00),
                tab: [
                    Color32::from_rgba_unmultiplied(0, 0, 0, 8),
                    Color32::from_rgba_unmultiplied(0, 0, 0, 18),
                ],
                stray_space: Color32::from_rgba_unmultiplied(255, 120, 0, 110),
                find: Color32::from_rgba_unmultiplied(255, 200, 0, 120),
                error: Color32::from_rgb(0xE0, 0x10, 0x10),
                warning: Color32::from_rgb(0xC0, 0x80, 0x00),
            }
        }
    }

    /// The colour of a token role (`None`: text no token covers).
    pub fn of(&self, role: Option<Role>) -> Color32 {
        let Some(role) = role else { return self.plain };
        match role {
            Role::SectionKeyword | Role::Boolean | Role::PathCommand => self.keyword,
            Role::BonePath | Role::BoneRef | Role::AttachmentRef => self.name,
            Role::SlotHead | Role::SlotRef | Role::Event => self.slot,
            Role::AttachmentType => self.kind,
            Role::BoneProperty | Role::Property => self.property,
            Role::Number => self.number,
            Role::Color => self.color,
            Role::String => self.string,
            Role::Option | Role::Loop | Role::Advance => self.operator,
            Role::Comment => self.comment,
            Role::Invalid => self.plain,
        }
    }
}

/// How one byte is drawn; adjacent bytes with the same look form one section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Look {
    role: Option<Role>,
    /// 0 none, 1/2 a tab of even/odd depth, 3 a space inside indentation.
    indent: u8,
    /// 0 none, 1 warning, 2 error.
    underline: u8,
    find: bool,
}

/// How every byte of `text` is drawn, `text` being whole lines of the
/// document from byte `base` on; `roles` and `diagnostics` are in document
/// offsets (those outside the lines are skipped). Written into `looks`.
pub(super) fn looks_into(
    looks: &mut Vec<Look>,
    text: &str,
    base: usize,
    roles: impl Iterator<Item = TokenRole>,
    diagnostics: &[Diagnostic],
    find: &str,
) {
    let plain = Look { role: None, indent: 0, underline: 0, find: false };
    looks.clear();
    looks.resize(text.len(), plain);
    let local = |b: u32| (b as usize).saturating_sub(base).min(text.len());
    for r in roles {
        let end = local(r.span.end);
        let start = local(r.span.start).min(end);
        for l in &mut looks[start..end] {
            l.role = Some(r.role);
        }
    }
    mark_indentation(looks, text);
    for d in diagnostics {
        let r = d.span.range();
        // Spans ending before these lines, or starting after them.
        if r.end < base || r.start > base + text.len() {
            continue;
        }
        let level = if d.severity == Severity::Error { 2 } else { 1 };
        let mut r = local(d.span.start)..local(d.span.end);
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
}

/// Indentation: tabs shaded by depth, spaces inside it flagged.
fn mark_indentation(looks: &mut [Look], text: &str) {
    let mut line_start = 0usize;
    for line in text.split('\n') {
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
}

/// The token roles of `comp` that overlap the document's bytes `range`, in
/// order: found by halving through the sections and their roles, so a
/// line costs what its own tokens cost, not the document's.
pub(super) fn roles_in(
    comp: &Compilation,
    range: std::ops::Range<usize>,
) -> impl Iterator<Item = TokenRole> + '_ {
    let (a, b) = (range.start as u32, range.end as u32);
    let leading =
        comp.leading_roles.iter().copied().filter(move |r| r.span.end > a && r.span.start < b);
    // The sections starting before `b`, from the last one starting at or
    // before `a` (a section runs to the next one's start).
    let first = comp.sections.partition_point(|(start, _)| *start <= a).saturating_sub(1);
    let last = comp.sections.partition_point(|(start, _)| *start < b);
    let sections = comp.sections[first.min(last)..last].iter().flat_map(move |(start, s)| {
        let from = s.roles.partition_point(|r| r.span.end + start <= a);
        s.roles[from..]
            .iter()
            .take_while(move |r| r.span.start + start < b)
            .map(move |r| TokenRole { span: r.span.shifted(*start), role: r.role })
    });
    leading.chain(sections)
}

pub(super) fn text_format(look: Look, palette: &Palette, font: &FontId) -> TextFormat {
    let mut f = TextFormat::simple(font.clone(), palette.of(look.role));
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
pub(super) fn job_of(text: &str, looks: &[Look], palette: &Palette, font: &FontId) -> LayoutJob {
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

/// Builds the layout job of the whole text, `comp` being its compilation.
pub fn layout_job(
    text: &str,
    comp: &Compilation,
    find: &str,
    dark: bool,
    font: FontId,
) -> LayoutJob {
    let mut looks = Vec::new();
    looks_into(&mut looks, text, 0, comp.roles(), &comp.diagnostics, find);
    job_of(text, &looks, &Palette::new(dark), &font)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The colour the job gives byte `b`.
    fn color_at(job: &LayoutJob, b: usize) -> Color32 {
        job.sections
            .iter()
            .find(|s| (s.byte_range.start.0..s.byte_range.end.0).contains(&b))
            .map(|s| s.format.color)
            .unwrap()
    }

    #[test]
    fn tokens_are_coloured_by_their_parser_role() {
        let text = "skeleton #FC0\n\tarm l40 r10 flip-x # note\n\t\t@ :rect w10 f#F00\nanim \"a\" 24fps 0:5:li\n\tarm\n\t\tr 0 --> 90 {\n";
        let comp = crate::compile::compile(text);
        let job = layout_job(text, &comp, "", true, FontId::monospace(12.0));
        let p = Palette::new(true);
        let expect = [
            ("skeleton", p.keyword),
            ("#FC0", p.color),
            ("arm", p.name),
            ("l40", p.property),
            ("flip-x", p.property),
            ("# note", p.comment),
            ("@", p.slot),
            (":rect", p.kind),
            ("f#F00", p.color),
            ("\"a\"", p.string),
            ("24fps", p.number),
            ("0:5:li", p.operator),
            ("-->", p.operator),
            ("90", p.number),
            ("{", p.operator),
        ];
        for (tok, color) in expect {
            let at = text.find(tok).unwrap();
            for b in at..at + tok.len() {
                assert_eq!(color_at(&job, b), color, "{tok}");
            }
        }
        // The timeline's property letter.
        assert_eq!(color_at(&job, text.find("r 0").unwrap()), p.property);
    }

    #[test]
    fn a_continued_line_highlights_as_the_parser_reads_it() {
        let text = "skeleton\n\tarm l40 \\\nr10\n\tleg l20\n";
        let comp = crate::compile::compile(text);
        assert_eq!(comp.armature.skeleton.bones.len(), 2);
        let job = layout_job(text, &comp, "", true, FontId::monospace(12.0));
        let p = Palette::new(true);
        assert_eq!(color_at(&job, text.find("r10").unwrap()), p.property);
        assert_eq!(color_at(&job, text.find("leg").unwrap()), p.name);
        assert_eq!(color_at(&job, text.find("l20").unwrap()), p.property);
    }

    #[test]
    fn job_covers_the_text_and_marks_errors_and_stray_spaces() {
        let text = "skeleton\n\t arm lx\n\tleg é\n";
        let comp = crate::compile::compile(text);
        assert!(comp.has_errors());
        let job = layout_job(text, &comp, "leg", true, FontId::monospace(12.0));
        assert_eq!(job.sections.first().map(|s| s.byte_range.start.0), Some(0));
        assert_eq!(job.sections.last().map(|s| s.byte_range.end.0), Some(text.len()));
        assert!(job.sections.windows(2).all(|w| w[0].byte_range.end == w[1].byte_range.start));
        let at = |b: usize| {
            job.sections
                .iter()
                .find(|s| (s.byte_range.start.0..s.byte_range.end.0).contains(&b))
                .map(|s| s.format.clone())
                .unwrap()
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
}
