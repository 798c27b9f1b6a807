-- Game analyses (issue 40, see the SQLite migration V6): the stored analysis of a
-- finished game, or the claim of the instance computing it (`holder` until `expires`,
-- the database server's time; '-infinity' once the document is stored).
CREATE TABLE analyses (
    game     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    plies    INTEGER NOT NULL,
    document TEXT,
    holder   TEXT,
    expires  TIMESTAMPTZ NOT NULL
);
