//! Reports on GPUVerify's generated Boogie moved onto the kernel source (issue 17).
//!
//! GPUVerify writes its location table next to the program: `kernel.bpl` has `kernel.loc`, one
//! line of entries separated by `\x1D`; entry `N` is what `{:sourceloc_num N}` in the program
//! refers to. An entry is a chain of records separated by `\x1E` (the statement, then the call
//! sites it was inlined into), a record four fields separated by `\x1F`: line, column, file,
//! directory (GPUVerify's `SourceLocationInfo`; records from its own headers, whose file name
//! contains `include-blang`, are skipped). kivl reads the first record of each entry.
//!
//! Every line of the `.bpl` takes the location of the last `{:sourceloc_num N}` at or before it
//! in the same procedure, the way the front end gives each generated `.kbpl` line the kernel
//! location it came from; the front end's span map ([`frontend::remap`]) then moves the parsed
//! program onto the kernel file. Without a table, or when the kernel file cannot be read, the
//! reports stay on the `.bpl`.

use ivl::diag::SourceFile;
use std::path::{Path, PathBuf};

/// One record: where in which file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    line: u32,
    col: u32,
    file: String,
    directory: String,
}

/// The location table of `bpl`, if there is one next to it (`X.loc` for `X.bpl`).
fn read_table(bpl: &Path) -> Option<Vec<Option<Record>>> {
    let text = std::fs::read_to_string(bpl.with_extension("loc")).ok()?;
    Some(parse_table(&text))
}

/// The first record of each entry that is not in one of GPUVerify's headers.
fn parse_table(text: &str) -> Vec<Option<Record>> {
    let first_line = text.lines().next().unwrap_or("");
    first_line
        .split('\x1D')
        .map(|entry| {
            let records = entry.split('\x1E').filter(|r| !r.is_empty()).filter_map(|r| {
                let f: Vec<&str> = r.split('\x1F').collect();
                Some(Record {
                    line: f.first()?.trim().parse().ok()?,
                    col: f.get(1)?.trim().parse().ok()?,
                    file: f.get(2)?.to_string(),
                    directory: f.get(3).unwrap_or(&"").to_string(),
                })
            });
            let all: Vec<Record> = records.collect();
            all.iter().find(|r| !r.file.contains("include-blang")).or(all.first()).cloned()
        })
        .collect()
}

/// The `N` of each `{:sourceloc_num N}` on a line.
fn sourceloc_nums(line: &str) -> impl Iterator<Item = usize> + '_ {
    line.match_indices("sourceloc_num").filter_map(|(i, m)| {
        let rest = line[i + m.len()..].trim_start();
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    })
}

/// The kernel file a record names: as written, else in the record's directory.
fn kernel_path(r: &Record, bpl: &Path) -> Option<PathBuf> {
    let direct = PathBuf::from(&r.file);
    let candidates =
        [direct.clone(), Path::new(&r.directory).join(&direct), bpl.parent().unwrap_or(Path::new(".")).join(&direct)];
    candidates.into_iter().find(|p| p.is_file())
}

/// For a `.bpl` with a location table: the translation-like line origins onto the kernel file,
/// and the kernel file itself (`None` when there is no table or no readable kernel).
pub fn kernel_origins(bpl: &Path, text: &str) -> Option<(frontend::Translation, SourceFile)> {
    let table = read_table(bpl)?;
    let file = table.iter().flatten().next()?.clone();
    let path = kernel_path(&file, bpl)?;
    let kernel_text = std::fs::read_to_string(&path).ok()?;
    let mut current: Option<frontend::Loc> = None;
    let mut origins = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("procedure") || t.starts_with("implementation") {
            current = None;
        }
        for n in sourceloc_nums(line) {
            // Only records in the kernel file: a location in another file cannot be shown on it.
            current = match table.get(n).cloned().flatten() {
                Some(r) if r.file == file.file => Some(frontend::Loc { line: r.line, col: r.col }),
                _ => None,
            };
        }
        origins.push(current);
    }
    let fallback = origins.iter().flatten().next().copied().unwrap_or(frontend::Loc { line: 1, col: 1 });
    let tr = frontend::Translation { kbpl: text.to_string(), origins, fallback, clang_secs: 0.0, translate_secs: 0.0 };
    Some((tr, SourceFile::new(path.display().to_string(), kernel_text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_records_and_fields() {
        let text = "12\x1F5\x1Fkernel.cl\x1F/src\x1E\x1D3\x1F1\x1Finclude-blang/x.h\x1F/g\x1E20\x1F9\x1Fkernel.cl\x1F/src\x1E\x1D";
        let t = parse_table(text);
        assert_eq!(t[0].as_ref().map(|r| (r.line, r.col)), Some((12, 5)));
        // GPUVerify's own header is skipped for the call site in the kernel.
        assert_eq!(t[1].as_ref().map(|r| (r.line, r.file.as_str())), Some((20, "kernel.cl")));
        assert_eq!(t[2], None);
    }

    #[test]
    fn attribute_numbers() {
        let line = "  assert {:sourceloc} {:sourceloc_num 17} true;";
        assert_eq!(sourceloc_nums(line).collect::<Vec<_>>(), vec![17]);
        assert_eq!(sourceloc_nums("x := 1;").count(), 0);
    }
}
