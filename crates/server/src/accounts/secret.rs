//! Secrets handed to a browser or a program (session cookies, personal API
//! tokens): 32 random letters and digits (about 190 bits) after a prefix
//! that says what they are. Only their SHA-256 is stored, so a copy of the
//! database opens no account.

use rand::distr::{Alphanumeric, SampleString};
use sha2::{Digest, Sha256};

/// A fresh secret: `prefix` then 32 random letters and digits.
///
/// # Examples
///
/// ```
/// use rochade_server::accounts::secret::{fresh, digest};
/// let token = fresh("rop_");
/// assert_eq!(token.len(), 36);
/// assert_ne!(token, fresh("rop_"));
/// assert_eq!(digest(&token).len(), 64);
/// ```
pub fn fresh(prefix: &str) -> String {
    format!(
        "{prefix}{}",
        Alphanumeric.sample_string(&mut rand::rng(), 32)
    )
}

/// The stored form of a secret: its SHA-256 in lower-case hex.
pub fn digest(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
