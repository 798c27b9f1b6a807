-- Games, hashed seat tokens and one row per move, as in the SQLite schema.
CREATE TABLE games (
    id            TEXT PRIMARY KEY,
    variant       TEXT NOT NULL,
    houses        SMALLINT NOT NULL,
    seeds         SMALLINT NOT NULL,
    empty_capture BOOLEAN NOT NULL,
    end_rule      TEXT NOT NULL,
    opponent      TEXT NOT NULL,
    token1        BYTEA NOT NULL,
    token2        BYTEA,
    rematch       TEXT,
    created       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE moves (
    game  TEXT NOT NULL REFERENCES games(id),
    ply   INTEGER NOT NULL,
    house SMALLINT NOT NULL,
    PRIMARY KEY (game, ply)
);
