//! Seat tokens and invites: the secrets that let a client play a seat or take one.
//!
//! A token is 256 random bits, handed to its client once; the store keeps only its
//! SHA-256, so a leaked database plays no seat. Secrets are compared in constant time.

use mancala_core::Side;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::error::GameError;
use crate::store::GameRow;

/// `N` random bytes from the operating system, in hex: game ids and secrets.
pub(crate) fn random_hex<const N: usize>() -> String {
    let mut bytes = [0u8; N];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system provides randomness");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A random 256-bit token (hex) and its SHA-256, which is all the store keeps.
pub(crate) fn new_token() -> (String, [u8; 32]) {
    let token = random_hex::<32>();
    let hash = hash_token(&token);
    (token, hash)
}

/// What the store keeps of a token or an invite.
pub(crate) fn hash_token(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// The token of the rematch seat of the holder of `token`: derived from it, so asking
/// again gives the same token, and only the holder of `token` can know it.
pub(crate) fn rematch_token(token: &str, rematch_id: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"mancala rematch seat\0");
    h.update(rematch_id.as_bytes());
    h.update(b"\0");
    h.update(token.as_bytes());
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `secret` hashes to `stored`, in constant time.
pub(crate) fn matches(stored: Option<[u8; 32]>, secret: &str) -> bool {
    stored.is_some_and(|s| bool::from(s.ct_eq(&hash_token(secret))))
}

/// Who asks to act at a seat of a game.
///
/// ```
/// use mancala_web::SeatKey;
/// let key: SeatKey = Some("a1b2").into();
/// assert!(matches!(key, SeatKey::Token(Some("a1b2"))));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKey<'a> {
    /// The holder of a seat token (`Authorization: Bearer`), or nobody (`None`).
    Token(Option<&'a str>),
    /// A logged-in account (its key): it acts at the seat it holds, from any device.
    Account(&'a str),
}

impl<'a> From<Option<&'a str>> for SeatKey<'a> {
    fn from(token: Option<&'a str>) -> SeatKey<'a> {
        SeatKey::Token(token)
    }
}

/// The seat that `key` plays in the stored game `row`.
///
/// # Errors
/// [`GameError::Unauthorized`] without a token, with one of no seat of this game, or
/// for an account that holds no seat of it.
pub(crate) fn seat_of(row: &GameRow, key: SeatKey<'_>) -> Result<Side, GameError> {
    match key {
        SeatKey::Token(token) => seat_of_token(row, token),
        SeatKey::Account(account) => Side::BOTH
            .into_iter()
            .find(|side| row.accounts[side.index()].as_deref() == Some(account))
            .ok_or(GameError::Unauthorized),
    }
}

/// The seat that `token` plays in the stored game `row`.
fn seat_of_token(row: &GameRow, token: Option<&str>) -> Result<Side, GameError> {
    let presented = hash_token(token.ok_or(GameError::Unauthorized)?);
    let mut found = None;
    for side in Side::BOTH {
        if let Some(stored) = row.token_hashes[side.index()] {
            // Compare every seat in constant time, whatever matches.
            if bool::from(stored.ct_eq(&presented)) {
                found = Some(side);
            }
        }
    }
    found.ok_or(GameError::Unauthorized)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_plays_only_its_own_seat() {
        let (token, hash) = new_token();
        assert_eq!(token.len(), 64);
        let row = GameRow {
            token_hashes: [None, Some(hash)],
            ..GameRow::default()
        };
        assert_eq!(
            seat_of(&row, Some(token.as_str()).into()).unwrap(),
            Side::North
        );
        assert!(seat_of(&row, Some("nope").into()).is_err());
        assert!(seat_of(&row, None.into()).is_err());
        assert!(matches(Some(hash), &token));
        assert!(!matches(None, &token));
    }

    #[test]
    fn an_account_plays_the_seat_it_holds() {
        let row = GameRow {
            accounts: [Some("ann".into()), None],
            ..GameRow::default()
        };
        assert_eq!(seat_of(&row, SeatKey::Account("ann")).unwrap(), Side::South);
        assert!(seat_of(&row, SeatKey::Account("bob")).is_err());
    }

    #[test]
    fn a_rematch_token_is_the_same_each_time_and_differs_per_game() {
        assert_eq!(rematch_token("t", "g1"), rematch_token("t", "g1"));
        assert_ne!(rematch_token("t", "g1"), rematch_token("t", "g2"));
        assert_ne!(rematch_token("t", "g1"), rematch_token("u", "g1"));
    }
}
