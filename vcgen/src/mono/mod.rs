//! Monomorphisation: Boogie 2's type parameters (Leino, "This is Boogie 2", §2-§4) turned into
//! a program without them, which the rest of the engine encodes for Z3 as any other.
//!
//! Boogie itself keeps the polymorphism and encodes types as terms (`/typeEncoding:p`, the
//! default, and `/typeEncoding:a`; Leino and Rümmer, "A Polymorphic Intermediate Verification
//! Language: Design and Logical Encoding", TACAS 2010). kivl specialises instead, where the
//! instantiations are finite and known:
//!
//! - a **polymorphic function** `f<a>` becomes one function `f$T` per instantiation `T` used,
//!   inferred by the type checker at each application (`ivl::check::check_decl_instances`;
//!   Boogie's inference: from the arguments, then from the expected type);
//! - a **polymorphic procedure** `P<a>` is verified once, with each type parameter an
//!   uninterpreted type of its own (`type P$a;`: what holds for an arbitrary type holds for every
//!   type, as no operation of the program can tell the types apart); a call at `T` calls `P$T`,
//!   the contract instantiated (its body only when it is inlined);
//! - an **axiom** `axiom (forall<a> ... :: e)` is instantiated at every tuple of ground types
//!   of the program (the types written in its declarations, the uninterpreted types above, and
//!   their parts; not the types only axiom instances bring in, which keeps the set finite; not
//!   the types that contain a polymorphic map type, see [`polymap`]). An
//!   axiom is an assumption: instantiating it at fewer types than all assumes less, which may
//!   cost a proof but never makes one wrong (so is dropping the axiom instances that would
//!   need function instances past [`AXIOM_BUDGET`]);
//! - a **polymorphic map type** is encoded after the rest, in the ground program
//!   ([`polymap`]: boxing into a sort per map type, Boogie's `/typeEncoding:a` for maps);
//! - a **lambda with type parameters applied where it stands** is replaced by its body at
//!   the inferred instantiation first ([`lambda_beta`]); any other one is lifted to a
//!   polymorphic function with a defining axiom ([`lambda_lift`]);
//! - a **type quantifier inside a formula** is eliminated by the polarity of its position
//!   ([`type_quant`]: instances at the ground types where it is assumed, a fresh type where it
//!   must be proved); one in the body of an `{:inline}` function is first expanded where the
//!   function is applied ([`inline_fns`]);
//! - the rest — type quantifiers in positions both assumed and proved,
//!   instantiations that do not end (polymorphic recursion beyond [`MAX_INSTANCES`]) — is
//!   a located `unsupported` diagnostic, never a guess.
//!
//! Every declaration made is type-checked again (the checker also finds its instantiations),
//! so the program handed on is well typed.

mod inline_fns;
mod lambda_beta;
mod lambda_lift;
mod polymap;
mod polymap_common;
mod polymap_uf;
mod subst;
mod type_quant;

use ivl::ast::*;
use ivl::check::{build_env, check_decl_instances, GlobalEnv, Instance, InstanceKind, Ty};
use ivl::diag::Diagnostic;
use ivl::visit::{walk_expr_mut, walk_stmt_mut, walk_type, Node, Visit, VisitMut};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
pub(crate) use subst::type_quantifiers;
use subst::{instance_name, split_type_quantifier, substitute_types, substitution, Occurrences};

/// At most this many instances of polymorphic functions and procedures.
pub const MAX_INSTANCES: usize = 2000;
/// Axiom instances that would take the number of function and procedure instances past this
/// are not assumed (Dafny's prelude, whose axioms with two type parameters at every pair of the
/// program's types would otherwise exceed [`MAX_INSTANCES`]; test2/IncompleteArithmetic-RealTypes.bpl):
/// the rest of [`MAX_INSTANCES`] is left to the instances the program itself needs.
pub const AXIOM_BUDGET: usize = MAX_INSTANCES * 3 / 4;
/// At most this many instances of one polymorphic axiom (the others are not assumed).
pub const MAX_AXIOM_INSTANCES: usize = 1000;

/// `p` without type parameters (borrowed when it has none).
///
/// Polymorphic map types are encoded afterwards, in the ground program ([`polymap`]).
pub fn monomorphise(p: &Program) -> Result<Cow<'_, Program>, Vec<Diagnostic>> {
    if let Some(decls) = inline_fns::expand(&p.decls) {
        let expanded = Program { decls };
        return Ok(Cow::Owned(monomorphise_expanded(&expanded)?.into_owned()));
    }
    monomorphise_expanded(p)
}

/// [`monomorphise`] once the `{:inline}` functions with type quantifiers are expanded
/// ([`inline_fns`]).
fn monomorphise_expanded(p: &Program) -> Result<Cow<'_, Program>, Vec<Diagnostic>> {
    let beta = lambda_beta::has_applied_poly_lambda(&p.decls);
    if beta || lambda_lift::has_poly_lambda(&p.decls) {
        let mut decls = p.decls.clone();
        if beta {
            lambda_beta::reduce_applied_poly_lambdas(&mut decls)?;
        }
        lambda_lift::lift_poly_lambdas(&mut decls)?;
        let lifted = Program { decls };
        return Ok(Cow::Owned(monomorphise_lambda_free(&lifted)?.into_owned()));
    }
    monomorphise_lambda_free(p)
}

/// [`monomorphise`] once the lambdas with type parameters are reduced or lifted.
fn monomorphise_lambda_free(p: &Program) -> Result<Cow<'_, Program>, Vec<Diagnostic>> {
    let poly_maps = polymap::has_poly_map_types(&p.decls);
    if !poly_maps && !p.decls.iter().any(is_polymorphic) {
        return Ok(Cow::Borrowed(p));
    }
    let decls = if p.decls.iter().any(is_polymorphic) {
        let mut m = Mono::new(p);
        m.run();
        if !m.diags.is_empty() {
            m.diags.sort_by_key(|d| d.primary.span.start);
            return Err(m.diags);
        }
        m.out
    } else {
        p.decls.clone()
    };
    let decls = if poly_maps { polymap::encode_poly_maps(decls)? } else { decls };
    Ok(Cow::Owned(Program { decls }))
}

fn is_polymorphic(d: &Decl) -> bool {
    let params = match &d.kind {
        DeclKind::Function(f) => &f.type_params,
        DeclKind::Procedure(p) => &p.type_params,
        DeclKind::Implementation(i) => &i.type_params,
        _ => return !type_quantifiers(d).is_empty(),
    };
    !params.is_empty() || !type_quantifiers(d).is_empty()
}

/// A polymorphic axiom: its type parameters and the axiom of one instance.
struct AxiomTemplate {
    params: Vec<Ident>,
    expr: Expr,
    attrs: Vec<Attribute>,
    span: Span,
    done: HashSet<Vec<Ty>>,
}

struct Mono<'p> {
    funcs: HashMap<Name, (&'p FunctionDecl, Span)>,
    procs: HashMap<Name, (&'p ProcedureDecl, Span)>,
    impls: HashMap<Name, Vec<(&'p ImplementationDecl, Span)>>,
    /// The uninterpreted types standing for each polymorphic procedure's type parameters.
    generic: HashMap<Name, Vec<Ty>>,
    axioms: Vec<AxiomTemplate>,
    /// The monomorphic declarations, and for each whether it comes from an axiom instance.
    out: Vec<Decl>,
    from_axiom: Vec<bool>,
    instances: HashMap<(Name, Vec<Ty>), Name>,
    taken: HashSet<Name>,
    env: GlobalEnv,
    diags: Vec<Diagnostic>,
    /// The fresh types that universal type quantifiers of goals were instantiated at (part of
    /// the universe: they stand for arbitrary types).
    skolems: Vec<Ty>,
    /// The declarations whose type quantifiers became instances, as they were before: the
    /// universe is taken from these (not from the instances).
    before_elim: HashMap<usize, Decl>,
}

impl<'p> Mono<'p> {
    fn new(p: &'p Program) -> Mono<'p> {
        let mut m = Mono {
            funcs: HashMap::new(),
            procs: HashMap::new(),
            impls: HashMap::new(),
            generic: HashMap::new(),
            axioms: Vec::new(),
            out: Vec::new(),
            from_axiom: Vec::new(),
            instances: HashMap::new(),
            taken: p.decls.iter().flat_map(ivl::resolve::decl_names).cloned().collect(),
            env: GlobalEnv::default(),
            diags: Vec::new(),
            skolems: Vec::new(),
            before_elim: HashMap::new(),
        };
        let mut sorts = Vec::new();
        for d in &p.decls {
            match &d.kind {
                DeclKind::Function(f) if !f.type_params.is_empty() => {
                    m.funcs.insert(f.name.name.clone(), (f, d.span));
                }
                DeclKind::Procedure(x) if !x.type_params.is_empty() => {
                    let tys = x.type_params.iter().map(|a| m.fresh_sort(&x.name.name, a, &mut sorts)).collect();
                    m.generic.insert(x.name.name.clone(), tys);
                    m.procs.insert(x.name.name.clone(), (x, d.span));
                }
                DeclKind::Implementation(i) if !i.type_params.is_empty() => {
                    m.impls.entry(i.name.name.clone()).or_default().push((i, d.span));
                }
                _ => {}
            }
        }
        m.out.extend(sorts);
        let (env, _) = build_env(&[m.out.as_slice(), &p.decls].concat());
        m.env = env;
        m.env.instances_of_generic = true;
        for d in &p.decls {
            m.split(d);
        }
        m.from_axiom = vec![false; m.out.len()];
        m
    }

    /// `type P$a;`, the uninterpreted type of procedure `P`'s type parameter `a`.
    fn fresh_sort(&mut self, proc: &str, a: &Ident, sorts: &mut Vec<Decl>) -> Ty {
        new_sort(&mut self.taken, &format!("{proc}${}", a.name), a.span, sorts)
    }

    /// Sorts a declaration of the source: templates aside, the generic instance of a
    /// polymorphic procedure and its implementations, the monomorphic rest as it is.
    fn split(&mut self, d: &Decl) {
        match &d.kind {
            DeclKind::Function(f) if !f.type_params.is_empty() => {}
            DeclKind::Procedure(x) if !x.type_params.is_empty() => {
                let tys = self.generic[&x.name.name].clone();
                let mut decl = d.clone();
                substitute_types(&mut decl, &substitution(&x.type_params, &tys));
                if let DeclKind::Procedure(y) = &mut decl.kind {
                    y.type_params = sort_idents(&tys, &x.type_params);
                }
                self.push_ground(decl);
            }
            DeclKind::Implementation(i) if !i.type_params.is_empty() => {
                let Some(tys) = self.generic.get(&i.name.name).cloned() else { return self.push_ground(d.clone()) };
                let mut decl = d.clone();
                substitute_types(&mut decl, &substitution(&i.type_params, &tys));
                if let DeclKind::Implementation(j) = &mut decl.kind {
                    j.type_params = sort_idents(&tys, &i.type_params);
                }
                self.push_ground(decl);
            }
            DeclKind::Axiom(a) => match split_type_quantifier(&a.expr) {
                Some((params, expr)) => self.axioms.push(AxiomTemplate {
                    params,
                    expr,
                    attrs: a.attrs.clone(),
                    span: d.span,
                    done: HashSet::new(),
                }),
                None => self.push_ground(d.clone()),
            },
            _ => self.push_ground(d.clone()),
        }
    }

    /// A declaration without type parameters (its type quantifiers are eliminated in
    /// [`Self::process`]).
    fn push_ground(&mut self, d: Decl) {
        self.out.push(d);
    }

    /// Eliminates the type quantifiers of `out[k]` ([`type_quant`]); those left are unsupported.
    /// Whether some became instances at the universe (whose types then do not join it).
    fn eliminate_type_quantifiers(&mut self, k: usize) -> bool {
        if type_quantifiers(&self.out[k]).is_empty() {
            return false;
        }
        let universe = self.universe();
        let axiom = matches!(self.out[k].kind, DeclKind::Axiom(_));
        let mut sorts = Vec::new();
        let mut d = self.out[k].clone();
        type_quant::drop_trivial(&mut d);
        let instantiated = {
            let taken = &mut self.taken;
            let mut fresh = |a: &Ident| new_sort(taken, &format!("$type${}", a.name), a.span, &mut sorts);
            let mut elim = type_quant::TypeQuantElim {
                universe: &universe,
                fresh_sort: &mut fresh,
                skolem_hyp: axiom,
                max_instances: MAX_AXIOM_INSTANCES,
                instantiated: false,
                inexact: false,
                assumed: false,
            };
            elim.decl(&mut d);
            elim.instantiated
        };
        if instantiated {
            self.before_elim.insert(k, self.out[k].clone());
        }
        for s in sorts {
            if let DeclKind::Type(td) = &s.kind {
                let info = ivl::resolve::TypeInfo { arity: 0, synonym: None, finite: false };
                self.env.types.0.insert(td.name.name.clone(), info);
                // Fresh types of axioms are witnesses, kept out of the universe (which would
                // otherwise grow with every instance).
                if !axiom {
                    self.skolems.push(Ty::Ctor(td.name.name.clone(), std::sync::Arc::from([])));
                }
            }
            self.out.push(s);
        }
        self.from_axiom.resize(self.out.len(), false);
        for span in type_quantifiers(&d) {
            self.diags.push(
                Diagnostic::unsupported(
                    "a type quantifier in a position both assumed and proved is not supported",
                    span,
                )
                .with_label("type parameters: inside `<==>`, `==`, a function argument or body, or needing instances in a contract"),
            );
        }
        self.out[k] = d;
        instantiated
    }

    fn run(&mut self) {
        let mut done = 0;
        loop {
            while done < self.out.len() && self.diags.is_empty() {
                self.process(done);
                done += 1;
            }
            if !self.diags.is_empty() || !self.instantiate_axioms() {
                return;
            }
        }
    }

    /// Type-checks `out[k]`, creates the instances it uses and renames its uses to them.
    fn process(&mut self, k: usize) {
        if self.from_axiom.len() < self.out.len() {
            self.from_axiom.resize(self.out.len(), false);
        }
        let instantiated = self.eliminate_type_quantifiers(k);
        if !self.diags.is_empty() {
            return;
        }
        let (diags, uses) = check_decl_instances(&self.env, &self.out[k]);
        if !diags.is_empty() {
            self.diags.extend(diags);
            return;
        }
        if self.from_axiom[k] && matches!(self.out[k].kind, DeclKind::Axiom(_)) && self.over_budget(&uses) {
            // An axiom instance is an assumption: dropping it is sound (it may cost a proof).
            let span = self.out[k].span;
            self.out[k] = Decl { kind: DeclKind::Axiom(AxiomDecl { attrs: Vec::new(), expr: Expr::bool(true) }), span };
            return;
        }
        // Instances for the instances of a type quantifier do not join the universe either.
        let axiom = self.from_axiom[k] || instantiated;
        self.distinct_type_equalities(k, &uses);
        let mut renames = Occurrences::default();
        for u in uses.into_iter().filter(|u| u.kind == InstanceKind::Use) {
            let name = self.instance(&u, axiom);
            renames.push((u.span, u.name), name);
        }
        if !renames.is_empty() {
            rename(&mut self.out[k], &mut renames);
        }
        // The generic instance of a polymorphic procedure kept its type parameters (renamed
        // to the uninterpreted types) for the check against the procedure's signature.
        match &mut self.out[k].kind {
            DeclKind::Procedure(p) => p.type_params.clear(),
            DeclKind::Implementation(i) => i.type_params.clear(),
            _ => {}
        }
    }

    /// The equalities of `out[k]` between values of distinct ground types: `false` (`!=`:
    /// `true`), Boogie's meaning. Where a type stands for an arbitrary type (a polymorphic
    /// procedure's parameter, a fresh type of [`type_quant`]) the types may agree: then the
    /// equality is an uninterpreted predicate `$same$T$U(x, y)`, which every model of the two
    /// types satisfies (equality where they agree, false elsewhere): it decides nothing.
    fn distinct_type_equalities(&mut self, k: usize, uses: &[Instance]) {
        let mut values = Occurrences::default();
        for u in uses.iter().filter(|u| u.kind == InstanceKind::DistinctTypeEquality) {
            let arbitrary = |t: &Ty| self.generic.values().flatten().chain(&self.skolems).any(|g| mentions(t, g));
            let v = if u.tys[0].compatible(&u.tys[1]) {
                Equality::Kept
            } else if u.tys.iter().any(arbitrary) {
                Equality::Unknown(self.same_predicate(&u.tys[0], &u.tys[1]))
            } else {
                Equality::False
            };
            values.push(u.span, v);
        }
        if !values.is_empty() {
            literal_equalities(&mut self.out[k], &mut values);
        }
    }

    /// `function $same$T$U(x: T, y: U): bool;`, declared on first use.
    fn same_predicate(&mut self, a: &Ty, b: &Ty) -> Name {
        let key = (Name::from("$same"), vec![a.clone(), b.clone()]);
        if let Some(n) = self.instances.get(&key) {
            return n.clone();
        }
        let name = instance_name("$same", &key.1, &|n| self.taken.contains(n));
        self.taken.insert(name.clone());
        self.instances.insert(key, name.clone());
        let param = |x: &str, t: &Ty| FnParam { name: Some(Ident::new(x, Span::DUMMY)), ty: t.to_type() };
        let f = FunctionDecl {
            attrs: Vec::new(),
            name: Ident::new(name.clone(), Span::DUMMY),
            type_params: Vec::new(),
            params: vec![param("x", a), param("y", b)],
            result: FnParam { name: None, ty: Type::bool() },
            body: None,
        };
        self.out.push(Decl { kind: DeclKind::Function(f), span: Span::DUMMY });
        self.from_axiom.resize(self.out.len(), true);
        name
    }

    /// Whether the function instances that `uses` would add take the count past
    /// [`AXIOM_BUDGET`].
    fn over_budget(&self, uses: &[Instance]) -> bool {
        let new: HashSet<(&Name, &Vec<Ty>)> = uses
            .iter()
            .filter(|u| u.kind == InstanceKind::Use)
            .filter(|u| !self.instances.contains_key(&(u.name.clone(), u.tys.clone())))
            .filter(|u| self.generic.get(&u.name) != Some(&u.tys))
            .map(|u| (&u.name, &u.tys))
            .collect();
        !new.is_empty() && self.instances.len() + new.len() > AXIOM_BUDGET
    }

    /// The name of the instance `u` uses, created on first use; `None`: keep the name.
    fn instance(&mut self, u: &Instance, axiom: bool) -> Option<Name> {
        let key = (u.name.clone(), u.tys.clone());
        if let Some(n) = self.instances.get(&key) {
            return Some(n.clone());
        }
        if self.generic.get(&u.name) == Some(&u.tys) {
            return None;
        }
        if self.instances.len() >= MAX_INSTANCES {
            self.diags.push(
                Diagnostic::unsupported(
                    format!("more than {MAX_INSTANCES} instances of polymorphic functions and procedures"),
                    u.span,
                )
                .with_label("polymorphic recursion? this use needs another one"),
            );
            return None;
        }
        let name = instance_name(&u.name, &u.tys, &|n| self.taken.contains(n));
        self.taken.insert(name.clone());
        self.instances.insert(key, name.clone());
        let before = self.out.len();
        if let Some(&(f, span)) = self.funcs.get(&u.name) {
            let mut g = f.clone();
            g.type_params.clear();
            g.name.name = name.clone();
            let mut decl = Decl { kind: DeclKind::Function(g), span };
            substitute_types(&mut decl, &substitution(&f.type_params, &u.tys));
            self.push_ground(decl);
        } else if let Some(&(p, span)) = self.procs.get(&u.name) {
            self.proc_instance(p, span, &u.tys, &name);
        }
        self.from_axiom.resize(before, false);
        self.from_axiom.resize(self.out.len(), axiom);
        Some(name)
    }

    /// The instance `name` of procedure `p` at `tys`: the contract, and the body only where
    /// the procedure or an implementation is inlined (a body is verified once, generically).
    fn proc_instance(&mut self, p: &ProcedureDecl, span: Span, tys: &[Ty], name: &Name) {
        let inlined = |attrs: &[Attribute]| attrs.iter().any(|a| a.name.name == "inline");
        let mut q = p.clone();
        q.type_params.clear();
        q.name.name = name.clone();
        if !inlined(&p.attrs) {
            q.body = None;
        }
        let mut decl = Decl { kind: DeclKind::Procedure(q), span };
        substitute_types(&mut decl, &substitution(&p.type_params, tys));
        self.push_ground(decl);
        for &(i, span) in self.impls.get(&p.name.name).cloned().unwrap_or_default().iter() {
            if inlined(&p.attrs) || inlined(&i.attrs) {
                let mut j = i.clone();
                j.type_params.clear();
                j.name.name = name.clone();
                let mut decl = Decl { kind: DeclKind::Implementation(j), span };
                substitute_types(&mut decl, &substitution(&i.type_params, tys));
                self.push_ground(decl);
            }
        }
    }

    /// Instantiates the polymorphic axioms at the tuples of the program's ground types not done
    /// yet. Whether any instance was added.
    fn instantiate_axioms(&mut self) -> bool {
        let universe = self.universe();
        let mut added = false;
        for t in 0..self.axioms.len() {
            let n = self.axioms[t].params.len();
            for tys in tuples(&universe, n) {
                if self.axioms[t].done.len() >= MAX_AXIOM_INSTANCES {
                    break;
                }
                if !self.axioms[t].done.insert(tys.clone()) {
                    continue;
                }
                let a = &self.axioms[t];
                let mut expr = a.expr.clone();
                substitute_types(&mut expr, &substitution(&a.params, &tys));
                let (attrs, span) = (a.attrs.clone(), a.span);
                match split_type_quantifier(&expr) {
                    Some((params, expr)) => {
                        self.axioms.push(AxiomTemplate { params, expr, attrs, span, done: HashSet::new() })
                    }
                    None => {
                        self.push_ground(Decl { kind: DeclKind::Axiom(AxiomDecl { attrs, expr }), span });
                        self.from_axiom.resize(self.out.len(), true);
                    }
                }
                added = true;
            }
        }
        added
    }

    /// The ground types of the declarations that do not come from axiom instances, with their
    /// parts, `bool`, `int` and the fresh types of goals, in a fixed order.
    fn universe(&self) -> Vec<Ty> {
        struct Types<'e>(&'e GlobalEnv, Vec<Ty>, HashSet<Ty>);
        impl Types<'_> {
            fn add(&mut self, t: Ty) {
                // Not the polymorphic map types: an axiom instance at one may compare values of
                // it, which their encoding (`polymap`) keeps exact only outside quantifiers.
                if t.has_error() || t.has_param() || t.has_poly_map() || !self.2.insert(t.clone()) {
                    return;
                }
                match &t {
                    Ty::Ctor(_, args) => args.iter().for_each(|a| self.add(a.clone())),
                    Ty::Map(m) => {
                        m.args.iter().for_each(|a| self.add(a.clone()));
                        self.add(m.result.clone());
                    }
                    _ => {}
                }
                self.1.push(t);
            }
        }
        impl Visit for Types<'_> {
            fn visit_type(&mut self, t: &Type) {
                let ty = self.0.ty(t);
                self.add(ty);
                walk_type(self, t)
            }
        }
        let mut v = Types(&self.env, Vec::new(), HashSet::new());
        for (k, (d, axiom)) in self.out.iter().zip(&self.from_axiom).enumerate() {
            if !axiom {
                self.before_elim.get(&k).unwrap_or(d).accept(&mut v);
            }
        }
        // `bool` and `int`, which literals have without a written type, and the fresh types
        // of goals, which stand for arbitrary types: the axioms hold there too.
        for t in [Ty::Bool, Ty::Int].iter().chain(&self.skolems) {
            v.add(t.clone());
        }
        v.1
    }
}

/// The uninterpreted types `tys` as type parameters (at the spans of `params`): in the checker
/// a type parameter is the opaque type of its name, the same type as the declared one.
fn sort_idents(tys: &[Ty], params: &[Ident]) -> Vec<Ident> {
    tys.iter().zip(params).map(|(t, p)| Ident::new(t.to_string(), p.span)).collect()
}

/// Declares `type name;` (a fresh name from `base`) in `sorts`; the type.
fn new_sort(taken: &mut HashSet<Name>, base: &str, span: Span, sorts: &mut Vec<Decl>) -> Ty {
    let name = instance_name(base, &[], &|n| taken.contains(n));
    taken.insert(name.clone());
    let arbitrary = Attribute { name: Ident::new(polymap_common::ARBITRARY, span), args: Vec::new(), span };
    let td = TypeDecl {
        attrs: vec![arbitrary],
        finite: false,
        name: Ident::new(name.clone(), span),
        params: Vec::new(),
        synonym: None,
    };
    sorts.push(Decl { kind: DeclKind::Type(td), span });
    Ty::Ctor(name, std::sync::Arc::from([]))
}

/// Every tuple of `n` elements of `xs`, in order.
fn tuples(xs: &[Ty], n: usize) -> Vec<Vec<Ty>> {
    let mut out = vec![Vec::new()];
    for _ in 0..n {
        out = out.into_iter().flat_map(|t| xs.iter().map(move |x| [t.clone(), vec![x.clone()]].concat())).collect();
        if out.len() > MAX_AXIOM_INSTANCES {
            out.truncate(MAX_AXIOM_INSTANCES);
        }
    }
    out
}

/// Whether the ground type `g` occurs in `t`.
fn mentions(t: &Ty, g: &Ty) -> bool {
    t == g
        || match t {
            Ty::Ctor(_, xs) => xs.iter().any(|x| mentions(x, g)),
            Ty::Map(m) => mentions(&m.result, g) || m.args.iter().any(|x| mentions(x, g)),
            _ => false,
        }
}

/// What an equality at an instance becomes.
#[derive(Clone, PartialEq)]
enum Equality {
    /// Between values of one type: as it is.
    Kept,
    /// Between values of distinct types: `false`.
    False,
    /// Between values of types that may agree: this predicate of the two.
    Unknown(Name),
}

/// The equalities (`==`, `!=`) recorded in `values` replaced as [`Equality`] says (`!=`: the
/// negation).
fn literal_equalities(d: &mut Decl, values: &mut Occurrences<Span, Equality>) {
    struct Lit<'a>(&'a mut Occurrences<Span, Equality>);
    impl VisitMut for Lit<'_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            walk_expr_mut(self, e);
            let ExprKind::Binary(op @ (BinOp::Eq | BinOp::Neq), a, b) = &mut e.kind else { return };
            let eq = match self.0.next(&e.span) {
                Some(Equality::False) => Expr::new(ExprKind::BoolLit(false), e.span),
                Some(Equality::Unknown(f)) => {
                    let args = vec![
                        std::mem::replace(&mut **a, Expr::bool(true)),
                        std::mem::replace(&mut **b, Expr::bool(true)),
                    ];
                    Expr::new(ExprKind::Call(Ident::new(f.clone(), e.span), args), e.span)
                }
                _ => return,
            };
            *e = if *op == BinOp::Neq { Expr::not(eq) } else { eq };
        }
    }
    d.accept_mut(&mut Lit(values));
}

/// Renames the uses of polymorphic functions and procedures (by span and name) to instances.
fn rename(d: &mut Decl, renames: &mut Occurrences<(Span, Name), Option<Name>>) {
    struct Rename<'a>(&'a mut Occurrences<(Span, Name), Option<Name>>);
    impl VisitMut for Rename<'_> {
        fn visit_expr(&mut self, e: &mut Expr) {
            let span = e.span;
            if let ExprKind::Call(f, _) = &mut e.kind {
                if let Some(Some(n)) = self.0.next(&(span, f.name.clone())) {
                    f.name = n.clone();
                }
            }
            walk_expr_mut(self, e)
        }
        fn visit_stmt(&mut self, s: &mut Stmt) {
            let span = s.span;
            if let StmtKind::Call { proc, .. } = &mut s.kind {
                if let Some(Some(n)) = self.0.next(&(span, proc.name.clone())) {
                    proc.name = n.clone();
                }
            }
            walk_stmt_mut(self, s)
        }
    }
    d.accept_mut(&mut Rename(renames));
}
