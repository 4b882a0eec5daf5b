//! The bone plan: every skelpad bone, a helper bone per picture of a slot,
//! and the helper owning each mesh; which skin's version of an attachment
//! decides its helper; writing the bones at setup.

use super::*;

#[derive(Clone, Debug)]
pub(super) enum Kind {
    Real(BoneId),
    /// The helper of one plain picture of a slot: scale 0 while the slot
    /// shows something else.
    Plain {
        slot: SlotId,
        att: AttachmentId,
    },
    /// The helper owning a mesh.
    Mesh {
        slot: SlotId,
        att: AttachmentId,
    },
    /// A frame that moves a mesh point bound to `bone` the way skelpad moves
    /// it: slot · A · slot⁻¹ · bone (A: the attachment transform).
    Conjugate {
        slot: SlotId,
        att: AttachmentId,
        bone: BoneId,
    },
    /// A static child of `of` offset by (dx, dy).
    Offset {
        of: usize,
        dx: f64,
        dy: f64,
    },
}

#[derive(Clone, Debug)]
pub(super) struct PlannedBone {
    pub(super) name: String,
    pub(super) parent: Option<usize>,
    pub(super) kind: Kind,
}

/// Per attachment: which exported skin's version decides its helper
/// transform and whether it is a mesh.
#[derive(Clone, Debug)]
pub(super) struct Owner {
    pub(super) skin: SkinId,
    pub(super) mesh: bool,
}

pub(super) struct Ctx<'a> {
    pub(super) arm: &'a Armature,
    pub(super) sk: &'a Skeleton,
    pub(super) skins: Vec<SkinId>,
    pub(super) owners: Vec<Option<Owner>>,
    pub(super) texel: f64,
    pub(super) bones: Vec<PlannedBone>,
    /// Export index of each real bone.
    pub(super) real: Vec<usize>,
    /// Export index of a mesh attachment's helper.
    pub(super) mesh_helper: HashMap<AttachmentId, usize>,
    pub(super) warnings: Vec<Warning>,
    /// Per skelpad bone: a live IK family points it, so its frame keeps a
    /// positive x scale (see `formats::skf::ik`).
    pub(super) pointed: Vec<bool>,
}

pub(super) fn draws(a: &Attachment) -> bool {
    match &a.kind {
        AttachmentKind::None => false,
        AttachmentKind::Sprite { image, .. } => image.is_some(),
        _ => true,
    }
}

/// A path is a mesh when a point is bound to a bone other than its slot's.
pub(super) fn is_mesh(a: &Attachment, slot_bone: BoneId) -> bool {
    matches!(&a.kind, AttachmentKind::Path { path, .. } if path.points().iter().any(|p| p.bone != slot_bone))
}

pub(super) fn is_identity(t: &AttachmentTransform) -> bool {
    *t == AttachmentTransform::default()
}

impl<'a> Ctx<'a> {
    pub(super) fn att_name(&self, a: AttachmentId) -> String {
        self.sk.attachment_full_name(a)
    }

    pub(super) fn owner_att(&self, a: AttachmentId) -> Option<&'a Attachment> {
        let o = self.owners[a.index()].as_ref()?;
        self.sk.attachment(o.skin, a)
    }

    /// Texel size of an attachment's texture (world units per pixel).
    pub(super) fn texel_of(&self, a: &Attachment) -> f64 {
        if matches!(a.kind, AttachmentKind::Sprite { .. }) { 1.0 } else { self.texel }
    }

    pub(super) fn push(&mut self, name: String, parent: Option<usize>, kind: Kind) -> usize {
        self.bones.push(PlannedBone { name, parent, kind });
        self.bones.len() - 1
    }
}

pub(super) fn choose_owners(ctx: &mut Ctx) {
    let sk = ctx.sk;
    ctx.owners = (0..sk.attachments.len())
        .map(|i| {
            let id = AttachmentId::from_index(i);
            let slot_bone = sk.slot(sk.attachments[i].slot).bone;
            ctx.skins.iter().find_map(|&s| {
                let a = sk.attachment(s, id)?;
                draws(a).then(|| Owner { skin: s, mesh: is_mesh(a, slot_bone) })
            })
        })
        .collect();
}

pub(super) fn plan_bones(ctx: &mut Ctx) {
    let sk = ctx.sk;
    for (i, b) in sk.bones.iter().enumerate() {
        let parent = b.parent.map(|p| ctx.real[p.index()]);
        let idx = ctx.push(b.name.clone(), parent, Kind::Real(BoneId::from_index(i)));
        ctx.real.push(idx);
    }
    for (si, slot) in sk.slots.iter().enumerate() {
        let slot_id = SlotId::from_index(si);
        let bone = ctx.real[slot.bone.index()];
        let atts: Vec<AttachmentId> = (0..sk.attachments.len())
            .map(AttachmentId::from_index)
            .filter(|a| sk.attachments[a.index()].slot == slot_id)
            .filter(|a| ctx.owners[a.index()].as_ref().is_some_and(|o| !o.mesh))
            .collect();
        // One helper per picture: `@SLOT` when the slot has one, else
        // `@SLOT[ATTACHMENT]` each.
        for &att in &atts {
            let name = if atts.len() == 1 {
                format!("@{}", slot.name)
            } else {
                format!("@{}[{}]", slot.name, sk.attachments[att.index()].name)
            };
            ctx.push(name, Some(bone), Kind::Plain { slot: slot_id, att });
        }
        for a in 0..sk.attachments.len() {
            let att = AttachmentId::from_index(a);
            if sk.attachments[a].slot != slot_id || !ctx.owners[a].as_ref().is_some_and(|o| o.mesh)
            {
                continue;
            }
            let name = format!("@{}[{}]", slot.name, sk.attachments[a].name);
            let idx = ctx.push(name, Some(bone), Kind::Mesh { slot: slot_id, att });
            ctx.mesh_helper.insert(att, idx);
        }
    }
}

pub(super) fn write_bones(ctx: &Ctx, setup: &Targets, out: &mut SkfArmature) {
    for (j, b) in ctx.bones.iter().enumerate() {
        let local = match b.parent {
            Some(p) => sim::local_for(&setup.trs[p], &setup.trs[j]),
            None => setup.trs[j],
        };
        let pos = vec2(local.x, local.y);
        let scale = vec2(local.sx, local.sy);
        let rot = local.rot as f32;
        out.bones.push(SkfBone {
            id: j as u32,
            name: b.name.clone(),
            pos,
            rot,
            scale,
            parent_id: b.parent.map_or(-1, |p| p as i32),
            init_pos: pos,
            init_rot: rot,
            init_scale: scale,
            ..SkfBone::default()
        });
    }
}
