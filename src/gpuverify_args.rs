//! GPUVerify's command-line options that kivl accepts as they are (issue 43), so that scripts
//! written for GPUVerify run unchanged. Each one either has a kivl meaning or provably no
//! effect on a verdict kivl gives:
//!
//! - `--no-inline`: GPUVerify's Bugle then verifies procedures modularly; kivl's front end
//!   always inlines, which is exact, so the option changes nothing a verdict rests on;
//! - `--equality-abstraction` / `--adversarial-abstraction`: `--abstraction equality` /
//!   `--abstraction adversarial`;
//! - `--clang-opt=OPT`: passed to clang as it is (repeatable);
//! - `--debug`, `--vcgen-opt=…`, `--boogie-opt=…`, `--cruncher-opt=…`: GPUVerify's own tools'
//!   diagnostics and Boogie's options, which kivl's engine does not have;
//! - `--k-induction-depth=N`: GPUVerify's k-induction can prove loops that plain invariants do
//!   not; kivl does not do it, so a kernel may stay unproven, never wrongly verified.
//!
//! `--local_size=*` / `--num_groups=*` (GPUVerify's "any size") are the symbolic sizes
//! (`parse_dims` in main.rs). The options whose meaning kivl does not have
//! (`--boogie-file`, `--only-log`, `--only-requires`, `--no-annotations`,
//! `--invariants-as-candidates`, `--no-barrier-access-checks`, `--global_offset`) stay
//! usage errors: ignoring them could change a verdict.

use clap::Args;

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
}

impl GpuVerifyArgs {
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
