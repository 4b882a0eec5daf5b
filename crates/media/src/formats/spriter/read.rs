//! The element tree → Spriter's own data ([`Doc`]), with every check: bad
//! numbers, missing attributes, keys out of order. What is wrong becomes a
//! located [`Warning`] and a default, as SpriterPlusPlus's loader defaults
//! (spriterdocumentloader.cpp).

use std::collections::HashMap;

use super::Warning;
use super::tree::{Elem, Loc};
use skelpad_lang::model::{SpriterCurve, SpriterCurveKind};

/// More keys, timelines or animations than this in one list are refused
/// (the rest is ignored with a warning), so no loop runs away.
pub const MAX_ITEMS: usize = 100_000;
/// Animation lengths are clamped to this many milliseconds (about 11 days).
pub const MAX_LENGTH_MS: f64 = 1e9;

/// A whole Spriter file (`<spriter_data>`) in Spriter's own units: times in
/// milliseconds, x right and y up, angles in degrees counterclockwise.
#[derive(Clone, Debug, Default)]
pub struct Doc {
    /// Images and sounds by (folder id, file id).
    pub files: HashMap<(i64, i64), FileInfo>,
    /// The entities (characters) in file order; never empty once read.
    pub entities: Vec<Entity>,
    /// `generator_version`, e.g. `r11`.
    pub generator: Option<String>,
    /// Atlas files named by `<atlas>` (not read: images are loaded one by one).
    pub atlases: Vec<String>,
}

/// One `<file>` of a `<folder>`: an image (or a sound) the animations name.
#[derive(Clone, Debug, PartialEq)]
pub struct FileInfo {
    /// Relative to the Spriter file's folder.
    pub name: String,
    /// The image's width in pixels as the file states it (`None` when
    /// missing or negative; the image's own header is then the source).
    pub width: Option<f64>,
    /// The image's height in pixels, as `width`.
    pub height: Option<f64>,
    /// Default pivot, fractions from the bottom-left.
    pub pivot: [f64; 2],
    /// Whether the file is a sound (`type="sound"`), which sprites cannot show.
    pub sound: bool,
}

/// One `<entity>`: a character with its objects, character maps and
/// animations.
#[derive(Clone, Debug, Default)]
pub struct Entity {
    /// The entity's name (`entity N` when the file gives none).
    pub name: String,
    /// Where the entity's element is, for messages.
    pub loc: Option<Loc>,
    /// `obj_info`: name, type, w, h.
    pub obj_info: Vec<(String, String, f64, f64)>,
    /// The character maps (alternative image sets), in file order.
    pub character_maps: Vec<CharacterMap>,
    /// The animations, in file order.
    pub animations: Vec<Anim>,
    /// Entity variables: name, type, default.
    pub var_defs: Vec<(String, String, String)>,
}

/// (folder id, file id).
pub type FileRef = (i64, i64);

/// A `<character_map>`: images replaced by others, or hidden.
#[derive(Clone, Debug, Default)]
pub struct CharacterMap {
    /// The map's name as Spriter shows it.
    pub name: String,
    /// (folder, file) → target (folder, file), or hidden.
    pub maps: Vec<(FileRef, Option<FileRef>)>,
}

/// How a key's value moves towards the next key's (`curve_type`, with
/// `c1`..`c4`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum KeyCurve {
    /// Hold the key's value until the next key (`instant`).
    Instant,
    /// Straight from one value to the next (`linear`, also when absent or
    /// unknown).
    Linear,
    /// A polynomial or bezier curve (`quadratic` … `bezier`) with its
    /// control values.
    Other(SpriterCurve),
}

/// One `<animation>` of an entity.
#[derive(Clone, Debug)]
pub struct Anim {
    /// The animation's name (may repeat; the builder renames repeats).
    pub name: String,
    /// Where the animation's element is, for messages.
    pub loc: Loc,
    /// Length in milliseconds, always above 0 (a missing or non-positive
    /// length becomes the last key's time, or 1 ms).
    pub length_ms: f64,
    /// Whether the animation loops: true unless `looping` is exactly "false".
    pub looping: bool,
    /// The mainline keys, sorted by time: which objects exist, their parents
    /// and draw order from each key's time on.
    pub mainline: Vec<MainKey>,
    /// The timelines in file order (mainline refs name them by index).
    pub timelines: Vec<Timeline>,
    /// Event lines: name and key times (ms).
    pub events: Vec<(String, Vec<f64>)>,
    /// Sound lines: name and key times (ms).
    pub sounds: Vec<(String, Vec<f64>)>,
    /// Tag keys: time (ms) and the tag names active from then on.
    pub tags: Vec<(f64, Vec<String>)>,
    /// Variable lines: definition index and keys (time ms, value as text).
    pub vars: Vec<(i64, Vec<(f64, String)>)>,
}

/// A mainline key: the objects shown from its time until the next one.
#[derive(Clone, Debug)]
pub struct MainKey {
    /// Milliseconds from the animation's start (0..=[`MAX_LENGTH_MS`]).
    pub time: f64,
    /// The time warp until the next mainline key.
    pub curve: KeyCurve,
    /// The bones present; a ref's `parent` indexes this list.
    pub bone_refs: Vec<Ref>,
    /// The objects present, in draw order (first drawn first).
    pub object_refs: Vec<Ref>,
    /// Where the key's element is, for messages.
    pub loc: Loc,
}

/// A `bone_ref` or `object_ref`: one timeline key that a mainline key shows.
#[derive(Clone, Debug)]
pub struct Ref {
    /// Index of a bone_ref of the same mainline key.
    pub parent: Option<i64>,
    /// Index of the timeline in [`Anim::timelines`] (not checked here).
    pub timeline: i64,
    /// Index of the key in that timeline (not checked here).
    pub key: i64,
    /// Where the ref's element is, for messages.
    pub loc: Loc,
}

/// A `<timeline>`: the keys of one bone or object over the animation.
#[derive(Clone, Debug)]
pub struct Timeline {
    /// The object's name; it identifies the object across animations.
    pub name: String,
    /// `sprite` (also when absent), `bone`, `box`, `point`, `entity`, `sound`, …
    pub object_type: String,
    /// The keys in file order (mainline refs name them by index).
    pub keys: Vec<TKey>,
    /// Where the timeline's element is, for messages.
    pub loc: Loc,
}

/// A timeline key with its bone or object values (Spriter's defaults for
/// what is missing).
#[derive(Clone, Debug)]
pub struct TKey {
    /// Milliseconds from the animation's start (negative times become 0).
    pub time: f64,
    /// How the values move towards the next key.
    pub curve: KeyCurve,
    /// Which way the angle turns to the next key: 1 counterclockwise (the
    /// default), -1 clockwise, 0 no tween (hold).
    pub spin: i32,
    /// Position x relative to the parent (pixels, right).
    pub x: f64,
    /// Position y relative to the parent (pixels, up).
    pub y: f64,
    /// Angle relative to the parent, degrees counterclockwise.
    pub angle: f64,
    /// Scale along the object's own x axis (default 1).
    pub scale_x: f64,
    /// Scale along the object's own y axis (default 1).
    pub scale_y: f64,
    /// Opacity 0..1 (`a`, default 1), multiplied by the parents'.
    pub alpha: f64,
    /// The image a sprite key shows, as (folder id, file id).
    pub file: Option<(i64, i64)>,
    /// The key's own pivot (SpriterPlusPlus: when `pivot_x` is there;
    /// a missing `pivot_y` is 0).
    pub pivot: Option<[f64; 2]>,
    /// Where the key's element is, for messages.
    pub loc: Loc,
}

struct Ctx<'a> {
    warnings: &'a mut Vec<Warning>,
}

impl Ctx<'_> {
    fn warn(&mut self, loc: &Loc, message: String) {
        self.warnings.push(Warning { at: loc.to_string(), message });
    }

    /// A number attribute: missing → `default`; not a finite number →
    /// warning and `default`.
    fn num(&mut self, e: &Elem, name: &str, default: f64) -> f64 {
        let Some(v) = e.attr(name) else { return default };
        match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => x,
            _ => {
                self.warn(
                    &e.loc,
                    format!(
                        "`{name}` of <{}> is \"{}\", not a finite number; using {default}",
                        e.name,
                        clip(v)
                    ),
                );
                default
            }
        }
    }

    fn opt_num(&mut self, e: &Elem, name: &str) -> Option<f64> {
        e.attr(name)?;
        Some(self.num(e, name, 0.0))
    }

    /// An integer attribute (SCON writes some as strings: `"2"`).
    fn int(&mut self, e: &Elem, name: &str) -> Option<i64> {
        let v = e.attr(name)?;
        let t = v.trim();
        if let Ok(i) = t.parse::<i64>() {
            return Some(i);
        }
        match t.parse::<f64>() {
            Ok(x) if x.is_finite() && x.fract() == 0.0 && x.abs() < 1e15 => Some(x as i64),
            _ => {
                self.warn(
                    &e.loc,
                    format!(
                        "`{name}` of <{}> is \"{}\", not a whole number; ignored",
                        e.name,
                        clip(v)
                    ),
                );
                None
            }
        }
    }

    fn curve(&mut self, e: &Elem) -> KeyCurve {
        let kind = match e.attr("curve_type").map(str::trim) {
            None | Some("linear") => return KeyCurve::Linear,
            Some("instant") => return KeyCurve::Instant,
            Some("quadratic") => SpriterCurveKind::Quadratic,
            Some("cubic") => SpriterCurveKind::Cubic,
            Some("quartic") => SpriterCurveKind::Quartic,
            Some("quintic") => SpriterCurveKind::Quintic,
            Some("bezier") => SpriterCurveKind::Bezier,
            Some(other) => {
                self.warn(&e.loc, format!("unknown curve_type \"{}\"; using linear", clip(other)));
                return KeyCurve::Linear;
            }
        };
        let c = [
            self.num(e, "c1", 0.0),
            self.num(e, "c2", 0.0),
            self.num(e, "c3", 0.0),
            self.num(e, "c4", 0.0),
        ];
        KeyCurve::Other(SpriterCurve { kind, c })
    }

    fn time(&mut self, e: &Elem) -> f64 {
        let t = self.num(e, "time", 0.0);
        if t < 0.0 {
            self.warn(&e.loc, format!("negative key time {t}; using 0"));
            return 0.0;
        }
        t.min(MAX_LENGTH_MS)
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}

/// At most [`MAX_ITEMS`] items, with a warning when there are more.
fn bounded<'a>(
    ctx: &mut Ctx,
    parent: &Elem,
    items: impl Iterator<Item = &'a Elem>,
    what: &str,
) -> Vec<&'a Elem> {
    let mut v: Vec<&Elem> = items.take(MAX_ITEMS + 1).collect();
    if v.len() > MAX_ITEMS {
        v.truncate(MAX_ITEMS);
        ctx.warn(&parent.loc, format!("more than {MAX_ITEMS} {what}; the rest is ignored"));
    }
    v
}

/// Reads the element tree of a whole file. Problems that leave something
/// to play are pushed to `warnings` (with defaults in place); the error is
/// for a tree that is not Spriter data at all (wrong root, no entity).
pub fn read_doc(root: &Elem, warnings: &mut Vec<Warning>) -> Result<Doc, String> {
    if root.name != "spriter_data" {
        return Err(format!(
            "not a Spriter file: the root element is <{}>, not <spriter_data>",
            clip(&root.name)
        ));
    }
    let mut ctx = Ctx { warnings };
    let mut doc =
        Doc { generator: root.attr("generator_version").map(str::to_string), ..Default::default() };
    let folders = bounded(&mut ctx, root, root.children("folder"), "folders");
    for (fi, folder) in folders.iter().enumerate() {
        let fid = ctx.int(folder, "id").unwrap_or(fi as i64);
        for (i, file) in
            bounded(&mut ctx, folder, folder.children("file"), "files").iter().enumerate()
        {
            let id = ctx.int(file, "id").unwrap_or(i as i64);
            let Some(name) = file.attr("name") else {
                ctx.warn(&file.loc, "<file> without a `name`; ignored".into());
                continue;
            };
            let sound = file.attr("type") == Some("sound");
            // SpriterPlusPlus's default pivot is (0, 0) (spriterdocumentloader.cpp:330-352).
            let pivot = [ctx.num(file, "pivot_x", 0.0), ctx.num(file, "pivot_y", 0.0)];
            let width = ctx.opt_num(file, "width").filter(|w| *w >= 0.0);
            let height = ctx.opt_num(file, "height").filter(|h| *h >= 0.0);
            if doc
                .files
                .insert((fid, id), FileInfo { name: name.to_string(), width, height, pivot, sound })
                .is_some()
            {
                ctx.warn(
                    &file.loc,
                    format!("a second file {id} in folder {fid}; the last one counts"),
                );
            }
        }
    }
    for a in root.items("atlas") {
        if let Some(n) = a.attr("name") {
            doc.atlases.push(n.to_string());
        }
    }
    let entities = bounded(&mut ctx, root, root.children("entity"), "entities");
    if entities.is_empty() {
        return Err("the file has no <entity>".into());
    }
    for (ei, e) in entities.iter().enumerate() {
        doc.entities.push(read_entity(&mut ctx, e, ei));
    }
    Ok(doc)
}

fn read_entity(ctx: &mut Ctx, e: &Elem, index: usize) -> Entity {
    let mut ent = Entity {
        name: e.attr("name").map_or_else(|| format!("entity {index}"), str::to_string),
        loc: Some(e.loc.clone()),
        ..Default::default()
    };
    for oi in bounded(ctx, e, e.children("obj_info"), "obj_info elements") {
        let name = oi.attr("name").unwrap_or("").to_string();
        let ty = oi.attr("type").unwrap_or("sprite").to_string();
        let (w, h) = (ctx.num(oi, "w", 0.0), ctx.num(oi, "h", 0.0));
        ent.obj_info.push((name, ty, w, h));
    }
    for cm in bounded(ctx, e, e.children("character_map"), "character maps") {
        let mut map =
            CharacterMap { name: cm.attr("name").unwrap_or("").to_string(), maps: Vec::new() };
        for m in bounded(ctx, cm, cm.children("map"), "maps") {
            let (Some(f), Some(fi)) = (ctx.int(m, "folder"), ctx.int(m, "file")) else {
                ctx.warn(&m.loc, "<map> without `folder` and `file`; ignored".into());
                continue;
            };
            let target = match (ctx.int(m, "target_folder"), ctx.int(m, "target_file")) {
                (Some(tf), Some(tfi)) if tf >= 0 && tfi >= 0 => Some((tf, tfi)),
                _ => None,
            };
            map.maps.push(((f, fi), target));
        }
        ent.character_maps.push(map);
    }
    for v in e.items("var_defs") {
        ent.var_defs.push((
            v.attr("name").unwrap_or("").to_string(),
            v.attr("type").unwrap_or("").to_string(),
            v.attr("default").unwrap_or("").to_string(),
        ));
    }
    for a in bounded(ctx, e, e.children("animation"), "animations") {
        ent.animations.push(read_anim(ctx, a));
    }
    ent
}

/// An `<animation>`: its mainline, timelines and length (checked), then
/// the lines read but not played (events, sounds, tags, variables).
fn read_anim(ctx: &mut Ctx, a: &Elem) -> Anim {
    let name = a.attr("name").unwrap_or("").to_string();
    let length = ctx.num(a, "length", 0.0);
    // looping is true unless the text is exactly "false" (loader :721-725).
    let looping = a.attr("looping").map(str::trim) != Some("false");
    let mainline = read_mainline(ctx, a, &name);
    let mut timelines = Vec::new();
    for t in bounded(ctx, a, a.children("timeline"), "timelines") {
        let mut keys = Vec::new();
        for k in bounded(ctx, t, t.children("key"), "timeline keys") {
            keys.push(read_tkey(ctx, k));
        }
        timelines.push(Timeline {
            name: t.attr("name").unwrap_or("").to_string(),
            object_type: t.attr("object_type").unwrap_or("sprite").to_string(),
            keys,
            loc: t.loc.clone(),
        });
    }
    let max_key = mainline
        .iter()
        .map(|k| k.time)
        .chain(timelines.iter().flat_map(|t| t.keys.iter().map(|k| k.time)))
        .fold(0.0, f64::max);
    let length = checked_length(ctx, a, &name, length, max_key);
    let mut anim = Anim {
        name,
        loc: a.loc.clone(),
        length_ms: length,
        looping,
        mainline,
        timelines,
        events: Vec::new(),
        sounds: Vec::new(),
        tags: Vec::new(),
        vars: Vec::new(),
    };
    read_unplayed_lines(ctx, a, &mut anim);
    anim
}

/// The mainline keys of animation `a` (`name`), in time order.
fn read_mainline(ctx: &mut Ctx, a: &Elem, name: &str) -> Vec<MainKey> {
    let mut mainline = Vec::new();
    if let Some(ml) = a.child("mainline") {
        for k in bounded(ctx, ml, ml.children("key"), "mainline keys") {
            let time = ctx.time(k);
            let curve = ctx.curve(k);
            let refs = |name: &str, ctx: &mut Ctx| {
                let mut out = Vec::new();
                for r in bounded(ctx, k, k.children(name), name) {
                    let (Some(timeline), Some(key)) = (ctx.int(r, "timeline"), ctx.int(r, "key"))
                    else {
                        ctx.warn(&r.loc, format!("<{name}> without `timeline` and `key`; ignored"));
                        continue;
                    };
                    let parent = ctx.int(r, "parent").filter(|p| *p >= 0);
                    out.push(Ref { parent, timeline, key, loc: r.loc.clone() });
                }
                out
            };
            let bone_refs = refs("bone_ref", ctx);
            let object_refs = refs("object_ref", ctx);
            mainline.push(MainKey { time, curve, bone_refs, object_refs, loc: k.loc.clone() });
        }
    } else {
        ctx.warn(
            &a.loc,
            format!("animation \"{}\" has no <mainline>; nothing is shown", clip(name)),
        );
    }
    if mainline.windows(2).any(|w| w[1].time < w[0].time) {
        ctx.warn(
            &a.loc,
            format!("mainline keys of \"{}\" are out of time order; sorted", clip(name)),
        );
        mainline.sort_by(|x, y| x.time.total_cmp(&y.time));
    }
    mainline
}

/// The length of animation `a` (`name`): `length` as written, else (zero
/// or less) its last key's time or 1 ms, at most [`MAX_LENGTH_MS`].
fn checked_length(ctx: &mut Ctx, a: &Elem, name: &str, mut length: f64, max_key: f64) -> f64 {
    if length <= 0.0 {
        let fixed = if max_key > 0.0 { max_key } else { 1.0 };
        ctx.warn(
            &a.loc,
            format!("animation \"{}\" has length {length}; using {fixed} ms", clip(name)),
        );
        length = fixed;
    } else if length > MAX_LENGTH_MS {
        ctx.warn(
            &a.loc,
            format!(
                "animation \"{}\" is {length:e} ms long; clamped to {MAX_LENGTH_MS:e} ms",
                clip(name)
            ),
        );
        length = MAX_LENGTH_MS;
    }
    length
}

/// The event, sound, tag and variable lines of `a`, read but not played.
fn read_unplayed_lines(ctx: &mut Ctx, a: &Elem, anim: &mut Anim) {
    let key_times = |ctx: &mut Ctx, line: &Elem| -> Vec<f64> {
        bounded(ctx, line, line.children("key"), "keys").iter().map(|k| ctx.time(k)).collect()
    };
    for ev in bounded(ctx, a, a.children("eventline"), "event lines") {
        let times = key_times(ctx, ev);
        anim.events.push((ev.attr("name").unwrap_or("").to_string(), times));
    }
    for sl in bounded(ctx, a, a.children("soundline"), "sound lines") {
        let times = key_times(ctx, sl);
        anim.sounds.push((sl.attr("name").unwrap_or("").to_string(), times));
    }
    if let Some(meta) = a.child("meta") {
        for tl in meta.children("tagline") {
            for k in bounded(ctx, tl, tl.children("key"), "tag keys") {
                let time = ctx.time(k);
                let tags =
                    k.children("tag").filter_map(|t| t.attr("t").map(str::to_string)).collect();
                anim.tags.push((time, tags));
            }
        }
        for vl in meta.children("varline").chain(meta.children("valline")) {
            let def = ctx.int(vl, "def").unwrap_or(-1);
            let mut keys = Vec::new();
            for k in bounded(ctx, vl, vl.children("key"), "variable keys") {
                keys.push((ctx.time(k), k.attr("val").unwrap_or("").to_string()));
            }
            anim.vars.push((def, keys));
        }
    }
}

fn read_tkey(ctx: &mut Ctx, k: &Elem) -> TKey {
    let time = ctx.time(k);
    let curve = ctx.curve(k);
    let spin = match ctx.int(k, "spin").unwrap_or(1) {
        0 => 0,
        s if s < 0 => -1,
        _ => 1,
    };
    let mut key = TKey {
        time,
        curve,
        spin,
        x: 0.0,
        y: 0.0,
        angle: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        alpha: 1.0,
        file: None,
        pivot: None,
        loc: k.loc.clone(),
    };
    let Some(p) = k.child("bone").or_else(|| k.child("object")) else { return key };
    key.x = ctx.num(p, "x", 0.0);
    key.y = ctx.num(p, "y", 0.0);
    key.angle = ctx.num(p, "angle", 0.0);
    key.scale_x = ctx.num(p, "scale_x", 1.0);
    key.scale_y = ctx.num(p, "scale_y", 1.0);
    key.alpha = ctx.num(p, "a", 1.0);
    if let (Some(f), Some(fi)) = (ctx.int(p, "folder"), ctx.int(p, "file")) {
        key.file = Some((f, fi));
    }
    if p.attr("pivot_x").is_some() {
        key.pivot = Some([ctx.num(p, "pivot_x", 0.0), ctx.num(p, "pivot_y", 0.0)]);
    }
    key
}
