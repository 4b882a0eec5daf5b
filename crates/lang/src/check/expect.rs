//! Pose assertions (`expect` sections, LANGUAGE-EXT.md), evaluated: the
//! compiler resolves each section ([`PoseCheck`]); here its pose is
//! evaluated and every value that differs from the expected one by more than
//! the tolerance becomes an error on its token saying both values.
//!
//! Every consumer that shows a script's diagnostics (`skelpad check` and
//! `test`, the editor, the language server) compiles with [`compile_checked`]
//! or calls [`check`] on what the [`crate::compile::Compiler`] returned.
//!
//! Expectations on events (`EventExpect`: an event fires at the section's
//! frame, or never within a range of frames) are evaluated here beside the
//! pose checks, against `Animation::events` (whose `pose --json` form is
//! `runtime::report::events_json`).

use crate::compile::expect::{ExpectResult, PoseCheck, fmt};
use crate::compile::{Compilation, Target, compile};
use crate::model::{Armature, EventPayload, SkinId, normalize_angle};
use crate::runtime::{Pose, evaluate};
use crate::syntax::Diagnostic;
use crate::syntax::tree::{EventExpect, ExpectProp, KeyValue};

/// Evaluates every pose assertion of `comp`: fills `comp.expectations` (one
/// result per line, in document order) and adds an error to
/// `comp.diagnostics` for every value that is off (kept sorted by position).
/// Calling it again on the same compilation changes nothing.
pub fn check(comp: &mut Compilation) {
    if !comp.expectations.is_empty() || comp.pose_checks.iter().all(|c| c.lines.is_empty()) {
        return;
    }
    let mut failures = Vec::new();
    for c in &comp.pose_checks {
        comp.expectations.extend(check_section(&comp.armature, c, &mut failures));
    }
    if !failures.is_empty() {
        comp.diagnostics.extend(failures);
        comp.diagnostics
            .sort_by(|a, b| a.span.start.cmp(&b.span.start).then(a.severity.cmp(&b.severity)));
    }
}

/// [`compile`] and then [`check`]: a document compiled with its pose
/// assertions evaluated, as a user sees it.
pub fn compile_checked(text: &str) -> Compilation {
    let mut comp = compile(text);
    check(&mut comp);
    comp
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

/// The value `prop` of `target` in `pose`, or `None` when the property does
/// not apply to the target (a color of a bone, a rotation of a slot).
fn actual(
    pose: &Pose,
    target: Target,
    prop: ExpectProp,
    local: bool,
    point: Option<(f64, f64)>,
) -> Option<f64> {
    match target {
        Target::Bone(b) => {
            let bp = pose.bones.get(b.index())?;
            if local {
                let t = bp.local;
                match prop {
                    ExpectProp::X => Some(t.x),
                    ExpectProp::Y => Some(t.y),
                    ExpectProp::Rotation => Some(t.rotation_rad.to_degrees()),
                    ExpectProp::ScaleX => Some(t.scale_x),
                    ExpectProp::ScaleY => Some(t.scale_y),
                    _ => None,
                }
            } else {
                let (px, py) = point.unwrap_or((0.0, 0.0));
                let (wx, wy) = bp.world.apply(px, py);
                let (ax, ay) = bp.world.apply_vector(1.0, 0.0);
                let (bx, by) = bp.world.apply_vector(0.0, 1.0);
                match prop {
                    ExpectProp::X => Some(wx),
                    ExpectProp::Y => Some(wy),
                    ExpectProp::Rotation => Some(ay.atan2(ax).to_degrees()),
                    ExpectProp::ScaleX => Some(ax.hypot(ay)),
                    ExpectProp::ScaleY => Some(bx.hypot(by)),
                    _ => None,
                }
            }
        }
        Target::Slot(s) => {
            let sp = pose.slots.get(s.index())?;
            match prop {
                ExpectProp::Red => Some(sp.color.r),
                ExpectProp::Green => Some(sp.color.g),
                ExpectProp::Blue => Some(sp.color.b),
                ExpectProp::Alpha => Some(sp.color.a),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An event line of section `c`: 1 when it fails (with an error on its
/// line in `failures`), else 0. Frames are compared to within a
/// millionth of a frame, payloads (numbers) to the line's tolerance.
fn check_event(
    armature: &Armature,
    c: &PoseCheck,
    l: &crate::compile::expect::CheckLine,
    ev: &EventExpect,
    failures: &mut Vec<Diagnostic>,
) -> usize {
    const SAME_FRAME: f64 = 1e-6;
    let Some(a) = c.anim.and_then(|id| armature.animations.get(id.index())) else { return 1 };
    let frame = c.time_secs * a.fps;
    let keys = a.events.iter().filter(|e| e.name == l.name);
    let fail =
        |span, message: String| Diagnostic::error(span, message).hint(format!("at {}", c.when));
    let frames_of = |list: &mut dyn Iterator<Item = &crate::model::Event>| {
        let v: Vec<String> = list.map(|e| fmt(e.frame)).collect();
        if v.is_empty() { "none".to_string() } else { v.join(", ") }
    };
    match ev {
        EventExpect::Fires(payload) => {
            let at: Vec<&crate::model::Event> =
                keys.clone().filter(|e| (e.frame - frame).abs() <= SAME_FRAME).collect();
            if at.is_empty() {
                failures.push(fail(
                    l.line,
                    format!(
                        "expected event `{}` to fire at frame {}; it fires at frames: {}",
                        l.name,
                        fmt(frame),
                        frames_of(&mut keys.clone())
                    ),
                ));
                return 1;
            }
            let Some(want) = payload else { return 0 };
            if at.iter().any(|e| payload_matches(&e.payload, &want.node, l.tolerance)) {
                return 0;
            }
            let want_text = match &want.node {
                KeyValue::Number(v) => fmt(*v),
                KeyValue::Name(s) => format!("\"{s}\""),
                _ => String::new(),
            };
            failures.push(fail(
                want.span,
                format!(
                    "expected event `{}` at frame {} to carry {want_text}, it carries {}",
                    l.name,
                    fmt(frame),
                    shown_payload(&at[0].payload)
                ),
            ));
            1
        }
        EventExpect::Never(range) => {
            let (from, to) = range.node;
            let mut inside =
                keys.filter(|e| e.frame >= from - SAME_FRAME && e.frame <= to + SAME_FRAME);
            let Some(first) = inside.next() else { return 0 };
            let more = inside.count();
            failures.push(fail(
                range.span,
                format!(
                    "expected event `{}` not to fire from frame {} to {}; it fires at frame {}{}",
                    l.name,
                    fmt(from),
                    fmt(to),
                    fmt(first.frame),
                    if more > 0 { format!(" and {more} more") } else { String::new() }
                ),
            ));
            1
        }
    }
}

/// Whether an event's payload is the one an expectation wants (numbers
/// to within `tolerance`).
fn payload_matches(p: &EventPayload, want: &KeyValue, tolerance: f64) -> bool {
    match (p, want) {
        (EventPayload::Int(i), KeyValue::Number(v)) => (f64::from(*i) - v).abs() <= tolerance,
        (EventPayload::Float(f), KeyValue::Number(v)) => (f - v).abs() <= tolerance,
        (EventPayload::Text(s), KeyValue::Name(v)) => s == v,
        _ => false,
    }
}

/// An event's payload as a failure message shows it.
fn shown_payload(p: &EventPayload) -> String {
    match p {
        EventPayload::None => "no payload".to_string(),
        EventPayload::Int(i) => i.to_string(),
        EventPayload::Float(f) => fmt(*f),
        EventPayload::Text(s) => format!("\"{s}\""),
    }
}

/// One section: one pose, one result per line; failures go to `failures`.
fn check_section(
    armature: &Armature,
    c: &PoseCheck,
    failures: &mut Vec<Diagnostic>,
) -> Vec<ExpectResult> {
    let result = |l: &crate::compile::expect::CheckLine, failed| ExpectResult {
        line: l.line,
        anim: c.anim,
        time_secs: c.time_secs,
        target: l.target,
        failed,
        event: l.event.as_ref().map(|_| l.name.clone()),
    };
    if c.lines.iter().all(|l| l.target.is_none()) {
        return c
            .lines
            .iter()
            .map(|l| match &l.event {
                Some(ev) => result(l, check_event(armature, c, l, ev, failures)),
                None => result(l, l.checks.len()),
            })
            .collect();
    }
    let pose = evaluate(armature, c.anim, SkinId(0), c.time_secs);
    let mut out = Vec::with_capacity(c.lines.len());
    for l in &c.lines {
        if let Some(ev) = &l.event {
            out.push(result(l, check_event(armature, c, l, ev, failures)));
            continue;
        }
        let Some(target) = l.target else {
            out.push(result(l, l.checks.len()));
            continue;
        };
        let mut failed = 0;
        for check in &l.checks {
            let (prop, expected) = check.node;
            let Some(actual) = actual(&pose, target, prop, l.local, l.point) else { continue };
            let diff = if prop == ExpectProp::Rotation {
                normalize_angle((actual - expected).to_radians()).to_degrees()
            } else {
                actual - expected
            };
            if diff.is_nan() || diff.abs() > l.tolerance {
                failed += 1;
                failures.push(
                    Diagnostic::error(
                        check.span,
                        format!(
                            "expected {} of `{}` to be {} (± {}), it is {}",
                            prop_label(prop, l.local, l.point),
                            crate::syntax::clip(&l.name),
                            fmt(expected),
                            fmt(l.tolerance),
                            fmt(actual)
                        ),
                    )
                    .hint(format!("at {}", c.when)),
                );
            }
        }
        out.push(result(l, failed));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiling_resolves_and_checking_evaluates_once() {
        let text = "skeleton\n\tarm l10 r90\nexpect\n\tarm r90\n\tarm r45\n\tleg r0\n";
        let mut comp = compile(text);
        // Compiling resolves: the unknown bone is an error, nothing is evaluated.
        assert_eq!(
            comp.diagnostics.iter().filter(|d| d.is_error()).count(),
            1,
            "{:?}",
            comp.diagnostics
        );
        assert!(comp.expectations.is_empty());
        assert_eq!(comp.pose_checks.len(), 1);
        assert_eq!(comp.pose_checks[0].lines.len(), 3);
        check(&mut comp);
        let failed: Vec<usize> = comp.expectations.iter().map(|e| e.failed).collect();
        assert_eq!(failed, [0, 1, 1]);
        let messages: Vec<&str> = comp.diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(messages.len(), 2, "{messages:?}");
        assert_eq!(messages[0], "expected world rotation of `arm` to be 45 (± 0.001), it is 90");
        // In document order: the failing `r45` comes before the unknown `leg`.
        assert!(comp.diagnostics[0].span.start < comp.diagnostics[1].span.start);
        check(&mut comp);
        assert_eq!(comp.diagnostics.len(), 2);
        assert_eq!(comp.expectations.len(), 3);
    }
}
