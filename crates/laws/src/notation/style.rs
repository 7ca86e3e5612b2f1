//! How moves are written: language, promotion style, en passant mark.

use super::language::Language;

/// How a promotion is written after the destination square.
///
/// # Examples
///
/// ```
/// use rochade_laws::PromotionStyle;
///
/// assert_eq!(PromotionStyle::default(), PromotionStyle::Equals);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PromotionStyle {
    /// PGN style, `e8=Q`.
    #[default]
    Equals,
    /// The style of the FIDE Laws, Appendix C, `e8Q`.
    Bare,
}

/// Options for writing algebraic notation (short and long).
///
/// The default is English letters, `e8=Q` promotions and no `e.p.` mark.
///
/// # Examples
///
/// ```
/// use rochade_laws::{Language, PromotionStyle, SanStyle};
///
/// let fide = SanStyle {
///     language: Language::German,
///     promotion: PromotionStyle::Bare,
///     en_passant_suffix: true,
/// };
/// assert_ne!(fide, SanStyle::default());
/// assert_eq!(SanStyle::default().language, Language::English);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SanStyle {
    /// The language of the piece letters.
    pub language: Language,
    /// How promotions are written.
    pub promotion: PromotionStyle,
    /// Whether en passant captures get a trailing ` e.p.`.
    pub en_passant_suffix: bool,
}

impl SanStyle {
    /// The default style with the given language.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_laws::{Language, SanStyle};
    ///
    /// assert_eq!(SanStyle::in_language(Language::Polish).language, Language::Polish);
    /// ```
    pub fn in_language(language: Language) -> Self {
        Self {
            language,
            ..Self::default()
        }
    }
}
