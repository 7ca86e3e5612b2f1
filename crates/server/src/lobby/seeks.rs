//! The open seeks, in memory; every change bumps a version that the lobby
//! sockets watch.
//!
//! Of several nodes, each holds the seeks of its own connections and hears
//! the others' over Redis ([`crate::cluster::seeks`]): a seek held
//! elsewhere is listed here with the node that holds it ([`Seek::node`]),
//! and taking or cancelling it is asked of that node.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rochade_laws::clock::TimeControl;
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::challenges::ColorChoice;
use crate::error::{ActionError, ErrorCode};
use crate::ratings::Perf;
use crate::setup::{Player, random_code};

/// Open seeks one account may hold at once on one node. Seeks held on
/// other nodes do not count: when a node dies, its pages open their seeks
/// again on another node while the dead node's are still listed (until
/// its heartbeat is stale), and must not be refused for them.
pub const MOST_PER_OWNER: usize = 5;

/// Open seeks in all.
pub const MOST: usize = 10_000;

/// An open seek.
#[derive(Debug, Clone)]
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who seeks, with their rating in the seek's category.
    pub owner: Player,
    /// The time control.
    pub control: TimeControl,
    /// Rated or casual.
    pub rated: bool,
    /// The owner's colour.
    pub color: ColorChoice,
    /// A Chess960 game.
    pub chess960: bool,
    /// The ratings an opponent may have, both ends included.
    pub range: Option<(i64, i64)>,
    /// The connection that holds it (on its node).
    pub holder: u64,
    /// The node that holds it, when it is another node (`None`: this one).
    pub node: Option<String>,
    /// When it was opened (for pairing the oldest first).
    pub made: tokio::time::Instant,
}

impl Seek {
    /// Its category.
    pub fn perf(&self) -> Perf {
        Perf::of(&self.control, self.chess960)
    }

    /// The seek as the lobby shows it.
    pub fn to_json(&self) -> Value {
        let rating = crate::api::games::shown(&self.owner);
        json!({
            "id": self.id,
            "user": {
                "name": self.owner.name,
                "rating": rating.rating,
                "provisional": rating.provisional,
                "title": if self.owner.bot { json!("BOT") } else { Value::Null },
            },
            "time_control": self.control.to_string(),
            "perf": self.perf().key(),
            "rated": self.rated,
            "color": self.color.as_str(),
            "chess960": self.chess960,
            "rating_range": self.range.map(|(low, high)| [low, high]),
        })
    }
}

/// A change to the seeks this node holds, for the other nodes.
#[derive(Debug, Clone, Copy)]
pub enum Change<'a> {
    /// A seek opened.
    Opened(&'a Seek),
    /// Seek `id` was taken, cancelled or released.
    Gone(&'a str),
    /// These are all the seeks held here.
    All(&'a [&'a Seek]),
}

/// Where changes to this node's seeks also go: the other nodes.
type Also = Box<dyn Fn(Change<'_>) + Send + Sync>;

/// The open seeks of the server.
pub struct Seeks {
    /// By id.
    open: Mutex<HashMap<String, Seek>>,
    /// Bumped on every change.
    version: watch::Sender<u64>,
    /// Numbers for connections that hold seeks.
    holders: AtomicU64,
    /// The lobby socket's `seeks` message and the version it shows: made
    /// once per change, however many sockets send it.
    message: Mutex<(u64, Arc<str>)>,
    /// Where changes to this node's seeks also go.
    also: std::sync::OnceLock<Also>,
}

impl std::fmt::Debug for Seeks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Seeks({})", self.lock().len())
    }
}

impl Default for Seeks {
    fn default() -> Seeks {
        Seeks {
            open: Mutex::new(HashMap::new()),
            version: watch::channel(0).0,
            holders: AtomicU64::new(1),
            message: Mutex::new((u64::MAX, Arc::from(""))),
            also: std::sync::OnceLock::new(),
        }
    }
}

impl Seeks {
    /// Locks the map.
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Seek>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Tells the watchers that the list changed.
    fn changed(&self) {
        self.version.send_modify(|v| *v += 1);
    }

    /// Tells `also` every change to the seeks held here (set once, by the
    /// cluster).
    pub fn also(&self, also: Also) {
        let _ = self.also.set(also);
    }

    /// Tells the other nodes of `change`.
    fn tell(&self, change: Change<'_>) {
        if let Some(also) = self.also.get() {
            also(change);
        }
    }

    /// A number for a new connection that may hold seeks.
    pub fn holder(&self) -> u64 {
        self.holders.fetch_add(1, Ordering::Relaxed)
    }

    /// Watches the list's changes.
    pub fn watch(&self) -> watch::Receiver<u64> {
        self.version.subscribe()
    }

    /// Opens a seek; its id.
    ///
    /// # Errors
    ///
    /// `too_many_requests` when its owner holds [`MOST_PER_OWNER`] here,
    /// or the server lists [`MOST`].
    ///
    /// # Examples
    ///
    /// ```
    /// use rochade_server::lobby::{Seek, Seeks};
    /// use rochade_server::challenges::ColorChoice;
    /// use rochade_server::setup::Player;
    /// let seeks = Seeks::default();
    /// let owner = Player { id: 1, name: "Tal".into(), bot: false, rating: None };
    /// let seek = Seek { id: String::new(), owner, control: "5+3".parse()?, rated: true,
    ///     color: ColorChoice::Random, chess960: false, range: None, holder: seeks.holder(),
    ///     node: None, made: tokio::time::Instant::now() };
    /// let id = seeks.add(seek)?;
    /// assert_eq!(seeks.list()[0]["id"], id.as_str());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn add(&self, mut seek: Seek) -> Result<String, ActionError> {
        let mut open = self.lock();
        let mine = open
            .values()
            .filter(|s| s.owner.id == seek.owner.id && s.node.is_none())
            .count();
        if mine >= MOST_PER_OWNER || open.len() >= MOST {
            return Err(ActionError::new(
                ErrorCode::TooManyRequests,
                format!("at most {MOST_PER_OWNER} open seeks a player"),
            ));
        }
        seek.id = random_code(8);
        seek.node = None;
        let id = seek.id.clone();
        self.tell(Change::Opened(&seek));
        open.insert(id.clone(), seek);
        drop(open);
        self.changed();
        Ok(id)
    }

    /// The owner `owner` withdraws seek `id`, held here.
    ///
    /// # Errors
    ///
    /// `not_found` when `owner` has no such seek here.
    pub fn cancel(&self, id: &str, owner: i64) -> Result<(), ActionError> {
        let mut open = self.lock();
        if open
            .get(id)
            .is_none_or(|s| s.owner.id != owner || s.node.is_some())
        {
            return Err(ActionError::new(
                ErrorCode::NotFound,
                format!("no seek {id}"),
            ));
        }
        open.remove(id);
        self.tell(Change::Gone(id));
        drop(open);
        self.changed();
        Ok(())
    }

    /// Takes seek `id`, held here, for the account `taker` rated `rating`
    /// in its category.
    ///
    /// # Errors
    ///
    /// `not_found` for no such seek here; `not_allowed` for one's own seek or a
    /// rating outside the seek's range.
    pub fn take(&self, id: &str, taker: i64, rating: i64) -> Result<Seek, ActionError> {
        let mut open = self.lock();
        // One held by another node is taken there.
        let seek = open
            .get(id)
            .filter(|s| s.node.is_none())
            .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("no seek {id}")))?;
        if seek.owner.id == taker {
            return Err(ActionError::new(
                ErrorCode::NotAllowed,
                "that is your own seek",
            ));
        }
        if let Some((low, high)) = seek.range
            && !(low..=high).contains(&rating)
        {
            return Err(ActionError::new(
                ErrorCode::NotAllowed,
                format!("the seek is for ratings {low}–{high}; yours is {rating}"),
            ));
        }
        let seek = open
            .remove(id)
            .ok_or_else(|| ActionError::new(ErrorCode::NotFound, format!("no seek {id}")))?;
        self.tell(Change::Gone(id));
        drop(open);
        self.changed();
        Ok(seek)
    }

    /// Drops every seek the connection `holder` holds (it closed).
    pub fn release(&self, holder: u64) {
        self.drop_where(|s| s.node.is_none() && s.holder == holder);
    }

    /// Drops the seeks that `gone` picks; the other nodes hear of those
    /// held here, the watchers of any.
    fn drop_where(&self, gone: impl Fn(&Seek) -> bool) {
        let mut open = self.lock();
        let before = open.len();
        open.retain(|id, s| {
            let dropped = gone(s);
            if dropped && s.node.is_none() {
                self.tell(Change::Gone(id));
            }
            !dropped
        });
        let changed = open.len() != before;
        drop(open);
        if changed {
            self.changed();
        }
    }

    /// Tells the other nodes all the seeks this node holds, in order with
    /// every change: the list is made and told under the lock that the
    /// changes take, so that none opened meanwhile is told before it and
    /// then left out of it.
    pub fn tell_all(&self) {
        let open = self.lock();
        let held: Vec<&Seek> = open.values().filter(|s| s.node.is_none()).collect();
        self.tell(Change::All(&held));
    }

    /// Node `node` holds `seeks` and no others (it said so).
    pub fn heard_all(&self, node: &str, seeks: Vec<Seek>) {
        let mut open = self.lock();
        open.retain(|_, s| s.node.as_deref() != Some(node));
        for mut seek in seeks {
            seek.node = Some(node.to_owned());
            // An id this node holds is never given up to a node's word.
            open.entry(seek.id.clone()).or_insert(seek);
        }
        drop(open);
        self.changed();
    }

    /// Node `node` opened `seek`.
    pub fn heard_opened(&self, node: &str, mut seek: Seek) {
        seek.node = Some(node.to_owned());
        let mut open = self.lock();
        if open.get(&seek.id).is_some_and(|s| s.node.is_none()) {
            return;
        }
        open.insert(seek.id.clone(), seek);
        drop(open);
        self.changed();
    }

    /// Node `node`'s seek `id` is gone.
    pub fn heard_gone(&self, node: &str, id: &str) {
        let mut open = self.lock();
        if open.get(id).is_none_or(|s| s.node.as_deref() != Some(node)) {
            return;
        }
        open.remove(id);
        drop(open);
        self.changed();
    }

    /// Node `node` went silent: its seeks go with it.
    pub fn forget_node(&self, node: &str) {
        self.drop_where(|s| s.node.as_deref() == Some(node));
    }

    /// An open seek that `seek` (not yet open) pairs with: another owner,
    /// the same control, rated or not, variant, colours that fit, and
    /// each rating within the other's range; the oldest such.
    pub fn partner(&self, seek: &Seek) -> Option<String> {
        let fits = |range: Option<(i64, i64)>, player: &Player| {
            let rating = crate::api::games::shown(player).rating;
            range.is_none_or(|(low, high)| (low..=high).contains(&rating))
        };
        let colours = |a: ColorChoice, b: ColorChoice| {
            !matches!(
                (a, b),
                (ColorChoice::White, ColorChoice::White) | (ColorChoice::Black, ColorChoice::Black)
            )
        };
        let open = self.lock();
        open.values()
            .filter(|s| {
                s.owner.id != seek.owner.id
                    && s.control == seek.control
                    && s.rated == seek.rated
                    && s.chess960 == seek.chess960
                    && colours(s.color, seek.color)
                    && fits(s.range, &seek.owner)
                    && fits(seek.range, &s.owner)
            })
            .min_by_key(|s| s.made)
            .map(|s| s.id.clone())
    }

    /// How many seeks are open, here and on the other nodes.
    pub fn count(&self) -> usize {
        self.lock().len()
    }

    /// The category of seek `id`, if it is open.
    pub fn perf_of(&self, id: &str) -> Option<Perf> {
        self.lock().get(id).map(Seek::perf)
    }

    /// The node that holds seek `id`: `None` when it is not open,
    /// `Some(None)` when this node holds it.
    pub fn node_of(&self, id: &str) -> Option<Option<String>> {
        self.lock().get(id).map(|s| s.node.clone())
    }

    /// `{"t":"seeks","seeks":[…]}` as the lobby socket sends it, made once
    /// for each change of the list.
    pub fn message(&self) -> Arc<str> {
        let version = *self.version.borrow();
        let mut cached = self.message.lock().unwrap_or_else(|e| e.into_inner());
        if cached.0 != version {
            let text = json!({"t": "seeks", "seeks": self.list()}).to_string();
            *cached = (version, Arc::from(text));
        }
        cached.1.clone()
    }

    /// The open seeks, by control, then owner's name, then id (a stable
    /// order).
    pub fn list(&self) -> Vec<Value> {
        let open = self.lock();
        let mut seeks: Vec<&Seek> = open.values().collect();
        seeks.sort_by_cached_key(|s| (s.control.to_string(), s.owner.name.clone(), s.id.clone()));
        seeks.iter().map(|s| s.to_json()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 5+3 seek of account `owner`, held by the connection `holder`.
    fn seek(id: &str, owner: i64, holder: u64) -> Seek {
        Seek {
            id: id.to_owned(),
            owner: Player {
                id: owner,
                name: format!("player{owner}"),
                bot: false,
                rating: None,
            },
            control: "5+3".parse().expect("a control"),
            rated: false,
            color: ColorChoice::Random,
            chess960: false,
            range: None,
            holder,
            node: None,
            made: tokio::time::Instant::now(),
        }
    }

    /// The ids listed, sorted.
    fn ids(seeks: &Seeks) -> Vec<String> {
        let mut ids: Vec<String> = seeks
            .list()
            .iter()
            .map(|s| s["id"].as_str().expect("id").to_owned())
            .collect();
        ids.sort();
        ids
    }

    #[test]
    fn another_nodes_seeks_are_listed_until_it_says_they_went_or_goes_silent() {
        let seeks = Seeks::default();
        seeks.heard_opened("b", seek("x1", 1, 0));
        seeks.heard_opened("b", seek("x2", 1, 0));
        seeks.heard_opened("c", seek("y1", 2, 0));
        assert_eq!(ids(&seeks), ["x1", "x2", "y1"]);
        // Only the node that holds a seek says it went.
        seeks.heard_gone("c", "x1");
        seeks.heard_gone("b", "x1");
        assert_eq!(ids(&seeks), ["x2", "y1"]);
        // A node's whole list replaces what it held.
        seeks.heard_all("b", vec![seek("x3", 1, 0)]);
        assert_eq!(ids(&seeks), ["x3", "y1"]);
        seeks.forget_node("c");
        assert_eq!(ids(&seeks), ["x3"]);
    }

    #[test]
    fn a_seek_held_elsewhere_is_not_taken_or_cancelled_here() {
        let seeks = Seeks::default();
        seeks.heard_opened("b", seek("x1", 1, 0));
        assert_eq!(seeks.node_of("x1"), Some(Some("b".to_owned())));
        let taken = seeks.take("x1", 2, 1500).expect_err("held by b");
        assert_eq!(taken.code, ErrorCode::NotFound);
        let cancelled = seeks.cancel("x1", 1).expect_err("held by b");
        assert_eq!(cancelled.code, ErrorCode::NotFound);
        // Nor dropped when a connection here with the same number closes.
        seeks.release(0);
        assert_eq!(ids(&seeks), ["x1"]);
    }

    #[test]
    fn a_players_seeks_held_on_another_node_do_not_count_against_their_limit_here() {
        let seeks = Seeks::default();
        for i in 0..MOST_PER_OWNER {
            seeks.heard_opened("dead", seek(&format!("old{i}"), 1, 0));
        }
        let holder = seeks.holder();
        for _ in 0..MOST_PER_OWNER {
            seeks.add(seek("", 1, holder)).expect("opened again here");
        }
        let refused = seeks.add(seek("", 1, holder)).expect_err("over the limit");
        assert_eq!(refused.code, ErrorCode::TooManyRequests);
    }

    #[test]
    fn every_change_to_the_seeks_held_here_is_told_and_none_heard_from_others() {
        let told = Arc::new(Mutex::new(Vec::new()));
        let seeks = Seeks::default();
        let log = told.clone();
        seeks.also(Box::new(move |change| {
            let line = match change {
                Change::Opened(s) => format!("opened {}", s.owner.id),
                Change::Gone(_) => "gone".to_owned(),
                Change::All(all) => format!("all {}", all.len()),
            };
            log.lock().expect("log").push(line);
        }));
        let holder = seeks.holder();
        let first = seeks.add(seek("", 1, holder)).expect("opens");
        seeks.add(seek("", 1, holder)).expect("opens");
        seeks.heard_opened("b", seek("x1", 2, 0));
        seeks.tell_all();
        seeks.cancel(&first, 1).expect("cancels");
        seeks.release(holder);
        let told = told.lock().expect("log").clone();
        assert_eq!(told, ["opened 1", "opened 1", "all 2", "gone", "gone"]);
    }
}
