//! `.skf` → [`Armature`]: what SkelForm's editor loads, in skelpad's model.
//!
//! - Bones keep the file's order, names (which may repeat) and local values;
//!   the skeleton composes them SkelForm's way ([`Composition::SkelForm`],
//!   evaluated by `runtime::skelform`). As SkelForm's editor does on load,
//!   every bone of an IK family but its first has its y position set to 0.
//! - A bone with a visual gets a slot (named `BONE.visual`), with one
//!   attachment per texture name it shows (its own and its `Texture` keys').
//!   Plain textures are sprites centered on the bone, moved by
//!   `pivot_pos × size`, turned by `pivot_rot`, scaled by `pivot_scale`;
//!   visuals with vertices are meshes.
//! - Styles become skins: skin 0 (`default`) looks a texture up through the
//!   styles the file marks active (`editor.json`; all of them when it says
//!   nothing) in order, first match wins, as SkelForm does; then one skin per
//!   style that looks in that style first, then in the active ones.
//! - Z-index → draw order; tint → slot color; `hidden` → no attachment shown
//!   by the bone and the bones below it (SkelForm hides children too).
//! - IK families, physics and their state come over as they are.
//! - Keys: `PositionX` … `ScaleY` are absolute bone channels; the timing
//!   curve of a segment (stored by SkelForm on the segment's later key) is
//!   put on its first key; `TintR..A` are slot colors; `Texture` (and `Tex`)
//!   switch attachments. What the model cannot hold (`Hidden`, `Zindex`,
//!   `IkConstraint`, `IkMode`, `MimicTarget`, pivot keys, unknown elements)
//!   is counted in [`Imported::not_carried`].

use std::collections::BTreeMap;
use std::sync::Arc;

use super::read::{ReadError, SkfFile, read_skf};
use super::*;
use skelpad_lang::model::*;

/// Where a sprite's pixels are in the file's atlases.
#[derive(Clone, Debug, PartialEq)]
pub struct SpriteSource {
    /// The sprite name attachments use (`STYLE/TEXTURE.png`, made safe as a path).
    pub name: String,
    /// The name of the SkelForm style the texture was found in.
    pub style: String,
    /// The texture's name inside that style, as the file spells it.
    pub texture: String,
    /// Index of the atlas image holding the pixels (`atlas_idx`).
    pub atlas: usize,
    /// Top-left corner of the texture in the atlas, in pixels (x, y down).
    pub offset: (u32, u32),
    /// Width and height of the texture in pixels.
    pub size: (u32, u32),
}

/// An imported `.skf`.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The file as skelpad's model: bones composed SkelForm's way, one slot
    /// per visual, one skin per style (after `default`), the animations.
    pub armature: Armature,
    /// Every sprite the armature names.
    pub sprites: Vec<SpriteSource>,
    /// The file as read (atlas PNGs included).
    pub file: SkfFile,
    /// What the model could not hold: a description and how many times.
    pub not_carried: BTreeMap<String, usize>,
}

/// A sprite's pixels: width, height and straight RGBA8 bytes.
pub type SpritePixels = (u32, u32, Vec<u8>);

impl Imported {
    /// The pixels of every sprite, cut from the atlases (straight RGBA8),
    /// each atlas decoded once; a sprite whose atlas cannot be decoded gets
    /// the reason instead.
    pub fn sprite_pixels(&self) -> Vec<(&SpriteSource, Result<SpritePixels, String>)> {
        let atlases: Vec<Result<image::RgbaImage, String>> =
            self.file.atlas_png.iter().map(|png| decode_png(png)).collect();
        self.sprites
            .iter()
            .map(|sprite| {
                let cut = match atlases.get(sprite.atlas) {
                    None => Err(format!("{}: no atlas {}", sprite.name, sprite.atlas)),
                    Some(Err(e)) => Err(format!("atlas {}: {e}", sprite.atlas)),
                    Some(Ok(img)) => {
                        let ((x, y), (w, h)) = (sprite.offset, sprite.size);
                        if u64::from(x) + u64::from(w) > u64::from(img.width())
                            || u64::from(y) + u64::from(h) > u64::from(img.height())
                        {
                            Err(format!("{}: reaches past its atlas", sprite.name))
                        } else {
                            Ok((
                                w,
                                h,
                                image::imageops::crop_imm(img, x, y, w, h).to_image().into_raw(),
                            ))
                        }
                    }
                };
                (sprite, cut)
            })
            .collect()
    }
}

impl Imported {
    /// Puts every sprite, cut from the atlases, into an image store under
    /// the names the attachments use.
    pub fn load_sprites(&self, store: &mut crate::render::ImageStore) {
        for (sprite, pixels) in self.sprite_pixels() {
            if let Ok((w, h, rgba)) = pixels
                && let Some(img) = crate::render::SpriteImage::from_rgba(
                    &sprite.name,
                    std::path::Path::new(&sprite.name),
                    w,
                    h,
                    &rgba,
                )
            {
                store.insert(&sprite.name, img);
            }
        }
    }
}

/// Decodes a PNG with limits on its size and memory.
pub fn decode_png(png: &[u8]) -> Result<image::RgbaImage, String> {
    let mut reader =
        image::ImageReader::with_format(std::io::Cursor::new(png), image::ImageFormat::Png);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(read::MAX_ATLAS_SIDE);
    limits.max_image_height = Some(read::MAX_ATLAS_SIDE);
    limits.max_alloc = Some(1 << 30);
    reader.limits(limits);
    reader.decode().map(|i| i.to_rgba8()).map_err(|e| format!("not a readable PNG: {e}"))
}

/// Reads and imports a `.skf`'s bytes.
pub fn import_skf(bytes: &[u8]) -> Result<Imported, ReadError> {
    let file = read_skf(bytes)?;
    Ok(import(file))
}

/// Reads and imports a `.skf` file; errors name the file.
pub fn import_path(path: &std::path::Path) -> Result<Imported, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if meta.len() > 1 << 30 {
        return Err(format!("{}: {} bytes is too large for a .skf", path.display(), meta.len()));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    import_skf(&bytes).map_err(|e| {
        e.problems.iter().map(|p| format!("{}: {p}", path.display())).collect::<Vec<_>>().join("\n")
    })
}

/// A `.skf` written again from a read one: `armature.json` as it was (every
/// field, including those skelpad does not model), the atlases, and the
/// editor's extras (`editor.json`, `thumbnail.png`, `readme.md`) when
/// present. Everything is checked by the reader first, so a file that
/// SkelForm's runtimes would trip on is refused rather than copied.
pub fn repack(bytes: &[u8]) -> Result<Vec<u8>, ReadError> {
    use std::io::Write;
    let file = read_skf(bytes)?;
    let err =
        |e: &dyn std::fmt::Display| ReadError { problems: vec![format!("writing the zip: {e}")] };
    let mut out = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    out.start_file("armature.json", opts).map_err(|e| err(&e))?;
    out.write_all(file.json.as_bytes()).map_err(|e| err(&e))?;
    let mut written: Vec<&str> = vec!["armature.json"];
    for (atlas, png) in file.armature.atlases.iter().zip(&file.atlas_png) {
        if written.contains(&atlas.filename.as_str()) {
            continue;
        }
        out.start_file(atlas.filename.as_str(), opts).map_err(|e| err(&e))?;
        out.write_all(png).map_err(|e| err(&e))?;
        written.push(&atlas.filename);
    }
    for extra in ["editor.json", "thumbnail.png", "readme.md"] {
        if written.contains(&extra) {
            continue;
        }
        if let Some(b) = read::read_named_entry(bytes, extra)? {
            out.start_file(extra, opts).map_err(|e| err(&e))?;
            out.write_all(&b).map_err(|e| err(&e))?;
        }
    }
    Ok(out.finish().map_err(|e| err(&e))?.into_inner())
}

/// Makes a name safe as one path component.
pub fn safe_component(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || matches!(c, ' ' | '-' | '_' | '.') { c } else { '_' })
        .collect::<String>()
        .trim()
        .trim_matches('.')
        .to_string();
    if out.is_empty() {
        out = "_".into();
    }
    out.truncate(80);
    out
}

/// Which styles skin 0 looks through: those `editor.json` marks active, or all.
fn active_styles(file: &SkfFile) -> Vec<usize> {
    let n = file.armature.styles.len();
    let from_editor = file
        .editor_json
        .as_deref()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok())
        .and_then(|v| {
            let styles = v.get("styles")?.as_array()?.clone();
            Some(
                styles
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.get("active").and_then(|a| a.as_bool()).unwrap_or(false))
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>(),
            )
        });
    match from_editor {
        Some(list) if list.iter().all(|&i| i < n) => list,
        _ => (0..n).collect(),
    }
}

/// Bones `editor.json` marks `ik_disabled`.
fn ik_disabled(file: &SkfFile) -> Vec<bool> {
    let n = file.armature.bones.len();
    let mut out = vec![false; n];
    let Some(v) =
        file.editor_json.as_deref().and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok())
    else {
        return out;
    };
    if let Some(bones) = v.get("bones").and_then(|b| b.as_array()) {
        for (i, b) in bones.iter().enumerate().take(n) {
            out[i] = b.get("ik_disabled").and_then(|d| d.as_bool()).unwrap_or(false);
        }
    }
    out
}

/// Builds the armature of a read (and validated) file.
pub fn import(file: SkfFile) -> Imported {
    let a = &file.armature;
    let mut not_carried: BTreeMap<String, usize> = BTreeMap::new();
    let fam_of = family_of(a);
    let ik = ik_families(&file, &fam_of, &mut not_carried);
    let bones = import_bones(a, &fam_of);
    let physics = import_physics(a);
    let (mut slots, slot_of, slot_visual) = import_slots(a);
    let (attachments, att_of) = name_attachments(a, &slot_of, &slot_visual);
    show_setup_attachments(a, &mut slots, &slot_visual, &att_of);
    let (contents, skins, sprites) = import_skins(&file, &attachments, &slot_visual);
    // Draw order: by z-index, then bone order.
    let mut draw_order: Vec<SlotId> = (0..slots.len()).map(SlotId::from_index).collect();
    draw_order.sort_by_key(|s| a.visuals[slot_visual[s.index()]].zindex);

    let skeleton = Skeleton {
        bones,
        slots,
        attachments,
        contents,
        skins,
        draw_order,
        composition: Composition::SkelForm,
        ik,
        physics,
        physics_reads: PhysicsReads::Editor,
    };

    let mut animations = Vec::new();
    for anim in &a.animations {
        animations.push(Arc::new(import_animation(
            anim,
            &skeleton,
            &slot_of,
            &att_of,
            &mut not_carried,
        )));
    }
    Imported {
        armature: {
            let arm = Armature { skeleton: Arc::new(skeleton), animations };
            debug_assert!(arm.parents_first(), "the reader refuses a later parent");
            arm
        },
        sprites,
        file,
        not_carried,
    }
}

/// IK families as the editor sees them: each bone whose ik_family_id names
/// a family marks all of that family's bones. Per bone, its family if any.
fn family_of(a: &SkfArmature) -> Vec<Option<usize>> {
    let mut fam_of: Vec<Option<usize>> = vec![None; a.bones.len()];
    for b in &a.bones {
        if b.ik_family_id >= 0
            && let Some(fam) = a.inverse_kinematics.get(b.ik_family_id as usize)
        {
            for &id in &fam.bone_ids {
                if let Some(f) = fam_of.get_mut(id as usize) {
                    *f = Some(b.ik_family_id as usize);
                }
            }
        }
    }
    fam_of
}

/// The IK families that play (on, with a target), each with its bones in
/// skeleton order; families switched off are counted in `not_carried`.
fn ik_families(
    file: &SkfFile,
    fam_of: &[Option<usize>],
    not_carried: &mut BTreeMap<String, usize>,
) -> Vec<IkFamily> {
    let a = &file.armature;
    let nb = a.bones.len();
    let disabled = ik_disabled(file);
    let mut ik: Vec<IkFamily> = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for i in 0..nb {
        let Some(f) = fam_of[i] else { continue };
        if seen.contains(&f) {
            continue;
        }
        seen.push(f);
        let fam = &a.inverse_kinematics[f];
        if disabled[i] {
            *not_carried
                .entry("IK family switched off in the editor (kept off)".into())
                .or_default() += 1;
            continue;
        }
        if fam.target_id < 0 {
            continue;
        }
        let bones: Vec<BoneId> =
            (0..nb).filter(|&b| fam_of[b] == Some(f)).map(BoneId::from_index).collect();
        ik.push(IkFamily {
            bones,
            target: BoneId::from_index(fam.target_id as usize),
            mode: if fam.mode == "Arc" { IkMode::Arc } else { IkMode::Fabrik },
            constraint: IkConstraint::from_skf_name(&fam.constraint).unwrap_or_default(),
            mimic_target: fam.mimic_target,
        });
    }
    ik
}

/// The bones with their setup transforms (an IK family's bones after its
/// first sit at y 0).
fn import_bones(a: &SkfArmature, fam_of: &[Option<usize>]) -> Vec<Bone> {
    a.bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let first_of_family = fam_of[i].is_some_and(|f| (0..i).all(|j| fam_of[j] != Some(f)));
            let y = if fam_of[i].is_some() && !first_of_family { 0.0 } else { f64::from(b.pos.y) };
            Bone {
                name: b.name.clone(),
                parent: (b.parent_id >= 0).then(|| BoneId::from_index(b.parent_id as usize)),
                setup: BoneTransform {
                    x: f64::from(b.pos.x),
                    y,
                    rotation_rad: f64::from(b.rot),
                    scale_x: f64::from(b.scale.x),
                    scale_y: f64::from(b.scale.y),
                    flip_x: false,
                    flip_y: false,
                },
                length: 0.0,
                color: Color::DEFAULT_BONE,
                inherit_rotation: true,
                inherit_scale: true,
            }
        })
        .collect()
}

/// The physics of every bone that has any, with its initial state.
fn import_physics(a: &SkfArmature) -> Vec<BonePhysics> {
    let mut physics = Vec::new();
    for (i, b) in a.bones.iter().enumerate() {
        let Some(p) = usize::try_from(b.physics_id).ok().and_then(|p| a.physics.get(p)) else {
            continue;
        };
        let f = f64::from;
        physics.push(BonePhysics {
            bone: BoneId::from_index(i),
            pos_damping: f(p.pos_damping),
            pos_ratio: f(p.pos_ratio),
            rot_damping: f(p.rot_damping),
            sway: f(p.sway),
            rot_bounce: f(p.rot_bounce),
            scale_damping: f(p.scale_damping),
            scale_ratio: f(p.scale_ratio),
            initial: PhysicsState {
                pos: (p.global_pos.x, p.global_pos.y),
                rot: p.global_rot,
                scale: (p.global_scale.x, p.global_scale.y),
                orbit: p.global_orbit,
                orbit_diff: p.global_orbit_diff,
                orbit_vel: p.global_orbit_vel,
            },
        });
    }
    physics
}

/// Slots: one per bone with a visual. Also each bone's slot and each slot's
/// visual index.
fn import_slots(a: &SkfArmature) -> (Vec<Slot>, Vec<Option<SlotId>>, Vec<usize>) {
    let mut slot_of: Vec<Option<SlotId>> = vec![None; a.bones.len()];
    let mut slots: Vec<Slot> = Vec::new();
    let mut slot_visual: Vec<usize> = Vec::new();
    for (i, b) in a.bones.iter().enumerate() {
        let Some(vis) = usize::try_from(b.visuals_id).ok().and_then(|v| a.visuals.get(v)) else {
            continue;
        };
        slot_of[i] = Some(SlotId::from_index(slots.len()));
        slot_visual.push(b.visuals_id as usize);
        slots.push(Slot {
            name: format!("{}.visual", b.name),
            bone: BoneId::from_index(i),
            color: Color {
                r: f64::from(vis.tint.r),
                g: f64::from(vis.tint.g),
                b: f64::from(vis.tint.b),
                a: f64::from(vis.tint.a),
            },
            attachment: None,
        });
    }
    (slots, slot_of, slot_visual)
}

/// One attachment per texture name a slot may show (its visual's, then
/// those animations key), and per slot its (name, attachment) pairs.
fn name_attachments(
    a: &SkfArmature,
    slot_of: &[Option<SlotId>],
    slot_visual: &[usize],
) -> (Vec<AttachmentSlotName>, Vec<Vec<(String, AttachmentId)>>) {
    let mut names: Vec<Vec<String>> = vec![Vec::new(); slot_visual.len()];
    for (s, &v) in slot_visual.iter().enumerate() {
        let tex = &a.visuals[v].tex;
        if !tex.is_empty() {
            names[s].push(tex.clone());
        }
    }
    for anim in &a.animations {
        for kf in &anim.keyframes {
            if (kf.element == element::TEXTURE || kf.element == "Tex")
                && let Some(s) = slot_of.get(kf.bone_id as usize).copied().flatten()
                && !kf.value_str.is_empty()
                && !names[s.index()].contains(&kf.value_str)
            {
                names[s.index()].push(kf.value_str.clone());
            }
        }
    }
    let mut attachments: Vec<AttachmentSlotName> = Vec::new();
    let mut att_of: Vec<Vec<(String, AttachmentId)>> = vec![Vec::new(); slot_visual.len()];
    for (s, list) in names.iter().enumerate() {
        for n in list {
            att_of[s].push((n.clone(), AttachmentId::from_index(attachments.len())));
            attachments.push(AttachmentSlotName { slot: SlotId::from_index(s), name: n.clone() });
        }
    }
    (attachments, att_of)
}

/// Each slot shows its visual's texture, unless its bone or one above it
/// is hidden.
fn show_setup_attachments(
    a: &SkfArmature,
    slots: &mut [Slot],
    slot_visual: &[usize],
    att_of: &[Vec<(String, AttachmentId)>],
) {
    for (s, slot) in slots.iter_mut().enumerate() {
        let tex = &a.visuals[slot_visual[s]].tex;
        slot.attachment = att_of[s].iter().find(|(n, _)| n == tex).map(|(_, id)| *id);
    }
    // Hidden bones hide what they and the bones below them show.
    let mut hidden = vec![false; a.bones.len()];
    for (i, b) in a.bones.iter().enumerate() {
        hidden[i] = b.hidden || (b.parent_id >= 0 && hidden[b.parent_id as usize]);
    }
    for slot in slots.iter_mut() {
        if hidden[slot.bone.index()] {
            slot.attachment = None;
        }
    }
}

/// The skins (the default: the active styles; then one per style, it
/// first) and the sprites they name.
fn import_skins(
    file: &SkfFile,
    attachments: &[AttachmentSlotName],
    slot_visual: &[usize],
) -> (Vec<Attachment>, Vec<Skin>, Vec<SpriteSource>) {
    let a = &file.armature;
    let active = active_styles(file);
    let mut sprites: Vec<SpriteSource> = Vec::new();
    let mut sprite_name = |style: usize, tex: &SkfTexture| -> String {
        let name =
            format!("{}/{}.png", safe_component(&a.styles[style].name), safe_component(&tex.name));
        if !sprites.iter().any(|s| s.name == name) {
            sprites.push(SpriteSource {
                name: name.clone(),
                style: a.styles[style].name.clone(),
                texture: tex.name.clone(),
                atlas: tex.atlas_idx as usize,
                offset: (tex.offset.x, tex.offset.y),
                size: (tex.size.x, tex.size.y),
            });
        }
        name
    };
    let mut skin_orders: Vec<(String, Vec<usize>)> = vec![("default".into(), active.clone())];
    for (i, st) in a.styles.iter().enumerate() {
        let mut order = vec![i];
        order.extend(active.iter().copied().filter(|&x| x != i));
        let mut name = st.name.clone();
        if name.is_empty() || name == "default" || skin_orders.iter().any(|(n, _)| *n == name) {
            name = format!("style{i}");
        }
        skin_orders.push((name, order));
    }
    // Each skin's contents of every attachment; the first is the default.
    let mut lists: Vec<(String, Vec<Attachment>)> = Vec::new();
    for (skin_name, order) in &skin_orders {
        let mut atts = Vec::with_capacity(attachments.len());
        for att in attachments {
            let vis = &a.visuals[slot_visual[att.slot.index()]];
            let found = order.iter().find_map(|&s| {
                a.styles[s].textures.iter().find(|t| t.name == att.name).map(|t| (s, t))
            });
            let Some((style, tex)) = found else {
                atts.push(Attachment::none());
                continue;
            };
            let image = Some(sprite_name(style, tex));
            if vis.vertices.is_empty() {
                let (w, h) = (f64::from(tex.size.x), f64::from(tex.size.y));
                atts.push(Attachment {
                    transform: AttachmentTransform {
                        x: w * f64::from(vis.pivot_pos.x),
                        y: h * f64::from(vis.pivot_pos.y),
                        rotation_rad: f64::from(vis.pivot_rot),
                        scale_x: f64::from(vis.pivot_scale.x),
                        scale_y: f64::from(vis.pivot_scale.y),
                    },
                    kind: AttachmentKind::Sprite { image, pivot: [0.5, 0.5] },
                });
            } else {
                atts.push(Attachment {
                    transform: AttachmentTransform::default(),
                    kind: AttachmentKind::Mesh(Box::new(mesh_of(vis, image))),
                });
            }
        }
        lists.push((skin_name.clone(), atts));
    }
    let mut lists = lists.into_iter();
    let (default_name, contents) = lists.next().unwrap_or_default();
    let mut skins = vec![Skin::named(default_name)];
    skins.extend(lists.map(|(name, full)| Skin::from_full(name, full, &contents)));
    (contents, skins, sprites)
}

fn mesh_of(vis: &SkfVisual, image: Option<String>) -> Mesh {
    Mesh {
        image,
        vertices: vis
            .vertices
            .iter()
            .map(|v| MeshVertex {
                x: f64::from(v.pos.x),
                y: f64::from(v.pos.y),
                u: f64::from(v.uv.x),
                v: f64::from(v.uv.y),
            })
            .collect(),
        indices: vis.indices.clone(),
        binds: vis
            .binds
            .iter()
            .filter(|b| b.bone_id >= 0)
            .map(|b| MeshBind {
                bone: BoneId::from_index(b.bone_id as usize),
                path: b.is_path,
                verts: b.verts.iter().map(|v| (v.id, f64::from(v.weight))).collect(),
            })
            .collect(),
        pivot_rot: f64::from(vis.pivot_rot),
        pivot_scale: (f64::from(vis.pivot_scale.x), f64::from(vis.pivot_scale.y)),
    }
}

fn curve_into(kf: &SkfKeyframe) -> Curve {
    if kf.start_handle.y == 999.0 && kf.end_handle.y == 999.0 {
        Curve::Stepped
    } else {
        Curve::bezier(
            f64::from(kf.start_handle.x),
            f64::from(kf.start_handle.y),
            f64::from(kf.end_handle.x),
            f64::from(kf.end_handle.y),
        )
    }
}

/// The keys of a numeric element, each easing into the next as SkelForm's
/// next key's handles say.
fn numeric_keys(kfs: &[&SkfKeyframe], fps: f64) -> Vec<Key<f64>> {
    kfs.iter()
        .enumerate()
        .map(|(i, kf)| Key {
            time_secs: f64::from(kf.frame) / fps,
            value: f64::from(kf.value),
            curve: kfs.get(i + 1).map_or(Curve::LINEAR, |next| curve_into(next)),
        })
        .collect()
}

/// The bone property an element keys, if it is a transform's.
fn bone_property(el: &str) -> Option<BoneProperty> {
    match el {
        element::POSITION_X => Some(BoneProperty::X),
        element::POSITION_Y => Some(BoneProperty::Y),
        element::ROTATION => Some(BoneProperty::Rotation),
        element::SCALE_X => Some(BoneProperty::ScaleX),
        element::SCALE_Y => Some(BoneProperty::ScaleY),
        _ => None,
    }
}

/// How the import's report names keys of an element it does not carry.
fn not_carried_keys(el: &str) -> String {
    match el {
        "Hidden" | "Zindex" | "IkConstraint" | "IkMode" | "MimicTarget" => format!("`{el}` keys"),
        e if e.starts_with("Pivot") => format!("`{el}` keys"),
        e if e.starts_with("Tint") || e == element::TEXTURE || e == "Tex" => {
            format!("`{el}` keys on a bone without a visual")
        }
        _ => format!("keys of unknown element `{el}`"),
    }
}

fn import_animation(
    anim: &SkfAnimation,
    skeleton: &Skeleton,
    slot_of: &[Option<SlotId>],
    att_of: &[Vec<(String, AttachmentId)>],
    not_carried: &mut BTreeMap<String, usize>,
) -> Animation {
    let fps = f64::from(anim.fps.max(1));
    let mut out = Animation::empty(&anim.name, fps);
    out.angle_interpolation = AngleInterpolation::Linear;
    // Keys of each (bone, element), in file order (sorted by frame).
    let mut groups: BTreeMap<(u32, String), Vec<&SkfKeyframe>> = BTreeMap::new();
    for kf in &anim.keyframes {
        groups.entry((kf.bone_id, kf.element.clone())).or_default().push(kf);
    }
    let numeric = |kfs: &[&SkfKeyframe]| numeric_keys(kfs, fps);
    for ((bone_id, el), kfs) in &groups {
        let bone = BoneId(*bone_id);
        if bone.index() >= skeleton.bones.len() {
            continue;
        }
        if let Some(property) = bone_property(el) {
            out.bones.push(BoneChannel {
                bone,
                property,
                mode: ValueMode::Absolute,
                keys: numeric(kfs),
            });
            continue;
        }
        let slot = slot_of.get(bone.index()).copied().flatten();
        if let Some(c) = element::TINT.iter().position(|t| t == el)
            && let Some(slot) = slot
        {
            let component =
                [ColorComponent::R, ColorComponent::G, ColorComponent::B, ColorComponent::A][c];
            out.slot_colors.push(SlotColorChannel { slot, component, keys: numeric(kfs) });
            continue;
        }
        if (el == element::TEXTURE || el == "Tex")
            && let Some(slot) = slot
        {
            let keys = kfs
                .iter()
                .map(|kf| Key {
                    time_secs: f64::from(kf.frame) / fps,
                    value: att_of[slot.index()]
                        .iter()
                        .find(|(n, _)| *n == kf.value_str)
                        .map(|(_, id)| *id),
                    curve: Curve::Stepped,
                })
                .collect();
            out.attachments.push(AttachmentChannel { slot, keys });
            continue;
        }
        *not_carried.entry(not_carried_keys(el)).or_default() += kfs.len();
    }
    let last = anim.keyframes.iter().map(|k| k.frame).max().unwrap_or(0);
    out.duration_secs = f64::from(last) / fps;
    out
}

/// The world transform of every bone in SkelForm's terms, for tests and
/// tools: position, rotation, scale.
pub fn world_bones(pose: &skelpad_lang::runtime::Pose) -> Vec<(f64, f64, f64, f64, f64)> {
    pose.skf
        .iter()
        .map(|b| {
            (f64::from(b.x), f64::from(b.y), f64::from(b.rot), f64::from(b.sx), f64::from(b.sy))
        })
        .collect()
}
