//! Accounts: players with a name and a password, their sessions (a cookie
//! in the browser) and their personal API tokens (`Authorization: Bearer`,
//! with lichess's scopes). Anonymous play needs none of it.
//!
//! - [`name`]: the rules of user names;
//! - [`password`]: Argon2id hashing, bounded and off the game rooms' threads;
//! - [`secret`]: session and token secrets, stored only as digests;
//! - [`scope`]: what a token may do;
//! - [`Accounts`]: sign-up, sign-in (rate-limited per account and per
//!   address), sign-out, password changes, and who a cookie or token is;
//! - [`admin`]: the same for whoever runs the server, from the command line.

pub mod admin;
pub mod http;
pub mod low_priority;
pub mod name;
pub mod password;
pub mod scope;
pub mod secret;

pub use name::{NameError, UserName};
pub use password::{Hasher, PasswordError};

use std::collections::BTreeSet;
use std::net::IpAddr;
use std::sync::{Arc, OnceLock};

use crate::limits::{Limits, RateLimiter};
use crate::storage::{NewUser, Storage, StorageError, User, WriteOp, Writer, wall_ms};

/// The prefix of session secrets.
const SESSION_PREFIX: &str = "ros_";
/// The prefix of personal API tokens.
const TOKEN_PREFIX: &str = "rop_";

/// Why an account action was refused.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// The user name breaks the rules.
    #[error("name: {0}")]
    Name(#[from] NameError),
    /// The password breaks the rules.
    #[error("password: {0}")]
    Password(#[from] PasswordError),
    /// The name is in use.
    #[error("the name {0} is taken")]
    Taken(String),
    /// Wrong name or password (which of the two is not said).
    #[error("wrong user name or password")]
    Credentials,
    /// Too many sign-in attempts for the account or from the address.
    #[error("too many sign-in attempts: wait a minute")]
    TooManyAttempts,
    /// No such account.
    #[error("no account {0}")]
    NoSuchUser(String),
    /// An unknown token scope.
    #[error("scopes: {0}")]
    Scope(scope::ScopeError),
    /// The e-mail address does not look like one.
    #[error("email: `{0}` is not an e-mail address")]
    Email(String),
    /// Storage failed.
    #[error("storage: {0}")]
    Storage(#[from] StorageError),
}

/// A personal API token's owner and scopes.
#[derive(Debug, Clone)]
pub struct TokenOwner {
    /// The account.
    pub user: User,
    /// What the token may do.
    pub scopes: BTreeSet<scope::Scope>,
}

/// The accounts of a running server.
pub struct Accounts {
    /// Where they are kept.
    store: Arc<dyn Storage>,
    /// The group-commit writer: a new session is stored with the games'
    /// next commit, never as a commit (an fsync) of its own.
    writer: Writer,
    /// Password hashing.
    hasher: Hasher,
    /// Sign-in attempts per account.
    per_account: RateLimiter<String>,
    /// Sign-in attempts per address.
    per_address: RateLimiter<IpAddr>,
    /// New accounts per address.
    sign_ups: RateLimiter<IpAddr>,
}

impl std::fmt::Debug for Accounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Accounts")
    }
}

/// A hash to verify against when the account does not exist, so that a
/// wrong name costs the same time as a wrong password.
fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| password::hash_now("decoy password").unwrap_or_default())
}

/// Checks an optional e-mail address: something@something, no spaces, at
/// most 254 characters; blank is none.
///
/// # Errors
///
/// [`AccountError::Email`] for an address that cannot be one.
///
/// ```
/// use rochade_server::accounts::checked_email;
/// assert_eq!(checked_email(Some(" a@b.cz ".into())).ok(), Some(Some("a@b.cz".to_owned())));
/// assert!(checked_email(Some("no at sign".into())).is_err());
/// ```
pub fn checked_email(email: Option<String>) -> Result<Option<String>, AccountError> {
    let Some(email) = email.map(|e| e.trim().to_owned()).filter(|e| !e.is_empty()) else {
        return Ok(None);
    };
    let plausible = email.len() <= 254
        && !email.chars().any(char::is_whitespace)
        && email
            .split_once('@')
            .is_some_and(|(local, domain)| !local.is_empty() && domain.contains('.'));
    if plausible {
        Ok(Some(email))
    } else {
        Err(AccountError::Email(email))
    }
}

impl Accounts {
    /// The accounts in `store` (new sessions written through `writer`),
    /// hashing at most `at_once` passwords at a time, with the sign-in and
    /// sign-up limits of `limits`.
    pub fn new(
        store: Arc<dyn Storage>,
        writer: Writer,
        at_once: usize,
        limits: &Limits,
    ) -> Accounts {
        let (account, address) = (
            f64::from(limits.sign_ins_per_account),
            f64::from(limits.sign_ins_per_address),
        );
        let sign_ups = f64::from(limits.sign_ups_per_address);
        Accounts {
            store,
            writer,
            hasher: Hasher::new(at_once),
            per_account: RateLimiter::new(account / 60.0, account),
            per_address: RateLimiter::new(address / 60.0, address),
            sign_ups: RateLimiter::new(sign_ups / 3600.0, sign_ups),
        }
    }

    /// Whether address `from` may make one more account now.
    pub fn allow_sign_up(&self, from: IpAddr) -> bool {
        self.sign_ups.allow(&from)
    }

    /// Runs a storage call on the blocking pool.
    async fn blocking<T: Send + 'static>(
        &self,
        call: impl FnOnce(&dyn Storage) -> Result<T, StorageError> + Send + 'static,
    ) -> Result<T, AccountError> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || call(store.as_ref()))
            .await
            .map_err(|e| StorageError::Corrupt {
                game: String::new(),
                reason: e.to_string(),
            })?
            .map_err(|e| match e {
                StorageError::Taken(name) => AccountError::Taken(name),
                e => AccountError::Storage(e),
            })
    }

    /// Starts a session for `user`; returns its secret (the cookie's value).
    async fn start_session(&self, user: &User) -> Result<String, AccountError> {
        let secret = secret::fresh(SESSION_PREFIX);
        let digest = secret::digest(&secret);
        let session = WriteOp::Session {
            digest,
            user: user.id,
            created: wall_ms(),
        };
        self.writer
            .write(vec![session])
            .await
            .map_err(AccountError::from)?;
        Ok(secret)
    }

    /// Makes an account and signs it in; returns it and the session secret.
    ///
    /// # Errors
    ///
    /// [`AccountError`]: the name or password breaks the rules, or the
    /// name is taken.
    pub async fn sign_up(
        &self,
        name: &str,
        password: String,
        email: Option<String>,
    ) -> Result<(User, String), AccountError> {
        let name = UserName::parse(name)?;
        let email = checked_email(email)?;
        let phc = self.hasher.hash(password).await?;
        let new = NewUser {
            name: name.as_str().to_owned(),
            password: Some(phc),
            email,
            bot: false,
            created: wall_ms(),
        };
        let user = self.blocking(move |s| s.add_user(&new)).await?;
        let session = self.start_session(&user).await?;
        Ok((user, session))
    }

    /// Signs in from address `from`; returns the account and the session
    /// secret.
    ///
    /// # Errors
    ///
    /// [`AccountError::TooManyAttempts`] over the limits,
    /// [`AccountError::Credentials`] for a wrong name or password (or a
    /// disabled account).
    pub async fn sign_in(
        &self,
        name: &str,
        password: String,
        from: IpAddr,
    ) -> Result<(User, String), AccountError> {
        let key = name.to_ascii_lowercase();
        if !self.per_address.allow(&from) || !self.per_account.allow(&key) {
            return Err(AccountError::TooManyAttempts);
        }
        let lookup = name.to_owned();
        let user = self.blocking(move |s| s.user(&lookup)).await?;
        let phc = user
            .as_ref()
            .and_then(|u| u.password.clone())
            .unwrap_or_else(|| decoy().to_owned());
        let matches = self.hasher.verify(phc, password).await;
        match user {
            Some(user) if matches && user.password.is_some() && !user.disabled => {
                let session = self.start_session(&user).await?;
                Ok((user, session))
            }
            _ => Err(AccountError::Credentials),
        }
    }

    /// Ends the session with this secret.
    ///
    /// # Errors
    ///
    /// When storage fails.
    pub async fn sign_out(&self, session: &str) -> Result<(), AccountError> {
        let digest = secret::digest(session);
        self.blocking(move |s| s.end_session(&digest)).await
    }

    /// The account signed in with this session secret.
    ///
    /// # Errors
    ///
    /// When storage fails.
    pub async fn session_user(&self, session: &str) -> Result<Option<User>, AccountError> {
        if !session.starts_with(SESSION_PREFIX) {
            return Ok(None);
        }
        let digest = secret::digest(session);
        self.blocking(move |s| s.session(&digest)).await
    }

    /// Changes the password of the session's account, after checking the
    /// current one; every other session of the account ends.
    ///
    /// # Errors
    ///
    /// [`AccountError::Credentials`] when `current` is wrong, or the new
    /// password breaks the rules.
    pub async fn change_password(
        &self,
        session: &str,
        current: String,
        new: String,
    ) -> Result<(), AccountError> {
        let user = self
            .session_user(session)
            .await?
            .ok_or(AccountError::Credentials)?;
        if !self.per_account.allow(&user.name.to_ascii_lowercase()) {
            return Err(AccountError::TooManyAttempts);
        }
        let phc = user.password.clone().ok_or(AccountError::Credentials)?;
        if !self.hasher.verify(phc, current).await {
            return Err(AccountError::Credentials);
        }
        let phc = self.hasher.hash(new).await?;
        let keep = secret::digest(session);
        let id = user.id;
        self.blocking(move |s| s.set_password(id, &phc, Some(&keep)))
            .await
    }

    /// The owner and scopes of a personal API token.
    ///
    /// # Errors
    ///
    /// When storage fails or the stored scopes no longer read.
    pub async fn token_owner(&self, token: &str) -> Result<Option<TokenOwner>, AccountError> {
        let digest = secret::digest(token);
        let found = self.blocking(move |s| s.token(&digest)).await?;
        found
            .map(|(user, scopes)| {
                let scopes = scope::parse(&scopes).map_err(|e| {
                    AccountError::Storage(StorageError::Corrupt {
                        game: String::new(),
                        reason: e.to_string(),
                    })
                })?;
                Ok(TokenOwner { user, scopes })
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::SqliteStorage;

    fn accounts() -> (Accounts, Arc<dyn Storage>) {
        let dir = crate::storage::scratch_dir("accounts-test");
        let store: Arc<dyn Storage> =
            Arc::new(SqliteStorage::open(&dir.join("a.sqlite")).expect("opens"));
        let writer = crate::storage::Writer::start(store.clone());
        (
            Accounts::new(store.clone(), writer, 2, &Limits::default()),
            store,
        )
    }

    const FROM: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[tokio::test]
    async fn sign_up_in_out_and_names_without_case() {
        let (accounts, _) = accounts();
        let (user, session) = accounts
            .sign_up("Morphy", "paul1837!".into(), None)
            .await
            .expect("signed up");
        assert_eq!(user.name, "Morphy");
        let me = accounts.session_user(&session).await.expect("reads");
        assert_eq!(me.map(|u| u.id), Some(user.id));
        assert!(matches!(
            accounts.sign_up("morphy", "another one".into(), None).await,
            Err(AccountError::Taken(_))
        ));
        let (again, second) = accounts
            .sign_in("MORPHY", "paul1837!".into(), FROM)
            .await
            .expect("signed in");
        assert_eq!(again.id, user.id);
        accounts.sign_out(&second).await.expect("signed out");
        assert!(
            accounts
                .session_user(&second)
                .await
                .expect("reads")
                .is_none()
        );
        assert!(
            accounts
                .session_user(&session)
                .await
                .expect("reads")
                .is_some()
        );
    }

    #[tokio::test]
    async fn wrong_passwords_and_unknown_names_look_alike() {
        let (accounts, _) = accounts();
        accounts
            .sign_up("Anderssen", "immortal1851".into(), None)
            .await
            .expect("signed up");
        for (name, password) in [("Anderssen", "wrong pass"), ("Nobody", "immortal1851")] {
            let e = accounts
                .sign_in(name, password.into(), FROM)
                .await
                .expect_err("refused");
            assert!(matches!(e, AccountError::Credentials), "{e}");
        }
    }

    #[tokio::test]
    async fn sign_ins_are_limited_per_account() {
        let (accounts, _) = accounts();
        accounts
            .sign_up("Capablanca", "machine1921".into(), None)
            .await
            .expect("signed up");
        // Five wrong guesses and the right password, asked at once: each
        // is counted before its password is hashed, so the sixth finds
        // the limit reached however slowly the machine hashes (one after
        // the other, a slow machine's hashing gave a token back: the limit
        // regains one attempt every 12 s).
        let guesses = ["guess guess"; 5].into_iter().chain(["machine1921"]);
        let answers = futures_util::future::join_all(
            guesses.map(|p| accounts.sign_in("Capablanca", p.into(), FROM)),
        )
        .await;
        for e in &answers[..5] {
            assert!(matches!(e, Err(AccountError::Credentials)));
        }
        assert!(matches!(answers[5], Err(AccountError::TooManyAttempts)));
    }

    #[tokio::test]
    async fn a_new_password_ends_the_other_sessions_and_disabling_ends_all() {
        let (accounts, store) = accounts();
        let (user, first) = accounts
            .sign_up("Tal", "magician1960".into(), Some("tal@example.org".into()))
            .await
            .expect("signed up");
        let (_, second) = accounts
            .sign_in("Tal", "magician1960".into(), FROM)
            .await
            .expect("signed in");
        assert!(matches!(
            accounts
                .change_password(&first, "not it at all".into(), "riga riga 1936".into())
                .await,
            Err(AccountError::Credentials)
        ));
        accounts
            .change_password(&first, "magician1960".into(), "riga riga 1936".into())
            .await
            .expect("changed");
        assert!(
            accounts
                .session_user(&first)
                .await
                .expect("reads")
                .is_some()
        );
        assert!(
            accounts
                .session_user(&second)
                .await
                .expect("reads")
                .is_none()
        );
        store.set_disabled(user.id, true).expect("disabled");
        assert!(
            accounts
                .session_user(&first)
                .await
                .expect("reads")
                .is_none()
        );
        let e = accounts.sign_in("Tal", "riga riga 1936".into(), FROM).await;
        assert!(matches!(e, Err(AccountError::Credentials)));
    }

    #[test]
    fn email_addresses_are_checked_lightly() {
        assert_eq!(checked_email(None).ok(), Some(None));
        assert_eq!(checked_email(Some("  ".into())).ok(), Some(None));
        assert!(checked_email(Some("a@b.cz".into())).is_ok());
        assert!(checked_email(Some("no at sign".into())).is_err());
        assert!(checked_email(Some("a@localhost".into())).is_err());
    }
}
