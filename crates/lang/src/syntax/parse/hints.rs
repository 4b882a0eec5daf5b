//! Texts of diagnostics shared by several section parsers.

use super::*;

/// The hint of a header that starts no section, for the `n` lines after it.
pub(super) fn orphan_hint(n: usize) -> Option<String> {
    match n {
        0 => None,
        1 => Some("the indented line after it is ignored".to_string()),
        _ => Some(format!("the {n} indented lines after it, up to the next section, are ignored")),
    }
}

pub(super) const SECTION_HINT: &str =
    "a section starts at column 0 with `skeleton`, `skin \"NAME\"`, `order` or `anim \"NAME\"`";

pub(super) fn plural(n: usize, word: &str) -> String {
    if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") }
}

pub(super) const BONE_TOKENS: &str = "bone properties are lNUM (length), rNUM (rotation, degrees), xNUM yNUM (position), iNUM jNUM (scale), a COLOR, flip-x, flip-y, no-rot and no-scale";

pub(super) fn type_props_hint(ty: &TypeName) -> String {
    let transform = "xNUM yNUM rNUM iNUM jNUM (transform)";
    let style = "tNUM (stroke width), mNUM (miter limit), fCOLOR (fill), sCOLOR (stroke), miter-join|bevel-join|round-join, butt-cap|square-cap|round-cap";
    match ty {
        TypeName::Sprite => format!("sprite takes \"image-name\" and {transform}"),
        TypeName::Rect => {
            format!("rect takes wNUM hNUM (size), dNUM (corner diameter), {transform}, {style}")
        }
        TypeName::Ellipse => format!("ellipse takes wNUM hNUM (size), {transform}, {style}"),
        TypeName::Circle => format!("circle takes dNUM (diameter), {transform}, {style}"),
        TypeName::Path => {
            format!("path takes {transform}, {style}; its commands go on the lines below")
        }
        TypeName::Unknown(_) => transform.to_string(),
    }
}

/// `types are sprite, rect, circle, ellipse and path`, from [`TypeName::KNOWN`].
pub(super) fn known_types_hint() -> String {
    let [rest @ .., last] = TypeName::KNOWN;
    let rest: Vec<&str> = rest.iter().map(TypeName::as_str).collect();
    format!("types are {} and {}", rest.join(", "), last.as_str())
}

pub(super) fn bad_token(line: &LogicalLine<'_>, t: &Token<'_>, what: &str) -> Diagnostic {
    Diagnostic::error(tok_span(line, t), format!("`{}` is not a valid {what}", clip(t.text)))
}
