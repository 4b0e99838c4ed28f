//! Name resolution: scopes, duplicates, shadowing, labels (Boogie 2.4.1 rules).

#[path = "typeck_common.rs"]
mod common;
use common::*;
use ivl::diag::ErrorKind;

#[test]
fn undeclared_identifier() {
    type_err("procedure p() {\n  assert foo == 1;\n}", "undeclared identifier `foo`", 2, 10);
}

#[test]
fn undeclared_function_and_procedure() {
    type_err("axiom g(1) == 1;", "undeclared function `g`", 1, 7);
    type_err("procedure p() { call q(); }", "undeclared procedure `q`", 1, 22);
    // A procedure is not a function and vice versa.
    type_err("procedure g(x: int); axiom g(1);", "undeclared function `g`", 1, 28);
    type_err("function g(x: int): int; procedure p() { call g(1); }", "undeclared procedure `g`", 1, 47);
}

#[test]
fn undeclared_type() {
    type_err("var m: Foo;", "undeclared type `Foo`", 1, 8);
}

#[test]
fn duplicate_globals() {
    type_err("var g: int;\nvar g: int;", "duplicate declaration of variable or constant `g`", 2, 5);
    // Constants and variables share a namespace.
    type_err("const g: int; var g: int;", "duplicate declaration of variable or constant `g`", 1, 19);
    // Functions and procedures share a namespace.
    type_err("procedure g(); function g(): int;", "duplicate declaration of function or procedure `g`", 1, 25);
    type_err("type T; type T;", "duplicate declaration of type `T`", 1, 14);
    // Different namespaces: no clash.
    accepts("const g: int; function g(): int; type g;");
}

#[test]
fn duplicate_has_related_label() {
    let ds = diagnostics("var g: int;\nvar g: bool;");
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].related.len(), 1);
    assert_eq!(ds[0].related[0].span.start, 4);
}

#[test]
fn locals_may_not_redeclare_parameters() {
    type_err("procedure p(x: int) { var x: int; }", "duplicate declaration of variable `x`", 1, 27);
    type_err("procedure p() returns (x: int) { var x: int; }", "duplicate declaration of variable `x`", 1, 38);
    type_err(
        "procedure p(x: int);\nimplementation p(x: int) { var x: bool; }",
        "duplicate declaration of variable `x`",
        2,
        32,
    );
    type_err("procedure p(x: int) returns (x: int);", "duplicate declaration of variable `x`", 1, 30);
}

#[test]
fn locals_and_parameters_may_shadow_globals() {
    accepts("var g: int; procedure p() { var g: bool; g := true; }");
    accepts("var g: int; procedure p(g: bool) { assert g; }");
    accepts("const x: int; function f(x: bool): bool { x }");
}

#[test]
fn bound_variables_shadowing() {
    // Bound variables may shadow globals, and sibling quantifiers may reuse names ...
    accepts("var g: int; axiom (forall g: bool :: g);");
    accepts("axiom (forall x: int :: x == x) && (forall x: bool :: x);");
    // ... but not parameters, locals or enclosing bound variables.
    type_err("procedure p(x: int) { assert (forall x: bool :: x); }", "bound variable `x` redeclares", 1, 38);
    type_err("axiom (forall x: int :: (forall x: bool :: x));", "bound variable `x` redeclares", 1, 33);
    type_err(
        "procedure p(x: int) { var m: [int]bool; m := (lambda x: int :: true); }",
        "bound variable `x` redeclares",
        1,
        54,
    );
}

#[test]
fn scopes_of_contracts() {
    // requires sees in-parameters only; ensures also out-parameters.
    type_err("procedure p(x: int) returns (y: int);\n  requires y > x;", "undeclared identifier `y`", 2, 12);
    accepts("procedure p(x: int) returns (y: int); ensures y > x;");
    // where clause of an in-parameter cannot see out-parameters.
    type_err("procedure p(x: int where y > 0) returns (y: int);", "undeclared identifier `y`", 1, 26);
    accepts("var g: int; procedure p(x: int where x > g) returns (y: int where y > x);");
}

#[test]
fn function_scopes() {
    type_err(
        "var x: int; function f(y: bool): bool { x > 0 }",
        "global variable `x` cannot be used in a function body",
        1,
        41,
    );
    accepts("const x: int; function f(y: bool): bool { x > 0 }");
    type_err("function f(x: int, x: int): int;", "duplicate declaration of variable `x`", 1, 20);
    type_err("function f(x: int) returns (x: int);", "duplicate declaration of variable `x`", 1, 29);
    // The result name is not in scope in the body.
    type_err("function f(x: int) returns (r: int) { r }", "undeclared identifier `r`", 1, 39);
}

#[test]
fn axioms_cannot_mention_global_variables() {
    type_err("var x: int; axiom x > 0;", "global variable `x` cannot be used in an axiom", 1, 19);
    accepts("const c: int; axiom (forall x: int :: x > c);");
}

#[test]
fn modifies_clause_names() {
    type_err("procedure p(); modifies g;", "undeclared global variable `g`", 1, 25);
    type_err("const c: int; procedure p(); modifies c;", "modifies clause names constant `c`", 1, 39);
    type_err("procedure p(x: int); modifies x;", "undeclared global variable `x`", 1, 31);
}

#[test]
fn labels_and_goto() {
    type_err("procedure p() { goto L; }", "undeclared label `L`", 1, 22);
    accepts("procedure p() { L: goto L; }");
    accepts("procedure p() { goto A, B; A: return; B: return; }");
    // Jumps into and out of structured statements are fine (Boogie's rules).
    accepts("procedure p() { goto L; if (true) { L: return; } }");
    accepts("procedure p() { if (true) { goto L; } L: return; }");
    type_err("procedure p() { L: L: return; }", "duplicate label `L`", 1, 20);
    type_err("procedure p() { L: if (true) { L: return; } }", "duplicate label `L`", 1, 32);
    // Labels and variables are different namespaces.
    accepts("procedure p() { var L: int; L: L := 1; goto L; }");
}

#[test]
fn break_rules() {
    type_err("procedure p() { break; }", "`break` outside a loop", 1, 17);
    accepts("procedure p() { while (true) { break; } }");
    accepts("procedure p() { L: while (true) { break L; } }");
    accepts("procedure p() { L: if (true) { break L; } }");
    type_err(
        "procedure p() { L: assume true; while (true) { break L; } }",
        "break label `L` does not name an enclosing statement",
        1,
        54,
    );
}

#[test]
fn implementation_needs_procedure() {
    type_err("implementation p(y: int) { }", "implementation of undeclared procedure `p`", 1, 16);
    accepts("procedure p(); implementation p() {} implementation p() {}");
}

#[test]
fn attributes_are_resolved() {
    type_err("procedure p() { assert {:foo x} true; }", "undeclared identifier `x`", 1, 30);
    type_err("axiom {:foo x} true;", "undeclared identifier `x`", 1, 13);
    // Attributes may mention globals and `old` anywhere.
    accepts("var g: int; axiom {:foo g} true;");
    accepts("var g: int; procedure p(); requires {:foo old(g)} true;");
    accepts("procedure {:foo \"x\", 1, true} p();");
}

#[test]
fn unique_statement_ids() {
    rejects(
        "procedure p() {\n  assume {:id \"s0\"} true;\n  assert {:id \"s0\"} true;\n}",
        ErrorKind::Type,
        "duplicate statement id `s0`",
        3,
        10,
    );
}

#[test]
fn extern_declarations_give_way() {
    // Boogie drops a `{:extern}` declaration when another one has the same name.
    accepts("function {:extern} f(x: int): int; function f(x: bool): int; axiom f(true) == 1;");
    accepts("function f(x: bool): int; function {:extern} f(x: int): int; axiom f(true) == 1;");
    accepts("var {:extern} g: int; var g: bool; axiom true; procedure p() modifies g; { g := true; }");
    accepts("procedure {:extern} q(); procedure q();");
    type_err(
        "function {:extern} f(x: int): int; function f(x: bool): int; axiom f(1) == 1;",
        "expected `bool`, found `int`",
        1,
        70,
    );
    let (p, _) = ivl::parser::parse_program("const {:extern} c: int; const c: int; axiom c == 1;");
    assert_eq!(ivl::check::drop_shadowed_externs(&p).decls.len(), 2);
}

#[test]
fn bitvector_type_names_are_reserved() {
    type_err("type bv8;", "type name `bv8` is reserved for bit-vectors", 1, 6);
    accepts("type bv; type bvx;");
}

#[test]
fn let_expressions_bind_their_names() {
    accepts("procedure p(a: int) { assert (var x, y := a, true; y && x == a); }");
    accepts("function f(a: int): int { (var x := a; (var y := x; y)) }");
    // The values are in the enclosing scope: a name is not visible in its own value.
    type_err("procedure p() { assert (var x := x; x == 1); }", "undeclared identifier `x`", 1, 34);
    // Boogie: "more than one declaration of variable name".
    type_err("procedure p(a: int) { assert (var a := 1; a == 1); }", "let-bound variable `a` redeclares", 1, 35);
    type_err("procedure p() { assert (forall i: int :: (var i := 1; i == 1)); }", "let-bound variable `i`", 1, 47);
    type_err("procedure p() { assert (var u := 1; (var u := 2; u == 2)); }", "let-bound variable `u`", 1, 42);
    // The type of a name is its value's.
    type_err("procedure p() { assert (var b := 1; b); }", "must be of type `bool`", 1, 24);
}

#[test]
fn let_name_under_old_reading_a_global_is_unsupported() {
    rejects(
        "var g: int;\nprocedure p() modifies g; ensures (var h := g; old(h)) == g; { }",
        ErrorKind::Unsupported,
        "used inside `old`",
        2,
        52,
    );
    // Through an enclosing let: `b` stands for `g`.
    rejects(
        "var g: int;\nprocedure p() modifies g; ensures (var a := g; (var b := a; old(b))) == g; { }",
        ErrorKind::Unsupported,
        "used inside `old`",
        2,
        65,
    );
    // A value that reads no global variable means the same under `old`.
    accepts("var g: int;\nprocedure p(a: int) modifies g; ensures (var h := a; old(h + g)) == a + old(g); { }");
}
