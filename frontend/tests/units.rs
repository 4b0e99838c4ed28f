//! The front end's pure parts: source spans, offsets as element indices, header names.

use frontend::{span_at, Language, Loc};
use std::path::Path;

#[test]
fn a_location_spans_its_access_or_its_statement_to_the_end_of_the_line() {
    let text = "kernel void k() {\n  A[i] = 1;\r\n  barrier(0);\n}\n";
    // A load at its first character, a store at its `=`: the access itself.
    let s = span_at(text, Loc { line: 2, col: 3 });
    assert_eq!(&text[s.range()], "A[i]");
    let s = span_at(text, Loc { line: 2, col: 8 });
    assert_eq!(&text[s.range()], "A[i]");
    // Anything else: the statement, to the end of the line.
    let s = span_at(text, Loc { line: 3, col: 3 });
    assert_eq!(&text[s.range()], "barrier(0);");
    // Column 1 (unknown) skips the indentation.
    let s = span_at(text, Loc { line: 2, col: 1 });
    assert_eq!(&text[s.range()], "A[i] = 1;");
    // Past the end: an empty span at the end, never a panic.
    let s = span_at(text, Loc { line: 99, col: 7 });
    assert_eq!(s.range(), text.len()..text.len());
    let s = span_at(text, Loc { line: 1, col: 500 });
    assert!(s.range().is_empty());
}

#[test]
fn a_column_inside_a_character_falls_back_to_the_line_start() {
    let text = "// é\nx";
    let s = span_at(text, Loc { line: 1, col: 5 });
    assert!(text.is_char_boundary(s.start as usize));
}

#[test]
fn languages_by_extension() {
    assert_eq!(Language::of(Path::new("k.cl")), Some(Language::OpenCl));
    assert_eq!(Language::of(Path::new("dir/k.cu")), Some(Language::Cuda));
    assert_eq!(Language::of(Path::new("k.kbpl")), None);
    assert_eq!(Language::of(Path::new("cl")), None);
}
