//! Conditional moves: "if my opponent plays X, I answer Y", as a tree of
//! any depth, entered by the player who is not on move. The server plays
//! the answer the moment the opponent's move matches a branch and keeps
//! that branch's subtree; any other move drops the whole tree. Only its
//! owner sees it.
//!
//! A tree is entered as lines, each alternating the opponent's move and
//! the answer from the position now, in SAN (English letters), UCI or
//! ICCF numeric notation; lines sharing a beginning share a branch.
//!
//! ```
//! use rochade_server::correspondence::conditional::Tree;
//! use shakmaty::{CastlingMode, Chess, Position};
//! use shakmaty::uci::UciMove;
//!
//! // After 1. e4, White plans 1… e5 2. Nf3 Nc6 3. Bb5, or 1… c5 2. Nf3.
//! let pos = Chess::default();
//! let e4 = "e2e4".parse::<UciMove>()?.to_move(&pos)?;
//! let after = pos.play(e4)?;
//! let lines = ["e5 Nf3 Nc6 Bb5".to_owned(), "c7c5 g1f3".to_owned()];
//! let tree = Tree::build(&after, CastlingMode::Standard, &lines)?;
//! assert_eq!(tree.size(), 6);
//! assert_eq!(tree.answer_to("e7e5").map(|b| b.answer.as_str()), Some("g1f3"));
//! assert!(tree.answer_to("d7d5").is_none());
//! assert_eq!(tree.lines(), vec!["e7e5 g1f3 b8c6 f1b5", "c7c5 g1f3"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rochade_laws::Language;
use rochade_laws::notation::{read_move, write_uci};
use shakmaty::{CastlingMode, Chess, Position};

/// The most moves (both sides' together) one tree may hold.
pub const MOST_MOVES: usize = 400;

/// Answers to the opponent's next move.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tree {
    /// One per opponent's move foreseen.
    pub branches: Vec<Branch>,
}

/// One foreseen move of the opponent, its answer, and what follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Branch {
    /// The opponent's move, UCI.
    pub reply_to: String,
    /// The answer, UCI.
    pub answer: String,
    /// The tree after the answer.
    pub next: Tree,
}

/// Why a tree cannot be entered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConditionalError {
    /// A move of a line cannot be played there.
    #[error("line {line}, move {number} (`{text}`): {reason}")]
    Move {
        /// The line, from 1.
        line: usize,
        /// The move in the line, from 1.
        number: usize,
        /// What was written.
        text: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// A line ends with the opponent's move: its answer is missing.
    #[error("line {line} ends with your opponent's move: add your answer to it")]
    Unanswered {
        /// The line, from 1.
        line: usize,
    },
    /// A line with no move.
    #[error("line {line} is empty")]
    Empty {
        /// The line, from 1.
        line: usize,
    },
    /// Two lines answer the same move differently.
    #[error(
        "line {line} answers `{reply_to}` with `{answer}`, but an earlier line with `{earlier}`"
    )]
    Conflict {
        /// The later line, from 1.
        line: usize,
        /// The opponent's move, UCI.
        reply_to: String,
        /// This line's answer, UCI.
        answer: String,
        /// The earlier answer, UCI.
        earlier: String,
    },
    /// Too many moves in the tree.
    #[error("{moves} moves in the tree, more than the {most} allowed")]
    TooMany {
        /// How many were given (counted as far as read).
        moves: usize,
        /// The most allowed.
        most: usize,
    },
}

impl Tree {
    /// The tree of `lines` from `position`, where the opponent is to move.
    ///
    /// # Errors
    ///
    /// [`ConditionalError`] naming the line, and the move where one cannot
    /// be played.
    pub fn build(
        position: &Chess,
        mode: CastlingMode,
        lines: &[String],
    ) -> Result<Tree, ConditionalError> {
        let mut tree = Tree::default();
        let mut moves = 0;
        for (i, line) in lines.iter().enumerate() {
            let number = i + 1;
            let tokens: Vec<&str> = line.split_whitespace().collect();
            if tokens.is_empty() {
                return Err(ConditionalError::Empty { line: number });
            }
            if tokens.len() % 2 == 1 {
                return Err(ConditionalError::Unanswered { line: number });
            }
            moves += tokens.len();
            if moves > MOST_MOVES {
                return Err(ConditionalError::TooMany {
                    moves,
                    most: MOST_MOVES,
                });
            }
            let mut pos = position.clone();
            let mut ucis = Vec::with_capacity(tokens.len());
            for (j, text) in tokens.iter().enumerate() {
                let bad = |reason: String| ConditionalError::Move {
                    line: number,
                    number: j + 1,
                    text: (*text).to_owned(),
                    reason,
                };
                if pos.is_game_over() {
                    return Err(bad("the game is over before it".into()));
                }
                let m = read_move(&pos, text, Language::English, mode)
                    .map_err(|e| bad(e.to_string()))?;
                ucis.push(write_uci(m, mode));
                pos.play_unchecked(m);
            }
            tree.add(number, &ucis)?;
        }
        Ok(tree)
    }

    /// Adds one line of UCI pairs.
    fn add(&mut self, line: usize, ucis: &[String]) -> Result<(), ConditionalError> {
        let mut node = self;
        for pair in ucis.chunks(2) {
            let (reply_to, answer) = (&pair[0], &pair[1]);
            let at = match node.branches.iter().position(|b| &b.reply_to == reply_to) {
                Some(at) => {
                    let earlier = &node.branches[at].answer;
                    if earlier != answer {
                        return Err(ConditionalError::Conflict {
                            line,
                            reply_to: reply_to.clone(),
                            answer: answer.clone(),
                            earlier: earlier.clone(),
                        });
                    }
                    at
                }
                None => {
                    node.branches.push(Branch {
                        reply_to: reply_to.clone(),
                        answer: answer.clone(),
                        next: Tree::default(),
                    });
                    node.branches.len() - 1
                }
            };
            node = &mut node.branches[at].next;
        }
        Ok(())
    }

    /// The branch answering the opponent's move `uci`, if foreseen.
    pub fn answer_to(&self, uci: &str) -> Option<&Branch> {
        self.branches.iter().find(|b| b.reply_to == uci)
    }

    /// Whether it foresees nothing.
    pub fn is_empty(&self) -> bool {
        self.branches.is_empty()
    }

    /// How many moves (both sides') it holds.
    pub fn size(&self) -> usize {
        self.branches.iter().map(|b| 2 + b.next.size()).sum()
    }

    /// Its lines in UCI, one per leaf, in the order entered.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        self.collect(&mut Vec::new(), &mut lines);
        lines
    }

    fn collect(&self, path: &mut Vec<String>, lines: &mut Vec<String>) {
        for branch in &self.branches {
            path.push(branch.reply_to.clone());
            path.push(branch.answer.clone());
            if branch.next.is_empty() {
                lines.push(path.join(" "));
            } else {
                branch.next.collect(path, lines);
            }
            path.truncate(path.len() - 2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;

    fn lines(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|t| (*t).to_owned()).collect()
    }

    fn black_to_move() -> Chess {
        let fen: Fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
            .parse()
            .expect("fen");
        fen.into_position(CastlingMode::Standard).expect("legal")
    }

    #[test]
    fn lines_with_a_common_beginning_share_a_branch() {
        let tree = Tree::build(
            &black_to_move(),
            CastlingMode::Standard,
            &lines(&["e5 Nf3 Nc6 Bb5", "e5 Nf3 Nf6 Nxe5", "c5 Nf3"]),
        )
        .expect("a tree");
        assert_eq!(tree.branches.len(), 2);
        assert_eq!(tree.size(), 8);
        assert_eq!(
            tree.lines(),
            vec!["e7e5 g1f3 b8c6 f1b5", "e7e5 g1f3 g8f6 f3e5", "c7c5 g1f3"]
        );
    }

    #[test]
    fn illegal_moves_and_conflicts_name_the_line() {
        let pos = black_to_move();
        let mode = CastlingMode::Standard;
        let e = Tree::build(&pos, mode, &lines(&["e5 Nf3", "e5 Ke3"])).expect_err("illegal");
        assert!(
            matches!(
                e,
                ConditionalError::Move {
                    line: 2,
                    number: 2,
                    ..
                }
            ),
            "{e}"
        );
        let e = Tree::build(&pos, mode, &lines(&["e5 Nf3", "e5 Nc3"])).expect_err("conflict");
        assert!(
            matches!(e, ConditionalError::Conflict { line: 2, .. }),
            "{e}"
        );
        let e = Tree::build(&pos, mode, &lines(&["e5 Nf3 Nc6"])).expect_err("unanswered");
        assert_eq!(e, ConditionalError::Unanswered { line: 1 });
        let e = Tree::build(&pos, mode, &lines(&["  "])).expect_err("empty");
        assert_eq!(e, ConditionalError::Empty { line: 1 });
        // White's move first: not the opponent's.
        let e = Tree::build(&pos, mode, &lines(&["Nf3 e5"])).expect_err("wrong side");
        assert!(
            matches!(
                e,
                ConditionalError::Move {
                    line: 1,
                    number: 1,
                    ..
                }
            ),
            "{e}"
        );
    }

    #[test]
    fn thousands_of_moves_are_refused() {
        // Knights shuffling back and forth: legal, but far too many.
        let shuffle = "Nc6 Nf3 Nb8 Ng1 ".repeat(150);
        let e = Tree::build(&black_to_move(), CastlingMode::Standard, &[shuffle])
            .expect_err("too many");
        assert!(
            matches!(e, ConditionalError::TooMany { moves: 600, .. }),
            "{e}"
        );
    }
}
