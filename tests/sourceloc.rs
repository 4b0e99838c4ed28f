//! GPUVerify's Boogie with its location table (`X.bpl` next to `X.loc`): reports point at the
//! kernel source the table names (`tests/sourceloc/`, a racy kernel and its correct twin).

mod common;

use common::{kivl, repo_dir};

fn verify(name: &str) -> common::Run {
    let path = repo_dir(&format!("tests/sourceloc/{name}.bpl"));
    kivl(&["verify", "--format", "json", "--local-size", "8", "--num-groups", "2", path.to_str().unwrap()])
}

/// The sorted lines of the first race of a run.
fn race_lines(run: &common::Run) -> Vec<u64> {
    let race = run.errors().into_iter().find(|e| e["kind"] == "race").expect("a race");
    let mut lines: Vec<u64> = race["locations"].as_array().unwrap().iter().filter_map(|l| l["line"].as_u64()).collect();
    lines.sort();
    lines
}

#[test]
fn a_race_in_generated_boogie_is_reported_on_the_kernel_lines() {
    let run = verify("race");
    assert_eq!(run.code, 1, "{}", run.stderr);
    let file = run.file();
    assert!(file["file"].as_str().is_some_and(|f| f.ends_with("race.cl")), "{file}");
    assert!(file["located_from"].as_str().is_some_and(|f| f.ends_with("race.bpl")), "{file}");
    // A[t + 1] (race.cl line 4) and A[t] (line 3) of the neighbouring work-item.
    assert_eq!(race_lines(&run), vec![3, 4]);
}

#[test]
fn the_correct_twin_verifies_and_without_a_table_reports_stay_on_the_bpl() {
    let run = verify("ok");
    assert_eq!((run.code, run.verdict()), (0, "verified"), "{}", run.stderr);
    // The same program without its table: the report is on the .bpl itself.
    let dir = std::env::temp_dir().join(format!("kivl-sourceloc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bpl = dir.join("race.bpl");
    std::fs::copy(repo_dir("tests/sourceloc/race.bpl"), &bpl).unwrap();
    let run = kivl(&["verify", "--format", "json", "--local-size", "8", "--num-groups", "2", bpl.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(run.code, 1);
    assert!(run.file()["file"].as_str().is_some_and(|f| f.ends_with("race.bpl")));
    assert_eq!(race_lines(&run), vec![22, 24]);
}
