//! Export ▸ glTF…: the list of the bones the export will key from their
//! world matrices at every frame, and why ([`crate::formats::gltf::baking`]),
//! shown before anything is written (as the Lottie dialog shows its own),
//! and the export itself (as `skelpad export OUT.glb|.gltf`).

use super::export::{ExportDone, ExportError, ExportRequest, ExportResult, Progress};
use crate::formats::gltf::{Container, FilePictures, GltfOptions, baking, export_file};
use crate::model::{AnimId, Armature, SkinId};

/// The options the dialog's choice exports with.
pub fn options(arm: &Armature, anim: Option<AnimId>, skin: SkinId, one: bool) -> GltfOptions {
    let name = |id: Option<AnimId>| id.and_then(|a| arm.animation(a)).map(|a| a.name.clone());
    GltfOptions {
        anim: if one { name(anim) } else { None },
        skin: arm.skeleton.skins.get(skin.index()).map(|s| s.name.clone()),
    }
}

/// Lists the baked bones. Worked out when the dialog opens or its choice
/// changes, then kept in egui's memory while the dialog stays open.
pub fn list(ui: &mut egui::Ui, arm: &Armature, anim: Option<AnimId>, skin: SkinId, one: bool) {
    let id = egui::Id::unique(("skelpad.gltf.baking", one, anim.map(|a| a.index()), skin.index()));
    super::lottie_baking::cached(ui, id, || {
        baking(arm, &options(arm, anim, skin, one)).map_err(|e| e.to_string())
    });
}

/// The glTF export of a request: refused while the script has errors, the
/// container by the file's extension.
pub fn run(req: ExportRequest, progress: &Progress) -> ExportResult {
    if req.script_has_errors {
        return Err(ExportError::Cannot(
            "the script has errors: fix them before exporting to glTF".into(),
        ));
    }
    let ext = req.out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let container = if ext.as_deref() == Some("gltf") { Container::Gltf } else { Container::Glb };
    let opts = options(&req.armature, req.anim, req.skin, req.options.lottie_one);
    let mut pictures = FilePictures(req.image_dir.clone());
    let g = export_file(&req.armature, &opts, &mut pictures, container, &req.out, progress)?;
    Ok(ExportDone { files: vec![req.out], warnings: g.warnings })
}
