//! [`Storage`] (games and their events) on either database: the storage
//! itself, [`SqlStorage`], and the statements of the tables `games`,
//! `events` and `alive`.

use std::path::Path;

use super::game_numbers::{GameNumbers, Numbering};
use super::sql::{Backend, Conn, Dialect, Row, Value, once, vals};
use super::{Ended, PlayingGame, Storage, StorageError, StoredGame, Unfinished, WriteOp};
use crate::event::{Event, Timed};
use crate::setup::GameSetup;

/// Games, accounts and everything else the server keeps, in SQLite (the
/// embedded default) or PostgreSQL (for several nodes): the same
/// statements on both (`storage/sql.rs`).
///
/// # Examples
///
/// ```
/// use rochade_server::storage::{SqlStorage, Storage};
/// let dir = std::env::temp_dir().join(format!("rochade-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let storage = SqlStorage::open(&dir.join("doc.sqlite"))?;
/// assert!(storage.unfinished()?.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SqlStorage {
    /// Where connections come from.
    backend: Box<dyn Backend>,
    /// The numbers of the games the writer writes to (their events' key).
    numbers: GameNumbers,
    /// Whether each commit records when the server was last known to run
    /// (the `alive` row). One node of several has its heartbeat instead:
    /// the one row, updated by every commit of every node, held each
    /// node's commits behind the others' until they committed.
    alive_row: bool,
}

/// The name the embedded default had before PostgreSQL came: a
/// [`SqlStorage`] opened on a SQLite file with [`SqlStorage::open`].
pub type SqliteStorage = SqlStorage;

impl SqlStorage {
    /// Opens (creating and migrating if needed) the SQLite database at
    /// `path`.
    ///
    /// # Errors
    ///
    /// When the file cannot be opened or migrated.
    pub fn open(path: &Path) -> Result<SqlStorage, StorageError> {
        Ok(SqlStorage {
            backend: Box::new(super::sqlite::Sqlite::open(path)?),
            numbers: GameNumbers::default(),
            alive_row: true,
        })
    }

    /// Connects to the PostgreSQL database at `url`
    /// (`postgres://user:password@host:port/name`), migrating it if needed.
    ///
    /// # Errors
    ///
    /// When the server cannot be reached or the schema cannot be migrated.
    pub fn postgres(url: &str) -> Result<SqlStorage, StorageError> {
        Ok(SqlStorage {
            backend: Box::new(super::postgres::Postgres::connect(url)?),
            numbers: GameNumbers::default(),
            alive_row: true,
        })
    }

    /// A PostgreSQL URL (`postgres://…` or `postgresql://…`) or else the
    /// path of a SQLite file.
    ///
    /// # Errors
    ///
    /// As [`SqlStorage::open`] or [`SqlStorage::postgres`].
    pub fn connect(db: &str) -> Result<SqlStorage, StorageError> {
        if is_postgres(db) {
            SqlStorage::postgres(db)
        } else {
            SqlStorage::open(Path::new(db))
        }
    }

    /// The storage of one node of several: its commits leave the `alive`
    /// row alone (the node's heartbeat says when it last ran).
    ///
    /// ```
    /// use rochade_server::storage::{SqlStorage, Storage};
    /// let dir = std::env::temp_dir().join(format!("rochade-doc-nodes-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let storage = SqlStorage::open(&dir.join("doc.sqlite"))?.of_several_nodes();
    /// storage.write(&[], 1_000)?;
    /// assert_eq!(storage.last_alive()?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn of_several_nodes(self) -> SqlStorage {
        SqlStorage {
            alive_row: false,
            ..self
        }
    }

    /// Runs `f` on a connection for reading.
    pub(super) fn read<T>(
        &self,
        f: impl FnOnce(&mut dyn Conn) -> Result<T, StorageError>,
    ) -> Result<T, StorageError> {
        once(|g| self.backend.read(g), f)
    }

    /// Runs `f` in one transaction, committed if it succeeds.
    pub(super) fn write<T>(
        &self,
        f: impl FnOnce(&mut dyn Conn) -> Result<T, StorageError>,
    ) -> Result<T, StorageError> {
        once(|g| self.backend.write(g), f)
    }
}

/// Whether `db` names a PostgreSQL database rather than a SQLite file.
///
/// ```
/// assert!(rochade_server::storage::is_postgres("postgres://localhost/rochade"));
/// assert!(!rochade_server::storage::is_postgres("rochade.sqlite"));
/// ```
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// `db` as logs and errors may show it: a PostgreSQL URL without its
/// password.
///
/// ```
/// use rochade_server::storage::shown;
/// assert_eq!(shown("postgres://rochade:secret@db:5432/games"), "postgres://rochade:***@db:5432/games");
/// assert_eq!(shown("postgres://db/games"), "postgres://db/games");
/// assert_eq!(shown("games.sqlite"), "games.sqlite");
/// ```
pub fn shown(db: &str) -> String {
    let Some((scheme, rest)) = db.split_once("://").filter(|_| is_postgres(db)) else {
        return db.to_owned();
    };
    match rest.split_once('@') {
        Some((user_password, host)) => match user_password.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
            None => db.to_owned(),
        },
        None => db.to_owned(),
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

// A game's events are keyed by its number (`games.num`, given when it is
// made; see `storage/game_numbers.rs`), not by its id.
//
// A game's now row: the row of `events` with `seq` 2147483647 (after
// every event of the game, so next to its newest one) holds what the
// game's last commit changed: its time (`at`, the game time of its last
// event), its next deadline (`wake_at`) and the game at a glance (`body`,
// empty when none). A move then rewrites one page of the database, the
// one its new event goes into, instead of that page and the game's row
// in `games` as well (issue 20: the writer's cost follows the pages a
// commit writes). The row is made with the game (`create`, and migration
// 15 for the games stored before), rewritten by each commit of the game
// (`append`) and deleted with its events. The columns `last_at`,
// `wake_at` and `glance` of `games` say what the game was when made (or,
// for a game stored before migration 15, when it last changed) and are
// read only where a game has no now row.

/// The columns [`playing_of`] reads, first in a game's row (of `games`,
/// not renamed).
pub(super) const PLAYING: &str = "id, setup, epoch, COALESCE(
    (SELECT NULLIF(n.body, '') FROM events n WHERE n.game = games.num AND n.seq = 2147483647),
    games.glance)";

/// A list entry from a row whose first columns are [`PLAYING`].
pub(super) fn playing_of(row: &Row) -> Result<PlayingGame, StorageError> {
    let id = row.text(0)?;
    Ok(PlayingGame {
        setup: from_json(&id, &row.text(1)?)?,
        epoch: row.uint(2)?,
        glance: row.opt_text(3)?.map(|g| from_json(&id, &g)).transpose()?,
    })
}

/// The columns an [`Unfinished`] is read from ([`unfinished_of`]), in a
/// row of `games` (not renamed). A now row without a deadline reads -1,
/// so that one lookup tells it from a game without a now row.
pub(super) const UNFINISHED: &str = "id, epoch, COALESCE(
    (SELECT n.at FROM events n WHERE n.game = games.num AND n.seq = 2147483647),
    games.last_at), COALESCE(
    (SELECT COALESCE(n.wake_at, -1) FROM events n WHERE n.game = games.num AND n.seq = 2147483647),
    games.wake_at)";

/// An [`Unfinished`] from a row of [`UNFINISHED`].
pub(super) fn unfinished_of(r: &Row) -> Result<Unfinished, StorageError> {
    Ok(Unfinished {
        id: r.text(0)?,
        epoch: r.uint(1)?,
        last_at: r.uint(2)?,
        wake_at: r.opt_int(3)?.and_then(|w| u64::try_from(w).ok()),
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
    tx: &mut dyn Conn,
    aborted_before: u64,
    finished_before: Option<u64>,
    most: usize,
    numbering: &mut Numbering<'_>,
) -> Result<(), StorageError> {
    let gone = tx.query(
        "SELECT id, num FROM games WHERE ended IS NOT NULL
           AND ((aborted = 1 AND ended < ?1)
                OR (aborted = 0 AND ended < ?2
                    AND white_user IS NULL AND black_user IS NULL))
           -- A director's decision or a player's request keeps its game.
           AND id NOT IN (SELECT game FROM decisions WHERE game IS NOT NULL)
           AND id NOT IN (SELECT game FROM requests WHERE game IS NOT NULL)
         ORDER BY id LIMIT ?3",
        vals![
            aborted_before,
            finished_before.map_or(i64::MIN, |f| f as i64),
            most
        ],
    )?;
    if !gone.is_empty() {
        numbering.purged();
    }
    for row in gone {
        tx.execute("DELETE FROM events WHERE game = ?1", vals![row.int(1)?])?;
        let id = Value::Text(row.text(0)?);
        for table in [
            "DELETE FROM notes WHERE game = ?1",
            "DELETE FROM games WHERE id = ?1",
        ] {
            tx.execute(table, std::slice::from_ref(&id))?;
        }
    }
    Ok(())
}

/// Stores a new game, with the next number: PostgreSQL's identity
/// column gives it (never the same twice, whichever node asks); SQLite,
/// one writer at a time, the one after the largest.
fn create(
    tx: &mut dyn Conn,
    setup: &GameSetup,
    epoch: u64,
    wake_at: Option<u64>,
    glance: Option<&String>,
    numbering: &mut Numbering<'_>,
) -> Result<(), StorageError> {
    let json = to_json(&setup.id, setup)?;
    let sql = match tx.dialect() {
        Dialect::Postgres => {
            "INSERT INTO games (id, setup, invite, epoch, wake_at, white_user, black_user,
                                created, perf, rated, glance, tournament, simul)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)
             RETURNING num"
        }
        Dialect::Sqlite => {
            "INSERT INTO games (id, setup, invite, epoch, wake_at, white_user, black_user,
                                created, perf, rated, glance, tournament, simul, num)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,
                     (SELECT COALESCE(MAX(num), 0) + 1 FROM games))
             RETURNING num"
        }
    };
    let num = tx
        .query_one(
            sql,
            vals![
                &setup.id,
                json,
                &setup.invite,
                epoch,
                wake_at,
                setup.white_player.as_ref().map(|p| p.id),
                setup.black_player.as_ref().map(|p| p.id),
                epoch,
                setup.perf().key(),
                setup.rated,
                glance,
                setup.tournament.as_ref().map(|t| t.id.as_str()),
                setup.simul.as_ref().map(|s| s.id.as_str())
            ],
        )?
        .int(0)?;
    numbering.given(&setup.id, num);
    tx.execute(
        "INSERT INTO events (game, seq, at, body, wake_at) VALUES (?1, 2147483647, 0, ?2, ?3)",
        vals![num, glance.map_or("", |g| g.as_str()), wake_at],
    )?;
    Ok(())
}

/// One event of a game in a commit (the fields of [`WriteOp::Append`]).
struct Append<'a> {
    game: &'a str,
    seq: usize,
    event: &'a Timed,
    ended: Option<Ended>,
    result: Option<rochade_laws::GameResult>,
    wake_at: Option<u64>,
    glance: Option<&'a String>,
}

/// Stores the next event of a game, and what it changes in its row.
fn append(
    tx: &mut dyn Conn,
    a: &Append<'_>,
    alive: u64,
    numbering: &mut Numbering<'_>,
) -> Result<(), StorageError> {
    let body = to_json(a.game, &a.event.event)?;
    let num = numbering.of(tx, a.game)?;
    tx.execute(
        "INSERT INTO events (game, seq, at, body) VALUES (?1, ?2, ?3, ?4)",
        vals![num, a.seq, a.event.at, body],
    )?;
    if let Event::Seat {
        color,
        player: Some(player),
    } = &a.event.event
    {
        tx.execute(
            "UPDATE games SET white_user = CASE WHEN ?2 = 1 THEN ?3 ELSE white_user END,
                              black_user = CASE WHEN ?2 = 1 THEN black_user ELSE ?3 END
             WHERE id = ?1",
            vals![a.game, *color == crate::setup::Side::White, player.id],
        )?;
    }
    let now = vals![num, a.event.at, a.wake_at, a.glance];
    let kept = tx.execute(
        "UPDATE events SET at = ?2, wake_at = ?3, body = COALESCE(?4, body)
         WHERE game = ?1 AND seq = 2147483647",
        now,
    )?;
    if kept == 0 {
        // A game stored without its now row: it gets one.
        tx.execute(
            "INSERT INTO events (game, seq, at, wake_at, body)
             VALUES (?1, 2147483647, ?2, ?3, COALESCE(?4, ''))",
            now,
        )?;
    }
    if let Some(ended) = a.ended {
        numbering.ended(a.game);
        tx.execute(
            "UPDATE games SET finished = 1, wake_at = NULL, ended = ?2, aborted = ?3, result = ?4
             WHERE id = ?1",
            vals![
                a.game,
                alive,
                ended == Ended::Aborted,
                a.result.map(|r| r.as_str())
            ],
        )?;
        if let Some(result) = a.result {
            super::sql_history::rate_game(tx, a.game, result, alive)?;
        }
    }
    Ok(())
}

/// One write of a batch.
fn apply(
    tx: &mut dyn Conn,
    op: &WriteOp,
    alive: u64,
    numbering: &mut Numbering<'_>,
) -> Result<(), StorageError> {
    match op {
        WriteOp::Create {
            setup,
            epoch,
            wake_at,
            glance,
        } => create(tx, setup, *epoch, *wake_at, glance.as_ref(), numbering),
        WriteOp::Append {
            game,
            seq,
            event,
            ended,
            result,
            wake_at,
            glance,
        } => append(
            tx,
            &Append {
                game,
                seq: *seq,
                event,
                ended: *ended,
                result: *result,
                wake_at: *wake_at,
                glance: glance.as_ref(),
            },
            alive,
            numbering,
        ),
        WriteOp::Session {
            digest,
            user,
            created,
        } => tx
            .execute(
                "INSERT INTO sessions (digest, \"user\", created) VALUES (?1, ?2, ?3)",
                vals![digest, *user, *created],
            )
            .map(drop),
        WriteOp::Epoch { game, epoch } => tx
            .execute(
                "UPDATE games SET epoch = ?2 WHERE id = ?1",
                vals![game, *epoch],
            )
            .map(drop),
        WriteOp::Purge {
            aborted_before,
            finished_before,
            most,
        } => purge(tx, *aborted_before, *finished_before, *most, numbering),
        WriteOp::Own { game, node } => tx
            .execute(
                "UPDATE games SET node = ?2 WHERE id = ?1",
                vals![game, node],
            )
            .map(drop),
        WriteOp::Owned { game, node } => {
            // PostgreSQL: the row stays locked until the commit, so that a
            // takeover (an UPDATE of it) waits and then finds the commit's
            // events stored. SQLite: one writer at a time already.
            let sql = match tx.dialect() {
                Dialect::Postgres => "SELECT 1 FROM games WHERE id = ?1 AND node = ?2 FOR SHARE",
                Dialect::Sqlite => "SELECT 1 FROM games WHERE id = ?1 AND node = ?2",
            };
            match tx.query_opt(sql, vals![game, node])? {
                Some(_) => Ok(()),
                None => Err(StorageError::NotOwner {
                    game: game.clone(),
                    node: node.clone(),
                }),
            }
        }
        WriteOp::Heartbeat { node } => tx
            .execute(super::sql_nodes::HEARTBEAT, vals![node, alive])
            .map(drop),
        WriteOp::Stopped { node } => tx
            .execute(
                "UPDATE nodes SET alive_at = ?2, stopped = 1 WHERE name = ?1",
                vals![node, alive],
            )
            .map(drop),
    }
}

impl Storage for SqlStorage {
    fn write(&self, ops: &[WriteOp], alive: u64) -> Result<(), StorageError> {
        self.numbers.within(|numbering| {
            SqlStorage::write(self, |tx| {
                for op in ops {
                    apply(tx, op, alive, numbering)?;
                }
                if self.alive_row {
                    tx.execute(
                        "INSERT INTO alive (id, at) VALUES (1, ?1) ON CONFLICT (id) DO UPDATE SET at = ?1",
                        vals![alive],
                    )?;
                }
                Ok(())
            })
        })
    }

    fn load(&self, id: &str) -> Result<Option<StoredGame>, StorageError> {
        self.read(|conn| {
            let Some(row) = conn.query_opt(
                "SELECT setup, epoch, finished, num FROM games WHERE id = ?1",
                vals![id],
            )?
            else {
                return Ok(None);
            };
            let setup: GameSetup = from_json(id, &row.text(0)?)?;
            let rows = conn.query(
                "SELECT seq, at, body FROM events WHERE game = ?1 AND seq < 2147483647
                 ORDER BY seq",
                vals![row.int(3)?],
            )?;
            let mut events = Vec::with_capacity(rows.len());
            for (i, event) in rows.iter().enumerate() {
                let seq = event.int(0)?;
                if seq != i as i64 {
                    return Err(StorageError::Corrupt {
                        game: id.to_owned(),
                        reason: format!("event {seq} where {i} was expected"),
                    });
                }
                events.push(Timed {
                    at: event.uint(1)?,
                    event: from_json(id, &event.text(2)?)?,
                });
            }
            Ok(Some(StoredGame {
                setup,
                epoch: row.uint(1)?,
                events,
                finished: row.flag(2)?,
            }))
        })
    }

    fn find_invite(&self, invite: &str) -> Result<Option<String>, StorageError> {
        self.read(|conn| {
            conn.query_opt("SELECT id FROM games WHERE invite = ?1", vals![invite])?
                .map(|r| r.text(0))
                .transpose()
        })
    }

    fn unfinished(&self) -> Result<Vec<Unfinished>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!("SELECT {UNFINISHED} FROM games WHERE finished = 0"),
                &[],
            )?
            .iter()
            .map(unfinished_of)
            .collect()
        })
    }

    fn playing(&self, user: i64) -> Result<Vec<String>, StorageError> {
        self.read(|conn| {
            conn.query(
                "SELECT id FROM games WHERE finished = 0 AND white_user = ?1
                 UNION ALL SELECT id FROM games WHERE finished = 0 AND black_user = ?1",
                vals![user],
            )?
            .iter()
            .map(|r| r.text(0))
            .collect()
        })
    }

    fn playing_glances(&self, user: i64) -> Result<Vec<PlayingGame>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!(
                    "SELECT {PLAYING} FROM games WHERE finished = 0 AND white_user = ?1
                     UNION ALL
                     SELECT {PLAYING} FROM games WHERE finished = 0 AND black_user = ?1"
                ),
                vals![user],
            )?
            .iter()
            .map(playing_of)
            .collect()
        })
    }

    fn count(&self) -> Result<u64, StorageError> {
        self.read(|conn| conn.query_one("SELECT COUNT(*) FROM games", &[])?.uint(0))
    }

    fn maintain(&self) -> Result<(), StorageError> {
        self.backend.maintain()
    }

    fn last_alive(&self) -> Result<Option<u64>, StorageError> {
        self.read(|conn| {
            conn.query_opt("SELECT at FROM alive WHERE id = 1", &[])?
                .map(|r| r.uint(0))
                .transpose()
        })
    }
}
