//! Parallel parsing of one very large declaration.
//!
//! GPUVerify emits kernels whose whole text is one implementation (`sha1.bpl`: 3.6 MB in one
//! body), so cutting the file into declarations ([`crate::split`]) gives no parallelism. This
//! module cuts the *body* of such a declaration into pieces at statement labels, lexes and
//! parses the pieces on several threads, and glues the statement lists together:
//!
//! - piece 0 is the text up to the first cut, parsed as the whole declaration after a
//!   synthetic `}` (whose span is that of the real closing brace, so every span comes out as
//!   in a sequential parse);
//! - every later piece is a run of statements, parsed with the grammar's statement-list entry;
//!   the last one stops before the closing brace.
//!
//! A cut is only placed at the body's top level (outside brackets and parentheses) before a
//! word right after a `;` (except `invariant`, `free`, `var` and `else`, which may continue what
//! comes before), or before a label `L:` right after a `}`. The body's statements are a sequence
//! (`stmt*`), and a statement ended by `;` or followed by a label cannot extend further, so when
//! every piece parses, the concatenation parses to the same tree. When anything goes wrong (a lexer error, a piece that does not parse, a body the
//! scan does not understand), the caller parses the declaration sequentially, which also
//! produces the diagnostics: correct input gets the speed-up, wrong input the usual messages.

use super::{run_fast, TokData, TokInput, Which};
use crate::ast::{Decl, DeclKind, Span, Stmt};
use crate::lexer::{is_ident_cont, is_ident_start, lex, number_end, skip_blank_or_line_comment, skip_block_comment, skip_string, Tok};
use std::rc::Rc;

/// Declarations shorter than this are parsed on one thread.
pub(crate) const PARALLEL_MIN_BYTES: usize = 256 * 1024;
/// Pieces are at least this long (thread start-up and grammar construction cost ~0.3 ms).
const MIN_PIECE_BYTES: usize = 128 * 1024;

/// Where the body of the declaration in `b` may be cut: candidate cut offsets (statement labels
/// at the body's top level) and the offset of the body's closing brace, the last token.
fn body_cuts(b: &[u8]) -> Option<(Vec<usize>, usize)> {
    let mut brace = 0usize;
    let mut nest = 0usize;
    let mut in_body = false;
    let mut last = 0u8;
    let mut cuts = Vec::new();
    let mut close = None;
    let mut i = 0usize;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if close.is_some() && !c.is_ascii_whitespace() && c != b'/' {
            return None; // text after the body's closing brace
        }
        if let Some(j) = skip_blank_or_line_comment(b, i) {
            i = j;
            continue;
        }
        match c {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = skip_block_comment(b, i)?;
                continue;
            }
            _ if close.is_some() => return None,
            b'"' => i = skip_string(b, i).ok()?,
            b'0'..=b'9' => i = number_end(b, i),
            _ if is_ident_start(c) || (c == b'\\' && b.get(i + 1).is_some_and(|&x| is_ident_start(x))) => {
                i += 1;
                while i < b.len() && is_ident_cont(b[i]) {
                    i += 1;
                }
                if in_body && brace == 1 && nest == 0 {
                    let after_semi = last == b';' && !CONTINUES.contains(&&b[start..i]);
                    if after_semi || (last == b'}' && is_label_colon(b, i)) {
                        cuts.push(start);
                    }
                }
            }
            b'{' => {
                if !in_body && brace == 0 && nest == 0 && next_non_blank(b, i + 1) != Some(b':') {
                    in_body = true;
                }
                brace += 1;
                i += 1;
            }
            b'}' => {
                brace = brace.checked_sub(1)?;
                if in_body && brace == 0 {
                    close = Some(i);
                }
                i += 1;
            }
            b'(' | b'[' => {
                nest += 1;
                i += 1;
            }
            b')' | b']' => {
                nest = nest.checked_sub(1)?;
                i += 1;
            }
            _ => i += 1,
        }
        last = c;
    }
    Some((cuts, close?))
}

/// Words that continue the declaration part before them after a `;`: more loop or barrier
/// invariants, more local variables, an `else`. No cut before them.
const CONTINUES: [&[u8]; 4] = [b"invariant", b"free", b"var", b"else"];

fn next_non_blank(b: &[u8], mut i: usize) -> Option<u8> {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    b.get(i).copied()
}

/// Whether an identifier ending at `i` is followed by the `:` of a label (not `:=` or `::`).
fn is_label_colon(b: &[u8], i: usize) -> bool {
    let mut j = i;
    while j < b.len() && matches!(b[j], b' ' | b'\t') {
        j += 1;
    }
    b.get(j) == Some(&b':') && !matches!(b.get(j + 1), Some(b'=') | Some(b':'))
}

/// Picks up to `n - 1` cuts that split `len` bytes into `n` roughly equal pieces.
fn choose(cuts: &[usize], len: usize, n: usize) -> Vec<usize> {
    let mut out: Vec<usize> = Vec::new();
    for k in 1..n {
        let target = len * k / n;
        let j = cuts.partition_point(|&c| c < target);
        let best = [j.checked_sub(1), Some(j)]
            .into_iter()
            .flatten()
            .filter_map(|j| cuts.get(j).copied())
            .min_by_key(|&c| c.abs_diff(target));
        if let Some(c) = best {
            let prev = out.last().copied().unwrap_or(0);
            if c >= prev + MIN_PIECE_BYTES && len - c >= MIN_PIECE_BYTES {
                out.push(c);
            }
        }
    }
    out
}

/// The output of one piece.
enum Piece {
    Head(Decl),
    Stmts(Vec<Stmt>),
}

/// Lexes and parses one piece; `None` on any error.
fn parse_piece(text: &str, base: u32, lo: usize, hi: usize, close: Option<Span>) -> Option<Piece> {
    let mut lexed = lex(&text[lo..hi], base + lo as u32);
    if !lexed.errors.is_empty() {
        return None;
    }
    if let Some(span) = close {
        lexed.toks.push(Tok::RBrace);
        lexed.spans.push(span);
    }
    let eoi = lexed.spans.last().map_or(lexed.end, |s| s.end) as usize;
    let hi = lexed.toks.len();
    let input = TokInput {
        data: Rc::new(TokData {
            toks: lexed.toks,
            spans: lexed.spans,
        }),
        lo: 0,
        hi,
        eoi,
    };
    let which = if close.is_some() {
        Which::Decl
    } else {
        Which::Stmts
    };
    match run_fast(input, Rc::new(lexed.names), which)? {
        super::Out::Decl(mut ds) if ds.len() == 1 => Some(Piece::Head(ds.pop()?)),
        super::Out::Stmts(ss) => Some(Piece::Stmts(ss)),
        _ => None,
    }
}

/// Parses a large procedure or implementation (text starting at offset `base`) in pieces on
/// up to `threads` threads. `None` when the declaration is small, cannot be cut, or any piece
/// fails: then parse it sequentially.
pub(crate) fn parse_in_pieces(text: &str, base: u32, threads: usize) -> Option<Decl> {
    if threads < 2 || text.len() < PARALLEL_MIN_BYTES {
        return None;
    }
    let (cuts, close) = body_cuts(text.as_bytes())?;
    let cuts = choose(&cuts, text.len(), threads);
    if cuts.is_empty() {
        return None;
    }
    let close_span = Span::new(base as usize + close, base as usize + close + 1);
    let mut bounds = vec![0];
    bounds.extend(&cuts);
    bounds.push(close);
    let results: Vec<Option<Piece>> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..bounds.len() - 1)
            .map(|k| {
                let (lo, hi) = (bounds[k], bounds[k + 1]);
                // A deep stack, like the main thread's: expressions nest thousands deep.
                std::thread::Builder::new()
                    .stack_size(256 << 20)
                    .spawn_scoped(s, move || parse_piece(text, base, lo, hi, None))
                    .ok()
            })
            .collect();
        let head = parse_piece(text, base, 0, bounds[1], Some(close_span));
        let mut out = vec![head];
        out.extend(
            handles
                .into_iter()
                .map(|h| h.and_then(|h| h.join().ok()).flatten()),
        );
        out
    });
    let mut results = results.into_iter();
    let Some(Some(Piece::Head(mut decl))) = results.next() else {
        return None;
    };
    let body = match &mut decl.kind {
        DeclKind::Implementation(i) => &mut i.body,
        DeclKind::Procedure(p) => p.body.as_mut()?,
        _ => return None,
    };
    for r in results {
        match r {
            Some(Piece::Stmts(ss)) => body.stmts.extend(ss),
            _ => return None,
        }
    }
    Some(decl)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_at_top_level_statement_starts_only() {
        let src = "implementation {:a} P() { var x: int; L0: x := 1; if (*) { L9: x := 2; } L1: assume {:b} x == 1; goto L0; L2: x := f(a, b); }";
        let (cuts, close) = body_cuts(src.as_bytes()).expect("a body");
        let labels: Vec<&str> = cuts.iter().map(|&c| &src[c..c + 2]).collect();
        assert_eq!(labels, ["L0", "if", "L1", "go", "L2"]);
        assert_eq!(close, src.len() - 1);
    }

    #[test]
    fn a_large_body_is_parsed_in_pieces() {
        let mut src = String::from("implementation P() {\n  var x: int;\n");
        let mut i = 0;
        while src.len() < 3 * PARALLEL_MIN_BYTES {
            src.push_str(&format!(
                "  L{i}:\n    x := x + {i};\n    if (x > 0) {{ x := 0; }}\n    goto L{};\n",
                i + 1
            ));
            i += 1;
        }
        src.push_str(&format!("  L{i}:\n    return;\n}}"));
        let d = parse_in_pieces(&src, 7, 3).expect("cut into pieces");
        let (seq, diags) = crate::parser::parse_program(&src);
        assert!(diags.is_empty());
        let mut seq = seq.decls[0].clone();
        crate::visit::shift_spans(&mut seq, 7);
        assert_eq!(d, seq);
        assert!(parse_in_pieces(&src, 0, 1).is_none(), "one thread: no pieces");
    }

    #[test]
    fn no_body_no_cuts() {
        assert!(body_cuts(b"procedure P(); requires x > 0;").is_none());
        assert!(body_cuts(b"implementation P() { L: return; } var y: int;").is_none());
    }
}

#[cfg(test)]
mod corpus_tests {
    #[test]
    fn sha1_is_cut() {
        let Ok(text) =
            std::fs::read_to_string("/work/corpus/gpu/gpuverify/gpgpu-sim_ispass2009/STO/sha1.bpl")
        else {
            return;
        };
        let chunks = crate::split::split_decls(&text);
        let big = chunks.iter().max_by_key(|c| c.end - c.start).expect("chunks");
        let chunk = &text[big.start as usize..big.end as usize];
        let (cuts, _) = super::body_cuts(chunk.as_bytes()).expect("cuts");

        let chosen = super::choose(&cuts, chunk.len(), 2);
        assert_eq!(chosen.len(), 1);
        assert!(super::parse_in_pieces(chunk, big.start, 2).is_some());
    }
}
