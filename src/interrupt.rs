//! Ctrl-C and SIGTERM end kivl at once: "interrupted" on stderr, exit status 130, and nothing on
//! stdout. Every report is printed only when a run has finished, so an interrupted run never
//! shows a partial Houdini result or the errors of an unfinished search as a verdict.
//!
//! Z3 is configured with `ctrl_c=false` (`vcgen::solver::configure_z3`): its own handler would
//! only cancel the running check, and kivl would carry on. The process ends with `_exit`, which
//! skips the global destructors that solver threads may still be using.

/// Installs the handler (once, at start-up).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        use std::io::Write;
        let _ = writeln!(std::io::stderr(), "interrupted");
        // SAFETY: `_exit` has no preconditions; it ends the process without unwinding or
        // running `atexit` handlers, which is the point.
        unsafe { libc::_exit(130) };
    });
}
