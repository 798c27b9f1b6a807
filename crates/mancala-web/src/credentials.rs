//! An owner's hold on their account: changing the password (which ends the other
//! sessions), the lists of its sessions and personal API tokens and their
//! revocation, and the operator's password reset (the server sends no e-mail, so a
//! forgotten password is reset by the operator).

use serde::Serialize;

use crate::accounts::{hash_password_now, hashing, password_matches};
use crate::error::GameError;
use crate::games::Games;
use crate::passwords::check_password;
use crate::store::{Account, CredentialInfo, CredentialKind};

/// A session or a personal API token as its owner sees it: never its secret.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CredentialView {
    /// Its public id (16 hex digits), to revoke it by.
    pub id: String,
    /// When it was made, in seconds since the Unix epoch (`null` if made before this
    /// was kept).
    pub created_at: Option<i64>,
    /// When it was last used, to the minute, in seconds since the Unix epoch.
    pub last_used_at: Option<i64>,
    /// When it expires (sessions), in seconds since the Unix epoch; `null`: never.
    pub expires_at: Option<i64>,
    /// Whether it is the credential of the request that asked.
    pub current: bool,
}

/// A credential's public id: the first 8 bytes of the SHA-256 of its secret, in hex
/// (the store keeps only that hash; from it nobody can find the secret).
#[must_use]
pub fn credential_id(token_hash: &[u8; 32]) -> String {
    token_hash[..8].iter().map(|b| format!("{b:02x}")).collect()
}

impl CredentialView {
    fn of(info: &CredentialInfo, current: Option<[u8; 32]>) -> CredentialView {
        let seconds = |ms: Option<i64>| ms.map(|ms| ms.div_euclid(1000));
        CredentialView {
            id: credential_id(&info.token_hash),
            created_at: seconds(info.created_ms),
            last_used_at: seconds(info.last_used_ms),
            expires_at: seconds(info.expires_ms),
            current: current == Some(info.token_hash),
        }
    }
}

impl Games {
    /// Changes the account's password, once `current` is its password; ends every
    /// session of the account but `keep` (the one that asked). Personal API tokens
    /// stay. How many sessions ended.
    ///
    /// # Errors
    /// [`GameError::Forbidden`] for a wrong current password,
    /// [`GameError::Unprocessable`] for a refused new one.
    pub async fn change_password(
        &self,
        account: &Account,
        current: &str,
        new: &str,
        keep: Option<[u8; 32]>,
    ) -> Result<u64, GameError> {
        let (hash, given) = (account.password_hash.clone(), current.to_owned());
        if !hashing(move || password_matches(&hash, &given)).await? {
            return Err(GameError::Forbidden(
                "current: that is not the account's password".into(),
            ));
        }
        self.set_password(account, new, keep).await
    }

    /// Sets the password of the account named `name` (whatever its case), for the
    /// operator (`mancala account reset-password`); ends all its sessions. How many
    /// ended.
    ///
    /// # Errors
    /// [`GameError::Missing`] for no such account, [`GameError::Unprocessable`] for
    /// a refused password.
    pub async fn reset_password(&self, name: &str, new: &str) -> Result<u64, GameError> {
        let account = self
            .store()
            .account(&name.to_ascii_lowercase())
            .await?
            .ok_or_else(|| GameError::Missing(format!("no account is named {name:?}")))?;
        self.set_password(&account, new, None).await
    }

    async fn set_password(
        &self,
        account: &Account,
        new: &str,
        keep: Option<[u8; 32]>,
    ) -> Result<u64, GameError> {
        check_password(new, &account.name)?;
        let new = new.to_owned();
        let hash = hashing(move || hash_password_now(&new)).await??;
        if !self.store().set_password(&account.key, &hash).await? {
            return Err(GameError::Missing("the account is gone".into()));
        }
        let ended = self
            .store()
            .remove_credentials(&account.key, CredentialKind::Session, keep)
            .await?;
        // The account's event streams here look again whether they may go on.
        self.wakers().wake(&account.key);
        Ok(ended)
    }

    /// The account's current credentials of `kind`, newest first; `current` marks
    /// the asking request's.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn credentials(
        &self,
        account: &Account,
        kind: CredentialKind,
        current: Option<[u8; 32]>,
    ) -> Result<Vec<CredentialView>, GameError> {
        let found = self
            .store()
            .credentials_of(&account.key, kind, self.now_ms())
            .await?;
        Ok(found
            .iter()
            .map(|c| CredentialView::of(c, current))
            .collect())
    }

    /// Ends every session of the account (logging out everywhere); how many.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn end_sessions(&self, account: &Account) -> Result<u64, GameError> {
        let ended = self
            .store()
            .remove_credentials(&account.key, CredentialKind::Session, None)
            .await?;
        self.wakers().wake(&account.key);
        Ok(ended)
    }

    /// Revokes the account's personal API token whose id is `id`.
    ///
    /// # Errors
    /// [`GameError::Missing`] when the account has no such token.
    pub async fn revoke_token(&self, account: &Account, id: &str) -> Result<(), GameError> {
        let tokens = self
            .store()
            .credentials_of(&account.key, CredentialKind::Api, self.now_ms())
            .await?;
        let token = tokens
            .iter()
            .find(|t| credential_id(&t.token_hash) == id.to_ascii_lowercase())
            .ok_or_else(|| GameError::Missing(format!("no token of yours has the id {id:?}")))?;
        self.store().remove_credential(token.token_hash).await?;
        self.wakers().wake(&account.key);
        Ok(())
    }
}
