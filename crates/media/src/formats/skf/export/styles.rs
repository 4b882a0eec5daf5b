//! Styles: one per exported skin, each mapping every picture name to the
//! picture that skin shows (or an empty one where it hides it).

use super::*;

pub(super) fn write_styles(
    ctx: &mut Ctx,
    out: &mut SkfArmature,
    jobs: &mut Vec<PictureJob>,
    mesh_jobs: HashMap<AttachmentId, usize>,
) -> Vec<Vec<(String, TextureSource)>> {
    let sk = ctx.sk;
    let mut styles = Vec::new();
    // Jobs already made per attachment, to share identical pictures.
    let mut made: HashMap<AttachmentId, Vec<(Attachment, usize)>> = HashMap::new();
    for (att, job) in mesh_jobs {
        if let Some(a) = ctx.owner_att(att) {
            made.entry(att).or_default().push((a.clone(), job));
        }
    }
    for (si, &skin) in ctx.skins.clone().iter().enumerate() {
        let name =
            sk.skins.get(skin.index()).map(|s| s.name.clone()).unwrap_or_else(|| "default".into());
        let mut entries = Vec::new();
        for a in 0..sk.attachments.len() {
            let id = AttachmentId::from_index(a);
            let Some(owner) = ctx.owners[a].clone() else { continue };
            let tex_name = ctx.att_name(id);
            let Some(version) = sk.attachment(skin, id) else { continue };
            let slot_bone = sk.slot(sk.attachments[a].slot).bone;
            let source = if !draws(version) {
                TextureSource::Empty
            } else if is_mesh(version, slot_bone) != owner.mesh {
                ctx.warnings.push(Warning {
                    subject: format!("skin `{name}`"),
                    message: format!(
                        "attachment `{tex_name}` is {} here but {} in skin `{}`; a SkelForm style cannot turn a mesh into a picture or back, so this style hides it",
                        if owner.mesh { "a plain picture" } else { "a path bent by several bones" },
                        if owner.mesh { "a path bent by several bones" } else { "a plain picture" },
                        sk.skins.get(owner.skin.index()).map_or("default", |s| s.name.as_str())
                    ),
                });
                TextureSource::Empty
            } else {
                let shown =
                    Shown { skin, slot: sk.attachments[a].slot, id, version, mesh: owner.mesh };
                warn_unlike_owner(ctx, &name, &tex_name, &owner, &shown);
                job_for(&shown, made.entry(id).or_default(), jobs)
            };
            entries.push((tex_name, source));
        }
        out.styles.push(SkfStyle { id: si as u32, name, textures: Vec::new() });
        styles.push(entries);
    }
    styles
}

/// An attachment as one style shows it.
struct Shown<'a> {
    skin: SkinId,
    slot: SlotId,
    id: AttachmentId,
    /// The skin's version of it.
    version: &'a Attachment,
    /// Whether its owner makes it a mesh.
    mesh: bool,
}

/// Warns where a skin's version of an attachment differs from its owner's
/// (the skin whose version the file's bone carries) in what a style cannot
/// change: its placement, or a mesh's outline.
fn warn_unlike_owner(ctx: &mut Ctx, skin_name: &str, tex_name: &str, owner: &Owner, shown: &Shown) {
    let sk = ctx.sk;
    let version = shown.version;
    let owner_version = sk.attachment(owner.skin, shown.id);
    if let Some(ov) = owner_version
        && ov.transform != version.transform
    {
        ctx.warnings.push(Warning {
            subject: format!("skin `{skin_name}`"),
            message: format!(
                "attachment `{tex_name}` is placed differently than in skin `{}`; a SkelForm style only swaps pictures, so it is drawn where that skin places it",
                sk.skins.get(owner.skin.index()).map_or("default", |s| s.name.as_str())
            ),
        });
    }
    if owner.mesh
        && owner_version.is_some_and(|ov| match (&ov.kind, &version.kind) {
            (AttachmentKind::Path { path: p1, .. }, AttachmentKind::Path { path: p2, .. }) => {
                p1 != p2
            }
            _ => false,
        })
    {
        ctx.warnings.push(Warning {
            subject: format!("skin `{skin_name}`"),
            message: format!("attachment `{tex_name}` has a different outline than the mesh made from its first skin; the picture is stretched onto that mesh"),
        });
    }
}

/// The picture job for an attachment as a style shows it: one already
/// `made` for a version of the same kind, or a new one (a mesh's later
/// pictures go onto the mesh of its first).
fn job_for(
    shown: &Shown,
    made: &mut Vec<(Attachment, usize)>,
    jobs: &mut Vec<PictureJob>,
) -> TextureSource {
    let version = shown.version;
    if let Some(&(_, job)) = made.iter().find(|(v, _)| v.kind == version.kind) {
        return TextureSource::Job(job);
    }
    let mesh = match made.first().map(|&(_, j)| &jobs[j]) {
        Some(PictureJob::Attachment { mesh, .. }) if shown.mesh => *mesh,
        _ => None,
    };
    let job = match &version.kind {
        AttachmentKind::Sprite { image: Some(img), .. } => PictureJob::Sprite(img.clone()),
        _ => PictureJob::Attachment {
            skin: shown.skin,
            slot: shown.slot,
            attachment: shown.id,
            mesh,
        },
    };
    jobs.push(job);
    made.push((version.clone(), jobs.len() - 1));
    TextureSource::Job(jobs.len() - 1)
}
