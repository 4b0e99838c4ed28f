//! The `.kbpl` prelude sources bundled with kivl.
//!
//! This crate holds only text and names (it must not depend on `ivl`, which depends on it);
//! `ivl::prelude` parses the text and adds what a kernel needs.

/// The GPU identity constants and their basic facts (`prelude/gpu.kbpl`).
pub const GPU_PRELUDE: &str = include_str!("../prelude/gpu.kbpl");

/// The name under which diagnostics about the prelude are reported.
pub const GPU_PRELUDE_NAME: &str = "<prelude>/gpu.kbpl";

/// Identity attributes whose constant differs from thread to thread (seed 000 §3): the
/// two-thread reduction duplicates these constants, and every axiom that mentions one.
pub const PER_THREAD_IDENTITY: [&str; 6] =
    ["local_id_x", "local_id_y", "local_id_z", "group_id_x", "group_id_y", "group_id_z"];

/// Identity attributes whose constant is the same in every thread (the grid's dimensions).
pub const UNIFORM_IDENTITY: [&str; 6] =
    ["group_size_x", "group_size_y", "group_size_z", "num_groups_x", "num_groups_y", "num_groups_z"];

/// Whether `attr` (without the leading `:`) is one of the identity attributes of docs/kbpl.md §4.
pub fn is_identity_attr(attr: &str) -> bool {
    PER_THREAD_IDENTITY.contains(&attr) || UNIFORM_IDENTITY.contains(&attr)
}

/// Whether `attr` marks a per-thread identity constant (`local_id_*`, `group_id_*`).
pub fn is_per_thread_attr(attr: &str) -> bool {
    PER_THREAD_IDENTITY.contains(&attr)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every identity constant is declared in the prelude, with its attribute, as `int`.
    #[test]
    fn prelude_declares_every_identity_constant() {
        for name in PER_THREAD_IDENTITY.iter().chain(UNIFORM_IDENTITY.iter()) {
            let decl = format!("const {{:{name}}} {name}: int;");
            assert!(GPU_PRELUDE.contains(&decl), "missing `{decl}`");
        }
    }

    #[test]
    fn classification() {
        assert!(is_per_thread_attr("local_id_y") && is_identity_attr("local_id_y"));
        assert!(!is_per_thread_attr("group_size_x") && is_identity_attr("group_size_x"));
        assert!(!is_identity_attr("kernel"));
    }
}
