//! The file's one binary buffer: accessors and buffer views appended to it
//! with the alignment glTF asks for, and the two containers (`.glb`: JSON
//! chunk and BIN chunk; `.gltf`: the buffer and pictures as data URIs).

use base64::Engine as _;
use serde_json::{Value, json};

/// `componentType` of 32-bit floats.
const FLOAT: u32 = 5126;
/// `componentType` of unsigned 32-bit integers.
const UNSIGNED_INT: u32 = 5125;
/// `componentType` of unsigned bytes.
const UNSIGNED_BYTE: u32 = 5121;
/// `target` of vertex attributes.
const ARRAY_BUFFER: u32 = 34962;
/// `target` of triangle indices.
const ELEMENT_ARRAY_BUFFER: u32 = 34963;

/// The buffer being filled, with its views and accessors as JSON.
#[derive(Default)]
pub struct Buffer {
    /// Every byte of the buffer.
    pub bytes: Vec<u8>,
    /// `bufferViews`.
    pub views: Vec<Value>,
    /// `accessors`.
    pub accessors: Vec<Value>,
}

/// The glTF type name of an accessor of `n` numbers per element.
fn type_name(n: usize) -> &'static str {
    match n {
        1 => "SCALAR",
        2 => "VEC2",
        3 => "VEC3",
        4 => "VEC4",
        _ => "MAT4",
    }
}

impl Buffer {
    fn align(&mut self, to: usize) {
        while !self.bytes.len().is_multiple_of(to) {
            self.bytes.push(0);
        }
    }

    /// A view of the bytes appended by `fill` (aligned to 4 bytes);
    /// returns its index.
    fn view(
        &mut self,
        target: Option<u32>,
        stride: Option<usize>,
        fill: impl FnOnce(&mut Vec<u8>),
    ) -> usize {
        self.align(4);
        let start = self.bytes.len();
        fill(&mut self.bytes);
        let mut v =
            json!({ "buffer": 0, "byteOffset": start, "byteLength": self.bytes.len() - start });
        if let Some(t) = target {
            v["target"] = json!(t);
        }
        if let Some(s) = stride {
            v["byteStride"] = json!(s);
        }
        self.views.push(v);
        self.views.len() - 1
    }

    fn accessor(&mut self, mut a: Value) -> usize {
        if a.get("bufferView").is_none() {
            a["bufferView"] = json!(self.views.len() - 1);
        }
        self.accessors.push(a);
        self.accessors.len() - 1
    }

    /// Floats, `n` per element (vertex attributes when `vertex`, else
    /// animation or skin data); `bounds` writes `min` and `max` (positions,
    /// animation inputs). Returns the accessor's index.
    pub fn floats(&mut self, data: &[f32], n: usize, vertex: bool, bounds: bool) -> usize {
        let target = vertex.then_some(ARRAY_BUFFER);
        // A vertex attribute's stride is a multiple of 4 and at least 4.
        let stride = (vertex && n > 1).then_some(4 * n);
        self.view(target, stride, |b| {
            for v in data {
                b.extend_from_slice(&v.to_le_bytes());
            }
        });
        let count = data.len() / n.max(1);
        let mut a = json!({ "componentType": FLOAT, "count": count, "type": type_name(n) });
        if bounds && count > 0 {
            let (mut lo, mut hi) = (vec![f32::INFINITY; n], vec![f32::NEG_INFINITY; n]);
            for e in data.chunks_exact(n) {
                for (d, &v) in e.iter().enumerate() {
                    lo[d] = lo[d].min(v);
                    hi[d] = hi[d].max(v);
                }
            }
            a["min"] = json!(lo);
            a["max"] = json!(hi);
        }
        self.accessor(a)
    }

    /// Triangle indices.
    pub fn indices(&mut self, data: &[u32]) -> usize {
        self.view(Some(ELEMENT_ARRAY_BUFFER), None, |b| {
            for v in data {
                b.extend_from_slice(&v.to_le_bytes());
            }
        });
        self.accessor(
            json!({ "componentType": UNSIGNED_INT, "count": data.len(), "type": "SCALAR" }),
        )
    }

    /// `JOINTS_0`: four joint numbers per vertex, as unsigned bytes (at
    /// most 256 joints) or unsigned shorts.
    pub fn joints(&mut self, data: &[[u16; 4]]) -> usize {
        let small = data.iter().flatten().all(|&j| j < 256);
        self.view(Some(ARRAY_BUFFER), Some(if small { 4 } else { 8 }), |b| {
            for j in data.iter().flatten() {
                if small {
                    b.push(*j as u8);
                } else {
                    b.extend_from_slice(&j.to_le_bytes());
                }
            }
        });
        let ct = if small { UNSIGNED_BYTE } else { 5123 };
        self.accessor(json!({ "componentType": ct, "count": data.len(), "type": "VEC4" }))
    }

    /// A picture's bytes as a buffer view (for an image in a `.glb`).
    pub fn blob(&mut self, data: &[u8]) -> usize {
        self.view(None, None, |b| b.extend_from_slice(data))
    }
}

/// The binary container: a 12-byte header, the JSON chunk (padded with
/// spaces) and the BIN chunk (padded with zeros).
pub fn glb(doc: &Value, bin: &[u8]) -> Result<Vec<u8>, String> {
    let mut json = serde_json::to_vec(doc).map_err(|e| e.to_string())?;
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
    let len = |n: usize| u32::try_from(n).map_err(|_| "the file would be over 4 GiB".to_string());
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&len(total)?.to_le_bytes());
    out.extend_from_slice(&len(json.len())?.to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    if !bin.is_empty() {
        out.extend_from_slice(&len(bin.len())?.to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
    }
    Ok(out)
}

/// `data:` URI of some bytes.
pub fn data_uri(mime: &str, bytes: &[u8]) -> String {
    format!("data:{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(bytes))
}
