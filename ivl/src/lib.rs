//! The `.kbpl` language: syntax tree, parser, diagnostics, name resolution, type checking,
//! pretty-printing, and the salsa database that runs them incrementally.

pub mod ast;
pub mod diag;
pub mod blocks;
