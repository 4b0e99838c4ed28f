// The racy twin of strided.bpl: the stride is one group (64), so work-item l of group g+1
// writes at step k the element that work-item l of group g writes at step k+1. The
// candidate "offset % 64 == local id" is inductive here, and none of the candidates may
// hide the race: kivl must still report it (the write-write check, line 44).
var {:source_name "A"} {:global} $$A: [bv32]bv32;
var {:race_checking} {:global} {:elem_width 32} {:source_elem_width 32} _WRITE_HAS_OCCURRED_$$A: bool;
var _TRACKING: bool;
const _WATCHED_OFFSET: bv32;
const _WATCHED_VALUE_$$A: bv32;
const {:group_id_x} group_id_x$1: bv32;
const {:group_id_x} group_id_x$2: bv32;
const {:local_id_x} local_id_x$1: bv32;
const {:local_id_x} local_id_x$2: bv32;
const {:group_size_x} group_size_x: bv32;
const {:num_groups_x} num_groups_x: bv32;
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32) : bv32;
function {:bvbuiltin "bvmul"} BV32_MUL(bv32, bv32) : bv32;
function {:bvbuiltin "bvult"} BV32_ULT(bv32, bv32) : bool;
axiom group_size_x == 64bv32;
axiom num_groups_x == 16bv32;

procedure {:kernel} $strided($n: bv32);
  requires !_WRITE_HAS_OCCURRED_$$A;
  requires BV32_ULT(group_id_x$1, num_groups_x) && BV32_ULT(group_id_x$2, num_groups_x);
  requires BV32_ULT(local_id_x$1, group_size_x) && BV32_ULT(local_id_x$2, group_size_x);
  requires group_id_x$1 == group_id_x$2 ==> local_id_x$1 != local_id_x$2;
  modifies $$A, _WRITE_HAS_OCCURRED_$$A;

implementation {:kernel} $strided($n: bv32)
{
  var $k: bv32;
  var $idx$1: bv32;
  var $idx$2: bv32;
  entry:
    $k := 0bv32;
    $idx$1 := BV32_ADD(BV32_MUL(group_size_x, group_id_x$1), local_id_x$1);
    $idx$2 := BV32_ADD(BV32_MUL(group_size_x, group_id_x$2), local_id_x$2);
    goto head;
  head:
    goto body, done;
  body:
    assume BV32_ULT($k, $n);
    call _LOG_WRITE_$$A(true, $idx$1, group_id_x$1);
    call _CHECK_WRITE_$$A(true, $idx$2, group_id_x$2);
    $$A[$idx$1] := group_id_x$1;
    $$A[$idx$2] := group_id_x$2;
    $k := BV32_ADD($k, 1bv32);
    $idx$1 := BV32_ADD($idx$1, group_size_x);
    $idx$2 := BV32_ADD($idx$2, group_size_x);
    goto head;
  done:
    assume !BV32_ULT($k, $n);
    return;
}

procedure {:inline 1} _LOG_WRITE_$$A(_P: bool, _offset: bv32, _value: bv32);
  modifies _WRITE_HAS_OCCURRED_$$A;

implementation {:inline 1} _LOG_WRITE_$$A(_P: bool, _offset: bv32, _value: bv32)
{
  log:
    _WRITE_HAS_OCCURRED_$$A := (if _P && _TRACKING && _WATCHED_OFFSET == _offset && _WATCHED_VALUE_$$A == _value then true else _WRITE_HAS_OCCURRED_$$A);
    return;
}

procedure _CHECK_WRITE_$$A(_P: bool, _offset: bv32, _value: bv32);
  requires {:source_name "A"} {:array "$$A"} {:race} {:write_write} !(_P && _WRITE_HAS_OCCURRED_$$A && _WATCHED_OFFSET == _offset && _WATCHED_VALUE_$$A != _value);
