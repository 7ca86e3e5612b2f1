//! The embedded default: one SQLite file, created and migrated on open.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};

use super::{Ended, PlayingGame, Storage, StorageError, StoredGame, Unfinished, WriteOp};
use crate::event::{Event, Timed};
use crate::setup::GameSetup;

/// Schema migrations, in order; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    "
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
",
    "
    -- Games with no room loaded: when to look at them next, without a replay.
    ALTER TABLE games ADD COLUMN last_at INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN wake_at INTEGER;
    -- Retention: when a game ended (Unix ms), and whether it was aborted
    -- before both sides moved.
    ALTER TABLE games ADD COLUMN ended INTEGER;
    ALTER TABLE games ADD COLUMN aborted INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET last_at = COALESCE((SELECT MAX(at) FROM events WHERE game = games.id), 0);
    -- Stored before this migration: looked at once at the next start.
    UPDATE games SET wake_at = last_at WHERE finished = 0;
    UPDATE games SET ended = epoch + last_at WHERE finished = 1;
    CREATE INDEX games_ended ON games(ended) WHERE ended IS NOT NULL;
",
    "
    -- Accounts: names unique without regard to case; secrets as digests only.
    CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        password TEXT,
        email TEXT,
        bot INTEGER NOT NULL DEFAULT 0,
        disabled INTEGER NOT NULL DEFAULT 0,
        created INTEGER NOT NULL
    );
    CREATE TABLE sessions (
        digest TEXT PRIMARY KEY,
        user INTEGER NOT NULL REFERENCES users(id),
        created INTEGER NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX sessions_user ON sessions(user);
    CREATE TABLE tokens (
        digest TEXT PRIMARY KEY,
        user INTEGER NOT NULL REFERENCES users(id),
        scopes TEXT NOT NULL,
        description TEXT NOT NULL,
        created INTEGER NOT NULL
    ) WITHOUT ROWID;
",
    "
    -- Games between accounts: who plays them.
    ALTER TABLE games ADD COLUMN white_user INTEGER REFERENCES users(id);
    ALTER TABLE games ADD COLUMN black_user INTEGER REFERENCES users(id);
    CREATE INDEX games_white_user ON games(white_user, finished) WHERE white_user IS NOT NULL;
    CREATE INDEX games_black_user ON games(black_user, finished) WHERE black_user IS NOT NULL;
",
    "
    -- What a player's list of games sorts and filters on.
    ALTER TABLE games ADD COLUMN created INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN perf TEXT;
    ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN result TEXT;
    UPDATE games SET created = epoch;
    CREATE INDEX games_white_created ON games(white_user, created) WHERE white_user IS NOT NULL;
    CREATE INDEX games_black_created ON games(black_user, created) WHERE black_user IS NOT NULL;
    -- Glicko-2 ratings: one row per account and category.
    CREATE TABLE ratings (
        user INTEGER NOT NULL REFERENCES users(id),
        perf TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (user, perf)
    ) WITHOUT ROWID;
    -- Every change a rated game made: the history chart and the games'
    -- rating columns. Kept when a game is purged.
    CREATE TABLE rating_changes (
        game TEXT NOT NULL,
        user INTEGER NOT NULL REFERENCES users(id),
        perf TEXT NOT NULL,
        at INTEGER NOT NULL,
        before REAL NOT NULL,
        after REAL NOT NULL,
        deviation REAL NOT NULL,
        PRIMARY KEY (game, user)
    ) WITHOUT ROWID;
    CREATE INDEX rating_changes_user ON rating_changes(user, at);
",
    // 6: leave (ICCF 10.1): booked days, and extra days granted per year.
    "
    CREATE TABLE leaves (
        id INTEGER PRIMARY KEY,
        user INTEGER NOT NULL REFERENCES users(id),
        first_day INTEGER NOT NULL,
        last_day INTEGER NOT NULL,
        booked INTEGER NOT NULL
    );
    CREATE INDEX leaves_user ON leaves(user, first_day);
    CREATE TABLE leave_grants (
        id INTEGER PRIMARY KEY,
        user INTEGER NOT NULL REFERENCES users(id),
        year INTEGER NOT NULL,
        days INTEGER NOT NULL,
        reason TEXT NOT NULL,
        by_name TEXT NOT NULL,
        at INTEGER NOT NULL
    );
    CREATE INDEX leave_grants_user ON leave_grants(user);
",
    // 7: each game at a glance, for a player's list of games without a replay.
    "
    ALTER TABLE games ADD COLUMN glance TEXT;
",
    // 8: notices waiting for an e-mail digest (at most one an hour each).
    "
    CREATE TABLE notices (
        id INTEGER PRIMARY KEY,
        user INTEGER NOT NULL REFERENCES users(id),
        key TEXT NOT NULL,
        game TEXT NOT NULL,
        text TEXT NOT NULL,
        at INTEGER NOT NULL,
        sent INTEGER,
        UNIQUE (user, key)
    );
    CREATE INDEX notices_unsent ON notices(user) WHERE sent IS NULL;
    ALTER TABLE users ADD COLUMN last_digest INTEGER;
    ALTER TABLE users ADD COLUMN lang TEXT NOT NULL DEFAULT 'en';
",
    // 9: tournaments and their directors (ICCF 14), the directors'
    // decisions, the players' requests to them (appeals, claims), and each
    // player's private notes on a game.
    "
    ALTER TABLE users ADD COLUMN director INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        director INTEGER NOT NULL REFERENCES users(id),
        settings TEXT NOT NULL,
        created INTEGER NOT NULL
    );
    ALTER TABLE games ADD COLUMN tournament TEXT REFERENCES tournaments(id);
    CREATE INDEX games_tournament ON games(tournament) WHERE tournament IS NOT NULL;
    CREATE TABLE decisions (
        id INTEGER PRIMARY KEY,
        tournament TEXT REFERENCES tournaments(id),
        game TEXT REFERENCES games(id),
        player INTEGER REFERENCES users(id),
        by INTEGER NOT NULL REFERENCES users(id),
        body TEXT NOT NULL,
        reason TEXT NOT NULL,
        at INTEGER NOT NULL
    );
    CREATE INDEX decisions_game ON decisions(game);
    CREATE INDEX decisions_tournament ON decisions(tournament);
    CREATE TABLE requests (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        game TEXT REFERENCES games(id),
        decision INTEGER REFERENCES decisions(id),
        tournament TEXT REFERENCES tournaments(id),
        by INTEGER NOT NULL REFERENCES users(id),
        message TEXT NOT NULL,
        at INTEGER NOT NULL,
        answer TEXT,
        answered INTEGER
    );
    CREATE INDEX requests_open ON requests(id) WHERE answered IS NULL;
    CREATE TABLE notes (
        user INTEGER NOT NULL REFERENCES users(id),
        game TEXT NOT NULL REFERENCES games(id),
        text TEXT NOT NULL,
        at INTEGER NOT NULL,
        PRIMARY KEY (user, game)
    ) WITHOUT ROWID;
",
    // 10: each player's own thresholds for "time running low" (JSON, ms).
    "ALTER TABLE users ADD COLUMN low_time TEXT;",
    // 11: simultaneous exhibitions, and the simul each board's game is of.
    "
    CREATE TABLE simuls (
        id TEXT PRIMARY KEY,
        host INTEGER NOT NULL REFERENCES users(id),
        status TEXT NOT NULL,
        settings TEXT NOT NULL,
        revision INTEGER NOT NULL,
        created INTEGER NOT NULL
    );
    CREATE INDEX simuls_host ON simuls(host, status);
    CREATE INDEX simuls_created ON simuls(created);
    ALTER TABLE games ADD COLUMN simul TEXT REFERENCES simuls(id);
    CREATE INDEX games_simul ON games(simul) WHERE simul IS NOT NULL;
",
];

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
    /// The connection the writer uses (and the rare account writes).
    pub(super) writer: Mutex<Connection>,
    /// The connection for reads.
    pub(super) reader: Mutex<Connection>,
    /// The connection that moves the write-ahead log into the database.
    checkpointer: Mutex<Connection>,
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
        // Checkpoints run beside the writer (see `maintain`), never inside
        // a commit that players wait for.
        writer.pragma_update(None, "wal_autocheckpoint", 0)?;
        let reader = connect(path)?;
        let checkpointer = connect(path)?;
        Ok(SqliteStorage {
            writer: Mutex::new(writer),
            reader: Mutex::new(reader),
            checkpointer: Mutex::new(checkpointer),
        })
    }
}

/// Reads a JSON column, naming the game (or what else) if it is corrupt.
pub(super) fn from_json<T: serde::de::DeserializeOwned>(
    game: &str,
    text: &str,
) -> Result<T, StorageError> {
    serde_json::from_str(text).map_err(|e| StorageError::Corrupt {
        game: game.to_owned(),
        reason: e.to_string(),
    })
}

/// The columns `id, setup, epoch, glance` of a game's row, as read.
pub(super) fn playing_row(
    r: &rusqlite::Row<'_>,
) -> rusqlite::Result<(String, String, i64, Option<String>)> {
    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
}

/// A list entry from the columns `id, setup, epoch, glance` of a game.
pub(super) fn playing_of(
    id: &str,
    setup: &str,
    epoch: i64,
    glance: Option<&str>,
) -> Result<PlayingGame, StorageError> {
    Ok(PlayingGame {
        setup: from_json(id, setup)?,
        epoch: epoch as u64,
        glance: glance.map(|g| from_json(id, g)).transpose()?,
    })
}

/// Writes a value as JSON (our own types always serialise).
pub(super) fn to_json<T: serde::Serialize>(game: &str, value: &T) -> Result<String, StorageError> {
    serde_json::to_string(value).map_err(|e| StorageError::Corrupt {
        game: game.to_owned(),
        reason: e.to_string(),
    })
}

/// Deletes up to `most` finished games kept long enough, with their events.
fn purge(
    tx: &rusqlite::Transaction<'_>,
    aborted_before: u64,
    finished_before: Option<u64>,
    most: usize,
) -> Result<(), StorageError> {
    tx.execute(
        "CREATE TEMP TABLE IF NOT EXISTS purged (id TEXT PRIMARY KEY) WITHOUT ROWID",
        [],
    )?;
    tx.execute("DELETE FROM purged", [])?;
    tx.execute(
        "INSERT INTO purged SELECT id FROM games WHERE ended IS NOT NULL
           AND ((aborted = 1 AND ended < ?1)
                OR (aborted = 0 AND ended < ?2
                    AND white_user IS NULL AND black_user IS NULL))
           -- A director's decision or a player's request keeps its game.
           AND id NOT IN (SELECT game FROM decisions WHERE game IS NOT NULL)
           AND id NOT IN (SELECT game FROM requests WHERE game IS NOT NULL)
         LIMIT ?3",
        params![
            aborted_before as i64,
            finished_before.map_or(i64::MIN, |f| f as i64),
            most as i64
        ],
    )?;
    tx.execute(
        "DELETE FROM events WHERE game IN (SELECT id FROM purged)",
        [],
    )?;
    tx.execute(
        "DELETE FROM notes WHERE game IN (SELECT id FROM purged)",
        [],
    )?;
    tx.execute("DELETE FROM games WHERE id IN (SELECT id FROM purged)", [])?;
    Ok(())
}

impl Storage for SqliteStorage {
    fn write(&self, ops: &[WriteOp], alive: u64) -> Result<(), StorageError> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let tx = conn.transaction()?;
        {
            let mut create = tx.prepare_cached(
                "INSERT INTO games (id, setup, invite, epoch, wake_at, white_user, black_user,
                                    created, perf, rated, glance, tournament, simul)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?;
            let mut append = tx.prepare_cached(
                "INSERT INTO events (game, seq, at, body) VALUES (?1, ?2, ?3, ?4)",
            )?;
            let mut progress = tx.prepare_cached(
                "UPDATE games SET last_at = ?2, wake_at = ?3, glance = COALESCE(?4, glance)
                 WHERE id = ?1",
            )?;
            let mut finish = tx.prepare_cached(
                "UPDATE games SET finished = 1, wake_at = NULL, ended = ?2, aborted = ?3, result = ?4
                 WHERE id = ?1",
            )?;
            let mut epoch_of = tx.prepare_cached("UPDATE games SET epoch = ?2 WHERE id = ?1")?;
            let mut seat_user = tx.prepare_cached(
                "UPDATE games SET white_user = CASE WHEN ?2 THEN ?3 ELSE white_user END,
                                  black_user = CASE WHEN ?2 THEN black_user ELSE ?3 END
                 WHERE id = ?1",
            )?;
            for op in ops {
                match op {
                    WriteOp::Create {
                        setup,
                        epoch,
                        wake_at,
                        glance,
                    } => {
                        let json = to_json(&setup.id, setup)?;
                        create.execute(params![
                            setup.id,
                            json,
                            setup.invite,
                            *epoch as i64,
                            wake_at.map(|w| w as i64),
                            setup.white_player.as_ref().map(|p| p.id),
                            setup.black_player.as_ref().map(|p| p.id),
                            *epoch as i64,
                            setup.perf().key(),
                            setup.rated,
                            glance,
                            setup.tournament.as_ref().map(|t| &t.id),
                            setup.simul.as_ref().map(|s| &s.id)
                        ])?;
                    }
                    WriteOp::Append {
                        game,
                        seq,
                        event,
                        ended,
                        result,
                        wake_at,
                        glance,
                    } => {
                        let body = to_json(game, &event.event)?;
                        append.execute(params![game, *seq as i64, event.at as i64, body])?;
                        if let Event::Seat {
                            color,
                            player: Some(player),
                        } = &event.event
                        {
                            seat_user.execute(params![
                                game,
                                *color == crate::setup::Side::White,
                                player.id
                            ])?;
                        }
                        progress.execute(params![
                            game,
                            event.at as i64,
                            wake_at.map(|w| w as i64),
                            glance
                        ])?;
                        if let Some(ended) = ended {
                            finish.execute(params![
                                game,
                                alive as i64,
                                *ended == Ended::Aborted,
                                result.map(|r| r.as_str())
                            ])?;
                            if let Some(result) = result {
                                super::sqlite_history::rate_game(&tx, game, *result, alive)?;
                            }
                        }
                    }
                    WriteOp::Session {
                        digest,
                        user,
                        created,
                    } => {
                        tx.execute(
                            "INSERT INTO sessions (digest, user, created) VALUES (?1, ?2, ?3)",
                            params![digest, user, *created as i64],
                        )?;
                    }
                    WriteOp::Epoch { game, epoch } => {
                        epoch_of.execute(params![game, *epoch as i64])?;
                    }
                    WriteOp::Purge {
                        aborted_before,
                        finished_before,
                        most,
                    } => purge(&tx, *aborted_before, *finished_before, *most)?,
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

    fn unfinished(&self) -> Result<Vec<Unfinished>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt =
            conn.prepare("SELECT id, epoch, last_at, wake_at FROM games WHERE finished = 0")?;
        let games = stmt
            .query_map([], |r| {
                Ok(Unfinished {
                    id: r.get(0)?,
                    epoch: r.get::<_, i64>(1)? as u64,
                    last_at: r.get::<_, i64>(2)? as u64,
                    wake_at: r.get::<_, Option<i64>>(3)?.map(|w| w as u64),
                })
            })?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(games)
    }

    fn playing(&self, user: i64) -> Result<Vec<String>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT id FROM games WHERE finished = 0 AND white_user = ?1
             UNION ALL SELECT id FROM games WHERE finished = 0 AND black_user = ?1",
        )?;
        let ids = stmt
            .query_map(params![user], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    fn playing_glances(&self, user: i64) -> Result<Vec<PlayingGame>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT id, setup, epoch, glance FROM games WHERE finished = 0 AND white_user = ?1
             UNION ALL
             SELECT id, setup, epoch, glance FROM games WHERE finished = 0 AND black_user = ?1",
        )?;
        let rows = stmt
            .query_map(params![user], playing_row)?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(id, setup, epoch, glance)| playing_of(&id, &setup, epoch, glance.as_deref()))
            .collect()
    }

    fn count(&self) -> Result<u64, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        Ok(conn.query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0))? as u64)
    }

    fn maintain(&self) -> Result<(), StorageError> {
        let conn = self.checkpointer.lock().unwrap_or_else(|e| e.into_inner());
        conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        Ok(())
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
