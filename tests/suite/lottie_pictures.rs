//! Lottie export of pictures: SkelForm meshes (one image layer per
//! triangle, whose corners must land on skelpad's skinned vertices in
//! velato and lottie-web), slot colours on sprites (tinted copies of the
//! picture) and the baking report the editor shows before exporting.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::{Path, PathBuf};

use skelpad::formats::lottie::{
    FilePictures, LottieOptions, MemoryPictures, baking, export, to_bytes,
};
use skelpad::model::{Affine, Armature, AttachmentId, AttachmentKind, SkinId};
use skelpad::runtime::{Pose, evaluate, evaluate_into};

use crate::lottie::view_of;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The poses skelpad plays at every frame of the file, as the markers lay
/// the animations out (each animation played from its first frame, so
/// SkelForm physics runs as it does in a player, then its closing frame:
/// the pose at its end), through the file's out point.
fn poses(arm: &Armature, doc: &serde_json::Value) -> Vec<Pose> {
    let fps = doc["fr"].as_f64().unwrap();
    let mut out = Vec::new();
    for m in doc["markers"].as_array().unwrap().iter().filter(|m| m["dr"].as_f64() > Some(0.0)) {
        let anim = arm.animation_by_name(m["cm"].as_str().unwrap()).and_then(|a| arm.animation(a));
        assert_eq!(m["tm"].as_f64().unwrap() as usize, out.len());
        let mut pose = Pose::default();
        for k in 0..m["dr"].as_f64().unwrap() as usize {
            evaluate_into(&mut pose, arm, anim, SkinId(0), k as f64 / fps);
            out.push(pose.clone());
        }
        evaluate_into(&mut pose, arm, anim, SkinId(0), anim.map_or(0.0, |a| a.duration_secs));
        out.push(pose.clone());
    }
    assert_eq!(out.len(), doc["op"].as_f64().unwrap() as usize + 1);
    out
}

/// A mesh triangle's image layer: its index in the file, the corners of
/// its picture (picture pixels) and, per frame, where skelpad puts them
/// (composition pixels).
struct Triangle {
    layer: usize,
    name: String,
    corners: [[f64; 2]; 3],
    want: Vec<[[f64; 2]; 3]>,
}

fn triangles(arm: &Armature, doc: &serde_json::Value) -> Vec<Triangle> {
    let sk = &*arm.skeleton;
    let view = view_of(doc);
    let poses = poses(arm, doc);
    let layers = doc["layers"].as_array().unwrap();
    let assets = doc["assets"].as_array().unwrap();
    let mut out = Vec::new();
    for (i, l) in layers.iter().enumerate() {
        if l["ty"] != 2 {
            continue;
        }
        let name = l["nm"].as_str().unwrap();
        let Some(id) = (0..sk.attachments.len())
            .map(AttachmentId::from_index)
            .find(|&id| sk.attachment_full_name(id) == name)
        else {
            continue;
        };
        let Some(AttachmentKind::Mesh(mesh)) = sk.attachment(SkinId(0), id).map(|a| &a.kind) else {
            continue;
        };
        let parent = l["parent"].as_u64().unwrap();
        let null = layers.iter().find(|p| p["ind"].as_u64() == Some(parent)).unwrap();
        let t: usize = null["nm"]
            .as_str()
            .unwrap()
            .strip_prefix(&format!("{name} (triangle "))
            .and_then(|r| r.strip_suffix(')'))
            .unwrap()
            .parse()
            .unwrap();
        let asset = assets.iter().find(|a| a["id"] == l["refId"]).unwrap();
        let (w, h) = (asset["w"].as_f64().unwrap(), asset["h"].as_f64().unwrap());
        let idx = [0, 1, 2].map(|k| mesh.indices[3 * t + k] as usize);
        let corners = idx.map(|v| [mesh.vertices[v].u * w, mesh.vertices[v].v * h]);
        let bone = sk.attachments[id.index()].slot;
        let bone = sk.slots[bone.index()].bone;
        let want = poses
            .iter()
            .map(|pose| {
                // skelpad render's placement of a SkelForm mesh.
                let v = skelpad::runtime::skelform::mesh_vertices(pose, bone, mesh);
                idx.map(|k| {
                    let (x, y) = view.apply(v[k].0, v[k].1);
                    [x, y]
                })
            })
            .collect();
        out.push(Triangle { layer: i, name: name.to_string(), corners, want });
    }
    out
}

/// The worst distance (skelpad world units) between a triangle's corners
/// mapped by a player's layer matrices and skelpad's vertices.
fn worst_corner(tri: &Triangle, f: usize, m: [f64; 6], ppu: f64) -> f64 {
    let m = Affine::from_array(m);
    let mut worst: f64 = 0.0;
    for (c, w) in tri.corners.iter().zip(&tri.want[f]) {
        let (x, y) = m.apply(c[0], c[1]);
        worst = worst.max((x - w[0]).hypot(y - w[1]) / ppu);
    }
    worst
}

fn skellington() -> Option<(Armature, MemoryPictures)> {
    let path = manifest().join("../shared/samples/skelform/_skellington.skf");
    if !path.is_file() {
        assert!(
            std::env::var("SKELPAD_REQUIRE_SAMPLES").as_deref() != Ok("1"),
            "samples not found"
        );
        eprintln!("SKIPPED: the SkelForm samples are not in ../shared/samples");
        return None;
    }
    let imp = skelpad::formats::skf::import::import_path(&path).unwrap();
    let pictures = MemoryPictures::from_skf(&imp, path.parent().unwrap().to_path_buf());
    Some((imp.armature, pictures))
}

/// Every triangle of the sample's meshes (bound to several bones) is an
/// image layer whose picture corners land, in velato, on skelpad's skinned
/// vertices at every frame within 1e-3 units.
#[test]
fn velato_puts_mesh_triangles_on_skelpads_skinned_vertices() {
    let Some((arm, mut pictures)) = skellington() else { return };
    let lottie = export(&arm, &LottieOptions::default(), &mut pictures).unwrap();
    assert!(!lottie.warnings.iter().any(|w| w.contains("mesh")), "{:?}", lottie.warnings);
    let tris = triangles(&arm, &lottie.json);
    let sk = &*arm.skeleton;
    let meshes: usize = (0..sk.attachments.len())
        .filter_map(|i| {
            match sk.attachment(SkinId(0), AttachmentId::from_index(i)).map(|a| &a.kind) {
                Some(AttachmentKind::Mesh(m)) => Some(m.indices.len() / 3),
                _ => None,
            }
        })
        .sum();
    assert!(meshes > 50 && tris.len() == meshes, "{} of {meshes}", tris.len());
    let comp: velato::Composition =
        String::from_utf8(to_bytes(&lottie.json).unwrap()).unwrap().parse().unwrap();
    let ppu = view_of(&lottie.json).to_array()[0].abs();
    let mut worst: f64 = 0.0;
    for tri in &tris {
        assert!(!comp.layers[tri.layer].masks.is_empty(), "{}: its mask", tri.name);
        for f in 0..tri.want.len() {
            let mut world = comp.layers[tri.layer].transform.evaluate(f as f64).into_owned();
            let mut parent = comp.layers[tri.layer].parent;
            while let Some(p) = parent {
                world = comp.layers[p].transform.evaluate(f as f64).into_owned() * world;
                parent = comp.layers[p].parent;
            }
            let e = worst_corner(tri, f, world.as_coeffs(), ppu);
            assert!(e <= 1e-3, "{} at frame {f}: velato is off by {e}", tri.name);
            worst = worst.max(e);
        }
    }
    eprintln!("velato: {} mesh triangles, worst corner {worst:.2e}", tris.len());
}

/// The same in lottie-web (when installed; `SKELPAD_REQUIRE_NODE=1`
/// makes it required), within 1e-3 plus what lottie-web's own update
/// threshold allows (below).
#[test]
fn lottie_web_puts_mesh_triangles_on_skelpads_skinned_vertices() {
    let dir = std::env::var_os("SKELPAD_LOTTIE_WEB_DIR").map(PathBuf::from).or_else(|| {
        std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/skelpad-lottie-web"))
    });
    let dir = dir.filter(|d| d.join("node_modules/lottie-web").is_dir());
    let Some(dir) = dir else {
        assert!(std::env::var("SKELPAD_REQUIRE_NODE").as_deref() != Ok("1"), "no lottie-web");
        eprintln!("SKIPPED: lottie-web is not installed (see .ci/run)");
        return;
    };
    let Some((arm, mut pictures)) = skellington() else { return };
    let lottie = export(&arm, &LottieOptions::default(), &mut pictures).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("anim.json");
    std::fs::write(&file, to_bytes(&lottie.json).unwrap()).unwrap();
    let out = std::process::Command::new("node")
        .arg(manifest().join("tests/lottie-web/play.js"))
        .arg(&file)
        .env("SKELPAD_LOTTIE_WEB_DIR", &dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let played: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let indices: Vec<usize> =
        played["layers"].as_array().unwrap().iter().map(|i| i.as_u64().unwrap() as usize).collect();
    let tris = triangles(&arm, &lottie.json);
    let ppu = view_of(&lottie.json).to_array()[0].abs();
    let (mut worst, mut beyond): (f64, usize) = (0.0, 0);
    for (f, frame) in played["frames"].as_array().unwrap().iter().enumerate() {
        let frame = frame.as_array().unwrap();
        for tri in &tris {
            let at = indices.iter().position(|&i| i == tri.layer).unwrap();
            let g: Vec<f64> =
                frame[at].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            let e = worst_corner(tri, f, [g[0], g[1], g[2], g[3], g[4], g[5]], ppu);
            // lottie-web skips a change of a property under 1e-5 (its
            // `setVValue`): a turn creeping slowly lags by up to 1e-5 rad,
            // which moves a corner 1e-5 of its distance from the turn's
            // centre, for each of the two turns of a triangle.
            let c = tri.want[f];
            let mid = [(c[0][0] + c[1][0] + c[2][0]) / 3.0, (c[0][1] + c[1][1] + c[2][1]) / 3.0];
            let radius = c.iter().map(|p| (p[0] - mid[0]).hypot(p[1] - mid[1]) / ppu);
            let bound = 1e-3 + 2e-5 * radius.fold(0.0, f64::max);
            assert!(e <= bound, "{} at frame {f}: lottie-web is off by {e} (> {bound})", tri.name);
            worst = worst.max(e);
            beyond += usize::from(e > 1e-3);
        }
    }
    eprintln!(
        "lottie-web: {} mesh triangles, worst corner {worst:.2e}, {beyond} corner-frames over 1e-3",
        tris.len()
    );
}

fn png(w: u32, h: u32, px: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    let img = image::RgbaImage::from_fn(w, h, |x, y| image::Rgba(px(x, y)));
    let mut buf = std::io::Cursor::new(Vec::new());
    img.write_to(&mut buf, image::ImageFormat::Png).unwrap();
    buf.into_inner()
}

fn decode_asset(asset: &serde_json::Value) -> image::RgbaImage {
    use base64::Engine;
    let uri = asset["p"].as_str().unwrap();
    let data = uri.split_once(";base64,").unwrap().1;
    let bytes = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
    image::load_from_memory(&bytes).unwrap().to_rgba8()
}

/// A sprite whose slot colour changes: at every frame velato shows exactly
/// one copy of it, whose picture is the original times the slot colour's
/// red, green and blue (as bytes, rounded, as `skelpad render` tints) and
/// whose opacity is the slot's alpha.
#[test]
fn a_slot_colour_tints_a_sprite_in_velato() {
    let tmp = tempfile::tempdir().unwrap();
    let original = |x: u32, y: u32| [200, (x * 60) as u8, (y * 100) as u8, 255 - (x * 20) as u8];
    std::fs::write(tmp.path().join("p.png"), png(4, 2, original)).unwrap();
    let text = "skeleton\n\tb l10\n\t\t@ #FFF :sprite \"p.png\"\nanim \"c\" 4fps\n\t@b :4:\n\t\tc #FFFFFF -> #FF8000 -> #4080FF,0.5\n";
    let comp = skelpad::check::expect::compile_checked(text);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    let arm = comp.armature;
    let mut pictures = FilePictures(tmp.path().to_path_buf());
    let lottie =
        export(&arm, &LottieOptions { decimals: Some(9), ..Default::default() }, &mut pictures)
            .unwrap();
    assert!(!lottie.warnings.iter().any(|w| w.contains("colour")), "{:?}", lottie.warnings);
    let doc = &lottie.json;
    let velato: velato::Composition =
        String::from_utf8(to_bytes(doc).unwrap()).unwrap().parse().unwrap();
    let fps = doc["fr"].as_f64().unwrap();
    let mut colours = std::collections::HashSet::new();
    for f in 0..doc["op"].as_f64().unwrap() as usize {
        let pose = evaluate(&arm, arm.animation_by_name("c"), SkinId(0), f as f64 / fps);
        let c = pose.slots[0].color;
        let shown: Vec<(usize, f64)> = velato
            .layers
            .iter()
            .enumerate()
            .filter_map(|(i, l)| match &l.content {
                velato::model::Content::Image { .. } => {
                    let o = l.opacity.evaluate(f as f64);
                    (o > 0.0).then_some((i, o))
                }
                _ => None,
            })
            .collect();
        assert_eq!(shown.len(), 1, "frame {f}: one copy shows");
        let (i, opacity) = shown[0];
        assert!((opacity - c.a * 100.0).abs() < 1e-6, "frame {f}: {opacity} vs {}", c.a);
        let asset =
            doc["assets"].as_array().unwrap().iter().find(|a| a["id"] == doc["layers"][i]["refId"]);
        let got = decode_asset(asset.unwrap());
        let rgb = [c.r, c.g, c.b].map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as u32);
        colours.insert(rgb);
        for (x, y, px) in got.enumerate_pixels() {
            let o = original(x, y);
            let want = [0, 1, 2].map(|k| ((u32::from(o[k]) * rgb[k] + 127) / 255) as u8);
            assert_eq!(px.0[..3], want, "frame {f} pixel {x},{y}");
            assert_eq!(px.0[3], o[3]);
        }
    }
    assert!(colours.len() >= 3, "{colours:?}");
}

/// The editor's list of baked bones is the export's, without writing: the
/// Lottie rig bakes its flipped, no-rot, no-scale and IK bones.
#[test]
fn the_baking_report_names_what_the_export_bakes() {
    let mut checked = 0;
    for dir in ["examples", "tests/lottie_rigs"] {
        for e in std::fs::read_dir(manifest().join(dir)).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_none_or(|x| x != "skel2d") {
                continue;
            }
            let comp =
                skelpad::check::expect::compile_checked(&std::fs::read_to_string(&path).unwrap());
            let folder: &Path = path.parent().unwrap();
            let opts = LottieOptions::default();
            let report =
                baking(&comp.armature, &opts, &FilePictures(folder.to_path_buf())).unwrap();
            let mut pictures = FilePictures(folder.to_path_buf());
            let done = export(&comp.armature, &opts, &mut pictures).unwrap();
            assert_eq!(report, done.baked, "{}", path.display());
            checked += report.len();
            if path.ends_with("baking.skel2d") {
                for (bone, word) in [
                    ("mx", "flip"),
                    ("spin.free", "no-rot"),
                    ("spin.flat", "no-scale"),
                    ("arm.up.low", "inverse kinematics"),
                ] {
                    assert!(
                        report.iter().any(|(b, r)| b.starts_with(bone) && r.contains(word)),
                        "{bone}: {word} in {report:?}"
                    );
                }
            }
        }
    }
    assert!(checked >= 5, "{checked}");
}

/// A slot colour animated through more than 8 colours keeps only its alpha
/// on a sprite (one copy, the picture as it is), with a warning saying so.
#[test]
fn a_slot_colour_of_many_colours_keeps_its_alpha_with_a_warning() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("p.png"), png(2, 2, |_, _| [10, 20, 30, 255])).unwrap();
    let text = "skeleton\n\tb l10\n\t\t@ #FFF :sprite \"p.png\"\nanim \"c\" 30fps\n\t@b :30:\n\t\tc #FFFFFF,1 -> #000000,0.5\n";
    let comp = skelpad::check::expect::compile_checked(text);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    let mut pictures = FilePictures(tmp.path().to_path_buf());
    let lottie = export(&comp.armature, &LottieOptions::default(), &mut pictures).unwrap();
    assert!(
        lottie.warnings.iter().any(|w| w.contains("colours") && w.contains("alpha is kept")),
        "{:?}",
        lottie.warnings
    );
    let images: Vec<&serde_json::Value> =
        lottie.json["layers"].as_array().unwrap().iter().filter(|l| l["ty"] == 2).collect();
    assert_eq!(images.len(), 1);
    let asset = &lottie.json["assets"][0];
    assert_eq!(decode_asset(asset).get_pixel(0, 0).0, [10, 20, 30, 255]);
    // The opacity still follows the alpha: 100 at the first frame, less later.
    let o = &images[0]["ks"]["o"];
    assert_eq!(o["a"], 1, "{o}");
    assert_eq!(o["k"][0]["s"][0].as_f64(), Some(100.0));
}

/// Animations of different rates in one file: the file's rate is their
/// least common multiple, so each animation's own frames are file frames,
/// and velato shows skelpad's pose at each of them (at the animation's own
/// time `k / own fps`).
#[test]
fn animations_of_different_rates_keep_their_own_frames() {
    let text = "skeleton\n\tarm l10\nanim \"slow\" 12fps\n\tarm\n\t\tr 0 12:> 90\nanim \"fast\" 30fps\n\tarm\n\t\tx 0 15:> 40\n";
    let comp = skelpad::check::expect::compile_checked(text);
    assert!(comp.diagnostics.is_empty(), "{:?}", comp.diagnostics);
    let arm = comp.armature;
    let dir = tempfile::tempdir().unwrap();
    let mut pictures = FilePictures(dir.path().to_path_buf());
    let lottie =
        export(&arm, &LottieOptions { decimals: Some(9), ..Default::default() }, &mut pictures)
            .unwrap();
    let doc = &lottie.json;
    assert_eq!(doc["fr"].as_f64(), Some(60.0));
    assert!(!lottie.warnings.iter().any(|w| w.contains("fps")), "{:?}", lottie.warnings);
    let velato: velato::Composition =
        String::from_utf8(to_bytes(doc).unwrap()).unwrap().parse().unwrap();
    let view = view_of(doc);
    let layer = doc["layers"].as_array().unwrap().len() - 1;
    let mut checked = 0;
    for m in doc["markers"].as_array().unwrap() {
        let name = m["cm"].as_str().unwrap();
        let anim = arm.animation_by_name(name);
        let own = arm.animation(anim.unwrap()).unwrap().fps;
        let (tm, dr) = (m["tm"].as_f64().unwrap(), m["dr"].as_f64().unwrap());
        // Each of the animation's own frames k is file frame tm + k·(60 / own).
        let step = 60.0 / own;
        let mut k = 0.0;
        while k * step < dr {
            let f = tm + k * step;
            assert_eq!(f, f.round(), "{name} frame {k} is a file frame");
            let pose = evaluate(&arm, anim, SkinId(0), k / own);
            let want = (view * pose.bones[0].world * Affine::scale(1.0, -1.0)).to_array();
            let got = velato.layers[layer].transform.evaluate(f).into_owned().as_coeffs();
            let e = got.iter().zip(&want).map(|(g, w)| (g - w).abs()).fold(0.0, f64::max);
            assert!(e <= 1e-6, "{name} own frame {k}: {got:?} vs {want:?}");
            k += 1.0;
            checked += 1;
        }
    }
    assert_eq!(checked, 12 + 15, "every own frame of both");
}
