use gpu_passes::interleaving::{self as il, Interpreter, RunConfig, RunOutcome};
#[test]
#[ignore]
fn corpus_no_panics() {
    let mut files: Vec<String> = std::process::Command::new("find").args(["/work/corpus/gpu/other", "-name", "*.bpl"]).output().map(|o| String::from_utf8_lossy(&o.stdout).lines().map(String::from).collect()).unwrap();
    files.sort();
    let step = std::env::var("STEP").ok().and_then(|s| s.parse().ok()).unwrap_or(7usize);
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    for f in files.iter().step_by(step) {
        let text = std::fs::read_to_string(f).unwrap();
        let (p, d) = ivl::parser::parse_program(&text);
        if !d.is_empty() || !ivl::check::check_program(&p).is_empty() { *counts.entry("frontend".into()).or_default() += 1; continue; }
        let p = ivl::modifies::infer_modifies(&ivl::prelude::with_prelude(p));
        let r = std::panic::catch_unwind(|| {
            let i = match Interpreter::new(&p) { Ok(i) => i, Err(d) => return format!("compile: {}", d[0].message) };
            let c = RunConfig { max_steps: 300_000, ..Default::default() };
            let s = il::run_many(&i, &c, 2);
            if let Some((_, e)) = s.error { return format!("error {}", e.kind.as_str()) }
            if let Some(d) = s.invalid { return format!("invalid {} @{}", d[0].message.chars().take(60).collect::<String>(), text[d[0].primary.span.start as usize..d[0].primary.span.end as usize].chars().take(60).collect::<String>()) }
            if let Some(w) = s.internal { println!("INTERNAL {f}: {w}"); return "internal".into() }
            format!("ok c{} i{} l{}", s.completed, s.infeasible, s.limited)
        });
        let k = match r { Ok(s) => s, Err(_) => { println!("PANIC {f}"); "panic".into() } };
        *counts.entry(k).or_default() += 1;
    }
    for (k, v) in counts { println!("{v:4} {k}"); }
}
