//! Desugaring: from a checked program to one acyclic, call-free block body per implementation
//! to verify — the input of passification and weakest preconditions (Barnett & Leino, "Weakest-
//! precondition of unstructured programs", 2005; Boogie 2.4.1's `VCGen`).
//!
//! [`prepare`] runs, for every implementation that is verified, the passes of Boogie's order:
//!
//! 1. **lower** ([`ivl::lower`]) structured statements to basic blocks;
//! 2. **inline** ([`inline`]) calls of procedures with `{:inline N}` N levels deep (Boogie's
//!    default `/inline:assume`: a call beyond the depth becomes `assume false`);
//! 3. **contracts** ([`contracts`]): a new entry block assumes the `requires` (free or not) and
//!    snapshots the pre-state; every `return` block asserts the non-free `ensures`;
//! 4. **loops** ([`loops`]): check reducibility, then cut every back edge — the leading asserts
//!    of each loop header are its invariants, checked on entry, assumed after havocking the loop
//!    targets, and checked again at the end of each latch, after which the path stops;
//! 5. **calls** ([`calls`]): each remaining call becomes `assert requires; havoc outs, modifies;
//!    assume ensures` (after loop cutting, as in Boogie, so that a call never adds leading
//!    asserts to a loop header);
//! 6. unreachable blocks are removed.
//!
//! Conventions of the output ([`VcInput::imp`]):
//! - every check is an explicit `assert` whose `{:check "KIND"}` attribute is a docs/kbpl.md §8 error
//!   kind (`assertion` when absent, `precondition`, `postcondition`, `invariant-entry`,
//!   `invariant-maintained`) and whose `{:related_span S, E}` points at the violated clause; the
//!   assert's own span is where the check happens (the call, the `return`, the invariant);
//!   the source's own attributes (`{:candidate}`, `{:race}`, `{:tag ..}`, …) are kept after them;
//! - `return` carries no implicit check; `assume false` ends the paths that cut back edges;
//! - **`old` is gone.** The pre-state is named by snapshot locals assigned at the entry,
//!   `old$g := g`, one per global `g` that occurs under `old` in the body or the `ensures`; every
//!   `old(e)` is rewritten to `e` with those globals replaced by their snapshots (module [`old`]).
//!   Calls and inlined bodies snapshot their own pre-states the same way;
//! - no `call`, no structured statement; `barrier` statements are left for the caller (the GPU
//!   passes remove them before verification; loop cutting treats one as modifying every global);
//! - generated names use `$` (`old$g`, `inline$P$0$x`, `call$2$old$g`, …) and never clash with
//!   existing names; new variables are added to [`ivl::blocks::BlockImpl::locals`].
//!
//! Implementations that are only inlined (`{:inline N}` on the procedure or the implementation,
//! as Boogie does under `/inline:assume`) or marked `{:verify false}` are not verified, and
//! neither are procedures without a body.

mod assumption_vars;
pub mod calls;
mod context;
pub mod contracts;
pub mod inline;
pub mod loops;
pub mod names;
pub mod old;
mod selective_checking;
mod stmts;
mod unroll;
mod verified_under;

pub use context::{BodySource, Context};
pub use stmts::{rename_targets, where_assumes};

use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::Diagnostic;
use names::Fresh;
use std::collections::{HashMap, HashSet};

/// One implementation to verify, desugared.
#[derive(Clone, Debug)]
pub struct VcInput {
    /// Acyclic, call-free, `old`-free; entry first.
    pub imp: BlockImpl,
    /// Its procedure (without a body).
    pub proc: ProcedureDecl,
}

/// The last pass to run (for `kivl transform` and for tests of single passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    Lowered,
    Inlined,
    Contracts,
    LoopsCut,
    Calls,
}

#[derive(Clone, Debug)]
pub struct DesugarOptions {
    /// Remove `{:candidate}` contracts, invariants and asserts first (docs/kbpl.md §5.4: without
    /// `--houdini` candidates are ignored).
    pub drop_candidates: bool,
    /// Stop after this pass (the result is then not necessarily acyclic or call-free).
    pub stop_after: Stage,
    /// Complete the `modifies` clauses with [`ivl::modifies::infer_modifies`] first when the
    /// program has a `{:kernel}` procedure (GPUVerify's output relies on Boogie's
    /// `/doModSetAnalysis`, docs/kbpl.md §2.4). Turn off when the caller has done it already.
    pub infer_modifies: bool,
    /// `--inline-depth N`: Boogie's `/inlineDepth:N` ([`Context::with_inline_depth`]).
    pub inline_depth: Option<u64>,
    /// `--loop-unwind N`: unwind every loop N times instead of cutting it ([`unroll`]); the
    /// result is bounded checking, never a proof.
    pub loop_unwind: Option<u64>,
}

impl Default for DesugarOptions {
    fn default() -> Self {
        DesugarOptions {
            drop_candidates: false,
            stop_after: Stage::Calls,
            infer_modifies: true,
            inline_depth: None,
            loop_unwind: None,
        }
    }
}

/// Desugars every implementation to verify. Diagnostics of all implementations are collected.
pub fn prepare(program: &Program) -> Result<Vec<VcInput>, Vec<Diagnostic>> {
    prepare_with_options(program, &DesugarOptions::default())
}

pub fn prepare_with_options(program: &Program, opts: &DesugarOptions) -> Result<Vec<VcInput>, Vec<Diagnostic>> {
    let dropped;
    let program = if opts.drop_candidates {
        dropped = drop_candidates(program);
        &dropped
    } else {
        program
    };
    // GPUVerify's output relies on Boogie's /doModSetAnalysis (docs/kbpl.md §2.4).
    let inferred;
    let program = if opts.infer_modifies && program.procedures().any(|p| has_attr(&p.attrs, "kernel")) {
        inferred = ivl::modifies::infer_modifies(program);
        &inferred
    } else {
        program
    };
    let ctx = Context::with_inline_depth(program, opts.inline_depth)?;
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for (proc, body) in ctx.to_verify() {
        match prepare_one(&ctx, proc, body, opts) {
            Ok(v) => out.push(v),
            Err(mut d) => diags.append(&mut d),
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// The program with every verified implementation replaced by its desugared block form and
/// the other implementations removed (`kivl transform --emit desugared`).
pub fn desugared_program(program: &Program, opts: &DesugarOptions) -> Result<Program, Vec<Diagnostic>> {
    let inputs = prepare_with_options(program, opts)?;
    let mut decls = declarations(program);
    decls.extend(inputs.iter().map(|v| v.imp.to_decl()));
    Ok(Program { decls })
}

/// The declarations of `program` without bodies: implementations removed, procedures without
/// their bodies (what a transformed implementation is printed next to, or checked against).
pub fn declarations(program: &Program) -> Vec<Decl> {
    program
        .decls
        .iter()
        .filter(|d| !matches!(d.kind, DeclKind::Implementation(_)))
        .map(|d| match &d.kind {
            DeclKind::Procedure(p) if p.body.is_some() => {
                Decl { kind: DeclKind::Procedure(ProcedureDecl { body: None, ..p.clone() }), span: d.span }
            }
            _ => d.clone(),
        })
        .collect()
}

/// Runs the passes on one implementation.
pub fn prepare_one(
    ctx: &Context,
    proc: &ProcedureDecl,
    src: BodySource,
    opts: &DesugarOptions,
) -> Result<VcInput, Vec<Diagnostic>> {
    if !proc.type_params.is_empty() {
        return Err(vec![Diagnostic::unsupported(
            format!("polymorphic procedure `{}` is not supported", proc.name.name),
            proc.name.span,
        )]);
    }
    let mut imp = ctx.lower_source(src)?;
    let mut fresh = ctx.fresh();
    for x in imp.ins.iter().chain(&imp.outs).chain(&imp.locals) {
        fresh.reserve(&x.name.name);
    }
    for b in &imp.blocks {
        fresh.reserve(&b.label.name);
    }
    rename_shadowing(ctx, &mut imp, &mut fresh);
    assumption_vars::assume_initially(&mut imp, &mut fresh);
    let proc_out = ProcedureDecl { body: None, ..proc.clone() };
    let done = |mut imp: BlockImpl, fresh: &mut Fresh| {
        rename_clashing_binders(ctx, &mut imp, fresh);
        verified_under::apply(&mut imp);
        assumption_vars::strengthen_havocs(ctx, &mut imp, fresh);
        selective_checking::apply(proc, &mut imp);
        Ok(VcInput { imp, proc: proc_out.clone() })
    };
    if opts.stop_after == Stage::Lowered {
        return done(imp, &mut fresh);
    }
    inline::inline_calls(ctx, &mut imp, &mut fresh)?;
    ivl::cfg::remove_unreachable(&mut imp);
    if opts.stop_after == Stage::Inlined {
        return done(imp, &mut fresh);
    }
    contracts::add_contracts(ctx, proc, &mut imp, &mut fresh);
    if opts.stop_after == Stage::Contracts {
        return done(imp, &mut fresh);
    }
    if let Some(n) = opts.loop_unwind {
        unroll::unroll_loops(&mut imp, n, &mut fresh).map_err(|d| vec![d])?;
    }
    loops::cut_loops(ctx, &mut imp, &mut fresh).map_err(|d| vec![d])?;
    if opts.stop_after == Stage::LoopsCut {
        return done(imp, &mut fresh);
    }
    calls::desugar_calls(ctx, &mut imp, &mut fresh)?;
    ivl::cfg::remove_unreachable(&mut imp);
    done(imp, &mut fresh)
}

/// Contracts and inlined code moved into a body may bind a name that is a variable there
/// (`ensures (forall j: int :: ..)` in an implementation with a local `j`); Boogie and
/// [`ivl::check`] reject a binder that redeclares a variable in scope. Such binders are renamed.
fn rename_clashing_binders(ctx: &Context, imp: &mut BlockImpl, fresh: &mut Fresh) {
    use ivl::visit::{Node, VisitMut};
    struct Binders<'a, 'f, 'g> {
        scope: HashSet<Name>,
        globals: &'a HashSet<Name>,
        bound: Vec<Name>,
        fresh: &'f mut Fresh<'g>,
    }
    impl VisitMut for Binders<'_, '_, '_> {
        fn visit_quantifier(&mut self, q: &mut Quantifier) {
            let mut renaming = HashMap::new();
            for v in &mut q.vars {
                let n = &v.name.name;
                if self.scope.contains(n) || self.globals.contains(n) || self.bound.contains(n) {
                    let new = self.fresh.make(&format!("{n}$q"));
                    renaming.insert(n.clone(), new.clone());
                    v.name.name = new;
                }
            }
            if !renaming.is_empty() {
                for v in &mut q.vars {
                    if let Some(w) = &mut v.where_clause {
                        ivl::visit::rename_vars(w, &renaming);
                    }
                }
                q.attrs.iter_mut().for_each(|a| ivl::visit::rename_vars(a, &renaming));
                for t in &mut q.triggers {
                    t.exprs.iter_mut().for_each(|e| ivl::visit::rename_vars(e, &renaming));
                }
                ivl::visit::rename_vars(&mut q.body, &renaming);
            }
            let depth = self.bound.len();
            self.bound.extend(q.vars.iter().map(|v| v.name.name.clone()));
            ivl::visit::walk_quantifier_mut(self, q);
            self.bound.truncate(depth);
        }
    }
    let scope = imp.ins.iter().chain(&imp.outs).chain(&imp.locals).map(|x| x.name.name.clone()).collect();
    let mut b = Binders { scope, globals: &ctx.global_values, bound: Vec::new(), fresh };
    for blk in &mut imp.blocks {
        blk.stmts.accept_mut(&mut b);
    }
}

/// Renames the formals and locals of `imp` that shadow a global variable or constant, so that
/// contracts and inlined bodies that name the global cannot be captured by them (Boogie
/// resolves names before inlining; we rename instead).
fn rename_shadowing(ctx: &Context, imp: &mut BlockImpl, fresh: &mut Fresh) {
    let mut renaming: HashMap<Name, Name> = HashMap::new();
    for x in imp.ins.iter_mut().chain(imp.outs.iter_mut()).chain(imp.locals.iter_mut()) {
        if ctx.global_values.contains(&x.name.name) {
            let new = fresh.make(&format!("{}$local", x.name.name));
            renaming.insert(x.name.name.clone(), new.clone());
            x.name.name = new;
        }
    }
    if renaming.is_empty() {
        return;
    }
    for x in imp.ins.iter_mut().chain(imp.outs.iter_mut()).chain(imp.locals.iter_mut()) {
        if let Some(w) = &mut x.where_clause {
            ivl::visit::rename_vars(w, &renaming);
        }
    }
    for b in &mut imp.blocks {
        for s in &mut b.stmts {
            ivl::visit::rename_vars(s, &renaming);
            rename_targets(s, &renaming);
        }
    }
}

/// Removes `{:candidate}` contracts, loop invariants and asserts (candidates are ignored
/// without Houdini, docs/kbpl.md §5.4).
pub fn drop_candidates(program: &Program) -> Program {
    use ivl::visit::{Node, VisitMut};
    fn retain(stmts: &mut Vec<Stmt>) {
        stmts.retain(|s| !matches!(&s.kind, StmtKind::Assert { attrs, .. } if has_attr(attrs, "candidate")));
    }
    struct Drop;
    impl VisitMut for Drop {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            match &mut s.kind {
                StmtKind::While { invariants, body, .. } => {
                    invariants.retain(|i| !has_attr(&i.attrs, "candidate"));
                    retain(body);
                }
                StmtKind::If { then, els, .. } => {
                    retain(then);
                    if let Some(Else::Block(b)) = els {
                        retain(b);
                    }
                }
                StmtKind::Block(b) => retain(b),
                _ => {}
            }
            ivl::visit::walk_stmt_mut(self, s)
        }
        fn visit_body(&mut self, b: &mut Body) {
            retain(&mut b.stmts);
            ivl::visit::walk_body_mut(self, b)
        }
        fn visit_procedure_decl(&mut self, p: &mut ProcedureDecl) {
            p.contracts.retain(|c| !has_attr(&c.attrs, "candidate"));
            ivl::visit::walk_procedure_decl_mut(self, p)
        }
        fn visit_expr(&mut self, _e: &mut Expr) {}
    }
    let mut p = program.clone();
    p.accept_mut(&mut Drop);
    p
}
