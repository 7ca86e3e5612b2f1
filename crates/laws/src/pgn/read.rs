//! Reading PGN: many games per file, streamed; each game replayed and
//! checked against the Laws. A bad game is reported with its number, the
//! move number and the text that failed, and reading goes on.

use std::{io::Read, ops::ControlFlow};

use pgn_reader::{Nag, Outcome as PgnOutcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{CastlingMode, Chess, Color, Move, Position, san::SanError};

use super::Tags;
use crate::{Game, History, RuleSet, fen, game::StartError};

/// How to read.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReadOptions {
    /// The rules to check the games by.
    pub rules: RuleSet,
    /// Keep variations (checked too) instead of skipping them.
    pub keep_variations: bool,
    /// Keep comments and NAGs.
    pub keep_annotations: bool,
}

/// A move in the record with what was written around it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveNode {
    /// The move.
    pub mv: Move,
    /// Numeric annotation glyphs after the move.
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Alternatives to this move, each a line starting from the position
    /// before it.
    pub variations: Vec<Vec<MoveNode>>,
}

/// One game read and checked.
#[derive(Debug, Clone)]
pub struct PgnGame {
    /// The tag pairs.
    pub tags: Tags,
    /// The game replayed under the Laws.
    pub game: Game,
    /// The main line with annotations (when kept).
    pub mainline: Vec<MoveNode>,
    /// A comment before the first move.
    pub opening_comment: Option<String>,
    /// The result token that closed the movetext, if any.
    pub movetext_result: Option<String>,
}

/// What went wrong in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// The move is not legal in the position.
    Illegal,
    /// More than one piece can make the move; the candidates in UCI.
    Ambiguous(Vec<String>),
    /// A move follows the end of the game.
    AfterEnd,
    /// The FEN, SetUp or Variant tag cannot be played.
    Setup,
    /// The file could not be read.
    Io,
}

/// A game that failed, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("game {game_number}, move {move_number} '{text}': {message}")]
pub struct PgnError {
    /// 1 for the first game in the input.
    pub game_number: usize,
    /// The move number as written: `12.` for White, `12...` for Black; empty
    /// for errors in the tags.
    pub move_number: String,
    /// The text that failed.
    pub text: String,
    /// What kind of failure.
    pub kind: PgnErrorKind,
    /// Plain words.
    pub message: String,
}

/// Reads games one at a time from any byte stream (BOM, CRLF and missing
/// tags are fine).
pub struct PgnReader<R> {
    reader: Reader<R>,
    visitor: GameVisitor,
    done: bool,
}

impl<R: Read> PgnReader<R> {
    /// A reader over `input`.
    pub fn new(input: R, options: ReadOptions) -> PgnReader<R> {
        PgnReader {
            reader: Reader::new(input),
            visitor: GameVisitor {
                options,
                game_number: 0,
                spare: None,
            },
            done: false,
        }
    }

    /// Hands back a game read before and no longer needed: the next game
    /// is recorded in its memory instead of new memory (reading many long
    /// games, most of the work is otherwise growing and freeing records).
    ///
    /// ```
    /// use rochade_laws::pgn::{PgnReader, ReadOptions};
    ///
    /// let text = "1. e4 e5 2. Nf3 *\n\n1. d4 d5 *\n";
    /// let mut reader = PgnReader::new(text.as_bytes(), ReadOptions::default());
    /// let mut plies = Vec::new();
    /// while let Some(read) = reader.next() {
    ///     let game = read.expect("legal");
    ///     plies.push(game.game.moves().len());
    ///     reader.recycle(game);
    /// }
    /// assert_eq!(plies, [3, 2]);
    /// ```
    pub fn recycle(&mut self, game: PgnGame) {
        let mut mainline = game.mainline;
        mainline.clear();
        self.visitor.spare = Some(Spare {
            history: game.game.into_history(),
            mainline,
        });
    }
}

/// The memory of a finished game, for the next one.
struct Spare {
    history: History,
    mainline: Vec<MoveNode>,
}

impl<R: Read> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.reader.read_game(&mut self.visitor) {
            Ok(Some(result)) => Some(result),
            Ok(None) => None,
            Err(e) => {
                self.done = true;
                Some(Err(PgnError {
                    game_number: self.visitor.game_number + 1,
                    move_number: String::new(),
                    text: String::new(),
                    kind: PgnErrorKind::Io,
                    message: format!("cannot read input: {e}"),
                }))
            }
        }
    }
}

/// Builds each game as the reader calls it.
struct GameVisitor {
    options: ReadOptions,
    game_number: usize,
    /// A finished game's memory handed back by [`PgnReader::recycle`].
    spare: Option<Spare>,
}

/// A line being read: the moves so far and the position before the last.
struct Line {
    nodes: Vec<MoveNode>,
    /// Positions: `positions[i]` before `nodes[i]`, plus the one after the
    /// last move.
    positions: Vec<Chess>,
}

/// Everything gathered while reading movetext.
struct Movetext {
    game: Game,
    tags: Tags,
    /// Variations being read, innermost last; the main line is below them.
    lines: Vec<Line>,
    opening_comment: Option<String>,
    result: Option<String>,
    error: Option<PgnError>,
}

impl GameVisitor {
    /// An error in game `self.game_number`.
    fn error(&self, pos: &Chess, text: &str, kind: PgnErrorKind, message: String) -> PgnError {
        let number = pos.fullmoves().get();
        let move_number = if pos.turn() == Color::White {
            format!("{number}.")
        } else {
            format!("{number}...")
        };
        PgnError {
            game_number: self.game_number,
            move_number,
            text: text.to_owned(),
            kind,
            message,
        }
    }

    /// The game the tags ask for, in `history`'s memory.
    fn start(&self, tags: &Tags, history: History) -> Result<Game, PgnError> {
        let setup_error = |text: &str, message: String| PgnError {
            game_number: self.game_number,
            move_number: String::new(),
            text: text.to_owned(),
            kind: PgnErrorKind::Setup,
            message,
        };
        if let Some(variant) = tags.get("Variant") {
            let v = variant.to_ascii_lowercase();
            if !matches!(
                v.as_str(),
                "standard"
                    | "chess960"
                    | "chess 960"
                    | "fischerandom"
                    | "fischer random"
                    | "from position"
            ) {
                return Err(setup_error(
                    variant,
                    format!("variant '{variant}' is not chess under the FIDE Laws"),
                ));
            }
        }
        let (start, castling) = match tags.get("FEN") {
            Some(text) => {
                let read = fen::read(text)
                    .map_err(|e| setup_error(text, StartError::from(e).to_string()))?;
                (read.position, read.castling)
            }
            None => (Chess::default(), CastlingMode::Standard),
        };
        Ok(Game::from_position_in(
            start,
            castling,
            self.options.rules,
            history,
        ))
    }

    /// Plays `san` on the innermost line: the main line goes into the game,
    /// a variation into its own positions.
    fn play(&self, movetext: &mut Movetext, san: SanPlus) -> Result<(), PgnError> {
        let in_variation = movetext.lines.len() > 1;
        let pos: &Chess = match movetext.lines.last() {
            Some(line) if in_variation => line.positions.last().unwrap_or(movetext.game.position()),
            _ => movetext.game.position(),
        };
        if !in_variation && let Some(outcome) = movetext.game.outcome() {
            let message = format!(
                "the game was already over ({outcome}, {})",
                outcome.reason.article()
            );
            return Err(self.error(pos, &san.to_string(), PgnErrorKind::AfterEnd, message));
        }
        // Some tools write UCI moves (`g1f3`) in PGN; read those too.
        // Both readers return only legal moves of `pos`.
        let m = super::san_move::san_to_move(pos, &san.san).or_else(|e| {
            crate::notation::read_uci(pos, &san.to_string(), movetext.game.castling_mode())
                .map_err(|_| self.san_error(pos, san, e, &movetext.game))
        })?;
        let mut next = in_variation.then(|| pos.clone());
        let node = MoveNode {
            mv: m,
            nags: Vec::new(),
            comments: Vec::new(),
            variations: Vec::new(),
        };
        if let Some(next) = &mut next {
            next.play_unchecked(m);
        } else if let Err(e) = movetext.game.play_legal(m) {
            let pos = movetext.game.position();
            return Err(self.error(pos, &san.to_string(), PgnErrorKind::Illegal, e.to_string()));
        }
        if let Some(line) = movetext.lines.last_mut() {
            line.nodes.push(node);
            if let Some(next) = next {
                line.positions.push(next);
            }
        }
        Ok(())
    }

    /// The error for a SAN move that does not fit `pos`.
    fn san_error(&self, pos: &Chess, san: SanPlus, error: SanError, game: &Game) -> PgnError {
        let text = san.to_string();
        match error {
            SanError::AmbiguousSan => {
                let candidates: Vec<String> = pos
                    .legal_moves()
                    .into_iter()
                    .filter(|m| san.san.matches(*m))
                    .map(|m| m.to_uci(game.castling_mode()).to_string())
                    .collect();
                let message = format!("ambiguous: could be {}", candidates.join(" or "));
                self.error(pos, &text, PgnErrorKind::Ambiguous(candidates), message)
            }
            SanError::IllegalSan => {
                let message = "not a legal move in this position".to_owned();
                self.error(pos, &text, PgnErrorKind::Illegal, message)
            }
        }
    }
}

impl Visitor for GameVisitor {
    type Tags = Tags;
    type Movetext = Movetext;
    type Output = Result<PgnGame, PgnError>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        self.game_number += 1;
        ControlFlow::Continue(Tags::new())
    }

    fn tag(
        &mut self,
        tags: &mut Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        tags.set(&String::from_utf8_lossy(name), &value.decode_utf8_lossy());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Tags) -> ControlFlow<Self::Output, Movetext> {
        let (history, nodes) = match self.spare.take() {
            Some(spare) => (spare.history, spare.mainline),
            // Room for most games' main line, so it is not copied as it grows.
            None => (History::new(Chess::default()), Vec::with_capacity(128)),
        };
        let (game, error) = match self.start(&tags, history) {
            Ok(game) => (game, None),
            Err(e) => (Game::default(), Some(e)),
        };

        ControlFlow::Continue(Movetext {
            game,
            tags,
            lines: vec![Line {
                nodes,
                positions: Vec::new(),
            }],
            opening_comment: None,
            result: None,
            error,
        })
    }

    fn san(&mut self, movetext: &mut Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        if movetext.error.is_none()
            && let Err(e) = self.play(movetext, san)
        {
            movetext.error = Some(e);
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, movetext: &mut Movetext, nag: Nag) -> ControlFlow<Self::Output> {
        if self.options.keep_annotations
            && let Some(node) = movetext.lines.last_mut().and_then(|l| l.nodes.last_mut())
        {
            node.nags.push(nag.0);
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        if self.options.keep_annotations {
            let text = String::from_utf8_lossy(comment.as_bytes())
                .trim()
                .to_owned();
            let depth = movetext.lines.len();
            match movetext.lines.last_mut().and_then(|l| l.nodes.last_mut()) {
                Some(node) => node.comments.push(text),
                None if depth == 1 => movetext.opening_comment = Some(text),
                None => {}
            }
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, movetext: &mut Movetext) -> ControlFlow<Self::Output, Skip> {
        if !self.options.keep_variations || movetext.error.is_some() {
            return ControlFlow::Continue(Skip(true));
        }
        // The variation replaces the last move of the current line, so it
        // starts from the position before that move.
        let before = match movetext.lines.as_slice() {
            [main] if !main.nodes.is_empty() => {
                let positions = movetext.game.history().positions();
                positions.get(positions.len().wrapping_sub(2)).cloned()
            }
            [_] => None,
            [.., line] => line
                .positions
                .len()
                .checked_sub(2)
                .map(|i| line.positions[i].clone()),
            [] => None,
        };
        let Some(before) = before else {
            return ControlFlow::Continue(Skip(true));
        };
        movetext.lines.push(Line {
            nodes: Vec::new(),
            positions: vec![before],
        });
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self, movetext: &mut Movetext) -> ControlFlow<Self::Output> {
        if movetext.lines.len() > 1
            && let Some(variation) = movetext.lines.pop()
            && let Some(node) = movetext.lines.last_mut().and_then(|l| l.nodes.last_mut())
        {
            node.variations.push(variation.nodes);
        }
        ControlFlow::Continue(())
    }

    fn outcome(
        &mut self,
        movetext: &mut Movetext,
        outcome: PgnOutcome,
    ) -> ControlFlow<Self::Output> {
        movetext.result = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, mut movetext: Movetext) -> Self::Output {
        if let Some(e) = movetext.error {
            return Err(e);
        }
        // Unclosed variations belong to the main line's last move.
        while movetext.lines.len() > 1 {
            if let Some(variation) = movetext.lines.pop()
                && let Some(node) = movetext.lines.last_mut().and_then(|l| l.nodes.last_mut())
            {
                node.variations.push(variation.nodes);
            }
        }
        let mainline = movetext.lines.pop().map(|l| l.nodes).unwrap_or_default();
        Ok(PgnGame {
            tags: movetext.tags,
            game: movetext.game,
            mainline,
            opening_comment: movetext.opening_comment,
            movetext_result: movetext.result,
        })
    }
}
