//! Seat tokens and invites: the secrets that let a client play a seat or take one.
//!
//! A token is 256 random bits, handed to its client once; the store keeps only its
//! SHA-256, so a leaked database plays no seat. Secrets are compared in constant time.

use mancala_core::Side;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::row::GameError;
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

/// The seat that `token` plays in the stored game `row`.
///
/// # Errors
/// [`GameError::Unauthorized`] without a token, or with one of no seat of this game.
pub(crate) fn seat_of(row: &GameRow, token: Option<&str>) -> Result<Side, GameError> {
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
        assert_eq!(seat_of(&row, Some(&token)).unwrap(), Side::North);
        assert!(seat_of(&row, Some("nope")).is_err());
        assert!(seat_of(&row, None).is_err());
        assert!(matches(Some(hash), &token));
        assert!(!matches(None, &token));
    }

    #[test]
    fn a_rematch_token_is_the_same_each_time_and_differs_per_game() {
        assert_eq!(rematch_token("t", "g1"), rematch_token("t", "g1"));
        assert_ne!(rematch_token("t", "g1"), rematch_token("t", "g2"));
        assert_ne!(rematch_token("t", "g1"), rematch_token("u", "g1"));
    }
}
