//! [`SimulStore`] on the SQLite database: table `simuls` and column
//! `games.simul` (migration 11 in `sqlite.rs`).

use rusqlite::{OptionalExtension, params};

use super::simuls::{SimulGame, SimulStore};
use super::sqlite::{from_json, playing_of, playing_row, to_json};
use super::{SqliteStorage, StorageError};
use crate::simuls::Simul;

/// A simul read back from its JSON column.
fn simul_of(id: &str, json: &str) -> Result<Simul, StorageError> {
    from_json(&format!("simul {id}"), json)
}

/// A simul as its JSON column keeps it.
fn json_of(simul: &Simul) -> Result<String, StorageError> {
    to_json(&format!("simul {}", simul.id), simul)
}

impl SimulStore for SqliteStorage {
    fn create_simul(&self, simul: &Simul) -> Result<(), StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        conn.execute(
            "INSERT INTO simuls (id, host, status, settings, revision, created)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                simul.id,
                simul.host.id,
                simul.status.as_str(),
                json_of(simul)?,
                simul.revision as i64,
                simul.created as i64
            ],
        )?;
        Ok(())
    }

    fn update_simul(&self, simul: &Simul, from: u64) -> Result<bool, StorageError> {
        let conn = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let changed = conn.execute(
            "UPDATE simuls SET status = ?2, settings = ?3, revision = ?4
             WHERE id = ?1 AND revision = ?5",
            params![
                simul.id,
                simul.status.as_str(),
                json_of(simul)?,
                simul.revision as i64,
                from as i64
            ],
        )?;
        Ok(changed == 1)
    }

    fn simul(&self, id: &str) -> Result<Option<Simul>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let json: Option<String> = conn
            .query_row(
                "SELECT settings FROM simuls WHERE id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()?;
        json.map(|j| simul_of(id, &j)).transpose()
    }

    fn simuls(&self, limit: usize) -> Result<Vec<Simul>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn
            .prepare_cached("SELECT id, settings FROM simuls ORDER BY created DESC, id LIMIT ?1")?;
        let rows = stmt
            .query_map(params![limit as i64], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.iter().map(|(id, j)| simul_of(id, j)).collect()
    }

    fn waiting_simuls_of(&self, host: i64) -> Result<Vec<String>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt =
            conn.prepare_cached("SELECT id FROM simuls WHERE host = ?1 AND status = 'created'")?;
        let ids = stmt
            .query_map(params![host], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    fn simul_games(&self, id: &str) -> Result<Vec<SimulGame>, StorageError> {
        let conn = self.reader.lock().unwrap_or_else(|e| e.into_inner());
        let mut stmt = conn.prepare_cached(
            "SELECT id, setup, epoch, glance, result, finished FROM games WHERE simul = ?1
             ORDER BY created, id",
        )?;
        let rows = stmt
            .query_map(params![id], |r| Ok((playing_row(r)?, r.get(4)?, r.get(5)?)))?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|((game, setup, epoch, glance), result, finished)| {
                Ok(SimulGame {
                    game: playing_of(&game, &setup, epoch, glance.as_deref())?,
                    result,
                    finished,
                })
            })
            .collect()
    }
}
