//! One script, one list of problems: `skelpad check --format json`, the
//! language server (`skelpad lsp`, spoken to over stdio as an editor would)
//! and the editor's Problems list report the same diagnostics — severity,
//! byte range, message and hints, in the same order — for every example,
//! every test script and a script whose pictures are missing or not
//! pictures, with the motion lints off and on.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use egui_kittest::kittest::Queryable;
use serde_json::{Value, json};
use skelpad::app::document::Document;
use skelpad::lsp::text::Text;

/// A diagnostic as all three can say it: severity, byte range, message,
/// hints.
type Said = (String, u32, u32, String, Vec<String>);

/// A script naming a picture that is there, one that is not (on a slot line
/// and in a skin) and one that is not a picture; its folder holds them.
const PICTURES: &str = "skeleton\n\tarm l40\n\t\t@face :sprite \"here.png\"\n\t\t@eye :sprite \"gone.png\"\n\t\t@note :sprite \"notes.png\"\nskin \"alt\"\n\t@face :sprite \"lost/also.png\"\nanim \"a\" 10fps\n\tarm\n\t\tr 0 -> 0\n";

/// The missing-picture script in `dir`, with `here.png` (a real picture)
/// and `notes.png` (text) beside it.
fn picture_script(dir: &Path) -> PathBuf {
    image::RgbaImage::from_pixel(4, 3, image::Rgba([9, 99, 199, 255]))
        .save(dir.join("here.png"))
        .unwrap();
    std::fs::write(dir.join("notes.png"), "not a picture").unwrap();
    let path = dir.join("pics.skel2d");
    std::fs::write(&path, PICTURES).unwrap();
    path
}

/// Every example and every script under `tests/`, sorted.
fn scripts() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut stack = vec![root.join("examples"), root.join("tests")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "skel2d") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// What `skelpad check --format json` says about each file.
fn from_check(files: &[PathBuf], lint: bool) -> Vec<Vec<Said>> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_skelpad"));
    cmd.args(["check", "--format", "json"]).args(files);
    if lint {
        cmd.arg("--lint");
    }
    let o = cmd.output().unwrap();
    assert!(matches!(o.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let reports = v["files"].as_array().unwrap();
    assert_eq!(reports.len(), files.len());
    reports
        .iter()
        .map(|f| {
            f["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| {
                    let hints = d["hints"].as_array().unwrap();
                    (
                        d["severity"].as_str().unwrap().to_string(),
                        d["byte_start"].as_u64().unwrap() as u32,
                        d["byte_end"].as_u64().unwrap() as u32,
                        d["message"].as_str().unwrap().to_string(),
                        hints.iter().map(|h| h.as_str().unwrap().to_string()).collect(),
                    )
                })
                .collect()
        })
        .collect()
}

/// What the editor's Problems list shows for each file (the document the
/// list reads, as the editor opens it), its ranges in the file's bytes (the
/// editor's buffer has `\n` line breaks where the file may have `\r\n`).
fn from_editor(files: &[PathBuf], lint: bool) -> Vec<Vec<Said>> {
    files
        .iter()
        .map(|f| {
            let mut doc = Document::open(f).unwrap();
            doc.analysis.set_lint(lint);
            let file = std::fs::read_to_string(f).unwrap();
            let in_file = |at: u32| in_file(&doc.text, &file, at as usize);
            doc.analysis
                .comp()
                .diagnostics
                .iter()
                .map(|d| {
                    let (start, end) = (in_file(d.span.start), in_file(d.span.end));
                    (d.severity.to_string(), start, end, d.message.clone(), d.hints.clone())
                })
                .collect()
        })
        .collect()
}

/// Byte `at` of the `\n`-separated `buffer` as a byte of `file`, the same
/// text with its own line breaks: the same line, the same byte in it.
fn in_file(buffer: &str, file: &str, at: usize) -> u32 {
    let line = buffer[..at].matches('\n').count();
    let column = at - buffer[..at].rfind('\n').map_or(0, |i| i + 1);
    let line_start = file.match_indices('\n').nth(line.wrapping_sub(1)).map_or(0, |(i, _)| i + 1);
    (if line == 0 { column } else { line_start + column }) as u32
}

/// `skelpad lsp` over stdio.
struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: Receiver<Value>,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        match line.trim_end() {
            "" => break,
            l => len = l.strip_prefix("Content-Length: ").and_then(|n| n.parse().ok()).or(len),
        }
    }
    let mut buf = vec![0; len?];
    r.read_exact(&mut buf).ok()?;
    serde_json::from_slice(&buf).ok()
}

impl Server {
    /// A started server, initialized with `options` as its
    /// `initializationOptions`.
    fn start(options: Value) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skelpad"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            while let Some(v) = read_message(&mut stdout) {
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        let mut s = Server { child, stdin, rx };
        let init = json!({ "processId": null, "rootUri": null, "capabilities": {},
            "initializationOptions": options });
        s.send(json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init }));
        while s.next().get("id") != Some(&json!(1)) {}
        s.notify("initialized", json!({}));
        s
    }

    fn send(&mut self, v: Value) {
        let body = v.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    fn next(&self) -> Value {
        self.rx.recv_timeout(Duration::from_secs(60)).expect("the server answers")
    }

    /// The next diagnostics published for each of `uris`, by URI.
    fn published(&self, uris: &[String]) -> Vec<Value> {
        let mut got: Vec<Option<Value>> = vec![None; uris.len()];
        while got.iter().any(Option::is_none) {
            let n = self.next();
            if n["method"] == "textDocument/publishDiagnostics"
                && let Some(i) = uris.iter().position(|u| n["params"]["uri"] == json!(u))
            {
                got[i] = Some(n["params"]["diagnostics"].clone());
            }
        }
        got.into_iter().flatten().collect()
    }

    fn stop(mut self) {
        self.send(json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null }));
        while self.next().get("id") != Some(&json!(2)) {}
        self.notify("exit", Value::Null);
        assert!(self.child.wait().unwrap().success());
    }
}

/// `path` as a `file:` URI.
fn uri(path: &Path) -> String {
    let p = path.to_str().unwrap();
    assert!(p.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b)), "{p}");
    format!("file://{p}")
}

/// An LSP diagnostic as the others say it: its range in bytes, the "did
/// you mean" hint taken off the end of its message again, the hints from
/// the related information.
fn said(text: &Text, d: &Value) -> Said {
    let range = serde_json::from_value(d["range"].clone()).unwrap();
    let span = text.span(range);
    let hints: Vec<String> = d["relatedInformation"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|h| h["message"].as_str().unwrap().strip_prefix("help: ").unwrap().to_string())
        .collect();
    let mut message = d["message"].as_str().unwrap().to_string();
    if let Some(h) = hints.iter().find(|h| h.starts_with("did you mean")) {
        message = message.strip_suffix(&format!("; {h}")).unwrap().to_string();
    }
    let severity = match d["severity"].as_u64() {
        Some(1) => "error",
        Some(2) => "warning",
        other => panic!("severity {other:?}"),
    };
    (severity.to_string(), span.start, span.end, message, hints)
}

/// What the language server publishes for each file: the lints off when it
/// opens them, then on through `workspace/didChangeConfiguration`.
fn from_server(files: &[PathBuf]) -> (Vec<Vec<Said>>, Vec<Vec<Said>>) {
    let mut server = Server::start(json!({}));
    let texts: Vec<Text> =
        files.iter().map(|f| Text::new(std::fs::read_to_string(f).unwrap())).collect();
    let uris: Vec<String> = files.iter().map(|f| uri(f)).collect();
    for (u, t) in uris.iter().zip(&texts) {
        let doc = json!({ "uri": u, "languageId": "skel2d", "version": 1, "text": t.text });
        server.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    }
    let said_all = |published: Vec<Value>| -> Vec<Vec<Said>> {
        published
            .iter()
            .zip(&texts)
            .map(|(ds, t)| ds.as_array().unwrap().iter().map(|d| said(t, d)).collect())
            .collect()
    };
    let plain = said_all(server.published(&uris));
    let settings = json!({ "settings": { "skelpad": { "lint": true } } });
    server.notify("workspace/didChangeConfiguration", settings);
    let linted = said_all(server.published(&uris));
    server.stop();
    (plain, linted)
}

fn assert_agree(files: &[PathBuf], check: &[Vec<Said>], other: &[Vec<Said>], who: &str) {
    for ((f, c), o) in files.iter().zip(check).zip(other) {
        assert_eq!(o, c, "{who} and `skelpad check` disagree on {}", f.display());
    }
}

#[test]
fn check_the_language_server_and_the_problems_list_report_the_same_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let mut files = scripts();
    assert!(files.len() > 100, "{} scripts", files.len());
    files.push(picture_script(dir.path()));
    let (server_plain, server_linted) = from_server(&files);
    for (lint, server) in [(false, server_plain), (true, server_linted)] {
        let check = from_check(&files, lint);
        assert_agree(&files, &check, &server, &format!("the language server (lint {lint})"));
        assert_agree(
            &files,
            &check,
            &from_editor(&files, lint),
            &format!("the editor (lint {lint})"),
        );
        // Not a comparison of nothing: the pictures are warned about, and
        // the lints add warnings somewhere.
        let pics = check.last().unwrap();
        let named: Vec<&str> = pics
            .iter()
            .filter(|d| d.3.contains("sprite image"))
            .map(|d| &PICTURES[d.1 as usize..d.2 as usize])
            .collect();
        assert_eq!(named, ["\"gone.png\"", "\"notes.png\"", "\"lost/also.png\""]);
        let warnings: usize = check.iter().flatten().filter(|d| d.0 == "warning").count();
        let errors: usize = check.iter().flatten().filter(|d| d.0 == "error").count();
        assert!(errors > 50, "{errors} errors");
        if lint {
            assert!(pics.iter().any(|d| d.3.contains("change")), "a still timeline: {pics:?}");
            assert!(warnings > 3 + 10, "{warnings} warnings with lints");
        }
    }
}

/// The language server takes the lint setting as an initialization
/// option too.
#[test]
fn the_lints_can_be_asked_for_when_the_server_starts() {
    let dir = tempfile::tempdir().unwrap();
    let files = [picture_script(dir.path())];
    let server = Server::start(json!({ "lint": true }));
    let mut server = server;
    let u = uri(&files[0]);
    let doc = json!({ "uri": u, "languageId": "skel2d", "version": 1, "text": PICTURES });
    server.notify("textDocument/didOpen", json!({ "textDocument": doc }));
    let text = Text::new(PICTURES.to_string());
    let got: Vec<Said> =
        server.published(&[u])[0].as_array().unwrap().iter().map(|d| said(&text, d)).collect();
    server.stop();
    assert_eq!(got, from_check(&files, true)[0]);
    assert_ne!(got, from_check(&files, false)[0], "the lints add something here");
}

/// The Problems list in the window shows each of `check`'s diagnostics of
/// the missing-picture script, as `LINE:COLUMN  SEVERITY: MESSAGE`.
#[test]
fn the_problems_list_in_the_window_shows_the_picture_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let path = picture_script(dir.path());
    let h = super::open_sized(&path, [1200.0, 800.0]);
    let o = Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let diags = v["files"][0]["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 3, "{diags:?}");
    for d in diags {
        let row = format!(
            "{}:{}  {}: {}",
            d["start"]["line"],
            d["start"]["column"],
            d["severity"].as_str().unwrap(),
            d["message"].as_str().unwrap()
        );
        assert!(h.query_by_label(&row).is_some(), "no row {row:?} in the Problems list");
    }
}
