//! The transposition table: a fixed-size array of entries keyed by
//! shakmaty's 64-bit Zobrist hash, with depth-preferred replacement.

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

/// One stored search result.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    /// The full Zobrist key, to tell colliding positions apart.
    pub key: u64,
    /// The best or refuting move, if any.
    pub best: Option<Move>,
    /// The score, mate scores relative to this node.
    pub score: i32,
    /// The remaining depth the score was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
    generation: u8,
}

/// A transposition table sized in megabytes.
#[derive(Debug)]
pub struct TranspositionTable {
    entries: Vec<Option<Entry>>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one entry).
    #[must_use]
    pub fn new(mb: usize) -> Self {
        let len = (mb * 1024 * 1024 / size_of::<Option<Entry>>()).max(1);
        Self {
            entries: vec![None; len],
            generation: 0,
        }
    }

    /// Forgets everything (for `ucinewgame`).
    pub fn clear(&mut self) {
        self.entries.fill(None);
        self.generation = 0;
    }

    /// Marks the start of a new search, so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the table without a division.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, with mate scores made relative to `ply`.
    #[must_use]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let entry = self.entries[self.index(key)]?;
        (entry.key == key).then(|| Entry {
            score: score_from_tt(entry.score, ply),
            ..entry
        })
    }

    /// Stores a result; an entry from this search is only replaced by one of
    /// the same position or of at least its depth.
    pub fn store(
        &mut self,
        key: u64,
        best: Option<Move>,
        score: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let idx = self.index(key);
        let generation = self.generation;
        let slot = &mut self.entries[idx];
        if let Some(old) = slot {
            let keep = old.generation == generation && old.key != key && old.depth > depth;
            if keep {
                return;
            }
        }
        let best = best.or_else(|| slot.filter(|old| old.key == key).and_then(|old| old.best));
        *slot = Some(Entry {
            key,
            best,
            score: score_to_tt(score, ply),
            depth,
            bound,
            generation,
        });
    }

    /// Permille of the first thousand slots that hold an entry of this search.
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|e| e.is_some_and(|e| e.generation == self.generation))
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
    use crate::search::MATE;

    #[test]
    fn stores_and_probes_with_mate_distance() {
        let mut tt = TranspositionTable::new(1);
        tt.store(42, None, MATE - 5, 3, Bound::Exact, 2);
        let e = tt.probe(42, 4).expect("stored");
        assert_eq!(e.score, MATE - 7);
        assert!(tt.probe(43, 0).is_none());
    }

    #[test]
    fn deeper_entry_of_this_search_is_kept() {
        let mut tt = TranspositionTable::new(0);
        tt.store(1, None, 10, 8, Bound::Exact, 0);
        tt.store(2, None, 20, 2, Bound::Exact, 0);
        assert_eq!(tt.probe(1, 0).map(|e| e.score), Some(10));
        tt.new_search();
        tt.store(2, None, 20, 2, Bound::Exact, 0);
        assert_eq!(tt.probe(2, 0).map(|e| e.score), Some(20));
    }
}
