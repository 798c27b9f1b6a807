-- Work that exactly one server instance must do (see the SQLite migration V2).
--
-- computer_turns: a row while the computer may owe a move in a game, held by the
-- instance thinking (`holder`) until `expires` unless renewed; '-infinity' when free.
-- All times are the database server's, so the instances' clocks do not matter.
CREATE TABLE computer_turns (
    game    TEXT PRIMARY KEY REFERENCES games(id),
    holder  TEXT,
    expires TIMESTAMPTZ NOT NULL
);
CREATE INDEX computer_turns_expires ON computer_turns (expires);
INSERT INTO computer_turns (game, holder, expires)
    SELECT id, NULL, '-infinity' FROM games WHERE opponent <> 'human';

-- timers: a periodic job fires when one instance moves its `due` time forward.
CREATE TABLE timers (
    name TEXT PRIMARY KEY,
    due  TIMESTAMPTZ NOT NULL
);
