//! Lowering of structured bodies to basic blocks ([`crate::blocks`]).
//!
//! Why: every later pass — loop cutting, passification, the CFG sort order and predication of
//! seed 000 §4.1 — works on a control-flow graph of basic blocks, not on nested statements. This
//! module is Boogie's "big block" translation (Leino, "This is Boogie 2", §8 and §9):
//!
//! - a sequence of simple statements stays in one block; a label `L:` starts block `L` (the
//!   block before it falls through with `goto L`); `goto` and `return` end a block, and whatever
//!   follows them up to the next label goes to a fresh (unreachable) block;
//! - `if (c) S else T` becomes `goto anonN_Then, anonN_Else;` with `assume c;` / `assume !c;`
//!   leading the two branches, which both jump to `anonN_Join`; `if (*)` has no assumes;
//! - `while (c) invariant I; S` becomes a loop-header block `anonN_LoopHead` whose leading
//!   statements are the invariants — `assert {:check "invariant"} {:related_span ..} I;` for a
//!   checked invariant, `assume I;` for a `free invariant` (assumed at the head, never checked,
//!   as in Boogie) — followed by `goto anonN_LoopBody, anonN_LoopDone;`; the body block starts
//!   with `assume c;` and jumps back to the header, the exit block starts with `assume !c;`.
//!   A `break` jumps past that `assume` to `anonN_LoopExit`.
//!   This is exactly the shape of an unstructured Boogie loop (docs/kbpl.md §3.1: the leading asserts
//!   of a loop header are its invariants), so loop cutting treats both the same way;
//! - `break;` jumps to the exit of the innermost `while`, `break L;` to the end of the enclosing
//!   `while` or `if` labelled `L`.
//!
//! Generated labels (`anonN...`) never clash with the user's labels. A `goto` to an unknown
//! label, a duplicate label and a misplaced `break` are diagnostics, never panics. Blocks are
//! emitted in source order with the entry first; unreachable blocks are kept (see
//! [`crate::cfg::remove_unreachable`]).

use crate::ast::*;
use crate::blocks::{check_attrs, Block, BlockImpl, Terminator};
use crate::diag::Diagnostic;
use std::collections::{HashMap, HashSet};

/// Lowers the body of an implementation to block form.
pub fn lower_body(imp: &ImplementationDecl) -> Result<BlockImpl, Vec<Diagnostic>> {
    lower(&imp.attrs, &imp.name, &imp.ins, &imp.outs, &imp.body)
}

/// Lowers the body of a procedure declared with a body (`procedure P() { ... }`).
pub fn lower_procedure_body(proc: &ProcedureDecl) -> Result<BlockImpl, Vec<Diagnostic>> {
    match &proc.body {
        Some(body) => lower(&proc.attrs, &proc.name, &proc.ins, &proc.outs, body),
        None => Err(vec![Diagnostic::type_error(
            format!("procedure `{}` has no body to lower", proc.name.name),
            proc.name.span,
        )]),
    }
}

/// Lowers any body, given the header parts of its implementation.
pub fn lower(
    attrs: &[Attribute],
    name: &Ident,
    ins: &[TypedIdent],
    outs: &[TypedIdent],
    body: &Body,
) -> Result<BlockImpl, Vec<Diagnostic>> {
    let mut lw = Lowerer::new(body);
    lw.stmts(&body.stmts);
    if lw.cur.is_some() || lw.blocks.is_empty() {
        lw.ensure_open();
        lw.close(Terminator::Return, lw.end_span);
    }
    if !lw.diags.is_empty() {
        return Err(lw.diags);
    }
    let locals = body
        .locals
        .iter()
        .flat_map(|d| {
            d.vars.iter().map(move |v| {
                let mut v = v.clone();
                if !d.attrs.is_empty() {
                    let mut attrs = d.attrs.clone();
                    attrs.extend(v.attrs);
                    v.attrs = attrs;
                }
                v
            })
        })
        .collect();
    Ok(BlockImpl {
        attrs: attrs.to_vec(),
        name: name.clone(),
        ins: ins.to_vec(),
        outs: outs.to_vec(),
        locals,
        blocks: lw.blocks,
        span: body.span,
    })
}

/// Every label defined in `stmts` (recursively), with the span of its first definition;
/// duplicates are reported into `diags`.
fn collect_labels(stmts: &[Stmt], seen: &mut HashMap<Name, Span>, diags: &mut Vec<Diagnostic>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Label(l) => {
                if let Some(first) = seen.get(&l.name) {
                    diags.push(
                        Diagnostic::type_error(format!("duplicate label `{}`", l.name), l.span)
                            .with_label("defined again here")
                            .with_related(*first, "first defined here"),
                    );
                } else {
                    seen.insert(l.name.clone(), l.span);
                }
            }
            StmtKind::If { then, els, .. } => {
                collect_labels(then, seen, diags);
                match els {
                    Some(Else::Block(b)) => collect_labels(b, seen, diags),
                    Some(Else::If(s)) => collect_labels(std::slice::from_ref(&**s), seen, diags),
                    None => {}
                }
            }
            StmtKind::While { body, .. } | StmtKind::Block(body) => collect_labels(body, seen, diags),
            _ => {}
        }
    }
}

/// An enclosing statement that `break` can leave.
struct BreakTarget {
    labels: Vec<Name>,
    exit: Ident,
    is_loop: bool,
    /// Whether a `break` jumped to `exit`.
    used: bool,
}

struct Lowerer {
    blocks: Vec<Block>,
    /// The open block: its label and statements so far.
    cur: Option<(Ident, Vec<Stmt>)>,
    user_labels: HashMap<Name, Span>,
    used: HashSet<Name>,
    counter: usize,
    breaks: Vec<BreakTarget>,
    diags: Vec<Diagnostic>,
    /// Where the implicit `return` at the end of the body is (its closing brace).
    end_span: Span,
}

impl Lowerer {
    fn new(body: &Body) -> Lowerer {
        let mut user_labels = HashMap::new();
        let mut diags = Vec::new();
        collect_labels(&body.stmts, &mut user_labels, &mut diags);
        let used = user_labels.keys().cloned().collect();
        let end = body.span.end;
        Lowerer {
            blocks: Vec::new(),
            cur: None,
            user_labels,
            used,
            counter: 0,
            breaks: Vec::new(),
            diags,
            end_span: Span { start: end.saturating_sub(1), end },
        }
    }

    /// A fresh number `n` such that `anon{n}` with every suffix in `suffixes` is unused.
    fn fresh_number(&mut self, suffixes: &[&str]) -> usize {
        loop {
            let n = self.counter;
            self.counter += 1;
            if suffixes.iter().all(|s| !self.used.contains(format!("anon{n}{s}").as_str())) {
                for s in suffixes {
                    self.used.insert(format!("anon{n}{s}").into());
                }
                return n;
            }
        }
    }

    fn fresh_label(&mut self, span: Span) -> Ident {
        let n = self.fresh_number(&[""]);
        Ident::new(format!("anon{n}"), span)
    }

    fn close(&mut self, term: Terminator, span: Span) {
        if let Some((label, stmts)) = self.cur.take() {
            self.blocks.push(Block { label, stmts, term, span });
        }
    }

    /// Ends the open block (if any) with a jump to `target`.
    fn jump(&mut self, target: &Ident, span: Span) {
        self.close(Terminator::Goto(vec![target.clone()]), span);
    }

    /// Starts block `label`; the open block falls through to it.
    fn start(&mut self, label: Ident) {
        self.jump(&label, label.span);
        self.cur = Some((label, Vec::new()));
    }

    fn ensure_open(&mut self) {
        if self.cur.is_none() {
            let span = self.end_span;
            let l = self.fresh_label(span);
            self.cur = Some((l, Vec::new()));
        }
    }

    fn push(&mut self, s: Stmt) {
        self.ensure_open();
        self.cur.as_mut().expect("open block").1.push(s);
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        let mut pending: Vec<Name> = Vec::new();
        for s in stmts {
            if let StmtKind::Label(l) = &s.kind {
                self.start(l.clone());
                pending.push(l.name.clone());
                continue;
            }
            let labels = std::mem::take(&mut pending);
            self.stmt(s, labels);
        }
    }

    fn stmt(&mut self, s: &Stmt, labels: Vec<Name>) {
        match &s.kind {
            StmtKind::Label(_) => unreachable!("labels are handled by `stmts`"),
            StmtKind::Assign { .. }
            | StmtKind::Havoc(_)
            | StmtKind::Assert { .. }
            | StmtKind::Assume { .. }
            | StmtKind::Call { .. }
            | StmtKind::Barrier { .. }
            | StmtKind::Atomic(_)
            | StmtKind::Vector(_) => self.push(s.clone()),
            StmtKind::Goto(targets) => {
                for t in targets {
                    if !self.user_labels.contains_key(&t.name) {
                        self.diags.push(
                            Diagnostic::type_error(format!("undefined label `{}`", t.name), t.span)
                                .with_label("no block has this label"),
                        );
                    }
                }
                self.ensure_open();
                self.close(Terminator::Goto(targets.clone()), s.span);
            }
            StmtKind::Return => {
                self.ensure_open();
                self.close(Terminator::Return, s.span);
            }
            StmtKind::Break(label) => {
                let target = match label {
                    None => self.breaks.iter_mut().rev().find(|b| b.is_loop),
                    Some(l) => self.breaks.iter_mut().rev().find(|b| b.labels.contains(&l.name)),
                };
                match target {
                    Some(t) => {
                        t.used = true;
                        let exit = t.exit.clone();
                        self.ensure_open();
                        self.jump(&exit, s.span);
                    }
                    None => {
                        let msg = match label {
                            None => "`break` outside of a loop".to_string(),
                            Some(l) => {
                                format!("`break {}` does not name an enclosing `while` or `if`", l.name)
                            }
                        };
                        self.diags.push(Diagnostic::type_error(msg, s.span));
                    }
                }
            }
            StmtKind::Block(stmts) => self.stmts(stmts),
            StmtKind::If { cond, then, els } => self.lower_if(s.span, cond.as_ref(), then, els.as_ref(), labels),
            StmtKind::While { cond, invariants, body } => {
                self.lower_while(s.span, cond.as_ref(), invariants, body, labels)
            }
        }
    }

    fn lower_if(&mut self, span: Span, cond: Option<&Expr>, then: &[Stmt], els: Option<&Else>, labels: Vec<Name>) {
        self.ensure_open();
        let n = self.fresh_number(&["_Then", "_Else", "_Join"]);
        let then_l = Ident::new(format!("anon{n}_Then"), span);
        let else_l = Ident::new(format!("anon{n}_Else"), span);
        let join = Ident::new(format!("anon{n}_Join"), span);
        self.close(Terminator::Goto(vec![then_l.clone(), else_l.clone()]), span);
        self.breaks.push(BreakTarget { labels, exit: join.clone(), is_loop: false, used: false });

        self.cur = Some((then_l, Vec::new()));
        if let Some(c) = cond {
            self.push(assume(c.clone()));
        }
        self.stmts(then);
        self.jump(&join, span);

        self.cur = Some((else_l, Vec::new()));
        if let Some(c) = cond {
            self.push(assume(Expr::not(c.clone())));
        }
        match els {
            Some(Else::Block(b)) => self.stmts(b),
            Some(Else::If(s)) => self.stmt(s, Vec::new()),
            None => {}
        }
        self.jump(&join, span);

        self.breaks.pop();
        self.cur = Some((join, Vec::new()));
    }

    fn lower_while(
        &mut self,
        span: Span,
        cond: Option<&Expr>,
        invariants: &[Invariant],
        body: &[Stmt],
        labels: Vec<Name>,
    ) {
        // The header has a predecessor outside the loop (the entry is never a loop header).
        self.ensure_open();
        let n = self.fresh_number(&["_LoopHead", "_LoopBody", "_LoopDone", "_LoopExit"]);
        let head = Ident::new(format!("anon{n}_LoopHead"), span);
        let body_l = Ident::new(format!("anon{n}_LoopBody"), span);
        let done = Ident::new(format!("anon{n}_LoopDone"), span);
        // `break` leaves the loop without assuming that the condition is false: when the loop
        // has a condition, it jumps past the `assume !c` of the done block.
        let exit = if cond.is_some() { Ident::new(format!("anon{n}_LoopExit"), span) } else { done.clone() };
        self.start(head.clone());
        for inv in invariants {
            self.push(invariant_stmt(inv));
        }
        self.close(Terminator::Goto(vec![body_l.clone(), done.clone()]), span);
        self.breaks.push(BreakTarget { labels, exit: exit.clone(), is_loop: true, used: false });

        self.cur = Some((body_l, Vec::new()));
        if let Some(c) = cond {
            self.push(assume(c.clone()));
        }
        self.stmts(body);
        self.jump(&head, span);

        let broken = self.breaks.pop().is_some_and(|b| b.used);
        self.cur = Some((done, Vec::new()));
        if let Some(c) = cond {
            self.push(assume(Expr::not(c.clone())));
            if broken {
                self.start(exit);
            }
        }
    }
}

fn assume(e: Expr) -> Stmt {
    let span = e.span;
    Stmt::new(StmtKind::Assume { attrs: Vec::new(), expr: e }, span)
}

/// The leading statement of a loop header that stands for `inv`: a checked invariant is an
/// `assert {:check "invariant"} {:related_span ..}` (loop cutting turns it into the entry and
/// maintenance checks), a free invariant an `assume`.
pub fn invariant_stmt(inv: &Invariant) -> Stmt {
    if inv.free {
        Stmt::new(StmtKind::Assume { attrs: inv.attrs.clone(), expr: inv.expr.clone() }, inv.span)
    } else {
        let attrs = with_check(&inv.attrs, "invariant", Some(inv.span));
        Stmt::new(StmtKind::Assert { attrs, expr: inv.expr.clone() }, inv.span)
    }
}

/// `attrs` with its `{:check}` / `{:related_span}` attributes replaced by those of
/// [`check_attrs`]`(kind, related)`; the other attributes are kept after them.
pub fn with_check(attrs: &[Attribute], kind: &str, related: Option<Span>) -> Vec<Attribute> {
    let mut out = check_attrs(kind, related);
    out.extend(
        attrs
            .iter()
            .filter(|a| a.name.as_str() != "check" && (related.is_none() || a.name.as_str() != "related_span"))
            .cloned(),
    );
    out
}
