//! Writing PGN by the standard: the Seven Tag Roster first, SetUp and FEN
//! for other starts, Variant for Chess960, Termination and PlyCount, clock
//! comments, draw offers, and lines of at most 80 characters.

use std::time::Duration;

use shakmaty::{Chess, Color, Position};

use super::{MoveNode, Tags, tags::SEVEN_TAG_ROSTER};
use crate::{Game, SanStyle, fen, notation};

/// What to add to the record.
#[derive(Debug, Clone, Default)]
pub struct WriteOptions<'a> {
    /// Time left on the mover's clock after each ply, for `[%clk]`.
    pub clocks: &'a [Duration],
    /// Time each ply took, for `[%emt]`.
    pub elapsed: &'a [Duration],
    /// Annotations and variations for the main line, ply by ply.
    pub annotations: Option<&'a [MoveNode]>,
    /// A comment before the first move.
    pub opening_comment: Option<&'a str>,
    /// How moves are written: PGN wants English SAN (the default); other
    /// languages give a record for people, not for PGN readers.
    pub san: SanStyle,
    /// Moves in ICCF numeric notation (ICCF A.18: `5254` for e2–e4)
    /// instead of SAN: a correspondence player's record, not for PGN
    /// readers.
    pub numeric: bool,
}

/// `m` from `pos` as the options want it written.
fn move_text(pos: &Chess, m: shakmaty::Move, options: &WriteOptions<'_>) -> String {
    if options.numeric {
        notation::write_numeric(pos, m)
    } else {
        notation::write_san(pos, m, &options.san)
    }
}

/// The longest line the writer produces (PGN standard 8.2.2: at most 255; 80 by custom).
const LINE_WIDTH: usize = 80;

/// Tags that the writer computes from the game itself.
const COMPUTED: [&str; 5] = ["SetUp", "FEN", "Variant", "Termination", "PlyCount"];

/// Whether `result` is one of PGN's game termination markers (`1-0`,
/// `0-1`, `1/2-1/2`, `*`), which the movetext may end with.
///
/// ```
/// use rochade_laws::pgn::is_termination_marker;
/// assert!(is_termination_marker("1/2-1/2"));
/// assert!(!is_termination_marker("0-0"));
/// ```
pub fn is_termination_marker(result: &str) -> bool {
    matches!(result, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Writes `game` as one PGN game, ending in a blank line.
///
/// ```
/// use rochade_laws::{Game, pgn::{self, Tags, WriteOptions}};
///
/// let mut game = Game::default();
/// for m in ["f2f3", "e7e5", "g2g4", "d8h4"] { game.play_uci(m)?; }
/// let text = pgn::write_game(&game, &Tags::new(), &WriteOptions::default());
/// assert!(text.starts_with("[Event \"?\"]\n"));
/// assert!(text.contains("[Result \"0-1\"]"));
/// assert!(text.contains("[Termination \"normal\"]"));
/// assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"));
/// # Ok::<_, rochade_laws::MoveError>(())
/// ```
pub fn write_game(game: &Game, tags: &Tags, options: &WriteOptions<'_>) -> String {
    let result = match game.outcome() {
        Some(outcome) => outcome.result.as_str().to_owned(),
        None => tags.get("Result").unwrap_or("*").to_owned(),
    };
    let mut out = String::new();
    for name in SEVEN_TAG_ROSTER {
        let value = match name {
            "Result" => result.as_str(),
            "Date" => tags.get(name).unwrap_or("????.??.??"),
            _ => tags.get(name).unwrap_or("?"),
        };
        push_tag(&mut out, name, value);
    }
    for (name, value) in tags.iter() {
        if !SEVEN_TAG_ROSTER.contains(&name) && !COMPUTED.contains(&name) {
            push_tag(&mut out, name, value);
        }
    }
    let start = game.history().start();
    if game.castling_mode().is_chess960() {
        push_tag(&mut out, "Variant", "Chess960");
    }
    if *start != Chess::default()
        || start.fullmoves().get() != 1
        || game.castling_mode().is_chess960()
    {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &fen::write(start, fen::FenStyle::XFen));
    }
    if let Some(outcome) = game.outcome() {
        push_tag(&mut out, "Termination", outcome.reason.pgn_termination());
    }
    push_tag(&mut out, "PlyCount", &game.moves().len().to_string());
    out.push('\n');
    let mut tokens = Vec::new();
    if let Some(comment) = options.opening_comment {
        push_comment(&mut tokens, comment);
    }
    movetext(&mut tokens, game, options);
    // PGN knows four game termination markers (8.2.6); a double forfeit's
    // 0-0 stays in the Result tag, since in the movetext it reads as
    // castling.
    tokens.push(if is_termination_marker(&result) {
        result
    } else {
        "*".to_owned()
    });
    wrap(&mut out, &tokens, LINE_WIDTH);
    out.push_str("\n\n");
    out
}

/// Appends `[Name "value"]` with the value escaped.
fn push_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

/// Appends a `{comment}`: one token when it fits on a line, else word by
/// word so that the line can break inside it.
fn push_comment(tokens: &mut Vec<String>, comment: &str) {
    let clean = comment.replace('}', ")");
    let words: Vec<&str> = clean.split_whitespace().collect();
    let whole = format!("{{{}}}", words.join(" "));
    if whole.chars().count() <= LINE_WIDTH {
        tokens.push(whole);
        return;
    }
    match words.as_slice() {
        [] => tokens.push("{}".to_owned()),
        [only] => tokens.push(format!("{{{only}}}")),
        [first, middle @ .., last] => {
            tokens.push(format!("{{{first}"));
            tokens.extend(middle.iter().map(|w| (*w).to_owned()));
            tokens.push(format!("{last}}}"));
        }
    }
}

/// Appends the main line's tokens.
fn movetext(tokens: &mut Vec<String>, game: &Game, options: &WriteOptions<'_>) {
    let positions = game.history().positions();
    let mut need_number = true;
    for (ply, m) in game.moves().iter().enumerate() {
        let pos = &positions[ply];
        push_number(tokens, pos, need_number);
        tokens.push(move_text(pos, *m, options));
        need_number = false;
        let node = options.annotations.and_then(|a| a.get(ply));
        let mut comment = String::new();
        if let Some(left) = options.clocks.get(ply) {
            push_words(&mut comment, &format!("[%clk {}]", clock(*left)));
        }
        if let Some(spent) = options.elapsed.get(ply) {
            push_words(&mut comment, &format!("[%emt {}]", clock(*spent)));
        }
        if game.offers().iter().any(|o| o.ply == ply + 1) {
            push_words(&mut comment, "(=)");
        }
        if let Some(node) = node {
            for nag in &node.nags {
                tokens.push(format!("${nag}"));
            }
            for text in &node.comments {
                push_words(&mut comment, text);
            }
        }
        if !comment.is_empty() {
            push_comment(tokens, &comment);
            need_number = true;
        }
        if let Some(node) = node {
            for variation in &node.variations {
                tokens.push("(".to_owned());
                variation_tokens(tokens, pos, variation, options);
                tokens.push(")".to_owned());
                need_number = true;
            }
        }
    }
}

/// Appends a variation played from `start`.
fn variation_tokens(
    tokens: &mut Vec<String>,
    start: &Chess,
    nodes: &[MoveNode],
    options: &WriteOptions<'_>,
) {
    let mut pos = start.clone();
    let mut need_number = true;
    for node in nodes {
        push_number(tokens, &pos, need_number);
        tokens.push(move_text(&pos, node.mv, options));
        need_number = false;
        for nag in &node.nags {
            tokens.push(format!("${nag}"));
        }
        for text in &node.comments {
            push_comment(tokens, text);
            need_number = true;
        }
        for variation in &node.variations {
            tokens.push("(".to_owned());
            variation_tokens(tokens, &pos, variation, options);
            tokens.push(")".to_owned());
            need_number = true;
        }
        pos.play_unchecked(node.mv);
    }
}

/// Appends `12.` before White's move, or `12...` before Black's when the
/// number is needed (at the start, after a comment or a variation).
fn push_number(tokens: &mut Vec<String>, pos: &Chess, needed: bool) {
    let n = pos.fullmoves().get();
    match pos.turn() {
        Color::White => tokens.push(format!("{n}.")),
        Color::Black if needed => tokens.push(format!("{n}...")),
        Color::Black => {}
    }
}

/// Adds `text` to `comment`, space-separated.
fn push_words(comment: &mut String, text: &str) {
    if !comment.is_empty() {
        comment.push(' ');
    }
    comment.push_str(text);
}

/// A clock reading as `h:mm:ss`, as `[%clk]` writes it.
fn clock(left: Duration) -> String {
    let s = left.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Joins `tokens` with spaces into lines of at most `width` characters
/// (a single longer token stands alone on its line).
fn wrap(out: &mut String, tokens: &[String], width: usize) {
    let mut line_len = 0;
    let mut previous = "";
    for token in tokens {
        let len = token.chars().count();
        // Parentheses hug the variation they enclose: `(1. d4 d5)`.
        let glued = previous == "(" || token == ")";
        let gap = usize::from(!glued);
        if line_len > 0 && line_len + gap + len > width {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 && !glued {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(token);
        line_len += len;
        previous = token;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{
        RuleSet,
        pgn::{PgnReader, ReadOptions},
    };

    #[test]
    fn chess960_game_gets_variant_setup_and_fen() {
        let mut game = Game::chess960(0, RuleSet::Fide).expect("in range");
        game.play_uci("g2g3").expect("legal");
        let text = write_game(&game, &Tags::new(), &WriteOptions::default());
        assert!(text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]"), "{text}");
        assert!(text.contains("[PlyCount \"1\"]"));
    }

    #[test]
    fn iccf_a_18_numeric_notation_on_request() {
        let mut game = Game::default();
        // A.18–A.20: from and to squares; castling as the king's move.
        for m in "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 e1g1".split_whitespace() {
            game.play_uci(m).expect("legal");
        }
        let options = WriteOptions {
            numeric: true,
            ..WriteOptions::default()
        };
        let text = write_game(&game, &Tags::new(), &options);
        assert!(
            text.contains("1. 5254 5755 2. 7163 2836 3. 6134 7866 4. 5171 *"),
            "{text}"
        );
    }

    #[test]
    fn clocks_offers_and_line_length() {
        let mut game = Game::default();
        let moves =
            "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1h1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8h8";
        for m in moves.split_whitespace() {
            game.play_uci(m).expect("legal");
        }
        game.offer_draw(shakmaty::Color::Black).expect("offer");
        let clocks: Vec<Duration> = (0..16).map(|i| Duration::from_secs(300 - i * 7)).collect();
        let spent = [Duration::from_secs(3)];
        let options = WriteOptions {
            clocks: &clocks,
            elapsed: &spent,
            ..WriteOptions::default()
        };
        let text = write_game(&game, &Tags::new(), &options);
        assert!(
            text.contains("1. e4 {[%clk 0:05:00] [%emt 0:00:03]} 1... e5"),
            "{text}"
        );
        assert!(text.contains("1... e5 {[%clk 0:04:53]}"), "{text}");
        let flat = text.replace('\n', " ");
        assert!(flat.contains("8... O-O {[%clk 0:03:15] (=)} *"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        // The record reads back to the same game.
        let read = PgnReader::new(text.as_bytes(), ReadOptions::default())
            .next()
            .expect("a game")
            .expect("legal");
        assert_eq!(read.game.moves(), game.moves());
    }

    #[test]
    fn variations_and_comments_round_trip() {
        let text = "[Event \"x\"]\n\n{start} 1. e4 $1 {best by test} (1. d4 d5 (1... Nf6) 2. c4) 1... c5 *\n\n";
        let options = ReadOptions {
            keep_variations: true,
            keep_annotations: true,
            ..ReadOptions::default()
        };
        let read = PgnReader::new(text.as_bytes(), options)
            .next()
            .expect("a game")
            .expect("legal");
        assert_eq!(read.mainline[0].variations.len(), 1);
        assert_eq!(read.mainline[0].variations[0][0].variations.len(), 0);
        assert_eq!(read.mainline[0].variations[0][1].variations.len(), 1);
        let written = write_game(
            &read.game,
            &read.tags,
            &WriteOptions {
                annotations: Some(&read.mainline),
                opening_comment: read.opening_comment.as_deref(),
                ..WriteOptions::default()
            },
        );
        assert!(
            written
                .contains("{start} 1. e4 $1 {best by test} (1. d4 d5 (1... Nf6) 2. c4) 1... c5 *"),
            "{written}"
        );
    }
}
