//! Take-backs in casual games: a request, and the opponent's answer. The
//! robot, and one person at one device, agree at once. A player asks at
//! most once between two of their own moves.

use shakmaty::Color;

use crate::error::{ActionError, ErrorCode};
use crate::event::{Event, OfferAction};
use crate::record::{Record, moved_since};

/// The events of `color`'s take-back `action`; `agreed` when the other
/// side always accepts (the robot, or a local game).
///
/// # Errors
///
/// `not_allowed` for a second request before the player has moved again;
/// the rest of the rules (casual games only, a move to take back) come
/// when the events are applied.
pub fn takeback(
    record: &Record,
    color: Color,
    action: OfferAction,
    agreed: bool,
) -> Result<Vec<Event>, ActionError> {
    if action == OfferAction::Offer
        && !agreed
        && let Some(then) = record.asked.takeback[color]
        && !moved_since(color, then, record.plies.len())
    {
        return Err(ActionError::new(
            ErrorCode::NotAllowed,
            "one take-back request per move: move first, then ask again",
        ));
    }
    let mut events = vec![Event::Takeback {
        color: color.into(),
        action,
    }];
    if action == OfferAction::Offer && agreed {
        events.push(Event::Takeback {
            color: color.other().into(),
            action: OfferAction::Accept,
        });
    }
    Ok(events)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Timed;
    use crate::setup::Side;

    #[test]
    fn a_declined_request_waits_for_a_move() {
        let mut r = crate::record::test_record(
            r#"{"opponent":"friend","color":"white","time_control":"-"}"#,
        );
        let apply = |r: &mut Record, event| r.apply(Timed { at: 0, event }).expect("applies");
        apply(
            &mut r,
            Event::Seat {
                color: Side::Black,
                player: None,
            },
        );
        apply(&mut r, Event::Move { uci: "e2e4".into() });
        for event in takeback(&r, Color::White, OfferAction::Offer, false).expect("request") {
            apply(&mut r, event);
        }
        apply(
            &mut r,
            Event::Takeback {
                color: Side::Black,
                action: OfferAction::Decline,
            },
        );
        let e = takeback(&r, Color::White, OfferAction::Offer, false).expect_err("again");
        assert_eq!(e.code, ErrorCode::NotAllowed);
        apply(&mut r, Event::Move { uci: "e7e5".into() });
        apply(&mut r, Event::Move { uci: "g1f3".into() });
        assert!(takeback(&r, Color::White, OfferAction::Offer, false).is_ok());
    }
}
