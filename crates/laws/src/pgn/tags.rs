//! PGN tag pairs, in the order they were given, with the Seven Tag Roster
//! first when writing.

/// The seven tags every PGN game has, in their standard order.
pub const SEVEN_TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Tag pairs of one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tags {
    pairs: Vec<(String, String)>,
}

impl Tags {
    /// No tags.
    pub fn new() -> Tags {
        Tags::default()
    }

    /// The value of tag `name`, if present.
    ///
    /// ```
    /// let mut tags = rochade_laws::pgn::Tags::new();
    /// tags.set("White", "Ambrona");
    /// assert_eq!(tags.get("White"), Some("Ambrona"));
    /// assert_eq!(tags.get("Black"), None);
    /// ```
    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name`, replacing an earlier value.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.pairs.iter_mut().find(|(n, _)| n == name) {
            Some(pair) => pair.1 = value.to_owned(),
            None => self.pairs.push((name.to_owned(), value.to_owned())),
        }
    }

    /// Removes tag `name`.
    pub fn remove(&mut self, name: &str) {
        self.pairs.retain(|(n, _)| n != name);
    }

    /// All pairs, in the order given.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}
