//! Work cut in parts that several threads take in turn: the parallel parse of a large
//! declaration ([`crate::parser`]'s pieces) and the parallel type check of a large body
//! ([`crate::typeck`]).

use std::sync::atomic::{AtomicUsize, Ordering};

/// Stack of the helper threads: as deep as kivl's main thread, since expressions nest
/// thousands of levels deep (reserved, not committed).
const THREAD_STACK: usize = 256 << 20;

/// How many parts to cut work in for `threads` threads: twice as many, taken in turn, so that a
/// thread slowed down (by another process, a page-fault storm) holds up the others by half a
/// part at most.
pub(crate) fn parts_for(threads: usize) -> usize {
    2 * threads
}

/// Runs `work(worker, k)` for every part `k` in `0..parts`: `workers[0]` on this thread and
/// each other worker on a thread of its own, each taking the next part not yet taken. Returns
/// the results in part order. A helper that cannot be spawned leaves its share to the others;
/// a helper that panics makes the result `Err` with its panic.
pub(crate) fn in_turn<W: Send, R: Send>(
    parts: usize,
    workers: Vec<W>,
    work: impl Fn(&mut W, usize) -> R + Sync,
) -> std::thread::Result<Vec<R>> {
    let next = AtomicUsize::new(0);
    let run = |w: &mut W| {
        let mut done = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            if k >= parts {
                return done;
            }
            done.push((k, work(w, k)));
        }
    };
    let mut workers = workers.into_iter();
    let Some(mut first) = workers.next() else {
        return Ok(Vec::new());
    };
    let mut all = std::thread::scope(|s| {
        let helpers: Vec<_> = workers
            .map(|mut w| std::thread::Builder::new().stack_size(THREAD_STACK).spawn_scoped(s, move || run(&mut w)).ok())
            .collect();
        let mut all = run(&mut first);
        for h in helpers.into_iter().flatten() {
            all.extend(h.join()?);
        }
        Ok(all)
    })?;
    all.sort_by_key(|(k, _)| *k);
    Ok(all.into_iter().map(|(_, r)| r).collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_part_once_in_order() {
        let out = super::in_turn(9, vec![0usize; 3], |seen, k| {
            *seen += 1;
            k * k
        })
        .expect("no panic");
        assert_eq!(out, (0..9).map(|k| k * k).collect::<Vec<_>>());
        assert!(super::in_turn(2, Vec::<()>::new(), |_, k| k).expect("no panic").is_empty());
    }
}
