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

-- Every change to a game is announced on the channel `mancala_changes` when its
-- transaction commits, as '<instance> <game id>' (the instance is the writer's
-- application_name), so that every server instance can update its live streams.
CREATE FUNCTION mancala_game_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mancala_changes', current_setting('application_name') || ' ' || NEW.id);
    RETURN NULL;
END
$$;
CREATE FUNCTION mancala_move_played() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('mancala_changes', current_setting('application_name') || ' ' || NEW.game);
    RETURN NULL;
END
$$;
CREATE TRIGGER games_changed AFTER UPDATE ON games
    FOR EACH ROW EXECUTE FUNCTION mancala_game_changed();
CREATE TRIGGER move_played AFTER INSERT ON moves
    FOR EACH ROW EXECUTE FUNCTION mancala_move_played();
