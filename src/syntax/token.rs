//! Token grammars (LANGUAGE.md "Terms"), written with nom. Each public
//! function recognizes one whole token or returns `None`.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while_m_n, take_while1};
use nom::character::complete::{char, digit1};
use nom::combinator::{all_consuming, opt, recognize};
use nom::multi::many0_count;
use nom::sequence::{delimited, pair, preceded};
use nom::{IResult, Parser};

use crate::model::{Color, Easing};

type Res<'a, O> = IResult<&'a str, O>;

fn unsigned_lit(i: &str) -> Res<'_, &str> {
    recognize((digit1, opt((char('.'), digit1)))).parse(i)
}

fn number_lit(i: &str) -> Res<'_, &str> {
    recognize((opt(char('-')), digit1, opt((char('.'), digit1)))).parse(i)
}

fn to_f64(s: &str) -> f64 {
    // Whole numbers of up to 15 digits (most literals) are exact in an f64:
    // add them up instead of running the general decimal conversion.
    let (neg, digits) = match s.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, s),
    };
    if !digits.is_empty() && digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit()) {
        let v = digits.bytes().fold(0u64, |v, b| v * 10 + u64::from(b - b'0')) as f64;
        return if neg { -v } else { v };
    }
    s.parse::<f64>().unwrap_or(0.0)
}

/// A recognized literal whose value fits in an f64 (a literal with hundreds
/// of digits would be infinite and poison every matrix).
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn whole<'a, O>(
    mut p: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
    tok: &'a str,
) -> Option<O> {
    all_consuming(|i| p.parse(i)).parse(tok).ok().map(|(_, o)| o)
}

/// `NUM`: `-?[0-9]+(\.[0-9]+)?`.
pub fn number(tok: &str) -> Option<f64> {
    // Only a digit or `-` starts one: most other tokens are turned away
    // here, before the parser runs.
    let first = *tok.as_bytes().first()?;
    if !(first.is_ascii_digit() || first == b'-') {
        return None;
    }
    whole(number_lit, tok).map(to_f64).and_then(finite)
}

/// `[0-9]+(\.[0-9]+)?`.
pub fn unsigned(tok: &str) -> Option<f64> {
    if !tok.as_bytes().first()?.is_ascii_digit() {
        return None;
    }
    whole(unsigned_lit, tok).map(to_f64).and_then(finite)
}

fn name_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '-'
}

fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn name_lit(i: &str) -> Res<'_, &str> {
    recognize((take_while_m_n(1, 1, name_start), take_while(name_char))).parse(i)
}

fn path_lit(i: &str) -> Res<'_, &str> {
    recognize((name_lit, many0_count(preceded(char('.'), name_lit)))).parse(i)
}

/// `NAME`: `[A-Za-z_-][A-Za-z0-9_-]*`.
pub fn is_name(tok: &str) -> bool {
    whole(name_lit, tok).is_some()
}

/// A dotted path of names.
pub fn is_path(tok: &str) -> bool {
    whole(path_lit, tok).is_some()
}

/// Length of the longest path at the start of `s` (0 if none).
pub fn path_prefix_len(s: &str) -> usize {
    path_lit(s).map_or(0, |(_, p)| p.len())
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

fn hex_digits(i: &str) -> Res<'_, &str> {
    take_while1(|c: char| c.is_ascii_hexdigit()).parse(i)
}

fn color_lit(i: &str) -> Res<'_, ColorLit> {
    let (rest, (hex, alpha)) =
        (preceded(char('#'), hex_digits), opt(preceded(char(','), unsigned_lit))).parse(i)?;
    let nib = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
    let b = hex.as_bytes();
    let rgb = match b.len() {
        3 => [nib(b[0]) * 17, nib(b[1]) * 17, nib(b[2]) * 17],
        6 => [nib(b[0]) * 16 + nib(b[1]), nib(b[2]) * 16 + nib(b[3]), nib(b[4]) * 16 + nib(b[5])],
        _ => return Err(nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Verify))),
    };
    let alpha = alpha.map(to_f64);
    if alpha.is_some_and(|a| !a.is_finite()) {
        return Err(nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Verify)));
    }
    Ok((rest, ColorLit { rgb, alpha }))
}

/// `COLOR`: `#RGB` or `#RRGGBB`, optionally `,ALPHA`.
pub fn color(tok: &str) -> Option<ColorLit> {
    whole(color_lit, tok)
}

/// A letter immediately followed by a number, e.g. `x-10.5`. `letters` lists
/// the accepted letters; `signed` allows a minus sign.
pub fn letter_number(tok: &str, letters: &str, signed: bool) -> Option<(char, f64)> {
    let mut chars = tok.chars();
    let first = chars.next()?;
    if !letters.contains(first) {
        return None;
    }
    let rest = chars.as_str();
    let v = if signed { number(rest)? } else { unsigned(rest)? };
    Some((first, v))
}

/// `Nfps` (integer frames per second).
pub fn fps(tok: &str) -> Option<f64> {
    whole(|i| pair(digit1, tag("fps")).parse(i), tok).map(|(d, _)| to_f64(d))
}

/// An easing name as the original recognizes it inside option tokens:
/// `[A-Za-z_]([A-Za-z0-9_-]*[A-Za-z_])?`.
fn easing_lit(i: &str) -> Res<'_, &str> {
    let (_, word) = recognize((
        take_while_m_n(1, 1, |c: char| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
    ))
    .parse(i)?;
    // The name must end with a letter or underscore: trailing digits and
    // hyphens are given back (hyphens before `>` are an advance). The first
    // character is a letter or underscore, so at least one is kept.
    let keep = word.trim_end_matches(|c: char| c.is_ascii_digit() || c == '-').len();
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
#[derive(Clone, Debug, PartialEq)]
pub enum EasingOpt {
    /// One of the language's easings (LANGUAGE.md §5).
    Known(Easing),
    /// A name that is none of them, kept for the diagnostic and its hint.
    Unknown(String),
}

/// A parsed `F:S:E` option token (any of its accepted forms). In timelines
/// it may carry a trailing advance `-…->`.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct OptionsTok {
    /// `F`: the frame of the first key (or of this key, in timelines).
    pub frame: Option<FrameOpt>,
    /// `S`: frames between consecutive keys.
    pub step: Option<f64>,
    /// `E`: the easing of the segments that follow.
    pub easing: Option<EasingOpt>,
    /// Number of steps to advance (timelines only).
    pub advance: u32,
    /// Byte offset of the easing name inside the token.
    pub easing_pos: usize,
}

enum Part<'a> {
    Empty,
    Num(&'a str, bool),
    Ease(&'a str),
}

fn classify(s: &str, allow_plus: bool) -> Option<Part<'_>> {
    if s.is_empty() {
        return Some(Part::Empty);
    }
    if let Some(rest) = s.strip_prefix('+') {
        return if allow_plus && unsigned(rest).is_some() {
            Some(Part::Num(rest, true))
        } else {
            None
        };
    }
    if unsigned(s).is_some() {
        return Some(Part::Num(s, false));
    }
    whole(easing_lit, s).map(Part::Ease)
}

/// Recognizes the OPTS forms `F:`, `F::`, `:S:`, `:S`, `::E`, `:E`, `F:S:`,
/// `F:S`, `F::E`, `:S:E`, `S:E`, `F:S:E` (LANGUAGE.md §5). With
/// `in_timeline`, the token must end in `-*>` and F may be `+F`.
pub fn options(tok: &str, in_timeline: bool) -> Option<OptionsTok> {
    let mut body = tok;
    let mut advance = 0u32;
    if in_timeline {
        body = body.strip_suffix('>')?;
        let trimmed = body.trim_end_matches('-');
        advance = (body.len() - trimmed.len()) as u32;
        body = trimmed;
    }
    let mut split = body.splitn(4, ':');
    let parts: [Option<&str>; 4] = [split.next(), split.next(), split.next(), split.next()];
    let mut out = OptionsTok { advance, ..OptionsTok::default() };
    let easing_of = |name: &str| match Easing::from_code(name) {
        Some(e) => EasingOpt::Known(e),
        None => EasingOpt::Unknown(name.to_string()),
    };
    let num = |s: &str, rel: bool| FrameOpt { value: to_f64(s), relative: rel };
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
                Part::Num(v, _) => out.step = Some(to_f64(v)),
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
                out.step = Some(to_f64(s));
            }
            (Part::Empty, Part::Num(s, _)) => out.step = Some(to_f64(s)),
            // `S:E` — the number is the step.
            (Part::Num(s, false), Part::Ease(e)) => {
                out.step = Some(to_f64(s));
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
    if tok == "}" {
        return Some(1.0);
    }
    if !tok.starts_with('}') {
        return None;
    }
    whole(|i| preceded(char('}'), delimited(char('['), digit1, char(']'))).parse(i), tok)
        .map(to_f64)
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
        tok,
    )?;
    let reference = r.map(|r| (r, tok.len() - r.len()));
    Some((finite(to_f64(x))?, finite(to_f64(y))?, reference))
}

/// A name in brackets right after the start of `s`: `[NAME]`. Returns the
/// name and the remaining text.
fn bracket_name(i: &str) -> Res<'_, &str> {
    delimited(char('['), name_lit, char(']')).parse(i)
}

/// The head token of a slot line: `@[SLOT][\[ATT\]]`. Returns the optional
/// slot and attachment names with their byte offsets in the token.
pub fn slot_head(tok: &str) -> Option<(Option<NameAt<'_>>, Option<NameAt<'_>>)> {
    let (slot, att) =
        whole(|i| preceded(char('@'), pair(opt(name_lit), opt(bracket_name))).parse(i), tok)?;
    let slot = slot.map(|s| (s, 1));
    let att = att.map(|a| (a, tok.len() - a.len() - 1));
    Some((slot, att))
}

/// The head token of a skin item: `@SLOTREF[\[ATT\]]`.
pub fn skin_head(tok: &str) -> Option<(&str, Option<NameAt<'_>>)> {
    let (slot, att) =
        whole(|i| preceded(char('@'), pair(path_lit, opt(bracket_name))).parse(i), tok)?;
    let att = att.map(|a| (a, tok.len() - a.len() - 1));
    Some((slot, att))
}

/// `true` or `false`.
pub fn boolean(tok: &str) -> Option<bool> {
    whole(|i| alt((tag("true"), tag("false"))).parse(i), tok).map(|t| t == "true")
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
        ] {
            let want: f64 = lit.parse().unwrap();
            let got = number(lit).unwrap();
            assert_eq!(got.to_bits(), want.to_bits(), "{lit}");
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
        assert_eq!(o.easing, Some(EasingOpt::Unknown("bogus".into())));
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
