//! Code actions through the real server: the animator's text edits offered
//! where the cursor is, checked by applying the returned edits to the
//! text (positions counted by hand; the fixture is ASCII, so UTF-16
//! characters are bytes) and sending the result back: it must compile
//! clean.

use serde_json::{Value, json};

use super::{Client, URI};

const ANIMS: &str = "skeleton\n\
\tarm l10\n\
anim \"wave\" 10fps\n\
\tarm\n\
\t\tr 0 -> 30 -> 0\n\
anim \"rest\"\n\
\tarm\n\
\t\tx 0 -> 5\n";

/// The actions offered at (line, character): title → the text after its edits.
fn actions(c: &mut Client, text: &str, line: u32, character: u32) -> Vec<(String, String)> {
    let pos = json!({ "line": line, "character": character });
    let r = c.result(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": URI },
            "range": { "start": pos, "end": pos },
            "context": { "diagnostics": [] },
        }),
    );
    r.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            assert_eq!(a["kind"], json!("refactor.rewrite"), "{a}");
            let edits = a["edit"]["changes"][URI].as_array().unwrap();
            (a["title"].as_str().unwrap().to_owned(), apply(text, edits))
        })
        .collect()
}

/// The byte offset of an LSP position in ASCII text.
fn offset(text: &str, p: &Value) -> usize {
    let line = p["line"].as_u64().unwrap() as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    start + p["character"].as_u64().unwrap() as usize
}

/// `text` with LSP edits (all on the original text) applied, last first.
fn apply(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            (offset(text, &r["start"]), offset(text, &r["end"]), e["newText"].as_str().unwrap())
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_owned();
    for (a, b, new) in spans {
        out.replace_range(a..b, new);
    }
    out
}

fn titles(found: &[(String, String)]) -> Vec<&str> {
    found.iter().map(|(t, _)| t.as_str()).collect()
}

fn after<'a>(found: &'a [(String, String)], title: &str) -> &'a str {
    &found.iter().find(|(t, _)| t == title).unwrap_or_else(|| panic!("no {title}")).1
}

#[test]
fn keys_and_animations_are_edited_by_code_actions() {
    let mut c = Client::start();
    assert!(c.open(ANIMS).is_empty());
    // On the key `30` (frame 5): move it a frame either way, or delete it.
    let found = actions(&mut c, ANIMS, 4, 9);
    assert_eq!(
        titles(&found),
        ["Move key to frame 4", "Move key to frame 6", "Delete key at frame 5"]
    );
    assert_eq!(
        after(&found, "Move key to frame 6"),
        ANIMS.replace("r 0 -> 30 -> 0", "r 0 6:> 30 10:> 0")
    );
    // The last key stays at frame 10.
    assert_eq!(
        after(&found, "Delete key at frame 5"),
        ANIMS.replace("r 0 -> 30 -> 0", "r 0 10:> 0")
    );
    // Between the keys at frames 0 and 5: a key at frame 2 with the value
    // the animation has there (12 of 30, linearly).
    let found = actions(&mut c, ANIMS, 4, 6);
    assert_eq!(titles(&found), ["Insert key at frame 2"]);
    let inserted = after(&found, "Insert key at frame 2").to_owned();
    assert_eq!(inserted, ANIMS.replace("r 0 -> 30 -> 0", "r 0 2:> 12 5:> 30 -> 0"));
    // On the first header: duplicate, delete, move down (not up).
    let found = actions(&mut c, ANIMS, 2, 3);
    assert_eq!(
        titles(&found),
        [
            "Duplicate animation \"wave\"",
            "Delete animation \"wave\"",
            "Move animation \"wave\" down"
        ]
    );
    assert_eq!(
        after(&found, "Duplicate animation \"wave\""),
        ANIMS.replace(
            "anim \"rest\"",
            "anim \"wave-copy\" 10fps\n\tarm\n\t\tr 0 -> 30 -> 0\nanim \"rest\""
        )
    );
    assert_eq!(
        after(&found, "Move animation \"wave\" down"),
        "skeleton\n\tarm l10\nanim \"rest\"\n\tarm\n\t\tx 0 -> 5\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 30 -> 0\n"
    );
    // Nothing on the skeleton.
    assert!(actions(&mut c, ANIMS, 1, 2).is_empty());
    // The inserted key, sent back as the client would, compiles clean.
    let whole = json!([{ "text": inserted }]);
    assert!(c.change(2, whole).is_empty());
    let found = actions(&mut c, &inserted, 4, 10);
    assert!(titles(&found).contains(&"Move key to frame 3"), "{found:?}");
    c.stop();
}
