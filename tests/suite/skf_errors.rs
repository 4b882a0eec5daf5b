//! Failed exports say why and leave no file behind.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use std::path::PathBuf;

use skelpad::compile::compile;
use skelpad::formats::skf::export::{ExportError, ExportOptions, Pictures, Raster, plan};
use skelpad::formats::skf::write::export_file;
use skelpad::model::{Armature, AttachmentId, SkinId, SlotId};

/// A picture source whose every picture fails, as when a sprite file is
/// missing.
struct Missing;

impl Pictures for Missing {
    fn attachment(
        &mut self,
        _: SkinId,
        _: SlotId,
        _: AttachmentId,
        _: f64,
    ) -> Result<Option<Raster>, String> {
        Err("image `hat.png` not found next to the script".into())
    }
    fn sprite(&mut self, image: &str) -> Result<Raster, String> {
        Err(format!("image `{image}` not found next to the script"))
    }
    fn thumbnail(&mut self, _: &Armature, _: SkinId, _: u32) -> Result<Raster, String> {
        Err("no renderer".into())
    }
}

fn script() -> Armature {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/skins.skel2d"),
    )
    .unwrap();
    compile(&text).armature
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skelpad-skf-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_failed_picture_leaves_no_file_and_names_the_texture() {
    let dir = temp_dir("fail");
    let out = dir.join("robot.skf");
    let err = export_file(
        &script(),
        &ExportOptions::default(),
        &mut Missing,
        &out,
        &skelpad::formats::export::Progress::new(),
    )
    .unwrap_err();
    assert!(matches!(err, ExportError::Picture { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("cannot make the picture of `bot.body.body.body`") && msg.contains("hat.png"),
        "{msg}"
    );
    assert!(!out.exists());
    // An older file at the target is left as it was.
    std::fs::write(&out, b"old export").unwrap();
    assert!(
        export_file(
            &script(),
            &ExportOptions::default(),
            &mut Missing,
            &out,
            &skelpad::formats::export::Progress::new()
        )
        .is_err()
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"old export");
    let others: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path() != out)
        .collect();
    assert!(others.is_empty(), "left behind: {others:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_options_are_refused_before_any_work() {
    let arm = script();
    let err = plan(&arm, &ExportOptions { skins: vec!["purple".into()], ..Default::default() })
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "there is no skin `purple`; skins: `default`, `red`, `blue`, `happy`"
    );
    let err =
        plan(&arm, &ExportOptions { pixels_per_unit: 0.0, ..Default::default() }).unwrap_err();
    assert!(err.to_string().contains("positive number of pixels per unit"), "{err}");
    // Chosen skins become styles in the order given.
    let p = plan(
        &arm,
        &ExportOptions { skins: vec!["blue".into(), "default".into()], ..Default::default() },
    )
    .unwrap();
    let names: Vec<&str> = p.armature.styles.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["blue", "default"]);
}

#[test]
fn hidden_attachments_and_skins_become_styles_with_the_same_names() {
    let p = plan(&script(), &ExportOptions::default()).unwrap();
    // Every style lists the same texture names; the blue skin hides the
    // antenna with an empty texture rather than leaving the name out (a
    // missing name would fall through to the next active style).
    let names = |i: usize| p.style_textures[i].iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    for i in 1..p.style_textures.len() {
        assert_eq!(names(i), names(0));
    }
    let blue = p.armature.styles.iter().position(|s| s.name == "blue").unwrap();
    let antenna = p.style_textures[blue]
        .iter()
        .find(|(n, _)| n == "bot.head.antenna.antenna.antenna")
        .unwrap();
    assert_eq!(antenna.1, skelpad::formats::skf::export::TextureSource::Empty);
    // Unchanged attachments share one picture across styles.
    let red = p.armature.styles.iter().position(|s| s.name == "red").unwrap();
    let mouth = |i: usize| {
        p.style_textures[i].iter().find(|(n, _)| n == "bot.head.mouth.mouth.closed").unwrap().1
    };
    assert_eq!(mouth(0), mouth(red));
    // Z-index follows the draw order; the pictures of one slot (one helper
    // each, one shown at a time) share their slot's.
    let z: Vec<i32> = p.armature.visuals.iter().map(|v| v.zindex).collect();
    let mut distinct = z.clone();
    distinct.dedup();
    assert_eq!(distinct, (0..distinct.len() as i32).collect::<Vec<_>>());
    assert!(distinct.len() < z.len(), "a slot with several pictures: {z:?}");
}
