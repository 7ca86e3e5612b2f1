//! The record of a game: every position, the move that led to it, and the
//! key that tells repeated positions apart (9.2.2).

use shakmaty::{
    Chess, EnPassantMode, Move, Position, Role,
    zobrist::{Zobrist64, ZobristValue},
};

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
pub(crate) fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The key of the position after `m` from `last`, the key of `pos`, where
/// updating it is exact: shakmaty's update (no en passant square before or
/// after, no castling right touched, no king move), and king moves when no
/// castling right or en passant square is left (most endgame moves).
fn next_key(pos: &Chess, last: u64, m: Move) -> Option<u64> {
    if let Some(next) = pos.update_zobrist_hash(Zobrist64(last), m, EnPassantMode::Legal) {
        return Some(next.0);
    }
    let Move::Normal {
        role: Role::King,
        from,
        capture,
        to,
        promotion: None,
    } = m
    else {
        return None;
    };
    if !pos.castles().is_empty() || pos.maybe_ep_square().is_some() {
        return None;
    }
    let us = pos.turn();
    let mut next = Zobrist64(last);
    next ^= Zobrist64::zobrist_for_white_turn();
    next ^= Zobrist64::zobrist_for_piece(from, Role::King.of(us));
    next ^= Zobrist64::zobrist_for_piece(to, Role::King.of(us));
    if let Some(taken) = capture {
        next ^= Zobrist64::zobrist_for_piece(to, taken.of(us.other()));
    }
    Some(next.0)
}

impl History {
    /// A history that starts at `start`. It grows with the game: room for
    /// 128 plies made at the start (18 KB) was a quarter of a live game's
    /// memory on the server, most of it never used (docs/performance.md);
    /// a reader of many games reuses one record instead.
    pub fn new(start: Chess) -> History {
        let mut history = History {
            keys: Vec::new(),
            positions: Vec::new(),
            moves: Vec::new(),
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
        // Incremental where that is exact, from scratch otherwise: the same key.
        let last = self.keys[self.keys.len() - 1];
        let incremental = next_key(self.current(), last, m);
        // The move is played on the copy in the record itself: one copy of
        // the position a move, not two.
        self.positions.push(self.current().clone());
        let next = self.positions.len() - 1;
        self.positions[next].play_unchecked(m);
        let k = incremental.unwrap_or_else(|| key(&self.positions[next]));
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

    /// Whether the current position has stood on the board `times` times
    /// or more: `repetitions() >= times`, with the keys alone counted first
    /// (a position cannot have stood more often than its key).
    pub(crate) fn stood_at_least(&self, times: usize) -> bool {
        let last = self.keys.len() - 1;
        let window = (self.positions[last].halfmoves() as usize + 1).min(self.keys.len());
        let key = self.keys[last];
        let same_keys = self.keys[last + 1 - window..]
            .iter()
            .filter(|k| **k == key)
            .count();
        same_keys >= times && self.repetitions() >= times
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

    #[test]
    fn every_key_updated_is_the_key_computed() {
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "4k3/8/8/2KPp2r/8/8/8/8 w - e6 0 2",
            "8/8/3k4/3p4/2qK4/8/8/8 w - - 0 1",
            "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
        ];
        for text in fens {
            let pos = fen::read(text).expect("legal FEN").position;
            // Two plies deep: the moves of the position and of each reply.
            for m in pos.legal_moves() {
                let mut next = pos.clone();
                next.play_unchecked(m);
                if let Some(updated) = next_key(&pos, key(&pos), m) {
                    assert_eq!(updated, key(&next), "{text} {m:?}");
                }
                for reply in next.legal_moves() {
                    let mut after = next.clone();
                    after.play_unchecked(reply);
                    if let Some(updated) = next_key(&next, key(&next), reply) {
                        assert_eq!(updated, key(&after), "{text} {m:?} {reply:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_king_move_in_an_endgame_is_updated() {
        let pos = fen::read("8/8/3k4/8/8/3K4/8/8 w - - 0 1")
            .expect("legal")
            .position;
        let m = Move::Normal {
            role: Role::King,
            from: shakmaty::Square::D3,
            capture: None,
            to: shakmaty::Square::E3,
            promotion: None,
        };
        assert!(next_key(&pos, key(&pos), m).is_some());
    }
}
