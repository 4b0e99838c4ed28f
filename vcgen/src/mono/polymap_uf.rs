//! Polymorphic map types as uninterpreted values, for the programs that the box encoding
//! ([`super::polymap`]) cannot take exactly: those that both quantify over a polymorphic map
//! type and compare its values with `==` (Dafny's prelude: `forall a, b, c: Heap :: a != c ==>
//! $HeapSucc(a, b) && $HeapSucc(b, c) ==> $HeapSucc(a, c)`, Boogie's
//! `test2/IncompleteArithmetic-RealTypes.bpl`).
//!
//! Why the box encoding fails there: its map is a Z3 array over the box sort, so an array also
//! has entries at keys no select of the program can name (a box of the wrong type), and a
//! quantifier over the map type ranges over arrays that differ only there. `==` tells such
//! arrays apart, so an axiom that holds of every Boogie map (one that derives `h == k` from
//! equal entries) could be false of them, and assuming it would be unsound.
//!
//! Here a value of polymorphic map type `M` is an element of an uninterpreted sort `$Map$k` of
//! its own. For each ground instantiation `tys` at which the program selects or updates `M`,
//! typed functions `$sel$k[tys](m, i..): R` and `$upd$k[tys](m, i.., v): $Map$k` (argument and
//! result types instantiated, no boxes), with the axioms of Boogie's maps (Leino, "This is
//! Boogie 2", §2: a polymorphic map is a function from a type instantiation and a key):
//! - read over write at the same key: `$sel(upd(m, i, v), i) == v`;
//! - read over write at another key of the same instantiation: the old entry;
//! - read over write at another instantiation: the old entry, when both instantiations are
//!   ground program types. Not when either mentions a type standing for an arbitrary one
//!   ([`super::polymap_common::ARBITRARY`]): that type may be the other, and the two would then name
//!   the same entries.
//!
//! Soundness: interpret `$Map$k` as the set of Boogie values of `M` and the functions as reading
//! and updating them; every axiom holds there, a quantifier over `M` ranges over exactly Boogie's
//! maps, and `==` is Boogie's equality. No extensionality is assumed (maps with equal entries
//! are not known to be equal; Boogie 2.4.1's own encodings of polymorphic maps lack it too):
//! that assumes less, never something false.
//!
//! Why not always: the box encoding's arrays give Z3 its array theory (extensionality, fewer
//! quantifiers), which the programs without the combination above keep.

use super::polymap_common::{is_poly_map_synonym, Made, Selects};
use ivl::ast::*;
use ivl::check::{lhs_level_span, GlobalEnv, MapTy, Ty};
use ivl::visit::{walk_expr_mut, walk_stmt_mut, Node, VisitMut};
use std::collections::HashMap;
use std::sync::Arc;

/// `decls` (ground, single-level assignments) with every polymorphic map encoded as above;
/// `records` holds each declaration's selects and updates, in order. Type synonyms of
/// polymorphic map types go (every use is rewritten).
pub(super) fn encode(env: &GlobalEnv, decls: Vec<Decl>, records: Vec<Selects>) -> Vec<Decl> {
    let mut enc = Encoder::new(env, &decls);
    let mut out = Vec::with_capacity(decls.len());
    for (mut d, mut selects) in decls.into_iter().zip(records) {
        if is_poly_map_synonym(env, &d) {
            continue;
        }
        d.accept_mut(&mut Rewrite { enc: &mut enc, selects: &mut selects });
        out.push(d);
    }
    let mut all = enc.made.decls;
    all.extend(out);
    all
}

/// The select and update functions of one instantiation.
#[derive(Clone)]
struct Ops {
    sel: Name,
    upd: Name,
    /// The encoded argument types and result type at the instantiation.
    args: Vec<Type>,
    result: Type,
    /// Whether the instantiation mentions a type standing for an arbitrary one.
    arbitrary: bool,
}

struct Encoder<'e> {
    env: &'e GlobalEnv,
    /// Names, sorts `$Map$..` and declarations made.
    made: Made,
    /// The functions of (map type, instantiation), and per map type the instantiations in the
    /// order they were met (for the frame axioms between them).
    ops: HashMap<(Ty, Vec<Ty>), Ops>,
    by_sort: HashMap<Ty, Vec<Ops>>,
}

impl<'e> Encoder<'e> {
    fn new(env: &'e GlobalEnv, decls: &[Decl]) -> Encoder<'e> {
        Encoder { env, made: Made::new(decls), ops: HashMap::new(), by_sort: HashMap::new() }
    }

    /// `t` with every polymorphic map type replaced by its sort.
    fn ty(&mut self, t: &Ty) -> Ty {
        match t {
            Ty::Ctor(n, xs) => Ty::Ctor(n.clone(), xs.iter().map(|x| self.ty(x)).collect()),
            Ty::Map(m) if m.tparams == 0 => Ty::map(m.args.iter().map(|x| self.ty(x)).collect(), self.ty(&m.result)),
            Ty::Map(_) => self.made.sort(t, "$Map$"),
            _ => t.clone(),
        }
    }

    /// The functions of map type `m` at `tys`, declared with their axioms on first use.
    fn ops(&mut self, m: &Arc<MapTy>, tys: &[Ty]) -> Ops {
        let mt = Ty::Map(m.clone());
        if let Some(o) = self.ops.get(&(mt.clone(), tys.to_vec())) {
            return o.clone();
        }
        let sort_ty = self.made.sort(&mt, "$Map$");
        let Ty::Ctor(k, _) = &sort_ty else { unreachable!("a sort is a type constructor") };
        let (sel, upd) = (format!("$sel{k}"), format!("$upd{k}"));
        let sort = sort_ty.to_type();
        let ops = Ops {
            sel: self.made.fresh(&sel, tys),
            upd: self.made.fresh(&upd, tys),
            args: m.args.iter().map(|a| self.ty(&a.instantiate_bound(tys)).to_type()).collect(),
            result: self.ty(&m.result.instantiate_bound(tys)).to_type(),
            arbitrary: tys.iter().any(|t| self.made.mentions_arbitrary(t)),
        };
        let mut sel_params = vec![sort.clone()];
        sel_params.extend(ops.args.iter().cloned());
        self.made.decls.push(function(&ops.sel, sel_params.clone(), ops.result.clone()));
        let mut upd_params = sel_params;
        upd_params.push(ops.result.clone());
        self.made.decls.push(function(&ops.upd, upd_params, sort.clone()));
        // Read over write, at the same key and at another key of this instantiation.
        let same = {
            let (vars, m, keys, v) = update_vars(&sort, &ops);
            let upd = apply(&ops.upd, [vec![m], keys.clone(), vec![v.clone()]].concat());
            let read = apply(&ops.sel, [vec![upd.clone()], keys].concat());
            forall(vars, vec![upd], Expr::eq(read, v))
        };
        self.made.axiom(same);
        self.made.axiom(frame(&sort, &ops, &ops));
        let others = self.by_sort.get(&mt).cloned().unwrap_or_default();
        for other in others.iter().filter(|o| !o.arbitrary && !ops.arbitrary) {
            self.made.axiom(frame(&sort, &ops, other));
            self.made.axiom(frame(&sort, other, &ops));
        }
        self.by_sort.entry(mt.clone()).or_default().push(ops.clone());
        self.ops.insert((mt, tys.to_vec()), ops.clone());
        ops
    }
}

/// The bound variables of an update `upd(m, keys.., v)` at `ops`.
fn update_vars(sort: &Type, ops: &Ops) -> (Vec<TypedIdent>, Expr, Vec<Expr>, Expr) {
    let mut vars = vec![typed("$m", sort.clone())];
    vars.extend(ops.args.iter().enumerate().map(|(i, t)| typed(&format!("$a{i}"), t.clone())));
    vars.push(typed("$v", ops.result.clone()));
    let exprs: Vec<Expr> = vars.iter().map(|v| Expr::var(v.name.name.clone(), Span::DUMMY)).collect();
    let v = exprs[exprs.len() - 1].clone();
    (vars, exprs[0].clone(), exprs[1..exprs.len() - 1].to_vec(), v)
}

/// A read at `read`'s instantiation of an update at `write`'s sees the old entry: always when
/// they are distinct instantiations, otherwise when the keys differ.
fn frame(sort: &Type, read: &Ops, write: &Ops) -> Expr {
    let (mut vars, m, keys, v) = update_vars(sort, write);
    let others: Vec<TypedIdent> =
        read.args.iter().enumerate().map(|(i, t)| typed(&format!("$b{i}"), t.clone())).collect();
    let probes: Vec<Expr> = others.iter().map(|b| Expr::var(b.name.name.clone(), Span::DUMMY)).collect();
    vars.extend(others);
    let upd = apply(&write.upd, [vec![m.clone()], keys.clone(), vec![v]].concat());
    let after = apply(&read.sel, [vec![upd], probes.clone()].concat());
    let before = apply(&read.sel, [vec![m], probes.clone()].concat());
    let mut body = Expr::eq(after.clone(), before);
    if read.sel == write.sel {
        let differ = keys
            .into_iter()
            .zip(probes)
            .map(|(a, b)| Expr::binary(BinOp::Neq, a, b))
            .reduce(Expr::or)
            .unwrap_or_else(|| Expr::bool(false));
        body = Expr::implies(differ, body);
    }
    forall(vars, vec![after], body)
}

fn typed(name: &str, ty: Type) -> TypedIdent {
    TypedIdent { name: Ident::new(name, Span::DUMMY), ty, where_clause: None, attrs: Vec::new() }
}

fn apply(f: &Name, args: Vec<Expr>) -> Expr {
    Expr::new(ExprKind::Call(Ident::new(f.clone(), Span::DUMMY), args), Span::DUMMY)
}

fn forall(vars: Vec<TypedIdent>, trigger: Vec<Expr>, body: Expr) -> Expr {
    let q = Quantifier {
        kind: QuantKind::Forall,
        type_params: Vec::new(),
        vars,
        attrs: Vec::new(),
        triggers: vec![Trigger { exprs: trigger, span: Span::DUMMY }],
        body,
    };
    Expr::new(ExprKind::Quant(Box::new(q)), Span::DUMMY)
}

/// `function name(p0: t0, ..): result;`, uninterpreted.
fn function(name: &Name, params: Vec<Type>, result: Type) -> Decl {
    let f = FunctionDecl {
        attrs: Vec::new(),
        name: Ident::new(name.clone(), Span::DUMMY),
        type_params: Vec::new(),
        params: params
            .into_iter()
            .enumerate()
            .map(|(i, ty)| FnParam { name: Some(Ident::new(format!("p{i}"), Span::DUMMY)), ty })
            .collect(),
        result: FnParam { name: None, ty: result },
        body: None,
    };
    Decl { kind: DeclKind::Function(f), span: Span::DUMMY }
}

/// Rewrites one declaration: its types, its selects and updates (as calls), and its map
/// assignments `m[i] := e` (as `m := upd(m, i, e)`).
struct Rewrite<'a, 'e> {
    enc: &'a mut Encoder<'e>,
    selects: &'a mut Selects,
}

impl VisitMut for Rewrite<'_, '_> {
    fn visit_type(&mut self, t: &mut Type) {
        let ty = self.enc.env.ty(t);
        if ty.has_poly_map() {
            let span = t.span;
            *t = self.enc.ty(&ty).to_type();
            t.span = span;
        }
    }

    fn visit_expr(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
        if !matches!(e.kind, ExprKind::Select(..) | ExprKind::Store(..)) {
            return;
        }
        let Some((m, tys)) = self.selects.next(&e.span).cloned() else { return };
        let ops = self.enc.ops(&m, &tys);
        let span = e.span;
        let (f, args) = match std::mem::replace(e, Expr::bool(true)).kind {
            ExprKind::Select(base, idx) => (ops.sel, [vec![*base], idx].concat()),
            ExprKind::Store(base, idx, v) => (ops.upd, [vec![*base], idx, vec![*v]].concat()),
            _ => unreachable!("matched above"),
        };
        *e = Expr::new(ExprKind::Call(Ident::new(f, span), args), span);
    }

    fn visit_stmt(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s);
        let StmtKind::Assign { lhss, rhss } = &mut s.kind else { return };
        for (l, r) in lhss.iter_mut().zip(rhss.iter_mut()) {
            if l.indices.is_empty() {
                continue;
            }
            let Some((m, tys)) = self.selects.next(&lhs_level_span(l, 0)).cloned() else { continue };
            let ops = self.enc.ops(&m, &tys);
            let idx = l.indices.pop().expect("single-level assignments");
            let value = std::mem::replace(r, Expr::bool(true));
            let base = Expr::var(l.var.name.clone(), l.var.span);
            *r =
                Expr::new(ExprKind::Call(Ident::new(ops.upd, l.span), [vec![base], idx, vec![value]].concat()), l.span);
        }
    }
}
