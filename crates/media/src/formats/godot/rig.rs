//! The node tree: a `Node2D` per bone nested as the bones nest, under each
//! bone a `Node2D` per slot (draw order as `z_index`, colour as
//! `modulate`), under each slot a `Node2D` per attachment of the skin
//! (shown or hidden with `visible`), and under that what it draws: a
//! sprite for a sprite, `Polygon2D`s for a shape's fill and stroke (the
//! renderer's own triangles) and for a mesh (its triangles and texture
//! coordinates).
//!
//! Coordinates: a point `(x, y)` of skelpad's world (y up) is `(x, −y)` in
//! the scene (y down), and a bone's own axes are turned y down too, so a
//! bone node's global transform is `V · W · C` with `V = C = diag(1, −1)`
//! and `W` skelpad's world matrix of the bone.

use super::names::{Taken, join};
use super::text::{Node, V};
use super::{Ctx, Files};
use crate::formats::lottie::frames::Samples;
use crate::formats::lottie::transform::BoneLayer;
use crate::render::{DrawList, DrawOptions, Part, RenderCache};
use skelpad_lang::model::{Affine, AttachmentId, AttachmentKind, SlotId};
use skelpad_lang::runtime::Pose;

/// `diag(1, −1)`: skelpad's y up to Godot's y down.
pub const C: Affine = Affine::scale(1.0, -1.0);

/// Where each part of the rig sits in the tree.
#[derive(Default)]
pub struct Rig {
    /// Path of each bone's node from the root.
    pub bones: Vec<String>,
    /// Path of each bone's `NAME#skew` helper node, for the bones whose
    /// matrix needs a skew somewhere (`skew`).
    pub helpers: Vec<Option<String>>,
    /// Path of each slot's node.
    pub slots: Vec<String>,
    /// Each attachment node: slot, attachment, path.
    pub attachments: Vec<(usize, AttachmentId, String)>,
    /// Polygons keyed at every frame (meshes, paths with points on other
    /// bones): slot, attachment, which part, the node's path.
    pub moving: Vec<Moving>,
    /// Whether the draw order changes in some animation (then every slot
    /// keys `z_index`).
    pub order_moves: bool,
}

/// A polygon whose points move on their own.
pub struct Moving {
    /// The slot.
    pub slot: usize,
    /// The attachment.
    pub att: AttachmentId,
    /// A mesh (its vertices), or the fill or stroke of a path.
    pub part: Part,
    /// The `Polygon2D` node's path.
    pub path: String,
}

/// Skelpad's world matrix of bone `b` at frame `f`, as the scene has it.
pub fn godot_world(s: &Samples, b: usize, f: usize) -> Affine {
    C * s.world[f * s.bones + b] * C
}

/// The matrix of bone `b` relative to its parent's node at frame `f`
/// (through the parent's pseudo-inverse when its matrix is singular: a
/// scale of 0 flattens the parent, and what it carries follows the line).
pub fn relative(ctx: &Ctx<'_>, s: &Samples, b: usize, f: usize) -> Affine {
    let own = godot_world(s, b, f);
    match ctx.arm.skeleton.bones[b].parent {
        Some(p) => {
            let parent = godot_world(s, p.index(), f);
            parent.inverse().unwrap_or_else(|| pseudo_inverse(parent)) * own
        }
        None => own,
    }
}

/// The Moore–Penrose pseudo-inverse of an affine map whose linear part
/// has rank 1 or 0 (`x ↦ A⁺(x − t)`).
fn pseudo_inverse(m: Affine) -> Affine {
    let [a, b, c, d, e, f] = m.to_array();
    let norm = a * a + b * b + c * c + d * d;
    if norm <= 1e-300 {
        return Affine::from_array([0.0; 6]);
    }
    // Rank 1: A⁺ = Aᵀ / |A|², its Frobenius norm being its one singular value.
    let inv = Affine::from_array([a / norm, c / norm, b / norm, d / norm, 0.0, 0.0]);
    inv * Affine::translate(-e, -f)
}

/// `Transform2D` of a matrix.
pub fn xform(m: Affine) -> V {
    V::Xform(m.to_array())
}

/// The bone nodes, with their setup values; a bone of `skewed` under its
/// `NAME#skew` helper (`skew`).
pub fn bones(
    ctx: &Ctx<'_>,
    setup: &Samples,
    (layers, skewed): (&[BoneLayer], &[bool]),
    taken: &mut Taken,
    rig: &mut Rig,
) -> Vec<Node> {
    let sk = &*ctx.arm.skeleton;
    let t = ctx.version.table();
    let mut nodes = Vec::with_capacity(sk.bones.len());
    let turn = |r: f64| (t.rotation.0.to_string(), V::Num(t.angle(r)));
    for (b, bone) in sk.bones.iter().enumerate() {
        let mut parent =
            bone.parent.map_or_else(|| ".".to_string(), |p| rig.bones[p.index()].clone());
        let mut props = Vec::new();
        let layer = &layers[b];
        let first = |k: &[super::keys::KeyOut]| k.first().map(|k| k.value.clone());
        if skewed[b] {
            let v = super::skew::svd(relative(ctx, setup, b, 0), None);
            let name = taken.claim(&parent, &format!("{}#skew", bone.short_name()));
            let helper = vec![
                ("position".into(), V::Vec2(v.p)),
                turn(v.phi),
                ("scale".into(), V::Vec2(v.s)),
            ];
            let node = Node {
                name: name.clone(),
                class: "Node2D",
                parent: Some(parent.clone()),
                props: helper,
                meta: Vec::new(),
            };
            nodes.push(node);
            parent = join(&parent, &name);
            rig.helpers.push(Some(parent.clone()));
            props.push(turn(v.theta));
        } else {
            rig.helpers.push(None);
            match (layer.parent == bone.parent.map(|p| p.index()), first(&layer.position)) {
                (true, Some(p)) => {
                    let r = first(&layer.rotation).map_or(0.0, |r| r[0].to_radians());
                    let s = first(&layer.scale).unwrap_or_else(|| vec![100.0, 100.0]);
                    props.push(("position".into(), V::Vec2([p[0], p[1]])));
                    props.push(turn(r));
                    props.push(("scale".into(), V::Vec2([s[0] / 100.0, s[1] / 100.0])));
                }
                _ => props.push(("transform".into(), xform(relative(ctx, setup, b, 0)))),
            }
        }
        let name = taken.claim(&parent, bone.short_name());
        rig.bones.push(join(&parent, &name));
        let meta = vec![("skelpad_bone".to_string(), V::Str(bone.name.clone()))];
        nodes.push(Node { name, class: "Node2D", parent: Some(parent), props, meta });
    }
    nodes
}

/// Builds the slot and attachment nodes.
pub struct Builder<'a, 'f, 'p> {
    /// The export.
    pub ctx: &'a Ctx<'a>,
    /// Pictures and the files written beside the scene.
    pub files: &'f mut Files<'p>,
    /// Names taken under each parent.
    pub taken: &'f mut Taken,
    /// Where everything sits.
    pub rig: &'f mut Rig,
    /// The nodes made.
    pub nodes: Vec<Node>,
    pose: Pose,
    cache: RenderCache,
}

/// An attachment's node: which one, where, and its matrix in the bone
/// node's frame.
struct Placed {
    slot: usize,
    att: AttachmentId,
    path: String,
    name: String,
    local: Affine,
    moving: bool,
}

impl<'a, 'f, 'p> Builder<'a, 'f, 'p> {
    /// A builder posing the skeleton in its setup pose.
    pub fn new(
        ctx: &'a Ctx<'a>,
        files: &'f mut Files<'p>,
        taken: &'f mut Taken,
        rig: &'f mut Rig,
    ) -> Self {
        let pose = skelpad_lang::runtime::evaluate(ctx.arm, None, ctx.skin, 0.0);
        let mut cache = RenderCache::new(".");
        files.pictures.prepare(&mut cache);
        Builder { ctx, files, taken, rig, nodes: Vec::new(), pose, cache }
    }

    /// The slot and attachment nodes, and what they draw.
    pub fn slots(&mut self, setup: &Samples) {
        let sk = &*self.ctx.arm.skeleton;
        for (s, slot) in sk.slots.iter().enumerate() {
            let parent = self.rig.bones[slot.bone.index()].clone();
            let short = slot.name.rsplit('.').next().unwrap_or(&slot.name);
            let name = self.taken.claim(&parent, short);
            let path = join(&parent, &name);
            let z = setup.rank[s].min(super::MAX_Z);
            let props = vec![
                ("z_index".into(), V::Int(i64::from(z))),
                ("modulate".into(), V::Color(setup.color[s].to_array())),
            ];
            let meta = vec![("skelpad_slot".to_string(), V::Str(slot.name.clone()))];
            self.nodes.push(Node { name, class: "Node2D", parent: Some(parent), props, meta });
            self.rig.slots.push(path.clone());
            for (i, a) in sk.attachments.iter().enumerate() {
                let id = AttachmentId::from_index(i);
                if a.slot.index() != s {
                    continue;
                }
                let Some(att) = sk.attachment(self.ctx.skin, id) else { continue };
                if matches!(att.kind, AttachmentKind::None) {
                    continue;
                }
                let an = self.taken.claim(&path, &a.name);
                let ap = join(&path, &an);
                let full = format!("{}.{}", slot.name, a.name);
                let meta = vec![("skelpad_attachment".to_string(), V::Str(full.clone()))];
                let props = vec![("visible".into(), V::Bool(setup.shown[s] == Some(id)))];
                let parent = Some(path.clone());
                self.nodes.push(Node { name: an, class: "Node2D", parent, props, meta });
                self.rig.attachments.push((s, id, ap.clone()));
                let moving = setup.meshes.iter().any(|(k, _)| *k == (s, id))
                    || setup.moving_paths.iter().any(|(k, _)| *k == (s, id));
                let local = C * att.transform.matrix();
                let placed = Placed { slot: s, att: id, path: ap, name: full, local, moving };
                self.drawing(&placed, &att.kind);
            }
        }
    }

    fn drawing(&mut self, at: &Placed, kind: &AttachmentKind) {
        match kind {
            AttachmentKind::None => {}
            AttachmentKind::Sprite { image, .. } => self.sprite(at, image.as_deref()),
            AttachmentKind::Mesh(mesh) => self.mesh(at, mesh),
            _ => {
                let list = self.list(at);
                for part in [Part::Fill, Part::Stroke] {
                    let Some(g) = Geometry::of(&list, part, at.local) else { continue };
                    let name = if part == Part::Fill { "fill" } else { "stroke" };
                    self.polygon(at, name, part, &g, None);
                }
            }
        }
    }

    fn list(&mut self, at: &Placed) -> DrawList {
        let options = DrawOptions { bones: false, ..DrawOptions::default() };
        let (slot, sk) = (SlotId::from_index(at.slot), &self.ctx.arm.skeleton);
        crate::render::build_attachment(sk, &self.pose, slot, at.att, &options, &mut self.cache)
    }

    fn sprite(&mut self, at: &Placed, image: Option<&str>) {
        let Some(image) = image else {
            self.files.warnings.push(format!("`{}` names no picture; left out", at.name));
            return;
        };
        let Some(tex) = self.files.texture(image, &at.name) else { return };
        let list = self.list(at);
        let Some(mut g) = Geometry::of(&list, Part::Sprite, at.local) else { return };
        for uv in &mut g.uv {
            *uv = [uv[0] * f64::from(tex.1), uv[1] * f64::from(tex.2)];
        }
        // The quad's map from texture pixels to the bone's frame.
        let m = g.texture_map().and_then(|m| crate::formats::lottie::transform::decompose(m, 0.0));
        let Some(trs) = m else {
            return self.polygon(at, "sprite", Part::Sprite, &g, Some(tex.0));
        };
        let t = self.ctx.version.table();
        let name = self.taken.claim(&at.path, "sprite");
        let props = vec![
            ("texture".into(), V::Ext(tex.0)),
            ("centered".into(), V::Bool(false)),
            ("position".into(), V::Vec2(trs.p)),
            (t.rotation.0.into(), V::Num(t.angle(trs.r.to_radians()))),
            ("scale".into(), V::Vec2(trs.s)),
        ];
        let parent = Some(at.path.clone());
        self.nodes.push(Node { name, class: "Sprite2D", parent, props, meta: Vec::new() });
    }

    fn mesh(&mut self, at: &Placed, mesh: &skelpad_lang::model::Mesh) {
        let Some(image) = &mesh.image else {
            self.files.warnings.push(format!("mesh `{}` names no picture; left out", at.name));
            return;
        };
        let Some(tex) = self.files.texture(image, &at.name) else { return };
        let n = mesh.vertices.len();
        let tris: Vec<[i64; 3]> = mesh
            .indices
            .chunks_exact(3)
            .filter(|t| t.iter().all(|&i| (i as usize) < n))
            .map(|t| [i64::from(t[0]), i64::from(t[1]), i64::from(t[2])])
            .collect();
        let g = Geometry {
            points: mesh
                .vertices
                .iter()
                .map(|v| {
                    let (x, y) = at.local.apply(v.x, v.y);
                    [x, y]
                })
                .collect(),
            uv: mesh
                .vertices
                .iter()
                .map(|v| [v.u * f64::from(tex.1), v.v * f64::from(tex.2)])
                .collect(),
            tris,
            color: [1.0; 4],
        };
        self.polygon(at, "mesh", Part::Sprite, &g, Some(tex.0));
    }

    fn polygon(&mut self, at: &Placed, name: &str, part: Part, g: &Geometry, tex: Option<usize>) {
        let name = self.taken.claim(&at.path, name);
        let path = join(&at.path, &name);
        let mut props = vec![
            ("color".into(), V::Color(g.color)),
            ("polygon".into(), V::Points(g.points.clone())),
            ("polygons".into(), polygons(&g.tris)),
        ];
        if let Some(tex) = tex {
            props.push(("texture".into(), V::Ext(tex)));
            props.push(("uv".into(), V::Points(g.uv.clone())));
        }
        if at.moving {
            self.rig.moving.push(Moving { slot: at.slot, att: at.att, part, path });
        }
        let parent = Some(at.path.clone());
        self.nodes.push(Node { name, class: "Polygon2D", parent, props, meta: Vec::new() });
    }
}

/// `polygons`: one packed array of three indices per triangle.
pub fn polygons(tris: &[[i64; 3]]) -> V {
    V::Arr(tris.iter().map(|t| V::Ints(t.to_vec())).collect())
}

/// Triangles of one part of a draw list, in a bone node's frame.
pub struct Geometry {
    /// The points.
    pub points: Vec<[f64; 2]>,
    /// Texture coordinates (0..1 from the draw list, pixels once scaled).
    pub uv: Vec<[f64; 2]>,
    /// Triangles, indices into `points`.
    pub tris: Vec<[i64; 3]>,
    /// The colour (straight sRGB).
    pub color: [f64; 4],
}

impl Geometry {
    /// The triangles of every item of `part` in `list`, mapped by `local`
    /// (`None` when there are none).
    pub fn of(list: &DrawList, part: Part, local: Affine) -> Option<Geometry> {
        let mut g =
            Geometry { points: Vec::new(), uv: Vec::new(), tris: Vec::new(), color: [1.0; 4] };
        for item in list.items.iter().filter(|i| i.part == part) {
            let base = g.points.len() as i64;
            let start = item.vertices.start;
            for v in &list.vertices[item.vertices.start as usize..item.vertices.end as usize] {
                let (x, y) = local.apply(f64::from(v.pos[0]), f64::from(v.pos[1]));
                g.points.push([x, y]);
                g.uv.push([f64::from(v.uv[0]), f64::from(v.uv[1])]);
            }
            let idx = &list.indices[item.indices.start as usize..item.indices.end as usize];
            for t in idx.chunks_exact(3) {
                g.tris.push([t[0], t[1], t[2]].map(|i| base + i64::from(i) - i64::from(start)));
            }
            g.color = item.color.map(f64::from);
        }
        (!g.tris.is_empty()).then_some(g)
    }

    /// The affine map from texture pixels (`uv`) to points, from the first
    /// triangle (`None` when it is degenerate).
    fn texture_map(&self) -> Option<Affine> {
        let [i, j, k] = self.tris.first()?.map(|i| i as usize);
        let (p, t) = (&self.points, &self.uv);
        let tm = Affine::from_array([
            t[j][0] - t[i][0],
            t[j][1] - t[i][1],
            t[k][0] - t[i][0],
            t[k][1] - t[i][1],
            0.0,
            0.0,
        ]);
        let pm = Affine::from_array([
            p[j][0] - p[i][0],
            p[j][1] - p[i][1],
            p[k][0] - p[i][0],
            p[k][1] - p[i][1],
            0.0,
            0.0,
        ]);
        let lin = pm * tm.inverse()?;
        let (ox, oy) = lin.apply(t[i][0], t[i][1]);
        let [a, b, c, d, _, _] = lin.to_array();
        Some(Affine::from_array([a, b, c, d, p[i][0] - ox, p[i][1] - oy]))
    }
}
