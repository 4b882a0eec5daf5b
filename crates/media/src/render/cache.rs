//! Tessellations kept between frames, keyed on what they depend on.
//!
//! A key is the outline itself (exact f32 bits, in the space it is
//! tessellated in) plus the operation (fill, or stroke with its style), so
//! an entry can never be stale: a recompiled script, a different skin or a
//! moved path point simply makes a different key. Shapes that look the same
//! share one entry.
//!
//! Fills are kept for any transform. Strokes are kept in attachment space
//! with width `w / scale` when `slot_world · attachment_transform` is a
//! similarity, otherwise stroked in world space and keyed on the transform's
//! linear part; so rigid motion of a rig re-tessellates nothing.

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap as HashMap, FxHasher};

use super::geometry::Outline;
use super::tessellate::{Mesh, Stroke, Tessellator};
use skelpad_lang::model::{LineCap, LineJoin};

/// What to make of an outline. Floats are stored as bits so keys compare
/// exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Op {
    Fill { tolerance: u32, simple: bool },
    Stroke { width: u32, join: u8, cap: u8, miter_limit: u32, tolerance: u32 },
}

impl Op {
    pub fn fill(tolerance: f32, simple: bool) -> Op {
        Op::Fill { tolerance: tolerance.to_bits(), simple }
    }

    pub fn stroke(s: &Stroke, tolerance: f32) -> Op {
        Op::Stroke {
            width: s.width.to_bits(),
            join: s.join as u8,
            cap: s.cap as u8,
            miter_limit: s.miter_limit.to_bits(),
            tolerance: tolerance.to_bits(),
        }
    }
}

fn stroke_of(width: u32, join: u8, cap: u8, miter_limit: u32) -> Stroke {
    let join = match join {
        j if j == LineJoin::Bevel as u8 => LineJoin::Bevel,
        j if j == LineJoin::Round as u8 => LineJoin::Round,
        _ => LineJoin::Miter,
    };
    let cap = match cap {
        c if c == LineCap::Square as u8 => LineCap::Square,
        c if c == LineCap::Round as u8 => LineCap::Round,
        _ => LineCap::Butt,
    };
    Stroke { width: f32::from_bits(width), join, cap, miter_limit: f32::from_bits(miter_limit) }
}

struct Entry {
    outline: Outline,
    op: Op,
    mesh: Mesh,
    /// The mesh's outline loops, made the first time someone asks.
    contours: Option<Vec<u32>>,
    last_used: u64,
}

/// How often the cache answered and how often it had to tessellate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Lookups answered from the cache since the last reset.
    pub hits: u64,
    /// Tessellations run since the last reset.
    pub misses: u64,
    /// Tessellations currently kept.
    pub entries: usize,
}

/// Entries unused for this many builds are dropped when the cache sweeps
/// (enough for an editor frame with onion-skin ghosts, which builds several
/// lists per frame).
const KEEP_BUILDS: u64 = 16;

#[derive(Default)]
pub(crate) struct TessCache {
    map: HashMap<u64, Vec<Entry>>,
    len: usize,
    sweep_at: usize,
    epoch: u64,
    used_this_build: usize,
    hits: u64,
    misses: u64,
    tess: Tessellator,
}

impl TessCache {
    /// Starts one build of a draw list.
    pub fn begin_build(&mut self) {
        self.epoch += 1;
        self.used_this_build = 0;
    }

    /// Ends a build. Once the cache has grown to twice its size after the
    /// last sweep, entries unused in the last few builds are dropped: an
    /// animation that scales a stroked shape makes a new entry per frame,
    /// and sweeping only on doubling keeps the cost per build constant.
    pub fn end_build(&mut self) {
        if self.len > self.sweep_at {
            let horizon = self.epoch.saturating_sub(KEEP_BUILDS);
            let mut len = 0;
            self.map.retain(|_, v| {
                v.retain(|e| e.last_used >= horizon);
                len += v.len();
                !v.is_empty()
            });
            self.len = len;
            self.sweep_at = 2 * len + 1024;
        }
    }

    pub fn stats(&self) -> CacheStats {
        CacheStats { hits: self.hits, misses: self.misses, entries: self.len }
    }

    pub fn reset_stats(&mut self) {
        self.hits = 0;
        self.misses = 0;
    }

    /// The triangles of `op` applied to `outline`, tessellated now or
    /// found, and with `contours` their outline loops.
    pub fn get(&mut self, outline: &Outline, op: Op, contours: bool) -> (&Mesh, Option<&[u32]>) {
        let mut h = FxHasher::default();
        outline.hash(&mut h);
        op.hash(&mut h);
        let key = h.finish();
        let epoch = self.epoch;
        let bucket = self.map.entry(key).or_default();
        self.used_this_build += 1;
        let i = match bucket.iter().position(|e| e.op == op && e.outline == *outline) {
            Some(i) => {
                self.hits += 1;
                i
            }
            None => {
                self.misses += 1;
                let mesh = match op {
                    Op::Fill { tolerance, simple } => {
                        self.tess.fill(outline, f32::from_bits(tolerance), simple)
                    }
                    Op::Stroke { width, join, cap, miter_limit, tolerance } => self.tess.stroke(
                        outline,
                        &stroke_of(width, join, cap, miter_limit),
                        f32::from_bits(tolerance),
                    ),
                };
                bucket.push(Entry {
                    outline: outline.clone(),
                    op,
                    mesh,
                    contours: None,
                    last_used: epoch,
                });
                self.len += 1;
                bucket.len() - 1
            }
        };
        let entry = &mut bucket[i];
        entry.last_used = epoch;
        if contours && entry.contours.is_none() {
            entry.contours = Some(self.tess.contours(&entry.mesh));
        }
        (&entry.mesh, if contours { entry.contours.as_deref() } else { None })
    }
}
