//! The dopesheet: one row per animated item (bone or slot) of the selected
//! animation and one per property under it, with a diamond per key, all
//! read from the compiler's source map; and moving a key in time, written
//! back into the text.
//!
//! [`move_key`] is a pure function of the text, its compilation and the
//! key wanted where: it changes only the frame tokens around the key (the
//! advance before it and the one after it, so that the next key stays
//! where it was), then proves the result by compiling it — every key of the
//! animation must be where it was, but the moved one at its new frame with
//! its value unchanged — and refuses with a reason otherwise.

use crate::compile::{Compilation, KeyOrigin, KeySource, Target, TimelineSource};
use crate::model::AnimId;
use crate::syntax::token;

use super::write_back::{Edit, apply, format_number};

/// The frame tokens between two keys (or before a timeline's first key):
/// those that move the frame (advances and frame options).
struct Gap<'a> {
    /// Every token in the gap that moves the frame, with its byte range.
    movers: Vec<(std::ops::Range<usize>, &'a str)>,
}

/// Reads the tokens of `text[range]`: each must be an advance (`-->`) or an
/// options token (`F:S:E>`); a loop brace or anything else is refused.
fn gap(text: &str, range: std::ops::Range<usize>) -> Result<Gap<'_>, String> {
    let mut movers = Vec::new();
    let slice = text.get(range.clone()).ok_or("the key's text is out of date")?;
    let mut pos = 0;
    for tok in slice.split_whitespace() {
        let at = pos + slice[pos..].find(tok).unwrap_or(0);
        pos = at + tok.len();
        let r = range.start + at..range.start + pos;
        if tok.starts_with('{') || tok.starts_with('}') {
            return Err("a loop brace stands between this key and its neighbour".into());
        }
        if let Some(n) = token::advance(tok) {
            if n > 0 {
                movers.push((r, tok));
            }
            continue;
        }
        match token::options(tok, true) {
            Some(o) => {
                if o.frame.is_some() || o.advance > 0 {
                    movers.push((r, tok));
                }
            }
            None => return Err(format!("`{tok}` stands between this key and its neighbour")),
        }
    }
    Ok(Gap { movers })
}

/// The options token `tok` (or a plain advance) rewritten to set the frame
/// to `frame` and advance no further: `-->` → `14:>`, `:3:so->` → `14:3:so>`,
/// `10:->` → `14:>`.
fn absolute(tok: &str, frame: f64) -> String {
    let body = tok.strip_suffix('>').unwrap_or(tok).trim_end_matches('-');
    // The step and easing part, from the first `:` (none in a plain advance).
    let rest = match body.find(':') {
        Some(i) => &body[i..],
        None => ":",
    };
    format!("{}{rest}>", format_number(frame))
}

/// `+N:…>` with `N` changed by `by`; `None` when `tok` is not relative or
/// `N` would fall below 0.
fn relative(tok: &str, by: f64) -> Option<String> {
    let o = token::options(tok, true)?;
    let f = o.frame.filter(|f| f.relative)?;
    let n = f.value + by;
    if n < -1e-9 {
        return None;
    }
    let colon = tok.find(':')?;
    Some(format!("+{}{}", format_number(n.max(0.0)), &tok[colon..]))
}

/// The edits that bring the frame to `frame` at the end of the gap
/// `range`, given that the gap brings it there from `d` frames earlier
/// (`d` is the move: the frame at the gap's start moved by `-d`).
fn retime(
    text: &str,
    range: std::ops::Range<usize>,
    frame: f64,
    d: f64,
) -> Result<Vec<Edit>, String> {
    let g = gap(text, range.clone())?;
    match g.movers.as_slice() {
        [(r, tok)] => {
            if token::options(tok, true).and_then(|o| o.frame).is_some_and(|f| f.relative) {
                let t = relative(tok, d).ok_or("the advance before the key would be negative")?;
                Ok(vec![Edit { range: r.clone(), text: t }])
            } else {
                Ok(vec![Edit { range: r.clone(), text: absolute(tok, frame) }])
            }
        }
        // Nothing moves the frame (a first key): only a later frame can be set.
        [] if d > 0.0 => Ok(vec![Edit {
            range: range.end..range.end,
            text: format!("{}:> ", format_number(frame)),
        }]),
        [] => Err("nothing written before the key moves it: it cannot go earlier".into()),
        // Several advances: an absolute frame after them sets a later frame.
        _ if d > 0.0 => Ok(vec![Edit {
            range: range.end..range.end,
            text: format!("{}:> ", format_number(frame)),
        }]),
        _ => Err("several advances stand before the key: write `F:>` before it to move it".into()),
    }
}

/// The key's frame token when an absolute `F:>` placed it: `F` replaced.
fn replace_frame(text: &str, span: crate::syntax::Span, frame: f64) -> Option<Edit> {
    let tok = text.get(span.range())?;
    let colon = tok.find(':')?;
    Some(Edit {
        range: span.start as usize..span.start as usize + colon,
        text: format_number(frame),
    })
}

/// Where the gap before key `k` of `tl` starts: after the key before it, or
/// after the property token for the first key.
fn gap_start(text: &str, tl: &TimelineSource, keys: &[KeySource], k: usize) -> usize {
    if k > 0 {
        return keys[k - 1].span.end as usize;
    }
    let start = tl.line.start as usize;
    let rest = text.get(start..).unwrap_or("");
    start + rest.find(char::is_whitespace).unwrap_or(rest.len())
}

/// Timeline `timeline` of `anim` and its keys, when key `key` of it is one
/// the dopesheet may move or delete: the timeline is the one that plays
/// (no later line replaces it) and the key's value is a plain token (not
/// made by a loop, not relative to the key before); or why not.
fn plain_key(
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    key: usize,
) -> Result<(&TimelineSource, Vec<KeySource>), String> {
    let src = &comp.sources;
    let tl = src.timelines.get(timeline).ok_or("no such timeline")?;
    if tl.anim != anim {
        return Err("the timeline is not in this animation".into());
    }
    if !tl.effective {
        return Err("a later line for the same item and property replaces this timeline: edit the keys on that one".into());
    }
    let keys = src.keys_of(tl);
    match keys.get(key).ok_or("no such key")?.origin {
        KeyOrigin::Loop => {
            Err("this key is made by a loop `{ … }`: its frame follows the loop's".into())
        }
        KeyOrigin::Relative => Err("this key's value is relative (`+N`/`*N`) to the key before: moving or removing it would change the keys after it".into()),
        KeyOrigin::Plain => Ok((tl, keys)),
    }
}

/// The edits that move key `key` of timeline `timeline` (an index into
/// `comp.sources.timelines`) of `anim` to frame `new_frame`, keeping every
/// other key of the animation where it is; or why not.
pub fn move_key(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    key: usize,
    new_frame: f64,
) -> Result<Vec<Edit>, String> {
    let (tl, keys) = plain_key(comp, anim, timeline, key)?;
    let k = &keys[key];
    if !new_frame.is_finite() || new_frame < 0.0 {
        return Err("a key cannot go before frame 0".into());
    }
    let d = new_frame - k.frame;
    if d.abs() < 1e-9 {
        return Ok(Vec::new());
    }
    if key > 0 && new_frame <= keys[key - 1].frame + 1e-9 {
        return Err(format!(
            "frame {} is on or before the key before it (frame {})",
            format_number(new_frame),
            format_number(keys[key - 1].frame)
        ));
    }
    if let Some(next) = keys.get(key + 1)
        && new_frame >= next.frame - 1e-9
    {
        return Err(format!(
            "frame {} is on or past the key after it (frame {})",
            format_number(new_frame),
            format_number(next.frame)
        ));
    }
    let mut edits = Vec::new();
    // Before the key: its `F:>`, else the advance from the key before.
    match k.placed_by {
        Some((span, before)) => {
            if new_frame <= before + 1e-9 {
                return Err(format!(
                    "the frame option `{}` cannot set a frame before {}: edit the advances before it",
                    text.get(span.range()).unwrap_or("?"),
                    format_number(before)
                ));
            }
            edits.push(replace_frame(text, span, new_frame).ok_or("the frame option is not `F:`")?);
        }
        None => edits.extend(retime(
            text,
            gap_start(text, tl, &keys, key)..k.span.start as usize,
            new_frame,
            d,
        )?),
    }
    // After the key: the next key keeps its frame (one an absolute `F:>`
    // placed stays where it is by itself).
    if let Some(next) = keys.get(key + 1)
        && next.placed_by.is_none()
    {
        edits.extend(retime(text, k.span.end as usize..next.span.start as usize, next.frame, -d)?);
    }
    verify(text, comp, anim, timeline, key, Change::Move(new_frame), &edits)?;
    Ok(edits)
}

/// The edits that delete key `key` of timeline `timeline` of `anim`,
/// keeping every other key of the animation where it is; or why not.
pub fn delete_key(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    key: usize,
) -> Result<Vec<Edit>, String> {
    let (tl, keys) = plain_key(comp, anim, timeline, key)?;
    let k = &keys[key];
    if keys.len() == 1 {
        return Err("it is its timeline's only key: delete the line instead".into());
    }
    let mut edits = Vec::new();
    match keys.get(key + 1) {
        Some(next) if next.origin == KeyOrigin::Relative => {
            return Err("the key after it is relative to it (`+N`/`*N`)".into());
        }
        Some(next) => {
            // The key and the advance after it go; what brought the frame to
            // the key now brings it to the next key (unless an `F:>` before
            // the next key puts it there by itself).
            // (Up to the `F:>` that places the next key, which stays.)
            let end = next.placed_by.map_or(next.span.start, |(s, _)| s.start) as usize;
            let mut removal = Edit { range: k.span.start as usize..end, text: String::new() };
            if next.placed_by.is_none() {
                let before = match k.placed_by {
                    Some((span, _)) => {
                        vec![
                            replace_frame(text, span, next.frame)
                                .ok_or("the frame option is not `F:`")?,
                        ]
                    }
                    None => retime(
                        text,
                        gap_start(text, tl, &keys, key)..k.span.start as usize,
                        next.frame,
                        next.frame - k.frame,
                    )?,
                };
                for e in before {
                    if e.range.is_empty() && e.range.start == removal.range.start {
                        removal.text.insert_str(0, &e.text);
                    } else {
                        edits.push(e);
                    }
                }
            }
            edits.push(removal);
        }
        // The last key: it goes with the advance before it.
        None => {
            let start = keys[key - 1].span.end as usize;
            edits.push(Edit { range: start..k.span.end as usize, text: String::new() });
        }
    }
    verify(text, comp, anim, timeline, key, Change::Delete, &edits)?;
    Ok(edits)
}

/// What an edit does to one key, for [`verify`].
#[derive(Clone, Copy)]
enum Change<'a> {
    /// Key `key` goes to this frame.
    Move(f64),
    /// Key `key` goes.
    Delete,
    /// A key with this value token appears at this frame, at index `key`.
    Insert(f64, &'a str),
}

/// Compiles the edited text and checks that every key of `anim` is where
/// it was (same frame, value, value token and easing) but for `change` to
/// key `key` of timeline `timeline`; and that no new error appeared.
fn verify(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    key: usize,
    change: Change<'_>,
    edits: &[Edit],
) -> Result<(), String> {
    let refuse =
        |why: &str| Err(format!("the rewrite would not be exact ({why}); nothing changed"));
    let new_text = apply(text, edits);
    let new = crate::compile::compile(&new_text);
    let errors = |c: &Compilation| c.diagnostics.iter().filter(|d| d.is_error()).count();
    if errors(&new) > errors(comp) {
        return refuse("it would add an error");
    }
    let old_tls: Vec<(usize, &TimelineSource)> =
        comp.sources.timelines.iter().enumerate().filter(|(_, t)| t.anim == anim).collect();
    let new_tls: Vec<&TimelineSource> =
        new.sources.timelines.iter().filter(|t| t.anim == anim).collect();
    if old_tls.len() != new_tls.len() {
        return refuse("the timelines changed");
    }
    for ((i, old), new_tl) in old_tls.iter().zip(&new_tls) {
        if old.target != new_tl.target
            || old.prop != new_tl.prop
            || old.effective != new_tl.effective
        {
            return refuse("the timelines changed");
        }
        let here = *i == timeline;
        // What the timeline's keys should be: (frame, value token, the old key).
        let mut expect: Vec<(f64, &str, Option<KeySource>)> = Vec::new();
        for (j, ka) in comp.sources.keys_of(old).into_iter().enumerate() {
            let token = text.get(ka.span.range()).unwrap_or("");
            match change {
                Change::Delete if here && j == key => {}
                Change::Move(f) if here && j == key => expect.push((f, token, Some(ka))),
                _ => expect.push((ka.frame, token, Some(ka))),
            }
        }
        if let Change::Insert(f, token) = change
            && here
        {
            expect.insert(key.min(expect.len()), (f, token, None));
        }
        let b = new.sources.keys_of(new_tl);
        if expect.len() != b.len() {
            return refuse("a key would appear or vanish");
        }
        for ((frame, token, ka), kb) in expect.iter().zip(&b) {
            if (kb.frame - frame).abs() > 1e-9 || Some(*token) != new_text.get(kb.span.range()) {
                return refuse("another key would move");
            }
            let Some(ka) = ka else { continue };
            let same_value = match (ka.value, kb.value) {
                (Some(x), Some(y)) => (x - y).abs() < 1e-9,
                (None, None) => true,
                _ => false,
            };
            if !same_value || ka.origin != kb.origin {
                return refuse("a key's value would change");
            }
            if key_easing(comp, anim, old, ka) != key_easing(&new, anim, new_tl, kb) {
                return refuse("a key's easing would change");
            }
        }
    }
    Ok(())
}

/// The edits that add a key with the value token `value` at `frame` to
/// timeline `timeline` of `anim` (after its first key), keeping every
/// other key where it is; or why not.
pub fn insert_key(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    timeline: usize,
    frame: f64,
    value: &str,
) -> Result<Vec<Edit>, String> {
    let src = &comp.sources;
    let tl = src.timelines.get(timeline).ok_or("no such timeline")?;
    if tl.anim != anim || !tl.effective {
        return Err("not a timeline that plays in this animation".into());
    }
    let keys = src.keys_of(tl);
    if keys.iter().any(|k| (k.frame - frame).abs() < 1e-9) {
        return Err(format!("a key is already at frame {}", format_number(frame)));
    }
    let pos = keys.partition_point(|k| k.frame < frame);
    let Some(prev) = pos.checked_sub(1).and_then(|p| keys.get(p)) else {
        return Err("keys go after a timeline's first key".into());
    };
    if prev.origin == KeyOrigin::Loop {
        return Err("the key before that frame is made by a loop".into());
    }
    let mut edits = vec![Edit {
        range: prev.span.end as usize..prev.span.end as usize,
        text: format!(" {}:> {value}", format_number(frame)),
    }];
    if let Some(next) = keys.get(pos) {
        if next.origin != KeyOrigin::Plain {
            return Err("the key after that frame is relative or made by a loop".into());
        }
        if next.placed_by.is_none() {
            edits.extend(retime(
                text,
                prev.span.end as usize..next.span.start as usize,
                next.frame,
                prev.frame - frame,
            )?);
        }
    }
    verify(text, comp, anim, timeline, pos, Change::Insert(frame, value), &edits)?;
    Ok(edits)
}

/// What a key's target is called: the bone's name or `@slot`.
pub fn target_name(comp: &Compilation, target: Option<Target>) -> String {
    let sk = &comp.armature.skeleton;
    match target {
        Some(Target::Bone(b)) => sk.bones.get(b.index()).map_or("?".into(), |b| b.name.clone()),
        Some(Target::Slot(s)) => {
            sk.slots.get(s.index()).map_or("@?".into(), |s| format!("@{}", s.name))
        }
        _ => "?".into(),
    }
}

/// The easing of a bone key as the compiled animation has it (matched by
/// bone, property and time; `None` for slot keys, stepped properties,
/// replaced timelines, and
/// keys an animation modifier such as `delay` moved).
pub fn key_easing(
    comp: &Compilation,
    anim: AnimId,
    tl: &TimelineSource,
    k: &KeySource,
) -> Option<crate::model::Easing> {
    use crate::model::{BoneProperty, Curve};
    use crate::syntax::tree::TimelineProp;
    let Some(Target::Bone(bone)) = tl.target.filter(|_| tl.effective) else { return None };
    let property = match tl.prop {
        TimelineProp::X => BoneProperty::X,
        TimelineProp::Y => BoneProperty::Y,
        TimelineProp::Rotation => BoneProperty::Rotation,
        TimelineProp::ScaleX => BoneProperty::ScaleX,
        TimelineProp::ScaleY => BoneProperty::ScaleY,
        _ => return None,
    };
    let a = comp.armature.animations.get(anim.index())?;
    let ch = a.bones.iter().find(|c| c.bone == bone && c.property == property)?;
    let key = ch.keys.iter().find(|key| (key.time_secs - k.time_secs).abs() < 1e-9)?;
    match key.curve {
        Curve::Eased(e) => Some(e),
        _ => None,
    }
}

/// The easing as the scripts write it.
fn easing_name(e: crate::model::Easing) -> &'static str {
    use crate::model::Easing;
    match e {
        Easing::Linear => "li",
        Easing::SineIn => "si",
        Easing::SineOut => "so",
        Easing::SineInOut => "sio",
    }
}

/// What the dopesheet asks of the app this frame.
#[derive(Debug, Default)]
pub struct DopeOutput {
    /// A key was double-clicked: where its value is written.
    pub jump: Option<crate::syntax::Span>,
    /// A key drag began: (timeline index, key index).
    pub drag_start: Option<(usize, usize)>,
    /// The drag in progress wants its key this many frames from where it
    /// started (whole frames).
    pub drag_to: Option<f64>,
    /// The drag ended.
    pub drag_end: bool,
    /// Delete was pressed with a key focused: delete the selected keys.
    pub delete: bool,
    /// Ctrl+V: paste the copied keys at the playhead.
    pub paste: bool,
}

/// A key copied with Ctrl+C: its item and property, its frame after the
/// first copied key's, and its value token.
#[derive(Clone, Debug, PartialEq)]
pub struct CopiedKey {
    /// The bone or slot.
    pub target: Option<Target>,
    /// The property.
    pub prop: crate::syntax::tree::TimelineProp,
    /// Frames after the earliest copied key.
    pub offset: f64,
    /// The value as written.
    pub token: String,
}

/// The dopesheet's own state: collapsed items and the drag in progress.
#[derive(Default)]
pub struct Dopesheet {
    /// Items (by name) whose property rows are hidden.
    pub collapsed: std::collections::HashSet<String>,
    /// The drag in progress: pointer x and points per frame where it began.
    drag: Option<(f32, f32)>,
    /// The selected keys (timeline index, key index), valid for the text
    /// with this fingerprint (an edit clears them).
    pub selected: Vec<(usize, usize)>,
    selected_for: u64,
    /// The key clicked last (it has the keyboard focus for Delete).
    focus: Option<egui::Id>,
    /// The keys Ctrl+C copied.
    pub clipboard: Vec<CopiedKey>,
}

/// The last segment of a dotted name, as items are written (`@` kept for
/// slots: `@hip.arm` → `@arm`).
fn short_name(name: &str) -> String {
    let last = name.rsplit('.').next().unwrap_or(name);
    if name.starts_with('@') && !last.starts_with('@') {
        format!("@{last}")
    } else {
        last.to_owned()
    }
}

/// A fingerprint of the text the selection indexes.
fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

/// The rows' height and the width of their labels.
const ROW: f32 = 16.0;
const LABEL_W: f32 = 130.0;

fn diamond(
    painter: &egui::Painter,
    c: egui::Pos2,
    r: f32,
    fill: egui::Color32,
    stroke: egui::Stroke,
) {
    painter.add(egui::Shape::convex_polygon(
        vec![
            c + egui::vec2(0.0, -r),
            c + egui::vec2(r, 0.0),
            c + egui::vec2(0.0, r),
            c + egui::vec2(-r, 0.0),
        ],
        fill,
        stroke,
    ));
}

impl Dopesheet {
    /// Draws the rows of animation `anim` of `comp` (one per item, one per
    /// property under it unless collapsed), the playhead at `playhead`
    /// frames, within `max_height` points (the rest scrolls). `editable`:
    /// keys can be dragged (the text compiles to what is shown).
    #[allow(clippy::too_many_arguments)]
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        text: &str,
        comp: &Compilation,
        anim: AnimId,
        playhead: f64,
        max_height: f32,
        editable: bool,
    ) -> DopeOutput {
        let mut out = DopeOutput::default();
        let print = fingerprint(text);
        if print != self.selected_for {
            self.selected.clear();
            self.selected_for = print;
        }
        let src = &comp.sources;
        let Some(a) = comp.armature.animations.get(anim.index()) else { return out };
        let last = (a.duration_secs * a.fps).round().max(1.0);
        // Room past the last key, so that it can be dragged later.
        let shown = (last + (last / 5.0).ceil().max(2.0)) as f32;
        // Items in the order they are written, each with its timelines.
        let mut items: Vec<(String, Vec<usize>)> = Vec::new();
        let mut index: std::collections::HashMap<String, usize> = Default::default();
        for (i, t) in src.timelines.iter().enumerate().filter(|(_, t)| t.anim == anim) {
            let name = target_name(comp, t.target);
            match index.get(&name) {
                Some(&at) => items[at].1.push(i),
                None => {
                    index.insert(name.clone(), items.len());
                    items.push((name, vec![i]));
                }
            }
        }
        if items.is_empty() {
            ui.weak("This animation has no timelines.");
            return out;
        }
        // One row per item and one per property of an open item, all ROW
        // high: only the rows in view are drawn (long animations scroll).
        let rows: Vec<(usize, Option<usize>)> = items
            .iter()
            .enumerate()
            .flat_map(|(it, (name, tls))| {
                let open = !self.collapsed.contains(name);
                std::iter::once((it, None))
                    .chain(tls.iter().filter(move |_| open).map(move |&i| (it, Some(i))))
            })
            .collect();
        let visuals = ui.visuals().clone();
        let key_color = egui::Color32::from_rgb(0x40, 0xA0, 0xFF);
        let summary_color = egui::Color32::from_rgb(0xE0, 0xA0, 0x20);
        let pointer_x = ui.ctx().input(|i| i.pointer.interact_pos()).map(|p| p.x);
        // A drag is measured from where the button went down (egui starts
        // it a few points later).
        let press_x = ui.ctx().input(|i| i.pointer.press_origin()).map(|p| p.x);
        // (Rows touch: show_rows places them by the spacing it is called with.)
        let spacing = ui.spacing().item_spacing.y;
        ui.spacing_mut().item_spacing.y = 0.0;
        egui::ScrollArea::vertical()
            .id_salt("dopesheet")
            .max_height(max_height)
            .auto_shrink([false, true])
            // Dragging is for keys; the wheel and the bar scroll.
            .scroll_source(egui::scroll_area::ScrollSource {
                drag: egui::scroll_area::DragScroll::Never,
                ..egui::scroll_area::ScrollSource::ALL
            })
            .show_rows(ui, ROW, rows.len(), |ui, range| {
                ui.spacing_mut().item_spacing.y = 0.0;
                for &(it, row) in &rows[range] {
                    let (name, tls) = &items[it];
                    let open = !self.collapsed.contains(name);
                    if let Some(i) = row {
                        let tl = &src.timelines[i];
                        let (rect, _) = ui.allocate_exact_size(
                            egui::vec2(ui.available_width(), ROW),
                            egui::Sense::hover(),
                        );
                        let keys_rect = egui::Rect::from_min_max(
                            egui::pos2(rect.left() + LABEL_W, rect.top()),
                            egui::pos2(rect.right() - 8.0, rect.bottom()),
                        );
                        let x_of = |f: f64| {
                            keys_rect.left() + 6.0 + f as f32 / shown * (keys_rect.width() - 12.0)
                        };
                        let per_frame = (keys_rect.width() - 12.0) / shown;
                        let painter = ui.painter_at(rect);
                        painter.rect_filled(keys_rect, 0.0, visuals.extreme_bg_color);
                        let prop = format!("{:?}", tl.prop);
                        let label = if tl.effective { prop } else { format!("{prop} (replaced)") };
                        painter.text(
                            rect.left_center() + egui::vec2(18.0, 0.0),
                            egui::Align2::LEFT_CENTER,
                            label,
                            egui::FontId::proportional(11.0),
                            if tl.effective {
                                visuals.text_color()
                            } else {
                                visuals.weak_text_color()
                            },
                        );
                        let px = x_of(playhead);
                        painter.line_segment(
                            [egui::pos2(px, rect.top()), egui::pos2(px, rect.bottom())],
                            egui::Stroke::new(1.0, visuals.selection.stroke.color),
                        );
                        for (j, k) in src.keys_of(tl).iter().enumerate() {
                            let c = egui::pos2(x_of(k.frame), rect.center().y);
                            let hit = egui::Rect::from_center_size(c, egui::vec2(10.0, ROW));
                            let id = egui::Id::unique("skelpad.dopesheet-key").with((i, j));
                            let resp = ui.interact(hit, id, egui::Sense::click_and_drag());
                            let value = text.get(k.span.range()).unwrap_or("?");
                            resp.widget_info(|| {
                                egui::WidgetInfo::labeled(
                                    egui::Role::Button,
                                    true,
                                    format!("Key {name} {:?} {}", tl.prop, format_number(k.frame)),
                                )
                            });
                            let line = comp.lines.line_of(k.span.start) + 1;
                            let easing = key_easing(comp, anim, tl, k);
                            let resp = resp.on_hover_text(format!(
                                "{name} {:?}: {value} at frame {} (line {line}){}{}",
                                tl.prop,
                                format_number(k.frame),
                                easing.map_or(String::new(), |e| format!(
                                    ", easing {}",
                                    easing_name(e)
                                )),
                                match k.origin {
                                    KeyOrigin::Plain => "",
                                    KeyOrigin::Relative => " — relative value",
                                    KeyOrigin::Loop => " — made by a loop",
                                }
                            ));
                            if resp.clicked() {
                                let shift = ui.input(|i| i.modifiers.shift);
                                match self.selected.iter().position(|s| *s == (i, j)) {
                                    Some(at) if shift => {
                                        self.selected.remove(at);
                                    }
                                    None if shift => self.selected.push((i, j)),
                                    _ => self.selected = vec![(i, j)],
                                }
                                resp.request_focus();
                                self.focus = Some(id);
                            }
                            let is_selected = self.selected.contains(&(i, j));
                            let hot = resp.hovered() || resp.dragged() || is_selected;
                            let fill = if !tl.effective || k.origin != KeyOrigin::Plain {
                                visuals.weak_text_color()
                            } else {
                                key_color
                            };
                            let stroke = if is_selected {
                                egui::Stroke::new(2.0, egui::Color32::WHITE)
                            } else if hot {
                                egui::Stroke::new(1.5, visuals.text_color())
                            } else {
                                egui::Stroke::NONE
                            };
                            let r = if hot { 5.5 } else { 4.5 };
                            // Linear keys are diamonds, eased ones dots
                            // (the tooltip names the easing).
                            match easing {
                                Some(e) if e != crate::model::Easing::Linear => {
                                    painter.circle(c, r - 0.5, fill, stroke);
                                }
                                _ => diamond(&painter, c, r, fill, stroke),
                            }
                            if resp.double_clicked() {
                                out.jump = Some(k.span);
                            }
                            if !editable {
                                continue;
                            }
                            if resp.drag_started() {
                                self.drag = press_x.or(pointer_x).map(|x| (x, per_frame.max(1e-3)));
                                out.drag_start = Some((i, j));
                            } else if resp.dragged()
                                && let (Some((x0, ppf)), Some(x)) = (self.drag, pointer_x)
                            {
                                out.drag_to = Some(((x - x0) / ppf).round() as f64);
                            }
                            if resp.drag_stopped() {
                                self.drag = None;
                                out.drag_end = true;
                            }
                        }
                        continue;
                    }
                    let (rect, resp) = ui.allocate_exact_size(
                        egui::vec2(ui.available_width(), ROW),
                        egui::Sense::click(),
                    );
                    let keys_rect = egui::Rect::from_min_max(
                        egui::pos2(rect.left() + LABEL_W, rect.top()),
                        egui::pos2(rect.right() - 8.0, rect.bottom()),
                    );
                    let x_of = |f: f64| {
                        keys_rect.left() + 6.0 + f as f32 / shown * (keys_rect.width() - 12.0)
                    };
                    let painter = ui.painter_at(rect);
                    painter.rect_filled(keys_rect, 0.0, visuals.faint_bg_color);
                    // The open/closed arrow, drawn (the fonts may lack ▸ ▾).
                    let a = rect.left_center() + egui::vec2(7.0, 0.0);
                    let tri = if open {
                        vec![
                            a + egui::vec2(-4.0, -2.5),
                            a + egui::vec2(4.0, -2.5),
                            a + egui::vec2(0.0, 3.5),
                        ]
                    } else {
                        vec![
                            a + egui::vec2(-2.5, -4.0),
                            a + egui::vec2(3.5, 0.0),
                            a + egui::vec2(-2.5, 4.0),
                        ]
                    };
                    painter.add(egui::Shape::convex_polygon(
                        tri,
                        visuals.text_color(),
                        egui::Stroke::NONE,
                    ));
                    painter.text(
                        rect.left_center() + egui::vec2(14.0, 0.0),
                        egui::Align2::LEFT_CENTER,
                        // The last segment of a dotted bone path, as items
                        // are written.
                        short_name(name),
                        egui::FontId::proportional(12.0),
                        visuals.text_color(),
                    );
                    if resp.clicked()
                        && resp.interact_pointer_pos().is_some_and(|p| p.x < keys_rect.left())
                    {
                        if open {
                            self.collapsed.insert(name.clone());
                        } else {
                            self.collapsed.remove(name);
                        }
                    }
                    resp.widget_info(|| {
                        egui::WidgetInfo::labeled(
                            egui::Role::Button,
                            true,
                            format!("Dopesheet item {name}"),
                        )
                    });
                    // The item's row: every key of its timelines.
                    for &i in tls {
                        for k in src.keys_of(&src.timelines[i]) {
                            diamond(
                                &painter,
                                egui::pos2(x_of(k.frame), rect.center().y),
                                3.5,
                                summary_color,
                                egui::Stroke::NONE,
                            );
                        }
                    }
                    let px = x_of(playhead);
                    painter.line_segment(
                        [egui::pos2(px, rect.top()), egui::pos2(px, rect.bottom())],
                        egui::Stroke::new(1.0, visuals.selection.stroke.color),
                    );
                }
            });
        ui.spacing_mut().item_spacing.y = spacing;
        let focused = self.focus.is_some_and(|id| ui.ctx().memory(|m| m.has_focus(id)));
        if focused
            && !self.selected.is_empty()
            && ui.input(|i| i.key_pressed(egui::Key::Delete) || i.key_pressed(egui::Key::Backspace))
        {
            out.delete = true;
        }
        // Copy and paste while the script's text field does not have the
        // keyboard (egui turns Ctrl+C/Ctrl+V into events, or keys in tests).
        let editing = ui.ctx().memory(|m| m.has_focus(super::editor::editor_id()));
        let (copy, paste) = ui.input(|i| {
            let key = |k| i.modifiers.command && i.key_pressed(k);
            (
                i.events.iter().any(|e| matches!(e, egui::Event::Copy)) || key(egui::Key::C),
                i.events.iter().any(|e| matches!(e, egui::Event::Paste(_))) || key(egui::Key::V),
            )
        });
        if !editing && copy && !self.selected.is_empty() {
            let mut keys: Vec<(CopiedKey, f64)> = Vec::new();
            for &(i, j) in &self.selected {
                let Some(tl) = src.timelines.get(i) else { continue };
                let Some(k) = src.keys_of(tl).get(j).copied() else { continue };
                if k.origin != KeyOrigin::Plain {
                    continue;
                }
                let token = text.get(k.span.range()).unwrap_or_default().to_owned();
                let c = CopiedKey { target: tl.target, prop: tl.prop, offset: 0.0, token };
                keys.push((c, k.frame));
            }
            let first = keys.iter().map(|(_, f)| *f).fold(f64::INFINITY, f64::min);
            self.clipboard = keys
                .into_iter()
                .map(|(mut c, f)| {
                    c.offset = f - first;
                    c
                })
                .collect();
            // The system clipboard gets the values too: egui only reports a
            // Ctrl+V (as a paste) when the clipboard holds text.
            let values: Vec<&str> = self.clipboard.iter().map(|c| c.token.as_str()).collect();
            ui.ctx().copy_text(values.join(" "));
        }
        out.paste = !editing && paste && !self.clipboard.is_empty();
        out
    }
}

/// Pastes `keys` into their items' timelines of `anim` from frame `at`
/// on, each with [`insert_key`] (the text is compiled again after each);
/// the new text, or why not.
pub fn paste_keys(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    keys: &[CopiedKey],
    at: f64,
) -> Result<String, String> {
    let mut out = text.to_owned();
    for (n, c) in keys.iter().enumerate() {
        let fresh;
        let cc = if n == 0 {
            comp
        } else {
            fresh = crate::compile::compile(&out);
            &fresh
        };
        let tl = cc
            .sources
            .timelines
            .iter()
            .position(|t| t.anim == anim && t.target == c.target && t.prop == c.prop && t.effective)
            .ok_or_else(|| {
                format!("{} has no such timeline in this animation", target_name(cc, c.target))
            })?;
        let edits = insert_key(&out, cc, anim, tl, at + c.offset, &c.token)?;
        out = apply(&out, &edits);
    }
    Ok(out)
}

/// Moves the keys `keys` (timeline index, key index) of `anim` by `by`
/// frames together, each as [`move_key`] does (the text is compiled again
/// after each; in a timeline the key moving towards its neighbour goes
/// first); the new text, or why not.
pub fn move_keys(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    keys: &[(usize, usize)],
    by: f64,
) -> Result<String, String> {
    let mut keys = keys.to_vec();
    keys.sort_unstable();
    keys.dedup();
    if by > 0.0 {
        keys.reverse();
    }
    let frame_of = |c: &Compilation, (tl, k): (usize, usize)| {
        c.sources.timelines.get(tl).and_then(|t| c.sources.keys_of(t).get(k).map(|k| k.frame))
    };
    let mut out = text.to_owned();
    for (n, &(tl, k)) in keys.iter().enumerate() {
        let fresh;
        let c = if n == 0 {
            comp
        } else {
            fresh = crate::compile::compile(&out);
            &fresh
        };
        let from = frame_of(c, (tl, k)).ok_or("a selected key is gone")?;
        let edits = move_key(&out, c, anim, tl, k, from + by)?;
        out = apply(&out, &edits);
    }
    Ok(out)
}

/// The edits that delete the keys `keys` (timeline index, key index) of
/// `anim`, each verified as [`delete_key`] does (the text is compiled again
/// after each); the new text, or why not.
pub fn delete_keys(
    text: &str,
    comp: &Compilation,
    anim: AnimId,
    keys: &[(usize, usize)],
) -> Result<String, String> {
    let mut keys = keys.to_vec();
    // Last first: the indices of the keys still to delete stay valid.
    keys.sort_unstable_by(|a, b| b.cmp(a));
    keys.dedup();
    let mut out = text.to_owned();
    for (n, &(tl, k)) in keys.iter().enumerate() {
        let edits = if n == 0 {
            delete_key(&out, comp, anim, tl, k)?
        } else {
            delete_key(&out, &crate::compile::compile(&out), anim, tl, k)?
        };
        out = apply(&out, &edits);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::compile;

    /// The text after moving key `key` of the `n`-th timeline of the first
    /// animation to `frame`.
    fn moved(text: &str, n: usize, key: usize, frame: f64) -> Result<String, String> {
        let comp = compile(text);
        let anim = comp.sources.timelines[n].anim;
        let edits = move_key(text, &comp, anim, n, key, frame)?;
        Ok(apply(text, &edits))
    }

    /// The frames of every timeline, compiled anew
    /// (an independent check of where the keys are).
    fn frames(text: &str) -> Vec<Vec<f64>> {
        let comp = compile(text);
        let src = &comp.sources;
        src.timelines.iter().map(|t| src.keys_of(t).iter().map(|k| k.frame).collect()).collect()
    }

    const RIG: &str = "skeleton\n\ta l10\n\tb l10\nanim \"m\" 20fps 0:5:li\n";

    #[test]
    fn relative_advances_change_on_both_sides() {
        let text = format!("{RIG}\ta\n\t\tr 0 +4:> 10 +3:> 20 +5:> 30\n");
        let out = moved(&text, 0, 1, 6.0).unwrap();
        assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 +6:> 10 +1:> 20 +5:> 30\n"));
        assert_eq!(frames(&out), vec![vec![0.0, 6.0, 7.0, 12.0]]);
    }

    #[test]
    fn plain_advances_become_absolute_frames() {
        let text = format!("{RIG}\ta\n\t\tr 0 --> 10 --> 20 -> 30\n");
        let out = moved(&text, 0, 1, 14.0).unwrap();
        assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 14:> 10 20:> 20 -> 30\n"));
        assert_eq!(frames(&out), vec![vec![0.0, 14.0, 20.0, 25.0]]);
        // Earlier works the same way.
        let out = moved(&text, 0, 1, 3.0).unwrap();
        assert_eq!(frames(&out), vec![vec![0.0, 3.0, 20.0, 25.0]]);
    }

    #[test]
    fn a_key_placed_by_an_absolute_frame_changes_its_frame() {
        let text = format!("{RIG}\ta\n\t\tr 0 8:3:so> 10 -> 20\n");
        let out = moved(&text, 0, 1, 5.0).unwrap();
        assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 5:3:so> 10 11:> 20\n"));
        assert_eq!(frames(&out), vec![vec![0.0, 5.0, 11.0]]);
    }

    #[test]
    fn the_last_key_moves_and_the_animation_follows() {
        let text = format!("{RIG}\ta\n\t\tr 0 -> 10\n\tb\n\t\tr 0 -> 5\n");
        let out = moved(&text, 0, 1, 12.0).unwrap();
        assert_eq!(out, format!("{RIG}\ta\n\t\tr 0 12:> 10\n\tb\n\t\tr 0 -> 5\n"));
        let comp = compile(&out);
        assert!((comp.armature.animations[0].duration_secs - 12.0 / 20.0).abs() < 1e-9);
        assert_eq!(frames(&out), vec![vec![0.0, 12.0], vec![0.0, 5.0]]);
    }

    #[test]
    fn the_first_key_can_move_later_but_not_before_the_start() {
        let text = format!("{RIG}\ta\n\t\tr 0 -> 10\n");
        let out = moved(&text, 0, 0, 2.0).unwrap();
        assert_eq!(out, format!("{RIG}\ta\n\t\tr 2:> 0 5:> 10\n"));
        assert_eq!(frames(&out), vec![vec![2.0, 5.0]]);
    }

    #[test]
    fn refusals_say_why_and_change_nothing() {
        let on = |line: &str, key: usize, frame: f64| {
            moved(&format!("{RIG}\ta\n\t\t{line}\n"), 0, key, frame).unwrap_err()
        };
        assert!(on("r 0 { -> 5 }[2]", 1, 3.0).contains("loop"), "loop");
        assert!(on("r 0 -> +5 -> 1", 1, 3.0).contains("relative"), "relative");
        assert!(on("r 0 -> 5 -> 1", 1, 10.0).contains("past the key after"), "past next");
        assert!(on("r 0 -> 5 -> 1", 1, 0.0).contains("before the key before"), "onto prev");
        // A reopened item: the first line is replaced by the second.
        let text = format!("{RIG}\ta\n\t\tr 0 -> 5\n\t\tr 0 -> 5\n");
        assert!(moved(&text, 0, 1, 3.0).unwrap_err().contains("replaces"));
        assert!(moved(&text, 1, 1, 3.0).is_ok());
    }

    #[test]
    fn the_check_refuses_edits_that_move_another_key_or_a_value() {
        let text = format!("{RIG}\ta\n\t\tr 0 -> 10 -> 20\n");
        let comp = compile(&text);
        let anim = AnimId::from_index(0);
        let at = |s: &str| text.find(s).unwrap();
        // Moving key 1 to 8 by shortening the first advance moves key 2 too.
        let shorter = Edit { range: at("-> 10")..at("-> 10") + 2, text: "8:>".into() };
        assert!(
            verify(&text, &comp, anim, 0, 1, Change::Move(8.0), std::slice::from_ref(&shorter))
                .is_err()
        );
        let keep = Edit { range: at("-> 20")..at("-> 20") + 2, text: "10:>".into() };
        assert!(
            verify(&text, &comp, anim, 0, 1, Change::Move(8.0), &[shorter.clone(), keep.clone()])
                .is_ok()
        );
        // A changed value is refused even where the frames hold.
        let value = Edit { range: at("10 ")..at("10 ") + 2, text: "11".into() };
        assert!(
            verify(&text, &comp, anim, 0, 1, Change::Move(8.0), &[shorter, keep, value]).is_err()
        );
    }

    #[test]
    fn deleting_a_key_joins_the_advances_around_it() {
        let del = |line: &str, key: usize| {
            let text = format!("{RIG}\ta\n\t\t{line}\n");
            let comp = compile(&text);
            delete_key(&text, &comp, AnimId::from_index(0), 0, key)
                .map(|e| apply(&text, &e).replace(RIG, "").replace("\ta\n\t\t", ""))
        };
        assert_eq!(del("r 0 +4:> 10 +3:> 20", 1).unwrap(), "r 0 +7:> 20\n");
        assert_eq!(del("r 0 -> 10 -> 20", 1).unwrap(), "r 0 10:> 20\n");
        assert_eq!(del("r 0 -> 10 -> 20", 2).unwrap(), "r 0 -> 10\n");
        assert_eq!(del("r 0 -> 10 -> 20", 0).unwrap(), "r 5:> 10 -> 20\n");
        assert_eq!(del("r 0 8:> 10 -> 20", 1).unwrap(), "r 0 13:> 20\n");
        assert_eq!(del("r 0 -> 10 12:> 20", 1).unwrap(), "r 0 -> 12:> 20\n");
        assert!(del("r 0", 0).unwrap_err().contains("only key"));
        assert!(del("r 0 -> 10 -> +5", 1).unwrap_err().contains("relative"));
        assert!(del("r 0 { -> 10 }", 1).unwrap_err().contains("loop"));
        // Checked independently: the other keys stay.
        let text = format!("{RIG}\ta\n\t\tr 0 -> 10 --> 20 -> 5\n");
        let comp = compile(&text);
        let out = apply(&text, &delete_key(&text, &comp, AnimId::from_index(0), 0, 1).unwrap());
        assert_eq!(frames(&out), vec![vec![0.0, 15.0, 20.0]]);
    }

    #[test]
    fn several_keys_move_together() {
        let text = format!("{RIG}\ta\n\t\tr 0 -> 10 -> 20 -> 30\n\tb\n\t\tr 0 +4:> 10 +3:> 20\n");
        let comp = compile(&text);
        let anim = AnimId::from_index(0);
        // Two neighbours on a, one key on b, two frames later.
        let out = move_keys(&text, &comp, anim, &[(0, 1), (0, 2), (1, 1)], 2.0).unwrap();
        assert_eq!(frames(&out), vec![vec![0.0, 7.0, 12.0, 15.0], vec![0.0, 6.0, 7.0]]);
        // And back: the same keys, two frames earlier.
        let back = move_keys(&out, &compile(&out), anim, &[(0, 1), (0, 2), (1, 1)], -2.0).unwrap();
        assert_eq!(frames(&back), frames(&text));
        // One of them would pass its neighbour: refused.
        assert!(move_keys(&text, &comp, anim, &[(0, 1), (1, 1)], 3.0).is_err());
    }

    #[test]
    fn slot_keys_move_too() {
        let text = "skeleton\n\ta l10\n\t\t@ :circle d10\nanim \"m\" 20fps\n\t@a\n\t\tc #F00 -> #0F0 -> #00F\n";
        let comp = compile(text);
        let name = target_name(&comp, comp.sources.timelines[0].target);
        assert_eq!((name.as_str(), short_name(&name).as_str()), ("@a.a", "@a"));
        let out = moved(text, 0, 1, 7.0).unwrap();
        assert_eq!(out, text.replace("#F00 -> #0F0 -> #00F", "#F00 7:> #0F0 10:> #00F"));
        assert_eq!(frames(&out), vec![vec![0.0, 7.0, 10.0]]);
    }

    #[test]
    fn a_key_is_inserted_between_others_which_stay() {
        let ins = |line: &str, frame: f64, value: &str| {
            let text = format!("{RIG}\ta\n\t\t{line}\n");
            let comp = compile(&text);
            insert_key(&text, &comp, AnimId::from_index(0), 0, frame, value)
                .map(|e| apply(&text, &e).replace(RIG, "").replace("\ta\n\t\t", ""))
        };
        assert_eq!(ins("r 0 -> 10", 3.0, "7").unwrap(), "r 0 3:> 7 5:> 10\n");
        assert_eq!(ins("r 0 +4:> 10", 3.0, "7").unwrap(), "r 0 3:> 7 +1:> 10\n");
        assert_eq!(ins("r 0 -> 10", 9.0, "7").unwrap(), "r 0 -> 10 9:> 7\n");
        assert!(ins("r 0 -> 10", 5.0, "7").unwrap_err().contains("already"));
        assert!(ins("r 5:> 0 -> 10", 2.0, "7").unwrap_err().contains("first key"));
        assert!(ins("r 0 -> +10", 3.0, "7").unwrap_err().contains("relative"));
        let text = format!("{RIG}\ta\n\t\tr 0 -> 10 -> 20\n");
        let comp = compile(&text);
        let out =
            apply(&text, &insert_key(&text, &comp, AnimId::from_index(0), 0, 7.0, "3").unwrap());
        assert_eq!(frames(&out), vec![vec![0.0, 5.0, 7.0, 10.0]]);
    }

    #[test]
    fn keys_know_their_easing_from_the_compiled_animation() {
        let text = "skeleton\n\ta l10\nanim \"m\" 20fps 0:5:so\n\ta\n\t\tr 0 -> 10 :li-> 20\n";
        let comp = compile(text);
        let tl = &comp.sources.timelines[0];
        let easings: Vec<_> = comp
            .sources
            .keys_of(tl)
            .iter()
            .map(|k| key_easing(&comp, tl.anim, tl, k).map(easing_name))
            .collect();
        assert_eq!(easings, vec![Some("so"), Some("li"), Some("li")]);
    }

    #[test]
    fn the_walk_cycle_moves_a_key_and_keeps_the_others() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/examples/walk_cycle.skel2d"
        ))
        .unwrap();
        let comp = compile(&text);
        let before = frames(&text);
        // thigh-l's `r 25 --> -25 --> 25`: the key at 10 goes to 14.
        let n = comp
            .sources
            .timelines
            .iter()
            .position(|t| target_name(&comp, t.target).ends_with("thigh-l"))
            .unwrap();
        assert_eq!(before[n], vec![0.0, 10.0, 20.0]);
        let out = moved(&text, n, 1, 14.0).unwrap();
        let mut want = before.clone();
        want[n][1] = 14.0;
        assert_eq!(frames(&out), want);
        // Only the two advances around the key changed.
        assert_eq!(out.replace("r 25 14:> -25 20:> 25", "r 25 --> -25 --> 25"), text);
    }
}
