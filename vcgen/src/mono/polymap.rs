//! Polymorphic map types (`<a>[ref, Field a]a`, Leino, "This is Boogie 2", §2) encoded for Z3,
//! after monomorphisation: every select and update is at a ground instantiation, which the type
//! checker infers from the index types and records ([`InstanceKind::Select`]).
//!
//! The encoding follows Boogie's `/typeEncoding:a` ("arguments") idea (Leino and Rümmer, "A
//! Polymorphic Intermediate Verification Language: Design and Logical Encoding", TACAS 2010,
//! §4) restricted to the maps: a polymorphic map type `M` becomes an ordinary map over a fresh
//! uninterpreted sort `$U$M`, `[ref, $U$M]$U$M`, where each argument and the result whose type
//! mentions a type parameter is boxed into `$U$M`. A select `h[o, f]` at `a := T` reads
//! `$unbox$M$T(H[o, $box$M$Field_T(f)])`, an update boxes the value, and one axiom per box
//! function, `unbox(box(x)) == x`, says boxing loses nothing. Distinct instantiations give
//! distinct keys (the boxes of different types are never equated: in the model below their
//! ranges are disjoint), so an update at `T` changes no other instance, as in Boogie. The
//! boxes of a type that stands for an arbitrary one ([`super::polymap_common::ARBITRARY`]) get no tag: their values
//! may be those of any other type.
//!
//! Why this and not one Z3 array per instantiation: it needs no instance set. The program's
//! instantiations grow with polymorphic axioms and functions (each instance may select the
//! heap at another type), and a variable of a polymorphic map type would otherwise become a
//! tuple of arrays at every parameter, call, `old`, `havoc` and quantifier; here every
//! declaration keeps its shape and only selects, updates and types change.
//!
//! Soundness: a model of the Boogie program gives one of the encoding (interpret `$U$M` as the
//! disjoint union of all types, the boxes as the injections, each map value as the map that is
//! the boxed value at boxed keys and a fixed default elsewhere). A quantifier over a polymorphic
//! map also ranges over maps with other values at the junk keys; selects, updates and
//! uninterpreted functions cannot tell them apart, but `==` can. So a program that both
//! quantifies over a polymorphic map type (bound variables, parameters of functions with a
//! body, whose definitions are quantified axioms) and compares such maps with `==` or `!=` gets
//! another encoding, [`super::polymap_uf`] (maps as uninterpreted values), never a possibly
//! wrong verdict.
//!
//! A map type with a type parameter that occurs in no argument (`<a>[int]a`, `<a>[]a`: the
//! context fixes it at each select, [`ivl::typeck`]) has one map per instantiation in Boogie:
//! `p[13] := 5; p[13] := true` changes two different values. Its encoding gets one more
//! argument of sort `$U$M`, a key per instantiation: `p[13]` at `a := int` reads
//! `P[13, $type$U$M$int()]`. The key constants of distinct instantiations are distinct (an
//! uninterpreted `$ttag$U$M` numbers them), so updates at one type leave the others unchanged;
//! in the model above the keys are fresh elements of the union, as the boxes' ranges.

use super::polymap_common::{is_poly_map_synonym, Made, Selects};
use ivl::ast::*;
use ivl::check::{build_env, check_decl, check_decl_instances, lhs_level_span, GlobalEnv, InstanceKind, MapTy, Ty};
use ivl::diag::Diagnostic;
use ivl::visit::{walk_expr, walk_expr_mut, walk_stmt_mut, walk_type, Node, Visit, VisitMut};
use std::collections::HashMap;
use std::sync::Arc;

/// Whether a polymorphic map type is written anywhere in `decls`.
pub fn has_poly_map_types(decls: &[Decl]) -> bool {
    struct Find(bool);
    impl Visit for Find {
        fn visit_type(&mut self, t: &Type) {
            if matches!(&t.kind, TypeKind::Map { type_params, .. } if !type_params.is_empty()) {
                self.0 = true;
            }
            walk_type(self, t)
        }
    }
    let mut f = Find(false);
    decls.iter().for_each(|d| d.accept(&mut f));
    f.0
}

/// `decls` (ground: monomorphised) with its polymorphic maps encoded as described above.
pub fn encode_poly_maps(mut decls: Vec<Decl>) -> Result<Vec<Decl>, Vec<Diagnostic>> {
    decls.iter_mut().for_each(single_level_assignments);
    let (env, diags) = build_env(&decls);
    if !diags.is_empty() {
        return Err(diags);
    }
    let mut records = Vec::with_capacity(decls.len());
    let mut equalities = Vec::new();
    for d in &decls {
        let (diags, uses) = check_decl_instances(&env, d);
        if !diags.is_empty() {
            return Err(diags);
        }
        let mut selects = Selects::default();
        for u in uses {
            match u.kind {
                InstanceKind::Select(Ty::Map(m)) => selects.push(u.span, (m, u.tys)),
                InstanceKind::PolyMapEquality => equalities.push(u.span),
                _ => {}
            }
        }
        records.push(selects);
    }
    if quantified_poly_map(&env, &decls).is_some() && !equalities.is_empty() {
        // `==` would tell apart arrays that differ only at keys no select names.
        let all = super::polymap_uf::encode(&env, decls, records);
        recheck(&all)?;
        return Ok(all);
    }
    let mut enc = Encoder::new(&env, &decls);
    let mut out = Vec::with_capacity(decls.len());
    for (mut d, mut selects) in decls.into_iter().zip(records) {
        if is_poly_map_synonym(&env, &d) {
            continue; // every use is rewritten below
        }
        let mut r = Rewrite { enc: &mut enc, selects: &mut selects };
        d.accept_mut(&mut r);
        out.push(d);
    }
    if !enc.diags.is_empty() {
        return Err(enc.diags);
    }
    let mut all = enc.made.decls;
    all.extend(out);
    recheck(&all)?;
    Ok(all)
}

/// The encoded program type-checks (an internal error otherwise, reported, not verified).
fn recheck(decls: &[Decl]) -> Result<(), Vec<Diagnostic>> {
    let (env, mut diags) = build_env(decls);
    for d in decls {
        diags.extend(check_decl(&env, d));
    }
    if diags.is_empty() {
        Ok(())
    } else {
        let first = diags[0].primary.span;
        Err(vec![Diagnostic::unsupported(
            format!("internal error in the encoding of polymorphic maps: {}", diags[0].message),
            first,
        )])
    }
}

/// Where the program binds a variable of a type containing a polymorphic map: a quantifier or
/// lambda, or a parameter of a function with a body.
fn quantified_poly_map(env: &GlobalEnv, decls: &[Decl]) -> Option<Span> {
    struct Find<'e>(&'e GlobalEnv, Option<Span>);
    impl Visit for Find<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Quant(q) = &e.kind {
                if let Some(v) = q.vars.iter().find(|v| self.0.ty(&v.ty).has_poly_map()) {
                    self.1.get_or_insert(v.name.span);
                }
            }
            walk_expr(self, e)
        }
    }
    let mut f = Find(env, None);
    for d in decls {
        if let DeclKind::Function(fd) = &d.kind {
            if fd.body.is_some() && fd.params.iter().any(|p| env.ty(&p.ty).has_poly_map()) {
                f.1.get_or_insert(fd.name.span);
            }
        }
        d.accept(&mut f);
    }
    f.1
}

/// `m[i][j] := e` as `m[i] := m[i][j := e]` (Boogie's meaning), so that each select and update
/// of a nested map is an expression of its own (span: [`lhs_level_span`] of its level, which
/// the type checker records them at).
fn single_level_assignments(d: &mut Decl) {
    struct Lower;
    impl VisitMut for Lower {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            if let StmtKind::Assign { lhss, rhss } = &mut s.kind {
                for (l, r) in lhss.iter_mut().zip(rhss.iter_mut()) {
                    while l.indices.len() > 1 {
                        let k = l.indices.len() - 1;
                        let inner = l.indices.pop().expect("two levels");
                        let mut sel = Expr::var(l.var.name.clone(), l.var.span);
                        for (j, idx) in l.indices.iter().enumerate() {
                            sel = Expr::new(ExprKind::Select(Box::new(sel), idx.clone()), lhs_level_span(l, j));
                        }
                        // The update's span: the level's, one further (no expression has it).
                        let at = lhs_level_span(l, k - 1);
                        let span = Span::new(at.start as usize, at.end as usize + 1);
                        let value = std::mem::replace(r, Expr::bool(true));
                        *r = Expr::new(ExprKind::Store(Box::new(sel), inner, Box::new(value)), span);
                    }
                }
            }
            walk_stmt_mut(self, s)
        }
    }
    d.accept_mut(&mut Lower);
}

/// Whether a type parameter of the map occurs in `t`.
fn mentions_params(m: &MapTy, t: &Ty) -> bool {
    (0..m.tparams).any(|i| t.has_bound(i))
}

/// The encoded types and the declarations they need.
struct Encoder<'e> {
    env: &'e GlobalEnv,
    /// Names, sorts `$U$..` and declarations made.
    made: Made,
    /// The box and unbox functions of (sort, type).
    boxes: HashMap<(Ty, Ty), (Name, Name)>,
    /// The key constants of (sort, instantiation), for maps typed by their context.
    keys: HashMap<(Ty, Vec<Ty>), Name>,
    diags: Vec<Diagnostic>,
}

impl<'e> Encoder<'e> {
    fn new(env: &'e GlobalEnv, decls: &[Decl]) -> Encoder<'e> {
        Encoder { env, made: Made::new(decls), boxes: HashMap::new(), keys: HashMap::new(), diags: Vec::new() }
    }

    fn fresh(&mut self, base: &str, tys: &[Ty]) -> Name {
        self.made.fresh(base, tys)
    }

    /// `t` with every polymorphic map type replaced by its encoding.
    fn ty(&mut self, t: &Ty) -> Ty {
        match t {
            Ty::Ctor(n, xs) => Ty::Ctor(n.clone(), xs.iter().map(|x| self.ty(x)).collect()),
            Ty::Map(m) if m.tparams == 0 => Ty::map(m.args.iter().map(|x| self.ty(x)).collect(), self.ty(&m.result)),
            Ty::Map(m) => {
                let u = self.sort(t);
                let mut part = |x: &Ty| if mentions_params(m, x) { u.clone() } else { self.ty(x) };
                let mut args: Vec<Ty> = m.args.iter().map(&mut part).collect();
                let result = part(&m.result);
                if m.has_result_only_params() {
                    args.push(u.clone()); // the key of the instantiation
                }
                Ty::map(args, result)
            }
            _ => t.clone(),
        }
    }

    /// The sort `$U$k` standing for the boxed values of polymorphic map type `m`.
    fn sort(&mut self, m: &Ty) -> Ty {
        self.made.sort(m, "$U$")
    }

    /// The box and unbox functions between the ground type `t` and the sort of map type `m`,
    /// declared with their axiom on first use.
    fn boxes(&mut self, m: &Ty, t: &Ty) -> (Name, Name) {
        let u = self.sort(m);
        if let Some(b) = self.boxes.get(&(u.clone(), t.clone())) {
            return b.clone();
        }
        let et = self.ty(t).to_type();
        let ut = u.to_type();
        let (bx, ub) = (
            self.fresh(&format!("$box{u}"), std::slice::from_ref(t)),
            self.fresh(&format!("$unbox{u}"), std::slice::from_ref(t)),
        );
        self.made.decls.push(unary_fn(&bx, "x", &et, &ut));
        self.made.decls.push(unary_fn(&ub, "x", &ut, &et));
        let x = Expr::var("x", Span::DUMMY);
        let boxed = call(&bx, x.clone());
        let mut body = Expr::eq(call(&ub, boxed.clone()), x);
        if !self.made.mentions_arbitrary(t) {
            let tag = self.tag(&u);
            let k = self.boxes.keys().filter(|(v, _)| *v == u).count();
            let tagged = Expr::eq(call(&tag, boxed.clone()), Expr::new(ExprKind::IntLit(k.into()), Span::DUMMY));
            body = Expr::and(body, tagged);
        }
        let var = TypedIdent { name: Ident::new("x", Span::DUMMY), ty: et, where_clause: None, attrs: Vec::new() };
        let q = Quantifier {
            kind: QuantKind::Forall,
            type_params: Vec::new(),
            vars: vec![var],
            attrs: Vec::new(),
            triggers: vec![Trigger { exprs: vec![boxed], span: Span::DUMMY }],
            body,
        };
        let expr = Expr::new(ExprKind::Quant(Box::new(q)), Span::DUMMY);
        self.made.axiom(expr);
        self.boxes.insert((u, t.clone()), (bx.clone(), ub.clone()));
        (bx, ub)
    }

    /// The constant `$type$U..(): $U` that keys the instantiation `tys` of map type `m` (whose
    /// type parameters occur only in its result), declared with its distinct number on first
    /// use.
    fn instantiation_key(&mut self, m: &Ty, tys: &[Ty]) -> Name {
        let u = self.sort(m);
        if let Some(k) = self.keys.get(&(u.clone(), tys.to_vec())) {
            return k.clone();
        }
        let name = self.fresh(&format!("$type{u}"), tys);
        let f = FunctionDecl {
            attrs: Vec::new(),
            name: Ident::new(name.clone(), Span::DUMMY),
            type_params: Vec::new(),
            params: Vec::new(),
            result: FnParam { name: None, ty: u.to_type() },
            body: None,
        };
        self.made.decls.push(Decl { kind: DeclKind::Function(f), span: Span::DUMMY });
        let ttag = Name::from(format!("$ttag{u}"));
        if self.made.take(&ttag) {
            self.made.decls.push(unary_fn(&ttag, "u", &u.to_type(), &Type::int()));
        }
        let n = self.keys.keys().filter(|(v, _)| *v == u).count();
        if !tys.iter().any(|t| self.made.mentions_arbitrary(t)) {
            let key = Expr::new(ExprKind::Call(Ident::new(name.clone(), Span::DUMMY), Vec::new()), Span::DUMMY);
            let expr = Expr::eq(call(&ttag, key), Expr::new(ExprKind::IntLit(n.into()), Span::DUMMY));
            self.made.axiom(expr);
        }
        self.keys.insert((u, tys.to_vec()), name.clone());
        name
    }

    /// `$tag$U(u: $U): int`, the type a boxed value comes from (a distinct number for each box
    /// function into `$U`): values boxed from distinct types are distinct.
    fn tag(&mut self, u: &Ty) -> Name {
        let name = Name::from(format!("$tag{u}"));
        if self.made.take(&name) {
            self.made.decls.push(unary_fn(&name, "u", &u.to_type(), &Type::int()));
        }
        name
    }

    /// Boxes the indices of a select or update of `m` at `tys` whose argument types mention a
    /// type parameter. The box and unbox functions of the result type, if it mentions one.
    /// The key of the instantiation is added when the indices do not determine it.
    fn box_indices(&mut self, m: &Arc<MapTy>, tys: &[Ty], idx: &mut Vec<Expr>) -> Option<(Name, Name)> {
        let mt = Ty::Map(m.clone());
        for (i, at) in idx.iter_mut().zip(&m.args) {
            if mentions_params(m, at) {
                let (bx, _) = self.boxes(&mt, &at.instantiate_bound(tys));
                wrap(i, &bx);
            }
        }
        if m.has_result_only_params() {
            let key = self.instantiation_key(&mt, tys);
            let span = idx.last().map_or(Span::DUMMY, |e| e.span);
            idx.push(Expr::new(ExprKind::Call(Ident::new(key, span), Vec::new()), span));
        }
        mentions_params(m, &m.result).then(|| self.boxes(&mt, &m.result.instantiate_bound(tys)))
    }
}

fn call(f: &Name, arg: Expr) -> Expr {
    let span = arg.span;
    Expr::new(ExprKind::Call(Ident::new(f.clone(), span), vec![arg]), span)
}

/// `e` becomes `f(e)`.
fn wrap(e: &mut Expr, f: &Name) {
    let inner = std::mem::replace(e, Expr::bool(true));
    *e = call(f, inner);
}

/// Rewrites one declaration: its types, and the selects and updates recorded in `selects`.
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
        let (m, tys) = (&m, &tys);
        match &mut e.kind {
            ExprKind::Select(_, idx) => {
                if let Some((_, unbox)) = self.enc.box_indices(m, tys, idx) {
                    wrap(e, &unbox);
                }
            }
            ExprKind::Store(_, idx, v) => {
                if let Some((bx, _)) = self.enc.box_indices(m, tys, idx) {
                    wrap(v, &bx);
                }
            }
            _ => {}
        }
    }

    fn visit_stmt(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s);
        let StmtKind::Assign { lhss, rhss } = &mut s.kind else { return };
        for (l, r) in lhss.iter_mut().zip(rhss.iter_mut()) {
            if l.indices.is_empty() {
                continue;
            }
            let Some((m, tys)) = self.selects.next(&lhs_level_span(l, 0)).cloned() else { continue };
            let (m, tys) = (&m, &tys);
            if let Some((bx, _)) = self.enc.box_indices(m, tys, &mut l.indices[0]) {
                wrap(r, &bx);
            }
        }
    }
}

/// `function name(param: from): to;`, uninterpreted.
fn unary_fn(name: &Name, param: &str, from: &Type, to: &Type) -> Decl {
    let f = FunctionDecl {
        attrs: Vec::new(),
        name: Ident::new(name.clone(), Span::DUMMY),
        type_params: Vec::new(),
        params: vec![FnParam { name: Some(Ident::new(param, Span::DUMMY)), ty: from.clone() }],
        result: FnParam { name: None, ty: to.clone() },
        body: None,
    };
    Decl { kind: DeclKind::Function(f), span: Span::DUMMY }
}
