//! Pose assertions (`expect` sections, LANGUAGE-EXT.md): each line's bone
//! or slot is resolved like any reference, the pose is evaluated at the
//! section's frame, and every value that differs from the expected one by
//! more than the tolerance is an error on its token saying both values.

use super::names::resolve_or_explain;
use super::rig::RigOutput;
use super::source::{Reference, Target};
use crate::model::{AnimId, Armature, BoneId, SkinId, SlotId, normalize_angle};
use crate::runtime::evaluate;
use crate::syntax::Diagnostic;
use crate::syntax::Span;
use crate::syntax::tree::{ExpectProp, ExpectSection};

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
}

impl ExpectResult {
    /// The line resolved and all its checks held.
    pub fn passed(&self) -> bool {
        self.target.is_some() && self.failed == 0
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
    pub results: Vec<ExpectResult>,
}

fn fmt(v: f64) -> String {
    let r = (v * 1e4).round() / 1e4;
    format!("{}", if r == 0.0 { 0.0 } else { r })
}

fn prop_label(p: ExpectProp, local: bool, point: Option<(f64, f64)>) -> String {
    let space = if local { "local" } else { "world" };
    let of_point = point.map_or(String::new(), |(x, y)| format!(" of point {},{}", fmt(x), fmt(y)));
    match p {
        ExpectProp::X => format!("{space} x{of_point}"),
        ExpectProp::Y => format!("{space} y{of_point}"),
        ExpectProp::Rotation => format!("{space} rotation"),
        ExpectProp::ScaleX => format!("{space} scale x"),
        ExpectProp::ScaleY => format!("{space} scale y"),
        ExpectProp::Red => "color red".into(),
        ExpectProp::Green => "color green".into(),
        ExpectProp::Blue => "color blue".into(),
        ExpectProp::Alpha => "color alpha".into(),
    }
}

/// Evaluates one `expect` section (spans relative to the section).
pub(crate) fn evaluate_section(armature: &Armature, rig: &RigOutput, e: &ExpectSection) -> ExpectOutput {
    let mut out = ExpectOutput { diagnostics: Vec::new(), references: Vec::new(), results: Vec::new() };
    let (anim, time_secs, when) = match &e.anim {
        None => (None, 0.0, "the setup pose".to_string()),
        Some(name) => match armature.animation_by_name(&name.node) {
            Some(id) => {
                out.references.push(Reference { span: name.span, target: Some(Target::Animation(id)), definition: false });
                let a = &armature.animations[id.index()];
                let fps = if a.fps > 0.0 { a.fps } else { 20.0 };
                let t = e.frame / fps;
                (Some(id), t, format!("frame {} ({} s) of \"{}\"", fmt(e.frame), fmt(t), a.name))
            }
            None => {
                let names: Vec<String> = armature.animations.iter().map(|a| format!("\"{}\"", a.name)).collect();
                out.diagnostics.push(
                    Diagnostic::error(name.span, format!("unknown animation \"{}\"", name.node))
                        .hint(format!("animations: {}", if names.is_empty() { "none".into() } else { names.join(", ") }))
                        .hint("the expectations of this section are not checked"),
                );
                for l in &e.lines {
                    out.results.push(ExpectResult { line: l.span, anim: None, time_secs: 0.0, target: None, failed: l.checks.len() });
                }
                return out;
            }
        },
    };
    let pose = evaluate(armature, anim, SkinId(0), time_secs);
    for l in &e.lines {
        let idx = if l.is_slot { &rig.slot_names } else { &rig.bone_names };
        let what = if l.is_slot { "slot" } else { "bone" };
        let target = match resolve_or_explain(idx, what, &l.target, "the expectation is not checked") {
            Ok(i) => {
                let t = if l.is_slot { Target::Slot(SlotId(i)) } else { Target::Bone(BoneId(i)) };
                out.references.push(Reference { span: l.target.span, target: Some(t), definition: false });
                t
            }
            Err(d) => {
                out.references.push(Reference { span: l.target.span, target: None, definition: false });
                out.diagnostics.push(d);
                out.results.push(ExpectResult { line: l.span, anim, time_secs, target: None, failed: l.checks.len() });
                continue;
            }
        };
        let tol = l.tolerance.unwrap_or(e.tolerance);
        let mut failed = 0;
        for c in &l.checks {
            let (prop, expected) = c.node;
            let actual = match target {
                Target::Bone(b) => {
                    let Some(bp) = pose.bones.get(b.index()) else { continue };
                    if l.local {
                        let t = bp.local;
                        match prop {
                            ExpectProp::X => t.x,
                            ExpectProp::Y => t.y,
                            ExpectProp::Rotation => t.rotation_rad.to_degrees(),
                            ExpectProp::ScaleX => t.scale_x,
                            ExpectProp::ScaleY => t.scale_y,
                            _ => continue,
                        }
                    } else {
                        let (px, py) = l.point.unwrap_or((0.0, 0.0));
                        let (wx, wy) = bp.world.apply(px, py);
                        let (ax, ay) = bp.world.apply_vector(1.0, 0.0);
                        let (bx, by) = bp.world.apply_vector(0.0, 1.0);
                        match prop {
                            ExpectProp::X => wx,
                            ExpectProp::Y => wy,
                            ExpectProp::Rotation => ay.atan2(ax).to_degrees(),
                            ExpectProp::ScaleX => ax.hypot(ay),
                            ExpectProp::ScaleY => bx.hypot(by),
                            _ => continue,
                        }
                    }
                }
                Target::Slot(s) => {
                    let Some(sp) = pose.slots.get(s.index()) else { continue };
                    match prop {
                        ExpectProp::Red => sp.color.r,
                        ExpectProp::Green => sp.color.g,
                        ExpectProp::Blue => sp.color.b,
                        ExpectProp::Alpha => sp.color.a,
                        _ => continue,
                    }
                }
                _ => continue,
            };
            let diff = if prop == ExpectProp::Rotation {
                normalize_angle((actual - expected).to_radians()).to_degrees()
            } else {
                actual - expected
            };
            if diff.is_nan() || diff.abs() > tol {
                failed += 1;
                out.diagnostics.push(
                    Diagnostic::error(
                        c.span,
                        format!(
                            "expected {} of `{}` to be {} (± {}), it is {}",
                            prop_label(prop, l.local, l.point),
                            l.target.node,
                            fmt(expected),
                            fmt(tol),
                            fmt(actual)
                        ),
                    )
                    .hint(format!("at {when}")),
                );
            }
        }
        out.results.push(ExpectResult { line: l.span, anim, time_secs, target: Some(target), failed });
    }
    out
}
