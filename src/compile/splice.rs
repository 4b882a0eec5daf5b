//! Re-parsing only the edited items of an `anim` section.
//!
//! Inside an `anim` section only a line indented by one tab opens or closes
//! an item, and such a line ends whatever the parser was skipping, so the
//! lines from one item line up to the next parse the same whatever comes
//! before or after them ([`crate::syntax::parse_anim_items`]). An edit
//! inside a section is widened to the item lines around it, those lines are
//! parsed alone, and the section's tree is the old one with those items,
//! their diagnostics and roles replaced and everything after them moved by
//! the change in length.

use crate::syntax::lines::Tokens;
use crate::syntax::tree::{AnimItem, Section, SectionKind};
use crate::syntax::{TokenRole, parse_anim_items};

/// How an edit inside one `anim` section changed its items: the old
/// section's bytes `from..to_old` became `from..to_new`, and its items
/// `first..first + old_count` were replaced by `new_count` items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ItemEdit {
    pub from: u32,
    pub to_old: u32,
    pub to_new: u32,
    pub first: usize,
    pub old_count: usize,
    pub new_count: usize,
}

impl ItemEdit {
    /// How far what follows the edited items moved (modulo 2³², so a
    /// shrinking section moves spans back with a wrapping add).
    pub fn delta(&self) -> u32 {
        self.to_new.wrapping_sub(self.to_old)
    }
}

/// Whether the line that starts at byte `at` of a section's text is an
/// item line the parser reads alone: a logical line of its own (the line
/// before does not end with `\`, nor does this one) that starts with one
/// tab, then not a tab, and holds a token.
pub(super) fn item_line_at(t: &[u8], at: usize) -> bool {
    if at == 0 || at + 1 >= t.len() || t[at - 1] != b'\n' || t[at] != b'\t' || t[at + 1] == b'\t' {
        return false;
    }
    let mut k = at - 1;
    if k > 0 && t[k - 1] == b'\r' {
        k -= 1;
    }
    if k > 0 && t[k - 1] == b'\\' {
        return false;
    }
    let eol = memchr::memchr(b'\n', &t[at..]).map_or(t.len(), |i| at + i);
    let mut end = eol;
    if t[end - 1] == b'\r' {
        end -= 1;
    }
    if end > at && t[end - 1] == b'\\' {
        return false;
    }
    std::str::from_utf8(&t[at..end]).is_ok_and(|line| Tokens::new(line).next().is_some())
}

/// The bytes of a section to re-parse after an edit: `old` and `new` are
/// its texts before and after, sharing their first `p` bytes and the bytes
/// from `new_end` of `new` to its end (with as many at the end of `old`).
/// Gives `(from, to_new, to_old)`: whole item lines, starting at an item
/// line of both texts and ending at one (or at the end of the section);
/// `None` when the edit touches the header or the lines before the first
/// item.
pub(super) fn item_window(
    old: &[u8],
    new: &[u8],
    p: usize,
    new_end: usize,
) -> Option<(usize, usize, usize)> {
    let delta = new.len().wrapping_sub(old.len());
    let line_start = |t: &[u8], at: usize| memchr::memrchr(b'\n', &t[..at]).map_or(0, |i| i + 1);
    let mut from = line_start(new, p);
    while !(item_line_at(new, from) && item_line_at(old, from)) {
        if from == 0 {
            return None;
        }
        from = line_start(new, from - 1);
    }
    let mut to = if new_end == 0 || new[new_end - 1] == b'\n' {
        new_end
    } else {
        memchr::memchr(b'\n', &new[new_end..]).map_or(new.len(), |i| new_end + i + 1)
    };
    while to < new.len() && !(item_line_at(new, to) && item_line_at(old, to.wrapping_sub(delta))) {
        to = memchr::memchr(b'\n', &new[to..]).map_or(new.len(), |i| to + i + 1);
    }
    let to_old = to.wrapping_sub(delta);
    Some((from, to, to_old))
}

/// The tree of `new` (an edited version of the `anim` section `old`)
/// with only `new[from..to_new]` parsed: the old tree's items, diagnostics
/// and roles of `from..to_old` replaced by those lines' and the ones after
/// moved. `None` when the old tree is not an `anim` section or its
/// diagnostics are not in the order of their lines (then the caller parses
/// the whole section).
pub(super) fn splice_items(
    old: &Section,
    new: &str,
    window: (usize, usize, usize),
) -> Option<(Section, ItemEdit)> {
    if !matches!(old.kind, SectionKind::Anim(_)) {
        return None;
    }
    // A copy, spliced in place: the copy of the edited items is wasted, and
    // they are few.
    let mut tree = old.clone();
    let edit = splice_items_in_place(&mut tree, new, window)?;
    Some((tree, edit))
}

/// [`splice_items`] on the old tree itself (`tree`, which becomes the
/// new one): only the edited items are dropped and made, the ones after
/// them moved where they are.
pub(super) fn splice_items_in_place(
    tree: &mut Section,
    new: &str,
    (from, to_new, to_old): (usize, usize, usize),
) -> Option<ItemEdit> {
    let SectionKind::Anim(a) = &mut tree.kind else { return None };
    let (from32, to_old32) = (from as u32, to_old as u32);
    let diags = &mut tree.diagnostics;
    let d0 = diags.iter().position(|d| d.span.start >= from32).unwrap_or(diags.len());
    let d1 =
        diags[d0..].iter().position(|d| d.span.start >= to_old32).map_or(diags.len(), |i| d0 + i);
    if diags[d1..].iter().any(|d| d.span.start < to_old32) {
        return None;
    }
    let chunk = parse_anim_items(&new[from..to_new]);
    let first = a.items.partition_point(|i| i.target.span.start < from32);
    let last = a.items.partition_point(|i| i.target.span.start < to_old32);
    let edit = ItemEdit {
        from: from32,
        to_old: to_old32,
        to_new: to_new as u32,
        first,
        old_count: last - first,
        new_count: chunk.items.len(),
    };
    let delta = edit.delta();

    a.items.splice(
        first..last,
        chunk.items.into_iter().map(|mut i| {
            move_item(&mut i, from32);
            i
        }),
    );
    for i in &mut a.items[first + edit.new_count..] {
        move_item(i, delta);
    }

    let n = chunk.diagnostics.len();
    diags.splice(d0..d1, chunk.diagnostics.into_iter().map(|d| d.shifted(from32)));
    for d in &mut diags[d0 + n..] {
        d.span = d.span.shifted(delta);
    }

    let roles = &mut tree.roles;
    let r0 = roles.partition_point(|r| r.span.start < from32);
    let r1 = roles.partition_point(|r| r.span.start < to_old32);
    let n = chunk.roles.len();
    roles.splice(
        r0..r1,
        chunk.roles.iter().map(|r| TokenRole { span: r.span.shifted(from32), role: r.role }),
    );
    for r in &mut roles[r0 + n..] {
        r.span = r.span.shifted(delta);
    }
    Some(edit)
}

/// Moves every span of an item by `by` (wrapping).
fn move_item(i: &mut AnimItem, by: u32) {
    i.target.span = i.target.span.shifted(by);
    for t in &mut i.timelines {
        t.prop.span = t.prop.span.shifted(by);
        t.span = t.span.shifted(by);
        for c in &mut t.commands {
            c.span = c.span.shifted(by);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_section;

    /// Every single-byte deletion and every insertion of a few strings at
    /// every position of a small `anim` section: when the window is found,
    /// the spliced tree equals a fresh parse of the edited section.
    #[test]
    fn spliced_trees_equal_fresh_parses() {
        let base = "anim \"a\" 10fps\n\t\t# before\n\tb :2:si\n\t\tx 0 -> 10 -> { +5 -> }[2]\n\n\t\tr 5\n\t@s\n\t\t@ open -> shut\n\t\tc #F00 -> #0F0\r\n\tnope !\n\t\tx 1\n\t\t\ty 2\n\tb.c\n\t\tq 1\n\t\ty \\\n\t\t 4\n\tc\n\t\tx 1 -> 2\n\tb \\\r\n\t\tx 1\n\tc\n";
        let inserts = ["", "1", "\n", "\t", "\n\t", "\n\tb\n", "\\", "#", " ", "\r", "@", "x"];
        let mut spliced = 0;
        for at in 0..=base.len() {
            for del in 0..3 {
                for ins in inserts {
                    if at + del > base.len() || (del == 0 && ins.is_empty()) {
                        continue;
                    }
                    let new = format!("{}{}{}", &base[..at], ins, &base[at + del..]);
                    let old_tree = parse_section(base);
                    let (o, n) = (base.as_bytes(), new.as_bytes());
                    let p = o.iter().zip(n).take_while(|(a, b)| a == b).count();
                    let s = o[p..]
                        .iter()
                        .rev()
                        .zip(n[p..].iter().rev())
                        .take_while(|(a, b)| a == b)
                        .count();
                    let Some(w) = item_window(o, n, p, n.len() - s) else { continue };
                    let Some((tree, edit)) = splice_items(&old_tree, &new, w) else { continue };
                    spliced += 1;
                    assert_eq!(tree, parse_section(&new), "{at} {del} {ins:?}: {new:?}");
                    let mut in_place = old_tree.clone();
                    let edit_in_place = splice_items_in_place(&mut in_place, &new, w);
                    assert_eq!(edit_in_place, Some(edit));
                    assert_eq!(in_place, tree, "in place: {at} {del} {ins:?}: {new:?}");
                    let SectionKind::Anim(a) = &tree.kind else { panic!() };
                    assert!(edit.first + edit.new_count <= a.items.len());
                }
            }
        }
        assert!(spliced > 500, "{spliced}");
    }
}
