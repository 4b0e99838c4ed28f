// GPUVerify-style Boogie for race.cl: each statement is preceded by a location marker whose
// number indexes race.loc (kivl reports on race.cl when that table is next to this file).
const {:local_id_x} local_id_x: bv32;
const {:local_id_y} local_id_y: bv32;
const {:local_id_z} local_id_z: bv32;
const {:group_id_x} group_id_x: bv32;
const {:group_id_y} group_id_y: bv32;
const {:group_id_z} group_id_z: bv32;
const {:group_size_x} group_size_x: bv32;
const {:group_size_y} group_size_y: bv32;
const {:group_size_z} group_size_z: bv32;
const {:num_groups_x} num_groups_x: bv32;
const {:num_groups_y} num_groups_y: bv32;
const {:num_groups_z} num_groups_z: bv32;
function {:bvbuiltin "bvadd"} BV32_ADD(bv32, bv32): bv32;
var {:group_shared} $$A: [bv32]bv32;

procedure {:kernel} k()
{
$entry:
  assert {:sourceloc} {:sourceloc_num 0} true;
  $$A[local_id_x] := 1bv32;
  assert {:sourceloc} {:sourceloc_num 1} true;
  $$A[BV32_ADD(local_id_x, 1bv32)] := 2bv32;
  return;
}
