CREATE TABLE "stats_first_replies" (
	"activity_id" bigint PRIMARY KEY NOT NULL,
	"item_id" bigint,
	"chat_id" bigint,
	"space_id" integer NOT NULL,
	"object_id" integer NOT NULL,
	"kind" text NOT NULL,
	"arrived" timestamp with time zone NOT NULL,
	"user_id" integer NOT NULL,
	"frt" double precision
);
--> statement-breakpoint
CREATE INDEX "stats_first_replies_arrival_idx" ON "stats_first_replies" USING btree ("space_id","arrived","kind","object_id","user_id","frt");--> statement-breakpoint
CREATE INDEX "stats_first_replies_member_idx" ON "stats_first_replies" USING btree ("space_id","user_id","frt","arrived","kind","object_id");--> statement-breakpoint
CREATE INDEX "stats_first_replies_item_idx" ON "stats_first_replies" USING btree ("item_id") WHERE "stats_first_replies"."item_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "stats_first_replies_chat_idx" ON "stats_first_replies" USING btree ("chat_id") WHERE "stats_first_replies"."chat_id" IS NOT NULL;--> statement-breakpoint
-- First replies of the statistics (docs/statistics.md "Rollups"): one row per first-reply action
-- (`item.replied` / `chat.replied` activity with `first`, by a member) on a unit that counts as incoming
-- (a customer item; a dialog with its first customer message), with the unit's space, account, kind,
-- arrival and first response time beside it: what the team table's first replies, their median and p90
-- are computed from (firstsQuery in modules/stats/queries-team.ts reads the same pairs raw). Kept by
-- statement-level triggers with transition tables, like stats_hourly (migrations 0055, 0057): activity
-- adds and removes its rows; an item or dialog whose space, account, kind, arrival, first reply or own
-- flag changed has its rows rebuilt from the activity log; a deleted one takes its rows along. An update
-- that changes none of those columns returns at once (most updates on the ingestion path); inserted items
-- and dialogs have no activity yet, so inserts of units run nothing. The changed rows are found with
-- EXCEPT (hashed or sorted), never a join of the two transition tables: a cached plan's nested loop over
-- them is quadratic on a bulk update that changes nothing counted (150,000 dialogs closed at once).
CREATE OR REPLACE FUNCTION stats_first_replies_activity_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (SELECT id FROM (SELECT id, space_id, type, item_id, chat_id, user_id, cause_kind, data->>'first' FROM old_rows
      EXCEPT SELECT id, space_id, type, item_id, chat_id, user_id, cause_kind, data->>'first' FROM new_rows) x) THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM stats_first_replies WHERE activity_id IN (
      SELECT id FROM old_rows WHERE type IN ('item.replied', 'chat.replied'));
  END IF;
  IF TG_OP IN ('UPDATE', 'INSERT') THEN
    INSERT INTO stats_first_replies (activity_id, item_id, chat_id, space_id, object_id, kind, arrived, user_id, frt)
    SELECT a.id, a.item_id, NULL::bigint, i.space_id, i.object_id, i.kind, i.created_at, a.user_id,
      CASE WHEN i.first_reply_at >= i.created_at THEN extract(epoch FROM (i.first_reply_at - i.created_at))::float8 END
    FROM new_rows a JOIN items i ON i.id = a.item_id
    WHERE a.type = 'item.replied' AND a.data->>'first' = 'true' AND a.cause_kind = 'user' AND a.user_id IS NOT NULL
      AND a.space_id = i.space_id AND NOT i.is_own
    UNION ALL
    SELECT a.id, NULL::bigint, a.chat_id, c.space_id, c.object_id, 'chat', c.arrived_at, a.user_id,
      CASE WHEN c.first_reply_at >= c.arrived_at THEN extract(epoch FROM (c.first_reply_at - c.arrived_at))::float8 END
    FROM new_rows a JOIN chats c ON c.id = a.chat_id
    WHERE a.type = 'chat.replied' AND a.data->>'first' = 'true' AND a.cause_kind = 'user' AND a.user_id IS NOT NULL
      AND a.space_id = c.space_id AND c.arrived_at IS NOT NULL
    ORDER BY 1;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_first_replies_items_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM stats_first_replies WHERE item_id IN (SELECT id FROM old_rows);
    RETURN NULL;
  END IF;
  IF NOT EXISTS (SELECT id FROM (SELECT id, space_id, object_id, kind, created_at, first_reply_at, is_own FROM old_rows EXCEPT SELECT id, space_id, object_id, kind, created_at, first_reply_at, is_own FROM new_rows) x) THEN
    RETURN NULL;
  END IF;
  DELETE FROM stats_first_replies WHERE item_id IN (SELECT id FROM (SELECT id, space_id, object_id, kind, created_at, first_reply_at, is_own FROM old_rows EXCEPT SELECT id, space_id, object_id, kind, created_at, first_reply_at, is_own FROM new_rows) x);
  INSERT INTO stats_first_replies (activity_id, item_id, chat_id, space_id, object_id, kind, arrived, user_id, frt)
    SELECT a.id, a.item_id, NULL::bigint, i.space_id, i.object_id, i.kind, i.created_at, a.user_id,
      CASE WHEN i.first_reply_at >= i.created_at THEN extract(epoch FROM (i.first_reply_at - i.created_at))::float8 END
    FROM activity a JOIN items i ON i.id = a.item_id
    WHERE a.type = 'item.replied' AND a.data->>'first' = 'true' AND a.cause_kind = 'user' AND a.user_id IS NOT NULL
      AND a.space_id = i.space_id AND NOT i.is_own
      AND a.item_id IN (SELECT id FROM (SELECT id, space_id, object_id, kind, created_at, first_reply_at, is_own FROM old_rows EXCEPT SELECT id, space_id, object_id, kind, created_at, first_reply_at, is_own FROM new_rows) x)
    ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_first_replies_chats_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM stats_first_replies WHERE chat_id IN (SELECT id FROM old_rows);
    RETURN NULL;
  END IF;
  IF NOT EXISTS (SELECT id FROM (SELECT id, space_id, object_id, arrived_at, first_reply_at FROM old_rows EXCEPT SELECT id, space_id, object_id, arrived_at, first_reply_at FROM new_rows) x) THEN
    RETURN NULL;
  END IF;
  DELETE FROM stats_first_replies WHERE chat_id IN (SELECT id FROM (SELECT id, space_id, object_id, arrived_at, first_reply_at FROM old_rows EXCEPT SELECT id, space_id, object_id, arrived_at, first_reply_at FROM new_rows) x);
  INSERT INTO stats_first_replies (activity_id, item_id, chat_id, space_id, object_id, kind, arrived, user_id, frt)
    SELECT a.id, NULL::bigint, a.chat_id, c.space_id, c.object_id, 'chat', c.arrived_at, a.user_id,
      CASE WHEN c.first_reply_at >= c.arrived_at THEN extract(epoch FROM (c.first_reply_at - c.arrived_at))::float8 END
    FROM activity a JOIN chats c ON c.id = a.chat_id
    WHERE a.type = 'chat.replied' AND a.data->>'first' = 'true' AND a.cause_kind = 'user' AND a.user_id IS NOT NULL
      AND a.space_id = c.space_id AND c.arrived_at IS NOT NULL
      AND a.chat_id IN (SELECT id FROM (SELECT id, space_id, object_id, arrived_at, first_reply_at FROM old_rows EXCEPT SELECT id, space_id, object_id, arrived_at, first_reply_at FROM new_rows) x)
    ORDER BY 1;
  RETURN NULL;
END $$;--> statement-breakpoint
INSERT INTO stats_first_replies (activity_id, item_id, chat_id, space_id, object_id, kind, arrived, user_id, frt)
    SELECT a.id, a.item_id, NULL::bigint, i.space_id, i.object_id, i.kind, i.created_at, a.user_id,
      CASE WHEN i.first_reply_at >= i.created_at THEN extract(epoch FROM (i.first_reply_at - i.created_at))::float8 END
    FROM activity a JOIN items i ON i.id = a.item_id
    WHERE a.type = 'item.replied' AND a.data->>'first' = 'true' AND a.cause_kind = 'user' AND a.user_id IS NOT NULL
      AND a.space_id = i.space_id AND NOT i.is_own
    UNION ALL
    SELECT a.id, NULL::bigint, a.chat_id, c.space_id, c.object_id, 'chat', c.arrived_at, a.user_id,
      CASE WHEN c.first_reply_at >= c.arrived_at THEN extract(epoch FROM (c.first_reply_at - c.arrived_at))::float8 END
    FROM activity a JOIN chats c ON c.id = a.chat_id
    WHERE a.type = 'chat.replied' AND a.data->>'first' = 'true' AND a.cause_kind = 'user' AND a.user_id IS NOT NULL
      AND a.space_id = c.space_id AND c.arrived_at IS NOT NULL
    ORDER BY 1;--> statement-breakpoint
CREATE TRIGGER activity_first_replies_ins AFTER INSERT ON activity REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stats_first_replies_activity_trigger();--> statement-breakpoint
CREATE TRIGGER activity_first_replies_upd AFTER UPDATE ON activity REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stats_first_replies_activity_trigger();--> statement-breakpoint
CREATE TRIGGER activity_first_replies_del AFTER DELETE ON activity REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stats_first_replies_activity_trigger();--> statement-breakpoint
CREATE TRIGGER items_first_replies_upd AFTER UPDATE ON items REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stats_first_replies_items_trigger();--> statement-breakpoint
CREATE TRIGGER items_first_replies_del AFTER DELETE ON items REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stats_first_replies_items_trigger();--> statement-breakpoint
CREATE TRIGGER chats_first_replies_upd AFTER UPDATE ON chats REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stats_first_replies_chats_trigger();--> statement-breakpoint
CREATE TRIGGER chats_first_replies_del AFTER DELETE ON chats REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION stats_first_replies_chats_trigger();
--> statement-breakpoint
-- The update guards of migration 0057 (stats_hourly) had the same quadratic join of the transition tables:
-- a bulk update that changes nothing counted (200,000 dialogs' last message text in one statement) ran
-- over two minutes in the guard alone. The three functions again, each guard written with EXCEPT; the
-- rest of each function is 0057's, unchanged.
CREATE OR REPLACE FUNCTION stats_items_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stats_hourly AS h (space_id, hour, object_id, kind, user_id, units, replied, messages, closed_reply, closed_noreply, closed_autorule, acts, replies, closings)
    SELECT space_id, hour, object_id, kind, user_id, sum(units), sum(replied), sum(messages), sum(closed_reply), sum(closed_noreply), sum(closed_autorule), sum(acts), sum(replies), sum(closings)
    FROM (SELECT r.space_id AS space_id, date_bin('1 hour', r.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, r.kind AS kind, 0 AS user_id, 1::int AS units, 1 * (r.first_reply_at IS NOT NULL)::int::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows r WHERE NOT r.is_own
      UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.closed_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, r.kind AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, 1 * (r.close_reason = 'reply')::int::int AS closed_reply, 1 * (r.close_reason = 'noreply')::int::int AS closed_noreply, 1 * (r.close_reason = 'autorule')::int::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows r WHERE NOT r.is_own AND r.status = 'closed' AND r.closed_at IS NOT NULL AND r.close_reason IN ('reply', 'noreply', 'autorule')) d
    GROUP BY space_id, hour, object_id, kind, user_id HAVING sum(units) <> 0 OR sum(replied) <> 0 OR sum(messages) <> 0 OR sum(closed_reply) <> 0 OR sum(closed_noreply) <> 0 OR sum(closed_autorule) <> 0 OR sum(acts) <> 0 OR sum(replies) <> 0 OR sum(closings) <> 0
    ORDER BY space_id, hour, object_id, kind, user_id
    ON CONFLICT (space_id, hour, object_id, kind, user_id) DO UPDATE SET units = h.units + EXCLUDED.units, replied = h.replied + EXCLUDED.replied, messages = h.messages + EXCLUDED.messages, closed_reply = h.closed_reply + EXCLUDED.closed_reply, closed_noreply = h.closed_noreply + EXCLUDED.closed_noreply, closed_autorule = h.closed_autorule + EXCLUDED.closed_autorule, acts = h.acts + EXCLUDED.acts, replies = h.replies + EXCLUDED.replies, closings = h.closings + EXCLUDED.closings;
  ELSIF TG_OP = 'DELETE' THEN
    -- A deleted item's activity no longer counts (its kind is unknown): take the members' actions off too.
    INSERT INTO stats_hourly AS h (space_id, hour, object_id, kind, user_id, units, replied, messages, closed_reply, closed_noreply, closed_autorule, acts, replies, closings)
    SELECT space_id, hour, object_id, kind, user_id, sum(units), sum(replied), sum(messages), sum(closed_reply), sum(closed_noreply), sum(closed_autorule), sum(acts), sum(replies), sum(closings)
    FROM (SELECT r.space_id AS space_id, date_bin('1 hour', r.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, r.kind AS kind, 0 AS user_id, -1::int AS units, -1 * (r.first_reply_at IS NOT NULL)::int::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows r WHERE NOT r.is_own
      UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.closed_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, r.kind AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, -1 * (r.close_reason = 'reply')::int::int AS closed_reply, -1 * (r.close_reason = 'noreply')::int::int AS closed_noreply, -1 * (r.close_reason = 'autorule')::int::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows r WHERE NOT r.is_own AND r.status = 'closed' AND r.closed_at IS NOT NULL AND r.close_reason IN ('reply', 'noreply', 'autorule') UNION ALL SELECT a.space_id AS space_id, date_bin('1 hour', a.at, timestamptz '2000-01-01 00:00:00+00') AS hour, coalesce(a.object_id, 0) AS object_id, o.kind AS kind, a.user_id AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, -1::int AS acts, -1 * (a.type IN ('item.replied', 'chat.replied'))::int::int AS replies, -1 * (a.type IN ('item.status', 'chat.status') AND a.data->>'to' = 'closed')::int::int AS closings FROM activity a JOIN old_rows o ON o.id = a.item_id WHERE a.cause_kind = 'user' AND a.user_id IS NOT NULL) d
    GROUP BY space_id, hour, object_id, kind, user_id HAVING sum(units) <> 0 OR sum(replied) <> 0 OR sum(messages) <> 0 OR sum(closed_reply) <> 0 OR sum(closed_noreply) <> 0 OR sum(closed_autorule) <> 0 OR sum(acts) <> 0 OR sum(replies) <> 0 OR sum(closings) <> 0
    ORDER BY space_id, hour, object_id, kind, user_id
    ON CONFLICT (space_id, hour, object_id, kind, user_id) DO UPDATE SET units = h.units + EXCLUDED.units, replied = h.replied + EXCLUDED.replied, messages = h.messages + EXCLUDED.messages, closed_reply = h.closed_reply + EXCLUDED.closed_reply, closed_noreply = h.closed_noreply + EXCLUDED.closed_noreply, closed_autorule = h.closed_autorule + EXCLUDED.closed_autorule, acts = h.acts + EXCLUDED.acts, replies = h.replies + EXCLUDED.replies, closings = h.closings + EXCLUDED.closings;
  ELSE
    IF NOT EXISTS (SELECT id FROM (SELECT id, space_id, object_id, kind, created_at, first_reply_at, closed_at, close_reason, status, is_own FROM old_rows EXCEPT SELECT id, space_id, object_id, kind, created_at, first_reply_at, closed_at, close_reason, status, is_own FROM new_rows) x) THEN
      RETURN NULL;
    END IF;
    INSERT INTO stats_hourly AS h (space_id, hour, object_id, kind, user_id, units, replied, messages, closed_reply, closed_noreply, closed_autorule, acts, replies, closings)
    SELECT space_id, hour, object_id, kind, user_id, sum(units), sum(replied), sum(messages), sum(closed_reply), sum(closed_noreply), sum(closed_autorule), sum(acts), sum(replies), sum(closings)
    FROM (SELECT r.space_id AS space_id, date_bin('1 hour', r.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, r.kind AS kind, 0 AS user_id, -1::int AS units, -1 * (r.first_reply_at IS NOT NULL)::int::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows r WHERE NOT r.is_own
      UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.closed_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, r.kind AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, -1 * (r.close_reason = 'reply')::int::int AS closed_reply, -1 * (r.close_reason = 'noreply')::int::int AS closed_noreply, -1 * (r.close_reason = 'autorule')::int::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows r WHERE NOT r.is_own AND r.status = 'closed' AND r.closed_at IS NOT NULL AND r.close_reason IN ('reply', 'noreply', 'autorule') UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, r.kind AS kind, 0 AS user_id, 1::int AS units, 1 * (r.first_reply_at IS NOT NULL)::int::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows r WHERE NOT r.is_own
      UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.closed_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, r.kind AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, 1 * (r.close_reason = 'reply')::int::int AS closed_reply, 1 * (r.close_reason = 'noreply')::int::int AS closed_noreply, 1 * (r.close_reason = 'autorule')::int::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows r WHERE NOT r.is_own AND r.status = 'closed' AND r.closed_at IS NOT NULL AND r.close_reason IN ('reply', 'noreply', 'autorule') UNION ALL SELECT a.space_id AS space_id, date_bin('1 hour', a.at, timestamptz '2000-01-01 00:00:00+00') AS hour, coalesce(a.object_id, 0) AS object_id, o.kind AS kind, a.user_id AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, -1::int AS acts, -1 * (a.type IN ('item.replied', 'chat.replied'))::int::int AS replies, -1 * (a.type IN ('item.status', 'chat.status') AND a.data->>'to' = 'closed')::int::int AS closings FROM activity a JOIN old_rows o ON o.id = a.item_id JOIN new_rows n ON n.id = o.id AND n.kind <> o.kind WHERE a.cause_kind = 'user' AND a.user_id IS NOT NULL UNION ALL SELECT a.space_id AS space_id, date_bin('1 hour', a.at, timestamptz '2000-01-01 00:00:00+00') AS hour, coalesce(a.object_id, 0) AS object_id, n.kind AS kind, a.user_id AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 1::int AS acts, 1 * (a.type IN ('item.replied', 'chat.replied'))::int::int AS replies, 1 * (a.type IN ('item.status', 'chat.status') AND a.data->>'to' = 'closed')::int::int AS closings FROM activity a JOIN old_rows o ON o.id = a.item_id JOIN new_rows n ON n.id = o.id AND n.kind <> o.kind WHERE a.cause_kind = 'user' AND a.user_id IS NOT NULL) d
    GROUP BY space_id, hour, object_id, kind, user_id HAVING sum(units) <> 0 OR sum(replied) <> 0 OR sum(messages) <> 0 OR sum(closed_reply) <> 0 OR sum(closed_noreply) <> 0 OR sum(closed_autorule) <> 0 OR sum(acts) <> 0 OR sum(replies) <> 0 OR sum(closings) <> 0
    ORDER BY space_id, hour, object_id, kind, user_id
    ON CONFLICT (space_id, hour, object_id, kind, user_id) DO UPDATE SET units = h.units + EXCLUDED.units, replied = h.replied + EXCLUDED.replied, messages = h.messages + EXCLUDED.messages, closed_reply = h.closed_reply + EXCLUDED.closed_reply, closed_noreply = h.closed_noreply + EXCLUDED.closed_noreply, closed_autorule = h.closed_autorule + EXCLUDED.closed_autorule, acts = h.acts + EXCLUDED.acts, replies = h.replies + EXCLUDED.replies, closings = h.closings + EXCLUDED.closings;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_chats_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stats_hourly AS h (space_id, hour, object_id, kind, user_id, units, replied, messages, closed_reply, closed_noreply, closed_autorule, acts, replies, closings)
    SELECT space_id, hour, object_id, kind, user_id, sum(units), sum(replied), sum(messages), sum(closed_reply), sum(closed_noreply), sum(closed_autorule), sum(acts), sum(replies), sum(closings)
    FROM (SELECT r.space_id AS space_id, date_bin('1 hour', r.arrived_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 1::int AS units, 1 * (r.first_reply_at IS NOT NULL)::int::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows r WHERE r.arrived_at IS NOT NULL
      UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.closed_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, 1 * (r.close_reason = 'reply')::int::int AS closed_reply, 1 * (r.close_reason = 'noreply')::int::int AS closed_noreply, 1 * (r.close_reason = 'autorule')::int::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows r WHERE r.status = 'closed' AND r.closed_at IS NOT NULL AND r.close_reason IN ('reply', 'noreply', 'autorule')) d
    GROUP BY space_id, hour, object_id, kind, user_id HAVING sum(units) <> 0 OR sum(replied) <> 0 OR sum(messages) <> 0 OR sum(closed_reply) <> 0 OR sum(closed_noreply) <> 0 OR sum(closed_autorule) <> 0 OR sum(acts) <> 0 OR sum(replies) <> 0 OR sum(closings) <> 0
    ORDER BY space_id, hour, object_id, kind, user_id
    ON CONFLICT (space_id, hour, object_id, kind, user_id) DO UPDATE SET units = h.units + EXCLUDED.units, replied = h.replied + EXCLUDED.replied, messages = h.messages + EXCLUDED.messages, closed_reply = h.closed_reply + EXCLUDED.closed_reply, closed_noreply = h.closed_noreply + EXCLUDED.closed_noreply, closed_autorule = h.closed_autorule + EXCLUDED.closed_autorule, acts = h.acts + EXCLUDED.acts, replies = h.replies + EXCLUDED.replies, closings = h.closings + EXCLUDED.closings;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO stats_hourly AS h (space_id, hour, object_id, kind, user_id, units, replied, messages, closed_reply, closed_noreply, closed_autorule, acts, replies, closings)
    SELECT space_id, hour, object_id, kind, user_id, sum(units), sum(replied), sum(messages), sum(closed_reply), sum(closed_noreply), sum(closed_autorule), sum(acts), sum(replies), sum(closings)
    FROM (SELECT r.space_id AS space_id, date_bin('1 hour', r.arrived_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, 'chat' AS kind, 0 AS user_id, -1::int AS units, -1 * (r.first_reply_at IS NOT NULL)::int::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows r WHERE r.arrived_at IS NOT NULL
      UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.closed_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, -1 * (r.close_reason = 'reply')::int::int AS closed_reply, -1 * (r.close_reason = 'noreply')::int::int AS closed_noreply, -1 * (r.close_reason = 'autorule')::int::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows r WHERE r.status = 'closed' AND r.closed_at IS NOT NULL AND r.close_reason IN ('reply', 'noreply', 'autorule')) d
    GROUP BY space_id, hour, object_id, kind, user_id HAVING sum(units) <> 0 OR sum(replied) <> 0 OR sum(messages) <> 0 OR sum(closed_reply) <> 0 OR sum(closed_noreply) <> 0 OR sum(closed_autorule) <> 0 OR sum(acts) <> 0 OR sum(replies) <> 0 OR sum(closings) <> 0
    ORDER BY space_id, hour, object_id, kind, user_id
    ON CONFLICT (space_id, hour, object_id, kind, user_id) DO UPDATE SET units = h.units + EXCLUDED.units, replied = h.replied + EXCLUDED.replied, messages = h.messages + EXCLUDED.messages, closed_reply = h.closed_reply + EXCLUDED.closed_reply, closed_noreply = h.closed_noreply + EXCLUDED.closed_noreply, closed_autorule = h.closed_autorule + EXCLUDED.closed_autorule, acts = h.acts + EXCLUDED.acts, replies = h.replies + EXCLUDED.replies, closings = h.closings + EXCLUDED.closings;
  ELSE
    IF NOT EXISTS (SELECT id FROM (SELECT id, space_id, object_id, arrived_at, first_reply_at, closed_at, close_reason, status FROM old_rows EXCEPT SELECT id, space_id, object_id, arrived_at, first_reply_at, closed_at, close_reason, status FROM new_rows) x) THEN
      RETURN NULL;
    END IF;
    -- A dialog moved to another account takes its customer messages along.
    INSERT INTO stats_hourly AS h (space_id, hour, object_id, kind, user_id, units, replied, messages, closed_reply, closed_noreply, closed_autorule, acts, replies, closings)
    SELECT space_id, hour, object_id, kind, user_id, sum(units), sum(replied), sum(messages), sum(closed_reply), sum(closed_noreply), sum(closed_autorule), sum(acts), sum(replies), sum(closings)
    FROM (SELECT r.space_id AS space_id, date_bin('1 hour', r.arrived_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, 'chat' AS kind, 0 AS user_id, -1::int AS units, -1 * (r.first_reply_at IS NOT NULL)::int::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows r WHERE r.arrived_at IS NOT NULL
      UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.closed_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, -1 * (r.close_reason = 'reply')::int::int AS closed_reply, -1 * (r.close_reason = 'noreply')::int::int AS closed_noreply, -1 * (r.close_reason = 'autorule')::int::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows r WHERE r.status = 'closed' AND r.closed_at IS NOT NULL AND r.close_reason IN ('reply', 'noreply', 'autorule') UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.arrived_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 1::int AS units, 1 * (r.first_reply_at IS NOT NULL)::int::int AS replied, 0::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows r WHERE r.arrived_at IS NOT NULL
      UNION ALL SELECT r.space_id AS space_id, date_bin('1 hour', r.closed_at, timestamptz '2000-01-01 00:00:00+00') AS hour, r.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 0::int AS messages, 1 * (r.close_reason = 'reply')::int::int AS closed_reply, 1 * (r.close_reason = 'noreply')::int::int AS closed_noreply, 1 * (r.close_reason = 'autorule')::int::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows r WHERE r.status = 'closed' AND r.closed_at IS NOT NULL AND r.close_reason IN ('reply', 'noreply', 'autorule') UNION ALL SELECT o.space_id AS space_id, date_bin('1 hour', m.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, o.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, -1::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows o JOIN new_rows n ON n.id = o.id AND n.object_id <> o.object_id JOIN messages m ON m.chat_id = o.id AND NOT m.is_own UNION ALL SELECT n.space_id AS space_id, date_bin('1 hour', m.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, n.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 1::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows o JOIN new_rows n ON n.id = o.id AND n.object_id <> o.object_id JOIN messages m ON m.chat_id = o.id AND NOT m.is_own) d
    GROUP BY space_id, hour, object_id, kind, user_id HAVING sum(units) <> 0 OR sum(replied) <> 0 OR sum(messages) <> 0 OR sum(closed_reply) <> 0 OR sum(closed_noreply) <> 0 OR sum(closed_autorule) <> 0 OR sum(acts) <> 0 OR sum(replies) <> 0 OR sum(closings) <> 0
    ORDER BY space_id, hour, object_id, kind, user_id
    ON CONFLICT (space_id, hour, object_id, kind, user_id) DO UPDATE SET units = h.units + EXCLUDED.units, replied = h.replied + EXCLUDED.replied, messages = h.messages + EXCLUDED.messages, closed_reply = h.closed_reply + EXCLUDED.closed_reply, closed_noreply = h.closed_noreply + EXCLUDED.closed_noreply, closed_autorule = h.closed_autorule + EXCLUDED.closed_autorule, acts = h.acts + EXCLUDED.acts, replies = h.replies + EXCLUDED.replies, closings = h.closings + EXCLUDED.closings;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION stats_messages_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stats_hourly AS h (space_id, hour, object_id, kind, user_id, units, replied, messages, closed_reply, closed_noreply, closed_autorule, acts, replies, closings)
    SELECT space_id, hour, object_id, kind, user_id, sum(units), sum(replied), sum(messages), sum(closed_reply), sum(closed_noreply), sum(closed_autorule), sum(acts), sum(replies), sum(closings)
    FROM (SELECT c.space_id AS space_id, date_bin('1 hour', m.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, c.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 1::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows m JOIN chats c ON c.id = m.chat_id WHERE NOT m.is_own) d
    GROUP BY space_id, hour, object_id, kind, user_id HAVING sum(units) <> 0 OR sum(replied) <> 0 OR sum(messages) <> 0 OR sum(closed_reply) <> 0 OR sum(closed_noreply) <> 0 OR sum(closed_autorule) <> 0 OR sum(acts) <> 0 OR sum(replies) <> 0 OR sum(closings) <> 0
    ORDER BY space_id, hour, object_id, kind, user_id
    ON CONFLICT (space_id, hour, object_id, kind, user_id) DO UPDATE SET units = h.units + EXCLUDED.units, replied = h.replied + EXCLUDED.replied, messages = h.messages + EXCLUDED.messages, closed_reply = h.closed_reply + EXCLUDED.closed_reply, closed_noreply = h.closed_noreply + EXCLUDED.closed_noreply, closed_autorule = h.closed_autorule + EXCLUDED.closed_autorule, acts = h.acts + EXCLUDED.acts, replies = h.replies + EXCLUDED.replies, closings = h.closings + EXCLUDED.closings;
    UPDATE chats c SET arrived_at = n.first FROM (
      SELECT chat_id, min(created_at) AS first FROM new_rows WHERE NOT is_own GROUP BY chat_id ORDER BY chat_id
    ) n WHERE c.id = n.chat_id AND (c.arrived_at IS NULL OR c.arrived_at > n.first);
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO stats_hourly AS h (space_id, hour, object_id, kind, user_id, units, replied, messages, closed_reply, closed_noreply, closed_autorule, acts, replies, closings)
    SELECT space_id, hour, object_id, kind, user_id, sum(units), sum(replied), sum(messages), sum(closed_reply), sum(closed_noreply), sum(closed_autorule), sum(acts), sum(replies), sum(closings)
    FROM (SELECT c.space_id AS space_id, date_bin('1 hour', m.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, c.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, -1::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows m JOIN chats c ON c.id = m.chat_id WHERE NOT m.is_own) d
    GROUP BY space_id, hour, object_id, kind, user_id HAVING sum(units) <> 0 OR sum(replied) <> 0 OR sum(messages) <> 0 OR sum(closed_reply) <> 0 OR sum(closed_noreply) <> 0 OR sum(closed_autorule) <> 0 OR sum(acts) <> 0 OR sum(replies) <> 0 OR sum(closings) <> 0
    ORDER BY space_id, hour, object_id, kind, user_id
    ON CONFLICT (space_id, hour, object_id, kind, user_id) DO UPDATE SET units = h.units + EXCLUDED.units, replied = h.replied + EXCLUDED.replied, messages = h.messages + EXCLUDED.messages, closed_reply = h.closed_reply + EXCLUDED.closed_reply, closed_noreply = h.closed_noreply + EXCLUDED.closed_noreply, closed_autorule = h.closed_autorule + EXCLUDED.closed_autorule, acts = h.acts + EXCLUDED.acts, replies = h.replies + EXCLUDED.replies, closings = h.closings + EXCLUDED.closings;
    UPDATE chats c SET arrived_at = (SELECT min(m.created_at) FROM messages m WHERE m.chat_id = c.id AND NOT m.is_own)
    WHERE c.id IN (SELECT chat_id FROM old_rows WHERE NOT is_own)
      AND c.arrived_at IS DISTINCT FROM (SELECT min(m.created_at) FROM messages m WHERE m.chat_id = c.id AND NOT m.is_own);
  ELSE
    IF NOT EXISTS (SELECT id FROM (SELECT id, chat_id, created_at, is_own FROM old_rows EXCEPT SELECT id, chat_id, created_at, is_own FROM new_rows) x) THEN
      RETURN NULL;
    END IF;
    INSERT INTO stats_hourly AS h (space_id, hour, object_id, kind, user_id, units, replied, messages, closed_reply, closed_noreply, closed_autorule, acts, replies, closings)
    SELECT space_id, hour, object_id, kind, user_id, sum(units), sum(replied), sum(messages), sum(closed_reply), sum(closed_noreply), sum(closed_autorule), sum(acts), sum(replies), sum(closings)
    FROM (SELECT c.space_id AS space_id, date_bin('1 hour', m.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, c.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, -1::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM old_rows m JOIN chats c ON c.id = m.chat_id WHERE NOT m.is_own UNION ALL SELECT c.space_id AS space_id, date_bin('1 hour', m.created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, c.object_id AS object_id, 'chat' AS kind, 0 AS user_id, 0::int AS units, 0::int AS replied, 1::int AS messages, 0::int AS closed_reply, 0::int AS closed_noreply, 0::int AS closed_autorule, 0::int AS acts, 0::int AS replies, 0::int AS closings FROM new_rows m JOIN chats c ON c.id = m.chat_id WHERE NOT m.is_own) d
    GROUP BY space_id, hour, object_id, kind, user_id HAVING sum(units) <> 0 OR sum(replied) <> 0 OR sum(messages) <> 0 OR sum(closed_reply) <> 0 OR sum(closed_noreply) <> 0 OR sum(closed_autorule) <> 0 OR sum(acts) <> 0 OR sum(replies) <> 0 OR sum(closings) <> 0
    ORDER BY space_id, hour, object_id, kind, user_id
    ON CONFLICT (space_id, hour, object_id, kind, user_id) DO UPDATE SET units = h.units + EXCLUDED.units, replied = h.replied + EXCLUDED.replied, messages = h.messages + EXCLUDED.messages, closed_reply = h.closed_reply + EXCLUDED.closed_reply, closed_noreply = h.closed_noreply + EXCLUDED.closed_noreply, closed_autorule = h.closed_autorule + EXCLUDED.closed_autorule, acts = h.acts + EXCLUDED.acts, replies = h.replies + EXCLUDED.replies, closings = h.closings + EXCLUDED.closings;
    UPDATE chats c SET arrived_at = (SELECT min(m.created_at) FROM messages m WHERE m.chat_id = c.id AND NOT m.is_own)
    WHERE c.id IN (SELECT chat_id FROM old_rows UNION SELECT chat_id FROM new_rows)
      AND c.arrived_at IS DISTINCT FROM (SELECT min(m.created_at) FROM messages m WHERE m.chat_id = c.id AND NOT m.is_own);
  END IF;
  RETURN NULL;
END $$;
