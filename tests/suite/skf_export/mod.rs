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

mod runs;

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
#[allow(
    clippy::too_many_arguments,
    reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
)]
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
