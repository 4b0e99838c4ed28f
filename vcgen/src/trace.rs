//! `KIVL_TRACE`: a line on stderr per solver check, per Houdini check and per implementation
//! built, for profiling. Its own module because the solver, Houdini and the engine all print
//! such lines, and none of them is where the others should look for the switch.

/// Whether `KIVL_TRACE` asks for a line per solver check on stderr (for profiling).
pub fn trace_enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("KIVL_TRACE").is_some())
}
