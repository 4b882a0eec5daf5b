//! Finishing a merged rig: the skins (what each replaces), the draw
//! order, and every attachment's model (its shape, its path bound to
//! bones).

use super::merge::{Merge, WAtt, written_type};
use super::names::ChildIds;
use super::{Ctx, RigSection};
use crate::compile::Ordinal;
use crate::compile::names::{NameIndex, last_segment};
use crate::compile::source::{OrderEntry, SkinEntry, Target};
use crate::model::*;
use crate::syntax::tree::*;
use crate::syntax::{Diagnostic, clip, quote_list};

/// A skin other than the default one, as its sections are read: its name
/// and the (attachment, data) of each item.
pub(super) struct SkinDraft {
    name: String,
    items: Vec<(usize, WAtt)>,
}

impl Merge {
    /// Skins: resolves each item to an attachment of the skeleton.
    pub(super) fn skins(
        &mut self,
        sections: &[(Ordinal, RigSection<'_>)],
        slot_names: &NameIndex<SlotId>,
        att_ids: &ChildIds<AttachmentId>,
        cx: &mut Ctx,
    ) -> Vec<SkinDraft> {
        let mut skins: Vec<SkinDraft> = Vec::new();
        for (ord, sec) in sections {
            let RigSection::Skin(sk) = sec else { continue };
            let ord = *ord;
            let si = match skins.iter().position(|s| s.name == sk.name.node) {
                Some(i) => i,
                None => {
                    skins.push(SkinDraft { name: sk.name.node.clone(), items: Vec::new() });
                    skins.len() - 1
                }
            };
            let skin = SkinId::from_index(si + 1);
            cx.reference(ord, sk.name.span, Some(Target::Skin(skin)), true);
            // (An item's data is large: growing the list would copy it.)
            skins[si].items.reserve(sk.items.len());
            for item in &sk.items {
                if let Some(found) = self.skin_item(ord, skin, item, slot_names, att_ids, cx) {
                    skins[si].items.push(found);
                }
            }
        }
        skins
    }

    /// One skin item: the attachment it replaces and its data.
    fn skin_item(
        &mut self,
        ord: Ordinal,
        skin: SkinId,
        item: &SkinItem,
        slot_names: &NameIndex<SlotId>,
        att_ids: &ChildIds<AttachmentId>,
        cx: &mut Ctx,
    ) -> Option<(usize, WAtt)> {
        let region = item.commands.iter().fold(item.span, |r, c| r.cover(c.span));
        let resolved = cx.resolve(slot_names, "slot", &item.slot, ord, "the skin item is ignored");
        cx.reference(ord, item.slot.span, resolved.map(Target::Slot), false);
        let mut entry = SkinEntry { skin, region, slot: resolved, attachment: None };
        let Some(slot) = resolved else {
            self.src.skin_entries.push((ord, entry));
            return None;
        };
        let slot = slot.index();
        let att_short = item
            .attachment
            .as_ref()
            .map_or_else(|| last_segment(&item.slot.node), |a| a.node.as_str());
        let found = att_ids.get(slot as u32, att_short).map(AttachmentId::index);
        entry.attachment = found.map(AttachmentId::from_index);
        self.src.skin_entries.push((ord, entry));
        if let Some(a) = &item.attachment {
            cx.reference(
                ord,
                a.span,
                found.map(|ai| Target::Attachment(AttachmentId::from_index(ai))),
                false,
            );
        }
        let Some(ai) = found else {
            let span = item.attachment.as_ref().map_or(item.slot.span, |a| a.span);
            let existing = quote_list(
                (self.atts.iter().enumerate())
                    .filter(|(_, a)| a.0 == slot)
                    .map(|(i, _)| att_ids.name(i)),
            );
            let mut d = Diagnostic::error(
                span,
                format!(
                    "slot `{}` has no attachment `{}` in the skeleton",
                    clip(&self.slots[slot].name),
                    clip(att_short)
                ),
            )
            .hint("a skin can only replace attachments the skeleton defines; the item is ignored");
            if !existing.is_empty() {
                d = d.hint(format!("its attachments: {existing}"));
            }
            cx.push(ord, d);
            return None;
        };
        let mut w = WAtt { ty: written_type(&item.spec).flatten(), ..WAtt::default() };
        w.apply(&item.spec.props);
        if w.ty == Some(TypeName::Path) {
            w.commands = item.commands.iter().map(|c| (ord, c.clone())).collect();
        }
        Some((ai, w))
    }

    /// The contents of every attachment in the default skin, and every
    /// skin (the default one first) with what it replaces.
    pub(super) fn finish_skins(
        &self,
        skin_items: &[SkinDraft],
        bone_of_slot: &[BoneId],
        bone_names: &NameIndex<BoneId>,
        cx: &mut Ctx,
    ) -> (Vec<Attachment>, Vec<Skin>) {
        let finish = |w: &WAtt, slot: usize, cx: &mut Ctx| {
            finish_attachment(w, bone_of_slot[slot], bone_names, cx)
        };
        let contents: Vec<Attachment> =
            self.atts.iter().map(|(slot, w)| finish(w, *slot, cx)).collect();
        let mut skins = Vec::with_capacity(1 + skin_items.len());
        skins.push(Skin::named("default"));
        for SkinDraft { name, items } in skin_items {
            // In the order written (so are their diagnostics); the last
            // entry for an attachment wins, as when each overwrote a copy
            // of the default list.
            let mut replaced: Vec<(AttachmentId, Attachment)> = items
                .iter()
                .map(|(ai, w)| (AttachmentId::from_index(*ai), finish(w, self.atts[*ai].0, cx)))
                .collect();
            replaced.reverse();
            replaced.sort_by_key(|(a, _)| *a);
            replaced.dedup_by_key(|(a, _)| *a);
            skins.push(Skin { name: name.clone(), replaced });
        }
        (contents, skins)
    }

    /// The draw order: the slots the order sections list, then the others.
    pub(super) fn draw_order(
        &mut self,
        sections: &[(Ordinal, RigSection<'_>)],
        slot_names: &NameIndex<SlotId>,
        cx: &mut Ctx,
    ) -> Vec<SlotId> {
        let mut listed: Vec<SlotId> = Vec::new();
        let mut is_listed = vec![false; self.slots.len()];
        for (ord, sec) in sections {
            let RigSection::Order(o) = sec else { continue };
            for e in &o.entries {
                let resolved = cx.resolve(slot_names, "slot", e, *ord, "the entry is ignored");
                cx.reference(*ord, e.span, resolved.map(Target::Slot), false);
                self.src.order_entries.push((*ord, OrderEntry { span: e.span, slot: resolved }));
                let Some(id) = resolved else { continue };
                if is_listed[id.index()] {
                    cx.push(
                        *ord,
                        Diagnostic::warning(
                            e.span,
                            format!(
                                "slot `{}` is already listed; this entry is ignored",
                                clip(&self.slots[id.index()].name)
                            ),
                        ),
                    );
                    continue;
                }
                is_listed[id.index()] = true;
                listed.push(id);
            }
        }
        let mut draw_order = listed;
        draw_order.extend((0..self.slots.len()).filter(|&i| !is_listed[i]).map(SlotId::from_index));
        draw_order
    }
}

/// The model of attachment `w` of a slot on bone `slot_bone`.
fn finish_attachment(
    w: &WAtt,
    slot_bone: BoneId,
    bones: &NameIndex<BoneId>,
    cx: &mut Ctx,
) -> Attachment {
    let transform = AttachmentTransform {
        x: w.x.unwrap_or(0.0),
        y: w.y.unwrap_or(0.0),
        rotation_rad: normalize_angle(w.rot.unwrap_or(0.0).to_radians()),
        scale_x: w.sx.unwrap_or(1.0),
        scale_y: w.sy.unwrap_or(1.0),
    };
    let style = ShapeStyle {
        stroke_width: w.stroke_width.unwrap_or(1.0),
        miter_limit: w.miter.unwrap_or(10.0),
        fill: w.fill.unwrap_or(Color::BLACK),
        stroke: w.stroke.unwrap_or(Color::BLACK),
        join: w.join.unwrap_or(LineJoin::Miter),
        cap: w.cap.unwrap_or(LineCap::Butt),
    };
    let kind = match &w.ty {
        Some(TypeName::Sprite) => {
            AttachmentKind::Sprite { image: w.image.clone(), pivot: [0.5, 0.5] }
        }
        Some(TypeName::Rect) => AttachmentKind::Rect {
            width: w.width.unwrap_or(0.0),
            height: w.height.unwrap_or(0.0),
            corner_radius: w.diameter.unwrap_or(0.0) / 2.0,
            style,
        },
        Some(TypeName::Ellipse) => AttachmentKind::Ellipse {
            radius_x: w.width.unwrap_or(0.0) / 2.0,
            radius_y: w.height.unwrap_or(0.0) / 2.0,
            style,
        },
        Some(TypeName::Circle) => {
            AttachmentKind::Circle { radius: w.diameter.unwrap_or(0.0) / 2.0, style }
        }
        Some(TypeName::Path) => {
            AttachmentKind::Path { path: build_path(&w.commands, slot_bone, bones, cx), style }
        }
        Some(TypeName::Unknown(_)) | None => AttachmentKind::None,
    };
    Attachment { transform, kind }
}

/// Resolves path commands into one bound subpath. A path that does not start
/// with `M` starts at the slot bone's origin; a later `M` starts the path
/// again (the original drops what came before); commands after `C` are
/// ignored.
fn build_path(
    cmds: &[(Ordinal, PathCommandLine)],
    slot_bone: BoneId,
    bones: &NameIndex<BoneId>,
    cx: &mut Ctx,
) -> BoundPath {
    let origin = BoundPoint { bone: slot_bone, x: 0.0, y: 0.0 };
    let mut path = BoundPath { start: origin, segments: Vec::new(), closed: false };
    let mut default_bone = slot_bone;
    let mut first = true;
    for (ord, line) in cmds {
        let ord = *ord;
        if path.closed {
            cx.push(
                ord,
                Diagnostic::warning(line.span, "commands after `C` are ignored")
                    .hint("`C` closes the path; it must be the last command"),
            );
            continue;
        }
        let pt = |p: &PointLit, default_bone: BoneId, cx: &mut Ctx| {
            let bone = match &p.bone {
                Some(r) => {
                    let found =
                        cx.resolve(bones, "bone", r, ord, "the point stays on the default bone");
                    cx.reference(ord, r.span, found.map(Target::Bone), false);
                    found.unwrap_or(default_bone)
                }
                None => default_bone,
            };
            BoundPoint { bone, x: p.x, y: p.y }
        };
        match &line.command {
            PathCommand::Switch(r) => {
                let found = cx.resolve(bones, "bone", r, ord, "the default bone does not change");
                cx.reference(ord, r.span, found.map(Target::Bone), false);
                if let Some(b) = found {
                    default_bone = b;
                }
                continue;
            }
            PathCommand::Move(p) => {
                if !first {
                    cx.push(
                        ord,
                        Diagnostic::warning(
                            line.span,
                            "`M` after the first command starts the path again; everything before it is dropped",
                        )
                        .hint("a path is one shape: use `M` only as its first command"),
                    );
                }
                path.start = pt(p, default_bone, cx);
                path.segments.clear();
            }
            PathCommand::Line(p) => {
                let p = pt(p, default_bone, cx);
                path.segments.push(PathSegment::LineTo(p));
            }
            PathCommand::Quad(c, p) => {
                let c = pt(c, default_bone, cx);
                let p = pt(p, default_bone, cx);
                path.segments.push(PathSegment::QuadTo(c, p));
            }
            PathCommand::Cubic(a, b, p) => {
                let a = pt(a, default_bone, cx);
                let b = pt(b, default_bone, cx);
                let p = pt(p, default_bone, cx);
                path.segments.push(PathSegment::CubicTo(a, b, p));
            }
            PathCommand::Close => path.closed = true,
        }
        first = false;
    }
    path
}
