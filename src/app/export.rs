//! Exports from the editor: what can be exported, the settings the user
//! picks, and the worker thread that does the work while the UI keeps
//! running and shows its progress.
//!
//! The kinds (`ExportKind`): PNG frame, PNG sequence, sprite sheet and GIF
//! through `formats::frames`; SkelForm `.skf` through
//! `formats::skf::write::export_file`, refused while the script has errors
//! (as `skelpad export` does); Lottie through `formats::lottie`, the container
//! by the chosen file's extension, with the list of baked bones in the
//! dialog (`lottie_baking`, worked out when it opens); glTF through
//! `formats::gltf` likewise (`gltf_baking`). `ExportJob` runs on a
//! worker thread and shares its progress and stage with the status bar; each
//! report wakes the UI (`Context::request_repaint` from the worker), every
//! kind can be cancelled (`ExportError::Cancelled`), and warnings show on
//! hovering the result.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError, channel};

use eframe::egui;

pub use crate::formats::export::{ExportError, Progress};
use crate::formats::frames;
use crate::model::{AnimId, Armature, SkinId};
use crate::render::RenderCache;
use crate::render::frames::{FrameRenderer, Framing, Settings};

/// What the editor exports. A new format plugs in here: one more variant,
/// its menu label, title and extension, its options in
/// [`ExportChoices::ui`], and its arm in [`ExportRequest::run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    /// The frame under the playhead, as one PNG.
    Png,
    /// Every frame of the animation, as numbered PNGs.
    Sequence,
    /// Every frame in one PNG grid, with a JSON of frame rectangles.
    SpriteSheet,
    /// The animation as a looping GIF.
    Gif,
    /// The rig, its pictures and animations for SkelForm's runtimes.
    Skf,
    /// Lottie JSON (`.json`; `.lottie` and `.tgs` by the chosen name).
    Lottie,
    /// A Godot scene (`.tscn`), its pictures and event script beside it.
    Godot,
    /// glTF 2.0 (`.glb`; `.gltf` by the chosen name).
    Gltf,
}

impl ExportKind {
    /// Whether the export stops when cancelled, writing nothing: every kind
    /// does (frame exports at the next frame, a single PNG before it is
    /// written, `.skf` at the next animation, picture or before writing,
    /// Lottie before writing).
    pub fn can_cancel(self) -> bool {
        true
    }

    /// Every kind, in menu order.
    pub const ALL: [ExportKind; 8] = [
        ExportKind::Png,
        ExportKind::Sequence,
        ExportKind::SpriteSheet,
        ExportKind::Gif,
        ExportKind::Skf,
        ExportKind::Lottie,
        ExportKind::Godot,
        ExportKind::Gltf,
    ];

    /// The entry in the Export menu.
    pub fn menu_label(self) -> &'static str {
        match self {
            ExportKind::Png => "PNG of this frame…",
            ExportKind::Sequence => "PNG sequence…",
            ExportKind::SpriteSheet => "Sprite sheet…",
            ExportKind::Gif => "Animated GIF…",
            ExportKind::Skf => "SkelForm (.skf)…",
            ExportKind::Lottie => "Lottie…",
            ExportKind::Godot => "Godot scene…",
            ExportKind::Gltf => "glTF…",
        }
    }

    /// The title of its dialogs ("Export GIF").
    pub fn title(self) -> &'static str {
        match self {
            ExportKind::Png => "Export PNG",
            ExportKind::Sequence => "Export PNG sequence",
            ExportKind::SpriteSheet => "Export sprite sheet",
            ExportKind::Gif => "Export GIF",
            ExportKind::Skf => "Export SkelForm",
            ExportKind::Lottie => "Export Lottie",
            ExportKind::Godot => "Export Godot scene",
            ExportKind::Gltf => "Export glTF",
        }
    }

    /// The file extension it writes, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ExportKind::Png | ExportKind::Sequence | ExportKind::SpriteSheet => "png",
            ExportKind::Gif => "gif",
            ExportKind::Skf => "skf",
            ExportKind::Lottie => "json",
            ExportKind::Godot => "tscn",
            ExportKind::Gltf => "glb",
        }
    }

    /// Whether it needs an animation.
    pub fn needs_animation(self) -> bool {
        !matches!(
            self,
            ExportKind::Png
                | ExportKind::Skf
                | ExportKind::Lottie
                | ExportKind::Godot
                | ExportKind::Gltf
        )
    }
}

/// The choices of the export dialog; kept between exports.
#[derive(Clone, Debug, PartialEq)]
pub struct ExportChoices {
    /// Picture width in pixels.
    pub width: u32,
    /// Picture height in pixels.
    pub height: u32,
    /// Fit the whole animation (else: the canvas's zoom, origin centered).
    pub fit: bool,
    /// A transparent background (else `background`).
    pub transparent: bool,
    /// The background color when not transparent.
    pub background: egui::Color32,
    /// Draw the bone overlay too.
    pub bones: bool,
    /// `.skf`: texture pixels per world unit of the rasterized shapes.
    pub skf_scale: f64,
    /// Lottie and glTF: only the animation shown (else every one).
    pub lottie_one: bool,
    /// Godot: a scene for Godot 3 (else Godot 4).
    pub godot3: bool,
    /// Lottie: the decimals numbers are written with (`None`: enough for
    /// the file's scale, as `skelpad export` without `--decimals`).
    pub lottie_decimals: Option<u32>,
    /// Lottie: leave out `metadata.skelpad` (`--no-metadata`).
    pub lottie_no_metadata: bool,
}

impl Default for ExportChoices {
    fn default() -> Self {
        ExportChoices {
            width: 512,
            height: 512,
            fit: true,
            transparent: true,
            background: egui::Color32::WHITE,
            bones: false,
            skf_scale: 1.0,
            lottie_one: false,
            godot3: false,
            lottie_decimals: None,
            lottie_no_metadata: false,
        }
    }
}

/// The file name the save dialog suggests for an export: the script's
/// name (`untitled` before it is saved), with the animation's when the
/// export holds that one animation only (a GIF, frames, a sheet; Lottie
/// and glTF with "only the animation shown") and it is not the script's
/// name already; then the kind's extension.
pub fn suggested_name(
    stem: Option<&str>,
    kind: ExportKind,
    anim: Option<&str>,
    one: bool,
) -> String {
    let stem = stem.unwrap_or("untitled");
    let single = match kind {
        ExportKind::Png | ExportKind::Skf | ExportKind::Godot => false,
        ExportKind::Lottie | ExportKind::Gltf => one,
        ExportKind::Gif | ExportKind::Sequence | ExportKind::SpriteSheet => true,
    };
    match anim {
        Some(a) if single && a != stem => format!("{stem}-{a}.{}", kind.extension()),
        _ => format!("{stem}.{}", kind.extension()),
    }
}

impl ExportChoices {
    /// The Lottie export's precision and metadata controls.
    fn lottie_precision(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            let mut auto = self.lottie_decimals.is_none();
            ui.checkbox(&mut auto, "Precision for the file's scale")
                .on_hover_text("Numbers written with enough decimals that a position is within 0.00005 units (docs/lottie.md: Precision); rotations and scales get two more");
            if auto {
                self.lottie_decimals = None;
            } else {
                let n = self.lottie_decimals.get_or_insert(4);
                let l = ui.label("Decimals");
                ui.add(egui::DragValue::new(n).range(0..=9)).labelled_by(l.id);
            }
        });
        ui.checkbox(&mut self.lottie_no_metadata, "Leave out skelpad's metadata").on_hover_text(
            "For tools that cannot write a metadata block back, such as python-lottie's converter",
        );
    }

    /// The options as controls, then `notes` (what the chosen options
    /// will do), then the buttons; returns whether the user confirmed.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        kind: ExportKind,
        notes: impl FnOnce(&mut egui::Ui, &ExportChoices),
    ) -> Option<bool> {
        let mut answer = None;
        ui.heading(kind.title());
        if kind == ExportKind::Skf {
            ui.horizontal(|ui| {
                let l = ui.label("Texture scale");
                ui.add(
                    egui::DragValue::new(&mut self.skf_scale)
                        .range(0.25..=16.0)
                        .speed(0.05)
                        .suffix(" px per unit"),
                )
                .labelled_by(l.id);
            });
            ui.weak("Every skin is written as a style; anything SkelForm cannot play exactly is listed as a warning.");
        } else if kind == ExportKind::Lottie {
            ui.radio_value(&mut self.lottie_one, false, "Every animation, each a marker");
            ui.radio_value(&mut self.lottie_one, true, "Only the animation shown");
            self.lottie_precision(ui);
            ui.weak("The skin shown is exported. Name the file .json (Lottie), .lottie (dotLottie) or .tgs (Telegram sticker). Bones Lottie cannot parent exactly (flips, no-rot, no-scale, IK, uneven scales) are keyed at every frame, as listed below.");
        } else if kind == ExportKind::Godot {
            ui.radio_value(&mut self.godot3, false, "Godot 4 (text scene format 3)");
            ui.radio_value(&mut self.godot3, true, "Godot 3 (text scene format 2)");
            ui.weak("Every animation and the skin shown are exported; the pictures go in a folder beside the scene. Bones Godot cannot key exactly (sine and bezier curves, IK, flips, no-rot, no-scale, uneven scales) are keyed at every frame, as listed below.");
        } else if kind == ExportKind::Gltf {
            ui.radio_value(&mut self.lottie_one, false, "Every animation");
            ui.radio_value(&mut self.lottie_one, true, "Only the animation shown");
            ui.weak("The skin shown is exported. Name the file .glb (binary) or .gltf (JSON). Bones glTF cannot key with their own values (IK, no-rot, no-scale, flips, uneven parent scales under a turn, imported parent rules) are keyed at every frame, as listed below; eased keys are keyed at every frame too.");
        } else {
            ui.horizontal(|ui| {
                let l = ui.label("Width");
                ui.add(egui::DragValue::new(&mut self.width).range(1..=8192).suffix(" px"))
                    .labelled_by(l.id);
                let l = ui.label("Height");
                ui.add(egui::DragValue::new(&mut self.height).range(1..=8192).suffix(" px"))
                    .labelled_by(l.id);
            });
            ui.radio_value(&mut self.fit, true, "Fit the whole animation");
            ui.radio_value(&mut self.fit, false, "The canvas's zoom, origin centered");
            ui.horizontal(|ui| {
                ui.checkbox(&mut self.transparent, "Transparent background");
                if !self.transparent {
                    ui.color_edit_button_srgba(&mut self.background)
                        .on_hover_text("Background color");
                }
            });
            ui.checkbox(&mut self.bones, "Draw the bones");
        }
        notes(ui, self);
        ui.add_space(6.0);
        ui.horizontal(|ui| {
            if ui.button("Choose file…").clicked() {
                answer = Some(true);
            }
            if ui.button("Cancel").clicked() {
                answer = Some(false);
            }
        });
        answer
    }
}

/// Everything an export needs, owned, so it can run on another thread.
pub struct ExportRequest {
    /// What to write.
    pub kind: ExportKind,
    /// What the canvas shows (a copy).
    pub armature: Armature,
    /// The animation (`None`: the setup pose).
    pub anim: Option<AnimId>,
    /// The skin shown.
    pub skin: SkinId,
    /// The playhead (for a single frame).
    pub time_secs: f64,
    /// The canvas zoom (for the zoom framing).
    pub zoom: f64,
    /// The dialog's choices.
    pub options: ExportChoices,
    /// Where sprites are found: the script's folder.
    pub image_dir: PathBuf,
    /// The file to write (for sequences, the name the frames are numbered from).
    pub out: PathBuf,
    /// The script has errors (the armature is what compiled).
    pub script_has_errors: bool,
}

impl ExportRequest {
    /// Renders and writes the files, reporting progress per frame.
    pub fn run(self, progress: &Progress) -> ExportResult {
        if self.kind == ExportKind::Skf {
            return self.run_skf(progress);
        }
        if self.kind == ExportKind::Lottie {
            return self.run_lottie(progress);
        }
        if self.kind == ExportKind::Godot {
            return self.run_godot(progress);
        }
        if self.kind == ExportKind::Gltf {
            return super::gltf_baking::run(self, progress);
        }
        let o = &self.options;
        let background = (!o.transparent).then(|| {
            let c = egui::Rgba::from(o.background);
            [c.r(), c.g(), c.b(), c.a()]
        });
        let settings = Settings {
            anim: self.anim,
            skin: self.skin,
            width: o.width,
            height: o.height,
            framing: if o.fit { Framing::Fit } else { Framing::Zoom(self.zoom) },
            background,
            bones: o.bones,
        };
        let anim = self.anim.and_then(|a| self.armature.animation(a));
        if self.kind.needs_animation() && anim.is_none() {
            return Err(ExportError::Cannot(
                "there is no animation to export: write an `anim` section first".into(),
            ));
        }
        let times = anim.map(crate::model::Animation::frame_times).unwrap_or_default();
        let fps = anim.map_or(crate::model::DEFAULT_FPS, |a| a.fps);
        let mut cache = RenderCache::new(&self.image_dir);
        let mut renderer = FrameRenderer::new(&self.armature, settings, &mut cache)
            .map_err(ExportError::Settings)?;
        let out: &Path = &self.out;
        let written = match self.kind {
            ExportKind::Png
            | ExportKind::Skf
            | ExportKind::Lottie
            | ExportKind::Godot
            | ExportKind::Gltf => frames::write_png(&mut renderer, self.time_secs, out, progress),
            ExportKind::Sequence => frames::write_sequence(&mut renderer, &times, out, progress),
            ExportKind::SpriteSheet => {
                frames::write_sheet(&mut renderer, &times, fps, out, progress)
            }
            ExportKind::Gif => frames::write_gif(&mut renderer, &times, fps, out, progress),
        };
        let files = written?;
        let warnings = renderer.warnings().iter().map(|w| w.message.clone()).collect();
        Ok(ExportDone { files, warnings })
    }

    /// The Lottie export (as `skelpad export OUT.json|.lottie|.tgs`).
    fn run_lottie(self, progress: &Progress) -> ExportResult {
        use crate::formats::lottie::{Container, FilePictures, LottieOptions, export_file};
        if self.script_has_errors {
            return Err(ExportError::Cannot(
                "the script has errors: fix them before exporting to Lottie".into(),
            ));
        }
        let ext = self.out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        let container = match ext.as_deref() {
            Some("lottie") => Container::DotLottie,
            Some("tgs") => Container::Tgs,
            _ => Container::Json,
        };
        let tgs = container == Container::Tgs;
        let name = |id: Option<AnimId>| {
            id.and_then(|a| self.armature.animation(a)).map(|a| a.name.clone())
        };
        let opts = LottieOptions {
            anim: if self.options.lottie_one { name(self.anim) } else { None },
            skin: self.armature.skeleton.skins.get(self.skin.index()).map(|s| s.name.clone()),
            size: tgs.then_some((512, 512)),
            fit: tgs,
            fps: tgs.then_some(60.0),
            decimals: self.options.lottie_decimals,
            no_metadata: self.options.lottie_no_metadata,
        };
        let mut pictures = FilePictures(self.image_dir.clone());
        let lottie =
            export_file(&self.armature, &opts, &mut pictures, container, &self.out, progress)?;
        Ok(ExportDone { files: vec![self.out], warnings: lottie.warnings })
    }

    /// The Godot export (as `skelpad export OUT.tscn [--godot 3]`).
    fn run_godot(self, progress: &Progress) -> ExportResult {
        use crate::formats::godot::export_file;
        if self.script_has_errors {
            return Err(ExportError::Cannot(
                "the script has errors: fix them before exporting a Godot scene".into(),
            ));
        }
        let opts =
            super::lottie_baking::godot_options(&self.armature, self.skin, self.options.godot3);
        let mut pictures = crate::formats::lottie::FilePictures(self.image_dir.clone());
        let godot = export_file(&self.armature, &opts, &mut pictures, &self.out, progress)?;
        let dir = self.out.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut files: Vec<PathBuf> = vec![self.out.clone()];
        files.extend(godot.files.iter().map(|(rel, _)| dir.join(rel)));
        Ok(ExportDone { files, warnings: godot.warnings })
    }

    /// The `.skf` export (the same as `skelpad export`).
    fn run_skf(self, progress: &Progress) -> ExportResult {
        use crate::formats::skf::{
            export::ExportOptions as SkfOptions, pictures::RenderedPictures, write,
        };
        if self.script_has_errors {
            // As `skelpad export`: a SkelForm file of a half-valid script
            // would silently lack whatever the errors dropped.
            return Err(ExportError::Cannot(
                "the script has errors: fix them before exporting to SkelForm".into(),
            ));
        }
        let opts = SkfOptions { skins: Vec::new(), pixels_per_unit: self.options.skf_scale };
        let mut pictures = RenderedPictures::new(&self.armature, &self.image_dir);
        let warnings =
            write::export_file(&self.armature, &opts, &mut pictures, &self.out, progress)?;
        Ok(ExportDone {
            files: vec![self.out],
            warnings: warnings.iter().map(ToString::to_string).collect(),
        })
    }
}

/// What an export wrote, and what it could not carry over exactly.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ExportDone {
    /// Every file written.
    pub files: Vec<PathBuf>,
    /// What could not be drawn or carried over, in words.
    pub warnings: Vec<String>,
}

/// The result of an export: what was written, or why nothing was.
pub type ExportResult = Result<ExportDone, ExportError>;

/// An export running on its own thread.
pub struct ExportJob {
    /// What is being exported, for the status bar ("GIF to walk.gif").
    pub label: String,
    /// Progress, shared with the worker.
    pub progress: Arc<Progress>,
    /// Whether the export stops when asked.
    pub cancellable: bool,
    result: Receiver<ExportResult>,
}

impl ExportJob {
    /// Runs `work` on a worker thread. `work` reports progress through the
    /// [`Progress`] it is given; `wake` is called after each report and at
    /// the end, so the UI repaints.
    pub fn spawn(
        label: String,
        work: impl FnOnce(&Progress) -> ExportResult + Send + 'static,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> ExportJob {
        // Every report wakes the UI (egui's `request_repaint` may be called
        // from any thread), and so does the end.
        let wake = Arc::new(wake);
        let on_report = wake.clone();
        let progress = Arc::new(Progress::with_sink(move |_, _, _| {
            (*on_report)();
            true
        }));
        let (tx, result) = channel();
        let shared = progress.clone();
        let spawned = std::thread::Builder::new().name("export".into()).spawn(move || {
            let out = work(&shared);
            let _ = tx.send(out);
            (*wake)();
        });
        if let Err(e) = spawned {
            let (tx, rx) = channel();
            let _ = tx.send(Err(ExportError::Cannot(format!("cannot start the export: {e}"))));
            return ExportJob { label, progress, cancellable: false, result: rx };
        }
        ExportJob { label, progress, cancellable: false, result }
    }

    /// The result once the worker is done.
    pub fn poll(&self) -> Option<ExportResult> {
        match self.result.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => {
                Some(Err(ExportError::Cannot("the export stopped unexpectedly".into())))
            }
        }
    }

    /// Done fraction, when the total is known.
    pub fn fraction(&self) -> Option<f32> {
        let (done, total) = self.progress.get();
        (total > 0).then(|| done as f32 / total as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::mpsc::sync_channel;

    #[test]
    fn a_cancelled_gif_export_writes_nothing() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("a.gif");
        let request = request(ExportKind::Gif, out.clone(), dir.path());
        assert!(ExportKind::ALL.iter().all(|k| k.can_cancel()));
        let progress = Progress::default();
        progress.cancel();
        let result = request.run(&progress);
        assert_eq!(result.err(), Some(ExportError::Cancelled));
        assert!(!out.exists());
        assert_eq!(
            std::fs::read_dir(dir.path()).expect("dir").count(),
            0,
            "no temporary file is left"
        );
    }

    fn request(kind: ExportKind, out: PathBuf, dir: &Path) -> ExportRequest {
        let comp = crate::compile::compile(
            "skeleton\n\tb\n\t\t@ :rect w10 h10\nanim \"a\"\n\tb\n\t\tx 0 -> 10 -> 0\n",
        );
        ExportRequest {
            kind,
            armature: comp.armature,
            anim: Some(AnimId(0)),
            skin: SkinId(0),
            time_secs: 0.0,
            zoom: 1.0,
            options: ExportChoices::default(),
            image_dir: dir.to_path_buf(),
            out,
            script_has_errors: false,
        }
    }

    /// Export ▸ Lottie… writes the Lottie file (the format by the file's
    /// extension); cancelled, it writes nothing.
    #[test]
    fn lottie_exports_write_their_file_or_nothing_when_cancelled() {
        let dir = tempfile::tempdir().expect("temp dir");
        for name in ["a.json", "a.lottie", "a.tgs"] {
            let out = dir.path().join(name);
            let done = request(ExportKind::Lottie, out.clone(), dir.path())
                .run(&Progress::default())
                .expect("exported");
            assert_eq!(done.files, vec![out.clone()]);
            assert!(std::fs::metadata(&out).expect("written").len() > 100, "{name}");
        }
        let out = dir.path().join("b.json");
        let progress = Progress::default();
        progress.cancel();
        let result = request(ExportKind::Lottie, out.clone(), dir.path()).run(&progress);
        assert_eq!(result.err(), Some(ExportError::Cancelled));
        assert!(!out.exists());
    }

    /// Export ▸ Godot scene… writes the scene and its event script beside
    /// it, for the version chosen; cancelled, it writes nothing.
    #[test]
    fn godot_exports_write_the_scene_and_its_script_or_nothing_when_cancelled() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (godot3, format) in [(false, "format=3"), (true, "format=2")] {
            let out = dir.path().join(format!("a{godot3}.tscn"));
            let mut req = request(ExportKind::Godot, out.clone(), dir.path());
            req.options.godot3 = godot3;
            let done = req.run(&Progress::default()).expect("exported");
            assert_eq!(done.files, vec![out.clone(), dir.path().join("skelpad_events.gd")]);
            let text = std::fs::read_to_string(&out).expect("written");
            assert!(text.starts_with("[gd_scene") && text.contains(format), "{text}");
        }
        let out = dir.path().join("b.tscn");
        let progress = Progress::default();
        progress.cancel();
        let result = request(ExportKind::Godot, out.clone(), dir.path()).run(&progress);
        assert_eq!(result.err(), Some(ExportError::Cancelled));
        assert!(!out.exists());
    }

    /// Default names: after the script, with the animation only when the
    /// file holds that one animation, never twice the same word.
    #[test]
    fn export_names_follow_the_script_and_the_one_animation() {
        use ExportKind as K;
        let name = |stem, kind, anim, one| suggested_name(stem, kind, anim, one);
        assert_eq!(name(Some("walk"), K::Lottie, Some("walk"), false), "walk.json");
        assert_eq!(name(Some("walk"), K::Lottie, Some("run"), false), "walk.json");
        assert_eq!(name(Some("walk"), K::Lottie, Some("run"), true), "walk-run.json");
        assert_eq!(name(Some("walk"), K::Gif, Some("walk"), false), "walk.gif");
        assert_eq!(name(Some("hero"), K::Gif, Some("walk"), false), "hero-walk.gif");
        assert_eq!(name(None, K::Skf, Some("blink-and-talk"), true), "untitled.skf");
        assert_eq!(name(Some("hero"), K::Godot, Some("walk"), true), "hero.tscn");
        assert_eq!(name(Some("hero"), K::Gltf, Some("walk"), true), "hero-walk.glb");
        assert_eq!(name(Some("hero"), K::Png, Some("walk"), true), "hero.png");
    }

    /// The Lottie dialog's precision and metadata choices reach the file:
    /// at most `decimals` decimals in every transform number, and no
    /// `metadata` when it is left out.
    #[test]
    fn lottie_precision_and_metadata_choices_reach_the_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let out = dir.path().join("a.json");
        let written = |decimals: Option<u32>, no_metadata: bool| {
            let mut req = request(ExportKind::Lottie, out.clone(), dir.path());
            let script = "skeleton\n\tb\n\t\t@ :rect w10 h10\nanim \"a\"\n\tb\n\t\tx 0.123456789 -> 10.987654321 -> 0\n";
            req.armature = crate::compile::compile(script).armature;
            req.options.lottie_decimals = decimals;
            req.options.lottie_no_metadata = no_metadata;
            req.run(&Progress::default()).expect("exported");
            std::fs::read_to_string(&out).expect("written")
        };
        let most_decimals = |text: &str| {
            text.split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .filter_map(|n| n.split_once('.').map(|(_, f)| f.len()))
                .max()
                .unwrap_or(0)
        };
        // The bone's keyed position, as written.
        let position = |text: &str| {
            let doc: serde_json::Value = serde_json::from_str(text).expect("JSON");
            let layers = doc["layers"].as_array().expect("layers").clone();
            let bone = layers.iter().find(|l| l["nm"] == "b").expect("the bone's layer");
            (doc.get("metadata").is_some(), bone["ks"]["p"]["k"].to_string())
        };
        let (meta, p) = position(&written(None, false));
        assert!(meta && most_decimals(&p) >= 3, "{p}");
        let (meta, p) = position(&written(Some(1), true));
        assert!(!meta && most_decimals(&p) == 1, "{p}");
    }

    /// Export ▸ glTF… writes `.glb` or `.gltf` by the name; cancelled, nothing.
    #[test]
    fn gltf_exports_write_their_file_or_nothing_when_cancelled() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (name, head) in [("a.glb", &b"glTF"[..]), ("a.gltf", &b"{"[..])] {
            let out = dir.path().join(name);
            let done = request(ExportKind::Gltf, out.clone(), dir.path())
                .run(&Progress::default())
                .expect("exported");
            assert_eq!(done.files, vec![out.clone()]);
            assert!(std::fs::read(&out).expect("written").starts_with(head), "{name}");
        }
        let out = dir.path().join("b.glb");
        let progress = Progress::default();
        progress.cancel();
        let result = request(ExportKind::Gltf, out.clone(), dir.path()).run(&progress);
        assert_eq!(result.err(), Some(ExportError::Cancelled));
        assert!(!out.exists());
    }

    /// A single PNG and a `.skf` stop when cancelled, at any step, and
    /// write nothing; uncancelled, they write their file.
    #[test]
    fn single_png_and_skf_exports_can_be_cancelled() {
        for kind in [ExportKind::Png, ExportKind::Skf] {
            // Cancel after the n-th report, for every report the export makes.
            let dir = tempfile::tempdir().expect("temp dir");
            let out = dir.path().join(format!("a.{}", kind.extension()));
            let reports = std::sync::Arc::new(AtomicUsize::new(0));
            let counter = reports.clone();
            let progress = Progress::with_sink(move |_, _, _| {
                counter.fetch_add(1, Ordering::Relaxed);
                true
            });
            assert!(request(kind, out.clone(), dir.path()).run(&progress).is_ok(), "{kind:?}");
            assert!(out.exists());
            std::fs::remove_file(&out).expect("remove");
            let total = reports.load(Ordering::Relaxed);
            assert!(total >= 2, "{kind:?}: {total} reports");
            for n in 0..total.saturating_sub(1) {
                let seen = AtomicUsize::new(0);
                let real =
                    Progress::with_sink(move |_, _, _| seen.fetch_add(1, Ordering::Relaxed) != n);
                let result = request(kind, out.clone(), dir.path()).run(&real);
                if result.is_ok() {
                    // Cancelled after its last stop point: the file is whole.
                    assert!(out.exists(), "{kind:?}");
                    std::fs::remove_file(&out).expect("remove");
                    continue;
                }
                assert_eq!(
                    result.err(),
                    Some(ExportError::Cancelled),
                    "{kind:?} cancelled at report {n}"
                );
                assert_eq!(
                    std::fs::read_dir(dir.path()).expect("dir").count(),
                    0,
                    "{kind:?}: nothing written"
                );
            }
        }
    }

    /// The worker wakes the UI after each report: with egui, every report
    /// requests a repaint, so the progress bar moves while exporting.
    #[test]
    fn each_report_wakes_the_ui() {
        let ctx = egui::Context::default();
        let paint = |ctx: &egui::Context| {
            ctx.run_ui(egui::RawInput::default(), |_| {}).textures_delta.clear()
        };
        paint(&ctx);
        paint(&ctx);
        let (step_tx, step_rx) = sync_channel::<()>(0);
        let (seen_tx, seen_rx) = sync_channel::<()>(0);
        let waker_ctx = ctx.clone();
        let job = ExportJob::spawn(
            "test".into(),
            move |p| {
                for i in 0..3 {
                    step_rx.recv().map_err(|e| ExportError::Cannot(e.to_string()))?;
                    p.set(i + 1, 3);
                    seen_tx.send(()).map_err(|e| ExportError::Cannot(e.to_string()))?;
                }
                Ok(ExportDone::default())
            },
            move || waker_ctx.request_repaint(),
        );
        for i in 0..3 {
            // Frames are painted until none is asked for (egui paints a
            // requested repaint over two passes).
            for _ in 0..4 {
                paint(&ctx);
            }
            assert!(!ctx.has_requested_repaint(), "step {i}: a repaint pending before the report");
            step_tx.send(()).unwrap();
            seen_rx.recv().unwrap();
            assert!(ctx.has_requested_repaint(), "step {i}: the report did not wake the UI");
            assert_eq!(job.progress.get(), (i + 1, 3));
        }
    }

    #[test]
    fn a_job_reports_progress_while_it_runs_and_then_its_result() {
        let (step_tx, step_rx) = sync_channel::<()>(0);
        let job = ExportJob::spawn(
            "test".into(),
            move |p| {
                for i in 0..3 {
                    p.set(i, 3);
                    // Wait for the test to let the worker go on.
                    step_rx.recv().map_err(|e| ExportError::Cannot(e.to_string()))?;
                }
                p.set(3, 3);
                Ok(ExportDone { files: vec![PathBuf::from("out.png")], warnings: Vec::new() })
            },
            || {},
        );
        step_tx.send(()).unwrap();
        step_tx.send(()).unwrap();
        // The worker is blocked on its third step: still running.
        assert!(job.poll().is_none());
        assert!(job.fraction().is_some_and(|f| f < 1.0));
        step_tx.send(()).unwrap();
        let result = loop {
            if let Some(r) = job.poll() {
                break r;
            }
            std::thread::yield_now();
        };
        assert_eq!(result.map(|d| d.files), Ok(vec![PathBuf::from("out.png")]));
        assert_eq!(job.fraction(), Some(1.0));
    }

    #[test]
    fn a_panicking_worker_is_an_error_not_a_hang() {
        let job = ExportJob::spawn("boom".into(), |_| panic!("worker failed"), || {});
        let result = loop {
            if let Some(r) = job.poll() {
                break r;
            }
            std::thread::yield_now();
        };
        assert!(result.is_err());
    }
}
