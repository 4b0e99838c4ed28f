//! `--kernel-args=K,v1,v2,...`: GPUVerify's option that fixes the scalar parameters of kernel
//! `K` to the given values (`*` leaves one unconstrained), as if the kernel were launched with
//! them. kivl adds `requires p == v;` for each fixed parameter to the kernel's procedure, so
//! every later pass (two-thread, lock-step, inference, the vacuity check that refuses a kernel
//! no thread can run) sees the values as preconditions.
//!
//! Values are integers (negative ones allowed); a bit-vector parameter gets the value modulo
//! 2^width (two's complement), as a C launch with that argument would. A kernel name that is
//! not a kernel, a wrong number of values, a value that is not an integer, or a parameter of
//! another type is a located `unsupported` diagnostic: a launch kivl cannot model is never
//! silently verified as another one.

use ivl::ast::*;
use ivl::diag::Diagnostic;

/// One `--kernel-args` value: the kernel and its parameters' values (`None`: `*`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct KernelArgs {
    pub kernel: String,
    pub values: Vec<Option<String>>,
}

impl std::str::FromStr for KernelArgs {
    type Err = String;

    /// `K,v1,v2,...` (GPUVerify's syntax).
    fn from_str(s: &str) -> Result<KernelArgs, String> {
        let mut parts = s.split(',').map(str::trim);
        let kernel = parts.next().filter(|k| !k.is_empty()).ok_or("expected KERNEL,VALUE,...")?.to_string();
        let values = parts.map(|v| (v != "*").then(|| v.to_string())).collect();
        Ok(KernelArgs { kernel, values })
    }
}

/// The program with `requires p == v;` on the named kernels.
pub fn apply(program: &Program, args: &[KernelArgs]) -> Result<Program, Vec<Diagnostic>> {
    let mut out = program.clone();
    let mut diags = Vec::new();
    for a in args {
        let proc = out.decls.iter_mut().find_map(|d| match &mut d.kind {
            DeclKind::Procedure(p) if p.name.name.as_str() == a.kernel && has_attr(&p.attrs, "kernel") => Some(p),
            _ => None,
        });
        let Some(p) = proc else {
            diags.push(Diagnostic::unsupported(
                format!("--kernel-args names `{}`, which is not a kernel of this file", a.kernel),
                Span::DUMMY,
            ));
            continue;
        };
        match requires(p, a) {
            Ok(cs) => p.contracts.extend(cs),
            Err(d) => diags.push(d),
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// The preconditions that fix `p`'s parameters.
fn requires(p: &ProcedureDecl, a: &KernelArgs) -> Result<Vec<Contract>, Diagnostic> {
    let span = p.name.span;
    if a.values.len() != p.ins.len() {
        return Err(Diagnostic::unsupported(
            format!(
                "--kernel-args gives {} value(s) for kernel `{}`, which has {} parameter(s)",
                a.values.len(),
                a.kernel,
                p.ins.len()
            ),
            span,
        ));
    }
    let mut out = Vec::new();
    for (param, value) in p.ins.iter().zip(&a.values) {
        let Some(v) = value else { continue };
        let lit = literal(&param.ty, v).ok_or_else(|| {
            Diagnostic::unsupported(
                format!("--kernel-args: cannot give parameter `{}` of `{}` the value `{v}`", param.name.name, a.kernel),
                param.name.span,
            )
        })?;
        let text = format!("{} == {lit}", param.name.name);
        let expr = ivl::parser::parse_expr(&text).map_err(|mut d| d.remove(0))?;
        out.push(Contract { kind: SpecKind::Requires, free: false, attrs: Vec::new(), expr, span });
    }
    Ok(out)
}

/// `v` as a number: decimal (negative too), or GPUVerify's hexadecimal `0x…` (the only form
/// GPUVerify takes: the value's bits, e.g. `0x00000003`).
fn number(v: &str) -> Option<i128> {
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(hex) => i128::from_str_radix(hex, 16).ok().filter(|_| !hex.starts_with(['+', '-'])),
        None => v.parse().ok(),
    }
}

/// `v` as a literal of type `ty` (`int` or `bvN`), or `None`.
fn literal(ty: &Type, v: &str) -> Option<String> {
    let n = number(v)?;
    match ty.kind {
        TypeKind::Int if n < 0 => Some(format!("(0 - {})", n.unsigned_abs())),
        TypeKind::Int => Some(n.to_string()),
        TypeKind::Bv(w) if w <= 64 => {
            let m = 1i128 << w;
            (-m / 2..m).contains(&n).then(|| format!("{}bv{w}", n.rem_euclid(m)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_gpuverify_syntax() {
        let a: KernelArgs = "foo,4,*,-1".parse().unwrap();
        assert_eq!(a.kernel, "foo");
        assert_eq!(a.values, vec![Some("4".into()), None, Some("-1".into())]);
        assert!("".parse::<KernelArgs>().is_err());
    }

    #[test]
    fn literals_follow_the_parameter_type() {
        let int = Type { kind: TypeKind::Int, span: Span::DUMMY };
        let bv8 = Type { kind: TypeKind::Bv(8), span: Span::DUMMY };
        assert_eq!(literal(&int, "-3").as_deref(), Some("(0 - 3)"));
        assert_eq!(literal(&bv8, "-1").as_deref(), Some("255bv8"));
        assert_eq!(literal(&bv8, "256"), None);
        assert_eq!(literal(&int, "x"), None);
        let bv32 = Type { kind: TypeKind::Bv(32), span: Span::DUMMY };
        assert_eq!(literal(&bv32, "0x00000003").as_deref(), Some("3bv32"));
        assert_eq!(literal(&bv32, "0xffffffff").as_deref(), Some("4294967295bv32"));
        assert_eq!(literal(&bv32, "0x100000000"), None);
        assert_eq!(literal(&bv32, "0x-1"), None);
    }
}
