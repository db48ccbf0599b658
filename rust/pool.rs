//! The worker threads of the whole core: one bounded cache of rayon pools.
//!
//! Every parallel kernel (`evaluate_batch`, the analysis kernels) runs through [`install`]:
//!
//! * A `threads` argument is checked once, by [`check_threads`], everywhere: an integer from
//!   1 to [`MAX_THREADS`]. "Every core" is [`default_threads`].
//! * Pools are cached by size and reused. The cache keeps at most [`CACHED_THREADS`] worker
//!   threads alive in total: asking for a size that does not fit drops the least recently
//!   used pools first (their threads exit as soon as the calls still running on them finish).
//!   So sweeping any number of distinct `threads` values leaves at most `CACHED_THREADS`
//!   idle workers, plus the workers of calls still in flight.
//! * When the operating system refuses to start the threads, the call fails with
//!   [`PoolError::Spawn`] (nothing runs, nothing is cached).
//!
//! Results never depend on the pool: the kernels split work into fixed chunks and merge them
//! in a fixed order.

use std::fmt;
use std::sync::{Arc, Mutex};

/// The largest `threads` value any kernel accepts.
pub const MAX_THREADS: usize = 256;

/// The most idle worker threads the pool cache keeps alive between calls.
pub const CACHED_THREADS: usize = MAX_THREADS;

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

/// The cached pools, least recently used first.
static CACHE: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());

/// The pool of `threads` workers (`1..=MAX_THREADS`), from the cache or new.
fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, PoolError> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(PoolError::BadThreads(threads.to_string()));
    }
    let mut cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(i) = cache.iter().position(|(n, _)| *n == threads) {
        let entry = cache.remove(i);
        let p = entry.1.clone();
        cache.push(entry);
        return Ok(p);
    }
    let mut total: usize = cache.iter().map(|(n, _)| n).sum();
    while total + threads > CACHED_THREADS && !cache.is_empty() {
        total -= cache.remove(0).0;
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("triple_draw-{i}"))
        .build()
        .map_err(|e| PoolError::Spawn {
            threads,
            reason: e.to_string(),
        })?;
    let p = Arc::new(p);
    cache.push((threads, p.clone()));
    Ok(p)
}

/// Runs `f` inside the pool of `threads` workers; rayon's parallel iterators in `f` use it.
pub fn install<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> Result<R, PoolError> {
    let p = pool(threads)?;
    Ok(p.install(f))
}

/// Worker threads currently kept by the cache (for tests and diagnostics).
pub fn cached_threads() -> usize {
    let cache = CACHE.lock().unwrap_or_else(|p| p.into_inner());
    cache.iter().map(|(n, _)| n).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_checked_once_for_every_kernel() {
        assert_eq!(check_threads(1), Ok(1));
        assert_eq!(check_threads(MAX_THREADS as i128), Ok(MAX_THREADS));
        for bad in [0, -1, MAX_THREADS as i128 + 1, 1 << 63, i128::MAX] {
            assert!(matches!(check_threads(bad), Err(PoolError::BadThreads(_))));
        }
        assert!(default_threads() >= 1 && default_threads() <= MAX_THREADS);
    }

    #[test]
    fn the_cache_stays_within_its_thread_budget() {
        for n in 1..=40 {
            assert_eq!(install(n, rayon::current_num_threads).unwrap(), n);
            assert!(cached_threads() <= CACHED_THREADS);
        }
        // The most recent size is reused, not rebuilt.
        let a = pool(40).unwrap();
        let b = pool(40).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert!(matches!(pool(0), Err(PoolError::BadThreads(_))));
        assert!(matches!(
            pool(MAX_THREADS + 1),
            Err(PoolError::BadThreads(_))
        ));
    }
}
