//! Fixed inputs of a run: kernel parameters, initial memory and constants, given by
//! `--inputs FILE.json` or by a caller replaying a counterexample.
//!
//! JSON shape: `{"params": {"n": 5}, "memory": {"A": {"0": 1, "1,2": 3, "*": 0}, "x": 4},
//! "consts": {"c": true}}`. Numbers become integers or bit-vectors according to the declared
//! type (bit-vectors modulo 2^width; strings such as `"5bv32"` or `"-3"` are accepted too); a map
//! is an object whose keys are comma-separated index lists and whose `"*"` entry is the value
//! of every other key (unwritten keys stay arbitrary otherwise).

use super::rng::{gen_value, Rng};
use super::types::{RTy, TyId};
use super::value::{MapDefault, MapKey, MapValue, Value};
use num_bigint::BigInt;
use std::rc::Rc;

/// A value as given by a user: typed only when it meets its declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum InputValue {
    Bool(bool),
    Int(BigInt),
    /// A real as a decimal string (`"1.5"`).
    Real(String),
    Map {
        entries: Vec<(Vec<InputValue>, InputValue)>,
        default: Option<Box<InputValue>>,
    },
}

/// Inputs by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Inputs {
    pub params: Vec<(String, InputValue)>,
    pub memory: Vec<(String, InputValue)>,
    pub consts: Vec<(String, InputValue)>,
}

impl Inputs {
    pub fn param(&self, name: &str) -> Option<&InputValue> {
        self.params.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
    pub fn memory(&self, name: &str) -> Option<&InputValue> {
        self.memory.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }
    pub fn constant(&self, name: &str) -> Option<&InputValue> {
        self.consts.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    /// Parses the JSON of `--inputs`.
    pub fn from_json(text: &str) -> Result<Inputs, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
        let obj = v.as_object().ok_or("the inputs must be a JSON object")?;
        let mut inputs = Inputs::default();
        for (section, val) in obj {
            let target = match section.as_str() {
                "params" => &mut inputs.params,
                "memory" => &mut inputs.memory,
                "consts" => &mut inputs.consts,
                other => return Err(format!("unknown section `{other}` (expected params, memory, consts)")),
            };
            let entries = val.as_object().ok_or_else(|| format!("`{section}` must be an object"))?;
            for (name, v) in entries {
                target.push((name.clone(), json_value(v).map_err(|e| format!("{section}.{name}: {e}"))?));
            }
        }
        Ok(inputs)
    }
}

fn scalar_from_str(s: &str) -> Result<InputValue, String> {
    let s = s.trim();
    match s {
        "true" => return Ok(InputValue::Bool(true)),
        "false" => return Ok(InputValue::Bool(false)),
        _ => {}
    }
    let digits = match s.find("bv") {
        Some(i) => &s[..i],
        None => s,
    };
    if digits.contains('.') || digits.contains('e') {
        return Ok(InputValue::Real(digits.to_string()));
    }
    digits.parse::<BigInt>().map(InputValue::Int).map_err(|_| format!("cannot read `{s}` as a value"))
}

fn json_value(v: &serde_json::Value) -> Result<InputValue, String> {
    use serde_json::Value as J;
    match v {
        J::Bool(b) => Ok(InputValue::Bool(*b)),
        J::Number(n) => scalar_from_str(&n.to_string()),
        J::String(s) => scalar_from_str(s),
        J::Object(o) => {
            let mut entries = Vec::new();
            let mut default = None;
            for (k, v) in o {
                let val = json_value(v)?;
                if k == "*" {
                    default = Some(Box::new(val));
                } else {
                    let key = k.split(',').map(scalar_from_str).collect::<Result<Vec<_>, _>>()?;
                    entries.push((key, val));
                }
            }
            Ok(InputValue::Map { entries, default })
        }
        J::Array(items) => {
            // `[a, b, c]`: the map 0 := a, 1 := b, 2 := c.
            let entries = items
                .iter()
                .enumerate()
                .map(|(i, v)| Ok((vec![InputValue::Int(i.into())], json_value(v)?)))
                .collect::<Result<Vec<_>, String>>()?;
            Ok(InputValue::Map { entries, default: None })
        }
        J::Null => Err("null is not a value".into()),
    }
}

/// Converts an input to a value of type `ty`; unwritten map keys stay arbitrary (from `rng`).
pub fn to_value(types: &[RTy], ty: TyId, v: &InputValue, rng: &mut Rng) -> Result<Value, String> {
    match (&types[ty as usize], v) {
        (RTy::Bool, InputValue::Bool(b)) => Ok(Value::Bool(*b)),
        (RTy::Int, InputValue::Int(i)) => Ok(Value::int(i.clone())),
        (RTy::Bv(w), InputValue::Int(i)) => Ok(Value::bv_from_bigint(*w, i)),
        (RTy::Bv(w), InputValue::Bool(b)) => Ok(Value::Bv(*w, *b as u128)),
        (RTy::Real, InputValue::Int(i)) => Ok(Value::real(num_rational::BigRational::from_integer(i.clone()))),
        (RTy::Real, InputValue::Real(s)) => {
            super::value::real::parse(s).map(Value::real).ok_or_else(|| format!("cannot read `{s}` as a real"))
        }
        (RTy::Opaque(t), InputValue::Int(i)) => Ok(Value::Opaque(*t, u64::try_from(i).map_err(|_| "negative id")?)),
        (RTy::Map { args, result }, InputValue::Map { entries, default }) => {
            let base = match default {
                Some(d) => MapDefault::Const(to_value(types, *result, d, rng)?),
                None => match gen_value(types, ty, rng) {
                    Value::Map(m) => m.default.clone(),
                    _ => unreachable!("a map type generates a map"),
                },
            };
            let mut m = MapValue::new(base);
            for (key, val) in entries {
                if key.len() != args.len() {
                    return Err(format!("a key has {} indices, the map takes {}", key.len(), args.len()));
                }
                let k =
                    key.iter().zip(args).map(|(k, t)| to_value(types, *t, k, rng)).collect::<Result<Vec<_>, _>>()?;
                m.entries.insert(MapKey::from_vec(k), to_value(types, *result, val, rng)?);
            }
            Ok(Value::Map(Rc::new(m)))
        }
        (t, v) => Err(format!("{v:?} is not a value of type {t:?}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_shape() {
        let i =
            Inputs::from_json(r#"{"params": {"n": 5, "b": "7bv8"}, "memory": {"A": {"0": 1, "*": 0}, "M": [1, 2]}}"#)
                .unwrap();
        assert_eq!(i.param("n"), Some(&InputValue::Int(5.into())));
        assert_eq!(i.param("b"), Some(&InputValue::Int(7.into())));
        let types = vec![RTy::Int, RTy::Bv(8), RTy::Map { args: vec![0], result: 1 }];
        let mut rng = Rng::new(0);
        let a = to_value(&types, 2, i.memory("A").unwrap(), &mut rng).unwrap();
        let Value::Map(m) = a else { panic!() };
        assert_eq!(m.entries.get(&MapKey::One(Value::Int(0))), Some(&Value::Bv(8, 1)));
        assert!(matches!(m.default, MapDefault::Const(Value::Bv(8, 0))));
        assert!(Inputs::from_json(r#"{"bogus": {}}"#).is_err());
        assert_eq!(to_value(&types, 1, &InputValue::Int((-1).into()), &mut rng), Ok(Value::Bv(8, 255)));
    }
}
