//! The text edits of the dopesheet: moving, deleting, inserting and pasting
//! keys, each proven by compiling the result (`verify`).

#[cfg(test)]
mod tests;

use crate::text_edit::{TextEdit as Edit, apply};
use skelpad_lang::compile::{Compilation, KeyOrigin, KeySource, TimelineSource};
use skelpad_lang::model::AnimId;
use skelpad_lang::syntax::token;

use super::{CopiedKey, format_number, key_easing, model_key, target_name};

/// The frame tokens between two keys (or before a timeline's first key):
/// those that move the frame (advances and frame options).
struct Gap<'a> {
    /// Every token in the gap that moves the frame, with its byte range.
    movers: Vec<(std::ops::Range<usize>, &'a str)>,
}

/// Reads the tokens of `text[range]`: each must be an advance (`-->`) or an
/// options token (`F:S:E>`); a loop brace or anything else is refused.
fn gap(text: &str, range: std::ops::Range<usize>) -> Result<Gap<'_>, String> {
    let mut movers = Vec::new();
    let slice = text.get(range.clone()).ok_or("the key's text is out of date")?;
    let mut pos = 0;
    for tok in slice.split_whitespace() {
        let at = pos + slice[pos..].find(tok).unwrap_or(0);
        pos = at + tok.len();
        let r = range.start + at..range.start + pos;
        if tok.starts_with('{') || tok.starts_with('}') {
            return Err("a loop brace stands between this key and its neighbour".into());
        }
        if let Some(n) = token::advance(tok) {
            if n > 0 {
                movers.push((r, tok));
            }
            continue;
        }
        match token::options(tok, true) {
            Some(o) => {
                if o.frame.is_some() || o.advance > 0 {
                    movers.push((r, tok));
                }
            }
            None => return Err(format!("`{tok}` stands between this key and its neighbour")),
        }
    }
    Ok(Gap { movers })
}

/// The options token `tok` (or a plain advance) rewritten to set the frame
/// to `frame` and advance no further, its step and easing kept:
/// `-->` → `14:>`, `:3:so->` → `14:3:so>`, `10:->` → `14:>`, `:so->` →
/// `14::so>` (not `14:so>`, which reads as step 14, easing `so`), `3:so->`
/// → `14:3:so>`.
fn absolute(tok: &str, frame: f64) -> String {
    let f = format_number(frame);
    let Some(o) = token::options(tok, true) else { return format!("{f}:>") };
    let body = tok.strip_suffix('>').unwrap_or(tok).trim_end_matches('-');
    let easing = o.easing.and_then(|_| body.get(o.easing_pos..));
    match (o.step, easing) {
        (None, None) => format!("{f}:>"),
        (Some(s), None) => format!("{f}:{s}>"),
        (None, Some(e)) => format!("{f}::{e}>"),
        (Some(s), Some(e)) => format!("{f}:{s}:{e}>"),
    }
}

/// `+N:…>` with `N` changed by `by`; `None` when `tok` is not relative or
/// `N` would fall below 0.
fn relative(tok: &str, by: f64) -> Option<String> {
    let o = token::options(tok, true)?;
    let f = o.frame.filter(|f| f.relative)?;
    let n = f.value + by;
    if n < -1e-9 {
        return None;
    }
    let colon = tok.find(':')?;
    Some(format!("+{}{}", format_number(n.max(0.0)), &tok[colon..]))
}

/// The edits that bring the frame to `frame` at the end of the gap
/// `range`, given that the gap brings it there from `d` frames earlier
/// (`d` is the move: the frame at the gap's start moved by `-d`).
fn retime(
    text: &str,
    range: std::ops::Range<usize>,
    frame: f64,
    d: f64,
) -> Result<Vec<Edit>, String> {
    let g = gap(text, range.clone())?;
    match g.movers.as_slice() {
        [(r, tok)] => {
            if token::options(tok, true).and_then(|o| o.frame).is_some_and(|f| f.relative) {
                let t = relative(tok, d).ok_or("the advance before the key would be negative")?;
                Ok(vec![Edit::replace(r.clone(), t)])
            } else {
                Ok(vec![Edit::replace(r.clone(), absolute(tok, frame))])
            }
        }
        // Nothing moves the frame (a first key): only a later frame can be set.
        [] if d > 0.0 => {
            Ok(vec![Edit::replace(range.end..range.end, format!("{}:> ", format_number(frame)))])
        }
        [] => Err(format!(
            "the timeline starts at frame {} (its item's or animation's `F:` option): a key cannot go before it",
            format_number(frame - d)
        )),
        // Several advances: an absolute frame after them sets a later frame.
        _ if d > 0.0 => {
            Ok(vec![Edit::replace(range.end..range.end, format!("{}:> ", format_number(frame)))])
        }
        _ => Err("several advances stand before the key: write `F:>` before it to move it".into()),
    }
}

/// The key's frame token when an absolute `F:>` placed it: `F` replaced.
fn replace_frame(text: &str, span: skelpad_lang::syntax::Span, frame: f64) -> Option<Edit> {
    let tok = text.get(span.range())?;
    let colon = tok.find(':')?;
    Some(Edit::replace(span.start as usize..span.start as usize + colon, format_number(frame)))
}

/// The key's frame option without its frame: `F:>` goes with the space
/// after it, `F:S:E>` becomes `:S:E>`.
fn drop_frame(text: &str, span: skelpad_lang::syntax::Span) -> Option<Edit> {
    let tok = text.get(span.range())?;
    let colon = tok.find(':')?;
    let start = span.start as usize;
    if &tok[colon..] == ":>" {
        let after = text.get(span.end as usize..)?;
        let spaces = after.len() - after.trim_start_matches([' ', '\t']).len();
        return Some(Edit::replace(start..span.end as usize + spaces, String::new()));
    }
    Some(Edit::replace(start..start + colon, String::new()))
}

/// Where the gap before key `k` of `tl` starts: after the key before it, or
/// after the property token for the first key.
fn gap_start(text: &str, tl: &TimelineSource, keys: &[KeySource], k: usize) -> usize {
    if k > 0 {
        return keys[k - 1].span.end as usize;
    }
    let start = tl.line.start as usize;
    let rest = text.get(start..).unwrap_or("");
    start + rest.find(char::is_whitespace).unwrap_or(rest.len())
}

/// Timeline `timeline` of `anim` and its keys, when key `key` of it is one
/// the dopesheet may move or delete: the timeline is the one that plays
/// (no later line replaces it) and the key's value is a plain token (not
/// made by a loop, not relative to the key before); or why not.
fn plain_key(
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    key: usize,
) -> Result<(&TimelineSource, Vec<KeySource>), String> {
    let src = &comp.sources;
    let tl = src.timelines.get(timeline).ok_or("no such timeline")?;
    if tl.anim != anim {
        return Err("the timeline is not in this animation".into());
    }
    if !tl.effective {
        return Err("a later line for the same item and property replaces this timeline: edit the keys on that one".into());
    }
    let keys = src.keys_of(tl);
    match keys.get(key).ok_or("no such key")?.origin {
        KeyOrigin::Loop => {
            Err("this key is made by a loop `{ … }`: its frame follows the loop's".into())
        }
        KeyOrigin::Relative => Err("this key's value is relative (`+N`/`*N`) to the key before: moving or removing it would change the keys after it".into()),
        KeyOrigin::Plain => Ok((tl, keys)),
    }
}

/// The edits that move key `key` of timeline `timeline` (an index into
/// `comp.sources.timelines`) of `anim` to frame `new_frame`, keeping every
/// other key of the animation where it is; or why not.
pub fn move_key(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    key: usize,
    new_frame: f64,
) -> Result<Vec<Edit>, String> {
    let (tl, keys) = plain_key(comp, anim, timeline, key)?;
    let k = &keys[key];
    if !new_frame.is_finite() || new_frame < 0.0 {
        return Err("a key cannot go before frame 0".into());
    }
    let d = new_frame - k.frame;
    if d.abs() < 1e-9 {
        return Ok(Vec::new());
    }
    if key > 0 && new_frame <= keys[key - 1].frame + 1e-9 {
        return Err(format!(
            "frame {} is on or before the key before it (frame {})",
            format_number(new_frame),
            format_number(keys[key - 1].frame)
        ));
    }
    if let Some(next) = keys.get(key + 1)
        && new_frame >= next.frame - 1e-9
    {
        return Err(format!(
            "frame {} is on or past the key after it (frame {})",
            format_number(new_frame),
            format_number(next.frame)
        ));
    }
    let mut edits = Vec::new();
    // Before the key: its `F:>`, else the advance from the key before.
    match k.placed_by {
        Some((span, before)) => {
            if new_frame < before - 1e-9 {
                return Err(format!(
                    "the frame option `{}` cannot set a frame before {}: edit the advances before it",
                    text.get(span.range()).unwrap_or("?"),
                    format_number(before)
                ));
            }
            // Onto the frame the option starts from: the option's frame goes
            // (`2:> 0` → `0`), its step and easing stay.
            let edit = if new_frame <= before + 1e-9 {
                drop_frame(text, span)
            } else {
                replace_frame(text, span, new_frame)
            };
            edits.push(edit.ok_or("the frame option is not `F:`")?);
        }
        None => edits.extend(retime(
            text,
            gap_start(text, tl, &keys, key)..k.span.start as usize,
            new_frame,
            d,
        )?),
    }
    // After the key: the next key keeps its frame (one an absolute `F:>`
    // placed stays where it is by itself).
    if let Some(next) = keys.get(key + 1)
        && next.placed_by.is_none()
    {
        edits.extend(retime(text, k.span.end as usize..next.span.start as usize, next.frame, -d)?);
    }
    verify(text, comp, anim, timeline, key, Change::Move(new_frame), &edits)?;
    Ok(edits)
}

/// The edits that delete key `key` of timeline `timeline` of `anim`,
/// keeping every other key of the animation where it is; or why not.
pub fn delete_key(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    key: usize,
) -> Result<Vec<Edit>, String> {
    let (tl, keys) = plain_key(comp, anim, timeline, key)?;
    let k = &keys[key];
    if keys.len() == 1 {
        return Err("it is its timeline's only key: delete the line instead".into());
    }
    let mut edits = Vec::new();
    match keys.get(key + 1) {
        Some(next) if next.origin == KeyOrigin::Relative => {
            return Err("the key after it is relative to it (`+N`/`*N`)".into());
        }
        Some(next) => {
            // The key and the advance after it go; what brought the frame to
            // the key now brings it to the next key (unless an `F:>` before
            // the next key puts it there by itself).
            // (Up to the `F:>` that places the next key, which stays.)
            let end = next.placed_by.map_or(next.span.start, |(s, _)| s.start) as usize;
            let mut removal = Edit::replace(k.span.start as usize..end, String::new());
            if next.placed_by.is_none() {
                let before = match k.placed_by {
                    Some((span, _)) => {
                        vec![
                            replace_frame(text, span, next.frame)
                                .ok_or("the frame option is not `F:`")?,
                        ]
                    }
                    None => retime(
                        text,
                        gap_start(text, tl, &keys, key)..k.span.start as usize,
                        next.frame,
                        next.frame - k.frame,
                    )?,
                };
                for e in before {
                    if e.span.start == e.span.end && e.span.start == removal.span.start {
                        removal.insert.insert_str(0, &e.insert);
                    } else {
                        edits.push(e);
                    }
                }
            }
            edits.push(removal);
        }
        // The last key: it goes with the advance before it.
        None => {
            let start = keys[key - 1].span.end as usize;
            edits.push(Edit::replace(start..k.span.end as usize, String::new()));
        }
    }
    verify(text, comp, anim, timeline, key, Change::Delete, &edits)?;
    Ok(edits)
}

/// What an edit does to one key, for [`verify`].
#[derive(Clone, Copy)]
pub(crate) enum Change<'a> {
    /// Key `key` goes to this frame.
    Move(f64),
    /// Key `key` goes.
    Delete,
    /// A key with this value token appears at this frame, at index `key`.
    Insert(f64, &'a str),
}

/// Compiles the edited text and checks that every key of `anim` is where
/// it was (same frame, value, value token and easing) but for `change` to
/// key `key` of timeline `timeline`; and that no new error appeared.
pub(crate) fn verify(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    key: usize,
    change: Change<'_>,
    edits: &[Edit],
) -> Result<(), String> {
    let refuse =
        |why: &str| Err(format!("the rewrite would not be exact ({why}); nothing changed"));
    let new_text = apply(text, edits);
    let new = skelpad_lang::compile::compile(&new_text);
    let errors = |c: &Compilation| c.diagnostics.iter().filter(|d| d.is_error()).count();
    if errors(&new) > errors(comp) {
        return refuse("it would add an error");
    }
    let old_tls: Vec<(usize, &TimelineSource)> =
        comp.sources.timelines.iter().enumerate().filter(|(_, t)| t.anim == anim).collect();
    let new_tls: Vec<&TimelineSource> =
        new.sources.timelines.iter().filter(|t| t.anim == anim).collect();
    if old_tls.len() != new_tls.len() {
        return refuse("the timelines changed");
    }
    for ((i, old), new_tl) in old_tls.iter().zip(&new_tls) {
        if old.target != new_tl.target
            || old.prop != new_tl.prop
            || old.effective != new_tl.effective
        {
            return refuse("the timelines changed");
        }
        let here = *i == timeline;
        // What the timeline's keys should be: (frame, value token, the old key).
        let mut expect: Vec<(f64, &str, Option<KeySource>)> = Vec::new();
        for (j, ka) in comp.sources.keys_of(old).into_iter().enumerate() {
            let token = text.get(ka.span.range()).unwrap_or("");
            match change {
                Change::Delete if here && j == key => {}
                Change::Move(f) if here && j == key => expect.push((f, token, Some(ka))),
                _ => expect.push((ka.frame, token, Some(ka))),
            }
        }
        if let Change::Insert(f, token) = change
            && here
        {
            expect.insert(key.min(expect.len()), (f, token, None));
        }
        let b = new.sources.keys_of(new_tl);
        if expect.len() != b.len() {
            return refuse("a key would appear or vanish");
        }
        for ((frame, token, ka), kb) in expect.iter().zip(&b) {
            if (kb.frame - frame).abs() > 1e-9 || Some(*token) != new_text.get(kb.span.range()) {
                return refuse("another key would move");
            }
            let Some(ka) = ka else { continue };
            let same_value = match (ka.value, kb.value) {
                (Some(x), Some(y)) => (x - y).abs() < 1e-9,
                (None, None) => true,
                _ => false,
            };
            if !same_value || ka.origin != kb.origin {
                return refuse("a key's value would change");
            }
            if key_easing(comp, anim, old, ka) != key_easing(&new, anim, new_tl, kb) {
                return refuse("a key's easing would change");
            }
        }
    }
    Ok(())
}

/// The edits that add a key with the value token `value` at `frame` to
/// timeline `timeline` of `anim` (after its first key), keeping every
/// other key where it is; or why not.
pub fn insert_key(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    frame: f64,
    value: &str,
) -> Result<Vec<Edit>, String> {
    let src = &comp.sources;
    let tl = src.timelines.get(timeline).ok_or("no such timeline")?;
    if tl.anim != anim || !tl.effective {
        return Err("not a timeline that plays in this animation".into());
    }
    let keys = src.keys_of(tl);
    if keys.iter().any(|k| (k.frame - frame).abs() < 1e-9) {
        return Err(format!("a key is already at frame {}", format_number(frame)));
    }
    let pos = keys.partition_point(|k| k.frame < frame);
    let Some(prev) = pos.checked_sub(1).and_then(|p| keys.get(p)) else {
        return Err("keys go after a timeline's first key".into());
    };
    if prev.origin == KeyOrigin::Loop {
        return Err("the key before that frame is made by a loop".into());
    }
    let mut edits = vec![Edit::replace(
        prev.span.end as usize..prev.span.end as usize,
        format!(" {}:> {value}", format_number(frame)),
    )];
    if let Some(next) = keys.get(pos) {
        if next.origin != KeyOrigin::Plain {
            return Err("the key after that frame is relative or made by a loop".into());
        }
        if next.placed_by.is_none() {
            edits.extend(retime(
                text,
                prev.span.end as usize..next.span.start as usize,
                next.frame,
                prev.frame - frame,
            )?);
        }
    }
    verify(text, comp, anim, timeline, pos, Change::Insert(frame, value), &edits)?;
    Ok(edits)
}

/// Applies `step` to each of `items` in turn, on the text the steps before
/// it left: the first sees `comp`, each later one a fresh compile of the
/// text so far (so every step is verified against what it edits). `step`
/// returns its edits, or `None` to leave the text as it is; the new text,
/// or the first step's refusal.
pub fn edit_in_turn<T>(
    text: &str,
    comp: &Compilation,
    items: &[T],
    mut step: impl FnMut(&str, &Compilation, &T) -> Result<Option<Vec<Edit>>, String>,
) -> Result<String, String> {
    let mut out = text.to_owned();
    for (n, item) in items.iter().enumerate() {
        let fresh;
        let c = if n == 0 {
            comp
        } else {
            fresh = skelpad_lang::compile::compile(&out);
            &fresh
        };
        if let Some(edits) = step(&out, c, item)? {
            out = apply(&out, &edits);
        }
    }
    Ok(out)
}

/// Pastes `keys` into their items' timelines of `anim` from frame `at`
/// on, each with [`insert_key`] (the text is compiled again after each);
/// the new text, or why not.
pub fn paste_keys(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    keys: &[CopiedKey],
    at: f64,
) -> Result<String, String> {
    edit_in_turn(text, comp, keys, |out, cc, c| {
        let tl = cc
            .sources
            .timelines
            .iter()
            .position(|t| t.anim == anim && t.target == c.target && t.prop == c.prop && t.effective)
            .ok_or_else(|| {
                format!("{} has no such timeline in this animation", target_name(cc, c.target))
            })?;
        insert_key(out, cc, anim, tl, at + c.offset, &c.token).map(Some)
    })
}

/// Moves the keys `keys` (timeline index, key index) of `anim` by `by`
/// frames together, each as [`move_key`] does (the text is compiled again
/// after each; in a timeline the key moving towards its neighbour goes
/// first); the new text, or why not.
pub fn move_keys(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    keys: &[(usize, usize)],
    by: f64,
) -> Result<String, String> {
    let mut keys = keys.to_vec();
    keys.sort_unstable();
    keys.dedup();
    if by > 0.0 {
        keys.reverse();
    }
    let frame_of = |c: &Compilation, (tl, k): (usize, usize)| {
        c.sources.timelines.get(tl).and_then(|t| c.sources.keys_of(t).get(k).map(|k| k.frame))
    };
    edit_in_turn(text, comp, &keys, |out, c, &(tl, k)| {
        let from = frame_of(c, (tl, k)).ok_or("a selected key is gone")?;
        move_key(out, c, anim, tl, k, from + by).map(Some)
    })
}

/// The edits that delete the keys `keys` (timeline index, key index) of
/// `anim`, each verified as [`delete_key`] does (the text is compiled again
/// after each); the new text, or why not.
pub fn delete_keys(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    keys: &[(usize, usize)],
) -> Result<String, String> {
    let mut keys = keys.to_vec();
    // Last first: the indices of the keys still to delete stay valid.
    keys.sort_unstable_by(|a, b| b.cmp(a));
    keys.dedup();
    edit_in_turn(text, comp, &keys, |out, c, &(tl, k)| delete_key(out, c, anim, tl, k).map(Some))
}

/// The value token a key inserted at `frame` in timeline `timeline` of
/// `anim` gets: what the animation has there (numbers between two keys
/// interpolated as the compiled animation eases them, in the units the
/// text writes); after the last key, the last key's value. Keys that are
/// not numbers are copied only where both neighbours agree.
pub fn value_at(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    frame: f64,
) -> Result<String, String> {
    let tl = comp.sources.timelines.get(timeline).ok_or("no such timeline")?;
    let keys = comp.sources.keys_of(tl);
    let pos = keys.partition_point(|k| k.frame <= frame + 1e-9);
    let Some(a) = pos.checked_sub(1).and_then(|p| keys.get(p)) else {
        return Err("keys go after a timeline's first key".into());
    };
    let token = |k: &KeySource| text.get(k.span.range()).unwrap_or_default().to_owned();
    let Some(b) = keys.get(pos) else { return Ok(token(a)) };
    let (Some(va), Some(vb)) = (a.value, b.value) else {
        return if token(a) == token(b) {
            Ok(token(a))
        } else {
            Err("its keys are not numbers and differ around that frame: copy a key and paste it instead".into())
        };
    };
    if (b.frame - a.frame).abs() < 1e-9 {
        return Ok(token(a));
    }
    let t = (frame - a.frame) / (b.frame - a.frame);
    // The compiled key says how the value eases (slot channels: linearly).
    let p = model_key(comp, anim, tl, a.time_secs).map_or(t, |k| k.curve.progress(t));
    let mut span = vb - va;
    if tl.prop == skelpad_lang::syntax::tree::TimelineProp::Rotation {
        // Rotations turn the shorter way round (LANGUAGE.md §5.2).
        span = (span + 180.0).rem_euclid(360.0) - 180.0;
    }
    Ok(format_number(va + span * p))
}

/// The letter a timeline of `prop` is written with.
fn prop_letter(prop: skelpad_lang::syntax::tree::TimelineProp) -> &'static str {
    use skelpad_lang::syntax::tree::TimelineProp as P;
    match prop {
        P::X => "x",
        P::Y => "y",
        P::Rotation | P::R => "r",
        P::ScaleX => "i",
        P::ScaleY => "j",
        P::FlipX => "s",
        P::FlipY => "t",
        P::Attachment => "@",
        P::Color => "c",
        P::G => "g",
        P::B => "b",
        P::A => "a",
    }
}

/// The edits that key property `prop` of `target` (a bone or a slot) in
/// `anim` at `frame` with the value the animation has there ([`value_at`]),
/// through [`insert_key`] (so verified the same way): the dopesheet's K
/// and the language server's "insert key". Refused, with what to write
/// instead, where the text cannot say it with one inserted key: no
/// timeline for the property in the animation, a frame on or before its
/// first key, a key already there, loop and relative neighbours.
pub fn insert_key_for(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    target: skelpad_lang::compile::Target,
    prop: skelpad_lang::syntax::tree::TimelineProp,
    frame: f64,
) -> Result<Vec<Edit>, String> {
    if !(0.0..=skelpad_lang::model::MAX_KEY_FRAME).contains(&frame) {
        return Err(format!("frame {} is not a frame a key can be at", format_number(frame)));
    }
    let name = target_name(comp, Some(target));
    let l = prop_letter(prop);
    let f = format_number(frame);
    let Some(tl) =
        comp.sources.timelines.iter().position(|t| {
            t.anim == anim && t.target == Some(target) && t.prop == prop && t.effective
        })
    else {
        return Err(format!(
            "`{name}` has no `{l}` timeline in this animation: to key it at frame {f}, write `{l} {f}:> VALUE` under a `{name}` item"
        ));
    };
    let value = value_at(text, comp, anim, tl, frame)?;
    insert_key(text, comp, anim, tl, frame, &value)
}

/// Keys at frame `at` in the timelines `timelines` of `anim`, each with the
/// value the animation has there ([`value_at`]) and placed by
/// [`insert_key`] (the text is compiled again after each): the
/// new text, or why not. Keying several timelines (a whole item), one
/// that has a key at `at` already is left as it is.
pub fn insert_keys(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timelines: &[usize],
    at: f64,
) -> Result<String, String> {
    let out = edit_in_turn(text, comp, timelines, |out, c, &tl| {
        let name = c
            .sources
            .timelines
            .get(tl)
            .map(|t| format!("{} {:?}", target_name(c, t.target), t.prop));
        let keyed = c
            .sources
            .timelines
            .get(tl)
            .is_some_and(|t| c.sources.keys_of(t).iter().any(|k| (k.frame - at).abs() < 1e-9));
        if keyed && timelines.len() > 1 {
            // (Keying a whole item: the properties keyed there already stay.)
            return Ok(None);
        }
        let why = |e: String| format!("{}: {e}", name.clone().unwrap_or_default());
        let value = value_at(out, c, anim, tl, at).map_err(why)?;
        insert_key(out, c, anim, tl, at, &value).map(Some).map_err(why)
    })?;
    if out == text {
        return Err(format!(
            "every property chosen has a key at frame {} already",
            format_number(at)
        ));
    }
    Ok(out)
}
