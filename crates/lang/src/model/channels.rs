//! Animations: easings and curves, keys, the typed channels (bone,
//! flip, slot colour, attachment), events, and the [`Animation`] that
//! holds them.

use super::*;

/// Easing functions of the language (LANGUAGE.md §5, LANGUAGE-EXT.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Easing {
    /// `li`: `t`.
    Linear,
    /// `si`: `1 − sin(π/2 + t·π/2)`, slow start.
    SineIn,
    /// `so`: `sin(t·π/2)`, slow end.
    SineOut,
    /// `sio`: `0.5 + sin(t·π − π/2)/2`, slow start and end.
    SineInOut,
    /// `bz(x1,y1,x2,y2)` or a preset's name: a cubic-bezier timing curve.
    Bezier(CubicBezier),
}

impl Easing {
    /// Progress at `t` (0..1 between two keys): 0 at `t = 0`, 1 at `t = 1`.
    pub fn apply(self, t: f64) -> f64 {
        use std::f64::consts::{FRAC_PI_2, PI};
        match self {
            Easing::Linear => t,
            Easing::SineIn => 1.0 - trig::sin(FRAC_PI_2 + t * FRAC_PI_2),
            Easing::SineOut => trig::sin(t * FRAC_PI_2),
            Easing::SineInOut => 0.5 + 0.5 * trig::sin(t * PI - FRAC_PI_2),
            Easing::Bezier(b) => b.progress(t),
        }
    }

    /// The short name used in scripts for the four function easings and the
    /// bezier presets; `None` for a `bz(…)` curve no preset has.
    pub fn code(self) -> Option<&'static str> {
        Some(match self {
            Easing::Linear => "li",
            Easing::SineIn => "si",
            Easing::SineOut => "so",
            Easing::SineInOut => "sio",
            Easing::Bezier(b) => return preset_name(b),
        })
    }

    /// The easing for its script name (`li`, `si`, `so`, `sio` or a preset);
    /// `None` for any other text (`bz(…)` is read by the parser).
    pub fn from_code(code: &str) -> Option<Easing> {
        Some(match code {
            "li" => Easing::Linear,
            "si" => Easing::SineIn,
            "so" => Easing::SineOut,
            "sio" => Easing::SineInOut,
            _ => return PRESETS.iter().find(|(n, _)| *n == code).map(|(_, b)| Easing::Bezier(*b)),
        })
    }

    /// Its curve in `width` characters (see [`sparkline`]).
    pub fn sparkline(self, width: usize) -> String {
        sparkline(&|t| self.apply(t), width)
    }

    /// The four function easings, in declaration order (the bezier presets
    /// are [`PRESETS`]).
    pub const ALL: [Easing; 4] =
        [Easing::Linear, Easing::SineIn, Easing::SineOut, Easing::SineInOut];
}

/// The easing as a script writes it: its name, or `bz(x1,y1,x2,y2)` with
/// the shortest decimals that read back to the same numbers.
impl std::fmt::Display for Easing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.code(), self) {
            (Some(name), _) => f.write_str(name),
            (None, Easing::Bezier(b)) => {
                let [x1, y1, x2, y2] = b.to_array().map(|v| v + 0.0);
                write!(f, "bz({x1},{y1},{x2},{y2})")
            }
            (None, _) => Ok(()),
        }
    }
}

/// How a key's value changes on the way to the next key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Curve {
    /// Shaped by an easing function (a cubic-bezier timing curve included:
    /// SkelForm's handles and Spriter's quadratic, cubic and bezier curves
    /// import as `Eased(Easing::Bezier(…))`).
    Eased(Easing),
    /// Holds the value until the next key.
    Stepped,
    /// Spriter's quartic and quintic curves, as SpriterPlusPlus computes
    /// them (and its bezier curves where its solver's 1/200 tolerance is
    /// kept, see `spriter`).
    Spriter(SpriterCurve),
}

impl Curve {
    /// Straight from one key's value to the next's.
    pub const LINEAR: Curve = Curve::Eased(Easing::Linear);

    /// A cubic-bezier timing curve with these handles.
    pub const fn bezier(x1: f64, y1: f64, x2: f64, y2: f64) -> Curve {
        Curve::Eased(Easing::Bezier(CubicBezier::new(x1, y1, x2, y2)))
    }

    /// Progress (0..1, possibly beyond for overshooting beziers) at `t` in 0..1.
    pub fn progress(self, t: f64) -> f64 {
        match self {
            Curve::Eased(e) => e.apply(t),
            Curve::Stepped => 0.0,
            Curve::Spriter(c) => c.progress(t),
        }
    }
}

/// One key of a channel. Its curve shapes the way to the *next* key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key<T> {
    /// Seconds from the start of the animation (the language's frame / fps).
    /// A channel's keys are in increasing time order; sampling relies on it.
    pub time_secs: f64,
    /// The value the channel has at this time.
    pub value: T,
    /// How the value moves from this key to the next (unused on the last key
    /// and on stepped channels).
    pub curve: Curve,
}

/// Numeric bone properties an animation can drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoneProperty {
    /// [`BoneTransform::x`], in the parent's units.
    X,
    /// [`BoneTransform::y`], in the parent's units.
    Y,
    /// [`BoneTransform::rotation_rad`], radians counterclockwise.
    Rotation,
    /// [`BoneTransform::scale_x`], a factor.
    ScaleX,
    /// [`BoneTransform::scale_y`], a factor.
    ScaleY,
}

/// How a channel's values combine with the setup pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueMode {
    /// The language's rule: positions and rotation are added to the setup
    /// value, scales multiply it.
    RelativeToSetup,
    /// The value replaces the setup value (SkelForm and Spriter keys).
    Absolute,
}

/// How rotation keys are interpolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AngleInterpolation {
    /// Keys are wrapped into [-π, π] and each segment takes the shorter way round.
    Shortest,
    /// Plain linear interpolation of the numbers (SkelForm).
    Linear,
}

/// A numeric timeline of one property of one bone. Before its first key the
/// setup value holds; after its last key the last value does.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneChannel {
    /// The bone it moves.
    pub bone: BoneId,
    /// Which of the bone's local values it drives.
    pub property: BoneProperty,
    /// Whether the keys replace the setup value or are applied to it.
    pub mode: ValueMode,
    /// The keys, in the property's unit (an offset or a factor under
    /// [`ValueMode::RelativeToSetup`]).
    pub keys: Vec<Key<f64>>,
}

/// Which axis a flip mirrors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// [`BoneTransform::flip_x`] (script property `s`).
    X,
    /// [`BoneTransform::flip_y`] (script property `t`).
    Y,
}

/// A stepped flip timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct FlipChannel {
    /// The bone it flips.
    pub bone: BoneId,
    /// Which flag it sets.
    pub axis: Axis,
    /// The flag from each key's time on; it replaces the setup flag.
    pub keys: Vec<Key<bool>>,
}

/// One channel of a slot color (script properties `r g b a`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ColorComponent {
    /// [`Color::r`].
    R,
    /// [`Color::g`].
    G,
    /// [`Color::b`].
    B,
    /// [`Color::a`].
    A,
}

/// An absolute slot color component.
#[derive(Clone, Debug, PartialEq)]
pub struct SlotColorChannel {
    /// The slot whose color it sets.
    pub slot: SlotId,
    /// Which channel of the color.
    pub component: ColorComponent,
    /// Values, normally 0..1, replacing that channel of the slot's color.
    pub keys: Vec<Key<f64>>,
}

/// A stepped attachment switch; `None` shows nothing.
#[derive(Clone, Debug, PartialEq)]
pub struct AttachmentChannel {
    /// The slot whose attachment it switches.
    pub slot: SlotId,
    /// The attachment shown from each key's time on (an attachment of this
    /// slot; the active skin gives its contents).
    pub keys: Vec<Key<Option<AttachmentId>>>,
}

/// The frame rate of an animation that does not give one (or gives one that
/// is not a positive number).
pub const DEFAULT_FPS: f64 = 20.0;

/// The latest frame a key may fall on (LANGUAGE-EXT.md): longer animations
/// are an error, so nothing that compiles asks for more frames than this.
pub const MAX_KEY_FRAME: f64 = 1_000_000.0;

/// `fps` if it is a positive number, else [`DEFAULT_FPS`].
pub fn clean_fps(fps: f64) -> f64 {
    if fps.is_finite() && fps > 0.0 { fps } else { DEFAULT_FPS }
}

/// What an event carries besides its name (LANGUAGE-EXT.md, "Events").
#[derive(Clone, Debug, PartialEq)]
pub enum EventPayload {
    /// Nothing.
    None,
    /// A whole number (32-bit, as in Spine and Spriter).
    Int(i32),
    /// A number.
    Float(f64),
    /// A string.
    Text(String),
}

/// A named event an animation fires at a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The event's name (`!NAME` in a script).
    pub name: String,
    /// The frame it fires at (the time is `frame / fps`).
    pub frame: f64,
    /// Seconds from the start of the animation.
    pub time_secs: f64,
    /// What it carries.
    pub payload: EventPayload,
}

/// One animation: timelines over the skeleton's bones and slots.
#[derive(Clone, Debug, PartialEq)]
pub struct Animation {
    /// Name from `anim "NAME"` (the empty string when none is written) or
    /// from the imported file.
    pub name: String,
    /// Frames per second: always a positive number ([`Animation::empty`]
    /// cleans it, so readers never check it again).
    pub fps: f64,
    /// The latest key time; playback loops over [0, duration).
    pub duration_secs: f64,
    /// How the rotation channels interpolate: the shorter way round for
    /// scripts, plainly for SkelForm and Spriter imports.
    pub angle_interpolation: AngleInterpolation,
    /// Numeric bone timelines (position, rotation, scale).
    pub bones: Vec<BoneChannel>,
    /// Stepped flip timelines.
    pub flips: Vec<FlipChannel>,
    /// Slot color timelines, one per slot and channel.
    pub slot_colors: Vec<SlotColorChannel>,
    /// Stepped attachment switches.
    pub attachments: Vec<AttachmentChannel>,
    /// Animated draw order (Spriter's mainline keys), stepped: the slots
    /// listed are drawn back to front and the others are hidden. Empty: the
    /// skeleton's draw order.
    pub draw_order: Vec<Key<Arc<[SlotId]>>>,
    /// Maps the playback time to the time the channels are sampled at
    /// (Spriter's mainline curves). Empty: the identity.
    pub time_warp: Vec<Key<f64>>,
    /// Bone alpha (Spriter), applied under [`Composition::Spriter`].
    pub bone_alpha: Vec<BoneAlphaChannel>,
    /// Parents that change (Spriter), applied under [`Composition::Spriter`].
    pub parents: Vec<ParentChannel>,
    /// Whether the file says the animation loops (`None`: the player decides).
    pub looping: Option<bool>,
    /// The events it fires, in time order (events at the same time in the
    /// order they were written).
    pub events: Vec<Event>,
    /// Per bone, seconds its bone and flip channels play late, wrapping
    /// around `[0, duration)` (`delay`/`chain` in a script), sorted by
    /// bone; each delay in `(0, duration)`.
    pub bone_delays: Vec<(BoneId, f64)>,
    /// Per slot, seconds its color and attachment channels play late, as
    /// [`Animation::bone_delays`] (`delay` on a slot item), sorted by slot.
    pub slot_delays: Vec<(SlotId, f64)>,
}

impl Animation {
    /// An animation without channels; a frame rate that is zero, negative or
    /// not a number becomes [`DEFAULT_FPS`].
    pub fn empty(name: &str, fps: f64) -> Self {
        Animation {
            name: name.to_string(),
            fps: clean_fps(fps),
            duration_secs: 0.0,
            angle_interpolation: AngleInterpolation::Shortest,
            bones: Vec::new(),
            flips: Vec::new(),
            slot_colors: Vec::new(),
            attachments: Vec::new(),
            draw_order: Vec::new(),
            time_warp: Vec::new(),
            bone_alpha: Vec::new(),
            parents: Vec::new(),
            looping: None,
            events: Vec::new(),
            bone_delays: Vec::new(),
            slot_delays: Vec::new(),
        }
    }

    /// Recomputes `duration_secs` as the latest key of the bone, flip, slot
    /// color and attachment channels and the latest event (0 without keys). The Spriter-only
    /// lists are not counted: its importer sets the duration from the file.
    pub fn update_duration(&mut self) {
        let mut d: f64 = 0.0;
        let last = |t: Option<f64>, d: &mut f64| {
            if let Some(t) = t {
                *d = d.max(t);
            }
        };
        for c in &self.bones {
            last(c.keys.last().map(|k| k.time_secs), &mut d);
        }
        for c in &self.flips {
            last(c.keys.last().map(|k| k.time_secs), &mut d);
        }
        for c in &self.slot_colors {
            last(c.keys.last().map(|k| k.time_secs), &mut d);
        }
        for c in &self.attachments {
            last(c.keys.last().map(|k| k.time_secs), &mut d);
        }
        last(self.events.last().map(|e| e.time_secs), &mut d);
        self.duration_secs = d;
    }

    /// Times of every key of every channel, sorted and without repeats.
    /// With `bone`, only keys of channels of that bone and its slots.
    pub fn key_times(&self, skeleton: &Skeleton, bone: Option<BoneId>) -> Vec<f64> {
        let bone_ok = |b: BoneId| bone.is_none_or(|x| x == b);
        let slot_ok = |s: SlotId| {
            bone.is_none_or(|x| skeleton.slots.get(s.index()).is_some_and(|sl| sl.bone == x))
        };
        let mut out: Vec<f64> = Vec::new();
        for c in self.bones.iter().filter(|c| bone_ok(c.bone)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        for c in self.flips.iter().filter(|c| bone_ok(c.bone)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        for c in self.slot_colors.iter().filter(|c| slot_ok(c.slot)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        for c in self.attachments.iter().filter(|c| slot_ok(c.slot)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        for c in self.bone_alpha.iter().filter(|c| bone_ok(c.bone)) {
            out.extend(c.keys.iter().map(|k| k.time_secs));
        }
        if bone.is_none() {
            out.extend(self.draw_order.iter().map(|k| k.time_secs));
        }
        out.sort_by(f64::total_cmp);
        out.dedup();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn easings_start_at_zero_and_end_at_one() {
        for e in Easing::ALL {
            assert!(e.apply(0.0).abs() < 1e-12, "{e:?}");
            assert!((e.apply(1.0) - 1.0).abs() < 1e-12, "{e:?}");
            assert_eq!(e.code().and_then(Easing::from_code), Some(e));
        }
        assert!((Easing::SineOut.apply(0.5) - (std::f64::consts::FRAC_PI_4).sin()).abs() < 1e-12);
    }

    #[test]
    fn easings_follow_their_formulas() {
        // LANGUAGE.md §5 with the standard library's sine, inside the key
        // span and beyond it (overshoot).
        use std::f64::consts::{FRAC_PI_2, PI};
        for i in -200..=1200 {
            let t = f64::from(i) / 1000.0;
            let spec = [
                t,
                1.0 - (FRAC_PI_2 + t * FRAC_PI_2).sin(),
                (t * FRAC_PI_2).sin(),
                0.5 + 0.5 * (t * PI - FRAC_PI_2).sin(),
            ];
            for (e, want) in Easing::ALL.into_iter().zip(spec) {
                assert!((e.apply(t) - want).abs() <= 2.0 * f64::EPSILON, "{e:?} at {t}");
            }
        }
    }

    #[test]
    fn linear_bezier_is_identity() {
        let c = Curve::bezier(1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0);
        for i in 0..=10 {
            let t = i as f64 / 10.0;
            assert!((c.progress(t) - t).abs() < 1e-9);
        }
        // An ease-in bezier stays below the diagonal.
        let ease_in = Curve::bezier(0.42, 0.0, 1.0, 1.0);
        assert!(ease_in.progress(0.5) < 0.4);
    }
}
