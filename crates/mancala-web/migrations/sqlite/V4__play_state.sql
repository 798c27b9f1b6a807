-- What playing keeps beside the moves (issue 25): the players' names, who moved first,
-- how the players stopped the game, an open offer, the time control and the clocks,
-- as one JSON text; a version counted up by every change, so that a change decided on
-- one state is stored only if the game is still in it; and when the running clock
-- falls, which the clocks' timer searches by.
ALTER TABLE games ADD COLUMN play TEXT NOT NULL DEFAULT '{}';
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN deadline INTEGER;

CREATE INDEX games_deadline ON games (deadline) WHERE deadline IS NOT NULL;
