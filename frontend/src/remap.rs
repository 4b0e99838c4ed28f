//! Spans of the parsed `.kbpl` moved onto the kernel file: a span's start line in the
//! generated text gives the source location recorded for that line.

use crate::{span_at, Translation};
use ivl::ast::Span;
use ivl::diag::Diagnostic;
use ivl::visit::{Node, VisitMut};

/// Maps spans of the generated text to spans of the kernel text.
pub struct SpanMap<'a> {
    line_starts: Vec<usize>,
    tr: &'a Translation,
    kernel_text: &'a str,
}

impl<'a> SpanMap<'a> {
    pub fn new(tr: &'a Translation, kernel_text: &'a str) -> SpanMap<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(tr.kbpl.match_indices('\n').map(|(i, _)| i + 1));
        SpanMap { line_starts, tr, kernel_text }
    }

    pub fn map(&self, s: Span) -> Span {
        let line = self.line_starts.partition_point(|&st| st <= s.start as usize).saturating_sub(1);
        let loc = self.tr.origins.get(line).copied().flatten().unwrap_or(self.tr.fallback);
        span_at(self.kernel_text, loc)
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
