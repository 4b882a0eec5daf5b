//! Godot scene export, played by Godot itself.
//!
//! - Godot 3 (`godot3-server`, Debian's headless build): every `--godot 3`
//!   export of the examples, the test rigs (`tests/godot_rigs/events.skel2d`:
//!   every payload kind; `names.scml`), the Spriter rig, the Spriter and
//!   SkelForm samples and a copy of one with bone names Godot refuses
//!   (`odd_names`) is loaded in the headless project `tests/godot/`; its
//!   `probe.gd` seeks every frame, every half frame and each loop's end of
//!   every animation and writes each `skelpad_bone` node's
//!   `global_transform`, which must equal `skelpad pose --json` after the
//!   scene's map (a point `(x, y)` is `(x, −y)`, a bone's own y axis turned
//!   down too): at whole frames origin within 0.01 units, each axis's
//!   direction within 1e-3 rad and length within 1e-3 (relative); between
//!   frames the Lottie between-frames rule (`check_times`). Played frame by
//!   frame, every event arrives at its time with its payload.
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
pub(super) fn godot3() -> Option<PathBuf> {
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
    // Names Godot refuses (the Spriter import makes them `_`), two siblings
    // whose names meet, and a missing picture.
    out.push(manifest().join("tests/godot_rigs/names.scml"));
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
        if sub == "skelform" && !found.is_empty() {
            out.push(odd_names(&found[0]));
        }
        out.extend(found);
    }
    out
}

/// A copy of a SkelForm sample (in a temporary folder) whose bones `Right
/// Hand` and `Looker` are named `R.Hand:x@y/z"w%` and `Look.er`: names with
/// every character Godot refuses in a node's name (the sample itself is
/// not changed or copied into the repository).
fn odd_names(sample: &Path) -> PathBuf {
    use std::io::{Read, Write};
    // One folder per call: the tests list their inputs at the same time.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = temp(&format!("odd-names-{n}"));
    let mut zin = zip::ZipArchive::new(std::fs::File::open(sample).unwrap()).unwrap();
    let path = dir.join("odd_names.skf");
    let mut zout = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    for i in 0..zin.len() {
        let mut f = zin.by_index(i).unwrap();
        let name = f.name().unwrap().to_string();
        let mut data = Vec::new();
        f.read_to_end(&mut data).unwrap();
        if name == "armature.json" {
            let mut doc: serde_json::Value = serde_json::from_slice(&data).unwrap();
            for b in doc["bones"].as_array_mut().unwrap() {
                let new = match b["name"].as_str() {
                    Some("Right Hand") => "R.Hand:x@y/z\"w%",
                    Some("Looker") => "Look.er",
                    _ => continue,
                };
                b["name"] = new.into();
            }
            data = serde_json::to_vec(&doc).unwrap();
        }
        zout.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        zout.write_all(&data).unwrap();
    }
    zout.finish().unwrap();
    path
}

/// A frame's looks as skelpad says: slot colours, the attachments drawn.
type WantLooks = (HashMap<String, [f64; 4]>, Vec<String>);
/// A frame's looks as Godot plays them: slot → (z_index, modulate), the
/// attachments shown with their slot's z_index.
type GotLooks = (HashMap<String, (i64, [f64; 4])>, Vec<(String, i64)>);

/// A time Godot is asked for: its seconds, and for a time between two
/// whole frames, the places (in the list) of the whole times around it.
#[derive(Clone, Copy, Debug)]
struct At {
    secs: f64,
    between: Option<(usize, usize)>,
    /// [`SEAM_GAP`] of a frame before the end.
    seam: bool,
}

/// Every whole and half frame of an animation of `frames` frames at `fps`,
/// then its loop seam: its end (the closing pose, which a looping animation
/// shares with its start) and [`SEAM_GAP`] of a frame before it.
fn probe_times(fps: f64, duration: f64, frames: usize) -> Vec<At> {
    let end = duration.max(0.0);
    let whole = |secs: f64| At { secs, between: None, seam: false };
    let half = |secs: f64| At { secs, between: Some((0, 0)), seam: false };
    let mut out = Vec::new();
    for k in 0..frames {
        let t = k as f64 / fps;
        out.push(whole(t));
        let next = if k + 1 < frames { (k + 1) as f64 / fps } else { end };
        let h = (k as f64 + 0.5) / fps;
        if h < next - 1e-9 {
            out.push(half(h));
        }
        if k + 1 == frames && end > t + 1e-9 {
            if end - SEAM_GAP / fps > t + 1e-9 {
                out.push(At { seam: true, ..half(end - SEAM_GAP / fps) });
            }
            out.push(whole(end));
        }
    }
    // Each time between frames: the whole times before and after it.
    for i in 0..out.len() {
        if out[i].between.is_some() {
            let before = (0..i).rev().find(|&j| out[j].between.is_none()).unwrap();
            let after = (i + 1..out.len()).find(|&j| out[j].between.is_none()).unwrap();
            out[i].between = Some((before, after));
        }
    }
    out
}

/// One animation to play: its name, rate, frames, and what skelpad says.
struct Anim {
    name: String,
    fps: f64,
    frames: usize,
    /// The times Godot is asked for.
    at: Vec<At>,
    /// Per time, per bone name: skelpad's world matrix.
    worlds: Vec<HashMap<String, [f64; 6]>>,
    /// Per time: each slot's colour, and the attachments drawn, back to front.
    looks: Vec<WantLooks>,
    events: Vec<serde_json::Value>,
}

pub(super) fn pose_json(path: &Path, extra: &[&str]) -> serde_json::Value {
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

pub(super) fn numbers(v: &serde_json::Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()
}

/// A pose's looks as `skelpad pose --draw` says.
fn want_looks(p: &serde_json::Value) -> WantLooks {
    let colors = p["slots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let c = numbers(&s["color"]);
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
}

fn animations(path: &Path) -> Vec<Anim> {
    let doc = pose_json(path, &[]);
    let mut out = Vec::new();
    for a in doc["animations"].as_array().unwrap() {
        let name = a["name"].as_str().unwrap().to_string();
        let fps = a["fps"].as_f64().unwrap();
        let duration = a["duration"].as_f64().unwrap();
        let frames = ((duration * fps - 1e-9).ceil() as usize).max(1);
        let at = probe_times(fps, duration, frames);
        let times: Vec<String> = at.iter().map(|t| format!("{}", t.secs)).collect();
        let posed = pose_json(path, &["--draw", "--anim", &name, "--times", &times.join(",")]);
        let poses = posed["animations"][0]["poses"].as_array().unwrap();
        let looks = poses.iter().map(want_looks).collect();
        let worlds = poses
            .iter()
            .map(|p| {
                p["bones"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| {
                        let w = numbers(&b["world"]);
                        (
                            b["name"].as_str().unwrap().to_string(),
                            [w[0], w[1], w[2], w[3], w[4], w[5]],
                        )
                    })
                    .collect()
            })
            .collect();
        let events = a["events"].as_array().cloned().unwrap_or_default();
        out.push(Anim { name, fps, frames, at, worlds, looks, events });
    }
    out
}

pub(super) fn export(path: &Path, out: &Path, version: &str) {
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
    /// Between frames: the largest difference of a matrix number (units).
    half: f64,
    /// Between frames: the largest share of the allowed difference.
    share: f64,
}

impl Worst {
    fn max(self, o: Worst) -> Worst {
        Worst {
            pos: self.pos.max(o.pos),
            angle: self.angle.max(o.angle),
            length: self.length.max(o.length),
            half: self.half.max(o.half),
            share: self.share.max(o.share),
        }
    }
}

/// Marks a miss just before an animation's end.
pub const SEAM: &str = "[seam] ";

/// How far before an animation's end (in frames) the players are asked
/// for the pose a loop reaches just before it starts again: a twentieth of
/// a frame (the glTF export's jumps take the fiftieth of a frame before
/// their frame, `formats::gltf::keys::EARLY`).
pub const SEAM_GAP: f64 = 0.05;

/// Largest error between frames beyond the bone's share of movement (the
/// Lottie between-frames rule, `tests/suite/lottie_between.rs`).
const HALF: f64 = 0.01;
/// The share of a bone's own movement over the frame a time between may miss.
const MOVE_SHARE: f64 = 0.3;

/// skelpad's world matrix (y up) in the scene: V·W·C with V = C = diag(1, −1).
fn in_scene(w: [f64; 6]) -> [f64; 6] {
    [w[0], -w[1], -w[2], w[3], w[4], -w[5]]
}

/// The largest difference of two matrices' numbers.
fn apart(a: [f64; 6], b: [f64; 6]) -> f64 {
    a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max)
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
/// order of their slots' `z_index` = skelpad's draw list. Between frames
/// (`around`: skelpad's looks at the whole frames before and after) a
/// colour may miss by 1e-3 plus 0.3 of its change over the frame; what is
/// shown, and in which order, must be skelpad's exactly (a switch is whole).
fn check_looks(
    (path, anim, at): (&Path, &str, f64),
    want: &WantLooks,
    got: &GotLooks,
    around: Option<(&WantLooks, &WantLooks)>,
    misses: &mut Vec<String>,
) -> usize {
    for (slot, c) in &want.0 {
        let (_, g) =
            got.0.get(slot).unwrap_or_else(|| panic!("{}: slot `{slot}` missing", path.display()));
        let ok = c.iter().zip(g).enumerate().all(|(i, (a, b))| {
            let limit = around
                .map_or(1e-5, |(x, y)| 1e-3 + MOVE_SHARE * (x.0[slot][i] - y.0[slot][i]).abs());
            (a - b).abs() <= limit
        });
        if !ok {
            misses.push(format!(
                "{}: `{anim}` at {at} s slot `{slot}`: colour {c:?}, Godot {g:?}",
                path.display()
            ));
        }
    }
    let mut shown = got.1.clone();
    shown.sort_by_key(|(_, z)| *z);
    let shown: Vec<&String> = shown.iter().map(|(n, _)| n).collect();
    let drawn: Vec<&String> = want.1.iter().collect();
    // Between frames a switch skelpad makes between the two frames (at a
    // time of its own, as Spriter keys may) is whole: Godot shows either
    // frame's attachments, never a mix.
    let whole = |w: &WantLooks| w.1.iter().collect::<Vec<_>>() == shown;
    if drawn != shown && !around.is_some_and(|(x, y)| whole(x) || whole(y)) {
        misses.push(format!(
            "{}: `{anim}` at {at} s: drawn back to front {drawn:?}, Godot {shown:?}",
            path.display()
        ));
    }
    drawn.len()
}

/// Compares what Godot showed at every time of `a` with skelpad: at whole
/// frames (and the seam) each bone's origin within 0.01 units and its axes
/// within 1e-3 (rad, relative length); between frames each matrix number
/// within [`HALF`] plus [`MOVE_SHARE`] of the bone's own movement over that
/// frame. Returns the worst errors and how many attachments were shown.
fn check_times(path: &Path, a: &Anim, got: &Played, misses: &mut Vec<String>) -> (Worst, usize) {
    assert_eq!(got.frames.len(), a.at.len(), "{}: `{}`", path.display(), a.name);
    let mut worst = Worst::default();
    let mut shown = 0;
    for (i, (want, have)) in a.worlds.iter().zip(&got.frames).enumerate() {
        let at = a.at[i];
        let seam = if at.seam { SEAM } else { "" };
        let what = format!("{seam}{}: `{}` at {} s", path.display(), a.name, at.secs);
        assert_eq!(want.len(), have.len(), "{what}: bones");
        for (bone, w) in want {
            let g = have.get(bone).unwrap_or_else(|| panic!("{what}: bone `{bone}` missing"));
            if let Some((before, after)) = at.between {
                let e = apart(in_scene(*w), *g);
                let moved =
                    apart(in_scene(a.worlds[before][bone]), in_scene(a.worlds[after][bone]));
                let limit = HALF + MOVE_SHARE * moved;
                if e > limit {
                    misses.push(format!(
                        "{what} (between frames) bone `{bone}`: skelpad {:?}, Godot {g:?}: off by {e:.4} (allowed {limit:.4}: it moves {moved:.4} over the frame)",
                        in_scene(*w)
                    ));
                }
                if !at.seam {
                    worst.half = worst.half.max(e);
                    worst.share = worst.share.max(e / limit);
                }
                continue;
            }
            let mut one = Worst::default();
            compare(*w, *g, &mut one);
            if !(one.pos <= 0.01 && one.angle <= 1e-3 && one.length <= 1e-3) {
                misses.push(format!("{what} bone `{bone}`: skelpad {w:?}, Godot {g:?}"));
            }
            worst = worst.max(one);
        }
        let around = at.between.map(|(x, y)| (&a.looks[x], &a.looks[y]));
        shown += check_looks((path, &a.name, at.secs), &a.looks[i], &got.looks[i], around, misses);
    }
    (worst, shown)
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

pub(super) fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skelpad-godot-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs godot3-server on the project, `tries` times at most while it
/// crashes (its 3.2.3 editor now and then crashes on quitting after an
/// import; the import is done by then and a second run finds nothing to do).
pub(super) fn run_godot(godot: &Path, project: &Path, args: &[&str], tries: usize) -> String {
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
            let times: Vec<String> = a.at.iter().map(|t| format!("{}", t.secs)).collect();
            plan.push_str(&format!(
                "res://{rel}\t{}\t{}\t{}\t{}\n",
                a.name,
                a.fps,
                a.frames,
                times.join(",")
            ));
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
    let (mut frames, mut halves, mut events, mut shown) = (0usize, 0usize, 0usize, 0usize);
    let mut misses = Vec::new();
    for (path, rel, anims) in &cases {
        let mut worst = Worst::default();
        for a in anims {
            let key = (format!("res://{rel}"), a.name.clone());
            let got = played
                .get(&key)
                .unwrap_or_else(|| panic!("{}: `{}` not played: {log}", path.display(), a.name));
            assert!(got.error.is_none(), "{}: `{}`: {:?}", path.display(), a.name, got.error);
            let (w, n) = check_times(path, a, got, &mut misses);
            worst = worst.max(w);
            frames += a.at.iter().filter(|t| t.between.is_none()).count();
            halves += a.at.iter().filter(|t| t.between.is_some()).count();
            shown += n;
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
            "{}: origin {:.1e}, angle {:.1e}, length {:.1e}; between frames {:.1e} ({:.0}% of the limit)",
            path.file_name().unwrap().to_string_lossy(),
            worst.pos,
            worst.angle,
            worst.length,
            worst.half,
            100.0 * worst.share
        ));
        all = all.max(worst);
    }
    eprintln!(
        "godot3-server played {} files, {frames} whole frames, {halves} times between frames, {shown} attachments shown in order, {events} events; worst at whole frames: origin {:.2e} units, axis {:.2e} rad, length {:.2e}; between frames: {:.2e} units ({:.0}% of the limit)\n  {}",
        cases.len(),
        all.pos,
        all.angle,
        all.length,
        all.half,
        100.0 * all.share,
        report.join("\n  ")
    );
    assert!(
        misses.is_empty(),
        "Godot misses skelpad {} time(s):\n  {}",
        misses.len(),
        misses.iter().take(40).cloned().collect::<Vec<_>>().join("\n  ")
    );
    assert!(
        frames > 500 && halves > 500 && events > 0 && shown > 1000,
        "{frames} frames, {halves} between, {shown} shown, {events} events"
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
