//! Name references (LANGUAGE.md §2.4): any dotted suffix of a full name,
//! matched by whole segments, optionally prefixed by `skeleton.`.

use rustc_hash::FxHashMap as HashMap;

use crate::syntax::suggest;

/// What a reference resolves to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// Exactly one item: its index.
    Found(u32),
    /// Every item the reference matches (at least two).
    Ambiguous(Vec<u32>),
    /// No item has this name or suffix.
    Unknown,
}

#[derive(Clone, Debug)]
enum Entry {
    One(u32),
    Many(Vec<u32>),
}

/// An index from every reference form to the items it names, so lookups
/// cost one hash probe whatever the number of items.
#[derive(Clone, Debug, Default)]
pub struct NameIndex {
    map: HashMap<String, Entry>,
    names: Vec<String>,
}

impl NameIndex {
    /// The index of `names` (full dotted names; an item's id is its position).
    pub fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut idx = NameIndex::default();
        for (i, name) in names.into_iter().enumerate() {
            idx.insert(name, i as u32);
        }
        idx
    }

    fn add(&mut self, key: &str, id: u32) {
        match self.map.get_mut(key) {
            None => {
                self.map.insert(key.to_string(), Entry::One(id));
            }
            Some(Entry::One(prev)) => {
                let prev = *prev;
                if prev != id {
                    self.map.insert(key.to_string(), Entry::Many(vec![prev, id]));
                }
            }
            Some(Entry::Many(v)) => {
                if !v.contains(&id) {
                    v.push(id);
                }
            }
        }
    }

    /// Adds an item; ids must be given in increasing order.
    pub fn insert(&mut self, name: &str, id: u32) {
        let mut start = 0;
        self.add(name, id);
        while let Some(dot) = name[start..].find('.') {
            start += dot + 1;
            self.add(&name[start..], id);
        }
        self.add(&format!("skeleton.{name}"), id);
        if self.names.len() <= id as usize {
            self.names.resize(id as usize + 1, String::new());
        }
        self.names[id as usize] = name.to_string();
    }

    /// What `reference` (any dotted suffix of a full name, or `skeleton.` + a full
    /// name) names.
    pub fn resolve(&self, reference: &str) -> Resolved {
        match self.map.get(reference) {
            Some(Entry::One(id)) => Resolved::Found(*id),
            Some(Entry::Many(ids)) => Resolved::Ambiguous(ids.clone()),
            None => Resolved::Unknown,
        }
    }

    /// The full name of item `id` (empty for an id out of range).
    pub fn name(&self, id: u32) -> &str {
        self.names.get(id as usize).map_or("", |s| s.as_str())
    }

    /// Full names closest to an unknown reference (compared with the same
    /// number of trailing segments), best first.
    pub fn suggestions(&self, reference: &str) -> Vec<&str> {
        let reference = reference.strip_prefix("skeleton.").unwrap_or(reference);
        let segs = reference.split('.').count();
        let mut scored: Vec<(usize, &str)> = Vec::new();
        for name in &self.names {
            let parts: Vec<&str> = name.split('.').collect();
            let tail = parts[parts.len().saturating_sub(segs)..].join(".");
            let d = suggest::distance(reference, &tail);
            if d <= suggest::max_distance(reference) {
                scored.push((d, name));
            }
        }
        scored.sort();
        scored.dedup_by(|a, b| a.1 == b.1);
        scored.into_iter().take(3).map(|(_, n)| n).collect()
    }
}

/// Resolves a reference, or explains why it does not resolve: the
/// candidates of an ambiguous one, the closest names for an unknown one, and
/// `fallback` (what happens instead).
pub fn resolve_or_explain(
    idx: &NameIndex,
    what: &str,
    reference: &crate::syntax::tree::Spanned<String>,
    fallback: &str,
) -> Result<u32, crate::syntax::Diagnostic> {
    use crate::syntax::Diagnostic;
    let mut d = match idx.resolve(&reference.node) {
        Resolved::Found(id) => return Ok(id),
        Resolved::Ambiguous(ids) => {
            let names: Vec<String> = ids.iter().take(6).map(|&i| format!("`{}`", idx.name(i))).collect();
            let more = if ids.len() > 6 { format!(" and {} more", ids.len() - 6) } else { String::new() };
            Diagnostic::error(reference.span, format!("ambiguous {what} reference `{}`", reference.node))
                .hint(format!("it matches {}{more}", names.join(", ")))
                .hint("write more of the dotted name, or prefix the full name with `skeleton.`")
        }
        Resolved::Unknown => {
            let mut d = Diagnostic::error(reference.span, format!("unknown {what} `{}`", reference.node));
            let sugg = idx.suggestions(&reference.node);
            if !sugg.is_empty() {
                let list: Vec<String> = sugg.iter().map(|s| format!("`{s}`")).collect();
                d = d.hint(format!("did you mean {}?", list.join(" or ")));
            }
            d
        }
    };
    if !fallback.is_empty() {
        d = d.hint(fallback.to_string());
    }
    Err(d)
}

/// The candidate closest to `word` within a small edit distance (moved to
/// the syntax stage, which needs it too; re-exported here).
pub use crate::syntax::suggest::closest;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_match_whole_segments() {
        let idx = NameIndex::new(["bone", "arm.forearm", "arm.forearm.hand", "leg.bone"]);
        assert_eq!(idx.resolve("forearm"), Resolved::Found(1));
        assert_eq!(idx.resolve("arm.forearm.hand"), Resolved::Found(2));
        assert_eq!(idx.resolve("bone"), Resolved::Ambiguous(vec![0, 3]));
        assert_eq!(idx.resolve("skeleton.bone"), Resolved::Found(0));
        // Raw string suffixes do not count.
        assert_eq!(idx.resolve("one"), Resolved::Unknown);
        assert_eq!(idx.resolve("rm.forearm"), Resolved::Unknown);
        assert_eq!(idx.suggestions("forarm"), vec!["arm.forearm"]);
    }
}
