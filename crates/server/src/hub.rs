//! News for accounts wherever they listen (the API's event stream, later
//! the page): a game starts or ends, a challenge arrives, is declined or
//! cancelled. One channel per account with a listener; news for an
//! account nobody listens for is dropped (what it needs on connecting,
//! its games and open challenges, is read afresh then).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::sync::broadcast;

/// The type of the news that a move was made in one of the account's
/// games: the page's account socket uses it; the API's event stream,
/// which carries only lichess's events, leaves it out.
pub const TURN: &str = "turn";

/// News items an account's channel holds for a slow listener.
const BACKLOG: usize = 64;

/// Where news also goes: the other nodes, when there are several.
type Also = Box<dyn Fn(i64, &Value) + Send + Sync>;

/// The channels of the accounts that listen.
#[derive(Default)]
pub struct Hub {
    /// Channel by account id.
    channels: Mutex<HashMap<i64, broadcast::Sender<Arc<Value>>>>,
    /// Where all news also goes.
    also: std::sync::OnceLock<Also>,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hub")
    }
}

impl Hub {
    /// Listens for the news of account `user`.
    pub fn listen(&self, user: i64) -> broadcast::Receiver<Arc<Value>> {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .entry(user)
            .or_insert_with(|| broadcast::channel(BACKLOG).0)
            .subscribe()
    }

    /// Tells account `user` `news` (one lichess event object), if anyone
    /// listens; forgets channels nobody listens to any more.
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::hub::Hub;
    /// let hub = Hub::default();
    /// let mut news = hub.listen(7);
    /// hub.tell(7, serde_json::json!({"type": "challengeCanceled"}));
    /// hub.tell(8, serde_json::json!({"type": "nobody listens"}));
    /// assert_eq!(news.try_recv().map(|v| v["type"].clone()).ok(), Some("challengeCanceled".into()));
    /// ```
    pub fn tell(&self, user: i64, news: Value) {
        if let Some(also) = self.also.get() {
            also(user, &news);
        }
        self.tell_here(user, news);
    }

    /// Sends all news to `also` as well (once; the other nodes' listeners,
    /// when there are several).
    pub fn also(&self, also: Also) {
        let _ = self.also.set(also);
    }

    /// Tells account `user` `news` on this node only (news another node
    /// sent).
    pub fn tell_here(&self, user: i64, news: Value) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(channel) = channels.get(&user) {
            if channel.receiver_count() == 0 {
                channels.remove(&user);
            } else {
                let _ = channel.send(Arc::new(news));
            }
        }
    }
}
