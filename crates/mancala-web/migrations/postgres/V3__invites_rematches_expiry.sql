-- What the web hardening keeps (issue 24, see the SQLite migration V3): who started a
-- game's rematch, the invite secret's hash, and when the game last changed and ended,
-- by which games expire. Times are milliseconds since the Unix epoch by the clock of
-- the instance that made the change (expiry is counted in days; the instances' clocks
-- agree far better than that).
ALTER TABLE games
    ADD COLUMN rematch_by SMALLINT,
    ADD COLUMN invite     BYTEA,
    ADD COLUMN activity   BIGINT,
    ADD COLUMN finished   BIGINT;

-- A game stored before activity was recorded starts its expiry clock at the upgrade.
UPDATE games SET activity = (extract(epoch FROM now()) * 1000)::bigint;
ALTER TABLE games ALTER COLUMN activity SET NOT NULL;

CREATE INDEX games_activity ON games (activity);
CREATE INDEX games_finished ON games (finished);
