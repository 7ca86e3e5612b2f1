//! An arena's standings: each player's sheet read from the results of
//! their games in the order paired, ranked by points, then, as lichess,
//! by performance (their rating before any game), then rating; and the
//! page's view of the arena: the games going on and the time left.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::sheet::{self, Played, Sheet};
use super::{ArenaGame, ends_at};
use crate::tournaments::Tournament;
use crate::tournaments::report::Outcome;

/// The rating counted for a player who has none.
const UNRATED: u32 = 1500;

/// The points a performance adds for a win (and takes for a loss) to the
/// opponent's rating, as lichess's arena performance.
const PERFORMANCE_STEP: i64 = 500;

/// A player's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Their index in [`Tournament::players`].
    pub index: usize,
    /// Their sheet.
    pub sheet: Sheet,
    /// Their performance, once they have a game.
    pub performance: Option<u32>,
    /// The game they play now.
    pub playing: Option<String>,
}

/// The result of `game` for `player`, if it ended and counts.
fn played(
    tournament: &Tournament,
    game: &ArenaGame,
    player: i64,
    games: &HashMap<String, Outcome>,
) -> Option<Played> {
    if tournament.arena.late.contains(&game.game) {
        return None;
    }
    let outcome = games.get(&game.game)?;
    let white = game.white == player;
    let result = match (outcome.result.as_deref()?, white) {
        ("1-0", true) | ("0-1", false) => sheet::Result::Win,
        ("1-0", false) | ("0-1", true) => sheet::Result::Loss,
        ("1/2-1/2", _) => sheet::Result::Draw,
        // Aborted, or closed with no result: not a game.
        _ => return None,
    };
    Some(Played {
        result,
        plies: outcome.plies,
        berserk: outcome.berserk[usize::from(!white)],
    })
}

/// Whether `game` is still going (or named and not yet made).
pub fn going(game: &ArenaGame, games: &HashMap<String, Outcome>) -> bool {
    games.get(&game.game).is_none_or(|o| o.result.is_none())
}

/// Whether `game` is being played: made, not over, not set apart at
/// the end.
fn in_play(tournament: &Tournament, game: &ArenaGame, games: &HashMap<String, Outcome>) -> bool {
    games.get(&game.game).is_some_and(|o| o.result.is_none())
        && !tournament.arena.late.contains(&game.game)
}

/// Every player's line, ranked.
pub fn lines(tournament: &Tournament, games: &HashMap<String, Outcome>) -> Vec<Line> {
    let ratings: HashMap<i64, u32> = tournament
        .players
        .iter()
        .map(|p| (p.id, p.rating.map_or(UNRATED, u32::from)))
        .collect();
    let rating = |id: i64| ratings.get(&id).copied().unwrap_or(UNRATED);
    let by_player = super::games_by_player(tournament);
    let mut lines: Vec<Line> = tournament
        .players
        .iter()
        .enumerate()
        .map(|(index, p)| {
            let mut scored = Vec::new();
            let mut sum = 0i64;
            let mut playing = None;
            for g in by_player.get(&p.id).into_iter().flatten() {
                let opponent = if g.white == p.id { g.black } else { g.white };
                if let Some(game) = played(tournament, g, p.id, games) {
                    let step = match game.result {
                        sheet::Result::Win => PERFORMANCE_STEP,
                        sheet::Result::Draw => 0,
                        sheet::Result::Loss => -PERFORMANCE_STEP,
                    };
                    sum += i64::from(rating(opponent)) + step;
                    scored.push(game);
                } else if in_play(tournament, g, games) {
                    playing = Some(g.game.clone());
                }
            }
            let performance = i64::try_from(scored.len())
                .ok()
                .filter(|n| *n > 0)
                .map(|n| u32::try_from((sum / n).max(0)).unwrap_or(0));
            Line {
                index,
                sheet: Sheet::of(&scored),
                performance,
                playing,
            }
        })
        .collect();
    let key = |l: &Line| {
        let p = &tournament.players[l.index];
        (
            l.sheet.total,
            l.performance.unwrap_or_else(|| rating(p.id)),
            rating(p.id),
        )
    };
    lines.sort_by(|a, b| {
        key(b).cmp(&key(a)).then_with(|| {
            let name = |l: &Line| tournament.players[l.index].name.to_lowercase();
            name(a).cmp(&name(b))
        })
    });
    lines
}

/// The standings rows, as every system's (`rank`, `number`, `name`,
/// `points`, `tiebreaks`: the performance), with each player's sheet
/// (`sheet`: each game's points, whether on fire, whether a berserk
/// point), `fire` (the next game scores double), the game they play.
pub fn rows(tournament: &Tournament, games: &HashMap<String, Outcome>) -> Vec<Value> {
    lines(tournament, games)
        .iter()
        .enumerate()
        .map(|(place, line)| {
            let p = &tournament.players[line.index];
            json!({
                "rank": place + 1,
                "number": line.index + 1,
                "id": p.id,
                "name": p.name,
                "rating": p.rating,
                "points": line.sheet.total,
                "tiebreaks": [line.performance.map_or_else(String::new, |v| v.to_string())],
                "withdrawn": tournament.is_withdrawn(p.id),
                "finished": line.sheet.scores.len(),
                "rounds": [],
                "sheet": line.sheet.scores,
                "fire": line.sheet.on_fire(),
                "performance": line.performance,
                "playing": line.playing,
            })
        })
        .collect()
}

/// The arena as its page shows it at server time `now`: its length, its
/// end, when pairing stops, the seconds left, and the games going on
/// (the leaders' first) with who went berserk.
pub fn view(tournament: &Tournament, games: &HashMap<String, Outcome>, now: u64) -> Value {
    let lines = lines(tournament, games);
    let rank_of = |id: i64| {
        lines
            .iter()
            .position(|l| tournament.players[l.index].id == id)
            .map_or(usize::MAX, |r| r + 1)
    };
    let side = |id: i64| json!({"id": id, "name": tournament.entrant(id).map(|p| p.name.clone()), "rank": rank_of(id)});
    let mut playing: Vec<&ArenaGame> = tournament
        .arena
        .games
        .iter()
        .filter(|g| in_play(tournament, g, games))
        .collect();
    playing.sort_by_key(|g| rank_of(g.white).min(rank_of(g.black)));
    let ends = ends_at(tournament);
    json!({
        "minutes": super::minutes(tournament),
        "endsAt": ends,
        "closesAt": super::closes_at(tournament),
        "secondsLeft": ends.map(|e| e.saturating_sub(now).div_ceil(1000)),
        "games": tournament.arena.games.len(),
        "playing": playing.iter().map(|g| {
            let berserk = games.get(&g.game).map_or([false; 2], |o| o.berserk);
            json!({
                "game": g.game,
                "white": side(g.white),
                "black": side(g.black),
                "berserk": {"white": berserk[0], "black": berserk[1]},
            })
        }).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournaments::{Entrant, System};

    fn arena() -> Tournament {
        let mut t: Tournament = serde_json::from_value(json!({
            "id": "a", "name": "Arena", "director": 1, "director_name": "td",
            "time_control": "3+2", "rules": "fide", "rated": true, "double": false,
            "triple_block": false, "draws_from_move": null, "start": {"start": "standard"},
            "silence_days": 10, "players": [], "started": 0, "created": 0,
        }))
        .expect("a tournament");
        t.system = System::Arena { minutes: 30 };
        for (id, name, rating) in [(1, "Anna", 1600), (2, "Boris", 1500), (3, "Cyril", 1400)] {
            t.players.push(Entrant {
                id,
                name: name.into(),
                rating: Some(rating),
                from_round: 1,
            });
        }
        t
    }

    fn game(id: &str, white: i64, black: i64) -> ArenaGame {
        ArenaGame {
            game: id.into(),
            white,
            black,
            paired: 0,
        }
    }

    fn ended(result: &str, plies: usize, berserk: [bool; 2]) -> Outcome {
        Outcome {
            result: Some(result.into()),
            plies,
            berserk,
        }
    }

    #[test]
    fn the_ranking_is_by_points_then_performance_and_late_games_do_not_count() {
        let mut t = arena();
        t.arena.games = vec![game("g1", 3, 1), game("g2", 2, 3), game("g3", 1, 2)];
        let mut games = HashMap::new();
        // Cyril beats Anna going berserk, then loses to Boris.
        games.insert("g1".to_owned(), ended("1-0", 30, [true, false]));
        games.insert("g2".to_owned(), ended("1-0", 30, [false, false]));
        // Anna and Boris still play.
        games.insert("g3".to_owned(), Outcome::default());
        let lines = lines(&t, &games);
        let order: Vec<usize> = lines.iter().map(|l| l.index).collect();
        // Cyril 3 points; Boris 2; Anna 0 (playing).
        assert_eq!(order, vec![2, 1, 0]);
        assert_eq!(lines[0].sheet.digits(), "30");
        assert_eq!(lines[1].performance, Some(1400 + 500));
        assert_eq!(lines[2].playing.as_deref(), Some("g3"));
        // The time is up before g3 ends: it does not count.
        t.arena.late.push("g3".into());
        games.insert("g3".to_owned(), ended("1-0", 30, [false, false]));
        let lines = super::lines(&t, &games);
        assert_eq!(lines[2].sheet.total, 0);
        assert!(lines[2].playing.is_none());
        // Equal points: the better performance first.
        t.arena.late.clear();
        let lines = super::lines(&t, &games);
        let points: Vec<u32> = lines.iter().map(|l| l.sheet.total).collect();
        assert_eq!(points, vec![3, 2, 2]);
        assert_eq!(
            lines[1].index, 1,
            "Boris beat Cyril (1400), Anna beat Boris (1500)"
        );
    }
}
