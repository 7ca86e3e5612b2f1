//! JSON as the server reads it from the outside: a key may appear once per
//! object. serde_json keeps the last of duplicate keys, so
//! `{"t":"move","t":"resign"}` read as a resignation; here it is refused,
//! with the key and the place.
//!
//! ```
//! use rochade_server::json::strict;
//! assert!(strict(r#"{"t":"move","ply":0}"#).is_ok());
//! let e = strict(r#"{"t":"move","t":"resign"}"#).unwrap_err();
//! assert!(e.contains("duplicate key `t`"), "{e}");
//! ```

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Reads `text` as JSON, refusing an object with a key twice.
///
/// # Errors
///
/// serde_json's message (with line and column) for text that is not JSON
/// or has a duplicate key.
pub fn strict(text: &str) -> Result<Value, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = StrictValue
        .deserialize(&mut de)
        .map_err(|e| e.to_string())?;
    de.end().map_err(|e| e.to_string())?;
    Ok(value)
}

/// Like [`strict`], for bytes (HTTP bodies).
///
/// # Errors
///
/// As [`strict`], and for bytes that are not UTF-8.
pub fn strict_slice(bytes: &[u8]) -> Result<Value, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8: {e}"))?;
    strict(text)
}

/// A [`Value`] that refuses duplicate keys at any depth.
struct StrictValue;

impl<'de> DeserializeSeed<'de> for StrictValue {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for StrictValue {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(StrictValue)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format_args!("duplicate key `{key}`")));
            }
            let value = map.next_value_seed(StrictValue)?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// `value` as a `T`; an error names the field at fault by its path
/// (`` `clock.limit`: invalid type… ``).
///
/// # Errors
///
/// What does not fit `T`, with the path of the field.
///
/// # Examples
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Terms { rated: bool }
/// let value = serde_json::json!({"rated": "yes"});
/// let e = rochade_server::json::typed::<Terms>(value).err().unwrap_or_default();
/// assert!(e.starts_with("`rated`: invalid type"), "{e}");
/// ```
pub fn typed<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, String> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            e.into_inner().to_string()
        } else {
            format!("`{path}`: {}", e.into_inner())
        }
    })
}

/// A page's JSON request body of type `T` (empty: `{}`), refused as
/// `bad_request` saying `what` and which field is wrong.
///
/// # Errors
///
/// [`ErrorCode::BadRequest`](crate::error::ErrorCode::BadRequest) with the
/// place and the reason.
///
/// ```
/// #[derive(serde::Deserialize)]
/// struct Leave { from: String }
/// let e = rochade_server::json::body::<Leave>(b"{\"from\": 7}", "leave").err().expect("refused");
/// assert!(e.message.starts_with("leave: `from`"), "{}", e.message);
/// ```
pub fn body<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    what: &str,
) -> Result<T, crate::error::ActionError> {
    let bad = |e: String| {
        crate::error::ActionError::new(crate::error::ErrorCode::BadRequest, format!("{what}: {e}"))
    };
    let text = if bytes.iter().all(u8::is_ascii_whitespace) {
        &b"{}"[..]
    } else {
        bytes
    };
    typed(strict_slice(text).map_err(bad)?).map_err(bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_found_at_any_depth() {
        let e = strict(r#"{"a":{"b":1,"b":2}}"#).expect_err("nested duplicate");
        assert!(
            e.contains("duplicate key `b`") && e.contains("column"),
            "{e}"
        );
        assert!(strict(r#"[{"a":1},{"a":2}]"#).is_ok());
    }

    #[test]
    fn values_read_as_serde_json_reads_them() {
        let text = r#"{"n":-3,"u":18446744073709551615,"f":0.5,"s":"x","z":null,"l":[true]}"#;
        assert_eq!(
            strict(text),
            Ok(serde_json::from_str::<Value>(text).expect("json"))
        );
        assert!(strict("{} trailing").is_err());
        assert!(strict_slice(b"\xff").is_err());
    }
}
