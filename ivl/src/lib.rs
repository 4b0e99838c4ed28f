//! The `.kbpl` language: syntax tree, parser, diagnostics, name resolution, type checking,
//! pretty-printing, and the salsa database that runs them incrementally.

pub mod ast;
pub mod diag;
pub mod lexer;
pub mod parser;
pub mod split;
mod parallel;
pub mod blocks;
pub mod visit;
pub mod printer;
pub mod db;
pub mod prelude;
pub mod lower;
pub mod cfg;
pub mod resolve;
pub mod typeck;
pub mod modifies;
pub mod check;
