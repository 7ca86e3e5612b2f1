//! A game as the server keeps it: its setup, the events so far, and what
//! they add up to — the [`TimedGame`] (position, history, clocks, outcome),
//! the moves in UCI and SAN, pending offers. [`Record::apply`] is the only
//! way to change it, both live and when a stored game is replayed.

use std::time::Duration;

use rochade_laws::notation::{read_uci, write_san, write_uci};
use rochade_laws::{
    ClaimError, ClaimVerdict, MoveError, NotationError, OfferError, RuleSet, SanStyle, TimedGame,
    TimedMoveError,
};
use shakmaty::{ByColor, Color, Move};

use crate::correspondence::conditional::{Branch, Tree};
use crate::error::{ActionError, ErrorCode};
use crate::event::{CloseReason, Event, OfferAction, Timed};
use crate::setup::{GameSetup, Mode, Side};

/// One half-move as shown to the players.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Ply {
    /// The move in UCI notation.
    pub uci: String,
    /// The move in English SAN.
    pub san: String,
    /// The index of the event that played it.
    #[serde(skip)]
    pub event: usize,
    /// A draw offer was made with it (9.1.2.1; `(=)` in the record).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub offer: bool,
}

/// The FEN of the position after some plies of some rewrite of them:
/// the state and the glance both show it after each move, and it is
/// written once. (The position changes only with a ply played or a
/// rewrite of the plies.)
#[derive(Debug, Default)]
struct FenKept(std::sync::Mutex<Option<(usize, u64, String)>>);

impl Clone for FenKept {
    fn clone(&self) -> FenKept {
        FenKept(std::sync::Mutex::new(self.lock().clone()))
    }
}

impl FenKept {
    /// The kept FEN, locked.
    fn lock(&self) -> std::sync::MutexGuard<'_, Option<(usize, u64, String)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A game: its setup, events and their sum.
#[derive(Debug, Clone)]
pub struct Record {
    /// The fixed settings.
    pub setup: GameSetup,
    /// Every accepted event, in order.
    pub events: Vec<Timed>,
    /// The game on its clock.
    pub timed: TimedGame,
    /// The moves played, one per ply. They only grow, and only the last
    /// one changes (a draw offer made with it), except when a take-back
    /// rewrites them, which [`Record::rewrites`] counts.
    pub plies: Vec<Ply>,
    /// How many times take-backs have rewritten `plies`: what is kept of
    /// them between states (`crate::state::MovesJson`) is good while this
    /// stays the same.
    pub rewrites: u64,
    /// The FEN last written, for [`Record::fen`].
    fen_kept: FenKept,
    /// Ended without a result: aborted before both sides moved, or
    /// closed by the server.
    pub aborted: bool,
    /// Why the server closed the game, if it did.
    pub closed: Option<CloseReason>,
    /// Which seats are taken.
    pub seated: ByColor<bool>,
    /// How many plies had been played when each player last asked for
    /// something (a draw, a take-back): one request per move.
    pub asked: Asked,
    /// A pending take-back request.
    pub takeback: Option<Color>,
    /// A pending rematch offer.
    pub rematch_offer: Option<Color>,
    /// The rematch game, once agreed.
    pub rematch: Option<String>,
    /// The players' chat: who said what, when (game time).
    pub chat: Vec<(Color, String, u64)>,
    /// Who lost by leaving the game, if someone did.
    pub left: Option<Color>,
    /// Each player's conditional moves, waiting for the opponent's move.
    pub conditional: ByColor<Tree>,
    /// The answer each player's conditional moves give now, if the
    /// opponent's last move matched one (the room plays it at once).
    pub conditional_answer: ByColor<Option<Branch>>,
    /// The director has stopped the clocks (6.10 a) and not yet
    /// restarted them: no move can be made.
    pub halted: bool,
    /// The director's decisions so far: game time, what, by whom, why.
    pub decisions: Vec<(u64, crate::director::Act, String, String)>,
    /// Leave booked in the game (10.1): whose, from, to (game time).
    pub leaves: Vec<(Color, u64, u64)>,
    /// Who went berserk (an arena game).
    pub berserk: ByColor<bool>,
}

/// The longest line of chat, in characters (lichess's).
pub const CHAT_CHARS: usize = 140;
/// Lines of chat each player may write in one game.
pub const CHAT_LINES: usize = 200;
/// The least time between two lines of one player (ms).
pub const CHAT_EVERY_MS: u64 = 1000;

/// The ply count at each player's last request of each kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Asked {
    /// Draw offers (9.1).
    pub draw: ByColor<Option<usize>>,
    /// Take-back requests.
    pub takeback: ByColor<Option<usize>>,
    /// Rematch offers: each player offers once.
    pub rematch: ByColor<bool>,
}

/// Whether `color` has moved since the ply count was `then` (`now` plies
/// played; White plays the even plies).
pub fn moved_since(color: Color, then: usize, now: usize) -> bool {
    (then..now).any(|ply| Color::from_white(ply % 2 == 0) == color)
}

/// A refusal with `code`.
fn refuse(code: ErrorCode, message: impl Into<String>) -> ActionError {
    ActionError::new(code, message)
}

/// The protocol's code for a refused move.
pub fn move_error(e: &MoveError) -> ActionError {
    let code = match e {
        MoveError::GameOver(_) => ErrorCode::GameOver,
        MoveError::Illegal { .. } => ErrorCode::IllegalMove,
        MoveError::Notation(n) => match n {
            NotationError::Unparseable { .. } => ErrorCode::UnparseableMove,
            NotationError::Ambiguous { .. } => ErrorCode::AmbiguousMove,
            _ => ErrorCode::IllegalMove,
        },
    };
    refuse(code, e.to_string())
}

impl Record {
    /// A new game as set up, nothing played.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Internal`] if the setup names an impossible start or control.
    pub fn new(setup: GameSetup) -> Result<Record, ActionError> {
        let mut timed = TimedGame::new(setup.start_game()?, setup.control()?, Duration::ZERO);
        // A simul's host: extra time on their clock before the first move.
        if let Some(extra) = setup.extra_time {
            timed.clock_mut().add_time(
                extra.color.into(),
                Duration::from_millis(extra.ms),
                Duration::ZERO,
            );
        }
        let seated = match (setup.mode, setup.creator) {
            (Mode::Friend, Some(creator)) => {
                // The clocks start once the friend takes the other seat.
                timed.clock_mut().stop(Duration::ZERO);
                let mut seated = ByColor::new_with(|_| false);
                seated[Color::from(creator)] = true;
                seated
            }
            _ => ByColor::new_with(|_| true),
        };
        Ok(Record {
            setup,
            events: Vec::new(),
            timed,
            plies: Vec::new(),
            rewrites: 0,
            fen_kept: FenKept::default(),
            aborted: false,
            closed: None,
            seated,
            asked: Asked::default(),
            takeback: None,
            rematch_offer: None,
            rematch: None,
            chat: Vec::new(),
            left: None,
            conditional: ByColor::default(),
            conditional_answer: ByColor::default(),
            halted: false,
            decisions: Vec::new(),
            leaves: Vec::new(),
            berserk: ByColor::default(),
        })
    }

    /// The game rebuilt from its stored events.
    ///
    /// # Errors
    ///
    /// [`ErrorCode::Internal`] naming the first event that does not apply.
    pub fn replay(setup: GameSetup, events: Vec<Timed>) -> Result<Record, ActionError> {
        let mut record = Record::new(setup)?;
        for (i, event) in events.into_iter().enumerate() {
            record.apply(event).map_err(|e| {
                refuse(
                    ErrorCode::Internal,
                    format!("stored event {i} does not apply: {}", e.message),
                )
            })?;
        }
        Ok(record)
    }

    /// Whether the game has ended (a result, or aborted).
    pub fn is_over(&self) -> bool {
        self.aborted || self.timed.game().outcome().is_some()
    }

    /// Whether the game is played by correspondence (its control counts
    /// whole days), read from the clock's parsed control: cheap enough for
    /// every tick, unlike [`GameSetup::is_correspondence`], which parses
    /// the stored text.
    pub fn is_correspondence(&self) -> bool {
        self.timed.clock().control().scale() == rochade_laws::clock::Scale::Days
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.timed.game().turn()
    }

    /// The position's FEN (X-FEN; the en passant square only when a
    /// capture there is legal), written once a position.
    ///
    /// ```
    /// use rochade_server::record::Record;
    /// use rochade_server::setup::{GameSetup, NewGame};
    /// let req: NewGame = serde_json::from_str(r#"{"opponent":"local","time_control":"-"}"#).unwrap();
    /// let setup = GameSetup::from_request(&req, &Default::default()).unwrap();
    /// let record = Record::new(setup).unwrap();
    /// assert_eq!(record.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    /// assert_eq!(record.fen(), record.timed.game().fen());
    /// ```
    pub fn fen(&self) -> String {
        let key = (self.plies.len(), self.rewrites);
        let mut kept = self.fen_kept.lock();
        if let Some((plies, rewrites, fen)) = kept.as_ref()
            && (*plies, *rewrites) == key
        {
            return fen.clone();
        }
        let fen = self.timed.game().fen();
        *kept = Some((key.0, key.1, fen.clone()));
        fen
    }

    /// The game time of the last event (zero before any).
    pub fn last_at(&self) -> u64 {
        self.events.last().map_or(0, |e| e.at)
    }

    /// When (game time) the player of `color` must have made their first
    /// move, in a live tournament game with a default time (6.7.1): White
    /// from the start, Black from White's first move, and later by as long
    /// as the director held the clocks since; none once they have, or
    /// without a default time, or while the director holds the clocks.
    pub fn first_move_due(&self, color: Color) -> Option<u64> {
        let default = self.setup.tournament.as_ref()?.default_ms?;
        if self.is_correspondence() || self.halted {
            return None;
        }
        let from = match (color, self.plies.as_slice()) {
            (Color::White, []) => 0,
            (Color::Black, [first]) => self.events.get(first.event).map_or(0, |e| e.at),
            _ => return None,
        };
        Some(from + default + self.held_since(from))
    }

    /// How long (game time) the director held the clocks after `from`
    /// (6.10), the holds ended.
    fn held_since(&self, from: u64) -> u64 {
        use crate::director::Act;
        let mut held = 0;
        let mut stopped = None;
        for e in &self.events {
            match &e.event {
                Event::Decide {
                    decision: Act::StopClocks,
                    ..
                } => stopped = Some(e.at),
                Event::Decide {
                    decision: Act::StartClocks,
                    ..
                } => {
                    if let Some(at) = stopped.take() {
                        held += e.at.saturating_sub(at.max(from));
                    }
                }
                _ => {}
            }
        }
        held
    }

    /// Applies `event`, which happened at `event.at`; on success it joins
    /// the record, on refusal nothing changes.
    ///
    /// # Errors
    ///
    /// What the Laws or the protocol refuse, with its code.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::event::{Event, Timed};
    /// use rochade_server::record::Record;
    /// use rochade_server::setup::{GameSetup, NewGame};
    ///
    /// let req: NewGame = serde_json::from_str(r#"{"opponent":"local","time_control":"1+0"}"#)?;
    /// let mut record = Record::new(GameSetup::from_request(&req, &Default::default())?)?;
    /// record.apply(Timed { at: 500, event: Event::Move { uci: "e2e4".into() } })?;
    /// assert_eq!(record.plies[0].san, "e4");
    /// assert!(record.apply(Timed { at: 900, event: Event::Move { uci: "e2e4".into() } }).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn apply(&mut self, event: Timed) -> Result<(), ActionError> {
        let at = Duration::from_millis(event.at);
        match &event.event {
            Event::Move { uci } => self.play(uci, at)?,
            Event::Draw { color, action } => {
                if *action != OfferAction::Decline {
                    self.ensure_draw_allowed()?;
                }
                self.draw(*color, *action, at)?;
                if *action == OfferAction::Offer {
                    let color = Color::from(*color);
                    self.asked.draw[color] = Some(self.plies.len());
                    // An offer by the player who just moved goes with that move.
                    if self.turn() != color
                        && let Some(last) = self.plies.last_mut()
                    {
                        last.offer = true;
                    }
                }
            }
            Event::Claim { color, kind, uci } => {
                self.ensure_ongoing()?;
                let intended = uci.as_deref().map(|u| self.read(u)).transpose()?;
                let before = self.timed.game().position().clone();
                let verdict = self
                    .timed
                    .claim_draw((*color).into(), (*kind).into(), intended, at)
                    .map_err(|e| {
                        let code = match e {
                            ClaimError::GameOver(_) => ErrorCode::GameOver,
                            ClaimError::NotOnMove => ErrorCode::NotYourTurn,
                            ClaimError::IllegalIntendedMove(_) => ErrorCode::IllegalMove,
                        };
                        refuse(code, e.to_string())
                    })?;
                if let ClaimVerdict::Refused { played, .. } = verdict {
                    if let Some(m) = played {
                        self.push_ply(&before, m);
                    }
                    // ICCF 9.1.2.2: a claim counts as a draw offer, which
                    // stands once the claim is refused (with the intended
                    // move, if one was played).
                    let claimant = Color::from(*color);
                    if self.setup.rules == RuleSet::Iccf
                        && self.ensure_draw_allowed().is_ok()
                        && (self
                            .timed
                            .game()
                            .pending_offer()
                            .is_some_and(|o| o.by == claimant)
                            || self.timed.game_mut().offer_draw(claimant).is_ok())
                    {
                        self.asked.draw[Color::from(*color)] = Some(self.plies.len());
                        if played.is_some()
                            && let Some(last) = self.plies.last_mut()
                        {
                            last.offer = true;
                        }
                    }
                }
            }
            Event::TablebaseClaim {
                color,
                claim,
                value,
            } => {
                self.ensure_ongoing()?;
                self.timed
                    .claim_tablebase((*color).into(), (*claim).into(), value.map(Into::into), at)
                    .map_err(|e| {
                        let code = match e {
                            rochade_laws::TablebaseClaimError::GameOver(_) => ErrorCode::GameOver,
                            rochade_laws::TablebaseClaimError::NotOnMove => ErrorCode::NotYourTurn,
                            _ => ErrorCode::NotAllowed,
                        };
                        refuse(code, e.to_string())
                    })?;
            }
            Event::Resign { color } => {
                self.ensure_ongoing()?;
                let _ = self.timed.game_mut().resign((*color).into());
                self.timed.clock_mut().stop(at);
            }
            Event::Left { color } => {
                self.ensure_ongoing()?;
                let _ = self.timed.game_mut().forfeit((*color).into());
                self.timed.clock_mut().stop(at);
                self.left = Some((*color).into());
            }
            Event::Absent { color } => {
                self.ensure_ongoing()?;
                let color: Color = (*color).into();
                if self.first_move_due(color).is_none() {
                    return Err(refuse(
                        ErrorCode::NotAllowed,
                        "only a tournament game's player who has not made a first move by the \
                         default time loses by default (6.7.1)",
                    ));
                }
                let _ = self.timed.game_mut().forfeit(color);
                self.timed.clock_mut().stop(at);
            }
            Event::Abort { .. } => {
                self.ensure_ongoing()?;
                if self.setup.tournament.is_some() {
                    return Err(refuse(
                        ErrorCode::NotAllowed,
                        "a tournament game is played, not aborted: write to the director",
                    ));
                }
                if self.plies.len() >= 2 {
                    return Err(refuse(
                        ErrorCode::NotAllowed,
                        "both sides have moved: the game can no longer be aborted",
                    ));
                }
                self.aborted = true;
                self.timed.clock_mut().stop(at);
            }
            Event::Close { reason } => {
                self.ensure_ongoing()?;
                self.aborted = true;
                self.closed = Some(*reason);
                self.timed.clock_mut().stop(at);
            }
            Event::Flag => {
                if self.timed.observe_flag(at).is_none() {
                    return Err(refuse(ErrorCode::NotAllowed, "no flag has fallen"));
                }
            }
            Event::Takeback { color, action } => self.takeback((*color).into(), *action, at)?,
            Event::Seat { color, player } => {
                let color: Color = (*color).into();
                if self.seated[color] {
                    return Err(refuse(ErrorCode::SeatTaken, "the seat is already taken"));
                }
                self.seated[color] = true;
                if let Some(player) = player {
                    match color {
                        Color::White => self.setup.white_player = Some(player.clone()),
                        Color::Black => self.setup.black_player = Some(player.clone()),
                    }
                }
                if self.seated.iter().all(|s| *s) && !self.is_over() && !self.halted {
                    self.timed.clock_mut().start(at);
                }
            }
            Event::Rematch {
                color,
                action,
                game,
            } => self.rematch((*color).into(), *action, game.clone())?,
            Event::Chat { color, text } => self.chat((*color).into(), text, event.at)?,
            Event::Berserk { color } => {
                crate::tournaments::arena::berserk::go(self, (*color).into(), at)?;
            }
            Event::Conditional { color, lines } => self.set_conditional((*color).into(), lines)?,
            Event::Decide {
                decision,
                by,
                reason,
            } => {
                crate::director::decide(self, decision, event.at)?;
                self.decisions
                    .push((event.at, decision.clone(), by.clone(), reason.clone()));
            }
            Event::Pause { color, from, to } => {
                self.ensure_ongoing()?;
                if self
                    .setup
                    .tournament
                    .as_ref()
                    .is_some_and(|t| t.triple_block)
                {
                    return Err(refuse(
                        ErrorCode::NotAllowed,
                        "a Triple Block game knows no leave (10.1, appendix C)",
                    ));
                }
                if !self.is_correspondence() {
                    return Err(refuse(
                        ErrorCode::NotAllowed,
                        "leave stops the clocks of correspondence games only (10.1)",
                    ));
                }
                self.timed
                    .clock_mut()
                    .pause(Duration::from_millis(*from), Duration::from_millis(*to))
                    .map_err(|e| refuse(ErrorCode::BadRequest, e.to_string()))?;
                self.leaves.push(((*color).into(), *from, *to));
            }
        }
        self.events.push(event);
        Ok(())
    }

    /// Refuses a draw offer or agreement before the tournament allows
    /// one (9.1.1).
    fn ensure_draw_allowed(&self) -> Result<(), ActionError> {
        match &self.setup.tournament {
            Some(terms) if !terms.draw_allowed(self.plies.len()) => Err(refuse(
                ErrorCode::NotAllowed,
                format!(
                    "this tournament allows no draw before move {} (9.1.1)",
                    terms.draws_from_move.unwrap_or_default()
                ),
            )),
            _ => Ok(()),
        }
    }

    /// Refuses actions after the end.
    fn ensure_ongoing(&self) -> Result<(), ActionError> {
        if self.aborted {
            return Err(refuse(ErrorCode::GameOver, "the game was aborted"));
        }
        match self.timed.game().outcome() {
            Some(outcome) => Err(refuse(
                ErrorCode::GameOver,
                format!("the game is over: {outcome}"),
            )),
            None => Ok(()),
        }
    }

    /// Reads a move in UCI notation in the current position.
    fn read(&self, uci: &str) -> Result<Move, ActionError> {
        let game = self.timed.game();
        read_uci(game.position(), uci, game.castling_mode())
            .map_err(|e| move_error(&MoveError::from(e)))
    }

    /// Plays a move on the clock.
    fn play(&mut self, uci: &str, at: Duration) -> Result<(), ActionError> {
        self.ensure_ongoing()?;
        if self.halted {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "the director has stopped this game's clocks (6.10); it resumes when the director says",
            ));
        }
        if self.timed.clock().is_stopped() {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "the clocks start when the opponent takes the seat",
            ));
        }
        let m = self.read(uci)?;
        let before = self.timed.game().position().clone();
        self.timed.play(m, at).map_err(|e| match e {
            TimedMoveError::Move(e) => move_error(&e),
            TimedMoveError::Clock(e) => refuse(ErrorCode::NotAllowed, e.to_string()),
        })?;
        crate::tournaments::arena::berserk::after_move(self, self.turn().other(), at);
        self.push_ply(&before, m);
        Ok(())
    }

    /// Records a played move for the players.
    fn push_ply(&mut self, before: &shakmaty::Chess, m: Move) {
        self.takeback = None;
        let uci = write_uci(m, self.timed.game().castling_mode());
        let mover = shakmaty::Position::turn(before);
        self.follow_conditional(mover, &uci);
        self.plies.push(Ply {
            uci,
            san: write_san(before, m, &SanStyle::default()),
            event: self.events.len(),
            offer: false,
        });
    }

    /// The conditional moves after `mover` played `uci`: the mover's
    /// answer given keeps its subtree, any other move drops the tree; the
    /// opponent's tree, if it foresees `uci`, has its answer ready, and
    /// is dropped if not.
    fn follow_conditional(&mut self, mover: Color, uci: &str) {
        if let Some(branch) = self.conditional_answer[mover].take()
            && branch.answer == uci
        {
            self.conditional[mover] = branch.next;
        }
        let other = mover.other();
        let tree = std::mem::take(&mut self.conditional[other]);
        self.conditional_answer[other] = tree.answer_to(uci).cloned();
    }

    /// The move the side to move answers by its conditional moves now, if any.
    pub fn conditional_move(&self) -> Option<&str> {
        self.conditional_answer[self.turn()]
            .as_ref()
            .map(|b| b.answer.as_str())
    }

    /// Drops the conditional moves of `color` (its answer could not be played).
    pub fn drop_conditional(&mut self, color: Color) {
        self.conditional[color] = Tree::default();
        self.conditional_answer[color] = None;
    }

    /// The conditional moves of `color`, as lines in UCI (with the answer
    /// ready now first, if any).
    pub fn conditional_lines(&self, color: Color) -> Vec<String> {
        self.conditional[color].lines()
    }

    /// Whether `color` may enter conditional moves now: in a
    /// correspondence game not over, while the opponent is to move.
    ///
    /// # Errors
    ///
    /// `game_over` or `not_allowed` saying why not.
    pub fn may_enter_conditional(&self, color: Color) -> Result<(), ActionError> {
        self.ensure_ongoing()?;
        if !self.is_correspondence() {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "conditional moves are for correspondence games",
            ));
        }
        if self.turn() == color {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "conditional moves answer your opponent's move: make your own move first",
            ));
        }
        Ok(())
    }

    /// Sets `color`'s conditional moves (see [`Record::may_enter_conditional`]).
    fn set_conditional(&mut self, color: Color, lines: &[String]) -> Result<(), ActionError> {
        self.may_enter_conditional(color)?;
        let game = self.timed.game();
        let tree = Tree::build(game.position(), game.castling_mode(), lines)
            .map_err(|e| refuse(ErrorCode::BadRequest, format!("conditional moves: {e}")))?;
        self.conditional[color] = tree;
        self.conditional_answer[color] = None;
        Ok(())
    }

    /// A draw offer, acceptance or refusal (9.1).
    fn draw(&mut self, color: Side, action: OfferAction, at: Duration) -> Result<(), ActionError> {
        self.ensure_ongoing()?;
        let color: Color = color.into();
        let game = self.timed.game_mut();
        let result = match action {
            OfferAction::Offer => game.offer_draw(color),
            OfferAction::Accept => game.accept_draw(color).map(|_| ()),
            OfferAction::Decline => game.decline_draw(color),
        };
        result.map_err(|e| {
            let code = match e {
                OfferError::GameOver(_) => ErrorCode::GameOver,
                OfferError::NoOffer => ErrorCode::NoOffer,
                _ => ErrorCode::NotAllowed,
            };
            refuse(code, e.to_string())
        })?;
        if self.timed.game().outcome().is_some() {
            self.timed.clock_mut().stop(at);
        }
        Ok(())
    }

    /// Adds a line of chat by `color` at game time `at`.
    fn chat(&mut self, color: Color, text: &str, at: u64) -> Result<(), ActionError> {
        let bad = |m: String| refuse(ErrorCode::BadRequest, m);
        let chars = text.chars().count();
        if text.trim().is_empty() || chars > CHAT_CHARS {
            return Err(bad(format!(
                "chat: a line has 1 to {CHAT_CHARS} characters, not {chars}"
            )));
        }
        if text.chars().any(char::is_control) {
            return Err(bad("chat: no control characters".into()));
        }
        let mine: Vec<u64> = self
            .chat
            .iter()
            .filter(|(c, _, _)| *c == color)
            .map(|(_, _, at)| *at)
            .collect();
        if mine.len() >= CHAT_LINES {
            return Err(refuse(
                ErrorCode::TooManyRequests,
                format!("chat: {CHAT_LINES} lines a game"),
            ));
        }
        if mine
            .last()
            .is_some_and(|last| at < last.saturating_add(CHAT_EVERY_MS))
        {
            return Err(refuse(ErrorCode::RateLimited, "chat: one line a second"));
        }
        self.chat.push((color, text.to_owned(), at));
        Ok(())
    }

    /// How many plies a take-back asked by `color` removes: its own last
    /// move, and the opponent's reply if there was one.
    pub fn takeback_plies(&self, color: Color) -> Option<usize> {
        let n = if self.turn() == color { 2 } else { 1 };
        (self.plies.len() >= n).then_some(n)
    }

    /// A take-back request or its answer (casual games only).
    fn takeback(
        &mut self,
        color: Color,
        action: OfferAction,
        at: Duration,
    ) -> Result<(), ActionError> {
        self.ensure_ongoing()?;
        if self.setup.rules == RuleSet::Iccf {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "under the ICCF rules a move once made cannot be taken back (4.3)",
            ));
        }
        if !self.setup.casual {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "take-backs are for casual games only",
            ));
        }
        match action {
            OfferAction::Offer => {
                if self.takeback_plies(color).is_none() {
                    return Err(refuse(
                        ErrorCode::NotAllowed,
                        "you have no move to take back",
                    ));
                }
                if self.takeback.is_some() {
                    return Err(refuse(
                        ErrorCode::NotAllowed,
                        "a take-back is already asked for",
                    ));
                }
                self.takeback = Some(color);
                self.asked.takeback[color] = Some(self.plies.len());
            }
            OfferAction::Decline => match self.takeback {
                Some(by) if by != color => self.takeback = None,
                _ => return Err(refuse(ErrorCode::NoOffer, "no take-back request to answer")),
            },
            OfferAction::Accept => match self.takeback {
                Some(by) if by != color => {
                    let n = self
                        .takeback_plies(by)
                        .ok_or_else(|| refuse(ErrorCode::NotAllowed, "no move to take back"))?;
                    self.take_back(n, at)?;
                }
                _ => return Err(refuse(ErrorCode::NoOffer, "no take-back request to answer")),
            },
        }
        Ok(())
    }

    /// Takes back `n` plies at `at`: the game is replayed without them and
    /// each clock keeps the time it shows now.
    fn take_back(&mut self, n: usize, at: Duration) -> Result<(), ActionError> {
        let keep = self.plies.len() - n;
        let cut = self.plies[keep].event;
        let mut rebuilt = Record::replay(self.setup.clone(), self.events[..cut].to_vec())?;
        for color in [Color::White, Color::Black] {
            if let Some(left) = self.timed.clock().remaining(color, at) {
                rebuilt.timed.clock_mut().set_time(color, left, at);
            }
        }
        rebuilt.events = std::mem::take(&mut self.events);
        rebuilt.rewrites = self.rewrites + 1;
        rebuilt.seated = self.seated;
        rebuilt.asked = std::mem::take(&mut self.asked);
        for asked in rebuilt
            .asked
            .draw
            .iter_mut()
            .chain(rebuilt.asked.takeback.iter_mut())
        {
            *asked = asked.map(|then| then.min(keep));
        }
        *self = rebuilt;
        Ok(())
    }

    /// A rematch offer or its answer (after the end only).
    fn rematch(
        &mut self,
        color: Color,
        action: OfferAction,
        game: Option<String>,
    ) -> Result<(), ActionError> {
        if !self.is_over() {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "a rematch comes after the game",
            ));
        }
        if self.rematch.is_some() {
            return Err(refuse(
                ErrorCode::NotAllowed,
                "the rematch is already agreed",
            ));
        }
        match action {
            OfferAction::Offer => {
                if self.rematch_offer.is_some() {
                    return Err(refuse(
                        ErrorCode::NotAllowed,
                        "a rematch is already offered",
                    ));
                }
                self.rematch_offer = Some(color);
                self.asked.rematch[color] = true;
            }
            OfferAction::Decline => match self.rematch_offer {
                Some(by) if by != color => self.rematch_offer = None,
                _ => return Err(refuse(ErrorCode::NoOffer, "no rematch offer to answer")),
            },
            OfferAction::Accept => match (self.rematch_offer, game) {
                (Some(by), Some(game)) if by != color => {
                    self.rematch_offer = None;
                    self.rematch = Some(game);
                }
                _ => return Err(refuse(ErrorCode::NoOffer, "no rematch offer to answer")),
            },
        }
        Ok(())
    }
}

/// A new game from the JSON of a creation request, for tests.
#[cfg(test)]
pub(crate) fn test_record(body: &str) -> Record {
    let req: crate::setup::NewGame = serde_json::from_str(body).expect("request");
    Record::new(GameSetup::from_request(&req, &Default::default()).expect("setup")).expect("record")
}

/// Plays a random legal move (chosen from `seed`, which moves on) at game
/// time `at`, for tests.
#[cfg(test)]
pub(crate) fn test_random_move(record: &mut Record, seed: &mut u64, at: u64) {
    use shakmaty::Position;
    let legal = record.timed.game().position().legal_moves();
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    let m = legal[(*seed >> 33) as usize % legal.len()];
    let uci = m.to_uci(record.timed.game().castling_mode()).to_string();
    record
        .apply(Timed {
            at,
            event: crate::event::Event::Move { uci },
        })
        .expect("a legal move");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(body: &str) -> Record {
        test_record(body)
    }

    fn mv(at: u64, uci: &str) -> Timed {
        Timed {
            at,
            event: Event::Move { uci: uci.into() },
        }
    }

    #[test]
    fn replay_rebuilds_position_and_clocks() {
        let mut r = record(r#"{"opponent":"local","time_control":"5+3"}"#);
        for (at, m) in [(1000, "e2e4"), (3000, "e7e5"), (7000, "g1f3")] {
            r.apply(mv(at, m)).expect("legal");
        }
        let again = Record::replay(r.setup.clone(), r.events.clone()).expect("replays");
        assert_eq!(again.timed.game().fen(), r.timed.game().fen());
        assert_eq!(again.timed.clock(), r.timed.clock());
        assert_eq!(again.plies, r.plies);
    }

    /// Black asks to take back their last move at `at`, and White agrees.
    fn black_takes_back(r: &mut Record, at: u64) {
        let tb = |color, action| Timed {
            at,
            event: Event::Takeback { color, action },
        };
        r.apply(tb(Side::Black, OfferAction::Offer))
            .expect("request");
        r.apply(tb(Side::White, OfferAction::Accept))
            .expect("accept");
    }

    #[test]
    fn takeback_keeps_the_times_shown() {
        let mut r = record(r#"{"opponent":"local","time_control":"5+0"}"#);
        r.apply(mv(10_000, "e2e4")).expect("legal");
        r.apply(mv(30_000, "e7e5")).expect("legal");
        let at = Duration::from_secs(40);
        let before = ByColor::new_with(|c| r.timed.clock().remaining(c, at));
        black_takes_back(&mut r, 40_000);
        assert_eq!(r.plies.len(), 1);
        assert_eq!(r.turn(), Color::Black);
        let after = ByColor::new_with(|c| r.timed.clock().remaining(c, at));
        assert_eq!(before, after);
        let again = Record::replay(r.setup.clone(), r.events.clone()).expect("replays");
        assert_eq!(again.plies, r.plies);
    }

    #[test]
    fn the_fen_kept_follows_moves_and_take_backs() {
        let mut r = record(r#"{"opponent":"local","time_control":"5+0"}"#);
        let same = |r: &Record| assert_eq!(r.fen(), r.timed.game().fen());
        same(&r);
        r.apply(mv(10_000, "e2e4")).expect("legal");
        same(&r);
        r.apply(mv(30_000, "e7e5")).expect("legal");
        let after_e5 = r.fen();
        black_takes_back(&mut r, 40_000);
        same(&r);
        // The same number of plies again, another position.
        r.apply(mv(50_000, "c7c5")).expect("legal");
        same(&r);
        assert_ne!(r.fen(), after_e5);
        // A copy goes its own way.
        let mut copy = r.clone();
        copy.apply(mv(60_000, "g1f3")).expect("legal");
        same(&copy);
        same(&r);
    }

    #[test]
    fn abort_only_before_both_sides_moved() {
        let mut r = record(r#"{"opponent":"local","time_control":"-"}"#);
        r.apply(mv(0, "e2e4")).expect("legal");
        r.apply(mv(0, "e7e5")).expect("legal");
        let abort = Timed {
            at: 0,
            event: Event::Abort { color: Side::White },
        };
        let e = r.apply(abort).expect_err("too late");
        assert_eq!(e.code, ErrorCode::NotAllowed);
        assert_eq!(r.events.len(), 2);
    }

    #[test]
    fn friend_clock_waits_for_the_second_seat() {
        let mut r = record(r#"{"opponent":"friend","color":"white","time_control":"1+0"}"#);
        let e = r.apply(mv(5_000, "e2e4")).expect_err("clocks stopped");
        assert_eq!(e.code, ErrorCode::NotAllowed);
        r.apply(Timed {
            at: 100_000,
            event: Event::Seat {
                color: Side::Black,
                player: None,
            },
        })
        .expect("seat");
        r.apply(mv(101_000, "e2e4")).expect("clock running");
        assert_eq!(
            r.timed
                .clock()
                .remaining(Color::White, Duration::from_secs(101)),
            Some(Duration::from_secs(59))
        );
    }
}
