//! `mix` sections (LANGUAGE-EXT.md, "Transitions and layers"): the
//! crossfade times sequences use, `mix [SECONDS]` with one
//! `"FROM" "TO" SECONDS` line per pair. Names are resolved by the compiler
//! (`compile::blend`).

use super::*;

const MIX_LINE_HINT: &str = "write `\"FROM\" \"TO\" SECONDS`, e.g. `\"walk\" \"run\" 0.3s`";

/// The longest crossfade a script may ask for, in seconds (a bound on the
/// frames a crossfade samples; sequences are capped anyway).
pub const MAX_MIX_SECS: f64 = 3600.0;

/// Seconds written `NUMs` (`0.25s`): a non-negative number up to
/// [`MAX_MIX_SECS`].
pub fn seconds(tok: &str) -> Option<f64> {
    token::unsigned(tok.strip_suffix('s')?).filter(|v| *v <= MAX_MIX_SECS)
}

impl Parser {
    pub(super) fn mix_section(
        &mut self,
        header: &LogicalLine<'_>,
        toks: &[Token<'_>],
        rest: &[Ln<'_>],
    ) -> MixSection {
        self.role(header, &toks[0], Role::SectionKeyword);
        let mut s = MixSection::default();
        for t in &toks[1..] {
            match seconds(t.text) {
                Some(v) if s.default.is_none() => {
                    self.role(header, t, Role::Number);
                    s.default = Some(Spanned::new(v, tok_span(header, t)));
                }
                _ => self.push(
                    Diagnostic::error(
                        tok_span(header, t),
                        format!("unexpected `{}` after `mix`", clip(t.text)),
                    )
                    .hint(format!(
                        "`mix` takes one default crossfade in seconds (0 to {MAX_MIX_SECS}), e.g. `mix 0.2s`"
                    )),
                ),
            }
        }
        for &(line, toks) in rest {
            if line.is_blank() || self.skipped(line) {
                continue;
            }
            if line.depth() != 1 || toks.is_empty() {
                let d = Diagnostic::error(line_span(line), "a mix line is indented with one tab")
                    .hint(MIX_LINE_HINT);
                self.invalid_block(line, d);
                continue;
            }
            if let Some(p) = self.mix_line(line, toks) {
                s.pairs.push(p);
            }
        }
        s
    }

    /// `"FROM" "TO" SECONDS`; `None` (with an error) when it is not one.
    fn mix_line(&mut self, line: &LogicalLine<'_>, toks: &[Token<'_>]) -> Option<MixPair> {
        let name = |t: &Token<'_>| {
            quoted(t.text)
                .filter(|n| t.text.len() >= 2 && !n.is_empty())
                .map(|n| Spanned::new(n.to_string(), tok_span(line, t)))
        };
        let from = toks.first().and_then(name);
        let to = toks.get(1).and_then(name);
        let secs = toks.get(2).and_then(|t| seconds(t.text).map(|v| (t, v)));
        let (Some(from), Some(to), Some((t, v))) = (from, to, secs) else {
            // The first token that is not what the line needs there.
            let at = if toks.first().and_then(name).is_none() {
                0
            } else if toks.get(1).and_then(name).is_none() {
                1
            } else {
                2
            };
            let bad = toks.get(at).map_or(line_span(line), |t| tok_span(line, t));
            let message = if at < 2 {
                "a mix line starts with two animation names in quotes".to_string()
            } else {
                format!("a mix line ends with seconds from 0 to {MAX_MIX_SECS}, e.g. `0.3s`")
            };
            self.push(Diagnostic::error(bad, message).hint(MIX_LINE_HINT));
            return None;
        };
        for tok in &toks[..2] {
            self.role(line, tok, Role::String);
        }
        self.role(line, t, Role::Number);
        for extra in &toks[3..] {
            self.push(
                Diagnostic::error(
                    tok_span(line, extra),
                    format!("unexpected `{}` after the mix time", clip(extra.text)),
                )
                .hint(MIX_LINE_HINT),
            );
        }
        Some(MixPair { from, to, secs: Spanned::new(v, tok_span(line, t)) })
    }
}
