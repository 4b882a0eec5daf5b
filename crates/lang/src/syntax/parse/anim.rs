//! `anim` sections: items and their timelines (LANGUAGE.md §5).

use super::timeline::{easing_error, event_line, timeline};
use super::*;
use crate::syntax::vocab::{self, AnimWord};

/// `^\t\t.\s`: two tabs, any character, whitespace.
pub(super) fn is_timeline_line(text: &str) -> bool {
    // Two ASCII characters after the tabs (nearly always): no decoding.
    if let [b'\t', b'\t', c, d, ..] = *text.as_bytes()
        && c.is_ascii()
        && d.is_ascii()
    {
        return !matches!(c, b'\n' | b'\r') && is_js_space(char::from(d));
    }
    let Some(rest) = text.strip_prefix("\t\t") else { return false };
    let mut chars = rest.chars();
    match chars.next() {
        Some('\n' | '\r' | '\u{2028}' | '\u{2029}') | None => false,
        Some(_) => chars.next().is_some_and(is_js_space),
    }
}

/// The error for `from` or `add` without a quoted name after it.
fn needs_name(word: AnimWord, at: Span) -> Diagnostic {
    if word == AnimWord::From {
        Diagnostic::error(at, "`from` takes the name of an animation in quotes")
            .hint("e.g. `anim \"walk-back\" from \"walk\" reverse`")
    } else {
        Diagnostic::error(at, "`add` takes the name of an animation in quotes, then its weight")
            .hint("e.g. `anim \"walk-breathing\" from \"walk\" add \"breathe\" 0.5`")
    }
}

/// A timeline whose property is not one of the letters of its item's kind.
/// An item's defaults and timing modifiers, as its line sets them.
pub(super) struct ItemOptions {
    opts: Opts,
    delay: Option<Spanned<f64>>,
    chain: Option<Spanned<f64>>,
    pub(super) spring: Option<Spanned<SpringSpec>>,
    pub(super) spring_chain: Option<Spanned<SpringSpec>>,
}

pub(super) fn prop_error(line: &LogicalLine<'_>, head: &Token<'_>, is_slot: bool) -> Diagnostic {
    let mut d = Diagnostic::error(
        tok_span(line, head),
        format!(
            "`{}` is not a {} property",
            clip(head.text),
            if is_slot { "slot" } else { "bone" }
        ),
    );
    d = d.hint(if is_slot {
        "slot timelines are @ (attachment), c (color), r g b a (color components)"
    } else {
        "bone timelines are x y (position), r (rotation), i j (scale), s t (flip x/y)"
    });
    if !is_slot && TimelineProp::for_slot(head.text).is_some() {
        d = d.hint("color and attachment timelines belong to a slot item: `@slot`");
    }
    if head.text.chars().count() > 1
        && head.text.chars().all(|c| if is_slot { "@crgba" } else { "xyrijst" }.contains(c))
    {
        d = d.hint("a timeline has one property: write one line per letter");
    }
    d
}

impl Parser {
    /// `anim ["NAME"] [FPS] [OPTS]` and its items.
    pub(super) fn anim_section(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        rest: &[Ln<'_>],
    ) -> AnimSection {
        self.role(header, &toks[0], Role::SectionKeyword);
        let mut a = AnimSection {
            name: Spanned::new(String::new(), span_of(header, 0, 4)),
            fps: None,
            opts: Opts::default(),
            items: Vec::new(),
            modifiers: AnimModifiers::default(),
            parts: Box::default(),
        };
        // The word waiting for its quoted name (`from`, `add`), and whether
        // the token after `add "NAME"` may be its weight.
        let mut pending: Option<(AnimWord, Span)> = None;
        let mut weight_next = false;
        let mut layers: Vec<AddLayer> = Vec::new();
        for t in &toks[1..] {
            let sp = tok_span(header, t);
            if std::mem::take(&mut weight_next)
                && let Some(w) = token::number(t.text)
                && let Some(layer) = layers.last_mut()
            {
                self.role(header, t, Role::Number);
                layer.weight = Some(Spanned::new(w, sp));
                continue;
            }
            if let Some((word, at)) = pending.take() {
                if let Some(n) = quoted(t.text).filter(|_| t.text.len() >= 2) {
                    self.role(header, t, Role::String);
                    let name = Spanned::new(n.to_string(), sp);
                    if word == AnimWord::From {
                        a.modifiers.from = Some(name);
                    } else {
                        layers.push(AddLayer { anim: name, weight: None });
                        weight_next = true;
                    }
                    continue;
                }
                self.push(needs_name(word, at));
            }
            if let Some(word) = vocab::lookup(vocab::ANIM_MODIFIERS, t.text).copied() {
                self.role(header, t, Role::Option);
                let slot = match word {
                    AnimWord::From | AnimWord::Add => {
                        pending = Some((word, sp));
                        continue;
                    }
                    AnimWord::Reverse => &mut a.modifiers.reverse,
                    AnimWord::Pingpong => &mut a.modifiers.pingpong,
                    AnimWord::Mirror => &mut a.modifiers.mirror,
                    AnimWord::Swap => &mut a.modifiers.swap,
                    AnimWord::Cycle => &mut a.modifiers.cycle,
                };
                *slot = Some(sp);
                continue;
            }
            self.anim_header_token(&mut a, header, t);
        }
        if let Some((word, at)) = pending {
            self.push(needs_name(word, at));
        }
        a.modifiers.add = layers.into_boxed_slice();
        self.anim(&mut a, rest);
        a
    }

    /// A header token that is not a modifier: the name, the frame rate, the
    /// defaults, or an error.
    fn anim_header_token(&mut self, a: &mut AnimSection, header: &LogicalLine<'_>, t: &Token<'_>) {
        if let Some(n) = quoted(t.text) {
            self.role(header, t, Role::String);
            a.name = Spanned::new(n.to_string(), tok_span(header, t));
        } else if let Some(f) = token::fps(t.text) {
            self.role(header, t, Role::Number);
            if f == 0.0 {
                self.push(Diagnostic::warning(
                    tok_span(header, t),
                    "0fps is not a frame rate; 20fps is used",
                ));
            }
            a.fps = Some(f);
        } else if let Some(o) = token::options(t.text, false) {
            self.role(header, t, Role::Option);
            self.apply_opts(&mut a.opts, &o, header, t);
        } else {
            let mut d = Diagnostic::error(tok_span(header, t), format!("unexpected `{}` in animation header", clip(t.text)))
                .hint("the header takes a \"name\", a frame rate like `24fps` and defaults `frame:step:easing` like `0:5:li`")
                .hint("and the timing modifiers `from \"ANIM\"`, `reverse`, `pingpong`, `mirror`, `swap`, `cycle`, `add \"ANIM\" WEIGHT`");
            if t.text.starts_with('"') {
                d = d.hint("names are written in double quotes and cannot contain spaces");
            }
            self.push(d);
        }
    }

    pub(super) fn apply_opts(
        &mut self,
        opts: &mut Opts,
        o: &OptionsTok<'_>,
        line: &LogicalLine<'_>,
        t: &Token<'_>,
    ) {
        if let Some(f) = o.frame {
            opts.frame = Some(f.value);
        }
        if let Some(s) = o.step {
            opts.step = Some(s);
        }
        match &o.easing {
            Some(EasingOpt::Known(e)) => opts.easing = Some(*e),
            Some(bad) => {
                if let Some(d) = easing_error(bad, line, t.pos + o.easing_pos) {
                    self.push(d);
                }
            }
            None => {}
        }
    }

    pub(super) fn anim(&mut self, a: &mut AnimSection, lines: &[Ln<'_>]) {
        a.items.reserve(depth_one_lines(lines));
        let mut item_open = false;
        let mut parts: Vec<SequencePart> = Vec::new();
        for (k, &(line, toks)) in lines.iter().enumerate() {
            if self.skipped(line) {
                continue;
            }
            let text: &str = &line.text;
            let b = text.as_bytes();
            let after_at = if text.starts_with("\t@") || text.starts_with("\t!") { 2 } else { 1 };
            let plen = if text.starts_with('\t') && b.get(1).is_some_and(|&c| c != b'\t') {
                token::path_prefix_len(&text[after_at..])
            } else {
                0
            };
            if text.starts_with("\t\"") {
                // A sequence part; no item is open under it.
                item_open = false;
                if let Some(part) = self.part_line(line, toks) {
                    parts.push(part);
                }
            } else if plen > 0 && boundary(text, after_at + plen) {
                // Room for the lines up to the next item (its timelines).
                let nested = lines[k + 1..]
                    .iter()
                    .take_while(|(l, _)| l.text.as_bytes().get(1).is_some_and(|&c| c == b'\t'))
                    .count();
                let item = self.item_line(line, toks, (after_at, plen), nested);
                a.items.push(item);
                item_open = true;
            } else if b.len() > 1 && b[0] == b'\t' && b[1] != b'\t' {
                // Only a depth-1 line opens or closes an item; this one closes
                // it, so every deeper line up to the next item is ignored.
                item_open = false;
                self.invalid_item(line, "expected an animation item: a bone reference or `@slot`");
            } else if !item_open {
                self.line_outside_items(line);
            } else if let Some(item) =
                a.items.last_mut().filter(|i| i.is_event && b.starts_with(b"\t\t"))
            {
                // Every line under an event item is one of its lines.
                if let Some(ev) = event_line(&mut self.diags, &mut self.roles, line, toks) {
                    item.events.push(ev);
                }
            } else if is_timeline_line(text) {
                let Some(item) = a.items.last_mut() else { continue };
                if let Some(tl) =
                    timeline(&mut self.diags, &mut self.roles, line, toks, item.is_slot)
                {
                    item.timelines.push(tl);
                }
            } else {
                let is_slot = a.items.last().is_some_and(|i| i.is_slot);
                self.not_a_timeline(line, toks, is_slot);
            }
        }
        if !parts.is_empty() {
            a.parts = parts.into_boxed_slice();
        }
    }

    /// `"ANIM" [loops N]`: a part of a sequence (one tab deep).
    fn part_line(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>]) -> Option<SequencePart> {
        let head = toks.first()?;
        let Some(name) = quoted(head.text).filter(|n| head.text.len() >= 2 && !n.is_empty()) else {
            self.push(
                Diagnostic::error(
                    tok_span(line, head),
                    "a sequence part names an animation in quotes",
                )
                .hint("e.g. `\"walk\" loops 2`"),
            );
            return None;
        };
        self.role(line, head, Role::String);
        let mut part = SequencePart {
            anim: Spanned::new(name.to_string(), tok_span(line, head)),
            loops: None,
            span: line_span(line),
        };
        let mut rest = toks[1..].iter();
        while let Some(t) = rest.next() {
            let sp = tok_span(line, t);
            if vocab::lookup(vocab::PART_WORDS, t.text).is_none() {
                self.push(
                    Diagnostic::error(
                        sp,
                        format!("unexpected `{}` after a sequence part", clip(t.text)),
                    )
                    .hint("a part is `\"ANIM\"` or `\"ANIM\" loops N`"),
                );
                continue;
            }
            self.role(line, t, Role::Option);
            let n = rest.next();
            match n.and_then(|n| token::unsigned(n.text).map(|v| (n, v))) {
                Some((n, v)) if v.fract() == 0.0 && (1.0..=f64::from(MAX_LOOPS)).contains(&v) => {
                    self.role(line, n, Role::Number);
                    part.loops = Some(Spanned::new(v as u32, sp.cover(tok_span(line, n))));
                }
                _ => self.push(Diagnostic::error(
                    n.map_or(sp, |n| sp.cover(tok_span(line, n))),
                    format!("`loops` takes a whole number from 1 to {MAX_LOOPS}, e.g. `loops 2`"),
                )),
            }
        }
        Some(part)
    }

    /// A line under no item, before the first item of the section: the
    /// original ignores every deeper line up to the next depth-1 line.
    fn line_outside_items(&mut self, line: &LogicalLine<'_>) {
        let text: &str = &line.text;
        let b = text.as_bytes();
        let mut d = Diagnostic::error(
            line_span(line),
            if is_timeline_line(text) {
                "timeline outside an animation item"
            } else {
                "line outside an animation item"
            },
        )
        .hint("timelines go one tab deeper than a bone or `@slot` item");
        if b.get(2).is_some_and(|&c| c == b' ') {
            d = d.hint("indent with tabs only");
        }
        self.push(d);
        self.skip = Some(Skip { depth: 1, diag: self.diags.len() - 1, count: 0, following: true });
    }

    /// A deeper line under an item that is not a timeline (`is_slot`: the
    /// item's target is a slot).
    fn not_a_timeline(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>], is_slot: bool) {
        let b = line.text.as_bytes();
        if line.depth() == 2 && toks.first().is_some_and(|h| h.pos == 2) {
            // `\t\tPROP` not followed by whitespace, or a property longer
            // than one letter: the original reads neither as a timeline.
            let head = &toks[0];
            let known = if is_slot {
                TimelineProp::for_slot(head.text)
            } else {
                TimelineProp::for_bone(head.text)
            };
            if toks.len() == 1 && known.is_some() {
                self.push(Diagnostic::warning(
                    line_span(line),
                    format!("timeline `{}` has no commands; it is ignored", clip(head.text)),
                ));
            } else {
                self.push(prop_error(line, head, is_slot));
            }
        } else {
            // Inside an item only depth-1 lines open or close items, so
            // an invalid deeper line is skipped alone: the lines after it,
            // however deep, are still read as timelines of the open item.
            let mut d = Diagnostic::error(
                line_span(line),
                "expected a timeline: a property followed by values, e.g. `x 0 -> 10`",
            );
            if b.get(2).is_some_and(|&c| c == b' ') {
                d = d.hint("indent with tabs only");
            } else if line.depth() > 2 {
                d = d.hint("timelines are two tabs deep");
            }
            self.push(d);
        }
    }

    /// An item line (`\tbone`, `\t@slot` or `\t!event`), whose target
    /// runs from byte `after_at` for `plen` bytes, with room for `nested`
    /// lines under it.
    fn item_line(
        &mut self,
        line: &LogicalLine<'_>,
        toks: &[Token<'_>],
        (after_at, plen): (usize, usize),
        nested: usize,
    ) -> AnimItem {
        let text: &str = &line.text;
        let is_event = text.as_bytes()[1] == b'!';
        let is_slot = after_at == 2 && !is_event;
        let target = Spanned::new(
            text[after_at..after_at + plen].to_string(),
            span_of(line, after_at, plen),
        );
        self.role_at(
            span_of(line, 1, after_at - 1 + plen),
            if is_event {
                Role::Event
            } else if is_slot {
                Role::SlotRef
            } else {
                Role::BoneRef
            },
        );
        let ItemOptions { opts, delay, chain, spring, spring_chain } =
            self.item_options(line, toks, is_slot, is_event);
        AnimItem {
            target,
            is_slot,
            opts,
            delay,
            chain,
            spring,
            spring_chain,
            timelines: Vec::with_capacity(if is_event { 0 } else { nested }),
            is_event,
            events: Vec::with_capacity(if is_event { nested } else { 0 }),
        }
    }

    /// The tokens after an item's target: its defaults `frame:step:easing`,
    /// `delay N`, and (bones) `chain N`, `spring HZ DAMPING` and
    /// `spring-chain HZ DAMPING`.
    fn item_options(
        &mut self,
        line: &LogicalLine<'_>,
        toks: &[Token<'_>],
        is_slot: bool,
        is_event: bool,
    ) -> ItemOptions {
        let mut out = ItemOptions {
            opts: Opts::default(),
            delay: None,
            chain: None,
            spring: None,
            spring_chain: None,
        };
        let mut i = 1;
        while let Some(t) = toks.get(i) {
            i += 1;
            if vocab::lookup(vocab::ITEM_MODIFIERS, t.text).is_some() && !is_event {
                self.role(line, t, Role::Option);
                let rest = toks.get(i..).unwrap_or_default();
                i += if t.text.starts_with("spring") {
                    self.spring_modifier(line, t, rest, is_slot, &mut out)
                } else {
                    self.frames_modifier(line, t, rest.first(), is_slot, &mut out)
                };
                continue;
            }
            match token::options(t.text, false) {
                Some(o) => {
                    self.role(line, t, Role::Option);
                    self.apply_opts(&mut out.opts, &o, line, t);
                }
                None => {
                    let mut d = bad_token(line, t, "item option").hint(
                        "an item may set its own defaults `frame:step:easing`, e.g. `10:5:sio`",
                    );
                    d.message = format!("unexpected `{}` after the animation item", clip(t.text));
                    self.push(d);
                }
            }
        }
        out
    }

    /// `delay N` or `chain N` (the word `w`, then `next`): how many tokens
    /// after the word it takes.
    fn frames_modifier(
        &mut self,
        line: &LogicalLine<'_>,
        w: &Token<'_>,
        next: Option<&Token<'_>>,
        is_slot: bool,
        out: &mut ItemOptions,
    ) -> usize {
        let wsp = tok_span(line, w);
        let Some(t) = next else {
            self.push(Diagnostic::error(
                wsp,
                format!("`{0}` takes a number of frames, e.g. `{0} 3`", w.text),
            ));
            return 0;
        };
        let Some(n) = token::unsigned(t.text) else {
            self.push(Diagnostic::error(
                wsp,
                format!("`{0}` takes a number of frames, e.g. `{0} 3`", w.text),
            ));
            return 1;
        };
        self.role(line, t, Role::Number);
        let v = Some(Spanned::new(n, wsp.cover(tok_span(line, t))));
        if w.text == "delay" {
            out.delay = v;
        } else if is_slot {
            self.push(
                Diagnostic::error(
                    wsp,
                    "`chain` delays the bones below a bone; a slot item takes `delay`",
                )
                .hint("`delay N` plays this slot's timelines N frames late"),
            );
        } else {
            out.chain = v;
        }
        1
    }
}
