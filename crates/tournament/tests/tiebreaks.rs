//! Tie-breaks by C.07 (2024) on a small Swiss with every kind of unplayed
//! round: a pairing-allocated bye, a forfeit, a half-point bye and an
//! absence at the end.
//!
//! The tournament (3 rounds, ratings 2000 down to 1600, player 6 unrated):
//!
//! | player | round 1   | round 2          | round 3    | score |
//! |--------|-----------|------------------|------------|-------|
//! | 1      | 4 w 1     | 2 b =            | 3 w 1      | 2.5   |
//! | 2      | 5 w =     | 1 w =            | HPB        | 1.5   |
//! | 3      | 6 w 0     | PAB              | 1 b 0      | 1.0   |
//! | 4      | 1 b 0     | 5 b + (forfeit)  | 6 b 1      | 2.0   |
//! | 5      | 2 b =     | 4 w - (forfeit)  | absent     | 0.5   |
//! | 6      | 3 b 1     | absent           | 4 w 0      | 1.0   |

use rochade_tournament::crosstable::Crosstable;
use rochade_tournament::tiebreak::{Cut, Format, TieBreak, Value, standings};
use rochade_tournament::trf::Trf;

/// A `001` line for player `n`.
fn line(n: u16, rating: &str, points: &str, blocks: &str) -> String {
    let name = format!("Player {n}");
    format!(
        "001 {n:>4}      {name:<33} {rating:>4} {:27}{points:>4} {n:>4}  {blocks}\n",
        ""
    )
}

/// The crosstable of the tournament above.
fn table() -> Crosstable {
    let text = [
        line(1, "2000", "2.5", "   4 w 1     2 b =     3 w 1  "),
        line(2, "1900", "1.5", "   5 w =     1 w =  0000 - H  "),
        line(3, "1800", "1.0", "   6 w 0  0000 - U     1 b 0  "),
        line(4, "1700", "2.0", "   1 b 0     5 b +     6 b 1  "),
        line(5, "1600", "0.5", "   2 b =     4 w -  0000 - Z  "),
        line(6, "", "1.0", "   3 b 1  0000 - Z     4 w 0  "),
    ]
    .concat();
    let trf = Trf::parse(&text).expect("valid TRF");
    Crosstable::from_trf(&trf, 3).expect("complete")
}

/// Player `n`'s value of `tie` (points 0.5 apart are 50 hundredths).
fn value(n: u16, tie: TieBreak) -> Value {
    standings(&table(), &[tie], Format::Swiss)
        .into_iter()
        .find(|s| s.player.get() == n)
        .expect("a player")
        .values[0]
}

/// `x` points as a value.
fn pts(x: f64) -> Value {
    Value((x * 100.0).round() as i64)
}

#[test]
fn c07_8_1_buchholz_over_the_board() {
    // 4 (2.0) + 2 (1.5) + 3 (1.0).
    assert_eq!(value(1, TieBreak::Buchholz(Cut::None)), pts(4.5));
}

#[test]
fn c07_16_4_an_unplayed_round_meets_a_dummy_with_the_players_own_score() {
    // Player 3's pairing-allocated bye counts as his own 1.0.
    assert_eq!(value(3, TieBreak::Buchholz(Cut::None)), pts(4.5));
    // Player 4's forfeit win counts as his own 2.0.
    assert_eq!(value(4, TieBreak::Buchholz(Cut::None)), pts(5.5));
}

#[test]
fn c07_16_3_2_terminal_voluntary_unplayed_rounds_count_as_draws_for_opponents() {
    // Player 5 scored 0.5 but is seen as 1.0 by player 2: his absence in
    // round 3 comes after his last non-voluntary round (16.2.5) and counts
    // as a draw; his forfeit loss in round 2 has an opponent and counts 0.
    // Player 2: 5 (1.0) + 1 (2.5) + own 1.5 for the half-point bye.
    assert_eq!(value(2, TieBreak::Buchholz(Cut::None)), pts(5.0));
}

#[test]
fn c07_16_5_cut_1_removes_a_voluntary_unplayed_round_first() {
    // Player 2's lowest part is 1.0 (player 5), but the half-point bye
    // (1.5) goes first.
    assert_eq!(value(2, TieBreak::Buchholz(Cut::Cut1)), pts(3.5));
    // Player 6: the absence (own 1.0) goes before the equal 1.0 of player 3.
    assert_eq!(value(6, TieBreak::Buchholz(Cut::Cut1)), pts(3.0));
}

#[test]
fn c07_14_1_cut_1_without_voluntary_unplayed_rounds_removes_the_lowest() {
    // Player 1: 2.0 + 1.5 + 1.0, without the 1.0.
    assert_eq!(value(1, TieBreak::Buchholz(Cut::Cut1)), pts(3.5));
}

#[test]
fn c07_14_2_cut_2() {
    assert_eq!(value(1, TieBreak::Buchholz(Cut::Cut2)), pts(2.0));
}

#[test]
fn c07_14_3_median_1_removes_the_lowest_and_the_highest() {
    // Player 4: 2.5, own 2.0, 1.0 -> 2.0.
    assert_eq!(value(4, TieBreak::Buchholz(Cut::Median1)), pts(2.0));
}

#[test]
fn c07_9_1_sonneborn_berger() {
    // Player 1: 2.0 × 1 + 1.5 × ½ + 1.0 × 1.
    assert_eq!(value(1, TieBreak::SonnebornBerger), pts(3.75));
    // Player 2: 1.0 × ½ + 2.5 × ½ + own 1.5 × ½ for the half-point bye (16.4).
    assert_eq!(value(2, TieBreak::SonnebornBerger), pts(2.5));
}

#[test]
fn c07_7_1_wins_count_unplayed_wins_and_c07_7_2_games_won_do_not() {
    assert_eq!(value(4, TieBreak::Wins), Value(200));
    assert_eq!(value(4, TieBreak::GamesWon), Value(100));
    assert_eq!(value(3, TieBreak::Wins), Value(100));
    assert_eq!(value(3, TieBreak::GamesWon), Value(0));
}

#[test]
fn c07_7_3_black_games_and_c07_7_4_black_wins_count_only_played_games() {
    // Player 4 had Black three times, but round 2 was a forfeit.
    assert_eq!(value(4, TieBreak::BlackGames), Value(200));
    assert_eq!(value(4, TieBreak::BlackWins), Value(100));
    assert_eq!(value(6, TieBreak::BlackWins), Value(100));
}

#[test]
fn c07_7_5_progressive_score() {
    // Player 1: 1 + 1.5 + 2.5.
    assert_eq!(value(1, TieBreak::ProgressiveScore), pts(5.0));
}

#[test]
fn c07_9_2_koya_counts_points_against_opponents_with_half_the_maximum() {
    // Maximum 3, half 1.5: player 4 (2.0) and player 2 (1.5) count, player 3 (1.0) not.
    assert_eq!(value(1, TieBreak::Koya), pts(1.5));
}

#[test]
fn c07_10_1_average_rating_of_opponents_skips_unplayed_and_unrated() {
    assert_eq!(value(1, TieBreak::AverageRatingOfOpponents), Value(180_000));
    // Player 4 met 1 (2000) over the board; 5 was a forfeit, 6 is unrated.
    assert_eq!(value(4, TieBreak::AverageRatingOfOpponents), Value(200_000));
}

#[test]
fn c07_10_2_performance_rating_adds_dp_of_the_score() {
    // Player 1: 2.5 / 3 = 0.83, dp 273: 1800 + 273.
    assert_eq!(value(1, TieBreak::PerformanceRating), Value(207_300));
    // Player 4: 0 / 1, dp -800.
    assert_eq!(value(4, TieBreak::PerformanceRating), Value(120_000));
}

#[test]
fn c07_6_direct_encounter_separates_players_who_met() {
    // Players 3 and 6 are tied on 1.0; 6 beat 3 in round 1.
    let ranked = standings(&table(), &[TieBreak::DirectEncounter], Format::Swiss);
    let order: Vec<u16> = ranked.iter().map(|s| s.player.get()).collect();
    assert_eq!(order, vec![1, 4, 2, 6, 3, 5]);
    let ranks: Vec<usize> = ranked.iter().map(|s| s.rank).collect();
    assert_eq!(ranks, vec![1, 2, 3, 4, 5, 6]);
}

#[test]
fn c07_4_2_players_tied_after_every_tie_break_share_a_place() {
    // Players 3 and 6 have one win each (a bye and a game): still tied.
    let ranked = standings(&table(), &[TieBreak::Wins], Format::Swiss);
    let tied: Vec<(u16, usize)> = ranked
        .iter()
        .filter(|s| [3, 6].contains(&s.player.get()))
        .map(|s| (s.player.get(), s.rank))
        .collect();
    assert_eq!(tied, vec![(3, 4), (6, 4)]);
}

#[test]
fn c07_16_round_robin_unplayed_rounds_add_nothing() {
    let ranked = standings(
        &table(),
        &[TieBreak::Buchholz(Cut::None)],
        Format::RoundRobin,
    );
    let three = ranked
        .iter()
        .find(|s| s.player.get() == 3)
        .expect("player 3");
    // 6 (1.0) + 1 (2.5), nothing for the bye.
    assert_eq!(three.values[0], pts(3.5));
}
