//! Ctrl-C and SIGTERM end kivl at once: "interrupted" on stderr, exit status 130, and nothing on
//! stdout; the front end's temporary directories are removed first (no file is left behind).
//! Every report is printed only when a run has finished, so an interrupted run never shows a
//! partial Houdini result or the errors of an unfinished search as a verdict.
//!
//! Z3 is configured with `ctrl_c=false` (`vcgen::solver::configure_z3`): its own handler would
//! only cancel the running check, and kivl would carry on. The process ends with `_exit`, which
//! skips the global destructors that solver threads may still be using.

/// Installs the handler (once, at start-up).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        use std::io::Write;
        // The handler runs on its own thread (ctrlc's), where the progress line may be erased.
        crate::progress::clear();
        frontend::remove_temp_dirs();
        let _ = writeln!(std::io::stderr(), "interrupted");
        // SAFETY: `_exit` has no preconditions; it ends the process without unwinding or
        // running `atexit` handlers, which is the point.
        unsafe { libc::_exit(130) };
    });
}

/// When Z3 does not stop at its time limit even when interrupted (`vcgen::watchdog`), ends
/// kivl with the inconclusive status 3 and says why on stderr, rather than run on past
/// `--search-timeout` (a run with `--timeout` is given up by `verify_run` before this, at
/// most `ivl::deadline::wind_down` after its limit). The command line's verdicts are printed only when a run has finished, so no
/// partial verdict is shown.
pub fn give_up_when_z3_is_stuck() {
    vcgen::watchdog::on_stuck(|limit| {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "kivl: Z3 did not stop within {} s of its {} s time limit (--timeout/--search-timeout) and could not be interrupted; no verdict (inconclusive)",
            vcgen::watchdog::STUCK_AFTER.as_secs(),
            limit.as_secs_f64()
        );
        frontend::remove_temp_dirs();
        // SAFETY: as in `install`: ends the process without unwinding past solver threads.
        unsafe { libc::_exit(3) };
    });
}

/// A closed stdout (`kivl transform ... | head`) ends kivl quietly, as it ends `cat`: Rust
/// ignores SIGPIPE and `println!` would panic with "Broken pipe" instead.
pub fn quiet_broken_pipe() {
    // SAFETY: restoring a signal's default disposition has no preconditions.
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
}
