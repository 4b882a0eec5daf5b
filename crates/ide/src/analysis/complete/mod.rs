//! Completion: the words that fit at the cursor, read from its line.

mod contexts;
#[cfg(test)]
mod every_proposal;

use super::section_at;
use skelpad_lang::compile::Compilation;
use skelpad_lang::syntax::Span;
use skelpad_lang::syntax::tree::SectionKind;
use skelpad_lang::syntax::vocab::{self, Entry, Word};

/// What a proposal is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProposalKind {
    /// A keyword: a section keyword, a flag, a modifier, `true`/`false`.
    Keyword,
    /// A property (a bone's, an attachment's, a timeline's, a check's).
    Property,
    /// A timeline token or a section option (arrows, easings, loops).
    Operator,
    /// A bone's name.
    Bone,
    /// A slot's name (`@NAME`).
    Slot,
    /// An attachment type (`:rect`).
    Type,
    /// A value with a unit (`24fps`).
    Unit,
    /// A quoted skin or animation name.
    Name,
    /// An attachment's name.
    Attachment,
    /// A path command.
    Command,
    /// An event (`!NAME`).
    Event,
}

/// A completion proposal: the text replacing `replace` and what it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    /// The text inserted (and shown).
    pub label: String,
    /// What kind of thing it is.
    pub kind: ProposalKind,
    /// What it is.
    pub detail: String,
    /// The text it replaces (the word typed so far).
    pub replace: Span,
    /// A finished use of it, as a script would have it, where that is not
    /// the label itself: the label with a value (`l` → `l10`) or the tokens
    /// it needs around it (`}[2]` → `{ 1 -> 2 }[2]`). See
    /// [`Proposal::example`].
    pub example_text: Option<String>,
}

impl Proposal {
    /// A finished use of it, as a script would have it: the label itself
    /// when it is a whole token, else [`Proposal::example_text`].
    pub fn example(&self) -> &str {
        self.example_text.as_deref().unwrap_or(&self.label)
    }
}

/// `example` when it says more than `label` (what
/// [`Proposal::example_text`] keeps).
fn example_beyond(label: &str, example: &str) -> Option<String> {
    (example != label).then(|| example.to_string())
}
/// Every reference form worth proposing for a set of names: the full name
/// and its shortest dotted suffix that no other name ends with (what the
/// compiler's name index resolves to that name alone).
///
/// Found level by level: the last segments of all names are counted, the
/// names whose last segment is theirs alone are done; only the others are
/// counted again with one more segment (a longer suffix of a done name
/// ends in a segment no other name has, so it cannot collide).
fn name_forms(names: &[&str]) -> Vec<(String, usize)> {
    // For each name still open: where its current suffix starts.
    let mut open: Vec<(usize, usize)> =
        names.iter().enumerate().map(|(i, n)| (i, n.len())).collect();
    let mut shortest: Vec<Option<usize>> = vec![None; names.len()];
    let mut counts: rustc_hash::FxHashMap<&str, u32> = Default::default();
    while !open.is_empty() {
        // Lengthen each open suffix by one segment (a name with none left
        // stays at its full name: it is done, as the full name).
        open.retain_mut(|(i, at)| {
            let name = names[*i];
            if *at == 0 {
                return false;
            }
            *at = name[..at.saturating_sub(1)].rfind('.').map_or(0, |d| d + 1);
            true
        });
        counts.clear();
        for &(i, at) in &open {
            *counts.entry(&names[i][at..]).or_default() += 1;
        }
        open.retain(|&(i, at)| {
            if counts.get(&names[i][at..]) == Some(&1) {
                shortest[i] = Some(at);
                false
            } else {
                true
            }
        });
    }
    let mut out = Vec::with_capacity(names.len() * 2);
    for (i, full) in names.iter().enumerate() {
        if let Some(c) = shortest[i].filter(|&c| c > 0) {
            out.push((full[c..].to_string(), i));
        }
        out.push((full.to_string(), i));
    }
    out
}

/// The most proposals one completion answer carries: a 1000-bone rig has
/// thousands of names, which a client can neither show nor receive in a
/// frame; it asks again as more of the word is typed.
pub const MAX_PROPOSALS: usize = 200;

/// [`complete`], at most `max` proposals: when there are more, those that
/// hold the typed word's characters in order (case-insensitively, as
/// clients filter) are kept, the ones that start with the word first, each
/// group in its own order. The flag says whether any were left out (an
/// LSP "incomplete" list, which clients ask for again as the word grows).
pub fn complete_limited(
    text: &str,
    comp: &Compilation,
    offset: usize,
    max: usize,
) -> (Vec<Proposal>, bool) {
    let all = complete(text, comp, offset);
    if all.len() <= max {
        return (all, false);
    }
    let lower = |c: char| {
        if c.is_ascii() { c.to_ascii_lowercase() } else { c.to_lowercase().next().unwrap_or(c) }
    };
    let word: Vec<char> = {
        let offset = offset.min(text.len());
        let offset = (0..=offset).rev().find(|&o| text.is_char_boundary(o)).unwrap_or(0);
        let line = &text[text[..offset].rfind('\n').map_or(0, |i| i + 1)..offset];
        let start = line.rfind(char::is_whitespace).map_or(0, |i| i + 1);
        line[start..].chars().map(lower).collect()
    };
    // Stops at the last character of the word: names are long, words short.
    let holds = |label: &str| {
        let mut want = word.iter().peekable();
        for c in label.chars() {
            let Some(&&w) = want.peek() else { break };
            if lower(c) == w {
                want.next();
            }
        }
        want.peek().is_none()
    };
    let starts = |label: &str| {
        let mut l = label.chars().map(lower);
        word.iter().all(|c| l.next() == Some(*c))
    };
    let (mut first, mut rest): (Vec<Proposal>, Vec<Proposal>) =
        all.into_iter().filter(|p| holds(&p.label)).partition(|p| starts(&p.label));
    first.append(&mut rest);
    first.truncate(max);
    // More than `max` were made: some are left out, whether filtered or cut.
    (first, true)
}

/// Proposals at `offset`.
pub fn complete(text: &str, comp: &Compilation, offset: usize) -> Vec<Proposal> {
    let mut c = Completer::at(text, comp, offset);
    if c.depth == 0 && c.first_token {
        c.top_level_keywords();
        return c.out;
    }
    let Some(si) = section_at(comp, c.line_start) else { return c.out };
    let (sec_start, sec) = (comp.sections[si].0, &comp.sections[si].1);
    if c.depth == 0 {
        c.header_line(&sec.kind);
        return c.out;
    }
    match &sec.kind {
        SectionKind::Skeleton(_) | SectionKind::Skin(_) => c.skeleton_or_skin(sec_start, &sec.kind),
        SectionKind::Order(_) => c.order(),
        SectionKind::Anim(_) => c.anim(sec_start),
        SectionKind::Expect(_) => c.expect(),
        SectionKind::Ik(_) => c.ik(),
        SectionKind::Mix(_) => c.mix(),
        SectionKind::Ignored => {}
    }
    c.out
}

/// The cursor's context for [`complete`] and the proposals gathered so far.
struct Completer<'a> {
    text: &'a str,
    comp: &'a Compilation,
    offset: usize,
    line_start: usize,
    /// The line up to the cursor.
    before: &'a str,
    /// Indentation depth (leading tabs).
    depth: usize,
    /// Start of the word under the cursor, relative to `line_start`.
    word_start: usize,
    word: &'a str,
    /// Whether the word is the line's first token.
    first_token: bool,
    /// The span a proposal replaces (the word under the cursor).
    replace: Span,
    bone_names: Vec<&'a str>,
    slot_names: Vec<&'a str>,
    out: Vec<Proposal>,
}

impl<'a> Completer<'a> {
    /// Reads the cursor's line, depth and word at `offset`.
    fn at(text: &'a str, comp: &'a Compilation, offset: usize) -> Self {
        let offset = offset.min(text.len());
        let offset = (0..=offset).rev().find(|&o| text.is_char_boundary(o)).unwrap_or(0);
        let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let before = &text[line_start..offset];
        let depth = before.bytes().take_while(|&b| b == b'\t').count();
        let word_start = before
            .rfind(|c: char| c.is_whitespace())
            .map_or(0, |i| i + before[i..].chars().next().map_or(1, char::len_utf8));
        let word = &before[word_start..];
        let first_token = before[..word_start].trim().is_empty();
        let replace = Span::new((line_start + word_start) as u32, offset as u32);
        let sk = &*comp.armature.skeleton;
        let bone_names = sk.bones.iter().map(|b| b.name.as_str()).collect();
        let slot_names = sk.slots.iter().map(|s| s.name.as_str()).collect();
        Completer {
            text,
            comp,
            offset,
            line_start,
            before,
            depth,
            word_start,
            word,
            first_token,
            replace,
            bone_names,
            slot_names,
            out: Vec::new(),
        }
    }

    /// Adds a proposal replacing the word under the cursor.
    fn push(&mut self, label: impl Into<String>, kind: ProposalKind, detail: impl Into<String>) {
        self.push_at(label, kind, detail, self.replace);
    }

    /// Adds a proposal replacing `replace`.
    fn push_at(
        &mut self,
        label: impl Into<String>,
        kind: ProposalKind,
        detail: impl Into<String>,
        replace: Span,
    ) {
        let (label, detail) = (label.into(), detail.into());
        self.out.push(Proposal { label, kind, detail, replace, example_text: None });
    }

    /// Adds every `(label, detail, example)` of `list` with one kind.
    fn push_entries(&mut self, list: impl IntoIterator<Item = Entry>, kind: ProposalKind) {
        for (label, detail, example) in list {
            self.out.push(Proposal {
                label: label.to_string(),
                kind,
                detail: detail.to_string(),
                replace: self.replace,
                example_text: example_beyond(label, example),
            });
        }
    }

    /// Adds every `(label, detail, example)` made for this answer.
    fn push_owned(&mut self, list: Vec<(String, String, String)>, kind: ProposalKind) {
        for (label, detail, example) in list {
            let example_text = example_beyond(&label, &example);
            self.out.push(Proposal { label, kind, detail, replace: self.replace, example_text });
        }
    }

    /// Adds every word of a vocabulary table with one kind.
    fn push_words<T>(&mut self, table: &'static [Word<T>], kind: ProposalKind) {
        self.push_entries(vocab::entries(table), kind);
    }

    /// Adds every bone reference form, replacing `replace`.
    fn bone_refs(&mut self, replace: Span) {
        self.bone_refs_where(replace, |_| true);
    }

    /// Adds the reference forms of the bones (by index) `keep` takes.
    fn bone_refs_where(&mut self, replace: Span, keep: impl Fn(usize) -> bool) {
        for (form, i) in name_forms(&self.bone_names) {
            if !keep(i) {
                continue;
            }
            let detail = format!("bone {}", self.bone_names[i]);
            self.push_at(form, ProposalKind::Bone, detail, replace);
        }
    }

    /// Adds every slot reference form (`@NAME`).
    fn slot_refs(&mut self) {
        for (form, i) in name_forms(&self.slot_names) {
            let detail = format!("slot {}", self.slot_names[i]);
            self.push(format!("@{form}"), ProposalKind::Slot, detail);
        }
    }

    /// The end of the cursor's line.
    fn line_end(&self) -> usize {
        self.text[self.offset..].find('\n').map_or(self.text.len(), |i| self.offset + i)
    }

    /// The token before the word under the cursor.
    fn prev_token(&self) -> Option<&'a str> {
        self.before[..self.word_start].split_whitespace().next_back()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelpad_lang::compile::names::{NameIndex, Resolved};

    /// The forms as the compiler's name index resolves them (what
    /// `name_forms` made before it counted suffixes itself).
    fn name_forms_by_index(names: &[&str]) -> Vec<(String, usize)> {
        let idx = NameIndex::new(names.iter().copied());
        let mut out = Vec::new();
        for (i, full) in names.iter().enumerate() {
            let mut cuts: Vec<usize> = full.match_indices('.').map(|(d, _)| d + 1).collect();
            cuts.reverse();
            if let Some(c) =
                cuts.into_iter().find(|&c| idx.resolve(&full[c..]) == Resolved::Found(i as u32))
            {
                out.push((full[c..].to_string(), i));
            }
            out.push((full.to_string(), i));
        }
        out
    }

    #[test]
    fn name_forms_are_what_the_name_index_resolves_alone() {
        let mut sets: Vec<Vec<String>> = vec![
            ["a", "a.b", "c.b", "b", "x.y.z", "w.y.z", "q.z"].map(String::from).to_vec(),
            ["root", "root.arm", "root.arm.hand", "arm", "arm.hand"].map(String::from).to_vec(),
        ];
        for (_, style) in skelpad_lang::generate::STYLES {
            let comp =
                skelpad_lang::compile::compile(&skelpad_lang::generate::styled(style, 300, 2));
            let sk = &*comp.armature.skeleton;
            sets.push(sk.bones.iter().map(|b| b.name.clone()).collect());
            sets.push(sk.slots.iter().map(|s| s.name.clone()).collect());
        }
        for set in &sets {
            let names: Vec<&str> = set.iter().map(String::as_str).collect();
            assert_eq!(name_forms(&names), name_forms_by_index(&names), "{names:?}");
        }
    }

    #[test]
    fn a_long_list_is_cut_to_the_names_that_hold_the_typed_word() {
        let mut text = String::from("skeleton\n");
        for i in 0..300 {
            text.push_str(&format!("\tbone{i}\n"));
        }
        text.push_str("\tLegacy\nanim \"a\"\n\t");
        let comp = skelpad_lang::compile::compile(&text);
        let (all, cut) = complete_limited(&text, &comp, text.len(), 10_000);
        // The 301 bones, and `!` (an event item).
        assert!(!cut && all.len() == 302, "{}", all.len());
        assert!(all.iter().any(|p| p.label == "!"));
        let (some, cut) = complete_limited(&text, &comp, text.len(), 50);
        assert!(cut && some.len() == 50);
        assert_eq!(some[0].label, "bone0", "in order when nothing is typed");
        // `e2`: names holding an `e` then a `2`, those starting with it first
        // (none here); `bone2`, `bone12`, `bone20`…; not `Legacy`.
        let typed = format!("{text}e2");
        let comp = skelpad_lang::compile::compile(&typed);
        let (some, cut) = complete_limited(&typed, &comp, typed.len(), 50);
        assert!(cut);
        assert_eq!(some[0].label, "bone2");
        assert!(
            some.iter().all(|p| p.label.contains('2')),
            "{:?}",
            some.iter().map(|p| &p.label).collect::<Vec<_>>()
        );
        // `leg`, case-insensitively and as a prefix first: `Legacy`.
        let typed = format!("{text}leg");
        let comp = skelpad_lang::compile::compile(&typed);
        let (some, _) = complete_limited(&typed, &comp, typed.len(), 50);
        assert_eq!(some.iter().map(|p| p.label.as_str()).collect::<Vec<_>>(), ["Legacy"]);
    }

    #[test]
    fn a_section_header_offers_the_names_other_sections_made_not_its_own() {
        let labels = |text: &str| -> Vec<(String, String)> {
            let comp = skelpad_lang::compile::compile(text);
            complete(text, &comp, text.len()).into_iter().map(|p| (p.label, p.detail)).collect()
        };
        // `anim ` alone: no `""` (its own name while it has none).
        assert_eq!(labels("skeleton\n\tarm\nanim "), []);
        // Other animations are offered, said to be added to.
        let got = labels("skeleton\n\tarm\nanim \"walk\"\n\tarm\n\t\tx 1\nanim ");
        assert_eq!(
            got,
            [(
                "\"walk\"".to_string(),
                "animation already defined: this section adds to it".to_string()
            )]
        );
        // Its own name, while typing it, is not offered; another section's
        // of the same name is.
        assert_eq!(labels("skeleton\n\tarm\nanim \"run"), []);
        assert_eq!(labels("skeleton\n\tarm\nanim \"run\"\nanim \"run").len(), 1);
        // Skins alike; `expect` names animations to check, all of them.
        assert_eq!(labels("skeleton\n\tarm\nskin "), []);
        let got = labels("skeleton\n\tarm\nanim \"walk\"\nexpect ");
        assert_eq!(got, [("\"walk\"".to_string(), "animation".to_string())]);
    }
}
