//! IK families of a script in the exported file: which ones play live in
//! SkelForm's runtimes exactly as in skelpad, and how they are written.
//! A family that cannot is baked into the keys instead, with a warning
//! saying why (see `docs/skf.md`, "Inverse kinematics").
//!
//! A family plays alike when, in the file:
//! - every bone of the chain but the first sits on its parent's positive x
//!   axis at every frame (SkelForm points a bone's rotation at the next
//!   joint and then places the next bone by its local position; the
//!   editor even sets those bones' y to 0 on load): in the script, a setup
//!   `y` of 0, an `x` above 0, and no `x`/`y` keys;
//! - nothing below the chain's first bone mirrors (a flip, set up or keyed)
//!   or ignores its parent's rotation (`no-rot`): SkelForm turns every
//!   child with its parent, skelpad turns a mirrored one the other way;
//! - the chain's first bone has a parent: skelform-js 0.7 applies IK
//!   rotations only to bones that have one;
//! - the family does not mimic its target (skelform-js 0.7 ignores it).
//!
//! rusty_skelform 0.8 applies IK rotations only when the file has physics
//! (its third inheritance pass), so a file with live families carries one
//! physics entry that no bone uses: it changes nothing else in any runtime.
//!
//! The way back is `skf::convert::carried_families`: the families the
//! language plays alike become an `ik` section of the converted script.

use super::export::Warning;
use super::{SkfArmature, SkfInverseKinematics, SkfPhysics};
use skelpad_lang::model::*;

/// Whether bone `b` is `ancestor` or below it.
pub(super) fn under(sk: &Skeleton, mut b: usize, ancestor: usize) -> bool {
    loop {
        if b == ancestor {
            return true;
        }
        match sk.bones.get(b).and_then(|x| x.parent).map(|p| p.index()).filter(|&p| p < b) {
            Some(p) => b = p,
            None => return false,
        }
    }
}

/// Why a family cannot play live in SkelForm's runtimes (`None`: it can).
fn why_baked(arm: &Armature, fam: &IkFamily) -> Option<String> {
    let sk = &*arm.skeleton;
    if sk.composition != Composition::Affine {
        return Some("only the script language's IK families are written live".into());
    }
    if fam.mimic_target {
        return Some("it mimics its target's rotation, which skelform-js ignores".into());
    }
    if fam.bones.len() < 2
        || fam.bones.iter().chain([&fam.target]).any(|b| b.index() >= sk.bones.len())
    {
        return Some("its chain has fewer than two bones".into());
    }
    let first = fam.bones[0].index();
    if sk.bones[first].parent.is_none() {
        return Some(format!(
            "its chain starts at `{}`, which has no parent; skelform-js turns only bones that have one",
            sk.bones[first].name
        ));
    }
    for b in &fam.bones[1..] {
        let bone = &sk.bones[b.index()];
        if bone.setup.y.abs() > 1e-9 || bone.setup.x <= 0.0 {
            return Some(format!(
                "`{}` is not on its parent's x axis (x{} y{}); SkelForm points each chain bone at the next one",
                bone.name, bone.setup.x, bone.setup.y
            ));
        }
        for anim in &arm.animations {
            if anim
                .bones
                .iter()
                .any(|c| c.bone == *b && matches!(c.property, BoneProperty::X | BoneProperty::Y))
            {
                return Some(format!(
                    "animation `{}` moves `{}`, a bone of the chain, off its parent's x axis",
                    anim.name, bone.name
                ));
            }
        }
    }
    for (i, bone) in sk.bones.iter().enumerate().skip(first + 1) {
        if !under(sk, i, first) {
            continue;
        }
        if bone.setup.flip_x
            || bone.setup.flip_y
            || arm.animations.iter().any(|a| a.flips.iter().any(|f| f.bone.index() == i))
        {
            return Some(format!(
                "`{}` below the chain mirrors, and SkelForm turns a mirrored child the other way than skelpad",
                bone.name
            ));
        }
        if !bone.inherit_rotation {
            return Some(format!(
                "`{}` below the chain does not follow its parent's rotation (no-rot), which SkelForm cannot show",
                bone.name
            ));
        }
    }
    None
}

/// For each IK family: whether it is written live. Baked families get a
/// warning.
pub(super) fn live_families(arm: &Armature, warnings: &mut Vec<Warning>) -> Vec<bool> {
    let sk = &*arm.skeleton;
    sk.ik
        .iter()
        .map(|fam| match why_baked(arm, fam) {
            None => true,
            Some(why) => {
                let tip = fam
                    .bones
                    .last()
                    .and_then(|b| sk.bones.get(b.index()))
                    .map_or("?", |b| b.name.as_str());
                warnings.push(Warning {
                    subject: format!("IK family of `{tip}`"),
                    message: format!(
                        "is baked into the keys instead of written as a SkelForm IK family: {why}"
                    ),
                });
                false
            }
        })
        .collect()
}

/// Bones whose exported frame must keep its x axis along skelpad's (a
/// positive x scale): every chain bone of a live family but the last,
/// whose rotation SkelForm sets from the direction to the next joint.
pub(super) fn pointed_bones(sk: &Skeleton, live: &[bool]) -> Vec<bool> {
    let mut out = vec![false; sk.bones.len()];
    for (fam, _) in sk.ik.iter().zip(live).filter(|(_, l)| **l) {
        for b in &fam.bones[..fam.bones.len() - 1] {
            out[b.index()] = true;
        }
    }
    out
}

/// Writes the live families (and the physics entry rusty_skelform needs to
/// apply them); `real` maps skelpad bones to exported bones.
pub(super) fn write_families(sk: &Skeleton, live: &[bool], real: &[usize], out: &mut SkfArmature) {
    for (fam, _) in sk.ik.iter().zip(live).filter(|(_, l)| **l) {
        let id = out.inverse_kinematics.len() as i32;
        let bone_ids: Vec<u32> = fam.bones.iter().map(|b| real[b.index()] as u32).collect();
        for (k, &j) in bone_ids.iter().enumerate() {
            let b = &mut out.bones[j as usize];
            b.ik_family_id = id;
            if k > 0 {
                // On the parent's x axis (what SkelForm's editor sets on load).
                b.pos.y = 0.0;
                b.init_pos.y = 0.0;
            }
        }
        let (mode, constraint) =
            (fam.mode.skf_name().to_string(), fam.constraint.skf_name().to_string());
        out.inverse_kinematics.push(SkfInverseKinematics {
            family_id: id,
            constraint: constraint.clone(),
            mode: mode.clone(),
            target_id: real[fam.target.index()] as i32,
            bone_ids,
            mimic_target: false,
            init_constraint: constraint,
            init_mode: mode,
            init_mimic_target: false,
        });
    }
    if !out.inverse_kinematics.is_empty() && out.physics.is_empty() {
        out.physics.push(SkfPhysics::default());
    }
}
