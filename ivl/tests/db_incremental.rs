//! The salsa database re-does only the work an edit requires: editing one procedure body
//! re-parses and re-checks that procedure alone, even though the edit moves every later
//! declaration in the file.

use ivl::db::{check_decl_query, decl_chunks, file_diagnostics, file_program, Database, SourceFile};
use ivl::diag::ErrorKind;

const BEFORE: &str = "\
var g: int;
const {:local_id_x} tid: int;

function f(x: int): int { x + 1 }

procedure A(x: int) returns (r: int)
  modifies g;
{
  g := f(x);
  r := g;
}

procedure B(x: int) returns (r: int)
  ensures r >= x;
{
  r := x;
}

procedure C(n: int)
{
  var i: int;
  i := 0;
  while (i < n)
    invariant i <= n;
  {
    i := i + 1;
  }
}

implementation D()
{
  call C(3);
}

procedure D();
";

/// Executions of `query` in a log of `query_name(Id(..))` entries.
fn runs<'a>(log: &'a [String], query: &str) -> Vec<&'a String> {
    log.iter().filter(|e| e.starts_with(&format!("{query}("))).collect()
}

/// The chunk of the declaration named `name` with keyword `keyword`.
fn chunk_id(db: &Database, file: SourceFile, keyword: &str, name: &str) -> String {
    let c = decl_chunks(db, file)
        .iter()
        .find(|c| c.keyword(db) == keyword && c.name(db).as_deref() == Some(name))
        .expect("chunk");
    format!("{:?}", salsa::plumbing::AsId::as_id(c))
}

#[test]
fn editing_one_body_rechecks_only_that_declaration() {
    let mut db = Database::with_execution_log();
    let file = db.add_file("k.kbpl", BEFORE);
    assert_eq!(file_diagnostics(&db, file), &vec![], "the program is well-typed");
    let first = db.take_executions();
    assert_eq!(runs(&first, "check_decl_query").len(), 8, "{first:#?}");
    assert_eq!(runs(&first, "parse_decl_query").len(), 8);

    // A longer body for B: every declaration after it moves.
    let after = BEFORE.replace("  r := x;\n", "  r := x + 1;\n  assert r > x;\n");
    db.set_text(file, after.clone());
    assert_eq!(file_diagnostics(&db, file), &vec![]);
    let log = db.take_executions();
    let b = chunk_id(&db, file, "procedure", "B");
    let parsed = runs(&log, "parse_decl_query");
    let checked = runs(&log, "check_decl_query");
    assert_eq!(parsed.len(), 1, "{log:#?}");
    assert_eq!(checked.len(), 1, "{log:#?}");
    assert!(checked[0].contains(&b), "re-checked {} instead of B ({b})", checked[0]);
    // The item index was rebuilt but, unchanged, was backdated: nothing that reads it re-ran.
    assert!(runs(&log, "item_index").is_empty(), "{log:#?}");

    // The program has absolute spans: the moved declaration C points at its new place.
    let program = file_program(&db, file);
    let c = program.decls.iter().find(|d| d.name().is_some_and(|n| n.name == "C")).unwrap();
    assert_eq!(c.span.start as usize, after.find("procedure C").unwrap());
}

#[test]
fn no_edit_no_work() {
    let mut db = Database::with_execution_log();
    let file = db.add_file("k.kbpl", BEFORE);
    file_diagnostics(&db, file);
    db.take_executions();
    db.set_text(file, BEFORE);
    file_diagnostics(&db, file);
    let log = db.take_executions();
    assert!(runs(&log, "parse_decl_query").is_empty() && runs(&log, "check_decl_query").is_empty(), "{log:#?}");
}

#[test]
fn an_edit_that_breaks_a_body_is_reported_at_its_new_place() {
    let mut db = Database::with_execution_log();
    let file = db.add_file("k.kbpl", BEFORE);
    assert!(file_diagnostics(&db, file).is_empty());
    // An extra line above everything, and a type error inside C's loop.
    let after = format!("// header\n{}", BEFORE.replace("i := i + 1;", "i := i + true;"));
    db.set_text(file, after.clone());
    let diags = file_diagnostics(&db, file).clone();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].kind, ErrorKind::Type);
    let at = diags[0].primary.span.start as usize;
    assert!(after[at..].starts_with("i + true"), "points at {:?}", &after[at..]);
    // The fix makes the file clean again.
    db.set_text(file, format!("// header\n{BEFORE}"));
    assert!(file_diagnostics(&db, file).is_empty());
}

#[test]
fn signature_edits_recheck_dependents() {
    let mut db = Database::with_execution_log();
    let file = db.add_file("k.kbpl", BEFORE);
    assert!(file_diagnostics(&db, file).is_empty());
    db.take_executions();
    // f now takes a bool: A's call `f(x)` becomes ill-typed, and A must be re-checked even
    // though its text did not change.
    db.set_text(file, BEFORE.replace("function f(x: int): int { x + 1 }", "function f(x: bool): int { 1 }"));
    let diags = file_diagnostics(&db, file).clone();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].kind, ErrorKind::Type);
    let log = db.take_executions();
    assert_eq!(runs(&log, "parse_decl_query").len(), 1, "{log:#?}");
    assert_eq!(runs(&log, "check_decl_query").len(), 8, "the item index changed: everything is re-checked");
}

#[test]
fn syntax_errors_are_per_declaration() {
    let db = Database::new();
    let text = BEFORE.replace("r := x;", "r := x +;");
    let file = db.add_file("k.kbpl", text.clone());
    let diags = file_diagnostics(&db, file);
    assert!(!diags.is_empty());
    assert!(diags.iter().all(|d| d.kind == ErrorKind::Syntax), "{diags:#?}");
    let at = diags[0].primary.span.start as usize;
    let b = text.find("procedure B").unwrap();
    let c = text.find("procedure C").unwrap();
    assert!(b <= at && at < c, "the error lies in B");
    // The other declarations still parse and check.
    let names: Vec<_> =
        file_program(&db, file).decls.iter().filter_map(|d| d.name().map(|n| n.name.to_string())).collect();
    assert_eq!(names, ["g", "tid", "f", "A", "C", "D", "D"]);
    assert!(decl_chunks(&db, file).iter().all(|c| check_decl_query(&db, *c).is_empty()));
}
