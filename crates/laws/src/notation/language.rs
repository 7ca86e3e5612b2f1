//! Piece letters of the languages a move can be written in.

use std::{fmt, str::FromStr};

use shakmaty::{Color, Role};

use super::error::ParseLanguageError;

/// A language for the piece letters of algebraic notation.
///
/// Pawns have no letter in any language. Reading a move is exact to the
/// language: in Slovak `S` is a bishop, in Polish `S` is a knight.
///
/// # Examples
///
/// ```
/// use rochade_laws::Language;
/// use shakmaty::{Color, Role};
///
/// let german: Language = "DE".parse()?;
/// assert_eq!(german.letter(Role::Knight, Color::White), "S");
/// assert_eq!(Language::Russian.letter(Role::King, Color::Black), "Кр");
/// assert_eq!(Language::Figurine.letter(Role::Knight, Color::Black), "♞");
/// # Ok::<_, rochade_laws::ParseLanguageError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Language {
    /// English: K Q R B N.
    #[default]
    English,
    /// Slovak: K D V S J.
    Slovak,
    /// Czech: K D V S J.
    Czech,
    /// German: K D T L S.
    German,
    /// French: R D T F C.
    French,
    /// Spanish: R D T A C.
    Spanish,
    /// Italian: R D T A C.
    Italian,
    /// Dutch: K D T L P.
    Dutch,
    /// Polish: K H W G S.
    Polish,
    /// Hungarian: K V B F H.
    Hungarian,
    /// Russian: Кр Ф Л С К.
    Russian,
    /// Unicode figurines: ♔♕♖♗♘ for White, ♚♛♜♝♞ for Black.
    Figurine,
}

/// The pieces that have a letter, in the order king, queen, rook, bishop, knight.
const LETTERED: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];

impl Language {
    /// Every language, in a fixed order.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::Language;
    ///
    /// assert_eq!(Language::ALL.len(), 12);
    /// assert_eq!(Language::ALL[0], Language::English);
    /// ```
    pub const ALL: [Language; 12] = [
        Language::English,
        Language::Slovak,
        Language::Czech,
        Language::German,
        Language::French,
        Language::Spanish,
        Language::Italian,
        Language::Dutch,
        Language::Polish,
        Language::Hungarian,
        Language::Russian,
        Language::Figurine,
    ];

    /// The short code of the language: `en`, `sk`, `cs`, `de`, `fr`, `es`,
    /// `it`, `nl`, `pl`, `hu`, `ru` or `figurine`.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::Language;
    ///
    /// assert_eq!(Language::Czech.code(), "cs");
    /// assert_eq!(Language::Figurine.code(), "figurine");
    /// ```
    pub const fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Slovak => "sk",
            Language::Czech => "cs",
            Language::German => "de",
            Language::French => "fr",
            Language::Spanish => "es",
            Language::Italian => "it",
            Language::Dutch => "nl",
            Language::Polish => "pl",
            Language::Hungarian => "hu",
            Language::Russian => "ru",
            Language::Figurine => "figurine",
        }
    }

    /// The letter (or figurine) of a piece in this language; empty for a pawn.
    ///
    /// The colour only matters for [`Language::Figurine`].
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::Language;
    /// use shakmaty::{Color, Role};
    ///
    /// assert_eq!(Language::French.letter(Role::King, Color::White), "R");
    /// assert_eq!(Language::Figurine.letter(Role::Queen, Color::White), "♕");
    /// assert_eq!(Language::English.letter(Role::Pawn, Color::White), "");
    /// ```
    pub const fn letter(self, role: Role, color: Color) -> &'static str {
        let letters = self.letters(color);
        match role {
            Role::Pawn => "",
            Role::King => letters[0],
            Role::Queen => letters[1],
            Role::Rook => letters[2],
            Role::Bishop => letters[3],
            Role::Knight => letters[4],
        }
    }

    /// Letters for king, queen, rook, bishop and knight.
    const fn letters(self, color: Color) -> [&'static str; 5] {
        match self {
            Language::English => ["K", "Q", "R", "B", "N"],
            Language::Slovak | Language::Czech => ["K", "D", "V", "S", "J"],
            Language::German => ["K", "D", "T", "L", "S"],
            Language::French => ["R", "D", "T", "F", "C"],
            Language::Spanish | Language::Italian => ["R", "D", "T", "A", "C"],
            Language::Dutch => ["K", "D", "T", "L", "P"],
            Language::Polish => ["K", "H", "W", "G", "S"],
            Language::Hungarian => ["K", "V", "B", "F", "H"],
            Language::Russian => ["Кр", "Ф", "Л", "С", "К"],
            Language::Figurine => match color {
                Color::White => ["♔", "♕", "♖", "♗", "♘"],
                Color::Black => ["♚", "♛", "♜", "♝", "♞"],
            },
        }
    }

    /// Reads a piece letter at the start of `text`, taking the longest
    /// match (so Russian `Кр` is a king, not a knight followed by `р`).
    /// Figurines of either colour are accepted.
    ///
    /// Returns the piece and the rest of the text.
    pub(crate) fn strip_piece(self, text: &str) -> Option<(Role, &str)> {
        let mut best: Option<(Role, &str)> = None;
        for color in Color::ALL {
            for (role, letter) in LETTERED.into_iter().zip(self.letters(color)) {
                if let Some(rest) = text.strip_prefix(letter)
                    && best.is_none_or(|(_, r)| rest.len() < r.len())
                {
                    best = Some((role, rest));
                }
            }
        }
        best
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Language {
    type Err = ParseLanguageError;

    /// Reads a language code, ignoring case; `cz` is accepted for Czech.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let code = s.trim().to_ascii_lowercase();
        if code == "cz" {
            return Ok(Language::Czech);
        }
        Language::ALL
            .into_iter()
            .find(|l| l.code() == code)
            .ok_or_else(|| ParseLanguageError { code: s.to_owned() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for language in Language::ALL {
            assert_eq!(language.code().parse::<Language>(), Ok(language));
            assert_eq!(
                language.code().to_uppercase().parse::<Language>(),
                Ok(language)
            );
            assert_eq!(language.to_string(), language.code());
        }
        assert_eq!("cz".parse::<Language>(), Ok(Language::Czech));
        assert!("xx".parse::<Language>().is_err());
        assert!("".parse::<Language>().is_err());
    }

    #[test]
    fn letters_are_distinct_within_a_language() {
        for language in Language::ALL {
            for color in Color::ALL {
                let letters = language.letters(color);
                for (i, a) in letters.iter().enumerate() {
                    for b in &letters[i + 1..] {
                        assert_ne!(a, b, "{language}");
                    }
                }
            }
        }
    }

    #[test]
    fn exact_to_the_language() {
        assert_eq!(
            Language::Slovak.strip_piece("Sb5"),
            Some((Role::Bishop, "b5"))
        );
        assert_eq!(
            Language::Polish.strip_piece("Sf3"),
            Some((Role::Knight, "f3"))
        );
        assert_eq!(Language::English.strip_piece("Sf3"), None);
        assert_eq!(
            Language::Russian.strip_piece("Крe2"),
            Some((Role::King, "e2"))
        );
        assert_eq!(
            Language::Russian.strip_piece("Кf3"),
            Some((Role::Knight, "f3"))
        );
        assert_eq!(
            Language::Figurine.strip_piece("♞f6"),
            Some((Role::Knight, "f6"))
        );
        assert_eq!(
            Language::Figurine.strip_piece("♘f3"),
            Some((Role::Knight, "f3"))
        );
        assert_eq!(Language::English.strip_piece("e4"), None);
    }
}
