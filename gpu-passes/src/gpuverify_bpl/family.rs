//! The formulas of the strided-access candidates (see the parent module): thread ids per
//! dimension in GPUVerify's names, the (modulus, id) pairs, loop strides, and the bit-vector
//! functions the formulas use (GPUVerify's `BV32_*` with `{:bvbuiltin}`).

use ivl::ast::*;
use ivl::blocks::Block;
use ivl::printer::print_expr;
use num_bigint::BigUint;
use std::collections::HashSet;

/// The functions the candidates apply, with the SMT-LIB operation each must be.
const FUNCTIONS: [(&str, &str); 4] =
    [("BV32_ADD", "bvadd"), ("BV32_MUL", "bvmul"), ("BV32_UREM", "bvurem"), ("BV32_UDIV", "bvudiv")];

/// The declarations of the [`FUNCTIONS`] that `p` lacks; `None` when `p` declares one of
/// them as something else (then no candidate is made).
pub(super) fn functions(p: &Program) -> Option<Vec<Decl>> {
    let mut missing = Vec::new();
    for (name, op) in FUNCTIONS {
        let declared = p.decls.iter().find_map(|d| match &d.kind {
            DeclKind::Function(f) if f.name.as_str() == name => Some(f),
            _ => None,
        });
        match declared {
            Some(f) if builtin(f) == Some(op) => {}
            Some(_) => return None,
            None => missing.push(format!("function {{:bvbuiltin \"{op}\"}} {name}(bv32, bv32) : bv32;")),
        }
    }
    let (mut declared, diags) = ivl::parser::parse_program(&missing.join("\n"));
    debug_assert!(diags.is_empty(), "the function declarations parse");
    ivl::visit::strip_spans(&mut declared.decls);
    Some(declared.decls)
}

fn builtin(f: &FunctionDecl) -> Option<&str> {
    match find_attr(&f.attrs, "bvbuiltin")?.args.first()? {
        AttrArg::String(s, _) => Some(s.as_str()),
        AttrArg::Expr(_) => None,
    }
}

/// The dimensions (`x`, `y`, `z`) whose thread ids the program declares and whose grid is not
/// fixed to one thread by its axioms.
pub(super) struct Dims(Vec<char>);

/// A candidate's right-hand side: the id `E` that the residue modulo `M` equals.
pub(super) struct Pair {
    pub modulus: Expr,
    pub id: Expr,
}

impl Dims {
    pub(super) fn of(p: &Program, consts: &HashSet<Name>) -> Dims {
        let axioms: Vec<String> = p
            .decls
            .iter()
            .filter_map(|d| match &d.kind {
                DeclKind::Axiom(a) => Some(print_expr(&a.expr)),
                _ => None,
            })
            .collect();
        let pinned = |c: &str| axioms.iter().any(|a| a.contains(&format!("{c} == 1bv32")));
        let dims = ['x', 'y', 'z']
            .into_iter()
            .filter(|d| {
                let names = [format!("local_id_{d}$1"), format!("local_id_{d}$2"), format!("group_id_{d}$1")];
                let sizes = [format!("group_size_{d}"), format!("num_groups_{d}")];
                names.iter().chain(&sizes).all(|n| consts.contains(n.as_str())) && !sizes.iter().all(|s| pinned(s))
            })
            .collect();
        Dims(dims)
    }

    /// The pairs for thread `thread` (1 or 2): per dimension, (group size, local id), (global
    /// size, global id), and (m, local id), (m, global id) for each of the loop's `moduli`;
    /// without duplicates.
    pub(super) fn pairs(&self, thread: u8, moduli: &[Expr], span: Span) -> Vec<Pair> {
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for &d in &self.0 {
            let v = |n: String| Expr::var(n, span);
            let local = v(format!("local_id_{d}${thread}"));
            let group_size = v(format!("group_size_{d}"));
            let global = call(
                "BV32_ADD",
                vec![
                    call("BV32_MUL", vec![v(format!("group_id_{d}${thread}")), group_size.clone()], span),
                    local.clone(),
                ],
                span,
            );
            let global_size = call("BV32_MUL", vec![group_size.clone(), v(format!("num_groups_{d}"))], span);
            let mut candidates = vec![(group_size, local.clone()), (global_size, global.clone())];
            for m in moduli {
                candidates.push((m.clone(), local.clone()));
                candidates.push((m.clone(), global.clone()));
            }
            for (modulus, id) in candidates {
                if seen.insert((print_expr(&modulus), print_expr(&id))) {
                    out.push(Pair { modulus, id });
                }
            }
        }
        out
    }
}

/// `flag ==> BV32_UREM(BV32_UDIV(_WATCHED_OFFSET, w), M) == E` (no division when `w` is 1).
pub(super) fn access_candidate(flag: &Name, w: u64, pair: &Pair, span: Span) -> Expr {
    let offset = scaled_offset(w, span);
    Expr::implies(Expr::var(flag.clone(), span), residue_is(offset, pair.modulus.clone(), pair.id.clone(), span))
}

/// `BV32_UREM(x, m) == e`
pub(super) fn residue_is(x: Expr, m: Expr, e: Expr, span: Span) -> Expr {
    let mut eq = Expr::eq(call("BV32_UREM", vec![x, m], span), e);
    eq.span = span;
    eq
}

/// The thread a variable of GPUVerify's two-thread program belongs to (`v$1`, `v$2`).
pub(super) fn thread_of(name: &str) -> Option<u8> {
    if name.ends_with("$1") {
        Some(1)
    } else if name.ends_with("$2") {
        Some(2)
    } else {
        None
    }
}

/// The variables the loop increments by a stride: `v := BV32_ADD(v, s)` (or `BV32_ADD(s, v)`,
/// or either under GPUVerify's predication `if p then … else v`) with `s` loop-invariant and
/// uniform ([`uniform_factor`]). Each (variable, stride) once.
pub(super) fn strided_vars(body: &[&Block], modified: &HashSet<Name>) -> Vec<(Name, Expr)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for s in body.iter().flat_map(|b| &b.stmts) {
        let StmtKind::Assign { lhss, rhss } = &s.kind else { continue };
        for (lhs, rhs) in lhss.iter().zip(rhss) {
            let Some(stride) = stride_of(&lhs.var.name, rhs).filter(|_| lhs.indices.is_empty()) else { continue };
            if uniform_factor(stride, modified) && seen.insert((lhs.var.name.clone(), print_expr(stride))) {
                out.push((lhs.var.name.clone(), stride.clone()));
            }
        }
    }
    out
}

/// Whether `e` can be a modulus: not modified in the loop, the same for both threads (no
/// `$1`/`$2` name) and not the literal 0 or 1.
fn uniform_factor(e: &Expr, modified: &HashSet<Name>) -> bool {
    let free = ivl::visit::free_vars(e);
    free.iter().all(|n| !modified.contains(n) && thread_of(n).is_none()) && !is_small_literal(e)
}

/// `s` when `rhs` is `BV32_ADD(var, s)` or `BV32_ADD(s, var)`, possibly as the branch of a
/// predicated `if p then rhs else var` (GPUVerify's predicated loops).
fn stride_of<'a>(var: &Name, rhs: &'a Expr) -> Option<&'a Expr> {
    let is_var = |e: &Expr| matches!(&e.kind, ExprKind::Var(v) if &v.name == var);
    match &rhs.kind {
        ExprKind::IfThenElse(_, then, els) if is_var(els) => stride_of(var, then),
        ExprKind::IfThenElse(_, then, els) if is_var(then) => stride_of(var, els),
        ExprKind::Call(f, args) if f.as_str() == "BV32_ADD" => match args.as_slice() {
            [a, b] if is_var(a) => Some(b),
            [a, b] if is_var(b) => Some(a),
            _ => None,
        },
        _ => None,
    }
}

/// The uniform factors `c` of products `BV32_MUL(x, c)` (either order) in `stmts` whose other
/// factor `x` satisfies `pick`: the scale of a loop variable in an index (`i * C`, pick = the
/// loop modifies `x`), or a row pitch (`group_id_x * P`, pick = `x` is a group id).
pub(super) fn factors(stmts: &[&Stmt], modified: &HashSet<Name>, pick: impl Fn(&Expr) -> bool) -> Vec<Expr> {
    struct Products<'a, F> {
        modified: &'a HashSet<Name>,
        pick: F,
        seen: HashSet<String>,
        out: Vec<Expr>,
    }
    impl<F: Fn(&Expr) -> bool> ivl::visit::Visit for Products<'_, F> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Call(f, args) = &e.kind {
                if let ([a, b], "BV32_MUL") = (args.as_slice(), f.as_str()) {
                    for (x, c) in [(a, b), (b, a)] {
                        if (self.pick)(x) && uniform_factor(c, self.modified) && self.seen.insert(print_expr(c)) {
                            self.out.push(c.clone());
                        }
                    }
                }
            }
            ivl::visit::walk_expr(self, e);
        }
    }
    let mut v = Products { modified, pick, seen: HashSet::new(), out: Vec::new() };
    for s in stmts {
        ivl::visit::Visit::visit_stmt(&mut v, s);
    }
    v.out
}

/// Whether `e` is a group size of GPUVerify's (`group_size_x` …).
pub(super) fn is_group_size(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Var(v) if v.as_str().starts_with("group_size_"))
}

/// Whether `e` is a group id of GPUVerify's (`group_id_x$1` …).
pub(super) fn is_group_id(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Var(v) if v.as_str().starts_with("group_id_"))
}

/// `flag ==> BV32_UREM(BV32_UREM(BV32_UDIV(_WATCHED_OFFSET, w), p), M) == E`: the offset
/// within a row of pitch `p` (a group's row: `group_id * p + …`) is strided.
pub(super) fn row_candidate(flag: &Name, w: u64, pitch: &Expr, pair: &Pair, span: Span) -> Expr {
    let offset = scaled_offset(w, span);
    let row = call("BV32_UREM", vec![offset, pitch.clone()], span);
    Expr::implies(Expr::var(flag.clone(), span), residue_is(row, pair.modulus.clone(), pair.id.clone(), span))
}

fn scaled_offset(w: u64, span: Span) -> Expr {
    let offset = Expr::var(super::WATCHED_OFFSET, span);
    if w == 1 {
        offset
    } else {
        call("BV32_UDIV", vec![offset, bv32(w, span)], span)
    }
}

fn is_small_literal(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::BvLit { value, .. } if *value < BigUint::from(2u32))
}

fn call(f: &str, args: Vec<Expr>, span: Span) -> Expr {
    Expr::new(ExprKind::Call(Ident::new(f, span), args), span)
}

fn bv32(n: u64, span: Span) -> Expr {
    Expr::new(ExprKind::BvLit { value: BigUint::from(n), width: 32 }, span)
}
