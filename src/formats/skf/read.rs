//! Reads a `.skf` and checks what runtimes rely on: IDs are array positions,
//! parents come before children, keyframes are sorted and chained within one
//! bone and element, every reference points at something that exists, and
//! every atlas named is a PNG of the stated size.
//!
//! The same reader loads skelpad's exports and SkelForm's own files, which
//! is how the tests know it reads the format as SkelForm writes it.

#![allow(missing_docs, reason = "issue 9: public items here still need doc comments")]

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
    /// `editor.json`, when present.
    pub editor_json: Option<String>,
}

/// Parses `armature.json`; a syntax or type error names its line and column.
pub fn parse_armature(json: &str) -> Result<SkfArmature, ReadError> {
    serde_json::from_str(json).map_err(|e| fail(format!("armature.json:{}:{}: {e}", e.line(), e.column())))
}

/// The most a single file inside a `.skf` may unpack to (SkelForm's atlases
/// are at most 4096² RGBA PNGs, far below this): a small file that claims
/// or inflates to more is refused instead of filling memory.
pub const MAX_ENTRY_BYTES: u64 = 256 << 20;

fn read_entry(zip: &mut zip::ZipArchive<std::io::Cursor<&[u8]>>, name: &str) -> Result<Option<Vec<u8>>, ReadError> {
    let f = match zip.by_name(name) {
        Ok(f) => f,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => return Err(fail(format!("{name}: {e}"))),
    };
    let mut out = Vec::new();
    // One byte more than allowed tells a too-large entry from one at the limit.
    f.take(MAX_ENTRY_BYTES + 1).read_to_end(&mut out).map_err(|e| fail(format!("{name}: {e}")))?;
    if out.len() as u64 > MAX_ENTRY_BYTES {
        return Err(fail(format!("{name}: unpacks to more than {} MiB", MAX_ENTRY_BYTES >> 20)));
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
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).map_err(|e| fail(format!("not a zip: {e}")))?;
    let files: Vec<String> = (0..zip.len()).filter_map(|i| zip.name_for_index(i).and_then(|n| n.ok()).map(|n| n.to_string())).collect();
    let json_bytes = read_entry(&mut zip, "armature.json")?.ok_or_else(|| fail("the zip has no armature.json".into()))?;
    let json = String::from_utf8(json_bytes).map_err(|e| fail(format!("armature.json is not UTF-8: {e}")))?;
    let armature = parse_armature(&json)?;
    let mut problems = validate(&armature);
    let mut atlas_sizes = Vec::new();
    for (i, atlas) in armature.atlases.iter().enumerate() {
        let at = format!("atlases[{i}] ({})", atlas.filename);
        match read_entry(&mut zip, &atlas.filename)? {
            None => problems.push(format!("{at}: no such file in the zip")),
            Some(png_bytes) => {
                match image::ImageReader::with_format(std::io::Cursor::new(png_bytes), image::ImageFormat::Png).into_dimensions() {
                    Err(e) => problems.push(format!("{at}: not a PNG: {e}")),
                    Ok((w, h)) => {
                        if (w, h) != (atlas.size.x, atlas.size.y) {
                            problems.push(format!("{at}: the image is {w}×{h}, the file says {}×{}", atlas.size.x, atlas.size.y));
                        }
                        atlas_sizes.push((w, h));
                    }
                }
            }
        }
    }
    for (s, style) in armature.styles.iter().enumerate() {
        for (t, tex) in style.textures.iter().enumerate() {
            let Some(&(w, h)) = position(tex.atlas_idx).and_then(|a| atlas_sizes.get(a)) else { continue };
            if !fits(tex.offset.x, tex.size.x, w) || !fits(tex.offset.y, tex.size.y, h) {
                problems.push(format!("styles[{s}].textures[{t}] ({}): reaches past its {w}×{h} atlas", tex.name));
            }
        }
    }
    let editor_json = match read_entry(&mut zip, "editor.json")? {
        None => None,
        Some(b) => {
            let text = String::from_utf8(b).map_err(|e| fail(format!("editor.json is not UTF-8: {e}")))?;
            match serde_json::from_str::<serde_json::Value>(&text) {
                Err(e) => problems.push(format!("editor.json:{}:{}: {e}", e.line(), e.column())),
                Ok(v) => {
                    let n = v.get("bones").and_then(|b| b.as_array()).map_or(0, |b| b.len());
                    if n != armature.bones.len() {
                        problems.push(format!("editor.json: {n} bones for an armature of {}", armature.bones.len()));
                    }
                    let s = v.get("styles").and_then(|b| b.as_array()).map_or(0, |b| b.len());
                    if s != armature.styles.len() {
                        problems.push(format!("editor.json: {s} styles for an armature of {}", armature.styles.len()));
                    }
                }
            }
            Some(text)
        }
    };
    if problems.is_empty() { Ok(SkfFile { armature, json, files, atlas_sizes, editor_json }) } else { Err(ReadError { problems }) }
}

/// Checks the references and orderings runtimes rely on.
pub fn validate(a: &SkfArmature) -> Vec<String> {
    let mut p = Vec::new();
    if a.version.is_empty() {
        p.push("version: missing (SkelForm's editor needs it)".to_string());
    }
    let nb = a.bones.len();
    let in_range = |v: i32, len: usize| v == -1 || position(v).is_some_and(|v| v < len);
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
    for (v, vis) in a.visuals.iter().enumerate() {
        let at = format!("visuals[{v}]");
        let nv = vis.vertices.len();
        if vis.indices.len() % 3 != 0 {
            p.push(format!("{at}: {} indices is not a whole number of triangles", vis.indices.len()));
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
    for (ai, anim) in a.animations.iter().enumerate() {
        let at = format!("animations[{ai}] ({})", anim.name);
        if anim.keyframes.is_empty() {
            p.push(format!("{at}: no keyframes (runtimes take an animation's length from its last one)"));
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
                p.push(format!("{kat}: frame {} comes after frame {} (keyframes must be sorted by frame)", kf.frame, prev.frame));
            }
            if kf.next_kf != -1 {
                match usize::try_from(kf.next_kf).ok().and_then(|n| anim.keyframes.get(n).map(|x| (n, x))) {
                    None => p.push(format!("{kat}: next_kf {} is not a keyframe", kf.next_kf)),
                    Some((n, next)) => {
                        if n <= k || next.bone_id != kf.bone_id || next.element != kf.element || next.frame < kf.frame {
                            p.push(format!("{kat}: next_kf {n} is not a later keyframe of the same bone and element"));
                        }
                    }
                }
            }
        }
    }
    for (s, style) in a.styles.iter().enumerate() {
        for (t, tex) in style.textures.iter().enumerate() {
            if position(tex.atlas_idx).is_none_or(|x| x >= a.atlases.len()) {
                p.push(format!("styles[{s}].textures[{t}] ({}): atlas_idx {} has no atlas", tex.name, tex.atlas_idx));
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_references_are_reported_with_their_place() {
        let mut a = SkfArmature { version: VERSION.into(), ..Default::default() };
        a.bones.push(SkfBone { id: 0, name: "root".into(), parent_id: 1, ..Default::default() });
        a.bones.push(SkfBone { id: 5, name: "child".into(), parent_id: 0, visuals_id: 3, ..Default::default() });
        a.animations.push(SkfAnimation {
            id: 0,
            name: "walk".into(),
            fps: 24,
            keyframes: vec![
                SkfKeyframe { frame: 5, bone_id: 0, element: "PositionX".into(), next_kf: 1, ..Default::default() },
                SkfKeyframe { frame: 2, bone_id: 9, element: "PositionY".into(), ..Default::default() },
            ],
        });
        let p = validate(&a);
        let has = |s: &str| p.iter().any(|x| x.contains(s));
        assert!(has("bones[0] (root): parent_id 1 is not an earlier bone"), "{p:#?}");
        assert!(has("bones[1] (child): id 5 is not its position"));
        assert!(has("visuals_id 3 has no visual"));
        assert!(has("keyframes[1]: bone_id 9 is not a bone"));
        assert!(has("keyframes[1]: frame 2 comes after frame 5"));
        assert!(has("keyframes[0]: next_kf 1 is not a later keyframe of the same bone and element"));
    }

    #[test]
    fn sizes_and_ids_at_the_edge_of_their_types_are_problems_not_overflows() {
        assert!(fits(0, u32::MAX, u32::MAX));
        assert!(!fits(1, u32::MAX, u32::MAX), "the sum overflows: out of the atlas");
        assert!(!fits(u32::MAX, u32::MAX, 64));
        assert!(fits(60, 4, 64) && !fits(61, 4, 64));
        let mut a = SkfArmature { version: VERSION.into(), ..Default::default() };
        a.bones.push(SkfBone { id: u32::MAX, name: "b".into(), parent_id: i32::MIN, visuals_id: i32::MAX, ..Default::default() });
        let p = validate(&a);
        assert!(p.iter().any(|x| x.contains("id 4294967295 is not its position")), "{p:#?}");
        assert!(p.iter().any(|x| x.contains("parent_id -2147483648 is not an earlier bone")), "{p:#?}");
    }

    #[test]
    fn a_json_error_names_line_and_column() {
        let e = parse_armature("{\n  \"bones\": [ { \"id\": \"x\" } ]\n}").unwrap_err();
        assert!(e.to_string().starts_with("armature.json:2:"), "{e}");
        assert!(read_skf(b"not a zip").unwrap_err().to_string().contains("not a zip"));
    }
}
