//! Diagnostics: one value type for every problem kivl reports — syntax and type errors found by
//! the front end and the verification errors found later — rendered for people with ariadne and
//! for programs as the JSON of docs/kbpl.md §8.
//!
//! Diagnostics are values, never panics: every stage returns them, the driver decides how to show
//! them.

use crate::ast::Span;
use serde::{Deserialize, Serialize};

/// The error kinds of docs/kbpl.md §8 (the `kind` field of the JSON).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    Race,
    Divergence,
    Assertion,
    Precondition,
    Postcondition,
    InvariantEntry,
    InvariantMaintained,
    BarrierInvariant,
    /// A loop that `verify --termination` could not prove terminating (seed 004).
    Termination,
    Timeout,
    Syntax,
    Type,
    Unsupported,
    /// The file could not be read (missing, a directory, no permission): a problem of the file
    /// as a whole, so it has no location in it.
    Io,
}

impl ErrorKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorKind::Race => "race",
            ErrorKind::Divergence => "divergence",
            ErrorKind::Assertion => "assertion",
            ErrorKind::Precondition => "precondition",
            ErrorKind::Postcondition => "postcondition",
            ErrorKind::InvariantEntry => "invariant-entry",
            ErrorKind::InvariantMaintained => "invariant-maintained",
            ErrorKind::BarrierInvariant => "barrier-invariant",
            ErrorKind::Termination => "termination",
            ErrorKind::Timeout => "timeout",
            ErrorKind::Syntax => "syntax",
            ErrorKind::Type => "type",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Io => "io",
        }
    }

    /// Input errors (exit status 2) as opposed to verification results.
    pub fn is_input_error(self) -> bool {
        matches!(self, ErrorKind::Syntax | ErrorKind::Type | ErrorKind::Unsupported | ErrorKind::Io)
    }

    /// Whether diagnostics of this kind point into the source. An I/O error has no source to
    /// point into: it is shown without a code frame and with no JSON locations.
    pub fn is_located(self) -> bool {
        self != ErrorKind::Io
    }
}

/// A labelled source range.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// Serializable whole (for `kivl verify --cache`), apart from the JSON of docs/kbpl.md §8.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Diagnostic {
    pub kind: ErrorKind,
    pub message: String,
    /// The primary location, with its label.
    pub primary: Label,
    /// Related locations (the violated `requires`, the other access of a race, …).
    pub related: Vec<Label>,
    /// Free-text notes printed after the source excerpt (a trace, a hint).
    pub notes: Vec<String>,
    /// Named values attached to the error, label -> value: the solver's counterexample values
    /// of the expressions an assertion asks for with `{:capture "label", e}` (see
    /// `vcgen::wp`), and what later passes add (kernel thread ids, replay outcome).
    pub values: Vec<(String, String)>,
}

impl Diagnostic {
    pub fn new(kind: ErrorKind, message: impl Into<String>, span: Span) -> Diagnostic {
        let message = message.into();
        Diagnostic {
            kind,
            primary: Label { span, message: String::new() },
            message,
            related: Vec::new(),
            notes: Vec::new(),
            values: Vec::new(),
        }
    }
    pub fn syntax(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(ErrorKind::Syntax, message, span)
    }
    pub fn type_error(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(ErrorKind::Type, message, span)
    }
    pub fn unsupported(message: impl Into<String>, span: Span) -> Diagnostic {
        Diagnostic::new(ErrorKind::Unsupported, message, span)
    }
    /// A file that could not be read; `what` is the reason (the operating system's message).
    pub fn io(path: &str, what: impl std::fmt::Display) -> Diagnostic {
        Diagnostic::new(ErrorKind::Io, format!("cannot read {path}: {what}"), Span::DUMMY)
    }
    /// Sets the label of the primary location.
    pub fn with_label(mut self, label: impl Into<String>) -> Diagnostic {
        self.primary.message = label.into();
        self
    }
    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related.push(Label { span, message: label.into() });
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
    /// Moves every span `by` bytes (used when a declaration parsed on its own is placed back
    /// into its file).
    pub fn shifted(mut self, by: u32) -> Diagnostic {
        self.primary.span = self.primary.span.shifted(by);
        for r in &mut self.related {
            r.span = r.span.shifted(by);
        }
        self
    }
}

/// A source text with its name and a line index, for rendering and for line/column lookups.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    /// Byte offsets where lines start; built on the first lookup (a file without diagnostics
    /// never needs it, and a 4 MB file takes a millisecond to index).
    line_starts: std::sync::OnceLock<Vec<u32>>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile { name: name.into(), text: text.into(), line_starts: std::sync::OnceLock::new() }
    }

    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0u32];
            starts.extend(self.text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i as u32 + 1));
            starts
        })
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = offset.min(self.text.len() as u32);
        let line_starts = self.line_starts();
        let line = match line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = line_starts[line] as usize;
        let mut end = offset as usize;
        while !self.text.is_char_boundary(end) {
            end -= 1;
        }
        let column = self.text[start..end].chars().count() + 1;
        (line + 1, column)
    }

    /// The text under a span (clamped to the file).
    pub fn snippet(&self, span: Span) -> &str {
        &self.text[self.byte_range(span)]
    }

    /// A span as a byte range that can index the text: clamped to the file, its end not before
    /// its start, and widened to whole characters (the start moves back, the end forward, to
    /// the nearest character boundary). Spans come from many passes, some computed on other
    /// texts (a declaration parsed alone, a lossy decoding); slicing or rendering with one must
    /// never panic.
    pub fn byte_range(&self, span: Span) -> std::ops::Range<usize> {
        let len = self.text.len();
        let mut s = (span.start as usize).min(len);
        let mut e = (span.end as usize).min(len).max(s);
        while !self.text.is_char_boundary(s) {
            s -= 1;
        }
        while !self.text.is_char_boundary(e) {
            e += 1;
        }
        s..e
    }
}

/// A location in the JSON of docs/kbpl.md §8.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct JsonLocation {
    pub line: usize,
    pub column: usize,
    pub label: String,
}

/// An error in the JSON of docs/kbpl.md §8.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct JsonError {
    pub kind: ErrorKind,
    pub message: String,
    pub locations: Vec<JsonLocation>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn to_json(&self, file: &SourceFile) -> JsonError {
        let loc = |l: &Label| {
            let (line, column) = file.line_col(l.span.start);
            JsonLocation { line, column, label: l.message.clone() }
        };
        let mut locations = Vec::new();
        if self.kind.is_located() {
            locations.push(loc(&self.primary));
            locations.extend(self.related.iter().map(loc));
        }
        JsonError { kind: self.kind, message: self.message.clone(), locations, notes: self.notes.clone() }
    }

    /// Renders with ariadne: file, line, column, the offending text underlined, labels. Spans
    /// go through [`SourceFile::byte_range`], since ariadne panics on a range that cuts a
    /// character. A diagnostic without a location (an I/O error) is one line, with no code
    /// frame around an empty excerpt.
    pub fn render(&self, file: &SourceFile, color: bool) -> String {
        use ariadne::{Color, Config, IndexType, Label as ALabel, Report, ReportKind, Source};
        if !self.kind.is_located() {
            let mut out = format!("[{}] Error: {}\n", self.kind.as_str(), self.message);
            for n in &self.notes {
                out.push_str(&format!("  note: {n}\n"));
            }
            return out;
        }
        let id = file.name.as_str();
        let clamp = |s: Span| file.byte_range(s);
        let mut report = Report::build(ReportKind::Error, (id, clamp(self.primary.span)))
            .with_config(Config::default().with_index_type(IndexType::Byte).with_color(color))
            .with_code(self.kind.as_str())
            .with_message(&self.message);
        let primary_label =
            if self.primary.message.is_empty() { self.message.clone() } else { self.primary.message.clone() };
        report = report
            .with_label(ALabel::new((id, clamp(self.primary.span))).with_message(primary_label).with_color(Color::Red));
        for r in &self.related {
            report =
                report.with_label(ALabel::new((id, clamp(r.span))).with_message(&r.message).with_color(Color::Blue));
        }
        for n in &self.notes {
            report = report.with_note(n);
        }
        let mut out = Vec::new();
        let _ = report.finish().write((id, Source::from(file.text.as_str())), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every span, inside the text or past its end, in order or reversed, renders and converts
    /// to JSON without panicking: multi-byte characters (the replacement character of a lossy
    /// decoding among them), `\r\n` and the other line breaks ariadne knows, no final newline.
    #[test]
    fn no_span_makes_rendering_panic() {
        let file = SourceFile::new("t.bpl", "a\u{e9}b\r\n// caf\u{fffd}\n\u{2028}x\u{b}y\u{1f600}");
        let len = file.text.len() as u32;
        for start in 0..=len + 2 {
            for end in 0..=len + 2 {
                let d = Diagnostic::syntax("m", Span::new(start as usize, end as usize))
                    .with_related(Span::new(end as usize, start as usize), "r");
                assert!(d.render(&file, false).contains("[syntax] Error: m"), "{start}..{end}");
                let j = d.to_json(&file);
                assert_eq!(j.locations.len(), 2);
            }
        }
    }

    #[test]
    fn an_io_error_has_no_code_frame_and_no_location() {
        let d = Diagnostic::io("missing.bpl", "No such file or directory");
        let file = SourceFile::new("missing.bpl", "");
        assert_eq!(d.render(&file, false), "[io] Error: cannot read missing.bpl: No such file or directory\n");
        let j = d.to_json(&file);
        assert_eq!((j.kind, j.locations.len()), (ErrorKind::Io, 0));
    }
}
