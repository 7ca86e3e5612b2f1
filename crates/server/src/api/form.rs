//! The bodies lichess's endpoints take: form fields
//! (`application/x-www-form-urlencoded`, as lichess-bot sends them) or a
//! JSON object (as berserk sends them), read into one map of fields. A
//! field the endpoint does not know, a value of the wrong kind, or a body
//! over 16 KiB is refused with the field named; JSON `null` counts as
//! absent.

use std::collections::HashMap;

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};

use super::ApiError;

/// The largest body read.
const MOST_BYTES: usize = 16 * 1024;

/// The fields of one request body.
#[derive(Debug, Default)]
pub struct Fields {
    /// Text of each field.
    values: HashMap<String, String>,
}

/// A 400 naming what was wrong.
fn bad(message: String) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message)
}

impl Fields {
    /// Reads `body` as its `Content-Type` says, allowing only `known`
    /// field names.
    ///
    /// # Errors
    ///
    /// 400 for a body too large, not of its type, with an unknown field,
    /// a field twice, or a JSON value that is an object or a list.
    ///
    /// # Examples
    ///
    /// ```
    /// use axum::http::{HeaderMap, header};
    /// use rochade_server::api::form::Fields;
    /// let mut headers = HeaderMap::new();
    /// headers.insert(header::CONTENT_TYPE, "application/x-www-form-urlencoded".parse()?);
    /// let body = "rated=true&clock.limit=300".into();
    /// let fields = Fields::read(&headers, &body, &["rated", "clock.limit"]).map_err(|e| e.message)?;
    /// assert_eq!(fields.number("clock.limit").map_err(|e| e.message)?, Some(300));
    /// assert!(Fields::read(&headers, &"admin=1".into(), &["rated"]).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read(headers: &HeaderMap, body: &Bytes, known: &[&str]) -> Result<Fields, ApiError> {
        if body.len() > MOST_BYTES {
            return Err(bad(format!("the body is over {MOST_BYTES} bytes")));
        }
        let kind = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let mut fields = Fields {
            values: HashMap::new(),
        };
        let mut put = |name: String, value: Option<String>| fields.put(known, name, value);
        if body.iter().all(u8::is_ascii_whitespace) {
            // No body: no fields.
        } else if kind == "application/json" {
            let value = crate::json::strict_slice(body).map_err(|e| bad(format!("JSON: {e}")))?;
            let object = value
                .as_object()
                .ok_or_else(|| bad("the JSON body must be an object".into()))?;
            for (name, value) in object {
                let text = match value {
                    serde_json::Value::Null => None,
                    serde_json::Value::String(s) => Some(s.clone()),
                    serde_json::Value::Bool(b) => Some(b.to_string()),
                    serde_json::Value::Number(n) => Some(n.to_string()),
                    _ => return Err(bad(format!("`{name}`: a value, not an object or a list"))),
                };
                put(name.clone(), text)?;
            }
        } else {
            for (name, value) in form_urlencoded::parse(body) {
                put(name.into_owned(), Some(value.into_owned()))?;
            }
        }
        Ok(fields)
    }

    /// Reads a query string (`max=10&perfType=blitz`) whose names must be
    /// among `known`, each given at most once.
    ///
    /// # Errors
    ///
    /// A 400 naming an unknown or repeated field.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::api::form::Fields;
    /// let fields = Fields::query(Some("max=10&rated=true"), &["max", "rated"]).map_err(|e| e.message)?;
    /// assert_eq!(fields.number("max").map_err(|e| e.message)?, Some(10));
    /// assert!(Fields::query(Some("max=1&max=2"), &["max"]).is_err());
    /// assert!(Fields::query(None, &[]).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn query(raw: Option<&str>, known: &[&str]) -> Result<Fields, ApiError> {
        let mut fields = Fields {
            values: HashMap::new(),
        };
        for (name, value) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
            fields.put(known, name.into_owned(), Some(value.into_owned()))?;
        }
        Ok(fields)
    }

    /// Adds one field, refusing an unknown or repeated name.
    fn put(&mut self, known: &[&str], name: String, value: Option<String>) -> Result<(), ApiError> {
        if !known.contains(&name.as_str()) {
            return Err(bad(format!("unknown field `{name}`")));
        }
        if let Some(value) = value
            && self.values.insert(name.clone(), value).is_some()
        {
            return Err(bad(format!("the field `{name}` is given twice")));
        }
        Ok(())
    }

    /// The text of `name`, if given.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// A whole number, if given.
    ///
    /// # Errors
    ///
    /// 400 naming the field when it is not a whole number.
    pub fn number(&self, name: &str) -> Result<Option<u64>, ApiError> {
        self.text(name)
            .map(|t| {
                t.parse::<u64>()
                    .map_err(|_| bad(format!("`{name}`: `{t}` is not a whole number")))
            })
            .transpose()
    }

    /// `true` or `false` (in any case, as Python clients send `True`; or
    /// `1` and `0`), if given.
    ///
    /// # Errors
    ///
    /// 400 naming the field when it is neither.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::api::form::Fields;
    /// let fields = Fields::query(Some("a=True&b=0&c=maybe"), &["a", "b", "c"]).map_err(|e| e.message)?;
    /// assert_eq!(fields.boolean("a").map_err(|e| e.message)?, Some(true));
    /// assert_eq!(fields.boolean("b").map_err(|e| e.message)?, Some(false));
    /// assert!(fields.boolean("c").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn boolean(&self, name: &str) -> Result<Option<bool>, ApiError> {
        self.text(name)
            .map(|t| {
                if t.eq_ignore_ascii_case("true") || t == "1" {
                    Ok(true)
                } else if t.eq_ignore_ascii_case("false") || t == "0" {
                    Ok(false)
                } else {
                    Err(bad(format!("`{name}`: `{t}` is not true or false")))
                }
            })
            .transpose()
    }
}
