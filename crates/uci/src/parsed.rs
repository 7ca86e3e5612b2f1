//! A parsed value together with the junk skipped in front of it.

/// A command or message read from a line, plus the unknown tokens that came
/// before the first known keyword and were skipped (the UCI spec reads
/// `joho debug on` as `debug on`).
///
/// A non-empty [`skipped`](Self::skipped) is worth a warning in a log; it is
/// not an error.
///
/// # Examples
///
/// ```
/// use rochade_uci::{GuiCommand, Parsed};
///
/// let parsed = GuiCommand::parse_with_skipped("joho debug on").unwrap();
/// assert_eq!(
///     parsed,
///     Parsed { value: GuiCommand::Debug(true), skipped: vec!["joho".to_owned()] }
/// );
/// assert!(parsed.has_skipped());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parsed<T> {
    /// The command or message.
    pub value: T,
    /// The unknown tokens skipped before it, in order.
    pub skipped: Vec<String>,
}

impl<T> Parsed<T> {
    /// Whether any token was skipped.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_uci::GuiCommand;
    ///
    /// assert!(!GuiCommand::parse_with_skipped("isready").unwrap().has_skipped());
    /// ```
    pub fn has_skipped(&self) -> bool {
        !self.skipped.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn has_skipped_follows_the_list() {
        let clean = Parsed {
            value: 1,
            skipped: Vec::new(),
        };
        assert!(!clean.has_skipped());
        let junk = Parsed {
            value: 1,
            skipped: vec!["x".to_owned()],
        };
        assert!(junk.has_skipped());
    }
}
