//! The thread grid of the two-thread program: which constants are the thread identity, how big
//! the groups and the grid are, and the preconditions that make the two modelled threads two
//! arbitrary, distinct, in-range threads (seed 001 §4.1.4, "Introduction of distinct thread
//! ids"; docs/kbpl.md §4 "Thread identity").
//!
//! Identity constants are found by their attribute (`{:local_id_x}` …), whatever their name and
//! type (`int` or `bvN`, as the frontend chose). A dimension the kernel never mentions still
//! exists — two threads that differ only in `local_id_y` are distinct — so missing identity
//! constants are made up (fresh names, the type of the dimension's other constants, else `int`)
//! and constrained like the declared ones.
//!
//! Sizes come from `--local-size` / `--num-groups` (dimensions not given are 1), from the
//! file's own axioms, or are symbolic (any positive value). Every fact here is stated as a
//! precondition of the two-thread kernel, never as an axiom: the program holds the same-group
//! and the different-groups variants side by side, and an inconsistency of one variant must
//! not make the other vacuous.

use super::exprs::{bin, lit_of, var};
use ivl::ast::*;
use ivl::diag::Diagnostic;
use ivl::resolve::identity_attr;
use std::collections::{BTreeMap, HashMap};

pub(crate) use crate::sizes::{Sizes, DIMS};

/// One identity constant.
#[derive(Clone, Debug)]
pub(crate) struct IdConst {
    pub name: Name,
    pub ty: Type,
}

/// The identity constants of a program, by attribute (`"local_id_x"` …).
#[derive(Clone, Debug)]
pub(crate) struct Identity {
    pub consts: BTreeMap<&'static str, IdConst>,
    /// `bvult` functions per bit-vector width: existing `{:bvbuiltin "bvult"}` ones or new.
    pub bvult: HashMap<u32, Name>,
    /// Declarations to add (made-up constants, new `bvult` functions).
    pub decls: Vec<Decl>,
}

fn attr_name(kind: &str, d: &str) -> &'static str {
    let all: [&'static str; 12] = [
        "local_id_x",
        "local_id_y",
        "local_id_z",
        "group_id_x",
        "group_id_y",
        "group_id_z",
        "group_size_x",
        "group_size_y",
        "group_size_z",
        "num_groups_x",
        "num_groups_y",
        "num_groups_z",
    ];
    all.into_iter().find(|a| a.starts_with(kind) && a.ends_with(d)).expect("an identity attribute")
}

pub(crate) fn local_id(d: &str) -> &'static str {
    attr_name("local_id_", d)
}
pub(crate) fn group_id(d: &str) -> &'static str {
    attr_name("group_id_", d)
}
pub(crate) fn group_size(d: &str) -> &'static str {
    attr_name("group_size_", d)
}
pub(crate) fn num_groups(d: &str) -> &'static str {
    attr_name("num_groups_", d)
}

/// An existing `{:bvbuiltin "op"}` function over two `bvW` arguments with result type `result`.
fn existing_bv_builtin(p: &Program, op: &str, w: u32, result: &Type) -> Option<Name> {
    p.decls.iter().find_map(|d| match &d.kind {
        DeclKind::Function(f) => {
            let is_op = matches!(
                find_attr(&f.attrs, "bvbuiltin").and_then(|a| a.args.first()),
                Some(AttrArg::String(s, _)) if s == op
            );
            let bv = |t: &Type| t.kind == TypeKind::Bv(w);
            (is_op && f.params.len() == 2 && f.params.iter().all(|p| bv(&p.ty)) && f.result.ty.kind == result.kind)
                .then(|| f.name.name.clone())
        }
        _ => None,
    })
}

impl Identity {
    /// Finds the identity constants of `p` and makes up the missing ones.
    pub fn of(p: &Program, names: &mut crate::predication::FreshNames) -> Result<Identity, Vec<Diagnostic>> {
        let mut consts: BTreeMap<&'static str, IdConst> = BTreeMap::new();
        let mut diags = Vec::new();
        for d in &p.decls {
            let DeclKind::Const(c) = &d.kind else { continue };
            let Some((attr, _)) = identity_attr(&c.attrs) else { continue };
            if !matches!(c.ty.kind, TypeKind::Int | TypeKind::Bv(_)) {
                diags.push(Diagnostic::unsupported(
                    format!("the thread identity constant `{}` must be `int` or a bit-vector", c.names[0].name),
                    c.ty.span,
                ));
                continue;
            }
            for n in &c.names {
                if let Some(prev) = consts.get(attr) {
                    diags.push(Diagnostic::unsupported(
                        format!(
                            "two constants carry `{{:{attr}}}` (`{}` and `{}`); a kernel has one of each",
                            prev.name, n.name
                        ),
                        n.span,
                    ));
                    continue;
                }
                consts.insert(attr, IdConst { name: n.name.clone(), ty: c.ty.clone() });
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        let mut decls = Vec::new();
        for d in DIMS {
            let group = [local_id(d), group_size(d), group_id(d), num_groups(d)];
            let ty = group.iter().find_map(|a| consts.get(a).map(|c| c.ty.clone())).unwrap_or_else(Type::int);
            for a in group {
                if consts.contains_key(a) {
                    continue;
                }
                let name = names.fresh(a);
                decls.push(const_decl(&name, &ty, Some(a)));
                consts.insert(a, IdConst { name, ty: ty.clone() });
            }
            // Ids and sizes of one dimension are compared: they must have one type.
            for (id, size) in [(local_id(d), group_size(d)), (group_id(d), num_groups(d))] {
                let (a, b) = (&consts[id], &consts[size]);
                if a.ty.kind != b.ty.kind {
                    diags.push(Diagnostic::unsupported(
                        format!("`{}` ({{:{id}}}) and `{}` ({{:{size}}}) must have the same type", a.name, b.name),
                        Span::DUMMY,
                    ));
                }
            }
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        let mut bvult = HashMap::new();
        for c in consts.values() {
            if let TypeKind::Bv(w) = c.ty.kind {
                if bvult.contains_key(&w) {
                    continue;
                }
                let f = bv_builtin(p, "bvult", w, &Type::bool(), names, &mut decls);
                bvult.insert(w, f);
            }
        }
        Ok(Identity { consts, bvult, decls })
    }

    pub fn name(&self, attr: &str) -> &Name {
        &self.consts[attr].name
    }

    fn var(&self, attr: &str) -> Expr {
        var(self.name(attr))
    }

    pub(crate) fn ty(&self, attr: &str) -> &Type {
        &self.consts[attr].ty
    }

    /// `a < b` in the type of identity constant `attr` (unsigned for bit-vectors).
    fn lt(&self, attr: &str, a: Expr, b: Expr) -> Expr {
        match self.ty(attr).kind {
            TypeKind::Bv(w) => {
                Expr::new(ExprKind::Call(Ident::new(self.bvult[&w].clone(), Span::DUMMY), vec![a, b]), Span::DUMMY)
            }
            _ => bin(BinOp::Lt, a, b),
        }
    }

    fn lit(&self, attr: &str, v: u64) -> Result<Expr, Diagnostic> {
        lit_of(self.ty(attr), v)
    }

    /// Per-thread identity constants: `local_id_*`, and `group_id_*` when the threads may be in
    /// different groups.
    pub fn per_thread(&self, inter_group: bool) -> Vec<(&'static str, &IdConst)> {
        self.consts
            .iter()
            .filter(|(a, _)| a.starts_with("local_id_") || (inter_group && a.starts_with("group_id_")))
            .map(|(a, c)| (*a, c))
            .collect()
    }

    /// Facts about the sizes (the same in every thread): positive, and as fixed by `sizes`.
    pub fn uniform_facts(&self, sizes: &Sizes) -> Result<Vec<Expr>, Diagnostic> {
        let mut out = Vec::new();
        for (i, d) in DIMS.iter().enumerate() {
            for (attr, fixed) in [(group_size(d), sizes.local), (num_groups(d), sizes.groups)] {
                let zero = self.lit(attr, 0)?;
                out.push(self.lt(attr, zero, self.var(attr)));
                if let Some(v) = fixed {
                    out.push(Expr::eq(self.var(attr), self.lit(attr, v[i])?));
                }
            }
        }
        Ok(out)
    }

    /// Facts about one thread (before renaming to a thread's copies): its ids are in range.
    pub fn thread_facts(&self) -> Result<Vec<Expr>, Diagnostic> {
        let mut out = Vec::new();
        for d in DIMS {
            for (id, size) in [(local_id(d), group_size(d)), (group_id(d), num_groups(d))] {
                out.extend(self.in_range(id, size)?);
            }
        }
        Ok(out)
    }

    /// `0 <= id && id < size` over the constants with attributes `id` and `size`, as a list
    /// of conjuncts (for bit-vectors the unsigned `id < size` alone: it implies the lower bound).
    fn in_range(&self, id: &str, size: &str) -> Result<Vec<Expr>, Diagnostic> {
        let mut out = Vec::new();
        if matches!(self.ty(id).kind, TypeKind::Int) {
            out.push(bin(BinOp::Le, self.lit(id, 0)?, self.var(id)));
        }
        out.push(self.lt(id, self.var(id), self.var(size)));
        Ok(out)
    }

    /// "`local_id_x` is the x id of a thread of the group", over the unrenamed `local_id_x`:
    /// substituting an expression `e` for it says that `e` names a real thread. A barrier
    /// invariant is checked only for real threads, so it may be assumed for an instantiation
    /// `{:instantiate e}` only under this condition (seed 001 §4.4).
    pub fn local_id_x_valid(&self) -> Result<Expr, Diagnostic> {
        let parts = self.in_range(local_id("x"), group_size("x"))?;
        Ok(parts.into_iter().reduce(Expr::and).expect("an upper bound"))
    }

    /// `c$1 != c$2 || …` over the given attributes, with `copy(name, t)` naming thread t's copy.
    pub fn differ(&self, attrs: &[&str], copy: &dyn Fn(&Name, usize) -> Name) -> Expr {
        attrs
            .iter()
            .map(|a| bin(BinOp::Neq, var(&copy(self.name(a), 0)), var(&copy(self.name(a), 1))))
            .reduce(Expr::or)
            .expect("three dimensions")
    }

    /// Threads of different groups have different global ids, `gid * gsz + lid != gid' * gsz +
    /// lid'` per `int` dimension: implied by the ranges, but nonlinear, so the solver gets it
    /// as a fact (kernels index global memory this way). Not for bit-vectors, which can wrap.
    pub fn global_ids_differ(&self, copy: &dyn Fn(&Name, usize) -> Name) -> Vec<Expr> {
        let mut out = Vec::new();
        for d in DIMS {
            let (lid, gid, gsz) = (self.name(local_id(d)), self.name(group_id(d)), self.name(group_size(d)));
            if !matches!(self.ty(local_id(d)).kind, TypeKind::Int) {
                continue;
            }
            let global = |t: usize| bin(BinOp::Add, bin(BinOp::Mul, var(&copy(gid, t)), var(gsz)), var(&copy(lid, t)));
            out.push(Expr::implies(
                bin(BinOp::Neq, var(&copy(gid, 0)), var(&copy(gid, 1))),
                bin(BinOp::Neq, global(0), global(1)),
            ));
        }
        out
    }

    /// "The two threads are in the same warp of `n` threads" (`--warp-sync n`, GPUVerify's
    /// `ThreadsInSameWarp`): their linear local ids `x + y * size_x + z * size_x * size_y`,
    /// divided by `n`, are equal. The two threads are in one group (the intra-group variant).
    /// Over bit-vectors the arithmetic is `bvadd`/`bvmul`/`bvudiv` (declared in `decls` when
    /// the program has none); the linear id of a real group fits (sizes are bounded by the
    /// hardware, 1024 threads a group).
    pub fn same_warp(
        &self,
        p: &Program,
        n: u64,
        copy: &dyn Fn(&Name, usize) -> Name,
        names: &mut crate::predication::FreshNames,
        decls: &mut Vec<Decl>,
    ) -> Result<Expr, Diagnostic> {
        let ty = self.ty(local_id("x")).clone();
        if DIMS.iter().any(|d| self.ty(local_id(d)).kind != ty.kind) {
            return Err(Diagnostic::unsupported(
                "`--warp-sync` needs the local ids of all dimensions to have one type",
                Span::DUMMY,
            ));
        }
        let op = |o: &str, int_op: BinOp, names: &mut crate::predication::FreshNames, decls: &mut Vec<Decl>| {
            let f = match ty.kind {
                TypeKind::Bv(w) => Some(bv_builtin(p, o, w, &ty, names, decls)),
                _ => None,
            };
            move |a: Expr, b: Expr| match &f {
                Some(f) => Expr::new(ExprKind::Call(Ident::new(f.clone(), Span::DUMMY), vec![a, b]), Span::DUMMY),
                None => bin(int_op, a, b),
            }
        };
        let add = op("bvadd", BinOp::Add, names, decls);
        let mul = op("bvmul", BinOp::Mul, names, decls);
        let div = op("bvudiv", BinOp::Div, names, decls);
        let size = |d: &str| self.var(group_size(d));
        let warp = |t: usize| {
            let id = |d: &str| var(&copy(self.name(local_id(d)), t));
            let sxy = mul(size("x"), size("y"));
            add(id("x"), add(mul(id("y"), size("x")), mul(id("z"), sxy)))
        };
        let n = lit_of(&ty, n)?;
        Ok(Expr::eq(div(warp(0), n.clone()), div(warp(1), n)))
    }

    /// `group_size_x == 1 && group_size_y == 1 && group_size_z == 1`: a group of one thread.
    pub fn one_thread_groups(&self) -> Result<Expr, Diagnostic> {
        let mut parts = Vec::new();
        for d in DIMS {
            parts.push(Expr::eq(self.var(group_size(d)), self.lit(group_size(d), 1)?));
        }
        Ok(parts.into_iter().reduce(Expr::and).expect("three dimensions"))
    }
}

pub(crate) fn const_decl(name: &Name, ty: &Type, attr: Option<&str>) -> Decl {
    let attrs = attr
        .map(|a| vec![Attribute { name: Ident::new(a, Span::DUMMY), args: vec![], span: Span::DUMMY }])
        .unwrap_or_default();
    Decl {
        kind: DeclKind::Const(ConstDecl {
            attrs,
            unique: false,
            names: vec![Ident::new(name.clone(), Span::DUMMY)],
            ty: ty.clone(),
            order_spec: None,
        }),
        span: Span::DUMMY,
    }
}

/// The `{:bvbuiltin "op"}` function over two `bvW` arguments with result type `result`: the
/// program's own, else a new one declared in `decls`.
fn bv_builtin(
    p: &Program,
    op: &str,
    w: u32,
    result: &Type,
    names: &mut crate::predication::FreshNames,
    decls: &mut Vec<Decl>,
) -> Name {
    if let Some(f) = existing_bv_builtin(p, op, w, result) {
        return f;
    }
    let f = names.fresh(&format!("$kivl_{op}{w}"));
    decls.push(bv_builtin_decl(&f, op, w, result.clone()));
    f
}

fn bv_builtin_decl(name: &Name, op: &str, w: u32, result: Type) -> Decl {
    let p = |ty: Type| FnParam { name: None, ty };
    Decl {
        kind: DeclKind::Function(FunctionDecl {
            attrs: vec![Attribute {
                name: Ident::new("bvbuiltin", Span::DUMMY),
                args: vec![AttrArg::String(op.into(), Span::DUMMY)],
                span: Span::DUMMY,
            }],
            name: Ident::new(name.clone(), Span::DUMMY),
            type_params: vec![],
            params: vec![p(Type::bv(w)), p(Type::bv(w))],
            result: p(result),
            body: None,
        }),
        span: Span::DUMMY,
    }
}
