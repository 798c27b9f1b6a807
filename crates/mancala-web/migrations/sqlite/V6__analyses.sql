-- Game analyses (issue 40): a finished game's analysis, stored once computed so that
-- the next view is instant, and the claim of the instance computing it.
--
-- A row without a document is a job: `holder` names the instance computing it and
-- `expires` (milliseconds since the Unix epoch) is when its lease lapses unless
-- renewed, after which another instance may take it (a crashed job blocks nobody for
-- longer). A row with a document is done (`expires` 0); `plies` is the number of moves
-- it covers. The analysis goes with its game when the game expires.
CREATE TABLE analyses (
    game     TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    plies    INTEGER NOT NULL,
    document TEXT,
    holder   TEXT,
    expires  INTEGER NOT NULL
) WITHOUT ROWID;
