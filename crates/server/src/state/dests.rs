//! The legal moves of a state as `{"e2":["e3","e4"],…}`: destinations by
//! origin square, written without a string made for each square.

use serde::ser::{Serialize, SerializeMap, Serializer};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Move, Position, Square};

/// The squares' names, by index (a1, b1, …, h8).
const NAMES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

/// The name of `square`.
fn name(square: Square) -> &'static str {
    NAMES[usize::from(square)]
}

/// Legal destinations by origin square: origins in the order of their
/// names (a1, a2, …, h8), each one's destinations in the order the moves
/// were generated, a promotion's square once. Castling is written as its
/// UCI says in the game's castling mode (`e1g1`, or the king onto its rook
/// in Chess960).
///
/// # Examples
///
/// ```
/// use rochade_server::state::Dests;
/// use shakmaty::{CastlingMode, Chess};
///
/// let dests = Dests::of(&Chess::default(), CastlingMode::Standard);
/// let json = serde_json::to_value(&dests).unwrap();
/// assert_eq!(json.as_object().unwrap().len(), 10);
/// assert_eq!(json["e2"], serde_json::json!(["e3", "e4"]));
/// assert_eq!(json["g1"], serde_json::json!(["f3", "h3"]));
/// ```
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Dests {
    /// Origin and destination of each legal move, sorted by origin.
    pairs: Vec<(Square, Square)>,
}

impl Dests {
    /// The legal moves of `pos`, written in castling `mode`.
    pub fn of(pos: &Chess, mode: CastlingMode) -> Dests {
        let legal = pos.legal_moves();
        // Each move keyed by its origin in name order (file, then rank),
        // then by its place among the generated moves (fewer than 256):
        // sorted unstably, the origins' destinations stay in the
        // generated order, without a stable sort's scratch buffer.
        let mut keyed: Vec<(u16, Square, Square)> = legal
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let (from, to) = match m {
                    // Castling as its UCI says in `mode`.
                    Move::Castle { .. } => match UciMove::from_move(*m, mode) {
                        UciMove::Normal { from, to, .. } => (from, to),
                        UciMove::Put { .. } | UciMove::Null => return None,
                    },
                    _ => (m.from()?, m.to()),
                };
                let origin = u16::from(from.file()) * 8 + u16::from(from.rank());
                Some((origin << 8 | i as u16, from, to))
            })
            .collect();
        keyed.sort_unstable_by_key(|(key, _, _)| *key);
        let mut pairs: Vec<(Square, Square)> =
            keyed.into_iter().map(|(_, from, to)| (from, to)).collect();
        pairs.dedup();
        Dests { pairs }
    }

    /// Whether there is no legal move.
    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The destinations as JSON, written directly: square names never
    /// need escaping, and a state's dozens of them, each through
    /// serde_json's string escaping, were a sixth of what a room computes
    /// for a move (`benches/room_move.rs`, docs/performance.md). The same
    /// text as serde_json writes from [`Serialize`].
    ///
    /// ```
    /// use rochade_server::state::Dests;
    /// use shakmaty::{CastlingMode, Chess};
    ///
    /// let dests = Dests::of(&Chess::default(), CastlingMode::Standard);
    /// assert!(dests.to_json().starts_with(r#"{"a2":["a3","a4"],"b1":["a3","c3"],"#));
    /// assert_eq!(dests.to_json(), serde_json::to_string(&dests).unwrap());
    /// assert_eq!(Dests::default().to_json(), "{}");
    /// ```
    pub fn to_json(&self) -> String {
        let mut json = String::with_capacity(self.json_len());
        self.push_json(&mut json);
        json
    }

    /// At most the length of [`Dests::to_json`]'s text: `"e2":[` and
    /// `"e4",` for each move, 12 bytes, and the braces.
    pub fn json_len(&self) -> usize {
        2 + 12 * self.pairs.len()
    }

    /// [`Dests::to_json`]'s text, appended to `out` (a state's, without a
    /// string of its own to copy).
    pub fn push_json(&self, out: &mut String) {
        out.push('{');
        for (i, group) in self.pairs.chunk_by(|a, b| a.0 == b.0).enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push('"');
            out.push_str(name(group[0].0));
            out.push_str("\":[");
            for (j, (_, to)) in group.iter().enumerate() {
                if j > 0 {
                    out.push(',');
                }
                out.push('"');
                out.push_str(name(*to));
                out.push('"');
            }
            out.push(']');
        }
        out.push('}');
    }
}

/// Destinations of one origin, as a JSON array.
struct Targets<'a>(&'a [(Square, Square)]);

impl Serialize for Targets<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|(_, to)| name(*to)))
    }
}

impl Serialize for Dests {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let groups = self.pairs.chunk_by(|a, b| a.0 == b.0);
        let mut map = serializer.serialize_map(Some(groups.clone().count()))?;
        for group in groups {
            map.serialize_entry(name(group[0].0), &Targets(group))?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rochade_laws::notation::write_uci;
    use shakmaty::fen::Fen;
    use std::collections::BTreeMap;

    /// The destinations as the state wrote them before this type: a map
    /// of names built move by move.
    fn by_names(pos: &Chess, mode: CastlingMode) -> BTreeMap<String, Vec<String>> {
        let mut dests: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for m in pos.legal_moves() {
            let uci = write_uci(m, mode);
            let list = dests.entry(uci[..2].to_owned()).or_default();
            if !list.contains(&uci[2..4].to_owned()) {
                list.push(uci[2..4].to_owned());
            }
        }
        dests
    }

    fn position(fen: &str, mode: CastlingMode) -> Chess {
        fen.parse::<Fen>()
            .expect("FEN")
            .into_position(mode)
            .expect("legal position")
    }

    #[test]
    fn the_same_json_as_a_map_of_names_in_the_same_order() {
        for (fen, mode) in [
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            // Castling both ways, promotions with and without capture.
            (
                "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R w KQkq - 0 1",
                CastlingMode::Standard,
            ),
            (
                "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 1",
                CastlingMode::Standard,
            ),
            // Chess960: the king onto its rook.
            (
                "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
                CastlingMode::Chess960,
            ),
            // En passant.
            ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", CastlingMode::Standard),
        ] {
            let pos = position(fen, mode);
            let ours = serde_json::to_string(&Dests::of(&pos, mode)).expect("json");
            let theirs = serde_json::to_string(&by_names(&pos, mode)).expect("json");
            assert_eq!(ours, theirs, "{fen}");
        }
    }

    #[test]
    fn checkmate_leaves_no_destination() {
        let pos = position(
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            CastlingMode::Standard,
        );
        let dests = Dests::of(&pos, CastlingMode::Standard);
        assert!(dests.is_empty());
        assert_eq!(serde_json::to_string(&dests).expect("json"), "{}");
    }
}
