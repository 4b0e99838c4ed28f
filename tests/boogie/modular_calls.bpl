//pass
//error-lines:
// Modular verification of calls: requires / ensures / modifies, free requires (assumed by the
// body, not checked at calls), free ensures (assumed at calls, not checked), frame of globals
// outside the modifies clause.

var counter: int;
var log: [int]int;
var other: int;

procedure Inc(k: int) returns (before: int)
  requires k > 0;
  free requires counter >= 0;
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
  call b := Inc(3);
  assert a == 0 && b == 2 && counter == 5;
  assert log[0] == 2 && log[2] == 3;
  assert other == 7;
}
