//! Data-driven diagnostics fixtures.
//!
//! Every `tests/fixtures/diagnostics/NAME.skel2d` is compiled and its
//! diagnostics are rendered the way `skelpad check` prints them (rustc
//! style, with the file shown as `NAME.skel2d`), followed by one summary
//! line. The result must equal the sibling `NAME.expected`.
//!
//! To refresh every `.expected` file after an intended change (or to create
//! the one of a new fixture), run:
//!
//!     UPDATE_EXPECT=1 cargo test --test suite fixtures::
//!
//! and review the diff before committing it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use expect_test::expect_file;
use skelpad::cli::report::render_plain;
use skelpad::compile::compile;

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/diagnostics")
}

/// Names (without extension) of the files in the fixture folder with this extension, sorted.
fn names_with_ext(ext: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(fixture_dir())
        .expect("the fixture folder exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .filter_map(|p| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
        .collect();
    names.sort();
    names
}

/// What a fixture's `.expected` file holds.
fn render(name: &str, text: &str) -> String {
    let comp = compile(text);
    let file = format!("{name}.skel2d");
    let mut out = render_plain(Path::new(&file), text, &comp.diagnostics);
    let errors = comp.diagnostics.iter().filter(|d| d.is_error()).count();
    let warnings = comp.diagnostics.len() - errors;
    out.push_str(&format!("{errors} error(s), {warnings} warning(s)\n"));
    // expect-test turns `\r\n` into `\n` when it reads an `.expected` file;
    // make sure a stray `\r` from a CRLF fixture can never cause a mismatch.
    out.replace('\r', "")
}

#[test]
fn diagnostics_fixtures() {
    let names = names_with_ext("skel2d");
    assert!(names.len() >= 25, "expected at least 25 fixtures, found {}", names.len());
    let mut failed = Vec::new();
    for name in &names {
        let path = fixture_dir().join(format!("{name}.skel2d"));
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("fixture {name}: cannot read: {e}"));
        let result = catch_unwind(AssertUnwindSafe(|| {
            let actual = render(name, &text);
            expect_file![fixture_dir().join(format!("{name}.expected"))].assert_eq(&actual);
        }));
        if result.is_err() {
            failed.push(name.clone());
        }
    }
    assert!(
        failed.is_empty(),
        "{} fixture(s) differ from their .expected file: {}\n(run `UPDATE_EXPECT=1 cargo test --test suite fixtures::` if the change is intended)",
        failed.len(),
        failed.join(", ")
    );
}

#[test]
fn every_expected_file_has_a_fixture() {
    let inputs = names_with_ext("skel2d");
    let stale: Vec<String> =
        names_with_ext("expected").into_iter().filter(|n| !inputs.contains(n)).collect();
    assert!(stale.is_empty(), ".expected files without a .skel2d input: {stale:?}");
}

#[test]
fn clean_fixtures_have_no_diagnostics() {
    // These fixtures exist to show that something is accepted silently.
    for name in [
        "clean_script",
        "order_entry_tab_comment_accepted",
        "reference_skeleton_prefix_disambiguates",
        "continuation_swallowed_by_comment",
    ] {
        let text = std::fs::read_to_string(fixture_dir().join(format!("{name}.skel2d")))
            .expect("fixture exists");
        let comp = compile(&text);
        assert!(comp.diagnostics.is_empty(), "fixture {name}: {:#?}", comp.diagnostics);
    }
}

#[test]
fn crlf_fixture_really_has_crlf_line_endings() {
    // Guards against an editor or git normalizing the fixture.
    let text = std::fs::read_to_string(fixture_dir().join("crlf_line_endings.skel2d"))
        .expect("fixture exists");
    assert!(text.contains("\r\n"), "crlf_line_endings.skel2d lost its CRLF line endings");
    let lf = text.replace("\r\n", "\n");
    // Same diagnostics with either line ending, apart from offsets.
    let a: Vec<String> = compile(&text).diagnostics.into_iter().map(|d| d.message).collect();
    let b: Vec<String> = compile(&lf).diagnostics.into_iter().map(|d| d.message).collect();
    assert_eq!(a, b);
}
