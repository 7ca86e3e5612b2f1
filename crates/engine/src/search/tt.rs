//! The transposition table: a fixed-size array of entries keyed by
//! shakmaty's 64-bit Zobrist hash, with depth-preferred replacement.
//!
//! The table is shared by every search thread without locks: an entry is
//! two `AtomicU64`s, the packed data and the key xor the data. A torn
//! write (one word from one thread, the other from another) fails the key
//! check on reading, so it reads as a miss rather than as wrong data.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use shakmaty::Move;

use super::{MATE_BOUND, MAX_PLY};

/// What a stored score means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true score.
    Exact,
    /// The true score is at least this (a beta cut-off).
    Lower,
    /// The true score is at most this (no move raised alpha).
    Upper,
}

impl Bound {
    /// What a search's best `score` within `(alpha, beta)` tells: a lower
    /// bound at or above `beta`, the true score inside the window, an
    /// upper bound at or below `alpha`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_engine::search::tt::Bound;
    /// assert_eq!(Bound::of(50, 0, 40), Bound::Lower);
    /// assert_eq!(Bound::of(20, 0, 40), Bound::Exact);
    /// assert_eq!(Bound::of(0, 0, 40), Bound::Upper);
    /// ```
    #[must_use]
    pub fn of(score: i32, alpha: i32, beta: i32) -> Self {
        if score >= beta {
            Self::Lower
        } else if score > alpha {
            Self::Exact
        } else {
            Self::Upper
        }
    }

    /// The two bits stored for the bound; 0 marks an empty slot.
    fn bits(self) -> u64 {
        match self {
            Self::Exact => 1,
            Self::Lower => 2,
            Self::Upper => 3,
        }
    }

    /// The bound stored as `bits`; `None` for an empty slot.
    fn from_bits(bits: u64) -> Option<Self> {
        match bits {
            1 => Some(Self::Exact),
            2 => Some(Self::Lower),
            3 => Some(Self::Upper),
            _ => None,
        }
    }
}

/// A move as 16 bits: origin, destination and promotion. Castling is
/// king-takes-rook, so no two moves of one position share a code, and 0 is
/// no move at all (no move goes from a square to itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedMove(u16);

impl PackedMove {
    /// Packs `m`.
    #[must_use]
    pub fn new(m: Move) -> Self {
        let from = m.from().map_or(0, |sq| sq.to_usize() as u16);
        let to = match m {
            Move::Castle { rook, .. } => rook,
            _ => m.to(),
        };
        let promotion = m.promotion().map_or(0, |r| r as u16);
        Self(from | (to.to_usize() as u16) << 6 | promotion << 12)
    }
}

/// One stored search result.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The best or refuting move, if any.
    pub best: Option<PackedMove>,
    /// The score, mate scores relative to the probing node.
    pub score: i32,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
    /// The static evaluation of the position, if it was taken (not in
    /// check).
    pub eval: Option<i32>,
    generation: u8,
}

/// What a search stores for a position: [`Entry`] without the bookkeeping.
#[derive(Debug, Clone, Copy)]
pub struct Record {
    /// The best or refuting move, if any.
    pub best: Option<Move>,
    /// The score, mate scores relative to the storing node.
    pub score: i32,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
    /// The static evaluation, if taken.
    pub eval: Option<i32>,
}

/// The generation is kept in 6 bits; older generations wrap around.
const GENERATION_MASK: u8 = 63;

/// A new result for a stored position replaces the old one unless the old
/// one was searched at least this much deeper (and the new one is not exact).
const SAME_POSITION_DEPTH_MARGIN: i32 = 4;

/// The stored evaluation that means "none".
const NO_EVAL: i16 = i16::MIN;

impl Entry {
    /// Whether the stored score settles a search within `(alpha, beta)`:
    /// exact, or a bound on the side of the window it proves.
    #[must_use]
    pub fn settles(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }

    /// The 64 bits stored for the entry: move, score, evaluation (16 bits
    /// each), depth (8), bound (2) and generation (6).
    fn pack(&self) -> u64 {
        let eval = self.eval.map_or(NO_EVAL, |e| {
            e.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16
        });
        u64::from(self.best.map_or(0, |m| m.0))
            | u64::from(self.score as i16 as u16) << 16
            | u64::from(eval as u16) << 32
            | u64::from(self.depth.clamp(0, 255) as u8) << 48
            | self.bound.bits() << 56
            | u64::from(self.generation & GENERATION_MASK) << 58
    }

    /// The entry stored as `data`; `None` for an empty slot.
    fn unpack(data: u64) -> Option<Self> {
        let code = data as u16;
        let eval = (data >> 32) as u16 as i16;
        Some(Self {
            best: (code != 0).then_some(PackedMove(code)),
            score: i32::from((data >> 16) as u16 as i16),
            eval: (eval != NO_EVAL).then_some(i32::from(eval)),
            depth: i32::from((data >> 48) as u8),
            bound: Bound::from_bits((data >> 56) & 3)?,
            generation: (data >> 58) as u8,
        })
    }
}

/// One slot: the key xor the data, and the data.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The stored key and entry, if the slot is in use.
    fn load(&self) -> Option<(u64, Entry)> {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.check.load(Ordering::Relaxed) ^ data;
        Entry::unpack(data).map(|entry| (key, entry))
    }

    fn save(&self, key: u64, data: u64) {
        self.check.store(key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

/// A transposition table sized in megabytes, shared by reference between
/// search threads.
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: AtomicU8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one entry).
    #[must_use]
    pub fn new(mb: usize) -> Self {
        let len = (mb * 1024 * 1024 / size_of::<Slot>()).max(1);
        Self {
            slots: (0..len).map(|_| Slot::default()).collect(),
            generation: AtomicU8::new(0),
        }
    }

    /// Forgets everything (for `ucinewgame`).
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.save(0, 0);
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The generation of the running search, as entries store it.
    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & GENERATION_MASK
    }

    fn slot(&self, key: u64) -> &Slot {
        // Multiply-shift maps the key onto the table without a division.
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    /// The entry for `key`, with mate scores made relative to `ply`.
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let (stored, entry) = self.slot(key).load()?;
        (stored == key).then(|| Entry {
            score: score_from_tt(entry.score, ply),
            ..entry
        })
    }

    /// Stores what a search at `ply` found for `key`; an entry from this
    /// search is only replaced by one of the same position or of at least
    /// its depth.
    pub fn store(&self, key: u64, ply: usize, record: Record) {
        let slot = self.slot(key);
        let generation = self.generation();
        let old = slot.load();
        if let Some((old_key, old)) = old {
            // Another position of this search, searched deeper; or this
            // position searched much deeper, which a shallow bound (from
            // quiescence, say) must not erase.
            let keep = if old_key == key {
                old.depth >= record.depth + SAME_POSITION_DEPTH_MARGIN
                    && record.bound != Bound::Exact
            } else {
                old.generation == generation && old.depth > record.depth
            };
            if keep {
                return;
            }
        }
        let same = old.filter(|&(old_key, _)| old_key == key).map(|(_, e)| e);
        let entry = Entry {
            best: record
                .best
                .map(PackedMove::new)
                .or_else(|| same.and_then(|e| e.best)),
            score: score_to_tt(record.score, ply),
            eval: record.eval.or_else(|| same.and_then(|e| e.eval)),
            depth: record.depth,
            bound: record.bound,
            generation,
        };
        slot.save(key, entry.pack());
    }

    /// Permille of the first thousand slots that hold an entry of this search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.slots.len().min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| s.load().is_some_and(|(_, e)| e.generation == generation))
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply.min(MAX_PLY) as i32;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply.min(MAX_PLY) as i32;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{INFINITY, MATE};
    use shakmaty::{Chess, Position};

    fn record(best: Option<Move>, score: i32, depth: i32, bound: Bound) -> Record {
        Record {
            best,
            score,
            depth,
            bound,
            eval: None,
        }
    }

    #[test]
    fn stores_and_probes_with_mate_distance() {
        let tt = TranspositionTable::new(1);
        tt.store(42, 2, record(None, MATE - 5, 3, Bound::Exact));
        let e = tt.probe(42, 4).expect("stored");
        assert_eq!(e.score, MATE - 7);
        assert!(tt.probe(43, 0).is_none());
    }

    #[test]
    fn deeper_entry_of_this_search_is_kept() {
        let tt = TranspositionTable::new(0);
        tt.store(1, 0, record(None, 10, 8, Bound::Exact));
        tt.store(2, 0, record(None, 20, 2, Bound::Exact));
        assert_eq!(tt.probe(1, 0).map(|e| e.score), Some(10));
        tt.new_search();
        tt.store(2, 0, record(None, 20, 2, Bound::Exact));
        assert_eq!(tt.probe(2, 0).map(|e| e.score), Some(20));
    }

    #[test]
    fn a_shallow_bound_does_not_erase_a_deep_result_of_the_same_position() {
        let tt = TranspositionTable::new(1);
        tt.store(5, 0, record(None, 40, 9, Bound::Lower));
        tt.store(5, 0, record(None, -10, 0, Bound::Upper));
        assert_eq!(tt.probe(5, 0).map(|e| (e.score, e.depth)), Some((40, 9)));
        // An exact result, or one nearly as deep, does replace it.
        tt.store(5, 0, record(None, 12, 6, Bound::Upper));
        assert_eq!(tt.probe(5, 0).map(|e| (e.score, e.depth)), Some((12, 6)));
        tt.store(5, 0, record(None, 3, 0, Bound::Exact));
        assert_eq!(tt.probe(5, 0).map(|e| (e.score, e.depth)), Some((3, 0)));
    }

    #[test]
    fn every_field_round_trips() {
        let tt = TranspositionTable::new(1);
        let m = Chess::default().legal_moves()[5];
        for (score, bound) in [
            (-INFINITY, Bound::Upper),
            (INFINITY, Bound::Lower),
            (-123, Bound::Exact),
        ] {
            tt.store(7, 0, record(Some(m), score, 37, bound));
            let e = tt.probe(7, 0).expect("stored");
            assert_eq!(
                (e.best, e.score, e.depth, e.bound),
                (Some(PackedMove::new(m)), score, 37, bound)
            );
        }
        // A later store without a move keeps the move of the same position.
        tt.store(7, 0, record(None, 0, 38, Bound::Upper));
        assert_eq!(
            tt.probe(7, 0).and_then(|e| e.best),
            Some(PackedMove::new(m))
        );
        // The evaluation is kept the same way, and round-trips when given.
        tt.store(
            7,
            0,
            Record {
                eval: Some(-77),
                ..record(None, 5, 39, Bound::Exact)
            },
        );
        tt.store(7, 0, record(None, 6, 40, Bound::Exact));
        assert_eq!(tt.probe(7, 0).and_then(|e| e.eval), Some(-77));
        tt.clear();
        assert!(tt.probe(7, 0).is_none());
    }

    #[test]
    fn distinct_moves_pack_distinctly() {
        // Kiwipete: castling both ways, promotions nearby, many captures.
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let pos: Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .expect("fen")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal");
        let codes: std::collections::HashSet<_> =
            pos.legal_moves().into_iter().map(PackedMove::new).collect();
        assert_eq!(codes.len(), pos.legal_moves().len());
        assert!(!codes.contains(&PackedMove(0)));
    }

    #[test]
    fn torn_slot_reads_as_a_miss() {
        let tt = TranspositionTable::new(0);
        tt.store(99, 0, record(None, 50, 4, Bound::Exact));
        // Another thread's data word lands without its key word.
        let other = Entry {
            best: None,
            score: -50,
            depth: 9,
            bound: Bound::Lower,
            eval: None,
            generation: 0,
        };
        tt.slots[0].data.store(other.pack(), Ordering::Relaxed);
        assert!(tt.probe(99, 0).is_none());
    }
}
