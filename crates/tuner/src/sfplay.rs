//! Seeded Stockfish self-play: Stockfish against itself at a fixed depth
//! from random openings. Every quiet position is labelled with the score
//! of the search that chose the move played from it, so a position costs
//! one Stockfish search and no separate labelling pass; this is the data
//! the network of `rochade_engine::nnue` is trained on.

use std::path::PathBuf;

use anyhow::Context;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, EnPassantMode, Position};

use crate::data::Record;
use crate::selfplay::{game_result, is_quiet, key, random_opening};
use crate::stockfish::{MATE_CP, Stockfish};

/// How Stockfish's games are played and adjudicated.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Stockfish's search depth for each move (and label).
    pub depth: u32,
    /// Random legal moves from the start position; one more in half the
    /// games, so both sides start the engine play equally often.
    pub random_plies: u32,
    /// A game is won for the side whose score stays at or above this
    /// (centipawns) for [`WIN_PLIES`] plies in a row.
    pub win_score: i32,
    /// Chance that a ply after the opening is a random legal move instead
    /// of Stockfish's: the games then also reach the lopsided positions a
    /// search meets after a mistake, which games of good moves never do.
    pub random_moves: f64,
    /// The Stockfish binary.
    pub stockfish: PathBuf,
}

/// Plies in a row above [`Settings::win_score`] that end a game.
pub const WIN_PLIES: usize = 6;
/// Engine plies after which a game can be adjudicated drawn.
pub const DRAW_AFTER: usize = 80;
/// Plies in a row within [`DRAW_SCORE`] that end a game drawn after
/// [`DRAW_AFTER`].
pub const DRAW_PLIES: usize = 12;
/// A score this close to zero counts towards a drawn adjudication.
pub const DRAW_SCORE: i32 = 8;

/// Plays one game from the random opening drawn with `seed`; returns the
/// quiet positions labelled with the game's result and Stockfish's score,
/// both for White.
///
/// # Errors
///
/// Stockfish fails, or answers with a move that is not legal.
pub fn play_game(
    settings: &Settings,
    seed: u64,
    sf: &mut Stockfish,
) -> anyhow::Result<Vec<Record>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let plies = settings.random_plies + u32::from(rng.random_bool(0.5));
    let (mut pos, mut history) = random_opening(&mut rng, plies);
    let start = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
    sf.new_game()?;
    let mut moves: Vec<String> = Vec::new();
    let mut kept: Vec<(Chess, i32)> = Vec::new();
    let (mut winning, mut drawn) = (0usize, 0usize);
    let result = loop {
        if let Some(result) = game_result(&pos, &history) {
            break result;
        }
        let (best, ours) = sf.best_move(&start, &moves, settings.depth)?;
        let m = UciMove::from_ascii(best.as_bytes())
            .ok()
            .and_then(|u| u.to_move(&pos).ok())
            .with_context(|| format!("Stockfish played {best:?} after {start} {moves:?}"))?;
        let white = if pos.turn().is_white() { ours } else { -ours };
        if ours.abs() < MATE_CP && is_quiet(&pos, m) {
            kept.push((pos.clone(), white));
        }
        winning = if ours.abs() >= settings.win_score {
            winning + 1
        } else {
            0
        };
        drawn = if ours.abs() <= DRAW_SCORE {
            drawn + 1
        } else {
            0
        };
        if winning >= WIN_PLIES {
            break if white > 0 { 1.0 } else { 0.0 };
        }
        if moves.len() >= DRAW_AFTER && drawn >= DRAW_PLIES {
            break 0.5;
        }
        let m = if rng.random_bool(settings.random_moves) {
            let legal = pos.legal_moves();
            legal[rng.random_range(0..legal.len())]
        } else {
            m
        };
        history.push(key(&pos));
        moves.push(UciMove::from_standard(m).to_string());
        pos.play_unchecked(m);
    };
    Ok(kept
        .into_iter()
        .map(|(p, white)| Record {
            fen: Fen::from_position(&p, EnPassantMode::Legal),
            result,
            stockfish: Some(white),
        })
        .collect())
}
