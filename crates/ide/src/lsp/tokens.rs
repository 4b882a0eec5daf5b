//! Token roles as LSP semantic tokens: the legend, and each section's
//! tokens in LSP's relative encoding (UTF-16 lengths), joined per document.
//!
//! Each section's tokens are encoded alone (`piece_tokens`) and kept by the
//! server while the section's tree is the same `Arc`, then joined
//! (`join_tokens`), so an edit re-encodes the sections it touched; a delta
//! compares the joined lists.

use lsp_types::{SemanticTokenModifier, SemanticTokenType};

use skelpad_lang::syntax::Role;

/// Semantic token types, indexed by [`role_token`].
pub const TOKEN_TYPES: [SemanticTokenType; 12] = [
    SemanticTokenType::KEYWORD,
    SemanticTokenType::CLASS,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::TYPE,
    SemanticTokenType::NUMBER,
    SemanticTokenType::STRING,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::OPERATOR,
    SemanticTokenType::MACRO,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::COMMENT,
];
/// Semantic token modifiers (bit 0: a definition).
pub const TOKEN_MODIFIERS: [SemanticTokenModifier; 1] = [SemanticTokenModifier::DECLARATION];
/// Token type index of colors (`regexp` is not used by the language; a
/// color gets its own style in most themes that way).
const COLOR_TYPE: u32 = 12;

/// The semantic token type and modifiers of a role (`None`: not highlighted,
/// e.g. invalid tokens, which a diagnostic marks instead).
pub fn role_token(role: Role) -> Option<(u32, u32)> {
    Some(match role {
        Role::SectionKeyword => (0, 0),
        Role::BonePath => (1, 1),
        Role::BoneRef => (1, 0),
        Role::BoneProperty | Role::Property => (2, 0),
        Role::SlotHead => (3, 1),
        Role::SlotRef => (3, 0),
        Role::AttachmentType => (4, 0),
        Role::Number => (5, 0),
        Role::String => (6, 0),
        Role::Boolean | Role::AttachmentRef => (7, 0),
        Role::Loop | Role::Advance => (8, 0),
        Role::Option => (9, 0),
        Role::PathCommand | Role::Event => (10, 0),
        Role::Comment => (11, 0),
        Role::Color => (COLOR_TYPE, 0),
        Role::Invalid => return None,
    })
}

/// The full legend: [`TOKEN_TYPES`] and `regexp` for colors.
pub fn token_types() -> Vec<SemanticTokenType> {
    let mut v = TOKEN_TYPES.to_vec();
    v.push(SemanticTokenType::REGEXP);
    v
}

/// Semantic tokens of one piece of a document that starts at a line start
/// (a section, or the comments before the first), in LSP's relative
/// encoding from the piece's own start: `delta_line` of the first token
/// counts lines from the piece's first line. `roles` are sorted spans
/// relative to `text`; a token that crosses a line break is split there,
/// lengths are UTF-16 units without a line's `\r`. Pieces whose text did
/// not change keep their tokens, so a document's tokens are these joined
/// ([`join_tokens`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PieceTokens {
    /// The tokens, relative as LSP sends them.
    pub data: Vec<lsp_types::SemanticToken>,
    /// The line of the last token, counted from the piece's first line.
    pub last_line: u32,
}

/// [`PieceTokens`] of `text` with these roles, in one pass over the text.
pub fn piece_tokens(
    text: &str,
    roles: impl Iterator<Item = skelpad_lang::syntax::TokenRole>,
) -> PieceTokens {
    let bytes = text.as_bytes();
    let utf16 = |a: usize, b: usize| -> u32 {
        let s = &bytes[a..b];
        if s.is_ascii() {
            s.len() as u32
        } else {
            text.get(a..b).map_or(0, |t| t.encode_utf16().count() as u32)
        }
    };
    let mut out = PieceTokens::default();
    // The scan's position: its line, the line's UTF-16 column, and byte.
    let (mut line, mut col, mut pos) = (0u32, 0u32, 0usize);
    let (mut prev_line, mut prev_col) = (0u32, 0u32);
    for r in roles {
        let Some((ty, mods)) = role_token(r.role) else { continue };
        let (mut start, end) =
            ((r.span.start as usize).min(text.len()), (r.span.end as usize).min(text.len()));
        if start < pos || !text.is_char_boundary(start) || !text.is_char_boundary(end) {
            continue; // overlapping or split: not a token of this text
        }
        while start < end {
            // Move the scan to `start`.
            match memchr::memrchr(b'\n', &bytes[pos..start]) {
                Some(i) => {
                    line += memchr::memchr_iter(b'\n', &bytes[pos..start]).count() as u32;
                    col = utf16(pos + i + 1, start);
                }
                None => col += utf16(pos, start),
            }
            pos = start;
            let next_break = memchr::memchr(b'\n', &bytes[start..end]).map(|i| start + i);
            let mut seg_end = next_break.unwrap_or(end);
            if next_break.is_some() && seg_end > start && bytes[seg_end - 1] == b'\r' {
                seg_end -= 1;
            }
            let len = utf16(start, seg_end);
            if len > 0 {
                let delta_line = line - prev_line;
                out.data.push(lsp_types::SemanticToken {
                    delta_line,
                    delta_start: if delta_line == 0 { col - prev_col } else { col },
                    length: len,
                    token_type: ty,
                    token_modifiers_bitset: mods,
                });
                (prev_line, prev_col) = (line, col);
            }
            match next_break {
                Some(b) => start = b + 1,
                None => break,
            }
        }
    }
    out.last_line = prev_line;
    out
}

/// A document's semantic tokens from its pieces' (`(first line, tokens)`
/// in document order).
pub fn join_tokens<'a>(
    pieces: impl IntoIterator<Item = (u32, &'a PieceTokens)>,
) -> Vec<lsp_types::SemanticToken> {
    let mut out = Vec::new();
    // The line of the last token written, if any.
    let mut last: Option<u32> = None;
    for (first_line, piece) in pieces {
        let Some(first) = piece.data.first() else { continue };
        let at = out.len();
        out.extend_from_slice(&piece.data);
        // Pieces start at line starts, after the last token's line: the
        // first token's column stays absolute, only its line moves.
        let line = first_line + first.delta_line;
        out[at].delta_line = line - last.unwrap_or(0).min(line);
        last = Some(first_line + piece.last_line);
    }
    out
}
