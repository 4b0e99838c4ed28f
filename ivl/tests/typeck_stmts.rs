//! Statements, contracts, `old`, modifies clauses and implementations (Boogie 2.4.1 rules).

#[path = "typeck_common.rs"]
mod common;
use common::*;
use ivl::diag::ErrorKind;

#[test]
fn assignment_targets_must_be_mutable() {
    type_err("procedure p(x: int) { x := 1; }", "cannot assign to in-parameter `x`", 1, 23);
    type_err("procedure p(x: int); implementation p(y: int) { y := 1; }", "cannot assign to in-parameter `y`", 1, 49);
    type_err("const c: int; procedure p() { c := 1; }", "cannot assign to constant `c`", 1, 31);
    type_err("const c: int; procedure p() { havoc c; }", "cannot havoc constant `c`", 1, 37);
    type_err("procedure p(x: int) { havoc x; }", "cannot havoc in-parameter `x`", 1, 29);
    accepts("procedure p() returns (y: int) { y := 1; havoc y; }");
    type_err("procedure p() { z := 1; }", "undeclared identifier `z`", 1, 17);
}

#[test]
fn assignment_types() {
    type_err("procedure p() { var x: bool; x := 1; }", "expected `bool`, found `int`", 1, 35);
    type_err("procedure p() { var x: [int]int; x[1] := true; }", "expected `int`, found `bool`", 1, 42);
    accepts("procedure p() { var x: [int][bool]int; x[1][true] := 3; x[2] := x[1]; }");
    type_err("procedure p() { var x: int; x[1] := 1; }", "cannot index into a value of type `int`", 1, 29);
    type_err("procedure p() { var x, y: int; x, y := 1; }", "2 left-hand sides but 1 right-hand side", 1, 32);
}

#[test]
fn parallel_assignment_targets_are_distinct() {
    type_err("procedure p() { var x: int; x, x := 1, 2; }", "variable `x` is assigned twice", 1, 32);
    type_err("procedure p() { var x: [int]int; x[1], x[2] := 1, 2; }", "variable `x` is assigned twice", 1, 40);
    accepts("procedure p() { var x, y: int; x, y := y, x; }");
}

#[test]
fn conditions_and_assertions_are_bool() {
    type_err("procedure p() { assert 1; }", "an assertion must be of type `bool`, found `int`", 1, 24);
    type_err("procedure p() { assume 1; }", "an assumption must be of type `bool`", 1, 24);
    type_err("procedure p() { if (1) { } }", "the condition of `if` must be of type `bool`", 1, 21);
    type_err("procedure p() { while (1) { } }", "the condition of `while` must be of type `bool`", 1, 24);
    type_err("procedure p() { while (true) invariant 1; { } }", "a loop invariant must be of type `bool`", 1, 40);
    accepts("procedure p() { if (*) { } else if (true) { } else { } while (*) invariant true; { } }");
}

#[test]
fn calls() {
    let q = "procedure q(a: int) returns (r: int);\n";
    accepts(&format!("{q}procedure p() {{ var z: int; call z := q(1); }}"));
    rejects_among(
        &format!("{q}procedure p() {{ call q(); }}"),
        ErrorKind::Type,
        "procedure `q` takes 1 argument, found 0",
        2,
        17,
    );
    type_err(&format!("{q}procedure p() {{ var z: int; call z := q(true); }}"), "expected `int`, found `bool`", 2, 41);
    type_err(
        &format!("{q}procedure p() {{ call q(1); }}"),
        "procedure `q` returns 1 value, but the call receives 0",
        2,
        17,
    );
    type_err(&format!("{q}procedure p() {{ var b: bool; call b := q(1); }}"), "expected `int`, found `bool`", 2, 35);
    type_err(&format!("{q}procedure p(x: int) {{ call x := q(1); }}"), "cannot assign to in-parameter `x`", 2, 28);
    type_err(
        "procedure q() returns (r: int, s: int); procedure p() { var x: int; call x, x := q(); }",
        "variable `x` is assigned twice by one call",
        1,
        77,
    );
}

#[test]
fn old_contexts() {
    type_err("var g: int; procedure p();\n  requires old(g) == 0;", "`old` is not allowed in a precondition", 2, 12);
    type_err("const g: int; axiom old(g) == 0;", "`old` is not allowed in an axiom", 1, 21);
    accepts("var g: int; procedure p() returns (y: int); ensures y == old(g); ensures old(old(g)) == old(g);");
    accepts("var g: int; procedure p() returns (y: int) { y := old(g); assume old(g) == g; while (true) invariant old(g) == g; { } }");
    accepts("var g: int; var m: [int]int; procedure p() modifies m; { m := (lambda i: int :: old(g)); }");
    type_err(
        "var g: int; procedure p() { var x: int where old(g) > x; }",
        "`old` is not allowed in a `where` clause",
        1,
        46,
    );
    type_err(
        "var g: int; procedure p();\n  requires (lambda x: int :: old(g)) == (lambda x: int :: 1);",
        "`old` is not allowed in a precondition",
        2,
        30,
    );
}

#[test]
fn modifies_checking_in_plain_boogie() {
    type_err(
        "var g: int; procedure p() { g := 1; }",
        "global variable `g` is modified but not in the modifies clause of `p`",
        1,
        29,
    );
    type_err("var g: int; procedure p() { havoc g; }", "not in the modifies clause", 1, 35);
    type_err("var g: [int]int; procedure p() { g[1] := 1; }", "not in the modifies clause", 1, 34);
    accepts("var g: int; procedure p(); modifies g; implementation p() { g := 1; }");
    type_err(
        "var g: int; procedure q(); modifies g;\nprocedure p() { call q(); }",
        "call to `q` modifies `g`, which the modifies clause of `p` does not include",
        2,
        17,
    );
    accepts("var g: int; procedure q(); modifies g; procedure p() modifies g; { call q(); }");
    // Locals shadowing a global are not globals.
    accepts("var g: int; procedure p() { var g: int; g := 1; }");
}

#[test]
fn implementation_signature_matches_procedure() {
    type_err("procedure p(x: int); implementation p() { }", "has 0 in-parameters, but the procedure declares 1", 1, 37);
    type_err(
        "procedure p(x: int); implementation p(x: bool) { }",
        "in-parameter `x` of implementation `p` has type `bool`, but the procedure declares `int`",
        1,
        42,
    );
    type_err(
        "procedure p() returns (r: int); implementation p() returns (r: bool) { }",
        "out-parameter `r` of implementation `p` has type `bool`",
        1,
        64,
    );
    accepts("procedure p(x: int); implementation p(y: int) { assert y == 1; }");
    accepts("procedure p() returns (x: int); implementation p() returns (y: int) { y := 1; }");
}

#[test]
fn checked_attributes() {
    type_err(
        "procedure p() { assert {:verified_under} true; }",
        "`{:verified_under}` takes exactly one argument",
        1,
        24,
    );
    type_err(
        "procedure p() { assert {:verified_under 4} true; }",
        "the argument of `{:verified_under}` must be of type `bool`",
        1,
        41,
    );
    accepts("procedure p(b: bool) { assert {:verified_under b} true; }");
    type_err(
        "function f(int, int): int;\naxiom (forall x: int :: {:nopats f(x, 1), f(x, x)} f(x, 1) == 3);",
        "`{:nopats}` takes exactly one expression",
        2,
        25,
    );
    type_err("procedure p() { assume {:minimize 1, 2} true; }", "`{:minimize}` takes exactly one argument", 1, 24);
    type_err(
        "procedure p() { assume {:maximize true} true; }",
        "must be of type `int`, `real` or `bvN`, found `bool`",
        1,
        35,
    );
    accepts("procedure p(x: int) { assume {:minimize x} true; }");
}

#[test]
fn assumption_variables_follow_boogies_rules() {
    // Boogie 2.4.1: test1/AssumptionVariables0.bpl and AssumptionVariables1.bpl.
    accepts("procedure p(n: int) { var {:assumption} a: bool; a := a && n > 0; havoc a; }");
    type_err(
        "procedure p() { var {:assumption} a: bool; a := true; }",
        "may only be assigned `a := a && <boolean expression>`",
        1,
        44,
    );
    type_err("var {:assumption} g: bool; procedure p() modifies g; { g := g && true; } procedure q() modifies g; { g := g && false; }", "may not be assigned to more than once", 1, 102);
    type_err("procedure p() { var {:assumption} a: int; }", "must be of type `bool`", 1, 35);
}

#[test]
fn code_expressions_scope_their_locals_and_labels() {
    accepts("procedure p(a: int) { var b: bool; b := |{ var x: int; A: x := a; goto B; B: return x > 0; }|; }");
    // Its locals are not visible after it; its labels are its own.
    type_err(
        "procedure p() { assert |{ var x: int; A: return true; }|; assert x > 0; }",
        "undeclared identifier `x`",
        1,
        66,
    );
    type_err("procedure p() { L: assert |{ A: goto L; }|; }", "undeclared label `L`", 1, 38);
    type_err("procedure p() { assert |{ A: return 1; }|; }", "the value a code expression returns must be", 1, 37);
    type_err("procedure p() { assert |{ A: goto A; A: return true; }|; }", "duplicate label `A`", 1, 38);
    // A code expression is a `bool`.
    type_err("procedure p() { var i: int; i := |{ A: return true; }|; }", "expected `int`, found `bool`", 1, 34);
}
