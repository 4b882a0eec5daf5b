//! The proposals of each context: section headers, skeleton and skin lines,
//! draw order, animations, expectations and IK.

use super::{Completer, ProposalKind};
use crate::analysis::section_animation;
use crate::compile::Target;
use crate::syntax::Span;
use crate::syntax::tree::{SectionKind, TimelineProp, TypeName};

const BONE_PROPS: [(&str, &str); 11] = [
    ("l", "lNUM: length"),
    ("r", "rNUM: rotation (degrees, counterclockwise)"),
    ("x", "xNUM: x position"),
    ("y", "yNUM: y position"),
    ("i", "iNUM: scale x"),
    ("j", "jNUM: scale y"),
    ("#", "COLOR: the bone's color (#RGB or #RRGGBB)"),
    ("flip-x", "mirror the bone's x axis"),
    ("flip-y", "mirror the bone's y axis"),
    ("no-rot", "do not inherit the parent's rotation"),
    ("no-scale", "do not inherit the parent's scale"),
];
const TYPES: [&str; 5] = [":sprite", ":rect", ":circle", ":ellipse", ":path"];
const BONE_TIMELINES: [(&str, &str); 7] = [
    ("x", "x position"),
    ("y", "y position"),
    ("r", "rotation"),
    ("i", "scale x"),
    ("j", "scale y"),
    ("s", "flip x"),
    ("t", "flip y"),
];
const SLOT_TIMELINES: [(&str, &str); 6] = [
    ("@", "attachment"),
    ("c", "color"),
    ("r", "red"),
    ("g", "green"),
    ("b", "blue"),
    ("a", "alpha"),
];
/// Timing modifiers of an `anim` header (LANGUAGE-EXT.md).
const ANIM_MODIFIERS: [(&str, &str); 6] = [
    ("cycle", "every numeric timeline ends on its value at frame 0"),
    ("from", "from \"ANIM\": start as a copy of another animation"),
    ("reverse", "play backwards"),
    ("pingpong", "play forwards, then backwards"),
    ("mirror", "swap -l/-r partners and mirror their motion"),
    ("swap", "swap -l/-r partners' channels unchanged"),
];

/// Timing modifiers of a bone item (LANGUAGE-EXT.md).
const ITEM_MODIFIERS: [(&str, &str); 2] = [
    ("delay", "delay N: this bone plays N frames late, wrapping around the loop"),
    ("chain", "chain N: every bone below plays N frames per generation late"),
];

/// The payload kinds that start an event line.
const EVENT_KINDS: [(&str, &str); 4] = [
    ("e", "e ! -> !: fires without a payload"),
    ("i", "i 1 -> 2: a whole-number payload"),
    ("f", "f 0.5 -> 1: a number payload"),
    ("s", "s \"left\" -> \"right\": a string payload"),
];

const TIMELINE_TOKENS: [(&str, &str); 11] = [
    ("->", "advance one step"),
    ("-->", "advance two steps"),
    (":li->", "linear easing, advance one step"),
    (":si->", "sine-in easing, advance one step"),
    (":so->", "sine-out easing, advance one step"),
    (":sio->", "sine-in-out easing, advance one step"),
    ("0:>", "jump to frame F"),
    ("+1:>", "advance F frames"),
    ("::si>", "give the key before the sine-in easing"),
    ("{", "start a loop"),
    ("}[2]", "end a loop: run its body N times"),
];
const SECTION_OPTIONS: [(&str, &str); 6] = [
    ("0:1:li", "F:S:E: start frame, step, easing"),
    (":1:", "step: frames per `-` of an arrow"),
    ("::li", "easing: linear"),
    ("::si", "easing: sine in"),
    ("::so", "easing: sine out"),
    ("::sio", "easing: sine in and out"),
];

/// The properties of an attachment type.
fn attachment_props(ty: &TypeName) -> Vec<(&'static str, &'static str)> {
    let mut v = vec![
        ("x", "xNUM: x offset"),
        ("y", "yNUM: y offset"),
        ("r", "rNUM: rotation"),
        ("i", "iNUM: scale x"),
        ("j", "jNUM: scale y"),
    ];
    match ty {
        TypeName::Sprite => v.push(("\"", "\"IMAGE\": the picture")),
        TypeName::Rect | TypeName::Ellipse => {
            v.extend([("w", "wNUM: width"), ("h", "hNUM: height")])
        }
        _ => {}
    }
    if matches!(ty, TypeName::Rect | TypeName::Circle) {
        v.push(("d", "dNUM: diameter (a rect's corner rounding)"));
    }
    if ty.is_shape() {
        v.extend([
            ("f#", "f#COLOR: fill"),
            ("s#", "s#COLOR: stroke"),
            ("t", "tNUM: stroke width"),
            ("m", "mNUM: miter limit"),
            ("miter-join", "line join"),
            ("bevel-join", "line join"),
            ("round-join", "line join"),
        ]);
    }
    if *ty == TypeName::Path {
        v.extend([("butt-cap", "line cap"), ("square-cap", "line cap"), ("round-cap", "line cap")]);
    }
    v
}

impl Completer<'_> {
    /// The section keywords, at the start of an unindented line.
    pub(super) fn top_level_keywords(&mut self) {
        self.push_all(
            &[
                ("skeleton", "bones and slots"),
                ("skin", "skin \"NAME\": other attachments"),
                ("order", "draw order"),
                ("anim", "anim \"NAME\" FPS OPTS"),
                ("expect", "expect \"ANIM\" FRAME ~TOL: pose assertions"),
                ("ik", "ik: inverse kinematics, one `TIP to TARGET up N` per line"),
            ],
            ProposalKind::Keyword,
        );
    }

    /// After a section keyword: names of the sections of that kind, then options.
    pub(super) fn header_line(&mut self, kind: &SectionKind) {
        let sk = &*self.comp.armature.skeleton;
        let head_tokens =
            self.before.split_whitespace().count() - usize::from(!self.word.is_empty());
        let quoted: Vec<String> = match kind {
            SectionKind::Skin(_) if head_tokens == 1 => {
                sk.skins.iter().skip(1).map(|s| s.name.clone()).collect()
            }
            SectionKind::Anim(_) | SectionKind::Expect(_) if head_tokens == 1 => {
                self.comp.armature.animations.iter().map(|a| a.name.clone()).collect()
            }
            SectionKind::Anim(_) => {
                let fps = [
                    ("24fps", "frames per second"),
                    ("30fps", "frames per second"),
                    ("60fps", "frames per second"),
                ];
                self.push_all(&fps, ProposalKind::Unit);
                self.push_all(&SECTION_OPTIONS, ProposalKind::Operator);
                if self.prev_token() == Some("from") {
                    for a in &self.comp.armature.animations {
                        self.push(&format!("\"{}\"", a.name), ProposalKind::Name, "animation");
                    }
                }
                self.push_all(&ANIM_MODIFIERS, ProposalKind::Keyword);
                return;
            }
            _ => return,
        };
        // The section being written names a skin or an animation of its own
        // (`""` while it has no name): only the names other sections made
        // are offered. A new skin or animation section with one of them
        // adds to it, so the offer says so.
        let own = match kind {
            SectionKind::Skin(k) => Some(&k.name.node),
            SectionKind::Anim(a) => Some(&a.name.node),
            _ => None,
        };
        let comp = self.comp;
        let by_others = |name: &str| {
            let sections = comp.sections.iter().filter(|(_, sec)| match &sec.kind {
                SectionKind::Skin(k) => matches!(kind, SectionKind::Skin(_)) && k.name.node == name,
                SectionKind::Anim(a) => matches!(kind, SectionKind::Anim(_)) && a.name.node == name,
                _ => false,
            });
            sections.count() > usize::from(own.is_some_and(|o| o == name))
        };
        let detail = match kind {
            SectionKind::Skin(_) => "skin already defined: this section adds to it",
            SectionKind::Anim(_) => "animation already defined: this section adds to it",
            _ => "animation",
        };
        for n in quoted {
            if n.is_empty() || (own.is_some() && !by_others(&n)) {
                continue;
            }
            self.push(&format!("\"{n}\""), ProposalKind::Name, detail);
        }
    }

    /// Bone, slot, attachment and path lines of a skeleton or skin section.
    pub(super) fn skeleton_or_skin(&mut self, sec_start: u32, kind: &SectionKind) {
        let is_skin = matches!(kind, SectionKind::Skin(_));
        // Depth of slot lines and of path commands.
        let (slot_depth, path_depth) = if is_skin { (1, 2) } else { (2, 3) };
        // A point's bone (`x,y:bone`) or the bone of `: bone`.
        let point_bone = self.word.find(':').filter(|_| self.word.contains(','));
        if let Some(colon) = point_bone {
            self.bone_refs(Span::new(self.replace.start + colon as u32 + 1, self.replace.end));
        } else if !is_skin && self.depth == 1 {
            if self.first_token {
                for n in self.bone_names.clone() {
                    self.push(n, ProposalKind::Bone, "bone");
                }
            } else {
                self.push_all(&BONE_PROPS, ProposalKind::Property);
            }
        } else if self.depth == slot_depth && self.first_token {
            if is_skin {
                self.slot_refs();
            } else {
                self.skeleton_slot_names();
            }
        } else if self.depth == slot_depth {
            self.attachment_line(sec_start, kind);
        } else if self.depth == path_depth {
            if self.prev_token() == Some(":") {
                self.bone_refs(self.replace);
            } else if self.first_token {
                self.push_all(
                    &[
                        ("M", "M x,y: move"),
                        ("L", "L x,y: line"),
                        ("Q", "Q cx,cy x,y: quadratic"),
                        ("B", "B c1 c2 p: cubic"),
                        ("C", "close"),
                        (":", ": BONE: bind the next points"),
                    ],
                    ProposalKind::Command,
                );
            }
        }
    }

    /// Slot names under a skeleton's bone: `@` and the bone's own slots.
    pub(super) fn skeleton_slot_names(&mut self) {
        let sk = &*self.comp.armature.skeleton;
        let bone = self
            .comp
            .sources
            .bone_defs
            .iter()
            .rfind(|d| (d.line.start as usize) < self.line_start)
            .map(|d| d.bone);
        self.push("@", ProposalKind::Slot, "a slot named after its bone");
        for s in sk.slots.iter().filter(|s| Some(s.bone) == bone) {
            let short = s.name.rsplit('.').next().unwrap_or(&s.name);
            self.push(&format!("@{short}"), ProposalKind::Slot, &format!("slot {}", s.name));
        }
    }

    /// After a slot's name: attachment types, or the properties of its type.
    pub(super) fn attachment_line(&mut self, sec_start: u32, kind: &SectionKind) {
        let ty = slot_type_at(sec_start, kind, self.line_start, self.line_end());
        if self.word.starts_with(':') || ty.is_none() {
            for t in TYPES {
                self.push(t, ProposalKind::Type, "attachment type");
            }
        }
        if let Some(ty) = ty.filter(|_| !self.word.starts_with(':')) {
            self.push_all(&attachment_props(&ty), ProposalKind::Property);
        }
    }

    /// Slot references at the start of a draw order line.
    pub(super) fn order(&mut self) {
        if self.depth == 1 && self.first_token {
            self.slot_refs();
        }
    }

    /// Every event name the document's animations fire, each once.
    pub(super) fn event_names(&self) -> Vec<String> {
        let mut names: Vec<String> = (self.comp.armature.animations.iter())
            .flat_map(|a| a.events.iter().map(|e| e.name.clone()))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// Whether the item the cursor's line belongs to is an event item
    /// (`\t!NAME`): the last line above it indented by one tab.
    pub(super) fn in_event_item(&self) -> bool {
        let above = &self.text[..self.line_start];
        above
            .split('\n')
            .rev()
            .find(|l| l.starts_with('\t') && !l.starts_with("\t\t"))
            .is_some_and(|l| l.starts_with("\t!"))
    }

    /// Targets, options and timeline lines of an animation.
    pub(super) fn anim(&mut self, sec_start: u32) {
        if self.depth == 1 && self.first_token {
            self.bone_refs(self.replace);
            self.slot_refs();
            for n in self.event_names() {
                self.push(&format!("!{n}"), ProposalKind::Event, "event");
            }
            self.push("!", ProposalKind::Event, "!NAME: an event item");
        } else if self.depth == 1 {
            self.push_all(&SECTION_OPTIONS, ProposalKind::Operator);
            let line = self.before.trim_start();
            if !line.starts_with('@') && !line.starts_with('!') {
                self.push_all(&ITEM_MODIFIERS, ProposalKind::Keyword);
            }
        } else if self.depth == 2 && self.in_event_item() {
            if self.first_token {
                self.push_all(&EVENT_KINDS, ProposalKind::Property);
            } else {
                if self.before.trim_start().starts_with("e ") {
                    self.push("!", ProposalKind::Keyword, "fire the event here");
                }
                self.push_all(&TIMELINE_TOKENS, ProposalKind::Operator);
            }
        } else if self.depth == 2 {
            let item = self.comp.sources.items.iter().rfind(|i| {
                (i.region.start as usize) < self.line_start
                    && (i.region.start as usize) >= sec_start as usize
            });
            let target = item.and_then(|i| i.target);
            if self.first_token {
                let list: &[(&str, &str)] = match target {
                    Some(Target::Slot(_)) => &SLOT_TIMELINES,
                    Some(Target::Bone(_)) => &BONE_TIMELINES,
                    _ => &[],
                };
                self.push_all(list, ProposalKind::Property);
            } else {
                self.timeline_values(target);
            }
        }
    }

    /// Values after a timeline's property: attachment names, booleans, then tokens.
    pub(super) fn timeline_values(&mut self, target: Option<Target>) {
        let sk = &*self.comp.armature.skeleton;
        let line_end = self.line_end() as u32;
        let tl = self
            .comp
            .sources
            .timelines
            .iter()
            .find(|t| t.line.start as usize >= self.line_start && t.line.start <= line_end);
        // A line without keys yet makes no timeline: its first
        // token says the property (the parser's own recognizer).
        let first = self.before.split_whitespace().next().unwrap_or("");
        let prop = tl.map(|t| t.prop).or_else(|| match target {
            Some(Target::Slot(_)) => TimelineProp::for_slot(first),
            _ => TimelineProp::for_bone(first),
        });
        match (prop, target) {
            (Some(TimelineProp::Attachment), Some(Target::Slot(s))) => {
                for a in sk.attachments.iter().filter(|a| a.slot == s) {
                    self.push(&a.name, ProposalKind::Attachment, "attachment");
                }
            }
            (Some(TimelineProp::FlipX | TimelineProp::FlipY), _) => {
                self.push("true", ProposalKind::Keyword, "flipped");
                self.push("false", ProposalKind::Keyword, "not flipped");
            }
            _ => {}
        }
        self.push_all(&TIMELINE_TOKENS, ProposalKind::Operator);
    }

    /// Targets and their checked values in an expect section.
    pub(super) fn expect(&mut self) {
        if self.depth == 1 && self.first_token {
            self.bone_refs(self.replace);
            self.slot_refs();
            let events: Vec<String> = match section_animation(self.comp, self.offset as u32) {
                Some(a) => {
                    let mut v: Vec<String> = a.events.iter().map(|e| e.name.clone()).collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                }
                None => Vec::new(),
            };
            for n in events {
                self.push(&format!("!{n}"), ProposalKind::Event, "event: fires at this frame");
            }
        } else if self.depth == 1 && self.before.trim_start().starts_with('!') {
            self.push_all(
                &[
                    ("never", "never FROM TO: does not fire from frame FROM to TO"),
                    ("~", "~NUM: tolerance of a number payload"),
                ],
                ProposalKind::Keyword,
            );
        } else if self.depth == 1 {
            let slot = self.before.trim_start().starts_with('@');
            let list: &[(&str, &str)] = if slot {
                &[
                    ("r", "rNUM: red"),
                    ("g", "gNUM: green"),
                    ("b", "bNUM: blue"),
                    ("a", "aNUM: alpha"),
                    ("~", "~NUM: tolerance"),
                ]
            } else {
                &[
                    ("x", "xNUM: x"),
                    ("y", "yNUM: y"),
                    ("r", "rNUM: rotation (degrees)"),
                    ("i", "iNUM: scale x"),
                    ("j", "jNUM: scale y"),
                    ("local", "check the local transform"),
                    ("world", "check world values (the default)"),
                    ("~", "~NUM: tolerance"),
                ]
            };
            self.push_all(list, ProposalKind::Property);
        }
    }

    /// Bones and keywords of an ik line.
    pub(super) fn ik(&mut self) {
        if self.depth != 1 {
            return;
        }
        if self.first_token || matches!(self.prev_token(), Some("to" | "from")) {
            self.bone_refs(self.replace);
        } else {
            self.push_all(
                &[
                    ("to", "to BONE: the target the tip reaches for"),
                    ("up", "up N: the tip and N parents above it"),
                    ("from", "from BONE: the tip and its parents up to BONE"),
                    ("fabrik", "FABRIK solver (default)"),
                    ("arc", "Arc solver"),
                    ("cw", "bend clockwise"),
                    ("ccw", "bend counterclockwise"),
                ],
                ProposalKind::Keyword,
            );
        }
    }
}

/// The attachment type of the slot line (skeleton) or skin item on the
/// line `[line_start, line_end]`, from the section's tree.
fn slot_type_at(
    sec_start: u32,
    kind: &SectionKind,
    line_start: usize,
    line_end: usize,
) -> Option<TypeName> {
    let rel = (line_start as u32).checked_sub(sec_start)?;
    let rel_end = (line_end as u32).checked_sub(sec_start)?;
    let on = |span: Span| rel <= span.start && span.start <= rel_end;
    let ty = match kind {
        SectionKind::Skeleton(s) => s
            .bones
            .iter()
            .flat_map(|b| &b.slots)
            .find(|sl| on(sl.span))
            .and_then(|sl| sl.spec.ty.as_ref()),
        SectionKind::Skin(s) => {
            s.items.iter().find(|i| on(i.span)).and_then(|i| i.spec.ty.as_ref())
        }
        _ => None,
    };
    ty.map(|t| t.node.clone())
}
