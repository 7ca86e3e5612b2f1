//! Static evaluation, tapered between middlegame and endgame: material and
//! piece-square tables, pawn structure (passed, isolated, doubled,
//! supported, phalanx and backward pawns), passed-pawn details, mobility,
//! king safety (attacks on the king zone, safe checks, the pawn shield,
//! pawn storms, weak squares next to the king),
//! threats, outposts, the bishop pair, bishops hemmed in by their own
//! pawns, minor pieces behind pawns, rooks on open files and the 7th, and
//! space;
//! the endgame half is scaled down in drawish material balances.
//!
//! Every term is a count times a weight from [`weights::WEIGHTS`], so the
//! evaluation is linear in the weights; [`trace`] returns the counts, which
//! is what the Texel tuner (`rochade-tune`) fits the weights to.
//!
//! ```
//! use rochade_engine::eval::evaluate;
//! use shakmaty::Chess;
//! // The start position is level but for the side to move's tempo.
//! assert_eq!(evaluate(&Chess::default()), rochade_engine::eval::TEMPO);
//! ```

pub mod features;
mod king;
mod material;
mod mobility;
mod passed;
mod pawns;
mod pieces;
mod scale;
mod space;
mod tapered;
#[cfg(test)]
mod tests;
mod threats;
pub mod weights;

use shakmaty::{Bitboard, Board, Chess, Color, Position, Role, attacks};

pub use scale::SCALE_NORMAL;
pub use tapered::{PHASE_TOTAL, Tapered};

use weights::WEIGHTS;

/// Bonus for the side to move.
pub const TEMPO: i32 = 10;

/// Game-phase weight of each role (pawn … king); a full board sums to
/// [`PHASE_TOTAL`].
pub const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Where the evaluation terms go: summed with the weights for play, or
/// counted for the tuner.
trait Terms {
    /// Records `count` occurrences of feature `index` for `color`.
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// Sums weighted terms for each side (`[black, white]`).
#[derive(Default)]
struct Sum([Tapered; 2]);

impl Terms for Sum {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.0[side(color)] += WEIGHTS[index] * count;
    }
}

/// The feature counts of one position, White minus Black, and its phase.
///
/// The evaluation for White is `Σ coefficients[i] * WEIGHTS[i]`, tapered by
/// `phase` with the endgame half scaled by `scale` (out of
/// [`SCALE_NORMAL`]; the entry of the side ahead in the endgame half),
/// plus the tempo bonus.
///
/// # Examples
///
/// ```
/// use rochade_engine::eval::{features, trace};
/// use shakmaty::Chess;
/// let t = trace(&Chess::default());
/// assert_eq!(t.phase, 24);
/// assert_eq!(t.coefficients[features::MATERIAL], 0); // 8 pawns each
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace {
    /// Game phase, 0 (endgame) to [`PHASE_TOTAL`] (middlegame).
    pub phase: i32,
    /// The endgame scale factor when Black (`[0]`) or White (`[1]`) is
    /// the side ahead in the endgame half.
    pub scale: [i32; 2],
    /// One count per weight, White's minus Black's.
    pub coefficients: Vec<i32>,
}

impl Terms for Trace {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        self.coefficients[index] += if color.is_white() { count } else { -count };
    }
}

/// What every term needs to know about the board, computed once.
struct Context<'a> {
    board: &'a Board,
    occupied: Bitboard,
    /// Pawns by colour (`[black, white]`).
    pawns: [Bitboard; 2],
    /// Squares attacked by pawns, by colour.
    pawn_attacks: [Bitboard; 2],
}

/// The squares each side attacks, filled in by the mobility pass and read
/// by the terms that need both sides' attacks (threats, safe checks,
/// passed pawns).
#[derive(Default)]
struct Attacks {
    /// Squares attacked by each role (`Role as usize - 1`), by colour.
    by_role: [[Bitboard; 6]; 2],
    /// Squares attacked by any piece, by colour.
    all: [Bitboard; 2],
    /// Squares attacked at least twice, by colour.
    twice: [Bitboard; 2],
    /// Attack units of the pieces reaching the enemy king zone, by the
    /// attacking colour.
    king_units: [i32; 2],
}

impl Attacks {
    /// The pawn and king attacks of both sides; the mobility pass adds the
    /// other pieces with [`Attacks::add`].
    #[inline(always)]
    fn new(ctx: &Context<'_>) -> Self {
        let mut a = Self::default();
        for color in Color::ALL {
            let s = side(color);
            let pawns = ctx.pawn_attacks[s];
            let king = ctx
                .board
                .king_of(color)
                .map(attacks::king_attacks)
                .unwrap_or_default();
            a.by_role[s][0] = pawns;
            a.by_role[s][5] = king;
            a.twice[s] = pawns & king | pawns::double_attacks(color, ctx.pawns[s]);
            a.all[s] = pawns | king;
        }
        a
    }

    /// Records that a piece of `role` and `color` attacks `reach`.
    #[inline(always)]
    fn add(&mut self, color: Color, role: Role, reach: Bitboard) {
        let s = side(color);
        self.by_role[s][role as usize - 1] |= reach;
        self.twice[s] |= self.all[s] & reach;
        self.all[s] |= reach;
    }

    /// The squares `role` pieces of `color` attack.
    #[inline(always)]
    fn by(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[side(color)][role as usize - 1]
    }
}

/// The index of `color` in a `[black, white]` array.
#[inline(always)]
fn side(color: Color) -> usize {
    usize::from(color.is_white())
}

/// `square` seen from `color`'s side of the board (a1 = 0 for both).
#[inline(always)]
fn relative(color: Color, square: shakmaty::Square) -> usize {
    match color {
        Color::White => square.to_usize(),
        Color::Black => square.to_usize() ^ 56,
    }
}

impl<'a> Context<'a> {
    /// The context of `board`.
    fn new(board: &'a Board) -> Self {
        let pawns = [board.pawns() & board.black(), board.pawns() & board.white()];
        Self {
            board,
            occupied: board.occupied(),
            pawns,
            pawn_attacks: [
                pawns::attacks(Color::Black, pawns[0]),
                pawns::attacks(Color::White, pawns[1]),
            ],
        }
    }
}

/// The game phase of `board`: 0 (endgame) to [`PHASE_TOTAL`].
fn phase(board: &Board) -> i32 {
    let count = |role: Role| board.by_role(role).count() as i32 * PHASE_WEIGHT[role as usize - 1];
    (count(Role::Knight) + count(Role::Bishop) + count(Role::Rook) + count(Role::Queen))
        .min(PHASE_TOTAL)
}

/// Feeds every term of `board` to `terms`.
#[inline(always)]
fn collect(board: &Board, terms: &mut impl Terms) {
    let ctx = Context::new(board);
    material::collect(&ctx, terms);
    pawns::collect(&ctx, terms);
    let mut attacks = Attacks::new(&ctx);
    mobility::collect(&ctx, &mut attacks, terms);
    king::collect(&ctx, &attacks, terms);
    pieces::collect(&ctx, terms);
    threats::collect(&ctx, &attacks, terms);
    passed::collect(&ctx, &attacks, terms);
    space::collect(&ctx, &attacks, terms);
}

/// The position's value in centipawns for the side to move.
///
/// # Examples
///
/// ```
/// use rochade_engine::eval::evaluate;
/// use shakmaty::{CastlingMode, Chess, fen::Fen};
/// let position = |fen: &str| -> Chess {
///     let fen: Fen = fen.parse().unwrap();
///     fen.into_position(CastlingMode::Standard).unwrap()
/// };
/// // A queen up with pawns on the board.
/// assert!(evaluate(&position("4k3/pppp4/8/8/8/8/PPPP4/3QK3 w - - 0 1")) > 800);
/// // A rook against a bishop without pawns is scaled towards a draw.
/// assert!(evaluate(&position("4k3/8/8/3b4/8/8/8/R3K3 w - - 0 1")) < 50);
/// ```
#[must_use]
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    let mut sum = Sum::default();
    collect(board, &mut sum);
    let [black, white] = sum.0;
    let white = white - black;
    let strong = if white.eg > 0 {
        Color::White
    } else {
        Color::Black
    };
    let scale = scale::scale_with_halfmoves(board, strong, pos.halfmoves());
    let white = white.taper_scaled(phase(board), scale);
    let ours = if pos.turn().is_white() { white } else { -white };
    ours + TEMPO
}

/// The feature counts behind [`evaluate`] for `pos`.
#[must_use]
pub fn trace(pos: &Chess) -> Trace {
    let board = pos.board();
    let mut trace = Trace {
        phase: phase(board),
        scale: [Color::Black, Color::White]
            .map(|strong| scale::scale_with_halfmoves(board, strong, pos.halfmoves())),
        coefficients: vec![0; features::COUNT],
    };
    collect(board, &mut trace);
    trace
}

/// The squares around `king` (and its own square): the king zone.
#[inline(always)]
fn king_zone(king: shakmaty::Square) -> Bitboard {
    attacks::king_attacks(king).with(king)
}
