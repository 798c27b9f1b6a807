-- What playing keeps beside the moves (issue 25, see the SQLite migration V4): the
-- play state as JSON text, the version counted up by every change, and when the
-- running clock falls (milliseconds since the Unix epoch).
ALTER TABLE games
    ADD COLUMN play     TEXT   NOT NULL DEFAULT '{}',
    ADD COLUMN version  BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN deadline BIGINT;

CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
