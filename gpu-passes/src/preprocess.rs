//! The input restrictions that seed 000 places on kernels (§3.1 and the start of §4), established
//! by program-to-program passes instead of being required of the input. The paper notes that
//! "any kernel can be easily pre-processed to satisfy these restrictions"; these passes do it:
//!
//! - [`insert_guards`] (§3.1): the first statement of every block is an `assume` — its *guard*
//!   — and no other `assume` occurs in a block; the first statement of the entry block `Start`
//!   is `assume true`. A block without a leading `assume` gets `assume true`; a block with an
//!   `assume` further down is split there, so that the `assume` guards a new block (how a branch
//!   condition becomes a guard); an entry block that has predecessors or a real guard gets a new
//!   entry block in front of it.
//! - [`terminate_with_barrier`] (§4): threads synchronise on a barrier immediately before
//!   terminating. Every `return` jumps to one new block `assume true; barrier; return;` (one
//!   block, so that all threads meet the same barrier).
//! - [`split_loop_head_edges`] (§4): a `goto` lists at most one loop header. The second and
//!   later headers are reached through new blocks `assume true; goto H;`.
//! - [`barrier_calls_to_statements`] (docs/kbpl.md §3.3): a call to a procedure declared `{:barrier}`
//!   (Bugle's `call $bugle_barrier(1bv1, 0bv1)`) is a `barrier` statement, fencing the memory
//!   spaces its literal arguments select.
//!
//! Each pass keeps the others' properties, so [`preprocess`] runs them in one order and is
//! idempotent. New blocks take the span of the construct that made them necessary.

use ivl::ast::*;
use ivl::blocks::{Block, BlockImpl, Terminator};
use ivl::cfg::Cfg;
use ivl::diag::Diagnostic;
use ivl::visit::Node;
use std::collections::HashSet;

/// Labels already used in a block body, to make fresh ones.
pub(crate) struct Labels(HashSet<Name>);

impl Labels {
    pub(crate) fn of(imp: &BlockImpl) -> Labels {
        Labels(imp.blocks.iter().map(|b| b.label.name.clone()).collect())
    }

    /// `base` if unused, else `base_1`, `base_2`, …; reserved from then on.
    pub(crate) fn fresh(&mut self, base: &str) -> Name {
        let name = if self.0.contains(base) { ivl::visit::fresh_name(base, &self.0) } else { Name::from(base) };
        self.0.insert(name.clone());
        name
    }
}

fn assume_true(span: Span) -> Stmt {
    Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: Expr::new(ExprKind::BoolLit(true), span) }, span)
}

fn goto(target: &Name, span: Span) -> Terminator {
    Terminator::Goto(vec![Ident::new(target.clone(), span)])
}

/// The guard of a block: the expression of its leading `assume` (`true` when it has none).
pub fn guard(block: &Block) -> Option<&Expr> {
    match block.stmts.first().map(|s| &s.kind) {
        Some(StmtKind::Assume { expr, .. }) => Some(expr),
        _ => None,
    }
}

/// §3.1: every block starts with its guard `assume` and has no other `assume`; the entry block
/// starts with `assume true` and has no predecessors.
pub fn insert_guards(imp: &BlockImpl) -> BlockImpl {
    let mut labels = Labels::of(imp);
    let mut blocks = Vec::with_capacity(imp.blocks.len());
    for b in &imp.blocks {
        let mut stmts = b.stmts.clone();
        if !matches!(stmts.first().map(|s| &s.kind), Some(StmtKind::Assume { .. })) {
            stmts.insert(0, assume_true(b.label.span));
        }
        // Split before every further `assume`.
        let mut label = b.label.clone();
        let mut start = 0;
        for i in 1..stmts.len() {
            if matches!(stmts[i].kind, StmtKind::Assume { .. }) {
                let next = Ident::new(labels.fresh(&format!("{}_assume", b.label.name)), stmts[i].span);
                let term = goto(&next.name, stmts[i].span);
                blocks.push(Block { label, stmts: stmts[start..i].to_vec(), term, span: stmts[i].span });
                label = next;
                start = i;
            }
        }
        blocks.push(Block { label, stmts: stmts[start..].to_vec(), term: b.term.clone(), span: b.span });
    }
    let entry_ok = blocks
        .first()
        .is_some_and(|e| guard(e).is_some_and(Expr::is_true) && !imp.successors().iter().any(|ss| ss.contains(&0)));
    if !entry_ok && !blocks.is_empty() {
        let old = blocks[0].label.clone();
        let start = Ident::new(labels.fresh("Start"), old.span);
        let span = blocks[0].label.span;
        blocks.insert(0, Block { label: start, stmts: vec![assume_true(span)], term: goto(&old.name, span), span });
    }
    BlockImpl { blocks, ..imp.clone() }
}

fn is_plain_barrier(s: &Stmt) -> bool {
    matches!(&s.kind, StmtKind::Barrier { attrs, invariants } if attrs.is_empty() && invariants.is_empty())
}

/// §4: all threads meet one barrier immediately before terminating. Already true when a single
/// block returns and its last statement is a plain `barrier`; otherwise every `return` jumps to
/// a new block `assume true; barrier; return;`.
pub fn terminate_with_barrier(imp: &BlockImpl) -> BlockImpl {
    let returning: Vec<usize> = (0..imp.blocks.len()).filter(|&i| imp.blocks[i].term == Terminator::Return).collect();
    if let [only] = returning[..] {
        if imp.blocks[only].stmts.last().is_some_and(is_plain_barrier) {
            return imp.clone();
        }
    }
    let mut out = imp.clone();
    if returning.is_empty() {
        return out;
    }
    let span = imp.blocks[returning[returning.len() - 1]].span;
    let end = Labels::of(imp).fresh("End");
    for &i in &returning {
        out.blocks[i].term = goto(&end, out.blocks[i].span);
    }
    let barrier = Stmt::new(StmtKind::Barrier { attrs: Vec::new(), invariants: Vec::new() }, span);
    out.blocks.push(Block {
        label: Ident::new(end, span),
        stmts: vec![assume_true(span), barrier],
        term: Terminator::Return,
        span,
    });
    out
}

/// §4: at most one loop header among the targets of a `goto`. The first header is kept; each
/// further one is reached through a new block. Duplicate targets are dropped. Irreducible
/// control flow is reported.
pub fn split_loop_head_edges(imp: &BlockImpl) -> Result<BlockImpl, Vec<Diagnostic>> {
    let cfg = Cfg::new(imp);
    cfg.check_reducible().map_err(|d| vec![d])?;
    let mut labels = Labels::of(imp);
    let mut out = imp.clone();
    let index = imp.label_index();
    for bi in 0..imp.blocks.len() {
        let Terminator::Goto(targets) = &imp.blocks[bi].term else {
            continue;
        };
        let mut seen = HashSet::new();
        let mut headers = 0;
        let mut new_targets = Vec::with_capacity(targets.len());
        for t in targets {
            if !seen.insert(t.name.clone()) {
                continue;
            }
            let is_header = index.get(&t.name).is_some_and(|&i| cfg.is_loop_header(i));
            if is_header {
                headers += 1;
            }
            if is_header && headers > 1 {
                let via = labels.fresh(&format!("{}_to_{}", imp.blocks[bi].label.name, t.name));
                let span = imp.blocks[bi].span;
                out.blocks.push(Block {
                    label: Ident::new(via.clone(), t.span),
                    stmts: vec![assume_true(t.span)],
                    term: goto(&t.name, t.span),
                    span,
                });
                new_targets.push(Ident::new(via, t.span));
            } else {
                new_targets.push(t.clone());
            }
        }
        out.blocks[bi].term = Terminator::Goto(new_targets);
    }
    Ok(out)
}

/// Whether a call statement calls a barrier procedure, and which memory it fences: the literal
/// arguments select local (first) and global (second) memory; anything else fences both.
fn barrier_call_attrs(args: &[Expr], span: Span) -> Vec<Attribute> {
    let literal = |e: Option<&Expr>| match e.map(|e| &e.kind) {
        Some(ExprKind::BvLit { value, .. }) | Some(ExprKind::IntLit(value)) => Some(*value != 0u32.into()),
        Some(ExprKind::BoolLit(b)) => Some(*b),
        _ => None,
    };
    match (literal(args.first()), literal(args.get(1))) {
        (Some(true), Some(false)) => vec![Attribute { name: Ident::new("local", span), args: vec![], span }],
        (Some(false), Some(true)) => vec![Attribute { name: Ident::new("global", span), args: vec![], span }],
        (Some(true), Some(true)) => Vec::new(),
        // No fence, or fences chosen at run time (possibly different per thread): fencing
        // nothing over-approximates them, as the accesses on both sides are still checked.
        _ => vec![Attribute { name: Ident::new("nofence", span), args: vec![], span }],
    }
}

/// docs/kbpl.md §3.3: calls to `{:barrier}` procedures become `barrier` statements (with `{:local}` or
/// `{:global}` when the call's literal fence arguments select one memory space, `{:nofence}` when
/// they select none or are not literals).
pub fn barrier_calls_to_statements(p: &Program) -> Program {
    let barrier_procs: std::collections::HashMap<Name, &ProcedureDecl> =
        p.procedures().filter(|pr| has_attr(&pr.attrs, "barrier")).map(|pr| (pr.name.name.clone(), pr)).collect();
    if barrier_procs.is_empty() {
        return p.clone();
    }
    struct Rewrite<'a>(&'a std::collections::HashMap<Name, &'a ProcedureDecl>);
    impl ivl::visit::VisitMut for Rewrite<'_> {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            if let StmtKind::Call { proc, args, outs, .. } = &s.kind {
                if self.0.contains_key(&proc.name) && outs.is_empty() {
                    let attrs = barrier_call_attrs(args, s.span);
                    s.kind = StmtKind::Barrier { attrs, invariants: Vec::new() };
                    return;
                }
            }
            ivl::visit::walk_stmt_mut(self, s)
        }
    }
    let mut out = p.clone();
    for d in &mut out.decls {
        match &mut d.kind {
            DeclKind::Implementation(i) => i.body.accept_mut(&mut Rewrite(&barrier_procs)),
            DeclKind::Procedure(pr) if !has_attr(&pr.attrs, "barrier") => {
                if let Some(b) = &mut pr.body {
                    b.accept_mut(&mut Rewrite(&barrier_procs))
                }
            }
            _ => {}
        }
    }
    out
}

/// All block-level restrictions of §3.1 and §4, in an order in which each pass keeps what the
/// previous ones established; unreachable blocks are dropped first.
pub fn preprocess(imp: &BlockImpl) -> Result<BlockImpl, Vec<Diagnostic>> {
    let mut imp = imp.clone();
    ivl::cfg::remove_unreachable(&mut imp);
    let imp = insert_guards(&imp);
    let imp = terminate_with_barrier(&imp);
    let imp = split_loop_head_edges(&imp)?;
    debug_assert!(check_preprocessed(&imp).is_ok(), "{:?}", check_preprocessed(&imp));
    Ok(imp)
}

/// [`preprocess`] as a program-to-program pass (after [`barrier_calls_to_statements`]): every
/// kernel (every body of a program without kernels) in preprocessed block form.
pub fn preprocess_program(p: &Program) -> Result<Program, Vec<Diagnostic>> {
    crate::bodies::map_bodies(&barrier_calls_to_statements(p), preprocess)
}

/// Checks the restrictions [`preprocess`] establishes (for debug assertions and tests).
pub fn check_preprocessed(imp: &BlockImpl) -> Result<(), String> {
    let cfg = Cfg::new(imp);
    for (i, b) in imp.blocks.iter().enumerate() {
        if guard(b).is_none() {
            return Err(format!("block {} has no guard", b.label.name));
        }
        if b.stmts[1..].iter().any(|s| matches!(s.kind, StmtKind::Assume { .. })) {
            return Err(format!("block {} has an assume after its guard", b.label.name));
        }
        if cfg.successors(i).iter().filter(|&&s| cfg.is_loop_header(s)).count() > 1 {
            return Err(format!("block {} jumps to two loop headers", b.label.name));
        }
    }
    if let Some(e) = imp.blocks.first() {
        if !guard(e).is_some_and(Expr::is_true) || (0..cfg.len()).any(|i| cfg.successors(i).contains(&0)) {
            return Err("the entry block must start with `assume true` and have no predecessors".into());
        }
    }
    let returning: Vec<&Block> = imp.blocks.iter().filter(|b| b.term == Terminator::Return).collect();
    if returning.len() > 1 || returning.iter().any(|b| !b.stmts.last().is_some_and(is_plain_barrier)) {
        return Err("termination must be preceded by one common barrier".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(src: &str) -> BlockImpl {
        let (p, d) = ivl::parser::parse_program(src);
        assert!(d.is_empty(), "{d:?}");
        let imp = ivl::lower::lower_body(p.implementations().next().unwrap()).unwrap();
        imp
    }

    fn shape(imp: &BlockImpl) -> Vec<String> {
        imp.blocks
            .iter()
            .map(|b| {
                let stmts: Vec<String> =
                    b.stmts.iter().map(|s| ivl::printer::print_stmt(s).trim().to_string()).collect();
                let term = match &b.term {
                    Terminator::Return => "return".to_string(),
                    Terminator::Goto(ts) => {
                        format!("goto {}", ts.iter().map(|t| t.as_str()).collect::<Vec<_>>().join(","))
                    }
                };
                let mut parts = vec![format!("{}:", b.label.name)];
                parts.extend(stmts);
                parts.push(term);
                parts.join(" ")
            })
            .collect()
    }

    #[test]
    fn guards_are_inserted_and_assumes_split() {
        let imp = body(
            "procedure P(); implementation P() { var x: int; L: x := 1; assume x > 0; x := 2; goto L2; L2: return; }",
        );
        let g = insert_guards(&imp);
        assert_eq!(
            shape(&g),
            [
                "L: assume true; x := 1; goto L_assume",
                "L_assume: assume x > 0; x := 2; goto L2",
                "L2: assume true; return",
            ]
        );
        assert_eq!(insert_guards(&g), g, "idempotent");
    }

    #[test]
    fn entry_that_is_a_loop_head_gets_a_new_start() {
        let imp = body("procedure P(); implementation P() { L: goto L, M; M: return; }");
        let g = insert_guards(&imp);
        assert_eq!(g.blocks[0].label.name, "Start");
        assert_eq!(shape(&g)[0], "Start: assume true; goto L");
    }

    #[test]
    fn one_barrier_before_termination() {
        let imp = body("procedure {:kernel} P(); implementation P() { var x: int; if (x > 0) { return; } x := 1; }");
        let t = terminate_with_barrier(&imp);
        let returning: Vec<&Block> = t.blocks.iter().filter(|b| b.term == Terminator::Return).collect();
        assert_eq!(returning.len(), 1);
        assert_eq!(shape(&t).last().unwrap(), "End: assume true; barrier; return");
        assert_eq!(terminate_with_barrier(&t), t, "idempotent");
    }

    #[test]
    fn second_loop_header_is_reached_through_a_new_block() {
        let imp =
            body("procedure P(); implementation P() { A: goto H1, H2; H1: goto H1, X; H2: goto H2, X; X: return; }");
        let s = split_loop_head_edges(&imp).unwrap();
        let sh = shape(&s);
        assert_eq!(sh[0], "A: goto H1,A_to_H2");
        assert!(sh.contains(&"A_to_H2: assume true; goto H2".to_string()));
        assert_eq!(check_preprocessed(&preprocess(&imp).unwrap()), Ok(()));
    }

    #[test]
    fn irreducible_input_is_reported() {
        let imp = body("procedure P(); implementation P() { var b: bool; A: goto B, C; B: goto C; C: goto B; }");
        let d = preprocess(&imp).unwrap_err();
        assert_eq!(d[0].kind, ivl::diag::ErrorKind::Unsupported);
    }

    #[test]
    fn barrier_procedure_calls_become_barriers() {
        let src = "procedure {:barrier} $bugle_barrier(a: bv1, b: bv1);\nprocedure {:kernel} K();\nimplementation K() { call $bugle_barrier(1bv1, 0bv1); call $bugle_barrier(1bv1, 1bv1); }";
        let (p, d) = ivl::parser::parse_program(src);
        assert!(d.is_empty(), "{d:?}");
        let out = barrier_calls_to_statements(&p);
        let text = ivl::printer::print_program(&out);
        let calls = text.matches("call ").count();
        assert!(text.contains("barrier {:local};") && text.contains("barrier;\n") && calls == 0, "{text}");
    }

    #[test]
    fn barrier_calls_without_literal_fences_fence_nothing() {
        let src = "procedure {:barrier} $bugle_barrier(a: bv1, b: bv1);\nprocedure {:kernel} K(f: bv1);\nimplementation K(f: bv1) { call $bugle_barrier(0bv1, 0bv1); call $bugle_barrier(f, 1bv1); }";
        let (p, d) = ivl::parser::parse_program(src);
        assert!(d.is_empty(), "{d:?}");
        let text = ivl::printer::print_program(&barrier_calls_to_statements(&p));
        assert_eq!(text.matches("barrier {:nofence};").count(), 2, "{text}");
        let (l, g) = crate::two_thread::barriers::fences(&[Attribute {
            name: Ident::new("nofence", Span::DUMMY),
            args: vec![],
            span: Span::DUMMY,
        }]);
        assert!(!l && !g);
    }
}
