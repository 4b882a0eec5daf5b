//! The files of `grammar/` agree with the parser on what sections there
//! are: the TextMate grammar is well-formed JSON whose includes all exist and
//! which opens a region for every section keyword; the EBNF defines a rule
//! for every section; and every example script's section headers use those
//! keywords (checked with the parser's roles).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::Path;

use skelpad::compile::compile;
use skelpad::syntax::Role;

const KEYWORDS: [&str; 6] = ["skeleton", "skin", "order", "anim", "expect", "ik"];

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)).unwrap()
}

fn includes(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                if k == "include"
                    && let Some(s) = x.as_str()
                {
                    out.push(s.to_string());
                }
                includes(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| includes(x, out)),
        _ => {}
    }
}

#[test]
fn the_textmate_grammar_covers_every_section_and_resolves_its_includes() {
    let g: serde_json::Value =
        serde_json::from_str(&read("grammar/skel2d.tmLanguage.json")).expect("valid JSON");
    assert_eq!(g["scopeName"], "source.skel2d");
    let repo = g["repository"].as_object().unwrap();
    let mut inc = Vec::new();
    includes(&g, &mut inc);
    for i in &inc {
        let key = i.strip_prefix('#').unwrap_or_else(|| panic!("external include {i}"));
        assert!(repo.contains_key(key), "include {i} has no repository entry");
    }
    for kw in KEYWORDS {
        let key = format!("{kw}-section");
        let sec = repo.get(&key).unwrap_or_else(|| panic!("no {key}"));
        assert_eq!(sec["begin"], format!("^({kw})(?=\\s|$)"), "{key}");
        assert!(inc.contains(&format!("#{key}")), "{key} is not used at the top level");
    }
}

#[test]
fn the_ebnf_has_a_rule_for_every_section() {
    let e = read("grammar/skel2d.ebnf");
    for kw in KEYWORDS {
        assert!(e.contains(&format!("{kw}-section")), "no {kw}-section");
        assert!(
            e.lines().any(
                |l| l.starts_with(&format!("{kw}-section")) && l.contains(&format!("\"{kw}\""))
            ),
            "{kw}-section rule"
        );
    }
}

#[test]
fn example_headers_use_the_grammars_keywords() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut seen = std::collections::BTreeSet::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        let comp = compile(&text);
        for r in comp.roles().filter(|r| r.role == Role::SectionKeyword) {
            let kw = &text[r.span.range()];
            assert!(KEYWORDS.contains(&kw), "{kw}");
            seen.insert(kw.to_string());
        }
    }
    assert!(seen.contains("expect"), "the examples use expect sections");
}
