//! Termination of kernels (seed 004, Ketema and Donaldson, "Termination Analysis for GPU
//! Kernels"): the race and divergence analysis is sound only for terminating kernels, and a
//! kernel that loops forever hangs the device.
//!
//! Seed 004 §4 (Theorem 3): a kernel terminates if one arbitrary thread terminates under an
//! abstraction of the others ([`abstraction`]: shared memory reads are arbitrary, writes and
//! barriers are no-ops). That sequential program is proven terminating loop by loop with ranking
//! functions guessed from the loop's comparisons and checked by Z3 together with loop invariants
//! that Houdini infers ([`ranking`]). Calls are modular: every procedure with a body is checked
//! itself, and recursion is reported, not proven.
//!
//! The result combines with the race and divergence check of the two-thread program: a thread
//! waiting at a barrier for threads that left the loop is barrier divergence, which that check
//! reports; termination is the per-thread property that makes its verdict meaningful.
//! `kivl verify --termination` counts a kernel verified only when both hold.

pub mod abstraction;
pub mod ranking;

use crate::predication::{all_names, FreshNames};
use crate::two_thread::config::{Identity, Sizes};
use crate::two_thread::KernelOptions;
use abstraction::{abstract_body, abstract_contracts};
use ivl::ast::*;
use ivl::diag::{Diagnostic, ErrorKind};
use ranking::{Cx, LoopRanks};
use std::collections::{HashMap, HashSet};
use vcgen::engine::{Outcome, ProgramResult, VerifyOptions};

/// The abstract single-thread program with its ranking checks (`kivl transform --emit
/// termination`), and the loops it checks.
pub struct TerminationProgram {
    pub program: Program,
    pub loops: Vec<LoopRanks>,
}

/// The termination program of `p` (see the module documentation).
pub fn termination_program(p: &Program, opts: &KernelOptions) -> Result<TerminationProgram, Vec<Diagnostic>> {
    // In KBPL every global variable is shared memory.
    let shared = crate::predication::global_var_types(p);
    let mut cx = Cx::new(p);
    let mut loops = Vec::new();
    let mut diags = Vec::new();
    let mut out = p.clone();
    for d in &mut out.decls {
        let (attrs, lowered) = match &mut d.kind {
            DeclKind::Procedure(pr) => {
                abstract_contracts(&mut pr.contracts, &shared);
                let lowered = pr.body.is_some().then(|| ivl::lower::lower_procedure_body(pr));
                (&mut pr.attrs, lowered)
            }
            DeclKind::Implementation(im) => {
                let lowered = Some(ivl::lower::lower_body(im));
                (&mut im.attrs, lowered)
            }
            _ => continue,
        };
        attrs.retain(|a| a.name.as_str() != "kernel");
        let mut bi = match lowered {
            None => continue,
            Some(Ok(bi)) => bi,
            Some(Err(e)) => {
                diags.extend(e);
                continue;
            }
        };
        abstract_body(&mut bi, &shared);
        match ranking::instrument(&mut bi, &mut cx) {
            Ok(l) => loops.extend(l),
            Err(e) => diags.push(e),
        }
        match &mut d.kind {
            DeclKind::Procedure(pr) => pr.body = Some(bi.to_body()),
            DeclKind::Implementation(im) => im.body = bi.to_body(),
            _ => unreachable!("a declaration with a body"),
        }
    }
    diags.extend(recursion(p));
    if !diags.is_empty() {
        return Err(diags);
    }
    out.decls.extend(cx.new_decls);
    out.decls.extend(size_axioms(p, opts)?);
    Ok(TerminationProgram { program: out, loops })
}

/// A counterexample state for the first ranking candidate of each unproven loop, by loop span:
/// the termination program is checked again with Houdini's final assignment fixed and that
/// candidate's failing check made unconditional, so the solver's model shows the values its
/// `{:capture}`s ask for.
fn counterexamples(
    program: &Program,
    assignment: &vcgen::houdini::Assignment,
    unproven: &[&LoopRanks],
    opts: &VerifyOptions,
) -> HashMap<Span, String> {
    let mut fixed = assignment.clone();
    for lp in unproven {
        let Some(c) = lp.candidates.first() else { continue };
        let failing = if fixed.get(&c.decreasing) == Some(&true) { c.bounded.as_ref() } else { Some(&c.decreasing) };
        if let Some(f) = failing {
            fixed.insert(f.clone(), true);
        }
    }
    if unproven.iter().all(|lp| lp.candidates.is_empty()) {
        return HashMap::new();
    }
    let mut p = program.clone();
    for (name, value) in &fixed {
        let expr =
            if *value { crate::two_thread::exprs::var(name) } else { Expr::not(crate::two_thread::exprs::var(name)) };
        p.decls.push(Decl { kind: DeclKind::Axiom(AxiomDecl { attrs: vec![], expr }), span: Span::DUMMY });
    }
    let opts = VerifyOptions { houdini: false, ..opts.clone() };
    let result = vcgen::engine::verify_program(&p, &opts);
    let mut out = HashMap::new();
    for imp in &result.impls {
        let Outcome::Errors(ds) = &imp.outcome else { continue };
        for d in ds.iter().filter(|d| !d.values.is_empty()) {
            let values: Vec<String> = d.values.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            out.entry(d.primary.span).or_insert_with(|| values.join(", "));
        }
    }
    out
}

/// The sizes of `--local-size` / `--num-groups` as axioms: the thread counts a kernel runs with
/// matter to termination under bit-vector semantics (seed 004 §6 fixes them per kernel too).
fn size_axioms(p: &Program, opts: &KernelOptions) -> Result<Vec<Decl>, Vec<Diagnostic>> {
    if opts.local_size.is_none() && opts.num_groups.is_none() {
        return Ok(Vec::new());
    }
    let sizes = Sizes::new(opts.local_size.as_deref(), opts.num_groups.as_deref()).map_err(|d| vec![d])?;
    let mut names = FreshNames::new(all_names(p));
    let identity = Identity::of(p, &mut names)?;
    let facts = identity.uniform_facts(&sizes).map_err(|d| vec![d])?;
    let axiom = |expr| Decl { kind: DeclKind::Axiom(AxiomDecl { attrs: vec![], expr }), span: Span::DUMMY };
    Ok(identity.decls.into_iter().chain(facts.into_iter().map(axiom)).collect())
}

/// A diagnostic for each procedure that can call itself: the ranking of loops says nothing
/// about the depth of recursion.
fn recursion(p: &Program) -> Vec<Diagnostic> {
    let mut calls: HashMap<Name, (Span, Vec<Name>)> = HashMap::new();
    let callees = |stmts: &[Stmt]| {
        struct Calls(Vec<Name>);
        impl ivl::visit::Visit for Calls {
            fn visit_stmt(&mut self, s: &Stmt) {
                if let StmtKind::Call { proc, .. } = &s.kind {
                    self.0.push(proc.name.clone());
                }
                ivl::visit::walk_stmt(self, s)
            }
        }
        let mut c = Calls(Vec::new());
        stmts.iter().for_each(|s| ivl::visit::Visit::visit_stmt(&mut c, s));
        c.0
    };
    for d in &p.decls {
        let (name, body) = match &d.kind {
            DeclKind::Procedure(pr) => (&pr.name, pr.body.as_ref()),
            DeclKind::Implementation(im) => (&im.name, Some(&im.body)),
            _ => continue,
        };
        if let Some(b) = body {
            calls.entry(name.name.clone()).or_insert((name.span, Vec::new())).1.extend(callees(&b.stmts));
        }
    }
    let mut out = Vec::new();
    for (start, (span, _)) in &calls {
        let mut seen = HashSet::new();
        let mut todo: Vec<&Name> = calls[start].1.iter().collect();
        while let Some(n) = todo.pop() {
            if n == start {
                out.push(Diagnostic::new(
                    ErrorKind::Termination,
                    format!("`{start}` may call itself: termination through recursion is not checked"),
                    *span,
                ));
                break;
            }
            if seen.insert(n.clone()) {
                todo.extend(calls.get(n).into_iter().flat_map(|(_, c)| c));
            }
        }
    }
    out.sort_by_key(|d| d.primary.span.start);
    out
}

/// The outcome of the termination check of a program.
#[derive(Debug, Default)]
pub struct TerminationResult {
    /// Loops that could not be proven terminating, recursion, and input errors.
    pub errors: Vec<Diagnostic>,
    pub loops: usize,
    pub proven: usize,
    /// Procedures with a loop that could not be proven terminating.
    pub unproven: HashSet<Name>,
    /// Set when the solver gave no answer (the verdict is then unknown).
    pub inconclusive: Option<String>,
}

/// The verdict on every loop of `t`, from the VC engine's results on `t.program` (verified
/// with Houdini, every ranking check a candidate): a loop is proven terminating when Houdini
/// kept one of its ranking functions, decreasing and bounded; every other loop is an error
/// that says which half failed, with a counterexample.
pub fn judge(t: &TerminationProgram, verified: ProgramResult, opts: &VerifyOptions) -> TerminationResult {
    let mut result = TerminationResult { loops: t.loops.len(), ..Default::default() };
    if !verified.errors.is_empty() {
        result.errors = verified.errors;
        return result;
    }
    for imp in &verified.impls {
        match &imp.outcome {
            Outcome::Inconclusive(why) => result.inconclusive = Some(why.clone()),
            // Every check is a candidate: a failure that none guards is a bug of this pass.
            Outcome::Errors(ds) => result.errors.extend(ds.iter().map(|d| {
                Diagnostic::new(
                    ErrorKind::Termination,
                    format!("termination could not be checked: {}", d.message),
                    if d.primary.span == Span::DUMMY { imp.span } else { d.primary.span },
                )
            })),
            Outcome::Verified => {}
        }
    }
    if result.inconclusive.is_some() || !result.errors.is_empty() {
        return result;
    }
    let assignment = verified.houdini.map(|h| h.assignment).unwrap_or_default();
    let kept = |n: &Name| assignment.get(n) == Some(&true);
    let proven =
        |lp: &LoopRanks| lp.candidates.iter().any(|c| kept(&c.decreasing) && c.bounded.as_ref().is_none_or(kept));
    let unproven: Vec<&LoopRanks> = t.loops.iter().filter(|lp| !proven(lp)).collect();
    let counterexamples = counterexamples(&t.program, &assignment, &unproven, opts);
    for lp in &t.loops {
        if proven(lp) {
            result.proven += 1;
            continue;
        }
        result.unproven.insert(lp.procedure.clone());
        result.errors.push(not_proven(lp, &kept, counterexamples.get(&lp.span)));
    }
    result
}

/// The error of a loop none of whose ranking functions Houdini kept.
fn not_proven(lp: &LoopRanks, kept: &dyn Fn(&Name) -> bool, counterexample: Option<&String>) -> Diagnostic {
    let mut d = Diagnostic::new(
        ErrorKind::Termination,
        format!("this loop in `{}` might not terminate", lp.procedure),
        lp.span,
    );
    if lp.candidates.is_empty() {
        d = d.with_note("no ranking function candidate: the loop branches on no comparison of integers");
    }
    for c in &lp.candidates {
        let why = match (kept(&c.decreasing), c.bounded.as_ref().is_none_or(kept)) {
            (false, false) => "neither decreasing nor bounded below",
            (false, true) => "not decreasing on every iteration",
            _ => "not bounded below",
        };
        d = d.with_note(format!("ranking function `{}`: {why}", c.text));
    }
    if let Some(values) = counterexample {
        d = d.with_note(format!("counterexample to `{}`: {values}", lp.candidates[0].text));
    }
    d.with_note(
        "checked for one thread with shared memory abstracted (seed 004 §4): a loop whose exit \
         depends on values other threads write cannot be proven this way",
    )
}
