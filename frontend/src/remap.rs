//! Spans of the parsed `.kbpl` moved onto the kernel file: a span's start line in the
//! generated text gives the source location recorded for that line.

use crate::{span_at_line_start, Loc, Translation};
use ivl::ast::Span;
use ivl::diag::Diagnostic;
use ivl::visit::{Node, VisitMut};

/// Maps spans of the generated text to spans of the kernel text.
pub struct SpanMap<'a> {
    line_starts: Vec<usize>,
    tr: &'a Translation,
    kernel_text: &'a str,
    /// Where each line of the kernel text starts (line 1 first).
    kernel_lines: Vec<usize>,
    /// The span of each location mapped so far: many spans of the generated text come from
    /// one source location, and finding its span reads the source line.
    spans: std::cell::RefCell<std::collections::HashMap<Loc, Span>>,
}

impl<'a> SpanMap<'a> {
    pub fn new(tr: &'a Translation, kernel_text: &'a str) -> SpanMap<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(tr.kbpl.match_indices('\n').map(|(i, _)| i + 1));
        let mut kernel_lines = vec![0];
        kernel_lines.extend(kernel_text.match_indices('\n').map(|(i, _)| i + 1));
        SpanMap { line_starts, tr, kernel_text, kernel_lines, spans: Default::default() }
    }

    pub fn map(&self, s: Span) -> Span {
        let line = self.line_starts.partition_point(|&st| st <= s.start as usize).saturating_sub(1);
        let loc = self.tr.origins.get(line).copied().flatten().unwrap_or(self.tr.fallback);
        *self.spans.borrow_mut().entry(loc).or_insert_with(|| {
            let start = self.kernel_lines.get(loc.line.max(1) as usize - 1).copied();
            span_at_line_start(self.kernel_text, start, loc)
        })
    }

    pub fn map_diagnostic(&self, mut d: Diagnostic) -> Diagnostic {
        d.primary.span = self.map(d.primary.span);
        for r in &mut d.related {
            r.span = self.map(r.span);
        }
        d
    }
}

struct Remap<'m, 'a>(&'m SpanMap<'a>);

impl VisitMut for Remap<'_, '_> {
    fn visit_span(&mut self, s: &mut Span) {
        *s = self.0.map(*s);
    }
}

/// Moves every span of `node` (parsed from the generated text) onto the kernel file.
pub fn remap_spans<T: Node + ?Sized>(node: &mut T, map: &SpanMap) {
    node.accept_mut(&mut Remap(map));
}
