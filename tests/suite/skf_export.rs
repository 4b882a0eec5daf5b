//! Proof that SkelForm's runtimes play skelpad's exports as skelpad does.
//!
//! Every script (the examples, the conformance scripts, the rigs in
//! `tests/skf_rigs/` and a generated rig) is exported and played in both of
//! SkelForm's runtimes: `rusty_skelform` (a dev-dependency) and skelform-js
//! (vendored in `tests/skelform-js/`, run with node; skipped with a message
//! where node is missing, a failure with `SKELPAD_REQUIRE_NODE=1`). For
//! every frame of every animation, on a fresh copy and played on as a game
//! plays it, each bone's world transform is compared with skelpad's runtime
//! at `frame / fps`; so are the helper bones that carry pictures (shown with
//! the right mirroring, or hidden with scale 0), the tints (rusty_skelform
//! only: skelform-js ignores them), and the outlines of meshes. The worst
//! errors per file are printed (`--nocapture`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use crate::common;

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use rusty_skelform as rs;
use skelpad::compile::compile;
use skelpad::formats::skf::SkfArmature;
use skelpad::formats::skf::export::ExportOptions;
use skelpad::formats::skf::pictures::RenderedPictures;
use skelpad::formats::skf::write::{build, to_zip};
use skelpad::generate;
use skelpad::model::*;
use skelpad::runtime::{Pose, evaluate};

const MAX_POS: f64 = 0.01;
const MAX_ROT: f64 = 1e-4;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scripts_in(dir: &Path) -> Vec<(String, String, PathBuf)> {
    let mut out: Vec<(String, String, PathBuf)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "skel2d"))
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&p).unwrap(),
                dir.to_path_buf(),
            )
        })
        .collect();
    out.sort();
    out
}

fn all_scripts() -> Vec<(String, String, PathBuf)> {
    let root = manifest();
    let mut v = scripts_in(&root.join("examples"));
    v.extend(scripts_in(&root.join("tests/conformance")));
    v.extend(scripts_in(&root.join("tests/skf_rigs")));
    v.push(("generated-120".into(), generate::script(120, 3), root.clone()));
    v
}

/// Worst errors seen in one file.
#[derive(Default, Debug)]
struct Worst {
    pos: f64,
    rot: f64,
    linear: f64,
    tint: f64,
    mesh: f64,
    frames: usize,
    bones_checked: usize,
    shown_checks: usize,
    hidden_checks: usize,
    /// Outline points mapped through meshes.
    mesh_points: usize,
    /// Bones rotating under a parent that faces left (must stay 0).
    disputed: usize,
}

fn axis_angle(x: f64, y: f64) -> Option<f64> {
    (x.hypot(y) > 1e-9).then(|| y.atan2(x))
}

fn wrap(a: f64) -> f64 {
    let r = a.rem_euclid(std::f64::consts::TAU);
    if r > std::f64::consts::PI { r - std::f64::consts::TAU } else { r }
}

/// (position error, rotation error) between two world matrices; rotation
/// compares the directions of both axes (`both`) or of the x axis only (a
/// picture on a skewing bone keeps its x axis; SkelForm cannot skew).
fn errors(want: Affine, got: Affine, both: bool) -> (f64, f64) {
    let ([wa, wb, wc, wd, we, wf], [ga, gb, gc, gd, ge, gf]) = (want.to_array(), got.to_array());
    let pos = (we - ge).hypot(wf - gf);
    let mut rot: f64 = 0.0;
    let axes = [(axis_angle(wa, wb), axis_angle(ga, gb)), (axis_angle(wc, wd), axis_angle(gc, gd))];
    for (w, g) in &axes[..if both { 2 } else { 1 }] {
        if let (Some(w), Some(g)) = (*w, *g) {
            rot = rot.max(wrap(w - g).abs());
        }
    }
    (pos, rot)
}

/// What a SkelForm bone must show, from skelpad's pose.
enum Expect {
    /// A skelpad bone. Its exported frame is its world with the y axis turned
    /// around when it mirrors (the mirror lives in the pictures), so that no
    /// parent ever faces left.
    Real(Affine),
    /// A helper carrying attachment `att` of `slot`: its world while shown.
    Helper { slot: SlotId, att: AttachmentId, world: Affine, shown: bool },
}

/// The exported frame of a skelpad bone: its world, unmirrored by turning
/// the y axis around.
fn unmirrored(m: Affine) -> Affine {
    if m.determinant() < 0.0 {
        Affine::from_cols(m.x_axis(), -m.y_axis(), m.translation())
    } else {
        m
    }
}

/// What skelpad says a SkelForm bone must be, by the bone's name or, for a
/// helper, by the attachment its visual names.
fn expected(
    sk: &Skeleton,
    pose: &Pose,
    by_tex: &HashMap<String, AttachmentId>,
    name: &str,
    tex: Option<&str>,
) -> Option<Expect> {
    if let Some(b) = sk.bone_by_name(name) {
        return Some(Expect::Real(unmirrored(pose.bones[b.index()].world)));
    }
    // Mesh frames and offsets are checked through the mesh outlines.
    if !name.starts_with('@') || name.contains('~') || name.contains('>') {
        return None;
    }
    let att = *by_tex.get(tex?)?;
    let slot = sk.attachments[att.index()].slot;
    let a = sk.attachment(SkinId(0), att)?;
    if matches!(a.kind, AttachmentKind::None) {
        return None;
    }
    let world = pose.bones[sk.slot(slot).bone.index()].world * a.transform.matrix();
    Some(Expect::Helper {
        slot,
        att,
        world,
        shown: pose.slots[slot.index()].attachment == Some(att),
    })
}

/// A point of a path in world space the way skelpad places it: through its
/// bone, then the attachment transform inside the slot's bone.
fn path_point(pose: &Pose, slot_world: Affine, att: Affine, p: BoundPoint) -> (f64, f64) {
    let bw = pose.bones[p.bone.index()].world;
    let m = slot_world * att * slot_world.inverse().unwrap_or_default() * bw;
    m.apply(p.x, p.y)
}

/// Fine samples along a path (parameters shared between poses).
fn path_samples(path: &BoundPath, point: &dyn Fn(BoundPoint) -> (f64, f64)) -> Vec<(f64, f64)> {
    let mut out = vec![point(path.start)];
    let mut prev = path.start;
    for seg in &path.segments {
        let ctrl: Vec<(f64, f64)> = match *seg {
            PathSegment::LineTo(p) => vec![point(prev), point(p)],
            PathSegment::QuadTo(c, p) => vec![point(prev), point(c), point(p)],
            PathSegment::CubicTo(c1, c2, p) => vec![point(prev), point(c1), point(c2), point(p)],
        };
        for i in 1..=40 {
            let s = i as f64 / 40.0;
            let u = 1.0 - s;
            let w: Vec<f64> = match ctrl.len() {
                2 => vec![u, s],
                3 => vec![u * u, 2.0 * u * s, s * s],
                _ => vec![u * u * u, 3.0 * u * u * s, 3.0 * u * s * s, s * s * s],
            };
            out.push(
                ctrl.iter()
                    .zip(&w)
                    .fold((0.0, 0.0), |acc, (p, w)| (acc.0 + p.0 * w, acc.1 + p.1 * w)),
            );
        }
        prev = match *seg {
            PathSegment::LineTo(p) | PathSegment::QuadTo(_, p) | PathSegment::CubicTo(_, _, p) => p,
        };
    }
    out
}

/// Maps a point through a deformed mesh: find its triangle in the setup mesh,
/// apply its barycentric coordinates to the deformed one.
fn through_mesh(
    q: (f64, f64),
    setup: &[(f64, f64)],
    now: &[(f64, f64)],
    indices: &[u32],
) -> Option<(f64, f64)> {
    let mut best: Option<(f64, [f64; 3], [usize; 3])> = None;
    for t in indices.chunks(3) {
        let [a, b, c] = [t[0] as usize, t[1] as usize, t[2] as usize];
        let (pa, pb, pc) = (setup[a], setup[b], setup[c]);
        let det = (pb.0 - pa.0) * (pc.1 - pa.1) - (pc.0 - pa.0) * (pb.1 - pa.1);
        if det.abs() < 1e-12 {
            continue;
        }
        let l1 = ((q.0 - pa.0) * (pc.1 - pa.1) - (pc.0 - pa.0) * (q.1 - pa.1)) / det;
        let l2 = ((pb.0 - pa.0) * (q.1 - pa.1) - (q.0 - pa.0) * (pb.1 - pa.1)) / det;
        let l = [1.0 - l1 - l2, l1, l2];
        let inside = l.iter().copied().fold(f64::MAX, f64::min);
        if best.is_none_or(|b| inside > b.0) {
            best = Some((inside, l, [a, b, c]));
        }
    }
    let (inside, l, [a, b, c]) = best?;
    if inside < -1e-3 {
        return None;
    }

    Some((
        l[0] * now[a].0 + l[1] * now[b].0 + l[2] * now[c].0,
        l[0] * now[a].1 + l[1] * now[b].1 + l[2] * now[c].1,
    ))
}

/// A world bone: position, rotation, scale.
type WorldBone = ((f64, f64), f64, (f64, f64));

/// A constructed armature as any runtime gives it: world bones and the
/// vertices of meshes.
struct Built {
    /// Per bone, in file order.
    bones: Vec<WorldBone>,
    /// Vertices per visual (empty for plain textures).
    vertices: Vec<Vec<(f64, f64)>>,
    /// Tint per visual, where the runtime plays tints.
    tints: Option<Vec<[f64; 4]>>,
}

impl Built {
    fn from_rs(a: &rs::Armature) -> Built {
        Built {
            bones: a
                .constructed_bones
                .iter()
                .map(|b| {
                    (
                        (b.pos.x as f64, b.pos.y as f64),
                        b.rot as f64,
                        (b.scale.x as f64, b.scale.y as f64),
                    )
                })
                .collect(),
            vertices: a
                .visuals
                .iter()
                .map(|v| v.vertices.iter().map(|v| (v.pos.x as f64, v.pos.y as f64)).collect())
                .collect(),
            tints: Some(
                a.visuals
                    .iter()
                    .map(|v| [v.tint.r as f64, v.tint.g as f64, v.tint.b as f64, v.tint.a as f64])
                    .collect(),
            ),
        }
    }

    /// One frame printed by `tests/skelform-js/play.js`.
    fn from_js(frame: &serde_json::Value, visuals: usize) -> Built {
        let num = |v: &serde_json::Value| v.as_f64().unwrap_or(f64::NAN);
        let bones = frame["b"]
            .as_array()
            .expect("bones")
            .iter()
            .map(|b| ((num(&b[0]), num(&b[1])), num(&b[2]), (num(&b[3]), num(&b[4]))))
            .collect();
        let mut vertices = vec![Vec::new(); visuals];
        for (k, vs) in frame["v"].as_object().expect("vertices") {
            vertices[k.parse::<usize>().unwrap()] =
                vs.as_array().unwrap().iter().map(|p| (num(&p[0]), num(&p[1]))).collect();
        }
        Built { bones, vertices, tints: None }
    }

    fn matrix(&self, i: usize) -> Affine {
        let ((x, y), rot, (sx, sy)) = self.bones[i];
        Affine::trs(x, y, rot, sx, sy)
    }
}

/// Compares one constructed armature with skelpad's pose.
#[allow(clippy::too_many_arguments)]
fn compare(
    w: &mut Worst,
    label: &str,
    sk: &Skeleton,
    file: &SkfArmature,
    by_tex: &HashMap<String, AttachmentId>,
    got: &Built,
    setup: &Built,
    pose: &Pose,
    k: f64,
) {
    w.frames += 1;
    for (i, bone) in file.bones.iter().enumerate() {
        let vis = (bone.visuals_id >= 0).then(|| &file.visuals[bone.visuals_id as usize]);
        let Some(exp) = expected(sk, pose, by_tex, &bone.name, vis.map(|v| v.tex.as_str())) else {
            continue;
        };
        let m = got.matrix(i);
        w.bones_checked += 1;
        match exp {
            Expect::Real(want) => {
                let (pe, re) = errors(want, m, true);
                w.pos = w.pos.max(pe);
                w.rot = w.rot.max(re);
                // The whole linear part (scale and the turned y axis too).
                let ([wa, wb, wc, wd, _, _], [ma, mb, mc, md, _, _]) =
                    (want.to_array(), m.to_array());
                let lin = [wa - ma, wb - mb, wc - mc, wd - md];
                let size = wa.abs().max(wb.abs()).max(wc.abs()).max(wd.abs()).max(1.0);
                w.linear = w.linear.max(lin.iter().fold(0.0f64, |acc, x| acc.max(x.abs())) / size);
                assert!(
                    pe <= MAX_POS && re <= MAX_ROT,
                    "{label}: bone `{}` off by {pe:.2e} units, {re:.2e} rad\nwant {want:?}\ngot {m:?}",
                    bone.name
                );
            }
            Expect::Helper { slot, att, world, shown } => {
                let (_, _, (sx, sy)) = got.bones[i];
                let mesh = vis.is_some_and(|v| !v.vertices.is_empty());
                if !shown {
                    // Hidden: scale 0 (a mesh's vertices collapse to a point).
                    w.hidden_checks += 1;
                    if mesh {
                        let v = &got.vertices[bone.visuals_id as usize];
                        let spread = v
                            .iter()
                            .map(|p| (p.0 - v[0].0).hypot(p.1 - v[0].1))
                            .fold(0.0, f64::max);
                        assert!(
                            spread <= 1e-3,
                            "{label}: the hidden mesh `{}` spans {spread} units",
                            bone.name
                        );
                    } else {
                        assert!(
                            sx.abs() + sy.abs() <= 1e-6,
                            "{label}: the hidden picture `{}` has scale {sx}, {sy}",
                            bone.name
                        );
                    }
                    continue;
                }
                w.shown_checks += 1;
                let (pe, re) = errors(world, m, false);
                if !mesh {
                    w.pos = w.pos.max(pe);
                    w.rot = w.rot.max(re);
                    assert!(
                        pe <= MAX_POS && re <= MAX_ROT,
                        "{label}: picture `{}` off by {pe:.2e} units, {re:.2e} rad\nwant {world:?}\ngot {m:?}",
                        bone.name
                    );
                    // Shown, and mirrored as in skelpad.
                    // (An axis skelpad collapses may be collapsed here too.)
                    let [xa, xb, yc, yd, _, _] = world.to_array();
                    let (wx, wy) = (xa.hypot(xb), yc.hypot(yd));
                    assert!(
                        (wx <= 1e-6 || sx.abs() > 1e-9) && (wy <= 1e-6 || sy.abs() > 1e-9),
                        "{label}: the shown picture `{}` has scale {sx}, {sy}",
                        bone.name
                    );
                    assert_eq!(
                        world.determinant() < 0.0,
                        m.determinant() < 0.0,
                        "{label}: picture `{}` mirrored the wrong way\nwant {world:?}\ngot {m:?}",
                        bone.name
                    );
                }
                let vi = bone.visuals_id as usize;
                if let (Some(tints), Some(_)) = (&got.tints, vis) {
                    let c = pose.slots[slot.index()].color;
                    for (x, y) in tints[vi].iter().zip(c.to_array()) {
                        w.tint = w.tint.max((x - y).abs());
                    }
                }
                // Mesh outlines follow skelpad's bent path.
                if mesh && setup.vertices[vi].len() == got.vertices[vi].len() {
                    let a = sk.attachment(SkinId(0), att).unwrap();
                    let AttachmentKind::Path { path, .. } = &a.kind else {
                        panic!("mesh of a non-path")
                    };
                    let setup_pose = Pose::setup(sk);
                    if setup_pose.slots[slot.index()].attachment != Some(att) {
                        continue; // no setup mesh to map through
                    }
                    let slot_bone = sk.slot(slot).bone;
                    let am = a.transform.matrix();
                    let q0 = path_samples(path, &|p| {
                        path_point(&setup_pose, setup_pose.bones[slot_bone.index()].world, am, p)
                    });
                    let qf = path_samples(path, &|p| {
                        path_point(pose, pose.bones[slot_bone.index()].world, am, p)
                    });
                    let indices = &vis.unwrap().indices;
                    for (p0, pf) in q0.iter().zip(&qf) {
                        let mapped =
                            through_mesh(*p0, &setup.vertices[vi], &got.vertices[vi], indices)
                                .unwrap_or_else(|| {
                                    panic!(
                                        "{label}: outline point {p0:?} outside the mesh of `{}`",
                                        bone.name
                                    )
                                });
                        let err = (mapped.0 - pf.0).hypot(mapped.1 - pf.1);
                        w.mesh = w.mesh.max(err * k);
                        w.mesh_points += 1;
                    }
                }
            }
        }
    }
}

/// Counts (into `w.disputed`) the bones of an animated, constructed
/// rusty_skelform armature whose parent faces left while their own local
/// rotation is not a multiple of π: there SkelForm's runtimes disagree.
fn count_disputed(w: &mut Worst, local: &[rs::Bone], built: &[rs::Bone]) {
    for b in local {
        if b.parent_id < 0 {
            continue;
        }
        let p = &built[b.parent_id as usize];
        let facing_left = (p.scale.x < 0.0) != (p.scale.y < 0.0);
        let r = (b.rot as f64).rem_euclid(std::f64::consts::PI);
        if facing_left && r.min(std::f64::consts::PI - r) > 1e-6 {
            w.disputed += 1;
        }
    }
}

/// The folder to read a script's sprite images from: its own, or, when some
/// are missing (the conformance scripts name images they do not ship), a
/// temporary folder with small made-up pictures under those names.
fn with_sprites(name: &str, arm: &Armature, dir: &Path) -> PathBuf {
    let names: Vec<&str> = arm
        .skeleton
        .contents
        .iter()
        .chain(arm.skeleton.skins.iter().flat_map(|s| s.replaced.iter().map(|(_, a)| a)))
        .filter_map(|a| match &a.kind {
            AttachmentKind::Sprite { image: Some(img), .. } => Some(img.as_str()),
            _ => None,
        })
        .collect();
    if names.iter().all(|n| dir.join(n).is_file()) {
        return dir.to_path_buf();
    }
    let tmp = std::env::temp_dir().join(format!("skelpad-sprites-{}-{name}", std::process::id()));
    for (i, n) in names.iter().enumerate() {
        let path = tmp.join(n);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let img = image::RgbaImage::from_fn(6 + i as u32, 4, |x, y| {
            image::Rgba([
                (40 * x) as u8,
                (60 * y) as u8,
                200,
                if (x + y) % 2 == 0 { 255 } else { 128 },
            ])
        });
        img.save(&path).unwrap();
    }
    tmp
}

/// A script exported to `.skf`, and the `armature.json` read back from the zip.
struct Exported {
    /// What the exporter wrote: the armature given, with animated draw
    /// orders as slot copies (`formats::draw_order`).
    arm: Armature,
    /// The armature given.
    orig: Armature,
    file: SkfArmature,
    json: String,
    warnings: Vec<String>,
    /// Attachments by the texture name their helpers' visuals carry.
    by_tex: HashMap<String, AttachmentId>,
    /// Stepped keyframes (both handles' y = 999) in the file.
    steps: usize,
}

/// Exports a script to `.skf` bytes (pictures from the renderer), reads
/// `armature.json` back from the zip, and checks what every runtime relies
/// on: keyframes sorted, animations long enough, no texture keys, steps
/// written as 999 handles (never a `handle_preset`), and every animated
/// element keyed at frame 0.
fn export_script(name: &str, text: &str, dir: &Path, opts: &ExportOptions) -> Exported {
    export_armature(name, compile(text).armature, dir, opts)
}

/// [`export_script`] for an armature from anywhere (imports).
fn export_armature(name: &str, orig: Armature, dir: &Path, opts: &ExportOptions) -> Exported {
    let arm = skelpad::formats::draw_order::bake(&orig).unwrap().unwrap_or_else(|| orig.clone());
    let sk = &*arm.skeleton;
    let dir = with_sprites(name, &arm, dir);
    let mut pictures = RenderedPictures::new(&arm, &dir);
    let export = build(&arm, opts, &mut pictures, &skelpad::formats::export::Progress::new())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let warnings = export.warnings.iter().map(|w| w.to_string()).collect();
    let bytes = to_zip(&export).unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .unwrap_or_else(|e| panic!("{name}: not a zip: {e}"));
    let mut json = String::new();
    zip.by_name("armature.json")
        .unwrap_or_else(|e| panic!("{name}: no armature.json: {e}"))
        .read_to_string(&mut json)
        .unwrap();
    let file: SkfArmature =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{name}: armature.json: {e}"));
    assert!(
        !json.contains("handle_preset") && !json.contains("Snap"),
        "{name}: a handle preset was written"
    );
    let mut steps = 0;
    for anim in &file.animations {
        let id = arm
            .animation_by_name(&anim.name)
            .unwrap_or_else(|| panic!("{name}: animation `{}` not in the script", anim.name));
        let frames: Vec<u32> = anim.keyframes.iter().map(|k| k.frame).collect();
        assert!(frames.windows(2).all(|w| w[0] <= w[1]), "{name}/{}: keyframes sorted", anim.name);
        let last = *frames.last().expect("an end keyframe");
        let skel_anim = arm.animation(id).unwrap();
        assert!(
            last as f64 >= skel_anim.duration_secs * anim.fps as f64 - 1e-6,
            "{name}/{}: the animation is cut short",
            anim.name
        );
        let mut first: HashMap<(u32, &str), u32> = HashMap::new();
        for kf in &anim.keyframes {
            assert!(
                !["Texture", "Tex"].contains(&kf.element.as_str()),
                "{name}/{}: a texture key (no runtime plays them alike)",
                anim.name
            );
            let (a, b) = (kf.start_handle.y == 999.0, kf.end_handle.y == 999.0);
            assert_eq!(a, b, "{name}/{}: half a step", anim.name);
            steps += a as usize;
            first.entry((kf.bone_id, kf.element.as_str())).or_insert(kf.frame);
        }
        for ((bone, e), f) in first {
            // The end keyframe added for the animation's length may stand alone.
            assert!(
                f == 0 || f == last,
                "{name}/{}: `{e}` of bone {bone} is first keyed at frame {f}, not 0",
                anim.name
            );
        }
    }
    let by_tex = (0..sk.attachments.len())
        .map(AttachmentId::from_index)
        .map(|a| (sk.attachment_full_name(a), a))
        .collect();
    Exported { arm, orig, file, json, warnings, by_tex, steps }
}

fn report(runtime: &str, name: &str, w: &Worst, e: &Exported) {
    eprintln!(
        "{runtime:>14} {name:>24}: worst {:.2e} units, {:.2e} rad, linear {:.1e}, tint {:.1e}, mesh {:.2} px over {} points ({} frames, {} bone checks, {}/{} shown/hidden, {} warnings)",
        w.pos,
        w.rot,
        w.linear,
        w.tint,
        w.mesh,
        w.mesh_points,
        w.frames,
        w.bones_checked,
        w.shown_checks,
        w.hidden_checks,
        e.warnings.len()
    );
    for warning in &e.warnings {
        eprintln!("{:>30}{warning}", "");
    }
}

fn assert_worst(name: &str, w: &Worst) {
    assert!(w.tint <= 1e-3, "{name}: tint off by {}", w.tint);
    assert!(w.linear <= 1e-4, "{name}: scale/mirroring off by {}", w.linear);
    assert!(w.mesh <= 1.0, "{name}: a mesh outline is {} pixels off", w.mesh);
    assert_eq!(
        w.disputed, 0,
        "{name}: a bone rotates under a parent facing left, where SkelForm's runtimes disagree"
    );
}

/// Plays an export in `rusty_skelform`: every frame of every animation on a
/// fresh copy, then each animation twice through on one copy (as a game
/// plays it; the second loop is compared).
fn prove_rusty(name: &str, text: &str, dir: &Path, opts: &ExportOptions) -> (Worst, usize) {
    prove_rusty_exported(name, export_script(name, text, dir, opts), opts)
}

/// [`prove_rusty`] for an export made already.
fn prove_rusty_exported(name: &str, e: Exported, opts: &ExportOptions) -> (Worst, usize) {
    let (arm, sk) = (&e.arm, &*e.arm.skeleton);
    let theirs: rs::Armature = serde_json::from_str(&e.json)
        .unwrap_or_else(|err| panic!("{name}: rusty_skelform cannot load it: {err}"));
    let k = opts.pixels_per_unit;
    let mut w = Worst::default();
    let mut setup_arm = theirs.clone();
    rs::construct(&mut setup_arm);
    let setup = Built::from_rs(&setup_arm);
    compare(
        &mut w,
        &format!("{name}/setup"),
        sk,
        &e.file,
        &e.by_tex,
        &setup,
        &setup,
        &Pose::setup(sk),
        k,
    );
    for anim in &theirs.animations {
        let id = arm.animation_by_name(&anim.name).unwrap();
        let last = anim.keyframes.last().unwrap().frame;
        let pose_at =
            |frame: u32| evaluate(arm, Some(id), SkinId(0), frame as f64 / anim.fps as f64);
        for frame in 0..=last {
            let mut a = theirs.clone();
            common::rusty_play(&mut a, anim, frame);
            count_disputed(&mut w, &a.bones, &a.constructed_bones);
            let label = format!("{name}/{} frame {frame}", anim.name);
            let built = Built::from_rs(&a);
            compare(&mut w, &label, sk, &e.file, &e.by_tex, &built, &setup, &pose_at(frame), k);
            check_draw_order(&label, &e, &built, frame as f64 / anim.fps as f64, &anim.name);
        }
        let mut a = theirs.clone();
        for lap in 0..2 {
            for frame in 0..=last {
                common::rusty_play(&mut a, anim, frame);
                if lap == 1 {
                    let label = format!("{name}/{} played on, frame {frame}", anim.name);
                    compare(
                        &mut w,
                        &label,
                        sk,
                        &e.file,
                        &e.by_tex,
                        &Built::from_rs(&a),
                        &setup,
                        &pose_at(frame),
                        k,
                    );
                }
            }
        }
    }
    assert_worst(name, &w);
    report("rusty_skelform", name, &w, &e);
    (w, e.steps)
}

/// The pictures the runtime shows (scale not 0), by z-index, name the
/// slots and attachments skelpad draws in its draw order, for the armature
/// as given (before its animated draw orders became slot copies).
fn check_draw_order(label: &str, e: &Exported, got: &Built, t: f64, anim: &str) {
    let (sk, osk) = (&*e.arm.skeleton, &*e.orig.skeleton);
    let mut shown: Vec<(i32, usize, (String, String))> = Vec::new();
    for (i, bone) in e.file.bones.iter().enumerate() {
        if !bone.name.starts_with('@')
            || bone.name.contains('~')
            || bone.name.contains('>')
            || bone.visuals_id < 0
        {
            continue;
        }
        let vis = &e.file.visuals[bone.visuals_id as usize];
        let Some(&att) = e.by_tex.get(&vis.tex) else { continue };
        let (_, _, (sx, sy)) = got.bones[i];
        if sx.abs() + sy.abs() <= 1e-9
            || matches!(
                sk.attachment(SkinId(0), att).map(|a| &a.kind),
                None | Some(AttachmentKind::None)
            )
        {
            continue;
        }
        let slot = sk.slot(sk.attachments[att.index()].slot);
        // A copy `SLOT_zN` stands for SLOT.
        let base = match slot.name.rsplit_once("_z") {
            Some((b, n))
                if osk.slot_by_name(&slot.name).is_none()
                    && n.bytes().all(|c| c.is_ascii_digit()) =>
            {
                b.to_string()
            }
            _ => slot.name.clone(),
        };
        shown.push((vis.init_zindex, i, (base, sk.attachments[att.index()].name.clone())));
    }
    shown.sort();
    let got: Vec<(String, String)> = shown.into_iter().map(|x| x.2).collect();
    let id = e.orig.animation_by_name(anim).unwrap();
    let pose = evaluate(&e.orig, Some(id), SkinId(0), t);
    let want: Vec<(String, String)> = pose
        .draw_order
        .iter()
        .filter_map(|&s| {
            let att = pose.slots[s.index()].attachment?;
            let a = osk.attachment(SkinId(0), att)?;
            (!matches!(a.kind, AttachmentKind::None))
                .then(|| (osk.slot(s).name.clone(), osk.attachments[att.index()].name.clone()))
        })
        .collect();
    assert_eq!(got, want, "{label}: pictures drawn in another order");
}

/// `node` when it runs; otherwise `None` after saying why the skelform-js
/// half is skipped (a failure when `SKELPAD_REQUIRE_NODE=1`).
fn node() -> Option<&'static str> {
    let ok = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if ok {
        return Some("node");
    }
    assert!(
        std::env::var("SKELPAD_REQUIRE_NODE").as_deref() != Ok("1"),
        "SKELPAD_REQUIRE_NODE=1 but `node` does not run: skelform-js cannot be checked"
    );
    eprintln!(
        "SKIPPED the skelform-js half: `node` was not found (install Node.js, e.g. Debian's `nodejs`; SKELPAD_REQUIRE_NODE=1 turns this skip into a failure)"
    );
    None
}

/// Plays an export in skelform-js under node (`tests/skelform-js/play.js`):
/// every frame on a fresh copy, and each animation played on.
fn prove_js(node: &str, name: &str, text: &str, dir: &Path, opts: &ExportOptions) -> Worst {
    let e = export_script(name, text, dir, opts);
    let (arm, sk) = (&e.arm, &*e.arm.skeleton);
    let tmp = tempfile::tempdir().unwrap();
    let json_path = tmp.path().join("armature.json");
    std::fs::write(&json_path, &e.json).unwrap();
    let out = Command::new(node)
        .arg(manifest().join("tests/skelform-js/play.js"))
        .arg(&json_path)
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "{name}: skelform-js failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let played: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|err| panic!("{name}: node printed no JSON: {err}"));
    let nv = e.file.visuals.len();
    let k = opts.pixels_per_unit;
    let mut w = Worst::default();
    let setup = Built::from_js(&played["setup"], nv);
    compare(
        &mut w,
        &format!("{name}/setup (js)"),
        sk,
        &e.file,
        &e.by_tex,
        &setup,
        &setup,
        &Pose::setup(sk),
        k,
    );
    for (ai, anim) in e.file.animations.iter().enumerate() {
        let id = arm.animation_by_name(&anim.name).unwrap();
        for (how, key) in [("", "anims"), (" played on", "played")] {
            let frames = played[key][ai].as_array().expect("frames");
            assert_eq!(
                frames.len() as u32,
                anim.keyframes.last().unwrap().frame + 1,
                "{name}/{}: frames played",
                anim.name
            );
            for (frame, f) in frames.iter().enumerate() {
                let pose = evaluate(arm, Some(id), SkinId(0), frame as f64 / anim.fps as f64);
                let label = format!("{name}/{}{how} frame {frame} (js)", anim.name);
                compare(
                    &mut w,
                    &label,
                    sk,
                    &e.file,
                    &e.by_tex,
                    &Built::from_js(f, nv),
                    &setup,
                    &pose,
                    k,
                );
            }
        }
    }
    assert_worst(name, &w);
    report("skelform-js", name, &w, &e);
    w
}

#[test]
fn rusty_skelform_plays_every_export_like_skelpad() {
    let opts = ExportOptions::default();
    let (mut checked, mut steps, mut shown, mut hidden) = (0, 0, 0, 0);
    for (name, text, dir) in all_scripts() {
        let (w, s) = prove_rusty(&name, &text, &dir, &opts);
        checked += w.bones_checked;
        steps += s;
        shown += w.shown_checks;
        hidden += w.hidden_checks;
    }
    assert!(checked > 10_000, "{checked}");
    assert!(steps > 0, "stepped keys were written and checked");
    assert!(
        shown > 0 && hidden > 0,
        "switched attachments were checked both ways: {shown} shown, {hidden} hidden"
    );
}

/// Spriter files (skelpad's own test rig and, when they are there, the
/// samples in ../shared): their pivots move into the attachments, their
/// own parent rule, mainline curves and hidden objects are baked where
/// SkelForm's keys cannot say them.
#[test]
fn rusty_skelform_plays_spriter_exports_like_skelpad() {
    let mut files = vec![manifest().join("tests/fixtures/spriter/rig.scml")];
    let samples = manifest().join("../shared/samples/spriter");
    if samples.is_dir() {
        for sub in std::fs::read_dir(&samples).unwrap() {
            for f in std::fs::read_dir(sub.unwrap().path()).unwrap() {
                let p = f.unwrap().path();
                if skelpad::formats::spriter::syntax_of(&p).is_some() {
                    files.push(p);
                }
            }
        }
    } else {
        assert!(
            std::env::var("SKELPAD_REQUIRE_SAMPLES").as_deref() != Ok("1"),
            "samples not found"
        );
        eprintln!("skipped the samples: samples not found ({})", samples.display());
    }
    files.sort();
    let opts = ExportOptions::default();
    for f in files {
        let file = skelpad::formats::spriter::load(&f).unwrap();
        let dir = f.parent().unwrap();
        for e in &file.entities {
            let (arm, _) = skelpad::formats::spriter::center_pictures(&e.armature, dir);
            let name = format!("{}:{}", f.file_name().unwrap().to_string_lossy(), e.name);
            prove_rusty_exported(&name, export_armature(&name, arm, dir, &opts), &opts);
        }
    }
}

#[test]
fn skelform_js_plays_every_export_like_skelpad() {
    let Some(node) = node() else { return };
    let opts = ExportOptions::default();
    let (mut checked, mut hidden) = (0, 0);
    for (name, text, dir) in all_scripts() {
        let w = prove_js(node, &name, &text, &dir, &opts);
        checked += w.bones_checked;
        hidden += w.hidden_checks;
    }
    assert!(checked > 10_000, "{checked}");
    assert!(hidden > 0, "hidden pictures were checked");
}

#[test]
fn meshes_bend_with_their_bones_at_a_higher_scale_too() {
    let text = std::fs::read_to_string(manifest().join("tests/skf_rigs/bend.skel2d")).unwrap();
    let opts = ExportOptions { pixels_per_unit: 4.0, ..Default::default() };
    let (w, _) = prove_rusty("bend.skel2d @4x", &text, &manifest(), &opts);
    assert!(w.mesh_points > 1000, "the outline was compared");
    if let Some(node) = node() {
        let w = prove_js(node, "bend.skel2d @4x", &text, &manifest(), &opts);
        assert!(w.mesh_points > 1000, "the outline was compared");
    }
}

/// A naive export of a `flip-x` parent (its mirror kept in the bone) is
/// where the runtimes part: the rig the flip test stands on really has
/// rotating children under mirrored skelpad bones.
#[test]
fn the_flip_rigs_have_rotating_children_under_mirrored_bones() {
    let text =
        std::fs::read_to_string(manifest().join("tests/skf_rigs/flip_chains.skel2d")).unwrap();
    let comp = compile(&text);
    let arm = &comp.armature;
    let sk = &*arm.skeleton;
    let mut under_mirror = 0;
    for anim in 0..arm.animations.len() {
        let a = arm.animation(AnimId(anim as u32)).unwrap();
        for f in 0..=(a.duration_secs * a.fps).round() as u32 {
            let pose = evaluate(arm, Some(AnimId(anim as u32)), SkinId(0), f as f64 / a.fps);
            for (i, b) in sk.bones.iter().enumerate() {
                if let Some(p) = b.parent
                    && pose.bones[p.index()].world.determinant() < 0.0
                    && pose.bones[i].local.rotation_rad.abs() > 1e-3
                {
                    under_mirror += 1;
                }
            }
        }
    }
    assert!(under_mirror > 100, "{under_mirror}");
}

/// The flip chains play in both runtimes with their mesh bent under a mirror
/// and their switched attachment shown and hidden.
#[test]
fn flip_chains_play_alike_in_both_runtimes() {
    let text =
        std::fs::read_to_string(manifest().join("tests/skf_rigs/flip_chains.skel2d")).unwrap();
    let opts = ExportOptions::default();
    let (w, _) = prove_rusty("flip_chains.skel2d", &text, &manifest(), &opts);
    assert!(w.mesh_points > 100 && w.hidden_checks > 10 && w.shown_checks > 100, "{w:?}");
    if let Some(node) = node() {
        let w = prove_js(node, "flip_chains.skel2d", &text, &manifest(), &opts);
        assert!(w.mesh_points > 100 && w.hidden_checks > 10 && w.shown_checks > 100, "{w:?}");
    }
}

/// The IK examples and rig are written with live SkelForm IK families (so
/// the runtimes above solved them: the keys carry only the pose before IK),
/// and families SkelForm cannot play alike are baked with a warning.
#[test]
fn ik_families_are_written_live_where_they_play_alike() {
    let opts = ExportOptions::default();
    for (file, live, baked) in [
        ("examples/ik_arm.skel2d", 1, 0),
        ("examples/ik_walk.skel2d", 2, 0),
        ("tests/skf_rigs/ik.skel2d", 3, 3),
    ] {
        let path = manifest().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let e = export_script(file, &text, path.parent().unwrap(), &opts);
        let sk = &e.arm.skeleton;
        let fams = &e.file.inverse_kinematics;
        assert_eq!(fams.len(), live, "{file}");
        assert_eq!(
            e.warnings.iter().filter(|w| w.contains("is baked into the keys")).count(),
            baked,
            "{file}: {:?}",
            e.warnings
        );
        // rusty_skelform 0.8 applies IK rotations only in its physics pass.
        assert_eq!(e.file.physics.len(), 1, "{file}");
        assert!(e.file.bones.iter().all(|b| b.physics_id == -1), "{file}");
        for f in fams {
            let script = sk
                .ik
                .iter()
                .find(|s| {
                    sk.bones[s.target.index()].name == e.file.bones[f.target_id as usize].name
                })
                .unwrap();
            let names: Vec<&str> =
                f.bone_ids.iter().map(|&b| e.file.bones[b as usize].name.as_str()).collect();
            let want: Vec<&str> =
                script.bones.iter().map(|b| sk.bones[b.index()].name.as_str()).collect();
            assert_eq!(names, want, "{file}");
            assert_eq!(
                (f.mode.as_str(), f.constraint.as_str()),
                (script.mode.skf_name(), script.constraint.skf_name()),
                "{file}"
            );
            for (k, &b) in f.bone_ids.iter().enumerate() {
                let bone = &e.file.bones[b as usize];
                assert_eq!(bone.ik_family_id, f.family_id, "{file}");
                if k > 0 {
                    assert!(
                        bone.pos.y == 0.0 && bone.pos.x > 0.0,
                        "{file}: `{}` on its parent's x axis",
                        bone.name
                    );
                }
            }
        }
    }
}
