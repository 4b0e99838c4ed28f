//! Dynamic candidate killing (GPUVerify's "dynamic" engine; seed 001 §6 plans "dynamic analysis
//! to quickly eliminate incorrect candidate invariants").

use super::CandidateInfo;
use ivl::ast::Program;
use std::collections::BTreeSet;

#[derive(Clone, Debug)]
pub struct DynamicOptions {
    pub runs: u64,
}

impl Default for DynamicOptions {
    fn default() -> Self {
        DynamicOptions { runs: 4 }
    }
}

#[derive(Clone, Debug, Default)]
pub struct DynamicResult {
    pub killed: BTreeSet<usize>,
    pub runs: u64,
    pub time: std::time::Duration,
}

pub fn kill(
    _program: &Program,
    _info: &CandidateInfo,
    _kopts: &crate::two_thread::KernelOptions,
    _opts: &DynamicOptions,
) -> DynamicResult {
    DynamicResult::default()
}
