//! What a personal API token may do, by lichess's scope names, so that a
//! token made for lichess-bot or berserk reads the same here.

use std::collections::BTreeSet;
use std::fmt;

/// One permission of a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    /// `board:play`: play games as a person with a board API client.
    BoardPlay,
    /// `bot:play`: play games as a bot account.
    BotPlay,
    /// `challenge:read`: see incoming challenges.
    ChallengeRead,
    /// `challenge:write`: make, accept and decline challenges.
    ChallengeWrite,
    /// `preference:read`: read the account's settings.
    PreferenceRead,
}

impl Scope {
    /// Every scope, in order.
    pub const ALL: [Scope; 5] = [
        Scope::BoardPlay,
        Scope::BotPlay,
        Scope::ChallengeRead,
        Scope::ChallengeWrite,
        Scope::PreferenceRead,
    ];

    /// Lichess's name of the scope.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::BoardPlay => "board:play",
            Scope::BotPlay => "bot:play",
            Scope::ChallengeRead => "challenge:read",
            Scope::ChallengeWrite => "challenge:write",
            Scope::PreferenceRead => "preference:read",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A scope name that is not known.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown scope `{0}`; the scopes are board:play, bot:play, challenge:read, challenge:write, preference:read"
)]
pub struct ScopeError(pub String);

/// Reads a comma-separated list of scopes (`board:play,bot:play`).
///
/// # Errors
///
/// [`ScopeError`] naming the first unknown scope.
///
/// # Examples
///
/// ```
/// use rochade_server::accounts::scope::{Scope, parse};
/// let scopes = parse("board:play, challenge:write")?;
/// assert!(scopes.contains(&Scope::BoardPlay) && scopes.len() == 2);
/// assert!(parse("email:read").is_err());
/// # Ok::<(), rochade_server::accounts::scope::ScopeError>(())
/// ```
pub fn parse(text: &str) -> Result<BTreeSet<Scope>, ScopeError> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|name| {
            Scope::ALL
                .into_iter()
                .find(|s| s.as_str() == name)
                .ok_or_else(|| ScopeError(name.to_owned()))
        })
        .collect()
}

/// Writes scopes back as a comma-separated list.
pub fn join(scopes: &BTreeSet<Scope>) -> String {
    scopes
        .iter()
        .map(|s| s.as_str())
        .collect::<Vec<_>>()
        .join(",")
}
