//! What kivl tells its users: per-file verdicts, rendered for people ([`human`]), as the JSON
//! of docs/kbpl.md §8 ([`json`]), as SARIF 2.1.0 ([`sarif`]) or JUnit XML ([`junit`]), and the
//! exit status that summarises a run.
//!
//! The reports themselves ([`model`]) are at the bottom: the renderers read them, and this
//! module chooses the renderer the run asked for ([`print_run`]).

mod human;
mod json;
mod junit;
mod model;
mod sarif;

pub use model::{bounded_wording, counts, exit_code, Counts, FileReport, RunExtras, Verdict};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Human,
    Json,
    /// SARIF 2.1.0 (GitHub code scanning, editors).
    Sarif,
    /// JUnit XML (CI test reports).
    Junit,
}

/// How a run's reports are printed: the format and, for people, how much.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub format: Format,
    /// Keep the counterexample's execution trace of internal block names.
    pub verbose: bool,
    /// Only the closing line.
    pub silent: bool,
}

impl From<Format> for Style {
    fn from(format: Format) -> Style {
        Style { format, verbose: false, silent: false }
    }
}

/// Prints the reports; `summary` adds Boogie's closing line (`verify`). A closed stdout (`kivl
/// ... | head`) ends the output quietly.
pub fn print(reports: &[FileReport], style: impl Into<Style>, summary: Option<Counts>) {
    print_run(reports, style.into(), summary, &RunExtras::default());
}

/// [`print`] with what the run adds ([`RunExtras`]).
pub fn print_run(reports: &[FileReport], style: Style, summary: Option<Counts>, run: &RunExtras) {
    use std::io::Write;
    crate::progress::clear();
    let out = match style.format {
        Format::Json => json::json_text(reports, summary, run),
        Format::Sarif => sarif::sarif_text(reports, &run.skipped),
        Format::Junit => junit::junit_text(reports, run),
        Format::Human => human::human_text(reports, style.verbose, style.silent, summary, run),
    };
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush());
}
