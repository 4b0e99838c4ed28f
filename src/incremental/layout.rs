//! The canonical layout of a slice: its spans made independent of where its declarations sit
//! in the file, so that an edit elsewhere (which moves them) leaves the slice equal and salsa
//! backdates its verdict.
//!
//! Declaration `i` of the slice is placed at a canonical offset `BASE + c_i`, where `c_i` is
//! the total length of the slice's declarations before it; a span inside the declaration's
//! own range moves with it. `BASE` is far above any file offset, so a canonical span is told
//! apart from a span left as it was (a dummy span, or one outside its declaration's range,
//! which is kept absolute — correct, only less incremental). The verdict's spans are mapped
//! back with the layout of the current revision ([`Layout::restore`]).

use ivl::ast::{Program, Span};
use ivl::diag::Diagnostic;
use ivl::visit::{Node as _, VisitMut};
use vcgen::engine::{Outcome, ProgramResult};

/// Where canonical offsets start (files are far smaller than 2 GiB).
const BASE: u32 = 1 << 31;

/// Per declaration of a slice: its canonical start, its length, its absolute start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout(Vec<(u32, u32, u32)>);

/// `program` (absolute spans) in the canonical layout, and the layout to map spans back.
pub fn canonical(mut program: Program) -> (Program, Layout) {
    let mut layout = Vec::with_capacity(program.decls.len());
    let mut next = BASE;
    for d in &mut program.decls {
        let (start, end) = (d.span.start, d.span.end);
        let len = end.saturating_sub(start);
        let at = next;
        if start < BASE && end < BASE {
            d.accept_mut(&mut Move { start, end, at });
            layout.push((at, len, start));
        }
        next = next.saturating_add(len + 1);
    }
    (program, Layout(layout))
}

/// Moves the spans inside `[start, end]` (not the dummy one) to `at`.
struct Move {
    start: u32,
    end: u32,
    at: u32,
}

impl VisitMut for Move {
    fn visit_span(&mut self, s: &mut Span) {
        if *s != Span::DUMMY && self.start <= s.start && s.end <= self.end {
            *s = Span { start: self.at + (s.start - self.start), end: self.at + (s.end - self.start) };
        }
    }
}

impl Layout {
    /// The absolute span of a canonical one (others are returned as they are).
    pub fn restore(&self, s: Span) -> Span {
        if s.start < BASE {
            return s;
        }
        let i = self.0.partition_point(|&(at, _, _)| at <= s.start);
        match i.checked_sub(1).map(|i| self.0[i]) {
            Some((at, len, abs)) if s.start - at <= len => {
                Span { start: abs + (s.start - at), end: abs + (s.end.saturating_sub(at)).min(len) }
            }
            _ => s,
        }
    }

    fn restore_diagnostic(&self, d: &mut Diagnostic) {
        d.primary.span = self.restore(d.primary.span);
        for r in &mut d.related {
            r.span = self.restore(r.span);
        }
    }

    /// `result` with every span absolute.
    pub fn restore_result(&self, mut result: ProgramResult) -> ProgramResult {
        for imp in &mut result.impls {
            imp.span = self.restore(imp.span);
            if let Outcome::Errors(ds) = &mut imp.outcome {
                ds.iter_mut().for_each(|d| self.restore_diagnostic(d));
            }
        }
        result.errors.iter_mut().chain(result.notes.iter_mut()).for_each(|d| self.restore_diagnostic(d));
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_a_declaration_keeps_its_canonical_form() {
        let text = "procedure P() { assert true; }\n";
        let moved = format!("\n\n// a comment\n{text}");
        let parse = |t: &str| ivl::parser::parse_program(t).0;
        let (a, la) = canonical(parse(text));
        let (b, lb) = canonical(parse(&moved));
        assert_eq!(a, b, "moving a declaration changes nothing canonical");
        assert_ne!(la, lb);
        // The assertion's span maps back to where it is in each text.
        let assert_at = |t: &str| t.find("assert").unwrap() as u32;
        let canon = Span { start: BASE + 16, end: BASE + 28 };
        assert_eq!(la.restore(canon).start, assert_at(text));
        assert_eq!(lb.restore(canon).start, assert_at(&moved));
        assert_eq!(la.restore(Span::DUMMY), Span::DUMMY);
    }
}
