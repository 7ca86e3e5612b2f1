//! The rematch after a game: an offer, the answer, and once agreed the
//! new game (colours swapped), stored in the same commit as the
//! agreement. The new game's room starts when someone opens it; the
//! scheduler is told of it in case nobody does.

use shakmaty::Color;

use crate::error::{ActionError, ErrorCode};
use crate::event::{Event, OfferAction, Timed};
use crate::limits::Limits;
use crate::record::Record;
use crate::setup::{GameSetup, Mode};
use crate::storage::WriteOp;

/// What a rematch message comes to.
#[derive(Debug)]
pub enum Plan {
    /// Events of this game only (an offer, a decline).
    Events(Vec<Event>),
    /// The rematch is agreed; `offerer` made the offer.
    Agree {
        /// Who offered.
        offerer: Color,
    },
}

/// What `color`'s rematch `action` comes to; `agreed` when the other side
/// always accepts (the robot, or one person at one device).
///
/// # Errors
///
/// `no_offer` for an answer with nothing offered; `not_allowed` for a
/// second offer by the same player.
pub fn plan(
    record: &Record,
    color: Color,
    action: OfferAction,
    agreed: bool,
) -> Result<Plan, ActionError> {
    match action {
        OfferAction::Offer if agreed => Ok(Plan::Agree { offerer: color }),
        OfferAction::Accept => match record.rematch_offer {
            Some(by) if by != color => Ok(Plan::Agree { offerer: by }),
            _ => Err(ActionError::new(
                ErrorCode::NoOffer,
                "no rematch offer to answer",
            )),
        },
        OfferAction::Offer if record.asked.rematch[color] => Err(ActionError::new(
            ErrorCode::NotAllowed,
            "you have offered a rematch already",
        )),
        _ => Ok(Plan::Events(vec![Event::Rematch {
            color: color.into(),
            action,
            game: None,
        }])),
    }
}

/// An agreed rematch, ready to store.
#[derive(Debug)]
pub struct Agreed {
    /// The new game's settings.
    pub setup: GameSetup,
    /// Its first writes: the game, and in a friend game the second seat.
    pub ops: Vec<WriteOp>,
    /// The events of the old game that record the agreement.
    pub events: Vec<Event>,
    /// When the new game must be looked at if nobody opens it (game time).
    pub wake_at: Option<u64>,
}

/// The rematch of `record` offered by `offerer`, with its time line
/// starting at server time `epoch`.
///
/// # Errors
///
/// `internal` if the new game cannot be set up (it always can).
pub fn agree(
    record: &Record,
    offerer: Color,
    epoch: u64,
    limits: &Limits,
) -> Result<Agreed, ActionError> {
    let setup = record.setup.rematch();
    let mut events = Vec::new();
    if record.rematch_offer != Some(offerer) {
        events.push(Event::Rematch {
            color: offerer.into(),
            action: OfferAction::Offer,
            game: None,
        });
    }
    events.push(Event::Rematch {
        color: offerer.other().into(),
        action: OfferAction::Accept,
        game: Some(setup.id.clone()),
    });
    let mut new = Record::new(setup.clone())?;
    let mut seat = None;
    if let (Mode::Friend, Some(creator)) = (setup.mode, setup.creator) {
        // Both friends are here: the other seat is taken at once.
        let other = Color::from(creator).other();
        let timed = Timed {
            at: 0,
            event: Event::Seat {
                color: other.into(),
                player: None,
            },
        };
        new.apply(timed.clone())?;
        seat = Some(timed);
    }
    // The room of the new game sets its own wakes once loaded.
    let wake_at = super::finish::wake_at(&new, 0, limits, &[]);
    let glance = Some(crate::glance::Glance::of(&new, 0).to_json());
    let mut ops = vec![WriteOp::Create {
        setup: Box::new(setup.clone()),
        epoch,
        wake_at,
        glance: glance.clone(),
    }];
    if let Some(event) = seat {
        ops.push(WriteOp::Append {
            game: setup.id.clone(),
            seq: 0,
            event,
            ended: None,
            result: None,
            wake_at,
            glance,
        });
    }
    Ok(Agreed {
        setup,
        ops,
        events,
        wake_at,
    })
}
