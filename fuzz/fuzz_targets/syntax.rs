//! The parser alone, for volume: arbitrary bytes (decoded lossily as UTF-8)
//! to `skelpad::syntax::parse_document`. Besides panics it checks what the
//! compiler and the editor rely on: the sections tile the text in order on
//! char boundaries, and every diagnostic span and token role lies inside its
//! section on char boundaries. (`parse` runs the whole pipeline on each input
//! and is ~50× slower; this target gives the parser its millions.)

#![no_main]

use libfuzzer_sys::fuzz_target;
use skelpad::syntax::parse_document;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut at = 0;
    for (slice, section) in parse_document(&text) {
        let (start, end) = (slice.start as usize, slice.end as usize);
        assert!(
            at <= start && start <= end && end <= text.len(),
            "section {start}..{end} out of order"
        );
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "section splits a char"
        );
        at = end;
        let body = &text[start..end];
        for d in &section.diagnostics {
            let (s, e) = (d.span.start as usize, d.span.end as usize);
            assert!(s <= e && e <= body.len(), "diagnostic {s}..{e} outside its section: {d:?}");
            assert!(
                body.is_char_boundary(s) && body.is_char_boundary(e),
                "diagnostic splits a char"
            );
        }
        for r in &section.roles {
            let (s, e) = (r.span.start as usize, r.span.end as usize);
            assert!(s <= e && e <= body.len(), "role {s}..{e} outside its section");
        }
    }
});
