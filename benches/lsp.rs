//! What `skelpad lsp` spends per request on generated scripts (the
//! generator's styles, 1000 bones, 10 animations; `keystroke` also at 5000
//! bones): every request a person triggers while typing, each answered to
//! the JSON value the server sends. The server is driven through its
//! message handlers, without stdio. `machine_reference` says how fast the
//! shared machine was (BENCHMARKS.md; `scripts/bench-rounds.py` runs it
//! around each row). Run with `cargo bench --bench lsp`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use divan::Bencher;
use lsp_server::{Notification, Request, RequestId};
use serde_json::{Value, json};
use skelpad::generate;
use skelpad::lsp::Server;

#[path = "support/reference.rs"]
mod reference;

// Measured with the allocator the skelpad binary uses.
skelpad::global_allocator!();

fn main() {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    divan::main();
}

const URI: &str = "file:///bench.skel2d";

/// Styles of `generate::STYLES` the requests are measured on.
const STYLES: [&str; 4] = ["plain", "deep-long", "wide-fans", "everything"];

fn text(style: &str, bones: usize) -> String {
    let style = generate::style(style).unwrap_or_else(|| panic!("unknown style {style}"));
    generate::styled(&style, bones, 10)
}

fn open(text: &str) -> Server {
    let mut s = skelpad::cli::language_server();
    s.notification(Notification::new(
        "textDocument/didOpen".into(),
        json!({ "textDocument": { "uri": URI, "languageId": "skel2d", "version": 1, "text": text } }),
    ));
    s
}

/// (line, character) of a bone reference: the first animation item of the
/// middle animation, its first character.
fn bone_item(text: &str) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let anims: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("anim")).collect();
    let anim = anims[anims.len() / 2];
    let item = (anim + 1..lines.len())
        .find(|&i| {
            let l = lines[i];
            l.starts_with('\t') && !l.starts_with("\t\t") && !l.starts_with("\t@")
        })
        .unwrap();
    (item, 1)
}

/// (line, character) of the first timeline value of the last animation.
fn last_anim_value(text: &str) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let anim = lines.iter().rposition(|l| l.starts_with("anim")).unwrap();
    let tl = (anim..lines.len()).find(|&i| lines[i].starts_with("\t\t")).unwrap();
    (tl, lines[tl].find(' ').unwrap() + 1)
}

fn at(line: usize, character: usize) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } })
}

/// The answer's JSON text, as the server writes it to its client.
fn answer(s: &mut Server, method: &str, params: Value) -> String {
    let r = s.answer(Request::new(RequestId::from(1), method.into(), params));
    r.result.unwrap_or_else(|e| panic!("{method}: {e:?}"))
}

/// The answer read back, for the fields a bench needs from it.
fn request(s: &mut Server, method: &str, params: Value) -> Value {
    serde_json::from_str(&answer(s, method, params)).unwrap()
}

/// Types a digit at (line, ch) and deletes it: two changes, each answered
/// with the document's diagnostics.
fn type_and_delete(s: &mut Server, version: &mut i32, line: usize, ch: usize) {
    change(s, version, line, ch, true);
    change(s, version, line, ch, false);
}

/// Types a digit at (line, ch), or deletes the one typed there.
fn change(s: &mut Server, version: &mut i32, line: usize, ch: usize, typing: bool) {
    let (range, t) = if typing { ((ch, ch), "1") } else { ((ch, ch + 1), "") };
    *version += 1;
    let out = s.notification(Notification::new(
        "textDocument/didChange".into(),
        json!({ "textDocument": { "uri": URI, "version": *version },
                "contentChanges": [{ "range": { "start": { "line": line, "character": range.0 },
                                                "end": { "line": line, "character": range.1 } }, "text": t }] }),
    ));
    assert_eq!(out.len(), 1, "diagnostics published");
    divan::black_box(out);
}

/// One keystroke in an animation to its published diagnostics (a digit
/// typed and deleted: two keystrokes per iteration).
#[divan::bench(args = STYLES, consts = [1000, 5000])]
fn keystroke<const BONES: usize>(bencher: Bencher, style: &str) {
    let text = text(style, BONES);
    let mut s = open(&text);
    let (line, ch) = last_anim_value(&text);
    let mut version = 1;
    bencher.bench_local(|| type_and_delete(&mut s, &mut version, line, ch));
}

#[divan::bench(args = STYLES)]
fn completion(bencher: Bencher, style: &str) {
    let text = text(style, 1000);
    let mut s = open(&text);
    let (line, ch) = bone_item(&text);
    bencher.bench_local(|| answer(&mut s, "textDocument/completion", at(line, ch)));
}

#[divan::bench(args = STYLES)]
fn hover(bencher: Bencher, style: &str) {
    let text = text(style, 1000);
    let mut s = open(&text);
    let (line, ch) = bone_item(&text);
    bencher.bench_local(|| answer(&mut s, "textDocument/hover", at(line, ch)));
}

#[divan::bench(args = STYLES)]
fn definition(bencher: Bencher, style: &str) {
    let text = text(style, 1000);
    let mut s = open(&text);
    let (line, ch) = bone_item(&text);
    bencher.bench_local(|| answer(&mut s, "textDocument/definition", at(line, ch)));
}

#[divan::bench(args = STYLES)]
fn references(bencher: Bencher, style: &str) {
    let text = text(style, 1000);
    let mut s = open(&text);
    let (line, ch) = bone_item(&text);
    let mut p = at(line, ch);
    p["context"] = json!({ "includeDeclaration": true });
    bencher.bench_local(|| answer(&mut s, "textDocument/references", p.clone()));
}

#[divan::bench(args = STYLES)]
fn document_symbols(bencher: Bencher, style: &str) {
    let text = text(style, 1000);
    let mut s = open(&text);
    let p = json!({ "textDocument": { "uri": URI } });
    bencher.bench_local(|| answer(&mut s, "textDocument/documentSymbol", p.clone()));
}

#[divan::bench(args = STYLES)]
fn rename(bencher: Bencher, style: &str) {
    let text = text(style, 1000);
    let mut s = open(&text);
    let (line, ch) = bone_item(&text);
    let mut p = at(line, ch);
    p["newName"] = json!("renamed");
    bencher.bench_local(|| answer(&mut s, "textDocument/rename", p.clone()));
}

#[divan::bench(args = STYLES)]
fn semantic_tokens_full(bencher: Bencher, style: &str) {
    let text = text(style, 1000);
    let mut s = open(&text);
    let p = json!({ "textDocument": { "uri": URI } });
    bencher.bench_local(|| answer(&mut s, "textDocument/semanticTokens/full", p.clone()));
}

/// Full tokens the first time a document is asked for them (just opened:
/// every section encoded); the rows above ask again for an unchanged one.
#[divan::bench(args = STYLES)]
fn semantic_tokens_full_first(bencher: Bencher, style: &str) {
    let text = text(style, 1000);
    let p = json!({ "textDocument": { "uri": URI } });
    bencher
        .with_inputs(|| open(&text))
        .bench_local_refs(|s| answer(s, "textDocument/semanticTokens/full", p.clone()));
}

/// The delta after a keystroke (the client's next request): the keystroke
/// itself is made outside the timing.
#[divan::bench(args = STYLES)]
fn semantic_tokens_delta(bencher: Bencher, style: &str) {
    let text = text(style, 1000);
    let (line, ch) = last_anim_value(&text);
    let mut s = open(&text);
    let full = request(
        &mut s,
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": URI } }),
    );
    let id = full["resultId"].as_str().unwrap().to_string();
    // (server, last result id, document version, whether the digit is
    // there), shared by the two closures.
    let state = std::cell::RefCell::new((s, id, 1, false));
    bencher
        .with_inputs(|| {
            let (s, id, version, typed) = &mut *state.borrow_mut();
            *typed = !*typed;
            change(s, version, line, ch, *typed);
            json!({ "textDocument": { "uri": URI }, "previousResultId": id })
        })
        .bench_local_values(|p| {
            let (s, id, _, _) = &mut *state.borrow_mut();
            let r = request(s, "textDocument/semanticTokens/full/delta", p);
            assert!(r.get("edits").is_some(), "a delta, not full tokens");
            *id = r["resultId"].as_str().unwrap().to_string();
            r
        });
}

/// How fast the machine is right now (see `support/reference.rs`; the
/// same bench as in `styles`).
#[divan::bench(args = [1, 2], sample_count = 20)]
fn machine_reference(bencher: Bencher, threads: usize) {
    let text = reference::reference_text();
    bencher.bench(|| reference::reference_round(divan::black_box(&text), threads));
}
