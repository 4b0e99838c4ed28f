//! The expectation header of kivl's test files (`tests/boogie`, `tests/kernels`,
//! `tests/frontend`, `tests/termination`), read the same way by every file harness of the
//! workspace: the root package's `tests/*.rs` and `gpu-passes/tests/*.rs`. The format is
//! documented once, in `tests/README.md`: the file's leading `//` lines, each either
//! `//KEY: VALUE`, `//KEY`, or prose.
//!
//! Also the few helpers those harnesses share to find the files: [`repo_dir`], [`files`],
//! [`par_map`]. A dev-only crate (`publish = false`), without dependencies.

use std::path::{Path, PathBuf};

/// What running kivl on the file must give (the `pass` / `xfail` key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `//pass`: verified, no errors.
    Pass,
    /// `//xfail: KIND`: an error of this kind (a JSON `kind`, `docs/kbpl.md` §8.4, or
    /// `unsupported`/`syntax` for front-end kernels) at the error line(s).
    Kind(String),
    /// `//xfail: errors N` (plain Boogie programs): exactly N errors, at the error lines.
    Errors(usize),
}

/// A test file's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub expect: Expect,
    /// `//args: …`: the `kivl verify` arguments, split at white space (empty when absent).
    pub args: Vec<String>,
    /// `//error-line: N` or `//error-lines: N, M, …` (1-based, counting the header).
    pub error_lines: Vec<usize>,
    /// `//kivl-error-lines: N, … (reason)`: where kivl deliberately reports other lines than
    /// the reference verifier's `error-lines` (plain Boogie programs).
    pub kivl_error_lines: Option<Vec<usize>>,
    /// `//needs-inference`: verifies only with invariant inference.
    pub needs_inference: bool,
}

impl Header {
    /// Reads the header of `text`, or says what is wrong with it.
    pub fn parse(text: &str) -> Result<Header, String> {
        let mut fields = Fields::default();
        for (i, line) in text.lines().enumerate() {
            let Some(comment) = line.strip_prefix("//") else { break };
            fields.add(comment).map_err(|e| format!("header line {}: {e}", i + 1))?;
        }
        fields.finish()
    }

    /// The header of the file at `path` and its text; panics (naming the file) when the file
    /// cannot be read or its header is wrong.
    pub fn read(path: &Path) -> (Header, String) {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let header = Header::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        (header, text)
    }

    /// The expected error kind of an `xfail: KIND` file.
    pub fn kind(&self) -> Option<&str> {
        match &self.expect {
            Expect::Kind(k) => Some(k),
            _ => None,
        }
    }

    /// Whether the file must verify (`//pass`).
    pub fn passes(&self) -> bool {
        self.expect == Expect::Pass
    }

    /// The arguments as one string, separated by single spaces.
    pub fn args_line(&self) -> String {
        self.args.join(" ")
    }
}

/// The keys seen so far while reading a header.
#[derive(Default)]
struct Fields {
    expect: Option<Expect>,
    args: Option<Vec<String>>,
    error_lines: Option<Vec<usize>>,
    kivl_error_lines: Option<Vec<usize>>,
    needs_inference: bool,
}

impl Fields {
    /// One header line, without its `//`: a key line (the key right after `//`), or prose
    /// (empty, or after a space: ignored).
    fn add(&mut self, comment: &str) -> Result<(), String> {
        if comment.is_empty() || comment.starts_with(char::is_whitespace) {
            return Ok(());
        }
        if comment.starts_with('-') {
            return Err(format!("`{comment}`: arguments are written `//args: {comment}`"));
        }
        let Some((key, value)) = key_line(comment) else {
            return Err(format!("`{comment}`: a key line is `//KEY` or `//KEY: VALUE`, prose `// TEXT`"));
        };
        match (key, value) {
            ("pass", None) => set(&mut self.expect, Expect::Pass, key),
            ("xfail", Some(v)) => set(&mut self.expect, expectation(v)?, key),
            ("args", Some(v)) => set(&mut self.args, v.split_whitespace().map(String::from).collect(), key),
            ("error-line" | "error-lines", Some(v)) => set(&mut self.error_lines, line_list(v)?, key),
            ("kivl-error-lines", Some(v)) => set(&mut self.kivl_error_lines, line_list(v)?, key),
            ("needs-inference", None) if !self.needs_inference => {
                self.needs_inference = true;
                Ok(())
            }
            _ => Err(format!("`{comment}`: not a header key (tests/README.md), or repeated, or with(out) a value")),
        }
    }

    fn finish(self) -> Result<Header, String> {
        Ok(Header {
            expect: self.expect.ok_or("no `//pass` or `//xfail: …` line")?,
            args: self.args.unwrap_or_default(),
            error_lines: self.error_lines.unwrap_or_default(),
            kivl_error_lines: self.kivl_error_lines,
            needs_inference: self.needs_inference,
        })
    }
}

/// Sets a key's value once.
fn set<T>(slot: &mut Option<T>, value: T, key: &str) -> Result<(), String> {
    match slot.replace(value) {
        None => Ok(()),
        Some(_) => Err(format!("`{key}` given twice")),
    }
}

/// `KEY` or `KEY: VALUE` (KEY: a lower-case letter, then lower-case letters, digits and `-`).
fn key_line(comment: &str) -> Option<(&str, Option<&str>)> {
    let end =
        comment.find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')).unwrap_or(comment.len());
    let (key, rest) = comment.split_at(end);
    if !key.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    match rest.strip_prefix(':') {
        Some(value) => Some((key, Some(value.trim()))),
        None if rest.is_empty() => Some((key, None)),
        None => None,
    }
}

/// The value of `xfail`: `errors N` or a kind.
fn expectation(value: &str) -> Result<Expect, String> {
    match value.strip_prefix("errors") {
        Some(n) => {
            n.trim().parse().map(Expect::Errors).map_err(|_| format!("`xfail: {value}`: `errors N` wants a number"))
        }
        None if !value.is_empty() && !value.contains(char::is_whitespace) => Ok(Expect::Kind(value.to_string())),
        None => Err(format!("`xfail: {value}`: one error kind, or `errors N`")),
    }
}

/// `N, M, …`, optionally followed by a parenthesised remark.
fn line_list(value: &str) -> Result<Vec<usize>, String> {
    let list = value.split('(').next().unwrap_or_default();
    list.split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(|n| n.parse().map_err(|_| format!("`{n}` is not a line number")))
        .collect()
}

/// A path relative to the workspace root.
pub fn repo_dir(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace root").join(rel)
}

/// Files with one of the extensions `exts` in the workspace directory `dir`, sorted.
pub fn files(dir: &str, exts: &[&str]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo_dir(dir))
        .unwrap_or_else(|e| panic!("reading {dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| exts.iter().any(|e| x == *e)))
        .collect();
    v.sort();
    v
}

/// Runs `f` over `items` on two threads (the machine has two cores), keeping the order.
pub fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<(usize, R)> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let mut v = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        if i >= items.len() {
                            break v;
                        }
                        v.push((i, f(&items[i])));
                    }
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    out.sort_by_key(|(i, _)| *i);
    out.into_iter().map(|(_, r)| r).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kernel_header() {
        let h = Header::parse("//xfail:race\n//args: --local-size 4\n//error-lines: 7, 9\n// prose: ignored\n//needs-inference\nprocedure").unwrap();
        assert_eq!(h.expect, Expect::Kind("race".into()));
        assert_eq!(h.args, ["--local-size", "4"]);
        assert_eq!(h.error_lines, [7, 9]);
        assert!(h.needs_inference);
    }

    #[test]
    fn a_boogie_header() {
        let h = Header::parse(
            "//xfail: errors 2\n//error-lines: 16, 28\n//kivl-error-lines: 19, 29   (why)\n//args: --houdini\n",
        )
        .unwrap();
        assert_eq!(h.expect, Expect::Errors(2));
        assert_eq!(h.kivl_error_lines, Some(vec![19, 29]));
        assert_eq!(h.args, ["--houdini"]);
        let h = Header::parse("//pass\n//error-lines:\n// Assignment forms: simple\n").unwrap();
        assert!(h.passes() && h.error_lines.is_empty());
    }

    #[test]
    fn wrong_headers_are_rejected() {
        for text in [
            "",
            "// prose\n",
            "//pass\n//pass\n",
            "//xfail:\n",
            "//xfail: errors x\n",
            "//pass\n//--houdini\n",
            "//pass\n//error-line: x\n",
            "//pass\n//needs-inferencee\n",
            "//pass\n//args\n",
            "//pass\n//Pass\n",
            "//pass\n//x y\n",
        ] {
            assert!(Header::parse(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn the_header_ends_at_the_first_line_without_slashes() {
        let h = Header::parse("//pass\nprocedure P();\n//xfail: race\n").unwrap();
        assert!(h.passes());
    }
}

/// Every test file of the four directories has a header this crate reads.
#[cfg(test)]
mod corpus {
    use super::*;

    #[test]
    fn every_test_file_has_a_header() {
        let dirs: [(&str, &[&str]); 4] = [
            ("tests/boogie", &["bpl"]),
            ("tests/kernels", &["kbpl"]),
            ("tests/frontend", &["cl", "cu"]),
            ("tests/termination", &["kbpl"]),
        ];
        let mut n = 0;
        for (dir, exts) in dirs {
            for path in files(dir, exts) {
                Header::read(&path);
                n += 1;
            }
        }
        assert!(n > 280, "only {n} test files");
    }
}
