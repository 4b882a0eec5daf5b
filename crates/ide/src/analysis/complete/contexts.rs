//! The proposals of each context: section headers, skeleton and skin lines,
//! draw order, animations, expectations and IK.

use super::{Completer, Proposal, ProposalKind};
use crate::analysis::section_animation;
use skelpad_lang::compile::Target;
use skelpad_lang::syntax::Span;
use skelpad_lang::syntax::tree::{SectionKind, SkinSection, Spanned, TimelineProp, TypeName};
use skelpad_lang::syntax::vocab::{self, Entry};

/// Timeline tokens that need no easing: `(label, detail, example)`.
const TIMELINE_TOKENS: [Entry; 6] = [
    ("->", "advance one step", "->"),
    ("-->", "advance two steps", "-->"),
    ("0:>", "jump to frame F", "0:>"),
    ("+1:>", "advance F frames", "+1:>"),
    ("{", "start a loop", "{ -> }[2]"),
    ("}[2]", "end a loop: run its body N times", "{ -> }[2]"),
];

/// The commands of a path's outline.
const PATH_COMMANDS: [Entry; 6] = [
    ("M", "M x,y: move", "M 0,0"),
    ("L", "L x,y: line", "L 1,1"),
    ("Q", "Q cx,cy x,y: quadratic", "Q 1,0 1,1"),
    ("B", "B c1 c2 p: cubic", "B 1,0 1,1 0,1"),
    ("C", "close", "C"),
    (":", ": BONE: bind the next points", ": arm"),
];

/// Section and item options that need no easing.
const OPTIONS: [Entry; 2] = [
    ("0:1:li", "F:S:E: start frame, step, easing", "0:1:li"),
    (":1:", "step: frames per `-` of an arrow", ":1:"),
];

/// The tokens after a timeline's property: [`TIMELINE_TOKENS`], an eased
/// arrow per easing and the key before the second easing.
fn timeline_tokens() -> Vec<(String, String, String)> {
    let own = |(l, d, e): Entry| (l.to_string(), d.to_string(), e.to_string());
    let mut v: Vec<_> = TIMELINE_TOKENS[..2].iter().copied().map(own).collect();
    // An easing's name: its detail up to the `:`.
    let name = |e: &vocab::Word<_>| e.detail.split(':').next().unwrap_or(e.detail);
    for e in vocab::EASINGS {
        let label = format!(":{}->", e.text);
        let detail =
            format!("{} easing {}, advance one step", name(e), e.means.sparkline(CURVE_WIDTH));
        v.push((label.clone(), detail.clone(), label));
    }
    v.extend(TIMELINE_TOKENS[2..].iter().copied().map(own));
    if let Some(e) = vocab::EASINGS.get(1) {
        let label = format!("::{}>", e.text);
        let detail = format!("give the key before the {} easing", name(e));
        v.push((label.clone(), detail, label));
    }
    v
}

/// The options of a section header or an item: [`OPTIONS`] and one easing
/// option per easing.
fn options() -> Vec<(String, String, String)> {
    let own = |(l, d, e): Entry| (l.to_string(), d.to_string(), e.to_string());
    let mut v: Vec<_> = OPTIONS.iter().copied().map(own).collect();
    for e in vocab::EASINGS {
        let detail = format!("easing {}: {}", e.means.sparkline(CURVE_WIDTH), e.detail);
        v.push((e.example.to_string(), detail, e.example.to_string()));
    }
    for e in vocab::BEZIER_EASING {
        v.push((e.example.to_string(), format!("easing: {}", e.detail), e.example.to_string()));
    }
    v
}

/// Characters of the little curve drawn beside an easing.
const CURVE_WIDTH: usize = 8;

impl Completer<'_> {
    /// The section keywords, at the start of an unindented line.
    pub(super) fn top_level_keywords(&mut self) {
        self.push_words(vocab::SECTIONS, ProposalKind::Keyword);
    }

    /// After a section keyword: names of the sections of that kind, then options.
    pub(super) fn header_line(&mut self, kind: &SectionKind) {
        // A skin header without its name yet makes no skin section (it is
        // ignored): it is one being written, with no name of its own.
        let unnamed;
        let kind = match kind {
            SectionKind::Ignored if self.before.split_whitespace().next() == Some("skin") => {
                let name = Spanned::new(String::new(), Span::new(0, 0));
                unnamed = SectionKind::Skin(SkinSection { name, items: Vec::new() });
                &unnamed
            }
            k => k,
        };
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
                    ("24fps", "frames per second", "24fps"),
                    ("30fps", "frames per second", "30fps"),
                    ("60fps", "frames per second", "60fps"),
                ];
                self.push_entries(fps, ProposalKind::Unit);
                self.push_owned(options(), ProposalKind::Operator);
                if matches!(self.prev_token(), Some("from" | "add")) {
                    for a in &self.comp.armature.animations {
                        self.push(format!("\"{}\"", a.name), ProposalKind::Name, "animation");
                    }
                }
                self.push_words(vocab::ANIM_MODIFIERS, ProposalKind::Keyword);
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
            self.push(format!("\"{n}\""), ProposalKind::Name, detail);
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
                self.push_words(vocab::BONE_LETTER_PROPS, ProposalKind::Property);
                self.push_entries(
                    [("#", "COLOR: the bone's color (#RGB or #RRGGBB)", "#F80")],
                    ProposalKind::Property,
                );
                self.push_words(vocab::BONE_FLAGS, ProposalKind::Property);
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
                self.push_entries(PATH_COMMANDS, ProposalKind::Command);
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
            self.push(format!("@{short}"), ProposalKind::Slot, format!("slot {}", s.name));
        }
    }

    /// After a slot's name: attachment types, or the properties of its type.
    pub(super) fn attachment_line(&mut self, sec_start: u32, kind: &SectionKind) {
        let ty = slot_type_at(sec_start, kind, self.line_start, self.line_end());
        if self.word.starts_with(':') || ty.is_none() {
            for t in vocab::ATTACHMENT_TYPES {
                let detail = format!("attachment type: {}", t.detail);
                let label = format!(":{}", t.text);
                let example_text = super::example_beyond(&label, t.example);
                self.out.push(Proposal {
                    label,
                    kind: ProposalKind::Type,
                    detail,
                    replace: self.replace,
                    example_text,
                });
            }
        }
        if let Some(ty) = ty.filter(|_| !self.word.starts_with(':')) {
            self.push_entries(vocab::attachment_props(&ty), ProposalKind::Property);
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
                self.push(format!("!{n}"), ProposalKind::Event, "event");
            }
            self.push_entries([("!", "!NAME: an event item", "!hit")], ProposalKind::Event);
            self.part_names(sec_start);
        } else if self.depth == 1 && self.before.trim_start().starts_with('"') {
            self.push_words(vocab::PART_WORDS, ProposalKind::Keyword);
        } else if self.depth == 1 {
            self.push_owned(options(), ProposalKind::Operator);
            let line = self.before.trim_start();
            if !line.starts_with('@') && !line.starts_with('!') {
                self.push_words(vocab::ITEM_MODIFIERS, ProposalKind::Keyword);
            }
        } else if self.depth == 2 && self.in_event_item() {
            if self.first_token {
                self.push_words(vocab::EVENT_KINDS, ProposalKind::Property);
            } else {
                if self.before.trim_start().starts_with("e ") {
                    self.push("!", ProposalKind::Keyword, "fire the event here");
                }
                self.push_owned(timeline_tokens(), ProposalKind::Operator);
            }
        } else if self.depth == 2 {
            let item = self.comp.sources.items.iter().rfind(|i| {
                (i.region.start as usize) < self.line_start
                    && (i.region.start as usize) >= sec_start as usize
            });
            let target = item.and_then(|i| i.target);
            if self.first_token {
                match target {
                    Some(Target::Slot(s)) => {
                        self.push_words(vocab::SLOT_TIMELINES, ProposalKind::Property);
                        // An attachment key names one of the slot's attachments.
                        let sk = &*self.comp.armature.skeleton;
                        if let Some(a) = sk.attachments.iter().find(|a| a.slot == s)
                            && let Some(p) = self.out.iter_mut().rfind(|p| p.label == "@")
                        {
                            p.example_text = Some(format!("@ {}", a.name));
                        }
                    }
                    Some(Target::Bone(_)) => {
                        self.push_words(vocab::BONE_TIMELINES, ProposalKind::Property)
                    }
                    _ => {}
                }
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
        self.push_owned(timeline_tokens(), ProposalKind::Operator);
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
                self.push(format!("!{n}"), ProposalKind::Event, "event: fires at this frame");
            }
        } else if self.depth == 1 && self.before.trim_start().starts_with('!') {
            self.push_words(vocab::EVENT_CHECK_WORDS, ProposalKind::Keyword);
            self.push_entries(
                [("~", "~NUM: tolerance of a number payload", "~0.5")],
                ProposalKind::Keyword,
            );
        } else if self.depth == 1 {
            if self.before.trim_start().starts_with('@') {
                self.push_words(vocab::EXPECT_SLOT_LETTERS, ProposalKind::Property);
            } else {
                self.push_words(vocab::EXPECT_BONE_LETTERS, ProposalKind::Property);
                self.push_words(vocab::EXPECT_SPACES, ProposalKind::Property);
            }
            self.push_entries([("~", "~NUM: tolerance", "~0.5")], ProposalKind::Property);
        }
    }

    /// Bones and keywords of an ik line.
    /// Every animation's name in quotes.
    fn animation_names(&mut self, detail: &str) {
        for a in &self.comp.armature.animations {
            self.push(format!("\"{}\"", a.name), ProposalKind::Name, detail);
        }
    }

    /// Sequence parts, at the start of a line of animation section
    /// `sec_start`: where no other line of the section is an item (a part
    /// there would leave its item's timelines outside any item), every
    /// animation but the section's own (a part playing its own sequence is
    /// a cycle).
    fn part_names(&mut self, sec_start: u32) {
        let section = &self.text[sec_start as usize..];
        let mut lines = section.split('\n');
        let header = lines.next().unwrap_or("");
        let own = header.split('"').nth(1).filter(|_| header.contains('"'));
        let mut at = sec_start as usize + header.len() + 1;
        for line in lines {
            let starts = at;
            at += line.len() + 1;
            let body = line.trim_start_matches('\t');
            if !(line.starts_with('\t') || body.is_empty() || body.starts_with('#')) {
                break;
            }
            if starts == self.line_start || body.is_empty() || body.starts_with('#') {
                continue;
            }
            if !body.starts_with('"') {
                return;
            }
        }
        for a in &self.comp.armature.animations {
            if Some(a.name.as_str()) != own {
                self.push(
                    format!("\"{}\"", a.name),
                    ProposalKind::Name,
                    "a sequence part: plays this animation",
                );
            }
        }
    }

    /// A `mix` line: two animation names, then seconds.
    pub(super) fn mix(&mut self) {
        if self.depth != 1 {
            return;
        }
        let before = self.before.split_whitespace().count() - usize::from(!self.word.is_empty());
        if before < 2 {
            self.animation_names(if before == 0 { "faded out" } else { "faded in" });
        } else if before == 2 {
            self.push_entries([("0.2s", "the crossfade in seconds", "0.2s")], ProposalKind::Unit);
        }
    }

    pub(super) fn ik(&mut self) {
        if self.depth != 1 {
            return;
        }
        if self.first_token {
            // A tip turns with its parents: a root bone cannot be one.
            let bones = &self.comp.armature.skeleton.bones;
            let has_parent = |i: usize| bones.get(i).is_some_and(|b| b.parent.is_some());
            self.bone_refs_where(self.replace, has_parent);
        } else if matches!(self.prev_token(), Some("to" | "from")) {
            self.bone_refs(self.replace);
        } else {
            self.push_words(vocab::IK_WORDS, ProposalKind::Keyword);
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
