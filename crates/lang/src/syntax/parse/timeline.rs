//! Timeline and event lines: the commands after a line's property (values,
//! advances, loops, options tokens) and their diagnostics.

use super::anim::prop_error;
use super::*;
use crate::syntax::vocab;
/// An options token inside a timeline (`F:S:E` followed by an advance):
/// pushes its commands; `false` when `t` is not one.
fn options_command(
    diags: &mut Vec<Diagnostic>,
    line: &LogicalLine<'_>,
    t: &Token<'_>,
    commands: &mut Vec<Spanned<TimelineCommand>>,
) -> bool {
    let Some(o) = token::options(t.text, true) else { return false };
    let sp = tok_span(line, t);
    let mut push = |c: TimelineCommand| commands.push(Spanned::new(c, sp));
    if let Some(f) = o.frame {
        push(if f.relative {
            TimelineCommand::AdvanceFrames(f.value)
        } else {
            TimelineCommand::SetFrame(f.value)
        });
    }
    if let Some(st) = o.step {
        push(TimelineCommand::SetStep(st));
    }
    match &o.easing {
        Some(EasingOpt::Known(e)) => push(TimelineCommand::SetEasing(*e)),
        Some(bad) => diags.extend(easing_error(bad, line, t.pos + o.easing_pos)),
        None => {}
    }
    if o.advance > 0 {
        push(TimelineCommand::AdvanceSteps(o.advance));
    }
    true
}

/// The error for an easing that is not one (`None` for a known one),
/// located at byte `pos` of the line, where the easing starts.
pub(super) fn easing_error(
    bad: &EasingOpt<'_>,
    line: &LogicalLine<'_>,
    pos: usize,
) -> Option<Diagnostic> {
    Some(match *bad {
        EasingOpt::BadBezier { offset, text, why } => {
            Diagnostic::error(span_of(line, pos + offset, text.len().max(1)), why.to_string())
                .hint("e.g. `bz(0.42,0,0.58,1)`; X1 and X2 in 0..1, Y1 and Y2 any number")
        }
        EasingOpt::Unknown(name) => {
            let mut d = Diagnostic::error(
                span_of(line, pos, name.len()),
                format!("unknown easing `{}`", clip(name)),
            )
            .hint(
                "easings are li (linear), si, so, sio (sines), the presets ease, ease-in, \
                 ease-out, ease-in-out, back-in, back-out, back, and bz(X1,Y1,X2,Y2)",
            );
            if let Some(c) = crate::syntax::suggest::closest(name, vocab::texts(vocab::EASINGS)) {
                d = d.hint(format!("did you mean `{c}`?"));
            }
            d
        }
        EasingOpt::Known(_) => return None,
    })
}

/// A loop brace or an advance: pushes its command (an advance of 0 pushes
/// none); `false` when `s` is neither.
fn flow_command(s: &str, sp: Span, commands: &mut Vec<Spanned<TimelineCommand>>) -> Option<Role> {
    let (first, last) = (s.as_bytes()[0], s.as_bytes()[s.len() - 1]);
    if first == b'{' && s.len() == 1 {
        commands.push(Spanned::new(TimelineCommand::BeginLoop, sp));
        return Some(Role::Loop);
    }
    if first == b'}'
        && let Some(n) = token::end_loop(s)
    {
        commands.push(Spanned::new(TimelineCommand::EndLoop(n), sp));
        return Some(Role::Loop);
    }
    if last == b'>'
        && let Some(n) = token::advance(s)
    {
        if n > 0 {
            commands.push(Spanned::new(TimelineCommand::AdvanceSteps(n), sp));
        }
        return Some(Role::Advance);
    }
    None
}

/// The largest payload an `i` event line takes (Spine's and Spriter's int).
const EVENT_INT_MAX: f64 = i32::MAX as f64;

/// A line under an `!EVENT` item: `KIND COMMAND+`, the timeline notation
/// with event values (see [`EventLine`]).
pub(super) fn event_line(
    diags: &mut Vec<Diagnostic>,
    roles: &mut Vec<TokenRole>,
    line: &LogicalLine<'_>,
    toks: &[Token<'_>],
) -> Option<EventLine> {
    let head = toks.first()?;
    let Some(kind) = EventKind::parse(head.text) else {
        diags.push(
            Diagnostic::error(
                tok_span(line, head),
                format!("`{}` is not an event payload kind", clip(head.text)),
            )
            .hint("an event line starts with `e` (no payload, fired by `!`), `i` (whole number), `f` (number) or `s` (\"string\")"),
        );
        return None;
    };
    if head.pos > 2 {
        diags.push(Diagnostic::warning(
            span_of(line, 2, head.pos - 2),
            "event line indented deeper than two tabs; it is still read",
        ));
    }
    roles.push(TokenRole { span: tok_span(line, head), role: Role::Property });
    let commands = commands(
        diags,
        roles,
        line,
        &toks[1..],
        |s| event_value(kind, s),
        |sp, s| event_token_error(kind, sp, s),
    );
    if commands.is_empty() {
        diags.push(Diagnostic::warning(
            line_span(line),
            "event line has no commands; it is ignored",
        ));
        return None;
    }
    Some(EventLine {
        kind: Spanned::new(kind, tok_span(line, head)),
        commands,
        span: line_span(line),
    })
}

/// The value token `s` of an event line of `kind` pushes, and its role.
fn event_value(kind: EventKind, s: &str) -> Option<(TimelineCommand, Role)> {
    let number = |v: f64| {
        if kind == EventKind::Int && (v.fract() != 0.0 || v.abs() > EVENT_INT_MAX) {
            None
        } else {
            Some(v)
        }
    };
    match kind {
        EventKind::Bare => {
            (s == "!").then_some((TimelineCommand::Push(KeyValue::Bool(true)), Role::Event))
        }
        EventKind::Text => (s.len() >= 2)
            .then(|| quoted(s))
            .flatten()
            .map(|q| (TimelineCommand::Push(KeyValue::Name(q.to_string())), Role::String)),
        EventKind::Int | EventKind::Float => number_command(s, number).map(|c| (c, Role::Number)),
    }
}

/// The error for a token `s` (at `sp`) an event line of `kind` cannot read.
fn event_token_error(kind: EventKind, sp: Span, s: &str) -> Diagnostic {
    let expected = match kind {
        EventKind::Bare => "`!`",
        EventKind::Int => "a whole number (or `+N`, `*N`)",
        EventKind::Float => "a number (or `+N`, `*N`)",
        EventKind::Text => "a \"string\"",
    };
    let d = unexpected_command(sp, s, "event line", expected);
    if kind == EventKind::Int && token::number(s.trim_start_matches(['+', '*'])).is_some() {
        d.hint("an `i` payload is a whole number from -2147483648 to 2147483647; use `f` for fractions")
    } else {
        d
    }
}

/// The value token `s` of a timeline of `prop` pushes, and its role.
fn timeline_value(prop: TimelineProp, s: &str) -> Option<(TimelineCommand, Role)> {
    match prop {
        TimelineProp::Color => token::color(s).map(|c| {
            (TimelineCommand::Push(KeyValue::Color(Box::new(c.to_color_exact()))), Role::Color)
        }),
        TimelineProp::Attachment => token::is_name(s)
            .then(|| (TimelineCommand::Push(KeyValue::Name(s.to_string())), Role::AttachmentRef)),
        TimelineProp::FlipX | TimelineProp::FlipY => {
            token::boolean(s).map(|b| (TimelineCommand::Push(KeyValue::Bool(b)), Role::Boolean))
        }
        _ => number_command(s, Some).map(|c| (c, Role::Number)),
    }
}

/// What a timeline of `prop` takes as a value, for a message.
fn expected_value(prop: TimelineProp) -> &'static str {
    match prop {
        TimelineProp::Color => "a COLOR",
        TimelineProp::Attachment => "an attachment name",
        TimelineProp::FlipX | TimelineProp::FlipY => "`true` or `false`",
        _ => "a number (or `+N`, `*N`)",
    }
}

/// A number value of a timeline or event line: `+N` (added to the key
/// before), `*N` (a factor of it) or `N`, each number passed through
/// `accept` (which may refuse it).
#[inline]
fn number_command(s: &str, accept: impl Fn(f64) -> Option<f64>) -> Option<TimelineCommand> {
    if let Some(v) = s.strip_prefix('+').and_then(token::number) {
        accept(v).map(TimelineCommand::PushAdd)
    } else if let Some(v) = s.strip_prefix('*').and_then(token::number) {
        accept(v).map(TimelineCommand::PushMul)
    } else {
        token::number(s).and_then(accept).map(|v| TimelineCommand::Push(KeyValue::Number(v)))
    }
}

/// The error for a token `s` that a timeline (or event) line cannot read:
/// what `what` line expected there, with a hint for an option that lacks
/// its `>` or a malformed advance.
fn unexpected_command(sp: Span, s: &str, what: &str, expected: &str) -> Diagnostic {
    let d = Diagnostic::error(
        sp,
        format!(
            "unexpected `{}` in {what}: expected {expected}, an advance `->`, options `F:S:E>`, `{{` or `}}`",
            clip(s)
        ),
    );
    if s.contains(':') && !s.ends_with('>') {
        d.hint("options inside a timeline end with `>` or `->`, e.g. `10:>` or `:si->`")
    } else if s.starts_with('-') && s.ends_with('>') {
        d.hint("an advance is hyphens followed by `>`, e.g. `->` or `--->`")
    } else {
        d
    }
}

/// The commands of a timeline or event line's tokens after its head: flow
/// tokens (advances, loops), values (`value` says which tokens are values
/// and their role) and options tokens; any other token is reported with
/// `unexpected`. One command a token, and up to three more for an options
/// token (`F:S:E->` is a frame, a step, an easing and an advance): counted
/// first, so the vector never grows.
fn commands(
    diags: &mut Vec<Diagnostic>,
    roles: &mut Vec<TokenRole>,
    line: &LogicalLine<'_>,
    toks: &[Token<'_>],
    value: impl Fn(&str) -> Option<(TimelineCommand, Role)>,
    unexpected: impl Fn(Span, &str) -> Diagnostic,
) -> Vec<Spanned<TimelineCommand>> {
    let options = toks.iter().filter(|t| t.text.ends_with('>') && t.text.contains(':')).count();
    let mut commands = Vec::with_capacity(toks.len() + 3 * options);
    for t in toks {
        let s = t.text;
        let sp = tok_span(line, t);
        if let Some(role) = flow_command(s, sp, &mut commands) {
            roles.push(TokenRole { span: sp, role });
            continue;
        }
        if let Some((c, role)) = value(s) {
            roles.push(TokenRole { span: sp, role });
            commands.push(Spanned::new(c, sp));
            continue;
        }
        if options_command(diags, line, t, &mut commands) {
            roles.push(TokenRole { span: sp, role: Role::Option });
            continue;
        }
        diags.push(unexpected(sp, s));
    }
    commands
}

pub(super) fn timeline(
    diags: &mut Vec<Diagnostic>,
    roles: &mut Vec<TokenRole>,
    line: &LogicalLine<'_>,
    toks: &[Token<'_>],
    is_slot: bool,
) -> Option<TimelineLine> {
    let head = toks.first()?;
    if head.pos != 2 {
        // The original reads `\t\t` + any character + whitespace as a
        // timeline whatever follows, so this line still counts; say so.
        let indent = span_of(line, 2, head.pos - 2);
        let mut d = Diagnostic::warning(
            indent,
            "timeline indented deeper than two tabs; it is still read as a timeline",
        );
        if line.text[2..head.pos].contains(|c: char| c != '\t') {
            d = d.hint("indent with tabs only");
        }
        diags.push(d);
    }
    let prop =
        if is_slot { TimelineProp::for_slot(head.text) } else { TimelineProp::for_bone(head.text) };
    let Some(prop) = prop else {
        diags.push(prop_error(line, head, is_slot));
        return None;
    };
    roles.push(TokenRole { span: tok_span(line, head), role: Role::Property });
    let commands = commands(
        diags,
        roles,
        line,
        &toks[1..],
        |s| timeline_value(prop, s),
        |sp, s| unexpected_command(sp, s, "timeline", expected_value(prop)),
    );
    if commands.is_empty() {
        diags.push(Diagnostic::warning(
            line_span(line),
            format!("timeline `{}` has no commands; it is ignored", clip(head.text)),
        ));
        return None;
    }
    Some(TimelineLine {
        prop: Spanned::new(prop, tok_span(line, head)),
        commands,
        span: line_span(line),
    })
}
