//! Animation sections → [`Animation`] (LANGUAGE.md §5).
//!
//! [`compile_anim`] reads an animation's items (`tracks`: each target
//! resolved, each timeline run by `run` into keys kept as `keys` says),
//! or takes them over from an earlier output (`reuse`), then builds the
//! model's channels and events from the keys (`build`).

mod build;
mod keys;
mod reuse;
mod run;
mod tracks;

pub use keys::KeyList;
pub(in crate::compile) use keys::RawKey;
pub(in crate::compile) use reuse::{IdMap, lookup_map};

use super::rig::RigNames;
use super::source::Shift;
use super::source::{ItemSource, Reference, Target as SrcTarget, TimelineSource};
use super::{LocalDiag, Ordinal};
use crate::model::*;
use crate::syntax::tree::*;
use crate::syntax::{Diagnostic, clip, quote_list};
use build::{build_animation, compile_events};
use tracks::Tracks;

/// One animation compiled, with its part of the source map.
#[derive(Debug)]
pub struct AnimOutput {
    pub animation: std::sync::Arc<Animation>,
    pub diagnostics: Vec<LocalDiag>,
    /// The source map's part for this animation, in section-relative spans;
    /// its `AnimId`s are 0 until the compiler numbers the animation.
    pub sources: AnimSources,
    /// What each item produced, so a later compile can take it over for
    /// the items an edit did not touch ([`compile_anim`]).
    memo: Memo,
}

/// Per item of every section (in order), the part of an [`AnimOutput`] it
/// produced (its keys are those of `sources.keys`).
#[derive(Debug, Default)]
struct Memo {
    items: Vec<ItemMemo>,
    /// Per item, what checking its attachment names added: a range of
    /// `attachment_refs` and one of the diagnostics.
    checks: Vec<ItemCheck>,
    attachment_refs: Vec<Reference>,
}

/// What checking one item's attachment names added: a range of
/// [`Memo::attachment_refs`] and one of the output's diagnostics.
#[derive(Clone, Copy, Debug)]
struct ItemCheck {
    refs: (u32, u32),
    diags: (u32, u32),
}

/// The timelines (a range of `sources.timelines`) and the diagnostics (a
/// range of `diagnostics`) one item produced.
#[derive(Clone, Copy, Debug)]
struct ItemMemo {
    timelines: (u32, u32),
    diags: (u32, u32),
}

/// An earlier output of the same animation, and how one of its sections
/// changed since: the items that did not change are taken from it.
pub(super) struct Previous<'a> {
    pub output: &'a AnimOutput,
    /// The changed section's ordinal among the animation's sections.
    pub ord: Ordinal,
    pub edit: super::splice::ItemEdit,
}

/// An animation's part of the source map; each entry with the ordinal of
/// its section among the animation's sections.
#[derive(Debug, Default)]
pub struct AnimSources {
    pub items: Vec<(Ordinal, ItemSource)>,
    pub timelines: Vec<(Ordinal, TimelineSource)>,
    /// Keys, relative to the section of their timeline (which says which).
    pub keys: std::sync::Arc<KeyList>,
    pub references: Vec<(Ordinal, Reference)>,
}

/// Compiles every section of one animation name, in document order.
///
/// With `prev` (an output compiled from the same sections but one, with the
/// same rig names), what the items an edit did not touch produced is taken
/// from it, moved where the edit moved them: only the edited items' names
/// are resolved and their timelines run.
///
/// The keys are written into `spare` (emptied first), a buffer of an
/// output no longer used: a list this long would otherwise come in fresh
/// pages from the kernel on every edit.
pub(super) fn compile_anim(
    rig: &RigNames,
    sections: &[(Ordinal, &AnimSection)],
    prev: Option<Previous<'_>>,
    spare: Vec<RawKey>,
) -> AnimOutput {
    let name = sections.first().map_or(String::new(), |s| s.1.name.node.clone());
    let (fps, opts) = header_defaults(sections);
    let mut t = Tracks::with_room(sections, spare);
    // How many items come before this section in the earlier output.
    let mut before = 0;
    for (ord, sec) in sections {
        let replay = prev.as_ref().map(|p| {
            let edit = (p.ord == *ord).then_some(p.edit);
            (p.output, before, edit)
        });
        t.section(rig, *ord, sec, opts, replay);
        before += match replay {
            Some((_, _, Some(e))) => sec.items.len() - e.new_count + e.old_count,
            _ => sec.items.len(),
        };
    }
    for c in t.channels.values() {
        t.src.timelines[c.timeline].1.effective = true;
    }
    let mut anim = build_animation(&name, fps, &t.order, &t.channels, &t.keys, &t.side.colors);
    // Attachment names: checked per item after all of them (their
    // diagnostics come last), or taken from the earlier output.
    let (checks, attachment_refs) = attachment_checks(rig, sections, prev.as_ref(), &mut t);
    // Events: every compile runs all of them (they are few, and read
    // nothing but their own lines), after every item's diagnostics.
    anim.events = compile_events(sections, anim.fps, opts, &mut t.diags);
    if !anim.events.is_empty() {
        anim.update_duration();
    }
    // In document order once here (stably, as the compiler's list is), so
    // merging them into the document's sorted list is cheap on every update.
    t.src.references.sort_by_key(|(o, r)| (*o, r.span.start));
    t.src.keys = std::sync::Arc::new(KeyList { keys: t.keys, side: t.side, fps: anim.fps });
    AnimOutput {
        animation: std::sync::Arc::new(anim),
        diagnostics: t.diags,
        sources: t.src,
        memo: Memo { items: t.items, checks, attachment_refs },
    }
}

/// Checks the attachment names of every item of `sections` after all of
/// them ran (their diagnostics come after the others), or takes what the
/// check gave from `prev` for the items taken from there: per item, the
/// range of references and of diagnostics it added, and the references.
fn attachment_checks(
    rig: &RigNames,
    sections: &[(Ordinal, &AnimSection)],
    prev: Option<&Previous<'_>>,
    t: &mut Tracks,
) -> (Vec<ItemCheck>, Vec<Reference>) {
    let mut checks = Vec::with_capacity(t.items.len());
    let mut attachment_refs = Vec::new();
    let mut g = 0;
    for (ord, sec) in sections {
        for item in &sec.items {
            let (r0, d0) = (attachment_refs.len() as u32, t.diags.len() as u32);
            match (t.earlier[g], prev) {
                (Some((k, by)), Some(p)) => {
                    let ItemCheck { refs: r, diags: d } = p.output.memo.checks[k];
                    attachment_refs.extend(
                        p.output.memo.attachment_refs[r.0 as usize..r.1 as usize].iter().map(|x| {
                            let mut x = *x;
                            x.shift(by);
                            x
                        }),
                    );
                    t.diags.extend(
                        p.output.diagnostics[d.0 as usize..d.1 as usize]
                            .iter()
                            .map(|x| LocalDiag { ord: *ord, diag: x.diag.clone().shifted(by) }),
                    );
                }
                _ => check_attachment_names(rig, *ord, item, &mut t.diags, &mut attachment_refs),
            }
            let refs = (r0, attachment_refs.len() as u32);
            checks.push(ItemCheck { refs, diags: (d0, t.diags.len() as u32) });
            g += 1;
        }
        // (Each section's, in its items' order.)
        let from = checks.len() - sec.items.len();
        let r0 = checks.get(from).map_or(attachment_refs.len() as u32, |c| c.refs.0) as usize;
        t.src.references.extend(attachment_refs[r0..].iter().map(|r| (*ord, *r)));
    }
    (checks, attachment_refs)
}

/// The frame rate and the defaults of the headers (later headers override
/// what they set).
fn header_defaults(sections: &[(Ordinal, &AnimSection)]) -> (f64, Opts) {
    let mut fps = None;
    let mut opts = Opts::default();
    for (_, s) in sections {
        fps = s.fps.or(fps);
        opts.frame = s.opts.frame.or(opts.frame);
        opts.step = s.opts.step.or(opts.step);
        opts.easing = s.opts.easing.or(opts.easing);
    }
    // `Animation::empty` cleans the frame rate (the one place that does).
    (fps.unwrap_or(crate::model::DEFAULT_FPS), opts)
}

/// Reports attachment names an `@` timeline of `item` switches to that
/// the slot lacks. Also records each such name and the attachment it names.
fn check_attachment_names(
    rig: &RigNames,
    ord: Ordinal,
    item: &AnimItem,
    diags: &mut Vec<LocalDiag>,
    refs: &mut Vec<Reference>,
) {
    if !item.is_slot {
        return;
    }
    let crate::compile::names::Resolved::Found(slot) = rig.slot_names.resolve(&item.target.node)
    else {
        return;
    };
    for tl in item.timelines.iter().filter(|t| t.prop.node == TimelineProp::Attachment) {
        for c in &tl.commands {
            let TimelineCommand::Push(KeyValue::Name(n)) = &c.node else { continue };
            let found = rig.attachment_ids.get(slot.0, n);
            refs.push(Reference {
                span: c.span,
                target: found.map(SrcTarget::Attachment),
                definition: false,
            });
            if found.is_none() {
                let slot_name = rig.slot_names.name(slot);
                let names = rig.attachment_ids.names_of(slot.0);
                let mut d = Diagnostic::warning(
                    c.span,
                    format!(
                        "slot `{}` has no attachment `{}`; nothing is shown from this key",
                        clip(slot_name),
                        clip(n)
                    ),
                );
                match crate::compile::names::closest(n, names.iter().copied()) {
                    Some(s) => d = d.hint(format!("did you mean `{}`?", clip(s))),
                    None if !names.is_empty() => {
                        d = d.hint(format!(
                            "its attachments: {}",
                            quote_list(names.iter().copied())
                        ));
                    }
                    None => {}
                }
                diags.push(LocalDiag { ord, diag: d });
            }
        }
    }
}
