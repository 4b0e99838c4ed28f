//! GPUVerify's command-line options (issue 43): scripts written for GPUVerify run unchanged,
//! and every option GPUVerify's test suite uses is accepted with GPUVerify's meaning, or noted
//! as steering a GPUVerify stage kivl does not have, or refused saying what to do instead.
//! Soundness first: an option is ignored only where ignoring it cannot turn a verdict into
//! "verified"; an option whose GPUVerify meaning weakens checking (`--only-log`,
//! `--no-annotations`) does so exactly as GPUVerify documents, and its help says so.
//!
//! With a kivl meaning:
//! - `--no-inline`: GPUVerify's Bugle then verifies procedures modularly; kivl's front end
//!   always inlines, which is exact, so the option changes nothing a verdict rests on;
//! - `--equality-abstraction` / `--adversarial-abstraction`: `--abstraction equality` /
//!   `--abstraction adversarial`;
//! - `--clang-opt=OPT`: passed to clang as it is (repeatable);
//! - `--boogie-file=F.bpl`: F's declarations join the kernel's translation (`boogie_files.rs`),
//!   as GPUVerify hands F to Boogie with it; errors in F name F's line and column. A `.kbpl`
//!   file is refused the option (its declarations belong in the file);
//! - `--only-log`: accesses are logged, no race is checked (`KernelOptions::only_log`);
//! - `--no-annotations` / `--only-requires` / `--invariants-as-candidates`: the front end
//!   redefines the annotation macros as GPUVerify's headers do (`frontend/src/clang.rs`);
//! - `--global_offset=X[,Y[,Z]]`: OpenCL's global work offset, added to `get_global_id` and
//!   returned by `get_global_offset`; refused for CUDA (as GPUVerify does) and `.kbpl` files;
//! - `--local_size=* --global_size=N`: the symbolic local size divides N, the number of groups
//!   is the quotient (`frontend/src/global_size.rs`).
//!
//! Noted on stderr (`note: no effect: …`), for stages kivl does not have:
//! - `--debug`, `--vcgen-opt=…`, `--boogie-opt=…`, `--cruncher-opt=…`: GPUVerify's own tools'
//!   diagnostics and options (the suite's `--vcgen-opt=/checkArrays:A` checks fewer arrays;
//!   kivl checks all, which can only find more races);
//! - `--k-induction-depth=N`: GPUVerify's k-induction can prove loops that plain invariants do
//!   not; kivl does not do it, so a kernel may stay unproven, never wrongly verified;
//! - `--no-barrier-access-checks`: turns off GPUVerify's check that a barrier invariant reads
//!   only locations the two threads accessed. kivl makes no such check: it reads the other
//!   locations as arbitrary values when it checks a barrier invariant, which is sound without
//!   it, so the option cannot change kivl's verdict (GPUVerify's, without the check, can be
//!   "verified" for a barrier invariant that does not hold).
//!
//! `--local_size=*` / `--num_groups=*` (GPUVerify's "any size") are the symbolic sizes
//! (`parse_dims` in main.rs). `kivl verify --dry-run` checks a command line without verifying:
//! `tests/gpuverify_suite.rs` runs it on the arguments of every kernel of GPUVerify's suite.

use clap::Args;
use std::path::PathBuf;

/// The options above, as clap reads them (hidden from `--help`: GPUVerify's spelling).
#[derive(Args, Clone, Debug, Default)]
pub struct GpuVerifyArgs {
    #[arg(long = "no-inline", hide = true)]
    pub no_inline: bool,
    #[arg(long = "equality-abstraction", hide = true, conflicts_with = "adversarial_abstraction")]
    pub equality_abstraction: bool,
    #[arg(long = "adversarial-abstraction", hide = true)]
    pub adversarial_abstraction: bool,
    #[arg(long = "clang-opt", hide = true, value_name = "OPT", allow_hyphen_values = true)]
    pub clang_opt: Vec<String>,
    #[arg(long, hide = true)]
    pub debug: bool,
    #[arg(long = "vcgen-opt", alias = "vcgen-op", hide = true, allow_hyphen_values = true)]
    pub vcgen_opt: Vec<String>,
    #[arg(long = "boogie-opt", hide = true, allow_hyphen_values = true)]
    pub boogie_opt: Vec<String>,
    #[arg(long = "cruncher-opt", hide = true, allow_hyphen_values = true)]
    pub cruncher_opt: Vec<String>,
    #[arg(long = "k-induction-depth", hide = true, value_name = "N")]
    pub k_induction_depth: Option<u64>,
    /// `.cl`/`.cu` files: add this Boogie file's declarations (functions, axioms, types) to the
    /// kernel's translation, as GPUVerify gives it to Boogie with the kernel (GPUVerify's
    /// --boogie-file=F.bpl); `DECLARE_UF_BINARY(f, …)` functions are named `f` there.
    /// Repeatable.
    #[arg(long = "boogie-file", value_name = "F.bpl")]
    pub boogie_file: Vec<PathBuf>,
    /// Log accesses but check no races (GPUVerify's --only-log): a racy kernel can then be
    /// "verified". For access-pattern annotations (`__write(A)`, `__read_implies`), which still
    /// see every access; assertions, invariants and barrier divergence are still checked.
    #[arg(long = "only-log")]
    pub only_log: bool,
    /// `.cl`/`.cu` files: ignore the kernel's annotations (GPUVerify's --no-annotations):
    /// invariants, candidates, `__requires`/`__ensures` and barrier invariants are dropped
    /// (their claims go unchecked); `__assert` and `__assume` stay.
    #[arg(long = "no-annotations", conflicts_with = "only_requires")]
    pub no_annotations: bool,
    /// `.cl`/`.cu` files: --no-annotations, except that `__requires` stays (GPUVerify's
    /// --only-requires).
    #[arg(long = "only-requires")]
    pub only_requires: bool,
    /// `.cl`/`.cu` files: the kernel's `__invariant`, `__global_invariant` and
    /// `__function_wide_invariant` are candidates, kept where Houdini proves them and dropped
    /// silently otherwise (GPUVerify's --invariants-as-candidates).
    #[arg(long = "invariants-as-candidates")]
    pub invariants_as_candidates: bool,
    #[arg(long = "no-barrier-access-checks", hide = true)]
    pub no_barrier_access_checks: bool,
    /// `.cl` files: OpenCL's global work offset X[,Y[,Z]] (the `global_work_offset` of
    /// `clEnqueueNDRangeKernel`; missing dimensions are 0): added to `get_global_id`, returned
    /// by `get_global_offset` (GPUVerify's --global_offset; alias `--global_offset`).
    #[arg(long = "global-offset", alias = "global_offset", value_name = "X[,Y[,Z]]", value_parser = parse_offsets)]
    pub global_offset: Option<crate::Dims>,
}

/// `--global_offset`'s value: 1 to 3 offsets, each below 2^32 (`size_t` is 32 bits), written
/// as GPUVerify writes sizes (`64`, `[64,0]`).
fn parse_offsets(s: &str) -> Result<Vec<u64>, String> {
    let inner = s.trim().trim_start_matches('[').trim_end_matches(']');
    let offsets: Result<Vec<u64>, _> = inner.split(',').map(|p| p.trim().parse::<u32>().map(u64::from)).collect();
    match offsets {
        Ok(o) if (1..=3).contains(&o.len()) => Ok(o),
        _ => Err(format!("expected 1 to 3 offsets below 2^32 separated by commas, found `{s}`")),
    }
}

/// The texts of the (given, text) pairs whose option is given.
fn given_ones<const N: usize>(options: [(bool, &'static str); N]) -> Vec<&'static str> {
    options.into_iter().filter(|(on, _)| *on).map(|(_, why)| why).collect()
}

/// GPUVerify's options for stages kivl does not have, and why each changes no verdict: the
/// one-line note kivl prints when one is given.
fn without_effect(a: &GpuVerifyArgs) -> Vec<&'static str> {
    let given = [
        (a.debug, "--debug: GPUVerify's tools' diagnostics, which kivl does not have"),
        (!a.vcgen_opt.is_empty(), "--vcgen-opt: options of GPUVerify's VC generator, which kivl does not have"),
        (!a.boogie_opt.is_empty(), "--boogie-opt: options of Boogie, which kivl does not run"),
        (!a.cruncher_opt.is_empty(), "--cruncher-opt: options of GPUVerify's cruncher, which kivl does not have"),
        (
            a.k_induction_depth.is_some(),
            "--k-induction-depth: kivl does no k-induction (a kernel may stay unproven, never wrongly verified)",
        ),
        (
            a.no_barrier_access_checks,
            "--no-barrier-access-checks: kivl makes no barrier-invariant access checks; its check reads the \
             locations neither thread accessed as arbitrary values, which is sound without them",
        ),
    ];
    given_ones(given)
}

/// The options given whose GPUVerify meaning checks less, each with what a verdict then does
/// not cover: a "verified" under them is not the usual one, and the run says so.
fn weakened(a: &GpuVerifyArgs) -> Vec<&'static str> {
    let given = [
        (a.only_log, "--only-log: races are not checked; a verdict says nothing about them"),
        (
            a.no_annotations,
            "--no-annotations: the kernel's invariants, requires, ensures and barrier invariants are dropped",
        ),
        (a.only_requires, "--only-requires: the kernel's annotations other than requires are dropped"),
    ];
    given_ones(given)
}

impl GpuVerifyArgs {
    /// One line per option given that steers a GPUVerify stage kivl does not have
    /// (`note: no effect: …`) or that checks less (`note: weaker check: …`), for stderr.
    pub fn notes(&self) -> Vec<String> {
        let mut notes: Vec<String> =
            without_effect(self).into_iter().map(|why| format!("note: no effect: {why}")).collect();
        notes.extend(weakened(self).into_iter().map(|why| format!("note: weaker check: {why}")));
        notes
    }

    /// Which of the kernel's annotations the front end keeps.
    pub fn annotations(&self) -> frontend::Annotations {
        if self.no_annotations {
            frontend::Annotations::None
        } else if self.only_requires {
            frontend::Annotations::OnlyRequires
        } else {
            frontend::Annotations::All
        }
    }

    /// The abstraction the options ask for, if any.
    pub fn abstraction(&self) -> Option<crate::AbstractionArg> {
        if self.equality_abstraction {
            Some(crate::AbstractionArg::Equality)
        } else if self.adversarial_abstraction {
            Some(crate::AbstractionArg::Adversarial)
        } else {
            None
        }
    }
}
