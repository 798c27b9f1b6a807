-- What the web hardening keeps (issue 24): who started a game's rematch, the invite
-- secret's hash, and when the game last changed and ended (milliseconds since the
-- Unix epoch), by which games expire.
--
-- The release of the hardening added these columns itself (ALTER TABLE, without
-- migrations), so a database it wrote has some or all of them already: the server
-- leaves out the ADD COLUMN lines of the columns it finds and records this migration
-- as applied (SqliteStore's migrate). Each ADD COLUMN is one line for that reason, and
-- everything after them may run twice.
ALTER TABLE games ADD COLUMN rematch_by INTEGER;
ALTER TABLE games ADD COLUMN invite BLOB;
ALTER TABLE games ADD COLUMN activity INTEGER;
ALTER TABLE games ADD COLUMN finished INTEGER;

-- A game stored before activity was recorded starts its expiry clock at the upgrade:
-- nothing is deleted for having waited while the server did not keep time.
UPDATE games SET activity = unixepoch() * 1000 WHERE activity IS NULL;

CREATE INDEX IF NOT EXISTS games_activity ON games (activity);
CREATE INDEX IF NOT EXISTS games_finished ON games (finished);
