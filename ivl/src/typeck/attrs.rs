//! Type checking of attributes: their expression arguments, and the attributes whose arguments
//! Boogie checks (`{:verified_under e}`, `{:nopats e}`, `{:minimize e}`, `{:maximize e}`).
//!
//! Separate because every declaration, local and statement carries attributes, checked in a
//! context of their own ([`Ctx::ATTR`]).

use super::*;

impl Checker<'_> {
    /// Resolves and type-checks attribute arguments, and the attributes whose arguments Boogie
    /// checks: `{:verified_under e}` (one `bool`) and `{:nopats e}` (one expression).
    pub fn attrs(&mut self, attrs: &[Attribute]) {
        for a in attrs {
            let one_expr = matches!(a.args.as_slice(), [AttrArg::Expr(_)]);
            match a.name.as_str() {
                "verified_under" if !one_expr => {
                    self.type_error(
                        "attribute `{:verified_under}` takes exactly one argument, of type `bool`",
                        a.span,
                        "write `{:verified_under e}`",
                    );
                }
                "verified_under" => {
                    if let [AttrArg::Expr(e)] = a.args.as_slice() {
                        let saved = self.ctx;
                        self.ctx = Ctx::ATTR;
                        self.expect_bool(e, "the argument of `{:verified_under}`");
                        self.ctx = saved;
                    }
                }
                "minimize" | "maximize" if a.args.len() != 1 => {
                    self.type_error(
                        format!("attribute `{{:{}}}` takes exactly one argument", a.name.name),
                        a.span,
                        "one expression to optimize",
                    );
                }
                "nopats" if !one_expr => {
                    self.type_error(
                        "attribute `{:nopats}` takes exactly one expression",
                        a.span,
                        "write one `{:nopats e}` per excluded pattern",
                    );
                }
                _ => {}
            }
        }
        if attrs
            .iter()
            .all(|a| a.name.as_str() == "verified_under" || a.args.iter().all(|x| matches!(x, AttrArg::String(..))))
        {
            return;
        }
        let saved = self.ctx;
        self.ctx = Ctx { no_old: None, no_globals: None, spec: true, trigger: false };
        for a in attrs.iter().filter(|a| a.name.as_str() != "verified_under") {
            let optimize = matches!(a.name.as_str(), "minimize" | "maximize") && a.args.len() == 1;
            for arg in &a.args {
                if let AttrArg::Expr(x) = arg {
                    let t = self.expr(x);
                    if optimize && !matches!(t, Ty::Int | Ty::Real | Ty::Bv(_) | Ty::Error) {
                        self.type_error(
                            format!(
                                "the argument of `{{:{}}}` must be of type `int`, `real` or `bvN`, found `{t}`",
                                a.name.name
                            ),
                            x.span,
                            "the value to optimize",
                        );
                    }
                }
            }
        }
        self.ctx = saved;
    }
}
