//! Opening SkelForm's own files: both real samples (third-party, read from
//! `../shared/samples/skelform/` at test time) play in skelpad's runtime as
//! in `rusty_skelform` 0.8 — every frame of every animation, every bone.
//! Bones that physics moves (and the bones below them) depend on the frames
//! played before; they are compared with `rusty_skelform` playing the
//! frames in order on one armature.

use std::path::PathBuf;

use rusty_skelform as rs;
use skelpad::formats::skf::import::{Imported, import_skf};
use skelpad::model::{AnimId, SkinId};
use skelpad::runtime::{Pose, evaluate, evaluate_into};

/// The sample folder, or `None` (with a message) when it is not there;
/// `SKELPAD_REQUIRE_SAMPLES=1` turns a missing folder into a failure.
fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/samples/skelform");
    if dir.join("_skellina.skf").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var("SKELPAD_REQUIRE_SAMPLES").as_deref() != Ok("1"),
        "SKELPAD_REQUIRE_SAMPLES=1 but {} has no samples",
        dir.display()
    );
    eprintln!("skipped: samples not found in {}", dir.display());
    None
}

const SAMPLES: [&str; 2] = ["_skellina.skf", "_skellington.skf"];

fn load(dir: &std::path::Path, name: &str) -> (Imported, rs::Armature) {
    let bytes = std::fs::read(dir.join(name)).unwrap();
    let imported = import_skf(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let theirs: rs::Armature = serde_json::from_str(&imported.file.json).unwrap();
    (imported, theirs)
}

/// Bones whose pose depends on physics: those with physics and every bone below one.
fn physics_driven(imp: &Imported) -> Vec<bool> {
    let sk = &imp.armature.skeleton;
    let mut out = vec![false; sk.bones.len()];
    for p in &sk.physics {
        if p.is_active() {
            out[p.bone.index()] = true;
        }
    }
    for i in 0..sk.bones.len() {
        if let Some(p) = sk.bones[i].parent
            && out[p.index()]
        {
            out[i] = true;
        }
    }
    out
}

fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(std::f64::consts::TAU);
    d.min(std::f64::consts::TAU - d)
}

#[derive(Default, Debug)]
struct Worst {
    pos: f64,
    rot: f64,
    at: String,
    checks: usize,
}

impl Worst {
    fn add(&mut self, label: impl Fn() -> String, ours: &Pose, theirs: &[rs::Bone], bone: usize) {
        let o = ours.skf[bone];
        let t = &theirs[bone];
        let d = (f64::from(o.x - t.pos.x)).hypot(f64::from(o.y - t.pos.y));
        let r = angle_diff(f64::from(o.rot), f64::from(t.rot));
        if d > self.pos {
            self.pos = d;
            self.at = label();
        }
        self.rot = self.rot.max(r);
        self.checks += 1;
    }
}

#[test]
fn samples_play_like_rusty_skelform_frame_by_frame() {
    let Some(dir) = samples() else { return };
    for name in SAMPLES {
        let (imp, theirs) = load(&dir, name);
        let arm = &imp.armature;
        let driven = physics_driven(&imp);
        let mut w = Worst::default();
        let mut frames = 0;
        for (ai, anim) in theirs.animations.iter().enumerate() {
            let last = anim.keyframes.iter().map(|k| k.frame).max().unwrap();
            assert_eq!(arm.animations[ai].name, anim.name);
            for frame in 0..=last {
                let mut a = theirs.clone();
                rs::animate(&mut a.bones, &mut a.inverse_kinematics, &mut a.visuals, &vec![anim], &vec![frame], &vec![0]);
                rs::construct(&mut a);
                let pose = evaluate(arm, Some(AnimId(ai as u32)), SkinId(0), f64::from(frame) / f64::from(anim.fps));
                for b in 0..a.constructed_bones.len() {
                    if !driven[b] {
                        w.add(|| format!("{} frame {frame} bone {b} ({})", anim.name, a.bones[b].name), &pose, &a.constructed_bones, b);
                    }
                }
                frames += 1;
            }
        }
        eprintln!("{name}: {frames} frames, {} bone checks, worst {:.2e} units at {}, {:.2e} rad", w.checks, w.pos, w.at, w.rot);
        assert!(w.pos <= 0.01, "{name}: {:.4} units off at {}", w.pos, w.at);
        assert!(w.checks > 1000);
    }
}

/// Whether a bone hangs below (or is part of) an IK chain.
fn under_ik(imp: &Imported, bone: usize) -> bool {
    let sk = &imp.armature.skeleton;
    let in_chain = |b: usize| sk.ik.iter().any(|f| f.bones.iter().any(|x| x.index() == b));
    let mut b = Some(bone);
    while let Some(i) = b {
        if in_chain(i) {
            return true;
        }
        b = sk.bones[i].parent.map(|p| p.index());
    }
    false
}

/// Plays every animation in order in both runtimes; the worst distance of
/// each physics-driven bone.
fn physics_worst(name: &str, imp: &Imported, theirs: &rs::Armature, arm: &skelpad::model::Armature) -> Vec<(usize, String, f64)> {
    let driven = physics_driven(imp);
    let mut out = Vec::new();
    for (ai, anim) in theirs.animations.iter().enumerate() {
        let last = anim.keyframes.iter().map(|k| k.frame).max().unwrap();
        let mut a = theirs.clone();
        let mut pose = Pose::default();
        let mut per_bone = vec![0.0f64; driven.len()];
        for frame in 0..=last {
            rs::animate(&mut a.bones, &mut a.inverse_kinematics, &mut a.visuals, &vec![anim], &vec![frame], &vec![0]);
            rs::construct(&mut a);
            let t = f64::from(frame) / f64::from(anim.fps);
            evaluate_into(&mut pose, arm, arm.animations.get(ai).map(|a| &**a), SkinId(0), t);
            // A fresh evaluation (simulating from frame 0) agrees with the cached one.
            if frame % 17 == 0 {
                let fresh = evaluate(arm, Some(AnimId(ai as u32)), SkinId(0), t);
                assert_eq!(fresh.skf, pose.skf, "{name}/{} frame {frame}: the cache changes the result", anim.name);
            }
            for b in 0..driven.len() {
                if driven[b] {
                    let o = pose.skf[b];
                    let t = &a.constructed_bones[b];
                    per_bone[b] = per_bone[b].max(f64::from(o.x - t.pos.x).hypot(f64::from(o.y - t.pos.y)));
                }
            }
        }
        for b in 0..driven.len() {
            if driven[b] {
                out.push((b, format!("{name}/{} bone {b} ({})", anim.name, a.bones[b].name), per_bone[b]));
            }
        }
    }
    out
}

/// Physics under the editor's rule (the default) matches `rusty_skelform`
/// exactly for bones outside IK chains; below an IK chain the two programs
/// feed the simulation different bones (docs/skf.md), and with
/// `PhysicsReads::RustySkelform` skelpad plays those like `rusty_skelform` too.
#[test]
fn samples_physics_plays_like_rusty_skelform_in_order() {
    let Some(dir) = samples() else { return };
    for name in SAMPLES {
        let (imp, theirs) = load(&dir, name);
        assert!(physics_driven(&imp).iter().any(|&d| d), "{name} has physics");
        for (b, label, worst) in physics_worst(name, &imp, &theirs, &imp.armature) {
            eprintln!("editor rule: {label}: worst {worst:.3e} units{}", if under_ik(&imp, b) { " (below an IK chain)" } else { "" });
            if !under_ik(&imp, b) {
                assert!(worst <= 0.01, "{label}: {worst} units off");
            }
        }
        let mut sk = (*imp.armature.skeleton).clone();
        sk.physics_reads = skelpad::model::PhysicsReads::RustySkelform;
        let arm = skelpad::model::Armature { skeleton: std::sync::Arc::new(sk), animations: imp.armature.animations.clone() };
        for (_, label, worst) in physics_worst(name, &imp, &theirs, &arm) {
            eprintln!("rusty_skelform rule: {label}: worst {worst:.3e} units");
            assert!(worst <= 0.01, "{label}: {worst} units off");
        }
    }
}
