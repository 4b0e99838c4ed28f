//! Prints syntax trees as `.kbpl` text that parses back to the same tree (ignoring spans), so
//! that the output of every pass is itself a program (`kivl transform --emit STAGE`), and so
//! that tests can state expected programs as text.
//!
//! Layout follows hand-written Boogie: two-space indentation, `else if` chains, labels one
//! level left of the statements they head, contracts indented under the signature.
//!
//! Parentheses are minimal for Boogie's precedence (Leino, "This is Boogie 2", §A grammar):
//! `<==>` (left) < `==>` (right) / `<==` (left) < `&&` / `||` (left; mixing needs parentheses)
//! < relations (non-associative) < `++` (left) < `+ -` (left) < `* div mod /` (left) < unary
//! `! -` < coercion `e : T` (parenthesized unless delimited) < postfix `m[i]`, `m[i := v]`, `e[hi:lo]`. `if c then a else b`
//! extends as far right as possible, so it is printed bare only where it is delimited on
//! both sides (a statement's expression, an argument, an index, a branch of another `if`);
//! quantifiers and lambdas carry their own parentheses. A unary minus is never printed next to
//! another (`-(-x)`), so that no `--` token appears.

use crate::ast::*;
use std::fmt::{self, Write};

pub fn print_program(p: &Program) -> String {
    let mut pr = Printer::default();
    pr.program(p);
    pr.out
}

pub fn print_decl(d: &Decl) -> String {
    let mut pr = Printer::default();
    pr.decl(d);
    pr.out
}

/// One statement (structured statements over several lines), with a trailing newline.
pub fn print_stmt(s: &Stmt) -> String {
    let mut pr = Printer::default();
    pr.stmt(s, 0);
    pr.out
}

/// Statements as they appear in a body, with a trailing newline.
pub fn print_stmts(ss: &[Stmt]) -> String {
    let mut pr = Printer::default();
    pr.stmts(ss, 0);
    pr.out
}

pub fn print_expr(e: &Expr) -> String {
    let mut s = String::new();
    expr(&mut s, e, Prec::Top);
    s
}

pub fn print_type(t: &Type) -> String {
    let mut s = String::new();
    ty(&mut s, t, false);
    s
}

pub fn print_attrs(attrs: &[Attribute]) -> String {
    let mut s = String::new();
    attributes(&mut s, attrs);
    s
}

macro_rules! display_via {
    ($($t:ty => $f:ident),*) => {
        $(impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&$f(self))
            }
        })*
    };
}

display_via!(Program => print_program, Decl => print_decl, Stmt => print_stmt, Expr => print_expr,
             Type => print_type);

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

/// Binding strength, loosest first. An expression is printed without parentheses where the
/// context accepts its level or a looser one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    /// Delimited on both sides: anything goes, including a bare `if then else`.
    Top,
    Ite,
    Iff,
    Implies,
    Logic,
    Rel,
    Concat,
    Add,
    Mul,
    Pow,
    Unary,
    Postfix,
    Atom,
}

fn op_prec(op: BinOp) -> Prec {
    match op {
        BinOp::Iff => Prec::Iff,
        BinOp::Implies | BinOp::Explies => Prec::Implies,
        BinOp::Or | BinOp::And => Prec::Logic,
        BinOp::Eq | BinOp::Neq | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Subtype => Prec::Rel,
        BinOp::Concat => Prec::Concat,
        BinOp::Add | BinOp::Sub => Prec::Add,
        BinOp::Mul | BinOp::Div | BinOp::Mod | BinOp::RealDiv => Prec::Mul,
        BinOp::Pow => Prec::Pow,
    }
}

fn prec(e: &Expr) -> Prec {
    match &e.kind {
        ExprKind::IfThenElse(..) => Prec::Ite,
        ExprKind::Binary(op, ..) => op_prec(*op),
        ExprKind::Unary(..) => Prec::Unary,
        // `e : T` is rare; a type followed by more expression text reads badly (and a named
        // type's arguments would run on), so it is parenthesized unless delimited.
        ExprKind::Coerce(..) => Prec::Ite,
        ExprKind::Select(..) | ExprKind::Store(..) | ExprKind::Extract(..) => Prec::Postfix,
        _ => Prec::Atom,
    }
}

/// Whether `child` may stand without parentheses as the left (`left == true`) or right operand
/// of `parent`.
fn operand_ok(parent: BinOp, child: &Expr, left: bool) -> bool {
    let p = op_prec(parent);
    let c = prec(child);
    if c != p {
        return c > p;
    }
    let ExprKind::Binary(cop, ..) = &child.kind else { return false };
    use BinOp::*;
    if left {
        // Left-associative chains of one operator (or one family for arithmetic).
        match parent {
            Iff | Explies | And | Or | Concat => *cop == parent,
            Add | Sub => matches!(cop, Add | Sub),
            Mul | Div | Mod | RealDiv => matches!(cop, Mul | Div | Mod | RealDiv),
            _ => false,
        }
    } else {
        // `==>` and `**` are the right-associative operators.
        (parent == Implies && *cop == Implies) || (parent == Pow && *cop == Pow)
    }
}

fn paren(out: &mut String, yes: bool, f: impl FnOnce(&mut String)) {
    if yes {
        out.push('(');
    }
    f(out);
    if yes {
        out.push(')');
    }
}

fn expr(out: &mut String, e: &Expr, ctx: Prec) {
    paren(out, prec(e) < ctx, |out| expr_bare(out, e))
}

fn expr_bare(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::BoolLit(b) => out.push_str(if *b { "true" } else { "false" }),
        ExprKind::IntLit(n) => write!(out, "{n}").unwrap(),
        ExprKind::RealLit(r) => out.push_str(r),
        ExprKind::BvLit { value, width } => write!(out, "{value}bv{width}").unwrap(),
        ExprKind::Var(x) => ident(out, x),
        ExprKind::Old(a) => {
            out.push_str("old(");
            expr(out, a, Prec::Top);
            out.push(')');
        }
        ExprKind::Unary(op, a) => {
            out.push_str(match op {
                UnOp::Not => "!",
                UnOp::Neg => "-",
            });
            // `- -x` would lex as `--` in some tools; `-(-x)` is unambiguous everywhere.
            let nested_neg = *op == UnOp::Neg && matches!(a.kind, ExprKind::Unary(UnOp::Neg, _));
            paren(out, nested_neg || prec(a) < Prec::Unary, |out| expr_bare(out, a));
        }
        ExprKind::Binary(op, a, b) => {
            paren(out, !operand_ok(*op, a, true), |out| expr_bare(out, a));
            write!(out, " {} ", op.symbol()).unwrap();
            paren(out, !operand_ok(*op, b, false), |out| expr_bare(out, b));
        }
        ExprKind::Call(f, args) => {
            ident(out, f);
            out.push('(');
            exprs(out, args);
            out.push(')');
        }
        ExprKind::Select(m, idx) => {
            expr(out, m, Prec::Postfix);
            out.push('[');
            exprs(out, idx);
            out.push(']');
        }
        ExprKind::Store(m, idx, v) => {
            expr(out, m, Prec::Postfix);
            out.push('[');
            exprs(out, idx);
            out.push_str(" := ");
            expr(out, v, Prec::Top);
            out.push(']');
        }
        ExprKind::Extract(a, hi, lo) => {
            expr(out, a, Prec::Postfix);
            write!(out, "[{hi}:{lo}]").unwrap();
        }
        ExprKind::IfThenElse(c, a, b) => {
            out.push_str("if ");
            expr(out, c, Prec::Top);
            out.push_str(" then ");
            expr(out, a, Prec::Top);
            out.push_str(" else ");
            expr(out, b, Prec::Top);
        }
        ExprKind::Quant(q) => quantifier(out, q),
        ExprKind::Let(l) => {
            out.push_str("(var ");
            for (i, x) in l.vars.iter().enumerate() {
                out.push_str(if i == 0 { "" } else { ", " });
                out.push_str(x.name.as_str());
            }
            out.push_str(" := ");
            exprs(out, &l.values);
            out.push_str("; ");
            expr(out, &l.body, Prec::Top);
            out.push(')');
        }
        ExprKind::Code(c) => code_expr(out, c),
        ExprKind::Coerce(a, t) => {
            paren(out, prec(a) < Prec::Postfix && !matches!(a.kind, ExprKind::Coerce(..)), |out| expr_bare(out, a));
            out.push_str(" : ");
            ty(out, t, false);
        }
    }
}

/// `|{ var x: T; A: S1 S2 goto B; B: return e; }|` on one line.
fn code_expr(out: &mut String, c: &CodeExpr) {
    out.push_str("|{ ");
    for d in &c.locals {
        let mut s = String::new();
        var_decl(&mut s, "var", d);
        out.push_str(s.trim_end());
        out.push(' ');
    }
    for b in &c.blocks {
        ident(out, &b.label);
        out.push_str(": ");
        for st in &b.stmts {
            out.push_str(print_stmt(st).trim());
            out.push(' ');
        }
        match &b.end {
            CodeEnd::Goto(ts) => {
                out.push_str("goto ");
                idents(out, ts);
            }
            CodeEnd::Return(e) => {
                out.push_str("return ");
                expr(out, e, Prec::Top);
            }
        }
        out.push_str("; ");
    }
    out.push_str("}|");
}

fn exprs(out: &mut String, es: &[Expr]) {
    for (i, e) in es.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        expr(out, e, Prec::Top);
    }
}

fn quantifier(out: &mut String, q: &Quantifier) {
    out.push('(');
    out.push_str(match q.kind {
        QuantKind::Forall => "forall ",
        QuantKind::Exists => "exists ",
        QuantKind::Lambda => "lambda ",
    });
    type_params(out, &q.type_params, true);
    typed_idents(out, &q.vars);
    out.push_str(" :: ");
    for a in &q.attrs {
        attribute(out, a);
        out.push(' ');
    }
    for t in &q.triggers {
        out.push_str("{ ");
        exprs(out, &t.exprs);
        out.push_str(" } ");
    }
    expr(out, &q.body, Prec::Top);
    out.push(')');
}

fn attribute(out: &mut String, a: &Attribute) {
    out.push_str("{:");
    out.push_str(a.name.as_str());
    for (i, arg) in a.args.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { ", " });
        match arg {
            AttrArg::Expr(e) => expr(out, e, Prec::Top),
            AttrArg::String(s, _) => write!(out, "\"{s}\"").unwrap(),
        }
    }
    out.push('}');
}

/// Attributes, each followed by a space.
fn attributes(out: &mut String, attrs: &[Attribute]) {
    for a in attrs {
        attribute(out, a);
        out.push(' ');
    }
}

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

/// `as_arg`: the type is an argument of a named type constructor, where a constructor applied
/// to arguments or a map type needs parentheses.
fn ty(out: &mut String, t: &Type, as_arg: bool) {
    match &t.kind {
        TypeKind::Bool => out.push_str("bool"),
        TypeKind::Int => out.push_str("int"),
        TypeKind::Real => out.push_str("real"),
        TypeKind::Bv(n) => write!(out, "bv{n}").unwrap(),
        TypeKind::Named(n, args) => paren(out, as_arg && !args.is_empty(), |out| {
            ident(out, n);
            for a in args {
                out.push(' ');
                ty(out, a, true);
            }
        }),
        TypeKind::Map { type_params: tps, args, result } => paren(out, as_arg, |out| {
            type_params(out, tps, false);
            out.push('[');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                ty(out, a, false);
            }
            out.push(']');
            ty(out, result, false);
        }),
    }
}

/// `<a, b>`, followed by a space if `space`.
fn type_params(out: &mut String, tps: &[Ident], space: bool) {
    if tps.is_empty() {
        return;
    }
    out.push('<');
    idents(out, tps);
    out.push('>');
    if space {
        out.push(' ');
    }
}

/// An identifier; one spelled like a keyword is escaped (`\\true`), as Boogie allows.
fn ident(out: &mut String, x: &Ident) {
    if needs_escape(x.as_str()) {
        out.push('\\');
    }
    out.push_str(x.as_str());
}

/// Whether the lexer would not read `name` as one identifier token. Every keyword (including
/// the contextual `barrier`, `vec`, `psi`) starts with a lowercase ASCII letter, so other names
/// are returned quickly.
fn needs_escape(name: &str) -> bool {
    if !name.as_bytes().first().is_some_and(u8::is_ascii_lowercase) {
        return false;
    }
    let lexed = crate::lexer::lex(name, 0);
    !matches!(lexed.toks.as_slice(), [crate::lexer::Tok::Ident(_)])
}

fn idents(out: &mut String, xs: &[Ident]) {
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        ident(out, x);
    }
}

/// `x: int, y: int` — consecutive plain variables of one type are grouped (`x, y: int`).
fn typed_idents(out: &mut String, vars: &[TypedIdent]) {
    let plain = |v: &TypedIdent| v.attrs.is_empty() && v.where_clause.is_none();
    let mut i = 0;
    while i < vars.len() {
        if i > 0 {
            out.push_str(", ");
        }
        let v = &vars[i];
        let mut j = i + 1;
        if plain(v) {
            while j < vars.len() && plain(&vars[j]) && same_type(&vars[j].ty, &v.ty) {
                j += 1;
            }
        }
        attributes(out, &v.attrs);
        for (k, w) in vars[i..j].iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            ident(out, &w.name);
        }
        out.push_str(": ");
        ty(out, &v.ty, false);
        if let Some(w) = &v.where_clause {
            out.push_str(" where ");
            expr(out, w, Prec::Top);
        }
        i = j;
    }
}

/// Type equality ignoring spans.
fn same_type(a: &Type, b: &Type) -> bool {
    match (&a.kind, &b.kind) {
        (TypeKind::Named(x, xs), TypeKind::Named(y, ys)) => {
            x.name == y.name && xs.len() == ys.len() && xs.iter().zip(ys).all(|(a, b)| same_type(a, b))
        }
        (
            TypeKind::Map { type_params: p, args: xs, result: r },
            TypeKind::Map { type_params: q, args: ys, result: s },
        ) => {
            p.iter().map(|i| &i.name).eq(q.iter().map(|i| &i.name))
                && xs.len() == ys.len()
                && xs.iter().zip(ys).all(|(a, b)| same_type(a, b))
                && same_type(r, s)
        }
        (x, y) => x == y,
    }
}

// ---------------------------------------------------------------------------------------------
// Statements and declarations
// ---------------------------------------------------------------------------------------------

const INDENT: usize = 2;

#[derive(Default)]
struct Printer {
    out: String,
}

impl Printer {
    fn indent(&mut self, n: usize) {
        self.out.extend(std::iter::repeat_n(' ', n));
    }

    /// Statements at `indent`; statements following a label are indented one more level, so
    /// that labels stand out as in Boogie's own output.
    fn stmts(&mut self, ss: &[Stmt], indent: usize) {
        let mut after_label = false;
        for s in ss {
            if let StmtKind::Label(l) = &s.kind {
                if after_label && !self.out.ends_with("{\n") {
                    self.out.push('\n');
                }
                self.indent(indent);
                ident(&mut self.out, l);
                self.out.push_str(":\n");
                after_label = true;
            } else {
                self.stmt(s, indent + if after_label { INDENT } else { 0 });
            }
        }
    }

    fn block(&mut self, ss: &[Stmt], indent: usize) {
        self.out.push_str("{\n");
        self.stmts(ss, indent + INDENT);
        self.indent(indent);
        self.out.push('}');
    }

    fn stmt(&mut self, s: &Stmt, indent: usize) {
        self.indent(indent);
        let out = &mut self.out;
        match &s.kind {
            StmtKind::Label(l) => {
                ident(out, l);
                out.push_str(":\n");
            }
            StmtKind::Assign { lhss, rhss } => {
                assignment(out, lhss, rhss);
                out.push('\n');
            }
            StmtKind::Havoc(xs) => {
                out.push_str("havoc ");
                idents(out, xs);
                out.push_str(";\n");
            }
            StmtKind::Assert { attrs, expr: e } => clause(out, "assert", attrs, e),
            StmtKind::Assume { attrs, expr: e } => clause(out, "assume", attrs, e),
            StmtKind::Call { attrs, outs, proc, args } => {
                let free = attrs.iter().any(|a| a.name.as_str() == FREE_CALL_ATTR);
                out.push_str(if free { "free call " } else { "call " });
                attrs.iter().filter(|a| a.name.as_str() != FREE_CALL_ATTR).for_each(|a| {
                    attribute(out, a);
                    out.push(' ');
                });
                if !outs.is_empty() {
                    idents(out, outs);
                    out.push_str(" := ");
                }
                ident(out, proc);
                out.push('(');
                exprs(out, args);
                out.push_str(");\n");
            }
            StmtKind::Goto(ls) => {
                out.push_str("goto ");
                idents(out, ls);
                out.push_str(";\n");
            }
            StmtKind::Return => out.push_str("return;\n"),
            StmtKind::Break(None) => out.push_str("break;\n"),
            StmtKind::Break(Some(l)) => {
                out.push_str("break ");
                ident(out, l);
                out.push_str(";\n");
            }
            StmtKind::If { .. } => {
                self.if_chain(s, indent);
                self.out.push('\n');
            }
            StmtKind::While { cond, invariants, body } => {
                out.push_str("while (");
                guard(out, cond.as_ref());
                out.push(')');
                if invariants.is_empty() {
                    out.push(' ');
                } else {
                    out.push('\n');
                    for inv in invariants {
                        self.indent(indent + INDENT);
                        let kw = if inv.free { "free invariant" } else { "invariant" };
                        clause(&mut self.out, kw, &inv.attrs, &inv.expr);
                    }
                    self.indent(indent);
                }
                self.block(body, indent);
                self.out.push('\n');
            }
            StmtKind::Barrier { attrs, invariants } => {
                out.push_str("barrier");
                for a in attrs {
                    out.push(' ');
                    attribute(out, a);
                }
                if invariants.is_empty() {
                    out.push_str(";\n");
                } else {
                    out.push('\n');
                    for inv in invariants {
                        self.indent(indent + INDENT);
                        clause(&mut self.out, "invariant", &inv.attrs, &inv.expr);
                    }
                }
            }
            StmtKind::Atomic(a) => atomic(out, a),
            StmtKind::Block(ss) => {
                self.block(ss, indent);
                self.out.push('\n');
            }
            StmtKind::Vector(v) => {
                out.push_str("vec ");
                match v {
                    VectorStmt::Assign { lhss, rhss } => {
                        assignment(out, lhss, rhss);
                        out.push('\n');
                    }
                    VectorStmt::Havoc(xs) => {
                        out.push_str("havoc ");
                        idents(out, xs);
                        out.push_str(";\n");
                    }
                    VectorStmt::Psi { lhs: l, rhs } => {
                        out.push_str("psi ");
                        assignment(out, std::slice::from_ref(l), std::slice::from_ref(rhs));
                        out.push('\n');
                    }
                    VectorStmt::Assume(e) => clause(out, "assume", &[], e),
                    VectorStmt::Assert(e) => clause(out, "assert", &[], e),
                }
            }
        }
    }

    /// `if (c) {..} else if (d) {..} else {..}`, without the final newline.
    fn if_chain(&mut self, s: &Stmt, indent: usize) {
        let StmtKind::If { cond, then, els } = &s.kind else { unreachable!() };
        self.out.push_str("if (");
        guard(&mut self.out, cond.as_ref());
        self.out.push_str(") ");
        self.block(then, indent);
        match els {
            None => {}
            Some(Else::Block(ss)) => {
                self.out.push_str(" else ");
                self.block(ss, indent);
            }
            Some(Else::If(next)) if matches!(next.kind, StmtKind::If { .. }) => {
                self.out.push_str(" else ");
                self.if_chain(next, indent);
            }
            Some(Else::If(other)) => {
                // Not produced by the parser; print it as an `else` block holding the statement.
                self.out.push_str(" else {\n");
                self.stmt(other, indent + INDENT);
                self.indent(indent);
                self.out.push('}');
            }
        }
    }

    fn body(&mut self, b: &Body) {
        self.out.push_str("{\n");
        for l in &b.locals {
            self.indent(INDENT);
            var_decl(&mut self.out, "var", l);
        }
        if !b.locals.is_empty() && !b.stmts.is_empty() {
            self.out.push('\n');
        }
        self.stmts(&b.stmts, INDENT);
        self.out.push_str("}\n");
    }

    fn program(&mut self, p: &Program) {
        let mut prev: Option<&Decl> = None;
        for d in &p.decls {
            if let Some(prev) = prev {
                if !(is_one_liner(prev) && is_one_liner(d) && prev.keyword() == d.keyword()) {
                    self.out.push('\n');
                }
            }
            self.decl(d);
            prev = Some(d);
        }
    }

    fn decl(&mut self, d: &Decl) {
        let out = &mut self.out;
        match &d.kind {
            DeclKind::Type(t) => {
                out.push_str("type ");
                attributes(out, &t.attrs);
                if t.finite {
                    out.push_str("finite ");
                }
                ident(out, &t.name);
                for p in &t.params {
                    out.push(' ');
                    ident(out, p);
                }
                if let Some(s) = &t.synonym {
                    out.push_str(" = ");
                    ty(out, s, false);
                }
                out.push_str(";\n");
            }
            DeclKind::Const(c) => {
                out.push_str("const ");
                attributes(out, &c.attrs);
                if c.unique {
                    out.push_str("unique ");
                }
                idents(out, &c.names);
                out.push_str(": ");
                ty(out, &c.ty, false);
                out.push_str(";\n");
            }
            DeclKind::Function(f) => {
                out.push_str("function ");
                attributes(out, &f.attrs);
                ident(out, &f.name);
                type_params(out, &f.type_params, false);
                out.push('(');
                for (i, p) in f.params.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    fn_param(out, p);
                }
                out.push(')');
                if f.result.name.is_some() {
                    out.push_str(" returns (");
                    fn_param(out, &f.result);
                    out.push(')');
                } else {
                    out.push_str(": ");
                    ty(out, &f.result.ty, false);
                }
                match &f.body {
                    None => out.push_str(";\n"),
                    Some(b) => {
                        let body = print_expr(b);
                        let line_len = out.len() - out.rfind('\n').map_or(0, |i| i + 1);
                        if line_len + body.len() + 5 <= 100 {
                            writeln!(out, " {{ {body} }}").unwrap();
                        } else {
                            writeln!(out, "\n{{\n{}{body}\n}}", " ".repeat(INDENT)).unwrap();
                        }
                    }
                }
            }
            DeclKind::Axiom(a) => clause(out, "axiom", &a.attrs, &a.expr),
            DeclKind::Var(v) => var_decl(out, "var", v),
            DeclKind::Procedure(p) => {
                out.push_str("procedure ");
                signature(out, &p.attrs, &p.name, &p.type_params, &p.ins, &p.outs);
                if p.body.is_none() {
                    out.push(';');
                }
                out.push('\n');
                if !p.modifies.is_empty() {
                    out.push_str("  modifies ");
                    idents(out, &p.modifies);
                    out.push_str(";\n");
                }
                for c in &p.contracts {
                    self.indent(INDENT);
                    let kw = match (c.free, c.kind) {
                        (false, SpecKind::Requires) => "requires",
                        (false, SpecKind::Ensures) => "ensures",
                        (true, SpecKind::Requires) => "free requires",
                        (true, SpecKind::Ensures) => "free ensures",
                    };
                    clause(&mut self.out, kw, &c.attrs, &c.expr);
                }
                if let Some(b) = &p.body {
                    self.body(b);
                }
            }
            DeclKind::Implementation(i) => {
                out.push_str("implementation ");
                signature(out, &i.attrs, &i.name, &i.type_params, &i.ins, &i.outs);
                out.push('\n');
                self.body(&i.body);
            }
        }
    }
}

/// Whether a declaration prints as a single line (consecutive ones of one kind are not
/// separated by blank lines).
fn is_one_liner(d: &Decl) -> bool {
    match &d.kind {
        DeclKind::Type(_) | DeclKind::Const(_) | DeclKind::Axiom(_) | DeclKind::Var(_) => true,
        DeclKind::Function(f) => f.body.is_none(),
        DeclKind::Procedure(_) | DeclKind::Implementation(_) => false,
    }
}

/// `KEYWORD {:attrs} e;` and a newline.
fn clause(out: &mut String, keyword: &str, attrs: &[Attribute], e: &Expr) {
    out.push_str(keyword);
    out.push(' ');
    attributes(out, attrs);
    expr(out, e, Prec::Top);
    out.push_str(";\n");
}

fn guard(out: &mut String, cond: Option<&Expr>) {
    match cond {
        Some(c) => expr(out, c, Prec::Top),
        None => out.push('*'),
    }
}

/// `x, m[i][j] := e1, e2;` (no newline).
fn lhs(out: &mut String, l: &Lhs) {
    ident(out, &l.var);
    for idx in &l.indices {
        out.push('[');
        exprs(out, idx);
        out.push(']');
    }
}

/// `atomic x := op(A[i], args);`
fn atomic(out: &mut String, a: &AtomicStmt) {
    out.push_str("atomic ");
    if let Some(x) = &a.out {
        ident(out, x);
        out.push_str(" := ");
    }
    out.push_str(a.op.name());
    out.push('(');
    lhs(out, &a.target);
    for e in &a.args {
        out.push_str(", ");
        expr(out, e, Prec::Top);
    }
    out.push_str(");\n");
}

fn assignment(out: &mut String, lhss: &[Lhs], rhss: &[Expr]) {
    for (i, l) in lhss.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        lhs(out, l);
    }
    out.push_str(" := ");
    exprs(out, rhss);
    out.push(';');
}

fn var_decl(out: &mut String, keyword: &str, v: &VarDecl) {
    out.push_str(keyword);
    out.push(' ');
    attributes(out, &v.attrs);
    typed_idents(out, &v.vars);
    out.push_str(";\n");
}

fn fn_param(out: &mut String, p: &FnParam) {
    if let Some(n) = &p.name {
        ident(out, n);
        out.push_str(": ");
    }
    ty(out, &p.ty, false);
}

/// `{:attrs} P<a>(ins) returns (outs)` (no terminator).
fn signature(
    out: &mut String,
    attrs: &[Attribute],
    name: &Ident,
    tps: &[Ident],
    ins: &[TypedIdent],
    outs: &[TypedIdent],
) {
    attributes(out, attrs);
    ident(out, name);
    type_params(out, tps, false);
    out.push('(');
    typed_idents(out, ins);
    out.push(')');
    if !outs.is_empty() {
        out.push_str(" returns (");
        typed_idents(out, outs);
        out.push(')');
    }
}
