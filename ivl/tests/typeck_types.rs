//! Types of expressions and declarations (Boogie 2.4.1 rules).

#[path = "typeck_common.rs"]
mod common;
use common::*;
use ivl::diag::ErrorKind;

#[test]
fn synonyms_and_uninterpreted_types() {
    accepts("type T = bv32; const c: T; axiom c == 5bv32;");
    accepts("type A x = [x]int; var m: A int; procedure p() modifies m; { m[1] := 2; }");
    accepts("type T a; type S = T int; var x: S; var y: T int; procedure p() modifies x; { x := y; }");
    accepts("type S = [int]int; var x: S; var y: [int]int; procedure p() modifies x; { x := y; }");
    type_err("type A x = [x]int; var m: A;", "type synonym `A` expects 1 argument, found 0", 1, 27);
    type_err("type T x; var m: T;", "type constructor `T` expects 1 argument, found 0", 1, 18);
    type_err("type T; var m: T int;", "type constructor `T` expects 0 arguments, found 1", 1, 16);
    type_err("type A x x = int;", "duplicate type parameter `x`", 1, 10);
    type_err("type A x = y;", "undeclared type `y`", 1, 12);
    type_err(
        "type T a; const c: T int; const d: T bool; axiom c == d;",
        "invalid operand types `T int` and `T bool`",
        1,
        50,
    );
}

#[test]
fn synonym_cycles() {
    type_err("type A = [int]A;", "cyclic type synonym: `A`", 1, 15);
    type_err("type A = B;\ntype B = A;", "cyclic type synonym", 2, 10);
}

#[test]
fn bitvector_literals_and_widths() {
    accepts("const c: bv8; axiom c == 255bv8;");
    type_err("const c: bv3; axiom c == 9bv3;", "literal `9bv3` does not fit in 3 bits", 1, 26);
    rejects("const c: bv0;", ErrorKind::Unsupported, "bv0", 1, 10);
    type_err("const c: bv8; axiom c == 0bv16;", "invalid operand types `bv8` and `bv16` for `==`", 1, 21);
}

#[test]
fn concatenation_and_extraction() {
    accepts("const a: bv3; const b: bv5; axiom a ++ b == 0bv8;");
    type_err("const a: bv3; const b: bv5; axiom a ++ b == 0bv9;", "`bv8` and `bv9`", 1, 35);
    type_err("const a: int; axiom a ++ a == 0bv2;", "invalid operand types `int` and `int` for `++`", 1, 21);
    accepts("const a: bv8; axiom a[8:0] == a && a[4:2] == 0bv2;");
    type_err("const a: bv8; axiom a[9:0] == 0bv9;", "extraction `[9:0]` out of range for `bv8`", 1, 21);
    type_err("const a: bv8; axiom a[3:5] == 0bv1;", "upper bound is below the lower bound", 1, 21);
    type_err("const a: int; axiom a[3:1] == 0bv2;", "needs a bit-vector operand, found `int`", 1, 21);
    rejects("const a: bv8; axiom a[3:3] == a[1:0];", ErrorKind::Unsupported, "zero-width", 1, 21);
}

#[test]
fn arithmetic() {
    accepts("const i: int; const r: real; axiom i + i * i - i == i div i mod i && r + r * r - r == -r;");
    type_err("const a: int; const b: real; axiom a + b == b;", "invalid operand types `int` and `real` for `+`", 1, 36);
    type_err("const a: real; axiom a div a == a;", "for `div`", 1, 22);
    type_err("const a: real; axiom a mod a == a;", "for `mod`", 1, 22);
    // `/` gives a real, for any mix of int and real.
    accepts("const i: int; const r: real; axiom i / i == r && i / r == r && r / i == r;");
    type_err("const a: int; axiom a / a == 1;", "invalid operand types `real` and `int` for `==`", 1, 21);
    type_err("const a: bv8; axiom a + a == a;", "invalid operand types `bv8` and `bv8` for `+`", 1, 21);
    type_err("const a: bv8; axiom -a == a;", "invalid operand type `bv8` for unary `-`", 1, 22);
    type_err("const a: bool; axiom a < a;", "invalid operand types `bool` and `bool` for `<`", 1, 22);
    type_err("const a: bv8; axiom a < a;", "for `<`", 1, 21);
}

/// `**` takes and gives `real` (Boogie 2.4.1 rejects `2 ** 3` and `2.0 ** 3` alike).
#[test]
fn power() {
    accepts("const r: real; axiom r ** 2.0 ** r == r * r ** -1.0 && real(3) ** r > 0.0;");
    type_err("const i: int; axiom i ** i == i;", "invalid operand types `int` and `int` for `**`", 1, 21);
    type_err("const r: real; axiom r ** 3 == r;", "invalid operand types `real` and `int` for `**`", 1, 22);
    type_err("const r: real; const x: int; axiom r ** r == x;", "for `==`", 1, 36);
}

#[test]
fn coercions() {
    accepts("const r: real; const i: int; axiom int(r) == i && real(i) == r && int(real(i)) == i;");
    type_err("axiom int(1) == 1;", "expected `real`, found `int`", 1, 11);
    type_err("axiom real(1.0) == 1.0;", "expected `int`, found `real`", 1, 12);
    accepts("const c: int; axiom (c: int) == 1;");
    type_err("const c: int; axiom (c: bool);", "`int` cannot be coerced to `bool`", 1, 22);
}

#[test]
fn logic_and_equality() {
    accepts("const a: bool; const b: bool; axiom (a <==> b) ==> (a || b) && !a && (a <== b);");
    type_err("const a: int; axiom a <==> a;", "for `<==>`", 1, 21);
    type_err("const a: int; axiom !a;", "invalid operand type `int` for `!`", 1, 22);
    accepts("const a: [int]int; axiom a == a;");
    type_err("const a: [int]int; const b: [int]bool; axiom a == b;", "`[int]int` and `[int]bool`", 1, 46);
    type_err("axiom 1;", "an axiom must be of type `bool`, found `int`", 1, 7);
}

#[test]
fn if_then_else() {
    accepts("const a: int; axiom (if a > 0 then a else -a) >= 0;");
    type_err("const a: int; axiom (if true then a else false) == a;", "different types `int` and `bool`", 1, 42);
    type_err(
        "const a: int; axiom (if a then a else a) == a;",
        "condition of `if-then-else` must be `bool`, found `int`",
        1,
        25,
    );
}

#[test]
fn maps() {
    accepts("const m: [int][bool]int; const n: [int, bool]int; axiom m[1][true] == n[1, false];");
    type_err("const m: [int,int]int; axiom m[1] == 1;", "takes 2 indices, found 1", 1, 30);
    type_err("const m: [int]int; axiom m[true] == 1;", "expected `int`, found `bool`", 1, 28);
    type_err("const m: int; axiom m[1] == 1;", "cannot index into a value of type `int`", 1, 21);
    type_err("const m: [int]int; axiom m[1 := true] == m;", "expected `int`, found `bool`", 1, 33);
    accepts("const m: [int]int; axiom m[1 := 2][3] == 4;");
}

#[test]
fn functions() {
    accepts("function f(x: int): bool { x > 0 } axiom f(1);");
    type_err("function f(x: int): bool { x }", "expected `bool`, found `int`", 1, 28);
    type_err("function f(x: int): bool; axiom f(1, 2);", "function `f` takes 1 argument, found 2", 1, 33);
    type_err("function f(x: int): bool; axiom f(true);", "expected `int`, found `bool`", 1, 35);
    type_err("function f(x: int): int { old(x) }", "`old` is not allowed in a function body", 1, 27);
}

#[test]
fn bvbuiltin_signatures() {
    accepts("function {:bvbuiltin \"bvadd\"} A(bv32, bv32): bv32; function {:bvbuiltin \"bvslt\"} L(bv8, bv8): bool;");
    accepts(
        "function {:bvbuiltin \"zero_extend 24\"} Z(bv8): bv32; function {:bvbuiltin \"fp.add\"} F(bv32, bv32): bv32;",
    );
    type_err("function {:bvbuiltin \"bvadd\"} A(bv32): bv32;", "does not fit the bit-vector operator `bvadd`", 1, 31);
    type_err("function {:bvbuiltin \"bvadd\"} A(bv32, bv8): bv32;", "does not fit", 1, 31);
    type_err("function {:bvbuiltin \"bvult\"} A(bv32, bv32): bv32;", "does not fit", 1, 31);
    type_err("function {:bvbuiltin \"sign_extend 16\"} S(bv16): bv16;", "does not fit", 1, 40);
    type_err("function {:bvbuiltin 3} A(bv32): bv32;", "`{:bvbuiltin}` takes one string argument", 1, 10);
}

#[test]
fn quantifiers_and_lambdas() {
    accepts("axiom (forall x: int, y: int :: x + y == y + x) && (exists b: bool :: b);");
    type_err("axiom (forall x: int :: x);", "the body of a quantifier must be `bool`, found `int`", 1, 25);
    accepts("const m: [int]int; axiom m == (lambda x: int :: x + 1);");
    type_err("const m: [int]bool; axiom m == (lambda x: int :: x + 1);", "`[int]bool` and `[int]int`", 1, 27);
    accepts("axiom (forall<a> x: a :: x == x);");
}

#[test]
fn triggers() {
    accepts("function f(x: int): int; axiom (forall x: int :: {f(x)} f(x) > 0);");
    accepts("function f(x: int): int; axiom (forall x: int, y: int :: {f(x), f(y)} f(x) > f(y));");
    accepts("function f(x: int): int; axiom (forall x: int :: {f(x) + 1} {f(x) != 2} f(x) > 0);");
    accepts("const m: [int]int; axiom (forall x: int :: {m[x]} m[x] > 0);");
    type_err(
        "function f(x: int): int; axiom (forall x: int :: {x} f(x) > 0);",
        "more than a variable by itself",
        1,
        51,
    );
    type_err(
        "function f(x: int): int; axiom (forall x: int :: {f(1)} f(x) > 0);",
        "does not mention the bound variable `x`",
        1,
        50,
    );
    type_err(
        "function f(x: int): int; axiom (forall x: int :: {f(x) == 1} f(x) > 0);",
        "equalities are not allowed in triggers",
        1,
        51,
    );
    type_err(
        "function f(x: int): bool; axiom (forall x: int :: {!f(x)} f(x));",
        "boolean operators are not allowed in triggers",
        1,
        52,
    );
    type_err(
        "function f(x: int): int; axiom (forall x: int :: {f(x) < 2} f(x) > 0);",
        "arithmetic comparisons are not allowed",
        1,
        51,
    );
}

#[test]
fn polymorphism() {
    // Type parameters of functions, procedures, implementations and quantifiers are checked,
    // instantiated at each use by Boogie's inference (arguments first, then the context).
    accepts("function f<a>(x: a): a; axiom f(1) == 1 && f(true);");
    accepts("type L _; function Nil<a>(): L a; function Len<a>(l: L a): int; axiom Len(Nil(): L int) == 0;");
    accepts("type L _; function Nil<a>(): L a; function Cons<a>(x: a, l: L a): L a; const c: L int; axiom c == Cons(1, Nil());");
    accepts("procedure p<a>(x: a) returns (y: a); implementation p<b>(x: b) returns (y: b) { y := x; }");
    accepts("procedure p<a>(x: a) returns (y: a); procedure q() { var i: int; call i := p(3); }");
    type_err("function f<a>(x: a, y: a): bool; axiom f(1, true);", "expected `int`, found `bool`", 1, 45);
    // A type parameter nothing determines is `int` (Boogie: "ambiguous, instantiating to int").
    accepts("function e<a>(): a; axiom e() == e() && e() + 1 > 0;");
    type_err("function e<a>(): a; function h<a>(x: a): a; axiom h(e());", "found `int`", 1, 51);
    type_err("procedure p<a>(x: a); implementation p(x: int) {}", "has 0 type parameter(s)", 1, 38);
    // An equality between a type parameter and another type is Boogie's (false where the types
    // differ, decided at each instance by vcgen::mono); two ground types must still agree.
    accepts("function f<a>(x: a): bool { x == 3 }");
    type_err("function f<a>(x: a): bool { 3 == true }", "invalid operand types `int` and `bool` for `==`", 1, 29);
    // Polymorphism in GPU programs is not supported.
    rejects(
        "procedure {:kernel} k(); function f<a>(x: a): a;",
        ErrorKind::Unsupported,
        "polymorphic functions are not supported in GPU programs",
        1,
        37,
    );
}

#[test]
fn where_clauses() {
    accepts("var g: int where g > 0; var h: int where g > h;");
    type_err("var g: int where g;", "a `where` clause must be of type `bool`, found `int`", 1, 18);
    type_err("var g: int where old(g) > 0;", "`old` is not allowed in a `where` clause", 1, 18);
    type_err("procedure p() { var x: int where x; }", "a `where` clause must be of type `bool`", 1, 34);
}

#[test]
fn floating_point_types_and_literals() {
    // Boogie 2.4.1 types float arithmetic and comparisons on one float type (test0/PrintAssoc.bpl).
    accepts("procedure P() { var x, y: float24e8; var b: bool; x := -x + (y * x) / 0x1.8e3f24e8; b := x <= y || x == 0NaN24e8; }");
    type_err(
        "procedure P() { var x: float24e8; var y: float53e11; x := x + y; }",
        "invalid operand types `float24e8` and `float53e11` for `+`",
        1,
        59,
    );
    type_err(
        "procedure P() { var x: float24e8; x := x * 1.5; }",
        "invalid operand types `float24e8` and `real` for `*`",
        1,
        40,
    );
    type_err("var x: float24; ", "undeclared type `float24`", 1, 8);
    // `rmode` and its constants, short and long names (roundingmodes/FullNameAcronymEquivalence.bpl).
    accepts("const m: rmode; axiom RNE != roundTowardZero && m == roundNearestTiesToEven;");
    type_err(
        "procedure P() { var m: rmode; m := m + RNE; }",
        "invalid operand types `rmode` and `rmode` for `+`",
        1,
        36,
    );
    // A float literal that is not exactly representable (floats/ConstSyntax3.bpl).
    rejects(
        "const c: float24e8; axiom c == 0x1.ffffffe0f24e8;",
        ErrorKind::Syntax,
        "incorrectly formatted floating point",
        1,
        32,
    );
}

/// Polymorphic map types (Boogie 2 §2): each select and update instantiates the map's type
/// parameters from the index types.
#[test]
fn polymorphic_maps() {
    let heap = "type ref; type Field a; type Heap = <a>[ref, Field a]a; const f: Field int; const g: Field bool;";
    accepts(&format!("{heap} procedure p(h: Heap, o: ref) {{ assert h[o, f] + 1 == 2 && h[o, g]; }}"));
    accepts(&format!("{heap} procedure p(h: Heap, o: ref) returns (k: Heap) {{ k := h[o, f := 3]; k[o, g] := true; assert k != h; }}"));
    // The result type is the instance's: `h[o, g]` is a `bool`, the value stored at `f` an `int`.
    type_err(&format!("{heap} procedure p(h: Heap, o: ref) {{ assert h[o, g] == 3; }}"), "`bool` and `int`", 1, 136);
    type_err(
        &format!("{heap} procedure p(h: Heap, o: ref) {{ assert h[o, f := true] == h; }}"),
        "expected `int`, found `bool`",
        1,
        146,
    );
    // Different parameter names, the same type.
    accepts("var m: <a>[a]a; var n: <b>[b]b; procedure p() { assert m == n; }");
    // Boogie's rule: every type parameter occurs in the map's types.
    type_err("type C a; var bad: <a,b>[]C a;", "type variable must occur in map arguments: b", 1, 23);
    // A parameter that only the result mentions is inferred from the context (Boogie 2.4.1):
    // the other operand, the value assigned, `bool` for a condition, further indices.
    accepts("var p: <a>[]a; procedure q() { assert p[] == 3; }");
    accepts(
        "var p: <a>[]a; var m: []int; procedure q() modifies p; { p[] := 12; p[] := true; assert p[] == m[] && p[]; }",
    );
    accepts(
        "var r: <a, b>[int][a]b; procedure q() modifies r; { r[17] := r[17][true := 13]; assert r[17][true] == 13; }",
    );
    accepts("var p: <a>[]a; var c: bv17; procedure q() { assert p[] ++ p[] == c; }");
    // `p[] + 1` is an `int` (from `1`), which a `bool` cannot receive.
    type_err("var p: <a>[]a; procedure q() { var x: bool; x := p[] + 1; }", "expected `bool`, found `int`", 1, 50);
    // A lambda with type parameters is a polymorphic map.
    accepts("type ref; type Field a; var F: <a>[ref, Field a]bool; procedure p() modifies F; { F := (lambda<b> o: ref, f: Field b :: true); }");
    type_err("type ref; type Field a; var F: <a>[ref, Field a]int; procedure p() modifies F; { F := (lambda<b> o: ref, f: Field b :: true); }", "expected", 1, 87);
    // The GPU passes know no polymorphism.
    rejects(
        "procedure {:kernel} k(); var m: <a>[a]a;",
        ErrorKind::Unsupported,
        "polymorphic map types are not supported in GPU programs",
        1,
        34,
    );
}
