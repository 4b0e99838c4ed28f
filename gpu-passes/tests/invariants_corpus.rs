//! Issue 6's measure: the correct loop kernels of `tests/kernels/` verify with automatic
//! invariants alone (their own loop invariants removed), and every buggy twin still fails.

mod invariants_common;

use gpu_passes::invariants::*;
use invariants_common::*;

#[test]
#[ignore]
fn scratch_one() {
    let Ok(name) = std::env::var("KIVL_KERNEL") else { return };
    let (pass, args) = header(&name);
    let p = load(&name);
    let p = if pass { strip_loop_invariants(&p) } else { p };
    let t = std::time::Instant::now();
    let (r, rep) = verify_with_inference(&p, &kernel_options(&args), &verify_options(), true);
    let h = r.houdini.as_ref().map(|h| (h.candidates.len(), h.kept));
    println!("{name}: pass={pass} verified={} {:?} houdini={h:?} {}", verified(&r), t.elapsed(), describe(&r));
    let mut rep = rep.unwrap();
    let path = kernels_dir().join(format!("{name}.kbpl"));
    rep.set_source(&ivl::diag::SourceFile::new("k", std::fs::read_to_string(path).unwrap()));
    if std::env::var("KIVL_REPORT").is_ok() {
        println!("{}", infer_info_text(&rep));
    }
}

#[test]
#[ignore]
fn scratch_baseline() {
    let Ok(name) = std::env::var("KIVL_KERNEL") else { return };
    let (_, args) = header(&name);
    let p = load(&name);
    let r = gpu_passes::two_thread::verify_kernel(&p, &kernel_options(&args), &verify_options());
    println!("{name}: verified={} {}", verified(&r), describe(&r));
    if std::env::var("KIVL_EMIT").is_ok() {
        let q = gpu_passes::two_thread::two_thread_program(&p, &kernel_options(&args)).unwrap();
        println!("{}", ivl::printer::print_program(&q));
    }
}
