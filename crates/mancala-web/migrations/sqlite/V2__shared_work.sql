-- Work that exactly one server instance must do.
--
-- computer_turns: a row while the computer may owe a move in a game. The instance
-- thinking holds it: `holder` names the instance and `expires` (milliseconds since the
-- Unix epoch) is when its lease lapses unless renewed; 0 means nobody holds it.
CREATE TABLE computer_turns (
    game    TEXT PRIMARY KEY REFERENCES games(id),
    holder  TEXT,
    expires INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX computer_turns_expires ON computer_turns (expires);
-- Games written before this table existed: every game against the computer is
-- checked once (the instance that takes the row replays the game, moves if the
-- computer is to move, and otherwise deletes the row).
INSERT INTO computer_turns (game, holder, expires)
    SELECT id, NULL, 0 FROM games WHERE opponent <> 'human';

-- timers: a periodic job fires when one instance moves its `due` time forward.
CREATE TABLE timers (
    name TEXT PRIMARY KEY,
    due  INTEGER NOT NULL
) WITHOUT ROWID;
