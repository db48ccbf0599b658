//! The worker threads of the whole core: one shared rayon pool, and a bound on each call.
//!
//! Every parallel kernel (`evaluate_batch`, the analysis kernels) runs through [`map`],
//! [`map_items`] or [`fold`]:
//!
//! * A `threads` argument is checked once, by [`check_threads`], everywhere: an integer from
//!   1 to [`MAX_THREADS`]. "Every core" is [`default_threads`].
//! * There is one pool. It has as many workers as the largest `threads` any call has asked
//!   for so far, and no more: a call that asks for more replaces it by a larger one, and the
//!   old pool's workers are joined (at once, or by the last call still running on it when it
//!   finishes). A call asking for fewer uses the same pool but runs at most `threads` *lanes*
//!   at a time in it, so it never occupies more than `threads` workers. `threads=1` runs on
//!   the calling thread and starts nothing. So after any sequence of calls the process holds
//!   at most `max(threads asked)` workers (at most [`MAX_THREADS`]), plus, while a call that
//!   started before a larger pool replaced its own is still running, that call's workers.
//! * A lane takes work items from a shared counter, in index order, until none is left. A
//!   kernel called from inside a lane (the analysis kernels nest) runs inline on that lane,
//!   so nesting does not multiply the parallelism either.
//! * When the operating system refuses to start the threads, the call fails with
//!   [`PoolError::Spawn`] (nothing runs; the previous pool is kept).
//!
//! Results never depend on the pool or on `threads`: the kernels split their work into
//! fixed items (chunks seeded by their index), results come back in index order, and the
//! accumulators of [`fold`] are merged by the kernels with exact (integer) arithmetic.

use std::cell::Cell;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The largest `threads` value any kernel accepts.
pub const MAX_THREADS: usize = 256;

/// Why a pool could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolError {
    /// A `threads` value outside `1..=MAX_THREADS`; carries the value as text.
    BadThreads(String),
    /// The operating system would not start the worker threads.
    Spawn { threads: usize, reason: String },
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::BadThreads(v) => write!(
                f,
                "threads must be an int from 1 to {MAX_THREADS} (or None for every core), got {v}"
            ),
            PoolError::Spawn { threads, reason } => {
                write!(f, "could not start {threads} worker threads: {reason}")
            }
        }
    }
}

impl std::error::Error for PoolError {}

/// Checks a `threads` value.
pub fn check_threads(n: i128) -> Result<usize, PoolError> {
    if (1..=MAX_THREADS as i128).contains(&n) {
        Ok(n as usize)
    } else {
        Err(PoolError::BadThreads(n.to_string()))
    }
}

/// "Every core": the available parallelism, at most [`MAX_THREADS`].
pub fn default_threads() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .clamp(1, MAX_THREADS)
}

/// Worker threads alive right now, of every pool (for tests and diagnostics).
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// Worker threads of the core alive right now: the shared pool's, plus those of a replaced
/// pool that a running call still uses or whose threads are still exiting.
pub fn worker_threads() -> usize {
    LIVE.load(Ordering::SeqCst)
}

/// A rayon pool whose worker threads are joined when it is dropped.
struct Workers {
    size: usize,
    pool: Option<rayon::ThreadPool>,
    handles: Vec<JoinHandle<()>>,
}

impl Drop for Workers {
    fn drop(&mut self) {
        // A worker cannot join itself: if the last reference goes away on one of this
        // pool's own workers, the threads exit on their own.
        let own = self
            .pool
            .as_ref()
            .is_some_and(|p| p.current_thread_index().is_some());
        drop(self.pool.take()); // tells the workers to exit once idle
        if !own {
            for h in self.handles.drain(..) {
                let _ = h.join();
            }
        }
    }
}

/// Counts a worker thread as alive for as long as it exists.
struct Alive;

impl Alive {
    fn new() -> Alive {
        LIVE.fetch_add(1, Ordering::SeqCst);
        Alive
    }
}

impl Drop for Alive {
    fn drop(&mut self) {
        LIVE.fetch_sub(1, Ordering::SeqCst);
    }
}

fn build(threads: usize) -> Result<Workers, PoolError> {
    let handles = Mutex::new(Vec::with_capacity(threads));
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .spawn_handler(|thread| {
            let name = format!("triple_draw-{}", thread.index());
            let h = std::thread::Builder::new().name(name).spawn(move || {
                let _alive = Alive::new();
                thread.run()
            })?;
            handles.lock().unwrap_or_else(|p| p.into_inner()).push(h);
            Ok(())
        })
        .build();
    let handles = handles.into_inner().unwrap_or_else(|p| p.into_inner());
    match built {
        Ok(pool) => Ok(Workers {
            size: threads,
            pool: Some(pool),
            handles,
        }),
        Err(e) => {
            // rayon has told the workers it did start to exit.
            for h in handles {
                let _ = h.join();
            }
            Err(PoolError::Spawn {
                threads,
                reason: e.to_string(),
            })
        }
    }
}

/// The shared pool.
static SHARED: Mutex<Option<Arc<Workers>>> = Mutex::new(None);

/// The shared pool, grown to at least `threads` workers (`1..=MAX_THREADS`).
fn shared(threads: usize) -> Result<Arc<Workers>, PoolError> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(PoolError::BadThreads(threads.to_string()));
    }
    let mut slot = SHARED.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(w) = slot.as_ref() {
        if w.size >= threads {
            return Ok(w.clone());
        }
    }
    let w = Arc::new(build(threads)?);
    let old = slot.replace(w.clone());
    drop(slot);
    // Joins the old workers now unless a running call still uses them (then that call's
    // end does).
    drop(old);
    Ok(w)
}

thread_local! {
    /// Whether this thread is running a lane (nested kernels then run inline).
    static IN_LANE: Cell<bool> = const { Cell::new(false) };
}

/// Marks the current thread as running a lane until dropped.
struct Lane(bool);

impl Lane {
    fn enter() -> Lane {
        Lane(IN_LANE.replace(true))
    }
}

impl Drop for Lane {
    fn drop(&mut self) {
        IN_LANE.set(self.0);
    }
}

/// Runs `lane()` `min(threads, wanted)` times at once (at least once), each on its own
/// worker of the shared pool; their results in no particular order. One lane, or a call
/// from inside a lane, runs on the calling thread.
fn lanes<R: Send>(
    threads: usize,
    wanted: usize,
    lane: impl Fn() -> R + Sync,
) -> Result<Vec<R>, PoolError> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(PoolError::BadThreads(threads.to_string()));
    }
    let n = threads.min(wanted).max(1);
    if n == 1 || IN_LANE.get() {
        let _lane = Lane::enter();
        return Ok(vec![lane()]);
    }
    let w = shared(n)?;
    let out = Mutex::new(Vec::with_capacity(n));
    let pool = w.pool.as_ref().expect("a live pool keeps its rayon pool");
    pool.scope(|s| {
        for _ in 0..n {
            s.spawn(|_| {
                let r = {
                    let _lane = Lane::enter();
                    lane()
                };
                out.lock().unwrap_or_else(|p| p.into_inner()).push(r);
            });
        }
    });
    Ok(out.into_inner().unwrap_or_else(|p| p.into_inner()))
}

/// Runs `step(&mut acc, i)` for every `i` in `0..n` on at most `threads` workers, each lane
/// with its own accumulator from `init`; the accumulators, in no particular order (merge
/// them with an operation for which the order does not matter).
///
/// The first `Err` stops the lanes from taking more items; the error returned is that of
/// the smallest failing `i`, which is the same for any `threads` (items are taken in index
/// order and an item taken is always finished).
pub fn fold<A, E>(
    threads: usize,
    n: usize,
    init: impl Fn() -> A + Sync,
    step: impl Fn(&mut A, usize) -> Result<(), E> + Sync,
) -> Result<Result<Vec<A>, E>, PoolError>
where
    A: Send,
    E: Send,
{
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let failed: Mutex<Option<(usize, E)>> = Mutex::new(None);
    let accs = lanes(threads, n, || {
        let mut acc = init();
        while !stop.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                break;
            }
            if let Err(e) = step(&mut acc, i) {
                stop.store(true, Ordering::Relaxed);
                let mut f = failed.lock().unwrap_or_else(|p| p.into_inner());
                if f.as_ref().is_none_or(|(j, _)| i < *j) {
                    *f = Some((i, e));
                }
                break;
            }
        }
        acc
    })?;
    Ok(
        match failed.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some((_, e)) => Err(e),
            None => Ok(accs),
        },
    )
}

/// `f(i)` for every `i` in `0..n`, on at most `threads` workers; the results in index order.
pub fn map<R: Send>(
    threads: usize,
    n: usize,
    f: impl Fn(usize) -> R + Sync,
) -> Result<Vec<R>, PoolError> {
    let parts = fold(threads, n, Vec::new, |acc: &mut Vec<(usize, R)>, i| {
        acc.push((i, f(i)));
        Ok::<(), std::convert::Infallible>(())
    })?;
    let Ok(parts) = parts;
    let mut all: Vec<(usize, R)> = parts.into_iter().flatten().collect();
    all.sort_unstable_by_key(|(i, _)| *i);
    Ok(all.into_iter().map(|(_, r)| r).collect())
}

/// `f(i, item)` for every item (moved into `f`), on at most `threads` workers; the results
/// in the items' order. For work on disjoint `&mut` parts of one buffer.
pub fn map_items<T: Send, R: Send>(
    threads: usize,
    items: Vec<T>,
    f: impl Fn(usize, T) -> R + Sync,
) -> Result<Vec<R>, PoolError> {
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    map(threads, slots.len(), |i| {
        let item = slots[i]
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
            .expect("every item is taken once");
        f(i, item)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Serialises the tests of this module that ask for more than 4 threads or look at
    /// the shared pool's size.
    static SERIAL: Mutex<()> = Mutex::new(());

    fn shared_size() -> usize {
        SHARED.lock().unwrap().as_ref().map_or(0, |w| w.size)
    }

    /// Waits (up to 10 s) for the workers of pools replaced under calls of other tests
    /// running at the same time to be joined.
    fn settled_workers() -> usize {
        let t0 = Instant::now();
        while worker_threads() > shared_size() && t0.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        worker_threads()
    }

    #[test]
    fn threads_are_checked_once_for_every_kernel() {
        assert_eq!(check_threads(1), Ok(1));
        assert_eq!(check_threads(MAX_THREADS as i128), Ok(MAX_THREADS));
        for bad in [0, -1, MAX_THREADS as i128 + 1, 1 << 63, i128::MAX] {
            assert!(matches!(check_threads(bad), Err(PoolError::BadThreads(_))));
        }
        assert!(default_threads() >= 1 && default_threads() <= MAX_THREADS);
        for bad in [0, MAX_THREADS + 1] {
            assert!(matches!(map(bad, 4, |i| i), Err(PoolError::BadThreads(_))));
            assert!(matches!(shared(bad), Err(PoolError::BadThreads(_))));
        }
    }

    /// The most `threads` the other tests of the crate (running at the same time) ask for:
    /// 4, or every core (`None`).
    fn others() -> usize {
        default_threads().max(4)
    }

    #[test]
    fn one_pool_never_holds_more_workers_than_the_largest_threads_asked() {
        let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        let mut largest = shared_size().max(others());
        for n in 1..=65 {
            let want: Vec<usize> = (0..3 * n).map(|i| i * 2).collect();
            assert_eq!(map(n, 3 * n, |i| i * 2).unwrap(), want);
            largest = largest.max(n);
            assert!((n == 1 || shared_size() >= n) && shared_size() <= largest);
            assert!(
                settled_workers() <= largest,
                "{} > {largest}",
                worker_threads()
            );
        }
        // Smaller calls afterwards reuse the pool: nothing is started.
        let before = shared(1).unwrap();
        for n in (1..=65).rev() {
            map(n, 100, |i| i).unwrap();
        }
        assert!(Arc::ptr_eq(&before, &shared(1).unwrap()));
        assert!(settled_workers() <= largest);
    }

    #[test]
    fn a_call_occupies_at_most_its_threads_even_in_a_larger_pool() {
        let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        shared(8).unwrap(); // a larger pool than the calls below ask for
        let busy = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let work = |_| {
            let now = busy.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(Duration::from_millis(2));
            busy.fetch_sub(1, Ordering::SeqCst);
        };
        for threads in [1, 2, 3] {
            most.store(0, Ordering::SeqCst);
            map(threads, 40, work).unwrap();
            let m = most.load(Ordering::SeqCst);
            assert!(m >= 1 && m <= threads, "{m} at once with threads={threads}");
        }
        // Nested calls run inline in their lane: 3 lanes of 3 never make 9.
        most.store(0, Ordering::SeqCst);
        map(3, 6, |_| map(3, 6, work).unwrap()).unwrap();
        let m = most.load(Ordering::SeqCst);
        assert!(m <= 3, "{m} at once with nested threads=3");
    }

    #[test]
    fn one_thread_runs_on_the_caller() {
        let me = std::thread::current().id();
        let ids = map(1, 5, |_| std::thread::current().id()).unwrap();
        assert!(ids.iter().all(|&id| id == me));
        assert_eq!(map(4, 0, |i| i).unwrap(), Vec::<usize>::new());
    }

    #[test]
    fn results_and_the_first_error_do_not_depend_on_threads() {
        let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        let want: Vec<u64> = (0..500u64).map(|i| i * i).collect();
        for threads in [1, 2, 3, 7, 16] {
            assert_eq!(map(threads, 500, |i| (i * i) as u64).unwrap(), want);
            let items: Vec<u64> = (0..50).collect();
            assert_eq!(
                map_items(threads, items, |i, x| (i as u64, x + 1)).unwrap(),
                (0..50u64).map(|i| (i, i + 1)).collect::<Vec<_>>()
            );
            let sum = fold(
                threads,
                1000,
                || 0u64,
                |a, i| {
                    *a += i as u64;
                    Ok::<(), ()>(())
                },
            )
            .unwrap()
            .unwrap();
            assert!(sum.len() <= threads);
            assert_eq!(sum.iter().sum::<u64>(), 999 * 1000 / 2);
            // Items 300 and 700 fail; the error is always item 300's.
            let r = fold(
                threads,
                1000,
                || (),
                |_, i| {
                    if i == 300 || i == 700 {
                        Err(i)
                    } else {
                        Ok(())
                    }
                },
            )
            .unwrap();
            assert_eq!(r.err(), Some(300), "threads={threads}");
        }
    }
}
