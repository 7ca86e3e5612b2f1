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
        Notice::Decision {
            director,
            act,
            reason,
        } => {
            let what = act_words(act, lang);
            match lang {
                "sk" => format!("Riaditeľ turnaja {director} rozhodol ({what}): {reason}"),
                "cs" => format!("Ředitel turnaje {director} rozhodl ({what}): {reason}"),
                _ => format!("Tournament director {director} decided ({what}): {reason}"),
            }
        }
        Notice::Leave { player, from, to } => {
            // `to` is the first moment after the leave: its last day is
            // the day before.
            let (first, last) = (day(*from), day(to.saturating_sub(1)));
            match lang {
                "sk" => format!(
                    "{player} má voľno od {first} do {last}: hodiny vašej partie stoja (10.1)."
                ),
                "cs" => format!(
                    "{player} má volno od {first} do {last}: hodiny vaší partie stojí (10.1)."
                ),
                _ => format!(
                    "{player} is on leave from {first} to {last}: the clocks of your game stand still (10.1)."
                ),
            }
        }
        Notice::LeaveBegins { player, to } => {
            let last = day(to.saturating_sub(1));
            match lang {
                "sk" => format!("{player} má od dnes voľno do {last}: hodiny stoja (10.1)."),
                "cs" => format!("{player} má ode dneška volno do {last}: hodiny stojí (10.1)."),
                _ => format!(
                    "{player}'s leave begins today, until {last}: the clocks stand still (10.1)."
                ),
            }
        }
        Notice::LeaveEnds { player } => match lang {
            "sk" => format!("{player} sa vrátil z voľna: hodiny znova bežia."),
            "cs" => format!("{player} se vrátil z volna: hodiny znovu běží."),
            _ => format!("{player} is back from leave: the clocks run again."),
        },
        Notice::TournamentSoon {
            name, starts_at, ..
        } => {
            let t = moment(*starts_at);
            match lang {
                "sk" => format!("Turnaj {name} sa začína o {t}: buďte pri šachovnici."),
                "cs" => format!("Turnaj {name} začíná v {t}: buďte u šachovnice."),
                _ => format!("{name} begins at {t}: be at the board."),
            }
        }
        Notice::Answered { director, answer } => match lang {
            "sk" => format!("Riaditeľ turnaja {director} odpovedal: {answer}"),
            "cs" => format!("Ředitel turnaje {director} odpověděl: {answer}"),
            _ => format!("Tournament director {director} answered: {answer}"),
        },
    }
}

/// The UTC day of a moment (Unix ms), `YYYY-MM-DD`.
fn day(unix_ms: u64) -> String {
    crate::correspondence::leave::Day::of_ms(unix_ms).to_string()
}

/// A director's decision named in `lang`.
fn act_words<'a>(act: &'a str, lang: &str) -> &'a str {
    match (act, lang) {
        ("stop_clocks", "sk") => "hodiny zastavené",
        ("stop_clocks", "cs") => "hodiny zastaveny",
        ("stop_clocks", _) => "clocks stopped",
        ("start_clocks", "sk") => "partia pokračuje",
        ("start_clocks", "cs") => "partie pokračuje",
        ("start_clocks", _) => "the game resumes",
        ("set_clock", "sk") => "hodiny nastavené",
        ("set_clock", "cs") => "hodiny nastaveny",
        ("set_clock", _) => "clock set",
        ("adjudicate", "sk") => "partia rozhodnutá",
        ("adjudicate", "cs") => "partie rozhodnuta",
        ("adjudicate", _) => "game adjudicated",
        ("forfeit", "sk") => "partia kontumovaná",
        ("forfeit", "cs") => "partie kontumována",
        ("forfeit", _) => "game forfeited",
        ("double_forfeit", "sk") => "obojstranná kontumácia",
        ("double_forfeit", "cs") => "oboustranná kontumace",
        ("double_forfeit", _) => "double forfeit",
        ("warning", "sk") => "napomenutie",
        ("warning", "cs") => "napomenutí",
        ("warning", _) => "warning",
        ("call_off", "sk") => "turnaj zrušený",
        ("call_off", "cs") => "turnaj zrušen",
        ("call_off", _) => "tournament called off",
        ("reschedule", "sk") => "začiatok turnaja presunutý",
        ("reschedule", "cs") => "začátek turnaje přesunut",
        ("reschedule", _) => "tournament start moved",
        ("settings", "sk") => "podmienky turnaja zmenené",
        ("settings", "cs") => "podmínky turnaje změněny",
        ("settings", _) => "tournament settings changed",
        ("withdrawal", "sk") => "odstúpenie z turnaja",
        ("withdrawal", "cs") => "odstoupení z turnaje",
        ("withdrawal", _) => "withdrawal",
        ("leave_granted", "sk") => "pridané dni voľna",
        ("leave_granted", "cs") => "přidané dny volna",
        ("leave_granted", _) => "extra leave granted",
        (other, _) => other,
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
            Notice::Decision {
                director: "Tal".into(),
                act: "stop_clocks".into(),
                reason: "server maintenance".into(),
            },
            Notice::Answered {
                director: "Tal".into(),
                answer: "the decision stands".into(),
            },
            Notice::Leave {
                player: "Tal".into(),
                from: 1_772_582_400_000,
                to: 1_772_582_400_000 + 3 * 86_400_000,
            },
            Notice::LeaveBegins {
                player: "Tal".into(),
                to: 1_772_582_400_000 + 3 * 86_400_000,
            },
            Notice::LeaveEnds {
                player: "Tal".into(),
            },
            Notice::TournamentSoon {
                tournament: "t1".into(),
                name: "Tal Memorial".into(),
                starts_at: 1_772_582_400_000,
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
        // ICCF 10.1: the opponent hears when the leave begins and ends.
        let leave = Notice::Leave {
            player: "Tal".into(),
            from: 1_772_582_400_000,
            to: 1_772_582_400_000 + 3 * 86_400_000,
        };
        assert_eq!(
            line(&leave, "en"),
            "Tal is on leave from 2026-03-04 to 2026-03-06: the clocks of your game stand still (10.1)."
        );
        assert!(line(&notices[0], "en").contains("2026-03-04 00:00 UTC"));
        assert_eq!(
            line(&notices[9], "en"),
            "Tal Memorial begins at 2026-03-04 00:00 UTC: be at the board."
        );
    }

    #[test]
    fn the_acts_told_to_a_tournaments_entrants_have_words() {
        for act in ["call_off", "reschedule", "settings"] {
            let words = ["en", "sk", "cs"].map(|lang| act_words(act, lang));
            assert!(!words.contains(&act), "{act}: {words:?}");
            assert!(
                words[0] != words[1] && words[1] != words[2],
                "{act}: {words:?}"
            );
        }
    }
}
