mod interleaving_common;
use interleaving_common::*;
use gpu_passes::interleaving::RunOutcome;

#[test]
fn smoke() {
    let k = r#"
var {:group_shared} A: [int]int;
procedure {:kernel} k()
{
  A[local_id_x] := local_id_x;
  barrier;
  assert A[local_id_x] == local_id_x;
}
"#;
    let o = run(k, &[4], &[1], 1);
    println!("{o:#?}");
    assert!(matches!(o, RunOutcome::Completed(_)));
}
