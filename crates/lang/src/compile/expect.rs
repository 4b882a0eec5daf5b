//! Pose assertions (`expect` sections, LANGUAGE-EXT.md), resolved: each
//! section's animation and frame become a time, each line's bone or slot is
//! resolved like any reference (an unknown name is an error saying why), and
//! the checks are kept for [`crate::check::expect`], which evaluates the
//! pose and reports every value that is off (compiling never evaluates a
//! pose: `runtime` is the stage above this one).
//!
//! The checks are kept as `Compilation::pose_checks`; evaluating them fills
//! `Compilation::expectations`, each failing check an error in
//! `Compilation::diagnostics`. They never change the armature:
//! `Compilation::has_armature_errors` ignores them, so the editor does not
//! fall back to an older armature while an assertion fails (its canvas
//! outlines the failing bones in red at their time).

use super::names::resolve_or_explain;
use super::rig::RigOutput;
use super::source::{Reference, Target};
use crate::model::{AnimId, Armature, BoneId, clean_fps};
use crate::syntax::Span;
use crate::syntax::tree::{EventExpect, ExpectLine, ExpectProp, ExpectSection, Spanned};
use crate::syntax::{Diagnostic, clip, quote_list};

/// One resolved `expect` section: the pose to evaluate and its lines.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseCheck {
    /// The animation (`None`: the setup pose, or an unknown animation, whose
    /// lines then have no target).
    pub anim: Option<AnimId>,
    /// The time the pose is evaluated at.
    pub time_secs: f64,
    /// Which pose, for the hint of a failure (`frame 3 (0.15 s) of "walk"`).
    pub when: String,
    /// The section's lines, in order.
    pub lines: Vec<CheckLine>,
}

/// One resolved expectation line.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckLine {
    /// The line (document offsets once the compiler shifts it).
    pub line: Span,
    /// The bone or slot (`None`: it did not resolve, or the section's
    /// animation is unknown; an error says why).
    pub target: Option<Target>,
    /// The name as written, for messages.
    pub name: String,
    /// Compare the local transform instead of world values.
    pub local: bool,
    /// A point in the bone's space whose world position `x`/`y` check.
    pub point: Option<(f64, f64)>,
    /// How far a value may be off.
    pub tolerance: f64,
    /// What to compare, each on its token (document offsets once shifted).
    pub checks: Vec<Spanned<(ExpectProp, f64)>>,
    /// An event check, when the event is one the section's animation
    /// fires (`name` is the event's name; document offsets once shifted).
    pub event: Option<EventExpect>,
}

impl PoseCheck {
    /// The same check with its spans moved by `at` (section → document).
    pub(crate) fn shifted(self, at: u32) -> PoseCheck {
        let lines = self
            .lines
            .into_iter()
            .map(|l| CheckLine {
                line: l.line.shifted(at),
                checks: l
                    .checks
                    .into_iter()
                    .map(|c| Spanned::new(c.node, c.span.shifted(at)))
                    .collect(),
                event: l.event.map(|e| match e {
                    EventExpect::Fires(v) => {
                        EventExpect::Fires(v.map(|v| Spanned::new(v.node, v.span.shifted(at))))
                    }
                    EventExpect::Never(r) => {
                        EventExpect::Never(Spanned::new(r.node, r.span.shifted(at)))
                    }
                }),
                ..l
            })
            .collect();
        PoseCheck { lines, ..self }
    }
}

/// One expectation line and how it went.
#[derive(Clone, Debug, PartialEq)]
pub struct ExpectResult {
    /// The line (document offsets once the compiler shifts it).
    pub line: Span,
    /// The animation (`None`: the setup pose).
    pub anim: Option<AnimId>,
    /// The time the pose was evaluated at.
    pub time_secs: f64,
    /// The bone or slot (`None`: it did not resolve, an error says why).
    pub target: Option<Target>,
    /// How many of its checks failed (a line that did not resolve counts as failed).
    pub failed: usize,
    /// For an event check whose event resolved: the event's name.
    pub event: Option<String>,
}

impl ExpectResult {
    /// The line resolved and all its checks held.
    pub fn passed(&self) -> bool {
        (self.target.is_some() || self.event.is_some()) && self.failed == 0
    }

    /// The bone the line is about (a slot's bone).
    pub fn bone(&self, armature: &Armature) -> Option<BoneId> {
        match self.target? {
            Target::Bone(b) => Some(b),
            Target::Slot(s) => armature.skeleton.slots.get(s.index()).map(|x| x.bone),
            _ => None,
        }
    }
}

pub(crate) struct ExpectOutput {
    pub diagnostics: Vec<Diagnostic>,
    pub references: Vec<Reference>,
    pub check: PoseCheck,
}

/// A value as messages show it: rounded to 4 decimals, no `-0`.
pub(crate) fn fmt(v: f64) -> String {
    let r = (v * 1e4).round() / 1e4;
    format!("{}", if r == 0.0 { 0.0 } else { r })
}

/// Resolves one `expect` section (spans relative to the section).
pub(crate) fn resolve_section(
    armature: &Armature,
    rig: &RigOutput,
    e: &ExpectSection,
) -> ExpectOutput {
    let mut out = ExpectOutput {
        diagnostics: Vec::new(),
        references: Vec::new(),
        check: PoseCheck {
            anim: None,
            time_secs: 0.0,
            when: "the setup pose".to_string(),
            lines: Vec::new(),
        },
    };
    if let Some(name) = &e.anim
        && !resolve_anim(armature, e, name, &mut out)
    {
        out.check.lines = e.lines.iter().map(|l| check_line(e, l, None)).collect();
        return out;
    }
    for l in &e.lines {
        if let Some(ev) = &l.event {
            event_line(armature, e, l, ev, &mut out);
            continue;
        }
        let fallback = "the expectation is not checked";
        let resolved = if l.is_slot {
            resolve_or_explain(&rig.names.slot_names, "slot", &l.target, fallback).map(Target::Slot)
        } else {
            resolve_or_explain(&rig.names.bone_names, "bone", &l.target, fallback).map(Target::Bone)
        };
        let target = match resolved {
            Ok(t) => Some(t),
            Err(d) => {
                out.diagnostics.push(d);
                None
            }
        };
        out.references.push(Reference { span: l.target.span, target, definition: false });
        out.check.lines.push(check_line(e, l, target));
    }
    out
}

/// Line `l` of section `e` as it is checked, about `target`.
fn check_line(e: &ExpectSection, l: &ExpectLine, target: Option<Target>) -> CheckLine {
    CheckLine {
        line: l.span,
        target,
        name: l.target.node.clone(),
        local: l.local,
        point: l.point,
        tolerance: l.tolerance.unwrap_or(e.tolerance),
        checks: l.checks.clone(),
        event: None,
    }
}

/// Resolves the animation `name` of section `e` and the time it is posed
/// at into `out`; `false` (reported) when there is no such animation.
fn resolve_anim(
    armature: &Armature,
    e: &ExpectSection,
    name: &Spanned<String>,
    out: &mut ExpectOutput,
) -> bool {
    let Some(id) = armature.animation_by_name(&name.node) else {
        let names: Vec<String> =
            armature.animations.iter().map(|a| format!("\"{}\"", a.name)).collect();
        out.diagnostics.push(
            Diagnostic::error(name.span, format!("unknown animation \"{}\"", name.node))
                .hint(format!(
                    "animations: {}",
                    if names.is_empty() { "none".into() } else { names.join(", ") }
                ))
                .hint("the expectations of this section are not checked"),
        );
        out.check.when = format!("unknown animation \"{}\"", name.node);
        return false;
    };
    out.references.push(Reference {
        span: name.span,
        target: Some(Target::Animation(id)),
        definition: false,
    });
    let a = &armature.animations[id.index()];
    let t = e.frame / clean_fps(a.fps);
    out.check.anim = Some(id);
    out.check.time_secs = t;
    out.check.when = format!("frame {} ({} s) of \"{}\"", fmt(e.frame), fmt(t), a.name);
    true
}

/// An event expectation `l` (`ev`) of section `e`: checked when the
/// section's animation fires that event, else reported.
fn event_line(
    armature: &Armature,
    e: &ExpectSection,
    l: &ExpectLine,
    ev: &EventExpect,
    out: &mut ExpectOutput,
) {
    let known = out.check.anim.and_then(|id| armature.animations.get(id.index()));
    match known {
        None => out.diagnostics.push(
            Diagnostic::error(l.target.span, "an event expectation needs an animation")
                .hint("name the animation in the section's header: `expect \"walk\" 10`"),
        ),
        Some(a) if a.events.iter().any(|x| x.name == l.target.node) => {
            out.check.lines.push(CheckLine { event: Some(ev.clone()), ..check_line(e, l, None) });
            return;
        }
        Some(a) => {
            let mut names: Vec<&str> = a.events.iter().map(|x| x.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            let mut d = Diagnostic::error(
                l.target.span,
                format!(
                    "animation \"{}\" fires no event `{}`",
                    clip(&a.name),
                    clip(&l.target.node)
                ),
            );
            match super::names::closest(&l.target.node, names.iter().copied()) {
                Some(c) => d = d.hint(format!("did you mean `{c}`?")),
                None if names.is_empty() => d = d.hint("it fires no events"),
                None => {
                    d = d.hint(format!("its events: {}", quote_list(names)));
                }
            }
            out.diagnostics.push(d.hint("the expectation is not checked"));
        }
    }
    out.check.lines.push(check_line(e, l, None));
}
