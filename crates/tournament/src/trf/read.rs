//! The TRF reader: one function per record type, then the checks that
//! need the whole file (unknown players, both sides of every game).

use std::collections::HashMap;

use super::{
    Acceleration, ByeRecord, ColourRule, PlayerRecord, Record, ResultCode, RoundEntry, Trf,
    TrfError, TrfErrorKind,
};
use crate::{Colour, PairingNumber, Points};

/// Columns of a `001` record that separate fields and must be blank.
const PLAYER_GAPS: [usize; 11] = [4, 9, 14, 48, 53, 57, 69, 80, 85, 90, 91];
/// The first column of round 1's block.
const FIRST_BLOCK: usize = 92;
/// The width of one round block.
const BLOCK: usize = 10;

/// A line as characters, with its number, for column-exact errors.
struct Line {
    /// The line number, from 1.
    number: usize,
    /// The characters of the line.
    chars: Vec<char>,
}

impl Line {
    /// An error at `column` of this line.
    fn error(&self, column: usize, kind: TrfErrorKind) -> TrfError {
        TrfError {
            line: self.number,
            column,
            kind,
        }
    }

    /// The characters of columns `from..=to` (1-based), clipped to the line.
    fn field(&self, from: usize, to: usize) -> String {
        let start = (from - 1).min(self.chars.len());
        let end = to.min(self.chars.len());
        self.chars[start..end].iter().collect()
    }

    /// The character at `column` (1-based), blank past the end.
    fn at(&self, column: usize) -> char {
        self.chars.get(column - 1).copied().unwrap_or(' ')
    }

    /// Requires `column` to be blank.
    fn blank(&self, column: usize) -> Result<(), TrfError> {
        match self.at(column) {
            ' ' => Ok(()),
            c => Err(self.error(column, TrfErrorKind::NotBlank(c))),
        }
    }

    /// Requires the line to reach `column`.
    fn reach(&self, record: &'static str, column: usize) -> Result<(), TrfError> {
        if self.chars.len() < column {
            return Err(self.error(
                self.chars.len() + 1,
                TrfErrorKind::TooShort {
                    record,
                    needed: column,
                },
            ));
        }
        Ok(())
    }

    /// The whitespace-separated words after the tag, with their columns.
    fn words(&self) -> Vec<(usize, String)> {
        let mut words = Vec::new();
        let mut current: Option<(usize, String)> = None;
        for (i, &c) in self.chars.iter().enumerate().skip(3) {
            if c.is_whitespace() {
                words.extend(current.take());
            } else {
                current
                    .get_or_insert_with(|| (i + 1, String::new()))
                    .1
                    .push(c);
            }
        }
        words.extend(current);
        words
    }
}

/// Reads a whole number field; `None` when it is blank.
fn whole(
    line: &Line,
    from: usize,
    to: usize,
    field: &'static str,
) -> Result<Option<u16>, TrfError> {
    let text = line.field(from, to);
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    match trimmed.parse::<u16>() {
        Ok(n) if trimmed.bytes().all(|b| b.is_ascii_digit()) => Ok(Some(n)),
        _ => Err(line.error(
            from,
            TrfErrorKind::Number {
                field,
                text: trimmed.to_owned(),
            },
        )),
    }
}

/// Reads a pairing number field (1..=9999); `None` when blank or `0000`.
fn player_number(line: &Line, from: usize, to: usize) -> Result<Option<PairingNumber>, TrfError> {
    match whole(line, from, to, "pairing number")? {
        None | Some(0) => Ok(None),
        Some(n) => PairingNumber::new(n)
            .map(Some)
            .ok_or_else(|| line.error(from, TrfErrorKind::PairingNumberRange(n.to_string()))),
    }
}

/// Reads a mandatory pairing number field.
fn required_player(line: &Line, from: usize, to: usize) -> Result<PairingNumber, TrfError> {
    player_number(line, from, to)?.ok_or_else(|| {
        line.error(
            from,
            TrfErrorKind::PairingNumberRange(line.field(from, to).trim().to_owned()),
        )
    })
}

/// Reads a `001` record.
fn player(line: &Line) -> Result<PlayerRecord, TrfError> {
    line.reach("001", 84)?;
    for &gap in PLAYER_GAPS.iter().filter(|&&c| c <= line.chars.len()) {
        line.blank(gap)?;
    }
    let number = required_player(line, 5, 8)?;
    let points_text = line.field(81, 84);
    // The field holds four characters: 99.9 points at most (a score that
    // does not fit could not be written back in place).
    let points = points_text
        .parse::<Points>()
        .ok()
        .filter(|p| p.tenths() <= 999)
        .ok_or_else(|| line.error(81, TrfErrorKind::Score(points_text.trim().to_owned())))?;
    let sex = Some(line.at(10)).filter(|c| *c != ' ');
    let mut rounds = Vec::new();
    let mut start = FIRST_BLOCK;
    while start <= line.chars.len() {
        rounds.push(round_block(line, start, number)?);
        start += BLOCK;
    }
    while rounds.last().is_some_and(Option::is_none) {
        rounds.pop();
    }
    Ok(PlayerRecord {
        number,
        sex,
        title: line.field(11, 13).trim().to_owned(),
        name: line.field(15, 47).trim().to_owned(),
        rating: whole(line, 49, 52, "rating")?,
        federation: line.field(54, 56).trim().to_owned(),
        fide_id: line.field(58, 68).trim().to_owned(),
        birth: line.field(70, 79).trim().to_owned(),
        points,
        rank: whole(line, 86, 89, "rank")?,
        rounds,
    })
}

/// Reads the round block that starts at column `start`.
fn round_block(
    line: &Line,
    start: usize,
    me: PairingNumber,
) -> Result<Option<RoundEntry>, TrfError> {
    let text = line.field(start, start + BLOCK - 1);
    if text.trim().is_empty() {
        return Ok(None);
    }
    for gap in [start + 4, start + 6, start + 8, start + 9] {
        line.blank(gap)?;
    }
    let opponent = player_number(line, start, start + 3)?;
    if opponent == Some(me) {
        return Err(line.error(start, TrfErrorKind::SelfPairing(me.get())));
    }
    let colour = match line.at(start + 5) {
        'w' => Some(Colour::White),
        'b' => Some(Colour::Black),
        '-' | ' ' => None,
        c => return Err(line.error(start + 5, TrfErrorKind::Colour(c))),
    };
    let result_column = start + 7;
    let result = match line.at(result_column) {
        ' ' => None,
        c => Some(
            ResultCode::from_char(c)
                .ok_or_else(|| line.error(result_column, TrfErrorKind::ResultCode(c)))?,
        ),
    };
    let impossible = |why| line.error(result_column, TrfErrorKind::ImpossibleRound(why));
    let result = match (opponent, result) {
        (Some(_), None) if colour.is_none() => {
            return Err(impossible("an opponent needs a colour or a result"));
        }
        (Some(_), Some(r)) if r.is_bye() => return Err(impossible("a bye has no opponent")),
        (Some(_), Some(r)) if r.is_played() && colour.is_none() => {
            return Err(impossible("a played game needs a colour"));
        }
        (None, _) if colour.is_some() => return Err(impossible("a colour without an opponent")),
        (None, Some(r)) if r.is_played() => {
            return Err(impossible("a game result needs an opponent"));
        }
        (None, None) => Some(ResultCode::ZeroPointBye),
        (_, r) => r,
    };
    Ok(Some(RoundEntry {
        opponent,
        colour,
        result,
    }))
}

/// Reads an `XXR` record.
fn rounds(line: &Line) -> Result<u16, TrfError> {
    let words = line.words();
    let Some((column, word)) = words.first() else {
        return Err(line.error(
            4,
            TrfErrorKind::TooShort {
                record: "XXR",
                needed: 5,
            },
        ));
    };
    if let Some((column, _)) = words.get(1) {
        return Err(line.error(*column, TrfErrorKind::TrailingText));
    }
    let n = word
        .parse::<u16>()
        .ok()
        .filter(|_| word.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            line.error(
                *column,
                TrfErrorKind::Number {
                    field: "number of rounds",
                    text: word.clone(),
                },
            )
        })?;
    if n == 0 {
        return Err(line.error(*column, TrfErrorKind::NoRounds));
    }
    Ok(n)
}

/// Reads an `XXC` record.
fn colours(line: &Line) -> Result<ColourRule, TrfError> {
    let mut rule = ColourRule::default();
    for (column, word) in line.words() {
        match word.as_str() {
            "white1" => rule.first = Some(Colour::White),
            "black1" => rule.first = Some(Colour::Black),
            "rank" => rule.by_rank = true,
            _ => return Err(line.error(column, TrfErrorKind::ColourOption(word))),
        }
    }
    Ok(rule)
}

/// Reads an `XXA` record: player in columns 5–8, then 4-column point
/// fields from column 10, one every 5 columns.
fn acceleration(line: &Line) -> Result<Acceleration, TrfError> {
    line.reach("XXA", 8)?;
    let player = required_player(line, 5, 8)?;
    let mut points = Vec::new();
    let mut start = 10;
    while start <= line.chars.len() {
        line.blank(start - 1)?;
        let text = line.field(start, start + 3);
        if text.trim().is_empty() {
            points.push(Points::ZERO);
        } else {
            points.push(
                text.parse::<Points>()
                    .map_err(|_| line.error(start, TrfErrorKind::Score(text.trim().to_owned())))?,
            );
        }
        start += 5;
    }
    Ok(Acceleration { player, points })
}

/// Reads a `240` record: type in column 5, round in 7–9, players from 11.
fn byes(line: &Line) -> Result<ByeRecord, TrfError> {
    line.reach("240", 14)?;
    let kind = match line.at(5).to_ascii_uppercase() {
        'F' => ResultCode::FullPointBye,
        'H' => ResultCode::HalfPointBye,
        'Z' => ResultCode::ZeroPointBye,
        c => return Err(line.error(5, TrfErrorKind::ByeType(c))),
    };
    line.blank(6)?;
    line.blank(10)?;
    let round = whole(line, 7, 9, "round")?.unwrap_or(0);
    if round == 0 {
        return Err(line.error(7, TrfErrorKind::RoundZero));
    }
    let mut players = Vec::new();
    let mut start = 11;
    while start <= line.chars.len() {
        if start > 11 {
            line.blank(start - 1)?;
        }
        if line.chars.len() < start + 3 {
            return Err(line.error(start, TrfErrorKind::TrailingText));
        }
        players.push(required_player(line, start, start + 3)?);
        start += 5;
    }
    Ok(ByeRecord {
        kind,
        round,
        players,
    })
}

/// Splits a file into lines at CR, LF or CR LF.
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(['\r', '\n']).unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = if rest[end..].starts_with("\r\n") {
            2
        } else {
            usize::from(end < rest.len())
        };
        rest = &rest[end + skip..];
        Some(line)
    })
}

/// Reads a whole file (see [`Trf::parse`]).
pub(super) fn parse(text: &str) -> Result<Trf, TrfError> {
    let mut records = Vec::new();
    let mut player_lines: HashMap<PairingNumber, (usize, usize)> = HashMap::new();
    let mut mentions: Vec<(usize, usize, PairingNumber)> = Vec::new();
    for (index, raw) in lines(text).enumerate() {
        let line = Line {
            number: index + 1,
            chars: raw.trim_end().chars().collect(),
        };
        if line.chars.is_empty() {
            continue;
        }
        let tag: String = line.chars.iter().take(3).collect();
        let record = match tag.as_str() {
            "001" => {
                let p = player(&line)?;
                if player_lines
                    .insert(p.number, (line.number, records.len()))
                    .is_some()
                {
                    return Err(line.error(5, TrfErrorKind::DuplicatePlayer(p.number.get())));
                }
                Record::Player(p)
            }
            "XXR" => Record::Rounds(rounds(&line)?),
            "XXC" => Record::Colours(colours(&line)?),
            "XXA" => {
                let a = acceleration(&line)?;
                mentions.push((line.number, 5, a.player));
                Record::Acceleration(a)
            }
            "240" => {
                let b = byes(&line)?;
                for (i, p) in b.players.iter().enumerate() {
                    mentions.push((line.number, 11 + 5 * i, *p));
                }
                Record::Byes(b)
            }
            _ => Record::Other(line.chars.iter().collect()),
        };
        records.push(record);
    }
    for (line, column, p) in mentions {
        if !player_lines.contains_key(&p) {
            return Err(TrfError {
                line,
                column,
                kind: TrfErrorKind::UnknownPlayer(p.get()),
            });
        }
    }
    let trf = Trf { records };
    check_games(&trf, &player_lines)?;
    Ok(trf)
}

/// Checks that every opponent exists and that both players of a game
/// agree on it: each other as opponent, opposite colours, mirrored results.
fn check_games(
    trf: &Trf,
    player_lines: &HashMap<PairingNumber, (usize, usize)>,
) -> Result<(), TrfError> {
    let in_order = trf.players();
    let players: HashMap<PairingNumber, &PlayerRecord> =
        in_order.iter().map(|p| (p.number, *p)).collect();
    for p in in_order {
        let line = player_lines.get(&p.number).map_or(0, |l| l.0);
        for (index, entry) in p.rounds.iter().enumerate() {
            let Some(entry) = entry else { continue };
            let Some(opponent) = entry.opponent else {
                continue;
            };
            let column = FIRST_BLOCK + BLOCK * index;
            let Some(other) = players.get(&opponent) else {
                return Err(TrfError {
                    line,
                    column,
                    kind: TrfErrorKind::UnknownPlayer(opponent.get()),
                });
            };
            let theirs = other.rounds.get(index).copied().flatten();
            if !agree(entry, theirs.as_ref(), p.number) {
                return Err(TrfError {
                    line,
                    column,
                    kind: TrfErrorKind::Disagreement {
                        round: index + 1,
                        player: p.number.get(),
                        opponent: opponent.get(),
                    },
                });
            }
        }
    }
    Ok(())
}

/// Whether the opponent's block `theirs` tells the same game as `mine`.
fn agree(mine: &RoundEntry, theirs: Option<&RoundEntry>, me: PairingNumber) -> bool {
    let Some(theirs) = theirs else { return false };
    let results = match (mine.result, theirs.result) {
        (None, None) => true,
        (Some(ResultCode::ForfeitLoss), Some(ResultCode::ForfeitLoss)) => true,
        (Some(a), Some(b)) => a.mirror() == Some(b),
        _ => false,
    };
    theirs.opponent == Some(me) && theirs.colour == mine.colour.map(Colour::other) && results
}
