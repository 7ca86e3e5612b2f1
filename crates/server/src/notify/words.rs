//! The words of the notices and digests, in English, Slovak and Czech
//! (the languages of the page's translation table).
//!
//! ```
//! use rochade_server::notify::{Notice, words};
//! let notice = Notice::DrawOffered { opponent: "Spassky".into() };
//! assert_eq!(words::line(&notice, "sk"), "Spassky vám ponúka remízu.");
//! assert_eq!(words::subject("cs"), "Rochade: vaše korespondenční partie");
//! ```

use rochade_laws::pgn::civil_date;

use super::Notice;

/// A moment (Unix ms) as `YYYY-MM-DD HH:MM UTC`.
pub fn moment(unix_ms: u64) -> String {
    let secs = unix_ms / 1000;
    let (y, m, d) = civil_date(i64::try_from(secs / 86_400).unwrap_or(0));
    let (h, min) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    format!("{y:04}-{m:02}-{d:02} {h:02}:{min:02} UTC")
}

/// The digest's subject.
pub fn subject(lang: &str) -> &'static str {
    match lang {
        "sk" => "Rochade: vaše korešpondenčné partie",
        "cs" => "Rochade: vaše korespondenční partie",
        _ => "Rochade: your correspondence games",
    }
}

/// The digest's first line.
pub fn greeting(lang: &str, name: &str) -> String {
    match lang {
        "sk" => format!("Dobrý deň, {name}, vo vašich partiách sa stalo:"),
        "cs" => format!("Dobrý den, {name}, ve vašich partiích se stalo:"),
        _ => format!("Hello {name}, in your games:"),
    }
}

/// One notice as a line.
pub fn line(notice: &Notice, lang: &str) -> String {
    match notice {
        Notice::YourMove { opponent, deadline } => {
            let until = deadline.map(moment);
            match (lang, until) {
                ("sk", Some(t)) => format!("Ste na ťahu proti {opponent} (lehota do {t})."),
                ("sk", None) => format!("Ste na ťahu proti {opponent}."),
                ("cs", Some(t)) => format!("Jste na tahu proti {opponent} (lhůta do {t})."),
                ("cs", None) => format!("Jste na tahu proti {opponent}."),
                (_, Some(t)) => format!("Your move against {opponent} (deadline {t})."),
                (_, None) => format!("Your move against {opponent}."),
            }
        }
        Notice::DrawOffered { opponent } => match lang {
            "sk" => format!("{opponent} vám ponúka remízu."),
            "cs" => format!("{opponent} vám nabízí remízu."),
            _ => format!("{opponent} offers you a draw."),
        },
        Notice::TimeLow { opponent, deadline } => {
            let t = moment(*deadline);
            match lang {
                "sk" => format!("Dochádza vám čas proti {opponent}: lehota do {t}."),
                "cs" => format!("Dochází vám čas proti {opponent}: lhůta do {t}."),
                _ => format!("Your time against {opponent} is running low: deadline {t}."),
            }
        }
    }
}

/// The link line under a game's notices.
pub fn game_link(lang: &str, url: &str) -> String {
    match lang {
        "sk" => format!("Partia: {url}"),
        "cs" => format!("Partie: {url}"),
        _ => format!("Game: {url}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notice_has_words_in_every_language() {
        let notices = [
            Notice::YourMove {
                opponent: "Tal".into(),
                deadline: Some(1_772_582_400_000),
            },
            Notice::YourMove {
                opponent: "Tal".into(),
                deadline: None,
            },
            Notice::DrawOffered {
                opponent: "Tal".into(),
            },
            Notice::TimeLow {
                opponent: "Tal".into(),
                deadline: 1_772_582_400_000,
            },
        ];
        for lang in ["en", "sk", "cs"] {
            for notice in &notices {
                let text = line(notice, lang);
                assert!(text.contains("Tal"), "{lang}: {text}");
            }
            assert!(subject(lang).starts_with("Rochade"));
        }
        assert_eq!(moment(1_772_582_400_000), "2026-03-04 00:00 UTC");
        assert!(line(&notices[0], "en").contains("2026-03-04 00:00 UTC"));
    }
}
