-- Accounts people can trust (issue 56).
--
-- `rated_at`: when a rated game counted for its players' ratings (milliseconds since
-- the Unix epoch); NULL for a game that did not count (not rated, not yet rated, or
-- past the daily number of rated games between the same two accounts). The daily cap
-- counts these.
ALTER TABLE games ADD COLUMN rated_at INTEGER;
CREATE INDEX games_rated_by_pair ON games (account1, account2, rated_at)
    WHERE rated_at IS NOT NULL;

-- When each credential was made and last used (milliseconds since the Unix epoch;
-- NULL for those made before this migration), for the lists of one's sessions and
-- tokens. `last_used` moves at most once a minute.
ALTER TABLE credentials ADD COLUMN created INTEGER;
ALTER TABLE credentials ADD COLUMN last_used INTEGER;
