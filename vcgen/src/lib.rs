pub mod desugar;
pub mod smt;
pub mod passify;
pub mod wp;
pub mod solver;
pub mod report;
pub mod houdini;
pub mod engine;
