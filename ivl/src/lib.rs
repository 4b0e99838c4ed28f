//! The `.kbpl` language: syntax tree, parser, diagnostics, name resolution, type checking,
//! pretty-printing, and the salsa database that runs them incrementally.

pub mod assumption_vars;
pub mod ast;
pub mod blocks;
pub mod cfg;
pub mod check;
pub mod code_exprs;
pub mod corpus;
pub mod db;
pub mod deadline;
pub mod diag;
pub mod floats;
pub mod lets;
pub mod lexer;
pub mod lower;
pub mod modifies;
mod parallel;
pub mod parser;
pub mod prelude;
pub mod printer;
pub mod resolve;
pub mod split;
pub mod typeck;
pub mod types;
pub mod visit;
