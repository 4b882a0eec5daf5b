//! The glTF document: nodes (a root, the bones, the attachments' joint
//! nodes, the meshes), materials, pictures and the buffer's accessors.

use serde_json::{Value, json};

use super::attach::{AttachmentMesh, Follow};
use super::bones::BoneNode;
use super::buffer::Buffer;
use super::{Clip, Picture};

/// Node indices of everything animated.
#[derive(Default)]
pub struct Layout {
    /// The root node.
    pub root: usize,
    /// Per bone: (skew helper node, bone node).
    pub bones: Vec<(Option<usize>, usize)>,
    /// Per attachment mesh: its joint nodes (one for rigid meshes, one per
    /// shown frame for meshes drawn at every frame, none for weighted).
    pub joints: Vec<Vec<usize>>,
    /// Per attachment mesh: its material per primitive.
    pub materials: Vec<Vec<usize>>,
    /// Per attachment mesh: the rigid joint node's own `z` and scale.
    pub rest: Vec<(f64, f64)>,
}

/// What the document is made of while it is built.
#[derive(Default)]
pub struct Doc {
    /// `nodes`.
    pub nodes: Vec<Value>,
    /// `meshes`.
    pub meshes: Vec<Value>,
    /// `skins`.
    pub skins: Vec<Value>,
    /// `materials`.
    pub materials: Vec<Value>,
    /// `images`.
    pub images: Vec<Value>,
    /// `textures`.
    pub textures: Vec<Value>,
    /// `animations`.
    pub animations: Vec<Value>,
    /// The binary buffer.
    pub buffer: Buffer,
}

fn trs_json(t: [f64; 3], r: f64, s: [f64; 3]) -> Value {
    let mut o = serde_json::Map::new();
    if t != [0.0; 3] {
        o.insert("translation".into(), json!(t.map(|v| v as f32)));
    }
    if r != 0.0 {
        let q = super::keys::quaternion(&[r]);
        o.insert("rotation".into(), json!(q.iter().map(|&v| v as f32).collect::<Vec<_>>()));
    }
    if s != [1.0; 3] {
        o.insert("scale".into(), json!(s.map(|v| v as f32)));
    }
    Value::Object(o)
}

fn add_child(nodes: &mut [Value], parent: usize, child: usize) {
    let children = nodes[parent].as_object_mut().map(|o| {
        o.entry("children")
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .map(|a| a.push(json!(child)))
    });
    debug_assert!(children.is_some());
}

impl Doc {
    fn node(&mut self, name: &str, trs: Value, parent: Option<usize>) -> usize {
        let mut n = trs;
        n["name"] = json!(name);
        self.nodes.push(n);
        let i = self.nodes.len() - 1;
        if let Some(p) = parent {
            add_child(&mut self.nodes, p, i);
        }
        i
    }

    /// The root, the bones' nodes (and skew helpers) nested as the bones
    /// nest, and the attachments' joint nodes under their bones.
    pub fn skeleton(
        &mut self,
        bones: &[BoneNode],
        meshes: &[AttachmentMesh],
        clips: &[Clip],
    ) -> Layout {
        let mut lay = Layout { root: self.node("skelpad", json!({}), None), ..Layout::default() };
        self.nodes[lay.root]["extras"] = json!({ "skelpad": "the rig's root; skelpad's plane is glTF's xy plane, y up, one unit per unit" });
        for b in bones {
            let parent = b.parent.and_then(|p| lay.bones.get(p)).map_or(lay.root, |x| x.1);
            let r = b.rest;
            let (helper, node) = if b.skew {
                let h = self.node(
                    &format!("{}#skew", b.name),
                    trs_json([r.t[0], r.t[1], 0.0], r.r, [r.s[0], r.s[1], 1.0]),
                    Some(parent),
                );
                (Some(h), self.node(&b.name, trs_json([0.0; 3], r.turn, [1.0; 3]), Some(h)))
            } else {
                (
                    None,
                    self.node(
                        &b.name,
                        trs_json([r.t[0], r.t[1], 0.0], r.r, [r.s[0], r.s[1], 1.0]),
                        Some(parent),
                    ),
                )
            };
            self.nodes[node]["extras"] = json!({ "skelpad_bone": b.name });
            lay.bones.push((helper, node));
        }
        let setup = &clips[0].samples;
        for m in meshes {
            let bone = lay.bones[m.bone].1;
            let joints = match &m.follow {
                Follow::Rigid => {
                    let shown = setup.shown[m.slot] == Some(m.att);
                    let z = super::z_of(setup.rank[m.slot]);
                    let s = if shown { 1.0 } else { 0.0 };
                    lay.rest.push((z, s));
                    vec![self.node(&m.name, trs_json([0.0, 0.0, z], 0.0, [s; 3]), Some(bone))]
                }
                Follow::Weighted(_) => {
                    lay.rest.push((0.0, 1.0));
                    Vec::new()
                }
                Follow::PerFrame(frames) => {
                    lay.rest.push((0.0, 1.0));
                    frames
                        .iter()
                        .map(|&(c, f)| {
                            let s = &clips[c].samples;
                            let z = super::z_of(s.rank[f * s.slots + m.slot]);
                            let k = if c == 0 { 1.0 } else { 0.0 };
                            let name = format!("{}@{}#{f}", m.name, clips[c].name);
                            self.node(&name, trs_json([0.0, 0.0, z], 0.0, [k; 3]), Some(bone))
                        })
                        .collect()
                }
            };
            lay.joints.push(joints);
        }
        lay
    }

    /// One mesh node per attachment with its skin, primitives and
    /// materials (base colour: the attachment's colour times the setup
    /// slot colour, in linear light as glTF wants it).
    pub fn attachment_meshes(
        &mut self,
        meshes: &[AttachmentMesh],
        lay: &mut Layout,
        clips: &[Clip],
        pictures: &[(String, Picture)],
        arm: &skelpad_lang::model::Armature,
    ) -> Vec<usize> {
        let mut roots = Vec::new();
        let mut textures: Vec<(String, usize)> = Vec::new();
        for (mi, m) in meshes.iter().enumerate() {
            let joints: Vec<usize> = match &m.follow {
                Follow::Weighted(bones) => bones.iter().map(|&b| lay.bones[b].1).collect(),
                _ => lay.joints[mi].clone(),
            };
            let slot_color = clips[0].samples.color[m.slot];
            let mut prims = Vec::new();
            let mut mats = Vec::new();
            for p in m.prims.iter().filter(|p| !p.indices.is_empty()) {
                let tex = match &p.picture {
                    Some(name) => match self.texture(name, pictures, &mut textures) {
                        Some(t) => Some(t),
                        None => continue,
                    },
                    None => None,
                };
                let mat = self.material(&m.name, super::base_color(p.color, slot_color), tex);
                mats.push(mat);
                let pos: Vec<f32> = p.positions.iter().flatten().copied().collect();
                let mut attributes = json!({
                    "POSITION": self.buffer.floats(&pos, 3, true, true),
                    "JOINTS_0": self.buffer.joints(&p.joints),
                });
                let w: Vec<f32> = p.weights.iter().flatten().copied().collect();
                attributes["WEIGHTS_0"] = json!(self.buffer.floats(&w, 4, true, false));
                if tex.is_some() {
                    let uv: Vec<f32> = p.uvs.iter().flatten().copied().collect();
                    attributes["TEXCOORD_0"] = json!(self.buffer.floats(&uv, 2, true, false));
                }
                let indices = self.buffer.indices(&p.indices);
                prims.push(json!({ "attributes": attributes, "indices": indices, "material": mat, "mode": 4 }));
            }
            lay.materials.push(mats);
            if prims.is_empty() {
                continue;
            }
            self.meshes.push(json!({ "name": m.name, "primitives": prims }));
            self.skins.push(json!({ "name": m.name, "joints": joints }));
            let n = self.node(&m.name, json!({}), None);
            self.nodes[n]["mesh"] = json!(self.meshes.len() - 1);
            self.nodes[n]["skin"] = json!(self.skins.len() - 1);
            let sk = &*arm.skeleton;
            self.nodes[n]["extras"] = json!({
                "skelpad_slot": sk.slots[m.slot].name,
                "skelpad_attachment": sk.attachment_full_name(m.att),
                "skelpad_slot_index": m.slot,
                "skelpad_attachment_index": m.att.index(),
            });
            roots.push(n);
        }
        roots
    }

    fn material(&mut self, name: &str, color: [f64; 4], texture: Option<usize>) -> usize {
        let mut pbr = json!({
            "baseColorFactor": color.map(|v| v as f32),
            "metallicFactor": 0.0,
            "roughnessFactor": 1.0,
        });
        if let Some(t) = texture {
            pbr["baseColorTexture"] = json!({ "index": t });
        }
        self.materials.push(json!({
            "name": name,
            "pbrMetallicRoughness": pbr,
            "alphaMode": "BLEND",
            "doubleSided": true,
            "extensions": { "KHR_materials_unlit": {} },
        }));
        self.materials.len() - 1
    }

    /// The texture of a picture (its bytes in the buffer), made once.
    fn texture(
        &mut self,
        name: &str,
        pictures: &[(String, Picture)],
        made: &mut Vec<(String, usize)>,
    ) -> Option<usize> {
        if let Some((_, t)) = made.iter().find(|(n, _)| n == name) {
            return Some(*t);
        }
        let (_, pic) = pictures.iter().find(|(n, _)| n == name)?;
        let view = self.buffer.blob(&pic.bytes);
        self.images.push(json!({ "name": name, "bufferView": view, "mimeType": pic.mime }));
        self.textures.push(json!({ "source": self.images.len() - 1, "sampler": 0 }));
        made.push((name.to_string(), self.textures.len() - 1));
        Some(self.textures.len() - 1)
    }
}
