//! `ik` sections → [`IkFamily`]s (LANGUAGE-EXT.md, "Inverse kinematics").
//!
//! Every family is solved on the pose *before* IK, as SkelForm does, and
//! then turns the bones of its chain; so a family whose target or chain
//! hangs below a chain (its own or another family's) would reach for where
//! that bone was before the turn. Such families are errors and are dropped:
//!
//! - the target inside its own chain's subtree (the chain's first bone or
//!   anything below it);
//! - a chain or target inside another family's subtree, or another
//!   family's chain or target inside this one's (the later line is
//!   reported).
//!
//! A chain follows parents from the tip: `up N` takes N parents, `from B`
//! climbs to B (which must be an ancestor of the tip). At most
//! [`MAX_IK_FAMILIES`] families; `up` is at most [`crate::syntax::tree`]'s
//! parser limit (64).
//!
//! Families compile after the rig, cached on the rig output and the
//! sections' trees; the skeleton carries them (`Skeleton::ik`), each line is a
//! `SourceMap::ik` entry and its names are references. The runtime applies
//! them (`runtime::ik`).

use super::names::resolve_or_explain;
use super::rig::RigOutput;
use super::source::{IkSource, Reference, Target};
use super::{LocalDiag, Ordinal};
use crate::model::{BoneId, IkFamily, Skeleton};
use crate::syntax::tree::{IkLine, IkReach, IkSection};
use crate::syntax::{Diagnostic, clip};

/// The most IK families a script may define.
pub const MAX_IK_FAMILIES: usize = 256;

pub(crate) struct IkOutput {
    pub families: Vec<IkFamily>,
    pub diagnostics: Vec<LocalDiag>,
    pub references: Vec<(Ordinal, Reference)>,
    pub lines: Vec<(Ordinal, IkSource)>,
}

/// Whether `b` is `ancestor` or hangs below it.
fn under(sk: &Skeleton, mut b: BoneId, ancestor: BoneId) -> bool {
    // Parents come before their children, so the walk ends.
    loop {
        if b == ancestor {
            return true;
        }
        match sk.bones.get(b.index()).and_then(|x| x.parent) {
            Some(p) => b = p,
            None => return false,
        }
    }
}

/// Compiles every `ik` section of a document against the rig.
pub(crate) fn compile_ik(rig: &RigOutput, sections: &[(Ordinal, &IkSection)]) -> IkOutput {
    let sk = &*rig.skeleton;
    let mut out = IkOutput {
        families: Vec::new(),
        diagnostics: Vec::new(),
        references: Vec::new(),
        lines: Vec::new(),
    };
    // Accepted families with the tip bone's name (for messages).
    let mut tips: Vec<BoneId> = Vec::new();
    for &(o, section) in sections {
        for line in &section.lines {
            let mut src = IkSource { span: line.span, family: None, tip: None, target: None };
            let (tip, target, root) = resolve_ends(rig, &mut out, o, line);
            src.tip = tip;
            src.target = target;
            let (Some(tip), Some(target), Some(root)) = (tip, target, root) else {
                out.lines.push((o, src));
                continue;
            };
            match checked_chain(sk, &out.families, &tips, line, tip, target, root) {
                Err(d) => out.diagnostics.push(LocalDiag { ord: o, diag: d }),
                Ok(chain) => {
                    src.family = Some(out.families.len());
                    out.families.push(IkFamily {
                        bones: chain,
                        target,
                        mode: line.mode,
                        constraint: line.bend,
                        mimic_target: false,
                    });
                    tips.push(tip);
                }
            }
            out.lines.push((o, src));
        }
    }
    out
}

/// The chain's extent: the root bone of `from`, or the count of `up`.
type Root<'a> = Result<BoneId, &'a crate::syntax::tree::Spanned<u32>>;

/// Resolves a line's tip, target and `from` bone, recording references and
/// diagnostics (`None`: not found).
fn resolve_ends<'a>(
    rig: &RigOutput,
    out: &mut IkOutput,
    o: Ordinal,
    line: &'a IkLine,
) -> (Option<BoneId>, Option<BoneId>, Option<Root<'a>>) {
    let resolve =
        |out: &mut IkOutput, r: &crate::syntax::tree::Spanned<String>| match resolve_or_explain(
            &rig.names.bone_names,
            "bone",
            r,
            "the IK family is left out",
        ) {
            Ok(id) => {
                out.references.push((
                    o,
                    Reference { span: r.span, target: Some(Target::Bone(id)), definition: false },
                ));
                Some(id)
            }
            Err(d) => {
                out.references
                    .push((o, Reference { span: r.span, target: None, definition: false }));
                out.diagnostics.push(LocalDiag { ord: o, diag: d });
                None
            }
        };
    let tip = resolve(out, &line.tip);
    let target = resolve(out, &line.target);
    let root = match &line.reach {
        IkReach::From(r) => resolve(out, r).map(Ok),
        IkReach::Up(n) => Some(Err(n)),
    };
    (tip, target, root)
}

/// The line's chain, root first, or why the family is left out.
fn checked_chain(
    sk: &Skeleton,
    families: &[IkFamily],
    tips: &[BoneId],
    line: &IkLine,
    tip: BoneId,
    target: BoneId,
    root: Root<'_>,
) -> Result<Vec<BoneId>, Diagnostic> {
    let chain = chain_of(sk, line, tip, root)?;
    if let Some(d) = target_in_own_chain(sk, line, &chain, target) {
        return Err(d);
    }
    if let Some(d) = overlap_with_families(sk, families, tips, line, &chain, target) {
        return Err(d);
    }
    if families.len() >= MAX_IK_FAMILIES {
        return Err(Diagnostic::error(
            line.span,
            format!("a script may define at most {MAX_IK_FAMILIES} IK families"),
        ));
    }
    Ok(chain)
}

/// The chain from `root` (or `up N` parents) down to the tip, root first.
fn chain_of(
    sk: &Skeleton,
    line: &IkLine,
    tip: BoneId,
    root: Root<'_>,
) -> Result<Vec<BoneId>, Diagnostic> {
    let name = |b: BoneId| clip(sk.bones[b.index()].name.as_str());
    // The chain, tip first.
    let mut chain = vec![tip];
    match root {
        Err(n) => {
            for _ in 0..n.node {
                let last = chain[chain.len() - 1];
                match sk.bones[last.index()].parent {
                    Some(p) => chain.push(p),
                    None => {
                        return Err(Diagnostic::error(
                            n.span,
                            format!(
                                "`{}` has {} above it, not {}",
                                name(tip),
                                match chain.len() - 1 {
                                    0 => "no parent".to_string(),
                                    1 => "only 1 parent".to_string(),
                                    k => format!("only {k} parents"),
                                },
                                n.node
                            ),
                        )
                        .hint("the IK family is left out"));
                    }
                }
            }
        }
        Ok(root) => {
            let span = match &line.reach {
                IkReach::From(r) => r.span,
                IkReach::Up(n) => n.span,
            };
            if root == tip {
                return Err(Diagnostic::error(
                    span,
                    "a chain needs at least two bones: start it above the tip",
                )
                .hint("the IK family is left out"));
            } else if !under(sk, tip, root) {
                return Err(Diagnostic::error(
                    span,
                    format!(
                        "`{}` is not above `{}`: a chain follows the tip's parents",
                        name(root),
                        name(tip)
                    ),
                )
                .hint("the IK family is left out"));
            }
            while chain[chain.len() - 1] != root && chain.len() <= crate::syntax::tree::MAX_IK_CHAIN
            {
                let last = chain[chain.len() - 1];
                match sk.bones[last.index()].parent {
                    Some(p) => chain.push(p),
                    None => break,
                }
            }
            if chain.len() > crate::syntax::tree::MAX_IK_CHAIN {
                return Err(Diagnostic::error(
                    span,
                    format!("a chain may hold at most {} bones", crate::syntax::tree::MAX_IK_CHAIN),
                )
                .hint("the IK family is left out"));
            }
        }
    }
    chain.reverse();
    Ok(chain)
}

/// The error when the target hangs below its own chain's first bone.
fn target_in_own_chain(
    sk: &Skeleton,
    line: &IkLine,
    chain: &[BoneId],
    target: BoneId,
) -> Option<Diagnostic> {
    let name = |b: BoneId| clip(sk.bones[b.index()].name.as_str());
    let first = chain[0];
    under(sk, target, first).then(|| {
        Diagnostic::error(
            line.target.span,
            format!(
                "the target `{}` hangs below `{}`, the first bone of its own chain: turning the chain would move the target it reaches for",
                name(target),
                name(first)
            ),
        )
        .hint("make the target a bone outside the chain, e.g. a child of the chain's parent or of the root")
        .hint("the IK family is left out")
    })
}

/// The error when this family and an accepted one would move each other.
fn overlap_with_families(
    sk: &Skeleton,
    families: &[IkFamily],
    tips: &[BoneId],
    line: &IkLine,
    chain: &[BoneId],
    target: BoneId,
) -> Option<Diagnostic> {
    let name = |b: BoneId| clip(sk.bones[b.index()].name.as_str());
    let first = chain[0];
    for (f, fam) in families.iter().enumerate() {
        let other_first = fam.bones[0];
        let moved_here = chain.iter().copied().chain([target]).find(|&b| under(sk, b, other_first));
        let moves_other =
            fam.bones.iter().copied().chain([fam.target]).find(|&b| under(sk, b, first));
        let msg = match (moved_here, moves_other) {
            (Some(b), _) if b == other_first => {
                format!(
                    "`{}` is the first bone of the IK family of `{}`, which turns it",
                    name(b),
                    name(tips[f])
                )
            }
            (Some(b), _) => format!(
                "`{}` hangs below `{}`, the first bone of the IK family of `{}`, which turns it",
                name(b),
                name(other_first),
                name(tips[f])
            ),
            (None, Some(b)) => format!(
                "this chain turns `{}`, which the IK family of `{}` uses (its {})",
                name(b),
                name(tips[f]),
                if b == fam.target { "target" } else { "chain" }
            ),
            (None, None) => continue,
        };
        return Some(
            Diagnostic::error(line.span, msg)
                .hint("every family is solved on the pose before IK, as in SkelForm, so one family cannot follow another's turn")
                .hint("the IK family is left out"),
        );
    }
    None
}
