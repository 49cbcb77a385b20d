DROP INDEX "chats_space_arrived_idx";--> statement-breakpoint
CREATE INDEX "items_stats_arrival_idx" ON "items" USING btree ("space_id","created_at","kind","object_id","first_reply_at") WHERE NOT "is_own";--> statement-breakpoint
CREATE INDEX "items_stats_backlog_idx" ON "items" USING btree ("space_id","created_at","kind","object_id","assigned_user_id") WHERE NOT "is_own" AND "status" IN ('new', 'inprogress', 'open');--> statement-breakpoint
CREATE INDEX "chats_space_arrived_idx" ON "chats" USING btree ("space_id","arrived_at","object_id","first_reply_at") WHERE "arrived_at" IS NOT NULL;