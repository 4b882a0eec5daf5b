//! The curve editor's text edit: the easing of one segment (from a key to
//! the next) written into the options token after the key, proven by
//! compiling the result (`check`).
//!
//! An options token's `E` eases the key pushed last and every key after it
//! (LANGUAGE.md §5.1), so the edit writes the new easing between key K and
//! key K+1 and, when K+1 has no easing of its own written after it, writes
//! K+1's old easing back there, so that the keys after the segment keep
//! theirs. A timeline's last key shapes no segment: its easing is free.

#[cfg(test)]
mod tests;

use std::ops::Range;

use crate::text_edit::{TextEdit as Edit, apply};
use skelpad_lang::compile::{Compilation, KeyOrigin, KeySource, TimelineSource};
use skelpad_lang::model::{AnimId, CubicBezier, Easing};
use skelpad_lang::syntax::token::{self, EasingOpt};

use super::key_easing;

/// A handle's number as the curve editor writes it: at most three
/// decimals, no trailing zeros, no `-0` (`0.333`, `1.5`, `-0.25`).
pub fn format_handle(v: f64) -> String {
    let r = (v * 1000.0).round() / 1000.0;
    let r = if r == 0.0 { 0.0 } else { r };
    format!("{r}")
}

/// `bz(X1,Y1,X2,Y2)` with each number as [`format_handle`] writes it.
pub fn bezier_text(b: CubicBezier) -> String {
    let [x1, y1, x2, y2] = b.to_array().map(format_handle);
    format!("bz({x1},{y1},{x2},{y2})")
}

/// The easing a text names (`so`, `ease-out`, `bz(0.2,0,0.4,1)`), or why
/// it is none.
pub fn parse_easing(text: &str) -> Result<Easing, String> {
    let tok = format!("::{text}>");
    let opts = token::options(&tok, true);
    match opts.and_then(|o| o.easing) {
        Some(EasingOpt::Known(e)) => Ok(e),
        Some(EasingOpt::BadBezier { why, .. }) => Err(format!("`{text}`: {why}")),
        _ => Err(format!("`{text}` is not an easing (li si so sio, a preset, or bz(X1,Y1,X2,Y2))")),
    }
}

/// The handles of a cubic bezier that draws `e` (exactly for beziers and
/// linear, closely for the sines: the curves easings.net gives for
/// them): where dragging a handle of a non-bezier segment starts from.
pub fn as_bezier(e: Easing) -> CubicBezier {
    match e {
        Easing::Bezier(b) => b,
        Easing::Linear => CubicBezier::new(0.333, 0.333, 0.667, 0.667),
        Easing::SineIn => CubicBezier::new(0.12, 0.0, 0.39, 0.0),
        Easing::SineOut => CubicBezier::new(0.61, 1.0, 0.88, 1.0),
        Easing::SineInOut => CubicBezier::new(0.37, 0.0, 0.63, 1.0),
    }
}

/// One whitespace-separated token of the text, with its byte range.
struct Tok<'a> {
    range: Range<usize>,
    text: &'a str,
}

/// The tokens of `text[range]`: advances and options tokens only (a loop
/// brace or anything else between two keys is refused).
fn gap_tokens(text: &str, range: Range<usize>) -> Result<Vec<Tok<'_>>, String> {
    let slice = text.get(range.clone()).ok_or("the key's text is out of date")?;
    let mut out = Vec::new();
    let mut pos = 0;
    for tok in slice.split_whitespace() {
        let at = pos + slice[pos..].find(tok).unwrap_or(0);
        pos = at + tok.len();
        if tok.starts_with('{') || tok.starts_with('}') {
            return Err("a loop brace stands between the keys: the easing would apply to every pass of the loop".into());
        }
        if token::advance(tok).is_none() && token::options(tok, true).is_none() {
            return Err(format!("`{tok}` stands between the keys"));
        }
        out.push(Tok { range: range.start + at..range.start + pos, text: tok });
    }
    Ok(out)
}

/// The edit that makes the gap `range` (between two keys) set the easing
/// `easing`: the easing of its last options token that has one replaced;
/// else written into its last options token; else its first advance
/// becomes `::E-…->`. `None` when the gap has no token at all.
fn gap_easing(text: &str, range: Range<usize>, easing: &str) -> Result<Option<Edit>, String> {
    let toks = gap_tokens(text, range)?;
    let body_of = |t: &str| t.strip_suffix('>').unwrap_or(t).trim_end_matches('-').len();
    let with = toks.iter().rev().find_map(|t| {
        let o = token::options(t.text, true)?;
        o.easing.map(|_| (t, o.easing_pos))
    });
    if let Some((t, pos)) = with {
        let r = t.range.start + pos..t.range.start + body_of(t.text);
        return Ok(Some(Edit::replace(r, easing.to_owned())));
    }
    if let Some(t) = toks.iter().rev().find(|t| token::options(t.text, true).is_some()) {
        let end = body_of(t.text);
        let body = &t.text[..end];
        // `F:` → `F::E`, `F:S` → `F:S:E`, `:S` → `:S:E`, `F:S:` → `F:S:E`.
        let add =
            if body.matches(':').count() == 2 { easing.to_owned() } else { format!(":{easing}") };
        let at = t.range.start + end;
        return Ok(Some(Edit::replace(at..at, add)));
    }
    Ok(toks.first().map(|t| Edit::replace(t.range.start..t.range.start, format!("::{easing}"))))
}

/// Whether the gap `range` writes an easing.
fn gap_has_easing(text: &str, range: Range<usize>) -> Result<bool, String> {
    Ok(gap_tokens(text, range)?
        .iter()
        .any(|t| token::options(t.text, true).is_some_and(|o| o.easing.is_some())))
}

/// The edits that give the segment after key `key` of timeline `timeline`
/// of `anim` the easing `easing` (a name or `bz(…)`, as written), keeping
/// every key where it is with its value, and every other segment's easing;
/// or why the text cannot say that.
pub fn set_easing(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    key: usize,
    easing: &str,
) -> Result<Vec<Edit>, String> {
    let new = parse_easing(easing)?;
    let tl = comp.sources.timelines.get(timeline).ok_or("no such timeline")?;
    if tl.anim != anim {
        return Err("the timeline is not in this animation".into());
    }
    if !tl.effective {
        return Err("a later line for the same item and property replaces this timeline: edit the easing on that one".into());
    }
    let keys = comp.sources.keys_of(tl);
    let k = keys.get(key).ok_or("no such key")?;
    let next = keys.get(key + 1).ok_or("the last key has no segment after it to ease")?;
    let Some(old) = key_easing(comp, anim, tl, k) else {
        return Err("this property's keys are not eased (slot colours run linearly, flips and attachments are stepped)".into());
    };
    if [k, next].iter().any(|k| k.origin == KeyOrigin::Loop) {
        return Err(
            "this segment is made by a loop `{ … }`: its easing is the loop body's, for every pass"
                .into(),
        );
    }
    if old == new {
        return Ok(Vec::new());
    }
    let gap = k.span.end as usize..next.span.start as usize;
    let mut edits =
        vec![gap_easing(text, gap, easing)?.ok_or("nothing stands between the key and the next")?];
    // The key after keeps its easing (and through it the keys after it).
    if let Some(after) = keys.get(key + 2) {
        let gap = next.span.end as usize..after.span.start as usize;
        let kept = key_easing(comp, anim, tl, next);
        if !gap_has_easing(text, gap.clone())? && kept.is_some_and(|e| e != new) {
            if after.origin == KeyOrigin::Loop {
                return Err(
                    "the next segment is made by a loop: the easing would run into it".into()
                );
            }
            let kept = kept.map(|e| e.to_string()).unwrap_or_default();
            edits.extend(gap_easing(text, gap, &kept)?);
        }
    }
    check(text, comp, anim, (timeline, key), new, &edits)?;
    Ok(edits)
}

/// Compiles the edited text and checks that every key of `anim` is where
/// it was with the same value token and value, that the segment `at`
/// (timeline, key) has the easing `new`, every other segment its old one
/// (a timeline's last key shapes none), and that no error appeared.
fn check(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    at: (usize, usize),
    new: Easing,
    edits: &[Edit],
) -> Result<(), String> {
    let refuse =
        |why: &str| Err(format!("the rewrite would not be exact ({why}); nothing changed"));
    let new_text = apply(text, edits);
    let after = skelpad_lang::compile::compile(&new_text);
    let errors = |c: &Compilation| c.diagnostics.iter().filter(|d| d.is_error()).count();
    if errors(&after) > errors(comp) {
        return refuse("it would add an error");
    }
    let tls = |c: &Compilation| -> Vec<(usize, TimelineSource)> {
        c.sources.timelines.iter().cloned().enumerate().filter(|(_, t)| t.anim == anim).collect()
    };
    let (old_tls, new_tls) = (tls(comp), tls(&after));
    if old_tls.len() != new_tls.len() {
        return refuse("the timelines changed");
    }
    for ((i, a), (_, b)) in old_tls.iter().zip(&new_tls) {
        if (a.target, a.prop, a.effective) != (b.target, b.prop, b.effective) {
            return refuse("the timelines changed");
        }
        let (ka, kb) = (comp.sources.keys_of(a), after.sources.keys_of(b));
        if ka.len() != kb.len() {
            return refuse("a key would appear or vanish");
        }
        for (j, (x, y)) in ka.iter().zip(&kb).enumerate() {
            if !same_key(text, x, &new_text, y) {
                return refuse("a key would move or change its value");
            }
            let want = if (*i, j) == at { Some(new) } else { key_easing(comp, anim, a, x) };
            if j + 1 < ka.len() && want != key_easing(&after, anim, b, y) {
                return refuse("another segment's easing would change");
            }
        }
    }
    Ok(())
}

/// Key `a` of `text` and key `b` of `new_text` are at the same frame with
/// the same value token, value and origin.
fn same_key(text: &str, a: &KeySource, new_text: &str, b: &KeySource) -> bool {
    let value = match (a.value, b.value) {
        (Some(x), Some(y)) => (x - y).abs() < 1e-9,
        (x, y) => x == y,
    };
    (a.frame - b.frame).abs() < 1e-9
        && value
        && a.origin == b.origin
        && text.get(a.span.range()) == new_text.get(b.span.range())
}
