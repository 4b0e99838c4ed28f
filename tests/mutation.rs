//! A standing guard against false negatives (issue 16): every correct kernel of
//! `tests/kernels/` is mutated (`gpu_passes::mutate`: a barrier deleted, an index shifted by ±1,
//! a local id made constant, a comparison flipped, an `if` around a shared access dropped, a
//! `requires` dropped), and every mutant that `kivl verify` still proves is run by `kivl run`
//! with concrete sizes (the header's, or small ones consistent with the kernel's axioms when it
//! is verified for symbolic sizes), with seeded random schedules and round-robin. A race,
//! divergence or assertion failure in such a run is a soundness bug of the verifier: the test
//! fails and prints the mutant and the run's report.
//!
//! `mutation_sample` runs a fixed, seeded sample ([`PER_KERNEL`] mutants of each kernel, spread
//! over the operators) in CI; `full_mutation_run` (ignored; `scripts/mutation.sh`) runs every
//! mutant. Both print a table: generated, invalid (not type-correct, or rejected by kivl as
//! unsupported), killed (kivl verify reports an error), inconclusive (time out), survived
//! (verified), survivors checked by `kivl run` (at least one run completed) and buggy survivors.

mod common;
use common::*;
use gpu_passes::mutate::{mutants, Mutant, Op};
use std::collections::BTreeMap;

/// The CI sample: mutants per kernel, seed, effort.
const PER_KERNEL: usize = 3;
const SEED: u64 = 16;
const SAMPLE: Effort = Effort { runs: "20", round_robin_runs: "2", timeout: "10", max_steps: "1000000" };
/// The full run (`scripts/mutation.sh`).
const FULL: Effort = Effort { runs: "25", round_robin_runs: "2", timeout: "30", max_steps: "1000000" };
/// Local sizes `kivl run` tries for kernels verified with symbolic sizes, each with a number of
/// groups (used when the header does not fix it).
const SYMBOLIC_SIZES: [(&str, &str); 3] = [("4", "2"), ("8", "1"), ("16", "2")];

/// `kivl run`: random-schedule runs per size (seeds 0..runs), then round-robin runs, and the
/// steps of one run (a corpus kernel takes under 50,000; a mutant whose loop no longer ends
/// would otherwise spend the default 20 million in every run); `kivl verify --timeout`.
#[derive(Clone, Copy)]
struct Effort {
    runs: &'static str,
    round_robin_runs: &'static str,
    timeout: &'static str,
    max_steps: &'static str,
}

struct Case {
    kernel: String,
    args: Vec<String>,
    mutant: Mutant,
}

#[derive(Debug)]
enum Outcome {
    /// Not type-correct (`gpu_passes::mutate`), or `kivl verify` exits 2 (unsupported).
    Invalid,
    Killed,
    Inconclusive,
    /// Exit status 4 or a signal: a crash of the verifier.
    Crashed(String),
    Survived(Oracle),
}

#[derive(Debug)]
enum Oracle {
    /// No configuration could run (sizes rejected by the axioms, nothing feasible).
    Unchecked,
    /// Runs completed in some configuration, none showed anything.
    Clean,
    /// A run showed a bug: the command line and the report.
    Buggy(String, String),
}

/// The `kivl run` size flags for a mutant verified with `verify_args`: the header's sizes, or
/// the symbolic-size list (the header's number of groups, if it gives one, is kept).
fn run_sizes(verify_args: &[String]) -> Vec<Vec<String>> {
    let flags = run_flags(verify_args);
    if flags.iter().any(|f| f == "--local-size") {
        return vec![flags];
    }
    let groups_given = flags.iter().any(|f| f == "--num-groups");
    SYMBOLIC_SIZES
        .iter()
        .map(|(l, g)| {
            let mut v = flags.clone();
            v.extend(["--local-size".to_string(), l.to_string()]);
            if !groups_given {
                v.extend(["--num-groups".to_string(), g.to_string()]);
            }
            v
        })
        .collect()
}

/// `kivl run` on a verified mutant, size by size, random schedules then round-robin.
fn oracle(file: &str, args: &[String], effort: Effort) -> Oracle {
    let mut clean = false;
    for size in &run_sizes(args) {
        for (schedule, runs) in [("random", effort.runs), ("round-robin", effort.round_robin_runs)] {
            let mut a: Vec<&str> = vec![
                "run",
                "--format",
                "json",
                "--schedule",
                schedule,
                "--runs",
                runs,
                "--max-steps",
                effort.max_steps,
            ];
            a.extend(size.iter().map(String::as_str));
            a.push(file);
            let r = kivl(&a);
            match r.code {
                0 => clean = true,
                1 => {
                    let report = serde_json::to_string_pretty(&r.errors()).unwrap();
                    return Oracle::Buggy(format!("kivl {}", a.join(" ")), report);
                }
                // Sizes the axioms reject, unsupported constructs, no feasible run: skipped.
                _ => {}
            }
        }
    }
    if clean {
        Oracle::Clean
    } else {
        Oracle::Unchecked
    }
}

fn evaluate(dir: &std::path::Path, i: usize, c: &Case, effort: Effort) -> Outcome {
    if c.mutant.invalid.is_some() {
        return Outcome::Invalid;
    }
    let path = dir.join(format!("{}-{i}.kbpl", c.kernel.trim_end_matches(".kbpl")));
    std::fs::write(&path, &c.mutant.text).unwrap();
    let mut a: Vec<&str> = vec!["--timeout", effort.timeout];
    a.extend(c.args.iter().map(String::as_str));
    let v = verify_json(&path, &a);
    match v.code {
        0 => Outcome::Survived(oracle(path.to_str().unwrap(), &c.args, effort)),
        1 => Outcome::Killed,
        2 => Outcome::Invalid,
        3 => Outcome::Inconclusive,
        code => Outcome::Crashed(format!("exit {code}: {}", v.stderr.lines().last().unwrap_or(""))),
    }
}

/// Every mutant of every `//pass` kernel.
fn all_cases() -> Vec<Case> {
    let mut out = Vec::new();
    for (path, expect, args) in corpus() {
        if expect.is_some() {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let kernel = path.file_name().unwrap().to_string_lossy().into_owned();
        let ms = mutants(&text).unwrap_or_else(|e| panic!("{kernel} does not parse: {e}"));
        out.extend(ms.into_iter().map(|mutant| Case { kernel: kernel.clone(), args: args.clone(), mutant }));
    }
    out
}

/// splitmix64.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// `n` mutants of each kernel, chosen with `seed`: the type-correct mutants of each operator are
/// shuffled and taken from the operators in turn, so that a kernel's sample covers as many
/// operators as it has.
fn sample(cases: Vec<Case>, n: usize, seed: u64) -> Vec<Case> {
    let mut by_kernel: BTreeMap<String, BTreeMap<Op, Vec<Case>>> = BTreeMap::new();
    for c in cases.into_iter().filter(|c| c.mutant.invalid.is_none()) {
        by_kernel.entry(c.kernel.clone()).or_default().entry(c.mutant.op).or_default().push(c);
    }
    let mut out = Vec::new();
    for (kernel, mut ops) in by_kernel {
        let mut state =
            seed ^ kernel.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        for list in ops.values_mut() {
            for i in (1..list.len()).rev() {
                list.swap(i, (next(&mut state) % (i as u64 + 1)) as usize);
            }
        }
        let mut lists: Vec<Vec<Case>> = ops
            .into_values()
            .map(|mut l| {
                l.reverse();
                l
            })
            .collect();
        let len = lists.len();
        let start = (next(&mut state) % len as u64) as usize;
        let mut taken = 0;
        'fill: while taken < n {
            let mut any = false;
            for k in 0..len {
                if taken == n {
                    break 'fill;
                }
                if let Some(c) = lists[(start + k) % len].pop() {
                    out.push(c);
                    taken += 1;
                    any = true;
                }
            }
            if !any {
                break;
            }
        }
    }
    out
}

#[derive(Default, Clone, Copy)]
struct Row {
    generated: usize,
    invalid: usize,
    killed: usize,
    inconclusive: usize,
    crashed: usize,
    survived: usize,
    checked: usize,
    buggy: usize,
}

impl Row {
    fn add(&mut self, o: &Outcome) {
        self.generated += 1;
        match o {
            Outcome::Invalid => self.invalid += 1,
            Outcome::Killed => self.killed += 1,
            Outcome::Inconclusive => self.inconclusive += 1,
            Outcome::Crashed(_) => self.crashed += 1,
            Outcome::Survived(or) => {
                self.survived += 1;
                match or {
                    Oracle::Unchecked => {}
                    Oracle::Clean => self.checked += 1,
                    Oracle::Buggy(..) => {
                        self.checked += 1;
                        self.buggy += 1;
                    }
                }
            }
        }
    }
    fn line(&self, name: &str) -> String {
        format!(
            "{name:<16} {:>9} {:>7} {:>6} {:>12} {:>7} {:>8} {:>7} {:>5}",
            self.generated,
            self.invalid,
            self.killed,
            self.inconclusive,
            self.crashed,
            self.survived,
            self.checked,
            self.buggy
        )
    }
}

/// Runs the cases, prints the table, and fails on every verified mutant that `kivl run` shows
/// buggy and on every crash. Returns the totals.
fn run_cases(cases: &[Case], effort: Effort) -> Row {
    let dir = std::env::temp_dir().join(format!("kivl-mutation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let started = std::time::Instant::now();
    let timed = par_map(&cases.iter().enumerate().collect::<Vec<_>>(), |(i, c)| {
        let t = std::time::Instant::now();
        (evaluate(&dir, *i, c, effort), t.elapsed())
    });
    let outcomes: Vec<&Outcome> = timed.iter().map(|(o, _)| o).collect();
    let mut rows: BTreeMap<Op, Row> = BTreeMap::new();
    let mut total = Row::default();
    let mut failures = Vec::new();
    for (c, &o) in cases.iter().zip(&outcomes) {
        rows.entry(c.mutant.op).or_default().add(o);
        total.add(o);
        let what = format!("{} ({})", c.kernel, c.mutant.describe());
        match o {
            Outcome::Survived(Oracle::Buggy(cmd, report)) => failures.push(format!(
                "SOUNDNESS: `kivl verify {}` proves the mutant {what}, but `{cmd}` finds:\n{report}\n--- mutant ---\n{}",
                c.args.join(" "),
                c.mutant.text
            )),
            Outcome::Crashed(why) => failures.push(format!("CRASH: kivl verify on {what}: {why}\n{}", c.mutant.text)),
            Outcome::Survived(Oracle::Unchecked) => eprintln!("survivor not checked by `kivl run`: {what}"),
            Outcome::Inconclusive => eprintln!("inconclusive: {what}"),
            _ => {}
        }
    }
    eprintln!(
        "{:<16} {:>9} {:>7} {:>6} {:>12} {:>7} {:>8} {:>7} {:>5}",
        "operator", "generated", "invalid", "killed", "inconclusive", "crashed", "survived", "checked", "buggy"
    );
    for (op, row) in &rows {
        eprintln!("{}", row.line(op.name()));
    }
    eprintln!("{}", total.line("total"));
    eprintln!("{} mutants in {:.1?}; the slowest:", cases.len(), started.elapsed());
    let mut slow: Vec<(std::time::Duration, &Case)> = timed.iter().map(|(_, d)| *d).zip(cases).collect();
    slow.sort_by_key(|(d, _)| std::cmp::Reverse(*d));
    for (d, c) in slow.iter().take(5) {
        eprintln!("  {d:.1?} {} ({})", c.kernel, c.mutant.describe());
    }
    assert!(failures.is_empty(), "{} failures:\n\n{}", failures.len(), failures.join("\n\n"));
    // The mutants stay for inspection only when something failed.
    let _ = std::fs::remove_dir_all(&dir);
    total
}

#[test]
fn mutation_sample() {
    let all = all_cases();
    let kernels = all.iter().map(|c| c.kernel.as_str()).collect::<std::collections::HashSet<_>>().len();
    let invalid = all.iter().filter(|c| c.mutant.invalid.is_some()).count();
    eprintln!("{} mutants of {kernels} correct kernels ({invalid} not type-correct)", all.len());
    assert!(kernels >= 40, "the corpus has {kernels} correct kernels");
    let cases = sample(all, PER_KERNEL, SEED);
    assert!(cases.len() >= kernels * 2, "a sample of {}", cases.len());
    let total = run_cases(&cases, SAMPLE);
    // The guard guards something: mutants are killed, and survivors are really executed.
    assert!(total.killed * 3 >= total.generated, "a third of the mutants are bugs kivl finds: {}", total.killed);
    assert!(
        total.checked > 0 && total.checked * 4 >= total.survived * 3,
        "{} of {} survivors run",
        total.checked,
        total.survived
    );
}

#[test]
#[ignore = "every mutant of every correct kernel, minutes: scripts/mutation.sh"]
fn full_mutation_run() {
    let cases = all_cases();
    run_cases(&cases, FULL);
}

#[test]
fn the_sample_is_deterministic_and_spread_over_operators() {
    let a: Vec<(String, String)> =
        sample(all_cases(), PER_KERNEL, SEED).into_iter().map(|c| (c.kernel, c.mutant.text)).collect();
    let b: Vec<(String, String)> =
        sample(all_cases(), PER_KERNEL, SEED).into_iter().map(|c| (c.kernel, c.mutant.text)).collect();
    assert_eq!(a, b);
    let c = sample(all_cases(), PER_KERNEL, SEED + 1);
    assert_ne!(a.iter().map(|x| &x.1).collect::<Vec<_>>(), c.iter().map(|x| &x.mutant.text).collect::<Vec<_>>());
    // A kernel with a barrier, shared accesses and a thread id gets mutants of several operators.
    let ops: std::collections::HashSet<Op> = sample(all_cases(), PER_KERNEL, SEED)
        .into_iter()
        .filter(|c| c.kernel == "add_neighbour.kbpl")
        .map(|c| c.mutant.op)
        .collect();
    assert_eq!(ops.len(), PER_KERNEL, "{ops:?}");
}
