//! SCML (XML) and SCON (JSON) read into one tree of elements, so the rest
//! of the reader sees a single shape: an element has a name, attributes
//! (text, as SCML writes them) and child elements, and knows where it came
//! from for messages.
//!
//! SCON → tree: scalar members become attributes (numbers and booleans as
//! text); an array of objects becomes one child per object, named after the
//! member; an object becomes one child (`"mainline": {"key": [...]}`,
//! a timeline key's `"object": {...}`).

use std::fmt;

/// Where an element came from: a line and column (SCML) or a JSON path (SCON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loc {
    /// Line and column in an SCML file, both from 1.
    Line(u32, u32),
    /// A JSON path into an SCON file, such as `entity[0].animation[2]`.
    Path(String),
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loc::Line(l, c) => write!(f, "line {l}:{c}"),
            Loc::Path(p) => write!(f, "{p}"),
        }
    }
}

/// One element of either syntax: an XML element, or a JSON object.
#[derive(Clone, Debug)]
pub struct Elem {
    /// The XML tag, or the JSON member that held the object.
    pub name: String,
    /// Attributes in file order, values as text.
    pub attrs: Vec<(String, String)>,
    /// Child elements in file order.
    pub children: Vec<Elem>,
    /// Where the element starts, for messages.
    pub loc: Loc,
}

impl Elem {
    /// The first attribute called `name`, as text.
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The child elements called `name`, in file order.
    pub fn children<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Elem> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    /// The first child element called `name`.
    pub fn child(&self, name: &str) -> Option<&Elem> {
        self.children.iter().find(|c| c.name == name)
    }

    /// The items of a list that SCML writes as `<NAME><i/>…</NAME>` and SCON
    /// as an array `"NAME": [{…}]`.
    pub fn items<'a>(&'a self, name: &'a str) -> Vec<&'a Elem> {
        let mut out = Vec::new();
        for c in self.children(name) {
            let inner: Vec<&Elem> = c.children("i").collect();
            if inner.is_empty() && c.children.is_empty() && !c.attrs.is_empty() {
                out.push(c);
            } else {
                out.extend(inner);
            }
        }
        out
    }
}

/// Nesting deeper than this is refused (real files nest about 6 deep).
pub const MAX_DEPTH: usize = 64;

/// Reads SCML text.
pub fn from_xml(text: &str) -> Result<Elem, String> {
    let opts = roxmltree::ParsingOptions {
        allow_dtd: false,
        nodes_limit: 5_000_000,
        ..Default::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, opts)
        .map_err(|e| format!("not valid XML: {e}"))?;
    fn conv(
        doc: &roxmltree::Document,
        node: roxmltree::Node,
        depth: usize,
    ) -> Result<Elem, String> {
        let pos = doc.text_pos_at(node.range().start);
        if depth > MAX_DEPTH {
            return Err(format!("line {}: elements nested more than {MAX_DEPTH} deep", pos.row));
        }
        let attrs =
            node.attributes().map(|a| (a.name().to_string(), a.value().to_string())).collect();
        let mut children = Vec::new();
        for c in node.children().filter(|c| c.is_element()) {
            children.push(conv(doc, c, depth + 1)?);
        }
        Ok(Elem {
            name: node.tag_name().name().to_string(),
            attrs,
            children,
            loc: Loc::Line(pos.row, pos.col),
        })
    }
    conv(&doc, doc.root_element(), 0)
}

/// Reads SCON text. The root object becomes an element named `spriter_data`.
pub fn from_json(text: &str) -> Result<Elem, String> {
    // serde_json refuses nesting deeper than 128 by itself.
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let serde_json::Value::Object(map) = &v else {
        return Err("not a Spriter SCON file: the top level is not a JSON object".into());
    };
    Ok(conv_obj("spriter_data", map, String::new()))
}

fn conv_obj(name: &str, map: &serde_json::Map<String, serde_json::Value>, path: String) -> Elem {
    use serde_json::Value;
    let mut e = Elem {
        name: name.to_string(),
        attrs: Vec::new(),
        children: Vec::new(),
        loc: Loc::Path(path.clone()),
    };
    let sub = |k: &str| if path.is_empty() { k.to_string() } else { format!("{path}.{k}") };
    for (k, v) in map {
        match v {
            Value::String(s) => e.attrs.push((k.clone(), s.clone())),
            Value::Number(n) => e.attrs.push((k.clone(), n.to_string())),
            Value::Bool(b) => e.attrs.push((k.clone(), b.to_string())),
            Value::Null => {}
            Value::Object(m) => e.children.push(conv_obj(k, m, sub(k))),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::Object(m) => {
                            e.children.push(conv_obj(k, m, format!("{}[{i}]", sub(k))))
                        }
                        // A list of plain values (e.g. an atlas name list): one child
                        // with the value as its `name` attribute.
                        Value::String(s) => e.children.push(Elem {
                            name: k.clone(),
                            attrs: vec![("name".into(), s.clone())],
                            children: Vec::new(),
                            loc: Loc::Path(format!("{}[{i}]", sub(k))),
                        }),
                        _ => {}
                    }
                }
            }
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_and_json_give_the_same_shape() {
        let x = from_xml(r#"<spriter_data><entity id="0" name="e"><animation length="10"><mainline><key id="0"/></mainline></animation></entity></spriter_data>"#).unwrap();
        let j = from_json(r#"{"entity":[{"id":0,"name":"e","animation":[{"length":10,"mainline":{"key":[{"id":0}]}}]}]}"#).unwrap();
        for t in [&x, &j] {
            let e = t.child("entity").unwrap();
            assert_eq!(e.attr("name"), Some("e"));
            let a = e.child("animation").unwrap();
            assert_eq!(a.attr("length"), Some("10"));
            assert_eq!(a.child("mainline").unwrap().children("key").count(), 1);
        }
        assert_eq!(x.child("entity").unwrap().loc, Loc::Line(1, 15));
        assert_eq!(
            j.child("entity").unwrap().child("animation").unwrap().loc,
            Loc::Path("entity[0].animation[0]".into())
        );
    }

    #[test]
    fn bad_documents_are_errors() {
        assert!(from_xml("<a><b></a>").unwrap_err().contains("not valid XML"));
        assert!(from_json("[1,2]").unwrap_err().contains("not a JSON object"));
        let deep = "<a>".repeat(100) + &"</a>".repeat(100);
        assert!(from_xml(&deep).is_err());
    }
}
