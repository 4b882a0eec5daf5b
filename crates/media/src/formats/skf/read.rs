//! Reads a `.skf` and checks what runtimes rely on: IDs are array positions,
//! parents come before children, keyframes are sorted and chained within one
//! bone and element, every reference points at something that exists, and
//! every atlas named is a PNG of the stated size.
//!
//! The same reader loads skelpad's exports and SkelForm's own files, which
//! is how the tests know it reads the format as SkelForm writes it.
//!
//! The file is untrusted: arithmetic on its numbers is checked, an entry
//! unpacks to at most `MAX_ENTRY_BYTES`, and the fuzz target
//! `fuzz/fuzz_targets/read_skf.rs` feeds the reader arbitrary bytes.

use std::io::Read;

use super::*;

/// Everything wrong with a file, each with where it is.
#[derive(Clone, Debug, PartialEq)]
pub struct ReadError {
    /// One sentence per problem, each starting with where it is (`bones[3] (arm)`).
    pub problems: Vec<String>,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.problems.join("\n"))
    }
}

impl std::error::Error for ReadError {}

fn fail(msg: String) -> ReadError {
    ReadError { problems: vec![msg] }
}

/// A read `.skf`.
#[derive(Clone, Debug)]
pub struct SkfFile {
    /// The parsed `armature.json`.
    pub armature: SkfArmature,
    /// The text of `armature.json`, for checks on the raw JSON.
    pub json: String,
    /// Names of every file in the zip.
    pub files: Vec<String>,
    /// Decoded size of each atlas, in `armature.atlases` order.
    pub atlas_sizes: Vec<(u32, u32)>,
    /// The PNG bytes of each atlas, in `armature.atlases` order.
    pub atlas_png: Vec<Vec<u8>>,
    /// `editor.json`, when present.
    pub editor_json: Option<String>,
}

/// Parses `armature.json`; a syntax or type error names its line and column.
pub fn parse_armature(json: &str) -> Result<SkfArmature, ReadError> {
    serde_json::from_str(json)
        .map_err(|e| fail(format!("armature.json:{}:{}: {e}", e.line(), e.column())))
}

/// The most bytes one entry of the zip may unpack to (`armature.json`, an
/// atlas). A larger declared size is refused before anything is unpacked,
/// and unpacking stops at the limit whatever the header claims.
pub const MAX_ENTRY_BYTES: u64 = 64 << 20;
/// The most entries a `.skf` may hold.
pub const MAX_ENTRIES: usize = 4096;
/// The largest atlas side, in pixels.
pub const MAX_ATLAS_SIDE: u32 = 16384;
/// The last frame an animation may have (an hour at 60 fps).
pub const MAX_FRAME: u32 = 216_000;
/// The largest magnitude of any number in the file.
pub const MAX_MAGNITUDE: f32 = 1e7;

fn read_entry(
    zip: &mut zip::ZipArchive<std::io::Cursor<&[u8]>>,
    name: &str,
) -> Result<Option<Vec<u8>>, ReadError> {
    let f = match zip.by_name(name) {
        Ok(f) => f,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => return Err(fail(format!("{name}: {e}"))),
    };
    if f.size() > MAX_ENTRY_BYTES {
        return Err(fail(format!(
            "{name}: unpacks to {} bytes, more than the {MAX_ENTRY_BYTES} allowed",
            f.size()
        )));
    }
    let mut out = Vec::new();
    f.take(MAX_ENTRY_BYTES + 1).read_to_end(&mut out).map_err(|e| fail(format!("{name}: {e}")))?;
    if out.len() as u64 > MAX_ENTRY_BYTES {
        return Err(fail(format!(
            "{name}: unpacks to more than the {MAX_ENTRY_BYTES} bytes allowed"
        )));
    }
    Ok(Some(out))
}

/// An ID or index from the file as a position (`None` when it cannot be one).
fn position(v: impl TryInto<usize>) -> Option<usize> {
    v.try_into().ok()
}

/// Whether `offset + size` stays within `limit`, without overflowing.
fn fits(offset: u32, size: u32, limit: u32) -> bool {
    offset.checked_add(size).is_some_and(|end| end <= limit)
}

/// Reads and checks a whole `.skf`.
pub fn read_skf(bytes: &[u8]) -> Result<SkfFile, ReadError> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| fail(format!("not a zip: {e}")))?;
    if zip.len() > MAX_ENTRIES {
        return Err(fail(format!(
            "the zip holds {} entries, more than the {MAX_ENTRIES} allowed",
            zip.len()
        )));
    }
    let files: Vec<String> = (0..zip.len())
        .filter_map(|i| zip.name_for_index(i).and_then(|n| n.ok()).map(|n| n.to_string()))
        .collect();
    let json_bytes = read_entry(&mut zip, "armature.json")?
        .ok_or_else(|| fail("the zip has no armature.json".into()))?;
    let json = String::from_utf8(json_bytes)
        .map_err(|e| fail(format!("armature.json is not UTF-8: {e}")))?;
    let armature = parse_armature(&json)?;
    let mut problems = validate(&armature);
    let Atlases { sizes: atlas_sizes, png: atlas_png } =
        read_atlases(&mut zip, &armature, &mut problems)?;
    check_textures_fit(&armature, &atlas_sizes, &mut problems);
    let editor_json = read_editor_json(&mut zip, &armature, &mut problems)?;
    if problems.is_empty() {
        Ok(SkfFile { armature, json, files, atlas_sizes, atlas_png, editor_json })
    } else {
        Err(ReadError { problems })
    }
}

/// The zip a `.skf` is.
type Zip<'a> = zip::ZipArchive<std::io::Cursor<&'a [u8]>>;

/// The atlases of a `.skf` that read well, in order.
struct Atlases {
    /// Each one's size in pixels.
    sizes: Vec<(u32, u32)>,
    /// Each one's PNG file.
    png: Vec<Vec<u8>>,
}

/// The atlases' PNG files and their sizes (those that read well, in order);
/// what is wrong with the others goes to `problems`.
fn read_atlases(
    zip: &mut Zip,
    armature: &SkfArmature,
    problems: &mut Vec<String>,
) -> Result<Atlases, ReadError> {
    let mut atlas_sizes = Vec::new();
    let mut atlas_png = Vec::new();
    for (i, atlas) in armature.atlases.iter().enumerate() {
        let at = format!("atlases[{i}] ({})", atlas.filename);
        if let Err(why) = check_entry_name(&atlas.filename) {
            problems.push(format!("{at}: {why}"));
            continue;
        }
        let Some(png_bytes) = read_entry(zip, &atlas.filename)? else {
            problems.push(format!("{at}: no such file in the zip"));
            continue;
        };
        match image::ImageReader::with_format(
            std::io::Cursor::new(&png_bytes),
            image::ImageFormat::Png,
        )
        .into_dimensions()
        {
            Err(e) => problems.push(format!("{at}: not a PNG: {e}")),
            Ok((w, h)) if w > MAX_ATLAS_SIDE || h > MAX_ATLAS_SIDE => problems.push(format!(
                "{at}: the image is {w}×{h}, larger than {MAX_ATLAS_SIDE} pixels a side"
            )),
            Ok((w, h)) => {
                if (w, h) != (atlas.size.x, atlas.size.y) {
                    problems.push(format!(
                        "{at}: the image is {w}×{h}, the file says {}×{}",
                        atlas.size.x, atlas.size.y
                    ));
                }
                atlas_sizes.push((w, h));
                atlas_png.push(png_bytes);
            }
        }
    }
    Ok(Atlases { sizes: atlas_sizes, png: atlas_png })
}

/// Every style's texture must lie inside its atlas.
fn check_textures_fit(
    armature: &SkfArmature,
    atlas_sizes: &[(u32, u32)],
    problems: &mut Vec<String>,
) {
    for (s, style) in armature.styles.iter().enumerate() {
        for (t, tex) in style.textures.iter().enumerate() {
            let Some(&(w, h)) = position(tex.atlas_idx).and_then(|a| atlas_sizes.get(a)) else {
                continue;
            };
            if !fits(tex.offset.x, tex.size.x, w) || !fits(tex.offset.y, tex.size.y, h) {
                problems.push(format!(
                    "styles[{s}].textures[{t}] ({}): reaches past its {w}×{h} atlas",
                    tex.name
                ));
            }
        }
    }
}

/// The text of `editor.json`, if there is one; it must be JSON with as many
/// bones and styles as the armature.
fn read_editor_json(
    zip: &mut Zip,
    armature: &SkfArmature,
    problems: &mut Vec<String>,
) -> Result<Option<String>, ReadError> {
    let Some(b) = read_entry(zip, "editor.json")? else {
        return Ok(None);
    };
    let text = String::from_utf8(b).map_err(|e| fail(format!("editor.json is not UTF-8: {e}")))?;
    match serde_json::from_str::<serde_json::Value>(&text) {
        Err(e) => problems.push(format!("editor.json:{}:{}: {e}", e.line(), e.column())),
        Ok(v) => {
            let n = v.get("bones").and_then(|b| b.as_array()).map_or(0, |b| b.len());
            if n != armature.bones.len() {
                problems.push(format!(
                    "editor.json: {n} bones for an armature of {}",
                    armature.bones.len()
                ));
            }
            let s = v.get("styles").and_then(|b| b.as_array()).map_or(0, |b| b.len());
            if s != armature.styles.len() {
                problems.push(format!(
                    "editor.json: {s} styles for an armature of {}",
                    armature.styles.len()
                ));
            }
        }
    }
    Ok(Some(text))
}

/// An entry name a reader may follow: relative, inside the zip, no `..`.
pub fn check_entry_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("the file name is empty".into());
    }
    if name.starts_with('/') || name.starts_with('\\') || name.contains(':') {
        return Err(format!("the file name {name:?} is an absolute path"));
    }
    if name.split(['/', '\\']).any(|part| part == "..") {
        return Err(format!("the file name {name:?} leads outside the zip (`..`)"));
    }
    Ok(())
}

/// Reads any entry of a `.skf` by name, with the size limits of the reader
/// (`None` when it is not there).
pub fn read_named_entry(bytes: &[u8], name: &str) -> Result<Option<Vec<u8>>, ReadError> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| fail(format!("not a zip: {e}")))?;
    read_entry(&mut zip, name)
}

/// Checks the references and orderings runtimes rely on.
pub fn validate(a: &SkfArmature) -> Vec<String> {
    let mut p = Vec::new();
    if a.version.is_empty() {
        p.push("version: missing (SkelForm's editor needs it)".to_string());
    }
    check_bones(a, &mut p);
    check_visuals(a, &mut p);
    check_keyframes(a, &mut p);
    check_ik(a, &mut p);
    for (ai, anim) in a.animations.iter().enumerate() {
        if let Some(kf) = anim.keyframes.iter().find(|k| k.frame > MAX_FRAME) {
            p.push(format!(
                "animations[{ai}] ({}): frame {} is past the last frame allowed ({MAX_FRAME})",
                anim.name, kf.frame
            ));
        }
    }
    check_numbers(a, &mut p);
    for (s, style) in a.styles.iter().enumerate() {
        for (t, tex) in style.textures.iter().enumerate() {
            if position(tex.atlas_idx).is_none_or(|x| x >= a.atlases.len()) {
                p.push(format!(
                    "styles[{s}].textures[{t}] ({}): atlas_idx {} has no atlas",
                    tex.name, tex.atlas_idx
                ));
            }
        }
    }
    p
}

/// Whether `v` is -1 (none) or an index below `len`.
fn in_range(v: i32, len: usize) -> bool {
    v == -1 || position(v).is_some_and(|v| v < len)
}

/// Bones: ids are positions, parents come first, references resolve.
fn check_bones(a: &SkfArmature, p: &mut Vec<String>) {
    for (i, b) in a.bones.iter().enumerate() {
        let at = format!("bones[{i}] ({})", b.name);
        if position(b.id) != Some(i) {
            p.push(format!("{at}: id {} is not its position", b.id));
        }
        if b.parent_id != -1 && position(b.parent_id).is_none_or(|p| p >= i) {
            p.push(format!("{at}: parent_id {} is not an earlier bone", b.parent_id));
        }
        if !in_range(b.visuals_id, a.visuals.len()) {
            p.push(format!("{at}: visuals_id {} has no visual", b.visuals_id));
        }
        if !in_range(b.ik_family_id, a.inverse_kinematics.len()) {
            p.push(format!("{at}: ik_family_id {} has no inverse kinematics", b.ik_family_id));
        }
        if !in_range(b.physics_id, a.physics.len()) {
            p.push(format!("{at}: physics_id {} has no physics", b.physics_id));
        }
    }
}

/// Visuals: whole triangles, indices and binds that resolve.
fn check_visuals(a: &SkfArmature, p: &mut Vec<String>) {
    let nb = a.bones.len();
    for (v, vis) in a.visuals.iter().enumerate() {
        let at = format!("visuals[{v}]");
        let nv = vis.vertices.len();
        if vis.indices.len() % 3 != 0 {
            p.push(format!(
                "{at}: {} indices is not a whole number of triangles",
                vis.indices.len()
            ));
        }
        if let Some(i) = vis.indices.iter().find(|&&i| position(i).is_none_or(|i| i >= nv)) {
            p.push(format!("{at}: index {i} but only {nv} vertices"));
        }
        for (k, bind) in vis.binds.iter().enumerate() {
            if !in_range(bind.bone_id, nb) {
                p.push(format!("{at}.binds[{k}]: bone_id {} is not a bone", bind.bone_id));
            }
            if let Some(bv) = bind.verts.iter().find(|bv| position(bv.id).is_none_or(|i| i >= nv)) {
                p.push(format!("{at}.binds[{k}]: vertex {} but only {nv} vertices", bv.id));
            }
        }
    }
}

/// Animations: keyframes present, of bones, sorted, chained within their
/// bone and element.
fn check_keyframes(a: &SkfArmature, p: &mut Vec<String>) {
    let nb = a.bones.len();
    for (ai, anim) in a.animations.iter().enumerate() {
        let at = format!("animations[{ai}] ({})", anim.name);
        if anim.keyframes.is_empty() {
            p.push(format!(
                "{at}: no keyframes (runtimes take an animation's length from its last one)"
            ));
        }
        if anim.fps == 0 {
            p.push(format!("{at}: fps is 0"));
        }
        for (k, kf) in anim.keyframes.iter().enumerate() {
            let kat = format!("{at}.keyframes[{k}]");
            if position(kf.bone_id).is_none_or(|b| b >= nb) {
                p.push(format!("{kat}: bone_id {} is not a bone", kf.bone_id));
            }
            if let Some(prev) = k.checked_sub(1).and_then(|k| anim.keyframes.get(k))
                && kf.frame < prev.frame
            {
                p.push(format!(
                    "{kat}: frame {} comes after frame {} (keyframes must be sorted by frame)",
                    kf.frame, prev.frame
                ));
            }
            if kf.next_kf != -1 {
                match usize::try_from(kf.next_kf)
                    .ok()
                    .and_then(|n| anim.keyframes.get(n).map(|x| (n, x)))
                {
                    None => p.push(format!("{kat}: next_kf {} is not a keyframe", kf.next_kf)),
                    Some((n, next)) => {
                        if n <= k
                            || next.bone_id != kf.bone_id
                            || next.element != kf.element
                            || next.frame < kf.frame
                        {
                            p.push(format!("{kat}: next_kf {n} is not a later keyframe of the same bone and element"));
                        }
                    }
                }
            }
        }
    }
}

/// Inverse kinematics: bones that exist, known constraints and modes.
fn check_ik(a: &SkfArmature, p: &mut Vec<String>) {
    let nb = a.bones.len();
    for (f, fam) in a.inverse_kinematics.iter().enumerate() {
        let at = format!("inverse_kinematics[{f}]");
        if fam.target_id != -1 && position(fam.target_id).is_none_or(|t| t >= nb) {
            p.push(format!("{at}: target_id {} is not a bone", fam.target_id));
        }
        if let Some(b) = fam.bone_ids.iter().find(|&&b| position(b).is_none_or(|b| b >= nb)) {
            p.push(format!("{at}: bone_ids holds {b}, which is not a bone"));
        }
        if skelpad_lang::model::IkConstraint::from_skf_name(&fam.constraint).is_none() {
            p.push(format!(
                "{at}: constraint {:?} is not None, Clockwise or CounterClockwise",
                fam.constraint
            ));
        }
        if fam.mode != "FABRIK" && fam.mode != "Arc" {
            p.push(format!("{at}: mode {:?} is not FABRIK or Arc", fam.mode));
        }
    }
}

/// Every number must be finite and within [`MAX_MAGNITUDE`] (JSON cannot
/// say NaN, but 1e39 reads as an infinite `f32`).
fn check_numbers(a: &SkfArmature, p: &mut Vec<String>) {
    for (i, b) in a.bones.iter().enumerate() {
        let at = format!("bones[{i}] ({})", b.name);
        for (what, v) in [
            ("pos.x", b.pos.x),
            ("pos.y", b.pos.y),
            ("rot", b.rot),
            ("scale.x", b.scale.x),
            ("scale.y", b.scale.y),
            ("init_pos.x", b.init_pos.x),
            ("init_pos.y", b.init_pos.y),
            ("init_rot", b.init_rot),
            ("init_scale.x", b.init_scale.x),
            ("init_scale.y", b.init_scale.y),
        ] {
            check_number(p, &at, what, v);
        }
    }
    for (ai, anim) in a.animations.iter().enumerate() {
        for (k, kf) in anim.keyframes.iter().enumerate() {
            let at = format!("animations[{ai}] ({}).keyframes[{k}]", anim.name);
            for (what, v) in [
                ("value", kf.value),
                ("start_handle.x", kf.start_handle.x),
                ("end_handle.x", kf.end_handle.x),
                ("start_handle.y", kf.start_handle.y),
                ("end_handle.y", kf.end_handle.y),
            ] {
                check_number(p, &at, what, v);
            }
        }
    }
    check_visual_numbers(a, p);
    check_physics_numbers(a, p);
}

/// Adds a problem if `v` (field `what` of the item `at`) is not finite or
/// beyond [`MAX_MAGNITUDE`].
fn check_number(p: &mut Vec<String>, at: &str, what: &str, v: f32) {
    if !v.is_finite() || v.abs() > MAX_MAGNITUDE {
        p.push(format!("{at}: {what} {v} is not a finite number within ±{MAX_MAGNITUDE}"));
    }
}

/// The numbers of the visuals: pivots, tints, vertices, bind weights.
fn check_visual_numbers(a: &SkfArmature, p: &mut Vec<String>) {
    for (v, vis) in a.visuals.iter().enumerate() {
        let at = format!("visuals[{v}]");
        for (what, x) in [
            ("pivot_pos.x", vis.pivot_pos.x),
            ("pivot_pos.y", vis.pivot_pos.y),
            ("pivot_rot", vis.pivot_rot),
            ("pivot_scale.x", vis.pivot_scale.x),
            ("pivot_scale.y", vis.pivot_scale.y),
            ("tint.r", vis.tint.r),
            ("tint.g", vis.tint.g),
            ("tint.b", vis.tint.b),
            ("tint.a", vis.tint.a),
        ] {
            check_number(p, &at, what, x);
        }
        for (i, vert) in vis.vertices.iter().enumerate() {
            for (what, x) in [
                ("pos.x", vert.pos.x),
                ("pos.y", vert.pos.y),
                ("uv.x", vert.uv.x),
                ("uv.y", vert.uv.y),
            ] {
                check_number(p, &format!("{at}.vertices[{i}]"), what, x);
            }
        }
        for (k, bind) in vis.binds.iter().enumerate() {
            for (i, bv) in bind.verts.iter().enumerate() {
                check_number(p, &format!("{at}.binds[{k}].verts[{i}]"), "weight", bv.weight);
            }
        }
    }
}

/// The numbers of the physics settings.
fn check_physics_numbers(a: &SkfArmature, p: &mut Vec<String>) {
    for (i, ph) in a.physics.iter().enumerate() {
        let at = format!("physics[{i}]");
        for (what, v) in [
            ("global_pos.x", ph.global_pos.x),
            ("global_pos.y", ph.global_pos.y),
            ("global_scale.x", ph.global_scale.x),
            ("global_scale.y", ph.global_scale.y),
            ("global_rot", ph.global_rot),
            ("pos_damping", ph.pos_damping),
            ("scale_damping", ph.scale_damping),
            ("rot_damping", ph.rot_damping),
            ("pos_ratio", ph.pos_ratio),
            ("scale_ratio", ph.scale_ratio),
            ("global_orbit", ph.global_orbit),
            ("global_orbit_diff", ph.global_orbit_diff),
            ("global_orbit_vel", ph.global_orbit_vel),
            ("sway", ph.sway),
            ("rot_bounce", ph.rot_bounce),
        ] {
            check_number(p, &at, what, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_references_are_reported_with_their_place() {
        let mut a = SkfArmature { version: VERSION.into(), ..Default::default() };
        a.bones.push(SkfBone { id: 0, name: "root".into(), parent_id: 1, ..Default::default() });
        a.bones.push(SkfBone {
            id: 5,
            name: "child".into(),
            parent_id: 0,
            visuals_id: 3,
            ..Default::default()
        });
        a.animations.push(SkfAnimation {
            id: 0,
            name: "walk".into(),
            fps: 24,
            keyframes: vec![
                SkfKeyframe {
                    frame: 5,
                    bone_id: 0,
                    element: "PositionX".into(),
                    next_kf: 1,
                    ..Default::default()
                },
                SkfKeyframe {
                    frame: 2,
                    bone_id: 9,
                    element: "PositionY".into(),
                    ..Default::default()
                },
            ],
        });
        let p = validate(&a);
        let has = |s: &str| p.iter().any(|x| x.contains(s));
        assert!(has("bones[0] (root): parent_id 1 is not an earlier bone"), "{p:#?}");
        assert!(has("bones[1] (child): id 5 is not its position"));
        assert!(has("visuals_id 3 has no visual"));
        assert!(has("keyframes[1]: bone_id 9 is not a bone"));
        assert!(has("keyframes[1]: frame 2 comes after frame 5"));
        assert!(has(
            "keyframes[0]: next_kf 1 is not a later keyframe of the same bone and element"
        ));
    }

    #[test]
    fn sizes_and_ids_at_the_edge_of_their_types_are_problems_not_overflows() {
        assert!(fits(0, u32::MAX, u32::MAX));
        assert!(!fits(1, u32::MAX, u32::MAX), "the sum overflows: out of the atlas");
        assert!(!fits(u32::MAX, u32::MAX, 64));
        assert!(fits(60, 4, 64) && !fits(61, 4, 64));
        let mut a = SkfArmature { version: VERSION.into(), ..Default::default() };
        a.bones.push(SkfBone {
            id: u32::MAX,
            name: "b".into(),
            parent_id: i32::MIN,
            visuals_id: i32::MAX,
            ..Default::default()
        });
        let p = validate(&a);
        assert!(p.iter().any(|x| x.contains("id 4294967295 is not its position")), "{p:#?}");
        assert!(
            p.iter().any(|x| x.contains("parent_id -2147483648 is not an earlier bone")),
            "{p:#?}"
        );
    }

    #[test]
    fn a_json_error_names_line_and_column() {
        let e = parse_armature("{\n  \"bones\": [ { \"id\": \"x\" } ]\n}").unwrap_err();
        assert!(e.to_string().starts_with("armature.json:2:"), "{e}");
        assert!(read_skf(b"not a zip").unwrap_err().to_string().contains("not a zip"));
    }
}
