//! SkelForm's bone physics: a bone that lags behind where its animation puts
//! it (position, rotation, scale damping) and swings around its parent when
//! the parent moves (sway, bounce). Physics is state carried from frame to
//! frame; [`PhysicsState`] is what a file stores and a runtime advances.

use super::BoneId;

/// The parameters of one bone's physics (SkelForm's `physics[]` entry).
#[derive(Clone, Debug, PartialEq)]
pub struct BonePhysics {
    /// The bone whose world transform the simulation replaces.
    pub bone: BoneId,
    /// Frames over which the position catches up (0: off).
    pub pos_damping: f64,
    /// -1..1: below 0 the y damping shrinks, above 0 the x damping.
    pub pos_ratio: f64,
    /// Divides the rotation's step towards its target (0: off).
    pub rot_damping: f64,
    /// How far the bone swings around its parent when the parent moves (0: off).
    pub sway: f64,
    /// 0..1: how much a swing overshoots.
    pub rot_bounce: f64,
    /// Frames over which the scale catches up (0: off).
    pub scale_damping: f64,
    /// -1..1, as `pos_ratio` for the scale damping.
    pub scale_ratio: f64,
    /// The state the file starts from.
    pub initial: PhysicsState,
}

impl BonePhysics {
    /// Whether this bone's world transform depends on the simulation.
    pub fn is_active(&self) -> bool {
        self.pos_damping > 0.0
            || self.rot_damping > 0.0
            || self.scale_damping > 0.0
            || self.sway > 0.0
    }
}

/// The simulated state of one bone (SkelForm's `global_*` fields), in `f32`
/// as SkelForm keeps it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhysicsState {
    /// World position the bone has lagged to (`global_pos`; +y up).
    pub pos: (f32, f32),
    /// World rotation the bone has lagged to, radians (`global_rot`).
    pub rot: f32,
    /// World scale the bone has lagged to (`global_scale`).
    pub scale: (f32, f32),
    /// Angle, radians, the bone has swung to around its parent (`global_orbit`).
    pub orbit: f32,
    /// The actual angle from the parent minus `orbit` (`global_orbit_diff`):
    /// how far the swing is behind.
    pub orbit_diff: f32,
    /// The orbit's last step, carried into the next one when `rot_bounce` is
    /// above 0 (`global_orbit_vel`).
    pub orbit_vel: f32,
}

/// Which world bones a physics step reads. SkelForm's editor and its Rust
/// runtime disagree when a bone with physics hangs below an IK chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PhysicsReads {
    /// The editor (`runtime_construction`): the bones with IK applied all
    /// the way down.
    #[default]
    Editor,
    /// `rusty_skelform` 0.8 (`construct`): the bones before IK, except the
    /// IK chains' own bones, which it has moved and pointed in place.
    RustySkelform,
}
