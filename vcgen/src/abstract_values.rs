//! Value abstraction: bit-vector values that a program only stores, moves, compares for
//! equality and passes to uninterpreted functions become values of an uninterpreted sort (one
//! per width, `$value_bvW`); their literals become distinct constants of that sort.
//!
//! Why: the front end models floating-point values as 32- or 64-bit bit-vectors and their
//! arithmetic as uninterpreted functions (`FADD32`, `FMUL32`, …, as GPUVerify does: Betts et
//! al., "The Design and Implementation of a Verification Technique for GPU Kernels", TOPLAS
//! 2015, §5, floats as uninterpreted). Z3's bit-vector theory still gives every such term its
//! 32 Boolean variables, and with `smt.relevancy=0` decides them all before it finds the
//! conflict a race proof needs: on a FIR filter of 1,000 taps (`scripts/fir-scaling.py`) the
//! intra-group check made 394,024 Boolean variables and 424,161 decisions, 2.3 s of solver
//! time; with the float values of an uninterpreted sort it takes 0.1 s. Only classes whose
//! values never meet a bit-vector operation are abstracted, so the indices, sizes and loop
//! counters the race and divergence proofs reason about keep their bits.
//!
//! Soundness: a model of the bit-vector program is a model of the abstract one (the sort
//! interpreted as the 2^W bit-vectors, each literal constant as its value, the uninterpreted
//! functions as they were), so a VC valid in the abstraction is valid in the original: a
//! verdict "verified" carries over. The abstraction can only lose proofs that count the values
//! of a class (a class of `bv1` values has two); classes narrower than [`MIN_WIDTH`] bits are
//! left as they are. Map indices and the captured indices of accesses
//! ([`crate::wp::INDEX_CAPTURE`]) are never abstracted: counterexamples print them; nor are
//! thread ids and sizes (`{:local_id_x}`, …: `int` or `bvN` by the language's rules), nor a
//! `unique` constant: Boogie makes it differ from the other unique constants of its type only,
//! and abstracted it would also differ from the literals.
//!
//! How: a unification over the program's bit-vector "slots" (each `bvW` leaf of the declared
//! type of a constant, variable, function parameter or result, bound variable, and each
//! literal). Equalities, assignments, `if-then-else`, map reads and writes and applications of
//! uninterpreted functions unify the slots they connect; bit-vector built-ins, extraction,
//! concatenation, coercions, other operators and anything this pass does not model make their
//! slots' classes concrete. The walk runs twice with the same code: the first run collects the
//! classes, the second rewrites the declared types and the literals of abstract classes (its
//! own unification is thrown away; literals and bound variables are matched to the first run's
//! by the order the walk meets them, which is the same by construction).

use crate::desugar::VcInput;
use crate::HashMap;
use ivl::ast::*;
use ivl::blocks::BlockImpl;
use num_bigint::BigUint;
use std::collections::BTreeSet;

/// Classes of bit-vectors narrower than this stay bit-vectors (see the module doc).
pub const MIN_WIDTH: u32 = 8;

/// How a counterexample shows a value of an abstracted class: any value of its width.
pub const ANY_VALUE: &str = "any";

/// What the names this pass introduces start with.
const PREFIX: &str = "$value_bv";

/// The uninterpreted type standing for abstracted `bvW` values.
pub fn sort_name(width: u32) -> Name {
    Name::from(format!("{PREFIX}{width}"))
}

/// Whether `sort` (as Z3 prints it) is one of the abstract sorts.
pub fn is_abstract_sort(sort: &str) -> bool {
    sort.starts_with(PREFIX)
}

/// The constant standing for the literal `VALUEbvW` in abstracted values.
fn literal_name(width: u32, value: &BigUint) -> Name {
    Name::from(format!("{PREFIX}{width}_{value}"))
}

/// Rewrites the declarations of a program and its desugared implementations (`inputs`) so
/// that the bit-vector values no bit-vector operation reaches have an uninterpreted sort.
/// Bodies among `decls` (implementations, procedure bodies) are neither read nor rewritten:
/// the VC is built from `inputs`, and the engine reads those bodies only to identify Houdini's
/// candidates across runs (`crate::houdini::warm`). Returns the inputs unchanged when the
/// program has a construct the analysis does not model at all (a code expression, a
/// polymorphic function, procedure or quantifier) or a name the abstraction would take.
pub fn abstract_values(decls: Vec<Decl>, inputs: Vec<VcInput>) -> (Vec<Decl>, Vec<VcInput>) {
    let (mut decls, mut inputs) = (decls, inputs);
    // The first walk changes nothing (it has no classes to rewrite by).
    let mut first = Walker::default();
    first.program(&mut decls, &mut inputs);
    if first.bail || takes_our_names(&decls) {
        return (decls, inputs);
    }
    let solved = first.solve();
    if !solved.abstract_node.iter().any(|&a| a) {
        return (decls, inputs);
    }
    let mut second = Walker { replay: Some(Replay { solved, lits: 0, bound: 0 }), ..Walker::default() };
    second.program(&mut decls, &mut inputs);
    let mut out = second.introduced_decls();
    out.append(&mut decls);
    (out, inputs)
}

/// Whether the program already declares a name this pass would introduce.
fn takes_our_names(decls: &[Decl]) -> bool {
    decls.iter().any(|d| {
        let names: Vec<&Name> = match &d.kind {
            DeclKind::Type(t) => vec![&t.name.name],
            DeclKind::Const(c) => c.names.iter().map(|n| &n.name).collect(),
            _ => Vec::new(),
        };
        names.iter().any(|n| n.starts_with(PREFIX))
    })
}

/// The shape of a type, with a class for every bit-vector leaf.
#[derive(Clone, Debug)]
enum Shape {
    /// Booleans, integers, reals, named and polymorphic types: no class.
    Other,
    Bv(u32),
    Map(Vec<Shape>, Box<Shape>),
}

/// Union-find over the bit-vector slots.
#[derive(Default)]
struct Classes {
    parent: Vec<u32>,
    width: Vec<u32>,
    concrete: Vec<bool>,
}

impl Classes {
    fn fresh(&mut self, width: u32) -> u32 {
        let n = self.parent.len() as u32;
        self.parent.push(n);
        self.width.push(width);
        self.concrete.push(width < MIN_WIDTH);
        n
    }

    fn find(&mut self, mut n: u32) -> u32 {
        while self.parent[n as usize] != n {
            let grand = self.parent[self.parent[n as usize] as usize];
            self.parent[n as usize] = grand;
            n = grand;
        }
        n
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra as usize] = rb;
            let concrete = self.concrete[ra as usize] || self.width[ra as usize] != self.width[rb as usize];
            self.concrete[rb as usize] |= concrete;
        }
    }

    fn make_concrete(&mut self, s: &Shape) {
        match s {
            Shape::Other => {}
            Shape::Bv(n) => {
                let r = self.find(*n);
                self.concrete[r as usize] = true;
            }
            Shape::Map(args, result) => {
                args.iter().for_each(|a| self.make_concrete(a));
                self.make_concrete(result);
            }
        }
    }

    /// Unifies `a` and `b` position by position; lists of different lengths (arguments that
    /// do not fit a signature) make every class in them concrete.
    fn unify_all(&mut self, a: &[Shape], b: &[Shape]) {
        if a.len() != b.len() {
            a.iter().chain(b).for_each(|s| self.make_concrete(s));
            return;
        }
        a.iter().zip(b).for_each(|(x, y)| self.unify(x, y));
    }

    fn unify(&mut self, a: &Shape, b: &Shape) {
        match (a, b) {
            (Shape::Other, Shape::Other) => {}
            (Shape::Bv(x), Shape::Bv(y)) => self.union(*x, *y),
            (Shape::Map(a1, r1), Shape::Map(a2, r2)) if a1.len() == a2.len() => {
                self.unify_all(a1, a2);
                self.unify(r1, r2);
            }
            _ => {
                self.make_concrete(a);
                self.make_concrete(b);
            }
        }
    }
}

/// A function's slots.
#[derive(Clone)]
struct Signature {
    params: Vec<Shape>,
    result: Shape,
}

/// What the first walk found, for the second to rewrite by.
struct Solved {
    abstract_node: Vec<bool>,
    /// The class of each literal, in walk order.
    lits: Vec<u32>,
    /// The shape of each bound variable, in walk order.
    bound: Vec<Shape>,
    globals: HashMap<Name, Shape>,
    funcs: HashMap<Name, Signature>,
    procs: HashMap<Name, (Vec<Shape>, Vec<Shape>)>,
    /// Parameters and locals of each implementation, in input order.
    impls: Vec<HashMap<Name, Shape>>,
}

impl Solved {
    fn is_abstract(&self, s: &Shape) -> bool {
        matches!(s, Shape::Bv(n) if self.abstract_node[*n as usize])
    }
}

/// The second walk's position in the first walk's records.
struct Replay {
    solved: Solved,
    lits: usize,
    bound: usize,
}

#[derive(Default)]
struct Walker {
    classes: Classes,
    globals: HashMap<Name, Shape>,
    funcs: HashMap<Name, Signature>,
    procs: HashMap<Name, (Vec<Shape>, Vec<Shape>)>,
    locals: HashMap<Name, Shape>,
    bound: Vec<(Name, Shape)>,
    impls: Vec<HashMap<Name, Shape>>,
    lits: Vec<u32>,
    bound_shapes: Vec<Shape>,
    /// A construct the analysis does not model: leave the program as it is.
    bail: bool,
    /// Second walk only: the first walk's classes.
    replay: Option<Replay>,
    /// Second walk only: the abstract sorts and literal constants used.
    widths: BTreeSet<u32>,
    literals: BTreeSet<(u32, BigUint)>,
}

impl Walker {
    fn solve(mut self) -> Solved {
        let n = self.classes.parent.len() as u32;
        let abstract_node = (0..n)
            .map(|i| {
                let r = self.classes.find(i) as usize;
                !self.classes.concrete[r]
            })
            .collect();
        Solved {
            abstract_node,
            lits: self.lits,
            bound: self.bound_shapes,
            globals: self.globals,
            funcs: self.funcs,
            procs: self.procs,
            impls: self.impls,
        }
    }

    /// The shape of a declared type, with fresh classes; map indices are concrete.
    fn shape(&mut self, t: &Type) -> Shape {
        match &t.kind {
            TypeKind::Bv(w) => Shape::Bv(self.classes.fresh(*w)),
            TypeKind::Map { type_params, args, result } if type_params.is_empty() => {
                let args: Vec<Shape> = args.iter().map(|a| self.shape(a)).collect();
                args.iter().for_each(|a| self.classes.make_concrete(a));
                Shape::Map(args, Box::new(self.shape(result)))
            }
            _ => Shape::Other,
        }
    }

    /// Second walk: gives `t` the abstract sort where `s` (the first walk's shape) says so.
    fn rewrite_type(&mut self, t: &mut Type, s: &Shape) {
        let Some(r) = &self.replay else { return };
        match (&mut t.kind, s) {
            (TypeKind::Bv(w), Shape::Bv(_)) if r.solved.is_abstract(s) => {
                let w = *w;
                self.widths.insert(w);
                t.kind = TypeKind::Named(Ident::new(sort_name(w), t.span), Vec::new());
            }
            (TypeKind::Map { args, result, .. }, Shape::Map(sargs, sresult)) => {
                for (a, s) in args.iter_mut().zip(sargs) {
                    self.rewrite_type(a, s);
                }
                self.rewrite_type(result, sresult);
            }
            _ => {}
        }
    }

    /// The shapes of a list of typed names, rewritten (second walk) from `first`'s.
    fn typed_idents(&mut self, vars: &mut [TypedIdent], first: Option<&[Shape]>) -> Vec<Shape> {
        let shapes: Vec<Shape> = vars.iter().map(|v| self.shape(&v.ty)).collect();
        if let Some(first) = first {
            for (v, s) in vars.iter_mut().zip(first) {
                self.rewrite_type(&mut v.ty, s);
            }
        }
        shapes
    }

    fn program(&mut self, decls: &mut [Decl], inputs: &mut [VcInput]) {
        for d in decls.iter_mut() {
            self.signature(d);
        }
        for d in decls.iter_mut() {
            self.declaration(d);
        }
        for (k, input) in inputs.iter_mut().enumerate() {
            self.procedure_signature(&mut input.proc);
            self.implementation(k, &mut input.imp);
        }
    }

    /// Records the slots of a constant, global variable, function or procedure.
    fn signature(&mut self, d: &mut Decl) {
        match &mut d.kind {
            DeclKind::Const(c) => {
                let s = self.shape(&c.ty);
                // `unique` makes the constant differ from the other unique constants of its
                // type only; abstracted, it would also differ from the literal constants.
                // Thread ids and sizes (`{:local_id_x}`, …) are `int` or `bvN` by the
                // language's rules, and counterexamples print them.
                if c.unique || ivl::resolve::identity_attr(&c.attrs).is_some() {
                    self.classes.make_concrete(&s);
                }
                for n in &c.names {
                    self.globals.insert(n.name.clone(), s.clone());
                }
                let first =
                    self.replay.as_ref().and_then(|r| c.names.first().map(|n| r.solved.globals[&n.name].clone()));
                if let Some(f) = first {
                    self.rewrite_type(&mut c.ty, &f);
                }
            }
            DeclKind::Var(v) => {
                let first: Option<Vec<Shape>> = self
                    .replay
                    .as_ref()
                    .map(|r| v.vars.iter().map(|x| r.solved.globals[&x.name.name].clone()).collect());
                let shapes = self.typed_idents(&mut v.vars, first.as_deref());
                for (x, s) in v.vars.iter().zip(shapes) {
                    self.globals.insert(x.name.name.clone(), s);
                }
            }
            DeclKind::Function(f) => {
                if !f.type_params.is_empty() {
                    self.bail = true;
                }
                let sig = Signature {
                    params: f.params.iter().map(|p| self.shape(&p.ty)).collect(),
                    result: self.shape(&f.result.ty),
                };
                if has_attr(&f.attrs, "bvbuiltin") || has_attr(&f.attrs, "builtin") {
                    sig.params.iter().for_each(|p| self.classes.make_concrete(p));
                    self.classes.make_concrete(&sig.result);
                }
                if let Some(first) = self.replay.as_ref().map(|r| r.solved.funcs[&f.name.name].clone()) {
                    for (p, s) in f.params.iter_mut().zip(&first.params) {
                        self.rewrite_type(&mut p.ty, s);
                    }
                    self.rewrite_type(&mut f.result.ty, &first.result);
                }
                self.funcs.insert(f.name.name.clone(), sig);
            }
            DeclKind::Procedure(p) => self.procedure_signature(p),
            DeclKind::Type(_) | DeclKind::Axiom(_) | DeclKind::Implementation(_) => {}
        }
    }

    fn procedure_signature(&mut self, p: &mut ProcedureDecl) {
        if !p.type_params.is_empty() {
            self.bail = true;
        }
        let first = self.replay.as_ref().and_then(|r| r.solved.procs.get(&p.name.name).cloned());
        let ins = self.typed_idents(&mut p.ins, first.as_ref().map(|f| f.0.as_slice()));
        let outs = self.typed_idents(&mut p.outs, first.as_ref().map(|f| f.1.as_slice()));
        match self.procs.get(&p.name.name) {
            // The same procedure seen again (an input's copy): its slots are the same slots.
            Some((i0, o0)) => {
                self.classes.unify_all(i0, &ins);
                self.classes.unify_all(o0, &outs);
            }
            None => {
                self.procs.insert(p.name.name.clone(), (ins, outs));
            }
        }
    }

    /// The expressions of a declaration: function bodies, axioms, `where` clauses, contracts.
    fn declaration(&mut self, d: &mut Decl) {
        match &mut d.kind {
            DeclKind::Function(f) => {
                self.attrs(&mut f.attrs);
                if let Some(body) = &mut f.body {
                    let sig = self.funcs[&f.name.name].clone();
                    self.locals = f
                        .params
                        .iter()
                        .zip(&sig.params)
                        .filter_map(|(p, s)| Some((p.name.clone()?.name, s.clone())))
                        .collect();
                    let t = self.expr(body);
                    self.classes.unify(&t, &sig.result);
                    self.locals.clear();
                }
            }
            DeclKind::Axiom(a) => {
                self.attrs(&mut a.attrs);
                self.expr(&mut a.expr);
            }
            DeclKind::Const(c) => self.attrs(&mut c.attrs),
            DeclKind::Var(v) => {
                self.attrs(&mut v.attrs);
                for x in &mut v.vars {
                    self.attrs(&mut x.attrs);
                    if let Some(w) = &mut x.where_clause {
                        self.expr(w);
                    }
                }
            }
            DeclKind::Procedure(p) => {
                self.attrs(&mut p.attrs);
                let (ins, outs) = self.procs[&p.name.name].clone();
                self.locals = p
                    .ins
                    .iter()
                    .zip(&ins)
                    .chain(p.outs.iter().zip(&outs))
                    .map(|(v, s)| (v.name.name.clone(), s.clone()))
                    .collect();
                for c in &mut p.contracts {
                    self.attrs(&mut c.attrs);
                    self.expr(&mut c.expr);
                }
                self.locals.clear();
            }
            DeclKind::Type(_) | DeclKind::Implementation(_) => {}
        }
    }

    fn implementation(&mut self, k: usize, imp: &mut BlockImpl) {
        let first: Option<HashMap<Name, Shape>> = self.replay.as_ref().map(|r| r.solved.impls[k].clone());
        let mut locals = HashMap::default();
        for list in [&mut imp.ins, &mut imp.outs, &mut imp.locals] {
            let firsts: Option<Vec<Shape>> = first
                .as_ref()
                .map(|f| list.iter().map(|v| f.get(&v.name.name).cloned().unwrap_or(Shape::Other)).collect());
            let shapes = self.typed_idents(list, firsts.as_deref());
            for (v, s) in list.iter().zip(shapes) {
                locals.insert(v.name.name.clone(), s);
            }
        }
        // The implementation's parameters are its procedure's.
        if let Some((pins, pouts)) = self.procs.get(&imp.name.name) {
            let ins: Vec<Shape> = imp.ins.iter().map(|v| locals[&v.name.name].clone()).collect();
            let outs: Vec<Shape> = imp.outs.iter().map(|v| locals[&v.name.name].clone()).collect();
            self.classes.unify_all(pins, &ins);
            self.classes.unify_all(pouts, &outs);
        }
        self.locals = locals;
        self.attrs(&mut imp.attrs);
        for b in &mut imp.blocks {
            for s in &mut b.stmts {
                self.stmt(s);
            }
        }
        self.impls.push(std::mem::take(&mut self.locals));
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Assign { lhss, rhss } => {
                for (l, r) in lhss.iter_mut().zip(rhss.iter_mut()) {
                    let tl = self.lhs(l);
                    let tr = self.expr(r);
                    self.classes.unify(&tl, &tr);
                }
            }
            StmtKind::Assert { attrs, expr } | StmtKind::Assume { attrs, expr } => {
                self.attrs(attrs);
                self.expr(expr);
            }
            StmtKind::Havoc(_) | StmtKind::Label(_) => {}
            _ => self.bail = true,
        }
    }

    fn lhs(&mut self, l: &mut Lhs) -> Shape {
        let mut t = self.var(&l.var.name);
        for idx in &mut l.indices {
            t = self.select(t, idx);
        }
        t
    }

    fn var(&self, name: &str) -> Shape {
        if let Some((_, s)) = self.bound.iter().rev().find(|(n, _)| n == name) {
            return s.clone();
        }
        self.locals.get(name).or_else(|| self.globals.get(name)).cloned().unwrap_or(Shape::Other)
    }

    fn attrs(&mut self, attrs: &mut [Attribute]) {
        for a in attrs {
            let index = a.name.as_str() == crate::wp::CAPTURE_ATTR
                && matches!(a.args.first(), Some(AttrArg::String(l, _)) if l.starts_with(crate::wp::INDEX_CAPTURE));
            for arg in &mut a.args {
                if let AttrArg::Expr(e) = arg {
                    let t = self.expr(e);
                    if index {
                        self.classes.make_concrete(&t);
                    }
                }
            }
        }
    }

    /// `m[idx]`: the element's shape, with the indices unified with the map's.
    fn select(&mut self, m: Shape, idx: &mut [Expr]) -> Shape {
        let ts: Vec<Shape> = idx.iter_mut().map(|i| self.expr(i)).collect();
        match m {
            Shape::Map(args, result) if args.len() == ts.len() => {
                self.classes.unify_all(&args, &ts);
                *result
            }
            other => {
                self.classes.make_concrete(&other);
                ts.iter().for_each(|t| self.classes.make_concrete(t));
                Shape::Other
            }
        }
    }

    /// A literal: a fresh class; in the second walk, the constant of its class if abstract.
    fn literal(&mut self, e: &mut Expr, width: u32, value: &BigUint) -> Shape {
        let n = self.classes.fresh(width);
        match &mut self.replay {
            None => self.lits.push(n),
            Some(r) => {
                let first = r.solved.lits[r.lits];
                r.lits += 1;
                if r.solved.abstract_node[first as usize] {
                    self.widths.insert(width);
                    self.literals.insert((width, value.clone()));
                    e.kind = ExprKind::Var(Ident::new(literal_name(width, value), e.span));
                }
            }
        }
        Shape::Bv(n)
    }

    fn expr(&mut self, e: &mut Expr) -> Shape {
        if let ExprKind::BvLit { value, width } = &e.kind {
            let (value, width) = (value.clone(), *width);
            return self.literal(e, width, &value);
        }
        match &mut e.kind {
            ExprKind::BoolLit(_) | ExprKind::IntLit(_) | ExprKind::RealLit(_) | ExprKind::BvLit { .. } => Shape::Other,
            ExprKind::Var(id) => self.var(&id.name),
            ExprKind::Old(x) => self.expr(x),
            ExprKind::Unary(op, x) => {
                let t = self.expr(x);
                if *op == UnOp::Neg {
                    self.classes.make_concrete(&t);
                }
                Shape::Other
            }
            ExprKind::Binary(op, a, b) => {
                let (ta, tb) = (self.expr(a), self.expr(b));
                match op {
                    BinOp::Eq | BinOp::Neq => self.classes.unify(&ta, &tb),
                    BinOp::Iff | BinOp::Implies | BinOp::Explies | BinOp::Or | BinOp::And => {}
                    _ => {
                        self.classes.make_concrete(&ta);
                        self.classes.make_concrete(&tb);
                    }
                }
                Shape::Other
            }
            ExprKind::Call(f, args) => {
                let ts: Vec<Shape> = args.iter_mut().map(|a| self.expr(a)).collect();
                // Borrowed, not cloned: this runs for every application in the program.
                match self.funcs.get(&f.name) {
                    Some(sig) => {
                        self.classes.unify_all(&sig.params, &ts);
                        sig.result.clone()
                    }
                    None => {
                        ts.iter().for_each(|t| self.classes.make_concrete(t));
                        Shape::Other
                    }
                }
            }
            ExprKind::Select(m, idx) => {
                let tm = self.expr(m);
                self.select(tm, idx)
            }
            ExprKind::Store(m, idx, v) => {
                let tm = self.expr(m);
                let elem = self.select(tm.clone(), idx);
                let tv = self.expr(v);
                self.classes.unify(&elem, &tv);
                tm
            }
            ExprKind::Extract(x, _, _) | ExprKind::Coerce(x, _) => {
                let t = self.expr(x);
                self.classes.make_concrete(&t);
                Shape::Other
            }
            ExprKind::IfThenElse(c, a, b) => {
                self.expr(c);
                let (ta, tb) = (self.expr(a), self.expr(b));
                self.classes.unify(&ta, &tb);
                ta
            }
            ExprKind::Quant(q) => self.quantifier(q),
            ExprKind::Let(l) => {
                let ts: Vec<Shape> = l.values.iter_mut().map(|v| self.expr(v)).collect();
                let depth = self.bound.len();
                self.bound.extend(l.vars.iter().map(|v| v.name.clone()).zip(ts));
                let t = self.expr(&mut l.body);
                self.bound.truncate(depth);
                t
            }
            ExprKind::Code(_) => {
                self.bail = true;
                Shape::Other
            }
        }
    }

    fn quantifier(&mut self, q: &mut Quantifier) -> Shape {
        if !q.type_params.is_empty() {
            self.bail = true;
        }
        let depth = self.bound.len();
        let mut shapes = Vec::new();
        for v in &mut q.vars {
            let s = self.shape(&v.ty);
            match &mut self.replay {
                None => self.bound_shapes.push(s.clone()),
                Some(r) => {
                    let first = r.solved.bound[r.bound].clone();
                    r.bound += 1;
                    self.rewrite_type(&mut v.ty, &first);
                }
            }
            self.bound.push((v.name.name.clone(), s.clone()));
            shapes.push(s);
        }
        for v in &mut q.vars {
            self.attrs(&mut v.attrs);
            if let Some(w) = &mut v.where_clause {
                self.expr(w);
            }
        }
        self.attrs(&mut q.attrs);
        for t in &mut q.triggers {
            for e in &mut t.exprs {
                self.expr(e);
            }
        }
        let body = self.expr(&mut q.body);
        self.bound.truncate(depth);
        match q.kind {
            QuantKind::Lambda => Shape::Map(shapes, Box::new(body)),
            QuantKind::Forall | QuantKind::Exists => Shape::Other,
        }
    }

    /// Second walk: the declarations of the abstract sorts and of the literal constants used.
    fn introduced_decls(&self) -> Vec<Decl> {
        let span = Span::DUMMY;
        let mut out: Vec<Decl> = self
            .widths
            .iter()
            .map(|&w| Decl {
                kind: DeclKind::Type(TypeDecl {
                    attrs: Vec::new(),
                    finite: false,
                    name: Ident::new(sort_name(w), span),
                    params: Vec::new(),
                    synonym: None,
                }),
                span,
            })
            .collect();
        for &w in &self.widths {
            let names: Vec<Ident> = self
                .literals
                .iter()
                .filter(|(lw, _)| *lw == w)
                .map(|(_, v)| Ident::new(literal_name(w, v), span))
                .collect();
            if names.is_empty() {
                continue;
            }
            out.push(Decl {
                kind: DeclKind::Const(ConstDecl {
                    attrs: Vec::new(),
                    unique: true,
                    names,
                    ty: Type::new(TypeKind::Named(Ident::new(sort_name(w), span), Vec::new()), span),
                    order_spec: None,
                }),
                span,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{prepare, verify_program, Outcome, VerifyOptions};

    fn program(src: &str) -> ivl::ast::Program {
        let (program, diags) = ivl::parser::parse_program(src);
        assert!(diags.is_empty(), "{diags:?}");
        let diags = ivl::check::check_program(&program);
        assert!(diags.iter().all(|d| !d.kind.is_input_error()), "{diags:?}");
        program
    }

    /// The desugared program as `verify` goes on with it.
    fn abstracted(src: &str) -> String {
        let p = program(src);
        let prepared = prepare(&p, &VerifyOptions::default()).unwrap();
        ivl::printer::print_program(&prepared.desugared_program())
    }

    /// Each implementation's outcome, with and without the abstraction.
    fn outcomes(src: &str) -> [Vec<&'static str>; 2] {
        [true, false].map(|abstract_values| {
            let opts = VerifyOptions { jobs: 1, abstract_values, ..Default::default() };
            let r = verify_program(&program(src), &opts);
            assert!(r.errors.is_empty(), "{:?}", r.errors);
            r.impls
                .iter()
                .map(|i| match i.outcome {
                    Outcome::Verified => "verified",
                    Outcome::Errors(_) => "errors",
                    Outcome::Inconclusive(_) => "inconclusive",
                })
                .collect()
        })
    }

    const FLOATS: &str = "
        function FADD32(bv32, bv32): bv32;
        function {:bvbuiltin \"bvadd\"} ADD(bv32, bv32): bv32;
        function {:bvbuiltin \"bvult\"} LT(bv32, bv32): bool;
        var A: [bv32]bv32;
        procedure p(i: bv32, x: bv32, flag: bv1) modifies A; {
            A[ADD(i, 1bv32)] := FADD32(x, 5bv32);
            assert LT(i, ADD(i, 1bv32)) || i == 4294967295bv32;
            assert flag == 0bv1 || flag == 1bv1;
        }";

    #[test]
    fn values_only_uninterpreted_functions_see_get_the_abstract_sort() {
        let out = abstracted(FLOATS);
        assert!(out.contains("type $value_bv32;"), "{out}");
        assert!(out.contains("function FADD32($value_bv32, $value_bv32): $value_bv32;"), "{out}");
        assert!(out.contains("A: [bv32]$value_bv32"), "{out}");
        assert!(out.contains("const unique $value_bv32_5: $value_bv32;"), "{out}");
        // Indices, operands of built-ins and their literals keep their bits; so does a `bv1`.
        assert!(out.contains("function {:bvbuiltin \"bvadd\"} ADD(bv32, bv32): bv32;"), "{out}");
        assert!(out.contains("ADD(i, 1bv32)"), "{out}");
        assert!(out.contains("4294967295bv32"), "{out}");
        assert!(out.contains("flag: bv1"), "{out}");
        assert!(out.contains("x: $value_bv32"), "{out}");
        assert!(out.contains("i: bv32"), "{out}");
    }

    #[test]
    fn the_abstraction_can_be_turned_off() {
        let p = program(FLOATS);
        let opts = VerifyOptions { abstract_values: false, ..Default::default() };
        let out = ivl::printer::print_program(&prepare(&p, &opts).unwrap().desugared_program());
        assert!(!out.contains("$value_bv"), "{out}");
    }

    #[test]
    fn a_bit_operation_anywhere_keeps_the_whole_class_precise() {
        // `x` is extracted from, so the second parameter of `FADD32` (which `x` is passed to)
        // keeps its bits; the first parameter and the result are another class.
        let src = "
            function FADD32(bv32, bv32): bv32;
            procedure p(x: bv32, y: bv32) returns (r: bv8, s: bv32) {
                r := x[8:0];
                s := FADD32(y, x);
            }";
        let out = abstracted(src);
        assert!(out.contains("function FADD32($value_bv32, bv32): $value_bv32;"), "{out}");
        assert!(out.contains("x: bv32"), "{out}");
        assert!(out.contains("s: $value_bv32"), "{out}");
    }

    #[test]
    fn verdicts_are_those_of_the_bit_precise_encoding() {
        // Distinct literals stay distinct; equal ones are one constant; uninterpreted
        // functions keep congruence and nothing more.
        let src = "
            function FADD32(bv32, bv32): bv32;
            function {:bvbuiltin \"bvadd\"} ADD(bv32, bv32): bv32;
            procedure distinct(x: bv32) { assume x == 1065353216bv32; assert x != 1073741824bv32; }
            procedure same(x: bv32, y: bv32) { assume x == 7bv32 && y == 7bv32; assert FADD32(x, y) == FADD32(y, x); }
            procedure commutes(x: bv32, y: bv32) { assert FADD32(x, y) == FADD32(y, x); }
            procedure congruence(x: bv32, y: bv32) { assume x == y; assert FADD32(x, 1bv32) == FADD32(y, 1bv32); }
            procedure bits(x: bv32) { assert ADD(x, 0bv32) == x; }
            const unique u: bv32;
            procedure unique_is_not_a_literal() { assert u != 5bv32; }
            procedure copy(m: [bv32]bv32, i: bv32, j: bv32) { assume i == j; assert m[i] == m[j]; }";
        let [abstracted, precise] = outcomes(src);
        assert_eq!(precise, ["verified", "verified", "errors", "verified", "verified", "errors", "verified"]);
        assert_eq!(abstracted, precise);
    }
}
