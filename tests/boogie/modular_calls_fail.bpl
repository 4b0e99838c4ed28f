//xfail: errors 2
//error-lines: 21, 31
// Twin of modular_calls.bpl: without `free requires counter >= 0` the assertion in Inc's body
// fails (counter may be negative), and the second call passes k == 0, violating `requires k > 0`.

var counter: int;
var log: [int]int;
var other: int;

procedure Inc(k: int) returns (before: int)
  requires k > 0;
  modifies counter, log;
  ensures counter == old(counter) + k;
  ensures before == old(counter);
  ensures log == old(log)[old(counter) := k];
  free ensures counter > 0;
{
  before := counter;
  log[counter] := k;
  counter := counter + k;
  assert counter > 0;
}

procedure Client()
  requires counter == 0;
  modifies counter, log, other;
{
  var a, b: int;
  other := 7;
  call a := Inc(2);
  call b := Inc(0);
  assert a == 0 && b == 2 && counter == 5;
  assert other == 7;
}
