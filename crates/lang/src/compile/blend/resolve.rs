//! The script side of sequences and layers: names resolved, the order
//! they are built in (a sequence may play another sequence), cycles
//! refused, diagnostics located.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Part, layered, sequence};
use crate::compile::modifiers::Sections;
use crate::model::{Animation, Skeleton};
use crate::syntax::tree::{MixSection, Spanned};
use crate::syntax::{Diagnostic, Span};

/// The crossfade times of a document's `mix` sections, in seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Mixes {
    /// `mix SECONDS` (the last written), else 0.
    pub default: f64,
    /// `"FROM" "TO" SECONDS` (a later line replaces an earlier one).
    pub pairs: HashMap<(String, String), f64>,
}

impl Mixes {
    /// The crossfade from animation `from` into `to`.
    pub fn between(&self, from: &str, to: &str) -> f64 {
        self.pairs.get(&(from.to_string(), to.to_string())).copied().unwrap_or(self.default)
    }
}

/// The crossfade times of `sections` (a compilation's sections).
pub fn mixes<'a>(sections: impl IntoIterator<Item = &'a MixSection>) -> Mixes {
    let mut m = Mixes::default();
    for s in sections {
        if let Some(d) = &s.default {
            m.default = d.node;
        }
        for p in &s.pairs {
            m.pairs.insert((p.from.node.clone(), p.to.node.clone()), p.secs.node);
        }
    }
    m
}

/// An animation name written somewhere, with where.
struct Ref<'a> {
    name: &'a Spanned<String>,
    at: u32,
}

impl Ref<'_> {
    fn span(&self) -> Span {
        self.name.span.shifted(self.at)
    }
}

/// The index of the animation `r` names, or an error at the name.
fn resolve(
    animations: &[Arc<Animation>],
    r: &Ref<'_>,
    diags: &mut Vec<Diagnostic>,
) -> Option<usize> {
    let k = animations.iter().position(|a| a.name == r.name.node);
    if k.is_none() {
        let names: Vec<String> = animations.iter().map(|a| format!("\"{}\"", a.name)).collect();
        diags.push(
            Diagnostic::error(r.span(), format!("unknown animation \"{}\"", r.name.node))
                .hint(format!("animations: {}", names.join(", "))),
        );
    }
    k
}

/// What one animation is built from: its parts (a sequence) and layers.
struct Plan<'a> {
    parts: Vec<(Ref<'a>, u32, Span)>,
    layers: Vec<(Ref<'a>, f64)>,
    fps: Option<f64>,
    /// The indices of the animations it plays, each with the reference.
    deps: Vec<(usize, Span)>,
}

/// Builds every sequence and layered animation of `groups` (after the
/// timing modifiers); mix lines naming unknown animations, unknown parts
/// and layers, cycles and over-long results are errors at their place.
pub(in crate::compile) fn apply(
    groups: &[Sections<'_>],
    mix_sections: &[(u32, &MixSection)],
    sk: &Skeleton,
    animations: &mut [Arc<Animation>],
    diags: &mut Vec<Diagnostic>,
) {
    for (at, m) in mix_sections {
        for p in &m.pairs {
            for name in [&p.from, &p.to] {
                resolve(animations, &Ref { name, at: *at }, diags);
            }
        }
    }
    let mut plans: Vec<Option<Plan<'_>>> =
        groups.iter().map(|g| plan(g, animations, diags)).collect();
    if plans.iter().all(Option::is_none) {
        return;
    }
    let mixes = mixes(mix_sections.iter().map(|(_, m)| *m));
    let n = plans.len();
    let mut done: Vec<bool> = plans.iter().map(Option::is_none).collect();
    // Each round builds (or refuses) at least one animation.
    for _ in 0..=n {
        let ready: Vec<usize> = (0..n)
            .filter(|&i| {
                !done[i] && plans[i].as_ref().is_some_and(|p| p.deps.iter().all(|(k, _)| done[*k]))
            })
            .collect();
        if ready.is_empty() {
            let Some(cycle) = find_cycle(&plans, &done) else { break };
            refuse_cycle(&cycle, &plans, animations, diags);
            for i in cycle {
                done[i] = true;
                plans[i] = None;
            }
            continue;
        }
        for i in ready {
            if let Some(p) = &plans[i] {
                build(i, p, &mixes, groups, sk, animations, diags);
            }
            done[i] = true;
        }
        if done.iter().all(|d| *d) {
            break;
        }
    }
}

/// The plan of one animation's sections, `None` when they have neither
/// parts nor layers; a sequence's own items and timing modifiers are
/// errors (it plays its parts only).
fn plan<'a>(
    secs: &Sections<'a>,
    animations: &[Arc<Animation>],
    diags: &mut Vec<Diagnostic>,
) -> Option<Plan<'a>> {
    let mut p = Plan { parts: Vec::new(), layers: Vec::new(), fps: None, deps: Vec::new() };
    for (at, s) in secs {
        for part in &s.parts {
            p.parts.push((
                Ref { name: &part.anim, at: *at },
                part.loops.as_ref().map_or(1, |l| l.node),
                part.span.shifted(*at),
            ));
        }
        for l in &s.modifiers.add {
            p.layers
                .push((Ref { name: &l.anim, at: *at }, l.weight.as_ref().map_or(1.0, |w| w.node)));
        }
        p.fps = s.fps.filter(|f| *f > 0.0).or(p.fps);
    }
    if p.parts.is_empty() && p.layers.is_empty() {
        return None;
    }
    if !p.parts.is_empty() {
        sequence_extras(secs, diags);
    }
    let refs = p.parts.iter().map(|x| &x.0).chain(p.layers.iter().map(|x| &x.0));
    let deps: Vec<(usize, Span)> =
        refs.filter_map(|r| resolve(animations, r, diags).map(|k| (k, r.span()))).collect();
    p.deps = deps;
    Some(p)
}

/// Errors for what a sequence's sections write besides parts and layers.
fn sequence_extras(secs: &Sections<'_>, diags: &mut Vec<Diagnostic>) {
    for (at, s) in secs {
        for item in &s.items {
            diags.push(
                Diagnostic::error(
                    item.target.span.shifted(*at),
                    "a sequence plays its parts only: this item is ignored",
                )
                .hint("key it in one of the parts, or add it as a layer: `add \"ANIM\"`"),
            );
        }
        let m = &s.modifiers;
        let words = [
            ("from", m.from.as_ref().map(|f| f.span)),
            ("reverse", m.reverse),
            ("pingpong", m.pingpong),
            ("mirror", m.mirror),
            ("swap", m.swap),
            ("cycle", m.cycle),
        ];
        for (w, sp) in words {
            if let Some(sp) = sp {
                diags.push(
                    Diagnostic::error(
                        sp.shifted(*at),
                        format!("`{w}` does not apply to a sequence; it is ignored"),
                    )
                    .hint(format!(
                        "make an animation `from` one of its parts with `{w}`, and play that"
                    )),
                );
            }
        }
    }
}

/// A cycle among the animations not yet built: followed from the first
/// one along references to animations not built either.
fn find_cycle(plans: &[Option<Plan<'_>>], done: &[bool]) -> Option<Vec<usize>> {
    let start = (0..plans.len()).find(|&i| !done[i])?;
    let mut path = vec![start];
    // Each step visits a new animation, so at most `plans.len()` steps.
    for _ in 0..plans.len() {
        let last = *path.last()?;
        let next = plans[last].as_ref()?.deps.iter().map(|d| d.0).find(|k| !done[*k])?;
        if let Some(pos) = path.iter().position(|x| *x == next) {
            return Some(path.split_off(pos));
        }
        path.push(next);
    }
    None
}

/// An error at each reference that closes `cycle`, naming the chain.
fn refuse_cycle(
    cycle: &[usize],
    plans: &[Option<Plan<'_>>],
    animations: &[Arc<Animation>],
    diags: &mut Vec<Diagnostic>,
) {
    for (k, &i) in cycle.iter().enumerate() {
        let next = cycle[(k + 1) % cycle.len()];
        let chain: Vec<String> = cycle[k..]
            .iter()
            .chain(&cycle[..k])
            .chain(std::iter::once(&i))
            .map(|&x| format!("\"{}\"", animations[x].name))
            .collect();
        let Some(span) =
            plans[i].as_ref().and_then(|p| p.deps.iter().find(|d| d.0 == next)).map(|d| d.1)
        else {
            continue;
        };
        diags.push(
            Diagnostic::error(
                span,
                format!("animations play each other in a cycle: {}", chain.join(" → ")),
            )
            .hint("the animation plays its own keys"),
        );
    }
}

/// Builds animation `i` from its plan.
fn build(
    i: usize,
    p: &Plan<'_>,
    mixes: &super::Mixes,
    groups: &[Sections<'_>],
    sk: &Skeleton,
    animations: &mut [Arc<Animation>],
    diags: &mut Vec<Diagnostic>,
) {
    let find = |r: &Ref<'_>| animations.iter().position(|a| a.name == r.name.node);
    let name = animations[i].name.clone();
    let mut anim: Animation = Animation::clone(&animations[i]);
    let parts: Vec<(usize, u32, Span)> =
        p.parts.iter().filter_map(|(r, l, sp)| find(r).map(|k| (k, *l, *sp))).collect();
    if !parts.is_empty() {
        let list: Vec<Part<'_>> =
            parts.iter().map(|&(k, loops, _)| Part { anim: &animations[k], loops }).collect();
        let want: Vec<f64> =
            list.windows(2).map(|w| mixes.between(&w[0].anim.name, &w[1].anim.name)).collect();
        let fps = p.fps.unwrap_or(list[0].anim.fps);
        match sequence(sk, &name, fps, &list, &want) {
            Ok((a, timing)) => {
                for c in timing.clamped {
                    diags.push(Diagnostic::warning(parts[c + 1].2, format!(
                        "the crossfade into this part is {:.3} s, shorter than the mix time {:.3} s: it must fit in both parts",
                        timing.mixes[c], want[c]
                    )));
                }
                anim = a;
            }
            Err(frames) => {
                let at =
                    groups[i].first().map_or(Span::default(), |(at, s)| s.name.span.shifted(*at));
                diags.push(too_long(at, frames, "sequence"));
                return;
            }
        }
    }
    if !p.layers.is_empty() {
        let layers: Vec<(&Animation, f64)> =
            p.layers.iter().filter_map(|(r, w)| find(r).map(|k| (&*animations[k], *w))).collect();
        match layered(sk, &anim, &layers) {
            Ok(a) => anim = a,
            Err(frames) => {
                diags.push(too_long(p.layers[0].0.span(), frames, "layered animation"));
                return;
            }
        }
    }
    animations[i] = Arc::new(anim);
}

fn too_long(at: Span, frames: f64, what: &str) -> Diagnostic {
    Diagnostic::error(
        at,
        format!("this {what} would last {frames} frames, more than {}", super::MAX_BAKED_FRAMES),
    )
    .hint("it is sampled at every frame on every compile; fewer loops or a lower frame rate keep it shorter")
    .hint("the animation plays its own keys")
}
