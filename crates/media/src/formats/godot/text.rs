//! Godot's text scene format: values as each version spells them, and the
//! scene's sections (external resources, sub-resources, nodes) in the order
//! the format wants them.

use super::Version;

/// A value in a scene file.
#[derive(Clone, Debug, PartialEq)]
pub enum V {
    /// A real number.
    Num(f64),
    /// A whole number.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A string.
    Str(String),
    /// `Vector2`.
    Vec2([f64; 2]),
    /// `Color` (r, g, b, a in 0..1).
    Color([f64; 4]),
    /// `Transform2D`: x axis, y axis, origin.
    Xform([f64; 6]),
    /// An array.
    Arr(Vec<V>),
    /// A dictionary with string keys, in this order.
    Dict(Vec<(String, V)>),
    /// `NodePath`.
    Path(String),
    /// An external resource by its number.
    Ext(usize),
    /// A sub-resource by its number.
    Sub(usize),
    /// A packed array of 2D points.
    Points(Vec<[f64; 2]>),
    /// A packed array of whole numbers.
    Ints(Vec<i64>),
    /// A packed array of reals.
    Reals(Vec<f64>),
}

/// A real as Godot reads it back (its engine keeps 32-bit reals): at most
/// seven significant digits, integral values with `.0`, `-0` as `0`.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "0.0".into();
    }
    let r = f64::from(v as f32);
    let r = if r.abs() < 1e-12 { 0.0 } else { r };
    let s = format!("{}", r as f32);
    if s.contains('.') || s.contains('e') { s } else { format!("{s}.0") }
}

/// A string literal with `"` and `\` escaped.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

impl V {
    /// The value as `version` writes it.
    pub fn write(&self, version: Version, out: &mut String) {
        let t = version.table();
        let call = |out: &mut String, name: &str, parts: Vec<String>| {
            if parts.is_empty() {
                out.push_str(&format!("{name}()"));
            } else if t.spaced_calls {
                out.push_str(&format!("{name}( {} )", parts.join(", ")));
            } else {
                out.push_str(&format!("{name}({})", parts.join(", ")));
            }
        };
        match self {
            V::Num(v) => out.push_str(&num(*v)),
            V::Int(v) => out.push_str(&v.to_string()),
            V::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            V::Str(s) => out.push_str(&quote(s)),
            V::Vec2(p) => call(out, "Vector2", p.iter().map(|&v| num(v)).collect()),
            V::Color(c) => call(out, "Color", c.iter().map(|&v| num(v)).collect()),
            V::Xform(m) => call(out, "Transform2D", m.iter().map(|&v| num(v)).collect()),
            V::Path(p) => call(out, "NodePath", vec![quote(p)]),
            V::Ext(i) => call(out, "ExtResource", vec![t.resource_id(*i)]),
            V::Sub(i) => call(out, "SubResource", vec![t.resource_id(*i)]),
            V::Points(ps) => {
                call(out, t.points, ps.iter().flat_map(|p| [num(p[0]), num(p[1])]).collect())
            }
            V::Ints(v) => call(out, t.ints, v.iter().map(i64::to_string).collect()),
            V::Reals(v) => call(out, t.reals, v.iter().map(|&x| num(x)).collect()),
            V::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    out.push_str(if i == 0 { "" } else { ", " });
                    item.write(version, out);
                }
                out.push(']');
            }
            V::Dict(entries) => {
                out.push_str("{\n");
                for (i, (k, v)) in entries.iter().enumerate() {
                    out.push_str(&quote(k));
                    out.push_str(": ");
                    v.write(version, out);
                    out.push_str(if i + 1 < entries.len() { ",\n" } else { "\n" });
                }
                out.push('}');
            }
        }
    }
}

/// One node of the scene.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its name (already escaped and unique among its siblings).
    pub name: String,
    /// Its class, as Godot 4 names it (the table renames it for Godot 3).
    pub class: &'static str,
    /// Its parent's path from the root (`None`: the root; `.`: a child of it).
    pub parent: Option<String>,
    /// Its properties (named as the version spells them).
    pub props: Vec<(String, V)>,
    /// Its `skelpad_*` metadata.
    pub meta: Vec<(String, V)>,
}

/// A sub-resource (an animation, the animation library).
#[derive(Clone, Debug)]
pub struct Sub {
    /// Its class.
    pub class: &'static str,
    /// Its properties, written as given.
    pub props: Vec<(String, V)>,
}

/// A whole scene: external files, sub-resources, nodes (parents first).
#[derive(Clone, Debug, Default)]
pub struct Scene {
    /// External resources: class (Godot 4's name) and path relative to the scene.
    pub ext: Vec<(&'static str, String)>,
    /// Sub-resources, numbered from 1 in this order.
    pub subs: Vec<Sub>,
    /// Nodes, the root first.
    pub nodes: Vec<Node>,
}

impl Scene {
    /// The scene file's text for `version`.
    pub fn text(&self, version: Version) -> String {
        let t = version.table();
        let mut out = format!(
            "[gd_scene load_steps={} format={}]\n",
            self.ext.len() + self.subs.len() + 1,
            t.format
        );
        for (i, (class, path)) in self.ext.iter().enumerate() {
            out.push_str(&format!(
                "\n[ext_resource path={} type={} id={}]\n",
                quote(path),
                quote(t.class(class)),
                t.resource_id(i + 1)
            ));
        }
        for (i, sub) in self.subs.iter().enumerate() {
            out.push_str(&format!(
                "\n[sub_resource type={} id={}]\n",
                quote(sub.class),
                t.resource_id(i + 1)
            ));
            for (k, v) in &sub.props {
                out.push_str(k);
                out.push_str(" = ");
                v.write(version, &mut out);
                out.push('\n');
            }
        }
        for node in &self.nodes {
            out.push_str(&format!(
                "\n[node name={} type={}",
                quote(&node.name),
                quote(t.class(node.class))
            ));
            if let Some(p) = &node.parent {
                out.push_str(&format!(" parent={}", quote(p)));
            }
            out.push_str("]\n");
            for (k, v) in &node.props {
                out.push_str(k);
                out.push_str(" = ");
                v.write(version, &mut out);
                out.push('\n');
            }
            t.write_meta(&node.meta, version, &mut out);
        }
        out
    }
}
