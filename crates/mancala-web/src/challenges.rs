//! Challenges: an account asks another, by name, to play a game it describes (the
//! settings of a new game); the other accepts (a game starts, each seat held by one of
//! the two accounts), declines (with a reason, if it likes), or lets it expire; the
//! challenger may withdraw it. Each step is an event on both accounts' streams.

use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value, json};

use crate::accounts::no_such_user;
use crate::clock::TimeControlRequest;
use crate::error::GameError;
use crate::games::Games;
use crate::lifecycle::{FirstMover, JoinRequest, NewGame, SeatGrant};
use crate::store::{Account, ChallengeRole, StoredChallenge};
use crate::tokens::random_hex;

/// How long a challenge waits for an answer.
pub const CHALLENGE_LIFETIME: Duration = Duration::from_secs(10 * 60);

/// The most open challenges one account may have made at once.
pub const OPEN_CHALLENGES: usize = 20;

/// The longest reason a decline may give, in characters.
pub const REASON_MAX_CHARS: usize = 200;

/// The settings of a new game that a challenge does not take: its opponent is the
/// account challenged, its seats are the two accounts' (named by them), and it is not
/// listed in the lobby.
const NOT_IN_A_CHALLENGE: [&str; 3] = ["opponent", "name", "public"];

/// A challenge as the API shows it: `{"id", "from", "to", "created_at", "expires_at",
/// ...the new game's settings}`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ChallengeView {
    /// Its id.
    pub id: String,
    /// The challenger's username.
    pub from: String,
    /// The challenged account's username.
    pub to: String,
    /// When it was made, in seconds since the Unix epoch.
    pub created_at: i64,
    /// When it expires unanswered, in seconds since the Unix epoch.
    pub expires_at: i64,
    /// Whether the game would be rated.
    pub rated: bool,
    /// The new game's settings as asked (`variant`, `houses`, `seeds`, options,
    /// `time_control`, `first`, `rated`).
    #[serde(flatten)]
    pub settings: Map<String, Value>,
}

impl ChallengeView {
    fn of(ch: &StoredChallenge) -> ChallengeView {
        let settings: Map<String, Value> = serde_json::from_str(&ch.request).unwrap_or_default();
        ChallengeView {
            id: ch.id.clone(),
            from: ch.challenger_name.clone(),
            to: ch.challenged_name.clone(),
            created_at: ch.created_ms.div_euclid(1000),
            expires_at: ch.expires_ms.div_euclid(1000),
            rated: settings.get("rated") == Some(&Value::Bool(true)),
            settings,
        }
    }
}

/// An account's open challenges (`GET /api/challenges`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ChallengeList {
    /// Those sent to it, the newest first.
    #[serde(rename = "in")]
    pub incoming: Vec<ChallengeView>,
    /// Those it made, the newest first.
    #[serde(rename = "out")]
    pub outgoing: Vec<ChallengeView>,
}

fn unprocessable(message: impl Into<String>) -> GameError {
    GameError::Unprocessable(message.into())
}

fn gone() -> GameError {
    GameError::Missing("no such challenge: it was answered or withdrawn, or it expired".into())
}

/// The account named by `to` and the settings of a challenge's body, as checked
/// before the game's rules are.
fn split_body(body: Value) -> Result<(String, Map<String, Value>), GameError> {
    let Value::Object(mut settings) = body else {
        return Err(GameError::BadRequest(
            "a challenge is a JSON object: {\"to\": \"a username\", \"variant\": \"kalah\", ...}"
                .into(),
        ));
    };
    let to = match settings.remove("to") {
        Some(Value::String(to)) => to,
        _ => return Err(unprocessable("to: the username of the account challenged")),
    };
    if let Some(key) = NOT_IN_A_CHALLENGE
        .iter()
        .find(|k| settings.contains_key(**k))
    {
        return Err(unprocessable(format!(
            "{key}: not part of a challenge (its game is between the two accounts, unlisted)"
        )));
    }
    Ok((to, settings))
}

impl Games {
    /// The new game `settings` asks for, checked as creating it would check it.
    fn checked_challenge(&self, settings: &Map<String, Value>) -> Result<NewGame, GameError> {
        let req: NewGame = serde_json::from_value(Value::Object(settings.clone()))
            .map_err(|e| unprocessable(e.to_string()))?;
        self.checked_setup(&req)?;
        if let Some(tc) = req.time_control {
            TimeControlRequest::check(tc)?;
        }
        if let Some(first) = req.first {
            FirstMover::seat(first)?;
        }
        Ok(req)
    }

    /// Challenges the account named in `body` (`"to"`) to the game its other fields
    /// describe, as `from`.
    ///
    /// # Errors
    /// [`GameError::Unprocessable`] for settings a new game would refuse, or that a
    /// challenge does not take; [`GameError::Missing`] for no such account;
    /// [`GameError::Conflict`] for a challenge to oneself; [`GameError::TooMany`] past
    /// [`OPEN_CHALLENGES`].
    pub async fn challenge(&self, from: &Account, body: Value) -> Result<ChallengeView, GameError> {
        let (to, settings) = split_body(body)?;
        self.checked_challenge(&settings)?;
        let Some(to) = self.store().account(&to.to_ascii_lowercase()).await? else {
            return Err(no_such_user());
        };
        if to.key == from.key {
            return Err(GameError::Conflict(
                "to: a challenge is to somebody else".into(),
            ));
        }
        let now = self.now_ms();
        let lifetime = i64::try_from(CHALLENGE_LIFETIME.as_millis()).unwrap_or(i64::MAX);
        let stored = StoredChallenge {
            id: random_hex::<9>(),
            challenger: from.key.clone(),
            challenger_name: from.name.clone(),
            challenged: to.key.clone(),
            challenged_name: to.name.clone(),
            request: Value::Object(settings).to_string(),
            created_ms: now,
            expires_ms: now.saturating_add(lifetime),
        };
        if !self.store().add_challenge(&stored, OPEN_CHALLENGES).await? {
            return Err(GameError::TooMany {
                message: format!(
                    "too many open challenges: at most {OPEN_CHALLENGES}; withdraw some, or \
                     wait for answers"
                ),
                retry_after: 60,
            });
        }
        let view = ChallengeView::of(&stored);
        self.tell_both(&stored, json!({ "type": "challenge", "challenge": view }))
            .await;
        Ok(view)
    }

    /// The open challenges `account` made or was sent.
    ///
    /// # Errors
    /// When the store fails.
    pub async fn challenges(&self, account: &Account) -> Result<ChallengeList, GameError> {
        let all = self
            .store()
            .challenges_of(&account.key, self.now_ms())
            .await?;
        let (incoming, outgoing): (Vec<_>, Vec<_>) =
            all.iter().partition(|ch| ch.challenged == account.key);
        Ok(ChallengeList {
            incoming: incoming.into_iter().map(ChallengeView::of).collect(),
            outgoing: outgoing.into_iter().map(ChallengeView::of).collect(),
        })
    }

    /// Accepts challenge `id` sent to `by`: the game starts, the challenger's account
    /// in one seat, `by`'s in the other (seat 1 is the challenger's; `first` says who
    /// moves first). The seat granted is `by`'s (its token plays it as the account
    /// does).
    ///
    /// # Errors
    /// [`GameError::Missing`] when no such challenge is open to `by`; the errors of
    /// creating and joining the game.
    pub async fn accept_challenge(&self, id: &str, by: &Account) -> Result<SeatGrant, GameError> {
        let ch = self
            .store()
            .take_challenge(id, &by.key, ChallengeRole::Challenged, self.now_ms())
            .await?
            .ok_or_else(gone)?;
        let challenger = self
            .store()
            .account(&ch.challenger)
            .await?
            .ok_or_else(no_such_user)?;
        let req: NewGame = serde_json::from_str(&ch.request)
            .map_err(|e| GameError::Internal(format!("a stored challenge: {e}")))?;
        let (row, grant) = self.create_row(req, None, Some(&challenger)).await?;
        let join = JoinRequest {
            invite: grant.invite,
            name: None,
        };
        let seat = self.join_as(&row.id, Ok(join), Some(by)).await?;
        Ok(SeatGrant {
            id: Some(row.id),
            ..seat
        })
    }

    /// Declines challenge `id` sent to `by`, saying why if `reason` is given.
    ///
    /// # Errors
    /// [`GameError::Missing`] when no such challenge is open to `by`;
    /// [`GameError::Unprocessable`] for a reason too long.
    pub async fn decline_challenge(
        &self,
        id: &str,
        by: &Account,
        reason: Option<String>,
    ) -> Result<(), GameError> {
        let reason = reason
            .map(|r| r.trim().to_owned())
            .filter(|r| !r.is_empty());
        if reason
            .as_ref()
            .is_some_and(|r| r.chars().count() > REASON_MAX_CHARS)
        {
            return Err(unprocessable(format!(
                "reason: at most {REASON_MAX_CHARS} characters"
            )));
        }
        let ch = self
            .store()
            .take_challenge(id, &by.key, ChallengeRole::Challenged, self.now_ms())
            .await?
            .ok_or_else(gone)?;
        let event = json!({
            "type": "challengeDeclined",
            "challenge": ChallengeView::of(&ch),
            "reason": reason,
        });
        self.tell_both(&ch, event).await;
        Ok(())
    }

    /// Withdraws challenge `id`, made by `by`.
    ///
    /// # Errors
    /// [`GameError::Missing`] when `by` made no such open challenge.
    pub async fn cancel_challenge(&self, id: &str, by: &Account) -> Result<(), GameError> {
        let ch = self
            .store()
            .take_challenge(id, &by.key, ChallengeRole::Challenger, self.now_ms())
            .await?
            .ok_or_else(gone)?;
        let event = json!({ "type": "challengeCanceled", "challenge": ChallengeView::of(&ch) });
        self.tell_both(&ch, event).await;
        Ok(())
    }

    /// Puts `event` on both accounts' streams: the challenged account's first.
    /// Deletes the challenges unanswered at their expiry, and tells both accounts of
    /// each (`challengeExpired`), as of a withdrawal or a refusal.
    ///
    /// # Errors
    /// When the store fails.
    pub(crate) async fn expire_challenges(&self) -> Result<(), GameError> {
        for ch in self.store().expire_challenges(self.now_ms()).await? {
            let event = json!({ "type": "challengeExpired", "challenge": ChallengeView::of(&ch) });
            self.tell_both(&ch, event).await;
        }
        Ok(())
    }

    async fn tell_both(&self, ch: &StoredChallenge, event: Value) {
        self.emit(&ch.challenged, event.clone()).await;
        self.emit(&ch.challenger, event).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_names_its_account_and_no_opponent() {
        let (to, rest) = split_body(json!({"to": "Bob", "variant": "kalah"})).unwrap();
        assert_eq!(to, "Bob");
        assert_eq!(Value::Object(rest), json!({"variant": "kalah"}));
        for bad in [
            json!({"variant": "kalah"}),
            json!({"to": 3}),
            json!({"to": "Bob", "opponent": "easy"}),
            json!({"to": "Bob", "public": true}),
        ] {
            assert!(
                matches!(split_body(bad.clone()), Err(GameError::Unprocessable(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            split_body(json!([1])),
            Err(GameError::BadRequest(_))
        ));
    }
}
