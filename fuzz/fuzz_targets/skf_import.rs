//! Feeds arbitrary bytes to the `.skf` reader and importer (as a whole
//! file, and as `armature.json` inside a zip with a small atlas, so the JSON
//! checks are reached too). Besides panics it checks that an accepted file
//! evaluates to finite poses: the setup pose and every animation at a few
//! times (physics and IK included), and that its meshes give one position per vertex.

#![no_main]

use std::io::Write;

use libfuzzer_sys::fuzz_target;
use skelpad::formats::skf::import::import_skf;
use skelpad::model::{AnimId, AttachmentKind, SkinId};
use skelpad::runtime::{evaluate, skelform};

fn atlas() -> Vec<u8> {
    // A 4×4 transparent PNG.
    let mut out = Vec::new();
    let img = image::RgbaImage::new(4, 4);
    img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png).unwrap();
    out
}

fn check(bytes: &[u8]) {
    let Ok(imp) = import_skf(bytes) else { return };
    let arm = &imp.armature;
    let sk = &*arm.skeleton;
    for skin in 0..sk.skins.len().min(4) {
        let skin = SkinId::from_index(skin);
        let setup = evaluate(arm, None, skin, 0.0);
        assert!(setup.bones.iter().all(|b| b.world.is_finite()), "non-finite setup pose");
        for (i, anim) in arm.animations.iter().enumerate().take(4) {
            let d = anim.duration_secs.min(2.0);
            for t in [0.0, d * 0.5, d] {
                let p = evaluate(arm, Some(AnimId::from_index(i)), skin, t);
                assert!(p.bones.iter().all(|b| b.world.is_finite()), "non-finite pose at {t}");
                for s in 0..sk.slots.len() {
                    if let Some((_, att)) = p.attachment(sk, skelpad::model::SlotId::from_index(s))
                        && let AttachmentKind::Mesh(mesh) = &att.kind
                    {
                        let v = skelform::mesh_vertices(&p, sk.slots[s].bone, mesh);
                        assert_eq!(v.len(), mesh.vertices.len(), "one position per vertex");
                    }
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(data);
    let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    z.start_file("armature.json", opts).unwrap();
    z.write_all(data).unwrap();
    z.start_file("atlas0.png", opts).unwrap();
    z.write_all(&atlas()).unwrap();
    let bytes = z.finish().unwrap().into_inner();
    check(&bytes);
});
