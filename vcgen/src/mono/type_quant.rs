//! Type quantifiers inside formulas (`assume (forall<t> m: [t]bool :: ...)`, `assert !(forall<t>
//! y: t :: x[y])`), eliminated by the polarity of their position, so that monomorphisation can
//! go on with ground formulas.
//!
//! Boogie encodes a type quantifier as an ordinary quantifier over type terms (Leino and Rümmer,
//! "A Polymorphic Intermediate Verification Language: Design and Logical Encoding", TACAS 2010,
//! §3-§4). kivl keeps its ground encoding and eliminates each type quantifier by where it
//! stands. A position is a *hypothesis* when the formula there is assumed (an axiom, `assume`,
//! `free` contracts, and the negated parts of an asserted formula) and a *goal* when it must be
//! proved; replacing a hypothesis by something weaker or a goal by something stronger can only
//! cost proofs, never make a wrong one:
//!
//! - a **universal** type quantifier in a hypothesis (an existential in a goal) becomes the
//!   conjunction (disjunction) of its instances at the program's ground types (the universe of
//!   [`super`]'s axiom instantiation): fewer instances assume (claim) less;
//! - a **universal** type quantifier in a goal becomes its instance at a fresh uninterpreted type
//!   (what holds for an arbitrary type holds for every type: no operation of the program tells
//!   types apart), provided that no quantifier of the formula the fresh type would have to depend
//!   on encloses it (only universal quantifiers of the goal may, as eigenvariables do). The same
//!   for an **existential** type quantifier in an axiom (a witness type fixed once, Skolem's
//!   rule; not in statements, which a path may run more than once with other witnesses, nor
//!   for a universal in a goal position of an assumed formula, `assume !(forall<t> ...)`,
//!   which is the same witness);
//! - otherwise (a universal goal under an existential, an existential hypothesis in a
//!   statement) the subformula is replaced by `false` in a goal and by `true` in a hypothesis;
//! - a hypothesis whose type quantifier stands where it is both assumed and proved (inside
//!   `<==>`, `==`, a function argument, a lambda) becomes `true`: assumed no more.
//!
//! A formula that is both assumed and proved (a contract without `free`: proved by the
//! implementation, assumed by callers; a loop invariant) is transformed as a goal when that
//! only gives fresh types (no instances, nothing replaced): then the result is equivalent to
//! the formula in both roles, as the fresh types are arbitrary. Type quantifiers in positions
//! that are both (operands of `<==>` or `==`, arguments of functions, function bodies, lambdas
//! with type parameters), and the other formulas of both roles, are left to [`super`], which
//! reports them as unsupported.

use super::subst::{substitute_types, substitution, without_type_params};
use ivl::ast::*;
use ivl::check::Ty;
use ivl::visit::{walk_expr_mut, walk_stmt_mut, Node, VisitMut};

/// Whether a formula position is assumed or proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Hyp,
    Goal,
}

impl Role {
    fn flip(self) -> Role {
        match self {
            Role::Hyp => Role::Goal,
            Role::Goal => Role::Hyp,
        }
    }
}

/// The elimination of the type quantifiers of one declaration.
pub struct TypeQuantElim<'a> {
    /// The ground types a universal hypothesis is instantiated at.
    pub universe: &'a [Ty],
    /// A fresh uninterpreted type standing for a type parameter.
    pub fresh_sort: &'a mut dyn FnMut(&Ident) -> Ty,
    /// Whether existential hypotheses may take a fresh witness type (axioms only).
    pub skolem_hyp: bool,
    /// At most this many instances of one type quantifier.
    pub max_instances: usize,
    /// Some type quantifier became instances.
    pub instantiated: bool,
    /// Some type quantifier became instances or a constant (not only fresh types).
    pub inexact: bool,
    /// The formula being walked is assumed (`assume`, a `free` contract, an axiom). A goal
    /// position inside it is negated (`assume !(forall<t> ...)`): a fresh type there is a
    /// witness, as for an existential hypothesis, and only axioms may fix one. Elsewhere a
    /// copy of the statement (an inlined call, an unwound loop) would share the witness with
    /// the original, although each run may need another.
    pub assumed: bool,
}

impl TypeQuantElim<'_> {
    /// Eliminates the type quantifiers of the declaration's formulas whose role is known: an
    /// axiom, `free` contracts, `assert` and `assume` statements.
    pub fn decl(&mut self, d: &mut Decl) {
        match &mut d.kind {
            DeclKind::Axiom(a) => self.formula(&mut a.expr, Role::Hyp),
            DeclKind::Procedure(p) => {
                for c in &mut p.contracts {
                    if c.free {
                        self.formula(&mut c.expr, Role::Hyp);
                    } else {
                        self.exact(&mut c.expr);
                    }
                }
                if let Some(b) = &mut p.body {
                    b.accept_mut(&mut Statements(self));
                }
            }
            DeclKind::Implementation(i) => i.body.accept_mut(&mut Statements(self)),
            _ => {}
        }
    }

    pub fn formula(&mut self, e: &mut Expr, role: Role) {
        self.assumed = role == Role::Hyp;
        self.walk(e, role, true)
    }

    /// `e`, both assumed and proved, as a goal if that only introduces fresh types; else
    /// unchanged.
    pub fn exact(&mut self, e: &mut Expr) {
        let (instantiated, inexact) = (self.instantiated, self.inexact);
        self.inexact = false;
        let mut x = e.clone();
        self.formula(&mut x, Role::Goal);
        if !self.inexact {
            *e = x;
        }
        self.instantiated = instantiated;
        self.inexact = inexact;
    }

    /// `eigen`: no quantifier that a fresh type would have to depend on encloses `e`.
    fn walk(&mut self, e: &mut Expr, role: Role, eigen: bool) {
        match &mut e.kind {
            ExprKind::Unary(UnOp::Not, a) => self.walk(a, role.flip(), eigen),
            ExprKind::Binary(op, a, b) => {
                let (ra, rb) = match op {
                    BinOp::And | BinOp::Or => (role, role),
                    BinOp::Implies => (role.flip(), role),
                    BinOp::Explies => (role, role.flip()),
                    _ => return self.both(e, role),
                };
                self.walk(a, ra, eigen);
                self.walk(b, rb, eigen);
            }
            ExprKind::Old(a) | ExprKind::Coerce(a, _) => self.walk(a, role, eigen),
            ExprKind::IfThenElse(_, a, b) => {
                self.walk(a, role, eigen);
                self.walk(b, role, eigen);
            }
            ExprKind::Let(l) => self.walk(&mut l.body, role, eigen),
            // Eliminated by the front end (ivl::code_exprs).
            ExprKind::Code(_) => {}
            ExprKind::Quant(q) if q.kind == QuantKind::Lambda => self.both(e, role),
            ExprKind::Quant(q) if !q.type_params.is_empty() => self.type_quant(e, role, eigen),
            ExprKind::Quant(q) => {
                let inner =
                    eigen && matches!((q.kind, role), (QuantKind::Forall, Role::Goal) | (QuantKind::Exists, Role::Hyp));
                self.walk(&mut q.body, role, inner);
            }
            _ => self.both(e, role),
        }
    }

    /// `e`, whose parts are both assumed and proved (`a <==> b`, `f(a)`): a hypothesis with a
    /// type quantifier inside becomes `true` (assumed no more); a goal stays (unsupported).
    fn both(&mut self, e: &mut Expr, role: Role) {
        if role == Role::Hyp && !super::type_quantifiers(e).is_empty() {
            self.inexact = true;
            *e = Expr::new(ExprKind::BoolLit(true), e.span);
        }
    }

    /// `e`, a `forall` or `exists` with type parameters at `role`, replaced as described in the
    /// module documentation.
    fn type_quant(&mut self, e: &mut Expr, role: Role, eigen: bool) {
        let ExprKind::Quant(q) = &e.kind else { return };
        let forall = q.kind == QuantKind::Forall;
        let params = q.type_params.clone();
        let body = without_type_params(q, e.span);
        let span = e.span;
        if forall == (role == Role::Hyp) {
            self.instantiated = true;
            self.inexact = true;
            let mut parts = Vec::new();
            for tys in super::tuples(self.universe, params.len()).into_iter().take(self.max_instances) {
                let mut x = body.clone();
                substitute_types(&mut x, &substitution(&params, &tys));
                self.walk(&mut x, role, eigen);
                parts.push(not_a_call(x));
            }
            let op = if forall { BinOp::And } else { BinOp::Or };
            let joined = parts.into_iter().reduce(|a, b| Expr::binary(op, a, b));
            *e = joined.unwrap_or_else(|| Expr::new(ExprKind::BoolLit(forall), span));
        } else if eigen && ((role == Role::Goal && !self.assumed) || self.skolem_hyp) {
            let tys: Vec<Ty> = params.iter().map(|p| (self.fresh_sort)(p)).collect();
            let mut x = body;
            substitute_types(&mut x, &substitution(&params, &tys));
            self.walk(&mut x, role, eigen);
            *e = x;
        } else {
            self.inexact = true;
            *e = Expr::new(ExprKind::BoolLit(role == Role::Hyp), span);
        }
    }
}

/// Replaces each type quantifier whose body is trivially true (`true`, `false ==> e`,
/// `e ==> true`; Dafny's `b := (forall<alpha> o: ref, f: Field alpha :: false ==> F[o, f])`)
/// by `true`, in any position: an equivalence (every type and every type's domain is
/// non-empty), so it needs no role.
pub fn drop_trivial<T: Node + ?Sized>(node: &mut T) {
    struct Drop;
    impl VisitMut for Drop {
        fn visit_expr(&mut self, e: &mut Expr) {
            walk_expr_mut(self, e);
            if let ExprKind::Quant(q) = &e.kind {
                if q.kind != QuantKind::Lambda && !q.type_params.is_empty() && trivially_true(&q.body) {
                    *e = Expr::new(ExprKind::BoolLit(true), e.span);
                }
            }
        }
    }
    node.accept_mut(&mut Drop);
}

fn trivially_true(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::BoolLit(b) => *b,
        ExprKind::Binary(BinOp::Implies, a, b) => {
            matches!(a.kind, ExprKind::BoolLit(false)) || matches!(b.kind, ExprKind::BoolLit(true))
        }
        _ => false,
    }
}

/// The `assert` (goal) and `assume` (hypothesis) statements of a body.
struct Statements<'x, 'a>(&'x mut TypeQuantElim<'a>);

impl VisitMut for Statements<'_, '_> {
    fn visit_stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Assert { expr, .. } => self.0.formula(expr, Role::Goal),
            StmtKind::Assume { expr, .. } => self.0.formula(expr, Role::Hyp),
            StmtKind::While { invariants, .. } => {
                for i in invariants {
                    if i.free {
                        self.0.formula(&mut i.expr, Role::Hyp);
                    } else {
                        self.0.exact(&mut i.expr);
                    }
                }
            }
            _ => {}
        }
        walk_stmt_mut(self, s)
    }
}

/// `e`, as `e: bool` if it is a function application: the type checker checks the operands
/// of `&&` and `||` left to right unless the left one is an application (inferred from the
/// right one), and [`super::subst::Occurrences`] needs the copies met in order.
fn not_a_call(e: Expr) -> Expr {
    if matches!(e.kind, ExprKind::Call(..)) {
        let span = e.span;
        Expr::new(ExprKind::Coerce(Box::new(e), Box::new(Type::bool())), span)
    } else {
        e
    }
}
