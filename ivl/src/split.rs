//! A cheap scan that cuts a `.kbpl` file into its top-level declarations without parsing them.
//!
//! It serves two purposes: error recovery (a syntax error spoils only its own declaration, the
//! parser carries on with the next one) and incrementality (the salsa database parses each
//! declaration's text on its own, so an edit re-parses one declaration).
//!
//! A declaration starts at one of the keywords `type const function axiom var procedure
//! implementation`, outside comments and strings. `var` starts a declaration only at brace
//! depth 0 (elsewhere it declares locals). The other six keywords cannot occur inside any
//! declaration of valid Boogie 2, so they start a new declaration at any depth: a body with a
//! missing `}` then spoils only itself. Each chunk ends at the end of its last token, so trailing
//! whitespace and comments belong to no chunk. Text before the first keyword that is not
//! whitespace or comments forms a chunk of its own (with keyword `""`), which then fails to
//! parse with a diagnostic.

use crate::lexer::{is_ident_cont, is_ident_start, number_end, skip_blank_or_line_comment, skip_block_comment, skip_string};

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

fn decl_keyword(word: &[u8]) -> Option<&'static str> {
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

/// Cuts `text` into declarations (see the module documentation).
pub fn split_decls(text: &str) -> Vec<Chunk> {
    let b = text.as_bytes();
    let mut chunks: Vec<Chunk> = Vec::new();
    // The chunk being built: its start, keyword and the end of its last token so far.
    let mut cur: Option<(usize, &'static str)> = None;
    let mut last_end = 0usize;
    let mut depth = 0usize;
    let mut i = 0usize;
    let close = |chunks: &mut Vec<Chunk>, cur: Option<(usize, &'static str)>, last_end: usize| {
        if let Some((start, keyword)) = cur {
            let name = if keyword.is_empty() || keyword == "axiom" {
                None
            } else {
                decl_name(text, start + keyword.len())
            };
            chunks.push(Chunk {
                start: start as u32,
                end: last_end.max(start) as u32,
                keyword,
                name,
            });
        }
    };
    while i < b.len() {
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
                if let Some(kw) = decl_keyword(&b[start..i]) {
                    if kw != "var" || depth == 0 {
                        close(&mut chunks, cur, last_end);
                        cur = Some((start, kw));
                        depth = 0;
                    }
                }
            }
            b'{' => {
                depth += 1;
                i += 1;
            }
            b'}' => {
                depth = depth.saturating_sub(1);
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
        if cur.is_none() {
            cur = Some((start, ""));
        }
        last_end = i;
    }
    close(&mut chunks, cur, last_end);
    chunks
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
            .map(|c| {
                (
                    text[c.start as usize..c.end as usize].to_string(),
                    c.keyword,
                    c.name,
                )
            })
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
                (
                    "const {:a \"var x\"} unique c: int;".into(),
                    "const",
                    Some("c".into())
                ),
                (
                    "procedure P() { var x: int; x := 1; }".into(),
                    "procedure",
                    Some("P".into())
                ),
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
        assert_eq!(
            summary("\u{feff}var x: int;"),
            vec![("var x: int;".into(), "var", Some("x".into()))]
        );
    }

    #[test]
    fn empty_and_comment_only_files_have_no_chunks() {
        assert!(split_decls("").is_empty());
        assert!(split_decls("  // x\n /* y */ ").is_empty());
    }
}
