//! What every export shares: one [`Progress`] (steps done, the stage, and
//! the one way to cancel) and one [`ExportError`]. The `.skf` writer, the
//! Lottie writer and the frame writers ([`super::frames`]: PNG, PNG
//! sequence, sprite sheet, GIF) all take a `&Progress` and return an
//! `ExportError`, so the CLI and the editor drive them alike.
//!
//! A `Progress` is shared between threads (frames are drawn on every core):
//! its counters are atomics, and its sink (a progress bar, the editor's
//! repaint) is called from whichever thread finished a step.
//!
//! Exporters check the progress before each step and stop with
//! `ExportError::Cancelled`, writing nothing. The CLI draws it as an
//! `indicatif` bar on a terminal (`cli::progress`), the editor in its status
//! bar (`app::export`). Files are written whole or not at all
//! (`io::AtomicFiles`). An animation's frames are counted in one place,
//! `Animation::frame_count` / `frame_times` (`model/timing.rs`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use skelpad_lang::io::IoError;

/// What an export is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Not started.
    #[default]
    Starting,
    /// Keying or sampling the animations (`.skf`, Lottie).
    Animations,
    /// Drawing and packing pictures (`.skf` atlases, Lottie sprites).
    Pictures,
    /// Drawing frames (PNG, sequences, sheets, GIFs).
    Frames,
    /// Encoding and writing the files.
    Writing,
}

impl Stage {
    /// The stage in a word, for status lines ("pictures").
    pub fn label(self) -> &'static str {
        match self {
            Stage::Starting => "starting",
            Stage::Animations => "animations",
            Stage::Pictures => "pictures",
            Stage::Frames => "frames",
            Stage::Writing => "writing",
        }
    }
}

/// Called after each step with (stage, steps done, steps in the stage);
/// returning `false` cancels the export (as [`Progress::cancel`]).
type Sink = Box<dyn Fn(Stage, usize, usize) -> bool + Send + Sync>;

/// The progress of one export, shared by the exporter (which reports), the
/// threads it draws on, and whoever shows it or cancels it.
///
/// Cancelling is one flag: set by [`Progress::cancel`] (from any thread) or
/// by the sink returning `false`. Exporters check it before each step and
/// stop with [`ExportError::Cancelled`], writing nothing.
#[derive(Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    stage: Mutex<Stage>,
    cancelled: AtomicBool,
    sink: Option<Sink>,
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (done, total) = self.get();
        f.debug_struct("Progress")
            .field("stage", &self.stage())
            .field("done", &done)
            .field("total", &total)
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

impl Progress {
    /// Progress that nobody watches (it can still be cancelled).
    pub fn new() -> Progress {
        Progress::default()
    }

    /// Progress that calls `sink` after every report, from the thread that
    /// reported; the sink returns `false` to cancel.
    pub fn with_sink(sink: impl Fn(Stage, usize, usize) -> bool + Send + Sync + 'static) -> Self {
        Progress { sink: Some(Box::new(sink)), ..Progress::default() }
    }

    /// Starts a stage of `total` steps (none done yet), then reports.
    pub fn start(&self, stage: Stage, total: usize) {
        if let Ok(mut s) = self.stage.lock() {
            *s = stage;
        }
        self.total.store(total, Ordering::Relaxed);
        self.done.store(0, Ordering::Relaxed);
        self.notify(stage, 0, total);
    }

    /// Reports `done` of `total` steps of the current stage.
    pub fn set(&self, done: usize, total: usize) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
        self.notify(self.stage(), done, total);
    }

    /// One more step of the current stage done (from any thread), then
    /// reports; `Err(Cancelled)` if the export is to stop.
    pub fn step(&self) -> Result<(), ExportError> {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        self.notify(self.stage(), done, self.total.load(Ordering::Relaxed));
        self.check()
    }

    /// `Err(Cancelled)` once the export has been cancelled.
    pub fn check(&self) -> Result<(), ExportError> {
        if self.is_cancelled() { Err(ExportError::Cancelled) } else { Ok(()) }
    }

    fn notify(&self, stage: Stage, done: usize, total: usize) {
        if let Some(sink) = &self.sink
            && !sink(stage, done, total)
        {
            self.cancel();
        }
    }

    /// The current stage.
    pub fn stage(&self) -> Stage {
        self.stage.lock().map_or(Stage::Starting, |s| *s)
    }

    /// Asks the export to stop at its next step; it then writes nothing.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Whether the export was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// `(done, total)` of the current stage; total 0 means not known yet.
    pub fn get(&self) -> (usize, usize) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }
}

/// Why an export wrote nothing: the one error of every exporter.
#[derive(Clone, Debug, PartialEq)]
pub enum ExportError {
    /// An animation name that is not one of the armature's.
    UnknownAnimation {
        /// The name asked for.
        name: String,
        /// The armature's animations.
        known: Vec<String>,
    },
    /// A skin name that is not one of the armature's.
    UnknownSkin {
        /// The name asked for.
        name: String,
        /// The armature's skins.
        known: Vec<String>,
    },
    /// The settings cannot make a picture (size out of range, bad zoom, a
    /// sheet or GIF too large).
    Settings(String),
    /// The `.skf` texture scale is not a positive finite number.
    BadScale(f64),
    /// A picture could not be made (a missing sprite image, …).
    Picture {
        /// The picture's texture name (`SLOT.ATTACHMENT`).
        texture: String,
        /// Why, from the picture source.
        reason: String,
    },
    /// A texture is larger than an atlas page may be.
    AtlasTooLarge {
        /// The picture's texture name.
        texture: String,
        /// Its width in pixels (padding included).
        width: u32,
        /// Its height in pixels (padding included).
        height: u32,
        /// The largest side of an atlas page.
        max: u32,
    },
    /// An animation too long to bake into a `.skf`.
    TooLong {
        /// The animation's name.
        animation: String,
        /// How many frames it would take.
        frames: u64,
    },
    /// Something the format cannot say, or a limit of the export.
    Cannot(String),
    /// A limit of the container (`.tgs`) is not met.
    Limit(String),
    /// A frame could not be drawn.
    Render(String),
    /// A picture or file could not be encoded (PNG, GIF, JSON, zip).
    Encode(String),
    /// A file could not be written.
    Io(IoError),
    /// The export was cancelled ([`Progress`]); nothing was written.
    Cancelled,
}

/// The longest `.skf` animation (in frames) the exporter bakes.
pub const MAX_SKF_FRAMES: u64 = 100_000;

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            }
        };
        match self {
            ExportError::UnknownAnimation { name, known } => {
                write!(f, "there is no animation `{name}`; animations: {}", list(known))
            }
            ExportError::UnknownSkin { name, known } => {
                write!(f, "there is no skin `{name}`; skins: {}", list(known))
            }
            ExportError::BadScale(k) => {
                write!(f, "the scale must be a positive number of pixels per unit, not {k}")
            }
            ExportError::Picture { texture, reason } => {
                write!(f, "cannot make the picture of `{texture}`: {reason}")
            }
            ExportError::AtlasTooLarge { texture, width, height, max } => write!(
                f,
                "atlas too large: the texture of `{texture}` is {width}×{height} pixels, more than the {max}×{max} an atlas page may hold; use a smaller --scale"
            ),
            ExportError::TooLong { animation, frames } => write!(
                f,
                "animation `{animation}` is {frames} frames long, more than the {MAX_SKF_FRAMES} that can be exported"
            ),
            ExportError::Settings(m)
            | ExportError::Cannot(m)
            | ExportError::Limit(m)
            | ExportError::Render(m)
            | ExportError::Encode(m) => f.write_str(m),
            ExportError::Io(e) => e.fmt(f),
            ExportError::Cancelled => f.write_str("the export was cancelled; nothing was written"),
        }
    }
}

impl std::error::Error for ExportError {}

impl From<IoError> for ExportError {
    fn from(e: IoError) -> Self {
        ExportError::Io(e)
    }
}

/// The keys with each bent segment (a timing curve: the Lottie keys bend a
/// one-frame segment through the pose half a frame on, where a straight
/// in-between would miss it) split at its middle into two straight ones,
/// for players with straight lines and holds only (Godot's transitions are
/// exponents of one ease; glTF's LINEAR).
pub fn straightened(
    keys: &[crate::formats::lottie::keys::KeyOut],
) -> Vec<crate::formats::lottie::keys::KeyOut> {
    use crate::formats::lottie::keys::{Ease, KeyOut};
    let mut out = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        let (Ease::Bezier(e), Some(next)) = (k.ease, keys.get(i + 1)) else {
            out.push(k.clone());
            continue;
        };
        out.push(KeyOut { ease: Ease::Linear, ..k.clone() });
        let p = bezier_progress(e, 0.5);
        let value = k.value.iter().zip(&next.value).map(|(a, b)| a + (b - a) * p).collect();
        out.push(KeyOut { frame: (k.frame + next.frame) / 2.0, value, ease: Ease::Linear });
    }
    out
}

/// A timing curve's progress at time `t` (0..1), by the model's one
/// solver ([`skelpad_lang::model::CubicBezier::progress`]).
pub fn bezier_progress([x1, y1, x2, y2]: [f64; 4], t: f64) -> f64 {
    skelpad_lang::model::CubicBezier::new(x1, y1, x2, y2).progress(t)
}

/// The frames after which bone `b`'s matrix relative to its `parent`
/// holds and then jumps at the next frame: half a frame on it is the
/// frame's, and the next frame's is far from it (a flip or a stepped key
/// skelpad switches at once). A player with straight lines must hold
/// there, not glide.
pub fn jumps(
    s: &crate::formats::lottie::frames::Samples,
    plan: &crate::formats::lottie::frames::Plan,
    b: usize,
    parent: Option<usize>,
) -> Vec<usize> {
    use skelpad_lang::model::Affine;
    let rel = |m: &[Affine], f: usize| {
        let own = m[f * s.bones + b];
        match parent {
            Some(p) => m[f * s.bones + p].inverse().filter(|i| i.is_finite()).map(|i| i * own),
            None => Some(own),
        }
    };
    let apart = |x: Affine, y: Affine| {
        x.to_array().iter().zip(y.to_array()).map(|(p, q)| (p - q).abs()).fold(0.0, f64::max)
    };
    let closing: Vec<usize> = plan.anims.iter().map(|a| a.offset + a.frames).collect();
    (0..plan.total.saturating_sub(1))
        .filter(|&f| !closing.contains(&f))
        .filter(|&f| {
            let (Some(a), Some(h), Some(z)) =
                (rel(&s.world, f), rel(&s.half, f), rel(&s.world, f + 1))
            else {
                return false;
            };
            apart(a, h) <= 1e-9 * apart(a, z).max(1.0) && apart(a, z) > 0.5
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn steps_count_from_any_thread_and_a_sink_can_cancel() {
        let seen = Arc::new(AtomicUsize::new(0));
        let s = seen.clone();
        let p = Progress::with_sink(move |_, done, _| {
            s.fetch_max(done, Ordering::Relaxed);
            done < 50
        });
        p.start(Stage::Frames, 100);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..10 {
                        let _ = p.step();
                    }
                });
            }
        });
        assert_eq!(p.get(), (40, 100));
        assert_eq!(seen.load(Ordering::Relaxed), 40);
        assert!(p.check().is_ok());
        for _ in 0..9 {
            assert_eq!(p.step(), Ok(()));
        }
        assert_eq!(p.step(), Err(ExportError::Cancelled), "the 50th step is refused");
        assert!(p.is_cancelled());
        assert_eq!(p.stage(), Stage::Frames);
    }

    #[test]
    fn names_not_found_list_the_ones_there_are() {
        let e = ExportError::UnknownSkin { name: "x".into(), known: vec!["a".into(), "b".into()] };
        assert_eq!(e.to_string(), "there is no skin `x`; skins: `a`, `b`");
        let e = ExportError::UnknownAnimation { name: "x".into(), known: vec![] };
        assert_eq!(e.to_string(), "there is no animation `x`; animations: none");
    }
}
