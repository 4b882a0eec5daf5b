//! Text → syntax trees and diagnostics. Parsing never fails: every input
//! yields a tree (possibly with nothing in it) and a list of diagnostics.
//!
//! The parts, in the order the text meets them:
//!
//! - `lines`: physical lines → logical lines, tokens, and the split into
//!   top-level sections.
//! - `token`: nom parsers for the atoms (numbers, names, paths, colours,
//!   `F:S:E` options, points, loop ends, slot heads).
//! - `parse` (private): one section at a time into a `tree::Section`; only
//!   what is valid goes into the tree.
//! - `role`: what the parser read each token as (highlighting, semantic
//!   tokens).
//! - `vocab`: every fixed word of the language, one table.
//! - `diag` (private, re-exported): diagnostics and the one way a message
//!   quotes what the user wrote; `suggest`: "did you mean".
//! - `reference`: the quick reference the editor's Help window shows.
//!
//! Invariants:
//! - **Nothing is silent.** Every line or token the original tool ignores
//!   produces a diagnostic with a span, a message that says what was expected,
//!   and hints.
//! - **An invalid line is reported once**, with the number of nested lines
//!   ignored with it (see `parse`).
//! - Spans in a section tree, its roles and its diagnostics are relative to
//!   the section's first byte, so a cached tree stays valid when text before
//!   it moves; the compiler shifts them into document offsets.

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
