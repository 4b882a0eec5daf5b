//! `spring HZ DAMPING` and `spring-chain HZ DAMPING` on an animation item
//! (LANGUAGE-EXT.md, "Springs").

use super::*;

impl Parser {
    /// The word `w` and the two numbers after it in `rest`: how many
    /// tokens of `rest` it takes (the numbers it read).
    pub(super) fn spring_modifier(
        &mut self,
        line: &LogicalLine<'_>,
        w: &Token<'_>,
        rest: &[Token<'_>],
        is_slot: bool,
        out: &mut anim::ItemOptions,
    ) -> usize {
        let wsp = tok_span(line, w);
        let nums: Vec<&Token<'_>> =
            rest.iter().take(2).take_while(|t| token::number(t.text).is_some()).collect();
        if nums.len() < 2 {
            self.push(
                Diagnostic::error(
                    wsp,
                    format!(
                        "`{}` takes two numbers: how fast the spring rings (cycles per second) and its damping",
                        w.text
                    ),
                )
                .hint(format!("e.g. `{} 2 0.4`: 2 swings a second, settling quickly", w.text)),
            );
            return nums.len();
        }
        let hz = self.spring_number(line, nums[0], 0.0, SPRING_MAX_HZ, "frequency");
        let damping =
            self.spring_number(line, nums[1], SPRING_MIN_DAMPING, SPRING_MAX_DAMPING, "damping");
        let span = wsp.cover(tok_span(line, nums[1]));
        if is_slot {
            self.push(
                Diagnostic::error(wsp, format!("`{}` turns bones; a slot item has none", w.text))
                    .hint("write it on the item of the bone that should trail its parent"),
            );
            return 2;
        }
        if let (Some(hz), Some(damping)) = (hz, damping) {
            let v = Some(Spanned::new(SpringSpec { hz, damping }, span));
            if w.text == "spring" {
                out.spring = v;
            } else {
                out.spring_chain = v;
            }
        }
        2
    }

    /// A spring's number `t` (`what`): its value when it lies in
    /// `(min, max]` (frequency, `min` 0) or `[min, max]` (damping), else an
    /// error on it.
    fn spring_number(
        &mut self,
        line: &LogicalLine<'_>,
        t: &Token<'_>,
        min: f64,
        max: f64,
        what: &str,
    ) -> Option<f64> {
        self.role(line, t, Role::Number);
        let v = token::number(t.text)?;
        let low = if min == 0.0 { v <= 0.0 } else { v < min };
        if v.is_finite() && !low && v <= max {
            return Some(v);
        }
        let range = if min == 0.0 {
            format!("more than 0 and at most {max}")
        } else {
            format!("from {min} to {max}")
        };
        let why = if what == "frequency" {
            "cycles per second the spring rings at"
        } else {
            "1 settles without overshoot, 0.1 wobbles a long time; a spring with no damping never settles into a loop"
        };
        self.push(
            Diagnostic::error(tok_span(line, t), format!("a spring's {what} must be {range}"))
                .hint(why),
        );
        None
    }
}
