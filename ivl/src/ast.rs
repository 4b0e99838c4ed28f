//! The abstract syntax of `.kbpl`: Boogie 2 core (Leino, "This is Boogie 2") plus the GPU
//! extensions of docs/kbpl.md §3.3 (`barrier`, barrier invariants) and the lock-step vector
//! statements of seed 000 §4.2 (Table 3), so that every pass's output is itself a `.kbpl` program.
//!
//! Every node carries a [`Span`] of byte offsets into the file it was parsed from. Nodes built by
//! passes reuse the span of the source construct they came from, so that errors found late in the
//! pipeline still point at the user's text. Equality of trees *ignoring spans* is
//! [`crate::visit::strip_spans`] followed by `==`.

use num_bigint::BigUint;
use smol_str::SmolStr;

/// A name. Cheap to clone; short names are stored inline.
pub type Name = SmolStr;

/// A half-open range of byte offsets `[start, end)` into a source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub const DUMMY: Span = Span { start: 0, end: 0 };

    pub fn new(start: usize, end: usize) -> Span {
        Span { start: start as u32, end: end as u32 }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.start as usize..self.end as usize
    }

    /// The same span moved `by` bytes to the right.
    pub fn shifted(self, by: u32) -> Span {
        Span { start: self.start + by, end: self.end + by }
    }
}

/// An identifier occurrence: a name and where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: Name,
    pub span: Span,
}

impl Ident {
    pub fn new(name: impl Into<Name>, span: Span) -> Ident {
        Ident { name: name.into(), span }
    }
    pub fn as_str(&self) -> &str {
        self.name.as_str()
    }
}

/// `{:name arg, ...}`. Arguments are expressions or string literals.
/// The attribute that marks Boogie's `free call P(..);` (a call whose preconditions are not
/// checked) in the syntax tree; the printer prints it back as `free call`.
pub const FREE_CALL_ATTR: &str = "kivl_free_call";

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Attribute {
    pub name: Ident,
    pub args: Vec<AttrArg>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AttrArg {
    Expr(Expr),
    /// A string literal, without the quotes (escapes are kept verbatim).
    String(Name, Span),
}

/// Finds an attribute by name (without the leading `:`).
pub fn find_attr<'a>(attrs: &'a [Attribute], name: &str) -> Option<&'a Attribute> {
    attrs.iter().find(|a| a.name.as_str() == name)
}

pub fn has_attr(attrs: &[Attribute], name: &str) -> bool {
    find_attr(attrs, name).is_some()
}

// ---------------------------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    pub kind: TypeKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeKind {
    Bool,
    Int,
    Real,
    /// `bvN`, N >= 1 (`bv0` is rejected by the type checker).
    Bv(u32),
    /// A named type: a type synonym, an uninterpreted type (`type T a;` with arguments), or a
    /// type variable in scope.
    Named(Ident, Vec<Type>),
    /// `<a, b>[T1, ..., Tn]R`. Type parameters make it polymorphic (reported as unsupported).
    Map {
        type_params: Vec<Ident>,
        args: Vec<Type>,
        result: Box<Type>,
    },
}

impl Type {
    pub fn new(kind: TypeKind, span: Span) -> Type {
        Type { kind, span }
    }
    pub fn bool() -> Type {
        Type::new(TypeKind::Bool, Span::DUMMY)
    }
    pub fn int() -> Type {
        Type::new(TypeKind::Int, Span::DUMMY)
    }
    pub fn bv(width: u32) -> Type {
        Type::new(TypeKind::Bv(width), Span::DUMMY)
    }
}

// ---------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `!e`
    Not,
    /// `-e`
    Neg,
}

/// Binary operators. Precedence (loosest first), as in Boogie:
/// `<==>` < `==>` (right) < `||` `&&` < relations < `++` < `+ -` < `* div mod /` < `**` (right)
/// < unary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Iff,
    Implies,
    /// `<==`, Boogie's reverse implication (`a <== b` is `b ==> a`).
    Explies,
    Or,
    And,
    Eq,
    Neq,
    Lt,
    Le,
    Gt,
    Ge,
    /// `<:`, the partial-order relation; unsupported beyond parsing.
    Subtype,
    Concat,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    RealDiv,
    /// `**`, real exponentiation (`real ** real`, Boogie's `Opcode.Pow`).
    Pow,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Iff => "<==>",
            BinOp::Implies => "==>",
            BinOp::Explies => "<==",
            BinOp::Or => "||",
            BinOp::And => "&&",
            BinOp::Eq => "==",
            BinOp::Neq => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Subtype => "<:",
            BinOp::Concat => "++",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "div",
            BinOp::Mod => "mod",
            BinOp::RealDiv => "/",
            BinOp::Pow => "**",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuantKind {
    Forall,
    Exists,
    Lambda,
}

/// A bound variable of a quantifier or lambda, or a formal parameter.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypedIdent {
    pub name: Ident,
    pub ty: Type,
    /// Boogie's `where` clause on variables (`var x: int where x > 0;`).
    pub where_clause: Option<Expr>,
    /// Attributes written before the name in `var {:attr} x: T` style lists.
    pub attrs: Vec<Attribute>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExprKind {
    BoolLit(bool),
    IntLit(BigUint),
    /// A decimal real literal as written (`1.5`, `2.0e3`), or a float literal as written
    /// (`0x1.8e3f24e8`, `0NaN24e8`: [`crate::floats`]).
    RealLit(Name),
    /// `VALUEbvWIDTH`
    BvLit {
        value: BigUint,
        width: u32,
    },
    Var(Ident),
    Old(Box<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `f(e1, ..., en)`: a function application, or one of the spec built-ins (`__read(A)` …).
    Call(Ident, Vec<Expr>),
    /// `m[i1, ..., in]`
    Select(Box<Expr>, Vec<Expr>),
    /// `m[i1, ..., in := v]`
    Store(Box<Expr>, Vec<Expr>, Box<Expr>),
    /// `e[hi:lo]`, bits `lo` up to but excluding `hi`.
    Extract(Box<Expr>, u32, u32),
    /// `if c then a else b`
    IfThenElse(Box<Expr>, Box<Expr>, Box<Expr>),
    Quant(Box<Quantifier>),
    /// `e : T`, Boogie's type coercion.
    Coerce(Box<Expr>, Box<Type>),
    /// `(var x, y := e1, e2; body)`, Boogie's let expression.
    Let(Box<LetExpr>),
    /// `|{ var ...; A: ... goto B; B: ... return e; }|`, Boogie's code expression.
    Code(Box<CodeExpr>),
}

/// Boogie's code expression `|{ LocalVarDecl* Block+ }|`: an acyclic graph of blocks of simple
/// statements (`assert`, `assume`, assignments, `havoc`, `call`), each ending in `goto L1, ..;`
/// or `return e;`; the first block is the entry. Its value is a `bool` defined by the weakest
/// precondition of its blocks ([`crate::code_exprs`], which replaces it after type checking).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CodeExpr {
    pub locals: Vec<VarDecl>,
    pub blocks: Vec<CodeBlock>,
}

/// One block `L: S1 .. Sn (goto L1, ..; | return e;)` of a [`CodeExpr`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CodeBlock {
    pub label: Ident,
    pub stmts: Vec<Stmt>,
    pub end: CodeEnd,
    pub span: Span,
}

/// How a block of a code expression ends.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CodeEnd {
    Goto(Vec<Ident>),
    Return(Expr),
}

/// Boogie's let expression `(var x, y := e1, e2; body)`: the values are evaluated in the
/// enclosing scope, then bound (simultaneously) to the names in `body`. Replaced by
/// substitution after type checking ([`crate::lets`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LetExpr {
    pub vars: Vec<Ident>,
    pub values: Vec<Expr>,
    pub body: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Quantifier {
    pub kind: QuantKind,
    pub type_params: Vec<Ident>,
    pub vars: Vec<TypedIdent>,
    pub attrs: Vec<Attribute>,
    /// Each trigger `{ e1, ..., en }` is one multi-pattern.
    pub triggers: Vec<Trigger>,
    pub body: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Trigger {
    pub exprs: Vec<Expr>,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
    pub fn bool(b: bool) -> Expr {
        Expr::new(ExprKind::BoolLit(b), Span::DUMMY)
    }
    pub fn var(name: impl Into<Name>, span: Span) -> Expr {
        Expr::new(ExprKind::Var(Ident::new(name, span)), span)
    }
    // A constructor like its neighbours (`Expr::and`, `Expr::or`), not `std::ops::Not`.
    #[allow(clippy::should_implement_trait)]
    pub fn not(e: Expr) -> Expr {
        let span = e.span;
        Expr::new(ExprKind::Unary(UnOp::Not, Box::new(e)), span)
    }
    pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
        let span = a.span.to(b.span);
        Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
    }
    pub fn and(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::And, a, b)
    }
    pub fn or(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Or, a, b)
    }
    pub fn implies(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Implies, a, b)
    }
    pub fn eq(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Eq, a, b)
    }
    pub fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
        let span = c.span.to(b.span);
        Expr::new(ExprKind::IfThenElse(Box::new(c), Box::new(a), Box::new(b)), span)
    }
    pub fn is_true(&self) -> bool {
        matches!(self.kind, ExprKind::BoolLit(true))
    }
}

// ---------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

/// The left-hand side of an assignment: `x` or `x[i][j, k]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lhs {
    pub var: Ident,
    /// One entry per `[...]` selector, outermost first.
    pub indices: Vec<Vec<Expr>>,
    pub span: Span,
}

/// A loop invariant `[free] invariant {:attrs} e;`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Invariant {
    pub free: bool,
    pub attrs: Vec<Attribute>,
    pub expr: Expr,
    pub span: Span,
}

/// `barrier ... invariant {:instantiate e1, e2} φ;` (seed 001 §4.4).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BarrierInvariant {
    pub attrs: Vec<Attribute>,
    pub expr: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Else {
    Block(Vec<Stmt>),
    If(Box<Stmt>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum StmtKind {
    /// `L:` — labels the statement that follows.
    Label(Ident),
    /// `x, m[i] := e1, e2;`
    Assign {
        lhss: Vec<Lhs>,
        rhss: Vec<Expr>,
    },
    Havoc(Vec<Ident>),
    Assert {
        attrs: Vec<Attribute>,
        expr: Expr,
    },
    Assume {
        attrs: Vec<Attribute>,
        expr: Expr,
    },
    /// `call {:attrs} x, y := P(args);`
    Call {
        attrs: Vec<Attribute>,
        outs: Vec<Ident>,
        proc: Ident,
        args: Vec<Expr>,
    },
    Goto(Vec<Ident>),
    Return,
    Break(Option<Ident>),
    /// `if (c) {..} else ..`; `cond == None` is `if (*)`.
    If {
        cond: Option<Expr>,
        then: Vec<Stmt>,
        els: Option<Else>,
    },
    /// `while (c) invariant ...; {..}`; `cond == None` is `while (*)`.
    While {
        cond: Option<Expr>,
        invariants: Vec<Invariant>,
        body: Vec<Stmt>,
    },
    /// `barrier {:attrs} [invariant ...;]*` (docs/kbpl.md §3.3).
    Barrier {
        attrs: Vec<Attribute>,
        invariants: Vec<BarrierInvariant>,
    },
    /// `atomic x := add(A[i], v);` — an atomic read-modify-write of one element of a shared
    /// array (docs/kbpl.md §3.4).
    Atomic(AtomicStmt),
    /// A nested `{ ... }` block (Boogie allows none at statement level; passes use it to group).
    Block(Vec<Stmt>),
    /// Lock-step vector statements and ψ-assignments (seed 000 Table 3); see `crate::lockstep_syntax`.
    Vector(VectorStmt),
}

/// `atomic [x :=] op(A[i], args);` (docs/kbpl.md §3.4): reads the element `A[i]`, writes
/// `op(old, args)` back in one indivisible step and, with `x :=`, returns the old value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AtomicStmt {
    pub op: AtomicOp,
    pub out: Option<Ident>,
    /// The element: a shared array and its indices.
    pub target: Lhs,
    pub args: Vec<Expr>,
}

/// The operations of [`AtomicStmt`]: OpenCL's `atomic_*` and CUDA's `atomic*` families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Xchg,
    /// `cmpxchg(A[i], c, v)`: writes `v` if the old value is `c`.
    CmpXchg,
    /// Signed on bit-vectors.
    Min,
    Max,
    /// Unsigned minimum and maximum (bit-vectors only).
    UMin,
    UMax,
    And,
    Or,
    Xor,
    /// `+ 1` and `- 1`.
    Inc,
    Dec,
    /// CUDA's `atomicInc(p, m)`: `old >= m ? 0 : old + 1` (unsigned).
    IncWrap,
    /// CUDA's `atomicDec(p, m)`: `old == 0 || old > m ? m : old - 1` (unsigned).
    DecWrap,
    /// IEEE addition of the element and the argument read as floats (`bv32`: binary32,
    /// `bv64`: binary64).
    FAdd,
}

impl AtomicOp {
    pub const ALL: [AtomicOp; 16] = [
        AtomicOp::Add,
        AtomicOp::Sub,
        AtomicOp::Xchg,
        AtomicOp::CmpXchg,
        AtomicOp::Min,
        AtomicOp::Max,
        AtomicOp::UMin,
        AtomicOp::UMax,
        AtomicOp::And,
        AtomicOp::Or,
        AtomicOp::Xor,
        AtomicOp::Inc,
        AtomicOp::Dec,
        AtomicOp::IncWrap,
        AtomicOp::DecWrap,
        AtomicOp::FAdd,
    ];

    /// The operation's name in the syntax.
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Xchg => "xchg",
            AtomicOp::CmpXchg => "cmpxchg",
            AtomicOp::Min => "min",
            AtomicOp::Max => "max",
            AtomicOp::UMin => "umin",
            AtomicOp::UMax => "umax",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
            AtomicOp::Inc => "inc",
            AtomicOp::Dec => "dec",
            AtomicOp::IncWrap => "inc_wrap",
            AtomicOp::DecWrap => "dec_wrap",
            AtomicOp::FAdd => "fadd",
        }
    }

    pub fn from_name(s: &str) -> Option<AtomicOp> {
        AtomicOp::ALL.into_iter().find(|o| o.name() == s)
    }

    /// How many arguments follow the element.
    pub fn arity(self) -> usize {
        match self {
            AtomicOp::Inc | AtomicOp::Dec => 0,
            AtomicOp::CmpXchg => 2,
            _ => 1,
        }
    }

    /// Defined on bit-vectors only (not on `int`).
    pub fn bv_only(self) -> bool {
        matches!(
            self,
            AtomicOp::UMin
                | AtomicOp::UMax
                | AtomicOp::And
                | AtomicOp::Or
                | AtomicOp::Xor
                | AtomicOp::IncWrap
                | AtomicOp::DecWrap
                | AtomicOp::FAdd
        )
    }
}

/// Statements of the lock-step vector language of seed 000 §4.2, printed with the `vec`
/// keyword so that lock-step programs are themselves `.kbpl`:
/// - `vec x := e;` — every enabled thread `i` assigns `x[i] := e[i]`;
/// - `vec havoc x;` — every enabled thread gets an arbitrary value;
/// - `vec psi g[e1] := e2;` — ψ-assignment to shared `g`: for each written location, one enabled
///   thread's value wins (nondeterministic choice);
/// - `vec assume e;` / `vec assert e;` — for all threads (`e` over vector variables);
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum VectorStmt {
    Assign { lhss: Vec<Lhs>, rhss: Vec<Expr> },
    Havoc(Vec<Ident>),
    Psi { lhs: Lhs, rhs: Expr },
    Assume(Expr),
    Assert(Expr),
}

impl Stmt {
    pub fn new(kind: StmtKind, span: Span) -> Stmt {
        Stmt { kind, span }
    }
}

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Program {
    pub decls: Vec<Decl>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Decl {
    pub kind: DeclKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DeclKind {
    Type(TypeDecl),
    Const(ConstDecl),
    Function(FunctionDecl),
    Axiom(AxiomDecl),
    Var(VarDecl),
    Procedure(ProcedureDecl),
    Implementation(ImplementationDecl),
}

/// `type {:attrs} [finite] T a b;` or `type T a = U;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeDecl {
    pub attrs: Vec<Attribute>,
    pub finite: bool,
    pub name: Ident,
    pub params: Vec<Ident>,
    pub synonym: Option<Type>,
}

/// `const {:attrs} [unique] a, b: T [extends ...] [complete];`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ConstDecl {
    pub attrs: Vec<Attribute>,
    pub unique: bool,
    pub names: Vec<Ident>,
    pub ty: Type,
    /// The partial-order `extends` clause (parsed; unsupported).
    pub order_spec: Option<Span>,
}

/// A formal of a function: names are optional (`function f(int): int;`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnParam {
    pub name: Option<Ident>,
    pub ty: Type,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FunctionDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub type_params: Vec<Ident>,
    pub params: Vec<FnParam>,
    pub result: FnParam,
    pub body: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AxiomDecl {
    pub attrs: Vec<Attribute>,
    pub expr: Expr,
}

/// `var {:attrs} x: T, y: U;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct VarDecl {
    pub attrs: Vec<Attribute>,
    pub vars: Vec<TypedIdent>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecKind {
    Requires,
    Ensures,
}

/// `[free] requires {:attrs} e;`, `[free] ensures ...;`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Contract {
    pub kind: SpecKind,
    pub free: bool,
    pub attrs: Vec<Attribute>,
    pub expr: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProcedureDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub type_params: Vec<Ident>,
    pub ins: Vec<TypedIdent>,
    pub outs: Vec<TypedIdent>,
    pub contracts: Vec<Contract>,
    /// All `modifies` clauses, concatenated (`free modifies` is treated like `modifies`).
    pub modifies: Vec<Ident>,
    pub body: Option<Body>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImplementationDecl {
    pub attrs: Vec<Attribute>,
    pub name: Ident,
    pub type_params: Vec<Ident>,
    pub ins: Vec<TypedIdent>,
    pub outs: Vec<TypedIdent>,
    pub body: Body,
}

/// `{ var ...; stmts }`
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Body {
    pub locals: Vec<VarDecl>,
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

impl Program {
    pub fn procedures(&self) -> impl Iterator<Item = &ProcedureDecl> {
        self.decls.iter().filter_map(|d| match &d.kind {
            DeclKind::Procedure(p) => Some(p),
            _ => None,
        })
    }
    pub fn implementations(&self) -> impl Iterator<Item = &ImplementationDecl> {
        self.decls.iter().filter_map(|d| match &d.kind {
            DeclKind::Implementation(i) => Some(i),
            _ => None,
        })
    }
}

impl Decl {
    /// The name a declaration introduces, if it introduces exactly one (axioms introduce none;
    /// `const a, b: T;` introduces several and returns the first).
    pub fn name(&self) -> Option<&Ident> {
        match &self.kind {
            DeclKind::Type(t) => Some(&t.name),
            DeclKind::Const(c) => c.names.first(),
            DeclKind::Function(f) => Some(&f.name),
            DeclKind::Axiom(_) => None,
            DeclKind::Var(v) => v.vars.first().map(|v| &v.name),
            DeclKind::Procedure(p) => Some(&p.name),
            DeclKind::Implementation(i) => Some(&i.name),
        }
    }

    pub fn keyword(&self) -> &'static str {
        match &self.kind {
            DeclKind::Type(_) => "type",
            DeclKind::Const(_) => "const",
            DeclKind::Function(_) => "function",
            DeclKind::Axiom(_) => "axiom",
            DeclKind::Var(_) => "var",
            DeclKind::Procedure(_) => "procedure",
            DeclKind::Implementation(_) => "implementation",
        }
    }
}
