//! The referee's rulings against scripted fake engines (`/bin/sh`): an
//! illegal move, a fallen flag, and a flag that falls when the opponent
//! cannot mate.

use rochade_arena::{Ending, EngineSpec, GameSetup, Opening, play_game};
use rochade_laws::{GameResult, Reason};

/// A fake engine answering every `go` with `answer` after `delay` seconds.
fn fake(name: &str, answer: &str, delay: &str, limit: &str) -> EngineSpec {
    let script = format!(
        "echo '{name} 1.0 by nobody'; while read -r line; do case \"$line\" in \
         uci) echo 'id name {name}'; echo uciok;; \
         isready) echo readyok;; \
         go*) sleep {delay}; echo 'thinking hard'; echo 'bestmove {answer}';; \
         quit) exit 0;; esac; done"
    );
    EngineSpec::parse([
        format!("name={name}").as_str(),
        "cmd=/bin/sh",
        "arg=-c",
        format!("arg={script}").as_str(),
        limit,
    ])
    .expect("valid spec")
}

fn setup<'a>(opening: &'a Opening, white: &'a EngineSpec, black: &'a EngineSpec) -> GameSetup<'a> {
    GameSetup {
        round: 1,
        event: "test",
        opening,
        white,
        black,
        resign: None,
        draw: None,
        tablebases: None,
    }
}

#[test]
fn illegal_move_loses_by_forfeit() {
    let opening = Opening::startpos();
    let white = fake("cheat", "e2e5", "0", "st=1");
    let black = fake("honest", "e7e5", "0", "st=1");
    let record = play_game(&setup(&opening, &white, &black)).unwrap();
    assert_eq!(record.outcome.result, GameResult::BlackWins);
    assert_eq!(record.outcome.reason, Reason::Forfeit);
    assert!(
        matches!(record.ending, Ending::IllegalMove(_)),
        "{:?}",
        record.ending
    );
    assert!(
        record.pgn.contains("[Termination \"rules infraction\"]"),
        "{}",
        record.pgn
    );
    assert!(record.pgn.contains("illegal move e2e5"), "{}", record.pgn);
    // The banner before the handshake is not reported; lines during the game are.
    assert_eq!(record.garbage.len(), 1, "{:?}", record.garbage);
    assert!(
        record.garbage[0].starts_with("cheat: `thinking hard`"),
        "{:?}",
        record.garbage
    );
}

#[test]
fn fallen_flag_loses_on_time() {
    // FIDE 6.9: the flag falls and the opponent can still mate: a loss.
    let opening = Opening::startpos();
    let white = fake("slow", "e2e4", "3", "tc=1");
    let black = fake("fast", "e7e5", "0", "tc=1");
    let record = play_game(&setup(&opening, &white, &black)).unwrap();
    assert_eq!(record.outcome.result, GameResult::BlackWins);
    assert_eq!(record.outcome.reason, Reason::Timeout);
    assert!(
        record.pgn.contains("[Termination \"time forfeit\"]"),
        "{}",
        record.pgn
    );
}

#[test]
fn fallen_flag_against_a_lone_king_is_a_draw() {
    // FIDE 6.9: the opponent cannot checkmate by any series of legal moves.
    let opening = Opening {
        fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap(),
        label: None,
    };
    let white = fake("slow", "e2e4", "3", "tc=1");
    let black = fake("king", "e8d8", "0", "tc=1");
    let record = play_game(&setup(&opening, &white, &black)).unwrap();
    assert_eq!(record.outcome.result, GameResult::Draw);
    assert_eq!(record.outcome.reason, Reason::TimeoutVsInsufficientMaterial);
}

#[test]
fn dead_engine_loses_by_forfeit() {
    let opening = Opening::startpos();
    let white = fake("crash", "e2e4", "0", "st=1");
    let mut black = fake("honest", "e7e5", "0", "st=1");
    // Black exits as soon as it is asked to move.
    black.args[1] = "while read -r line; do case \"$line\" in uci) echo uciok;; \
                     isready) echo readyok;; go*) exit 3;; esac; done"
        .into();
    let record = play_game(&setup(&opening, &white, &black)).unwrap();
    assert_eq!(record.outcome.result, GameResult::WhiteWins);
    assert!(
        matches!(record.ending, Ending::EngineFailure(_)),
        "{:?}",
        record.ending
    );
    assert!(
        record.pgn.contains("[Termination \"abandoned\"]"),
        "{}",
        record.pgn
    );
}

/// A fake engine that says back every `go` line it hears (`heard go …`)
/// and answers `answer`.
fn echoing(name: &str, answer: &str, limit: &str) -> EngineSpec {
    let mut spec = fake(name, answer, "0", limit);
    spec.args[1] = format!(
        "while read -r line; do case \"$line\" in uci) echo uciok;; \
         isready) echo readyok;; go*) echo \"heard $line\"; echo 'bestmove {answer}';; \
         quit) exit 0;; esac; done"
    );
    spec
}

/// The `go` lines an engine said back, with the running times as `T`.
fn heard(garbage: &[String], name: &str) -> Vec<String> {
    let prefix = format!("{name}: `heard ");
    garbage
        .iter()
        .filter_map(|g| g.strip_prefix(&prefix)?.split('`').next())
        .map(|line| {
            let mut words: Vec<&str> = line.split(' ').collect();
            for i in 1..words.len() {
                if matches!(words[i - 1], "wtime" | "btime") {
                    words[i] = "T";
                }
            }
            words.join(" ")
        })
        .collect()
}

#[test]
fn go_tells_both_clocks_and_the_movers_moves_to_go() {
    // White plays 5 minutes, Black 40 moves in 10 minutes with 0.5 s a
    // move: each engine hears both times, each side's own increment (none
    // is said for White) and only its own moves to the next control.
    let opening = Opening::startpos();
    let white = echoing("white", "e2e4", "tc=300");
    let black = echoing("black", "e7e5", "tc=40/600+0.5");
    let record = play_game(&setup(&opening, &white, &black)).unwrap();
    // White's second e2e4 is illegal: two `go`s for White, one for Black.
    assert!(
        matches!(record.ending, Ending::IllegalMove(_)),
        "{:?}",
        record.ending
    );
    assert_eq!(
        heard(&record.garbage, "white"),
        ["go wtime T btime T binc 500", "go wtime T btime T binc 500"],
        "{:?}",
        record.garbage
    );
    assert_eq!(
        heard(&record.garbage, "black"),
        ["go wtime T btime T binc 500 movestogo 40"],
        "{:?}",
        record.garbage
    );
}
