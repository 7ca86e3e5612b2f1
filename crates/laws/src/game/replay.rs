//! Replaying a game: the game as it stood after any number of plies.

use super::Game;

impl Game {
    /// The game as it stood after its first `plies` plies (all of it when
    /// `plies` is past the end): position, history, offers and outcome.
    ///
    /// ```
    /// use rochade_laws::Game;
    ///
    /// let mut game = Game::default();
    /// for m in ["f2f3", "e7e5", "g2g4", "d8h4"] { game.play_uci(m)?; }
    /// let before_mate = game.replayed_to(3);
    /// assert_eq!(before_mate.moves().len(), 3);
    /// assert_eq!(before_mate.outcome(), None);
    /// assert_eq!(game.replayed_to(99).outcome(), game.outcome());
    /// # Ok::<_, rochade_laws::MoveError>(())
    /// ```
    pub fn replayed_to(&self, plies: usize) -> Game {
        let mut game = self.clone();
        while game.moves().len() > plies {
            game.take_back();
        }
        game
    }

    /// Every stage of the game, from the start to the last move.
    pub fn replay(&self) -> impl Iterator<Item = Game> + '_ {
        (0..=self.moves().len()).map(|plies| self.replayed_to(plies))
    }
}
