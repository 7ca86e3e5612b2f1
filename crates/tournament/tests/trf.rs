//! TRF16 reading and writing: real files round trip, malformed files are
//! refused with their line and column, and no input makes the reader panic.

use proptest::prelude::*;
use rochade_tournament::PairingNumber;
use rochade_tournament::trf::{Record, ResultCode, RoundEntry, Trf, TrfErrorKind, TrfWriteError};

/// A Swiss tournament written by caissify-pairings 0.5.0's random
/// tournament generator (`caissify-pairings-rtg -n 1 -p 11 -r 5 --seed 7`).
const CAISSIFY: &str = include_str!("data/caissify_rtg_11p_5r.trf");

/// A `001` line for player `n` with `points` and these round blocks.
fn player_line(n: u16, points: &str, blocks: &str) -> String {
    named_line(n, &format!("Player {n}"), points, blocks)
}

/// A `001` line for player `n` called `name` (not cut to its columns).
fn named_line(n: u16, name: &str, points: &str, blocks: &str) -> String {
    format!(
        "001 {n:>4}      {name:<33} 2000 {:27}{points:>4} {n:>4}  {blocks}",
        ""
    )
}

#[test]
fn reads_a_caissify_file() {
    let trf = Trf::parse(CAISSIFY).expect("caissify's file is valid TRF16");
    assert_eq!(trf.players().len(), 11);
    assert_eq!(trf.rounds(), Some(5));
    assert_eq!(trf.played_rounds(), 5);
    assert_eq!(trf.header("012"), Some("RTG-00001 11p 5r"));
    let four = trf
        .player(PairingNumber::new(4).expect("4"))
        .expect("player 4");
    assert_eq!(four.name, "Fischer,Carlos");
    assert_eq!(four.rating, Some(2187));
    assert_eq!(four.points.to_string(), "2.5");
    let bye = four.rounds[2].expect("round 3");
    assert_eq!(bye.result, Some(ResultCode::PairingAllocatedBye));
    assert!(bye.opponent.is_none());
}

#[test]
fn writes_a_caissify_file_back_column_for_column() {
    let trf = Trf::parse(CAISSIFY).expect("valid");
    let written = trf.write().expect("written");
    let expected: Vec<&str> = CAISSIFY.lines().map(str::trim_end).collect();
    let got: Vec<&str> = written.lines().map(str::trim_end).collect();
    assert_eq!(got, expected);
    assert_eq!(Trf::parse(&written).expect("valid"), trf);
}

#[test]
fn keeps_extension_records() {
    let text =
        "012 Test\r\nXXR 9\r\nXXC white1 rank\r\nXXA    1  1.0  1.0  0.5\r\n240 H   2    2\r\n\
                ### a comment\r\n"
            .to_owned()
            + &player_line(1, "0.0", "")
            + "\r\n"
            + &player_line(2, "0.0", "")
            + "\r\n";
    let trf = Trf::parse(&text).expect("valid");
    assert_eq!(
        trf.write().expect("written"),
        text.replace("  \r\n", "\r\n")
    );
    assert_eq!(trf.first_colour(), Some(rochade_tournament::Colour::White));
}

#[test]
fn a_pending_pairing_round_trips() {
    let text = format!(
        "{}\n{}\n",
        player_line(1, "0.0", "   2 w  "),
        player_line(2, "0.0", "   1 b  ")
    );
    let trf = Trf::parse(&text).expect("valid");
    let entry = trf.players()[0].rounds[0].expect("round 1");
    assert_eq!(entry.result, None);
    assert_eq!(
        Trf::parse(&trf.write().expect("written")).expect("valid"),
        trf
    );
}

/// The error for `text`, as (line, column, kind).
fn refuse(text: &str) -> (usize, usize, TrfErrorKind) {
    let err = Trf::parse(text).expect_err("malformed");
    (err.line, err.column, err.kind)
}

#[test]
fn refuses_a_name_spilling_into_the_rating() {
    let line = named_line(1, "Player 1 with a much too long name", "0.0", "");
    let (l, c, kind) = refuse(&format!("012 T\n{line}\n"));
    assert_eq!((l, c), (2, 48));
    assert!(matches!(kind, TrfErrorKind::NotBlank(_)));
}

#[test]
fn refuses_an_unknown_opponent() {
    let text = format!("{}\n", player_line(1, "1.0", "   7 w 1  "));
    assert_eq!(refuse(&text), (1, 92, TrfErrorKind::UnknownPlayer(7)));
}

#[test]
fn refuses_two_winners_of_one_game() {
    let text = format!(
        "{}\n{}\n",
        player_line(1, "1.0", "   2 w 1  "),
        player_line(2, "1.0", "   1 b 1  ")
    );
    let (l, c, kind) = refuse(&text);
    assert_eq!((l, c), (1, 92));
    assert_eq!(
        kind,
        TrfErrorKind::Disagreement {
            round: 1,
            player: 1,
            opponent: 2
        }
    );
}

#[test]
fn refuses_the_same_colour_for_both_players() {
    let text = format!(
        "{}\n{}\n",
        player_line(1, "1.0", "          "),
        player_line(2, "1.0", "          ")
    ) + &format!(
        "{}\n{}\n",
        player_line(3, "1.0", "   4 w 1  "),
        player_line(4, "0.0", "   3 w 0  ")
    );
    let (l, c, _) = refuse(&text);
    assert_eq!((l, c), (3, 92));
}

#[test]
fn refuses_impossible_rounds() {
    let cases = [
        ("   2 - H  ", 99, "a bye has no opponent"),
        ("   2 - 1  ", 99, "a played game needs a colour"),
        ("0000 w U  ", 99, "a colour without an opponent"),
        ("0000 - 1  ", 99, "a game result needs an opponent"),
    ];
    for (block, column, why) in cases {
        let text = format!(
            "{}\n{}\n",
            player_line(1, "0.0", block),
            player_line(2, "0.0", "")
        );
        assert_eq!(
            refuse(&text),
            (1, column, TrfErrorKind::ImpossibleRound(why)),
            "{block:?}"
        );
    }
}

#[test]
fn refuses_unknown_codes_where_they_stand() {
    let bad_result = format!("{}\n", player_line(1, "0.0", "0000 - X  "));
    assert_eq!(refuse(&bad_result), (1, 99, TrfErrorKind::ResultCode('X')));
    let bad_colour = format!("{}\n", player_line(1, "0.0", "   2 x 1  "));
    assert_eq!(refuse(&bad_colour), (1, 97, TrfErrorKind::Colour('x')));
    let bad_score = player_line(1, "1.x", "");
    assert_eq!(
        refuse(&bad_score),
        (1, 81, TrfErrorKind::Score("1.x".to_owned()))
    );
    let self_pairing = player_line(1, "0.0", "   1 w 1  ");
    assert_eq!(refuse(&self_pairing), (1, 92, TrfErrorKind::SelfPairing(1)));
    let shifted = player_line(1, "0.0", "  2 w 1   ");
    assert!(matches!(
        refuse(&shifted),
        (1, 96, TrfErrorKind::NotBlank('w'))
    ));
}

#[test]
fn refuses_repeated_and_missing_players() {
    let twice = format!(
        "{}\n{}\n",
        player_line(1, "0.0", ""),
        player_line(1, "0.0", "")
    );
    assert_eq!(refuse(&twice), (2, 5, TrfErrorKind::DuplicatePlayer(1)));
    let accel = format!("{}\nXXA    3  1.0\n", player_line(1, "0.0", ""));
    assert_eq!(refuse(&accel), (2, 5, TrfErrorKind::UnknownPlayer(3)));
    let bye = format!("{}\n240 H   1    1    4\n", player_line(1, "0.0", ""));
    assert_eq!(refuse(&bye), (2, 16, TrfErrorKind::UnknownPlayer(4)));
}

#[test]
fn refuses_bad_extension_records() {
    assert_eq!(refuse("XXR 0\n"), (1, 5, TrfErrorKind::NoRounds));
    assert_eq!(
        refuse("012 A\nXXR 9 10\n"),
        (2, 7, TrfErrorKind::TrailingText)
    );
    assert_eq!(
        refuse("XXC white2\n"),
        (1, 5, TrfErrorKind::ColourOption("white2".to_owned()))
    );
    assert_eq!(
        refuse("240 X   1    1\n"),
        (1, 5, TrfErrorKind::ByeType('X'))
    );
    assert!(matches!(
        refuse("001    1  short"),
        (1, 16, TrfErrorKind::TooShort { .. })
    ));
}

/// One random edit of a line: replace, insert or delete a character.
fn mutate(line: &str, at: usize, c: char, how: u8) -> String {
    let mut chars: Vec<char> = line.chars().collect();
    let at = at % (chars.len() + 1);
    match how % 3 {
        0 if at < chars.len() => chars[at] = c,
        1 => chars.insert(at, c),
        _ if at < chars.len() => {
            chars.remove(at);
        }
        _ => chars.push(c),
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn never_panics_on_mutated_lines(
        edits in proptest::collection::vec((0usize..20, 0usize..200, any::<char>(), any::<u8>()), 1..6)
    ) {
        let mut lines: Vec<String> = CAISSIFY.lines().map(str::to_owned).collect();
        for (line, at, c, how) in edits {
            let i = line % lines.len();
            lines[i] = mutate(&lines[i], at, c, how);
        }
        let text = lines.join("\n");
        if let Ok(trf) = Trf::parse(&text) {
            prop_assert_eq!(Trf::parse(&trf.write().expect("written")), Ok(trf));
        }
    }

    #[test]
    fn never_panics_on_any_text(text in "\\PC{0,300}") {
        let _ = Trf::parse(&text);
    }

    #[test]
    fn never_panics_on_trf_like_text(text in "(001|XXR|XXA|XXC|240|012)[ 0-9wb=+HFUZ.-]{0,160}(\n|\r)?") {
        if let Ok(trf) = Trf::parse(&text) {
            prop_assert_eq!(Trf::parse(&trf.write().expect("written")), Ok(trf));
        }
    }
}

/// TRF16 gives a pairing number four columns: a player numbered 10,000
/// (a pairing number since the Dutch pairer takes 65,535 players) is
/// refused by the writer, an opponent numbered so as well, and 9,999
/// is written.
#[test]
fn numbers_above_9999_are_refused_by_the_writer() {
    let line =
        "001 9999      Alpha                             2000                             0.0    1";
    let mut trf = Trf::parse(line).expect("valid");
    assert!(trf.write().is_ok());
    let wide = PairingNumber::new(10_000).expect("a pairing number");
    let Some(Record::Player(p)) = trf.records().first().cloned() else {
        panic!("a player record");
    };
    let mut player = p.clone();
    player.number = wide;
    let refused = Trf::from_records(vec![Record::Player(player)]);
    assert_eq!(refused.write(), Err(TrfWriteError::PairingNumber(wide)));
    let mut opponent = p;
    opponent.rounds = vec![Some(RoundEntry {
        opponent: Some(wide),
        ..RoundEntry::bye(ResultCode::Win)
    })];
    trf = Trf::from_records(vec![Record::Player(opponent)]);
    assert_eq!(trf.write(), Err(TrfWriteError::PairingNumber(wide)));
}
