//! Candidate generation (`gpu_passes::invariants::add_candidates`): the output type-checks, and
//! each rule family proposes its candidate on the kernels it is meant for.

mod invariants_common;

use gpu_passes::invariants::*;
use invariants_common::*;

#[test]
fn dump_for_inspection() {
    let Ok(name) = std::env::var("KIVL_DUMP") else { return };
    let p = strip_loop_invariants(&load(&name));
    let (q, info) = add_candidates(&p);
    println!("{}", ivl::printer::print_program(&q));
    println!("{:?}", info.per_rule());
}
