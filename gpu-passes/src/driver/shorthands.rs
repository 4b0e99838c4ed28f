//! The driver's paths under the names the tests, benchmarks and examples call them by: each
//! builds a [`Config`] and runs [`verify`], so there is no second assembly of
//! the pipeline.

use super::{verify, Config};
use crate::invariants::{dynamic::DynamicOptions, report::InferenceReport};
use crate::lockstep::RaceChecks;
use crate::two_thread::KernelOptions;
use ivl::ast::Program;
use vcgen::engine::{ProgramResult, VerifyOptions};

/// `kivl verify` on a checked kernel program, two-thread path: races, barrier divergence,
/// barrier invariants, assertions and contracts for every pair of threads. The user's
/// candidates count with `vopts.houdini`; no invariants are generated.
pub fn verify_kernel(p: &Program, kopts: &KernelOptions, vopts: &VerifyOptions) -> ProgramResult {
    let cfg = Config { kernel: kopts.clone(), engine: vopts.clone(), ..Config::default() };
    verify(p, &cfg).result
}

/// Options of [`verify_with_inference_opts`].
#[derive(Clone, Debug)]
pub struct InferOptions {
    /// Drop candidates that concrete runs refute before Houdini.
    pub dynamic: bool,
    pub dynamic_opts: DynamicOptions,
}

impl Default for InferOptions {
    fn default() -> Self {
        InferOptions { dynamic: true, dynamic_opts: DynamicOptions::default() }
    }
}

/// `kivl verify --houdini` on a kernel program: generated candidates, concrete runs, Houdini;
/// with `infer_info`, the report of what was generated and kept.
pub fn verify_with_inference(
    p: &Program,
    kopts: &KernelOptions,
    vopts: &VerifyOptions,
    infer_info: bool,
) -> (ProgramResult, Option<InferenceReport>) {
    verify_with_inference_opts(p, kopts, vopts, infer_info, &InferOptions::default())
}

/// [`verify_with_inference`] with explicit options (the benchmark turns concrete runs off).
pub fn verify_with_inference_opts(
    p: &Program,
    kopts: &KernelOptions,
    vopts: &VerifyOptions,
    infer_info: bool,
    iopts: &InferOptions,
) -> (ProgramResult, Option<InferenceReport>) {
    let cfg = Config {
        kernel: kopts.clone(),
        engine: VerifyOptions { houdini: true, ..vopts.clone() },
        infer: true,
        infer_info,
        dynamic: iopts.dynamic.then(|| iopts.dynamic_opts.clone()),
        ..Config::default()
    };
    let v = verify(p, &cfg);
    (v.result, v.inference)
}

/// `kivl verify --lockstep N` with GPUVerify's default: benign write-write races tolerated.
pub fn verify_lockstep(p: &Program, n: usize, vopts: &VerifyOptions) -> ProgramResult {
    verify_lockstep_with(p, n, vopts, RaceChecks::default())
}

/// `kivl verify --lockstep N`: the kernels of `p` for a work-group of `n` threads run in
/// lock-step.
pub fn verify_lockstep_with(p: &Program, n: usize, vopts: &VerifyOptions, checks: RaceChecks) -> ProgramResult {
    let kernel = KernelOptions { benign_tolerance: checks.benign_tolerance, ..KernelOptions::default() };
    let cfg = Config { kernel, engine: vopts.clone(), lockstep: Some(n), ..Config::default() };
    verify(p, &cfg).result
}
