//! What `skelpad lsp` spends per request on a generated script (1000 and
//! 5000 bones, 4 animations): a keystroke inside an animation (incremental
//! sync, recompile, diagnostics), full semantic tokens, a hover and a
//! completion on a bone name. The server is driven through its message
//! handlers, without stdio. Run with `cargo bench --bench lsp`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use divan::Bencher;
use lsp_server::{Notification, Request, RequestId};
use serde_json::json;
use skelpad::generate;
use skelpad::lsp::Server;

// Measured with the allocator the skelpad binary uses.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    #[cfg(feature = "mimalloc")]
    skelpad::alloc::keep_freed_memory();
    divan::main();
}

const URI: &str = "file:///bench.skel2d";

fn open(bones: usize) -> (Server, String) {
    let text = generate::script(bones, 4);
    let mut s = Server::default();
    s.notification(Notification::new(
        "textDocument/didOpen".into(),
        json!({ "textDocument": { "uri": URI, "languageId": "skel2d", "version": 1, "text": text } }),
    ));
    (s, text)
}

/// The (line, character) of the first timeline value of the last animation.
fn last_anim_value(text: &str) -> (usize, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let anim = lines.iter().rposition(|l| l.starts_with("anim")).unwrap();
    let tl = (anim..lines.len()).find(|&i| lines[i].starts_with("\t\t")).unwrap();
    (tl, lines[tl].find(' ').unwrap() + 1)
}

fn request(s: &mut Server, method: &str, params: serde_json::Value) {
    let r = s.request(Request::new(RequestId::from(1), method.into(), params));
    assert!(r.response_result.is_ok());
    divan::black_box(r);
}

#[divan::bench(args = [1000, 5000])]
fn keystroke_in_an_animation(bencher: Bencher, bones: usize) {
    let (mut s, text) = open(bones);
    let (line, ch) = last_anim_value(&text);
    let mut version = 1;
    bencher.bench_local(|| {
        version += 1;
        // Type a digit, then delete it: two changes, two recompiles.
        for (range, t) in [((ch, ch), "1"), ((ch, ch + 1), "")] {
            let out = s.notification(Notification::new(
                "textDocument/didChange".into(),
                json!({ "textDocument": { "uri": URI, "version": version },
                        "contentChanges": [{ "range": { "start": { "line": line, "character": range.0 },
                                                        "end": { "line": line, "character": range.1 } }, "text": t }] }),
            ));
            divan::black_box(out);
        }
    });
}

#[divan::bench(args = [1000, 5000])]
fn semantic_tokens_full(bencher: Bencher, bones: usize) {
    let (mut s, _) = open(bones);
    bencher.bench_local(|| {
        request(
            &mut s,
            "textDocument/semanticTokens/full",
            json!({ "textDocument": { "uri": URI } }),
        )
    });
}

#[divan::bench(args = [1000, 5000])]
fn hover_and_completion_on_a_bone(bencher: Bencher, bones: usize) {
    let (mut s, text) = open(bones);
    let line = text.lines().position(|l| l.starts_with("anim")).unwrap() + 1;
    bencher.bench_local(|| {
        let at =
            json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": 2 } });
        request(&mut s, "textDocument/hover", at.clone());
        request(&mut s, "textDocument/completion", at);
    });
}
