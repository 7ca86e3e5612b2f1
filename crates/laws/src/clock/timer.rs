//! The chess clock: two timers, one running at a time (FIDE 6.1).

use std::time::Duration;

use shakmaty::{ByColor, Color};

use super::category::Category;
use super::control::{Bonus, Limit, Period, TimeControl};
use super::error::ClockError;

/// What a press of the clock did: the record a game keeps for each move
/// (PGN `[%clk]` is `time_left`, `[%emt]` is `elapsed`).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::{Clock, TimeControl};
/// use shakmaty::Color;
///
/// let mut clock = Clock::new("5+3".parse()?, Duration::ZERO);
/// let press = clock.press(Duration::from_secs(10)).expect("running");
/// assert_eq!(press.mover, Color::White);
/// assert_eq!(press.elapsed, Duration::from_secs(10));
/// assert_eq!(press.time_left, Some(Duration::from_secs(300 - 10 + 3)));
/// assert_eq!(press.moves, 1);
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Press {
    /// Who pressed: the player who completed the move.
    pub mover: Color,
    /// The mover's time after the press, bonus and period transition
    /// included; `None` without a clock. With fixed time per move, the
    /// budget for the next move.
    pub time_left: Option<Duration>,
    /// The clock time the move took (time while the clocks were stopped or
    /// paused not included).
    pub elapsed: Duration,
    /// The mover's move counter after the press.
    pub moves: u32,
}

/// Whose flag has fallen (FIDE 6.8: a flag is fallen when observed).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::{Clock, Flag, TimeControl};
/// use shakmaty::Color;
///
/// let clock = Clock::new("1+0".parse()?, Duration::ZERO);
/// assert_eq!(clock.flag(Duration::from_secs(59)), Flag::Up);
/// assert_eq!(clock.flag(Duration::from_secs(60)), Flag::Fallen(Color::White));
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Flag {
    /// No flag has fallen.
    Up,
    /// This player's flag has fallen.
    Fallen(Color),
    /// Both flags have fallen (FIDE 6.11): the game goes on if this happened
    /// in a period that is not the last (`in_last_period == false`), and is
    /// drawn if both fell in the last period.
    BothFallen {
        /// Whether both flags fell in the players' last periods.
        in_last_period: bool,
    },
}

/// An interval in which both clocks are stopped (ICCF 10.1 leave).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::Pause;
///
/// let p = Pause { from: Duration::from_secs(10), to: Duration::from_secs(20) };
/// assert_eq!(p.to - p.from, Duration::from_secs(10));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pause {
    /// When the pause starts.
    pub from: Duration,
    /// When it ends.
    pub to: Duration,
}

/// One player's timer.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Timer {
    /// Time left at the start of the player's current (or next) turn.
    left: Duration,
    /// Index of the current period.
    period: usize,
    /// Moves completed in the current period.
    in_period: u32,
    /// Moves completed in the game.
    moves: u32,
    /// Clock time used in the game.
    used: Duration,
    /// `Some(in_last_period)` once the flag has fallen.
    fallen: Option<bool>,
}

/// Penalty time given to the opponent for a wrong claim or an illegal move:
/// two minutes, one in blitz (FIDE 7.5.5, 9.5.2; B.2 in the 2014 Laws).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::{penalty_time, Category};
///
/// assert_eq!(penalty_time(Category::Standard), Duration::from_secs(120));
/// assert_eq!(penalty_time(Category::Blitz), Duration::from_secs(60));
/// ```
pub const fn penalty_time(category: Category) -> Duration {
    match category {
        Category::Blitz => Duration::from_secs(60),
        Category::Rapid | Category::Standard | Category::Correspondence => Duration::from_secs(120),
    }
}

/// A chess clock for one game.
///
/// Time is never read from the system: every call that depends on time takes
/// `now`, a monotonic instant since an arbitrary epoch. White's clock starts
/// when the clock is made (FIDE 6.6); [`Clock::press`] stops the mover's
/// clock and starts the opponent's (6.1). A press is O(1) in the length of
/// the game and does not allocate (it is linear in the number of pending
/// [`Pause`]s, which is zero over the board).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rochade_laws::clock::{Clock, TimeControl};
/// use shakmaty::Color;
///
/// let s = Duration::from_secs;
/// let mut clock = Clock::new("3+2".parse()?, s(0));
/// clock.press(s(5)).expect("running");   // White: 180 - 5 + 2
/// clock.press(s(12)).expect("running");  // Black: 180 - 7 + 2
/// assert_eq!(clock.remaining(Color::White, s(12)), Some(s(177)));
/// assert_eq!(clock.remaining(Color::Black, s(12)), Some(s(175)));
/// assert_eq!(clock.remaining(Color::White, s(20)), Some(s(169)));
/// # Ok::<(), rochade_laws::clock::TimeControlError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    timers: ByColor<Timer>,
    turn: Color,
    stopped: bool,
    /// When the current running stretch began.
    since: Duration,
    /// Running time of the current turn before `since`.
    done: Duration,
    /// Sorted, disjoint leave periods not yet over.
    pauses: Vec<Pause>,
}

impl Clock {
    /// A clock set to `control`, with White's clock started at `start` (FIDE 6.6).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let clock = Clock::new("90+30".parse()?, Duration::from_secs(1000));
    /// assert_eq!(clock.turn(), Color::White);
    /// assert_eq!(clock.remaining(Color::White, Duration::from_secs(1060)), Some(Duration::from_secs(89 * 60)));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn new(control: TimeControl, start: Duration) -> Self {
        let left = match control.limit() {
            Limit::Periods(periods) => periods.first().map_or(Duration::ZERO, |p| p.base),
            Limit::PerMove(budget) => *budget,
            Limit::NoClock => Duration::ZERO,
            Limit::Sandclock(total) => *total / 2,
        };
        let timer = Timer {
            left,
            ..Timer::default()
        };
        Clock {
            control,
            timers: ByColor::new_with(|_| timer),
            turn: Color::White,
            stopped: false,
            since: start,
            done: Duration::ZERO,
            pauses: Vec::new(),
        }
    }

    /// The time control.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    ///
    /// let clock = Clock::new("5+3".parse()?, Duration::ZERO);
    /// assert_eq!(clock.control().to_string(), "5+3");
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub const fn control(&self) -> &TimeControl {
        &self.control
    }

    /// Whose clock runs (or would run, when the clocks are stopped).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let mut clock = Clock::new("5+3".parse()?, Duration::ZERO);
    /// clock.press(Duration::from_secs(1)).expect("running");
    /// assert_eq!(clock.turn(), Color::Black);
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// Whether the arbiter has stopped the clocks (FIDE 6.12).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    ///
    /// let mut clock = Clock::new("5+3".parse()?, Duration::ZERO);
    /// clock.stop(Duration::from_secs(1));
    /// assert!(clock.is_stopped());
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub const fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// The move counter of a player (FIDE 6.10.2).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let clock = Clock::new("5+3".parse()?, Duration::ZERO);
    /// assert_eq!(clock.moves(Color::White), 0);
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub const fn moves(&self, color: Color) -> u32 {
        self.timers.get(color).moves
    }

    /// The index (from 0) of the player's current period.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let clock = Clock::new("40/90+30, 30+30".parse()?, Duration::ZERO);
    /// assert_eq!(clock.period(Color::Black), 0);
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub const fn period(&self, color: Color) -> usize {
        self.timers.get(color).period
    }

    /// How many moves the player must still make in the current period
    /// before the next period's time is added; `None` when the period lasts
    /// for the rest of the game (or there are no periods).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let mut clock = Clock::new("40/90+30, 30+30".parse()?, Duration::ZERO);
    /// clock.press(Duration::from_secs(5)).expect("running");
    /// assert_eq!(clock.moves_to_go(Color::White), Some(39));
    /// assert_eq!(clock.moves_to_go(Color::Black), Some(40));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn moves_to_go(&self, color: Color) -> Option<u32> {
        let timer = self.timers.get(color);
        let count = self.current_period(color)?.moves?.get();
        Some(count.saturating_sub(timer.in_period))
    }

    /// The per-move bonus of the player's current period: the Fischer
    /// increment, or the Bronstein or simple delay (FIDE 6.3.1, 6.3.2; see
    /// [`Bonus::amount`]). Zero for a period without a bonus, fixed time
    /// per move, a sandclock or no clock.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("1/60, 30+30".parse()?, s(0));
    /// assert_eq!(clock.bonus(Color::White), s(0));
    /// clock.press(s(5)).expect("running"); // White's first move ends the first period
    /// assert_eq!(clock.bonus(Color::White), s(30));
    /// assert_eq!(clock.bonus(Color::Black), s(0));
    /// assert_eq!(Clock::new("5 d3".parse()?, s(0)).bonus(Color::White), s(3));
    /// assert_eq!(Clock::new(TimeControl::no_clock(), s(0)).bonus(Color::White), s(0));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn bonus(&self, color: Color) -> Duration {
        self.current_period(color)
            .map_or(Duration::ZERO, |p| p.bonus.amount())
    }

    /// Whether the player is in the last period, the one in which all the
    /// remaining moves must be made (FIDE 6.11.2). A repeating last period
    /// (`10/50d`) never is; fixed time per move always is.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let clock = Clock::new("40/90+30, 30+30".parse()?, Duration::ZERO);
    /// assert!(!clock.is_last_period(Color::White));
    /// let clock = Clock::new("5+3".parse()?, Duration::ZERO);
    /// assert!(clock.is_last_period(Color::White));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn is_last_period(&self, color: Color) -> bool {
        match self.control.limit() {
            Limit::Periods(periods) => {
                let p = self.timers.get(color).period;
                p + 1 >= periods.len() && !self.control.repeats()
            }
            Limit::PerMove(_) | Limit::NoClock | Limit::Sandclock(_) => true,
        }
    }

    /// The clock time a player has used in the game so far (not counting the
    /// running turn).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let mut clock = Clock::new("5+3".parse()?, Duration::ZERO);
    /// clock.press(Duration::from_secs(4)).expect("running");
    /// assert_eq!(clock.used(Color::White), Duration::from_secs(4));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub const fn used(&self, color: Color) -> Duration {
        self.timers.get(color).used
    }

    /// The leave periods booked and not yet over.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    ///
    /// let clock = Clock::new("10/50d".parse()?, Duration::ZERO);
    /// assert!(clock.pauses().is_empty());
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn pauses(&self) -> &[Pause] {
        &self.pauses
    }

    /// The period the player is in, if the control has periods.
    fn current_period(&self, color: Color) -> Option<Period> {
        self.control
            .periods()
            .get(self.timers.get(color).period)
            .copied()
    }

    /// Running time between two instants, leave periods excluded.
    fn running(&self, from: Duration, to: Duration) -> Duration {
        let mut t = to.saturating_sub(from);
        for p in &self.pauses {
            let overlap = to.min(p.to).saturating_sub(from.max(p.from));
            t = t.saturating_sub(overlap);
        }
        t
    }

    /// The running time of the current turn at `now`.
    fn elapsed(&self, now: Duration) -> Duration {
        if self.stopped {
            self.done
        } else {
            self.done.saturating_add(self.running(self.since, now))
        }
    }

    /// How much of `elapsed` comes off the main time of the player on turn.
    fn charge(&self, elapsed: Duration) -> Duration {
        match self.current_period(self.turn).map(|p| p.bonus) {
            Some(Bonus::Delay(delay)) => elapsed.saturating_sub(delay),
            _ => elapsed,
        }
    }

    fn has_clock(&self) -> bool {
        !matches!(self.control.limit(), Limit::NoClock)
    }

    /// The time a player has left at `now`; `None` without a clock.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let clock = Clock::new("5 d3".parse()?, Duration::ZERO);
    /// // FIDE 6.3.2: the main time does not run during the delay.
    /// assert_eq!(clock.remaining(Color::White, Duration::from_secs(3)), Some(Duration::from_secs(300)));
    /// assert_eq!(clock.remaining(Color::White, Duration::from_secs(4)), Some(Duration::from_secs(299)));
    /// assert_eq!(Clock::new(TimeControl::no_clock(), Duration::ZERO).remaining(Color::White, Duration::ZERO), None);
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn remaining(&self, color: Color, now: Duration) -> Option<Duration> {
        if !self.has_clock() {
            return None;
        }
        let left = self.timers.get(color).left;
        if color == self.turn {
            Some(left.saturating_sub(self.charge(self.elapsed(now))))
        } else {
            Some(left.saturating_add(self.sand_flowing_in(now)))
        }
    }

    /// With a sandclock, the time the player on turn has used so far on
    /// this move, which has run over to the opponent's side; zero otherwise.
    fn sand_flowing_in(&self, now: Duration) -> Duration {
        match self.control.limit() {
            Limit::Sandclock(_) => {
                let mover = self.timers.get(self.turn).left;
                self.elapsed(now).min(mover)
            }
            _ => Duration::ZERO,
        }
    }

    /// Whether the running player's time is used up at `now`.
    fn running_out(&self, now: Duration) -> bool {
        self.has_clock() && self.charge(self.elapsed(now)) >= self.timers.get(self.turn).left
    }

    /// Whose flag has fallen at `now` (FIDE 6.8). A fallen flag stays fallen
    /// until the arbiter gives the player time again; both flags fallen is
    /// reported as such with whether it happened in the last period (6.11).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, Flag, TimeControl};
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("1+0".parse()?, s(0));
    /// clock.press(s(70)).expect("running"); // White's flag fell at 60 s
    /// assert_eq!(clock.flag(s(200)), Flag::BothFallen { in_last_period: true });
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn flag(&self, now: Duration) -> Flag {
        let running_fall = self
            .running_out(now)
            .then(|| self.is_last_period(self.turn));
        let fall = |c: Color| {
            let recorded = self.timers.get(c).fallen;
            if c == self.turn {
                recorded.or(running_fall)
            } else {
                recorded
            }
        };
        match (fall(Color::White), fall(Color::Black)) {
            (None, None) => Flag::Up,
            (Some(_), None) => Flag::Fallen(Color::White),
            (None, Some(_)) => Flag::Fallen(Color::Black),
            (Some(w), Some(b)) => Flag::BothFallen {
                in_last_period: w && b,
            },
        }
    }

    /// Record the running player's flag if it has fallen by `now`.
    fn settle_flag(&mut self, now: Duration) {
        if self.running_out(now) {
            let last = self.is_last_period(self.turn);
            let timer = self.timers.get_mut(self.turn);
            timer.fallen = timer.fallen.or(Some(last));
        }
    }

    /// The player on turn completes a move and presses the clock: their
    /// time stops, the bonus of the period is applied, the move counter goes
    /// up, the next period's time is added when the period's moves are
    /// completed (time saved carries over, FIDE 6.3.2), and the opponent's
    /// clock starts.
    ///
    /// # Errors
    ///
    /// [`ClockError::Stopped`] when the arbiter has stopped the clocks.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("60 b10".parse()?, s(0));
    /// // Bronstein: the 4 seconds used are given back.
    /// assert_eq!(clock.press(s(4))?.time_left, Some(s(3600)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn press(&mut self, now: Duration) -> Result<Press, ClockError> {
        if self.stopped {
            return Err(ClockError::Stopped);
        }
        self.settle_flag(now);
        let mover = self.turn;
        let elapsed = self.elapsed(now);
        let charged = self.charge(elapsed);
        let period = self.current_period(mover);
        let periods = self.control.periods();
        let timer = self.timers.get_mut(mover);
        let mut left = timer.left.saturating_sub(charged);
        let time_left = match self.control.limit() {
            Limit::NoClock => None,
            Limit::PerMove(budget) => {
                left = *budget;
                Some(left)
            }
            Limit::Sandclock(_) => Some(left),
            Limit::Periods(_) => {
                if let Some(p) = period {
                    match p.bonus {
                        Bonus::Increment(d) => left = left.saturating_add(d),
                        Bonus::Bronstein(d) => left = left.saturating_add(elapsed.min(d)),
                        Bonus::Delay(_) | Bonus::None => {}
                    }
                    timer.in_period = timer.in_period.saturating_add(1);
                    if p.moves.is_some_and(|m| m.get() == timer.in_period) {
                        timer.in_period = 0;
                        if timer.period + 1 < periods.len() {
                            timer.period += 1;
                        }
                        if let Some(next) = periods.get(timer.period) {
                            left = left.saturating_add(next.base);
                        }
                    }
                }
                Some(left)
            }
        };
        let sand = timer.left.saturating_sub(left);
        timer.left = left;
        timer.moves = timer.moves.saturating_add(1);
        timer.used = timer.used.saturating_add(elapsed);
        let moves = timer.moves;
        if matches!(self.control.limit(), Limit::Sandclock(_)) {
            let opponent = self.timers.get_mut(!mover);
            opponent.left = opponent.left.saturating_add(sand);
        }
        self.turn = !mover;
        self.since = self.since.max(now);
        self.done = Duration::ZERO;
        if self.pauses.first().is_some_and(|p| p.to <= self.since) {
            let since = self.since;
            self.pauses.retain(|p| p.to > since);
        }
        Ok(Press {
            mover,
            time_left,
            elapsed,
            moves,
        })
    }

    /// The arbiter stops both clocks (FIDE 6.12.1). Stopping stopped clocks
    /// does nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("5+3".parse()?, s(0));
    /// clock.stop(s(10));
    /// assert_eq!(clock.remaining(Color::White, s(1000)), Some(s(290)));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn stop(&mut self, now: Duration) {
        if !self.stopped {
            self.settle_flag(now);
            self.done = self.elapsed(now);
            self.since = self.since.max(now);
            self.stopped = true;
        }
    }

    /// The arbiter starts the clocks again (FIDE 6.12.3): the clock of the
    /// player on turn runs from `now`. Starting running clocks does nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("5+3".parse()?, s(0));
    /// clock.stop(s(10));
    /// clock.start(s(100));
    /// assert_eq!(clock.remaining(Color::White, s(105)), Some(s(285)));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn start(&mut self, now: Duration) {
        if self.stopped {
            self.stopped = false;
            self.since = self.since.max(now);
        }
    }

    /// The arbiter sets a player's time to `left` at `now` (FIDE 6.10.2).
    /// A positive time raises a fallen flag. Does nothing without a clock.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("5+3".parse()?, s(0));
    /// clock.set_time(Color::White, s(100), s(50));
    /// assert_eq!(clock.remaining(Color::White, s(60)), Some(s(90)));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn set_time(&mut self, color: Color, left: Duration, now: Duration) {
        if !self.has_clock() {
            return;
        }
        self.settle_flag(now);
        let start_left = if color == self.turn {
            left.saturating_add(self.charge(self.elapsed(now)))
        } else {
            left.saturating_sub(self.sand_flowing_in(now))
        };
        let timer = self.timers.get_mut(color);
        timer.left = start_left;
        if !left.is_zero() {
            timer.fallen = None;
        }
    }

    /// The arbiter adds time to a player (FIDE 6.10.2; penalty time, see
    /// [`penalty_time`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{penalty_time, Category, Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let s = Duration::from_secs;
    /// let mut clock = Clock::new("3+2".parse()?, s(0));
    /// // White made an illegal move in blitz: Black gets one minute.
    /// clock.add_time(Color::Black, penalty_time(Category::Blitz), s(5));
    /// assert_eq!(clock.remaining(Color::Black, s(5)), Some(s(240)));
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn add_time(&mut self, color: Color, amount: Duration, now: Duration) {
        if let Some(left) = self.remaining(color, now) {
            self.set_time(color, left.saturating_add(amount), now);
        }
    }

    /// The arbiter sets a player's move counter (FIDE 6.10.2); the period
    /// follows the counter. Times are not changed: set them with
    /// [`Clock::set_time`].
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl};
    /// use shakmaty::Color;
    ///
    /// let mut clock = Clock::new("40/90+30, 30+30".parse()?, Duration::ZERO);
    /// clock.set_moves(Color::White, 41);
    /// assert_eq!(clock.moves(Color::White), 41);
    /// assert_eq!(clock.period(Color::White), 1);
    /// # Ok::<(), rochade_laws::clock::TimeControlError>(())
    /// ```
    pub fn set_moves(&mut self, color: Color, moves: u32) {
        let periods = self.control.periods();
        let mut period = 0;
        let mut count = moves;
        while let Some(m) = periods.get(period).and_then(|p| p.moves) {
            if count < m.get() {
                break;
            }
            count -= m.get();
            if period + 1 < periods.len() {
                period += 1;
            } else {
                // A repeating last period: only the position in it matters.
                count %= m.get();
                break;
            }
        }
        let timer = self.timers.get_mut(color);
        timer.moves = moves;
        timer.period = period;
        timer.in_period = count;
    }

    /// Book a leave period in which both clocks are stopped (ICCF 10.1).
    /// Overlapping pauses are merged. Only the part after the current turn's
    /// last press, start or stop has an effect.
    ///
    /// # Errors
    ///
    /// [`ClockError::EmptyPause`] if `to` is not after `from`.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use rochade_laws::clock::{Clock, TimeControl, DAY};
    /// use shakmaty::Color;
    ///
    /// let mut clock = Clock::new("10/50d".parse()?, Duration::ZERO);
    /// clock.pause(DAY, 8 * DAY)?;
    /// assert_eq!(clock.remaining(Color::White, 10 * DAY), Some(47 * DAY));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn pause(&mut self, from: Duration, to: Duration) -> Result<(), ClockError> {
        if to <= from {
            return Err(ClockError::EmptyPause);
        }
        let mut merged = Pause { from, to };
        self.pauses.retain(|p| {
            let overlaps = p.from <= merged.to && merged.from <= p.to;
            if overlaps {
                merged.from = merged.from.min(p.from);
                merged.to = merged.to.max(p.to);
            }
            !overlaps
        });
        let at = self.pauses.partition_point(|p| p.from < merged.from);
        self.pauses.insert(at, merged);
        Ok(())
    }
}
