//! Motion lints (`skelpad check --lint`): each lint fires on a script made
//! to trip it, at the place it names, and not on the same script fixed;
//! without `--lint`, `check` says nothing of them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::process::Command;

use skelpad::check::expect::compile_checked;
use skelpad::check::lint::lint;

fn lints(text: &str) -> Vec<(String, String)> {
    let mut comp = compile_checked(text);
    let before = comp.diagnostics.len();
    lint(&mut comp);
    assert!(comp.diagnostics.len() >= before);
    comp.diagnostics.iter().map(|d| (text[d.span.range()].to_string(), d.message.clone())).collect()
}

#[test]
fn a_loop_that_ends_elsewhere_has_a_seam_and_cycle_closes_it() {
    // x goes 0 → 10 and stays: the loop jumps back 10 units.
    let open = "skeleton\n\tb l10\nanim \"a\" 10fps\n\tb\n\t\tx 0 -> 10\n";
    let l = lints(open);
    assert_eq!(l.len(), 1, "{l:?}");
    assert_eq!(l[0].0, "anim \"a\" 10fps", "on the animation's header");
    assert!(l[0].1.contains("loops with a seam: bone `b` ends 10.00 units"), "{l:?}");
    let closed = "skeleton\n\tb l10\nanim \"a\" 10fps cycle\n\tb\n\t\tx 0 -> 10\n";
    assert!(lints(closed).is_empty(), "{:?}", lints(closed));
}

#[test]
fn a_bone_that_jumps_in_one_frame_pops() {
    // 0 → 100 units between frames 5 and 6 (a key a frame after another).
    let text =
        "skeleton\n\tb l10\nanim \"a\" 10fps\n\tb\n\t\tx 0 5:> 0 6:> 100 10:> 100 11:> 0 15:> 0\n";
    let l = lints(text);
    assert!(l.iter().any(|x| x.1.contains("pops at frame 6: bone `b` moves 100.0 units")), "{l:?}");
    // The same move over 5 frames (20 a frame) is no pop.
    let smooth = "skeleton\n\tb l10\nanim \"a\" 10fps\n\tb\n\t\tx 0 -> 100 -> 0\n";
    assert!(lints(smooth).iter().all(|x| !x.1.contains("pops")), "{:?}", lints(smooth));
}

#[test]
fn still_timelines_unseen_attachments_and_long_animations() {
    let text = "skeleton\n\tb l10\n\t\t@s[open] :rect w1 h1\n\t\t@s[shut] :rect w2 h2\n\t\t@s[lost] :rect w3 h3\n\
                anim \"a\" 10fps\n\tb\n\t\tr 0 -> 0\n\t\ti 1 -> 1\n\t\ty 0 -> 3 -> 0\n\t@s\n\t\t@ open -> shut -> open\n\
                anim \"long\" 10fps\n\tb\n\t\ty 0 1201:> 0\n";
    let l = lints(text);
    let on =
        |snippet: &str, msg: &str| l.iter().any(|(s, m)| s.starts_with(snippet) && m.contains(msg));
    assert!(on("r 0 -> 0", "changes nothing"), "{l:?}");
    assert!(on("i 1 -> 1", "changes nothing"), "{l:?}");
    assert!(!on("y 0 -> 3", "changes nothing"), "{l:?}");
    assert!(on("@s[lost]", "attachment `b.s.lost` is never shown"), "{l:?}");
    assert!(!l.iter().any(|(_, m)| m.contains("`b.s.shut` is never shown")), "{l:?}");
    assert!(on("anim \"long\"", "is 1201 frames long"), "{l:?}");
}

#[test]
fn check_reports_lints_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("a.skel2d");
    std::fs::write(&f, "skeleton\n\tb l10\nanim \"a\" 10fps\n\tb\n\t\tx 0 -> 10\n").unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_skelpad")).args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned()
                + &String::from_utf8_lossy(&out.stdout),
        )
    };
    let (code, out) = run(&["check", f.to_str().unwrap()]);
    assert_eq!(code, Some(0));
    assert!(!out.contains("seam"), "{out}");
    let (code, out) = run(&["check", "--lint", f.to_str().unwrap()]);
    assert_eq!(code, Some(0), "lints are warnings");
    assert!(out.contains("warning: animation \"a\" loops with a seam"), "{out}");
}

#[test]
fn a_loop_that_changes_speed_at_its_seam_jolts() {
    // Out to 20 eased out, back eased in: it ends where it starts (no
    // seam) and the speed inside changes by about half a unit per frame at
    // most, but it leaves at about +3.1 units a frame and arrives at about
    // -3.1: a jolt of about 6 units a frame at the seam.
    let eased = "skeleton\n\tb l10\nanim \"a\" 10fps 0:10\n\tb\n\t\tx 0 :so-> 20 :si-> 0\n";
    let l = lints(eased);
    assert_eq!(l.len(), 1, "{l:?}");
    assert!(l[0].1.contains("loops with a jolt: bone `b`"), "{l:?}");
    // Eased in and out both ways: at rest at the seam, nothing to say.
    let smooth = "skeleton\n\tb l10\nanim \"a\" 10fps 0:10\n\tb\n\t\tx 0 :sio-> 20 :sio-> 0\n";
    assert!(lints(smooth).is_empty(), "{:?}", lints(smooth));
}

/// Examples teach: every one passes its own motion lints, through the CLI
/// as a user runs it (`skelpad check --lint`: exit 0, no warning).
#[test]
fn every_example_passes_check_with_lints() {
    let mut examples: Vec<_> = std::fs::read_dir("examples")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
        .collect();
    examples.sort();
    assert!(examples.len() >= 7, "{examples:?}");
    for path in &examples {
        let out = Command::new(env!("CARGO_BIN_EXE_skelpad"))
            .args(["check", "--lint"])
            .arg(path)
            .output()
            .unwrap();
        let all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "{}: {all}", path.display());
        assert!(!all.contains("warning"), "{}: {all}", path.display());
    }
}
