//! The record of a game: every position, the move that led to it, and the
//! key that tells repeated positions apart (9.2.2).

use shakmaty::{Chess, EnPassantMode, Move, Position, zobrist::Zobrist64};

/// Every position of a game from its start, with the moves between them.
#[derive(Debug, Clone)]
pub struct History {
    /// `positions[i]` is the position after `i` plies.
    positions: Vec<Chess>,
    /// Zobrist keys of `positions`, a fast filter before comparing positions.
    keys: Vec<u64>,
    /// `moves[i]` led from `positions[i]` to `positions[i + 1]`.
    moves: Vec<Move>,
}

/// The repetition key of a position: equal positions (9.2.2) have equal keys.
/// Plies room is made for at the start: most games end before, so the
/// record is not copied as it grows (about 18 KB a game).
const RESERVED_PLIES: usize = 128;

pub(crate) fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

impl History {
    /// A history that starts at `start`.
    pub fn new(start: Chess) -> History {
        let mut history = History {
            keys: Vec::with_capacity(RESERVED_PLIES + 1),
            positions: Vec::with_capacity(RESERVED_PLIES + 1),
            moves: Vec::with_capacity(RESERVED_PLIES),
        };
        history.keys.push(key(&start));
        history.positions.push(start);
        history
    }

    /// Starts the record again at `start`, keeping the memory it holds (a
    /// reader of many games reuses one record instead of growing a new one
    /// for each game).
    pub(crate) fn restart(&mut self, start: Chess) {
        self.positions.clear();
        self.keys.clear();
        self.moves.clear();
        self.keys.push(key(&start));
        self.positions.push(start);
    }

    /// The position on the board now.
    pub fn current(&self) -> &Chess {
        // `positions` is never empty: `new` puts the start in and `pop`
        // never removes it.
        &self.positions[self.positions.len() - 1]
    }

    /// The start position.
    pub fn start(&self) -> &Chess {
        &self.positions[0]
    }

    /// Every position, the start first.
    pub fn positions(&self) -> &[Chess] {
        &self.positions
    }

    /// Every move played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The repetition key of each position, in order.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// Number of plies played.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// Plays a (legal) move: records it, the position it leads to and that
    /// position's key.
    pub fn push(&mut self, m: Move) {
        // Incremental where shakmaty can do it exactly (no en passant square
        // before or after the move), from scratch otherwise: the same key.
        let last = self.keys[self.keys.len() - 1];
        let incremental =
            self.current()
                .update_zobrist_hash(Zobrist64(last), m, EnPassantMode::Legal);
        // The move is played on the copy in the record itself: one copy of
        // the position a move, not two.
        self.positions.push(self.current().clone());
        let next = self.positions.len() - 1;
        self.positions[next].play_unchecked(m);
        let k = incremental.map_or_else(|| key(&self.positions[next]), |z| z.0);
        self.keys.push(k);
        self.moves.push(m);
    }

    /// Removes the last move, returning it; `None` at the start.
    pub fn pop(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.keys.pop();
        Some(m)
    }

    /// How many times `pos` (with key `key`) has stood on the board,
    /// counting positions since the last irreversible move only, since none
    /// before it can be the same (9.2.2).
    pub fn occurrences(&self, pos: &Chess, key: u64) -> usize {
        let window = (pos.halfmoves() as usize + 1).min(self.positions.len());
        let first = self.positions.len() - window;
        // Keys first, the positions behind an equal key only: equal keys
        // are rare, and a tight loop over the keys alone is fast.
        self.keys[first..]
            .iter()
            .enumerate()
            .filter(|&(i, k)| *k == key && self.positions[first + i] == *pos)
            .count()
    }

    /// How many times the current position has stood on the board,
    /// counting this time.
    pub fn repetitions(&self) -> usize {
        let last = self.positions.len() - 1;
        self.occurrences(&self.positions[last], self.keys[last])
    }

    /// How many times the position after `m` would have stood on the board,
    /// counting that time. `m` must be legal.
    pub fn repetitions_after(&self, m: Move) -> usize {
        let mut next = self.current().clone();
        next.play_unchecked(m);
        let k = key(&next);
        self.occurrences(&next, k) + 1
    }
}
