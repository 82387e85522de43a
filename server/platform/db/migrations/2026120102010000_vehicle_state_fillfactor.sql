-- vehicle_state is rewritten by every committed batch (one row per reporting vehicle), and only its
-- primary key is indexed: with room left on each page the new row version stays on the same page
-- (a HOT update: no index entry, and the old version is pruned in place). Full pages (the default
-- fillfactor 100) sent each update to another page with a new index entry, bloating both until vacuum.
-- Applies to pages written from now on; a VACUUM FULL rewrites existing ones.
ALTER TABLE vehicle_state SET (fillfactor = 50);
