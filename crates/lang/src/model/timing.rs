//! An animation's frames: how many there are at a frame rate and when they
//! fall. Every exporter, the CLI and the editor count frames here, so a
//! sprite sheet, a GIF, a Lottie file and the timeline agree.

use super::{Animation, MAX_KEY_FRAME};

impl Animation {
    /// The number of frames at the animation's own frame rate: every whole
    /// frame in `[0, duration)`, at least one (see [`Animation::frame_count_at`]).
    pub fn frame_count(&self) -> u64 {
        self.frame_count_at(self.fps)
    }

    /// The number of frames at `fps`: every whole frame in `[0, duration)`
    /// (a looping animation's last instant is its first), at least one. The
    /// language keeps keys within [`MAX_KEY_FRAME`] frames; the cap (also
    /// the answer for a count that is not a number) only guards animations
    /// from elsewhere and frame rates given by a caller, so a caller that
    /// allows fewer frames sees the count above its own limit.
    pub fn frame_count_at(&self, fps: f64) -> u64 {
        let n = (self.duration_secs * fps - 1e-9).ceil();
        if n.is_nan() { MAX_KEY_FRAME as u64 } else { n.clamp(1.0, MAX_KEY_FRAME) as u64 }
    }

    /// The times of the frames at the animation's frame rate: `k / fps` for
    /// every frame of [`Animation::frame_count`] (just 0 for an animation
    /// without keys).
    pub fn frame_times(&self) -> Vec<f64> {
        (0..self.frame_count()).map(|k| k as f64 / self.fps).collect()
    }

    /// The number of the last frame the timeline shows: the duration in
    /// frames, rounded up (0 for an animation without keys). A looping
    /// animation shows the same pose there as at frame 0.
    pub fn last_frame(&self) -> i64 {
        (self.duration_secs * self.fps - 1e-6).ceil().max(0.0) as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anim(duration_secs: f64, fps: f64) -> Animation {
        Animation { duration_secs, fps, ..Animation::empty("a", fps) }
    }

    #[test]
    fn frames_cover_one_loop_at_every_whole_frame() {
        let a = anim(1.0, 4.0);
        assert_eq!(a.frame_count(), 4, "0, 0.25, 0.5, 0.75: 1.0 is frame 0 again");
        assert_eq!(a.frame_times(), vec![0.0, 0.25, 0.5, 0.75]);
        assert_eq!(a.last_frame(), 4);
        let part = anim(1.1, 10.0);
        assert_eq!(part.frame_count(), 11, "a part frame at the end is a frame");
        assert_eq!(anim(0.0, 30.0).frame_times(), vec![0.0], "no keys: one frame");
        assert_eq!(anim(0.0, 30.0).last_frame(), 0);
    }

    #[test]
    fn counts_at_another_rate_are_capped_not_wrapped() {
        let a = anim(2.0, 30.0);
        assert_eq!(a.frame_count_at(60.0), 120);
        assert_eq!(a.frame_count_at(f64::INFINITY), MAX_KEY_FRAME as u64);
        assert_eq!(a.frame_count_at(f64::NAN), MAX_KEY_FRAME as u64);
        assert_eq!(anim(1e300, 30.0).frame_count(), MAX_KEY_FRAME as u64);
    }
}
