//! The document outline: sections, bone lines and animation items.

use super::{bone_name, num, section_extents, target_label};
use skelpad_lang::compile::Compilation;
use skelpad_lang::syntax::Span;
use skelpad_lang::syntax::tree::SectionKind;

/// What a symbol is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A `skeleton`, `order` or `ik` section.
    Section,
    /// A `skin` section.
    Skin,
    /// An `anim` section.
    Animation,
    /// An `expect` section.
    Expect,
    /// A bone line of a skeleton section.
    Bone,
    /// An item (bone, slot or event) of an animation.
    Item,
}

/// One symbol of the document outline.
pub struct Symbol {
    /// What the outline shows.
    pub name: String,
    /// A second line (what the item is).
    pub detail: Option<String>,
    /// What kind of thing it is.
    pub kind: SymbolKind,
    /// Everything it covers.
    pub range: Span,
    /// Its name (where a click goes).
    pub selection: Span,
    /// Nested symbols.
    pub children: Vec<Symbol>,
}

/// Sections, with the bone lines of skeleton sections and the items of
/// animations under them.
pub fn symbols(text: &str, comp: &Compilation) -> Vec<Symbol> {
    let extents = section_extents(comp, text.len());
    let mut out = Vec::new();
    for ((start, sec), ext) in comp.sections.iter().zip(&extents) {
        let header = sec.header.shifted(*start);
        let (name, kind) = match &sec.kind {
            SectionKind::Skeleton(_) => ("skeleton".to_string(), SymbolKind::Section),
            SectionKind::Skin(s) => (format!("skin \"{}\"", s.name.node), SymbolKind::Skin),
            SectionKind::Order(_) => ("order".to_string(), SymbolKind::Section),
            SectionKind::Anim(a) => (format!("anim \"{}\"", a.name.node), SymbolKind::Animation),
            SectionKind::Expect(e) => match &e.anim {
                Some(a) => (format!("expect \"{}\" {}", a.node, num(e.frame)), SymbolKind::Expect),
                None => ("expect (setup pose)".to_string(), SymbolKind::Expect),
            },
            SectionKind::Ik(_) => ("ik".to_string(), SymbolKind::Section),
            SectionKind::Mix(_) => ("mix".to_string(), SymbolKind::Section),
            SectionKind::Ignored => continue,
        };
        let trimmed_end =
            ext.start + text.get(ext.range()).map_or(0, |s| s.trim_end().len() as u32);
        let range = Span::new(ext.start, trimmed_end.max(header.end));
        let mut children = Vec::new();
        match &sec.kind {
            SectionKind::Skeleton(_) => {
                for d in comp.sources.bone_defs.iter().filter(|d| ext.contains(d.line.start)) {
                    children.push(Symbol {
                        name: bone_name(comp, d.bone).to_string(),
                        detail: Some("bone".into()),
                        kind: SymbolKind::Bone,
                        range: d.line,
                        selection: d.path,
                        children: Vec::new(),
                    });
                }
            }
            SectionKind::Anim(_) => {
                for i in comp.sources.items.iter().filter(|i| ext.contains(i.region.start)) {
                    let line_end = text
                        .get(i.region.range())
                        .and_then(|s| s.find('\n'))
                        .map_or(i.region.end, |n| i.region.start + n as u32);
                    children.push(Symbol {
                        name: text
                            .get(i.region.start as usize..line_end as usize)
                            .unwrap_or("")
                            .trim()
                            .to_string(),
                        detail: Some(target_label(comp, i.target)),
                        kind: SymbolKind::Item,
                        range: i.region,
                        selection: Span::new(i.region.start, line_end),
                        children: Vec::new(),
                    });
                }
            }
            _ => {}
        }
        out.push(Symbol { name, detail: None, kind, range, selection: header, children });
    }
    out
}
