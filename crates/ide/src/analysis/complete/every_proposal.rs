//! Every completion proposal, put where it was proposed, makes a script
//! that compiles with no diagnostic: the words completion offers are words
//! the parser and the compiler take, in the place they were offered.

use super::{Proposal, complete};
use skelpad_lang::compile::compile;

/// The rig every context is written into: one of each attachment type, a
/// skin, an animation with a bone, a slot and an event item.
const RIG: &str = "skeleton
\tarm l10
\t\t@ :rect w2 h2
\tarm.hand l5
\t\t@nail :circle d1
\tleg l5
\t\t@ :path
\t\t\tM 0,0
\t\t\tL 1,1
\thead
\t\t@face :sprite \"face\"
\t\t@ell :ellipse w1 h1
\tleg.foot l2
skin \"other\"
\t@arm :rect w1 h1
anim \"walk\" 24fps
\tarm
\t\tr 0 -> 10
\t@arm
\t\ta 1 -> 0
\t!step
\t\te ! -> !
";

/// Where a context's cursor is (`‸`), and what follows it on its line and
/// below (completion reads only the line up to the cursor). A proposal is put in every context of its group (the same
/// place, different lines around it: a bone item needs bone timelines
/// below it, a slot item slot timelines) and must compile clean in one.
struct Context {
    group: &'static str,
    /// Appended to [`RIG`]; holds one `‸`.
    text: &'static str,
}

const fn c(group: &'static str, text: &'static str) -> Context {
    Context { group, text }
}

const CONTEXTS: &[Context] = &[
    c("section keyword", "‸\n"),
    c("bone line name", "skeleton\n\t‸ l3\n"),
    c("bone property", "skeleton\n\ttoe ‸\n"),
    c("slot name", "skeleton\n\ttoe\n\t\t‸ :rect w1 h1\n"),
    c("attachment type", "skeleton\n\ttoe\n\t\t@ ‸\n"),
    c("sprite property", "skeleton\n\ttoe\n\t\t@ :sprite ‸\n"),
    c("rect property", "skeleton\n\ttoe\n\t\t@ :rect ‸\n"),
    c("circle property", "skeleton\n\ttoe\n\t\t@ :circle ‸\n"),
    c("ellipse property", "skeleton\n\ttoe\n\t\t@ :ellipse ‸\n"),
    c("path property", "skeleton\n\ttoe\n\t\t@ :path ‸\n\t\t\tM 0,0\n\t\t\tL 1,1\n"),
    c("path command", "skeleton\n\ttoe\n\t\t@ :path\n\t\t\t‸\n"),
    c("path command", "skeleton\n\ttoe\n\t\t@ :path\n\t\t\tM 0,0\n\t\t\t‸\n"),
    c("path point's bone", "skeleton\n\ttoe\n\t\t@ :path\n\t\t\tM 0,0:‸\n"),
    c("skin name", "skin ‸\n\t@arm :rect w3 h3\n"),
    c("skin item", "skin \"other\"\n\t‸ :rect w3 h3\n"),
    c("skin item type", "skin \"other\"\n\t@arm ‸\n"),
    c("draw order", "order\n\t‸\n"),
    c("anim name", "anim ‸\n\tarm\n\t\tx 0 -> 1\n"),
    c("anim header option", "anim \"run\" ‸\n\tarm\n\t\tx 0 -> 1\n"),
    c("anim item", "anim \"run\"\n\t‸\n\t\tx 0 -> 1\n"),
    c("anim item", "anim \"run\"\n\t‸\n\t\ta 1 -> 0\n"),
    c("anim item", "anim \"run\"\n\t‸\n\t\te ! -> !\n"),
    c("item option", "anim \"run\"\n\tarm ‸\n\t\tx 0 -> 1\n"),
    // (`spring` needs a bone with a parent, `chain` one with bones below.)
    c("item option", "anim \"run\"\n\thand ‸\n\t\tx 0 -> 1\n"),
    c("bone timeline", "anim \"run\"\n\tarm\n\t\t‸\n"),
    c("slot timeline", "anim \"run\"\n\t@arm\n\t\t‸\n"),
    c("event line", "anim \"run\"\n\t!step\n\t\t‸\n"),
    c("event value", "anim \"run\"\n\t!step\n\t\te ! ‸\n"),
    c("timeline value", "anim \"run\"\n\tarm\n\t\tx 0 ‸\n"),
    c("flip value", "anim \"run\"\n\tarm\n\t\ts ‸\n"),
    c("attachment value", "anim \"run\"\n\t@arm\n\t\t@ ‸\n"),
    c("expect name", "expect ‸\n"),
    c("expect target", "expect\n\t‸ r0 ~1000\n"),
    c("expect target", "expect\n\t‸ a1\n"),
    c("expect target", "expect \"walk\" 0\n\t‸\n"),
    c("expect bone check", "expect\n\tarm ‸\n"),
    c("expect bone check", "expect\n\tarm ‸ r0\n"),
    c("expect slot check", "expect\n\t@arm ‸\n"),
    c("expect slot check", "expect\n\t@arm ‸ a1\n"),
    c("expect event check", "expect \"walk\" 0\n\t!step ‸\n"),
    c("ik tip", "ik\n\t‸ to head up 1\n"),
    c("ik word", "ik\n\thand ‸ up 1\n"),
    c("ik word", "ik\n\thand ‸\n"),
    c("ik word", "ik\n\thand to leg ‸\n"),
    c("ik word", "ik\n\thand to leg up 1 ‸\n"),
    c("ik target", "ik\n\thand to ‸ up 1\n"),
    c("ik target", "ik\n\tleg.foot to ‸ up 1\n"),
];

/// The script of a context with `p` put in place (its example: the label
/// with what it needs to be whole).
fn inserted(doc: &str, p: &Proposal) -> String {
    let mut out = doc.to_string();
    out.replace_range(p.replace.range(), p.example());
    out
}

#[test]
fn every_proposal_compiles_where_it_is_proposed() {
    assert!(compile(RIG).diagnostics.is_empty(), "{:?}", compile(RIG).diagnostics);
    // For each group and label: the first diagnostic met, or `None` once
    // the proposal compiled clean in one of the group's contexts.
    let mut results: Vec<(&str, String, Option<String>)> = Vec::new();
    for c in CONTEXTS {
        let with_cursor = format!("{RIG}{}", c.text);
        let at = with_cursor.find('‸').expect("a cursor");
        let doc = with_cursor.replacen('‸', "", 1);
        let comp = compile(&doc);
        let proposals = complete(&doc, &comp, at);
        assert!(!proposals.is_empty(), "{}: nothing proposed in {:?}", c.group, c.text);
        for p in proposals {
            assert!(p.example().contains(&p.label), "{}: {p:?}", c.group);
            let text = inserted(&doc, &p);
            let outcome = compile(&text).diagnostics.first().map(|d| {
                let line = text[..p.replace.start as usize].rfind('\n').map_or(0, |i| i + 1);
                let line = text[line..].lines().next().unwrap_or("");
                format!("`{}` in {line:?}: {}", p.label, d.message)
            });
            match results.iter_mut().find(|r| r.0 == c.group && r.1 == p.label) {
                Some(r) if outcome.is_none() => r.2 = None,
                Some(_) => {}
                None => results.push((c.group, p.label, outcome)),
            }
        }
    }
    let failures: Vec<String> =
        results.iter().filter_map(|(g, _, o)| o.as_ref().map(|o| format!("{g}: {o}"))).collect();
    let tried = results.len();
    assert!(failures.is_empty(), "{} of {tried} failed:\n{}", failures.len(), failures.join("\n"));
    assert!(tried > 200, "only {tried} proposals");
}
