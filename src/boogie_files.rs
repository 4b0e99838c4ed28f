//! GPUVerify's `--boogie-file=F.bpl` (issue 43): GPUVerify hands such a file to Boogie with the
//! kernel's translation, so its declarations (typically axioms about the kernel's uninterpreted
//! functions, `DECLARE_UF_BINARY(f, …)`) become part of the program verified. kivl does the
//! same with the `.kbpl` it generates: each file's text is appended to it before parsing.
//!
//! A diagnostic inside an appended file must not point at the kernel (the lines have no kernel
//! origin): it names the Boogie file, line and column in its message instead.

use ivl::ast::Span;
use ivl::diag::Diagnostic;
use std::path::PathBuf;

/// One Boogie file appended to a translation.
pub struct Part {
    name: String,
    /// Its first byte in the generated text.
    start: usize,
    text: String,
}

/// The Boogie files appended to a translation, in order.
#[derive(Default)]
pub struct Appended(Vec<Part>);

/// Appends the text of each file to the translation `tr` (lines without a kernel origin). A
/// file that cannot be read or has syntax errors of its own is refused here, with diagnostics
/// about the file itself.
pub fn append(tr: &mut frontend::Translation, files: &[PathBuf]) -> Result<Appended, Vec<Diagnostic>> {
    let mut parts = Vec::new();
    for f in files {
        let name = f.display().to_string();
        let text = std::fs::read_to_string(f).map_err(|e| vec![Diagnostic::io(&format!("--boogie-file {name}"), e)])?;
        let (_, diags) = ivl::parser::parse_program(&text);
        if !diags.is_empty() {
            return Err(diags.into_iter().map(|d| located(d, &name, &text, 0)).collect());
        }
        if !tr.kbpl.ends_with('\n') {
            tr.kbpl.push('\n');
            tr.origins.push(None);
        }
        let start = tr.kbpl.len();
        tr.kbpl.push_str(&text);
        tr.kbpl.push('\n');
        tr.origins.extend(std::iter::repeat_n(None, text.matches('\n').count() + 1));
        parts.push(Part { name, start, text });
    }
    Ok(Appended(parts))
}

impl Appended {
    /// The diagnostic `d` of the whole generated text, its location moved into the message when
    /// it lies in an appended file; `Err(d)` when it lies in the translation.
    pub fn locate(&self, d: Diagnostic) -> Result<Diagnostic, Diagnostic> {
        let at = d.primary.span.start as usize;
        match self.0.iter().rev().find(|p| at >= p.start && at <= p.start + p.text.len()) {
            Some(p) => Ok(located(d, &p.name, &p.text, p.start)),
            None => Err(d),
        }
    }
}

/// `d`, whose span is at `base` + an offset of the Boogie file `name` (text `text`), with the
/// file's line and column in its message and no span of the kernel.
fn located(mut d: Diagnostic, name: &str, text: &str, base: usize) -> Diagnostic {
    let off = (d.primary.span.start as usize).saturating_sub(base).min(text.len());
    let before = &text[..text.floor_char_boundary(off)];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    d.message = format!("{} (--boogie-file {name}:{line}:{col})", d.message);
    d.primary.span = Span::DUMMY;
    d.related.clear();
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn translation(kbpl: &str) -> frontend::Translation {
        frontend::Translation {
            kbpl: kbpl.into(),
            origins: vec![None; kbpl.lines().count()],
            fallback: frontend::Loc { line: 1, col: 1 },
            clang_secs: 0.0,
            translate_secs: 0.0,
        }
    }

    fn temp(name: &str, text: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("kivl-boogie-files-{}-{name}", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn appends_and_locates_in_the_boogie_file() {
        let f = temp("ok.bpl", "type T = bv32;\naxiom (forall x: T :: f(x) == x);\n");
        let mut tr = translation("function f(bv32): bv32;");
        let app = append(&mut tr, std::slice::from_ref(&f)).unwrap();
        assert!(tr.kbpl.starts_with("function f(bv32): bv32;\ntype T = bv32;\naxiom"), "{}", tr.kbpl);
        assert_eq!(tr.origins.len(), tr.kbpl.matches('\n').count() + 1);
        let at = tr.kbpl.find("f(x)").unwrap();
        let d = app.locate(Diagnostic::type_error("undeclared", Span::new(at, at + 1))).unwrap();
        assert_eq!(d.message, format!("undeclared (--boogie-file {}:2:23)", f.display()));
        assert!(app.locate(Diagnostic::type_error("in the kernel", Span::new(3, 4))).is_err());
        let _ = std::fs::remove_file(f);
    }

    #[test]
    fn refuses_a_file_with_syntax_errors_or_none() {
        let f = temp("bad.bpl", "axiom (forall x: bv32 :: x ==);\n");
        let err = append(&mut translation(""), std::slice::from_ref(&f)).err().unwrap();
        assert!(err[0].message.ends_with(&format!("(--boogie-file {}:1:30)", f.display())), "{}", err[0].message);
        let _ = std::fs::remove_file(f);
        let missing = append(&mut translation(""), &[PathBuf::from("/nonexistent/x.bpl")]).err().unwrap();
        assert!(missing[0].message.contains("--boogie-file /nonexistent/x.bpl"), "{}", missing[0].message);
    }
}
