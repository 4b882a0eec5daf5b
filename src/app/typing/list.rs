//! The completion list's keys, applied in order with the typing.
//!
//! The list must never make the same keys type different text at different
//! speeds. So it is not a second reader of the frame's input: it is a state
//! that [`super::apply_in_order`] carries through the frame's events one by
//! one, and every key that it may take (Enter, Tab, Up, Down, Escape,
//! Ctrl+Space) is decided against the text *as the keys before it left it*,
//! with proposals asked for that text ([`Propose`]), never with the list
//! drawn for an earlier frame.
//!
//! The rule (also in `docs/editor.md`):
//!
//! - Typing a word character opens the list by itself (when something fits);
//!   Ctrl+Space opens it on demand. Any other edit closes it, and so does
//!   Escape.
//! - Tab inserts the selected proposal.
//! - Enter inserts it only when the list was opened with Ctrl+Space or the
//!   user moved in it with Up or Down. In a list that opened by itself
//!   while typing, Enter closes the list and makes a new line, so a word
//!   typed out in full followed by Enter is always that word and a new line.
//! - A selected proposal that equals the word already typed is never
//!   inserted: Enter and Tab close the list and do what they do without it.
//!   A proposal equal to the typed word is listed first.
//! - Up and Down move in an open list (not the cursor).
//!
//! A key that arrives while the text field is applying a frame's cursor
//! keys or clicks (which it does after this loop) waits for the next frame,
//! where the list has followed the cursor; see [`super::apply_in_order`].

use std::ops::Range;

use eframe::egui::{Event, Key, Modifiers};

use skelpad_ide::analysis::Proposal;

/// Asks for the completion proposals at a cursor of a text (the list's
/// order: see [`crate::app::assist::proposals_in`]).
pub trait Propose {
    /// The proposals at byte `cursor` of `text`.
    fn propose(&mut self, text: &str, cursor: usize) -> Vec<Proposal>;
}

/// A key the completion list may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListKey {
    /// Ctrl+Space: open the list here.
    Invoke,
    /// Arrow up: the row above.
    Up,
    /// Arrow down: the row below.
    Down,
    /// Enter: insert the chosen row (by the rule), or a new line.
    Enter,
    /// Tab: insert the chosen row, or a tab.
    Tab,
    /// Escape: close the list.
    Escape,
}

impl ListKey {
    /// The list key `event` is (a press, with exactly these modifiers).
    pub fn of(event: &Event) -> Option<ListKey> {
        let Event::Key { key, pressed: true, modifiers: m, .. } = event else { return None };
        let none = *m == Modifiers::NONE;
        let ctrl_only = m.ctrl && !m.alt && !m.shift && !m.mac_cmd;
        Some(match key {
            k if *k == super::super::keymap::COMPLETE.logical_key && ctrl_only => ListKey::Invoke,
            Key::ArrowUp if none => ListKey::Up,
            Key::ArrowDown if none => ListKey::Down,
            Key::Enter if none => ListKey::Enter,
            Key::Tab if none => ListKey::Tab,
            Key::Escape if none => ListKey::Escape,
            _ => return None,
        })
    }
}

/// An open list.
#[derive(Clone, Debug, Default)]
pub struct Open {
    /// Opened with Ctrl+Space (not by typing a word).
    pub invoked: bool,
    /// Up or Down moved in it since the word last changed.
    pub moved: bool,
    /// The row chosen.
    pub selected: usize,
    /// The cursor the proposals were asked at, and the proposals (`None`:
    /// the text changed since; they are asked again when needed).
    pub asked: Option<(usize, Vec<Proposal>)>,
}

/// What a list key did.
#[derive(Debug, PartialEq)]
pub enum Taken {
    /// Nothing: the key goes on to do what it does without a list.
    No,
    /// The list took it (moved, opened or closed).
    Yes,
    /// The list inserted a proposal; the text before it is given (for the
    /// undo history: one insertion, one undo step).
    Inserted {
        /// The text before the insertion.
        before: String,
    },
}

/// The completion list as the typing sees it.
#[derive(Clone, Debug, Default)]
pub struct List {
    open: Option<Open>,
}

impl List {
    /// The open list, if any.
    pub fn open(&self) -> Option<&Open> {
        self.open.as_ref()
    }

    /// The open list, to follow the cursor or choose a row.
    pub fn open_mut(&mut self) -> Option<&mut Open> {
        self.open.as_mut()
    }

    /// Closes the list.
    pub fn close(&mut self) {
        self.open = None;
    }

    /// Text was typed or deleted (by the editor or the text field): a word
    /// character last opens the list, or keeps it open for the longer
    /// word; anything else closes it.
    pub fn typed(&mut self, inserted: Option<&str>) {
        let word = inserted.and_then(|t| t.chars().last()).is_some_and(is_word_char);
        if !word {
            self.open = None;
            return;
        }
        let invoked = self.open.as_ref().is_some_and(|o| o.invoked);
        self.open = Some(Open { invoked, ..Open::default() });
    }

    /// The proposals of the open list at `cursor` of `text`, asked for when
    /// they are not known there; the list closes when nothing fits.
    pub fn ensure(
        &mut self,
        text: &str,
        cursor: usize,
        propose: &mut dyn Propose,
    ) -> Option<&mut Open> {
        let open = self.open.as_mut()?;
        if open.asked.as_ref().is_none_or(|(at, _)| *at != cursor) {
            let proposals = propose.propose(text, cursor);
            open.selected = open.selected.min(proposals.len().saturating_sub(1));
            open.asked = Some((cursor, proposals));
        }
        if open.asked.as_ref().is_some_and(|(_, p)| p.is_empty()) {
            self.open = None;
        }
        self.open.as_mut()
    }

    /// Applies list key `key` to `text` with the selection `sel` (anchor..
    /// cursor, bytes), by the rule in the module's documentation.
    pub fn key(
        &mut self,
        key: ListKey,
        text: &mut String,
        sel: &mut Range<usize>,
        propose: &mut dyn Propose,
    ) -> Taken {
        if key == ListKey::Invoke {
            self.open = Some(Open { invoked: true, ..Open::default() });
            self.ensure(text, sel.end, propose);
            return Taken::Yes;
        }
        if key == ListKey::Escape {
            return if self.open.take().is_some() { Taken::Yes } else { Taken::No };
        }
        let Some(open) = self.ensure(text, sel.end, propose) else { return Taken::No };
        let Some((_, proposals)) = &open.asked else { return Taken::No };
        let n = proposals.len();
        match key {
            ListKey::Up | ListKey::Down => {
                let step = if key == ListKey::Down { 1 } else { n - 1 };
                open.selected = (open.selected + step) % n;
                open.moved = true;
                return Taken::Yes;
            }
            ListKey::Enter if !open.invoked && !open.moved => {
                self.open = None;
                return Taken::No;
            }
            _ => {}
        }
        let p = &proposals[open.selected];
        let (start, cursor) = (p.replace.start as usize, sel.end);
        let end = (p.replace.end as usize).max(cursor);
        let word = text.get(start..cursor);
        if word == Some(p.label.as_str()) || end > text.len() || start > cursor {
            self.open = None;
            return Taken::No;
        }
        let before = text.clone();
        text.replace_range(start..end, &p.label);
        let at = start + p.label.len();
        *sel = at..at;
        self.open = None;
        Taken::Inserted { before }
    }
}

/// Whether typing `c` goes on with a word (and opens the list).
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '@' | ':' | '!' | '.' | '-' | '#')
}

#[cfg(test)]
mod tests {
    use super::*;
    use skelpad_ide::analysis::ProposalKind;
    use skelpad_lang::syntax::Span;

    /// Proposes the names of `names` that start with the word before the
    /// cursor (a stand-in for the language's proposals).
    struct Names(&'static [&'static str]);

    impl Propose for Names {
        fn propose(&mut self, text: &str, cursor: usize) -> Vec<Proposal> {
            let start = text[..cursor].rfind(|c: char| !is_word_char(c)).map_or(0, |i| i + 1);
            let word = &text[start..cursor];
            let mut v: Vec<Proposal> = self
                .0
                .iter()
                .filter(|n| n.starts_with(word))
                .map(|n| Proposal {
                    label: n.to_string(),
                    kind: ProposalKind::Bone,
                    detail: String::new(),
                    replace: Span::new(start as u32, cursor as u32),
                    example_text: None,
                })
                .collect();
            v.sort_by_key(|p| p.label != word);
            v
        }
    }

    fn type_word(list: &mut List, text: &mut String, sel: &mut Range<usize>, w: &str) {
        for c in w.chars() {
            text.insert(sel.end, c);
            *sel = sel.end + c.len_utf8()..sel.end + c.len_utf8();
            list.typed(Some(&c.to_string()));
        }
    }

    #[test]
    fn enter_after_a_whole_name_is_a_new_line_and_tab_completes_a_part() {
        let names = &mut Names(&["arm", "arm.hand", "leg"]);
        let (mut list, mut text, mut sel) = (List::default(), String::new(), 0..0);
        type_word(&mut list, &mut text, &mut sel, "arm");
        // A list that opened by itself never takes Enter.
        assert_eq!(list.key(ListKey::Enter, &mut text, &mut sel, names), Taken::No);
        assert!(list.open().is_none());
        // Tab on a part of a name takes the first proposal.
        let (mut text, mut sel) = (String::new(), 0..0);
        type_word(&mut list, &mut text, &mut sel, "ar");
        let taken = list.key(ListKey::Tab, &mut text, &mut sel, names);
        assert_eq!(taken, Taken::Inserted { before: "ar".into() });
        assert_eq!((text.as_str(), sel.clone()), ("arm", 3..3));
        // Tab after the whole name: the name equals the word, a plain tab.
        list.typed(Some("m"));
        assert_eq!(list.key(ListKey::Tab, &mut text, &mut sel, names), Taken::No);
        // Down then Enter takes the second one; Ctrl+Space then Enter the first.
        let (mut text, mut sel) = (String::new(), 0..0);
        type_word(&mut list, &mut text, &mut sel, "a");
        assert_eq!(list.key(ListKey::Down, &mut text, &mut sel, names), Taken::Yes);
        assert!(matches!(
            list.key(ListKey::Enter, &mut text, &mut sel, names),
            Taken::Inserted { .. }
        ));
        assert_eq!(text, "arm.hand");
        let (mut text, mut sel) = (String::from("l"), 1..1);
        assert_eq!(list.key(ListKey::Invoke, &mut text, &mut sel, names), Taken::Yes);
        assert!(matches!(
            list.key(ListKey::Enter, &mut text, &mut sel, names),
            Taken::Inserted { .. }
        ));
        assert_eq!(text, "leg");
        // Nothing fits: the list closes and keys go on.
        let (mut text, mut sel) = (String::new(), 0..0);
        type_word(&mut list, &mut text, &mut sel, "zz");
        assert_eq!(list.key(ListKey::Down, &mut text, &mut sel, names), Taken::No);
        assert!(list.open().is_none());
        // Escape closes an open list and is taken; with none, it is not.
        let (mut text, mut sel) = (String::from("a"), 1..1);
        list.typed(Some("a"));
        assert_eq!(list.key(ListKey::Escape, &mut text, &mut sel, names), Taken::Yes);
        assert_eq!(list.key(ListKey::Escape, &mut text, &mut sel, names), Taken::No);
    }
}
