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
    /// Either way: the solver's result is kept as it comes.
    #[default]
    None,
    /// The chain, walked from its root, turns clockwise (y up): when the
    /// solved first segment lies clockwise of the line from the root to the
    /// target, every joint is mirrored across that line.
    Clockwise,
    /// The mirror image of [`IkConstraint::Clockwise`]: a solution whose
    /// first segment lies counterclockwise of the root–target line is mirrored.
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

    /// The constraint SkelForm writes as `name` (exact spelling, as
    /// [`IkConstraint::skf_name`] gives it); `None` for any other name.
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
    /// The bone whose world position the tip is moved towards; it is not
    /// part of the chain and is not moved itself.
    pub target: BoneId,
    /// How the joints are solved.
    pub mode: IkMode,
    /// Which way the solved chain may bend.
    pub constraint: IkConstraint,
    /// The last bone takes the target's world rotation.
    pub mimic_target: bool,
}
