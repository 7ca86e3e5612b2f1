//! The embedded default: one SQLite file, created and migrated on open.
//! Its connections run the statements of the `sql_*` files (see [`super::sql`]).

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rusqlite::Connection;
use rusqlite::types::{ToSqlOutput, ValueRef};

use super::StorageError;
use super::sql::{Backend, Conn, Dialect, Row, Value};

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
    // 12: several nodes: each node's last heartbeat, and the node that
    // owns each game (its lease: good while that node's heartbeat is fresh).
    "
    CREATE TABLE nodes (name TEXT PRIMARY KEY, alive_at INTEGER NOT NULL);
    ALTER TABLE games ADD COLUMN node TEXT;
    CREATE INDEX games_node ON games(node, finished) WHERE node IS NOT NULL;
",
    // 13: open challenges between accounts, kept where every node (and a
    // restart) finds them.
    "
    CREATE TABLE challenges (
        id TEXT PRIMARY KEY,
        challenger INTEGER NOT NULL,
        dest INTEGER NOT NULL,
        body TEXT NOT NULL,
        made INTEGER NOT NULL
    );
    CREATE INDEX challenges_challenger ON challenges(challenger);
    CREATE INDEX challenges_dest ON challenges(dest);
    CREATE INDEX challenges_made ON challenges(made);
",
    // 14: a node that stops (SIGTERM) hands its games over at once, not
    // after its lease.
    "
    ALTER TABLE nodes ADD COLUMN stopped INTEGER NOT NULL DEFAULT 0;
",
    // 15: each game's now row in `events` (`seq` 2147483647): its last
    // event's time, its next deadline and the game at a glance, beside its
    // newest event, so that a move rewrites one page (storage/sql_games.rs).
    "
    ALTER TABLE events ADD COLUMN wake_at INTEGER;
    INSERT INTO events (game, seq, at, body, wake_at)
        SELECT id, 2147483647, last_at, COALESCE(glance, ''), wake_at FROM games;
",
    // 16: events keyed by each game's number instead of its id's text
    // (storage/game_numbers.rs): a number for every game, then the events
    // copied over in key order.
    "
    ALTER TABLE games ADD COLUMN num INTEGER;
    UPDATE games SET num = rowid;
    CREATE UNIQUE INDEX games_num ON games(num);
    CREATE TABLE events_by_num (
        game INTEGER NOT NULL REFERENCES games(num),
        seq INTEGER NOT NULL,
        at INTEGER NOT NULL,
        body TEXT NOT NULL,
        wake_at INTEGER,
        PRIMARY KEY (game, seq)
    ) WITHOUT ROWID;
    INSERT INTO events_by_num (game, seq, at, body, wake_at)
        SELECT g.num, e.seq, e.at, e.body, e.wake_at
        FROM events e JOIN games g ON g.id = e.game
        ORDER BY g.num, e.seq;
    DROP TABLE events;
    ALTER TABLE events_by_num RENAME TO events;
",
];

/// The statements each connection keeps prepared (more than the queries
/// there are, so the hot ones are never prepared again).
const PREPARED: usize = 128;

/// The log's length (frames of one page) past which a checkpoint starts it
/// over: 16 MiB of 4 KiB pages.
const RESTART_AT: i64 = 4096;

/// The most passes of the maintaining thread's checkpoint a second, each
/// copying what came during the one before (see `Sqlite::maintain`).
const CATCH_UP_PASSES: usize = 4;

/// Frames a pass may copy and still leave the log caught up: what the
/// writer's checkpoint then copies and syncs itself, with moves waiting.
const CAUGHT_UP: i64 = 256;

/// The bytes of log file kept when it starts over: 64 MiB.
const LOG_KEPT: i64 = 64 << 20;

/// The writer's page cache, in KiB as `PRAGMA cache_size` takes it
/// (negative): 64 MiB, the last pages of about 16,000 games.
const WRITER_CACHE_KIB: i64 = -(64 << 10);

/// Opens a connection with the pragmas every connection needs.
fn connect(path: &Path) -> Result<Connection, StorageError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    // FULL: a commit is on disk before it returns, so an acknowledged move
    // survives even a power cut.
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.set_prepared_statement_cache_capacity(PREPARED);
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

/// A SQLite database file: one connection for writes, one for reads, one
/// that moves the write-ahead log into the database.
#[derive(Debug)]
pub(super) struct Sqlite {
    /// The connection the writer uses (and the rare account writes).
    writer: Mutex<Connection>,
    /// The connection for reads.
    reader: Mutex<Connection>,
    /// The connection that moves the write-ahead log into the database.
    checkpointer: Mutex<Connection>,
    /// The log's length (frames) past which a checkpoint starts it over.
    restart_at: i64,
    /// The log is long: the writer copies the rest of it before its next
    /// commit, and the commit starts it over.
    log_long: AtomicBool,
    /// The database file, for the maintaining thread to sync what its
    /// checkpoints copied (see `maintain`). Last, so that it is closed
    /// after the connections: closing any descriptor of the file drops
    /// the process's locks on it.
    file: std::fs::File,
}

impl Sqlite {
    /// Opens (creating and migrating if needed) the database at `path`.
    pub(super) fn open(path: &Path) -> Result<Sqlite, StorageError> {
        let mut writer = connect(path)?;
        migrate(&mut writer)?;
        // Checkpoints run beside the writer (see `maintain`), never inside
        // a commit that players wait for.
        writer.pragma_update(None, "wal_autocheckpoint", 0)?;
        // A log that grew in a burst (games created by the thousand) is cut
        // back when it starts over.
        writer.pragma_update(None, "journal_size_limit", LOG_KEPT)?;
        // Each move rewrites its game's last page of events: with thousands
        // of games those pages outgrow SQLite's 2 MB default, and every
        // commit read them back from the kernel (`pread`, 3 % of the
        // server at 8,000 moves a second).
        writer.pragma_update(None, "cache_size", WRITER_CACHE_KIB)?;
        let reader = connect(path)?;
        let checkpointer = connect(path)?;
        let file = std::fs::File::open(path)?;
        Ok(Sqlite {
            writer: Mutex::new(writer),
            reader: Mutex::new(reader),
            checkpointer: Mutex::new(checkpointer),
            restart_at: RESTART_AT,
            log_long: AtomicBool::new(false),
            file,
        })
    }
}

impl Backend for Sqlite {
    fn read(
        &self,
        f: &mut dyn FnMut(&mut dyn Conn) -> Result<(), StorageError>,
    ) -> Result<(), StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut Lite(&conn))
    }

    fn write(
        &self,
        f: &mut dyn FnMut(&mut dyn Conn) -> Result<(), StorageError>,
    ) -> Result<(), StorageError> {
        let mut conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        if self.log_long.swap(false, Ordering::Relaxed) {
            // The frames since the last checkpoint, with no writer beside
            // it (a reader still on them leaves them for the next time).
            conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        }
        // IMMEDIATE: the write lock is taken at the start, waiting (the
        // busy timeout) for another process's writer. A deferred
        // transaction that read first and wrote second was refused at
        // once ("database is locked", no wait) whenever another node
        // sharing the file had written since its read began.
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        f(&mut Lite(&tx))?;
        tx.commit()?;
        Ok(())
    }

    /// Copies the write-ahead log into the database, beside the writer.
    /// The log starts over only once a checkpoint has copied all of it,
    /// which one beside the writer never does while moves keep coming:
    /// the log grew without end (over a gigabyte in half a minute at 8,000
    /// moves a second). So once it is past [`RESTART_AT`] frames, the
    /// writer copies what was written meanwhile before its next commit
    /// (`write`), and that commit starts the log over.
    ///
    /// A checkpoint syncs the database file only when it copied the whole
    /// log, which one beside the writer never does: so the writer's
    /// checkpoint synced every page copied since the last start, thousands
    /// of them scattered over the file, 22 ms at the median and 55 ms at
    /// worst with every move waiting (docs/performance.md). The pages this
    /// thread copied reach the disk here instead, and the writer's sync is
    /// left with the few it copies itself.
    fn maintain(&self) -> Result<(), StorageError> {
        let conn = self.checkpointer.lock().unwrap_or_else(|e| e.into_inner());
        // Each pass copies the log as it stood when the pass began; what
        // came meanwhile is copied by the next, a few passes catching up
        // until the writer is left with little to copy and sync.
        let mut copied_before = 0;
        let mut frames = 0;
        for pass in 0..CATCH_UP_PASSES {
            let (log, copied): (i64, i64) =
                conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| {
                    Ok((r.get(1)?, r.get(2)?))
                })?;
            // The first pass's count includes what earlier passes copied;
            // a later pass that copied nothing (an idle server) has
            // nothing to sync.
            if pass == 0 || copied > copied_before {
                self.file.sync_data()?;
            }
            frames = log;
            if log < copied_before || copied - copied_before <= CAUGHT_UP {
                break;
            }
            copied_before = copied;
        }
        if frames >= self.restart_at {
            self.log_long.store(true, Ordering::Relaxed);
        }
        Ok(())
    }
}

/// A SQLite connection (or its open transaction) running shared statements.
struct Lite<'a>(&'a Connection);

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            Value::Int(v) => ToSqlOutput::Borrowed(ValueRef::Integer(*v)),
            Value::Real(v) => ToSqlOutput::Borrowed(ValueRef::Real(*v)),
            Value::Text(v) => ToSqlOutput::Borrowed(ValueRef::Text(v.as_bytes())),
        })
    }
}

impl Conn for Lite<'_> {
    fn dialect(&self) -> Dialect {
        Dialect::Sqlite
    }

    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StorageError> {
        super::sql::no_nul(params)?;
        let mut stmt = self.0.prepare_cached(sql)?;
        Ok(stmt.execute(rusqlite::params_from_iter(params))? as u64)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StorageError> {
        super::sql::no_nul(params)?;
        let mut stmt = self.0.prepare_cached(sql)?;
        let columns = stmt.column_count();
        let mut rows = stmt.query(rusqlite::params_from_iter(params))?;
        let mut out = Vec::new();
        while let Some(row) = rows.next()? {
            let mut values = Vec::with_capacity(columns);
            for i in 0..columns {
                values.push(match row.get_ref(i)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(v) => Value::Int(v),
                    ValueRef::Real(v) => Value::Real(v),
                    ValueRef::Text(t) | ValueRef::Blob(t) => {
                        Value::Text(String::from_utf8_lossy(t).into_owned())
                    }
                });
            }
            out.push(Row(values));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{SqlStorage, Storage};

    /// Under a steady stream of commits the log starts over once it is
    /// long: a passive checkpoint alone never copies all of it, and the
    /// log grew without end (a gigabyte in half a minute of play).
    #[test]
    fn the_log_starts_over_under_a_steady_stream_of_commits() {
        use std::sync::Arc;
        let dir = crate::storage::scratch_dir("wal");
        let mut db = Sqlite::open(&dir.join("games.sqlite")).expect("opens");
        db.restart_at = 64;
        let db = Arc::new(db);
        let done = Arc::new(AtomicBool::new(false));
        // Another thread checkpoints, as the server's maintenance does.
        let checkpoints = {
            let (db, done) = (db.clone(), done.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    db.maintain().expect("checkpoints");
                    std::thread::sleep(std::time::Duration::from_millis(2));
                }
            })
        };
        // 2,000 commits of one page each.
        for at in 0..2000_i64 {
            db.write(&mut |tx| {
                tx.execute(
                    "INSERT OR REPLACE INTO alive (id, at) VALUES (1, ?1)",
                    super::super::sql::vals![at],
                )
                .map(drop)
            })
            .expect("commits");
        }
        done.store(true, Ordering::Relaxed);
        checkpoints.join().expect("the checkpoints end");
        let log = std::fs::metadata(dir.join("games.sqlite-wal")).map_or(0, |m| m.len());
        let _ = std::fs::remove_dir_all(&dir);
        // 2,000 frames of 4 KiB and their headers if it never started over.
        assert!(log < 500 * 4096, "the log is {log} bytes");
    }

    /// Migration 15 gives each game stored before it a now row that holds
    /// what its row held: the unfinished games read back as before; and
    /// migration 16 keys their events by number.
    #[test]
    fn games_stored_before_migration_15_keep_their_time_and_deadline() {
        let dir = std::env::temp_dir().join(format!("rochade-migrate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a directory");
        let path = dir.join("old.sqlite");
        let _ = std::fs::remove_file(&path);
        {
            let mut conn = connect(&path).expect("opens");
            for sql in &MIGRATIONS[..14] {
                conn.execute_batch(sql).expect("migrates");
            }
            conn.pragma_update(None, "user_version", 14)
                .expect("versions");
            let tx = conn.transaction().expect("a transaction");
            tx.execute_batch(
                "INSERT INTO games (id, setup, epoch, last_at, wake_at, glance)
                 VALUES ('old', '{}', 5, 7000, 90000, NULL), ('still', '{}', 5, 0, NULL, NULL);
                 INSERT INTO events (game, seq, at, body) VALUES ('old', 0, 7000, '{}');",
            )
            .expect("an old game");
            tx.commit().expect("commits");
        }
        let storage = SqlStorage::open(&path).expect("migrates");
        let mut games = storage.unfinished().expect("reads");
        games.sort_by(|a, b| a.id.cmp(&b.id));
        let read: Vec<_> = games
            .iter()
            .map(|g| (g.id.as_str(), g.last_at, g.wake_at))
            .collect();
        assert_eq!(read, [("old", 7000, Some(90_000)), ("still", 0, None)]);
        // Migration 16: the events, now under the game's number.
        let events: Vec<(String, i64, i64)> = Connection::open(&path)
            .expect("opens")
            .prepare(
                "SELECT g.id, e.seq, e.at FROM events e JOIN games g ON g.num = e.game
                 WHERE e.seq < 2147483647",
            )
            .expect("prepares")
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("reads")
            .collect::<Result<_, _>>()
            .expect("reads");
        assert_eq!(events, [("old".to_owned(), 0, 7000)]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
