//! A game under the Laws: the position, its history, pending draw offers
//! and, once it has ended, the outcome.
//!
//! ```
//! use rochade_laws::{Game, GameResult, Reason, RuleSet};
//!
//! let mut game = Game::new(RuleSet::Fide);
//! for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
//!     game.play_uci(uci)?;
//! }
//! let outcome = game.outcome().expect("fool's mate");
//! assert_eq!(outcome.result, GameResult::BlackWins);
//! assert_eq!(outcome.reason, Reason::Checkmate);
//! # Ok::<_, rochade_laws::MoveError>(())
//! ```

mod error;
mod history;
mod replay;

pub use error::{MoveError, StartError};
pub use history::History;

use rand::Rng;
use shakmaty::{CastlingMode, Chess, Color, Move, Position};

use crate::{
    Language, Outcome, Reason, RuleSet, SanStyle, chess960, dead,
    draw::{ClaimError, ClaimKind, ClaimVerdict, DrawOffer, OfferError},
    fen, notation, safety,
    tablebase::{TABLEBASE_MAX_PIECES, TablebaseClaim, TablebaseClaimError, TablebaseValue},
};

/// A game of chess from its start position to its end.
#[derive(Debug, Clone)]
pub struct Game {
    rules: RuleSet,
    castling: CastlingMode,
    chess960: Option<u32>,
    history: History,
    outcome: Option<Outcome>,
    offer: Option<DrawOffer>,
    /// Every draw offer made, for the score sheet (8.1.6: "=").
    offers: Vec<DrawOffer>,
    /// 9.1.1: no agreement before each player has made this many moves.
    min_moves_for_agreement: u32,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(RuleSet::default())
    }
}

impl Game {
    /// A game from the standard start position.
    pub fn new(rules: RuleSet) -> Game {
        Game::from_position(Chess::default(), CastlingMode::Standard, rules)
    }

    /// A game from any legal position.
    ///
    /// A position that has already ended (checkmate, stalemate, a dead
    /// position, or 75 moves without pawn move or capture under the current
    /// rules) gives a game that is already over.
    pub fn from_position(start: Chess, castling: CastlingMode, rules: RuleSet) -> Game {
        let chess960 = start_number(&start, castling);
        Game::starting(start, castling, rules, chess960)
    }

    /// A game from `start`, whose Chess960 number (if any) is known.
    fn starting(
        start: Chess,
        castling: CastlingMode,
        rules: RuleSet,
        chess960: Option<u32>,
    ) -> Game {
        Game::starting_in(History::new(start), castling, rules, chess960)
    }

    /// [`Game::from_position`], recording the game in `spare`, a finished
    /// game's history whose memory is reused (the PGN reader's games).
    pub(crate) fn from_position_in(
        start: Chess,
        castling: CastlingMode,
        rules: RuleSet,
        mut spare: History,
    ) -> Game {
        let chess960 = start_number(&start, castling);
        spare.restart(start);
        Game::starting_in(spare, castling, rules, chess960)
    }

    /// A game recorded in `history`, which holds just its start position.
    fn starting_in(
        history: History,
        castling: CastlingMode,
        rules: RuleSet,
        chess960: Option<u32>,
    ) -> Game {
        let mut game = Game {
            rules,
            castling,
            chess960,
            history,
            outcome: None,
            offer: None,
            offers: Vec::new(),
            min_moves_for_agreement: 0,
        };
        game.outcome = game.automatic_outcome(game.position().turn().other());
        game
    }

    /// A game from a FEN, X-FEN or Shredder-FEN.
    ///
    /// # Errors
    ///
    /// [`StartError::Fen`] when the FEN is unreadable or the position illegal.
    pub fn from_fen(text: &str, rules: RuleSet) -> Result<Game, StartError> {
        let read = fen::read(text)?;
        Ok(Game::from_position(read.position, read.castling, rules))
    }

    /// A Chess960 game from start position `number` (0–959; 518 is the
    /// standard position).
    ///
    /// # Errors
    ///
    /// [`StartError::Chess960`] when `number` is 960 or more.
    pub fn chess960(number: u32, rules: RuleSet) -> Result<Game, StartError> {
        let start = chess960::position(number)?;
        Ok(Game::starting(
            start,
            CastlingMode::Chess960,
            rules,
            Some(number),
        ))
    }

    /// A Chess960 game from a random start position.
    pub fn chess960_random<R: Rng + ?Sized>(rng: &mut R, rules: RuleSet) -> Game {
        let number = rng.random_range(0..u32::from(chess960::COUNT));
        let start = chess960::position(number).unwrap_or_default();
        Game::starting(start, CastlingMode::Chess960, rules, Some(number))
    }

    /// Forbids a draw agreement before each player has made `moves` moves
    /// (9.1.1).
    pub fn set_min_moves_for_agreement(&mut self, moves: u32) {
        self.min_moves_for_agreement = moves;
    }

    /// The rule set the game is played under.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Standard or Chess960 castling.
    pub fn castling_mode(&self) -> CastlingMode {
        self.castling
    }

    /// The Chess960 start number, if the game started from one.
    pub fn chess960_number(&self) -> Option<u32> {
        self.chess960
    }

    /// The position on the board now.
    pub fn position(&self) -> &Chess {
        self.history.current()
    }

    /// The whole record of positions and moves.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The record of positions and moves, taking the game apart (its
    /// memory can record another game: [`crate::pgn::PgnReader::recycle`]).
    pub(crate) fn into_history(self) -> History {
        self.history
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        self.history.moves()
    }

    /// The player on move.
    pub fn turn(&self) -> Color {
        self.position().turn()
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The pending draw offer, if any.
    pub fn pending_offer(&self) -> Option<DrawOffer> {
        self.offer
    }

    /// Every draw offer made in the game, in order.
    pub fn offers(&self) -> &[DrawOffer] {
        &self.offers
    }

    /// The current position as FEN (X-FEN castling rights).
    pub fn fen(&self) -> String {
        fen::write(self.position(), fen::FenStyle::XFen)
    }

    /// Refuses anything once the game is over.
    fn ensure_ongoing(&self) -> Result<(), Outcome> {
        match self.outcome {
            Some(outcome) => Err(outcome),
            None => Ok(()),
        }
    }

    /// Plays a move for the side to move (Articles 3 and 4), then ends the
    /// game if the Laws end it: checkmate (5.1.1), stalemate (5.2.1), dead
    /// position (5.2.2), and under the current FIDE rules fivefold
    /// repetition (9.6.1) and the 75-move rule (9.6.2).
    ///
    /// # Errors
    ///
    /// [`MoveError::GameOver`] after the end, [`MoveError::Illegal`] for a
    /// move that breaks the Laws; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<Option<Outcome>, MoveError> {
        self.ensure_ongoing().map_err(MoveError::GameOver)?;
        let pos = self.position();
        if !pos.is_legal(m) {
            return Err(MoveError::Illegal {
                uci: m.to_uci(self.castling).to_string(),
                reason: illegal_reason(pos, m),
            });
        }
        self.play_legal_unchecked(m);
        Ok(self.outcome)
    }

    /// Plays `m`, already known to be legal in the current position (it
    /// came from the position's own move generation), on an ongoing game.
    pub(crate) fn play_legal(&mut self, m: Move) -> Result<Option<Outcome>, MoveError> {
        self.ensure_ongoing().map_err(MoveError::GameOver)?;
        debug_assert!(self.position().is_legal(m));
        self.play_legal_unchecked(m);
        Ok(self.outcome)
    }

    /// Plays the legal move `m` and updates offers and the outcome.
    fn play_legal_unchecked(&mut self, m: Move) {
        let mover = self.position().turn();
        self.history.push(m);
        if let Some(offer) = self.offer {
            // 9.1.2.2: the opponent's move ends an offer they did not answer.
            if offer.by != mover && !self.rules.offer_survives_reply() {
                self.offer = None;
            }
        }
        self.outcome = self.automatic_outcome(mover);
    }

    /// Plays a move given in UCI notation (`e2e4`, `e7e8q`; Chess960
    /// castling as king onto rook, `e1h1`, or `e1g1` where that is
    /// unambiguous).
    ///
    /// # Errors
    ///
    /// [`MoveError::Notation`] when the text is not a legal move in UCI,
    /// [`MoveError::GameOver`] after the end.
    pub fn play_uci(&mut self, text: &str) -> Result<Option<Outcome>, MoveError> {
        self.ensure_ongoing().map_err(MoveError::GameOver)?;
        let m = notation::read_uci(self.position(), text, self.castling)?;
        self.play(m)
    }

    /// Plays a move written in any notation Rochade reads: UCI, ICCF
    /// numeric, SAN or long algebraic with the piece letters of `language`.
    ///
    /// ```
    /// use rochade_laws::{Game, Language, RuleSet};
    /// let mut game = Game::new(RuleSet::Fide);
    /// game.play_text("e4", Language::Slovak)?;
    /// game.play_text("7866", Language::Slovak)?; // ICCF numeric: ...Nf6
    /// game.play_text("Jc3", Language::Slovak)?;
    /// assert_eq!(game.moves().len(), 3);
    /// # Ok::<_, rochade_laws::MoveError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`MoveError::Notation`] saying what was wrong (unreadable, illegal,
    /// ambiguous with the candidates, wrong side), [`MoveError::GameOver`].
    pub fn play_text(
        &mut self,
        text: &str,
        language: Language,
    ) -> Result<Option<Outcome>, MoveError> {
        self.ensure_ongoing().map_err(MoveError::GameOver)?;
        let m = notation::read_move(self.position(), text, language, self.castling)?;
        self.play(m)
    }

    /// The moves in SAN as `style` writes them, in order.
    pub fn san_moves(&self, style: &SanStyle) -> Vec<String> {
        let positions = self.history.positions();
        self.moves()
            .iter()
            .zip(positions)
            .map(|(m, pos)| notation::write_san(pos, *m, style))
            .collect()
    }

    /// The ending that the position itself forces, if any, after `mover`
    /// moved.
    fn automatic_outcome(&self, mover: Color) -> Option<Outcome> {
        let pos = self.position();
        // In an endgame a king step to a quiet square usually shows at once
        // that the player has a legal move and is not forced to capture.
        let quiet_step = dead::endgame_quiet_step(pos);
        if quiet_step != Some(true) && !has_legal_move(pos, quiet_step) {
            return Some(if pos.is_check() {
                Outcome::win(mover, Reason::Checkmate)
            } else {
                Outcome::draw(Reason::Stalemate)
            });
        }
        if dead::is_dead_knowing(pos, quiet_step) {
            return Some(Outcome::draw(Reason::DeadPosition));
        }
        if self.rules.automatic_draws() {
            // Five equal positions lie at least 4 plies apart (the same
            // side to move, and no position recurs after 2 plies), so they
            // need 16 plies without an irreversible move.
            if pos.halfmoves() >= 16 && self.history.stood_at_least(5) {
                return Some(Outcome::draw(Reason::FivefoldRepetition));
            }
            if pos.halfmoves() >= 150 {
                return Some(Outcome::draw(Reason::SeventyFiveMoves));
            }
        }
        None
    }

    /// Resignation by `player`, at any time (5.1.2).
    ///
    /// # Errors
    ///
    /// The outcome, if the game had already ended.
    pub fn resign(&mut self, player: Color) -> Result<Outcome, Outcome> {
        self.end(Outcome::win(player.other(), Reason::Resignation))
    }

    /// `player`'s flag has fallen (6.9): a loss, unless the opponent cannot
    /// checkmate by any series of legal moves, then a draw.
    ///
    /// # Errors
    ///
    /// The outcome, if the game had already ended.
    pub fn flag_fallen(&mut self, player: Color) -> Result<Outcome, Outcome> {
        self.ensure_ongoing()?;
        let outcome = match dead::can_checkmate(self.position(), player.other()) {
            dead::Winnability::Unwinnable => Outcome::draw(Reason::TimeoutVsInsufficientMaterial),
            dead::Winnability::Winnable | dead::Winnability::Unknown => {
                Outcome::win(player.other(), Reason::Timeout)
            }
        };
        self.end(outcome)
    }

    /// Both flags have fallen and it cannot be told which fell first: a
    /// draw when it happened in the last period (FIDE 6.11), a double
    /// forfeit under the ICCF rules (ICCF 6.9: both players lose).
    ///
    /// # Errors
    ///
    /// The outcome, if the game had already ended.
    pub fn both_flags_fallen(&mut self) -> Result<Outcome, Outcome> {
        match self.rules {
            RuleSet::Iccf => self.double_forfeit(),
            RuleSet::Fide | RuleSet::Fide2009 => self.end(Outcome::draw(Reason::BothFlagsFallen)),
        }
    }

    /// The arbiter declares the game lost by `loser` by forfeit.
    ///
    /// # Errors
    ///
    /// The outcome, if the game had already ended.
    pub fn forfeit(&mut self, loser: Color) -> Result<Outcome, Outcome> {
        self.end(Outcome::win(loser.other(), Reason::Forfeit))
    }

    /// The tournament director adjudicates the game (ICCF 11.1): a win
    /// (5.1.4) or a draw (5.2.6); a loss for both is
    /// [`Game::double_forfeit`].
    ///
    /// # Errors
    ///
    /// The outcome, if the game had already ended.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::{Game, GameResult, Reason, RuleSet};
    /// let mut game = Game::new(RuleSet::Iccf);
    /// let outcome = game.adjudicate(GameResult::Draw).unwrap();
    /// assert_eq!(outcome.reason, Reason::AdjudicatedDraw);
    /// assert_eq!(outcome.reason.article(), "ICCF 5.2.6");
    /// ```
    pub fn adjudicate(&mut self, result: crate::GameResult) -> Result<Outcome, Outcome> {
        match result.winner() {
            Some(winner) => self.end(Outcome::win(winner, Reason::AdjudicatedWin)),
            None if result == crate::GameResult::Draw => {
                self.end(Outcome::draw(Reason::AdjudicatedDraw))
            }
            None => self.double_forfeit(),
        }
    }

    /// Both players lose by forfeit (ICCF).
    ///
    /// # Errors
    ///
    /// The outcome, if the game had already ended.
    pub fn double_forfeit(&mut self) -> Result<Outcome, Outcome> {
        self.end(Outcome {
            result: crate::GameResult::BothLose,
            reason: Reason::DoubleForfeit,
        })
    }

    /// Ends the game with `outcome` unless it has ended already.
    fn end(&mut self, outcome: Outcome) -> Result<Outcome, Outcome> {
        self.ensure_ongoing()?;
        self.outcome = Some(outcome);
        self.offer = None;
        Ok(outcome)
    }

    /// `player` offers a draw (9.1.2). The offer cannot be withdrawn and
    /// stays valid until the opponent accepts or declines it, or makes a
    /// move (under ICCF rules, a move does not end it).
    ///
    /// # Errors
    ///
    /// [`OfferError::GameOver`], [`OfferError::TooEarly`] (9.1.1),
    /// [`OfferError::AlreadyOffered`].
    pub fn offer_draw(&mut self, player: Color) -> Result<(), OfferError> {
        self.ensure_ongoing().map_err(OfferError::GameOver)?;
        self.ensure_agreement_allowed()?;
        match self.offer {
            Some(offer) if offer.by == player => Err(OfferError::AlreadyOffered),
            // An offer made while the opponent's stands is an acceptance in
            // substance; keep it an offer and let the opponent's stand.
            Some(_) => Ok(()),
            None => {
                let offer = DrawOffer {
                    by: player,
                    ply: self.history.plies(),
                };
                self.offer = Some(offer);
                self.offers.push(offer);
                Ok(())
            }
        }
    }

    /// `player` accepts the opponent's pending offer: a draw (5.2.3).
    ///
    /// # Errors
    ///
    /// [`OfferError::NoOffer`] when no offer by the opponent is pending.
    pub fn accept_draw(&mut self, player: Color) -> Result<Outcome, OfferError> {
        self.ensure_ongoing().map_err(OfferError::GameOver)?;
        match self.offer {
            Some(offer) if offer.by != player => self
                .end(Outcome::draw(Reason::Agreement))
                .map_err(OfferError::GameOver),
            _ => Err(OfferError::NoOffer),
        }
    }

    /// `player` declines the opponent's pending offer.
    ///
    /// # Errors
    ///
    /// [`OfferError::NoOffer`] when no offer by the opponent is pending.
    pub fn decline_draw(&mut self, player: Color) -> Result<(), OfferError> {
        self.ensure_ongoing().map_err(OfferError::GameOver)?;
        match self.offer {
            Some(offer) if offer.by != player => {
                self.offer = None;
                Ok(())
            }
            _ => Err(OfferError::NoOffer),
        }
    }

    /// 9.1.1 and ICCF 5.2.3: whether an agreement is allowed yet.
    fn ensure_agreement_allowed(&self) -> Result<(), OfferError> {
        let plies = self.history.plies() as u32;
        let both_moved = |moves: u32| plies >= 2 * moves;
        if !both_moved(self.min_moves_for_agreement) {
            return Err(OfferError::TooEarly {
                min_moves: self.min_moves_for_agreement,
            });
        }
        if self.rules.agreement_needs_both_moved() && !both_moved(1) {
            return Err(OfferError::TooEarly { min_moves: 1 });
        }
        Ok(())
    }

    /// Whether the player on move could claim `kind` now, without naming a
    /// move (9.2.1.2, 9.3.2).
    pub fn can_claim(&self, kind: ClaimKind) -> bool {
        self.outcome.is_none() && self.claim_holds(kind, None)
    }

    /// The legal moves that would make a claim of `kind` correct if the
    /// player on move named them as the intended move (9.2.1.1, 9.3.1).
    pub fn claims_with_move(&self, kind: ClaimKind) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let pos = self.position();
        if kind == ClaimKind::FiftyMoves && pos.halfmoves() < 99 {
            return Vec::new();
        }
        pos.legal_moves()
            .into_iter()
            .filter(|m| self.claim_holds(kind, Some(*m)))
            .collect()
    }

    /// Whether a claim of `kind`, with `intended` move if any, is correct.
    fn claim_holds(&self, kind: ClaimKind, intended: Option<Move>) -> bool {
        let pos = self.position();
        match (kind, intended) {
            (ClaimKind::ThreefoldRepetition, None) => self.history.repetitions() >= 3,
            (ClaimKind::ThreefoldRepetition, Some(m)) => self.history.repetitions_after(m) >= 3,
            (ClaimKind::FiftyMoves, None) => {
                pos.halfmoves() >= 100 && self.rules.fifty_move_claim_allowed(pieces(pos))
            }
            (ClaimKind::FiftyMoves, Some(m)) => {
                let mut next = pos.clone();
                next.play_unchecked(m);
                next.halfmoves() >= 100 && self.rules.fifty_move_claim_allowed(pieces(&next))
            }
        }
    }

    /// `claimant` claims a draw of `kind`, naming an `intended` move or not
    /// (9.2, 9.3). A correct claim draws the game (9.4). A wrong one is
    /// refused: the intended move is played, the claim stands as a draw
    /// offer (9.1.2.4), and the verdict names who gets the penalty time
    /// (9.5).
    ///
    /// # Errors
    ///
    /// [`ClaimError::GameOver`], [`ClaimError::NotOnMove`],
    /// [`ClaimError::IllegalIntendedMove`]; nothing changes.
    pub fn claim_draw(
        &mut self,
        claimant: Color,
        kind: ClaimKind,
        intended: Option<Move>,
    ) -> Result<ClaimVerdict, ClaimError> {
        self.ensure_ongoing().map_err(ClaimError::GameOver)?;
        if claimant != self.turn() {
            return Err(ClaimError::NotOnMove);
        }
        if let Some(m) = intended
            && !self.position().is_legal(m)
        {
            return Err(ClaimError::IllegalIntendedMove(
                m.to_uci(self.castling).to_string(),
            ));
        }
        if self.claim_holds(kind, intended) {
            let reason = match kind {
                ClaimKind::ThreefoldRepetition => Reason::ThreefoldRepetition,
                ClaimKind::FiftyMoves => Reason::FiftyMoves,
            };
            let outcome = Outcome::draw(reason);
            self.outcome = Some(outcome);
            self.offer = None;
            return Ok(ClaimVerdict::Drawn(outcome));
        }
        if self.offer.is_none() {
            let offer = DrawOffer {
                by: claimant,
                ply: self.history.plies(),
            };
            self.offer = Some(offer);
            self.offers.push(offer);
        }
        if let Some(m) = intended {
            self.play(m)
                .map_err(|e| ClaimError::IllegalIntendedMove(e.to_string()))?;
        }
        Ok(ClaimVerdict::Refused {
            played: intended,
            penalty_to: claimant.other(),
        })
    }

    /// `claimant` claims the win (ICCF 5.1.3) or the draw (ICCF 5.2.4)
    /// that the tablebase gives; `value` is the tables' value for the side
    /// to move, `None` when they do not hold the position. A correct claim
    /// ends the game; a wrong one changes nothing (ICCF 9.4.3: the game goes
    /// on) and returns `None`.
    ///
    /// # Errors
    ///
    /// [`TablebaseClaimError::GameOver`], [`TablebaseClaimError::NotOnMove`],
    /// [`TablebaseClaimError::NotUnderTheseRules`] (not ICCF),
    /// [`TablebaseClaimError::TooManyPieces`] (more than seven).
    pub fn claim_tablebase(
        &mut self,
        claimant: Color,
        claim: TablebaseClaim,
        value: Option<TablebaseValue>,
    ) -> Result<Option<Outcome>, TablebaseClaimError> {
        self.ensure_ongoing()
            .map_err(TablebaseClaimError::GameOver)?;
        if self.rules != RuleSet::Iccf {
            return Err(TablebaseClaimError::NotUnderTheseRules);
        }
        if claimant != self.turn() {
            return Err(TablebaseClaimError::NotOnMove);
        }
        let on_board = pieces(self.position());
        if on_board > TABLEBASE_MAX_PIECES {
            return Err(TablebaseClaimError::TooManyPieces(on_board));
        }
        if !value.is_some_and(|v| claim.holds(v)) {
            return Ok(None);
        }
        let outcome = match claim {
            TablebaseClaim::Win => Outcome::win(claimant, Reason::TablebaseWin),
            TablebaseClaim::Draw => Outcome::draw(Reason::TablebaseDraw),
        };
        self.end(outcome)
            .map(Some)
            .map_err(TablebaseClaimError::GameOver)
    }

    /// Takes back the last move (Article 7: restoring the position before an
    /// irregularity; or for analysis). A game that had ended is reopened.
    /// Returns the move taken back, or `None` at the start.
    pub fn take_back(&mut self) -> Option<Move> {
        let m = self.history.pop()?;
        let plies = self.history.plies();
        self.offers.retain(|o| o.ply <= plies);
        self.offer = self.offer.filter(|o| o.ply < plies);
        self.outcome = None;
        Some(m)
    }
}

/// The Chess960 start number of `start`, if it is one and the game is
/// played with Chess960 castling.
fn start_number(start: &Chess, castling: CastlingMode) -> Option<u32> {
    match castling {
        CastlingMode::Chess960 => chess960::number_of(start),
        CastlingMode::Standard => None,
    }
}

/// Pieces on the board, kings and pawns included.
fn pieces(pos: &Chess) -> u32 {
    pos.board().occupied().count() as u32
}

/// Why a move is not legal in `pos`.
fn illegal_reason(pos: &Chess, m: Move) -> String {
    match pos.board().piece_at(m.from().unwrap_or(m.to())) {
        None => "there is no piece to move".to_owned(),
        Some(piece) if piece.color != pos.turn() => {
            format!("{} is to move", pos.turn())
        }
        Some(_) if pos.is_check() => "it does not get out of check".to_owned(),
        Some(_) => "that piece cannot move there".to_owned(),
    }
}

/// Whether the side to move has a legal move: `!legal_moves().is_empty()`,
/// answered without generating every move when a king step to an unattacked
/// square, or a move of a knight or pawn that is not pinned, shows one.
/// `quiet_step` is whether a king step to an empty square does, when known.
fn has_legal_move(pos: &Chess, quiet_step: Option<bool>) -> bool {
    use shakmaty::{Bitboard, attacks};
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    let occupied = board.occupied();
    let Some(king) = board.king_of(us) else {
        return !pos.legal_moves().is_empty();
    };
    // A king step to a square no opposing man attacks (the king gone from
    // its own) is legal, in check or not.
    let without_king = occupied ^ Bitboard::from_square(king);
    let targets = match quiet_step {
        Some(true) => return true,
        Some(false) => board.by_color(us.other()),
        None => !ours,
    };
    for to in attacks::king_attacks(king) & targets {
        if !safety::attacked(board, to, us.other(), without_king) {
            return true;
        }
    }
    if safety::attacked(board, king, us.other(), occupied) {
        return !pos.legal_moves().is_empty();
    }
    // Not in check: a move of an unpinned knight or pawn is legal.
    let theirs = board.by_color(us.other());
    let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY)
        & (board.rooks() | board.queens()))
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & (board.bishops() | board.queens())))
        & theirs;
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let between = attacks::between(king, sniper) & occupied;
        if !between.more_than_one() {
            pinned |= between;
        }
    }
    for knight in board.knights() & ours & !pinned {
        if (attacks::knight_attacks(knight) & !ours).any() {
            return true;
        }
    }
    let pawns = board.pawns() & ours & !pinned;
    let pushes = match us {
        Color::White => pawns.shift(8),
        Color::Black => pawns.shift(-8),
    };
    if (pushes & !occupied).any() {
        return true;
    }
    !pos.legal_moves().is_empty()
}
