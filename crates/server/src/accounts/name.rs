//! User names: 2 to 20 letters, digits, `_` and `-`, unique without regard
//! to case (`Magnus` and `magnus` are one account; the name keeps the case
//! it was chosen with).

use std::fmt;

/// A user name that has passed the rules.
///
/// # Examples
///
/// ```
/// use rochade_server::accounts::UserName;
/// let name = UserName::parse("Kasparov_85")?;
/// assert_eq!(name.as_str(), "Kasparov_85");
/// assert_eq!(name.key(), "kasparov_85");
/// assert!(UserName::parse("x").is_err());
/// assert!(UserName::parse("no spaces").is_err());
/// # Ok::<(), rochade_server::accounts::NameError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct UserName(String);

/// Why a text is not a user name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Shorter than 2 or longer than 20 characters.
    #[error("a user name has 2 to 20 characters, not {0}")]
    Length(usize),
    /// A character other than a letter, a digit, `_` or `-`.
    #[error(
        "a user name has only letters A-Z, digits, `_` and `-`; `{character}` at {position} is not one"
    )]
    Character {
        /// The character.
        character: char,
        /// Its position, from 1.
        position: usize,
    },
}

/// The shortest name.
const MIN: usize = 2;
/// The longest name.
const MAX: usize = 20;

impl UserName {
    /// Checks `text` against the rules.
    ///
    /// # Errors
    ///
    /// [`NameError`] saying which rule and where.
    pub fn parse(text: &str) -> Result<UserName, NameError> {
        let length = text.chars().count();
        if !(MIN..=MAX).contains(&length) {
            return Err(NameError::Length(length));
        }
        if let Some((i, character)) = text
            .chars()
            .enumerate()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        {
            return Err(NameError::Character {
                character,
                position: i + 1,
            });
        }
        Ok(UserName(text.to_owned()))
    }

    /// The name as chosen.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name in lower case: what makes two names the same (lichess's user id).
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }
}

impl fmt::Display for UserName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_characters() {
        assert_eq!(UserName::parse("a"), Err(NameError::Length(1)));
        assert!(UserName::parse("ab").is_ok());
        assert!(UserName::parse(&"a".repeat(20)).is_ok());
        assert_eq!(UserName::parse(&"a".repeat(21)), Err(NameError::Length(21)));
        assert_eq!(
            UserName::parse("ab.c"),
            Err(NameError::Character {
                character: '.',
                position: 3
            })
        );
        // Letters outside ASCII look like others: refused.
        assert!(UserName::parse("Šachista").is_err());
        assert!(UserName::parse("a-b_C9").is_ok());
    }
}
