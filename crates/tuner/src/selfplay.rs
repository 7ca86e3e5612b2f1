//! Seeded self-play: Rochade against itself at a fixed node budget from
//! random openings, keeping quiet positions.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use rochade_engine::search::{self, see::see, tt::TranspositionTable};
use rochade_engine::{Evaluation, SearchParams, TimeLimits};
use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

use crate::data::Record;
use crate::stockfish::Stockfish;

/// Plies after which a game is adjudicated a draw.
const MAX_PLIES: usize = 400;
/// Transposition table size of each self-play search, in MB.
const HASH_MB: usize = 4;

/// How games are played and positions chosen.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Node budget per move.
    pub nodes: u64,
    /// Random legal moves from the start position.
    pub random_plies: u32,
    /// Chance that a quiet position is kept.
    pub sample: f64,
    /// The evaluation Rochade plays with.
    pub evaluation: Evaluation,
    /// Stockfish depth for labels; 0 for none.
    pub sf_depth: u32,
    /// The Stockfish binary.
    pub stockfish: PathBuf,
}

/// Plays games `seed .. seed + games` on `threads` workers with `play`
/// (given the game's seed and the worker's Stockfish, started from
/// `stockfish` when that is set) and hands each game's labelled positions
/// to `sink` in game order (so the output does not depend on `threads`,
/// and a stopped run leaves a whole prefix). Returns the number of
/// positions.
pub fn play_games<P>(
    seed: u64,
    games: u64,
    threads: u64,
    stockfish: Option<&Path>,
    play: P,
    mut sink: impl FnMut(&[Record]) -> anyhow::Result<()>,
) -> anyhow::Result<usize>
where
    P: Fn(u64, Option<&mut Stockfish>) -> anyhow::Result<Vec<Record>> + Sync,
{
    let (tx, rx) = mpsc::channel();
    let play = &play;
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let tx = tx.clone();
            scope.spawn(move || {
                let mut sf = match stockfish.map(Stockfish::start).transpose() {
                    Ok(sf) => sf,
                    Err(e) => {
                        let _ = tx.send((0, Err(e)));
                        return;
                    }
                };
                for game in (worker..games).step_by(threads as usize) {
                    let records = play(seed.wrapping_add(game), sf.as_mut());
                    if tx.send((game, records)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut pending: BTreeMap<u64, Vec<Record>> = BTreeMap::new();
        let (mut next, mut positions) = (0, 0);
        for (game, records) in rx {
            pending.insert(game, records?);
            while let Some(records) = pending.remove(&next) {
                sink(&records)?;
                positions += records.len();
                next += 1;
                if next.is_multiple_of(50) {
                    eprintln!("{next} games, {positions} positions");
                }
            }
        }
        Ok(positions)
    })
}

/// The Zobrist key of `pos`.
pub fn key(pos: &Chess) -> u64 {
    search::hash(pos)
}

/// Plays one game from a random opening drawn with `seed`; returns the
/// sampled quiet positions labelled with the result (and Stockfish).
pub fn play_game(
    settings: &Settings,
    seed: u64,
    mut sf: Option<&mut Stockfish>,
) -> anyhow::Result<Vec<Record>> {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut pos, mut history) = random_opening(&mut rng, settings.random_plies);
    let tt = TranspositionTable::new(HASH_MB);
    let stop = AtomicBool::new(false);
    let mut kept: Vec<Chess> = Vec::new();
    let result = loop {
        if let Some(result) = game_result(&pos, &history) {
            break result;
        }
        let params = SearchParams {
            pos: pos.clone(),
            history: history.clone(),
            limits: TimeLimits {
                nodes: Some(settings.nodes),
                ..TimeLimits::default()
            },
            evaluation: settings.evaluation,
            ..SearchParams::default()
        };
        let Some(best) = search::search(params, &tt, &stop, |_| {}).best else {
            anyhow::bail!("no move in a game that is not over");
        };
        if is_quiet(&pos, best) && rng.random_bool(settings.sample) {
            kept.push(pos.clone());
        }
        history.push(key(&pos));
        pos.play_unchecked(best);
    };
    if let Some(sf) = sf.as_deref_mut() {
        sf.new_game()?;
    }
    kept.into_iter()
        .map(|p| {
            let fen = Fen::from_position(&p, EnPassantMode::Legal);
            let stockfish = match sf.as_deref_mut() {
                Some(sf) => {
                    let ours = sf.evaluate(&fen.to_string(), settings.sf_depth)?;
                    Some(if p.turn().is_white() { ours } else { -ours })
                }
                None => None,
            };
            Ok(Record {
                fen,
                result,
                stockfish,
            })
        })
        .collect()
}

/// A position after `plies` random legal moves (fewer if the game ends)
/// and the keys of the positions before it.
pub fn random_opening(rng: &mut StdRng, plies: u32) -> (Chess, Vec<u64>) {
    let mut pos = Chess::default();
    let mut history = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        let mut next = pos.clone();
        next.play_unchecked(m);
        if next.legal_moves().is_empty() {
            break;
        }
        history.push(key(&pos));
        pos = next;
    }
    (pos, history)
}

/// Whether `pos` is quiet: not in check, the engine's move is neither a
/// capture nor a promotion, and no capture wins material by exchange.
pub fn is_quiet(pos: &Chess, best: Move) -> bool {
    !pos.is_check()
        && !best.is_capture()
        && best.promotion().is_none()
        && pos.capture_moves().into_iter().all(|m| see(pos, m) <= 0)
}

/// The result for White if the game is over: mate, stalemate, insufficient
/// material, fifty moves, threefold repetition, or the ply limit.
pub fn game_result(pos: &Chess, history: &[u64]) -> Option<f64> {
    if pos.is_game_over() {
        return Some(match pos.outcome().winner() {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        });
    }
    let k = key(pos);
    let repeats = history.iter().filter(|&&h| h == k).count();
    if pos.halfmoves() >= 100 || repeats >= 2 || history.len() >= MAX_PLIES {
        return Some(0.5);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_follow_the_seed() {
        let a = random_opening(&mut StdRng::seed_from_u64(7), 8);
        let b = random_opening(&mut StdRng::seed_from_u64(7), 8);
        assert_eq!(a, b);
        assert_eq!(a.1.len(), 8);
    }

    #[test]
    fn checkmate_is_a_result() {
        let fen: Fen = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1".parse().expect("fen");
        let pos: Chess = fen
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        assert_eq!(game_result(&pos, &[]), Some(1.0));
    }
}
