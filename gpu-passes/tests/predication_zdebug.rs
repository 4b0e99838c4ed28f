mod predication_gen;
use predication_gen::*;
use ivl::ast::*;
#[test]
fn dbg() {
    for seed in 0..400u64 {
        let imp = random_impl(seed, 10);
        let observe: Vec<Name> = imp.locals.iter().map(|v| v.name.name.clone()).collect();
        let mut init = Store::new();
        for v in imp.locals.iter() { init.insert(v.name.name.clone(), Val::Int(0)); }
        let r = std::panic::catch_unwind(|| outcomes(&imp, &init, &observe, &[], 200_000));
        if r.is_err() {
            println!("seed {seed}");
            println!("{}", ivl::printer::print_decl(&imp.to_decl()));
            break;
        }
    }
}
