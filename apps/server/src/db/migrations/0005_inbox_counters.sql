-- Badge counters per account/kind/status, kept by statement-level triggers with transition tables:
-- one counter upsert per statement (not per row), so batched ingestion stays fast. Rows are applied
-- in (object_id, status) order so concurrent transactions take counter locks in the same order.

CREATE OR REPLACE FUNCTION inbox_counters_apply(p_kind text, p_deltas jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO inbox_counters (object_id, space_id, kind, status, count)
  SELECT (d->>'object_id')::int, (d->>'space_id')::int, p_kind, d->>'status', (d->>'n')::bigint
  FROM jsonb_array_elements(p_deltas) AS d
  ORDER BY 1, 4
  ON CONFLICT (object_id, kind, status) DO UPDATE SET count = inbox_counters.count + EXCLUDED.count;
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION items_counters_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_object('object_id', object_id, 'space_id', space_id, 'status', status, 'n', n)) INTO deltas
    FROM (SELECT object_id, min(space_id) AS space_id, status, count(*) AS n FROM new_rows WHERE NOT is_own GROUP BY object_id, status) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(jsonb_build_object('object_id', object_id, 'space_id', space_id, 'status', status, 'n', -n)) INTO deltas
    FROM (SELECT object_id, min(space_id) AS space_id, status, count(*) AS n FROM old_rows WHERE NOT is_own GROUP BY object_id, status) s;
  ELSE
    SELECT jsonb_agg(jsonb_build_object('object_id', object_id, 'space_id', space_id, 'status', status, 'n', n)) INTO deltas
    FROM (
      SELECT object_id, min(space_id) AS space_id, status, sum(n) AS n FROM (
        SELECT object_id, space_id, status, -1 AS n FROM old_rows WHERE NOT is_own
        UNION ALL
        SELECT object_id, space_id, status, 1 AS n FROM new_rows WHERE NOT is_own
      ) u GROUP BY object_id, status HAVING sum(n) <> 0
    ) s;
  END IF;
  IF deltas IS NOT NULL THEN PERFORM inbox_counters_apply('items', deltas); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION chats_counters_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE deltas jsonb;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_agg(jsonb_build_object('object_id', object_id, 'space_id', space_id, 'status', status, 'n', n)) INTO deltas
    FROM (SELECT object_id, min(space_id) AS space_id, status, count(*) AS n FROM new_rows GROUP BY object_id, status) s;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_agg(jsonb_build_object('object_id', object_id, 'space_id', space_id, 'status', status, 'n', -n)) INTO deltas
    FROM (SELECT object_id, min(space_id) AS space_id, status, count(*) AS n FROM old_rows GROUP BY object_id, status) s;
  ELSE
    SELECT jsonb_agg(jsonb_build_object('object_id', object_id, 'space_id', space_id, 'status', status, 'n', n)) INTO deltas
    FROM (
      SELECT object_id, min(space_id) AS space_id, status, sum(n) AS n FROM (
        SELECT object_id, space_id, status, -1 AS n FROM old_rows
        UNION ALL
        SELECT object_id, space_id, status, 1 AS n FROM new_rows
      ) u GROUP BY object_id, status HAVING sum(n) <> 0
    ) s;
  END IF;
  IF deltas IS NOT NULL THEN PERFORM inbox_counters_apply('chats', deltas); END IF;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE TRIGGER items_counters_ins AFTER INSERT ON items REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION items_counters_trigger();--> statement-breakpoint
CREATE TRIGGER items_counters_upd AFTER UPDATE ON items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION items_counters_trigger();--> statement-breakpoint
CREATE TRIGGER items_counters_del AFTER DELETE ON items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION items_counters_trigger();--> statement-breakpoint
CREATE TRIGGER chats_counters_ins AFTER INSERT ON chats REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION chats_counters_trigger();--> statement-breakpoint
CREATE TRIGGER chats_counters_upd AFTER UPDATE ON chats REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION chats_counters_trigger();--> statement-breakpoint
CREATE TRIGGER chats_counters_del AFTER DELETE ON chats REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION chats_counters_trigger();
