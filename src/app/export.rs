//! Exports from the editor: what can be exported, the settings the user
//! picks, and the worker thread that does the work while the UI keeps
//! running and shows its progress.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, channel};

/// What the result of an export is: the files written, or why nothing was.
pub type ExportResult = Result<Vec<PathBuf>, String>;

/// Progress shared between a worker and the UI.
#[derive(Default)]
pub struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
    cancelled: AtomicBool,
}

impl Progress {
    /// Reports `done` of `total` steps.
    pub fn set(&self, done: usize, total: usize) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
    }

    /// `(done, total)`; total 0 means not known yet.
    pub fn get(&self) -> (usize, usize) {
        (self.done.load(Ordering::Relaxed), self.total.load(Ordering::Relaxed))
    }

    /// Asks the worker to stop; workers check [`Progress::is_cancelled`]
    /// between steps.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }
}

/// An export running on its own thread.
pub struct ExportJob {
    /// What is being exported, for the status bar ("GIF to walk.gif").
    pub label: String,
    pub progress: Arc<Progress>,
    result: Receiver<ExportResult>,
}

impl ExportJob {
    /// Runs `work` on a worker thread. `work` reports progress through the
    /// [`Progress`] it is given; `wake` is called after each report and at
    /// the end, so the UI repaints.
    pub fn spawn(
        label: String,
        work: impl FnOnce(&Progress) -> ExportResult + Send + 'static,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> ExportJob {
        let progress = Arc::new(Progress::default());
        let (tx, result) = channel();
        let shared = progress.clone();
        let spawned = std::thread::Builder::new().name("export".into()).spawn(move || {
            let out = work(&shared);
            let _ = tx.send(out);
            wake();
        });
        if let Err(e) = spawned {
            let (tx, rx) = channel();
            let _ = tx.send(Err(format!("cannot start the export: {e}")));
            return ExportJob { label, progress, result: rx };
        }
        ExportJob { label, progress, result }
    }

    /// The result once the worker is done.
    pub fn poll(&self) -> Option<ExportResult> {
        match self.result.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err("the export stopped unexpectedly".into())),
        }
    }

    /// Done fraction, when the total is known.
    pub fn fraction(&self) -> Option<f32> {
        let (done, total) = self.progress.get();
        (total > 0).then(|| done as f32 / total as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::sync_channel;

    #[test]
    fn a_job_reports_progress_while_it_runs_and_then_its_result() {
        let (step_tx, step_rx) = sync_channel::<()>(0);
        let job = ExportJob::spawn(
            "test".into(),
            move |p| {
                for i in 0..3 {
                    p.set(i, 3);
                    // Wait for the test to let the worker go on.
                    step_rx.recv().map_err(|e| e.to_string())?;
                }
                p.set(3, 3);
                Ok(vec![PathBuf::from("out.png")])
            },
            || {},
        );
        step_tx.send(()).unwrap();
        step_tx.send(()).unwrap();
        // The worker is blocked on its third step: still running.
        assert!(job.poll().is_none());
        assert!(job.fraction().is_some_and(|f| f < 1.0));
        step_tx.send(()).unwrap();
        let result = loop {
            if let Some(r) = job.poll() {
                break r;
            }
            std::thread::yield_now();
        };
        assert_eq!(result, Ok(vec![PathBuf::from("out.png")]));
        assert_eq!(job.fraction(), Some(1.0));
    }

    #[test]
    fn a_panicking_worker_is_an_error_not_a_hang() {
        let job = ExportJob::spawn("boom".into(), |_| panic!("worker failed"), || {});
        let result = loop {
            if let Some(r) = job.poll() {
                break r;
            }
            std::thread::yield_now();
        };
        assert!(result.is_err());
    }
}
