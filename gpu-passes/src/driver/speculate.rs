//! Two Houdini searches where the second counts only when the first does not verify: kernels
//! first without their modular candidates ([`super::staged`]), GPUVerify's `.bpl` first as
//! GPUVerify wrote it and then with kivl's strided-access candidates
//! ([`crate::gpuverify_bpl`]). On one thread they run one after the other. With two threads
//! or more the second starts at once beside the first (each gets half the threads) and is
//! cancelled ([`vcgen::engine::Cancel`]) when the first verifies: a kernel that needs the second
//! search, or has an error, then waits for the longer of the two instead of their sum.
//!
//! The report does not depend on the thread count (issue 23): each search runs in Z3 contexts
//! of its own whatever runs beside it, so its result is the one it would have had alone, and
//! the same rule picks between them; the solver checks of a cancelled second search are taken
//! back from the report's count (`vcgen::solver::discount`). Not with `--portfolio` or
//! `--split-vc`, which give one search all the threads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use vcgen::engine::{Cancel, ProgramResult, VerifyOptions, WORKER_STACK};
use vcgen::progress::Observer;

/// The first search's result, and the second's when the first did not verify (exit status
/// other than 0). `run(program, options)` is one search.
pub fn first_then_second<P: Sync>(
    first: &P,
    second: &P,
    opts: &VerifyOptions,
    run: impl Fn(&P, &VerifyOptions) -> ProgramResult + Sync,
) -> (ProgramResult, Option<ProgramResult>) {
    let jobs = opts.threads();
    let one_search_takes_all = opts.portfolio || opts.split_vc || opts.cancel.is_some();
    if jobs < 2 || one_search_takes_all {
        return sequential(first, second, opts, &run);
    }
    let cancel = Arc::new(Cancel::default());
    // The second search's progress is shown once it is the one that counts.
    let counts = Arc::new(AtomicBool::new(false));
    let (shown, observer) = (counts.clone(), opts.observer.clone());
    let first_opts = VerifyOptions { jobs: jobs - jobs / 2, ..opts.clone() };
    let second_opts = VerifyOptions {
        jobs: jobs / 2,
        cancel: Some(cancel.clone()),
        observer: Observer::new(move |p| {
            if shown.load(Ordering::SeqCst) {
                observer.notify(p.clone());
            }
        }),
        ..opts.clone()
    };
    std::thread::scope(|s| {
        let spawned = std::thread::Builder::new()
            .name("kivl-second-search".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(s, || run(second, &second_opts));
        let Ok(handle) = spawned else { return sequential(first, second, opts, &run) };
        let r1 = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(first, &first_opts)));
        let verified = matches!(&r1, Ok(r) if r.exit_code() == 0);
        if verified || r1.is_err() {
            cancel.cancel();
        }
        counts.store(true, Ordering::SeqCst);
        let r2 = handle.join();
        let r1 = r1.unwrap_or_else(|e| std::panic::resume_unwind(e));
        if verified {
            // One thread would not have run it: its checks are not the report's.
            vcgen::solver::discount(cancel.checks());
            return (r1, None);
        }
        (r1, Some(r2.unwrap_or_else(|e| std::panic::resume_unwind(e))))
    })
}

fn sequential<P>(
    first: &P,
    second: &P,
    opts: &VerifyOptions,
    run: &impl Fn(&P, &VerifyOptions) -> ProgramResult,
) -> (ProgramResult, Option<ProgramResult>) {
    let r1 = run(first, opts);
    if r1.exit_code() == 0 {
        return (r1, None);
    }
    let r2 = run(second, opts);
    (r1, Some(r2))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ivl::ast::Span;
    use std::sync::atomic::AtomicUsize;
    use std::time::{Duration, Instant};
    use vcgen::engine::{ImplResult, Outcome};

    fn result(outcome: Outcome) -> ProgramResult {
        let imp = ImplResult { name: "k".into(), span: Span::DUMMY, outcome, time: Duration::ZERO };
        ProgramResult { impls: vec![imp], ..Default::default() }
    }

    fn opts(jobs: usize) -> VerifyOptions {
        VerifyOptions { jobs, ..Default::default() }
    }

    /// The second search as a long check would run it: until it is cancelled (or a minute).
    fn until_cancelled(o: &VerifyOptions) -> ProgramResult {
        let cancel = o.cancel.as_ref().expect("a side-by-side second search can be cancelled");
        let start = Instant::now();
        while !cancel.is_cancelled() && start.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(1));
        }
        result(Outcome::Inconclusive("cancelled".into()))
    }

    #[test]
    fn a_first_search_that_verifies_cancels_the_second_and_is_the_result() {
        let start = Instant::now();
        let (first, second) = first_then_second(&1, &2, &opts(2), |p, o| match p {
            1 => result(Outcome::Verified),
            _ => until_cancelled(o),
        });
        assert_eq!((first.exit_code(), second.is_none()), (0, true));
        assert!(start.elapsed() < Duration::from_secs(30), "the second search was not cancelled");
    }

    #[test]
    fn a_first_search_that_fails_gives_both_results_each_on_half_the_threads() {
        let threads = std::sync::Mutex::new(Vec::new());
        let (first, second) = first_then_second(&1, &2, &opts(4), |p, o| {
            threads.lock().unwrap().push((*p, o.jobs, o.cancel.is_some()));
            match p {
                1 => result(Outcome::Errors(Vec::new())),
                _ => result(Outcome::Verified),
            }
        });
        assert_eq!((first.exit_code(), second.map(|s| s.exit_code())), (1, Some(0)));
        let mut threads = threads.into_inner().unwrap();
        threads.sort();
        assert_eq!(threads, vec![(1, 2, false), (2, 2, true)]);
    }

    #[test]
    fn on_one_thread_or_with_a_portfolio_the_second_search_runs_only_when_needed() {
        for o in [opts(1), VerifyOptions { portfolio: true, ..opts(2) }] {
            let runs = AtomicUsize::new(0);
            let (first, second) = first_then_second(&1, &2, &o, |_, seen| {
                runs.fetch_add(1, Ordering::SeqCst);
                assert_eq!((seen.jobs, seen.cancel.is_some()), (o.jobs, false));
                result(Outcome::Verified)
            });
            assert_eq!((first.exit_code(), second.is_none(), runs.into_inner()), (0, true, 1));
        }
    }
}
