//! `kivl completions SHELL` and `kivl man [SUBCOMMAND]`: shell completion scripts and roff man
//! pages generated from the command line's own definition (`clap_complete`, `clap_mangen`), so
//! they never drift from the options kivl accepts. They are printed on stdout rather than
//! written by a build script: `cargo install --path .` installs only the binary, and a user
//! puts the output where the shell or `man` looks (README.md, "Installing").

use clap::Command;
use std::io::Write;

/// Writes the completion script for `shell` on stdout.
pub fn completions(shell: clap_complete::Shell, mut cmd: Command) -> i32 {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kivl", &mut out);
    emit(&out)
}

/// Writes the man page of kivl, or of `kivl SUBCOMMAND` (as `kivl-SUBCOMMAND(1)`), on stdout.
pub fn man(cmd: Command, sub: Option<&str>) -> i32 {
    let page = match sub {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            // clap takes names as `&'static str` (without its `string` feature); the process
            // ends right after.
            Some(c) => {
                let page: &'static str = format!("kivl-{name}").leak();
                c.clone().name(page).version(env!("CARGO_PKG_VERSION"))
            }
            None => {
                eprintln!("error: no subcommand `{name}`");
                return 2;
            }
        },
    };
    let mut out = Vec::new();
    if let Err(e) = clap_mangen::Man::new(page).render(&mut out) {
        eprintln!("kivl: cannot render the man page: {e}");
        return 4;
    }
    emit(&out)
}

fn emit(bytes: &[u8]) -> i32 {
    let mut stdout = std::io::stdout().lock();
    let _ = stdout.write_all(bytes).and_then(|()| stdout.flush());
    0
}
