//! The files of `grammar/` agree with the parser on what sections there
//! are: the TextMate grammar is well-formed JSON whose includes all exist and
//! which opens a region for every section keyword; the EBNF defines a rule
//! for every section; and every example script's section headers use those
//! keywords (checked with the parser's roles).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::Path;

use skelpad::compile::compile;
use skelpad::syntax::Role;

use crate::common;

const KEYWORDS: [&str; 7] = ["skeleton", "skin", "order", "anim", "expect", "ik", "mix"];

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

/// The TextMate scopes (without `.skel2d`) a token of each role may be
/// colored with. A token may be split over several TextMate tokens (`l40`
/// is `l` and `40`); each part's innermost scope that is not a `meta.`
/// region must be one of its role's.
fn scopes_of(role: Role) -> &'static [&'static str] {
    match role {
        Role::SectionKeyword => &["keyword.control.section"],
        Role::BonePath => &["entity.name.type.bone"],
        Role::BoneRef => &["variable.other.bone"],
        Role::BoneProperty => &["keyword.other.property", "keyword.other.flag", "constant.numeric"],
        Role::SlotHead | Role::SlotRef => &[
            "variable.other.slot",
            "punctuation.definition.variable",
            "entity.name.tag.attachment",
            "punctuation.definition.attachment.begin",
            "punctuation.definition.attachment.end",
        ],
        Role::AttachmentType => &["storage.type.attachment", "punctuation.definition.storage"],
        Role::Property => &[
            "keyword.other.property",
            "support.type.property-name.timeline",
            "support.constant.style",
            "constant.numeric",
        ],
        Role::Number => &[
            "constant.numeric",
            "keyword.operator.arithmetic",
            "keyword.other.unit.fps",
            "keyword.other.unit.seconds",
            "punctuation.separator.comma",
        ],
        Role::Color => &["constant.other.color", "keyword.other.property"],
        Role::String => &[
            "string.quoted.double",
            "punctuation.definition.string.begin",
            "punctuation.definition.string.end",
        ],
        Role::Boolean => &["constant.language.boolean"],
        Role::AttachmentRef => &["entity.name.tag.attachment"],
        Role::Option => &[
            "keyword.other.modifier",
            "punctuation.separator.options",
            "support.function.easing",
            "constant.numeric",
            "keyword.operator.arithmetic",
            "keyword.operator.advance",
            "keyword.operator.tolerance",
        ],
        Role::Loop => &[
            "punctuation.section.loop.begin",
            "punctuation.section.loop.end",
            "punctuation.section.loop.count.begin",
            "punctuation.section.loop.count.end",
            "constant.numeric",
        ],
        Role::Advance => &["keyword.operator.advance"],
        Role::Event => &[
            "entity.name.function.event",
            "punctuation.definition.event",
            "keyword.other.event.fire",
        ],
        Role::PathCommand => &["keyword.operator.path", "keyword.operator.path.switch"],
        Role::Comment => &["comment.line.number-sign", "punctuation.definition.comment"],
        Role::Invalid => &[],
    }
}

/// A token of tokenize.js: line, start and end column (UTF-16), scopes.
type TmToken = (usize, usize, usize, Vec<String>);

/// `node` and a `node_modules` folder holding `vscode-textmate` and
/// `vscode-oniguruma`: `SKELPAD_TEXTMATE_MODULES` (as `.ci/run` sets), else
/// `editors/vscode/node_modules` after `npm install` there. `None` after
/// saying why when either is missing (a failure with
/// `SKELPAD_REQUIRE_NODE=1`).
fn textmate_modules() -> Option<std::path::PathBuf> {
    let node = std::process::Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let dir =
        std::env::var_os("SKELPAD_TEXTMATE_MODULES").map(std::path::PathBuf::from).unwrap_or_else(
            || Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode/node_modules"),
        );
    let modules = ["vscode-textmate", "vscode-oniguruma"].iter().all(|m| dir.join(m).is_dir());
    if node && modules {
        return Some(dir);
    }
    let why = if node {
        format!("vscode-textmate and vscode-oniguruma are not in {}", dir.display())
    } else {
        "`node` does not run".to_string()
    };
    assert!(
        std::env::var("SKELPAD_REQUIRE_NODE").as_deref() != Ok("1"),
        "SKELPAD_REQUIRE_NODE=1 but {why}: the TextMate grammar cannot be checked"
    );
    eprintln!(
        "SKIPPED the TextMate tokenization check: {why} (`npm install` in editors/vscode, or set SKELPAD_TEXTMATE_MODULES; SKELPAD_REQUIRE_NODE=1 turns this skip into a failure)"
    );
    None
}

/// Every example script, every `skel2d` block of the documentation and
/// every Help reference example (in its small script), tokenized by VS Code's own engine (vscode-textmate with vscode-oniguruma,
/// through `editors/vscode/test/tokenize.js`) with
/// `grammar/skel2d.tmLanguage.json`: every token the parser gives a role
/// is colored with a scope of that role, part by part, and nothing the
/// parser read is left unscoped.
#[test]
fn the_textmate_grammar_scopes_every_token_as_the_parser_reads_it() {
    let Some(modules) = textmate_modules() else { return };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<(String, String)> = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir(root.join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
        .collect();
    paths.sort();
    for p in paths {
        texts.push((p.display().to_string(), std::fs::read_to_string(&p).unwrap()));
    }
    for b in common::doc_blocks().into_iter().filter(|b| b.lang == "skel2d") {
        texts.push((format!("{}:{}", b.file, b.line), b.text));
    }
    // The conformance scripts that check clean (some show mistakes on purpose).
    for dir in ["tests/conformance", "tests/conformance_extra"] {
        let mut paths: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
            .collect();
        paths.sort();
        for p in paths {
            let text = std::fs::read_to_string(&p).unwrap();
            if compile(&text).diagnostics.is_empty() {
                texts.push((p.display().to_string(), text));
            }
        }
    }
    for e in skelpad::syntax::reference::REFERENCE.iter() {
        texts.push((format!("Help: {}", e.title), common::help_context(e)));
    }
    let input = serde_json::json!({
        "grammar": root.join("grammar/skel2d.tmLanguage.json"),
        "texts": texts.iter().map(|t| &t.1).collect::<Vec<_>>(),
    });
    let mut child = std::process::Command::new("node")
        .arg(root.join("editors/vscode/test/tokenize.js"))
        .env("SKELPAD_TEXTMATE_MODULES", &modules)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node starts");
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.to_string().as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "tokenize.js failed");
    let all: Vec<Vec<TmToken>> =
        serde_json::from_slice(&out.stdout).expect("tokenize.js prints JSON");
    assert_eq!(all.len(), texts.len());

    let (mut agree, mut parts) = (0usize, 0usize);
    let mut wrong: Vec<String> = Vec::new();
    let mut per_role: std::collections::BTreeMap<String, usize> = Default::default();
    for ((name, text), tokens) in texts.iter().zip(&all) {
        let comp = compile(text);
        assert!(comp.diagnostics.is_empty(), "{name} is not clean");
        let line_starts: Vec<usize> =
            std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        // (line, UTF-16 column) of a byte offset.
        let place = |b: usize| {
            let line = line_starts.partition_point(|&s| s <= b) - 1;
            (line, text[line_starts[line]..b].encode_utf16().count())
        };
        for r in comp.roles() {
            let (start, end) = (r.span.start as usize, r.span.end as usize);
            let (line, col0) = place(start);
            let col1 = col0 + text[start..end].encode_utf16().count();
            let mut ok = true;
            let mut seen = Vec::new();
            for t in tokens.iter().filter(|t| t.0 == line && t.1 < col1 && t.2 > col0) {
                parts += 1;
                let leaf =
                    t.3.iter()
                        .rev()
                        .find(|s| !s.starts_with("meta.") && !s.starts_with("source."))
                        .map(|s| s.trim_end_matches(".skel2d"));
                seen.push(leaf.unwrap_or("(unscoped)").to_string());
                ok &= leaf.is_some_and(|l| scopes_of(r.role).contains(&l));
            }
            *per_role.entry(format!("{:?}", r.role)).or_default() += 1;
            if ok && !seen.is_empty() {
                agree += 1;
            } else {
                wrong.push(format!(
                    "{name}: `{}` ({:?}) scoped {seen:?}",
                    &text[start..end],
                    r.role
                ));
            }
        }
    }
    let total = agree + wrong.len();
    eprintln!(
        "{} texts, {total} tokens with roles ({parts} TextMate parts): {agree} agree, {} do not; per role {per_role:?}",
        texts.len(),
        wrong.len()
    );
    assert!(wrong.is_empty(), "{} tokens disagree:\n{}", wrong.len(), wrong.join("\n"));
    assert!(total > 2000, "{total} tokens checked");
}
