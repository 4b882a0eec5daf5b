//! `skelpad lsp` driven over stdio by a small JSON-RPC client: the built
//! binary is spawned and every feature is checked with exact positions
//! (0-based lines, UTF-16 characters), counted by hand from the fixture.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

mod actions;

/// Line 0 has non-ASCII text in a comment; line 9 an animation name with
/// `ä` (one UTF-16 unit, two bytes) and `𝄞` (two units, four bytes).
const FIX: &str = "# walk \u{2014} a test rig \u{2713}\n\
skeleton\n\
\thip y-5 l0\n\
\thip.leg r-90 l60 #F80\n\
\t\t@ :rect x30 w70 h20 t2 f#346\n\
\thip.leg.foot x60 l20\n\
\tarm x10 r90\n\
\t\t@hand :circle d10\n\
\t\t@hand[open] :rect w4 h4\n\
anim \"g\u{e4}nge\u{1d11e}\" 10fps bogus\n\
\tleg\n\
\t\tr 0 -> 90\n\
\t@hand\n\
\t\t@ open -> hand\n\
\tfoot\n\
\t\tr 5 -> nope\n\
\tfot\n";

const URI: &str = "file:///tmp/fix.skel2d";

struct Client {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
    next_id: i64,
    /// Notifications received while waiting for responses.
    notifications: Vec<Value>,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse::<usize>().ok();
        }
    }
    let mut buf = vec![0; len?];
    r.read_exact(&mut buf).ok()?;
    serde_json::from_slice(&buf).ok()
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skelpad"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn skelpad lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(v) = read_message(&mut r) {
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut c = Client { child, stdin, rx, next_id: 0, notifications: Vec::new() };
        let init = c.request(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": {} }),
        );
        assert_eq!(
            init["result"]["capabilities"]["textDocumentSync"],
            json!(2),
            "incremental sync"
        );
        assert_eq!(
            init["result"]["capabilities"]["semanticTokensProvider"]["full"],
            json!({ "delta": true })
        );
        assert_eq!(
            init["result"]["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"],
            json!([
                "keyword",
                "class",
                "property",
                "variable",
                "type",
                "number",
                "string",
                "enumMember",
                "operator",
                "macro",
                "function",
                "comment",
                "regexp"
            ])
        );
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, v: &Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{}", body.len(), body).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and returns the whole response (`result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let v = self
                .rx
                .recv_timeout(Duration::from_secs(20))
                .unwrap_or_else(|_| panic!("no response to {method}"));
            if v.get("id") == Some(&json!(id)) && v.get("method").is_none() {
                return v;
            }
            self.notifications.push(v);
        }
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let r = self.request(method, params);
        assert!(r.get("error").is_none(), "{method} failed: {r}");
        r["result"].clone()
    }

    /// The diagnostics published for `version`.
    fn diagnostics(&mut self, version: i64) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(i) = self.notifications.iter().position(|n| {
                n["method"] == "textDocument/publishDiagnostics"
                    && n["params"]["version"] == json!(version)
            }) {
                let n = self.notifications.remove(i);
                return n["params"]["diagnostics"].as_array().cloned().unwrap_or_default();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(v) => self.notifications.push(v),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    panic!("no diagnostics for version {version}")
                }
            }
        }
    }

    fn open(&mut self, text: &str) -> Vec<Value> {
        self.notify("textDocument/didOpen", json!({ "textDocument": { "uri": URI, "languageId": "skel2d", "version": 1, "text": text } }));
        self.diagnostics(1)
    }

    fn change(&mut self, version: i64, changes: Value) -> Vec<Value> {
        self.notify("textDocument/didChange", json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": changes }));
        self.diagnostics(version)
    }

    fn at(&mut self, method: &str, line: u32, character: u32) -> Value {
        self.result(method, json!({ "textDocument": { "uri": URI }, "position": { "line": line, "character": character } }))
    }

    fn stop(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert!(r.get("error").is_none());
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "the server exits cleanly: {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the server did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

fn range(l0: u32, c0: u32, l1: u32, c1: u32) -> Value {
    json!({ "start": { "line": l0, "character": c0 }, "end": { "line": l1, "character": c1 } })
}

fn labels(items: &Value) -> Vec<String> {
    items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect()
}

#[test]
fn diagnostics_match_check_in_utf16_positions_and_follow_incremental_edits() {
    let mut c = Client::start();
    let d = c.open(FIX);
    assert_eq!(d.len(), 3, "{d:?}");
    // `bogus` follows `"gänge𝄞" 10fps`: 𝄞 counts two UTF-16 units, so it
    // starts at character 21 (it is column 21 in characters, 1-based, in `skelpad check`).
    assert_eq!(d[0]["range"], range(9, 21, 9, 26));
    assert_eq!(d[0]["message"], "unexpected `bogus` in animation header");
    assert_eq!(d[0]["severity"], 1);
    assert_eq!(
        d[0]["relatedInformation"][0]["message"],
        "help: the header takes a \"name\", a frame rate like `24fps` and defaults `frame:step:easing` like `0:5:li`"
    );
    assert_eq!(d[0]["relatedInformation"][0]["location"]["range"], range(9, 21, 9, 26));
    // Tabs are one UTF-16 unit each.
    assert_eq!(d[1]["range"], range(15, 9, 15, 13));
    assert_eq!(d[2]["range"], range(16, 1, 16, 4));
    // The suggestion is in the message too: many clients show only that.
    assert_eq!(d[2]["message"], "unknown bone `fot`; did you mean `hip.leg.foot`?");
    let hints: Vec<&str> = d[2]["relatedInformation"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["message"].as_str().unwrap())
        .collect();
    assert_eq!(hints, ["help: did you mean `hip.leg.foot`?", "help: its timelines are ignored"]);

    // Incremental edits: delete ` bogus` (after the two-unit 𝄞), fix `fot`.
    let d = c.change(2, json!([{ "range": range(9, 20, 9, 26), "text": "" }]));
    assert_eq!(d.len(), 2);
    assert_eq!(d[0]["range"], range(15, 9, 15, 13));
    let d = c.change(3, json!([{ "range": range(16, 2, 16, 2), "text": "o" }, { "range": range(15, 9, 15, 13), "text": "-5" }]));
    assert!(d.is_empty(), "{d:?}");
    // A whole-document change.
    let d = c.change(4, json!([{ "text": "skeleton\n\tb lx\n" }]));
    assert_eq!(d.len(), 1);
    assert_eq!(d[0]["range"], range(1, 3, 1, 5));
    c.stop();
}

/// Decodes LSP semantic tokens into (line, start, length, type, modifiers).
fn decode(data: &[Value]) -> Vec<(u64, u64, u64, u64, u64)> {
    let (mut line, mut ch) = (0, 0);
    data.chunks(5)
        .map(|t| {
            let v: Vec<u64> = t.iter().map(|x| x.as_u64().unwrap()).collect();
            if v[0] > 0 {
                ch = 0;
            }
            line += v[0];
            ch += v[1];
            (line, ch, v[2], v[3], v[4])
        })
        .collect()
}

#[test]
fn semantic_tokens_full_and_delta_come_from_the_roles() {
    let mut c = Client::start();
    c.open(FIX);
    // The server's legend (checked against the capabilities in `start`).
    let legend_types = [
        "keyword",
        "class",
        "property",
        "variable",
        "type",
        "number",
        "string",
        "enumMember",
        "operator",
        "macro",
        "function",
        "comment",
        "regexp",
    ];
    let ty = |name: &str| legend_types.iter().position(|t| *t == name).unwrap() as u64;
    let full =
        c.result("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": URI } }));
    let toks = decode(full["data"].as_array().unwrap());
    // Line 0: the whole comment, 21 UTF-16 units (— and ✓ are one unit each).
    assert_eq!(toks[0], (0, 0, 21, ty("comment"), 0));
    assert_eq!(toks[1], (1, 0, 8, ty("keyword"), 0));
    // `hip.leg` on line 3 is a bone definition (declaration modifier).
    assert!(toks.contains(&(3, 1, 7, ty("class"), 1)));
    assert!(toks.contains(&(3, 9, 4, ty("property"), 0)));
    assert!(toks.contains(&(3, 18, 4, ty("regexp"), 0)));
    assert!(toks.contains(&(4, 4, 5, ty("type"), 0)));
    // The animation name: 8 characters plus the second unit of 𝄞, and the
    // frame rate after it at UTF-16 column 15.
    assert!(toks.contains(&(9, 5, 9, ty("string"), 0)));
    assert!(
        toks.contains(&(9, 15, 5, ty("number"), 0)) || toks.contains(&(9, 15, 5, ty("macro"), 0))
    );
    assert!(toks.contains(&(10, 1, 3, ty("class"), 0)));
    assert!(toks.contains(&(11, 6, 2, ty("operator"), 0)));
    assert!(toks.contains(&(13, 4, 4, ty("enumMember"), 0)));
    // `nope` is invalid: not highlighted.
    assert!(!toks.iter().any(|t| t.0 == 15 && t.1 == 9));

    // Delta: insert a key on line 11; one edit carries the new token(s).
    let prev_id = full["resultId"].as_str().unwrap().to_string();
    c.change(2, json!([{ "range": range(11, 11, 11, 11), "text": " -> 45" }]));
    let delta = c.result(
        "textDocument/semanticTokens/full/delta",
        json!({ "textDocument": { "uri": URI }, "previousResultId": prev_id }),
    );
    let edits = delta["edits"].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    // Applying the edit to the previous data gives the new full tokens.
    let mut data: Vec<Value> = full["data"].as_array().unwrap().clone();
    let (start, del) = (
        edits[0]["start"].as_u64().unwrap() as usize,
        edits[0]["deleteCount"].as_u64().unwrap() as usize,
    );
    let ins = edits[0]["data"].as_array().cloned().unwrap_or_default();
    data.splice(start..start + del, ins);
    let full2 =
        c.result("textDocument/semanticTokens/full", json!({ "textDocument": { "uri": URI } }));
    assert_eq!(&data, full2["data"].as_array().unwrap());
    let toks2 = decode(&data);
    assert!(toks2.contains(&(11, 12, 2, ty("operator"), 0)));
    assert!(toks2.contains(&(11, 15, 2, ty("number"), 0)));
    // An unknown previous id gets full tokens.
    let again = c.result(
        "textDocument/semanticTokens/full/delta",
        json!({ "textDocument": { "uri": URI }, "previousResultId": "nope" }),
    );
    assert_eq!(again["data"], full2["data"]);
    c.stop();
}

#[test]
fn completion_offers_what_the_context_takes() {
    let mut c = Client::start();
    let text = "skeleton\n\thip\n\thip.leg l10\n\thip.leg.foot\n\tarm.foot\n\t\t@ :rect w1 \n\t\t@hand :circle \n\t\t\tM 0,0\n\n\t\nanim \"a\" 10fps\n\tleg\n\t\t\n\t@hand\n\t\t@ \n\t\n";
    c.open(text);
    let complete = |c: &mut Client, line: u32, ch: u32| c.at("textDocument/completion", line, ch);
    // Column 0: section keywords.
    let r = complete(&mut c, 8, 0);
    assert_eq!(labels(&r), ["skeleton", "skin", "order", "anim", "expect", "ik", "mix"]);
    // A bone line's first token: the full bone names.
    let r = complete(&mut c, 9, 1);
    // (In the model's order: parents first.)
    assert_eq!(labels(&r), ["hip", "arm", "hip.leg", "arm.foot", "hip.leg.foot"]);
    // After a bone path: bone properties.
    let r = complete(&mut c, 2, 12);
    let l = labels(&r);
    assert!(
        l.contains(&"flip-x".to_string())
            && l.contains(&"no-rot".to_string())
            && l.contains(&"l".to_string()),
        "{l:?}"
    );
    // A rect's properties include w, h and d; a circle's d but no w.
    let rect = labels(&complete(&mut c, 5, 13));
    assert!(
        rect.contains(&"w".to_string())
            && rect.contains(&"h".to_string())
            && rect.contains(&"round-join".to_string())
    );
    assert!(!rect.contains(&"butt-cap".to_string()));
    let circle = labels(&complete(&mut c, 6, 16));
    assert!(circle.contains(&"d".to_string()) && !circle.contains(&"w".to_string()));
    // A point's bone after `:` — replacing only what follows the colon.
    c.change(2, json!([{ "range": range(7, 8, 7, 8), "text": ":le" }]));
    let r = complete(&mut c, 7, 11);
    let items = r.as_array().unwrap();
    let leg = items
        .iter()
        .find(|i| i["label"] == "leg")
        .expect("the shortest unambiguous suffix of hip.leg");
    assert_eq!(leg["textEdit"]["range"], range(7, 9, 7, 11));
    // Animation items: bones by full name and shortest unambiguous suffix
    // (`foot` is ambiguous: hip.leg.foot and arm.foot), and slots.
    let r = complete(&mut c, 15, 1);
    let l = labels(&r);
    for want in [
        "hip",
        "leg",
        "hip.leg",
        "leg.foot",
        "hip.leg.foot",
        "arm",
        "arm.foot",
        "@hand",
        "@arm.foot.hand",
    ] {
        assert!(l.contains(&want.to_string()), "{want} in {l:?}");
    }
    assert!(!l.contains(&"foot".to_string()), "{l:?}");
    // A bone item's timelines; a slot item's.
    let bone_tl = labels(&complete(&mut c, 12, 2));
    assert_eq!(bone_tl, ["x", "y", "r", "i", "j", "s", "t"]);
    // The `@` timeline of slot `hand`: its attachments, advances and easings.
    let r = labels(&complete(&mut c, 14, 4));
    assert!(
        r.contains(&"hand".to_string())
            && r.contains(&":sio->".to_string())
            && r.contains(&"->".to_string()),
        "{r:?}"
    );
    // The animation header: the names of other animations after `anim`,
    // not this section's own.
    let r = complete(&mut c, 10, 5);
    assert!(labels(&r).is_empty(), "{r}");
    c.stop();
}

#[test]
fn hover_definition_references_symbols_rename_and_format() {
    let mut c = Client::start();
    c.open(FIX);
    // Hover on `leg` (line 10): the bone's full name, parent, setup values
    // and world position at setup: hip is at (0,-5); leg has no offset.
    let h = c.at("textDocument/hover", 10, 2);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.contains("**bone** `hip.leg`"), "{md}");
    assert!(md.contains("parent: `hip`"), "{md}");
    assert!(md.contains("rotation -90°") && md.contains("length 60"), "{md}");
    assert!(md.contains("world position at setup: (0, -5)"), "{md}");
    assert_eq!(h["range"], range(10, 1, 10, 4));
    // foot: x60 along leg, which points down (r-90): (0, -5-60) = (0, -65).
    let h = c.at("textDocument/hover", 5, 10);
    assert!(
        h["contents"]["value"].as_str().unwrap().contains("world position at setup: (0, -65)"),
        "{h}"
    );
    // A timeline's property letter shows its keys (the default step is 5
    // frames, LANGUAGE.md §5; at 10 fps frame 5 is 0.5 s).
    let h = c.at("textDocument/hover", 11, 2);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.contains("1. frame 0 (0 s): 0") && md.contains("2. frame 5 (0.5 s): 90"), "{md}");
    // A number says what it sets.
    let h = c.at("textDocument/hover", 11, 9);
    assert!(h["contents"]["value"].as_str().unwrap().contains("frame 5 (0.5 s): 90"), "{h}");
    // The middle segment of a path is its own bone.
    let h = c.at("textDocument/hover", 5, 6);
    assert!(h["contents"]["value"].as_str().unwrap().contains("**bone** `hip.leg`"), "{h}");
    assert_eq!(h["range"], range(5, 1, 5, 8));
    let h = c.at("textDocument/hover", 3, 15);
    assert_eq!(h["contents"]["value"], "`l60` sets the length of bone `hip.leg` to 60");
    // A color's RGBA: #F80 is (255, 136, 0).
    let h = c.at("textDocument/hover", 3, 18);
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.contains("RGBA 1 0.5333 0 1"), "{md}");

    // Go to definition: `leg` in the animation → the path of its bone line.
    let d = c.at("textDocument/definition", 10, 2);
    assert_eq!(d["range"], range(3, 1, 3, 8));
    assert_eq!(d["uri"], URI);
    // The `@hand` item → the slot's line.
    let d = c.at("textDocument/definition", 12, 3);
    assert_eq!(d["range"], range(7, 2, 7, 19));
    // Out-of-range positions answer nothing, not an error.
    assert_eq!(c.at("textDocument/definition", 400, 9000), Value::Null);

    // Find references of `hip.leg`: its line, `hip.leg.foot` does not count
    // (another bone), the animation item does.
    let refs = c.result(
        "textDocument/references",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 10, "character": 1 }, "context": { "includeDeclaration": true } }),
    );
    let ranges: Vec<&Value> = refs.as_array().unwrap().iter().map(|r| &r["range"]).collect();
    assert_eq!(ranges, [&range(3, 1, 3, 8), &range(10, 1, 10, 4)]);
    let refs = c.result(
        "textDocument/references",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 10, "character": 1 }, "context": { "includeDeclaration": false } }),
    );
    assert_eq!(refs.as_array().unwrap().len(), 1);

    // Document symbols: sections with their bones and items.
    let syms = c.result("textDocument/documentSymbol", json!({ "textDocument": { "uri": URI } }));
    let s = syms.as_array().unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(s[0]["name"], "skeleton");
    assert_eq!(s[0]["selectionRange"], range(1, 0, 1, 8));
    let bones: Vec<&str> =
        s[0]["children"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(bones, ["hip", "hip.leg", "hip.leg.foot", "arm"]);
    assert_eq!(s[0]["children"][1]["selectionRange"], range(3, 1, 3, 8));
    assert_eq!(s[1]["name"], "anim \"g\u{e4}nge\u{1d11e}\"");
    assert_eq!(s[1]["kind"], 12); // Function
    assert_eq!(s[1]["children"][0]["selectionRange"], range(10, 1, 10, 4));

    // Rename `leg` → `thigh`: its line `hip.leg`, the child `hip.leg.foot`,
    // the animation item; the segment only.
    let p = c.at("textDocument/prepareRename", 5, 6);
    assert_eq!(p, range(5, 5, 5, 8));
    let e = c.result(
        "textDocument/rename",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 10, "character": 2 }, "newName": "thigh" }),
    );
    let edits: Vec<(Value, String)> = e["changes"][URI]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["range"].clone(), e["newText"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(
        edits,
        [
            (range(3, 5, 3, 8), "thigh".to_string()),
            (range(5, 5, 5, 8), "thigh".to_string()),
            (range(10, 1, 10, 4), "thigh".to_string())
        ]
    );
    let bad = c.request(
        "textDocument/rename",
        json!({ "textDocument": { "uri": URI }, "position": { "line": 10, "character": 2 }, "newName": "a.b" }),
    );
    assert!(bad["error"]["message"].as_str().unwrap().contains("not a valid bone name"));

    // Formatting: indentation to tabs (4 spaces per tab as asked), trailing
    // spaces removed, nothing else.
    c.change(
        2,
        json!([{ "text": "skeleton  \n    hip l1\n        @ :rect w1 \n  \t\n\tarm\t\n" }]),
    );
    let f =
        c.result("textDocument/formatting", json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } }));
    let edits: Vec<(Value, String)> = f
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["range"].clone(), e["newText"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(
        edits,
        [
            (range(0, 8, 0, 10), String::new()),
            (range(1, 0, 1, 4), "\t".to_string()),
            (range(2, 0, 2, 8), "\t\t".to_string()),
            (range(2, 18, 2, 19), String::new()),
            (range(3, 0, 3, 3), String::new()),
            (range(4, 4, 4, 5), String::new()),
        ]
    );
    // Range formatting (Neovim's `gq`): the whole lines the range touches.
    let f = c.result(
        "textDocument/rangeFormatting",
        json!({ "textDocument": { "uri": URI }, "range": range(1, 5, 2, 3), "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    let edits: Vec<(Value, String)> = f
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["range"].clone(), e["newText"].as_str().unwrap().to_string()))
        .collect();
    assert_eq!(
        edits,
        [
            (range(1, 0, 1, 4), "\t".to_string()),
            (range(2, 0, 2, 8), "\t\t".to_string()),
            (range(2, 18, 2, 19), String::new()),
        ]
    );
    c.stop();
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

#[test]
fn random_edits_and_requests_for_ten_seconds_never_crash_the_server() {
    let mut c = Client::start();
    c.open(FIX);
    let pieces = [
        "",
        "\t",
        "\n",
        "\r\n",
        "x",
        "@",
        ":",
        "->",
        "{",
        "}[2]",
        " 10:>",
        "\u{e9}",
        "\u{1d11e}",
        "#F00",
        "anim \"b\"\n",
        "skeleton\n",
        "\thip.leg r5",
        "\t\t@ :path\n\t\t\tM 0,0:hip\n",
        "order\n\t@hand\n",
        "skin \"s\"\n\t@hand :rect w1\n",
        "\\\n",
        "# c\n",
        "r 1 -> 2",
    ];
    let methods = [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
        "textDocument/prepareRename",
        "textDocument/documentSymbol",
        "textDocument/semanticTokens/full",
        "textDocument/formatting",
    ];
    let mut rng = Rng(0x5eed_1234_abcd_9876);
    let start = Instant::now();
    let mut version = 1;
    let mut requests = 0;
    while start.elapsed() < Duration::from_secs(10) {
        version += 1;
        // Positions anywhere, often past the end of a line or the document,
        // and UTF-16 offsets inside surrogate pairs.
        let pos = |rng: &mut Rng| json!({ "line": rng.below(24), "character": rng.below(40) });
        let changes: Vec<Value> = (0..1 + rng.below(3))
            .map(|_| {
                let (a, b) = (pos(&mut rng), pos(&mut rng));
                let text = pieces[rng.below(pieces.len() as u64) as usize];
                json!({ "range": { "start": a, "end": b }, "text": text })
            })
            .collect();
        c.notify("textDocument/didChange", json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": changes }));
        for _ in 0..3 {
            let m = methods[rng.below(methods.len() as u64) as usize];
            let p = pos(&mut rng);
            let r =
                c.request(m, json!({ "textDocument": { "uri": URI }, "position": p, "options": { "tabSize": 4, "insertSpaces": false } }));
            assert!(r.get("error").is_none(), "{m} at {p} failed: {r}");
            requests += 1;
        }
        let r =
            c.request("textDocument/rename", json!({ "textDocument": { "uri": URI }, "position": pos(&mut rng), "newName": "renamed" }));
        // A rename where no bone is named is refused with an error message,
        // never a crash.
        if let Some(e) = r.get("error") {
            assert_ne!(e["code"], json!(-32603), "internal error: {r}");
        }
        // Code actions anywhere: a list, never an error.
        let (a, b) = (pos(&mut rng), pos(&mut rng));
        let r = c.request(
            "textDocument/codeAction",
            json!({ "textDocument": { "uri": URI }, "range": { "start": a, "end": b }, "context": { "diagnostics": [] } }),
        );
        assert!(r["result"].is_array(), "code actions at {a}: {r}");
        // The change was handled (not swallowed by a failure): its
        // diagnostics came before the answers.
        assert!(
            c.notifications.iter().any(|n| n["method"] == "textDocument/publishDiagnostics"
                && n["params"]["version"] == json!(version)),
            "no diagnostics for version {version}"
        );
        c.notifications.clear();
    }
    assert!(requests > 100, "only {requests} requests in 10 s");
    // Garbage parameters are answered with errors.
    let r = c.request("textDocument/hover", json!({ "nonsense": true }));
    assert_eq!(r["error"]["code"], json!(-32602));
    let r =
        c.request("textDocument/hover", json!({ "textDocument": { "uri": "file:///other" }, "position": { "line": 0, "character": 0 } }));
    assert_eq!(r["error"]["code"], json!(-32602));
    c.stop();
}

#[test]
fn ik_lines_complete_bones_and_words_and_their_names_resolve() {
    let mut c = Client::start();
    let text = "skeleton\n\tarm l10\n\tarm.hand x10\n\tgoal x20\nik\n\thand to goal up 1 \n";
    c.open(text);
    let complete = |c: &mut Client, line: u32, ch: u32| c.at("textDocument/completion", line, ch);
    // The tip and the bone after `to`: bones (a tip, one with a parent: a
    // chain needs two bones); elsewhere: the line's words.
    let tip = labels(&complete(&mut c, 5, 1));
    assert!(tip.contains(&"hand".to_string()) && !tip.contains(&"goal".to_string()), "{tip:?}");
    let after_to = labels(&complete(&mut c, 5, 9));
    assert!(after_to.contains(&"goal".to_string()), "{after_to:?}");
    let words = labels(&complete(&mut c, 5, 19));
    for w in ["to", "up", "from", "fabrik", "arc", "cw", "ccw"] {
        assert!(words.contains(&w.to_string()), "{w} in {words:?}");
    }
    // Go to definition from the target's name lands on its bone line.
    let d = c.at("textDocument/definition", 5, 10);
    assert_eq!(d["range"]["start"]["line"], 3, "{d}");
    c.stop();
}

#[test]
fn events_complete_and_hover() {
    let mut c = Client::start();
    // Lines: 0 skeleton, 1 leg, 2 anim, 3 !step, 4 s line, 5 empty item
    // line, 6 !step again, 7 event line start, 8 expect, 9 expect line.
    let text = "skeleton\n\tleg l10\nanim \"a\" 10fps 0:5\n\t!step\n\t\ts \"l\" -> \"r\"\n\t\n\t!step 20:\n\t\t\nexpect \"a\" 5\n\t\n";
    c.open(text);
    let complete = |c: &mut Client, line: u32, ch: u32| c.at("textDocument/completion", line, ch);
    let items = labels(&complete(&mut c, 5, 1));
    assert!(
        items.contains(&"!step".to_string()) && items.contains(&"leg".to_string()),
        "{items:?}"
    );
    let kinds = labels(&complete(&mut c, 7, 2));
    for k in ["e", "i", "f", "s"] {
        assert!(kinds.contains(&k.to_string()), "{k} in {kinds:?}");
    }
    assert!(!kinds.contains(&"x".to_string()), "{kinds:?}");
    let checks = labels(&complete(&mut c, 9, 1));
    assert!(checks.contains(&"!step".to_string()), "{checks:?}");
    // Hover on the event's name lists where it fires: frame 0 "l", 5 "r".
    let h = c.at("textDocument/hover", 3, 3);
    let v = h["contents"]["value"].as_str().unwrap_or_default().to_string();
    assert!(v.contains("**event** `step` in \"a\""), "{h}");
    assert!(v.contains("frame 0 (0 s): \"l\"") && v.contains("frame 5 (0.5 s): \"r\""), "{v}");
    c.stop();
}
