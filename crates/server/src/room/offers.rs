//! Draw offers and claims (9.1, 9.2, 9.3): what a player's message adds
//! to the game. A player offers a draw at most once between two of their
//! own moves (9.1.2.2's spirit: repeated offers annoy the opponent, 11.5);
//! the robot declines at once.

use rochade_laws::RuleSet;
use shakmaty::Color;

use crate::error::{ActionError, ErrorCode};
use crate::event::{Claim, Event, OfferAction};
use crate::record::{Record, moved_since};

/// The events of `color`'s draw `action`; `robot` is the robot's colour.
///
/// # Errors
///
/// `not_allowed` for a second offer before the player has moved again;
/// the Laws' own refusals come when the events are applied.
pub fn draw(
    record: &Record,
    color: Color,
    action: OfferAction,
    robot: Option<Color>,
) -> Result<Vec<Event>, ActionError> {
    if action == OfferAction::Offer && record.setup.rules == RuleSet::Iccf {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            "under the ICCF rules a draw is offered together with a move (9.1.2.1): \
             send the offer with your move",
        ));
    }
    if action == OfferAction::Offer
        && let Some(then) = record.asked.draw[color]
        && !moved_since(color, then, record.plies.len())
    {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            "one draw offer per move: move first, then offer again (9.1.2.2, 11.5)",
        ));
    }
    let mut events = vec![Event::Draw {
        color: color.into(),
        action,
    }];
    if action == OfferAction::Offer && robot == Some(color.other()) {
        // The robot plays on.
        events.push(Event::Draw {
            color: color.other().into(),
            action: OfferAction::Decline,
        });
    }
    Ok(events)
}

/// The events of a draw offer that `color` makes with the move it is
/// sending (9.1.2.1, recorded as `(=)`, ICCF A.12); the move's own event
/// comes first, so each move carries at most one offer.
pub fn offer_with_move(color: Color, robot: Option<Color>) -> Vec<Event> {
    let mut events = vec![Event::Draw {
        color: color.into(),
        action: OfferAction::Offer,
    }];
    if robot == Some(color.other()) {
        events.push(Event::Draw {
            color: color.other().into(),
            action: OfferAction::Decline,
        });
    }
    events
}

/// The event of `color`'s claim (9.2, 9.3), with the intended move
/// `uci` answering the position after `ply` half-moves.
///
/// # Errors
///
/// `not_your_turn` when the claimant is not on move; `bad_json` for an
/// intended move without `ply`; `stale_ply` when `ply` is not now.
pub fn claim(
    record: &Record,
    color: Color,
    kind: Claim,
    uci: Option<String>,
    ply: Option<usize>,
) -> Result<Vec<Event>, ActionError> {
    if color != record.turn() && !record.is_over() {
        return Err(ActionError::new(
            ErrorCode::NotYourTurn,
            "only the player on move may claim a draw (9.2, 9.3)",
        ));
    }
    match (&uci, ply) {
        (Some(_), None) => {
            return Err(ActionError::new(
                ErrorCode::BadJson,
                "a claim with an intended move carries `ply`, as a move does",
            ));
        }
        (_, Some(ply)) => super::act::check_ply(record, ply)?,
        (None, None) => {}
    }
    Ok(vec![Event::Claim {
        color: color.into(),
        kind,
        uci,
    }])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Timed;

    use crate::record::test_record as record;

    fn apply(r: &mut Record, events: Vec<Event>) {
        for event in events {
            r.apply(Timed { at: 0, event }).expect("applies");
        }
    }

    #[test]
    fn art_9_1_2_2_one_offer_per_move() {
        let mut r = record(r#"{"opponent":"friend","color":"white","time_control":"-"}"#);
        apply(
            &mut r,
            vec![Event::Seat {
                color: crate::setup::Side::Black,
                player: None,
            }],
        );
        let offer = draw(&r, Color::White, OfferAction::Offer, None).expect("first offer");
        apply(&mut r, offer);
        apply(
            &mut r,
            vec![Event::Draw {
                color: crate::setup::Side::Black,
                action: OfferAction::Decline,
            }],
        );
        let again = draw(&r, Color::White, OfferAction::Offer, None).expect_err("second offer");
        assert_eq!(again.code, ErrorCode::NotAllowed);
        apply(&mut r, vec![Event::Move { uci: "e2e4".into() }]);
        // Black has not offered yet; White has moved since the offer.
        assert!(draw(&r, Color::Black, OfferAction::Offer, None).is_ok());
        assert!(draw(&r, Color::White, OfferAction::Offer, None).is_ok());
    }

    #[test]
    fn the_robot_declines_in_the_same_breath() {
        let r = record(r#"{"opponent":"robot","color":"white","time_control":"-"}"#);
        let events = draw(&r, Color::White, OfferAction::Offer, Some(Color::Black)).expect("offer");
        assert_eq!(events.len(), 2);
    }

    #[test]
    fn art_9_4_a_claim_with_a_move_carries_its_ply() {
        let r = record(r#"{"opponent":"local","time_control":"-"}"#);
        let e = claim(
            &r,
            Color::White,
            Claim::Threefold,
            Some("e2e4".into()),
            None,
        )
        .expect_err("no ply");
        assert_eq!(e.code, ErrorCode::BadJson);
        let e = claim(
            &r,
            Color::White,
            Claim::Threefold,
            Some("e2e4".into()),
            Some(3),
        )
        .expect_err("stale");
        assert_eq!(e.code, ErrorCode::StalePly);
        assert!(
            claim(
                &r,
                Color::White,
                Claim::Threefold,
                Some("e2e4".into()),
                Some(0)
            )
            .is_ok()
        );
        let e = claim(&r, Color::Black, Claim::Fifty, None, None).expect_err("not on move");
        assert_eq!(e.code, ErrorCode::NotYourTurn);
    }

    #[test]
    fn iccf_art_9_1_2_2_a_wrong_claim_plays_the_move_and_stands_as_an_offer() {
        let mut r = record(r#"{"opponent":"local","time_control":"3d/move"}"#);
        assert_eq!(r.setup.rules, RuleSet::Iccf);
        let events = claim(
            &r,
            Color::White,
            Claim::Threefold,
            Some("e2e4".into()),
            Some(0),
        )
        .expect("a claim");
        apply(&mut r, events);
        // 9.4.3: the game goes on with the intended move; 9.1.2.2: the
        // claim was an offer, which stands.
        assert_eq!(r.plies.len(), 1);
        assert!(!r.is_over());
        let offer = r.timed.game().pending_offer().expect("an offer");
        assert_eq!(offer.by, Color::White);
        assert!(r.plies[0].offer, "(=) goes with the intended move");
    }

    #[test]
    fn iccf_art_9_1_2_1_an_offer_comes_with_a_move() {
        let r = record(r#"{"opponent":"local","time_control":"10/40d"}"#);
        let e = draw(&r, Color::White, OfferAction::Offer, None).expect_err("alone");
        assert_eq!(e.code, ErrorCode::NotAllowed);
        assert_eq!(
            offer_with_move(Color::White, Some(Color::Black)).len(),
            2,
            "the robot declines at once"
        );
    }
}
