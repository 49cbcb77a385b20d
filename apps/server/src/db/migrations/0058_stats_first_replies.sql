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
