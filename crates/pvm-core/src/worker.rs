//! Long-lived big-stack threads that run PVM invocations.
//!
//! The parser and the interpreter recurse, so an invocation runs on a thread with a
//! [`STACK_BYTES`] stack. Spawning such a thread for every invocation costs more than a small
//! handler call itself (the stack is mapped, faulted in and unmapped every time), so
//! [`run`] hands the job to an idle worker thread instead and blocks until it is done.
//!
//! Determinism: a worker starts every job exactly like a fresh thread would —
//! [`crate::heap::reset`] releases anything a previous job left behind and zeroes the heap
//! counter — so whether a job runs on a new or a reused thread never changes its outcome.
//! The only other per-thread state (dict version tags and the class-flags epoch, both
//! compared only for equality) is never observable.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::mpsc::{
    Receiver, RecvError, Sender, SyncSender, TryRecvError, channel, sync_channel,
};
use std::time::{Duration, Instant};

/// Stack reserved for each interpreter thread.
pub const STACK_BYTES: usize = 256 << 20;

/// Idle workers kept for reuse; more concurrent callers get extra workers that exit afterwards.
pub const MAX_IDLE: usize = 4;

/// How long each side of a hand-off polls before it blocks: the caller for its result, an
/// idle worker for its next job. A blocked thread must be woken by the kernel, which on a
/// busy machine costs tens to hundreds of microseconds per call — as much as a small actor
/// call itself — while a caller that makes call after call (a block's transactions, with
/// ~100 µs of its own work in between) or a job that finishes within this window is picked up
/// at once. Only scheduling depends on it, never a result.
pub const SPIN: Duration = Duration::from_micros(200);

type Job = Box<dyn FnOnce() + Send + 'static>;

/// `rx.recv()`, polling for up to [`SPIN`] before blocking.
fn recv_spinning<T>(rx: &Receiver<T>) -> Result<T, RecvError> {
    let start = Instant::now();
    loop {
        for _ in 0..64 {
            match rx.try_recv() {
                Ok(v) => return Ok(v),
                Err(TryRecvError::Disconnected) => return Err(RecvError),
                Err(TryRecvError::Empty) => std::hint::spin_loop(),
            }
        }
        if start.elapsed() >= SPIN {
            return rx.recv();
        }
    }
}

/// One job in flight. Dropping it — after it ran, or unrun if the worker is gone — first
/// drops the job and only then wakes the caller, so the caller never returns while the
/// job (which borrows the caller's stack) still exists.
struct Msg {
    job: Option<Job>,
    done: SyncSender<()>,
}

impl Drop for Msg {
    fn drop(&mut self) {
        drop(self.job.take());
        let _ = self.done.send(());
    }
}

struct Worker {
    tx: Sender<Msg>,
}

static IDLE: Mutex<Vec<Worker>> = Mutex::new(Vec::new());

fn worker_loop(rx: Receiver<Msg>) {
    while let Ok(mut msg) = recv_spinning(&rx) {
        crate::heap::reset();
        if let Some(job) = msg.job.take() {
            job();
        }
        drop(msg);
    }
}

fn spawn_worker() -> Option<Worker> {
    let (tx, rx) = channel::<Msg>();
    std::thread::Builder::new()
        .name("pvm".into())
        .stack_size(STACK_BYTES)
        .spawn(move || worker_loop(rx))
        .ok()?;
    Some(Worker { tx })
}

/// Run `f` on a big-stack PVM thread and return its result; `None` if it panicked or no
/// thread could be started. Blocks until `f` has finished.
pub fn run<R: Send>(f: impl FnOnce() -> R + Send) -> Option<R> {
    let mut slot: Option<R> = None;
    let (done_tx, done_rx) = sync_channel::<()>(1);
    {
        let out = &mut slot;
        let job: Box<dyn FnOnce() + Send + '_> = Box::new(move || {
            if let Ok(r) = catch_unwind(AssertUnwindSafe(f)) {
                *out = Some(r);
            }
        });
        // SAFETY: the job borrows from this stack frame (`slot` and whatever `f` captured).
        // Erasing that lifetime is sound because this function does not return, and cannot
        // unwind, until the job has been dropped: every path drops the job inside a `Msg`
        // whose `Drop` drops the job *before* signalling `done`, and we wait for that signal
        // below (a send failure hands the `Msg` back to us, and it is dropped here).
        let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) };
        let msg = Msg {
            job: Some(job),
            done: done_tx,
        };
        let mut msg = Some(msg);
        let mut sent = None;
        // An idle worker first; if it turns out to be gone, a fresh one.
        let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
        for worker in [idle, None] {
            let Some(m) = msg.take() else { break };
            let Some(w) = worker.or_else(spawn_worker) else {
                msg = Some(m);
                continue;
            };
            match w.tx.send(m) {
                Ok(()) => sent = Some(w),
                Err(e) => msg = Some(e.0),
            }
        }
        // Not sent: dropping the message drops the job and signals `done`.
        drop(msg);
        // Wait until the job has run and been dropped (or was dropped unrun).
        let _ = recv_spinning(&done_rx);
        if let Some(w) = sent {
            let mut idle = IDLE.lock().unwrap_or_else(|e| e.into_inner());
            if idle.len() < MAX_IDLE {
                idle.push(w);
            }
        }
    }
    slot
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_borrowing_jobs_and_survives_panics() {
        let mut v = vec![1, 2, 3];
        let r = run(|| {
            v.push(4);
            v.iter().sum::<i32>()
        });
        assert_eq!(r, Some(10));
        assert_eq!(v.len(), 4);
        let p = run(|| -> i32 { panic!("job panics") });
        assert_eq!(p, None);
        // the pool still works after a panic
        assert_eq!(run(|| 7), Some(7));
    }

    #[test]
    fn jobs_start_with_a_zero_heap_counter() {
        // leave accounting behind on a worker, then check the next job starts from zero
        for _ in 0..3 {
            let used = run(|| {
                let start = crate::heap::used();
                let v = crate::value::Value::list(vec![crate::value::Value::Int(1); 10]);
                if let crate::value::Value::List(l) = &v {
                    l.v.borrow_mut().push(v.clone());
                }
                start
            });
            assert_eq!(used, Some(0));
        }
    }

    #[test]
    fn concurrent_callers_each_get_a_thread() {
        let hs: Vec<_> = (0..6)
            .map(|i| std::thread::spawn(move || run(move || i * 2)))
            .collect();
        let got: Vec<_> = hs.into_iter().map(|h| h.join().ok().flatten()).collect();
        assert_eq!(got, (0..6).map(|i| Some(i * 2)).collect::<Vec<_>>());
    }
}
