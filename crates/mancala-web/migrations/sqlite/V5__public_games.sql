-- Games created public (issue 25): listed in the lobby while they wait for an
-- opponent, and among the games to watch while they are played. A table of its own
-- rather than a column, so that a game's row is the same whether or not it is listed;
-- a listing goes with its game when the game expires.
CREATE TABLE IF NOT EXISTS listings (
    game TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE
) WITHOUT ROWID;
