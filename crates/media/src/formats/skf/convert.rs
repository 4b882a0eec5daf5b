//! An imported `.skf` → an editable script (`skelpad convert`).
//!
//! The language composes bones as SkelForm's editor does (world rotation =
//! sum of rotations, world scale = product of scales, a child's position
//! taken through its parent's world matrix; LANGUAGE.md §6 without flips),
//! so bones carry over exactly. IK families are written as an `ik` section
//! when the language plays them as SkelForm does (see [`carried_families`]);
//! the others, and physics, which has no words in the language, are baked.
//! The setup pose is SkelForm's setup pose (baked IK applied), and every
//! animation is played frame by frame in skelpad's SkelForm runtime (IK and
//! physics included); each bone's local values that reproduce its world
//! transform become keys, one per frame where needed, merged into linear
//! segments wherever a straight line lands on every frame in between
//! (within 1e-4 units, degrees or scale), and into one `bz(…)` key where
//! the frames follow the keyframe's handles (`formats::curves`). The bones a carried family turns
//! get their local rotation from before IK (the script's `ik` section
//! turns them again).
//!
//! Pictures: every sprite is cut from its atlas into a folder beside the
//! script (`NAME_sprites/STYLE/TEXTURE.png`); slots, attachments, skins and
//! draw order follow the imported armature. What the language cannot hold
//! is listed with counts.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::ik::under;
use super::import::Imported;
use crate::formats::curves;
use skelpad_lang::io;
use skelpad_lang::model::*;
use skelpad_lang::runtime::{Pose, evaluate_into, skelform::SkfXform};

/// A converted file: the script and the pictures it names.
#[derive(Clone, Debug)]
pub struct Converted {
    /// The Skel2D script's text, ready to save as a `.skel2d` file.
    pub script: String,
    /// (path relative to the script's folder, straight RGBA8 width, height, pixels).
    pub sprites: Vec<(String, u32, u32, Vec<u8>)>,
    /// What could not be carried, with counts.
    pub not_carried: BTreeMap<String, usize>,
}

impl Converted {
    /// Writes the script to `script` and every sprite beside it (paths
    /// relative to the script's folder), all atomically and together: either
    /// every file is written or none is. Folders for the sprites are created.
    pub fn write(&self, script: &std::path::Path) -> Result<Vec<std::path::PathBuf>, String> {
        let dir = io::script_dir(Some(script));
        let mut files = io::AtomicFiles::new();
        for (rel, w, h, rgba) in &self.sprites {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| {
                    format!("cannot create `{}`: {}", parent.display(), io::reason(&e))
                })?;
            }
            let png = crate::png::encode_png(*w, *h, rgba).map_err(|e| format!("{rel}: {e}"))?;
            files.write(&path, &png).map_err(|e| e.to_string())?;
        }
        files.write(script, self.script.as_bytes()).map_err(|e| e.to_string())?;
        files.commit().map_err(|e| e.to_string())
    }
}

/// A name the language accepts (`[A-Za-z_-][A-Za-z0-9_-]*`, not `skeleton`).
pub fn script_name(name: &str) -> String {
    let mut out: String = name
        .trim()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    if out == "skeleton" {
        out.push('_');
    }
    out
}

/// The script path (`PARENT.NAME`, unique) of every bone, in skeleton order.
pub fn bone_paths(sk: &Skeleton) -> Vec<String> {
    let mut paths: Vec<String> = Vec::with_capacity(sk.bones.len());
    for b in &sk.bones {
        let base = script_name(&b.name);
        let prefix = b
            .parent
            .and_then(|p| paths.get(p.index()))
            .map(|p| format!("{p}."))
            .unwrap_or_default();
        let mut path = format!("{prefix}{base}");
        let mut k = 2;
        while paths.contains(&path) {
            path = format!("{prefix}{base}_{k}");
            k += 1;
        }
        paths.push(path);
    }
    paths
}

/// A file name without spaces or separators (sprite tokens cannot hold whitespace).
fn file_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
        .collect();
    if s.is_empty() { "_".into() } else { s.chars().take(80).collect() }
}

/// A number as the language writes it: no exponent, at most 4 decimals.
fn num(v: f64) -> String {
    num_dp(v, 4)
}

/// A number with at most `dp` decimals.
fn num_dp(v: f64, dp: usize) -> String {
    let v = if v.is_finite() { v } else { 0.0 };
    let mut s = format!("{v:.dp$}");
    if s.contains('.') {
        s = s.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if s == "-0" { "0".into() } else { s }
}

fn color(c: Color) -> String {
    let b = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let mut s = format!("#{:02X}{:02X}{:02X}", b(c.r), b(c.g), b(c.b));
    if c.a < 1.0 {
        let _ = write!(s, ",{}", num(c.a.clamp(0.0, 1.0)));
    }
    s
}

/// Local values (SkelForm's: position, rotation, scale) that put `child` at
/// its world transform under `parent`'s.
fn local_of(parent: Option<&SkfXform>, child: &SkfXform) -> [f64; 5] {
    let c = |v: f32| f64::from(v);
    let Some(p) = parent else {
        return [c(child.x), c(child.y), c(child.rot), c(child.sx), c(child.sy)];
    };
    let div = |a: f64, b: f64| if b == 0.0 { 0.0 } else { a / b };
    let (dx, dy) = (c(child.x) - c(p.x), c(child.y) - c(p.y));
    let (s, co) = c(p.rot).sin_cos();
    let (ux, uy) = (dx * co + dy * s, -dx * s + dy * co);
    [
        div(ux, c(p.sx)),
        div(uy, c(p.sy)),
        c(child.rot) - c(p.rot),
        div(c(child.sx), c(p.sx)),
        div(c(child.sy), c(p.sy)),
    ]
}

fn locals(sk: &Skeleton, pose: &Pose) -> Vec<[f64; 5]> {
    (0..sk.bones.len())
        .map(|i| local_of(sk.bones[i].parent.and_then(|p| pose.skf.get(p.index())), &pose.skf[i]))
        .collect()
}

fn wrap_deg(mut d: f64) -> f64 {
    d %= 360.0;
    if d > 180.0 {
        d -= 360.0;
    } else if d < -180.0 {
        d += 360.0;
    }
    d
}

/// Keeps the keys a linear interpolation cannot skip (`values` per frame).
fn simplify(values: &[f64], tol: f64, max_step: f64) -> Vec<usize> {
    let n = values.len();
    if n == 0 {
        return Vec::new();
    }
    let mut keep = vec![0];
    let mut start = 0;
    while start < n - 1 {
        // The longest run from `start` that a line covers.
        let mut end = start + 1;
        for cand in start + 2..n {
            let (a, b) = (values[start], values[cand]);
            if (b - a).abs() >= max_step {
                break;
            }
            let ok = (start + 1..cand).all(|k| {
                let t = (k - start) as f64 / (cand - start) as f64;
                (a + (b - a) * t - values[k]).abs() <= tol
            });
            if !ok {
                break;
            }
            end = cand;
        }
        keep.push(end);
        start = end;
    }
    keep
}

/// Which IK families the script carries as an `ik` section: those the
/// language plays exactly as SkelForm does and the compiler accepts.
/// - not mimicking the target, at least two bones, each the parent of the
///   next (SkelForm lets a family skip bones; a script's chain follows
///   parents);
/// - no active physics on the chain, the target or any bone above them (SkelForm
///   solves on the pose before physics, the script on the pose it plays);
/// - the target outside the chain's subtree, and no chain or target inside
///   another family's subtree (what the language's compiler asks);
/// - at every frame of the setup pose and every animation, each chain bone
///   but the last points at the next one (SkelForm sets the rotation, the
///   language turns the bone towards the next joint: the same when the
///   next bone lies on the positive x axis).
pub fn carried_families(arm: &Armature) -> Vec<bool> {
    let sk = &*arm.skeleton;
    let physics: Vec<bool> = {
        let mut v = vec![false; sk.bones.len()];
        for p in sk.physics.iter().filter(|p| p.is_active()) {
            if let Some(x) = v.get_mut(p.bone.index()) {
                *x = true;
            }
        }
        v
    };
    let above_physics = |b: usize| (0..sk.bones.len()).any(|p| physics[p] && under(sk, b, p));
    let mut carried: Vec<bool> = sk
        .ik
        .iter()
        .map(|f| {
            f.bones.len() >= 2
                && !f.mimic_target
                && f.bones
                    .windows(2)
                    .all(|w| sk.bones.get(w[1].index()).is_some_and(|b| b.parent == Some(w[0])))
                && f.bones
                    .iter()
                    .chain([&f.target])
                    .all(|b| b.index() < sk.bones.len() && !above_physics(b.index()))
                && !under(sk, f.target.index(), f.bones[0].index())
        })
        .collect();
    // A chain or target below another family's first bone: SkelForm solves
    // every family on the pose before any IK, the script on the pose it
    // plays (and its compiler refuses such families).
    let inside_another: Vec<bool> = (0..sk.ik.len())
        .map(|g| {
            let b = &sk.ik[g];
            (0..sk.ik.len()).filter(|&f| f != g).any(|f| {
                let a = &sk.ik[f];
                a.bones.first().is_some_and(|r| {
                    b.bones.iter().chain([&b.target]).any(|x| under(sk, x.index(), r.index()))
                })
            })
        })
        .collect();
    for (c, inside) in carried.iter_mut().zip(inside_another) {
        *c &= !inside;
    }
    if !carried.iter().any(|c| *c) {
        return carried;
    }
    // The pose before IK: does each chain bone point at the next one?
    let mut fk = sk.clone();
    fk.ik.clear();
    let fk_arm = Armature { skeleton: std::sync::Arc::new(fk), animations: arm.animations.clone() };
    let check = |pose: &Pose, carried: &mut Vec<bool>| {
        for (f, fam) in sk.ik.iter().enumerate() {
            if !carried[f] {
                continue;
            }
            for w in fam.bones.windows(2) {
                let (a, b) = (pose.skf[w[0].index()], pose.skf[w[1].index()]);
                let (dx, dy) = (f64::from(b.x - a.x), f64::from(b.y - a.y));
                let along = dx.hypot(dy) > 1e-6
                    && normalize_angle(dy.atan2(dx) - f64::from(a.rot)).abs() < 1e-4;
                if !along {
                    carried[f] = false;
                }
            }
        }
    };
    let mut pose = Pose::setup(&fk_arm.skeleton);
    check(&pose, &mut carried);
    for anim in &fk_arm.animations {
        let last = (anim.duration_secs * anim.fps).round().max(0.0) as usize;
        for f in 0..=last {
            evaluate_into(&mut pose, &fk_arm, Some(anim), SkinId(0), f as f64 / anim.fps);
            check(&pose, &mut carried);
        }
    }
    carried
}

/// Converts an imported file; sprite paths start with `sprite_dir` (a
/// folder name beside the script).
pub fn convert(imp: &Imported, sprite_dir: &str) -> Converted {
    let full = &imp.armature;
    let carried = carried_families(full);
    let before_ik = without_carried(full, &carried);
    let mut c = Converter::new(imp, before_ik.as_ref(), carried);
    let sprites = c.cut_sprites(sprite_dir);
    c.setup_locals();
    c.write_header();
    c.write_skeleton();
    c.write_skins();
    c.write_ik();
    c.write_order();
    for anim in &c.arm().animations {
        c.write_animation(anim);
    }
    Converted { script: c.s, sprites, not_carried: c.not_carried }
}

/// The armature played without its carried IK families (their chains'
/// rotations before IK), or `None` when no family is carried.
fn without_carried(full: &Armature, carried: &[bool]) -> Option<Armature> {
    if !carried.iter().any(|c| *c) {
        return None;
    }
    let mut sk = (*full.skeleton).clone();
    sk.ik = sk.ik.iter().zip(carried).filter(|(_, c)| !**c).map(|(f, _)| f.clone()).collect();
    Some(Armature { skeleton: std::sync::Arc::new(sk), animations: full.animations.clone() })
}

/// The state of one conversion: what is known of the armature and the
/// script written so far.
struct Converter<'a> {
    /// The imported file.
    imp: &'a Imported,
    /// The imported armature, IK and physics included.
    full: &'a Armature,
    /// The armature without its carried IK families, if any is carried.
    before_ik: Option<&'a Armature>,
    /// The imported skeleton.
    sk: &'a Skeleton,
    /// Per IK family: written as an `ik` section (else baked).
    carried: Vec<bool>,
    /// Bones whose local rotation comes from the pose before IK.
    turned: Vec<bool>,
    /// Each bone's dotted path in the script.
    paths: Vec<String>,
    /// Each attachment's name in the script.
    att_names: Vec<String>,
    /// Sprite name → picture file (relative to the script's folder).
    sprite_files: BTreeMap<String, String>,
    /// Each bone's setup-pose locals `[x, y, rotation rad, scale x, scale y]`.
    setup: Vec<[f64; 5]>,
    /// What could not be carried, with counts.
    not_carried: BTreeMap<String, usize>,
    /// The animations' names written so far.
    anim_names: Vec<String>,
    /// The script written so far.
    s: String,
}

impl<'a> Converter<'a> {
    /// Gathers the skeleton's names and the bones carried families turn, and
    /// counts the IK families and physics that are baked.
    fn new(imp: &'a Imported, before_ik: Option<&'a Armature>, carried: Vec<bool>) -> Self {
        let full = &imp.armature;
        let sk = &*full.skeleton;
        let mut turned = vec![false; sk.bones.len()];
        for (fam, _) in sk.ik.iter().zip(&carried).filter(|(_, c)| **c) {
            for b in &fam.bones[..fam.bones.len() - 1] {
                turned[b.index()] = true;
            }
        }
        let mut c = Converter {
            imp,
            full,
            before_ik,
            sk,
            turned,
            paths: bone_paths(sk),
            att_names: sk.attachments.iter().map(|a| script_name(&a.name)).collect(),
            sprite_files: BTreeMap::new(),
            setup: Vec::new(),
            not_carried: imp.not_carried.clone(),
            anim_names: Vec::new(),
            s: String::new(),
            carried,
        };
        c.add(
            "IK families (baked into the setup pose and into per-frame keys: they skip bones of their chain, mimic their target, have physics above them, sit below another family, or do not point each bone at the next)",
            c.carried.iter().filter(|c| !**c).count(),
        );
        c.add(
            "bones with physics (baked into per-frame keys, from frame 0 of each animation)",
            sk.physics.iter().filter(|p| p.is_active()).count(),
        );
        c
    }

    /// Counts `n` things of kind `what` that could not be carried.
    fn add(&mut self, what: &str, n: usize) {
        if n > 0 {
            *self.not_carried.entry(what.to_string()).or_default() += n;
        }
    }

    /// The armature whose poses give the script's locals (before carried IK).
    fn arm(&self) -> &'a Armature {
        self.before_ik.unwrap_or(self.full)
    }

    /// `skeleton.PATH` of bone `b`.
    fn bone_ref(&self, b: BoneId) -> String {
        format!("skeleton.{}", self.paths[b.index()])
    }

    /// Whether any IK family is written as an `ik` section.
    fn any_carried(&self) -> bool {
        self.carried.iter().any(|c| *c)
    }

    /// Cuts every sprite from its atlas into a file under `sprite_dir`
    /// (unique names) and returns the pictures.
    fn cut_sprites(&mut self, sprite_dir: &str) -> Vec<(String, u32, u32, Vec<u8>)> {
        let mut sprites = Vec::new();
        let mut used_files: Vec<String> = Vec::new();
        let imp = self.imp;
        for (src, pixels) in imp.sprite_pixels() {
            let Ok((w, h, rgba)) = pixels else {
                self.add("sprites whose atlas could not be decoded", 1);
                continue;
            };
            let mut file =
                format!("{sprite_dir}/{}/{}.png", file_name(&src.style), file_name(&src.texture));
            let mut k = 2;
            while used_files.contains(&file) {
                file = format!(
                    "{sprite_dir}/{}/{}_{k}.png",
                    file_name(&src.style),
                    file_name(&src.texture)
                );
                k += 1;
            }
            used_files.push(file.clone());
            self.sprite_files.insert(src.name.clone(), file.clone());
            sprites.push((file, w, h, rgba));
        }
        sprites
    }

    /// The setup pose's locals: SkelForm's, IK applied (carried families'
    /// chains: before IK).
    fn setup_locals(&mut self) {
        let sk = self.sk;
        self.setup = locals(sk, &Pose::setup(sk));
        if let Some(arm) = self.before_ik {
            let before = locals(sk, &Pose::setup(&arm.skeleton));
            for (i, l) in self.setup.iter_mut().enumerate() {
                if self.turned[i] {
                    l[2] = before[i][2];
                }
            }
        }
    }

    /// The comment that opens the script.
    fn write_header(&mut self) {
        let any_carried = self.any_carried();
        let s = &mut self.s;
        let _ = writeln!(s, "# Converted by skelpad from a SkelForm file.");
        if any_carried {
            let _ = writeln!(
                s,
                "# IK families the language plays alike are in the `ik` section; other IK"
            );
            let _ = writeln!(s, "# and physics are baked into the setup pose and per-frame keys.");
        } else {
            let _ =
                writeln!(s, "# IK and physics are baked into the setup pose and per-frame keys.");
        }
        let _ = writeln!(s);
    }

    /// An attachment's body in the script (`:sprite "FILE" x… y…`), counting
    /// meshes (which show nothing) in `mesh_count`.
    fn att_token(&self, a: &Attachment, mesh_count: &mut usize) -> Option<String> {
        let t = &a.transform;
        let tr = format!(
            " x{} y{} r{} i{} j{}",
            num(t.x),
            num(t.y),
            num(wrap_deg(t.rotation_rad.to_degrees())),
            num(t.scale_x),
            num(t.scale_y)
        );
        match &a.kind {
            AttachmentKind::Sprite { image: Some(img), .. } => {
                self.sprite_files.get(img).map(|f| format!(":sprite \"{f}\"{tr}"))
            }
            AttachmentKind::Mesh(_) => {
                *mesh_count += 1;
                None
            }
            _ => None,
        }
    }

    /// The `skeleton` section: every bone's setup locals and its slots with
    /// their attachments (the shown one first).
    fn write_skeleton(&mut self) {
        let sk = self.sk;
        let mut s = std::mem::take(&mut self.s);
        let _ = writeln!(s, "skeleton");
        let mut meshes = 0;
        for i in 0..sk.bones.len() {
            let [x, y, r, sx, sy] = self.setup[i];
            let (r, sx, sy) = (num_dp(wrap_deg(r.to_degrees()), 5), num_dp(sx, 6), num_dp(sy, 6));
            let _ = writeln!(s, "\t{} x{} y{} r{r} i{sx} j{sy}", self.paths[i], num(x), num(y));
            for (si, slot) in sk.slots.iter().enumerate().filter(|(_, sl)| sl.bone.index() == i) {
                let sid = SlotId::from_index(si);
                // The shown attachment first (a slot's setup attachment is its first).
                let mut order: Vec<AttachmentId> = slot.attachment.into_iter().collect();
                order.extend((0..sk.attachments.len()).map(AttachmentId::from_index).filter(|a| {
                    sk.attachments[a.index()].slot == sid && Some(*a) != slot.attachment
                }));
                let mut first = true;
                if slot.attachment.is_none() && !order.is_empty() {
                    let _ = writeln!(s, "\t\t@{}[none-] {}", slot_name(slot), color(slot.color));
                    first = false;
                }
                for a in order {
                    let body = sk
                        .attachment(SkinId(0), a)
                        .and_then(|att| self.att_token(att, &mut meshes))
                        .unwrap_or_default();
                    let col = if first { format!(" {}", color(slot.color)) } else { String::new() };
                    first = false;
                    let _ = writeln!(
                        s,
                        "\t\t@{}[{}]{col} {body}",
                        slot_name(slot),
                        self.att_names[a.index()]
                    );
                }
            }
        }
        self.s = s;
        self.add("meshes (their slots show nothing)", meshes);
    }

    /// One `skin` section per skin after the default, with the attachments
    /// that differ from the default skin's.
    fn write_skins(&mut self) {
        let sk = self.sk;
        let mut s = std::mem::take(&mut self.s);
        for skin in sk.skins.iter().skip(1) {
            let mut body = String::new();
            for (id, att) in sk.skin_changes(skin) {
                let a = id.index();
                let slot = &sk.slots[sk.attachments[a].slot.index()];
                let mut ignore = 0;
                let tok = self.att_token(att, &mut ignore).unwrap_or_default();
                let _ = writeln!(
                    body,
                    "\t@skeleton.{}.{}[{}] {tok}",
                    self.paths[slot.bone.index()],
                    slot_name(slot),
                    self.att_names[a]
                );
            }
            let name = script_name(&skin.name);
            let _ = writeln!(s, "\nskin \"{name}\"");
            if body.is_empty() {
                let _ = writeln!(s, "\t# the same pictures as the default skin");
            }
            s.push_str(&body);
        }
        self.s = s;
    }

    /// The `ik` section: the carried families, if any.
    fn write_ik(&mut self) {
        if !self.any_carried() {
            return;
        }
        let mut s = std::mem::take(&mut self.s);
        let _ = writeln!(s, "\nik");
        for (fam, _) in self.sk.ik.iter().zip(&self.carried).filter(|(_, c)| **c) {
            let tip = fam.bones[fam.bones.len() - 1];
            let mode = if fam.mode == IkMode::Arc { " arc" } else { "" };
            let bend = match fam.constraint {
                IkConstraint::None => "",
                IkConstraint::Clockwise => " cw",
                IkConstraint::CounterClockwise => " ccw",
            };
            let _ = writeln!(
                s,
                "\t{} to {} up {}{mode}{bend}",
                self.bone_ref(tip),
                self.bone_ref(fam.target),
                fam.bones.len() - 1
            );
        }
        self.s = s;
    }

    /// The `order` section: the draw order, if the skeleton has one.
    fn write_order(&mut self) {
        let sk = self.sk;
        if sk.draw_order.is_empty() {
            return;
        }
        let _ = writeln!(self.s, "\norder");
        for slot in &sk.draw_order {
            let sl = &sk.slots[slot.index()];
            let _ =
                writeln!(self.s, "\t@skeleton.{}.{}", self.paths[sl.bone.index()], slot_name(sl));
        }
    }

    /// One animation, baked frame by frame: its `anim` line, bone keys and
    /// slot keys.
    fn write_animation(&mut self, anim: &Animation) {
        let mut name = script_name(&anim.name);
        let mut k = 2;
        while self.anim_names.contains(&name) {
            name = format!("{}_{k}", script_name(&anim.name));
            k += 1;
        }
        self.anim_names.push(name.clone());
        let fps = super::whole_fps(anim.fps);
        let (frames, slot_frames) = self.bake_frames(anim);
        let _ = writeln!(self.s, "\nanim \"{name}\" {}fps 0:1:li", num(fps));
        for i in 0..self.sk.bones.len() {
            self.write_bone_keys(i, &frames, anim);
        }
        for si in 0..self.sk.slots.len() {
            self.write_slot_keys(si, &slot_frames);
        }
        if anim.fps.fract() != 0.0 {
            self.add("animations with fractional fps (rounded)", 1);
        }
    }

    /// Plays `anim` frame by frame: every bone's locals (carried families'
    /// chains: rotation before IK) and every slot's colour and attachment.
    fn bake_frames(&self, anim: &Animation) -> (Vec<Vec<[f64; 5]>>, Vec<SlotFrame>) {
        let sk = self.sk;
        let last = (anim.duration_secs * anim.fps).round().max(0.0) as usize;
        let mut pose = Pose::default();
        let mut before = Pose::default();
        let mut frames: Vec<Vec<[f64; 5]>> = Vec::with_capacity(last + 1);
        let mut slot_frames: Vec<SlotFrame> = Vec::with_capacity(last + 1);
        for f in 0..=last {
            evaluate_into(&mut pose, self.full, Some(anim), SkinId(0), f as f64 / anim.fps);
            let mut l = locals(sk, &pose);
            if let Some(arm) = self.before_ik {
                evaluate_into(&mut before, arm, Some(anim), SkinId(0), f as f64 / anim.fps);
                let b = locals(sk, &before);
                for (i, x) in l.iter_mut().enumerate() {
                    if self.turned[i] {
                        x[2] = b[i][2];
                    }
                }
            }
            frames.push(l);
            slot_frames.push(pose.slots.iter().map(|p| (p.color, p.attachment)).collect());
        }
        (frames, slot_frames)
    }

    /// Bone `i`'s keys for one animation, relative to its setup pose, merged
    /// into linear segments; nothing when it stays at its setup pose.
    fn write_bone_keys(&mut self, i: usize, frames: &[Vec<[f64; 5]>], anim: &Animation) {
        let mut lines = String::new();
        for (prop, idx) in [("x", 0), ("y", 1), ("r", 2), ("i", 3), ("j", 4)] {
            let base = self.setup[i][idx];
            let rel: Vec<f64> = frames
                .iter()
                .map(|l| {
                    let v = l[i][idx];
                    match idx {
                        0 | 1 => v - base,
                        2 => (v - base).to_degrees(),
                        _ if base == 0.0 => 1.0,
                        _ => v / base,
                    }
                })
                .collect();
            let neutral = if idx >= 3 { 1.0 } else { 0.0 };
            if rel.iter().all(|v| (v - neutral).abs() <= 1e-6) {
                continue;
            }
            if idx >= 3 && base == 0.0 {
                self.add("scale keys of bones whose setup scale is 0", 1);
                continue;
            }
            // Rotations are written unwrapped frame to frame and wrapped
            // per key; a segment must turn less than 180° (the language
            // takes the shorter way).
            let mut vals = rel.clone();
            if idx == 2 {
                for k in 1..vals.len() {
                    let d = wrap_deg(vals[k] - vals[k - 1]);
                    vals[k] = vals[k - 1] + d;
                }
            }
            // Tolerances and decimals per property: scales and angles
            // act on lever arms of hundreds of units.
            let (tol, dp) = match idx {
                0 | 1 => (1e-4, 4),
                2 => (1e-5, 5),
                _ => (1e-6, 6),
            };
            // Spans that follow their keyframe's handles become one eased key.
            let span = if idx == 2 { 170.0 } else { f64::INFINITY };
            let samples: Vec<(f64, f64)> =
                vals.iter().enumerate().map(|(k, &v)| (k as f64, v)).collect();
            let spans =
                curves::bone_spans(anim, BoneId::from_index(i), curves::BONE_PROPS[idx], anim.fps);
            let keys = curves::keys_with_curves(&samples, &spans, tol, span, &|p| {
                let v: Vec<f64> = p.iter().map(|s| s.1).collect();
                simplify(&v, tol, span).into_iter().map(|k| p[k]).collect()
            });
            let shown = |v: f64| num_dp(if idx == 2 { wrap_deg(v) } else { v }, dp);
            lines.push_str(&curves::stepped_line(prop, &keys, &shown));
            lines.push('\n');
        }
        if !lines.is_empty() {
            let _ = writeln!(self.s, "\t{}", self.bone_ref(BoneId::from_index(i)));
            self.s.push_str(&lines);
        }
    }

    /// Slot `si`'s keys for one animation: its attachment where it changes
    /// and each colour channel, merged into linear segments.
    fn write_slot_keys(&mut self, si: usize, slot_frames: &[SlotFrame]) {
        let slot = &self.sk.slots[si];
        let setup_slot = (slot.color, slot.attachment);
        let mut lines = String::new();
        if slot_frames.iter().any(|f| f[si].1 != setup_slot.1) {
            let mut line = "\t\t@".to_string();
            let mut prev = 0;
            let mut last_v = None;
            for (f, fr) in slot_frames.iter().enumerate() {
                let v = fr[si].1;
                if Some(v) == last_v {
                    continue;
                }
                if last_v.is_some() {
                    let _ = write!(line, " {}>", "-".repeat(f - prev));
                }
                let _ = write!(
                    line,
                    " {}",
                    v.map_or("none-".to_string(), |a| self.att_names[a.index()].clone())
                );
                prev = f;
                last_v = Some(v);
            }
            lines.push_str(&line);
            lines.push('\n');
        }
        for (prop, get) in [("r", 0usize), ("g", 1), ("b", 2), ("a", 3)] {
            let comp = |c: &Color| [c.r, c.g, c.b, c.a][get];
            let vals: Vec<f64> = slot_frames.iter().map(|f| comp(&f[si].0)).collect();
            if vals.iter().all(|v| (v - comp(&setup_slot.0)).abs() <= 1e-4) {
                continue;
            }
            let keep = simplify(&vals, 1e-4, f64::INFINITY);
            let mut line = format!("\t\t{prop}");
            let mut prev = 0;
            for (n, &k) in keep.iter().enumerate() {
                if n > 0 {
                    let _ = write!(line, " {}>", "-".repeat(k - prev));
                }
                let _ = write!(line, " {}", num(vals[k]));
                prev = k;
            }
            lines.push_str(&line);
            lines.push('\n');
        }
        if !lines.is_empty() {
            let _ = writeln!(
                self.s,
                "\t@skeleton.{}.{}",
                self.paths[slot.bone.index()],
                slot_name(slot)
            );
            self.s.push_str(&lines);
        }
    }
}

/// Every slot's colour and attachment at one frame.
type SlotFrame = Vec<(Color, Option<AttachmentId>)>;

/// A slot's name in the script: the last part of its dotted name.
fn slot_name(slot: &Slot) -> String {
    script_name(slot.name.rsplit('.').next().unwrap_or("visual"))
}
