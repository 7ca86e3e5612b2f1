//! Messages from the page to the server (docs/protocol.md, version 1).

use serde::{Deserialize, Serialize};

use crate::error::{ActionError, ErrorCode};
use crate::event::{Claim, OfferAction};
use crate::setup::Side;

/// The protocol version this server speaks.
pub const VERSION: u64 = 1;

/// The largest text frame accepted, in bytes.
pub const MAX_FRAME: usize = 4096;

/// A message from a client.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMessage {
    /// The first message of every socket: who is there. A seat's token
    /// travels here, never in the URL, so that no proxy logs it.
    Hello {
        /// The seat token; none (or null) for a spectator.
        #[serde(default)]
        token: Option<String>,
        /// After a move, send a `move` message (the move and what it
        /// changed) instead of the whole state.
        #[serde(default)]
        move_messages: bool,
    },
    /// A move answering the state at `ply`.
    Move {
        /// Half-moves played before it.
        ply: usize,
        /// The move in UCI notation.
        #[serde(default)]
        uci: Option<String>,
        /// The move in algebraic notation (with `lang`).
        #[serde(default)]
        san: Option<String>,
        /// The language of `san` (`en`, `sk`, `cs`, …).
        #[serde(default)]
        lang: Option<String>,
        /// A draw offer made with the move (9.1.2.1; ICCF: the only way to
        /// offer, recorded as `(=)`).
        #[serde(default)]
        offer_draw: bool,
    },
    /// Conditional moves (correspondence): lines alternating the
    /// opponent's move and the answer from the position now, in SAN
    /// (English letters), UCI or ICCF numeric notation; they replace any
    /// earlier ones, and an empty list withdraws them.
    Conditional {
        /// The lines.
        lines: Vec<String>,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A draw offer or answer (9.1).
    Draw {
        /// offer, accept or decline.
        action: OfferAction,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A draw claim (9.2, 9.3).
    Claim {
        /// threefold or fifty.
        kind: Claim,
        /// Half-moves played before the intended move (required with `uci`).
        #[serde(default)]
        ply: Option<usize>,
        /// The intended move.
        #[serde(default)]
        uci: Option<String>,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// Resignation (5.1.2).
    Resign {
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// Abort before both sides have moved.
    Abort {
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A take-back request or answer.
    Takeback {
        /// request (offer), accept or decline.
        action: TakebackAction,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A rematch offer or answer.
    Rematch {
        /// offer, accept or decline.
        action: OfferAction,
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A tablebase claim by the player on move (ICCF 5.1.3 a win, 5.2.4 a
    /// draw; seven or fewer pieces, a server with `--syzygy`).
    TablebaseClaim {
        /// `win` or `draw`.
        claim: crate::event::TablebaseKind,
        /// For a local token: which side claims.
        #[serde(default)]
        color: Option<Side>,
    },
    /// Berserk, in an arena game before one's first move: half one's
    /// initial time and one's increment for a point more on a win.
    Berserk {
        /// The colour acted for (local games).
        #[serde(default)]
        color: Option<Side>,
    },
    /// Answered by `pong`.
    Ping,
    /// Answered by the whole state (a page that missed a move message).
    State,
    /// Claims the win because the opponent (a person) has left: no
    /// connection to the game for the server's `gone_claim` time.
    ClaimVictory {
        /// For a local token: which side claims (never allowed: both
        /// seats are on one device).
        #[serde(default)]
        color: Option<Side>,
    },
    /// A line of chat to the opponent (at most 140 characters, one a
    /// second).
    Chat {
        /// What is said.
        text: String,
        /// For a local token: which side speaks.
        #[serde(default)]
        color: Option<Side>,
    },
}

/// A take-back action: the protocol says `request` where offers say `offer`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TakebackAction {
    /// Ask to take back.
    Request,
    /// Accept the opponent's request.
    Accept,
    /// Decline it.
    Decline,
}

impl From<TakebackAction> for OfferAction {
    fn from(a: TakebackAction) -> Self {
        match a {
            TakebackAction::Request => OfferAction::Offer,
            TakebackAction::Accept => OfferAction::Accept,
            TakebackAction::Decline => OfferAction::Decline,
        }
    }
}

/// Reads one text frame.
///
/// # Errors
///
/// `too_large`, `bad_json` or `unsupported_version`, saying what was wrong.
///
/// # Examples
///
/// ```
/// use rochade_server::protocol::{ClientMessage, parse};
/// assert_eq!(parse(r#"{"t":"ping"}"#), Ok(ClientMessage::Ping));
/// assert!(parse(r#"{"v":2,"t":"ping"}"#).is_err());
/// assert!(parse("[1,2").is_err());
/// assert!(parse(r#"{"t":"ping","t":"resign"}"#).is_err());
/// ```
pub fn parse(text: &str) -> Result<ClientMessage, ActionError> {
    if text.len() > MAX_FRAME {
        return Err(ActionError::new(
            ErrorCode::TooLarge,
            format!(
                "a frame of {} bytes is over the limit of {MAX_FRAME}",
                text.len()
            ),
        ));
    }
    if let Some(message) = move_frame(text) {
        return Ok(message);
    }
    general(text)
}

/// Any message, through a [`serde_json::Value`] that refuses a key twice,
/// then typed with the path of a field at fault.
fn general(text: &str) -> Result<ClientMessage, ActionError> {
    let mut value = crate::json::strict(text)
        .map_err(|e| ActionError::new(ErrorCode::BadJson, format!("not JSON: {e}")))?;
    let object = value
        .as_object_mut()
        .ok_or_else(|| ActionError::new(ErrorCode::BadJson, "a message is a JSON object"))?;
    if let Some(v) = object.remove("v")
        && v.as_u64() != Some(VERSION)
    {
        return Err(ActionError::new(
            ErrorCode::UnsupportedVersion,
            format!("protocol version {v} is not supported; this server speaks {VERSION}"),
        ));
    }
    crate::json::typed(value)
        .map_err(|e| ActionError::new(ErrorCode::BadJson, format!("not a known message: {e}")))
}

/// A move message, the one that comes with every move, read straight into
/// its fields: the general way builds a [`serde_json::Value`], then serde
/// buffers it again to find the tag, about 5,500 instructions for 40 bytes
/// (callgrind, docs/performance.md). `None` for any text this does not take
/// exactly as the general way would (another message, a key it does not
/// know, a key twice, a null or a version other than ours): that text goes
/// the general way, which reads it or says what is wrong.
fn move_frame(text: &str) -> Option<ClientMessage> {
    let frame: MoveFrame = serde_json::from_str(text).ok()?;
    if frame.v.is_some_and(|v| v != VERSION) {
        return None;
    }
    Some(ClientMessage::Move {
        ply: frame.ply,
        uci: frame.uci,
        san: frame.san,
        lang: frame.lang,
        offer_draw: frame.offer_draw,
    })
}

/// The fields of a move message ([`ClientMessage::Move`]) and the
/// version. serde refuses a field twice and, here, a field it does not
/// know.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveFrame {
    /// The version, when given: a number (null is refused, as the general
    /// way refuses it).
    #[serde(default, deserialize_with = "given")]
    v: Option<u64>,
    /// `move`.
    #[allow(dead_code)]
    t: MoveTag,
    /// As [`ClientMessage::Move`].
    ply: usize,
    /// As [`ClientMessage::Move`].
    #[serde(default)]
    uci: Option<String>,
    /// As [`ClientMessage::Move`].
    #[serde(default)]
    san: Option<String>,
    /// As [`ClientMessage::Move`].
    #[serde(default)]
    lang: Option<String>,
    /// As [`ClientMessage::Move`].
    #[serde(default)]
    offer_draw: bool,
}

/// The one tag [`MoveFrame`] takes.
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum MoveTag {
    /// `"t":"move"`.
    Move,
}

/// A number that is there (not null).
fn given<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    u64::deserialize(d).map(Some)
}

/// An error message for a socket.
pub fn error_message(e: &ActionError, ply: Option<usize>) -> String {
    serde_json::json!({"v": VERSION, "t": "error", "code": e.code, "message": e.message, "ply": ply})
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small generator of the same texts every run (xorshift).
    struct Draw(u64);

    impl Draw {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }
    }

    /// A move message with its fields drawn from good and bad values, in
    /// any order, some twice, some unknown.
    fn drawn(draw: &mut Draw) -> String {
        // Each key's values, the first `good` of them ones the general way
        // takes; those are drawn four times in five.
        let fields: [(&str, usize, &[&str]); 9] = [
            ("v", 1, &["1", "2", "null", "\"1\"", "1.0", "0"]),
            (
                "t",
                1,
                &["\"move\"", "\"resign\"", "\"Move\"", "null", "\"ping\""],
            ),
            (
                "ply",
                3,
                &[
                    "0",
                    "7",
                    "-0",
                    "-1",
                    "1.5",
                    "null",
                    "\"3\"",
                    "1e2",
                    "99999999999999999999",
                ],
            ),
            (
                "uci",
                5,
                &[
                    "\"e2e4\"",
                    "null",
                    "\"e7e8q\"",
                    "\"\\u0065\\u0032e4\"",
                    "\"\"",
                    "5",
                ],
            ),
            ("san", 3, &["\"Nf3\"", "null", "\"Jf3\"", "[]"]),
            ("lang", 3, &["\"sk\"", "null", "\"cs\"", "{}"]),
            ("offer_draw", 2, &["true", "false", "null", "1"]),
            ("color", 2, &["\"white\"", "null"]),
            ("extra", 2, &["1", "null"]),
        ];
        let mut parts = Vec::new();
        for (key, good, values) in fields {
            let times = match key {
                "t" | "ply" => [1, 1, 1, 1, 1, 1, 1, 1, 0, 2][draw.below(10)],
                "color" | "extra" => [0, 0, 0, 0, 0, 0, 0, 0, 0, 1][draw.below(10)],
                _ => [0, 0, 1, 1, 1, 1, 1, 1, 1, 2][draw.below(10)],
            };
            for _ in 0..times {
                let value = if draw.below(5) < 4 {
                    values[draw.below(good)]
                } else {
                    draw.pick(values)
                };
                parts.push(format!("\"{key}\":{value}"));
            }
        }
        for i in (1..parts.len()).rev() {
            parts.swap(i, draw.below(i + 1));
        }
        let space = draw.pick(&["", " ", "\n"]);
        format!("{space}{{{}}}{space}", parts.join(","))
    }

    #[test]
    fn a_move_read_straight_is_read_as_the_general_way_reads_it() {
        let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
        let mut straight = 0;
        for _ in 0..20_000 {
            let text = drawn(&mut draw);
            let general = general(&text);
            if let Some(message) = move_frame(&text) {
                straight += 1;
                assert_eq!(Ok(message), general, "{text}");
            }
            assert_eq!(parse(&text), general, "{text}");
        }
        // The texts drawn take both ways.
        assert!(straight > 1_000, "{straight} of 20,000 read straight");
        assert!(straight < 19_000, "{straight} of 20,000 read straight");
    }

    #[test]
    fn the_usual_move_is_read_straight() {
        let text = r#"{"v":1,"t":"move","ply":12,"uci":"g1f3"}"#;
        assert_eq!(
            move_frame(text),
            Some(ClientMessage::Move {
                ply: 12,
                uci: Some("g1f3".into()),
                san: None,
                lang: None,
                offer_draw: false,
            })
        );
        assert_eq!(move_frame(r#"{"t":"move","ply":1,"ply":2}"#), None);
        assert_eq!(move_frame(r#"{"v":null,"t":"move","ply":1}"#), None);
    }
}
