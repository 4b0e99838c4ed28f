//! The names the translation gives: KBPL identifiers for LLVM's names, a kernel's procedure
//! name (with a template instance's arguments), a C++ global's declared name, and the name of
//! the function a call calls.
//!
//! Apart from the translator because names are pure functions of LLVM's names, which
//! `launches.rs` (outside this folder) uses too; nothing here depends on the translation.

use crate::builtins;
use llvm_ir::instruction as inst;
use llvm_ir::{Constant, Name, Operand};

/// A KBPL identifier for an LLVM name (identifiers keep letters, digits, `_`, `.`, `$`).
pub(super) fn ident(n: &Name) -> String {
    match n {
        Name::Name(s) => {
            s.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$') { c } else { '_' }).collect()
        }
        Name::Number(k) => format!("{k}"),
    }
}

/// A kernel's procedure name: its source name, and for an instance of a template the template
/// arguments that are numbers or builtin types (`_Z3redILi256EEvPf` → `red$256`), so that two
/// instances launched by one program are two procedures.
pub(super) fn kernel_name(mangled: &str) -> String {
    let plain = global_name(builtins::demangle(mangled));
    let Some(rest) = mangled.strip_prefix("_Z") else { return plain };
    let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
    let Some(args) = rest[digits..].get(plain.len()..).and_then(|r| r.strip_prefix('I')) else { return plain };
    let (mut parts, mut at) = (Vec::new(), args);
    let ty = |c: char| {
        Some(match c {
            'i' => "int",
            'j' => "uint",
            'f' => "float",
            'd' => "double",
            'c' | 'a' => "char",
            'h' => "uchar",
            's' => "short",
            't' => "ushort",
            'l' => "long",
            'm' => "ulong",
            'x' => "longlong",
            'y' => "ulonglong",
            'b' => "bool",
            _ => return None,
        })
    };
    while let Some(c) = at.chars().next() {
        if c == 'E' {
            break;
        }
        if let Some(lit) = at.strip_prefix('L') {
            // `Li256E`: a literal of a builtin type; `n` marks a negative one.
            let body = lit.get(1..).unwrap_or("");
            let Some(end) = body.find('E') else { break };
            parts.push(body[..end].replace('n', "minus"));
            at = &body[end + 1..];
        } else if let Some(t) = ty(c) {
            parts.push(t.to_string());
            at = &at[1..];
        } else {
            break;
        }
    }
    if parts.is_empty() {
        plain
    } else {
        format!("{plain}${}", parts.join("_"))
    }
}

/// The declared name of a C++ function-local static (`_ZZ3addPiiE1s` → `s`) or a global.
pub(super) fn global_name(mangled: &str) -> String {
    let plain = mangled
        .strip_prefix("_ZZ")
        .and_then(|r| r.rfind('E').map(|e| &r[e + 1..]))
        .map(|rest| {
            // `<length><name>`, possibly followed by a discriminator.
            let digits = rest.chars().take_while(|c| c.is_ascii_digit()).count();
            match rest[..digits].parse::<usize>() {
                Ok(n) if digits + n <= rest.len() => &rest[digits..digits + n],
                _ => rest,
            }
        })
        .filter(|s| !s.is_empty())
        .unwrap_or(mangled);
    plain.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$') { c } else { '_' }).collect()
}

pub(crate) fn call_name(c: &inst::Call) -> Option<&str> {
    match c.function.as_ref().right()? {
        Operand::ConstantOperand(k) => match k.as_ref() {
            Constant::GlobalReference { name: Name::Name(n), .. } => Some(n.as_str()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a function is one of GPUVerify's specification functions (`spec_functions.rs`).
pub(super) fn is_spec_function(name: &str) -> bool {
    builtins::demangle(name).starts_with("__spec_")
}

#[cfg(test)]
mod tests {
    use super::{global_name, ident, kernel_name};
    use llvm_ir::Name;

    #[test]
    fn kernel_names_of_template_instances() {
        assert_eq!(kernel_name("_Z3redILi256EEvPf"), "red$256");
        assert_eq!(kernel_name("_Z3redIfLi64EEvPT_"), "red$float_64");
        assert_eq!(kernel_name("_Z5scalePffi"), "scale");
        assert_eq!(kernel_name("scale"), "scale");
    }

    #[test]
    fn identifiers_and_declared_names() {
        assert_eq!(ident(&Name::from("x.addr")), "x.addr");
        assert_eq!(ident(&Name::from("a-b c")), "a_b_c");
        assert_eq!(ident(&Name::Number(7)), "7");
        assert_eq!(global_name("_ZZ3addPiiE1s"), "s");
        assert_eq!(global_name("_ZZ4mainE5tile_0"), "tile_");
        assert_eq!(global_name("weights"), "weights");
    }
}
