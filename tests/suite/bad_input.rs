//! Bad input never hurts: a huge token is quoted in a message only in part,
//! a file that is not text is one clear error.
//!
//! Every token of every example, conformance script and diagnostics fixture
//! is made 3000 characters long in turn (the token with a long tail, so it
//! keeps its role where it can, and a long run of one character), and every
//! message and hint of the compile and of the pose assertions must stay
//! short: a message that quoted the whole token would be thousands of
//! characters long.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use crate::common;

use std::path::PathBuf;

use skelpad::check::expect::compile_checked;

/// Longer than any message quoting a few clipped names and a fixed text.
const MAX_MESSAGE_CHARS: usize = 1000;
const LONG: usize = 3000;

fn scripts() -> Vec<PathBuf> {
    let root = common::manifest();
    let mut out = Vec::new();
    for dir in
        ["examples", "tests/conformance", "tests/conformance_extra", "tests/fixtures/diagnostics"]
    {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "skel2d") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The byte ranges of the whitespace-separated tokens of `text`.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.len()));
    }
    out
}

#[test]
fn a_long_token_is_quoted_in_part_everywhere() {
    let mut checked = 0usize;
    // Each message that is too long, by its first words (one per place).
    let mut too_long: std::collections::BTreeMap<String, String> = Default::default();
    for path in scripts() {
        let text = std::fs::read_to_string(&path).unwrap();
        for (s, e) in tokens(&text) {
            let tok = &text[s..e];
            let tail = tok.chars().last().unwrap_or('a');
            let tail = if tail.is_alphanumeric() { tail } else { 'q' };
            let variants = [
                format!("{tok}{}", tail.to_string().repeat(LONG)),
                format!("{}{tok}", "€".repeat(LONG)),
            ];
            for v in variants {
                let mutated = format!("{}{v}{}", &text[..s], &text[e..]);
                let comp = compile_checked(&mutated);
                for d in &comp.diagnostics {
                    for m in std::iter::once(&d.message).chain(&d.hints) {
                        let n = m.chars().count();
                        if n > MAX_MESSAGE_CHARS {
                            let key: String = m.chars().take(24).collect();
                            too_long.entry(key).or_insert_with(|| {
                                let m: String = m.chars().take(200).collect();
                                format!("{n} characters, {}: token `{tok}`: {m}", path.display())
                            });
                        }
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "only {checked} variants");
    assert!(
        too_long.is_empty(),
        "messages too long:\n{}",
        too_long.into_values().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn a_long_line_is_shown_in_part_with_its_true_line_and_column() {
    // A bone line whose second token is 200 KB long, after a 300-byte one.
    let first = format!("a{}", "b".repeat(299));
    let text = format!("# x\nskeleton\n\t{first} q{} x1\n\thip\n", "z".repeat(200_000));
    let comp = skelpad::compile::compile(&text);
    let d = comp.diagnostics.iter().find(|d| d.message.contains("not a valid bone property"));
    let d = d.expect("the long token is reported").clone();
    let out = skelpad::cli::report::render_plain(
        std::path::Path::new("long.skel2d"),
        &text,
        std::slice::from_ref(&d),
    );
    assert!(out.len() < 2000, "{} bytes of report: {}", out.len(), &out[..2000]);
    // Line 3, column: the tab, the 300-byte name, a space, then the token.
    assert!(out.contains("long.skel2d:3:303"), "{out}");
    assert!(
        out.contains("3 │ …bbb") && out.contains("bbb qzzz") && out.contains("zzz…\n"),
        "{out}"
    );
    assert!(out.contains("^^^"), "the underline is kept: {out}");
    // A short line is shown whole, as before.
    let short = "skeleton\n\tarm q5 x1\n";
    let comp = skelpad::compile::compile(short);
    let out = skelpad::cli::report::render_plain(
        std::path::Path::new("s.skel2d"),
        short,
        &comp.diagnostics,
    );
    assert!(out.contains("s.skel2d:2:6") && out.contains("arm q5 x1"), "{out}");
}

#[test]
fn a_binary_file_is_one_error_in_the_language_server() {
    use lsp_server::Notification;
    let mut server = skelpad::cli::language_server();
    let mut text = String::from("skeleton\n\tarm\n");
    text.push('\0');
    text.push_str(&"garbage ".repeat(10_000));
    let open = serde_json::json!({ "textDocument": {
        "uri": "file:///bin.skel2d", "languageId": "skel2d", "version": 1, "text": text,
    }});
    let out = server.notification(Notification::new("textDocument/didOpen".into(), open));
    assert_eq!(out.len(), 1);
    let diags = out[0].params["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["message"], "it is not a text file (a NUL byte at offset 14)", "{diags:?}");
}
