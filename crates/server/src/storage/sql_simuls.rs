//! [`SimulStore`] on either database: table `simuls` and column
//! `games.simul` (SQLite's migration 11).

use super::simuls::{SimulGame, SimulStore};
use super::sql::vals;
use super::sql_games::{PLAYING, from_json, playing_of, to_json};
use super::{SqlStorage, StorageError};
use crate::simuls::Simul;

/// A simul read back from its JSON column.
fn simul_of(id: &str, json: &str) -> Result<Simul, StorageError> {
    from_json(&format!("simul {id}"), json)
}

/// A simul as its JSON column keeps it.
fn json_of(simul: &Simul) -> Result<String, StorageError> {
    to_json(&format!("simul {}", simul.id), simul)
}

impl SimulStore for SqlStorage {
    fn create_simul(&self, simul: &Simul) -> Result<(), StorageError> {
        let json = json_of(simul)?;
        self.write(|tx| {
            tx.execute(
                "INSERT INTO simuls (id, host, status, settings, revision, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                vals![
                    &simul.id,
                    simul.host.id,
                    simul.status.as_str(),
                    json,
                    simul.revision,
                    simul.created
                ],
            )
            .map(drop)
        })
    }

    fn update_simul(&self, simul: &Simul, from: u64) -> Result<bool, StorageError> {
        let json = json_of(simul)?;
        let changed = self.write(|tx| {
            tx.execute(
                "UPDATE simuls SET status = ?2, settings = ?3, revision = ?4
                 WHERE id = ?1 AND revision = ?5",
                vals![&simul.id, simul.status.as_str(), json, simul.revision, from],
            )
        })?;
        Ok(changed == 1)
    }

    fn simul(&self, id: &str) -> Result<Option<Simul>, StorageError> {
        self.read(|conn| {
            conn.query_opt("SELECT settings FROM simuls WHERE id = ?1", vals![id])?
                .map(|r| simul_of(id, &r.text(0)?))
                .transpose()
        })
    }

    fn simuls(&self, limit: usize) -> Result<Vec<Simul>, StorageError> {
        self.read(|conn| {
            conn.query(
                "SELECT id, settings FROM simuls ORDER BY created DESC, id LIMIT ?1",
                vals![limit],
            )?
            .iter()
            .map(|r| simul_of(&r.text(0)?, &r.text(1)?))
            .collect()
        })
    }

    fn waiting_simuls_of(&self, host: i64) -> Result<Vec<String>, StorageError> {
        self.read(|conn| {
            conn.query(
                "SELECT id FROM simuls WHERE host = ?1 AND status = 'created'",
                vals![host],
            )?
            .iter()
            .map(|r| r.text(0))
            .collect()
        })
    }

    fn simul_games(&self, id: &str) -> Result<Vec<SimulGame>, StorageError> {
        self.read(|conn| {
            conn.query(
                &format!(
                    "SELECT {PLAYING}, result, finished FROM games WHERE simul = ?1
                     ORDER BY created, id"
                ),
                vals![id],
            )?
            .iter()
            .map(|r| {
                Ok(SimulGame {
                    game: playing_of(r)?,
                    result: r.opt_text(4)?,
                    finished: r.flag(5)?,
                })
            })
            .collect()
        })
    }
}
