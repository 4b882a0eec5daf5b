//! The canvas keeps the figure framed after a fit — when the outline or
//! the dopesheet opens, the window resizes, or bones are typed into a new
//! script — until the user pans, zooms or drags on the canvas; then the
//! view stays where the user put it.

use eframe::egui::{
    Event, Modifiers, MouseWheelSource, MouseWheelUnit, Pos2, Rect, TouchPhase, Vec2,
};
use egui_kittest::Harness;
use skelpad::app::SkelpadApp;
use skelpad::app::canvas::View;

use crate::{open_sized, write};

const RIG: &str = "skeleton\n\tarm l40\n\t\t@ :rect x20 w40 h10\n";

fn view(h: &Harness<'_, SkelpadApp>) -> View {
    h.state().view
}

/// The figure's box on screen: where the world box `[x0, y0, x1, y1]`
/// lands, with the canvas's rectangle.
fn on_screen(h: &Harness<'_, SkelpadApp>, b: [f64; 4]) -> (Rect, Rect) {
    let app = h.state();
    let rect = app.canvas.rect;
    let a = app.view.screen_from_world(rect, b[0], b[1]);
    let c = app.view.screen_from_world(rect, b[2], b[3]);
    (Rect::from_two_pos(a, c), rect)
}

/// Replaces the script's text as typing would (the document syncs).
fn set_text(h: &mut Harness<'_, SkelpadApp>, text: &str) {
    let app = h.state_mut();
    app.doc.text = text.to_owned();
    app.doc.sync();
    h.run_steps(3);
}

#[test]
fn the_figure_stays_framed_until_the_user_pans_or_zooms() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "rig.skel2d", RIG);
    let mut h = open_sized(&path, [1000.0, 700.0]);
    h.run_steps(3);
    let first = view(&h);

    // The outline opens or closes: the canvas is narrower or wider, the
    // figure refitted (its width rules the zoom).
    h.state_mut().settings.view.show_outline = !h.state().settings.view.show_outline;
    h.run_steps(3);
    assert_ne!(view(&h).zoom, first.zoom, "refitted to the new canvas");
    h.state_mut().settings.view.show_dopesheet = true;
    h.run_steps(3);

    // A bone typed far to the right: the view widens to hold it, and the
    // whole figure (the arm's box at the origin and the new bone's end)
    // is on the canvas.
    set_text(&mut h, &format!("{RIG}\tfar x300 l40\n"));
    let (shown, canvas) = on_screen(&h, [0.0, -5.0, 340.0, 5.0]);
    assert!(canvas.contains_rect(shown), "{shown:?} in {canvas:?}");
    assert!(shown.width() > 0.5 * canvas.width(), "framed, not tiny: {shown:?}");

    // The window shrinks: still framed.
    h.set_size(Vec2::new(800.0, 600.0));
    h.run_steps(4);
    let (shown, canvas) = on_screen(&h, [0.0, -5.0, 340.0, 5.0]);
    assert!(canvas.contains_rect(shown), "{shown:?} in {canvas:?}");

    // The user zooms with the wheel: from then on the view is theirs.
    let center = h.state().canvas.rect.center();
    h.event(Event::PointerMoved(center));
    h.event(Event::MouseWheel {
        unit: MouseWheelUnit::Point,
        delta: Vec2::new(0.0, 120.0),
        phase: TouchPhase::Move,
        source: MouseWheelSource::Wheel,
        modifiers: Modifiers::NONE,
    });
    h.run_steps(6);
    let zoomed = view(&h);
    h.state_mut().settings.view.show_outline = !h.state().settings.view.show_outline;
    h.run_steps(3);
    set_text(&mut h, &format!("{RIG}\tfar x600 l40\n"));
    h.event(Event::PointerMoved(Pos2::new(5.0, 5.0)));
    h.run_steps(2);
    assert_eq!(view(&h), zoomed, "kept where the user put it");
}
