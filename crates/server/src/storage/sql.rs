//! The SQL both databases speak: values, rows, and a connection that runs a
//! statement, so that every query is written once for SQLite and
//! PostgreSQL alike.
//!
//! Statements are written with SQLite's numbered parameters (`?1`, `?2`);
//! the PostgreSQL backend turns them into `$1`, `$2`. What the two dialects
//! spell differently is asked of [`Conn::dialect`] (only the tournaments'
//! JSON filter needs it). Flags are stored as integers 0 and 1 in both, and
//! column names that PostgreSQL reserves (`user`) are quoted.

use super::StorageError;

/// A value going into or coming out of a statement.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    /// SQL `NULL`.
    Null,
    /// An integer (flags are 0 and 1).
    Int(i64),
    /// A floating-point number.
    Real(f64),
    /// Text (JSON columns included).
    Text(String),
}

impl From<i64> for Value {
    fn from(v: i64) -> Value {
        Value::Int(v)
    }
}

impl From<i32> for Value {
    fn from(v: i32) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<u32> for Value {
    fn from(v: u32) -> Value {
        Value::Int(i64::from(v))
    }
}

/// Unix milliseconds and counts: stored as SQL's signed 64 bits.
impl From<u64> for Value {
    fn from(v: u64) -> Value {
        Value::Int(v as i64)
    }
}

impl From<usize> for Value {
    fn from(v: usize) -> Value {
        Value::Int(v.min(i64::MAX as usize) as i64)
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Int(i64::from(v))
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Real(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}

impl From<&String> for Value {
    fn from(v: &String) -> Value {
        Value::Text(v.clone())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl<T: Clone + Into<Value>> From<&Option<T>> for Value {
    fn from(v: &Option<T>) -> Value {
        v.clone().map_or(Value::Null, Into::into)
    }
}

/// Refuses `params` when a text among them holds the NUL character,
/// which PostgreSQL refuses (SQLite would take it): the same answer on
/// both backends, before the statement runs.
pub(crate) fn no_nul(params: &[Value]) -> Result<(), StorageError> {
    match params.iter().find_map(|p| match p {
        Value::Text(t) if t.contains('\0') => Some(t),
        _ => None,
    }) {
        Some(text) => {
            let head: String = text.chars().take(40).collect();
            Err(StorageError::Nul(format!("{head:?}")))
        }
        None => Ok(()),
    }
}

/// The parameters of a statement: `vals![a, b, c]`.
macro_rules! vals {
    ($($v:expr),* $(,)?) => {
        &[$($crate::storage::sql::Value::from($v)),*]
    };
}
pub(crate) use vals;

/// One row of a result, its columns in the statement's order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Row(pub(crate) Vec<Value>);

impl Row {
    /// Column `i`, or a corrupt-row error naming it.
    fn at(&self, i: usize) -> Result<&Value, StorageError> {
        self.0.get(i).ok_or_else(|| corrupt(i, "is missing"))
    }

    /// An integer column.
    pub(crate) fn int(&self, i: usize) -> Result<i64, StorageError> {
        match self.at(i)? {
            Value::Int(v) => Ok(*v),
            other => Err(corrupt(i, &format!("is {other:?}, not an integer"))),
        }
    }

    /// An integer column that may be `NULL`.
    pub(crate) fn opt_int(&self, i: usize) -> Result<Option<i64>, StorageError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            _ => self.int(i).map(Some),
        }
    }

    /// An integer column that counts time or things (never negative).
    pub(crate) fn uint(&self, i: usize) -> Result<u64, StorageError> {
        Ok(self.int(i)? as u64)
    }

    /// A flag column (0 or 1).
    pub(crate) fn flag(&self, i: usize) -> Result<bool, StorageError> {
        Ok(self.int(i)? != 0)
    }

    /// A floating-point column (an integer reads as one too).
    pub(crate) fn real(&self, i: usize) -> Result<f64, StorageError> {
        match self.at(i)? {
            Value::Real(v) => Ok(*v),
            Value::Int(v) => Ok(*v as f64),
            other => Err(corrupt(i, &format!("is {other:?}, not a number"))),
        }
    }

    /// A text column.
    pub(crate) fn text(&self, i: usize) -> Result<String, StorageError> {
        match self.at(i)? {
            Value::Text(v) => Ok(v.clone()),
            other => Err(corrupt(i, &format!("is {other:?}, not text"))),
        }
    }

    /// A text column that may be `NULL`.
    pub(crate) fn opt_text(&self, i: usize) -> Result<Option<String>, StorageError> {
        match self.at(i)? {
            Value::Null => Ok(None),
            _ => self.text(i).map(Some),
        }
    }
}

/// A column that does not read as its query expects.
fn corrupt(column: usize, what: &str) -> StorageError {
    StorageError::Corrupt {
        game: String::new(),
        reason: format!("column {column} {what}"),
    }
}

/// Which SQL a connection speaks, where the two differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    /// The embedded default.
    Sqlite,
    /// For several nodes.
    Postgres,
}

/// A connection (or the transaction open on it) that runs statements.
pub(crate) trait Conn {
    /// Which SQL it speaks.
    fn dialect(&self) -> Dialect;

    /// Runs a statement; returns how many rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StorageError>;

    /// Runs a query; returns every row.
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StorageError>;

    /// The first row of a query, if any.
    fn query_opt(&mut self, sql: &str, params: &[Value]) -> Result<Option<Row>, StorageError> {
        Ok(self.query(sql, params)?.into_iter().next())
    }

    /// The one row a query always returns (an aggregate, say).
    fn query_one(&mut self, sql: &str, params: &[Value]) -> Result<Row, StorageError> {
        self.query_opt(sql, params)?
            .ok_or_else(|| StorageError::Corrupt {
                game: String::new(),
                reason: format!("no row from {sql}"),
            })
    }
}

/// Where the storage's connections come from: a read, or a write inside
/// one transaction (committed when `f` succeeds, rolled back when it fails).
pub(crate) trait Backend: Send + Sync + std::fmt::Debug {
    /// Runs `f` on a connection for reading.
    fn read(
        &self,
        f: &mut dyn FnMut(&mut dyn Conn) -> Result<(), StorageError>,
    ) -> Result<(), StorageError>;

    /// Runs `f` in a transaction on the connection for writing.
    fn write(
        &self,
        f: &mut dyn FnMut(&mut dyn Conn) -> Result<(), StorageError>,
    ) -> Result<(), StorageError>;

    /// Housekeeping off the write path, every second.
    fn maintain(&self) -> Result<(), StorageError>;
}

/// Runs `f` once through a backend's `read` or `write`, keeping its answer.
pub(crate) fn once<T>(
    run: impl FnOnce(
        &mut dyn FnMut(&mut dyn Conn) -> Result<(), StorageError>,
    ) -> Result<(), StorageError>,
    f: impl FnOnce(&mut dyn Conn) -> Result<T, StorageError>,
) -> Result<T, StorageError> {
    let mut f = Some(f);
    let mut answer = None;
    run(&mut |conn| {
        let f = f.take().ok_or(StorageError::Closed)?;
        answer = Some(f(conn)?);
        Ok(())
    })?;
    answer.ok_or(StorageError::Closed)
}

/// SQLite's numbered parameters (`?1`) as PostgreSQL's (`$1`); a `?`
/// inside a quoted string stays as it is.
///
/// ```ignore
/// assert_eq!(numbered("a = ?1 AND b = '?2'"), "a = $1 AND b = '?2'");
/// ```
pub(crate) fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut quoted = false;
    for c in sql.chars() {
        match c {
            '\'' => quoted = !quoted,
            '?' if !quoted => {
                out.push('$');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_with_a_nul_is_refused_before_either_backend_sees_it() {
        // PostgreSQL answered 22021 ("invalid byte sequence"), a server
        // error, to a game id of "%00" in a path; SQLite took it.
        let storage = crate::storage::SqliteStorage::open(
            &crate::storage::scratch_dir("nul-test").join("games.sqlite"),
        )
        .expect("opens");
        use crate::storage::{AccountStore, Storage};
        assert!(matches!(storage.load("a\0b"), Err(StorageError::Nul(_))));
        assert!(matches!(storage.user("\0"), Err(StorageError::Nul(_))));
        assert!(matches!(storage.load("ab"), Ok(None)));
        let e = crate::ActionError::from(StorageError::Nul("\"a\\0b\"".into()));
        assert_eq!(e.code, crate::ErrorCode::BadRequest);
        assert_eq!(
            no_nul(&[Value::Int(0), Value::Text("x".into())]).ok(),
            Some(())
        );
    }

    #[test]
    fn numbered_parameters_become_dollars_outside_strings() {
        assert_eq!(
            numbered("UPDATE t SET a = ?2 WHERE id = ?1 AND s = 'who?'"),
            "UPDATE t SET a = $2 WHERE id = $1 AND s = 'who?'"
        );
    }

    #[test]
    fn rows_read_their_types_and_name_a_wrong_column() {
        let row = Row(vec![
            Value::Int(3),
            Value::Null,
            Value::Text("x".into()),
            Value::Real(1.5),
        ]);
        assert_eq!(row.int(0).unwrap(), 3);
        assert!(row.flag(0).unwrap());
        assert_eq!(row.opt_int(1).unwrap(), None);
        assert_eq!(row.text(2).unwrap(), "x");
        assert_eq!(row.real(3).unwrap(), 1.5);
        assert_eq!(row.real(0).unwrap(), 3.0);
        let wrong = row.int(2).unwrap_err().to_string();
        assert!(wrong.contains("column 2"), "{wrong}");
        assert!(row.text(9).unwrap_err().to_string().contains("column 9"));
    }

    #[test]
    fn values_from_rust_types() {
        let v: &[Value] = vals![1_i64, true, "a", None::<i64>, Some(2_u64), 0.5];
        assert_eq!(
            v,
            &[
                Value::Int(1),
                Value::Int(1),
                Value::Text("a".into()),
                Value::Null,
                Value::Int(2),
                Value::Real(0.5)
            ]
        );
    }
}
