//! Shared helpers of the interleaving-interpreter tests: parse, check and prepare a program the
//! way `kivl run` does, then run it.
#![allow(dead_code)]

use gpu_passes::interleaving::{self as il, Interpreter, RunConfig, RunOutcome, RunSummary};
use ivl::ast::Program;

/// Parses, checks (panicking on diagnostics) and adds the GPU prelude and inferred modifies.
pub fn prepare(text: &str) -> Program {
    let (program, diags) = ivl::parser::parse_program(text);
    assert!(diags.is_empty(), "parse errors: {diags:#?}");
    let diags = ivl::check::check_program(&program);
    assert!(diags.is_empty(), "check errors: {diags:#?}");
    ivl::modifies::infer_modifies(&ivl::prelude::with_prelude(program))
}

pub fn interp(text: &str) -> Interpreter {
    match Interpreter::new(&prepare(text)) {
        Ok(i) => i,
        Err(d) => panic!("does not compile: {d:#?}"),
    }
}

pub fn cfg(local: &[u64], groups: &[u64]) -> RunConfig {
    RunConfig { local_size: Some(local.to_vec()), num_groups: Some(groups.to_vec()), ..RunConfig::default() }
}

pub fn run(text: &str, local: &[u64], groups: &[u64], seed: u64) -> RunOutcome {
    interp(text).run(&RunConfig { seed, ..cfg(local, groups) })
}

pub fn many(text: &str, c: &RunConfig, runs: u64) -> RunSummary {
    il::run_many(&interp(text), c, runs)
}

/// The 1-based line of a byte offset.
pub fn line_of(text: &str, offset: u32) -> usize {
    text[..offset as usize].matches('\n').count() + 1
}
