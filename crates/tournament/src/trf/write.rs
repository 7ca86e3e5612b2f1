//! The TRF writer: fixed columns for `001` records, the extension
//! records as the engines read them, other lines as they were.

use std::fmt::Write as _;

use super::TrfWriteError;
use super::{Acceleration, ByeRecord, ColourRule, PlayerRecord, Record, RoundEntry, Trf};
use crate::{Colour, PairingNumber};

/// Writes a whole file, each line ending in CR LF (see [`Trf::write`]).
pub(super) fn write(trf: &Trf) -> Result<String, TrfWriteError> {
    let mut out = String::new();
    for record in &trf.records {
        let line = match record {
            Record::Player(p) => player(p)?,
            Record::Rounds(n) => format!("XXR {n}"),
            Record::Colours(rule) => colours(*rule),
            Record::Acceleration(a) => acceleration(a)?,
            Record::Byes(b) => byes(b)?,
            Record::Other(line) => line.clone(),
        };
        out.push_str(line.trim_end());
        out.push_str("\r\n");
    }
    Ok(out)
}

/// A pairing number in its four columns, right-aligned; numbers above
/// 9,999 do not fit.
fn number(n: PairingNumber) -> Result<String, TrfWriteError> {
    if !n.fits_trf16() {
        return Err(TrfWriteError::PairingNumber(n));
    }
    Ok(format!("{:>4}", n.get()))
}

/// `text` cut or padded to `width` characters, left-aligned.
fn left(text: &str, width: usize) -> String {
    let cut: String = text.chars().take(width).collect();
    format!("{cut:<width$}")
}

/// A `001` record in the TRF16 columns (fields too long for their
/// columns are cut, ratings and ranks above 9999 written as 9999); a
/// pairing number above 9999, the player's or an opponent's, is refused.
pub(super) fn player(p: &PlayerRecord) -> Result<String, TrfWriteError> {
    let mut line = format!(
        "001 {} {}{} {} {:>4} {} {:>11} {} {:>4} {:>4}  ",
        number(p.number)?,
        p.sex.unwrap_or(' '),
        left(&p.title, 3),
        left(&p.name, 33),
        p.rating
            .map(|r| r.min(9999).to_string())
            .unwrap_or_default(),
        left(&p.federation, 3),
        left(&p.fide_id, 11).trim(),
        left(&p.birth, 10),
        p.points,
        p.rank.map(|r| r.min(9999).to_string()).unwrap_or_default(),
    );
    for entry in &p.rounds {
        match entry {
            None => line.push_str("          "),
            Some(e) => line.push_str(&block(e)?),
        }
    }
    Ok(line)
}

/// One round block, 10 columns wide.
fn block(e: &RoundEntry) -> Result<String, TrfWriteError> {
    let opponent = match e.opponent {
        None => "0000".to_owned(),
        Some(o) => number(o)?,
    };
    let colour = e.colour.map_or('-', Colour::trf_char);
    let result = e.result.map_or(' ', super::ResultCode::to_char);
    Ok(format!("{opponent} {colour} {result}  "))
}

/// An `XXC` record.
fn colours(rule: ColourRule) -> String {
    let mut line = String::from("XXC");
    match rule.first {
        Some(Colour::White) => line.push_str(" white1"),
        Some(Colour::Black) => line.push_str(" black1"),
        None => {}
    }
    if rule.by_rank {
        line.push_str(" rank");
    }
    line
}

/// An `XXA` record.
fn acceleration(a: &Acceleration) -> Result<String, TrfWriteError> {
    let mut line = format!("XXA {}", number(a.player)?);
    for p in &a.points {
        let _ = write!(line, " {p:>4}");
    }
    Ok(line)
}

/// A `240` record.
fn byes(b: &ByeRecord) -> Result<String, TrfWriteError> {
    let mut line = format!("240 {} {:>3}", b.kind.to_char(), b.round);
    for &p in &b.players {
        let _ = write!(line, " {}", number(p)?);
    }
    Ok(line)
}
