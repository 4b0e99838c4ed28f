//! LLVM IR (after mem2reg) to KBPL text, one kernel procedure per kernel function.
//!
//! - SSA values become procedure locals (`$name`), phi nodes assignments on the edges into
//!   their block; conditional branches go through edge blocks that `assume` the condition
//!   (GPUVerify's form, which predication reads).
//! - Calls to defined functions are inlined: their blocks are spliced in with a prefix per
//!   call, parameters bound to the arguments (pointer arguments resolve to the caller's
//!   memory objects). Recursion is unsupported.
//! - The arguments of `__requires`, `__ensures` and `__invariant` are specifications: the
//!   code that computes them in the same block is folded into one expression and not run
//!   (an `__invariant` must sit at the head of its loop, as Boogie's leading asserts).
//! - Everything else that is not understood is collected as a located `unsupported` error.
//!
//! Element types come from the loads and stores (and GEP source types), never from pointer
//! types, except in `values::loaded_type` and `values::const_gep_source` where LLVM 14 offers
//! nothing else: those two change with opaque pointers.
//!
//! The translator [`Tr`] is a few components, each a module with its own state and tests,
//! and the lowering, `impl Tr` blocks that use them. Imports run one way: the vocabulary
//! (`values.rs`, `names.rs`) imports nothing of this folder; the components (`decls.rs`,
//! `objects.rs`, `body.rs`, `clauses.rs`, `kernel_facts.rs`, `frame.rs`) import only the
//! vocabulary (and `kernel_facts.rs` the type `grid::Grid`, `objects.rs` the type
//! `pointers::PtrFacts`); the lowering imports those and its siblings.
//!
//! - This file: what to translate ([`entry_points`]), the rounds of translation until the
//!   byte-level objects and pointer facts stop growing ([`translate_module`]), and the
//!   program's text; `kernel.rs`: one procedure, from its parameters to its text.
//! - Instruction lowering by family: `instr.rs` (the dispatch, operands, values),
//!   `scalars.rs` (arithmetic, casts, comparisons), `access.rs` (addresses, loads, stores),
//!   `globals.rs` (constants, global variables), `calls.rs` (calls, inlining, barriers),
//!   `control.rs` (phi nodes, edges, terminators), `folding.rs` (clauses' operands folded),
//!   `annotations.rs` (specification annotations).
//! - One module per feature, each with its reason in its documentation: `vectors.rs`,
//!   `aggregates.rs`, `atomics.rs`, `images.rs`, `memops.rs`, `bytes.rs`, `pointers.rs`,
//!   `null.rs`, `funcptr.rs`, `bodiless.rs`, `async_copy.rs`, `collectives.rs`, `vload.rs`,
//!   `int_minmax.rs`, `short_circuit.rs`, `spec_functions.rs`, `axioms.rs`, `grid.rs`.

use crate::builtins::{self, Builtin, Spec, DIMS, IDENTITY};
use crate::memory::{Base, Space};
use crate::{Loc, Translation};
use body::Body;
use clauses::Clauses;
use decls::Decls;
use frame::Frame;
pub use grid::Grid;
use kernel_facts::KernelFacts;
use llvm_ir::instruction::Instruction;
use llvm_ir::{Function, Module};
use names::{call_name, is_spec_function, kernel_name};
use objects::Objects;
use std::collections::HashSet;

mod access;
mod aggregates;
mod annotations;
mod async_copy;
mod atomics;
mod axioms;
mod bodiless;
mod body;
mod bytes;
mod calls;
mod clauses;
mod collectives;
mod control;
mod decls;
mod folding;
mod frame;
mod funcptr;
mod globals;
mod grid;
mod images;
mod instr;
mod int_minmax;
mod kernel;
mod kernel_facts;
mod memops;
pub(crate) mod names;
mod null;
mod objects;
mod pointers;
mod scalars;
mod short_circuit;
mod spec_functions;
mod values;
mod vectors;
mod vload;

type Errors = Vec<(Option<Loc>, String)>;

/// The translator of one entry point: the module and file it reads, the errors found so far,
/// and the components that hold the rest (each in its own module, with its reason to be
/// apart).
struct Tr<'m> {
    module: &'m Module,
    file: &'m str,
    errors: Errors,
    /// The lane an element-wise vector operation is being translated for (`vectors.rs`).
    lane: Option<usize>,
    /// The program's declarations, shared by the kernels (`decls.rs`).
    decls: Decls,
    /// The memory objects and what is known of them (`objects.rs`).
    objects: Objects,
    /// The procedure's locals and blocks (`body.rs`).
    body: Body,
    /// The procedure's clauses and the folding of clauses (`clauses.rs`).
    clauses: Clauses,
    /// What holds for the whole procedure (`kernel_facts.rs`).
    facts: KernelFacts<'m>,
}

pub fn translate_module<'m>(
    module: &'m Module,
    file: &'m str,
    cuda_kernels: &[String],
    opts: &crate::Options,
    grid: Option<&'m Grid>,
) -> Result<Translation, Errors> {
    // Objects accessed with different widths become byte-level (`bytes.rs`), and what is
    // learnt of pointers in memory (`pointers.rs`) grows, and the module is translated again;
    // each round adds an object or a fact about finitely many objects, so this ends.
    let mut byte_level = HashSet::new();
    let mut facts = pointers::PtrFacts::default();
    let mut rounds = 0;
    loop {
        let (result, conflicts, found) = translate_with(module, file, cuda_kernels, opts, grid, &byte_level, &facts);
        let new_bytes = result.is_err() && conflicts.iter().any(|c| !byte_level.contains(c));
        byte_level.extend(conflicts);
        rounds += 1;
        if (!facts.absorb(found) && !new_bytes) || rounds >= MAX_ROUNDS {
            return result;
        }
    }
}

/// The most translations of one module (a bound the facts' growth never reaches in practice).
const MAX_ROUNDS: usize = 64;

/// One translation of the module with the objects `byte_level` as bytes and what `facts` says
/// of pointers in memory; its result, the objects found accessed with different widths, and
/// what it learnt of pointers.
fn translate_with<'m>(
    module: &'m Module,
    file: &'m str,
    cuda_kernels: &[String],
    opts: &crate::Options,
    grid: Option<&'m Grid>,
    byte_level: &HashSet<String>,
    facts: &pointers::PtrFacts,
) -> (Result<Translation, Errors>, Vec<String>, pointers::PtrFacts) {
    let entries = match entry_points(module, cuda_kernels, opts, grid) {
        Ok(e) => e,
        Err(e) => return (Err(e), Vec::new(), pointers::PtrFacts::default()),
    };
    let mut found = pointers::PtrFacts::default();
    let mut conflicts = Vec::new();
    let mut procs = Vec::new();
    let mut all_errors = Errors::new();
    let mut bases = Vec::new();
    let mut decls = Decls::default();
    let mut fallback = None;
    let opencl = module.target_triple.as_deref().is_some_and(|t| t.starts_with("spir"));
    for (k, extra) in entries {
        let objects = Objects::new(std::mem::take(&mut bases), byte_level.clone(), facts.clone());
        let mut tr = Tr::new(module, file, objects, std::mem::take(&mut decls), opts, grid);
        let kloc = k.debugloc.as_ref().map(|d| Loc { line: d.line, col: d.col.unwrap_or(1) });
        fallback = fallback.or(kloc);
        let proc_text = tr.kernel(k, kloc, extra, opencl);
        all_errors.append(&mut tr.errors);
        // Private maps are locals of this kernel only.
        let (kept, mut widths, learnt) = tr.objects.finish();
        conflicts.append(&mut widths);
        found.absorb(learnt);
        bases = kept;
        decls = tr.decls;
        procs.push(proc_text);
    }
    if !all_errors.is_empty() {
        let mut seen = HashSet::new();
        all_errors.retain(|e| seen.insert(e.clone()));
        return (Err(all_errors), conflicts, found);
    }
    let text = program_text(&decls, &bases, facts, procs);
    let fallback = fallback.unwrap_or(Loc { line: 1, col: 1 });
    let t = Translation { kbpl: text.text, origins: text.origins, fallback, clang_secs: 0.0, translate_secs: 0.0 };
    (Ok(t), conflicts, found)
}

/// The functions to translate, in order: the kernels, then (marked `true`) the functions
/// checked on their own. GPUVerify checks every procedure, not only kernels: a function that no
/// one calls is checked as a kernel of its own (its numbers arbitrary per thread, its pointers
/// into the memory their address space names), so that a bug in it is not silently unchecked.
fn entry_points<'m>(
    module: &'m Module,
    cuda_kernels: &[String],
    opts: &crate::Options,
    grid: Option<&Grid>,
) -> Result<Vec<(&'m Function, bool)>, Errors> {
    let kernels: Vec<&Function> = module
        .functions
        .iter()
        .filter(|f| {
            f.calling_convention == llvm_ir::function::CallingConvention::SPIR_KERNEL || cuda_kernels.contains(&f.name)
        })
        .collect();
    if kernels.is_empty() {
        let mut msg = "the file defines no kernel (`__kernel` / `__global__` function)".to_string();
        let mut launched: Vec<String> =
            grid.into_iter().flat_map(|g| &g.launches).map(|l| kernel_name(&l.kernel)).collect();
        launched.sort();
        launched.dedup();
        if !launched.is_empty() {
            msg += &format!("; it launches {}, defined elsewhere", launched.join(", "));
        }
        return Err(vec![(None, msg)]);
    }
    // `--kernel NAME`: only the kernels named (by source name, or a template instance's).
    if !opts.kernels.is_empty() {
        let is = |n: &String, k: &Function| *n == kernel_name(&k.name) || n == builtins::demangle(&k.name);
        let named = |k: &Function| opts.kernels.iter().any(|n| is(n, k));
        let unknown: Vec<&String> = opts.kernels.iter().filter(|n| !kernels.iter().any(|k| is(n, k))).collect();
        if !unknown.is_empty() {
            let all: Vec<String> = kernels.iter().map(|k| kernel_name(&k.name)).collect();
            let names: Vec<String> = unknown.iter().map(|n| format!("`{n}`")).collect();
            return Err(vec![(
                None,
                format!("no kernel named {} (the file's kernels: {})", names.join(", "), all.join(", ")),
            )]);
        }
        return Ok(kernels.into_iter().filter(|k| named(k)).map(|k| (k, false)).collect());
    }
    let called: HashSet<&str> = module
        .functions
        .iter()
        .flat_map(|f| f.basic_blocks.iter().flat_map(|b| b.instrs.iter()))
        .filter_map(|i| match i {
            Instruction::Call(c) => call_name(c),
            _ => None,
        })
        .collect();
    // A function with a contract is also checked on its own against it, for every input its
    // precondition allows (GPUVerify's modular reading of `__requires`/`__ensures`), besides
    // being inlined where it is called.
    let has_contract = |f: &Function| {
        f.basic_blocks.iter().flat_map(|b| b.instrs.iter()).any(|i| match i {
            Instruction::Call(c) => call_name(c).and_then(builtins::classify).is_some_and(|b| {
                matches!(b, Builtin::Spec(Spec::Requires | Spec::Ensures | Spec::GlobalRequires | Spec::GlobalEnsures))
            }),
            _ => false,
        })
    };
    let uncalled = module.functions.iter().filter(|f| {
        !kernels.iter().any(|k| k.name == f.name)
            && !axioms::is_axiom(f)
            && !is_spec_function(&f.name)
            && (!called.contains(f.name.as_str()) || has_contract(f))
    });
    Ok(kernels.iter().map(|k| (*k, false)).chain(uncalled.map(|f| (f, true))).collect())
}

/// The program: the identity constants, the functions used, the memory maps and the
/// procedures.
fn program_text(decls: &Decls, bases: &[Base], facts: &pointers::PtrFacts, procs: Vec<Out>) -> Out {
    let mut text = Out::default();
    for w in IDENTITY {
        for d in DIMS {
            text.line(&format!("const {{:{w}_{d}}} {w}_{d}: bv32;"), None);
        }
    }
    for f in decls.texts() {
        text.line(f, None);
    }
    for b in bases {
        // Constant memory is never written: a constant map, whose initializer can be an axiom
        // and whose reads are neither races nor different between threads.
        let decl = match b.space {
            Space::GroupShared => "var {:group_shared}",
            Space::Constant => "const",
            _ => "var {:global}",
        };
        text.line(&format!("{decl} {}: [bv32]bv{};", b.name, b.width.unwrap_or(8)), None);
        if facts.holds(&b.name) {
            text.line(&format!("{decl} {}: [bv32]bv32;", pointers::companion(&b.name)), None);
        }
    }
    for p in procs {
        text.line("", None);
        text.append(p);
    }
    text
}

impl<'m> Tr<'m> {
    /// A translator for one entry point, with the memory objects and declarations of the ones
    /// before it, the objects found byte-level and what is known of pointers in memory.
    fn new(
        module: &'m Module,
        file: &'m str,
        objects: Objects,
        decls: Decls,
        opts: &crate::Options,
        grid: Option<&'m Grid>,
    ) -> Self {
        Tr {
            module,
            file,
            errors: Vec::new(),
            lane: None,
            decls,
            objects,
            body: Body::default(),
            clauses: Clauses::default(),
            facts: KernelFacts::new(opts, async_copy::module_uses_async(module), grid),
        }
    }
}

/// Text with the source location of every line.
#[derive(Default)]
struct Out {
    text: String,
    origins: Vec<Option<Loc>>,
}

impl Out {
    fn line(&mut self, s: &str, loc: Option<Loc>) {
        self.text.push_str(s);
        self.text.push('\n');
        self.origins.push(loc);
    }
    fn append(&mut self, o: Out) {
        self.text.push_str(&o.text);
        self.origins.extend(o.origins);
    }
}

impl<'m> Tr<'m> {
    fn loc(&self, d: &Option<llvm_ir::DebugLoc>, f: &Frame) -> Option<Loc> {
        match d {
            Some(d) if d.line > 0 && std::path::Path::new(&d.filename).file_name().is_some_and(|n| n == self.file) => {
                Some(Loc { line: d.line, col: d.col.unwrap_or(1) })
            }
            _ => f.call_loc,
        }
    }

    fn err(&mut self, loc: Option<Loc>, msg: impl Into<String>) {
        self.errors.push((loc, msg.into()));
    }
}
