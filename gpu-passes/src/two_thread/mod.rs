//! `kivl verify` on kernels: the two-thread reduction of seed 001 chapter 4 (GPUVerify).
//!
//! A kernel is correct for every number of threads if it is correct for an *arbitrary pair* of
//! distinct threads (races and barrier divergence are pairwise defects, §4.1.3), executed in
//! lock-step (§4.1.2: one canonical schedule per barrier interval suffices), with the other
//! threads' effect on shared memory abstracted. The pair is modelled by a sequential program
//! that the VC engine proves:
//!
//! ```text
//! kernel ─ calls inlined (calls) ─ preprocess ─ uniformity ─ predication (seed 000 §4.1)
//!        ─ shared state abstracted (abstraction) ─ lock-step construction for TS = 2
//!          (seed 000 Table 3, crate::lockstep) with the two-thread instrumentation
//!          (reduction: race logs §4.2, barriers, barrier invariants §4.4, spec built-ins)
//!        ─ thread identity and sizes as preconditions (config) ─ VC engine (report)
//! ```
//!
//! Two variants of every kernel are verified: two threads of **one group** (races on all
//! shared memory, barrier divergence; group ids uniform), and two threads of **different
//! groups** (inter-group races on global memory, which no barrier orders; only built when
//! some group can have a partner group and the kernel writes global memory, and not with
//! `--only-intra-group` / `--only-divergence`). Both go into one program, each as its own
//! procedure with its own preconditions.

pub(crate) mod abstraction;
pub(crate) mod atomics;
pub(crate) mod barrier_invariants;
pub(crate) mod barriers;
pub mod calls;
pub(crate) mod config;
pub mod counterexample;
pub(crate) mod exprs;
pub(crate) mod race_instrumentation;
pub(crate) mod reduction;
pub mod report;
pub(crate) mod spec_builtins;
pub(crate) use crate::uniformity;

use crate::lockstep::SharedVar;
use crate::predication::{all_names, global_var_types, FreshNames};
use config::{Identity, Sizes, DIMS};
use ivl::ast::*;
use ivl::diag::Diagnostic;
use ivl::resolve::{mem_space, MemSpace};
use reduction::{per_thread, CopiesEnv, VariantCtx};
use std::collections::{BTreeMap, HashMap, HashSet};

/// How the shared state is abstracted (seed 001 §4.1.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Abstraction {
    /// GPUVerify's default: reads of an array that some thread writes return arbitrary
    /// values; an array no thread writes and a specification reads keeps its values
    /// (`abstraction::read_only`).
    #[default]
    Refined,
    /// Reads of shared memory return arbitrary values, even of read-only arrays (`--abstraction
    /// adversarial`, GPUVerify's `--adversarial-abstraction`).
    Adversarial,
    /// Both threads see equal values at locations they have not written since the last
    /// barrier.
    Equality,
}

/// `kivl verify` options for kernels (docs/kbpl.md §8).
#[derive(Clone, Debug)]
pub struct KernelOptions {
    /// `--local-size X[,Y[,Z]]` (missing dimensions are 1); `None`: symbolic or from axioms.
    pub local_size: Option<Vec<u64>>,
    /// `--num-groups X[,Y[,Z]]`.
    pub num_groups: Option<Vec<u64>>,
    /// Writes of the same value are not races (GPUVerify's default; `--no-benign-tolerance`
    /// turns it off).
    pub benign_tolerance: bool,
    /// `--only-intra-group`: no inter-group race checks.
    pub only_intra_group: bool,
    /// `--only-divergence`: no race checks at all.
    pub only_divergence: bool,
    /// GPUVerify's `--only-log`: accesses are logged (so specifications about them, such as
    /// `__write(A)`, mean what they say) but no race is checked.
    pub only_log: bool,
    pub abstraction: Abstraction,
    /// `--asymmetric-asserts` (GPUVerify's option): the kernel's `assert` statements are
    /// checked in the first of the two threads only. Sound, since that thread is arbitrary; the
    /// second thread's assertions are dropped (not assumed), which can only cost precision.
    pub asymmetric_asserts: bool,
    /// `--warp-sync N` (GPUVerify's option): the threads of a group run in warps of `N`
    /// consecutive threads (by linear local id) that execute in lock-step, so accesses of two
    /// threads of one warp made by different statements do not race (`race_instrumentation`).
    pub warp_sync: Option<u64>,
}

impl Default for KernelOptions {
    fn default() -> Self {
        KernelOptions {
            local_size: None,
            num_groups: None,
            benign_tolerance: true,
            only_intra_group: false,
            only_divergence: false,
            only_log: false,
            asymmetric_asserts: false,
            warp_sync: None,
            abstraction: Abstraction::Refined,
        }
    }
}

/// GPUVerify's output is already a two-thread program: it declares each thread-identity
/// constant once per modelled thread (`local_id_x$1`, `local_id_x$2`) and instruments races
/// itself (`{:race_checking}` variables). So does the output of [`two_thread_program`].
fn is_two_thread(p: &Program) -> bool {
    let mut local_id_x = 0;
    for d in &p.decls {
        match &d.kind {
            DeclKind::Const(c) if has_attr(&c.attrs, "local_id_x") => local_id_x += c.names.len(),
            DeclKind::Var(v) if has_attr(&v.attrs, "race_checking") => return true,
            _ => {}
        }
    }
    local_id_x >= 2
}

/// Whether `p` has a `{:kernel}` procedure and is not already a two-thread program (such a
/// file is verified as plain Boogie).
pub fn is_kernel_program(p: &Program) -> bool {
    ivl::prelude::is_gpu_program(p) && !is_two_thread(p)
}

/// `kivl transform --emit two-thread`: every kernel as its two-thread program(s).
pub fn two_thread_program(p: &Program, opts: &KernelOptions) -> Result<Program, Vec<Diagnostic>> {
    Ok(build(p, opts)?.program)
}

/// One verified procedure of the two-thread program.
#[derive(Clone, Debug)]
pub struct VariantInfo {
    pub name: Name,
    pub kernel: Name,
    pub span: Span,
    pub inter: bool,
    pub ins: Vec<TypedIdent>,
    pub requires: Vec<Contract>,
}

/// The two-thread program and its verified procedures.
pub struct Built {
    pub program: Program,
    pub variants: Vec<VariantInfo>,
}

fn requires(e: Expr, span: Span) -> Contract {
    Contract { kind: SpecKind::Requires, free: false, attrs: vec![], expr: e, span }
}

/// Conjuncts of an expression.
fn conjuncts(e: &Expr, out: &mut Vec<Expr>) {
    match &e.kind {
        ExprKind::Binary(BinOp::And, a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e.clone()),
    }
}

/// Whether the file's axioms fix every `num_groups_*` to 1.
fn axioms_single_group(p: &Program, id: &Identity) -> bool {
    let mut facts = Vec::new();
    for d in &p.decls {
        if let DeclKind::Axiom(a) = &d.kind {
            conjuncts(&a.expr, &mut facts);
        }
    }
    let is_one =
        |e: &Expr| matches!(&e.kind, ExprKind::IntLit(v) | ExprKind::BvLit { value: v, .. } if *v == 1u32.into());
    DIMS.iter().all(|d| {
        let n = id.name(config::num_groups(d));
        facts.iter().any(|f| match &f.kind {
            ExprKind::Binary(BinOp::Eq, a, b) => {
                (matches!(&a.kind, ExprKind::Var(x) if &x.name == n) && is_one(b))
                    || (matches!(&b.kind, ExprKind::Var(x) if &x.name == n) && is_one(a))
            }
            _ => false,
        })
    })
}

/// The shared arrays whose values the specifications of the program mention.
fn specified_arrays(p: &Program, shared: &HashMap<Name, SharedVar>) -> HashSet<Name> {
    let mut names = Vec::new();
    struct Specs<'a>(&'a mut Vec<Name>);
    impl ivl::visit::Visit for Specs<'_> {
        fn visit_stmt(&mut self, s: &Stmt) {
            match &s.kind {
                StmtKind::Assert { expr, .. } => spec_builtins::value_mentions(expr, self.0),
                StmtKind::While { invariants, .. } => {
                    for i in invariants {
                        spec_builtins::value_mentions(&i.expr, self.0)
                    }
                }
                StmtKind::Barrier { invariants, .. } => {
                    for i in invariants {
                        spec_builtins::value_mentions(&i.expr, self.0)
                    }
                }
                _ => {}
            }
            ivl::visit::walk_stmt(self, s)
        }
        fn visit_contract(&mut self, c: &Contract) {
            spec_builtins::value_mentions(&c.expr, self.0)
        }
    }
    ivl::visit::Node::accept(p, &mut Specs(&mut names));
    names.into_iter().filter(|n| shared.contains_key(n)).collect()
}

/// The kernels of a program: procedure, and where its body is.
fn kernels(p: &Program) -> Vec<(&ProcedureDecl, vcgen::desugar::BodySource<'_>)> {
    use vcgen::desugar::BodySource;
    let mut out = Vec::new();
    for pr in p.procedures().filter(|pr| has_attr(&pr.attrs, "kernel")) {
        let src = if pr.body.is_some() {
            Some(BodySource::Procedure(pr))
        } else {
            p.implementations().find(|i| i.name.name == pr.name.name).map(BodySource::Implementation)
        };
        if let Some(src) = src {
            out.push((pr, src));
        }
    }
    out
}

/// The inputs every variant of every kernel shares.
struct Inputs<'a> {
    program: &'a Program,
    opts: &'a KernelOptions,
    sizes: Sizes,
    identity: Identity,
    shared: HashMap<Name, SharedVar>,
    globals: HashMap<Name, Type>,
    specified: HashSet<Name>,
    /// Each kernel with its body, calls inlined.
    bodies: Vec<(ProcedureDecl, ivl::blocks::BlockImpl)>,
}

/// What [`build`] adds to the program while it builds the variants.
#[derive(Default)]
struct Output {
    decls: Vec<Decl>,
    new_globals: Vec<(String, Decl)>,
    procs: Vec<Decl>,
    variants: Vec<VariantInfo>,
}

/// The two-thread program of every kernel of the checked program `p` (see the module
/// documentation): the variants of each kernel as procedures, each assertion with the captures
/// its counterexample needs.
pub fn build(p: &Program, opts: &KernelOptions) -> Result<Built, Vec<Diagnostic>> {
    if is_two_thread(p) {
        return Err(vec![Diagnostic::unsupported(
            "this program is already a two-thread program (it declares two `{:local_id_x}` constants or \
             `{:race_checking}` variables); verify it as plain Boogie",
            Span::DUMMY,
        )]);
    }
    let p = crate::preprocess::barrier_calls_to_statements(p);
    let mut names = FreshNames::new(all_names(&p));
    let inputs = inputs(&p, opts, &mut names)?;
    let mut out = Output { decls: inputs.identity.decls.clone(), ..Output::default() };
    for inter in [false, true] {
        if !inter || inter_group_needed(&inputs) {
            variants(&inputs, inter, &mut names, &mut out)?;
        }
    }
    let mut program = assemble(&inputs, out.decls, out.new_globals, out.procs);
    counterexample::add_captures(&mut program, &out.variants, &p);
    Ok(Built { program, variants: out.variants })
}

/// The sizes, the thread identity, the shared variables and the kernels' bodies (calls
/// inlined) of `p`.
fn inputs<'a>(p: &'a Program, opts: &'a KernelOptions, names: &mut FreshNames) -> Result<Inputs<'a>, Vec<Diagnostic>> {
    let sizes = Sizes::new(opts.local_size.as_deref(), opts.num_groups.as_deref()).map_err(|d| vec![d])?;
    let identity = Identity::of(p, names)?;
    let shared: HashMap<Name, SharedVar> = p
        .decls
        .iter()
        .filter_map(|d| match &d.kind {
            DeclKind::Var(v) => Some(
                v.vars
                    .iter()
                    .map(|x| (x.name.name.clone(), SharedVar { ty: x.ty.clone(), space: mem_space(&v.attrs) })),
            ),
            _ => None,
        })
        .flatten()
        .collect();
    let specified = specified_arrays(p, &shared);
    let bodies = kernel_bodies(p, &shared, names)?;
    Ok(Inputs { program: p, opts, sizes, identity, globals: global_var_types(p), specified, shared, bodies })
}

/// Each kernel of `p` with its body, calls inlined ([`calls`]).
fn kernel_bodies(
    p: &Program,
    shared: &HashMap<Name, SharedVar>,
    names: &mut FreshNames,
) -> Result<Vec<(ProcedureDecl, ivl::blocks::BlockImpl)>, Vec<Diagnostic>> {
    let shared_names: HashSet<Name> = shared.keys().cloned().collect();
    let inlined = calls::mark_inlined(p)?;
    let ctx = vcgen::desugar::Context::new(&inlined)?;
    let kernel_list = kernels(&inlined);
    if kernel_list.is_empty() {
        return Err(vec![Diagnostic::unsupported("no `{:kernel}` procedure with a body", Span::DUMMY)]);
    }
    let mut bodies = Vec::new();
    let mut diags = Vec::new();
    for (pr, src) in &kernel_list {
        match calls::kernel_body(&ctx, *src, &shared_names) {
            Ok(b) => {
                names.reserve(all_names(&b.to_body()));
                bodies.push(((*pr).clone(), b));
            }
            Err(d) => diags.extend(d),
        }
    }
    if diags.is_empty() {
        Ok(bodies)
    } else {
        Err(diags)
    }
}

/// Whether the inter-group variant is built: some kernel writes global memory, more than one
/// group may run, and the options ask for inter-group races.
fn inter_group_needed(inputs: &Inputs) -> bool {
    let writes_global = inputs.bodies.iter().any(|(_, b)| {
        b.blocks.iter().flat_map(|bl| &bl.stmts).any(|s| {
            ivl::visit::modified_vars(s)
                .iter()
                .any(|x| inputs.shared.get(x).is_some_and(|sv| sv.space != MemSpace::GroupShared))
        })
    });
    let opts = inputs.opts;
    !opts.only_intra_group
        && !opts.only_divergence
        && writes_global
        && !inputs.sizes.single_group()
        && !axioms_single_group(inputs.program, &inputs.identity)
}

/// The two threads of one variant: their identity constants (declared in `decls`), and the
/// facts every procedure of the variant assumes of them; `guard` is set when the "pair" may be
/// one thread twice (a group of one thread).
struct Pair {
    const_copies: HashMap<Name, Vec<Name>>,
    facts: Vec<Expr>,
    guard: Option<Expr>,
    /// `--warp-sync`: "the two threads are in the same warp" (intra-group variant only).
    same_warp: Option<Expr>,
}

/// The pair of threads of the intra-group (`inter == false`) or inter-group variant.
fn pair(inputs: &Inputs, inter: bool, names: &mut FreshNames, decls: &mut Vec<Decl>) -> Result<Pair, Vec<Diagnostic>> {
    let identity = &inputs.identity;
    let mut const_copies: HashMap<Name, Vec<Name>> = HashMap::new();
    for (attr, c) in identity.per_thread(inter) {
        let copies: Vec<Name> = (1..=2).map(|t| names.fresh(&format!("{}${t}", c.name))).collect();
        for n in &copies {
            decls.push(config::const_decl(n, &c.ty, Some(attr)));
        }
        const_copies.insert(c.name.clone(), copies);
    }
    let no_logs = BTreeMap::new();
    let id_env = CopiesEnv::new(&const_copies, &no_logs);
    let copy = |n: &Name, t: usize| const_copies.get(n).map_or_else(|| n.clone(), |c| c[t].clone());
    let mut facts: Vec<Expr> = identity.uniform_facts(&inputs.sizes).map_err(|d| vec![d])?;
    for f in &identity.thread_facts().map_err(|d| vec![d])? {
        facts.extend(per_thread(&id_env, f).into_iter().map(|(_, e)| e));
    }
    // The file's facts about each thread hold for both.
    for d in &inputs.program.decls {
        if let DeclKind::Axiom(a) = &d.kind {
            if ivl::visit::free_vars(&a.expr).iter().any(|n| const_copies.contains_key(n)) {
                facts.extend(per_thread(&id_env, &a.expr).into_iter().map(|(_, e)| e));
            }
        }
    }
    let dims: Vec<&str> = DIMS.iter().map(|d| if inter { config::group_id(d) } else { config::local_id(d) }).collect();
    let distinct = identity.differ(&dims, &copy);
    let mut guard = None;
    if !inter && !inputs.sizes.group_has_pairs() {
        // A group may have a single thread: the "pair" is then that thread twice.
        let one = identity.one_thread_groups().map_err(|d| vec![d])?;
        facts.push(Expr::or(distinct.clone(), one));
        guard = Some(distinct);
    } else {
        facts.push(distinct);
    }
    if inter {
        facts.extend(identity.global_ids_differ(&copy));
    }
    let same_warp = match inputs.opts.warp_sync {
        Some(n) if !inter => Some(identity.same_warp(inputs.program, n, &copy, names, decls).map_err(|d| vec![d])?),
        _ => None,
    };
    Ok(Pair { const_copies, facts, guard, same_warp })
}

/// The procedures of one variant (intra- or inter-group) of every kernel, added to `out`.
fn variants(inputs: &Inputs, inter: bool, names: &mut FreshNames, out: &mut Output) -> Result<(), Vec<Diagnostic>> {
    let pair = pair(inputs, inter, names, &mut out.decls)?;
    let local_id_x = inputs.identity.name("local_id_x").clone();
    let local_id_x_valid = inputs.identity.local_id_x_valid().map_err(|d| vec![d])?;
    let mut diags = Vec::new();
    for (pr, body) in &inputs.bodies {
        let vctx = VariantCtx {
            inter,
            opts: inputs.opts,
            shared: &inputs.shared,
            specified: &inputs.specified,
            const_copies: &pair.const_copies,
            guard: pair.guard.clone(),
            same_warp: pair.same_warp.clone(),
            local_id_x: local_id_x.clone(),
            local_id_x_ty: inputs.identity.ty("local_id_x").clone(),
            local_id_x_valid: local_id_x_valid.clone(),
            globals: &inputs.globals,
            contracts: &pr.contracts,
        };
        match reduction::kernel_variant(&vctx, body, names, &mut out.new_globals) {
            Ok(kv) => variant_procedure(pr, kv, &pair.facts, inter, names, out),
            Err(d) => diags.extend(d),
        }
    }
    if diags.is_empty() {
        Ok(())
    } else {
        Err(diags)
    }
}

/// The procedure of kernel `pr`'s variant `kv`: the pair's facts and the kernel's contracts
/// (per thread) as its contracts, the instrumented body.
fn variant_procedure(
    pr: &ProcedureDecl,
    kv: reduction::KernelVariant,
    facts: &[Expr],
    inter: bool,
    names: &mut FreshNames,
    out: &mut Output,
) {
    out.decls.extend(kv.decls.iter().cloned());
    let env = CopiesEnv::new(&kv.copies, &kv.logs);
    let span = pr.name.span;
    let mut contracts: Vec<Contract> = facts.iter().map(|f| requires(f.clone(), span)).collect();
    for c in &pr.contracts {
        for (_, e) in per_thread(&env, &c.expr) {
            contracts.push(Contract { expr: e, ..c.clone() });
        }
    }
    let name = if inter { names.fresh(&format!("{}$inter_group", pr.name.name)) } else { pr.name.name.clone() };
    let mut imp = kv.imp;
    imp.name = Ident::new(name.clone(), span);
    let mut attrs = pr.attrs.clone();
    attrs.retain(|a| a.name.as_str() != "inline");
    out.procs.push(Decl {
        kind: DeclKind::Procedure(ProcedureDecl {
            attrs,
            name: Ident::new(name.clone(), span),
            type_params: vec![],
            ins: imp.ins.clone(),
            outs: imp.outs.clone(),
            contracts: contracts.clone(),
            modifies: vec![],
            body: Some(imp.to_body()),
        }),
        span: Span::DUMMY,
    });
    out.variants.push(VariantInfo {
        name,
        kernel: pr.name.name.clone(),
        span,
        inter,
        ins: imp.ins.clone(),
        requires: contracts.into_iter().filter(|c| c.kind == SpecKind::Requires).collect(),
    });
}

/// The two-thread program: the rest of `inputs.program` (callees lose their bodies, they were
/// inlined; kernels are replaced by their variants) and the new declarations.
fn assemble(inputs: &Inputs, decls: Vec<Decl>, new_globals: Vec<(String, Decl)>, procs: Vec<Decl>) -> Program {
    let kernel_names: HashSet<Name> = inputs.bodies.iter().map(|(pr, _)| pr.name.name.clone()).collect();
    let mut out: Vec<Decl> = Vec::new();
    for d in &inputs.program.decls {
        match &d.kind {
            DeclKind::Procedure(pr) if kernel_names.contains(&pr.name.name) => {}
            DeclKind::Procedure(pr) if pr.body.is_some() => {
                out.push(Decl { kind: DeclKind::Procedure(ProcedureDecl { body: None, ..pr.clone() }), span: d.span })
            }
            DeclKind::Implementation(_) => {}
            _ => out.push(d.clone()),
        }
    }
    out.extend(decls);
    out.extend(new_globals.into_iter().map(|(_, d)| d));
    out.extend(procs);
    ivl::modifies::infer_modifies(&Program { decls: out })
}
