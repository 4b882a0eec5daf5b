//! Hover and completion in the script pane, and the editor answering as
//! the language server does (definition, hover and rename at every offset
//! of every example).

use std::ops::Range;

use eframe::egui::{self, Event, Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use lsp_server::{Notification, Request, RequestId};
use skelpad::app::{SkelpadApp, assist, document::Document, files, help};
use skelpad::lsp::Server;
use skelpad::lsp::text::Text;

use super::{open_sized, write};

const RIG: &str = "skeleton\n\tarm l40\n\t\t@ :rect x20 w40 h10\n\tarm.hand l20\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 90 -> 0\n";

/// A language server with `text` open as `file:///t.skel2d`.
fn server_with(text: &str) -> Server {
    let mut server = skelpad::cli::language_server();
    let open = serde_json::json!({ "textDocument": {
        "uri": "file:///t.skel2d", "languageId": "skel2d", "version": 1, "text": text } });
    server.notification(Notification::new("textDocument/didOpen".into(), open));
    server
}

/// The server's answer to `method` at byte `offset` (`extra` merged into
/// the parameters): its result, or `None` for an error.
fn ask(
    server: &mut Server,
    text: &Text,
    method: &str,
    offset: usize,
    extra: serde_json::Value,
) -> Option<serde_json::Value> {
    let mut params = serde_json::json!({
        "textDocument": { "uri": "file:///t.skel2d" },
        "position": text.position(offset),
    });
    if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
        p.extend(e.clone());
    }
    let resp = server.request(Request::new(RequestId::from(1), method.into(), params));
    resp.response_result.ok().filter(|v| !v.is_null())
}

/// The server's hover Markdown at `offset` (`None`: no hover).
fn server_hover(server: &mut Server, text: &Text, offset: usize) -> Option<String> {
    let r = ask(server, text, "textDocument/hover", offset, serde_json::json!({}))?;
    r["contents"]["value"].as_str().map(str::to_string)
}

/// Markdown's `**` and backticks removed (what the tooltip shows as text).
fn plain(line: &str) -> String {
    line.trim_end().replace("**", "").replace('`', "")
}

#[test]
fn hover_shows_the_language_servers_text_after_a_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = open_sized(&path, [1280.0, 800.0]);
    // The bone item `arm` of the animation, its second character.
    let at = RIG.find("\tarm\n").unwrap() + 2;
    let pos = h.state().editor.assist.screen_pos(at).expect("the text was drawn");
    h.event(Event::PointerMoved(pos));
    h.run_steps(3);
    let md = server_hover(&mut server_with(RIG), &Text::new(RIG.to_string()), at).unwrap();
    let first = plain(md.lines().next().unwrap());
    assert_eq!(first, "bone arm");
    // Not before the pointer has rested…
    assert!(h.query_by_label(&first).is_none());
    h.run_steps(40);
    // …then every line of the server's answer.
    for line in md.lines().filter(|l| !l.trim().is_empty()) {
        h.get_by_label(&plain(line));
    }
    // Moving away hides it.
    h.event(Event::PointerMoved(egui::pos2(5.0, 790.0)));
    h.run_steps(2);
    assert!(h.query_by_label(&first).is_none());
}

/// Puts the editor cursor at byte `at` and gives the editor focus.
fn focus_at(h: &mut Harness<'_, SkelpadApp>, at: usize) {
    h.ctx.memory_mut(|m| m.request_focus(skelpad::app::editor::editor_id()));
    h.run_steps(1);
    h.state_mut().editor.select(at..at);
    h.run_steps(2);
}

#[test]
fn completion_inserts_the_chosen_proposal_as_one_undo_step() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("{RIG}\t");
    let path = write(dir.path(), "rig.skel2d", &text);
    let mut h = open_sized(&path, [1280.0, 800.0]);
    focus_at(&mut h, text.len());
    // Ctrl+Space: the items an animation can name, as the server proposes.
    h.key_press_modifiers(Modifiers::CTRL, Key::Space);
    h.run_steps(1);
    let labels: Vec<String> =
        h.state().editor.assist.list_labels().iter().map(|s| s.to_string()).collect();
    let doc = &h.state().doc;
    let server: Vec<String> =
        skelpad_ide::analysis::complete(&doc.text, doc.analysis.comp(), text.len())
            .into_iter()
            .map(|p| p.label)
            .collect();
    assert_eq!(labels, server);
    assert!(labels.iter().any(|l| l == "hand"), "{labels:?}");
    h.get_by_label(&labels[1]);
    // Down, Enter: the second one, in place of the (empty) word.
    h.key_press(Key::ArrowDown);
    h.key_press(Key::Enter);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, format!("{text}{}", labels[1]));
    assert!(!h.state().editor.assist.list_open());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, text, "one undo step takes the insertion back");

    // Typing a word opens the list by itself, holding the word; Tab takes
    // the first; one undo goes back to the word as typed.
    h.get_by_label("Script").type_text("ha");
    h.run_steps(1);
    assert_eq!(h.state().editor.assist.list_labels().first(), Some(&"hand"));
    h.key_press(Key::Tab);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, format!("{text}hand"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run_steps(1);
    assert_eq!(h.state().doc.text, format!("{text}ha"));
    // Escape closes the list; Enter is a new line again.
    h.get_by_label("Script").type_text("n");
    h.run_steps(1);
    assert!(h.state().editor.assist.list_open());
    h.key_press(Key::Escape);
    h.run_steps(1);
    assert!(!h.state().editor.assist.list_open());
    h.key_press(Key::Enter);
    h.run_steps(1);
    assert!(h.state().doc.text.ends_with("han\n\t"), "{:?}", h.state().doc.text);
    // A click on a row inserts it too (the click takes the focus from the
    // editor for a moment; it comes back).
    h.key_press_modifiers(Modifiers::CTRL, Key::Space);
    h.run_steps(1);
    h.get_by_label("arm.hand").click();
    h.run_steps(3);
    assert!(h.state().doc.text.ends_with("han\n\tarm.hand"), "{:?}", h.state().doc.text);
    assert!(h.get_by_label("Script").is_focused());
}

/// Applies an LSP workspace edit's edits for the one document to `text`.
fn apply_workspace_edit(text: &Text, edit: &serde_json::Value) -> String {
    let edits = edit["changes"]["file:///t.skel2d"].as_array().cloned().unwrap_or_default();
    let mut spans: Vec<(skelpad::syntax::Span, String)> = edits
        .iter()
        .map(|e| {
            let range = serde_json::from_value(e["range"].clone()).unwrap();
            (text.span(range), e["newText"].as_str().unwrap().to_string())
        })
        .collect();
    spans.sort_by_key(|(s, _)| std::cmp::Reverse(s.start));
    let mut out = text.text.clone();
    for (s, t) in spans {
        out.replace_range(s.range(), &t);
    }
    out
}

/// The server's definition at `offset` as a byte range (`None`: none).
fn server_definition(server: &mut Server, text: &Text, offset: usize) -> Option<Range<usize>> {
    let r = ask(server, text, "textDocument/definition", offset, serde_json::json!({}))?;
    let location = if r.is_array() { r.get(0)?.clone() } else { r };
    assert_eq!(location["uri"], "file:///t.skel2d");
    Some(text.span(serde_json::from_value(location["range"].clone()).unwrap()).range())
}

/// The editor and the language server answer definition, hover and rename
/// alike at every offset of every example, each asked through the
/// server's protocol: the editor's go-to-definition selects the range the
/// server names (and moves nothing where the server has no answer), its
/// tooltip text is the server's hover, and its rename (from the outline)
/// leaves the text the server's edits make (or none where the server
/// refuses).
#[test]
fn definition_hover_and_rename_agree_with_the_language_server_everywhere() {
    let ctx = egui::Context::default();
    let cc = eframe::CreationContext::_new_kittest(ctx.clone());
    let services = skelpad::app::Services {
        dialogs: Box::new(files::NativeDialogs),
        recovery_dir: None,
        watch_files: false,
    };
    let mut app = SkelpadApp::new(&cc, None, services);
    let (mut jumps, mut hovers, mut renames) = (0, 0, 0);
    for e in help::EXAMPLES {
        let mut server = server_with(e.text);
        let text = Text::new(e.text.to_string());
        app.doc = Document::untitled(e.file, e.text);
        for offset in (0..=e.text.len()).filter(|&o| e.text.is_char_boundary(o)) {
            app.editor.cursor = Some(offset);
            app.editor.select(0..0);
            app.go_to_definition();
            let jump = app.editor.pending_selection().filter(|r| *r != (0..0));
            let server_jump = server_definition(&mut server, &text, offset);
            assert_eq!(jump, server_jump, "definition in {} at {offset}", e.file);
            jumps += usize::from(jump.is_some());

            let editor = assist::hover_text(&app.doc, offset);
            assert_eq!(editor, server_hover(&mut server, &text, offset), "{} at {offset}", e.file);
            hovers += usize::from(editor.is_some());

            let new_name = serde_json::json!({ "newName": "zz" });
            let server_text = ask(&mut server, &text, "textDocument/rename", offset, new_name)
                .map(|edit| apply_workspace_edit(&text, &edit));
            app.rename(&ctx, offset..offset + 1, "zz");
            let editor_text = (app.doc.text != e.text).then(|| app.doc.text.clone());
            let server_text = server_text.filter(|t| t != e.text);
            assert_eq!(editor_text, server_text, "rename in {} at {offset}", e.file);
            if editor_text.is_some() {
                renames += 1;
                app.doc = Document::untitled(e.file, e.text);
            }
        }
    }
    assert!(jumps > 1000, "only {jumps} offsets jump");
    assert!(hovers > 2000, "only {hovers} offsets hover");
    assert!(renames > 500, "only {renames} offsets rename");
}
