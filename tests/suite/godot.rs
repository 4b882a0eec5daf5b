//! Godot scene export, played by Godot itself.
//!
//! - Godot 3 (`godot3-server`, Debian's headless build): every `--godot 3`
//!   export of the examples, the test rigs (`tests/godot_rigs/events.skel2d`:
//!   every payload kind), the Spriter rig and the Spriter
//!   and SkelForm samples is loaded in the headless project `tests/godot/`;
//!   its `probe.gd` seeks every frame of every animation and writes each
//!   `skelpad_bone` node's `global_transform`, which must equal `skelpad pose
//!   --json` after the scene's map (a point `(x, y)` is `(x, −y)`, a bone's
//!   own y axis turned down too): origin within 0.01 units, each axis's
//!   direction within 1e-3 rad and length within 1e-3 (relative). Played
//!   frame by frame, every event arrives at its time with its payload.
//!   `SKELPAD_REQUIRE_GODOT=1` (set by `.ci/run`) makes a missing
//!   godot3-server a failure instead of a skip.
//! - Godot 4 cannot be run here (no registry ships it): every `--godot 4`
//!   export is read by `godot-parser` (PyPI) in `tests/godot/twins.py`,
//!   which checks that its nodes, tracks and keys equal the Godot 3 twin's
//!   through the table of `docs/godot.md` and that every track's path
//!   resolves to a node.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{manifest, s, skelpad};

fn required() -> bool {
    std::env::var("SKELPAD_REQUIRE_GODOT").as_deref() == Ok("1")
}

/// `godot3-server` (`SKELPAD_GODOT3` overrides), or `None` after saying why
/// (a failure under `SKELPAD_REQUIRE_GODOT=1`).
fn godot3() -> Option<PathBuf> {
    let exe =
        std::env::var_os("SKELPAD_GODOT3").map_or_else(|| "godot3-server".into(), PathBuf::from);
    // `--version` prints the version and exits with 255.
    let ok = Command::new(&exe)
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).starts_with("3."));
    if ok {
        return Some(exe);
    }
    assert!(
        !required(),
        "SKELPAD_REQUIRE_GODOT=1 but `{}` does not run (.ci/run installs godot3-server)",
        exe.display()
    );
    eprintln!("godot: skipped: `{}` not found (apt-get install godot3-server)", exe.display());
    None
}

/// Every file the tests export: examples, test rigs, the Spriter rig and
/// the Spriter and SkelForm samples.
fn inputs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in ["examples", "tests/skf_rigs", "tests/lottie_rigs", "tests/godot_rigs"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(manifest().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "skel2d"))
            .collect();
        files.sort();
        out.extend(files);
    }
    out.push(manifest().join("tests/fixtures/spriter/rig.scml"));
    for sub in ["skelform", "spriter"] {
        let Some(dir) = crate::common::samples_dir("godot", sub) else { continue };
        let mut stack = vec![dir];
        let mut found = Vec::new();
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                let ext = p.extension().and_then(|x| x.to_str()).unwrap_or("");
                if p.is_dir() {
                    stack.push(p);
                } else if ["skf", "scml", "scon"].contains(&ext) {
                    found.push(p);
                }
            }
        }
        found.sort();
        out.extend(found);
    }
    out
}

/// A frame's looks as skelpad says: slot colours, the attachments drawn.
type WantLooks = (HashMap<String, [f64; 4]>, Vec<String>);
/// A frame's looks as Godot plays them: slot → (z_index, modulate), the
/// attachments shown with their slot's z_index.
type GotLooks = (HashMap<String, (i64, [f64; 4])>, Vec<(String, i64)>);

/// One animation to play: its name, rate, frames, and what skelpad says.
struct Anim {
    name: String,
    fps: f64,
    frames: usize,
    /// Per frame, per bone name: skelpad's world matrix.
    worlds: Vec<HashMap<String, [f64; 6]>>,
    /// Per frame: each slot's colour, and the attachments drawn, back to front.
    looks: Vec<WantLooks>,
    events: Vec<serde_json::Value>,
}

fn pose_json(path: &Path, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["pose", "--json"];
    args.extend_from_slice(extra);
    args.push(s(path));
    let out = skelpad(&args);
    assert!(
        out.status.success(),
        "pose {}: {}",
        path.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn animations(path: &Path) -> Vec<Anim> {
    let doc = pose_json(path, &[]);
    let mut out = Vec::new();
    for a in doc["animations"].as_array().unwrap() {
        let name = a["name"].as_str().unwrap().to_string();
        let fps = a["fps"].as_f64().unwrap();
        let duration = a["duration"].as_f64().unwrap();
        let frames = ((duration * fps - 1e-9).ceil() as usize).max(1);
        let times: Vec<String> = (0..frames).map(|k| format!("{}", k as f64 / fps)).collect();
        let at = pose_json(path, &["--draw", "--anim", &name, "--times", &times.join(",")]);
        let looks = at["animations"][0]["poses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                let colors = p["slots"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| {
                        let c: Vec<f64> = s["color"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.as_f64().unwrap())
                            .collect();
                        (s["name"].as_str().unwrap().to_string(), [c[0], c[1], c[2], c[3]])
                    })
                    .collect();
                let drawn = p["draw"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|d| d["attachment"].as_str().unwrap().to_string())
                    .collect();
                (colors, drawn)
            })
            .collect();
        let worlds = at["animations"][0]["poses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                p["bones"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| {
                        let w: Vec<f64> = b["world"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|v| v.as_f64().unwrap())
                            .collect();
                        (
                            b["name"].as_str().unwrap().to_string(),
                            [w[0], w[1], w[2], w[3], w[4], w[5]],
                        )
                    })
                    .collect()
            })
            .collect();
        let events = a["events"].as_array().cloned().unwrap_or_default();
        out.push(Anim { name, fps, frames, worlds, looks, events });
    }
    out
}

fn export(path: &Path, out: &Path, version: &str) {
    let o = skelpad(&["export", s(path), "-o", s(out), "--godot", version]);
    assert!(
        o.status.success(),
        "export {} --godot {version}: {}",
        path.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// What the probe wrote, per scene and animation: frames (bone → matrix)
/// and events (position, name, payload).
#[derive(Default)]
struct Played {
    frames: Vec<HashMap<String, [f64; 6]>>,
    /// Per frame: slot → (z_index, modulate); shown attachments with their z.
    looks: Vec<GotLooks>,
    /// The frame it was called in (from, to), name, payload.
    events: Vec<((f64, f64), String, String)>,
    error: Option<String>,
}

fn read_probe(text: &str) -> HashMap<(String, String), Played> {
    let mut out: HashMap<(String, String), Played> = HashMap::new();
    let (mut scene, mut anim) = (String::new(), String::new());
    for line in text.lines() {
        let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
        match head {
            "scene" => scene = rest.to_string(),
            "anim" => {
                anim = rest.to_string();
                out.entry((scene.clone(), anim.clone())).or_default();
            }
            "error" => {
                out.entry((scene.clone(), anim.clone())).or_default().error = Some(rest.into())
            }
            "f" => {
                let played = out.get_mut(&(scene.clone(), anim.clone())).unwrap();
                played.frames.push(HashMap::new());
                played.looks.push(Default::default());
            }
            "s" => {
                let p: Vec<&str> = rest.split(' ').collect();
                let n = p.len();
                let v: Vec<f64> = p[n - 4..].iter().map(|v| v.parse().unwrap()).collect();
                let z: i64 = p[n - 5].parse().unwrap();
                let played = out.get_mut(&(scene.clone(), anim.clone())).unwrap();
                played
                    .looks
                    .last_mut()
                    .unwrap()
                    .0
                    .insert(p[..n - 5].join(" "), (z, [v[0], v[1], v[2], v[3]]));
            }
            "v" => {
                let (name, z) = rest.rsplit_once(' ').unwrap();
                let played = out.get_mut(&(scene.clone(), anim.clone())).unwrap();
                played.looks.last_mut().unwrap().1.push((name.to_string(), z.parse().unwrap()));
            }
            "b" => {
                let p: Vec<&str> = rest.split(' ').collect();
                let n = p.len();
                let m: Vec<f64> = p[n - 6..].iter().map(|v| v.parse().unwrap()).collect();
                let name = p[..n - 6].join(" ");
                let played = out.get_mut(&(scene.clone(), anim.clone())).unwrap();
                played
                    .frames
                    .last_mut()
                    .unwrap()
                    .insert(name, [m[0], m[1], m[2], m[3], m[4], m[5]]);
            }
            "e" => {
                let mut p = rest.splitn(4, ' ');
                let from: f64 = p.next().unwrap().parse().unwrap();
                let to: f64 = p.next().unwrap().parse().unwrap();
                let t = (from, to);
                let name = p.next().unwrap_or("").to_string();
                let payload = p.next().unwrap_or("").to_string();
                out.get_mut(&(scene.clone(), anim.clone()))
                    .unwrap()
                    .events
                    .push((t, name, payload));
            }
            _ => {}
        }
    }
    out
}

/// Worst differences: origin (units), axis direction (rad), axis length (relative).
#[derive(Default, Clone, Copy)]
struct Worst {
    pos: f64,
    angle: f64,
    length: f64,
}

fn compare(want: [f64; 6], got: [f64; 6], w: &mut Worst) {
    // skelpad's world (y up) in the scene: V·W·C with V = C = diag(1, −1).
    let x = [want[0], -want[1]];
    let y = [-want[2], want[3]];
    let o = [want[4], -want[5]];
    let pos = (got[4] - o[0]).hypot(got[5] - o[1]);
    w.pos = w.pos.max(pos);
    for (a, g) in [(x, [got[0], got[1]]), (y, [got[2], got[3]])] {
        let (la, lg) = (a[0].hypot(a[1]), g[0].hypot(g[1]));
        w.length = w.length.max((la - lg).abs() / la.max(1.0));
        if la > 1e-3 && lg > 1e-3 {
            let d = (a[0] * g[1] - a[1] * g[0]).atan2(a[0] * g[0] + a[1] * g[1]).abs();
            w.angle = w.angle.max(d);
        }
    }
}

/// Slot colours as `modulate`, and the attachments shown (`visible`) in the
/// order of their slots' `z_index` = skelpad's draw list.
fn check_looks(path: &Path, anim: &str, f: usize, want: &WantLooks, got: &GotLooks) -> usize {
    for (slot, c) in &want.0 {
        let (_, g) =
            got.0.get(slot).unwrap_or_else(|| panic!("{}: slot `{slot}` missing", path.display()));
        let ok = c.iter().zip(g).all(|(a, b)| (a - b).abs() < 1e-5);
        assert!(
            ok,
            "{}: `{anim}` frame {f} slot `{slot}`: colour {c:?}, Godot {g:?}",
            path.display()
        );
    }
    let mut shown = got.1.clone();
    shown.sort_by_key(|(_, z)| *z);
    let shown: Vec<&String> = shown.iter().map(|(n, _)| n).collect();
    let drawn: Vec<&String> = want.1.iter().collect();
    assert_eq!(drawn, shown, "{}: `{anim}` frame {f}: drawn back to front", path.display());
    drawn.len()
}

fn payload_json(e: &serde_json::Value) -> String {
    if let Some(i) = e.get("int") {
        return i.to_string();
    }
    if let Some(f) = e.get("float") {
        return f.to_string();
    }
    if let Some(t) = e.get("string") {
        return t.to_string();
    }
    "\"\"".into()
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skelpad-godot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs godot3-server on the project, `tries` times at most while it
/// crashes (its 3.2.3 editor now and then crashes on quitting after an
/// import; the import is done by then and a second run finds nothing to do).
fn run_godot(godot: &Path, project: &Path, args: &[&str], tries: usize) -> String {
    let mut text = String::new();
    for _ in 0..tries {
        let out = Command::new(godot)
            .arg("--path")
            .arg(project)
            .args(args)
            .output()
            .expect("run godot3-server");
        text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if out.status.success() {
            return text;
        }
    }
    panic!("godot3-server {args:?}: {text}");
}

#[test]
fn godot3_plays_every_export_as_skelpad_poses_it() {
    let Some(godot) = godot3() else { return };
    let project = temp("project");
    for f in ["project.godot", "probe.tscn", "probe.gd"] {
        std::fs::copy(manifest().join("tests/godot").join(f), project.join(f)).unwrap();
    }
    let mut plan = String::new();
    let mut cases = Vec::new();
    for (i, path) in inputs().into_iter().enumerate() {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let rel = format!("s{i}/{stem}.tscn");
        export(&path, &project.join(&rel), "3");
        let anims = animations(&path);
        for a in &anims {
            plan.push_str(&format!("res://{rel}\t{}\t{}\t{}\n", a.name, a.fps, a.frames));
        }
        cases.push((path, rel, anims));
    }
    std::fs::write(project.join("plan.txt"), plan).unwrap();
    // The editor imports the pictures (`.import/`), then the probe runs.
    run_godot(&godot, &project, &["-e", "--quit"], 3);
    let log = run_godot(&godot, &project, &[], 1);
    assert!(log.contains("PROBE done"), "{log}");
    let played = read_probe(&std::fs::read_to_string(project.join("out.txt")).unwrap());
    let mut report = Vec::new();
    let mut all = Worst::default();
    let (mut frames, mut events, mut shown) = (0usize, 0usize, 0usize);
    for (path, rel, anims) in &cases {
        let mut worst = Worst::default();
        for a in anims {
            let key = (format!("res://{rel}"), a.name.clone());
            let got = played
                .get(&key)
                .unwrap_or_else(|| panic!("{}: `{}` not played: {log}", path.display(), a.name));
            assert!(got.error.is_none(), "{}: `{}`: {:?}", path.display(), a.name, got.error);
            assert_eq!(got.frames.len(), a.frames, "{}: `{}`", path.display(), a.name);
            for (f, (want, have)) in a.worlds.iter().zip(&got.frames).enumerate() {
                assert_eq!(
                    want.len(),
                    have.len(),
                    "{}: `{}` frame {f}: bones",
                    path.display(),
                    a.name
                );
                for (bone, w) in want {
                    let g = have
                        .get(bone)
                        .unwrap_or_else(|| panic!("{}: bone `{bone}` missing", path.display()));
                    let mut one = Worst::default();
                    compare(*w, *g, &mut one);
                    assert!(
                        one.pos <= 0.01 && one.angle <= 1e-3 && one.length <= 1e-3,
                        "{}: `{}` frame {f} bone `{bone}`: skelpad {w:?}, Godot {g:?}",
                        path.display(),
                        a.name
                    );
                    worst = Worst {
                        pos: worst.pos.max(one.pos),
                        angle: worst.angle.max(one.angle),
                        length: worst.length.max(one.length),
                    };
                }
                shown += check_looks(path, &a.name, f, &a.looks[f], &got.looks[f]);
                frames += 1;
            }
            let want: Vec<(f64, String, String)> = a
                .events
                .iter()
                .map(|e| {
                    (
                        e["time"].as_f64().unwrap(),
                        e["name"].as_str().unwrap().to_string(),
                        payload_json(e),
                    )
                })
                .collect();
            assert_eq!(
                want.len(),
                got.events.len(),
                "{}: `{}` events: {:?}",
                path.display(),
                a.name,
                got.events
            );
            for (w, g) in want.iter().zip(&got.events) {
                let ((from, to), t) = (g.0, w.0);
                assert!(
                    from - 1e-4 <= t && t <= to + 1e-4 && w.1 == g.1,
                    "{}: `{}`: event {w:?}, Godot {g:?}",
                    path.display(),
                    a.name
                );
                let (wv, gv): (serde_json::Value, serde_json::Value) =
                    (serde_json::from_str(&w.2).unwrap(), serde_json::from_str(&g.2).unwrap());
                let same = match (wv.as_f64(), gv.as_f64()) {
                    (Some(x), Some(y)) => (x - y).abs() <= 1e-6 * x.abs().max(1.0),
                    _ => wv == gv,
                };
                assert!(same, "{}: `{}`: event payload {w:?}, Godot {g:?}", path.display(), a.name);
                events += 1;
            }
        }
        report.push(format!(
            "{}: origin {:.1e}, angle {:.1e}, length {:.1e}",
            path.file_name().unwrap().to_string_lossy(),
            worst.pos,
            worst.angle,
            worst.length
        ));
        all = Worst {
            pos: all.pos.max(worst.pos),
            angle: all.angle.max(worst.angle),
            length: all.length.max(worst.length),
        };
    }
    eprintln!(
        "godot3-server played {} files, {frames} frames, {shown} attachments shown in order, {events} events; worst origin {:.2e} units, axis {:.2e} rad, length {:.2e}\n  {}",
        cases.len(),
        all.pos,
        all.angle,
        all.length,
        report.join("\n  ")
    );
    assert!(
        frames > 500 && events > 0 && shown > 1000,
        "{frames} frames, {shown} shown, {events} events"
    );
    let _ = std::fs::remove_dir_all(&project);
}

/// A Python with `godot-parser` (`.ci/run` makes one in
/// `$HOME/.cache/skelpad-godot-parser`; `SKELPAD_GODOT_PARSER_PYTHON`
/// overrides), or `None` (a skip, or a failure under
/// `SKELPAD_REQUIRE_GODOT=1`).
fn godot_parser() -> Option<PathBuf> {
    let python = std::env::var_os("SKELPAD_GODOT_PARSER_PYTHON").map_or_else(
        || {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default())
                .join(".cache/skelpad-godot-parser/bin/python")
        },
        PathBuf::from,
    );
    let ok = Command::new(&python)
        .args(["-c", "import godot_parser"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(python);
    }
    assert!(
        !required(),
        "SKELPAD_REQUIRE_GODOT=1 but `{}` has no godot-parser (.ci/run installs it)",
        python.display()
    );
    eprintln!("godot: skipped: no Python with godot-parser at `{}`", python.display());
    None
}

#[test]
fn every_godot4_scene_parses_and_equals_its_godot3_twin_through_the_table() {
    let Some(python) = godot_parser() else { return };
    let dir = temp("twins");
    let script = manifest().join("tests/godot/twins.py");
    let (mut files, mut tracks, mut keys) = (0, 0, 0);
    for (i, path) in inputs().into_iter().enumerate() {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (four, three) =
            (dir.join(format!("4/{i}/{stem}.tscn")), dir.join(format!("3/{i}/{stem}.tscn")));
        export(&path, &four, "4");
        export(&path, &three, "3");
        let out = Command::new(&python).arg(&script).arg(&four).arg(&three).output().unwrap();
        let said = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(
            out.status.success() && said.starts_with("ok "),
            "{}: {said}{}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let n: Vec<usize> = said.split_whitespace().skip(1).map(|v| v.parse().unwrap()).collect();
        files += 1;
        tracks += n[1];
        keys += n[2];
    }
    eprintln!(
        "godot-parser read {files} Godot 4 scenes and their twins: {tracks} tracks, {keys} keys"
    );
    assert!(tracks > 100 && keys > 1000, "{tracks} tracks, {keys} keys");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bad input: an unknown extension is refused with the known ones, a script
/// with errors is refused unless `--allow-errors`, a missing picture is
/// left out with a warning.
#[test]
fn godot_export_refuses_bad_input_and_leaves_missing_pictures_out() {
    let dir = temp("bad");
    let ok = dir.join("ok.skel2d");
    std::fs::write(
        &ok,
        "skeleton\n\tarm l10\n\t\t@ :rect w4 h2\n\t\t@face :sprite \"missing.png\"\n",
    )
    .unwrap();
    let out = skelpad(&["export", s(&ok), "-o", s(&dir.join("ok.unknown"))]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("`.unknown`") && err.contains(".tscn") && err.contains(".skf"), "{err}");
    assert!(!dir.join("ok.unknown").exists());

    let scene = dir.join("ok.tscn");
    let out = skelpad(&["export", s(&ok), "-o", s(&scene)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("missing.png") && err.contains("left out"), "{err}");
    let text = std::fs::read_to_string(&scene).unwrap();
    assert!(
        text.contains("metadata/skelpad_bone = \"arm\"") && !text.contains("Texture2D"),
        "{text}"
    );

    let bad = dir.join("bad.skel2d");
    std::fs::write(&bad, "skeleton\n\tarm l10\n\t\t@ :blob\n").unwrap();
    let out = skelpad(&["export", s(&bad), "-o", s(&dir.join("bad.tscn")), "--godot", "3"]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!dir.join("bad.tscn").exists());
    let out = skelpad(&["export", s(&bad), "-o", s(&dir.join("bad.tscn")), "--allow-errors"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The editor's list of baked bones (`godot::baking`, worked out without
/// building the scene) names the bones and reasons the export reports.
#[test]
fn the_dialogs_baked_bones_are_the_exports() {
    use skelpad::formats::godot::{GodotOptions, baking, export};
    use skelpad::formats::lottie::FilePictures;
    let mut baked = 0;
    for path in inputs().into_iter().filter(|p| p.extension().is_some_and(|e| e == "skel2d")) {
        let text = std::fs::read_to_string(&path).unwrap();
        let arm = skelpad::check::expect::compile_checked(&text).armature;
        let opts = GodotOptions::default();
        let mut pictures = FilePictures(path.parent().unwrap().to_path_buf());
        let scene = export(&arm, &opts, &mut pictures, "x").unwrap();
        assert_eq!(baking(&arm, &opts).unwrap(), scene.baked, "{}", path.display());
        baked += scene.baked.len();
    }
    assert!(baked > 10, "{baked}");
}
