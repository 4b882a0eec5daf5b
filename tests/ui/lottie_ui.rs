//! Export ▸ Lottie… and Export ▸ glTF… list the bones the export will bake,
//! and why, before anything is written.

use egui_kittest::kittest::Queryable;

use super::{open_sized, write};

/// A `no-rot` bone under a turning parent is baked; the dialog names it,
/// with the reason, and a plain bone is not listed.
#[test]
fn the_lottie_dialog_lists_the_bones_it_will_bake() {
    let dir = tempfile::tempdir().unwrap();
    let rig = "skeleton\n\tplain l20\n\tspin x10 l20\n\tspin.free x20 r30 l10 no-rot\nanim \"a\" 10fps\n\tspin\n\t\tr 0 -> 90\n";
    let path = write(dir.path(), "rig.skel2d", rig);
    let mut h = open_sized(&path, [1000.0, 700.0]);
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("Lottie…").click();
    h.run_steps(3);
    h.get_by_label("Export Lottie");
    h.get_by_label_contains("will be baked");
    h.get_by_label_contains("• spin.free: `no-rot`");
    assert!(h.query_by_label_contains("• plain").is_none(), "a plain bone is not baked");
    // Nothing was written.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// Export ▸ glTF… lists its baked bones the same way (its own rule: a
/// `no-rot` bone is baked, a bone under a parent that only turns is not).
#[test]
fn the_gltf_dialog_lists_the_bones_it_will_bake() {
    let dir = tempfile::tempdir().unwrap();
    let rig = "skeleton\n\tplain l20\n\tspin x10 l20\n\tspin.free x20 r30 l10 no-rot\n\tspin.kid x20 l10\nanim \"a\" 10fps\n\tspin\n\t\tr 0 -> 90\n";
    let path = write(dir.path(), "rig.skel2d", rig);
    let mut h = open_sized(&path, [1000.0, 700.0]);
    h.get_by_label("Export").click();
    h.run_steps(3);
    h.get_by_label("glTF…").click();
    h.run_steps(3);
    h.get_by_label("Export glTF");
    h.get_by_label_contains("1 bone will be baked");
    h.get_by_label_contains("• spin.free: `no-rot`");
    assert!(
        h.query_by_label_contains("• spin.kid").is_none(),
        "a turned parent's child keeps its keys"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}
