//! parse → print → parse on hand-written programs that cover every construct of the language,
//! and exact printing of programs already in the printer's layout.

use ivl::parser::parse_program;
use ivl::printer::print_program;
use ivl::visit::strip_spans;

/// Parses, prints, parses again; the trees must agree ignoring spans, and printing the second
/// tree must give the same text. Returns the printed text.
fn round_trip(src: &str) -> String {
    let (mut p1, d1) = parse_program(src);
    assert!(d1.is_empty(), "input does not parse: {d1:?}\n{src}");
    let printed = print_program(&p1);
    let (mut p2, d2) = parse_program(&printed);
    assert!(d2.is_empty(), "printed text does not parse: {d2:?}\n{printed}");
    strip_spans(&mut p1);
    strip_spans(&mut p2);
    assert_eq!(p1, p2, "trees differ; printed:\n{printed}");
    assert_eq!(print_program(&p2), printed, "printing is not a fixed point");
    printed
}

#[test]
fn declarations_of_every_kind() {
    round_trip(
        r#"
type T;
type {:attr} finite U a b;
type Syn a = [a]int;
type W = Syn (U int bool);
const unique c1, c2: T;
const {:existential true} b0: bool;
const {:local_id_x} local_id_x: bv32;
function f(x: int, y: int): int;
function {:bvbuiltin "bvadd"} ADD(bv32, bv32) : bv32;
function {:inline} g(x: int) returns (r: int) { if x > 0 then x else -x }
function h<a>(a): a;
axiom {:attr "s", 1} (forall x: int :: { f(x, x) } f(x, x) >= 0);
var {:group_shared} A: [bv32]bv32;
var g1: int where g1 > 0, g2: [int, bool][int]real;
var {:x} m: <a>[a]a;
procedure {:kernel} P(x: int, y: bv32) returns (r: int, s: bool);
  requires x > 0;
  free requires {:candidate} y != 0bv32;
  ensures r == old(g1) + x;
  free ensures s;
  modifies g1, A;
implementation {:kernel} P(x: int, y: bv32) returns (r: int, s: bool)
{
  var t: int;
  var {:a} u, v: bool;
  r := x;
}
procedure Q();
procedure R(x: int) returns (y: int)
  ensures y == x;
{
  y := x;
}
"#,
    );
}

#[test]
fn expressions_of_every_kind() {
    round_trip(
        r#"
var m: [int]int;
var n: [int][int]bool;
var bv: bv32;
procedure E(x: int, y: int, p: bool, q: bool, r: real)
{
  assert p <==> q <==> p;
  assert p ==> q ==> p;
  assert (p ==> q) ==> p;
  assert p <== q <== p;
  assert (p && q) || p ==> q || p;
  assert (p && q) || (p && !q);
  assert p && (q && p);
  assert x - (y - x) == x - y - x;
  assert x * (y + 1) div 2 mod 3 == -x;
  assert -(-x) == - -x;
  assert -5 + x < 3 && x <= 4 && x > -1 && x >= 0 && x != 2;
  assert (x < y) == p;
  assert r / 2.5 == 1.0e3 - 0.5;
  assert bv[8:0] ++ bv[32:8] == bv;
  assert (bv ++ bv)[40:8] == 0bv32;
  assert m[x := y][y] == m[x];
  assert n[x][y] == n[x := n[x][y := p]][x][y];
  assert (if p then x else y) + 1 == if q then 2 else 3;
  assert if p then if q then p else q else !p;
  assert (forall i: int, j: int :: {:weight 3} { m[i], m[j] } { n[i][j] } i < j ==> m[i] <= m[j]);
  assert (exists i: int :: m[i] == x) || (forall <a> k: a :: true);
  assert (lambda i: int :: i + 1)[3] == 4;
  assert (x : int) + 1 == x + 1;
  assert old(m[x]) == m[x];
  assert !!p == p && !(p || q) == (!p && !q);
  assert 123456789012345678901234567890 > 0;
}
"#,
    );
}

#[test]
fn statements_of_every_kind() {
    round_trip(
        r#"
var A: [int]int;
var B: [int][int]int;
procedure {:kernel} S(n: int) returns (r: int)
  modifies A, B;
{
  var i: int, j: int;
  var p: bool;
  i, j := 0, 1;
  A[i] := j;
  B[i][j], A[j] := 1, 2;
  havoc i, p;
  assume {:partition} p;
  assert {:sourceloc_num 3} {:check "race"} i >= 0;
  call r := S(n - 1);
  call {:attr} S(0);
  if (i < n) {
    i := i + 1;
  } else if (*) {
    i := i - 1;
  } else if (p) {
  } else {
    havoc i;
  }
  if (*) {
    return;
  }
  while (i < n)
    invariant 0 <= i;
    free invariant {:candidate} i <= n;
  {
    i := i + 1;
    if (p) {
      break;
    }
  }
  while (*) {
    havoc p;
  }
  outer:
  while (true) {
    break outer;
  }
  barrier;
  barrier {:local};
  barrier {:global}
    invariant A[i] == 0;
    invariant {:instantiate i, j} B[i][j] > 0;
  goto L1, L2;
  L1:
  assume i > 0;
  goto L3;
  L2:
  assume i <= 0;
  L3:
  return;
}
"#,
    );
}

#[test]
fn vector_statements() {
    round_trip(
        r#"
var g: [int]int;
procedure V(x: int, y: [int]int)
{
  vec x := x + 1;
  vec y[x], x := 0, 1;
  vec havoc x, y;
  vec psi g[x] := y[x];
  vec assume x > 0;
  vec assert x > 0;
}
"#,
    );
}

#[test]
fn escaped_keywords_and_odd_identifiers() {
    let printed = round_trip(
        r#"
function \true() returns (bool);
type \procedure;
procedure \old(\any: \procedure) returns (\var: \procedure)
{
  var \modifies: \procedure;
  var vec, barrier, psi: int;
  \modifies := \any;
  \var := \modifies;
  \vec := 1;
  \barrier := \psi;
}
var $$A: [bv32]bv32;
var _WRITE_HAS_OCCURRED_$$A: bool;
const local_id_x$1: bv32;
var v0$1.x'~#^?`: int;
"#,
    );
    assert!(printed.contains("\\var := \\modifies;"), "{printed}");
}

/// Programs written in the printer's layout print exactly as written.
#[test]
fn canonical_text_is_printed_verbatim() {
    let src = "\
type T;

const {:group_size_x} group_size_x: int;
const {:local_id_x} local_id_x: int;

function f(x: int): int { x + 1 }

axiom group_size_x > 0;

var {:group_shared} A: [int]int;

procedure {:kernel} k(n: int)
  modifies A;
  requires n > 0;
{
  var i: int;

  i := 0;
  while (i < n)
    invariant i >= 0;
  {
    if (i mod 2 == 0) {
      A[local_id_x] := f(i);
    } else if (*) {
      barrier;
    } else {
      havoc i;
    }
    i := i + 1;
  }
  barrier
    invariant {:instantiate local_id_x} A[local_id_x] > 0;
}

implementation k2(x: int)
{
  entry:
    goto a, b;

  a:
    assume x > 0;
    return;

  b:
    assume !(x > 0);
    return;
}
";
    assert_eq!(round_trip(src), src);
}

#[test]
fn let_expressions() {
    let printed = round_trip(
        "function f(a: int): int { (var x, y := a, a + 1; (var z := x * y; z)) }\n\
         procedure p(a: int)\n  requires (var s := a; s > 0);\n{\n  assert (var b := (var c := a; c); b == a);\n}\n",
    );
    assert!(printed.contains("(var x, y := a, a + 1; (var z := x * y; z))"), "{printed}");
}

#[test]
fn code_expressions() {
    let printed = round_trip(
        "procedure {:inline 1} q(a: int) returns (r: int) { r := a; }\n\
         procedure p(x: int)\n{\n  var b: bool;\n  \
         assert |{ var y: int, m: [int]int; var z: bool; A: y := x; m[y] := 1; havoc z; goto B, C; \
         B: assume {:a} z; assert m[x] == 1; return true; C: call y := q(x); return y == x; }|;\n  \
         b := !|{ A: return x > 0; }| ==> |{ L: return |{ M: return false; }|; }|;\n}\n",
    );
    assert!(
        printed.contains(
            "|{ var y: int, m: [int]int; var z: bool; A: y := x; m[y] := 1; havoc z; goto B, C; \
             B: assume {:a} z; assert m[x] == 1; return true; C: call y := q(x); return y == x; }|"
        ),
        "{printed}"
    );
}

#[test]
fn free_calls() {
    let printed = round_trip("procedure p() {\n  var r: int;\n  free call {:a} r := q(1);\n  call q(2);\n}\n");
    assert!(printed.contains("free call {:a} r := q(1);") && printed.contains("  call q(2);"), "{printed}");
}
