//! The transition preview through the real UI: opened from the Animation
//! menu on the animation shown, it poses the canvas at the crossfade the
//! script's sequences would play (numbers worked out by hand), with the
//! script's mix time or the window's.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::{open_sized, write};
use skelpad::app::SkelpadApp;

/// "a": x 0 → 10, r 0 → 90 over 1 s; "b": x 20, r 60 held; a crossfade of
/// 0.5 s from "a" into "b".
const RIG: &str = "skeleton\n\tarm l40\n\
anim \"a\" 10fps\n\tarm\n\t\tx 0 10:> 10\n\t\tr 0 10:> 90\n\
anim \"b\" 10fps\n\tarm\n\t\tx 20 10:> 20\n\t\tr 60 10:> 60\n\
mix 0.2s\n\t\"a\" \"b\" 0.5s\n";

fn arm(h: &Harness<'_, SkelpadApp>) -> (f64, f64) {
    let l = h.state().pose.bones[0].local;
    (l.x, l.rotation_rad.to_degrees())
}

fn near(got: (f64, f64), want: (f64, f64)) {
    assert!((got.0 - want.0).abs() < 1e-6 && (got.1 - want.1).abs() < 1e-6, "{got:?} != {want:?}");
}

#[test]
fn the_transition_preview_plays_the_crossfade_on_the_canvas() {
    let dir = tempfile::tempdir().unwrap();
    let mut h = open_sized(&write(dir.path(), "rig.skel2d", RIG), [1280.0, 800.0]);
    h.state_mut().playback.playing = false;
    h.run_steps(2);
    h.get_all_by_label("Animation").next().unwrap().click();
    h.run_steps(2);
    h.get_by_label("Transition preview…").click();
    h.run_steps(3);
    assert!(h.state().transition.open);
    assert_eq!((h.state().transition.from.as_str(), h.state().transition.to.as_str()), ("a", "b"));
    h.get_by_label("Weight of “b”: 0.00");
    // 0.7 s: "b" started at 0.5 s (1 s − 0.5 s), weight 0.4; "a" is at
    // (7, 63): x 7 + 0.4 (20 − 7) = 12.2, r 63 + 0.4 (60 − 63) = 61.8.
    h.state_mut().transition.time_secs = 0.7;
    h.run_steps(2);
    near(arm(&h), (12.2, 61.8));
    h.get_by_label("Weight of “b”: 0.40");
    h.get_by_label("“a” from 0 s; crossfade 0.50–1.00 s; “b” until 1.50 s");
    // The window's mix time: 1 s, "b" from 0 s; at 0.5 s weight 0.5:
    // "a" (5, 45) halfway to (20, 60).
    h.state_mut().transition.mix = Some(1.0);
    h.state_mut().transition.time_secs = 0.5;
    h.run_steps(2);
    near(arm(&h), (12.5, 52.5));
    // Playing moves the playhead; closing gives the canvas back to "a".
    h.get_by_label("Play crossfade").click();
    h.run_steps(2);
    assert!(h.state().transition.playing);
    h.state_mut().transition.open = false;
    h.state_mut().playback.time_secs = 0.5;
    h.run_steps(2);
    near(arm(&h), (5.0, 45.0));
}
