//! Accounts for whoever runs the server: `rochade user add|list|disable|bot`
//! and `rochade token create`. They work on the database file directly,
//! also while the server runs (SQLite allows it; a write waits for the
//! server's current commit).

use super::{AccountError, UserName, password, scope, secret};
use crate::storage::{BookedLeave, LeaveGrant, NewUser, Storage, User, wall_ms};

/// Makes an account; without a password it cannot sign in on the page
/// (a bot that uses only its token).
///
/// # Errors
///
/// [`AccountError`] for a bad name or password, or a name in use.
///
/// # Examples
///
/// ```
/// use rochade_server::accounts::admin;
/// use rochade_server::storage::SqliteStorage;
/// let dir = std::env::temp_dir().join(format!("rochade-admin-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let _ = std::fs::remove_file(dir.join("a.sqlite"));
/// let store = SqliteStorage::open(&dir.join("a.sqlite"))?;
/// admin::add_user(&store, "Rubinstein", None, true)?;
/// let token = admin::create_token(&store, "rubinstein", "bot:play", "lichess-bot")?;
/// assert!(token.starts_with("rop_"));
/// assert_eq!(admin::list(&store)?[0].name, "Rubinstein");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn add_user(
    store: &dyn Storage,
    name: &str,
    password: Option<&str>,
    bot: bool,
) -> Result<User, AccountError> {
    let name = UserName::parse(name)?;
    let password = password.map(password::hash_now).transpose()?;
    Ok(store.add_user(&NewUser {
        name: name.as_str().to_owned(),
        password,
        email: None,
        bot,
        created: wall_ms(),
    })?)
}

/// The account called `name`.
fn find(store: &dyn Storage, name: &str) -> Result<User, AccountError> {
    store
        .user(name)?
        .ok_or_else(|| AccountError::NoSuchUser(name.to_owned()))
}

/// Every account.
///
/// # Errors
///
/// When storage fails.
pub fn list(store: &dyn Storage) -> Result<Vec<User>, AccountError> {
    Ok(store.users()?)
}

/// Disables (or with `false` enables again) the account called `name`:
/// its sessions end and its tokens stop working.
///
/// # Errors
///
/// [`AccountError::NoSuchUser`], or when storage fails.
pub fn disable(store: &dyn Storage, name: &str, disabled: bool) -> Result<User, AccountError> {
    let user = find(store, name)?;
    store.set_disabled(user.id, disabled)?;
    Ok(User { disabled, ..user })
}

/// Makes the account called `name` a bot account (lichess's "BOT"), or
/// with `false` a person's again.
///
/// # Errors
///
/// [`AccountError::NoSuchUser`], or when storage fails.
pub fn set_bot(store: &dyn Storage, name: &str, bot: bool) -> Result<User, AccountError> {
    let user = find(store, name)?;
    store.set_bot(user.id, bot)?;
    Ok(User { bot, ..user })
}

/// Makes the account called `name` one of the site's directors, or not
/// (`on`): they create tournaments and direct the correspondence games of
/// no tournament (ICCF 14). Returns the account.
///
/// # Examples
///
/// ```
/// use rochade_server::accounts::admin::{add_user, set_director};
/// use rochade_server::storage::{SqliteStorage, TournamentStore};
/// let dir = std::env::temp_dir().join(format!("rochade-td-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let store = SqliteStorage::open(&dir.join("td.sqlite"))?;
/// add_user(&store, "Arbiter", None, false)?;
/// let td = set_director(&store, "arbiter", true)?;
/// assert!(store.is_site_director(td.id)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`AccountError::NoSuchUser`], or when storage fails.
pub fn set_director(store: &dyn Storage, name: &str, on: bool) -> Result<User, AccountError> {
    let user = find(store, name)?;
    store.set_site_director(user.id, on)?;
    Ok(user)
}

/// Makes a personal API token for the account called `name` with `scopes`
/// (`board:play,bot:play,challenge:write`); returns it. It is shown once:
/// only its digest is stored.
///
/// # Errors
///
/// [`AccountError::NoSuchUser`], [`AccountError::Scope`] for an unknown
/// scope, or when storage fails.
pub fn create_token(
    store: &dyn Storage,
    name: &str,
    scopes: &str,
    description: &str,
) -> Result<String, AccountError> {
    let scopes = scope::parse(scopes).map_err(AccountError::Scope)?;
    let user = find(store, name)?;
    let token = secret::fresh(super::TOKEN_PREFIX);
    store.add_token(
        &secret::digest(&token),
        user.id,
        &scope::join(&scopes),
        description,
        wall_ms(),
    )?;
    Ok(token)
}

/// Grants the account called `name` `days` extra leave days in `year`
/// (ICCF 10.1: the organiser's grant), for `reason`, by `by`.
///
/// # Errors
///
/// [`AccountError::NoSuchUser`], or when storage fails.
///
/// # Examples
///
/// ```
/// use rochade_server::accounts::admin;
/// use rochade_server::storage::{LeaveStore, SqliteStorage};
/// let dir = std::env::temp_dir().join(format!("rochade-leave-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let _ = std::fs::remove_file(dir.join("l.sqlite"));
/// let store = SqliteStorage::open(&dir.join("l.sqlite"))?;
/// let user = admin::add_user(&store, "Keres", None, false)?;
/// admin::grant_leave(&store, "keres", 2027, 10, "illness", "organiser")?;
/// assert_eq!(store.leave_grants(user.id)?[0].days, 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn grant_leave(
    store: &dyn Storage,
    name: &str,
    year: i64,
    days: i64,
    reason: &str,
    by: &str,
) -> Result<User, AccountError> {
    let user = find(store, name)?;
    store.grant_leave(
        user.id,
        &LeaveGrant {
            year,
            days,
            reason: reason.to_owned(),
            by: by.to_owned(),
            at: wall_ms(),
        },
    )?;
    Ok(user)
}

/// The leave booked by the account called `name` and the grants it had.
///
/// # Errors
///
/// [`AccountError::NoSuchUser`], or when storage fails.
pub fn leave(
    store: &dyn Storage,
    name: &str,
) -> Result<(Vec<BookedLeave>, Vec<LeaveGrant>), AccountError> {
    let user = find(store, name)?;
    Ok((store.leaves(user.id)?, store.leave_grants(user.id)?))
}
