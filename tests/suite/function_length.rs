//! No function over 80 lines outside test code, unless a comment directly
//! above it (among its doc comments and attributes) starts with
//! `// Long because:` and gives the reason (issue 35). Scans every `.rs`
//! under `crates/*/src`, `src` and `examples`, leaving out `#[cfg(test)]`
//! items and the files they declare; counts from the line of `fn` to the
//! line of the closing brace.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::layering::{code_only, rust_files};

/// The longest a function may be without a stated reason.
const MAX_LINES: usize = 80;

/// The comment that states why a function is longer.
const REASON: &str = "// Long because:";

/// The position just after the brace matching the `{` at `open`.
fn matching_brace(code: &[u8], open: usize) -> usize {
    let mut depth = 0usize;
    for (k, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return k + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// The end of the item starting at `from`: after its `;` or its block.
fn item_end(code: &[u8], from: usize) -> usize {
    match code[from..].iter().position(|&c| c == b'{' || c == b';') {
        Some(k) if code[from + k] == b'{' => matching_brace(code, from + k),
        Some(k) => from + k + 1,
        None => code.len(),
    }
}

/// `code` with every `#[cfg(test)]` item blanked (newlines kept, so line
/// numbers hold), and the names of modules declared test-only
/// (`#[cfg(test)] mod tests;`).
fn blank_tests(code: &str) -> (String, Vec<String>) {
    let mut bytes = code.as_bytes().to_vec();
    let mut test_mods = Vec::new();
    let mark = b"#[cfg(test)]";
    let mut at = 0;
    while let Some(k) = bytes[at..].windows(mark.len()).position(|w| w == mark) {
        let start = at + k;
        let end = item_end(&bytes, start + mark.len());
        let item = String::from_utf8_lossy(&bytes[start + mark.len()..end]).into_owned();
        let decl = item.trim().trim_end_matches(';');
        if !item.contains('{')
            && let Some(name) = decl.strip_prefix("mod ").or_else(|| decl.strip_prefix("pub mod "))
        {
            test_mods.push(name.trim().to_string());
        }
        for b in &mut bytes[start..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        at = end;
    }
    (String::from_utf8_lossy(&bytes).into_owned(), test_mods)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Whether the lines above line `line` (0-based), through the comments and
/// attributes that lead into it, include one starting with [`REASON`].
fn has_reason(lines: &[&str], line: usize) -> bool {
    lines[..line]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("//") || l.starts_with("#["))
        .any(|l| l.starts_with(REASON))
}

/// The functions of `source` over [`MAX_LINES`] lines with no reason stated
/// above them: (name, first line 1-based, lines).
fn long_functions(source: &str) -> Vec<(String, usize, usize)> {
    let (code, _) = blank_tests(&code_only(source));
    let code = code.as_bytes();
    let lines: Vec<&str> = source.lines().collect();
    let line_of = |pos: usize| code[..pos].iter().filter(|&&c| c == b'\n').count();
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(k) = code[at..].windows(3).position(|w| w == b"fn ") {
        let start = at + k;
        at = start + 3;
        if start > 0 && is_ident(code[start - 1]) {
            continue;
        }
        let name: String = code[at..]
            .iter()
            .skip_while(|c| c.is_ascii_whitespace())
            .take_while(|&&c| is_ident(c))
            .map(|&c| c as char)
            .collect();
        // `fn(…)` is a pointer type, not a function.
        if name.is_empty() {
            continue;
        }
        let Some(open) = code[at..].iter().position(|&c| c == b'{' || c == b';') else {
            break;
        };
        if code[at + open] == b';' {
            continue;
        }
        let first = line_of(start);
        let end = matching_brace(code, at + open);
        let count = line_of(end.saturating_sub(1)) - first + 1;
        if count > MAX_LINES && !has_reason(&lines, first) {
            found.push((name, first + 1, count));
        }
    }
    found
}

/// The files to scan: every `.rs` under `crates/*/src`, `src`, `examples`.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![root.join("src"), root.join("examples")];
    for e in std::fs::read_dir(root.join("crates")).unwrap() {
        let src = e.unwrap().path().join("src");
        if src.is_dir() {
            dirs.push(src);
        }
    }
    let mut files = Vec::new();
    for d in dirs {
        rust_files(&d, &mut files);
    }
    files.sort();
    files
}

#[test]
fn no_function_is_over_80_lines_without_a_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = sources(root);
    // Files declared as test modules are test code.
    let mut test_only = BTreeSet::new();
    for f in &files {
        let (_, mods) = blank_tests(&code_only(&std::fs::read_to_string(f).unwrap()));
        let name = f.file_name().unwrap().to_string_lossy();
        let dir = if ["mod.rs", "lib.rs", "main.rs"].contains(&name.as_ref()) {
            f.parent().unwrap().to_path_buf()
        } else {
            f.with_extension("")
        };
        for m in mods {
            test_only.insert(dir.join(format!("{m}.rs")));
            test_only.insert(dir.join(&m).join("mod.rs"));
        }
    }
    let mut bad = Vec::new();
    let mut scanned = 0;
    for f in files.iter().filter(|f| !test_only.contains(*f)) {
        scanned += 1;
        for (name, line, count) in long_functions(&std::fs::read_to_string(f).unwrap()) {
            let rel = f.strip_prefix(root).unwrap().display();
            bad.push(format!("{rel}:{line} `{name}` is {count} lines"));
        }
    }
    assert!(scanned > 100, "only {scanned} files scanned");
    assert!(
        bad.is_empty(),
        "functions over {MAX_LINES} lines: split them, or state why above them with \
         `{REASON} …`:\n{}",
        bad.join("\n")
    );
}

/// No source file (tests included: they are read too) is over 800 lines
/// unless its first lines say why with `// Long because:`.
#[test]
fn no_file_is_over_800_lines_without_a_reason() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = sources(root);
    rust_files(&root.join("tests"), &mut files);
    rust_files(&root.join("benches"), &mut files);
    let mut bad = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let lines = text.lines().count();
        let said = text.lines().take(20).any(|l| l.trim_start().starts_with(REASON));
        if lines > 800 && !said {
            bad.push(format!("{} is {lines} lines", f.strip_prefix(root).unwrap().display()));
        }
    }
    assert!(files.len() > 150, "only {} files", files.len());
    assert!(bad.is_empty(), "files over 800 lines: split them:\n{}", bad.join("\n"));
}

/// A function of `lines` lines (the `fn` line and the closing brace included).
fn function(name: &str, lines: usize) -> String {
    let mut s = format!("fn {name}() {{\n");
    for k in 0..lines - 2 {
        s.push_str(&format!("    let _x{k} = \"}}\"; // {{\n"));
    }
    s.push_str("}\n");
    s
}

#[test]
fn a_long_function_is_caught_and_a_reason_or_test_code_excuses_it() {
    let short = function("short", MAX_LINES);
    let long = function("long", MAX_LINES + 1);
    assert!(long_functions(&short).is_empty());
    // Lines 1-2, `short` on 3..=82, a blank line, docs and an attribute: `long` on 86.
    let src = format!("use x;\n\n{short}\n/// Docs.\n#[inline]\n{long}");
    assert_eq!(long_functions(&src), [("long".to_string(), MAX_LINES + 6, MAX_LINES + 1)]);
    let nested = format!("impl T {{\n    pub(crate) {long}}}\n");
    assert_eq!(long_functions(&nested).len(), 1);
    let reason = format!("// Long because: a flat table.\n/// Docs.\n{long}");
    assert!(long_functions(&reason).is_empty());
    // A reason further up, above another item, does not count.
    let far = format!("// Long because: a flat table.\nconst A: u8 = 1;\n{long}");
    assert_eq!(long_functions(&far).len(), 1);
    let tests = format!("#[cfg(test)]\nmod tests {{\n{long}}}\n#[cfg(test)]\n{long}");
    assert!(long_functions(&tests).is_empty());
    let pointer = format!("type F = fn(u8) -> u8;\n{short}");
    assert!(long_functions(&pointer).is_empty());
}
