//! glTF export, played by three.js (`tests/gltf/play.mjs`, node) and checked
//! by the Khronos validator (`tests/gltf/validate.mjs`): every example,
//! every test rig, the Spriter samples (`.scml`) and the SkelForm samples.
//!
//! - At every frame of every animation (and the setup pose), every bone
//!   node's world matrix in three.js against skelpad's pose: position within
//!   0.01 units, x axis within 1e-3 rad.
//! - Every skinned mesh, skinned by three.js, against skelpad's own draw
//!   list of that attachment at that frame (tessellated finer, to 0.001):
//!   every corner three.js draws lies within 0.01 of skelpad's triangles and
//!   every corner skelpad draws within 0.01 of three.js's; its `z` is its
//!   place in skelpad's draw order × 0.01; an attachment skelpad does not
//!   show, three.js does not draw.
//! - `gltf-validator` reports no error and no warning for every `.glb` and
//!   `.gltf`.
//!
//! three and gltf-validator come from `$SKELPAD_GLTF_DIR` (default
//! `$HOME/.cache/skelpad-gltf`; `.ci/run` installs them); without them the
//! test skips, unless `SKELPAD_REQUIRE_GLTF=1`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use skelpad::formats::gltf::{
    Container, FilePictures, Gltf, GltfOptions, MemoryPictures, PictureSource, encode, export,
};
use skelpad::model::{Armature, SkinId};
use skelpad::render::{DrawOptions, RenderCache, build_draw_list};
use skelpad::runtime::evaluate;

use crate::common::{self, manifest};
use crate::gltf_between::{At, Clip, check_clip, clip_times};

/// Where three and gltf-validator are, or `None` (skip; a failure under
/// `SKELPAD_REQUIRE_GLTF=1`).
fn tools() -> Option<PathBuf> {
    let dir = std::env::var_os("SKELPAD_GLTF_DIR").map(PathBuf::from).or_else(|| {
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/skelpad-gltf"))
    })?;
    let ok = dir.join("node_modules/three/build/three.module.js").is_file()
        && dir.join("node_modules/gltf-validator").is_dir()
        && Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if ok {
        return Some(dir);
    }
    assert!(
        std::env::var("SKELPAD_REQUIRE_GLTF").as_deref() != Ok("1"),
        "SKELPAD_REQUIRE_GLTF=1 but node, three or gltf-validator is missing in {} (.ci/run installs them)",
        dir.display()
    );
    eprintln!(
        "gltf: SKIPPED: node, three or gltf-validator not found in {} (see .ci/run)",
        dir.display()
    );
    None
}

/// An input: its name, armature and where its pictures come from.
struct Input {
    name: String,
    arm: Armature,
    pictures: Box<dyn Fn() -> Box<dyn PictureSource>>,
}

fn inputs() -> Vec<Input> {
    let mut out = Vec::new();
    for dir in ["examples", "tests/skf_rigs", "tests/lottie_rigs", "tests/gltf"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(manifest().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "skel2d"))
            .collect();
        files.sort();
        for f in files {
            let comp =
                skelpad::check::expect::compile_checked(&std::fs::read_to_string(&f).unwrap());
            assert!(!comp.has_errors(), "{}: {:?}", f.display(), comp.diagnostics);
            let d = f.parent().unwrap().to_path_buf();
            out.push(Input {
                name: format!("{dir}/{}", f.file_name().unwrap().to_string_lossy()),
                arm: comp.armature,
                pictures: Box::new(move || Box::new(FilePictures(d.clone()))),
            });
        }
    }
    let rig = manifest().join("tests/fixtures/spriter/rig.scml");
    for e in skelpad::formats::spriter::load(&rig).unwrap().entities {
        let d = rig.parent().unwrap().to_path_buf();
        out.push(Input {
            name: format!("rig.scml:{}", e.name),
            arm: e.armature,
            pictures: Box::new(move || Box::new(FilePictures(d.clone()))),
        });
    }
    if let Some(dir) = common::samples_dir("gltf", "spriter") {
        let mut files = Vec::new();
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "scml") {
                    files.push(p);
                }
            }
        }
        files.sort();
        for f in files {
            for e in skelpad::formats::spriter::load(&f).unwrap().entities {
                let d = f.parent().unwrap().to_path_buf();
                out.push(Input {
                    name: format!("{}:{}", f.file_name().unwrap().to_string_lossy(), e.name),
                    arm: e.armature,
                    pictures: Box::new(move || Box::new(FilePictures(d.clone()))),
                });
            }
        }
    }
    if let Some(dir) = common::samples_dir("gltf", "skelform") {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "skf"))
            .collect();
        files.sort();
        for f in files {
            let imp = skelpad::formats::skf::import::import_path(&f).unwrap();
            let arm = imp.armature.clone();
            let d = dir.clone();
            let imp = std::sync::Arc::new(imp);
            out.push(Input {
                name: f.file_name().unwrap().to_string_lossy().into_owned(),
                arm,
                pictures: Box::new(move || Box::new(MemoryPictures::from_skf(&imp, d.clone()))),
            });
        }
    }
    out
}

fn node(dir: &Path, script: &str, args: &[&Path]) -> Value {
    let out = Command::new("node")
        .arg(manifest().join("tests/gltf").join(script))
        .args(args)
        .env("SKELPAD_GLTF_DIR", dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{script}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    if script == "validate.mjs" {
        return Value::Array(text.lines().map(|l| serde_json::from_str(l).unwrap()).collect());
    }
    serde_json::from_str(&text).unwrap()
}

/// Worst errors found: bone position, bone x axis (radians), mesh corner;
/// between frames, the largest difference of a matrix number and its
/// share of the allowed.
#[derive(Default, Clone, Copy)]
pub struct Worst {
    pub position: f64,
    pub angle: f64,
    pub corner: f64,
    pub half: f64,
    pub share: f64,
}

/// Triangles `[x0, y0, x1, y1, x2, y2]` bucketed on a grid, for distances.
struct Triangles {
    tris: Vec<[f64; 6]>,
    min: [f64; 2],
    cell: f64,
    cols: usize,
    rows: usize,
    grid: Vec<Vec<usize>>,
}

impl Triangles {
    fn new(tris: Vec<[f64; 6]>) -> Triangles {
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for t in &tris {
            for k in 0..3 {
                for d in 0..2 {
                    lo[d] = lo[d].min(t[2 * k + d]);
                    hi[d] = hi[d].max(t[2 * k + d]);
                }
            }
        }
        let side = (hi[0] - lo[0]).max(hi[1] - lo[1]).max(1e-6);
        let n = ((tris.len() as f64).sqrt().ceil() as usize).clamp(1, 256);
        let cell = side / n as f64 + 1e-9;
        let (cols, rows) = (n + 1, n + 1);
        let mut grid = vec![Vec::new(); cols * rows];
        for (i, t) in tris.iter().enumerate() {
            let (x0, x1) = (t[0].min(t[2]).min(t[4]), t[0].max(t[2]).max(t[4]));
            let (y0, y1) = (t[1].min(t[3]).min(t[5]), t[1].max(t[3]).max(t[5]));
            let c = |v: f64, o: f64| (((v - o) / cell).floor().max(0.0) as usize).min(n);
            for gy in c(y0, lo[1])..=c(y1, lo[1]) {
                for gx in c(x0, lo[0])..=c(x1, lo[0]) {
                    grid[gy * cols + gx].push(i);
                }
            }
        }
        Triangles { tris, min: lo, cell, cols, rows, grid }
    }

    /// Distance from `p` to the union of the triangles (looks within `r`;
    /// farther is reported as `r` or more).
    fn distance(&self, p: [f64; 2], r: f64) -> f64 {
        let c =
            |v: f64, o: f64, n: usize| (((v - o) / self.cell).floor().max(0.0) as usize).min(n - 1);
        let (gx0, gx1) = (c(p[0] - r, self.min[0], self.cols), c(p[0] + r, self.min[0], self.cols));
        let (gy0, gy1) = (c(p[1] - r, self.min[1], self.rows), c(p[1] + r, self.min[1], self.rows));
        let mut best = f64::INFINITY;
        for gy in gy0..=gy1 {
            for gx in gx0..=gx1 {
                for &i in &self.grid[gy * self.cols + gx] {
                    best = best.min(point_triangle(p, &self.tris[i]));
                    if best == 0.0 {
                        return 0.0;
                    }
                }
            }
        }
        best.max(if best.is_finite() { 0.0 } else { r })
    }
}

fn point_segment(p: [f64; 2], a: [f64; 2], b: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len = dx * dx + dy * dy;
    let t = if len > 0.0 {
        (((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p[0] - a[0] - t * dx).hypot(p[1] - a[1] - t * dy)
}

fn point_triangle(p: [f64; 2], t: &[f64; 6]) -> f64 {
    let (a, b, c) = ([t[0], t[1]], [t[2], t[3]], [t[4], t[5]]);
    let cross = |u: [f64; 2], v: [f64; 2], w: [f64; 2]| {
        (v[0] - u[0]) * (w[1] - u[1]) - (v[1] - u[1]) * (w[0] - u[0])
    };
    let (d0, d1, d2) = (cross(a, b, p), cross(b, c, p), cross(c, a, p));
    if (d0 >= 0.0 && d1 >= 0.0 && d2 >= 0.0) || (d0 <= 0.0 && d1 <= 0.0 && d2 <= 0.0) {
        return 0.0;
    }
    point_segment(p, a, b).min(point_segment(p, b, c)).min(point_segment(p, c, a))
}

fn corners(t: &[[f64; 6]]) -> impl Iterator<Item = [f64; 2]> + '_ {
    t.iter().flat_map(|t| [[t[0], t[1]], [t[2], t[3]], [t[4], t[5]]])
}

/// The slot and attachment a mesh node shows (from its extras; imported
/// files may repeat names, so by index, checked against the names).
pub fn mesh_target(arm: &Armature, node: &Value) -> (usize, skelpad::model::AttachmentId) {
    let sk = &*arm.skeleton;
    let x = &node["extras"];
    let slot = x["skelpad_slot_index"].as_u64().unwrap() as usize;
    let att = skelpad::model::AttachmentId::from_index(
        x["skelpad_attachment_index"].as_u64().unwrap() as usize,
    );
    assert_eq!(x["skelpad_slot"], sk.slots[slot].name.as_str());
    assert_eq!(x["skelpad_attachment"], sk.attachment_full_name(att).as_str());
    assert_eq!(sk.attachments[att.index()].slot.index(), slot);
    (slot, att)
}

/// Compares one frame; `played` is play.mjs's frame.
#[allow(
    clippy::too_many_arguments,
    reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
)]
pub fn check_frame(
    what: &str,
    arm: &Armature,
    doc: &Value,
    mesh_nodes: &[usize],
    played: &Value,
    pose: &skelpad::runtime::Pose,
    cache: &mut RenderCache,
    worst: &mut Worst,
) {
    let bones = played["bones"].as_array().unwrap();
    assert_eq!(bones.len(), arm.skeleton.bones.len(), "{what}: one node per bone");
    for (b, m) in bones.iter().enumerate() {
        let m: Vec<f64> = m.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let want = pose.bones[b].world;
        let (t, x) = (want.translation(), want.x_axis());
        let dp = (m[12] - t.x).hypot(m[13] - t.y);
        let da = if x.length() > 1e-6 && m[0].hypot(m[1]) > 1e-6 {
            let a = m[1].atan2(m[0]) - x.y.atan2(x.x);
            a.sin().atan2(a.cos()).abs()
        } else {
            0.0
        };
        assert!(
            dp <= 0.01 && da <= 1e-3 && m[2].abs() < 1e-9,
            "{what}: bone `{}`: three.js {:?} vs skelpad {:?} (position off by {dp:.2e}, x axis by {da:.2e} rad)",
            arm.skeleton.bones[b].name,
            [m[0], m[1], m[12], m[13]],
            want.to_array()
        );
        worst.position = worst.position.max(dp);
        worst.angle = worst.angle.max(da);
    }
    let options = DrawOptions { pixels_per_unit: 100.0, bones: false, contours: false };
    let list = build_draw_list(arm, pose, &options, cache);
    // Whatever skelpad draws (with an area) has its mesh in the file.
    let targets: Vec<(usize, usize)> = mesh_nodes
        .iter()
        .map(|&n| mesh_target(arm, &doc["nodes"][n]))
        .map(|(s, a)| (s, a.index()))
        .collect();
    for item in &list.items {
        let area: f64 = list
            .triangles(item)
            .map(|t| {
                let [a, b, c] = t.map(|v| v.pos.map(f64::from));
                ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])).abs()
            })
            .sum();
        let slot = item.slot.unwrap().index();
        let att = pose.slots[slot].attachment.unwrap().index();
        assert!(
            area < 1e-6 || targets.contains(&(slot, att)),
            "{what}: skelpad draws slot `{}` and the file has no mesh for it",
            arm.skeleton.slots[slot].name
        );
    }
    for (k, tris) in played["meshes"].as_array().unwrap().iter().enumerate() {
        let (slot, att) = mesh_target(arm, &doc["nodes"][mesh_nodes[k]]);
        let got: Vec<f64> = tris.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let got: Vec<[f64; 6]> =
            got.chunks_exact(6).map(|c| [c[0], c[1], c[2], c[3], c[4], c[5]]).collect();
        let shown = pose.slots[slot].attachment == Some(att)
            && pose.draw_order.iter().any(|s| s.index() == slot);
        let mut want = Vec::new();
        for item in list.items.iter().filter(|i| i.slot.map(|s| s.index()) == Some(slot)) {
            for t in list.triangles(item) {
                want.push(
                    [0, 1, 2].map(|k| t[k].pos.map(f64::from)).as_flattened().try_into().unwrap(),
                );
            }
        }
        let want: Vec<[f64; 6]> = if shown { want } else { Vec::new() };
        let name = doc["nodes"][mesh_nodes[k]]["name"].as_str().unwrap();
        if want.is_empty() || got.is_empty() {
            let area = |t: &[[f64; 6]]| {
                t.iter()
                    .map(|t| ((t[2] - t[0]) * (t[5] - t[1]) - (t[4] - t[0]) * (t[3] - t[1])).abs())
                    .sum::<f64>()
            };
            assert!(
                area(&got) < 1e-6 && area(&want) < 1e-6,
                "{what}: `{name}`: skelpad draws {} triangles, three.js {}",
                want.len(),
                got.len()
            );
            continue;
        }
        // The draw order as z: 0.01 per place, the same for every corner.
        let rank = pose.draw_order.iter().position(|s| s.index() == slot).unwrap() as f64;
        let depth = &played["depths"][k];
        for d in [&depth[0], &depth[1]] {
            let z = d.as_f64().unwrap();
            assert!(
                (z - rank * 0.01).abs() < 1e-5,
                "{what}: `{name}` at z {z}, its place in the draw order is {rank}"
            );
        }
        let (w, g) = (Triangles::new(want.clone()), Triangles::new(got.clone()));
        for p in corners(&got) {
            let d = w.distance(p, 0.05);
            worst.corner = worst.corner.max(d);
            assert!(
                d <= 0.01,
                "{what}: `{name}`: three.js draws {p:?}, {d:.3} from skelpad's triangles"
            );
        }
        for p in corners(&want) {
            let d = g.distance(p, 0.05);
            worst.corner = worst.corner.max(d);
            assert!(
                d <= 0.01,
                "{what}: `{name}`: skelpad draws {p:?}, {d:.3} from three.js's triangles"
            );
        }
    }
}

/// Plays one export in three.js and compares every frame, every half frame
/// and each loop's seam (`clip_times`); with `twin` (the same export as
/// `.gltf`), three.js must play that exactly as the `.glb`.
fn check_played(input: &Input, g: &Gltf, (glb, twin): (&Path, Option<&Path>), dir: &Path) -> Worst {
    let times: Vec<Vec<At>> = (0..input.arm.animations.len())
        .map(|ai| {
            let a = &input.arm.animations[ai];
            let fps = g.json["animations"][ai]["extras"]["skelpad"]["fps"].as_f64().unwrap();
            clip_times(fps, a.duration_secs, a.looping != Some(false))
        })
        .collect();
    let secs: Vec<Vec<f64>> = times.iter().map(|t| t.iter().map(|a| a.secs).collect()).collect();
    let times_file = glb.with_extension("times.json");
    std::fs::write(&times_file, serde_json::to_vec(&secs).unwrap()).unwrap();
    let played = node(dir, "play.mjs", &[glb, &times_file]);
    if let Some(twin) = twin {
        let same = node(dir, "play.mjs", &[twin, &times_file]) == played;
        assert!(same, "{}: three.js plays the .gltf otherwise than the .glb", input.name);
    }
    let doc = &g.json;
    let mesh_nodes: Vec<usize> =
        played["meshes"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    let arm = &input.arm;
    // Every bone a node with its full dotted name, nested as the bones nest
    // (a `NAME#skew` helper may sit between a bone and its parent).
    let bone_nodes: Vec<usize> =
        played["bones"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    let nodes = doc["nodes"].as_array().unwrap();
    let parent_of = |n: usize| {
        nodes
            .iter()
            .position(|p| p["children"].as_array().is_some_and(|c| c.iter().any(|c| c == n)))
    };
    for (b, bone) in arm.skeleton.bones.iter().enumerate() {
        assert_eq!(nodes[bone_nodes[b]]["name"], bone.name.as_str(), "{}", input.name);
        let mut up = parent_of(bone_nodes[b]).unwrap();
        if nodes[up]["name"].as_str().unwrap().ends_with("#skew") {
            up = parent_of(up).unwrap();
        }
        match bone.parent {
            Some(p) => assert_eq!(
                up,
                bone_nodes[p.index()],
                "{}: `{}` nests under its parent",
                input.name,
                bone.name
            ),
            None => assert_eq!(
                nodes[up]["name"], "skelpad",
                "{}: a root bone under the root node",
                input.name
            ),
        }
    }
    assert_eq!(doc["scenes"].as_array().unwrap().len(), 1);
    let mut cache = RenderCache::new(".");
    (input.pictures)().prepare(&mut cache);
    let mut worst = Worst::default();
    let setup = evaluate(arm, None, SkinId(0), 0.0);
    check_frame(
        &format!("{} setup", input.name),
        arm,
        doc,
        &mesh_nodes,
        &played["setup"],
        &setup,
        &mut cache,
        &mut worst,
    );
    let anims = played["animations"].as_array().unwrap();
    let mut misses = Vec::new();
    assert_eq!(
        anims.len(),
        arm.animations.len(),
        "{}: one glTF animation per animation",
        input.name
    );
    for (ai, a) in anims.iter().enumerate() {
        let name = a["name"].as_str().unwrap();
        assert_eq!(
            name, arm.animations[ai].name,
            "{}: animations keep their names and order",
            input.name
        );
        let id = skelpad::model::AnimId::from_index(ai);
        let clip = Clip { arm, id, times: &times[ai], doc, mesh_nodes: &mesh_nodes };
        let what = format!("{} `{name}`", input.name);
        let frames = a["frames"].as_array().unwrap();
        check_clip(&what, &clip, frames, &mut cache, (&mut worst, &mut misses));
        let (end, last) = (arm.animations[ai].duration_secs, times[ai].last().unwrap().want);
        // The clip lasts the animation: three's LoopRepeat wraps at its end.
        let duration = a["duration"].as_f64().unwrap();
        assert!(
            (duration - end).abs() < 1e-4 || (duration - last).abs() < 1e-4,
            "{what}: the clip lasts {duration} s, the animation {end} s"
        );
    }
    assert!(
        misses.is_empty(),
        "three.js misses skelpad {} time(s):\n  {}",
        misses.len(),
        misses.iter().take(30).cloned().collect::<Vec<_>>().join("\n  ")
    );
    worst
}

#[test]
fn three_js_plays_every_export_like_skelpad_and_the_validator_is_clean() {
    let Some(dir) = tools() else { return };
    let out = std::env::temp_dir().join(format!("skelpad-gltf-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let mut files = Vec::new();
    let mut report = Vec::new();
    let mut all = Worst::default();
    for (i, input) in inputs().iter().enumerate() {
        let g = export(&input.arm, &GltfOptions::default(), (input.pictures)().as_mut())
            .unwrap_or_else(|e| panic!("{}: {e}", input.name));
        let glb = out.join(format!("{i}.glb"));
        let gltf = out.join(format!("{i}.gltf"));
        std::fs::write(&glb, encode(&g, Container::Glb).unwrap()).unwrap();
        std::fs::write(&gltf, encode(&g, Container::Gltf).unwrap()).unwrap();
        files.push((input.name.clone(), glb.clone()));
        files.push((input.name.clone(), gltf.clone()));
        let w = check_played(input, &g, (&glb, Some(&gltf)), &dir);
        report.push(format!(
            "{}: bones {:.1e} units / {:.1e} rad, corners {:.1e} units, between frames {:.1e} units ({:.0}% of the limit), {} baked, {} warnings",
            input.name,
            w.position,
            w.angle,
            w.corner,
            w.half,
            100.0 * w.share,
            g.baked.len(),
            g.warnings.len()
        ));
        all.position = all.position.max(w.position);
        all.angle = all.angle.max(w.angle);
        all.corner = all.corner.max(w.corner);
        all.half = all.half.max(w.half);
        all.share = all.share.max(w.share);
    }
    let paths: Vec<&Path> = files.iter().map(|(_, p)| p.as_path()).collect();
    let checked = node(&dir, "validate.mjs", &paths);
    for ((name, path), r) in files.iter().zip(checked.as_array().unwrap()) {
        assert!(
            r["errors"] == 0 && r["warnings"] == 0,
            "{name} ({}): gltf-validator: {}",
            path.display(),
            r["messages"]
        );
    }
    eprintln!(
        "gltf (three.js, gltf-validator on {} files):\n  {}\n  worst: bones {:.2e} units / {:.2e} rad, corners {:.2e} units; between frames {:.2e} units ({:.0}% of the limit)",
        files.len(),
        report.join("\n  "),
        all.position,
        all.angle,
        all.corner,
        all.half,
        100.0 * all.share
    );
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_validator_and_the_comparison_can_fail() {
    let Some(dir) = tools() else { return };
    let out = std::env::temp_dir().join(format!("skelpad-gltf-bad-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let comp = skelpad::compile::compile("skeleton\n\tarm l10\n\t\t@ :rect w4 h2\n");
    let mut g =
        export(&comp.armature, &GltfOptions::default(), &mut FilePictures(out.clone())).unwrap();
    // A position accessor whose bounds are wrong: the validator says so.
    let acc =
        g.json["meshes"][0]["primitives"][0]["attributes"]["POSITION"].as_u64().unwrap() as usize;
    g.json["accessors"][acc]["max"] = serde_json::json!([1000.0, 1000.0, 1000.0]);
    let bad = out.join("bad.glb");
    std::fs::write(&bad, encode(&g, Container::Glb).unwrap()).unwrap();
    let r = &node(&dir, "validate.mjs", &[&bad])[0];
    assert!(r["errors"].as_u64().unwrap() > 0, "{r}");
    // A bone moved by 0.02 units, or a shape moved by 0.02 in its joint's
    // space, is caught by the comparison with three.js.
    let text = "skeleton\n\tarm l10\n\t\t@ :rect w4 h2\n\tarm.hand x10 l5\n";
    let input = Input {
        name: "moved".into(),
        arm: skelpad::compile::compile(text).armature,
        pictures: Box::new(|| Box::new(FilePictures(PathBuf::from(".")))),
    };
    let good = export(&input.arm, &GltfOptions::default(), &mut FilePictures(out.clone())).unwrap();
    let glb = out.join("good.glb");
    std::fs::write(&glb, encode(&good, Container::Glb).unwrap()).unwrap();
    check_played(&input, &good, (&glb, None), &dir);
    let hand = good.json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n["name"] == "arm.hand")
        .unwrap();
    let mut moved = good.clone();
    moved.json["nodes"][hand]["translation"] = serde_json::json!([10.02, 0.0, 0.0]);
    let mut shifted = good.clone();
    for prim in good.json["meshes"][0]["primitives"].as_array().unwrap() {
        let pos = prim["attributes"]["POSITION"].as_u64().unwrap() as usize;
        let count = good.json["accessors"][pos]["count"].as_u64().unwrap() as usize;
        let view = good.json["accessors"][pos]["bufferView"].as_u64().unwrap() as usize;
        let start = good.json["bufferViews"][view]["byteOffset"].as_u64().unwrap() as usize;
        for v in 0..count {
            let at = start + 12 * v;
            let x = f32::from_le_bytes(shifted.bin[at..at + 4].try_into().unwrap()) + 0.02;
            shifted.bin[at..at + 4].copy_from_slice(&x.to_le_bytes());
        }
    }
    for (what, g) in [("a moved bone", moved), ("a moved corner", shifted)] {
        let glb = out.join("bad.glb");
        std::fs::write(&glb, encode(&g, Container::Glb).unwrap()).unwrap();
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            check_played(&input, &g, (&glb, None), &dir);
        }));
        assert!(caught.is_err(), "{what} went unnoticed");
    }
    // Triangles a hundredth and a half away are found.
    let t = Triangles::new(vec![[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]]);
    assert!((t.distance([1.0, 1.0], 1.0) - 0.5f64.sqrt()).abs() < 1e-12);
    assert_eq!(t.distance([0.2, 0.2], 1.0), 0.0);
    assert!(t.distance([-0.015, 0.5], 0.05) > 0.01);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_command_line_writes_both_files_refuses_errors_and_leaves_out_missing_pictures() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.skel2d");
    std::fs::write(
        &good,
        "skeleton\n\tarm l10\n\t\t@ :rect w4 h2\n\tface\n\t\t@ :sprite \"gone.png\"\n\nanim \"wave\" 10fps\n\tarm\n\t\tr 0 -> 90\n",
    )
    .unwrap();
    let glb = dir.path().join("good.glb");
    let out = common::skelpad(&["export", common::s(&good), "-o", common::s(&glb)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("left out") && err.contains("gone.png"),
        "a missing picture is said: {err}"
    );
    let bytes = std::fs::read(&glb).unwrap();
    assert_eq!(&bytes[..4], b"glTF");
    let gltf = dir.path().join("good.gltf");
    let out = common::skelpad(&["export", common::s(&good), "-o", common::s(&gltf)]);
    assert!(out.status.success());
    let doc: Value = serde_json::from_slice(&std::fs::read(&gltf).unwrap()).unwrap();
    assert!(
        doc["buffers"][0]["uri"]
            .as_str()
            .unwrap()
            .starts_with("data:application/octet-stream;base64,")
    );
    assert_eq!(doc["animations"][0]["name"], "wave");
    let names: Vec<&str> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["extras"]["skelpad_bone"].as_str())
        .collect();
    assert_eq!(names, ["arm", "face"]);

    let bad = dir.path().join("bad.skel2d");
    std::fs::write(&bad, "skeleton\n\tarm l10\n\t\t@ :blob\n").unwrap();
    let out_bad = dir.path().join("bad.glb");
    let out = common::skelpad(&["export", common::s(&bad), "-o", common::s(&out_bad)]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!out_bad.exists(), "nothing is written from a script with errors");
    let out =
        common::skelpad(&["export", common::s(&bad), "-o", common::s(&out_bad), "--allow-errors"]);
    assert!(out.status.success() && out_bad.exists());
    let out =
        common::skelpad(&["export", common::s(&good), "-o", common::s(&glb), "--skin", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no skin `nope`"));
}

#[test]
fn events_ride_in_their_animations_extras() {
    let path = manifest().join("examples/walk_cycle.skel2d");
    let comp = skelpad::check::expect::compile_checked(&std::fs::read_to_string(&path).unwrap());
    let arm = &comp.armature;
    let mut pics = FilePictures(path.parent().unwrap().to_path_buf());
    let g = export(arm, &GltfOptions::default(), &mut pics).unwrap();
    let mut seen = 0;
    for (a, anim) in arm.animations.iter().enumerate() {
        let events = g.json["animations"][a]["extras"]["skelpad"]["events"].as_array().unwrap();
        assert_eq!(events.len(), anim.events.len(), "{}", anim.name);
        for (e, want) in events.iter().zip(&anim.events) {
            assert_eq!(e["name"], want.name.as_str());
            assert!((e["time"].as_f64().unwrap() - want.time_secs).abs() < 1e-9, "{e}");
            seen += 1;
        }
    }
    assert!(seen > 0, "walk_cycle fires footsteps");
}
