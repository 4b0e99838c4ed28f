//! The lock-step verifier against the interleaving interpreter (seed 000 Theorem 5.2, one
//! direction, tested): on generated kernels — shared reads and writes at thread-dependent
//! locations, conditionals on thread ids and on shared data, barriers in and out of
//! conditionals, assertions — whenever some interleaving run finds a race, a barrier divergence
//! or an assertion failure, `verify_lockstep` must not say "verified". (The converse needs
//! exhaustive schedules and is not tested here.)

mod predication_gen;

use gpu_passes::driver::verify_lockstep;
use gpu_passes::interleaving::{run_many, Interpreter, RunConfig};
use predication_gen::Rng;
use proptest::prelude::*;
use vcgen::engine::{Outcome, VerifyOptions};

struct KernelGen<'a> {
    rng: &'a mut Rng,
    out: String,
}

impl KernelGen<'_> {
    fn pick<'s>(&mut self, xs: &[&'s str]) -> &'s str {
        xs[self.rng.below(xs.len() as u64) as usize]
    }

    fn index(&mut self) -> &'static str {
        self.pick(&["tid", "tid", "tid + 1", "0", "1 - tid", "x", "TS - 1 - tid"])
    }

    fn value(&mut self) -> &'static str {
        self.pick(&["tid", "1", "x", "x + 1", "s"])
    }

    fn cond(&mut self) -> String {
        match self.rng.below(5) {
            0 => "tid == 0".into(),
            1 => "x > 0".into(),
            2 => format!("A[{}] > 0", self.index()),
            3 => "TS == 2".into(),
            _ => "s == 1".into(),
        }
    }

    fn stmts(&mut self, depth: usize, indent: usize) {
        let n = 1 + self.rng.below(4);
        for _ in 0..n {
            let pad = " ".repeat(indent);
            match self.rng.below(10) {
                0 | 1 => {
                    let (i, v) = (self.index(), self.value());
                    self.out += &format!("{pad}A[{i}] := {v};\n");
                }
                2 | 3 => {
                    let i = self.index();
                    self.out += &format!("{pad}x := A[{i}];\n");
                }
                4 => {
                    let v = self.value();
                    self.out += &format!("{pad}s := {v};\n");
                }
                5 => self.out += &format!("{pad}barrier;\n"),
                6 => self.out += &format!("{pad}assert x != 3;\n"),
                7 => self.out += &format!("{pad}x := x + 1;\n"),
                _ if depth < 2 => {
                    let c = self.cond();
                    self.out += &format!("{pad}if ({c}) {{\n");
                    self.stmts(depth + 1, indent + 2);
                    self.out += &format!("{pad}}} else {{\n");
                    self.stmts(depth + 1, indent + 2);
                    self.out += &format!("{pad}}}\n");
                }
                _ => self.out += &format!("{pad}x := s;\n"),
            }
        }
    }
}

fn kernel(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut g = KernelGen { rng: &mut rng, out: String::new() };
    g.stmts(0, 2);
    format!(
        "const {{:local_id_x}} tid: int;\nconst {{:group_size_x}} TS: int;\n\
         var {{:group_shared}} A: [int]int;\nvar s: int;\n\
         procedure {{:kernel}} k();\n  modifies A, s;\n\
         implementation {{:kernel}} k()\n{{\n  var x: int;\n  x := 0;\n{}}}\n",
        g.out
    )
}

fn prepare(text: &str) -> ivl::ast::Program {
    let (program, diags) = ivl::parser::parse_program(text);
    assert!(diags.is_empty(), "{diags:?}\n{text}");
    let diags = ivl::check::check_program(&program);
    assert!(diags.is_empty(), "{diags:?}\n{text}");
    ivl::modifies::infer_modifies(&ivl::prelude::with_prelude(program))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn interleaving_errors_are_never_verified_in_lockstep(seed in any::<u64>(), ts in 2u64..4) {
        let text = kernel(seed);
        let program = prepare(&text);
        let interp = Interpreter::new(&program).expect("the interpreter runs it");
        let cfg = RunConfig { local_size: Some(vec![ts]), num_groups: Some(vec![1]), seed, ..RunConfig::default() };
        let runs = run_many(&interp, &cfg, 40);
        let r = verify_lockstep(&program, ts as usize, &VerifyOptions { jobs: 1, timeout_secs: Some(60), ..VerifyOptions::default() });
        prop_assert!(r.errors.is_empty(), "lock-step refused the kernel: {:?}\n{}", r.errors, text);
        let lockstep_errors = r.impls.iter().any(|i| matches!(i.outcome, Outcome::Errors(_)));
        prop_assert!(!r.impls.iter().any(|i| matches!(i.outcome, Outcome::Inconclusive(_))));
        if let Some((_, e)) = &runs.error {
            prop_assert!(lockstep_errors, "interleaving found {:?} ({}) but lock-step verified:\n{}", e.kind, e.diagnostic.message, text);
        }
    }
}

/// Both outcomes occur among the generated kernels, and the interpreter finds errors in many,
/// so the property is not vacuous.
#[test]
fn generated_kernels_have_both_verdicts() {
    let (mut verified, mut failing, mut found) = (0, 0, 0);
    for seed in 0..40 {
        let program = prepare(&kernel(seed));
        let interp = Interpreter::new(&program).unwrap();
        let cfg = RunConfig { local_size: Some(vec![2]), num_groups: Some(vec![1]), seed, ..RunConfig::default() };
        if run_many(&interp, &cfg, 40).error.is_some() {
            found += 1;
        }
        let r = verify_lockstep(&program, 2, &VerifyOptions { jobs: 1, ..VerifyOptions::default() });
        if r.impls.iter().all(|i| matches!(i.outcome, Outcome::Verified)) {
            verified += 1;
        } else {
            failing += 1;
        }
    }
    assert!(
        verified >= 5 && failing >= 5 && found >= 5,
        "verified {verified}, failing {failing}, interleaving errors {found}"
    );
}
