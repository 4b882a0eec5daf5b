//! The layers of the pictures (shape and image layers under their slot's
//! bone layer), and the document around everything.

use serde_json::{Value, json};

use super::frames::{Framing, Plan, Samples};
use super::keys::{self, KeyOut, Series};
use super::transform::BoneLayer;
use super::{LottieError, PictureSource, shapes};
use skelpad_lang::model::{
    Affine, Armature, AttachmentId, AttachmentKind, Color, ShapeStyle, SkinId,
};

/// Builds the attachment layers and the document.
pub struct Builder<'a> {
    arm: &'a Armature,
    pub(super) plan: &'a Plan,
    pub(super) s: &'a Samples,
    pub(super) framing: &'a Framing,
    skin: SkinId,
    pub(super) bones: &'a [BoneLayer],
    pub(super) assets: Vec<Value>,
    /// Assets by (picture, tint).
    pub(super) asset_ids: std::collections::HashMap<(String, [u8; 3]), String>,
    /// Pictures read so far, by name.
    pub(super) pictures: std::collections::HashMap<String, Result<super::Picture, String>>,
}

/// Frames where a slot shows an attachment, as opacity values (0 or 1).
fn visibility(s: &Samples, plan: &Plan, slot: usize, att: AttachmentId) -> Vec<f64> {
    (0..plan.total).map(|f| f64::from(u8::from(s.shown[f * s.slots + slot] == Some(att)))).collect()
}

impl<'a> Builder<'a> {
    /// A builder over the sampled frames.
    pub fn new(
        arm: &'a Armature,
        plan: &'a Plan,
        s: &'a Samples,
        framing: &'a Framing,
        skin: SkinId,
        bones: &'a [BoneLayer],
    ) -> Self {
        Builder {
            arm,
            plan,
            s,
            framing,
            skin,
            bones,
            assets: Vec::new(),
            asset_ids: Default::default(),
            pictures: Default::default(),
        }
    }

    /// Whether an image layer was made.
    pub fn has_images(&self) -> bool {
        !self.assets.is_empty()
    }

    /// Keys over the whole timeline for values at every frame.
    pub(super) fn fit(&self, data: &[f64], dims: usize, hold: bool) -> Vec<KeyOut> {
        let series = Series { dims, data, approx: 0.0 };
        let all = |ai: usize| (0..self.plan.anims[ai].frames).collect();
        keys::fit(self.plan, &series, &all, &|_, _| Vec::new(), hold)
    }

    /// Every attachment layer, top first.
    pub fn attachment_layers(
        &mut self,
        pictures: &mut dyn PictureSource,
        warnings: &mut Vec<String>,
    ) -> Result<Vec<Value>, LottieError> {
        let sk = &*self.arm.skeleton;
        let mut out = Vec::new();
        for &slot in sk.draw_order.iter().rev() {
            let si = slot.index();
            let Some(sl) = sk.slots.get(si) else { continue };
            let mut atts: Vec<AttachmentId> =
                (0..self.plan.total).filter_map(|f| self.s.shown[f * self.s.slots + si]).collect();
            atts.sort_unstable();
            atts.dedup();
            for att in atts {
                let Some(a) = sk.attachment(self.skin, att) else { continue };
                let name = sk.attachment_full_name(att);
                let vis = visibility(self.s, self.plan, si, att);
                let layers = match &a.kind {
                    AttachmentKind::None => Vec::new(),
                    AttachmentKind::Sprite { image: None, .. } => {
                        warnings.push(format!(
                            "slot `{}`: sprite `{name}` names no picture; left out",
                            sl.name
                        ));
                        Vec::new()
                    }
                    AttachmentKind::Sprite { image: Some(image), pivot } => {
                        self.image_layers(si, &name, image, *pivot, &vis, pictures, warnings)
                    }
                    AttachmentKind::Mesh(mesh) => {
                        let at = out.len();
                        out.extend(
                            self.mesh_layers(si, att, &name, mesh, &vis, at, pictures, warnings),
                        );
                        Vec::new()
                    }
                    kind => match self.shape_layer(si, att, &name, kind, &vis) {
                        Some((l, world_stroke)) => {
                            out.extend(world_stroke);
                            vec![l]
                        }
                        None => Vec::new(),
                    },
                };
                for mut l in layers {
                    let (anchor, o) = (l["ks"]["a"].clone(), l["ks"]["o"].clone());
                    l["ks"] = attachment_transform(&a.transform, anchor, &o);
                    l["parent"] = json!(sl.bone.index() + 1);
                    out.push(l);
                }
            }
        }
        Ok(out)
    }

    /// A sprite's image layers: one per colour the slot shows it in
    /// (`tint`), each anchored on the sprite's pivot.
    #[allow(
        clippy::too_many_arguments,
        reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
    )]
    fn image_layers(
        &mut self,
        slot: usize,
        name: &str,
        image: &str,
        pivot: [f64; 2],
        vis: &[f64],
        pictures: &mut dyn PictureSource,
        warnings: &mut Vec<String>,
    ) -> Vec<Value> {
        let pic = match self.picture(image, pictures) {
            Ok(p) => p,
            Err(why) => {
                warnings.push(format!("sprite `{name}`: {why}; left out"));
                return Vec::new();
            }
        };
        let (w, h) = (f64::from(pic.width), f64::from(pic.height));
        let anchor = json!({ "a": 0, "k": [pivot[0] * w, (1.0 - pivot[1]) * h] });
        let copies = self.tinted_copies(slot, name, image, vis, pictures, warnings);
        copies
            .into_iter()
            .map(|(id, opacity)| {
                let mut l = layer_head(name, 2, self.plan.total);
                l["refId"] = json!(id);
                l["ks"] = json!({ "a": anchor, "o": opacity });
                l
            })
            .collect()
    }

    fn shape_layer(
        &self,
        slot: usize,
        att: AttachmentId,
        name: &str,
        kind: &AttachmentKind,
        vis: &[f64],
    ) -> Option<(Value, Option<Value>)> {
        let sk = &*self.arm.skeleton;
        let style = *kind.style()?;
        let bone = sk.slots[slot].bone;
        let moving = self.s.moving_paths.iter().find(|((s, a), _)| *s == slot && *a == att);
        let fixed = match moving {
            Some(_) => None,
            None => {
                let pose = skelpad_lang::runtime::Pose::setup(sk);
                Some(crate::render::attachment_outline(kind, bone, &pose)?)
            }
        };
        let outline_at = |f: usize| match (moving, &fixed) {
            (Some((_, outlines)), _) => outlines.get(f),
            (None, o) => o.as_ref(),
        };
        let closed = outline_at(0).is_some_and(|o| o.closed);
        let path = match (moving, &fixed) {
            (Some((_, outlines)), _) => self.moving_path(outlines),
            (None, Some(o)) => json!({ "a": 0, "k": shapes::bezier(o) }),
            (None, None) => return None,
        };
        let mut items = vec![json!({ "ty": "sh", "nm": "outline", "ks": path })];
        let att_m =
            sk.attachment(self.skin, att).map_or(Affine::IDENTITY, |a| a.transform.matrix());
        let uneven = self.uneven(bone.index(), att_m);
        let mut world_stroke = None;
        if style.stroke_width > 0.0 && uneven {
            world_stroke =
                Some(self.world_stroke(slot, bone.index(), att_m, &style, name, vis, &outline_at));
        } else if style.stroke_width > 0.0 {
            items.push(self.stroke(slot, bone.index(), att_m, &style));
        }
        if closed {
            let (c, o) = self.paint(slot, style.fill);
            items.push(json!({ "ty": "fl", "nm": "fill", "c": c, "o": o, "r": 1 }));
        }
        items.push(shapes::group_transform());
        let mut l = layer_head(name, 4, self.plan.total);
        let o = self.fit(vis.iter().map(|v| v * 100.0).collect::<Vec<_>>().as_slice(), 1, true);
        l["ks"] = json!({ "o": keys::property(&o, true) });
        l["shapes"] = json!([{ "ty": "gr", "nm": name, "it": items }]);
        Some((l, world_stroke))
    }

    /// Whether the attachment's world transform is not a similarity at some
    /// frame (a stroke in its layer's space would then be uneven).
    fn uneven(&self, bone: usize, att_m: Affine) -> bool {
        let s = self.s;
        (0..self.plan.total).any(|f| {
            let [a, b, c, d, _, _] = (s.world[f * s.bones + bone] * att_m).to_array();
            let (n0, n1) = ((a * a + b * b).sqrt(), (c * c + d * d).sqrt());
            (n0 - n1).abs() > 1e-6 * n0.max(n1) || (a * c + b * d).abs() > 1e-6 * (n0 * n1)
        })
    }

    /// The stroke of a shape its bones scale unevenly: a root layer whose
    /// outline is keyed in composition space at every frame where it moves,
    /// so the stroke keeps its width in world units as skelpad draws it.
    #[allow(
        clippy::too_many_arguments,
        reason = "the values it needs are separate inputs of one computation; a struct for a single call would only rename them"
    )]
    fn world_stroke<'o>(
        &self,
        slot: usize,
        bone: usize,
        att_m: Affine,
        style: &ShapeStyle,
        name: &str,
        vis: &[f64],
        outline_at: &dyn Fn(usize) -> Option<&'o crate::render::AttachmentOutline>,
    ) -> Value {
        let s = self.s;
        let view = self.framing.matrix();
        let mut k: Vec<Value> = Vec::new();
        for f in 0..self.plan.total {
            let Some(o) = outline_at(f) else { continue };
            let m = view * s.world[f * s.bones + bone] * att_m;
            let b = shapes::bezier_mapped(o, &|p| {
                let (x, y) = m.apply(p[0], p[1]);
                [x, y]
            });
            if k.last().is_some_and(|last| last["s"][0] == b) {
                continue;
            }
            k.push(json!({ "t": f, "s": [b] }));
        }
        let path = if k.len() <= 1 {
            json!({ "a": 0, "k": k.first().map_or(Value::Null, |x| x["s"][0].clone()) })
        } else {
            let n = k.len();
            for key in k.iter_mut().take(n - 1) {
                key["o"] = json!({ "x": 0, "y": 0 });
                key["i"] = json!({ "x": 1, "y": 1 });
            }
            json!({ "a": 1, "k": k })
        };
        let (c, o) = self.paint(slot, style.stroke);
        let width = style.stroke_width * self.framing.view.pixels_per_unit;
        let items = vec![
            json!({ "ty": "sh", "nm": "outline", "ks": path }),
            json!({
                "ty": "st", "nm": "stroke", "c": c, "o": o, "w": { "a": 0, "k": width },
                "lc": shapes::cap(style.cap), "lj": shapes::join(style.join),
                "ml": style.miter_limit.max(1.0),
            }),
            shapes::group_transform(),
        ];
        let stroke_name = format!("{name} (stroke)");
        let mut l = layer_head(&stroke_name, 4, self.plan.total);
        let op = self.fit(vis.iter().map(|v| v * 100.0).collect::<Vec<_>>().as_slice(), 1, true);
        l["ks"] = json!({
            "a": { "a": 0, "k": [0, 0] }, "p": { "a": 0, "k": [0, 0] },
            "r": { "a": 0, "k": 0 }, "s": { "a": 0, "k": [100, 100] },
            "o": keys::property(&op, true),
        });
        l["shapes"] = json!([{ "ty": "gr", "nm": stroke_name, "it": items }]);
        l
    }

    /// A path keyed at every frame where its outline changes (linear in
    /// between; the last key has no handles, or rlottie draws nothing).
    fn moving_path(&self, outlines: &[crate::render::AttachmentOutline]) -> Value {
        let mut k: Vec<Value> = Vec::new();
        let mut last: Option<&crate::render::AttachmentOutline> = None;
        for (f, o) in outlines.iter().enumerate() {
            if last == Some(o) {
                continue;
            }
            last = Some(o);
            k.push(json!({ "t": f, "s": [shapes::bezier(o)] }));
        }
        if k.len() == 1 {
            return json!({ "a": 0, "k": k[0]["s"][0].clone() });
        }
        let n = k.len();
        for key in k.iter_mut().take(n - 1) {
            key["o"] = json!({ "x": 0, "y": 0 });
            key["i"] = json!({ "x": 1, "y": 1 });
        }
        json!({ "a": 1, "k": k })
    }

    /// Colour and opacity of a paint times the slot colour, keyed.
    fn paint(&self, slot: usize, paint: Color) -> (Value, Value) {
        let s = self.s;
        let mut c = Vec::with_capacity(self.plan.total * 3);
        let mut o = Vec::with_capacity(self.plan.total);
        for f in 0..self.plan.total {
            let t = paint.tint(s.color[f * s.slots + slot]);
            c.extend([t.r, t.g, t.b]);
            o.push(t.a * 100.0);
        }
        (
            keys::property(&self.fit(&c, 3, false), false),
            keys::property(&self.fit(&o, 1, false), true),
        )
    }

    /// A stroke in the layer's space: its width divided by the layer's
    /// (uniform) scale at every frame, so it is `stroke_width` world units.
    fn stroke(&self, slot: usize, bone: usize, att_m: Affine, style: &ShapeStyle) -> Value {
        let s = self.s;
        let w: Vec<f64> = (0..self.plan.total)
            .map(|f| {
                let m = s.world[f * s.bones + bone] * att_m;
                let [a, b, c, d, _, _] = m.to_array();
                let k = (a * d - b * c).abs().sqrt();
                if k > 1e-12 { style.stroke_width / k } else { 0.0 }
            })
            .collect();
        let (c, o) = self.paint(slot, style.stroke);
        json!({
            "ty": "st", "nm": "stroke", "c": c, "o": o,
            "w": keys::property(&self.fit(&w, 1, false), true),
            "lc": shapes::cap(style.cap), "lj": shapes::join(style.join),
            "ml": style.miter_limit.max(1.0),
        })
    }

    /// The events of the animations on the timeline, in time order: each a
    /// marker `ANIM/EVENT` of no length at the frame it fires (the file's
    /// frame rate, counted from the animation's marker), and its full
    /// description for the file's metadata (as `pose --json` lists it, with
    /// its `marker` and `animation`).
    fn events(&self) -> Vec<EventMarker> {
        let mut out = Vec::new();
        for pa in &self.plan.anims {
            let Some(anim) = pa.id.and_then(|id| self.arm.animation(id)) else { continue };
            for e in &anim.events {
                let tm = pa.offset as f64 + e.time_secs * self.plan.fps;
                let name = format!("{}/{}", anim.name, e.name);
                let mut about = skelpad_lang::runtime::report::event_json(e);
                about["marker"] = json!(name);
                about["animation"] = json!(anim.name);
                out.push(EventMarker { marker: json!({ "cm": name, "tm": tm, "dr": 0 }), about });
            }
        }
        out
    }

    /// The whole document.
    pub fn document(
        &self,
        bones: &[BoneLayer],
        pictures: Vec<Value>,
        baked: &[(String, String)],
    ) -> Value {
        let total = self.plan.total;
        let mut layers = pictures;
        let first_bone = layers.len();
        for (b, bone) in bones.iter().enumerate() {
            let mut l = layer_head(&bone.name, 3, total);
            l["ind"] = json!(b + 1);
            if let Some(p) = bone.parent {
                l["parent"] = json!(p + 1);
            }
            l["ks"] = json!({
                "a": { "a": 0, "k": [0, 0] },
                "p": keys::property(&bone.position, false),
                "r": keys::property(&bone.rotation, true),
                "s": keys::property(&bone.scale, false),
                "o": { "a": 0, "k": 100 },
            });
            layers.push(l);
        }
        for (i, l) in layers.iter_mut().take(first_bone).enumerate() {
            l["ind"] = json!(self.bones.len() + 1 + i);
        }
        let mut markers: Vec<Value> = self
            .plan
            .anims
            .iter()
            .map(|a| json!({ "cm": a.name, "tm": a.offset, "dr": a.frames }))
            .collect();
        let events = self.events();
        markers.extend(events.iter().map(|e| e.marker.clone()));
        json!({
            "v": "5.7.0",
            "fr": self.plan.fps,
            "ip": 0,
            "op": self.plan.out_point(),
            "w": self.framing.width,
            "h": self.framing.height,
            "nm": "skelpad",
            "ddd": 0,
            "assets": self.assets,
            "layers": layers,
            "markers": markers,
            "meta": { "g": concat!("skelpad ", env!("CARGO_PKG_VERSION")) },
            "metadata": { "skelpad": {
                "view": self.framing.to_array(),
                "about": "every bone layer's world matrix is view · (skelpad world of the bone) · diag(1, -1); view maps skelpad's world (y up) to the composition: x' = a·x + c·y + e, y' = b·x + d·y + f with view = [a, b, c, d, e, f]",
                "baked": baked.iter().map(|(n, r)| json!({ "bone": n, "reason": r })).collect::<Vec<_>>(),
                "events": events.into_iter().map(|e| e.about).collect::<Vec<_>>(),
            } },
        })
    }
}

/// An attachment layer's transform under its bone's layer: the attachment
/// transform with y turned down.
fn attachment_transform(
    t: &skelpad_lang::model::AttachmentTransform,
    anchor: Value,
    opacity: &Value,
) -> Value {
    let anchor = if anchor.is_null() { json!({ "a": 0, "k": [0, 0] }) } else { anchor };
    json!({
        "a": anchor,
        "p": { "a": 0, "k": [t.x, -t.y] },
        "r": { "a": 0, "k": -t.rotation_rad.to_degrees() },
        "s": { "a": 0, "k": [t.scale_x * 100.0, t.scale_y * 100.0] },
        "o": opacity,
    })
}

/// The fields every layer has.
pub(super) fn layer_head(name: &str, ty: u8, total: usize) -> Value {
    json!({ "ddd": 0, "ty": ty, "nm": name, "sr": 1, "ao": 0, "ip": 0, "op": total, "st": 0, "bm": 0 })
}

/// One event on the file's timeline (see `Builder::events`).
struct EventMarker {
    /// The Lottie marker.
    marker: Value,
    /// Its description in `metadata.skelpad.events`.
    about: Value,
}
