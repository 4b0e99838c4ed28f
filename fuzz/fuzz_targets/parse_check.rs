//! Parse, resolve and type-check arbitrary bytes: the front end must answer every input with a
//! program or diagnostics, never a panic or a hang.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let (program, diags) = ivl::parser::parse_program(text);
        if diags.is_empty() {
            let _ = ivl::check::check_program(&program);
            let printed = ivl::printer::print_program(&program);
            let (_, again) = ivl::parser::parse_program(&printed);
            assert!(again.is_empty(), "printed program does not parse again:\n{printed}");
        }
    }
});
