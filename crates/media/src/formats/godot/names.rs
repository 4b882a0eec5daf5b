//! Node names Godot takes. Godot refuses `.` `:` `@` `/` `"` `%` in a
//! node's name (and renames nodes that share a name with a sibling), so
//! each of those characters becomes `_`, an empty name becomes `_`, and a
//! name already taken under the same parent gets `_2`, `_3`, … — the
//! bone's full name stays in its `skelpad_bone` metadata.

/// The characters Godot does not take in a node's name.
pub const REFUSED: [char; 6] = ['.', ':', '@', '/', '"', '%'];

/// `name` with every refused character (and control characters) as `_`.
pub fn escape(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| if REFUSED.contains(&c) || c.is_control() { '_' } else { c })
        .collect();
    if s.is_empty() { "_".into() } else { s }
}

/// The names taken under each parent (by the parent's path).
#[derive(Default)]
pub struct Taken(std::collections::HashSet<(String, String)>);

impl Taken {
    /// A name for a child of `parent` from `wanted`: escaped, and made
    /// unique among its siblings with `_2`, `_3`, ….
    pub fn claim(&mut self, parent: &str, wanted: &str) -> String {
        let base = escape(wanted);
        let mut name = base.clone();
        let mut n = 2;
        while !self.0.insert((parent.to_string(), name.clone())) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }
}

/// `parent/child` as a path from the root (`.` is the root itself).
pub fn join(parent: &str, child: &str) -> String {
    if parent == "." { child.to_string() } else { format!("{parent}/{child}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_characters_become_underscores_and_siblings_stay_apart() {
        assert_eq!(escape("a.b:c@d/e\"f%g"), "a_b_c_d_e_f_g");
        assert_eq!(escape(""), "_");
        let mut t = Taken::default();
        assert_eq!(t.claim(".", "arm"), "arm");
        assert_eq!(t.claim(".", "arm"), "arm_2");
        assert_eq!(t.claim(".", "a.m"), "a_m");
        assert_eq!(t.claim("leg", "arm"), "arm", "another parent");
        assert_eq!(join(".", "x"), "x");
        assert_eq!(join("x", "y"), "x/y");
    }
}
