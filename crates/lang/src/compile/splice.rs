//! Re-parsing only the edited items of an `anim` section, or the edited
//! bone lines of a `skeleton` section.
//!
//! Inside an `anim` section only a line indented by one tab opens or closes
//! an item, and such a line ends whatever the parser was skipping, so the
//! lines from one item line up to the next parse the same whatever comes
//! before or after them ([`crate::syntax::parse_anim_items`]). An edit
//! inside a section is widened to the item lines around it, those lines are
//! parsed alone, and the section's tree is the old one with those items,
//! their diagnostics and roles replaced and everything after them moved by
//! the change in length.
//!
//! A `skeleton` section is cut the same way at its bone lines (one tab,
//! then a name, not continuing the line before): such a line ends any
//! skipped run and opens the bone the lines under it belong to
//! ([`crate::syntax::skeleton_cut`]).
//!
//! A spliced tree is edited in place when nothing else holds it (animations
//! and the rig are cached on section *ids*, not on the trees, and the editor
//! and the language server let the last compilation go before updating), else
//! on a copy. The animation is then recompiled from its last output
//! (`anim::Memo`): the untouched items keep their references, source,
//! diagnostics, timelines and keys (moved), and only the edited items are
//! resolved and run. A spliced skeleton still merges the rig in full
//! (`merge_rig` is most of what such an edit costs).

use crate::syntax::lines::Tokens;
use crate::syntax::tree::{
    AnimItem, BoneLine, PathCommand, PathCommandLine, PointLit, Section, SectionKind,
};
use crate::syntax::{Diagnostic, TokenRole, bone_cut_at, parse_anim_items, parse_skeleton_from};

/// Bytes of a section to re-parse after an edit (see [`item_window`]): the
/// new section's `from..to_new`, which were the old one's `from..to_old`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Window {
    pub from: usize,
    pub to_new: usize,
    pub to_old: usize,
}

/// How to find the [`Window`] of an edit: [`item_window`], [`bone_window`].
pub(super) type FindWindow = fn(&[u8], &[u8], usize, usize) -> Option<Window>;

/// How to splice a window's lines into a section's tree in place:
/// [`splice_items_in_place`], [`splice_bones_in_place`].
pub(super) type Splice = fn(&mut Section, &str, Window) -> Option<ItemEdit>;

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
    /// The edit of `window`, whose lines held the entries `first..last`
    /// and now hold `new_count`.
    fn new(
        Window { from, to_new, to_old }: Window,
        (first, last): (usize, usize),
        new_count: usize,
    ) -> ItemEdit {
        let (from, to_old, to_new) = (from as u32, to_old as u32, to_new as u32);
        ItemEdit { from, to_old, to_new, first, old_count: last - first, new_count }
    }

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
/// Gives a [`Window`]: whole item lines, starting at an item
/// line of both texts and ending at one (or at the end of the section);
/// `None` when the edit touches the header or the lines before the first
/// item.
pub(super) fn item_window(old: &[u8], new: &[u8], p: usize, new_end: usize) -> Option<Window> {
    window_between_cuts(old, new, p, new_end, item_line_at)
}

/// [`item_window`] for a `skeleton` section: whole bone lines (each with
/// the lines nested under it), from a place `crate::syntax::skeleton_cut`
/// may cut at to the next such place of both texts (or the section's end).
pub(super) fn bone_window(old: &[u8], new: &[u8], p: usize, new_end: usize) -> Option<Window> {
    window_between_cuts(old, new, p, new_end, bone_cut_at)
}

/// The window of [`item_window`] and [`bone_window`]: from the last line
/// start at or before `p` that is a cut of both texts (`is_cut`) to the
/// first line start at or after the edited lines that is one of both.
/// Each step moves one line, so both loops are bounded by the lines of
/// the section.
fn window_between_cuts(
    old: &[u8],
    new: &[u8],
    p: usize,
    new_end: usize,
    is_cut: fn(&[u8], usize) -> bool,
) -> Option<Window> {
    let delta = new.len().wrapping_sub(old.len());
    let line_start = |t: &[u8], at: usize| memchr::memrchr(b'\n', &t[..at]).map_or(0, |i| i + 1);
    let mut from = line_start(new, p);
    while !(is_cut(new, from) && is_cut(old, from)) {
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
    while to < new.len() && !(is_cut(new, to) && is_cut(old, to.wrapping_sub(delta))) {
        to = memchr::memchr(b'\n', &new[to..]).map_or(new.len(), |i| to + i + 1);
    }
    let to_old = to.wrapping_sub(delta);
    Some(Window { from, to_new: to, to_old })
}

/// The tree of `new` (an edited version of the `anim` section `tree`),
/// made from the old one in place with only `new[from..to_new]` parsed:
/// the old tree's items, diagnostics and roles of `from..to_old` replaced
/// by those lines' and the ones after moved where they are. `None` when
/// the tree is not an `anim` section or its diagnostics are not in the
/// order of their lines (then the caller parses the whole section).
pub(super) fn splice_items_in_place(
    tree: &mut Section,
    new: &str,
    Window { from, to_new, to_old }: Window,
) -> Option<ItemEdit> {
    let SectionKind::Anim(a) = &mut tree.kind else { return None };
    // Sequence parts are not items: a section with any is parsed whole.
    if !a.parts.is_empty() || new[from..to_new].contains("\t\"") {
        return None;
    }
    let (from32, to_old32) = (from as u32, to_old as u32);
    let diag_range = edited_diagnostics(&tree.diagnostics, from32, to_old32)?;
    let chunk = parse_anim_items(&new[from..to_new]);
    let (first, last) = replaced(&a.items, |i| i.target.span.start, from32, to_old32);
    let edit = ItemEdit::new(Window { from, to_new, to_old }, (first, last), chunk.items.len());
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
    let lists = (&mut tree.diagnostics, &mut tree.roles);
    splice_lists(lists, diag_range, (chunk.diagnostics, &chunk.roles), &edit, from32);
    Some(edit)
}

/// [`splice_items_in_place`] for a `skeleton` section's tree: the bone
/// lines of `new[from..to_new]` (a [`bone_window`]) are parsed alone and
/// replace the old tree's bone lines of `from..to_old`, with their
/// diagnostics and roles; the ones after are moved. `None` when `tree` is
/// not a `skeleton` section or its diagnostics are not in the order of
/// their lines (then the caller parses the whole section).
pub(super) fn splice_bones_in_place(
    tree: &mut Section,
    new: &str,
    Window { from, to_new, to_old }: Window,
) -> Option<ItemEdit> {
    let SectionKind::Skeleton(sk) = &mut tree.kind else { return None };
    let (from32, to_old32) = (from as u32, to_old as u32);
    let diag_range = edited_diagnostics(&tree.diagnostics, from32, to_old32)?;
    // Spans relative to the section's start, as the tree's.
    let chunk = parse_skeleton_from(&new[..to_new], from);
    let (first, last) = replaced(&sk.bones, |b| b.span.start, from32, to_old32);
    let edit = ItemEdit::new(Window { from, to_new, to_old }, (first, last), chunk.bones.len());
    let delta = edit.delta();
    sk.bones.splice(first..last, chunk.bones);
    for b in &mut sk.bones[first + edit.new_count..] {
        move_bone(b, delta);
    }
    let lists = (&mut tree.diagnostics, &mut tree.roles);
    splice_lists(lists, diag_range, (chunk.diagnostics, &chunk.roles), &edit, 0);
    Some(edit)
}

/// The entries of `list` (sorted by where they start, `start`) that start
/// in `from..to_old`, as a range `(first, last)`.
fn replaced<T>(list: &[T], start: impl Fn(&T) -> u32, from: u32, to_old: u32) -> (usize, usize) {
    (list.partition_point(|t| start(t) < from), list.partition_point(|t| start(t) < to_old))
}

/// The diagnostics of `diags` whose spans start in `from..to_old`, as a
/// range of it; `None` when one after them starts before `to_old` (not in
/// the order of their lines, so not spliced).
fn edited_diagnostics(
    diags: &[Diagnostic],
    from: u32,
    to_old: u32,
) -> Option<std::ops::Range<usize>> {
    let d0 = diags.iter().position(|d| d.span.start >= from).unwrap_or(diags.len());
    let d1 =
        diags[d0..].iter().position(|d| d.span.start >= to_old).map_or(diags.len(), |i| d0 + i);
    if diags[d1..].iter().any(|d| d.span.start < to_old) {
        return None;
    }
    Some(d0..d1)
}

/// Replaces a section's diagnostics `d0..d1` (those of the edited lines)
/// and its roles in `edit.from..edit.to_old` by the re-parsed lines' (their
/// spans moved by `at`) and moves the ones after by the edit's change in
/// length.
fn splice_lists(
    (diags, roles): (&mut Vec<Diagnostic>, &mut Vec<TokenRole>),
    d: std::ops::Range<usize>,
    (new_diags, new_roles): (Vec<Diagnostic>, &[TokenRole]),
    edit: &ItemEdit,
    at: u32,
) {
    let delta = edit.delta();
    let n = new_diags.len();
    let d0 = d.start;
    diags.splice(d, new_diags.into_iter().map(|d| d.shifted(at)));
    for d in &mut diags[d0 + n..] {
        d.span = d.span.shifted(delta);
    }
    let r0 = roles.partition_point(|r| r.span.start < edit.from);
    let r1 = roles.partition_point(|r| r.span.start < edit.to_old);
    let n = new_roles.len();
    roles.splice(
        r0..r1,
        new_roles.iter().map(|r| TokenRole { span: r.span.shifted(at), role: r.role }),
    );
    for r in &mut roles[r0 + n..] {
        r.span = r.span.shifted(delta);
    }
}

/// Moves every span of a bone line (its slot lines and their path
/// commands included) by `by` (wrapping).
fn move_bone(b: &mut BoneLine, by: u32) {
    b.path.span = b.path.span.shifted(by);
    b.span = b.span.shifted(by);
    for p in &mut b.props {
        p.span = p.span.shifted(by);
    }
    for sl in &mut b.slots {
        sl.span = sl.span.shifted(by);
        for name in [&mut sl.slot, &mut sl.attachment].into_iter().flatten() {
            name.span = name.span.shifted(by);
        }
        if let Some(ty) = &mut sl.spec.ty {
            ty.span = ty.span.shifted(by);
        }
        for p in &mut sl.spec.props {
            p.span = p.span.shifted(by);
        }
        for c in &mut sl.commands {
            move_command(c, by);
        }
    }
}

/// Moves every span of a path command line by `by` (wrapping).
fn move_command(c: &mut PathCommandLine, by: u32) {
    c.span = c.span.shifted(by);
    let point = |p: &mut PointLit| {
        p.span = p.span.shifted(by);
        if let Some(b) = &mut p.bone {
            b.span = b.span.shifted(by);
        }
    };
    match &mut c.command {
        PathCommand::Move(p) | PathCommand::Line(p) => point(p),
        PathCommand::Quad(a, b) => {
            point(a);
            point(b);
        }
        PathCommand::Cubic(a, b, c) => {
            point(a);
            point(b);
            point(c);
        }
        PathCommand::Close => {}
        PathCommand::Switch(b) => b.span = b.span.shifted(by),
    }
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
    for d in [&mut i.delay, &mut i.chain].into_iter().flatten() {
        d.span = d.span.shifted(by);
    }
    for e in &mut i.events {
        e.kind.span = e.kind.span.shifted(by);
        e.span = e.span.shifted(by);
        for c in &mut e.commands {
            c.span = c.span.shifted(by);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_section;

    /// The window of every edit of `base` (each deletion of up to two bytes
    /// and each insertion of a few strings at every position), spliced into
    /// the tree of `base` by `splice` when it is found; gives how many were,
    /// after checking each against a fresh parse of the edited text.
    fn check_every_edit(base: &str, inserts: &[&str], window: FindWindow, splice: Splice) -> usize {
        let old_tree = parse_section(base);
        let mut spliced = 0;
        for at in 0..=base.len() {
            for del in 0..3 {
                for ins in inserts {
                    if at + del > base.len() || (del == 0 && ins.is_empty()) {
                        continue;
                    }
                    let new = format!("{}{}{}", &base[..at], ins, &base[at + del..]);
                    let (o, n) = (base.as_bytes(), new.as_bytes());
                    let p = o.iter().zip(n).take_while(|(a, b)| a == b).count();
                    let s = o[p..]
                        .iter()
                        .rev()
                        .zip(n[p..].iter().rev())
                        .take_while(|(a, b)| a == b)
                        .count();
                    let Some(w) = window(o, n, p, n.len() - s) else { continue };
                    let mut tree = old_tree.clone();
                    let Some(edit) = splice(&mut tree, &new, w) else { continue };
                    spliced += 1;
                    assert_eq!(tree, parse_section(&new), "{at} {del} {ins:?}: {new:?}");
                    assert_eq!(edit.delta(), (n.len() as u32).wrapping_sub(o.len() as u32));
                }
            }
        }
        spliced
    }

    /// Every edit of a `skeleton` section whose window is found splices
    /// into the tree a fresh parse gives: bone lines with slots, shapes,
    /// path commands, comments, blank lines, CRLF, joined lines, a bad
    /// header token and invalid lines with lines nested under them.
    #[test]
    fn spliced_skeletons_equal_fresh_parses() {
        let base = "skeleton #F00 junk\n\t# lead\n\tarm l10 r5\n\t\t@a :rect w4 h2\n\n\tarm.hand x2 \\\n\t y3\r\n\t\t@p[q] #0F0 :path f#00F\n\t\t\tM 0,0:arm\n\t\t\tQ 1,1 2,2\n\t\t\t: hand\n\t\t\tC\n\t!bad\n\t\t@x\n\t\t\tL 1,1\n\tleg flip-x no-rot\n\t\t@s\n\t\tnope\n\tleg.foot i2 #FC0\n\t\t@ :circle d3\n";
        let inserts =
            ["", "1", "\n", "\t", "\n\t", "\n\tb\n", "\\", "#", " ", "\r", "@", "x", "\t@"];
        // The compiler splices a skeleton only while its text stays one
        // section (a line typed at column 0 starts another).
        let spliced = check_every_edit(base, &inserts, bone_window, |tree, new, w| {
            if crate::syntax::split_sections(new).len() != 1 {
                return None;
            }
            splice_bones_in_place(tree, new, w)
        });
        assert!(spliced > 1000, "{spliced}");
    }

    /// Every edit of a small `anim` section whose window is found splices
    /// into the tree a fresh parse gives.
    #[test]
    fn spliced_trees_equal_fresh_parses() {
        let base = "anim \"a\" 10fps\n\t\t# before\n\tb :2:si\n\t\tx 0 -> 10 -> { +5 -> }[2]\n\n\t\tr 5\n\t@s\n\t\t@ open -> shut\n\t\tc #F00 -> #0F0\r\n\tnope !\n\t\tx 1\n\t\t\ty 2\n\tb.c\n\t\tq 1\n\t\ty \\\n\t\t 4\n\tc\n\t\tx 1 -> 2\n\t!step 2:\n\t\ts \"l\" -> \"r\"\n\t\te ! 3:>\n\tb \\\r\n\t\tx 1\n\tc\n";
        let inserts = ["", "1", "\n", "\t", "\n\t", "\n\tb\n", "\\", "#", " ", "\r", "@", "x", "!"];
        let spliced = check_every_edit(base, &inserts, item_window, |tree, new, w| {
            let edit = splice_items_in_place(tree, new, w)?;
            let SectionKind::Anim(a) = &tree.kind else { panic!() };
            assert!(edit.first + edit.new_count <= a.items.len());
            Some(edit)
        });
        assert!(spliced > 500, "{spliced}");
    }
}
