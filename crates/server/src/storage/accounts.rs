//! Where accounts live: users, their sessions and their personal API
//! tokens. Secrets are stored only as digests
//! ([`crate::accounts::secret::digest`]).

use super::StorageError;

/// A stored account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    /// The row id.
    pub id: i64,
    /// The name as chosen.
    pub name: String,
    /// The Argon2id PHC string; `None`: no password sign-in (a token-only bot).
    pub password: Option<String>,
    /// An address for notifications, if given.
    pub email: Option<String>,
    /// A bot account (lichess's "BOT" title).
    pub bot: bool,
    /// Disabled by whoever runs the server: no sign-in, no token works.
    pub disabled: bool,
    /// When the account was made, Unix ms.
    pub created: u64,
}

/// An account to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewUser {
    /// The name as chosen (checked by [`crate::accounts::UserName`]).
    pub name: String,
    /// The Argon2id PHC string, if the account signs in with a password.
    pub password: Option<String>,
    /// An address for notifications.
    pub email: Option<String>,
    /// A bot account.
    pub bot: bool,
    /// Now, Unix ms.
    pub created: u64,
}

/// Accounts, sessions and tokens.
pub trait AccountStore: Send + Sync + 'static {
    /// Makes an account.
    ///
    /// # Errors
    ///
    /// [`StorageError::Taken`] when the name (without regard to case) is in use.
    fn add_user(&self, user: &NewUser) -> Result<User, StorageError>;

    /// The account whose name is `name` without regard to case.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn user(&self, name: &str) -> Result<Option<User>, StorageError>;

    /// Every account, by name.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn users(&self) -> Result<Vec<User>, StorageError>;

    /// Sets an account's password (a PHC string) and ends its sessions
    /// except `keep` (a session digest).
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn set_password(&self, user: i64, phc: &str, keep: Option<&str>) -> Result<(), StorageError>;

    /// Disables or enables an account; disabling ends its sessions.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn set_disabled(&self, user: i64, disabled: bool) -> Result<(), StorageError>;

    /// Makes an account a bot account, or a person's again.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn set_bot(&self, user: i64, bot: bool) -> Result<(), StorageError>;

    /// The account of a live session, if the account is not disabled.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn session(&self, digest: &str) -> Result<Option<User>, StorageError>;

    /// Ends a session.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn end_session(&self, digest: &str) -> Result<(), StorageError>;

    /// Stores a personal API token (`digest`) of `user` with its scopes
    /// (comma-separated) and a description.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn add_token(
        &self,
        digest: &str,
        user: i64,
        scopes: &str,
        description: &str,
        now: u64,
    ) -> Result<(), StorageError>;

    /// The account and scopes of a token, if the account is not disabled.
    ///
    /// # Errors
    ///
    /// When the database fails.
    fn token(&self, digest: &str) -> Result<Option<(User, String)>, StorageError>;
}
