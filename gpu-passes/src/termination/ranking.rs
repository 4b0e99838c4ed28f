//! Ranking functions for the loops of one abstract thread (seed 004 §5: KITTeL proves the
//! abstract thread terminating; kivl checks candidate ranking functions with Z3 instead).
//!
//! For each natural loop with header `h`, the candidates are read off the comparisons the loop
//! branches on (its `assume`s): `n - i` for `i < n` or `i <= n`, `i - n` for `i > n` or `i >= n`,
//! both for `i != n` (so `i` itself for `i > 0`), and lexicographic pairs of the first few
//! (`(a, b)` decreases when `a` does, or `a` stays and `b` does; nested loops need none, as each
//! loop has its own check). Each candidate `R` is checked in place:
//!
//! ```text
//! h:        <invariants>            // the user's, and candidate invariants, all Houdini candidates
//!           r := R;                 // R at the start of the iteration
//!           ...
//! latch:    assert d ==> (C ==> R < r);      // decreasing        (bv: unsigned bvult(R, r))
//!           assert b ==> (C ==> 0 <= r);     // bounded below     (int only)
//!           goto h;
//! ```
//!
//! `d` and `b` are existential constants, so one Houdini run (with the loop invariants it infers)
//! keeps exactly the checks that hold; the loop is proven when some candidate keeps both. `C` is
//! the condition under which the header goes on into the loop (the leading `assume`s of its
//! successors inside the loop, when the header computes nothing before branching; otherwise
//! `true`): an iteration after which the loop exits need not decrease `R`, which matters for
//! bit-vectors, where `n - i` wraps on the last step of `i += 2`. Soundness: along an infinite
//! run every iteration is followed by another, so `C` holds at each latch and `R` strictly
//! decreases in a well-founded order (unsigned bit-vectors, or integers that stay non-negative).
//! A bit-vector candidate is never fooled by wrap-around: `bvult` compares the wrapped values.
//!
//! The Houdini candidates that make these checks provable: the user's invariants, the signs of
//! what the loop changes (for bit-vectors also signed non-negativity, and being on either side
//! of a constant the variable starts from outside the loop: C's `int` counters), and the
//! non-strict forms of the comparisons (signed and unsigned for bit-vectors). A loop stepping
//! `c += 240` while `c < i` (signed) needs `0 <= c` and an upper bound of `i` to know that the
//! step does not wrap.

use crate::two_thread::exprs::{assert_stmt, assign_stmt, bin, int, lhs, var};
use ivl::ast::*;
use ivl::blocks::{check_attrs, Block, BlockImpl, Terminator};
use ivl::cfg::Cfg;
use ivl::diag::Diagnostic;
use ivl::visit::modified_vars;
use std::collections::HashMap;
use vcgen::desugar::loops::leading_predicates;

/// At most this many ranking candidates per loop (each costs two Houdini candidates).
const MAX_RANKS: usize = 8;
/// Lexicographic pairs are formed from the first this many candidates.
const MAX_LEX: usize = 3;
/// At most this many of the thread's variables in a counterexample state.
const MAX_SHOWN: usize = 12;

/// One candidate ranking function of a loop and the existential constants of its checks.
#[derive(Clone, Debug)]
pub struct RankCandidate {
    /// The ranking function as printed.
    pub text: String,
    pub decreasing: Name,
    /// The bound check (integers only; unsigned bit-vectors are bounded below by 0).
    pub bounded: Option<Name>,
}

/// A loop and its ranking candidates.
#[derive(Clone, Debug)]
pub struct LoopRanks {
    pub procedure: Name,
    pub span: Span,
    pub candidates: Vec<RankCandidate>,
}

/// What instrumentation needs from the whole program: types, and the declarations it adds.
pub(crate) struct Cx {
    /// Constants, global variables and their shadows.
    pub globals: HashMap<Name, Type>,
    /// Functions: parameter types, result type and `{:bvbuiltin}` name.
    pub functions: HashMap<Name, (Vec<Type>, Type, Option<Name>)>,
    /// Existential constants, `{:bvbuiltin}` functions made up.
    pub new_decls: Vec<Decl>,
    next: usize,
}

impl Cx {
    pub fn new(p: &Program) -> Cx {
        let mut globals = HashMap::new();
        let mut functions = HashMap::new();
        for d in &p.decls {
            match &d.kind {
                DeclKind::Const(c) => globals.extend(c.names.iter().map(|n| (n.name.clone(), c.ty.clone()))),
                DeclKind::Var(v) => {
                    for x in &v.vars {
                        globals.insert(x.name.name.clone(), x.ty.clone());
                        globals.insert(Name::from(format!("{}$read", x.name.name)), x.ty.clone());
                    }
                }
                DeclKind::Function(f) => {
                    let builtin = match find_attr(&f.attrs, "bvbuiltin").and_then(|a| a.args.first()) {
                        Some(AttrArg::String(s, _)) => Some(s.clone()),
                        _ => None,
                    };
                    let params = f.params.iter().map(|p| p.ty.clone()).collect();
                    functions.insert(f.name.name.clone(), (params, f.result.ty.clone(), builtin));
                }
                _ => {}
            }
        }
        Cx { globals, functions, new_decls: Vec::new(), next: 0 }
    }

    /// A fresh existential constant (a Houdini candidate).
    fn candidate(&mut self) -> Name {
        self.next += 1;
        let name = Name::from(format!("$kivl_term{}", self.next));
        let existential = Attribute {
            name: Ident::new("existential", Span::DUMMY),
            args: vec![AttrArg::Expr(Expr::bool(true))],
            span: Span::DUMMY,
        };
        self.new_decls.push(Decl {
            kind: DeclKind::Const(ConstDecl {
                attrs: vec![existential],
                unique: false,
                names: vec![Ident::new(name.clone(), Span::DUMMY)],
                ty: Type::bool(),
                order_spec: None,
            }),
            span: Span::DUMMY,
        });
        name
    }

    /// `op(a, b)` for a comparison `{:bvbuiltin}` over `bvW`.
    fn bv_cmp(&mut self, op: &str, w: u32, a: Expr, b: Expr) -> Expr {
        let f = self.bv_fn(op, w, Type::bool());
        Expr::new(ExprKind::Call(Ident::new(f, Span::DUMMY), vec![a, b]), Span::DUMMY)
    }

    /// The `{:bvbuiltin op}` function over `bvW` (existing or made up).
    fn bv_fn(&mut self, op: &str, w: u32, result: Type) -> Name {
        let found = self.functions.iter().find(|(_, (params, ty, b))| {
            b.as_deref() == Some(op)
                && ty.kind == result.kind
                && params.len() == 2
                && params.iter().all(|p| p.kind == TypeKind::Bv(w))
        });
        if let Some((name, _)) = found {
            return name.clone();
        }
        let name = Name::from(format!("$kivl_{op}_bv{w}"));
        if !self.functions.contains_key(&name) {
            let p = |ty: Type| FnParam { name: None, ty };
            self.new_decls.push(Decl {
                kind: DeclKind::Function(FunctionDecl {
                    attrs: vec![Attribute {
                        name: Ident::new("bvbuiltin", Span::DUMMY),
                        args: vec![AttrArg::String(op.into(), Span::DUMMY)],
                        span: Span::DUMMY,
                    }],
                    name: Ident::new(name.clone(), Span::DUMMY),
                    type_params: vec![],
                    params: vec![p(Type::bv(w)), p(Type::bv(w))],
                    result: p(result.clone()),
                    body: None,
                }),
                span: Span::DUMMY,
            });
            self.functions.insert(name.clone(), (vec![Type::bv(w), Type::bv(w)], result, Some(op.into())));
        }
        name
    }
}

/// The type of `e`, where it is evident (variables, literals, arithmetic, calls, selections).
fn type_of(e: &Expr, locals: &HashMap<Name, Type>, cx: &Cx) -> Option<Type> {
    match &e.kind {
        ExprKind::Var(x) => locals.get(&x.name).or_else(|| cx.globals.get(&x.name)).cloned(),
        ExprKind::IntLit(_) => Some(Type::int()),
        ExprKind::BvLit { width, .. } => Some(Type::bv(*width)),
        ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod, a, b) => {
            type_of(a, locals, cx).or_else(|| type_of(b, locals, cx))
        }
        ExprKind::Unary(UnOp::Neg, a) | ExprKind::Old(a) => type_of(a, locals, cx),
        ExprKind::Call(f, _) => cx.functions.get(&f.name).map(|(_, t, _)| t.clone()),
        ExprKind::Select(m, _) => match type_of(m, locals, cx)?.kind {
            TypeKind::Map { result, .. } => Some(*result),
            _ => None,
        },
        _ => None,
    }
}

/// A comparison the loop branches on, normalised: `lo < hi`-like (`lo` is to grow towards `hi`)
/// or `!=` (either direction).
struct Comparison {
    lo: Expr,
    hi: Expr,
    either: bool,
    /// The operands' type (`int` or a bit-vector).
    ty: Type,
}

/// The comparisons of `e` (read with polarity `pos`) between two `int` or bit-vector operands.
fn comparisons(e: &Expr, pos: bool, locals: &HashMap<Name, Type>, cx: &Cx, out: &mut Vec<Comparison>) {
    let mut push = |a: &Expr, b: &Expr, either: bool| {
        let ty = type_of(a, locals, cx).or_else(|| type_of(b, locals, cx));
        if let Some(ty) = ty.filter(|t| matches!(t.kind, TypeKind::Int | TypeKind::Bv(_))) {
            out.push(Comparison { lo: a.clone(), hi: b.clone(), either, ty });
        }
    };
    match &e.kind {
        ExprKind::Unary(UnOp::Not, a) => comparisons(a, !pos, locals, cx, out),
        ExprKind::Binary(BinOp::And, a, b) if pos => {
            comparisons(a, pos, locals, cx, out);
            comparisons(b, pos, locals, cx, out);
        }
        ExprKind::Binary(BinOp::Or, a, b) if !pos => {
            comparisons(a, pos, locals, cx, out);
            comparisons(b, pos, locals, cx, out);
        }
        ExprKind::Binary(op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge), a, b) => {
            // `a < b` or, negated, `a >= b`: the one to grow is on the small side.
            let grows_a = matches!(op, BinOp::Lt | BinOp::Le) == pos;
            if grows_a {
                push(a, b, false)
            } else {
                push(b, a, false)
            }
        }
        ExprKind::Binary(op @ (BinOp::Neq | BinOp::Eq), a, b) if (*op == BinOp::Neq) == pos => push(a, b, true),
        ExprKind::Call(f, args) if args.len() == 2 => {
            let Some((_, _, Some(builtin))) = cx.functions.get(&f.name) else { return };
            let small_first = match builtin.as_str() {
                "bvult" | "bvule" | "bvslt" | "bvsle" => true,
                "bvugt" | "bvuge" | "bvsgt" | "bvsge" => false,
                _ => return,
            };
            if small_first == pos {
                push(&args[0], &args[1], false)
            } else {
                push(&args[1], &args[0], false)
            }
        }
        _ => {}
    }
}

/// `hi - lo` in the type of the comparison (`hi` itself when `lo` is zero).
fn difference(c: &Comparison, hi: &Expr, lo: &Expr, cx: &mut Cx) -> Expr {
    let zero = |e: &Expr| match &e.kind {
        ExprKind::IntLit(v) | ExprKind::BvLit { value: v, .. } => *v == 0u32.into(),
        _ => false,
    };
    if zero(lo) {
        return hi.clone();
    }
    match c.ty.kind {
        TypeKind::Bv(w) => {
            let f = cx.bv_fn("bvsub", w, Type::bv(w));
            Expr::new(ExprKind::Call(Ident::new(f, Span::DUMMY), vec![hi.clone(), lo.clone()]), Span::DUMMY)
        }
        _ => bin(BinOp::Sub, hi.clone(), lo.clone()),
    }
}

/// The loops of `imp` instrumented with their ranking checks and candidate invariants.
pub(crate) fn instrument(imp: &mut BlockImpl, cx: &mut Cx) -> Result<Vec<LoopRanks>, Diagnostic> {
    let cfg = Cfg::new(imp);
    cfg.check_reducible()?;
    let locals: HashMap<Name, Type> =
        imp.ins.iter().chain(&imp.outs).chain(&imp.locals).map(|v| (v.name.name.clone(), v.ty.clone())).collect();
    let succs = imp.successors();
    let mut out = Vec::new();
    let mut new_blocks = Vec::new();
    let mut new_locals = Vec::new();
    for lp in cfg.loops() {
        let h = lp.header;
        let (found, ranks) = ranking_functions(imp, lp, &locals, cx);
        // Candidate invariants: the user's (made candidates), signs of what the loop changes,
        // and the non-strict forms of integer comparisons.
        let prefix = leading_predicates(&imp.blocks[h].stmts);
        let header_computes = imp.blocks[h].stmts.len() > prefix;
        let mut invariants = user_invariants(&mut imp.blocks[h], prefix, cx);
        let changed: Vec<Name> = lp.body.iter().flat_map(|&b| modified_vars(&imp.blocks[b].stmts)).collect();
        let state = shown_state(imp, lp, &changed, &locals, cx);
        let initial = initial_values(imp, lp, &changed);
        let mut facts = sign_facts(&changed, &initial, &locals, cx);
        facts.extend(comparison_facts(&found, cx));
        let span = loop_start(&imp.blocks[h]);
        for f in facts {
            let b = cx.candidate();
            invariants.push(assert_stmt(check_attrs("invariant", None), Expr::implies(var(&b), f), span));
        }
        let cont = if header_computes { Expr::bool(true) } else { continuation(imp, &succs[h], lp) };
        let (record, recorded) = record_ranks(&imp.blocks[h].label.name, ranks, span, &mut new_locals);
        let (checks, candidates) = rank_checks(&recorded, &state, &cont, span, cx);
        let block = &mut imp.blocks[h];
        let rest = std::mem::take(&mut block.stmts);
        block.stmts = invariants.into_iter().chain(record).chain(rest).collect();
        new_blocks.extend(checked_back_edges(imp, lp, checks, span));
        out.push(LoopRanks { procedure: imp.name.name.clone(), span, candidates });
    }
    imp.blocks.extend(new_blocks);
    imp.locals.extend(new_locals);
    Ok(out)
}

/// The comparisons the loop branches on, and the ranking candidates read off them (without
/// duplicates, at most [`MAX_RANKS`]): each as printed, the expression and its type.
fn ranking_functions(
    imp: &BlockImpl,
    lp: &ivl::cfg::Loop,
    locals: &HashMap<Name, Type>,
    cx: &mut Cx,
) -> (Vec<Comparison>, Vec<(String, Expr, Type)>) {
    let mut found = Vec::new();
    for &b in &lp.body {
        for s in &imp.blocks[b].stmts {
            if let StmtKind::Assume { expr, .. } = &s.kind {
                comparisons(expr, true, locals, cx, &mut found);
            }
        }
    }
    let mut ranks: Vec<(String, Expr, Type)> = Vec::new();
    for c in &found {
        let mut add = |r: Expr| {
            let text = ivl::printer::print_expr(&r);
            if !ranks.iter().any(|(t, _, _)| *t == text) {
                ranks.push((text, r, c.ty.clone()));
            }
        };
        add(difference(c, &c.hi, &c.lo, cx));
        if c.either {
            add(difference(c, &c.lo, &c.hi, cx));
        }
    }
    ranks.truncate(MAX_RANKS);
    (found, ranks)
}

/// The header's leading predicates (its first `prefix` statements), taken out of it: the
/// user's invariants, made Houdini candidates.
fn user_invariants(header: &mut Block, prefix: usize, cx: &mut Cx) -> Vec<Stmt> {
    let mut invariants: Vec<Stmt> = Vec::new();
    for s in header.stmts.drain(..prefix) {
        match s.kind {
            StmtKind::Assert { attrs, expr } => {
                let b = cx.candidate();
                invariants.push(assert_stmt(attrs, Expr::implies(var(&b), expr), s.span));
            }
            _ => invariants.push(s),
        }
    }
    invariants
}

/// The thread's variables a counterexample shows: the integers and bit-vectors the loop
/// changes or reads, at most [`MAX_SHOWN`].
fn shown_state(
    imp: &BlockImpl,
    lp: &ivl::cfg::Loop,
    changed: &[Name],
    locals: &HashMap<Name, Type>,
    cx: &Cx,
) -> Vec<Name> {
    let mut state: Vec<Name> = changed.iter().filter(|x| !x.ends_with("$read")).cloned().collect();
    state.extend(lp.body.iter().flat_map(|&b| ivl::visit::free_vars(&imp.blocks[b].stmts)));
    state.retain(|x| {
        let ty = locals.get(x).or_else(|| cx.globals.get(x));
        ty.is_some_and(|t| matches!(t.kind, TypeKind::Int | TypeKind::Bv(_)))
    });
    let mut seen = std::collections::HashSet::new();
    state.retain(|x| seen.insert(x.clone()));
    state.truncate(MAX_SHOWN);
    state
}

/// Initial values: the bit-vector constants the variables the loop changes get outside it.
fn initial_values(imp: &BlockImpl, lp: &ivl::cfg::Loop, changed: &[Name]) -> Vec<(Name, Expr)> {
    let mut initial: Vec<(Name, Expr)> = Vec::new();
    for (_, b) in imp.blocks.iter().enumerate().filter(|(bi, _)| !lp.contains(*bi)) {
        for st in &b.stmts {
            let StmtKind::Assign { lhss, rhss } = &st.kind else { continue };
            for (l, r) in lhss.iter().zip(rhss) {
                if l.indices.is_empty()
                    && matches!(r.kind, ExprKind::BvLit { .. })
                    && changed.contains(&l.var.name)
                    && !initial.iter().any(|(x, k)| *x == l.var.name && k == r)
                {
                    initial.push((l.var.name.clone(), r.clone()));
                }
            }
        }
    }
    initial
}

/// Candidate invariants on the signs of what the loop changes.
fn sign_facts(changed: &[Name], initial: &[(Name, Expr)], locals: &HashMap<Name, Type>, cx: &mut Cx) -> Vec<Expr> {
    let mut facts: Vec<Expr> = Vec::new();
    for x in changed.iter().filter(|x| !x.ends_with("$read")) {
        match locals.get(x).or_else(|| cx.globals.get(x)).map(|t| &t.kind) {
            Some(TypeKind::Int) => {
                facts.push(bin(BinOp::Le, int(0), var(x)));
                facts.push(bin(BinOp::Lt, int(0), var(x)));
            }
            Some(&TypeKind::Bv(w)) => {
                let zero = Expr::new(ExprKind::BvLit { value: 0u32.into(), width: w }, Span::DUMMY);
                facts.push(bin(BinOp::Neq, var(x), zero.clone()));
                // C's `int` counters are signed: non-negative, and on one side of where
                // they start (counting up from or down to it), so that their steps do not
                // wrap around.
                facts.push(cx.bv_cmp("bvsle", w, zero, var(x)));
                for (_, k) in initial.iter().filter(|(y, _)| y == x) {
                    facts.push(cx.bv_cmp("bvsle", w, var(x), k.clone()));
                    facts.push(cx.bv_cmp("bvsle", w, k.clone(), var(x)));
                }
            }
            _ => {}
        }
    }
    facts
}

/// Candidate invariants: the non-strict forms of the one-sided comparisons (signed and
/// unsigned for bit-vectors).
fn comparison_facts(found: &[Comparison], cx: &mut Cx) -> Vec<Expr> {
    let mut facts = Vec::new();
    for c in found.iter().filter(|c| !c.either) {
        match c.ty.kind {
            TypeKind::Int => facts.push(bin(BinOp::Le, c.lo.clone(), c.hi.clone())),
            TypeKind::Bv(w) => {
                facts.push(cx.bv_cmp("bvsle", w, c.lo.clone(), c.hi.clone()));
                facts.push(cx.bv_cmp("bvule", w, c.lo.clone(), c.hi.clone()));
            }
            _ => {}
        }
    }
    facts
}

/// Where reports point: the start of the loop, the label of a `goto` loop, the `while` of a
/// structured one (whose header label is made up, and whose block carries its span).
fn loop_start(header: &Block) -> Span {
    let label = header.label.span;
    let start = if label == Span::DUMMY { header.span.start } else { label.start } as usize;
    Span::new(start, start + 1)
}

/// Each ranking candidate recorded at the start of the iteration, in a new local
/// `HEADER$rankK`: the assignments and the recorded candidates.
fn record_ranks(
    header: &Name,
    ranks: Vec<(String, Expr, Type)>,
    span: Span,
    new_locals: &mut Vec<TypedIdent>,
) -> (Vec<Stmt>, Vec<Ranked>) {
    let mut record = Vec::new();
    let mut recorded: Vec<Ranked> = Vec::new();
    for (k, (text, now, ty)) in ranks.into_iter().enumerate() {
        let old = Name::from(format!("{header}$rank{k}"));
        let local = TypedIdent {
            name: Ident::new(old.clone(), Span::DUMMY),
            ty: ty.clone(),
            where_clause: None,
            attrs: vec![],
        };
        new_locals.push(local);
        record.push(assign_stmt(vec![(lhs(&old, vec![], span), now.clone())], span));
        recorded.push(Ranked { text, now, old, ty });
    }
    (record, recorded)
}

/// The checks of the back edges (under the continuation `cont`) and the candidates they
/// decide: single ranking functions, then lexicographic pairs of the first few (a loop that
/// either decreases `a`, or keeps `a` and decreases `b`: `if (x > 0) x--; else i++;`).
fn rank_checks(
    recorded: &[Ranked],
    state: &[Name],
    cont: &Expr,
    span: Span,
    cx: &mut Cx,
) -> (Vec<Stmt>, Vec<RankCandidate>) {
    let mut checks = Vec::new();
    let mut candidates = Vec::new();
    let singles = (0..recorded.len()).map(|a| vec![a]);
    let pairs = (0..recorded.len().min(MAX_LEX))
        .flat_map(|a| (0..recorded.len().min(MAX_LEX)).filter(move |&b| b != a).map(move |b| vec![a, b]));
    for tuple in singles.chain(pairs) {
        let mut shown = vec![];
        for &i in &tuple {
            let r = &recorded[i];
            shown.push((format!("`{}` at the start of the iteration", r.text), var(&r.old)));
            shown.push((format!("`{}` after it", r.text), r.now.clone()));
        }
        shown.extend(state.iter().map(|x| (x.to_string(), var(x))));
        let captures: Vec<Attribute> = shown.into_iter().map(|(label, e)| capture(label, e)).collect();
        let check = |guard: &Name, e: Expr| {
            assert_stmt(captures.clone(), Expr::implies(var(guard), Expr::implies(cont.clone(), e)), span)
        };
        let (less, bound) = decrease_and_bound(recorded, &tuple, cx);
        let decreasing = cx.candidate();
        checks.push(check(&decreasing, less));
        let bounded = bound.map(|e| {
            let b = cx.candidate();
            checks.push(check(&b, e));
            b
        });
        let text = tuple.iter().map(|&i| recorded[i].text.as_str()).collect::<Vec<_>>().join(", ");
        let text = if tuple.len() > 1 { format!("({text}) lexicographically") } else { text };
        candidates.push(RankCandidate { text, decreasing, bounded });
    }
    (checks, candidates)
}

/// That a single candidate or a pair decreases, and that it is bounded below (none when
/// nothing needs to be).
fn decrease_and_bound(recorded: &[Ranked], tuple: &[usize], cx: &mut Cx) -> (Expr, Option<Expr>) {
    let first = &recorded[tuple[0]];
    match tuple {
        [_] => (first.less(cx), first.bounded()),
        _ => {
            // (a, b) decreases lexicographically; a stays bounded, and b is bounded
            // whenever a does not decrease.
            let second = &recorded[tuple[1]];
            let kept = Expr::and(Expr::eq(first.now.clone(), var(&first.old)), second.less(cx));
            let b_bound = second.bounded().map(|b| Expr::or(first.less(cx), b));
            let bound = match (first.bounded(), b_bound) {
                (Some(a), Some(b)) => Some(Expr::and(a, b)),
                (a, b) => a.or(b),
            };
            (Expr::or(first.less(cx), kept), bound)
        }
    }
}

/// The checks on every back edge: each latch jumps to the header through a new block (returned)
/// that holds them.
fn checked_back_edges(imp: &mut BlockImpl, lp: &ivl::cfg::Loop, checks: Vec<Stmt>, span: Span) -> Vec<Block> {
    let h = lp.header;
    let mut new_blocks = Vec::new();
    for (n, &l) in lp.latches.iter().enumerate() {
        let label = Ident::new(format!("{}$ranked{n}", imp.blocks[h].label.name), span);
        let header = imp.blocks[h].label.clone();
        if let Terminator::Goto(ts) = &mut imp.blocks[l].term {
            for t in ts.iter_mut().filter(|t| t.name == header.name) {
                *t = label.clone();
            }
        }
        new_blocks.push(Block { label, stmts: checks.clone(), term: Terminator::Goto(vec![header]), span });
    }
    new_blocks
}

/// A ranking candidate recorded at the loop header: its value now (at a latch) and then.
struct Ranked {
    text: String,
    now: Expr,
    old: Name,
    ty: Type,
}

impl Ranked {
    /// It decreased since the start of the iteration (unsigned for bit-vectors).
    fn less(&self, cx: &mut Cx) -> Expr {
        match self.ty.kind {
            TypeKind::Bv(w) => cx.bv_cmp("bvult", w, self.now.clone(), var(&self.old)),
            _ => bin(BinOp::Lt, self.now.clone(), var(&self.old)),
        }
    }

    /// It was bounded below at the start of the iteration (`None`: unsigned, always).
    fn bounded(&self) -> Option<Expr> {
        (self.ty.kind == TypeKind::Int).then(|| bin(BinOp::Le, int(0), var(&self.old)))
    }
}

/// `{:capture "label", e}`: the counterexample of a failing check shows the value of `e`.
fn capture(label: String, e: Expr) -> Attribute {
    Attribute {
        name: Ident::new(vcgen::wp::CAPTURE_ATTR, Span::DUMMY),
        args: vec![AttrArg::String(label.into(), Span::DUMMY), AttrArg::Expr(e)],
        span: Span::DUMMY,
    }
}

/// The condition under which header `h` goes on into loop `lp`: the disjunction, over its
/// successors inside the loop, of their leading `assume`s.
fn continuation(imp: &BlockImpl, succs: &[usize], lp: &ivl::cfg::Loop) -> Expr {
    let mut alternatives = Vec::new();
    for &s in succs {
        if !lp.contains(s) {
            continue;
        }
        if s == lp.header {
            return Expr::bool(true);
        }
        let guard = imp.blocks[s]
            .stmts
            .iter()
            .map_while(|st| match &st.kind {
                StmtKind::Assume { expr, .. } => Some(expr.clone()),
                _ => None,
            })
            .reduce(Expr::and)
            .unwrap_or_else(|| Expr::bool(true));
        alternatives.push(guard);
    }
    alternatives.into_iter().reduce(Expr::or).unwrap_or_else(|| Expr::bool(true))
}
