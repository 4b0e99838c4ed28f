//xfail: errors 2
//error-lines: 21, 21
// Twin of map_update.bpl without `requires i != j`: for i == j the write to M[i] changes M[j]
// and N[i][i] := false overwrites N[i][j]; Boogie reports both postconditions at the end of
// the body.

var M: [int]int;
var N: [int][int]bool;
var P2: [int, int]int;

procedure Update(i: int, j: int)
  modifies M, N, P2;
  ensures M[i] == 5 && M[j] == old(M[j]);
  ensures N[i][j] && !N[i][i];
  ensures P2[i, j] == 7 && P2[j, i] == old(P2[j, i]);
{
  M[i] := 5;
  N[i][j] := true;
  N[i][i] := false;
  P2[i, j] := 7;
}

procedure Store(m: [int]int)
{
  var m2: [int]int;
  var row: [int]bool;
  m2 := m[3 := 10][4 := 11];
  assert m2[3] == 10 && m2[4] == 11;
  assert m2[5] == m[5];
  assert m[3 := 1][3] == 1;
  row := N[0];
  assert row == N[0];
  assert N[0 := row[1 := true]][0][1];
}
