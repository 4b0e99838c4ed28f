//! The grammar, as chumsky combinators over [`Tok`]ens. It follows Boogie 2.4.1's
//! `BoogiePL.atg` production by production (precedence, associativity, where attributes may
//! appear, the `VarOrType` rules of function parameters), plus `barrier` and `vec` statements.
//!
//! Expressions are built as `(Expr, depth)` pairs so that the tree depth is known while it is
//! built: a node deeper than [`super::MAX_EXPR_DEPTH`] is replaced by a shallow placeholder and
//! reported, so no over-deep tree ever exists (dropping one would overflow the stack).
//!
//! **Fast path.** The grammar is built twice (see `parser/mod.rs`): the `EmptyErr` instance
//! parses, and only when it fails does the `Rich` instance parse again to explain. In the
//! `EmptyErr` instance ([`super::PErr::FAST_PATH`]) the four expression levels `nested(binary)`,
//! `unary`, `coerce` and `postfix` are one `custom` parser, [`fast_exprs::fast_expr`], that peeks at the
//! next token instead of running (and rewinding) a combinator per level; the common atoms
//! (variables, calls, small literals, parentheses, `if`) and `[..]` selections and updates are
//! chosen by their first token ([`fast_exprs::fast_atom`], [`fast_exprs::fast_suffix`]), and so are the common simple
//! statements (`assume`, `assert`, `call`, assignments: [`stmts::fast_stmt`]); every rarer form runs
//! the very same declarative sub-parser. It is equal to the declarative grammar, which the
//! `Rich` instance keeps, because each loop is the combinator it replaces, step by step:
//! `unop*` consumes exactly the `!`/`-` tokens `select!` would; `suffix*`, `(: type)*` and
//! `(binop unary)*` try one more item only when its first token is there (otherwise the item's
//! parser fails on that token without consuming anything) and rewind it on failure, as
//! `repeated` does; a `choice` whose alternatives all start with different tokens is decided
//! by the next token, so taking the matching alternative directly changes nothing; the folds
//! build the same nodes with the same spans and depths; the binary operators go through the
//! same [`operators::resolve`], whose complaints are emitted; the nesting depth is entered and left as by
//! `enter`/`exit` (and restored by rewinds alike). Labels only matter for `Rich` errors. The
//! instances therefore accept the same inputs with the same ASTs; `tests/parser_fast_path.rs`
//! checks this on the corpus and on mutated tricky inputs.
//!
//! The parts, by the level of the language they read, each built on those before it: [`tokens`]
//! (the parser types, single tokens, identifiers, literals, lists and the nesting depth),
//! [`types`], [`operators`] (suffixes and binary operators), [`fast_exprs`] (the fast path of
//! expressions), [`exprs`] (with attributes and triggers), [`stmts`] and [`decls`] (which
//! assembles the [`Grammar`]).

mod decls;
mod exprs;
mod fast_exprs;
mod operators;
mod stmts;
mod tokens;
mod types;

pub(crate) use decls::{build, Grammar};
