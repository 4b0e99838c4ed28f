//! The stages whose output `kivl transform --emit STAGE` prints, and the path each is on.

use std::fmt;

/// A stage of the pipeline whose output can be printed (as `.kbpl` that parses again, except
/// `vc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The `.kbpl` generated from an OpenCL (`.cl`) or CUDA (`.cu`) kernel; for other files,
    /// the program as parsed. (Front end: the caller's.)
    Kbpl,
    /// The program as parsed (a round trip through the printer). (Front end.)
    Parsed,
    /// After resolution and type checking, with the GPU prelude added and modifies inferred:
    /// the driver's input. (Front end.)
    Checked,
    /// Kernels with their candidate invariants (seed 001 §4.3), after concrete runs dropped
    /// the ones they refute: what Houdini starts from.
    Candidates,
    /// Kernels as instrumented two-thread programs (seed 001 ch. 4).
    TwoThread,
    /// GPUVerify's instrumented Boogie (`.bpl`) with kivl's strided-access candidates at its
    /// loop heads (`crate::gpuverify_bpl`): what `verify --houdini` verifies of such a file.
    BplCandidates,
    /// Kernels with their calls inlined (callees with a body) or replaced by the callee's
    /// contract, in block form: the lock-step path's input (seed 001 §4.1.5 for why inlining).
    Inlined,
    /// Kernels predicated (seed 000 §4.1, Tables 1 and 2).
    Predicated,
    /// The lock-step program for `--threads N` threads (seed 000 §4.2, Table 3).
    Lockstep,
    /// The lock-step program with the race checks of Definition 4.1, the loop invariants and
    /// the Houdini candidates: what `verify --lockstep N` verifies.
    LockstepChecked,
    /// One thread with shared memory abstracted and a ranking check per loop: what
    /// `verify --termination` proves (seed 004 §4).
    Termination,
    /// Calls desugared or inlined, loops cut: the acyclic block form the VC is built from.
    Desugared,
    /// Single-assignment form.
    Passified,
    /// The verification conditions as SMT-LIB (not .kbpl).
    Vc,
}

/// The paths of [`super`]: which one a stage is on decides what `transform --emit` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Before the driver: reading, translating, parsing, checking.
    FrontEnd,
    /// Programs without a kernel to reduce (plain Boogie, GPUVerify's `.bpl`).
    Plain,
    TwoThread,
    Lockstep,
    Termination,
    /// The VC engine, on whatever program the chosen path hands it.
    Engine,
}

impl Stage {
    /// Every stage with its name and a line of help, in pipeline order.
    pub const ALL: [(Stage, &'static str, &'static str); 14] = [
        (Stage::Kbpl, "kbpl", "the .kbpl generated from a .cl/.cu kernel (other files: as parsed)"),
        (Stage::Parsed, "parsed", "the program as parsed"),
        (Stage::Checked, "checked", "resolved and type-checked, prelude added, modifies inferred"),
        (Stage::Candidates, "candidates", "kernels with their candidate invariants"),
        (Stage::TwoThread, "two-thread", "kernels as instrumented two-thread programs"),
        (Stage::BplCandidates, "bpl-candidates", "GPUVerify's .bpl with kivl's strided-access candidates"),
        (Stage::Inlined, "inlined", "kernels with their calls inlined, in block form (lock-step path)"),
        (Stage::Predicated, "predicated", "kernels predicated"),
        (Stage::Lockstep, "lockstep", "the lock-step program for --threads N threads"),
        (
            Stage::LockstepChecked,
            "lockstep-checked",
            "the lock-step program with race checks: what --lockstep N verifies",
        ),
        (Stage::Termination, "termination", "one thread with a ranking check per loop: what --termination proves"),
        (Stage::Desugared, "desugared", "calls desugared or inlined, loops cut"),
        (Stage::Passified, "passified", "single-assignment form"),
        (Stage::Vc, "vc", "the verification conditions as SMT-LIB"),
    ];

    pub fn name(self) -> &'static str {
        Stage::ALL.iter().find(|(s, _, _)| *s == self).map(|(_, n, _)| *n).expect("every stage is listed")
    }

    pub fn path(self) -> Path {
        match self {
            Stage::Kbpl | Stage::Parsed | Stage::Checked => Path::FrontEnd,
            Stage::Candidates | Stage::TwoThread => Path::TwoThread,
            Stage::Inlined | Stage::Predicated | Stage::Lockstep | Stage::LockstepChecked => Path::Lockstep,
            Stage::Termination => Path::Termination,
            Stage::BplCandidates => Path::Plain,
            Stage::Desugared | Stage::Passified | Stage::Vc => Path::Engine,
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Stage {
    type Err = String;
    fn from_str(s: &str) -> Result<Stage, String> {
        Stage::ALL.iter().find(|(_, n, _)| *n == s).map(|(st, _, _)| *st).ok_or_else(|| format!("no stage `{s}`"))
    }
}
