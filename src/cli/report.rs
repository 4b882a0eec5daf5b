//! Rendering diagnostics for people (rustc style) and for tools (JSON).

use std::io::{IsTerminal, Write};
use std::path::Path;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::termcolor::{BufferedStandardStream, ColorChoice};
use codespan_reporting::term::{self, Config};

use crate::compile::Compilation;
use crate::syntax::{Diagnostic, LineIndex, Severity};

fn to_codespan(d: &Diagnostic, text_len: usize) -> CsDiagnostic<()> {
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
    };
    let start = (d.span.start as usize).min(text_len);
    let end = (d.span.end as usize).clamp(start, text_len);
    CsDiagnostic::new(severity)
        .with_message(d.message.clone())
        .with_labels(vec![Label::primary((), start..end)])
        .with_notes(d.hints.iter().map(|h| format!("help: {h}")).collect())
}

/// Renders diagnostics as text, like rustc: `file:line:col`, the source
/// line, an underline and the hints.
pub fn render_plain(path: &Path, text: &str, diags: &[Diagnostic]) -> String {
    let file = SimpleFile::new(path.display().to_string(), text);
    let config = Config::default();
    let mut out = String::new();
    for d in diags {
        let _ = term::emit_to_string(&mut out, &config, &file, &to_codespan(d, text.len()));
    }
    out
}

/// Prints diagnostics to stderr, in color when it is a terminal.
pub fn print_human(path: &Path, text: &str, diags: &[Diagnostic]) {
    let choice =
        if std::io::stderr().is_terminal() { ColorChoice::Auto } else { ColorChoice::Never };
    // Buffered: the renderer writes a diagnostic in dozens of small
    // pieces, and standard error is otherwise unbuffered (a system call
    // each; with 600 diagnostics, a third of the process's time).
    let mut out = BufferedStandardStream::stderr(choice);
    let file = SimpleFile::new(path.display().to_string(), text);
    let config = Config::default();
    for d in diags {
        let _ = term::emit_to_write_style(&mut out, &config, &file, &to_codespan(d, text.len()));
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let summary = match (errors, warnings) {
        (0, 0) => format!("{}: ok", path.display()),
        _ => format!("{}: {} error(s), {} warning(s)", path.display(), errors, warnings),
    };
    let _ = writeln!(out, "{summary}");
    let _ = out.flush();
}

/// One diagnostic as JSON: severity, message, hints, 1-based line/column
/// range and byte offsets.
pub fn diagnostic_json(d: &Diagnostic, text: &str, lines: &LineIndex) -> serde_json::Value {
    serde_json::json!({
        "severity": d.severity.to_string(),
        "message": d.message,
        "hints": d.hints,
        "start": lines.line_col(text, d.span.start),
        "end": lines.line_col(text, d.span.end),
        "byte_start": d.span.start,
        "byte_end": d.span.end,
    })
}

/// One file's diagnostics for `skelpad check --format json`: its path, an error count and each
/// diagnostic with its severity, message, hints and line/column range.
pub fn json_file(path: &Path, text: &str, comp: &Compilation) -> serde_json::Value {
    let diags: Vec<serde_json::Value> =
        comp.diagnostics.iter().map(|d| diagnostic_json(d, text, &comp.lines)).collect();
    serde_json::json!({
        "file": path.display().to_string(),
        "errors": comp.diagnostics.iter().filter(|d| d.is_error()).count(),
        "warnings": comp.diagnostics.iter().filter(|d| !d.is_error()).count(),
        "diagnostics": diags,
    })
}

/// A readable table of a pose document (the JSON of `skelpad pose`).
pub fn print_pose_table(out: &mut impl Write, doc: &serde_json::Value) -> std::io::Result<()> {
    let fmt_pose = |out: &mut dyn Write, pose: &serde_json::Value| -> std::io::Result<()> {
        for b in pose["bones"].as_array().into_iter().flatten() {
            let w: Vec<String> = b["world"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| format!("{:9.3}", v.as_f64().unwrap_or(f64::NAN)))
                .collect();
            writeln!(out, "    bone {:<32} [{}]", b["name"].as_str().unwrap_or(""), w.join(" "))?;
        }
        for s in pose["slots"].as_array().into_iter().flatten() {
            let c: Vec<String> = s["color"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|v| format!("{:.3}", v.as_f64().unwrap_or(f64::NAN)))
                .collect();
            writeln!(
                out,
                "    slot {:<32} color [{}] shows {}",
                s["name"].as_str().unwrap_or(""),
                c.join(" "),
                s["attachment"].as_str().unwrap_or("nothing")
            )?;
        }
        Ok(())
    };
    let order: Vec<&str> =
        doc["draw_order"].as_array().into_iter().flatten().filter_map(|v| v.as_str()).collect();
    writeln!(
        out,
        "draw order (back to front): {}",
        if order.is_empty() { "-".to_string() } else { order.join(", ") }
    )?;
    writeln!(out, "setup pose:")?;
    fmt_pose(out, &doc["setup"])?;
    for a in doc["animations"].as_array().into_iter().flatten() {
        writeln!(
            out,
            "animation \"{}\": {} fps, {:.4} s",
            a["name"].as_str().unwrap_or(""),
            a["fps"],
            a["duration"].as_f64().unwrap_or(0.0)
        )?;
        for p in a["poses"].as_array().into_iter().flatten() {
            writeln!(out, "  t = {:.4} s", p["time"].as_f64().unwrap_or(0.0))?;
            fmt_pose(out, p)?;
        }
    }
    Ok(())
}
