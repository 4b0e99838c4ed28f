//! The `.kbpl` parser: Boogie 2 (Leino, "This is Boogie 2"; Boogie 2.4.1's grammar) plus the
//! GPU extensions of docs/kbpl.md §3.3 (`barrier` with barrier invariants) and the lock-step
//! vector statements of seed 000 §4.2 (`vec ...`).
//!
//! Design:
//! - [`crate::split`] cuts the file into declarations; each is lexed ([`crate::lexer`]) and
//!   parsed on its own, so that a syntax error spoils only its declaration and the salsa
//!   database can re-parse one declaration after an edit.
//! - The grammar ([`grammar`]) is written with chumsky over a token vector. It is built once
//!   per thread and per error type: a fast instance with chumsky's zero-sized `EmptyErr`
//!   parses, and only when it fails does a second instance with `Rich` errors parse the same
//!   tokens again to explain why. Correct input never pays for error bookkeeping.
//! - Nesting is bounded (see [`MAX_NESTING`], [`MAX_EXPR_DEPTH`]): deeper input gets a
//!   diagnostic instead of a stack overflow, in the parser and in every later recursive pass.

mod grammar;
mod pieces;

use crate::ast::{Decl, Expr, Program, Span, Stmt, Type};
use crate::diag::{Diagnostic, ErrorKind};
use crate::lexer::{lex, Lexed, Tok};
use chumsky::error::{EmptyErr, Rich, RichPattern, RichReason};
use chumsky::input::{Checkpoint, Cursor, ExactSizeInput, Input, ValueInput};
use chumsky::inspector::Inspector;
use chumsky::span::SimpleSpan;
use chumsky::Parser;
use smol_str::SmolStr;
use std::ops::{Range, RangeFrom};
use std::rc::Rc;

/// The deepest nesting of brackets, statements, types and `if`-expressions the parser enters
/// (the GPU corpus nests brackets up to 268 deep).
pub const MAX_NESTING: u32 = 1000;
/// The deepest expression tree the parser builds; long operator chains nest too (the GPU
/// corpus has expressions 1159 deep, in `sha1_overlap.bpl`). Later passes that recurse over
/// expressions must cope with this depth.
pub const MAX_EXPR_DEPTH: u32 = 5000;

/// Parses a whole file. Spans are absolute byte offsets. Declarations with errors are left out
/// of the program; each gets at least one diagnostic, and parsing goes on with the next one.
///
/// The file is lexed once and cut at the token level by the same rule as
/// [`crate::split::split_decls`], so the result equals parsing each chunk with
/// [`parse_decls_at`].
pub fn parse_program(text: &str) -> (Program, Vec<Diagnostic>) {
    let Lexed { toks, spans, names, errors, end } = lex(text, 0);
    let starts = chunk_starts(&toks);
    let _ = end;
    let data = Rc::new(TokData { toks, spans });
    let names = Rc::new(names);
    let mut decls = Vec::new();
    let mut diags = Vec::new();
    let mut lex_errors = errors.into_iter().peekable();
    // Lexer errors before the first token belong to no declaration.
    let first = starts.first().map_or(u32::MAX, |&i| data.spans[i].start);
    while let Some(e) = lex_errors.next_if(|e| e.primary.span.start < first) {
        diags.push(e);
    }
    for (k, &lo) in starts.iter().enumerate() {
        let hi = starts.get(k + 1).copied().unwrap_or(data.toks.len());
        // Lexer errors inside this declaration (up to the next one) spoil it.
        let limit = if hi < data.toks.len() { data.spans[hi].start } else { u32::MAX };
        let mut spoiled = false;
        while let Some(e) = lex_errors.next_if(|e| e.primary.span.start < limit) {
            diags.push(e);
            spoiled = true;
        }
        if spoiled {
            continue;
        }
        let input = chunk_input(&data, lo, hi);
        let (d, ds) = run_input(text, 0, input, names.clone(), Which::Decl, pick_decl);
        decls.extend(d.into_iter().flatten());
        diags.extend(ds);
    }
    diags.extend(lex_errors);
    (Program { decls }, diags)
}

/// One declaration as the fast grammar instance and the rich one parsed it.
#[doc(hidden)]
pub type BothInstances = (Option<Vec<Decl>>, Option<Vec<Decl>>);

/// Test support: each declaration of `text` (cut as in [`parse_program`]) parsed by the fast
/// grammar instance and by the rich one; each result is `None` unless that instance parsed it
/// without any error. The fast expression path must make the two agree on every input.
#[doc(hidden)]
pub fn parse_decls_both_instances(text: &str) -> Vec<BothInstances> {
    let Lexed { toks, spans, names, .. } = lex(text, 0);
    let starts = chunk_starts(&toks);
    let data = Rc::new(TokData { toks, spans });
    let names = Rc::new(names);
    (0..starts.len())
        .map(|k| {
            let input = chunk_input(&data, starts[k], starts.get(k + 1).copied().unwrap_or(data.toks.len()));
            let fast = FAST.with(|g| parse_clean(g, input.clone(), names.clone(), Which::Decl));
            let rich = RICH.with(|g| parse_clean(g, input, names.clone(), Which::Decl));
            (fast.and_then(pick_decl), rich.and_then(pick_decl))
        })
        .collect()
}

/// The tokens `lo..hi` of `data` as parser input (one declaration of a file).
fn chunk_input(data: &Rc<TokData>, lo: usize, hi: usize) -> TokInput {
    let eoi = data.spans[hi - 1].end as usize;
    TokInput { data: data.clone(), lo, hi, eoi }
}

/// The declaration keyword a token is, if any.
fn decl_keyword(t: &Tok) -> Option<&'static str> {
    Some(match t {
        Tok::Type => "type",
        Tok::Const => "const",
        Tok::Function => "function",
        Tok::Axiom => "axiom",
        Tok::Var => "var",
        Tok::Procedure => "procedure",
        Tok::Implementation => "implementation",
        _ => return None,
    })
}

/// Token indices where declarations start (the rule of [`crate::split`]).
fn chunk_starts(toks: &[Tok]) -> Vec<usize> {
    let mut starts = Vec::new();
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate() {
        match t {
            Tok::LBrace => depth += 1,
            Tok::RBrace => depth = depth.saturating_sub(1),
            _ => {
                if let Some(keyword) = decl_keyword(t) {
                    let let_expr = *t == Tok::Var && i > 0 && toks[i - 1] == Tok::LParen;
                    if !let_expr && crate::split::starts_declaration(keyword, depth) {
                        starts.push(i);
                        depth = 0;
                    }
                }
            }
        }
        if i == 0 && starts.is_empty() {
            // Leading text that starts no declaration.
            starts.push(0);
        }
    }
    starts
}

fn pick_decl(o: Out) -> Option<Vec<Decl>> {
    match o {
        Out::Decl(d) => Some(d),
        _ => None,
    }
}

/// Parses one declaration (the text of one [`crate::split::Chunk`]); spans are relative to the
/// start of `text`. A `type A, B;` declaration, which declares several types, is reported as
/// unsupported here: use [`parse_decls`] for chunks.
pub fn parse_decl(text: &str) -> (Option<Decl>, Vec<Diagnostic>) {
    let (mut ds, diags) = parse_decls(text);
    match ds.len() {
        0 | 1 => (ds.pop(), diags),
        _ => {
            let d = Diagnostic::unsupported(
                "this `type` declaration declares several types; write one declaration per type",
                ds[0].span,
            );
            (None, vec![d])
        }
    }
}

/// Parses the text of one [`crate::split::Chunk`] into its declarations: exactly one, except
/// for `type A, B;`, which gives one per type (all with the chunk's span). Spans are relative
/// to the start of `text`.
pub fn parse_decls(text: &str) -> (Vec<Decl>, Vec<Diagnostic>) {
    parse_decls_at(text, 0)
}

/// [`parse_decls`] for a chunk whose text starts at absolute offset `base` of its file.
pub fn parse_decls_at(text: &str, base: u32) -> (Vec<Decl>, Vec<Diagnostic>) {
    if text.len() >= pieces::PARALLEL_MIN_BYTES {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        if let Some(d) = pieces::parse_in_pieces(text, base, threads) {
            return (vec![d], Vec::new());
        }
    }
    let (d, diags) = run(text, base, Which::Decl, pick_decl);
    (d.unwrap_or_default(), diags)
}

/// Parses an expression (for tests and tools).
pub fn parse_expr(text: &str) -> Result<Expr, Vec<Diagnostic>> {
    match run(text, 0, Which::Expr, |o| match o {
        Out::Expr(e) => Some(e),
        _ => None,
    }) {
        (Some(e), d) if d.is_empty() => Ok(e),
        (_, d) => Err(d),
    }
}

/// Parses a type (for tests and tools).
pub fn parse_type(text: &str) -> Result<Type, Vec<Diagnostic>> {
    match run(text, 0, Which::Type, |o| match o {
        Out::Type(t) => Some(t),
        _ => None,
    }) {
        (Some(t), d) if d.is_empty() => Ok(t),
        (_, d) => Err(d),
    }
}

// ---------------------------------------------------------------------------------------------
// The token input
// ---------------------------------------------------------------------------------------------

/// Tokens and their spans, shared by the fast and the explaining parse.
pub(crate) struct TokData {
    toks: Vec<Tok>,
    spans: Vec<Span>,
}

/// The chumsky input: a range `lo..hi` of a reference-counted token vector, so that parsers
/// need no borrowed lifetime and can be built once per thread, and all declarations of a file
/// share one token vector.
#[derive(Clone)]
pub(crate) struct TokInput {
    data: Rc<TokData>,
    lo: usize,
    hi: usize,
    eoi: usize,
}

/// The input's data while parsing.
pub(crate) struct TokCache {
    data: Rc<TokData>,
    hi: usize,
    eoi: usize,
}

pub(crate) type SS = SimpleSpan<usize>;

impl<'src> Input<'src> for TokInput {
    type Span = SS;
    type Token = Tok;
    type MaybeToken = Tok;
    type Cursor = usize;
    type Cache = TokCache;

    fn begin(self) -> (usize, TokCache) {
        (self.lo, TokCache { data: self.data, hi: self.hi, eoi: self.eoi })
    }

    #[inline]
    fn cursor_location(cursor: &usize) -> usize {
        *cursor
    }

    #[inline]
    unsafe fn next_maybe(cache: &mut TokCache, cursor: &mut usize) -> Option<Tok> {
        next_tok(cache, cursor)
    }

    #[inline]
    unsafe fn span(cache: &mut TokCache, range: Range<&usize>) -> SS {
        span_of(cache, *range.start, *range.end)
    }
}

impl<'src> ValueInput<'src> for TokInput {
    #[inline]
    unsafe fn next(cache: &mut TokCache, cursor: &mut usize) -> Option<Tok> {
        next_tok(cache, cursor)
    }
}

impl<'src> ExactSizeInput<'src> for TokInput {
    #[inline]
    unsafe fn span_from(cache: &mut TokCache, range: RangeFrom<&usize>) -> SS {
        span_of(cache, *range.start, cache.hi)
    }
}

#[inline]
fn next_tok(c: &TokCache, cursor: &mut usize) -> Option<Tok> {
    if *cursor < c.hi {
        let t = c.data.toks[*cursor];
        *cursor += 1;
        Some(t)
    } else {
        None
    }
}

#[inline]
fn span_of(c: &TokCache, start: usize, end: usize) -> SS {
    let spans = &c.data.spans;
    if end > start && end <= c.hi {
        (spans[start].start as usize..spans[end - 1].end as usize).into()
    } else {
        let p = if start < c.hi { spans[start].start as usize } else { c.eoi };
        (p..p).into()
    }
}

pub(crate) fn sp(s: SS) -> Span {
    Span::new(s.start, s.end)
}

// ---------------------------------------------------------------------------------------------
// Parser state and errors
// ---------------------------------------------------------------------------------------------

/// Parser state: the texts that tokens index, and the current nesting depth (restored when
/// the parser backtracks).
pub(crate) struct PState {
    pub(crate) names: Rc<Vec<SmolStr>>,
    pub(crate) depth: u32,
}

impl<'src> Inspector<'src, TokInput> for PState {
    type Checkpoint = u32;
    #[inline(always)]
    fn on_token(&mut self, _: &Tok) {}
    #[inline(always)]
    fn on_save<'parse>(&self, _: &Cursor<'src, 'parse, TokInput>) -> u32 {
        self.depth
    }
    #[inline(always)]
    fn on_rewind<'parse>(&mut self, cp: &Checkpoint<'src, 'parse, TokInput, u32>) {
        self.depth = *cp.inspector();
    }
}

/// The message of an error the grammar raises itself (unsupported constructs, bad nesting).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CustomMsg {
    pub(crate) kind: ErrorKind,
    pub(crate) msg: String,
}

pub(crate) type RichErr = Rich<'static, Tok, SS, CustomMsg>;

/// The error types the grammar is instantiated with.
pub(crate) trait PErr:
    chumsky::error::Error<'static, TokInput> + chumsky::label::LabelError<'static, TokInput, &'static str> + 'static
{
    fn custom(span: SS, kind: ErrorKind, msg: &str) -> Self;
    /// Whether the grammar uses the hand-written expression fast path (only the `EmptyErr`
    /// instance does; the `Rich` one keeps the declarative combinators for its messages).
    const FAST_PATH: bool = false;
}

impl PErr for EmptyErr {
    const FAST_PATH: bool = true;
    #[inline]
    fn custom(_: SS, _: ErrorKind, _: &str) -> Self {
        EmptyErr::default()
    }
}

impl PErr for RichErr {
    fn custom(span: SS, kind: ErrorKind, msg: &str) -> Self {
        Rich::custom(span, CustomMsg { kind, msg: msg.to_string() })
    }
}

// ---------------------------------------------------------------------------------------------
// Running the grammar
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy)]
enum Which {
    Decl,
    Expr,
    Type,
    /// A run of statements (a piece of a body, see [`pieces`]).
    Stmts,
}

enum Out {
    Decl(Vec<Decl>),
    Expr(Expr),
    Type(Type),
    Stmts(Vec<Stmt>),
}

thread_local! {
    static FAST: grammar::Grammar<EmptyErr> = grammar::build();
    static RICH: grammar::Grammar<RichErr> = grammar::build();
}

fn parse_with<E: PErr>(
    g: &grammar::Grammar<E>,
    which: Which,
    input: TokInput,
    state: &mut PState,
) -> (Option<Out>, Vec<E>) {
    state.depth = 0;
    match which {
        Which::Decl => {
            let (o, e) = g.decl.parse_with_state(input, state).into_output_errors();
            (o.map(Out::Decl), e)
        }
        Which::Expr => {
            let (o, e) = g.expr.parse_with_state(input, state).into_output_errors();
            (o.map(Out::Expr), e)
        }
        Which::Type => {
            let (o, e) = g.ty.parse_with_state(input, state).into_output_errors();
            (o.map(Out::Type), e)
        }
        Which::Stmts => {
            let (o, e) = g.stmts.parse_with_state(input, state).into_output_errors();
            (o.map(Out::Stmts), e)
        }
    }
}

/// Parses `input` with the fast grammar only: `None` on any error.
fn run_fast(input: TokInput, names: Rc<Vec<SmolStr>>, which: Which) -> Option<Out> {
    FAST.with(|g| parse_clean(g, input, names, which))
}

/// Parses `input` with grammar instance `g`: `None` on any error.
fn parse_clean<E: PErr>(
    g: &grammar::Grammar<E>,
    input: TokInput,
    names: Rc<Vec<SmolStr>>,
    which: Which,
) -> Option<Out> {
    let mut state = PState { names, depth: 0 };
    let (out, errs) = parse_with(g, which, input, &mut state);
    if errs.is_empty() {
        out
    } else {
        None
    }
}

fn run<O>(text: &str, base: u32, which: Which, pick: impl Fn(Out) -> Option<O>) -> (Option<O>, Vec<Diagnostic>) {
    let Lexed { toks, spans, names, errors, end } = lex(text, base);
    if !errors.is_empty() {
        return (None, errors);
    }
    let eoi = spans.last().map_or(end, |s| s.end) as usize;
    let hi = toks.len();
    let input = TokInput { data: Rc::new(TokData { toks, spans }), lo: 0, hi, eoi };
    run_input(text, base, input, Rc::new(names), which, pick)
}

/// Parses `input` (tokens of `text`, which starts at offset `base`) fast, and again with rich
/// errors when that fails.
fn run_input<O>(
    text: &str,
    base: u32,
    input: TokInput,
    names: Rc<Vec<SmolStr>>,
    which: Which,
    pick: impl Fn(Out) -> Option<O>,
) -> (Option<O>, Vec<Diagnostic>) {
    let mut state = PState { names, depth: 0 };
    let (out, errs) = FAST.with(|g| parse_with(g, which, input.clone(), &mut state));
    if errs.is_empty() {
        if let Some(o) = out.and_then(&pick) {
            return (Some(o), Vec::new());
        }
    }
    // Parse again to explain the failure.
    let (_, errs) = RICH.with(|g| parse_with(g, which, input.clone(), &mut state));
    let mut diags: Vec<Diagnostic> = errs.iter().map(|e| to_diagnostic(e, text, base)).collect();
    diags.dedup();
    if diags.is_empty() {
        let at = input.data.spans.get(input.lo).copied().unwrap_or(Span::new(input.eoi, input.eoi));
        diags.push(Diagnostic::syntax("syntax error", at));
    }
    (None, diags)
}

fn to_diagnostic(e: &RichErr, text: &str, base: u32) -> Diagnostic {
    let span = sp(*e.span());
    match e.reason() {
        RichReason::Custom(c) => Diagnostic::new(c.kind, c.msg.clone(), span),
        RichReason::ExpectedFound { expected, found } => {
            let found_text = match found {
                None => "end of input".to_string(),
                Some(_) => {
                    let s = text.get((span.start - base) as usize..(span.end - base) as usize).unwrap_or("?");
                    let s: String = if s.chars().count() > 40 {
                        s.chars().take(37).chain("...".chars()).collect()
                    } else {
                        s.into()
                    };
                    format!("`{s}`")
                }
            };
            let mut items: Vec<String> = Vec::new();
            for p in expected {
                let item = match p {
                    RichPattern::Token(t) => match t.text() {
                        Some(s) => format!("`{s}`"),
                        None => continue,
                    },
                    RichPattern::Label(l) => l.to_string(),
                    RichPattern::Identifier(s) => format!("`{s}`"),
                    RichPattern::EndOfInput => "end of input".to_string(),
                    RichPattern::Any => "any token".to_string(),
                    _ => continue,
                };
                if !items.contains(&item) {
                    items.push(item);
                }
            }
            let msg = match items.len() {
                0 => format!("unexpected {found_text}"),
                1 => format!("expected {}, found {found_text}", items[0]),
                n => format!("expected {} or {}, found {found_text}", items[..n - 1].join(", "), items[n - 1]),
            };
            Diagnostic::syntax(msg, span)
        }
    }
}
