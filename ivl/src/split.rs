//! A cheap scan that cuts a `.kbpl` file into its top-level declarations without parsing them.
//!
//! It serves two purposes: error recovery (a syntax error spoils only its own declaration, the
//! parser carries on with the next one) and incrementality (the salsa database parses each
//! declaration's text on its own, so an edit re-parses one declaration).
//!
//! A declaration starts at one of the keywords `type const function axiom var procedure
//! implementation`, outside comments and strings. `var` starts a declaration only at brace
//! depth 0 (elsewhere it declares locals) and not right after `(` (a let expression
//! `(var x := e; b)`). The other six keywords cannot occur inside any
//! declaration of valid Boogie 2, so they start a new declaration at any depth: a body with a
//! missing `}` then spoils only itself. Each chunk ends at the end of its last token, so trailing
//! whitespace and comments belong to no chunk. Text before the first keyword that is not
//! whitespace or comments forms a chunk of its own (with keyword `""`), which then fails to
//! parse with a diagnostic.

use crate::lexer::{
    is_ident_cont, is_ident_start, number_end, skip_blank_or_line_comment, skip_block_comment, skip_string,
};

/// One top-level declaration's extent in the file: `text[start..end]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Chunk {
    pub start: u32,
    pub end: u32,
    /// The keyword that starts the declaration, or `""` for leading text that starts none.
    pub keyword: &'static str,
    /// The name the declaration introduces (the first one for `const a, b` and `var`), if the
    /// scan can see it; `None` for axioms.
    pub name: Option<String>,
}

/// The cutting rule (see the module doc): a declaration keyword at brace depth `depth` starts
/// a declaration, except `var` inside braces. The scan of the text here and the parser's cut of
/// its token stream (`parser::chunk_starts`) both apply it; the depth restarts at 0 after a cut.
pub(crate) fn starts_declaration(keyword: &str, depth: usize) -> bool {
    keyword != "var" || depth == 0
}

pub(crate) fn decl_keyword(word: &[u8]) -> Option<&'static str> {
    Some(match word {
        b"type" => "type",
        b"const" => "const",
        b"function" => "function",
        b"axiom" => "axiom",
        b"var" => "var",
        b"procedure" => "procedure",
        b"implementation" => "implementation",
        _ => return None,
    })
}

/// Files at least this long are scanned in two halves on two threads.
const PARALLEL_MIN_BYTES: usize = 1 << 20;

/// Cuts `text` into declarations (see the module documentation).
///
/// A long file is scanned in two halves at once, cut at a line start near the middle. The scan
/// carries only three things across a line start: whether it is inside a block comment (strings
/// and line comments end at their line), the brace depth, and the declaration being built. The
/// first half runs the real [`Splitter`]; the second records its braces and keywords
/// ([`Recorder`]), which are then replayed on the first half's final state, so the depth and the
/// declaration in progress need not be known in advance. A block comment open across the cut
/// shows as a token of the first half that ends past it: the second half's record is then
/// dropped and the first half's scan simply goes on to the end.
pub fn split_decls(text: &str) -> Vec<Chunk> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mid = (text.len() >= PARALLEL_MIN_BYTES && threads >= 2)
        .then(|| text.as_bytes()[text.len() / 2..].iter().position(|&c| c == b'\n'))
        .flatten()
        .map(|k| text.len() / 2 + k + 1);
    split_at(text, mid)
}

/// [`split_decls`], in two halves cut at `mid` (a line start) when given.
fn split_at(text: &str, mid: Option<usize>) -> Vec<Chunk> {
    let b = text.as_bytes();
    let mut first = Splitter { text, chunks: Vec::new(), cur: None, last_end: 0, depth: 0 };
    let Some(mid) = mid.filter(|&m| m > 0 && m < b.len() && b[m - 1] == b'\n') else {
        scan(b, 0, b.len(), &mut first);
        return first.finish();
    };
    let second = std::thread::scope(|s| {
        let second = std::thread::Builder::new()
            .spawn_scoped(s, || {
                let mut r = Recorder::default();
                scan(b, mid, b.len(), &mut r);
                r
            })
            .ok();
        let reached = scan(b, 0, mid, &mut first);
        let second = second.and_then(|h| h.join().ok());
        // A block comment open across the cut, or no declaration begun before it (the
        // second half's first token might then start leading text): scan on sequentially.
        if reached != mid || first.cur.is_none() {
            scan(b, reached, b.len(), &mut first);
            return None;
        }
        second
    });
    if let Some(r) = second {
        r.replay(&mut first);
    }
    first.finish()
}

/// What the scan reports: braces, declaration keywords and the extent of every token.
trait Sink {
    fn brace(&mut self, open: bool);
    /// A declaration keyword at `start` (reported before the keyword's own [`Sink::token`]).
    fn keyword(&mut self, start: usize, keyword: &'static str);
    fn token(&mut self, start: usize, end: usize);
}

/// The real state machine: builds the chunks.
struct Splitter<'t> {
    text: &'t str,
    chunks: Vec<Chunk>,
    /// The chunk being built: its start and keyword.
    cur: Option<(usize, &'static str)>,
    /// The end of the last token so far.
    last_end: usize,
    depth: usize,
}

impl Splitter<'_> {
    fn close_current(&mut self) {
        if let Some((start, keyword)) = self.cur {
            let name = if keyword.is_empty() || keyword == "axiom" {
                None
            } else {
                decl_name(self.text, start + keyword.len())
            };
            self.chunks.push(Chunk { start: start as u32, end: self.last_end.max(start) as u32, keyword, name });
        }
    }

    fn finish(mut self) -> Vec<Chunk> {
        self.close_current();
        self.chunks
    }
}

impl Sink for Splitter<'_> {
    fn brace(&mut self, open: bool) {
        self.depth = if open { self.depth + 1 } else { self.depth.saturating_sub(1) };
    }
    fn keyword(&mut self, start: usize, keyword: &'static str) {
        if starts_declaration(keyword, self.depth) {
            self.close_current();
            self.cur = Some((start, keyword));
            self.depth = 0;
        }
    }
    fn token(&mut self, start: usize, end: usize) {
        if self.cur.is_none() {
            self.cur = Some((start, ""));
        }
        self.last_end = end;
    }
}

/// The second half's record: its braces and keywords, each keyword with the end of the token
/// before it in this half (if any), and the end of the half's last token.
#[derive(Default)]
struct Recorder {
    events: Vec<Event>,
    last_end: Option<usize>,
}

enum Event {
    Brace(bool),
    Keyword { start: usize, keyword: &'static str, prev_end: Option<usize> },
}

impl Sink for Recorder {
    fn brace(&mut self, open: bool) {
        self.events.push(Event::Brace(open));
    }
    fn keyword(&mut self, start: usize, keyword: &'static str) {
        self.events.push(Event::Keyword { start, keyword, prev_end: self.last_end });
    }
    fn token(&mut self, _start: usize, end: usize) {
        self.last_end = Some(end);
    }
}

impl Recorder {
    /// Feeds the record to the first half's splitter, as if it had scanned on (it has a
    /// declaration in progress, so the `token` calls left out would only set `last_end`).
    fn replay(self, s: &mut Splitter<'_>) {
        for e in self.events {
            match e {
                Event::Brace(open) => s.brace(open),
                Event::Keyword { start, keyword, prev_end } => {
                    if let Some(end) = prev_end {
                        s.last_end = end;
                    }
                    s.keyword(start, keyword);
                }
            }
        }
        if let Some(end) = self.last_end {
            s.last_end = end;
        }
    }
}

/// Scans the tokens that start in `b[from..to]` (at a token boundary `from`); returns where
/// the last one ended (at least `to`, more when one runs on past it).
fn scan(b: &[u8], from: usize, to: usize, sink: &mut impl Sink) -> usize {
    let mut i = from;
    // Whether the last token was `(`: `(var` opens a let expression, not a declaration.
    let mut after_paren = false;
    while i < to {
        let c = b[i];
        let start = i;
        if let Some(j) = skip_blank_or_line_comment(b, i) {
            i = j;
            continue;
        }
        match c {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                match skip_block_comment(b, i) {
                    Some(j) => {
                        i = j;
                        continue;
                    }
                    // An unterminated comment is an error the lexer reports: keep it in the chunk.
                    None => i = b.len(),
                }
            }
            b'"' => i = skip_string(b, i).unwrap_or_else(|e| e.max(i + 1)),
            b'0'..=b'9' => i = number_end(b, i),
            b'\\' if b.get(i + 1).is_some_and(|&c| is_ident_start(c)) => {
                i += 2;
                while i < b.len() && is_ident_cont(b[i]) {
                    i += 1;
                }
            }
            _ if is_ident_start(c) => {
                i += 1;
                while i < b.len() && is_ident_cont(b[i]) {
                    i += 1;
                }
                if let Some(kw) = decl_keyword(&b[start..i]).filter(|&kw| !(after_paren && kw == "var")) {
                    sink.keyword(start, kw);
                }
            }
            b'{' => {
                sink.brace(true);
                i += 1;
            }
            b'}' => {
                sink.brace(false);
                i += 1;
            }
            _ => {
                // Any other character (operators, non-ASCII): skip the whole UTF-8 sequence.
                i += 1;
                while i < b.len() && (b[i] & 0xC0) == 0x80 {
                    i += 1;
                }
                if &b[start..i] == "\u{feff}".as_bytes() {
                    // A byte-order mark is blank, as in the lexer.
                    continue;
                }
            }
        }
        // The lexer drops an unterminated string (it reports it), so the token before it is
        // still the last one for `(var` (as `parser::chunk_starts` sees the tokens).
        let dropped = c == b'"' && skip_string(b, start).is_err();
        if !dropped {
            after_paren = c == b'(';
        }
        sink.token(start, i);
    }
    i.max(to)
}

/// Skips whitespace, comments and attributes `{: ... }` from `i`.
fn skip_trivia_and_attrs(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b.get(i) == Some(&b'/') && b.get(i + 1) == Some(&b'*') {
            match skip_block_comment(b, i) {
                Some(j) => i = j,
                None => return b.len(),
            }
        } else if b.get(i) == Some(&b'{') {
            // An attribute: skip to its matching brace.
            let mut depth = 0usize;
            while i < b.len() {
                match b[i] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    b'"' => {
                        i = skip_string(b, i).unwrap_or_else(|e| e.max(i + 1));
                        continue;
                    }
                    _ => {}
                }
                i += 1;
            }
        } else {
            return i;
        }
    }
}

/// The name after a declaration keyword (skipping attributes, `unique` and `finite`).
fn decl_name(text: &str, from: usize) -> Option<String> {
    let b = text.as_bytes();
    let mut i = from;
    loop {
        i = skip_trivia_and_attrs(b, i);
        let escaped = b.get(i) == Some(&b'\\');
        let start = if escaped { i + 1 } else { i };
        if !b.get(start).is_some_and(|&c| is_ident_start(c)) {
            return None;
        }
        let mut j = start + 1;
        while j < b.len() && is_ident_cont(b[j]) {
            j += 1;
        }
        let word = &text[start..j];
        if !escaped && (word == "unique" || word == "finite") {
            i = j;
            continue;
        }
        return Some(word.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(text: &str) -> Vec<(String, &'static str, Option<String>)> {
        split_decls(text)
            .into_iter()
            .map(|c| (text[c.start as usize..c.end as usize].to_string(), c.keyword, c.name))
            .collect()
    }

    #[test]
    fn splits_at_keywords_outside_bodies_comments_and_strings() {
        let text = "// header\ntype T;\nconst {:a \"var x\"} unique c: int; /* procedure Q */\n\
                    procedure P() { var x: int; x := 1; }\naxiom true;\n";
        assert_eq!(
            summary(text),
            vec![
                ("type T;".into(), "type", Some("T".into())),
                ("const {:a \"var x\"} unique c: int;".into(), "const", Some("c".into())),
                ("procedure P() { var x: int; x := 1; }".into(), "procedure", Some("P".into())),
                ("axiom true;".into(), "axiom", None),
            ]
        );
    }

    #[test]
    fn leading_garbage_is_its_own_chunk() {
        let s = summary("  garbage here\nvar x: int;");
        assert_eq!(s[0], ("garbage here".into(), "", None));
        assert_eq!(s[1], ("var x: int;".into(), "var", Some("x".into())));
    }

    #[test]
    fn unclosed_body_does_not_swallow_the_next_declaration() {
        let s = summary("implementation P() { x := 1;\nprocedure Q();\nvar g: int;");
        assert_eq!(s.len(), 3);
        assert_eq!(s[1].1, "procedure");
        assert_eq!(s[2].1, "var");
    }

    #[test]
    fn identifiers_containing_keywords_do_not_split() {
        let s = summary("var type.x: int; var x_type: int; var \\type: int;");
        assert_eq!(s.len(), 3);
        assert_eq!(s[2].2.as_deref(), Some("type"));
    }

    #[test]
    fn byte_order_mark_is_blank() {
        assert_eq!(summary("\u{feff}var x: int;"), vec![("var x: int;".into(), "var", Some("x".into()))]);
    }

    #[test]
    fn empty_and_comment_only_files_have_no_chunks() {
        assert!(split_decls("").is_empty());
        assert!(split_decls("  // x\n /* y */ ").is_empty());
    }

    /// Every line start of `text` as the cut of the two-half scan gives the sequential chunks.
    fn halves_agree(text: &str) {
        let sequential = split_at(text, None);
        for (k, _) in text.match_indices('\n') {
            assert_eq!(split_at(text, Some(k + 1)), sequential, "cut at byte {}", k + 1);
        }
    }

    #[test]
    fn two_halves_give_the_sequential_chunks() {
        // Block comments across lines (with keywords inside), `var` inside and outside bodies,
        // an unclosed body, strings with keywords, a byte-order mark, a `}` too many, and an
        // unterminated comment at the end.
        halves_agree(
            "// header\ntype T;\n/* procedure Q\n var y: int;\n*/ const {:a \"var x\"}\n unique c: int;\n\
             procedure P() {\n var x: int;\n x := 1;\n}\n}\nvar g: int;\nimplementation P() {\n var z: int;\n\
             if (*) {\n var w: int;\n }\n\u{feff}axiom true;\nfunction f(x: int): int\n{ x }\nvar h: bool; /* open\n var k: int;",
        );
        halves_agree("  garbage here\nvar x: int;\n");
        halves_agree("\n\n/* a\n b */\n");
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/boogie");
        let mut n = 0;
        for e in std::fs::read_dir(&root).expect("tests/boogie").flatten() {
            if let Ok(text) = std::fs::read_to_string(e.path()) {
                halves_agree(&text);
                n += 1;
            }
        }
        assert!(n > 40, "only {n} test programs");
    }

    #[test]
    fn a_large_file_is_split_in_halves_like_sequentially() {
        let mut text = String::new();
        let mut k = 0;
        while text.len() < 2 * PARALLEL_MIN_BYTES {
            text.push_str(&format!(
                "procedure P{k}() {{\n  var x: int;\n  /* var y: int;\n */ x := {k};\n}}\nvar g{k}: int;\n"
            ));
            k += 1;
        }
        assert_eq!(split_decls(&text), split_at(&text, None));
        assert_eq!(split_decls(&text).len(), 2 * k);
    }

    /// On the GPU corpus (`crate::corpus`; skipped when absent, as on CI): ten cuts per file.
    #[test]
    fn two_halves_agree_on_the_corpus() {
        let Some(gpu) = crate::corpus::gpu() else { return };
        let fs = crate::corpus::bpl_files(&gpu.join("gpuverify"));
        for f in &fs {
            let text = std::fs::read_to_string(f).expect("utf-8");
            let sequential = split_at(&text, None);
            let starts: Vec<usize> = text.match_indices('\n').map(|(k, _)| k + 1).collect();
            for j in 1..=10 {
                if let Some(&mid) = starts.get(starts.len() * j / 11) {
                    assert_eq!(split_at(&text, Some(mid)), sequential, "{}: cut at {mid}", f.display());
                }
            }
        }
    }
}
