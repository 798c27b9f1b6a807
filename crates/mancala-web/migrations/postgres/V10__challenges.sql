-- Challenges and each account's events (issue 54; see the SQLite migration V10 for
-- what each column means). Times are milliseconds since the Unix epoch, as in `games`.
CREATE TABLE challenges (
    id              TEXT PRIMARY KEY,
    challenger      TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    challenger_name TEXT NOT NULL,
    challenged      TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    challenged_name TEXT NOT NULL,
    request         TEXT NOT NULL,
    created         BIGINT NOT NULL,
    expires         BIGINT NOT NULL
);
CREATE INDEX challenges_by_challenger ON challenges (challenger);
CREATE INDEX challenges_by_challenged ON challenges (challenged);

CREATE TABLE account_events (
    id      BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    created BIGINT NOT NULL,
    event   TEXT NOT NULL
);
CREATE INDEX account_events_by_account ON account_events (account, id);
