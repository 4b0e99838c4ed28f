//! Mutants of a correct kernel: small syntactic faults of the kinds GPU programmers make, for
//! the soundness guard `tests/mutation.rs` (issue 16). A mutant that `kivl verify` proves must
//! show no race, divergence or assertion failure when `kivl run` executes it; one that does is a
//! false negative of the verifier.
//!
//! Mutation works on the syntax tree, not on the text, so that every mutant parses: each
//! operator ([`Op`]) finds its sites in the procedure bodies (or contracts) and makes one mutant
//! per site; [`mutants`] prints them, drops duplicates and mutants equal to the original, and
//! type-checks each one ([`Mutant::invalid`]), because a mutant that does not type-check tells
//! nothing about the verifier.

use ivl::ast::*;
use ivl::check::{build_env, locals_of, type_of, GlobalEnv, GlobalKind, Ty};
use ivl::printer::{print_expr, print_program};
use ivl::visit::{free_vars, modified_vars, walk_expr_mut, walk_lhs_mut, VisitMut};
use num_bigint::BigUint;
use std::collections::{HashMap, HashSet};

/// The mutation operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Deletes one `barrier` statement or call of a `{:barrier}` procedure.
    DeleteBarrier,
    /// Adds 1 to one index of an access to a global (shared) map.
    ShiftIndexUp,
    /// Subtracts 1 from one index of an access to a global (shared) map.
    ShiftIndexDown,
    /// Replaces one occurrence of a local thread id (`local_id_x`, a `{:local_id_x}` constant, …)
    /// by the constant 0.
    LocalIdToZero,
    /// Replaces one occurrence of a local thread id by the constant 1.
    LocalIdToOne,
    /// Changes one comparison: `<` and `<=`, `>` and `>=`, `==` and `!=` trade places.
    FlipComparison,
    /// Replaces an `if` by the branch of it that accesses global (shared) memory.
    DropIf,
    /// Deletes one `requires` clause.
    DropRequires,
}

impl Op {
    pub const ALL: [Op; 8] = [
        Op::DeleteBarrier,
        Op::ShiftIndexUp,
        Op::ShiftIndexDown,
        Op::LocalIdToZero,
        Op::LocalIdToOne,
        Op::FlipComparison,
        Op::DropIf,
        Op::DropRequires,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Op::DeleteBarrier => "delete-barrier",
            Op::ShiftIndexUp => "index+1",
            Op::ShiftIndexDown => "index-1",
            Op::LocalIdToZero => "local-id:=0",
            Op::LocalIdToOne => "local-id:=1",
            Op::FlipComparison => "flip-comparison",
            Op::DropIf => "drop-if",
            Op::DropRequires => "drop-requires",
        }
    }

    /// The mutated programs, one per site, with the site's span in the original and a
    /// description of the change.
    pub fn apply(self, p: &Program) -> Vec<Site> {
        let info = Info::new(p);
        match self {
            Op::DeleteBarrier => delete_barrier(p, &info),
            Op::ShiftIndexUp => shift_index(p, &info, true),
            Op::ShiftIndexDown => shift_index(p, &info, false),
            Op::LocalIdToZero => local_id_to(p, &info, 0),
            Op::LocalIdToOne => local_id_to(p, &info, 1),
            Op::FlipComparison => flip_comparison(p, &info),
            Op::DropIf => drop_if(p, &info),
            Op::DropRequires => drop_requires(p),
        }
    }
}

/// One mutated program.
#[derive(Clone, Debug)]
pub struct Site {
    pub span: Span,
    pub what: String,
    pub program: Program,
}

/// A mutant of a source file, printed.
#[derive(Clone, Debug)]
pub struct Mutant {
    pub op: Op,
    /// 1-based line of the mutated construct in the original file.
    pub line: usize,
    pub what: String,
    pub text: String,
    /// The first parse or type error of the printed mutant; `None` if it type-checks.
    pub invalid: Option<String>,
}

impl Mutant {
    /// `op at line N: what`.
    pub fn describe(&self) -> String {
        format!("{} at line {}: {}", self.op.name(), self.line, self.what)
    }
}

/// All mutants of a source file, operator by operator, site by site; duplicates and mutants
/// that print like the original are left out. `Err` if the file does not parse.
pub fn mutants(source: &str) -> Result<Vec<Mutant>, String> {
    let (program, diags) = ivl::parser::parse_program(source);
    if let Some(d) = diags.first() {
        return Err(d.message.clone());
    }
    let mut seen: HashSet<String> = HashSet::from([print_program(&program)]);
    let mut out = Vec::new();
    for op in Op::ALL {
        for site in op.apply(&program) {
            let text = print_program(&site.program);
            if !seen.insert(text.clone()) {
                continue;
            }
            let line = source[..(site.span.start as usize).min(source.len())].matches('\n').count() + 1;
            let invalid = type_error(&text);
            out.push(Mutant { op, line, what: site.what, text, invalid });
        }
    }
    Ok(out)
}

/// The first parse or type error of a program text.
pub fn type_error(text: &str) -> Option<String> {
    let (p, diags) = ivl::parser::parse_program(text);
    let diags = if diags.is_empty() { ivl::check::check_program(&p) } else { diags };
    diags.first().map(|d| d.message.clone())
}

/// What the operators need to know about the program.
struct Info {
    env: GlobalEnv,
    /// The name of a declared `{:bvbuiltin "bvadd"}` function per width.
    bvadd: HashMap<u32, Name>,
}

impl Info {
    fn new(p: &Program) -> Info {
        let (env, _) = build_env(&p.decls);
        let mut bvadd = HashMap::new();
        for d in &p.decls {
            let DeclKind::Function(f) = &d.kind else { continue };
            let builtin = find_attr(&f.attrs, "bvbuiltin")
                .and_then(|a| a.args.first())
                .is_some_and(|a| matches!(a, AttrArg::String(s, _) if s == "bvadd"));
            if let (true, TypeKind::Bv(w)) = (builtin, &f.result.ty.kind) {
                bvadd.entry(*w).or_insert_with(|| f.name.name.clone());
            }
        }
        Info { env, bvadd }
    }

    fn is_global_var(&self, scope: &Scope, name: &str) -> bool {
        !scope.contains_key(name) && self.env.global_var(name).is_some()
    }

    /// The type of a local thread id constant (`local_id_x` … or one declared with that
    /// attribute), if `name` is one.
    fn local_id_type(&self, scope: &Scope, name: &str) -> Option<Ty> {
        if scope.contains_key(name) {
            return None;
        }
        let g = self.env.global(name)?;
        match g.kind {
            GlobalKind::Const { identity: Some(id), .. } if id.starts_with("local_id_") => Some(g.ty.clone()),
            _ => None,
        }
    }
}

/// The parameters and locals of the body being mutated, with their types.
type Scope = HashMap<Name, Ty>;

/// Counts sites in walk order and applies the change at the `target`-th one.
struct Cursor {
    target: usize,
    seen: usize,
    applied: Option<(Span, String)>,
    /// A `bvadd` helper of this width must be declared (shift of a bit-vector index).
    needs_bvadd: Option<u32>,
}

impl Cursor {
    /// Whether the next site is the one to change.
    fn hit(&mut self) -> bool {
        self.seen += 1;
        self.seen - 1 == self.target
    }
    fn record(&mut self, span: Span, what: String) {
        self.applied = Some((span, what));
    }
}

/// One mutant per site: `edit` walks one procedure body, asks the cursor at every site and
/// changes the program at the cursor's target.
fn each_site(p: &Program, info: &Info, edit: impl Fn(&Info, &Scope, &mut Body, &mut Cursor)) -> Vec<Site> {
    let mut out = Vec::new();
    for target in 0.. {
        let mut q = p.clone();
        let mut c = Cursor { target, seen: 0, applied: None, needs_bvadd: None };
        for d in &mut q.decls {
            let (ins, outs, body) = match &mut d.kind {
                DeclKind::Procedure(pr) => match &mut pr.body {
                    Some(b) => (&pr.ins, &pr.outs, b),
                    None => continue,
                },
                DeclKind::Implementation(im) => (&im.ins, &im.outs, &mut im.body),
                _ => continue,
            };
            if c.applied.is_some() {
                break;
            }
            let scope = locals_of(&info.env, ins, outs, Some(body));
            edit(info, &scope, body, &mut c);
        }
        let Some((span, what)) = c.applied else { break };
        if let Some(w) = c.needs_bvadd {
            let text = format!("function {{:bvbuiltin \"bvadd\"}} {}(bv{w}, bv{w}): bv{w};", bvadd_helper(w));
            q.decls.push(ivl::parser::parse_program(&text).0.decls.remove(0));
        }
        out.push(Site { span, what, program: q });
    }
    out
}

fn bvadd_helper(w: u32) -> String {
    format!("MUTANT_BV{w}_ADD")
}

/// Applies `f` to every statement list of a body (outermost first, then the nested ones).
fn each_list(stmts: &mut Vec<Stmt>, f: &mut dyn FnMut(&mut Vec<Stmt>)) {
    f(stmts);
    for s in stmts.iter_mut() {
        match &mut s.kind {
            StmtKind::If { then, els, .. } => {
                each_list(then, f);
                match els {
                    Some(Else::Block(b)) => each_list(b, f),
                    Some(Else::If(s)) => {
                        let mut one = vec![std::mem::replace(&mut **s, Stmt::new(StmtKind::Return, Span::DUMMY))];
                        each_list(&mut one, f);
                        // A list of one `if` stays an `else if`; anything else becomes a block.
                        *els = Some(match (one.len(), one.first().map(|s| matches!(s.kind, StmtKind::If { .. }))) {
                            (1, Some(true)) => Else::If(Box::new(one.remove(0))),
                            _ => Else::Block(one),
                        });
                    }
                    None => {}
                }
            }
            StmtKind::While { body, .. } | StmtKind::Block(body) => each_list(body, f),
            _ => {}
        }
    }
}

fn line_of(s: &Stmt) -> String {
    ivl::printer::print_stmt(s).lines().next().unwrap_or("").trim().to_string()
}

fn delete_barrier(p: &Program, info: &Info) -> Vec<Site> {
    each_site(p, info, |info, _, body, c| {
        each_list(&mut body.stmts, &mut |list| {
            let mut i = 0;
            while i < list.len() {
                let is_barrier = match &list[i].kind {
                    StmtKind::Barrier { .. } => true,
                    StmtKind::Call { proc, .. } => info.env.procedure(&proc.name).is_some_and(|pr| pr.barrier),
                    _ => false,
                };
                if is_barrier && c.hit() {
                    let s = list.remove(i);
                    c.record(s.span, format!("deleted `{}`", line_of(&s)));
                    continue;
                }
                i += 1;
            }
        })
    })
}

/// Whether statements read or write a global variable.
fn touches_global(info: &Info, scope: &Scope, stmts: &[Stmt]) -> bool {
    let stmts = stmts.to_vec();
    free_vars(&stmts).iter().chain(&modified_vars(&stmts)).any(|n| info.is_global_var(scope, n))
}

fn drop_if(p: &Program, info: &Info) -> Vec<Site> {
    each_site(p, info, |info, scope, body, c| {
        each_list(&mut body.stmts, &mut |list| {
            let mut i = 0;
            while i < list.len() {
                let StmtKind::If { cond: Some(cond), then, els } = &list[i].kind else {
                    i += 1;
                    continue;
                };
                let cond = print_expr(cond);
                let span = list[i].span;
                if touches_global(info, scope, then) && c.hit() {
                    let StmtKind::If { then, .. } = list.remove(i).kind else { unreachable!() };
                    c.record(span, format!("`if ({cond})` replaced by its then branch"));
                    list.splice(i..i, then);
                    continue;
                }
                let els_stmts = match els {
                    Some(Else::Block(b)) => b.clone(),
                    Some(Else::If(s)) => vec![(**s).clone()],
                    None => Vec::new(),
                };
                if touches_global(info, scope, &els_stmts) && c.hit() {
                    list.remove(i);
                    c.record(span, format!("`if ({cond})` replaced by its else branch"));
                    list.splice(i..i, els_stmts);
                    continue;
                }
                i += 1;
            }
        })
    })
}

fn drop_requires(p: &Program) -> Vec<Site> {
    let mut out = Vec::new();
    for (d, decl) in p.decls.iter().enumerate() {
        let DeclKind::Procedure(pr) = &decl.kind else { continue };
        for (k, c) in pr.contracts.iter().enumerate() {
            if c.kind != SpecKind::Requires {
                continue;
            }
            let mut q = p.clone();
            let DeclKind::Procedure(qp) = &mut q.decls[d].kind else { unreachable!() };
            qp.contracts.remove(k);
            let what = format!("deleted `requires {};` of `{}`", print_expr(&c.expr), pr.name.name);
            out.push(Site { span: c.span, what, program: q });
        }
    }
    out
}

/// Expression operators: `at` is asked at every expression (pre-order) and at every assignment
/// target, and returns the replacement when the site is the cursor's target.
struct ExprEdit<'a, F> {
    info: &'a Info,
    scope: &'a Scope,
    c: &'a mut Cursor,
    at: F,
}

impl<F: FnMut(&Info, &Scope, &mut Cursor, &mut Expr) -> bool> VisitMut for ExprEdit<'_, F> {
    fn visit_expr(&mut self, e: &mut Expr) {
        if self.c.applied.is_none() && (self.at)(self.info, self.scope, self.c, e) {
            return;
        }
        walk_expr_mut(self, e)
    }
    fn visit_lhs(&mut self, l: &mut Lhs) {
        if self.c.applied.is_none() && self.info.is_global_var(self.scope, &l.var.name) {
            // A written index is shifted like a read one: wrap the target in a select and back.
            for level in l.indices.iter_mut() {
                for idx in level.iter_mut() {
                    if self.c.applied.is_none() {
                        let mut probe = Expr::new(
                            ExprKind::Select(Box::new(Expr::var(l.var.name.clone(), l.var.span)), vec![idx.clone()]),
                            l.span,
                        );
                        if (self.at)(self.info, self.scope, self.c, &mut probe) {
                            if let ExprKind::Select(_, mut ix) = probe.kind {
                                *idx = ix.remove(0);
                            }
                        }
                    }
                }
            }
        }
        walk_lhs_mut(self, l)
    }
}

fn expr_sites(
    p: &Program,
    info: &Info,
    at: impl Fn(&Info, &Scope, &mut Cursor, &mut Expr) -> bool + Copy,
) -> Vec<Site> {
    each_site(p, info, |info, scope, body, c| {
        let mut v = ExprEdit { info, scope, c, at };
        for s in &mut body.stmts {
            v.visit_stmt(s);
        }
    })
}

/// The global variable a (nested) select reads from.
fn select_root(e: &Expr) -> Option<&Ident> {
    match &e.kind {
        ExprKind::Var(x) => Some(x),
        ExprKind::Select(b, _) => select_root(b),
        _ => None,
    }
}

fn shift_index(p: &Program, info: &Info, up: bool) -> Vec<Site> {
    expr_sites(p, info, move |info, scope, c, e| {
        let ExprKind::Select(base, idxs) = &mut e.kind else { return false };
        if !select_root(base).is_some_and(|x| info.is_global_var(scope, &x.name)) {
            return false;
        }
        let map = print_expr(base);
        for idx in idxs.iter_mut() {
            let lookup = |n: &str| scope.get(n).cloned();
            let shifted = match type_of(&info.env, &lookup, idx) {
                Some(Ty::Int) if c.hit() => {
                    let one = Expr::new(ExprKind::IntLit(BigUint::from(1u32)), idx.span);
                    Expr::binary(if up { BinOp::Add } else { BinOp::Sub }, idx.clone(), one)
                }
                Some(Ty::Bv(w)) if c.hit() => {
                    let value = if up { BigUint::from(1u32) } else { (BigUint::from(1u32) << w) - 1u32 };
                    let name = match info.bvadd.get(&w) {
                        Some(n) => n.clone(),
                        None => {
                            c.needs_bvadd = Some(w);
                            bvadd_helper(w).into()
                        }
                    };
                    let lit = Expr::new(ExprKind::BvLit { value, width: w }, idx.span);
                    Expr::new(ExprKind::Call(Ident::new(name, idx.span), vec![idx.clone(), lit]), idx.span)
                }
                _ => continue,
            };
            c.record(idx.span, format!("`{map}[{}]` became `{map}[{}]`", print_expr(idx), print_expr(&shifted)));
            *idx = shifted;
            return true;
        }
        false
    })
}

fn local_id_to(p: &Program, info: &Info, value: u32) -> Vec<Site> {
    expr_sites(p, info, move |info, scope, c, e| {
        let ExprKind::Var(x) = &e.kind else { return false };
        let lit = match info.local_id_type(scope, &x.name) {
            Some(Ty::Int) => ExprKind::IntLit(BigUint::from(value)),
            Some(Ty::Bv(w)) => ExprKind::BvLit { value: BigUint::from(value), width: w },
            _ => return false,
        };
        if !c.hit() {
            return false;
        }
        let lit = Expr::new(lit, e.span);
        c.record(e.span, format!("`{}` became `{}`", x.name, print_expr(&lit)));
        *e = lit;
        true
    })
}

fn flip_comparison(p: &Program, info: &Info) -> Vec<Site> {
    expr_sites(p, info, |_, _, c, e| {
        let ExprKind::Binary(op, _, _) = &mut e.kind else { return false };
        let flipped = match op {
            BinOp::Lt => BinOp::Le,
            BinOp::Le => BinOp::Lt,
            BinOp::Gt => BinOp::Ge,
            BinOp::Ge => BinOp::Gt,
            BinOp::Eq => BinOp::Neq,
            BinOp::Neq => BinOp::Eq,
            _ => return false,
        };
        if !c.hit() {
            return false;
        }
        let before = print_expr(e);
        if let ExprKind::Binary(op, _, _) = &mut e.kind {
            *op = flipped;
        }
        c.record(e.span, format!("`{before}` became `{}`", print_expr(e)));
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNEL: &str = "var {:group_shared} A: [int]int;\n\
        procedure {:kernel} k(n: int)\n  requires n > 0;\n{\n  var t: int;\n\
        \x20 if (local_id_x < n) {\n    A[local_id_x] := 1;\n  }\n  barrier;\n  t := A[local_id_x];\n}\n";

    fn of(op: Op, text: &str) -> Vec<Mutant> {
        mutants(text).unwrap().into_iter().filter(|m| m.op == op).collect()
    }

    /// The body of the one kernel procedure of a mutant, on one line.
    fn body(m: &Mutant) -> String {
        let start = m.text.find("\n{").unwrap();
        m.text[start..].split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn every_mutant_of_the_sample_type_checks_and_differs() {
        let all = mutants(KERNEL).unwrap();
        assert!(all.iter().all(|m| m.invalid.is_none()), "{all:#?}");
        let texts: HashSet<&str> = all.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(texts.len(), all.len());
        let ops: HashSet<Op> = all.iter().map(|m| m.op).collect();
        assert_eq!(ops.len(), Op::ALL.len(), "every operator applies: {ops:?}");
    }

    #[test]
    fn delete_barrier_removes_barrier_statements_and_barrier_calls() {
        let ms = of(Op::DeleteBarrier, KERNEL);
        assert_eq!(ms.len(), 1);
        assert!(!ms[0].text.contains("barrier;"), "{}", ms[0].text);
        assert_eq!(ms[0].line, 9);
        let bugle = "procedure {:barrier} bar(l: bv1, g: bv1);\nprocedure {:kernel} k()\n{\n  \
                     call bar(1bv1, 0bv1);\n  barrier;\n}\n";
        let ms = of(Op::DeleteBarrier, bugle);
        assert_eq!(ms.len(), 2);
        assert!(!ms[0].text.contains("call bar") && ms[0].text.contains("barrier;"), "{}", ms[0].text);
        assert!(ms[1].text.contains("call bar") && !ms[1].text.contains("barrier;"), "{}", ms[1].text);
    }

    #[test]
    fn shift_index_moves_reads_and_writes_of_global_maps_only() {
        let up = of(Op::ShiftIndexUp, KERNEL);
        assert_eq!(up.len(), 2, "{up:#?}");
        assert!(body(&up[0]).contains("A[local_id_x + 1] := 1;"), "{}", up[0].text);
        assert!(body(&up[1]).contains("t := A[local_id_x + 1];"), "{}", up[1].text);
        let down = of(Op::ShiftIndexDown, KERNEL);
        assert!(body(&down[0]).contains("A[local_id_x - 1] := 1;"), "{}", down[0].text);
        // A bit-vector index uses the kernel's own `bvadd`, or a declared helper.
        let bv = "const {:local_id_x} tid: bv32;\nvar {:group_shared} B: [bv32]bv32;\n\
                  procedure {:kernel} k()\n{\n  B[tid] := 0bv32;\n}\n";
        let ms = of(Op::ShiftIndexDown, bv);
        assert_eq!(ms.len(), 1);
        assert!(ms[0].text.contains("B[MUTANT_BV32_ADD(tid, 4294967295bv32)]"), "{}", ms[0].text);
        assert!(ms[0].text.contains("function {:bvbuiltin \"bvadd\"} MUTANT_BV32_ADD"), "{}", ms[0].text);
        assert_eq!(ms[0].invalid, None);
        let own = format!("function {{:bvbuiltin \"bvadd\"}} ADD(bv32, bv32): bv32;\n{bv}");
        let ms = of(Op::ShiftIndexUp, &own);
        assert!(ms[0].text.contains("B[ADD(tid, 1bv32)]") && !ms[0].text.contains("MUTANT"), "{}", ms[0].text);
        // A local map is not shared memory.
        let local = "procedure {:kernel} k()\n{\n  var m: [int]int;\n  m[local_id_x] := 0;\n}\n";
        assert!(of(Op::ShiftIndexUp, local).is_empty());
    }

    #[test]
    fn local_ids_become_constants_of_their_type() {
        let zero = of(Op::LocalIdToZero, KERNEL);
        assert_eq!(zero.len(), 3);
        assert!(body(&zero[0]).contains("if (0 < n)"), "{}", zero[0].text);
        assert!(body(&zero[2]).contains("t := A[0];"), "{}", zero[2].text);
        let one = of(Op::LocalIdToOne, KERNEL);
        assert!(body(&one[1]).contains("A[1] := 1;"), "{}", one[1].text);
        let bv = "const {:local_id_x} tid: bv32;\nvar {:group_shared} B: [bv32]bv32;\n\
                  procedure {:kernel} k()\n{\n  B[tid] := tid;\n}\n";
        let ms = of(Op::LocalIdToZero, bv);
        assert_eq!(ms.len(), 2);
        assert!(ms[0].text.contains("B[0bv32] := tid;"), "{}", ms[0].text);
        assert!(ms.iter().all(|m| m.invalid.is_none()));
        // A local variable that shadows the name is not a thread id.
        let shadow = "procedure {:kernel} k()\n{\n  var local_id_x: int;\n  local_id_x := 2;\n  \
                      assert local_id_x == 2;\n}\n";
        assert!(of(Op::LocalIdToZero, shadow).is_empty());
    }

    #[test]
    fn flip_comparison_changes_one_relation_at_a_time() {
        let ms = of(Op::FlipComparison, KERNEL);
        assert_eq!(ms.len(), 1, "the requires is not mutated, only the body: {ms:#?}");
        assert!(body(&ms[0]).contains("if (local_id_x <= n)"), "{}", ms[0].text);
        let two = "procedure {:kernel} k()\n{\n  assert local_id_x >= 0 && local_id_x != 7;\n}\n";
        let ms = of(Op::FlipComparison, two);
        assert_eq!(ms.len(), 2);
        assert!(ms[0].text.contains("local_id_x > 0 && local_id_x != 7"), "{}", ms[0].text);
        assert!(ms[1].text.contains("local_id_x >= 0 && local_id_x == 7"), "{}", ms[1].text);
    }

    #[test]
    fn drop_if_keeps_the_branch_with_the_shared_access() {
        let ms = of(Op::DropIf, KERNEL);
        assert_eq!(ms.len(), 1);
        assert!(body(&ms[0]).starts_with("{ var t: int; A[local_id_x] := 1; barrier;"), "{}", ms[0].text);
        let els = "var {:group_shared} A: [int]int;\nprocedure {:kernel} k()\n{\n  var x: int;\n  \
                   if (local_id_x == 0) {\n    x := 1;\n  } else if (local_id_x == 1) {\n    x := 2;\n  } \
                   else {\n    A[0] := 3;\n  }\n}\n";
        let ms = of(Op::DropIf, els);
        // The outer `if` by its `else if`, the inner one by its else branch.
        assert_eq!(ms.len(), 2, "{ms:#?}");
        assert!(body(&ms[0]).starts_with("{ var x: int; if (local_id_x == 1) { x := 2; } else {"), "{}", ms[0].text);
        assert!(body(&ms[1]).contains("} else { A[0] := 3; } }"), "{}", ms[1].text);
        assert!(!body(&ms[1]).contains("== 1"), "{}", ms[1].text);
        assert!(ms.iter().all(|m| m.invalid.is_none()), "{ms:#?}");
    }

    #[test]
    fn drop_requires_deletes_each_precondition() {
        let ms = of(Op::DropRequires, KERNEL);
        assert_eq!(ms.len(), 1);
        assert!(!ms[0].text.contains("requires"), "{}", ms[0].text);
        assert_eq!(ms[0].describe(), "drop-requires at line 3: deleted `requires n > 0;` of `k`");
    }

    #[test]
    fn type_and_parse_errors_are_reported() {
        assert!(type_error("procedure {:kernel} k()\n{\n  assert 1;\n}\n").is_some());
        assert!(type_error("procedure {:kernel} k()\n{\n  assert local_id_x >= 0;\n}\n").is_none());
        assert!(mutants("procedure").is_err());
    }
}
