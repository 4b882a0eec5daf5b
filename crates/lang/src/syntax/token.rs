//! Token grammars (LANGUAGE.md "Terms"), written with nom. Each public
//! function recognizes one whole token or returns `None`.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, digit1};
use nom::combinator::{opt, recognize};
use nom::sequence::{delimited, pair, preceded};
use nom::{IResult, Input, Parser};

use crate::model::{Color, CubicBezier, Easing};

// The grammars run over the token's bytes (every literal of the language is
// ASCII, so a recognized part is also a `str` slice of the token), and a
// failed alternative costs nothing: the error type is `()`.
type Res<'a, O> = IResult<&'a [u8], O, ()>;

fn unsigned_lit(i: &[u8]) -> Res<'_, &[u8]> {
    recognize(unsigned_shape).parse(i)
}

/// `[0-9]+(\.[0-9]+)?` without its text (for a whole token, the token is
/// it). nom's `digit1` called directly: no combinator layers on the path
/// every number takes.
fn unsigned_shape(i: &[u8]) -> Res<'_, ()> {
    unsigned_parts(i).map(|(i, _)| (i, ()))
}

/// `[0-9]+(\.[0-9]+)?` as its whole and fractional digits (the latter
/// empty without a point).
fn unsigned_parts(i: &[u8]) -> Res<'_, (&[u8], &[u8])> {
    let (i, whole) = digit1(i)?;
    match i {
        [b'.', frac @ ..] => digit1(frac).map(|(i, frac)| (i, (whole, frac))),
        _ => Ok((i, (whole, &[]))),
    }
}

/// The value of a recognized unsigned literal from its digits: with up to
/// 15 digits the whole number they spell and the power of ten that places
/// the point are exact in an f64, so one division rounds correctly (as
/// [`to_f64`]); longer ones take the general conversion of `lit`.
#[inline]
fn unsigned_value(lit: &[u8], whole: &[u8], frac: &[u8]) -> Option<f64> {
    if whole.len() + frac.len() > 15 {
        return finite(to_f64(lit));
    }
    let digits = |m: u64, d: &[u8]| d.iter().fold(m, |m, &b| m * 10 + u64::from(b - b'0'));
    // Exact: m < 10^15 < 2^53.
    let m = digits(digits(0, whole), frac) as i64 as f64;
    Some(if frac.is_empty() { m } else { m / POW10[frac.len()] })
}

fn number_lit(i: &[u8]) -> Res<'_, &[u8]> {
    recognize((opt(char('-')), digit1, opt((char('.'), digit1)))).parse(i)
}

/// Exact powers of ten (every one up to 10^22 is an f64).
const POW10: [f64; 16] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/// The value of a recognized `-?[0-9]+(\.[0-9]+)?`.
#[inline]
fn to_f64(s: &[u8]) -> f64 {
    // Up to 15 characters (most literals): the digits as a whole number are
    // exact in an f64 (below 10^15), and so is the power of ten that places
    // the point, so one division rounds correctly (the standard library's
    // fast path) instead of running the general decimal conversion.
    let (neg, digits) = match s {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, s),
    };
    if !digits.is_empty() && digits.len() <= 15 {
        let mut m = 0u64;
        let mut scale = 0usize;
        let mut point = false;
        let mut ok = true;
        for &b in digits {
            let d = b.wrapping_sub(b'0');
            if d < 10 {
                m = m * 10 + u64::from(d);
                scale += usize::from(point);
            } else if b == b'.' && !point {
                point = true;
            } else {
                ok = false;
            }
        }
        if ok {
            // Exact: m < 10^15 < 2^53.
            let v = m as i64 as f64;
            let v = if scale > 0 { v / POW10[scale & 15] } else { v };
            return if neg { -v } else { v };
        }
    }
    std::str::from_utf8(s).ok().and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0)
}

/// A recognized literal whose value fits in an f64 (a literal with hundreds
/// of digits would be infinite and poison every matrix).
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

/// Runs `p` over the whole token: `None` unless it matches every byte.
fn whole<'a, O>(mut p: impl Parser<&'a [u8], Output = O, Error = ()>, tok: &'a [u8]) -> Option<O> {
    // As `all_consuming`: the parse must leave nothing over.
    match p.parse(tok) {
        Ok(([], o)) => Some(o),
        _ => None,
    }
}

/// The part of `tok` that `part` (a recognized sub-slice of its bytes) covers.
fn sub<'a>(tok: &'a str, part: &[u8]) -> &'a str {
    let off = (part.as_ptr() as usize).wrapping_sub(tok.as_ptr() as usize).min(tok.len());
    tok.get(off..off + part.len()).unwrap_or_default()
}

/// `NUM`: `-?[0-9]+(\.[0-9]+)?`.
pub fn number(tok: &str) -> Option<f64> {
    number_bytes(tok.as_bytes())
}

fn number_bytes(b: &[u8]) -> Option<f64> {
    // A number starts with a digit or `-` and ends with a digit: most other
    // tokens are turned away here, before the parser runs.
    let (&first, &last) = (b.first()?, b.last()?);
    if !(first.is_ascii_digit() || first == b'-') || !last.is_ascii_digit() {
        return None;
    }
    let (neg, unsigned) = match b {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, b),
    };
    match unsigned_parts(unsigned) {
        Ok(([], (whole, frac))) => {
            let v = unsigned_value(unsigned, whole, frac)?;
            Some(if neg { -v } else { v })
        }
        _ => None,
    }
}

/// `[0-9]+(\.[0-9]+)?`.
pub fn unsigned(tok: &str) -> Option<f64> {
    unsigned_bytes(tok.as_bytes())
}

fn unsigned_bytes(b: &[u8]) -> Option<f64> {
    if !b.first()?.is_ascii_digit() || !b.last()?.is_ascii_digit() {
        return None;
    }
    match unsigned_parts(b) {
        Ok(([], (whole, frac))) => unsigned_value(b, whole, frac),
        _ => None,
    }
}

/// Per byte value: whether it may start a name (bit 0) and whether it may
/// continue one (bit 1). One look-up per byte in the name scanners, which
/// every bone line and timeline item runs.
static NAME_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphabetic() || c == b'_' || c == b'-' {
            t[b] = 3;
        } else if c.is_ascii_digit() {
            t[b] = 2;
        }
        b += 1;
    }
    t
};

pub(crate) fn name_start(c: u8) -> bool {
    NAME_BYTES[c as usize] & 1 != 0
}

fn name_char(c: u8) -> bool {
    NAME_BYTES[c as usize] & 2 != 0
}

fn name_lit(i: &[u8]) -> Res<'_, &[u8]> {
    // One start byte, then nom splits off the run of name bytes.
    match i {
        [c, rest @ ..] if name_start(*c) => {
            let (rest, _) = rest.split_at_position_complete(|c| !name_char(c))?;
            Ok((rest, &i[..i.len() - rest.len()]))
        }
        _ => Err(nom::Err::Error(())),
    }
}

/// Names joined by dots: `NAME(\.NAME)*` (a dot not followed by a name is
/// left over).
fn path_lit(i: &[u8]) -> Res<'_, &[u8]> {
    let (mut rest, _) = name_lit(i)?;
    while let [b'.', tail @ ..] = rest {
        match name_lit(tail) {
            Ok((r, _)) => rest = r,
            Err(_) => break,
        }
    }
    Ok((rest, &i[..i.len() - rest.len()]))
}

/// `NAME`: `[A-Za-z_-][A-Za-z0-9_-]*`.
pub fn is_name(tok: &str) -> bool {
    whole(name_lit, tok.as_bytes()).is_some()
}

/// A dotted path of names.
pub fn is_path(tok: &str) -> bool {
    whole(path_lit, tok.as_bytes()).is_some()
}

/// Length of the longest path at the start of `s` (0 if none).
pub fn path_prefix_len(s: &str) -> usize {
    // A path starts with a name: anything else is turned away before the
    // parser runs.
    if !s.as_bytes().first().is_some_and(|&b| name_start(b)) {
        return 0;
    }
    path_lit(s.as_bytes()).map_or(0, |(_, p)| p.len())
}

/// A color literal as written: hex digits and an optional alpha.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColorLit {
    /// Red, green, blue, 0–255 (`#RGB` digits are doubled: `#F80` is 255, 136, 0).
    pub rgb: [u8; 3],
    /// The `,ALPHA` suffix (0–1, finite) if written; `None` means opaque.
    pub alpha: Option<f64>,
}

impl ColorLit {
    /// Stored the way skeleton and skin sections store colors: 8 bits per
    /// channel, alpha clamped to at most 1 (truncated to 1/255 steps).
    pub fn to_color8(self) -> Color {
        let alpha = self.alpha.unwrap_or(1.0);
        let a8 = (255.0 * alpha).min(255.0).trunc().max(0.0);
        Color::new(
            f64::from(self.rgb[0]) / 255.0,
            f64::from(self.rgb[1]) / 255.0,
            f64::from(self.rgb[2]) / 255.0,
            a8 / 255.0,
        )
    }

    /// Used as written (timeline colors).
    pub fn to_color_exact(self) -> Color {
        Color::new(
            f64::from(self.rgb[0]) / 255.0,
            f64::from(self.rgb[1]) / 255.0,
            f64::from(self.rgb[2]) / 255.0,
            self.alpha.unwrap_or(1.0),
        )
    }
}

fn hex_digits(i: &[u8]) -> Res<'_, &[u8]> {
    take_while1(|c: u8| c.is_ascii_hexdigit()).parse(i)
}

fn color_lit(i: &[u8]) -> Res<'_, ColorLit> {
    let (rest, (hex, alpha)) =
        (preceded(char('#'), hex_digits), opt(preceded(char(','), unsigned_lit))).parse(i)?;
    let nib = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
    let b = hex;
    let rgb = match b.len() {
        3 => [nib(b[0]) * 17, nib(b[1]) * 17, nib(b[2]) * 17],
        6 => [nib(b[0]) * 16 + nib(b[1]), nib(b[2]) * 16 + nib(b[3]), nib(b[4]) * 16 + nib(b[5])],
        _ => return Err(nom::Err::Error(())),
    };
    let alpha = alpha.map(to_f64);
    if alpha.is_some_and(|a| !a.is_finite()) {
        return Err(nom::Err::Error(()));
    }
    Ok((rest, ColorLit { rgb, alpha }))
}

/// `COLOR`: `#RGB` or `#RRGGBB`, optionally `,ALPHA`.
pub fn color(tok: &str) -> Option<ColorLit> {
    // Only `#` starts one.
    if !tok.starts_with('#') {
        return None;
    }
    whole(color_lit, tok.as_bytes())
}

/// A letter immediately followed by a number, e.g. `x-10.5`. `letters` lists
/// the accepted letters (ASCII); `signed` allows a minus sign.
pub fn letter_number(tok: &str, letters: &str, signed: bool) -> Option<(char, f64)> {
    let (&first, rest) = tok.as_bytes().split_first()?;
    // The letter is one ASCII byte of the list: any other first byte (a
    // non-ASCII one included) is turned away here.
    if !first.is_ascii() || !letters.bytes().any(|l| l == first) {
        return None;
    }
    let v = if signed { number_bytes(rest)? } else { unsigned_bytes(rest)? };
    Some((char::from(first), v))
}

/// `Nfps` (integer frames per second).
pub fn fps(tok: &str) -> Option<f64> {
    if !tok.ends_with("fps") {
        return None;
    }
    whole(|i| pair(digit1, tag("fps")).parse(i), tok.as_bytes()).map(|(d, _)| to_f64(d))
}

/// An easing name as the original recognizes it inside option tokens:
/// `[A-Za-z_]([A-Za-z0-9_-]*[A-Za-z_])?`.
fn easing_lit(i: &[u8]) -> Res<'_, &[u8]> {
    let word = match i {
        [c, rest @ ..] if c.is_ascii_alphabetic() || *c == b'_' => {
            let (rest, _) = rest.split_at_position_complete(|c| {
                !(c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
            })?;
            &i[..i.len() - rest.len()]
        }
        _ => return Err(nom::Err::Error(())),
    };
    // The name must end with a letter or underscore: trailing digits and
    // hyphens are given back (hyphens before `>` are an advance). The first
    // character is a letter or underscore, so at least one is kept.
    let keep =
        word.len() - word.iter().rev().take_while(|&&c| c.is_ascii_digit() || c == b'-').count();
    Ok((&i[keep..], &i[..keep]))
}

/// A frame value inside options: `F` or, in timelines, `+F` (advance).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameOpt {
    /// The frame number as written (or the advance in frames when relative).
    pub value: f64,
    /// Written with a leading `+`: counted from the previous key's frame.
    pub relative: bool,
}

/// The easing part of an option token: a known easing or the unknown name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EasingOpt<'a> {
    /// One of the language's easings (LANGUAGE.md §5).
    Known(Easing),
    /// A name that is none of them, kept for the diagnostic and its hint.
    Unknown(&'a str),
    /// A `bz(…)` that cannot be read: `text` (at byte `offset` of the
    /// easing) is wrong for the reason `why`.
    BadBezier {
        /// Byte offset of `text` inside the easing.
        offset: usize,
        /// The part at fault (a number, or the whole easing).
        text: &'a str,
        /// What is wrong, for the diagnostic.
        why: &'static str,
    },
}

/// `bz(X1,Y1,X2,Y2)`: a cubic-bezier easing, four numbers (`NUM`) apart by
/// commas, X1 and X2 in 0..1. `None` when `s` does not start with `bz(`; an
/// [`EasingOpt::BadBezier`] saying where it is wrong when it does but is
/// not one.
pub fn bezier(s: &str) -> Option<EasingOpt<'_>> {
    let inner = s.strip_prefix("bz(")?;
    let bad = |why: &'static str| EasingOpt::BadBezier { offset: 0, text: s, why };
    let Some(body) = inner.strip_suffix(')') else {
        return Some(bad("a bezier easing is `bz(X1,Y1,X2,Y2)`: the `)` is missing"));
    };
    let mut v = [0.0; 4];
    let mut pos = 3;
    let mut n = 0;
    for part in body.split(',') {
        if n == 4 {
            return Some(bad("a bezier easing takes four numbers, `bz(X1,Y1,X2,Y2)`"));
        }
        let Some(x) = number(part) else {
            return Some(EasingOpt::BadBezier {
                offset: pos,
                text: part,
                why: "not a number (numbers are written like `0.42` or `-1`)",
            });
        };
        if n % 2 == 0 && !(0.0..=1.0).contains(&x) {
            return Some(EasingOpt::BadBezier {
                offset: pos,
                text: part,
                why: "a handle's time (X1, X2) must lie in 0..1",
            });
        }
        v[n] = x;
        n += 1;
        pos += part.len() + 1;
    }
    if n < 4 {
        return Some(bad("a bezier easing takes four numbers, `bz(X1,Y1,X2,Y2)`"));
    }
    Some(EasingOpt::Known(Easing::Bezier(CubicBezier::new(v[0], v[1], v[2], v[3]))))
}

/// A parsed `F:S:E` option token (any of its accepted forms). In timelines
/// it may carry a trailing advance `-…->`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct OptionsTok<'a> {
    /// `F`: the frame of the first key (or of this key, in timelines).
    pub frame: Option<FrameOpt>,
    /// `S`: frames between consecutive keys.
    pub step: Option<f64>,
    /// `E`: the easing of the segments that follow.
    pub easing: Option<EasingOpt<'a>>,
    /// Number of steps to advance (timelines only).
    pub advance: u32,
    /// Byte offset of the easing name inside the token.
    pub easing_pos: usize,
}

/// One `:`-separated part of an option token, its number read once.
enum Part<'a> {
    Empty,
    /// The value and whether it was written with a leading `+`.
    Num(f64, bool),
    Ease(&'a str),
}

fn classify(s: &str, allow_plus: bool) -> Option<Part<'_>> {
    let b = s.as_bytes();
    let Some(&first) = b.first() else {
        return Some(Part::Empty);
    };
    if first == b'+' {
        return if allow_plus { unsigned_bytes(&b[1..]).map(|v| Part::Num(v, true)) } else { None };
    }
    // A number starts with a digit, an easing with a letter or `_`: the
    // first byte says which recognizer can match.
    if first.is_ascii_digit() {
        return unsigned_bytes(b).map(|v| Part::Num(v, false));
    }
    if b.starts_with(b"bz(") {
        return Some(Part::Ease(s));
    }
    whole(easing_lit, b).map(|e| Part::Ease(sub(s, e)))
}

/// Recognizes the OPTS forms `F:`, `F::`, `:S:`, `:S`, `::E`, `:E`, `F:S:`,
/// `F:S`, `F::E`, `:S:E`, `S:E`, `F:S:E` (LANGUAGE.md §5). With
/// `in_timeline`, the token must end in `-*>` and F may be `+F`.
pub fn options(tok: &str, in_timeline: bool) -> Option<OptionsTok<'_>> {
    let mut body = tok;
    let mut advance = 0u32;
    if in_timeline {
        body = body.strip_suffix('>')?;
        let trimmed = body.trim_end_matches('-');
        advance = (body.len() - trimmed.len()) as u32;
        body = trimmed;
    }
    // Every form has one or two `:`.
    let first = body.bytes().position(|b| b == b':')?;
    let rest = &body[first + 1..];
    let parts = match rest.bytes().position(|b| b == b':') {
        None => [Some(&body[..first]), Some(rest), None, None],
        Some(second) => {
            let third = &rest[second + 1..];
            if third.bytes().any(|b| b == b':') {
                return None;
            }
            [Some(&body[..first]), Some(&rest[..second]), Some(third), None]
        }
    };
    let mut out = OptionsTok { advance, ..OptionsTok::default() };
    fn easing_of(name: &str) -> EasingOpt<'_> {
        if let Some(b) = bezier(name) {
            return b;
        }
        match crate::syntax::vocab::lookup(crate::syntax::vocab::EASINGS, name).copied() {
            Some(e) => EasingOpt::Known(e),
            None => EasingOpt::Unknown(name),
        }
    }
    let num = |value: f64, relative: bool| FrameOpt { value, relative };
    match parts {
        [Some(f), Some(s), Some(e), None] => {
            // F?:S?:E?
            match classify(f, in_timeline)? {
                Part::Empty => {}
                Part::Num(v, rel) => out.frame = Some(num(v, rel)),
                Part::Ease(_) => return None,
            }
            match classify(s, false)? {
                Part::Empty => {}
                Part::Num(v, _) => out.step = Some(v),
                Part::Ease(_) => return None,
            }
            match classify(e, false)? {
                Part::Empty => {}
                Part::Ease(name) => {
                    out.easing = Some(easing_of(name));
                    out.easing_pos = f.len() + s.len() + 2;
                }
                Part::Num(..) => return None,
            }
        }
        [Some(x), Some(y), None, None] => match (classify(x, in_timeline)?, classify(y, false)?) {
            (Part::Num(f, rel), Part::Empty) => out.frame = Some(num(f, rel)),
            (Part::Num(f, rel), Part::Num(s, _)) => {
                out.frame = Some(num(f, rel));
                out.step = Some(s);
            }
            (Part::Empty, Part::Num(s, _)) => out.step = Some(s),
            // `S:E` — the number is the step.
            (Part::Num(s, false), Part::Ease(e)) => {
                out.step = Some(s);
                out.easing = Some(easing_of(e));
                out.easing_pos = x.len() + 1;
            }
            (Part::Empty, Part::Ease(e)) => {
                out.easing = Some(easing_of(e));
                out.easing_pos = 1;
            }
            _ => return None,
        },
        _ => return None,
    }
    Some(out)
}

/// `-…->`: the number of steps to advance (`>` alone: 0).
pub fn advance(tok: &str) -> Option<u32> {
    let body = tok.strip_suffix('>')?;
    body.bytes().all(|b| b == b'-').then_some(body.len() as u32)
}

/// `}` or `}[n]`: the number of iterations.
pub fn end_loop(tok: &str) -> Option<f64> {
    match tok.as_bytes() {
        [b'}'] => Some(1.0),
        [b'}', b'[', count @ .., b']'] => match digit1::<_, ()>(count) {
            Ok(([], digits)) => Some(to_f64(digits)),
            _ => None,
        },
        _ => None,
    }
}

/// A name inside a token and its byte offset in the token.
pub type NameAt<'a> = (&'a str, usize);

/// A path point `NUM,NUM` or `NUM,NUM:BONEREF`: x, y and the reference with
/// its byte offset in the token.
pub fn point(tok: &str) -> Option<(f64, f64, Option<NameAt<'_>>)> {
    let (x, y, r) = whole(
        |i| {
            (number_lit, preceded(char(','), number_lit), opt(preceded(char(':'), path_lit)))
                .parse(i)
        },
        tok.as_bytes(),
    )?;
    let reference = r.map(|r| (sub(tok, r), tok.len() - r.len()));
    Some((finite(to_f64(x))?, finite(to_f64(y))?, reference))
}

/// A name in brackets right after the start of `s`: `[NAME]`. Returns the
/// name and the remaining text.
fn bracket_name(i: &[u8]) -> Res<'_, &[u8]> {
    delimited(char('['), name_lit, char(']')).parse(i)
}

/// The head token of a slot line: `@[SLOT][\[ATT\]]`. Returns the optional
/// slot and attachment names with their byte offsets in the token.
pub fn slot_head(tok: &str) -> Option<(Option<NameAt<'_>>, Option<NameAt<'_>>)> {
    if !tok.starts_with('@') {
        return None;
    }
    let (slot, att) = whole(
        |i| preceded(char('@'), pair(opt(name_lit), opt(bracket_name))).parse(i),
        tok.as_bytes(),
    )?;
    let slot = slot.map(|s| (sub(tok, s), 1));
    let att = att.map(|a| (sub(tok, a), tok.len() - a.len() - 1));
    Some((slot, att))
}

/// The head token of a skin item: `@SLOTREF[\[ATT\]]`.
pub fn skin_head(tok: &str) -> Option<(&str, Option<NameAt<'_>>)> {
    if !tok.starts_with('@') {
        return None;
    }
    let (slot, att) =
        whole(|i| preceded(char('@'), pair(path_lit, opt(bracket_name))).parse(i), tok.as_bytes())?;
    let att = att.map(|a| (sub(tok, a), tok.len() - a.len() - 1));
    Some((sub(tok, slot), att))
}

/// `true` or `false`.
pub fn boolean(tok: &str) -> Option<bool> {
    whole(|i| alt((tag("true"), tag("false"))).parse(i), tok.as_bytes()).map(|t| t == b"true")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_convert_exactly_as_the_standard_library_does() {
        for lit in [
            "0",
            "-0",
            "007",
            "42",
            "-17",
            "999999999999999",
            "-999999999999999",
            "1000000000000000",
            "9007199254740993",
            "12.75",
            "0.1",
            "-0.3",
            "1.1",
            "123456.789012345",
            "0.000000000000001",
            "99999999999999.9",
            "1234567890123456.5",
            "3.14159265358979323846",
            "-0.0",
        ] {
            let want: f64 = lit.parse().unwrap();
            let got = number(lit).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{lit}");
        }
    }

    /// Many decimals of every length up to the fast path's 15 digits and
    /// past it, against the standard library's correctly rounded conversion.
    #[test]
    fn decimals_convert_exactly_as_the_standard_library_does() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let digits = format!("{}", x % 10u64.pow(1 + (x % 18) as u32));
            let point = (x >> 40) as usize % (digits.len() + 1);
            let lit = if point == 0 || point == digits.len() {
                digits.clone()
            } else {
                format!("{}.{}", &digits[..point], &digits[point..])
            };
            let lit = if x & 1 == 0 { lit } else { format!("-{lit}") };
            let want: f64 = lit.parse().unwrap();
            assert_eq!(number(&lit).map(f64::to_bits), Some(want.to_bits()), "{lit}");
        }
    }

    #[test]
    fn numbers_follow_the_language_definition() {
        assert_eq!(number("-12.5"), Some(-12.5));
        assert_eq!(number("7"), Some(7.0));
        for bad in ["+1", "1e3", ".5", "5.", "1.2.3", "-", ""] {
            assert_eq!(number(bad), None, "{bad}");
        }
        assert_eq!(unsigned("-1"), None);
    }

    #[test]
    fn bezier_easings_read_their_numbers_and_locate_their_mistakes() {
        let b = |x1, y1, x2, y2| EasingOpt::Known(Easing::Bezier(CubicBezier::new(x1, y1, x2, y2)));
        let o = options("10::bz(0.3,-0.5,0.7,1.5)--->", true).unwrap();
        assert_eq!((o.easing, o.easing_pos, o.advance), (Some(b(0.3, -0.5, 0.7, 1.5)), 4, 3));
        assert_eq!(options("::ease-in-out->", true).unwrap().easing, Some(b(0.42, 0.0, 0.58, 1.0)));
        assert_eq!(options("0:5:back", false).unwrap().easing, Some(b(0.68, -0.6, 0.32, 1.6)));
        fn bad(tok: &str) -> (usize, &str) {
            match options(tok, true).unwrap().easing {
                Some(EasingOpt::BadBezier { offset, text, .. }) => (offset, text),
                other => panic!("{tok}: {other:?}"),
            }
        }
        // x out of 0..1, a non-number, a missing `)`, three numbers.
        assert_eq!(bad("::bz(0.1,0,1.5,1)>"), (9, "1.5"));
        assert_eq!(bad("::bz(0.1,x,0.5,1)>"), (7, "x"));
        assert_eq!(bad("::bz(0.1,0,0.5,1>").0, 0);
        assert_eq!(bad("::bz(0.1,0,0.5)>").0, 0);
        assert_eq!(bad("::bz(.1,0,0.5,1)>"), (3, ".1"));
        // Not an easing at all: another word.
        assert_eq!(options("::bzz>", true).unwrap().easing, Some(EasingOpt::Unknown("bzz")));
    }

    #[test]
    fn colors_parse_short_long_and_alpha() {
        assert_eq!(color("#F80"), Some(ColorLit { rgb: [255, 136, 0], alpha: None }));
        assert_eq!(color("#12ab9F,0.5").map(|c| c.rgb), Some([0x12, 0xab, 0x9f]));
        assert_eq!(color("#0F08"), None);
        assert_eq!(color("#GGG"), None);
        let c = color("#000,2").unwrap().to_color8();
        assert_eq!(c.a, 1.0);
        let c = color("#FFF,0.999").unwrap().to_color8();
        assert!((c.a - 254.0 / 255.0).abs() < 1e-12);
    }

    #[test]
    fn option_forms() {
        let o = options("4:", false).unwrap();
        assert_eq!(o.frame.map(|f| f.value), Some(4.0));
        let o = options("2:sio", false).unwrap();
        assert_eq!(
            (o.frame, o.step, o.easing),
            (None, Some(2.0), Some(EasingOpt::Known(Easing::SineInOut)))
        );
        let o = options(":2", false).unwrap();
        assert_eq!(o.step, Some(2.0));
        let o = options("::bogus", false).unwrap();
        assert_eq!(o.easing, Some(EasingOpt::Unknown("bogus")));
        assert!(options(":", false).is_none());
        assert!(options("a:b:c:d", false).is_none());
        let o = options("+2::li>", true).unwrap();
        assert_eq!(o.frame, Some(FrameOpt { value: 2.0, relative: true }));
        assert_eq!(o.advance, 0);
        let o = options(":si-->", true).unwrap();
        assert_eq!((o.easing, o.advance), (Some(EasingOpt::Known(Easing::SineIn)), 2));
        assert!(options("+2:li>", true).is_none());
        assert!(options("4:", true).is_none());
    }

    #[test]
    fn heads_points_and_loops() {
        assert_eq!(slot_head("@"), Some((None, None)));
        assert_eq!(slot_head("@s1[a2]"), Some((Some(("s1", 1)), Some(("a2", 4)))));
        assert_eq!(slot_head("@s.x"), None);
        assert_eq!(
            skin_head("@skeleton.bone.slot[att]"),
            Some(("skeleton.bone.slot", Some(("att", 20))))
        );
        assert_eq!(point("1.5,-2:arm.hand"), Some((1.5, -2.0, Some(("arm.hand", 7)))));
        assert_eq!(point("1,2,3"), None);
        assert_eq!(end_loop("}[3]"), Some(3.0));
        assert_eq!(end_loop("}"), Some(1.0));
        assert_eq!(advance("-->"), Some(2));
        assert_eq!(advance(">"), Some(0));
        assert_eq!(fps("24fps"), Some(24.0));
        assert_eq!(letter_number("r-45", "xyrij", true), Some(('r', -45.0)));
        assert_eq!(letter_number("t-1", "tm", false), None);
    }
}
