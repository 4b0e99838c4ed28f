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
use std::collections::{BTreeMap, HashMap, HashSet};

mod aggregates;
mod async_copy;
mod atomics;
mod axioms;
mod bodiless;
mod bytes;
mod collectives;
mod funcptr;
mod grid;
mod images;
mod instr;
mod int_minmax;
mod memops;
mod null;
mod pointers;
mod short_circuit;
mod spec_functions;
mod vectors;
mod vload;

/// Instructions folded into one clause or guard at most.
const FOLD_BUDGET: usize = 256;

/// Stands for the element size in bytes of memory object N until it is known.
const WIDTH_MARK: &str = "@size_of_object_";

type Errors = Vec<(Option<Loc>, String)>;

/// A scalar KBPL type: `bool` for `i1`, `bvN` for integers and floats (floats keep their
/// width for the names of their uninterpreted operations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Bool,
    Bv(u32),
    Float(u32),
}

impl Ty {
    fn kbpl(self) -> String {
        match self {
            Ty::Bool => "bool".into(),
            Ty::Bv(w) | Ty::Float(w) => format!("bv{w}"),
        }
    }
    fn width(self) -> u32 {
        match self {
            Ty::Bool => 1,
            Ty::Bv(w) | Ty::Float(w) => w,
        }
    }
}

/// A scalar expression; `bool_of` is the boolean it encodes when it is `if b then 1 else 0`
/// (C's comparisons become ints), so that `x != 0` folds back to `b`.
#[derive(Clone, Debug)]
struct Ex {
    text: String,
    ty: Ty,
    bool_of: Option<String>,
}

impl Ex {
    fn new(text: String, ty: Ty) -> Ex {
        Ex { text, ty, bool_of: None }
    }
}

#[derive(Clone, Debug)]
enum Val {
    Scalar(Ex),
    Ptr(Ptr),
    /// A vector: one scalar per lane (`vectors.rs`).
    Vector(Vec<Ex>),
}

/// One generated block: a label and its statements with their source locations.
struct Block {
    label: String,
    stmts: Vec<(String, Option<Loc>)>,
}

/// What `__return_val_int()` stands for in a postcondition until a `ret` replaces it with the
/// returned value (not an identifier a program can have, so it cannot be captured).
const RETURN_VAL: &str = "$__kivl_return_val";

/// One function being translated: the kernel, or an inlined call.
struct Frame<'m> {
    func: &'m Function,
    prefix: String,
    vals: HashMap<Name, Val>,
    defs: HashMap<Name, (&'m Instruction, usize)>,
    /// Values only used to compute specification clauses (not run).
    spec_only: HashSet<Name>,
    /// Loop heads: their `__assert`s are loop invariants (Boogie's leading asserts).
    headers: HashSet<Name>,
    /// Where a `ret` goes: the continuation label and the caller's result variable.
    ret: Option<(String, Option<String>)>,
    /// Where code of this function that is not in the kernel file is reported.
    call_loc: Option<Loc>,
    /// `__ensures` of an inlined function, checked at its returns (reported at the clause).
    ensures: Vec<(String, Option<Loc>)>,
    /// The memory objects the pointers this function returns point into (null included).
    ret_cands: Vec<usize>,
    /// A `__spec_` function called by a kernel (`spec_functions.rs`), and its `__reads_from`
    /// (false) and `__writes_to` (true) objects.
    spec: bool,
    spec_accesses: Vec<(bool, usize, Option<Loc>)>,
}

struct Tr<'m> {
    module: &'m Module,
    file: &'m str,
    bases: Vec<Base>,
    global_bases: HashMap<String, usize>,
    functions: BTreeMap<String, String>,
    locals: BTreeMap<String, String>,
    blocks: Vec<Block>,
    /// Edge blocks, placed after the function's blocks.
    edge_blocks: Vec<Block>,
    requires: Vec<(String, Option<Loc>)>,
    ensures: Vec<(String, Option<Loc>)>,
    errors: Errors,
    stack: Vec<String>,
    calls: usize,
    fresh: usize,
    /// Barrier invariants waiting for their barrier: `invariant {:instantiate …} φ;` texts.
    pending_barrier_invariants: Vec<(String, Option<Loc>)>,
    work_dim: Option<u32>,
    /// `--check-array-bounds` (see [`crate::Options`]).
    check_bounds: bool,
    /// Translating a specification's operands: memory reads there are not accesses.
    in_spec: bool,
    /// Instructions one clause or guard may still fold in (see `instr::arg`).
    fold_budget: usize,
    /// The procedure being built is a function no kernel calls, checked on its own.
    uncalled: bool,
    /// The lane an element-wise vector operation is being translated for (`vectors.rs`).
    lane: Option<usize>,
    /// Identity constants and the kernel's scalar parameters: names whose value is fixed.
    fixed_names: HashSet<String>,
    /// The module calls `async_work_group_copy` & co. (`async_copy.rs`).
    uses_async: bool,
    /// Asynchronous-copy call sites translated so far in this kernel.
    async_sites: usize,
    /// The objects whose maps hold bytes (`bytes.rs`), and those found accessed with
    /// different widths while translating.
    byte_level: HashSet<String>,
    width_conflicts: Vec<String>,
    /// What the previous translation learnt about pointers in memory, and what this one
    /// learns (`pointers.rs`).
    ptr_known: pointers::PtrFacts,
    ptr_found: pointers::PtrFacts,
    /// The objects of by-value struct parameters.
    byval_params: HashSet<usize>,
    /// A CUDA program's launches, when the command line gives no sizes (`grid.rs`).
    grid: Option<&'m Grid>,
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
    let mut functions = BTreeMap::new();
    let mut fallback = None;
    let opencl = module.target_triple.as_deref().is_some_and(|t| t.starts_with("spir"));
    for (k, extra) in entries {
        let mut tr = Tr::new(module, file, std::mem::take(&mut bases), std::mem::take(&mut functions), opts);
        tr.byte_level = byte_level.clone();
        tr.grid = grid;
        tr.ptr_known = facts.clone();
        let kloc = k.debugloc.as_ref().map(|d| Loc { line: d.line, col: d.col.unwrap_or(1) });
        fallback = fallback.or(kloc);
        let proc_text = tr.kernel(k, kloc, extra, opencl);
        all_errors.append(&mut tr.errors);
        conflicts.append(&mut tr.width_conflicts);
        found.absorb(std::mem::take(&mut tr.ptr_found));
        // Private maps are locals of this kernel only.
        tr.bases.retain(|b| b.space != Space::Private);
        bases = tr.bases;
        functions = tr.functions;
        procs.push(proc_text);
    }
    if !all_errors.is_empty() {
        let mut seen = HashSet::new();
        all_errors.retain(|e| seen.insert(e.clone()));
        return (Err(all_errors), conflicts, found);
    }
    let text = program_text(&functions, &bases, facts, procs);
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
fn program_text(
    functions: &BTreeMap<String, String>,
    bases: &[Base],
    facts: &pointers::PtrFacts,
    procs: Vec<Out>,
) -> Out {
    let mut text = Out::default();
    for w in IDENTITY {
        for d in DIMS {
            text.line(&format!("const {{:{w}_{d}}} {w}_{d}: bv32;"), None);
        }
    }
    for f in functions.values() {
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
    /// A translator for one entry point, with the memory objects and functions of the ones
    /// before it. Globals shared between kernels keep one map: they are re-registered by name.
    fn new(
        module: &'m Module,
        file: &'m str,
        bases: Vec<Base>,
        functions: BTreeMap<String, String>,
        opts: &crate::Options,
    ) -> Self {
        let mut tr = Tr {
            module,
            file,
            bases,
            global_bases: HashMap::new(),
            functions,
            locals: BTreeMap::new(),
            blocks: Vec::new(),
            edge_blocks: Vec::new(),
            requires: Vec::new(),
            ensures: Vec::new(),
            errors: Vec::new(),
            stack: Vec::new(),
            calls: 0,
            fresh: 0,
            pending_barrier_invariants: Vec::new(),
            work_dim: opts.work_dim,
            check_bounds: opts.check_array_bounds,
            in_spec: false,
            uncalled: false,
            lane: None,
            fold_budget: 0,
            fixed_names: IDENTITY.iter().flat_map(|w| DIMS.iter().map(move |d| format!("{w}_{d}"))).collect(),
            uses_async: async_copy::module_uses_async(module),
            async_sites: 0,
            byte_level: HashSet::new(),
            width_conflicts: Vec::new(),
            ptr_known: pointers::PtrFacts::default(),
            ptr_found: pointers::PtrFacts::default(),
            byval_params: HashSet::new(),
            grid: None,
        };
        for (i, b) in tr.bases.iter().enumerate() {
            if b.space != Space::Private {
                tr.global_bases.insert(b.name.clone(), i);
            }
        }
        tr
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

/// A KBPL identifier for an LLVM name (identifiers keep letters, digits, `_`, `.`, `$`).
fn ident(n: &Name) -> String {
    match n {
        Name::Name(s) => {
            s.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$') { c } else { '_' }).collect()
        }
        Name::Number(k) => format!("{k}"),
    }
}

/// A kernel's procedure name: its source name, and for an instance of a template the template
/// arguments that are numbers or builtin types (`_Z3redILi256EEvPf` → `red$256`), so that two
/// instances launched by one program are two procedures.
fn kernel_name(mangled: &str) -> String {
    let plain = global_name(builtins::demangle(mangled));
    let Some(rest) = mangled.strip_prefix("_Z") else { return plain };
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    let Some(args) = rest[digits..].get(plain.len()..).and_then(|r| r.strip_prefix('I')) else { return plain };
    let (mut parts, mut at) = (Vec::new(), args);
    let ty = |c: char| {
        Some(match c {
            'i' => "int",
            'j' => "uint",
            'f' => "float",
            'd' => "double",
            'c' | 'a' => "char",
            'h' => "uchar",
            's' => "short",
            't' => "ushort",
            'l' => "long",
            'm' => "ulong",
            'x' => "longlong",
            'y' => "ulonglong",
            'b' => "bool",
            _ => return None,
        })
    };
    while let Some(c) = at.chars().next() {
        if c == 'E' {
            break;
        }
        if let Some(lit) = at.strip_prefix('L') {
            // `Li256E`: a literal of a builtin type; `n` marks a negative one.
            let body = lit.get(1..).unwrap_or("");
            let Some(end) = body.find('E') else { break };
            parts.push(body[..end].replace('n', "minus"));
            at = &body[end + 1..];
        } else if let Some(t) = ty(c) {
            parts.push(t.to_string());
            at = &at[1..];
        } else {
            break;
        }
    }
    if parts.is_empty() {
        plain
    } else {
        format!("{plain}${}", parts.join("_"))
    }
}

/// The declared name of a C++ function-local static (`_ZZ3addPiiE1s` → `s`) or a global.
fn global_name(mangled: &str) -> String {
    let plain = mangled
        .strip_prefix("_ZZ")
        .and_then(|r| r.rfind('E').map(|e| &r[e + 1..]))
        .map(|rest| {
            // `<length><name>`, possibly followed by a discriminator.
            let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
            match rest[..digits].parse::<usize>() {
                Ok(n) if digits + n <= rest.len() => &rest[digits..digits + n],
                _ => rest,
            }
        })
        .filter(|s| !s.is_empty())
        .unwrap_or(mangled);
    plain.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$') { c } else { '_' }).collect()
}

fn scalar_ty(ty: &TypeRef) -> Option<Ty> {
    match ty.as_ref() {
        Type::IntegerType { bits: 1 } => Some(Ty::Bool),
        Type::IntegerType { bits } => Some(Ty::Bv(*bits)),
        Type::FPType(FPType::Half) => Some(Ty::Float(16)),
        Type::FPType(FPType::Single) => Some(Ty::Float(32)),
        Type::FPType(FPType::Double) => Some(Ty::Float(64)),
        _ => None,
    }
}

/// The scalar type of one lane: `scalar_ty` of a vector's element type, or of `ty` itself
/// (casts translated lane by lane, `vectors.rs`).
fn lane_ty(ty: &TypeRef) -> Option<Ty> {
    match vectors::vector_shape(ty) {
        Some((_, elem)) => scalar_ty(&elem),
        None => scalar_ty(ty),
    }
}

fn is_pointer(ty: &TypeRef) -> bool {
    matches!(ty.as_ref(), Type::PointerType { .. })
}

fn addr_space(ty: &TypeRef) -> u32 {
    match ty.as_ref() {
        Type::PointerType { addr_space, .. } => *addr_space,
        _ => 0,
    }
}

/// The type a load reads. LLVM 14: the pointee type; LLVM 15+: `Load::loaded_ty`.
fn loaded_type(m: &Module, l: &inst::Load) -> TypeRef {
    m.type_of(l)
}

/// The source element type of a constant GEP. LLVM 14: the pointee type of its address.
fn const_gep_source(m: &Module, address: &ConstantRef) -> Option<TypeRef> {
    match m.type_of(address).as_ref() {
        Type::PointerType { pointee_type, .. } => Some(pointee_type.clone()),
        _ => None,
    }
}

fn bool_ex(e: &Ex) -> String {
    if let Some(b) = &e.bool_of {
        return b.clone();
    }
    match e.ty {
        Ty::Bool => e.text.clone(),
        t => format!("({} != 0bv{})", e.text, t.width()),
    }
}

fn bool_to_int(b: String, w: u32) -> Ex {
    Ex { text: format!("(if {b} then 1bv{w} else 0bv{w})"), ty: Ty::Bv(w), bool_of: Some(b) }
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

    fn emit(&mut self, s: String, loc: Option<Loc>) {
        if let Some(b) = self.blocks.last_mut() {
            b.stmts.push((s, loc));
        }
    }

    fn start_block(&mut self, label: String) {
        self.blocks.push(Block { label, stmts: Vec::new() });
    }

    /// Declares a bit-vector operation `BVw_OP` on demand.
    fn bvop(&mut self, op: &str, w: u32) -> String {
        let (smt, result) = match op {
            "ADD" => ("bvadd", None),
            "SUB" => ("bvsub", None),
            "MUL" => ("bvmul", None),
            "UDIV" => ("bvudiv", None),
            "SDIV" => ("bvsdiv", None),
            "UREM" => ("bvurem", None),
            "SREM" => ("bvsrem", None),
            "AND" => ("bvand", None),
            "OR" => ("bvor", None),
            "XOR" => ("bvxor", None),
            "SHL" => ("bvshl", None),
            "LSHR" => ("bvlshr", None),
            "ASHR" => ("bvashr", None),
            "ULT" => ("bvult", Some("bool")),
            "ULE" => ("bvule", Some("bool")),
            "UGT" => ("bvugt", Some("bool")),
            "UGE" => ("bvuge", Some("bool")),
            "SLT" => ("bvslt", Some("bool")),
            "SLE" => ("bvsle", Some("bool")),
            "SGT" => ("bvsgt", Some("bool")),
            _ => ("bvsge", Some("bool")),
        };
        let name = format!("BV{w}_{op}");
        let res = result.map_or(format!("bv{w}"), str::to_string);
        self.functions
            .entry(name.clone())
            .or_insert_with(|| format!("function {{:bvbuiltin \"{smt}\"}} {name}(bv{w}, bv{w}): {res};"));
        name
    }

    /// Declares an uninterpreted function (float operations, unknown pure externals).
    fn uninterpreted(&mut self, name: &str, args: &[Ty], result: Ty) -> String {
        let args: Vec<String> = args.iter().map(|t| t.kbpl()).collect();
        self.functions
            .entry(name.to_string())
            .or_insert_with(|| format!("function {name}({}): {};", args.join(", "), result.kbpl()));
        name.to_string()
    }

    fn needs_fn(&mut self) -> impl FnMut(&'static str) + use<'_, 'm> {
        |name: &'static str| {
            let op = name.strip_prefix("BV32_").unwrap_or("ADD");
            let _ = self.bvop(op, 32);
        }
    }

    fn fresh_var(&mut self, base: &str, ty: &str) -> String {
        self.fresh += 1;
        let v = format!("${base}${}", self.fresh);
        self.locals.insert(v.clone(), ty.to_string());
        v
    }

    // -----------------------------------------------------------------------------------------
    // Kernels and functions
    // -----------------------------------------------------------------------------------------

    /// A kernel procedure for `k`; `extra` for a function no one calls (its numbers are
    /// per-thread, not uniform parameters).
    fn kernel(&mut self, k: &'m Function, kloc: Option<Loc>, extra: bool, opencl: bool) -> Out {
        self.uncalled = extra;
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
                let b = self.param_base(&name, space);
                if byval {
                    self.byval_params.insert(b);
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
                    self.locals.insert(v.clone(), t.kbpl());
                    frame.vals.insert(p.name.clone(), Val::Scalar(Ex::new(v, t)));
                    continue;
                }
                params.push(format!("${name}: {}", t.kbpl()));
                self.fixed_names.insert(format!("${name}"));
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
        self.stack.push(k.name.clone());
        self.function_body(&mut frame);
        self.stack.pop();
        // After the body: which dimensions the kernel reads decides what is assumed of the others.
        if !extra {
            self.grid_requires(k, &ints, kloc);
        }
        if self.uses_async {
            self.locals.insert(async_copy::PENDING.into(), "bv32".into());
            if let Some(b) = self.blocks.first_mut() {
                b.stmts.insert(0, (format!("{} := 0bv32;", async_copy::PENDING), kloc));
            }
        }
        for (_, loc) in std::mem::take(&mut self.pending_barrier_invariants) {
            self.err(loc, "a barrier invariant that no barrier follows");
        }
        self.resolve_width_marks();
        let mut out = Out::default();
        out.line(&format!("procedure {{:kernel}} {}({})", kernel_name(&k.name), params.join(", ")), kloc);
        for (r, loc) in std::mem::take(&mut self.requires) {
            out.line(&format!("  requires {r};"), loc);
        }
        for (e, loc) in std::mem::take(&mut self.ensures) {
            out.line(&format!("  ensures {e};"), loc);
        }
        out.line("{", kloc);
        for (v, t) in std::mem::take(&mut self.locals) {
            out.line(&format!("  var {v}: {t};"), kloc);
        }
        for b in &self.bases {
            if b.space == Space::Private {
                out.line(&format!("  var {}: [bv32]bv{};", b.name, b.width.unwrap_or(8)), kloc);
                if self.ptr_known.holds(&b.name) {
                    out.line(&format!("  var {}: [bv32]bv32;", pointers::companion(&b.name)), kloc);
                }
            }
        }
        let mut blocks = std::mem::take(&mut self.blocks);
        blocks.append(&mut self.edge_blocks);
        for b in blocks {
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
        let bits: Vec<u32> = self.bases.iter().map(|b| b.width.unwrap_or(8)).collect();
        let fix = |s: &mut String| {
            for (mark, unit) in [(WIDTH_MARK, 8), (spec_functions::BITS_MARK, 1)] {
                while let Some(at) = s.find(mark) {
                    let digits: String = s[at + mark.len()..].chars().take_while(|c| c.is_ascii_digit()).collect();
                    let base: usize = digits.parse().unwrap_or(0);
                    let size = bits.get(base).map_or(8 / unit, |b| b / unit);
                    s.replace_range(at..at + mark.len() + digits.len(), &size.to_string());
                }
            }
        };
        for ty in self.locals.values_mut() {
            fix(ty);
        }
        for b in self.blocks.iter_mut().chain(self.edge_blocks.iter_mut()) {
            for st in &mut b.stmts {
                fix(&mut st.0);
            }
        }
        for r in self.requires.iter_mut().chain(self.ensures.iter_mut()) {
            fix(&mut r.0);
        }
    }

    /// The map of a pointer parameter: shared with other kernels' parameters of the same name
    /// and memory, renamed when the memory differs.
    fn param_base(&mut self, name: &str, space: Space) -> usize {
        let mut map = format!("$${name}");
        let mut k = 0;
        while let Some(&b) = self.global_bases.get(&map) {
            if self.bases[b].space == space && space != Space::Private {
                return b;
            }
            k += 1;
            map = format!("$${name}.{k}");
        }
        let b = self.new_base(map.clone(), space);
        if space != Space::Private {
            self.global_bases.insert(map, b);
        }
        b
    }

    fn new_base(&mut self, name: String, space: Space) -> usize {
        self.bases.push(Base { name, space, width: None, size: None });
        self.bases.len() - 1
    }

    fn frame(
        &mut self,
        f: &'m Function,
        prefix: String,
        ret: Option<(String, Option<String>)>,
        call_loc: Option<Loc>,
    ) -> Frame<'m> {
        let mut defs = HashMap::new();
        for (bi, b) in f.basic_blocks.iter().enumerate() {
            for i in &b.instrs {
                if let Some(d) = i.try_get_result() {
                    defs.insert(d.clone(), (i, bi));
                }
            }
        }
        let headers = loop_headers(f);
        let spec_only = spec_only_values(f, &defs, &headers);
        let mut vals = HashMap::new();
        self.objects_of_allocas(f, &prefix, &mut vals);
        Frame {
            func: f,
            prefix,
            vals,
            defs,
            spec_only,
            headers,
            spec: ret.is_some() && spec_functions::is_spec_function(&f.name),
            ret,
            call_loc,
            ensures: Vec::new(),
            ret_cands: Vec::new(),
            spec_accesses: Vec::new(),
        }
    }

    /// A private map for each stack allocation of `f` (arrays, address-taken locals).
    fn objects_of_allocas(&mut self, f: &Function, prefix: &str, vals: &mut HashMap<Name, Val>) {
        for i in f.basic_blocks.iter().flat_map(|b| b.instrs.iter()) {
            if let Instruction::Alloca(a) = i {
                let b = self.new_base(format!("$$p.{prefix}{}", ident(&a.dest)), Space::Private);
                let count = int_constant(&a.num_elements);
                let size = layout::size_align(&a.allocated_type, &self.module.types).map(|s| s.0);
                self.bases[b].size = size.zip(count).map(|(s, n)| s * n);
                vals.insert(a.dest.clone(), Val::Ptr(Ptr::to(b, Lin::default())));
            }
        }
    }

    fn label(&self, f: &Frame, b: &Name) -> String {
        format!("$bb.{}{}", f.prefix, ident(b))
    }

    fn var(&self, f: &Frame, n: &Name) -> String {
        format!("${}{}", f.prefix, ident(n))
    }

    fn function_body(&mut self, f: &mut Frame<'m>) {
        for (bi, b) in f.func.basic_blocks.iter().enumerate() {
            self.start_block(self.label(f, &b.name));
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
        if header && self.uses_async {
            // No asynchronous copy in flight at a loop head (`async_copy.rs`).
            self.emit(format!("assert {{:candidate}} {} == 0bv32;", async_copy::PENDING), None);
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
                self.emit(format!("assert {attr}{};", bool_ex(&e)), loc);
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
        if is_pointer(&p.to_type) && !async_copy::is_event(&p.to_type) {
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
            let v = format!("{}.off", self.var(f, &p.dest));
            self.locals.insert(v.clone(), "bv32".into());
            let alt = (cands.len() > 1).then(|| {
                let sel = format!("{}.obj", self.var(f, &p.dest));
                self.locals.insert(sel.clone(), "bv32".into());
                Alt { sel, cands }
            });
            f.vals.insert(p.dest.clone(), Val::Ptr(Ptr { base, off: Lin::term(v, 1), alt }));
        } else if let Some(t) = instr::memory_scalar_ty(&p.to_type) {
            let v = self.var(f, &p.dest);
            self.locals.insert(v.clone(), t.kbpl());
            f.vals.insert(p.dest.clone(), Val::Scalar(Ex::new(v, t)));
        } else if let Some(lanes) = self.lane_vars(&self.var(f, &p.dest), &p.to_type) {
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
                    rhs.push(e.off.expr(&mut self.needs_fn()));
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
            return self.label(f, to);
        }
        self.fresh += 1;
        let label = format!("{}$e{}", self.label(f, from), self.fresh);
        let mut stmts = Vec::new();
        if let Some(g) = guard {
            stmts.push((format!("assume {g};"), loc));
        }
        if let Some(m) = moves {
            stmts.push((m, loc));
        }
        stmts.push((format!("goto {};", self.label(f, to)), loc));
        self.edge_blocks.push(Block { label: label.clone(), stmts });
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
                        self.emit(format!("assert {{:check \"postcondition\"}} {e};"), eloc.or(loc));
                    }
                }
                if f.spec {
                    self.spec_function_end(f, &spec_clauses, loc);
                }
                match f.ret.clone() {
                    None => self.emit("return;".into(), loc),
                    Some((cont, result)) => {
                        if let Some(res) = result {
                            match value {
                                Some(Val::Scalar(e)) => self.emit(format!("{res} := {};", e.text), loc),
                                Some(Val::Vector(lanes)) => self.vector_return(&res, &lanes, loc),
                                Some(Val::Ptr(p)) => {
                                    // The byte offset and the object's number: returns may
                                    // point into different objects (one may be null).
                                    for c in p.cands() {
                                        if !f.ret_cands.contains(&c) {
                                            f.ret_cands.push(c);
                                        }
                                    }
                                    let off = p.off.expr(&mut self.needs_fn());
                                    let sel = ret_selector(&res);
                                    self.locals.insert(sel.clone(), "bv32".into());
                                    self.emit(format!("{res}, {sel} := {off}, {};", p.sel()), loc);
                                }
                                None => {}
                            }
                        }
                        self.emit(format!("goto {cont};"), loc);
                    }
                }
            }
            Terminator::Br(br) => {
                let loc = self.loc(&br.debugloc, f);
                let l = self.edge(f, from, &br.dest, None, loc);
                self.emit(format!("goto {l};"), loc);
            }
            Terminator::CondBr(c) => {
                let loc = self.loc(&c.debugloc, f);
                // The condition is folded into the guards, so that they name the variables
                // the loop changes (what invariant inference looks at), not a temporary.
                let Some(cond) = self.spec_expr(f, &c.condition, bi, loc) else { return };
                let cond = bool_ex(&cond);
                let t = self.edge(f, from, &c.true_dest, Some(cond.clone()), loc);
                let e = self.edge(f, from, &c.false_dest, Some(format!("!{cond}")), loc);
                self.emit(format!("goto {t}, {e};"), loc);
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
                self.emit(format!("goto {};", targets.join(", ")), loc);
            }
            Terminator::Unreachable(u) => {
                // Reaching it is undefined behaviour (after a call of a `noreturn` function,
                // `__builtin_unreachable()`, the end of a C++ function that returns a value):
                // an error, as GPUVerify reports it, never an assumption.
                let last = b.instrs.last().map(llvm_ir::HasDebugLoc::get_debug_loc);
                let loc = self.loc(&u.debugloc, f).or_else(|| last.and_then(|d| self.loc(d, f)));
                self.emit(format!("assert {{:msg \"{UNREACHABLE}\"}} false;"), loc);
                self.emit("return;".into(), loc);
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

/// Headers of natural loops: targets of back edges of a depth-first search (the control
/// flow of structured C is reducible; the verifier rejects what is not).
fn loop_headers(f: &Function) -> HashSet<Name> {
    let index: HashMap<&Name, usize> = f.basic_blocks.iter().enumerate().map(|(i, b)| (&b.name, i)).collect();
    let succs: Vec<Vec<usize>> = f
        .basic_blocks
        .iter()
        .map(|b| successors(&b.term).iter().filter_map(|n| index.get(n).copied()).collect())
        .collect();
    let mut state = vec![0u8; succs.len()];
    let mut headers = HashSet::new();
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    if succs.is_empty() {
        return headers;
    }
    state[0] = 1;
    while let Some(&mut (n, ref mut k)) = stack.last_mut() {
        if let Some(&s) = succs[n].get(*k) {
            *k += 1;
            match state[s] {
                0 => {
                    state[s] = 1;
                    stack.push((s, 0));
                }
                1 => {
                    headers.insert(f.basic_blocks[s].name.clone());
                }
                _ => {}
            }
        } else {
            state[n] = 2;
            stack.pop();
        }
    }
    headers
}

fn successors(t: &Terminator) -> Vec<Name> {
    match t {
        Terminator::Br(b) => vec![b.dest.clone()],
        Terminator::CondBr(c) => vec![c.true_dest.clone(), c.false_dest.clone()],
        Terminator::Switch(s) => {
            let mut v: Vec<Name> = s.dests.iter().map(|d| d.1.clone()).collect();
            v.push(s.default_dest.clone());
            v
        }
        _ => Vec::new(),
    }
}

/// How a value is used.
enum Use {
    /// An argument of a specification clause.
    Clause,
    /// An argument of an assertion or assumption in the body.
    Assert,
    /// The condition of a branch or switch.
    Branch,
    /// An operand of the instruction defining this value.
    Inst(Name),
    /// Anything else (a store, a call, a return).
    Other,
}

/// Values that only feed specification clauses or branch conditions of their own block,
/// computed without effects: they are folded into the clause or guard and not run. A load
/// may feed only clauses (a branch reads memory when it runs, which is a checked access; an
/// assertion later in the block may see memory that a store in between changed). Folding is
/// what lets `__assert(!__read(p))` reach the assertion: the built-ins of specifications are
/// not values a statement may compute.
fn spec_only_values<'m>(
    f: &'m Function,
    defs: &HashMap<Name, (&'m Instruction, usize)>,
    headers: &HashSet<Name>,
) -> HashSet<Name> {
    let mut users: HashMap<Name, Vec<(Use, usize)>> = HashMap::new();
    let mut note = |op: &Operand, u: Use, bi: usize| {
        if let Operand::LocalOperand { name, .. } = op {
            users.entry(name.clone()).or_default().push((u, bi));
        }
    };
    for (bi, b) in f.basic_blocks.iter().enumerate() {
        for i in &b.instrs {
            let header = headers.contains(&b.name);
            let spec = match i {
                Instruction::Call(c) => match call_name(c).and_then(builtins::classify) {
                    Some(Builtin::Spec(s)) => Some(s),
                    _ => None,
                },
                _ => None,
            };
            let clause = spec.is_some_and(|s| s.is_clause() || (header && s == Spec::Assert));
            let assertion = spec.is_some_and(Spec::is_assertion);
            for op in operands(i) {
                let u = match (clause, assertion, i.try_get_result()) {
                    (true, _, _) => Use::Clause,
                    (false, true, _) => Use::Assert,
                    (false, false, Some(d)) => Use::Inst(d.clone()),
                    (false, false, None) => Use::Other,
                };
                note(op, u, bi);
            }
        }
        let branch = matches!(b.term, Terminator::CondBr(_) | Terminator::Switch(_));
        for op in term_operands(&b.term) {
            note(op, if branch { Use::Branch } else { Use::Other }, bi);
        }
    }
    let mut spec: HashSet<Name> = HashSet::new();
    loop {
        let mut changed = false;
        for (name, (i, bi)) in defs {
            if spec.contains(name) || !is_pure(i) {
                continue;
            }
            let Some(us) = users.get(name) else { continue };
            let load = matches!(i, Instruction::Load(_));
            let all = us.iter().all(|(u, ubi)| {
                *ubi == *bi
                    && match u {
                        Use::Clause => true,
                        Use::Branch | Use::Assert => !load,
                        Use::Inst(d) => spec.contains(d),
                        Use::Other => false,
                    }
            });
            if all {
                spec.insert(name.clone());
                changed = true;
            }
        }
        if !changed {
            return spec;
        }
    }
}

/// The value of an integer constant operand (`None` for anything else).
fn int_constant(op: &Operand) -> Option<u64> {
    match op {
        Operand::ConstantOperand(k) => match k.as_ref() {
            Constant::Int { value, .. } => Some(*value),
            _ => None,
        },
        _ => None,
    }
}

pub(crate) fn call_name(c: &inst::Call) -> Option<&str> {
    match c.function.as_ref().right()? {
        Operand::ConstantOperand(k) => match k.as_ref() {
            Constant::GlobalReference { name: Name::Name(n), .. } => Some(n.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// Instructions without effects that can be folded into an expression.
fn is_pure(i: &Instruction) -> bool {
    match i {
        Instruction::Call(c)
            if call_name(c)
                .and_then(builtins::classify)
                .is_some_and(|b| matches!(b, Builtin::Spec(s) if s.is_clause() || s.is_assertion())) =>
        {
            false
        }
        Instruction::Call(c) => call_name(c).and_then(builtins::classify).is_some_and(|b| {
            matches!(
                b,
                Builtin::Identity(..)
                    | Builtin::GlobalId
                    | Builtin::GlobalSize
                    | Builtin::GlobalOffset
                    | Builtin::WorkDim
                    | Builtin::Spec(_)
            )
        }),
        Instruction::Phi(_)
        | Instruction::Store(_)
        | Instruction::Alloca(_)
        | Instruction::Fence(_)
        | Instruction::AtomicRMW(_)
        | Instruction::CmpXchg(_) => false,
        _ => true,
    }
}

fn operands(i: &Instruction) -> Vec<&Operand> {
    use Instruction as I;
    match i {
        I::Add(x) => vec![&x.operand0, &x.operand1],
        I::Sub(x) => vec![&x.operand0, &x.operand1],
        I::Mul(x) => vec![&x.operand0, &x.operand1],
        I::UDiv(x) => vec![&x.operand0, &x.operand1],
        I::SDiv(x) => vec![&x.operand0, &x.operand1],
        I::URem(x) => vec![&x.operand0, &x.operand1],
        I::SRem(x) => vec![&x.operand0, &x.operand1],
        I::And(x) => vec![&x.operand0, &x.operand1],
        I::Or(x) => vec![&x.operand0, &x.operand1],
        I::Xor(x) => vec![&x.operand0, &x.operand1],
        I::Shl(x) => vec![&x.operand0, &x.operand1],
        I::LShr(x) => vec![&x.operand0, &x.operand1],
        I::AShr(x) => vec![&x.operand0, &x.operand1],
        I::FAdd(x) => vec![&x.operand0, &x.operand1],
        I::FSub(x) => vec![&x.operand0, &x.operand1],
        I::FMul(x) => vec![&x.operand0, &x.operand1],
        I::FDiv(x) => vec![&x.operand0, &x.operand1],
        I::FRem(x) => vec![&x.operand0, &x.operand1],
        I::FNeg(x) => vec![&x.operand],
        I::ICmp(x) => vec![&x.operand0, &x.operand1],
        I::FCmp(x) => vec![&x.operand0, &x.operand1],
        I::Load(x) => vec![&x.address],
        I::Store(x) => vec![&x.address, &x.value],
        I::GetElementPtr(x) => std::iter::once(&x.address).chain(x.indices.iter()).collect(),
        I::Trunc(x) => vec![&x.operand],
        I::ZExt(x) => vec![&x.operand],
        I::SExt(x) => vec![&x.operand],
        I::FPTrunc(x) => vec![&x.operand],
        I::FPExt(x) => vec![&x.operand],
        I::FPToUI(x) => vec![&x.operand],
        I::FPToSI(x) => vec![&x.operand],
        I::UIToFP(x) => vec![&x.operand],
        I::SIToFP(x) => vec![&x.operand],
        I::PtrToInt(x) => vec![&x.operand],
        I::IntToPtr(x) => vec![&x.operand],
        I::BitCast(x) => vec![&x.operand],
        I::AddrSpaceCast(x) => vec![&x.operand],
        I::Freeze(x) => vec![&x.operand],
        I::Select(x) => vec![&x.condition, &x.true_value, &x.false_value],
        I::Phi(x) => x.incoming_values.iter().map(|v| &v.0).collect(),
        I::Call(x) => x.arguments.iter().map(|a| &a.0).collect(),
        I::ExtractElement(x) => vec![&x.vector, &x.index],
        I::InsertElement(x) => vec![&x.vector, &x.element, &x.index],
        I::ShuffleVector(x) => vec![&x.operand0, &x.operand1],
        _ => Vec::new(),
    }
}

fn term_operands(t: &Terminator) -> Vec<&Operand> {
    match t {
        Terminator::Ret(r) => r.return_operand.iter().collect(),
        Terminator::CondBr(c) => vec![&c.condition],
        Terminator::Switch(s) => vec![&s.operand],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::kernel_name;

    #[test]
    fn kernel_names_of_template_instances() {
        assert_eq!(kernel_name("_Z3redILi256EEvPf"), "red$256");
        assert_eq!(kernel_name("_Z3redIfLi64EEvPT_"), "red$float_64");
        assert_eq!(kernel_name("_Z5scalePffi"), "scale");
        assert_eq!(kernel_name("scale"), "scale");
    }
}
