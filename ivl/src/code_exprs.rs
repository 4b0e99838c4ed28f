//! Boogie's code expressions `|{ var x: T; A: S1 .. Sn goto B, C; B: .. return e; }|`:
//! elimination (their type checking is part of [`crate::typeck`]).
//!
//! A code expression is a `bool` given by an acyclic graph of blocks of simple statements
//! (Boogie 2's `CodeExpr`, `SpecBlock`: `assert`, `assume`, assignments, `havoc`, `call`), the
//! first block its entry, each block ending in `goto L1, ..;` or `return e;` (`e: bool`).
//! Its locals are scoped to it. kivl checks it as written (in [`crate::typeck`]) and then, before any
//! other pass, replaces it by a formula ([`eliminate`], called from the front end next to
//! [`crate::lets::eliminate`]), so that no later stage sees one.
//!
//! **Meaning (Boogie 2.4.1's `CodeExprConversionClosure` and `LetVC`).** Boogie passifies the
//! blocks and takes the weakest precondition of the graph: a block's value is that of its
//! statements in front of its successors' (`goto` is the conjunction over the targets,
//! `return e` is `e`), `assert c` gives `c && N`, `assume a` gives `a ==> N`, an assignment is a
//! fresh incarnation equal to its value (here: substitution) and `havoc` a fresh incarnation;
//! the locals and incarnations are quantified universally around the whole. Which reading is
//! taken depends on the *polarity* Boogie's translator tracks (its `isPositiveContext`: flipped
//! under `!`, in the left operand of `==>`, and for the expression of an `assert`):
//! - where the expression is proved (an `assert`'s expression, not under a flip): the value
//!   is `(forall locals :: W)`, with `return e` read as `e`;
//! - elsewhere (an `assume`, the right-hand side of an assignment, which passification turns
//!   into an assumption, and under an odd number of flips inside an `assert`): the value is
//!   `!(forall locals :: W')`, with `return e` read as `!e` — the dual, which differs from the
//!   first only for a code expression whose paths do not determine its value.
//!
//! Expressions inside the blocks keep Boogie's flips (an `assert` inside flips its expression),
//! so nested code expressions get the reading Boogie gives them.
//!
//! **Calls** inside a code expression are inlined as Boogie's inliner does for them (a fresh
//! `Inliner` per code expression, Boogie's `/inline:assume`): a procedure with an integer
//! `{:inline N}` (on the procedure, which wins, or on its implementation) and one body is
//! copied with fresh names: in-parameters bound to the arguments, non-free `requires` asserted,
//! non-free `ensures` asserted (`{:assume}` ones assumed), the outputs copied back; each
//! procedure's depth is counted along the chain of inlined calls and a call past it is
//! `assume false`.
//!
//! **Refused (located `unsupported`, never a silent change):** a code expression anywhere but
//! in the expression of an `assert` or `assume` or the right-hand side of an assignment of a
//! procedure body (contracts, invariants, conditions and arguments are used in both polarities
//! after desugaring, and so is an `assert` leading a labelled block of a body with `goto`,
//! which is a loop invariant if the block heads a loop); inside a lambda (Boogie lifts it to an
//! axiom), a trigger or an attribute; a cycle among its blocks (Boogie 2.4.1 has no loop rule for them); a call
//! of a procedure that is not inlined, past `--inline-depth` or polymorphic; an assignment or
//! `havoc` of a variable that is not one of its locals (or of an inlined copy), so that global
//! state never changes inside one (which also makes an inlined callee's `old(e)` equal to `e`);
//! `where` clauses on its locals.

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::visit::{all_names, free_vars, fresh_name, substitute, walk_expr_mut, Node, VisitMut};
use std::collections::{HashMap, HashSet};

/// Replaces every code expression of the program by its formula (module documentation), or
/// reports where that cannot be done exactly. Procedures are read from the program as given
/// (their own code expressions are eliminated where they are inlined).
pub fn eliminate(program: &mut Program) -> Vec<Diagnostic> {
    if !mentions_code(program) {
        return Vec::new();
    }
    let original = program.clone();
    let mut el = Eliminator::new(&original);
    for d in &mut program.decls {
        let (ins, outs, body) = match &mut d.kind {
            DeclKind::Implementation(i) => (&i.ins, &i.outs, &mut i.body),
            DeclKind::Procedure(ProcedureDecl { ins, outs, body: Some(body), .. }) => (&*ins, &*outs, body),
            _ => continue,
        };
        let mut vars: HashMap<Name, TypedIdent> = el.globals.clone();
        for v in ins.iter().chain(outs).chain(body.locals.iter().flat_map(|d| &d.vars)) {
            vars.insert(v.name.name.clone(), v.clone());
        }
        el.vars = vars;
        el.unstructured = has_goto(&body.stmts);
        el.stmts(&mut body.stmts);
    }
    // What is left anywhere else is refused.
    let mut rest = Finder::default();
    program.accept(&mut rest);
    for span in rest.spans {
        el.refuse(span);
    }
    el.diags
}

/// Whether a node contains a code expression.
fn mentions_code<T: Node + ?Sized>(node: &T) -> bool {
    let mut f = Finder::default();
    node.accept(&mut f);
    !f.spans.is_empty()
}

/// The spans of the outermost code expressions of a node.
#[derive(Default)]
struct Finder {
    spans: Vec<Span>,
}

impl crate::visit::Visit for Finder {
    fn visit_expr(&mut self, e: &Expr) {
        if let ExprKind::Code(_) = &e.kind {
            self.spans.push(e.span);
        } else {
            crate::visit::walk_expr(self, e);
        }
    }
}

/// A procedure body that calls may inline, with its procedure.
struct Callee<'p> {
    proc: &'p ProcedureDecl,
    /// The implementation's formals and attributes, or the procedure's (body on the procedure).
    imp: Option<&'p ImplementationDecl>,
    depth: u64,
}

/// A block graph being read: code-expression blocks or an inlined body.
struct Graph {
    blocks: Vec<(Vec<Stmt>, Term)>,
    span: Span,
}

enum Term {
    Goto(Vec<usize>),
    /// `return e` of the code expression.
    Value(Expr),
    /// The `return` of an inlined body: continue after the call.
    Exit,
}

struct Eliminator<'p> {
    procs: HashMap<Name, &'p ProcedureDecl>,
    /// The global variables, with their declarations.
    globals: HashMap<Name, TypedIdent>,
    /// The variables of the body being read (its formals and locals, and the globals).
    vars: HashMap<Name, TypedIdent>,
    /// The body has a `goto`: the leading `assert`s of a labelled block may be loop invariants.
    unstructured: bool,
    impls: HashMap<Name, Vec<&'p ImplementationDecl>>,
    /// Names in use in the program: fresh names avoid them.
    avoid: HashSet<Name>,
    diags: Vec<Diagnostic>,
}

/// The state of one code expression's elimination.
struct Scope {
    /// The variables it may assign (its locals and the copies of inlined bodies), with types.
    locals: HashMap<Name, Type>,
    /// Remaining inlining depth of each procedure along the current chain of inlined calls.
    remaining: HashMap<Name, u64>,
}

/// Why a code expression cannot be eliminated exactly.
struct Refused(Span, String);

type R<T> = Result<T, Refused>;

impl<'p> Eliminator<'p> {
    fn new(program: &'p Program) -> Eliminator<'p> {
        let mut procs = HashMap::new();
        let mut impls: HashMap<Name, Vec<&ImplementationDecl>> = HashMap::new();
        let mut globals = HashMap::new();
        for d in &program.decls {
            match &d.kind {
                DeclKind::Var(v) => {
                    for x in &v.vars {
                        let mut x = x.clone();
                        x.attrs.extend(v.attrs.iter().cloned());
                        globals.insert(x.name.name.clone(), x);
                    }
                }
                DeclKind::Procedure(p) => {
                    procs.insert(p.name.name.clone(), p);
                }
                DeclKind::Implementation(i) => impls.entry(i.name.name.clone()).or_default().push(i),
                _ => {}
            }
        }
        Eliminator {
            procs,
            globals,
            vars: HashMap::new(),
            unstructured: false,
            impls,
            avoid: all_names(program),
            diags: Vec::new(),
        }
    }

    fn fresh(&mut self, base: &str) -> Name {
        let base = base.strip_prefix("ce$").unwrap_or(base);
        let n = fresh_name(&format!("ce${base}"), &self.avoid);
        self.avoid.insert(n.clone());
        n
    }

    /// A code expression where its polarity is not fixed (module documentation).
    fn refuse(&mut self, span: Span) {
        self.diags.push(
            Diagnostic::unsupported("a code expression `|{ ... }|` is not supported here", span).with_label(
                "kivl reads code expressions only in `assert`, `assume` and the right-hand side of assignments \
                 of procedure bodies",
            ),
        );
    }

    /// The statements of a procedure body, nested ones included.
    fn stmts(&mut self, ss: &mut [Stmt]) {
        // In a body with `goto`, the `assert`s that lead a labelled block are the invariants of
        // a loop if the block heads one: Boogie checks them, then assumes them after cutting
        // the loop, reading a code expression both ways. Left to the refusal below.
        let mut leading = false;
        for s in ss {
            match &s.kind {
                StmtKind::Label(_) => leading = true,
                StmtKind::Assert { .. } if leading && self.unstructured => continue,
                _ => leading = false,
            }
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Assert { expr, .. } => self.top(expr, false),
            StmtKind::Assume { expr, .. } => self.top(expr, true),
            StmtKind::Assign { lhss, rhss } => {
                if let Some(k) = self.bool_assignment(s.span, lhss, rhss) {
                    s.kind = k;
                    return;
                }
                for r in rhss {
                    self.top(r, true);
                }
            }
            StmtKind::If { then, els, .. } => {
                self.stmts(then);
                match els {
                    Some(Else::Block(b)) => self.stmts(b),
                    Some(Else::If(s)) => self.stmt(s),
                    None => {}
                }
            }
            StmtKind::While { body, .. } => self.stmts(body),
            StmtKind::Block(b) => self.stmts(b),
            _ => {}
        }
    }

    /// `x := e` with `x: bool` and a code expression in `e`: Boogie assumes `x' == e` for a fresh
    /// `x'`, an equivalence of booleans, which it reads as `(x' ==> e) && (e ==> x')`, `e` in both
    /// polarities; so `havoc x; assume (x ==> e) && (e ==> x);` (`e` not mentioning `x`, `x`
    /// without a `where` clause that `havoc` would assume). `None`: not such an assignment.
    fn bool_assignment(&mut self, span: Span, lhss: &[Lhs], rhss: &[Expr]) -> Option<StmtKind> {
        let with_code: Vec<usize> = (0..rhss.len()).filter(|&i| mentions_code(&rhss[i])).collect();
        // Targets that may be boolean: no indices, and not declared of another built-in type.
        let maybe_bool = |el: &Self, l: &Lhs| {
            l.indices.is_empty()
                && !el.vars.get(&l.var.name).is_some_and(|v| {
                    matches!(v.ty.kind, TypeKind::Int | TypeKind::Real | TypeKind::Bv(_) | TypeKind::Map { .. })
                })
        };
        let bool_targets: Vec<usize> = with_code.iter().copied().filter(|&i| maybe_bool(self, &lhss[i])).collect();
        if bool_targets.is_empty() {
            return None;
        }
        let refuse = |el: &mut Self, why: &str| {
            el.diags.push(
                Diagnostic::unsupported(format!("this assignment of a code expression is not supported: {why}"), span)
                    .with_label("Boogie reads it as an equivalence with a fresh value"),
            );
            Some(StmtKind::Block(Vec::new()))
        };
        let (l, r) = (&lhss[bool_targets[0]], &rhss[bool_targets[0]]);
        let Some(decl) = self.vars.get(&l.var.name) else { return refuse(self, "its target is not declared") };
        if decl.ty.kind != TypeKind::Bool {
            return refuse(self, "its target's type is named (kivl reads only `bool` targets here)");
        }
        if lhss.len() != 1 {
            return refuse(self, "a parallel assignment");
        }
        if decl.where_clause.is_some() || has_attr(&decl.attrs, "assumption") {
            return refuse(self, "its target has a `where` clause or is an `{:assumption}` variable");
        }
        if free_vars(r).contains(&l.var.name) {
            return refuse(self, "its value reads the variable assigned");
        }
        let x = Expr::var(l.var.name.clone(), l.span);
        let mut rel = Expr::and(Expr::implies(x.clone(), r.clone()), Expr::implies(r.clone(), x));
        self.top(&mut rel, true);
        let havoc = Stmt::new(StmtKind::Havoc(vec![l.var.clone()]), span);
        let assume = Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: rel }, span);
        Some(StmtKind::Block(vec![havoc, assume]))
    }

    /// Eliminates the code expressions of a statement's expression; `pos`: Boogie's polarity
    /// there (module documentation). A refusal is reported and the expression becomes `true`
    /// (the program is not verified then).
    fn top(&mut self, e: &mut Expr, pos: bool) {
        if !mentions_code(e) {
            return;
        }
        let mut copy = e.clone();
        match self.expr(&mut copy, pos) {
            Ok(()) => *e = copy,
            Err(Refused(span, msg)) => {
                self.diags.push(
                    Diagnostic::unsupported(msg, span)
                        .with_label("kivl cannot give this code expression Boogie's meaning"),
                );
                *e = Expr::new(ExprKind::BoolLit(true), e.span);
            }
        }
    }

    /// Replaces the code expressions inside `e`, tracking Boogie's polarity.
    fn expr(&mut self, e: &mut Expr, pos: bool) -> R<()> {
        struct Walk<'a, 'p> {
            el: &'a mut Eliminator<'p>,
            pos: bool,
            err: Option<Refused>,
        }
        impl VisitMut for Walk<'_, '_> {
            fn visit_expr(&mut self, e: &mut Expr) {
                if self.err.is_some() {
                    return;
                }
                match &mut e.kind {
                    ExprKind::Unary(UnOp::Not, a) => {
                        self.pos = !self.pos;
                        self.visit_expr(a);
                        self.pos = !self.pos;
                    }
                    ExprKind::Binary(op @ (BinOp::Implies | BinOp::Explies), a, b) => {
                        // Boogie reads `a <== b` as `b ==> a`: its antecedent is the right.
                        let (ante, cons) = if *op == BinOp::Implies { (a, b) } else { (b, a) };
                        self.pos = !self.pos;
                        self.visit_expr(ante);
                        self.pos = !self.pos;
                        self.visit_expr(cons);
                    }
                    ExprKind::Binary(op @ (BinOp::Iff | BinOp::Eq | BinOp::Neq), a, b)
                        if mentions_code(a.as_ref()) || mentions_code(b.as_ref()) =>
                    {
                        // Boogie 2.4.1 resolves `==`/`!=` on booleans to `<==>` (`a != b` is
                        // `a <==> !b`) and translates `a <==> b` as `(a ==> b) && (b ==> a)`,
                        // each operand once in each polarity.
                        if *op != BinOp::Iff && !is_bool(a) && !is_bool(b) {
                            if is_not_bool(a) || is_not_bool(b) {
                                walk_expr_mut(self, e);
                                return;
                            }
                            self.err = Some(Refused(
                                e.span,
                                "an equality with a code expression whose operands kivl cannot tell boolean or not is not supported"
                                    .into(),
                            ));
                            return;
                        }
                        let a = (**a).clone();
                        let b = if *op == BinOp::Neq { Expr::not((**b).clone()) } else { (**b).clone() };
                        let mut x = Expr::and(Expr::implies(a.clone(), b.clone()), Expr::implies(b, a));
                        x.span = e.span;
                        *e = x;
                        self.visit_expr(e);
                    }
                    ExprKind::Quant(q)
                        if q.kind == QuantKind::Lambda
                            || q.triggers.iter().any(|t| t.exprs.iter().any(mentions_code))
                            || q.attrs.iter().any(mentions_code) =>
                    {
                        if mentions_code(e) {
                            // Boogie lifts a lambda to a function with a defining axiom, where its
                            // code expression is read as assumed; triggers and attributes are
                            // not formulas.
                            self.err = Some(Refused(
                                e.span,
                                "a code expression inside a lambda, trigger or attribute is not supported".into(),
                            ));
                        }
                    }
                    ExprKind::Code(c) => match self.el.code(c, e.span, self.pos) {
                        Ok(x) => *e = x,
                        Err(r) => self.err = Some(r),
                    },
                    _ => walk_expr_mut(self, e),
                }
            }
        }
        let mut w = Walk { el: self, pos, err: None };
        w.visit_expr(e);
        match w.err {
            Some(r) => Err(r),
            None => Ok(()),
        }
    }

    /// The formula of one code expression read with polarity `pos`.
    fn code(&mut self, ce: &CodeExpr, span: Span, pos: bool) -> R<Expr> {
        let mut scope = Scope { locals: HashMap::new(), remaining: HashMap::new() };
        // Fresh names for the locals: the formula's quantifier must not capture outer names.
        let mut rename: HashMap<Name, Name> = HashMap::new();
        for d in &ce.locals {
            for v in &d.vars {
                if v.where_clause.is_some() {
                    return Err(Refused(v.name.span, "a `where` clause on a code expression's local".into()));
                }
                let n = self.fresh(&v.name.name);
                rename.insert(v.name.name.clone(), n.clone());
                scope.locals.insert(n, v.ty.clone());
            }
        }
        let index: HashMap<&Name, usize> = ce.blocks.iter().enumerate().map(|(i, b)| (&b.label.name, i)).collect();
        let mut blocks = Vec::new();
        for b in &ce.blocks {
            let mut stmts = b.stmts.clone();
            rename_stmts(&mut stmts, &rename);
            let term = match &b.end {
                CodeEnd::Goto(ts) => Term::Goto(
                    ts.iter()
                        .map(|t| index.get(&t.name).copied().ok_or_else(|| Refused(t.span, "unknown label".into())))
                        .collect::<R<_>>()?,
                ),
                CodeEnd::Return(e) => {
                    let mut e = e.clone();
                    rename_expr(&mut e, &rename);
                    Term::Value(e)
                }
            };
            blocks.push((stmts, term));
        }
        let graph = Graph { blocks, span };
        let w = self.graph(&graph, &Expr::bool(true), &mut scope, pos)?;
        let fvs = free_vars(&w);
        let vars: Vec<TypedIdent> = fvs
            .iter()
            .filter_map(|n| scope.locals.get(n).map(|t| (n, t)))
            .map(|(n, t)| TypedIdent {
                name: Ident::new(n.clone(), span),
                ty: t.clone(),
                where_clause: None,
                attrs: vec![],
            })
            .collect();
        let body = forall(vars, w, span);
        Ok(if pos { Expr::new(ExprKind::Unary(UnOp::Not, Box::new(body)), span) } else { body })
    }

    /// The weakest precondition of a block graph from its entry; `exit` is what `Term::Exit`
    /// continues with.
    fn graph(&mut self, g: &Graph, exit: &Expr, scope: &mut Scope, pos: bool) -> R<Expr> {
        if g.blocks.is_empty() {
            return Ok(exit.clone());
        }
        let mut memo: Vec<Option<Expr>> = vec![None; g.blocks.len()];
        let mut on_path = vec![false; g.blocks.len()];
        self.block(g, 0, exit, scope, pos, &mut memo, &mut on_path)
    }

    #[allow(clippy::too_many_arguments)]
    fn block(
        &mut self,
        g: &Graph,
        i: usize,
        exit: &Expr,
        scope: &mut Scope,
        pos: bool,
        memo: &mut [Option<Expr>],
        on_path: &mut [bool],
    ) -> R<Expr> {
        if let Some(e) = &memo[i] {
            return Ok(e.clone());
        }
        if on_path[i] {
            return Err(Refused(g.span, "a code expression whose blocks form a loop is not supported".into()));
        }
        on_path[i] = true;
        let (stmts, term) = &g.blocks[i];
        let mut n = match term {
            Term::Goto(ts) => {
                let mut acc: Option<Expr> = None;
                for &t in ts {
                    let w = self.block(g, t, exit, scope, pos, memo, on_path)?;
                    acc = Some(match acc {
                        None => w,
                        Some(a) => Expr::and(a, w),
                    });
                }
                acc.unwrap_or_else(|| Expr::bool(true))
            }
            Term::Value(e) => {
                let mut e = e.clone();
                self.expr(&mut e, pos)?;
                if pos {
                    Expr::not(e)
                } else {
                    e
                }
            }
            Term::Exit => exit.clone(),
        };
        for s in stmts.iter().rev() {
            n = self.wp(s, n, scope, pos)?;
        }
        on_path[i] = false;
        memo[i] = Some(n.clone());
        Ok(n)
    }

    /// The weakest precondition of one simple statement.
    fn wp(&mut self, s: &Stmt, n: Expr, scope: &mut Scope, pos: bool) -> R<Expr> {
        match &s.kind {
            StmtKind::Assert { expr, .. } => {
                let mut c = expr.clone();
                self.expr(&mut c, !pos)?;
                Ok(Expr::and(c, n))
            }
            StmtKind::Assume { expr, .. } => {
                let mut a = expr.clone();
                self.expr(&mut a, pos)?;
                Ok(Expr::implies(a, n))
            }
            StmtKind::Assign { lhss, rhss } => {
                let mut map = HashMap::new();
                for (l, r) in lhss.iter().zip(rhss) {
                    self.assignable(&l.var, scope)?;
                    if mentions_code(r) {
                        return Err(Refused(
                            r.span,
                            "a code expression assigned inside a code expression is not supported".into(),
                        ));
                    }
                    let mut r = r.clone();
                    self.expr(&mut r, pos)?;
                    let mut value = r;
                    // `m[i][j] := v` is `m := m[i := m[i][j := v]]`.
                    for k in (0..l.indices.len()).rev() {
                        let mut base = Expr::var(l.var.name.clone(), l.span);
                        for idx in &l.indices[..k] {
                            base = Expr::new(ExprKind::Select(Box::new(base), idx.clone()), l.span);
                        }
                        value =
                            Expr::new(ExprKind::Store(Box::new(base), l.indices[k].clone(), Box::new(value)), l.span);
                    }
                    map.insert(l.var.name.clone(), value);
                }
                Ok(substitute(&n, &map))
            }
            StmtKind::Havoc(xs) => {
                let mut map = HashMap::new();
                let mut vars = Vec::new();
                for x in xs {
                    let ty = self.assignable(x, scope)?;
                    let y = self.fresh(&x.name);
                    scope.locals.insert(y.clone(), ty.clone());
                    map.insert(x.name.clone(), Expr::var(y.clone(), x.span));
                    vars.push(TypedIdent { name: Ident::new(y, x.span), ty, where_clause: None, attrs: vec![] });
                }
                Ok(forall(vars, substitute(&n, &map), s.span))
            }
            StmtKind::Call { attrs, outs, proc, args } => {
                if has_attr(attrs, FREE_CALL_ATTR) {
                    return Err(Refused(s.span, "a `free call` inside a code expression is not supported".into()));
                }
                self.call(s.span, outs, proc, args, n, scope, pos)
            }
            _ => Err(Refused(s.span, "this statement inside a code expression is not supported".into())),
        }
    }

    /// The type of a variable a statement of a code expression writes: only its locals.
    fn assignable(&self, x: &Ident, scope: &Scope) -> R<Type> {
        scope.locals.get(&x.name).cloned().ok_or_else(|| {
            Refused(
                x.span,
                format!(
                    "a code expression that assigns `{}`, which is not one of its locals, is not supported",
                    x.name
                ),
            )
        })
    }

    fn callee(&self, proc: &Ident) -> R<Callee<'p>> {
        let not_inlined = || {
            Refused(
                proc.span,
                format!(
                    "a call inside a code expression of `{}`, which is not inlined (`{{:inline N}}` with one body), is not supported",
                    proc.name
                ),
            )
        };
        let p = *self.procs.get(&proc.name).ok_or_else(not_inlined)?;
        let impls = self.impls.get(&proc.name).map(Vec::as_slice).unwrap_or(&[]);
        let imp = match (impls, &p.body) {
            ([], Some(_)) => None,
            ([i], None) => Some(*i),
            _ => return Err(not_inlined()),
        };
        let depth =
            inline_attr(&p.attrs).or_else(|| imp.and_then(|i| inline_attr(&i.attrs))).ok_or_else(not_inlined)?;
        if !p.type_params.is_empty() {
            return Err(not_inlined());
        }
        Ok(Callee { proc: p, imp, depth })
    }

    /// `call outs := P(args)` in front of `n`: P's body inlined.
    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        span: Span,
        outs: &[Ident],
        proc: &Ident,
        args: &[Expr],
        n: Expr,
        scope: &mut Scope,
        pos: bool,
    ) -> R<Expr> {
        let callee = self.callee(proc)?;
        let remaining = *scope.remaining.entry(proc.name.clone()).or_insert(callee.depth);
        if remaining == 0 {
            // Boogie's /inline:assume: the path ends.
            return Ok(Expr::implies(Expr::new(ExprKind::BoolLit(false), span), n));
        }
        let lowered = match callee.imp {
            Some(i) => crate::lower::lower_body(i),
            None => crate::lower::lower_procedure_body(callee.proc),
        }
        .map_err(|_| Refused(span, format!("the body of `{}` cannot be inlined into a code expression", proc.name)))?;
        if lowered.ins.len() != args.len() || lowered.outs.len() != outs.len() {
            return Err(Refused(
                span,
                format!("a call of `{}` with the wrong number of arguments or results", proc.name),
            ));
        }
        // Fresh copies of the formals and locals; the procedure's formal names too (contracts).
        let mut rename: HashMap<Name, Name> = HashMap::new();
        let mut copy = |el: &mut Self, x: &TypedIdent, scope: &mut Scope| -> R<Name> {
            if x.where_clause.is_some() {
                return Err(Refused(span, format!("`{}` of `{}` has a `where` clause", x.name.name, proc.name)));
            }
            let n = el.fresh(&format!("{}${}", proc.name, x.name.name));
            scope.locals.insert(n.clone(), x.ty.clone());
            rename.insert(x.name.name.clone(), n.clone());
            Ok(n)
        };
        let ins: Vec<Name> = lowered.ins.iter().map(|x| copy(self, x, scope)).collect::<R<_>>()?;
        let out_copies: Vec<Name> = lowered.outs.iter().map(|x| copy(self, x, scope)).collect::<R<_>>()?;
        for x in &lowered.locals {
            copy(self, x, scope)?;
        }
        for (pf, new) in callee.proc.ins.iter().zip(&ins).chain(callee.proc.outs.iter().zip(&out_copies)) {
            rename.entry(pf.name.name.clone()).or_insert_with(|| new.clone());
        }
        let index = lowered.label_index();
        let mut blocks = Vec::new();
        for b in &lowered.blocks {
            let mut stmts = b.stmts.clone();
            rename_stmts(&mut stmts, &rename);
            for s in &mut stmts {
                strip_old(s);
            }
            let term = match &b.term {
                crate::blocks::Terminator::Return => Term::Exit,
                crate::blocks::Terminator::Goto(ts) => {
                    Term::Goto(ts.iter().filter_map(|t| index.get(&t.name).copied()).collect())
                }
            };
            blocks.push((stmts, term));
        }
        // After the body: the postconditions, then the results copied back.
        let mut exit_stmts = Vec::new();
        for c in callee.proc.contracts.iter().filter(|c| c.kind == SpecKind::Ensures && !c.free) {
            let mut expr = c.expr.clone();
            rename_expr(&mut expr, &rename);
            strip_old_expr(&mut expr);
            let kind = if has_attr(&c.attrs, "assume") {
                StmtKind::Assume { attrs: vec![], expr }
            } else {
                StmtKind::Assert { attrs: vec![], expr }
            };
            exit_stmts.push(Stmt::new(kind, span));
        }
        if !outs.is_empty() {
            let lhss = outs.iter().map(|o| Lhs { var: o.clone(), indices: vec![], span: o.span }).collect();
            let rhss = out_copies.iter().map(|x| Expr::var(x.clone(), span)).collect();
            exit_stmts.push(Stmt::new(StmtKind::Assign { lhss, rhss }, span));
        }
        scope.remaining.insert(proc.name.clone(), remaining - 1);
        let mut after = n;
        for s in exit_stmts.iter().rev() {
            after = self.wp(s, after, scope, pos)?;
        }
        let body = self.graph(&Graph { blocks, span }, &after, scope, pos)?;
        scope.remaining.insert(proc.name.clone(), remaining);
        // Before the body: the arguments bound, then the preconditions.
        let mut entry = Vec::new();
        if !ins.is_empty() {
            let lhss = ins.iter().map(|x| Lhs { var: Ident::new(x.clone(), span), indices: vec![], span }).collect();
            entry.push(Stmt::new(StmtKind::Assign { lhss, rhss: args.to_vec() }, span));
        }
        for c in callee.proc.contracts.iter().filter(|c| c.kind == SpecKind::Requires && !c.free) {
            let mut expr = c.expr.clone();
            rename_expr(&mut expr, &rename);
            entry.push(Stmt::new(StmtKind::Assert { attrs: vec![], expr }, span));
        }
        let mut w = body;
        for s in entry.iter().rev() {
            w = self.wp(s, w, scope, pos)?;
        }
        Ok(w)
    }
}

/// Whether statements contain a `goto`, nested ones included.
fn has_goto(ss: &[Stmt]) -> bool {
    ss.iter().any(|s| match &s.kind {
        StmtKind::Goto(_) => true,
        StmtKind::If { then, els, .. } => {
            has_goto(then)
                || match els {
                    Some(Else::Block(b)) => has_goto(b),
                    Some(Else::If(s)) => has_goto(std::slice::from_ref(s)),
                    None => false,
                }
        }
        StmtKind::While { body, .. } | StmtKind::Block(body) => has_goto(body),
        _ => false,
    })
}

/// Whether an expression is boolean by its form.
fn is_bool(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::BoolLit(_) | ExprKind::Code(_) | ExprKind::Unary(UnOp::Not, _) => true,
        ExprKind::Binary(op, ..) => matches!(
            op,
            BinOp::Iff
                | BinOp::Implies
                | BinOp::Explies
                | BinOp::Or
                | BinOp::And
                | BinOp::Eq
                | BinOp::Neq
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::Subtype
        ),
        ExprKind::Quant(q) => q.kind != QuantKind::Lambda,
        _ => false,
    }
}

/// Whether an expression is not boolean by its form.
fn is_not_bool(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::IntLit(_) | ExprKind::RealLit(_) | ExprKind::BvLit { .. } | ExprKind::Unary(UnOp::Neg, _) => true,
        ExprKind::Store(..) | ExprKind::Extract(..) => true,
        ExprKind::Quant(q) => q.kind == QuantKind::Lambda,
        ExprKind::Binary(op, ..) => !is_bool(e) && *op != BinOp::Subtype,
        _ => false,
    }
}

/// `{:inline N}` with an integer `N`.
fn inline_attr(attrs: &[Attribute]) -> Option<u64> {
    match find_attr(attrs, "inline").and_then(|a| a.args.first()) {
        Some(AttrArg::Expr(Expr { kind: ExprKind::IntLit(v), .. })) => u64::try_from(v).ok(),
        _ => None,
    }
}

fn forall(vars: Vec<TypedIdent>, body: Expr, span: Span) -> Expr {
    if vars.is_empty() {
        return body;
    }
    let q = Quantifier { kind: QuantKind::Forall, type_params: vec![], vars, attrs: vec![], triggers: vec![], body };
    Expr::new(ExprKind::Quant(Box::new(q)), span)
}

/// Renames variables in expressions and in the targets of statements.
fn rename_stmts(ss: &mut Vec<Stmt>, rename: &HashMap<Name, Name>) {
    struct Targets<'a>(&'a HashMap<Name, Name>);
    impl VisitMut for Targets<'_> {
        fn visit_stmt(&mut self, s: &mut Stmt) {
            match &mut s.kind {
                StmtKind::Assign { lhss, .. } => {
                    for l in lhss {
                        if let Some(n) = self.0.get(&l.var.name) {
                            l.var.name = n.clone();
                        }
                    }
                }
                StmtKind::Havoc(xs) | StmtKind::Call { outs: xs, .. } => {
                    for x in xs {
                        if let Some(n) = self.0.get(&x.name) {
                            x.name = n.clone();
                        }
                    }
                }
                _ => {}
            }
        }
    }
    if rename.is_empty() {
        return;
    }
    crate::visit::rename_vars(ss, rename);
    let mut t = Targets(rename);
    for s in ss.iter_mut() {
        t.visit_stmt(s);
    }
}

fn rename_expr(e: &mut Expr, rename: &HashMap<Name, Name>) {
    if !rename.is_empty() {
        crate::visit::rename_vars(e, rename);
    }
}

/// `old(e)` becomes `e` in an inlined body: no global changes inside a code expression, so the
/// state at the call is the current one.
fn strip_old(s: &mut Stmt) {
    struct Strip;
    impl VisitMut for Strip {
        fn visit_expr(&mut self, e: &mut Expr) {
            walk_expr_mut(self, e);
            if let ExprKind::Old(a) = &mut e.kind {
                let inner = std::mem::replace(a.as_mut(), Expr::bool(true));
                *e = inner;
            }
        }
    }
    s.accept_mut(&mut Strip);
}

fn strip_old_expr(e: &mut Expr) {
    let mut s =
        Stmt::new(StmtKind::Assume { attrs: vec![], expr: std::mem::replace(e, Expr::bool(true)) }, Span::DUMMY);
    strip_old(&mut s);
    if let StmtKind::Assume { expr, .. } = s.kind {
        *e = expr;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parser::parse_expr;
    use crate::printer::print_expr;

    fn read(src: &str, pos: bool) -> String {
        let program = Program { decls: vec![] };
        let mut el = Eliminator::new(&program);
        let mut e = parse_expr(src).expect("parses");
        el.expr(&mut e, pos).ok().expect("eliminated");
        print_expr(&e)
    }

    #[test]
    fn asserted_reading_is_universal() {
        assert_eq!(
            read("|{ var x: int; A: assume x > 0; return x >= 0; }|", false),
            "(forall ce$x_1: int :: ce$x_1 > 0 ==> ce$x_1 >= 0)"
        );
    }

    #[test]
    fn assumed_reading_is_the_dual() {
        assert_eq!(read("|{ var x: int; A: return x > 0; }|", true), "!(forall ce$x_1: int :: !(ce$x_1 > 0))");
    }

    #[test]
    fn assignments_substitute_and_gotos_conjoin() {
        assert_eq!(
            read("|{ var x: int; A: x := 1; goto B, C; B: return x == 1; C: assert x > 0; return true; }|", false),
            "1 == 1 && (1 > 0 && true)"
        );
    }

    #[test]
    fn boolean_equivalences_read_each_side_both_ways() {
        // `b == CE` is `(b ==> CE) && (CE ==> b)`: the antecedent flips the reading.
        assert_eq!(
            read("b == |{ var x: int; A: return x > 0; }|", false),
            "(b ==> (forall ce$x_1: int :: ce$x_1 > 0)) && (!(forall ce$x_2: int :: !(ce$x_2 > 0)) ==> b)"
        );
    }

    #[test]
    fn an_assert_inside_flips_a_nested_reading() {
        assert_eq!(
            read("|{ A: assert |{ var y: int; B: return y > 0; }|; return true; }|", false),
            "!(forall ce$y_1: int :: !(ce$y_1 > 0)) && true"
        );
    }

    #[test]
    fn loops_are_refused() {
        let program = Program { decls: vec![] };
        let mut el = Eliminator::new(&program);
        let mut e = parse_expr("|{ A: goto A; }|").expect("parses");
        assert!(el.expr(&mut e, false).is_err());
    }
}
