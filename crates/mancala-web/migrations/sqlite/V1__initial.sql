-- The schema of the releases before migrations, unchanged: on a database they wrote
-- this finds both tables in place and changes nothing.
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    variant       TEXT NOT NULL,
    houses        INTEGER NOT NULL,
    seeds         INTEGER NOT NULL,
    empty_capture INTEGER NOT NULL,
    end_rule      TEXT NOT NULL,
    opponent      TEXT NOT NULL,
    token1        BLOB NOT NULL,
    token2        BLOB,
    rematch       TEXT,
    created       INTEGER NOT NULL DEFAULT (unixepoch())
);
CREATE TABLE IF NOT EXISTS moves (
    game  TEXT NOT NULL REFERENCES games(id),
    ply   INTEGER NOT NULL,
    house INTEGER NOT NULL,
    PRIMARY KEY (game, ply)
) WITHOUT ROWID;
