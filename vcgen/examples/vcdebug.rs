//! Debugging aid: `cargo run -p vcgen --example vcdebug -- FILE [desugared|passified|vc|verify] [--houdini]`.
use vcgen::engine::{emit_stage, verify_program, EmitStage, VerifyOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("read");
    let t0 = std::time::Instant::now();
    let (program, diags) = ivl::parser::parse_program(&text);
    eprintln!("parse: {:?}", t0.elapsed());
    let t1 = std::time::Instant::now();
    let checked = ivl::check::check_program(&program);
    eprintln!("check: {:?} ({} diagnostics)", t1.elapsed(), checked.len());
    let t2 = std::time::Instant::now();
    let prepared = vcgen::desugar::prepare(&program).map(|v| v.len());
    eprintln!("prepare: {:?} ({:?} impls)", t2.elapsed(), prepared.as_ref().map_err(|e| e.len()));
    let file = ivl::diag::SourceFile::new(args[1].clone(), text.clone());
    for d in &diags {
        eprintln!("{}", d.render(&file, false));
    }
    let mode = args.get(2).map(String::as_str).unwrap_or("verify");
    let houdini = args.iter().any(|a| a == "--houdini");
    match mode {
        "verify" => {
            let t = std::time::Instant::now();
            let r = verify_program(
                &program,
                &VerifyOptions { houdini, print_assignment: true, jobs: 1, ..Default::default() },
            );
            for d in r.errors.iter().chain(&r.notes) {
                eprintln!("{}", d.render(&file, false));
            }
            if let Some(h) = &r.houdini {
                eprintln!(
                    "houdini: {} rounds, {} checks, {:?}, kept {}/{}",
                    h.rounds,
                    h.checks,
                    h.time,
                    h.kept,
                    h.candidates.len()
                );
            }
            for i in &r.impls {
                eprintln!("impl {}: {:?}", i.name, i.time);
            }
            if let Some(a) = &r.assignment_text {
                print!("{a}");
            }
            for i in &r.impls {
                match &i.outcome {
                    vcgen::engine::Outcome::Errors(ds) => {
                        for d in ds {
                            println!("{}", d.render(&file, false));
                        }
                    }
                    o => println!("{}: {:?}", i.name, o),
                }
            }
            let (v, e, u) = r.counts();
            println!("{} verified, {} errors, {} inconclusive in {:?}", v, e, u, t.elapsed());
        }
        stage => match emit_stage(
            &program,
            EmitStage::parse(stage).expect("stage"),
            &VerifyOptions { houdini, ..Default::default() },
        ) {
            Ok(s) => print!("{s}"),
            Err(ds) => ds.iter().for_each(|d| eprintln!("{}", d.render(&file, false))),
        },
    }
}
