-- A game's rules as one value (issue 51): `rules` is `Rules::to_text`, the name and
-- board of a game of the catalogue with the options that differ from its defaults
-- (`kalah(5,3) empty-capture either-side-empty`, `oware(4,3)`), or the whole
-- description in JSON of a game of one's own. Only Kalah took the options of the five
-- columns of before, so only Kalah's are written.
--
-- Migrations only add: the five columns stay, and this release still writes them, so
-- that the instances of the release before keep running beside it during a rolling
-- upgrade; `rules` is NULL for a game such an instance stores meanwhile, and this
-- release then reads the five. A later release drops them.
ALTER TABLE games ADD COLUMN rules TEXT;
UPDATE games SET rules = variant || '(' || houses::text || ',' || seeds::text || ')'
    || CASE WHEN variant = 'kalah' AND empty_capture THEN ' empty-capture' ELSE '' END
    || CASE WHEN variant = 'kalah' AND end_rule <> 'mover-cannot-move'
            THEN ' ' || end_rule ELSE '' END;
