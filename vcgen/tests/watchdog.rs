//! The watchdog (`vcgen::watchdog`) stops a Z3 check that runs past its deadline, and the
//! context it interrupted goes on working: the next check is not cancelled by the old
//! interrupt (a worker's context verifies many implementations one after another); a
//! cancelled context stops its checks, also those started after the cancellation.

use std::time::{Duration, Instant};
use z3::ast::Int;
use z3::{SatResult, Solver};

/// `x³ + y³ + z³ = 33`: Z3 runs for minutes on it (its solution was found in 2019).
fn sum_of_three_cubes(solver: &Solver) {
    let cube = |name: &str| {
        let v = Int::new_const(name);
        Int::mul(&[v.clone(), v.clone(), v])
    };
    solver.assert(Int::add(&[cube("x"), cube("y"), cube("z")]).eq(Int::from_i64(33)));
}

#[test]
fn an_expired_check_is_interrupted_and_its_context_still_works() {
    vcgen::solver::configure_z3();
    let hard = Solver::new();
    sum_of_three_cubes(&hard);
    let start = Instant::now();
    let result = {
        let _watch = vcgen::watchdog::watch(Instant::now() + Duration::from_millis(300), Duration::from_millis(300));
        hard.check()
    };
    assert_eq!(result, SatResult::Unknown);
    assert!(start.elapsed() < Duration::from_secs(5), "interrupted only after {:?}", start.elapsed());

    let easy = Solver::new();
    easy.assert(Int::new_const("w").eq(Int::from_i64(7)));
    assert_eq!(easy.check(), SatResult::Sat);
}

#[test]
fn a_check_that_ends_in_time_is_left_alone() {
    vcgen::solver::configure_z3();
    let easy = Solver::new();
    easy.assert(Int::new_const("v").gt(Int::from_i64(3)));
    let result = {
        let _watch = vcgen::watchdog::watch(Instant::now() + Duration::from_secs(30), Duration::from_secs(30));
        easy.check()
    };
    assert_eq!(result, SatResult::Sat);
}

/// `--stop-at-first-error` cancels the contexts of later implementations: a check that starts
/// after the cancellation (one `Z3_interrupt` would be lost before it) is stopped too, and once
/// the cancellation ends the context works again.
#[test]
fn a_cancelled_context_stops_checks_started_later_until_uncancelled() {
    vcgen::solver::configure_z3();
    let ctx = z3::Context::thread_local().get_z3_context().as_ptr() as usize;
    vcgen::watchdog::cancel(ctx);
    let hard = Solver::new();
    sum_of_three_cubes(&hard);
    let result = {
        let _watch = vcgen::watchdog::watch_unlimited();
        hard.check()
    };
    assert_eq!(result, SatResult::Unknown);
    vcgen::watchdog::uncancel(ctx);

    let easy = Solver::new();
    easy.assert(Int::new_const("u").eq(Int::from_i64(5)));
    let result = {
        let _watch = vcgen::watchdog::watch_unlimited();
        easy.check()
    };
    assert_eq!(result, SatResult::Sat);
}
