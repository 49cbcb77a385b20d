DROP INDEX "chats_object_idx";--> statement-breakpoint
DROP INDEX "items_object_idx";--> statement-breakpoint
CREATE INDEX "chats_object_queue_idx" ON "chats" USING btree ("space_id","object_id","status","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "items_object_queue_idx" ON "items" USING btree ("space_id","object_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE NOT "is_own";--> statement-breakpoint
CREATE INDEX "messages_space_created_idx" ON "messages" USING btree ("space_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);