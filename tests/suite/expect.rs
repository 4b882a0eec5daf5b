//! Pose assertions (`expect` sections): the examples' assertions hold, a
//! broken copy fails with the expected and actual values on the right line
//! (through `skelpad check` and `skelpad test`), and the language's errors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::Path;
use std::process::Command;

use skelpad::check::expect::compile_checked;

fn example(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples").join(name))
        .unwrap()
}

fn skelpad(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skelpad")).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_examples_assertions_hold() {
    for (name, count) in [
        ("walk_cycle.skel2d", 11),
        ("bouncing_ball.skel2d", 6),
        ("ik_arm.skel2d", 5),
        ("ik_walk.skel2d", 8),
    ] {
        let comp = compile_checked(&example(name));
        assert!(comp.diagnostics.is_empty(), "{name}: {:?}", comp.diagnostics);
        assert_eq!(comp.expectations.len(), count, "{name}");
        assert!(comp.expectations.iter().all(|e| e.passed()), "{name}");
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let (code, out, _) = skelpad(&["test", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let line = example("walk_cycle.skel2d")
        .lines()
        .position(|l| l.starts_with("\tfoot-l x48.601"))
        .unwrap()
        + 1;
    assert!(
        out.contains(&format!(
            "examples/walk_cycle.skel2d:{line} hip.thigh-l.shin-l.foot-l (\"walk\" at 0 s) ... ok"
        )),
        "{out}"
    );
    assert!(out.trim_end().ends_with("test result: ok. 32 passed; 0 failed; 8 file(s)"), "{out}");
}

#[test]
fn a_broken_copy_fails_with_the_values_on_its_line() {
    // The left foot is planted 109.225 below the origin (walk_cycle.skel2d
    // explains the geometry); claim it is at -100.
    let good = example("walk_cycle.skel2d");
    let line = "\tfoot-l x48.601 y-109.225 r15";
    let line_no = good.lines().position(|l| l == line).expect("the assertion line") + 1;
    let broken = good.replace(line, "\tfoot-l x48.601 y-100 r15");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.skel2d");
    std::fs::write(&path, &broken).unwrap();
    let p = path.to_str().unwrap();

    let (code, _, err) = skelpad(&["check", p]);
    assert_eq!(code, 1);
    assert!(
        err.contains("error: expected world y of `foot-l` to be -100 (± 0.01), it is -109.2254"),
        "{err}"
    );
    // `y-100` starts after a tab and `foot-l x48.601 ` (16 characters): column 17.
    assert!(err.contains(&format!("broken.skel2d:{line_no}:17")), "{err}");
    assert!(err.contains("help: at frame 0 (0 s) of \"walk\""), "{err}");

    let (code, out, _) = skelpad(&["test", p]);
    assert_eq!(code, 1);
    assert!(
        out.contains(&format!(
            "broken.skel2d:{line_no} hip.thigh-l.shin-l.foot-l (\"walk\" at 0 s) ... FAILED"
        )),
        "{out}"
    );
    assert!(out.contains("file result: FAILED. 10 passed; 1 failed"), "{out}");
    assert!(
        out.trim_end().ends_with("test result: FAILED. 10 passed; 1 failed; 1 file(s)"),
        "{out}"
    );

    let (code, out, _) = skelpad(&["test", "--format", "json", p]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ok"], false);
    assert_eq!((v["passed"].as_u64(), v["failed"].as_u64()), (Some(10), Some(1)));
    let e = &v["files"][0]["expectations"][0];
    assert_eq!(e["line"], line_no);
    assert_eq!(e["passed"], false);
    assert_eq!(e["failures"][0]["start"]["column"], 17);
    assert_eq!(v["files"][0]["expectations"][1]["passed"], true);
}

const RIG: &str = "skeleton\n\tarm x10 r90 l20\n\tarm.hand x20\n\t\t@ #FFF,0.2 :circle d4\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 90\n";

fn errors(text: &str) -> Vec<(String, String)> {
    let comp = compile_checked(text);
    comp.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (text[d.span.range()].to_string(), d.message.clone()))
        .collect()
}

#[test]
fn world_local_point_slot_and_setup_values() {
    // Setup pose: arm at (10,0) turned 90°; hand 20 along it: (10,20).
    // The hand's point 5,0 is 5 further along: (10,25). Rotations compare
    // modulo 360 (r-270 is r90).
    let text = format!(
        "{RIG}expect\n\tarm x10 y0 r-270\n\tarm.hand x10 y20\n\thand 5,0 x10 y25\n\t@hand a0.2 r1\n\
         expect \"wave\" 5 ~0.0001\n\tarm local r180 x10\n\thand x-10 y0 r180\n"
    );
    let comp = compile_checked(&text);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    assert_eq!(comp.expectations.len(), 6);
    assert!(comp.expectations.iter().all(|e| e.passed()));
    // Each expectation's name is a reference like any other (hover, rename…).
    let at = text.find("\thand 5,0").unwrap() as u32 + 1;
    assert!(comp.sources.reference_at(at).and_then(|r| r.target).is_some());
}

#[test]
fn mistakes_are_reported_where_they_are() {
    let e = errors(&format!("{RIG}expect \"wav\" 5\n\tarm r0\n"));
    assert_eq!(e, [("\"wav\"".to_string(), "unknown animation \"wav\"".to_string())]);
    let e = errors(&format!(
        "{RIG}expect\n\tleg r0\n\tarm q5\n\t@hand x1\n\tarm\n\tarm local 1,2 x0\n"
    ));
    let msgs: Vec<&str> = e.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        msgs,
        [
            // (In position order: a line's own error comes before its tokens'.)
            "unknown bone `leg`",
            "this expectation checks nothing",
            "unexpected `q5` in an expectation",
            "this expectation checks nothing",
            "unexpected `x1` in an expectation",
            "this expectation checks nothing",
            "a point is checked in world space: `local` and `X,Y` do not go together",
        ]
    );
    // A failing check names both values; the tolerance of the line wins.
    let e = errors(&format!("{RIG}expect \"wave\" 5 ~0.5\n\tarm r179 ~2\n\tarm r179\n"));
    assert_eq!(
        e,
        [(
            "r179".to_string(),
            "expected world rotation of `arm` to be 179 (± 0.5), it is 180".to_string()
        )]
    );
}
