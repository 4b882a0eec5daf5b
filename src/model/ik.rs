//! Inverse kinematics families, as SkelForm defines them: a chain of bones
//! (root first, each the child of the one before) turned so that its tip
//! reaches a target bone.

use super::BoneId;

/// How a family's joints are placed before its bones are pointed along them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IkMode {
    /// Forward and backward reaching, 10 rounds (SkelForm's `FABRIK`).
    #[default]
    Fabrik,
    /// Joints spread along an arc from the root towards the target (SkelForm's `Arc`).
    Arc,
}

impl IkMode {
    /// The name SkelForm writes.
    pub fn skf_name(self) -> &'static str {
        match self {
            IkMode::Fabrik => "FABRIK",
            IkMode::Arc => "Arc",
        }
    }
}

/// Which way a chain may bend, seen from its root towards the target.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IkConstraint {
    #[default]
    None,
    Clockwise,
    CounterClockwise,
}

impl IkConstraint {
    /// The name SkelForm writes.
    pub fn skf_name(self) -> &'static str {
        match self {
            IkConstraint::None => "None",
            IkConstraint::Clockwise => "Clockwise",
            IkConstraint::CounterClockwise => "CounterClockwise",
        }
    }

    pub fn from_skf_name(name: &str) -> Option<IkConstraint> {
        Some(match name {
            "None" => IkConstraint::None,
            "Clockwise" => IkConstraint::Clockwise,
            "CounterClockwise" => IkConstraint::CounterClockwise,
            _ => return None,
        })
    }
}

/// One IK family.
#[derive(Clone, Debug, PartialEq)]
pub struct IkFamily {
    /// The chain, in skeleton order (root first). The last bone's position is
    /// the tip that reaches for the target.
    pub bones: Vec<BoneId>,
    pub target: BoneId,
    pub mode: IkMode,
    pub constraint: IkConstraint,
    /// The last bone takes the target's world rotation.
    pub mimic_target: bool,
}
