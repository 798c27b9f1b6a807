-- A game's rules as one value (issue 51): `rules` is `Rules::to_text`, the name and
-- board of a game of the catalogue with the options that differ from its defaults
-- (`kalah(5,3) empty-capture either-side-empty`, `oware(4,3)`), or the whole
-- description in JSON of a game of one's own. The five columns it replaces named
-- Kalah's options for every game; only Kalah took them, so only Kalah's are written.
ALTER TABLE games ADD COLUMN rules TEXT;
UPDATE games SET rules = variant || '(' || houses::text || ',' || seeds::text || ')'
    || CASE WHEN variant = 'kalah' AND empty_capture THEN ' empty-capture' ELSE '' END
    || CASE WHEN variant = 'kalah' AND end_rule <> 'mover-cannot-move'
            THEN ' ' || end_rule ELSE '' END;
ALTER TABLE games ALTER COLUMN rules SET NOT NULL;
ALTER TABLE games DROP COLUMN variant, DROP COLUMN houses, DROP COLUMN seeds,
    DROP COLUMN empty_capture, DROP COLUMN end_rule;
