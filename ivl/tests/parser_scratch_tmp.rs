use ivl::diag::SourceFile;
#[test]
fn show() {
    for dir in ["/work/corpus/boogie/Test/test0", "/work/corpus/boogie/Test/test1"] {
        let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "bpl")).collect();
        files.sort();
        for f in files {
            let src = std::fs::read_to_string(&f).unwrap();
            let sf = SourceFile::new("t.bpl", src.clone());
            let (_, d) = ivl::parser::parse_program(&src);
            let expect = std::fs::read_to_string(format!("{}.expect", f.display())).unwrap_or_default();
            let boogie_parse_errs: Vec<&str> = expect.lines().filter(|l| l.contains("parse error") || l.contains(": error:")).collect();
            if d.is_empty() && boogie_parse_errs.is_empty() { continue; }
            println!("=== {}", f.display());
            for x in &d {
                let (l, c) = sf.line_col(x.primary.span.start);
                println!("  ours {}:{} {:?} {}", l, c, x.kind, x.message);
            }
            for l in boogie_parse_errs { println!("  boogie {l}"); }
        }
    }
}
