//! Procedures: contracts over the formals, and bodies compiled block by block into a flat
//! instruction array (conditional control flow arrives as `goto A, B;` with `assume c; … /
//! assume !c; …` leading the targets, and such a pair becomes one conditional branch).

use super::expr::conjuncts;
use super::{Compiler, FrameScope};
use crate::interleaving::code::*;
use crate::interleaving::code::{Lhs, Spec};
use crate::interleaving::types::TyId;
use ivl::ast::*;
use ivl::blocks::{check_kind, related_span, BlockImpl, Terminator};
use ivl::cfg::Cfg;
use ivl::diag::{Diagnostic, ErrorKind};
use std::rc::Rc;

impl Compiler<'_> {
    // ----- statements ------------------------------------------------------------------------

    fn place(&mut self, id: &Ident) -> Place {
        let depth = self.frames.len() - 1;
        if let Some(s) = self.frames[depth].lookup(&id.name, false) {
            return Place::Local(s);
        }
        if let Some(&g) = self.global_index.get(&id.name) {
            self.touches_shared = true;
            return Place::Global(g);
        }
        self.diags.push(
            Diagnostic::type_error(format!("`{}` is not a variable that can be assigned", id.name), id.span)
                .with_label("not assignable"),
        );
        Place::Local(0)
    }

    fn lhs(&mut self, l: &Lhs0) -> Lhs {
        let place = self.place(l.var);
        let levels = l.indices.iter().map(|i| self.exprs(i)).collect();
        Lhs { place, levels, span: l.span }
    }

    pub(super) fn procedure(&mut self, p: &ProcedureDecl, imp: Option<&ImplementationDecl>) -> ProcInfo {
        let kernel = has_attr(&p.attrs, "kernel") || imp.is_some_and(|i| has_attr(&i.attrs, "kernel"));
        let barrier = has_attr(&p.attrs, "barrier");
        let mut slot_tys: Vec<TyId> = Vec::new();
        for v in p.ins.iter().chain(&p.outs) {
            let t = self.ty_of(&v.ty);
            slot_tys.push(t);
        }
        self.uses_old = false;
        // Contracts, over the declaration's formals.
        let mut scope = FrameScope::new(false);
        for v in p.ins.iter().chain(&p.outs) {
            scope.bind(v.name.name.clone());
        }
        self.frames = vec![scope];
        let mut requires = Vec::new();
        let mut ensures = Vec::new();
        for ct in &p.contracts {
            let e = self.spec(&ct.expr);
            let spec = Spec { e, free: ct.free, span: ct.expr.span };
            match ct.kind {
                SpecKind::Requires => requires.push(spec),
                SpecKind::Ensures => ensures.push(spec),
            }
        }
        let mut frame_size = self.frames[0].max;
        let modifies = p.modifies.iter().filter_map(|m| self.global_index.get(&m.name).copied()).collect();

        // The body: an implementation, or a body written in the procedure declaration.
        let lowered = match (imp, &p.body) {
            (Some(i), _) => Some(ivl::lower::lower_body(i)),
            (None, Some(_)) => Some(ivl::lower::lower_procedure_body(p)),
            (None, None) => None,
        };
        let body = match lowered {
            None => None,
            Some(Err(ds)) => {
                self.diags.extend(ds);
                None
            }
            Some(Ok(bi)) => {
                let mut scope = FrameScope::new(false);
                for v in bi.ins.iter().chain(&bi.outs) {
                    scope.bind(v.name.name.clone());
                }
                for v in &bi.locals {
                    scope.bind(v.name.name.clone());
                    let t = self.ty_of(&v.ty);
                    slot_tys.push(t);
                }
                self.frames = vec![scope];
                let code = self.code(&bi);
                frame_size = frame_size.max(self.frames[0].max);
                Some(code)
            }
        };
        self.frames.clear();
        ProcInfo {
            name: p.name.name.clone(),
            span: p.name.span,
            kernel,
            barrier,
            in_names: p.ins.iter().map(|v| v.name.name.clone()).collect(),
            out_names: p.outs.iter().map(|v| v.name.name.clone()).collect(),
            slot_tys,
            frame_size,
            requires,
            ensures,
            modifies,
            body,
            uses_old: self.uses_old,
        }
    }

    /// Compiles a block body: blocks laid out in order, each `[guards][statements][jump]`.
    fn code(&mut self, bi: &BlockImpl) -> Code {
        let cfg = Cfg::new(bi);
        let index = bi.label_index();
        let nblocks = bi.blocks.len();
        let loops = cfg.loops();
        let mut code = Code {
            n_loops: loops.len() as u32,
            block_names: bi.blocks.iter().map(|b| b.label.name.clone()).collect(),
            block_loops: (0..nblocks)
                .map(|b| (0..loops.len() as u32).filter(|&l| loops[l as usize].contains(b)).collect())
                .collect(),
            entry_loops: (0..loops.len() as u32).filter(|&l| loops[l as usize].header == 0).collect(),
            actions: vec![Box::new([])],
            ..Code::default()
        };
        // Leading assumes of each block: its guards.
        let guard_count: Vec<usize> = bi
            .blocks
            .iter()
            .map(|b| b.stmts.iter().take_while(|s| matches!(s.kind, StmtKind::Assume { .. })).count())
            .collect();
        let mut block_start = vec![0u32; nblocks];
        let mut guard_end = vec![0u32; nblocks];
        let mut fixups: Vec<(usize, usize)> = Vec::new();
        for (bidx, b) in bi.blocks.iter().enumerate() {
            block_start[bidx] = code.instrs.len() as u32;
            let header_loop = cfg.loop_with_header(bidx).map(|l| l as u32);
            let mut i = 0;
            let mut leading = true;
            while i < b.stmts.len() {
                if i == guard_count[bidx] {
                    guard_end[bidx] = code.instrs.len() as u32;
                }
                let s = &b.stmts[i];
                leading &= matches!(s.kind, StmtKind::Assert { .. } | StmtKind::Assume { .. });
                let inv_loop = if leading { header_loop } else { None };
                i += self.stmt(&b.stmts[i..], inv_loop, &mut code, bidx as u32);
            }
            if guard_count[bidx] == b.stmts.len() {
                guard_end[bidx] = code.instrs.len() as u32;
            }
            fixups.push((code.instrs.len(), bidx));
            self.emit(&mut code, Instr::Return, b.span, bidx as u32, false);
        }
        // Terminators.
        for (pc, bidx) in fixups {
            let b = &bi.blocks[bidx];
            let targets: Vec<usize> = match &b.term {
                Terminator::Return => {
                    code.instrs[pc] = Instr::Return;
                    code.visible[pc] = true;
                    continue;
                }
                Terminator::Goto(ts) => ts.iter().filter_map(|t| index.get(&t.name).copied()).collect(),
            };
            let edge = |code: &mut Code, to: usize, guarded: bool| {
                let acts = edge_actions(&cfg, &code.block_loops, bidx, to);
                let act = if acts.is_empty() {
                    0
                } else {
                    code.actions.push(acts.into_boxed_slice());
                    code.actions.len() as u32 - 1
                };
                Edge { target: if guarded { guard_end[to] } else { block_start[to] }, act }
            };
            let guards_of = |t: usize| &bi.blocks[t].stmts[..guard_count[t]];
            self.touches_shared = false;
            let instr = match targets.as_slice() {
                [t] if guard_count[*t] == 0 => Instr::Jump(edge(&mut code, *t, false)),
                [a, b2] if is_branch_pair(guards_of(*a), guards_of(*b2)) => {
                    let StmtKind::Assume { expr, .. } = &guards_of(*a)[0].kind else { unreachable!() };
                    let cond = self.expr(expr);
                    let ea = edge(&mut code, *a, true);
                    let eb = edge(&mut code, *b2, true);
                    Instr::Branch(cond, ea, eb)
                }
                _ => {
                    let mut es = Vec::new();
                    for &t in &targets {
                        let guards = guards_of(t)
                            .iter()
                            .map(|s| match &s.kind {
                                StmtKind::Assume { expr, .. } => self.expr(expr),
                                _ => unreachable!(),
                            })
                            .collect();
                        es.push(GuardedEdge { edge: edge(&mut code, t, true), guards });
                    }
                    Instr::Goto(es.into_boxed_slice())
                }
            };
            code.instrs[pc] = instr;
            code.visible[pc] = self.touches_shared;
        }
        code
    }

    fn emit(&mut self, code: &mut Code, instr: Instr, span: Span, block: u32, visible: bool) {
        code.instrs.push(instr);
        code.spans.push(span);
        code.visible.push(visible);
        code.block_of.push(block);
    }

    /// Compiles the statement at the head of `stmts`; returns how many statements it consumed
    /// (a `havoc` swallows the `assume`s after it).
    fn stmt(&mut self, stmts: &[Stmt], inv_loop: Option<u32>, code: &mut Code, block: u32) -> usize {
        let s = &stmts[0];
        self.touches_shared = false;
        let mut consumed = 1;
        let mut visible = false;
        let instr = match &s.kind {
            StmtKind::Assign { lhss, rhss } => self.assign_stmt(lhss, rhss),
            StmtKind::Havoc(ids) => {
                let (instr, n) = self.havoc_stmt(ids, &stmts[1..]);
                consumed += n;
                instr
            }
            StmtKind::Assert { attrs, expr } => self.assert_stmt(attrs, expr, inv_loop, code, s.span, block),
            StmtKind::Assume { expr, .. } => Instr::Assume(self.spec(expr)),
            StmtKind::Call { outs, proc, args, .. } => {
                visible = true;
                self.call_stmt(outs, proc, args)
            }
            // The machine schedules the groups' barriers separately; a barrier across groups
            // would need a grid-wide epoch it does not have.
            StmtKind::Barrier { attrs, .. } if has_attr(attrs, "grid") => Instr::Unsupported(Rc::new(
                Diagnostic::unsupported("a grid-wide barrier (`barrier {:grid}`) cannot be run by `kivl run`", s.span),
            )),
            StmtKind::Barrier { attrs, invariants } => {
                visible = true;
                let (l, g) = crate::two_thread::barriers::fences(attrs);
                let fence = |b: bool| if b { Fence::Yes } else { Fence::No };
                let invariants = invariants.iter().map(|i| (self.spec(&i.expr), i.span)).collect();
                Instr::Barrier(Box::new(BarrierSite { local: fence(l), global: fence(g), invariants }))
            }
            StmtKind::Atomic(a) => {
                visible = true;
                let args = self.exprs(&a.args);
                let t = &a.target;
                let target = self.lhs(&Lhs0 { var: &t.var, indices: &t.indices, span: t.span });
                let out = a.out.as_ref().map(|id| self.lhs(&Lhs0 { var: id, indices: &[], span: id.span }));
                Instr::Atomic(Box::new(AtomicSite { op: a.op, target, args, out }))
            }
            StmtKind::Vector(_) => Instr::Unsupported(Rc::new(Diagnostic::unsupported(
                "lock-step vector statements cannot be run by `kivl run` (run the kernel before the lock-step pass)",
                s.span,
            ))),
            _ => Instr::Unsupported(Rc::new(Diagnostic::unsupported(
                "a structured statement inside a basic block (internal: lowering left it)",
                s.span,
            ))),
        };
        let visible = visible || (self.touches_shared && !is_spec(&instr));
        let span = match &s.kind {
            StmtKind::Havoc(_) if consumed > 1 => s.span.to(stmts[consumed - 1].span),
            _ => s.span,
        };
        self.emit(code, instr, span, block, visible);
        consumed
    }

    /// `xs := es`: a local scalar gets the fast path.
    fn assign_stmt(&mut self, lhss: &[ivl::ast::Lhs], rhss: &[Expr]) -> Instr {
        let rhs = self.exprs(rhss);
        let lhs: Vec<Lhs> =
            lhss.iter().map(|l| self.lhs(&Lhs0 { var: &l.var, indices: &l.indices, span: l.span })).collect();
        match (lhs.as_slice(), rhs.len()) {
            ([Lhs { place: Place::Local(s), levels, .. }], 1) if levels.is_empty() => {
                Instr::SetLocal(*s, rhs.into_vec().pop().unwrap())
            }
            _ => Instr::Assign(lhs.into_boxed_slice(), rhs),
        }
    }

    /// `havoc xs;` with the `assume`s at the head of `rest`; returns how many it took.
    fn havoc_stmt(&mut self, ids: &[Ident], rest: &[Stmt]) -> (Instr, usize) {
        let lhs: Vec<Lhs> = ids.iter().map(|id| self.lhs(&Lhs0 { var: id, indices: &[], span: id.span })).collect();
        let mut cons = Vec::new();
        while let Some(StmtKind::Assume { expr, .. }) = rest.get(cons.len()).map(|s| &s.kind) {
            cons.push(self.expr(expr));
        }
        let n = cons.len();
        (Instr::Havoc(lhs.into_boxed_slice(), cons.into_boxed_slice()), n)
    }

    /// `assert e`: which check it is, and its `__uniform(e)` conjuncts as cross-thread checks of
    /// their own (emitted here, before the returned instruction).
    fn assert_stmt(
        &mut self,
        attrs: &[Attribute],
        expr: &Expr,
        inv_loop: Option<u32>,
        code: &mut Code,
        span: Span,
        block: u32,
    ) -> Instr {
        let named = check_kind(attrs);
        let kind = match (named, inv_loop) {
            ("invariant" | "assertion", Some(l)) => CheckKind::LoopInvariant(l),
            ("invariant", None) => CheckKind::Fixed(ErrorKind::InvariantMaintained),
            (k, _) => CheckKind::Fixed(vcgen::report::error_kind(k)),
        };
        let (uniform, rest): (Vec<&Expr>, Vec<&Expr>) = conjuncts(expr)
            .into_iter()
            .partition(|c| matches!(&c.kind, ExprKind::Call(f, a) if f.as_str() == "__uniform" && a.len() == 1));
        let mut instrs: Vec<Instr> = Vec::new();
        for u in uniform {
            let ExprKind::Call(_, a) = &u.kind else { unreachable!() };
            let e = self.expr(&a[0]);
            self.uniform_sites += 1;
            instrs.push(Instr::Uniform { e, kind, site: self.uniform_sites - 1 });
        }
        if !rest.is_empty() || instrs.is_empty() {
            let mut it = rest.into_iter().cloned();
            let first = it.next().unwrap_or_else(|| Expr::bool(true));
            let e = self.spec(&it.fold(first, Expr::and));
            instrs.push(Instr::Assert { e, kind, related: related_span(attrs) });
        }
        let last = instrs.pop().unwrap();
        for i in instrs {
            self.emit(code, i, span, block, false);
        }
        last
    }

    /// `call outs := proc(args)`: a barrier procedure becomes a barrier whose fences are its
    /// arguments.
    fn call_stmt(&mut self, outs: &[Ident], proc: &Ident, args: &[Expr]) -> Instr {
        let args = self.exprs(args);
        let Some(&pid) = self.proc_index.get(&proc.name) else {
            return Instr::Unsupported(Rc::new(
                Diagnostic::type_error(format!("undeclared procedure `{}`", proc.name), proc.span)
                    .with_label("not declared"),
            ));
        };
        let outs: Vec<Lhs> = outs.iter().map(|id| self.lhs(&Lhs0 { var: id, indices: &[], span: id.span })).collect();
        if self.proc_is_barrier(&proc.name) {
            let mut a = args.into_vec().into_iter();
            let local = a.next().map_or(Fence::Yes, Fence::Arg);
            let global = a.next().map_or(Fence::Yes, Fence::Arg);
            Instr::Barrier(Box::new(BarrierSite { local, global, invariants: Vec::new() }))
        } else {
            Instr::Call(Box::new(CallSite { proc: pid, args, outs: outs.into_boxed_slice() }))
        }
    }

    fn proc_is_barrier(&self, name: &str) -> bool {
        self.env.procedure(name).is_some_and(|p| p.barrier)
    }
}

/// An assignment target as written (borrowed from the AST).
struct Lhs0<'a> {
    var: &'a Ident,
    indices: &'a [Vec<Expr>],
    span: Span,
}

/// Checks other than plain assertions (invariants, contracts) are specifications: their reads
/// are not accesses of the program (and need no scheduling point).
fn is_spec(instr: &Instr) -> bool {
    match instr {
        Instr::Assert { kind, e, .. } => {
            *kind != CheckKind::Fixed(ErrorKind::Assertion) || matches!(e, Ex::SpecEnum(_))
        }
        Instr::Uniform { .. } => true,
        _ => false,
    }
}

/// `assume c` / `assume !c` leading two targets: an if-then-else.
fn is_branch_pair(a: &[Stmt], b: &[Stmt]) -> bool {
    match (a, b) {
        ([sa], [sb]) => match (&sa.kind, &sb.kind) {
            (StmtKind::Assume { expr: c, attrs: a1 }, StmtKind::Assume { expr: nc, attrs: a2 }) => {
                a1.is_empty() && a2.is_empty() && matches!(&nc.kind, ExprKind::Unary(UnOp::Not, inner) if **inner == *c)
            }
            _ => false,
        },
        _ => false,
    }
}

/// Loop-counter actions of edge `from -> to` (seed 000 §3: a loop's counter is incremented each
/// time its header is reached and reset on exit from the loop).
fn edge_actions(cfg: &Cfg, block_loops: &[Box<[u32]>], from: usize, to: usize) -> Vec<LoopAct> {
    let mut acts = Vec::new();
    for &l in block_loops[from].iter() {
        if !block_loops[to].contains(&l) {
            acts.push(LoopAct::Reset(l));
        }
    }
    if let Some(l) = cfg.loop_with_header(to) {
        acts.push(LoopAct::Inc(l as u32));
    }
    acts
}
