//! The Boogie verification engine: desugaring, passification, weakest preconditions, Z3.

pub mod abstract_values;
pub mod desugar;
pub mod engine;
pub mod fp;
pub mod houdini;
pub mod mono;
mod no_patterns;
pub mod passify;
pub mod progress;
pub mod report;
pub mod smt;
pub mod solver;
pub mod trace;
pub mod watchdog;
pub mod wp;

/// Hash maps and sets with a fixed hasher, for the engine's parts that build Z3 terms (the
/// desugaring before them only rewrites the program). Why not the standard library's: its
/// hasher is seeded at random per process, so iterating or dropping a map of Z3 terms happened
/// in a different order on every run; that order reaches Z3 (which terms are freed first
/// decides where later ones are allocated, and some of Z3's tables are keyed by address), and
/// the same file took 10 s on one run and 18 s on the next, with different counterexamples.
/// With a fixed hasher the calls into Z3 are the same on every run.
pub type HashMap<K, V> = rustc_hash::FxHashMap<K, V>;
/// See [`HashMap`].
pub type HashSet<K> = rustc_hash::FxHashSet<K>;
