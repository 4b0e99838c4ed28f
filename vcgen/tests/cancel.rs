//! A run cancelled from outside (`vcgen::engine::Cancel`, the driver's speculative second
//! search) stops its running Z3 check at once, with and without Houdini, and reports it as
//! inconclusive; a run that is never cancelled is not disturbed by carrying the handle.

mod vc_common;

use std::sync::Arc;
use std::time::{Duration, Instant};
use vc_common::*;
use vcgen::engine::{Cancel, Outcome, VerifyOptions};

/// `x³ + y³ + z³ = 33` has no solution Z3 finds in minutes (the first was found in 2019), so the
/// assertion neither verifies nor fails within the test's patience. With Houdini, a candidate
/// that the check must also consider.
const HARD: &str = "const {:existential true} b: bool;
procedure P(x: int, y: int, z: int)
{
  assert {:candidate} b ==> x > 0;
  assert x * x * x + y * y * y + z * z * z != 33;
}
";

#[test]
fn a_cancelled_run_stops_its_check_at_once() {
    for houdini in [false, true] {
        let cancel = Arc::new(Cancel::default());
        let opts = VerifyOptions { jobs: 1, houdini, cancel: Some(cancel.clone()), ..Default::default() };
        let canceller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(500));
            cancel.cancel();
        });
        let start = Instant::now();
        let r = verify_with(HARD, &opts);
        canceller.join().unwrap();
        assert!(start.elapsed() < Duration::from_secs(20), "houdini {houdini}: stopped after {:?}", start.elapsed());
        assert!(matches!(r.impls[0].outcome, Outcome::Inconclusive(_)), "houdini {houdini}: {:?}", r.impls[0].outcome);
    }
}

#[test]
fn a_run_that_is_not_cancelled_verifies_as_usual() {
    let src = "procedure Q(x: int) requires x > 2; { assert x * x > 4; }";
    let opts = VerifyOptions { jobs: 1, cancel: Some(Arc::new(Cancel::default())), ..Default::default() };
    assert!(matches!(verify_with(src, &opts).impls[0].outcome, Outcome::Verified));
}
