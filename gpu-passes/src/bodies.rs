//! The bodies a program transformation applies to: the kernels of a GPU program (a program
//! that declares `{:kernel}` procedures), every body otherwise; and the loop that lowers each
//! selected body to blocks, transforms it and puts it back in place.
//!
//! Why a module of its own: preprocessing ([`crate::preprocess`]), predication
//! ([`crate::predication`]) and the lock-step program ([`crate::lockstep`]) all select and
//! rewrite bodies the same way; here none of them depends on another for it.

use ivl::ast::*;
use ivl::blocks::BlockImpl;
use ivl::diag::Diagnostic;

/// Whether a program declares kernels (procedures or implementations with `{:kernel}`).
pub fn declares_kernels(p: &Program) -> bool {
    p.decls.iter().any(|d| match &d.kind {
        DeclKind::Procedure(pr) => has_attr(&pr.attrs, "kernel"),
        DeclKind::Implementation(i) => has_attr(&i.attrs, "kernel"),
        _ => false,
    })
}

/// Whether a program declares kernels; if so only they are transformed, else every body is.
pub fn is_selected(p: &Program, attrs: &[Attribute], name: &str, gpu: bool) -> bool {
    !gpu || has_attr(attrs, "kernel") || p.procedures().any(|pr| pr.name.name == name && has_attr(&pr.attrs, "kernel"))
}

/// Applies `f` to the block form of every selected body (the kernels of a GPU program, every
/// body otherwise) and puts the result back in place; collects the diagnostics of all bodies.
pub fn map_bodies(
    p: &Program,
    mut f: impl FnMut(&BlockImpl) -> Result<BlockImpl, Vec<Diagnostic>>,
) -> Result<Program, Vec<Diagnostic>> {
    let gpu = declares_kernels(p);
    let mut out = p.clone();
    let mut diags = Vec::new();
    for d in &mut out.decls {
        match &mut d.kind {
            DeclKind::Implementation(i) if is_selected(p, &i.attrs, &i.name.name, gpu) => {
                match ivl::lower::lower_body(i).and_then(|b| f(&b)) {
                    Ok(b) => i.body = b.to_body(),
                    Err(ds) => diags.extend(ds),
                }
            }
            DeclKind::Procedure(pr) if pr.body.is_some() && is_selected(p, &pr.attrs, &pr.name.name, gpu) => {
                match ivl::lower::lower_procedure_body(pr).and_then(|b| f(&b)) {
                    Ok(b) => pr.body = Some(b.to_body()),
                    Err(ds) => diags.extend(ds),
                }
            }
            _ => {}
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}
