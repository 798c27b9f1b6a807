-- Accounts and ratings (issue 44).
--
-- An account's `key` is its username in lower case, so that names are unique without
-- regard to case; `name` is the username as chosen. `password` is an argon2id hash in
-- the PHC string format: the password itself is never stored.
CREATE TABLE accounts (
    key      TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    password TEXT NOT NULL,
    bot      INTEGER NOT NULL DEFAULT 0,
    created  INTEGER NOT NULL
) WITHOUT ROWID;

-- The secrets that act for an account: a browser's session cookie (`kind` 'session',
-- until `expires`, milliseconds since the Unix epoch) or a bot's personal API token
-- (`kind` 'api', `expires` NULL: until revoked). Only the SHA-256 of a secret is kept.
CREATE TABLE credentials (
    token   BLOB PRIMARY KEY,
    account TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    kind    TEXT NOT NULL,
    expires INTEGER
) WITHOUT ROWID;
CREATE INDEX credentials_by_account ON credentials (account);

-- Each account's Glicko-2 rating in each pool (a variant on a board size).
CREATE TABLE ratings (
    account    TEXT NOT NULL REFERENCES accounts(key) ON DELETE CASCADE,
    pool       TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL,
    PRIMARY KEY (account, pool)
) WITHOUT ROWID;
CREATE INDEX ratings_by_pool ON ratings (pool, rating);

-- The account holding each seat, whether the game is rated, and once it has been
-- rated, the players' ratings before and after it (JSON).
ALTER TABLE games ADD COLUMN account1 TEXT REFERENCES accounts(key);
ALTER TABLE games ADD COLUMN account2 TEXT REFERENCES accounts(key);
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN rating TEXT;
CREATE INDEX games_by_account1 ON games (account1, activity) WHERE account1 IS NOT NULL;
CREATE INDEX games_by_account2 ON games (account2, activity) WHERE account2 IS NOT NULL;
