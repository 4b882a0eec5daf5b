//! The server's own tests: semantic tokens kept per section against tokens
//! made whole.

use super::*;

/// The tokens as the server made them before they were kept per section
/// (every token's position looked up on its own): the reference the kept
/// ones are checked against.
/// The token roles as LSP semantic tokens (relative positions, UTF-16
/// lengths, a token that crosses a line split at the line break).
pub(super) fn semantic_tokens_reference(doc: &Doc) -> Vec<SemanticToken> {
    let t = &doc.text;
    let mut out = Vec::new();
    let (mut prev_line, mut prev_char) = (0u32, 0u32);
    for r in doc.comp().roles() {
        let Some((ty, mods)) = tokens::role_token(r.role) else { continue };
        let mut start = r.span.start as usize;
        let end = (r.span.end as usize).min(t.text.len());
        while start < end {
            let line = t.line_of(start);
            let line_end = (t.line_start(line) + t.line(line).len()).min(end);
            let p = t.position(start);
            let len = t.text.get(start..line_end).map_or(0, |s| s.encode_utf16().count()) as u32;
            if len > 0 {
                let delta_line = p.line - prev_line;
                let delta_start =
                    if delta_line == 0 { p.character - prev_char } else { p.character };
                out.push(SemanticToken {
                    delta_line,
                    delta_start,
                    length: len,
                    token_type: ty,
                    token_modifiers_bitset: mods,
                });
                (prev_line, prev_char) = (p.line, p.character);
            }
            let next = t.line_start(line + 1);
            if next <= start {
                break;
            }
            start = next;
        }
    }
    out
}

fn change(server: &mut Server, uri: &str, version: i32, at: usize, text: &str, del: usize) {
    let doc = &server.docs[&uri.parse::<Uri>().unwrap()];
    let range = doc.text.range(Span::new(at as u32, (at + del) as u32));
    let params = serde_json::json!({
        "textDocument": { "uri": uri, "version": version },
        "contentChanges": [{ "range": range, "text": text }],
    });
    server.notification(Notification::new("textDocument/didChange".into(), params));
}

/// Tokens kept per section equal the tokens made whole, for generated
/// scripts of every style, the examples, text with multi-byte
/// characters, comments before the first section, continued lines and
/// CRLF, and after edits that change one section, add one, remove one.
#[test]
fn kept_semantic_tokens_equal_tokens_made_whole() {
    let mut texts: Vec<String> = skelpad_lang::generate::STYLES
        .iter()
        .map(|(_, style)| skelpad_lang::generate::styled(style, 120, 3))
        .collect();
    for e in ["walk_cycle", "skins", "tentacle", "ik_walk"] {
        let path = format!("{}/../../examples/{e}.skel2d", env!("CARGO_MANIFEST_DIR"));
        texts.push(std::fs::read_to_string(path).unwrap());
    }
    texts.push("# lead é𝄞\r\n\n# two\nskeleton\r\n\tarm l1 \\\n\t\tx2 # ü\nanim \"gänge𝄞\" 10fps\n\tarm\n\t\tx 0 -> 1\n".into());
    for (n, text) in texts.iter().enumerate() {
        let uri = format!("file:///t{n}.skel2d");
        let mut server = test_server();
        let open = serde_json::json!({ "textDocument": {
            "uri": uri, "languageId": "skel2d", "version": 1, "text": text } });
        server.notification(Notification::new("textDocument/didOpen".into(), open));
        let key: Uri = uri.parse().unwrap();
        let check = |server: &mut Server, what: &str| {
            let doc = server.docs.get_mut(&key).unwrap();
            let want = semantic_tokens_reference(doc);
            assert_eq!(semantic_tokens(doc), want, "text {n}, {what}");
            assert_eq!(semantic_tokens(doc), want, "text {n}, {what}, again (kept)");
        };
        check(&mut server, "opened");
        // A digit typed into the last line, a section added at the end,
        // then the first section's first line removed.
        let len = server.docs[&key].text.text.len();
        let at =
            server.docs[&key].text.text[..len.saturating_sub(1)].rfind(' ').map_or(0, |i| i + 1);
        change(&mut server, &uri, 2, at, "7", 0);
        check(&mut server, "a digit typed");
        let len = server.docs[&key].text.text.len();
        change(&mut server, &uri, 3, len, "\nanim \"new\"\n\tx\n\t\tr 0 -> 9\n", 0);
        check(&mut server, "a section added");
        let first_line = server.docs[&key].text.text.find('\n').map_or(0, |i| i + 1);
        change(&mut server, &uri, 4, 0, "", first_line);
        check(&mut server, "the first line removed");
    }
}
