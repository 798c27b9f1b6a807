-- Accounts people can trust (issue 56; see the SQLite migration V8 for what each
-- column means). Times are milliseconds since the Unix epoch, as in `games`.
ALTER TABLE games ADD COLUMN rated_at BIGINT;
CREATE INDEX games_rated_by_pair ON games (account1, account2, rated_at)
    WHERE rated_at IS NOT NULL;

ALTER TABLE credentials
    ADD COLUMN created   BIGINT,
    ADD COLUMN last_used BIGINT;
