-- Challenges and each account's events (issue 54). Times are milliseconds since the
-- Unix epoch, as in `games`.
--
-- An open challenge from one account to another: the new game it asks for (`request`,
-- the JSON of a new-game request without its opponent), until it is answered,
-- withdrawn, or `expires`. An answered or withdrawn challenge is deleted: its events
-- tell what became of it. The names are the usernames as chosen, for the lists.
CREATE TABLE challenges (
    id              TEXT PRIMARY KEY,
    challenger      TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    challenger_name TEXT NOT NULL,
    challenged      TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    challenged_name TEXT NOT NULL,
    request         TEXT NOT NULL,
    created         INTEGER NOT NULL,
    expires         INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX challenges_by_challenger ON challenges (challenger);
CREATE INDEX challenges_by_challenged ON challenges (challenged);

-- What happened to an account (a challenge, a game starting or ending), as its event
-- stream sends it: `event` is the JSON object, `id` the stream's event id (increasing;
-- a reconnecting stream asks for those after the last it saw). Kept for a while.
CREATE TABLE account_events (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    account TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    created INTEGER NOT NULL,
    event   TEXT NOT NULL
);
CREATE INDEX account_events_by_account ON account_events (account, id);
