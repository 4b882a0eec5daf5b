//! Text → syntax trees and diagnostics. Parsing never fails: every input
//! yields a tree (possibly with nothing in it) and a list of diagnostics.

mod diag;
pub mod lines;
mod parse;
pub mod reference;
pub mod role;
pub mod suggest;
pub mod token;
pub mod tree;
pub mod vocab;

pub use diag::{
    Clip, Diagnostic, LIST_NAMES, LineCol, LineIndex, QUOTE_CHARS, Severity, Span, clip, quote_list,
};
pub use lines::{SectionSlice, split_sections, split_sections_at};
pub use parse::{
    AnimItems, SkeletonLines, bone_cut_at, comment_roles, join_skeleton, opens_rig_section,
    parse_anim_items, parse_section, parse_skeleton_from, skeleton_cut,
};
pub use role::{Role, TokenRole};

/// Parses a whole document: each section with its place in the text.
pub fn parse_document(text: &str) -> Vec<(SectionSlice, tree::Section)> {
    split_sections(text)
        .into_iter()
        .map(|s| {
            let tree = parse_section(&text[s.start as usize..s.end as usize]);
            (s, tree)
        })
        .collect()
}
