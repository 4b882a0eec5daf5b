//! Rendering diagnostics for people (rustc style) and for tools (JSON).

use std::io::{IsTerminal, Write};
use std::path::Path;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label, Severity as CsSeverity};
use codespan_reporting::term::termcolor::ColorChoice;
use codespan_reporting::term::{self, Config};

use crate::compile::Compilation;
use crate::syntax::{Diagnostic, LineIndex, Severity};

fn to_codespan(d: &Diagnostic, label: std::ops::Range<usize>) -> CsDiagnostic<()> {
    let severity = match d.severity {
        Severity::Error => CsSeverity::Error,
        Severity::Warning => CsSeverity::Warning,
    };
    CsDiagnostic::new(severity)
        .with_message(d.message.clone())
        .with_labels(vec![Label::primary((), label)])
        .with_notes(d.hints.iter().map(|h| format!("help: {h}")).collect())
}

/// A source line longer than this many bytes is shown in part (see
/// [`Shown`]).
const LONG_LINE: usize = 240;
/// Bytes shown before a diagnostic's start on a long line, and in all.
const BEFORE: usize = 40;
const WINDOW: usize = 160;

/// What a diagnostic shows of the source: the whole text, or, when its line
/// is long (a minified or binary "line" of 200 KB), a window of that line
/// around the diagnostic with `…` where it is cut, so the report stays a few
/// lines long. Line and column in the `file:line:col` header stay those of
/// the whole text.
struct Shown<'a> {
    name: &'a str,
    /// The text, or `…` + the window + `…` standing for line `first_line`.
    source: std::borrow::Cow<'a, str>,
    line_starts: std::borrow::Cow<'a, [usize]>,
    /// The 0-based line of the text the source's first line is.
    first_line: usize,
    /// Added to a column counted in `source` (the characters cut off).
    column_shift: usize,
}

impl<'a> Shown<'a> {
    /// The source to show for `d`, and its label's range in that source.
    fn new(
        name: &'a str,
        text: &'a str,
        line_starts: &'a [usize],
        d: &Diagnostic,
    ) -> (Self, std::ops::Range<usize>) {
        let start = (d.span.start as usize).min(text.len());
        let end = (d.span.end as usize).clamp(start, text.len());
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let whole = || Shown {
            name,
            source: std::borrow::Cow::Borrowed(text),
            line_starts: std::borrow::Cow::Borrowed(line_starts),
            first_line: 0,
            column_shift: 0,
        };
        if line_end - line_start <= LONG_LINE {
            return (whole(), start..end);
        }
        let floor = |mut i: usize| {
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let from = floor(start.saturating_sub(BEFORE).max(line_start));
        let to = floor((from + WINDOW).min(line_end)).max(start);
        let prefix = if from > line_start { "…" } else { "" };
        let suffix = if to < line_end { "…" } else { "" };
        let source = format!("{prefix}{}{suffix}", &text[from..to]);
        let label = prefix.len() + (start - from)..prefix.len() + (end.min(to) - from);
        let cut = text[line_start..from].chars().count();
        let shown = Shown {
            name,
            line_starts: std::borrow::Cow::Owned(vec![0]),
            first_line: line_starts.partition_point(|&s| s <= line_start).saturating_sub(1),
            column_shift: cut.saturating_sub(prefix.chars().count()),
            source: std::borrow::Cow::Owned(source),
        };
        (shown, label)
    }
}

impl<'a> codespan_reporting::files::Files<'a> for Shown<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.source)
    }

    fn line_index(
        &'a self,
        (): (),
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let i = self.line_starts.partition_point(|&s| s <= byte).saturating_sub(1);
        Ok(self.first_line + i)
    }

    fn column_number(
        &'a self,
        (): (),
        line: usize,
        byte: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let range = self.line_range((), line)?;
        Ok(codespan_reporting::files::column_index(&self.source, range, byte)
            + 1
            + self.column_shift)
    }

    fn line_range(
        &'a self,
        (): (),
        line: usize,
    ) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        let i = line.saturating_sub(self.first_line);
        let start = self.line_starts.get(i).copied().unwrap_or(self.source.len());
        let end = self.line_starts.get(i + 1).copied().unwrap_or(self.source.len());
        Ok(start..end)
    }
}

/// Renders diagnostics as text, like rustc: `file:line:col`, the source
/// line (a window of a long one), an underline and the hints.
pub fn render_plain(path: &Path, text: &str, diags: &[Diagnostic]) -> String {
    let name = path.display().to_string();
    let config = Config::default();
    let mut out = String::new();
    let starts: Vec<usize> = codespan_reporting::files::line_starts(text).collect();
    for d in diags {
        let (file, label) = Shown::new(&name, text, &starts, d);
        let _ = term::emit_to_string(&mut out, &config, &file, &to_codespan(d, label));
    }
    out
}

/// Whether diagnostics written to stderr are in color: when it is a
/// terminal (and the environment does not turn colors off).
pub fn stderr_in_color() -> bool {
    use codespan_reporting::term::termcolor::{BufferWriter, WriteColor};
    std::io::stderr().is_terminal()
        && BufferWriter::stderr(ColorChoice::Auto).buffer().supports_color()
}

/// Renders diagnostics for stderr, in color or not, with the file's summary
/// line (`… ok` or the counts); what [`print_human`] prints. Files checked
/// on several threads are rendered this way, then printed in order.
pub fn render_human(path: &Path, text: &str, diags: &[Diagnostic], color: bool) -> Vec<u8> {
    use codespan_reporting::term::termcolor::Buffer;
    let mut out = if color { Buffer::ansi() } else { Buffer::no_color() };
    let name = path.display().to_string();
    let config = Config::default();
    let starts: Vec<usize> = codespan_reporting::files::line_starts(text).collect();
    for d in diags {
        let (file, label) = Shown::new(&name, text, &starts, d);
        let _ = term::emit_to_write_style(&mut out, &config, &file, &to_codespan(d, label));
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    let summary = match (errors, warnings) {
        (0, 0) => format!("{}: ok", path.display()),
        _ => format!("{}: {} error(s), {} warning(s)", path.display(), errors, warnings),
    };
    let _ = writeln!(out, "{summary}");
    out.into_inner()
}

/// Prints diagnostics to stderr, in color when it is a terminal.
pub fn print_human(path: &Path, text: &str, diags: &[Diagnostic]) {
    let rendered = render_human(path, text, diags, stderr_in_color());
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(&rendered);
    let _ = err.flush();
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
