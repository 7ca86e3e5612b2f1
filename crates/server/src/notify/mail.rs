//! E-mail digests through an SMTP relay (`rochade serve --smtp
//! smtp://relay:25`): every account with an address and unsent notices
//! gets at most one digest per `digest_every` (an hour by default) listing
//! them, game by game, in its language. The notices wait in the database,
//! so a restart loses none; a relay that refuses leaves them for the next
//! round.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use lettre::message::Mailbox;
use lettre::message::header::ContentType;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use tokio::sync::watch;

use super::{Notice, words};
use crate::clock::ServerClock;
use crate::storage::{DueDigest, Storage};

/// Digests written per round at most.
const PER_ROUND: usize = 200;

/// The relay and the sender's address.
#[derive(Debug, Clone)]
pub struct MailConfig {
    /// `smtp://host:port` (plain SMTP to a relay; TLS is the relay's).
    pub url: String,
    /// The From address.
    pub from: String,
    /// The server's public address, for links (`https://chess.example.org`).
    pub site: String,
}

/// Why mail cannot be sent.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// The relay's URL does not read.
    #[error("--smtp {url}: {reason}")]
    Url {
        /// The URL.
        url: String,
        /// Why.
        reason: String,
    },
    /// The From address does not read.
    #[error("--smtp-from {0}: not an e-mail address")]
    From(String),
}

/// The host and port of `smtp://host[:port]` (port 25 when absent).
///
/// # Errors
///
/// [`MailError::Url`] for another scheme or a bad port.
///
/// ```
/// use rochade_server::notify::mail::relay;
/// assert_eq!(relay("smtp://127.0.0.1:2525").ok(), Some(("127.0.0.1".to_owned(), 2525)));
/// assert_eq!(relay("smtp://relay.example.org").ok(), Some(("relay.example.org".to_owned(), 25)));
/// assert!(relay("smtps://relay.example.org").is_err());
/// ```
pub fn relay(url: &str) -> Result<(String, u16), MailError> {
    let bad = |reason: &str| MailError::Url {
        url: url.to_owned(),
        reason: reason.to_owned(),
    };
    let rest = url.strip_prefix("smtp://").ok_or_else(|| {
        bad("expected smtp://host[:port] (plain SMTP to a relay, which does TLS)")
    })?;
    let rest = rest.trim_end_matches('/');
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) => (
            host,
            port.parse().map_err(|_| bad("the port is not a number"))?,
        ),
        None => (rest, 25),
    };
    if host.is_empty() || host.contains(['/', '@', ' ']) {
        return Err(bad("no host"));
    }
    Ok((host.to_owned(), port))
}

/// The digest of `due` as an e-mail message from `from`.
fn digest(due: &DueDigest, from: &Mailbox, site: &str) -> Option<Message> {
    let to: Mailbox = due.user.email.as_deref()?.parse().ok()?;
    let lang = due.lang.as_str();
    let mut by_game: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for stored in &due.notices {
        if let Ok(notice) = serde_json::from_str::<Notice>(&stored.body) {
            by_game
                .entry(stored.game.as_str())
                .or_default()
                .push(words::line(&notice, lang));
        }
    }
    let mut body = words::greeting(lang, &due.user.name);
    body.push_str("\n\n");
    for (game, lines) in by_game {
        for line in lines {
            body.push_str(&format!("- {line}\n"));
        }
        // Notices about the player, not a game (a director's warning),
        // have no game to link.
        if game.is_empty() {
            body.push('\n');
        } else {
            body.push_str(&format!(
                "  {}\n\n",
                words::game_link(lang, &format!("{site}/g/{game}"))
            ));
        }
    }
    Message::builder()
        .from(from.clone())
        .to(to)
        .subject(words::subject(lang))
        .header(ContentType::TEXT_PLAIN)
        .body(body)
        .ok()
}

/// Starts sending digests until `shutdown`; each account at most once per
/// `every`.
///
/// # Errors
///
/// [`MailError`] when the relay's URL or the From address does not read.
pub fn start(
    config: MailConfig,
    storage: Arc<dyn Storage>,
    clock: Arc<ServerClock>,
    every: Duration,
    mut shutdown: watch::Receiver<bool>,
    leads: crate::cluster::Leads,
) -> Result<(), MailError> {
    let (host, port) = relay(&config.url)?;
    let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
        .port(port)
        .build();
    let from: Mailbox = config
        .from
        .parse()
        .map_err(|_| MailError::From(config.from.clone()))?;
    // Look often enough that a digest is never much later than due.
    let round = (every / 10).clamp(Duration::from_millis(200), Duration::from_secs(60));
    tokio::spawn(async move {
        loop {
            tokio::select! {
                () = tokio::time::sleep(round) => {}
                _ = shutdown.changed() => return,
            }
            // With several nodes, one sends the digests.
            if !leads.now() {
                continue;
            }
            let now = clock.now_ms();
            let since = now.saturating_sub(u64::try_from(every.as_millis()).unwrap_or(u64::MAX));
            let reader = storage.clone();
            let due =
                match tokio::task::spawn_blocking(move || reader.due_digests(since, PER_ROUND))
                    .await
                {
                    Ok(Ok(due)) => due,
                    Ok(Err(e)) => {
                        tracing::warn!(error = %e, "reading the notices for the digests");
                        continue;
                    }
                    Err(_) => continue,
                };
            for due in due {
                let Some(message) = digest(&due, &from, &config.site) else {
                    continue;
                };
                match transport.send(message).await {
                    Ok(_) => {
                        let writer = storage.clone();
                        let ids: Vec<i64> = due.notices.iter().map(|n| n.id).collect();
                        let user = due.user.id;
                        let _ = tokio::task::spawn_blocking(move || {
                            writer.digest_sent(user, &ids, now)
                        })
                        .await;
                    }
                    Err(e) => {
                        tracing::warn!(user = %due.user.name, error = %e, "a digest was refused");
                    }
                }
            }
        }
    });
    Ok(())
}
