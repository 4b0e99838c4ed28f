#[test]
fn probe() {
    let path = std::env::var("F").unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut db = ivl::db::Database::with_execution_log();
    let f = db.add_file("x", text.clone());
    let t = std::time::Instant::now();
    let n = ivl::db::file_diagnostics(&db, f).len();
    let cold = t.elapsed();
    db.take_executions();
    // edit inside the last implementation body
    let at = text.rfind("return;").unwrap();
    let edited = format!("{}assume true;\n    {}", &text[..at], &text[at..]);
    db.set_text(f, edited);
    let t = std::time::Instant::now();
    let n2 = ivl::db::file_diagnostics(&db, f).len();
    let warm = t.elapsed();
    let log = db.take_executions();
    let t = std::time::Instant::now();
    let (p, _) = ivl::parser::parse_program(&text);
    let _ = ivl::check::check_program(&p);
    let batch = t.elapsed();
    eprintln!("bytes {} diags {n} {n2} cold {cold:?} after edit {warm:?} batch {batch:?} executions {}", text.len(), log.len());
}
