//! Tests of the lazy layout: galleys reused and patched, placeholders
//! kept in place, text followed without compiling.

use super::*;
use crate::app::highlight::layout_job;
use eframe::egui::text::CCursor;

/// Runs `f` with egui's fonts inside a frame.
fn with_fonts<R>(ctx: &eframe::egui::Context, f: impl FnOnce(&mut FontsView<'_>) -> R) -> R {
    let mut out = None;
    let mut f = Some(f);
    let mut o = ctx.run_ui(Default::default(), |ui| {
        if let Some(f) = f.take() {
            out = Some(ui.fonts_mut(f));
        }
    });
    o.textures_delta.clear();
    out.unwrap()
}

fn request<'a>(
    text: &'a str,
    comp: &'a Compilation,
    generation: u64,
    font: &'a FontId,
    view: Rangef,
) -> Request<'a> {
    Request { text, comp, generation, find: "", dark: true, font, pixels_per_point: 1.0, view }
}

/// The text of each row, from its glyphs.
fn row_texts(g: &Galley) -> Vec<String> {
    g.rows.iter().map(|r| r.glyphs.iter().map(|g| g.chr).collect()).collect()
}

/// The changed range found a chunk at a time is the one a byte-by-byte
/// comparison finds, for edits near chunk boundaries and the ends.
#[test]
fn changed_range_is_the_bytewise_one() {
    let naive = |o: &[u8], n: &[u8]| {
        let prefix = o.iter().zip(n).take_while(|(a, b)| a == b).count();
        let room = o.len().min(n.len()) - prefix;
        let suffix =
            o.iter().rev().zip(n.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
        (prefix, o.len() - suffix, n.len() - suffix)
    };
    let base: String = (0..2000).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
    for at in [0, 1, 255, 256, 257, 511, 1000, 1743, 1744, 1999, 2000] {
        for (cut, put) in [(0, "X"), (1, ""), (3, "YY"), (0, "aaa"), (300, "Z")] {
            let end = (at + cut).min(base.len());
            let new = format!("{}{put}{}", &base[..at], &base[end..]);
            assert_eq!(
                changed_range(&base, &new),
                naive(base.as_bytes(), new.as_bytes()),
                "{at} {cut} {put}"
            );
            assert_eq!(changed_range(&new, &base), naive(new.as_bytes(), base.as_bytes()));
        }
    }
    assert_eq!(changed_range(&base, &base), (2000, 2000, 2000));
    assert_eq!(changed_range("", "abc"), (0, 0, 3));
}

#[test]
fn galleys_are_reused_and_edits_lay_out_only_the_changed_line() {
    let ctx = eframe::egui::Context::default();
    let font = FontId::monospace(12.0);
    let mut h = Highlighter::default();
    let text = "skeleton\n\tarm l10\n\tleg l20\n";
    let edited = "skeleton\n\tarm l10\n\tleg l25\n";
    let all = Rangef::new(0.0, 1000.0);
    let mut galleys = Vec::new();
    for (generation, t) in [(1, text), (1, text), (2, edited)] {
        let comp = crate::compile::compile(t);
        let req = request(t, &comp, generation, &font, all);
        galleys.push(with_fonts(&ctx, |f| h.galley(f, &req)));
    }
    assert!(Arc::ptr_eq(&galleys[0], &galleys[1]));
    assert_eq!(h.builds, 2);
    // Four lines (the last one empty), then only the edited one again.
    assert_eq!(h.lines_laid_out, 5);
    assert_eq!(galleys[2].text(), edited);
    // Same rows as egui's own layout of the whole job.
    let comp = crate::compile::compile(edited);
    let whole =
        with_fonts(&ctx, |f| f.layout_job(layout_job(edited, &comp, "", true, font.clone())));
    assert_eq!(whole.rows.len(), galleys[2].rows.len());
    assert!((whole.size().y - galleys[2].size().y).abs() < 0.5);
}

/// A long text seen through a small window: only the lines near it are
/// laid out, and every other line still takes the place (rows, cursor
/// positions) egui's layout of the whole text gives it.
#[test]
fn lines_out_of_view_are_placeholders_that_keep_their_place() {
    let ctx = eframe::egui::Context::default();
    let font = FontId::monospace(13.0);
    let text = crate::generate::script(60, 3);
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(lines.len() > 250, "{} lines", lines.len());
    let comp = crate::compile::compile(&text);
    let mut h = Highlighter::default();
    let view = Rangef::new(2000.0, 2300.0);
    let g = with_fonts(&ctx, |f| h.galley(f, &request(&text, &comp, 1, &font, view)));
    assert_eq!(g.text(), text);
    assert_eq!(row_texts(&g), lines);
    let laid = (0..lines.len()).filter(|&i| h.is_laid_out(i)).collect::<Vec<_>>();
    // The view (300 points) and three times that above and below it.
    assert!(laid.len() < 200 && laid.len() > 10, "{} lines laid out", laid.len());
    let whole =
        with_fonts(&ctx, |f| f.layout_job(layout_job(&text, &comp, "", true, font.clone())));
    assert_eq!(whole.rows.len(), g.rows.len());
    for (i, (a, b)) in whole.rows.iter().zip(&g.rows).enumerate() {
        assert_eq!(a.pos.y, b.pos.y, "row {i}");
        // Drawn where it is in view, not elsewhere.
        let in_view = b.pos.y + b.size.y > view.min && b.pos.y < view.max;
        if in_view {
            assert!(h.is_laid_out(i), "row {i} in view");
            assert_eq!(a.visuals.mesh.vertices.len(), b.visuals.mesh.vertices.len(), "{i}");
        }
    }
    let chars = text.chars().count();
    for c in (0..chars).step_by(37) {
        let (a, b) = (whole.pos_from_cursor(CCursor::new(c)), g.pos_from_cursor(CCursor::new(c)));
        assert!((a.min - b.min).length() <= 1.0, "char {c}: {a:?} / {b:?}");
    }
}

/// A galley patched in place is the one `Galley::concat` joins from the
/// same lines, field for field, through typing on a line, lines coming
/// into view and a line added (joined again).
#[test]
fn a_patched_galley_is_the_joined_one() {
    let ctx = eframe::egui::Context::default();
    let font = FontId::monospace(13.0);
    let text = crate::generate::script(60, 3);
    let mut h = Highlighter::default();
    let top = Rangef::new(0.0, 300.0);
    let mut t = text.clone();
    let at = t.match_indices('\n').nth(8).unwrap().0;
    let check = |h: &mut Highlighter, t: &str, generation: u64, view: Rangef| {
        let comp = crate::compile::compile(t);
        let g = with_fonts(&ctx, |f| h.galley(f, &request(t, &comp, generation, &font, view)));
        let joined = Galley::concat(g.job.clone(), &h.lines.galleys, 1.0);
        assert!(*g == joined, "generation {generation}: the patched galley differs");
        assert_eq!(g.text(), t);
    };
    check(&mut h, &t, 1, top);
    assert_eq!(h.patches, 0);
    // Typing on line 9, a character a frame.
    for (i, c) in " # x".chars().enumerate() {
        t.insert(at + i, c);
        check(&mut h, &t, 2 + i as u64, top);
    }
    assert!(h.patches >= 3, "{} patches", h.patches);
    // Scrolled down: lines come into view in place of placeholders
    // (patched, or joined again when one of them is the widest).
    check(&mut h, &t, 10, Rangef::new(2400.0, 2700.0));
    check(&mut h, &t, 10, Rangef::new(1200.0, 1500.0));
    // A line added: joined again.
    let before = h.patches;
    t.insert(at, '\n');
    check(&mut h, &t, 11, Rangef::new(1200.0, 1500.0));
    assert_eq!(h.patches, before);
    // The galley kept elsewhere is not touched: joined again.
    let comp = crate::compile::compile(&t);
    let held = with_fonts(&ctx, |f| h.galley(f, &request(&t, &comp, 11, &font, top)));
    t.insert(at, 'y');
    check(&mut h, &t, 12, top);
    assert_eq!(held.text().len() + 1, t.len());
}

/// Edits the compilation has not seen are followed (the text is the
/// new one, the touched lines drawn plainly), and once compiled the
/// galley is the one a fresh highlighter makes.
#[test]
fn edits_not_compiled_yet_are_followed_then_highlighted() {
    let ctx = eframe::egui::Context::default();
    let font = FontId::monospace(13.0);
    let text = crate::generate::script(60, 3);
    let comp = crate::compile::compile(&text);
    let top = Rangef::new(0.0, 300.0);
    let mut h = Highlighter::default();
    with_fonts(&ctx, |f| h.galley(f, &request(&text, &comp, 1, &font, top)));
    let at = text.match_indices('\n').nth(8).unwrap().0;
    let mut t = text.clone();
    for (i, c) in " # typed".chars().enumerate() {
        t.insert(at + i, c);
        // The stale compilation, as the text field's second layout of a
        // frame has it.
        let g = with_fonts(&ctx, |f| h.follow(f, &request(&t, &comp, 1, &font, top)));
        assert_eq!(g.text(), t);
        assert_eq!(row_texts(&g), t.split('\n').collect::<Vec<_>>());
        assert!(h.is_laid_out(8), "the edited line is drawn");
    }
    // A line end deleted too (two lines become one).
    let nl = at + " # typed".len();
    assert_eq!(&t[nl..=nl], "\n");
    t.replace_range(nl..=nl, "");
    let g = with_fonts(&ctx, |f| h.follow(f, &request(&t, &comp, 1, &font, top)));
    assert_eq!(row_texts(&g), t.split('\n').collect::<Vec<_>>());
    let comp2 = crate::compile::compile(&t);
    let g = with_fonts(&ctx, |f| h.galley(f, &request(&t, &comp2, 2, &font, top)));
    let mut fresh = Highlighter::default();
    let f = with_fonts(&ctx, |f| fresh.galley(f, &request(&t, &comp2, 2, &font, top)));
    assert_eq!(g.rows.len(), f.rows.len());
    for (i, (a, b)) in g.rows.iter().zip(&f.rows).enumerate() {
        assert_eq!(a.pos, b.pos, "row {i}");
        assert_eq!(a.row.visuals.mesh, b.row.visuals.mesh, "row {i} is drawn as fresh");
    }
}

#[test]
fn an_edit_replaces_only_its_lines_and_scrolling_lays_out_the_new_ones() {
    let ctx = eframe::egui::Context::default();
    let font = FontId::monospace(13.0);
    let text = crate::generate::script(60, 3);
    let comp = crate::compile::compile(&text);
    let mut h = Highlighter::default();
    let top = Rangef::new(0.0, 300.0);
    with_fonts(&ctx, |f| h.galley(f, &request(&text, &comp, 1, &font, top)));
    let first = h.lines_laid_out;
    // A line typed in after line 5, in view.
    let at = text.match_indices('\n').nth(4).unwrap().0 + 1;
    let edited = format!("{}\t# a note\n{}", &text[..at], &text[at..]);
    let comp2 = crate::compile::compile(&edited);
    let g = with_fonts(&ctx, |f| h.galley(f, &request(&edited, &comp2, 2, &font, top)));
    assert_eq!(row_texts(&g), edited.split('\n').collect::<Vec<_>>());
    assert!(h.is_laid_out(5));
    // The new line and whatever changed its looks; not the window again.
    assert!(h.lines_laid_out - first < 10, "{} lines laid out again", h.lines_laid_out - first);
    // Scrolled to the end: those lines are laid out, the text is the same.
    let end = g.size().y;
    let bottom = Rangef::new(end - 300.0, end);
    let before = h.lines_laid_out;
    let g2 = with_fonts(&ctx, |f| h.galley(f, &request(&edited, &comp2, 2, &font, bottom)));
    assert!(h.lines_laid_out > before);
    assert!(h.is_laid_out(g2.rows.len() - 2));
    assert_eq!(g2.text(), edited);
    // Within the window already laid out: the same galley.
    let g3 = with_fonts(&ctx, |f| {
        h.galley(f, &request(&edited, &comp2, 2, &font, Rangef::new(end - 280.0, end)))
    });
    assert!(Arc::ptr_eq(&g2, &g3));
}
