//! Proof that SkelForm's own runtime plays skelpad's exports as skelpad does.
//!
//! Every script (the examples, the conformance scripts, the rigs in
//! `tests/skf_rigs/` and a generated rig) is exported; `rusty_skelform`
//! loads the armature and, for every frame of every animation, runs
//! `animate` + `construct`. Each bone's world position and rotation is
//! compared with skelpad's runtime at `frame / fps`; so are the helper bones
//! that carry pictures, the tints, the texture keyframes, and the outlines of
//! meshes. The worst errors per file are printed (`--nocapture`).

use std::path::{Path, PathBuf};

use rusty_skelform as rs;
use skelpad::compile::compile;
use skelpad::formats::skf::export::ExportOptions;
use skelpad::formats::skf::pictures::RenderedPictures;
use skelpad::formats::skf::read::read_skf;
use skelpad::formats::skf::write::{build, to_zip};
use skelpad::formats::skf::{SkfArmature, element};
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
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap(), dir.to_path_buf()))
        .collect();
    out.sort();
    out
}

fn all_scripts() -> Vec<(String, String, PathBuf)> {
    let root = manifest();
    let mut v = scripts_in(&root.join("examples"));
    v.extend(scripts_in(&root.join("../shared/conformance")));
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
}

fn axis_angle(x: f64, y: f64) -> Option<f64> {
    (x.hypot(y) > 1e-9).then(|| y.atan2(x))
}

fn wrap(a: f64) -> f64 {
    let r = a.rem_euclid(std::f64::consts::TAU);
    if r > std::f64::consts::PI { r - std::f64::consts::TAU } else { r }
}

/// World matrix of a constructed SkelForm bone.
fn skf_matrix(b: &rs::Bone) -> Affine {
    Affine::trs(b.pos.x as f64, b.pos.y as f64, b.rot as f64, b.scale.x as f64, b.scale.y as f64)
}

/// (position error, rotation error) between two world matrices; rotation
/// compares the directions of both axes (`both`) or of the x axis only (a
/// picture on a skewing bone keeps its x axis; SkelForm cannot skew).
fn errors(want: Affine, got: Affine, both: bool) -> (f64, f64) {
    let pos = (want.e - got.e).hypot(want.f - got.f);
    let mut rot: f64 = 0.0;
    let axes = [(axis_angle(want.a, want.b), axis_angle(got.a, got.b)), (axis_angle(want.c, want.d), axis_angle(got.c, got.d))];
    for (w, g) in &axes[..if both { 2 } else { 1 }] {
        if let (Some(w), Some(g)) = (*w, *g) {
            rot = rot.max(wrap(w - g).abs());
        }
    }
    (pos, rot)
}

/// What skelpad says a SkelForm bone's world must be, by the bone's name.
fn expected(sk: &Skeleton, pose: &Pose, names: &[String], name: &str) -> Option<(Affine, bool)> {
    if let Some(b) = sk.bone_by_name(name) {
        return Some((pose.bones[b.index()].world, true));
    }
    let rest = name.strip_prefix('@')?;
    if rest.contains('~') || rest.contains('>') {
        return None;
    }
    let (slot_name, att) = match rest.split_once('[') {
        Some((s, a)) => (s, Some(a.trim_end_matches(']'))),
        None => (rest, None),
    };
    let slot = sk.slot_by_name(slot_name)?;
    let bone_world = pose.bones[sk.slot(slot).bone.index()].world;
    let att_id = match att {
        Some(a) => sk.find_attachment(slot, a)?,
        None => {
            // The slot's picture helper shows what the slot shows, unless it
            // is a mesh (its own helper) or draws nothing.
            let shown = pose.slots[slot.index()].attachment?;
            let short = &sk.attachments[shown.index()].name;
            if names.iter().any(|n| *n == format!("@{slot_name}[{short}]")) {
                return None;
            }
            shown
        }
    };
    let a = sk.attachment(SkinId(0), att_id)?;
    if matches!(a.kind, AttachmentKind::None) {
        return None;
    }
    Some((bone_world * a.transform.matrix(), false))
}

/// Texture a helper shows at a frame according to the planned `Texture` keys
/// (`None`: the setup pose).
fn texture_at(a: &SkfArmature, anim: Option<usize>, bone: u32, frame: u32) -> String {
    let vis = &a.visuals[a.bones[bone as usize].visuals_id as usize];
    let mut tex = vis.init_tex.clone();
    let Some(anim) = anim else { return tex };
    for kf in &a.animations[anim].keyframes {
        if kf.frame > frame {
            break;
        }
        if kf.bone_id == bone && kf.element == element::TEXTURE {
            tex = kf.value_str.clone();
        }
    }
    tex
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
            out.push(ctrl.iter().zip(&w).fold((0.0, 0.0), |acc, (p, w)| (acc.0 + p.0 * w, acc.1 + p.1 * w)));
        }
        prev = match *seg {
            PathSegment::LineTo(p) | PathSegment::QuadTo(_, p) | PathSegment::CubicTo(_, _, p) => p,
        };
    }
    out
}

/// Maps a point through a deformed mesh: find its triangle in the setup mesh,
/// apply its barycentric coordinates to the deformed one.
fn through_mesh(q: (f64, f64), setup: &[(f64, f64)], now: &[(f64, f64)], indices: &[u32]) -> Option<(f64, f64)> {
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

    Some((l[0] * now[a].0 + l[1] * now[b].0 + l[2] * now[c].0, l[0] * now[a].1 + l[1] * now[b].1 + l[2] * now[c].1))
}

fn verts(v: &rs::Visuals) -> Vec<(f64, f64)> {
    v.vertices.iter().map(|v| (v.pos.x as f64, v.pos.y as f64)).collect()
}

/// Compares one constructed SkelForm armature with skelpad's pose.
#[allow(clippy::too_many_arguments)]
fn compare(
    w: &mut Worst,
    label: &str,
    sk: &Skeleton,
    a: &rs::Armature,
    setup_arm: &rs::Armature,
    pose: &Pose,
    names: &[String],
    k: f64,
    tex_at: &dyn Fn(u32) -> String,
) {
    w.frames += 1;
    for bone in &a.constructed_bones {
        let Some((want, real)) = expected(sk, pose, names, &bone.name) else { continue };
        let got = skf_matrix(bone);
        let (pe, re) = errors(want, got, real);
        w.bones_checked += 1;
        w.pos = w.pos.max(pe);
        w.rot = w.rot.max(re);
        if real {
            // The whole linear part (scale and mirroring too).
            let lin = [want.a - got.a, want.b - got.b, want.c - got.c, want.d - got.d];
            let size = want.a.abs().max(want.b.abs()).max(want.c.abs()).max(want.d.abs()).max(1.0);
            w.linear = w.linear.max(lin.iter().fold(0.0f64, |m, x| m.max(x.abs())) / size);
        }
        assert!(
            pe <= MAX_POS && re <= MAX_ROT,
            "{label}: bone `{}` off by {pe:.2e} units, {re:.2e} rad\nwant {want:?}\ngot {got:?}",
            bone.name
        );
        if bone.visuals_id < 0 {
            continue;
        }
        let vis = &a.visuals[bone.visuals_id as usize];
        // Tint = slot color.
        let slot_name = bone.name.trim_start_matches('@').split('[').next().unwrap_or_default();
        if let Some(slot) = sk.slot_by_name(slot_name) {
            let c = pose.slots[slot.index()].color;
            let t = [vis.tint.r, vis.tint.g, vis.tint.b, vis.tint.a];
            for (x, y) in t.iter().zip(c.to_array()) {
                w.tint = w.tint.max((*x as f64 - y).abs());
            }
            // Texture keyframes follow the shown attachment.
            let shown = pose.slots[slot.index()]
                .attachment
                .filter(|&s| sk.attachment(SkinId(0), s).is_some_and(|x| !matches!(x.kind, AttachmentKind::None)));
            let want_tex = match bone.name.split_once('[') {
                Some((_, att)) => {
                    let att = sk.find_attachment(slot, att.trim_end_matches(']'));
                    if shown.is_some() && shown == att {
                        att.map(|a| sk.attachment_full_name(a)).unwrap_or_default()
                    } else {
                        String::new()
                    }
                }
                None => shown
                    .filter(|s| !names.contains(&format!("@{slot_name}[{}]", sk.attachments[s.index()].name)))
                    .map(|s| sk.attachment_full_name(s))
                    .unwrap_or_default(),
            };
            assert_eq!(tex_at(bone.id), want_tex, "{label}: texture of `{}`", bone.name);
            // Mesh outlines follow skelpad's bent path.
            if !vis.vertices.is_empty() {
                let (_, att_name) = bone.name.split_once('[').unwrap();
                let att_id = sk.find_attachment(slot, att_name.trim_end_matches(']')).unwrap();
                let att = sk.attachment(SkinId(0), att_id).unwrap();
                let AttachmentKind::Path { path, .. } = &att.kind else { panic!("mesh of a non-path") };
                let setup_pose = Pose::setup(sk);
                let slot_bone = sk.slot(slot).bone;
                let m = att.transform.matrix();
                let q0 = path_samples(path, &|p| path_point(&setup_pose, setup_pose.bones[slot_bone.index()].world, m, p));
                let qf = path_samples(path, &|p| path_point(pose, pose.bones[slot_bone.index()].world, m, p));
                let setup_v = verts(&setup_arm.visuals[bone.visuals_id as usize]);
                let now_v = verts(vis);
                for (p0, pf) in q0.iter().zip(&qf) {
                    let mapped = through_mesh(*p0, &setup_v, &now_v, &vis.indices)
                        .unwrap_or_else(|| panic!("{label}: outline point {p0:?} outside the mesh of `{}`", bone.name));
                    let err = (mapped.0 - pf.0).hypot(mapped.1 - pf.1);
                    w.mesh = w.mesh.max(err * k);
                }
            }
        }
    }
}

/// The folder to read a script's sprite images from: its own, or, when some
/// are missing (the conformance scripts name images they do not ship), a
/// temporary folder with small made-up pictures under those names.
fn with_sprites(name: &str, arm: &Armature, dir: &Path) -> PathBuf {
    let names: Vec<&str> = arm
        .skeleton
        .skins
        .iter()
        .flat_map(|s| s.attachments.iter())
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
            image::Rgba([(40 * x) as u8, (60 * y) as u8, 200, if (x + y) % 2 == 0 { 255 } else { 128 }])
        });
        img.save(&path).unwrap();
    }
    tmp
}

/// Exports a script to `.skf` bytes (pictures from the renderer), reads the
/// file back, and plays it in `rusty_skelform`.
fn prove(name: &str, text: &str, dir: &Path, opts: &ExportOptions) -> Worst {
    let comp = compile(text);
    prove_armature(name, &comp.armature, dir, opts)
}

/// [`prove`] for an armature from anywhere (imports).
fn prove_armature(name: &str, arm: &Armature, dir: &Path, opts: &ExportOptions) -> Worst {
    let sk = &*arm.skeleton;
    let dir = with_sprites(name, arm, dir);
    let mut pictures = RenderedPictures::new(arm, &dir);
    let export = build(arm, opts, &mut pictures, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{name}: {e}"));
    let warnings = export.warnings.clone();
    let bytes = to_zip(&export).unwrap();
    let file = read_skf(&bytes).unwrap_or_else(|e| panic!("{name}: the reader rejects the export:\n{e}"));
    let ours = file.armature;
    let theirs: rs::Armature = serde_json::from_str(&file.json).unwrap_or_else(|e| panic!("{name}: rusty_skelform cannot load it: {e}"));
    let names: Vec<String> = theirs.bones.iter().map(|b| b.name.clone()).collect();
    let k = opts.pixels_per_unit;
    let mut w = Worst::default();
    // The setup mesh, for mapping outline points.
    let mut setup_arm = theirs.clone();
    rs::construct(&mut setup_arm);
    compare(&mut w, &format!("{name}/setup"), sk, &setup_arm, &setup_arm, &Pose::setup(sk), &names, k, &|bone| {
        texture_at(&ours, None, bone, 0)
    });
    for (ai, anim) in theirs.animations.iter().enumerate() {
        let id = arm.animation_by_name(&anim.name).unwrap_or_else(|| panic!("{name}: animation `{}` not in the script", anim.name));
        assert_eq!(anim.keyframes.iter().map(|k| k.frame).max(), anim.keyframes.last().map(|k| k.frame), "{name}: keyframes sorted");
        let last = anim.keyframes.last().expect("an end keyframe").frame;
        let skel_anim = arm.animation(id).unwrap();
        assert!(last as f64 >= skel_anim.duration_secs * anim.fps as f64 - 1e-6, "{name}/{}: the animation is cut short", anim.name);
        for frame in 0..=last {
            let mut a = theirs.clone();
            rs::animate(&mut a.bones, &mut a.inverse_kinematics, &mut a.visuals, &vec![anim], &vec![frame], &vec![0]);
            rs::construct(&mut a);
            let pose = evaluate(arm, Some(id), SkinId(0), frame as f64 / anim.fps as f64);
            let label = format!("{name}/{} frame {frame}", anim.name);
            compare(&mut w, &label, sk, &a, &setup_arm, &pose, &names, k, &|bone| texture_at(&ours, Some(ai), bone, frame));
        }
    }
    assert!(w.tint <= 1e-3, "{name}: tint off by {}", w.tint);
    assert!(w.linear <= 1e-4, "{name}: scale/mirroring off by {}", w.linear);
    assert!(w.mesh <= 1.0, "{name}: a mesh outline is {} pixels off", w.mesh);
    eprintln!(
        "{name:>28}: worst {:.2e} units, {:.2e} rad, linear {:.1e}, tint {:.1e}, mesh {:.2} px ({} frames, {} bone checks, {} warnings)",
        w.pos,
        w.rot,
        w.linear,
        w.tint,
        w.mesh,
        w.frames,
        w.bones_checked,
        warnings.len()
    );
    for warning in &warnings {
        eprintln!("{:>30}{warning}", "");
    }
    w
}

#[test]
fn rusty_skelform_plays_every_export_like_skelpad() {
    let opts = ExportOptions::default();
    let mut checked = 0;
    for (name, text, dir) in all_scripts() {
        let w = prove(&name, &text, &dir, &opts);
        checked += w.bones_checked;
    }
    assert!(checked > 10_000, "{checked}");
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
        eprintln!("skipped the samples: samples not found ({})", samples.display());
    }
    files.sort();
    for f in files {
        let file = skelpad::formats::spriter::load(&f).unwrap();
        let dir = f.parent().unwrap();
        for e in &file.entities {
            let (arm, _) = skelpad::formats::spriter::center_pictures(&e.armature, dir);
            let name = format!("{}:{}", f.file_name().unwrap().to_string_lossy(), e.name);
            prove_armature(&name, &arm, dir, &ExportOptions::default());
        }
    }
}

#[test]
fn meshes_bend_with_their_bones_at_a_higher_scale_too() {
    let text = std::fs::read_to_string(manifest().join("tests/skf_rigs/bend.skel2d")).unwrap();
    let w = prove("bend.skel2d @4x", &text, &manifest(), &ExportOptions { pixels_per_unit: 4.0, ..Default::default() });
    assert!(w.mesh > 0.0, "the outline was compared");
}
