//! `kivl`: proves GPU kernels written in `.kbpl` free of data races, barrier divergence and
//! assertion failures, and verifies plain Boogie programs. The command line is the contract of
//! docs/kbpl.md §8; a file goes through [`front`] (the front end), `gpu_passes::driver` (the paths and their
//! stages) and [`verdicts`] (the report), as [`pipeline`] assembles them.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod boogie_files;
mod cache;
mod completions;
mod front;
mod gpuverify_args;
mod incremental;
mod interrupt;
mod lsp;
mod pipeline;
mod progress;
mod report;
mod run_cmd;
mod sourceloc;
mod timing;
mod verdicts;
mod verify_run;
mod watch;

use clap::{Args, CommandFactory, Parser, Subcommand};
use report::Format;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "kivl",
    version,
    about = "Verify GPU kernels and Boogie programs written in .kbpl",
    after_help = "Language reference: docs/kbpl.md (its §11 names the papers cited as \"seed NNN\")"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Verify kernels (race, divergence, assertion freedom) and Boogie procedures.
    Verify(VerifyArgs),
    /// Parse, resolve and type-check only.
    Check(CheckArgs),
    /// Print the program after a pipeline stage as .kbpl.
    Transform(TransformArgs),
    /// Execute a kernel under the interleaving semantics with seeded schedules (a bug finder).
    Run(run_cmd::RunArgs),
    /// A Language Server Protocol server over stdio: diagnostics as you type (syntax and type
    /// errors at once, verification results when ready), hover, go to definition, symbols.
    Lsp(LspArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) on stdout.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff) of kivl, or of one subcommand, on stdout.
    Man {
        /// A subcommand (`verify`, `run` …): its own page.
        subcommand: Option<String>,
    },
    /// Verify the files, then again on every save, printing only what changed (verdicts, new
    /// and fixed errors); an edit re-verifies only what depends on it.
    Watch(WatchArgs),
}

#[derive(Args)]
struct WatchArgs {
    #[command(flatten)]
    verify: VerifyArgs,
    /// How often the files are looked at, in milliseconds.
    #[arg(long, default_value_t = 200, value_name = "MS")]
    poll_ms: u64,
}

#[derive(Args)]
struct CheckArgs {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
}

/// 1-3 grid dimensions. An alias, so that clap takes `16,16` as one value, not a list.
pub type Dims = Vec<u64>;

/// Options shared by `verify` and `transform` that shape the program being verified.
#[derive(Args, Clone, Debug, Default)]
pub struct KernelArgs {
    /// Work-group size, 1-3 dimensions (`16` or `16,16`; GPUVerify's `--local_size=16` and
    /// CUDA's `--blockDim=[16,16]` are aliases).
    #[arg(long, value_parser = parse_dims, visible_alias = "local_size", alias = "blockDim")]
    pub local_size: Option<Dims>,
    /// Number of work-groups, 1-3 dimensions (aliases `--num_groups`, `--gridDim`).
    #[arg(long, value_parser = parse_dims, visible_alias = "num_groups", alias = "gridDim")]
    pub num_groups: Option<Dims>,
    /// Threads in the whole grid per dimension (GPUVerify's `--global_size`): with
    /// `--local-size`, it sets `--num-groups` to global / local (which must divide); with the
    /// local size symbolic (`.cl`/`.cu` files), each group size divides it and the number of
    /// groups is the quotient.
    #[arg(long, value_parser = parse_dims, alias = "global_size", conflicts_with = "num_groups")]
    pub global_size: Option<Dims>,
    /// `.cl`/`.cu` files: a preprocessor definition passed to clang (`-DN=4`), repeatable.
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub define: Vec<String>,
    /// `.cl`/`.cu` files: an include directory passed to clang, repeatable.
    #[arg(short = 'I', value_name = "DIR")]
    pub include: Vec<PathBuf>,
    /// `.cl`/`.cu` files: check that every access to an array of known size (`__local`,
    /// `__constant` and private arrays) lies inside it (GPUVerify's --check-array-bounds).
    #[arg(long)]
    pub check_array_bounds: bool,
    /// Keep every bit-vector value's bits in the solver. By default values that only meet
    /// equality and uninterpreted functions (floating-point values, data copied between
    /// arrays) become values of an uninterpreted sort: sound, and much faster on float-heavy
    /// kernels (docs/kbpl.md §8.2).
    #[arg(long)]
    pub bit_precise_values: bool,
    /// `.cl` files: the OpenCL C version (default: 2.0 when the kernel calls a work-group or
    /// sub-group function that only 2.0 has, 1.2 otherwise).
    #[arg(long, value_enum, value_name = "VERSION", alias = "cl_std")]
    pub cl_std: Option<ClStdArg>,
    /// `.cl`/`.cu` files: verify only the kernel of this name (a template instance as
    /// `NAME$ARGS`, e.g. `reduce$256`), repeatable.
    #[arg(long = "kernel", value_name = "NAME")]
    pub kernel: Vec<String>,
    /// GPUVerify's options kivl accepts as they are (`gpuverify_args.rs`).
    #[command(flatten)]
    pub gpuverify: gpuverify_args::GpuVerifyArgs,
    /// Report two writes of the same value as a race.
    #[arg(long)]
    pub no_benign_tolerance: bool,
    /// Check only races between threads of the same work-group.
    #[arg(long)]
    pub only_intra_group: bool,
    /// Check only barrier divergence (no race checks).
    #[arg(long)]
    pub only_divergence: bool,
    /// How shared memory is abstracted between barriers (default: adversarial, except that
    /// arrays no thread writes and a specification reads keep their values; `adversarial` given
    /// explicitly abstracts those too, as GPUVerify's --adversarial-abstraction).
    #[arg(long, value_enum)]
    pub abstraction: Option<AbstractionArg>,
    /// Check the kernel's `assert`s in one of the two threads only (GPUVerify's
    /// --asymmetric-asserts; sound, as that thread is arbitrary, and cheaper).
    #[arg(long)]
    pub asymmetric_asserts: bool,
    /// Threads of a work-group run in warps of N consecutive threads (by linear local id) in
    /// lock-step: two threads of one warp do not race by accesses in different statements
    /// (GPUVerify's --warp-sync=N; alias `--warp_sync`).
    #[arg(long, value_name = "N", alias = "warp_sync", value_parser = clap::value_parser!(u64).range(1..))]
    pub warp_sync: Option<u64>,
}

/// `--cl-std`: the OpenCL C versions, as clang spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ClStdArg {
    #[value(name = "CL1.2")]
    Cl12,
    #[value(name = "CL2.0")]
    Cl20,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum AbstractionArg {
    /// Reads of shared memory return arbitrary values (even of arrays no thread writes).
    #[default]
    Adversarial,
    /// Both threads see equal values at locations neither has written.
    Equality,
}

#[derive(Args)]
struct VerifyArgs {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Houdini on the program's `{:candidate}` clauses (Boogie's /contractInfer): find the
    /// largest set that holds, then verify with it. Kernels get inferred candidates anyway
    /// (unless --no-infer), so for them the flag is redundant.
    #[arg(long)]
    houdini: bool,
    /// Kernels: do not infer loop invariants (GPUVerify's --no-infer). Inference is on by
    /// default: kivl proposes candidate invariants and keeps those Houdini proves.
    #[arg(long)]
    no_infer: bool,
    /// Print the final Houdini assignment (Boogie's /printAssignment).
    #[arg(long)]
    print_assignment: bool,
    /// Report the candidate invariants generated and kept per rule (kernels, with inference).
    #[arg(long, conflicts_with = "no_infer")]
    infer_info: bool,
    /// GPUVerify's --kernel-args=K,v1,v2,...: fix the scalar parameters of kernel K to these
    /// values (decimal, or GPUVerify's hexadecimal `0x…`; `*`: any), repeatable.
    #[arg(long, value_name = "K,V1,V2,...", value_parser = |s: &str| s.parse::<gpu_passes::kernel_args::KernelArgs>())]
    kernel_args: Vec<gpu_passes::kernel_args::KernelArgs>,
    /// Wall-clock limit in seconds for each file as a whole: front end, passes and every solver
    /// search. A file still running then ends with the verdicts reached so far and
    /// "timed out after N s (--timeout)" for the rest (inconclusive, exit status 3).
    /// 0 means no limit (as in Boogie).
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Time limit in seconds for each search of an implementation: its verification together
    /// with the search for further errors, or one Houdini round of it (Boogie's /timeLimit).
    /// 0 (the default): none but --timeout's.
    #[arg(long, value_name = "SECONDS", default_value_t = 0)]
    search_timeout: u64,
    /// Memory Z3 may use, in MB; a check that needs more is inconclusive (exit status 3).
    #[arg(long, value_name = "MB", default_value_t = 16384, value_parser = clap::value_parser!(u64).range(1..))]
    memory_limit: u64,
    /// Solver threads (default: all cores).
    #[arg(long, value_parser = at_least_one)]
    jobs: Option<usize>,
    /// Failing checks reported per implementation at most.
    #[arg(long, default_value_t = 5, value_parser = at_least_one)]
    error_limit: usize,
    /// With --houdini and fewer implementations than --jobs: check each implementation on
    /// several solvers, each owning a share of its assertions. Faster on some programs, slower
    /// on as many (scripts/houdini-parallel-bench.py).
    #[arg(long)]
    split_vc: bool,
    /// Inline calls of every procedure with a body and no {:inline} N levels deep, their
    /// postconditions assumed where they return, their calls past the depth kept as calls
    /// (Boogie's /inlineDepth:N); every implementation is still verified on its own.
    #[arg(long, value_name = "N")]
    inline_depth: Option<u64>,
    /// Bounded checking (GPUVerify's --loop-unwind=N): unwind every loop N times and cut off
    /// longer runs, no invariants inferred, no Houdini. Finds every error within N iterations
    /// and proves nothing: a run without errors exits with status 3, never "verified".
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..),
          conflicts_with_all = ["houdini", "lockstep", "termination", "infer_info", "findbugs"])]
    loop_unwind: Option<u64>,
    /// GPUVerify's --findbugs: --loop-unwind 2 (GPUVerify's default depth).
    #[arg(long, conflicts_with_all = ["houdini", "lockstep", "termination", "infer_info"])]
    findbugs: bool,
    /// With --houdini and fewer implementations than --jobs: several solvers, each configured
    /// differently, run Houdini on each implementation's whole VC at once and share every
    /// refutation as soon as it is found; the first to prove the VC ends the race.
    #[arg(long, conflicts_with = "split_vc")]
    portfolio: bool,
    /// Output format: human, json (docs/kbpl.md §8.4), sarif (SARIF 2.1.0), junit (JUnit XML).
    #[arg(long, value_enum, default_value = "human")]
    format: Format,
    #[command(flatten)]
    output: verify_run::OutputArgs,
    /// Check the command line only, as far as it can be without the files (options, sizes,
    /// --boogie-file readable), and exit: status 0 if kivl accepts it, 2 if not.
    #[arg(long)]
    dry_run: bool,
    /// Check the kernel exactly for N threads of one group on the lock-step program (seed 000)
    /// instead of the two-thread abstraction.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=64))]
    lockstep: Option<u64>,
    /// Run every reported error of a kernel concretely (interleaving interpreter) with the
    /// counterexample's threads and inputs, and mark it `confirmed` or `possible`.
    #[arg(long)]
    replay: bool,
    /// Keep verdicts in DIR, keyed by a hash of the file, the options and this kivl: a second
    /// run over unchanged files does no solver work.
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Also prove that every kernel terminates (seed 004): one thread with shared memory
    /// abstracted, a ranking function per loop. A kernel then counts as verified only if it
    /// also terminates.
    #[arg(long)]
    termination: bool,
    #[command(flatten)]
    kernel: KernelArgs,
}

#[derive(Args)]
struct LspArgs {
    /// Time limit per verification, in seconds.
    #[arg(long, default_value_t = 10)]
    timeout: u64,
    /// Infer loop invariants (Houdini with GPUVerify's candidate rules) when verifying kernels.
    #[arg(long)]
    houdini: bool,
    #[command(flatten)]
    kernel: KernelArgs,
}

#[derive(Args)]
struct TransformArgs {
    file: PathBuf,
    /// The stage whose output is printed.
    #[arg(long, value_parser = stage_parser())]
    emit: gpu_passes::driver::Stage,
    /// Generate candidate invariants for kernels and keep the user's candidates, as `verify
    /// --houdini` does (the `candidates` stage always generates them).
    #[arg(long)]
    houdini: bool,
    /// Threads of the lock-step program (`--emit lockstep`).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=64))]
    threads: u64,
    #[command(flatten)]
    kernel: KernelArgs,
}

/// A count that must be positive (`--jobs`, `--error-limit`): 0 is a usage error, not "none"
/// (no solver thread, no error reported).
fn at_least_one(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("expected a positive integer, found `{s}`")),
    }
}

/// `--emit`'s values, with their help, from the driver's list of stages.
fn stage_parser() -> impl clap::builder::TypedValueParser<Value = gpu_passes::driver::Stage> {
    use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
    let values = gpu_passes::driver::Stage::ALL.iter().map(|(_, name, help)| PossibleValue::new(*name).help(*help));
    PossibleValuesParser::new(values).map(|s| s.parse::<gpu_passes::driver::Stage>().expect("a listed stage"))
}

impl KernelArgs {
    /// Turns `--global_size` into `--num-groups` (kept as it is when the local size is
    /// symbolic: the front end then states it, [`frontend::Options::global_size`]).
    fn resolve(&mut self) -> Result<(), String> {
        // GPUVerify's `*`: any size (the symbolic sizes).
        for d in [&mut self.local_size, &mut self.num_groups, &mut self.global_size] {
            if d.as_ref().is_some_and(|v| v.is_empty()) {
                *d = None;
            }
        }
        if let Some(a) = self.gpuverify.abstraction() {
            if self.abstraction.is_some_and(|b| b != a) {
                return Err(
                    "--abstraction contradicts GPUVerify's --equality-abstraction/--adversarial-abstraction".into()
                );
            }
            self.abstraction = Some(a);
        }
        self.check_gpuverify_options()?;
        // With the local size symbolic, the global size stays for the front end to state.
        let Some(local) = &self.local_size else { return Ok(()) };
        if let Some(global) = self.global_size.take() {
            if global.len() != local.len() {
                return Err("--global_size and --local_size must have the same number of dimensions".into());
            }
            let mut groups = Vec::new();
            for (g, l) in global.iter().zip(local) {
                if g % l != 0 {
                    return Err(format!("--global_size {g} is not a multiple of --local_size {l}"));
                }
                groups.push(g / l);
            }
            self.num_groups = Some(groups);
        }
        Ok(())
    }

    /// GPUVerify's checks of its options that kivl shares: the global offset has the grid's
    /// dimensions, and a `--boogie-file` can be read (GPUVerify opens it when it reads its
    /// command line).
    fn check_gpuverify_options(&self) -> Result<(), String> {
        let grid = self.num_groups.as_ref().or(self.global_size.as_ref()).or(self.local_size.as_ref());
        if let (Some(offset), Some(grid)) = (&self.gpuverify.global_offset, grid) {
            if !grid.is_empty() && offset.len() != grid.len() {
                return Err(format!(
                    "--global_offset has {} dimensions, the grid {}: give one offset per dimension",
                    offset.len(),
                    grid.len()
                ));
            }
        }
        for f in &self.gpuverify.boogie_file {
            if let Err(e) = std::fs::File::open(f) {
                return Err(format!("cannot read --boogie-file {}: {e}", f.display()));
            }
        }
        Ok(())
    }

    /// The options of the OpenCL/CUDA front end (`-D`, `-I`, the grid's dimensions).
    fn frontend(&self) -> frontend::Options {
        frontend::Options {
            defines: self.define.clone(),
            includes: self.include.clone(),
            work_dim: self
                .local_size
                .as_ref()
                .or(self.num_groups.as_ref())
                .or(self.global_size.as_ref())
                .map(|d| d.len() as u32),
            check_array_bounds: self.check_array_bounds,
            kernels: self.kernel.clone(),
            clang_args: self.gpuverify.clang_opt.clone(),
            annotations: self.gpuverify.annotations(),
            invariants_as_candidates: self.gpuverify.invariants_as_candidates,
            global_offset: self.gpuverify.global_offset.clone().unwrap_or_default(),
            global_size: self.global_size.clone().unwrap_or_default(),
            boogie_files: self.gpuverify.boogie_file.clone(),
            deadline: None,
            cl_std: self.cl_std.map(|v| match v {
                ClStdArg::Cl12 => frontend::ClStd::Cl12,
                ClStdArg::Cl20 => frontend::ClStd::Cl20,
            }),
        }
    }

    /// The engine's defaults, with the value abstraction these options ask for.
    fn engine_defaults(&self) -> vcgen::engine::VerifyOptions {
        vcgen::engine::VerifyOptions { abstract_values: !self.bit_precise_values, ..Default::default() }
    }

    /// A `verify` configuration with these kernel options and the engine's defaults.
    fn config(&self) -> pipeline::VerifyConfig {
        pipeline::VerifyConfig {
            driver: gpu_passes::driver::Config {
                kernel: pipeline::kernel_options(self),
                dynamic: Some(Default::default()),
                engine: self.engine_defaults(),
                ..Default::default()
            },
            frontend: self.frontend(),
            print_assignment: false,
            replay: false,
            time_limit: None,
        }
    }
}

fn parse_dims(s: &str) -> Result<Vec<u64>, String> {
    // GPUVerify's `*` (any size): no dimensions, which `KernelArgs::resolve` reads as "not given".
    if s.trim() == "*" {
        return Ok(Vec::new());
    }
    // GPUVerify's CUDA form `[16,16]`.
    let s = s.trim().trim_start_matches('[').trim_end_matches(']');
    let dims: Result<Vec<u64>, _> = s.split(',').map(|p| p.trim().parse::<u64>()).collect();
    match dims {
        Ok(d) if (1..=3).contains(&d.len()) && d.iter().all(|&x| x > 0) => Ok(d),
        _ => Err(format!("expected 1 to 3 positive integers separated by commas, found `{s}`")),
    }
}

/// mimalloc's `mi_option_purge_delay` (the enum `mi_option_e` of `mimalloc.h`, v2 and v3 alike;
/// `libmimalloc-sys` names no constant for it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // A run is one short process: memory it frees is better kept than handed back to the OS
    // page by page (on a 4 MB kernel that was over 200 `madvise` calls, each flushing the TLB
    // of every thread, about a tenth of `kivl check`'s time). The OS gets it all at exit.
    // SAFETY: setting an option has no preconditions; mimalloc reads it at its next purge.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1) };
    // Deep expressions in generated programs recurse deeply in every pass; run on a big stack.
    let child = std::thread::Builder::new().stack_size(256 << 20).spawn(real_main);
    let code = match child.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            eprintln!("kivl: internal error (see the message above)");
            4
        }
    };
    std::process::exit(code);
}

fn real_main() -> i32 {
    interrupt::install();
    interrupt::quiet_broken_pipe();
    let mut cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    // GPUVerify's size flags and the front end's options, once for every subcommand; the notes
    // on GPUVerify's options without effect (not for the language server: stderr is its log).
    let notes = !matches!(cli.command, Command::Lsp(_));
    let kernel_args = match &mut cli.command {
        Command::Verify(a) => Some(&mut a.kernel),
        Command::Transform(a) => Some(&mut a.kernel),
        Command::Lsp(a) => Some(&mut a.kernel),
        Command::Watch(a) => Some(&mut a.verify.kernel),
        _ => None,
    };
    if let Some(k) = kernel_args {
        if let Err(e) = k.resolve() {
            eprintln!("error: {e}");
            return 2;
        }
        if notes {
            k.gpuverify.notes().iter().for_each(|n| eprintln!("{n}"));
        }
    }
    match cli.command {
        Command::Check(a) => {
            let reports: Vec<_> = a.files.iter().map(|f| front::check_file(f, &frontend::Options::default())).collect();
            report::print(&reports, a.format, None);
            report::exit_code(&reports)
        }
        Command::Verify(a) if a.dry_run => 0,
        Command::Verify(a) => {
            interrupt::give_up_when_z3_is_stuck();
            vcgen::solver::set_memory_limit_mb(a.memory_limit);
            let mut opts = verify_config(&a);
            let cache = match a.cache.as_deref().map(|dir| cache::Cache::new(dir, &opts)) {
                None => None,
                Some(Ok(c)) => Some(c),
                Some(Err(e)) => {
                    eprintln!("kivl: cannot use the cache directory: {e}");
                    return 2;
                }
            };
            verify_run::run(&a.files, &mut opts, cache.as_ref(), &a.output, a.format)
        }
        Command::Completions { shell } => completions::completions(shell, Cli::command()),
        Command::Man { subcommand } => completions::man(Cli::command(), subcommand.as_deref()),
        Command::Run(a) => run_cmd::run(&a),
        Command::Lsp(a) => {
            let mut opts = a.kernel.config();
            opts.driver.engine = vcgen::engine::VerifyOptions {
                jobs: 1,
                timeout_secs: Some(a.timeout).filter(|&s| s > 0),
                houdini: a.houdini,
                error_limit: 5,
                ..a.kernel.engine_defaults()
            };
            opts.driver.infer = a.houdini;
            lsp::run(opts)
        }
        Command::Watch(a) => {
            interrupt::give_up_when_z3_is_stuck();
            vcgen::solver::set_memory_limit_mb(a.verify.memory_limit);
            let poll = std::time::Duration::from_millis(a.poll_ms.max(10));
            let mut cfg = verify_config(&a.verify);
            // The incremental runs of `watch` are bounded per search (their results are kept
            // and reused, which a run cut short by a deadline would not be worth).
            cfg.driver.engine.timeout_secs = cfg.driver.engine.timeout_secs.or(cfg.time_limit.map(|d| d.as_secs()));
            watch::run(&a.verify.files, &cfg, poll)
        }
        Command::Transform(a) => {
            let mut cfg = a.kernel.config();
            cfg.driver.infer = a.houdini;
            cfg.driver.engine.houdini = a.houdini;
            transform(&a, &cfg)
        }
    }
}

/// GPUVerify's loop unwinding depth for `--findbugs`.
const FINDBUGS_DEPTH: u64 = 2;

/// The configuration of `verify` (and `watch`) from its options.
fn verify_config(a: &VerifyArgs) -> pipeline::VerifyConfig {
    let mut opts = a.kernel.config();
    opts.print_assignment = a.print_assignment;
    opts.replay = a.replay;
    opts.time_limit = Some(a.timeout).filter(|&s| s > 0).map(std::time::Duration::from_secs);
    let d = &mut opts.driver;
    d.engine = vcgen::engine::VerifyOptions {
        jobs: a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        // `0` is no limit (Boogie's meaning), not a limit of nothing.
        timeout_secs: Some(a.search_timeout).filter(|&s| s > 0),
        houdini: a.houdini,
        print_assignment: a.print_assignment,
        error_limit: a.error_limit,
        split_vc: a.split_vc,
        portfolio: a.portfolio,
        inline_depth: a.inline_depth,
        loop_unwind: a.loop_unwind.or(a.findbugs.then_some(FINDBUGS_DEPTH)),
        stop_at_first_error: a.output.stop_at_first_error,
        ..a.kernel.engine_defaults()
    };
    // Kernels: inference on unless --no-infer (GPUVerify's default) or bounded checking;
    // plain Boogie: Houdini only with --houdini.
    d.infer = !a.no_infer && d.engine.loop_unwind.is_none();
    d.infer_info = a.infer_info;
    d.kernel_args = a.kernel_args.clone();
    d.lockstep = a.lockstep.map(|n| n as usize);
    d.termination = a.termination;
    opts
}

/// `kivl transform`: the program after a stage on stdout, or the diagnostics that stopped it.
fn transform(a: &TransformArgs, cfg: &pipeline::VerifyConfig) -> i32 {
    match pipeline::transform_file(&a.file, a.emit, cfg, a.threads as usize) {
        Ok(text) => {
            print!("{text}");
            0
        }
        Err(r) => {
            report::print(std::slice::from_ref(&r), Format::Human, None);
            report::exit_code(std::slice::from_ref(&r))
        }
    }
}
