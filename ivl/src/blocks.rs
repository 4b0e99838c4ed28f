//! The unstructured form of an implementation: a list of basic blocks, each a label, simple
//! statements and a terminator — Boogie's own internal form of a body, and the form that every
//! CFG-based pass (loop cutting, passification, sort order, predication) works on.
//!
//! A block body converts back to an ordinary [`Body`] of labels and `goto`s, so that it prints
//! as `.kbpl` and parses again.
//!
//! Conventions shared by the passes that build and read block bodies:
//! - Statements inside blocks are "simple": `Assign`, `Havoc`, `Assert`, `Assume`, `Call`,
//!   `Barrier`, `Vector` (no `If`, `While`, `Label`, `Goto`, `Return`, `Break`, `Block`).
//! - An `assert` produced by desugaring says which check it is with `{:check "KIND"}` (a docs/kbpl.md
//!   §3 error kind such as `"precondition"` or `"invariant-entry"`; absent means `"assertion"`)
//!   and where the related source clause is with `{:related_span START, END}` (byte offsets).

use crate::ast::*;
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Terminator {
    Goto(Vec<Ident>),
    Return,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Block {
    pub label: Ident,
    pub stmts: Vec<Stmt>,
    pub term: Terminator,
    pub span: Span,
}

/// An implementation whose body is in block form. The first block is the entry.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BlockImpl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub ins: Vec<TypedIdent>,
    pub outs: Vec<TypedIdent>,
    pub locals: Vec<TypedIdent>,
    pub blocks: Vec<Block>,
    pub span: Span,
}

impl BlockImpl {
    /// Label name to block index.
    pub fn label_index(&self) -> HashMap<Name, usize> {
        self.blocks.iter().enumerate().map(|(i, b)| (b.label.name.clone(), i)).collect()
    }

    /// Successor indices of every block (unknown labels are skipped; resolution reports them).
    pub fn successors(&self) -> Vec<Vec<usize>> {
        let index = self.label_index();
        self.blocks
            .iter()
            .map(|b| match &b.term {
                Terminator::Goto(ts) => ts.iter().filter_map(|t| index.get(&t.name).copied()).collect(),
                Terminator::Return => Vec::new(),
            })
            .collect()
    }

    /// The body as labels, simple statements and `goto`/`return`.
    pub fn to_body(&self) -> Body {
        let mut stmts = Vec::new();
        for b in &self.blocks {
            stmts.push(Stmt::new(StmtKind::Label(b.label.clone()), b.label.span));
            stmts.extend(b.stmts.iter().cloned());
            let term = match &b.term {
                Terminator::Goto(ts) => StmtKind::Goto(ts.clone()),
                Terminator::Return => StmtKind::Return,
            };
            stmts.push(Stmt::new(term, b.span));
        }
        // A local with attributes gets a `var` of its own, the attributes on the declaration:
        // printed in a shared `var {:a} x: T, y: U;` they would apply to `y` too when parsed
        // again (Boogie's rule, `ivl::lower`), e.g. make `y` an assumption variable.
        let (plain, marked): (Vec<TypedIdent>, Vec<TypedIdent>) =
            self.locals.iter().cloned().partition(|v| v.attrs.is_empty());
        let mut locals: Vec<VarDecl> =
            marked.into_iter().map(|mut v| VarDecl { attrs: std::mem::take(&mut v.attrs), vars: vec![v] }).collect();
        if !plain.is_empty() {
            locals.push(VarDecl { attrs: Vec::new(), vars: plain });
        }
        Body { locals, stmts, span: self.span }
    }

    /// The implementation declaration that prints this block body.
    pub fn to_decl(&self) -> Decl {
        Decl {
            kind: DeclKind::Implementation(ImplementationDecl {
                attrs: self.attrs.clone(),
                name: self.name.clone(),
                type_params: Vec::new(),
                ins: self.ins.clone(),
                outs: self.outs.clone(),
                body: self.to_body(),
            }),
            span: self.span,
        }
    }
}

/// The check kind an assert carries (`{:check "KIND"}`), `"assertion"` when absent.
pub fn check_kind(attrs: &[Attribute]) -> &str {
    match find_attr(attrs, "check").and_then(|a| a.args.first()) {
        Some(AttrArg::String(s, _)) => s.as_str(),
        _ => "assertion",
    }
}

/// The related span an assert carries (`{:related_span START, END}`).
pub fn related_span(attrs: &[Attribute]) -> Option<Span> {
    let a = find_attr(attrs, "related_span")?;
    let num = |i: usize| match a.args.get(i) {
        Some(AttrArg::Expr(Expr { kind: ExprKind::IntLit(v), .. })) => u32::try_from(v).ok(),
        _ => None,
    };
    Some(Span { start: num(0)?, end: num(1)? })
}

/// The attributes that mark an assert as check `kind` related to `related`.
pub fn check_attrs(kind: &str, related: Option<Span>) -> Vec<Attribute> {
    let mut attrs = vec![Attribute {
        name: Ident::new("check", Span::DUMMY),
        args: vec![AttrArg::String(kind.into(), Span::DUMMY)],
        span: Span::DUMMY,
    }];
    if let Some(r) = related {
        let int = |v: u32| AttrArg::Expr(Expr::new(ExprKind::IntLit(v.into()), Span::DUMMY));
        attrs.push(Attribute {
            name: Ident::new("related_span", Span::DUMMY),
            args: vec![int(r.start), int(r.end)],
            span: Span::DUMMY,
        });
    }
    attrs
}
