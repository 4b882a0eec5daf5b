//! Events (`!NAME` items of an `anim` section, LANGUAGE-EXT.md "Events"):
//! what the compiler makes of them, their diagnostics, and what
//! `skelpad pose --json` says. Every expected frame below is worked out by
//! hand from the timeline rules (LANGUAGE.md §5.1), not read back from the
//! compiler.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::process::Command;

use skelpad::compile::compile;
use skelpad::model::{Animation, EventPayload};

fn anim(text: &str, name: &str) -> Animation {
    let comp = compile(text);
    comp.armature.animations.iter().find(|a| a.name == name).map(|a| Animation::clone(a)).unwrap()
}

fn messages(text: &str) -> Vec<String> {
    compile(text).diagnostics.into_iter().map(|d| d.message).collect()
}

const WALK: &str = "skeleton\n\tleg l10\n\
anim \"walk\" 20fps 0:10:sio\n\
\tleg\n\t\tr 0 -> 30 -> 0\n\
\t!footstep\n\t\ts \"foot-r\" -> \"foot-l\"\n\
\t!blink 3:\n\t\te ! 12:> !\n\
\t!count 0:4\n\t\ti 1 { -> +1 }[2]\n\
\t!gain\n\t\tf 0.5 --> 2.25\n";

#[test]
fn events_fire_at_their_frames_in_time_order() {
    let a = anim(WALK, "walk");
    // footstep: step 10 from the header, keys at 0 and 10.
    // blink: the item starts at frame 3; `12:>` moves to 12, the second
    // `!` fires there (the first fired at 3).
    // count: step 4: 1 at 0, then `-> +1` twice: 2 at 4, 3 at 8.
    // gain: 0.5 at 0, `-->` is two steps of 10: 2.25 at 20.
    let got: Vec<(String, f64, EventPayload)> =
        a.events.iter().map(|e| (e.name.clone(), e.frame, e.payload.clone())).collect();
    let t = |s: &str| EventPayload::Text(s.to_string());
    let want = vec![
        ("footstep".to_string(), 0.0, t("foot-r")),
        ("count".to_string(), 0.0, EventPayload::Int(1)),
        ("gain".to_string(), 0.0, EventPayload::Float(0.5)),
        ("blink".to_string(), 3.0, EventPayload::None),
        ("count".to_string(), 4.0, EventPayload::Int(2)),
        ("count".to_string(), 8.0, EventPayload::Int(3)),
        ("footstep".to_string(), 10.0, t("foot-l")),
        ("blink".to_string(), 12.0, EventPayload::None),
        ("gain".to_string(), 20.0, EventPayload::Float(2.25)),
    ];
    assert_eq!(got, want);
    for e in &a.events {
        assert_eq!(e.time_secs, e.frame / 20.0);
    }
    // The rotation's last key is at 20 (1 s); no event is later.
    assert_eq!(a.duration_secs, 1.0);
}

#[test]
fn an_event_after_the_last_key_lengthens_the_animation() {
    let a =
        anim("skeleton\n\tb\nanim \"a\" 10fps\n\tb\n\t\tx 0 -> 1\n\t!end\n\t\te ! 30:> !\n", "a");
    // x ends at frame 5; the event at 30 (3 s at 10 fps).
    assert_eq!(a.duration_secs, 3.0);
    assert_eq!(a.events.len(), 2);
}

#[test]
fn sections_of_one_animation_merge_their_events() {
    let text =
        "skeleton\n\tb\nanim \"a\"\n\t!hit\n\t\te ! 10:> !\nanim \"a\"\n\t!hit 5:\n\t\te !\n";
    let a = anim(text, "a");
    let frames: Vec<f64> = a.events.iter().map(|e| e.frame).collect();
    assert_eq!(frames, [0.0, 5.0, 10.0]);
}

#[test]
fn event_mistakes_are_reported_where_they_are() {
    let text = "skeleton\n\tb\nanim \"a\"\n\t!e\n\t\ti 1.5 2\n\t\tq 1\n\t\ts foo\n\t\tf 1 -> 2\n\t\tf 3\n\t!big\n\t\ti 2000000000 -> *2\n";
    let m = messages(text);
    assert!(m.iter().any(|x| x.contains("unexpected `1.5` in event line")), "{m:?}");
    assert!(m.iter().any(|x| x.contains("`q` is not an event payload kind")), "{m:?}");
    assert!(m.iter().any(|x| x.contains("unexpected `foo` in event line")), "{m:?}");
    // `f 3` fires `e` at frame 0 again, where `i … 2` already did.
    assert!(m.iter().any(|x| x.contains("event `e` already fires at frame 0")), "{m:?}");
    // 2000000000 × 2 overflows a 32-bit payload.
    assert!(m.iter().any(|x| x.contains("not a 32-bit whole number")), "{m:?}");
    let a = anim(text, "a");
    let e: Vec<(&str, f64)> = a.events.iter().map(|e| (e.name.as_str(), e.frame)).collect();
    // e: `i 2` at 0 (1.5 is dropped), `f 1 -> 2` adds 5; big: only frame 0.
    assert_eq!(e, [("e", 0.0), ("big", 0.0), ("e", 5.0)]);
}

#[test]
fn event_loops_are_bounded() {
    let text = "skeleton\n\tb\nanim \"a\" 1fps 0:0.001\n\t!tick\n\t\te { ! -> }[1000000000]\n";
    let comp = compile(text);
    assert!(
        comp.diagnostics.iter().any(|d| d.message.contains("push too many keys")),
        "{:?}",
        comp.diagnostics
    );
    let a = &comp.armature.animations[0];
    assert!(a.events.len() <= 100_001, "{}", a.events.len());
}

#[test]
fn pose_json_lists_each_animations_events() {
    let dir = std::env::temp_dir().join(format!("skelpad-events-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("walk.skel2d");
    std::fs::write(&file, WALK).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args(["pose", "--json", file.to_str().unwrap()])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let events = &v["animations"][0]["events"];
    assert_eq!(events.as_array().unwrap().len(), 9);
    assert_eq!(
        events[0],
        serde_json::json!({"name": "footstep", "frame": 0.0, "time": 0.0, "string": "foot-r"})
    );
    assert_eq!(
        events[4],
        serde_json::json!({"name": "count", "frame": 4.0, "time": 0.2, "int": 2})
    );
    assert_eq!(events[3], serde_json::json!({"name": "blink", "frame": 3.0, "time": 0.15}));
    assert_eq!(
        events[8],
        serde_json::json!({"name": "gain", "frame": 20.0, "time": 1.0, "float": 2.25})
    );
}

#[test]
fn expect_checks_that_an_event_fires_and_that_it_does_not() {
    use skelpad::check::expect::compile_checked;
    let base = "skeleton\n\tb\nanim \"a\" 10fps 0:5\n\tb\n\t\tx 0 --> 1\n\t!hit\n\t\ti 7 -> 8\n";
    // hit: 7 at frame 0, 8 at frame 5.
    let good =
        format!("{base}expect \"a\" 5\n\t!hit\n\t!hit 8\n\t!hit never 1 4\n\t!hit never 6 10\n");
    let comp = compile_checked(&good);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    assert_eq!(comp.expectations.len(), 4);
    assert!(comp.expectations.iter().all(|e| e.passed() && e.event.as_deref() == Some("hit")));

    let bad = format!(
        "{base}expect \"a\" 4\n\t!hit\nexpect \"a\" 5\n\t!hit 7\n\t!hit never 0 4\n\t!miss\nexpect\n\t!hit\n"
    );
    let comp = compile_checked(&bad);
    let m: Vec<&str> = comp.diagnostics.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        m,
        [
            "expected event `hit` to fire at frame 4; it fires at frames: 0, 5",
            "expected event `hit` at frame 5 to carry 7, it carries 8",
            "expected event `hit` not to fire from frame 0 to 4; it fires at frame 0",
            "animation \"a\" fires no event `miss`",
            "an event expectation needs an animation",
        ]
    );
    assert_eq!(comp.expectations.len(), 5);
    assert!(comp.expectations.iter().all(|e| !e.passed()));
}

/// `(name, time)` of every event of `v`'s animation `anim`, sorted.
fn event_keys(v: &serde_json::Value, anim: &str) -> Vec<(String, f64)> {
    let a = v["animations"].as_array().unwrap().iter().find(|a| a["name"] == anim).unwrap();
    let mut out: Vec<(String, f64)> = a["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            assert!(
                e.get("int").is_none() && e.get("float").is_none() && e.get("string").is_none()
            );
            (e["name"].as_str().unwrap().to_string(), e["time"].as_f64().unwrap())
        })
        .collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    out
}

fn pose(path: &std::path::Path) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args(["pose", "--json", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The eventline keys of `tests/fixtures/spriter/events.scml` and `.scon`
/// (the same file in both syntaxes), copied from the files by hand:
/// `skelpad pose --json` of the file and of the script `skelpad convert`
/// writes from it list exactly these, in time order.
#[test]
fn spriter_eventlines_become_events_and_survive_convert() {
    let file_keys = |space: &str| {
        let mut v: Vec<(String, f64)> = vec![
            ("land".to_string(), 0.333),
            ("land".to_string(), 0.75),
            ("step".to_string(), 0.0),
            ("step".to_string(), 0.333),
            ("step".to_string(), 1.0),
            (format!("hit{space}sound"), 0.5),
        ];
        v.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        v
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spriter");
    let dir = tempfile::tempdir().unwrap();
    for ext in ["scml", "scon"] {
        let src = root.join(format!("events.{ext}"));
        let imported = pose(&src);
        assert_eq!(event_keys(&imported, "run"), file_keys(" "), "{ext}: import");
        assert!(event_keys(&imported, "still").is_empty());
        let script = dir.path().join(format!("events-{ext}.skel2d"));
        let out = Command::new(env!("CARGO_BIN_EXE_skelpad"))
            .args(["convert", src.to_str().unwrap(), "-o", script.to_str().unwrap()])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("event \"hit sound\" is called \"hit_sound\""), "{err}");
        assert!(!err.contains("event key(s)"), "{err}");
        let text = std::fs::read_to_string(&script).unwrap();
        assert!(text.contains("\t!step\n"), "{text}");
        let converted = pose(&script);
        let got = event_keys(&converted, "run");
        let want = file_keys("_");
        assert_eq!(got.len(), want.len(), "{ext}: {got:?}");
        for (g, w) in got.iter().zip(&want) {
            assert_eq!(g.0, w.0, "{ext}");
            // frame / fps gives the millisecond time back to a double's
            // last bits.
            assert!((g.1 - w.1).abs() < 1e-12, "{ext}: {g:?} vs {w:?}");
        }
        // In time order in the JSON itself.
        let times: Vec<f64> = converted["animations"][0]["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["time"].as_f64().unwrap())
            .collect();
        assert!(times.is_sorted(), "{times:?}");
    }
}

#[test]
fn skf_export_warns_once_naming_the_events_it_leaves_out() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("w.skel2d");
    let text = format!("{WALK}anim \"other\"\n\tleg\n\t\tr 0 -> 5\n\t!ping\n\t\te ! -> !\n");
    std::fs::write(&src, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_skelpad"))
        .args(["export", src.to_str().unwrap(), "-o", dir.path().join("w.skf").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let err = String::from_utf8_lossy(&out.stderr);
    // walk: 9 keys of 4 events; other: 2 keys of one.
    let want = "warning: events: SkelForm files have no events; 11 event key(s) are left out: \"walk\" (`blink`, `count`, `footstep`, `gain`); \"other\" (`ping`)";
    assert_eq!(err.matches("SkelForm files have no events").count(), 1, "{err}");
    assert!(err.contains(want), "{err}");
}
