//! Passwords: hashed with Argon2id at OWASP's parameters (19 MiB, two
//! passes, one lane) into a PHC string, on tokio's blocking pool and never
//! more at once than there are cores, so that a flood of sign-ins neither
//! stalls the game rooms nor takes the memory of hundreds of hashes.

use std::sync::Arc;

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

/// The shortest password.
pub const MIN_LENGTH: usize = 8;
/// The longest password, in bytes (hashing cost does not grow with it, but
/// nobody needs more).
pub const MAX_LENGTH: usize = 256;

/// A password that cannot be accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Too short or too long.
    #[error("a password has {MIN_LENGTH} to {MAX_LENGTH} characters")]
    Length,
    /// The hashing failed (never expected; a bug or no memory).
    #[error("the password could not be hashed: {0}")]
    Hashing(String),
}

/// Argon2id with OWASP's parameters.
fn argon2() -> Result<Argon2<'static>, PasswordError> {
    let params =
        Params::new(19 * 1024, 2, 1, None).map_err(|e| PasswordError::Hashing(e.to_string()))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// Checks the rules a new password must meet.
///
/// # Errors
///
/// [`PasswordError::Length`].
pub fn check(password: &str) -> Result<(), PasswordError> {
    let chars = password.chars().count();
    if chars < MIN_LENGTH || password.len() > MAX_LENGTH {
        return Err(PasswordError::Length);
    }
    Ok(())
}

/// The PHC string of `password` with a fresh salt, on this thread (for the
/// command line; the server uses [`Hasher`]).
///
/// # Errors
///
/// [`PasswordError`] when the password breaks the rules.
pub fn hash_now(password: &str) -> Result<String, PasswordError> {
    check(password)?;
    argon2()?
        .hash_password(password.as_bytes())
        .map(|h| h.to_string())
        .map_err(|e| PasswordError::Hashing(e.to_string()))
}

/// Whether `password` matches the PHC string `phc`, on this thread.
pub fn verify_now(phc: &str, password: &str) -> bool {
    if password.len() > MAX_LENGTH {
        return false;
    }
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    argon2().is_ok_and(|a| a.verify_password(password.as_bytes(), &parsed).is_ok())
}

/// Hashes and verifies passwords, a bounded number at a time, on the
/// low-priority threads ([`super::low_priority`]): sign-ins never take
/// time the game rooms need.
#[derive(Debug, Clone)]
pub struct Hasher {
    /// Hashes that may run at once.
    permits: Arc<Semaphore>,
}

impl Hasher {
    /// At most `at_once` hashes at a time.
    pub fn new(at_once: usize) -> Hasher {
        Hasher {
            permits: Arc::new(Semaphore::new(at_once.max(1))),
        }
    }

    /// The PHC string of `password` with a fresh salt.
    ///
    /// # Errors
    ///
    /// [`PasswordError`] when the password breaks the rules.
    ///
    /// # Examples
    ///
    /// ```
    /// # async fn demo() -> Result<(), rochade_server::accounts::PasswordError> {
    /// use rochade_server::accounts::Hasher;
    /// let hasher = Hasher::new(2);
    /// let phc = hasher.hash("correct horse".to_owned()).await?;
    /// assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
    /// assert!(hasher.verify(phc.clone(), "correct horse".to_owned()).await);
    /// assert!(!hasher.verify(phc, "wrong horse".to_owned()).await);
    /// # Ok(()) }
    /// ```
    pub async fn hash(&self, password: String) -> Result<String, PasswordError> {
        check(&password)?;
        let _permit = self.permits.acquire().await;
        super::low_priority::run(move || hash_now(&password))
            .await
            .map_err(PasswordError::Hashing)?
    }

    /// Whether `password` matches the PHC string `phc`.
    pub async fn verify(&self, phc: String, password: String) -> bool {
        let _permit = self.permits.acquire().await;
        super::low_priority::run(move || verify_now(&phc, &password))
            .await
            .unwrap_or(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths() {
        assert_eq!(check("short"), Err(PasswordError::Length));
        assert!(check("long enough").is_ok());
        assert_eq!(check(&"x".repeat(257)), Err(PasswordError::Length));
        // Eight characters, more bytes: counted in characters.
        assert!(check("šššššššš").is_ok());
    }

    #[tokio::test]
    async fn a_corrupt_hash_verifies_nothing() {
        let hasher = Hasher::new(1);
        assert!(!hasher.verify("not a phc".into(), "whatever1".into()).await);
    }
}
