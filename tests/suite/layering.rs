//! The pipeline runs one way (ARCHITECTURE.md, "Layers"): a module may use
//! only modules of a lower layer. Between crates the compiler enforces it
//! (`skelpad-lang` < `skelpad-media`, `skelpad-ide` < `skelpad`); inside
//! them this test does. It reads every file under each crate's `src/`
//! (module paths relative to that crate's root),
//! finds the crate paths it names (`crate::…`, `use crate::{…}`, and
//! `super::` chains that climb to the crate root), leaving out comments,
//! string contents and test code (`#[cfg(test)]` items and the files they
//! declare), and fails on any edge against the order below.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may use modules of lower layers
/// only; modules of one layer do not use each other.
const LAYERS: &[&[&str]] = &[
    // Shared foundations: the data model, files, the allocator's setting,
    // PNG encoding (in skelpad-media).
    &["model", "io", "alloc", "png"],
    // Synthetic scripts name the model's limits.
    &["generate", "syntax"],
    &["compile"],
    &["runtime"],
    // Pose assertions and motion lints: they compile and they pose.
    &["check"],
    &["render"],
    &["formats"],
    // The one shape of a text change (skelpad-ide), that every feature
    // answers with and every front end applies.
    &["text_edit"],
    // The language features (skelpad-ide), answered in the language's own
    // terms, and the document every front end holds (text, compiler,
    // diagnostics); the text edits of an animator's tools, which use the
    // analysis' rename; then the language server, their adapter to the
    // protocol.
    &["analysis", "document"],
    &["edits"],
    &["lsp"],
    // The editor: it answers with the same language features.
    &["app"],
    // The command line opens the editor (`app::run`): the one wiring edge.
    &["cli"],
];

/// Edges against the order that are known and tracked, each with its reason
/// (file relative to `src/`, module used). Nothing else may be added here
/// without an issue that says how it goes away.
/// None today: pose assertions, once evaluated while compiling, are
/// resolved by `compile::expect` and evaluated by `check::expect`.
const KNOWN_EXCEPTIONS: &[(&str, &str)] = &[];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// The source with comments and the contents of string and character
/// literals blanked (newlines kept), so only code remains.
pub(super) fn code_only(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == 'r'
            && (next == Some('"')
                || (next == Some('#')
                    && !b.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric())))
        {
            // A raw string r"…" or r#"…"# (or a raw identifier r#name).
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.push('"');
            j += 1;
            loop {
                match b.get(j) {
                    None => break,
                    Some('"') if (1..=hashes).all(|k| b.get(j + k) == Some(&'#')) => {
                        j += 1 + hashes;
                        break;
                    }
                    Some(&x) => {
                        out.push(blank(x));
                        j += 1;
                    }
                }
            }
            out.push('"');
            i = j;
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{..}') or a lifetime ('a).
            let close = if next == Some('\\') {
                (i + 2..b.len().min(i + 12)).find(|&k| b[k] == '\'')
            } else {
                (b.get(i + 2) == Some(&'\'')).then_some(i + 2)
            };
            match close {
                Some(k) => {
                    out.push_str("' '");
                    i = k + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Test code removed: every item marked `#[cfg(test)]` (a block up to its
/// matching brace, or a declaration up to `;`). Returns the code and the
/// names of modules declared as test-only (`#[cfg(test)] mod tests;`).
fn without_tests(code: &str) -> (String, Vec<String>) {
    let mut out = String::new();
    let mut test_files = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        let brace = item.find('{');
        let semi = item.find(';');
        let end = match (brace, semi) {
            (Some(o), Some(s)) if s < o => {
                let decl = item[..s].trim();
                if let Some(name) =
                    decl.strip_prefix("mod ").or_else(|| decl.strip_prefix("pub mod "))
                {
                    test_files.push(name.trim().to_string());
                }
                s + 1
            }
            (None, Some(s)) => s + 1,
            (Some(o), _) => {
                let mut depth = 0usize;
                let mut end = item.len();
                for (k, ch) in item[o..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = o + k + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    out.push_str(rest);
    (out, test_files)
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first path segment of each path in `{a::b, c, d::{e, f}}` (the text
/// after the opening brace), at depth 0.
fn group_heads(s: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut start = true;
    let mut cur = String::new();
    for ch in s.chars() {
        match ch {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                start = true;
                cur.clear();
                continue;
            }
            _ => {}
        }
        if depth == 0 && start {
            if is_ident(ch) {
                cur.push(ch);
            } else if !cur.is_empty() {
                heads.push(std::mem::take(&mut cur));
                start = false;
            }
        }
    }
    if start && !cur.is_empty() {
        heads.push(cur);
    }
    heads
}

/// The top-level modules named from code inside module `path` (its
/// segments below the crate root, e.g. `["render", "export"]`).
fn references(path: &[&str], code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let bytes: Vec<char> = code.chars().collect();
    let text: String = bytes.iter().collect();
    let mut add = |after: &str| {
        if let Some(group) = after.strip_prefix('{') {
            found.extend(group_heads(group));
        } else {
            let head: String = after.chars().take_while(|&c| is_ident(c)).collect();
            if !head.is_empty() {
                found.insert(head);
            }
        }
    };
    let mut from = 0;
    while let Some(k) = text[from..].find("crate::") {
        let at = from + k;
        let before = text[..at].chars().next_back();
        if !before.is_some_and(|c| is_ident(c) || c == '$') {
            add(&text[at + "crate::".len()..]);
        }
        from = at + "crate::".len();
    }
    // `super::` chains long enough to reach the crate root.
    let mut from = 0;
    while let Some(k) = text[from..].find("super::") {
        let at = from + k;
        let before = text[..at].chars().next_back();
        let mut end = at;
        let mut n = 0;
        while text[end..].starts_with("super::") {
            end += "super::".len();
            n += 1;
        }
        if !before.is_some_and(|c| is_ident(c) || c == ':') && n >= path.len() {
            add(&text[end..]);
        }
        from = end;
    }
    found
}

/// Every edge of `module` (a top-level module name) that runs against the
/// layers: `(from, to)`.
fn violations(path: &[&str], source: &str) -> Vec<(String, String)> {
    let from = path[0];
    let Some(own) = layer(from) else { return vec![(from.into(), "(no layer)".into())] };
    let (code, _) = without_tests(&code_only(source));
    references(path, &code)
        .into_iter()
        .filter(|to| to != from)
        .filter(|to| match layer(to) {
            Some(l) => l >= own,
            // Not a module of ours (a crate-root item): nothing to check.
            None => false,
        })
        .map(|to| (from.to_string(), to))
        .collect()
}

/// The module path of a file under `src/` (`src/render/export.rs` →
/// `["render", "export"]`, `src/render/mod.rs` → `["render"]`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs").to_string();
        if stem != "mod" {
            parts.push(stem);
        }
    }
    parts
}

pub(super) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The `src/` folders of the workspace's crates, lowest first.
const CRATE_SOURCES: &[&str] = &["crates/lang/src", "crates/media/src", "crates/ide/src", "src"];

#[test]
fn every_reference_in_src_follows_the_layers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let mut bad = Vec::new();
    for dir in CRATE_SOURCES {
        let src = root.join(dir);
        assert!(src.is_dir(), "{} is missing", src.display());
        checked += check_crate(&src, &mut bad);
    }
    assert!(checked > 40, "only {checked} files checked");
    assert!(
        bad.is_empty(),
        "edges against the layers (ARCHITECTURE.md, \"Layers\"):\n{}",
        bad.join("\n")
    );
}

/// Checks the files of one crate's `src/` against the layers, adding each
/// bad edge to `bad`; returns how many files were read.
fn check_crate(src: &Path, bad: &mut Vec<String>) -> usize {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    // Files declared as test modules are test code.
    let mut test_only: BTreeSet<PathBuf> = BTreeSet::new();
    for f in &files {
        let (_, tests) = without_tests(&code_only(&std::fs::read_to_string(f).unwrap()));
        let dir = if f.file_name().is_some_and(|n| n == "mod.rs" || n == "lib.rs") {
            f.parent().unwrap().to_path_buf()
        } else {
            f.with_extension("")
        };
        for t in tests {
            test_only.insert(dir.join(format!("{t}.rs")));
            test_only.insert(dir.join(&t).join("mod.rs"));
        }
    }
    let mut checked = 0;
    for f in &files {
        let rel = f.strip_prefix(src).unwrap();
        let path = module_path(rel);
        // The crate root and the binary only declare and wire modules.
        if test_only.contains(f) || path.is_empty() || path == ["lib"] || path == ["main"] {
            continue;
        }
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        for (from, to) in violations(&refs, &std::fs::read_to_string(f).unwrap()) {
            if KNOWN_EXCEPTIONS.contains(&(rel.to_string_lossy().as_ref(), to.as_str())) {
                continue;
            }
            bad.push(format!("{}: `{from}` uses `{to}`", rel.display()));
        }
        checked += 1;
    }
    // Every top-level module has a layer.
    for f in &files {
        let path = module_path(f.strip_prefix(src).unwrap());
        if let Some(top) = path.first().filter(|t| *t != "lib" && *t != "main") {
            assert!(layer(top).is_some(), "module `{top}` has no layer in LAYERS");
        }
    }
    checked
}

#[test]
fn a_back_edge_is_caught() {
    // The edge this issue removed: the parser using the compiler's helper.
    let src = "use std::fmt;\nfn f() { crate::compile::names::closest(\"x\", [].into_iter()); }\n";
    assert_eq!(
        violations(&["syntax", "parse"], src),
        [("syntax".to_string(), "compile".to_string())]
    );
    // Groups, nested groups and `super::` chains that reach the root.
    let src = "use crate::{model::Color, io::{self, AtomicFiles}, cli::EXIT_OK};\n";
    assert_eq!(violations(&["app", "files"], src), [("app".to_string(), "cli".to_string())]);
    assert_eq!(
        violations(&["formats", "skf", "read"], "use super::super::super::app::run;"),
        [("formats".into(), "app".into())]
    );
    assert_eq!(
        violations(&["render"], "fn f() { super::formats::skf::x(); }"),
        [("render".into(), "formats".into())]
    );
    // Same layer, different modules.
    assert_eq!(violations(&["io"], "use crate::model::Color;"), [("io".into(), "model".into())]);
    // The edge that was the last known exception: compiling evaluating a pose.
    assert_eq!(
        violations(&["compile", "expect"], "use crate::runtime::evaluate;"),
        [("compile".into(), "runtime".into())]
    );
}

#[test]
fn allowed_edges_comments_strings_and_tests_are_not_edges() {
    let src = r##"
//! See [`crate::cli`] for the command line.
use crate::model::{Color, Easing};
use super::Pose; // within the module: super:: of a submodule
/* crate::app::run is called by crate::cli */
const HELP: &str = "crate::app";
const RAW: &str = r#"crate::cli "quoted""#;
fn f(c: char) -> bool { c == '{' || c == '"' }
fn g<'a>(s: &'a str) -> &'a str { s }
#[cfg(test)]
mod tests {
    use crate::cli::pose_document;
    fn h() { let s = "}"; }
}
#[cfg(test)]
mod more;
fn after() { crate::runtime::evaluate(); }
"##;
    assert_eq!(violations(&["render", "export"], src), Vec::<(String, String)>::new());
    let (_, test_files) = without_tests(&code_only(src));
    assert_eq!(test_files, ["more"]);
    // Code after a test module is still read.
    assert!(
        references(&["render", "export"], &without_tests(&code_only(src)).0).contains("runtime")
    );
    // The wiring edge: the command line opens the editor.
    assert!(violations(&["cli"], "fn f() { crate::app::run(None); }").is_empty());
}

/// `unsafe_code` is denied workspace-wide (Cargo.toml) and forbidden at the
/// root of each library crate; denied lints can be allowed locally: this
/// keeps the one allowance, mimalloc's option setter, in `src/alloc.rs`,
/// across the crates, the binary, benches, examples and tests.
#[test]
fn only_src_alloc_allows_unsafe_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for lib in ["crates/lang/src/lib.rs", "crates/media/src/lib.rs", "crates/ide/src/lib.rs"] {
        let code = std::fs::read_to_string(root.join(lib)).unwrap();
        assert!(code.contains("#![forbid(unsafe_code)]"), "{lib} must forbid unsafe code");
    }
    let mut files = Vec::new();
    for dir in ["src", "crates", "benches", "examples", "tests", "fuzz"] {
        if root.join(dir).is_dir() {
            rust_files(&root.join(dir), &mut files);
        }
    }
    files.sort();
    let mut allowing = Vec::new();
    for f in &files {
        let code = code_only(&std::fs::read_to_string(f).unwrap());
        // The library crates' roots name the lint to forbid it.
        let code = code.replace("#![forbid(unsafe_code)]", "");
        let mut words = code.split(|c: char| !is_ident(c));
        if words.any(|w| w == "unsafe" || w == "unsafe_code") {
            allowing.push(f.strip_prefix(root).unwrap().display().to_string());
        }
    }
    assert_eq!(allowing, ["src/alloc.rs"], "files with unsafe code or an allowance for it");
}
