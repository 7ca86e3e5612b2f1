//! One test per article of the FIDE Laws (and the ICCF rules) that
//! `rochade_laws::Game` enforces. Each test names its article.

use rochade_laws::{
    ClaimError, ClaimKind, ClaimVerdict, Game, GameResult, Language, MoveError, NotationError,
    OfferError, Outcome, Reason, RuleSet, Scoring, TablebaseClaim, TablebaseClaimError,
    TablebaseValue,
};
use shakmaty::{Color, Move, uci::UciMove};

/// A game from `fen` under the current FIDE Laws.
fn game(fen: &str) -> Game {
    Game::from_fen(fen, RuleSet::Fide).expect("legal FEN")
}

/// Plays UCI moves, expecting each to be legal.
fn play(game: &mut Game, moves: &str) {
    for uci in moves.split_whitespace() {
        game.play_uci(uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
    }
}

/// The move `uci` in the current position.
fn mv(game: &Game, uci: &str) -> Move {
    uci.parse::<UciMove>()
        .expect("UCI")
        .to_move(game.position())
        .expect("legal")
}

const KNIGHT_SHUFFLE: &str = "g1f3 g8f6 f3g1 f6g8";

#[test]
fn art_5_1_1_checkmate_ends_the_game() {
    let mut g = Game::default();
    play(&mut g, "f2f3 e7e5 g2g4 d8h4");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, Reason::Checkmate))
    );
    // No move can follow the end of the game.
    assert!(matches!(g.play_uci("a2a3"), Err(MoveError::GameOver(_))));
}

#[test]
fn art_5_1_2_either_player_may_resign_at_any_time() {
    let mut g = Game::default();
    play(&mut g, "e2e4");
    // White resigns while Black is on move.
    assert_eq!(
        g.resign(Color::White),
        Ok(Outcome::win(Color::Black, Reason::Resignation))
    );
    assert!(
        g.resign(Color::Black).is_err(),
        "a finished game cannot be resigned"
    );
}

#[test]
fn art_5_2_1_stalemate_is_a_draw() {
    let mut g = game("7k/8/6Q1/8/8/8/8/6K1 w - - 0 1");
    play(&mut g, "g6f7");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::Stalemate)));
}

#[test]
fn art_5_2_2_dead_position_ends_the_game_at_once() {
    let mut g = game("8/8/4k3/8/4r3/3K4/8/8 w - - 0 1");
    assert_eq!(g.outcome(), None);
    play(&mut g, "d3e4");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::DeadPosition)));
}

#[test]
fn art_5_2_2_blocked_pawn_wall_is_dead() {
    // A position that is dead when set up is over at once.
    let g = game("8/8/1k6/p1p1p1p1/P1P1P1P1/8/8/2K5 w - - 0 50");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::DeadPosition)));
    // The same wall with a pawn still free is not; taking it makes it dead.
    let mut g = game("8/8/1k6/p1p1p1p1/P1P1P1P1/8/7p/6K1 w - - 0 50");
    assert_eq!(g.outcome(), None);
    play(&mut g, "g1h2");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::DeadPosition)));
}

#[test]
fn art_9_1_offer_stays_until_answered_or_a_move_is_made() {
    let mut g = Game::default();
    play(&mut g, "e2e4");
    g.offer_draw(Color::White).expect("offer");
    assert_eq!(g.offer_draw(Color::White), Err(OfferError::AlreadyOffered));
    // 9.1.2.2: the offerer cannot accept their own offer.
    assert_eq!(g.accept_draw(Color::White), Err(OfferError::NoOffer));
    // Black replies with a move instead of answering: the offer lapses.
    play(&mut g, "e7e5");
    assert_eq!(g.pending_offer(), None);
    assert_eq!(g.accept_draw(Color::Black), Err(OfferError::NoOffer));
    // A new offer, accepted: 5.2.3.
    g.offer_draw(Color::Black).expect("offer");
    g.decline_draw(Color::White).expect("decline");
    g.offer_draw(Color::Black).expect("offer");
    assert_eq!(
        g.accept_draw(Color::White),
        Ok(Outcome::draw(Reason::Agreement))
    );
    assert_eq!(
        g.offers().len(),
        3,
        "offers are kept for the score sheet (8.1.6)"
    );
}

#[test]
fn art_9_1_1_regulations_may_forbid_early_agreements() {
    let mut g = Game::default();
    g.set_min_moves_for_agreement(30);
    play(&mut g, "e2e4 e7e5");
    assert_eq!(
        g.offer_draw(Color::White),
        Err(OfferError::TooEarly { min_moves: 30 })
    );
}

#[test]
fn iccf_art_5_2_3_agreement_only_after_both_players_moved_and_offers_survive_a_move() {
    let mut g = Game::new(RuleSet::Iccf);
    play(&mut g, "e2e4");
    assert_eq!(
        g.offer_draw(Color::White),
        Err(OfferError::TooEarly { min_moves: 1 })
    );
    play(&mut g, "e7e5");
    g.offer_draw(Color::White).expect("offer");
    play(&mut g, "g1f3");
    // ICCF 9.1.2.1: valid until accepted or declined.
    play(&mut g, "b8c6");
    assert_eq!(
        g.accept_draw(Color::Black),
        Ok(Outcome::draw(Reason::Agreement))
    );
}

#[test]
fn art_9_2_threefold_claim_in_both_forms() {
    let mut g = Game::default();
    play(&mut g, KNIGHT_SHUFFLE);
    play(&mut g, "g1f3 g8f6 f3g1");
    // 9.2.1.1: about to appear for the third time with Black's intended move.
    assert!(!g.can_claim(ClaimKind::ThreefoldRepetition));
    let intended = mv(&g, "f6g8");
    assert_eq!(
        g.claims_with_move(ClaimKind::ThreefoldRepetition),
        vec![intended]
    );
    let mut about = g.clone();
    assert_eq!(
        about.claim_draw(Color::Black, ClaimKind::ThreefoldRepetition, Some(intended)),
        Ok(ClaimVerdict::Drawn(Outcome::draw(
            Reason::ThreefoldRepetition
        )))
    );
    // 9.2.1.2: has just appeared for the third time, claimant on move.
    play(&mut g, "f6g8");
    assert!(g.can_claim(ClaimKind::ThreefoldRepetition));
    assert_eq!(
        g.claim_draw(Color::Black, ClaimKind::ThreefoldRepetition, None),
        Err(ClaimError::NotOnMove)
    );
    assert_eq!(
        g.claim_draw(Color::White, ClaimKind::ThreefoldRepetition, None),
        Ok(ClaimVerdict::Drawn(Outcome::draw(
            Reason::ThreefoldRepetition
        )))
    );
}

#[test]
fn art_9_2_2_1_en_passant_counts_only_when_the_capture_is_legal() {
    // After ...d5 White may take en passant: that position differs from the
    // same placement later, when the right has gone.
    let mut g = game("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3");
    play(&mut g, KNIGHT_SHUFFLE);
    play(&mut g, KNIGHT_SHUFFLE);
    assert_eq!(g.history().repetitions(), 2);
    assert!(!g.can_claim(ClaimKind::ThreefoldRepetition));
    play(&mut g, KNIGHT_SHUFFLE);
    assert!(g.can_claim(ClaimKind::ThreefoldRepetition));

    // An en passant square with no legal capture changes nothing.
    let mut g = game("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    play(&mut g, "g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1");
    assert!(g.can_claim(ClaimKind::ThreefoldRepetition));
}

#[test]
fn art_9_2_2_2_lost_castling_rights_make_positions_differ() {
    let mut g = game("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    play(&mut g, "h1g1 h8g8 g1h1 g8h8");
    assert_eq!(g.history().repetitions(), 1);
    play(&mut g, "h1g1 h8g8 g1h1 g8h8 h1g1 h8g8 g1h1 g8h8");
    assert_eq!(g.history().repetitions(), 3);
}

#[test]
fn art_9_3_fifty_move_claim_in_both_forms() {
    let mut g = game("8/8/4k3/8/8/3K4/8/R6r w - - 99 80");
    assert!(!g.can_claim(ClaimKind::FiftyMoves));
    let with_move = g.claims_with_move(ClaimKind::FiftyMoves);
    assert!(with_move.contains(&mv(&g, "a1a2")));
    assert!(
        !with_move.contains(&mv(&g, "a1h1")),
        "a capture resets the count"
    );
    play(&mut g, "a1a2");
    assert!(g.can_claim(ClaimKind::FiftyMoves));
    assert_eq!(
        g.claim_draw(Color::Black, ClaimKind::FiftyMoves, None),
        Ok(ClaimVerdict::Drawn(Outcome::draw(Reason::FiftyMoves)))
    );
}

#[test]
fn iccf_art_9_3_no_fifty_move_claim_with_seven_pieces_or_fewer() {
    let g = Game::from_fen("8/8/4k3/8/8/3K4/8/R6r b - - 100 80", RuleSet::Iccf).expect("legal");
    assert!(!g.can_claim(ClaimKind::FiftyMoves));
    let g = Game::from_fen("8/8/4k3/8/8/3K4/8/R6r b - - 100 80", RuleSet::Fide).expect("legal");
    assert!(g.can_claim(ClaimKind::FiftyMoves));
}

#[test]
fn iccf_art_9_3_1_no_fifty_move_claim_with_a_move_with_seven_pieces_or_fewer() {
    // Eight pieces, 99 half-moves: the rook move completes the fifty moves.
    let eight = "8/pp6/4k3/8/8/3K4/P6p/R6r w - - 99 80";
    let iccf = Game::from_fen(eight, RuleSet::Iccf).expect("legal");
    let a1b1 = mv(&iccf, "a1b1");
    assert!(iccf.claims_with_move(ClaimKind::FiftyMoves).contains(&a1b1));
    // Seven pieces: never a fifty-move claim under ICCF 9.3.
    let seven = "8/p7/4k3/8/8/3K4/P6p/R6r w - - 99 80";
    let iccf = Game::from_fen(seven, RuleSet::Iccf).expect("legal");
    assert!(iccf.claims_with_move(ClaimKind::FiftyMoves).is_empty());
    let mut iccf = Game::from_fen(&seven.replace(" 99 ", " 100 "), RuleSet::Iccf).expect("legal");
    assert!(!iccf.can_claim(ClaimKind::FiftyMoves));
    assert!(matches!(
        iccf.claim_draw(Color::White, ClaimKind::FiftyMoves, None),
        Ok(ClaimVerdict::Refused { played: None, .. })
    ));
    // The FIDE rules allow it.
    let fide = game(seven);
    assert!(!fide.claims_with_move(ClaimKind::FiftyMoves).is_empty());
}

#[test]
fn iccf_art_5_1_3_tablebase_win_is_claimed_by_the_player_on_move() {
    let kqk = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1";
    let mut g = Game::from_fen(kqk, RuleSet::Iccf).expect("legal");
    // Only the player on move claims, and only a value the tables give.
    assert_eq!(
        g.claim_tablebase(
            Color::Black,
            TablebaseClaim::Win,
            Some(TablebaseValue::Loss)
        ),
        Err(TablebaseClaimError::NotOnMove)
    );
    assert_eq!(
        g.claim_tablebase(
            Color::White,
            TablebaseClaim::Draw,
            Some(TablebaseValue::Win)
        ),
        Ok(None),
        "a wrong claim: the game goes on (ICCF 9.4.3)"
    );
    assert_eq!(g.outcome(), None);
    assert_eq!(
        g.claim_tablebase(Color::White, TablebaseClaim::Win, Some(TablebaseValue::Win)),
        Ok(Some(Outcome::win(Color::White, Reason::TablebaseWin)))
    );
    assert_eq!(Reason::TablebaseWin.article(), "ICCF 5.1.3");
    // Not under the FIDE Laws.
    let mut fide = game(kqk);
    assert_eq!(
        fide.claim_tablebase(Color::White, TablebaseClaim::Win, Some(TablebaseValue::Win)),
        Err(TablebaseClaimError::NotUnderTheseRules)
    );
}

#[test]
fn iccf_art_5_2_4_tablebase_draw_with_seven_pieces_or_fewer() {
    let krkr = "8/8/4k3/8/8/3K4/R7/7r b - - 0 1";
    let mut g = Game::from_fen(krkr, RuleSet::Iccf).expect("legal");
    assert_eq!(
        g.claim_tablebase(
            Color::Black,
            TablebaseClaim::Draw,
            Some(TablebaseValue::Draw)
        ),
        Ok(Some(Outcome::draw(Reason::TablebaseDraw)))
    );
    let mut g = Game::new(RuleSet::Iccf);
    assert_eq!(
        g.claim_tablebase(
            Color::White,
            TablebaseClaim::Draw,
            Some(TablebaseValue::Draw)
        ),
        Err(TablebaseClaimError::TooManyPieces(32))
    );
}

#[test]
fn art_9_5_wrong_claim_is_refused_and_the_intended_move_is_played() {
    let mut g = Game::default();
    let intended = mv(&g, "g1f3");
    let verdict = g.claim_draw(Color::White, ClaimKind::ThreefoldRepetition, Some(intended));
    assert_eq!(
        verdict,
        Ok(ClaimVerdict::Refused {
            played: Some(intended),
            penalty_to: Color::Black
        })
    );
    assert_eq!(g.moves(), [intended]);
    assert_eq!(g.outcome(), None);
    // 9.1.2.4: the claim stands as a draw offer.
    assert_eq!(
        g.accept_draw(Color::Black),
        Ok(Outcome::draw(Reason::Agreement))
    );
}

#[test]
fn art_9_6_1_fivefold_repetition_ends_the_game() {
    let mut g = Game::default();
    for _ in 0..3 {
        play(&mut g, KNIGHT_SHUFFLE);
    }
    play(&mut g, "g1f3 g8f6 f3g1");
    assert_eq!(g.outcome(), None);
    play(&mut g, "f6g8");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::FivefoldRepetition)));
}

#[test]
fn fide_2009_has_no_automatic_draws() {
    let mut g = Game::new(RuleSet::Fide2009);
    for _ in 0..5 {
        play(&mut g, KNIGHT_SHUFFLE);
    }
    assert_eq!(g.outcome(), None);
    assert!(g.can_claim(ClaimKind::ThreefoldRepetition));
    let mut g =
        Game::from_fen("8/8/4k3/8/8/3K4/8/R6r w - - 149 120", RuleSet::Fide2009).expect("legal");
    play(&mut g, "a1a2");
    assert_eq!(g.outcome(), None);
}

#[test]
fn art_9_6_2_seventy_five_moves_end_the_game() {
    let mut g = game("8/8/4k3/8/8/3K4/8/R6r w - - 149 120");
    play(&mut g, "a1a2");
    assert_eq!(g.outcome(), Some(Outcome::draw(Reason::SeventyFiveMoves)));
}

#[test]
fn art_9_6_2_checkmate_on_the_75th_move_takes_precedence() {
    let mut g = game("7k/8/6K1/8/8/8/8/R7 w - - 149 120");
    play(&mut g, "a1a8");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, Reason::Checkmate))
    );
}

#[test]
fn art_6_9_flag_fall_is_a_loss_unless_the_opponent_cannot_mate() {
    // Black has a queen: White's flag falls, Black wins.
    let mut g = game("8/8/4k3/8/8/3K4/8/q7 w - - 0 1");
    assert_eq!(
        g.flag_fallen(Color::White),
        Ok(Outcome::win(Color::Black, Reason::Timeout))
    );
    // White has a lone king: Black's flag falls, a draw.
    let mut g = game("8/8/4k3/8/8/3K4/8/q7 w - - 0 1");
    assert_eq!(
        g.flag_fallen(Color::Black),
        Ok(Outcome::draw(Reason::TimeoutVsInsufficientMaterial))
    );
    // King and two knights can mate with help: the flagged player loses.
    let mut g = game("8/8/4k3/8/8/3K4/8/nn6 w - - 0 1");
    assert_eq!(
        g.flag_fallen(Color::White),
        Ok(Outcome::win(Color::Black, Reason::Timeout))
    );
}

#[test]
fn art_6_11_both_flags_fallen_is_a_draw() {
    let mut g = Game::default();
    assert_eq!(
        g.both_flags_fallen(),
        Ok(Outcome::draw(Reason::BothFlagsFallen))
    );
}

#[test]
fn iccf_art_6_9_both_flags_fallen_is_a_double_forfeit() {
    let mut g = Game::new(RuleSet::Iccf);
    let o = g.both_flags_fallen().expect("ongoing");
    assert_eq!(o.result, GameResult::BothLose);
    assert_eq!(o.reason, Reason::DoubleForfeit);
    assert_eq!(o.reason.article(), "ICCF 6.9");
    // The score sheet says 0-0: in the Result tag; the movetext ends with
    // PGN's `*`, since 0-0 there would read as castling.
    let pgn = rochade_laws::pgn::write_game(&g, &Default::default(), &Default::default());
    assert!(pgn.contains("[Result \"0-0\"]"), "{pgn}");
    assert!(pgn.trim_end().ends_with('*'), "{pgn}");
    let read = rochade_laws::pgn::PgnReader::new(pgn.as_bytes(), Default::default())
        .next()
        .expect("a game")
        .expect("reads back");
    assert_eq!(read.tags.get("Result"), Some("0-0"));
    assert_eq!(read.movetext_result.as_deref(), Some("*"));
}

#[test]
fn forfeits_and_scoring() {
    let mut g = Game::default();
    let o = g.forfeit(Color::Black).expect("ongoing");
    assert_eq!(o.result, GameResult::WhiteWins);
    assert_eq!(Scoring::CLASSICAL.points(o.result, Color::White), 2);
    let mut g = Game::new(RuleSet::Iccf);
    let o = g.double_forfeit().expect("ongoing");
    assert_eq!(o.result, GameResult::BothLose);
    assert_eq!(Scoring::CLASSICAL.points(o.result, Color::White), 0);
    assert_eq!(Scoring::CLASSICAL.points(o.result, Color::Black), 0);
}

#[test]
fn art_7_take_back_restores_the_position_before_the_last_move() {
    let mut g = Game::default();
    play(&mut g, "f2f3 e7e5 g2g4 d8h4");
    let before = g.history().positions()[3].clone();
    assert!(g.take_back().is_some());
    assert_eq!(g.position(), &before);
    assert_eq!(g.outcome(), None);
    play(&mut g, "d8e7");
    assert_eq!(g.moves().len(), 4);
}

#[test]
fn illegal_moves_say_why() {
    let mut g = Game::default();
    let e = g.play_uci("e7e5").unwrap_err();
    assert!(
        matches!(e, MoveError::Notation(NotationError::WrongSide { .. })),
        "{e}"
    );
    let e = g.play_uci("e2e5").unwrap_err();
    assert!(
        matches!(e, MoveError::Notation(NotationError::Illegal { .. })),
        "{e}"
    );
    let e = g.play_uci("e9e4").unwrap_err();
    assert!(
        matches!(e, MoveError::Notation(NotationError::Unparseable { .. })),
        "{e}"
    );
    let e = g.play_text("Nd2", Language::English).unwrap_err();
    assert!(
        matches!(e, MoveError::Notation(NotationError::Illegal { .. })),
        "{e}"
    );
    assert_eq!(g.moves().len(), 0);
    // Appendix C: national letters, exact to the language.
    g.play_text("Jf3", Language::Slovak).expect("Slovak knight");
    g.play_text("Sf6", Language::Polish).expect("Polish knight");
    assert!(
        g.play_text("Sb5", Language::Slovak).is_err(),
        "Slovak S is a bishop, blocked by e2"
    );
    let e = g.play_text("e3", Language::English);
    assert!(e.is_ok());
    let e = g.play_text("Sd6", Language::German).unwrap_err();
    assert!(
        matches!(e, MoveError::Notation(NotationError::Illegal { .. })),
        "{e}"
    );
}

#[test]
fn chess960_games_start_by_number() {
    let g = Game::chess960(518, RuleSet::Fide).expect("in range");
    assert_eq!(g.position(), &shakmaty::Chess::default());
    assert!(Game::chess960(960, RuleSet::Fide).is_err());
    let mut g = Game::chess960(0, RuleSet::Fide).expect("in range");
    assert_eq!(g.chess960_number(), Some(0));
    assert_eq!(
        g.fen(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    play(&mut g, "g2g3 g7g6");
}
