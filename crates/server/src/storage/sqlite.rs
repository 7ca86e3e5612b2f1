//! The embedded default: one SQLite file, created and migrated on open.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use super::{Storage, StorageError, StoredGame, WriteOp};
use crate::event::Timed;
use crate::setup::GameSetup;

/// Schema migrations, in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &["
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        setup TEXT NOT NULL,
        invite TEXT UNIQUE,
        epoch INTEGER NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE events (
        game TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (game, seq)
    ) WITHOUT ROWID;
    CREATE INDEX games_unfinished ON games(finished) WHERE finished = 0;
    CREATE TABLE alive (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);
"];

/// Games in a SQLite database.
///
/// # Examples
///
/// ```
/// use rochade_server::storage::{SqliteStorage, Storage};
/// let dir = std::env::temp_dir().join(format!("rochade-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let storage = SqliteStorage::open(&dir.join("doc.sqlite"))?;
/// assert!(storage.unfinished()?.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SqliteStorage {
    /// The connection the writer uses.
    writer: Mutex<Connection>,
    /// The connection for reads.
    reader: Mutex<Connection>,
}

/// Opens a connection with the pragmas every connection needs.
fn connect(path: &Path) -> Result<Connection, StorageError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // FULL: a commit is on disk before it returns, so an acknowledged move
    // survives even a power cut.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// Applies the migrations not yet applied.
fn migrate(conn: &mut Connection) -> Result<(), StorageError> {
    let applied: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(applied.max(0) as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

impl SqliteStorage {
    /// Opens (creating and migrating if needed) the database at `path`.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened or migrated.
    pub fn open(path: &Path) -> Result<SqliteStorage, StorageError> {
        let mut writer = connect(path)?;
        migrate(&mut writer)?;
        let reader = connect(path)?;
        Ok(SqliteStorage {
            writer: Mutex::new(writer),
            reader: Mutex::new(reader),
        })
    }
}

/// Reads a JSON column, naming the game if it is corrupt.
fn from_json<T: serde::de::DeserializeOwned>(game: &str, text: &str) -> Result<T, StorageError> {
    serde_json::from_str(text).map_err(|e| StorageError::Corrupt {
        game: game.to_owned(),
        reason: e.to_string(),
    })
}

/// Writes a value as JSON (our own types always serialise).
fn to_json<T: serde::Serialize>(game: &str, value: &T) -> Result<String, StorageError> {
    serde_json::to_string(value).map_err(|e| StorageError::Corrupt {
        game: game.to_owned(),
        reason: e.to_string(),
    })
}

impl Storage for SqliteStorage {
    fn write(&self, ops: &[WriteOp], alive: u64) -> Result<(), StorageError> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction()?;
        {
            let mut create = tx.prepare_cached(
                "INSERT INTO games (id, setup, invite, epoch) VALUES (?1, ?2, ?3, ?4)",
            )?;
            let mut append = tx.prepare_cached(
                "INSERT INTO events (game, seq, at, body) VALUES (?1, ?2, ?3, ?4)",
            )?;
            let mut finish = tx.prepare_cached("UPDATE games SET finished = 1 WHERE id = ?1")?;
            let mut epoch_of = tx.prepare_cached("UPDATE games SET epoch = ?2 WHERE id = ?1")?;
            for op in ops {
                match op {
                    WriteOp::Create { setup, epoch } => {
                        let json = to_json(&setup.id, setup)?;
                        create.execute(params![setup.id, json, setup.invite, *epoch as i64])?;
                    }
                    WriteOp::Append {
                        game,
                        seq,
                        event,
                        finished,
                    } => {
                        let body = to_json(game, &event.event)?;
                        append.execute(params![game, *seq as i64, event.at as i64, body])?;
                        if *finished {
                            finish.execute(params![game])?;
                        }
                    }
                    WriteOp::Epoch { game, epoch } => {
                        epoch_of.execute(params![game, *epoch as i64])?;
                    }
                }
            }
            tx.execute(
                "INSERT INTO alive (id, at) VALUES (1, ?1) ON CONFLICT(id) DO UPDATE SET at = ?1",
                params![alive as i64],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let row = conn
            .query_row(
                "SELECT setup, epoch, finished FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, bool>(2)?,
                    ))
                },
            )
            .optional()?;
        let Some((setup, epoch, finished)) = row else {
            return Ok(None);
        };
        let setup: GameSetup = from_json(id, &setup)?;
        let mut stmt =
            conn.prepare_cached("SELECT seq, at, body FROM events WHERE game = ?1 ORDER BY seq")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?;
        let mut events = Vec::new();
        for (i, row) in rows.enumerate() {
            let (seq, at, body) = row?;
            if seq != i as i64 {
                return Err(StorageError::Corrupt {
                    game: id.to_owned(),
                    reason: format!("event {seq} where {i} was expected"),
                });
            }
            events.push(Timed {
                at: at as u64,
                event: from_json(id, &body)?,
            });
        }
        Ok(Some(StoredGame {
            setup,
            epoch: epoch as u64,
            events,
            finished,
        }))
    }

    fn find_invite(&self, invite: &str) -> Result<Option<String>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn
            .query_row(
                "SELECT id FROM games WHERE invite = ?1",
                params![invite],
                |r| r.get(0),
            )
            .optional()?)
    }

    fn unfinished(&self) -> Result<Vec<String>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare("SELECT id FROM games WHERE finished = 0")?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    fn last_alive(&self) -> Result<Option<u64>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn
            .query_row("SELECT at FROM alive WHERE id = 1", [], |r| {
                r.get::<_, i64>(0)
            })
            .optional()?
            .map(|at| at as u64))
    }
}
