-- Accounts and ratings (issue 44; see the SQLite migration V7 for what each column
-- means). Times are milliseconds since the Unix epoch, as in `games`.
CREATE TABLE accounts (
    key      TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    password TEXT NOT NULL,
    bot      BOOLEAN NOT NULL DEFAULT false,
    created  BIGINT NOT NULL
);

CREATE TABLE credentials (
    token   BYTEA PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    kind    TEXT NOT NULL,
    expires BIGINT
);
CREATE INDEX credentials_by_account ON credentials (account);

CREATE TABLE ratings (
    account    TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    pool       TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (account, pool)
);
CREATE INDEX ratings_by_pool ON ratings (pool, rating);

ALTER TABLE games
    ADD COLUMN account1 TEXT REFERENCES accounts(key),
    ADD COLUMN account2 TEXT REFERENCES accounts(key),
    ADD COLUMN rated    BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN rating   TEXT;
CREATE INDEX games_by_account1 ON games (account1, activity) WHERE account1 IS NOT NULL;
CREATE INDEX games_by_account2 ON games (account2, activity) WHERE account2 IS NOT NULL;
