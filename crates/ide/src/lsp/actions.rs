//! Code actions: the animator's text edits of [`crate::edits`] offered
//! where the cursor is, each with the edits the editor would make.
//!
//! - On a key's value in a timeline: move it one frame earlier or later
//!   ("Move key to frame N", [`edits::move_key`]) and delete it
//!   ([`edits::delete_key`]).
//! - Between two keys of a timeline: "Insert key at frame N", N the whole
//!   frame halfway between them, with the value the animation has there
//!   ([`edits::insert_key_for`]).
//! - On an `anim` header line: duplicate, delete, move up, move down
//!   ([`edits::duplicate_animation`], …).
//!
//! An action the text cannot take exactly (a key made by a loop, a
//! neighbour in the way, an animation an `expect` section names) is left
//! out: the features' refusals say why where the editor asks for them.

use lsp_types::{CodeAction, CodeActionKind, CodeActionOrCommand, Uri, WorkspaceEdit};

use super::{Doc, text_edits};
use crate::edits::{self, Direction, format_number};
use crate::text_edit::TextEdit;
use skelpad_lang::compile::Compilation;
use skelpad_lang::syntax::Span;

/// The actions offered for `range` (its start is the cursor) in `doc`.
pub(super) fn code_actions(uri: &Uri, doc: &Doc, range: Span) -> Vec<CodeActionOrCommand> {
    let text = doc.text.text.as_str();
    let comp = doc.comp();
    let mut found: Vec<(String, Vec<TextEdit>)> = Vec::new();
    if let Some(anim) = edits::animation_header_at(text, comp, range.start) {
        animation_actions(text, comp, anim, &mut found);
    }
    key_actions(text, comp, range.start, &mut found);
    found
        .into_iter()
        .filter(|(_, e)| !e.is_empty())
        .map(|(title, e)| {
            CodeActionOrCommand::CodeAction(CodeAction {
                title,
                kind: Some(CodeActionKind::REFACTOR_REWRITE),
                edit: Some(WorkspaceEdit {
                    changes: Some([(uri.clone(), text_edits(&doc.text, e))].into_iter().collect()),
                    ..WorkspaceEdit::default()
                }),
                ..CodeAction::default()
            })
        })
        .collect()
}

/// Duplicate, delete, move up and down for the animation `anim`.
fn animation_actions(
    text: &str,
    comp: &Compilation,
    anim: skelpad_lang::model::AnimId,
    found: &mut Vec<(String, Vec<TextEdit>)>,
) {
    let name = &comp.armature.animations[anim.index()].name;
    let tries = [
        (
            format!("Duplicate animation \"{name}\""),
            edits::duplicate_animation(text, comp, anim, None),
        ),
        (format!("Delete animation \"{name}\""), edits::delete_animation(text, comp, anim)),
        (
            format!("Move animation \"{name}\" up"),
            edits::move_animation(text, comp, anim, Direction::Up),
        ),
        (
            format!("Move animation \"{name}\" down"),
            edits::move_animation(text, comp, anim, Direction::Down),
        ),
    ];
    found.extend(tries.into_iter().filter_map(|(t, r)| r.ok().map(|e| (t, e))));
}

/// Move and delete for the key under `at`, or insert between the two keys
/// around it.
fn key_actions(text: &str, comp: &Compilation, at: u32, found: &mut Vec<(String, Vec<TextEdit>)>) {
    let src = &comp.sources;
    for (i, tl) in src.timelines.iter().enumerate() {
        if !tl.effective || at < tl.line.start || at > tl.end {
            continue;
        }
        let keys = src.keys_of(tl);
        if let Some(k) = keys.iter().position(|k| k.span.start <= at && at <= k.span.end) {
            let f = keys[k].frame;
            for to in [f - 1.0, f + 1.0] {
                if let Ok(e) = edits::move_key(text, comp, tl.anim, i, k, to) {
                    found.push((format!("Move key to frame {}", format_number(to)), e));
                }
            }
            if let Ok(e) = edits::delete_key(text, comp, tl.anim, i, k) {
                found.push((format!("Delete key at frame {}", format_number(f)), e));
            }
            continue;
        }
        let Some(b) = keys.iter().position(|k| k.span.start > at).filter(|&b| b > 0) else {
            continue;
        };
        let (fa, fb) = (keys[b - 1].frame, keys[b].frame);
        let mid = ((fa + fb) / 2.0).floor();
        if let Some(target) = tl.target
            && mid > fa
            && mid < fb
            && let Ok(e) = edits::insert_key_for(text, comp, tl.anim, target, tl.prop, mid)
        {
            found.push((format!("Insert key at frame {}", format_number(mid)), e));
        }
    }
}
