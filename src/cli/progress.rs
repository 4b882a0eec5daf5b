//! The progress of one export on a terminal: an `indicatif` bar on stderr
//! naming the stage ("frames 12/40"), cleared when the export finishes;
//! nothing when stderr is not a terminal (logs and pipes stay clean).

use crate::formats::export::{Progress, Stage};

/// A [`Progress`] drawn as a bar on stderr when `tty`, else unwatched.
pub fn export_progress(tty: bool) -> Progress {
    if !tty {
        return Progress::new();
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("{msg:>10} {bar:30} {pos}/{len} {elapsed}")
    {
        bar.set_style(style);
    }
    Progress::with_sink(move |stage, done, total| {
        if stage == Stage::Writing && done == total {
            bar.finish_and_clear();
        } else {
            bar.set_message(stage.label());
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
        true
    })
}
