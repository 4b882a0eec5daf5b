//! The produced `armature.json` against the field list of SkelForm's file
//! structure document, and the reader against SkelForm's own files.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "test code")]

use crate::common;

use std::path::PathBuf;

use serde_json::Value;
use skelpad::compile::compile;
use skelpad::formats::skf::export::{ExportOptions, plan};
use skelpad::formats::skf::pictures::RenderedPictures;
use skelpad::formats::skf::read::{parse_armature, read_skf, validate};
use skelpad::formats::skf::write::{build, to_zip};

#[derive(Clone, Copy, Debug)]
enum Ty {
    Str,
    Bool,
    /// A whole number (possibly negative).
    Int,
    Float,
    Vec2,
    /// r, g, b, a numbers.
    Color,
    Array,
}

/// `skelform-file-structure.txt`, table by table, plus the fields its
/// editor and runtime read under other names (SKF-NOTES.md). Where the
/// document's type column is wrong, the type the programs use is given and
/// the comment says so.
const ARMATURE: &[(&str, Ty)] = &[
    ("version", Ty::Str),
    ("baked_ik", Ty::Bool),
    ("img_format", Ty::Str),
    ("clear_color", Ty::Color),
    ("bones", Ty::Array),
    ("animations", Ty::Array),
    ("atlases", Ty::Array),
    ("styles", Ty::Array),
    ("inverse_kinematics", Ty::Array),
    ("visuals", Ty::Array),
    ("physics", Ty::Array),
];
const BONE: &[(&str, Ty)] = &[
    ("id", Ty::Int),
    ("name", Ty::Str),
    ("pos", Ty::Vec2),
    ("rot", Ty::Float),
    ("scale", Ty::Vec2),
    ("parent_id", Ty::Int),
    ("tex", Ty::Str),
    ("zindex", Ty::Int),
    ("hidden", Ty::Bool),
    ("tint", Ty::Color),
    ("inverse_kinematics_id", Ty::Int),
    ("visuals_id", Ty::Int),
    ("physics_id", Ty::Int),
    // "Initial Fields", and the runtime's name for the IK id.
    ("init_pos", Ty::Vec2),
    ("init_rot", Ty::Float),
    ("init_scale", Ty::Vec2),
    ("init_hidden", Ty::Bool),
    ("ik_family_id", Ty::Int),
];
const VISUAL: &[(&str, Ty)] = &[
    ("tex", Ty::Str),
    ("zindex", Ty::Int),
    ("tint", Ty::Color),
    ("vertices", Ty::Array),
    ("indices", Ty::Array),
    ("binds", Ty::Array),
    ("pivot_pos", Ty::Vec2),
    ("pivot_scale", Ty::Vec2),
    // The document writes "[Float]"; the programs use one float.
    ("pivot_rot", Ty::Float),
    ("init_tex", Ty::Str),
    ("init_tint", Ty::Color),
    ("init_zindex", Ty::Int),
];
const VERTEX: &[(&str, Ty)] = &[
    ("id", Ty::Int),
    ("pos", Ty::Vec2),
    ("uv", Ty::Vec2),
    // The document says "Int" with default `pos`; it is a position.
    ("init_pos", Ty::Vec2),
];
const BIND: &[(&str, Ty)] =
    &[("id", Ty::Int), ("is_path", Ty::Bool), ("verts", Ty::Array), ("bone_id", Ty::Int)];
const BIND_VERT: &[(&str, Ty)] = &[("id", Ty::Int), ("weight", Ty::Float)];
// The document types `id` as String (default `0`); the editor reads a number.
const ANIMATION: &[(&str, Ty)] =
    &[("id", Ty::Int), ("name", Ty::Str), ("fps", Ty::Int), ("keyframes", Ty::Array)];
const KEYFRAME: &[(&str, Ty)] = &[
    ("frame", Ty::Int),
    ("bone_id", Ty::Int),
    ("element", Ty::Str),
    ("value", Ty::Float),
    ("value_str", Ty::Str),
    ("next_kf", Ty::Int),
    ("start_handle", Ty::Vec2),
    ("end_handle", Ty::Vec2),
];
const ATLAS: &[(&str, Ty)] = &[("filename", Ty::Str), ("size", Ty::Vec2)];
const STYLE: &[(&str, Ty)] = &[("id", Ty::Int), ("name", Ty::Str), ("textures", Ty::Array)];
const TEXTURE: &[(&str, Ty)] =
    &[("name", Ty::Str), ("offset", Ty::Vec2), ("size", Ty::Vec2), ("atlas_idx", Ty::Int)];

fn is(ty: Ty, v: &Value) -> bool {
    let num = |v: Option<&Value>| v.is_some_and(Value::is_number);
    match ty {
        Ty::Str => v.is_string(),
        Ty::Bool => v.is_boolean(),
        Ty::Int => v.is_i64() || v.is_u64(),
        Ty::Float => v.is_number(),
        Ty::Vec2 => num(v.get("x")) && num(v.get("y")),
        Ty::Color => ["r", "g", "b", "a"].iter().all(|c| num(v.get(c))),
        Ty::Array => v.is_array(),
    }
}

/// Every field of the list, with its type, on one object.
fn check(at: &str, v: &Value, fields: &[(&str, Ty)], problems: &mut Vec<String>) {
    for (name, ty) in fields {
        match v.get(name) {
            None => problems.push(format!("{at}: no `{name}`")),
            Some(x) if !is(*ty, x) => problems.push(format!("{at}.{name}: {x} is not a {ty:?}")),
            Some(_) => {}
        }
    }
}

fn arr<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// Checks a whole `armature.json` against the field lists.
fn check_file(json: &str) -> Vec<String> {
    let root: Value = serde_json::from_str(json).expect("valid JSON");
    let mut p = Vec::new();
    check("armature", &root, ARMATURE, &mut p);
    for (i, b) in arr(&root, "bones").iter().enumerate() {
        check(&format!("bones[{i}]"), b, BONE, &mut p);
    }
    for (i, v) in arr(&root, "visuals").iter().enumerate() {
        check(&format!("visuals[{i}]"), v, VISUAL, &mut p);
        for (k, x) in arr(v, "vertices").iter().enumerate() {
            check(&format!("visuals[{i}].vertices[{k}]"), x, VERTEX, &mut p);
        }
        for (k, x) in arr(v, "binds").iter().enumerate() {
            check(&format!("visuals[{i}].binds[{k}]"), x, BIND, &mut p);
            for (m, y) in arr(x, "verts").iter().enumerate() {
                check(&format!("visuals[{i}].binds[{k}].verts[{m}]"), y, BIND_VERT, &mut p);
            }
        }
    }
    for (i, a) in arr(&root, "animations").iter().enumerate() {
        check(&format!("animations[{i}]"), a, ANIMATION, &mut p);
        for (k, x) in arr(a, "keyframes").iter().enumerate() {
            check(&format!("animations[{i}].keyframes[{k}]"), x, KEYFRAME, &mut p);
        }
    }
    for (i, a) in arr(&root, "atlases").iter().enumerate() {
        check(&format!("atlases[{i}]"), a, ATLAS, &mut p);
    }
    for (i, s) in arr(&root, "styles").iter().enumerate() {
        check(&format!("styles[{i}]"), s, STYLE, &mut p);
        for (k, x) in arr(s, "textures").iter().enumerate() {
            check(&format!("styles[{i}].textures[{k}]"), x, TEXTURE, &mut p);
        }
    }
    // Units: tints 0..1, version exactly what the editor writes.
    if root.get("version").and_then(Value::as_str) != Some("0.7.0") {
        p.push(format!("version is {:?}", root.get("version")));
    }
    for (i, v) in arr(&root, "visuals").iter().enumerate() {
        for key in ["tint", "init_tint"] {
            for c in ["r", "g", "b", "a"] {
                let x = v[key][c].as_f64().unwrap_or(-1.0);
                if !(0.0..=1.0).contains(&x) {
                    p.push(format!("visuals[{i}].{key}.{c} = {x} is not 0..1"));
                }
            }
        }
    }
    p
}

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn exported_json_has_every_documented_field() {
    for file in [
        "examples/skins.skel2d",
        "tests/skf_rigs/bend.skel2d",
        "tests/skf_rigs/looks.skel2d",
        "tests/skf_rigs/flips.skel2d",
    ] {
        let text = std::fs::read_to_string(manifest().join(file)).unwrap();
        let arm = compile(&text).armature;
        let plan = plan(&arm, &ExportOptions::default()).unwrap();
        let json = serde_json::to_string(&plan.armature).unwrap();
        let problems = check_file(&json);
        assert!(problems.is_empty(), "{file}:\n{}", problems.join("\n"));
        // What was checked is not empty: bones, visuals, keyframes, meshes.
        let root: Value = serde_json::from_str(&json).unwrap();
        assert!(
            !arr(&root, "bones").is_empty()
                && !arr(&root, "visuals").is_empty()
                && !arr(&root, "animations").is_empty()
        );
        if file.contains("bend") {
            assert!(
                arr(&root, "visuals").iter().any(|v| !arr(v, "binds").is_empty()),
                "bend.skel2d has meshes"
            );
        }
        // And the reader accepts it.
        let back = parse_armature(&json).unwrap();
        assert_eq!(back, plan.armature, "{file}: read back differently");
        assert_eq!(validate(&back), Vec::<String>::new(), "{file}");
    }
}

#[test]
fn the_field_check_catches_a_missing_field() {
    let text = std::fs::read_to_string(manifest().join("examples/skins.skel2d")).unwrap();
    let arm = compile(&text).armature;
    let json =
        serde_json::to_string(&plan(&arm, &ExportOptions::default()).unwrap().armature).unwrap();
    let mut root: Value = serde_json::from_str(&json).unwrap();
    root["bones"][1].as_object_mut().unwrap().remove("init_scale");
    root["visuals"][0]["tint"]["a"] = Value::from(255);
    let problems = check_file(&root.to_string());
    assert!(problems.iter().any(|p| p == "bones[1]: no `init_scale`"), "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("visuals[0].tint.a = 255")), "{problems:?}");
}

/// SkelForm's own exports load through the same reader, with every check.
#[test]
fn skelforms_own_files_read_cleanly() {
    let Some(dir) = common::samples_dir("skelforms_own_files_read_cleanly", "skelform") else {
        return;
    };
    for (file, bones, anims, meshes) in
        [("_skellina.skf", 32, 3, false), ("_skellington.skf", 61, 4, true)]
    {
        let bytes = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let skf = read_skf(&bytes).unwrap_or_else(|e| panic!("{file}:\n{e}"));
        let a = &skf.armature;
        assert_eq!(a.version, "0.7.0");
        assert_eq!((a.bones.len(), a.animations.len()), (bones, anims), "{file}");
        assert_eq!(a.atlases.len(), skf.atlas_sizes.len());
        assert!(
            skf.files.iter().any(|f| f == "thumbnail.png")
                && skf.files.iter().any(|f| f == "readme.md")
        );
        // Values the lenient defaults must get right where the editor leaves
        // fields out: a bone without `hidden` is shown, a visual without a
        // tint is white.
        assert!(a.bones.iter().all(|b| !b.hidden && b.scale.x != 0.0));
        assert!(a.visuals.iter().all(|v| v.tint.a == 1.0));
        assert_eq!(a.visuals.iter().any(|v| !v.binds.is_empty()), meshes);
        let elements: std::collections::BTreeSet<&str> = a
            .animations
            .iter()
            .flat_map(|x| x.keyframes.iter().map(|k| k.element.as_str()))
            .collect();
        assert!(
            elements
                .iter()
                .all(|e| ["PositionX", "PositionY", "Rotation", "ScaleX", "ScaleY"].contains(e)),
            "{elements:?}"
        );
        // The editor's extra `editor.json` has one entry per bone.
        assert!(skf.editor_json.is_some());
    }
}

/// Whole files, pictures included: every field of every object (textures
/// and atlases too), pictures inside their atlases, UVs inside their
/// pictures, a thumbnail, and every texture a visual names in every style.
#[test]
fn whole_exports_have_every_field_and_consistent_pictures() {
    for (file, k) in [
        ("examples/skins.skel2d", 1.0),
        ("examples/tentacle.skel2d", 2.0),
        ("tests/skf_rigs/bend.skel2d", 3.0),
        ("tests/skf_rigs/looks.skel2d", 1.5),
    ] {
        let text = std::fs::read_to_string(manifest().join(file)).unwrap();
        let arm = compile(&text).armature;
        let mut pictures = RenderedPictures::new(&arm, &manifest());
        let export = build(
            &arm,
            &ExportOptions { pixels_per_unit: k, ..Default::default() },
            &mut pictures,
            &skelpad::formats::export::Progress::new(),
        )
        .unwrap();
        let skf = read_skf(&to_zip(&export).unwrap()).unwrap_or_else(|e| panic!("{file}:\n{e}"));
        let problems = check_file(&skf.json);
        assert!(problems.is_empty(), "{file}:\n{}", problems.join("\n"));
        let a = &skf.armature;
        assert!(!a.atlases.is_empty() && a.styles.iter().all(|s| !s.textures.is_empty()), "{file}");
        for f in ["armature.json", "atlas0.png", "thumbnail.png", "readme.md", "editor.json"] {
            assert!(skf.files.iter().any(|x| x == f), "{file}: no {f}");
        }
        assert_eq!((export.thumbnail.width, export.thumbnail.height), (256, 256));
        assert!(
            export.thumbnail.rgba.chunks(4).any(|p| p[3] > 0),
            "{file}: the thumbnail shows something"
        );
        for (v, vis) in a.visuals.iter().enumerate() {
            if vis.init_tex.is_empty() {
                continue;
            }
            for style in &a.styles {
                assert!(
                    style.textures.iter().any(|t| t.name == vis.init_tex),
                    "{file}: style {} lacks {}",
                    style.name,
                    vis.init_tex
                );
            }
            for vert in &vis.vertices {
                assert!(
                    (0.0..=1.0).contains(&vert.uv.x) && (0.0..=1.0).contains(&vert.uv.y),
                    "{file}: visuals[{v}] uv {:?}",
                    vert.uv
                );
            }
        }
        // Each picture's pixels are where its texture says: some pixel in
        // every non-empty rectangle is drawn.
        for (i, (w, h, px)) in export.pages.iter().enumerate() {
            for t in a
                .styles
                .iter()
                .flat_map(|s| &s.textures)
                .filter(|t| t.atlas_idx as usize == i && t.size.x > 1)
            {
                let drawn = (t.offset.y..t.offset.y + t.size.y).any(|y| {
                    (t.offset.x..t.offset.x + t.size.x)
                        .any(|x| px[((y * w + x) * 4 + 3) as usize] > 0)
                });
                assert!(drawn, "{file}: texture {} is empty in atlas {i} ({w}×{h})", t.name);
            }
        }
    }
}

/// Missing third-party samples are a skip normally and a failure when
/// `SKELPAD_REQUIRE_SAMPLES=1` asks for them.
#[test]
fn missing_samples_skip_or_fail_as_asked() {
    let empty = tempfile::tempdir().expect("temp dir");
    assert_eq!(common::samples_dir_in(empty.path(), "t", "skelform", false), None);
    let required =
        std::panic::catch_unwind(|| common::samples_dir_in(empty.path(), "t", "skelform", true));
    assert!(required.is_err(), "a required, missing samples folder must fail the test");
    std::fs::create_dir(empty.path().join("skelform")).expect("mkdir");
    assert_eq!(
        common::samples_dir_in(empty.path(), "t", "skelform", true),
        Some(empty.path().join("skelform"))
    );
}
