//! The `.kbpl` lexer: a hand-written byte scanner that turns source text into a vector of small
//! `Copy` tokens plus a parallel vector of byte spans, the input of the chumsky grammar in
//! [`crate::parser`].
//!
//! The lexical rules are Boogie 2's (`Source/Core/BoogiePL.atg`, `TOKENS`): identifiers are a
//! letter or one of `' ~ # $ ^ _ . ? \``, then letters, digits and those characters, optionally
//! after a leading `\` that escapes keywords (`\true` is the identifier `true`); `//` line
//! comments and nested `/* */` comments; `5bv32` bit-vector literals; `1.5`, `2e3`, `2.0e-3`
//! decimal literals; `"..."` strings (with `\"`); longest-match operators, and Boogie's Unicode
//! operator spellings (`⇒ ∧ ∀ •` …). The GPU keywords `barrier`, `vec`, `psi` and the unsupported
//! `yield`, `par`, `async` get tokens of their own but remain usable as identifiers (docs/kbpl.md §3).
//!
//! Tokens carry no text: identifiers and literals index [`Lexed::names`], so a token is 12 bytes
//! and cheap to copy while the grammar backtracks. The scanner never fails: an unknown character
//! becomes [`Tok::Unknown`] (the parser reports it), and unterminated comments or strings are
//! reported as diagnostics.

use crate::ast::Span;
use crate::diag::Diagnostic;
use smol_str::SmolStr;

/// A token. Payloads index [`Lexed::names`] (`Bv` also carries the width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tok {
    Ident(u32),
    /// Decimal digits of a natural number (one of 10 digits or more).
    Int(u32),
    /// A natural number below 10^9, by value.
    SmallInt(u32),
    /// A decimal literal as written (`1.5`, `2e3`).
    Real(u32),
    /// Digits of the value (10 digits or more), and the width.
    Bv(u32, u32),
    /// A bit-vector literal whose value is below 10^9: the value and the width.
    SmallBv(u32, u32),
    /// A string literal without its quotes.
    Str(u32),
    /// A floating-point literal (`0x1.8e0f24e8`, `0NaN24e8`; [`crate::floats`]).
    Float(u32),
    // Contextual keywords: special at the start of a statement, identifiers elsewhere.
    Barrier,
    Atomic,
    Vec,
    Psi,
    Yield,
    Par,
    Async,
    // Keywords.
    Assert,
    Assume,
    Axiom,
    Bool,
    Break,
    Call,
    Complete,
    Const,
    Div,
    Else,
    Ensures,
    Exists,
    Extends,
    False,
    Finite,
    Forall,
    Free,
    Function,
    Goto,
    Havoc,
    If,
    Implementation,
    Int_,
    Invariant,
    Lambda,
    Mod,
    Modifies,
    Old,
    Procedure,
    Real_,
    Requires,
    Return,
    Returns,
    Then,
    True,
    Type,
    Unique,
    Var,
    Where,
    While,
    // Punctuation and operators.
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Semi,
    Colon,
    ColonColon,
    Assign,
    EqSign,
    Lt,
    Gt,
    Le,
    Ge,
    EqEq,
    Neq,
    Subtype,
    Iff,
    Implies,
    Explies,
    And,
    Or,
    Not,
    Plus,
    Minus,
    Star,
    /// `**`
    StarStar,
    Slash,
    Concat,
    Bar,
    /// A character that starts no token.
    Unknown,
}

impl Tok {
    /// How the token is written, for error messages (`None` for tokens with a payload).
    pub fn text(self) -> Option<&'static str> {
        use Tok::*;
        Some(match self {
            Ident(_) | Int(_) | SmallInt(_) | Real(_) | Bv(..) | SmallBv(..) | Str(_) | Float(_) | Unknown => {
                return None
            }
            Barrier => "barrier",
            Atomic => "atomic",
            Vec => "vec",
            Psi => "psi",
            Yield => "yield",
            Par => "par",
            Async => "async",
            Assert => "assert",
            Assume => "assume",
            Axiom => "axiom",
            Bool => "bool",
            Break => "break",
            Call => "call",
            Complete => "complete",
            Const => "const",
            Div => "div",
            Else => "else",
            Ensures => "ensures",
            Exists => "exists",
            Extends => "extends",
            False => "false",
            Finite => "finite",
            Forall => "forall",
            Free => "free",
            Function => "function",
            Goto => "goto",
            Havoc => "havoc",
            If => "if",
            Implementation => "implementation",
            Int_ => "int",
            Invariant => "invariant",
            Lambda => "lambda",
            Mod => "mod",
            Modifies => "modifies",
            Old => "old",
            Procedure => "procedure",
            Real_ => "real",
            Requires => "requires",
            Return => "return",
            Returns => "returns",
            Then => "then",
            True => "true",
            Type => "type",
            Unique => "unique",
            Var => "var",
            Where => "where",
            While => "while",
            LParen => "(",
            RParen => ")",
            LBracket => "[",
            RBracket => "]",
            LBrace => "{",
            RBrace => "}",
            Comma => ",",
            Semi => ";",
            Colon => ":",
            ColonColon => "::",
            Assign => ":=",
            EqSign => "=",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Neq => "!=",
            Subtype => "<:",
            Iff => "<==>",
            Implies => "==>",
            Explies => "<==",
            And => "&&",
            Or => "||",
            Not => "!",
            Plus => "+",
            Minus => "-",
            Star => "*",
            StarStar => "**",
            Slash => "/",
            Concat => "++",
            Bar => "|",
        })
    }
}

/// The result of lexing one text.
#[derive(Clone, Debug, Default)]
pub struct Lexed {
    pub toks: Vec<Tok>,
    /// Absolute byte spans, one per token.
    pub spans: Vec<Span>,
    /// Texts of identifiers (each distinct one once) and literals, indexed by token payloads.
    pub names: Vec<SmolStr>,
    /// Unterminated comments and strings, oversized bit-vector widths.
    pub errors: Vec<Diagnostic>,
    /// Absolute offset of the end of the text.
    pub end: u32,
}

const IDENT_START: u8 = 1;
const IDENT_CONT: u8 = 2;
const LOWER: u8 = 4;

/// Character classes of ASCII bytes.
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_lowercase() {
            t[c] = IDENT_START | IDENT_CONT | LOWER;
        } else if b.is_ascii_alphabetic() || matches!(b, b'\'' | b'~' | b'#' | b'$' | b'^' | b'_' | b'.' | b'?' | b'`')
        {
            t[c] = IDENT_START | IDENT_CONT;
        } else if b.is_ascii_digit() {
            t[c] = IDENT_CONT;
        }
        c += 1;
    }
    t
};

#[inline]
pub(crate) fn is_ident_start(b: u8) -> bool {
    CLASS[b as usize] & IDENT_START != 0
}

#[inline]
pub(crate) fn is_ident_cont(b: u8) -> bool {
    CLASS[b as usize] & IDENT_CONT != 0
}

fn keyword(word: &[u8]) -> Option<Tok> {
    use Tok::*;
    Some(match word {
        b"assert" => Assert,
        b"assume" => Assume,
        b"async" => Async,
        b"atomic" => Atomic,
        b"axiom" => Axiom,
        b"barrier" => Barrier,
        b"bool" => Bool,
        b"break" => Break,
        b"call" => Call,
        b"complete" => Complete,
        b"const" => Const,
        b"div" => Div,
        b"else" => Else,
        b"ensures" => Ensures,
        b"exists" => Exists,
        b"extends" => Extends,
        b"false" => False,
        b"finite" => Finite,
        b"forall" => Forall,
        b"free" => Free,
        b"function" => Function,
        b"goto" => Goto,
        b"havoc" => Havoc,
        b"if" => If,
        b"implementation" => Implementation,
        b"int" => Int_,
        b"invariant" => Invariant,
        b"lambda" => Lambda,
        b"mod" => Mod,
        b"modifies" => Modifies,
        b"old" => Old,
        b"par" => Par,
        b"procedure" => Procedure,
        b"psi" => Psi,
        b"real" => Real_,
        b"requires" => Requires,
        b"return" => Return,
        b"returns" => Returns,
        b"then" => Then,
        b"true" => True,
        b"type" => Type,
        b"unique" => Unique,
        b"var" => Var,
        b"vec" => Vec,
        b"where" => Where,
        b"while" => While,
        b"yield" => Yield,
        _ => return None,
    })
}

/// Where the text after the blank or line comment starting at `i` begins; `None` when `b[i]`
/// starts neither. The scanners of the lexer, the declaration splitter and the piece-wise
/// parser share this one definition of trivia (block comments need their own error paths).
#[inline]
pub(crate) fn skip_blank_or_line_comment(b: &[u8], mut i: usize) -> Option<usize> {
    match b[i] {
        b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' => Some(i + 1),
        b'/' if b.get(i + 1) == Some(&b'/') => {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            Some(i)
        }
        _ => None,
    }
}

/// Skips a nested block comment starting at `i` (which points at `/*`). Returns the index after
/// it, or `None` when it is not closed.
pub(crate) fn skip_block_comment(b: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0usize;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            depth += 1;
            i += 2;
        } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return Some(i);
            }
        } else {
            i += 1;
        }
    }
    None
}

/// Skips a string literal starting at `i` (which points at `"`). Returns the index after the
/// closing quote, or `Err(index of the line end or text end)` when it is not closed on its line.
pub(crate) fn skip_string(b: &[u8], mut i: usize) -> Result<usize, usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'"' => return Ok(i + 1),
            b'\\' if b.get(i + 1) == Some(&b'"') => i += 2,
            b'\n' | b'\r' => return Err(i),
            _ => i += 1,
        }
    }
    Err(i)
}

fn digits_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// Scans a number starting at digit `start`: returns its end and kind (0 int, 1 real, 2 bv with
/// the index where `bv` starts).
fn scan_number(b: &[u8], start: usize) -> (usize, NumKind) {
    let i = digits_end(b, start);
    // Bit-vector literal: digits `bv` digits.
    if b.get(i) == Some(&b'b') && b.get(i + 1) == Some(&b'v') && b.get(i + 2).is_some_and(|c| c.is_ascii_digit()) {
        return (digits_end(b, i + 2), NumKind::Bv(i));
    }
    // Floating-point literals.
    if i == start + 1 && b[start] == b'0' {
        if let Some(end) = scan_float(b, start) {
            return (end, NumKind::Float);
        }
    }
    // dec_float: digits . digits [e [-] digits]
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
        let j = digits_end(b, i + 1);
        return (scan_exponent(b, j).unwrap_or(j), NumKind::Real);
    }
    // decimal: digits e [-] digits
    if let Some(j) = scan_exponent(b, i) {
        return (j, NumKind::Real);
    }
    (i, NumKind::Int)
}

fn scan_exponent(b: &[u8], i: usize) -> Option<usize> {
    if b.get(i) != Some(&b'e') {
        return None;
    }
    let mut j = i + 1;
    if b.get(j) == Some(&b'-') {
        j += 1;
    }
    if b.get(j).is_some_and(|c| c.is_ascii_digit()) {
        Some(digits_end(b, j))
    } else {
        None
    }
}

/// Boogie's floating-point literals after a leading `0` at `start`: `0x1.8e0f24e8` (hex
/// mantissa, `e` exponent, `f` significand and exponent sizes), `0NaN24e8`, `0nan24e8`,
/// `0+oo24e8`, `0-oo24e8`. Returns the end of the longest match.
fn scan_float(b: &[u8], start: usize) -> Option<usize> {
    // `SIZEe SIZE` suffix: digits `e` digits.
    let sizes = |i: usize| -> Option<usize> {
        let j = digits_end(b, i);
        if j == i || b.get(j) != Some(&b'e') {
            return None;
        }
        let k = digits_end(b, j + 1);
        (k > j + 1).then_some(k)
    };
    let rest = &b[start + 1..];
    for special in [&b"NaN"[..], b"nan", b"+oo", b"-oo"] {
        if rest.starts_with(special) {
            return sizes(start + 1 + special.len());
        }
    }
    if b.get(start + 1) != Some(&b'x') {
        return None;
    }
    let hex_end = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_hexdigit() {
            i += 1;
        }
        i
    };
    let int_end = hex_end(start + 2);
    if int_end == start + 2 || b.get(int_end) != Some(&b'.') {
        return None;
    }
    let frac_end = hex_end(int_end + 1);
    // The fraction's hex digits may swallow the `e` of the exponent: try each `e` as its start,
    // longest match first.
    (int_end + 2..frac_end.max(int_end + 2) + 1).rev().find_map(|k| {
        if b.get(k) != Some(&b'e') {
            return None;
        }
        let mut j = k + 1;
        if b.get(j) == Some(&b'-') {
            j += 1;
        }
        let e_end = digits_end(b, j);
        if e_end == j || b.get(e_end) != Some(&b'f') {
            return None;
        }
        sizes(e_end + 1)
    })
}

/// The value of at most 9 decimal digits (so below 10^9 and a `u32`).
fn small_value(digits: &[u8]) -> Option<u32> {
    (digits.len() <= 9).then(|| digits.iter().fold(0u32, |v, d| v * 10 + u32::from(d - b'0')))
}

/// The end of the number literal starting at digit `start`.
pub(crate) fn number_end(b: &[u8], start: usize) -> usize {
    scan_number(b, start).0
}

enum NumKind {
    Int,
    Real,
    Bv(usize),
    Float,
}

/// Lexes `text`, whose first byte is at absolute offset `base`.
pub fn lex(text: &str, base: u32) -> Lexed {
    let b = text.as_bytes();
    let mut out = Lexed {
        toks: Vec::with_capacity(b.len() / 4 + 4),
        spans: Vec::with_capacity(b.len() / 4 + 4),
        names: Vec::new(),
        errors: Vec::new(),
        end: base + b.len() as u32,
    };
    let span = |s: usize, e: usize| Span { start: base + s as u32, end: base + e as u32 };
    // Identifiers are interned: a kernel names the same few thousand variables hundreds of
    // thousands of times, and one text per name keeps `names` (and the memory it touches)
    // small; the syntax tree's names then share their storage too.
    let mut idents: rustc_hash::FxHashMap<&str, u32> = rustc_hash::FxHashMap::default();
    let mut i = 0usize;
    while i < b.len() {
        let mut c = b[i];
        // Runs of blanks (indentation) first.
        while matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            i += 1;
            match b.get(i) {
                Some(&n) => c = n,
                None => return out,
            }
        }
        let start = i;
        if let Some(j) = skip_blank_or_line_comment(b, i) {
            i = j;
            continue;
        }
        let tok = match c {
            b'/' if b.get(i + 1) == Some(&b'*') => match skip_block_comment(b, i) {
                Some(j) => {
                    i = j;
                    continue;
                }
                None => {
                    out.errors.push(
                        Diagnostic::syntax("unterminated comment", span(i, i + 2))
                            .with_label("this comment is never closed"),
                    );
                    i = b.len();
                    continue;
                }
            },
            b'"' => match skip_string(b, i) {
                Ok(j) => {
                    i = j;
                    out.names.push(SmolStr::new(&text[start + 1..j - 1]));
                    Tok::Str(out.names.len() as u32 - 1)
                }
                Err(j) => {
                    out.errors.push(
                        Diagnostic::syntax("unterminated string literal", span(start, j))
                            .with_label("this string is not closed on its line"),
                    );
                    i = j;
                    continue;
                }
            },
            b'0'..=b'9' => {
                let (end, kind) = scan_number(b, i);
                i = end;
                match kind {
                    NumKind::Int => match small_value(&b[start..end]) {
                        Some(v) => Tok::SmallInt(v),
                        None => {
                            out.names.push(SmolStr::new(&text[start..end]));
                            Tok::Int(out.names.len() as u32 - 1)
                        }
                    },
                    NumKind::Real => {
                        out.names.push(SmolStr::new(&text[start..end]));
                        Tok::Real(out.names.len() as u32 - 1)
                    }
                    NumKind::Float => {
                        out.names.push(SmolStr::new(&text[start..end]));
                        Tok::Float(out.names.len() as u32 - 1)
                    }
                    NumKind::Bv(bv) => {
                        let width = match text[bv + 2..end].parse::<u32>() {
                            Ok(w) => w,
                            Err(_) => {
                                out.errors.push(Diagnostic::syntax("bit-vector width is too large", span(start, end)));
                                0
                            }
                        };
                        match small_value(&b[start..bv]) {
                            Some(v) => Tok::SmallBv(v, width),
                            None => {
                                out.names.push(SmolStr::new(&text[start..bv]));
                                Tok::Bv(out.names.len() as u32 - 1, width)
                            }
                        }
                    }
                }
            }
            b'\\' if b.get(i + 1).is_some_and(|&c| is_ident_start(c)) => {
                i += 2;
                while i < b.len() && is_ident_cont(b[i]) {
                    i += 1;
                }
                out.names.push(SmolStr::new(&text[start + 1..i]));
                Tok::Ident(out.names.len() as u32 - 1)
            }
            _ if is_ident_start(c) => {
                // Keywords are 2 to 14 lowercase letters: only such words are looked up.
                // The class bits common to all characters: LOWER if all are lowercase letters.
                let mut all = CLASS[c as usize];
                i += 1;
                while let Some(&k) = b.get(i).map(|&c| &CLASS[c as usize]) {
                    if k & IDENT_CONT == 0 {
                        break;
                    }
                    all &= k;
                    i += 1;
                }
                let kw = if all & LOWER != 0 && (2..=14).contains(&(i - start)) { keyword(&b[start..i]) } else { None };
                match kw {
                    Some(k) => k,
                    None => {
                        let names = &mut out.names;
                        let k = *idents.entry(&text[start..i]).or_insert_with(|| {
                            names.push(SmolStr::new(&text[start..i]));
                            names.len() as u32 - 1
                        });
                        Tok::Ident(k)
                    }
                }
            }
            _ => {
                let (tok, len) = punct(&b[i..]);
                i += len;
                if tok == Tok::Unknown {
                    // Unknown or non-ASCII: take the whole character.
                    let ch = text[start..].chars().next().map_or(1, char::len_utf8);
                    i = start + ch;
                    if &text[start..i] == "\u{feff}" {
                        // A byte-order mark is blank.
                        continue;
                    }
                    unicode_op(&text[start..i]).unwrap_or(Tok::Unknown)
                } else {
                    tok
                }
            }
        };
        out.toks.push(tok);
        out.spans.push(span(start, i));
    }
    out
}

/// Longest-match ASCII operators: the token and its length in bytes.
fn punct(s: &[u8]) -> (Tok, usize) {
    use Tok::*;
    let at = |k: usize| s.get(k).copied().unwrap_or(0);
    match s[0] {
        b'(' => (LParen, 1),
        b')' => (RParen, 1),
        b'[' => (LBracket, 1),
        b']' => (RBracket, 1),
        b'{' => (LBrace, 1),
        b'}' => (RBrace, 1),
        b',' => (Comma, 1),
        b';' => (Semi, 1),
        b'*' if at(1) == b'*' => (StarStar, 2),
        b'*' => (Star, 1),
        b'/' => (Slash, 1),
        b'+' if at(1) == b'+' => (Concat, 2),
        b'+' => (Plus, 1),
        b'-' => (Minus, 1),
        b'|' if at(1) == b'|' => (Or, 2),
        b'|' => (Bar, 1),
        b'&' if at(1) == b'&' => (And, 2),
        b'!' if at(1) == b'=' => (Neq, 2),
        b'!' => (Not, 1),
        b'=' if at(1) == b'=' && at(2) == b'>' => (Implies, 3),
        b'=' if at(1) == b'=' => (EqEq, 2),
        b'=' => (EqSign, 1),
        b'<' if at(1) == b'=' && at(2) == b'=' && at(3) == b'>' => (Iff, 4),
        b'<' if at(1) == b'=' && at(2) == b'=' => (Explies, 3),
        b'<' if at(1) == b'=' => (Le, 2),
        b'<' if at(1) == b':' => (Subtype, 2),
        b'<' => (Lt, 1),
        b'>' if at(1) == b'=' => (Ge, 2),
        b'>' => (Gt, 1),
        b':' if at(1) == b'=' => (Assign, 2),
        b':' if at(1) == b':' => (ColonColon, 2),
        b':' => (Colon, 1),
        _ => (Unknown, 1),
    }
}

/// Boogie's Unicode spellings of operators.
fn unicode_op(s: &str) -> Option<Tok> {
    use Tok::*;
    Some(match s {
        "\u{21d4}" => Iff,
        "\u{21d2}" => Implies,
        "\u{21d0}" => Explies,
        "\u{2227}" => And,
        "\u{2228}" => Or,
        "\u{00ac}" => Not,
        "\u{2260}" => Neq,
        "\u{2264}" => Le,
        "\u{2265}" => Ge,
        "\u{2200}" => Forall,
        "\u{2203}" => Exists,
        "\u{03bb}" => Lambda,
        "\u{2022}" => ColonColon,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<Tok> {
        lex(s, 0).toks
    }

    #[test]
    fn operators_longest_match() {
        use Tok::*;
        assert_eq!(
            kinds("<==> <== <= <: < ==> == = := :: :"),
            vec![Iff, Explies, Le, Subtype, Lt, Implies, EqEq, EqSign, Assign, ColonColon, Colon]
        );
        assert_eq!(
            kinds("a++b || c && !d != e"),
            vec![Ident(0), Concat, Ident(1), Or, Ident(2), And, Not, Ident(3), Neq, Ident(4)]
        );
    }

    #[test]
    fn numbers_and_identifiers() {
        let l = lex("5bv32 12 1.5 2e3 2.0e-3 x.y$1 \\true bv8 1e 1234567890 9999999999bv64", 10);
        assert_eq!(
            l.toks,
            vec![
                Tok::SmallBv(5, 32),
                Tok::SmallInt(12),
                Tok::Real(0),
                Tok::Real(1),
                Tok::Real(2),
                Tok::Ident(3),
                Tok::Ident(4),
                Tok::Ident(5),
                Tok::SmallInt(1),
                Tok::Ident(6),
                Tok::Int(7),
                Tok::Bv(8, 64),
            ]
        );
        assert_eq!(l.names[3], "x.y$1");
        assert_eq!(l.names[4], "true");
        assert_eq!(l.names[7], "1234567890");
        assert_eq!(l.names[8], "9999999999");
        assert_eq!(l.spans[0], Span { start: 10, end: 15 });
    }

    #[test]
    fn comments_nest_and_strings() {
        let l = lex("a /* x /* y */ z */ b // c\n \"s\\\"t\"", 0);
        assert_eq!(l.toks, vec![Tok::Ident(0), Tok::Ident(1), Tok::Str(2)]);
        assert_eq!(l.names[2], "s\\\"t");
        assert!(lex("a /* /* */", 0).errors.len() == 1);
        assert!(lex("\"abc\nd", 0).errors.len() == 1);
    }

    #[test]
    fn unicode_and_unknown() {
        assert_eq!(
            kinds("∀ x • x ⇒ y @"),
            vec![
                Tok::Forall,
                Tok::Ident(0),
                Tok::ColonColon,
                // Interned: the second `x` has the first one's text.
                Tok::Ident(0),
                Tok::Implies,
                Tok::Ident(1),
                Tok::Unknown
            ]
        );
        for f in ["0x1.8e0f24e8", "0x1.0e-2f53e11", "0NaN24e8", "0+oo53e11", "0x0.0e0f24e8"] {
            assert_eq!(kinds(f), vec![Tok::Float(0)], "{f}");
        }
        assert_eq!(kinds("0x1"), vec![Tok::SmallInt(0), Tok::Ident(0)]);
        let l = lex("é", 0);
        assert_eq!(l.toks, vec![Tok::Unknown]);
        assert_eq!(l.spans[0], Span { start: 0, end: 2 });
    }
}
