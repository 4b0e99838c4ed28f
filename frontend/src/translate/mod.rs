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
//! types, except in [`loaded_type`] and [`const_gep_source`] where LLVM 14 offers nothing
//! else: those two change with opaque pointers.

use crate::builtins::{self, Builtin, Spec, DIMS, IDENTITY};
use crate::layout;
use crate::memory::{Alt, Base, Lin, Ptr, Space};
use crate::{Loc, Translation};
pub use grid::Grid;
use llvm_ir::constant::Float;
use llvm_ir::instruction::{self as inst, Instruction};
use llvm_ir::terminator::Terminator;
use llvm_ir::types::{FPType, Type};
use llvm_ir::{BasicBlock, Constant, ConstantRef, Function, IntPredicate, Module, Name, Operand, TypeRef};
use std::collections::{HashMap, HashSet};

mod aggregates;
mod async_copy;
mod atomics;
mod axioms;
mod bodiless;
mod body;
mod bytes;
mod clauses;
mod collectives;
mod decls;
mod frame;
mod funcptr;
mod grid;
mod images;
mod instr;
mod int_minmax;
mod kernel_facts;
mod memops;
mod names;
mod null;
mod objects;
mod pointers;
mod short_circuit;
mod spec_functions;
mod values;
mod vectors;
mod vload;

use body::Body;
use clauses::Clauses;
use decls::Decls;
use frame::*;
use kernel_facts::KernelFacts;
pub(crate) use names::call_name;
use names::*;
use objects::Objects;
use values::*;

/// Stands for the element size in bytes of memory object N until it is known.
const WIDTH_MARK: &str = "@size_of_object_";

type Errors = Vec<(Option<Loc>, String)>;

/// What `__return_val_int()` stands for in a postcondition until a `ret` replaces it with the
/// returned value (not an identifier a program can have, so it cannot be captured).
const RETURN_VAL: &str = "$__kivl_return_val";

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
            && !spec_functions::is_spec_function(&f.name)
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

    // -----------------------------------------------------------------------------------------
    // Kernels and functions
    // -----------------------------------------------------------------------------------------

    /// A kernel procedure for `k`; `extra` for a function no one calls (its numbers are
    /// per-thread, not uniform parameters).
    fn kernel(&mut self, k: &'m Function, kloc: Option<Loc>, extra: bool, opencl: bool) -> Out {
        self.facts.uncalled = extra;
        let mut frame = self.frame(k, String::new(), None, kloc);
        let mut params = Vec::new();
        // Per parameter, its KBPL name when it is a 32-bit integer (launch sizes may use it).
        let mut ints = Vec::new();
        let (mut byvals, mut pointer_params) = (Vec::new(), Vec::new());
        for p in &k.parameters {
            let name = ident(&p.name);
            ints.push((scalar_ty(&p.ty) == Some(Ty::Bv(32))).then(|| format!("${name}")));
            if let Some(v) = self.function_pointer_param(&name, &p.ty, extra, &mut params) {
                frame.vals.insert(p.name.clone(), v);
            } else if is_pointer(&p.ty) {
                // A struct passed by value is the thread's own copy.
                let byval = p.attributes.iter().any(|a| matches!(a, llvm_ir::function::ParameterAttribute::ByVal(_)));
                let space = match addr_space(&p.ty) {
                    _ if byval => Space::Private,
                    3 => Space::GroupShared,
                    2 | 4 => Space::Constant,
                    0 if extra && opencl => Space::Private,
                    _ => Space::Global,
                };
                let b = self.objects.param_base(&name, space);
                if byval {
                    self.objects.mark_byval(b);
                    if let Type::PointerType { pointee_type, .. } = p.ty.as_ref() {
                        byvals.push((b, name.clone(), pointee_type.clone()));
                    }
                } else {
                    pointer_params.push(b);
                }
                frame.vals.insert(p.name.clone(), Val::Ptr(Ptr::to(b, Lin::default())));
            } else if let Some(t) = scalar_ty(&p.ty) {
                if extra {
                    let v = format!("${name}");
                    self.body.declare(v.clone(), t.kbpl());
                    frame.vals.insert(p.name.clone(), Val::Scalar(Ex::new(v, t)));
                    continue;
                }
                params.push(format!("${name}: {}", t.kbpl()));
                self.facts.fix(format!("${name}"));
                frame.vals.insert(p.name.clone(), Val::Scalar(Ex::new(format!("${name}"), t)));
            } else if let Some(v) = self.vector_param(&name, &p.ty, extra, &mut params) {
                frame.vals.insert(p.name.clone(), v);
            } else {
                self.err(
                    kloc,
                    format!("kernel parameter `{name}` has a type the front end does not support (structs, vectors)"),
                );
            }
        }
        self.entry_block(&frame, &byvals, &pointer_params, kloc);
        self.axioms(kloc);
        self.body.enter(k.name.clone());
        self.function_body(&mut frame);
        self.body.leave();
        // After the body: which dimensions the kernel reads decides what is assumed of the others.
        if !extra {
            self.grid_requires(k, &ints, kloc);
        }
        if self.facts.uses_async {
            self.body.declare(async_copy::PENDING.into(), "bv32".into());
            self.body.prepend(format!("{} := 0bv32;", async_copy::PENDING), kloc);
        }
        for loc in self.clauses.unmatched_barrier_invariants() {
            self.err(loc, "a barrier invariant that no barrier follows");
        }
        self.resolve_width_marks();
        let mut out = Out::default();
        out.line(&format!("procedure {{:kernel}} {}({})", kernel_name(&k.name), params.join(", ")), kloc);
        for (r, loc) in self.clauses.take_requires() {
            out.line(&format!("  requires {r};"), loc);
        }
        for (e, loc) in self.clauses.take_ensures() {
            out.line(&format!("  ensures {e};"), loc);
        }
        out.line("{", kloc);
        for (v, t) in self.body.take_locals() {
            out.line(&format!("  var {v}: {t};"), kloc);
        }
        for b in &self.objects.bases {
            if b.space == Space::Private {
                out.line(&format!("  var {}: [bv32]bv{};", b.name, b.width.unwrap_or(8)), kloc);
                if self.objects.ptr_known.holds(&b.name) {
                    out.line(&format!("  var {}: [bv32]bv32;", pointers::companion(&b.name)), kloc);
                }
            }
        }
        for b in self.body.take_blocks() {
            // A label stands where its first statement is (loops are reported at their head).
            out.line(&format!("{}:", b.label), b.stmts.first().and_then(|s| s.1));
            for (s, loc) in b.stmts {
                out.line(&format!("  {s}"), loc.or(kloc));
            }
        }
        out.line("}", None);
        out
    }

    /// Byte offsets in annotations (`__write_offset_bytes`) need the element size of their
    /// object, known only once all its accesses are translated: the text carries a mark.
    fn resolve_width_marks(&mut self) {
        let bits: Vec<u32> = self.objects.bases.iter().map(|b| b.width.unwrap_or(8)).collect();
        let mut fix = |s: &mut String| {
            for (mark, unit) in [(WIDTH_MARK, 8), (spec_functions::BITS_MARK, 1)] {
                while let Some(at) = s.find(mark) {
                    let digits: String = s[at + mark.len()..].chars().take_while(|c| c.is_ascii_digit()).collect();
                    let base: usize = digits.parse().unwrap_or(0);
                    let size = bits.get(base).map_or(8 / unit, |b| b / unit);
                    s.replace_range(at..at + mark.len() + digits.len(), &size.to_string());
                }
            }
        };
        self.body.rewrite(&mut fix);
        self.clauses.rewrite(&mut fix);
    }

    /// The frame of `f` (the kernel, or a call), with a private map for each of its stack
    /// allocations.
    fn frame(
        &mut self,
        f: &'m Function,
        prefix: String,
        ret: Option<(String, Option<String>)>,
        call_loc: Option<Loc>,
    ) -> Frame<'m> {
        let mut vals = HashMap::new();
        self.objects_of_allocas(f, &prefix, &mut vals);
        Frame::new(f, prefix, vals, ret, call_loc)
    }

    /// A private map for each stack allocation of `f` (arrays, address-taken locals).
    fn objects_of_allocas(&mut self, f: &Function, prefix: &str, vals: &mut HashMap<Name, Val>) {
        for i in f.basic_blocks.iter().flat_map(|b| b.instrs.iter()) {
            if let Instruction::Alloca(a) = i {
                let b = self.objects.new_base(format!("$$p.{prefix}{}", ident(&a.dest)), Space::Private);
                let count = int_constant(&a.num_elements);
                let size = layout::size_align(&a.allocated_type, &self.module.types).map(|s| s.0);
                self.objects.bases[b].size = size.zip(count).map(|(s, n)| s * n);
                vals.insert(a.dest.clone(), Val::Ptr(Ptr::to(b, Lin::default())));
            }
        }
    }

    fn function_body(&mut self, f: &mut Frame<'m>) {
        for (bi, b) in f.func.basic_blocks.iter().enumerate() {
            self.body.start_block(f.label(&b.name));
            // Phi nodes are assigned on the edges; their variables are declared here.
            for i in &b.instrs {
                if let Instruction::Phi(p) = i {
                    if !f.vals.contains_key(&p.dest) {
                        self.declare_phi(f, p);
                    }
                }
            }
            self.invariants(f, b, bi, f.headers.contains(&b.name));
            for i in &b.instrs {
                if matches!(i, Instruction::Phi(_)) {
                    continue;
                }
                if let Some(d) = i.try_get_result() {
                    if f.spec_only.contains(d) {
                        continue;
                    }
                }
                self.instruction(f, i, bi);
            }
            self.terminator(f, b, bi);
        }
    }

    /// `__invariant` calls of a block become its leading asserts; outside a loop head they are
    /// unsupported (Boogie reads only a loop head's leading asserts as invariants). A loop head
    /// also gets the function's `__function_wide_invariant`s, wherever they are written (their
    /// operands are folded from their own block).
    fn invariants(&mut self, f: &mut Frame<'m>, b: &'m BasicBlock, bi: usize, header: bool) {
        let own = b.instrs.iter().map(|i| (i, bi, false));
        let wide =
            f.func.basic_blocks.iter().enumerate().flat_map(|(wbi, wb)| wb.instrs.iter().map(move |i| (i, wbi, true)));
        let wide: Vec<_> = if header { wide.collect() } else { Vec::new() };
        if header && self.facts.uses_async {
            // No asynchronous copy in flight at a loop head (`async_copy.rs`).
            self.body.emit(format!("assert {{:candidate}} {} == 0bv32;", async_copy::PENDING), None);
        }
        for (i, cbi, function_wide) in own.chain(wide) {
            let Instruction::Call(c) = i else { continue };
            let s = match (self.callee_builtin(c), function_wide) {
                (Some(Builtin::Spec(s @ (Spec::Invariant | Spec::CandidateInvariant))), false) => s,
                // GPUVerify's older style: `__assert` first in a loop condition is an invariant.
                (Some(Builtin::Spec(Spec::Assert)), false) if header => Spec::Invariant,
                (Some(Builtin::Spec(Spec::FunctionWideInvariant)), true) => Spec::Invariant,
                (Some(Builtin::Spec(Spec::FunctionWideCandidateInvariant)), true) => Spec::CandidateInvariant,
                _ => continue,
            };
            let loc = self.loc(&c.debugloc, f);
            if !header {
                self.err(loc, "`__invariant` outside a loop condition: write it first in the loop's condition, e.g. `for (...; __invariant(e), i < n; ...)`");
                continue;
            }
            let Some(arg) = c.arguments.first() else { continue };
            if let Some(e) = self.spec_expr(f, &arg.0, cbi, loc) {
                let attr = if s == Spec::CandidateInvariant { "{:candidate} " } else { "" };
                self.body.emit(format!("assert {attr}{};", bool_ex(&e)), loc);
            }
        }
    }

    /// GPUVerify's rules for a `__function_wide_invariant`: written at the end of its function
    /// (after the last statement), about what every loop head can see: parameters, constants,
    /// memory and the work-item functions, not values the function computes on the way.
    pub(super) fn function_wide_ok(&mut self, f: &Frame<'m>, arg: &Operand, cbi: usize, loc: Option<Loc>) -> bool {
        let b = &f.func.basic_blocks[cbi];
        let spec = |i: &Instruction| match i {
            Instruction::Call(c) => self.callee_builtin(c),
            _ => None,
        };
        // After the first function-wide invariant of the block: only annotations, ignored
        // intrinsics and the values they fold in.
        let at_end = matches!(b.term, Terminator::Ret(_))
            && b.instrs.iter().skip_while(|i| !matches!(spec(i), Some(Builtin::Spec(s)) if s.is_function_wide())).all(
                |i| match i {
                    Instruction::Call(_) => matches!(spec(i), Some(Builtin::Spec(_) | Builtin::Ignore)),
                    _ => i.try_get_result().is_some_and(|d| f.spec_only.contains(d)),
                },
            );
        if !at_end {
            self.err(loc, "`__function_wide_invariant` must come after the last statement of its function");
            return false;
        }
        fn entry_only(f: &Frame, op: &Operand, depth: usize) -> bool {
            let Operand::LocalOperand { name, .. } = op else { return true };
            if f.func.parameters.iter().any(|p| &p.name == name) {
                return true;
            }
            match f.defs.get(name) {
                // A load is run where it is written unless only clauses use it.
                Some((i, _))
                    if depth < 64
                        && is_pure(i)
                        && (!matches!(i, Instruction::Load(_)) || f.spec_only.contains(name)) =>
                {
                    operands(i).into_iter().all(|o| entry_only(f, o, depth + 1))
                }
                _ => false,
            }
        }
        if !entry_only(f, arg, 0) {
            self.err(loc, "`__function_wide_invariant` may use only the function's parameters, memory, constants and work-item functions, not values computed in the function");
            return false;
        }
        true
    }

    fn declare_phi(&mut self, f: &mut Frame<'m>, p: &inst::Phi) {
        let loc = self.loc(&p.debugloc, f);
        if is_pointer(&p.to_type) && !is_event(&p.to_type) {
            // A pointer phi gets a variable for the byte offset, and one for the object when
            // its incoming pointers point into different ones.
            let mut cands: Vec<usize> = Vec::new();
            for (op, _) in &p.incoming_values {
                for c in self.static_objects(f, op, 0, loc).unwrap_or_default() {
                    if !cands.contains(&c) {
                        cands.push(c);
                    }
                }
            }
            let Some(&base) = cands.first() else {
                self.err(loc, "a pointer whose memory object cannot be determined statically");
                return;
            };
            let v = format!("{}.off", f.var(&p.dest));
            self.body.declare(v.clone(), "bv32".into());
            let alt = (cands.len() > 1).then(|| {
                let sel = format!("{}.obj", f.var(&p.dest));
                self.body.declare(sel.clone(), "bv32".into());
                Alt { sel, cands }
            });
            f.vals.insert(p.dest.clone(), Val::Ptr(Ptr { base, off: Lin::term(v, 1), alt }));
        } else if let Some(t) = memory_scalar_ty(&p.to_type) {
            let v = f.var(&p.dest);
            self.body.declare(v.clone(), t.kbpl());
            f.vals.insert(p.dest.clone(), Val::Scalar(Ex::new(v, t)));
        } else if let Some(lanes) = self.lane_vars(&f.var(&p.dest), &p.to_type) {
            f.vals.insert(p.dest.clone(), Val::Vector(lanes));
        } else {
            self.err(loc, "a value of an aggregate type");
        }
    }

    /// The assignments of the phi nodes of `to` for the edge from `from`.
    fn phi_moves(&mut self, f: &mut Frame<'m>, from: &Name, to: &Name, loc: Option<Loc>) -> Option<String> {
        let target = f.func.basic_blocks.iter().find(|b| b.name == *to)?;
        let mut lhs = Vec::new();
        let mut rhs = Vec::new();
        for i in &target.instrs {
            let Instruction::Phi(p) = i else { continue };
            let Some((op, _)) = p.incoming_values.iter().find(|(_, b)| b == from) else { continue };
            // The target may come later in the layout: its phi variables are declared now.
            if !f.vals.contains_key(&p.dest) {
                self.declare_phi(f, p);
            }
            let val = self.operand(f, op, loc);
            match (f.vals.get(&p.dest).cloned(), val) {
                (Some(Val::Scalar(d)), Some(Val::Scalar(e))) => {
                    lhs.push(d.text);
                    rhs.push(e.text);
                }
                (Some(Val::Ptr(d)), Some(Val::Ptr(e))) if e.cands().iter().all(|c| d.cands().contains(c)) => {
                    lhs.push(d.off.terms[0].0.clone());
                    rhs.push(e.off.expr(&mut self.decls.needs_fn()));
                    if let Some(alt) = &d.alt {
                        lhs.push(alt.sel.clone());
                        rhs.push(e.sel());
                    }
                }
                (Some(Val::Ptr(_)), Some(Val::Ptr(_))) => {
                    self.err(loc, "a pointer that may point into memory objects the front end did not foresee");
                }
                (Some(Val::Vector(d)), Some(Val::Vector(e))) if d.len() == e.len() => {
                    lhs.extend(d.into_iter().map(|x| x.text));
                    rhs.extend(e.into_iter().map(|x| x.text));
                }
                (None, _) | (_, None) => {} // reported where it was found
                _ => self.err(loc, "a phi node mixing pointers and numbers"),
            }
        }
        (!lhs.is_empty()).then(|| format!("{} := {};", lhs.join(", "), rhs.join(", ")))
    }

    /// Jumps along the edge `from → to`, through an edge block when there is a guard or a phi.
    fn edge(&mut self, f: &mut Frame<'m>, from: &Name, to: &Name, guard: Option<String>, loc: Option<Loc>) -> String {
        let moves = self.phi_moves(f, from, to, loc);
        if guard.is_none() && moves.is_none() {
            return f.label(to);
        }
        let label = format!("{}$e{}", f.label(from), self.body.next_number());
        let mut stmts = Vec::new();
        if let Some(g) = guard {
            stmts.push((format!("assume {g};"), loc));
        }
        if let Some(m) = moves {
            stmts.push((m, loc));
        }
        stmts.push((format!("goto {};", f.label(to)), loc));
        self.body.add_edge_block(label.clone(), stmts);
        label
    }

    fn terminator(&mut self, f: &mut Frame<'m>, b: &'m BasicBlock, bi: usize) {
        let from = &b.name;
        match &b.term {
            Terminator::Ret(r) => {
                let loc = self.loc(&r.debugloc, f);
                // The returned value, for the postconditions and for the caller.
                let value = r.return_operand.as_ref().and_then(|op| self.operand(f, op, loc));
                let mut spec_clauses = Vec::new();
                for (e, eloc) in f.ensures.clone() {
                    let Some(e) = with_return_value(&e, value.as_ref()) else {
                        self.err(eloc, "`__return_val_*()` in a function that returns no number (or no vector)");
                        continue;
                    };
                    if f.spec {
                        spec_clauses.push((e, eloc));
                    } else {
                        self.body.emit(format!("assert {{:check \"postcondition\"}} {e};"), eloc.or(loc));
                    }
                }
                if f.spec {
                    self.spec_function_end(f, &spec_clauses, loc);
                }
                match f.ret.clone() {
                    None => self.body.emit("return;".into(), loc),
                    Some((cont, result)) => {
                        if let Some(res) = result {
                            match value {
                                Some(Val::Scalar(e)) => self.body.emit(format!("{res} := {};", e.text), loc),
                                Some(Val::Vector(lanes)) => self.vector_return(&res, &lanes, loc),
                                Some(Val::Ptr(p)) => {
                                    // The byte offset and the object's number: returns may
                                    // point into different objects (one may be null).
                                    for c in p.cands() {
                                        if !f.ret_cands.contains(&c) {
                                            f.ret_cands.push(c);
                                        }
                                    }
                                    let off = p.off.expr(&mut self.decls.needs_fn());
                                    let sel = ret_selector(&res);
                                    self.body.declare(sel.clone(), "bv32".into());
                                    self.body.emit(format!("{res}, {sel} := {off}, {};", p.sel()), loc);
                                }
                                None => {}
                            }
                        }
                        self.body.emit(format!("goto {cont};"), loc);
                    }
                }
            }
            Terminator::Br(br) => {
                let loc = self.loc(&br.debugloc, f);
                let l = self.edge(f, from, &br.dest, None, loc);
                self.body.emit(format!("goto {l};"), loc);
            }
            Terminator::CondBr(c) => {
                let loc = self.loc(&c.debugloc, f);
                // The condition is folded into the guards, so that they name the variables
                // the loop changes (what invariant inference looks at), not a temporary.
                let Some(cond) = self.spec_expr(f, &c.condition, bi, loc) else { return };
                let cond = bool_ex(&cond);
                let t = self.edge(f, from, &c.true_dest, Some(cond.clone()), loc);
                let e = self.edge(f, from, &c.false_dest, Some(format!("!{cond}")), loc);
                self.body.emit(format!("goto {t}, {e};"), loc);
            }
            Terminator::Switch(s) => {
                let loc = self.loc(&s.debugloc, f);
                let Some(v) = self.spec_expr(f, &s.operand, bi, loc) else { return };
                let mut targets = Vec::new();
                let mut cases = Vec::new();
                for (c, dest) in &s.dests {
                    let Some(Val::Scalar(c)) = self.constant(f, c, loc) else { return };
                    let guard = format!("{} == {}", v.text, c.text);
                    cases.push(format!("{} != {}", v.text, c.text));
                    targets.push(self.edge(f, from, dest, Some(guard), loc));
                }
                let default = if cases.is_empty() { "true".to_string() } else { cases.join(" && ") };
                targets.push(self.edge(f, from, &s.default_dest, Some(format!("({default})")), loc));
                self.body.emit(format!("goto {};", targets.join(", ")), loc);
            }
            Terminator::Unreachable(u) => {
                // Reaching it is undefined behaviour (after a call of a `noreturn` function,
                // `__builtin_unreachable()`, the end of a C++ function that returns a value):
                // an error, as GPUVerify reports it, never an assumption.
                let last = b.instrs.last().map(llvm_ir::HasDebugLoc::get_debug_loc);
                let loc = self.loc(&u.debugloc, f).or_else(|| last.and_then(|d| self.loc(d, f)));
                self.body.emit(format!("assert {{:msg \"{UNREACHABLE}\"}} false;"), loc);
                self.body.emit("return;".into(), loc);
            }
            other => {
                let loc = self.loc(llvm_ir::HasDebugLoc::get_debug_loc(other), f);
                self.err(loc, "an unsupported control transfer (exceptions, indirect branches)");
            }
        }
    }
}

/// The message of the failing assertion that `unreachable` becomes.
const UNREACHABLE: &str = "possible execution of unreachable code (after a call of a function that never returns)";

/// A postcondition with the function's returned value for [`RETURN_VAL`] (a number) or for its
/// lanes `RETURN_VAL.k` (a vector, `__return_val_int4()`); `None` when the clause names a result
/// the function does not return.
fn with_return_value(clause: &str, value: Option<&Val>) -> Option<String> {
    let lane_mark = format!("{RETURN_VAL}.");
    let e = match value {
        Some(Val::Vector(lanes)) => lanes
            .iter()
            .enumerate()
            .rev()
            .fold(clause.to_string(), |e, (k, lane)| e.replace(&format!("{RETURN_VAL}.{k}"), &lane.text)),
        Some(Val::Scalar(v)) if !clause.contains(&lane_mark) => clause.replace(RETURN_VAL, &v.text),
        _ => clause.to_string(),
    };
    (!e.contains(RETURN_VAL)).then_some(e)
}

/// The selector variable of a returned pointer whose offset variable is `off` (`X.off`).
fn ret_selector(off: &str) -> String {
    format!("{}.obj", off.strip_suffix(".off").unwrap_or(off))
}
