//! The Lottie, Godot and glTF export dialogs' list of the bones the export will
//! key at every frame, and why ([`crate::formats::lottie::baking`],
//! [`crate::formats::godot::baking`]), shown before anything is written.

use std::path::Path;
use std::sync::Arc;

use crate::formats::godot::{GodotOptions, Version};
use crate::formats::lottie::{FilePictures, LottieOptions, baking};
use crate::model::{AnimId, Armature, SkinId};

/// The baked bones, or why the export would be refused.
type Baked = Arc<Result<Vec<(String, String)>, String>>;

/// The options the dialog's choice exports with (as the export itself
/// builds them; a `.tgs` is sampled at 60 fps, which names the same bones).
pub fn options(arm: &Armature, anim: Option<AnimId>, skin: SkinId, one: bool) -> LottieOptions {
    let name = |id: Option<AnimId>| id.and_then(|a| arm.animation(a)).map(|a| a.name.clone());
    LottieOptions {
        anim: if one { name(anim) } else { None },
        skin: arm.skeleton.skins.get(skin.index()).map(|s| s.name.clone()),
        ..LottieOptions::default()
    }
}

/// The options the Godot dialog's choice exports with: every animation,
/// the skin shown.
pub fn godot_options(arm: &Armature, skin: SkinId, godot3: bool) -> GodotOptions {
    GodotOptions {
        version: if godot3 { Version::Godot3 } else { Version::Godot4 },
        skin: arm.skeleton.skins.get(skin.index()).map(|s| s.name.clone()),
        anim: None,
    }
}

/// Lists the bones the Lottie export bakes. Worked out when the dialog
/// opens or its choice changes, then kept in egui's memory while the
/// dialog stays open.
pub fn list(
    ui: &mut egui::Ui,
    arm: &Armature,
    anim: Option<AnimId>,
    skin: SkinId,
    one: bool,
    dir: &Path,
) {
    let id =
        egui::Id::unique(("skelpad.lottie.baking", one, anim.map(|a| a.index()), skin.index()));
    cached(ui, id, || {
        let opts = options(arm, anim, skin, one);
        let pictures = FilePictures(dir.to_path_buf());
        baking(arm, &opts, &pictures).map_err(|e| e.to_string())
    });
}

/// Lists the bones the Godot export bakes (as [`list`]).
pub fn list_godot(ui: &mut egui::Ui, arm: &Armature, skin: SkinId, godot3: bool) {
    let id = egui::Id::unique(("skelpad.godot.baking", godot3, skin.index()));
    cached(ui, id, || {
        let opts = godot_options(arm, skin, godot3);
        crate::formats::godot::baking(arm, &opts).map_err(|e| e.to_string())
    });
}

/// Shows the list `compute` makes, kept under `id` while the dialog is
/// open (the Lottie, Godot and glTF dialogs).
pub fn cached(
    ui: &mut egui::Ui,
    id: egui::Id,
    compute: impl FnOnce() -> Result<Vec<(String, String)>, String>,
) {
    let pass = ui.ctx().cumulative_pass_nr();
    let kept: Option<(u64, Baked)> = ui.data(|d| d.get_temp(id));
    let baked = match kept {
        Some((seen, b)) if seen + 1 >= pass => b,
        _ => Arc::new(compute()),
    };
    ui.data_mut(|d| d.insert_temp(id, (pass, baked.clone())));
    show(ui, &baked);
}

/// Shows a list of baked bones (or why the export would be refused).
fn show(ui: &mut egui::Ui, baked: &Result<Vec<(String, String)>, String>) {
    ui.add_space(4.0);
    match baked {
        Ok(bones) if bones.is_empty() => {
            ui.label("No bone is baked: every bone keeps its own keys.");
        }
        Ok(bones) => {
            let n = bones.len();
            ui.label(format!(
                "{n} bone{} will be baked (keyed at every frame):",
                if n == 1 { "" } else { "s" }
            ));
            egui::ScrollArea::vertical().max_height(140.0).show(ui, |ui| {
                for (bone, why) in bones {
                    ui.label(format!("• {bone}: {why}"));
                }
            });
        }
        Err(why) => {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("The export would be refused: {why}"),
            );
        }
    }
}
