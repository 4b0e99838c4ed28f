//! Automatic loop invariants for kernels: candidate generation (seed 001 §4.3), Houdini, and a
//! report of what was inferred.
//!
//! Why: a kernel with loops verifies only with loop invariants, and GPU kernels need a few
//! typical ones — the access-pattern facts that make the race checks of two distinct threads
//! fail, the uniformity that rules out barrier divergence, the bounds of counters. GPUVerify
//! guesses them from the shape of the kernel and lets Houdini keep the largest inductive subset
//! (seed 001 §4.3: "candidates … that later turn out to be incorrect … are simply discarded by
//! Houdini", so a wrong guess never makes a kernel verify).
//!
//! The design is a kernel-to-kernel pass, independent of the two-thread reduction:
//! [`add_candidates`] inserts `invariant {:candidate} {:rule "NAME", ID} φ;` into every loop of
//! every body a kernel reaches (a goto loop gets leading `assert {:candidate} …` statements at
//! its header) and `{:candidate}` contracts on called procedures, written with the
//! specification built-ins of docs/kbpl.md §5.2 over the source kernel. The two-thread reduction
//! turns them into Houdini candidates like any user candidate. Rule families, one module each:
//! [`bounds`], [`uniform`], [`access`], [`pow2`], [`logs`], [`guarded`], [`enabled`],
//! [`relations`], [`values`], [`contracts`] ([`pinned`] serves [`access`]); [`facts`] reads loops off the CFG for all of them
//! and [`arith`] reads and writes int and bit-vector arithmetic. [`dynamic`] drops candidates
//! that concrete runs of the kernel refute before Houdini runs (GPUVerify's dynamic analysis),
//! and [`report`] says which candidates survived (`--infer-info`).
//!
//! [`candidates`] is the inference stage of `kivl verify --houdini` on a kernel: sizes fixed on
//! the command line are written as literals ([`literal_sizes`]), candidates are added, concrete runs kill
//! what they refute, and the driver ([`crate::driver`]) runs Houdini and the final check.
//! Each candidate clause has a span of its own ([`Candidate::span`]), by which Houdini's guards
//! and the interpreter's failures are mapped back to it.

pub mod access;
pub mod aligned;
pub mod arith;
pub mod bounds;
pub mod contracts;
pub mod cx;
pub mod digits;
pub mod dynamic;
pub mod enabled;
pub mod facts;
pub mod guarded;
pub mod logs;
pub mod params;
pub mod pinned;
pub mod pow2;
pub mod relations;
pub mod report;
pub mod uniform;
pub mod values;

pub use crate::sizes::Sizes;
use facts::{for_each_while, LoopFacts, ProgramFacts, Site};
use ivl::ast::*;
use ivl::visit::{walk_expr_mut, VisitMut};
use std::collections::HashMap;

pub use report::{infer_info_json, infer_info_text, InferenceReport};

/// The attribute naming a candidate's rule: `{:rule "NAME", ID}`.
pub const RULE_ATTR: &str = "rule";

/// Where the ends of candidate clause spans start (see [`Candidate::span`]).
pub const CANDIDATE_SPAN_BASE: u32 = 0xF000_0000;

/// The candidate id a clause span stands for.
pub fn candidate_of_span(span: Span) -> Option<usize> {
    (span.end >= CANDIDATE_SPAN_BASE).then(|| (span.end - CANDIDATE_SPAN_BASE) as usize)
}

/// Every rule name, by family.
pub const RULES: &[&str] = &[
    bounds::COUNTER_BOUND,
    bounds::GUARD_NONNEG,
    bounds::GUARD_BOUND,
    uniform::UNIFORM_COUNTER,
    uniform::UNIFORM_DELTA,
    uniform::UNIFORM_GUARD,
    uniform::UNIFORM_ENABLED,
    uniform::EQUAL_WHEN_ENABLED,
    access::OFFSET,
    access::STRIDED,
    access::STRENGTH_REDUCED,
    access::GRID_STRIDE,
    access::CONTIGUOUS,
    access::CONTIGUOUS_GROUP,
    access::BLOCK,
    access::OFFSET_ANY,
    access::COUNTER_RANGE,
    digits::DIGIT,
    aligned::ALIGNED,
    pow2::POW2,
    pow2::POW2_NONZERO,
    pow2::POW2_BOUND,
    logs::NO_ACCESS,
    guarded::GUARDED,
    enabled::GUARD_ENABLED,
    enabled::ENABLED_OUTER,
    relations::LINEAR,
    values::UNIFORM_VALUES,
    contracts::OUTPUT,
    contracts::UNIFORM_PARAM,
];

/// Options of candidate generation.
#[derive(Clone, Debug, Default)]
pub struct GenOptions {
    /// Sizes fixed on the command line (axioms are read as well).
    pub sizes: Sizes,
}

/// Where a candidate is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CandidateSite {
    /// A loop invariant of `CandidateInfo::loops[.0]`.
    Loop(usize),
    Requires,
    Ensures,
}

/// A generated candidate.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// Its number, also the second argument of its `{:rule}` attribute.
    pub id: usize,
    pub rule: &'static str,
    /// The procedure (kernel or callee) it belongs to.
    pub proc: Name,
    pub site: CandidateSite,
    /// The loop (`while` statement or header label), or the procedure name.
    pub at: Span,
    /// The clause's own span: it starts where `at` starts (so that a location computed from it
    /// is the loop's) and ends at [`CANDIDATE_SPAN_BASE`]` + id`, past any real source text
    /// (diagnostics clamp spans to the file), which makes it unique: Houdini's origins and the
    /// interpreter's failures are mapped back to candidates by it ([`candidate_of_span`]).
    pub span: Span,
    pub expr: Expr,
    /// The clause as printed.
    pub text: String,
}

/// A loop that got candidates.
#[derive(Clone, Debug)]
pub struct LoopInfo {
    pub proc: Name,
    pub site: Site,
    pub span: Span,
    pub has_barrier: bool,
    /// Invariants the loop already had (not counting candidates).
    pub user_invariants: usize,
}

/// What [`add_candidates`] generated.
#[derive(Clone, Debug, Default)]
pub struct CandidateInfo {
    pub candidates: Vec<Candidate>,
    pub loops: Vec<LoopInfo>,
}

impl CandidateInfo {
    pub fn by_id(&self, id: usize) -> Option<&Candidate> {
        self.candidates.get(id).filter(|c| c.id == id)
    }

    /// How many candidates each rule generated.
    pub fn per_rule(&self) -> Vec<(&'static str, usize)> {
        RULES
            .iter()
            .map(|r| (*r, self.candidates.iter().filter(|c| c.rule == *r).count()))
            .filter(|(_, n)| *n > 0)
            .collect()
    }
}

/// [`add_candidates_with`] with default options.
pub fn add_candidates(program: &Program) -> (Program, CandidateInfo) {
    add_candidates_with(program, &GenOptions::default())
}

/// Inserts candidate invariants into every loop of every body a kernel reaches, and candidate
/// contracts into the procedures kernels call. The program should be checked (and may carry
/// the GPU prelude); the output type-checks whenever the input does.
pub fn add_candidates_with(program: &Program, opts: &GenOptions) -> (Program, CandidateInfo) {
    let facts = ProgramFacts::new(program, opts.sizes.clone());
    let sizes = facts.size_literals();
    let loops = facts.loops();
    let mut info = CandidateInfo::default();
    // Loop candidates, per body.
    let mut per_decl: HashMap<usize, Vec<(Site, Vec<Candidate>)>> = HashMap::new();
    for lf in &loops {
        let proposals = loop_proposals(&facts, lf);
        let index = info.loops.len();
        info.loops.push(LoopInfo {
            proc: lf.proc.clone(),
            site: lf.site.clone(),
            span: lf.span,
            has_barrier: lf.has_barrier,
            user_invariants: 0,
        });
        let mut made = Vec::new();
        for p in proposals {
            let c = make_candidate(&mut info, p.rule, lf.proc.clone(), CandidateSite::Loop(index), lf.span, p.expr);
            made.push(c);
        }
        let decl = facts.owners.iter().find(|o| o.name == lf.proc).map(|o| o.decl);
        if let Some(decl) = decl {
            per_decl.entry(decl).or_default().push((lf.site.clone(), made));
        }
    }
    let contract_props = contracts::generate(&facts);
    let mut out = program.clone();
    for (decl, sites) in per_decl {
        insert_loop_candidates(&mut out.decls[decl], sites, &mut info);
    }
    for mut p in contract_props {
        p.expr = ivl::visit::substitute(&p.expr, &sizes);
        let site = if p.requires { CandidateSite::Requires } else { CandidateSite::Ensures };
        let c = make_candidate(&mut info, p.rule, p.proc.clone(), site, p.span, p.expr);
        insert_contract(&mut out, &c, p.requires);
    }
    out.decls.extend(facts.arith.added_decls());
    (out, info)
}

fn loop_proposals(facts: &ProgramFacts, lf: &LoopFacts) -> Vec<cx::Proposal> {
    let mut cx = cx::LoopCx::new(facts, lf);
    bounds::generate(&mut cx);
    uniform::generate(&mut cx);
    access::generate(&mut cx);
    digits::generate(&mut cx);
    aligned::generate(&mut cx);
    pow2::generate(&mut cx);
    logs::generate(&mut cx);
    guarded::generate(&mut cx);
    enabled::generate(&mut cx);
    relations::generate(&mut cx);
    if let Site::While(k) = &lf.site {
        if let Some(e) = facts.loop_values.get(&(lf.proc.clone(), *k)).and_then(|t| values::candidate(t, &facts.arith))
        {
            cx.push(values::UNIFORM_VALUES, e);
        }
    }
    cx.out
}

fn make_candidate(
    info: &mut CandidateInfo,
    rule: &'static str,
    proc: Name,
    site: CandidateSite,
    at: Span,
    mut expr: Expr,
) -> Candidate {
    fill_dummy_spans(&mut expr, at);
    let id = info.candidates.len();
    let text = ivl::printer::print_expr(&expr);
    let span = Span { start: at.start, end: CANDIDATE_SPAN_BASE + id as u32 };
    let c = Candidate { id, rule, proc, site, at, span, expr, text };
    info.candidates.push(c.clone());
    c
}

/// `{:candidate} {:rule "NAME", ID}`.
pub fn candidate_attrs(c: &Candidate) -> Vec<Attribute> {
    vec![
        Attribute { name: Ident::new("candidate", c.span), args: vec![], span: c.span },
        Attribute {
            name: Ident::new(RULE_ATTR, c.span),
            args: vec![
                AttrArg::String(Name::from(c.rule), c.span),
                AttrArg::Expr(Expr::new(ExprKind::IntLit(c.id.into()), c.span)),
            ],
            span: c.span,
        },
    ]
}

/// The candidate id of a clause's attributes (`{:rule "NAME", ID}`).
pub fn candidate_id(attrs: &[Attribute]) -> Option<usize> {
    let a = find_attr(attrs, RULE_ATTR)?;
    match a.args.get(1) {
        Some(AttrArg::Expr(Expr { kind: ExprKind::IntLit(v), .. })) => v.try_into().ok(),
        _ => None,
    }
}

struct FillSpans(Span);

impl VisitMut for FillSpans {
    fn visit_span(&mut self, s: &mut Span) {
        if *s == Span::DUMMY {
            *s = self.0;
        }
    }
    fn visit_expr(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e)
    }
}

fn fill_dummy_spans(e: &mut Expr, span: Span) {
    FillSpans(span).visit_expr(e);
}

fn body_mut(d: &mut Decl) -> Option<&mut Body> {
    match &mut d.kind {
        DeclKind::Procedure(p) => p.body.as_mut(),
        DeclKind::Implementation(i) => Some(&mut i.body),
        _ => None,
    }
}

fn insert_loop_candidates(decl: &mut Decl, sites: Vec<(Site, Vec<Candidate>)>, info: &mut CandidateInfo) {
    let Some(body) = body_mut(decl) else { return };
    let mut by_while: HashMap<usize, Vec<Candidate>> = HashMap::new();
    let mut by_label: HashMap<Name, Vec<Candidate>> = HashMap::new();
    for (site, cs) in sites {
        match site {
            Site::While(k) => by_while.entry(k).or_default().extend(cs),
            Site::Label(l) => by_label.entry(l).or_default().extend(cs),
        }
    }
    let mut k = 0;
    for_each_while(&mut body.stmts, &mut k, &mut |k, s| {
        let span = s.span;
        if let StmtKind::While { invariants, .. } = &mut s.kind {
            if let Some(li) = info.loops.iter_mut().find(|l| l.site == Site::While(k) && l.span == span) {
                li.user_invariants = invariants.len();
            }
            for c in by_while.remove(&k).unwrap_or_default() {
                invariants.push(Invariant {
                    free: false,
                    attrs: candidate_attrs(&c),
                    expr: c.expr.clone(),
                    span: c.span,
                });
            }
        }
    });
    insert_at_labels(&mut body.stmts, &mut by_label, info);
}

fn insert_at_labels(stmts: &mut Vec<Stmt>, by_label: &mut HashMap<Name, Vec<Candidate>>, info: &mut CandidateInfo) {
    let mut i = 0;
    while i < stmts.len() {
        match &mut stmts[i].kind {
            StmtKind::Label(l) => {
                if let Some(cs) = by_label.remove(&l.name) {
                    let name = l.name.clone();
                    let existing = stmts[i + 1..]
                        .iter()
                        .take_while(|s| matches!(s.kind, StmtKind::Assert { .. } | StmtKind::Assume { .. }))
                        .count();
                    if let Some(li) = info.loops.iter_mut().find(|li| li.site == Site::Label(name.clone())) {
                        li.user_invariants = existing;
                    }
                    let at = i + 1 + existing;
                    let new: Vec<Stmt> = cs
                        .into_iter()
                        .map(|c| {
                            Stmt::new(StmtKind::Assert { attrs: candidate_attrs(&c), expr: c.expr.clone() }, c.span)
                        })
                        .collect();
                    let n = new.len();
                    stmts.splice(at..at, new);
                    i = at + n;
                    continue;
                }
            }
            StmtKind::While { body, .. } | StmtKind::Block(body) => insert_at_labels(body, by_label, info),
            StmtKind::If { then, els, .. } => {
                insert_at_labels(then, by_label, info);
                match els {
                    Some(Else::Block(b)) => insert_at_labels(b, by_label, info),
                    Some(Else::If(s)) => {
                        let mut v = vec![(**s).clone()];
                        insert_at_labels(&mut v, by_label, info);
                        **s = v.pop().expect("one statement");
                    }
                    None => {}
                }
            }
            _ => {}
        }
        i += 1;
    }
}

fn insert_contract(program: &mut Program, c: &Candidate, requires: bool) {
    for d in &mut program.decls {
        if let DeclKind::Procedure(p) = &mut d.kind {
            if p.name.name == c.proc {
                p.contracts.push(Contract {
                    kind: if requires { SpecKind::Requires } else { SpecKind::Ensures },
                    free: false,
                    attrs: candidate_attrs(c),
                    expr: c.expr.clone(),
                    span: c.span,
                });
                return;
            }
        }
    }
}

/// The program without its checked loop invariants: `invariant` clauses that are not `free`,
/// and the leading `assert`s of goto-loop headers (kernels as a user would write them before
/// annotating; used to measure inference).
pub fn strip_loop_invariants(program: &Program) -> Program {
    let mut out = program.clone();
    for d in &mut out.decls {
        let headers: Vec<Name> = {
            let Some(body) = body_mut(d) else { continue };
            goto_loop_headers(body)
        };
        let Some(body) = body_mut(d) else { continue };
        strip_stmts(&mut body.stmts, &headers);
    }
    out
}

/// The user labels that head natural loops of a body.
fn goto_loop_headers(body: &Body) -> Vec<Name> {
    let labels = facts::user_labels(&body.stmts);
    if labels.is_empty() {
        return Vec::new();
    }
    let Ok(imp) = ivl::lower::lower(&[], &Ident::new("strip", Span::DUMMY), &[], &[], body) else {
        return Vec::new();
    };
    let cfg = ivl::cfg::Cfg::new(&imp);
    cfg.loops().iter().map(|l| imp.blocks[l.header].label.name.clone()).filter(|n| labels.contains(n)).collect()
}

fn strip_stmts(stmts: &mut Vec<Stmt>, headers: &[Name]) {
    let mut i = 0;
    while i < stmts.len() {
        match &mut stmts[i].kind {
            StmtKind::While { invariants, body, .. } => {
                invariants.retain(|inv| inv.free);
                strip_stmts(body, headers);
            }
            StmtKind::Block(b) => strip_stmts(b, headers),
            StmtKind::If { then, els, .. } => {
                strip_stmts(then, headers);
                match els {
                    Some(Else::Block(b)) => strip_stmts(b, headers),
                    Some(Else::If(s)) => {
                        let mut v = vec![(**s).clone()];
                        strip_stmts(&mut v, headers);
                        **s = v.pop().expect("one statement");
                    }
                    None => {}
                }
            }
            StmtKind::Label(l) if headers.contains(&l.name) => {
                let n = stmts[i + 1..].iter().take_while(|s| matches!(s.kind, StmtKind::Assert { .. })).count();
                stmts.drain(i + 1..i + 1 + n);
            }
            _ => {}
        }
        i += 1;
    }
}

/// The sizes of [`crate::two_thread::KernelOptions`] as generation options.
pub fn gen_options(kopts: &crate::two_thread::KernelOptions) -> GenOptions {
    GenOptions { sizes: Sizes::padded(kopts.local_size.as_deref(), kopts.num_groups.as_deref()) }
}

/// A kernel program with its generated candidate invariants: what Houdini starts from.
pub struct Candidates {
    pub program: Program,
    pub info: CandidateInfo,
    /// The candidates concrete runs refuted (removed from `program`).
    pub dynamic: dynamic::DynamicResult,
}

/// The candidates of `program` ([`add_candidates_with`], with the sizes of `kopts` written as
/// literals), without those that concrete runs refute ([`dynamic::kill`], unless `dynamic` is
/// `None`).
pub fn candidates(
    program: &Program,
    kopts: &crate::two_thread::KernelOptions,
    dynamic: Option<&dynamic::DynamicOptions>,
) -> Candidates {
    let gopts = gen_options(kopts);
    let program = &literal_sizes(program, &gopts.sizes);
    let (with_candidates, info) = add_candidates_with(program, &gopts);
    let dynamic = match dynamic {
        Some(o) => dynamic::kill(&with_candidates, &info, kopts, o),
        None => dynamic::DynamicResult::default(),
    };
    let program =
        if dynamic.killed.is_empty() { with_candidates } else { remove_candidates(&with_candidates, &dynamic.killed) };
    Candidates { program, info, dynamic }
}

/// The program with the sizes fixed by `sizes` written as literals in every procedure body and
/// contract (`i * group_size_x` becomes `i * 64`). The meaning is the same — the reduction fixes
/// the size constants to these values — but the solver sees linear arithmetic where the kernel
/// multiplies or takes remainders by a size, which Houdini's incremental checks (where the
/// solver does not eliminate `group_size_x == 64` first) otherwise find hard.
pub fn literal_sizes(program: &Program, sizes: &Sizes) -> Program {
    let facts = ProgramFacts::new(program, sizes.clone());
    let map = facts.size_literals();
    if map.is_empty() {
        return program.clone();
    }
    // Parameters and locals that reuse a size constant's name shadow it.
    let unshadowed = |ins: &[TypedIdent], outs: &[TypedIdent], body: Option<&Body>| {
        let mut m = map.clone();
        for v in ins.iter().chain(outs).chain(body.into_iter().flat_map(|b| b.locals.iter().flat_map(|d| &d.vars))) {
            m.remove(&v.name.name);
        }
        m
    };
    let mut out = program.clone();
    for d in &mut out.decls {
        match &mut d.kind {
            DeclKind::Procedure(p) => {
                let m = unshadowed(&p.ins, &p.outs, p.body.as_ref());
                for c in &mut p.contracts {
                    ivl::visit::substitute_in_place(&mut c.expr, &m);
                }
                if let Some(b) = &mut p.body {
                    ivl::visit::substitute_in_place(&mut b.stmts, &m);
                }
            }
            DeclKind::Implementation(i) => {
                let m = unshadowed(&i.ins, &i.outs, Some(&i.body));
                ivl::visit::substitute_in_place(&mut i.body.stmts, &m);
            }
            _ => {}
        }
    }
    out
}

/// The program without the candidates whose ids are listed (identified by their spans).
pub fn remove_candidates(program: &Program, ids: &std::collections::BTreeSet<usize>) -> Program {
    retain_clauses(program, &|_, span| !candidate_of_span(span).is_some_and(|id| ids.contains(&id)))
}

/// The program with only the clauses (invariants, contracts, leading asserts marked
/// `{:candidate}` or generated) for which `keep(attributes, span)` holds; other statements and
/// unmarked clauses are kept.
pub fn retain_clauses(program: &Program, keep: &dyn Fn(&[Attribute], Span) -> bool) -> Program {
    struct Retain<'a>(&'a dyn Fn(&[Attribute], Span) -> bool);
    impl Retain<'_> {
        fn gone(&self, attrs: &[Attribute], span: Span) -> bool {
            let marked = has_attr(attrs, "candidate") || candidate_of_span(span).is_some();
            marked && !(self.0)(attrs, span)
        }
    }
    impl VisitMut for Retain<'_> {
        fn visit_procedure_decl(&mut self, p: &mut ProcedureDecl) {
            p.contracts.retain(|c| !self.gone(&c.attrs, c.span));
            ivl::visit::walk_procedure_decl_mut(self, p)
        }
        fn visit_stmt(&mut self, s: &mut Stmt) {
            if let StmtKind::While { invariants, .. } = &mut s.kind {
                invariants.retain(|i| !self.gone(&i.attrs, i.span));
            }
            ivl::visit::walk_stmt_mut(self, s)
        }
        fn visit_body(&mut self, b: &mut Body) {
            remove_stmts(&mut b.stmts, self);
            ivl::visit::walk_body_mut(self, b)
        }
        fn visit_expr(&mut self, _e: &mut Expr) {}
    }
    fn remove_stmts(stmts: &mut Vec<Stmt>, r: &Retain) {
        stmts.retain(|s| match &s.kind {
            StmtKind::Assert { attrs, .. } => !r.gone(attrs, s.span),
            _ => true,
        });
        for s in stmts.iter_mut() {
            match &mut s.kind {
                StmtKind::While { body, .. } | StmtKind::Block(body) => remove_stmts(body, r),
                StmtKind::If { then, els, .. } => {
                    remove_stmts(then, r);
                    match els {
                        Some(Else::Block(b)) => remove_stmts(b, r),
                        Some(Else::If(s)) => {
                            let mut v = vec![(**s).clone()];
                            remove_stmts(&mut v, r);
                            if let Some(x) = v.pop() {
                                **s = x;
                            }
                        }
                        None => {}
                    }
                }
                _ => {}
            }
        }
    }
    let mut p = program.clone();
    Retain(keep).visit_program(&mut p);
    p
}
