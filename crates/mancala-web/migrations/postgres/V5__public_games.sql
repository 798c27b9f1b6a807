-- Games created public (issue 25, see the SQLite migration V5): listed in the lobby
-- while they wait for an opponent, and among the games to watch while they are played.
CREATE TABLE listings (
    game TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE
);
