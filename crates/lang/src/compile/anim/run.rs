//! Running a timeline (LANGUAGE.md §5.1): its commands move the frame,
//! push keys and repeat loops, bounded in steps and keys
//! ([`run_timeline`]).
//!
//! Keys are kept in an arena (the tail of the animation's key list, the kept
//! keys moved down at the end), so discarded loop bodies behave as in the
//! original. Loops that would push more than `MAX_KEYS` (100 000) keys stop
//! with an error instead of hanging. `@` names are resolved as keys are
//! pushed.

use super::keys::{NONE, RawKey, RawValue, Side};
use super::tracks::Place;
use crate::compile::rig::ChildIds;
use crate::compile::source::KeyOrigin;
use crate::compile::{LocalDiag, Ordinal};
use crate::model::*;
use crate::syntax::tree::*;
use crate::syntax::{Diagnostic, Span};

/// Stops a timeline whose loops would push more keys than this (the
/// original would hang).
pub(super) const MAX_KEYS: usize = 100_000;
/// Stops a timeline after running this many commands (loops included).
pub(super) const MAX_STEPS: usize = 2_000_000;

/// What running a timeline gives (its keys are appended to a list the
/// caller gives).
pub(super) struct TimelineRun {
    pub(super) end_frame: f64,
    pub(super) open_loop: bool,
}

/// Buffers a timeline run works in, kept from one timeline to the next so
/// a run allocates nothing but its loops' lists.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) timeline: Vec<usize>,
    pub(super) stack: Vec<LoopState>,
    /// Emptied lists of loop bodies, for the next loop to fill (as many as
    /// loops were ever nested).
    pub(super) spare: Vec<Vec<usize>>,
}

/// A frame number for a message: whole numbers without a fraction.
pub(super) fn fmt_frame(f: f64) -> String {
    if f.fract() == 0.0 && f.abs() < 1e15 { format!("{}", f as i64) } else { format!("{f}") }
}

/// An open loop: where its body starts, the keys kept before it, how
/// many more times it runs (-1: not counted yet) and its `{`.
pub(super) struct LoopState {
    pub(super) start: usize,
    pub(super) prev: Vec<usize>,
    pub(super) count: i64,
    pub(super) span: Span,
}

/// A timeline's (or an event line's) commands and its line.
#[derive(Clone, Copy)]
pub(super) struct Commands<'a> {
    pub(super) list: &'a [Spanned<TimelineCommand>],
    pub(super) line: Span,
}

/// Runs a timeline's commands (LANGUAGE.md §5.1) and returns its keys.
pub(super) fn run_timeline(
    tl: Commands<'_>,
    start: Opts,
    at: Place<'_>,
    diags: &mut Vec<LocalDiag>,
    scratch: &mut Scratch,
    side: &mut Side,
    out: &mut Vec<RawKey>,
) -> TimelineRun {
    let mut run = TimelineRunner::new(tl, start, at, diags, side, out, std::mem::take(scratch));
    let mut k = 0;
    let mut steps = 0usize;
    while k < tl.list.len() {
        steps += 1;
        if steps > MAX_STEPS || run.arena.len() - run.base > MAX_KEYS {
            run.stop_runaway();
            break;
        }
        k = run.command(k);
    }
    let (result, used) = run.finish();
    *scratch = used;
    result
}

/// The state of [`run_timeline`] between commands.
pub(super) struct TimelineRunner<'a> {
    pub(super) tl: Commands<'a>,
    pub(super) diags: &'a mut Vec<LocalDiag>,
    pub(super) ord: Ordinal,
    /// The slot whose attachments `@` keys name.
    pub(super) slot: Option<(&'a ChildIds<AttachmentId>, u32)>,
    /// Names pushed are event payloads ([`Place::event`]).
    pub(super) event: bool,
    /// Where keys put their colours and absolute frame options.
    pub(super) side: &'a mut Side,
    pub(super) frame: f64,
    pub(super) step: f64,
    pub(super) easing: Easing,
    /// Keys live in an arena, the caller's list from `base` on: loops that
    /// discard their keys leave them there, and a later push at the same
    /// frame still edits the discarded key, as in the original. The keys
    /// kept are moved down over the others at the end.
    pub(super) arena: &'a mut Vec<RawKey>,
    pub(super) base: usize,
    /// Indices into `arena` of the keys kept so far (of the innermost loop),
    /// in the order they were made.
    pub(super) timeline: Vec<usize>,
    pub(super) stack: Vec<LoopState>,
    /// See [`Scratch::spare`].
    pub(super) spare: Vec<Vec<usize>>,
    pub(super) last_push: f64,
    /// The last value pushed when a number, else 0 (what `+N` and `*N` use).
    pub(super) last_number: f64,
    pub(super) last_key: Option<usize>,
    /// The absolute frame option that set the current frame, if the last
    /// move was one.
    pub(super) placed_by: Option<(Span, f64)>,
    /// `placed_by`'s index in [`Side::placed`], once a key used it.
    pub(super) placed_at: Option<u32>,
    /// A key past [`MAX_KEY_FRAME`] was reported.
    pub(super) too_late: bool,
}

impl<'a> TimelineRunner<'a> {
    /// A run at the options in effect where the timeline starts.
    pub(super) fn new(
        tl: Commands<'a>,
        start: Opts,
        at: Place<'a>,
        diags: &'a mut Vec<LocalDiag>,
        side: &'a mut Side,
        arena: &'a mut Vec<RawKey>,
        mut scratch: Scratch,
    ) -> Self {
        scratch.timeline.clear();
        scratch.stack.clear();
        TimelineRunner {
            tl,
            diags,
            ord: at.ord,
            slot: at.slot,
            event: at.event,
            side,
            frame: start.frame.unwrap_or(0.0),
            step: start.step.unwrap_or(5.0),
            easing: start.easing.unwrap_or(Easing::Linear),
            base: arena.len(),
            arena,
            timeline: scratch.timeline,
            stack: scratch.stack,
            spare: scratch.spare,
            last_push: -1.0,
            last_number: 0.0,
            last_key: None,
            placed_by: None,
            placed_at: None,
            too_late: false,
        }
    }

    /// Too many steps or keys: keeps what was pushed so far, as if the open
    /// loops ended here, and reports it.
    pub(super) fn stop_runaway(&mut self) {
        while let Some(s) = self.stack.pop() {
            let mut prev = s.prev;
            prev.append(&mut self.timeline);
            self.timeline = prev;
        }
        self.diags.push(LocalDiag {
            ord: self.ord,
            diag: Diagnostic::error(
                self.tl.line,
                format!(
                    "this timeline's loops would push too many keys; only the first {} are kept",
                    self.timeline.len()
                ),
            )
            .hint("lower the loop counts `}[n]`"),
        });
    }

    /// Runs command `k`; returns the index of the next one.
    pub(super) fn command(&mut self, k: usize) -> usize {
        let cmd = &self.tl.list[k];
        match &cmd.node {
            TimelineCommand::SetFrame(v) => {
                if *v > self.frame {
                    self.placed_by = Some((cmd.span, self.frame));
                    self.placed_at = None;
                    self.frame = *v;
                }
            }
            TimelineCommand::SetStep(v) => self.step = *v,
            TimelineCommand::AdvanceSteps(n) => {
                self.frame += self.step * f64::from(*n);
                self.placed_by = None;
                self.placed_at = None;
            }
            TimelineCommand::AdvanceFrames(v) => {
                self.frame += v;
                self.placed_by = None;
                self.placed_at = None;
            }
            TimelineCommand::SetEasing(e) => {
                self.easing = *e;
                if let Some(lk) = self.last_key {
                    self.arena[lk].easing = *e;
                }
            }
            c @ (TimelineCommand::Push(_)
            | TimelineCommand::PushAdd(_)
            | TimelineCommand::PushMul(_)) => self.push(c, cmd.span),
            TimelineCommand::BeginLoop => {
                let body = self.spare.pop().unwrap_or_default();
                self.stack.push(LoopState {
                    start: k + 1,
                    prev: std::mem::replace(&mut self.timeline, body),
                    count: -1,
                    span: cmd.span,
                });
            }
            TimelineCommand::EndLoop(n) => return self.end_loop(k, *n),
        }
        k + 1
    }

    /// A push command (`=`, `+`, `*`): a new key at the current frame, or
    /// an edit of the last one when it is at the same frame.
    pub(super) fn push(&mut self, cmd: &TimelineCommand, span: Span) {
        let value = self.pushed_value(cmd);
        let frame = self.frame;
        if frame.is_nan() || frame > MAX_KEY_FRAME {
            self.report_too_late(frame, span);
            return;
        }
        let value = match (value, cmd) {
            (RawValue::Color(_), TimelineCommand::Push(KeyValue::Color(c))) => {
                self.side.colors.push(**c);
                RawValue::Color(self.side.colors.len() as u32 - 1)
            }
            (v, _) => v,
        };
        let origin = if !self.stack.is_empty() {
            KeyOrigin::Loop
        } else if matches!(cmd, TimelineCommand::Push(_)) {
            KeyOrigin::Plain
        } else {
            KeyOrigin::Relative
        };
        let key = if frame == self.last_push
            && let Some(lk) = self.last_key
        {
            let k = &mut self.arena[lk];
            k.value = value;
            k.easing = Easing::Linear;
            k.span = span;
            k.origin = origin;
            lk
        } else {
            self.new_key(frame, value, span, origin)
        };
        if self.easing != Easing::Linear {
            self.arena[key].easing = self.easing;
        }
        self.last_push = frame;
        self.last_number = value.number().unwrap_or(0.0);
        self.last_key = Some(key);
    }

    /// The value push command `cmd` makes (a colour's is pushed to the
    /// side list once the key is kept).
    fn pushed_value(&mut self, cmd: &TimelineCommand) -> RawValue {
        let prev = self.last_number;
        match cmd {
            TimelineCommand::Push(KeyValue::Number(v)) => RawValue::Number(*v),
            TimelineCommand::Push(KeyValue::Bool(b)) => RawValue::Bool(*b),
            TimelineCommand::Push(KeyValue::Name(n)) if self.event => {
                self.side.texts.push(n.clone());
                RawValue::Text(self.side.texts.len() as u32 - 1)
            }
            TimelineCommand::Push(KeyValue::Name(n)) => {
                RawValue::Attachment(self.slot.and_then(|(ids, s)| ids.get(s, n)))
            }
            // (Pushed to the side list below, when the key is kept.)
            TimelineCommand::Push(KeyValue::Color(_)) => RawValue::Color(NONE),
            TimelineCommand::PushAdd(v) => RawValue::Number(prev + v),
            TimelineCommand::PushMul(v) => RawValue::Number(prev * v),
            _ => unreachable!("only called for pushes"),
        }
    }

    /// A key at `frame`, beyond the longest animation allowed: it is
    /// dropped (the keys before it stay), reported once per timeline.
    fn report_too_late(&mut self, frame: f64, span: Span) {
        if self.too_late {
            return;
        }
        self.too_late = true;
        let diag = Diagnostic::error(
            span,
            format!(
                "this key falls on frame {}, after the last frame an animation may use ({}); it is dropped, as is any other key of this timeline past that frame",
                fmt_frame(frame),
                fmt_frame(MAX_KEY_FRAME)
            ),
        )
        .hint("animations are limited to 1 000 000 frames (see LANGUAGE-EXT.md); check the frame numbers and loop counts");
        self.diags.push(LocalDiag { ord: self.ord, diag });
    }

    /// A new key kept in the arena (with the absolute frame option that
    /// placed it, if one did); returns its index there.
    fn new_key(&mut self, frame: f64, value: RawValue, span: Span, origin: KeyOrigin) -> usize {
        let placed_by = match (self.placed_by, self.placed_at) {
            (None, _) => NONE,
            (Some(_), Some(i)) => i,
            (Some(p), None) => {
                self.side.placed.push(p);
                let i = self.side.placed.len() as u32 - 1;
                self.placed_at = Some(i);
                i
            }
        };
        self.arena.push(RawKey { frame, value, easing: Easing::Linear, span, origin, placed_by });
        self.timeline.push(self.arena.len() - 1);
        self.arena.len() - 1
    }

    /// `}[n]` at command `k`: repeats the loop or closes it; returns the
    /// index of the next command.
    pub(super) fn end_loop(&mut self, k: usize, n: f64) -> usize {
        let Some(top) = self.stack.last_mut() else {
            self.diags.push(LocalDiag {
                ord: self.ord,
                diag: Diagnostic::warning(
                    self.tl.list[k].span,
                    "`}` without a matching `{` is ignored",
                ),
            });
            return k + 1;
        };
        if top.count == -1 {
            if n == 0.0 {
                if let Some(s) = self.stack.pop() {
                    let mut body = std::mem::replace(&mut self.timeline, s.prev);
                    body.clear();
                    self.spare.push(body);
                }
                return k + 1;
            }
            top.count = n.min(1e12) as i64;
        }
        top.count -= 1;
        if top.count > 0 {
            return top.start;
        }
        if let Some(s) = self.stack.pop() {
            let mut prev = s.prev;
            prev.append(&mut self.timeline);
            let body = std::mem::replace(&mut self.timeline, prev);
            self.spare.push(body);
        }
        k + 1
    }

    /// Drops the keys of a loop left open (reported) and leaves the keys
    /// kept at the end of the caller's list; gives its buffers back.
    pub(super) fn finish(mut self) -> (TimelineRun, Scratch) {
        let open_loop = !self.stack.is_empty();
        if let Some(first) = self.stack.first() {
            self.diags.push(LocalDiag {
                ord: self.ord,
                diag: Diagnostic::error(
                    first.span,
                    "`{` is never closed; the keys pushed after it are dropped",
                )
                .hint("close the loop with `}` or `}[n]`"),
            });
            let outer = self.stack.swap_remove(0).prev;
            self.timeline = outer;
        }
        // The keys kept are in the order they were made, so each moves down
        // (or stays): unless a loop discarded keys, all of them stay.
        let kept = self.timeline.len();
        if self.base + kept != self.arena.len() {
            for (j, &i) in self.timeline.iter().enumerate() {
                debug_assert!(i >= self.base + j);
                self.arena[self.base + j] = self.arena[i];
            }
            self.arena.truncate(self.base + kept);
        }
        let run = TimelineRun { end_frame: self.frame, open_loop };
        (run, Scratch { timeline: self.timeline, stack: self.stack, spare: self.spare })
    }
}
