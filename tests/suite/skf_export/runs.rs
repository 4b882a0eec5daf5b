//! The runs: every script exported, played in rusty_skelform and in
//! skelform-js, and compared with skelpad's own poses (the comparison is
//! in the parent module).

use super::*;

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
